/* limits.h - how large an input the loaders accept (README "Bad input") */
#ifndef SMP_LIMITS_H
#define SMP_LIMITS_H

#include "smpreflight.h"

/* The loaders' limits: struct smp_options' max_* fields, resolved. */
struct smp_limits {
	size_t max_file_size;  /* bytes, default 4 MiB */
	size_t max_depth;      /* nesting, default 64 */
	size_t max_nodes;      /* nodes counting alias expansion, 100000 */
	size_t max_scalar_len; /* bytes, default 64 KiB */
	size_t max_documents;  /* per YAML stream, default 1000 */
};

/* Limits with every 0 (or a NULL in) replaced by its default. */
void smp__limits_resolve(struct smp_limits *out, const struct smp_limits *in);

/* The max_* fields of opts, each 0 replaced by its default. */
void smp__limits_of(struct smp_limits *out, const struct smp_options *opts);

#endif
