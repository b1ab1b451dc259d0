/*
 * check.c - the pipeline for one buffer: load, then for every document
 * detect the dialect, check its structure against the dialect's schema,
 * normalize it into the job model and run the rule groups.
 */
#include <string.h>

#include "rules/check.h"
#include "context/context.h"
#include "doc/load.h"
#include "util/read_file.h"
#include "script/script.h"
#include "report/suppress.h"
#include "job/source_python.h"

typedef void (*rule_group_fn)(const struct smp_check *c);

/* Order matters only for readability of code; output is sorted. */
static const rule_group_fn rule_groups[] = {
	smp__rules_compiler,
	smp__rules_instance,
	smp__rules_distribution,
	smp__rules_versions,
	smp__rules_gpu_num_devices,
	smp__rules_efficiency,
	smp__rules_tune,
	smp__rules_dialect,
	smp__rules_script, /* last: it may rely on what the others found */
};

typedef void (*normalize_fn)(struct smp_job *job, const struct smp_node *root);

/* One normalizer per dialect, indexed by enum smp_dialect. */
static const normalize_fn normalizers[] = {
	[SMP_DIALECT_ESTIMATOR] = smp__normalize_estimator,
	[SMP_DIALECT_MODEL_TRAINER] = smp__normalize_model_trainer,
	[SMP_DIALECT_CREATE_TRAINING_JOB] = smp__normalize_create_training_job,
};

/* The forced dialect, else the detected one; AUTO when none fits. */
static enum smp_dialect
detect_dialect(const struct smp_context *ctx, const struct smp_node *root)
{
	if (ctx->dialect != SMP_DIALECT_AUTO)
		return ctx->dialect;
	return smp__detect_dialect(root);
}

/*
 * An unknown top-level key of a DescribeTrainingJob response was printed
 * by the service, not typed by the user: most likely a member newer than
 * the botocore model the schema comes from. A warning, not the request's
 * error (botocore rejects unknown request members, not response ones).
 */
static void
soften_response_keys(struct smp_report *rep, size_t first)
{
	size_t i;

	for (i = first; i < rep->count; i++) {
		struct smp_finding *f = &rep->items[i];
		const char *p = f->pointer;

		if (strcmp(f->rule, "unknown-key") == 0 && p && p[0] == '/' &&
		    !strchr(p + 1, '/'))
			smp__finding_soften(rep, f, SMP_RULE_UNKNOWN_KEY,
					    SMP_SEVERITY_WARNING);
	}
}

int
smp__check_root(const struct smp_context *ctx, const struct smp_node *root,
		enum smp_dialect forced, struct smp_arena *arena,
		struct smp_report *rep, const struct smp_check_hook *hook,
		const char *script_dir)
{
	struct smp_script_facts script;
	const struct smp_schema *schema;
	struct smp_job job;
	struct smp_check c;
	enum smp_dialect dialect;
	size_t i, first, from = rep->count;
	int rc;

	if (!root)
		return 0; /* an empty YAML document holds no job */
	rep->root = root;
	if (root->kind != SMP_NODE_MAPPING) {
		smp__report_node(rep, SMP_RULE_WRONG_TYPE, root,
				 "a job spec must be a mapping of its "
				 "arguments, found %s",
				 smp__node_type_name(root));
		return 0;
	}
	dialect =
		forced != SMP_DIALECT_AUTO ? forced : detect_dialect(ctx, root);
	if (dialect == SMP_DIALECT_AUTO) {
		struct smp_finding *f = smp__report_node(
			rep, SMP_RULE_DIALECT_UNKNOWN, root,
			"cannot tell how this job is written: no key of an "
			"estimator, a ModelTrainer or a CreateTrainingJob "
			"request; use --dialect");
		smp__finding_fix(rep, f,
				 "write the job in one of the three forms, or "
				 "name it with --dialect estimator, "
				 "model_trainer or create_training_job");
		return 0;
	}
	rc = smp__context_schema(ctx, dialect, &schema);
	first = rep->count;
	if (!rc && schema)
		rc = smp__schema_check(schema, root, rep);
	if (rc)
		return rc;
	if (dialect == SMP_DIALECT_CREATE_TRAINING_JOB &&
	    smp__is_describe_response(root))
		soften_response_keys(rep, first);
	memset(&job, 0, sizeof(job));
	job.dialect = dialect;
	job.arena = arena;
	normalizers[dialect](&job, root);
	job.arena = NULL; /* the job may be copied: keep no pointer to it */
	if (job.oom) {
		rep->failed = 1;
		return SMP_ENOMEM;
	}
	if (hook && hook->sources) {
		script_dir = hook->sources;
		job.source_dir = NULL;
	}
	/* the entry script's facts, before the spec rules that read them */
	smp__script_init(&script, &ctx->alloc);
	rc = ctx->no_script ? 0
			    : smp__rules_script_load(&script, &job, script_dir,
						     ctx->limits.max_file_size);
	if (rc) {
		smp__script_release(&script);
		return rc;
	}
	job.script = &script;
	c.job = &job;
	c.cat = &ctx->catalog;
	c.rep = rep;
	c.settings = &ctx->settings;
	c.instance = job.instance_type
			     ? smp__catalog_instance(
				       c.cat, smp__node_text(job.instance_type))
			     : NULL;
	for (i = 0; i < sizeof(rule_groups) / sizeof(rule_groups[0]); i++)
		rule_groups[i](&c);
	if (hook && hook->fn)
		hook->fn(hook->ud, &c);
	smp__script_release(&script);
	smp__drop_unknown(rep, from, root);
	return 0;
}

/*
 * One loaded document: a SageMaker Pipeline definition is checked step
 * by step, anything else as one job.
 */
static int
check_doc(const struct smp_context *ctx, struct smp_docs *docs,
	  const struct smp_node *root, struct smp_report *rep,
	  const struct smp_check_hook *hook, const char *script_dir)
{
	struct smp_pysrc steps;
	int rc = ctx->dialect == SMP_DIALECT_AUTO
			 ? smp__pipeline_scan(&steps, &docs->arena, root)
			 : 0;

	if (rc < 0)
		return rc;
	if (!rc)
		return smp__check_root(ctx, root, SMP_DIALECT_AUTO,
				       &docs->arena, rep, hook, script_dir);
	if (!steps.count) {
		smp__report_node(rep, SMP_RULE_NO_TRAINING_JOB, root,
				 "no training job found: the pipeline "
				 "definition has no step of Type 'Training'");
		return rep->failed ? SMP_ENOMEM : 0;
	}
	rc = smp__check_jobs(ctx, &steps, docs, rep, hook, script_dir, "step ",
			     0);
	rep->root = root;
	return rc;
}

/* script_dir: where entry scripts are looked for; NULL for nowhere. */
static int
check_run(struct smp_report **out, const struct smp_context *ctx,
	  const char *name, const char *buf, size_t len,
	  const struct smp_check_hook *hook, const char *script_dir,
	  struct smp_error *err)
{
	struct smp_report *rep;
	struct smp_docs docs;
	size_t i;
	int rc;

	if (out)
		*out = NULL;
	if (!out || !ctx || !name || (!buf && len)) {
		if (err) {
			memset(err, 0, sizeof(*err));
			err->code = SMP_EINVAL;
			strcpy(err->message, "invalid argument");
		}
		return SMP_EINVAL;
	}
	rc = smp__report_new(&rep, &ctx->alloc, name, ctx->severity);
	if (rc)
		goto oom;
	rep->buf = buf ? buf : "";
	rep->len = len;
	smp__docs_init(&docs, &ctx->alloc);
	docs.format = hook ? hook->format : SMP_INPUT_AUTO;
	if (hook && hook->script_dir)
		script_dir = hook->script_dir;
	if (docs.format == SMP_INPUT_AUTO && smp__pysrc_kind(name)) {
		/* a launcher or notebook: its jobs, each as a document */
		rc = smp__check_source(ctx, name, &docs, rep, hook, script_dir);
	} else {
		rc = smp__load(&docs, name, rep->buf, len, &ctx->limits);
		if (rc == 0)
			rc = smp__rules_input(rep, &docs);
		for (i = 0; rc == 0 && i < docs.count; i++)
			rc = check_doc(ctx, &docs, docs.items[i].root, rep,
				       hook, script_dir);
	}
	/* inline suppressions: YAML only, JSON has no comments; not in a
	 * spec that does not parse, where comments cannot be told apart */
	if (rc == 0 && !rep->failed && !docs.is_json &&
	    !smp__pysrc_kind(name) && !ctx->no_inline_ignores &&
	    !smp__report_has(rep, SMP_RULE_SYNTAX))
		rc = smp__suppress_apply(rep, rep->buf, len, &docs, ctx->now);
	if (hook && hook->keep && rc == 0 && !rep->failed)
		*hook->keep = docs; /* the caller releases them */
	else
		smp__docs_release(&docs);
	smp__report_finish(rep);
	rep->buf = NULL;
	rep->len = 0;
	rep->root = NULL;
	if (rc == 0 && rep->failed)
		rc = SMP_ENOMEM;
	if (rc) {
		smp_report_free(rep);
		goto oom;
	}
	smp__report_sort(rep);
	*out = rep;
	return 0;
oom:
	if (err) {
		memset(err, 0, sizeof(*err));
		err->code = rc;
		strncpy(err->source, name, sizeof(err->source) - 1);
		strcpy(err->message, smp_strerror(rc));
	}
	return rc;
}

int
smp__check_run(struct smp_report **out, const struct smp_context *ctx,
	       const char *name, const char *buf, size_t len,
	       const struct smp_check_hook *hook, struct smp_error *err)
{
	return check_run(out, ctx, name, buf, len, hook,
			 ctx ? ctx->script_base_dir : NULL, err);
}

int
smp__check_file_run(struct smp_report **out, const struct smp_context *ctx,
		    const char *path, const struct smp_check_hook *hook,
		    struct smp_error *err)
{
	const char *slash = path ? strrchr(path, '/') : NULL;
	char *buf = NULL, *dir;
	size_t len = 0;
	int rc;

	if (out)
		*out = NULL;
	if (!out || !ctx || !path) {
		if (err) {
			memset(err, 0, sizeof(*err));
			err->code = SMP_EINVAL;
			strcpy(err->message, "invalid argument");
		}
		return SMP_EINVAL;
	}
	/* a notebook's outputs do not count against the size limit: its
	 * code cells do, once they are read */
	rc = smp__read_file(&buf, &len, &ctx->alloc, path,
			    smp__pysrc_kind(path) == 2
				    ? ctx->limits.max_file_size * 16
				    : ctx->limits.max_file_size,
			    err);
	if (rc == SMP_ELIMIT) {
		struct smp_report *rep;
		struct smp_pos at = {1, 1, 0};

		/* too big to read: a finding, so other files go on */
		rc = smp__report_new(&rep, &ctx->alloc, path, ctx->severity);
		if (rc)
			return rc;
		smp__report_add(rep, SMP_RULE_INPUT_LIMIT, &at, NULL,
				"file is larger than the limit of %zu bytes",
				ctx->limits.max_file_size);
		if (rep->failed) {
			smp_report_free(rep);
			return SMP_ENOMEM;
		}
		*out = rep;
		return 0;
	}
	if (rc)
		return rc;
	/* entry scripts are found from the spec's own folder */
	dir = smp__strndup(&ctx->alloc, path,
			   !slash          ? 0
			   : slash == path ? 1
					   : (size_t)(slash - path));
	if (!dir) {
		smp__free(&ctx->alloc, buf);
		return SMP_ENOMEM;
	}
	rc = check_run(out, ctx, path, buf, len, hook, dir, err);
	smp__free(&ctx->alloc, dir);
	smp__free(&ctx->alloc, buf);
	return rc;
}
