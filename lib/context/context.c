/*
 * context.c - creating the immutable context: options, severities, the
 * catalog (embedded or from a folder) and the dialect schemas.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "context/context.h"
#include "catalog/data_cache.h"
#include "doc/load.h"
#include "util/options.h"
#include "util/read_file.h"
#include "util/error.h"

static void
set_error(struct smp_error *err, int code, const char *source, const char *msg)
{
	smp__error_set(err, code, source, NULL, "%s", msg);
}

static const char *const data_names[3] = {
	"instances.json", "tested-models.json", "frameworks.json"};

/* Loads the catalog from a folder; buffers are freed before returning. */
static int
load_catalog_dir(struct smp_context *ctx, const char *dir,
		 struct smp_error *err)
{
	struct smp_data_buffer b[3];
	char *bufs[3] = {NULL, NULL, NULL};
	char paths[3][4096];
	int rc = 0, i;

	for (i = 0; i < 3; i++) {
		size_t len = 0;

		snprintf(paths[i], sizeof(paths[i]), "%s/%s", dir,
			 data_names[i]);
		rc = smp__read_file(&bufs[i], &len, &ctx->alloc, paths[i],
				    ctx->limits.max_file_size, err);
		if (rc)
			goto out;
		b[i].name = paths[i];
		b[i].buf = bufs[i];
		b[i].len = len;
	}
	rc = smp__catalog_load(&ctx->catalog, &ctx->alloc, &b[0], &b[1], &b[2],
			       err);
out:
	for (i = 0; i < 3; i++)
		smp__free(&ctx->alloc, bufs[i]);
	return rc;
}

/* The caller's three buffers (opts->instance_data), all or none. */
static int
load_catalog_memory(struct smp_context *ctx, const struct smp_memory_doc *docs,
		    struct smp_error *err)
{
	struct smp_data_buffer b[3];
	int i;

	for (i = 0; i < 3; i++) {
		if (!docs[i].buf) {
			set_error(err, SMP_EINVAL, data_names[i],
				  "instance_data needs all three documents");
			return SMP_EINVAL;
		}
		b[i].name = docs[i].name ? docs[i].name : data_names[i];
		b[i].buf = docs[i].buf;
		b[i].len = docs[i].len;
	}
	ctx->data_origin = SMP_DATA_MEMORY;
	return smp__catalog_load(&ctx->catalog, &ctx->alloc, &b[0], &b[1],
				 &b[2], err);
}

static const char *const schema_names[] = {
	[SMP_DIALECT_ESTIMATOR] = "estimator.schema.json",
	[SMP_DIALECT_MODEL_TRAINER] = "model-trainer.schema.json",
	[SMP_DIALECT_CREATE_TRAINING_JOB] = "create-training-job.schema.json",
	[SMP__SCHEMA_TUNING] = "create-hyper-parameter-tuning-job.schema.json",
};

#define DIALECTS (SMP__SCHEMA_TUNING + 1)

/*
 * The schemas compiled so far. A context is shared by threads and
 * read-only to them, so this lives behind a pointer: ready[d] is set,
 * with release order, once schema[d] is final; the lock serialises the
 * compiling. Compiling all three took longer than checking a spec.
 */
struct smp_schema_cache {
	pthread_mutex_t lock;
	atomic_int ready[DIALECTS];
	struct smp_schema *schema[DIALECTS];
};

static int
schemas_new(struct smp_context *ctx, struct smp_error *err)
{
	struct smp_schema_cache *c = smp__calloc(&ctx->alloc, 1, sizeof(*c));
	size_t d;

	if (!c || pthread_mutex_init(&c->lock, NULL) != 0) {
		smp__free(&ctx->alloc, c);
		set_error(err, SMP_ENOMEM, "context", "out of memory");
		return SMP_ENOMEM;
	}
	for (d = 0; d < DIALECTS; d++)
		atomic_init(&c->ready[d], 0);
	ctx->schemas = c;
	return 0;
}

static void
schemas_free(struct smp_context *ctx)
{
	struct smp_schema_cache *c = ctx->schemas;
	size_t d;

	if (!c)
		return;
	for (d = 0; d < DIALECTS; d++)
		smp__schema_free(c->schema[d]);
	pthread_mutex_destroy(&c->lock);
	smp__free(&ctx->alloc, c);
}

int
smp__context_schema(const struct smp_context *ctx, enum smp_dialect d,
		    const struct smp_schema **out)
{
	struct smp_schema_cache *c = ctx->schemas;
	int rc = 0;

	*out = NULL;
	if ((unsigned)d >= DIALECTS || !schema_names[d])
		return 0;
	if (atomic_load_explicit(&c->ready[d], memory_order_acquire)) {
		*out = c->schema[d];
		return 0;
	}
	pthread_mutex_lock(&c->lock);
	if (!atomic_load_explicit(&c->ready[d], memory_order_relaxed)) {
		/* compiled at build time; a dialect without a schema yet
		 * has no structural check */
		rc = smp__schema_embedded(&c->schema[d], &ctx->alloc,
					  schema_names[d], NULL);
		if (rc == 0)
			atomic_store_explicit(&c->ready[d], 1,
					      memory_order_release);
		else if (rc != SMP_ENOMEM)
			rc = SMP_EINTERNAL; /* the build embedded a bad one */
	}
	*out = c->schema[d];
	pthread_mutex_unlock(&c->lock);
	return rc;
}

static int
apply_overrides(struct smp_context *ctx, const struct smp_options *o,
		struct smp_error *err)
{
	size_t i;

	for (i = 0; i < SMP_RULE_COUNT; i++) {
		ctx->severity[i] = smp__rule_default_severity(i);
		ctx->severity_set[i] = 0;
	}
	if (o->override_count && !o->overrides) {
		set_error(err, SMP_EINVAL, "options",
			  "overrides is NULL but override_count is not 0");
		return SMP_EINVAL;
	}
	for (i = 0; i < o->override_count; i++) {
		const struct smp_rule_override *ov = &o->overrides[i];
		enum smp_rule_id r;

		if (!ov->rule || smp__rule_lookup(&r, ov->rule) ||
		    (unsigned)ov->severity > SMP_SEVERITY_ERROR) {
			char msg[300];

			snprintf(msg, sizeof(msg), "unknown rule '%s'",
				 ov->rule ? ov->rule : "(null)");
			set_error(err, SMP_EINVAL, "options", msg);
			return SMP_EINVAL;
		}
		ctx->severity[r] = ov->severity;
		ctx->severity_set[r] = 1;
	}
	return 0;
}

/* An unknown select/ignore entry, named with the closest known one. */
static int
selection_error(struct smp_error *err, const char *bad)
{
	const char *best = smp__rule_selector_closest(bad);
	char msg[300];

	if (best)
		snprintf(msg, sizeof(msg),
			 "unknown rule or group '%s' in the rule selection; "
			 "did you mean '%s'?",
			 bad, best);
	else
		snprintf(msg, sizeof(msg),
			 "unknown rule or group '%s' in the rule selection",
			 bad);
	set_error(err, SMP_EINVAL, "options", msg);
	return SMP_EINVAL;
}

/*
 * select and ignore after the overrides: a rule the selection leaves out
 * is off whatever severity an override gave it, so that a configuration
 * file's severities never bring back a rule the command line ignores.
 * syntax and input-limit are never left out.
 */
static int
apply_selection(struct smp_context *ctx, const struct smp_options *o,
		struct smp_error *err)
{
	unsigned char on[SMP_RULE_COUNT];
	const char *bad;
	size_t i;

	if ((o->select.count && !o->select.names) ||
	    (o->ignore.count && !o->ignore.names)) {
		set_error(err, SMP_EINVAL, "options",
			  "select or ignore has a count but no names");
		return SMP_EINVAL;
	}
	if (smp__rules_select(on, o->select.names, o->select.count,
			      o->ignore.names, o->ignore.count, &bad))
		return selection_error(err, bad);
	/* a file that could not be read or parsed is always said, whatever
	 * the selection (as ruff does): nothing else in it was checked */
	on[SMP_RULE_SYNTAX] = 1;
	on[SMP_RULE_INPUT_LIMIT] = 1;
	for (i = 0; i < SMP_RULE_COUNT; i++)
		if (!on[i])
			ctx->severity[i] = SMP_SEVERITY_OFF;
	return 0;
}

int
smp_context_new(struct smp_context **out, const struct smp_options *opts,
		struct smp_error *err)
{
	struct smp_options o;
	struct smp_allocator a;
	struct smp_context *ctx;
	int rc;

	smp__error_clear(err);
	if (!out) {
		set_error(err, SMP_EINVAL, "out", "out is NULL");
		return SMP_EINVAL;
	}
	*out = NULL;
	/* only the fields the caller's version has (options.c) */
	rc = smp__options_resolve(&o, opts, err);
	if (rc)
		return rc;
	opts = &o;
	if (smp__allocator_resolve(&a, opts->allocator)) {
		set_error(err, SMP_EINVAL, "options",
			  "the allocator needs all three hooks");
		return SMP_EINVAL;
	}
	ctx = smp__calloc(&a, 1, sizeof(*ctx));
	if (!ctx) {
		set_error(err, SMP_ENOMEM, "context", "out of memory");
		return SMP_ENOMEM;
	}
	ctx->alloc = a;
	smp__siphash_seed(&ctx->hash_key);
	smp__limits_of(&ctx->limits, opts);
	ctx->dialect = opts->dialect;
	if ((unsigned)ctx->dialect > SMP_DIALECT_CREATE_TRAINING_JOB) {
		set_error(err, SMP_EINVAL, "options", "unknown dialect");
		rc = SMP_EINVAL;
		goto fail;
	}
	rc = apply_overrides(ctx, opts, err);
	if (rc == 0)
		rc = apply_selection(ctx, opts, err);
	if (rc)
		goto fail;
	rc = smp__settings_init(&ctx->settings, opts, &ctx->alloc);
	if (rc) {
		set_error(err, rc, "options",
			  rc == SMP_ENOMEM ? "out of memory"
					   : "invalid hyperparameter names, "
					     "lr_scaling or short_run_steps");
		goto fail;
	}
	ctx->no_script = opts->no_script;
	if (opts->script_base_dir) {
		ctx->script_base_dir =
			smp__strndup(&ctx->alloc, opts->script_base_dir,
				     strlen(opts->script_base_dir));
		if (!ctx->script_base_dir) {
			set_error(err, SMP_ENOMEM, "context", "out of memory");
			rc = SMP_ENOMEM;
			goto fail;
		}
	}
	if (opts->region && *opts->region) {
		ctx->region = smp__strndup(&ctx->alloc, opts->region,
					   strlen(opts->region));
		if (!ctx->region) {
			set_error(err, SMP_ENOMEM, "context", "out of memory");
			rc = SMP_ENOMEM;
			goto fail;
		}
	}
	/* --instance-data DIR, else a valid refreshed copy, else embedded */
	ctx->offline = opts->offline;
	if (opts->instance_data[0].buf || opts->instance_data[1].buf ||
	    opts->instance_data[2].buf) {
		rc = load_catalog_memory(ctx, opts->instance_data, err);
	} else if (opts->instance_data_dir) {
		rc = load_catalog_dir(ctx, opts->instance_data_dir, err);
		if (!rc)
			rc = smp__context_data_dir(ctx, opts->instance_data_dir,
						   err);
	} else {
		rc = smp__context_data_cache(ctx, opts->cache_dir, err);
		if (rc > 0)
			rc = smp__catalog_load_embedded(&ctx->catalog,
							&ctx->alloc, err);
	}
	if (!rc && opts->instance_overlay.buf) {
		struct smp_data_buffer ov;

		ov.name = opts->instance_overlay.name
				  ? opts->instance_overlay.name
				  : "instance overlay";
		ov.buf = opts->instance_overlay.buf;
		ov.len = opts->instance_overlay.len;
		rc = smp__catalog_overlay(&ctx->catalog, &ctx->alloc, &ov, err);
	}
	if (rc)
		goto fail;
	ctx->no_inline_ignores = opts->no_inline_ignores;
	ctx->now = opts->now ? opts->now : (int64_t)time(NULL);
	rc = schemas_new(ctx, err);
	if (rc)
		goto fail;
	*out = ctx;
	return 0;
fail:
	smp_context_free(ctx);
	return rc;
}

void
smp_context_free(struct smp_context *ctx)
{
	if (!ctx)
		return;
	schemas_free(ctx);
	smp__catalog_release(&ctx->catalog);
	smp__settings_release(&ctx->settings, &ctx->alloc);
	smp__context_data_release(ctx);
	smp__free(&ctx->alloc, ctx->script_base_dir);
	smp__free(&ctx->alloc, ctx->region);
	smp__free(&ctx->alloc, ctx);
}

const char *
smp_context_data_version(const struct smp_context *ctx)
{
	return ctx ? ctx->catalog.data_version : "";
}

const char *
smp_context_data_date(const struct smp_context *ctx)
{
	return ctx ? ctx->catalog.generated : "";
}
