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

enum smp_fix_safety
smp__rule_fix_safety(enum smp_rule_id rule)
{
	if ((unsigned)rule >= SMP_RULE_COUNT)
		return SMP_FIX_NONE;
	return (enum smp_fix_safety)safety[rule];
}
