/*
 * pyscan.c - the structure pass (see pyscan.h): one walk over the tokens
 * with a few small, bounded stacks. Blocks come from the tokenizer's
 * INDENT/DEDENT: a header (def, class, for, while, if ...) ends at its
 * ':' outside brackets, and its body is either the INDENT-ed suite that
 * follows or the rest of the line. Calls are found at '(' after a dotted
 * name, and their arguments are split at the call's own commas.
 */
#include <stdio.h>
#include <string.h>

#include "script/pymodel.h"
#include "script/pyscan.h"
#include "smpreflight.h"

#define RING 32         /* recent tokens, for callee chains */
#define MAX_BLOCKS 64   /* nested def/class/loop/if tracked */
#define MAX_BRACKETS 64 /* nested brackets tracked */
#define MAX_LHS 8       /* first tokens of a statement kept */

enum hdr {
	HDR_NONE,
	HDR_ASYNC, /* 'async' seen: def, for or with follows */
	HDR_DEF,
	HDR_CLASS,
	HDR_FOR,
	HDR_WHILE,
	HDR_IF,
	HDR_OTHER /* with, try, else, except ...: a body, nothing recorded */
};

enum blk { BLK_DEF, BLK_CLASS, BLK_LOOP, BLK_IF, BLK_OTHER };

struct block {
	enum blk kind;
	int index; /* into defs or loops */
	unsigned int level;
	int single; /* a body on the header's line */
	int periodic;
};

struct bracket {
	size_t depth;
	int call;    /* index, or -1 for a bracket that is no call */
	size_t ntok; /* tokens of the current argument at this level */
	int is_kw;
	const char *kw;
	struct smp_pos kw_start;
	struct smp_pytok first;
	struct smp_pos last_end;
};

struct scanner {
	struct smp_pyscan *out;
	struct smp_arena *arena;
	const char *buf;
	int rc;

	struct smp_pytok ring[RING];
	size_t nring;

	struct block blocks[MAX_BLOCKS];
	unsigned int nblocks;
	unsigned int level;

	struct bracket br[MAX_BRACKETS];
	unsigned int nbr;

	/* the current statement */
	size_t stmt_ntok;
	struct smp_pytok lhs[MAX_LHS];
	int assigned;
	int pending_assign;
	int open_assign;

	/* a compound statement's header */
	enum hdr hdr;
	struct smp_pos hdr_start, hdr_kw_end;
	const char *hdr_name;
	struct smp_pos hdr_name_end;
	size_t hdr_nparams;
	const char *hdr_param0;
	int hdr_param_start, hdr_star;
	char hdr_base[256];
	size_t hdr_base_len;
	int hdr_base_state; /* 0 before '(', 1 collecting, 2 done */
	int hdr_periodic, hdr_main_name, hdr_main_str;

	/* after the header's ':' */
	int expect_body;
	int await_indent;
	enum blk body_kind;
	int body_index;
	int body_periodic;

	int import_mode; /* in an import statement: the model read it */
};

static const char *const keywords[] = {
	"False",  "None",     "True",  "and",    "as",       "assert",
	"async",  "await",    "break", "class",  "continue", "def",
	"del",    "elif",     "else",  "except", "finally",  "for",
	"from",   "global",   "if",    "import", "in",       "is",
	"lambda", "nonlocal", "not",   "or",     "pass",     "raise",
	"return", "try",      "while", "with",   "yield"};

static int
tok_is(const struct scanner *sc, const struct smp_pytok *t, const char *s)
{
	return smp__pytok_is(t, sc->buf, s);
}

static int
is_keyword(const struct scanner *sc, const struct smp_pytok *t)
{
	size_t i;

	if (t->kind != SMP_PYTOK_NAME)
		return 0;
	for (i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
		if (tok_is(sc, t, keywords[i]))
			return 1;
	return 0;
}

/* The i-th most recent token (1 = the last pushed), or NULL. */
static const struct smp_pytok *
recent(const struct scanner *sc, size_t i)
{
	if (i == 0 || i > sc->nring || i > RING)
		return NULL;
	return &sc->ring[(sc->nring - i) % RING];
}

/* Grows an arena array; 0, or -1 when the cap is reached or on OOM. */
static int
grow(struct scanner *sc, void **items, size_t *cap, size_t count, size_t elem)
{
	if (count < *cap)
		return 0;
	if (count >= SMP_PYSCAN_MAX) {
		sc->out->truncated = 1;
		return -1;
	}
	if (smp__arena_grow(sc->arena, items, cap, count + 1, elem)) {
		sc->rc = SMP_ENOMEM;
		return -1;
	}
	return 0;
}

static char *
tok_dup(struct scanner *sc, const struct smp_pytok *t)
{
	char *s = smp__arena_strndup(sc->arena, sc->buf + t->off, t->len);

	if (!s)
		sc->rc = SMP_ENOMEM;
	return s;
}

static char *
str_dup(struct scanner *sc, const char *s, size_t n)
{
	char *d = smp__arena_strndup(sc->arena, s, n);

	if (!d)
		sc->rc = SMP_ENOMEM;
	return d;
}

/* Innermost def (stopping at a class too) and loop inside it. */
static void
where(const struct scanner *sc, int *func, int *loop, int *periodic)
{
	unsigned int i = sc->nblocks;

	*func = -1;
	*loop = -1;
	if (periodic)
		*periodic = 0;
	while (i-- > 0) {
		const struct block *b = &sc->blocks[i];

		if (b->kind == BLK_DEF || b->kind == BLK_CLASS) {
			if (b->kind == BLK_DEF)
				*func = b->index;
			return;
		}
		if (b->kind == BLK_LOOP && *loop < 0)
			*loop = b->index;
		if (b->kind == BLK_IF && b->periodic && periodic)
			*periodic = 1;
	}
}

static int
enclosing_def(const struct scanner *sc)
{
	unsigned int i = sc->nblocks;

	while (i-- > 0)
		if (sc->blocks[i].kind == BLK_DEF ||
		    sc->blocks[i].kind == BLK_CLASS)
			return sc->blocks[i].index;
	return -1;
}

/* --- blocks ------------------------------------------------------------ */

static void
set_body(struct scanner *sc, enum blk kind, int index, size_t start, size_t end,
	 int set_start)
{
	if (index < 0)
		return;
	if (kind == BLK_DEF || kind == BLK_CLASS) {
		if (set_start)
			sc->out->defs[index].body_start = start;
		sc->out->defs[index].body_end = end;
	} else if (kind == BLK_LOOP) {
		if (set_start)
			sc->out->loops[index].body_start = start;
		sc->out->loops[index].body_end = end;
	}
}

static void
push_block(struct scanner *sc, int single, size_t body_start)
{
	struct block *b;

	set_body(sc, sc->body_kind, sc->body_index, body_start, body_start, 1);
	if (sc->body_kind == BLK_OTHER || sc->nblocks >= MAX_BLOCKS)
		return;
	b = &sc->blocks[sc->nblocks++];
	b->kind = sc->body_kind;
	b->index = sc->body_index;
	b->level = sc->level;
	b->single = single;
	b->periodic = sc->body_periodic;
}

/* Closes the one-line bodies (at NEWLINE) or the deeper suites. */
static void
pop_blocks(struct scanner *sc, size_t at, int singles)
{
	while (sc->nblocks > 0) {
		struct block *b = &sc->blocks[sc->nblocks - 1];

		if (singles ? !b->single : (b->single || b->level <= sc->level))
			break;
		set_body(sc, b->kind, b->index, 0, at, 0);
		sc->nblocks--;
	}
}

/* --- statements ---------------------------------------------------------- */

static void
reset_statement(struct scanner *sc)
{
	sc->stmt_ntok = 0;
	sc->assigned = 0;
	sc->pending_assign = -1;
	sc->open_assign = -1;
	sc->hdr = HDR_NONE;
}

static void
add_import(struct scanner *sc, const char *name, size_t nlen,
	   const char *target, size_t tlen)
{
	struct smp_pyimport *im;

	if (!nlen || !tlen ||
	    grow(sc, (void **)&sc->out->imports, &sc->out->cimports,
		 sc->out->nimports, sizeof(*im)))
		return;
	im = &sc->out->imports[sc->out->nimports];
	im->name = str_dup(sc, name, nlen);
	im->target = str_dup(sc, target, tlen);
	if (im->name && im->target)
		sc->out->nimports++;
}

/* NAME(.NAME)* [ '[' STRING ']' ] '=' : an assignment worth keeping. */
static void
try_assign(struct scanner *sc, size_t k)
{
	char chain[256];
	size_t n = 0, i, end = k;
	const struct smp_pytok *key = NULL;
	struct smp_pyassign *a;
	int exact = 0;

	if (k == 0 || k > MAX_LHS)
		return;
	if (k >= 4 && tok_is(sc, &sc->lhs[k - 3], "[") &&
	    sc->lhs[k - 2].kind == SMP_PYTOK_STRING &&
	    tok_is(sc, &sc->lhs[k - 1], "]")) {
		key = &sc->lhs[k - 2];
		end = k - 3;
	}
	if (end % 2 == 0)
		return;
	for (i = 0; i < end; i++) {
		const struct smp_pytok *t = &sc->lhs[i];

		if (i % 2 == 0 ? t->kind != SMP_PYTOK_NAME || is_keyword(sc, t)
			       : !tok_is(sc, t, "."))
			return;
		if (n + t->len + 1 >= sizeof(chain))
			return;
		memcpy(chain + n, sc->buf + t->off, t->len);
		n += t->len;
	}
	if (grow(sc, (void **)&sc->out->assigns, &sc->out->cassigns,
		 sc->out->nassigns, sizeof(*a)))
		return;
	a = &sc->out->assigns[sc->out->nassigns];
	memset(a, 0, sizeof(*a));
	a->target = str_dup(sc, chain, n);
	if (key) {
		const char *body;
		size_t blen;

		exact = smp__pystr_body(key, sc->buf, &body, &blen);
		a->key = str_dup(sc, body, blen);
		a->key_exact = exact;
	}
	if (sc->rc)
		return;
	a->start = sc->lhs[0].start;
	a->target_end = sc->lhs[k - 1].end;
	a->value.kind = SMP_PYTOK_END;
	where(sc, &a->func, &a->loop, NULL);
	sc->pending_assign = (int)sc->out->nassigns++;
}

/* --- headers ------------------------------------------------------------- */

static enum hdr
header_kind(const struct scanner *sc, const struct smp_pytok *t)
{
	if (t->kind != SMP_PYTOK_NAME)
		return HDR_NONE;
	if (tok_is(sc, t, "def"))
		return HDR_DEF;
	if (tok_is(sc, t, "class"))
		return HDR_CLASS;
	if (tok_is(sc, t, "for"))
		return HDR_FOR;
	if (tok_is(sc, t, "while"))
		return HDR_WHILE;
	if (tok_is(sc, t, "if") || tok_is(sc, t, "elif"))
		return HDR_IF;
	if (tok_is(sc, t, "async"))
		return HDR_ASYNC;
	if (tok_is(sc, t, "with") || tok_is(sc, t, "try") ||
	    tok_is(sc, t, "else") || tok_is(sc, t, "except") ||
	    tok_is(sc, t, "finally"))
		return HDR_OTHER;
	return HDR_NONE;
}

static void
start_header(struct scanner *sc, enum hdr kind, const struct smp_pytok *t)
{
	if (sc->hdr != HDR_ASYNC)
		sc->hdr_start = t->start;
	sc->hdr = kind;
	sc->hdr_kw_end = t->end;
	sc->hdr_name = NULL;
	sc->hdr_nparams = 0;
	sc->hdr_param0 = NULL;
	sc->hdr_param_start = 0;
	sc->hdr_star = 0;
	sc->hdr_base_len = 0;
	sc->hdr_base_state = 0;
	sc->hdr_periodic = 0;
	sc->hdr_main_name = 0;
	sc->hdr_main_str = 0;
}

/* The header's ':' : record it and expect its body. */
static void
end_header(struct scanner *sc)
{
	int func, loop;

	sc->body_kind = BLK_OTHER;
	sc->body_index = -1;
	sc->body_periodic = 0;
	if (sc->hdr == HDR_DEF || sc->hdr == HDR_CLASS) {
		struct smp_pydef *d;

		if (sc->hdr_name &&
		    !grow(sc, (void **)&sc->out->defs, &sc->out->cdefs,
			  sc->out->ndefs, sizeof(*d))) {
			d = &sc->out->defs[sc->out->ndefs];
			memset(d, 0, sizeof(*d));
			d->name = sc->hdr_name;
			d->is_class = sc->hdr == HDR_CLASS;
			d->start = sc->hdr_start;
			d->name_end = sc->hdr_name_end;
			d->parent = enclosing_def(sc);
			d->nparams = sc->hdr_nparams;
			d->param0 = sc->hdr_param0;
			if (sc->hdr_base_state == 2 && sc->hdr_base_len)
				d->base = str_dup(sc, sc->hdr_base,
						  sc->hdr_base_len);
			sc->body_kind = d->is_class ? BLK_CLASS : BLK_DEF;
			sc->body_index = (int)sc->out->ndefs++;
		}
	} else if (sc->hdr == HDR_FOR || sc->hdr == HDR_WHILE) {
		struct smp_pyloop *l;

		if (!grow(sc, (void **)&sc->out->loops, &sc->out->cloops,
			  sc->out->nloops, sizeof(*l))) {
			l = &sc->out->loops[sc->out->nloops];
			memset(l, 0, sizeof(*l));
			l->is_while = sc->hdr == HDR_WHILE;
			l->start = sc->hdr_start;
			l->kw_end = sc->hdr_kw_end;
			where(sc, &func, &loop, NULL);
			l->func = func;
			l->parent = loop;
			sc->body_kind = BLK_LOOP;
			sc->body_index = (int)sc->out->nloops++;
		}
	} else if (sc->hdr == HDR_IF) {
		sc->body_kind = BLK_IF;
		sc->body_periodic = sc->hdr_periodic;
		if (sc->hdr_main_name && sc->hdr_main_str && sc->level == 0 &&
		    !sc->out->has_main_guard) {
			sc->out->has_main_guard = 1;
			sc->out->main_guard = sc->hdr_start;
			sc->out->main_guard_end = sc->hdr_kw_end;
		}
	}
	sc->expect_body = 1;
}

/* One token of a header after its keyword. */
static void
header_token(struct scanner *sc, const struct smp_pytok *t)
{
	size_t d = t->depth;

	if (t->kind == SMP_PYTOK_OP && tok_is(sc, t, ":") && d == 0) {
		end_header(sc);
		return;
	}
	if ((sc->hdr == HDR_DEF || sc->hdr == HDR_CLASS) && !sc->hdr_name) {
		if (t->kind == SMP_PYTOK_NAME)
			sc->hdr_name = tok_dup(sc, t);
		sc->hdr_name_end = t->end;
		return;
	}
	if (sc->hdr == HDR_DEF) {
		if (d == 0 && tok_is(sc, t, "(")) {
			sc->hdr_param_start = 1;
		} else if (d == 1 && tok_is(sc, t, ",")) {
			sc->hdr_param_start = 1;
			sc->hdr_star = 0;
		} else if (d == 1 && sc->hdr_param_start) {
			if (tok_is(sc, t, "*") || tok_is(sc, t, "**")) {
				sc->hdr_star = 1;
				return;
			}
			if (t->kind == SMP_PYTOK_NAME) {
				if (!sc->hdr_param0)
					sc->hdr_param0 = tok_dup(sc, t);
				sc->hdr_nparams++;
			}
			sc->hdr_param_start = 0;
		}
		return;
	}
	if (sc->hdr == HDR_CLASS) {
		if (sc->hdr_base_state == 0 && d == 0 && tok_is(sc, t, "(")) {
			sc->hdr_base_state = 1;
		} else if (sc->hdr_base_state == 1) {
			int name = t->kind == SMP_PYTOK_NAME;

			if (d == 1 && (name || tok_is(sc, t, ".")) &&
			    sc->hdr_base_len + t->len < sizeof(sc->hdr_base)) {
				memcpy(sc->hdr_base + sc->hdr_base_len,
				       sc->buf + t->off, t->len);
				sc->hdr_base_len += t->len;
			} else {
				sc->hdr_base_state = 2;
			}
		}
		return;
	}
	if (sc->hdr == HDR_IF) {
		if (tok_is(sc, t, "%"))
			sc->hdr_periodic = 1;
		if (tok_is(sc, t, "__name__"))
			sc->hdr_main_name = 1;
		if (t->kind == SMP_PYTOK_STRING) {
			const char *body;
			size_t n;

			if (smp__pystr_body(t, sc->buf, &body, &n) && n == 8 &&
			    memcmp(body, "__main__", 8) == 0)
				sc->hdr_main_str = 1;
		}
	}
}

/* --- calls and arguments ------------------------------------------------- */

/* At '(' : the call whose callee ends just before, or -1. */
static int
maybe_call(struct scanner *sc, const struct smp_pytok *open)
{
	const struct smp_pytok *last = recent(sc, 1), *t, *before;
	char chain[256];
	size_t i = 1, n = 0, k;
	struct smp_pycall *c;
	int expr = 0;

	if (!last || last->kind != SMP_PYTOK_NAME || is_keyword(sc, last))
		return -1;
	while ((t = recent(sc, i + 1)) && tok_is(sc, t, ".") &&
	       (t = recent(sc, i + 2)) && t->kind == SMP_PYTOK_NAME &&
	       !is_keyword(sc, t))
		i += 2;
	before = recent(sc, i + 1);
	if (before &&
	    (tok_is(sc, before, "def") || tok_is(sc, before, "class")))
		return -1;
	if (before && (tok_is(sc, before, ".") || i + 1 > RING - 2))
		expr = 1;
	if (expr)
		chain[n++] = '.';
	for (k = i; k >= 1; k--) {
		t = recent(sc, k);
		if (n + t->len + 1 >= sizeof(chain))
			return -1;
		memcpy(chain + n, sc->buf + t->off, t->len);
		n += t->len;
	}
	if (grow(sc, (void **)&sc->out->calls, &sc->out->ccalls,
		 sc->out->ncalls, sizeof(*c)))
		return -1;
	c = &sc->out->calls[sc->out->ncalls];
	memset(c, 0, sizeof(*c));
	c->callee = str_dup(sc, chain, n);
	c->attr = tok_dup(sc, last);
	if (sc->rc)
		return -1;
	c->start = recent(sc, i)->start;
	c->attr_start = last->start;
	c->end = open->end;
	c->first_arg = -1;
	c->last_arg = -1;
	where(sc, &c->func, &c->loop, &c->periodic);
	return (int)sc->out->ncalls++;
}

/* The argument being read in bracket b ends (at ',' or ')'). */
static void
finish_arg(struct scanner *sc, struct bracket *b)
{
	struct smp_pycall *c;
	struct smp_pyarg *a;
	int idx;

	if (b->call < 0 || (b->ntok == 0 && !b->is_kw))
		goto reset;
	if (grow(sc, (void **)&sc->out->args, &sc->out->cargs, sc->out->nargs,
		 sizeof(*a)))
		goto reset;
	idx = (int)sc->out->nargs++;
	a = &sc->out->args[idx];
	memset(a, 0, sizeof(*a));
	a->name = b->is_kw ? b->kw : NULL;
	a->start = b->is_kw ? b->kw_start : b->first.start;
	a->first = b->first;
	if (b->ntok == 0)
		a->first.kind = SMP_PYTOK_END;
	a->ntok = b->ntok;
	a->end = b->last_end;
	a->call = b->call;
	a->next = -1;
	c = &sc->out->calls[b->call];
	if (c->last_arg >= 0)
		sc->out->args[c->last_arg].next = idx;
	else
		c->first_arg = idx;
	c->last_arg = idx;
	c->nargs++;
reset:
	b->ntok = 0;
	b->is_kw = 0;
	b->kw = NULL;
}

/* A token directly inside the innermost bracket (one level deeper). */
static void
arg_token(struct scanner *sc, const struct smp_pytok *t)
{
	struct bracket *b;

	if (sc->nbr == 0)
		return;
	b = &sc->br[sc->nbr - 1];
	if (b->call < 0 || t->depth != b->depth + 1)
		return;
	if (tok_is(sc, t, ",")) {
		finish_arg(sc, b);
		return;
	}
	if (tok_is(sc, t, "=") && b->ntok == 1 && !b->is_kw &&
	    b->first.kind == SMP_PYTOK_NAME) {
		b->is_kw = 1;
		b->kw = tok_dup(sc, &b->first);
		b->kw_start = b->first.start;
		b->ntok = 0;
		return;
	}
	if (b->ntok == 0)
		b->first = *t;
	b->ntok++;
	b->last_end = t->end;
}

static void
open_bracket(struct scanner *sc, const struct smp_pytok *t)
{
	int call = -1;
	struct bracket *b;

	if (tok_is(sc, t, "("))
		call = maybe_call(sc, t);
	arg_token(sc, t);
	if (t->depth >= MAX_BRACKETS || sc->nbr >= MAX_BRACKETS)
		return;
	b = &sc->br[sc->nbr++];
	memset(b, 0, sizeof(*b));
	b->depth = t->depth;
	b->call = call;
}

static void
close_bracket(struct scanner *sc, const struct smp_pytok *t)
{
	struct bracket *b;

	if (sc->nbr > 0 && sc->br[sc->nbr - 1].depth == t->depth) {
		b = &sc->br[--sc->nbr];
		if (b->call >= 0) {
			finish_arg(sc, b);
			sc->out->calls[b->call].end = t->end;
		}
	}
	arg_token(sc, t);
}

/* --- the walk ------------------------------------------------------------ */

static void
remember(struct scanner *sc, const struct smp_pytok *t)
{
	sc->ring[sc->nring % RING] = *t;
	sc->nring++;
}

/* A token of a statement (not NEWLINE, INDENT or DEDENT). */
static void
statement_token(struct scanner *sc, const struct smp_pytok *t)
{
	size_t k = sc->stmt_ntok;
	enum hdr h;

	if (k < MAX_LHS)
		sc->lhs[k] = *t;
	sc->stmt_ntok++;
	if (k == 0 || (k == 1 && sc->hdr == HDR_ASYNC)) {
		h = header_kind(sc, t);
		if (k == 0 &&
		    (tok_is(sc, t, "import") || tok_is(sc, t, "from"))) {
			sc->import_mode = 1;
		} else if (h != HDR_NONE && (k == 0 || h != HDR_ASYNC)) {
			start_header(sc, h, t);
			return;
		}
	}
	if (sc->import_mode) {
		if (t->depth == 0 && tok_is(sc, t, ";")) {
			sc->import_mode = 0;
			reset_statement(sc);
		}
		return;
	}
	if (sc->open_assign >= 0) {
		struct smp_pyassign *a = &sc->out->assigns[sc->open_assign];

		a->ntok++;
		a->value_end = t->end;
	} else if (sc->pending_assign >= 0) {
		struct smp_pyassign *a = &sc->out->assigns[sc->pending_assign];

		a->value = *t;
		a->ntok = 1;
		a->value_end = t->end;
		sc->open_assign = sc->pending_assign;
		sc->pending_assign = -1;
	}
	if (t->kind == SMP_PYTOK_OP) {
		if (tok_is(sc, t, "(") || tok_is(sc, t, "[") ||
		    tok_is(sc, t, "{"))
			open_bracket(sc, t);
		else if (tok_is(sc, t, ")") || tok_is(sc, t, "]") ||
			 tok_is(sc, t, "}"))
			close_bracket(sc, t);
		else
			arg_token(sc, t);
	} else {
		arg_token(sc, t);
	}
	if (sc->hdr != HDR_NONE && sc->hdr != HDR_ASYNC) {
		header_token(sc, t);
		if (sc->expect_body)
			reset_statement(sc);
		return;
	}
	if (t->depth == 0 && tok_is(sc, t, "=") && !sc->assigned) {
		sc->assigned = 1;
		try_assign(sc, k);
	} else if (t->depth == 0 && tok_is(sc, t, ";")) {
		reset_statement(sc);
	}
}

static void
end_line(struct scanner *sc, const struct smp_pytok *t)
{
	sc->import_mode = 0;
	pop_blocks(sc, t->off, 1);
	reset_statement(sc);
	sc->nbr = 0; /* a NEWLINE is never inside brackets */
}

static void
process(struct scanner *sc, const struct smp_pytok *t)
{
	if (sc->expect_body) {
		sc->expect_body = 0;
		if (t->kind == SMP_PYTOK_NEWLINE) {
			sc->await_indent = 1;
			end_line(sc, t);
			remember(sc, t);
			return;
		}
		push_block(sc, 1, t->off);
	} else if (sc->await_indent) {
		sc->await_indent = 0;
		if (t->kind == SMP_PYTOK_INDENT) {
			sc->level++;
			push_block(sc, 0, t->off);
			remember(sc, t);
			return;
		}
		set_body(sc, sc->body_kind, sc->body_index, t->off, t->off, 1);
	}
	switch (t->kind) {
	case SMP_PYTOK_INDENT:
		sc->level++;
		break;
	case SMP_PYTOK_DEDENT:
		if (sc->level > 0)
			sc->level--;
		pop_blocks(sc, t->off, 0);
		reset_statement(sc);
		break;
	case SMP_PYTOK_NEWLINE:
		end_line(sc, t);
		break;
	default:
		statement_token(sc, t);
		break;
	}
	remember(sc, t);
}

/* Token k as the tokenizer gave it; *depth counts the open brackets. */
static void
token_of(const struct smp_pymodel *m, size_t k, struct smp_pytok *t,
	 size_t *depth)
{
	const struct smp_pytoken *x = &m->toks[k];
	char c = '\0';

	if (x->len == 1 && x->kind == SMP_PYTOK_OP)
		c = m->buf[x->off];

	t->kind = (enum smp_pytok_kind)x->kind;
	t->flags = x->flags;
	t->off = x->off;
	t->len = x->len;
	t->start = smp__pym_start(m, k);
	t->end = smp__pym_end(m, k);
	/* as the tokenizer counts: a closer pairs with its opener */
	if ((c == ')' || c == ']' || c == '}') && *depth)
		(*depth)--;
	t->depth = *depth;
	if (c == '(' || c == '[' || c == '{')
		(*depth)++;
}

int
smp__pyscan_run(struct smp_pyscan *out, struct smp_arena *arena,
		const char *buf, size_t len)
{
	struct smp_pymodel m;
	struct smp_pytok t;
	struct scanner *sc;
	size_t k, depth = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	out->buf = buf ? buf : "";
	out->len = buf ? len : 0;
	/* the scanner is large (recent tokens, stacks): keep it off the
	 * stack, in the arena with the records */
	sc = smp__arena_zalloc(arena, sizeof(*sc));
	if (!sc)
		return SMP_ENOMEM;
	rc = smp__pymodel_build(&m, arena->alloc, out->buf, out->len);
	if (rc)
		return rc;
	sc->out = out;
	sc->arena = arena;
	sc->buf = out->buf;
	reset_statement(sc);
	out->tokens = m.ntoks - 1 + m.comments;
	out->bad_tokens = m.bad_tokens;
	if (m.cut)
		out->truncated = 1;
	for (k = 0; k + 1 < m.ntoks && !sc->rc; k++) {
		token_of(&m, k, &t, &depth);
		process(sc, &t);
	}
	for (k = 0; k < m.nbinds && !sc->rc; k++)
		add_import(sc, m.binds[k].name, m.binds[k].name_len,
			   m.binds[k].target, m.binds[k].target_len);
	smp__pymodel_release(&m);
	if (sc->rc)
		return sc->rc;
	while (sc->nblocks > 0) {
		struct block *b = &sc->blocks[--sc->nblocks];

		set_body(sc, b->kind, b->index, 0, out->len, 0);
	}
	return sc->rc;
}

void
smp__pyscan_resolve(const struct smp_pyscan *scan, const char *chain, char *out,
		    size_t n)
{
	const char *dot = strchr(chain, '.');
	size_t first = dot ? (size_t)(dot - chain) : strlen(chain);
	size_t i = scan->nimports;

	if (n == 0)
		return;
	if (first > 0) {
		while (i-- > 0) {
			const struct smp_pyimport *im = &scan->imports[i];

			if (strlen(im->name) == first &&
			    memcmp(im->name, chain, first) == 0) {
				snprintf(out, n, "%s%s", im->target,
					 chain + first);
				return;
			}
		}
	}
	snprintf(out, n, "%s", chain);
}
