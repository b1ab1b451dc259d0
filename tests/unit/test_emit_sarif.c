/*
 * test_emit_sarif.c - SARIF 2.1.0 as GitHub code scanning reads it: every
 * rule of the table in the driver with descriptions, help URI and default
 * level; every result with ruleId, ruleIndex, level, message and a
 * physical location; inSource suppressions. (tests/sarif/validate.sh
 * checks the CLI's output against the official schema.)
 */
#include <cJSON.h>
#include <stdio.h>

#include "emit/fingerprint.h"
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

static const char *
str(const cJSON *obj, const char *key)
{
	const cJSON *v = get(obj, key);

	cr_assert(cJSON_IsString(v), "'%s' is not a string", key);
	return v->valuestring;
}

static int
num(const cJSON *obj, const char *key)
{
	const cJSON *v = get(obj, key);

	cr_assert(cJSON_IsNumber(v), "'%s' is not a number", key);
	return v->valueint;
}

static const cJSON *
run_of(const cJSON *doc)
{
	const cJSON *runs = get(doc, "runs");

	cr_assert_str_eq(str(doc, "version"), "2.1.0");
	cr_assert_eq(cJSON_GetArraySize(runs), 1);
	return cJSON_GetArrayItem(runs, 0);
}

/* The region of result i. */
static const cJSON *
region(const cJSON *results, int i)
{
	const cJSON *r = cJSON_GetArrayItem(results, i);
	const cJSON *loc = cJSON_GetArrayItem(get(r, "locations"), 0);

	return get(get(loc, "physicalLocation"), "region");
}

static const char *
uri(const cJSON *results, int i)
{
	const cJSON *r = cJSON_GetArrayItem(results, i);
	const cJSON *loc = cJSON_GetArrayItem(get(r, "locations"), 0);

	return str(get(get(loc, "physicalLocation"), "artifactLocation"),
		   "uri");
}

Test(emit_sarif, driver_lists_every_rule)
{
	struct smp_context *ctx = fx_context(NULL);
	struct smp_emitter_options opts = SMP_EMITTER_OPTIONS_INIT;
	struct fx_sink s = {0};
	const cJSON *driver, *rules;
	cJSON *doc;
	size_t i;

	opts.rules_uri = "https://example.org/sm-preflight/docs/rules.md";
	cr_assert_eq(fx_emit(ctx, SMP_FORMAT_SARIF, &opts, NULL, 0, &s), 0);
	doc = parse(&s);
	driver = get(get(run_of(doc), "tool"), "driver");
	cr_assert_str_eq(str(driver, "name"), "sm-preflight");
	cr_assert_str_eq(str(driver, "version"), smp_version());
	cr_assert_str_eq(str(driver, "informationUri"), opts.rules_uri);
	rules = get(driver, "rules");
	cr_assert_eq((size_t)cJSON_GetArraySize(rules), smp_rule_count());
	for (i = 0; i < smp_rule_count(); i++) {
		const struct smp_rule_info *info = smp_rule_at(i);
		const cJSON *r = cJSON_GetArrayItem(rules, (int)i);
		const char *level;
		char want[256];

		cr_assert_str_eq(str(r, "id"), info->id);
		cr_assert_str_eq(str(get(r, "shortDescription"), "text"),
				 info->summary);
		/* GitHub's limit; help.text has it whole */
		cr_assert_leq(strlen(str(get(r, "fullDescription"), "text")),
			      1024);
		if (strlen(info->explanation) <= 1024)
			cr_assert_str_eq(str(get(r, "fullDescription"), "text"),
					 info->explanation);
		else
			cr_assert_eq(
				strncmp(str(get(r, "fullDescription"), "text"),
					info->explanation, 200),
				0);
		cr_assert_eq(strncmp(str(get(r, "help"), "text"),
				     info->explanation,
				     strlen(info->explanation)),
			     0);
		cr_assert_eq(strncmp(str(get(r, "help"), "markdown"),
				     info->explanation,
				     strlen(info->explanation)),
			     0);
		cr_assert_gt(strlen(str(r, "name")), 0);
		cr_assert_null(strchr(str(r, "name"), '-'));
		snprintf(want, sizeof(want), "%s#%s", opts.rules_uri, info->id);
		cr_assert_str_eq(str(r, "helpUri"), want);
		level = str(get(r, "defaultConfiguration"), "level");
		cr_assert_str_eq(
			level, info->default_severity == SMP_SEVERITY_ERROR
				       ? "error"
			       : info->default_severity == SMP_SEVERITY_WARNING
				       ? "warning"
				       : "note");
	}
	/* no results is an empty array, not a missing one */
	cr_assert_eq(cJSON_GetArraySize(get(run_of(doc), "results")), 0);
	cJSON_Delete(doc);
	fx_sink_free(&s);
	smp_context_free(ctx);
}

Test(emit_sarif, default_rules_uri_is_the_doc_path)
{
	struct smp_context *ctx = fx_context(NULL);
	struct fx_sink s = {0};
	const cJSON *driver;
	cJSON *doc;

	cr_assert_eq(fx_emit(ctx, SMP_FORMAT_SARIF, NULL, NULL, 0, &s), 0);
	doc = parse(&s);
	driver = get(get(run_of(doc), "tool"), "driver");
	/* helpUri and informationUri must be absolute: left out for a
	 * relative base */
	cr_assert_null(cJSON_GetObjectItemCaseSensitive(
		cJSON_GetArrayItem(get(driver, "rules"), 0), "helpUri"));
	/* informationUri is always there, absolute */
	cr_assert_str_eq(str(driver, "informationUri"),
			 SMP_SARIF_INFORMATION_URI);
	/* no source root: no base ids */
	cr_assert_null(cJSON_GetObjectItemCaseSensitive(run_of(doc),
							"originalUriBaseIds"));
	cJSON_Delete(doc);
	fx_sink_free(&s);
	smp_context_free(ctx);
}

Test(emit_sarif, results_have_rule_level_message_location)
{
	struct smp_context *ctx = fx_context(NULL);
	struct smp_finding a[3], b[1];
	struct smp_report reps[2];
	struct fx_sink s = {0};
	const cJSON *results, *r, *reg;
	cJSON *doc;
	const struct smp_rule_info *info;

	a[0] = fx_finding("./jobs/a b.yaml", "gpu-num-devices-mismatch",
			  SMP_SEVERITY_ERROR, "GPU_NUM_DEVICES is \"8\"", 14,
			  20, 23);
	a[0].fix = "set it to \"4\"";
	a[1] = fx_finding("./jobs/a b.yaml", "compiler-debug",
			  SMP_SEVERITY_WARNING, "multi-line", 3, 2, 1);
	a[1].end_line = 5;
	a[2] = fx_finding("./jobs/a b.yaml", "model-untested",
			  SMP_SEVERITY_INFO, "no position", 0, 0, 0);
	b[0] = fx_finding("/abs/b.yaml", "short-run", SMP_SEVERITY_INFO,
			  "column only", 4, 0, 0);
	b[0].end_line = 0;
	reps[0] = fx_report("./jobs/a b.yaml", a, 3);
	reps[1] = fx_report("/abs/b.yaml", b, 1);
	cr_assert_eq(fx_emit(ctx, SMP_FORMAT_SARIF, NULL, reps, 2, &s), 0);
	doc = parse(&s);
	results = get(run_of(doc), "results");
	cr_assert_eq(cJSON_GetArraySize(results), 4);

	r = cJSON_GetArrayItem(results, 0);
	cr_assert_str_eq(str(r, "ruleId"), "gpu-num-devices-mismatch");
	info = smp_rule_at((size_t)num(r, "ruleIndex"));
	cr_assert_str_eq(info->id, "gpu-num-devices-mismatch");
	cr_assert_str_eq(str(r, "level"), "error");
	cr_assert_str_eq(str(get(r, "message"), "text"),
			 "GPU_NUM_DEVICES is \"8\"\nfix: set it to \"4\"");
	cr_assert_str_eq(uri(results, 0), "jobs/a%20b.yaml");
	reg = region(results, 0);
	cr_assert_eq(num(reg, "startLine"), 14);
	cr_assert_eq(num(reg, "startColumn"), 20);
	cr_assert_eq(num(reg, "endLine"), 14);
	cr_assert_eq(num(reg, "endColumn"), 23);
	cr_assert_null(cJSON_GetObjectItemCaseSensitive(r, "suppressions"));

	/* several lines: the end column belongs to the end line */
	reg = region(results, 1);
	cr_assert_str_eq(str(cJSON_GetArrayItem(results, 1), "level"),
			 "warning");
	cr_assert_eq(num(reg, "endLine"), 5);
	cr_assert_eq(num(reg, "endColumn"), 1);

	/* no position: line 1 of the file, still a physical location */
	reg = region(results, 2);
	cr_assert_str_eq(str(cJSON_GetArrayItem(results, 2), "level"), "note");
	cr_assert_eq(num(reg, "startLine"), 1);
	cr_assert_null(cJSON_GetObjectItemCaseSensitive(reg, "startColumn"));

	/* an absolute path is a file:// URI; a line without a column */
	cr_assert_str_eq(uri(results, 3), "file:///abs/b.yaml");
	reg = region(results, 3);
	cr_assert_eq(num(reg, "startLine"), 4);
	cr_assert_null(cJSON_GetObjectItemCaseSensitive(reg, "startColumn"));
	cr_assert_null(cJSON_GetObjectItemCaseSensitive(reg, "endLine"));
	cJSON_Delete(doc);
	fx_sink_free(&s);
	smp_context_free(ctx);
}

Test(emit_sarif, suppressed_results_carry_in_source_suppression)
{
	struct smp_context *ctx = fx_context(NULL);
	struct smp_finding a[2];
	struct smp_report rep;
	struct fx_sink s = {0};
	const cJSON *results, *sup;
	cJSON *doc;

	a[0] = fx_finding("a.yaml", "compiler-debug", SMP_SEVERITY_WARNING,
			  "debug", 2, 1, 4);
	a[0].suppressed = 1;
	a[0].suppression_reason = "profiling this week";
	a[1] = fx_finding("a.yaml", "short-run", SMP_SEVERITY_INFO, "short", 3,
			  1, 4);
	a[1].suppressed = 1; /* no reason given */
	rep = fx_report("a.yaml", a, 2);
	cr_assert_eq(fx_emit(ctx, SMP_FORMAT_SARIF, NULL, &rep, 1, &s), 0);
	doc = parse(&s);
	results = get(run_of(doc), "results");
	cr_assert_eq(cJSON_GetArraySize(results), 2);
	sup = cJSON_GetArrayItem(
		get(cJSON_GetArrayItem(results, 0), "suppressions"), 0);
	cr_assert_str_eq(str(sup, "kind"), "inSource");
	cr_assert_str_eq(str(sup, "justification"), "profiling this week");
	sup = cJSON_GetArrayItem(
		get(cJSON_GetArrayItem(results, 1), "suppressions"), 0);
	cr_assert_str_eq(str(sup, "kind"), "inSource");
	cr_assert_null(cJSON_GetObjectItemCaseSensitive(sup, "justification"));
	cJSON_Delete(doc);
	fx_sink_free(&s);
	smp_context_free(ctx);
}

Test(emit_sarif, same_reports_same_bytes)
{
	struct smp_context *ctx = fx_context(NULL);
	struct smp_finding a[1];
	struct smp_report rep;
	struct fx_sink s1 = {0}, s2 = {0};

	a[0] = fx_finding("a.yaml", "syntax", SMP_SEVERITY_ERROR, "e", 1, 1, 2);
	rep = fx_report("a.yaml", a, 1);
	cr_assert_eq(fx_emit(ctx, SMP_FORMAT_SARIF, NULL, &rep, 1, &s1), 0);
	cr_assert_eq(fx_emit(ctx, SMP_FORMAT_SARIF, NULL, &rep, 1, &s2), 0);
	cr_assert_eq(s1.len, s2.len);
	cr_assert_eq(memcmp(s1.buf, s2.buf, s1.len), 0);
	fx_sink_free(&s1);
	fx_sink_free(&s2);
	smp_context_free(ctx);
}

/* The artifactLocation of result i. */
static const cJSON *
artifact(const cJSON *results, int i)
{
	const cJSON *r = cJSON_GetArrayItem(results, i);
	const cJSON *loc = cJSON_GetArrayItem(get(r, "locations"), 0);

	return get(get(loc, "physicalLocation"), "artifactLocation");
}

Test(emit_sarif, source_root_gives_srcroot_relative_uris)
{
	struct smp_context *ctx = fx_context(NULL);
	struct smp_emitter_options opts = SMP_EMITTER_OPTIONS_INIT;
	struct smp_finding a[3];
	struct smp_report rep[2];
	struct fx_sink s = {0};
	const cJSON *results, *base, *loc;
	cJSON *doc;

	opts.source_root = "/src/my repo/";
	opts.base_dir = "/src/my repo/jobs";
	a[0] = fx_finding("a b#1?.yaml", "compiler-debug", SMP_SEVERITY_WARNING,
			  "debug", 2, 1, 4);
	a[1] = fx_finding("/tmp/elsewhere.yaml", "short-run", SMP_SEVERITY_INFO,
			  "outside", 3, 1, 4);
	a[2] = fx_finding("<stdin>", "short-run", SMP_SEVERITY_INFO, "stdin", 3,
			  1, 4);
	rep[0] = fx_report("a b#1?.yaml", a, 2);
	rep[1] = fx_report("<stdin>", a + 2, 1);
	cr_assert_eq(fx_emit(ctx, SMP_FORMAT_SARIF, &opts, rep, 2, &s), 0);
	doc = parse(&s);
	/* the root as a file:// URI with a final slash, percent-encoded */
	base = get(get(run_of(doc), "originalUriBaseIds"), "%SRCROOT%");
	cr_assert_str_eq(str(base, "uri"), "file:///src/my%20repo/");
	results = get(run_of(doc), "results");
	loc = artifact(results, 0);
	cr_assert_str_eq(str(loc, "uri"), "jobs/a%20b%231%3F.yaml");
	cr_assert_str_eq(str(loc, "uriBaseId"), "%SRCROOT%");
	/* outside the root: absolute, no base */
	loc = artifact(results, 1);
	cr_assert_str_eq(str(loc, "uri"), "file:///tmp/elsewhere.yaml");
	cr_assert_null(cJSON_GetObjectItemCaseSensitive(loc, "uriBaseId"));
	/* stdin is no path */
	loc = artifact(results, 2);
	cr_assert_str_eq(str(loc, "uri"), "%3Cstdin%3E");
	cr_assert_null(cJSON_GetObjectItemCaseSensitive(loc, "uriBaseId"));
	cJSON_Delete(doc);
	fx_sink_free(&s);
	smp_context_free(ctx);
}

Test(emit_sarif, failures_use_the_source_root_too)
{
	struct smp_context *ctx = fx_context(NULL);
	struct smp_emitter_options opts = SMP_EMITTER_OPTIONS_INIT;
	struct smp_emitter *em = NULL;
	struct fx_sink s = {0};
	const cJSON *n, *loc;
	cJSON *doc;

	opts.source_root = "/";
	cr_assert_eq(smp_emitter_new(&em, ctx, SMP_FORMAT_SARIF, &opts,
				     fx_write, &s),
		     0);
	cr_assert_eq(smp_emitter_add_failure(em, "/r/gone.yaml", "no such"), 0);
	cr_assert_eq(smp_emitter_finish(em), 0);
	smp_emitter_free(em);
	doc = parse(&s);
	cr_assert_str_eq(
		str(get(get(run_of(doc), "originalUriBaseIds"), "%SRCROOT%"),
		    "uri"),
		"file:///");
	n = cJSON_GetArrayItem(
		get(cJSON_GetArrayItem(get(run_of(doc), "invocations"), 0),
		    "toolExecutionNotifications"),
		0);
	loc = get(get(cJSON_GetArrayItem(get(n, "locations"), 0),
		      "physicalLocation"),
		  "artifactLocation");
	cr_assert_str_eq(str(loc, "uri"), "r/gone.yaml");
	cr_assert_str_eq(str(loc, "uriBaseId"), "%SRCROOT%");
	cJSON_Delete(doc);
	fx_sink_free(&s);
	smp_context_free(ctx);
}

Test(emit_sarif, relative_source_root_or_base_is_einval)
{
	struct smp_context *ctx = fx_context(NULL);
	struct smp_emitter_options opts = SMP_EMITTER_OPTIONS_INIT;
	struct smp_emitter *em = NULL;
	struct fx_sink s = {0};

	opts.source_root = "repo";
	cr_assert_eq(smp_emitter_new(&em, ctx, SMP_FORMAT_SARIF, &opts,
				     fx_write, &s),
		     SMP_EINVAL);
	opts.source_root = "/repo";
	opts.base_dir = ".";
	cr_assert_eq(smp_emitter_new(&em, ctx, SMP_FORMAT_SARIF, &opts,
				     fx_write, &s),
		     SMP_EINVAL);
	cr_assert_null(em);
	smp_context_free(ctx);
}

/* A version-2 caller's struct, at its exact size: no source root. */
Test(emit_sarif, version_2_options_have_no_source_root)
{
	const size_t v2 = offsetof(struct smp_emitter_options, source_root);
	struct smp_emitter_options full = SMP_EMITTER_OPTIONS_INIT;
	struct smp_context *ctx = fx_context(NULL);
	unsigned char *exact = malloc(v2);
	struct smp_finding a[1];
	struct smp_report rep;
	struct fx_sink s = {0};
	cJSON *doc;

	cr_assert_not_null(exact);
	full.version = 2;
	memcpy(exact, &full, v2);
	a[0] = fx_finding("./j/a.yaml", "compiler-debug", SMP_SEVERITY_WARNING,
			  "debug", 2, 1, 4);
	rep = fx_report("./j/a.yaml", a, 1);
	cr_assert_eq(fx_emit(ctx, SMP_FORMAT_SARIF,
			     (const struct smp_emitter_options *)exact, &rep, 1,
			     &s),
		     0);
	free(exact);
	doc = parse(&s);
	cr_assert_null(cJSON_GetObjectItemCaseSensitive(run_of(doc),
							"originalUriBaseIds"));
	cr_assert_str_eq(uri(get(run_of(doc), "results"), 0), "j/a.yaml");
	cJSON_Delete(doc);
	fx_sink_free(&s);
	smp_context_free(ctx);
}

/* The fingerprint of result i. */
static const char *
fingerprint(const cJSON *results, int i)
{
	const cJSON *r = cJSON_GetArrayItem(results, i);

	return str(get(r, "partialFingerprints"), SMP_FINGERPRINT_KEY);
}

Test(emit_sarif, fingerprints_survive_line_moves_and_tell_occurrences_apart)
{
	struct smp_context *ctx = fx_context(NULL);
	struct smp_emitter_options opts = SMP_EMITTER_OPTIONS_INIT;
	struct smp_finding a[3], b[3];
	struct smp_report rep;
	struct fx_sink s1 = {0}, s2 = {0};
	const cJSON *r1, *r2;
	cJSON *d1, *d2;

	opts.source_root = "/repo";
	opts.base_dir = "/repo";
	a[0] = fx_finding("j.yaml", "compiler-debug", SMP_SEVERITY_WARNING,
			  "debug", 2, 1, 4);
	a[0].source_line = "  debug: true";
	a[1] = fx_finding("j.yaml", "compiler-debug", SMP_SEVERITY_WARNING,
			  "debug", 7, 1, 4);
	a[1].source_line = "  debug: true";
	a[2] = fx_finding("j.yaml", "short-run", SMP_SEVERITY_INFO, "short", 9,
			  1, 4);
	a[2].source_line = "max_steps: 10";
	/* the same file with a line inserted above and re-indented */
	memcpy(b, a, sizeof(a));
	b[0].line = 3;
	b[0].source_line = "	debug:  true";
	b[1].line = 8;
	b[2].line = 10;
	rep = fx_report("j.yaml", a, 3);
	cr_assert_eq(fx_emit(ctx, SMP_FORMAT_SARIF, &opts, &rep, 1, &s1), 0);
	rep = fx_report("j.yaml", b, 3);
	cr_assert_eq(fx_emit(ctx, SMP_FORMAT_SARIF, &opts, &rep, 1, &s2), 0);
	d1 = parse(&s1);
	d2 = parse(&s2);
	r1 = get(run_of(d1), "results");
	r2 = get(run_of(d2), "results");
	cr_assert_str_eq(fingerprint(r1, 0), fingerprint(r2, 0));
	cr_assert_str_eq(fingerprint(r1, 1), fingerprint(r2, 1));
	cr_assert_str_eq(fingerprint(r1, 2), fingerprint(r2, 2));
	/* two occurrences of one line text differ */
	cr_assert_str_neq(fingerprint(r1, 0), fingerprint(r1, 1));
	cr_assert_str_neq(fingerprint(r1, 0), fingerprint(r1, 2));
	cJSON_Delete(d1);
	cJSON_Delete(d2);
	fx_sink_free(&s1);
	fx_sink_free(&s2);
	smp_context_free(ctx);
}

/* Hidden findings count as occurrences: min_severity changes no
 * fingerprint. */
Test(emit_sarif, fingerprints_do_not_depend_on_min_severity)
{
	struct smp_context *ctx = fx_context(NULL);
	struct smp_emitter_options opts = SMP_EMITTER_OPTIONS_INIT;
	struct smp_finding a[2];
	struct smp_report rep;
	struct fx_sink s1 = {0}, s2 = {0};
	cJSON *d1, *d2;

	a[0] = fx_finding("j.yaml", "compiler-debug", SMP_SEVERITY_INFO, "x", 2,
			  1, 4);
	a[0].source_line = "debug: true";
	a[1] = fx_finding("j.yaml", "compiler-debug", SMP_SEVERITY_WARNING, "x",
			  5, 1, 4);
	a[1].source_line = "debug: true";
	rep = fx_report("j.yaml", a, 2);
	cr_assert_eq(fx_emit(ctx, SMP_FORMAT_SARIF, &opts, &rep, 1, &s1), 0);
	opts.min_severity = SMP_SEVERITY_WARNING;
	cr_assert_eq(fx_emit(ctx, SMP_FORMAT_SARIF, &opts, &rep, 1, &s2), 0);
	d1 = parse(&s1);
	d2 = parse(&s2);
	cr_assert_eq(cJSON_GetArraySize(get(run_of(d2), "results")), 1);
	cr_assert_str_eq(fingerprint(get(run_of(d1), "results"), 1),
			 fingerprint(get(run_of(d2), "results"), 0));
	cJSON_Delete(d1);
	cJSON_Delete(d2);
	fx_sink_free(&s1);
	fx_sink_free(&s2);
	smp_context_free(ctx);
}
