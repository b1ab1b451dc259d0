/* doc.c - the document list and scalar typing (YAML 1.2 core schema) */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/doc.h"
#include "util/text.h"

void
smp__docs_init(struct smp_docs *docs, const struct smp_allocator *a)
{
	memset(docs, 0, sizeof(*docs));
	smp__arena_init(&docs->arena, a);
}

void
smp__docs_release(struct smp_docs *docs)
{
	smp__free(docs->arena.alloc, docs->items);
	smp__free(docs->arena.alloc, docs->diags);
	smp__arena_release(&docs->arena);
	docs->items = NULL;
	docs->count = docs->cap = 0;
	docs->diags = NULL;
	docs->ndiags = docs->diags_cap = 0;
}

struct smp_doc *
smp__docs_push(struct smp_docs *docs)
{
	void *items = docs->items;
	struct smp_doc *d;

	if (smp__grow(docs->arena.alloc, &items, &docs->cap, docs->count + 1,
		      sizeof(*docs->items)))
		return NULL;
	docs->items = items;
	d = &docs->items[docs->count++];
	memset(d, 0, sizeof(*d));
	return d;
}

struct smp_diag *
smp__docs_diag(struct smp_docs *docs, enum smp_diag_kind kind,
	       const struct smp_pos *start, const struct smp_pos *end,
	       const char *fmt, ...)
{
	void *items = docs->diags;
	struct smp_diag *d;
	char msg[1024]; /* the size a finding's message has */
	va_list ap;

	if (smp__grow(docs->arena.alloc, &items, &docs->diags_cap,
		      docs->ndiags + 1, sizeof(*docs->diags)))
		return NULL;
	docs->diags = items;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	d = &docs->diags[docs->ndiags];
	memset(d, 0, sizeof(*d));
	d->kind = kind;
	d->start = *start;
	if (end)
		d->end = *end;
	d->message = smp__arena_strndup(&docs->arena, msg, strlen(msg));
	if (!d->message)
		return NULL;
	docs->ndiags++;
	return d;
}

void
smp__pointer_seg(char *out, size_t cap, size_t *len, const char *s, size_t n)
{
	size_t k;

	if (*len + 1 >= cap) {
		*len = cap;
		return;
	}
	out[(*len)++] = '/';
	for (k = 0; k < n && *len < cap; k++) {
		const char *esc = s[k] == '~'   ? "~0"
				  : s[k] == '/' ? "~1"
						: NULL;

		if (esc && *len + 2 < cap) {
			out[(*len)++] = esc[0];
			out[(*len)++] = esc[1];
		} else if (!esc && *len + 1 < cap) {
			out[(*len)++] = s[k];
		} else {
			*len = cap;
		}
	}
}

/* How much of a key a message quotes, in bytes of the key. */
#define KEY_QUOTE_MAX 64

/* A key for a message: at most KEY_QUOTE_MAX bytes, whole characters,
 * control characters escaped. */
static void
quote_key(char *out, size_t cap, const struct smp_node *k)
{
	const unsigned char *s = (const unsigned char *)k->u.scalar.value;
	size_t n = k->u.scalar.len, i = 0, o = 0, w;
	long cp;

	while (i < n && o + 8 < cap) {
		if (i >= KEY_QUOTE_MAX) {
			memcpy(out + o, "...", 3);
			o += 3;
			break;
		}
		w = smp__utf8_decode(s + i, n - i, &cp);
		if (s[i] < 0x20 || s[i] == 0x7F) {
			o += (size_t)snprintf(out + o, cap - o, "\\u%04X",
					      s[i]);
		} else {
			memcpy(out + o, s + i, w);
			o += w;
		}
		i += w;
	}
	out[o] = '\0';
}

struct smp_diag *
smp__docs_duplicate_key(struct smp_docs *docs, const struct smp_node *key,
			const struct smp_pos *end, const struct smp_node *first)
{
	char q[KEY_QUOTE_MAX * 6 + 16];

	quote_key(q, sizeof(q), key);
	return smp__docs_diag(docs, SMP_DIAG_DUPLICATE_KEY, &key->start, end,
			      "duplicate key '%s' (first at line %u column "
			      "%u); parsers keep the last value silently",
			      q, (unsigned)first->start.line,
			      (unsigned)first->start.column);
}

static int
is_one_of(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (s[0] == (*list)[0] && strcmp(s, *list) == 0)
			return 1;
	return 0;
}

static const char *const null_words[] = {"null", "Null", "NULL", "~", NULL};
static const char *const true_words[] = {"true", "True", "TRUE", NULL};
static const char *const false_words[] = {"false", "False", "FALSE", NULL};
static const char *const float_words[] = {
	".inf",  ".Inf",  ".INF", "+.inf", "+.Inf", "+.INF", "-.inf",
	"-.Inf", "-.INF", ".nan", ".NaN",  ".NAN",  NULL};

static int
all_digits(const char *s, const char *set)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!strchr(set, *s))
			return 0;
	return 1;
}

/* [-+]?[0-9]+ | 0o[0-7]+ | 0x[0-9a-fA-F]+ */
static int
is_core_int(const char *s)
{
	if (s[0] == '0' && s[1] == 'o')
		return all_digits(s + 2, "01234567");
	if (s[0] == '0' && s[1] == 'x')
		return all_digits(s + 2, "0123456789abcdefABCDEF");
	if (*s == '-' || *s == '+')
		s++;
	if (!*s)
		return 0;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return 0;
	return 1;
}

/* [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)? */
static int
is_core_float(const char *s)
{
	int digits = 0;

	if (*s == '-' || *s == '+')
		s++;
	while (*s >= '0' && *s <= '9')
		s++, digits++;
	if (*s == '.') {
		s++;
		while (*s >= '0' && *s <= '9')
			s++, digits++;
	}
	if (!digits)
		return 0;
	s = smp__exponent_end(s);
	return s && *s == '\0';
}

int
smp__node_unknown(const struct smp_node *n)
{
	return n && n->kind == SMP_NODE_SCALAR && n->tag &&
	       strcmp(n->tag, SMP_TAG_UNKNOWN) == 0;
}

enum smp_scalar_type
smp__scalar_type(const struct smp_node *n)
{
	const char *v = n->u.scalar.value;

	if (n->tag) {
		const char *t = n->tag;

		if (strcmp(t, "tag:yaml.org,2002:int") == 0)
			return SMP_SCALAR_INT;
		if (strcmp(t, "tag:yaml.org,2002:float") == 0)
			return SMP_SCALAR_FLOAT;
		if (strcmp(t, "tag:yaml.org,2002:bool") == 0)
			return SMP_SCALAR_BOOL;
		if (strcmp(t, "tag:yaml.org,2002:null") == 0)
			return SMP_SCALAR_NULL;
		/* any other tag, including the non-specific "!", is a string */
		return SMP_SCALAR_STRING;
	}
	if (n->u.scalar.style != SMP_STYLE_PLAIN)
		return SMP_SCALAR_STRING;
	if (n->u.scalar.len != strlen(v))
		return SMP_SCALAR_STRING;
	/* the common number: no word below starts with a digit */
	if (*v >= '0' && *v <= '9')
		return is_core_int(v)     ? SMP_SCALAR_INT
		       : is_core_float(v) ? SMP_SCALAR_FLOAT
					  : SMP_SCALAR_STRING;
	/* nor does any start with another character than these */
	if (!strchr("nN~tTfF.+-", *v))
		return SMP_SCALAR_STRING;
	if (!*v || is_one_of(v, null_words))
		return SMP_SCALAR_NULL;
	if (is_one_of(v, true_words) || is_one_of(v, false_words))
		return SMP_SCALAR_BOOL;
	if (is_core_int(v))
		return SMP_SCALAR_INT;
	if (is_core_float(v) || is_one_of(v, float_words))
		return SMP_SCALAR_FLOAT;
	return SMP_SCALAR_STRING;
}

const char *
smp__node_type_name(const struct smp_node *n)
{
	if (!n)
		return "nothing";
	switch (n->kind) {
	case SMP_NODE_MAPPING:
		return "a mapping";
	case SMP_NODE_SEQUENCE:
		return n->tag && strcmp(n->tag, SMP_TAG_TUPLE) == 0 ? "a tuple"
								    : "a list";
	case SMP_NODE_SCALAR:
		break;
	}
	switch (smp__scalar_type(n)) {
	case SMP_SCALAR_INT:
		return "an integer";
	case SMP_SCALAR_FLOAT:
		return "a number";
	case SMP_SCALAR_BOOL:
		return "a boolean";
	case SMP_SCALAR_NULL:
		return "null";
	case SMP_SCALAR_STRING:
		break;
	}
	return "a string";
}

const struct smp_pair *
smp__map_pair(const struct smp_node *m, const char *key)
{
	size_t i, n;

	if (!m || m->kind != SMP_NODE_MAPPING)
		return NULL;
	n = strlen(key);
	/* the last one wins, as in YAML parsers; duplicates are findings */
	for (i = m->u.mapping.count; i-- > 0;) {
		const struct smp_node *k = m->u.mapping.items[i].key;

		if (k->kind == SMP_NODE_SCALAR && k->u.scalar.len == n &&
		    (n == 0 || k->u.scalar.value[0] == key[0]) &&
		    memcmp(k->u.scalar.value, key, n) == 0)
			return &m->u.mapping.items[i];
	}
	return NULL;
}

int
smp__node_same(const struct smp_node *a, const struct smp_node *b)
{
	return a == b || (a && b && a->kind == SMP_NODE_MAPPING &&
			  b->kind == SMP_NODE_MAPPING &&
			  a->start.offset == b->start.offset &&
			  a->start.line == b->start.line);
}

const struct smp_node *
smp__map_get(const struct smp_node *m, const char *key)
{
	const struct smp_pair *p = smp__map_pair(m, key);

	return p ? p->value : NULL;
}

const struct smp_node *
smp__map_key(const struct smp_node *m, const char *key)
{
	const struct smp_pair *p = smp__map_pair(m, key);

	return p ? p->key : NULL;
}

int
smp__scalar_is(const struct smp_node *n, const char *s)
{
	return n && n->kind == SMP_NODE_SCALAR &&
	       n->u.scalar.len == strlen(s) &&
	       memcmp(n->u.scalar.value, s, n->u.scalar.len) == 0;
}

int
smp__scalar_bool(const struct smp_node *n)
{
	const char *v;

	if (!n || n->kind != SMP_NODE_SCALAR ||
	    smp__scalar_type(n) != SMP_SCALAR_BOOL)
		return -1;
	v = n->u.scalar.value;
	if (is_one_of(v, true_words) || (n->tag && strcmp(v, "1") == 0))
		return 1;
	if (is_one_of(v, false_words) || (n->tag && strcmp(v, "0") == 0))
		return 0;
	return -1; /* "!!bool yes": a tag that contradicts the text */
}

int
smp__scalar_int(const struct smp_node *n, long long *out)
{
	const char *v;
	char *end;
	long long x;
	int base = 10;

	if (!n || n->kind != SMP_NODE_SCALAR ||
	    smp__scalar_type(n) != SMP_SCALAR_INT)
		return -1;
	v = n->u.scalar.value;
	if (v[0] == '0' && (v[1] == 'o' || v[1] == 'x')) {
		base = v[1] == 'o' ? 8 : 16;
		v += 2;
	} else {
		/* the common case, what strtoll() makes of it: an optional
		 * sign and up to 18 decimal digits cannot overflow */
		const char *d = v + (v[0] == '-' || v[0] == '+');
		size_t k = 0;

		x = 0;
		while (k < 18 && d[k] >= '0' && d[k] <= '9')
			x = x * 10 + (d[k++] - '0');
		if (k > 0 && d[k] == '\0') {
			*out = v[0] == '-' ? -x : x;
			return 0;
		}
	}
	errno = 0;
	x = strtoll(v, &end, base);
	if (errno || *end)
		return -1;
	*out = x;
	return 0;
}

int
smp__scalar_number(const struct smp_node *n, double *out)
{
	long long i;
	const char *v;
	enum smp_scalar_type t;

	if (!n || n->kind != SMP_NODE_SCALAR)
		return -1;
	t = smp__scalar_type(n);
	if (t == SMP_SCALAR_INT) {
		if (smp__scalar_int(n, &i))
			return -1;
		*out = (double)i;
		return 0;
	}
	if (t != SMP_SCALAR_FLOAT)
		return -1;
	v = n->u.scalar.value;
	if (strstr(v, "nan") || strstr(v, "NaN") || strstr(v, "NAN")) {
		*out = NAN;
		return 0;
	}
	if (strstr(v, "inf") || strstr(v, "Inf") || strstr(v, "INF")) {
		*out = v[0] == '-' ? -INFINITY : INFINITY;
		return 0;
	}
	*out = strtod(v, NULL);
	return 0;
}

int
smp__node_number(const struct smp_node *n, double *out)
{
	const char *v;
	char *end;
	double d;

	if (smp__scalar_number(n, out) == 0)
		return 0;
	if (!n || n->kind != SMP_NODE_SCALAR ||
	    smp__scalar_type(n) != SMP_SCALAR_STRING)
		return -1;
	v = n->u.scalar.value;
	if (!*v || n->u.scalar.len != strlen(v) || !is_core_float(v))
		return -1;
	d = strtod(v, &end);
	if (*end)
		return -1;
	*out = d;
	return 0;
}

const struct smp_node *
smp__as_string(const struct smp_node *n)
{
	return n && n->kind == SMP_NODE_SCALAR &&
			       smp__scalar_type(n) == SMP_SCALAR_STRING
		       ? n
		       : NULL;
}

const struct smp_node *
smp__as_mapping(const struct smp_node *n)
{
	return n && n->kind == SMP_NODE_MAPPING ? n : NULL;
}

const char *
smp__node_text(const struct smp_node *n)
{
	if (!n || n->kind != SMP_NODE_SCALAR)
		return NULL;
	return n->u.scalar.value;
}

const struct smp_node *
smp__node_at_pointer(const struct smp_node *root, const char *p, int *unknown)
{
	const struct smp_node *n = root;

	*unknown = smp__node_unknown(n);
	while (n && p && *p == '/' && !*unknown) {
		char seg[256];
		size_t len = 0, k;

		p++;
		while (*p && *p != '/') {
			char c = *p++;

			if (c == '~' && (*p == '0' || *p == '1'))
				c = *p++ == '0' ? '~' : '/';
			if (len + 1 < sizeof(seg))
				seg[len++] = c;
		}
		seg[len] = '\0';
		if (n->kind == SMP_NODE_MAPPING) {
			const struct smp_node *next = NULL;

			for (k = 0; k < n->u.mapping.count; k++)
				if (smp__scalar_is(n->u.mapping.items[k].key,
						   seg))
					next = n->u.mapping.items[k].value;
			n = next;
		} else if (n->kind == SMP_NODE_SEQUENCE) {
			char *end;
			unsigned long ix = strtoul(seg, &end, 10);

			n = *end || ix >= n->u.sequence.count
				    ? NULL
				    : n->u.sequence.items[ix];
		} else {
			n = NULL;
		}
		*unknown = smp__node_unknown(n);
	}
	return n;
}
