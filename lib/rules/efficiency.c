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

/* The pair of hyperparameter name (any spelling), or NULL. */
static const struct smp_pair *
hp_pair(const struct smp_job *job, const char *name)
{
	const struct smp_node *hp = job->hyperparameters;
	size_t i, n = strlen(name);

	if (!hp)
		return NULL;
	/* equal names have equal lengths: most keys end at that test */
	for (i = hp->u.mapping.count; i-- > 0;) {
		const struct smp_node *k = hp->u.mapping.items[i].key;

		if (k->kind == SMP_NODE_SCALAR && k->u.scalar.len == n &&
		    smp__name_eq(k->u.scalar.value, n, name))
			return &hp->u.mapping.items[i];
	}
	return NULL;
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
check_padding(const struct smp_check *c)
{
	const struct smp_pair *p = hp_pair(c->job, "padding");
	const struct smp_pair *m = hp_pair(c->job, "pad_to_max_length");
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
check_workers(const struct smp_check *c)
{
	const struct smp_pair *p = hp_pair(c->job, "preprocessing_num_workers");
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
check_short_run(const struct smp_check *c)
{
	const struct smp_pair *p = hp_pair(c->job, "max_steps");
	const struct smp_pair *e = hp_pair(c->job, "num_train_epochs");
	struct smp_finding *f;
	double v;

	if (!e)
		e = hp_pair(c->job, "epochs");
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
check_logging(const struct smp_check *c)
{
	static const char *const names[] = {"logging_steps", "eval_steps",
					    "save_steps"};
	struct smp_finding *f;
	size_t i;
	double v;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct smp_pair *p = hp_pair(c->job, names[i]);

		if (!p || smp__node_number(p->value, &v) || v < 1 || v > 9)
			continue;
		f = smp__report_node(c->rep, SMP_RULE_LOGGING_TOO_FREQUENT,
				     p->value,
				     "'%s' is %g; every log, evaluation or "
				     "checkpoint forces the compiler to "
				     "evaluate tensors explicitly and breaks "
				     "its fused graphs",
				     names[i], v);
		smp__finding_fix(c->rep, f, "set '%s' to 10 or more (e.g. 100)",
				 names[i]);
	}
}

void
smp__rules_efficiency(const struct smp_check *c)
{
	/* the user's hyperparameters: the SDK's sagemaker_* ones a request
	 * carries say nothing about the training script */
	if (!c->job->compiler || !c->job->user_hyperparameters)
		return;
	check_padding(c);
	check_workers(c);
	check_short_run(c);
	check_logging(c);
}
