/*
 * diagnose_refine.c - the causes fitted to what the job already has: a
 * signature's advice is the fix for its usual cause, and when the
 * response shows that fix in place (or the situation the advice assumes
 * is not this job's), the cause is said to be ruled out and the next
 * suspects are named instead. What public failure reports showed:
 *   - `Missing XLA configuration` in a job without the compiler: torch_xla
 *     is installed and transformers or Lightning take the machine for a
 *     TPU (huggingface/transformers issue 17752);
 *   - the same error with GPU_NUM_DEVICES already right: something in the
 *     script, a launcher or the image undoes it;
 *   - out of memory at a batch the tested-models table lists: the row did
 *     not hold, go down from what failed;
 *   - a host out-of-memory kill with data-loader workers near the vCPU
 *     count (aws-samples/amazon-textract-transformer-pipeline pull
 *     request 14);
 *   - NaN at the native run's batch and learning rate.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "advise/diagnose.h"
#include "advise/baseline.h"
#include "tune/tune.h"
#include "context/context.h"

#define HF_TPU_ISSUE "https://github.com/huggingface/transformers/issues/17752"
#define HF_TPU_TITLE                                                           \
	"`Trainer` has a weird way of determining whether a TPU device is "    \
	"present"
#define SMTC_WORKERS_PR                                                        \
	"https://github.com/aws-samples/amazon-textract-transformer-pipeline/" \
	"pull/14"

/* 1 when Environment configures XLA itself (XLA_*, XRT_*, PJRT_DEVICE). */
static int
env_configures_xla(const struct smp_node *env)
{
	size_t i;

	if (!env || env->kind != SMP_NODE_MAPPING)
		return 0;
	for (i = 0; i < env->u.mapping.count; i++) {
		const char *k = smp__node_text(env->u.mapping.items[i].key);

		if (k &&
		    (strncmp(k, "XLA_", 4) == 0 || strncmp(k, "XRT_", 4) == 0 ||
		     strcmp(k, "PJRT_DEVICE") == 0))
			return 1;
	}
	return 0;
}

static void
missing_xla(struct smp_diagnosis_build *b, struct smp_diagnosis_cause *c)
{
	const struct smp_job *j = &b->job;
	const char *env = smp__node_text(j->gpu_num_devices);
	const char *inst =
		b->pub.instance_type ? b->pub.instance_type : "the instance";
	const char *image_note;
	char want[16];

	/* a job that never meant to use XLA: neither the compiler, nor its
	 * flag, nor pytorchxla, nor XLA's own variables in Environment */
	if (!j->compiler && !j->compiler_flag && !env &&
	    !j->pytorchxla_enabled && !env_configures_xla(j->environment)) {
		c->summary = "torch_xla is installed in a job that does not "
			     "use Training Compiler: transformers (Trainer, "
			     "TrainingArguments) or PyTorch Lightning see the "
			     "package, take the machine for a TPU, and "
			     "PyTorch/XLA finds no TPU configuration";
		c->advice = "remove torch_xla from the image or from "
			    "requirements.txt (the job does not need it "
			    "without the compiler), or keep the library from "
			    "using it: recent transformers releases skip it "
			    "with environment={\"USE_TORCH_XLA\": \"0\"}; do "
			    "not set GPU_NUM_DEVICES: the job does not run on "
			    "XLA";
		c->page = HF_TPU_ISSUE;
		c->section = HF_TPU_TITLE;
		return;
	}
	if (b->pub.gpus <= 0)
		return;
	snprintf(want, sizeof(want), "%d", b->pub.gpus);
	image_note = j->image && !j->image_trcomp
			     ? "the image is not one of AWS's Training "
			       "Compiler images, so first suspect its "
			       "torch_xla: a build without GPU support (the "
			       "TPU or CPU wheel) finds no GPU configuration "
			       "whatever GPU_NUM_DEVICES says; "
			     : "";
	if (j->pytorchxla_enabled &&
	    j->gpu_devices_from == SMP_GPU_DEVICES_CONTAINER) {
		c->summary = "PyTorch/XLA found no device configuration "
			     "although the pytorchxla distribution sets "
			     "GPU_NUM_DEVICES for every worker: the guide's "
			     "cause is ruled out";
	} else if (env && strcmp(env, want) == 0) {
		c->summary = smp__diag_printf(
			b,
			"PyTorch/XLA found no device configuration although "
			"Environment sets GPU_NUM_DEVICES to \"%s\", the GPU "
			"count of one %s: the guide's cause is ruled out",
			env, inst);
	} else {
		return;
	}
	c->advice = smp__diag_printf(
		b,
		"%slook for what undoes the setting before torch_xla starts: "
		"the entry script or a launcher that sets or deletes "
		"os.environ[\"GPU_NUM_DEVICES\"], a notebook %%env cell%s; "
		"printing os.environ.get(\"GPU_NUM_DEVICES\") first thing in "
		"the script tells which",
		image_note,
		*image_note ? ""
			    : ", or a torch_xla built without GPU support "
			      "installed over the image's by requirements.txt");
}

/* The batch hyperparameter's text, for messages. */
static void
batch_text(struct smp_diagnosis_build *b, char *out, size_t size)
{
	struct smp_batch_reading r;

	if (b->instance && smp__batch_read(&r, &b->ctx->settings, &b->job,
					   b->instance->gpus) == 0)
		smp__batch_describe(out, size, &r);
	else
		snprintf(out, size, "the batch size");
}

static void
oom(struct smp_diagnosis_build *b, struct smp_diagnosis_cause *c)
{
	struct smp__diag_tested t;
	char batch[300], rb[32], lower_b[32];

	if (smp__diag_tested(b, &t) != 0)
		return;
	batch_text(b, batch, sizeof(batch));
	smp__tune_number(rb, sizeof(rb), t.row_batch);
	if (t.batch.per_gpu <= t.row_batch) {
		smp__tune_number(lower_b, sizeof(lower_b),
				 floor(t.batch.per_gpu * 0.75));
		c->summary = smp__diag_printf(
			b,
			"the GPU ran out of memory at a batch the "
			"tested-models table lists as fitting: %s is at or "
			"below the %s per GPU tested %s, so the table's row "
			"did not hold for this job",
			batch, rb, t.row_text);
		c->advice = smp__diag_printf(
			b,
			"go down from what failed, never up: try %s per GPU "
			"(three quarters of it) and scale the learning rate "
			"by the same factor; look for what this job has that "
			"the tested run had not (a longer sequence, a larger "
			"model variant, no AMP, a bigger evaluation batch)",
			lower_b);
		return;
	}
	c->advice = smp__diag_printf(
		b,
		"go down from what failed (%s) to the %s per GPU the "
		"tested-models table lists %s, and scale the learning rate by "
		"the same factor; never raise the batch after an out-of-memory "
		"failure",
		batch, rb, t.row_text);
}

static void
host_oom(struct smp_diagnosis_build *b, struct smp_diagnosis_cause *c)
{
	static const char *const names[] = {"dataloader_num_workers",
					    "preprocessing_num_workers",
					    "num_workers"};
	const struct smp_node *hp = b->job.hyperparameters;
	char facts[256] = "";
	size_t i, n = 0;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *v = smp__node_text(smp__map_get(hp, names[i]));

		if (v && n < sizeof(facts))
			n += (size_t)snprintf(facts + n, sizeof(facts) - n,
					      "%s'%s' is %s", n ? ", " : "",
					      names[i], v);
	}
	if (!n)
		return;
	c->advice = smp__diag_printf(
		b,
		"%s on a %s with %d vCPUs: each worker holds its own copy of "
		"the data and the compiler needs host memory of its own, so "
		"take half the vCPUs or fewer (a public report of this failure "
		"under the compiler: %s), or an instance with more memory",
		facts, b->pub.instance_type ? b->pub.instance_type : "instance",
		b->instance ? b->instance->vcpus : 0, SMTC_WORKERS_PR);
}

/* 1 when the job and the baseline train with the same batch and learning
 * rate. */
static int
native_batch_and_lr(struct smp_diagnosis_build *b, const char **lr)
{
	const struct smp_settings *s = &b->ctx->settings;
	const struct smp_job *base;
	const struct smp_pair *l0, *l1, *b0, *b1;

	if (!b->baseline)
		return 0;
	base = smp__baseline_job(b->baseline);
	l0 = smp__hparam(s, base->hyperparameters, SMP_HP_LEARNING_RATE);
	l1 = smp__hparam(s, b->job.hyperparameters, SMP_HP_LEARNING_RATE);
	b0 = smp__hparam(s, base->hyperparameters, SMP_HP_BATCH_SIZE);
	b1 = smp__hparam(s, b->job.hyperparameters, SMP_HP_BATCH_SIZE);
	if (!l0 || !l1 || !b0 || !b1 || !smp__node_text(l1->value))
		return 0;
	*lr = smp__node_text(l1->value);
	return smp__node_text(l0->value) && smp__node_text(b0->value) &&
	       smp__node_text(b1->value) &&
	       strcmp(smp__node_text(l0->value), *lr) == 0 &&
	       strcmp(smp__node_text(b0->value), smp__node_text(b1->value)) ==
		       0;
}

static void
nan_loss(struct smp_diagnosis_build *b, struct smp_diagnosis_cause *c)
{
	const char *lr = NULL;
	char half[32];
	double v;

	if (!b->job.compiler || !native_batch_and_lr(b, &lr))
		return;
	if (smp__node_number(smp__hparam(&b->ctx->settings,
					 b->job.hyperparameters,
					 SMP_HP_LEARNING_RATE)
				     ->value,
			     &v) == 0)
		smp__tune_number(half, sizeof(half), v / 2);
	else
		snprintf(half, sizeof(half), "half of %s", lr);
	c->summary = "the training loss became NaN at the native run's "
		     "batch size and learning rate";
	c->advice = smp__diag_printf(
		b,
		"the guide names two causes: hyperparameters too aggressive "
		"for the compiled model, and torch_xla API use. First run the "
		"two jobs side by side at a lower learning rate (%s): "
		"if only the compiled one still diverges, check xm.mark_step() "
		"after every update and before logging, and the AMP order "
		"(scale and backward, unscale, clip, step, update)",
		half);
}

void
smp__diag_refine(struct smp_diagnosis_build *b)
{
	size_t i;

	for (i = 0; i < b->pub.cause_count; i++) {
		struct smp_diagnosis_cause *c = &b->causes[i];

		if (strcmp(c->id, "missing-xla-configuration") == 0)
			missing_xla(b, c);
		else if (strcmp(c->id, "out-of-memory") == 0)
			oom(b, c);
		else if (strcmp(c->id, "host-out-of-memory") == 0)
			host_oom(b, c);
		else if (strcmp(c->id, "nan-loss") == 0)
			nan_loss(b, c);
	}
}
