/*
 * efficiency.c - hyperparameters that make a compiled job slower
 * than it should be (the best-practice guide): dynamic shapes, slow
 * preprocessing, runs too short to amortize compilation, and frequent
 * explicit evaluations.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "rules/rules.h"
#include "script/script.h"
#include "util/fmt.h"
#include "util/text.h"

/* The hyperparameters these rules read, looked up in one pass. */
enum hp {
	HP_PADDING,
	HP_PAD_TO_MAX_LENGTH,
	HP_PREPROCESSING_WORKERS,
	HP_MAX_STEPS,
	HP_NUM_TRAIN_EPOCHS,
	HP_EPOCHS,
	HP_LOGGING_STEPS, /* the three of check_logging(), in order */
	HP_EVAL_STEPS,
	HP_SAVE_STEPS,
	HP_COUNT
};

static const struct smp_name hp_names[HP_COUNT] = {
	[HP_PADDING] = SMP_NAME("padding"),
	[HP_PAD_TO_MAX_LENGTH] = SMP_NAME("pad_to_max_length"),
	[HP_PREPROCESSING_WORKERS] = SMP_NAME("preprocessing_num_workers"),
	[HP_MAX_STEPS] = SMP_NAME("max_steps"),
	[HP_NUM_TRAIN_EPOCHS] = SMP_NAME("num_train_epochs"),
	[HP_EPOCHS] = SMP_NAME("epochs"),
	[HP_LOGGING_STEPS] = SMP_NAME("logging_steps"),
	[HP_EVAL_STEPS] = SMP_NAME("eval_steps"),
	[HP_SAVE_STEPS] = SMP_NAME("save_steps"),
};

/* The pair of each name of hp_names (any spelling; the last of equal
 * names wins), or NULL: one pass over the hyperparameters, not one per
 * name. */
static void
hp_pairs(const struct smp_pair *out[HP_COUNT], const struct smp_job *job)
{
	const struct smp_node *hp = job->hyperparameters;
	size_t i, k;

	for (k = 0; k < HP_COUNT; k++)
		out[k] = NULL;
	if (!hp)
		return;
	/* equal names have equal lengths: most keys end at that test */
	for (i = hp->u.mapping.count; i-- > 0;) {
		const struct smp_node *key = hp->u.mapping.items[i].key;

		if (key->kind != SMP_NODE_SCALAR)
			continue;
		for (k = 0; k < HP_COUNT; k++)
			if (!out[k] && key->u.scalar.len == hp_names[k].len &&
			    smp__name_eq(key->u.scalar.value, hp_names[k].len,
					 hp_names[k].name))
				out[k] = &hp->u.mapping.items[i];
	}
}

/* A boolean hyperparameter: true/false, or "true"/"False" as strings. */
static int
hp_bool(const struct smp_node *v)
{
	const char *s = smp__node_text(v);
	int b = smp__scalar_bool(v);

	if (b >= 0)
		return b;
	if (s && strcasecmp(s, "true") == 0)
		return 1;
	if (s && strcasecmp(s, "false") == 0)
		return 0;
	return -1;
}

/* padding='longest' / True, pad_to_max_length false (seed; D9). */
static void
check_padding(const struct smp_check *c, const struct smp_pair *const *hps)
{
	const struct smp_pair *p = hps[HP_PADDING];
	const struct smp_pair *m = hps[HP_PAD_TO_MAX_LENGTH];
	struct smp_finding *f;

	if (p &&
	    (smp__scalar_is(p->value, "longest") || hp_bool(p->value) == 1)) {
		f = smp__report_node(c->rep, SMP_RULE_PADDING_DYNAMIC, p->value,
				     "padding '%s' gives every batch its own "
				     "shape, and each new shape recompiles "
				     "the graph",
				     smp__node_text(p->value));
		smp__finding_fix(c->rep, f,
				 "pad to a fixed length: 'padding: "
				 "max_length' and a 'max_length'");
		smp__finding_suggest(c->rep, f, SMP_VALUE_STRING, "max_length");
	}
	if (m && hp_bool(m->value) == 0) {
		f = smp__report_node(c->rep, SMP_RULE_PADDING_DYNAMIC, m->value,
				     "'pad_to_max_length' is false, so batches "
				     "are padded dynamically and each new "
				     "shape recompiles the graph");
		smp__finding_fix(c->rep, f, "set 'pad_to_max_length: true'");
		smp__finding_suggest(
			c->rep, f,
			smp__value_type_like(m->value, SMP_VALUE_BOOLEAN),
			"true");
	}
}

/* preprocessing_num_workers near the vCPUs (seed, PyTorch practices). */
static void
check_workers(const struct smp_check *c, const struct smp_pair *const *hps)
{
	const struct smp_pair *p = hps[HP_PREPROCESSING_WORKERS];
	const struct smp_instance *it = c->instance;
	struct smp_finding *f;
	char want[16];
	double v;

	if (!it || it->vcpus < 2 || !smp__job_is_pytorch(c->job))
		return;
	smp__fmt(want, sizeof(want), "%d", it->vcpus);
	if (!p) {
		/* SageMaker passes it as --preprocessing_num_workers, and
		 * parse_args() exits on an option the script lacks: only a
		 * script read and known to take it gets the suggestion */
		if (!c->job->script ||
		    c->job->script->status != SMP_SCRIPT_SCANNED ||
		    !c->job->script->accepts_preprocessing_workers)
			return;
		f = smp__report_node(
			c->rep, SMP_RULE_PREPROCESSING_WORKERS,
			c->job->hyperparameters
				? smp__job_key_of(c->job,
						  c->job->hyperparameters)
				: c->job->instance_type,
			"'preprocessing_num_workers' is not set; "
			"dataset preprocessing runs in one "
			"process although '%s' has %d vCPUs and "
			"the entry script takes "
			"--preprocessing_num_workers",
			it->type, it->vcpus);
	} else if (smp__node_number(p->value, &v) == 0 && v >= 0 &&
		   v < it->vcpus / 2.0) {
		f = smp__report_node(c->rep, SMP_RULE_PREPROCESSING_WORKERS,
				     p->value,
				     "'preprocessing_num_workers' is %g, far "
				     "below the %d vCPUs of '%s'; slow "
				     "preprocessing delays training",
				     v, it->vcpus, it->type);
	} else {
		return;
	}
	smp__finding_fix(c->rep, f, "set 'preprocessing_num_workers: %s'",
			 want);
	if (p)
		smp__finding_suggest(
			c->rep, f,
			smp__value_type_like(p->value, SMP_VALUE_NUMBER), want);
	else if (c->job->hyperparameters)
		/* the finding is at the hyperparameters' key: one below */
		smp__finding_suggest_child(
			c->rep, f, "preprocessing_num_workers",
			c->job->hyperparameters_are_strings ? SMP_VALUE_STRING
							    : SMP_VALUE_NUMBER,
			want);
}

/* The first steps compile the graph (seed: compilation overhead). */
static void
check_short_run(const struct smp_check *c, const struct smp_pair *const *hps)
{
	const struct smp_pair *p = hps[HP_MAX_STEPS];
	const struct smp_pair *e = hps[HP_NUM_TRAIN_EPOCHS];
	struct smp_finding *f;
	double v;

	if (!e)
		e = hps[HP_EPOCHS];
	if (p && smp__node_number(p->value, &v) == 0 && v > 0 &&
	    v < (double)c->settings->short_run_steps) {
		f = smp__report_node(c->rep, SMP_RULE_SHORT_RUN, p->value,
				     "'max_steps' is %g; the first steps "
				     "compile the graph, so a run shorter "
				     "than %ld steps cannot amortize it",
				     v, c->settings->short_run_steps);
		smp__finding_fix(c->rep, f,
				 "train for more steps, or compare speed "
				 "only on longer runs");
	} else if (!p && e && smp__node_number(e->value, &v) == 0 && v > 0 &&
		   v < 1) {
		f = smp__report_node(c->rep, SMP_RULE_SHORT_RUN, e->value,
				     "the run lasts %g of an epoch; the "
				     "first steps compile the graph, so a "
				     "run this short cannot amortize it",
				     v);
		smp__finding_fix(c->rep, f, "train for at least one epoch");
	}
}

/* Logging or evaluating every 1-9 steps forces explicit evaluations. */
static void
check_logging(const struct smp_check *c, const struct smp_pair *const *hps)
{
	struct smp_finding *f;
	size_t i;
	double v;

	for (i = HP_LOGGING_STEPS; i <= HP_SAVE_STEPS; i++) {
		const struct smp_pair *p = hps[i];

		if (!p || smp__node_number(p->value, &v) || v < 1 || v > 9)
			continue;
		f = smp__report_node(c->rep, SMP_RULE_LOGGING_TOO_FREQUENT,
				     p->value,
				     "'%s' is %g; every log, evaluation or "
				     "checkpoint forces the compiler to "
				     "evaluate tensors explicitly and breaks "
				     "its fused graphs",
				     hp_names[i].name, v);
		smp__finding_fix(c->rep, f, "set '%s' to 10 or more (e.g. 100)",
				 hp_names[i].name);
	}
}

void
smp__rules_efficiency(const struct smp_check *c)
{
	/* the user's hyperparameters: the SDK's sagemaker_* ones a request
	 * carries say nothing about the training script */
	const struct smp_pair *hps[HP_COUNT];

	if (!c->job->compiler || !c->job->user_hyperparameters)
		return;
	hp_pairs(hps, c->job);
	check_padding(c, hps);
	check_workers(c, hps);
	check_short_run(c, hps);
	check_logging(c, hps);
}
