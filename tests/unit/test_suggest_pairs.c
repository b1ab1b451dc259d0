/*
 * test_suggest_pairs.c - `suggest` against what AWS's own side-by-side
 * Training Compiler notebooks ran. Each notebook of
 * aws/amazon-sagemaker-examples sagemaker-training-compiler/ trains a
 * native job, then the compiled job at the batch its authors found to fit;
 * a pair below is one notebook version: its compiled estimator written
 * with the native batch (what a user runs `suggest` on), and the batch
 * the authors then ran. Every batch suggest gives must lie within
 * 0.67-1.5x of theirs; it may abstain (no model named, no row, conditions
 * too different), and the counts are logged.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "smpreflight.h"

struct pair {
	const char *source; /* notebook @ commit of amazon-sagemaker-examples */
	const char *estimator; /* the compiled estimator, spec lines */
	const char *hyperparameters;
	double native;  /* per GPU, as the notebook writes it */
	double authors; /* per GPU, what the compiled job ran */
};

#define HF(tv, pv)                                                             \
	"estimator: HuggingFace\ntransformers_version: \"" tv                  \
	"\"\npytorch_version: \"" pv "\"\npy_version: py38\n"
#define HFTF(tv, v)                                                            \
	"estimator: HuggingFace\ntransformers_version: \"" tv                  \
	"\"\ntensorflow_version: \"" v "\"\npy_version: py37\n"
#define PT(v)                                                                  \
	"estimator: PyTorch\nframework_version: \"" v "\"\npy_version: py39\n"
#define TF(v)                                                                  \
	"estimator: TensorFlow\nframework_version: \"" v                       \
	"\"\npy_version: py39\n"
#define XLA "distribution: {pytorchxla: {enabled: true}}\n"
#define ON(type, n) "instance_type: " type "\ninstance_count: " #n "\n"

static const struct pair pairs[] = {
	{"huggingface/pytorch_single_gpu_single_node/albert-base-v2 @ "
	 "e701b3929",
	 HF("4.11.0", "1.9.0") ON("ml.p3.2xlarge", 1),
	 "{model_name: albert-base-v2, train_batch_size: 28}", 28, 52},
	{"huggingface/pytorch_single_gpu_single_node/albert-base-v2 @ "
	 "413abd011",
	 HF("4.21.1", "1.11.0") ON("ml.p3.2xlarge", 1),
	 "{model_name: albert-base-v2, train_batch_size: 28}", 28, 52},
	{"huggingface/pytorch_single_gpu_single_node/albert-base-v2 @ "
	 "63cad20c3",
	 PT("1.13.1") ON("ml.g5.4xlarge", 1),
	 "{model_name: albert-base-v2, train_batch_size: 28}", 28, 70},
	{"huggingface/pytorch_single_gpu_single_node/bert-base-cased @ "
	 "f5c222af8",
	 HF("4.11.0", "1.9.0") ON("ml.p3.2xlarge", 1),
	 "{model_name: bert-base-cased, train_batch_size: 14}", 14, 24},
	{"huggingface/pytorch_single_gpu_single_node/bert-base-cased @ "
	 "413abd011",
	 HF("4.21.1", "1.11.0") ON("ml.p3.2xlarge", 1),
	 "{model_name: bert-base-cased, train_batch_size: 16}", 16, 24},
	{"huggingface/pytorch_single_gpu_single_node/bert-base-cased @ "
	 "63cad20c3",
	 PT("1.13.1") ON("ml.p3.2xlarge", 1),
	 "{model_name: bert-base-cased, train_batch_size: 24}", 24, 36},
	{"huggingface/pytorch_single_gpu_single_node/roberta-base @ 84bd3756a",
	 HF("4.11.0", "1.9.0") ON("ml.p3.2xlarge", 1),
	 "{model_name: roberta-base, train_batch_size: 14}", 14, 24},
	{"huggingface/pytorch_single_gpu_single_node/roberta-base @ 343e8c360",
	 HF("4.11.0", "1.9.0") ON("ml.p3.2xlarge", 1),
	 "{model_name: roberta-base, train_batch_size: 18}", 18, 24},
	{"huggingface/pytorch_single_gpu_single_node/roberta-base @ 413abd011",
	 HF("4.21.1", "1.11.0") ON("ml.p3.2xlarge", 1),
	 "{model_name: roberta-base, train_batch_size: 18}", 18, 24},
	{"huggingface/pytorch_single_gpu_single_node/roberta-base @ 63cad20c3",
	 PT("1.13.1") ON("ml.p3.2xlarge", 1),
	 "{model_name: roberta-base, train_batch_size: 24}", 24, 36},
	{"huggingface/pytorch_multiple_gpu_single_node/"
	 "language-modeling-multi-gpu-single-node @ 24fae639f",
	 HF("4.11.0", "1.9.0") ON("ml.p3.8xlarge", 1),
	 "{model_name_or_path: gpt2, per_device_train_batch_size: 8, "
	 "block_size: 512}",
	 8, 22},
	{"huggingface/pytorch_multiple_gpu_single_node/language-modeling/"
	 "gpt-2 @ 8f23f3dfa",
	 HF("4.21", "1.11") ON("ml.g4dn.12xlarge", 1),
	 "{model_name_or_path: gpt2, per_device_train_batch_size: 10, "
	 "block_size: 512}",
	 10, 20},
	{"huggingface/pytorch_multiple_gpu_single_node/language-modeling/"
	 "gpt-2 @ 12085f3be",
	 PT("1.13.1") ON("ml.g5.12xlarge", 1),
	 "{model_name_or_path: gpt2, per_device_train_batch_size: 18, "
	 "block_size: 512}",
	 18, 45},
	{"huggingface/pytorch_multiple_gpu_multiple_node @ 84bd3756a",
	 HF("4.11.0", "1.9.0") ON("ml.p3dn.24xlarge", 2),
	 "{model_type: gpt2, per_device_train_batch_size: 10, block_size: 512, "
	 "training_script: run_clm.py}",
	 10, 20},
	{"huggingface/pytorch_multiple_gpu_multiple_node @ 8014b7aa6",
	 HF("4.11.0", "1.9.0") ON("ml.p3.16xlarge", 2),
	 "{model_type: gpt2, per_device_train_batch_size: 10, block_size: 512, "
	 "training_script: run_clm.py}",
	 10, 20},
	{"huggingface/pytorch_multiple_gpu_multiple_node @ 8f23f3dfa",
	 HF("4.21", "1.11") ON("ml.p4d.24xlarge", 2) XLA,
	 "{model_type: gpt2, per_device_train_batch_size: 13, block_size: 512}",
	 13, 25},
	{"huggingface/pytorch_multiple_gpu_multiple_node @ 12085f3be",
	 PT("1.13.1") ON("ml.p4d.24xlarge", 2) XLA,
	 "{model_type: gpt2, per_device_train_batch_size: 28, block_size: 512}",
	 28, 42},
	{"huggingface/tensorflow_multiple_gpu_single_node @ 77d51c845",
	 HFTF("4.11.0", "2.5.1") ON("ml.p3.8xlarge", 1),
	 "{model_name_or_path: gpt2, per_device_train_batch_size: 48, "
	 "max_seq_length: 128}",
	 48, 32},
	{"huggingface/tensorflow_multiple_gpu_single_node @ 12085f3be",
	 TF("2.10.0") ON("ml.p3.8xlarge", 1),
	 "{model_type: gpt2, per_device_train_batch_size: 48, block_size: 128}",
	 48, 32},
	/* the ViT notebooks name no model in their hyperparameters */
	{"tensorflow/single_gpu_single_node/vision-transformer @ 3ca8d377d",
	 TF("2.9.1") ON("ml.p3.2xlarge", 1), "{BATCH_SIZE: 64}", 64, 48},
	{"tensorflow/single_gpu_single_node/vision-transformer @ 239cae9de",
	 TF("2.10.0") ON("ml.p3.2xlarge", 1), "{BATCH_SIZE: 77}", 77, 56},
	{"tensorflow/multiple_gpu_single_node/vision-transformer @ a48c33e99",
	 TF("2.9.1") ON("ml.p3.8xlarge", 1), "{BATCH_SIZE: 256}", 64, 48},
	{"tensorflow/multiple_gpu_single_node/vision-transformer @ 239cae9de",
	 TF("2.10.0") ON("ml.p3.8xlarge", 1), "{BATCH_SIZE: 308}", 77, 56},
};

Test(suggest_pairs, within_the_published_batches)
{
	struct smp_options opts = SMP_OPTIONS_INIT;
	struct smp_context *ctx = NULL;
	struct smp_error err = {0};
	size_t i, n = sizeof(pairs) / sizeof(pairs[0]);
	int suggested = 0, abstained = 0, near = 0;
	char spec[2048];

	cr_assert_eq(smp_context_new(&ctx, &opts, &err), 0, "%s", err.message);
	for (i = 0; i < n; i++) {
		const struct pair *p = &pairs[i];
		struct smp_suggestion *s = NULL;
		double got, r;

		snprintf(spec, sizeof(spec),
			 "%sentry_point: train.py\ncompiler_config: {enabled: "
			 "true}\ndebugger_hook_config: false\n"
			 "disable_profiler: true\nhyperparameters: %s\n",
			 p->estimator, p->hyperparameters);
		cr_assert_eq(smp_suggest(&s, ctx, "pair.yaml", spec,
					 strlen(spec), NULL, &err),
			     0, "%s", err.message);
		if (s->outcome != SMP_SUGGEST_OK) {
			abstained++;
			cr_log_info("%s: abstains: %s", p->source, s->message);
			smp_suggestion_free(s);
			continue;
		}
		got = s->next->batch_per_gpu;
		r = got / p->authors;
		suggested++;
		near += r >= 0.75 && r <= 1.25;
		cr_log_info("%s: native %g -> suggested %g, authors %g (%.2fx)",
			    p->source, p->native, got, p->authors, r);
		cr_expect(
			r >= 0.67 && r <= 1.5,
			"%s: suggested %g per GPU, the authors ran %g (%.2fx): "
			"%s",
			p->source, got, p->authors, r, s->message);
		smp_suggestion_free(s);
	}
	cr_log_info("%zu published pairs: %d suggestions, all within "
		    "0.67-1.5x (%d within 25%%), %d abstentions",
		    n, suggested, near, abstained);
	/* abstaining everywhere would pass the bound: most pairs have a
	 * tested row and must get a suggestion */
	cr_expect_geq(suggested, 15, "only %d suggestions", suggested);
	smp_context_free(ctx);
}
