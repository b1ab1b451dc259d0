/*
 * rules.h - the rule groups, one file each, and the table that runs them.
 * Which group reports which rule is the check column of rules.def; the
 * pipeline (check.c) runs every group once per job, in any order: no rule
 * reads another's findings, and the S() relations of rules.def decide
 * afterwards which of two findings about one problem stays.
 */
#ifndef SMP_RULES_H
#define SMP_RULES_H

#include "rules/check.h"

typedef void (*smp_rule_check_fn)(const struct smp_check *);

void smp__rules_compiler(const struct smp_check *c);
void smp__rules_instance(const struct smp_check *c);
void smp__rules_distribution(const struct smp_check *c);
void smp__rules_versions(const struct smp_check *c);
void smp__rules_gpu_num_devices(const struct smp_check *c);
void smp__rules_efficiency(const struct smp_check *c);
void smp__rules_tune(const struct smp_check *c);
void smp__rules_dialect(const struct smp_check *c);
void smp__rules_script(const struct smp_check *c);
void smp__rules_end_of_support(const struct smp_check *c);
void smp__rules_region(const struct smp_check *c);

/*
 * The distinct check functions of rules.def in table order, into out
 * (at most max); returns how many.
 */
size_t smp__rule_checks(smp_rule_check_fn *out, size_t max, int run_said);

#endif
