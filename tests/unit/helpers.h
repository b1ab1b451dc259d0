/*
 * helpers.h - small helpers several unit-test files had each written
 * alike: a context that must be created, a buffer that must check, the
 * finding of a rule, and temporary folders. Linked into the unit-test
 * binary with the test files; no tests here. Failing assertions stop the
 * calling test, as they did when each file had its own copy.
 */
#ifndef HELPERS_H
#define HELPERS_H

#include "smpreflight.h"

/*
 * The head of a HuggingFace PyTorch estimator with the compiler on, on
 * ml.p3.8xlarge (4 GPUs), its debug mode on: tests append what they need.
 */
#define TH_HF_P3_8X_DEBUG                                                      \
	"estimator: HuggingFace\n"                                             \
	"entry_point: train.py\n"                                              \
	"instance_type: ml.p3.8xlarge\n"                                       \
	"instance_count: 1\n"                                                  \
	"transformers_version: \"4.21.1\"\n"                                   \
	"pytorch_version: \"1.11.0\"\n"                                        \
	"py_version: py38\n"                                                   \
	"compiler_config: {enabled: true, debug: true}\n"

/* A new context with opts (NULL: defaults); asserts it was made. */
struct smp_context *th_context(const struct smp_options *opts);

/* The report of spec checked as "j.yaml"; asserts the check completed. */
struct smp_report *th_check(const struct smp_context *ctx, const char *spec);

/* The same, checked under name (its extension picks JSON or YAML). */
struct smp_report *th_check_named(const struct smp_context *ctx,
				  const char *name, const char *spec);

/* The first finding of rule in rep (borrowed), or NULL. */
const struct smp_finding *th_find(const struct smp_report *rep,
				  const char *rule);

/* 1 when rep has a finding of rule, else 0. */
int th_has_rule(const struct smp_report *rep, const char *rule);

/* Removes path, and everything below it when it is a folder; errors are
 * ignored (a test's leftovers under /tmp). */
void th_rm_tree(const char *path);

/* How many names in dir start with prefix (0 when dir cannot be read). */
int th_count_prefixed(const char *dir, const char *prefix);

/* The whole file at path, NUL-terminated, malloc'd (free it), its size in
 * *len when len is not NULL; NULL when it cannot be opened. */
char *th_read_file(const char *path, size_t *len);

#endif
