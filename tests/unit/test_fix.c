/*
 * test_fix.c - smp_fix() through the public API: each kind of edit (set a
 * scalar, rename a key, insert into a block mapping, a flow mapping and a
 * JSON object, nested), every byte outside the edits unchanged (comments,
 * CRLF, tabs, unicode, a missing final newline), safe versus unsafe,
 * convergence in passes, bad arguments and out-of-memory.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "failing_alloc.h"
#include "helpers.h"
#include "smpreflight.h"

#define HF_HEAD                                                                \
	"estimator: HuggingFace\n"                                             \
	"entry_point: train.py\n"                                              \
	"instance_type: ml.p3.8xlarge\n"                                       \
	"instance_count: 1\n"                                                  \
	"transformers_version: \"4.21.1\"\n"                                   \
	"pytorch_version: \"1.11.0\"\n"                                        \
	"py_version: py38\n"

static struct smp_fix_result *
fix(const struct smp_context *ctx, const char *name, const char *spec,
    int unsafe)
{
	struct smp_fix_options o = SMP_FIX_OPTIONS_INIT;
	struct smp_fix_result *res = NULL;
	struct smp_error err;

	o.unsafe_fixes = unsafe;
	cr_assert_eq(smp_fix(&res, ctx, name, spec, strlen(spec), &o, &err), 0,
		     "%s", err.message);
	cr_assert_not_null(res);
	return res;
}

static void
expect_text(const struct smp_fix_result *res, const char *want)
{
	cr_assert_eq(res->len, strlen(want), "got:\n%s", res->text);
	cr_assert_eq(memcmp(res->text, want, res->len), 0, "got:\n%s",
		     res->text);
}

Test(fix, set_scalar_keeps_quotes_comments_and_everything_else)
{
	struct smp_context *ctx = th_context(NULL);
	const char *spec =
		HF_HEAD "compiler_config:\n"
			"  enabled: true\n"
			"  debug: true   # while we debug\n"
			"debugger_hook_config: false\n"
			"disable_profiler: true\n"
			"distribution: {pytorchxla: {enabled: true}}\n"
			"environment:\n"
			"  GPU_NUM_DEVICES: '8'\n";
	const char *want =
		HF_HEAD "compiler_config:\n"
			"  enabled: true\n"
			"  debug: false   # while we debug\n"
			"debugger_hook_config: false\n"
			"disable_profiler: true\n"
			"distribution: {pytorchxla: {enabled: true}}\n"
			"environment:\n"
			"  GPU_NUM_DEVICES: '4'\n";
	struct smp_fix_result *res = fix(ctx, "s.yaml", spec, 0);

	expect_text(res, want);
	cr_assert(res->changed);
	cr_assert(res->converged);
	cr_assert_eq(res->applied_count, 2);
	cr_assert_eq(th_has_rule(res->report, "compiler-debug"), 0);
	cr_assert_eq(th_has_rule(res->report, "gpu-num-devices-mismatch"), 0);
	smp_fix_result_free(res);
	smp_context_free(ctx);
}

Test(fix, insert_block_crlf_without_final_newline)
{
	struct smp_context *ctx = th_context(NULL);
	const char *spec = "estimator: HuggingFace\r\n"
			   "entry_point: train.py\r\n"
			   "instance_type: ml.p3.8xlarge # four GPUs\r\n"
			   "instance_count: 1\r\n"
			   "transformers_version: \"4.21.1\"\r\n"
			   "pytorch_version: \"1.11.0\"\r\n"
			   "py_version: py38\r\n"
			   "compiler_config:\r\n"
			   "  enabled: true\r\n"
			   "debugger_hook_config: false\r\n"
			   "disable_profiler: true\r\n"
			   "hyperparameters:\r\n"
			   "  note: \"caf\xc3\xa9\"\t# unicode, a tab";
	struct smp_fix_result *res = fix(ctx, "s.yaml", spec, 0);
	size_t n = strlen(spec);

	/* every byte of the input is still there, the insertion after it */
	cr_assert_gt(res->len, n);
	cr_assert_eq(memcmp(res->text, spec, n), 0);
	cr_assert_str_eq(res->text + n, "\r\ndistribution:\r\n"
					"  pytorchxla:\r\n"
					"    enabled: true");
	cr_assert(res->converged);
	smp_fix_result_free(res);
	smp_context_free(ctx);
}

Test(fix, insert_into_flow_mapping_and_rename_key)
{
	struct smp_context *ctx = th_context(NULL);
	const char *spec = HF_HEAD "compiler_config: {enabled: true}\n"
				   "base_jb_name: nightly\n"
				   "debugger_hook_config: false\n"
				   "disable_profiler: true\n"
				   "distribution: {}\n";
	const char *want =
		HF_HEAD "compiler_config: {enabled: true}\n"
			"base_job_name: nightly\n"
			"debugger_hook_config: false\n"
			"disable_profiler: true\n"
			"distribution: {pytorchxla: {enabled: true}}\n";
	const char *flow = "{estimator: HuggingFace, entry_point: train.py,\n"
			   " instance_type: ml.p3.8xlarge, instance_count: 1,\n"
			   " transformers_version: '4.21.1', pytorch_version: "
			   "'1.11.0',\n py_version: py38, compiler_config: "
			   "{enabled: true},\n debugger_hook_config: false, "
			   "disable_profiler: true}\n";
	struct smp_fix_result *res = fix(ctx, "s.yaml", spec, 0);
	struct smp_fix_result *f2 = fix(ctx, "s.yaml", flow, 0);
	size_t n = strlen(flow) - 2; /* before "}\n" */

	expect_text(res, want);
	cr_assert_eq(th_has_rule(res->report, "unknown-key"), 0);
	cr_assert_eq(memcmp(f2->text, flow, n), 0);
	cr_assert_str_eq(f2->text + n,
			 ", distribution: {pytorchxla: {enabled: true}}}\n");
	smp_fix_result_free(res);
	smp_fix_result_free(f2);
	smp_context_free(ctx);
}

Test(fix, insert_into_json_object_one_member_per_line)
{
	struct smp_context *ctx = th_context(NULL);
	const char *spec = "{\n"
			   "  \"estimator\": \"HuggingFace\",\n"
			   "  \"entry_point\": \"train.py\",\n"
			   "  \"instance_type\": \"ml.p3.8xlarge\",\n"
			   "  \"instance_count\": 1,\n"
			   "  \"transformers_version\": \"4.21.1\",\n"
			   "  \"pytorch_version\": \"1.11.0\",\n"
			   "  \"py_version\": \"py38\",\n"
			   "  \"compiler_config\": {\"enabled\": true},\n"
			   "  \"debugger_hook_config\": false,\n"
			   "  \"disable_profiler\": true\n"
			   "}\n";
	struct smp_fix_result *res = fix(ctx, "s.json", spec, 0);
	const char *tail = ",\n  \"distribution\": {\"pytorchxla\": "
			   "{\"enabled\": true}}\n}\n";
	const char *at = strstr(spec, "true\n}");

	cr_assert_not_null(at);
	cr_assert_eq(memcmp(res->text, spec, (size_t)(at - spec) + 4), 0);
	cr_assert_str_eq(res->text + (at - spec) + 4, tail);
	smp_fix_result_free(res);
	smp_context_free(ctx);
}

Test(fix, unsafe_only_when_asked)
{
	struct smp_context *ctx = th_context(NULL);
	const char *spec = "estimator: HuggingFace\n"
			   "entry_point: train.py\n"
			   "instance_type: ml.p3.2xlarge\n"
			   "instance_count: 1\n"
			   "transformers_version: \"4.21.1\"\n"
			   "pytorch_version: \"1.10.2\"  # too old\n"
			   "py_version: py38\n"
			   "compiler_config: {enabled: true}\n"
			   "debugger_hook_config: false\n"
			   "disable_profiler: true\n";
	struct smp_fix_result *safe = fix(ctx, "s.yaml", spec, 0);
	struct smp_fix_result *all = fix(ctx, "s.yaml", spec, 1);

	cr_assert_not(safe->changed);
	cr_assert_gt(safe->unsafe_skipped, 0);
	cr_assert(all->changed);
	cr_assert(all->applied[0].unsafe);
	cr_assert_not_null(strstr(all->text, "pytorch_version: \"1.11.0\"  "
					     "# too old\n"));
	cr_assert_eq(th_has_rule(all->report, "framework-version"), 0);
	smp_fix_result_free(safe);
	smp_fix_result_free(all);
	smp_context_free(ctx);
}

Test(fix, a_second_fix_changes_nothing)
{
	struct smp_context *ctx = th_context(NULL);
	const char *spec = HF_HEAD "compiler_config: {enabled: true, debug: "
				   "true}\n"
				   "environment: {GPU_NUM_DEVICES: \"2\"}\n";
	struct smp_fix_result *one = fix(ctx, "s.yaml", spec, 1);
	struct smp_fix_result *two = fix(ctx, "s.yaml", one->text, 1);

	cr_assert(one->changed);
	/* the Debugger and the Profiler are one finding: two passes */
	cr_assert_geq(one->passes, 3);
	cr_assert_not(two->changed);
	cr_assert_eq(two->applied_count, 0);
	cr_assert_eq(two->passes, 1);
	smp_fix_result_free(one);
	smp_fix_result_free(two);
	smp_context_free(ctx);
}

Test(fix, python_literals_change_computed_values_stay)
{
	struct smp_context *ctx = th_context(NULL);
	const char *py =
		"from sagemaker.huggingface import HuggingFace, "
		"TrainingCompilerConfig\n"
		"GPUS = 4\n"
		"est = HuggingFace(entry_point='train.py', "
		"instance_type='ml.p3.8xlarge', instance_count=1,\n"
		"    transformers_version='4.21.1', pytorch_version='1.11.0', "
		"py_version='py38',\n"
		"    compiler_config=TrainingCompilerConfig(debug=True),\n"
		"    debugger_hook_config=False, disable_profiler=True,\n"
		"    distribution={'pytorchxla': {'enabled': True}},\n"
		"    environment={'GPU_NUM_DEVICES': str(GPUS * 2)})\n";
	const char *want =
		"from sagemaker.huggingface import HuggingFace, "
		"TrainingCompilerConfig\n"
		"GPUS = 4\n"
		"est = HuggingFace(entry_point='train.py', "
		"instance_type='ml.p3.8xlarge', instance_count=1,\n"
		"    transformers_version='4.21.1', pytorch_version='1.11.0', "
		"py_version='py38',\n"
		"    compiler_config=TrainingCompilerConfig(debug=False),\n"
		"    debugger_hook_config=False, disable_profiler=True,\n"
		"    distribution={'pytorchxla': {'enabled': True}},\n"
		"    environment={'GPU_NUM_DEVICES': str(GPUS * 2)})\n";
	struct smp_fix_result *res = fix(ctx, "launch.py", py, 1);

	/* True -> False in place; the computed count is left alone and its
	 * finding stays */
	expect_text(res, want);
	cr_assert_eq(th_has_rule(res->report, "compiler-debug"), 0);
	cr_assert_eq(th_has_rule(res->report, "gpu-num-devices-mismatch"), 1);
	cr_assert(res->converged);
	smp_fix_result_free(res);
	smp_context_free(ctx);
}

Test(fix, python_keyword_added_in_the_style_of_its_siblings)
{
	struct smp_context *ctx = th_context(NULL);
	const char *py = "from sagemaker.huggingface import HuggingFace, "
			 "TrainingCompilerConfig\n"
			 "est = HuggingFace(\n"
			 "    entry_point=\"train.py\",\n"
			 "    instance_type=\"ml.p3.8xlarge\",\n"
			 "    instance_count=1,\n"
			 "    transformers_version=\"4.21.1\",\n"
			 "    pytorch_version=\"1.11.0\",\n"
			 "    py_version=\"py38\",\n"
			 "    compiler_config=TrainingCompilerConfig(),\n"
			 "    debugger_hook_config=False,\n"
			 "    disable_profiler=True,\n"
			 ")\n";
	struct smp_fix_result *res = fix(ctx, "launch.py", py, 0);
	const char *tail = "    disable_profiler=True,\n"
			   "    distribution={\"pytorchxla\": {\"enabled\": "
			   "True}},\n)\n";

	cr_assert(res->changed);
	cr_assert_str_eq(strstr(res->text, "    disable_profiler"), tail);
	cr_assert_eq(th_has_rule(res->report, "pytorchxla-missing"), 0);
	smp_fix_result_free(res);
	smp_context_free(ctx);
}

Test(fix, bad_arguments)
{
	struct smp_context *ctx = th_context(NULL);
	struct smp_fix_result *res = (void *)1;
	struct smp_fix_options o = SMP_FIX_OPTIONS_INIT;
	struct smp_error err;

	cr_assert_eq(smp_fix(NULL, ctx, "a", "", 0, NULL, &err), SMP_EINVAL);
	cr_assert_eq(smp_fix(&res, NULL, "a", "", 0, NULL, &err), SMP_EINVAL);
	cr_assert_null(res);
	cr_assert_eq(smp_fix(&res, ctx, NULL, "", 0, NULL, &err), SMP_EINVAL);
	cr_assert_eq(smp_fix(&res, ctx, "a", NULL, 0, NULL, &err), SMP_EINVAL);
	o.version = 99;
	cr_assert_eq(smp_fix(&res, ctx, "a", "", 0, &o, &err), SMP_EINVAL);
	cr_assert_eq(smp_fix_options_init(&o, SMP_FIX_OPTIONS_VERSION), 0);
	cr_assert_eq(o.version, SMP_FIX_OPTIONS_VERSION);
	smp_fix_result_free(NULL);
	smp_context_free(ctx);
}

Test(fix, every_allocation_failure_is_clean)
{
	struct failing_alloc fa = FA_INIT;
	struct smp_allocator a = fa_allocator(&fa);
	struct smp_options opts = SMP_OPTIONS_INIT;
	struct smp_context *ctx = NULL;
	struct smp_fix_result *res;
	const char *spec = HF_HEAD "compiler_config: {enabled: true, debug: "
				   "true}\n"
				   "environment: {GPU_NUM_DEVICES: \"2\"}\n";
	struct smp_error err;
	long n, base;
	int rc, ok = 0;

	opts.allocator = &a;
	cr_assert_eq(smp_context_new(&ctx, &opts, &err), 0);
	cr_assert_eq(
		smp_fix(&res, ctx, "c.yaml", spec, strlen(spec), NULL, &err),
		0);
	smp_fix_result_free(res);
	base = fa.live;
	for (n = 0; n < 100000 && !ok; n++) {
		fa_arm(&fa, n);
		res = NULL;
		rc = smp_fix(&res, ctx, "c.yaml", spec, strlen(spec), NULL,
			     &err);
		if (rc == 0) {
			ok = fa.calls <= n;
			cr_assert(res->changed);
		} else {
			cr_assert_eq(rc, SMP_ENOMEM, "n=%ld rc=%d", n, rc);
			cr_assert_null(res);
		}
		smp_fix_result_free(res);
		cr_assert_eq(fa.live, base, "leak at allocation %ld", n);
	}
	cr_assert(ok, "a run without failure completed");
	fa.fail_at = FA_NEVER;
	smp_context_free(ctx);
	cr_assert_eq(fa.live, 0);
}

Test(fix, check_gives_each_finding_its_byte_edit)
{
	struct smp_context *ctx = th_context(NULL);
	const char *spec = "estimator: HuggingFace\n"
			   "entry_point: train.py\n"
			   "instance_type: ml.p3.8xlarge\n"
			   "instance_count: 1\n"
			   "transformers_version: \"4.21.1\"\n"
			   "pytorch_version: \"1.10.2\"\n"
			   "py_version: py38\n"
			   "compiler_config: {enabled: true}\n"
			   "debugger_hook_config: false\n"
			   "disable_profiler: true\n"
			   "distribution: {pytorchxla: {enabled: true}}\n"
			   "environment: {GPU_NUM_DEVICES: \"8\"}\n";
	struct smp_report *rep = th_check_named(ctx, "s.yaml", spec);
	const struct smp_finding *g = th_find(rep, "gpu-num-devices-mismatch");
	const struct smp_finding *v = th_find(rep, "framework-version");
	const char *at = strstr(spec, "\"8\"");

	cr_assert_not_null(g);
	cr_assert_str_eq(g->edit_text, "\"4\"");
	cr_assert_eq(g->edit_start, (size_t)(at - spec));
	cr_assert_eq(g->edit_end, (size_t)(at - spec) + 3);
	cr_assert_eq(g->edit_unsafe, 0);
	cr_assert_not_null(v);
	cr_assert_not_null(v->edit_text);
	cr_assert_eq(v->edit_unsafe, 1);
	smp_report_free(rep);
	smp_context_free(ctx);
}

/* s with the first from replaced by to, malloc'd. */
static char *
replace_once(const char *s, const char *from, const char *to)
{
	const char *at = strstr(s, from);
	size_t n = strlen(s) - strlen(from) + strlen(to);
	char *out = malloc(n + 1);

	cr_assert_not_null(at);
	cr_assert_not_null(out);
	memcpy(out, s, (size_t)(at - s));
	strcpy(out + (at - s), to);
	strcat(out, at + strlen(from));
	return out;
}

Test(fix, notebook_changes_only_the_cell_source_string)
{
	struct smp_context *ctx = th_context(NULL);
	size_t len;
	char *nb = th_read_file("tests/cases/fix/notebook.ipynb", &len);
	char *a, *want;
	struct smp_fix_result *res;

	cr_assert_not_null(nb);
	res = fix(ctx, "n.ipynb", nb, 0);
	/* the two literals, re-escaped in their JSON strings; outputs,
	 * metadata, counts and the layout byte for byte */
	a = replace_once(nb, "debug=True", "debug=False");
	want = replace_once(a, "{\\\"GPU_NUM_DEVICES\\\": \\\"8\\\"}",
			    "{\\\"GPU_NUM_DEVICES\\\": \\\"4\\\"}");
	expect_text(res, want);
	cr_assert_eq(res->applied_count, 2);
	cr_assert_eq(th_has_rule(res->report, "compiler-debug"), 0);
	cr_assert_eq(th_has_rule(res->report, "gpu-num-devices-mismatch"), 0);
	smp_fix_result_free(res);
	free(a);
	free(want);
	free(nb);
	smp_context_free(ctx);
}

/* A file a walk found (flags, version 2) fixes only the jobs a check of it
 * judges: a job without Training Compiler keeps its misspelt key, unless
 * every job is judged. */
Test(fix, walked_file_fixes_only_judged_jobs)
{
	struct smp_context *ctx = th_context(NULL);
	const char *spec = "estimator: PyTorch\n"
			   "entry_point: train.py\n"
			   "framework_version: \"1.13.1\"\n"
			   "py_version: py39\n"
			   "instance_type: ml.c5.xlarge\n"
			   "instance_count: 1\n"
			   "hyperparamters: {epochs: 1}\n";
	struct smp_fix_options o = SMP_FIX_OPTIONS_INIT;
	struct smp_fix_result *walked = NULL, *all = NULL;
	struct smp_error err;

	o.flags = SMP_CHECK_WALKED;
	cr_assert_eq(
		smp_fix(&walked, ctx, "s.yaml", spec, strlen(spec), &o, &err),
		0, "%s", err.message);
	cr_assert_not(walked->changed);
	o.flags = SMP_CHECK_WALKED | SMP_CHECK_ALL_JOBS;
	cr_assert_eq(smp_fix(&all, ctx, "s.yaml", spec, strlen(spec), &o, &err),
		     0, "%s", err.message);
	cr_assert(all->changed);
	cr_assert_not_null(strstr(all->text, "hyperparameters: {epochs: 1}"));
	smp_fix_result_free(walked);
	smp_fix_result_free(all);
	smp_context_free(ctx);
}

/* A caller built against version 1 of the options gets no flags. */
Test(fix, options_version_one_has_no_flags)
{
	struct smp_fix_options o;

	memset(&o, 0xff, sizeof(o));
	cr_assert_eq(smp_fix_options_init(&o, 1), 0);
	cr_assert_eq(o.version, 1);
	cr_assert_eq(smp_fix_options_init(&o, SMP_FIX_OPTIONS_VERSION + 1),
		     SMP_EINVAL);
}
