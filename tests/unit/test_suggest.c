/*
 * test_suggest.c - smp_suggest() and its text through the public
 * API: exact rows, moves with and without a tested row, sqrt scaling,
 * TensorFlow global batches and per-instance rows, lower bounds, the
 * fragment in the spec's own keys (YAML and JSON), the outcomes without a
 * suggestion, invalid targets and out-of-memory at every allocation.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "failing_alloc.h"
#include "smpreflight.h"

static int
close_to(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fmax(1, fabs(b));
}

static struct smp_context *
context(enum smp_lr_scaling scaling)
{
	struct smp_options opts = SMP_OPTIONS_INIT;
	struct smp_context *ctx = NULL;
	struct smp_error err = {0};
	int rc;

	opts.lr_scaling = scaling;
	rc = smp_context_new(&ctx, &opts, &err);
	cr_assert_eq(rc, 0, "context: %s", err.message);
	return ctx;
}

static struct smp_suggestion *
suggest(const struct smp_context *ctx, const char *name, const char *spec,
	const char *to)
{
	struct smp_suggest_options opts = SMP_SUGGEST_OPTIONS_INIT;
	struct smp_suggestion *s = NULL;
	struct smp_error err = {0};
	int rc;

	opts.to_instance = to;
	rc = smp_suggest(&s, ctx, name, spec, strlen(spec), &opts, &err);
	cr_assert_eq(rc, 0, "suggest: %s", err.message);
	cr_assert_not_null(s);
	return s;
}

struct text {
	char data[8192];
	size_t len;
};

static int
collect(void *ud, const char *data, size_t len)
{
	struct text *t = ud;

	cr_assert_lt(t->len + len, sizeof(t->data));
	memcpy(t->data + t->len, data, len);
	t->len += len;
	t->data[t->len] = '\0';
	return 0;
}

#define HF_P4D                                                                 \
	"estimator: HuggingFace\n"                                             \
	"entry_point: train.py\n"                                              \
	"instance_type: ml.p4d.24xlarge\n"                                     \
	"instance_count: 4\n"                                                  \
	"transformers_version: \"4.21.1\"\n"                                   \
	"pytorch_version: \"1.11.0\"\n"                                        \
	"py_version: py38\n"                                                   \
	"compiler_config: {enabled: true}\n"                                   \
	"distribution: {pytorchxla: {enabled: true}}\n"                        \
	"debugger_hook_config: false\n"                                        \
	"disable_profiler: true\n"                                             \
	"hyperparameters:\n"                                                   \
	"  model_name_or_path: bert-base-uncased\n"                            \
	"  per_device_train_batch_size: 32\n"                                  \
	"  learning_rate: 5.0e-5\n"                                            \
	"  preprocessing_num_workers: 96\n"

Test(suggest, exact_row_linear)
{
	struct smp_context *ctx = context(SMP_LR_SCALING_LINEAR);
	struct smp_suggestion *s = suggest(ctx, "bert.yaml", HF_P4D, NULL);

	cr_assert_eq(s->outcome, SMP_SUGGEST_OK, "%s", s->message);
	cr_assert_eq(s->relation, SMP_ROW_RELATION_EXACT);
	cr_assert_not_null(s->row);
	cr_assert_eq(s->row->compiler_batch_size, 64);
	cr_assert_eq(s->row->instance_count, 4);
	cr_assert_str_eq(s->row->framework_version, "1.11.0");
	cr_assert_str_eq(s->row->transformers_version, "4.21.1");
	cr_assert_null(s->row->precision, "the table says AMP");
	/* 32 x 8 x 4 = 1024 -> 64 x 8 x 4 = 2048: k = 2 */
	cr_assert(close_to(s->now->global_batch, 1024));
	cr_assert(close_to(s->next->global_batch, 2048));
	cr_assert(close_to(s->k, 2));
	cr_assert(close_to(s->next->learning_rate, 1e-4));
	cr_assert_str_eq(s->batch_name, "per_device_train_batch_size");
	cr_assert_str_eq(s->lr_name, "learning_rate");
	cr_assert_eq(s->batch_is_global, 0);
	cr_assert_str_eq(s->fragment, "hyperparameters:\n"
				      "  per_device_train_batch_size: 64\n"
				      "  learning_rate: 0.0001\n");
	cr_assert_str_eq(s->model, "bert-base-uncased");
	smp_suggestion_free(s);
	smp_context_free(ctx);
}

Test(suggest, sqrt_scaling)
{
	struct smp_context *ctx = context(SMP_LR_SCALING_SQRT);
	struct smp_suggestion *s = suggest(ctx, "bert.yaml", HF_P4D, NULL);

	cr_assert_eq(s->lr_scaling, SMP_LR_SCALING_SQRT);
	/* 5e-5 x sqrt(2) = 7.0710678e-05 */
	cr_assert(close_to(s->next->learning_rate, 7.0710678118654752e-05));
	cr_assert_str_eq(s->fragment, "hyperparameters:\n"
				      "  per_device_train_batch_size: 64\n"
				      "  learning_rate: 7.071e-05\n");
	smp_suggestion_free(s);
	smp_context_free(ctx);
}

#define DISTILGPT2                                                             \
	"estimator: HuggingFace\n"                                             \
	"entry_point: train.py\n"                                              \
	"instance_type: ml.p3.2xlarge\n"                                       \
	"transformers_version: \"4.11.0\"\n"                                   \
	"pytorch_version: \"1.9.0\"\n"                                         \
	"py_version: py38\n"                                                   \
	"compiler_config: {}\n"                                                \
	"debugger_hook_config: false\n"                                        \
	"disable_profiler: true\n"                                             \
	"hyperparameters: {model_name_or_path: distilgpt2, "                   \
	"per_device_train_batch_size: 8, learning_rate: 1.0e-4, "              \
	"preprocessing_num_workers: 8}\n"

Test(suggest, move_with_a_row_for_the_target)
{
	struct smp_context *ctx = context(SMP_LR_SCALING_LINEAR);
	struct smp_suggestion *s =
		suggest(ctx, "gpt.yaml", DISTILGPT2, "ml.p3.8xlarge");

	cr_assert_eq(s->outcome, SMP_SUGGEST_OK, "%s", s->message);
	cr_assert_str_eq(s->now->instance_type, "ml.p3.2xlarge");
	cr_assert_str_eq(s->next->instance_type, "ml.p3.8xlarge");
	cr_assert_eq(s->next->gpus, 4);
	cr_assert_str_eq(s->row->instance_type, "ml.p3.8xlarge");
	/* 8 x 1 x 1 = 8 -> 32 x 4 x 1 = 128: k = 16, lr 1e-4 -> 1.6e-3 */
	cr_assert(close_to(s->k, 16));
	cr_assert(close_to(s->next->learning_rate, 1.6e-3));
	/* the move needs GPU_NUM_DEVICES (no pytorchxla in PyTorch 1.9) and
	 * the new vCPUs more preprocessing workers */
	cr_assert_str_eq(s->fragment, "instance_type: ml.p3.8xlarge\n"
				      "hyperparameters:\n"
				      "  per_device_train_batch_size: 32\n"
				      "  learning_rate: 0.0016\n"
				      "  preprocessing_num_workers: 32\n"
				      "environment:\n"
				      "  GPU_NUM_DEVICES: \"4\"\n");
	cr_assert_not_null(s->patched);
	cr_assert_not_null(
		strstr(s->patched, "instance_type: ml.p3.8xlarge\n"));
	smp_suggestion_free(s);
	smp_context_free(ctx);
}

Test(suggest, move_without_a_row_keeps_the_per_gpu_batch)
{
	struct smp_context *ctx = context(SMP_LR_SCALING_SQRT);
	struct smp_suggestion *s =
		suggest(ctx, "gpt.yaml", DISTILGPT2, "ml.p3dn.24xlarge");

	cr_assert_eq(s->outcome, SMP_SUGGEST_NO_ROW, "%s", s->message);
	cr_assert_null(s->row, "no number from nowhere");
	cr_assert_eq(s->relation, SMP_ROW_RELATION_NONE);
	cr_assert(close_to(s->next->batch_per_gpu, 8));
	cr_assert(close_to(s->next->global_batch, 64));
	/* 8 GPUs for 1: k = 8, lr 1e-4 x sqrt(8) = 2.828427e-4 */
	cr_assert(close_to(s->k, 8));
	cr_assert(close_to(s->next->learning_rate, 2.8284271247461902e-4));
	cr_assert_not_null(strstr(s->notes, "memory grows from 16 to 32 GiB"));
	cr_assert_not_null(strstr(s->message, "no tested row applies"));
	smp_suggestion_free(s);
	smp_context_free(ctx);
}

Test(suggest, no_row_and_no_move_suggests_nothing)
{
	struct smp_context *ctx = context(SMP_LR_SCALING_LINEAR);
	struct smp_suggestion *s;
	struct text t = {{0}, 0};

	s = suggest(ctx, "job.yaml",
		    "estimator: PyTorch\n"
		    "entry_point: train.py\n"
		    "instance_type: ml.p3dn.24xlarge\n"
		    "framework_version: \"1.13.1\"\n"
		    "py_version: py39\n"
		    "compiler_config: {}\n"
		    "distribution: {pytorchxla: {enabled: true}}\n"
		    "hyperparameters: {model_name: distilgpt2, "
		    "per_device_train_batch_size: 8}\n",
		    NULL);
	cr_assert_eq(s->outcome, SMP_SUGGEST_NO_ROW, "%s", s->message);
	cr_assert_null(s->row);
	cr_assert_eq(s->k, 0);
	cr_assert_eq(s->next->batch_per_gpu, 0);
	cr_assert_null(s->fragment);
	cr_assert_eq(smp_suggestion_emit_text(s, collect, &t), 0);
	cr_assert_str_eq(
		t.data,
		"job.yaml: no tested row applies to 'distilgpt2' with PyTorch "
		"1.13.1 on ml.p3dn.24xlarge (nor on another instance with the "
		"same V100 32 GiB GPU); nothing to suggest: measure GPU memory "
		"to find the largest batch that fits\n"
		"  instance:   ml.p3dn.24xlarge: 8 GPUs (V100, 32 GiB) x 1 "
		"instance\n"
		"  batch:      per-GPU batch 8 (per GPU, from "
		"'per_device_train_batch_size')\n");
	smp_suggestion_free(s);
	smp_context_free(ctx);
}

Test(suggest, tensorflow_global_batch_and_instance_rows)
{
	struct smp_context *ctx = context(SMP_LR_SCALING_LINEAR);
	struct smp_suggestion *s;
	static const char spec[] = "estimator: TensorFlow\n"
				   "entry_point: train.py\n"
				   "instance_type: ml.p3.16xlarge\n"
				   "framework_version: \"2.9.1\"\n"
				   "py_version: py39\n"
				   "compiler_config: {}\n"
				   "debugger_hook_config: false\n"
				   "disable_profiler: true\n"
				   "hyperparameters: {model: ResNet152, "
				   "batch_size: 384, learning_rate: 0.1}\n";

	s = suggest(ctx, "resnet.yaml", spec, NULL);
	cr_assert_eq(s->outcome, SMP_SUGGEST_OK, "%s", s->message);
	cr_assert(s->batch_is_global);
	cr_assert(s->row->batch_per_instance);
	cr_assert_eq(s->row->compiler_batch_size, 1280);
	cr_assert(close_to(s->row->compiler_batch_per_gpu, 160));
	/* 384 / 8 = 48 per GPU, far below the row's native 1024 / 8 = 128:
	 * not the row's conditions, so 48 x 160 / 128 = 60 per GPU, 480
	 * global, k = 480 / 384 = 1.25 */
	cr_assert(close_to(s->now->batch_per_gpu, 48));
	cr_assert(close_to(s->next->batch_per_gpu, 60));
	cr_assert(close_to(s->k, 1.25));
	cr_assert_str_eq(s->fragment, "hyperparameters:\n"
				      "  batch_size: 480\n"
				      "  learning_rate: 0.125\n");
	cr_assert_not_null(strstr(s->notes, "compiler/native ratio 1.25"));
	cr_assert_str_eq(s->batch_reading,
			 "global batch 384 over 8 GPUs = 48 per GPU (from "
			 "'batch_size', the global Keras batch of a "
			 "TensorFlow job)");
	smp_suggestion_free(s);
	/* to ml.p3.8xlarge: 160 per GPU x 4 = 640 global, k = 640/384 */
	s = suggest(ctx, "resnet.yaml", spec, "ml.p3.8xlarge");
	cr_assert_eq(s->outcome, SMP_SUGGEST_OK);
	cr_assert_eq(s->relation, SMP_ROW_RELATION_SAME_GPU);
	cr_assert(close_to(s->next->global_batch, 640));
	cr_assert(close_to(s->k, 640.0 / 384.0));
	smp_suggestion_free(s);
	smp_context_free(ctx);
}

Test(suggest, lower_bound_row_keeps_a_larger_batch)
{
	struct smp_context *ctx = context(SMP_LR_SCALING_LINEAR);
	struct smp_suggestion *s;

	/* VisionTransformer 2.9.1: 128* on ml.p3.2xlarge (a lower bound);
	 * moved there, the job's 200 may fit, so it stays */
	s = suggest(ctx, "vit.yaml",
		    "estimator: TensorFlow\n"
		    "entry_point: train.py\n"
		    "instance_type: ml.g5.2xlarge\n"
		    "framework_version: \"2.9.1\"\n"
		    "py_version: py39\n"
		    "compiler_config: {}\n"
		    "hyperparameters: {model: VisionTransformer, "
		    "batch_size: 200}\n",
		    "ml.p3.2xlarge");
	cr_assert_eq(s->outcome, SMP_SUGGEST_OK, "%s", s->message);
	cr_assert(s->row->batch_size_is_lower_bound);
	cr_assert(close_to(s->k, 1));
	cr_assert(close_to(s->next->batch_per_gpu, 200));
	cr_assert_not_null(strstr(s->notes, "lower bound"));
	cr_assert_not_null(strstr(s->notes, "no learning rate"));
	smp_suggestion_free(s);
	smp_context_free(ctx);
}

Test(suggest, json_fragment_keeps_strings)
{
	struct smp_context *ctx = context(SMP_LR_SCALING_LINEAR);
	struct smp_suggestion *s;

	s = suggest(ctx, "job.json",
		    "{\"estimator\": \"HuggingFace\", \"entry_point\": "
		    "\"train.py\", \"instance_type\": \"ml.p3.2xlarge\", "
		    "\"transformers_version\": \"4.11.0\", "
		    "\"pytorch_version\": \"1.9.0\", \"py_version\": "
		    "\"py38\", \"compiler_config\": {}, \"hyperparameters\": "
		    "{\"model_name_or_path\": \"distilgpt2\", "
		    "\"per_device_train_batch_size\": \"16\", "
		    "\"learning_rate\": 0.0001}}",
		    "ml.p3.8xlarge");
	cr_assert_eq(s->outcome, SMP_SUGGEST_OK, "%s", s->message);
	/* 16 -> 32 x 4: k = 8 */
	cr_assert(close_to(s->k, 8));
	cr_assert_str_eq(s->fragment,
			 "{\n"
			 "  \"instance_type\": \"ml.p3.8xlarge\",\n"
			 "  \"hyperparameters\": {\n"
			 "    \"per_device_train_batch_size\": \"32\",\n"
			 "    \"learning_rate\": 0.0008\n"
			 "  },\n"
			 "  \"environment\": {\n"
			 "    \"GPU_NUM_DEVICES\": \"4\"\n"
			 "  }\n"
			 "}\n");
	smp_suggestion_free(s);
	smp_context_free(ctx);
}

/* A .yaml file that is one flow mapping is YAML, as the loader reads it:
 * the fragment is YAML too. */
Test(suggest, yaml_flow_mapping_gets_a_yaml_fragment)
{
	struct smp_context *ctx = context(SMP_LR_SCALING_LINEAR);
	struct smp_suggestion *s;

	s = suggest(
		ctx, "job.yaml",
		"{estimator: HuggingFace, entry_point: train.py, "
		"instance_type: ml.p3.2xlarge, transformers_version: "
		"'4.11.0', pytorch_version: '1.9.0', py_version: py38, "
		"compiler_config: {}, hyperparameters: "
		"{model_name_or_path: distilgpt2, "
		"per_device_train_batch_size: 16, learning_rate: 0.0001}}\n",
		"ml.p3.8xlarge");
	cr_assert_eq(s->outcome, SMP_SUGGEST_OK, "%s", s->message);
	cr_assert_str_eq(s->fragment, "instance_type: ml.p3.8xlarge\n"
				      "hyperparameters:\n"
				      "  per_device_train_batch_size: 32\n"
				      "  learning_rate: 0.0008\n"
				      "environment:\n"
				      "  GPU_NUM_DEVICES: \"4\"\n");
	smp_suggestion_free(s);
	smp_context_free(ctx);
}

Test(suggest, text_shows_the_arithmetic)
{
	struct smp_context *ctx = context(SMP_LR_SCALING_LINEAR);
	struct smp_suggestion *s =
		suggest(ctx, "gpt.yaml", DISTILGPT2, "ml.p3.8xlarge");
	struct text t = {{0}, 0};

	cr_assert_eq(smp_suggestion_emit_text(s, collect, &t), 0);
	cr_assert_str_eq(
		t.data,
		"gpt.yaml: suggestion: per-GPU batch 8 -> 32 and learning "
		"rate 0.0001 -> 0.0016 (k = 16, linear) for 'distilgpt2' on "
		"ml.p3.8xlarge\n"
		"  instance:   ml.p3.2xlarge: 1 GPU (V100, 16 GiB) x 1 "
		"instance\n"
		"              -> ml.p3.8xlarge: 4 GPUs (V100, 16 GiB) x 1 "
		"instance\n"
		"  tested row: distilgpt2, PyTorch 1.9.0, transformers 4.11.0, "
		"ml.p3.8xlarge, sequence length 512, AMP: compiler batch 32 "
		"per GPU (native 6)\n"
		"              exact match: framework, versions, model and "
		"instance type; of 6 rows, the closest to the job\n"
		"  batch:      per-GPU batch 8 (per GPU, from "
		"'per_device_train_batch_size')\n"
		"  now:        8 per GPU x 1 GPU x 1 instance = 8 global\n"
		"  suggested:  32 per GPU x 4 GPUs x 1 instance = 128 global\n"
		"  k:          32 x 4 x 1 / (8 x 1 x 1) = 16\n"
		"  lr:         0.0001 x 16 = 0.0016 (linear; --lr-scaling sqrt "
		"gives 0.0001 x 4 = 0.0004)\n"
		"  note:       k = 16 scales the learning rate 16 times: "
		"aggressive hyperparameters can make the training loss "
		"oscillate or the model stop learning (AWS \"SageMaker "
		"Training Compiler Troubleshooting\", 'Check "
		"hyperparameters'); warm the learning rate up over the first "
		"steps and try the change in a short run first, or tune it "
		"with SageMaker Automatic Model Tuning\n"
		"\n"
		"  the changed spec, ready to paste:\n"
		"\n"
		"    instance_type: ml.p3.8xlarge\n"
		"    hyperparameters:\n"
		"      per_device_train_batch_size: 32\n"
		"      learning_rate: 0.0016\n"
		"      preprocessing_num_workers: 32\n"
		"    environment:\n"
		"      GPU_NUM_DEVICES: \"4\"\n");
	smp_suggestion_free(s);
	smp_context_free(ctx);
}

Test(suggest, unavailable_without_model_or_batch)
{
	struct smp_context *ctx = context(SMP_LR_SCALING_LINEAR);
	struct smp_suggestion *s;

	s = suggest(ctx, "a.yaml",
		    "estimator: HuggingFace\n"
		    "entry_point: train.py\n"
		    "instance_type: ml.p3.2xlarge\n"
		    "transformers_version: \"4.11.0\"\n"
		    "pytorch_version: \"1.9.0\"\n"
		    "py_version: py38\n"
		    "compiler_config: {}\n"
		    "hyperparameters: {per_device_train_batch_size: 8}\n",
		    NULL);
	cr_assert_eq(s->outcome, SMP_SUGGEST_UNAVAILABLE);
	cr_assert_not_null(strstr(s->message, "names no model"));
	cr_assert_eq(s->k, 0);
	smp_suggestion_free(s);
	s = suggest(ctx, "b.yaml",
		    "estimator: HuggingFace\n"
		    "entry_point: train.py\n"
		    "instance_type: ml.p3.2xlarge\n"
		    "transformers_version: \"4.11.0\"\n"
		    "pytorch_version: \"1.9.0\"\n"
		    "py_version: py38\n"
		    "compiler_config: {}\n"
		    "hyperparameters: {model_name_or_path: distilgpt2}\n",
		    NULL);
	cr_assert_eq(s->outcome, SMP_SUGGEST_UNAVAILABLE);
	cr_assert_not_null(s->row, "the row is still shown");
	cr_assert_str_eq(s->message,
			 "the spec sets no batch size (looked for "
			 "per_device_train_batch_size, ...); the tested "
			 "compiler batch for 'distilgpt2' on ml.p3.2xlarge is "
			 "32 per GPU");
	smp_suggestion_free(s);
	s = suggest(ctx, "c.yaml", "", NULL);
	cr_assert_eq(s->outcome, SMP_SUGGEST_UNAVAILABLE);
	cr_assert_str_eq(s->message, "the file holds no job spec");
	smp_suggestion_free(s);
	smp_context_free(ctx);
}

/* text with the first occurrence of from replaced by to (caller frees) */
static char *
with(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	char *out;

	cr_assert_not_null(at);
	out = malloc(strlen(text) - strlen(from) + strlen(to) + 1);
	cr_assert_not_null(out);
	memcpy(out, text, (size_t)(at - text));
	strcpy(out + (at - text), to);
	strcat(out, at + strlen(from));
	return out;
}

Test(suggest, refuses_fractional_batches_and_non_finite_results)
{
	struct smp_context *ctx = context(SMP_LR_SCALING_LINEAR);
	char *spec = with(HF_P4D, "per_device_train_batch_size: 32",
			  "per_device_train_batch_size: 32.5");
	struct smp_suggestion *s = suggest(ctx, "frac.yaml", spec, NULL);

	cr_assert_eq(s->outcome, SMP_SUGGEST_UNAVAILABLE, "%s", s->message);
	cr_assert_not_null(strstr(s->message, "not a whole number"), "%s",
			   s->message);
	cr_assert_null(s->fragment);
	smp_suggestion_free(s);
	free(spec);
	spec = with(HF_P4D, "per_device_train_batch_size: 32",
		    "per_device_train_batch_size: 1e-320");
	s = suggest(ctx, "tiny.yaml", spec, NULL);
	cr_assert_neq(s->outcome, SMP_SUGGEST_OK, "%s", s->message);
	cr_assert_null(s->fragment);
	smp_suggestion_free(s);
	free(spec);
	spec = with(HF_P4D, "learning_rate: 5.0e-5", "learning_rate: 1e308");
	s = suggest(ctx, "huge.yaml", spec, NULL);
	cr_assert_eq(s->outcome, SMP_SUGGEST_UNAVAILABLE, "%s", s->message);
	cr_assert_not_null(strstr(s->message, "finite"), "%s", s->message);
	cr_assert(isfinite(s->next->learning_rate));
	cr_assert_null(s->fragment);
	smp_suggestion_free(s);
	free(spec);
	smp_context_free(ctx);
}

Test(suggest, errors_come_first)
{
	struct smp_context *ctx = context(SMP_LR_SCALING_LINEAR);
	struct smp_suggestion *s;
	struct text t = {{0}, 0};

	s = suggest(ctx, "bad.yaml",
		    "estimator: HuggingFace\n"
		    "instance_type: ml.p3.2xlarge\n"
		    "compiler_confg: {}\n",
		    NULL);
	cr_assert_eq(s->outcome, SMP_SUGGEST_ERRORS);
	cr_assert_not_null(s->report);
	cr_assert_eq(smp_report_max_severity(s->report), SMP_SEVERITY_ERROR);
	cr_assert_eq(smp_suggestion_emit_text(s, collect, &t), 0);
	cr_assert_not_null(strstr(t.data, "bad.yaml: no suggestion: the spec "
					  "has "));
	cr_assert_null(strstr(t.data, "  k:"), "no arithmetic");
	smp_suggestion_free(s);
	smp_context_free(ctx);
}

Test(suggest, invalid_targets_and_arguments)
{
	struct smp_context *ctx = context(SMP_LR_SCALING_LINEAR);
	struct smp_suggest_options opts = SMP_SUGGEST_OPTIONS_INIT;
	struct smp_suggestion *s = (struct smp_suggestion *)&opts;
	struct smp_error err = {0};

	opts.to_instance = "ml.p4d.24xlarg";
	cr_assert_eq(smp_suggest(&s, ctx, "x.yaml", DISTILGPT2,
				 strlen(DISTILGPT2), &opts, &err),
		     SMP_EINVAL);
	cr_assert_null(s);
	cr_assert_str_eq(err.message, "unknown instance type 'ml.p4d.24xlarg'; "
				      "did you mean 'ml.p4d.24xlarge'?");
	opts.to_instance = "ml.p4de.24xlarge";
	cr_assert_eq(smp_suggest(&s, ctx, "x.yaml", DISTILGPT2,
				 strlen(DISTILGPT2), &opts, &err),
		     SMP_EINVAL);
	cr_assert_not_null(strstr(err.message, "class not supported"));
	opts.to_instance = "ml.m5.xlarge";
	cr_assert_eq(smp_suggest(&s, ctx, "x.yaml", DISTILGPT2,
				 strlen(DISTILGPT2), &opts, &err),
		     SMP_EINVAL);
	cr_assert_not_null(strstr(err.message, "no GPU"));
	opts.to_instance = NULL;
	opts.version = 99;
	cr_assert_eq(smp_suggest(&s, ctx, "x.yaml", DISTILGPT2,
				 strlen(DISTILGPT2), &opts, &err),
		     SMP_EINVAL);
	cr_assert_eq(smp_suggest(&s, NULL, "x.yaml", "", 0, NULL, &err),
		     SMP_EINVAL);
	cr_assert_eq(smp_suggest(&s, ctx, "/nonexistent/x.yaml", NULL, 0, NULL,
				 &err),
		     SMP_EIO);
	cr_assert_null(s);
	cr_assert_eq(smp_suggestion_emit_text(NULL, collect, NULL), SMP_EINVAL);
	smp_suggestion_free(NULL);
	smp_context_free(ctx);
}

Test(suggest, every_allocation_failure_is_clean)
{
	struct failing_alloc fa = FA_INIT;
	struct smp_allocator a = fa_allocator(&fa);
	struct smp_options opts = SMP_OPTIONS_INIT;
	struct smp_suggest_options so = SMP_SUGGEST_OPTIONS_INIT;
	struct smp_context *ctx = NULL;
	struct smp_suggestion *s;
	struct smp_error err = {0};
	long n, base;
	int rc, ok = 0;

	opts.allocator = &a;
	cr_assert_eq(smp_context_new(&ctx, &opts, &err), 0);
	so.to_instance = "ml.p3.8xlarge";
	/* the first run compiles the dialect's schema, which the context
	 * keeps: count what the runs after it leave */
	cr_assert_eq(smp_suggest(&s, ctx, "gpt.yaml", DISTILGPT2,
				 strlen(DISTILGPT2), &so, &err),
		     0);
	smp_suggestion_free(s);
	base = fa.live;
	for (n = 0; n < 100000 && !ok; n++) {
		fa_arm(&fa, n);
		s = NULL;
		rc = smp_suggest(&s, ctx, "gpt.yaml", DISTILGPT2,
				 strlen(DISTILGPT2), &so, &err);
		if (rc == 0) {
			ok = fa.calls <= n; /* nothing failed: done */
			cr_assert_not_null(s);
			smp_suggestion_free(s);
		} else {
			cr_assert_eq(rc, SMP_ENOMEM, "n=%ld rc=%d", n, rc);
			cr_assert_null(s);
		}
		cr_assert_eq(fa.live, base, "leak at allocation %ld", n);
	}
	cr_assert(ok, "a run without failure completed");
	fa.fail_at = FA_NEVER;
	smp_context_free(ctx);
	cr_assert_eq(fa.live, 0);
}
