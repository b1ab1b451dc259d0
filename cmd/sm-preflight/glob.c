/*
 * glob.c - ignore patterns (see glob.h).
 *
 * The matcher keeps two backtrack points instead of recursing: the last
 * '*' (which may only grow within one name) and the last "**" (which may
 * grow across '/'). On a mismatch the '*' takes one more character; when
 * it cannot (end of the name or a '/'), the "**" does, and the '*' is
 * forgotten. An earlier star never needs a second try: whatever it could
 * have taken, the later one can take too, and a '*' cannot pass the '/'
 * that ends its name. So each character of s is retried at most once per
 * pattern position: O(|p| * |s|), where the recursive matcher this
 * replaces was exponential in the number of stars.
 */
#include <string.h>

#include "glob.h"

/* [...] at p against c; *end receives the character after ']', or NULL
 * when the '[' is not a class (no closing ']'): then it is literal. */
static int
match_class(const char *p, char c, const char **end)
{
	int neg = 0, hit = 0;
	const char *q = p + 1;

	if (*q == '!' || *q == '^') {
		neg = 1;
		q++;
	}
	if (*q == ']') {
		hit = c == ']';
		q++;
	}
	for (; *q && *q != ']'; q++) {
		if (q[1] == '-' && q[2] && q[2] != ']') {
			if (c >= q[0] && c <= q[2])
				hit = 1;
			q += 2;
		} else if (*q == c) {
			hit = 1;
		}
	}
	if (*q != ']') {
		*end = NULL;
		return 0;
	}
	*end = q + 1;
	return hit != neg;
}

/* One pattern token (not a star) against the character c: the pattern
 * after the token, or NULL when c does not match it. */
static const char *
match_one(const char *p, char c)
{
	const char *end;

	if (*p == '?')
		return c != '/' ? p + 1 : NULL;
	if (*p == '[') {
		int hit = match_class(p, c, &end);

		if (end)
			return hit && c != '/' ? end : NULL;
		return c == '[' ? p + 1 : NULL;
	}
	if (*p == '\\' && p[1])
		p++;
	return *p == c ? p + 1 : NULL;
}

/* 1 when s matches pattern p. */
static int
cli_glob_match(const char *p, const char *s)
{
	const char *star_p = NULL, *star_s = NULL;
	const char *dstar_p = NULL, *dstar_s = NULL;
	int dstar_folders = 0; /* "**" + "/": grows a whole folder at a time */

	for (;;) {
		const char *next;

		if (p[0] == '*' && p[1] == '*') {
			p += 2;
			dstar_folders = *p == '/';
			if (dstar_folders)
				p++;
			dstar_p = p;
			dstar_s = s;
			star_p = NULL;
			continue;
		}
		if (*p == '*') {
			star_p = ++p;
			star_s = s;
			continue;
		}
		if (!*p) {
			if (!*s)
				return 1;
		} else if (*s) {
			next = match_one(p, *s);
			if (next) {
				p = next;
				s++;
				continue;
			}
		}
		/* a mismatch: the last star takes one more character */
		if (star_p && *star_s && *star_s != '/') {
			p = star_p;
			s = ++star_s;
			continue;
		}
		if (!dstar_p || !*dstar_s)
			return 0;
		if (dstar_folders) {
			const char *slash = strchr(dstar_s, '/');

			if (!slash)
				return 0;
			dstar_s = slash + 1;
		} else {
			dstar_s++;
		}
		p = dstar_p;
		s = dstar_s;
		star_p = NULL;
	}
}

/* See glob.h. */
int
cli_ignore_match(const char *pattern, const char *rel, const char *name,
		 int is_dir)
{
	char pat[1024];
	size_t n = strlen(pattern);
	int dir_only = 0;

	if (n >= sizeof(pat))
		return 0;
	memcpy(pat, pattern, n + 1);
	if (n > 1 && pat[n - 1] == '/') {
		pat[--n] = '\0';
		dir_only = 1;
	}
	if (dir_only && !is_dir)
		return 0;
	if (!strchr(pat, '/'))
		return cli_glob_match(pat, name);
	return cli_glob_match(pat[0] == '/' ? pat + 1 : pat, rel);
}
