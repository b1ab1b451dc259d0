/*
 * baseline.h - what diagnose uses of a baseline (baseline.c): the rules
 * that compare a job with it, and the native job itself.
 */
#ifndef SMP_ADVISE_BASELINE_H
#define SMP_ADVISE_BASELINE_H

#include "smpreflight.h"
#include "rules/check.h"

/* Runs learning-rate-not-scaled and baseline-drift for the job of c. */
void smp__baseline_compare(const struct smp_baseline *b,
			   const struct smp_check *c);

/* The baseline's job (its nodes live as long as b) and its instance
 * (NULL when unknown). */
const struct smp_job *smp__baseline_job(const struct smp_baseline *b);
const struct smp_instance *smp__baseline_instance(const struct smp_baseline *b);

/*
 * A check hook's part of keeping the first job it sees (the baseline's,
 * diagnose's response): when *have is 0, copies c's job and instance and
 * sets *have; returns 1 then, else 0. The job's nodes must outlive the
 * check (the hook's keep); its script facts do not, so job->script is
 * NULL.
 */
int smp__keep_first_job(struct smp_job *job,
			const struct smp_instance **instance, int *have,
			const struct smp_check *c);

/* The first finding of a rule rules.def declares U() (the spec could not
 * be read), or NULL. */
const struct smp_finding *smp__unreadable(const struct smp_report *rep);

#endif
