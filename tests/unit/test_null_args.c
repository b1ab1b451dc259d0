/*
 * test_null_args.c - every function of the public header, called with a
 * NULL for each pointer it cannot take: SMP_EINVAL (or the documented
 * "none" value of a getter), never a crash. The last test reads
 * lib/smpreflight.h and fails when a declared function is missing from
 * the list below, so a new function gets its NULL walk too.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "smpreflight.h"

/* Every function walked here, in header order. */
static const char *const walked[] = {
	"smp_version",
	"smp_strerror",
	"smp_severity_name",
	"smp_severity_parse",
	"smp_dialect_name",
	"smp_dialect_parse",
	"smp_lr_scaling_name",
	"smp_lr_scaling_parse",
	"smp_options_init",
	"smp_context_new",
	"smp_context_free",
	"smp_context_data_version",
	"smp_context_data_date",
	"smp_check_options_init",
	"smp_check",
	"smp_check_buffer",
	"smp_check_file",
	"smp_report_free",
	"smp_report_count",
	"smp_report_jobs",
	"smp_report_jobs_skipped",
	"smp_report_get",
	"smp_report_max_severity",
	"smp_report_remove_rule",
	"smp_rule_count",
	"smp_rule_at",
	"smp_rule_find",
	"smp_emit_text",
	"smp_file_write_fn",
	"smp_membuf_write_fn",
	"smp_report_render_text",
	"smp_format_name",
	"smp_format_parse",
	"smp_emitter_options_init",
	"smp_emitter_new",
	"smp_emitter_add",
	"smp_emitter_add_failure",
	"smp_emitter_finish",
	"smp_emitter_walk_summary",
	"smp_emitter_free",
	"smp_baseline_new",
	"smp_baseline_free",
	"smp_suggest_options_init",
	"smp_suggest",
	"smp_suggestion_free",
	"smp_suggestion_emit_text",
	"smp_fix_options_init",
	"smp_fix",
	"smp_fix_result_free",
	"smp_context_data_origin",
	"smp_context_data_source",
	"smp_context_data_fetched",
	"smp_context_data_age",
	"smp_context_data_max_age",
	"smp_check_data_age",
	"smp_data_cache_info",
	"smp_curl_fetch_fn",
	"smp_update_options_init",
	"smp_data_update",
	"smp_update_result_free",
	"smp_config_parse",
	"smp_config_free",
	"smp_diagnose_options_init",
	"smp_diagnose_buffer",
	"smp_diagnosis_free",
	"smp_diagnosis_found",
	"smp_diagnosis_emit_text",
	"smp_diagnosis_emit_json",
	"smp_json_parse",
	"smp_json_free",
	"smp_json_root",
	"smp_json_type",
	"smp_json_text",
	"smp_json_number",
	"smp_json_bool",
	"smp_json_get",
	"smp_json_length",
	"smp_json_at",
	"smp_json_key_at",
	"smp_json_write_string",
	"smp_context_instance_count",
	"smp_context_instance",
	"smp_context_model_rows",
	"smp_context_dialect_key",
	"smp_detect_dialect",
};

static const char SPEC[] = "estimator: PyTorch\n";

static void *
hook_malloc(void *ud, size_t size)
{
	(void)ud;
	return malloc(size);
}

static void *
hook_realloc(void *ud, void *ptr, size_t size)
{
	(void)ud;
	return realloc(ptr, size);
}

static int
sink(void *ud, const char *data, size_t len)
{
	(void)ud;
	(void)data;
	(void)len;
	return 0;
}

Test(null_args, names_and_parsers)
{
	enum smp_severity sev;
	enum smp_dialect d;
	enum smp_lr_scaling lr;
	enum smp_format f;

	cr_assert_not_null(smp_version());
	cr_assert_not_null(smp_strerror(12345));
	cr_assert_str_eq(smp_severity_name((enum smp_severity)99), "off");
	cr_assert_eq(smp_severity_parse(NULL, "info"), SMP_EINVAL);
	cr_assert_eq(smp_severity_parse(&sev, NULL), SMP_EINVAL);
	cr_assert_str_eq(smp_dialect_name((enum smp_dialect)99), "auto");
	cr_assert_eq(smp_dialect_parse(NULL, "estimator"), SMP_EINVAL);
	cr_assert_eq(smp_dialect_parse(&d, NULL), SMP_EINVAL);
	cr_assert_str_eq(smp_lr_scaling_name((enum smp_lr_scaling)99),
			 "linear");
	cr_assert_eq(smp_lr_scaling_parse(NULL, "sqrt"), SMP_EINVAL);
	cr_assert_eq(smp_lr_scaling_parse(&lr, NULL), SMP_EINVAL);
	cr_assert_str_eq(smp_format_name((enum smp_format)99), "?");
	cr_assert_eq(smp_format_parse(NULL, "json"), SMP_EINVAL);
	cr_assert_eq(smp_format_parse(&f, NULL), SMP_EINVAL);
	cr_assert_eq(smp_rule_at(smp_rule_count()), NULL);
	cr_assert_eq(smp_rule_find(NULL), NULL);
}

Test(null_args, options_init_functions)
{
	struct smp_options o;
	struct smp_check_options co;
	struct smp_emitter_options eo;
	struct smp_suggest_options so;
	struct smp_update_options uo;

	cr_assert_eq(smp_options_init(NULL, SMP_OPTIONS_VERSION), SMP_EINVAL);
	cr_assert_eq(smp_options_init(&o, 0), SMP_EINVAL);
	cr_assert_eq(smp_options_init(&o, SMP_OPTIONS_VERSION + 1), SMP_EINVAL);
	cr_assert_eq(smp_check_options_init(NULL, SMP_CHECK_OPTIONS_VERSION),
		     SMP_EINVAL);
	cr_assert_eq(smp_check_options_init(&co, 0), SMP_EINVAL);
	cr_assert_eq(
		smp_emitter_options_init(NULL, SMP_EMITTER_OPTIONS_VERSION),
		SMP_EINVAL);
	cr_assert_eq(smp_emitter_options_init(&eo, 0), SMP_EINVAL);
	cr_assert_eq(
		smp_suggest_options_init(NULL, SMP_SUGGEST_OPTIONS_VERSION),
		SMP_EINVAL);
	cr_assert_eq(smp_suggest_options_init(&so, 0), SMP_EINVAL);
	cr_assert_eq(smp_update_options_init(NULL, SMP_UPDATE_OPTIONS_VERSION),
		     SMP_EINVAL);
	cr_assert_eq(smp_update_options_init(&uo, 0), SMP_EINVAL);
}

Test(null_args, context)
{
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_allocator half = {hook_malloc, NULL, NULL, NULL};
	struct smp_context *ctx = (struct smp_context *)&o;
	struct smp_error err = {0};

	cr_assert_eq(smp_context_new(NULL, NULL, &err), SMP_EINVAL);
	cr_assert_eq(err.code, SMP_EINVAL);
	/* NULL lists with a count */
	o.override_count = 2;
	cr_assert_eq(smp_context_new(&ctx, &o, &err), SMP_EINVAL);
	cr_assert_null(ctx);
	o.override_count = 0;
	o.batch_size_names.count = 3;
	cr_assert_eq(smp_context_new(&ctx, &o, &err), SMP_EINVAL);
	o.batch_size_names.count = 0;
	/* a half-filled allocator is refused, not replaced by malloc */
	o.allocator = (const struct smp_allocator *)&half;
	cr_assert_eq(smp_context_new(&ctx, &o, &err), SMP_EINVAL);
	cr_assert_null(ctx);
	smp_context_free(NULL);
	cr_assert_str_eq(smp_context_data_version(NULL), "");
	cr_assert_str_eq(smp_context_data_date(NULL), "");
	cr_assert_eq(smp_context_data_origin(NULL), SMP_DATA_BUILTIN);
	cr_assert_str_eq(smp_context_data_source(NULL), "");
	cr_assert_eq(smp_context_data_fetched(NULL), 0);
	cr_assert_eq(smp_context_data_age(NULL, 0), -1);
	cr_assert_eq(smp_context_data_max_age(NULL), 0);
}

Test(null_args, check_and_report)
{
	struct smp_context *ctx = th_context(NULL);
	struct smp_check_options bad = SMP_CHECK_OPTIONS_INIT;
	struct smp_report *rep = NULL;
	struct smp_error err = {0};
	char buf[8];

	cr_assert_eq(
		smp_check(NULL, ctx, "j.yaml", SPEC, strlen(SPEC), NULL, &err),
		SMP_EINVAL);
	cr_assert_eq(
		smp_check(&rep, NULL, "j.yaml", SPEC, strlen(SPEC), NULL, &err),
		SMP_EINVAL);
	cr_assert_eq(smp_check(&rep, ctx, NULL, SPEC, strlen(SPEC), NULL, &err),
		     SMP_EINVAL);
	cr_assert_eq(smp_check(&rep, ctx, NULL, NULL, 0, NULL, &err),
		     SMP_EINVAL);
	bad.version = 0;
	cr_assert_eq(
		smp_check(&rep, ctx, "j.yaml", SPEC, strlen(SPEC), &bad, &err),
		SMP_EINVAL);
	bad.version = SMP_CHECK_OPTIONS_VERSION + 1;
	cr_assert_eq(
		smp_check(&rep, ctx, "j.yaml", SPEC, strlen(SPEC), &bad, &err),
		SMP_EINVAL);
	cr_assert_null(rep);
	cr_assert_eq(smp_check_buffer(NULL, ctx, "j.yaml", SPEC, 3, &err),
		     SMP_EINVAL);
	cr_assert_eq(smp_check_buffer(&rep, NULL, "j.yaml", SPEC, 3, &err),
		     SMP_EINVAL);
	cr_assert_eq(smp_check_buffer(&rep, ctx, NULL, SPEC, 3, &err),
		     SMP_EINVAL);
	cr_assert_eq(smp_check_buffer(&rep, ctx, "j.yaml", NULL, 3, &err),
		     SMP_EINVAL);
	cr_assert_eq(smp_check_file(NULL, ctx, "j.yaml", &err), SMP_EINVAL);
	cr_assert_eq(smp_check_file(&rep, NULL, "j.yaml", &err), SMP_EINVAL);
	cr_assert_eq(smp_check_file(&rep, ctx, NULL, &err), SMP_EINVAL);
	/* NULL buf with len 0 is an empty spec, not a file */
	cr_assert_eq(smp_check_buffer(&rep, ctx, "empty.yaml", NULL, 0, &err),
		     0);
	smp_report_free(rep);
	smp_report_free(NULL);
	cr_assert_eq(smp_report_count(NULL), 0);
	cr_assert_eq(smp_report_jobs(NULL), 0);
	cr_assert_eq(smp_report_jobs_skipped(NULL), 0);
	cr_assert_null(smp_report_get(NULL, 0));
	cr_assert_eq(smp_report_max_severity(NULL), SMP_SEVERITY_OFF);
	cr_assert_eq(smp_report_remove_rule(NULL, "syntax"), 0);
	cr_assert_eq(smp_emit_text(NULL, SMP_SEVERITY_INFO, 0, sink, NULL),
		     SMP_EINVAL);
	rep = th_check(ctx, SPEC);
	cr_assert_eq(smp_emit_text(rep, SMP_SEVERITY_INFO, 0, NULL, NULL),
		     SMP_EINVAL);
	cr_assert_neq(smp_file_write_fn(NULL, "x", 1), 0);
	cr_assert_neq(smp_membuf_write_fn(NULL, "x", 1), 0);
	cr_assert_eq(smp_report_render_text(NULL, 0, NULL, NULL,
					    SMP_SEVERITY_INFO, 0),
		     SMP_EINVAL);
	cr_assert_eq(smp_report_render_text(NULL, sizeof(buf), NULL, rep,
					    SMP_SEVERITY_INFO, 0),
		     SMP_EINVAL);
	smp_report_free(rep);
	smp_context_free(ctx);
}

Test(null_args, emitter)
{
	struct smp_context *ctx = th_context(NULL);
	struct smp_emitter_options bad = SMP_EMITTER_OPTIONS_INIT;
	struct smp_emitter *em = NULL;

	cr_assert_eq(
		smp_emitter_new(NULL, ctx, SMP_FORMAT_JSON, NULL, sink, NULL),
		SMP_EINVAL);
	cr_assert_eq(
		smp_emitter_new(&em, NULL, SMP_FORMAT_JSON, NULL, sink, NULL),
		SMP_EINVAL);
	cr_assert_eq(
		smp_emitter_new(&em, ctx, SMP_FORMAT_JSON, NULL, NULL, NULL),
		SMP_EINVAL);
	bad.version = SMP_EMITTER_OPTIONS_VERSION + 1;
	cr_assert_eq(
		smp_emitter_new(&em, ctx, SMP_FORMAT_JSON, &bad, sink, NULL),
		SMP_EINVAL);
	cr_assert_null(em);
	cr_assert_eq(smp_emitter_add(NULL, NULL), SMP_EINVAL);
	cr_assert_eq(
		smp_emitter_new(&em, ctx, SMP_FORMAT_JSON, NULL, sink, NULL),
		0);
	cr_assert_eq(smp_emitter_add(em, NULL), SMP_EINVAL);
	cr_assert_eq(smp_emitter_add_failure(NULL, "f", "m"), SMP_EINVAL);
	cr_assert_eq(smp_emitter_add_failure(em, NULL, "m"), SMP_EINVAL);
	cr_assert_eq(smp_emitter_add_failure(em, "f", NULL), SMP_EINVAL);
	cr_assert_eq(smp_emitter_finish(NULL), SMP_EINVAL);
	cr_assert_eq(smp_emitter_walk_summary(NULL, 0, 0, 0), SMP_EINVAL);
	smp_emitter_free(em);
	smp_emitter_free(NULL);
	smp_context_free(ctx);
}

Test(null_args, baseline_and_suggest)
{
	struct smp_context *ctx = th_context(NULL);
	struct smp_suggest_options bad = SMP_SUGGEST_OPTIONS_INIT;
	struct smp_baseline *b = NULL;
	struct smp_suggestion *s = NULL;
	struct smp_error err = {0};

	cr_assert_eq(
		smp_baseline_new(NULL, ctx, "n.yaml", SPEC, strlen(SPEC), &err),
		SMP_EINVAL);
	cr_assert_eq(
		smp_baseline_new(&b, NULL, "n.yaml", SPEC, strlen(SPEC), &err),
		SMP_EINVAL);
	cr_assert_eq(smp_baseline_new(&b, ctx, NULL, SPEC, strlen(SPEC), &err),
		     SMP_EINVAL);
	cr_assert_eq(smp_baseline_new(&b, ctx, NULL, NULL, 0, &err),
		     SMP_EINVAL);
	cr_assert_null(b);
	smp_baseline_free(NULL);
	cr_assert_eq(smp_suggest(NULL, ctx, "j.yaml", SPEC, strlen(SPEC), NULL,
				 &err),
		     SMP_EINVAL);
	cr_assert_eq(
		smp_suggest(&s, NULL, "j.yaml", SPEC, strlen(SPEC), NULL, &err),
		SMP_EINVAL);
	cr_assert_eq(smp_suggest(&s, ctx, NULL, SPEC, strlen(SPEC), NULL, &err),
		     SMP_EINVAL);
	bad.version = 0;
	cr_assert_eq(
		smp_suggest(&s, ctx, "j.yaml", SPEC, strlen(SPEC), &bad, &err),
		SMP_EINVAL);
	cr_assert_null(s);
	smp_suggestion_free(NULL);
	cr_assert_eq(smp_suggestion_emit_text(NULL, sink, NULL), SMP_EINVAL);
	cr_assert_eq(
		smp_suggest(&s, ctx, "j.yaml", SPEC, strlen(SPEC), NULL, &err),
		0);
	cr_assert_eq(smp_suggestion_emit_text(s, NULL, NULL), SMP_EINVAL);
	smp_suggestion_free(s);
	smp_context_free(ctx);
}

Test(null_args, data)
{
	struct smp_context *ctx = th_context(NULL);
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_update_options u = SMP_UPDATE_OPTIONS_INIT;
	struct smp_allocator half = {NULL, NULL, NULL, NULL};
	struct smp_update_result *res = NULL;
	struct smp_cache_info info;
	struct smp_fetch_request req;
	struct smp_report *rep = NULL;
	struct smp_error err = {0};

	cr_assert_eq(smp_check_data_age(NULL, ctx, 0, 1, &err), SMP_EINVAL);
	cr_assert_eq(smp_check_data_age(&rep, NULL, 0, 1, &err), SMP_EINVAL);
	cr_assert_null(rep);
	cr_assert_eq(smp_data_cache_info(NULL, &o, &err), SMP_EINVAL);
	cr_assert_eq(smp_data_cache_info(&info, NULL, &err), SMP_EINVAL);
	o.version = 0; /* refused, as documented */
	cr_assert_eq(smp_data_cache_info(&info, &o, &err), SMP_EINVAL);
	o.version = SMP_OPTIONS_VERSION;
	o.cache_dir = "/nonexistent/sm-preflight-cache";
	o.allocator = &half;
	cr_assert_eq(smp_data_cache_info(&info, &o, &err), SMP_EINVAL);
	memset(&req, 0, sizeof(req));
	cr_assert_eq(smp_curl_fetch_fn(NULL, &req, NULL), SMP_EINVAL);
	o.allocator = NULL;
	u.url = "https://127.0.0.1:1/";
	cr_assert_eq(smp_data_update(NULL, &o, &u, &err), SMP_EINVAL);
	cr_assert_eq(smp_data_update(&res, &o, NULL, &err), SMP_EINVAL);
	cr_assert_null(res);
	u.version = 0;
	cr_assert_eq(smp_data_update(&res, &o, &u, &err), SMP_EINVAL);
	smp_update_result_free(NULL);
	smp_context_free(ctx);
}

Test(null_args, config)
{
	struct smp_allocator half = {hook_malloc, hook_realloc, NULL, NULL};
	struct smp_config *c = NULL;
	struct smp_error err = {0};

	cr_assert_eq(smp_config_parse(NULL, "c.yaml", "", 0, NULL, &err),
		     SMP_EINVAL);
	cr_assert_eq(smp_config_parse(&c, NULL, "", 0, NULL, &err), SMP_EINVAL);
	cr_assert_eq(smp_config_parse(&c, "c.yaml", NULL, 3, NULL, &err),
		     SMP_EINVAL);
	cr_assert_eq(smp_config_parse(&c, "c.yaml", "", 0, &half, &err),
		     SMP_EINVAL);
	cr_assert_null(c);
	smp_config_free(NULL);
}

Test(null_args, diagnose)
{
	struct smp_context *ctx = th_context(NULL);
	struct smp_diagnose_options o = SMP_DIAGNOSE_OPTIONS_INIT;
	struct smp_diagnosis *d = NULL;
	struct smp_error err = {0};

	cr_assert_eq(
		smp_diagnose_options_init(NULL, SMP_DIAGNOSE_OPTIONS_VERSION),
		SMP_EINVAL);
	cr_assert_eq(smp_diagnose_options_init(&o, 0), SMP_EINVAL);
	cr_assert_eq(
		smp_diagnose_buffer(NULL, ctx, "d.json", "{}", 2, NULL, &err),
		SMP_EINVAL);
	cr_assert_eq(
		smp_diagnose_buffer(&d, NULL, "d.json", "{}", 2, NULL, &err),
		SMP_EINVAL);
	cr_assert_eq(smp_diagnose_buffer(&d, ctx, NULL, "{}", 2, NULL, &err),
		     SMP_EINVAL);
	cr_assert_eq(
		smp_diagnose_buffer(&d, ctx, "d.json", NULL, 2, NULL, &err),
		SMP_EINVAL);
	o.version = SMP_DIAGNOSE_OPTIONS_VERSION + 1;
	cr_assert_eq(smp_diagnose_buffer(&d, ctx, "d.json", "{}", 2, &o, &err),
		     SMP_EINVAL);
	cr_assert_null(d);
	smp_diagnosis_free(NULL);
	cr_assert_eq(smp_diagnosis_found(NULL), 0);
	cr_assert_eq(smp_diagnosis_emit_text(NULL, sink, NULL), SMP_EINVAL);
	cr_assert_eq(smp_diagnosis_emit_json(NULL, sink, NULL), SMP_EINVAL);
	smp_context_free(ctx);
}

/* Every function the header declares is in walked[]. */
Test(null_args, fix)
{
	struct smp_context *ctx = th_context(NULL);
	struct smp_fix_result *res = NULL;
	struct smp_error err;

	cr_assert_eq(smp_fix_options_init(NULL, SMP_FIX_OPTIONS_VERSION),
		     SMP_EINVAL);
	cr_assert_eq(
		smp_fix(NULL, ctx, "j.yaml", SPEC, strlen(SPEC), NULL, &err),
		SMP_EINVAL);
	cr_assert_eq(
		smp_fix(&res, NULL, "j.yaml", SPEC, strlen(SPEC), NULL, &err),
		SMP_EINVAL);
	cr_assert_eq(smp_fix(&res, ctx, NULL, SPEC, strlen(SPEC), NULL, &err),
		     SMP_EINVAL);
	cr_assert_eq(smp_fix(&res, ctx, "j.yaml", NULL, 0, NULL, &err),
		     SMP_EINVAL);
	cr_assert_eq(
		smp_fix(&res, ctx, "j.yaml", SPEC, strlen(SPEC), NULL, NULL),
		0);
	smp_fix_result_free(res);
	smp_fix_result_free(NULL);
	smp_context_free(ctx);
}

Test(null_args, json_and_editor_getters)
{
	struct smp_context *ctx = th_context(NULL);
	struct smp_instance_info in;
	struct smp_json *j = NULL;
	struct smp_error err;
	double d;

	cr_assert_eq(smp_json_parse(NULL, "1", 1, 0, NULL, &err), SMP_EINVAL);
	cr_assert_eq(smp_json_parse(&j, NULL, 1, 0, NULL, &err), SMP_EINVAL);
	cr_assert_eq(smp_json_parse(&j, NULL, 0, 0, NULL, NULL), SMP_EPARSE);
	smp_json_free(NULL);
	cr_assert_null(smp_json_root(NULL));
	cr_assert_eq(smp_json_type(NULL), SMP_JSON_NONE);
	cr_assert_null(smp_json_text(NULL, NULL));
	cr_assert_eq(smp_json_number(NULL, &d), -1);
	cr_assert_eq(smp_json_bool(NULL), -1);
	cr_assert_null(smp_json_get(NULL, "k"));
	cr_assert_eq(smp_json_length(NULL), 0);
	cr_assert_null(smp_json_at(NULL, 0));
	cr_assert_null(smp_json_key_at(NULL, 0));
	cr_assert_eq(smp_json_write_string("x", NULL, NULL), SMP_EINVAL);
	cr_assert_eq(smp_json_write_string(NULL, sink, NULL), 0);
	cr_assert_eq(smp_context_instance_count(NULL), 0);
	cr_assert_eq(smp_context_instance(NULL, 0, NULL, &in, sizeof(in)),
		     SMP_EINVAL);
	cr_assert_eq(smp_context_instance(ctx, 0, NULL, NULL, 0), SMP_EINVAL);
	cr_assert_eq(smp_context_model_rows(NULL, "m", 0, NULL, 0), 0);
	cr_assert_eq(smp_context_model_rows(ctx, NULL, 0, NULL, 0), 0);
	cr_assert_null(smp_context_dialect_key(NULL, SMP_DIALECT_ESTIMATOR, 0));
	cr_assert_eq(smp_detect_dialect(NULL, "a.yaml", SPEC, strlen(SPEC)),
		     SMP_DIALECT_AUTO);
	cr_assert_eq(smp_detect_dialect(ctx, NULL, SPEC, strlen(SPEC)),
		     SMP_DIALECT_ESTIMATOR);
	cr_assert_eq(smp_detect_dialect(ctx, "a.yaml", NULL, 3),
		     SMP_DIALECT_AUTO);
	smp_context_free(ctx);
}

Test(null_args, every_declared_function_is_walked)
{
	FILE *f = fopen("lib/smpreflight.h", "r");
	char line[512], missing[2048] = "";
	size_t i, n = sizeof(walked) / sizeof(walked[0]), seen = 0;

	cr_assert_not_null(f, "run from the repository root");
	while (fgets(line, sizeof(line), f)) {
		char *q = strchr(line, '('), *p;
		int known = 0;

		/* a declaration starts a line with its return type; the name
		 * is the identifier just before the first '(' */
		if (!q || line[0] < 'a' || line[0] > 'z' ||
		    strncmp(line, "typedef", 7) == 0)
			continue;
		*q = '\0';
		p = q;
		while (p > line &&
		       (p[-1] == '_' || (p[-1] >= 'a' && p[-1] <= 'z') ||
			(p[-1] >= '0' && p[-1] <= '9')))
			p--;
		if (strncmp(p, "smp_", 4) != 0)
			continue;
		for (i = 0; i < n; i++)
			if (strcmp(p, walked[i]) == 0)
				known = 1;
		seen++;
		if (!known &&
		    strlen(missing) + strlen(p) + 2 < sizeof(missing)) {
			strcat(missing, " ");
			strcat(missing, p);
		}
	}
	fclose(f);
	cr_assert_gt(seen, 40);
	cr_assert_str_eq(missing, "", "not walked with NULLs:%s", missing);
	cr_assert_eq(seen, n, "declared %zu, walked %zu", seen, n);
}
