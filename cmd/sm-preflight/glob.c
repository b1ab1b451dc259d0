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
 *
 * As in git's wildmatch, two stars span folders only as a whole path
 * component (at the start before a '/', between two '/', or after a
 * '/' at the end); any other run of stars is one '*' (docs/ then two
 * stars then .yaml does not match docs/sub/x.yaml). As in git, the
 * start of a pattern for that rule is its first wildcard. Patterns are
 * matched by length, so none is too long to match.
 */
#include <string.h>

#include "glob.h"

/* [...] at p (before pe) against c; *end receives the character after
 * ']', or NULL when the '[' is not a class (no closing ']'): then it is
 * literal. */
static int
match_class(const char *p, const char *pe, char c, const char **end)
{
	int neg = 0, hit = 0;
	const char *q = p + 1;

	if (q < pe && (*q == '!' || *q == '^')) {
		neg = 1;
		q++;
	}
	if (q < pe && *q == ']') {
		hit = c == ']';
		q++;
	}
	for (; q < pe && *q != ']'; q++) {
		if (pe - q > 2 && q[1] == '-' && q[2] != ']') {
			if (c >= q[0] && c <= q[2])
				hit = 1;
			q += 2;
		} else if (*q == c) {
			hit = 1;
		}
	}
	if (q == pe) {
		*end = NULL;
		return 0;
	}
	*end = q + 1;
	return hit != neg;
}

/* One pattern token (not a star) against the character c: the pattern
 * after the token, or NULL when c does not match it. */
static const char *
match_one(const char *p, const char *pe, char c)
{
	const char *end;

	if (*p == '?')
		return c != '/' ? p + 1 : NULL;
	if (*p == '[') {
		int hit = match_class(p, pe, c, &end);

		if (end)
			return hit && c != '/' ? end : NULL;
		return c == '[' ? p + 1 : NULL;
	}
	if (*p == '\\' && pe - p > 1)
		p++;
	return *p == c ? p + 1 : NULL;
}

/* 1 when the stars at p (p[0] == p[1] == '*') are a "**" component. */
static int
is_dstar(const char *p0, const char *p, const char *pe)
{
	return (p == p0 || p[-1] == '/') && (pe - p == 2 || p[2] == '/');
}

/* See glob.h. */
int
cli_glob_match(const char *p, size_t n, const char *s)
{
	const char *p0 = p, *pe = p + n;
	const char *star_p = NULL, *star_s = NULL;
	const char *dstar_p = NULL, *dstar_s = NULL;
	int dstar_folders = 0; /* "**" + "/": grows a whole folder at a time */

	/* git compares the part before the first wildcard as a prefix and
	 * wildmatches the rest alone, where stars at its start count as at
	 * the start of a pattern ("a**" then "/b" matches the folder ab) */
	while (p0 < pe && !strchr("*?[\\", *p0))
		p0++;

	for (;;) {
		const char *next;

		if (pe - p > 1 && p[0] == '*' && p[1] == '*' &&
		    is_dstar(p0, p, pe)) {
			p += 2;
			dstar_folders = p < pe && *p == '/';
			if (dstar_folders)
				p++;
			dstar_p = p;
			dstar_s = s;
			star_p = NULL;
			continue;
		}
		if (p < pe && *p == '*') {
			while (p < pe && *p == '*')
				p++;
			star_p = p;
			star_s = s;
			continue;
		}
		if (p == pe) {
			if (!*s)
				return 1;
		} else if (*s) {
			next = match_one(p, pe, *s);
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
	size_t n = strlen(pattern);

	if (n > 1 && pattern[n - 1] == '/') {
		if (!is_dir)
			return 0;
		n--;
	}
	if (!memchr(pattern, '/', n))
		return cli_glob_match(pattern, n, name);
	if (pattern[0] == '/')
		return cli_glob_match(pattern + 1, n - 1, rel);
	return cli_glob_match(pattern, n, rel);
}
