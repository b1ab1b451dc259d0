/*
 * check_buffer.c - the pipeline for one buffer or file: load it (a spec)
 * or hand it to check_source.c (a Python launcher or notebook), turn the
 * loader's diagnostics into findings, check every document (check.c) and
 * apply the inline suppressions.
 */
#include <string.h>

#include "rules/check.h"
#include "context/context.h"
#include "doc/load.h"
#include "util/read_file.h"
#include "report/suppress.h"
#include "job/source_python.h"
#include "util/error.h"
#include "util/text.h"

/* The first step of Type Training of a pipeline definition, or NULL. */
static const struct smp_node *
training_step(const struct smp_node *root)
{
	const struct smp_node *steps = smp__map_get(root, "Steps");
	size_t k;

	if (!steps || steps->kind != SMP_NODE_SEQUENCE)
		return NULL;
	for (k = 0; k < steps->u.sequence.count; k++)
		if (smp__scalar_is(
			    smp__map_get(steps->u.sequence.items[k], "Type"),
			    "Training"))
			return steps->u.sequence.items[k];
	return NULL;
}

/* The tuning request's own members against its schema (its definitions
 * are then checked as CreateTrainingJob requests); 1, or the error. */
static int
check_tuning_request(const struct smp_context *ctx, const struct smp_node *root,
		     struct smp_report *rep)
{
	const struct smp_schema *schema;
	int rc = smp__context_schema(ctx, SMP__SCHEMA_TUNING, &schema);

	if (!rc && schema)
		rc = smp__schema_check(schema, root, rep, 0);
	return rc ? rc : 1;
}

/*
 * One loaded document: a SageMaker Pipeline definition is checked step
 * by step, a tuning request definition by definition, anything else as
 * one job.
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

	const char *what = "step ";

	if (rc == 0 && ctx->dialect == SMP_DIALECT_AUTO) {
		rc = smp__tuning_scan(&steps, &docs->arena, root);
		what = "training job definition ";
		if (rc == 1)
			rc = check_tuning_request(ctx, root, rep);
	}
	if (rc < 0)
		return rc;
	if (!rc)
		return smp__check_root(ctx, root, SMP_DIALECT_AUTO, NULL, NULL,
				       &docs->arena, rep, hook, script_dir);
	if (!steps.count && strcmp(what, "step ") != 0) {
		smp__report_node(rep, SMP_RULE_NO_TRAINING_JOB, root,
				 "no training job found: the tuning request's "
				 "'TrainingJobDefinitions' is empty");
		return rep->failed ? SMP_ENOMEM : 0;
	}
	if (!steps.count) {
		const struct smp_node *step = training_step(root);

		if (SMP__WALKED(hook))
			return 0; /* a pipeline that trains nothing */
		if (step) {
			const struct smp_node *name =
				smp__map_get(step, "Name");
			struct smp_finding *f = smp__report_node(
				rep, SMP_RULE_NO_TRAINING_JOB, step,
				"no training job found: step '%s' of Type "
				"'Training' has no 'Arguments' mapping (the "
				"CreateTrainingJob request the pipeline "
				"sends)",
				name && name->kind == SMP_NODE_SCALAR
					? name->u.scalar.value
					: "");

			if (f)
				smp__finding_fix(rep, f,
						 "write the definition with "
						 "Pipeline.definition() of the "
						 "SageMaker Python SDK, which "
						 "puts each step's request "
						 "under 'Arguments'");
		} else
			smp__report_node(rep, SMP_RULE_NO_TRAINING_JOB, root,
					 "no training job found: the pipeline "
					 "definition has no step of Type "
					 "'Training' or 'Tuning'");
		return rep->failed ? SMP_ENOMEM : 0;
	}
	rc = smp__check_jobs(ctx, &steps, docs, rep, hook, script_dir, what, 0);
	rep->root = root;
	return rc;
}

/* 1 when the loader found the buffer not well-formed. */
static int
has_syntax_error(const struct smp_docs *docs)
{
	size_t i;

	for (i = 0; i < docs->ndiags; i++)
		if (docs->diags[i].kind == SMP_DIAG_SYNTAX)
			return 1;
	return 0;
}

/* script_dir: where entry scripts are looked for; NULL for nowhere. */
static int
check_run(struct smp_report **out, const struct smp_context *ctx,
	  const char *name, const char *buf, size_t len,
	  const struct smp_check_hook *hook, const char *script_dir,
	  struct smp_error *err)
{
	struct smp_check_hook said;
	struct smp_report *rep;
	struct smp_docs docs;
	size_t i;
	int rc;

	if (out)
		*out = NULL;
	if (!out || !ctx || !name || (!buf && len)) {
		return smp__error_set(err, SMP_EINVAL, NULL, NULL,
				      "invalid argument");
	}
	rc = smp__report_new(&rep, &ctx->alloc, name, ctx->severity);
	if (rc)
		goto oom;
	rep->severity_set = ctx->severity_set;
	rep->buf = buf ? buf : "";
	rep->len = len;
	/* an inline suppression may name a rule said once per run: a spec
	 * whose suppressions apply (below) and that may hold one gets them,
	 * so that the suppression is used as before */
	if (hook && (hook->flags & SMP_CHECK_RUN_SAID) &&
	    !smp__pysrc_kind(name) && !ctx->no_inline_ignores &&
	    smp__suppress_marked(rep->buf, len)) {
		said = *hook;
		said.flags &= ~SMP_CHECK_RUN_SAID;
		hook = &said;
	}
	smp__docs_init(&docs, &ctx->alloc);
	docs.format = hook ? hook->format : SMP_INPUT_AUTO;
	if (hook && hook->script_dir)
		script_dir = hook->script_dir;
	if (docs.format == SMP_INPUT_AUTO && smp__pysrc_kind(name)) {
		/* a launcher or notebook: its jobs, each as a document */
		rc = smp__check_source(ctx, name, &docs, rep, hook, script_dir);
	} else if (SMP__WALKED(hook) && ctx->dialect == SMP_DIALECT_AUTO &&
		   !smp__text_may_hold_job(rep->buf, len)) {
		rc = 0; /* found by a walk, no job key in it: not parsed */
	} else {
		rc = smp__load(&docs, name, rep->buf, len, &ctx->limits);
		rep->is_json = docs.is_json;
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
	    !has_syntax_error(&docs))
		rc = smp__suppress_apply(rep, rep->buf, len, &docs, ctx->now);
	if (hook && hook->finish && rc == 0 && !rep->failed)
		hook->finish(rep, &docs, rep->buf, len);
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
	return smp__error_set(err, rc, name, NULL, "%s", smp_strerror(rc));
}

int
smp__check_run(struct smp_report **out, const struct smp_context *ctx,
	       const char *name, const char *buf, size_t len,
	       const struct smp_check_hook *hook, struct smp_error *err)
{
	return check_run(out, ctx, name, buf, len, hook,
			 ctx ? ctx->script_base_dir : NULL, err);
}

/*
 * A walked file over the size limit: 1 when its first MiB already shows
 * that it cannot hold a job (no job key; a source that never names
 * sagemaker or boto3), so that a large data file found by a walk is
 * skipped like any file without a job; 0 when it may hold one (then its
 * size is a finding), or cannot be read again.
 */
static int
too_big_without_job(const struct smp_context *ctx, const char *path)
{
	enum { PREFIX = 1 << 20 };
	FILE *f = smp__open_regular(path, NULL);
	char *buf;
	size_t n;
	int none;

	if (!f)
		return 0;
	buf = smp__malloc(&ctx->alloc, PREFIX);
	if (!buf) {
		fclose(f);
		return 0;
	}
	n = fread(buf, 1, PREFIX, f);
	fclose(f);
	if (smp__pysrc_kind(path))
		none = !smp__mem_contains(buf, n, "sagemaker") &&
		       !smp__mem_contains(buf, n, "boto3");
	else
		none = !smp__text_may_hold_job(buf, n);
	smp__free(&ctx->alloc, buf);
	return none;
}

int
smp__check_file_run(struct smp_report **out, const struct smp_context *ctx,
		    const char *path, const struct smp_check_hook *hook,
		    struct smp_error *err)
{
	const char *slash = path ? strrchr(path, '/') : NULL;
	char *buf = NULL, *dir;
	size_t len = 0, limit;
	int rc;

	if (out)
		*out = NULL;
	if (!out || !ctx || !path)
		return smp__error_set(err, SMP_EINVAL, NULL, NULL,
				      "invalid argument");
	/* a notebook's outputs do not count against the size limit: its
	 * code cells do, once they are read */
	limit = smp__pysrc_kind(path) == 2 ? ctx->limits.max_file_size * 16
					   : ctx->limits.max_file_size;
	rc = smp__read_file(&buf, &len, &ctx->alloc, path, limit, err);
	if (rc == SMP_ELIMIT) {
		struct smp_report *rep;
		struct smp_pos at = {1, 1, 0};

		/* too big to read: a finding, so other files go on */
		rc = smp__report_new(&rep, &ctx->alloc, path, ctx->severity);
		if (rc)
			return rc;
		rep->severity_set = ctx->severity_set;
		if (SMP__WALKED(hook) && ctx->dialect == SMP_DIALECT_AUTO &&
		    too_big_without_job(ctx, path)) {
			*out = rep; /* found by a walk: data, not a job */
			return 0;
		}
		smp__report_add(rep, SMP_RULE_INPUT_LIMIT, &at, NULL,
				"file is larger than the limit of %zu bytes%s",
				limit,
				limit != ctx->limits.max_file_size
					? " for a notebook (16 times the limit "
					  "of a file, since outputs do not "
					  "count)"
					: "");
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
