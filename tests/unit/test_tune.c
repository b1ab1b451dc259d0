/*
 * test_tune.c - the batch reading, the scaling arithmetic and the choice
 * of the tested row, against values computed by hand: linear and sqrt,
 * single and multi-node, TensorFlow's global batch, per-instance vision
 * rows, moves between instance types with and without a tested row,
 * lower-bound rows and no row at all.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rules/check.h"
#include "context/context.h"
#include "helpers.h"
#include "tune/tune.h"

static int
close_to(double a, double b)
{
	return fabs(a - b) <= 1e-9 * fmax(1, fabs(b));
}

#define CLOSE(a, b) close_to((a), (b))

/* ------------------------------------------------------------ arithmetic */

Test(tune, k_single_node)
{
	/* 8 -> 24 per GPU on one 1-GPU instance: k = 24 / 8 = 3 */
	double k = smp__tune_k(8, 1, 1, 24, 1, 1);

	cr_assert(CLOSE(k, 3.0), "k = %g", k);
	cr_assert(CLOSE(smp__tune_lr(5e-5, k, SMP_LR_SCALING_LINEAR), 1.5e-4));
	/* 5e-5 x sqrt(3) = 8.660254037844386e-05 */
	cr_assert(CLOSE(smp__tune_lr(5e-5, k, SMP_LR_SCALING_SQRT),
			8.660254037844386e-05));
}

Test(tune, k_multi_node_and_move)
{
	/* 16 x 4 GPUs x 2 = 128 -> 24 x 8 GPUs x 2 = 384: k = 3 */
	double k = smp__tune_k(16, 4, 2, 24, 8, 2);

	cr_assert(CLOSE(k, 3.0), "k = %g", k);
	cr_assert(CLOSE(smp__tune_lr(1e-4, k, SMP_LR_SCALING_LINEAR), 3e-4));
	/* 1e-4 x 1.7320508 */
	cr_assert(CLOSE(smp__tune_lr(1e-4, k, SMP_LR_SCALING_SQRT),
			1.7320508075688772e-4));
	/* TF global 192 over 4 GPUs = 48 per GPU kept on 8 GPUs: k = 2 */
	k = smp__tune_k(48, 4, 1, 48, 8, 1);
	cr_assert(CLOSE(k, 2.0));
	cr_assert(CLOSE(smp__tune_lr(1e-4, k, SMP_LR_SCALING_SQRT),
			1.4142135623730951e-4));
	/* nothing before: no factor */
	cr_assert_eq(smp__tune_k(0, 1, 1, 24, 1, 1), 0);
}

Test(tune, lr_follows_k_or_sqrt_k_within_5_percent)
{
	cr_assert_eq(smp__tune_lr_follows(3.0, 3.0), 1);
	cr_assert_eq(smp__tune_lr_follows(3.0 * 1.05, 3.0), 1);
	cr_assert_eq(smp__tune_lr_follows(3.0 * 0.95, 3.0), 1);
	cr_assert_eq(smp__tune_lr_follows(3.0 * 1.06, 3.0), 0);
	cr_assert_eq(smp__tune_lr_follows(sqrt(3.0), 3.0), 2);
	cr_assert_eq(smp__tune_lr_follows(sqrt(3.0) * 1.04, 3.0), 2);
	cr_assert_eq(smp__tune_lr_follows(2.0, 3.0), 0);
	cr_assert_eq(smp__tune_lr_follows(1.0, 3.0), 0);
	/* no change of the batch: the rate must stay */
	cr_assert_eq(smp__tune_lr_follows(1.0, 1.0), 1);
	cr_assert_eq(smp__tune_lr_follows(1.2, 1.0), 0);
	cr_assert_eq(smp__tune_lr_follows(1.0, 0.0), 0);
}

Test(tune, numbers_print_short)
{
	char out[40];

	smp__tune_number(out, sizeof(out), 24);
	cr_assert_str_eq(out, "24");
	smp__tune_number(out, sizeof(out), 20480);
	cr_assert_str_eq(out, "20480");
	smp__tune_number(out, sizeof(out), 1.5e-4);
	cr_assert_str_eq(out, "0.00015");
	smp__tune_number(out, sizeof(out), 6.666666e-5);
	cr_assert_str_eq(out, "6.667e-05");
	smp__tune_number(out, sizeof(out), 5.625);
	cr_assert_str_eq(out, "5.625");
}

/* What printf's "%.4g" gives, for every kind of value tune_number writes
 * without printf: near ties, powers of ten, the %e and %f ranges. */
Test(tune, numbers_match_printf)
{
	static const double edge[] = {
		0.00015,    1.0005,   1.00049999,  9999.5,    9999.49,
		0.99995,    0.999949, 1e-5,        1e-4,      0.0001,
		9.9995e-5,  12345.6,  2.5e-5,      5e-05,     1.25e-3,
		0.1,        0.3,      2.0 / 3,     1e14 + .5, 1.5e-19,
		123.45,     0.012345, 6.666666e-5, -0.25,     -1234.5,
		1e15 - 0.5, 3.14159,  0.000123449,
	};
	char want[40], got[40];
	unsigned long long r = 88172645463325252ull;
	size_t i;

	for (i = 0; i < sizeof(edge) / sizeof(edge[0]); i++) {
		snprintf(want, sizeof(want), "%.4g", edge[i]);
		smp__tune_number(got, sizeof(got), edge[i]);
		if (edge[i] != floor(edge[i]))
			cr_assert_str_eq(got, want, "%.17g", edge[i]);
	}
	for (i = 0; i < 200000; i++) {
		double v;
		int e;

		r ^= r << 13;
		r ^= r >> 7;
		r ^= r << 17;
		e = (int)(r % 40) - 22;
		v = ldexp((double)(r >> 11) / 9007199254740992.0 + 0.5,
			  (int)(e * 3.33));
		if (i % 3 == 0) /* four digits and a tie: 1.2345 */
			v = (double)(r % 100000) / pow(10, (double)(r % 9));
		if (v == floor(v))
			continue;
		snprintf(want, sizeof(want), "%.4g", v);
		smp__tune_number(got, sizeof(got), v);
		cr_assert_str_eq(got, want, "%.17g", v);
	}
	/* cut to the buffer as snprintf cuts */
	smp__tune_number(got, 4, 6.666666e-5);
	cr_assert_str_eq(got, "6.6");
}

/* The model's name without the SDK's JSON quotes, cut to the buffer. */
Test(tune, model_text_unquotes_and_cuts)
{
	struct smp_node n;
	char out[8];

	memset(&n, 0, sizeof(n));
	n.kind = SMP_NODE_SCALAR;
	n.u.scalar.value = "\"bert-base\"";
	n.u.scalar.len = strlen(n.u.scalar.value);
	smp__tune_model_text(out, sizeof(out), &n);
	cr_assert_str_eq(out, "bert-ba");
	n.u.scalar.value = "gpt2";
	n.u.scalar.len = 4;
	smp__tune_model_text(out, sizeof(out), &n);
	cr_assert_str_eq(out, "gpt2");
	n.u.scalar.value = "\"\"";
	n.u.scalar.len = 2;
	smp__tune_model_text(out, sizeof(out), &n);
	cr_assert_str_eq(out, "");
	smp__tune_model_text(out, sizeof(out), NULL);
	cr_assert_str_eq(out, "");
	out[0] = 'x';
	smp__tune_model_text(out, 0, &n);
	cr_assert_eq(out[0], 'x', "no room, nothing written");
}

/* --------------------------------------------- jobs through the pipeline */

struct probe {
	const char *to; /* look the row up on this instance, or NULL */
	int read_rc, query_rc;
	struct smp_batch_reading b; /* pair cleared: its nodes are gone */
	char key[64];
	char describe[256];
	struct smp_row_pick pick;
	int gpus;
};

static void
probe_fn(void *ud, const struct smp_check *c)
{
	struct probe *p = ud;
	const struct smp_instance *on = c->instance;
	struct smp_tune_query q;
	char key[256];

	if (p->to)
		on = smp__catalog_instance(c->cat, p->to);
	p->gpus = c->instance ? c->instance->gpus : 0;
	p->read_rc = smp__batch_read(&p->b, c->settings, c->job, p->gpus);
	if (p->read_rc == 0) {
		smp__batch_describe(p->describe, sizeof(p->describe), &p->b);
		snprintf(p->key, sizeof(p->key), "%s", smp__batch_key(&p->b));
		p->b.pair = NULL;
	}
	p->query_rc =
		smp__tune_query(&q, key, sizeof(key), c->settings, c->job, on);
	if (p->query_rc == 0) {
		struct smp_row_pick again;

		smp__tune_pick(&p->pick, c->cat, &q);
		/* the rows and image looked up once pick the same row */
		cr_assert_not_null(q.model);
		smp__tune_query_rows(&q, c->cat);
		cr_assert_eq(q.rows_cat, c->cat);
		smp__tune_pick(&again, c->cat, &q);
		cr_assert_eq(again.row, p->pick.row);
		cr_assert_eq(again.max, p->pick.max);
		cr_assert_eq(again.match, p->pick.match);
		cr_assert_eq(again.candidates, p->pick.candidates);
		cr_assert_eq(again.exact_rows, p->pick.exact_rows);
		cr_assert_eq(again.ties, p->pick.ties);
	}
}

static void
probe(struct smp_context *ctx, const char *spec, struct probe *p)
{
	struct smp_check_hook hook = {.fn = probe_fn, .ud = p};
	struct smp_report *rep = NULL;
	int rc;

	p->read_rc = p->query_rc = -2;
	rc = smp__check_run(&rep, ctx, "t.yaml", spec, strlen(spec), &hook,
			    NULL);
	cr_assert_eq(rc, 0);
	cr_assert_neq(p->read_rc, -2, "the hook ran");
	smp_report_free(rep);
}

#define HF_P3_2XL                                                              \
	"estimator: HuggingFace\n"                                             \
	"entry_point: train.py\n"                                              \
	"instance_type: ml.p3.2xlarge\n"                                       \
	"transformers_version: \"4.21.1\"\n"                                   \
	"pytorch_version: \"1.11.0\"\n"                                        \
	"py_version: py38\n"                                                   \
	"compiler_config: {enabled: true}\n"

Test(tune, per_device_batch_is_per_gpu)
{
	struct smp_context *ctx = th_context(NULL);
	struct probe p = {0};

	probe(ctx,
	      "estimator: HuggingFace\n"
	      "instance_type: ml.p3.8xlarge\n"
	      "instance_count: 2\n"
	      "hyperparameters: {per_device_train_batch_size: 24}\n",
	      &p);
	cr_assert_eq(p.read_rc, 0);
	cr_assert_eq(p.b.scope, SMP_BATCH_PER_GPU);
	cr_assert_eq(p.b.why, SMP_BATCH_WHY_PREFIX);
	cr_assert(CLOSE(p.b.per_gpu, 24));
	cr_assert(CLOSE(p.b.global, 24 * 4 * 2));
	cr_assert_str_eq(p.describe, "per-GPU batch 24 (per GPU, from "
				     "'per_device_train_batch_size')");
	smp_context_free(ctx);
}

Test(tune, tensorflow_batch_size_is_global)
{
	struct smp_context *ctx = th_context(NULL);
	struct probe p = {0};

	/* the AWS ViT example: 48 per GPU x 4 GPUs = 192 */
	probe(ctx,
	      "estimator: TensorFlow\n"
	      "instance_type: ml.p3.8xlarge\n"
	      "framework_version: \"2.10.0\"\n"
	      "hyperparameters: {batch_size: 192}\n",
	      &p);
	cr_assert_eq(p.read_rc, 0);
	cr_assert_eq(p.b.scope, SMP_BATCH_GLOBAL);
	cr_assert_eq(p.b.why, SMP_BATCH_WHY_TENSORFLOW);
	cr_assert(CLOSE(p.b.per_gpu, 48));
	cr_assert(CLOSE(p.b.global, 192));
	cr_assert_str_eq(p.describe,
			 "global batch 192 over 4 GPUs = 48 per GPU (from "
			 "'batch_size', the global Keras batch of a "
			 "TensorFlow job)");
	/* two instances: over 8 GPUs */
	probe(ctx,
	      "estimator: TensorFlow\n"
	      "instance_type: ml.p3.8xlarge\n"
	      "instance_count: 2\n"
	      "framework_version: \"2.10.0\"\n"
	      "hyperparameters: {BATCH-SIZE: \"384\"}\n",
	      &p);
	cr_assert_eq(p.read_rc, 0);
	cr_assert(CLOSE(p.b.per_gpu, 48));
	cr_assert_str_eq(p.describe,
			 "global batch 384 over 8 GPUs (4 x 2 instances) = 48 "
			 "per GPU (from 'BATCH-SIZE', the global Keras batch "
			 "of a TensorFlow job)");
	smp_context_free(ctx);
}

Test(tune, other_names_per_gpu_and_configured_global)
{
	static const char *const global[] = {"global_batch_size"};
	struct smp_options opts = SMP_OPTIONS_INIT;
	struct smp_context *ctx = th_context(NULL), *gctx;
	struct probe p = {0};

	/* PyTorch's plain batch_size is per GPU */
	probe(ctx,
	      "estimator: PyTorch\n"
	      "instance_type: ml.p3.8xlarge\n"
	      "framework_version: \"1.13.1\"\n"
	      "hyperparameters: {train_batch_size: 32}\n",
	      &p);
	cr_assert_eq(p.read_rc, 0);
	cr_assert_eq(p.b.why, SMP_BATCH_WHY_DEFAULT);
	cr_assert(CLOSE(p.b.global, 128));
	/* a configured global name, written as a string */
	opts.global_batch_names.names = global;
	opts.global_batch_names.count = 1;
	gctx = th_context(&opts);
	probe(gctx,
	      "estimator: PyTorch\n"
	      "instance_type: ml.p3.16xlarge\n"
	      "framework_version: \"1.13.1\"\n"
	      "hyperparameters: {global_batch_size: \"256\"}\n",
	      &p);
	cr_assert_eq(p.read_rc, 0);
	cr_assert_eq(p.b.scope, SMP_BATCH_GLOBAL);
	cr_assert_eq(p.b.why, SMP_BATCH_WHY_GLOBAL_NAME);
	cr_assert(CLOSE(p.b.per_gpu, 32));
	/* no batch, a non-number, zero, no GPU count: nothing to read */
	probe(ctx, "estimator: PyTorch\ninstance_type: ml.p3.2xlarge\n", &p);
	cr_assert_eq(p.read_rc, -1);
	probe(ctx,
	      "estimator: PyTorch\ninstance_type: ml.p3.2xlarge\n"
	      "hyperparameters: {batch_size: many}\n",
	      &p);
	cr_assert_eq(p.read_rc, -1);
	probe(ctx,
	      "estimator: PyTorch\ninstance_type: ml.p3.2xlarge\n"
	      "hyperparameters: {batch_size: 0}\n",
	      &p);
	cr_assert_eq(p.read_rc, -1);
	probe(ctx,
	      "estimator: PyTorch\ninstance_type: ml.m5.xlarge\n"
	      "hyperparameters: {batch_size: 8}\n",
	      &p);
	cr_assert_eq(p.read_rc, -1);
	smp_context_free(gctx);
	smp_context_free(ctx);
}

Test(tune, exact_row_prefers_the_instance_count)
{
	struct smp_context *ctx = th_context(NULL);
	struct probe p = {0};

	/* HF 4.21.1 bert-base-uncased on p4d: rows for 2, 4, 8, 16 nodes */
	probe(ctx,
	      "estimator: HuggingFace\n"
	      "instance_type: ml.p4d.24xlarge\n"
	      "instance_count: 4\n"
	      "transformers_version: \"4.21\"\n"
	      "pytorch_version: \"1.11\"\n"
	      "hyperparameters: {model_name_or_path: bert-base-uncased,\n"
	      "  per_device_train_batch_size: 32}\n",
	      &p);
	cr_assert_eq(p.query_rc, 0);
	cr_assert_eq(p.pick.match, SMP_ROW_EXACT);
	cr_assert_eq(p.pick.row->instance_count, 4);
	cr_assert(p.pick.count_matched);
	cr_assert_eq(p.pick.row->compiler_batch_size, 64);
	cr_assert_str_eq(p.pick.row->framework_version, "1.11.0");
	/* 4 rows of 4.21.1 plus PyTorch 1.12.0's 52 on the same A100 */
	cr_assert_eq(p.pick.candidates, 5);
	cr_assert_eq(p.pick.exact_rows, 4);
	smp_context_free(ctx);
}

Test(tune, same_gpu_row_when_no_exact_row)
{
	struct smp_context *ctx = th_context(NULL);
	struct probe p = {0};
	char desc[256];

	/* no HF 4.21.1 bert row on ml.p3.2xlarge: the nearest version on
	 * the same V100 16 GiB is HF 4.17.0 / PyTorch 1.10.2 */
	probe(ctx,
	      HF_P3_2XL "hyperparameters: {model_name_or_path: "
			"Bert_Base_Uncased, per_device_train_batch_size: 8}\n",
	      &p);
	cr_assert_eq(p.query_rc, 0);
	cr_assert_eq(p.pick.match, SMP_ROW_SAME_GPU);
	cr_assert_str_eq(p.pick.row->framework_version, "1.10.2");
	cr_assert_str_eq(p.pick.row->instance_type, "ml.p3.2xlarge");
	cr_assert_eq(p.pick.row->compiler_batch_size, 24);
	cr_assert_eq(p.pick.candidates, 3);
	smp__tune_row_describe(desc, sizeof(desc), p.pick.row);
	cr_assert_str_eq(desc, "PyTorch 1.10.2, transformers 4.17.0, "
			       "ml.p3.2xlarge, sequence length 512, AMP");
	smp_context_free(ctx);
}

Test(tune, sequence_length_beats_the_exact_instance)
{
	struct smp_context *ctx = th_context(NULL);
	struct probe p = {0};

	/* PyTorch 1.13.1 bert: g5.4xlarge at 128 (288), g5.48xlarge at 512
	 * (50); a 512-token job on g5.4xlarge gets the 512 row */
	probe(ctx,
	      "estimator: PyTorch\n"
	      "instance_type: ml.g5.4xlarge\n"
	      "framework_version: \"1.13.1\"\n"
	      "compiler_config: {}\n"
	      "hyperparameters: {model_name: bert-base-uncased,\n"
	      "  per_device_train_batch_size: 16, max_seq_length: 512}\n",
	      &p);
	cr_assert_eq(p.pick.match, SMP_ROW_SAME_GPU);
	cr_assert_str_eq(p.pick.row->instance_type, "ml.g5.48xlarge");
	cr_assert_eq(p.pick.row->compiler_batch_size, 50);
	cr_assert(p.pick.seq_matched);
	cr_assert_eq(p.pick.exact_rows, 1);
	/* the largest batch at 512 tokens on an A10G is that same 50 */
	cr_assert_eq(p.pick.max->compiler_batch_size, 50);
	/* without a length the exact row wins */
	probe(ctx,
	      "estimator: PyTorch\n"
	      "instance_type: ml.g5.4xlarge\n"
	      "framework_version: \"1.13.1\"\n"
	      "hyperparameters: {model_name: bert-base-uncased,\n"
	      "  per_device_train_batch_size: 16}\n",
	      &p);
	cr_assert_eq(p.pick.match, SMP_ROW_EXACT);
	cr_assert_eq(p.pick.row->compiler_batch_size, 288);
	smp_context_free(ctx);
}

Test(tune, unknown_length_takes_the_smallest_batch)
{
	struct smp_context *ctx = th_context(NULL);
	struct probe p = {0};

	/* bert-base-uncased on A10G: 288 at 128 tokens (PyTorch 1.12.0 and
	 * 1.13.1), 50 at 512 (1.13.1); the spec gives no length */
	p.to = "ml.g5.2xlarge";
	probe(ctx,
	      HF_P3_2XL "hyperparameters: {model_name_or_path: "
			"bert-base-uncased, per_device_train_batch_size: 8}\n",
	      &p);
	cr_assert_eq(p.pick.match, SMP_ROW_SAME_GPU);
	cr_assert(p.pick.by_batch);
	cr_assert_eq(p.pick.candidates, 3);
	cr_assert_eq(p.pick.row->compiler_batch_size, 50);
	cr_assert_eq(p.pick.row->sequence_length, 512);
	cr_assert_eq(p.pick.max->compiler_batch_size, 288);
	smp_context_free(ctx);
}

Test(tune, vision_rows_of_tensorflow_are_per_instance)
{
	struct smp_context *ctx = th_context(NULL);
	struct probe p = {0};
	char text[128];

	probe(ctx,
	      "estimator: TensorFlow\n"
	      "instance_type: ml.p3.16xlarge\n"
	      "framework_version: \"2.9.1\"\n"
	      "hyperparameters: {model: ResNet152, batch_size: 384}\n",
	      &p);
	cr_assert_eq(p.pick.match, SMP_ROW_EXACT);
	cr_assert_eq(p.pick.row->compiler_batch_size, 1280);
	cr_assert(smp__tune_row_per_instance(&ctx->catalog, p.pick.row));
	/* 1280 / 8 GPUs = 160, the same as one GPU of ml.p3.2xlarge */
	cr_assert(CLOSE(smp__tune_row_batch(&ctx->catalog, p.pick.row), 160));
	smp__tune_row_batch_text(text, sizeof(text), &ctx->catalog, p.pick.row);
	cr_assert_str_eq(text,
			 "160 per GPU (1280 for the 8 GPUs of ml.p3.16xlarge)");
	/* moved to ml.p3.8xlarge (no row): the two 2.9.1 rows on V100
	 * 16 GiB tie at 160 per GPU */
	p.to = "ml.p3.8xlarge";
	probe(ctx,
	      "estimator: TensorFlow\n"
	      "instance_type: ml.p3.16xlarge\n"
	      "framework_version: \"2.9.1\"\n"
	      "hyperparameters: {model: ResNet152, batch_size: 384}\n",
	      &p);
	cr_assert_eq(p.pick.match, SMP_ROW_SAME_GPU);
	cr_assert_eq(p.pick.ties, 2);
	cr_assert(CLOSE(smp__tune_row_batch(&ctx->catalog, p.pick.row), 160));
	smp_context_free(ctx);
}

Test(tune, move_to_an_instance_with_and_without_a_row)
{
	struct smp_context *ctx = th_context(NULL);
	struct probe p = {0};

	/* distilgpt2 with HF 4.11 / PyTorch 1.9: rows on V100 only */
	static const char spec[] =
		"estimator: HuggingFace\n"
		"instance_type: ml.p3.2xlarge\n"
		"transformers_version: \"4.11.0\"\n"
		"pytorch_version: \"1.9.0\"\n"
		"hyperparameters: {model_name_or_path: distilgpt2,\n"
		"  per_device_train_batch_size: 8}\n";

	p.to = "ml.p3.8xlarge";
	probe(ctx, spec, &p);
	cr_assert_eq(p.pick.match, SMP_ROW_EXACT);
	cr_assert_eq(p.pick.row->compiler_batch_size, 32);
	/* ml.g4dn (T4): rows for HF 4.17.0 / 1.10.2 (14) and 4.21.1 /
	 * 1.11.0 (18); 1.10.2 is the nearer to 1.9.0 */
	p.to = "ml.g4dn.2xlarge";
	probe(ctx, spec, &p);
	cr_assert_eq(p.pick.match, SMP_ROW_SAME_GPU);
	cr_assert_str_eq(p.pick.row->framework_version, "1.10.2");
	cr_assert_eq(p.pick.row->compiler_batch_size, 14);
	/* ml.p3dn (V100 32 GiB): no row for distilgpt2 at all */
	p.to = "ml.p3dn.24xlarge";
	probe(ctx, spec, &p);
	cr_assert_eq(p.pick.match, SMP_ROW_NONE);
	cr_assert_null(p.pick.row);
	smp_context_free(ctx);
}

Test(tune, model_keys_and_untestable_models)
{
	struct smp_context *ctx = th_context(NULL);
	struct probe p = {0};

	cr_assert(smp__tune_model_tested(&ctx->catalog, "tensorflow",
					 "google-electra-small-discriminator"));
	cr_assert(smp__tune_model_tested(&ctx->catalog, "tensorflow",
					 "microsoft-mpnet-base"));
	cr_assert_not(smp__tune_model_tested(&ctx->catalog, "pytorch",
					     "microsoft-mpnet-base"));
	cr_assert_not(
		smp__tune_model_tested(&ctx->catalog, "pytorch", "my-model"));
	/* a path names no model of the table */
	probe(ctx,
	      HF_P3_2XL "hyperparameters: {model_name_or_path: /opt/ml/model,"
			" per_device_train_batch_size: 8}\n",
	      &p);
	cr_assert_eq(p.query_rc, -1);
	probe(ctx,
	      HF_P3_2XL "hyperparameters: {model_name_or_path: "
			"s3://bucket/model, per_device_train_batch_size: 8}\n",
	      &p);
	cr_assert_eq(p.query_rc, -1);
	smp_context_free(ctx);
}

/* ------------------------------------------------- a hand-made catalog */

static struct smp_instance instances[] = {
	{"ml.x.1", "x", 8, 61, 1, "G1", 16, 0, 10, 1},
	{"ml.x.4", "x", 32, 244, 4, "G1", 16, 0, 10, 1},
	{"ml.y.1", "y", 8, 61, 1, "G2", 24, 0, 10, 1},
};

/* the last column: 1 + the index of the row's instance, as the loader
 * sets it; row 3's is 0 (looked up by type) and row 4's is stale */
static struct smp_tested_model rows[] = {
	{"pytorch", "1.13.1", NULL, "m", "m", NULL, "ml.x.1", NULL, 128, NULL,
	 20, 40, 0, 0, 1},
	{"pytorch", "1.13.1", NULL, "m", "m", NULL, "ml.x.1", NULL, 512, NULL,
	 5, 10, 0, 0, 1},
	{"pytorch", "1.13.1", NULL, "m", "m", NULL, "ml.x.4", NULL, 512, NULL,
	 5, 12, 1, 0, 2},
	{"pytorch", "1.12.0", NULL, "m", "m", NULL, "ml.x.1", NULL, 128, NULL,
	 20, 30, 0, 0, 0},
	{"tensorflow", "2.10.0", NULL, "m", "m", NULL, "ml.x.1", NULL, 128,
	 NULL, 20, 99, 0, 0, 3},
};

static const struct smp_tested_model *const by_model[] = {
	&rows[0], &rows[1], &rows[2], &rows[3], &rows[4]};

static void
hand_catalog(struct smp_catalog *cat)
{
	memset(cat, 0, sizeof(*cat));
	cat->instances = instances;
	cat->instance_count = 3;
	cat->tested = rows;
	cat->tested_count = 5;
	/* one model, "m": the loader's index is the rows in file order */
	cat->tested_by_model = by_model;
}

static void
hand_query(struct smp_tune_query *q, const struct smp_catalog *cat,
	   const char *type, int seq)
{
	memset(q, 0, sizeof(*q));
	q->estimator = SMP_EST_PYTORCH;
	q->framework = "pytorch";
	q->framework_version = "1.13.1";
	q->model_key = "m";
	q->instance = smp__catalog_instance(cat, type);
	q->sequence_length = seq;
	q->instance_count = 1;
}

Test(tune, row_instance_by_slot_or_by_type)
{
	struct smp_catalog cat;
	struct smp_tune_query q;

	hand_catalog(&cat);
	cr_assert_eq(smp__catalog_row_instance(&cat, &rows[0]), &instances[0]);
	cr_assert_eq(smp__catalog_row_instance(&cat, &rows[2]), &instances[1]);
	/* no slot, and a slot naming another type: the type decides */
	cr_assert_eq(smp__catalog_row_instance(&cat, &rows[3]), &instances[0]);
	cr_assert_eq(smp__catalog_row_instance(&cat, &rows[4]), &instances[0]);
	/* a slot past the table (a smaller catalog) */
	cat.instance_count = 1;
	cr_assert_null(smp__catalog_row_instance(&cat, &rows[2]));
	hand_catalog(&cat);
	/* the rows looked up once give what a lookup each time gives */
	hand_query(&q, &cat, "ml.x.1", 0);
	cr_assert_eq(smp__tune_query_tested(&q, &cat, "tensorflow"), 1);
	smp__tune_query_rows(&q, &cat);
	cr_assert_eq(q.row_count, 5);
	cr_assert_eq(q.rows, by_model);
	cr_assert_eq(smp__tune_query_tested(&q, &cat, "pytorch"), 1);
	cr_assert_eq(smp__tune_query_tested(&q, &cat, "mxnet"), 0);
	cr_assert_eq(smp__tune_query_tested(&q, &cat, NULL), 1);
	q.model_key = "none";
	smp__tune_query_rows(&q, &cat);
	cr_assert_eq(q.row_count, 0);
	cr_assert_eq(smp__tune_query_tested(&q, &cat, NULL), 0);
}

Test(tune, ties_go_to_the_smallest_batch)
{
	struct smp_catalog cat;
	struct smp_tune_query q;
	struct smp_row_pick pick;

	hand_catalog(&cat);
	hand_query(&q, &cat, "ml.x.1", 0);
	smp__tune_pick(&pick, &cat, &q);
	cr_assert_eq(pick.match, SMP_ROW_EXACT);
	cr_assert_eq(pick.row, &rows[1], "the 10 of the two exact rows");
	cr_assert(pick.by_batch, "rows of 128 and 512 tokens, none asked");
	cr_assert_eq(pick.ties, 1);
	cr_assert_eq(pick.candidates, 4, "the TensorFlow row is not one");
	cr_assert_eq(pick.max, &rows[0]);
}

Test(tune, lower_bound_row_is_the_maximum)
{
	struct smp_catalog cat;
	struct smp_tune_query q;
	struct smp_row_pick pick;

	hand_catalog(&cat);
	hand_query(&q, &cat, "ml.x.1", 512);
	smp__tune_pick(&pick, &cat, &q);
	cr_assert_eq(pick.row, &rows[1]);
	cr_assert(pick.seq_matched);
	/* at 512 tokens the largest is the lower-bound 12 of ml.x.4 */
	cr_assert_eq(pick.max, &rows[2]);
	cr_assert(pick.max->batch_size_is_lower_bound);
}

Test(tune, same_gpu_prefers_the_job_version)
{
	struct smp_catalog cat;
	struct smp_tune_query q;
	struct smp_row_pick pick;

	hand_catalog(&cat);
	hand_query(&q, &cat, "ml.x.4", 128);
	smp__tune_pick(&pick, &cat, &q);
	cr_assert_eq(pick.match, SMP_ROW_SAME_GPU);
	cr_assert_eq(pick.row, &rows[0], "1.13.1 at 128 over 1.12.0");
	cr_assert_eq(pick.exact_rows, 1);
	cr_assert_eq(pick.max, &rows[0]);
	/* another GPU: nothing applies */
	hand_query(&q, &cat, "ml.y.1", 0);
	smp__tune_pick(&pick, &cat, &q);
	cr_assert_eq(pick.match, SMP_ROW_NONE);
	cr_assert_null(pick.row);
	cr_assert_null(pick.max);
	cr_assert_eq(pick.candidates, 0);
}
