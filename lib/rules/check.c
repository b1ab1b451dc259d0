/*
 * check.c - the pipeline for one document: detect the dialect, check its
 * structure against the dialect's schema, normalize it, resolve the
 * effective job, run the rule checks of rules.def and keep one finding
 * per problem (its S() relations). Buffers and files come in through
 * check_buffer.c.
 */
#include <string.h>

#include "rules/check.h"
#include "rules/rules.h"
#include "job/effective.h"
#include "job/normalize.h"
#include "report/supersede.h"
#include "context/context.h"
#include "script/script.h"

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

/* The instance data of the job's type; NULL when unknown or unset. */
static const struct smp_instance *
job_instance(const struct smp_context *ctx, const struct smp_job *job)
{
	return job->instance_type ? smp__catalog_instance(
					    &ctx->catalog,
					    smp__node_text(job->instance_type))
				  : NULL;
}

/*
 * A walk judges Training Compiler jobs only: one that neither enables the
 * compiler nor shows the intent to (job.h: compiler_intent) is not this
 * tool's business unless SMP_CHECK_ALL_JOBS asks for every job. A job
 * the user named is always judged.
 */
static int
judged(const struct smp_check_hook *hook, const struct smp_job *job)
{
	return !SMP__WALKED(hook) || (hook->flags & SMP_CHECK_ALL_JOBS) ||
	       (hook->flags & SMP__CHECK_FILE_INTENT) || job->compiler_intent;
}

/*
 * A job a walk does not judge: no rule runs and it says nothing; a hook
 * still sees it (a side-by-side notebook's native job is the baseline of
 * its compiled twin), and what the hook adds about it is dropped.
 */
static int
not_judged(const struct smp_context *ctx, struct smp_job *job,
	   struct smp_report *rep, const struct smp_check_hook *hook)
{
	struct smp_check c;
	size_t from = rep->count;

	rep->jobs_skipped++;
	if (!hook->fn)
		return 0;
	c.job = job;
	c.cat = &ctx->catalog;
	c.rep = rep;
	c.settings = &ctx->settings;
	c.instance = job_instance(ctx, job);
	hook->fn(hook->ud, &c);
	rep->count = from;
	return 0;
}

int
smp__check_root(const struct smp_context *ctx, const struct smp_node *root,
		enum smp_dialect forced, const struct smp_node *ranges,
		const struct smp_node *region, struct smp_arena *arena,
		struct smp_report *rep, const struct smp_check_hook *hook,
		const char *script_dir)
{
	struct smp_script_facts script;
	const struct smp_schema *schema;
	struct smp_job job;
	struct smp_check c;
	enum smp_dialect dialect;
	smp_rule_check_fn checks[SMP_RULE_COUNT];
	size_t i, n, first, job_first = rep->count;
	int rc;

	if (!root)
		return 0; /* an empty YAML document holds no job */
	/* a file a walk found is a job only when its keys show it */
	if (SMP__WALKED(hook) && forced == SMP_DIALECT_AUTO &&
	    ctx->dialect == SMP_DIALECT_AUTO && !smp__job_evidence(root))
		return 0;
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
	memset(&job, 0, sizeof(job));
	job.dialect = dialect;
	job.arena = arena;
	normalizers[dialect](&job, root);
	job.ranges = ranges;
	/* the source's region, even unknown, stands for the context's */
	job.region_default_node =
		smp__node_unknown(region) ? NULL : smp__as_string(region);
	job.region_default =
		region ? smp__node_text(job.region_default_node) : ctx->region;
	smp__job_resolve(&job, &ctx->catalog);
	job.arena = NULL; /* the job may be copied: keep no pointer to it */
	if (job.oom) {
		rep->failed = 1;
		return SMP_ENOMEM;
	}
	if (!judged(hook, &job))
		return not_judged(ctx, &job, rep, hook);
	rep->jobs++;
	rc = smp__context_schema(ctx, dialect, &schema);
	first = rep->count;
	if (!rc && schema)
		rc = smp__schema_check(schema, root, rep);
	if (rc)
		return rc;
	if (dialect == SMP_DIALECT_CREATE_TRAINING_JOB &&
	    smp__is_describe_response(root))
		soften_response_keys(rep, first);
	if (hook && hook->sources) {
		script_dir = hook->sources;
		job.source_dir = NULL;
	}
	/* the entry script's facts, before the spec rules that read them */
	smp__script_init(&script, &ctx->alloc);
	rc = ctx->no_script ? 0
			    : smp__rules_script_load(&script, &job, script_dir,
						     ctx->limits.max_file_size,
						     hook ? hook->files : NULL,
						     hook ? hook->nfiles : 0);
	if (rc) {
		smp__script_release(&script);
		return rc;
	}
	job.script = &script;
	smp__job_resolve_script(&job);
	c.job = &job;
	c.cat = &ctx->catalog;
	c.rep = rep;
	c.settings = &ctx->settings;
	c.instance = job_instance(ctx, &job);
	n = smp__rule_checks(checks, SMP_RULE_COUNT);
	for (i = 0; i < n; i++)
		checks[i](&c);
	smp__report_supersede(rep, job_first);
	if (hook && hook->fn)
		hook->fn(hook->ud, &c);
	smp__script_release(&script);
	smp__drop_unknown(rep, job_first, root);
	smp__report_settle_suggestions(rep, job_first);
	return 0;
}

/* See check.h. */
void
smp__drop_unknown(struct smp_report *rep, size_t from,
		  const struct smp_node *root)
{
	size_t k, kept = from;

	for (k = from; k < rep->count; k++) {
		int unknown = 0;

		if (rep->items[k].pointer)
			smp__node_at_pointer(root, rep->items[k].pointer,
					     &unknown);
		if (!unknown)
			rep->items[kept++] = rep->items[k];
	}
	rep->count = kept;
}
