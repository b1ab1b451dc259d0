/*
 * diagnose.c - smp_diagnose_buffer(): the troubleshooting guide run
 * against a DescribeTrainingJob response. The response goes through the
 * check pipeline like any spec (its request part is a CreateTrainingJob
 * request), with the baseline's comparison rules and, when a local copy of
 * the code is given, the entry-script rules; a hook keeps the job model.
 * The other files of this stage then read the situation, the known causes
 * and the checklist off the job, the report and the log.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "util/options_version.h"
#include "advise/diagnose.h"
#include "advise/baseline.h"
#include "context/context.h"
#include "script/script.h"
#include "util/error.h"

/* Keeps the first job of the response, after the baseline's rules. */
static void
capture(void *ud, const struct smp_check *c)
{
	struct smp_diagnosis_build *b = ud;
	const struct smp_script_facts *s = c->job->script;

	if (b->have_job)
		return;
	if (b->baseline)
		smp__baseline_compare(b->baseline, c);
	smp__keep_first_job(&b->job, &b->instance, &b->have_job, c);
	if (s && s->status == SMP_SCRIPT_SCANNED)
		b->script_scanned = 1;
	else if (s && s->status == SMP_SCRIPT_MISSING && s->path)
		b->script_why = smp__diag_printf(
			b, "the entry script '%s' %s", s->path,
			s->reason ? s->reason : "was not read");
	else if (s && s->status == SMP_SCRIPT_NOT_LOCAL && s->reason) {
		/* refused, not missing: another --source-dir would not do */
		b->script_why = smp__diag_printf(b, "the entry script '%s' %s",
						 s->path, s->reason);
		b->script_refused = 1;
	}
}

static const size_t diagnose_options_size[SMP_DIAGNOSE_OPTIONS_VERSION + 1] = {
	0, offsetof(struct smp_diagnose_options, log_read),
	sizeof(struct smp_diagnose_options)};

int
smp_diagnose_options_init(struct smp_diagnose_options *opts,
			  unsigned int version)
{
	const struct smp_diagnose_options defaults = SMP_DIAGNOSE_OPTIONS_INIT;

	return smp__options_init(opts, version, &defaults,
				 diagnose_options_size,
				 SMP_DIAGNOSE_OPTIONS_VERSION);
}

void
smp_diagnosis_free(struct smp_diagnosis *d)
{
	struct smp_diagnosis_build *b = (struct smp_diagnosis_build *)d;
	const struct smp_allocator *a;

	if (!b)
		return;
	a = &b->ctx->alloc;
	smp_report_free(b->report);
	smp_baseline_free(b->baseline);
	smp__docs_release(&b->docs);
	smp__arena_release(&b->arena);
	smp__free(a, b);
}

int
smp_diagnosis_found(const struct smp_diagnosis *d)
{
	size_t i;

	if (!d)
		return 0;
	for (i = 0; i < d->item_count; i++)
		if (d->items[i].state == SMP_ITEM_PROBLEM)
			return 1;
	/* a failed job is never "nothing found", whatever the causes */
	if (d->status && strcmp(d->status, "Failed") == 0)
		return 1;
	return d->cause_count > 0;
}

/* The response read as a job, or why not (SMP_EPARSE). */
static int
read_response(struct smp_diagnosis_build *b, const char *name, const char *buf,
	      size_t len, const char *sources, struct smp_error *err)
{
	struct smp_check_hook hook = {
		.fn = capture, .ud = b, .keep = &b->docs, .sources = sources};
	const struct smp_finding *f;
	int rc;

	rc = smp__check_run(&b->report, b->ctx, name, buf, len, &hook, err);
	if (rc)
		return rc;
	if (b->oom)
		return smp__error_at(err, SMP_ENOMEM, name, 0, 0,
				     "out of memory");
	f = smp__unreadable(b->report);
	if (!f && !b->have_job && smp_report_count(b->report))
		f = smp_report_get(b->report, 0);
	if (f)
		return smp__error_at(err, SMP_EPARSE, name, f->line, f->column,
				     f->message);
	if (!b->have_job)
		return smp__error_at(
			err, SMP_EPARSE, name, 0, 0,
			"the file holds no DescribeTrainingJob response");
	if (!smp__is_describe_response(b->job.root))
		return smp__error_at(
			err, SMP_EPARSE, name, 1, 1,
			"not a DescribeTrainingJob response: it has none "
			"of TrainingJobArn, TrainingJobStatus and the "
			"other members only a response has; give the "
			"output of 'aws sagemaker describe-training-job'");
	return 0;
}

/* The public fields that come straight from the job. */
static void
fill_job(struct smp_diagnosis_build *b, const char *name)
{
	struct smp_diagnosis *d = &b->pub;
	const struct smp_node *root = b->job.root;
	const char *s;

	d->file = smp__diag_str(b, name, strlen(name));
	s = smp__diag_member(root, "TrainingJobName");
	d->job_name = s ? smp__diag_str(b, s, strlen(s)) : NULL;
	s = smp__diag_member(root, "TrainingJobStatus");
	d->status = s ? smp__diag_str(b, s, strlen(s)) : NULL;
	s = smp__diag_member(root, "FailureReason");
	d->failure_reason = s ? smp__diag_str(b, s, strlen(s)) : NULL;
	s = smp__node_text(b->job.instance_type);
	d->instance_type = s ? smp__diag_str(b, s, strlen(s)) : NULL;
	d->instance_count = b->job.count;
	d->gpus = b->instance ? b->instance->gpus : 0;
	d->compiler = b->job.compiler;
	d->report = b->report;
	d->situations = b->situations;
	d->situation_count = SMP__SITUATIONS;
	d->causes = b->causes;
	d->items = b->items;
}

int
smp_diagnose_buffer(struct smp_diagnosis **out, const struct smp_context *ctx,
		    const char *name, const char *buf, size_t len,
		    const struct smp_diagnose_options *opts,
		    struct smp_error *err)
{
	struct smp_diagnose_options o = SMP_DIAGNOSE_OPTIONS_INIT;
	struct smp_diagnosis_build *b;
	struct smp_baseline *baseline = NULL;
	int rc;

	smp__error_clear(err);
	if (!out)
		return smp__error_at(err, SMP_EINVAL, "", 0, 0,
				     "invalid argument");
	*out = NULL;
	rc = smp__options_copy(&o, opts, diagnose_options_size,
			       SMP_DIAGNOSE_OPTIONS_VERSION,
			       "smp_diagnose_options", err);
	if (rc)
		return rc;
	opts = &o;
	if (!ctx || !name || (!buf && len) ||
	    (!opts->baseline && opts->baseline_len) ||
	    (!opts->log && opts->log_len))
		return smp__error_at(err, SMP_EINVAL, name ? name : "", 0, 0,
				     "invalid argument");
	b = smp__calloc(&ctx->alloc, 1, sizeof(*b));
	if (!b)
		return smp__error_at(err, SMP_ENOMEM, name, 0, 0,
				     "out of memory");
	b->ctx = ctx;
	smp__arena_init(&b->arena, &ctx->alloc);
	smp__docs_init(&b->docs, &ctx->alloc);
	if (opts->baseline) {
		const char *bn =
			opts->baseline_name ? opts->baseline_name : "baseline";

		rc = smp_baseline_new(&baseline, ctx, bn, opts->baseline,
				      opts->baseline_len, err);
		if (rc)
			goto out;
		b->baseline = baseline;
		b->baseline_root = smp__baseline_job(baseline)->root;
		b->pub.baseline_file = smp__diag_str(b, bn, strlen(bn));
	}
	if (opts->log || opts->log_read) {
		const char *ln = opts->log_name ? opts->log_name : "log";

		b->pub.log_file = smp__diag_str(b, ln, strlen(ln));
	}
	rc = read_response(b, name, buf ? buf : "", len, opts->source_dir, err);
	if (rc)
		goto out;
	fill_job(b, name);
	smp__diag_situations(b);
	rc = smp__diag_causes(b, opts);
	if (rc == SMP_EIO)
		smp__error_at(err, SMP_EIO, b->pub.log_file, 0, 0,
			      "the log cannot be read");
	if (!rc) {
		smp__diag_refine(b);
		smp__diag_checklist(b);
	}
	if (!rc && b->baseline)
		rc = smp__diag_hyperparameters(b);
	if (!rc)
		smp__diag_tuning(b);
	if (!rc && b->oom)
		rc = SMP_ENOMEM;
	if (rc == SMP_ENOMEM)
		smp__error_at(err, SMP_ENOMEM, name, 0, 0, "out of memory");
out:
	if (rc) {
		smp_diagnosis_free(&b->pub);
		return rc;
	}
	*out = &b->pub;
	return 0;
}
