/*
 * load_json.c - strict RFC 8259 JSON straight into the node tree.
 *
 * Why hand-written rather than cJSON (which the project links anyway):
 * cJSON accepts 17 of the 188 JSONTestSuite n_ files even in its strictest
 * mode (cJSON_ParseWithLengthOpts, require_null_terminated; 33 without it,
 * trailing garbage included): leading zeros, "2." and "-2.", unescaped
 * tabs and newlines in strings, a bad \u escape, form feed as white
 * space. And it keeps no positions. We need both: a spec that is not JSON
 * must be refused, and every node and every error needs its line:column.
 * Converting a cJSON tree would also cost a second tree and a second pass.
 *
 * Shape: one loop with an explicit stack (no recursion, so nesting is
 * bounded only by max_depth and a deep input costs nothing), finished
 * children collected on one scratch stack and copied into the arena when
 * their container closes (O(n) overall). Lines and columns are tracked
 * incrementally: a line starts at line_start, and the column of an offset
 * outside a string is the bytes since line_start minus the UTF-8
 * continuation bytes seen on that line (only strings may hold non-ASCII).
 * A UTF-8 byte order mark is skipped (RFC 8259 8.1 allows it): it stays in
 * the offsets but is not a column, as in libyaml and in editors.
 *
 * A sink (smp__load_json_sink) keeps a large document's memory to what
 * its reader needs: a member it skips is checked as JSON but builds no
 * nodes (its containers and scalars are scratch nodes, reused), and the
 * elements of an array it streams are handed over one by one, each
 * parsed into a scratch arena released after it.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "doc/load.h"
#include "util/text.h"

/* a diagnostic was added and parsing stops; errors are negative SMP_E* */
#define STOP 1

/* below this many keys an object is searched linearly for duplicates */
#define DUP_LINEAR 16

/* longest word quoted in a message ("found 'Truee'") */
#define WORD_MAX 32

struct frame {
	struct smp_node *node;
	size_t base; /* index of its first child on the scratch stack */
	size_t id;   /* object number, part of the duplicate table's key */
	int hashed;  /* its keys are in the duplicate table */
};

struct dup_slot {
	const struct smp_node *key;
	size_t obj;
};

/* where a value is expected: picks the wording of the error */
enum expect {
	EXPECT_TOP,
	EXPECT_FIRST_ELEMENT,
	EXPECT_NEXT_ELEMENT,
	EXPECT_MEMBER_VALUE
};

struct parser {
	const char *buf;
	size_t len;
	size_t i;          /* next byte */
	uint32_t line;     /* line of byte i */
	size_t line_start; /* offset where that line's columns start */
	size_t cont;       /* continuation bytes in [line_start, i) */
	struct smp_limits lim;
	struct smp_arena *arena;
	struct smp_docs *docs;
	int failed; /* a diagnostic could not be added */
	const struct smp_allocator *alloc;
	size_t nodes;
	/* finished children of the open containers, in order */
	struct smp_node **stack;
	size_t nstack, capstack;
	/* the open containers, outermost first */
	struct frame *frames;
	size_t depth, capframes;
	size_t next_id;
	/* open addressing, power-of-two size; only for large objects */
	struct dup_slot *dups;
	size_t ndups, capdups;
	uint64_t seed;
	/* the sink, and where the parse is for it */
	const struct smp_json_sink *sink;
	size_t skip_depth;     /* inside a skipped member of the object at this
				  depth (open containers), or 0 */
	struct smp_node *pool; /* skipped containers, one per depth */
	char *scratch;         /* the skipped scalar */
	size_t capscratch;
	int stream_next;          /* the member's value streams if an array */
	size_t stream_depth;      /* the streamed array's depth, or 0 */
	int in_element;           /* an element of it is being parsed */
	size_t nodes_before;      /* nodes counted before that element */
	size_t streamed;          /* elements handed over so far */
	struct smp_arena element; /* that element's nodes */
};

static struct smp_pos
here(const struct parser *p)
{
	struct smp_pos pos;

	pos.line = p->line;
	pos.column = (uint32_t)(p->i - p->line_start - p->cont + 1);
	pos.offset = p->i;
	return pos;
}

/* Position of an offset on the current line, e.g. inside a string. */
static struct smp_pos
pos_on_line(const struct parser *p, size_t off)
{
	struct smp_pos pos;
	size_t k, col = 1;

	for (k = p->line_start; k < off; k++)
		if (((unsigned char)p->buf[k] & 0xC0) != 0x80)
			col++;
	pos.line = p->line;
	pos.column = (uint32_t)col;
	pos.offset = off;
	return pos;
}

static void
skip_ws(struct parser *p)
{
	const char *b = p->buf;
	size_t i = p->i, n = p->len;

	for (; i < n; i++) {
		char c = b[i];

		if (c == ' ' || c == '\t')
			continue;
		if (c == '\r' && i + 1 < n && b[i + 1] == '\n')
			continue; /* CRLF is one line break, counted at LF */
		if (c == '\n' || c == '\r') {
			p->line++;
			p->line_start = i + 1;
			p->cont = 0;
			continue;
		}
		break;
	}
	p->i = i;
}

/*
 * Length of the valid UTF-8 sequence at s[0..n), or 0 when invalid: the
 * one decoder (util/text.c) in the loader's terms.
 */
static size_t
utf8_seq(const unsigned char *s, size_t n, uint32_t *cp_out)
{
	long cp;
	size_t len = smp__utf8_decode(s, n, &cp);

	if (cp < 0)
		return 0;
	*cp_out = (uint32_t)cp;
	return len;
}

static int
is_word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static int
is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Length of the word at off (letters, digits, '_'), 0 if none. */
static size_t
word_len(const struct parser *p, size_t off)
{
	size_t e = off;

	if (off >= p->len || !is_alpha(p->buf[off]))
		return 0;
	while (e < p->len && is_word_char(p->buf[e]))
		e++;
	return e - off;
}

/* What is at off, for "found ..." in a message. */
static const char *
describe(const struct parser *p, size_t off, char *out, size_t cap)
{
	const unsigned char *s = (const unsigned char *)p->buf + off;
	size_t w = word_len(p, off), n;
	uint32_t cp;

	if (off >= p->len)
		return "end of input";
	if (w > 0) {
		snprintf(out, cap, "'%.*s%s'",
			 (int)(w > WORD_MAX ? WORD_MAX : w), (const char *)s,
			 w > WORD_MAX ? "..." : "");
	} else if (s[0] == '\'') {
		snprintf(out, cap, "\"'\"");
	} else if (s[0] == ' ') {
		snprintf(out, cap, "a space");
	} else if (s[0] > 0x20 && s[0] < 0x7F) {
		snprintf(out, cap, "'%c'", s[0]);
	} else if (s[0] < 0x80) {
		snprintf(out, cap, "U+%04X", s[0]);
	} else if ((n = utf8_seq(s, p->len - off, &cp)) != 0) {
		snprintf(out, cap, "'%.*s' (U+%04X)", (int)n, (const char *)s,
			 (unsigned)cp);
	} else {
		snprintf(out, cap, "invalid UTF-8 byte 0x%02x", s[0]);
	}
	return out;
}

static int
word_is(const char *s, size_t n, const char *w)
{
	return strlen(w) == n && memcmp(s, w, n) == 0;
}

static int
word_is_nocase(const char *s, size_t n, const char *w)
{
	size_t k;

	if (strlen(w) != n)
		return 0;
	for (k = 0; k < n; k++) {
		char c = s[k];

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c != w[k])
			return 0;
	}
	return 1;
}

/* A hint for common non-JSON input at off ("" when none applies). */
static const char *
hint(const struct parser *p, size_t off, int want_key)
{
	const char *s = p->buf + off;
	size_t w = word_len(p, off);

	if (off >= p->len)
		return "";
	if (*s == '\'')
		return "; JSON strings use double quotes";
	if (*s == '/' || *s == '#')
		return "; JSON does not allow comments";
	if (w == 0)
		return "";
	if (want_key)
		return "; object keys must be double-quoted strings";
	if (word_is_nocase(s, w, "true") || word_is_nocase(s, w, "false") ||
	    word_is_nocase(s, w, "null"))
		return "; JSON literals are lower-case: true, false, null";
	if (word_is(s, w, "None"))
		return "; JSON writes it as null";
	if (word_is_nocase(s, w, "nan") || word_is_nocase(s, w, "infinity") ||
	    word_is_nocase(s, w, "inf"))
		return "; JSON numbers cannot be NaN or Infinity";
	return "";
}

/* Adds the one syntax diagnostic at pos. */
static void syntax_report(struct parser *p, const struct smp_pos *pos,
			  const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
syntax_report(struct parser *p, const struct smp_pos *pos, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!smp__docs_diag(p->docs, SMP_DIAG_SYNTAX, pos, NULL, "%s", msg))
		p->failed = 1;
}

/* What a parse step returns once its diagnostic is added: never 0. */
static int
stopped(const struct parser *p)
{
	return p->failed ? SMP_ENOMEM : STOP;
}

/*
 * Reports and stops. A macro so that the static analyzer, which does not
 * follow variadic calls, still sees that the result is never 0.
 */
#define SYNTAX_AT(p, pos, ...) (syntax_report(p, pos, __VA_ARGS__), stopped(p))

enum limit { LIMIT_NODES, LIMIT_DEPTH, LIMIT_STRING, LIMIT_NUMBER };

/* Adds the one limit diagnostic, worded as in the YAML loader. */
static int
limit_at(struct parser *p, const struct smp_pos *pos, enum limit which)
{
	struct smp_docs *r = p->docs;
	const struct smp_limits *l = &p->lim;
	const struct smp_diag *d = NULL;

	switch (which) {
	case LIMIT_NODES:
		d = smp__docs_diag(r, SMP_DIAG_LIMIT, pos, NULL,
				   "document has more than %zu nodes",
				   l->max_nodes);
		break;
	case LIMIT_DEPTH:
		d = smp__docs_diag(r, SMP_DIAG_LIMIT, pos, NULL,
				   "document nests deeper than %zu levels",
				   l->max_depth);
		break;
	case LIMIT_STRING:
	case LIMIT_NUMBER:
		d = smp__docs_diag(r, SMP_DIAG_LIMIT, pos, NULL,
				   "%s is longer than the limit of %zu bytes",
				   which == LIMIT_STRING ? "string" : "number",
				   l->max_scalar_len);
		break;
	}
	if (!d)
		p->failed = 1;
	return stopped(p);
}

/* End of input while containers are open: name the innermost. */
static int
eof_in_container(struct parser *p)
{
	struct smp_pos pos = here(p);
	const struct smp_node *c = p->frames[p->depth - 1].node;

	return SYNTAX_AT(p, &pos,
			 "unexpected end of input inside %s (opened at line "
			 "%u column %u)",
			 c->kind == SMP_NODE_MAPPING ? "an object" : "an array",
			 (unsigned)c->start.line, (unsigned)c->start.column);
}

/*
 * A node with room for extra bytes after it (a scalar's text: one arena
 * call and no alignment padding between them).
 */
static struct smp_node *
new_node(struct parser *p, enum smp_node_kind kind, const struct smp_pos *start,
	 size_t extra)
{
	struct smp_node *n;

	if (p->skip_depth && kind != SMP_NODE_SCALAR) {
		/* a skipped container: the scratch node of its depth */
		if (!p->pool)
			p->pool = smp__calloc(p->alloc, p->lim.max_depth + 1,
					      sizeof(*p->pool));
		n = p->pool ? &p->pool[p->depth] : NULL;
	} else if (p->skip_depth) {
		void *mem = p->scratch;

		if (sizeof(*n) + extra > p->capscratch &&
		    smp__grow(p->alloc, &mem, &p->capscratch,
			      sizeof(*n) + extra, 1))
			return NULL;
		p->scratch = mem;
		n = (struct smp_node *)mem;
	} else {
		n = smp__arena_alloc(p->arena, sizeof(*n) + extra);
	}
	if (!n)
		return NULL;
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->start = *start;
	return n;
}

/* The text stored after a node by new_node(). */
static char *
node_text(struct smp_node *n)
{
	return (char *)(n + 1);
}

/* Counts a node about to start at pos against max_nodes. */
static int
count_node(struct parser *p, const struct smp_pos *pos)
{
	if (p->skip_depth)
		return 0; /* a skipped value is no node */
	if (++p->nodes > p->lim.max_nodes)
		return limit_at(p, pos, LIMIT_NODES);
	return 0;
}

static int
push(struct parser *p, struct smp_node *n)
{
	void *items = p->stack;

	if (p->skip_depth)
		return 0; /* nothing inside a skipped value is kept */
	if (p->nstack == p->capstack) {
		if (smp__grow(p->alloc, &items, &p->capstack, p->nstack + 1,
			      sizeof(struct smp_node *)))
			return SMP_ENOMEM;
		p->stack = items;
	}
	p->stack[p->nstack++] = n;
	return 0;
}

/* The 4 hex digits at off, or -1 with *bad at the first non-hex one. */
static long
hex4(const struct parser *p, size_t off, size_t *bad)
{
	long v = 0;
	size_t k;

	for (k = 0; k < 4; k++) {
		int h = off + k < p->len ? smp__hex_value(p->buf[off + k]) : -1;

		if (h < 0) {
			*bad = off + k;
			return -1;
		}
		v = v * 16 + h;
	}
	return v;
}

static size_t
utf8_len(uint32_t cp)
{
	return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

/* Decodes the already validated string body raw[0..n) into out. */
static void
decode_escapes(const char *raw, size_t n, char *out)
{
	size_t k = 0;

	while (k < n) {
		const char *bs = memchr(raw + k, '\\', n - k);
		size_t run = bs ? (size_t)(bs - raw) - k : n - k;
		uint32_t cp;

		memcpy(out, raw + k, run);
		out += run;
		k += run;
		if (k >= n)
			break;
		switch (raw[k + 1]) {
		case 'b':
			*out++ = '\b';
			break;
		case 'f':
			*out++ = '\f';
			break;
		case 'n':
			*out++ = '\n';
			break;
		case 'r':
			*out++ = '\r';
			break;
		case 't':
			*out++ = '\t';
			break;
		case 'u':
			cp = 0;
			for (size_t d = 0; d < 4; d++)
				cp = cp * 16 +
				     (uint32_t)smp__hex_value(raw[k + 2 + d]);
			if (cp >= 0xD800 && cp <= 0xDBFF) {
				uint32_t lo = 0;

				for (size_t d = 0; d < 4; d++)
					lo = lo * 16 + (uint32_t)smp__hex_value(
							       raw[k + 8 + d]);
				cp = 0x10000 + ((cp - 0xD800) << 10) +
				     (lo - 0xDC00);
				k += 6;
			}
			out = smp__utf8_put(out, cp);
			k += 4;
			break;
		default: /* '"', '\\', '/' stand for themselves */
			*out++ = raw[k + 1];
			break;
		}
		k += 2;
	}
}

/* The string error at off, inside a string that started at start. */
static int
string_eof(struct parser *p, const struct smp_pos *start)
{
	struct smp_pos pos = pos_on_line(p, p->len);

	return SYNTAX_AT(p, &pos,
			 "unexpected end of input inside a string (opened at "
			 "line %u column %u)",
			 (unsigned)start->line, (unsigned)start->column);
}

/*
 * Validates an escape at off (a backslash): *raw is its length in the
 * input (2, 6 or 12), *dlen the bytes it decodes to. Returns 0, or the
 * stop code after a diagnostic.
 */
static int
scan_escape(struct parser *p, size_t off, const struct smp_pos *start,
	    size_t *raw, size_t *dlen)
{
	char e, d[WORD_MAX + 16];
	size_t bad = 0;
	long cp, lo;
	struct smp_pos pos;

	if (off + 1 >= p->len) {
		return string_eof(p, start);
	}
	e = p->buf[off + 1];
	switch (e) {
	case '"':
	case '\\':
	case '/':
	case 'b':
	case 'f':
	case 'n':
	case 'r':
	case 't':
		*raw = 2;
		*dlen = 1;
		return 0;
	case 'u':
		break;
	default:
		pos = pos_on_line(p, off);
		if (e > 0x20 && e < 0x7F && e != '\'')
			return SYNTAX_AT(p, &pos,
					 "invalid escape '\\%c' in a string; "
					 "JSON knows \\\" \\\\ \\/ \\b \\f \\n "
					 "\\r \\t and \\uXXXX",
					 e);
		else
			return SYNTAX_AT(p, &pos,
					 "invalid escape: '\\' followed by %s "
					 "in a string",
					 describe(p, off + 1, d, sizeof(d)));
	}
	cp = hex4(p, off + 2, &bad);
	if (cp < 0) {
		if (bad >= p->len) {
			return string_eof(p, start);
		}
		pos = pos_on_line(p, bad);
		return SYNTAX_AT(p, &pos,
				 "expected 4 hex digits after '\\u', found %s",
				 describe(p, bad, d, sizeof(d)));
	}
	if (cp >= 0xDC00 && cp <= 0xDFFF) {
		pos = pos_on_line(p, off);
		return SYNTAX_AT(p, &pos,
				 "lone surrogate '\\u%.4s' in a string: a low "
				 "surrogate must follow a high one "
				 "(\\uD800-\\uDBFF)",
				 p->buf + off + 2);
	}
	if (cp < 0xD800 || cp > 0xDBFF) {
		*raw = 6;
		*dlen = utf8_len((uint32_t)cp);
		return 0;
	}
	lo = -1;
	if (off + 7 < p->len && p->buf[off + 6] == '\\' &&
	    p->buf[off + 7] == 'u')
		lo = hex4(p, off + 8, &bad);
	if (lo < 0xDC00 || lo > 0xDFFF) {
		pos = pos_on_line(p, off);
		return SYNTAX_AT(p, &pos,
				 "lone surrogate '\\u%.4s' in a string: a high "
				 "surrogate must be followed by a low one "
				 "(\\uDC00-\\uDFFF)",
				 p->buf + off + 2);
	}
	*raw = 12;
	*dlen = 4;
	return 0;
}

/* A string at p->i (its '"') into a double-quoted scalar node. */
static int
parse_string(struct parser *p, struct smp_node **out)
{
	const unsigned char *b = (const unsigned char *)p->buf;
	size_t n = p->len, s = p->i, i = s + 1, dlen = 0, cont = 0;
	size_t limit = p->skip_depth ? SIZE_MAX / 2 : p->lim.max_scalar_len;
	struct smp_pos start = here(p), pos;
	struct smp_node *node;
	int escapes = 0, rc;
	char *v;

	if ((rc = count_node(p, &start)) != 0)
		return rc;
	for (;;) {
		/* the common case: a run of plain ASCII, never past the limit
		 */
		size_t stop = limit - dlen < n - i ? i + (limit - dlen) + 1 : n;
		size_t run = i;
		uint32_t cp;
		unsigned c;

		i += smp__json_plain_run(b + i, stop - i);
		dlen += i - run;
		if (dlen > limit)
			return limit_at(p, &start, LIMIT_STRING);
		if (i >= n)
			return string_eof(p, &start);
		c = b[i];
		if (c == '"') {
			break;
		} else if (c == '\\') {
			size_t d = 0, k = 0;

			if ((rc = scan_escape(p, i, &start, &k, &d)) != 0)
				return rc;
			escapes = 1;
			dlen += d;
			i += k;
		} else if (c < 0x20) {
			pos = pos_on_line(p, i);
			return SYNTAX_AT(p, &pos,
					 "control character U+%04X must be "
					 "escaped in a string",
					 c);
		} else if (c >= 0x80) {
			size_t k = utf8_seq(b + i, n - i, &cp);

			if (!k) {
				pos = pos_on_line(p, i);
				return SYNTAX_AT(p, &pos,
						 "invalid UTF-8 byte 0x%02x in "
						 "a string",
						 c);
			}
			cont += k - 1;
			dlen += k;
			i += k;
		}
		if (dlen > limit)
			return limit_at(p, &start, LIMIT_STRING);
	}
	/* i is at the closing quote; a skipped string keeps no text */
	if (p->skip_depth)
		dlen = escapes = 0;
	node = new_node(p, SMP_NODE_SCALAR, &start, dlen + 1);
	if (!node)
		return SMP_ENOMEM;
	v = node_text(node);
	if (escapes)
		decode_escapes(p->buf + s + 1, i - s - 1, v);
	else
		memcpy(v, p->buf + s + 1, dlen);
	v[dlen] = '\0';
	node->u.scalar.value = v;
	node->u.scalar.len = dlen;
	node->u.scalar.style = SMP_STYLE_DOUBLE_QUOTED;
	p->cont += cont;
	p->i = i + 1;
	node->end = here(p);
	*out = node;
	return 0;
}

static int
is_digit(const struct parser *p, size_t off)
{
	return off < p->len && p->buf[off] >= '0' && p->buf[off] <= '9';
}

/* A number at p->i ('-' or a digit), kept verbatim as a plain scalar. */
static int
parse_number(struct parser *p, struct smp_node **out)
{
	size_t s = p->i, i = s;
	struct smp_pos start = here(p), pos;
	struct smp_node *node;
	char d[WORD_MAX + 16];
	const char *what = NULL;
	char *v;
	int rc;

	if ((rc = count_node(p, &start)) != 0)
		return rc;
	if (p->buf[i] == '-')
		i++;
	if (!is_digit(p, i)) {
		what = "after '-'";
	} else if (p->buf[i] == '0') {
		if (is_digit(p, i + 1)) {
			p->i = i;
			pos = here(p);
			return SYNTAX_AT(p, &pos,
					 "leading zeros are not allowed in a "
					 "number");
		}
		i++;
	} else {
		while (is_digit(p, i))
			i++;
	}
	if (!what && i < p->len && p->buf[i] == '.') {
		i++;
		if (!is_digit(p, i))
			what = "after the decimal point";
		while (is_digit(p, i))
			i++;
	}
	if (!what && i < p->len && (p->buf[i] == 'e' || p->buf[i] == 'E')) {
		i++;
		if (i < p->len && (p->buf[i] == '+' || p->buf[i] == '-'))
			i++;
		if (!is_digit(p, i))
			what = "in the exponent";
		while (is_digit(p, i))
			i++;
	}
	if (what) {
		p->i = i;
		pos = here(p);
		return SYNTAX_AT(p, &pos, "expected a digit %s, found %s%s",
				 what, describe(p, i, d, sizeof(d)),
				 hint(p, i, 0));
	}
	if (i - s > p->lim.max_scalar_len)
		return limit_at(p, &start, LIMIT_NUMBER);
	node = new_node(p, SMP_NODE_SCALAR, &start, i - s + 1);
	if (!node)
		return SMP_ENOMEM;
	v = node_text(node);
	memcpy(v, p->buf + s, i - s);
	v[i - s] = '\0';
	node->u.scalar.value = v;
	node->u.scalar.len = i - s;
	node->u.scalar.style = SMP_STYLE_PLAIN;
	p->i = i;
	node->end = here(p);
	*out = node;
	return 0;
}

static const char *const expect_text[] = {
	[EXPECT_TOP] = "expected a JSON value",
	[EXPECT_FIRST_ELEMENT] = "expected a JSON value or ']'",
	[EXPECT_NEXT_ELEMENT] = "expected a JSON value after ','",
	[EXPECT_MEMBER_VALUE] = "expected a JSON value after ':'",
};

/* true, false or null at p->i; anything else is the "expected" error. */
static int
parse_literal(struct parser *p, struct smp_node **out, enum expect ex)
{
	static const char *const words[] = {"true", "false", "null"};
	size_t w = word_len(p, p->i), k;
	struct smp_pos start = here(p);
	struct smp_node *node;
	char d[WORD_MAX + 16];
	int rc;

	for (k = 0; k < 3; k++)
		if (word_is(p->buf + p->i, w, words[k]))
			break;
	if (k == 3) {
		const char *extra = "";

		if (ex == EXPECT_NEXT_ELEMENT && p->i < p->len &&
		    p->buf[p->i] == ']')
			extra = "; trailing commas are not allowed";
		return SYNTAX_AT(p, &start, "%s, found %s%s%s", expect_text[ex],
				 describe(p, p->i, d, sizeof(d)),
				 hint(p, p->i, 0), extra);
	}
	if ((rc = count_node(p, &start)) != 0)
		return rc;
	node = new_node(p, SMP_NODE_SCALAR, &start, 0);
	if (!node)
		return SMP_ENOMEM;
	node->u.scalar.value = words[k];
	node->u.scalar.len = w;
	node->u.scalar.style = SMP_STYLE_PLAIN;
	p->i += w;
	node->end = here(p);
	*out = node;
	return 0;
}

/* Opens a mapping or sequence at p->i ('{' or '['). */
static int
open_container(struct parser *p, enum smp_node_kind kind)
{
	struct smp_pos start = here(p);
	struct smp_node *node;
	struct frame *f;
	void *items = p->frames;
	int rc;

	if (p->depth >= p->lim.max_depth)
		return limit_at(p, &start, LIMIT_DEPTH);
	if ((rc = count_node(p, &start)) != 0)
		return rc;
	node = new_node(p, kind, &start, 0);
	if (!node)
		return SMP_ENOMEM;
	if (smp__grow(p->alloc, &items, &p->capframes, p->depth + 1,
		      sizeof(*p->frames)))
		return SMP_ENOMEM;
	p->frames = items;
	f = &p->frames[p->depth++];
	f->node = node;
	f->base = p->nstack;
	f->id = p->next_id++;
	f->hashed = 0;
	p->i++;
	return 0;
}

/* Closes the innermost container at p->i ('}' or ']'). */
static int
close_container(struct parser *p, struct smp_node **out)
{
	struct frame *f = &p->frames[p->depth - 1];
	struct smp_node *c = f->node;
	size_t n = p->nstack - f->base, k;
	/* the stack is still NULL when no container had a child yet */
	struct smp_node **kids = n ? p->stack + f->base : NULL;

	if (c->kind == SMP_NODE_SEQUENCE && n) {
		c->u.sequence.items = smp__arena_alloc(
			p->arena, n * sizeof(struct smp_node *));
		if (!c->u.sequence.items)
			return SMP_ENOMEM;
		memcpy(c->u.sequence.items, kids,
		       n * sizeof(struct smp_node *));
		c->u.sequence.count = n;
	} else if (c->kind == SMP_NODE_MAPPING && n) {
		struct smp_pair *pairs =
			smp__arena_alloc(p->arena, n / 2 * sizeof(*pairs));

		if (!pairs)
			return SMP_ENOMEM;
		for (k = 0; k < n / 2; k++) {
			pairs[k].key = kids[2 * k];
			pairs[k].value = kids[2 * k + 1];
		}
		c->u.mapping.items = pairs;
		c->u.mapping.count = n / 2;
	}
	p->nstack = f->base;
	p->depth--;
	if (p->depth < p->stream_depth)
		p->stream_depth = 0; /* the streamed array is closed */
	p->i++;
	c->end = here(p);
	*out = c;
	return 0;
}

static int
same_key(const struct smp_node *a, const struct smp_node *b)
{
	size_t n = a->u.scalar.len;

	return n == b->u.scalar.len &&
	       (!n || a->u.scalar.value[0] == b->u.scalar.value[0]) &&
	       memcmp(a->u.scalar.value, b->u.scalar.value, n) == 0;
}

static uint64_t
hash_key(const struct parser *p, const struct smp_node *k, size_t obj)
{
	const unsigned char *s = (const unsigned char *)k->u.scalar.value;
	uint64_t h = p->seed ^ ((uint64_t)obj * 0x9E3779B97F4A7C15u);
	size_t i;

	for (i = 0; i < k->u.scalar.len; i++) {
		h ^= s[i];
		h *= 0x100000001B3u;
	}
	h ^= h >> 32;
	h *= 0xD6E8FEB86659FD93u;
	h ^= h >> 32;
	return h;
}

/*
 * The first key equal to k in object obj, or NULL after inserting k.
 * Returns SMP_ENOMEM through *rc when the table cannot grow.
 */
static const struct smp_node *
dup_find_or_add(struct parser *p, size_t obj, const struct smp_node *k, int *rc)
{
	size_t mask, h;

	if ((p->ndups + 1) * 2 > p->capdups) {
		size_t ncap = p->capdups ? p->capdups * 2 : 64, j;
		struct dup_slot *t;

		if (ncap > SIZE_MAX / sizeof(*t) ||
		    !(t = smp__calloc(p->alloc, ncap, sizeof(*t)))) {
			*rc = SMP_ENOMEM;
			return NULL;
		}
		for (j = 0; j < p->capdups; j++) {
			const struct dup_slot *e = &p->dups[j];

			if (!e->key)
				continue;
			h = (size_t)hash_key(p, e->key, e->obj) & (ncap - 1);
			while (t[h].key)
				h = (h + 1) & (ncap - 1);
			t[h] = *e;
		}
		smp__free(p->alloc, p->dups);
		p->dups = t;
		p->capdups = ncap;
	}
	mask = p->capdups - 1;
	h = (size_t)hash_key(p, k, obj) & mask;
	while (p->dups[h].key) {
		if (p->dups[h].obj == obj && same_key(p->dups[h].key, k))
			return p->dups[h].key;
		h = (h + 1) & mask;
	}
	p->dups[h].key = k;
	p->dups[h].obj = obj;
	p->ndups++;
	return NULL;
}

/* The JSON Pointer of key k, about to join the innermost object. */
static void
set_pointer(struct parser *p, struct smp_diag *f, const struct smp_node *k)
{
	char ptr[1024], num[32];
	size_t len = 0, d;

	for (d = 0; d + 1 < p->depth && len < sizeof(ptr); d++) {
		const struct frame *fr = &p->frames[d];
		size_t end = p->frames[d + 1].base;

		if (fr->node->kind == SMP_NODE_MAPPING) {
			const struct smp_node *key = p->stack[end - 1];

			smp__pointer_seg(ptr, sizeof(ptr), &len,
					 key->u.scalar.value,
					 key->u.scalar.len);
		} else {
			/* a streamed array keeps no elements: count them */
			size_t n = end - fr->base;
			int w;

			if (d + 1 == p->stream_depth)
				n += p->streamed;
			w = snprintf(num, sizeof(num), "%zu", n);

			smp__pointer_seg(ptr, sizeof(ptr), &len, num,
					 (size_t)w);
		}
	}
	smp__pointer_seg(ptr, sizeof(ptr), &len, k->u.scalar.value,
			 k->u.scalar.len);
	if (len >= sizeof(ptr) || memchr(ptr, '\0', len))
		return;
	f->pointer = smp__arena_strndup(&p->docs->arena, ptr, len);
	if (!f->pointer)
		p->failed = 1;
}

/* Reports key k when the innermost object already has it. */
static int
check_duplicate(struct parser *p, const struct smp_node *k)
{
	struct frame *f = &p->frames[p->depth - 1];
	size_t nkeys = (p->nstack - f->base) / 2, j;
	const struct smp_node *first = NULL;
	struct smp_diag *fd;
	int rc = 0;

	if (!f->hashed && nkeys < DUP_LINEAR) {
		for (j = 0; j < nkeys && !first; j++)
			if (same_key(p->stack[f->base + 2 * j], k))
				first = p->stack[f->base + 2 * j];
	} else {
		for (j = 0; !f->hashed && j < nkeys; j++) {
			dup_find_or_add(p, f->id, p->stack[f->base + 2 * j],
					&rc);
			if (rc)
				return rc;
		}
		f->hashed = 1;
		first = dup_find_or_add(p, f->id, k, &rc);
		if (rc)
			return rc;
	}
	if (!first)
		return 0;
	fd = smp__docs_duplicate_key(p->docs, k, &k->end, first);
	if (fd)
		set_pointer(p, fd, k);
	else
		p->failed = 1;
	return p->failed ? SMP_ENOMEM : 0;
}

/* A member's key at p->i, its duplicate check and the ':' after it. */
static int
parse_key(struct parser *p, int after_comma)
{
	struct smp_node *k = NULL;
	struct smp_pos pos;
	char d[WORD_MAX + 16];
	int rc;

	if (p->i >= p->len)
		return eof_in_container(p);
	if (p->buf[p->i] != '"') {
		pos = here(p);
		return SYNTAX_AT(
			p, &pos, "expected a string key %s, found %s%s%s",
			after_comma ? "after ','" : "or '}'",
			describe(p, p->i, d, sizeof(d)), hint(p, p->i, 1),
			after_comma && p->buf[p->i] == '}'
				? "; trailing commas are not allowed"
				: "");
	}
	rc = parse_string(p, &k);
	if (rc || !k) /* k is set whenever rc is 0 */
		return rc ? rc : SMP_EINTERNAL;
	if ((rc = check_duplicate(p, k)) != 0)
		return rc;
	if ((rc = push(p, k)) != 0)
		return rc;
	skip_ws(p);
	if (p->i >= p->len)
		return eof_in_container(p);
	if (p->buf[p->i] != ':') {
		pos = here(p);
		return SYNTAX_AT(
			p, &pos, "expected ':' after an object key, found %s%s",
			describe(p, p->i, d, sizeof(d)), hint(p, p->i, 0));
	}
	p->i++;
	skip_ws(p);
	return 0;
}

/* The sink's word on the member whose key was just pushed. */
static int
member(struct parser *p)
{
	int r;

	if (!p->sink || !p->sink->member || p->skip_depth)
		return 0;
	r = p->sink->member(p->sink->ud, p->depth, p->stack[p->nstack - 1]);
	if (r < 0)
		return r;
	if (r == SMP_JSON_SKIP)
		p->skip_depth = p->depth;
	else if (r == SMP_JSON_STREAM)
		p->stream_next = 1;
	return 0;
}

/* The skipped member value *v (a scratch node) is complete: an empty
 * node of its kind and place takes its place in the tree. */
static int
unskip(struct parser *p, struct smp_node **v)
{
	struct smp_node *n = smp__arena_zalloc(p->arena, sizeof(*n) + 1);

	p->skip_depth = 0;
	if (!n)
		return SMP_ENOMEM;
	n->kind = (*v)->kind;
	n->start = (*v)->start;
	n->end = (*v)->end;
	if (n->kind == SMP_NODE_SCALAR) {
		n->u.scalar.value = node_text(n);
		n->u.scalar.style = (*v)->u.scalar.style;
	}
	*v = n;
	return 0;
}

/* The streamed element v goes to the sink, and its nodes are released.
 * The duplicate table forgets their keys: the open objects' keys are
 * hashed again from the stack when needed. */
static int
take(struct parser *p, const struct smp_node *v)
{
	int rc = p->sink->element ? p->sink->element(p->sink->ud, v) : 0;
	size_t k;

	smp__arena_release(&p->element);
	p->arena = &p->docs->arena;
	p->in_element = 0;
	p->nodes = p->nodes_before; /* each element has the whole limit */
	p->streamed++;
	if (p->ndups) {
		memset(p->dups, 0, p->capdups * sizeof(*p->dups));
		p->ndups = 0;
		for (k = 0; k < p->depth; k++)
			p->frames[k].hashed = 0;
	}
	return rc < 0 ? rc : 0;
}

/* The whole grammar as one loop over an explicit stack. */
static int
parse(struct parser *p, struct smp_node **root)
{
	enum expect ex = EXPECT_TOP;
	struct smp_node *v = NULL;
	struct smp_pos pos;
	char d[WORD_MAX + 16];
	int rc;

	skip_ws(p);
	for (;;) {
		int stream = p->stream_next;

		p->stream_next = 0;
		if (p->stream_depth && p->depth == p->stream_depth &&
		    !p->in_element) {
			/* an element of the streamed array starts */
			p->in_element = 1;
			p->nodes_before = p->nodes;
			p->arena = &p->element;
		}
		/* a value is expected at p->i */
		if (p->i >= p->len) {
			if (p->depth)
				return eof_in_container(p);
			pos = here(p);
			return SYNTAX_AT(p, &pos,
					 "unexpected end of input, "
					 "expected a JSON value");
		}
		switch (p->buf[p->i]) {
		case '[':
			if ((rc = open_container(p, SMP_NODE_SEQUENCE)) != 0)
				return rc;
			if (stream)
				p->stream_depth = p->depth;
			skip_ws(p);
			if (p->i < p->len && p->buf[p->i] == ']') {
				rc = close_container(p, &v);
				break;
			}
			ex = EXPECT_FIRST_ELEMENT;
			continue;
		case '{':
			if ((rc = open_container(p, SMP_NODE_MAPPING)) != 0)
				return rc;
			skip_ws(p);
			if (p->i < p->len && p->buf[p->i] == '}') {
				rc = close_container(p, &v);
				break;
			}
			if ((rc = parse_key(p, 0)) != 0 ||
			    (rc = member(p)) != 0)
				return rc;
			ex = EXPECT_MEMBER_VALUE;
			continue;
		case '"':
			rc = parse_string(p, &v);
			break;
		case '-':
		case '0':
		case '1':
		case '2':
		case '3':
		case '4':
		case '5':
		case '6':
		case '7':
		case '8':
		case '9':
			rc = parse_number(p, &v);
			break;
		default:
			rc = parse_literal(p, &v, ex);
			break;
		}
		if (rc)
			return rc;
		/* v is complete: attach it and find what follows */
		for (;;) {
			struct frame *f;
			char c;

			skip_ws(p);
			if (!p->depth) {
				*root = v;
				if (p->i >= p->len)
					return 0;
				pos = here(p);
				return SYNTAX_AT(
					p, &pos,
					"unexpected %s after the JSON "
					"value",
					describe(p, p->i, d, sizeof(d)));
			}
			if (p->skip_depth && p->depth == p->skip_depth &&
			    (rc = unskip(p, &v)) != 0)
				return rc;
			if (p->in_element && p->depth == p->stream_depth)
				rc = take(p, v);
			else
				rc = push(p, v);
			if (rc)
				return rc;
			if (p->i >= p->len)
				return eof_in_container(p);
			f = &p->frames[p->depth - 1];
			c = p->buf[p->i];
			if (c ==
			    (f->node->kind == SMP_NODE_MAPPING ? '}' : ']')) {
				if ((rc = close_container(p, &v)) != 0)
					return rc;
				continue;
			}
			pos = here(p);
			if (c != ',' && f->node->kind == SMP_NODE_SEQUENCE)
				return SYNTAX_AT(
					p, &pos,
					"expected ',' or ']' after an "
					"array element, found %s%s",
					describe(p, p->i, d, sizeof(d)),
					hint(p, p->i, 0));
			if (c != ',')
				return SYNTAX_AT(
					p, &pos,
					"expected ',' or '}' after an "
					"object member, found %s%s",
					describe(p, p->i, d, sizeof(d)),
					hint(p, p->i, 0));
			p->i++;
			skip_ws(p);
			if (f->node->kind == SMP_NODE_MAPPING) {
				if ((rc = parse_key(p, 1)) != 0 ||
				    (rc = member(p)) != 0)
					return rc;
				ex = EXPECT_MEMBER_VALUE;
			} else {
				ex = EXPECT_NEXT_ELEMENT;
			}
			break;
		}
	}
}

int
smp__load_json(struct smp_docs *docs, const char *buf, size_t len,
	       const struct smp_limits *limits)
{
	return smp__load_json_sink(docs, buf, len, limits, NULL);
}

/*
 * Parses buf as one JSON document into docs (see load.h). Limits of 0
 * take their defaults. Returns 0 (diagnostics in docs) or SMP_ENOMEM.
 */
int
smp__load_json_sink(struct smp_docs *docs, const char *buf, size_t len,
		    const struct smp_limits *limits,
		    const struct smp_json_sink *sink)
{
	struct parser p;
	struct smp_node *root = NULL;
	struct smp_doc *doc;
	int rc;

	memset(&p, 0, sizeof(p));
	p.buf = buf;
	p.len = len;
	p.line = 1;
	p.arena = &docs->arena;
	p.alloc = docs->arena.alloc;
	p.docs = docs;
	p.sink = sink;
	smp__arena_init(&p.element, docs->arena.alloc);
	smp__limits_resolve(&p.lim, limits);
	/*
	 * Seed the duplicate table's hash from addresses (ASLR) so crafted
	 * keys cannot force collisions; results never depend on it.
	 */
	p.seed = (uint64_t)(uintptr_t)&p ^ ((uint64_t)(uintptr_t)buf << 17);
	docs->is_json = 1;
	if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0)
		p.i = p.line_start = 3;
	rc = parse(&p, &root);
	smp__free(p.alloc, p.stack);
	smp__free(p.alloc, p.frames);
	smp__free(p.alloc, p.dups);
	smp__free(p.alloc, p.pool);
	smp__free(p.alloc, p.scratch);
	smp__arena_release(&p.element);
	if (rc < 0)
		return rc;
	if (rc == STOP || !root)
		return p.failed ? SMP_ENOMEM : 0;
	doc = smp__docs_push(docs);
	if (!doc)
		return SMP_ENOMEM;
	doc->root = root;
	doc->start = root->start;
	return p.failed ? SMP_ENOMEM : 0;
}
