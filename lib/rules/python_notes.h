/*
 * python_notes.h - the findings of what the Python scan noticed besides
 * the jobs (job/source_python.h notes): an evaluation that ran out of
 * its budget, a job call Python rejects, an annotation written for an
 * assignment, SDK names taken without their imports.
 */
#ifndef SMP_PYTHON_NOTES_H
#define SMP_PYTHON_NOTES_H

#include "job/source_python.h"
#include "report/report.h"

/* Reports src's notes into rep; with limits_only, only that the
 * evaluation stopped short (a walked file that shows no compiler job). */
void smp__rules_python_notes(struct smp_report *rep,
			     const struct smp_pysrc *src, int limits_only);

/* 1 when a note explains why jobs may be missing (no no-training-job). */
int smp__python_notes_stopped(const struct smp_pysrc *src);

#endif
