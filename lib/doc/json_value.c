/*
 * json_value.c - the public read-only JSON tree (smp_json_*): the strict
 * JSON loader's node tree, handed out as opaque values, so that a caller
 * speaking a JSON protocol (the language server) reads it with the one
 * JSON reader the library has instead of a second one.
 */
#include <string.h>

#include "doc/load.h"
#include "util/alloc.h"
#include "util/error.h"
#include "util/text.h"

struct smp_json {
	struct smp_allocator alloc;
	struct smp_docs docs;
};

/* A value is a node of the tree; the public type only hides it. */
static const struct smp_node *
node(const struct smp_json_value *v)
{
	return (const struct smp_node *)(const void *)v;
}

static const struct smp_json_value *
value(const struct smp_node *n)
{
	return (const struct smp_json_value *)(const void *)n;
}

/* The first diagnostic the loader left (any is fatal for a protocol). */
static int
diag_error(const struct smp_docs *docs, struct smp_error *err)
{
	const struct smp_diag *d = &docs->diags[0];

	return smp__error_set(err, SMP_EPARSE, "<json>", &d->start, "%s",
			      d->message);
}

static int
parse_into(struct smp_json *j, const char *buf, size_t len, size_t max_len,
	   struct smp_error *err)
{
	struct smp_limits lim;
	size_t bad = 0;
	int rc;

	memset(&lim, 0, sizeof(lim));
	lim.max_file_size = max_len;
	lim.max_scalar_len = max_len;
	smp__limits_resolve(&lim, &lim);
	if (len > lim.max_file_size)
		return smp__error_set(err, SMP_EPARSE, "<json>", NULL,
				      "text is %zu bytes, larger than the "
				      "limit of %zu bytes",
				      len, lim.max_file_size);
	if (!smp__utf8_valid(buf, len, &bad)) {
		struct smp_pos at = smp__pos_at(buf, len, bad);

		return smp__error_set(err, SMP_EPARSE, "<json>", &at,
				      "invalid UTF-8 byte at offset %zu", bad);
	}
	rc = smp__load_json(&j->docs, buf, len, &lim);
	if (rc)
		return smp__error_set(err, rc, "<json>", NULL, "%s",
				      smp_strerror(rc));
	if (j->docs.ndiags)
		return diag_error(&j->docs, err);
	if (j->docs.count != 1 || !j->docs.items[0].root)
		return smp__error_set(err, SMP_EPARSE, "<json>", NULL,
				      "no JSON value");
	return 0;
}

int
smp_json_parse(struct smp_json **out, const char *buf, size_t len,
	       size_t max_len, const struct smp_allocator *alloc,
	       struct smp_error *err)
{
	struct smp_allocator a;
	struct smp_json *j;
	int rc;

	smp__error_clear(err);
	if (!out || (!buf && len))
		return SMP_EINVAL;
	*out = NULL;
	if (smp__allocator_resolve(&a, alloc))
		return SMP_EINVAL;
	j = smp__calloc(&a, 1, sizeof(*j));
	if (!j)
		return smp__error_set(err, SMP_ENOMEM, "<json>", NULL,
				      "out of memory");
	j->alloc = a;
	smp__docs_init(&j->docs, &j->alloc);
	rc = parse_into(j, buf ? buf : "", len, max_len, err);
	if (rc) {
		smp_json_free(j);
		return rc;
	}
	*out = j;
	return 0;
}

void
smp_json_free(struct smp_json *json)
{
	struct smp_allocator a;

	if (!json)
		return;
	a = json->alloc;
	smp__docs_release(&json->docs);
	smp__free(&a, json);
}

const struct smp_json_value *
smp_json_root(const struct smp_json *json)
{
	return json ? value(json->docs.items[0].root) : NULL;
}

enum smp_json_type
smp_json_type(const struct smp_json_value *v)
{
	const struct smp_node *n = node(v);

	if (!n)
		return SMP_JSON_NONE;
	if (n->kind == SMP_NODE_MAPPING)
		return SMP_JSON_OBJECT;
	if (n->kind == SMP_NODE_SEQUENCE)
		return SMP_JSON_ARRAY;
	/* every JSON string is double-quoted; the plain scalars are the
	 * literals and numbers, typed exactly by the core schema */
	if (n->u.scalar.style == SMP_STYLE_DOUBLE_QUOTED)
		return SMP_JSON_STRING;
	switch (smp__scalar_type(n)) {
	case SMP_SCALAR_BOOL:
		return SMP_JSON_BOOL;
	case SMP_SCALAR_NULL:
		return SMP_JSON_NULL;
	default:
		return SMP_JSON_NUMBER;
	}
}

const char *
smp_json_text(const struct smp_json_value *v, size_t *len)
{
	enum smp_json_type t = smp_json_type(v);

	if (t != SMP_JSON_STRING && t != SMP_JSON_NUMBER)
		return NULL;
	if (len)
		*len = node(v)->u.scalar.len;
	return node(v)->u.scalar.value;
}

int
smp_json_number(const struct smp_json_value *v, double *out)
{
	if (smp_json_type(v) != SMP_JSON_NUMBER || !out)
		return -1;
	return smp__scalar_number(node(v), out);
}

int
smp_json_bool(const struct smp_json_value *v)
{
	if (smp_json_type(v) != SMP_JSON_BOOL)
		return -1;
	return smp__scalar_bool(node(v));
}

const struct smp_json_value *
smp_json_get(const struct smp_json_value *v, const char *key)
{
	if (smp_json_type(v) != SMP_JSON_OBJECT || !key)
		return NULL;
	return value(smp__map_get(node(v), key));
}

size_t
smp_json_length(const struct smp_json_value *v)
{
	switch (smp_json_type(v)) {
	case SMP_JSON_OBJECT:
		return node(v)->u.mapping.count;
	case SMP_JSON_ARRAY:
		return node(v)->u.sequence.count;
	default:
		return 0;
	}
}

const struct smp_json_value *
smp_json_at(const struct smp_json_value *v, size_t i)
{
	if (i >= smp_json_length(v))
		return NULL;
	if (node(v)->kind == SMP_NODE_MAPPING)
		return value(node(v)->u.mapping.items[i].value);
	return value(node(v)->u.sequence.items[i]);
}

const char *
smp_json_key_at(const struct smp_json_value *v, size_t i)
{
	if (smp_json_type(v) != SMP_JSON_OBJECT || i >= smp_json_length(v))
		return NULL;
	return node(v)->u.mapping.items[i].key->u.scalar.value;
}
