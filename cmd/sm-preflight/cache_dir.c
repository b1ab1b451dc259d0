/*
 * cache_dir.c - where the refreshed instance data lives: the one place the
 * CLI reads the XDG cache variables, for update-data and for every
 * command that creates a context.
 */
#include <stdio.h>
#include <stdlib.h>

#include "commands.h"

/*
 * XDG Base Directory: $XDG_CACHE_HOME when set to an absolute path, else
 * $HOME/.cache; NULL when neither gives one (no cache is used then).
 */
const char *
cli_cache_dir(char *buf, size_t size)
{
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	int n;

	if (xdg && xdg[0] == '/')
		n = snprintf(buf, size, "%s/sm-preflight", xdg);
	else if (home && home[0] == '/')
		n = snprintf(buf, size, "%s/.cache/sm-preflight", home);
	else
		return NULL;
	return n > 0 && (size_t)n < size ? buf : NULL;
}
