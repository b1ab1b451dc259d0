/*
 * test_emit_json.c - the JSON report and the emitter API around it:
 * output parses, every field is there, the summary adds up, suppressed
 * findings are kept and marked, hostile text stays valid JSON, and the
 * emitter fails cleanly (sink errors, out of memory, misuse).
 */
#include <cJSON.h>

#include "test_emit_fixture.h"

static cJSON *
parse(const struct fx_sink *s)
{
	cJSON *doc = cJSON_ParseWithLengthOpts(s->buf, s->len + 1, NULL, 1);

	cr_assert_not_null(doc, "not JSON:\n%s", s->buf);
	return doc;
}

static const cJSON *
get(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	cr_assert_not_null(v, "no '%s'", key);
	return v;
}

static double
num(const cJSON *obj, const char *key)
{
	const cJSON *v = get(obj, key);

	cr_assert(cJSON_IsNumber(v), "'%s' is not a number", key);
	return v->valuedouble;
}

static const char *
str(const cJSON *obj, const char *key)
{
	const cJSON *v = get(obj, key);

	cr_assert(cJSON_IsString(v), "'%s' is not a string", key);
	return v->valuestring;
}

Test(emit_json, document_and_summary)
{
	struct smp_context *ctx = fx_context(NULL);
	struct smp_finding a[2], b[1];
	struct smp_report reps[3];
	struct fx_sink s = {0};
	const cJSON *list, *f, *sum;
	cJSON *doc;

	a[0] = fx_finding("a.yaml", "gpu-num-devices-mismatch",
			  SMP_SEVERITY_ERROR, "bad \"value\"", 3, 5, 8);
	a[0].pointer = "/environment/GPU_NUM_DEVICES";
	a[0].fix = "set it to \"4\"";
	a[0].suggestion = "4";
	a[0].suggestion_op = SMP_SUGGESTION_SET;
	a[0].suggestion_type = SMP_VALUE_STRING;
	a[0].suggestion_pointer = "/environment/GPU_NUM_DEVICES";
	a[1] = fx_finding("a.yaml", "compiler-debug", SMP_SEVERITY_WARNING,
			  "debug on", 0, 0, 0);
	a[1].suggestion = "false";
	a[1].suggestion_op = SMP_SUGGESTION_SET;
	a[1].suggestion_type = SMP_VALUE_BOOLEAN;
	a[1].suggestion_pointer = "/compiler_config/debug";
	b[0] = fx_finding("b.yaml", "model-untested", SMP_SEVERITY_INFO,
			  "untested", 7, 1, 4);
	b[0].suggestion = "compiler_config";
	b[0].suggestion_op = SMP_SUGGESTION_RENAME;
	b[0].suggestion_pointer = "/compiler_config";
	b[0].suggestion_from = "/compiler_confg";
	reps[0] = fx_report("a.yaml", a, 2);
	reps[1] = fx_report("b.yaml", b, 1);
	reps[2] = fx_report("c.yaml", NULL, 0);
	cr_assert_eq(fx_emit(ctx, SMP_FORMAT_JSON, NULL, reps, 3, &s), 0);
	doc = parse(&s);

	cr_assert_eq(num(doc, "schema_version"), SMP_REPORT_SCHEMA_VERSION);
	cr_assert_str_eq(str(get(doc, "tool"), "name"), "sm-preflight");
	cr_assert_str_eq(str(get(doc, "tool"), "version"), smp_version());
	cr_assert_str_eq(str(get(doc, "instance_data"), "version"),
			 smp_context_data_version(ctx));
	cr_assert_str_eq(str(get(doc, "instance_data"), "date"),
			 smp_context_data_date(ctx));
	cr_assert_str_eq(str(get(doc, "instance_data"), "source"), "built-in");

	list = get(doc, "findings");
	cr_assert_eq(cJSON_GetArraySize(list), 3);
	f = cJSON_GetArrayItem(list, 0);
	cr_assert_str_eq(str(f, "rule"), "gpu-num-devices-mismatch");
	cr_assert_str_eq(str(f, "severity"), "error");
	cr_assert_str_eq(str(f, "file"), "a.yaml");
	cr_assert_eq(num(f, "line"), 3);
	cr_assert_eq(num(f, "column"), 5);
	cr_assert_eq(num(f, "end_line"), 3);
	cr_assert_eq(num(f, "end_column"), 8);
	cr_assert_str_eq(str(f, "message"), "bad \"value\"");
	cr_assert_str_eq(str(f, "pointer"), "/environment/GPU_NUM_DEVICES");
	cr_assert_str_eq(str(f, "fix"), "set it to \"4\"");
	/* a typed replacement: the environment's string */
	cr_assert_str_eq(str(get(f, "suggestion"), "op"), "set");
	cr_assert_str_eq(str(get(f, "suggestion"), "pointer"),
			 "/environment/GPU_NUM_DEVICES");
	cr_assert_str_eq(str(get(f, "suggestion"), "value"), "4");
	cr_assert(cJSON_IsFalse(get(f, "suppressed")));
	cr_assert(cJSON_IsNull(get(f, "suppression_reason")));
	/* no position: nulls, not zeros */
	f = cJSON_GetArrayItem(list, 1);
	cr_assert(cJSON_IsNull(get(f, "line")));
	cr_assert(cJSON_IsNull(get(f, "column")));
	cr_assert(cJSON_IsNull(get(f, "end_column")));
	cr_assert(cJSON_IsNull(get(f, "fix")));
	cr_assert(cJSON_IsFalse(get(get(f, "suggestion"), "value")));
	f = cJSON_GetArrayItem(list, 2);
	cr_assert_str_eq(str(f, "file"), "b.yaml");
	cr_assert_str_eq(str(get(f, "suggestion"), "op"), "rename");
	cr_assert_str_eq(str(get(f, "suggestion"), "from"), "/compiler_confg");
	cr_assert_str_eq(str(get(f, "suggestion"), "pointer"),
			 "/compiler_config");
	cr_assert_null(cJSON_GetObjectItemCaseSensitive(get(f, "suggestion"),
							"value"));

	sum = get(doc, "summary");
	cr_assert_eq(num(sum, "files"), 3);
	cr_assert_eq(num(sum, "files_with_errors"), 1);
	cr_assert_eq(num(sum, "findings"), 3);
	cr_assert_eq(num(sum, "error"), 1);
	cr_assert_eq(num(sum, "warning"), 1);
	cr_assert_eq(num(sum, "info"), 1);
	cr_assert_eq(num(sum, "suppressed"), 0);
	cJSON_Delete(doc);
	fx_sink_free(&s);
	smp_context_free(ctx);
}

Test(emit_json, empty_run_is_a_complete_document)
{
	struct smp_context *ctx = fx_context(NULL);
	struct fx_sink s = {0};
	cJSON *doc;

	cr_assert_eq(fx_emit(ctx, SMP_FORMAT_JSON, NULL, NULL, 0, &s), 0);
	doc = parse(&s);
	cr_assert_eq(cJSON_GetArraySize(get(doc, "findings")), 0);
	cr_assert_eq(num(get(doc, "summary"), "files"), 0);
	cJSON_Delete(doc);
	fx_sink_free(&s);
	smp_context_free(ctx);
}

Test(emit_json, suppressed_kept_and_marked_but_not_counted)
{
	struct smp_context *ctx = fx_context(NULL);
	struct smp_finding a[2];
	struct smp_report rep;
	struct fx_sink s = {0};
	const cJSON *f, *sum;
	cJSON *doc;

	a[0] = fx_finding("a.yaml", "compiler-debug", SMP_SEVERITY_ERROR,
			  "debug on", 2, 1, 6);
	a[0].suppressed = 1;
	a[0].suppression_reason = "debugging run, see ticket 42";
	a[1] = fx_finding("a.yaml", "short-run", SMP_SEVERITY_INFO, "short", 9,
			  1, 2);
	rep = fx_report("a.yaml", a, 2);
	cr_assert_eq(fx_emit(ctx, SMP_FORMAT_JSON, NULL, &rep, 1, &s), 0);
	doc = parse(&s);
	f = cJSON_GetArrayItem(get(doc, "findings"), 0);
	cr_assert(cJSON_IsTrue(get(f, "suppressed")));
	cr_assert_str_eq(str(f, "suppression_reason"),
			 "debugging run, see ticket 42");
	sum = get(doc, "summary");
	cr_assert_eq(num(sum, "error"), 0);
	cr_assert_eq(num(sum, "files_with_errors"), 0);
	cr_assert_eq(num(sum, "suppressed"), 1);
	cr_assert_eq(num(sum, "findings"), 1);
	cJSON_Delete(doc);
	fx_sink_free(&s);
	smp_context_free(ctx);
}

Test(emit_json, min_severity_filters)
{
	struct smp_context *ctx = fx_context(NULL);
	struct smp_emitter_options opts = SMP_EMITTER_OPTIONS_INIT;
	struct smp_finding a[3];
	struct smp_report rep;
	struct fx_sink s = {0};
	cJSON *doc;

	a[0] = fx_finding("a.yaml", "syntax", SMP_SEVERITY_ERROR, "e", 1, 1, 2);
	a[1] = fx_finding("a.yaml", "compiler-debug", SMP_SEVERITY_WARNING, "w",
			  2, 1, 2);
	a[2] = fx_finding("a.yaml", "short-run", SMP_SEVERITY_INFO, "i", 3, 1,
			  2);
	rep = fx_report("a.yaml", a, 3);
	opts.min_severity = SMP_SEVERITY_WARNING;
	cr_assert_eq(fx_emit(ctx, SMP_FORMAT_JSON, &opts, &rep, 1, &s), 0);
	doc = parse(&s);
	cr_assert_eq(cJSON_GetArraySize(get(doc, "findings")), 2);
	cr_assert_eq(num(get(doc, "summary"), "info"), 0);
	cJSON_Delete(doc);
	fx_sink_free(&s);
	smp_context_free(ctx);
}

Test(emit_json, hostile_text_stays_valid_json)
{
	struct smp_context *ctx = fx_context(NULL);
	struct smp_finding a[1];
	struct smp_report rep;
	struct fx_sink s = {0};
	const cJSON *f;
	cJSON *doc;

	a[0] = fx_finding("we\"ird\\\n\x01\xFF.yaml", "syntax",
			  SMP_SEVERITY_ERROR,
			  "tab\there \xE2\x80\xA8 caf\xC3\xA9", 1, 1, 2);
	rep = fx_report(a[0].file, a, 1);
	cr_assert_eq(fx_emit(ctx, SMP_FORMAT_JSON, NULL, &rep, 1, &s), 0);
	doc = parse(&s);
	f = cJSON_GetArrayItem(get(doc, "findings"), 0);
	cr_assert_str_eq(str(f, "file"), "we\"ird\\\n\x01\xEF\xBF\xBD.yaml");
	cr_assert_str_eq(str(f, "message"),
			 "tab\there \xE2\x80\xA8 caf\xC3\xA9");
	cJSON_Delete(doc);
	fx_sink_free(&s);
	smp_context_free(ctx);
}

Test(emit_json, real_check_round_trip)
{
	static const char spec[] = "estimator: HuggingFace\n"
				   "instance_type: ml.p3.2xlarge\n"
				   "environment: {GPU_NUM_DEVICES: \"4\"}\n";
	struct smp_context *ctx = fx_context(NULL);
	struct smp_report *rep = NULL;
	struct fx_sink s = {0};
	struct smp_error err = {0};
	const cJSON *list, *f;
	cJSON *doc;
	int i, n, seen = 0;

	memset(&err, 0, sizeof(err));
	cr_assert_eq(smp_check_buffer(&rep, ctx, "job.yaml", spec,
				      sizeof(spec) - 1, &err),
		     0);
	cr_assert_eq(fx_emit(ctx, SMP_FORMAT_JSON, NULL, rep, 1, &s), 0);
	doc = parse(&s);
	list = get(doc, "findings");
	n = cJSON_GetArraySize(list);
	cr_assert_eq((size_t)n, smp_report_count(rep));
	for (i = 0; i < n; i++) {
		f = cJSON_GetArrayItem(list, i);
		cr_assert_str_eq(str(f, "rule"),
				 smp_report_get(rep, (size_t)i)->rule);
		if (strcmp(str(f, "rule"), "gpu-num-devices-mismatch") == 0)
			seen = 1;
	}
	cr_assert(seen);
	cJSON_Delete(doc);
	smp_report_free(rep);
	fx_sink_free(&s);
	smp_context_free(ctx);
}

/* The API contract: sticky errors, misuse, options. */

Test(emit_json, sink_failure_is_eio_and_sticky)
{
	struct smp_context *ctx = fx_context(NULL);
	struct smp_emitter *em = NULL;
	struct smp_finding a[1];
	struct smp_report rep;
	struct fx_sink s = {0};

	a[0] = fx_finding("a.yaml", "syntax", SMP_SEVERITY_ERROR, "e", 1, 1, 2);
	rep = fx_report("a.yaml", a, 1);
	s.fail_at = 1;
	cr_assert_eq(
		smp_emitter_new(&em, ctx, SMP_FORMAT_JSON, NULL, fx_write, &s),
		0);
	cr_assert_eq(smp_emitter_add(em, &rep), SMP_EIO);
	cr_assert_eq(smp_emitter_add(em, &rep), SMP_EIO);
	cr_assert_eq(smp_emitter_finish(em), SMP_EIO);
	cr_assert_eq(s.calls, 1);
	smp_emitter_free(em);
	smp_context_free(ctx);
}

Test(emit_json, misuse_is_einval)
{
	struct smp_context *ctx = fx_context(NULL);
	struct smp_emitter_options opts = SMP_EMITTER_OPTIONS_INIT;
	struct smp_emitter *em = (struct smp_emitter *)&opts;
	struct smp_report rep = fx_report("a.yaml", NULL, 0);
	struct fx_sink s = {0};

	cr_assert_eq(
		smp_emitter_new(&em, NULL, SMP_FORMAT_JSON, NULL, fx_write, &s),
		SMP_EINVAL);
	cr_assert_null(em);
	cr_assert_eq(smp_emitter_new(&em, ctx, (enum smp_format)9, NULL,
				     fx_write, &s),
		     SMP_EINVAL);
	cr_assert_eq(smp_emitter_new(&em, ctx, SMP_FORMAT_JSON, NULL, NULL, &s),
		     SMP_EINVAL);
	opts.version = 0;
	cr_assert_eq(
		smp_emitter_new(&em, ctx, SMP_FORMAT_JSON, &opts, fx_write, &s),
		SMP_EINVAL);
	cr_assert_eq(smp_emitter_add(NULL, &rep), SMP_EINVAL);
	cr_assert_eq(smp_emitter_finish(NULL), SMP_EINVAL);
	smp_emitter_free(NULL);

	cr_assert_eq(
		smp_emitter_new(&em, ctx, SMP_FORMAT_JSON, NULL, fx_write, &s),
		0);
	cr_assert_eq(smp_emitter_add(em, NULL), SMP_EINVAL);
	cr_assert_eq(smp_emitter_finish(em), 0);
	/* after the end, nothing more can be added or ended */
	cr_assert_eq(smp_emitter_add(em, &rep), SMP_EINVAL);
	cr_assert_eq(smp_emitter_finish(em), SMP_EINVAL);
	smp_emitter_free(em);
	fx_sink_free(&s);
	smp_context_free(ctx);
}

/* Every allocation failing in turn: SMP_ENOMEM and nothing leaked. */
Test(emit_json, out_of_memory_every_format)
{
	static struct failing_alloc a = FA_INIT;
	struct smp_context *ctx = fx_context(&a);
	struct smp_finding f[2];
	struct smp_report reps[40];
	long base = a.live;
	size_t i;
	int format;

	a.sticky = 1; /* a failure, once hit, lasts until disarmed */
	f[0] = fx_finding("a.yaml", "syntax", SMP_SEVERITY_ERROR, "e", 1, 1, 2);
	f[1] = fx_finding("a.yaml", "short-run", SMP_SEVERITY_INFO, "i", 2, 1,
			  2);
	for (i = 0; i < 40; i++)
		reps[i] = fx_report("a.yaml", f, 2);
	for (format = SMP_FORMAT_TEXT; format <= SMP_FORMAT_JUNIT; format++) {
		size_t n;
		int rc = SMP_ENOMEM;

		for (n = 1; rc == SMP_ENOMEM && n < 1000; n++) {
			struct fx_sink s = {0};

			fa_arm(&a, (long)n - 1); /* n counts from 1 */
			rc = fx_emit(ctx, (enum smp_format)format, NULL, reps,
				     40, &s);
			a.fail_at = FA_NEVER;
			cr_assert(rc == 0 || rc == SMP_ENOMEM,
				  "format %d, failing allocation %zu: %d",
				  format, n, rc);
			cr_assert_eq(a.live, base,
				     "format %d leaks after failing "
				     "allocation %zu",
				     format, n);
			fx_sink_free(&s);
		}
		cr_assert_eq(rc, 0, "format %d never succeeded", format);
	}
	smp_context_free(ctx);
	cr_assert_eq(a.live, 0);
}
