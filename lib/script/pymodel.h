/*
 * pymodel.h - the one model of a Python source that every Python reader
 * consumes: the tokens (pytok.h, comments left out) with their brackets
 * matched, the logical statements with their token spans and their place
 * in the block structure, and the names the imports bind. The entry-script
 * facts (pyscan.h) and the launcher evaluator (job/source_python.h) read
 * it; neither tokenizes on its own.
 *
 * It takes plain Python text: a notebook's cells are turned into such
 * text before (positions are those of the buffer given). What CPython's
 * tokenizer rejects (a stray character, an unterminated string,
 * unbalanced brackets) is recorded as the first syntax error; the model
 * is complete anyway, so that readers that need no valid Python still
 * work. Memory: the token, statement and binding arrays, linear in the
 * input, freed with smp__pymodel_release().
 */
#ifndef SMP_PYMODEL_H
#define SMP_PYMODEL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "script/pytok.h"
#include "util/alloc.h"
#include "util/arena.h"

/*
 * One token of the source, comments left out: 32 bytes, since a large
 * source has a token every few bytes (smp__pym_start / smp__pym_end give
 * its positions as struct smp_pos).
 */
struct smp_pytoken {
	unsigned char kind;  /* enum smp_pytok_kind */
	unsigned char flags; /* SMP_PYSTR_* */
	/* an OP's enum smp_pyop, a NAME's enum smp_pykw (0: no keyword):
	 * what readers test on every token, found once */
	unsigned char code;
	uint32_t off, len;
	uint32_t match; /* the matching bracket's index, for ( [ { ) ] } */
	uint32_t line, column, end_line, end_column;
};

/* The operators and delimiters, in the order of smp__pyop_spelling(). */
enum smp_pyop {
	SMP_PYOP_NONE = 0,
	SMP_PYOP_LPAR,
	SMP_PYOP_RPAR,
	SMP_PYOP_LSQB,
	SMP_PYOP_RSQB,
	SMP_PYOP_LBRACE,
	SMP_PYOP_RBRACE,
	SMP_PYOP_COLON,
	SMP_PYOP_COMMA,
	SMP_PYOP_SEMI,
	SMP_PYOP_DOT,
	SMP_PYOP_PLUS,
	SMP_PYOP_MINUS,
	SMP_PYOP_STAR,
	SMP_PYOP_SLASH,
	SMP_PYOP_PERCENT,
	SMP_PYOP_AMPER,
	SMP_PYOP_VBAR,
	SMP_PYOP_CIRCUMFLEX,
	SMP_PYOP_TILDE,
	SMP_PYOP_LESS,
	SMP_PYOP_GREATER,
	SMP_PYOP_EQUAL,
	SMP_PYOP_AT,
	SMP_PYOP_EXCLAMATION,
	SMP_PYOP_DOUBLESTAR,
	SMP_PYOP_DOUBLESLASH,
	SMP_PYOP_RSHIFT,
	SMP_PYOP_LSHIFT,
	SMP_PYOP_LESSEQUAL,
	SMP_PYOP_GREATEREQUAL,
	SMP_PYOP_EQEQUAL,
	SMP_PYOP_NOTEQUAL,
	SMP_PYOP_RARROW,
	SMP_PYOP_PLUSEQUAL,
	SMP_PYOP_MINEQUAL,
	SMP_PYOP_STAREQUAL,
	SMP_PYOP_SLASHEQUAL,
	SMP_PYOP_PERCENTEQUAL,
	SMP_PYOP_AMPEREQUAL,
	SMP_PYOP_VBAREQUAL,
	SMP_PYOP_CIRCUMFLEXEQUAL,
	SMP_PYOP_ATEQUAL,
	SMP_PYOP_COLONEQUAL,
	SMP_PYOP_NOTEQUAL_OLD, /* <> */
	SMP_PYOP_DOUBLESTAREQUAL,
	SMP_PYOP_DOUBLESLASHEQUAL,
	SMP_PYOP_RSHIFTEQUAL,
	SMP_PYOP_LSHIFTEQUAL,
	SMP_PYOP_ELLIPSIS,
	SMP_PYOP_COUNT
};

/* The keywords and soft keywords readers test (the token module's
 * names, lower-case), and the constants. */
enum smp_pykw {
	SMP_PYKW_NONE = 0,
	SMP_PYKW_AND,
	SMP_PYKW_AS,
	SMP_PYKW_ASSERT,
	SMP_PYKW_ASYNC,
	SMP_PYKW_AWAIT,
	SMP_PYKW_BREAK,
	SMP_PYKW_CASE,
	SMP_PYKW_CLASS,
	SMP_PYKW_CONTINUE,
	SMP_PYKW_DEF,
	SMP_PYKW_DEL,
	SMP_PYKW_ELIF,
	SMP_PYKW_ELSE,
	SMP_PYKW_EXCEPT,
	SMP_PYKW_FALSE,
	SMP_PYKW_FINALLY,
	SMP_PYKW_FOR,
	SMP_PYKW_FROM,
	SMP_PYKW_GLOBAL,
	SMP_PYKW_IF,
	SMP_PYKW_IMPORT,
	SMP_PYKW_IN,
	SMP_PYKW_IS,
	SMP_PYKW_LAMBDA,
	SMP_PYKW_MATCH,
	SMP_PYKW_NONE_CONST,
	SMP_PYKW_NONLOCAL,
	SMP_PYKW_NOT,
	SMP_PYKW_OR,
	SMP_PYKW_PASS,
	SMP_PYKW_RAISE,
	SMP_PYKW_RETURN,
	SMP_PYKW_TRUE,
	SMP_PYKW_TRY,
	SMP_PYKW_WHILE,
	SMP_PYKW_WITH,
	SMP_PYKW_YIELD,
	SMP_PYKW_COUNT
};

/* The spelling of an operator code ("" for SMP_PYOP_NONE). */
const char *smp__pyop_spelling(unsigned code);

/*
 * Tokens kept at most: past them the model ends (an END token follows
 * the last one kept) and `cut` is set with the position where it was
 * cut. A million tokens is 32 MiB; no launcher or training script
 * written by hand comes near.
 */
#define SMP_PYMODEL_MAX_TOKENS ((size_t)1 << 20)

enum smp_pystmt_kind {
	SMP_PYSTMT_SIMPLE = 0, /* up to its ';' or NEWLINE */
	SMP_PYSTMT_HEADER,     /* a compound statement's header, to its ':' */
	SMP_PYSTMT_DECORATOR   /* an '@' line */
};

struct smp_pystmt {
	enum smp_pystmt_kind kind;
	size_t first; /* its first token */
	size_t end;   /* the token after it: ';', NEWLINE, or after ':' */
	size_t colon; /* HEADER: its ':' (or the line's end) */
	unsigned int dedents; /* DEDENTs just before it */
	int indent;           /* an INDENT just before it */
	int same_line;        /* after a ';' or a header's ':' on its line */
	size_t bind, nbind;   /* its import bindings */
};

/* A name an import statement binds. */
struct smp_pybinding {
	const char *name; /* in the buffer: not NUL-terminated */
	size_t name_len;
	const char *target; /* "torch_xla.core.xla_model"; NUL-terminated */
	size_t target_len;
	size_t name_tok; /* the token of the name bound */
	size_t path_tok; /* the first token of the module path */
	int relative;    /* from . import x: target starts with '.' */
};

struct smp_pymodel {
	const char *buf;
	size_t len;
	struct smp_pytoken *toks; /* ends with one END token */
	size_t ntoks, captoks;
	struct smp_pystmt *stmts;
	size_t nstmts, capstmts;
	struct smp_pybinding *binds;
	size_t nbinds, capbinds;
	size_t comments;   /* comment tokens left out */
	size_t bad_tokens; /* ERROR tokens and unterminated strings */
	int cut;           /* 1: more than SMP_PYMODEL_MAX_TOKENS tokens */
	struct smp_pos cut_at;
	int syntax; /* 1: CPython's tokenizer would reject it */
	struct smp_pos err_at;
	char err[160];
	const struct smp_allocator *alloc;
	struct smp_arena arena; /* binding targets */
};

/*
 * Builds the model of buf[0..len) (any bytes, len below 4 GiB). Returns
 * 0, SMP_EINVAL for a larger buffer, or SMP_ENOMEM (the model is then
 * released). Release it in any case.
 */
int smp__pymodel_build(struct smp_pymodel *m, const struct smp_allocator *a,
		       const char *buf, size_t len);
void smp__pymodel_release(struct smp_pymodel *m);

/*
 * The token helpers every reader calls for every token: inline, so that
 * the spelling compared folds to a constant.
 */

/* Token i, or the END token when i is past it. */
static inline const struct smp_pytoken *
smp__pym_tok(const struct smp_pymodel *m, size_t i)
{
	/* the array always ends with an END token */
	return &m->toks[i < m->ntoks ? i : m->ntoks - 1];
}

/* Where token i starts, and just after it. */
static inline struct smp_pos
smp__pym_start(const struct smp_pymodel *m, size_t i)
{
	const struct smp_pytoken *t = smp__pym_tok(m, i);
	struct smp_pos p;

	p.line = t->line;
	p.column = t->column;
	p.offset = t->off;
	return p;
}

static inline struct smp_pos
smp__pym_end(const struct smp_pymodel *m, size_t i)
{
	const struct smp_pytoken *t = smp__pym_tok(m, i);
	struct smp_pos p;

	p.line = t->end_line;
	p.column = t->end_column;
	p.offset = (size_t)t->off + t->len;
	return p;
}

/* 1 when token i is the operator op / the name name. */
static inline int
smp__pym_op(const struct smp_pymodel *m, size_t i, const char *op)
{
	const struct smp_pytoken *t = smp__pym_tok(m, i);

	return t->kind == SMP_PYTOK_OP && t->len == strlen(op) &&
	       memcmp(m->buf + t->off, op, t->len) == 0;
}

static inline int
smp__pym_name(const struct smp_pymodel *m, size_t i, const char *name)
{
	const struct smp_pytoken *t = smp__pym_tok(m, i);

	return t->kind == SMP_PYTOK_NAME && t->len == strlen(name) &&
	       memcmp(m->buf + t->off, name, t->len) == 0;
}

/* Token i's operator code, or SMP_PYOP_NONE when it is no operator. */
static inline unsigned
smp__pym_opcode(const struct smp_pymodel *m, size_t i)
{
	const struct smp_pytoken *t = smp__pym_tok(m, i);

	return t->kind == SMP_PYTOK_OP ? t->code : SMP_PYOP_NONE;
}

/* Token i's keyword code, or SMP_PYKW_NONE when it is no keyword. */
static inline unsigned
smp__pym_kw(const struct smp_pymodel *m, size_t i)
{
	const struct smp_pytoken *t = smp__pym_tok(m, i);

	return t->kind == SMP_PYTOK_NAME ? t->code : SMP_PYKW_NONE;
}

/* 1 when token i is ( [ or {. */
static inline int
smp__pym_is_open(const struct smp_pymodel *m, size_t i)
{
	const struct smp_pytoken *t = smp__pym_tok(m, i);

	return t->kind == SMP_PYTOK_OP && t->len == 1 &&
	       (m->buf[t->off] == '(' || m->buf[t->off] == '[' ||
		m->buf[t->off] == '{');
}

/* 1 when token i is a NEWLINE or the END. */
static inline int
smp__pym_line_end(const struct smp_pymodel *m, size_t i)
{
	unsigned char k = smp__pym_tok(m, i)->kind;

	return k == SMP_PYTOK_NEWLINE || k == SMP_PYTOK_END;
}

/* The index of the statement that starts at token i, or nstmts. */
size_t smp__pym_stmt_at(const struct smp_pymodel *m, size_t i);

/* The first binding of name[0..len) made before token `before` (the
 * newest), or NULL. Linear in the bindings: for the few lookups of rules. */
const struct smp_pybinding *smp__pym_binding(const struct smp_pymodel *m,
					     const char *name, size_t len,
					     size_t before);

#endif
