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
	c.instance = job->instance;
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
	size_t i, n, job_first = rep->count;
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
	if (!rc && schema)
		rc = smp__schema_check(
			schema, root, rep,
			dialect == SMP_DIALECT_CREATE_TRAINING_JOB &&
					smp__is_describe_response(root)
				? SMP__SCHEMA_RESPONSE
				: 0);
	if (rc)
		return rc;
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
	if (script.status == SMP_SCRIPT_SCANNED)
		rep->scripts_scanned++;
	job.script = &script;
	smp__job_resolve_script(&job);
	c.job = &job;
	c.cat = &ctx->catalog;
	c.rep = rep;
	c.settings = &ctx->settings;
	c.instance = job.instance;
	n = smp__rule_checks(checks, SMP_RULE_COUNT,
			     hook && (hook->flags & SMP_CHECK_RUN_SAID));
	for (i = 0; i < n; i++)
		checks[i](&c);
	smp__report_supersede(rep, job_first);
	if (hook && hook->fn)
		hook->fn(hook->ud, &c);
	smp__script_release(&script);
	smp__report_settle_suggestions(rep, job_first);
	return 0;
}
