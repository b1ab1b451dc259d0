/*
 * compile.c - the project's JSON Schemas (draft 2020-12 subset) compiled
 * into an immutable tree (internal.h); validate.c checks a document's
 * nodes against it and messages.c words the findings.
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
 * compiled nodes are allocated from the same arena; the patterns are
 * compiled by regcomp() (pattern.c) and freed with the schema.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema/schema.h"
#include "schema/internal.h"
#include "util/alloc.h"
#include "util/arena.h"
#include "doc/load.h"
#include "report/rule_table.h"
#include "util/error.h"

/* longest chain of in-place applicators ($ref, allOf, ...) at load */
#define INPLACE_DEPTH_MAX 200

/* a registered schema while compiling */
struct cmemo {
	const struct smp_node *json;
	struct snode *sn;
};

struct compiler {
	struct smp_schema *s;
	struct smp_arena *arena;
	const char *name;
	struct smp_error *err;
	const struct smp_node *doc;
	struct cmemo *memo; /* root, $defs members and $ref targets */
	size_t nmemo, cap_memo;
	struct snode **all; /* every node, for the cycle check */
	size_t nall, cap_all;
	struct snode **pending; /* nodes whose $ref is unresolved */
	size_t npending, cap_pending;
	unsigned char *marks; /* by snode id, for the graph walks */
	const char **pats;    /* the distinct patterns, by svalue.pattern */
	size_t npats, cap_pats;
	int rc;
};

/* a node while it is compiled, with room for all it may have */
struct cnode {
	struct snode sn;
	struct svalue value;
	struct sinfo info;
};

const struct svalue smp__schema_no_value;
const struct sinfo smp__schema_no_info;

static struct cnode *
cn(struct snode *sn)
{
	return (struct cnode *)sn;
}

static void *
fail_nomem(struct compiler *c)
{
	if (!c->rc) {
		c->rc = SMP_ENOMEM;
		smp__error_set(c->err, SMP_ENOMEM, c->name, NULL, "%s",
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
	smp__error_set(c->err, SMP_EPARSE, c->name, at ? &at->start : NULL,
		       "%s", msg);
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
	struct cnode *node = smp__arena_zalloc(c->arena, sizeof(*node));
	struct snode *sn;

	if (!node)
		return fail_nomem(c);
	sn = &node->sn;
	sn->value = &node->value;
	sn->info = &node->info;
	node->info.at = json;
	sn->id = c->nall;
	if (push_ptr(c, &c->all, &c->nall, &c->cap_all, sn))
		return NULL;
	return sn;
}

static int
text_is(const struct smp_node *n, const char *s)
{
	return n->kind == SMP_NODE_SCALAR && smp__scalar_is(n, s);
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

	if (!smp__schema_is_string(v))
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
	struct cmemo *m;
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

/* The order of sprop tables: by length, then bytes (most comparisons
 * of a lookup end at the length). */
static int
cmp_name(const char *a, size_t alen, const char *b, size_t blen)
{
	if (alen != blen)
		return alen < blen ? -1 : 1;
	return memcmp(a, b, alen);
}

static int
cmp_prop(const void *pa, const void *pb)
{
	const struct sprop *a = pa, *b = pb;

	return cmp_name(a->name, a->len, b->name, b->len);
}

static int
compile_properties(struct compiler *c, struct snode *sn,
		   const struct smp_node *v, unsigned depth)
{
	struct sprop *props;
	const char **names;
	size_t i, n;

	if (v->kind != SMP_NODE_MAPPING) {
		fail(c, v, "'properties' must be an object");
		return -1;
	}
	n = v->u.mapping.count;
	props = smp__arena_zalloc(c->arena, (n ? n : 1) * sizeof(*props));
	names = smp__arena_zalloc(c->arena, (n ? n : 1) * sizeof(char *));
	if (!props || !names) {
		fail_nomem(c);
		return -1;
	}
	for (i = 0; i < n; i++) {
		const struct smp_pair *p = &v->u.mapping.items[i];

		props[i].name = p->key->u.scalar.value;
		props[i].len = p->key->u.scalar.len;
		names[i] = p->key->u.scalar.value;
		props[i].schema = compile(c, p->value, depth + 1);
		if (!props[i].schema)
			return -1;
	}
	qsort(props, n, sizeof(*props), cmp_prop);
	sn->props = props;
	cn(sn)->info.prop_names = names;
	sn->nprops = n;
	return 0;
}

static int
compile_list(struct compiler *c, const struct smp_node *key,
	     const struct smp_node *v, const struct snode *const **out,
	     size_t *count, unsigned depth)
{
	const struct snode **list;
	size_t i, n;

	if (v->kind != SMP_NODE_SEQUENCE || v->u.sequence.count == 0) {
		fail(c, v, "'%s' must be a non-empty array of schemas",
		     key->u.scalar.value);
		return -1;
	}
	n = v->u.sequence.count;
	list = smp__arena_zalloc(c->arena, n * sizeof(struct snode *));
	if (!list) {
		fail_nomem(c);
		return -1;
	}
	*out = list;
	for (i = 0; i < n; i++) {
		list[i] = compile(c, v->u.sequence.items[i], depth + 1);
		if (!list[i])
			return -1;
	}
	*count = n;
	return 0;
}

/* The items of JSON array v, as a keyword's values. */
static struct svals
vals_of(const struct smp_node *v)
{
	struct svals out;

	out.items = (const struct smp_node *const *)v->u.sequence.items;
	out.count = v->u.sequence.count;
	return out;
}

static int
compile_enum(struct compiler *c, struct snode *sn, const struct smp_node *v)
{
	const char **words;
	size_t i, n;

	if (v->kind != SMP_NODE_SEQUENCE || v->u.sequence.count == 0) {
		fail(c, v, "'enum' must be a non-empty array");
		return -1;
	}
	n = v->u.sequence.count;
	words = smp__arena_zalloc(c->arena, n * sizeof(char *));
	if (!words) {
		fail_nomem(c);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (smp__schema_is_string(v->u.sequence.items[i]))
			words[cn(sn)->info.nenum_words++] =
				v->u.sequence.items[i]->u.scalar.value;
	cn(sn)->info.enum_words = words;
	cn(sn)->value.enum_values = vals_of(v);
	sn->has |= H_ENUM;
	return 0;
}

/* The pattern's index in the schema's list, added when new; -1. */
static long
pattern_index(struct compiler *c, const char *src)
{
	void *tmp = c->pats;
	size_t i;

	for (i = 0; i < c->npats; i++)
		if (strcmp(c->pats[i], src) == 0)
			return (long)i;
	if (smp__grow(&c->s->alloc, &tmp, &c->cap_pats, c->npats + 1,
		      sizeof(*c->pats)))
		return -1;
	c->pats = tmp;
	c->pats[c->npats] = src;
	return (long)c->npats++;
}

/* Refused here, at build time for a built-in schema, rather than when a
 * check meets it: an escape POSIX leaves undefined, or what regcomp()
 * refuses. */
static int
compile_pattern(struct compiler *c, struct snode *sn, const struct smp_node *v)
{
	const char *why;
	char msg[128];
	regex_t rx;
	long id;
	int rc;

	if (!smp__schema_is_string(v) ||
	    strlen(v->u.scalar.value) != v->u.scalar.len) {
		fail(c, v, "'pattern' must be a string");
		return -1;
	}
	if (smp__pattern_refused(v->u.scalar.value, &why)) {
		fail(c, v, "'pattern' is not a POSIX extended regex: %s", why);
		return -1;
	}
	rc = smp__pattern_compile(&rx, v->u.scalar.value, msg, sizeof(msg));
	if (rc == SMP_EPARSE) {
		fail(c, v, "'pattern' is not a POSIX extended regex: %s", msg);
		return -1;
	}
	if (rc == 0)
		regfree(&rx);
	id = rc ? -1 : pattern_index(c, v->u.scalar.value);
	if (id < 0) {
		fail_nomem(c);
		return -1;
	}
	cn(sn)->value.pattern = (size_t)id;
	cn(sn)->value.pattern_src = v->u.scalar.value;
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
		if (!smp__schema_is_string(v->u.sequence.items[i])) {
			fail(c, v->u.sequence.items[i],
			     "'x-smp-ignored-keys' must be an array of "
			     "strings");
			return -1;
		}
	}
	cn(sn)->info.ignored_keys = vals_of(v);
	return 0;
}

static int
compile_dym(struct compiler *c, struct snode *sn, const struct smp_node *v)
{
	struct sdym *dym;
	size_t i, n;

	if (v->kind != SMP_NODE_MAPPING) {
		fail(c, v, "'x-smp-did-you-mean' must be an object of strings");
		return -1;
	}
	n = v->u.mapping.count;
	dym = smp__arena_zalloc(c->arena, (n ? n : 1) * sizeof(*dym));
	if (!dym) {
		fail_nomem(c);
		return -1;
	}
	cn(sn)->info.dym = dym;
	for (i = 0; i < n; i++) {
		const struct smp_pair *p = &v->u.mapping.items[i];

		if (!smp__schema_is_string(p->value)) {
			fail(c, p->value,
			     "'x-smp-did-you-mean' values must be strings");
			return -1;
		}
		dym[i].from = p->key->u.scalar.value;
		dym[i].from_len = p->key->u.scalar.len;
		dym[i].to = p->value->u.scalar.value;
	}
	cn(sn)->info.ndym = n;
	cn(sn)->info.dym_at = v;
	return 0;
}

/* The property named name[0, len) (see internal.h): a binary search in
 * the cmp_prop order. */
const struct sprop *
smp__schema_find_prop(const struct snode *sn, const char *name, size_t len)
{
	size_t lo = 0, hi = sn->nprops;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct sprop *p = &sn->props[mid];
		int r = cmp_name(name, len, p->name, p->len);

		if (r == 0)
			return p;
		if (r < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
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
		if (!smp__schema_is_string(v->u.sequence.items[i]))
			return fail(c, v->u.sequence.items[i],
				    "'required' must list strings"),
			       -1;
	cn(sn)->value.required = vals_of(v);
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
	if (!smp__schema_is_string(v))
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
		return (cn(sn)->info.title = string_of(c, k, v)) ? 0 : -1;
	case KW_MESSAGE:
		return (cn(sn)->info.message = string_of(c, k, v)) ? 0 : -1;
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
		if (!smp__schema_is_string(v) || v->u.scalar.value[0] != '#')
			return fail(c, v,
				    "'$ref' must be a local reference "
				    "starting with '#'"),
			       -1;
		cn(sn)->info.ref_target = v;
		return push_ptr(c, &c->pending, &c->npending, &c->cap_pending,
				sn);
	case KW_ENUM:
		return compile_enum(c, sn, v);
	case KW_CONST:
		cn(sn)->value.const_value = v;
		sn->has |= H_CONST;
		return 0;
	case KW_REQUIRED:
		return compile_required(c, sn, v);
	case KW_PATTERN:
		return compile_pattern(c, sn, v);
	case KW_MINIMUM:
		sn->has |= H_MINIMUM;
		return get_number(c, k, v, &cn(sn)->value.minimum);
	case KW_MAXIMUM:
		sn->has |= H_MAXIMUM;
		return get_number(c, k, v, &cn(sn)->value.maximum);
	case KW_EXCL_MIN:
		sn->has |= H_EXCL_MIN;
		return get_number(c, k, v, &cn(sn)->value.excl_minimum);
	case KW_EXCL_MAX:
		sn->has |= H_EXCL_MAX;
		return get_number(c, k, v, &cn(sn)->value.excl_maximum);
	case KW_MIN_LENGTH:
		sn->has |= H_MIN_LENGTH;
		return get_count(c, k, v, &cn(sn)->value.min_length);
	case KW_MAX_LENGTH:
		sn->has |= H_MAX_LENGTH;
		return get_count(c, k, v, &cn(sn)->value.max_length);
	case KW_MIN_ITEMS:
		sn->has |= H_MIN_ITEMS;
		return get_count(c, k, v, &cn(sn)->value.min_items);
	case KW_MAX_ITEMS:
		sn->has |= H_MAX_ITEMS;
		return get_count(c, k, v, &cn(sn)->value.max_items);
	case KW_MIN_PROPS:
		sn->has |= H_MIN_PROPS;
		return get_count(c, k, v, &cn(sn)->value.min_props);
	case KW_MAX_PROPS:
		sn->has |= H_MAX_PROPS;
		return get_count(c, k, v, &cn(sn)->value.max_props);
	case KW_RULE:
		if (!smp__schema_is_string(v) ||
		    smp__rule_lookup(&sn->rule, v->u.scalar.value))
			return fail(c, v, "'x-smp-rule' names no rule"), -1;
		sn->has |= H_RULE;
		return 0;
	case KW_DID_YOU_MEAN:
		return compile_dym(c, sn, v);
	case KW_IGNORED_KEYS:
		return compile_ignored(c, sn, v);
	case KW_UNKNOWN_SEVERITY:
		if (!smp__schema_is_string(v) ||
		    strcmp(v->u.scalar.value, "warning") != 0)
			return fail(c, v,
				    "'x-smp-unknown-severity' must be "
				    "\"warning\""),
			       -1;
		cn(sn)->info.unknown_warning = 1;
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
	for (i = 0; i < cn(sn)->info.ndym; i++)
		if (!smp__schema_find_prop(sn, cn(sn)->info.dym[i].to,
					   strlen(cn(sn)->info.dym[i].to)))
			return fail(c, cn(sn)->info.dym_at,
				    "'x-smp-did-you-mean' maps '%.64s' to "
				    "'%.64s', which is not a property",
				    cn(sn)->info.dym[i].from,
				    cn(sn)->info.dym[i].to);
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
		const struct smp_node *target = resolve_pointer(
			c->doc, cn(sn)->info.ref_target->u.scalar.value);

		if (!target) {
			fail(c, cn(sn)->info.ref_target,
			     "'$ref' %.200s does not resolve",
			     cn(sn)->info.ref_target->u.scalar.value);
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
inplace_cycle(struct compiler *c, const struct snode *sn, unsigned depth)
{
	const struct snode *next[5];
	unsigned char *mark = &c->marks[sn->id];
	size_t i, n = 0;

	if (*mark & MARK_DONE)
		return 0;
	if (*mark & MARK_ACTIVE) {
		fail(c, sn->info->at,
		     "'$ref' cycle that never descends into the "
		     "document");
		return -1;
	}
	if (depth > INPLACE_DEPTH_MAX) {
		fail(c, sn->info->at,
		     "chain of '$ref' and applicators too long");
		return -1;
	}
	*mark |= MARK_ACTIVE;
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
	*mark = (unsigned char)((*mark & ~MARK_ACTIVE) | MARK_DONE);
	return 0;
}

/*
 * Property names allowed at the root: the root's and its branches', with
 * repeats (finish() sorts them and drops the repeats).
 */
static int
collect_top_keys(struct compiler *c, const struct snode *sn, const char ***keys,
		 size_t *n, size_t *cap)
{
	void *tmp = *keys;
	size_t i;

	if (!sn || (c->marks[sn->id] & MARK_TOP))
		return 0;
	c->marks[sn->id] |= MARK_TOP;
	if (sn->nprops) {
		if (smp__grow(&c->s->alloc, &tmp, cap, *n + sn->nprops,
			      sizeof(char *))) {
			fail_nomem(c);
			return -1;
		}
		*keys = tmp;
		memcpy(*keys + *n, sn->info->prop_names,
		       sn->nprops * sizeof(char *));
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
	const char **keys = NULL, **top;
	struct memo *subs;
	size_t i, n = 0, cap = 0;

	c->marks = smp__calloc(&c->s->alloc, c->nall ? c->nall : 1, 1);
	if (!c->marks) {
		fail_nomem(c);
		return -1;
	}
	for (i = 0; i < c->nall; i++) {
		struct snode *sn = c->all[i];

		if (inplace_cycle(c, sn, 0))
			return -1;
		if ((sn->has & ~(unsigned)H_RULE) == H_TYPE && !sn->is_false &&
		    !sn->nprops && !sn->additional && !sn->items &&
		    !sn->property_names && !sn->ref && !sn->if_s &&
		    !sn->then_s && !sn->else_s && !sn->nall_of && !sn->nany_of)
			sn->has |= H_TYPE_ONLY;
	}
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
	top = smp__arena_zalloc(c->arena, (n ? n : 1) * sizeof(*keys));
	if (!top) {
		smp__free(&c->s->alloc, keys);
		fail_nomem(c);
		return -1;
	}
	if (n)
		memcpy(top, keys, n * sizeof(*keys));
	c->s->top_keys = top;
	c->s->ntop_keys = n;
	smp__free(&c->s->alloc, keys);
	/* the registered schemas, for smp__schema_part() */
	subs = smp__arena_alloc(c->arena,
				(c->nmemo ? c->nmemo : 1) * sizeof(*subs));
	if (!subs) {
		fail_nomem(c);
		return -1;
	}
	for (i = 0; i < c->nmemo; i++) {
		subs[i].json = c->memo[i].json;
		subs[i].pointer = NULL;
		subs[i].sn = c->memo[i].sn;
	}
	c->s->subs = subs;
	c->s->nsubs = c->nmemo;
	c->s->nnodes = c->nall;
	return 0;
}

/* The registered schema at pointer (see internal.h). */
const struct snode *
smp__schema_part(const struct smp_schema *s, const char *pointer)
{
	const struct smp_node *json;
	size_t i;

	if (!pointer || pointer[0] != '#')
		return NULL;
	if (!s->docs.count) {
		/* embedded: the pointers the generator wrote */
		for (i = 0; i < s->nsubs; i++)
			if (strcmp(s->subs[i].pointer, pointer) == 0)
				return s->subs[i].sn;
		return NULL;
	}
	json = resolve_pointer(s->docs.items[0].root, pointer);
	for (i = 0; json && i < s->nsubs; i++)
		if (s->subs[i].json == json)
			return s->subs[i].sn;
	return NULL;
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
 * built.
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
		smp__error_set(err, SMP_ENOMEM, name, NULL, "%s",
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
	s->pattern_srcs = c.pats;
	s->npatterns = c.npats;
	s->owned_srcs = c.pats;
	if (!c.rc && (rc = smp__schema_patterns_build(s)) != 0)
		c.rc = smp__error_set(err, rc, name, NULL, "%s",
				      smp_strerror(rc));
	smp__free(&s->alloc, c.memo);
	smp__free(&s->alloc, c.all);
	smp__free(&s->alloc, c.pending);
	smp__free(&s->alloc, c.marks);
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
	if (!s)
		return;
	smp__schema_patterns_free(s);
	smp__free(&s->alloc, s->owned_srcs);
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
