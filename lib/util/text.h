/* text.h - UTF-8 and did-you-mean helpers shared by every stage */
#ifndef SMP_TEXT_H
#define SMP_TEXT_H

#include <stddef.h>

/*
 * Returns 1 when buf[0..len) is valid UTF-8 (no overlongs, surrogates or
 * code points above U+10FFFF); else 0 with *bad set to the first bad byte.
 */
int smp__utf8_valid(const char *buf, size_t len, size_t *bad);

/*
 * Decodes the character at s[0..n): returns its length in bytes (at least
 * 1) and sets *cp to the code point, or to -1 when the bytes are not valid
 * UTF-8 (overlong, surrogate, above U+10FFFF, truncated).
 */
size_t smp__utf8_decode(const unsigned char *s, size_t n, long *cp);

/* The value of a hexadecimal digit, or -1. */
int smp__hex_value(char c);

/* Writes code point cp (at most U+10FFFF) as UTF-8 at o; returns o past it. */
char *smp__utf8_put(char *o, unsigned long cp);

/*
 * Edit distance (Damerau-Levenshtein, optimal string alignment) capped at
 * limit+1: used for did-you-mean suggestions.
 */
size_t smp__edit_distance(const char *a, const char *b, size_t limit);

/*
 * The candidate closest to word (case-insensitive, within a distance that
 * grows with the word), or NULL when none is close enough.
 */
const char *smp__did_you_mean(const char *word, const char *const *candidates,
			      size_t count);

/*
 * How many bytes from s on a JSON string holds as they are (ASCII other
 * than '"', '\\' and control characters), at most n: eight at a time
 * until a word may hold another byte, then one at a time. The JSON
 * loader's string scanner and the JSON writers' escaper share it.
 */
size_t smp__json_plain_run(const unsigned char *s, size_t n);

/* A name with its length, for tables of names that are compared by
 * length first: a name of another length is none of them. */
struct smp_name {
	const char *name;
	size_t len;
};
#define SMP_NAME(s)                                                            \
	{                                                                      \
		(s), sizeof(s) - 1                                             \
	}

/* 1 when buf[0..len) holds word (memmem(), which C11 lacks). */
int smp__mem_contains(const char *buf, size_t len, const char *word);

/* 1 when a and b are both non-NULL and equal. */
int smp__streq(const char *a, const char *b);

/* 1 when s is non-NULL and starts (ends) with prefix (suffix). */
int smp__starts_with(const char *s, const char *prefix);
int smp__ends_with(const char *s, const char *suffix);

/*
 * Past the exponent at s ("e5", "E-07") when there is one, s itself when
 * *s is not 'e' or 'E', or NULL for an 'e' without digits: the tail that
 * JSON numbers and YAML floats share.
 */
const char *smp__exponent_end(const char *s);

/* 1 when s is a JSON number (RFC 8259 section 6), else 0. */
int smp__is_json_number(const char *s);

/* The largest count smp__parse_count() accepts. */
#define SMP_COUNT_MAX 1000000000LL

/*
 * The one parser of a positive whole number written in decimal digits
 * (no sign, no spaces), such as a GPU count in a string: 0 with *out set,
 * or -1 when s[0..len) is empty, holds anything else, is 0 or is above
 * SMP_COUNT_MAX.
 */
int smp__parse_count(const char *s, size_t len, long long *out);

#endif
