/* version.c - dotted version numbers ("1.11.0") */
#include <string.h>

#include "util/version.h"

int
smp__version_parse(struct smp_version *out, const char *s)
{
	memset(out, 0, sizeof(*out));
	if (!s || !*s)
		return -1;
	for (;;) {
		long v = 0;
		int digits = 0;

		while (*s >= '0' && *s <= '9') {
			if (v < 100000)
				v = v * 10 + (*s - '0');
			s++, digits++;
		}
		if (!digits)
			goto bad;
		if (out->count < 4)
			out->part[out->count] = (int)v;
		out->count++;
		if (*s == '\0')
			break;
		if (*s != '.')
			goto bad;
		s++;
	}
	if (out->count > 4)
		out->count = 4;
	return 0;
bad:
	memset(out, 0, sizeof(*out));
	return -1;
}

int
smp__version_cmp(const struct smp_version *a, const struct smp_version *b)
{
	int i;

	for (i = 0; i < 4; i++) {
		if (a->part[i] != b->part[i])
			return a->part[i] < b->part[i] ? -1 : 1;
	}
	return 0;
}
