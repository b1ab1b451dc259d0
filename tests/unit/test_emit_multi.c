/*
 * test_emit_multi.c - the text format through the multi-file emitter:
 * the same bytes as smp_emit_text() file after file, suppressed findings
 * hidden.
 */
#include "test_emit_fixture.h"

Test(emit_multi, text_is_emit_text_per_file)
{
	struct smp_context *ctx = fx_context(NULL);
	struct smp_finding a[2], b[1];
	struct smp_report reps[2];
	struct fx_sink s = {0}, want = {0};

	a[0] = fx_finding("a.yaml", "syntax", SMP_SEVERITY_ERROR, "bad", 1, 1,
			  2);
	a[1] = fx_finding("a.yaml", "compiler-debug", SMP_SEVERITY_WARNING,
			  "hidden", 2, 1, 2);
	a[1].suppressed = 1;
	b[0] = fx_finding("b.yaml", "short-run", SMP_SEVERITY_INFO, "short", 0,
			  0, 0);
	reps[0] = fx_report("a.yaml", a, 1); /* without the suppressed one */
	reps[1] = fx_report("b.yaml", b, 1);
	cr_assert_eq(
		smp_emit_text(&reps[0], SMP_SEVERITY_INFO, 0, fx_write, &want),
		0);
	cr_assert_eq(
		smp_emit_text(&reps[1], SMP_SEVERITY_INFO, 0, fx_write, &want),
		0);
	reps[0].count = 2;
	cr_assert_eq(fx_emit(ctx, SMP_FORMAT_TEXT, NULL, reps, 2, &s), 0);
	cr_assert_str_eq(s.buf, want.buf);
	cr_assert_null(strstr(s.buf, "hidden"));
	fx_sink_free(&s);
	fx_sink_free(&want);
	smp_context_free(ctx);
}
