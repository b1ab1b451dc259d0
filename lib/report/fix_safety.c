/*
 * fix_safety.c - which rules' suggestions `check --fix` applies, and
 * which only with --unsafe-fixes: the F() rows of rules.def, so that the
 * safety of a fix is declared beside its rule, never matched on rule ids.
 */
#include "report/fix_safety.h"

static const unsigned char safety[SMP_RULE_COUNT] = {
#define F(a, s) [SMP_RULE_##a] = SMP_FIX_##s,
#include "report/rules.def"
#undef F
};

static const unsigned char local[SMP_RULE_COUNT] = {
#define L(a) [SMP_RULE_##a] = 1,
#include "report/rules.def"
#undef L
};

static const unsigned char reads_distribution[SMP_RULE_COUNT] = {
#define D(a) [SMP_RULE_##a] = 1,
#include "report/rules.def"
#undef D
};

int
smp__rule_fix_local(enum smp_rule_id rule)
{
	return (unsigned)rule < SMP_RULE_COUNT && local[rule];
}

int
smp__rule_reads_distribution(enum smp_rule_id rule)
{
	return (unsigned)rule < SMP_RULE_COUNT && reads_distribution[rule];
}

enum smp_fix_safety
smp__rule_fix_safety(enum smp_rule_id rule)
{
	if ((unsigned)rule >= SMP_RULE_COUNT)
		return SMP_FIX_NONE;
	return (enum smp_fix_safety)safety[rule];
}

void
smp__finding_edit(struct smp_report *r, struct smp_finding *f, size_t start,
		  size_t end, const char *text, size_t n, int unsafe)
{
	f->edit_text = smp__arena_strndup(&r->arena, text, n);
	if (!f->edit_text) {
		r->failed = 1;
		return;
	}
	f->edit_start = start;
	f->edit_end = end;
	f->edit_unsafe = unsafe;
}
