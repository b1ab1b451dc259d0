/*
 * test_suppress.c - inline suppression comments: parsing, the line they
 * govern, until= dates against the context's clock, out-of-memory.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "failing_alloc.h"
#include "helpers.h"
#include "smpreflight.h"
#include "report/suppress.h"

/* 2030-06-15 12:00:00 UTC */
#define NOON_2030_06_15 ((int64_t)1907755200)

static void
parse(struct smp_suppress_comment *c, const char *text)
{
	smp__suppress_parse(c, text, strlen(text));
}

static struct smp_context *
context_at(int64_t now, int no_inline_ignores)
{
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_context *ctx = NULL;
	struct smp_error err = {0};

	o.now = now;
	o.no_inline_ignores = no_inline_ignores;
	o.no_script = 1;
	cr_assert_eq(smp_context_new(&ctx, &o, &err), 0, "%s", err.message);
	return ctx;
}

/* compiler-debug fires on line 3, column 34. */
#define SPEC_HEAD                                                              \
	"estimator: HuggingFace\n"                                             \
	"instance_type: ml.p3.2xlarge\n"
#define DEBUG_LINE "compiler_config: {enabled: true, debug: true}\n"

Test(suppress, ordinary_comments_are_not_directives)
{
	struct smp_suppress_comment c;

	parse(&c, " just a note about sm-preflight: it helps");
	cr_assert_eq(c.kind, SMP_SUPPRESS_NONE);
	parse(&c, " sm-preflight ignore[compiler-debug] no colon");
	cr_assert_eq(c.kind, SMP_SUPPRESS_NONE);
	parse(&c, "");
	cr_assert_eq(c.kind, SMP_SUPPRESS_NONE);
}

Test(suppress, parses_ids_reason_and_until)
{
	static const char t[] = " sm-preflight: ignore[compiler-debug , "
				"efa-recommended] known slow until=2030-01-02 "
				"for now";
	struct smp_suppress_comment c;

	parse(&c, t);
	cr_assert_eq(c.kind, SMP_SUPPRESS_VALID, "%s", c.why);
	cr_assert_eq(c.id_count, 2);
	cr_assert_eq(strncmp(t + c.id_off[0], "compiler-debug", c.id_len[0]),
		     0);
	cr_assert_eq(c.id_len[0], strlen("compiler-debug"));
	cr_assert_eq(strncmp(t + c.id_off[1], "efa-recommended", c.id_len[1]),
		     0);
	cr_assert_str_eq(c.until, "2030-01-02");
	cr_assert_eq(strncmp(t + c.reason_off, "known slow", 10), 0);
	cr_assert_eq(strncmp(t + c.until_off, "until=2030-01-02", 16), 0);
}

Test(suppress, rejects_what_cannot_work)
{
	static const struct {
		const char *text;
		const char *why; /* a part of the message */
	} bad[] = {
		{" sm-preflight: ignore[compiler-debug]", "needs a reason"},
		{" sm-preflight: ignore[compiler-debug]   until=2030-01-01",
		 "needs a reason"},
		{" sm-preflight: ignore[compiler-debg] typo",
		 "did you mean 'compiler-debug'"},
		{" sm-preflight: ignore[no-such-rule-at-all] x",
		 "'sm-preflight rules' lists them"},
		{" sm-preflight: ignore compiler-debug x", "in brackets"},
		{" sm-preflight: ignore[compiler-debug", "missing ']'"},
		{" sm-preflight: ignore[compiler-debug x] y",
		 "separated by commas"},
		{" sm-preflight: ignore[] x", "empty rule id"},
		{" sm-preflight: ignore[a,,b] x", "empty rule id"},
		{" sm-preflight: ignore[compiler-debug efa-recommended] x",
		 "separated by commas"},
		{" sm-preflight: nolint[compiler-debug] x", "unknown"},
		{" sm-preflight: ignore[compiler-debug] x until=2023-02-29",
		 "invalid date"},
		{" sm-preflight: ignore[compiler-debug] x until=2030-13-01",
		 "invalid date"},
		{" sm-preflight: ignore[compiler-debug] x until=tomorrow",
		 "invalid date"},
		{" sm-preflight: ignore[a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a,a] x",
		 "more than 16"},
	};
	struct smp_suppress_comment c;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		parse(&c, bad[i].text);
		cr_assert_eq(c.kind, SMP_SUPPRESS_INVALID, "%s", bad[i].text);
		cr_assert_not_null(strstr(c.why, bad[i].why), "%s: %s",
				   bad[i].text, c.why);
	}
	parse(&c,
	      " sm-preflight: ignore[compiler-debug] leap until=2024-02-29");
	cr_assert_eq(c.kind, SMP_SUPPRESS_VALID, "%s", c.why);
}

static enum smp_severity
max_unsuppressed(const struct smp_report *rep)
{
	enum smp_severity max = SMP_SEVERITY_OFF;
	size_t i;

	for (i = 0; i < smp_report_count(rep); i++) {
		const struct smp_finding *f = smp_report_get(rep, i);

		if (!f->suppressed && f->severity > max)
			max = f->severity;
	}
	return max;
}

Test(suppress, same_line_and_line_above)
{
	struct smp_context *ctx = context_at(NOON_2030_06_15, 0);
	struct smp_report *rep;
	const struct smp_finding *f;

	rep = th_check(ctx, SPEC_HEAD "compiler_config: {enabled: true, debug: "
				      "true} # sm-preflight: "
				      "ignore[compiler-debug] on purpose\n");
	f = th_find(rep, "compiler-debug");
	cr_assert_not_null(f);
	cr_assert_eq(f->suppressed, 1);
	cr_assert_str_eq(f->suppression_reason, "on purpose");
	cr_assert_null(th_find(rep, "suppression-unused"));
	smp_report_free(rep);

	rep = th_check(ctx,
		       SPEC_HEAD "  # sm-preflight: ignore[compiler-debug] "
				 "until=2030-06-15 profiling   the graph\n"
				 "\n# another comment\n" DEBUG_LINE);
	f = th_find(rep, "compiler-debug");
	cr_assert_eq(f->suppressed, 1);
	cr_assert_str_eq(f->suppression_reason, "profiling the graph");
	cr_assert_eq(smp_report_max_severity(rep), max_unsuppressed(rep));
	smp_report_free(rep);

	/* a spec whose only finding is suppressed */
	rep = th_check(ctx, "estimator: HuggingFace\n"
			    "entry_point: train.py\n"
			    "instance_type: ml.p3.2xlarge\n"
			    "transformers_version: \"4.21.1\"\n"
			    "pytorch_version: \"1.11.0\"\n"
			    "py_version: py38\n"
			    "compiler_config: {enabled: true, debug: true}  # "
			    "sm-preflight: ignore[compiler-debug] tracing\n"
			    "debugger_hook_config: false\n"
			    "disable_profiler: true\n");
	cr_assert_eq(th_find(rep, "compiler-debug")->suppressed, 1);
	/* what is left is the end-of-support notice, an info */
	cr_assert_eq(smp_report_max_severity(rep), SMP_SEVERITY_INFO,
		     "a suppressed warning does not count");
	smp_report_free(rep);
	smp_context_free(ctx);
}

Test(suppress, until_lapses_after_its_day)
{
	static const char spec[] =
		SPEC_HEAD "# sm-preflight: "
			  "ignore[compiler-debug] until "
			  "the fix until=2030-06-15\n" DEBUG_LINE;
	struct smp_context *ctx = context_at(NOON_2030_06_15 + 11 * 3600, 0);
	struct smp_report *rep = th_check(ctx, spec);
	const struct smp_finding *f;

	cr_assert_eq(th_find(rep, "compiler-debug")->suppressed, 1,
		     "23:00 on the until day: still suppressed");
	smp_report_free(rep);
	smp_context_free(ctx);

	ctx = context_at(NOON_2030_06_15 + 12 * 3600, 0);
	rep = th_check(ctx, spec);
	cr_assert_eq(th_find(rep, "compiler-debug")->suppressed, 0);
	f = th_find(rep, "suppression-invalid");
	cr_assert_not_null(f);
	cr_assert_not_null(strstr(f->message, "expired on 2030-06-15"));
	cr_assert_eq(f->line, 3);
	cr_assert_eq(f->column, 1);
	smp_report_free(rep);
	smp_context_free(ctx);
}

Test(suppress, unused_ids_are_reported_at_the_id)
{
	struct smp_context *ctx = context_at(NOON_2030_06_15, 0);
	struct smp_report *rep =
		th_check(ctx, SPEC_HEAD "# sm-preflight: ignore[compiler-debug,"
					"efa-recommended] both\n" DEBUG_LINE);
	const struct smp_finding *f = th_find(rep, "suppression-unused");

	cr_assert_eq(th_find(rep, "compiler-debug")->suppressed, 1);
	cr_assert_not_null(f);
	cr_assert_eq(f->line, 3);
	cr_assert_eq(f->column, 39, "column %u", f->column);
	cr_assert_eq(f->end_column, 54);
	cr_assert_not_null(strstr(f->message, "'efa-recommended'"));
	smp_report_free(rep);
	smp_context_free(ctx);
}

Test(suppress, option_turns_them_all_off)
{
	struct smp_context *ctx = context_at(NOON_2030_06_15, 1);
	struct smp_report *rep = th_check(
		ctx, SPEC_HEAD "# sm-preflight: ignore[compiler-debug]\n"
			       "# sm-preflight: ignore[efa-recommended] "
			       "x\n" DEBUG_LINE);

	cr_assert_eq(th_find(rep, "compiler-debug")->suppressed, 0);
	cr_assert_null(th_find(rep, "suppression-invalid"));
	cr_assert_null(th_find(rep, "suppression-unused"));
	smp_report_free(rep);
	smp_context_free(ctx);
}

Test(suppress, text_inside_scalars_is_not_a_comment)
{
	struct smp_context *ctx = context_at(NOON_2030_06_15, 0);
	struct smp_report *rep = th_check(
		ctx, SPEC_HEAD "base_job_name: 'a # sm-preflight: "
			       "ignore[compiler-debug] x'\n"
			       "tags:\n  - Key: k\n    Value: |\n"
			       "      # sm-preflight: ignore[compiler-debug]\n"
			       "      more\n" DEBUG_LINE);

	cr_assert_eq(th_find(rep, "compiler-debug")->suppressed, 0);
	cr_assert_null(th_find(rep, "suppression-invalid"));
	cr_assert_null(th_find(rep, "suppression-unused"));
	smp_report_free(rep);
	smp_context_free(ctx);
}

/* Out of memory is SMP_ENOMEM in the suppression pass: fail every
 * allocation. */
Test(suppress, every_allocation_failure_is_clean)
{
	static const char spec[] = SPEC_HEAD
		"# sm-preflight: ignore[compiler-debug] a reason\n" DEBUG_LINE
		"# sm-preflight: ignore[efa-recommended] unused\n"
		"instance_count: 1  # sm-preflight: ignore[bogus] x\n";
	struct failing_alloc st = FA_INIT;
	struct smp_allocator a = fa_allocator(&st);
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_context *ctx = NULL;
	struct smp_report *first = NULL;
	long n, base;
	int done = 0;

	o.allocator = &a;
	o.now = NOON_2030_06_15;
	o.no_script = 1;
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
		if (rc == 0) {
			cr_assert_not_null(th_find(rep, "suppression-unused"));
			cr_assert_not_null(th_find(rep, "suppression-invalid"));
		}
		done = rc == 0 && st.calls <= n;
		smp_report_free(rep);
		cr_assert_eq(st.live, base, "n=%ld leaked %ld blocks", n,
			     st.live - base);
	}
	st.fail_at = FA_NEVER;
	smp_context_free(ctx);
	cr_assert_eq(st.live, 0);
}

/* The marker is found wherever it is, by its '-', and only whole. */
Test(suppress, marker_found_by_its_dash)
{
	static const char *const yes[] = {
		"sm-preflight",
		"# sm-preflight: ignore[x] y",
		"a: 1 - - --sm-preflight",
		"x-y\n  # sm-sm-preflight",
	};
	static const char *const no[] = {
		"",
		"sm-",
		"-preflight",
		"sm-prefligh",
		"s-preflight",
		"a - b - c",
		"sm_preflight",
		"m-preflight",
	};
	size_t i;

	for (i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		cr_expect(smp__suppress_marked(yes[i], strlen(yes[i])), "%s",
			  yes[i]);
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		cr_expect_not(smp__suppress_marked(no[i], strlen(no[i])), "%s",
			      no[i]);
	/* the length bounds the search, not the NUL */
	cr_expect_not(smp__suppress_marked("sm-preflight", 11));
	cr_expect(smp__suppress_marked("xsm-preflightx", 13));
}
