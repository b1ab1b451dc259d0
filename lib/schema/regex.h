/*
 * regex.h - the schemas' "pattern": POSIX extended regular expressions
 * compiled into a small program of constant instructions (so that an
 * embedded schema's patterns are C tables too) and matched by a Thompson
 * simulation: time linear in the text, no allocation, no recursion.
 *
 * The syntax is POSIX ERE over bytes: literals, '.', bracket expressions
 * (ranges, negation, [:alpha:] and the other classes of the C locale),
 * '^', '$', groups, '|', '*', '+', '?', {n}, {n,} and {n,m}. A backslash
 * escapes a punctuation character; "\d", "\w" and other escapes of
 * letters or digits are refused, since POSIX leaves them undefined (write
 * [0-9]). Matching is a search (unanchored unless the pattern says '^' or
 * '$'), as regexec() does.
 */
#ifndef SMP_SCHEMA_REGEX_H
#define SMP_SCHEMA_REGEX_H

#include <stddef.h>

/* longest program a pattern may compile to */
#define SMP_RX_MAX 256

enum smp_rx_op {
	RX_SET,   /* one byte in set[], then the next instruction */
	RX_SPLIT, /* both x and y */
	RX_JMP,   /* x */
	RX_BOL,   /* only at the start of the text */
	RX_EOL,   /* only at its end */
	RX_MATCH
};

struct smp_rxi {
	unsigned char op; /* enum smp_rx_op */
	unsigned short x, y;
	unsigned char set[32]; /* RX_SET: bit b of set[b / 8] */
};

/*
 * Compiles pattern src (NUL-terminated) into out[0, *n) (SMP_RX_MAX
 * entries). 0, or -1 with *why set to a static reason.
 */
int smp__rx_compile(const char *src, struct smp_rxi *out, size_t *n,
		    const char **why);

/* 1 when prog[0, n) matches somewhere in text[0, len), else 0. */
int smp__rx_match(const struct smp_rxi *prog, size_t n, const char *text,
		  size_t len);

#endif
