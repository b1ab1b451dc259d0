/*
 * registry.c - the check column of rules.def: for each rule the group
 * function that reports it. With rule_table.c (id, severity, group and
 * the text) this is the one descriptor per rule, in the manner of tmux's
 * cmd_entry table and git's fsck message ids.
 */
#include "rules/rules.h"

#define CHECK_none NULL
#define CHECK_compiler smp__rules_compiler
#define CHECK_instance smp__rules_instance
#define CHECK_distribution smp__rules_distribution
#define CHECK_versions smp__rules_versions
#define CHECK_gpu_num_devices smp__rules_gpu_num_devices
#define CHECK_efficiency smp__rules_efficiency
#define CHECK_tune smp__rules_tune
#define CHECK_dialect smp__rules_dialect
#define CHECK_script smp__rules_script
#define CHECK_end_of_support smp__rules_end_of_support
#define CHECK_region smp__rules_region

static const smp_rule_check_fn checks[SMP_RULE_COUNT] = {
#define X(e, id, sev, group, check) [SMP_RULE_##e] = CHECK_##check,
#include "report/rules.def"
#undef X
};

size_t
smp__rule_checks(smp_rule_check_fn *out, size_t max)
{
	size_t i, k, n = 0;

	for (i = 0; i < SMP_RULE_COUNT; i++) {
		if (!checks[i])
			continue;
		for (k = 0; k < n && out[k] != checks[i]; k++)
			;
		if (k == n && n < max)
			out[n++] = checks[i];
	}
	return n;
}
