/*
 * py_eval.c - the constant evaluator of Python sources (see py_eval.h).
 * A recursive-descent reader over the token array that follows Python's
 * expression grammar closely enough to consume any expression, computing
 * the values it can and UNKNOWN for the rest. Brackets were matched when
 * the tokens were made, so an expression it does not understand is
 * skipped in one step, whatever it holds.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job/py_eval.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/fmath.h"
#include "util/fmt.h"
#include "util/siphash.h"
#include "util/text.h"

#define MAX_DEPTH 100    /* expression nesting evaluated; deeper is skipped */
#define DICT_INDEX_MIN 8 /* keys before a dict gets a hash index */
/* keys before the index is filled: a smaller dict is searched in order,
 * which costs less than hashing its keys */
#define DICT_FILL_MIN 16
#define MAX_BUDGET ((size_t)12 << 20) /* bytes of values at most */

/* One unknown value handed out when the budget is spent or memory ran
 * out: never mutated (only DICT and LIST values are). */
static struct smp_pyval *spent(struct smp_pyeval *ev);

/* The environment's hash index: head[h] is the newest entry + 1 whose
 * name hashes to bucket h (0: none), shadow[k] the head of k's bucket
 * before k was added. The buckets grow with the entries and the hash is
 * keyed (siphash.h), so no source makes its names collide. The index is
 * made once there are more than ENV_INDEX_MIN entries: fewer are searched
 * in order, newest first, which costs less than hashing the names. */
#define ENV_INDEX_MIN 16
struct env_extra {
	size_t *head;
	size_t nbuckets; /* a power of two, or 0 */
	size_t *shadow;
	size_t capshadow;
	struct smp_pyval spent;
};

static struct env_extra *
extra(const struct smp_pyeval *ev)
{
	return (struct env_extra *)ev->priv;
}

void
smp__pyeval_init(struct smp_pyeval *ev, const struct smp_allocator *a,
		 const struct smp_pymodel *m, const struct smp_hashkey *key)
{
	size_t len = m->len;

	memset(ev, 0, sizeof(*ev));
	smp__arena_init(&ev->arena, a);
	ev->alloc = a;
	ev->buf = m->buf;
	ev->len = m->len;
	ev->m = m;
	ev->hkey = *key;
	/* values may take some multiple of the source, never unbounded:
	 * with the model's tokens a large launcher stays within 64 MiB */
	ev->budget = len * 16 + ((size_t)4 << 20);
	if (ev->budget > MAX_BUDGET)
		ev->budget = MAX_BUDGET;
	ev->max_str = (size_t)64 << 10;
	ev->priv = smp__calloc(a, 1, sizeof(struct env_extra));
	if (!ev->priv)
		ev->oom = 1;
	else
		extra(ev)->spent.job = -1;
}

void
smp__pyeval_release(struct smp_pyeval *ev)
{
	if (ev->priv) {
		smp__free(ev->alloc, extra(ev)->shadow);
		smp__free(ev->alloc, extra(ev)->head);
		smp__free(ev->alloc, ev->priv);
	}
	smp__free(ev->alloc, ev->env);
	smp__arena_release(&ev->arena);
	ev->priv = NULL;
	ev->env = NULL;
	ev->nenv = ev->capenv = 0;
}

static struct smp_pyval *
spent(struct smp_pyeval *ev)
{
	struct smp_pyval *v = &extra(ev)->spent;

	v->kind = SMP_PV_UNKNOWN;
	return v;
}

/* ------------------------------------------------------------ tokens */

static const struct smp_pytoken *
tk(const struct smp_pyeval *ev, size_t i)
{
	return smp__pym_tok(ev->m, i);
}

static int
is_op(const struct smp_pyeval *ev, size_t i, const char *s)
{
	return smp__pym_op(ev->m, i, s);
}

static int
is_name(const struct smp_pyeval *ev, size_t i, const char *s)
{
	return smp__pym_name(ev->m, i, s);
}

static int
is_open(const struct smp_pyeval *ev, size_t i)
{
	return smp__pym_is_open(ev->m, i);
}

#define OPBIT(x) ((uint64_t)1 << (x))

/* The operators that end an expression at its level. */
static const uint64_t stop_ops =
	OPBIT(SMP_PYOP_COMMA) | OPBIT(SMP_PYOP_RPAR) | OPBIT(SMP_PYOP_RSQB) |
	OPBIT(SMP_PYOP_RBRACE) | OPBIT(SMP_PYOP_EQUAL) | OPBIT(SMP_PYOP_COLON) |
	OPBIT(SMP_PYOP_COLONEQUAL) | OPBIT(SMP_PYOP_SEMI) |
	OPBIT(SMP_PYOP_PLUSEQUAL) | OPBIT(SMP_PYOP_MINEQUAL) |
	OPBIT(SMP_PYOP_STAREQUAL) | OPBIT(SMP_PYOP_SLASHEQUAL) |
	OPBIT(SMP_PYOP_DOUBLESLASHEQUAL) | OPBIT(SMP_PYOP_PERCENTEQUAL) |
	OPBIT(SMP_PYOP_DOUBLESTAREQUAL) | OPBIT(SMP_PYOP_VBAREQUAL) |
	OPBIT(SMP_PYOP_AMPEREQUAL) | OPBIT(SMP_PYOP_CIRCUMFLEXEQUAL) |
	OPBIT(SMP_PYOP_RSHIFTEQUAL) | OPBIT(SMP_PYOP_LSHIFTEQUAL) |
	OPBIT(SMP_PYOP_ATEQUAL) | OPBIT(SMP_PYOP_RARROW);

/* Token i's operator code (SMP_PYOP_NONE for no operator) and keyword
 * code (SMP_PYKW_NONE for no keyword). */
static unsigned
opc(const struct smp_pyeval *ev, size_t i)
{
	return smp__pym_opcode(ev->m, i);
}

static unsigned
kwc(const struct smp_pyeval *ev, size_t i)
{
	return smp__pym_kw(ev->m, i);
}

/* A token that ends an expression at its level. */
static int
is_stop(const struct smp_pyeval *ev, size_t i)
{
	const struct smp_pytoken *t = tk(ev, i);

	switch (t->kind) {
	case SMP_PYTOK_END:
	case SMP_PYTOK_NEWLINE:
	case SMP_PYTOK_INDENT:
	case SMP_PYTOK_DEDENT:
		return 1;
	case SMP_PYTOK_NAME:
		return t->code == SMP_PYKW_FOR || t->code == SMP_PYKW_ASYNC ||
		       t->code == SMP_PYKW_ELSE || t->code == SMP_PYKW_FROM;
	case SMP_PYTOK_OP:
		return ((stop_ops >> t->code) & 1) != 0;
	default:
		return 0;
	}
}

/* Skips one expression at this level: brackets in one step. */
static void
skip_expr(const struct smp_pyeval *ev, size_t *i)
{
	while (*i < ev->m->ntoks) {
		if (is_open(ev, *i)) {
			*i = tk(ev, *i)->match + 1;
			continue;
		}
		if (is_stop(ev, *i)) {
			/* a lambda's ':' and a ternary's 'else' do not end it
			 */
			break;
		}
		(*i)++;
	}
}

/* ------------------------------------------------------------ values */

/* size bytes of the values' budget, zeroed when zero is set. */
static void *
vget(struct smp_pyeval *ev, size_t size, int zero)
{
	void *p;

	if (ev->oom)
		return NULL;
	if (ev->arena.total + size > ev->budget) {
		if (!ev->limited) {
			ev->limited = 1;
			ev->limit_at = ev->at;
		}
		return NULL;
	}
	p = zero ? smp__arena_zalloc(&ev->arena, size)
		 : smp__arena_alloc(&ev->arena, size);
	if (!p)
		ev->oom = 1;
	return p;
}

static void *
valloc(struct smp_pyeval *ev, size_t size)
{
	return vget(ev, size, 1);
}

static struct smp_pyval *
span(struct smp_pyeval *ev, enum smp_pyval_kind kind, size_t from, size_t to)
{
	struct smp_pyval *v = vget(ev, sizeof(*v), 0);
	const struct smp_pytoken *a, *b;

	if (!v)
		return NULL;
	if (to <= from)
		to = from + 1;
	a = tk(ev, from);
	b = tk(ev, to - 1);
	/* every other member zero, as one assignment */
	*v = (struct smp_pyval){.kind = kind, .job = -1};
	v->start = smp__pym_start(ev->m, from);
	v->end = smp__pym_end(ev->m, to - 1);
	v->src_off = a->off;
	v->src_len = b->off + b->len - v->src_off;
	return v;
}

struct smp_pyval *
smp__pyval_unknown(struct smp_pyeval *ev, size_t from, size_t to)
{
	struct smp_pyval *v = span(ev, SMP_PV_UNKNOWN, from, to);

	return v ? v : spent(ev);
}

static struct smp_pyval *
mk(struct smp_pyeval *ev, enum smp_pyval_kind kind, size_t from, size_t to)
{
	struct smp_pyval *v = span(ev, kind, from, to);

	return v ? v : spent(ev);
}

struct smp_pyval *
smp__pyval_module(struct smp_pyeval *ev, const char *path, size_t len,
		  size_t at)
{
	struct smp_pyval *v = span(ev, SMP_PV_MODULE, at, at + 1);

	if (!v)
		return spent(ev);
	v->text = path;
	v->len = len;
	return v;
}

static struct smp_pyval *
mk_num(struct smp_pyeval *ev, int is_int, long long i, double f, size_t from,
       size_t to)
{
	struct smp_pyval *v =
		mk(ev, is_int ? SMP_PV_INT : SMP_PV_FLOAT, from, to);

	if (v->kind == SMP_PV_UNKNOWN)
		return v;
	v->i = i;
	v->f = f;
	return v;
}

static struct smp_pyval *
mk_str(struct smp_pyeval *ev, const char *s, size_t n, size_t from, size_t to)
{
	struct smp_pyval *v;
	char *copy;

	if (n > ev->max_str)
		return smp__pyval_unknown(ev, from, to);
	v = mk(ev, SMP_PV_STR, from, to);
	if (v->kind == SMP_PV_UNKNOWN)
		return v;
	copy = vget(ev, n + 1, 0);
	if (!copy)
		return spent(ev);
	memcpy(copy, s, n);
	copy[n] = '\0';
	v->text = copy;
	v->len = n;
	return v;
}

/* ------------------------------------------------------ dict index */

/* A dict's keys by hash: open addressing, slots hold a key's index + 1.
 * It is made at DICT_INDEX_MIN keys (so that the values' budget is spent
 * as it always was) and filled at DICT_FILL_MIN. */
struct smp_pyindex {
	size_t *slots;
	size_t cap;                    /* a power of two */
	const struct smp_hashkey *key; /* NULL: not filled yet */
};

static int hashable_key(const struct smp_pyval *k);
static int same_key(const struct smp_pyval *a, const struct smp_pyval *b);

static uint64_t
key_hash(const struct smp_hashkey *hk, const struct smp_pyval *k)
{
	/* the hash is kept in the key: a value's text and number never
	 * change once made (the cache is no change of the value) */
	struct smp_pyval *memo = (struct smp_pyval *)(uintptr_t)k;
	uint64_t h;

	if (k->hashed)
		return k->hash;
	if (k->kind == SMP_PV_STR)
		h = smp__siphash(hk, k->text, k->len);
	else if (k->kind == SMP_PV_NONE)
		h = 0x9e3779b97f4a7c15ULL;
	else /* int and bool alike: True == 1 */
		h = smp__siphash(hk, &k->i, sizeof(k->i)) ^ 1u;
	memo->hash = (uint32_t)h;
	memo->hashed = 1;
	return memo->hash;
}

/* The slot of key: its key's index + 1 in *found (0 when absent) and
 * the slot in *at. */
static void
index_probe(const struct smp_pyval *d, const struct smp_pyval *key,
	    size_t *found, size_t *at)
{
	const struct smp_pyindex *x = d->index;
	size_t i = (size_t)key_hash(x->key, key) & (x->cap - 1);

	for (;; i = (i + 1) & (x->cap - 1)) {
		size_t j = x->slots[i];

		if (!j || same_key(d->keys[j - 1], key)) {
			*found = j;
			*at = i;
			return;
		}
	}
}

/* Enters key k (an index into d->keys): the newest of equal keys wins,
 * as the search from the end finds it. */
static void
index_put(struct smp_pyval *d, size_t k)
{
	size_t found, at;

	if (!hashable_key(d->keys[k]))
		return;
	index_probe(d, d->keys[k], &found, &at);
	d->index->slots[at] = k + 1;
}

/* Fills d's index with its keys. */
static void
index_fill(struct smp_pyeval *ev, struct smp_pyval *d)
{
	size_t k;

	d->index->key = &ev->hkey;
	for (k = 0; k < d->count; k++)
		index_put(d, k);
}

/* Builds or grows d's index for its keys: 0, or -1 without memory (the
 * dict then cannot be followed). */
static int
index_build(struct smp_pyeval *ev, struct smp_pyval *d)
{
	size_t cap = d->index ? d->index->cap : 16;

	while (cap < d->count * 2)
		cap *= 2;
	if (!d->index) {
		struct smp_pyindex *x = valloc(ev, sizeof(*x));

		if (!x)
			return -1;
		x->key = NULL;
		x->slots = NULL;
		d->index = x;
	}
	d->index->slots = valloc(ev, cap * sizeof(size_t));
	if (!d->index->slots) {
		d->index = NULL;
		return -1;
	}
	d->index->cap = cap;
	if (d->index->key || d->count >= DICT_FILL_MIN)
		index_fill(ev, d);
	return 0;
}

/* The index + 1 of key in DICT or OBJECT d, 0 if absent. */
static size_t
find_key(const struct smp_pyval *d, const struct smp_pyval *key)
{
	size_t k, found, at;

	if (!d->count)
		return 0;
	if (d->index && d->index->key) {
		index_probe(d, key, &found, &at);
		return found;
	}
	for (k = d->count; k-- > 0;)
		if (d->keys[k] && same_key(d->keys[k], key))
			return k + 1;
	return 0;
}

static int
push_item(struct smp_pyeval *ev, struct smp_pyval *c, struct smp_pyval *key,
	  struct smp_pyval *v)
{
	if (c->count == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 8;
		struct smp_pyval **items =
			valloc(ev, cap * sizeof(struct smp_pyval *));
		struct smp_pyval **keys = NULL;

		if (!items)
			return -1;
		if (c->kind == SMP_PV_DICT || c->kind == SMP_PV_OBJECT) {
			keys = valloc(ev, cap * sizeof(struct smp_pyval *));
			if (!keys)
				return -1;
			if (c->count)
				memcpy(keys, c->keys,
				       c->count * sizeof(struct smp_pyval *));
		}
		if (c->count)
			memcpy(items, c->items,
			       c->count * sizeof(struct smp_pyval *));
		c->items = items;
		c->keys = keys;
		c->cap = cap;
	}
	if (c->keys)
		c->keys[c->count] = key;
	c->items[c->count++] = v;
	if (c->keys && key) {
		if (c->index && c->count * 2 <= c->index->cap) {
			if (c->index->key)
				index_put(c, c->count - 1);
			else if (c->count >= DICT_FILL_MIN)
				index_fill(ev, c);
		} else if (c->count >= DICT_INDEX_MIN && index_build(ev, c))
			return -1;
	}
	return 0;
}

struct smp_pyval *
smp__pyval_get(const struct smp_pyval *d, const char *key, size_t len)
{
	struct smp_pyval want;
	size_t k;

	if (!d || (d->kind != SMP_PV_DICT && d->kind != SMP_PV_OBJECT))
		return NULL;
	memset(&want, 0, sizeof(want));
	want.kind = SMP_PV_STR;
	want.text = key;
	want.len = len;
	k = find_key(d, &want);
	return k && d->items ? d->items[k - 1] : NULL;
}

/* A key usable in a dict display: a string, int or bool. */
static int
hashable_key(const struct smp_pyval *k)
{
	return k->kind == SMP_PV_STR || k->kind == SMP_PV_INT ||
	       k->kind == SMP_PV_BOOL || k->kind == SMP_PV_NONE;
}

static int
same_key(const struct smp_pyval *a, const struct smp_pyval *b)
{
	if (a->kind == SMP_PV_STR || b->kind == SMP_PV_STR)
		return a->kind == b->kind && a->len == b->len &&
		       memcmp(a->text, b->text, a->len) == 0;
	if (a->kind == SMP_PV_NONE || b->kind == SMP_PV_NONE)
		return a->kind == b->kind;
	return a->i == b->i; /* int and bool: True == 1 as in Python */
}

int
smp__pyval_set(struct smp_pyeval *ev, struct smp_pyval *d,
	       struct smp_pyval *key, struct smp_pyval *v)
{
	size_t k;

	if (d->kind != SMP_PV_DICT && d->kind != SMP_PV_OBJECT)
		return -1;
	if (!hashable_key(key)) {
		d->kind = SMP_PV_UNKNOWN; /* which key changed is not known */
		return 0;
	}
	k = find_key(d, key);
	if (k && d->items) {
		d->items[k - 1] = v; /* the key keeps its first position */
		return 0;
	}
	if (push_item(ev, d, key, v)) {
		d->kind = SMP_PV_UNKNOWN;
		return -1;
	}
	return 0;
}

/* A STR value text[0..n) written at start..end, outside the tokens. */
static struct smp_pyval *
str_at(struct smp_pyeval *ev, const char *text, size_t n, struct smp_pos start,
       struct smp_pos end)
{
	struct smp_pyval *v = valloc(ev, sizeof(*v));
	char *p = valloc(ev, n + 1);

	if (!v || !p)
		return NULL;
	memcpy(p, text, n);
	v->kind = SMP_PV_STR;
	v->job = -1;
	v->text = p;
	v->len = n;
	v->start = start;
	v->end = end;
	v->src_off = start.offset;
	v->src_len = end.offset - start.offset;
	return v;
}

int
smp__pyeval_environ_set(struct smp_pyeval *ev, struct smp_pyval *key,
			struct smp_pyval *v)
{
	if (!key || !v)
		return -1;
	if (!ev->environ) {
		ev->environ = valloc(ev, sizeof(*ev->environ));
		if (!ev->environ)
			return -1;
		ev->environ->kind = SMP_PV_DICT;
		ev->environ->job = -1;
		ev->environ->start = key->start;
		ev->environ->end = v->end;
	}
	if (ev->environ->kind != SMP_PV_DICT)
		return 0; /* already unknown */
	if (key->kind != SMP_PV_STR) {
		/* an unknown name may be any variable */
		ev->environ->kind = SMP_PV_UNKNOWN;
		return 0;
	}
	return smp__pyval_set(ev, ev->environ, key, v);
}

int
smp__pyeval_setenv(struct smp_pyeval *ev, const char *name, size_t nlen,
		   const char *value, size_t vlen, struct smp_pos start,
		   struct smp_pos end)
{
	return smp__pyeval_environ_set(ev, str_at(ev, name, nlen, start, start),
				       str_at(ev, value, vlen, start, end));
}

/* The region boto3 would read from the environment now
 * (AWS_DEFAULT_REGION, as botocore's configprovider does), when the
 * source set it; an UNKNOWN when it may have; NULL when it did not. */
static const struct smp_pyval *
environ_region(const struct smp_pyeval *ev)
{
	if (!ev->environ)
		return NULL;
	if (ev->environ->kind != SMP_PV_DICT)
		return ev->environ;
	return smp__pyval_get(ev->environ, "AWS_DEFAULT_REGION", 18);
}

/* The region of a session or client object v (sagemaker.Session: its
 * boto_session's); NULL when v says none. */
static const struct smp_pyval *
region_of(const struct smp_pyval *v)
{
	const struct smp_pyval *r;

	if (!v || v->kind != SMP_PV_OBJECT)
		return v && v->kind == SMP_PV_UNKNOWN ? v : NULL;
	if (v->cls == SMP_PYCLS_BOTO3_SESSION) {
		r = smp__pyval_get(v, "region_name", 11);
		if (r && r->kind != SMP_PV_NONE)
			return r;
		return v->region;
	}
	if (v->cls == SMP_PYCLS_SM_SESSION) {
		r = smp__pyval_get(v, "boto_session", 12);
		if (r && r->kind != SMP_PV_NONE)
			return region_of(r);
		return v->region;
	}
	return v->region;
}

/* The region a job object made from the keyword arguments call is
 * created in: its sagemaker_session's, else the environment's. */
static const struct smp_pyval *
job_region(const struct smp_pyeval *ev, const struct smp_pyval *call)
{
	const struct smp_pyval *sess =
		smp__pyval_get(call, "sagemaker_session", 17);

	if (sess && sess->kind != SMP_PV_NONE)
		return region_of(sess);
	return environ_region(ev);
}

/* A shallow copy of a DICT, LIST or TUPLE positioned on [from, to). */
static struct smp_pyval *
copy_container(struct smp_pyeval *ev, const struct smp_pyval *c,
	       enum smp_pyval_kind kind, size_t from, size_t to)
{
	struct smp_pyval *v = mk(ev, kind, from, to);
	size_t k;

	for (k = 0; v->kind != SMP_PV_UNKNOWN && k < c->count; k++) {
		int rc =
			kind == SMP_PV_DICT
				? smp__pyval_set(ev, v, c->keys[k], c->items[k])
				: push_item(ev, v, NULL, c->items[k]);
		if (rc)
			return smp__pyval_unknown(ev, from, to);
	}
	return v;
}

/* ------------------------------------------------------- environment */

static size_t
hash_name(const struct smp_pyeval *ev, const char *s, size_t n)
{
	return (size_t)smp__siphash(&ev->hkey, s, n) &
	       (extra(ev)->nbuckets - 1);
}

/* Doubles the buckets when the entries reach half of them. */
static int
env_rehash(struct smp_pyeval *ev, size_t want)
{
	struct env_extra *x = extra(ev);
	size_t n = x->nbuckets ? x->nbuckets : 64, k, h;
	size_t *head;

	if (want * 2 <= x->nbuckets)
		return 0;
	while (want * 2 > n)
		n *= 2;
	head = smp__calloc(ev->alloc, n, sizeof(size_t));
	if (!head)
		return -1;
	smp__free(ev->alloc, x->head);
	x->head = head;
	x->nbuckets = n;
	for (k = 0; k < ev->nenv; k++) {
		h = hash_name(ev, ev->env[k].name, ev->env[k].len);
		x->shadow[k] = head[h];
		head[h] = k + 1;
	}
	return 0;
}

int
smp__pyeval_bind(struct smp_pyeval *ev, const char *name, size_t len,
		 struct smp_pyval *v)
{
	struct env_extra *x = extra(ev);
	void *items = ev->env, *shadow;
	size_t h, capshadow;

	if (!x)
		return -1;
	shadow = x->shadow;
	capshadow = x->capshadow;
	if (smp__grow(ev->alloc, &items, &ev->capenv, ev->nenv + 1,
		      sizeof(*ev->env))) {
		ev->oom = 1;
		return -1;
	}
	ev->env = items;
	ev->env[ev->nenv].name = name;
	ev->env[ev->nenv].len = len;
	ev->env[ev->nenv].val = v;
	if (!x->nbuckets && ev->nenv + 1 <= ENV_INDEX_MIN) {
		ev->nenv++;
		return 0; /* no index yet */
	}
	if (smp__grow(ev->alloc, &shadow, &capshadow, ev->nenv + 1,
		      sizeof(size_t))) {
		ev->oom = 1;
		return -1;
	}
	x->shadow = shadow;
	x->capshadow = capshadow;
	if (env_rehash(ev, ev->nenv + 1)) {
		ev->oom = 1;
		return -1;
	}
	h = hash_name(ev, name, len);
	x->shadow[ev->nenv] = x->head[h];
	x->head[h] = ev->nenv + 1;
	ev->nenv++;
	return 0;
}

void
smp__pyeval_truncate(struct smp_pyeval *ev, size_t n)
{
	struct env_extra *x = extra(ev);

	if (x && !x->nbuckets) {
		if (ev->nenv > n)
			ev->nenv = n; /* no index to undo */
		return;
	}
	while (x && ev->nenv > n) {
		struct smp_pyenv_entry *e = &ev->env[--ev->nenv];

		x->head[hash_name(ev, e->name, e->len)] = x->shadow[ev->nenv];
	}
}

struct smp_pyval *
smp__pyeval_lookup(const struct smp_pyeval *ev, const char *name, size_t len)
{
	const struct env_extra *x = extra(ev);
	size_t k;

	if (!x)
		return NULL;
	if (!x->nbuckets) {
		for (k = ev->nenv; k-- > 0;) {
			const struct smp_pyenv_entry *e = &ev->env[k];

			if (e->len == len && memcmp(e->name, name, len) == 0)
				return e->val;
		}
		return NULL;
	}
	for (k = x->head[hash_name(ev, name, len)]; k; k = x->shadow[k - 1]) {
		const struct smp_pyenv_entry *e = &ev->env[k - 1];

		if (e->len == len && memcmp(e->name, name, len) == 0)
			return e->val;
	}
	return NULL;
}

/* ----------------------------------------------------------- numbers */

void
smp__pyfloat_repr(char *out, size_t size, double f)
{
	int prec;

	if (isnan(f)) {
		snprintf(out, size, ".nan");
		return;
	}
	if (isinf(f)) {
		snprintf(out, size, f < 0 ? "-.inf" : ".inf");
		return;
	}
	for (prec = 1; prec <= 17; prec++) {
		snprintf(out, size, "%.*g", prec, f);
		if (strtod(out, NULL) == f)
			break;
	}
	/* a float reads as one: 3 -> 3.0, 1e+20 stays */
	if (!strpbrk(out, ".eE")) {
		size_t n = strlen(out);

		if (n + 2 < size)
			memcpy(out + n, ".0", 3);
	}
}

static int
is_num(const struct smp_pyval *v)
{
	return v->kind == SMP_PV_INT || v->kind == SMP_PV_FLOAT ||
	       v->kind == SMP_PV_BOOL;
}

static double
num_f(const struct smp_pyval *v)
{
	return v->kind == SMP_PV_FLOAT ? v->f : (double)v->i;
}

/* A Python numeric literal; 0 and the value, or -1 (imaginary, bad). */
static int
parse_number(const char *s, size_t n, int *is_int, long long *iv, double *fv)
{
	char tmp[128];
	size_t k, m = 0;
	int base = 10;
	char *end;

	if (n >= sizeof(tmp))
		return -1;
	for (k = 0; k < n; k++)
		if (s[k] != '_')
			tmp[m++] = s[k];
	tmp[m] = '\0';
	if (m && (tmp[m - 1] == 'j' || tmp[m - 1] == 'J'))
		return -1;
	if (m > 1 && tmp[0] == '0' && strchr("xXoObB", tmp[1])) {
		unsigned long long u;

		base = tmp[1] == 'x' || tmp[1] == 'X'   ? 16
		       : tmp[1] == 'o' || tmp[1] == 'O' ? 8
							: 2;
		u = strtoull(tmp + 2, &end, base);
		if (*end || end == tmp + 2 || u > (unsigned long long)LLONG_MAX)
			return -1;
		*is_int = 1;
		*iv = (long long)u;
		return 0;
	}
	if (!strpbrk(tmp, ".eE")) {
		unsigned long long u = strtoull(tmp, &end, 10);

		if (*end || u > (unsigned long long)LLONG_MAX)
			return -1;
		*is_int = 1;
		*iv = (long long)u;
		return 0;
	}
	*fv = strtod(tmp, &end);
	if (*end)
		return -1;
	*is_int = 0;
	return 0;
}

/* 1 when a float literal reads the same in YAML: no '_', no 'j'. */
static int
plain_float(const char *s, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (!strchr("0123456789.eE+-", s[k]) || !s[k])
			return 0;
	return 1;
}

/* ----------------------------------------------------------- strings */

/*
 * Decodes the escapes of a non-raw string body into out (at most blen
 * bytes: escapes never grow). Returns the length, or (size_t)-1 for an
 * escape whose value is not worth knowing (\N{...}, a lone surrogate).
 */
static size_t
unescape(char *out, const char *b, size_t blen)
{
	size_t i = 0, o = 0;

	while (i < blen) {
		unsigned long cp = 0;
		int digits = 0, k;

		if (b[i] != '\\' || i + 1 >= blen) {
			out[o++] = b[i++];
			continue;
		}
		i++;
		switch (b[i]) {
		case '\n':
			i++;
			continue;
		case 'n':
			out[o++] = '\n';
			break;
		case 't':
			out[o++] = '\t';
			break;
		case 'r':
			out[o++] = '\r';
			break;
		case '0':
		case '1':
		case '2':
		case '3':
		case '4':
		case '5':
		case '6':
		case '7':
			for (k = 0;
			     k < 3 && i < blen && b[i] >= '0' && b[i] <= '7';
			     k++)
				cp = cp * 8 + (unsigned long)(b[i++] - '0');
			if (cp > 0x7F)
				return (size_t)-1;
			out[o++] = (char)cp;
			continue;
		case 'x':
			digits = 2;
			break;
		case 'u':
			digits = 4;
			break;
		case 'U':
			digits = 8;
			break;
		case '\\':
		case '\'':
		case '"':
			out[o++] = b[i];
			break;
		case 'a':
			out[o++] = '\a';
			break;
		case 'b':
			out[o++] = '\b';
			break;
		case 'f':
			out[o++] = '\f';
			break;
		case 'v':
			out[o++] = '\v';
			break;
		case 'N':
			return (size_t)-1;
		default:
			out[o++] = '\\'; /* unknown escapes stay as written */
			out[o++] = b[i];
			break;
		}
		if (digits) {
			for (k = 0; k < digits; k++) {
				int h = i + 1 + (size_t)k < blen
						? smp__hex_value(
							  b[i + 1 + (size_t)k])
						: -1;
				if (h < 0)
					return (size_t)-1;
				cp = cp * 16 + (unsigned long)h;
			}
			i += (size_t)digits;
			if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
				return (size_t)-1;
			/* "\xHH" is at most 4 bytes of input, 2 of output */
			o = (size_t)(smp__utf8_put(out + o, cp) - out);
		}
		i++;
	}
	return o;
}

/* A string value being built: its bytes (at most max_str), and whether a
 * part of it is unknown or it grew too long. */
struct pystr {
	struct smp_buf text;
	int bad;
};

static void
ps_init(struct smp_pyeval *ev, struct pystr *b)
{
	smp__buf_init(&b->text, ev->alloc, ev->max_str);
	b->bad = 0;
}

static void
ps_add(struct smp_pyeval *ev, struct pystr *b, const char *s, size_t n)
{
	if (b->bad || !n)
		return;
	if (smp__buf_add(&b->text, s, n)) {
		b->bad = 1;
		if (b->text.oom)
			ev->oom = 1;
	}
}

/* The value built, or unknown; frees the bytes. */
static struct smp_pyval *
ps_value(struct smp_pyeval *ev, struct pystr *b, size_t from, size_t to)
{
	struct smp_pyval *v = b->bad ? smp__pyval_unknown(ev, from, to)
				     : mk_str(ev, smp__buf_str(&b->text),
					      b->text.len, from, to);

	smp__buf_free(&b->text);
	return v;
}

struct smp_pyval *
smp__pyeval_str_of(struct smp_pyeval *ev, const struct smp_pyval *v,
		   size_t from, size_t to)
{
	char num[64];

	switch (v->kind) {
	case SMP_PV_STR:
		return mk_str(ev, v->text, v->len, from, to);
	case SMP_PV_INT:
		smp__fmt(num, sizeof(num), "%lld", v->i);
		break;
	case SMP_PV_FLOAT:
		if (isnan(v->f) || isinf(v->f))
			snprintf(num, sizeof(num), "%s",
				 isnan(v->f) ? "nan"
				 : v->f < 0  ? "-inf"
					     : "inf");
		else
			smp__pyfloat_repr(num, sizeof(num), v->f);
		break;
	case SMP_PV_BOOL:
		snprintf(num, sizeof(num), "%s", v->i ? "True" : "False");
		break;
	case SMP_PV_NONE:
		snprintf(num, sizeof(num), "None");
		break;
	default:
		return smp__pyval_unknown(ev, from, to);
	}
	return mk_str(ev, num, strlen(num), from, to);
}

static struct smp_pyval *eval_expr(struct smp_pyeval *ev, size_t *i);

/*
 * One replacement field {expr} of an f-string body: the expression is
 * tokenized on its own and evaluated in the same environment. A
 * conversion (!r) or format spec (:.2f) makes it unknown, except !s.
 */
static void
fstring_field(struct smp_pyeval *ev, struct pystr *b, const char *s, size_t n)
{
	struct smp_pymodel fm;
	const struct smp_pymodel *saved = ev->m;
	const char *savedbuf = ev->buf;
	size_t savedlen = ev->len, i = 0;
	struct smp_pyval *v;

	/* the field is never longer than the f-string's own line */
	while (n && (s[n - 1] == ' ' || s[n - 1] == '='))
		if (s[--n] == '=') {
			b->bad = 1; /* the self-documenting f"{x=}" */
			return;
		}
	if (smp__pymodel_build(&fm, ev->alloc, s, n)) {
		ev->oom = 1;
		b->bad = 1;
		return;
	}
	if (fm.syntax || fm.ntoks > 64) {
		smp__pymodel_release(&fm);
		b->bad = 1;
		return;
	}
	ev->m = &fm;
	ev->buf = s;
	ev->len = n;
	v = eval_expr(ev, &i);
	/* what follows the expression: nothing, !s, or a spec */
	if (!(tk(ev, i)->kind == SMP_PYTOK_NEWLINE ||
	      tk(ev, i)->kind == SMP_PYTOK_END))
		b->bad = 1;
	ev->m = saved;
	ev->buf = savedbuf;
	ev->len = savedlen;
	smp__pymodel_release(&fm);
	if (b->bad)
		return;
	switch (v->kind) {
	case SMP_PV_STR:
		ps_add(ev, b, v->text, v->len);
		return;
	case SMP_PV_INT:
	case SMP_PV_FLOAT:
	case SMP_PV_BOOL:
	case SMP_PV_NONE: {
		struct smp_pyval *sv = smp__pyeval_str_of(ev, v, 0, 1);

		if (sv->kind == SMP_PV_STR)
			ps_add(ev, b, sv->text, sv->len);
		else
			b->bad = 1;
		return;
	}
	default:
		b->bad = 1;
	}
}

/* The value of an f-string body into b (escapes, {{, }}, fields). */
static void
fstring(struct smp_pyeval *ev, struct pystr *b, const char *s, size_t n,
	int raw)
{
	size_t i = 0;

	while (i < n && !b->bad) {
		size_t j = i;

		while (j < n && s[j] != '{' && s[j] != '}')
			j++;
		if (j > i) {
			if (raw) {
				ps_add(ev, b, s + i, j - i);
			} else {
				char *tmp = valloc(ev, j - i + 1);
				size_t m = tmp ? unescape(tmp, s + i, j - i)
					       : (size_t)-1;

				if (m == (size_t)-1)
					b->bad = 1;
				else
					ps_add(ev, b, tmp, m);
			}
		}
		if (j >= n)
			break;
		if (j + 1 < n && s[j + 1] == s[j]) {
			ps_add(ev, b, s + j, 1); /* {{ or }} */
			i = j + 2;
			continue;
		}
		if (s[j] == '}') {
			b->bad = 1;
			break;
		}
		{
			/* the field: up to its matching '}', skipping
			 * nested brackets and strings */
			size_t k = j + 1, level = 0;
			char q = 0;

			for (; k < n; k++) {
				char c = s[k];

				if (q) {
					if (c == q)
						q = 0;
					continue;
				}
				if (c == '\'' || c == '"')
					q = c;
				else if (c == '(' || c == '[' || c == '{')
					level++;
				else if ((c == ')' || c == ']' || c == '}') &&
					 level)
					level--;
				else if (c == '}' ||
					 (!level && (c == '!' || c == ':')))
					break;
			}
			if (k >= n) {
				b->bad = 1;
				break;
			}
			if (s[k] == '!' && k + 2 < n && s[k + 1] == 's' &&
			    s[k + 2] == '}') {
				fstring_field(ev, b, s + j + 1, k - j - 1);
				i = k + 3;
				continue;
			}
			if (s[k] != '}') {
				b->bad = 1;
				break;
			}
			fstring_field(ev, b, s + j + 1, k - j - 1);
			i = k + 1;
		}
	}
}

/* The tokenizer's view of a model token, for smp__pystr_body(). */
static struct smp_pytok
as_pytok(const struct smp_pytoken *x)
{
	struct smp_pytok t;

	memset(&t, 0, sizeof(t));
	t.kind = x->kind;
	t.flags = x->flags;
	t.off = x->off;
	t.len = x->len;
	return t;
}

/* Adjacent string literals as one value ("a" "b" f"{c}"). */
static struct smp_pyval *
eval_strings(struct smp_pyeval *ev, size_t *i)
{
	size_t from = *i;
	struct pystr b;
	const struct smp_pytoken *one = tk(ev, *i);

	if (!(one->flags &
	      (SMP_PYSTR_BYTES | SMP_PYSTR_UNTERMINATED | SMP_PYSTR_FORMAT)) &&
	    tk(ev, *i + 1)->kind != SMP_PYTOK_STRING) {
		/* one plain literal: its body, when it is the value, without
		 * building it piece by piece */
		struct smp_pytok t = as_pytok(one);
		const char *body;
		size_t blen;

		if (smp__pystr_body(&t, ev->buf, &body, &blen) ||
		    (one->flags & SMP_PYSTR_RAW)) {
			(*i)++;
			return mk_str(ev, body, blen, from, *i);
		}
	}
	ps_init(ev, &b);
	while (tk(ev, *i)->kind == SMP_PYTOK_STRING) {
		const struct smp_pytoken *x = tk(ev, *i);
		struct smp_pytok t = as_pytok(x);
		const char *body;
		size_t blen;
		int exact;

		exact = smp__pystr_body(&t, ev->buf, &body, &blen);
		(*i)++;
		if (x->flags & (SMP_PYSTR_BYTES | SMP_PYSTR_UNTERMINATED)) {
			b.bad = 1;
			continue;
		}
		if (x->flags & SMP_PYSTR_FORMAT) {
			fstring(ev, &b, body, blen,
				(x->flags & SMP_PYSTR_RAW) != 0);
		} else if (exact || (x->flags & SMP_PYSTR_RAW)) {
			ps_add(ev, &b, body, blen);
		} else {
			char *tmp = valloc(ev, blen + 1);
			size_t m = tmp ? unescape(tmp, body, blen) : (size_t)-1;

			if (m == (size_t)-1)
				b.bad = 1;
			else
				ps_add(ev, &b, tmp, m);
		}
	}
	return ps_value(ev, &b, from, *i);
}

/* ----------------------------------------------------- class lookup */

/* 1 when the last dotted part of path[0..n) is last (no dot in it):
 * lp[0..ln) is that part. */
static int
ends_with_part(const char *lp, size_t ln, const char *last)
{
	size_t m = strlen(last);

	return ln == m && memcmp(lp, last, m) == 0;
}

static int
starts_with(const char *path, size_t n, const char *prefix)
{
	size_t m = strlen(prefix);

	return n >= m && memcmp(path, prefix, m) == 0;
}

/* The class a dotted path names, from the SageMaker and boto3 modules. */
static enum smp_pycls
class_of(const char *p, size_t n)
{
	static const char *const helpers[] = {"Compute",
					      "SourceCode",
					      "Torchrun",
					      "MPI",
					      "SMP",
					      "Networking",
					      "StoppingCondition",
					      "OutputDataConfig",
					      "CheckpointConfig",
					      "InputData",
					      "TrainingImageConfig",
					      "RemoteDebugConfig",
					      "SessionChainingConfig",
					      "InfraCheckConfig",
					      "RetryStrategy",
					      NULL};
	size_t k, ln = n;
	const char *lp;

	while (ln > 0 && p[ln - 1] != '.')
		ln--;
	lp = p + ln; /* the last part */
	ln = n - ln;
	if (starts_with(p, n, "boto3.")) {
		if (ends_with_part(lp, ln, "Session"))
			return SMP_PYCLS_BOTO3_SESSION;
		return SMP_PYCLS_NONE;
	}
	if (!starts_with(p, n, "sagemaker.") && !starts_with(p, n, "sagemaker"))
		return SMP_PYCLS_NONE;
	if (ends_with_part(lp, ln, "HyperparameterTuner"))
		return SMP_PYCLS_TUNER;
	if (ends_with_part(lp, ln, "ContinuousParameter") ||
	    ends_with_part(lp, ln, "IntegerParameter"))
		return SMP_PYCLS_RANGE;
	if (ends_with_part(lp, ln, "CategoricalParameter"))
		return SMP_PYCLS_CATEGORICAL;
	if (ends_with_part(lp, ln, "HuggingFace"))
		return SMP_PYCLS_HUGGINGFACE;
	if (ends_with_part(lp, ln, "PyTorch"))
		return SMP_PYCLS_PYTORCH;
	if (ends_with_part(lp, ln, "TensorFlow"))
		return SMP_PYCLS_TENSORFLOW;
	if (ends_with_part(lp, ln, "Estimator") ||
	    ends_with_part(lp, ln, "Framework"))
		return SMP_PYCLS_ESTIMATOR;
	if (ends_with_part(lp, ln, "ModelTrainer"))
		return SMP_PYCLS_MODEL_TRAINER;
	if (ends_with_part(lp, ln, "TrainingCompilerConfig"))
		return SMP_PYCLS_COMPILER_CONFIG;
	if (ends_with_part(lp, ln, "Session"))
		return SMP_PYCLS_SM_SESSION;
	for (k = 0; helpers[k]; k++)
		if (ends_with_part(lp, ln, helpers[k]) &&
		    (starts_with(p, n, "sagemaker.modules") ||
		     starts_with(p, n, "sagemaker.train") ||
		     starts_with(p, n, "sagemaker.core")))
			return SMP_PYCLS_HELPER;
	return SMP_PYCLS_NONE;
}

/* Positional parameters of the constructors that take some. */
static const char *const *
positional_names(enum smp_pycls cls)
{
	static const char *const hf[] = {"py_version", "entry_point",
					 "transformers_version", NULL};
	static const char *const pt[] = {"entry_point", "framework_version",
					 "py_version", NULL};
	static const char *const tf[] = {"py_version", "framework_version",
					 NULL};
	static const char *const cc[] = {"enabled", "debug", NULL};
	static const char *const tuner[] = {"estimator",
					    "objective_metric_name",
					    "hyperparameter_ranges", NULL};
	static const char *const range[] = {"min_value", "max_value", NULL};
	static const char *const values[] = {"values", NULL};
	/* boto3.session.Session and sagemaker.session.Session */
	static const char *const boto[] = {"aws_access_key_id",
					   "aws_secret_access_key",
					   "aws_session_token",
					   "region_name",
					   "botocore_session",
					   "profile_name",
					   NULL};
	static const char *const sm[] = {"boto_session", "sagemaker_client",
					 NULL};
	static const char *const none[] = {NULL};

	switch (cls) {
	case SMP_PYCLS_HUGGINGFACE:
		return hf;
	case SMP_PYCLS_PYTORCH:
		return pt;
	case SMP_PYCLS_TENSORFLOW:
		return tf;
	case SMP_PYCLS_COMPILER_CONFIG:
		return cc;
	case SMP_PYCLS_TUNER:
		return tuner;
	case SMP_PYCLS_RANGE:
		return range;
	case SMP_PYCLS_CATEGORICAL:
		return values;
	case SMP_PYCLS_BOTO3_SESSION:
		return boto;
	case SMP_PYCLS_SM_SESSION:
		return sm;
	default:
		return none;
	}
}

/* ------------------------------------------------------------- calls */

struct args {
	struct smp_pyval *pos;       /* TUPLE of positional arguments */
	struct smp_pyval *kw;        /* DICT of keyword arguments */
	int partial;                 /* an unknown *args or **kwargs */
	const struct smp_pyval *dup; /* a keyword given twice, or NULL */
	size_t dup_at, dup_end;      /* the argument that repeats it */
};

/* Sets keyword key of the call, noting a key given twice. */
static void
set_kw(struct smp_pyeval *ev, struct args *a, struct smp_pyval *key,
       struct smp_pyval *v, size_t at)
{
	size_t k;

	if (a->kw->kind != SMP_PV_DICT)
		return;
	if (!hashable_key(key)) {
		smp__pyval_set(ev, a->kw, key, v); /* the dict is unknown */
		return;
	}
	/* smp__pyval_set() with the one search that finds a repeat */
	k = find_key(a->kw, key);
	if (k && a->kw->items) {
		if (!a->dup) {
			a->dup = key;
			a->dup_at = at;
		}
		a->kw->items[k - 1] = v;
	} else if (push_item(ev, a->kw, key, v)) {
		a->kw->kind = SMP_PV_UNKNOWN;
	}
}

/* A call Python rejects: reported, and unknown. */
static int
type_error(struct smp_pyeval *ev, const struct args *a, size_t callee)
{
	if (!a->dup)
		return 0;
	if (ev->on_type_error)
		ev->on_type_error(ev, callee, a->dup_at, a->dup_end, a->dup);
	return 1;
}

/* Reads the arguments of the call whose '(' is at *i; *i past ')'. */
static void
eval_args(struct smp_pyeval *ev, size_t *i, struct args *a)
{
	size_t close = tk(ev, *i)->match;

	a->pos = mk(ev, SMP_PV_TUPLE, *i, close + 1);
	a->kw = mk(ev, SMP_PV_DICT, *i, close + 1);
	a->partial = 0;
	a->dup = NULL;
	a->dup_at = a->dup_end = 0;
	(*i)++;
	while (*i < close) {
		size_t from = *i;

		if (is_op(ev, *i, "**")) {
			struct smp_pyval *d;
			size_t k;

			(*i)++;
			d = eval_expr(ev, i);
			if (d->kind == SMP_PV_DICT) {
				for (k = 0; k < d->count; k++)
					set_kw(ev, a, d->keys[k], d->items[k],
					       from);
			} else {
				a->partial = 1;
			}
		} else if (is_op(ev, *i, "*")) {
			struct smp_pyval *l;
			size_t k;

			(*i)++;
			l = eval_expr(ev, i);
			if (l->kind == SMP_PV_LIST || l->kind == SMP_PV_TUPLE) {
				for (k = 0; k < l->count; k++)
					push_item(ev, a->pos, NULL,
						  l->items[k]);
			} else {
				a->partial = 1;
			}
		} else if (tk(ev, *i)->kind == SMP_PYTOK_NAME &&
			   is_op(ev, *i + 1, "=")) {
			const struct smp_pytoken *n = tk(ev, *i);
			struct smp_pyval *key = mk_str(ev, ev->buf + n->off,
						       n->len, *i, *i + 1);
			struct smp_pyval *v;

			*i += 2;
			v = eval_expr(ev, i);
			set_kw(ev, a, key, v, from);
		} else {
			struct smp_pyval *v = eval_expr(ev, i);

			if (is_name(ev, *i, "for")) {
				/* a generator argument */
				*i = close;
				a->partial = 1;
				break;
			}
			if (a->pos->kind == SMP_PV_TUPLE &&
			    push_item(ev, a->pos, NULL, v))
				a->pos = smp__pyval_unknown(ev, from, *i);
		}
		if (a->dup && !a->dup_end)
			a->dup_end = *i;
		/* anything the reader did not take: to the next argument */
		while (*i < close && !is_op(ev, *i, ",")) {
			if (is_open(ev, *i))
				*i = tk(ev, *i)->match;
			(*i)++;
		}
		if (*i < close)
			(*i)++;
	}
	*i = close + 1;
	if (a->pos->kind != SMP_PV_TUPLE || a->kw->kind != SMP_PV_DICT)
		a->partial = 1;
}

/* Constructs an OBJECT of cls from the call's arguments. */
static struct smp_pyval *
construct(struct smp_pyeval *ev, enum smp_pycls cls, const char *path,
	  size_t plen, size_t callee, size_t from, size_t *i)
{
	struct args a;
	struct smp_pyval *obj;
	const char *const *names = positional_names(cls);
	size_t k;

	eval_args(ev, i, &a);
	if (cls != SMP_PYCLS_HELPER && cls != SMP_PYCLS_COMPILER_CONFIG &&
	    type_error(ev, &a, callee))
		return smp__pyval_unknown(ev, from, *i);
	obj = mk(ev, SMP_PV_OBJECT, from, *i);
	if (obj->kind == SMP_PV_UNKNOWN)
		return obj;
	obj->cls = cls;
	obj->text = path;
	obj->len = plen;
	for (k = 0; a.pos->kind == SMP_PV_TUPLE && k < a.pos->count; k++) {
		const struct smp_pyval *at = a.pos->items[k];
		struct smp_pyval *key;

		if (!names[k]) {
			a.partial = 1;
			break;
		}
		key = mk_str(ev, names[k], strlen(names[k]), from, from + 1);
		key->start =
			at->start; /* a positional has no name: its value */
		key->end = at->end;
		if (push_item(ev, obj, key, a.pos->items[k]))
			return spent(ev);
	}
	for (k = 0; a.kw->kind == SMP_PV_DICT && k < a.kw->count; k++)
		if (push_item(ev, obj, a.kw->keys[k], a.kw->items[k]))
			return spent(ev);
	if (cls == SMP_PYCLS_BOTO3_SESSION || cls == SMP_PYCLS_SM_SESSION)
		obj->region = environ_region(ev); /* read when it is made */
	if (cls == SMP_PYCLS_HUGGINGFACE || cls == SMP_PYCLS_PYTORCH ||
	    cls == SMP_PYCLS_TENSORFLOW || cls == SMP_PYCLS_ESTIMATOR ||
	    cls == SMP_PYCLS_MODEL_TRAINER) {
		ev->job_region = job_region(ev, obj);
		if (ev->on_job)
			obj->job = ev->on_job(ev, cls, callee, obj, a.partial);
		ev->job_region = NULL;
	} else if (cls == SMP_PYCLS_TUNER) {
		/* the estimator it launches gets its ranges (an unknown
		 * **kwargs cannot hold them when they are given) */
		if (ev->on_job)
			ev->on_job(ev, cls, callee, obj, a.partial);
	} else if (a.partial) {
		/* a helper whose arguments are not all known */
		obj->kind = SMP_PV_UNKNOWN;
	}
	return obj;
}

static int
truthy(const struct smp_pyval *v)
{
	switch (v->kind) {
	case SMP_PV_NONE:
		return 0;
	case SMP_PV_BOOL:
	case SMP_PV_INT:
		return v->i != 0;
	case SMP_PV_FLOAT:
		return v->f != 0.0;
	case SMP_PV_STR:
		return v->len != 0;
	case SMP_PV_LIST:
	case SMP_PV_TUPLE:
	case SMP_PV_DICT:
		return v->count != 0;
	case SMP_PV_OBJECT:
	case SMP_PV_MODULE:
		return 1;
	default:
		return -1;
	}
}

/* The numeric text of a str for float() and int(): trimmed, no '_'. */
static int
str_number(const struct smp_pyval *s, int want_int, long long *iv, double *fv)
{
	char tmp[128], *end;
	size_t a = 0, b = s->len, m = 0, k;

	while (a < b && strchr(" \t\n\r", s->text[a]))
		a++;
	while (b > a && strchr(" \t\n\r", s->text[b - 1]))
		b--;
	if (b - a >= sizeof(tmp) || a == b)
		return -1;
	for (k = a; k < b; k++)
		if (s->text[k] != '_')
			tmp[m++] = s->text[k];
	tmp[m] = '\0';
	if (want_int) {
		long long x;

		for (k = (tmp[0] == '-' || tmp[0] == '+'); k < m; k++)
			if (tmp[k] < '0' || tmp[k] > '9')
				return -1;
		x = strtoll(tmp, &end, 10);
		if (*end || x == LLONG_MAX || x == LLONG_MIN)
			return -1;
		*iv = x;
		return 0;
	}
	*fv = strtod(tmp, &end);
	return *end ? -1 : 0;
}

/* float(), int(), str(), round(), dict(), list(), tuple(), bool(), len() */
static struct smp_pyval *
builtin(struct smp_pyeval *ev, const char *name, size_t from, size_t *i)
{
	struct args a;
	const struct smp_pyval *x;
	long long iv = 0;
	double fv = 0;
	size_t n;

	eval_args(ev, i, &a);
	n = a.pos->kind == SMP_PV_TUPLE ? a.pos->count : 0;
	x = n ? a.pos->items[0] : NULL;
	if (strcmp(name, "dict") == 0) {
		struct smp_pyval *d;
		size_t k;

		if (a.partial || n > 1 || (x && x->kind != SMP_PV_DICT))
			return smp__pyval_unknown(ev, from, *i);
		d = x ? copy_container(ev, x, SMP_PV_DICT, from, *i)
		      : mk(ev, SMP_PV_DICT, from, *i);
		for (k = 0; d->kind == SMP_PV_DICT && k < a.kw->count; k++)
			smp__pyval_set(ev, d, a.kw->keys[k], a.kw->items[k]);
		return d;
	}
	if (a.partial || a.kw->count || n > 2)
		return smp__pyval_unknown(ev, from, *i);
	if (strcmp(name, "float") == 0) {
		if (!x)
			return mk_num(ev, 0, 0, 0.0, from, *i);
		if (n != 1)
			return smp__pyval_unknown(ev, from, *i);
		if (is_num(x))
			return mk_num(ev, 0, 0, num_f(x), from, *i);
		if (x->kind == SMP_PV_STR && str_number(x, 0, &iv, &fv) == 0)
			return mk_num(ev, 0, 0, fv, from, *i);
		return smp__pyval_unknown(ev, from, *i);
	}
	if (strcmp(name, "int") == 0) {
		if (!x)
			return mk_num(ev, 1, 0, 0, from, *i);
		if (n != 1)
			return smp__pyval_unknown(ev, from, *i);
		if (x->kind == SMP_PV_INT || x->kind == SMP_PV_BOOL)
			return mk_num(ev, 1, x->i, 0, from, *i);
		if (x->kind == SMP_PV_FLOAT && isfinite(x->f) &&
		    fabs(x->f) < 9e18)
			return mk_num(ev, 1, (long long)x->f, 0, from, *i);
		if (x->kind == SMP_PV_STR && str_number(x, 1, &iv, &fv) == 0)
			return mk_num(ev, 1, iv, 0, from, *i);
		return smp__pyval_unknown(ev, from, *i);
	}
	if (strcmp(name, "str") == 0) {
		if (!x)
			return mk_str(ev, "", 0, from, *i);
		if (n != 1)
			return smp__pyval_unknown(ev, from, *i);
		return smp__pyeval_str_of(ev, x, from, *i);
	}
	if (strcmp(name, "round") == 0) {
		if (!x || !is_num(x))
			return smp__pyval_unknown(ev, from, *i);
		if (n == 1 || (a.pos->items[1]->kind == SMP_PV_NONE)) {
			double r = rint(num_f(x)); /* half to even, as Python */

			if (!isfinite(r) || fabs(r) >= 9e18)
				return smp__pyval_unknown(ev, from, *i);
			return mk_num(ev, 1, (long long)r, 0, from, *i);
		}
		if (a.pos->items[1]->kind == SMP_PV_INT &&
		    a.pos->items[1]->i >= 0 && a.pos->items[1]->i <= 17) {
			char tmp[400];

			if (x->kind != SMP_PV_FLOAT)
				return mk_num(ev, 1, x->i, 0, from, *i);
			if (!isfinite(x->f) || fabs(x->f) > 1e300)
				return smp__pyval_unknown(ev, from, *i);
			/* printf rounds the exact binary value, as Python */
			snprintf(tmp, sizeof(tmp), "%.*f",
				 (int)a.pos->items[1]->i, x->f);
			return mk_num(ev, 0, 0, strtod(tmp, NULL), from, *i);
		}
		return smp__pyval_unknown(ev, from, *i);
	}
	if (n != 1)
		return smp__pyval_unknown(ev, from, *i);
	if (strcmp(name, "bool") == 0) {
		int t = truthy(x);
		struct smp_pyval *b;

		if (t < 0)
			return smp__pyval_unknown(ev, from, *i);
		b = mk(ev, SMP_PV_BOOL, from, *i);
		b->i = t;
		return b;
	}
	if (strcmp(name, "len") == 0) {
		if (x->kind == SMP_PV_STR)
			return mk_num(ev, 1, (long long)x->len, 0, from, *i);
		if (x->kind == SMP_PV_LIST || x->kind == SMP_PV_TUPLE ||
		    x->kind == SMP_PV_DICT)
			return mk_num(ev, 1, (long long)x->count, 0, from, *i);
		return smp__pyval_unknown(ev, from, *i);
	}
	if (x->kind != SMP_PV_LIST && x->kind != SMP_PV_TUPLE)
		return smp__pyval_unknown(ev, from, *i);
	return copy_container(
		ev, x, strcmp(name, "list") == 0 ? SMP_PV_LIST : SMP_PV_TUPLE,
		from, *i);
}

static int
is_builtin(const char *s, size_t n, const char **name)
{
	static const char *const names[] = {"float", "int",  "str",   "round",
					    "dict",  "list", "tuple", "bool",
					    "len",   NULL};
	size_t k;

	for (k = 0; names[k]; k++)
		if (strlen(names[k]) == n && memcmp(names[k], s, n) == 0) {
			*name = names[k];
			return 1;
		}
	return 0;
}

/* A method of a dict, list or client: d.update(), d.get(), ... */
static struct smp_pyval *
method(struct smp_pyeval *ev, struct smp_pyval *recv, size_t attr, size_t from,
       size_t *i)
{
	const struct smp_pytoken *t = tk(ev, attr);
	const char *m = ev->buf + t->off;
	size_t n = t->len, k;
	struct args a;

#define IS(s) (n == sizeof(s) - 1 && memcmp(m, s, n) == 0)
	if (recv->kind == SMP_PV_OBJECT && recv->cls == SMP_PYCLS_CLIENT &&
	    (IS("create_training_job") ||
	     IS("create_hyper_parameter_tuning_job"))) {
		struct smp_pyval *obj;

		eval_args(ev, i, &a);
		if (type_error(ev, &a, attr))
			return smp__pyval_unknown(ev, from, *i);
		obj = mk(ev, SMP_PV_OBJECT, from, *i);
		if (obj->kind == SMP_PV_UNKNOWN)
			return obj;
		obj->cls = SMP_PYCLS_CLIENT;
		for (k = 0; k < a.kw->count; k++)
			if (push_item(ev, obj, a.kw->keys[k], a.kw->items[k]))
				return spent(ev);
		if (a.pos->count)
			a.partial = 1;
		ev->job_region = region_of(recv);
		if (ev->on_job)
			ev->on_job(ev, SMP_PYCLS_CLIENT, attr, obj, a.partial);
		ev->job_region = NULL;
		return smp__pyval_unknown(ev, from, *i);
	}
	if ((recv->kind == SMP_PV_OBJECT &&
	     (recv->cls == SMP_PYCLS_BOTO3_SESSION ||
	      recv->cls == SMP_PYCLS_SM_SESSION) &&
	     IS("client")) ||
	    (recv->kind == SMP_PV_MODULE && IS("client") && recv->len == 5 &&
	     memcmp(recv->text, "boto3", 5) == 0)) {
		struct smp_pyval *c;

		eval_args(ev, i, &a);
		if (a.pos->count < 1 || a.pos->items[0]->kind != SMP_PV_STR ||
		    a.pos->items[0]->len != 9 ||
		    memcmp(a.pos->items[0]->text, "sagemaker", 9) != 0)
			return smp__pyval_unknown(ev, from, *i);
		c = mk(ev, SMP_PV_OBJECT, from, *i);
		if (c->kind != SMP_PV_OBJECT)
			return c;
		c->cls = SMP_PYCLS_CLIENT;
		/* client(service_name, region_name=None, ...): the argument,
		 * else the session's, else the environment's now */
		c->region = a.pos->count > 1 ? a.pos->items[1] : NULL;
		if (!c->region)
			c->region = smp__pyval_get(a.kw, "region_name", 11);
		if (a.partial && !c->region)
			c->region = smp__pyval_unknown(ev, from, *i);
		if (!c->region || c->region->kind == SMP_PV_NONE)
			c->region = recv->kind == SMP_PV_OBJECT
					    ? region_of(recv)
					    : environ_region(ev);
		return c;
	}
	eval_args(ev, i, &a);
	if (recv->kind == SMP_PV_DICT) {
		if (IS("update")) {
			if (ev->uncertain || a.partial || a.pos->count > 1 ||
			    (a.pos->count &&
			     a.pos->items[0]->kind != SMP_PV_DICT)) {
				recv->kind = SMP_PV_UNKNOWN;
				return smp__pyval_unknown(ev, from, *i);
			}
			for (k = 0; a.pos->count && k < a.pos->items[0]->count;
			     k++)
				smp__pyval_set(ev, recv,
					       a.pos->items[0]->keys[k],
					       a.pos->items[0]->items[k]);
			for (k = 0; k < a.kw->count; k++)
				smp__pyval_set(ev, recv, a.kw->keys[k],
					       a.kw->items[k]);
			return mk(ev, SMP_PV_NONE, from, *i);
		}
		if (IS("copy") && !a.pos->count)
			return copy_container(ev, recv, SMP_PV_DICT, from, *i);
		if (IS("get") && a.pos->count >= 1 && a.pos->count <= 2 &&
		    a.pos->items[0]->kind == SMP_PV_STR) {
			struct smp_pyval *v =
				smp__pyval_get(recv, a.pos->items[0]->text,
					       a.pos->items[0]->len);

			if (v)
				return v;
			return a.pos->count == 2
				       ? a.pos->items[1]
				       : mk(ev, SMP_PV_NONE, from, *i);
		}
		if (IS("keys") || IS("values") || IS("items"))
			return smp__pyval_unknown(ev, from, *i);
		/* pop, setdefault, clear, ...: which keys remain is not
		 * worth following */
		recv->kind = SMP_PV_UNKNOWN;
		return smp__pyval_unknown(ev, from, *i);
	}
	if (recv->kind == SMP_PV_LIST && !IS("copy") && !IS("index") &&
	    !IS("count"))
		recv->kind = SMP_PV_UNKNOWN; /* append, extend, ... */
	if (recv->kind == SMP_PV_STR && a.pos->count == 0 &&
	    (IS("lower") || IS("upper") || IS("strip"))) {
		struct smp_pyval *s =
			mk_str(ev, recv->text, recv->len, from, *i);
		char *p = (char *)(uintptr_t)s->text;
		size_t b = 0, e = s->len;

		if (s->kind != SMP_PV_STR)
			return s;
		if (IS("strip")) {
			while (b < e && strchr(" \t\n\r", p[b]))
				b++;
			while (e > b && strchr(" \t\n\r", p[e - 1]))
				e--;
			memmove(p, p + b, e - b);
			p[e - b] = '\0';
			s->len = e - b;
			return s;
		}
		for (k = 0; k < s->len; k++)
			if (IS("lower") && p[k] >= 'A' && p[k] <= 'Z')
				p[k] = (char)(p[k] - 'A' + 'a');
			else if (IS("upper") && p[k] >= 'a' && p[k] <= 'z')
				p[k] = (char)(p[k] - 'a' + 'A');
		return s;
	}
#undef IS
	return smp__pyval_unknown(ev, from, *i);
}

/* ---------------------------------------------------------- grammar */

static struct smp_pyval *eval_or(struct smp_pyeval *ev, size_t *i);

/* [ ... ] and ( ... ): a list, a tuple, a parenthesized expression */
static struct smp_pyval *
eval_seq(struct smp_pyeval *ev, size_t *i, int list)
{
	size_t from = *i, close = tk(ev, *i)->match;
	struct smp_pyval *seq =
		mk(ev, list ? SMP_PV_LIST : SMP_PV_TUPLE, from, close + 1);
	struct smp_pyval *first = NULL;
	int commas = 0, bad = 0;

	(*i)++;
	while (*i < close) {
		struct smp_pyval *v;
		int star = is_op(ev, *i, "*");

		if (star)
			(*i)++;
		v = eval_expr(ev, i);
		if (is_name(ev, *i, "for") || is_name(ev, *i, "async") ||
		    !(is_op(ev, *i, ",") || *i == close)) {
			bad = 1; /* a comprehension, yield, ... */
			break;
		}
		if (star) {
			size_t k;

			if (v->kind != SMP_PV_LIST && v->kind != SMP_PV_TUPLE)
				bad = 1;
			for (k = 0; !bad && k < v->count; k++)
				push_item(ev, seq, NULL, v->items[k]);
			commas++; /* (*a) alone is an error; (*a,) a tuple */
		} else {
			if (!first)
				first = v;
			if (seq->kind != SMP_PV_UNKNOWN &&
			    push_item(ev, seq, NULL, v))
				bad = 1;
		}
		if (is_op(ev, *i, ",")) {
			commas++;
			(*i)++;
		}
	}
	*i = close + 1;
	if (!list && !commas && first && !bad)
		return first; /* (x) is x */
	if (bad || seq->kind == SMP_PV_UNKNOWN)
		return smp__pyval_unknown(ev, from, *i);
	return seq;
}

/* { ... }: a dict display (sets and comprehensions are unknown) */
static struct smp_pyval *
eval_dict(struct smp_pyeval *ev, size_t *i)
{
	size_t from = *i, close = tk(ev, *i)->match;
	struct smp_pyval *d = mk(ev, SMP_PV_DICT, from, close + 1);
	int bad = 0;

	(*i)++;
	while (*i < close && !bad) {
		struct smp_pyval *k, *v;

		if (is_op(ev, *i, "**")) {
			size_t j;

			(*i)++;
			v = eval_or(ev, i);
			if (v->kind != SMP_PV_DICT)
				bad = 1;
			for (j = 0; !bad && j < v->count; j++)
				smp__pyval_set(ev, d, v->keys[j], v->items[j]);
		} else {
			k = eval_expr(ev, i);
			if (!is_op(ev, *i, ":")) {
				bad = 1; /* a set */
				break;
			}
			(*i)++;
			v = eval_expr(ev, i);
			if (is_name(ev, *i, "for") ||
			    is_name(ev, *i, "async") || !hashable_key(k))
				bad = 1; /* a comprehension; a key of no use */
			else if (d->kind == SMP_PV_DICT)
				smp__pyval_set(ev, d, k, v);
		}
		if (is_op(ev, *i, ","))
			(*i)++;
		else if (*i != close)
			bad = 1;
	}
	*i = close + 1;
	if (bad || d->kind != SMP_PV_DICT)
		return smp__pyval_unknown(ev, from, *i);
	return d;
}

static struct smp_pyval *
eval_atom(struct smp_pyeval *ev, size_t *i)
{
	const struct smp_pytoken *t = tk(ev, *i);
	size_t from = *i;

	switch (t->kind) {
	case SMP_PYTOK_STRING:
		return eval_strings(ev, i);
	case SMP_PYTOK_NUMBER: {
		int is_int;
		long long iv = 0;
		double fv = 0;
		struct smp_pyval *v;

		(*i)++;
		if (parse_number(ev->buf + t->off, t->len, &is_int, &iv, &fv))
			return smp__pyval_unknown(ev, from, *i);
		v = mk_num(ev, is_int, iv, fv, from, *i);
		if (v->kind == SMP_PV_FLOAT &&
		    plain_float(ev->buf + t->off, t->len)) {
			v->text = ev->buf + t->off; /* as written: 5e-5 */
			v->len = t->len;
		}
		return v;
	}
	case SMP_PYTOK_NAME: {
		const char *s = ev->buf + t->off, *bname;
		struct smp_pyval *v;

		(*i)++;
		if (t->code == SMP_PYKW_TRUE || t->code == SMP_PYKW_FALSE) {
			v = mk(ev, SMP_PV_BOOL, from, *i);
			v->i = t->code == SMP_PYKW_TRUE;
			return v;
		}
		if (t->code == SMP_PYKW_NONE_CONST)
			return mk(ev, SMP_PV_NONE, from, *i);
		if (t->code == SMP_PYKW_LAMBDA) {
			while (*i < ev->m->ntoks && !is_op(ev, *i, ":") &&
			       !is_stop(ev, *i))
				(*i)++;
			if (is_op(ev, *i, ":")) {
				(*i)++;
				skip_expr(ev, i);
			}
			return smp__pyval_unknown(ev, from, *i);
		}
		if (t->code == SMP_PYKW_YIELD || t->code == SMP_PYKW_AWAIT) {
			skip_expr(ev, i);
			return smp__pyval_unknown(ev, from, *i);
		}
		v = smp__pyeval_lookup(ev, s, t->len);
		if (v)
			return v;
		if (is_builtin(s, t->len, &bname) && is_op(ev, *i, "(")) {
			v = mk(ev, SMP_PV_MODULE, from, *i);
			v->text = bname;
			v->len = 0; /* a builtin: no module path */
			return v;
		}
		return smp__pyval_unknown(ev, from, *i);
	}
	case SMP_PYTOK_OP:
		if (is_op(ev, *i, "("))
			return eval_seq(ev, i, 0);
		if (is_op(ev, *i, "["))
			return eval_seq(ev, i, 1);
		if (is_op(ev, *i, "{"))
			return eval_dict(ev, i);
		if (!is_stop(ev, *i))
			(*i)++; /* "...", a stray operator */
		return smp__pyval_unknown(ev, from, *i);
	default:
		if (!is_stop(ev, *i))
			(*i)++;
		return smp__pyval_unknown(ev, from, *i);
	}
}

static struct smp_pyval *
subscript(struct smp_pyeval *ev, struct smp_pyval *v, size_t from, size_t *i)
{
	size_t close = tk(ev, *i)->match;
	struct smp_pyval *k;

	(*i)++;
	k = eval_expr(ev, i);
	if (*i != close) {
		*i = close + 1; /* a slice or a tuple of indexes */
		return smp__pyval_unknown(ev, from, *i);
	}
	*i = close + 1;
	if (v->kind == SMP_PV_DICT && hashable_key(k)) {
		size_t j = find_key(v, k);

		if (j)
			return v->items[j - 1];
	}
	if ((v->kind == SMP_PV_LIST || v->kind == SMP_PV_TUPLE) &&
	    (k->kind == SMP_PV_INT || k->kind == SMP_PV_BOOL)) {
		long long n = (long long)v->count,
			  x = k->i < 0 ? k->i + n : k->i;

		if (x >= 0 && x < n)
			return v->items[x];
	}
	return smp__pyval_unknown(ev, from, *i);
}

static struct smp_pyval *
eval_primary(struct smp_pyeval *ev, size_t *i)
{
	size_t from = *i;
	struct smp_pyval *v = eval_atom(ev, i);

	for (;;) {
		if (is_op(ev, *i, ".") &&
		    tk(ev, *i + 1)->kind == SMP_PYTOK_NAME) {
			size_t attr = *i + 1;
			const struct smp_pytoken *a = tk(ev, attr);

			*i += 2;
			if (is_op(ev, *i, "(") && v->kind != SMP_PV_MODULE) {
				v = method(ev, v, attr, from, i);
				continue;
			}
			if (v->kind == SMP_PV_MODULE && v->len) {
				struct smp_pyval *m =
					mk(ev, SMP_PV_MODULE, from, *i);
				char *p = valloc(ev, v->len + a->len + 2);

				if (m->kind == SMP_PV_UNKNOWN || !p) {
					v = spent(ev);
					continue;
				}
				memcpy(p, v->text, v->len);
				p[v->len] = '.';
				memcpy(p + v->len + 1, ev->buf + a->off,
				       a->len);
				p[v->len + 1 + a->len] = '\0';
				m->text = p;
				m->len = v->len + 1 + a->len;
				if (is_op(ev, *i, "(") && v->len == 5 &&
				    memcmp(v->text, "boto3", 5) == 0 &&
				    a->len == 6 &&
				    memcmp(ev->buf + a->off, "client", 6) ==
					    0) {
					v = method(ev, v, attr, from, i);
					continue;
				}
				v = m;
				if (ev->environ && m->len == 10 &&
				    memcmp(p, "os.environ", 10) == 0 &&
				    is_op(ev, *i, "["))
					v = ev->environ; /* a notebook's %env */
				continue;
			}
			if (v->kind == SMP_PV_OBJECT &&
			    v->cls == SMP_PYCLS_SM_SESSION) {
				struct smp_pyval *o =
					mk(ev, SMP_PV_OBJECT, from, *i);

				if (a->len == 16 &&
				    memcmp(ev->buf + a->off, "sagemaker_client",
					   16) == 0)
					o->cls = SMP_PYCLS_CLIENT;
				else if (a->len == 12 &&
					 memcmp(ev->buf + a->off,
						"boto_session", 12) == 0)
					o->cls = SMP_PYCLS_BOTO3_SESSION;
				else
					o = smp__pyval_unknown(ev, from, *i);
				if (o->kind == SMP_PV_OBJECT)
					o->region = region_of(v);
				v = o;
				continue;
			}
			v = smp__pyval_unknown(ev, from, *i);
		} else if (is_op(ev, *i, "(")) {
			if (v->kind == SMP_PV_MODULE && !v->len) {
				v = builtin(ev, v->text, from, i);
			} else if (v->kind == SMP_PV_MODULE) {
				enum smp_pycls cls = class_of(v->text, v->len);
				struct args a;

				if (cls != SMP_PYCLS_NONE) {
					v = construct(ev, cls, v->text, v->len,
						      from, from, i);
				} else {
					eval_args(ev, i, &a);
					v = smp__pyval_unknown(ev, from, *i);
				}
			} else {
				struct args a;

				eval_args(ev, i, &a);
				v = smp__pyval_unknown(ev, from, *i);
			}
		} else if (is_op(ev, *i, "[")) {
			v = subscript(ev, v, from, i);
		} else {
			return v;
		}
	}
}

static struct smp_pyval *eval_factor(struct smp_pyeval *ev, size_t *i);

static struct smp_pyval *
eval_power(struct smp_pyeval *ev, size_t *i)
{
	size_t from = *i;
	struct smp_pyval *b = eval_primary(ev, i), *e;
	double f;

	if (!is_op(ev, *i, "**"))
		return b;
	(*i)++;
	e = eval_factor(ev, i);
	if (!is_num(b) || !is_num(e))
		return smp__pyval_unknown(ev, from, *i);
	if (b->kind != SMP_PV_FLOAT && e->kind != SMP_PV_FLOAT && e->i >= 0) {
		double r;

		if (!smp__pow(&r, (double)b->i, (double)e->i) && fabs(r) < 9e15)
			return mk_num(ev, 1, (long long)r, 0, from, *i);
		return smp__pyval_unknown(ev, from, *i);
	}
	if (num_f(b) < 0 && floor(num_f(e)) != num_f(e))
		return smp__pyval_unknown(ev, from, *i); /* complex */
	if (smp__pow(&f, num_f(b), num_f(e)))
		return smp__pyval_unknown(ev, from, *i); /* other than 1/2 */
	return mk_num(ev, 0, 0, f, from, *i);
}

static struct smp_pyval *
eval_factor(struct smp_pyeval *ev, size_t *i)
{
	size_t from = *i;
	struct smp_pyval *v;

	if (is_op(ev, *i, "-") || is_op(ev, *i, "+") || is_op(ev, *i, "~")) {
		int neg = is_op(ev, *i, "-"), inv = is_op(ev, *i, "~");

		(*i)++;
		if (ev->depth >= MAX_DEPTH) {
			skip_expr(ev, i);
			return smp__pyval_unknown(ev, from, *i);
		}
		ev->depth++;
		v = eval_factor(ev, i);
		ev->depth--;
		if (!is_num(v) || (inv && v->kind == SMP_PV_FLOAT))
			return smp__pyval_unknown(ev, from, *i);
		if (v->kind == SMP_PV_FLOAT) {
			struct smp_pyval *r =
				mk_num(ev, 0, 0, neg ? -v->f : v->f, from, *i);

			if (v->text && r->kind == SMP_PV_FLOAT && !neg) {
				r->text = v->text;
				r->len = v->len;
			}
			return r;
		}
		if (v->i == LLONG_MIN)
			return smp__pyval_unknown(ev, from, *i);
		return mk_num(ev, 1,
			      inv   ? ~v->i
			      : neg ? -v->i
				    : v->i,
			      0, from, *i);
	}
	return eval_power(ev, i);
}

/* Python's floor division and modulo on numbers; -1 when unknown. */
static int
floordiv(const struct smp_pyval *a, const struct smp_pyval *b, int mod,
	 int *is_int, long long *iv, double *fv)
{
	if (a->kind != SMP_PV_FLOAT && b->kind != SMP_PV_FLOAT) {
		long long q, r;

		if (b->i == 0 || (a->i == LLONG_MIN && b->i == -1))
			return -1;
		q = a->i / b->i;
		r = a->i % b->i;
		if (r != 0 && ((r < 0) != (b->i < 0))) {
			q--;
			r += b->i;
		}
		*is_int = 1;
		*iv = mod ? r : q;
		return 0;
	}
	if (num_f(b) == 0.0)
		return -1;
	*is_int = 0;
	if (mod) {
		double r = smp__fmod(num_f(a), num_f(b));

		if (r != 0 && ((r < 0) != (num_f(b) < 0)))
			r += num_f(b);
		*fv = r;
	} else {
		*fv = floor(num_f(a) / num_f(b));
	}
	return 0;
}

static struct smp_pyval *
arith(struct smp_pyeval *ev, const char *op, struct smp_pyval *a,
      struct smp_pyval *b, size_t from, size_t to)
{
	int both_int = a->kind != SMP_PV_FLOAT && b->kind != SMP_PV_FLOAT;
	long long r = 0;

	if (op[0] == '+' && a->kind == SMP_PV_STR && b->kind == SMP_PV_STR) {
		struct pystr s;

		ps_init(ev, &s);
		ps_add(ev, &s, a->text, a->len);
		ps_add(ev, &s, b->text, b->len);
		return ps_value(ev, &s, from, to);
	}
	if (op[0] == '+' && a->kind == b->kind &&
	    (a->kind == SMP_PV_LIST || a->kind == SMP_PV_TUPLE)) {
		struct smp_pyval *v = copy_container(ev, a, a->kind, from, to);
		size_t k;

		for (k = 0; v->kind == a->kind && k < b->count; k++)
			if (push_item(ev, v, NULL, b->items[k]))
				return smp__pyval_unknown(ev, from, to);
		return v;
	}
	if (op[0] == '|' && a->kind == SMP_PV_DICT && b->kind == SMP_PV_DICT) {
		struct smp_pyval *v =
			copy_container(ev, a, SMP_PV_DICT, from, to);
		size_t k;

		for (k = 0; v->kind == SMP_PV_DICT && k < b->count; k++)
			smp__pyval_set(ev, v, b->keys[k], b->items[k]);
		return v;
	}
	if (op[0] == '*' && !op[1] &&
	    ((a->kind == SMP_PV_STR && b->kind == SMP_PV_INT) ||
	     (a->kind == SMP_PV_INT && b->kind == SMP_PV_STR))) {
		const struct smp_pyval *s = a->kind == SMP_PV_STR ? a : b;
		long long n = a->kind == SMP_PV_INT ? a->i : b->i, k;
		struct pystr sb;

		ps_init(ev, &sb);
		for (k = 0; k < n && !sb.bad; k++)
			ps_add(ev, &sb, s->text, s->len);
		return ps_value(ev, &sb, from, to);
	}
	if (!is_num(a) || !is_num(b))
		return smp__pyval_unknown(ev, from, to);
	if (strcmp(op, "/") == 0) {
		if (num_f(b) == 0.0)
			return smp__pyval_unknown(ev, from, to);
		return mk_num(ev, 0, 0, num_f(a) / num_f(b), from, to);
	}
	if (strcmp(op, "//") == 0 || strcmp(op, "%") == 0) {
		int is_int;
		long long iv = 0;
		double fv = 0;

		if (floordiv(a, b, op[0] == '%', &is_int, &iv, &fv))
			return smp__pyval_unknown(ev, from, to);
		return mk_num(ev, is_int, iv, fv, from, to);
	}
	if (!both_int) {
		double x = num_f(a), y = num_f(b);

		if (op[0] == '+')
			return mk_num(ev, 0, 0, x + y, from, to);
		if (op[0] == '-')
			return mk_num(ev, 0, 0, x - y, from, to);
		if (op[0] == '*' && !op[1])
			return mk_num(ev, 0, 0, x * y, from, to);
		return smp__pyval_unknown(ev, from, to);
	}
	if ((op[0] == '+' && __builtin_add_overflow(a->i, b->i, &r)) ||
	    (op[0] == '-' && __builtin_sub_overflow(a->i, b->i, &r)) ||
	    (op[0] == '*' && !op[1] && __builtin_mul_overflow(a->i, b->i, &r)))
		return smp__pyval_unknown(ev, from, to);
	if (op[0] == '+' || op[0] == '-' || (op[0] == '*' && !op[1]))
		return mk_num(ev, 1, r, 0, from, to);
	if (op[0] == '|')
		return mk_num(ev, 1, a->i | b->i, 0, from, to);
	if (op[0] == '&')
		return mk_num(ev, 1, a->i & b->i, 0, from, to);
	if (op[0] == '^')
		return mk_num(ev, 1, a->i ^ b->i, 0, from, to);
	return smp__pyval_unknown(ev, from, to);
}

struct smp_pyval *
smp__pyeval_binop(struct smp_pyeval *ev, const char *op, struct smp_pyval *a,
		  struct smp_pyval *b, size_t from, size_t to)
{
	return arith(ev, op, a, b, from, to);
}

/* The binding power of the binary operators, loosest first: | ^ & then
 * shifts, + -, and * / // % @ (Python's grammar); 0 for the others. */
static const unsigned char bin_prec[SMP_PYOP_COUNT] = {
	[SMP_PYOP_VBAR] = 1,    [SMP_PYOP_CIRCUMFLEX] = 2,
	[SMP_PYOP_AMPER] = 3,   [SMP_PYOP_LSHIFT] = 4,
	[SMP_PYOP_RSHIFT] = 4,  [SMP_PYOP_PLUS] = 5,
	[SMP_PYOP_MINUS] = 5,   [SMP_PYOP_STAR] = 6,
	[SMP_PYOP_SLASH] = 6,   [SMP_PYOP_DOUBLESLASH] = 6,
	[SMP_PYOP_PERCENT] = 6, [SMP_PYOP_AT] = 6};

/*
 * The binary operators binding at least as tight as min, left to right
 * (precedence climbing: one call per level actually used, the same
 * order of evaluation as one function per level).
 */
static struct smp_pyval *
binary(struct smp_pyeval *ev, size_t *i, unsigned min)
{
	size_t from = *i;
	struct smp_pyval *v = eval_factor(ev, i), *rhs;

	for (;;) {
		unsigned code = opc(ev, *i), p = bin_prec[code];

		if (!p || p < min)
			return v;
		(*i)++;
		/* the right operand first: C leaves the order of a call's
		 * arguments open, and the span must end after it */
		rhs = binary(ev, i, p + 1);
		v = arith(ev, smp__pyop_spelling(code), v, rhs, from, *i);
	}
}

static struct smp_pyval *
eval_bitor(struct smp_pyeval *ev, size_t *i)
{
	return binary(ev, i, 1);
}

/* -1 unknown, else the truth of a <op> b for known scalars */
static int
compare(const char *op, const struct smp_pyval *a, const struct smp_pyval *b)
{
	int c;

	if (is_num(a) && is_num(b)) {
		double x = num_f(a), y = num_f(b);

		if (a->kind != SMP_PV_FLOAT && b->kind != SMP_PV_FLOAT)
			c = a->i < b->i ? -1 : a->i > b->i;
		else
			c = x < y ? -1 : x > y;
	} else if (a->kind == SMP_PV_STR && b->kind == SMP_PV_STR) {
		size_t n = a->len < b->len ? a->len : b->len;

		c = memcmp(a->text, b->text, n);
		if (!c)
			c = a->len < b->len ? -1 : a->len > b->len;
		c = c < 0 ? -1 : c > 0;
	} else if (a->kind == SMP_PV_NONE || b->kind == SMP_PV_NONE) {
		if (a->kind == SMP_PV_UNKNOWN || b->kind == SMP_PV_UNKNOWN)
			return -1;
		if (strcmp(op, "==") != 0 && strcmp(op, "!=") != 0 &&
		    strcmp(op, "is") != 0 && strcmp(op, "is not") != 0)
			return -1;
		c = a->kind != b->kind;
	} else {
		return -1;
	}
	if (!strcmp(op, "==") || !strcmp(op, "is"))
		return c == 0;
	if (!strcmp(op, "!=") || !strcmp(op, "is not"))
		return c != 0;
	if (!strcmp(op, "<"))
		return c < 0;
	if (!strcmp(op, "<="))
		return c <= 0;
	if (!strcmp(op, ">"))
		return c > 0;
	if (!strcmp(op, ">="))
		return c >= 0;
	return -1;
}

static int
contains(const struct smp_pyval *x, const struct smp_pyval *c)
{
	size_t k;

	if (c->kind == SMP_PV_STR && x->kind == SMP_PV_STR) {
		if (!x->len)
			return 1;
		for (k = 0; k + x->len <= c->len; k++)
			if (memcmp(c->text + k, x->text, x->len) == 0)
				return 1;
		return 0;
	}
	if (c->kind == SMP_PV_DICT && hashable_key(x)) {
		k = find_key(c, x);
		return k && c->keys[k - 1]->kind == x->kind;
	}
	if (c->kind == SMP_PV_LIST || c->kind == SMP_PV_TUPLE) {
		int unknown = 0;

		for (k = 0; k < c->count; k++) {
			int r = compare("==", x, c->items[k]);

			if (r == 1)
				return 1;
			if (r < 0)
				unknown = 1;
		}
		return unknown ? -1 : 0;
	}
	return -1;
}

static struct smp_pyval *
eval_comparison(struct smp_pyeval *ev, size_t *i)
{
	size_t from = *i;
	struct smp_pyval *a = eval_bitor(ev, i);
	int result = 1, any = 0;

	for (;;) {
		const char *op = NULL;
		struct smp_pyval *b;
		unsigned code = opc(ev, *i), kw = kwc(ev, *i);
		int r, negate = 0, in = 0;

		if (code == SMP_PYOP_EQEQUAL || code == SMP_PYOP_NOTEQUAL ||
		    code == SMP_PYOP_LESS || code == SMP_PYOP_LESSEQUAL ||
		    code == SMP_PYOP_GREATER || code == SMP_PYOP_GREATEREQUAL)
			op = smp__pyop_spelling(code);
		if (op) {
			(*i)++;
		} else if (kw == SMP_PYKW_IN) {
			(*i)++;
			in = 1;
		} else if (kw == SMP_PYKW_NOT &&
			   kwc(ev, *i + 1) == SMP_PYKW_IN) {
			*i += 2;
			in = negate = 1;
		} else if (kw == SMP_PYKW_IS) {
			(*i)++;
			op = "is";
			if (kwc(ev, *i) == SMP_PYKW_NOT) {
				(*i)++;
				op = "is not";
			}
		} else {
			break;
		}
		any = 1;
		b = eval_bitor(ev, i);
		r = in ? contains(a, b) : compare(op, a, b);
		if (r >= 0 && negate)
			r = !r;
		if (r < 0 || result < 0)
			result = -1;
		else
			result = result && r;
		a = b;
	}
	if (!any)
		return a;
	if (result < 0)
		return smp__pyval_unknown(ev, from, *i);
	a = mk(ev, SMP_PV_BOOL, from, *i);
	a->i = result;
	return a;
}

static struct smp_pyval *
eval_not(struct smp_pyeval *ev, size_t *i)
{
	size_t from = *i;
	struct smp_pyval *v, *r;
	int t;

	if (kwc(ev, *i) != SMP_PYKW_NOT)
		return eval_comparison(ev, i);
	(*i)++;
	if (ev->depth >= MAX_DEPTH) {
		skip_expr(ev, i);
		return smp__pyval_unknown(ev, from, *i);
	}
	ev->depth++;
	v = eval_not(ev, i);
	ev->depth--;
	t = truthy(v);
	if (t < 0)
		return smp__pyval_unknown(ev, from, *i);
	r = mk(ev, SMP_PV_BOOL, from, *i);
	r->i = !t;
	return r;
}

static struct smp_pyval *
eval_and(struct smp_pyeval *ev, size_t *i)
{
	size_t from = *i;
	struct smp_pyval *v = eval_not(ev, i);

	while (kwc(ev, *i) == SMP_PYKW_AND) {
		struct smp_pyval *b;
		int t = truthy(v);

		(*i)++;
		b = eval_not(ev, i);
		v = t < 0 ? smp__pyval_unknown(ev, from, *i) : t ? b : v;
	}
	return v;
}

static struct smp_pyval *
eval_or(struct smp_pyeval *ev, size_t *i)
{
	size_t from = *i;
	struct smp_pyval *v = eval_and(ev, i);

	while (kwc(ev, *i) == SMP_PYKW_OR) {
		struct smp_pyval *b;
		int t = truthy(v);

		(*i)++;
		b = eval_and(ev, i);
		v = t < 0 ? smp__pyval_unknown(ev, from, *i) : t ? v : b;
	}
	return v;
}

/*
 * 1 when the expression at i is one name, number or string followed by
 * what ends an expression: then it is its atom's value, and the levels
 * of the grammar between need not be walked.
 */
static int
simple_atom(const struct smp_pyeval *ev, size_t i)
{
	const struct smp_pytoken *t = tk(ev, i);

	if (t->kind == SMP_PYTOK_NAME)
		return t->code != SMP_PYKW_NOT && is_stop(ev, i + 1);
	return (t->kind == SMP_PYTOK_NUMBER || t->kind == SMP_PYTOK_STRING) &&
	       is_stop(ev, i + 1);
}

static struct smp_pyval *
eval_expr(struct smp_pyeval *ev, size_t *i)
{
	size_t from = *i;
	struct smp_pyval *v, *c, *e;
	int t;

	if (ev->depth >= MAX_DEPTH) {
		skip_expr(ev, i);
		return smp__pyval_unknown(ev, from, *i);
	}
	ev->depth++;
	v = simple_atom(ev, *i) ? eval_atom(ev, i) : eval_or(ev, i);
	if (kwc(ev, *i) == SMP_PYKW_IF) {
		(*i)++;
		c = eval_or(ev, i);
		if (!is_name(ev, *i, "else")) {
			/* a comprehension's filter: the caller sees 'for' */
			ev->depth--;
			return smp__pyval_unknown(ev, from, *i);
		}
		(*i)++;
		e = eval_expr(ev, i);
		t = truthy(c);
		v = t < 0 ? smp__pyval_unknown(ev, from, *i) : t ? v : e;
	}
	ev->depth--;
	return v;
}

struct smp_pyval *
smp__pyeval_expr(struct smp_pyeval *ev, size_t *i)
{
	size_t from = *i;
	struct smp_pyval *v = eval_expr(ev, i);

	if (*i == from && !is_stop(ev, *i))
		(*i)++; /* always make progress */
	return v;
}

struct smp_pyval *
smp__pyeval_exprlist(struct smp_pyeval *ev, size_t *i)
{
	size_t from = *i;
	struct smp_pyval *first = smp__pyeval_expr(ev, i), *t;

	if (!is_op(ev, *i, ","))
		return first;
	t = mk(ev, SMP_PV_TUPLE, from, *i);
	if (t->kind == SMP_PV_TUPLE)
		push_item(ev, t, NULL, first);
	while (is_op(ev, *i, ",")) {
		struct smp_pyval *v;

		(*i)++;
		if (is_stop(ev, *i))
			break; /* x = 1, */
		if (is_op(ev, *i, "*")) {
			(*i)++;
			smp__pyeval_expr(ev, i);
			t = smp__pyval_unknown(ev, from, *i);
			continue;
		}
		v = smp__pyeval_expr(ev, i);
		if (t->kind == SMP_PV_TUPLE && push_item(ev, t, NULL, v))
			t = spent(ev);
	}
	if (t->kind == SMP_PV_TUPLE) {
		t->start = smp__pym_start(ev->m, from);
		t->end = smp__pym_end(ev->m, *i - 1);
	}
	return t;
}

/* ------------------------------------------------------------ nodes */

struct conv {
	const struct smp_pyeval *ev;
	struct smp_arena *arena;
	size_t nodes, max_nodes;
	unsigned depth;
};

static struct smp_node *
scalar(struct conv *c, const struct smp_pyval *at, const char *s, size_t n,
       enum smp_scalar_style style, const char *tag)
{
	/* the node and its text in one piece of the arena */
	struct smp_node *nd =
		n < SIZE_MAX - sizeof(*nd)
			? smp__arena_alloc(c->arena, sizeof(*nd) + n + 1)
			: NULL;
	char *copy;

	if (!nd)
		return NULL;
	*nd = (struct smp_node){.kind = SMP_NODE_SCALAR};
	copy = (char *)(nd + 1);
	if (n)
		memcpy(copy, s, n);
	copy[n] = '\0';
	nd->start = at->start;
	nd->end = at->end;
	nd->tag = tag;
	nd->u.scalar.value = copy;
	nd->u.scalar.len = n;
	nd->u.scalar.style = style;
	return nd;
}

static struct smp_node *to_node(struct conv *c, const struct smp_pyval *v);

static struct smp_node *
unknown_node(struct conv *c, const struct smp_pyval *v)
{
	size_t n = v->src_len;

	if (v->src_off >= c->ev->len)
		n = 0;
	else if (n > c->ev->len - v->src_off)
		n = c->ev->len - v->src_off;
	if (n > 200)
		n = 200;
	return scalar(c, v, c->ev->buf + v->src_off, n, SMP_STYLE_DOUBLE_QUOTED,
		      SMP_TAG_UNKNOWN);
}

static struct smp_node *
to_node(struct conv *c, const struct smp_pyval *v)
{
	struct smp_node *nd;
	char num[64];
	size_t k;

	if (++c->nodes > c->max_nodes || c->depth >= MAX_DEPTH) {
		struct smp_pyval u = *v;

		u.kind = SMP_PV_UNKNOWN;
		return unknown_node(c, &u);
	}
	switch (v->kind) {
	case SMP_PV_NONE:
		return scalar(c, v, "null", 4, SMP_STYLE_PLAIN, NULL);
	case SMP_PV_BOOL:
		return v->i ? scalar(c, v, "true", 4, SMP_STYLE_PLAIN, NULL)
			    : scalar(c, v, "false", 5, SMP_STYLE_PLAIN, NULL);
	case SMP_PV_INT:
		smp__fmt(num, sizeof(num), "%lld", v->i);
		return scalar(c, v, num, strlen(num), SMP_STYLE_PLAIN, NULL);
	case SMP_PV_FLOAT:
		if (v->text)
			return scalar(c, v, v->text, v->len, SMP_STYLE_PLAIN,
				      NULL);
		smp__pyfloat_repr(num, sizeof(num), v->f);
		return scalar(c, v, num, strlen(num), SMP_STYLE_PLAIN, NULL);
	case SMP_PV_STR:
		return scalar(c, v, v->text, v->len, SMP_STYLE_DOUBLE_QUOTED,
			      NULL);
	case SMP_PV_LIST:
	case SMP_PV_TUPLE:
		nd = smp__arena_zalloc(c->arena, sizeof(*nd));
		if (!nd)
			return NULL;
		nd->kind = SMP_NODE_SEQUENCE;
		nd->tag = v->kind == SMP_PV_TUPLE ? SMP_TAG_TUPLE : NULL;
		nd->start = v->start;
		nd->end = v->end;
		nd->u.sequence.items = smp__arena_zalloc(
			c->arena, (v->count ? v->count : 1) * sizeof(void *));
		if (!nd->u.sequence.items)
			return NULL;
		c->depth++;
		for (k = 0; k < v->count; k++) {
			nd->u.sequence.items[k] = to_node(c, v->items[k]);
			if (!nd->u.sequence.items[k])
				return NULL;
		}
		c->depth--;
		nd->u.sequence.count = v->count;
		return nd;
	case SMP_PV_DICT:
	case SMP_PV_OBJECT:
		/* a session is its arguments too, so that a finding on its
		 * region_name is not one about an unknown value */
		if (v->kind == SMP_PV_OBJECT &&
		    v->cls != SMP_PYCLS_COMPILER_CONFIG &&
		    v->cls != SMP_PYCLS_HELPER &&
		    v->cls != SMP_PYCLS_BOTO3_SESSION &&
		    v->cls != SMP_PYCLS_SM_SESSION)
			break;
		nd = smp__arena_zalloc(c->arena, sizeof(*nd));
		if (!nd)
			return NULL;
		nd->kind = SMP_NODE_MAPPING;
		nd->start = v->start;
		nd->end = v->end;
		nd->u.mapping.items = smp__arena_zalloc(
			c->arena,
			(v->count ? v->count : 1) * sizeof(struct smp_pair));
		if (!nd->u.mapping.items)
			return NULL;
		c->depth++;
		for (k = 0; k < v->count; k++) {
			const struct smp_pyval *key = v->keys[k];
			struct smp_node *kn;

			if (key->kind == SMP_PV_STR)
				kn = scalar(c, key, key->text, key->len,
					    SMP_STYLE_PLAIN, NULL);
			else
				kn = to_node(c, key);
			if (!kn)
				return NULL;
			nd->u.mapping.items[k].key = kn;
			nd->u.mapping.items[k].value = to_node(c, v->items[k]);
			if (!nd->u.mapping.items[k].value)
				return NULL;
		}
		c->depth--;
		nd->u.mapping.count = v->count;
		return nd;
	default:
		break;
	}
	return unknown_node(c, v);
}

struct smp_node *
smp__pyval_node(const struct smp_pyeval *ev, struct smp_arena *arena,
		const struct smp_pyval *v)
{
	struct conv c;

	c.ev = ev;
	c.arena = arena;
	c.nodes = 0;
	c.max_nodes = 100000;
	c.depth = 0;
	return to_node(&c, v);
}
