/*
 * test_api.c - the public API as an embedder sees it (only smpreflight.h):
 * the options version protecting old callers, instance data from the
 * caller's buffers, rendering into a caller's buffer or FILE *, the
 * finding fields, the version query.
 */
#include <criterion/criterion.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "failing_alloc.h"
#include "helpers.h"
#include "smpreflight.h"

/* The test's own specs: examples/ changes with the documentation. */
#define BROKEN "broken.yaml"
static const char broken_spec[] = "estimator: HuggingFace\n"
				  "entry_point: train.py\n"
				  "instance_type: ml.p3.8xlarge\n"
				  "instance_count: 1\n"
				  "transformers_version: \"4.17.0\"\n"
				  "pytorch_version: \"1.10.2\"\n"
				  "py_version: py38\n"
				  "compiler_config:\n"
				  "  enabled: true\n"
				  "  debug: true\n"
				  "disable_profiler: true\n"
				  "debugger_hook_config: false\n"
				  "environment:\n"
				  "  GPU_NUM_DEVICES: \"8\"\n"
				  "hyperparameters:\n"
				  "  model_name_or_path: bert-base-cased\n"
				  "  per_device_train_batch_size: 12\n";

static const char gpt2_spec[] = "estimator: PyTorch\n"
				"entry_point: run_clm.py\n"
				"instance_type: ml.p4d.24xlarge\n"
				"instance_count: 2\n"
				"framework_version: \"1.13.1\"\n"
				"py_version: py39\n"
				"compiler_config: {enabled: true}\n"
				"distribution: {pytorchxla: {enabled: true}}\n"
				"debugger_hook_config: false\n"
				"disable_profiler: true\n"
				"hyperparameters:\n"
				"  model_name_or_path: gpt2\n"
				"  per_device_train_batch_size: 24\n"
				"  learning_rate: 6.0e-5\n";

/* A caller's smp_options as the version-1 header declared it (its limits
 * an embedded struct of five size_t then: the bytes of the max_* fields
 * now). */
struct smp_options_v1 {
	unsigned int version;
	const struct smp_allocator *allocator;
	const char *instance_data_dir;
	struct {
		size_t max_file_size, max_depth, max_nodes, max_scalar_len,
			max_documents;
	} limits;
	enum smp_dialect dialect;
	const struct smp_rule_override *overrides;
	size_t override_count;
};

/* A spec that names an entry script, so script_base_dir would matter. */
static const char spec_with_script[] =
	TH_HF_P3_8X_DEBUG "distribution: {pytorchxla: {enabled: true}}\n"
			  "debugger_hook_config: false\n"
			  "disable_profiler: true\n";

static char *
read_all(const char *path, size_t *len)
{
	char *buf = th_read_file(path, len);

	cr_assert_not_null(buf, "cannot open %s", path);
	return buf;
}

/* The report's text, malloc'd, through the two-call render. */
static char *
render(const struct smp_report *rep)
{
	size_t need = 0;
	char *buf;

	cr_assert_eq(smp_report_render_text(NULL, 0, &need, rep,
					    SMP_SEVERITY_INFO, 0),
		     0);
	buf = malloc(need + 1);
	cr_assert_not_null(buf);
	cr_assert_eq(smp_report_render_text(buf, need + 1, NULL, rep,
					    SMP_SEVERITY_INFO, 0),
		     0);
	cr_assert_eq(strlen(buf), need);
	return buf;
}

Test(api, version_query_matches_the_macros)
{
	char want[32];

	snprintf(want, sizeof(want), "%d.%d.%d", SMP_VERSION_MAJOR,
		 SMP_VERSION_MINOR, SMP_VERSION_PATCH);
	cr_assert_str_eq(smp_version(), want);
	cr_assert_str_eq(SMP_VERSION_STRING, want);
}

Test(api, version_1_layout_is_a_prefix_of_the_options)
{
	/* fields are only ever appended: the old struct is a prefix */
	cr_assert_eq(offsetof(struct smp_options_v1, override_count),
		     offsetof(struct smp_options, override_count));
	/* the limits, once an embedded struct, are the same bytes */
	cr_assert_eq(offsetof(struct smp_options_v1, limits.max_file_size),
		     offsetof(struct smp_options, max_file_size));
	cr_assert_eq(offsetof(struct smp_options_v1, limits.max_documents),
		     offsetof(struct smp_options, max_documents));
	cr_assert_eq(offsetof(struct smp_options_v1, dialect),
		     offsetof(struct smp_options, dialect));
	cr_assert_gt(sizeof(struct smp_options), sizeof(struct smp_options_v1));
	cr_assert_geq(SMP_OPTIONS_VERSION, 3);
}

/*
 * An old caller's struct, allocated at its exact size (ASan would see a
 * read past its end): its overrides apply, the newer fields keep their
 * defaults.
 */
Test(api, old_caller_struct_exact_size_is_read_correctly)
{
	static const struct smp_rule_override off[] = {
		{"compiler-debug", SMP_SEVERITY_OFF},
		{"debugger-profiler-overhead", SMP_SEVERITY_ERROR}};
	struct smp_options_v1 *v1 = malloc(sizeof(*v1));
	struct smp_context *ctx = NULL;
	struct smp_report *rep = NULL;
	struct smp_error err = {0};

	cr_assert_not_null(v1);
	memset(v1, 0, sizeof(*v1));
	v1->version = 1;
	v1->dialect = SMP_DIALECT_AUTO;
	v1->overrides = off;
	v1->override_count = 2;
	cr_assert_eq(
		smp_context_new(&ctx, (const struct smp_options *)v1, &err), 0,
		"%s", err.message);
	free(v1);
	cr_assert_eq(smp_context_data_origin(ctx), SMP_DATA_BUILTIN);
	cr_assert_eq(smp_check_buffer(&rep, ctx, "job.yaml", spec_with_script,
				      strlen(spec_with_script), &err),
		     0);
	cr_assert_not(th_has_rule(rep, "compiler-debug"));
	cr_assert_not(th_has_rule(rep, "debugger-profiler-overhead"));
	smp_report_free(rep);
	smp_context_free(ctx);
}

/*
 * The same with garbage after the version-1 fields: were the library to
 * read no_script, script_base_dir, cache_dir or instance_data there, it
 * would follow wild pointers or load "instance data" from them.
 */
Test(api, old_caller_struct_followed_by_garbage_is_not_read_beyond)
{
	struct {
		struct smp_options_v1 v1;
		unsigned char after[sizeof(struct smp_options)];
	} mem;
	struct smp_context *ctx = NULL;
	struct smp_report *rep = NULL;
	struct smp_error err = {0};

	memset(&mem, 0xA5, sizeof(mem));
	mem.v1.version = 1;
	mem.v1.allocator = NULL;
	mem.v1.instance_data_dir = NULL;
	memset(&mem.v1.limits, 0, sizeof(mem.v1.limits));
	mem.v1.dialect = SMP_DIALECT_AUTO;
	mem.v1.overrides = NULL;
	mem.v1.override_count = 0;
	cr_assert_eq(smp_context_new(&ctx, (const struct smp_options *)&mem.v1,
				     &err),
		     0, "%s", err.message);
	cr_assert_eq(smp_context_data_origin(ctx), SMP_DATA_BUILTIN);
	cr_assert_eq(smp_check_buffer(&rep, ctx, "job.yaml", spec_with_script,
				      strlen(spec_with_script), &err),
		     0);
	cr_assert(th_has_rule(rep, "compiler-debug"));
	smp_report_free(rep);
	smp_context_free(ctx);
}

/*
 * A version-2 caller: its struct ends after instance_data. Allocated at
 * exactly that size, then with garbage after it (instance_overlay there
 * would be a wild pointer).
 */
Test(api, version_2_caller_struct_is_read_to_its_end)
{
	const size_t v2 = offsetof(struct smp_options, no_inline_ignores);
	struct smp_options full = SMP_OPTIONS_INIT;
	unsigned char *exact = malloc(v2);
	union {
		struct smp_options o;
		unsigned char bytes[sizeof(struct smp_options)];
	} garbage;
	struct smp_context *ctx = NULL;
	struct smp_report *rep = NULL;
	struct smp_error err = {0};

	cr_assert_not_null(exact);
	full.version = 2;
	full.no_script = 1;
	full.script_base_dir = "instance-data"; /* holds no train.py */
	memcpy(exact, &full, v2);
	cr_assert_eq(
		smp_context_new(&ctx, (const struct smp_options *)exact, &err),
		0, "%s", err.message);
	free(exact);
	smp_context_free(ctx);

	memset(&garbage, 0xA5, sizeof(garbage));
	memcpy(garbage.bytes, &full, v2);
	cr_assert_eq(smp_context_new(&ctx, &garbage.o, &err), 0, "%s",
		     err.message);
	cr_assert_eq(smp_context_data_origin(ctx), SMP_DATA_BUILTIN);
	cr_assert_eq(smp_check_buffer(&rep, ctx, "job.yaml", spec_with_script,
				      strlen(spec_with_script), &err),
		     0);
	/* version-2 fields are read: no_script */
	cr_assert_not(th_has_rule(rep, "script-missing"));
	cr_assert(th_has_rule(rep, "compiler-debug"));
	smp_report_free(rep);
	smp_context_free(ctx);
}

Test(api, options_version_out_of_range_is_einval)
{
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_context *ctx = (struct smp_context *)&o;
	struct smp_error err = {0};

	o.version = 0;
	cr_assert_eq(smp_context_new(&ctx, &o, &err), SMP_EINVAL);
	cr_assert_null(ctx);
	cr_assert_eq(err.code, SMP_EINVAL);
	cr_assert_neq(strstr(err.message, "version"), NULL);
	o.version = SMP_OPTIONS_VERSION + 1;
	cr_assert_eq(smp_context_new(&ctx, &o, NULL), SMP_EINVAL);
	cr_assert_null(ctx);
}

Test(api, version_2_fields_are_read)
{
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_context *ctx = NULL;
	struct smp_report *rep = NULL;
	struct smp_error err = {0};

	cr_assert_eq(o.version, SMP_OPTIONS_VERSION);
	o.no_script = 1;
	o.script_base_dir = "instance-data";
	cr_assert_eq(smp_context_new(&ctx, &o, &err), 0, "%s", err.message);
	cr_assert_eq(smp_check_buffer(&rep, ctx, "job.yaml", spec_with_script,
				      strlen(spec_with_script), &err),
		     0);
	/* no_script: the missing train.py is not looked for */
	cr_assert_not(th_has_rule(rep, "script-missing"));
	smp_report_free(rep);
	smp_context_free(ctx);
	/* the control: with the script checks on, it is */
	o.no_script = 0;
	cr_assert_eq(smp_context_new(&ctx, &o, &err), 0, "%s", err.message);
	cr_assert_eq(smp_check_buffer(&rep, ctx, "job.yaml", spec_with_script,
				      strlen(spec_with_script), &err),
		     0);
	cr_assert(th_has_rule(rep, "script-missing"));
	smp_report_free(rep);
	smp_context_free(ctx);
}

static const char *const data_files[3] = {"instance-data/instances.json",
					  "instance-data/tested-models.json",
					  "instance-data/frameworks.json"};

Test(api, instance_data_from_caller_buffers)
{
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_context *mem = NULL, *builtin = NULL;
	struct smp_report *a = NULL, *b = NULL;
	struct smp_error err = {0};
	char *bufs[3], *ta, *tb;
	int i;

	for (i = 0; i < 3; i++) {
		bufs[i] = read_all(data_files[i], &o.instance_data[i].len);
		o.instance_data[i].buf = bufs[i];
	}
	o.instance_data[1].name = "my/tested-models.json";
	cr_assert_eq(smp_context_new(&mem, &o, &err), 0, "%s", err.message);
	for (i = 0; i < 3; i++)
		free(bufs[i]); /* not kept by the context */
	cr_assert_eq(smp_context_new(&builtin, NULL, &err), 0);
	cr_assert_eq(smp_context_data_origin(mem), SMP_DATA_MEMORY);
	cr_assert_str_eq(smp_context_data_source(mem), "memory");
	cr_assert_str_eq(smp_context_data_version(mem),
			 smp_context_data_version(builtin));
	cr_assert_str_eq(smp_context_data_date(mem),
			 smp_context_data_date(builtin));
	cr_assert_eq(smp_check_buffer(&a, mem, BROKEN, broken_spec,
				      strlen(broken_spec), &err),
		     0);
	cr_assert_eq(smp_check_buffer(&b, builtin, BROKEN, broken_spec,
				      strlen(broken_spec), &err),
		     0);
	ta = render(a);
	tb = render(b);
	cr_assert_str_eq(ta, tb);
	cr_assert_gt(strlen(ta), 0);
	free(ta);
	free(tb);
	smp_report_free(a);
	smp_report_free(b);
	smp_context_free(mem);
	smp_context_free(builtin);
}

/* data from the caller's buffers has no folder: the data-age report is
 * named after the memory, stale or not (this dereferenced NULL) */
Test(api, data_age_of_caller_buffers)
{
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_context *mem = NULL;
	struct smp_report *rep = NULL;
	const struct smp_finding *f;
	struct smp_error err = {0};
	char *bufs[3];
	int i;

	for (i = 0; i < 3; i++) {
		bufs[i] = read_all(data_files[i], &o.instance_data[i].len);
		o.instance_data[i].buf = bufs[i];
	}
	cr_assert_eq(smp_context_new(&mem, &o, &err), 0, "%s", err.message);
	for (i = 0; i < 3; i++)
		free(bufs[i]);
	/* fresh: no finding */
	cr_assert_eq(smp_check_data_age(&rep, mem, 0, 100000, &err), 0);
	cr_assert_eq(smp_report_count(rep), 0);
	smp_report_free(rep);
	/* stale: one finding, named after the memory, with a fix */
	cr_assert_eq(
		smp_check_data_age(&rep, mem, (int64_t)4102444800, 1, &err), 0,
		"%s", err.message);
	cr_assert_eq(smp_report_count(rep), 1);
	f = smp_report_get(rep, 0);
	cr_assert_str_eq(f->rule, "data-stale");
	cr_assert_str_eq(f->file, "<instance data in memory>");
	cr_assert_not_null(f->fix);
	smp_report_free(rep);
	smp_context_free(mem);
}

Test(api, instance_data_needs_all_three_buffers)
{
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_context *ctx = NULL;
	struct smp_error err = {0};

	o.instance_data[0].buf = "{}";
	o.instance_data[0].len = 2;
	cr_assert_eq(smp_context_new(&ctx, &o, &err), SMP_EINVAL);
	cr_assert_null(ctx);
	cr_assert_str_eq(err.source, "tested-models.json");
}

Test(api, instance_data_invalid_buffer_names_the_document)
{
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_context *ctx = NULL;
	struct smp_error err = {0};
	static const char bad[] = "{\"schema_version\": 1,\n  \"rows\": [}";
	char *bufs[3];
	int i, rc;

	for (i = 0; i < 3; i++) {
		bufs[i] = read_all(data_files[i], &o.instance_data[i].len);
		o.instance_data[i].buf = bufs[i];
	}
	o.instance_data[1].name = "caller/tested.json";
	o.instance_data[1].buf = bad;
	o.instance_data[1].len = strlen(bad);
	rc = smp_context_new(&ctx, &o, &err);
	cr_assert_eq(rc, SMP_EPARSE, "%d %s", rc, err.message);
	cr_assert_null(ctx);
	cr_assert_str_eq(err.source, "caller/tested.json");
	cr_assert_eq(err.line, 2);
	for (i = 0; i < 3; i++)
		free(bufs[i]);
}

/* Every allocation of a context from buffers may fail: no crash, no leak. */
Test(api, instance_data_buffers_out_of_memory_at_every_step)
{
	struct failing_alloc c = FA_INIT;
	struct smp_allocator al = fa_allocator(&c);
	struct smp_options o = SMP_OPTIONS_INIT;
	char *bufs[3];
	size_t n;
	int i, ok = 0;

	for (i = 0; i < 3; i++) {
		bufs[i] = read_all(data_files[i], &o.instance_data[i].len);
		o.instance_data[i].buf = bufs[i];
	}
	o.allocator = &al;
	for (n = 1; n < 100000 && !ok; n++) {
		struct smp_context *ctx = NULL;
		struct smp_error err = {0};
		int rc;

		fa_init(&c, (long)n - 1); /* n counts calls from 1 */
		rc = smp_context_new(&ctx, &o, &err);
		if (rc == 0) {
			ok = 1;
			smp_context_free(ctx);
		} else {
			cr_assert_eq(rc, SMP_ENOMEM, "call %zu: %d %s", n, rc,
				     err.message);
			cr_assert_null(ctx);
		}
		cr_assert_eq(c.live, 0, "call %zu leaks %ld blocks", n, c.live);
	}
	cr_assert(ok);
	for (i = 0; i < 3; i++)
		free(bufs[i]);
}

/* A growing sink to compare the renderers with the emitter itself. */
struct grow {
	char buf[65536];
	size_t len;
};

static int
grow_write(void *ud, const char *data, size_t len)
{
	struct grow *g = ud;

	cr_assert_lt(g->len + len, sizeof(g->buf));
	memcpy(g->buf + g->len, data, len);
	g->len += len;
	g->buf[g->len] = '\0';
	return 0;
}

static struct smp_report *
check_broken(struct smp_context **ctx)
{
	struct smp_report *rep = NULL;
	struct smp_error err = {0};

	cr_assert_eq(smp_context_new(ctx, NULL, &err), 0);
	cr_assert_eq(smp_check_buffer(&rep, *ctx, BROKEN, broken_spec,
				      strlen(broken_spec), &err),
		     0);
	cr_assert_gt(smp_report_count(rep), 0);
	return rep;
}

Test(api, render_text_measures_fits_and_truncates)
{
	struct smp_context *ctx = NULL;
	struct smp_report *rep = check_broken(&ctx);
	struct grow g = {{0}, 0};
	char small[10], *full;
	size_t need = 0, need2 = 0;

	cr_assert_eq(smp_emit_text(rep, SMP_SEVERITY_INFO, 0, grow_write, &g),
		     0);
	/* measure */
	cr_assert_eq(smp_report_render_text(NULL, 0, &need, rep,
					    SMP_SEVERITY_INFO, 0),
		     0);
	cr_assert_eq(need, g.len);
	/* fits */
	full = render(rep);
	cr_assert_str_eq(full, g.buf);
	free(full);
	/* truncates: 9 bytes and a NUL, the full length reported */
	memset(small, 'x', sizeof(small));
	cr_assert_eq(smp_report_render_text(small, sizeof(small), &need2, rep,
					    SMP_SEVERITY_INFO, 0),
		     0);
	cr_assert_eq(need2, g.len);
	cr_assert_geq(need2, sizeof(small));
	cr_assert_eq(small[9], '\0');
	cr_assert_eq(strncmp(small, g.buf, 9), 0);
	/* the severity filter applies */
	cr_assert_eq(smp_report_render_text(NULL, 0, &need2, rep,
					    SMP_SEVERITY_ERROR, 0),
		     0);
	cr_assert_lt(need2, need);
	/* bad arguments */
	cr_assert_eq(smp_report_render_text(NULL, 5, &need2, rep,
					    SMP_SEVERITY_INFO, 0),
		     SMP_EINVAL);
	cr_assert_eq(smp_report_render_text(small, sizeof(small), &need2, NULL,
					    SMP_SEVERITY_INFO, 0),
		     SMP_EINVAL);
	smp_report_free(rep);
	smp_context_free(ctx);
}

Test(api, membuf_counts_what_does_not_fit)
{
	char buf[4] = "";
	struct smp_membuf m = {buf, sizeof(buf), 0};
	struct smp_membuf none = {NULL, 0, 0};

	cr_assert_eq(smp_membuf_write_fn(&m, "ab", 2), 0);
	cr_assert_str_eq(buf, "ab");
	cr_assert_eq(smp_membuf_write_fn(&m, "cdef", 4), 0);
	cr_assert_str_eq(buf, "abc");
	cr_assert_eq(m.len, 6);
	cr_assert_eq(smp_membuf_write_fn(&none, "xyz", 3), 0);
	cr_assert_eq(none.len, 3);
}

Test(api, emit_to_a_file_stream)
{
	struct smp_context *ctx = NULL;
	struct smp_report *rep = check_broken(&ctx);
	struct grow g = {{0}, 0};
	FILE *f = tmpfile();
	char back[65536];
	size_t n;

	cr_assert_not_null(f);
	cr_assert_eq(smp_emit_text(rep, SMP_SEVERITY_INFO, 0, grow_write, &g),
		     0);
	cr_assert_eq(
		smp_emit_text(rep, SMP_SEVERITY_INFO, 0, smp_file_write_fn, f),
		0);
	rewind(f);
	n = fread(back, 1, sizeof(back) - 1, f);
	back[n] = '\0';
	fclose(f);
	cr_assert_str_eq(back, g.buf);
	/* a failing sink stops the emitter */
	cr_assert_eq(smp_emit_text(rep, SMP_SEVERITY_INFO, 0, smp_file_write_fn,
				   NULL),
		     SMP_EIO);
	smp_report_free(rep);
	smp_context_free(ctx);
}

Test(api, findings_are_complete_data)
{
	struct smp_context *ctx = NULL;
	struct smp_report *rep = check_broken(&ctx);
	size_t i, with_fix = 0, with_pointer = 0;

	for (i = 0; i < smp_report_count(rep); i++) {
		const struct smp_finding *f = smp_report_get(rep, i);

		cr_assert_not_null(f);
		cr_assert_not_null(smp_rule_find(f->rule), "%s", f->rule);
		cr_assert(f->severity >= SMP_SEVERITY_INFO &&
			  f->severity <= SMP_SEVERITY_ERROR);
		cr_assert_str_eq(f->file, BROKEN);
		cr_assert_not_null(f->message);
		if (f->line) {
			cr_assert_gt(f->column, 0);
			cr_assert_not_null(f->source_line);
		}
		if (f->pointer && f->pointer[0] == '/')
			with_pointer++;
		if (f->fix)
			with_fix++;
	}
	cr_assert_gt(with_pointer, 0);
	cr_assert_gt(with_fix, 0);
	cr_assert_null(smp_report_get(rep, smp_report_count(rep)));
	cr_assert_eq(smp_report_max_severity(rep), SMP_SEVERITY_ERROR);
	smp_report_free(rep);
	smp_context_free(ctx);
}

/* compiler-end-of-support is said once per run (rules.def R()); a caller
 * that checks many files removes it from the later reports */
Test(api, once_per_run_rule_is_removed_from_a_report)
{
	const struct smp_rule_info *eos =
		smp_rule_find("compiler-end-of-support");
	struct smp_context *ctx = NULL;
	struct smp_report *rep = check_broken(&ctx);
	size_t i, n = smp_report_count(rep), once = 0, eos_count = 0;

	cr_assert_not_null(eos);
	cr_assert_eq(eos->once_per_run, 1);
	cr_assert_eq(smp_rule_find("compiler-debug")->once_per_run, 0);
	for (i = 0; i < smp_rule_count(); i++)
		once += (size_t)smp_rule_at(i)->once_per_run;
	cr_assert_eq(once, 1);
	for (i = 0; i < n; i++)
		eos_count += strcmp(smp_report_get(rep, i)->rule, eos->id) == 0;
	cr_assert_eq(eos_count, 1, "said once per report");
	cr_assert_eq(smp_report_remove_rule(rep, eos->id), 1);
	cr_assert_eq(smp_report_count(rep), n - 1);
	for (i = 0; i < n - 1; i++)
		cr_assert_str_neq(smp_report_get(rep, i)->rule, eos->id);
	/* the others keep their order and content */
	cr_assert_str_eq(smp_report_get(rep, 0)->file, BROKEN);
	cr_assert_eq(smp_report_remove_rule(rep, eos->id), 0);
	cr_assert_eq(smp_report_remove_rule(rep, NULL), 0);
	cr_assert_eq(smp_report_max_severity(rep), SMP_SEVERITY_ERROR);
	smp_report_free(rep);
	smp_context_free(ctx);
}

Test(api, suggestion_renders_into_a_membuf)
{
	struct smp_context *ctx = NULL;
	struct smp_suggestion *s = NULL;
	struct smp_error err = {0};
	char buf[8192];
	struct smp_membuf m = {buf, sizeof(buf), 0};

	buf[0] = '\0';
	cr_assert_eq(smp_context_new(&ctx, NULL, &err), 0);
	cr_assert_eq(smp_suggest(&s, ctx, "gpt2.yaml", gpt2_spec,
				 strlen(gpt2_spec), NULL, &err),
		     0, "%s", err.message);
	cr_assert_eq(s->outcome, SMP_SUGGEST_OK);
	cr_assert_eq(smp_suggestion_emit_text(s, smp_membuf_write_fn, &m), 0);
	cr_assert_lt(m.len, sizeof(buf));
	cr_assert_neq(strstr(buf, "suggestion:"), NULL, "%s", buf);
	smp_suggestion_free(s);
	smp_context_free(ctx);
}

Test(api, free_functions_accept_null)
{
	smp_context_free(NULL);
	smp_report_free(NULL);
	smp_suggestion_free(NULL);
	smp_baseline_free(NULL);
	cr_assert_str_eq(smp_strerror(SMP_ENOMEM), "out of memory");
}
