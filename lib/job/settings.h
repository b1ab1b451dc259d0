/*
 * settings.h - the tunable parts of a context that rules read: which
 * hyperparameter names carry the batch size, learning rate and model,
 * the learning-rate scaling, thresholds. Copied from the options so the
 * context owns them.
 */
#ifndef SMP_SETTINGS_H
#define SMP_SETTINGS_H

#include "smpreflight.h"
#include "doc/doc.h"

enum smp_hparam_kind {
	SMP_HP_BATCH_SIZE,
	SMP_HP_LEARNING_RATE,
	SMP_HP_MODEL,
	SMP_HP_GLOBAL_BATCH, /* batch names read as the global batch */
	SMP_HP_KIND_COUNT
};

struct smp_name_list {
	char **names;
	size_t count;
};

struct smp_settings {
	struct smp_name_list hp[SMP_HP_KIND_COUNT];
	enum smp_lr_scaling lr_scaling;
	long short_run_steps;
};

/* Copies what opts says, or the defaults, into s. */
int smp__settings_init(struct smp_settings *s, const struct smp_options *opts,
		       const struct smp_allocator *a);

void smp__settings_release(struct smp_settings *s,
			   const struct smp_allocator *a);

/* A character as names compare: ASCII only, whatever the process locale
 * (tolower() depends on it), '-' as '_'. */
static inline int
smp__name_fold(int c)
{
	return c == '-' ? '_' : c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/*
 * 1 when a and b are equal ignoring case, with '-' and '_' alike. Inline:
 * the rules call it for every key against every name they look for, and
 * nearly every call ends at the first character.
 */
static inline int
smp__name_eq(const char *a, size_t alen, const char *b)
{
	size_t i;

	for (i = 0; i < alen; i++) {
		if (!b[i] || smp__name_fold((unsigned char)a[i]) !=
				     smp__name_fold((unsigned char)b[i]))
			return 0;
	}
	return b[alen] == '\0';
}

/*
 * The pair of mapping hp whose key matches the first name of the kind's
 * list that is present (list order is priority), or NULL.
 */
const struct smp_pair *smp__hparam(const struct smp_settings *s,
				   const struct smp_node *hp,
				   enum smp_hparam_kind kind);

/*
 * 1 when the hyperparameter name[0..len) (any spelling) does not change
 * what is learned: evaluation batch, logging, checkpointing and output
 * paths, data-loading speed, the launcher and device-count routes. Two
 * runs that differ only in these did the same training; the baseline
 * comparison (baseline-drift, diagnose) ignores them.
 */
int smp__hparam_inert(const char *name, size_t len);

/* 1 when key is one of the kind's names. */
int smp__hparam_is(const struct smp_settings *s, const struct smp_node *key,
		   enum smp_hparam_kind kind);

#endif
