/*
 * regex.h - the schemas' "pattern": POSIX extended regular expressions
 * compiled through a Thompson program into a deterministic automaton of
 * constant tables (so that an embedded schema's patterns are C tables
 * too): matching is one table look-up a byte, no allocation.
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

/* most states and transitions of a pattern's automaton */
#define SMP_RX_STATES 254
#define SMP_RX_DEAD 255
#define SMP_RX_TABLE 4096

/* what a state says (struct smp_rx.accept) */
enum {
	SMP_RX_ACCEPT = 1,       /* a match ends here */
	SMP_RX_ACCEPT_AT_END = 2 /* one ends here if the text does */
};

/*
 * A compiled pattern: a deterministic automaton over classes of bytes,
 * state 0 at the start of the text. The tables are constant, so that the
 * schema generator can write them as C.
 */
struct smp_rx {
	unsigned char cls[256]; /* byte -> class */
	unsigned short ncls, nstates;
	const unsigned char *next;   /* [state * ncls + class]: state or DEAD */
	const unsigned char *accept; /* [state] */
};

/* where smp__rx_compile() puts the tables */
struct smp_rx_buf {
	unsigned char next[SMP_RX_TABLE];
	unsigned char accept[SMP_RX_STATES];
};

/*
 * Compiles pattern src (NUL-terminated) into out, its tables in buf
 * (out->next and out->accept point there). 0, or -1 with *why set to a
 * static reason. Allocates nothing.
 */
int smp__rx_compile(const char *src, struct smp_rx *out, struct smp_rx_buf *buf,
		    const char **why);

/* 1 when rx matches somewhere in text[0, len), else 0. Linear in len. */
int smp__rx_match(const struct smp_rx *rx, const char *text, size_t len);

#endif
