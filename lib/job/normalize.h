/*
 * normalize.h - the normalizers, one per dialect: they fill the first
 * part of struct smp_job (what the spec says) from a document's root.
 * The effective job is resolved from it afterwards (effective.h).
 */
#ifndef SMP_NORMALIZE_H
#define SMP_NORMALIZE_H

#include "job/job.h"

void smp__normalize_estimator(struct smp_job *job, const struct smp_node *root);
void smp__normalize_model_trainer(struct smp_job *job,
				  const struct smp_node *root);
void smp__normalize_create_training_job(struct smp_job *job,
					const struct smp_node *root);

/*
 * Nodes the spec implies without holding them, made in job->arena (NULL,
 * with job->oom set, when that fails). smp__job_part: the text
 * from[off..off+len) of a string scalar, positioned on that part when
 * from is one line written as is, else on all of from (a version inside
 * an image tag). smp__job_default: text positioned on all of at (a
 * default value, shown where it applies).
 */
const struct smp_node *smp__job_part(struct smp_job *job,
				     const struct smp_node *from, size_t off,
				     size_t len);
const struct smp_node *smp__job_default(struct smp_job *job,
					const struct smp_node *at,
					const char *text);

/*
 * Reads an image URI node into the estimator class, base framework and
 * the versions its tag names; what the spec states itself is kept
 * (overwrite 0). Sets job->training_image when image is a string.
 */
void smp__job_take_image(struct smp_job *job, const struct smp_node *image,
			 int overwrite);

#endif
