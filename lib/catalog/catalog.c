/*
 * catalog.c - reading instances.json, tested-models.json and
 * frameworks.json into the catalog. The documents go through the JSON
 * loader used for specs, are checked against the same structure as their
 * schemas in schemas/ (required keys, types, enums, schema_version), and
 * everything kept is copied into the catalog's arena so the parsed
 * documents can be released at once.
 */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "catalog/catalog.h"
#include "doc/load.h"
#include "util/error.h"
#include "util/text.h"

#define SCHEMA_VERSION 1
#define NOT_KEPT SIZE_MAX

/* How a field is checked and where its value goes. */
enum kind {
	K_SKIP,     /* known and required, checked by the caller */
	K_STR,      /* string, copied into the arena */
	K_OPT_STR,  /* string or null (NULL) */
	K_INT,      /* non-negative integer into an int */
	K_OPT_INT,  /* the same or null (0) */
	K_NUM,      /* non-negative number into a double */
	K_OPT_NUM,  /* the same or null (0) */
	K_BOOL,     /* boolean into an int */
	K_STR_LIST, /* list of strings: array + size_t count */
	K_NODE_STR, /* string, its node kept (not copied) */
	K_NODE_SEQ, /* list, its node kept */
	K_NODE_MAP  /* mapping, its node kept */
};

struct field {
	const char *key;
	enum kind kind;
	size_t off;                 /* destination, or NOT_KEPT */
	size_t count_off;           /* K_STR_LIST: where the count goes */
	const char *const *allowed; /* K_STR: NULL-terminated enum */
};

/* The top level of any of the three files. */
struct top {
	const struct smp_node *data_version;
	const struct smp_node *generated;
	const struct smp_node *sources;
	const struct smp_node *rows;
	const struct smp_node *configs;
	const struct smp_node *registries;
	const struct smp_node *hostnames;
	const struct smp_node *suffixes;
	const struct smp_node *pytorchxla;
	const char *const *classes;
	size_t class_count;
	const char *const *efa;
	size_t efa_count;
	const char *const *graviton;
	size_t graviton_count;
};

/* State of one load: the catalog being built and where errors go. */
struct loader {
	struct smp_catalog *cat;
	struct smp_error *err;
	const struct smp_data_buffer *in; /* the buffer being read */
};

static const char *const frameworks_enum[] = {"pytorch", "tensorflow", NULL};
static const char *const estimators_enum[] = {"huggingface", "pytorch",
					      "tensorflow", NULL};

#define TOP(k, kind, m)                                                        \
	{                                                                      \
		k, kind, offsetof(struct top, m), 0, NULL                      \
	}
#define TOP_COMMON                                                             \
	{"schema_version", K_SKIP, NOT_KEPT, 0, NULL},                         \
		TOP("data_version", K_NODE_STR, data_version),                 \
		TOP("generated", K_NODE_STR, generated),                       \
		TOP("sources", K_NODE_SEQ, sources)

static const struct field instances_top[] = {
	TOP_COMMON,
	TOP("instances", K_NODE_SEQ, rows),
};

static const struct field tested_top[] = {
	TOP_COMMON,
	TOP("models", K_NODE_SEQ, rows),
};

static const struct field frameworks_top[] = {
	TOP_COMMON,
	{"supported_instance_classes", K_STR_LIST,
	 offsetof(struct top, classes), offsetof(struct top, class_count),
	 NULL},
	{"sdk_efa_instance_types", K_STR_LIST, offsetof(struct top, efa),
	 offsetof(struct top, efa_count), NULL},
	TOP("pytorchxla_min_version", K_NODE_MAP, pytorchxla),
	TOP("images", K_NODE_SEQ, rows),
	TOP("image_configs", K_NODE_SEQ, configs),
	TOP("image_registries", K_NODE_SEQ, registries),
	TOP("ecr_hostnames", K_NODE_SEQ, hostnames),
	TOP("image_tag_suffixes", K_NODE_SEQ, suffixes),
	{"sdk_graviton_families", K_STR_LIST, offsetof(struct top, graviton),
	 offsetof(struct top, graviton_count), NULL},
};

static const struct field source_fields[] = {
	{"key", K_NODE_STR, NOT_KEPT, 0, NULL},
	{"description", K_NODE_STR, NOT_KEPT, 0, NULL},
};

#define INST(k, kind, m)                                                       \
	{                                                                      \
		k, kind, offsetof(struct smp_instance, m), 0, NULL             \
	}
static const struct field instance_fields[] = {
	INST("type", K_STR, type),
	INST("family", K_STR, family),
	INST("vcpus", K_INT, vcpus),
	INST("memory_gib", K_NUM, memory_gib),
	INST("gpus", K_INT, gpus),
	INST("gpu_model", K_OPT_STR, gpu_model),
	INST("gpu_memory_gib", K_OPT_NUM, gpu_memory_gib),
	INST("efa", K_BOOL, efa),
	INST("network_gbps", K_OPT_NUM, network_gbps),
	INST("compiler_supported", K_BOOL, compiler_supported),
	{"source", K_NODE_STR, NOT_KEPT, 0, NULL},
};

#define TM(k, kind, m)                                                         \
	{                                                                      \
		k, kind, offsetof(struct smp_tested_model, m), 0, NULL         \
	}
static const struct field tested_fields[] = {
	{"framework", K_STR, offsetof(struct smp_tested_model, framework), 0,
	 frameworks_enum},
	TM("framework_version", K_STR, framework_version),
	TM("transformers_version", K_OPT_STR, transformers_version),
	TM("model", K_STR, model),
	TM("dataset", K_OPT_STR, dataset),
	TM("instance_type", K_STR, instance_type),
	TM("precision", K_OPT_STR, precision),
	TM("sequence_length", K_OPT_INT, sequence_length),
	TM("scope", K_OPT_STR, scope),
	TM("native_batch_size", K_OPT_INT, native_batch_size),
	TM("compiler_batch_size", K_INT, compiler_batch_size),
	TM("batch_size_is_lower_bound", K_BOOL, batch_size_is_lower_bound),
	TM("instance_count", K_OPT_INT, instance_count),
	{"source", K_NODE_STR, NOT_KEPT, 0, NULL},
};

#define IMG(k, kind, m)                                                        \
	{                                                                      \
		k, kind, offsetof(struct smp_image, m), 0, NULL                \
	}
#define IMG_LIST(k, m, c)                                                      \
	{                                                                      \
		k, K_STR_LIST, offsetof(struct smp_image, m),                  \
			offsetof(struct smp_image, c), NULL                    \
	}
static const struct field image_fields[] = {
	{"estimator", K_STR, offsetof(struct smp_image, estimator), 0,
	 estimators_enum},
	{"framework", K_STR, offsetof(struct smp_image, framework), 0,
	 frameworks_enum},
	IMG("framework_version", K_STR, framework_version),
	IMG_LIST("framework_aliases", framework_aliases, framework_alias_count),
	IMG("transformers_version", K_OPT_STR, transformers_version),
	IMG_LIST("transformers_aliases", transformers_aliases,
		 transformers_alias_count),
	IMG_LIST("py_versions", py_versions, py_version_count),
	IMG("repository", K_STR, repository),
	{"source", K_NODE_STR, NOT_KEPT, 0, NULL},
};

#define CFG(k, kind, m)                                                        \
	{                                                                      \
		k, kind, offsetof(struct smp_image_config, m), 0, NULL         \
	}
#define CFG_LIST(k, m, c)                                                      \
	{                                                                      \
		k, K_STR_LIST, offsetof(struct smp_image_config, m),           \
			offsetof(struct smp_image_config, c), NULL             \
	}
static const struct field image_config_fields[] = {
	{"framework", K_STR, offsetof(struct smp_image_config, framework), 0,
	 estimators_enum},
	CFG("compiler", K_BOOL, compiler),
	CFG("version", K_STR, version),
	CFG_LIST("version_aliases", version_aliases, version_alias_count),
	CFG("base_framework", K_OPT_STR, base_framework),
	CFG_LIST("base_framework_aliases", base_framework_aliases,
		 base_framework_alias_count),
	CFG_LIST("py_versions", py_versions, py_version_count),
	CFG("py_keyed", K_BOOL, py_keyed),
	CFG("repository", K_STR, repository),
	CFG("registries", K_STR, registries),
	CFG_LIST("processors", processors, processor_count),
	CFG("container_version_cpu", K_OPT_STR, container_version_cpu),
	CFG("container_version_gpu", K_OPT_STR, container_version_gpu),
};

static const struct field registry_fields[] = {
	{"set", K_STR, offsetof(struct smp_image_registry, set), 0, NULL},
	{"region", K_STR, offsetof(struct smp_image_registry, region), 0, NULL},
	{"account", K_STR, offsetof(struct smp_image_registry, account), 0,
	 NULL},
};

static const struct field hostname_fields[] = {
	{"region", K_STR, offsetof(struct smp_ecr_hostname, region), 0, NULL},
	{"hostname", K_STR, offsetof(struct smp_ecr_hostname, hostname), 0,
	 NULL},
};

static const struct field suffix_fields[] = {
	{"tag", K_STR, offsetof(struct smp_image_tag_suffix, tag), 0, NULL},
	{"suffix", K_STR, offsetof(struct smp_image_tag_suffix, suffix), 0,
	 NULL},
};

static const struct field pytorchxla_fields[] = {
	{"huggingface", K_STR,
	 offsetof(struct smp_catalog, pytorchxla_min_huggingface), 0, NULL},
	{"pytorch", K_STR, offsetof(struct smp_catalog, pytorchxla_min_pytorch),
	 0, NULL},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_FIELDS 16 /* read_object's bound on a field table */
_Static_assert(COUNT(tested_fields) <= MAX_FIELDS &&
		       COUNT(instance_fields) <= MAX_FIELDS &&
		       COUNT(image_fields) <= MAX_FIELDS &&
		       COUNT(image_config_fields) <= MAX_FIELDS &&
		       COUNT(frameworks_top) <= MAX_FIELDS,
	       "a field table is longer than MAX_FIELDS");

/* Fills err (when given) and returns code. */
static int
failv(struct loader *L, int code, const struct smp_pos *at, const char *fmt,
      va_list ap)
{
	return smp__error_setv(L->err, code,
			       L->in && L->in->name ? L->in->name
						    : "instance data",
			       at, fmt, ap);
}

static int fail_at(struct loader *L, const struct smp_node *n, const char *fmt,
		   ...) __attribute__((format(printf, 3, 4)));

/* SMP_EPARSE at node n (the start of the offending value or key). */
static int
fail_at(struct loader *L, const struct smp_node *n, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = failv(L, SMP_EPARSE, n ? &n->start : NULL, fmt, ap);
	va_end(ap);
	return rc;
}

static int fail_code(struct loader *L, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* An error without a position (out of memory, no buffer). */
static int
fail_code(struct loader *L, int code, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = failv(L, code, NULL, fmt, ap);
	va_end(ap);
	return rc;
}

static int
fail_nomem(struct loader *L)
{
	return fail_code(L, SMP_ENOMEM,
			 "out of memory while loading instance data");
}

static int
is_string(const struct smp_node *n)
{
	return n->kind == SMP_NODE_SCALAR &&
	       smp__scalar_type(n) == SMP_SCALAR_STRING;
}

static int
is_null(const struct smp_node *n)
{
	return n->kind == SMP_NODE_SCALAR &&
	       smp__scalar_type(n) == SMP_SCALAR_NULL;
}

/* A string node's text copied into the catalog's arena. */
static int
copy_string(struct loader *L, const char *key, const struct smp_node *n,
	    const char **out)
{
	if (strlen(n->u.scalar.value) != n->u.scalar.len)
		return fail_at(L, n, "'%s' must not contain a NUL character",
			       key);
	if (!out)
		return 0; /* checked, not kept */
	*out = smp__arena_strndup(&L->cat->arena, n->u.scalar.value,
				  n->u.scalar.len);
	return *out ? 0 : fail_nomem(L);
}

static int
check_enum(struct loader *L, const struct field *f, const struct smp_node *n)
{
	char list[256];
	size_t i, used = 0;

	for (i = 0; f->allowed[i]; i++)
		if (smp__scalar_is(n, f->allowed[i]))
			return 0;
	list[0] = '\0';
	for (i = 0; f->allowed[i]; i++) {
		int w = snprintf(list + used, sizeof(list) - used, "%s'%s'",
				 i ? ", " : "", f->allowed[i]);

		if (w < 0 || (size_t)w >= sizeof(list) - used)
			break;
		used += (size_t)w;
	}
	return fail_at(L, n, "'%s' must be one of %s, found '%s'", f->key, list,
		       n->u.scalar.value);
}

static int
read_int(struct loader *L, const char *key, const struct smp_node *n, int *out)
{
	long long v;

	if (n->kind != SMP_NODE_SCALAR || smp__scalar_type(n) != SMP_SCALAR_INT)
		return fail_at(L, n, "'%s' must be an integer, found %s", key,
			       smp__node_type_name(n));
	if (smp__scalar_int(n, &v) || v > INT_MAX)
		return fail_at(L, n, "'%s' is out of range", key);
	if (v < 0)
		return fail_at(L, n, "'%s' must not be negative", key);
	*out = (int)v;
	return 0;
}

static int
read_num(struct loader *L, const char *key, const struct smp_node *n,
	 double *out)
{
	double v;

	if (smp__scalar_number(n, &v))
		return fail_at(L, n, "'%s' must be a number, found %s", key,
			       smp__node_type_name(n));
	if (!isfinite(v))
		return fail_at(L, n, "'%s' is out of range", key);
	if (v < 0)
		return fail_at(L, n, "'%s' must not be negative", key);
	*out = v;
	return 0;
}

static int
read_str_list(struct loader *L, const char *key, const struct smp_node *n,
	      const char *const **out, size_t *count)
{
	const char **items;
	size_t i, len;
	int rc;

	if (n->kind != SMP_NODE_SEQUENCE)
		return fail_at(L, n, "'%s' must be a list of strings, found %s",
			       key, smp__node_type_name(n));
	len = n->u.sequence.count;
	items = smp__arena_zalloc(&L->cat->arena,
				  (len ? len : 1) * sizeof(*items));
	if (!items)
		return fail_nomem(L);
	for (i = 0; i < len; i++) {
		const struct smp_node *e = n->u.sequence.items[i];

		if (!is_string(e))
			return fail_at(L, e,
				       "each entry of '%s' must be a string, "
				       "found %s",
				       key, smp__node_type_name(e));
		rc = copy_string(L, key, e, &items[i]);
		if (rc)
			return rc;
	}
	*out = items;
	*count = len;
	return 0;
}

/*
 * Checks one value against its field and stores it into dst (unless the
 * field is NOT_KEPT). Values go through locals so that a field without a
 * destination is still checked.
 */
static int
read_field(struct loader *L, const struct field *f, const struct smp_node *v,
	   void *dst)
{
	char *p = f->off == NOT_KEPT || !dst ? NULL : (char *)dst + f->off;
	const char *name = f->key, *str = NULL;
	const char *const *list = NULL;
	size_t count = 0;
	double num = 0;
	int rc = 0, i = 0;

	switch (f->kind) {
	case K_SKIP:
		return 0;
	case K_OPT_STR:
	case K_STR:
		if (f->kind == K_OPT_STR && is_null(v))
			break;
		if (!is_string(v))
			return fail_at(
				L, v, "'%s' must be a string%s, found %s", name,
				f->kind == K_OPT_STR ? " or null" : "",
				smp__node_type_name(v));
		rc = f->allowed ? check_enum(L, f, v) : 0;
		if (!rc)
			rc = copy_string(L, name, v, p ? &str : NULL);
		break;
	case K_OPT_INT:
	case K_INT:
		if (f->kind == K_INT || !is_null(v))
			rc = read_int(L, name, v, &i);
		break;
	case K_OPT_NUM:
	case K_NUM:
		if (f->kind == K_NUM || !is_null(v))
			rc = read_num(L, name, v, &num);
		break;
	case K_BOOL:
		i = smp__scalar_bool(v);
		if (i < 0)
			return fail_at(L, v, "'%s' must be a boolean, found %s",
				       name, smp__node_type_name(v));
		break;
	case K_STR_LIST:
		rc = read_str_list(L, name, v, &list, &count);
		break;
	case K_NODE_STR:
		if (!is_string(v))
			return fail_at(L, v, "'%s' must be a string, found %s",
				       name, smp__node_type_name(v));
		break;
	case K_NODE_SEQ:
		if (v->kind != SMP_NODE_SEQUENCE)
			return fail_at(L, v, "'%s' must be a list, found %s",
				       name, smp__node_type_name(v));
		break;
	case K_NODE_MAP:
		if (v->kind != SMP_NODE_MAPPING)
			return fail_at(L, v, "'%s' must be a mapping, found %s",
				       name, smp__node_type_name(v));
		break;
	}
	if (rc || !p)
		return rc;
	switch (f->kind) {
	case K_SKIP:
		break;
	case K_OPT_STR:
	case K_STR:
		memcpy(p, &str, sizeof(str));
		break;
	case K_OPT_INT:
	case K_INT:
	case K_BOOL:
		memcpy(p, &i, sizeof(i));
		break;
	case K_OPT_NUM:
	case K_NUM:
		memcpy(p, &num, sizeof(num));
		break;
	case K_STR_LIST:
		memcpy(p, &list, sizeof(list));
		memcpy((char *)dst + f->count_off, &count, sizeof(count));
		break;
	case K_NODE_STR:
	case K_NODE_SEQ:
	case K_NODE_MAP:
		memcpy(p, &v, sizeof(v)); /* NOLINT(bugprone-sizeof-expression):
					     copies the pointer itself */
		break;
	}
	return 0;
}

/*
 * Checks a mapping against its fields: no unknown keys (the schemas say
 * additionalProperties: false), every field present and well typed.
 * what names the mapping in the message when it is not one.
 */
static int
read_object(struct loader *L, const struct smp_node *n,
	    const struct field *fields, size_t nfields, void *dst,
	    const char *what)
{
	const struct smp_node *vals[MAX_FIELDS];
	size_t i, j;
	int rc;

	if (!n) /* callers pass checked nodes; for the static analyzer */
		return fail_code(L, SMP_EINTERNAL, "no node for %s", what);
	if (n->kind != SMP_NODE_MAPPING)
		return fail_at(L, n, "%s must be a mapping, found %s", what,
			       smp__node_type_name(n));
	/* one pass over the members; the loader rejected duplicate keys.
	 * The files list the keys in the tables' order: try that first. */
	memset(vals, 0, sizeof(vals));
	for (i = 0; i < n->u.mapping.count; i++) {
		const struct smp_pair *pr = &n->u.mapping.items[i];

		if (i < nfields && smp__scalar_is(pr->key, fields[i].key))
			j = i;
		else
			for (j = 0; j < nfields; j++)
				if (smp__scalar_is(pr->key, fields[j].key))
					break;
		if (j == nfields)
			return fail_at(L, pr->key, "unknown key '%s' in %s",
				       pr->key->kind == SMP_NODE_SCALAR
					       ? pr->key->u.scalar.value
					       : "?",
				       what);
		vals[j] = pr->value;
	}
	for (j = 0; j < nfields; j++) {
		if (!vals[j])
			return fail_at(L, n, "missing required key '%s' in %s",
				       fields[j].key, what);
		rc = read_field(L, &fields[j], vals[j], dst);
		if (rc)
			return rc;
	}
	return 0;
}

/* "2026.11.30" (sep '.') or "2026-11-30" (sep '-'). */
static int
is_date(const struct smp_node *n, char sep)
{
	const char *s = n->u.scalar.value;
	size_t i;

	if (n->u.scalar.len != 10)
		return 0;
	for (i = 0; i < 10; i++) {
		if (i == 4 || i == 7) {
			if (s[i] != sep)
				return 0;
		} else if (s[i] < '0' || s[i] > '9') {
			return 0;
		}
	}
	return 1;
}

/*
 * The parts shared by the three files: schema_version first (a file of
 * another version is reported as such, not as unknown keys), then the
 * fields, the version strings and the sources list. The first file read
 * sets data_version and generated; the others must agree with it.
 */
static int
read_top(struct loader *L, const struct smp_node *root,
	 const struct field *fields, size_t nfields, struct top *t)
{
	const struct smp_node *sv;
	struct smp_catalog *cat = L->cat;
	long long v;
	size_t i;
	int rc;

	memset(t, 0, sizeof(*t));
	if (root->kind != SMP_NODE_MAPPING)
		return fail_at(L, root,
			       "the document must be a mapping, found %s",
			       smp__node_type_name(root));
	sv = smp__map_get(root, "schema_version");
	if (!sv)
		return fail_at(L, root,
			       "missing required key 'schema_version'");
	if (sv->kind != SMP_NODE_SCALAR ||
	    smp__scalar_type(sv) != SMP_SCALAR_INT)
		return fail_at(L, sv,
			       "'schema_version' must be an integer, found %s",
			       smp__node_type_name(sv));
	if (smp__scalar_int(sv, &v) || v != SCHEMA_VERSION)
		return fail_at(L, sv,
			       "unsupported schema_version %s: this build "
			       "reads version %d",
			       sv->u.scalar.value, SCHEMA_VERSION);
	rc = read_object(L, root, fields, nfields, t, "the document");
	if (rc)
		return rc;
	/* read_object stored them all; stated for the static analyzer */
	if (!t->data_version || !t->generated || !t->sources || !t->rows)
		return fail_at(L, root, "the document is incomplete");
	if (!is_date(t->data_version, '.'))
		return fail_at(L, t->data_version,
			       "'data_version' must look like YYYY.MM.DD, "
			       "found '%s'",
			       t->data_version->u.scalar.value);
	if (!is_date(t->generated, '-'))
		return fail_at(L, t->generated,
			       "'generated' must look like YYYY-MM-DD, found "
			       "'%s'",
			       t->generated->u.scalar.value);
	if (!cat->data_version) {
		rc = copy_string(L, "data_version", t->data_version,
				 &cat->data_version);
		if (!rc)
			rc = copy_string(L, "generated", t->generated,
					 &cat->generated);
		if (rc)
			return rc;
	} else if (strcmp(cat->data_version, t->data_version->u.scalar.value) !=
		   0) {
		return fail_at(L, t->data_version,
			       "'data_version' is '%s' but the instance types "
			       "have '%s': the files must come from one "
			       "release",
			       t->data_version->u.scalar.value,
			       cat->data_version);
	} else if (strcmp(cat->generated, t->generated->u.scalar.value) != 0) {
		return fail_at(L, t->generated,
			       "'generated' is '%s' but the instance types "
			       "have '%s': the files must come from one "
			       "release",
			       t->generated->u.scalar.value, cat->generated);
	}
	for (i = 0; i < t->sources->u.sequence.count; i++) {
		rc = read_object(L, t->sources->u.sequence.items[i],
				 source_fields, COUNT(source_fields), NULL,
				 "each entry of 'sources'");
		if (rc)
			return rc;
	}
	for (i = 0; !t->rows->u.sequence.count && i < nfields; i++)
		if (fields[i].off == offsetof(struct top, rows))
			return fail_at(L, t->rows, "'%s' must not be empty",
				       fields[i].key);
	return 0;
}

/*
 * Reads rows of elem_size bytes each into a zeroed arena array; what
 * names an entry in messages.
 */
static int
read_rows(struct loader *L, const struct smp_node *seq,
	  const struct field *fields, size_t nfields, size_t elem_size,
	  void **out, size_t *count, const char *what)
{
	size_t i, n;
	char *items;
	int rc;

	if (!seq) /* read_top checked it; for the static analyzer */
		return fail_code(L, SMP_EINTERNAL, "no rows");
	n = seq->u.sequence.count;

	if (n > SIZE_MAX / elem_size)
		return fail_nomem(L);
	items = smp__arena_zalloc(&L->cat->arena, n * elem_size);
	if (!items)
		return fail_nomem(L);
	for (i = 0; i < n; i++) {
		rc = read_object(L, seq->u.sequence.items[i], fields, nfields,
				 items + i * elem_size, what);
		if (rc)
			return rc;
	}
	*out = items;
	*count = n;
	return 0;
}

/*
 * ^ml\.[a-z0-9-]+\.[a-z0-9]+$ (the schemas' pattern): a type name is
 * printed by update-data and matched against specs, so a downloaded one
 * carrying control characters, escapes or workflow commands is refused.
 */
static int
valid_type_name(const char *s)
{
	size_t i = 3, dots = 0, run = 0;

	if (strncmp(s, "ml.", 3) != 0)
		return 0;
	for (; s[i]; i++) {
		char c = s[i];

		if (c == '.') {
			if (!run || ++dots > 1)
				return 0;
			run = 0;
		} else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
			   (c == '-' && dots == 0)) {
			run++;
		} else {
			return 0;
		}
	}
	return dots == 1 && run > 0;
}

/* The value node of key in the i-th row of seq, for a position. */
static const struct smp_node *
row_key(const struct smp_node *seq, size_t i, const char *key)
{
	return seq ? smp__map_get(seq->u.sequence.items[i], key) : NULL;
}

/* Sane ranges the schemas give too (instances.schema.json,
 * tested-models.schema.json): absurd data is refused with a position
 * instead of silencing a rule (gpus 0 on a GPU type) or being pasted into
 * a fix (a batch size of 0). */
#define MAX_VCPUS 4096
#define MAX_MEMORY_GIB 65536.0
#define MAX_GPUS 64
#define MAX_GPU_MEMORY_GIB 1024.0
#define MAX_NETWORK_GBPS 100000.0
#define MAX_BATCH 1048576
#define MAX_SEQUENCE 1048576
#define MAX_INSTANCE_COUNT 4096

static int
check_instances(struct loader *L, const struct smp_node *seq,
		const struct smp_instance *rows, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct smp_instance *r = &rows[i];

		if (!valid_type_name(r->type))
			return fail_at(L, row_key(seq, i, "type"),
				       "'type' must be an instance type name "
				       "such as ml.p3.8xlarge (lower-case "
				       "letters, digits, '-' and two dots)");
		if (r->vcpus < 1 || r->vcpus > MAX_VCPUS)
			return fail_at(L, row_key(seq, i, "vcpus"),
				       "'vcpus' must be from 1 to %d",
				       MAX_VCPUS);
		if (!(r->memory_gib > 0) || r->memory_gib > MAX_MEMORY_GIB)
			return fail_at(L, row_key(seq, i, "memory_gib"),
				       "'memory_gib' must be above 0 and at "
				       "most %.0f",
				       MAX_MEMORY_GIB);
		if (r->gpus > MAX_GPUS)
			return fail_at(L, row_key(seq, i, "gpus"),
				       "'gpus' must be at most %d", MAX_GPUS);
		if (r->gpu_model && r->gpus < 1)
			return fail_at(L, row_key(seq, i, "gpus"),
				       "'gpus' must be at least 1 for a type "
				       "with a 'gpu_model'");
		if (!r->gpu_model && r->gpus > 0)
			return fail_at(L, row_key(seq, i, "gpu_model"),
				       "'gpu_model' must name the GPU of a "
				       "type with 'gpus' above 0");
		if (r->gpu_memory_gib > MAX_GPU_MEMORY_GIB)
			return fail_at(L, row_key(seq, i, "gpu_memory_gib"),
				       "'gpu_memory_gib' must be at most %.0f",
				       MAX_GPU_MEMORY_GIB);
		if (r->network_gbps > MAX_NETWORK_GBPS)
			return fail_at(L, row_key(seq, i, "network_gbps"),
				       "'network_gbps' must be at most %.0f",
				       MAX_NETWORK_GBPS);
	}
	return 0;
}

/* A count within 1..max; an optional one may be null. */
static int
check_count(struct loader *L, const struct smp_node *seq, size_t i,
	    const char *key, int v, int required, int max)
{
	const struct smp_node *n = row_key(seq, i, key);

	/* a null reads as 0: the node tells a null from a 0 */
	if ((!required && n && is_null(n)) || (v >= 1 && v <= max))
		return 0;
	return fail_at(L, n, "'%s' must be from 1 to %d%s", key, max,
		       required ? "" : " (or null)");
}

static int
check_tested(struct loader *L, const struct smp_node *seq,
	     const struct smp_tested_model *rows, size_t n)
{
	size_t i;
	int rc;

	if (!rows)
		return 0; /* no table, nothing to check */
	for (i = 0; i < n; i++) {
		const struct smp_tested_model *r = &rows[i];

		if (!valid_type_name(r->instance_type))
			return fail_at(L, row_key(seq, i, "instance_type"),
				       "'instance_type' must be an instance "
				       "type name such as ml.p3.8xlarge");
		if ((rc = check_count(L, seq, i, "compiler_batch_size",
				      r->compiler_batch_size, 1, MAX_BATCH)) ||
		    (rc = check_count(L, seq, i, "native_batch_size",
				      r->native_batch_size, 0, MAX_BATCH)) ||
		    (rc = check_count(L, seq, i, "sequence_length",
				      r->sequence_length, 0, MAX_SEQUENCE)) ||
		    (rc = check_count(L, seq, i, "instance_count",
				      r->instance_count, 0,
				      MAX_INSTANCE_COUNT)))
			return rc;
	}
	return 0;
}

static int
read_instances(struct loader *L, const struct smp_node *root)
{
	struct smp_catalog *cat = L->cat;
	const struct smp_node *seq;
	struct top t;
	void *rows = NULL;
	size_t i, j;
	int rc;

	rc = read_top(L, root, instances_top, COUNT(instances_top), &t);
	if (rc)
		return rc;
	seq = t.rows;
	rc = read_rows(L, seq, instance_fields, COUNT(instance_fields),
		       sizeof(struct smp_instance), &rows, &cat->instance_count,
		       "each entry of 'instances'");
	if (rc)
		return rc;
	cat->instances = rows;
	rc = check_instances(L, seq, cat->instances, cat->instance_count);
	if (rc)
		return rc;
	/* lookups go by type: two rows for one type would be ambiguous */
	for (i = 1; rows && seq && i < cat->instance_count; i++) {
		const char *type = cat->instances[i].type;

		for (j = 0; type && j < i; j++)
			if (cat->instances[j].type &&
			    strcmp(type, cat->instances[j].type) == 0)
				return fail_at(
					L,
					smp__map_get(seq->u.sequence.items[i],
						     "type"),
					"instance type '%s' is listed twice",
					type);
	}
	return 0;
}

static int
read_tested(struct loader *L, const struct smp_node *root)
{
	struct smp_catalog *cat = L->cat;
	struct top t;
	void *rows = NULL;
	size_t i;
	int rc;

	rc = read_top(L, root, tested_top, COUNT(tested_top), &t);
	if (rc)
		return rc;
	rc = read_rows(L, t.rows, tested_fields, COUNT(tested_fields),
		       sizeof(struct smp_tested_model), &rows,
		       &cat->tested_count, "each entry of 'models'");
	if (rc)
		return rc;
	cat->tested = rows;
	rc = check_tested(L, t.rows, cat->tested, cat->tested_count);
	if (rc)
		return rc;
	for (i = 0; rows && i < cat->tested_count; i++) {
		struct smp_tested_model *m =
			(struct smp_tested_model *)rows + i;
		size_t n = m->model ? strlen(m->model) + 1 : 1;
		char *key = smp__arena_alloc(&cat->arena, n);

		if (!key)
			return fail_nomem(L);
		smp__model_key(key, n, m->model);
		m->model_key = key;
	}
	return 0;
}

/* The set of a configuration's 'registries' names at least one row. */
static int
registry_set_known(const struct smp_catalog *cat, const char *set)
{
	size_t i;

	for (i = 0; set && i < cat->image_registry_count; i++)
		if (strcmp(cat->image_registries[i].set, set) == 0)
			return 1;
	return 0;
}

/* The SDK's training image tables of frameworks.json. */
static int
read_image_tables(struct loader *L, const struct top *t)
{
	struct smp_catalog *cat = L->cat;
	void *rows = NULL;
	size_t i;
	int rc;

	rc = read_rows(
		L, t->registries, registry_fields, COUNT(registry_fields),
		sizeof(struct smp_image_registry), &rows,
		&cat->image_registry_count, "each entry of 'image_registries'");
	if (rc)
		return rc;
	cat->image_registries = rows;
	rc = read_rows(L, t->hostnames, hostname_fields, COUNT(hostname_fields),
		       sizeof(struct smp_ecr_hostname), &rows,
		       &cat->ecr_hostname_count,
		       "each entry of 'ecr_hostnames'");
	if (rc)
		return rc;
	cat->ecr_hostnames = rows;
	rc = read_rows(L, t->suffixes, suffix_fields, COUNT(suffix_fields),
		       sizeof(struct smp_image_tag_suffix), &rows,
		       &cat->image_tag_suffix_count,
		       "each entry of 'image_tag_suffixes'");
	if (rc)
		return rc;
	cat->image_tag_suffixes = rows;
	cat->graviton_families = t->graviton;
	cat->graviton_family_count = t->graviton_count;
	rc = read_rows(
		L, t->configs, image_config_fields, COUNT(image_config_fields),
		sizeof(struct smp_image_config), &rows,
		&cat->image_config_count, "each entry of 'image_configs'");
	if (rc)
		return rc;
	cat->image_configs = rows;
	for (i = 0; t->configs && i < cat->image_config_count; i++) {
		const struct smp_image_config *c = &cat->image_configs[i];
		const struct smp_node *row = t->configs->u.sequence.items[i];

		if (!registry_set_known(cat, c->registries))
			return fail_at(L, smp__map_get(row, "registries"),
				       "registry set '%s' is not in "
				       "'image_registries'",
				       c->registries ? c->registries : "");
		if (!c->processor_count)
			return fail_at(L, smp__map_get(row, "processors"),
				       "'processors' must not be empty");
	}
	return 0;
}

static int
read_frameworks(struct loader *L, const struct smp_node *root)
{
	struct smp_catalog *cat = L->cat;
	struct top t;
	void *rows = NULL;
	size_t i;
	int rc;

	rc = read_top(L, root, frameworks_top, COUNT(frameworks_top), &t);
	if (rc)
		return rc;
	cat->supported_classes = t.classes;
	cat->supported_class_count = t.class_count;
	cat->sdk_efa_types = t.efa;
	cat->sdk_efa_type_count = t.efa_count;
	rc = read_object(L, t.pytorchxla, pytorchxla_fields,
			 COUNT(pytorchxla_fields), cat,
			 "'pytorchxla_min_version'");
	if (rc)
		return rc;
	rc = read_rows(L, t.rows, image_fields, COUNT(image_fields),
		       sizeof(struct smp_image), &rows, &cat->image_count,
		       "each entry of 'images'");
	if (rc)
		return rc;
	cat->images = rows;
	/* only the Hugging Face images are keyed by a Transformers version
	 * (t.rows is set when read_rows succeeded: for the static analyzer) */
	for (i = 0; rows && t.rows && i < cat->image_count; i++) {
		const struct smp_image *im = &cat->images[i];
		int hf = im->estimator &&
			 strcmp(im->estimator, "huggingface") == 0;

		if (hf != (im->transformers_version != NULL))
			return fail_at(
				L,
				smp__map_get(t.rows->u.sequence.items[i],
					     "transformers_version"),
				hf ? "'transformers_version' must be set for "
				     "a huggingface image"
				   : "'transformers_version' must be null "
				     "unless the estimator is huggingface");
		if (!im->py_version_count)
			return fail_at(L,
				       smp__map_get(t.rows->u.sequence.items[i],
						    "py_versions"),
				       "'py_versions' must not be empty");
	}
	return read_image_tables(L, &t);
}

/*
 * Parses one buffer as strict JSON into docs. A loader finding (syntax,
 * duplicate key, limit) becomes SMP_EPARSE at its position.
 */
static int
parse(struct loader *L, struct smp_docs *docs, const struct smp_data_buffer *in)
{
	int rc;

	L->in = in;
	if (!in || (!in->buf && in->len))
		return fail_code(L, SMP_EINVAL, "no instance data buffer");
	rc = smp__load_strict(docs, in->name ? in->name : "instance data",
			      in->buf ? in->buf : "", in->len, 1, L->err);
	if (rc == SMP_ENOMEM)
		return fail_nomem(L);
	if (rc)
		return rc;
	if (docs->count != 1 || !docs->items[0].root) {
		struct smp_node at;

		memset(&at, 0, sizeof(at));
		at.start.line = 1;
		at.start.column = 1;
		return fail_at(L, &at, "expected one JSON document");
	}
	return 0;
}

typedef int (*reader_fn)(struct loader *, const struct smp_node *);

/* Parses, checks and copies one file; its documents are released here. */
static int
load_one(struct loader *L, const struct smp_allocator *a,
	 const struct smp_data_buffer *in, reader_fn read)
{
	struct smp_docs docs;
	int rc;

	smp__docs_init(&docs, a);
	rc = parse(L, &docs, in);
	if (!rc)
		rc = read(L, docs.items[0].root);
	smp__docs_release(&docs);
	return rc;
}

/*
 * Builds the catalog in a local copy and hands it over only when all
 * three files are good: on failure *cat is left exactly as it was (so a
 * caller can keep the last good data) and nothing is leaked.
 */
int
smp__catalog_load(struct smp_catalog *cat, const struct smp_allocator *a,
		  const struct smp_data_buffer *instances,
		  const struct smp_data_buffer *tested,
		  const struct smp_data_buffer *frameworks,
		  struct smp_error *err)
{
	struct smp_catalog tmp;
	struct loader L;
	int rc;

	memset(&tmp, 0, sizeof(tmp));
	smp__arena_init(&tmp.arena, a);
	L.cat = &tmp;
	L.err = err;
	L.in = NULL;
	rc = load_one(&L, a, instances, read_instances);
	if (!rc)
		rc = load_one(&L, a, tested, read_tested);
	if (!rc)
		rc = load_one(&L, a, frameworks, read_frameworks);
	if (rc) {
		smp__arena_release(&tmp.arena);
		return rc;
	}
	*cat = tmp;
	return 0;
}

/* Frees the catalog's arena; the catalog may be loaded again after. */
void
smp__catalog_release(struct smp_catalog *cat)
{
	if (!cat)
		return;
	smp__arena_release(&cat->arena);
	memset(cat, 0, sizeof(*cat));
}

/* Linear search: the table has a few dozen rows, kept in file order. */
const struct smp_instance *
smp__catalog_instance(const struct smp_catalog *cat, const char *type)
{
	size_t i;

	if (!cat || !type)
		return NULL;
	/* every type starts "ml.": compare from the family's first letter,
	 * which tells most rows apart without a call */
	if (strncmp(type, "ml.", 3) == 0) {
		for (i = 0; i < cat->instance_count; i++) {
			const char *t = cat->instances[i].type;

			if (t[0] == 'm' && t[1] == 'l' && t[2] == '.' &&
			    t[3] == type[3] && strcmp(t + 3, type + 3) == 0)
				return &cat->instances[i];
		}
		return NULL;
	}
	for (i = 0; i < cat->instance_count; i++)
		if (strcmp(cat->instances[i].type, type) == 0)
			return &cat->instances[i];
	return NULL;
}

/*
 * ASCII only (no locale): the page spells one model with '/' in one
 * table and '_' in another, and capitalizes names inconsistently.
 */
void
smp__model_key(char *out, size_t outsz, const char *model)
{
	size_t i;

	if (!outsz)
		return;
	for (i = 0; model && model[i] && i + 1 < outsz; i++) {
		char c = model[i];

		if (c == '/' || c == '_')
			c = '-';
		else if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		out[i] = c;
	}
	out[i] = '\0';
}

/* s equals canonical or one of the n aliases. */
static int
version_in(const char *s, const char *canonical, const char *const *aliases,
	   size_t n)
{
	size_t i;

	if (!s || !canonical)
		return 0;
	if (strcmp(s, canonical) == 0)
		return 1;
	for (i = 0; i < n; i++)
		if (strcmp(s, aliases[i]) == 0)
			return 1;
	return 0;
}

int
smp__image_framework_is(const struct smp_image *im, const char *version)
{
	return version_in(version, im->framework_version, im->framework_aliases,
			  im->framework_alias_count);
}

int
smp__image_transformers_is(const struct smp_image *im, const char *version)
{
	return version_in(version, im->transformers_version,
			  im->transformers_aliases,
			  im->transformers_alias_count);
}

/* The overlay's rows merged over the catalog's: replaced by type, or
 * appended in the overlay's order. */
static int
merge_overlay(struct loader *L, const struct smp_node *seq,
	      const struct smp_instance *rows, size_t n)
{
	struct smp_catalog *cat = L->cat;
	struct smp_instance *merged;
	size_t i, j, total = cat->instance_count;

	for (i = 0; i < n; i++) {
		for (j = 0; j < i; j++)
			if (strcmp(rows[i].type, rows[j].type) == 0)
				return fail_at(
					L,
					smp__map_get(seq->u.sequence.items[i],
						     "type"),
					"instance type '%s' is listed twice",
					rows[i].type);
		if (!smp__catalog_instance(cat, rows[i].type))
			total++;
	}
	if (total > SIZE_MAX / sizeof(*merged))
		return fail_nomem(L);
	merged = smp__arena_zalloc(&cat->arena, total * sizeof(*merged));
	if (!merged)
		return fail_nomem(L);
	if (cat->instance_count)
		memcpy(merged, cat->instances,
		       cat->instance_count * sizeof(*merged));
	total = cat->instance_count;
	for (i = 0; i < n; i++) {
		for (j = 0; j < cat->instance_count; j++)
			if (strcmp(merged[j].type, rows[i].type) == 0)
				break;
		if (j == cat->instance_count)
			j = total++;
		merged[j] = rows[i];
	}
	cat->instances = merged;
	cat->instance_count = total;
	return 0;
}

/*
 * The overlay is read like instances.json (same row fields, strict JSON,
 * schema_version 1) but holds only the rows to add or replace; its rows
 * live in the catalog's arena, which a failed context creation releases.
 */
int
smp__catalog_overlay(struct smp_catalog *cat, const struct smp_allocator *a,
		     const struct smp_data_buffer *overlay,
		     struct smp_error *err)
{
	const struct smp_node *root, *sv, *seq;
	struct smp_docs docs;
	struct loader L;
	void *rows = NULL;
	size_t n = 0, i;
	long long v;
	int rc;

	L.cat = cat;
	L.err = err;
	L.in = NULL;
	smp__docs_init(&docs, a);
	rc = parse(&L, &docs, overlay);
	if (rc)
		goto out;
	root = docs.items[0].root;
	if (root->kind != SMP_NODE_MAPPING) {
		rc = fail_at(&L, root,
			     "the document must be a mapping, found %s",
			     smp__node_type_name(root));
		goto out;
	}
	sv = smp__map_get(root, "schema_version");
	if (sv && (sv->kind != SMP_NODE_SCALAR || smp__scalar_int(sv, &v) ||
		   v != SCHEMA_VERSION)) {
		rc = fail_at(&L, sv,
			     "unsupported schema_version: this build reads "
			     "version %d",
			     SCHEMA_VERSION);
		goto out;
	}
	/* exactly the two keys */
	for (i = 0; i < root->u.mapping.count; i++) {
		const struct smp_node *k = root->u.mapping.items[i].key;

		if (!smp__scalar_is(k, "schema_version") &&
		    !smp__scalar_is(k, "instances")) {
			rc = fail_at(&L, k, "unknown key '%s' in the overlay",
				     k->kind == SMP_NODE_SCALAR
					     ? k->u.scalar.value
					     : "?");
			goto out;
		}
	}
	seq = smp__map_get(root, "instances");
	if (!sv || !seq) {
		rc = fail_at(&L, root,
			     "missing required key '%s' in the overlay",
			     sv ? "instances" : "schema_version");
		goto out;
	}
	if (seq->kind != SMP_NODE_SEQUENCE) {
		rc = fail_at(&L, seq, "'instances' must be a list, found %s",
			     smp__node_type_name(seq));
		goto out;
	}
	rc = read_rows(&L, seq, instance_fields, COUNT(instance_fields),
		       sizeof(struct smp_instance), &rows, &n,
		       "each entry of 'instances'");
	if (!rc)
		rc = check_instances(&L, seq, rows, n);
	if (!rc)
		rc = merge_overlay(&L, seq, rows, n);
out:
	smp__docs_release(&docs);
	return rc;
}
