/* limits.h - how large an input the loaders accept (DESIGN.md section 8) */
#ifndef SMP_LIMITS_H
#define SMP_LIMITS_H

#include "smpreflight.h"

/* Limits with every 0 (or a NULL in) replaced by its default. */
void smp__limits_resolve(struct smp_limits *out, const struct smp_limits *in);

#endif
