/*
 * diagnose_tuning.c - a tuning job for a compiled job that does not
 * converge like its native run (the troubleshooting guide: when retuning
 * the batch size and the learning rate for the compiler breaks
 * convergence, use Automatic Model Tuning). The ranges: the learning rate
 * between the native one scaled by sqrt(k) and by k (the two rules of the
 * best-practices guide, k the change of the global batch), the batch sizes
 * that are known to fit (the native one, the tested-models row's when it
 * is below the compiled one, the compiled one, which ran); the objective
 * the metric that came out worse. diagnose_output.c writes it as a
 * HyperparameterTuner snippet (SageMaker Python SDK, sagemaker.tuner) and
 * a CreateHyperParameterTuningJob request.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "advise/diagnose.h"
#include "advise/baseline.h"
#include "tune/tune.h"
#include "context/context.h"

/* The Regex of metric name in the job's MetricDefinitions, or NULL. */
static const char *
metric_regex(const struct smp_node *root, const char *name)
{
	const struct smp_node *defs =
		smp__map_get(smp__map_get(root, "AlgorithmSpecification"),
			     "MetricDefinitions");
	size_t i;

	if (!defs || defs->kind != SMP_NODE_SEQUENCE)
		return NULL;
	for (i = 0; i < defs->u.sequence.count; i++) {
		const struct smp_node *d = defs->u.sequence.items[i];
		const char *n = smp__diag_member(d, "Name");

		if (n && strcmp(n, name) == 0)
			return smp__diag_member(d, "Regex");
	}
	return NULL;
}

static void
add_batch(struct smp__diag_tuning *t, double v)
{
	size_t i, j;

	if (v < 1 || v != floor(v) || t->nbatches >= SMP__TUNING_BATCHES)
		return;
	for (i = 0; i < t->nbatches && t->batches[i] < v; i++)
		;
	if (i < t->nbatches && t->batches[i] == v)
		return;
	for (j = t->nbatches; j > i; j--)
		t->batches[j] = t->batches[j - 1];
	t->batches[i] = v;
	t->nbatches++;
}

void
smp__diag_tuning(struct smp_diagnosis_build *b)
{
	struct smp__diag_tuning *t = &b->tuning;
	const struct smp_settings *s = &b->ctx->settings;
	const struct smp_job *base;
	const struct smp_instance *bi;
	struct smp_batch_reading r0, r1;
	struct smp__diag_tested tested;
	const struct smp_pair *l0, *l1;
	double lr0, k, lin, sq;

	memset(t, 0, sizeof(*t));
	if (!b->baseline || b->situations[1].verdict != SMP_VERDICT_YES)
		return;
	t->wanted = 1;
	base = smp__baseline_job(b->baseline);
	bi = smp__baseline_instance(b->baseline);
	if (!b->worse_metric) {
		t->why = "no loss or accuracy metric came out worse to tune "
			 "for";
		return;
	}
	t->metric = b->worse_metric;
	t->objective = b->worse_dir < 0 ? "Minimize" : "Maximize";
	t->regex = metric_regex(b->job.root, t->metric);
	if (!t->regex) {
		t->why = smp__diag_printf(b,
					  "the response's MetricDefinitions "
					  "give no Regex for '%s', which a "
					  "tuning job needs for its objective",
					  t->metric);
		return;
	}
	if (!bi || !b->instance ||
	    smp__batch_read(&r0, s, base, bi->gpus) != 0 ||
	    smp__batch_read(&r1, s, &b->job, b->instance->gpus) != 0 ||
	    r0.scope != SMP_BATCH_PER_GPU || r1.scope != SMP_BATCH_PER_GPU) {
		t->why = "the per-GPU batch size of one of the jobs is not in "
			 "its hyperparameters";
		return;
	}
	l0 = smp__hparam(s, base->hyperparameters, SMP_HP_LEARNING_RATE);
	l1 = smp__hparam(s, b->job.hyperparameters, SMP_HP_LEARNING_RATE);
	if (!l0 || !l1 || smp__node_number(l0->value, &lr0) || lr0 <= 0) {
		t->why = "the learning rate is not in both jobs' "
			 "hyperparameters";
		return;
	}
	t->lr_name = smp__node_text(l1->key);
	t->batch_name = smp__batch_key(&r1);
	k = r1.global / r0.global;
	lin = smp__tune_lr(lr0, k, SMP_LR_SCALING_LINEAR);
	sq = smp__tune_lr(lr0, k, SMP_LR_SCALING_SQRT);
	t->lr_min = lin < sq ? lin : sq;
	t->lr_max = lin < sq ? sq : lin;
	t->k = k;
	t->lr0 = lr0;
	if (t->lr_max < t->lr_min * 1.01) {
		/* k = 1: both rules give the native rate; search below it,
		 * where a rate too aggressive for the compiled model is not */
		t->lr_min = t->lr_max / 2;
	}
	add_batch(t, r0.per_gpu);
	if (smp__diag_tested(b, &tested) == 0 && tested.row_batch < r1.per_gpu)
		add_batch(t, tested.row_batch);
	add_batch(t, r1.per_gpu);
	t->ok = 1;
}
