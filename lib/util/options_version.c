/* options_version.c - reading and initializing versioned options structs */
#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "util/options_version.h"

int
smp__options_copy(void *out, const void *in, const size_t *sizes,
		  unsigned int max, const char *what, struct smp_error *err)
{
	unsigned int version;

	if (!in)
		return 0;
	memcpy(&version, in, sizeof(version));
	if (version == 0 || version > max) {
		return smp__error_set(err, SMP_EINVAL, "options", NULL,
				      "unsupported %s version %u (this library "
				      "reads 1 to %u; start from %s_init())",
				      what, version, max, what);
	}
	memcpy(out, in, sizes[version]);
	return 0;
}

int
smp__options_init(void *opts, unsigned int version, const void *defaults,
		  const size_t *sizes, unsigned int max)
{
	if (!opts || version == 0 || version > max)
		return SMP_EINVAL;
	memcpy(opts, defaults, sizes[version]);
	memcpy(opts, &version, sizeof(version));
	return 0;
}
