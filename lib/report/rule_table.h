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

/* Looks an id up; returns 0 and sets *out, or -1 when unknown. */
int smp__rule_lookup(enum smp_rule_id *out, const char *id);

#endif
