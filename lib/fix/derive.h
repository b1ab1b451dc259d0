/*
 * derive.h - the check of a fixed text without checking it: when every
 * fix of a pass was local (rules.def L()), the report of the new text is
 * the report of the old one less the fixed findings, each other finding
 * moved with the edits. fix.c decides when that holds for the rules;
 * this file when it holds for the text, and makes the report.
 */
#ifndef SMP_FIX_DERIVE_H
#define SMP_FIX_DERIVE_H

#include <stddef.h>

#include "smpreflight.h"
#include "doc/limits.h"
#include "report/report.h"
#include "fix/edit.h"

/*
 * Turns rep, the check of old[0..old_len), into the check of
 * cur[0..len), the text edits (sorted by start, not overlapping, in old's
 * offsets) made of it; gone[i] is 1 for each finding i the edits fixed.
 * Returns 0 when done; 1 when the report cannot be derived (a finding or
 * a remaining edit touches an edit, a YAML anchor may share an edited
 * node, an insertion may take a mapping past a schema's maxProperties or
 * the text past limits, too many findings to move): rep is unchanged and
 * the caller checks cur; SMP_ENOMEM (rep unchanged, marked failed).
 */
int smp__fix_derive(struct smp_report *rep, const struct smp_fix_edit *edits,
		    size_t n, const unsigned char *gone, const char *old,
		    size_t old_len, const char *cur, size_t len,
		    const struct smp_limits *limits);

#endif
