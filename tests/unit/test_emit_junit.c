/*
 * test_emit_junit.c - JUnit XML: one testsuite, one testcase per file,
 * a failure per finding at or above fail_on, the rest in system-out,
 * totals in the opening tag, XML escaping, suppressed findings left out.
 */
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
		"errors=\"0\" skipped=\"0\">\n"
		"  <testcase classname=\"sm-preflight\" name=\"a.yaml\" "
		"file=\"a.yaml\">\n"
		"    <failure type=\"gpu-num-devices-mismatch\" "
		"message=\"GPU_NUM_DEVICES is &quot;8&quot; &amp; "
		"&lt;bad&gt;\">a.yaml:14:20: error: GPU_NUM_DEVICES is \"8\" "
		"&amp; &lt;bad&gt; [gpu-num-devices-mismatch]\n"
		"fix: set it to \"4\"\n"
		"</failure>\n"
		"    <system-out>a.yaml:9:3: warning: debug is on "
		"[compiler-debug]\n"
		"</system-out>\n"
		"  </testcase>\n"
		"  <testcase classname=\"sm-preflight\" name=\"b&amp;c.yaml\" "
		"file=\"b&amp;c.yaml\"/>\n"
		"</testsuite>\n");
	fx_sink_free(&s);
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
			 "failures=\"0\" errors=\"0\" skipped=\"0\">\n"
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
