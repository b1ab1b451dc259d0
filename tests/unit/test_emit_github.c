/*
 * test_emit_github.c - GitHub Actions workflow commands: one line per
 * finding, the command by severity, properties and data escaped, no
 * columns on a range over several lines (the runner rejects them),
 * suppressed findings left out.
 */
#include "test_emit_fixture.h"

Test(emit_github, one_command_per_finding)
{
	struct smp_context *ctx = fx_context(NULL);
	struct smp_finding a[3];
	struct smp_report rep;
	struct fx_sink s = {0};

	a[0] = fx_finding(
		"jobs/bert.yaml", "gpu-num-devices-mismatch",
		SMP_SEVERITY_ERROR,
		"GPU_NUM_DEVICES is \"8\" but 'ml.p3.8xlarge' has 4 GPUs", 14,
		20, 23);
	a[0].fix = "set GPU_NUM_DEVICES to \"4\"";
	a[1] = fx_finding("jobs/bert.yaml", "compiler-debug",
			  SMP_SEVERITY_WARNING, "debug is on", 9, 3, 8);
	a[2] = fx_finding("jobs/bert.yaml", "model-untested", SMP_SEVERITY_INFO,
			  "100% untested", 0, 0, 0);
	rep = fx_report("jobs/bert.yaml", a, 3);
	cr_assert_eq(fx_emit(ctx, SMP_FORMAT_GITHUB, NULL, &rep, 1, &s), 0);
	cr_assert_str_eq(
		s.buf,
		"::error file=jobs/bert.yaml,line=14,col=20,endLine=14,"
		"endColumn=23,title=sm-preflight "
		"(gpu-num-devices-mismatch)::GPU_NUM_DEVICES "
		"is \"8\" but 'ml.p3.8xlarge' has 4 GPUs%0Afix: set "
		"GPU_NUM_DEVICES to \"4\"\n"
		"::warning file=jobs/bert.yaml,line=9,col=3,endLine=9,"
		"endColumn=8,title=sm-preflight (compiler-debug)::debug is on\n"
		"::notice file=jobs/bert.yaml,title=sm-preflight "
		"(model-untested)::100%25 "
		"untested\n");
	fx_sink_free(&s);
	smp_context_free(ctx);
}

Test(emit_github, properties_escaped)
{
	struct smp_context *ctx = fx_context(NULL);
	struct smp_finding a[1];
	struct smp_report rep;
	struct fx_sink s = {0};

	a[0] = fx_finding("odd,name:1%.yaml", "syntax", SMP_SEVERITY_ERROR,
			  "line one\nline two\r", 2, 1, 2);
	rep = fx_report(a[0].file, a, 1);
	cr_assert_eq(fx_emit(ctx, SMP_FORMAT_GITHUB, NULL, &rep, 1, &s), 0);
	cr_assert_str_eq(
		s.buf,
		"::error file=odd%2Cname%3A1%25.yaml,line=2,"
		"col=1,endLine=2,endColumn=2,title=sm-preflight (syntax)::"
		"line one%0Aline two%0D\n");
	fx_sink_free(&s);
	smp_context_free(ctx);
}

Test(emit_github, multi_line_range_gives_start_only)
{
	struct smp_context *ctx = fx_context(NULL);
	struct smp_finding a[2];
	struct smp_report rep;
	struct fx_sink s = {0};

	a[0] = fx_finding("a.yaml", "wrong-type", SMP_SEVERITY_ERROR, "m", 3, 5,
			  2);
	a[0].end_line = 6;
	a[1] = fx_finding("a.yaml", "short-run", SMP_SEVERITY_INFO, "n", 8, 0,
			  0);
	rep = fx_report("a.yaml", a, 2);
	cr_assert_eq(fx_emit(ctx, SMP_FORMAT_GITHUB, NULL, &rep, 1, &s), 0);
	cr_assert_str_eq(s.buf,
			 "::error file=a.yaml,line=3,col=5,title=sm-preflight "
			 "(wrong-type)::m\n"
			 "::notice file=a.yaml,line=8,title=sm-preflight "
			 "(short-run)::n\n");
	fx_sink_free(&s);
	smp_context_free(ctx);
}

Test(emit_github, suppressed_left_out)
{
	struct smp_context *ctx = fx_context(NULL);
	struct smp_finding a[2];
	struct smp_report reps[2];
	struct fx_sink s = {0};

	a[0] = fx_finding("a.yaml", "compiler-debug", SMP_SEVERITY_WARNING,
			  "hidden", 2, 1, 3);
	a[0].suppressed = 1;
	a[0].suppression_reason = "on purpose";
	a[1] = fx_finding("b.yaml", "syntax", SMP_SEVERITY_ERROR, "shown", 1, 1,
			  2);
	reps[0] = fx_report("a.yaml", a, 1);
	reps[1] = fx_report("b.yaml", a + 1, 1);
	cr_assert_eq(fx_emit(ctx, SMP_FORMAT_GITHUB, NULL, reps, 2, &s), 0);
	cr_assert_str_eq(s.buf,
			 "::error file=b.yaml,line=1,col=1,endLine=1,"
			 "endColumn=2,title=sm-preflight (syntax)::shown\n");
	fx_sink_free(&s);
	smp_context_free(ctx);
}

Test(emit_github, nothing_for_a_clean_run)
{
	struct smp_context *ctx = fx_context(NULL);
	struct smp_report rep = fx_report("a.yaml", NULL, 0);
	struct fx_sink s = {0};

	cr_assert_eq(fx_emit(ctx, SMP_FORMAT_GITHUB, NULL, &rep, 1, &s), 0);
	cr_assert_eq(s.len, 0);
	smp_context_free(ctx);
}

/* With a source root (the CLI's GITHUB_WORKSPACE), a file below it is
 * named relative to it, as the runner places annotations; one outside it,
 * and <stdin>, as given; a failure's file too. */
Test(emit_github, file_relative_to_the_source_root)
{
	struct smp_context *ctx = fx_context(NULL);
	struct smp_emitter_options opts = SMP_EMITTER_OPTIONS_INIT;
	struct smp_finding a[3];
	struct smp_report rep[2];
	struct fx_sink s = {0};

	opts.source_root = "/home/runner/work/repo/repo";
	opts.base_dir = "/home/runner/work/repo/repo/jobs";
	a[0] = fx_finding("./nlp/a.yaml", "compiler-debug",
			  SMP_SEVERITY_WARNING, "debug", 2, 1, 4);
	a[1] = fx_finding("/tmp/elsewhere.yaml", "short-run", SMP_SEVERITY_INFO,
			  "outside", 3, 0, 0);
	a[2] = fx_finding("<stdin>", "short-run", SMP_SEVERITY_INFO, "stdin", 3,
			  0, 0);
	rep[0] = fx_report("./nlp/a.yaml", a, 2);
	rep[1] = fx_report("<stdin>", a + 2, 1);
	cr_assert_eq(fx_emit(ctx, SMP_FORMAT_GITHUB, &opts, rep, 2, &s), 0);
	cr_assert_str_eq(
		s.buf,
		"::warning file=jobs/nlp/a.yaml,line=2,col=1,endLine=2,"
		"endColumn=4,title=sm-preflight (compiler-debug)::debug\n"
		"::notice file=/tmp/elsewhere.yaml,line=3,"
		"title=sm-preflight (short-run)::outside\n"
		"::notice file=<stdin>,line=3,title=sm-preflight (short-run)::"
		"stdin\n");
	fx_sink_free(&s);
	smp_context_free(ctx);
}
