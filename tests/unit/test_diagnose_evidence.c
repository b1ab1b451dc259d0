/*
 * test_diagnose_evidence.c - diagnose's checklist claims only what the
 * response shows: for every item, a response that lacks the item's
 * evidence gives "cannot tell" (one case per item), and the response's
 * own fields decide where no rule ran (Debugger and Profiler on a job
 * without the compiler). The twins (the evidence present, looking right)
 * are the golden cases in tests/cases/diagnose/.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <string.h>

#include "smpreflight.h"
#include "helpers.h"

#define IMAGE                                                                  \
	"763104351884.dkr.ecr.us-west-2.amazonaws.com/"                        \
	"huggingface-pytorch-trcomp-training:1.11.0-transformers4.21.1-gpu-"   \
	"py38-cu113-ubuntu20.04"
#define NATIVE_IMAGE                                                           \
	"763104351884.dkr.ecr.us-west-2.amazonaws.com/"                        \
	"huggingface-pytorch-training:1.11.0-transformers4.21.1-gpu-py38-"     \
	"cu113-ubuntu20.04"

/* A failed response: image, instance, then the hyperparameters. */
#define RESPONSE(image, instance, count, hps)                                  \
	"TrainingJobName: j\n"                                                 \
	"TrainingJobArn: arn:aws:sagemaker:us-west-2:111122223333:training-"   \
	"job/j\n"                                                              \
	"TrainingJobStatus: Failed\n"                                          \
	"FailureReason: 'AlgorithmError: ExecuteUserScriptError: ExitCode "    \
	"1'\n"                                                                 \
	"AlgorithmSpecification: {TrainingImage: " image                       \
	", TrainingInputMode: File}\n"                                         \
	"ResourceConfig: {InstanceType: " instance ", InstanceCount: " count   \
	", VolumeSizeInGB: 30}\n"                                              \
	"ProfilerConfig: {DisableProfiler: true}\n"                            \
	"HyperParameters:\n"                                                   \
	"  sagemaker_program: '\"train.py\"'\n" hps

#define COMPILER "  sagemaker_training_compiler_enabled: 'true'\n"

struct lacking {
	const char *item;
	const char *response;
	const char *why; /* a part of the detail */
};

static const struct lacking cases[] = {
	{"same-hyperparameters",
	 RESPONSE(IMAGE, "ml.p3.2xlarge", "1", COMPILER), "native run"},
	{"learning-rate", RESPONSE(IMAGE, "ml.p3.2xlarge", "1", COMPILER),
	 "native run"},
	{"mark-step", RESPONSE(IMAGE, "ml.p3.2xlarge", "1", COMPILER),
	 "not at hand"},
	{"amp-order", RESPONSE(IMAGE, "ml.p3.2xlarge", "1", COMPILER),
	 "not at hand"},
	{"xla-device", RESPONSE(IMAGE, "ml.p3.2xlarge", "1", COMPILER),
	 "not at hand"},
	{"seed", RESPONSE(IMAGE, "ml.p3.2xlarge", "2", COMPILER),
	 "not at hand"},
	{"distribution",
	 RESPONSE(IMAGE, "ml.p3.2xlarge", "1",
		  COMPILER "  sagemaker_pytorch_xla_multi_worker_enabled: "
			   "'true'\n"),
	 "not at hand"},
	{"device-loader", RESPONSE(IMAGE, "ml.p3.2xlarge", "2", COMPILER),
	 "not at hand"},
	{"gradient-sync", RESPONSE(IMAGE, "ml.p3.2xlarge", "2", COMPILER),
	 "not at hand"},
	{"gpu-num-devices", RESPONSE(NATIVE_IMAGE, "ml.p3.8xlarge", "1", ""),
	 "nothing reads GPU_NUM_DEVICES"},
	{"padding", RESPONSE(IMAGE, "ml.p3.2xlarge", "1", COMPILER),
	 "not at hand"},
	{"xm-save", RESPONSE(IMAGE, "ml.p3.2xlarge", "1", COMPILER),
	 "not at hand"},
	{"item-call", RESPONSE(IMAGE, "ml.p3.2xlarge", "1", COMPILER),
	 "not at hand"},
	{"logging", RESPONSE(IMAGE, "ml.p3.2xlarge", "1", COMPILER),
	 "no logging_steps"},
	{"debug", RESPONSE(IMAGE, "ml.p3.2xlarge", "1", COMPILER),
	 "no sagemaker_training_compiler_debug_mode"},
	{"debugger-profiler",
	 "TrainingJobName: j\n"
	 "TrainingJobArn: arn:aws:sagemaker:us-west-2:111122223333:"
	 "training-job/j\n"
	 "TrainingJobStatus: Failed\n"
	 "AlgorithmSpecification: {TrainingImage: " IMAGE ", "
	 "TrainingInputMode: File}\n"
	 "ResourceConfig: {InstanceType: ml.p3.2xlarge, InstanceCount: 1, "
	 "VolumeSizeInGB: 30}\n"
	 "HyperParameters: {sagemaker_training_compiler_enabled: 'true'}\n"
	 "ProfilerConfig: 'not a mapping'\n",
	 "cannot be read"},
	{"instance", RESPONSE(NATIVE_IMAGE, "ml.x9.huge", "1", ""),
	 "not in the instance data"},
	{"batch-size",
	 RESPONSE(IMAGE, "ml.p3.2xlarge", "1",
		  COMPILER "  model_name_or_path: '\"my-org/my-model\"'\n"
			   "  per_device_train_batch_size: '24'\n"),
	 "not in the tested-models table"},
	{"versions", RESPONSE(NATIVE_IMAGE, "ml.p3.2xlarge", "1", ""),
	 "does not enable Training Compiler"},
	{"short-run", RESPONSE(IMAGE, "ml.p3.2xlarge", "1", COMPILER),
	 "neither max_steps"},
	{"preprocessing", RESPONSE(IMAGE, "ml.p3.2xlarge", "1", COMPILER),
	 "no preprocessing_num_workers"},
};

static struct smp_diagnosis *
diagnose(const struct smp_context *ctx, const char *text)
{
	struct smp_diagnosis *d = NULL;
	struct smp_error err;

	cr_assert_eq(smp_diagnose_buffer(&d, ctx, "job.yaml", text,
					 strlen(text), NULL, &err),
		     0, "%s", err.message);
	return d;
}

static const struct smp_diagnosis_item *
item(const struct smp_diagnosis *d, const char *id)
{
	size_t i;

	for (i = 0; i < d->item_count; i++)
		if (strcmp(d->items[i].id, id) == 0)
			return &d->items[i];
	cr_assert_fail("no checklist item '%s'", id);
	return NULL;
}

/* The cases by index: a parameter is copied into the test's process,
 * where pointers into this one would not hold. */
ParameterizedTestParameters(diagnose_evidence, lacking_gives_cannot_tell)
{
	static size_t rows[sizeof(cases) / sizeof(cases[0])];
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		rows[i] = i;
	return cr_make_param_array(size_t, rows,
				   sizeof(rows) / sizeof(rows[0]));
}

ParameterizedTest(size_t *row, diagnose_evidence, lacking_gives_cannot_tell)
{
	const struct lacking *c = &cases[*row];
	struct smp_context *ctx = th_context(NULL);
	struct smp_diagnosis *d = diagnose(ctx, c->response);
	const struct smp_diagnosis_item *it = item(d, c->item);

	cr_expect_eq(it->state, SMP_ITEM_CANNOT_TELL, "%s: state %d: %s",
		     c->item, (int)it->state, it->detail);
	cr_expect(strstr(it->detail, c->why) != NULL, "%s: %s", c->item,
		  it->detail);
	smp_diagnosis_free(d);
	smp_context_free(ctx);
}

/* Every item of the table has a case above. */
Test(diagnose_evidence, every_item_has_a_case)
{
	struct smp_context *ctx = th_context(NULL);
	struct smp_diagnosis *d = diagnose(ctx, cases[0].response);
	size_t i, j;

	for (i = 0; i < d->item_count; i++) {
		for (j = 0; j < sizeof(cases) / sizeof(cases[0]); j++)
			if (strcmp(cases[j].item, d->items[i].id) == 0)
				break;
		cr_expect_lt(j, sizeof(cases) / sizeof(cases[0]),
			     "no lacking-evidence case for '%s'",
			     d->items[i].id);
	}
	smp_diagnosis_free(d);
	smp_context_free(ctx);
}

/* Debugger and Profiler on a job without the compiler: no rule ran, the
 * response's fields say they are on. */
Test(diagnose_evidence, debugger_profiler_from_the_fields)
{
	static const char on[] =
		"TrainingJobName: j\n"
		"TrainingJobArn: arn:aws:sagemaker:us-west-2:111122223333:"
		"training-job/j\n"
		"TrainingJobStatus: Failed\n"
		"AlgorithmSpecification: {TrainingImage: " NATIVE_IMAGE
		", TrainingInputMode: File}\n"
		"ResourceConfig: {InstanceType: ml.p3.2xlarge, InstanceCount: "
		"1, VolumeSizeInGB: 30}\n"
		"DebugHookConfig: {S3OutputPath: 's3://b/debug'}\n"
		"ProfilerConfig: {S3OutputPath: 's3://b/prof', "
		"DisableProfiler: false}\n";
	struct smp_context *ctx = th_context(NULL);
	struct smp_diagnosis *d = diagnose(ctx, on);
	const struct smp_diagnosis_item *it = item(d, "debugger-profiler");

	cr_expect_eq(it->state, SMP_ITEM_PROBLEM, "%s", it->detail);
	cr_expect(strstr(it->detail, "DebugHookConfig") != NULL, "%s",
		  it->detail);
	cr_expect(strstr(it->detail, "DisableProfiler false") != NULL, "%s",
		  it->detail);
	smp_diagnosis_free(d);
	smp_context_free(ctx);
}

/* A failed job is found whatever the causes: diagnose exits 1. */
Test(diagnose_evidence, failed_job_is_found)
{
	struct smp_context *ctx = th_context(NULL);
	struct smp_diagnosis *d =
		diagnose(ctx, RESPONSE(NATIVE_IMAGE, "ml.p3.2xlarge", "1", ""));

	cr_expect_eq(d->cause_count, 0);
	cr_expect_eq(smp_diagnosis_found(d), 1);
	smp_diagnosis_free(d);
	smp_context_free(ctx);
}
