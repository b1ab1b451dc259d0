/*
 * pymodel.c - the Python source model (see pymodel.h): one pass of the
 * tokenizer into an array with the brackets matched by a stack, then one
 * pass over the array that cuts it into statements and reads the import
 * statements' bindings.
 */
#include <stdio.h>
#include <string.h>

#include "script/pymodel.h"
#include "smpreflight.h"

static void
syntax(struct smp_pymodel *m, const struct smp_pos *at, const char *msg)
{
	if (m->syntax)
		return;
	m->syntax = 1;
	m->err_at = *at;
	snprintf(m->err, sizeof(m->err), "%s", msg);
}

/* The operators by code (enum smp_pyop). */
static const char *const op_spelling[SMP_PYOP_COUNT] = {
	"",   "(",  ")",  "[",  "]",  "{",   "}",   ":",   ",",   ";",
	".",  "+",  "-",  "*",  "/",  "%",   "&",   "|",   "^",   "~",
	"<",  ">",  "=",  "@",  "!",  "**",  "//",  ">>",  "<<",  "<=",
	">=", "==", "!=", "->", "+=", "-=",  "*=",  "/=",  "%=",  "&=",
	"|=", "^=", "@=", ":=", "<>", "**=", "//=", ">>=", "<<=", "..."};

/* The keywords by code (enum smp_pykw). */
static const char *const kw_spelling[SMP_PYKW_COUNT] = {
	"",       "and",   "as",       "assert", "async",  "await",  "break",
	"case",   "class", "continue", "def",    "del",    "elif",   "else",
	"except", "False", "finally",  "for",    "from",   "global", "if",
	"import", "in",    "is",       "lambda", "match",  "None",   "nonlocal",
	"not",    "or",    "pass",     "raise",  "return", "True",   "try",
	"while",  "with",  "yield"};

const char *
smp__pyop_spelling(unsigned code)
{
	return code < SMP_PYOP_COUNT ? op_spelling[code] : "";
}

/* The one-byte operators by their byte. */
static const unsigned char op1[256] = {
	['('] = SMP_PYOP_LPAR,    [')'] = SMP_PYOP_RPAR,
	['['] = SMP_PYOP_LSQB,    [']'] = SMP_PYOP_RSQB,
	['{'] = SMP_PYOP_LBRACE,  ['}'] = SMP_PYOP_RBRACE,
	[':'] = SMP_PYOP_COLON,   [','] = SMP_PYOP_COMMA,
	[';'] = SMP_PYOP_SEMI,    ['.'] = SMP_PYOP_DOT,
	['+'] = SMP_PYOP_PLUS,    ['-'] = SMP_PYOP_MINUS,
	['*'] = SMP_PYOP_STAR,    ['/'] = SMP_PYOP_SLASH,
	['%'] = SMP_PYOP_PERCENT, ['&'] = SMP_PYOP_AMPER,
	['|'] = SMP_PYOP_VBAR,    ['^'] = SMP_PYOP_CIRCUMFLEX,
	['~'] = SMP_PYOP_TILDE,   ['<'] = SMP_PYOP_LESS,
	['>'] = SMP_PYOP_GREATER, ['='] = SMP_PYOP_EQUAL,
	['@'] = SMP_PYOP_AT,      ['!'] = SMP_PYOP_EXCLAMATION};

/* The keywords' lengths, by code. */
static const unsigned char kw_len[SMP_PYKW_COUNT] = {
	0, 3, 2, 6, 5, 5, 5, 4, 5, 8, 3, 3, 4, 4, 6, 5, 7, 3, 4,
	6, 2, 6, 2, 2, 6, 5, 4, 8, 3, 2, 4, 5, 6, 4, 3, 5, 4, 5};

/* The first keyword of each first byte (0: none starts with it); the
 * keywords of one first byte follow each other in kw_spelling. */
static const unsigned char kw_first[128] = {
	['F'] = 15, ['N'] = 26, ['T'] = 33, ['a'] = 1,  ['b'] = 6,
	['c'] = 7,  ['d'] = 10, ['e'] = 12, ['f'] = 16, ['g'] = 19,
	['i'] = 20, ['l'] = 24, ['m'] = 25, ['n'] = 27, ['o'] = 29,
	['p'] = 30, ['r'] = 31, ['t'] = 34, ['w'] = 35, ['y'] = 37};

/* The code of an OP or NAME token's text s[0..n): a table for one byte,
 * else a search among the few spellings that start with its byte. */
static unsigned char
token_code(unsigned char kind, const char *s, size_t n)
{
	unsigned char c = (unsigned char)s[0];
	unsigned k;

	if (kind == SMP_PYTOK_OP) {
		if (n == 1)
			return op1[c];
		for (k = SMP_PYOP_DOUBLESTAR; n <= 3 && k < SMP_PYOP_COUNT; k++)
			if (op_spelling[k][0] == s[0] &&
			    op_spelling[k][1] == s[1] &&
			    strlen(op_spelling[k]) == n &&
			    (n == 2 || op_spelling[k][2] == s[2]))
				return (unsigned char)k;
		return 0;
	}
	/* keywords are 2 to 8 ASCII letters */
	if (kind != SMP_PYTOK_NAME || n < 2 || n > 8 || c >= 128)
		return 0;
	for (k = kw_first[c];
	     k && k < SMP_PYKW_COUNT && kw_spelling[k][0] == s[0]; k++)
		if (kw_spelling[k][1] == s[1] && kw_len[k] == n &&
		    memcmp(kw_spelling[k], s, n) == 0)
			return (unsigned char)k;
	return 0;
}

static int
push_tok(struct smp_pymodel *m, const struct smp_pytok *t)
{
	struct smp_pytoken *x;

	if (m->ntoks == m->captoks) {
		void *items = m->toks;

		if (smp__grow(m->alloc, &items, &m->captoks, m->ntoks + 1,
			      sizeof(*m->toks)))
			return -1;
		m->toks = items;
	}
	x = &m->toks[m->ntoks++];
	x->kind = (unsigned char)t->kind;
	x->flags = (unsigned char)t->flags;
	x->code = token_code(x->kind, m->buf + t->off, t->len);
	x->off = (uint32_t)t->off;
	x->len = (uint32_t)t->len;
	x->line = t->start.line;
	x->column = t->start.column;
	x->end_line = t->end.line;
	x->end_column = t->end.column;
	x->match = (uint32_t)(m->ntoks - 1);
	return 0;
}

/* Closes the bracket at the top of the stack with token close. */
static void
close_bracket(struct smp_pymodel *m, size_t o, size_t close)
{
	static const char pairs[] = "()[]{}";
	const struct smp_pytoken *t = &m->toks[close];
	struct smp_pos t_start = smp__pym_start(m, close);
	char msg[80];

	if (strchr(pairs, m->buf[m->toks[o].off])[1] != m->buf[t->off]) {
		snprintf(msg, sizeof(msg),
			 "closing parenthesis '%c' does not match opening "
			 "parenthesis '%c'",
			 m->buf[t->off], m->buf[m->toks[o].off]);
		syntax(m, &t_start, msg);
	}
	m->toks[o].match = (uint32_t)close;
	m->toks[close].match = (uint32_t)o;
}

static void
check_token(struct smp_pymodel *m, const struct smp_pytok *t)
{
	if (t->kind == SMP_PYTOK_ERROR) {
		m->bad_tokens++;
		syntax(m, &t->start,
		       t->len && m->buf[t->off] == '\\'
			       ? "unexpected character after line "
				 "continuation character"
			       : "invalid character in Python source");
	}
	if (t->kind == SMP_PYTOK_STRING &&
	    (t->flags & SMP_PYSTR_UNTERMINATED)) {
		m->bad_tokens++;
		syntax(m, &t->start,
		       t->flags & SMP_PYSTR_TRIPLE
			       ? "unterminated triple-quoted string literal"
			       : "unterminated string literal");
	}
}

static int
tokenize(struct smp_pymodel *m)
{
	struct smp_pytok_state st;
	struct smp_pytok t;
	size_t *stack = NULL, sp = 0, cap = 0;
	int rc = 0;
	char c;

	smp__pytok_init(&st, m->buf, m->len);
	for (;;) {
		smp__pytok_next(&st, &t);
		if (t.kind == SMP_PYTOK_COMMENT) {
			m->comments++;
			continue;
		}
		check_token(m, &t);
		if (m->ntoks + 1 >= SMP_PYMODEL_MAX_TOKENS &&
		    t.kind != SMP_PYTOK_END) {
			/* cut here: the END token closes what was kept */
			m->cut = 1;
			m->cut_at = t.start;
			t.kind = SMP_PYTOK_END;
			t.len = 0;
			t.end = t.start;
		}
		if (push_tok(m, &t)) {
			rc = -1;
			break;
		}
		c = '\0';
		if (t.kind == SMP_PYTOK_OP && t.len == 1)
			c = m->buf[t.off];
		if (c == '(' || c == '[' || c == '{') {
			void *items = stack;

			if (smp__grow(m->alloc, &items, &cap, sp + 1,
				      sizeof(size_t))) {
				rc = -1;
				break;
			}
			stack = items;
			stack[sp++] = m->ntoks - 1;
		} else if (c == ')' || c == ']' || c == '}') {
			char msg[40];

			if (sp) {
				close_bracket(m, stack[--sp], m->ntoks - 1);
				continue;
			}
			snprintf(msg, sizeof(msg), "unmatched '%c'",
				 m->buf[t.off]);
			syntax(m, &t.start, msg);
		}
		if (t.kind == SMP_PYTOK_END)
			break;
	}
	if (!rc && sp) {
		char msg[40];
		struct smp_pos at;

		snprintf(msg, sizeof(msg), "'%c' was never closed",
			 m->buf[m->toks[stack[0]].off]);
		at = smp__pym_start(m, stack[0]);
		if (!m->cut) /* else the brackets close after the cut */
			syntax(m, &at, msg);
		/* close them at the end so that nothing reads past it */
		while (sp)
			m->toks[stack[--sp]].match = (uint32_t)(m->ntoks - 1);
	}
	smp__free(m->alloc, stack);
	return rc;
}

/* ----------------------------------------------------------- helpers */

size_t
smp__pym_stmt_at(const struct smp_pymodel *m, size_t i)
{
	size_t lo = 0, hi = m->nstmts;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->stmts[mid].first < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < m->nstmts && m->stmts[lo].first == i ? lo : m->nstmts;
}

const struct smp_pybinding *
smp__pym_binding(const struct smp_pymodel *m, const char *name, size_t len,
		 size_t before)
{
	size_t k = m->nbinds;

	while (k-- > 0) {
		const struct smp_pybinding *b = &m->binds[k];

		if (b->name_tok < before && b->name_len == len &&
		    memcmp(b->name, name, len) == 0)
			return b;
	}
	return NULL;
}

/* -------------------------------------------------------- statements */

/* The end of the simple statement at i: its ';' or NEWLINE. */
static size_t
stmt_end(const struct smp_pymodel *m, size_t i)
{
	while (!smp__pym_line_end(m, i) && !smp__pym_op(m, i, ";")) {
		if (smp__pym_is_open(m, i))
			i = smp__pym_tok(m, i)->match;
		i++;
	}
	return i;
}

/* The ':' that ends a compound statement's header, or its line end. */
static size_t
header_colon(const struct smp_pymodel *m, size_t i)
{
	int lambda = 0;

	while (!smp__pym_line_end(m, i)) {
		if (smp__pym_is_open(m, i))
			i = smp__pym_tok(m, i)->match;
		else if (smp__pym_name(m, i, "lambda"))
			lambda++;
		else if (smp__pym_op(m, i, ":")) {
			if (!lambda)
				return i;
			lambda--;
		}
		i++;
	}
	return i;
}

static int
is_compound(const struct smp_pymodel *m, size_t i)
{
	unsigned next;

	switch (smp__pym_kw(m, i)) {
	case SMP_PYKW_ASYNC:
		next = smp__pym_kw(m, i + 1);
		return next == SMP_PYKW_DEF || next == SMP_PYKW_FOR ||
		       next == SMP_PYKW_WITH;
	case SMP_PYKW_IF:
	case SMP_PYKW_ELIF:
	case SMP_PYKW_ELSE:
	case SMP_PYKW_FOR:
	case SMP_PYKW_WHILE:
	case SMP_PYKW_TRY:
	case SMP_PYKW_EXCEPT:
	case SMP_PYKW_FINALLY:
	case SMP_PYKW_WITH:
	case SMP_PYKW_DEF:
	case SMP_PYKW_CLASS:
		return 1;
	case SMP_PYKW_MATCH:
	case SMP_PYKW_CASE:
		/* soft keywords: match x: / case y: */
		if (smp__pym_tok(m, i + 1)->kind != SMP_PYTOK_OP) {
			size_t c = header_colon(m, i);

			return !smp__pym_line_end(m, c) &&
			       smp__pym_line_end(m, c + 1);
		}
		return 0;
	default:
		return 0;
	}
}

/* ----------------------------------------------------------- imports */

static int
add_binding(struct smp_pymodel *m, size_t name_tok, const char *target,
	    size_t tlen, size_t path_tok, int relative)
{
	void *items = m->binds;
	struct smp_pybinding *b;
	const struct smp_pytoken *t = smp__pym_tok(m, name_tok);
	char *p;

	if (t->kind != SMP_PYTOK_NAME || !tlen)
		return 0;
	if (smp__grow(m->alloc, &items, &m->capbinds, m->nbinds + 1,
		      sizeof(*m->binds)))
		return -1;
	m->binds = items;
	p = smp__arena_strndup(&m->arena, target, tlen);
	if (!p)
		return -1;
	b = &m->binds[m->nbinds++];
	b->name = m->buf + t->off;
	b->name_len = t->len;
	b->target = p;
	b->target_len = tlen;
	b->name_tok = name_tok;
	b->path_tok = path_tok;
	b->relative = relative;
	return 0;
}

/* Appends token i's text to t[0..*n) (cap bytes); 0, or -1 when full. */
static int
append(const struct smp_pymodel *m, size_t i, char *t, size_t *n, size_t cap)
{
	const struct smp_pytoken *x = smp__pym_tok(m, i);

	if (*n + x->len >= cap)
		return -1;
	memcpy(t + *n, m->buf + x->off, x->len);
	*n += x->len;
	return 0;
}

/*
 * A dotted name at *i ("sagemaker.huggingface") into t, after leading
 * dots when lead is set (a relative module: "..a.b"). Returns its
 * length, 0 when there is none or it does not fit.
 */
static size_t
dotted(const struct smp_pymodel *m, size_t *i, size_t end, int lead, char *t,
       size_t cap)
{
	size_t n = 0;

	while (lead && *i < end &&
	       (smp__pym_op(m, *i, ".") || smp__pym_op(m, *i, "..."))) {
		if (append(m, *i, t, &n, cap))
			return 0;
		(*i)++;
	}
	while (*i < end && smp__pym_tok(m, *i)->kind == SMP_PYTOK_NAME &&
	       !smp__pym_name(m, *i, "import") && !smp__pym_name(m, *i, "as")) {
		if (append(m, *i, t, &n, cap))
			return 0;
		(*i)++;
		if (!smp__pym_op(m, *i, "."))
			break;
		if (append(m, *i, t, &n, cap))
			return 0;
		(*i)++;
	}
	t[n] = '\0';
	return n;
}

/* import a.b.c [as x], ... */
static int
read_import(struct smp_pymodel *m, size_t i, size_t end)
{
	char path[512];

	i++;
	while (i < end) {
		size_t first = i, n = dotted(m, &i, end, 0, path, sizeof(path));

		if (!n)
			break;
		if (smp__pym_name(m, i, "as") &&
		    smp__pym_tok(m, i + 1)->kind == SMP_PYTOK_NAME) {
			if (add_binding(m, i + 1, path, n, first, 0))
				return -1;
			i += 2;
		} else if (add_binding(m, first, path,
				       smp__pym_tok(m, first)->len, first, 0)) {
			return -1; /* import a.b binds a */
		}
		if (!smp__pym_op(m, i, ","))
			break;
		i++;
	}
	return 0;
}

/* from a.b import X [as Y], (...) */
static int
read_from(struct smp_pymodel *m, size_t i, size_t end)
{
	char base[512], full[1024];
	size_t n, first;
	int relative;

	i++;
	first = i;
	relative = smp__pym_op(m, i, ".") || smp__pym_op(m, i, "...");
	n = dotted(m, &i, end, relative, base, sizeof(base));
	if (!n || !smp__pym_name(m, i, "import"))
		return 0;
	i++;
	if (smp__pym_op(m, i, "("))
		i++;
	while (i < end && smp__pym_tok(m, i)->kind == SMP_PYTOK_NAME) {
		const struct smp_pytoken *t = smp__pym_tok(m, i);
		size_t bindat = i, flen;

		/* base.name (base fits in half of full: no cut) */
		flen = n + 1 + t->len;
		if (flen < sizeof(full)) {
			memcpy(full, base, n);
			full[n] = '.';
			memcpy(full + n + 1, m->buf + t->off, t->len);
			full[flen] = '\0';
		}
		i++;
		if (smp__pym_name(m, i, "as") &&
		    smp__pym_tok(m, i + 1)->kind == SMP_PYTOK_NAME) {
			bindat = i + 1;
			i += 2;
		}
		if (flen < sizeof(full) &&
		    add_binding(m, bindat, full, flen, first, relative))
			return -1;
		if (!smp__pym_op(m, i, ","))
			break;
		i++;
	}
	return 0;
}

static int
push_stmt(struct smp_pymodel *m, const struct smp_pystmt *s)
{
	void *items = m->stmts;

	if (smp__grow(m->alloc, &items, &m->capstmts, m->nstmts + 1,
		      sizeof(*m->stmts)))
		return -1;
	m->stmts = items;
	m->stmts[m->nstmts++] = *s;
	return 0;
}

/* Cuts the tokens into statements and reads the imports. */
static int
statements(struct smp_pymodel *m)
{
	struct smp_pystmt s;
	size_t i = 0;
	int newline = 1;

	memset(&s, 0, sizeof(s));
	while (i < m->ntoks) {
		const struct smp_pytoken *t = smp__pym_tok(m, i);

		if (t->kind == SMP_PYTOK_END)
			break;
		if (t->kind == SMP_PYTOK_NEWLINE) {
			newline = 1;
			i++;
			continue;
		}
		if (t->kind == SMP_PYTOK_INDENT) {
			s.indent = 1;
			i++;
			continue;
		}
		if (t->kind == SMP_PYTOK_DEDENT) {
			s.dedents++;
			i++;
			continue;
		}
		s.first = i;
		s.same_line = !newline;
		s.bind = m->nbinds;
		newline = 0;
		if (smp__pym_op(m, i, "@")) {
			s.kind = SMP_PYSTMT_DECORATOR;
			for (s.end = i; !smp__pym_line_end(m, s.end); s.end++)
				;
		} else if (is_compound(m, i)) {
			s.kind = SMP_PYSTMT_HEADER;
			s.colon = header_colon(m, i);
			s.end = smp__pym_line_end(m, s.colon) ? s.colon
							      : s.colon + 1;
		} else {
			s.kind = SMP_PYSTMT_SIMPLE;
			s.end = stmt_end(m, i);
			if ((smp__pym_name(m, i, "import") &&
			     read_import(m, i, s.end)) ||
			    (smp__pym_name(m, i, "from") &&
			     read_from(m, i, s.end)))
				return -1;
		}
		s.nbind = m->nbinds - s.bind;
		if (push_stmt(m, &s))
			return -1;
		i = s.end;
		if (smp__pym_op(m, i, ";"))
			i++;
		memset(&s, 0, sizeof(s));
	}
	return 0;
}

static int
reserve(struct smp_pymodel *m)
{
	void *toks = NULL, *stmts = NULL;
	size_t nt = m->len / 8 + 16, ns = m->len / 64 + 8;

	if (nt > SMP_PYMODEL_MAX_TOKENS)
		nt = SMP_PYMODEL_MAX_TOKENS;
	if (smp__grow(m->alloc, &toks, &m->captoks, nt, sizeof(*m->toks)))
		return -1;
	m->toks = toks;
	if (smp__grow(m->alloc, &stmts, &m->capstmts, ns, sizeof(*m->stmts)))
		return -1;
	m->stmts = stmts;
	return 0;
}

int
smp__pymodel_build(struct smp_pymodel *m, const struct smp_allocator *a,
		   const char *buf, size_t len)
{
	memset(m, 0, sizeof(*m));
	if (!a || len >= UINT32_MAX)
		return SMP_EINVAL;
	m->alloc = a;
	m->buf = buf ? buf : "";
	m->len = buf ? len : 0;
	smp__arena_init(&m->arena, a);
	/* room for the tokens and statements of common code at once (a
	 * token every 8 bytes, a statement every 64), grown past it */
	if (reserve(m) || tokenize(m) || statements(m)) {
		smp__pymodel_release(m);
		return SMP_ENOMEM;
	}
	return 0;
}

void
smp__pymodel_release(struct smp_pymodel *m)
{
	smp__free(m->alloc, m->toks);
	smp__free(m->alloc, m->stmts);
	smp__free(m->alloc, m->binds);
	if (m->alloc)
		smp__arena_release(&m->arena);
	m->toks = NULL;
	m->stmts = NULL;
	m->binds = NULL;
	m->ntoks = m->nstmts = m->nbinds = 0;
	m->captoks = m->capstmts = m->capbinds = 0;
}
