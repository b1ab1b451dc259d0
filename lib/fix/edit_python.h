/*
 * edit_python.h - the byte edits of edit.c in a Python launcher: a
 * literal replaced by a literal in the same quotes, a keyword renamed, a
 * keyword added to a call or a key to a dict literal in the style of its
 * siblings. The node tree's spans are all they read: a span that is not a
 * plain literal (a name, arithmetic, a call: a value the launcher
 * computes) is never edited, and the fix stays a message.
 */
#ifndef SMP_FIX_EDIT_PYTHON_H
#define SMP_FIX_EDIT_PYTHON_H

#include <stddef.h>

#include "smpreflight.h"
#include "util/buf.h"
#include "doc/doc.h"

/* The text replacing the literal node with f's value into b: 0, or 1 when
 * node's span is no plain literal. */
int smp__py_set(struct smp_buf *b, const char *buf, const struct smp_node *node,
		const struct smp_finding *f);

/* The text replacing key (a keyword or a string literal) with
 * name[0..n) into b: 0, or 1 when it cannot be written so. */
int smp__py_key(struct smp_buf *b, const char *buf, const struct smp_node *key,
		const char *name, size_t n);

/*
 * The insertion of keys[0..n) (nested) = f's value into mapping m (a
 * call's keywords or a dict literal) into b, at *at: 0, or 1 when m's
 * text is not such a call or literal (an empty one, a value that comes
 * from elsewhere).
 */
int smp__py_insert(struct smp_buf *b, size_t *at, const char *buf, size_t len,
		   const struct smp_node *m, const char *const *keys,
		   const size_t *lens, size_t n, const struct smp_finding *f);

#endif
