/*
 * config_paths.c - the path helpers of configuration discovery: absolute
 * and lexically normalized folders, parents, joins, the names shown to
 * the user; below discovery, loading and profiles, which all use them.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_priv.h"
#include "output.h"

/*
 * 1 when p is already what the normalization below makes of it: no empty,
 * "." or ".." segment and no trailing '/' (absolute: "/" or "/a/b";
 * relative: "a/b"). The walker hands every file over in this form.
 */
static int
is_clean(const char *p)
{
	const char *s = p;

	if (*s == '/') {
		if (!s[1])
			return 1;
		s++;
	}
	for (;;) {
		const char *e = strchr(s, '/');
		size_t n = e ? (size_t)(e - s) : strlen(s);

		if (n == 0 || (n == 1 && s[0] == '.') ||
		    (n == 2 && s[0] == '.' && s[1] == '.'))
			return 0;
		if (!e)
			return 1;
		s = e + 1;
	}
}

/* Lexically normalized absolute path of p (relative to cwd). */
char *
cfg_abs_path(const char *cwd, const char *p)
{
	size_t n = strlen(cwd) + strlen(p) + 2, k = 0;
	char *in, *out, *save = NULL, *seg;

	if (p[0] == '/' && is_clean(p))
		return strdup(p);
	if (p[0] != '/' && cwd[0] == '/' && is_clean(cwd) && is_clean(p)) {
		/* nothing to normalize: cwd, a '/' unless cwd is "/", p */
		size_t cl = cwd[1] ? strlen(cwd) : 0, pl = strlen(p);

		out = malloc(cl + pl + 2);
		if (out) {
			memcpy(out, cwd, cl + 1);
			out[cl] = '/';
			memcpy(out + cl + 1, p, pl + 1);
		}
		return out;
	}
	in = malloc(n);
	out = malloc(n + 1);
	if (!in || !out) {
		free(in);
		free(out);
		return NULL;
	}
	if (p[0] == '/')
		snprintf(in, n, "%s", p);
	else
		snprintf(in, n, "%s/%s", cwd, p);
	out[0] = '\0';
	for (seg = strtok_r(in, "/", &save); seg;
	     seg = strtok_r(NULL, "/", &save)) {
		if (strcmp(seg, ".") == 0)
			continue;
		if (strcmp(seg, "..") == 0) {
			while (k > 0 && out[k - 1] != '/')
				k--;
			if (k > 0)
				k--;
			out[k] = '\0';
			continue;
		}
		out[k++] = '/';
		memcpy(out + k, seg, strlen(seg));
		k += strlen(seg);
		out[k] = '\0';
	}
	if (k == 0) {
		out[0] = '/';
		out[1] = '\0';
	}
	free(in);
	return out;
}

/* The folder of an absolute path ("/" for "/x" and "/"). */
char *
cfg_parent_of(const char *p)
{
	const char *slash = strrchr(p, '/');
	size_t n = slash && slash != p ? (size_t)(slash - p) : 1;
	char *d = malloc(n + 1);

	if (d) {
		memcpy(d, p, n);
		d[n] = '\0';
	}
	return d;
}

/* How a path is shown: relative to the working folder when below it. */
char *
cfg_display_of(const char *cwd, const char *p)
{
	size_t n = strlen(cwd);

	if (strcmp(cwd, "/") != 0 && strncmp(p, cwd, n) == 0 && p[n] == '/')
		return strdup(p + n + 1);
	if (strcmp(cwd, "/") == 0 && p[0] == '/' && p[1])
		return strdup(p + 1);
	return strdup(p);
}

int
cfg_oom(void)
{
	cli_error("internal error: out of memory");
	return CLI_EXIT_INTERNAL;
}
