/*
 * baseline_rules.c - learning-rate-not-scaled and baseline-drift: a
 * compiled job against the native run it replaces. The troubleshooting
 * guide asks for the two to differ only in the compiler, the batch size
 * and the learning rate; then a change in convergence is the compiler's.
 * The baseline comes from --baseline (advise/baseline.c) or, in a
 * launcher or notebook holding both jobs, from the file itself
 * (check_source.c).
 *
 * learning-rate-not-scaled: the global batch changed by k (per-GPU batch
 * x GPUs x instances, each side read as tune.c reads it) but the learning
 * rate by neither k nor sqrt(k), within 5%; also when the compiled job
 * drops a learning rate the baseline sets, or when neither sets one (both
 * then train with the script's default) although k is not 1.
 *
 * baseline-drift: anything else that changes the training: every
 * hyperparameter except the batch-size, global-batch and learning-rate
 * names, sagemaker_* flags (the compiler's own), training_script (the
 * launcher route moves the script there), n_gpus (a GPU_NUM_DEVICES
 * route) and the others that do not change what is learned
 * (smp__hparam_inert: the evaluation batch, logging, checkpoint and
 * output settings, the data-loader workers); the instance type and count (they
 * change the global batch and the hardware); the estimator class and framework
 * / transformers versions. Not compared: entry point, source dir, environment,
 * distribution, debugger/profiler, compiler settings and image, which
 * legitimately differ between a native and a compiled job.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "rules/check.h"
#include "context/context.h"
#include "tune/tune.h"
#include "job/effective.h"

/* Learning rate of a job: 1 and *v when set to a positive number. */
static int
job_lr(const struct smp_settings *s, const struct smp_job *job,
       const struct smp_pair **pair, double *v)
{
	*pair = smp__hparam(s, job->hyperparameters, SMP_HP_LEARNING_RATE);
	return *pair && smp__node_number((*pair)->value, v) == 0 && *v > 0 &&
	       isfinite(*v);
}

/* 1 when lo <= v <= hi, with the tolerance smp__tune_lr_follows has. */
static int
in_range(double v, double lo, double hi)
{
	return (v >= lo || smp__tune_lr_follows(v / lo, 1)) &&
	       (v <= hi || smp__tune_lr_follows(v / hi, 1));
}

/*
 * A tuned learning rate: right when its range holds the baseline's rate
 * scaled by k or by sqrt(k), so the search can find it.
 */
static void
tuned_learning_rate(const struct smp_base *b, const struct smp_check *c,
		    const struct smp_hp_range *rg, const struct smp_pair *l1,
		    double x0, double k, int have0)
{
	char kt[32], lin[48], sq[48], v0[32];
	struct smp_finding *f;

	if (!have0 || !(rg->min > 0) || in_range(x0 * k, rg->min, rg->max) ||
	    in_range(x0 * sqrt(k), rg->min, rg->max))
		return;
	smp__tune_number(kt, sizeof(kt), k);
	smp__tune_number(v0, sizeof(v0), x0);
	smp__tune_number(lin, sizeof(lin), x0 * k);
	smp__tune_number(sq, sizeof(sq), x0 * sqrt(k));
	f = smp__report_node(c->rep, SMP_RULE_LEARNING_RATE_NOT_SCALED,
			     rg->name,
			     "the tuned range %s to %s of '%s' holds neither "
			     "the baseline '%s' rate %s scaled by k = %s (%s) "
			     "nor by sqrt(k) (%s)",
			     smp__node_text(rg->lo), smp__node_text(rg->hi),
			     l1->key->u.scalar.value, b->name, v0, kt, lin, sq);
	smp__finding_fix(c->rep, f,
			 "search '%s' over a range from %s to %s (sqrt(k) and "
			 "k scaling as its two ends)",
			 l1->key->u.scalar.value, k >= 1 ? sq : lin,
			 k >= 1 ? lin : sq);
}

static void
check_learning_rate(const struct smp_base *b, const struct smp_check *c)
{
	const struct smp_settings *s = c->settings;
	struct smp_batch_reading r0, r1;
	const struct smp_pair *l0, *l1;
	char kt[32], g0[32], g1[32], v0[32], v1[32], lin[48], sq[48];
	char rd[300];
	const char *sugg;
	struct smp_finding *f;
	const struct smp_hp_range *rg;
	double x0 = 0, x1 = 0, k;
	int have0, have1;

	if (!b->instance || !c->instance ||
	    smp__batch_read(&r0, s, b->job, b->instance->gpus) != 0 ||
	    smp__batch_read(&r1, s, c->job, c->instance->gpus) != 0)
		return;
	k = r1.global / r0.global;
	have0 = job_lr(s, b->job, &l0, &x0);
	have1 = job_lr(s, c->job, &l1, &x1);
	smp__tune_number(kt, sizeof(kt), k);
	smp__tune_number(g0, sizeof(g0), r0.global);
	smp__tune_number(g1, sizeof(g1), r1.global);
	/* which reading made the global batch (README "Suggestions") */
	snprintf(rd, sizeof(rd), "'%s' read %s", smp__batch_key(&r1),
		 r1.scope == SMP_BATCH_GLOBAL ? "as the global batch"
					      : "per GPU");
	if (smp__job_range(c->job, r1.pair->value))
		return; /* a tuned batch: k is not one number */
	rg = have1 ? smp__job_range(c->job, l1->value) : NULL;
	if (rg && rg->numeric) {
		tuned_learning_rate(b, c, rg, l1, x0, k, have0);
		return;
	}
	if (have0 && have1) {
		if (smp__tune_lr_follows(x1 / x0, k))
			return;
		smp__tune_number(v0, sizeof(v0), x0);
		smp__tune_number(v1, sizeof(v1), x1);
		smp__tune_value(lin, sizeof(lin), l1->value, x0 * k);
		smp__tune_value(sq, sizeof(sq), l1->value, x0 * sqrt(k));
		if (strcmp(v0, v1) == 0)
			f = smp__report_node(
				c->rep, SMP_RULE_LEARNING_RATE_NOT_SCALED,
				l1->value,
				"'%s' is %s as in the baseline '%s', but the "
				"global batch changed by k = %s (%s to %s; %s)",
				l1->key->u.scalar.value, v1, b->name, kt, g0,
				g1, rd);
		else
			f = smp__report_node(
				c->rep, SMP_RULE_LEARNING_RATE_NOT_SCALED,
				l1->value,
				"'%s' is %s where the baseline '%s' has %s, "
				"but the global batch changed by k = %s (%s "
				"to %s; %s): the learning rate follows neither "
				"k nor sqrt(k)",
				l1->key->u.scalar.value, v1, b->name, v0, kt,
				g0, g1, rd);
		smp__finding_fix(c->rep, f,
				 "set '%s' to %s (x k, linear) or %s (x "
				 "sqrt(k))",
				 l1->key->u.scalar.value, lin, sq);
		smp__tune_number(lin, sizeof(lin), x0 * k);
		smp__tune_number(sq, sizeof(sq), x0 * sqrt(k));
		sugg = s->lr_scaling == SMP_LR_SCALING_SQRT ? sq : lin;
		smp__finding_suggest(
			c->rep, f,
			smp__value_type_like(l1->value, SMP_VALUE_NUMBER),
			sugg);
	} else if (have0) {
		smp__tune_number(v0, sizeof(v0), x0);
		smp__tune_number(lin, sizeof(lin), x0 * k);
		smp__tune_number(sq, sizeof(sq), x0 * sqrt(k));
		f = smp__report_node(
			c->rep, SMP_RULE_LEARNING_RATE_NOT_SCALED,
			r1.pair->value,
			"the baseline '%s' sets '%s' %s but this job sets no "
			"learning rate, so the script's default applies while "
			"the global batch changed by k = %s (%s to %s; %s)",
			b->name, l0->key->u.scalar.value, v0, kt, g0, g1, rd);
		smp__finding_fix(c->rep, f,
				 "set '%s: %s' (x k, linear) or '%s: %s' (x "
				 "sqrt(k))",
				 l0->key->u.scalar.value, lin,
				 l0->key->u.scalar.value, sq);
		/* the finding is at the batch: the learning rate beside it */
		smp__finding_suggest_sibling(
			c->rep, f, l0->key->u.scalar.value,
			smp__value_type_like(r1.pair->value, SMP_VALUE_NUMBER),
			s->lr_scaling == SMP_LR_SCALING_SQRT ? sq : lin);
	} else if (!have1 && !smp__tune_lr_follows(1, k)) {
		smp__tune_number(lin, sizeof(lin), sqrt(k));
		f = smp__report_node(
			c->rep, SMP_RULE_LEARNING_RATE_NOT_SCALED,
			r1.pair->value,
			"the global batch changed by k = %s (%s in the "
			"baseline '%s', %s here; %s) but neither job sets a "
			"learning rate, so both train with the script's "
			"default",
			kt, g0, b->name, g1, rd);
		smp__finding_fix(c->rep, f,
				 "set the learning rate in both jobs: the "
				 "compiled one at the baseline's x %s (linear) "
				 "or x %s (sqrt)",
				 kt, lin);
	}
	/* a rate only in the compiled job: the baseline's default is
	 * unknown, so there is nothing to compare it with */
}

/* 1 when the hyperparameter is one the two jobs may legitimately differ
 * in: batch size, learning rate, compiler flags, launcher, device count,
 * and what does not change what is learned (smp__hparam_inert). */
static int
hp_exempt(const struct smp_settings *s, const struct smp_node *key)
{
	static const char prefix[] = "sagemaker_";

	if (key->kind != SMP_NODE_SCALAR)
		return 0;
	return smp__hparam_inert(key->u.scalar.value, key->u.scalar.len) ||
	       smp__hparam_is(s, key, SMP_HP_BATCH_SIZE) ||
	       smp__hparam_is(s, key, SMP_HP_GLOBAL_BATCH) ||
	       smp__hparam_is(s, key, SMP_HP_LEARNING_RATE) ||
	       (key->u.scalar.len > sizeof(prefix) - 1 &&
		smp__name_eq(key->u.scalar.value, sizeof(prefix) - 1, prefix));
}

/* The pair of mapping m whose key matches key (any spelling), or NULL. */
static const struct smp_pair *
find_key(const struct smp_node *m, const struct smp_node *key)
{
	size_t i;

	if (!m || m->kind != SMP_NODE_MAPPING || key->kind != SMP_NODE_SCALAR)
		return NULL;
	for (i = m->u.mapping.count; i-- > 0;) {
		const struct smp_node *k = m->u.mapping.items[i].key;

		if (k->kind == SMP_NODE_SCALAR &&
		    smp__name_eq(k->u.scalar.value, k->u.scalar.len,
				 key->u.scalar.value))
			return &m->u.mapping.items[i];
	}
	return NULL;
}

/* true/false as bools or strings ("True", "false"); -1 otherwise. */
static int
bool_of(const struct smp_node *n)
{
	int v = smp__scalar_bool(n);

	if (v >= 0)
		return v;
	if (n->kind != SMP_NODE_SCALAR)
		return -1;
	if (strcasecmp(n->u.scalar.value, "true") == 0)
		return 1;
	if (strcasecmp(n->u.scalar.value, "false") == 0)
		return 0;
	return -1;
}

/*
 * Equal values: numbers by value ("3" and 3, 5e-5 and 0.00005), booleans
 * by truth ("True" and true), other scalars by text, collections by
 * content. Depth is bounded by the loader's nesting limit.
 */
static int
same_value(const struct smp_node *a, const struct smp_node *b)
{
	double x, y;
	size_t i;
	int p, q;

	if (a->kind != b->kind)
		return 0;
	if (a->kind == SMP_NODE_SCALAR) {
		if (smp__node_number(a, &x) == 0 &&
		    smp__node_number(b, &y) == 0)
			return x == y ||
			       fabs(x - y) <= 1e-12 * (fabs(x) > fabs(y)
							       ? fabs(x)
							       : fabs(y));
		p = bool_of(a);
		q = bool_of(b);
		if (p >= 0 && q >= 0)
			return p == q;
		return a->u.scalar.len == b->u.scalar.len &&
		       memcmp(a->u.scalar.value, b->u.scalar.value,
			      a->u.scalar.len) == 0;
	}
	if (a->kind == SMP_NODE_SEQUENCE) {
		if (a->u.sequence.count != b->u.sequence.count)
			return 0;
		for (i = 0; i < a->u.sequence.count; i++)
			if (!same_value(a->u.sequence.items[i],
					b->u.sequence.items[i]))
				return 0;
		return 1;
	}
	/* the last of repeated keys counts, as in YAML parsers */
	for (i = 0; i < a->u.mapping.count; i++) {
		const struct smp_pair *pa = &a->u.mapping.items[i], *pb;

		if (find_key(a, pa->key) != pa)
			continue;
		pb = find_key(b, pa->key);
		if (!pb || !same_value(pa->value, pb->value))
			return 0;
	}
	for (i = 0; i < b->u.mapping.count; i++)
		if (b->u.mapping.items[i].key->kind == SMP_NODE_SCALAR &&
		    !find_key(a, b->u.mapping.items[i].key))
			return 0;
	return 1;
}

/* A value for messages: its text, or what kind of node it is. */
static const char *
value_text(const struct smp_node *n)
{
	const char *t = smp__node_text(n);

	return t ? t : smp__node_type_name(n);
}

/* The key node under which value sits in root's top mapping, or NULL. */
static const struct smp_node *
key_of(const struct smp_node *root, const struct smp_node *value)
{
	size_t i;

	if (!root || root->kind != SMP_NODE_MAPPING || !value)
		return NULL;
	for (i = 0; i < root->u.mapping.count; i++)
		if (root->u.mapping.items[i].value == value)
			return root->u.mapping.items[i].key;
	return NULL;
}

static void
drift_hyperparameters(const struct smp_base *b, const struct smp_check *c)
{
	const struct smp_node *hp = c->job->hyperparameters;
	const struct smp_node *bhp = b->job->hyperparameters;
	const struct smp_node *anchor;
	const struct smp_pair *p, *q;
	struct smp_finding *f;
	enum smp_value_type vt;
	size_t i;

	if (hp && hp->kind == SMP_NODE_MAPPING) {
		for (i = 0; i < hp->u.mapping.count; i++) {
			p = &hp->u.mapping.items[i];
			/* a repeated key: the last one counts, as in YAML
			 * parsers (duplicate-key reports the others) */
			if (hp_exempt(c->settings, p->key) ||
			    p->key->kind != SMP_NODE_SCALAR ||
			    find_key(hp, p->key) != p)
				continue;
			q = find_key(bhp, p->key);
			if (q && same_value(p->value, q->value))
				continue;
			if (q && (p->value->kind != SMP_NODE_SCALAR ||
				  q->value->kind != SMP_NODE_SCALAR)) {
				f = smp__report_node(
					c->rep, SMP_RULE_BASELINE_DRIFT,
					p->value,
					"hyperparameter '%s' differs from the "
					"baseline '%s'",
					p->key->u.scalar.value, b->name);
				smp__finding_fix(c->rep, f,
						 "make '%s' equal in both jobs",
						 p->key->u.scalar.value);
			} else if (q) {
				f = smp__report_node(
					c->rep, SMP_RULE_BASELINE_DRIFT,
					p->value,
					"hyperparameter '%s' is %s here but %s "
					"in the baseline '%s'",
					p->key->u.scalar.value,
					value_text(p->value),
					value_text(q->value), b->name);
				smp__finding_fix(c->rep, f,
						 "make '%s' equal in both jobs "
						 "(%s as in the baseline)",
						 p->key->u.scalar.value,
						 value_text(q->value));
				/* in the type this spec gives the field */
				if (smp__value_type_of(q->value, &vt) == 0) {
					(void)smp__value_type_of(p->value, &vt);
					smp__finding_suggest(
						c->rep, f, vt,
						value_text(q->value));
				}
			} else {
				f = smp__report_node(
					c->rep, SMP_RULE_BASELINE_DRIFT, p->key,
					"hyperparameter '%s' is set here (%s) "
					"but not in the baseline '%s'",
					p->key->u.scalar.value,
					value_text(p->value), b->name);
				smp__finding_fix(c->rep, f,
						 "remove it, or set it in the "
						 "baseline too");
			}
		}
	}
	if (!bhp || bhp->kind != SMP_NODE_MAPPING)
		return;
	anchor = key_of(c->job->root, hp);
	if (!anchor)
		anchor = hp ? hp : smp__job_anchor(c->job);
	for (i = 0; i < bhp->u.mapping.count; i++) {
		p = &bhp->u.mapping.items[i];
		if (hp_exempt(c->settings, p->key) ||
		    p->key->kind != SMP_NODE_SCALAR || find_key(hp, p->key) ||
		    find_key(bhp, p->key) != p)
			continue;
		f = smp__report_node(c->rep, SMP_RULE_BASELINE_DRIFT, anchor,
				     "hyperparameter '%s' is set in the "
				     "baseline '%s' (%s) but not here",
				     p->key->u.scalar.value, b->name,
				     value_text(p->value));
		if (p->value->kind == SMP_NODE_SCALAR)
			smp__finding_fix(c->rep, f, "add '%s: %s'",
					 p->key->u.scalar.value,
					 value_text(p->value));
		else
			smp__finding_fix(c->rep, f,
					 "add '%s' as in the "
					 "baseline",
					 p->key->u.scalar.value);
	}
}

static const char *
estimator_name(enum smp_estimator e)
{
	switch (e) {
	case SMP_EST_HUGGINGFACE:
		return "HuggingFace";
	case SMP_EST_PYTORCH:
		return "PyTorch";
	case SMP_EST_TENSORFLOW:
		return "TensorFlow";
	default:
		return NULL;
	}
}

/* One finding when a version differs (1.11 and 1.11.0 are the same). */
static void
drift_version(const struct smp_base *b, const struct smp_check *c,
	      const struct smp_node *mine, const struct smp_node *theirs,
	      const char *what)
{
	const char *x = smp__node_text(mine), *y = smp__node_text(theirs);
	struct smp_version vx, vy;
	struct smp_finding *f;

	if (!x || !y)
		return;
	if (smp__version_parse(&vx, x) == 0 &&
	    smp__version_parse(&vy, y) == 0) {
		if (smp__version_cmp(&vx, &vy) == 0)
			return;
	} else if (strcmp(x, y) == 0) {
		return;
	}
	f = smp__report_node(c->rep, SMP_RULE_BASELINE_DRIFT, mine,
			     "%s %s differs from the baseline '%s', which "
			     "uses %s",
			     what, x, b->name, y);
	smp__finding_fix(c->rep, f,
			 "compare with a baseline on the same version, or "
			 "expect differences from the version too");
}

static void
drift_job(const struct smp_base *b, const struct smp_check *c)
{
	const struct smp_job *job = c->job, *base = b->job;
	const char *x = smp__node_text(job->instance_type);
	const char *y = smp__node_text(base->instance_type);
	const char *ex = estimator_name(job->estimator);
	const char *ey = estimator_name(base->estimator);
	struct smp_finding *f;

	if (x && y && strcmp(x, y) != 0) {
		f = smp__report_node(c->rep, SMP_RULE_BASELINE_DRIFT,
				     job->instance_type,
				     "instance type '%s' differs from the "
				     "baseline '%s', which runs on '%s'",
				     x, b->name, y);
		smp__finding_fix(c->rep, f,
				 "compare on the same instance type ('%s')", y);
		smp__finding_suggest(c->rep, f, SMP_VALUE_STRING, y);
	}
	if (job->count != base->count) {
		f = smp__report_node(
			c->rep, SMP_RULE_BASELINE_DRIFT,
			job->instance_count  ? job->instance_count
			: job->instance_type ? job->instance_type
					     : smp__job_anchor(job),
			"instance count %lld differs from the baseline '%s', "
			"which uses %lld",
			job->count, b->name, base->count);
		smp__finding_fix(c->rep, f,
				 "compare with the same number of instances "
				 "(%lld)",
				 base->count);
	}
	if (ex && ey && job->estimator != base->estimator) {
		f = smp__report_node(c->rep, SMP_RULE_BASELINE_DRIFT,
				     job->estimator_node ? job->estimator_node
							 : smp__job_anchor(job),
				     "the job uses %s where the baseline '%s' "
				     "uses %s",
				     ex, b->name, ey);
		smp__finding_fix(c->rep, f,
				 "compare with a baseline of the same "
				 "framework");
	} else if (!smp__tune_job_image(c->cat, job) ||
		   smp__tune_job_image(c->cat, job) !=
			   smp__tune_job_image(c->cat, base)) {
		/* the same container is the same versions, however spelt */
		drift_version(b, c, job->framework_version,
			      base->framework_version,
			      smp__framework_title(job->base_framework));
		drift_version(b, c, job->transformers_version,
			      base->transformers_version, "transformers");
	}
}

void
smp__rules_baseline(const struct smp_base *b, const struct smp_check *c)
{
	check_learning_rate(b, c);
	drift_hyperparameters(b, c);
	drift_job(b, c);
}
