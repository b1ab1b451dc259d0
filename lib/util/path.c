/*
 * path.c - the library's one path join (path.h): the script path a spec
 * names and the data cache's files are both built with it.
 */
#include <string.h>

#include "util/path.h"

/* See path.h. */
int
smp__path_append(char *out, size_t n, size_t *len, const char *part)
{
	size_t k;

	while (part[0] == '.' && part[1] == '/') {
		part += 2;
		while (*part == '/')
			part++;
	}
	if (!*part || strcmp(part, ".") == 0)
		return 0;
	k = strlen(part);
	while (k > 1 && part[k - 1] == '/')
		k--;
	if (*len > 0 && out[*len - 1] != '/') {
		if (*len + 2 > n)
			return -1;
		out[(*len)++] = '/';
	}
	if (*len + k + 1 > n)
		return -1;
	memcpy(out + *len, part, k);
	*len += k;
	out[*len] = '\0';
	return 0;
}
