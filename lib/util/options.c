/*
 * options.c - the options struct's version protects old callers
 * (docs/API.md, "ABI"): fields are only ever appended, and a caller
 * compiled with an older header passes a shorter struct whose version
 * says so. The library must not read past its end, so it copies only the
 * fields that version has into a full struct holding the defaults
 * (smp__options_copy(), the one helper every options struct goes through).
 */
#include <stddef.h>

#include "util/options.h"
#include "util/options_version.h"

/*
 * Bytes of struct smp_options per version. Version 1 ended at
 * override_count, version 2 at instance_data, version 3 at select, version
 * 4 at region; version 5 runs to the end of the struct. When fields are
 * appended after a release, bump SMP_OPTIONS_VERSION and replace the last entry
 * by the offset of the first new field.
 */
static const size_t options_size[SMP_OPTIONS_VERSION + 1] = {
	0,
	offsetof(struct smp_options, override_count) + sizeof(size_t),
	offsetof(struct smp_options, no_inline_ignores),
	offsetof(struct smp_options, select),
	offsetof(struct smp_options, region),
	sizeof(struct smp_options),
};

int
smp_options_init(struct smp_options *opts, unsigned int version)
{
	const struct smp_options defaults = SMP_OPTIONS_INIT;

	return smp__options_init(opts, version, &defaults, options_size,
				 SMP_OPTIONS_VERSION);
}

int
smp__options_resolve(struct smp_options *out, const struct smp_options *in,
		     struct smp_error *err)
{
	const struct smp_options defaults = SMP_OPTIONS_INIT;

	*out = defaults;
	return smp__options_copy(out, in, options_size, SMP_OPTIONS_VERSION,
				 "smp_options", err);
}
