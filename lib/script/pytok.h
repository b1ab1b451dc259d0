/*
 * pytok.h - a Python tokenizer for the entry-script checks. It knows
 * what a rule must never look into: strings of every prefix and quoting
 * (an f-string is one token, its replacement fields included), comments,
 * explicit and implicit line continuations; and it reports the block
 * structure as INDENT/DEDENT. It is not a Python parser: bad input gives
 * ERROR tokens or unterminated strings, never a failure.
 *
 * Streaming and allocation-free: the state holds everything (a bounded
 * indentation stack), so any bytes tokenize in linear time and constant
 * memory. Positions are 1-based lines and columns counted in code points
 * (a tab is one column), with lines ended by LF, CRLF or a lone CR, as
 * smp__pos_at() counts them.
 */
#ifndef SMP_PYTOK_H
#define SMP_PYTOK_H

#include <stddef.h>
#include <stdint.h>

#include "doc/doc.h"

enum smp_pytok_kind {
	SMP_PYTOK_END = 0, /* repeated once the input is exhausted */
	SMP_PYTOK_NAME,    /* identifiers and keywords */
	SMP_PYTOK_NUMBER,
	SMP_PYTOK_STRING, /* with its prefix and quotes; see flags */
	SMP_PYTOK_OP,     /* operators and delimiters, longest match */
	SMP_PYTOK_COMMENT,
	SMP_PYTOK_NEWLINE, /* end of a logical line (empty at end of input) */
	SMP_PYTOK_INDENT,  /* empty, at the first token of the line */
	SMP_PYTOK_DEDENT,  /* empty, one per closed level */
	SMP_PYTOK_ERROR    /* a byte that starts no token, a stray '\' */
};

/* Flags of a STRING token. */
#define SMP_PYSTR_RAW 0x01u
#define SMP_PYSTR_BYTES 0x02u
#define SMP_PYSTR_FORMAT 0x04u
#define SMP_PYSTR_TRIPLE 0x08u
#define SMP_PYSTR_UNTERMINATED 0x10u

/* Deepest indentation and f-string nesting tracked (as CPython's). */
#define SMP_PYTOK_MAX_INDENT 100
#define SMP_PYTOK_MAX_FSTRING 8

struct smp_pytok {
	enum smp_pytok_kind kind;
	unsigned int flags;   /* SMP_PYSTR_* for strings */
	size_t off;           /* first byte */
	size_t len;           /* bytes */
	struct smp_pos start; /* line, column and offset of the first byte */
	struct smp_pos end;   /* just after the last byte */
	size_t depth;         /* open brackets before this token */
};

/* The tokenizer's state; fill with smp__pytok_init(). */
struct smp_pytok_state {
	const char *buf;
	size_t len;
	size_t pos;
	uint32_t line;
	uint32_t column;
	size_t depth;          /* open (, [ and { */
	int at_line_start;     /* indentation not yet measured */
	int line_has_token;    /* the logical line holds a token */
	unsigned int pending;  /* DEDENTs still to emit */
	unsigned int overflow; /* indentation deeper than the stack */
	unsigned int nindent;
	unsigned int indent[SMP_PYTOK_MAX_INDENT];
};

/* Starts tokenizing buf[0..len) (any bytes; need not end in NUL). */
void smp__pytok_init(struct smp_pytok_state *s, const char *buf, size_t len);

/*
 * Starts in the middle of buf, at a byte offset known to begin a token
 * outside brackets (pos must be the offset of an earlier token's start):
 * used to look at a statement again. No indentation is tracked.
 */
void smp__pytok_init_at(struct smp_pytok_state *s, const char *buf, size_t len,
			const struct smp_pos *pos);

/* The next token into *t. Linear overall; never fails. */
void smp__pytok_next(struct smp_pytok_state *s, struct smp_pytok *t);

/* 1 when t is the operator or name spelled exactly s. */
int smp__pytok_is(const struct smp_pytok *t, const char *buf, const char *s);

/*
 * The text between the quotes of a STRING token (prefix and quotes
 * removed, escapes kept as written) in *body / *blen. Returns 1 when the
 * body is exactly the string's value: not an f-string, no backslash, and
 * terminated; else 0 (the body is still set, for prefix tests).
 */
int smp__pystr_body(const struct smp_pytok *t, const char *buf,
		    const char **body, size_t *blen);

#endif
