/* rule_table.h - the rule enum (from rules.def) and the rule documentation */
#ifndef SMP_RULE_TABLE_H
#define SMP_RULE_TABLE_H

#include "smpreflight.h"

enum smp_rule_id {
#define X(e, id, sev, group, check) SMP_RULE_##e,
#include "report/rules.def"
#undef X
	SMP_RULE_COUNT
};

/* The rule's id string ("gpu-num-devices-missing"). */
const char *smp__rule_id(enum smp_rule_id rule);

/* The rule's default severity. */
enum smp_severity smp__rule_default_severity(enum smp_rule_id rule);

/* 1 when rules.def declares the rule O(): one finding per report. */
int smp__rule_once(enum smp_rule_id rule);

/* 1 when rules.def declares the rule U(): the input was not readable. */
int smp__rule_unreadable(enum smp_rule_id rule);

/* Looks an id up; returns 0 and sets *out, or -1 when unknown. */
int smp__rule_lookup(enum smp_rule_id *out, const char *id);

/*
 * Rule selection (ruff's select/ignore): a selector is a rule id, a group
 * name of rules.def ("instance", "script", ...) or "ALL". Returns how
 * specifically selector names rule: 3 its id, 2 its group, 1 ALL, 0 not
 * at all (also for an unknown selector).
 */
int smp__rule_selector_match(const char *selector, enum smp_rule_id rule);

/* 1 when selector is a rule id, a group name or "ALL", else 0. */
int smp__rule_selector_known(const char *selector);

/*
 * Which rules run: on[r] = 1 when the most specific entry of select (all
 * rules when select_count is 0) that names r is more specific than every
 * entry of ignore that names r; ignore wins a tie. Returns 0, or -1 with
 * *bad set to the first unknown selector (on[] is then unspecified).
 */
int smp__rules_select(unsigned char on[SMP_RULE_COUNT],
		      const char *const *select, size_t select_count,
		      const char *const *ignore, size_t ignore_count,
		      const char **bad);

/* Fills out with the distinct group names in table order; their number. */
size_t smp__rule_groups(const char *out[SMP_RULE_COUNT]);

/* The known selector closest to an unknown one (did-you-mean), or NULL. */
const char *smp__rule_selector_closest(const char *selector);

#endif
