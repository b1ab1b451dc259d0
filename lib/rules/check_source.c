/*
 * check_source.c - the pipeline for a Python launcher or a notebook: the
 * jobs the source creates (job/source_python.c) are checked one by one
 * as documents, like the jobs of a YAML stream. What the evaluator could
 * not know is an unknown node: a finding about one is dropped, so that no
 * rule reports a value it did not see. A notebook's code cells are read
 * first (doc/notebook.c) and its findings mapped back to cell and line.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules/check.h"
#include "context/context.h"
#include "doc/load.h"
#include "job/notebook.h"
#include "job/source_python.h"
#include "report/suppress.h"
#include "util/text.h"

/*
 * The findings one job added, from index from: those about an unknown
 * value are dropped; for a job with an unknown **kwargs, also those
 * about something absent (it may be among the unknown arguments); the
 * rest are named after the job.
 */
static void
settle(struct smp_report *rep, size_t from, const struct smp_pysrc_job *job,
       const char *what)
{
	size_t k, kept = from;

	for (k = from; k < rep->count; k++) {
		struct smp_finding *f = &rep->items[k];
		int unknown = 0;
		const struct smp_node *n =
			f->pointer ? smp__node_at_pointer(job->root, f->pointer,
							  &unknown)
				   : NULL;

		if (job->partial && (!n || n == job->root))
			continue;
		if (n && n->kind == SMP_NODE_SEQUENCE && n->tag &&
		    strcmp(n->tag, SMP_TAG_TUPLE) == 0 && !f->fix &&
		    strcmp(f->rule, "wrong-type") == 0) {
			f->fix = "remove the trailing comma that makes the "
				 "value a tuple";
		}
		if (f->message) {
			const char *via = NULL, *m;
			size_t j;

			/* a pipeline parameter's default: say it is one */
			for (j = 0; n && j < job->nsubst; j++)
				if (job->subst[j].node == n)
					via = job->subst[j].param;
			if (via)
				m = smp__arena_printf(
					&rep->arena,
					"in %s'%s': %s (the default value of "
					"pipeline parameter '%s')",
					what, job->name, f->message, via);
			else
				m = smp__arena_printf(&rep->arena,
						      "in %s'%s': %s", what,
						      job->name, f->message);

			if (!m)
				rep->failed = 1;
			else
				f->message = m;
		}
		rep->items[kept++] = *f;
	}
	rep->count = kept;
}

/* Size and UTF-8 checks of a .py, as smp__load() does for specs. */
static int
source_ok(const struct smp_context *ctx, struct smp_report *rep)
{
	size_t bad = 0;

	if (rep->len > ctx->limits.max_file_size) {
		struct smp_pos pos = {1, 1, 0};

		smp__report_add(rep, SMP_RULE_INPUT_LIMIT, &pos, NULL,
				"file is %zu bytes, larger than the limit of "
				"%zu bytes",
				rep->len, ctx->limits.max_file_size);
		return 0;
	}
	if (!smp__utf8_valid(rep->buf, rep->len, &bad)) {
		struct smp_pos pos = smp__pos_at(rep->buf, rep->len, bad);

		smp__report_add(rep, SMP_RULE_INPUT_LIMIT, &pos, NULL,
				"invalid UTF-8 byte 0x%02x at offset %zu; "
				"Python sources must be UTF-8",
				(unsigned char)rep->buf[bad], bad);
		return 0;
	}
	return 1;
}

/*
 * The automatic baseline of a side-by-side notebook: with exactly one
 * estimator job without the compiler, it is the baseline of every
 * compiled estimator job of the same entry point. -1 when none.
 */
static long
native_of(const struct smp_pysrc *src)
{
	long native = -1;
	size_t k, compiled = 0;

	for (k = 0; k < src->count; k++) {
		const struct smp_pysrc_job *j = &src->jobs[k];

		if (j->dialect != SMP_DIALECT_ESTIMATOR || j->partial)
			continue;
		if (j->compiled) {
			compiled++;
		} else if (native >= 0) {
			return -1; /* two candidates: which one is not clear */
		} else {
			native = (long)k;
		}
	}
	return compiled ? native : -1;
}

static int
same_entry(const struct smp_pysrc_job *a, const struct smp_pysrc_job *b)
{
	return a->entry && b->entry && strcmp(a->entry, b->entry) == 0;
}

struct auto_base {
	int capture; /* the job being checked is the native one */
	int compare; /* it is a compiled one of the same entry point */
	int have;
	struct smp_job job;
	const struct smp_instance *instance;
	const char *name;
};

static void
auto_base_fn(void *ud, const struct smp_check *c)
{
	struct auto_base *a = ud;

	if (a->capture) {
		a->job = *c->job;
		a->job.script = NULL; /* released once its check ends */
		a->instance = c->instance;
		a->have = 1;
	} else if (a->compare && a->have) {
		struct smp_base b;

		b.job = &a->job;
		b.instance = a->instance;
		b.name = a->name;
		smp__rules_baseline(&b, c);
	}
}

static int
check_one(const struct smp_context *ctx, const struct smp_pysrc_job *job,
	  struct smp_docs *docs, struct smp_report *rep,
	  const struct smp_check_hook *hook, const char *script_dir,
	  const char *what, int push)
{
	size_t from = rep->count;
	int rc;

	if (push) {
		/* kept for the suppressions' scan and the hook */
		struct smp_doc *d = smp__docs_push(docs);

		if (!d)
			return SMP_ENOMEM;
		d->root = (struct smp_node *)(uintptr_t)job->root;
		d->start = job->at;
	}
	rc = smp__check_root(ctx, job->root, job->dialect, &docs->arena, rep,
			     hook, script_dir);
	settle(rep, from, job, what);
	return rc;
}

int
smp__check_jobs(const struct smp_context *ctx, const struct smp_pysrc *src,
		struct smp_docs *docs, struct smp_report *rep,
		const struct smp_check_hook *hook, const char *script_dir,
		const char *what, int push)
{
	struct auto_base ab;
	struct smp_check_hook own;
	/* a hook that adds to the jobs (--baseline, suggest) replaces the
	 * automatic baseline; one that only names a format or folder, or
	 * keeps the documents (check --fix), not */
	long native = hook && hook->fn ? -1 : native_of(src);
	size_t k;
	int rc = 0;

	if (native < 0) {
		for (k = 0; rc == 0 && k < src->count; k++)
			rc = check_one(ctx, &src->jobs[k], docs, rep, hook,
				       script_dir, what, push);
		return rc;
	}
	/* the native job first, so that the compiled ones can use it */
	memset(&ab, 0, sizeof(ab));
	memset(&own, 0, sizeof(own));
	own.fn = auto_base_fn;
	own.ud = &ab;
	ab.name = src->jobs[native].name;
	ab.capture = 1;
	rc = check_one(ctx, &src->jobs[native], docs, rep, &own, script_dir,
		       what, push);
	ab.capture = 0;
	for (k = 0; rc == 0 && k < src->count; k++) {
		const struct smp_pysrc_job *j = &src->jobs[k];

		if ((long)k == native)
			continue;
		ab.compare = j->compiled &&
			     j->dialect == SMP_DIALECT_ESTIMATOR &&
			     same_entry(j, &src->jobs[native]);
		rc = check_one(ctx, j, docs, rep, &own, script_dir, what, push);
	}
	return rc;
}

/* The calls no variable names: by their class and line (or cell). */
static int
name_calls(struct smp_pysrc *src, const struct smp_notebook *nb,
	   struct smp_arena *arena)
{
	size_t k;

	for (k = 0; k < src->count; k++) {
		struct smp_pysrc_job *job = &src->jobs[k];
		uint32_t line = job->at.line;

		if (job->name)
			continue;
		if (nb && line && line <= nb->nlines)
			job->name = smp__arena_printf(
				arena, "%s(...) in cell %u", job->cls,
				(unsigned)nb->lines[line - 1].cell);
		else
			job->name =
				smp__arena_printf(arena, "%s(...) on line %u",
						  job->cls, (unsigned)line);
		if (!job->name)
			return SMP_ENOMEM;
	}
	return 0;
}

int
smp__check_source(const struct smp_context *ctx, const char *name,
		  struct smp_docs *docs, struct smp_report *rep,
		  const struct smp_check_hook *hook, const char *script_dir)
{
	struct smp_notebook nb;
	struct smp_pysrc src;
	const char *saved_buf = rep->buf;
	size_t saved_len = rep->len;
	int rc = 0, notebook = smp__pysrc_kind(name) == 2;

	memset(&nb, 0, sizeof(nb));
	if (!notebook && !source_ok(ctx, rep))
		return rep->failed ? SMP_ENOMEM : 0;
	if (notebook) {
		rc = smp__notebook_load(&nb, docs, rep->buf, rep->len,
					&ctx->limits, rep);
		if (rc == 0)
			rc = smp__rules_input(rep, docs);
		if (rc || !nb.ok)
			return rc;
		/* findings and excerpts refer to the code of the cells
		 * until they are mapped back */
		rep->buf = nb.code;
		rep->len = nb.len;
		docs->count = 0; /* the notebook's JSON is not a job */
	}
	rc = smp__pysrc_scan(&src, &docs->arena, &ctx->alloc, rep->buf,
			     rep->len);
	if (rc == 0 && src.syntax) {
		smp__report_add(rep, SMP_RULE_SYNTAX, &src.err_at, NULL,
				"%s; nothing else in this file is checked",
				src.err);
	} else if (rc == 0 && !src.count) {
		struct smp_pos at = {1, 1, 0};

		smp__report_add(rep, SMP_RULE_NO_TRAINING_JOB, &at, NULL,
				"no SageMaker training job found: no call of "
				"an estimator, ModelTrainer or "
				"create_training_job through the sagemaker "
				"or boto3 imports");
	} else if (rc == 0) {
		rc = name_calls(&src, notebook ? &nb : NULL, &docs->arena);
		if (rc == 0)
			rc = smp__check_jobs(ctx, &src, docs, rep, hook,
					     script_dir, "", 1);
	}
	rep->root = NULL;
	if (rc == 0 && !rep->failed && !ctx->no_inline_ignores && !src.syntax)
		rc = smp__suppress_apply(rep, rep->buf, rep->len, docs,
					 ctx->now);
	if (notebook)
		smp__notebook_map(&nb, rep);
	rep->buf = saved_buf;
	rep->len = saved_len;
	return rc;
}
