/*
 * test_emit_failures.c - smp_emitter_add_failure(): a file that could not
 * be checked is carried by every machine format (JSON "errors", SARIF
 * toolExecutionNotifications, JUnit <error>, a GitHub ::error), in the
 * order it was added among the files, and an allocation failure while
 * keeping it is a clean SMP_ENOMEM.
 */
#include "failing_alloc.h"
#include "test_emit_fixture.h"

/* a.yaml (one error), then missing.yaml that could not be read. */
static int
emit_with_failure(const struct smp_context *ctx, enum smp_format format,
		  struct fx_sink *s)
{
	struct smp_emitter *em = NULL;
	struct smp_finding a[1];
	struct smp_report rep;
	int rc;

	a[0] = fx_finding("a.yaml", "syntax", SMP_SEVERITY_ERROR, "bad", 1, 1,
			  2);
	rep = fx_report("a.yaml", a, 1);
	rc = smp_emitter_new(&em, ctx, format, NULL, fx_write, s);
	if (rc)
		return rc;
	rc = smp_emitter_add(em, &rep);
	if (!rc)
		rc = smp_emitter_add_failure(em, "missing \"1\".yaml",
					     "No such file or directory");
	if (!rc)
		rc = smp_emitter_finish(em);
	smp_emitter_free(em);
	return rc;
}

Test(emit_failures, json_lists_errors_and_counts_them)
{
	struct smp_context *ctx = fx_context(NULL);
	struct fx_sink s = {0};

	cr_assert_eq(emit_with_failure(ctx, SMP_FORMAT_JSON, &s), 0);
	cr_assert_not_null(
		strstr(s.buf, "\"errors\": [\n    {\"file\": \"missing "
			      "\\\"1\\\".yaml\", \"message\": \"No such file "
			      "or directory\"}\n  ],\n"),
		"%s", s.buf);
	cr_assert_not_null(strstr(s.buf, "\"files\": 1,"), "%s", s.buf);
	cr_assert_not_null(strstr(s.buf, ", \"files_failed\": 1}"), "%s",
			   s.buf);
	fx_sink_free(&s);
	smp_context_free(ctx);
}

Test(emit_failures, sarif_has_a_failed_invocation)
{
	struct smp_context *ctx = fx_context(NULL);
	struct fx_sink s = {0};

	cr_assert_eq(emit_with_failure(ctx, SMP_FORMAT_SARIF, &s), 0);
	cr_assert_not_null(strstr(s.buf, "\"invocations\": "
					 "[{\"executionSuccessful\": false, "
					 "\"toolExecutionNotifications\": ["),
			   "%s", s.buf);
	cr_assert_not_null(strstr(s.buf, "{\"level\": \"error\", \"message\": "
					 "{\"text\": \"could not be checked: "
					 "No such file or directory\"}"),
			   "%s", s.buf);
	cr_assert_not_null(strstr(s.buf, "\"uri\": \"missing%20%221%22.yaml\""),
			   "%s", s.buf);
	fx_sink_free(&s);
	smp_context_free(ctx);
}

Test(emit_failures, junit_testcase_with_error)
{
	struct smp_context *ctx = fx_context(NULL);
	struct fx_sink s = {0};

	cr_assert_eq(emit_with_failure(ctx, SMP_FORMAT_JUNIT, &s), 0);
	cr_assert_not_null(strstr(s.buf, "tests=\"2\" failures=\"1\" "
					 "errors=\"1\""),
			   "%s", s.buf);
	cr_assert_not_null(strstr(s.buf, "<testcase classname=\"sm-preflight\" "
					 "name=\"missing &quot;1&quot;.yaml\""),
			   "%s", s.buf);
	cr_assert_not_null(strstr(s.buf, "<error type=\"not-checked\" "
					 "message=\"No such file or "
					 "directory\">"),
			   "%s", s.buf);
	/* in the order added: after a.yaml's testcase */
	cr_assert_lt(strstr(s.buf, "name=\"a.yaml\""),
		     strstr(s.buf, "<error "));
	fx_sink_free(&s);
	smp_context_free(ctx);
}

Test(emit_failures, github_error_annotation_text_nothing)
{
	struct smp_context *ctx = fx_context(NULL);
	struct fx_sink s = {0}, t = {0};

	cr_assert_eq(emit_with_failure(ctx, SMP_FORMAT_GITHUB, &s), 0);
	cr_assert_not_null(strstr(s.buf, "::error file=missing \"1\".yaml,"
					 "title=sm-preflight::could not be "
					 "checked: No such file or "
					 "directory\n"),
			   "%s", s.buf);
	cr_assert_eq(emit_with_failure(ctx, SMP_FORMAT_TEXT, &t), 0);
	cr_assert_null(strstr(t.buf, "missing"), "%s", t.buf);
	fx_sink_free(&s);
	fx_sink_free(&t);
	smp_context_free(ctx);
}

Test(emit_failures, null_arguments_and_after_finish)
{
	struct smp_context *ctx = fx_context(NULL);
	struct smp_emitter *em = NULL;
	struct fx_sink s = {0};

	cr_assert_eq(smp_emitter_add_failure(NULL, "a", "b"), SMP_EINVAL);
	cr_assert_eq(
		smp_emitter_new(&em, ctx, SMP_FORMAT_JSON, NULL, fx_write, &s),
		0);
	cr_assert_eq(smp_emitter_add_failure(em, NULL, "b"), SMP_EINVAL);
	cr_assert_eq(smp_emitter_add_failure(em, "a", NULL), SMP_EINVAL);
	cr_assert_eq(smp_emitter_finish(em), 0);
	cr_assert_eq(smp_emitter_add_failure(em, "a", "b"), SMP_EINVAL);
	smp_emitter_free(em);
	fx_sink_free(&s);
	smp_context_free(ctx);
}

Test(emit_failures, allocation_failures_are_clean)
{
	static const enum smp_format formats[] = {
		SMP_FORMAT_JSON, SMP_FORMAT_SARIF, SMP_FORMAT_JUNIT};
	size_t f;

	for (f = 0; f < sizeof(formats) / sizeof(formats[0]); f++) {
		long n;

		for (n = 0;; n++) {
			struct failing_alloc fa = FA_INIT;
			struct smp_context *ctx;
			struct fx_sink s = {0};
			int rc;

			fa_init(&fa, FA_NEVER);
			ctx = fx_context(&fa);
			fa_arm(&fa, n);
			rc = emit_with_failure(ctx, formats[f], &s);
			fx_sink_free(&s);
			smp_context_free(ctx);
			cr_assert_eq(fa.live, 0, "format %zu, call %ld", f, n);
			if (!fa.failed) {
				cr_assert_eq(rc, 0);
				break;
			}
			cr_assert_eq(rc, SMP_ENOMEM, "format %zu, call %ld: %d",
				     f, n, rc);
		}
	}
}
