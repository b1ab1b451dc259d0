/*
 * test_emit_junit.c - JUnit XML: one testsuite, one testcase per file,
 * one failure per failing file listing its findings at or above fail_on,
 * the rest in the suite's system-out, totals, timestamp and hostname in
 * the opening tag, XML escaping, suppressed findings left out, the
 * version-1 options struct.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "test_emit_fixture.h"

static const char head[] = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";

Test(emit_junit, testcase_per_file)
{
	struct smp_context *ctx = fx_context(NULL);
	struct smp_finding a[2];
	struct smp_report reps[2];
	struct fx_sink s = {0};

	a[0] = fx_finding("a.yaml", "gpu-num-devices-mismatch",
			  SMP_SEVERITY_ERROR,
			  "GPU_NUM_DEVICES is \"8\" & <bad>", 14, 20, 23);
	a[0].fix = "set it to \"4\"";
	a[1] = fx_finding("a.yaml", "compiler-debug", SMP_SEVERITY_WARNING,
			  "debug is on", 9, 3, 8);
	reps[0] = fx_report("a.yaml", a, 2);
	reps[1] = fx_report("b&c.yaml", NULL, 0);
	cr_assert_eq(fx_emit(ctx, SMP_FORMAT_JUNIT, NULL, reps, 2, &s), 0);
	cr_assert_str_eq(
		s.buf,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuite name=\"sm-preflight\" tests=\"2\" failures=\"1\" "
		"errors=\"0\" skipped=\"0\" time=\"0\" "
		"timestamp=\"1970-01-01T00:00:00\" hostname=\"localhost\">\n"
		"  <properties/>\n"
		"  <testcase classname=\"sm-preflight\" name=\"a.yaml\" "
		"time=\"0\">\n"
		"    <failure type=\"gpu-num-devices-mismatch\" "
		"message=\"GPU_NUM_DEVICES is &quot;8&quot; &amp; "
		"&lt;bad&gt;\">a.yaml:14:20: error: GPU_NUM_DEVICES is \"8\" "
		"&amp; &lt;bad&gt; [gpu-num-devices-mismatch]\n"
		"fix: set it to \"4\"\n"
		"</failure>\n"
		"  </testcase>\n"
		"  <testcase classname=\"sm-preflight\" name=\"b&amp;c.yaml\" "
		"time=\"0\"/>\n"
		"  <system-out>a.yaml:9:3: warning: debug is on "
		"[compiler-debug]\n"
		"</system-out>\n"
		"  <system-err/>\n"
		"</testsuite>\n");
	fx_sink_free(&s);
	smp_context_free(ctx);
}

/* Ant allows one failure per testcase: one that names them all. */
Test(emit_junit, one_failure_per_file)
{
	struct smp_context *ctx = fx_context(NULL);
	struct smp_finding a[3];
	struct smp_report rep;
	struct fx_sink s = {0};

	a[0] = fx_finding("a.yaml", "syntax", SMP_SEVERITY_ERROR, "e1", 1, 1,
			  2);
	a[1] = fx_finding("a.yaml", "instance-unknown", SMP_SEVERITY_ERROR,
			  "e2", 2, 1, 2);
	a[2] = fx_finding("a.yaml", "syntax", SMP_SEVERITY_ERROR, "e3", 3, 1,
			  2);
	rep = fx_report("a.yaml", a, 3);
	cr_assert_eq(fx_emit(ctx, SMP_FORMAT_JUNIT, NULL, &rep, 1, &s), 0);
	cr_assert_not_null(strstr(
		s.buf, "<failure type=\"multiple\" message=\"3 findings at or "
		       "above error: syntax, instance-unknown\">"
		       "a.yaml:1:1: error: e1 [syntax]\n"
		       "a.yaml:2:1: error: e2 [instance-unknown]\n"
		       "a.yaml:3:1: error: e3 [syntax]\n</failure>"));
	cr_assert_null(strstr(strstr(s.buf, "</failure>") + 1, "<failure"));
	cr_assert_not_null(strstr(s.buf, "failures=\"1\""));
	cr_assert_not_null(strstr(s.buf, "<system-out/>"));
	fx_sink_free(&s);
	smp_context_free(ctx);
}

/* The timestamp in UTC from the options, clamped; the hostname escaped. */
Test(emit_junit, timestamp_and_hostname_from_the_options)
{
	static const struct {
		int64_t t;
		const char *want;
	} cases[] = {
		{INT64_C(1767225600), "2026-01-01T00:00:00"},
		{INT64_C(951825599), "2000-02-29T11:59:59"},
		{INT64_C(4107542399), "2100-02-28T23:59:59"},
		{INT64_C(-5), "1970-01-01T00:00:00"},
		{INT64_C(900000000000), "9999-12-31T23:59:59"},
	};
	struct smp_context *ctx = fx_context(NULL);
	struct smp_emitter_options opts = SMP_EMITTER_OPTIONS_INIT;
	struct fx_sink s = {0};
	char want[64];
	size_t i;

	opts.hostname = "ci<1>&";
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		opts.timestamp = cases[i].t;
		cr_assert_eq(fx_emit(ctx, SMP_FORMAT_JUNIT, &opts, NULL, 0, &s),
			     0);
		snprintf(want, sizeof(want), "timestamp=\"%s\"", cases[i].want);
		cr_assert_not_null(strstr(s.buf, want), "%s", s.buf);
		cr_assert_not_null(
			strstr(s.buf, "hostname=\"ci&lt;1&gt;&amp;\""));
		fx_sink_free(&s);
	}
	smp_context_free(ctx);
}

/* A version-1 caller's struct, allocated at its exact size: the newer
 * fields get their defaults; a version the library does not know is
 * refused. */
/* struct smp_emitter_options as version 1 had it. */
struct emitter_options_v1 {
	unsigned int version;
	enum smp_severity min_severity;
	enum smp_severity fail_on;
	unsigned int text_flags;
	const char *rules_uri;
};

Test(emit_junit, version_1_options)
{
	struct emitter_options_v1 *old = malloc(sizeof(*old));
	struct smp_emitter_options bad = SMP_EMITTER_OPTIONS_INIT;
	struct smp_context *ctx = fx_context(NULL);
	struct smp_emitter *em = NULL;
	struct fx_sink s = {0};

	cr_assert_eq(sizeof(*old),
		     offsetof(struct smp_emitter_options, timestamp));
	cr_assert_not_null(old);
	memset(old, 0, sizeof(*old));
	old->version = 1;
	old->min_severity = SMP_SEVERITY_INFO;
	old->fail_on = SMP_SEVERITY_ERROR;
	cr_assert_eq(fx_emit(ctx, SMP_FORMAT_JUNIT,
			     (const struct smp_emitter_options *)old, NULL, 0,
			     &s),
		     0);
	free(old);
	cr_assert_not_null(strstr(s.buf, "timestamp=\"1970-01-01T00:00:00\" "
					 "hostname=\"localhost\""));
	fx_sink_free(&s);
	bad.version = SMP_EMITTER_OPTIONS_VERSION + 1;
	cr_assert_eq(
		smp_emitter_new(&em, ctx, SMP_FORMAT_JUNIT, &bad, fx_write, &s),
		SMP_EINVAL);
	cr_assert_null(em);
	bad.version = 0;
	cr_assert_eq(
		smp_emitter_new(&em, ctx, SMP_FORMAT_JUNIT, &bad, fx_write, &s),
		SMP_EINVAL);
	smp_context_free(ctx);
}

Test(emit_junit, fail_on_moves_the_line)
{
	struct smp_context *ctx = fx_context(NULL);
	struct smp_emitter_options opts = SMP_EMITTER_OPTIONS_INIT;
	struct smp_finding a[2];
	struct smp_report rep;
	struct fx_sink s = {0};

	a[0] = fx_finding("a.yaml", "compiler-debug", SMP_SEVERITY_WARNING, "w",
			  1, 1, 2);
	a[1] = fx_finding("a.yaml", "short-run", SMP_SEVERITY_INFO, "i", 2, 1,
			  2);
	rep = fx_report("a.yaml", a, 2);
	opts.fail_on = SMP_SEVERITY_WARNING;
	cr_assert_eq(fx_emit(ctx, SMP_FORMAT_JUNIT, &opts, &rep, 1, &s), 0);
	cr_assert_not_null(strstr(s.buf, "failures=\"1\""));
	cr_assert_not_null(strstr(s.buf, "<failure type=\"compiler-debug\""));
	cr_assert_not_null(
		strstr(s.buf, "<system-out>a.yaml:2:1: info: i [short-run]"));
	cr_assert_lt(strstr(s.buf, "</testcase>"),
		     strstr(s.buf, "<system-out>"));
	fx_sink_free(&s);

	/* the default: only errors fail */
	cr_assert_eq(fx_emit(ctx, SMP_FORMAT_JUNIT, NULL, &rep, 1, &s), 0);
	cr_assert_not_null(strstr(s.buf, "failures=\"0\""));
	cr_assert_null(strstr(s.buf, "<failure"));
	fx_sink_free(&s);
	smp_context_free(ctx);
}

Test(emit_junit, suppressed_left_out_and_controls_replaced)
{
	struct smp_context *ctx = fx_context(NULL);
	struct smp_finding a[2];
	struct smp_report rep;
	struct fx_sink s = {0};

	a[0] = fx_finding("a.yaml", "syntax", SMP_SEVERITY_ERROR, "hidden", 1,
			  1, 2);
	a[0].suppressed = 1;
	a[1] = fx_finding("a.yaml", "short-run", SMP_SEVERITY_INFO,
			  "bell\x07 here", 0, 0, 0);
	rep = fx_report("a.yaml", a, 2);
	cr_assert_eq(fx_emit(ctx, SMP_FORMAT_JUNIT, NULL, &rep, 1, &s), 0);
	cr_assert_null(strstr(s.buf, "hidden"));
	cr_assert_not_null(strstr(s.buf, "failures=\"0\""));
	cr_assert_not_null(
		strstr(s.buf, "<system-out>a.yaml: info: bell\xEF\xBF\xBD here "
			      "[short-run]\n</system-out>"));
	fx_sink_free(&s);
	smp_context_free(ctx);
}

Test(emit_junit, empty_run)
{
	struct smp_context *ctx = fx_context(NULL);
	struct fx_sink s = {0};

	cr_assert_eq(fx_emit(ctx, SMP_FORMAT_JUNIT, NULL, NULL, 0, &s), 0);
	cr_assert_eq(strncmp(s.buf, head, sizeof(head) - 1), 0);
	cr_assert_str_eq(s.buf + sizeof(head) - 1,
			 "<testsuite name=\"sm-preflight\" tests=\"0\" "
			 "failures=\"0\" errors=\"0\" skipped=\"0\" "
			 "time=\"0\" timestamp=\"1970-01-01T00:00:00\" "
			 "hostname=\"localhost\">\n"
			 "  <properties/>\n  <system-out/>\n  <system-err/>\n"
			 "</testsuite>\n");
	fx_sink_free(&s);
	smp_context_free(ctx);
}

Test(emit_junit, many_files_nothing_before_the_end)
{
	struct smp_context *ctx = fx_context(NULL);
	struct smp_emitter *em = NULL;
	struct smp_finding f = fx_finding("x.yaml", "syntax",
					  SMP_SEVERITY_ERROR, "e", 1, 1, 2);
	struct smp_report rep = fx_report("x.yaml", &f, 1);
	struct fx_sink s = {0};
	size_t i;

	cr_assert_eq(
		smp_emitter_new(&em, ctx, SMP_FORMAT_JUNIT, NULL, fx_write, &s),
		0);
	for (i = 0; i < 500; i++)
		cr_assert_eq(smp_emitter_add(em, &rep), 0);
	/* the totals lead the document: nothing is written before them */
	cr_assert_eq(s.len, 0);
	cr_assert_eq(smp_emitter_finish(em), 0);
	cr_assert_not_null(strstr(s.buf, "tests=\"500\" failures=\"500\""));
	smp_emitter_free(em);
	fx_sink_free(&s);
	smp_context_free(ctx);
}
