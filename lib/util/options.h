/*
 * options.h - reading a caller's struct smp_options safely: only the
 * fields that existed in the version the caller was compiled with.
 */
#ifndef SMP_OPTIONS_H
#define SMP_OPTIONS_H

#include "smpreflight.h"

/*
 * Fills out with the defaults (SMP_OPTIONS_INIT), then copies the part of
 * *in that in->version has; in NULL leaves the defaults. A version of 0
 * or above SMP_OPTIONS_VERSION is SMP_EINVAL with err (may be NULL)
 * filled. Every function taking struct smp_options reads it through this.
 */
int smp__options_resolve(struct smp_options *out, const struct smp_options *in,
			 struct smp_error *err);

#endif
