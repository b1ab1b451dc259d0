/*
 * catalog.c - reading instances.json, tested-models.json and
 * frameworks.json into the catalog. The documents go through the strict
 * JSON loader, are validated against their published JSON Schemas
 * (the embedded copies of schemas/instances.schema.json and its two
 * siblings) by schema/, and what is
 * kept is copied into the catalog's arena so that the parsed documents
 * can be released at once. The checks here are only those a schema
 * cannot state: the format version first, the three files from one
 * release, one row per instance type, and the registry sets the image
 * configurations name.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "catalog/embedded.h"
#include "doc/load.h"
#include "schema/schema.h"
#include "util/error.h"
#include "util/text.h"

#define SCHEMA_VERSION 1

/* Where a value goes; a null leaves the zeroed destination as it is. */
enum kind {
	K_STR,  /* string, copied into the arena */
	K_INT,  /* integer into an int */
	K_NUM,  /* number into a double */
	K_BOOL, /* boolean into an int */
	K_LIST  /* list of strings: array + size_t count */
};

struct field {
	const char *key;
	enum kind kind;
	size_t off;       /* destination */
	size_t count_off; /* K_LIST: where the count goes */
};

/* State of one load: the catalog being built and where errors go. */
struct loader {
	struct smp_catalog *cat;
	struct smp_error *err;
	const struct smp_allocator *a;
	const struct smp_data_buffer *in; /* the buffer being read */
};

#define F(type, k, kind, m)                                                    \
	{                                                                      \
		k, kind, offsetof(struct type, m), 0                           \
	}
#define F_LIST(type, k, m, c)                                                  \
	{                                                                      \
		k, K_LIST, offsetof(struct type, m), offsetof(struct type, c)  \
	}

/* the schemas' keys that the catalog keeps, in the files' order */
static const struct field instance_fields[] = {
	F(smp_instance, "type", K_STR, type),
	F(smp_instance, "family", K_STR, family),
	F(smp_instance, "vcpus", K_INT, vcpus),
	F(smp_instance, "memory_gib", K_NUM, memory_gib),
	F(smp_instance, "gpus", K_INT, gpus),
	F(smp_instance, "gpu_model", K_STR, gpu_model),
	F(smp_instance, "gpu_memory_gib", K_NUM, gpu_memory_gib),
	F(smp_instance, "efa", K_BOOL, efa),
	F(smp_instance, "network_gbps", K_NUM, network_gbps),
	F(smp_instance, "compiler_supported", K_BOOL, compiler_supported),
};

static const struct field tested_fields[] = {
	F(smp_tested_model, "framework", K_STR, framework),
	F(smp_tested_model, "framework_version", K_STR, framework_version),
	F(smp_tested_model, "transformers_version", K_STR,
	  transformers_version),
	F(smp_tested_model, "model", K_STR, model),
	F(smp_tested_model, "dataset", K_STR, dataset),
	F(smp_tested_model, "instance_type", K_STR, instance_type),
	F(smp_tested_model, "precision", K_STR, precision),
	F(smp_tested_model, "sequence_length", K_INT, sequence_length),
	F(smp_tested_model, "scope", K_STR, scope),
	F(smp_tested_model, "native_batch_size", K_INT, native_batch_size),
	F(smp_tested_model, "compiler_batch_size", K_INT, compiler_batch_size),
	F(smp_tested_model, "batch_size_is_lower_bound", K_BOOL,
	  batch_size_is_lower_bound),
	F(smp_tested_model, "instance_count", K_INT, instance_count),
};

static const struct field image_fields[] = {
	F(smp_image, "estimator", K_STR, estimator),
	F(smp_image, "framework", K_STR, framework),
	F(smp_image, "framework_version", K_STR, framework_version),
	F_LIST(smp_image, "framework_aliases", framework_aliases,
	       framework_alias_count),
	F(smp_image, "transformers_version", K_STR, transformers_version),
	F_LIST(smp_image, "transformers_aliases", transformers_aliases,
	       transformers_alias_count),
	F_LIST(smp_image, "py_versions", py_versions, py_version_count),
	F(smp_image, "repository", K_STR, repository),
	F(smp_image, "end_of_patch", K_STR, end_of_patch),
};

static const struct field image_config_fields[] = {
	F(smp_image_config, "framework", K_STR, framework),
	F(smp_image_config, "compiler", K_BOOL, compiler),
	F(smp_image_config, "version", K_STR, version),
	F_LIST(smp_image_config, "version_aliases", version_aliases,
	       version_alias_count),
	F(smp_image_config, "base_framework", K_STR, base_framework),
	F_LIST(smp_image_config, "base_framework_aliases",
	       base_framework_aliases, base_framework_alias_count),
	F_LIST(smp_image_config, "py_versions", py_versions, py_version_count),
	F(smp_image_config, "py_keyed", K_BOOL, py_keyed),
	F(smp_image_config, "repository", K_STR, repository),
	F(smp_image_config, "registries", K_STR, registries),
	F_LIST(smp_image_config, "processors", processors, processor_count),
	F(smp_image_config, "container_version_cpu", K_STR,
	  container_version_cpu),
	F(smp_image_config, "container_version_gpu", K_STR,
	  container_version_gpu),
};

static const struct field registry_fields[] = {
	F(smp_image_registry, "set", K_STR, set),
	F(smp_image_registry, "region", K_STR, region),
	F(smp_image_registry, "account", K_STR, account),
};

static const struct field hostname_fields[] = {
	F(smp_ecr_hostname, "region", K_STR, region),
	F(smp_ecr_hostname, "hostname", K_STR, hostname),
};

static const struct field suffix_fields[] = {
	F(smp_image_tag_suffix, "tag", K_STR, tag),
	F(smp_image_tag_suffix, "suffix", K_STR, suffix),
};

/* the top-level keys of frameworks.json kept in the catalog itself */
static const struct field frameworks_fields[] = {
	F_LIST(smp_catalog, "supported_instance_classes", supported_classes,
	       supported_class_count),
	F_LIST(smp_catalog, "sdk_efa_instance_types", sdk_efa_types,
	       sdk_efa_type_count),
	F_LIST(smp_catalog, "sdk_graviton_families", graviton_families,
	       graviton_family_count),
};

static const struct field pytorchxla_fields[] = {
	F(smp_catalog, "huggingface", K_STR, pytorchxla_min_huggingface),
	F(smp_catalog, "pytorch", K_STR, pytorchxla_min_pytorch),
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* A list of rows under key, copied into the catalog's rows/count. */
struct table {
	const char *key;
	const struct field *fields;
	size_t nfields;
	size_t elem_size;
	size_t rows_off, count_off; /* in struct smp_catalog */
};

#define TABLE(k, f, type, rows, count)                                         \
	{                                                                      \
		k, f, COUNT(f), sizeof(struct type),                           \
			offsetof(struct smp_catalog, rows),                    \
			offsetof(struct smp_catalog, count)                    \
	}

static const struct table instances_table = TABLE(
	"instances", instance_fields, smp_instance, instances, instance_count);
static const struct table tested_table =
	TABLE("models", tested_fields, smp_tested_model, tested, tested_count);
/* frameworks.json's; image_configs last, for the registry check */
static const struct table frameworks_tables[] = {
	TABLE("images", image_fields, smp_image, images, image_count),
	TABLE("image_registries", registry_fields, smp_image_registry,
	      image_registries, image_registry_count),
	TABLE("ecr_hostnames", hostname_fields, smp_ecr_hostname, ecr_hostnames,
	      ecr_hostname_count),
	TABLE("image_tag_suffixes", suffix_fields, smp_image_tag_suffix,
	      image_tag_suffixes, image_tag_suffix_count),
	TABLE("image_configs", image_config_fields, smp_image_config,
	      image_configs, image_config_count),
};

static const char *
source_name(const struct loader *L)
{
	return L->in && L->in->name ? L->in->name : "instance data";
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
	rc = smp__error_setv(L->err, SMP_EPARSE, source_name(L),
			     n ? &n->start : NULL, fmt, ap);
	va_end(ap);
	return rc;
}

static int
fail_nomem(struct loader *L)
{
	return smp__error_set(L->err, SMP_ENOMEM, source_name(L), NULL,
			      "out of memory while loading instance data");
}

/*
 * A string node's text copied into the catalog's arena. A C string ends
 * at a NUL: a value holding one would be read cut short, so it is
 * refused (a representation limit, not the schema's).
 */
static int
copy_string(struct loader *L, const char *key, const struct smp_node *n,
	    const char **out)
{
	if (strlen(n->u.scalar.value) != n->u.scalar.len)
		return fail_at(L, n, "'%s' must not contain a NUL character",
			       key);
	*out = smp__arena_strndup(&L->cat->arena, n->u.scalar.value,
				  n->u.scalar.len);
	return *out ? 0 : fail_nomem(L);
}

static int
copy_list(struct loader *L, const char *key, const struct smp_node *n,
	  const char *const **out, size_t *count)
{
	size_t i, len = n->u.sequence.count;
	const char **items = smp__arena_zalloc(
		&L->cat->arena, (len ? len : 1) * sizeof(*items));
	int rc;

	if (!items)
		return fail_nomem(L);
	for (i = 0; i < len; i++)
		if ((rc = copy_string(L, key, n->u.sequence.items[i],
				      &items[i])))
			return rc;
	*out = items;
	*count = len;
	return 0;
}

/*
 * Copies one value, which the schema validated, into dst. The schemas
 * bound every integer well inside an int; the range is checked again
 * because the conversion depends on it.
 */
static int
copy_field(struct loader *L, const struct field *f, const struct smp_node *v,
	   char *dst)
{
	const char *str = NULL;
	const char *const *list = NULL;
	size_t count = 0;
	long long x = 0;
	double num = 0;
	int i, rc = 0;

	if (v->kind == SMP_NODE_SCALAR &&
	    smp__scalar_type(v) == SMP_SCALAR_NULL)
		return 0; /* NULL or 0: the row is zeroed */
	switch (f->kind) {
	case K_STR:
		rc = copy_string(L, f->key, v, &str);
		memcpy(dst + f->off, &str, sizeof(str));
		break;
	case K_INT:
		if (smp__scalar_int(v, &x) || x < INT_MIN || x > INT_MAX)
			return fail_at(L, v, "'%s' is out of range", f->key);
		i = (int)x;
		memcpy(dst + f->off, &i, sizeof(i));
		break;
	case K_NUM:
		if (smp__scalar_number(v, &num))
			return fail_at(L, v, "'%s' is out of range", f->key);
		memcpy(dst + f->off, &num, sizeof(num));
		break;
	case K_BOOL:
		i = smp__scalar_bool(v) == 1;
		memcpy(dst + f->off, &i, sizeof(i));
		break;
	case K_LIST:
		rc = copy_list(L, f->key, v, &list, &count);
		memcpy(dst + f->off, &list, sizeof(list));
		memcpy(dst + f->count_off, &count, sizeof(count));
		break;
	}
	return rc;
}

/*
 * Copies the kept members of a validated mapping into dst. One pass over
 * the members; the files list the keys in the tables' order, so the
 * member's own index is tried first. Other keys ('source') are skipped.
 */
static int
copy_object(struct loader *L, const struct smp_node *n,
	    const struct field *fields, size_t nfields, void *dst)
{
	size_t i, j;
	int rc;

	for (i = 0; i < n->u.mapping.count; i++) {
		const struct smp_pair *pr = &n->u.mapping.items[i];

		if (i < nfields && smp__scalar_is(pr->key, fields[i].key))
			j = i;
		else
			for (j = 0; j < nfields; j++)
				if (smp__scalar_is(pr->key, fields[j].key))
					break;
		if (j < nfields &&
		    (rc = copy_field(L, &fields[j], pr->value, dst)))
			return rc;
	}
	return 0;
}

/*
 * Copies the rows of the validated list t->key of root into a zeroed
 * arena array; an absent key gives no rows. Into the catalog (t's
 * offsets), or into *rows and *count when rows is given (an overlay).
 */
static int
copy_rows(struct loader *L, const struct smp_node *root, const struct table *t,
	  void *rows, size_t *count)
{
	const struct smp_node *seq = smp__map_get(root, t->key);
	size_t i, n = seq ? seq->u.sequence.count : 0;
	char *items;
	int rc;

	if (n > SIZE_MAX / t->elem_size)
		return fail_nomem(L);
	items = smp__arena_zalloc(&L->cat->arena, (n ? n : 1) * t->elem_size);
	if (!items)
		return fail_nomem(L);
	for (i = 0; i < n; i++)
		if ((rc = copy_object(L, seq->u.sequence.items[i], t->fields,
				      t->nfields, items + i * t->elem_size)))
			return rc;
	if (!rows) {
		rows = (char *)L->cat + t->rows_off;
		count = (size_t *)(void *)((char *)L->cat + t->count_off);
	}
	memcpy(rows, &items, sizeof(items));
	*count = n;
	return 0;
}

/*
 * The format version first: a file of another version is reported as
 * such, not as whatever this version's schema finds wrong in it. A
 * missing or mistyped schema_version is left to the schema.
 */
static int
check_version(struct loader *L, const struct smp_node *root)
{
	const struct smp_node *sv = smp__map_get(root, "schema_version");
	long long v;

	if (sv && sv->kind == SMP_NODE_SCALAR &&
	    smp__scalar_type(sv) == SMP_SCALAR_INT &&
	    (smp__scalar_int(sv, &v) || v != SCHEMA_VERSION))
		return fail_at(L, sv,
			       "unsupported schema_version %s: this build "
			       "reads version %d",
			       sv->u.scalar.value, SCHEMA_VERSION);
	return 0;
}

/* Validates root against the embedded schema file (its part at pointer,
 * or the whole). */
static int
validate(struct loader *L, const char *schema_file, const char *pointer,
	 const struct smp_node *root)
{
	struct smp_schema *s = NULL;
	int rc;

	if (root->kind == SMP_NODE_MAPPING && (rc = check_version(L, root)))
		return rc;
	rc = smp__schema_embedded(&s, L->a, schema_file, L->err);
	if (rc == SMP_ENOMEM)
		return fail_nomem(L);
	if (!s)
		return smp__error_set(L->err, SMP_EINTERNAL, schema_file, NULL,
				      "the schema is not built in");
	rc = smp__schema_validate(s, pointer, root, source_name(L), L->err);
	smp__schema_free(s);
	return rc;
}

/*
 * The first file read sets data_version and generated; the others must
 * agree with it (the files come from one release).
 */
static int
check_release(struct loader *L, const struct smp_node *root)
{
	struct smp_catalog *cat = L->cat;
	const struct smp_node *dv = smp__map_get(root, "data_version");
	const struct smp_node *gen = smp__map_get(root, "generated");
	int rc;

	if (!dv || !gen) /* the schema requires both */
		return fail_at(L, root, "the document is incomplete");
	if (!cat->data_version) {
		rc = copy_string(L, "data_version", dv, &cat->data_version);
		return rc ? rc
			  : copy_string(L, "generated", gen, &cat->generated);
	}
	if (strcmp(cat->data_version, dv->u.scalar.value) != 0)
		return fail_at(L, dv,
			       "'data_version' is '%s' but the instance types "
			       "have '%s': the files must come from one "
			       "release",
			       dv->u.scalar.value, cat->data_version);
	if (strcmp(cat->generated, gen->u.scalar.value) != 0)
		return fail_at(L, gen,
			       "'generated' is '%s' but the instance types "
			       "have '%s': the files must come from one "
			       "release",
			       gen->u.scalar.value, cat->generated);
	return 0;
}

/* Lookups go by type: two rows of seq for one type would be ambiguous. */
static int
check_unique_types(struct loader *L, const struct smp_node *seq,
		   const struct smp_instance *rows, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++)
		for (j = 0; j < i; j++)
			if (strcmp(rows[i].type, rows[j].type) == 0)
				return fail_at(
					L,
					smp__map_get(seq->u.sequence.items[i],
						     "type"),
					"instance type '%s' is listed twice",
					rows[i].type);
	return 0;
}

static int
read_instances(struct loader *L, const struct smp_node *root)
{
	struct smp_catalog *cat = L->cat;
	int rc;

	if ((rc = validate(L, "instances.schema.json", NULL, root)) ||
	    (rc = check_release(L, root)) ||
	    (rc = copy_rows(L, root, &instances_table, NULL, NULL)))
		return rc;
	return check_unique_types(L, smp__map_get(root, "instances"),
				  cat->instances, cat->instance_count);
}

/* By model key, then by place in the file (rows are one array). */
static int
cmp_model(const void *a, const void *b)
{
	const struct smp_tested_model *x =
		*(const struct smp_tested_model *const *)a;
	const struct smp_tested_model *y =
		*(const struct smp_tested_model *const *)b;
	int c = strcmp(x->model_key, y->model_key);

	return c ? c : (x > y) - (x < y);
}

static int
index_tested(struct loader *L)
{
	struct smp_catalog *cat = L->cat;
	const struct smp_tested_model **by;
	size_t i;

	cat->tested_by_model = NULL;
	if (!cat->tested_count)
		return 0;
	by = smp__arena_alloc(&cat->arena, cat->tested_count * sizeof(void *));
	if (!by)
		return fail_nomem(L);
	for (i = 0; i < cat->tested_count; i++)
		by[i] = &cat->tested[i];
	qsort(by, cat->tested_count, sizeof(const void *), cmp_model);
	cat->tested_by_model = by;
	return 0;
}

static int
read_tested(struct loader *L, const struct smp_node *root)
{
	struct smp_catalog *cat = L->cat;
	struct smp_tested_model *rows = NULL;
	const struct smp_instance *it;
	size_t i;
	int rc;

	if ((rc = validate(L, "tested-models.schema.json", NULL, root)) ||
	    (rc = check_release(L, root)) ||
	    (rc = copy_rows(L, root, &tested_table, &rows, &cat->tested_count)))
		return rc;
	cat->tested = rows;
	for (i = 0; i < cat->tested_count; i++) {
		size_t n = rows[i].model ? strlen(rows[i].model) + 1 : 1;
		char *key = smp__arena_alloc(&cat->arena, n);

		if (!key)
			return fail_nomem(L);
		smp__model_key(key, n, rows[i].model);
		rows[i].model_key = key;
		it = smp__catalog_instance(cat, rows[i].instance_type);
		rows[i].instance_slot =
			it ? (size_t)(it - cat->instances) + 1 : 0;
	}
	return index_tested(L);
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

static int
read_frameworks(struct loader *L, const struct smp_node *root)
{
	struct smp_catalog *cat = L->cat;
	const struct smp_node *configs = smp__map_get(root, "image_configs");
	size_t i;
	int rc;

	if ((rc = validate(L, "frameworks.schema.json", NULL, root)) ||
	    (rc = check_release(L, root)) ||
	    (rc = copy_object(L, root, frameworks_fields,
			      COUNT(frameworks_fields), cat)) ||
	    (rc = copy_object(L, smp__map_get(root, "pytorchxla_min_version"),
			      pytorchxla_fields, COUNT(pytorchxla_fields),
			      cat)))
		return rc;
	for (i = 0; i < COUNT(frameworks_tables); i++)
		if ((rc = copy_rows(L, root, &frameworks_tables[i], NULL,
				    NULL)))
			return rc;
	/* a cross-reference between two tables */
	for (i = 0; configs && i < cat->image_config_count; i++) {
		const char *set = cat->image_configs[i].registries;

		if (!registry_set_known(cat, set))
			return fail_at(
				L,
				smp__map_get(configs->u.sequence.items[i],
					     "registries"),
				"registry set '%s' is not in "
				"'image_registries'",
				set ? set : "");
	}
	return 0;
}

/*
 * Parses one buffer as strict JSON into docs. A loader diagnostic
 * (syntax, duplicate key, limit) becomes SMP_EPARSE at its position.
 */
static int
parse(struct loader *L, struct smp_docs *docs, const struct smp_data_buffer *in)
{
	struct smp_pos start = smp__pos_make(1, 1);
	int rc;

	L->in = in;
	if (!in || (!in->buf && in->len))
		return smp__error_set(L->err, SMP_EINVAL, "instance data", NULL,
				      "no instance data buffer");
	rc = smp__load_strict(docs, source_name(L), in->buf ? in->buf : "",
			      in->len, 1, L->err);
	if (rc == SMP_ENOMEM)
		return fail_nomem(L);
	if (rc)
		return rc;
	if (docs->count != 1 || !docs->items[0].root)
		return smp__error_set(L->err, SMP_EPARSE, source_name(L),
				      &start, "expected one JSON document");
	return 0;
}

typedef int (*reader_fn)(struct loader *, const struct smp_node *);

/* Parses, validates and copies one file; its documents are released
 * here. */
static int
load_one(struct loader *L, const struct smp_data_buffer *in, reader_fn read)
{
	struct smp_docs docs;
	int rc;

	smp__docs_init(&docs, L->a);
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
	L.a = a;
	L.in = NULL;
	rc = load_one(&L, instances, read_instances);
	if (!rc)
		rc = load_one(&L, tested, read_tested);
	if (!rc)
		rc = load_one(&L, frameworks, read_frameworks);
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

/* See catalog.h: a binary search for the model's first row. */
const struct smp_tested_model *const *
smp__catalog_model_rows(const struct smp_catalog *cat, const char *model_key,
			size_t *count)
{
	size_t lo = 0, hi, end;

	*count = 0;
	if (!cat || !model_key || !cat->tested_by_model)
		return NULL;
	hi = cat->tested_count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(cat->tested_by_model[mid]->model_key, model_key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo;
	     end < cat->tested_count &&
	     strcmp(cat->tested_by_model[end]->model_key, model_key) == 0;
	     end++)
		;
	*count = end - lo;
	return *count ? cat->tested_by_model + lo : NULL;
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

const struct smp_instance *
smp__catalog_row_instance(const struct smp_catalog *cat,
			  const struct smp_tested_model *row)
{
	size_t k = row->instance_slot;

	/* the slot is checked: a row may come from elsewhere than cat */
	if (cat && k && k <= cat->instance_count &&
	    (cat->instances[k - 1].type == row->instance_type ||
	     strcmp(cat->instances[k - 1].type, row->instance_type) == 0))
		return &cat->instances[k - 1];
	return smp__catalog_instance(cat, row->instance_type);
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
merge_overlay(struct loader *L, const struct smp_instance *rows, size_t n)
{
	struct smp_catalog *cat = L->cat;
	struct smp_instance *merged;
	size_t i, j, total = cat->instance_count;

	for (i = 0; i < n; i++)
		if (!smp__catalog_instance(cat, rows[i].type))
			total++;
	if (total > SIZE_MAX / sizeof(*merged))
		return fail_nomem(L);
	merged = smp__arena_zalloc(&cat->arena,
				   (total ? total : 1) * sizeof(*merged));
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
 * The overlay (instances.schema.json's "#/$defs/overlay": schema_version
 * and instance rows, strict JSON) holds only the rows to add or replace;
 * its rows live in the catalog's arena, which a failed context creation
 * releases.
 */
int
smp__catalog_overlay(struct smp_catalog *cat, const struct smp_allocator *a,
		     const struct smp_data_buffer *overlay,
		     struct smp_error *err)
{
	const struct smp_node *root;
	struct smp_instance *rows = NULL;
	struct smp_docs docs;
	struct loader L;
	size_t n = 0;
	int rc;

	L.cat = cat;
	L.err = err;
	L.a = a;
	L.in = NULL;
	smp__docs_init(&docs, a);
	rc = parse(&L, &docs, overlay);
	if (rc)
		goto out;
	root = docs.items[0].root;
	if ((rc = validate(&L, "instances.schema.json", "#/$defs/overlay",
			   root)) ||
	    (rc = copy_rows(&L, root, &instances_table, &rows, &n)) ||
	    (rc = check_unique_types(&L, smp__map_get(root, "instances"), rows,
				     n)))
		goto out;
	rc = merge_overlay(&L, rows, n);
out:
	smp__docs_release(&docs);
	return rc;
}
