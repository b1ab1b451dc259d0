/*
 * srcroot.c - the source root of SARIF output (srcroot.h).
 */
#define _XOPEN_SOURCE                                                          \
	700 /* realpath(), with _POSIX_C_SOURCE from the Makefile */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "args.h"
#include "output.h"
#include "srcroot.h"

/*
 * The nearest folder at or above dir (absolute, resolved) holding a
 * `.git` entry of any type: malloc'd, NULL when there is none or on
 * ENOMEM.
 */
static char *
cli_git_top_level(const char *dir)
{
	size_t n = strlen(dir);
	char *p = malloc(n + sizeof("/.git"));

	if (!p)
		return NULL;
	memcpy(p, dir, n + 1);
	for (;;) {
		struct stat st;

		/* p[0..n) is the folder looked at; n == 1 is "/" */
		strcpy(p + n, n == 1 ? ".git" : "/.git");
		if (lstat(p, &st) == 0) {
			p[n] = '\0';
			return p;
		}
		if (n == 1)
			break;
		while (n > 0 && p[n - 1] != '/')
			n--;
		n = n > 1 ? n - 1 : 1; /* the slash goes, but the root's */
	}
	free(p);
	return NULL;
}

/* The resolved folder of file (which need not exist): malloc'd or NULL. */
static char *
folder_of(const char *file)
{
	const char *slash = strrchr(file, '/');
	char *dir, *real;

	if (!slash)
		return realpath(".", NULL);
	if (slash == file)
		return realpath("/", NULL);
	dir = strndup(file, (size_t)(slash - file));
	if (!dir)
		return NULL;
	real = realpath(dir, NULL);
	free(dir);
	return real;
}

/* See srcroot.h. */
int
cli_sarif_root(char **root, char **cwd, const char *option, char *const *files,
	       size_t nfiles)
{
	const char *ws = getenv("GITHUB_WORKSPACE");
	size_t i;

	*root = NULL;
	*cwd = realpath(".", NULL);
	if (!*cwd) {
		cli_error("cannot resolve the working directory: %s",
			  strerror(errno));
		return CLI_EXIT_INTERNAL;
	}
	if (option) {
		struct stat st;

		*root = realpath(option, NULL);
		if (!*root || stat(*root, &st) != 0 || !S_ISDIR(st.st_mode)) {
			cli_error("--sarif-root '%s': %s", option,
				  *root ? "not a directory" : strerror(errno));
			free(*root);
			*root = NULL;
			return CLI_EXIT_USAGE;
		}
		return 0;
	}
	if (ws && ws[0]) {
		*root = realpath(ws, NULL);
		if (*root)
			return 0;
	}
	for (i = 0; i < nfiles && !*root; i++) {
		char *dir;

		if (strcmp(files[i], "-") == 0)
			continue;
		dir = folder_of(files[i]);
		if (!dir)
			continue;
		*root = cli_git_top_level(dir);
		free(dir);
	}
	if (!*root)
		*root = strdup(*cwd);
	if (!*root) {
		cli_error("out of memory");
		return CLI_EXIT_INTERNAL;
	}
	return 0;
}
