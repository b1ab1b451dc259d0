/* fix_safety.h - the F(A, SAFETY) rows of rules.def: which fixes apply */
#ifndef SMP_FIX_SAFETY_H
#define SMP_FIX_SAFETY_H

#include "report/rule_table.h"
#include "report/report.h"

enum smp_fix_safety {
	SMP_FIX_NONE = 0, /* the fix is a message only */
	SMP_FIX_SAFE,     /* changes nothing about what is trained */
	SMP_FIX_UNSAFE    /* changes it: only with --unsafe-fixes */
};

/* The safety rules.def declares for rule's fix. */
enum smp_fix_safety smp__rule_fix_safety(enum smp_rule_id rule);

/* 1 when rules.def declares rule's fix local (its L row). */
int smp__rule_fix_local(enum smp_rule_id rule);

/* 1 when rule reads the pytorchxla distribution (its D row). */
int smp__rule_reads_distribution(enum smp_rule_id rule);

/* Sets f's byte edit: text[start, end) becomes text[0..n) (copied). */
void smp__finding_edit(struct smp_report *r, struct smp_finding *f,
		       size_t start, size_t end, const char *text, size_t n,
		       int unsafe);

#endif
