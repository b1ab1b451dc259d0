/*
 * edit_python.c - byte edits of a Python launcher (edit_python.h). What
 * is a literal is read from the text of a node's span, not from how the
 * evaluator got the value: '...' or "..." (no prefix, not triple-quoted,
 * no backslash), a number, True, False or None.
 */
#include <string.h>

#include "fix/edit_python.h"

static int
is_quote(char c)
{
	return c == '"' || c == '\'';
}

static int
ident_char(char c, int first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       (!first && c >= '0' && c <= '9');
}

/* The quote of a simple string literal at [s, e), or 0. */
static char
string_quote(const char *buf, size_t s, size_t e)
{
	char q;
	size_t i;

	if (e < s + 2 || !is_quote(buf[s]) || buf[e - 1] != buf[s])
		return 0;
	q = buf[s];
	if (e - s >= 6 && buf[s + 1] == q && buf[s + 2] == q)
		return 0; /* triple-quoted */
	for (i = s + 1; i + 1 < e; i++)
		if (buf[i] == q || buf[i] == '\\' || buf[i] == '\n')
			return 0;
	return q;
}

/* 1 when [s, e) is a number, True, False or None. */
static int
other_literal(const char *buf, size_t s, size_t e)
{
	size_t i, n = e - s;

	if ((n == 4 && memcmp(buf + s, "True", 4) == 0) ||
	    (n == 5 && memcmp(buf + s, "False", 5) == 0) ||
	    (n == 4 && memcmp(buf + s, "None", 4) == 0))
		return 1;
	if (n == 0)
		return 0;
	for (i = s; i < e; i++)
		if (!((buf[i] >= '0' && buf[i] <= '9') || buf[i] == '.' ||
		      buf[i] == 'e' || buf[i] == 'E' || buf[i] == '_' ||
		      ((buf[i] == '-' || buf[i] == '+') &&
		       (i == s || buf[i - 1] == 'e' || buf[i - 1] == 'E'))))
			return 0;
	return 1;
}

static void
add_string(struct smp_buf *b, const char *s, size_t n, char q)
{
	size_t i;

	smp__buf_addc(b, q);
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == (unsigned char)q || c == '\\') {
			smp__buf_addc(b, '\\');
			smp__buf_addc(b, (char)c);
		} else if (c < 0x20)
			smp__buf_addf(b, "\\x%02x", c);
		else
			smp__buf_addc(b, (char)c);
	}
	smp__buf_addc(b, q);
}

static void
add_value(struct smp_buf *b, const struct smp_finding *f, char q)
{
	if (f->suggestion_type == SMP_VALUE_STRING)
		add_string(b, f->suggestion, strlen(f->suggestion), q);
	else if (f->suggestion_type == SMP_VALUE_BOOLEAN)
		smp__buf_adds(b, strcmp(f->suggestion, "true") == 0 ? "True"
								    : "False");
	else
		smp__buf_adds(b, f->suggestion);
}

/* See edit_python.h. */
int
smp__py_set(struct smp_buf *b, const char *buf, const struct smp_node *node,
	    const struct smp_finding *f)
{
	size_t s = node->start.offset, e = node->end.offset;
	char q;

	if (node->kind != SMP_NODE_SCALAR || smp__node_unknown(node) || e <= s)
		return 1;
	q = string_quote(buf, s, e);
	if (!q && !other_literal(buf, s, e))
		return 1;
	if (!q)
		q = '"';
	add_value(b, f, q);
	return 0;
}

/* See edit_python.h. */
int
smp__py_key(struct smp_buf *b, const char *buf, const struct smp_node *key,
	    const char *name, size_t n)
{
	size_t s = key->start.offset, e = key->end.offset, i;
	char q = string_quote(buf, s, e);

	if (q) {
		add_string(b, name, n, q);
		return 0;
	}
	/* a keyword: the new name must be one too */
	for (i = s; i < e; i++)
		if (!ident_char(buf[i], i == s))
			return 1;
	for (i = 0; i < n; i++)
		if (!ident_char(name[i], i == 0))
			return 1;
	if (n == 0)
		return 1;
	smp__buf_add(b, name, n);
	return 0;
}

/* 1 when buf[s, e) holds only spaces and tabs, then c, then the same. */
static int
only(const char *buf, size_t s, size_t e, char c)
{
	int seen = 0;

	for (; s < e; s++) {
		if (buf[s] == c && !seen)
			seen = 1;
		else if (buf[s] != ' ' && buf[s] != '\t')
			return 0;
	}
	return seen;
}

static size_t
line_start(const char *buf, size_t p)
{
	while (p > 0 && buf[p - 1] != '\n' && buf[p - 1] != '\r')
		p--;
	return p;
}

/* See edit_python.h. */
int
smp__py_insert(struct smp_buf *b, size_t *at, const char *buf, size_t len,
	       const struct smp_node *m, const char *const *keys,
	       const size_t *lens, size_t n, const struct smp_finding *f)
{
	const struct smp_pair *last;
	size_t ks, ke, vs, ve, ls, i, p;
	char kq, vq = '"';
	int keyword, own_line, trailing;

	if (m->kind != SMP_NODE_MAPPING || m->u.mapping.count == 0 || n == 0)
		return 1;
	last = &m->u.mapping.items[m->u.mapping.count - 1];
	ks = last->key->start.offset;
	ke = last->key->end.offset;
	vs = last->value->start.offset;
	ve = last->value->end.offset;
	if (ke <= ks || ve <= vs || vs < ke || ve > len)
		return 1;
	kq = string_quote(buf, ks, ke);
	keyword = !kq;
	/* the last member is written right here: "key=value" in a call,
	 * "'key': value" in a dict literal, nothing traced from elsewhere */
	if (!only(buf, ke, vs, keyword ? '=' : ':'))
		return 1;
	for (i = ks; keyword && i < ke; i++)
		if (!ident_char(buf[i], i == ks))
			return 1;
	for (i = 0; keyword && i < lens[0]; i++)
		if (!ident_char(keys[0][i], i == 0))
			return 1;
	/* strings quoted as the siblings' are */
	if (kq)
		vq = kq;
	for (i = 0; !kq && i < m->u.mapping.count; i++) {
		const struct smp_node *v = m->u.mapping.items[i].value;

		if (v->kind == SMP_NODE_SCALAR && v->end.offset <= len &&
		    string_quote(buf, v->start.offset, v->end.offset)) {
			vq = buf[v->start.offset];
			break;
		}
	}
	ls = line_start(buf, ks);
	own_line = 1;
	for (i = ls; i < ks; i++)
		if (buf[i] != ' ' && buf[i] != '\t')
			own_line = 0;
	for (p = ve; p < len && (buf[p] == ' ' || buf[p] == '\t'); p++)
		;
	trailing = p < len && buf[p] == ',';
	*at = trailing ? p + 1 : ve;
	if (!trailing)
		smp__buf_addc(b, ',');
	if (own_line) {
		const char *nl = "\n";

		for (i = ks; i < len && buf[i] != '\n'; i++)
			;
		if (i > 0 && i < len && buf[i - 1] == '\r')
			nl = "\r\n";
		smp__buf_adds(b, nl);
		smp__buf_add(b, buf + ls, ks - ls);
	} else
		smp__buf_addc(b, ' ');
	if (keyword) {
		smp__buf_add(b, keys[0], lens[0]);
		smp__buf_addc(b, '=');
	} else {
		add_string(b, keys[0], lens[0], kq);
		smp__buf_adds(b, ": ");
	}
	for (i = 1; i < n; i++) {
		smp__buf_addc(b, '{');
		add_string(b, keys[i], lens[i], vq);
		smp__buf_adds(b, ": ");
	}
	add_value(b, f, vq);
	for (i = 1; i < n; i++)
		smp__buf_addc(b, '}');
	if (trailing)
		smp__buf_addc(b, ',');
	return 0;
}
