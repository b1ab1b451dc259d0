/*
 * test_check.c - the whole pipeline through the public API: context
 * creation, checks of buffers and files, and out-of-memory at every
 * allocation of load + check.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "failing_alloc.h"
#include "helpers.h"
#include "smpreflight.h"
#include "report/rule_table.h"
#include "rules/rules.h"

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

Test(check, finds_problems_in_a_buffer)
{
	struct smp_context *ctx = th_context(NULL);
	struct smp_report *rep = NULL;
	const struct smp_finding *f;
	size_t i;
	int rc;

	rc = smp_check_buffer(&rep, ctx, "job.yaml", spec, strlen(spec), NULL);
	cr_assert_eq(rc, 0);
	cr_assert(th_has_rule(rep, "unknown-key"));
	cr_assert(th_has_rule(rep, "compiler-debug"));
	cr_assert(th_has_rule(rep, "gpu-num-devices-mismatch"));
	cr_assert(th_has_rule(rep, "distribution-unknown-key"));
	cr_assert(th_has_rule(rep, "value-not-string"));
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
	struct smp_context *ctx = th_context(NULL);
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
	cr_assert_not(th_has_rule(rep, "compiler-debug"));
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
	struct smp_error err = {0};

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
	struct smp_context *ctx = th_context(NULL);
	struct smp_report *rep = NULL;
	struct smp_error err = {0};

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
	/* the end-of-support notice is every compiler job's */
	static const char *const eos[] = {"compiler-end-of-support"};
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_context *ctx;
	struct smp_report *rep = NULL;

	o.ignore.names = eos;
	o.ignore.count = 1;
	ctx = th_context(&o);
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

/* Out of memory anywhere is SMP_ENOMEM: fail allocation N of load + check, N =
 * 0, 1, 2 ... */
Test(check, every_allocation_failure_is_clean)
{
	struct failing_alloc st = FA_INIT;
	struct smp_allocator a = fa_allocator(&st);
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_context *ctx = NULL;
	struct smp_report *first = NULL;
	long n, base;
	int done = 0;

	o.allocator = &a;
	cr_assert_eq(smp_context_new(&ctx, &o, NULL), 0);
	/* the first check compiles the dialect's schema, which the context
	 * keeps: count what the checks after it leave */
	cr_assert_eq(smp_check_buffer(&first, ctx, "j.yaml", spec, strlen(spec),
				      NULL),
		     0);
	smp_report_free(first);
	base = st.live;
	for (n = 0; !done; n++) {
		struct smp_report *rep = NULL;
		int rc;

		fa_arm(&st, n);
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
	st.fail_at = FA_NEVER;
	smp_context_free(ctx);
	cr_assert_eq(st.live, 0);
}

/*
 * A dialect's schema is compiled by the first check that needs it: out of
 * memory there is that check's SMP_ENOMEM with nothing kept or leaked, and
 * the next check compiles it and finds the same. Sampled like context
 * creation below, since each step makes a context.
 */
Test(check, schema_compiled_at_first_use_fails_cleanly)
{
	struct failing_alloc st = FA_INIT;
	struct smp_allocator a = fa_allocator(&st);
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_context *ctx = NULL;
	struct smp_report *rep = NULL;
	long n, first, later;
	size_t want;

	o.allocator = &a;
	cr_assert_eq(smp_context_new(&ctx, &o, NULL), 0);
	fa_arm(&st, FA_NEVER);
	cr_assert_eq(
		smp_check_buffer(&rep, ctx, "j.yaml", spec, strlen(spec), NULL),
		0);
	first = st.calls;
	want = smp_report_count(rep);
	smp_report_free(rep);
	fa_arm(&st, FA_NEVER);
	cr_assert_eq(
		smp_check_buffer(&rep, ctx, "j.yaml", spec, strlen(spec), NULL),
		0);
	later = st.calls;
	cr_assert_eq(smp_report_count(rep), want);
	smp_report_free(rep);
	smp_context_free(ctx);
	cr_assert_gt(first, later, "the first check compiles the schema");
	cr_assert_gt(want, 0);
	for (n = 0; n < first; n += n < 64 ? 1 : 1 + first / 64) {
		int rc;

		ctx = NULL;
		cr_assert_eq(smp_context_new(&ctx, &o, NULL), 0);
		fa_arm(&st, n);
		rc = smp_check_buffer(&rep, ctx, "j.yaml", spec, strlen(spec),
				      NULL);
		cr_assert(rc == 0 || rc == SMP_ENOMEM, "n=%ld rc=%d", n, rc);
		if (rc)
			cr_assert_null(rep);
		smp_report_free(rep);
		fa_arm(&st, FA_NEVER);
		rc = smp_check_buffer(&rep, ctx, "j.yaml", spec, strlen(spec),
				      NULL);
		cr_assert_eq(rc, 0, "n=%ld: the check after it", n);
		cr_assert_eq(smp_report_count(rep), want, "n=%ld", n);
		smp_report_free(rep);
		smp_context_free(ctx);
		cr_assert_eq(st.live, 0, "n=%ld leaked %ld blocks", n, st.live);
	}
}

/* The same for context creation (the catalog), sampled. */
Test(check, context_allocation_failure_is_clean)
{
	struct failing_alloc st = FA_INIT;
	struct smp_allocator a = fa_allocator(&st);
	struct smp_options o = SMP_OPTIONS_INIT;
	long n, total;
	struct smp_context *ctx = NULL;

	o.allocator = &a;
	cr_assert_eq(smp_context_new(&ctx, &o, NULL), 0);
	total = st.live; /* at least this many allocations happen */
	smp_context_free(ctx);
	for (n = 0; n < total; n += n < 64 ? 1 : 1 + total / 64) {
		int rc;

		fa_arm(&st, n);
		st.live = 0;
		ctx = NULL;
		rc = smp_context_new(&ctx, &o, NULL);
		cr_assert(rc == SMP_ENOMEM, "n=%ld rc=%d", n, rc);
		cr_assert_null(ctx);
		cr_assert_eq(st.live, 0, "n=%ld leaked %ld blocks", n, st.live);
	}
}

/* rules.def O(): one finding per report, however many jobs */
Test(check, once_per_report_rule)
{
	static const char job[] =
		"estimator: PyTorch\nentry_point: t.py\n"
		"instance_type: ml.p3.2xlarge\nframework_version: \"1.13.1\"\n"
		"py_version: py39\ncompiler_config: {enabled: true}\n"
		"debugger_hook_config: false\ndisable_profiler: true\n";
	struct smp_context *ctx = th_context(NULL);
	char two[1024];
	struct smp_report *rep;
	size_t i, n = 0;

	cr_assert(smp__rule_once(SMP_RULE_COMPILER_END_OF_SUPPORT));
	cr_assert_not(smp__rule_once(SMP_RULE_COMPILER_DEBUG));
	snprintf(two, sizeof(two), "%s---\n%s", job, job);
	rep = th_check(ctx, two);
	for (i = 0; i < smp_report_count(rep); i++)
		n += strcmp(smp_report_get(rep, i)->rule,
			    "compiler-end-of-support") == 0;
	cr_assert_eq(n, 1);
	smp_report_free(rep);
	smp_context_free(ctx);
}

/* The group functions of rules.def's check column: each once, the groups
 * with no function left out, and a short array is never overrun. */
Test(check, rule_checks_lists_each_group_once)
{
	smp_rule_check_fn fns[SMP_RULE_COUNT], few[2];
	size_t n = smp__rule_checks(fns, SMP_RULE_COUNT, 0), i, k;
	int tune = 0, eos = 0;

	cr_assert_eq(n, 11);
	for (i = 0; i < n; i++) {
		cr_assert_not_null(fns[i]);
		for (k = 0; k < i; k++)
			cr_assert_neq(fns[i], fns[k]);
		tune += fns[i] == smp__rules_tune;
		eos += fns[i] == smp__rules_end_of_support;
	}
	cr_assert_eq(tune, 1);
	cr_assert_eq(eos, 1);
	/* the first group of rules.def comes first */
	cr_assert_eq(fns[0], smp__rules_dialect);
	cr_assert_eq(smp__rule_checks(few, 2, 0), 2);
	cr_assert_eq(few[0], fns[0]);
	cr_assert_eq(few[1], fns[1]);
	/* said once per run already: the group of those rules only goes */
	cr_assert_eq(smp__rule_checks(fns, SMP_RULE_COUNT, 1), n - 1);
	for (i = 0; i < n - 1; i++)
		cr_assert_neq(fns[i], smp__rules_end_of_support);
}

/* SMP_CHECK_RUN_SAID: the rules said once per run are not worked out,
 * unless an inline suppression may name one of them. */
#define PT_113                                                                 \
	"estimator: PyTorch\nentry_point: train.py\n"                          \
	"instance_type: ml.p3.2xlarge\nframework_version: \"1.13.1\"\n"

Test(check, run_said_leaves_out_the_rules_said_once_per_run)
{
	static const char job[] = PT_113 "compiler_config: {enabled: true}\n";
	static const char suppressed[] =
		PT_113 "compiler_config: {enabled: true}  # sm-preflight: "
		       "ignore[compiler-end-of-support] planned\n";
	struct smp_context *ctx = th_context(NULL);
	struct smp_check_options o = SMP_CHECK_OPTIONS_INIT;
	struct smp_report *rep = NULL;
	const struct smp_finding *f;
	size_t plain;

	o.flags = SMP_CHECK_NO_EDITS;
	cr_assert_eq(smp_check(&rep, ctx, "a.yaml", job, strlen(job), &o, NULL),
		     0);
	cr_assert(th_has_rule(rep, "compiler-end-of-support"));
	plain = smp_report_count(rep);
	smp_report_free(rep);

	o.flags = SMP_CHECK_NO_EDITS | SMP_CHECK_RUN_SAID;
	cr_assert_eq(smp_check(&rep, ctx, "a.yaml", job, strlen(job), &o, NULL),
		     0);
	cr_assert_not(th_has_rule(rep, "compiler-end-of-support"));
	cr_assert_eq(smp_report_count(rep), plain - 1, "the others stay");
	smp_report_free(rep);

	/* the suppression is used, not reported unused */
	cr_assert_eq(smp_check(&rep, ctx, "b.yaml", suppressed,
			       strlen(suppressed), &o, NULL),
		     0);
	f = th_find(rep, "compiler-end-of-support");
	cr_assert_not_null(f);
	cr_assert(f->suppressed);
	cr_assert_not(th_has_rule(rep, "suppression-unused"));
	smp_report_free(rep);
	smp_context_free(ctx);
}
