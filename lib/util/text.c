/* text.c - UTF-8 validation and decoding, did-you-mean, NULL-safe compares */
#include <ctype.h>
#include <stdint.h>
#include <string.h>

#include "util/text.h"

size_t
smp__utf8_decode(const unsigned char *s, size_t n, long *cp)
{
	unsigned c = s[0], k, len;
	unsigned long v, min;

	if (c < 0x80) {
		*cp = (long)c;
		return 1;
	} else if (c >= 0xC2 && c <= 0xDF) {
		len = 2, v = c & 0x1F, min = 0x80;
	} else if (c >= 0xE0 && c <= 0xEF) {
		len = 3, v = c & 0x0F, min = 0x800;
	} else if (c >= 0xF0 && c <= 0xF4) {
		len = 4, v = c & 0x07, min = 0x10000;
	} else {
		*cp = -1;
		return 1;
	}
	if (n < len) {
		*cp = -1;
		return 1;
	}
	for (k = 1; k < len; k++) {
		if ((s[k] & 0xC0) != 0x80) {
			*cp = -1;
			return 1;
		}
		v = (v << 6) | (s[k] & 0x3F);
	}
	if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) {
		*cp = -1;
		return 1;
	}
	*cp = (long)v;
	return len;
}

int
smp__utf8_valid(const char *buf, size_t len, size_t *bad)
{
	const unsigned char *s = (const unsigned char *)buf;
	size_t i = 0;

	while (i < len) {
		unsigned c = s[i];
		size_t n;
		long cp;

		if (c < 0x80) {
			uint64_t w;

			/* then ASCII eight bytes at a time: most specs are */
			for (i++; len - i >= 8; i += 8) {
				memcpy(&w, s + i, 8);
				if (w & 0x8080808080808080u)
					break;
			}
			continue;
		}
		n = smp__utf8_decode(s + i, len - i, &cp);
		if (cp < 0) {
			*bad = i;
			return 0;
		}
		i += n;
	}
	return 1;
}

/*
 * How far apart the letter counts of a and b are (case-insensitive, in
 * 32 buckets): an edit changes them by at most 2 and a transposition not
 * at all, so this is at most twice the edit distance, and most pairs of
 * unlike words are told apart here without the table.
 */
static size_t
letters_apart(const char *a, size_t la, const char *b, size_t lb)
{
	unsigned char h[32] = {0};
	size_t i, only_b = 0;

	/* both are at most 64 bytes long (the caller's limit) */
	for (i = 0; i < la; i++)
		h[tolower((unsigned char)a[i]) & 31]++;
	/* a letter of b either meets one of a left in its bucket or not;
	 * the letters of a that none met are la - (lb - only_b) */
	for (i = 0; i < lb; i++) {
		unsigned char *c = &h[tolower((unsigned char)b[i]) & 31];

		if (*c)
			(*c)--;
		else
			only_b++;
	}
	return la - (lb - only_b) + only_b;
}

size_t
smp__edit_distance(const char *a, const char *b, size_t limit)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t row0[65], row1[65], row2[65];
	size_t *pp = row0, *prev = row1, *cur = row2, *t;

	if (la > 64 || lb > 64)
		return limit + 1;
	if ((la > lb ? la - lb : lb - la) > limit ||
	    letters_apart(a, la, b, lb) > 2 * limit)
		return limit + 1;
	for (j = 0; j <= lb; j++)
		prev[j] = j;
	for (i = 1; i <= la; i++) {
		size_t best;

		cur[0] = i;
		best = i;
		for (j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]);
			int cb = tolower((unsigned char)b[j - 1]);
			size_t cost = ca != cb, v;

			v = prev[j] + 1;
			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (prev[j - 1] + cost < v)
				v = prev[j - 1] + cost;
			if (i > 1 && j > 1 &&
			    ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb &&
			    pp[j - 2] + 1 < v)
				v = pp[j - 2] + 1;
			cur[j] = v;
			if (v < best)
				best = v;
		}
		if (best > limit)
			return limit + 1;
		t = pp;
		pp = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb];
}

const char *
smp__did_you_mean(const char *word, const char *const *candidates, size_t count)
{
	size_t wl = strlen(word), limit, i, best_d;
	const char *best = NULL;

	limit = wl < 4 ? 1 : wl < 8 ? 2 : 3;
	best_d = limit + 1;
	for (i = 0; i < count; i++) {
		size_t d = smp__edit_distance(word, candidates[i], limit);

		if (d < best_d) {
			best_d = d;
			best = candidates[i];
		}
	}
	return best;
}

int
smp__hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

char *
smp__utf8_put(char *o, unsigned long cp)
{
	if (cp < 0x80) {
		*o++ = (char)cp;
	} else if (cp < 0x800) {
		*o++ = (char)(0xC0 | (cp >> 6));
		*o++ = (char)(0x80 | (cp & 0x3F));
	} else if (cp < 0x10000) {
		*o++ = (char)(0xE0 | (cp >> 12));
		*o++ = (char)(0x80 | ((cp >> 6) & 0x3F));
		*o++ = (char)(0x80 | (cp & 0x3F));
	} else {
		*o++ = (char)(0xF0 | (cp >> 18));
		*o++ = (char)(0x80 | ((cp >> 12) & 0x3F));
		*o++ = (char)(0x80 | ((cp >> 6) & 0x3F));
		*o++ = (char)(0x80 | (cp & 0x3F));
	}
	return o;
}

int
smp__streq(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

int
smp__starts_with(const char *s, const char *prefix)
{
	return s && strncmp(s, prefix, strlen(prefix)) == 0;
}

int
smp__ends_with(const char *s, const char *suffix)
{
	size_t n, k = strlen(suffix);

	if (!s)
		return 0;
	n = strlen(s);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

int
smp__parse_count(const char *s, size_t len, long long *out)
{
	long long v = 0;
	size_t i;

	if (!s || len == 0)
		return -1;
	for (i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
		if (v > SMP_COUNT_MAX)
			return -1;
	}
	if (v == 0)
		return -1;
	*out = v;
	return 0;
}

const char *
smp__exponent_end(const char *s)
{
	if (*s != 'e' && *s != 'E')
		return s;
	s++;
	if (*s == '+' || *s == '-')
		s++;
	if (!(*s >= '0' && *s <= '9'))
		return NULL;
	while (*s >= '0' && *s <= '9')
		s++;
	return s;
}

int
smp__is_json_number(const char *s)
{
	if (*s == '-')
		s++;
	if (*s == '0')
		s++;
	else if (*s >= '1' && *s <= '9')
		while (*s >= '0' && *s <= '9')
			s++;
	else
		return 0;
	if (*s == '.') {
		s++;
		if (!(*s >= '0' && *s <= '9'))
			return 0;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	s = smp__exponent_end(s);
	return s && *s == '\0';
}

int
smp__mem_contains(const char *buf, size_t len, const char *word)
{
	size_t n = strlen(word);
	const char *p, *end;

	if (!buf || n == 0)
		return n == 0;
	p = buf;
	end = buf + len;
	while ((size_t)(end - p) >= n) {
		p = memchr(p, word[0], (size_t)(end - p) - n + 1);
		if (!p)
			return 0;
		if (memcmp(p, word, n) == 0)
			return 1;
		p++;
	}
	return 0;
}

#define BYTES(c) (0x0101010101010101u * (uint64_t)(c))
#define HIGH_BITS BYTES(0x80)
/* a byte below c (at most 0x80) in x: no false negative (Hacker's
 * Delight 6-1), a false positive costs only the slow path */
#define HAS_LESS(x, c) (((x)-BYTES(c)) & ~(x)&HIGH_BITS)

/* See text.h. */
size_t
smp__json_plain_run(const unsigned char *s, size_t n)
{
	size_t i = 0;

	for (; n - i >= 8; i += 8) {
		uint64_t x, q, e;

		memcpy(&x, s + i, 8);
		q = x ^ BYTES('"');
		e = x ^ BYTES('\\');
		if (HAS_LESS(x, 0x20) | HAS_LESS(q, 1) | HAS_LESS(e, 1) |
		    (x & HIGH_BITS))
			break;
	}
	while (i < n && s[i] >= 0x20 && s[i] < 0x80 && s[i] != '"' &&
	       s[i] != '\\')
		i++;
	return i;
}
