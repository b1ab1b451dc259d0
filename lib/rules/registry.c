/*
 * registry.c - the check column of rules.def: for each rule the group
 * function that reports it. With rule_table.c (id, severity, group and
 * the text) this is the one descriptor per rule, in the manner of tmux's
 * cmd_entry table and git's fsck message ids.
 */
#include "rules/rules.h"

/* The group functions, one bit each in smp__rule_checks()' set. */
#define GROUPS(G)                                                              \
	G(compiler, smp__rules_compiler)                                       \
	G(instance, smp__rules_instance)                                       \
	G(distribution, smp__rules_distribution)                               \
	G(versions, smp__rules_versions)                                       \
	G(gpu_num_devices, smp__rules_gpu_num_devices)                         \
	G(efficiency, smp__rules_efficiency)                                   \
	G(tune, smp__rules_tune)                                               \
	G(dialect, smp__rules_dialect)                                         \
	G(script, smp__rules_script)                                           \
	G(end_of_support, smp__rules_end_of_support)                           \
	G(region, smp__rules_region)

enum check_group {
	CHECK_none,
#define G(name, fn) CHECK_##name,
	GROUPS(G)
#undef G
		CHECK_GROUPS
};

static const smp_rule_check_fn group_fn[CHECK_GROUPS] = {
#define G(name, fn) [CHECK_##name] = (fn),
	GROUPS(G)
#undef G
};

static const unsigned char checks[SMP_RULE_COUNT] = {
#define X(e, id, sev, group, check) [SMP_RULE_##e] = CHECK_##check,
#include "report/rules.def"
#undef X
};

/* The rules said once per run (rules.def R()). */
static const unsigned char once_per_run[SMP_RULE_COUNT] = {
/* NOLINTBEGIN(bugprone-macro-parentheses): designators cannot be wrapped */
#define R(a) [SMP_RULE_##a] = 1,
/* NOLINTEND(bugprone-macro-parentheses) */
#include "report/rules.def"
#undef R
};

/* Each group once, in the order of its first rule in rules.def: one
 * pass over the rules notes the groups in that order (a bit per group
 * rather than a search of those taken, this runs once per job). With
 * run_said, the groups that report only rules said once per run are
 * left out. */
size_t
smp__rule_checks(smp_rule_check_fn *out, size_t max, int run_said)
{
	unsigned char order[CHECK_GROUPS] = {0};
	unsigned seen = 1u << CHECK_none, others = 0;
	size_t i, k = 0, n = 0;

	for (i = 0; i < SMP_RULE_COUNT; i++) {
		unsigned bit = 1u << checks[i];

		others |= once_per_run[i] ? 0u : bit;
		if (!(seen & bit)) {
			seen |= bit;
			order[k++] = checks[i];
		}
	}
	for (i = 0; i < k && n < max; i++)
		if (!run_said || (others & (1u << order[i])))
			out[n++] = group_fn[order[i]];
	return n;
}
