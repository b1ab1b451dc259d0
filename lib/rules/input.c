/*
 * input.c - the loaders' diagnostics as findings: a spec that is not
 * well-formed (syntax), repeats a key (duplicate-key) or is too large
 * (input-limit), or holds a value of the wrong type where a loader reads
 * a fixed shape (wrong-type: a notebook's cells). The loaders themselves
 * name no rule.
 */
#include "rules/check.h"

static enum smp_rule_id
rule_of(enum smp_diag_kind kind)
{
	switch (kind) {
	case SMP_DIAG_DUPLICATE_KEY:
		return SMP_RULE_DUPLICATE_KEY;
	case SMP_DIAG_LIMIT:
		return SMP_RULE_INPUT_LIMIT;
	case SMP_DIAG_WRONG_TYPE:
		return SMP_RULE_WRONG_TYPE;
	case SMP_DIAG_SYNTAX:
		break;
	}
	return SMP_RULE_SYNTAX;
}

int
smp__rules_input(struct smp_report *rep, const struct smp_docs *docs)
{
	size_t i;

	for (i = 0; i < docs->ndiags; i++) {
		const struct smp_diag *d = &docs->diags[i];
		struct smp_finding *f;

		f = smp__report_add(rep, rule_of(d->kind), &d->start,
				    d->end.line ? &d->end : NULL, "%s",
				    d->message);
		if (f && d->pointer)
			smp__finding_pointer(rep, f, d->pointer);
	}
	return rep->failed ? SMP_ENOMEM : 0;
}
