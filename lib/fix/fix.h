/*
 * fix.h - the fix stage's hook into smp_check(): each finding's byte edit,
 * for the JSON output and the library's callers (struct smp_finding's
 * edit_text); smp_fix() itself is public (smpreflight.h).
 */
#ifndef SMP_FIX_FIX_H
#define SMP_FIX_FIX_H

#include <stddef.h>

#include "report/report.h"
#include "doc/doc.h"

/*
 * Sets the byte edit of every finding of rep whose rule's fix applies
 * itself, in buf[0..len), the text docs were parsed from (an allocation
 * failure marks rep failed). A Python launcher or notebook: none.
 */
void smp__fix_annotate(struct smp_report *rep, const struct smp_docs *docs,
		       const char *buf, size_t len);

#endif
