/*
 * schema.c - the project's JSON Schemas (draft 2020-12 subset) compiled
 * into an immutable tree and checked against a document's nodes.
 *
 * Why our own checker rather than a JSON Schema library: the findings need
 * positions, project rule ids and friendly wording (did-you-mean, "quote
 * it"), and the check must cost next to nothing next to parsing. The
 * subset is closed: a keyword the checker does not implement is a load
 * error, so a schema cannot say more than the C code checks.
 *
 * Supported: type, properties, additionalProperties, items, enum, const,
 * $ref (local "#..." JSON Pointers, resolved at load, cycles allowed when
 * they pass through properties/items), if/then/else, allOf, anyOf,
 * required, minimum, maximum, exclusiveMinimum, exclusiveMaximum,
 * minLength, maxLength, minItems, maxItems,
 * minProperties, maxProperties, propertyNames, pattern (POSIX ERE, so
 * write [0-9] rather than \d), the annotations, and ours: x-smp-rule (rule
 * of every violation located at that schema), x-smp-message (the wording
 * of those violations; for an object, the tail of an unknown-key message
 * when nothing is close) and x-smp-did-you-mean (key renames).
 *
 * Memory: the schema JSON stays loaded in its document arena, and the
 * compiled nodes are allocated from the same arena; compiled regexes are
 * kept on a list for regfree(). Checking allocates nothing of its own
 * except a scratch buffer to put findings in document order.
 */
#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema/schema.h"
#include "util/alloc.h"
#include "util/arena.h"
#include "doc/load.h"
#include "report/rule_table.h"
#include "util/error.h"
#include "util/text.h"

/* JSON Schema instance types, as bits */
enum {
	T_OBJECT = 1u << 0,
	T_ARRAY = 1u << 1,
	T_STRING = 1u << 2,
	T_INTEGER = 1u << 3,
	T_NUMBER = 1u << 4,
	T_BOOLEAN = 1u << 5,
	T_NULL = 1u << 6
};

/* which value keywords a schema node has */
enum {
	H_TYPE = 1u << 0,
	H_CONST = 1u << 1,
	H_ENUM = 1u << 2,
	H_MINIMUM = 1u << 3,
	H_MAXIMUM = 1u << 4,
	H_MIN_LENGTH = 1u << 5,
	H_MAX_LENGTH = 1u << 6,
	H_PATTERN = 1u << 7,
	H_MIN_ITEMS = 1u << 8,
	H_MAX_ITEMS = 1u << 9,
	H_MIN_PROPS = 1u << 10,
	H_MAX_PROPS = 1u << 11,
	H_REQUIRED = 1u << 12,
	H_RULE = 1u << 13,
	H_EXCL_MIN = 1u << 14,
	H_EXCL_MAX = 1u << 15
};

/* deepest recursion of the check (document descent plus applicators) */
#define CHECK_DEPTH_MAX 1000
/* longest chain of in-place applicators ($ref, allOf, ...) at load */
#define INPLACE_DEPTH_MAX 200
/* an object with at most this many properties lists them when a key is
 * unknown and nothing is close */
#define LIST_KEYS_MAX 8
/* bytes of a document's text quoted in a message */
#define QUOTE_MAX 48

struct snode;

struct sprop {
	const char *name;
	size_t len;
	struct snode *schema;
};

struct sdym {
	const char *from;
	size_t from_len;
	const char *to;
};

struct snode {
	unsigned has;
	unsigned types;
	int is_false; /* the schema `false`: nothing is valid */
	enum smp_rule_id rule;
	const char *title;
	const char *message;
	const struct smp_node *at; /* its JSON, for load errors */

	struct sprop *props; /* sorted by name for bsearch */
	size_t nprops;
	const char **prop_names;  /* declaration order, for did-you-mean */
	struct snode *additional; /* NULL: any additional property */
	struct snode *items;
	struct snode *property_names;
	struct snode *ref;
	const struct smp_node *ref_target; /* until resolved */
	struct snode *if_s, *then_s, *else_s;
	struct snode **all_of;
	size_t nall_of;
	struct snode **any_of;
	size_t nany_of;

	const struct smp_node *const_value;
	const struct smp_node *enum_values; /* a JSON array */
	const char **enum_words;            /* its strings, for did-you-mean */
	size_t nenum_words;
	const struct smp_node *required; /* a JSON array of strings */
	double minimum, maximum, excl_minimum, excl_maximum;
	size_t min_length, max_length, min_items, max_items;
	size_t min_props, max_props;
	regex_t *pattern;
	const char *pattern_src;
	struct sdym *dym;
	size_t ndym;
	const struct smp_node *dym_at;
	/* x-smp-ignored-keys: keys another variant of this object takes and
	 * this one ignores (a JSON array); x-smp-unknown-severity warning:
	 * an unknown key that misspells none of the properties is only
	 * ignored by the consumer (the SDK's **kwargs), not rejected */
	const struct smp_node *ignored_keys;
	int unknown_warning;

	unsigned char mark; /* load-time graph walks only */
};

struct rx {
	struct rx *next;
	regex_t re;
};

struct memo {
	const struct smp_node *json;
	struct snode *sn;
};

struct smp_schema {
	struct smp_allocator alloc;
	struct smp_docs docs; /* the JSON; its arena holds everything */
	struct rx *regexes;
	struct snode *root;
	struct memo *subs; /* root, $defs members and $ref targets */
	size_t nsubs;
	const char **top_keys;
	size_t ntop_keys;
};

/* ------------------------------------------------------------------ */
/* loading                                                            */
/* ------------------------------------------------------------------ */

struct compiler {
	struct smp_schema *s;
	struct smp_arena *arena;
	const char *name;
	struct smp_error *err;
	const struct smp_node *doc;
	struct memo *memo; /* root, $defs members and $ref targets */
	size_t nmemo, cap_memo;
	struct snode **all; /* every node, for the cycle check */
	size_t nall, cap_all;
	struct snode **pending; /* nodes whose $ref is unresolved */
	size_t npending, cap_pending;
	int rc;
};

static void set_error(struct smp_error *err, int code, const char *name,
		      const struct smp_node *at, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static void
set_error(struct smp_error *err, int code, const char *name,
	  const struct smp_node *at, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return;
	memset(err, 0, sizeof(*err));
	err->code = code;
	snprintf(err->source, sizeof(err->source), "%s", name ? name : "");
	if (at) {
		err->line = at->start.line;
		err->column = at->start.column;
		err->offset = at->start.offset;
	}
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
}

static void *
fail_nomem(struct compiler *c)
{
	if (!c->rc) {
		c->rc = SMP_ENOMEM;
		set_error(c->err, SMP_ENOMEM, c->name, NULL, "%s",
			  smp_strerror(SMP_ENOMEM));
	}
	return NULL;
}

static void *fail(struct compiler *c, const struct smp_node *at,
		  const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void *
fail(struct compiler *c, const struct smp_node *at, const char *fmt, ...)
{
	char msg[400];
	va_list ap;

	if (c->rc)
		return NULL;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	c->rc = SMP_EPARSE;
	set_error(c->err, SMP_EPARSE, c->name, at, "%s", msg);
	return NULL;
}

static int
push_ptr(struct compiler *c, void *items, size_t *n, size_t *cap, void *p)
{
	void **arr = *(void ***)items;
	void *tmp = arr;

	if (smp__grow(&c->s->alloc, &tmp, cap, *n + 1, sizeof(void *))) {
		fail_nomem(c);
		return -1;
	}
	arr = tmp;
	arr[(*n)++] = p;
	*(void ***)items = arr;
	return 0;
}

static struct snode *
new_snode(struct compiler *c, const struct smp_node *json)
{
	struct snode *sn = smp__arena_zalloc(c->arena, sizeof(*sn));

	if (!sn)
		return fail_nomem(c);
	sn->at = json;
	if (push_ptr(c, &c->all, &c->nall, &c->cap_all, sn))
		return NULL;
	return sn;
}

static int
text_is(const struct smp_node *n, const char *s)
{
	return n->kind == SMP_NODE_SCALAR && smp__scalar_is(n, s);
}

static int
is_string(const struct smp_node *n)
{
	/* every JSON string is double-quoted: skip the core-schema typing */
	return n->kind == SMP_NODE_SCALAR &&
	       ((!n->tag && n->u.scalar.style == SMP_STYLE_DOUBLE_QUOTED) ||
		smp__scalar_type(n) == SMP_SCALAR_STRING);
}

/* A non-negative integer keyword value. */
static int
get_count(struct compiler *c, const struct smp_node *key,
	  const struct smp_node *v, size_t *out)
{
	long long x;

	if (smp__scalar_int(v, &x) || x < 0) {
		fail(c, v, "'%s' must be a non-negative integer",
		     key->u.scalar.value);
		return -1;
	}
	*out = (size_t)x;
	return 0;
}

static int
get_number(struct compiler *c, const struct smp_node *key,
	   const struct smp_node *v, double *out)
{
	if (smp__scalar_number(v, out) || isnan(*out)) {
		fail(c, v, "'%s' must be a number", key->u.scalar.value);
		return -1;
	}
	return 0;
}

static const struct {
	const char *name;
	unsigned bit;
} type_names[] = {
	{"object", T_OBJECT},   {"array", T_ARRAY},   {"string", T_STRING},
	{"integer", T_INTEGER}, {"number", T_NUMBER}, {"boolean", T_BOOLEAN},
	{"null", T_NULL},
};

static int
type_bit(const struct smp_node *v, unsigned *bit)
{
	size_t i;

	if (!is_string(v))
		return -1;
	for (i = 0; i < sizeof(type_names) / sizeof(type_names[0]); i++) {
		if (text_is(v, type_names[i].name)) {
			*bit = type_names[i].bit;
			return 0;
		}
	}
	return -1;
}

static int
compile_type(struct compiler *c, struct snode *sn, const struct smp_node *v)
{
	unsigned bit;
	size_t i;

	if (v->kind == SMP_NODE_SEQUENCE && v->u.sequence.count) {
		for (i = 0; i < v->u.sequence.count; i++) {
			if (type_bit(v->u.sequence.items[i], &bit) ||
			    (sn->types & bit)) {
				fail(c, v->u.sequence.items[i],
				     "'type' lists an unknown or repeated "
				     "type");
				return -1;
			}
			sn->types |= bit;
		}
	} else if (type_bit(v, &bit) == 0) {
		sn->types = bit;
	} else {
		fail(c, v, "'type' must name a JSON type or list them");
		return -1;
	}
	sn->has |= H_TYPE;
	return 0;
}

static struct snode *compile(struct compiler *c, const struct smp_node *json,
			     unsigned depth);

/* A schema registered so that $ref can find it. */
static struct snode *
compile_memo(struct compiler *c, const struct smp_node *json, unsigned depth)
{
	struct snode *sn;
	struct memo *m;
	void *tmp;
	size_t i;

	for (i = 0; i < c->nmemo; i++)
		if (c->memo[i].json == json)
			return c->memo[i].sn;
	/* $ref is resolved after compiling, so no entry is needed before */
	sn = compile(c, json, depth);
	if (!sn)
		return NULL;
	tmp = c->memo; /* compile() may have grown it */
	if (smp__grow(&c->s->alloc, &tmp, &c->cap_memo, c->nmemo + 1,
		      sizeof(*c->memo)))
		return fail_nomem(c);
	c->memo = tmp;
	m = &c->memo[c->nmemo++];
	m->json = json;
	m->sn = sn;
	return sn;
}

static int
cmp_prop(const void *pa, const void *pb)
{
	const struct sprop *a = pa, *b = pb;
	size_t n = a->len < b->len ? a->len : b->len;
	int r = memcmp(a->name, b->name, n);

	if (r)
		return r;
	return a->len < b->len ? -1 : a->len > b->len;
}

static int
compile_properties(struct compiler *c, struct snode *sn,
		   const struct smp_node *v, unsigned depth)
{
	size_t i, n;

	if (v->kind != SMP_NODE_MAPPING) {
		fail(c, v, "'properties' must be an object");
		return -1;
	}
	n = v->u.mapping.count;
	sn->props =
		smp__arena_zalloc(c->arena, (n ? n : 1) * sizeof(*sn->props));
	sn->prop_names =
		smp__arena_zalloc(c->arena, (n ? n : 1) * sizeof(char *));
	if (!sn->props || !sn->prop_names) {
		fail_nomem(c);
		return -1;
	}
	for (i = 0; i < n; i++) {
		const struct smp_pair *p = &v->u.mapping.items[i];

		sn->props[i].name = p->key->u.scalar.value;
		sn->props[i].len = p->key->u.scalar.len;
		sn->prop_names[i] = p->key->u.scalar.value;
		sn->props[i].schema = compile(c, p->value, depth + 1);
		if (!sn->props[i].schema)
			return -1;
	}
	sn->nprops = n;
	qsort(sn->props, n, sizeof(*sn->props), cmp_prop);
	return 0;
}

static int
compile_list(struct compiler *c, const struct smp_node *key,
	     const struct smp_node *v, struct snode ***out, size_t *count,
	     unsigned depth)
{
	size_t i, n;

	if (v->kind != SMP_NODE_SEQUENCE || v->u.sequence.count == 0) {
		fail(c, v, "'%s' must be a non-empty array of schemas",
		     key->u.scalar.value);
		return -1;
	}
	n = v->u.sequence.count;
	*out = smp__arena_zalloc(c->arena, n * sizeof(struct snode *));
	if (!*out) {
		fail_nomem(c);
		return -1;
	}
	for (i = 0; i < n; i++) {
		(*out)[i] = compile(c, v->u.sequence.items[i], depth + 1);
		if (!(*out)[i])
			return -1;
	}
	*count = n;
	return 0;
}

static int
compile_enum(struct compiler *c, struct snode *sn, const struct smp_node *v)
{
	size_t i, n;

	if (v->kind != SMP_NODE_SEQUENCE || v->u.sequence.count == 0) {
		fail(c, v, "'enum' must be a non-empty array");
		return -1;
	}
	n = v->u.sequence.count;
	sn->enum_words = smp__arena_zalloc(c->arena, n * sizeof(char *));
	if (!sn->enum_words) {
		fail_nomem(c);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (is_string(v->u.sequence.items[i]))
			sn->enum_words[sn->nenum_words++] =
				v->u.sequence.items[i]->u.scalar.value;
	sn->enum_values = v;
	sn->has |= H_ENUM;
	return 0;
}

static int
compile_pattern(struct compiler *c, struct snode *sn, const struct smp_node *v)
{
	struct rx *rx;
	int rc;

	if (!is_string(v) || strlen(v->u.scalar.value) != v->u.scalar.len) {
		fail(c, v, "'pattern' must be a string");
		return -1;
	}
	rx = smp__arena_alloc(c->arena, sizeof(*rx));
	if (!rx) {
		fail_nomem(c);
		return -1;
	}
	rc = regcomp(&rx->re, v->u.scalar.value, REG_EXTENDED | REG_NOSUB);
	if (rc == REG_ESPACE) {
		fail_nomem(c);
		return -1;
	}
	if (rc) {
		char why[128];

		regerror(rc, &rx->re, why, sizeof(why));
		fail(c, v, "'pattern' is not a POSIX extended regex: %s", why);
		return -1;
	}
	rx->next = c->s->regexes;
	c->s->regexes = rx;
	sn->pattern = &rx->re;
	sn->pattern_src = v->u.scalar.value;
	sn->has |= H_PATTERN;
	return 0;
}

static int
compile_ignored(struct compiler *c, struct snode *sn, const struct smp_node *v)
{
	size_t i;

	if (v->kind != SMP_NODE_SEQUENCE) {
		fail(c, v, "'x-smp-ignored-keys' must be an array of strings");
		return -1;
	}
	for (i = 0; i < v->u.sequence.count; i++) {
		if (!is_string(v->u.sequence.items[i])) {
			fail(c, v->u.sequence.items[i],
			     "'x-smp-ignored-keys' must be an array of "
			     "strings");
			return -1;
		}
	}
	sn->ignored_keys = v;
	return 0;
}

/* 1 when key is one of sn's x-smp-ignored-keys. */
static int
is_ignored_key(const struct snode *sn, const struct smp_node *key)
{
	const struct smp_node *v = sn->ignored_keys;
	size_t i;

	for (i = 0; v && i < v->u.sequence.count; i++) {
		const struct smp_node *e = v->u.sequence.items[i];

		if (e->u.scalar.len == key->u.scalar.len &&
		    memcmp(e->u.scalar.value, key->u.scalar.value,
			   key->u.scalar.len) == 0)
			return 1;
	}
	return 0;
}

static int
compile_dym(struct compiler *c, struct snode *sn, const struct smp_node *v)
{
	size_t i, n;

	if (v->kind != SMP_NODE_MAPPING) {
		fail(c, v, "'x-smp-did-you-mean' must be an object of strings");
		return -1;
	}
	n = v->u.mapping.count;
	sn->dym = smp__arena_zalloc(c->arena, (n ? n : 1) * sizeof(*sn->dym));
	if (!sn->dym) {
		fail_nomem(c);
		return -1;
	}
	for (i = 0; i < n; i++) {
		const struct smp_pair *p = &v->u.mapping.items[i];

		if (!is_string(p->value)) {
			fail(c, p->value,
			     "'x-smp-did-you-mean' values must be strings");
			return -1;
		}
		sn->dym[i].from = p->key->u.scalar.value;
		sn->dym[i].from_len = p->key->u.scalar.len;
		sn->dym[i].to = p->value->u.scalar.value;
	}
	sn->ndym = n;
	sn->dym_at = v;
	return 0;
}

static const struct sprop *
find_prop(const struct snode *sn, const char *name, size_t len)
{
	struct sprop key;

	if (!sn->nprops)
		return NULL;
	key.name = name;
	key.len = len;
	key.schema = NULL;
	return bsearch(&key, sn->props, sn->nprops, sizeof(*sn->props),
		       cmp_prop);
}

/* every keyword the checker knows; annotations are ignored */
enum kw {
	KW_ANNOTATION,
	KW_TITLE,
	KW_DEFS,
	KW_TYPE,
	KW_PROPERTIES,
	KW_ADDITIONAL,
	KW_PROPERTY_NAMES,
	KW_ITEMS,
	KW_IF,
	KW_THEN,
	KW_ELSE,
	KW_ALL_OF,
	KW_ANY_OF,
	KW_REF,
	KW_ENUM,
	KW_CONST,
	KW_REQUIRED,
	KW_PATTERN,
	KW_MINIMUM,
	KW_MAXIMUM,
	KW_EXCL_MIN,
	KW_EXCL_MAX,
	KW_MIN_LENGTH,
	KW_MAX_LENGTH,
	KW_MIN_ITEMS,
	KW_MAX_ITEMS,
	KW_MIN_PROPS,
	KW_MAX_PROPS,
	KW_RULE,
	KW_MESSAGE,
	KW_DID_YOU_MEAN,
	KW_IGNORED_KEYS,
	KW_UNKNOWN_SEVERITY
};

/* sorted by strcmp for bsearch */
static const struct keyword {
	const char *name;
	enum kw kw;
} keywords[] = {
	{"$comment", KW_ANNOTATION},
	{"$defs", KW_DEFS},
	{"$id", KW_ANNOTATION},
	{"$ref", KW_REF},
	{"$schema", KW_ANNOTATION},
	{"additionalProperties", KW_ADDITIONAL},
	{"allOf", KW_ALL_OF},
	{"anyOf", KW_ANY_OF},
	{"const", KW_CONST},
	{"default", KW_ANNOTATION},
	{"deprecated", KW_ANNOTATION},
	{"description", KW_ANNOTATION},
	{"else", KW_ELSE},
	{"enum", KW_ENUM},
	{"examples", KW_ANNOTATION},
	{"exclusiveMaximum", KW_EXCL_MAX},
	{"exclusiveMinimum", KW_EXCL_MIN},
	{"if", KW_IF},
	{"items", KW_ITEMS},
	{"markdownDescription", KW_ANNOTATION},
	{"maxItems", KW_MAX_ITEMS},
	{"maxLength", KW_MAX_LENGTH},
	{"maxProperties", KW_MAX_PROPS},
	{"maximum", KW_MAXIMUM},
	{"minItems", KW_MIN_ITEMS},
	{"minLength", KW_MIN_LENGTH},
	{"minProperties", KW_MIN_PROPS},
	{"minimum", KW_MINIMUM},
	{"pattern", KW_PATTERN},
	{"properties", KW_PROPERTIES},
	{"propertyNames", KW_PROPERTY_NAMES},
	{"required", KW_REQUIRED},
	{"then", KW_THEN},
	{"title", KW_TITLE},
	{"type", KW_TYPE},
	{"x-smp-did-you-mean", KW_DID_YOU_MEAN},
	{"x-smp-ignored-keys", KW_IGNORED_KEYS},
	{"x-smp-message", KW_MESSAGE},
	{"x-smp-rule", KW_RULE},
	{"x-smp-unknown-severity", KW_UNKNOWN_SEVERITY},
};

static int
cmp_keyword(const void *key, const void *elem)
{
	return strcmp(key, ((const struct keyword *)elem)->name);
}

static int
compile_required(struct compiler *c, struct snode *sn, const struct smp_node *v)
{
	size_t i;

	if (v->kind != SMP_NODE_SEQUENCE)
		return fail(c, v, "'required' must be an array"), -1;
	for (i = 0; i < v->u.sequence.count; i++)
		if (!is_string(v->u.sequence.items[i]))
			return fail(c, v->u.sequence.items[i],
				    "'required' must list strings"),
			       -1;
	sn->required = v;
	sn->has |= H_REQUIRED;
	return 0;
}

static int
compile_defs(struct compiler *c, const struct smp_node *v, unsigned depth)
{
	size_t i;

	if (v->kind != SMP_NODE_MAPPING)
		return fail(c, v, "'$defs' must be an object"), -1;
	for (i = 0; i < v->u.mapping.count; i++)
		if (!compile_memo(c, v->u.mapping.items[i].value, depth + 1))
			return -1;
	return 0;
}

/* A string-valued keyword: the text, or NULL after reporting. */
static const char *
string_of(struct compiler *c, const struct smp_node *k,
	  const struct smp_node *v)
{
	if (!is_string(v))
		return fail(c, v, "'%s' must be a string", k->u.scalar.value);
	return v->u.scalar.value;
}

static int
compile_keyword(struct compiler *c, struct snode *sn, const struct smp_node *k,
		const struct smp_node *v, unsigned depth)
{
	const struct keyword *kw = NULL;

	if (strlen(k->u.scalar.value) == k->u.scalar.len)
		kw = bsearch(k->u.scalar.value, keywords,
			     sizeof(keywords) / sizeof(keywords[0]),
			     sizeof(keywords[0]), cmp_keyword);
	if (!kw) {
		fail(c, k, "unsupported keyword '%.64s'", k->u.scalar.value);
		return -1;
	}
	switch (kw->kw) {
	case KW_ANNOTATION:
		return 0;
	case KW_TITLE:
		return (sn->title = string_of(c, k, v)) ? 0 : -1;
	case KW_MESSAGE:
		return (sn->message = string_of(c, k, v)) ? 0 : -1;
	case KW_DEFS:
		return compile_defs(c, v, depth);
	case KW_TYPE:
		return compile_type(c, sn, v);
	case KW_PROPERTIES:
		return compile_properties(c, sn, v, depth);
	case KW_ADDITIONAL:
		return (sn->additional = compile(c, v, depth + 1)) ? 0 : -1;
	case KW_PROPERTY_NAMES:
		return (sn->property_names = compile(c, v, depth + 1)) ? 0 : -1;
	case KW_ITEMS:
		if (v->kind == SMP_NODE_SEQUENCE)
			return fail(c, v,
				    "'items' must be one schema (draft "
				    "2020-12; 'prefixItems' is not "
				    "supported)"),
			       -1;
		return (sn->items = compile(c, v, depth + 1)) ? 0 : -1;
	case KW_IF:
		return (sn->if_s = compile(c, v, depth + 1)) ? 0 : -1;
	case KW_THEN:
		return (sn->then_s = compile(c, v, depth + 1)) ? 0 : -1;
	case KW_ELSE:
		return (sn->else_s = compile(c, v, depth + 1)) ? 0 : -1;
	case KW_ALL_OF:
		return compile_list(c, k, v, &sn->all_of, &sn->nall_of, depth);
	case KW_ANY_OF:
		return compile_list(c, k, v, &sn->any_of, &sn->nany_of, depth);
	case KW_REF:
		if (!is_string(v) || v->u.scalar.value[0] != '#')
			return fail(c, v,
				    "'$ref' must be a local reference "
				    "starting with '#'"),
			       -1;
		sn->ref_target = v;
		return push_ptr(c, &c->pending, &c->npending, &c->cap_pending,
				sn);
	case KW_ENUM:
		return compile_enum(c, sn, v);
	case KW_CONST:
		sn->const_value = v;
		sn->has |= H_CONST;
		return 0;
	case KW_REQUIRED:
		return compile_required(c, sn, v);
	case KW_PATTERN:
		return compile_pattern(c, sn, v);
	case KW_MINIMUM:
		sn->has |= H_MINIMUM;
		return get_number(c, k, v, &sn->minimum);
	case KW_MAXIMUM:
		sn->has |= H_MAXIMUM;
		return get_number(c, k, v, &sn->maximum);
	case KW_EXCL_MIN:
		sn->has |= H_EXCL_MIN;
		return get_number(c, k, v, &sn->excl_minimum);
	case KW_EXCL_MAX:
		sn->has |= H_EXCL_MAX;
		return get_number(c, k, v, &sn->excl_maximum);
	case KW_MIN_LENGTH:
		sn->has |= H_MIN_LENGTH;
		return get_count(c, k, v, &sn->min_length);
	case KW_MAX_LENGTH:
		sn->has |= H_MAX_LENGTH;
		return get_count(c, k, v, &sn->max_length);
	case KW_MIN_ITEMS:
		sn->has |= H_MIN_ITEMS;
		return get_count(c, k, v, &sn->min_items);
	case KW_MAX_ITEMS:
		sn->has |= H_MAX_ITEMS;
		return get_count(c, k, v, &sn->max_items);
	case KW_MIN_PROPS:
		sn->has |= H_MIN_PROPS;
		return get_count(c, k, v, &sn->min_props);
	case KW_MAX_PROPS:
		sn->has |= H_MAX_PROPS;
		return get_count(c, k, v, &sn->max_props);
	case KW_RULE:
		if (!is_string(v) ||
		    smp__rule_lookup(&sn->rule, v->u.scalar.value))
			return fail(c, v, "'x-smp-rule' names no rule"), -1;
		sn->has |= H_RULE;
		return 0;
	case KW_DID_YOU_MEAN:
		return compile_dym(c, sn, v);
	case KW_IGNORED_KEYS:
		return compile_ignored(c, sn, v);
	case KW_UNKNOWN_SEVERITY:
		if (!is_string(v) || strcmp(v->u.scalar.value, "warning") != 0)
			return fail(c, v,
				    "'x-smp-unknown-severity' must be "
				    "\"warning\""),
			       -1;
		sn->unknown_warning = 1;
		return 0;
	}
	return -1;
}

static struct snode *
compile(struct compiler *c, const struct smp_node *json, unsigned depth)
{
	struct snode *sn;
	size_t i;

	if (depth > INPLACE_DEPTH_MAX)
		return fail(c, json, "schema nested too deeply");
	if (json->kind == SMP_NODE_SCALAR &&
	    smp__scalar_type(json) == SMP_SCALAR_BOOL) {
		sn = new_snode(c, json);
		if (sn)
			sn->is_false = !smp__scalar_bool(json);
		return sn;
	}
	if (json->kind != SMP_NODE_MAPPING)
		return fail(c, json, "a schema must be an object or a boolean");
	sn = new_snode(c, json);
	if (!sn)
		return NULL;
	for (i = 0; i < json->u.mapping.count; i++) {
		const struct smp_pair *p = &json->u.mapping.items[i];

		if (compile_keyword(c, sn, p->key, p->value, depth))
			return NULL;
	}
	/* renames must lead to a key the schema has */
	for (i = 0; i < sn->ndym; i++)
		if (!find_prop(sn, sn->dym[i].to, strlen(sn->dym[i].to)))
			return fail(c, sn->dym_at,
				    "'x-smp-did-you-mean' maps '%.64s' to "
				    "'%.64s', which is not a property",
				    sn->dym[i].from, sn->dym[i].to);
	return sn;
}

/* Resolves "#/a/b~1c/0" in the schema document; NULL when absent. */
static const struct smp_node *
resolve_pointer(const struct smp_node *root, const char *ref)
{
	const struct smp_node *cur = root;
	const char *p = ref + 1;
	char seg[256];

	while (*p) {
		size_t n = 0, i;
		int found = 0;

		if (*p != '/')
			return NULL;
		p++;
		while (*p && *p != '/') {
			char ch = *p++;

			if (ch == '~') {
				if (*p != '0' && *p != '1')
					return NULL;
				ch = *p++ == '0' ? '~' : '/';
			}
			if (n + 1 >= sizeof(seg))
				return NULL;
			seg[n++] = ch;
		}
		seg[n] = '\0';
		if (cur->kind == SMP_NODE_MAPPING) {
			for (i = 0; i < cur->u.mapping.count && !found; i++) {
				const struct smp_node *k =
					cur->u.mapping.items[i].key;

				if (k->u.scalar.len == n &&
				    memcmp(k->u.scalar.value, seg, n) == 0) {
					cur = cur->u.mapping.items[i].value;
					found = 1;
				}
			}
		} else if (cur->kind == SMP_NODE_SEQUENCE) {
			char *end;
			unsigned long idx = strtoul(seg, &end, 10);

			if (n && *end == '\0' && seg[0] != '-' &&
			    idx < cur->u.sequence.count) {
				cur = cur->u.sequence.items[idx];
				found = 1;
			}
		}
		if (!found)
			return NULL;
	}
	return cur;
}

static int
resolve_refs(struct compiler *c)
{
	while (c->npending) {
		struct snode *sn = c->pending[--c->npending];
		const struct smp_node *target =
			resolve_pointer(c->doc, sn->ref_target->u.scalar.value);

		if (!target) {
			fail(c, sn->ref_target,
			     "'$ref' %.200s does not resolve",
			     sn->ref_target->u.scalar.value);
			return -1;
		}
		sn->ref = compile_memo(c, target, 0);
		if (!sn->ref)
			return -1;
	}
	return 0;
}

enum { MARK_ACTIVE = 1, MARK_DONE = 2, MARK_TOP = 4 };

/*
 * A cycle of in-place applicators ($ref, allOf, anyOf, if/then/else) would
 * make the check loop on one node without descending: refuse it. Cycles
 * through properties and items are fine (they consume the document).
 */
static int
inplace_cycle(struct compiler *c, struct snode *sn, unsigned depth)
{
	struct snode *next[5];
	size_t i, n = 0;

	if (sn->mark & MARK_DONE)
		return 0;
	if (sn->mark & MARK_ACTIVE) {
		fail(c, sn->at,
		     "'$ref' cycle that never descends into the "
		     "document");
		return -1;
	}
	if (depth > INPLACE_DEPTH_MAX) {
		fail(c, sn->at, "chain of '$ref' and applicators too long");
		return -1;
	}
	sn->mark |= MARK_ACTIVE;
	next[n++] = sn->ref;
	next[n++] = sn->if_s;
	next[n++] = sn->then_s;
	next[n++] = sn->else_s;
	for (i = 0; i < n; i++)
		if (next[i] && inplace_cycle(c, next[i], depth + 1))
			return -1;
	for (i = 0; i < sn->nall_of; i++)
		if (inplace_cycle(c, sn->all_of[i], depth + 1))
			return -1;
	for (i = 0; i < sn->nany_of; i++)
		if (inplace_cycle(c, sn->any_of[i], depth + 1))
			return -1;
	sn->mark = (unsigned char)((sn->mark & ~MARK_ACTIVE) | MARK_DONE);
	return 0;
}

/*
 * Property names allowed at the root: the root's and its branches', with
 * repeats (finish() sorts them and drops the repeats).
 */
static int
collect_top_keys(struct compiler *c, struct snode *sn, const char ***keys,
		 size_t *n, size_t *cap)
{
	void *tmp = *keys;
	size_t i;

	if (!sn || (sn->mark & MARK_TOP))
		return 0;
	sn->mark |= MARK_TOP;
	if (sn->nprops) {
		if (smp__grow(&c->s->alloc, &tmp, cap, *n + sn->nprops,
			      sizeof(char *))) {
			fail_nomem(c);
			return -1;
		}
		*keys = tmp;
		memcpy(*keys + *n, sn->prop_names, sn->nprops * sizeof(char *));
		*n += sn->nprops;
	}
	if (collect_top_keys(c, sn->ref, keys, n, cap) ||
	    collect_top_keys(c, sn->then_s, keys, n, cap) ||
	    collect_top_keys(c, sn->else_s, keys, n, cap))
		return -1;
	for (i = 0; i < sn->nall_of; i++)
		if (collect_top_keys(c, sn->all_of[i], keys, n, cap))
			return -1;
	for (i = 0; i < sn->nany_of; i++)
		if (collect_top_keys(c, sn->any_of[i], keys, n, cap))
			return -1;
	return 0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int
finish(struct compiler *c)
{
	const char **keys = NULL;
	size_t i, n = 0, cap = 0;

	for (i = 0; i < c->nall; i++)
		if (inplace_cycle(c, c->all[i], 0))
			return -1;
	if (collect_top_keys(c, c->s->root, &keys, &n, &cap)) {
		smp__free(&c->s->alloc, keys);
		return -1;
	}
	if (n > 1) {
		size_t j = 0;

		qsort(keys, n, sizeof(*keys), cmp_str);
		for (i = 1; i < n; i++)
			if (strcmp(keys[j], keys[i]) != 0)
				keys[++j] = keys[i];
		n = j + 1;
	}
	/* copy into the arena so that the schema frees with one release */
	c->s->top_keys =
		smp__arena_zalloc(c->arena, (n ? n : 1) * sizeof(*keys));
	if (!c->s->top_keys) {
		smp__free(&c->s->alloc, keys);
		fail_nomem(c);
		return -1;
	}
	if (n)
		memcpy(c->s->top_keys, keys, n * sizeof(*keys));
	c->s->ntop_keys = n;
	smp__free(&c->s->alloc, keys);
	/* the registered schemas, for smp__schema_validate()'s pointer */
	c->s->subs = smp__arena_alloc(c->arena, c->nmemo * sizeof(*c->memo));
	if (!c->s->subs) {
		fail_nomem(c);
		return -1;
	}
	memcpy(c->s->subs, c->memo, c->nmemo * sizeof(*c->memo));
	c->s->nsubs = c->nmemo;
	return 0;
}

/* Parses the schema text with the project's JSON loader. */
static int
parse_json(struct smp_schema *s, const char *name, const char *buf, size_t len,
	   struct smp_error *err)
{
	int rc;

	rc = smp__load_strict(&s->docs, name, buf, len, 1, err);
	if (rc == 0 && (s->docs.count != 1 || !s->docs.items[0].root))
		rc = smp__error_set(err, SMP_EPARSE, name, NULL,
				    "no JSON document");
	return rc;
}

/*
 * Loads and compiles a schema (see schema.h). Every failure frees what was
 * built, including compiled regexes.
 */
int
smp__schema_load(struct smp_schema **out, const struct smp_allocator *a,
		 const char *name, const char *buf, size_t len,
		 struct smp_error *err)
{
	struct smp_schema *s;
	struct compiler c;
	int rc;

	*out = NULL;
	if (!name)
		name = "schema";
	s = smp__calloc(a, 1, sizeof(*s));
	if (!s) {
		set_error(err, SMP_ENOMEM, name, NULL, "%s",
			  smp_strerror(SMP_ENOMEM));
		return SMP_ENOMEM;
	}
	s->alloc = *a;
	smp__docs_init(&s->docs, &s->alloc);
	rc = parse_json(s, name, buf, len, err);
	if (rc) {
		smp__schema_free(s);
		return rc;
	}
	memset(&c, 0, sizeof(c));
	c.s = s;
	c.arena = &s->docs.arena;
	c.name = name;
	c.err = err;
	c.doc = s->docs.items[0].root;
	s->root = compile_memo(&c, c.doc, 0);
	if (s->root && resolve_refs(&c) == 0)
		finish(&c);
	smp__free(&s->alloc, c.memo);
	smp__free(&s->alloc, c.all);
	smp__free(&s->alloc, c.pending);
	if (c.rc) {
		smp__schema_free(s);
		return c.rc;
	}
	*out = s;
	return 0;
}

/* Frees a schema from smp__schema_load; NULL is a no-op. */
void
smp__schema_free(struct smp_schema *s)
{
	struct rx *rx;

	if (!s)
		return;
	for (rx = s->regexes; rx; rx = rx->next)
		regfree(&rx->re);
	smp__docs_release(&s->docs);
	smp__free(&s->alloc, s);
}

/* The root's allowed keys, for dialect detection (borrowed). */
const char *const *
smp__schema_top_keys(const struct smp_schema *s, size_t *count)
{
	*count = s ? s->ntop_keys : 0;
	return s ? s->top_keys : NULL;
}

/* ------------------------------------------------------------------ */
/* checking                                                           */
/* ------------------------------------------------------------------ */

/* where a node sits in the document, for messages: a linked path */
struct seg {
	const struct seg *up;
	const struct smp_node *key; /* NULL: index */
	size_t index;
};

struct walk {
	struct smp_report *rep; /* NULL: validating into err */
	struct smp_error *err; /* smp__schema_validate(): the first violation */
	const char *name;      /* ... and the document's name */
	int found;             /* err holds a violation */
	int json; /* the spec was JSON: wording of the quoting hint */
	unsigned depth;
};

/*
 * One violation at n: a finding in the report, or, when validating, the
 * earliest violation in document order kept in err (the check does not
 * go in document order: if/then/else runs after the properties).
 */
static struct smp_finding *
violation(struct walk *w, enum smp_rule_id rule, const struct smp_node *n,
	  const char *msg)
{
	if (w->rep)
		return smp__report_node(w->rep, rule, n, "%s", msg);
	if (!w->found || n->start.line < w->err->line ||
	    (n->start.line == w->err->line && n->start.column < w->err->column))
		smp__error_set(w->err, SMP_EPARSE, w->name, &n->start, "%s",
			       msg);
	w->found = 1;
	return NULL;
}

/* a message being built, silently truncated */
struct sbuf {
	char s[900];
	size_t len;
};

static void
sb_add(struct sbuf *b, const char *s, size_t n)
{
	size_t room = sizeof(b->s) - 1 - b->len;

	if (n > room)
		n = room;
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void
sb_str(struct sbuf *b, const char *s)
{
	sb_add(b, s, strlen(s));
}

static void sb_fmt(struct sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
sb_fmt(struct sbuf *b, const char *fmt, ...)
{
	size_t room = sizeof(b->s) - b->len;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b->s + b->len, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->len += (size_t)n < room ? (size_t)n : room - 1;
}

/* Document text for a message: control bytes escaped, long text cut. */
static void
sb_text(struct sbuf *b, const char *s, size_t n, size_t max)
{
	size_t i, cut = n;

	if (n > max) {
		cut = max;
		while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80)
			cut--;
	}
	for (i = 0; i < cut; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch == '\n')
			sb_str(b, "\\n");
		else if (ch == '\t')
			sb_str(b, "\\t");
		else if (ch == '"' || ch == '\\')
			sb_fmt(b, "\\%c", ch);
		else if (ch < 0x20 || ch == 0x7F)
			sb_fmt(b, "\\x%02X", ch);
		else
			sb_add(b, s + i, 1);
	}
	if (cut < n)
		sb_str(b, "...");
}

static void
sb_path(struct sbuf *b, const struct seg *p)
{
	const struct seg *chain[32] = {NULL};
	size_t n = 0;
	int first = 1;

	for (; p && n < sizeof(chain) / sizeof(chain[0]); p = p->up)
		chain[n++] = p;
	if (p)
		sb_str(b, "...");
	while (n-- > 0) {
		const struct seg *s = chain[n];

		if (!s->key) {
			sb_fmt(b, "[%zu]", s->index);
			first = 0;
			continue;
		}
		if (!first)
			sb_str(b, ".");
		first = 0;
		if (s->key->kind == SMP_NODE_SCALAR)
			sb_text(b, s->key->u.scalar.value, s->key->u.scalar.len,
				QUOTE_MAX);
		else
			sb_str(b, "?");
	}
}

/* "'distribution.pytorchxla'" or "the document" */
static void
sb_subject(struct sbuf *b, const struct seg *p)
{
	if (!p) {
		sb_str(b, "the document");
		return;
	}
	sb_str(b, "'");
	sb_path(b, p);
	sb_str(b, "'");
}

static unsigned
node_type(const struct smp_node *n)
{
	long long x;
	double d;

	switch (n->kind) {
	case SMP_NODE_MAPPING:
		return T_OBJECT;
	case SMP_NODE_SEQUENCE:
		return T_ARRAY;
	case SMP_NODE_SCALAR:
		break;
	}
	/* hot path: untagged text that is quoted, or that starts like no
	 * null, boolean or number of the core schema, is a string */
	if (!n->tag && (n->u.scalar.style != SMP_STYLE_PLAIN ||
			(n->u.scalar.len && !strchr("~nNtTfF.+-0123456789",
						    n->u.scalar.value[0]))))
		return T_STRING;
	switch (smp__scalar_type(n)) {
	case SMP_SCALAR_INT:
		/* an integer that overflows, or text tagged !!int that is no
		 * integer ("!!int banana"), matches no type: it must not
		 * pass as the default the job would then use */
		return smp__scalar_int(n, &x) == 0 ? T_INTEGER | T_NUMBER : 0;
	case SMP_SCALAR_FLOAT:
		return smp__scalar_number(n, &d) == 0 ? T_NUMBER : 0;
	case SMP_SCALAR_BOOL:
		return smp__scalar_bool(n) >= 0 ? T_BOOLEAN : 0;
	case SMP_SCALAR_NULL:
		return T_NULL;
	case SMP_SCALAR_STRING:
		break;
	}
	return T_STRING;
}

/* Shortest %g text that reads back as v ("1.1" for 1.10). */
static void
fmt_number(char *out, size_t size, double v)
{
	int prec;

	if (v == floor(v) && fabs(v) < 1e15) {
		snprintf(out, size, "%.0f", v);
		return;
	}
	for (prec = 1; prec <= 17; prec++) {
		snprintf(out, size, "%.*g", prec, v);
		if (strtod(out, NULL) == v)
			return;
	}
}

/* How the document's value reads: a string ("two"), a number (1.1) */
static void
sb_found(struct sbuf *b, const struct smp_node *n)
{
	char num[40];
	double v;

	if (n->kind != SMP_NODE_SCALAR) {
		sb_str(b, smp__node_type_name(n));
		return;
	}
	switch (smp__scalar_type(n)) {
	case SMP_SCALAR_STRING:
		sb_str(b, "a string (\"");
		sb_text(b, n->u.scalar.value, n->u.scalar.len, QUOTE_MAX);
		sb_str(b, "\")");
		return;
	case SMP_SCALAR_NULL:
		sb_str(b, n->u.scalar.len ? "null" : "an empty value");
		return;
	case SMP_SCALAR_FLOAT:
		if (smp__scalar_number(n, &v) == 0 && isfinite(v)) {
			fmt_number(num, sizeof(num), v);
			sb_fmt(b, "a number (%s)", num);
			return;
		}
		break;
	case SMP_SCALAR_INT:
		if (smp__scalar_number(n, &v) != 0) {
			double big = strtod(n->u.scalar.value, NULL);

			sb_str(b, isfinite(big) && big != 0
					  ? "an integer out of range ("
					  : "text tagged !!int that is no "
					    "integer (");
			sb_text(b, n->u.scalar.value, n->u.scalar.len,
				QUOTE_MAX);
			sb_str(b, ")");
			return;
		}
		break;
	case SMP_SCALAR_BOOL:
		if (smp__scalar_bool(n) < 0) {
			sb_str(b, "text tagged !!bool that is no boolean (");
			sb_text(b, n->u.scalar.value, n->u.scalar.len,
				QUOTE_MAX);
			sb_str(b, ")");
			return;
		}
		break;
	}
	sb_str(b, smp__node_type_name(n));
	sb_str(b, " (");
	sb_text(b, n->u.scalar.value, n->u.scalar.len, QUOTE_MAX);
	sb_str(b, ")");
}

static const char *
type_word(unsigned bit)
{
	switch (bit) {
	case T_OBJECT:
		return "a mapping";
	case T_ARRAY:
		return "a list";
	case T_STRING:
		return "a string";
	case T_INTEGER:
		return "an integer";
	case T_NUMBER:
		return "a number";
	case T_BOOLEAN:
		return "a boolean";
	default:
		return "null";
	}
}

/* "a string, a number or a boolean"; null (an optional argument's
 * default) is not named beside a real type */
static void
sb_types(struct sbuf *b, unsigned types)
{
	size_t i, n = 0, total = 0;

	if (types != T_NULL)
		types &= ~T_NULL;

	for (i = 0; i < 7; i++)
		total += (types >> i) & 1u;
	for (i = 0; i < 7; i++) {
		if (!(types & (1u << i)))
			continue;
		if (n)
			sb_str(b, n + 1 == total ? " or " : ", ");
		sb_str(b, type_word(1u << i));
		n++;
	}
}

/* A schema JSON value for a message: 'File', false, 3 */
static void
sb_json_value(struct sbuf *b, const struct smp_node *v)
{
	if (v->kind != SMP_NODE_SCALAR)
		sb_str(b, smp__node_type_name(v));
	else if (is_string(v))
		sb_fmt(b, "'%s'", v->u.scalar.value);
	else
		sb_str(b, v->u.scalar.value);
}

static void
sb_enum(struct sbuf *b, const struct smp_node *values)
{
	size_t i, n = values->u.sequence.count;

	if (n == 1) {
		sb_json_value(b, values->u.sequence.items[0]);
		return;
	}
	sb_str(b, "one of ");
	for (i = 0; i < n; i++) {
		if (i)
			sb_str(b, ", ");
		if (i == 12) {
			sb_str(b, "...");
			break;
		}
		sb_json_value(b, values->u.sequence.items[i]);
	}
}

/* Equality of a schema's JSON value and a document node. */
static int
json_equal(const struct smp_node *a, const struct smp_node *b, unsigned depth)
{
	size_t i;

	if (a->kind != b->kind || depth > 64)
		return 0;
	if (a->kind == SMP_NODE_SEQUENCE) {
		if (a->u.sequence.count != b->u.sequence.count)
			return 0;
		for (i = 0; i < a->u.sequence.count; i++)
			if (!json_equal(a->u.sequence.items[i],
					b->u.sequence.items[i], depth + 1))
				return 0;
		return 1;
	}
	if (a->kind == SMP_NODE_MAPPING) {
		if (a->u.mapping.count != b->u.mapping.count)
			return 0;
		for (i = 0; i < a->u.mapping.count; i++) {
			const struct smp_pair *p = &a->u.mapping.items[i];
			const struct smp_node *v =
				smp__map_get(b, p->key->u.scalar.value);

			if (!v || !json_equal(p->value, v, depth + 1))
				return 0;
		}
		return 1;
	}
	{
		unsigned ta = node_type(a), tb = node_type(b);
		double x, y;

		if ((ta & T_NUMBER) && (tb & T_NUMBER))
			return smp__scalar_number(a, &x) == 0 &&
			       smp__scalar_number(b, &y) == 0 && x == y;
		if (ta != tb)
			return 0;
		if (ta == T_BOOLEAN)
			return smp__scalar_bool(a) == smp__scalar_bool(b);
		if (ta == T_NULL)
			return 1;
		return a->u.scalar.len == b->u.scalar.len &&
		       memcmp(a->u.scalar.value, b->u.scalar.value,
			      a->u.scalar.len) == 0;
	}
}

static size_t
utf8_chars(const char *s, size_t n)
{
	size_t i, count = 0;

	for (i = 0; i < n; i++)
		count += ((unsigned char)s[i] & 0xC0) != 0x80;
	return count;
}

static enum smp_rule_id
rule_of(const struct snode *sn, enum smp_rule_id dflt)
{
	return (sn->has & H_RULE) ? sn->rule : dflt;
}

static int validate(struct walk *w, const struct snode *sn,
		    const struct smp_node *n, const struct seg *path,
		    int report);

/*
 * The "quote it" hint: a number or boolean where a string is wanted, and
 * the same text as a string would pass.
 */
static int
quote_would_pass(struct walk *w, const struct snode *sn,
		 const struct smp_node *n)
{
	struct smp_node fake;
	unsigned t = node_type(n);

	if (n->kind != SMP_NODE_SCALAR || !(sn->types & T_STRING) ||
	    !(t & (T_NUMBER | T_BOOLEAN)) || n->u.scalar.len == 0)
		return 0;
	fake = *n;
	fake.tag = NULL;
	fake.u.scalar.style = SMP_STYLE_DOUBLE_QUOTED;
	return validate(w, sn, &fake, NULL, 0) == 0;
}

/*
 * Reports that value n violates keyword `what` of sn: "'path' must be
 * <what>, found <n>", or with the schema's x-smp-message "'path'
 * <message>; found <n>".
 */
static void
report_value(struct walk *w, const struct snode *sn, const struct smp_node *n,
	     const struct seg *path, const struct sbuf *what, int quote)
{
	struct smp_finding *f;
	struct sbuf b;
	char num[40];
	double v;

	b.len = 0;
	b.s[0] = '\0';
	sb_subject(&b, path);
	if (sn->message) {
		sb_fmt(&b, " %s; found ", sn->message);
	} else {
		sb_fmt(&b, " must be %s, found ", what->s);
	}
	sb_found(&b, n);
	if (quote) {
		sb_str(&b, "; quote it: \"");
		sb_text(&b, n->u.scalar.value, n->u.scalar.len, QUOTE_MAX);
		sb_str(&b, "\"");
		if (smp__scalar_type(n) == SMP_SCALAR_FLOAT &&
		    smp__scalar_number(n, &v) == 0 && isfinite(v)) {
			fmt_number(num, sizeof(num), v);
			if (strcmp(num, n->u.scalar.value) != 0)
				sb_fmt(&b,
				       " \xE2\x80\x94 %s reads %s as the "
				       "number %s",
				       w->json ? "JSON" : "YAML",
				       n->u.scalar.value, num);
		}
	}
	f = violation(w, rule_of(sn, SMP_RULE_WRONG_TYPE), n, b.s);
	if (quote && f) {
		smp__finding_fix(w->rep, f, "quote the value: \"%s\"",
				 n->u.scalar.value);
		smp__finding_suggest(w->rep, f, n->u.scalar.value);
	}
}

/* check_value() result for a type mismatch */
#define BAD_TYPE 2

/*
 * Checks the value keywords: 0, BAD_TYPE, or 1 at the first other
 * violation (reported when report is set).
 */
static int
check_value(struct walk *w, const struct snode *sn, const struct smp_node *n,
	    const struct seg *path, int report)
{
	const char *dym = NULL;
	struct sbuf what;
	double v = 0;
	unsigned t;

	if (!(sn->has & ~(unsigned)H_RULE))
		return 0;
	t = node_type(n);

	what.len = 0;
	what.s[0] = '\0';
	if ((sn->has & H_TYPE) && !(sn->types & t)) {
		if (report) {
			sb_types(&what, sn->types);
			/* the hint is for spec authors, not data files */
			report_value(w, sn, n, path, &what,
				     w->rep && quote_would_pass(w, sn, n));
		}
		return BAD_TYPE;
	}
	if ((sn->has & H_CONST) && !json_equal(sn->const_value, n, 0)) {
		if (!report)
			return 1;
		sb_json_value(&what, sn->const_value);
		goto bad;
	}
	if (sn->has & H_ENUM) {
		size_t i, count = sn->enum_values->u.sequence.count;

		for (i = 0; i < count; i++)
			if (json_equal(sn->enum_values->u.sequence.items[i], n,
				       0))
				break;
		if (i == count) {
			if (!report)
				return 1;
			sb_enum(&what, sn->enum_values);
			if (t == T_STRING)
				dym = smp__did_you_mean(n->u.scalar.value,
							sn->enum_words,
							sn->nenum_words);
			goto bad;
		}
	}
	if ((t & T_NUMBER) &&
	    (sn->has & (H_MINIMUM | H_MAXIMUM | H_EXCL_MIN | H_EXCL_MAX)) &&
	    smp__scalar_number(n, &v) == 0) {
		char num[40];

		if ((sn->has & H_MINIMUM) && !(v >= sn->minimum)) {
			if (!report)
				return 1;
			fmt_number(num, sizeof(num), sn->minimum);
			sb_fmt(&what, "at least %s", num);
			goto bad;
		}
		if ((sn->has & H_MAXIMUM) && !(v <= sn->maximum)) {
			if (!report)
				return 1;
			fmt_number(num, sizeof(num), sn->maximum);
			sb_fmt(&what, "at most %s", num);
			goto bad;
		}
		if ((sn->has & H_EXCL_MIN) && !(v > sn->excl_minimum)) {
			if (!report)
				return 1;
			fmt_number(num, sizeof(num), sn->excl_minimum);
			sb_fmt(&what, "greater than %s", num);
			goto bad;
		}
		if ((sn->has & H_EXCL_MAX) && !(v < sn->excl_maximum)) {
			if (!report)
				return 1;
			fmt_number(num, sizeof(num), sn->excl_maximum);
			sb_fmt(&what, "less than %s", num);
			goto bad;
		}
	}
	if (t == T_STRING) {
		/* a string no longer in bytes than the maximum is short
		 * enough in characters: count only when it may matter */
		size_t chars = n->u.scalar.len;

		if ((sn->has & H_MIN_LENGTH) ||
		    ((sn->has & H_MAX_LENGTH) && chars > sn->max_length))
			chars = utf8_chars(n->u.scalar.value, chars);

		if ((sn->has & H_MIN_LENGTH) && chars < sn->min_length) {
			if (!report)
				return 1;
			sb_fmt(&what, "at least %zu character%s long",
			       sn->min_length, sn->min_length == 1 ? "" : "s");
			goto bad;
		}
		if ((sn->has & H_MAX_LENGTH) && chars > sn->max_length) {
			if (!report)
				return 1;
			sb_fmt(&what, "at most %zu character%s long",
			       sn->max_length, sn->max_length == 1 ? "" : "s");
			goto bad;
		}
		/* a string with a NUL byte cannot match a C regex fully */
		if ((sn->has & H_PATTERN) &&
		    (strlen(n->u.scalar.value) != n->u.scalar.len ||
		     regexec(sn->pattern, n->u.scalar.value, 0, NULL, 0))) {
			if (!report)
				return 1;
			sb_str(&what, "a string matching the pattern '");
			sb_str(&what, sn->pattern_src);
			sb_str(&what, "'");
			goto bad;
		}
	}
	if (t == T_ARRAY || t == T_OBJECT) {
		size_t count =
			t == T_ARRAY ? n->u.sequence.count : n->u.mapping.count;
		unsigned lo = t == T_ARRAY ? H_MIN_ITEMS : H_MIN_PROPS;
		unsigned hi = t == T_ARRAY ? H_MAX_ITEMS : H_MAX_PROPS;
		size_t min = t == T_ARRAY ? sn->min_items : sn->min_props;
		size_t max = t == T_ARRAY ? sn->max_items : sn->max_props;
		const char *unit = t == T_ARRAY ? "item" : "entr";
		const char *one = t == T_ARRAY ? "" : "y";
		const char *many = t == T_ARRAY ? "s" : "ies";

		if ((sn->has & lo) && count < min) {
			if (!report)
				return 1;
			sb_fmt(&what, "%s with at least %zu %s%s", type_word(t),
			       min, unit, min == 1 ? one : many);
			goto bad;
		}
		if ((sn->has & hi) && count > max) {
			if (!report)
				return 1;
			sb_fmt(&what, "%s with at most %zu %s%s", type_word(t),
			       max, unit, max == 1 ? one : many);
			goto bad;
		}
	}
	if (t == T_OBJECT && (sn->has & H_REQUIRED)) {
		size_t i;

		for (i = 0; i < sn->required->u.sequence.count; i++) {
			const struct smp_node *k =
				sn->required->u.sequence.items[i];

			if (smp__map_pair(n, k->u.scalar.value))
				continue;
			if (report) {
				sb_fmt(&what, "missing required key '%s' in ",
				       k->u.scalar.value);
				sb_subject(&what, path);
				violation(w, rule_of(sn, SMP_RULE_WRONG_TYPE),
					  n, what.s);
			}
			return 1;
		}
	}
	return 0;
bad:
	if (dym) {
		struct sbuf b;
		struct smp_finding *f;

		b.len = 0;
		b.s[0] = '\0';
		sb_subject(&b, path);
		if (sn->message)
			sb_fmt(&b, " %s; found ", sn->message);
		else
			sb_fmt(&b, " must be %s, found ", what.s);
		sb_found(&b, n);
		sb_fmt(&b, "; did you mean '%s'?", dym);
		f = violation(w, rule_of(sn, SMP_RULE_WRONG_TYPE), n, b.s);
		smp__finding_fix(w->rep, f, "replace '%s' with '%s'",
				 n->u.scalar.value, dym);
		smp__finding_suggest(w->rep, f, dym);
		return 1;
	}
	report_value(w, sn, n, path, &what, 0);
	return 1;
}

static const char *
find_dym(const struct snode *sn, const struct smp_node *key)
{
	size_t i;

	for (i = 0; i < sn->ndym; i++)
		if (sn->dym[i].from_len == key->u.scalar.len &&
		    memcmp(sn->dym[i].from, key->u.scalar.value,
			   key->u.scalar.len) == 0)
			return sn->dym[i].to;
	return NULL;
}

/* A key that the object's schema does not allow, reported at the key. */
static void
report_key(struct walk *w, const struct snode *sn, const struct smp_pair *p,
	   const struct seg *path, int known)
{
	const struct smp_node *k = p->key;
	const char *best = NULL;
	struct smp_finding *f;
	struct sbuf b;
	size_t i;
	int ignored;

	b.len = 0;
	b.s[0] = '\0';
	if (k->kind != SMP_NODE_SCALAR) {
		sb_fmt(&b, "keys must be strings, found %s",
		       smp__node_type_name(k));
		violation(w, rule_of(sn, SMP_RULE_WRONG_TYPE), k, b.s);
		return;
	}
	if (w->rep && smp__report_full(w->rep)) {
		/* only counted: spare the did-you-mean search */
		smp__report_node(w->rep, rule_of(sn, SMP_RULE_UNKNOWN_KEY), k,
				 "%s", "");
		return;
	}
	sb_str(&b, known ? "key '" : "unknown key '");
	sb_text(&b, k->u.scalar.value, k->u.scalar.len, QUOTE_MAX);
	sb_str(&b, known ? "' is not allowed " : "' ");
	if (sn->title) {
		sb_fmt(&b, "for %s", sn->title);
	} else if (path) {
		sb_str(&b, "in ");
		sb_subject(&b, path);
	} else {
		sb_str(&b, "at the top level");
	}
	ignored = is_ignored_key(sn, k);
	if (!known) {
		best = find_dym(sn, k);
		if (!best && !ignored)
			best = smp__did_you_mean(k->u.scalar.value,
						 sn->prop_names, sn->nprops);
	}
	if (best) {
		sb_fmt(&b, "; did you mean '%s'?", best);
	} else if (sn->message) {
		sb_fmt(&b, "; %s", sn->message);
	} else if (!known && sn->nprops && sn->nprops <= LIST_KEYS_MAX) {
		sb_str(&b, sn->nprops == 1 ? "; the only key is "
					   : "; the keys are ");
		for (i = 0; i < sn->nprops; i++) {
			if (i)
				sb_str(&b,
				       i + 1 == sn->nprops ? " and " : ", ");
			sb_fmt(&b, "'%s'", sn->prop_names[i]);
		}
	}
	f = violation(w, rule_of(sn, SMP_RULE_UNKNOWN_KEY), k, b.s);
	/* a misspelling loses the intended setting: an error; a key the
	 * consumer only ignores leaves a job that runs: a warning */
	if (sn->unknown_warning && (ignored || !best))
		smp__finding_soften(w->rep, f,
				    rule_of(sn, SMP_RULE_UNKNOWN_KEY),
				    SMP_SEVERITY_WARNING);
	if (best) {
		struct sbuf key;

		key.len = 0;
		key.s[0] = '\0';
		sb_text(&key, k->u.scalar.value, k->u.scalar.len, QUOTE_MAX);
		smp__finding_fix(w->rep, f, "rename '%s' to '%s'", key.s, best);
		smp__finding_suggest(w->rep, f, best);
	}
}

static int
check_object(struct walk *w, const struct snode *sn, const struct smp_node *n,
	     const struct seg *path, int report)
{
	int bad = 0;
	size_t i;

	for (i = 0; i < n->u.mapping.count; i++) {
		const struct smp_pair *p = &n->u.mapping.items[i];
		const struct sprop *prop = NULL;
		const struct snode *sub;
		struct seg seg;

		seg.up = path;
		seg.key = p->key;
		seg.index = 0;
		if (sn->property_names &&
		    validate(w, sn->property_names, p->key, &seg, report)) {
			bad = 1;
			if (!report)
				return 1;
		}
		if (p->key->kind == SMP_NODE_SCALAR)
			prop = find_prop(sn, p->key->u.scalar.value,
					 p->key->u.scalar.len);
		sub = prop ? prop->schema : sn->additional;
		if (!sub)
			continue;
		if (sub->is_false || p->key->kind != SMP_NODE_SCALAR) {
			/* an unknown key: its value is not looked at */
			if (!report)
				return 1;
			report_key(w, sn, p, path, prop != NULL);
			bad = 1;
			continue;
		}
		if (validate(w, sub, p->value, &seg, report)) {
			bad = 1;
			if (!report)
				return 1;
		}
	}
	return bad;
}

/* Whether branch b of an anyOf names a type that n has. */
static int
branch_typed_for(const struct snode *b, const struct smp_node *n)
{
	while (!(b->has & H_TYPE) && b->ref)
		b = b->ref;
	return (b->has & H_TYPE) && (b->types & node_type(n));
}

static void
sb_branch(struct sbuf *b, const struct snode *sn)
{
	while (!(sn->has & (H_TYPE | H_CONST | H_ENUM)) && sn->ref)
		sn = sn->ref;
	if (sn->has & H_CONST)
		sb_json_value(b, sn->const_value);
	else if (sn->has & H_ENUM)
		sb_enum(b, sn->enum_values);
	else if (sn->has & H_TYPE)
		sb_types(b, sn->types);
	else
		sb_str(b, "valid");
}

static int
check_any_of(struct walk *w, const struct snode *sn, const struct smp_node *n,
	     const struct seg *path, int report)
{
	const struct snode *only = NULL;
	struct sbuf what;
	size_t i, k, shown, typed = 0;

	for (i = 0; i < sn->nany_of; i++)
		if (validate(w, sn->any_of[i], n, path, 0) == 0)
			return 0;
	if (!report)
		return 1;
	/* one branch is meant for this kind of value: its findings say most */
	for (i = 0; i < sn->nany_of; i++) {
		if (branch_typed_for(sn->any_of[i], n)) {
			typed++;
			only = sn->any_of[i];
		}
	}
	if (typed == 1) {
		validate(w, only, n, path, 1);
		return 1;
	}
	what.len = 0;
	what.s[0] = '\0';
	/* a null branch (an optional argument's default) goes unnamed */
	for (i = 0, k = 0; i < sn->nany_of; i++)
		if (sn->any_of[i]->types != T_NULL)
			k++;
	for (i = 0, shown = 0; i < sn->nany_of; i++) {
		if (k && sn->any_of[i]->types == T_NULL)
			continue;
		if (shown)
			sb_str(&what, shown + 1 == (k ? k : sn->nany_of)
					      ? " or "
					      : ", ");
		sb_branch(&what, sn->any_of[i]);
		shown++;
	}
	report_value(w, sn, n, path, &what, 0);
	return 1;
}

/*
 * Checks n against sn: 0 valid, 1 not. With report, every violation
 * becomes a finding; without, it stops at the first (for if and anyOf).
 */
static int
validate(struct walk *w, const struct snode *sn, const struct smp_node *n,
	 const struct seg *path, int report)
{
	int bad = 0;
	size_t i;

	if (w->depth >= CHECK_DEPTH_MAX)
		return 0; /* a pathological schema: stop, do not crash */
	if (smp__node_unknown(n))
		return 0; /* a value a Python source computes: not known */
	w->depth++;
	if (sn->is_false) {
		if (report) {
			struct sbuf b;

			b.len = 0;
			b.s[0] = '\0';
			sb_subject(&b, path);
			sb_str(&b, " is not allowed here");
			violation(w, rule_of(sn, SMP_RULE_WRONG_TYPE), n, b.s);
		}
		bad = 1;
		goto out;
	}
	/* one value finding per node and schema; after a type mismatch
	 * nothing else applies */
	switch (check_value(w, sn, n, path, report)) {
	case 0:
		break;
	case BAD_TYPE:
		bad = 1;
		goto out;
	default:
		bad = 1;
		if (!report)
			goto out;
	}
	if (n->kind == SMP_NODE_MAPPING &&
	    (sn->nprops || sn->additional || sn->property_names)) {
		bad |= check_object(w, sn, n, path, report);
		if (bad && !report)
			goto out;
	}
	if (n->kind == SMP_NODE_SEQUENCE && sn->items) {
		for (i = 0; i < n->u.sequence.count; i++) {
			struct seg seg;

			seg.up = path;
			seg.key = NULL;
			seg.index = i;
			if (validate(w, sn->items, n->u.sequence.items[i], &seg,
				     report)) {
				bad = 1;
				if (!report)
					goto out;
			}
		}
	}
	if (sn->ref && validate(w, sn->ref, n, path, report)) {
		bad = 1;
		if (!report)
			goto out;
	}
	for (i = 0; i < sn->nall_of; i++) {
		if (validate(w, sn->all_of[i], n, path, report)) {
			bad = 1;
			if (!report)
				goto out;
		}
	}
	if (sn->nany_of && check_any_of(w, sn, n, path, report)) {
		bad = 1;
		if (!report)
			goto out;
	}
	if (sn->if_s) {
		const struct snode *branch =
			validate(w, sn->if_s, n, path, 0) == 0 ? sn->then_s
							       : sn->else_s;

		if (branch && validate(w, branch, n, path, report))
			bad = 1;
	}
out:
	w->depth--;
	return bad;
}

static int
cmp_pos(const struct smp_finding *a, const struct smp_finding *b)
{
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->column != b->column)
		return a->column < b->column ? -1 : 1;
	return 0;
}

/* Stable merge sort of findings [from, count) into document order. */
static int
sort_findings(struct smp_report *r, size_t from)
{
	struct smp_finding *a, *tmp;
	size_t n = r->count - from, width, i;

	if (n < 2)
		return 0; /* also keeps NULL items out of the arithmetic */
	a = r->items + from;
	for (i = 1; i < n; i++)
		if (cmp_pos(&a[i - 1], &a[i]) > 0)
			break;
	if (i >= n)
		return 0;
	tmp = smp__malloc(r->alloc, n * sizeof(*tmp));
	if (!tmp)
		return SMP_ENOMEM;
	for (width = 1; width < n; width *= 2) {
		for (i = 0; i < n; i += 2 * width) {
			size_t lo = i, mid = i + width < n ? i + width : n;
			size_t hi = i + 2 * width < n ? i + 2 * width : n;
			size_t x = lo, y = mid, k = lo;

			while (x < mid && y < hi)
				tmp[k++] = cmp_pos(&a[y], &a[x]) < 0 ? a[y++]
								     : a[x++];
			while (x < mid)
				tmp[k++] = a[x++];
			while (y < hi)
				tmp[k++] = a[y++];
		}
		memcpy(a, tmp, n * sizeof(*tmp));
	}
	smp__free(r->alloc, tmp);
	return 0;
}

/*
 * Checks the document under root against the schema (see schema.h);
 * findings are added in document order.
 */
int
smp__schema_check(const struct smp_schema *s, const struct smp_node *root,
		  struct smp_report *rep)
{
	struct walk w;
	size_t from = rep->count;

	if (!s || !root)
		return rep->failed ? SMP_ENOMEM : 0;
	w.rep = rep;
	w.err = NULL;
	w.name = NULL;
	w.found = 0;
	/* the loader's decision: a flow mapping in a .yaml file is YAML */
	w.json = rep->buf && smp__load_is_json(rep->file, rep->buf, rep->len);
	w.depth = 0;
	validate(&w, s->root, root, NULL, 1);
	if (rep->failed)
		return SMP_ENOMEM;
	if (sort_findings(rep, from)) {
		rep->failed = 1;
		return SMP_ENOMEM;
	}
	return 0;
}

/*
 * Validates a data file's document (see schema.h): the walk of
 * smp__schema_check() without a report, keeping the earliest violation.
 */
int
smp__schema_validate(const struct smp_schema *s, const char *pointer,
		     const struct smp_node *root, const char *name,
		     struct smp_error *err)
{
	const struct snode *sn = NULL;
	struct smp_error local;
	struct walk w;
	size_t i;

	if (!s || !root)
		return smp__error_set(err, SMP_EINVAL, name, NULL,
				      "no schema or no document to validate");
	if (!pointer) {
		sn = s->root;
	} else {
		const struct smp_node *json =
			pointer[0] == '#'
				? resolve_pointer(s->docs.items[0].root,
						  pointer)
				: NULL;

		for (i = 0; json && i < s->nsubs && !sn; i++)
			if (s->subs[i].json == json)
				sn = s->subs[i].sn;
		if (!sn)
			return smp__error_set(err, SMP_EINVAL, name, NULL,
					      "the schema has no '%.200s'",
					      pointer);
	}
	memset(&w, 0, sizeof(w));
	memset(&local, 0, sizeof(local));
	w.err = err ? err : &local;
	w.name = name;
	w.json = 1;
	validate(&w, sn, root, NULL, 1);
	return w.found ? SMP_EPARSE : 0;
}
