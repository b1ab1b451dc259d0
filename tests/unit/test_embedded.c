/*
 * test_embedded.c - the data compiled into the library is byte for byte
 * the files in the source tree: a stale build or a
 * broken embed.sh would otherwise check specs against old data. The
 * precompiled catalog equals what the loader reads from those bytes.
 * Run from the repository root.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "catalog/catalog.h"
#include "catalog/embedded.h"

/* Reads a whole file (test code: plain malloc); NULL when unreadable. */
static unsigned char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		return NULL;
	do {
		if (n == cap) {
			unsigned char *p;

			cap = cap ? cap * 2 : 65536;
			p = realloc(buf, cap);
			if (!p) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = p;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got > 0);
	fclose(f);
	*len = n;
	return buf;
}

static int
ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

Test(embedded, bytes_equal_files)
{
	size_t i, data = 0, schemas = 0;

	cr_assert_gt(smp__embedded_count, 0);
	for (i = 0; i < smp__embedded_count; i++) {
		const struct smp_embedded_file *e = &smp__embedded_files[i];
		int is_schema = ends_with(e->name, ".schema.json");
		char path[512];
		unsigned char *disk;
		size_t len = 0;

		cr_assert_not_null(e->name);
		snprintf(path, sizeof(path), "%s/%s",
			 is_schema ? "schemas" : "instance-data", e->name);
		disk = slurp(path, &len);
		cr_assert_not_null(disk,
				   "cannot read %s (run from the "
				   "repository root)",
				   path);
		cr_expect_eq(e->len, len,
			     "%s: %zu bytes embedded, %zu on disk: rebuild",
			     path, e->len, len);
		if (e->len == len)
			cr_expect(memcmp(e->data, disk, len) == 0,
				  "%s: embedded bytes differ: rebuild", path);
		/* embed.sh appends a NUL so the data can be read as text */
		cr_expect_eq(e->data[e->len], 0, "%s: no final NUL", path);
		free(disk);
		if (is_schema)
			schemas++;
		else
			data++;
	}
	cr_assert_geq(data, 3);
	cr_assert_geq(schemas, 3);
	cr_assert_null(smp__embedded_files[smp__embedded_count].name);
}

Test(embedded, find_by_name)
{
	static const char *const names[] = {
		"instances.json",
		"tested-models.json",
		"frameworks.json",
		"instances.schema.json",
		"tested-models.schema.json",
		"frameworks.schema.json",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct smp_embedded_file *e =
			smp__embedded_find(names[i]);

		cr_assert_not_null(e, "%s is not embedded", names[i]);
		cr_assert_str_eq(e->name, names[i]);
		cr_assert_gt(e->len, 0);
	}
	cr_assert_null(smp__embedded_find("instances"));
	cr_assert_null(smp__embedded_find("instance-data/instances.json"));
	cr_assert_null(smp__embedded_find(""));
}

static void
same_str(const char *a, const char *b, const char *what, size_t row)
{
	if (!a || !b)
		cr_assert(!a && !b, "%s of row %zu: one is NULL", what, row);
	else
		cr_assert_str_eq(a, b, "%s of row %zu", what, row);
}

static void
same_list(const char *const *a, size_t na, const char *const *b, size_t nb,
	  const char *what, size_t row)
{
	size_t i;

	cr_assert_eq(na, nb, "%s of row %zu", what, row);
	for (i = 0; i < na; i++)
		same_str(a[i], b[i], what, row);
}

/*
 * The precompiled catalog (lib/gen/embed_catalog.c) is what the loader
 * reads from the embedded JSON, field by field: a context using it must
 * check exactly as one that parses the files.
 */
/* The SDK image tables (image_uri.c reads them) survive precompiling. */
static void
same_image_tables(const struct smp_catalog *pre, const struct smp_catalog *cat)
{
	size_t i;

	cr_assert_eq(pre->image_config_count, cat->image_config_count);
	cr_assert_gt(cat->image_config_count, 100);
	for (i = 0; i < cat->image_config_count; i++) {
		const struct smp_image_config *x = &pre->image_configs[i],
					      *y = &cat->image_configs[i];

		same_str(x->framework, y->framework, "framework", i);
		same_str(x->version, y->version, "version", i);
		same_list(x->version_aliases, x->version_alias_count,
			  y->version_aliases, y->version_alias_count,
			  "version_aliases", i);
		same_str(x->base_framework, y->base_framework, "base_framework",
			 i);
		same_list(x->base_framework_aliases,
			  x->base_framework_alias_count,
			  y->base_framework_aliases,
			  y->base_framework_alias_count,
			  "base_framework_aliases", i);
		same_list(x->py_versions, x->py_version_count, y->py_versions,
			  y->py_version_count, "py_versions", i);
		same_str(x->repository, y->repository, "repository", i);
		same_str(x->registries, y->registries, "registries", i);
		same_list(x->processors, x->processor_count, y->processors,
			  y->processor_count, "processors", i);
		same_str(x->container_version_cpu, y->container_version_cpu,
			 "container_version_cpu", i);
		same_str(x->container_version_gpu, y->container_version_gpu,
			 "container_version_gpu", i);
		cr_assert(x->compiler == y->compiler &&
				  x->py_keyed == y->py_keyed,
			  "image config %zu", i);
	}
	cr_assert_eq(pre->image_registry_count, cat->image_registry_count);
	for (i = 0; i < cat->image_registry_count; i++) {
		same_str(pre->image_registries[i].set,
			 cat->image_registries[i].set, "set", i);
		same_str(pre->image_registries[i].region,
			 cat->image_registries[i].region, "region", i);
		same_str(pre->image_registries[i].account,
			 cat->image_registries[i].account, "account", i);
	}
	cr_assert_eq(pre->ecr_hostname_count, cat->ecr_hostname_count);
	for (i = 0; i < cat->ecr_hostname_count; i++) {
		same_str(pre->ecr_hostnames[i].region,
			 cat->ecr_hostnames[i].region, "region", i);
		same_str(pre->ecr_hostnames[i].hostname,
			 cat->ecr_hostnames[i].hostname, "hostname", i);
	}
	cr_assert_eq(pre->image_tag_suffix_count, cat->image_tag_suffix_count);
	for (i = 0; i < cat->image_tag_suffix_count; i++) {
		same_str(pre->image_tag_suffixes[i].tag,
			 cat->image_tag_suffixes[i].tag, "tag", i);
		same_str(pre->image_tag_suffixes[i].suffix,
			 cat->image_tag_suffixes[i].suffix, "suffix", i);
	}
	same_list(pre->graviton_families, pre->graviton_family_count,
		  cat->graviton_families, cat->graviton_family_count,
		  "graviton_families", 0);
}

Test(embedded, precompiled_catalog_equals_the_loaded_json)
{
	const struct smp_catalog *pre = &smp__embedded_catalog;
	static const char *const names[3] = {
		"instances.json", "tested-models.json", "frameworks.json"};
	struct smp_data_buffer b[3];
	struct smp_allocator a;
	struct smp_catalog cat;
	struct smp_error err = {0};
	size_t i;

	for (i = 0; i < 3; i++) {
		const struct smp_embedded_file *f =
			smp__embedded_find(names[i]);

		cr_assert_not_null(f, "%s", names[i]);
		b[i].name = f->name;
		b[i].buf = (const char *)f->data;
		b[i].len = f->len;
	}
	smp__allocator_resolve(&a, NULL);
	memset(&cat, 0, sizeof(cat));
	cr_assert_eq(smp__catalog_load(&cat, &a, &b[0], &b[1], &b[2], &err), 0,
		     "%s", err.message);
	same_str(pre->data_version, cat.data_version, "data_version", 0);
	same_str(pre->generated, cat.generated, "generated", 0);
	cr_assert_eq(pre->instance_count, cat.instance_count);
	for (i = 0; i < cat.instance_count; i++) {
		const struct smp_instance *x = &pre->instances[i],
					  *y = &cat.instances[i];

		same_str(x->type, y->type, "type", i);
		same_str(x->family, y->family, "family", i);
		same_str(x->gpu_model, y->gpu_model, "gpu_model", i);
		cr_assert(x->vcpus == y->vcpus && x->gpus == y->gpus &&
				  x->memory_gib == y->memory_gib &&
				  x->gpu_memory_gib == y->gpu_memory_gib &&
				  x->efa == y->efa &&
				  x->network_gbps == y->network_gbps &&
				  x->compiler_supported ==
					  y->compiler_supported,
			  "instance row %zu", i);
	}
	cr_assert_eq(pre->tested_count, cat.tested_count);
	cr_assert_gt(cat.tested_count, 0);
	for (i = 0; i < cat.tested_count; i++) {
		const struct smp_tested_model *x = &pre->tested[i],
					      *y = &cat.tested[i];

		same_str(x->framework, y->framework, "framework", i);
		same_str(x->framework_version, y->framework_version,
			 "framework_version", i);
		same_str(x->transformers_version, y->transformers_version,
			 "transformers_version", i);
		same_str(x->model, y->model, "model", i);
		same_str(x->model_key, y->model_key, "model_key", i);
		same_str(x->dataset, y->dataset, "dataset", i);
		same_str(x->instance_type, y->instance_type, "instance_type",
			 i);
		same_str(x->precision, y->precision, "precision", i);
		same_str(x->scope, y->scope, "scope", i);
		cr_assert(x->sequence_length == y->sequence_length &&
				  x->native_batch_size ==
					  y->native_batch_size &&
				  x->compiler_batch_size ==
					  y->compiler_batch_size &&
				  x->batch_size_is_lower_bound ==
					  y->batch_size_is_lower_bound &&
				  x->instance_count == y->instance_count,
			  "tested row %zu", i);
	}
	cr_assert_eq(pre->image_count, cat.image_count);
	for (i = 0; i < cat.image_count; i++) {
		const struct smp_image *x = &pre->images[i],
				       *y = &cat.images[i];

		same_str(x->estimator, y->estimator, "estimator", i);
		same_str(x->framework, y->framework, "framework", i);
		same_str(x->framework_version, y->framework_version,
			 "framework_version", i);
		same_list(x->framework_aliases, x->framework_alias_count,
			  y->framework_aliases, y->framework_alias_count,
			  "framework_aliases", i);
		same_str(x->transformers_version, y->transformers_version,
			 "transformers_version", i);
		same_list(x->transformers_aliases, x->transformers_alias_count,
			  y->transformers_aliases, y->transformers_alias_count,
			  "transformers_aliases", i);
		same_list(x->py_versions, x->py_version_count, y->py_versions,
			  y->py_version_count, "py_versions", i);
		same_str(x->repository, y->repository, "repository", i);
	}
	same_list(pre->supported_classes, pre->supported_class_count,
		  cat.supported_classes, cat.supported_class_count,
		  "supported_classes", 0);
	same_list(pre->sdk_efa_types, pre->sdk_efa_type_count,
		  cat.sdk_efa_types, cat.sdk_efa_type_count, "sdk_efa_types",
		  0);
	same_str(pre->pytorchxla_min_huggingface,
		 cat.pytorchxla_min_huggingface, "pytorchxla_min_huggingface",
		 0);
	same_str(pre->pytorchxla_min_pytorch, cat.pytorchxla_min_pytorch,
		 "pytorchxla_min_pytorch", 0);
	same_image_tables(pre, &cat);
	smp__catalog_release(&cat);
}
