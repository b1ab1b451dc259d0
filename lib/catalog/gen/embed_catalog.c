/*
 * embed_catalog.c - build tool: embed_catalog OUT.c INSTANCES TESTED
 * FRAMEWORKS loads the three instance-data files with the library's own
 * catalog loader (so they are validated exactly as at run time) and
 * writes the catalog as constant C tables, smp__embedded_catalog. A
 * context using the built-in data then parses nothing: parsing the 225 KB
 * of JSON took longer than checking a spec. The JSON stays embedded too
 * (lib/catalog/embed.sh) for what compares it with a download.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "catalog/catalog.h"

/* A C string literal for s, or NULL; only printable ASCII is written as
 * is ('?' escaped against trigraphs). */
static void
put_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (!s) {
		fputs("NULL", f);
		return;
	}
	fputc('"', f);
	for (; *p; p++) {
		if (*p == '"' || *p == '\\' || *p == '?')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f)
			fprintf(f, "\\%03o", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

/* A double that reads back the same. */
static void
put_num(FILE *f, double v)
{
	fprintf(f, "%.17g", v);
}

/* A string list as a table named list_<n>; the name to point at. */
static void
put_list(FILE *f, const char *const *items, size_t count, size_t *n)
{
	size_t i;

	if (!count)
		return;
	fprintf(f, "static const char *const list_%zu[] = {", *n);
	for (i = 0; i < count; i++) {
		fputs(i ? ", " : "", f);
		put_str(f, items[i]);
	}
	fputs("};\n", f);
	(*n)++;
}

/* The pointer member for the list put_list() wrote as number *n (a
 * count of 0: none written, NULL), moving *n past it, then its count
 * member when count_member is not NULL. */
static void
put_list_ref(FILE *f, const char *indent, const char *member,
	     const char *count_member, size_t count, size_t *n)
{
	if (count)
		fprintf(f, "%s.%s = list_%zu,\n", indent, member, (*n)++);
	else
		fprintf(f, "%s.%s = NULL,\n", indent, member);
	if (count_member)
		fprintf(f, "%s.%s = %zu,\n", indent, count_member, count);
}

static void
put_instances(FILE *f, const struct smp_catalog *cat)
{
	size_t i;

	fputs("static const struct smp_instance instances[] = {\n", f);
	for (i = 0; i < cat->instance_count; i++) {
		const struct smp_instance *r = &cat->instances[i];

		fputs("\t{.type = ", f);
		put_str(f, r->type);
		fputs(", .family = ", f);
		put_str(f, r->family);
		fprintf(f, ", .vcpus = %d, .memory_gib = ", r->vcpus);
		put_num(f, r->memory_gib);
		fprintf(f, ", .gpus = %d, .gpu_model = ", r->gpus);
		put_str(f, r->gpu_model);
		fputs(", .gpu_memory_gib = ", f);
		put_num(f, r->gpu_memory_gib);
		fprintf(f, ", .efa = %d, .network_gbps = ", r->efa);
		put_num(f, r->network_gbps);
		fprintf(f, ", .compiler_supported = %d},\n",
			r->compiler_supported);
	}
	fputs("};\n", f);
}

static void
put_tested(FILE *f, const struct smp_catalog *cat)
{
	static const struct {
		const char *name;
		size_t off;
	} strs[] = {
		{"framework", offsetof(struct smp_tested_model, framework)},
		{"framework_version",
		 offsetof(struct smp_tested_model, framework_version)},
		{"transformers_version",
		 offsetof(struct smp_tested_model, transformers_version)},
		{"model", offsetof(struct smp_tested_model, model)},
		{"model_key", offsetof(struct smp_tested_model, model_key)},
		{"dataset", offsetof(struct smp_tested_model, dataset)},
		{"instance_type",
		 offsetof(struct smp_tested_model, instance_type)},
		{"precision", offsetof(struct smp_tested_model, precision)},
		{"scope", offsetof(struct smp_tested_model, scope)},
	};
	size_t i, k;

	fputs("static const struct smp_tested_model tested[] = {\n", f);
	for (i = 0; i < cat->tested_count; i++) {
		const struct smp_tested_model *r = &cat->tested[i];

		fputs("\t{", f);
		for (k = 0; k < sizeof(strs) / sizeof(strs[0]); k++) {
			const char *s;

			memcpy(&s, (const char *)r + strs[k].off, sizeof(s));
			fprintf(f, "%s.%s = ", k ? ", " : "", strs[k].name);
			put_str(f, s);
		}
		fprintf(f,
			", .sequence_length = %d, .native_batch_size = %d, "
			".compiler_batch_size = %d, "
			".batch_size_is_lower_bound = %d, "
			".instance_count = %d, .instance_slot = %zu},\n",
			r->sequence_length, r->native_batch_size,
			r->compiler_batch_size, r->batch_size_is_lower_bound,
			r->instance_count, r->instance_slot);
	}
	fputs("};\n", f);
}

static void
put_images(FILE *f, const struct smp_catalog *cat, size_t *lists)
{
	size_t i, first = *lists, n;

	for (i = 0; i < cat->image_count; i++) {
		const struct smp_image *r = &cat->images[i];

		put_list(f, r->framework_aliases, r->framework_alias_count,
			 lists);
		put_list(f, r->transformers_aliases,
			 r->transformers_alias_count, lists);
		put_list(f, r->py_versions, r->py_version_count, lists);
	}
	fputs("static const struct smp_image images[] = {\n", f);
	for (i = 0, n = first; i < cat->image_count; i++) {
		const struct smp_image *r = &cat->images[i];

		fputs("\t{.estimator = ", f);
		put_str(f, r->estimator);
		fputs(",\n\t .framework = ", f);
		put_str(f, r->framework);
		fputs(",\n\t .framework_version = ", f);
		put_str(f, r->framework_version);
		fputs(",\n", f);
		put_list_ref(f, "\t ", "framework_aliases",
			     "framework_alias_count", r->framework_alias_count,
			     &n);
		fputs("\t .transformers_version = ", f);
		put_str(f, r->transformers_version);
		fputs(",\n", f);
		put_list_ref(f, "\t ", "transformers_aliases",
			     "transformers_alias_count",
			     r->transformers_alias_count, &n);
		put_list_ref(f, "\t ", "py_versions", "py_version_count",
			     r->py_version_count, &n);
		fputs("\t .repository = ", f);
		put_str(f, r->repository);
		fputs(",\n\t .end_of_patch = ", f);
		put_str(f, r->end_of_patch);
		fputs("},\n", f);
	}
	fputs("};\n", f);
}

static void
put_image_configs(FILE *f, const struct smp_catalog *cat, size_t *lists)
{
	size_t i, first = *lists, n;

	for (i = 0; i < cat->image_config_count; i++) {
		const struct smp_image_config *r = &cat->image_configs[i];

		put_list(f, r->version_aliases, r->version_alias_count, lists);
		put_list(f, r->base_framework_aliases,
			 r->base_framework_alias_count, lists);
		put_list(f, r->py_versions, r->py_version_count, lists);
		put_list(f, r->processors, r->processor_count, lists);
	}
	fputs("static const struct smp_image_config image_configs[] = {\n", f);
	for (i = 0, n = first; i < cat->image_config_count; i++) {
		const struct smp_image_config *r = &cat->image_configs[i];

		fputs("\t{.framework = ", f);
		put_str(f, r->framework);
		fprintf(f, ", .compiler = %d, .version = ", r->compiler);
		put_str(f, r->version);
		fputs(",\n", f);
		put_list_ref(f, "\t ", "version_aliases", "version_alias_count",
			     r->version_alias_count, &n);
		fputs("\t .base_framework = ", f);
		put_str(f, r->base_framework);
		fputs(",\n", f);
		put_list_ref(f, "\t ", "base_framework_aliases",
			     "base_framework_alias_count",
			     r->base_framework_alias_count, &n);
		put_list_ref(f, "\t ", "py_versions", NULL, r->py_version_count,
			     &n);
		fprintf(f, "\t .py_version_count = %zu, .py_keyed = %d,\n",
			r->py_version_count, r->py_keyed);
		fputs("\t .repository = ", f);
		put_str(f, r->repository);
		fputs(", .registries = ", f);
		put_str(f, r->registries);
		fputs(",\n", f);
		put_list_ref(f, "\t ", "processors", "processor_count",
			     r->processor_count, &n);
		fputs("\t .container_version_cpu = ", f);
		put_str(f, r->container_version_cpu);
		fputs(", .container_version_gpu = ", f);
		put_str(f, r->container_version_gpu);
		fputs("},\n", f);
	}
	fputs("};\n", f);
}

/* The three flat string tables of the image data: registries (set,
 * region, account), host names (region, host), tag suffixes (tag,
 * suffix), written as name[] of type with the members a, b (and c). */
static void
put_pairs(FILE *f, const char *type, const char *name, const void *rows,
	  size_t count, size_t size, const char *const *members, size_t nm)
{
	size_t i, k;

	if (!count)
		return;
	fprintf(f, "static const struct %s %s[] = {\n", type, name);
	for (i = 0; i < count; i++) {
		fputs("\t{", f);
		for (k = 0; k < nm; k++) {
			const char *s;

			memcpy(&s,
			       (const char *)rows + i * size + k * sizeof(s),
			       sizeof(s));
			fprintf(f, "%s.%s = ", k ? ", " : "", members[k]);
			put_str(f, s);
		}
		fputs("},\n", f);
	}
	fputs("};\n", f);
}

/* The catalog member pointing at a table put_pairs() wrote. */
static void
put_pairs_ref(FILE *f, const char *member, const char *count_member,
	      size_t count)
{
	fprintf(f, "\t.%s = %s,\n\t.%s = %zu,\n", member,
		count ? member : "NULL", count_member, count);
}

static void
put_image_tables(FILE *f, const struct smp_catalog *cat)
{
	static const char *const reg[] = {"set", "region", "account"};
	static const char *const host[] = {"region", "hostname"};
	static const char *const suf[] = {"tag", "suffix"};

	put_pairs(f, "smp_image_registry", "image_registries",
		  cat->image_registries, cat->image_registry_count,
		  sizeof(struct smp_image_registry), reg, 3);
	put_pairs(f, "smp_ecr_hostname", "ecr_hostnames", cat->ecr_hostnames,
		  cat->ecr_hostname_count, sizeof(struct smp_ecr_hostname),
		  host, 2);
	put_pairs(f, "smp_image_tag_suffix", "image_tag_suffixes",
		  cat->image_tag_suffixes, cat->image_tag_suffix_count,
		  sizeof(struct smp_image_tag_suffix), suf, 2);
}

/* The loader's model index, as pointers into the table above. */
static void
put_tested_index(FILE *f, const struct smp_catalog *cat)
{
	size_t i;

	if (!cat->tested_count)
		return;
	fputs("static const struct smp_tested_model *const "
	      "tested_by_model[] = {\n",
	      f);
	for (i = 0; i < cat->tested_count; i++)
		fprintf(f, "\t&tested[%zu],\n",
			(size_t)(cat->tested_by_model[i] - cat->tested));
	fputs("};\n\n", f);
}

static int
write_catalog(FILE *f, const struct smp_catalog *cat)
{
	size_t lists = 0, classes, efa, graviton;

	fputs("/* generated by lib/gen/embed_catalog.c from the instance "
	      "data; do not edit */\n"
	      "#include <stddef.h>\n\n"
	      "#include \"catalog/catalog.h\"\n"
	      "#include \"catalog/embedded.h\"\n\n",
	      f);
	put_instances(f, cat);
	put_tested(f, cat);
	put_tested_index(f, cat);
	put_images(f, cat, &lists);
	put_image_configs(f, cat, &lists);
	put_image_tables(f, cat);
	classes = lists;
	put_list(f, cat->supported_classes, cat->supported_class_count, &lists);
	efa = lists;
	put_list(f, cat->sdk_efa_types, cat->sdk_efa_type_count, &lists);
	graviton = lists;
	put_list(f, cat->graviton_families, cat->graviton_family_count, &lists);
	fputs("const struct smp_catalog smp__embedded_catalog = {\n"
	      "\t.data_version = ",
	      f);
	put_str(f, cat->data_version);
	fputs(",\n\t.generated = ", f);
	put_str(f, cat->generated);
	fprintf(f,
		",\n\t.instances = instances,\n"
		"\t.instance_count = %zu,\n"
		"\t.tested = tested,\n"
		"\t.tested_count = %zu,\n"
		"\t.tested_by_model = %s,\n"
		"\t.images = images,\n"
		"\t.image_count = %zu,\n",
		cat->instance_count, cat->tested_count,
		cat->tested_count ? "tested_by_model" : "NULL",
		cat->image_count);
	put_list_ref(f, "\t", "supported_classes", "supported_class_count",
		     cat->supported_class_count, &classes);
	put_list_ref(f, "\t", "sdk_efa_types", "sdk_efa_type_count",
		     cat->sdk_efa_type_count, &efa);
	fputs("\t.pytorchxla_min_huggingface = ", f);
	put_str(f, cat->pytorchxla_min_huggingface);
	fputs(",\n\t.pytorchxla_min_pytorch = ", f);
	put_str(f, cat->pytorchxla_min_pytorch);
	fputs(",\n", f);
	fprintf(f, "\t.image_configs = %s,\n\t.image_config_count = %zu,\n",
		cat->image_config_count ? "image_configs" : "NULL",
		cat->image_config_count);
	put_pairs_ref(f, "image_registries", "image_registry_count",
		      cat->image_registry_count);
	put_pairs_ref(f, "ecr_hostnames", "ecr_hostname_count",
		      cat->ecr_hostname_count);
	put_pairs_ref(f, "image_tag_suffixes", "image_tag_suffix_count",
		      cat->image_tag_suffix_count);
	put_list_ref(f, "\t", "graviton_families", "graviton_family_count",
		     cat->graviton_family_count, &graviton);
	fputs("};\n", f);
	return ferror(f) ? -1 : 0;
}

/* The whole file, or NULL with a message. */
static char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) != 0 || !(buf = malloc((size_t)n + 1)) ||
	    fread(buf, 1, (size_t)n, f) != (size_t)n) {
		perror(path);
		free(buf);
		if (f)
			fclose(f);
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	*len = (size_t)n;
	return buf;
}

/*
 * embed_catalog OUT.c INSTANCES TESTED FRAMEWORKS: exit status 0, or 1
 * with a message when a file does not load (the build stops there).
 */
int
main(int argc, char **argv)
{
	struct smp_data_buffer b[3];
	struct smp_allocator a;
	struct smp_catalog cat;
	struct smp_error err = {0};
	char *bufs[3] = {NULL, NULL, NULL}, tmp[4096];
	FILE *out;
	int i, rc = 1;

	if (argc != 5) {
		fprintf(stderr, "usage: embed_catalog OUT.c INSTANCES TESTED "
				"FRAMEWORKS\n");
		return 2;
	}
	smp__allocator_resolve(&a, NULL);
	for (i = 0; i < 3; i++) {
		bufs[i] = slurp(argv[i + 2], &b[i].len);
		if (!bufs[i])
			goto out;
		b[i].name = argv[i + 2];
		b[i].buf = bufs[i];
	}
	memset(&cat, 0, sizeof(cat));
	memset(&err, 0, sizeof(err));
	if (smp__catalog_load(&cat, &a, &b[0], &b[1], &b[2], &err) != 0) {
		fprintf(stderr, "%s:%u:%u: %s\n", err.source,
			(unsigned)err.line, (unsigned)err.column, err.message);
		goto out;
	}
	snprintf(tmp, sizeof(tmp), "%s.tmp", argv[1]);
	out = fopen(tmp, "w");
	if (!out) {
		perror(tmp);
	} else if ((write_catalog(out, &cat) != 0) + (fclose(out) != 0)) {
		perror(tmp);
		remove(tmp);
	} else if (rename(tmp, argv[1]) != 0) {
		perror(argv[1]);
		remove(tmp);
	} else {
		rc = 0;
	}
	smp__catalog_release(&cat);
out:
	for (i = 0; i < 3; i++)
		free(bufs[i]);
	return rc;
}
