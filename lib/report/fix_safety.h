/* fix_safety.h - the F(A, SAFETY) rows of rules.def: which fixes apply */
#ifndef SMP_FIX_SAFETY_H
#define SMP_FIX_SAFETY_H

#include "report/rule_table.h"

enum smp_fix_safety {
	SMP_FIX_NONE = 0, /* the fix is a message only */
	SMP_FIX_SAFE,     /* changes nothing about what is trained */
	SMP_FIX_UNSAFE    /* changes it: only with --unsafe-fixes */
};

/* The safety rules.def declares for rule's fix. */
enum smp_fix_safety smp__rule_fix_safety(enum smp_rule_id rule);

#endif
