/* context.h - what a context holds; immutable after smp_context_new() */
#ifndef SMP_CONTEXT_H
#define SMP_CONTEXT_H

#include "smpreflight.h"
#include "catalog.h"
#include "rule_table.h"
#include "schema.h"
#include "settings.h"

struct smp_context {
	struct smp_allocator alloc;
	struct smp_limits limits; /* resolved: no zeros */
	enum smp_dialect dialect;
	enum smp_severity severity[SMP_RULE_COUNT];
	struct smp_settings settings;
	struct smp_catalog catalog;
	/* structural schema per dialect, indexed by enum smp_dialect */
	struct smp_schema *schema[SMP_DIALECT_CREATE_TRAINING_JOB + 1];
};

#endif
