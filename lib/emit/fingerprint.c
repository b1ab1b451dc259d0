/*
 * fingerprint.c - SARIF partialFingerprints (fingerprint.h).
 */
#include <stdio.h>
#include <string.h>

#include "emit/fingerprint.h"
#include "util/sha256.h"

static int
space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' ||
	       c == '\f';
}

/* The next word of s at or after *p: its start, *n its length; NULL at
 * the end. *p moves past it. */
static const char *
next_word(const char **p, size_t *n)
{
	const char *s = *p, *start;

	while (*s && space(*s))
		s++;
	if (!*s)
		return NULL;
	start = s;
	while (*s && !space(*s))
		s++;
	*n = (size_t)(s - start);
	*p = s;
	return start;
}

/* See fingerprint.h. */
size_t
smp__line_normalize(char *out, const char *line)
{
	const char *p = line ? line : "", *w;
	size_t len = 0, n;

	while ((w = next_word(&p, &n)) != NULL) {
		if (len)
			out[len++] = ' ';
		memcpy(out + len, w, n);
		len += n;
	}
	out[len] = '\0';
	return len;
}

/* See fingerprint.h. */
void
smp__fingerprint_key(unsigned char key[32], const char *rule, const char *path,
		     const char *line)
{
	struct smp_sha256 h;
	const char *p = line ? line : "", *w;
	size_t n, words = 0;

	smp__sha256_init(&h);
	smp__sha256_update(&h, rule, strlen(rule) + 1);
	smp__sha256_update(&h, path, strlen(path) + 1);
	/* the same bytes as smp__line_normalize(), without a copy */
	while ((w = next_word(&p, &n)) != NULL) {
		if (words++)
			smp__sha256_update(&h, " ", 1);
		smp__sha256_update(&h, w, n);
	}
	smp__sha256_update(&h, "", 1);
	smp__sha256_final(&h, key);
}

/* See fingerprint.h. */
void
smp__fingerprint_hex(char out[65], const unsigned char key[32],
		     size_t occurrence)
{
	unsigned char data[32 + 24];
	int n = snprintf((char *)data + 32, 24, "%zu", occurrence);

	memcpy(data, key, 32);
	smp__sha256_hex(out, data, 32 + (size_t)n);
}
