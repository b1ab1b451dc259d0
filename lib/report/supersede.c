/*
 * supersede.c - "one finding per problem" as data: the S(A, B, SCOPE)
 * rows of rules.def say that when rule A fired, rule B's findings at the
 * same node (or anywhere in the same job) repeat the problem with a worse
 * fix. Applied once per job after all its rules ran, so that no rule has
 * to look at what another rule reported and the rule order never matters.
 */
#include <string.h>

#include "report/report.h"
#include "report/supersede.h"

enum scope { SCOPE_NODE, SCOPE_JOB };

static const struct {
	enum smp_rule_id a, b;
	enum scope scope;
} relations[] = {
#define S(a, b, scope) {SMP_RULE_##a, SMP_RULE_##b, SCOPE_##scope},
#include "report/rules.def"
#undef S
};

static int
same_place(const struct smp_finding *x, const struct smp_finding *y)
{
	return x->line == y->line && x->column == y->column &&
	       (x->file == y->file ||
		(x->file && y->file && strcmp(x->file, y->file) == 0));
}

/* 1 when findings [first, count) hold one of rule a that covers f. */
static int
covered(const struct smp_report *r, size_t first, enum smp_rule_id a,
	enum scope scope, const struct smp_finding *f)
{
	const char *id = smp__rule_id(a);
	size_t i;

	for (i = first; i < r->count; i++) {
		const struct smp_finding *g = &r->items[i];

		/* never hide a finding behind a milder one */
		if (g->rule == id && g->severity >= f->severity &&
		    (scope == SCOPE_JOB || same_place(g, f)))
			return 1;
	}
	return 0;
}

static int
superseded(const struct smp_report *r, size_t first,
	   const struct smp_finding *f)
{
	size_t k;

	for (k = 0; k < sizeof(relations) / sizeof(relations[0]); k++)
		if (f->rule == smp__rule_id(relations[k].b) &&
		    covered(r, first, relations[k].a, relations[k].scope, f))
			return 1;
	return 0;
}

void
smp__report_supersede(struct smp_report *r, size_t first)
{
	unsigned char *drop;
	size_t i, out, n;

	if (!r || first >= r->count)
		return;
	n = r->count - first;
	drop = smp__arena_zalloc(&r->arena, n);
	if (!drop) {
		r->failed = 1;
		return;
	}
	/* decide on the full set first, then compact: a superseding
	 * finding may itself be superseded, and its victims still go */
	for (i = 0; i < n; i++)
		drop[i] = (unsigned char)superseded(r, first,
						    &r->items[first + i]);
	out = first;
	for (i = 0; i < n; i++)
		if (!drop[i])
			r->items[out++] = r->items[first + i];
	r->count = out;
}
