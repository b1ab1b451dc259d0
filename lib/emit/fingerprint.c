/*
 * fingerprint.c - SARIF partialFingerprints (fingerprint.h).
 */
#include <string.h>

#include "emit/fingerprint.h"
#include "util/siphash.h"

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
uint64_t
smp__fingerprint_key(const char *rule, const char *path, const char *text,
		     size_t len)
{
	static const struct smp_hashkey k = {SMP_FINGERPRINT_K0,
					     SMP_FINGERPRINT_K1};
	struct smp_siphash h;
	const char *p = text ? text : "", *end = p + (text ? len : 0);
	size_t words = 0;

	smp__siphash_init(&h, &k);
	smp__siphash_update(&h, rule, strlen(rule) + 1);
	smp__siphash_update(&h, path, strlen(path) + 1);
	/* the same bytes as smp__line_normalize(), without a copy */
	for (;;) {
		const char *w;

		while (p < end && space(*p))
			p++;
		if (p == end || !*p)
			break;
		w = p;
		while (p < end && *p && !space(*p))
			p++;
		if (words++)
			smp__siphash_update(&h, " ", 1);
		smp__siphash_update(&h, w, (size_t)(p - w));
	}
	smp__siphash_update(&h, "", 1);
	return smp__siphash_final(&h);
}

/* 1 for a byte that continues a UTF-8 sequence. */
static int
continuation(char c)
{
	return ((unsigned char)c & 0xC0) == 0x80;
}

/* See fingerprint.h. */
size_t
smp__fingerprint_text(struct smp__fp_cursor *c, const char *line,
		      uint32_t column, const char **start)
{
	size_t from, to, half = SMP_FINGERPRINT_WINDOW / 2;

	line = line ? line : "";
	if (c->line != line) {
		c->line = line;
		c->len = strlen(line);
		c->column = 1;
		c->at = 0;
	}
	*start = line;
	if (c->len <= SMP_FINGERPRINT_WINDOW)
		return c->len; /* the whole line, as always */
	/* the byte of the column: from the last one when it is not past it
	 * (a report's findings come in line and column order) */
	if (column < c->column) {
		c->column = 1;
		c->at = 0;
	}
	while (c->column < column && c->at < c->len) {
		c->at++;
		while (c->at < c->len && continuation(line[c->at]))
			c->at++;
		c->column++;
	}
	from = c->at > half ? c->at - half : 0;
	to = c->len - c->at > half ? c->at + half : c->len;
	while (from < to && continuation(line[from]))
		from++;
	while (to > from && to < c->len && continuation(line[to]))
		to--;
	*start = line + from;
	return to - from;
}

/* See fingerprint.h. */
void
smp__fingerprint_hex(char out[SMP_FINGERPRINT_SIZE], uint64_t key,
		     size_t occurrence)
{
	static const char hex[] = "0123456789abcdef";
	char digits[24];
	size_t n = 0, i;

	for (i = 0; i < 16; i++)
		out[i] = hex[(key >> (60 - 4 * i)) & 0xf];
	out[16] = ':';
	/* the occurrence in decimal, as "%zu" writes it */
	do {
		digits[n++] = (char)('0' + occurrence % 10);
		occurrence /= 10;
	} while (occurrence);
	for (i = 0; i < n; i++)
		out[17 + i] = digits[n - 1 - i];
	out[17 + n] = '\0';
}
