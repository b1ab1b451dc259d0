/*
 * options_version.h - the one way every public options struct is read
 * (docs/API.md, "ABI"). Each such struct starts with `unsigned int
 * version`; fields are only ever appended, so a caller compiled with an
 * older header passes a shorter struct whose version says so.
 */
#ifndef SMP_OPTIONS_VERSION_H
#define SMP_OPTIONS_VERSION_H

#include <stddef.h>

#include "smpreflight.h"

/*
 * Copies a caller's options struct into out (the library's full struct,
 * already holding the defaults): the first sizes[v] bytes of in, v being
 * in's version; sizes[1..max] are the struct's sizes in each layout
 * version (sizes[0] is unused). in NULL leaves the defaults. A version of
 * 0 or above max is SMP_EINVAL with err (may be NULL) filled, its source
 * "options" and its message naming what ("smp_options"). Memory past the
 * caller's struct is never read.
 */
int smp__options_copy(void *out, const void *in, const size_t *sizes,
		      unsigned int max, const char *what,
		      struct smp_error *err);

/*
 * The public *_options_init(): fills opts, a struct of layout version
 * `version` (sizes[version] bytes), with the defaults held in defaults
 * (the library's full struct) and sets its version. SMP_EINVAL for a NULL
 * opts or a version of 0 or above max; nothing past the caller's struct
 * is written.
 */
int smp__options_init(void *opts, unsigned int version, const void *defaults,
		      const size_t *sizes, unsigned int max);

#endif
