/*
 * edit.h - a finding's typed patch as one byte edit of the YAML or JSON
 * text it came from: replace buf[start, end) with text. Only the span
 * changes; the edit takes the style of what surrounds it (quoting, flow
 * or block, indentation, line endings), so every other byte stays.
 */
#ifndef SMP_FIX_EDIT_H
#define SMP_FIX_EDIT_H

#include <stddef.h>

#include "smpreflight.h"
#include "util/arena.h"
#include "doc/doc.h"

struct smp_fix_edit {
	size_t start;
	size_t end; /* exclusive; start == end: an insertion */
	const char *text;
	size_t text_len;
};

/* How the text is written: the edit takes its syntax. */
enum smp_fix_syntax {
	SMP_FIX_YAML = 0,
	SMP_FIX_JSON = 1,
	/* a launcher: only literals are replaced, a keyword is added to a
	 * call or a key to a dict literal; a value the launcher computes
	 * (a name, arithmetic, a call) is never overwritten */
	SMP_FIX_PYTHON = 2
};

/*
 * The edit that applies f's suggestion (SET or RENAME) to the document
 * root of buf[0..len) (written in syntax), its text in arena.
 * Returns 0 with *out set; 1 when the patch has no edit here (no
 * suggestion, the target crosses a list or an unknown value, the new key
 * exists already, or the edit would change nothing): the fix stays a
 * message; SMP_ENOMEM.
 */
int smp__fix_edit(struct smp_fix_edit *out, struct smp_arena *arena,
		  const char *buf, size_t len, const struct smp_node *root,
		  enum smp_fix_syntax syntax, const struct smp_finding *f);

#endif
