/*
 * test_check.c - the whole pipeline through the public API: context
 * creation, checks of buffers and files, and out-of-memory at every
 * allocation of load + check.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "smpreflight.h"

/* An allocator that fails the Nth allocation and counts live blocks. */
struct failing {
	long fail_at; /* -1: never */
	long calls;
	long live;
};

static void *
f_malloc(void *ud, size_t n)
{
	struct failing *f = ud;

	if (f->fail_at >= 0 && f->calls++ == f->fail_at)
		return NULL;
	f->live++;
	return malloc(n);
}

static void *
f_realloc(void *ud, void *p, size_t n)
{
	struct failing *f = ud;
	void *q;

	if (f->fail_at >= 0 && f->calls++ == f->fail_at)
		return NULL;
	q = realloc(p, n);
	if (q && !p)
		f->live++;
	return q;
}

static void
f_free(void *ud, void *p)
{
	struct failing *f = ud;

	if (p)
		f->live--;
	free(p);
}

static const char spec[] = "estimator: HuggingFace\n"
			   "entry_point: train.py\n"
			   "instance_type: ml.p3.8xlarge\n"
			   "instance_count: 2\n"
			   "transformers_version: \"4.21.1\"\n"
			   "pytorch_version: \"1.11.0\"\n"
			   "py_version: py38\n"
			   "compiler_confg: {enabled: true}\n"
			   "compiler_config: {enabled: true, debug: true}\n"
			   "environment: {GPU_NUM_DEVICES: \"8\", X: 1}\n"
			   "distribution: {torchxla: {enabled: true}}\n";

static struct smp_context *
new_context(void)
{
	struct smp_context *ctx = NULL;
	struct smp_error err;
	int rc = smp_context_new(&ctx, NULL, &err);

	cr_assert_eq(rc, 0, "context: %s", err.message);
	return ctx;
}

static int
has_rule(const struct smp_report *r, const char *rule)
{
	size_t i;

	for (i = 0; i < smp_report_count(r); i++)
		if (strcmp(smp_report_get(r, i)->rule, rule) == 0)
			return 1;
	return 0;
}

Test(check, finds_problems_in_a_buffer)
{
	struct smp_context *ctx = new_context();
	struct smp_report *rep = NULL;
	const struct smp_finding *f;
	size_t i;
	int rc;

	rc = smp_check_buffer(&rep, ctx, "job.yaml", spec, strlen(spec), NULL);
	cr_assert_eq(rc, 0);
	cr_assert(has_rule(rep, "unknown-key"));
	cr_assert(has_rule(rep, "compiler-debug"));
	cr_assert(has_rule(rep, "gpu-num-devices-mismatch"));
	cr_assert(has_rule(rep, "distribution-unknown-key"));
	cr_assert(has_rule(rep, "value-not-string"));
	cr_assert_eq(smp_report_max_severity(rep), SMP_SEVERITY_ERROR);
	for (i = 0; i < smp_report_count(rep); i++) {
		f = smp_report_get(rep, i);
		if (strcmp(f->rule, "unknown-key") != 0)
			continue;
		cr_assert_str_eq(f->file, "job.yaml");
		cr_assert_eq(f->line, 8);
		cr_assert_eq(f->column, 1);
		cr_assert_eq(f->end_column, 15);
		cr_assert_str_eq(f->source_line,
				 "compiler_confg: {enabled: true}");
		cr_assert_str_eq(f->suggestion, "compiler_config");
	}
	for (i = 1; i < smp_report_count(rep); i++)
		cr_assert_leq(smp_report_get(rep, i - 1)->line,
			      smp_report_get(rep, i)->line, "sorted by line");
	cr_assert_null(smp_report_get(rep, smp_report_count(rep)));
	smp_report_free(rep);
	smp_context_free(ctx);
}

Test(check, pointer_names_the_field)
{
	struct smp_context *ctx = new_context();
	struct smp_report *rep = NULL;
	size_t i;
	int seen = 0;

	cr_assert_eq(
		smp_check_buffer(&rep, ctx, "j.yaml", spec, strlen(spec), NULL),
		0);
	for (i = 0; i < smp_report_count(rep); i++) {
		const struct smp_finding *f = smp_report_get(rep, i);

		if (strcmp(f->rule, "gpu-num-devices-mismatch") == 0) {
			cr_assert_str_eq(f->pointer,
					 "/environment/GPU_NUM_DEVICES");
			cr_assert_str_eq(f->suggestion, "4");
			seen = 1;
		}
	}
	cr_assert(seen);
	smp_report_free(rep);
	smp_context_free(ctx);
}

Test(check, severity_overrides_apply)
{
	struct smp_rule_override ov[] = {{"compiler-debug", SMP_SEVERITY_OFF},
					 {"unknown-key", SMP_SEVERITY_INFO}};
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_context *ctx = NULL;
	struct smp_report *rep = NULL;
	size_t i;

	o.overrides = ov;
	o.override_count = 2;
	cr_assert_eq(smp_context_new(&ctx, &o, NULL), 0);
	cr_assert_eq(
		smp_check_buffer(&rep, ctx, "j.yaml", spec, strlen(spec), NULL),
		0);
	cr_assert_not(has_rule(rep, "compiler-debug"));
	for (i = 0; i < smp_report_count(rep); i++)
		if (strcmp(smp_report_get(rep, i)->rule, "unknown-key") == 0)
			cr_assert_eq(smp_report_get(rep, i)->severity,
				     SMP_SEVERITY_INFO);
	smp_report_free(rep);
	smp_context_free(ctx);
}

Test(check, unknown_override_is_einval)
{
	struct smp_rule_override ov[] = {{"no-such-rule", SMP_SEVERITY_OFF}};
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_context *ctx = NULL;
	struct smp_error err;

	o.overrides = ov;
	o.override_count = 1;
	cr_assert_eq(smp_context_new(&ctx, &o, &err), SMP_EINVAL);
	cr_assert_null(ctx);
	cr_assert(strstr(err.message, "no-such-rule"));
}

Test(check, old_options_version_is_refused)
{
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_context *ctx = NULL;

	o.version = SMP_OPTIONS_VERSION + 1;
	cr_assert_eq(smp_context_new(&ctx, &o, NULL), SMP_EINVAL);
	o.version = 0;
	cr_assert_eq(smp_context_new(&ctx, &o, NULL), SMP_EINVAL);
}

Test(check, unreadable_file_is_eio)
{
	struct smp_context *ctx = new_context();
	struct smp_report *rep = NULL;
	struct smp_error err;

	cr_assert_eq(smp_check_file(&rep, ctx, "no/such/file.yaml", &err),
		     SMP_EIO);
	cr_assert_null(rep);
	cr_assert_str_eq(err.source, "no/such/file.yaml");
	cr_assert(strstr(err.message, "No such file"));
	smp_context_free(ctx);
}

Test(check, empty_and_clean_specs)
{
	static const char clean[] =
		"estimator: PyTorch\nentry_point: t.py\n"
		"instance_type: ml.p3.2xlarge\nframework_version: \"1.13.1\"\n"
		"py_version: py39\ncompiler_config: {enabled: true}\n"
		"debugger_hook_config: false\ndisable_profiler: true\n";
	struct smp_context *ctx = new_context();
	struct smp_report *rep = NULL;

	cr_assert_eq(smp_check_buffer(&rep, ctx, "e.yaml", "", 0, NULL), 0);
	cr_assert_eq(smp_report_count(rep), 0);
	smp_report_free(rep);
	cr_assert_eq(smp_check_buffer(&rep, ctx, "c.yaml", clean, strlen(clean),
				      NULL),
		     0);
	cr_assert_eq(smp_report_count(rep), 0, "first: %s",
		     smp_report_count(rep) ? smp_report_get(rep, 0)->message
					   : "");
	smp_report_free(rep);
	smp_context_free(ctx);
}

/* CONVENTIONS.md 9: fail allocation N of load + check, N = 0, 1, 2 ... */
Test(check, every_allocation_failure_is_clean)
{
	struct failing st = {-1, 0, 0};
	struct smp_allocator a = {f_malloc, f_realloc, f_free, &st};
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_context *ctx = NULL;
	long n, base;
	int done = 0;

	o.allocator = &a;
	cr_assert_eq(smp_context_new(&ctx, &o, NULL), 0);
	base = st.live;
	for (n = 0; !done; n++) {
		struct smp_report *rep = NULL;
		int rc;

		st.fail_at = n;
		st.calls = 0;
		rc = smp_check_buffer(&rep, ctx, "j.yaml", spec, strlen(spec),
				      NULL);
		cr_assert(rc == 0 || rc == SMP_ENOMEM, "n=%ld rc=%d", n, rc);
		if (rc == 0)
			cr_assert_gt(smp_report_count(rep), 0);
		else
			cr_assert_null(rep);
		done = rc == 0 && st.calls <= n;
		smp_report_free(rep);
		cr_assert_eq(st.live, base, "n=%ld leaked %ld blocks", n,
			     st.live - base);
	}
	st.fail_at = -1;
	smp_context_free(ctx);
	cr_assert_eq(st.live, 0);
}

/* The same for context creation (catalog and schemas), sampled. */
Test(check, context_allocation_failure_is_clean)
{
	struct failing st = {-1, 0, 0};
	struct smp_allocator a = {f_malloc, f_realloc, f_free, &st};
	struct smp_options o = SMP_OPTIONS_INIT;
	long n, total;
	struct smp_context *ctx = NULL;

	o.allocator = &a;
	cr_assert_eq(smp_context_new(&ctx, &o, NULL), 0);
	total = st.live; /* at least this many allocations happen */
	smp_context_free(ctx);
	for (n = 0; n < total; n += n < 64 ? 1 : 1 + total / 64) {
		int rc;

		st.fail_at = n;
		st.calls = 0;
		st.live = 0;
		ctx = NULL;
		rc = smp_context_new(&ctx, &o, NULL);
		cr_assert(rc == SMP_ENOMEM, "n=%ld rc=%d", n, rc);
		cr_assert_null(ctx);
		cr_assert_eq(st.live, 0, "n=%ld leaked %ld blocks", n, st.live);
	}
}
