/*
 * supersede.h - applying the S(A, B, SCOPE) relations of rules.def: one
 * finding per problem, decided after the rules ran.
 */
#ifndef SMP_SUPERSEDE_H
#define SMP_SUPERSEDE_H

#include <stddef.h>

#include "report/report.h"

/*
 * Drops the findings of r from index first on (one job's) that a finding
 * of a superseding rule in the same range covers. Order is kept.
 */
void smp__report_supersede(struct smp_report *r, size_t first);

#endif
