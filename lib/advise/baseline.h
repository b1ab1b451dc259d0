/* baseline.h - what smp_check() needs of a baseline (baseline.c) */
#ifndef SMP_BASELINE_H
#define SMP_BASELINE_H

#include "rules/check.h"

/* A smp_check_hook function: compares the job of c with the baseline ud
 * (a const struct smp_baseline *), adding findings to c->rep. */
void smp__baseline_compare(void *ud, const struct smp_check *c);

#endif
