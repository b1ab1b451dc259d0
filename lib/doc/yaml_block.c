/*
 * yaml_block.c - the block subset of YAML scanned line by line into
 * libyaml's events (yaml_block.h). Each line's indentation closes the
 * collections deeper than it, as libyaml's indentation stack does, and
 * every end event sits where the next token starts, as libyaml's block
 * end tokens do. Whatever the subset does not hold is declined, never
 * guessed: libyaml then reads the whole buffer again.
 */
#include <stdint.h>
#include <string.h>

#include "doc/yaml_block.h"

/* Deeper specs are declined (libyaml then applies the depth limit). */
#define MAX_LEVELS 64

/* Larger documents go to libyaml, which streams: the events of one
 * scan are held at once (about 1.7 MB at this count). */
#define MAX_EVENTS 16384

/* libyaml refuses a simple key longer than 1024 characters. */
#define MAX_KEY 1000

/* What a step returns besides 0 (go on): declined, or out of memory. */
#define DECLINE 1

/* An open block collection: its column and whether it is a sequence
 * written at its mapping's column ("key:\n- a"), which no indentation
 * of its own closes. */
struct level {
	size_t indent;
	int seq;
	int indentless;
};

struct scan {
	const char *s;
	size_t len;
	const struct smp_allocator *a;
	yaml_event_t *ev;
	size_t n, cap;
	struct level lv[MAX_LEVELS];
	size_t depth;
	size_t line; /* 0-based, of the line being read */
	size_t bol;  /* offset of its first byte */
	/* a key whose value is on the lines below, and where it would be
	 * empty: right after its ':' */
	int pending;
	yaml_mark_t after_colon;
	/* after a scalar the next line may not be deeper than this: it
	 * would continue the scalar */
	size_t limit;
};

/* A scalar on the current line: its extent and its value's. */
struct token {
	size_t start, end;
	size_t value, vlen;
	yaml_scalar_style_t style;
	int flow; /* a flow collection, its events already emitted */
};

/* Bytes that stop a scan for the end of a key or a plain scalar. */
static const unsigned char stops[256] = {
	['\n'] = 1, [' '] = 1, ['#'] = 1, [':'] = 1, [','] = 1,
	['['] = 1,  [']'] = 1, ['{'] = 1, ['}'] = 1,
};

/* YAML's indicators: no plain scalar starts with one ("-" may). */
static const unsigned char indicators[256] = {
	[','] = 1, ['['] = 1,  [']'] = 1, ['{'] = 1, ['}'] = 1,
	['#'] = 1, ['&'] = 1,  ['*'] = 1, ['!'] = 1, ['|'] = 1,
	['>'] = 1, ['%'] = 1,  ['@'] = 1, ['`'] = 1, ['?'] = 1,
	[':'] = 1, ['\''] = 1, ['"'] = 1, [' '] = 1, ['\n'] = 1,
};

/*
 * Printable ASCII and line feeds: no tab, CR, BOM or multi-byte text.
 * Eight bytes at a time: a byte below 0x80 is below 0x20 when adding
 * 0x60 leaves its top bit clear, and a zero byte of w ^ c marks c.
 */
static int
in_charset(const char *buf, size_t len)
{
	const uint64_t ones = 0x0101010101010101ULL, top = ones * 0x80;
	const uint64_t low7 = ones * 0x7F;
	uint64_t bad = 0;
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		uint64_t w, lf, del;

		memcpy(&w, buf + i, sizeof(w));
		lf = w ^ (ones * '\n');
		lf = ~(((lf & low7) + low7) | lf | low7);
		del = w ^ (ones * 0x7F);
		del = ~(((del & low7) + low7) | del | low7);
		bad |= (w & top) | (~(w + ones * 0x60) & top & ~lf) | del;
	}
	for (; i < len; i++) {
		unsigned char c = (unsigned char)buf[i];

		if ((c < 0x20 && c != '\n') || c > 0x7E)
			return 0;
	}
	return bad == 0;
}

static yaml_mark_t
mark(const struct scan *sc, size_t off)
{
	yaml_mark_t m;

	m.index = off;
	m.line = sc->line;
	m.column = off - sc->bol;
	return m;
}

static int
blank_at(const struct scan *sc, size_t off)
{
	return off >= sc->len || sc->s[off] == ' ' || sc->s[off] == '\n';
}

/* "- " or "-" at the end of a line: a block sequence entry. */
static int
is_dash(const struct scan *sc, size_t p)
{
	return sc->s[p] == '-' && blank_at(sc, p + 1);
}

static int
push(struct scan *sc, yaml_event_type_t type, yaml_mark_t start,
     yaml_mark_t end, yaml_event_t **out)
{
	void *items = sc->ev;
	yaml_event_t *e;

	if (sc->n >= MAX_EVENTS)
		return DECLINE;
	if (sc->n >= sc->cap) {
		if (smp__grow(sc->a, &items, &sc->cap, sc->n + 1,
			      sizeof(yaml_event_t)))
			return SMP_ENOMEM;
		sc->ev = items;
	}
	e = &sc->ev[sc->n++];
	memset(e, 0, sizeof(*e));
	e->type = type;
	e->start_mark = start;
	e->end_mark = end;
	if (out)
		*out = e;
	return 0;
}

static int
emit_scalar(struct scan *sc, const struct token *t)
{
	yaml_event_t *e;
	int rc = push(sc, YAML_SCALAR_EVENT, mark(sc, t->start),
		      mark(sc, t->end), &e);

	if (rc)
		return rc;
	/* libyaml's events hold writable copies; ours point into the
	 * caller's buffer, which the loader only reads */
	e->data.scalar.value = (yaml_char_t *)(uintptr_t)(sc->s + t->value);
	e->data.scalar.length = t->vlen;
	e->data.scalar.plain_implicit = t->style == YAML_PLAIN_SCALAR_STYLE;
	e->data.scalar.quoted_implicit = !e->data.scalar.plain_implicit;
	e->data.scalar.style = t->style;
	return 0;
}

/* The empty value of a key with nothing under it. */
static int
emit_empty(struct scan *sc, yaml_mark_t at)
{
	yaml_event_t *e;
	int rc = push(sc, YAML_SCALAR_EVENT, at, at, &e);

	if (rc)
		return rc;
	e->data.scalar.value = (yaml_char_t *)(uintptr_t)(sc->s + at.index);
	e->data.scalar.plain_implicit = 1;
	e->data.scalar.style = YAML_PLAIN_SCALAR_STYLE;
	return 0;
}

static int
open_level(struct scan *sc, int seq, size_t p, int indentless)
{
	yaml_event_t *e;
	yaml_mark_t end = mark(sc, p + (indentless ? 1 : 0));
	int rc;

	if (sc->depth >= MAX_LEVELS)
		return DECLINE;
	rc = push(sc,
		  seq ? YAML_SEQUENCE_START_EVENT : YAML_MAPPING_START_EVENT,
		  mark(sc, p), end, &e);
	if (rc)
		return rc;
	if (seq) {
		e->data.sequence_start.implicit = 1;
		e->data.sequence_start.style = YAML_BLOCK_SEQUENCE_STYLE;
	} else {
		e->data.mapping_start.implicit = 1;
		e->data.mapping_start.style = YAML_BLOCK_MAPPING_STYLE;
	}
	sc->lv[sc->depth].indent = p - sc->bol;
	sc->lv[sc->depth].seq = seq;
	sc->lv[sc->depth].indentless = indentless;
	sc->depth++;
	return 0;
}

static int
close_level(struct scan *sc, yaml_mark_t at)
{
	sc->depth--;
	return push(sc,
		    sc->lv[sc->depth].seq ? YAML_SEQUENCE_END_EVENT
					  : YAML_MAPPING_END_EVENT,
		    at, at, NULL);
}

/* The first byte from q that may end a key or a plain scalar. */
static size_t
skip_to_stop(const struct scan *sc, size_t q)
{
	while (q < sc->len && !stops[(unsigned char)sc->s[q]])
		q++;
	return q;
}

/* A character a plain scalar may start with in block context. */
static int
plain_start(const struct scan *sc, size_t p)
{
	if (indicators[(unsigned char)sc->s[p]])
		return 0;
	return !is_dash(sc, p);
}

/*
 * What may follow a scalar: blanks, then the line's end or a comment
 * after at least one blank. *eol is the line feed's offset (or len).
 */
static int
line_tail(const struct scan *sc, size_t q, size_t *eol)
{
	const char *nl;
	int spaced = q > 0 && sc->s[q - 1] == ' ';

	while (q < sc->len && sc->s[q] == ' ') {
		q++;
		spaced = 1;
	}
	if (q < sc->len && sc->s[q] != '\n') {
		if (sc->s[q] != '#' || !spaced)
			return DECLINE;
		nl = memchr(sc->s + q, '\n', sc->len - q);
		q = nl ? (size_t)(nl - sc->s) : sc->len;
	}
	*eol = q;
	return 0;
}

/* The plain scalar p..end: its value is its text. */
static void
plain_token(struct token *t, size_t p, size_t end)
{
	t->start = t->value = p;
	t->end = end;
	t->vlen = end - p;
	t->style = YAML_PLAIN_SCALAR_STYLE;
}

/* A one-line quoted scalar at p without escapes; t->end after it. */
static int
quoted(const struct scan *sc, size_t p, struct token *t)
{
	char qc = sc->s[p];
	size_t q = p + 1;

	while (q < sc->len && sc->s[q] != qc && sc->s[q] != '\n') {
		if (qc == '"' && sc->s[q] == '\\')
			return DECLINE;
		q++;
	}
	if (q >= sc->len || sc->s[q] == '\n')
		return DECLINE; /* continued on the next line, or open */
	if (qc == '\'' && q + 1 < sc->len && sc->s[q + 1] == '\'')
		return DECLINE; /* '' escapes a quote */
	t->start = p;
	t->end = q + 1;
	t->value = p + 1;
	t->vlen = q - p - 1;
	t->style = qc == '"' ? YAML_DOUBLE_QUOTED_SCALAR_STYLE
			     : YAML_SINGLE_QUOTED_SCALAR_STYLE;
	return 0;
}

/*
 * The key at p when the line is "key: ..." (0 with *colon at its ':'),
 * DECLINE when the line is something else: keys the subset does not
 * hold, or none.
 */
static int
key_at(const struct scan *sc, size_t p, struct token *t, size_t *colon)
{
	size_t q = p;

	if (sc->s[p] == '"' || sc->s[p] == '\'') {
		if (quoted(sc, p, t))
			return DECLINE;
		q = t->end;
		if (q >= sc->len || sc->s[q] != ':' || !blank_at(sc, q + 1))
			return DECLINE;
		*colon = q;
		return 0;
	}
	if (!plain_start(sc, p))
		return DECLINE;
	for (;; q++) {
		q = skip_to_stop(sc, q);
		if (q >= sc->len || sc->s[q] == '\n')
			break;
		if (sc->s[q] == '#' && sc->s[q - 1] == ' ')
			return DECLINE;
		if (sc->s[q] == ':' && blank_at(sc, q + 1))
			break;
	}
	if (q >= sc->len || sc->s[q] != ':' || sc->s[q - 1] == ' ' ||
	    q - p > MAX_KEY)
		return DECLINE;
	plain_token(t, p, q);
	*colon = q;
	return 0;
}

static int
is_flow_indicator(char c)
{
	return c == ',' || c == '[' || c == ']' || c == '{' || c == '}';
}

/*
 * A plain scalar inside a flow collection at p: it ends at a flow
 * indicator, at ": " (a key's) or before " #"; ':' before a flow
 * indicator or '?' is declined (libyaml refuses it).
 */
static int
flow_plain(const struct scan *sc, size_t p, struct token *t)
{
	size_t q, end;

	if (!plain_start(sc, p))
		return DECLINE;
	for (q = end = p; q < sc->len && sc->s[q] != '\n'; q++) {
		char c = sc->s[q];

		if (c == ' ')
			continue;
		if (is_flow_indicator(c) || (c == '#' && sc->s[q - 1] == ' '))
			break;
		if (c == ':' && blank_at(sc, q + 1))
			break;
		/* libyaml 0.2.5 reads "s3://b" as one scalar, 0.2.2 not */
		if (c == ':' &&
		    (is_flow_indicator(sc->s[q + 1]) || sc->s[q + 1] == '?'))
			return DECLINE;
		end = q + 1;
	}
	plain_token(t, p, end);
	return 0;
}

static size_t
skip_spaces(const struct scan *sc, size_t q)
{
	while (q < sc->len && sc->s[q] == ' ')
		q++;
	return q;
}

static int flow_node(struct scan *sc, size_t *q, size_t nest);

/* The scalar at *q inside a flow collection; *q moves past it. */
static int
flow_scalar(struct scan *sc, size_t *q)
{
	struct token t;
	int rc;

	if (sc->s[*q] == '"' || sc->s[*q] == '\'')
		rc = quoted(sc, *q, &t);
	else
		rc = flow_plain(sc, *q, &t);
	if (rc)
		return rc;
	*q = t.end;
	return emit_scalar(sc, &t);
}

/* The entries of a flow collection from *q up to its closing bracket. */
static int
flow_entries(struct scan *sc, size_t *q, int map, char close, size_t nest)
{
	int rc;

	for (;;) {
		if (*q >= sc->len)
			return DECLINE;
		if (map) {
			if (sc->s[*q] == '{' || sc->s[*q] == '[')
				return DECLINE; /* a collection as a key */
			rc = flow_scalar(sc, q);
			if (rc)
				return rc;
			if (*q >= sc->len || sc->s[*q] != ':' ||
			    !blank_at(sc, *q + 1))
				return DECLINE;
			*q = skip_spaces(sc, *q + 1);
			if (*q >= sc->len || sc->s[*q] == ',' ||
			    sc->s[*q] == close)
				return DECLINE; /* an empty value */
		}
		rc = flow_node(sc, q, nest + 1);
		if (rc)
			return rc;
		*q = skip_spaces(sc, *q);
		if (*q < sc->len && sc->s[*q] == close)
			return 0;
		if (*q >= sc->len || sc->s[*q] != ',')
			return DECLINE; /* "k: v" in a sequence, a line end */
		*q = skip_spaces(sc, *q + 1);
		if (*q < sc->len && sc->s[*q] == close)
			return DECLINE; /* a comma before the end */
	}
}

/*
 * "{...}" or "[...]" at *q, on one line: keys are scalars followed by
 * ": ", entries are separated by ", " and the collection is not empty
 * after its last comma. *q moves past the closing bracket.
 */
static int
flow_collection(struct scan *sc, size_t *q, size_t nest)
{
	int map = sc->s[*q] == '{', rc;
	char close = map ? '}' : ']';
	yaml_event_t *e;

	if (nest >= MAX_LEVELS)
		return DECLINE;
	rc = push(sc,
		  map ? YAML_MAPPING_START_EVENT : YAML_SEQUENCE_START_EVENT,
		  mark(sc, *q), mark(sc, *q + 1), &e);
	if (rc)
		return rc;
	if (map)
		e->data.mapping_start.style = YAML_FLOW_MAPPING_STYLE;
	else
		e->data.sequence_start.style = YAML_FLOW_SEQUENCE_STYLE;
	*q = skip_spaces(sc, *q + 1);
	if (*q >= sc->len || sc->s[*q] != close) {
		rc = flow_entries(sc, q, map, close, nest);
		if (rc)
			return rc;
	}
	rc = push(sc, map ? YAML_MAPPING_END_EVENT : YAML_SEQUENCE_END_EVENT,
		  mark(sc, *q), mark(sc, *q + 1), NULL);
	*q += 1;
	return rc;
}

static int
flow_node(struct scan *sc, size_t *q, size_t nest)
{
	if (sc->s[*q] == '{' || sc->s[*q] == '[')
		return flow_collection(sc, q, nest);
	return flow_scalar(sc, q);
}

/*
 * The one-line value at p, up to the line's end or comment: a scalar
 * into *t, or a flow collection (emitted here: t->flow).
 */
static int
value_at(struct scan *sc, size_t p, struct token *t, size_t *eol)
{
	size_t q, end;
	int rc;

	if (sc->s[p] == '{' || sc->s[p] == '[') {
		q = p;
		rc = flow_collection(sc, &q, 0);
		if (rc)
			return rc;
		t->flow = 1;
		return line_tail(sc, q, eol);
	}
	t->flow = 0;
	if (sc->s[p] == '"' || sc->s[p] == '\'')
		return quoted(sc, p, t) ? DECLINE : line_tail(sc, t->end, eol);
	if (!plain_start(sc, p))
		return DECLINE;
	for (q = end = p;; q++) {
		size_t run = q;

		q = skip_to_stop(sc, q);
		if (q > run)
			end = q;
		if (q >= sc->len || sc->s[q] == '\n')
			break;
		if (sc->s[q] == ' ')
			continue;
		if (sc->s[q] == '#' && sc->s[q - 1] == ' ')
			break;
		/* "a: b: c" is refused by libyaml */
		if (sc->s[q] == ':' && blank_at(sc, q + 1))
			return DECLINE;
		end = q + 1;
	}
	plain_token(t, p, end);
	return line_tail(sc, end, eol);
}

/* "key: value", "key:" with its value below, from the key at p. */
static int
map_entry(struct scan *sc, size_t p, size_t *eol)
{
	struct token key, val;
	size_t colon, v;
	int rc;

	if (key_at(sc, p, &key, &colon))
		return DECLINE;
	rc = emit_scalar(sc, &key);
	if (rc)
		return rc;
	for (v = colon + 1; v < sc->len && sc->s[v] == ' '; v++)
		;
	if (v >= sc->len || sc->s[v] == '\n' || sc->s[v] == '#') {
		sc->pending = 1;
		sc->after_colon = mark(sc, colon + 1);
		return line_tail(sc, colon + 1, eol);
	}
	rc = value_at(sc, v, &val, eol);
	if (rc)
		return rc;
	sc->limit = sc->lv[sc->depth - 1].indent;
	return val.flow ? 0 : emit_scalar(sc, &val);
}

/* "- value" or "- key: ..." (a mapping in the entry) at p. */
static int
seq_entry(struct scan *sc, size_t p, size_t *eol)
{
	struct token t;
	size_t r, colon;
	int rc;

	if (!is_dash(sc, p))
		return DECLINE;
	for (r = p + 1; r < sc->len && sc->s[r] == ' '; r++)
		;
	if (r >= sc->len || sc->s[r] == '\n' || sc->s[r] == '#' ||
	    is_dash(sc, r))
		return DECLINE;
	if (key_at(sc, r, &t, &colon) == 0) {
		rc = open_level(sc, 0, r, 0);
		return rc ? rc : map_entry(sc, r, eol);
	}
	rc = value_at(sc, r, &t, eol);
	if (rc)
		return rc;
	sc->limit = sc->lv[sc->depth - 1].indent;
	return t.flow ? 0 : emit_scalar(sc, &t);
}

/*
 * The next line with a token, *p at its first one: blank lines and
 * comments are skipped. 0 at the end of the buffer.
 */
static int
next_line(struct scan *sc, size_t *p)
{
	const char *nl;
	size_t q;

	for (;;) {
		for (q = sc->bol; q < sc->len && sc->s[q] == ' '; q++)
			;
		if (q >= sc->len)
			return 0;
		if (sc->s[q] != '\n' && sc->s[q] != '#') {
			*p = q;
			return 1;
		}
		nl = memchr(sc->s + q, '\n', sc->len - q);
		if (!nl)
			return 0;
		sc->line++;
		sc->bol = (size_t)(nl - sc->s) + 1;
	}
}

/*
 * The line whose first token is at p (column c) after the previous one:
 * opens what a pending key's value starts, closes what it is outside of.
 */
static int
place_line(struct scan *sc, size_t p, size_t c)
{
	yaml_mark_t at = mark(sc, p);
	int rc;

	if (sc->pending) {
		size_t n = sc->lv[sc->depth - 1].indent;

		sc->pending = 0;
		if (is_dash(sc, p) && c >= n)
			return open_level(sc, 1, p, c == n);
		if (c > n)
			return open_level(sc, 0, p, 0);
		rc = emit_empty(sc, sc->after_colon);
		if (rc)
			return rc;
	} else if (c > sc->limit) {
		return DECLINE; /* a plain scalar's next line, or an error */
	}
	while (sc->depth > 1) {
		const struct level *t = &sc->lv[sc->depth - 1];

		if (t->indent <= c &&
		    !(t->indentless && t->indent == c && !is_dash(sc, p)))
			break;
		rc = close_level(sc, at);
		if (rc)
			return rc;
	}
	return sc->lv[sc->depth - 1].indent == c ? 0 : DECLINE;
}

/*
 * Closes what is open at the end of the stream. libyaml first closes the
 * levels deeper than the column where its scan stopped (after the last
 * line's blanks or comment), there; then it starts a line unless at
 * column 0 and closes the others, and the document, at that line's
 * start.
 */
static int
close_at_end(struct scan *sc)
{
	yaml_mark_t at;
	int rc = 0;

	at.index = sc->len;
	at.line = sc->line;
	at.column = sc->len - sc->bol;
	while (!rc && sc->depth && sc->lv[sc->depth - 1].indent > at.column)
		rc = close_level(sc, at);
	if (at.column) {
		at.line++;
		at.column = 0;
	}
	while (!rc && sc->depth)
		rc = close_level(sc, at);
	return rc ? rc : push(sc, YAML_DOCUMENT_END_EVENT, at, at, NULL);
}

static int
scan_lines(struct scan *sc)
{
	size_t p, eol;
	int rc, first = 1, have = next_line(sc, &p);

	/* the root: a block mapping at column 0 */
	if (!have || p != sc->bol || is_dash(sc, p))
		return DECLINE;
	rc = push(sc, YAML_DOCUMENT_START_EVENT, mark(sc, p), mark(sc, p),
		  NULL);
	if (!rc)
		rc = open_level(sc, 0, p, 0);
	while (!rc && have) {
		size_t c = p - sc->bol;

		/* "---", "..." end the document; "%" is caught as a token */
		if (c == 0 && sc->len - p >= 3 &&
		    (memcmp(sc->s + p, "---", 3) == 0 ||
		     memcmp(sc->s + p, "...", 3) == 0))
			return DECLINE;
		if (!first)
			rc = place_line(sc, p, c);
		first = 0;
		if (!rc)
			rc = sc->lv[sc->depth - 1].seq ? seq_entry(sc, p, &eol)
						       : map_entry(sc, p, &eol);
		if (rc)
			break;
		if (eol >= sc->len)
			break; /* the last line has no line feed */
		sc->line++;
		sc->bol = eol + 1;
		have = next_line(sc, &p);
	}
	if (rc)
		return rc;
	if (sc->pending && (rc = emit_empty(sc, sc->after_colon)) != 0)
		return rc;
	return close_at_end(sc);
}

int
smp__yaml_block_scan(const char *buf, size_t len, const struct smp_allocator *a,
		     yaml_event_t **events, size_t *count)
{
	struct scan sc;
	void *items;
	int rc;

	*events = NULL;
	*count = 0;
	if (!buf || !len || !in_charset(buf, len))
		return 0;
	memset(&sc, 0, sizeof(sc));
	sc.s = buf;
	sc.len = len;
	sc.a = a;
	/* about an event per eight bytes in specs: one allocation for most */
	items = NULL;
	if (smp__grow(a, &items, &sc.cap, len / 8 < 1024 ? len / 8 + 16 : 1024,
		      sizeof(yaml_event_t)))
		return SMP_ENOMEM;
	sc.ev = items;
	rc = scan_lines(&sc);
	if (rc) {
		smp__free(a, sc.ev);
		return rc == DECLINE ? 0 : rc;
	}
	*events = sc.ev;
	*count = sc.n;
	return 1;
}
