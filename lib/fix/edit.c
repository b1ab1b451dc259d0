/*
 * edit.c - a finding's typed patch as one byte edit (edit.h). The patch
 * names a JSON Pointer; the node tree carries the byte offsets of every
 * node, so a set is the replacement of one scalar's span, a rename that
 * of one key's span, and a value for an absent key is one insertion after
 * the last member of the deepest mapping that exists, written as its
 * siblings are: a block line at their indentation, or ", key: value" in a
 * flow mapping or a JSON object (on a new line when the object's members
 * are one per line). The line ending is the one of the line it follows.
 */
#include <string.h>

#include "util/buf.h"
#include "emit/out.h"
#include "fix/edit.h"
#include "fix/edit_python.h"

/* Deeper pointers are no patch any rule makes. */
#define SEGS_MAX 16

struct seg {
	const char *s;
	size_t n;
};

/* Splits pointer into unescaped segments (RFC 6901); -1 when too deep. */
static int
split(struct smp_arena *arena, const char *pointer, struct seg *segs,
      size_t *count)
{
	size_t n = 0;
	const char *p = pointer;

	while (*p == '/') {
		const char *e = p + 1;
		char *s, *w;

		while (*e && *e != '/')
			e++;
		if (n == SEGS_MAX)
			return -1;
		s = smp__arena_strndup(arena, p + 1, (size_t)(e - p - 1));
		if (!s)
			return SMP_ENOMEM;
		for (w = s, p = s; *p; p++) {
			if (p[0] == '~' && (p[1] == '0' || p[1] == '1')) {
				*w++ = p[1] == '0' ? '~' : '/';
				p++;
			} else
				*w++ = *p;
		}
		*w = '\0';
		segs[n].s = s;
		segs[n].n = (size_t)(w - s);
		n++;
		p = e;
	}
	*count = n;
	return *p ? -1 : 0;
}

/* The pair of m whose key is seg, or NULL. */
static const struct smp_pair *
pair_of(const struct smp_node *m, const struct seg *seg)
{
	size_t i;

	for (i = 0; i < m->u.mapping.count; i++) {
		const struct smp_node *k = m->u.mapping.items[i].key;

		if (k->kind == SMP_NODE_SCALAR && k->u.scalar.len == seg->n &&
		    memcmp(k->u.scalar.value, seg->s, seg->n) == 0)
			return &m->u.mapping.items[i];
	}
	return NULL;
}

/* Where a pointer leads: the node, or the deepest mapping on the way and
 * how many segments it consumed. */
struct target {
	const struct smp_node *node;    /* NULL when absent */
	const struct smp_node *mapping; /* its mapping, when absent */
	const struct smp_pair *pair;    /* node's pair in its mapping */
	size_t depth;                   /* segments walked */
};

/* 0, or 1 when the path crosses a list, a scalar or an unknown value. */
static int
walk(const struct smp_node *root, const struct seg *segs, size_t n,
     struct target *t)
{
	const struct smp_node *node = root;
	size_t i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < n; i++) {
		const struct smp_pair *p;

		if (!node || node->kind != SMP_NODE_MAPPING ||
		    smp__node_unknown(node))
			return 1;
		p = pair_of(node, &segs[i]);
		if (!p) {
			t->mapping = node;
			t->depth = i;
			return 0;
		}
		t->pair = p;
		node = p->value;
	}
	t->node = node;
	t->depth = n;
	return node && smp__node_unknown(node);
}

static int
buf_write(void *ud, const char *data, size_t len)
{
	return smp__buf_add(ud, data, len) != 0;
}

static void
add_json_string(struct smp_buf *b, const char *s, size_t n)
{
	struct smp__out o;
	char *z = smp__strndup(b->alloc, s, n);

	if (!z) {
		b->oom = 1;
		return;
	}
	smp__out_init(&o, buf_write, b);
	smp__out_json_string(&o, z);
	smp__out_flush(&o);
	smp__free(b->alloc, z);
}

/* 1 when s reads as the same string written plain in YAML. */
static int
plain_ok(const char *s, size_t n)
{
	static const char *const words[] = {"true", "false", "null", "yes",
					    "no",   "on",    "off",  "y",
					    "n",    "~"};
	size_t i;

	if (n == 0 || !((s[0] >= 'a' && s[0] <= 'z') ||
			(s[0] >= 'A' && s[0] <= 'Z') || s[0] == '_'))
		return 0;
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-' ||
		      c == '.'))
			return 0;
	}
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strlen(words[i]) == n && strncmp(words[i], s, n) == 0)
			return 0;
	return 1;
}

/*
 * A string in YAML, in the style of like (a scalar beside or replaced,
 * or NULL): single quotes stay single quotes, a plain scalar stays plain
 * when the text reads the same plain; else double quotes.
 */
static void
add_yaml_string(struct smp_buf *b, const char *s, size_t n,
		const struct smp_node *like)
{
	size_t i;

	if (like && like->kind == SMP_NODE_SCALAR &&
	    like->u.scalar.style == SMP_STYLE_SINGLE_QUOTED &&
	    !memchr(s, '\n', n)) {
		smp__buf_addc(b, '\'');
		for (i = 0; i < n; i++) {
			if (s[i] == '\'')
				smp__buf_addc(b, '\'');
			smp__buf_addc(b, s[i]);
		}
		smp__buf_addc(b, '\'');
		return;
	}
	if ((!like || (like->kind == SMP_NODE_SCALAR &&
		       like->u.scalar.style == SMP_STYLE_PLAIN)) &&
	    plain_ok(s, n)) {
		smp__buf_add(b, s, n);
		return;
	}
	add_json_string(b, s, n);
}

static void
add_key(struct smp_buf *b, int is_json, const struct seg *k,
	const struct smp_node *like)
{
	if (is_json)
		add_json_string(b, k->s, k->n);
	else
		add_yaml_string(b, k->s, k->n, like);
}

static void
add_value(struct smp_buf *b, int is_json, const struct smp_finding *f,
	  const struct smp_node *like)
{
	const char *v = f->suggestion;

	if (f->suggestion_type != SMP_VALUE_STRING)
		smp__buf_adds(b, v);
	else if (is_json)
		add_json_string(b, v, strlen(v));
	else
		add_yaml_string(b, v, strlen(v), like);
}

/* The line ending used after offset p (or the file's first one). */
static const char *
newline_at(const char *buf, size_t len, size_t p)
{
	const char *nl;

	while (p < len && buf[p] != '\n' && buf[p] != '\r')
		p++;
	if (p < len)
		return buf[p] == '\r' ? "\r\n" : "\n";
	nl = memchr(buf, '\n', len);
	return nl && nl > buf && nl[-1] == '\r' ? "\r\n" : "\n";
}

/* 1 when s[0..n) is only spaces and tabs. */
static int
blank(const char *s, size_t n)
{
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return n == 0;
}

static size_t
line_start(const char *buf, size_t p)
{
	while (p > 0 && buf[p - 1] != '\n' && buf[p - 1] != '\r')
		p--;
	return p;
}

/* segs[from..n) with the value, inline: "a: {b: v}" / "\"a\": {...}". */
static void
add_inline(struct smp_buf *b, int is_json, const struct seg *segs, size_t from,
	   size_t n, const struct smp_finding *f, const struct smp_node *like)
{
	size_t i;

	for (i = from; i < n; i++) {
		add_key(b, is_json, &segs[i], like);
		smp__buf_adds(b, i + 1 < n ? ": {" : ": ");
	}
	add_value(b, is_json, f, like);
	for (i = from; i + 1 < n; i++)
		smp__buf_addc(b, '}');
}

/* The insertion of segs[t->depth..n) into the mapping t->mapping. */
static void
insert(struct smp_buf *b, struct smp_fix_edit *e, const char *buf, size_t len,
       int is_json, const struct target *t, const struct seg *segs, size_t n,
       const struct smp_finding *f)
{
	const struct smp_node *m = t->mapping;
	const struct smp_pair *last;
	const struct smp_node *like;
	size_t p, ls, i, j, width;
	const char *nl;
	int own_line;

	if (!m)
		return;

	if (m->u.mapping.count == 0) {
		/* "{}": the only member, right after the brace */
		if (m->start.offset >= len || buf[m->start.offset] != '{')
			return;
		e->start = e->end = m->start.offset + 1;
		add_inline(b, is_json, segs, t->depth, n, f, NULL);
		return;
	}
	last = &m->u.mapping.items[m->u.mapping.count - 1];
	like = last->key;
	p = last->value->end.offset;
	if (is_json || buf[m->start.offset] == '{') {
		e->start = e->end = p;
		ls = line_start(buf, last->key->start.offset);
		if (last->key->start.line != m->start.line &&
		    blank(buf + ls, last->key->start.offset - ls)) {
			/* one member per line: the next at the same indent */
			smp__buf_addc(b, ',');
			smp__buf_adds(b, newline_at(buf, len, ls));
			smp__buf_add(b, buf + ls, last->key->start.offset - ls);
		} else
			smp__buf_adds(b, ", ");
		add_inline(b, is_json, segs, t->depth, n, f, like);
		return;
	}
	/* a block mapping: lines at its keys' indentation */
	ls = line_start(buf, m->u.mapping.items[0].key->start.offset);
	width = m->u.mapping.items[0].key->start.offset - ls;
	own_line = p > 0 && buf[p - 1] == '\n';
	if (own_line) {
		/* the value ends with its line (a nested block) */
		nl = newline_at(buf, len, p > 1 ? p - 2 : 0);
		e->start = e->end = p;
	} else {
		while (p < len && buf[p] != '\n' && buf[p] != '\r')
			p++;
		nl = newline_at(buf, len, p);
		e->start = e->end = p;
		smp__buf_adds(b, nl);
	}
	for (i = t->depth; i < n; i++) {
		for (j = 0; j < width + 2 * (i - t->depth); j++)
			smp__buf_addc(b, ' ');
		add_key(b, 0, &segs[i], like);
		smp__buf_addc(b, ':');
		if (i + 1 < n)
			smp__buf_adds(b, nl);
	}
	smp__buf_addc(b, ' ');
	add_value(b, 0, f, t->node);
	if (own_line)
		smp__buf_adds(b, nl);
}

/* The rename of the key at from to the last segment of to. */
static int
rename_key(struct smp_buf *b, struct smp_fix_edit *e, struct smp_arena *a,
	   const char *buf, const struct smp_node *root,
	   enum smp_fix_syntax syntax, const struct smp_finding *f)
{
	struct seg from[SEGS_MAX], to[SEGS_MAX];
	size_t nf, nt;
	struct target t, u;
	int rc;

	if (!f->suggestion_from)
		return 1;
	rc = split(a, f->suggestion_from, from, &nf);
	if (rc == 0)
		rc = split(a, f->suggestion_pointer, to, &nt);
	if (rc)
		return rc < 0 ? 1 : rc;
	if (nf == 0 || nf != nt || walk(root, from, nf, &t) || !t.node ||
	    walk(root, to, nt, &u) || u.node)
		return 1;
	e->start = t.pair->key->start.offset;
	e->end = t.pair->key->end.offset;
	if (syntax == SMP_FIX_PYTHON)
		return smp__py_key(b, buf, t.pair->key, to[nt - 1].s,
				   to[nt - 1].n);
	add_key(b, syntax == SMP_FIX_JSON, &to[nt - 1], t.pair->key);
	return 0;
}

/* The set of f's pointer to f's value. */
static int
set_value(struct smp_buf *b, struct smp_fix_edit *e, struct smp_arena *a,
	  const char *buf, size_t len, const struct smp_node *root,
	  enum smp_fix_syntax syntax, const struct smp_finding *f)
{
	int is_json = syntax == SMP_FIX_JSON;
	struct seg segs[SEGS_MAX];
	size_t n;
	struct target t;
	int rc = split(a, f->suggestion_pointer, segs, &n);

	if (rc)
		return rc < 0 ? 1 : rc;
	if (n == 0 || walk(root, segs, n, &t))
		return 1;
	if (!t.node && syntax == SMP_FIX_PYTHON) {
		const char *keys[SEGS_MAX];
		size_t lens[SEGS_MAX], i;

		for (i = t.depth; i < n; i++) {
			keys[i - t.depth] = segs[i].s;
			lens[i - t.depth] = segs[i].n;
		}
		e->end = 0;
		rc = smp__py_insert(b, &e->start, buf, len, t.mapping, keys,
				    lens, n - t.depth, f);
		e->end = e->start;
		return rc;
	}
	if (!t.node) {
		insert(b, e, buf, len, is_json, &t, segs, n, f);
		return b->len ? 0 : 1;
	}
	if (syntax == SMP_FIX_PYTHON) {
		e->start = t.node->start.offset;
		e->end = t.node->end.offset;
		return smp__py_set(b, buf, t.node, f);
	}
	/* a scalar written on one line or several, never a block scalar
	 * (its span holds the line breaks after it) */
	if (t.node->kind != SMP_NODE_SCALAR ||
	    t.node->u.scalar.style == SMP_STYLE_LITERAL ||
	    t.node->u.scalar.style == SMP_STYLE_FOLDED || t.node->tag ||
	    t.node->end.offset <= t.node->start.offset)
		return 1;
	e->start = t.node->start.offset;
	e->end = t.node->end.offset;
	add_value(b, is_json, f, t.node);
	return 0;
}

/* See edit.h. */
int
smp__fix_edit(struct smp_fix_edit *out, struct smp_arena *arena,
	      const char *buf, size_t len, const struct smp_node *root,
	      enum smp_fix_syntax syntax, const struct smp_finding *f)
{
	struct smp_buf b;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!root || !f->suggestion || !f->suggestion_pointer)
		return 1;
	smp__buf_init(&b, arena->alloc, SMP_BUF_NO_MAX);
	if (f->suggestion_op == SMP_SUGGESTION_RENAME)
		rc = rename_key(&b, out, arena, buf, root, syntax, f);
	else if (f->suggestion_op == SMP_SUGGESTION_SET)
		rc = set_value(&b, out, arena, buf, len, root, syntax, f);
	else
		rc = 1;
	if (rc == 0 && smp__buf_error(&b))
		rc = SMP_ENOMEM;
	if (rc == 0 && out->end - out->start == b.len &&
	    memcmp(buf + out->start, b.data ? b.data : "", b.len) == 0)
		rc = 1; /* the text is already what the patch asks for */
	if (rc == 0) {
		out->text =
			smp__arena_strndup(arena, b.data ? b.data : "", b.len);
		out->text_len = b.len;
		if (!out->text)
			rc = SMP_ENOMEM;
	}
	smp__buf_free(&b);
	if (rc)
		memset(out, 0, sizeof(*out));
	return rc;
}
