/*
 * tuner_python.c - HyperparameterTuner(estimator, objective_metric_name,
 * hyperparameter_ranges={...}) in a launcher or notebook: the estimator's
 * job is what every training job of the tuning job runs, with the tuned
 * hyperparameters set from their ranges (sagemaker.tuner). The ranges
 * become the API's ParameterRanges, the form the effective job reads
 * (effective.h): ContinuousParameter(min_value, max_value) and
 * IntegerParameter(...) a Continuous- / IntegerParameterRanges entry,
 * CategoricalParameter(values) a CategoricalParameterRanges one.
 */
#include <string.h>

#include "job/py_eval.h"
#include "job/source_python.h"

static const char *const kinds[] = {
	"IntegerParameterRanges",
	"ContinuousParameterRanges",
	"CategoricalParameterRanges",
};

/* A mapping of room pairs positioned on v, or NULL. */
static struct smp_node *
mapping_at(struct smp_arena *arena, size_t room, const struct smp_pyval *v)
{
	struct smp_node *m = smp__arena_zalloc(arena, sizeof(*m));

	if (!m)
		return NULL;
	m->kind = SMP_NODE_MAPPING;
	m->start = v->start;
	m->end = v->end;
	m->u.mapping.items =
		smp__arena_zalloc(arena, room * sizeof(struct smp_pair));
	return m->u.mapping.items ? m : NULL;
}

/* Adds key: value to m (room was made); the key is positioned on at. */
static int
put(struct smp_arena *arena, struct smp_node *m, const char *key,
    const struct smp_pyval *at, struct smp_node *value)
{
	struct smp_node *k = smp__arena_zalloc(arena, sizeof(*k));

	if (!k || !value)
		return -1;
	k->kind = SMP_NODE_SCALAR;
	k->start = at->start;
	k->end = at->end;
	k->u.scalar.value = key;
	k->u.scalar.len = strlen(key);
	k->u.scalar.style = SMP_STYLE_PLAIN;
	m->u.mapping.items[m->u.mapping.count].key = k;
	m->u.mapping.items[m->u.mapping.count].value = value;
	m->u.mapping.count++;
	return 0;
}

/* Which of kinds[] range r is; -1 when it is no range object. */
static int
kind_of(const struct smp_pyval *r)
{
	if (r->kind != SMP_PV_OBJECT)
		return -1;
	if (r->cls == SMP_PYCLS_CATEGORICAL)
		return 2;
	if (r->cls != SMP_PYCLS_RANGE)
		return -1;
	return r->len >= 16 && memcmp(r->text + r->len - 16, "IntegerParameter",
				      16) == 0
		       ? 0
		       : 1;
}

/* One ParameterRanges entry {Name, MinValue, MaxValue} or {Name, Values}. */
static struct smp_node *
entry(const struct smp_pyeval *ev, struct smp_arena *arena,
      const struct smp_pyval *name, const struct smp_pyval *r, int kind)
{
	struct smp_node *e = mapping_at(arena, 3, r);
	const struct smp_pyval *lo = smp__pyval_get(r, "min_value", 9);
	const struct smp_pyval *hi = smp__pyval_get(r, "max_value", 9);
	const struct smp_pyval *vals = smp__pyval_get(r, "values", 6);

	if (!e || put(arena, e, "Name", name, smp__pyval_node(ev, arena, name)))
		return NULL;
	if (kind == 2) {
		if (vals && put(arena, e, "Values", vals,
				smp__pyval_node(ev, arena, vals)))
			return NULL;
		return e;
	}
	if ((lo &&
	     put(arena, e, "MinValue", lo, smp__pyval_node(ev, arena, lo))) ||
	    (hi &&
	     put(arena, e, "MaxValue", hi, smp__pyval_node(ev, arena, hi))))
		return NULL;
	return e;
}

int
smp__tuner_attach(const struct smp_pyeval *ev, struct smp_arena *arena,
		  struct smp_pysrc *out, const struct smp_pyval *tuner)
{
	const struct smp_pyval *est = smp__pyval_get(tuner, "estimator", 9);
	const struct smp_pyval *hr =
		smp__pyval_get(tuner, "hyperparameter_ranges", 21);
	struct smp_node *ranges, *seq[3] = {NULL, NULL, NULL};
	size_t k;
	int i;

	if (!est || est->kind != SMP_PV_OBJECT || est->job < 0 ||
	    (size_t)est->job >= out->count || !hr || hr->kind != SMP_PV_DICT)
		return 0;
	ranges = mapping_at(arena, 3, hr);
	if (!ranges)
		return SMP_ENOMEM;
	for (k = 0; k < hr->count; k++) {
		const struct smp_pyval *name = hr->keys[k];
		const struct smp_pyval *r = hr->items[k];
		struct smp_node *e;

		i = kind_of(r);
		if (i < 0 || !name || name->kind != SMP_PV_STR)
			continue;
		if (!seq[i]) {
			seq[i] = smp__arena_zalloc(arena, sizeof(*seq[i]));
			if (!seq[i])
				return SMP_ENOMEM;
			seq[i]->kind = SMP_NODE_SEQUENCE;
			seq[i]->start = hr->start;
			seq[i]->end = hr->end;
			seq[i]->u.sequence.items = smp__arena_zalloc(
				arena, hr->count * sizeof(struct smp_node *));
			if (!seq[i]->u.sequence.items ||
			    put(arena, ranges, kinds[i], hr, seq[i]))
				return SMP_ENOMEM;
		}
		e = entry(ev, arena, name, r, i);
		if (!e)
			return SMP_ENOMEM;
		seq[i]->u.sequence.items[seq[i]->u.sequence.count++] = e;
	}
	if (ranges->u.mapping.count)
		out->jobs[est->job].ranges = ranges;
	return 0;
}
