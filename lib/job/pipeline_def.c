/*
 * pipeline_def.c - the training steps of a SageMaker Pipeline definition
 * (see source_python.h). A step's Arguments are the CreateTrainingJob
 * request the pipeline sends; what the pipeline only knows at run time is
 * a function ({"Get": ...}, {"Std:Join": ...}): a parameter's default is
 * what runs when the execution does not override it, anything else is
 * unknown. A Tuning step's Arguments are a CreateHyperParameterTuningJob
 * request: its training job definitions are the steps' jobs (tuning.c).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "job/source_python.h"

/* A parameter by name, in the index sorted for bsearch(). */
struct param {
	const struct smp_node *name; /* its Name: a scalar */
	const struct smp_node *prm;
	size_t order; /* in the Parameters list: the first of a name wins */
};

struct pscan {
	struct smp_arena *arena;
	struct param *index; /* the Parameters by Name, sorted */
	size_t nparams;
	struct smp_pysrc_subst *subst;
	size_t nsubst, cap;
	int oom;
};

static struct smp_node *
unknown(struct pscan *p, const struct smp_node *at, const char *text)
{
	struct smp_node *n = smp__arena_zalloc(p->arena, sizeof(*n));

	if (!n) {
		p->oom = 1;
		return NULL;
	}
	n->kind = SMP_NODE_SCALAR;
	n->start = at->start;
	n->end = at->end;
	n->tag = SMP_TAG_UNKNOWN;
	n->u.scalar.value = smp__arena_strndup(p->arena, text, strlen(text));
	n->u.scalar.len = strlen(text);
	n->u.scalar.style = SMP_STYLE_DOUBLE_QUOTED;
	if (!n->u.scalar.value)
		p->oom = 1;
	return n;
}

/* Orders parameters by name (length, then bytes), then by position. */
static int
by_name(const void *a, const void *b)
{
	const struct param *x = a, *y = b;
	size_t n = x->name->u.scalar.len, m = y->name->u.scalar.len;
	int c;

	if (n != m)
		return n < m ? -1 : 1;
	c = memcmp(x->name->u.scalar.value, y->name->u.scalar.value, n);
	if (c)
		return c;
	return x->order < y->order ? -1 : x->order > y->order;
}

/*
 * The index of the Parameters list: sorted once, then every reference is
 * a binary search (a scan of the list per reference took 1.3 s for 9,000
 * parameters referenced 9,000 times). 0 or SMP_ENOMEM.
 */
static int
index_params(struct pscan *p, const struct smp_node *params)
{
	size_t k;

	if (!params || params->kind != SMP_NODE_SEQUENCE ||
	    !params->u.sequence.count)
		return 0;
	p->index = smp__arena_alloc(p->arena, params->u.sequence.count *
						      sizeof(*p->index));
	if (!p->index)
		return SMP_ENOMEM;
	for (k = 0; k < params->u.sequence.count; k++) {
		const struct smp_node *prm = params->u.sequence.items[k];
		const struct smp_node *n = smp__map_get(prm, "Name");

		if (!n || n->kind != SMP_NODE_SCALAR)
			continue;
		p->index[p->nparams].name = n;
		p->index[p->nparams].prm = prm;
		p->index[p->nparams].order = k;
		p->nparams++;
	}
	qsort(p->index, p->nparams, sizeof(*p->index), by_name);
	return 0;
}

/* The DefaultValue of parameter name, or NULL. */
static const struct smp_node *
param_default(const struct pscan *p, const char *name, const char **pname)
{
	size_t lo = 0, hi = p->nparams, len = strlen(name);

	/* the first entry not below (name, order 0) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct smp_node *n = p->index[mid].name;
		int c = n->u.scalar.len != len
				? (n->u.scalar.len < len ? -1 : 1)
				: memcmp(n->u.scalar.value, name, len);

		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == p->nparams || !smp__scalar_is(p->index[lo].name, name))
		return NULL;
	*pname = p->index[lo].name->u.scalar.value;
	return smp__map_get(p->index[lo].prm, "DefaultValue");
}

/* A pipeline function: a mapping of one key, Get or Std:*. */
static const char *
function_of(const struct smp_node *n)
{
	const struct smp_node *k;

	if (n->kind != SMP_NODE_MAPPING || n->u.mapping.count != 1)
		return NULL;
	k = n->u.mapping.items[0].key;
	if (k->kind != SMP_NODE_SCALAR)
		return NULL;
	if (strcmp(k->u.scalar.value, "Get") == 0 ||
	    strncmp(k->u.scalar.value, "Std:", 4) == 0)
		return k->u.scalar.value;
	return NULL;
}

static const struct smp_node *
resolve(struct pscan *p, const struct smp_node *n, unsigned depth)
{
	const char *fn;
	struct smp_node *c;
	size_t k;

	if (!n || p->oom)
		return n;
	if (depth > 64)
		return unknown(p, n, "...");
	fn = function_of(n);
	if (fn && strcmp(fn, "Get") == 0) {
		const struct smp_node *path = n->u.mapping.items[0].value;
		const char *s = path->kind == SMP_NODE_SCALAR
					? path->u.scalar.value
					: "";
		const char *pname = NULL;
		const struct smp_node *d =
			strncmp(s, "Parameters.", 11) == 0
				? param_default(p, s + 11, &pname)
				: NULL;

		if (!d)
			return unknown(p, n, s);
		if (p->nsubst == p->cap) {
			void *a = p->subst;

			if (smp__arena_grow(p->arena, &a, &p->cap,
					    p->nsubst + 1, sizeof(*p->subst))) {
				p->oom = 1;
				return n;
			}
			p->subst = a;
		}
		p->subst[p->nsubst].node = d;
		p->subst[p->nsubst].param = pname;
		p->nsubst++;
		return d;
	}
	if (fn)
		return unknown(p, n, fn);
	if (n->kind == SMP_NODE_SCALAR)
		return n;
	c = smp__arena_alloc(p->arena, sizeof(*c));
	if (!c) {
		p->oom = 1;
		return n;
	}
	*c = *n;
	if (n->kind == SMP_NODE_MAPPING) {
		c->u.mapping.items = smp__arena_alloc(
			p->arena,
			(n->u.mapping.count ? n->u.mapping.count : 1) *
				sizeof(struct smp_pair));
		if (!c->u.mapping.items) {
			p->oom = 1;
			return n;
		}
		for (k = 0; k < n->u.mapping.count; k++) {
			c->u.mapping.items[k].key = n->u.mapping.items[k].key;
			c->u.mapping.items[k].value =
				(struct smp_node *)(uintptr_t)resolve(
					p, n->u.mapping.items[k].value,
					depth + 1);
		}
	} else {
		c->u.sequence.items = smp__arena_alloc(
			p->arena,
			(n->u.sequence.count ? n->u.sequence.count : 1) *
				sizeof(struct smp_node *));
		if (!c->u.sequence.items) {
			p->oom = 1;
			return n;
		}
		for (k = 0; k < n->u.sequence.count; k++)
			c->u.sequence.items[k] =
				(struct smp_node *)(uintptr_t)resolve(
					p, n->u.sequence.items[k], depth + 1);
	}
	return c;
}

/*
 * A Tuning step: its Arguments are a CreateHyperParameterTuningJob
 * request, whose definitions become jobs named "step/definition".
 */
static int
tuning_step(struct smp_pysrc *out, struct pscan *p, const struct smp_node *args,
	    const struct smp_node *name)
{
	size_t first = out->count, k;
	const struct smp_node *req;
	int rc;

	p->subst = NULL;
	p->nsubst = p->cap = 0;
	req = resolve(p, args, 0);
	if (p->oom)
		return SMP_ENOMEM;
	rc = smp__tuning_add(out, p->arena, req,
			     name && name->kind == SMP_NODE_SCALAR
				     ? name->u.scalar.value
				     : "Tuning");
	for (k = first; rc == 0 && k < out->count; k++) {
		out->jobs[k].cls = "step";
		out->jobs[k].subst = p->subst;
		out->jobs[k].nsubst = p->nsubst;
	}
	return rc;
}

int
smp__pipeline_scan(struct smp_pysrc *out, struct smp_arena *arena,
		   const struct smp_node *root)
{
	const struct smp_node *steps = smp__map_get(root, "Steps");
	struct pscan p;
	size_t k, room = 1;

	memset(out, 0, sizeof(*out));
	if (!root || root->kind != SMP_NODE_MAPPING || !steps ||
	    steps->kind != SMP_NODE_SEQUENCE ||
	    (!smp__map_get(root, "Version") &&
	     !smp__map_get(root, "Parameters")))
		return 0;
	memset(&p, 0, sizeof(p));
	p.arena = arena;
	if (index_params(&p, smp__map_get(root, "Parameters")))
		return SMP_ENOMEM;
	for (k = 0; k < steps->u.sequence.count; k++)
		room += 1 + smp__tuning_count(smp__map_get(
				    steps->u.sequence.items[k], "Arguments"));
	out->jobs = smp__arena_zalloc(arena, room * sizeof(*out->jobs));
	if (!out->jobs)
		return SMP_ENOMEM;
	for (k = 0; k < steps->u.sequence.count; k++) {
		const struct smp_node *step = steps->u.sequence.items[k];
		const struct smp_node *args = smp__map_get(step, "Arguments");
		const struct smp_node *name = smp__map_get(step, "Name");
		struct smp_pysrc_job *job;

		if (smp__scalar_is(smp__map_get(step, "Type"), "Tuning") &&
		    args && args->kind == SMP_NODE_MAPPING) {
			int rc = tuning_step(out, &p, args, name);

			if (rc)
				return rc;
			continue;
		}
		if (!smp__scalar_is(smp__map_get(step, "Type"), "Training") ||
		    !args || args->kind != SMP_NODE_MAPPING)
			continue;
		job = &out->jobs[out->count++];
		p.subst = NULL;
		p.nsubst = p.cap = 0;
		job->root = resolve(&p, args, 0);
		job->dialect = SMP_DIALECT_CREATE_TRAINING_JOB;
		job->cls = "step";
		job->at = step->start;
		job->name = name && name->kind == SMP_NODE_SCALAR
				    ? name->u.scalar.value
				    : "Training";
		job->subst = p.subst;
		job->nsubst = p.nsubst;
		if (p.oom)
			return SMP_ENOMEM;
	}
	return 1;
}
