/*
 * dialect.h - the three ways a job is written: which one a document
 * uses, and how each spells the settings that fixes name (dialect.c).
 */
#ifndef SMP_DIALECT_H
#define SMP_DIALECT_H

#include "job/job.h"

/* The dialect the keys of root point to; SMP_DIALECT_AUTO when none. */
enum smp_dialect smp__detect_dialect(const struct smp_node *root);

/* The top-level keys detection knows for a dialect, sorted (for tests). */
const char *const *smp__dialect_keys(enum smp_dialect dialect, size_t *count);

/*
 * 1 when root shows by its keys that it is a training job (a key only
 * estimators, ModelTrainer specs or CreateTrainingJob requests have):
 * what a walk asks of a file it found before judging it as a job.
 */
int smp__job_evidence(const struct smp_node *root);

/*
 * 1 when buf[0..len) holds the name of one of those keys: a file without
 * any cannot hold a job, and a walk skips it before parsing it.
 */
int smp__text_may_hold_job(const char *buf, size_t len);

/*
 * 1 when root is a DescribeTrainingJob response: a CreateTrainingJob
 * request plus members only a response has (TrainingJobArn,
 * TrainingJobStatus, ...; smp__response_keys lists them, sorted).
 */
int smp__is_describe_response(const struct smp_node *root);
const char *const *smp__response_keys(size_t *count);

/*
 * How the job's dialect spells what fixes (and a few messages) name, so
 * that one rule gives the right advice in every dialect.
 */
struct smp_words {
	const char *enable_compiler; /* fix: turn the compiler on */
	const char *no_compiler;     /* "the spec has no 'compiler_config'" */
	const char *pytorchxla_without_compiler; /* fix of that finding */
	const char *pytorchxla_on;               /* fix: enable pytorchxla */
	const char *pytorchxla_off;              /* fix: drop pytorchxla */
	const char *debug_off;                   /* fix: debug mode off */
	const char *hook_set;     /* why the Debugger hook is on */
	const char *hook_off;     /* fix: no Debugger hook */
	const char *profiler_set; /* why the Profiler is on */
	const char *profiler_off; /* fix: no Profiler */
	const char *environment;  /* the environment map's key */
	const char *instance_type, *instance_count, *instance_groups;
	/* fix of py-version: prefix, the Python version, suffix */
	const char *py_fix_prefix, *py_fix_suffix;
};

const struct smp_words *smp__words(const struct smp_job *job);

/* The key node whose value is node, or node itself (for positions). */
const struct smp_node *smp__job_key_of(const struct smp_job *job,
				       const struct smp_node *node);

/*
 * A hyperparameter switch as the container reads it, in every dialect:
 * true/false, or the strings "true"/"false" in any case (the SDK JSON-
 * encodes values, the training toolkit decodes them). 1, 0 or -1.
 */
int smp__hp_flag(const struct smp_node *n);

#endif
