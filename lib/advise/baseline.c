/*
 * baseline.c - `check --baseline`: the native run a compiled job is
 * compared with, read from its own spec; the comparison itself is
 * rules/baseline_rules.c.
 */
#include <stdio.h>
#include <string.h>

#include "rules/check.h"
#include "context/context.h"
#include "advise/baseline.h"
#include "util/error.h"

struct smp_baseline {
	const struct smp_context *ctx;
	char *name;
	struct smp_docs docs; /* the job's nodes live here */
	struct smp_job job;
	const struct smp_instance *instance;
	int have_job;
};

int
smp__keep_first_job(struct smp_job *job, const struct smp_instance **instance,
		    int *have, const struct smp_check *c)
{
	if (*have)
		return 0;
	*job = *c->job;
	job->script = NULL; /* released when the check ends */
	*instance = c->instance;
	*have = 1;
	return 1;
}

static void
capture(void *ud, const struct smp_check *c)
{
	struct smp_baseline *b = ud;

	smp__keep_first_job(&b->job, &b->instance, &b->have_job, c);
}

void
smp_baseline_free(struct smp_baseline *b)
{
	if (!b)
		return;
	smp__docs_release(&b->docs);
	smp__free(&b->ctx->alloc, b->name);
	smp__free(&b->ctx->alloc, b);
}

const struct smp_finding *
smp__unreadable(const struct smp_report *rep)
{
	size_t i, n = smp_report_count(rep);

	for (i = 0; i < n; i++) {
		const struct smp_finding *f = smp_report_get(rep, i);
		enum smp_rule_id rule;

		if (smp__rule_lookup(&rule, f->rule) == 0 &&
		    smp__rule_unreadable(rule))
			return f;
	}
	return NULL;
}

/* Parses the baseline through the check pipeline, keeping its nodes. */
static int
baseline_new(struct smp_baseline **out, const struct smp_context *ctx,
	     const char *name, const char *buf, size_t len, const char *path,
	     struct smp_error *err)
{
	struct smp_check_hook hook;
	struct smp_report *rep = NULL;
	const struct smp_finding *f;
	struct smp_baseline *b;
	int rc;

	*out = NULL;
	if (!ctx || !name)
		return smp__error_at(err, SMP_EINVAL, "", 0, 0,
				     "invalid argument");
	b = smp__calloc(&ctx->alloc, 1, sizeof(*b));
	if (!b)
		return smp__error_at(err, SMP_ENOMEM, name, 0, 0,
				     "out of memory");
	b->ctx = ctx;
	smp__docs_init(&b->docs, &ctx->alloc);
	memset(&hook, 0, sizeof(hook));
	hook.fn = capture;
	hook.ud = b;
	hook.keep = &b->docs;
	hook.sources = NULL;
	if (path)
		rc = smp__check_file_run(&rep, ctx, path, &hook, err);
	else
		rc = smp__check_run(&rep, ctx, name, buf, len, &hook, err);
	if (rc)
		goto out;
	f = smp__unreadable(rep);
	if (f) {
		rc = smp__error_at(err, SMP_EPARSE, name, f->line, f->column,
				   f->message);
		goto out;
	}
	if (!b->have_job) {
		rc = smp__error_at(err, SMP_EPARSE, name, 0, 0,
				   "the baseline holds no job spec");
		goto out;
	}
	b->name = smp__strndup(&ctx->alloc, name, strlen(name));
	if (!b->name)
		rc = smp__error_at(err, SMP_ENOMEM, name, 0, 0,
				   "out of memory");
out:
	smp_report_free(rep);
	if (rc) {
		smp_baseline_free(b);
		return rc;
	}
	*out = b;
	return 0;
}

int
smp_baseline_new(struct smp_baseline **out, const struct smp_context *ctx,
		 const char *name, const char *buf, size_t len,
		 struct smp_error *err)
{
	smp__error_clear(err);
	if (!out)
		return smp__error_at(err, SMP_EINVAL, "", 0, 0,
				     "invalid argument: out is NULL");
	/* no buffer: name is the file to read */
	return baseline_new(out, ctx, name, buf, len, buf ? NULL : name, err);
}

void
smp__baseline_compare(const struct smp_baseline *b, const struct smp_check *c)
{
	struct smp_base base;

	base.job = &b->job;
	base.instance = b->instance;
	base.name = b->name;
	smp__rules_baseline(&base, c);
}

const struct smp_job *
smp__baseline_job(const struct smp_baseline *b)
{
	return &b->job;
}

const struct smp_instance *
smp__baseline_instance(const struct smp_baseline *b)
{
	return b->instance;
}
