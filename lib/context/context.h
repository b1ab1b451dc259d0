/* context.h - what a context holds; immutable after smp_context_new() */
#ifndef SMP_CONTEXT_H
#define SMP_CONTEXT_H

#include "smpreflight.h"
#include "catalog/catalog.h"
#include "report/rule_table.h"
#include "doc/limits.h"
#include "schema/schema.h"
#include "job/settings.h"
#include "util/siphash.h"

struct smp_schema_cache; /* context.c */

struct smp_context {
	struct smp_allocator alloc;
	struct smp_limits limits; /* resolved: no zeros */
	enum smp_dialect dialect;
	enum smp_severity severity[SMP_RULE_COUNT];
	unsigned char severity_set[SMP_RULE_COUNT]; /* set by the user */
	struct smp_settings settings;
	struct smp_catalog catalog;
	/* structural schema per dialect, compiled at its first use
	 * (smp__context_schema) */
	struct smp_schema_cache *schemas;
	/* entry-script checks: off, and the folder for buffers (owned) */
	int no_script;
	char *script_base_dir;
	/* the region jobs run in where a spec names none, or NULL (owned) */
	char *region;
	/* where the catalog came from (data_cache.c): the source URL of a
	 * cached copy and the folder it was read from (owned) */
	enum smp_data_origin data_origin;
	char *data_source;
	char *data_dir;
	int64_t data_fetched;
	int64_t data_max_age_days; /* declared by the cache's source, or 0 */
	int offline;
	/* inline suppressions (suppress.c): off, and the time until= dates
	 * are compared with (resolved: never 0) */
	int no_inline_ignores;
	int64_t now;
	/* keys the hash tables an input fills (the Python evaluator's) */
	struct smp_hashkey hash_key;
};

/* The tuning request's schema, beside the dialects' (a tuning request
 * is no dialect: its definitions are CreateTrainingJob requests). */
#define SMP__SCHEMA_TUNING                                                     \
	((enum smp_dialect)(SMP_DIALECT_CREATE_TRAINING_JOB + 1))

/*
 * The structural schema of dialect d (NULL when it has none), compiled at
 * the first call for d from any thread: a run reading one dialect compiles
 * one schema. Returns 0; SMP_ENOMEM, after which nothing is kept and the
 * next call tries again; SMP_EINTERNAL for an embedded schema that does
 * not load.
 */
int smp__context_schema(const struct smp_context *ctx, enum smp_dialect d,
			const struct smp_schema **out);

/*
 * Where the catalog comes from (data_origin.c): load the cache into
 * ctx->catalog when usable (0) or leave it to the embedded data (1);
 * SMP_ENOMEM. Record a folder given as instance_data_dir. Free what both
 * keep.
 */
int smp__context_data_cache(struct smp_context *ctx, const char *cache_dir,
			    struct smp_error *err);
int smp__context_data_dir(struct smp_context *ctx, const char *dir,
			  struct smp_error *err);
void smp__context_data_release(struct smp_context *ctx);

#endif
