/*
 * test_walked.c - smp_check_options.flags: a file found by a walk
 * (SMP_CHECK_WALKED) is a job only when its content shows it, and only
 * Training Compiler jobs (or the intent to use it) are judged; the same
 * file named by the user keeps every finding. Also the facts behind it:
 * smp__job_evidence(), the text prefilter, compiler_intent.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "helpers.h"
#include "smpreflight.h"
#include "job/dialect.h"
#include "util/text.h"

static struct smp_report *
walked(const struct smp_context *ctx, const char *name, const char *buf,
       unsigned flags)
{
	struct smp_check_options o = SMP_CHECK_OPTIONS_INIT;
	struct smp_report *rep = NULL;
	struct smp_error err;
	int rc;

	o.flags = flags;
	rc = smp_check(&rep, ctx, name, buf, strlen(buf), &o, &err);
	cr_assert_eq(rc, 0, "%s", err.message);
	cr_assert_not_null(rep);
	return rep;
}

/* Walked: no finding and no job; named: the findings of today. */
static void
assert_not_a_job(const char *name, const char *buf)
{
	struct smp_context *ctx = th_context(NULL);
	struct smp_report *rep = walked(ctx, name, buf, SMP_CHECK_WALKED);

	cr_expect_eq(smp_report_count(rep), 0, "%s: %zu findings", name,
		     smp_report_count(rep));
	cr_expect_eq(smp_report_jobs(rep), 0, "%s", name);
	cr_expect_eq(smp_report_jobs_skipped(rep), 0, "%s", name);
	smp_report_free(rep);
	rep = walked(ctx, name, buf, 0);
	cr_expect_gt(smp_report_count(rep), 0, "%s named: no finding", name);
	smp_report_free(rep);
	smp_context_free(ctx);
}

Test(walked, conda_environment)
{
	assert_not_a_job("environment.yml",
			 "name: env\nchannels: [defaults]\n"
			 "dependencies: [python=3.10, {pip: [sagemaker]}]\n");
}

Test(walked, kubernetes_manifest)
{
	assert_not_a_job("k8s.yaml", "apiVersion: v1\nkind: Service\n");
}

Test(walked, package_json_and_fixtures)
{
	assert_not_a_job("package.json", "{\"name\": \"x\", \"version\": "
					 "\"1.0.0\", \"dependencies\": {}}");
	assert_not_a_job("fixture.json", "[{\"id\": 1}, {\"id\": 2}]");
	assert_not_a_job("tags.json", "{\"Tags\": [], \"Environment\": {}}");
}

Test(walked, python_without_a_job)
{
	assert_not_a_job("util.py", "import os\nprint(os.getcwd())\n");
	assert_not_a_job("helper.py", "import sagemaker\n"
				      "s = sagemaker.Session()\n");
}

Test(walked, pipeline_without_a_training_step)
{
	assert_not_a_job("pipeline.json",
			 "{\"Version\": \"2020-12-01\", \"Parameters\": [], "
			 "\"Steps\": [{\"Name\": \"p\", \"Type\": "
			 "\"Processing\", \"Arguments\": {}}]}");
}

/* A job without the compiler is found, not judged, unless ALL_JOBS. */
Test(walked, plain_job_is_counted_not_judged)
{
	static const char plain[] = "estimator: PyTorch\n"
				    "entry_point: train.py\n"
				    "framework_version: \"1.13.1\"\n"
				    "py_version: py39\n"
				    "instance_type: ml.c5.xlarge\n";
	struct smp_context *ctx = th_context(NULL);
	struct smp_report *rep = walked(ctx, "j.yaml", plain, SMP_CHECK_WALKED);

	cr_expect_eq(smp_report_count(rep), 0);
	cr_expect_eq(smp_report_jobs(rep), 0);
	cr_expect_eq(smp_report_jobs_skipped(rep), 1);
	smp_report_free(rep);
	rep = walked(ctx, "j.yaml", plain,
		     SMP_CHECK_WALKED | SMP_CHECK_ALL_JOBS);
	cr_expect_eq(smp_report_jobs(rep), 1);
	cr_expect(th_has_rule(rep, "compiler-not-enabled"));
	cr_expect(th_has_rule(rep, "instance-unknown"));
	smp_report_free(rep);
	rep = walked(ctx, "j.yaml", plain, 0);
	cr_expect_eq(smp_report_jobs(rep), 1);
	cr_expect(th_has_rule(rep, "compiler-not-enabled"));
	smp_report_free(rep);
	smp_context_free(ctx);
}

/* Each sign of intent makes a walked job a Training Compiler job. */
Test(walked, intent_is_judged)
{
	static const char head[] = "estimator: HuggingFace\n"
				   "entry_point: train.py\n"
				   "transformers_version: \"4.21.1\"\n"
				   "pytorch_version: \"1.11.0\"\n"
				   "py_version: py38\n"
				   "instance_type: ml.p3.2xlarge\n";
	static const char *const signs[] = {
		"compiler_confg: {enabled: true}\n",
		"compiler_config: null\n",
		"environment: {GPU_NUM_DEVICES: \"1\"}\n",
		"distribution: {torchxla: {enabled: true}}\n",
		"distribution: {pytorchxla: {enabled: false}}\n",
		"hyperparameters: {sagemaker_training_compiler_enabled: "
		"true}\n",
		"image_uri: 763104351884.dkr.ecr.us-east-1.amazonaws.com/"
		"huggingface-pytorch-trcomp-training:1.11.0-transformers4.21.1-"
		"gpu-py38-cu113-ubuntu20.04\n",
	};
	struct smp_context *ctx = th_context(NULL);
	size_t i;

	for (i = 0; i < sizeof(signs) / sizeof(signs[0]); i++) {
		char buf[1024];
		struct smp_report *rep;

		snprintf(buf, sizeof(buf), "%s%s", head, signs[i]);
		rep = walked(ctx, "j.yaml", buf, SMP_CHECK_WALKED);
		cr_expect_eq(smp_report_jobs(rep), 1, "not judged: %s",
			     signs[i]);
		cr_expect_eq(smp_report_jobs_skipped(rep), 0);
		smp_report_free(rep);
	}
	smp_context_free(ctx);
}

/* TrainingCompilerConfig imported and passed to no job: intent. */
Test(walked, unused_compiler_config_import)
{
	static const char src[] =
		"from sagemaker.huggingface import HuggingFace, "
		"TrainingCompilerConfig\n"
		"est = HuggingFace(entry_point='train.py', "
		"transformers_version='4.21.1', pytorch_version='1.11.0', "
		"py_version='py38', instance_type='ml.p3.2xlarge', "
		"instance_count=1, role='r')\n";
	struct smp_context *ctx = th_context(NULL);
	struct smp_report *rep =
		walked(ctx, "launch.py", src, SMP_CHECK_WALKED);

	cr_expect_eq(smp_report_jobs(rep), 1);
	cr_expect(th_has_rule(rep, "compiler-not-enabled"));
	smp_report_free(rep);
	smp_context_free(ctx);
}

/* A side-by-side launcher: the native job says nothing of its own. */
Test(walked, side_by_side_native_is_quiet)
{
	static const char src[] =
		"from sagemaker.huggingface import HuggingFace, "
		"TrainingCompilerConfig\n"
		"kw = dict(entry_point='train.py', "
		"transformers_version='4.21.1', "
		"pytorch_version='1.11.0', py_version='py38', "
		"instance_type='ml.p3.2xlarge', instance_count=1, role='r', "
		"debugger_hook_config=False, disable_profiler=True)\n"
		"native = HuggingFace(**kw, hyperparameters={'epochs': 1})\n"
		"compiled = HuggingFace(**kw, hyperparameters={'epochs': 2}, "
		"compiler_config=TrainingCompilerConfig())\n";
	struct smp_context *ctx = th_context(NULL);
	struct smp_report *rep =
		walked(ctx, "launch.py", src, SMP_CHECK_WALKED);
	size_t i;

	cr_expect_eq(smp_report_jobs(rep), 1);
	cr_expect_eq(smp_report_jobs_skipped(rep), 1);
	cr_expect_not(th_has_rule(rep, "compiler-not-enabled"));
	for (i = 0; i < smp_report_count(rep); i++)
		cr_expect_null(
			strstr(smp_report_get(rep, i)->message, "in 'native'"),
			"%s", smp_report_get(rep, i)->message);
	/* the compiled job is still compared with its native twin */
	cr_expect(th_has_rule(rep, "baseline-drift"));
	smp_report_free(rep);
	smp_context_free(ctx);
}

/* What cannot be parsed is said, walked or not, if it may hold a job. */
Test(walked, syntax_error_in_a_job_file_is_reported)
{
	struct smp_context *ctx = th_context(NULL);
	struct smp_report *rep =
		walked(ctx, "j.yaml",
		       "estimator: HuggingFace\nentry_point: [train.py\n",
		       SMP_CHECK_WALKED);

	cr_expect(th_has_rule(rep, "syntax"));
	smp_report_free(rep);
	smp_context_free(ctx);
}

Test(walked, bad_flags_and_old_versions)
{
	struct smp_context *ctx = th_context(NULL);
	struct smp_check_options o = SMP_CHECK_OPTIONS_INIT;
	struct smp_report *rep = NULL;
	struct smp_error err;

	o.flags = 0x80;
	cr_expect_eq(smp_check(&rep, ctx, "j.yaml", "a: 1", 4, &o, &err),
		     SMP_EINVAL);
	cr_expect_null(rep);
	/* version 1 has no flags: what follows format is never read */
	cr_assert_eq(smp_check_options_init(&o, 1), 0);
	o.flags = SMP_CHECK_WALKED;
	o.version = 1;
	cr_assert_eq(smp_check(&rep, ctx, "j.yaml", "apiVersion: v1\n", 15, &o,
			       &err),
		     0);
	cr_expect_gt(smp_report_count(rep), 0); /* judged as named */
	smp_report_free(rep);
	smp_context_free(ctx);
}

Test(walked, evidence_and_prefilter)
{
	cr_expect(smp__text_may_hold_job("x: 1\ninstance_type: a\n", 22));
	cr_expect_not(smp__text_may_hold_job("name: env\nchannels: []\n", 23));
	/* the likely keys first, then every other evidence key */
	cr_expect(smp__text_may_hold_job("entry_point: t.py\n", 18));
	cr_expect(smp__text_may_hold_job("{\"TrainingJobName\": \"j\"}", 24));
	cr_expect(smp__text_may_hold_job("training_recipe: r\n", 19));
	cr_expect_not(smp__text_may_hold_job("entry_poin: t.py\n", 17));
	cr_expect(smp__mem_contains("abcabd", 6, "abd"));
	cr_expect_not(smp__mem_contains("abcab", 5, "abd"));
	cr_expect_not(smp__mem_contains("ab", 2, "abc"));
}

/* --select never hides a file that could not be parsed. */
Test(walked, selection_keeps_syntax)
{
	static const char *const only[] = {"instance"};
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_context *ctx;
	struct smp_report *rep;

	o.select.names = only;
	o.select.count = 1;
	ctx = th_context(&o);
	rep = th_check(ctx, "estimator: [\n");
	cr_expect(th_has_rule(rep, "syntax"));
	smp_report_free(rep);
	smp_context_free(ctx);
}
