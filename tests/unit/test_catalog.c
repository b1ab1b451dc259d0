/*
 * test_catalog.c - the catalog as loaded from the embedded data (real
 * values), malformed data (exact file:line:column), model keys and
 * allocation failure at every step.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "catalog/embedded.h"
#include "failing_alloc.h"

/* ---------------------------------------------------------------- helpers */

static struct smp_data_buffer
embedded(const char *name)
{
	const struct smp_embedded_file *f = smp__embedded_find(name);
	struct smp_data_buffer b = {name, NULL, 0};

	cr_assert_not_null(f, "%s is not embedded", name);
	b.buf = (const char *)f->data;
	b.len = f->len;
	return b;
}

static int
load_embedded(struct smp_catalog *cat, const struct smp_allocator *a,
	      struct smp_error *err)
{
	struct smp_data_buffer i = embedded("instances.json");
	struct smp_data_buffer t = embedded("tested-models.json");
	struct smp_data_buffer f = embedded("frameworks.json");

	return smp__catalog_load(cat, a, &i, &t, &f, err);
}

static struct smp_allocator *
plain_allocator(void)
{
	static struct smp_allocator a;

	smp__allocator_resolve(&a, NULL);
	return &a;
}

static int
has_string(const char *const *list, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(list[i], s) == 0)
			return 1;
	return 0;
}

static const struct smp_tested_model *
find_tested(const struct smp_catalog *cat, const char *framework_version,
	    const char *model, const char *instance, int instance_count)
{
	size_t i;

	for (i = 0; i < cat->tested_count; i++) {
		const struct smp_tested_model *m = &cat->tested[i];

		if (strcmp(m->framework_version, framework_version) == 0 &&
		    strcmp(m->model, model) == 0 &&
		    strcmp(m->instance_type, instance) == 0 &&
		    m->instance_count == instance_count)
			return m;
	}
	return NULL;
}

/* ------------------------------------------------------ the real data */

Test(catalog, embedded_instances)
{
	struct smp_catalog cat;
	struct smp_error err = {0};
	const struct smp_instance *in;

	memset(&cat, 0, sizeof(cat));
	cr_assert_eq(load_embedded(&cat, plain_allocator(), &err), 0, "%s",
		     err.message);
	cr_assert_str_eq(cat.data_version, "2026.11.30");
	cr_assert_str_eq(cat.generated, "2026-11-30");
	cr_assert_eq(cat.instance_count, 45);

	in = smp__catalog_instance(&cat, "ml.p3.8xlarge");
	cr_assert_not_null(in);
	cr_assert_str_eq(in->family, "p3");
	cr_assert_eq(in->vcpus, 32);
	cr_assert_float_eq(in->memory_gib, 244.0, 1e-9);
	cr_assert_eq(in->gpus, 4);
	cr_assert_str_eq(in->gpu_model, "V100");
	cr_assert_float_eq(in->gpu_memory_gib, 16.0, 1e-9);
	cr_assert_eq(in->efa, 0);
	cr_assert_float_eq(in->network_gbps, 10.0, 1e-9);
	cr_assert_eq(in->compiler_supported, 1);

	in = smp__catalog_instance(&cat, "ml.p4de.24xlarge");
	cr_assert_not_null(in);
	cr_assert_eq(in->compiler_supported, 0);
	cr_assert_eq(in->gpus, 8);
	cr_assert_float_eq(in->gpu_memory_gib, 80.0, 1e-9);

	in = smp__catalog_instance(&cat, "ml.g5.48xlarge");
	cr_assert_not_null(in);
	cr_assert_eq(in->gpus, 8);
	cr_assert_str_eq(in->gpu_model, "A10G");
	cr_assert_float_eq(in->gpu_memory_gib, 24.0, 1e-9);
	cr_assert_eq(in->efa, 1);

	/* null cells: no GPU, unknown network */
	in = smp__catalog_instance(&cat, "ml.trn1.32xlarge");
	cr_assert_not_null(in);
	cr_assert_eq(in->gpus, 0);
	cr_assert_null(in->gpu_model);
	cr_assert_float_eq(in->gpu_memory_gib, 0.0, 1e-9);
	in = smp__catalog_instance(&cat, "ml.g6e.xlarge");
	cr_assert_not_null(in);
	cr_assert_float_eq(in->network_gbps, 0.0, 1e-9);
	/* the added rows: p5.4xlarge's network, a type without a GPU */
	in = smp__catalog_instance(&cat, "ml.p5.4xlarge");
	cr_assert_not_null(in);
	cr_assert_float_eq(in->network_gbps, 100.0, 1e-9);
	in = smp__catalog_instance(&cat, "ml.trn1.2xlarge");
	cr_assert_not_null(in);
	cr_assert_eq(in->gpus, 0);
	cr_assert_eq(in->compiler_supported, 0);

	cr_assert_null(smp__catalog_instance(&cat, "ml.p3.4xlarge"));
	cr_assert_null(smp__catalog_instance(&cat, "p3.8xlarge"));
	cr_assert_null(smp__catalog_instance(&cat, NULL));
	smp__catalog_release(&cat);
	cr_assert_null(cat.instances);
	cr_assert_eq(cat.instance_count, 0);
}

Test(catalog, supported_classes_match_instances)
{
	struct smp_catalog cat;
	struct smp_error err = {0};
	size_t i;

	memset(&cat, 0, sizeof(cat));
	cr_assert_eq(load_embedded(&cat, plain_allocator(), &err), 0, "%s",
		     err.message);
	cr_assert_eq(cat.supported_class_count, 5);
	cr_assert(has_string(cat.supported_classes, 5, "p3dn"));
	cr_assert(has_string(cat.supported_classes, 5, "p4d"));
	cr_assert_not(has_string(cat.supported_classes, 5, "p4de"));
	cr_assert_eq(cat.sdk_efa_type_count, 5);
	cr_assert(has_string(cat.sdk_efa_types, 5, "ml.g4dn.8xlarge"));
	cr_assert_not(has_string(cat.sdk_efa_types, 5, "ml.g5.12xlarge"));
	cr_assert_str_eq(cat.pytorchxla_min_huggingface, "1.11");
	cr_assert_str_eq(cat.pytorchxla_min_pytorch, "1.12");
	/* compiler_supported is exactly "family is a supported class" (R1) */
	for (i = 0; i < cat.instance_count; i++)
		cr_assert_eq(cat.instances[i].compiler_supported,
			     has_string(cat.supported_classes, 5,
					cat.instances[i].family),
			     "%s", cat.instances[i].type);
	smp__catalog_release(&cat);
}

Test(catalog, embedded_tested_models)
{
	struct smp_catalog cat;
	struct smp_error err = {0};
	const struct smp_tested_model *m;
	size_t i, pt = 0, tf = 0, lower = 0;

	memset(&cat, 0, sizeof(cat));
	cr_assert_eq(load_embedded(&cat, plain_allocator(), &err), 0, "%s",
		     err.message);
	cr_assert_eq(cat.tested_count, 318);
	for (i = 0; i < cat.tested_count; i++) {
		pt += strcmp(cat.tested[i].framework, "pytorch") == 0;
		tf += strcmp(cat.tested[i].framework, "tensorflow") == 0;
		lower += cat.tested[i].batch_size_is_lower_bound;
	}
	cr_assert_eq(pt, 143);
	cr_assert_eq(tf, 175);
	cr_assert_eq(lower, 6);

	m = find_tested(&cat, "1.13.1", "albert-base-v2", "ml.g5.4xlarge", 0);
	cr_assert_not_null(m);
	cr_assert_eq(m->native_batch_size, 128);
	cr_assert_eq(m->compiler_batch_size, 332);
	cr_assert_eq(m->sequence_length, 128);
	cr_assert_str_eq(m->precision, "float16");
	cr_assert_null(m->transformers_version);
	cr_assert_str_eq(m->dataset, "wikitext-2-raw-v1");

	/* the instance-count column keeps these rows apart */
	m = find_tested(&cat, "1.11.0", "bert-base-uncased", "ml.p4d.24xlarge",
			16);
	cr_assert_not_null(m);
	cr_assert_str_eq(m->transformers_version, "4.21.1");
	cr_assert_eq(m->native_batch_size, 32);
	cr_assert_eq(m->compiler_batch_size, 64);
	cr_assert_null(m->precision);

	/* blank native batch size on the page */
	m = find_tested(&cat, "1.12.0", "gpt2", "ml.p4d.24xlarge", 0);
	cr_assert_not_null(m);
	cr_assert_eq(m->native_batch_size, 0);
	cr_assert_eq(m->compiler_batch_size, 25);

	/* '*' on the page: the largest batch tested, not a maximum */
	m = find_tested(&cat, "2.9.1", "ResNet50", "ml.g4dn.2xlarge", 0);
	cr_assert_not_null(m);
	cr_assert_eq(m->batch_size_is_lower_bound, 1);
	cr_assert_eq(m->compiler_batch_size, 256);
	cr_assert_eq(m->sequence_length, 0);
	smp__catalog_release(&cat);
}

/* The index a pick reads agrees with a scan of the whole table, for the
 * loaded catalog and for the one compiled into the binary. */
static void
expect_model_index(const struct smp_catalog *cat)
{
	size_t i, j, n, k;

	for (i = 0; i < cat->tested_count; i++) {
		const char *key = cat->tested[i].model_key;
		const struct smp_tested_model *const *rows =
			smp__catalog_model_rows(cat, key, &n);

		cr_assert_not_null(rows, "%s", key);
		for (j = 0, k = 0; j < cat->tested_count; j++) {
			if (strcmp(cat->tested[j].model_key, key) != 0)
				continue;
			cr_assert_lt(k, n, "%s", key);
			cr_assert_eq(rows[k], &cat->tested[j], "%s row %zu",
				     key, k);
			k++;
		}
		cr_assert_eq(k, n, "%s", key);
	}
	cr_assert_null(smp__catalog_model_rows(cat, "no-such-model", &n));
	cr_assert_eq(n, 0);
	cr_assert_null(smp__catalog_model_rows(cat, NULL, &n));
}

Test(catalog, model_rows_in_file_order)
{
	struct smp_catalog cat;
	struct smp_error err = {0};

	memset(&cat, 0, sizeof(cat));
	cr_assert_eq(load_embedded(&cat, plain_allocator(), &err), 0, "%s",
		     err.message);
	expect_model_index(&cat);
	expect_model_index(&smp__embedded_catalog);
	smp__catalog_release(&cat);
}

Test(catalog, model_keys_join_spellings)
{
	struct smp_catalog cat;
	struct smp_error err = {0};
	const struct smp_tested_model *slash, *underscore;

	memset(&cat, 0, sizeof(cat));
	cr_assert_eq(load_embedded(&cat, plain_allocator(), &err), 0, "%s",
		     err.message);
	slash = find_tested(&cat, "2.11.0",
			    "google/electra-small-discriminator",
			    "ml.g5.48xlarge", 0);
	underscore = find_tested(&cat, "2.10.0",
				 "google_electra-small-discriminator",
				 "ml.p3.2xlarge", 0);
	cr_assert_not_null(slash);
	cr_assert_not_null(underscore);
	cr_assert_str_eq(slash->model_key,
			 "google-electra-small-discriminator");
	cr_assert_str_eq(slash->model_key, underscore->model_key);
	smp__catalog_release(&cat);
}

Test(catalog, model_key_normalization)
{
	char out[64];

	smp__model_key(out, sizeof(out), "google/electra-small-discriminator");
	cr_assert_str_eq(out, "google-electra-small-discriminator");
	smp__model_key(out, sizeof(out), "google_electra-small-discriminator");
	cr_assert_str_eq(out, "google-electra-small-discriminator");
	smp__model_key(out, sizeof(out), "VisionTransformer");
	cr_assert_str_eq(out, "visiontransformer");
	smp__model_key(out, sizeof(out), "jplu/TF_XLM-RoBERTa-base");
	cr_assert_str_eq(out, "jplu-tf-xlm-roberta-base");
	smp__model_key(out, sizeof(out), "");
	cr_assert_str_eq(out, "");
	/* truncates to the buffer, always terminated */
	smp__model_key(out, 5, "ABCDEFGH");
	cr_assert_str_eq(out, "abcd");
	out[0] = 'x';
	smp__model_key(out, 0, "abc");
	cr_assert_eq(out[0], 'x');
}

static const struct smp_image *
find_image(const struct smp_catalog *cat, const char *estimator,
	   const char *framework_version)
{
	size_t i;

	for (i = 0; i < cat->image_count; i++)
		if (strcmp(cat->images[i].estimator, estimator) == 0 &&
		    strcmp(cat->images[i].framework_version,
			   framework_version) == 0)
			return &cat->images[i];
	return NULL;
}

Test(catalog, embedded_images)
{
	struct smp_catalog cat;
	struct smp_error err = {0};
	const struct smp_image *im;
	size_t i, n421 = 0;

	memset(&cat, 0, sizeof(cat));
	cr_assert_eq(load_embedded(&cat, plain_allocator(), &err), 0, "%s",
		     err.message);
	cr_assert_eq(cat.image_count, 10);
	for (i = 0; i < cat.image_count; i++)
		if (cat.images[i].transformers_version &&
		    strcmp(cat.images[i].transformers_version, "4.21.1") == 0)
			n421++;
	cr_assert_eq(n421, 1, "HF 4.21.1 has a PyTorch image only");

	im = find_image(&cat, "huggingface", "1.11.0");
	cr_assert_not_null(im);
	cr_assert_str_eq(im->framework, "pytorch");
	cr_assert_str_eq(im->transformers_version, "4.21.1");
	cr_assert_eq(im->framework_alias_count, 1);
	cr_assert_str_eq(im->framework_aliases[0], "1.11");
	cr_assert_eq(im->transformers_alias_count, 1);
	cr_assert_str_eq(im->transformers_aliases[0], "4.21");
	cr_assert_eq(im->py_version_count, 1);
	cr_assert_str_eq(im->py_versions[0], "py38");
	cr_assert_str_eq(im->repository, "huggingface-pytorch-trcomp-training");

	im = find_image(&cat, "huggingface", "2.5.1");
	cr_assert_not_null(im);
	cr_assert_str_eq(im->py_versions[0], "py37");
	cr_assert_str_eq(im->transformers_version, "4.11.0");

	/* the page swaps the PyTorch URIs; the tags and the SDK agree */
	im = find_image(&cat, "pytorch", "1.13.1");
	cr_assert_not_null(im);
	cr_assert_str_eq(im->py_versions[0], "py39");
	cr_assert_null(im->transformers_version);
	cr_assert_eq(im->transformers_alias_count, 0);
	/* the DLC support policy's end of patch of PyTorch 1.13 */
	cr_assert_str_eq(im->end_of_patch, "2024-10-28");
	im = find_image(&cat, "pytorch", "1.12.0");
	cr_assert_not_null(im);
	cr_assert_str_eq(im->py_versions[0], "py38");
	cr_assert_null(im->end_of_patch, "the policy does not list 1.12");

	/* TF: the SDK's 2.9.2 plus the guide's 2.9.1 and the alias 2.9 */
	im = find_image(&cat, "tensorflow", "2.9.2");
	cr_assert_not_null(im);
	cr_assert_str_eq(im->repository, "tensorflow-training");
	cr_assert_eq(im->framework_alias_count, 2);
	cr_assert(has_string(im->framework_aliases, 2, "2.9"));
	cr_assert(has_string(im->framework_aliases, 2, "2.9.1"));
	im = find_image(&cat, "tensorflow", "2.10.1");
	cr_assert_not_null(im);
	cr_assert(has_string(im->framework_aliases, im->framework_alias_count,
			     "2.10.0"));
	cr_assert_null(find_image(&cat, "tensorflow", "2.12.0"));
	smp__catalog_release(&cat);
}

/* --------------------------------------------------------- bad data */

/*
 * A small valid trio. Positions in the tests below refer to these lines:
 * instances line 12 is the "gpus" member of the only row (value at
 * column 15), the row's '{' is at 7:5.
 */
static const char small_instances[] =
	"{\n"
	"  \"schema_version\": 1,\n"
	"  \"data_version\": \"2026.11.30\",\n"
	"  \"generated\": \"2026-11-30\",\n"
	"  \"sources\": [{\"key\": \"K\", \"description\": \"d\"}],\n"
	"  \"instances\": [\n"
	"    {\n"
	"      \"type\": \"ml.p3.8xlarge\",\n"
	"      \"family\": \"p3\",\n"
	"      \"vcpus\": 32,\n"
	"      \"memory_gib\": 244,\n"
	"      \"gpus\": 4,\n"
	"      \"gpu_model\": \"V100\",\n"
	"      \"gpu_memory_gib\": 16,\n"
	"      \"efa\": false,\n"
	"      \"network_gbps\": 10,\n"
	"      \"compiler_supported\": true,\n"
	"      \"source\": \"K\"\n"
	"    }\n"
	"  ]\n"
	"}\n";

static const char small_tested[] =
	"{\n"
	"  \"schema_version\": 1,\n"
	"  \"data_version\": \"2026.11.30\",\n"
	"  \"generated\": \"2026-11-30\",\n"
	"  \"sources\": [{\"key\": \"K\", \"description\": \"d\"}],\n"
	"  \"models\": [\n"
	"    {\n"
	"      \"framework\": \"pytorch\",\n"
	"      \"framework_version\": \"1.11.0\",\n"
	"      \"transformers_version\": \"4.21.1\",\n"
	"      \"model\": \"Google/Electra_Small\",\n"
	"      \"dataset\": null,\n"
	"      \"instance_type\": \"ml.p3.8xlarge\",\n"
	"      \"precision\": null,\n"
	"      \"sequence_length\": 512,\n"
	"      \"scope\": null,\n"
	"      \"native_batch_size\": null,\n"
	"      \"compiler_batch_size\": 24,\n"
	"      \"batch_size_is_lower_bound\": false,\n"
	"      \"instance_count\": 2,\n"
	"      \"source\": \"x\"\n"
	"    }\n"
	"  ]\n"
	"}\n";

static const char small_frameworks[] =
	"{\n"
	"  \"schema_version\": 1,\n"
	"  \"data_version\": \"2026.11.30\",\n"
	"  \"generated\": \"2026-11-30\",\n"
	"  \"sources\": [{\"key\": \"K\", \"description\": \"d\"}],\n"
	"  \"supported_instance_classes\": [\"p3\", \"g5\"],\n"
	"  \"sdk_efa_instance_types\": [],\n"
	"  \"pytorchxla_min_version\": {\"huggingface\": \"1.11\", "
	"\"pytorch\": \"1.12\"},\n"
	"  \"image_configs\": [{\"framework\": \"pytorch\", \"compiler\": "
	"false, \"version\": \"1.12.0\", \"version_aliases\": [], "
	"\"base_framework\": null, \"base_framework_aliases\": [], "
	"\"py_versions\": [\"py39\"], \"py_keyed\": false, \"repository\": "
	"\"pytorch-training\", \"registries\": \"r1\", \"processors\": "
	"[\"gpu\"], \"container_version_cpu\": null, "
	"\"container_version_gpu\": null}], "
	"\"image_registries\": [{\"set\": \"r1\", \"region\": \"us-east-1\", "
	"\"account\": \"763104351884\"}],\n"
	"  \"ecr_hostnames\": [{\"region\": \"us-east-1\", \"hostname\": "
	"\"ecr.us-east-1.amazonaws.com\"}], "
	"\"image_tag_suffixes\": [],\n"
	"  \"sdk_graviton_families\": [],\n"
	"  \"images\": [\n"
	"    {\n"
	"      \"estimator\": \"huggingface\",\n"
	"      \"framework\": \"pytorch\",\n"
	"      \"framework_version\": \"1.11.0\",\n"
	"      \"framework_aliases\": [\"1.11\"],\n"
	"      \"transformers_version\": \"4.21.1\",\n"
	"      \"transformers_aliases\": [\"4.21\"],\n"
	"      \"py_versions\": [\"py38\"],\n"
	"      \"repository\": \"r\",\n"
	"      \"source\": \"s\"\n"
	"    }\n"
	"  ]\n"
	"}\n";

/* text with the first occurrence of from replaced by to (caller frees) */
static char *
replace(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	size_t n;
	char *out;

	cr_assert_not_null(at, "'%s' not in the template", from);
	n = strlen(text) - strlen(from) + strlen(to);
	out = malloc(n + 1);
	cr_assert_not_null(out);
	memcpy(out, text, (size_t)(at - text));
	strcpy(out + (at - text), to);
	strcat(out, at + strlen(from));
	return out;
}

/* text up to the end of marker, then tail (caller frees) */
static char *
with_tail(const char *text, const char *marker, const char *tail)
{
	const char *at = strstr(text, marker);
	size_t head;
	char *out;

	cr_assert_not_null(at, "'%s' not in the template", marker);
	head = (size_t)(at - text) + strlen(marker);
	out = malloc(head + strlen(tail) + 1);
	cr_assert_not_null(out);
	memcpy(out, text, head);
	strcpy(out + head, tail);
	return out;
}

/* Loads the trio with one document swapped for text (which = 0, 1, 2). */
static int
load_with(int which, const char *text, struct smp_error *err,
	  struct smp_catalog *cat)
{
	struct smp_data_buffer b[3] = {
		{"instance-data/instances.json", small_instances,
		 sizeof(small_instances) - 1},
		{"instance-data/tested-models.json", small_tested,
		 sizeof(small_tested) - 1},
		{"instance-data/frameworks.json", small_frameworks,
		 sizeof(small_frameworks) - 1},
	};

	if (text) {
		b[which].buf = text;
		b[which].len = strlen(text);
	}
	memset(err, 0, sizeof(*err));
	return smp__catalog_load(cat, plain_allocator(), &b[0], &b[1], &b[2],
				 err);
}

/* Expects SMP_EPARSE at file:line:column with exactly that message. */
static void
expect_error(int which, const char *text, const char *file, unsigned line,
	     unsigned column, const char *message)
{
	struct smp_catalog cat;
	struct smp_error err = {0};
	int rc;

	memset(&cat, 0, sizeof(cat));
	rc = load_with(which, text, &err, &cat);
	cr_assert_eq(rc, SMP_EPARSE, "rc %d: %s", rc, err.message);
	cr_assert_eq(err.code, SMP_EPARSE);
	cr_assert_str_eq(err.source, file);
	cr_expect_eq(err.line, line, "%s:%u:%u: %s", err.source, err.line,
		     err.column, err.message);
	cr_expect_eq(err.column, column, "%s:%u:%u: %s", err.source, err.line,
		     err.column, err.message);
	if (message)
		cr_expect_str_eq(err.message, message);
	/* a failed load leaves the catalog untouched */
	cr_assert_null(cat.instances);
	cr_assert_null(cat.arena.head);
}

Test(catalog, small_trio_loads)
{
	struct smp_catalog cat;
	struct smp_error err = {0};
	const struct smp_tested_model *m;

	memset(&cat, 0, sizeof(cat));
	cr_assert_eq(load_with(0, NULL, &err, &cat), 0, "%s", err.message);
	cr_assert_eq(cat.instance_count, 1);
	cr_assert_eq(cat.tested_count, 1);
	m = &cat.tested[0];
	cr_assert_str_eq(m->model_key, "google-electra-small");
	cr_assert_null(m->dataset);
	cr_assert_eq(m->native_batch_size, 0);
	cr_assert_eq(m->instance_count, 2);
	cr_assert_eq(cat.image_count, 1);
	cr_assert_eq(cat.sdk_efa_type_count, 0);
	cr_assert_eq(cat.supported_class_count, 2);
	smp__catalog_release(&cat);
}

Test(catalog, wrong_type_has_position)
{
	char *t = replace(small_instances, "\"gpus\": 4", "\"gpus\": \"4\"");

	expect_error(0, t, "instance-data/instances.json", 12, 15,
		     "'instances[0].gpus' must be an integer, found a string "
		     "(\"4\")");
	free(t);
}

Test(catalog, wrong_types_of_each_kind)
{
	char *t;

	t = replace(small_instances, "\"memory_gib\": 244",
		    "\"memory_gib\": true");
	expect_error(0, t, "instance-data/instances.json", 11, 21,
		     "'instances[0].memory_gib' must be a number, found a "
		     "boolean (true)");
	free(t);
	t = replace(small_instances, "\"efa\": false", "\"efa\": 0");
	expect_error(0, t, "instance-data/instances.json", 15, 14,
		     "'instances[0].efa' must be a boolean, found an "
		     "integer (0)");
	free(t);
	t = replace(small_instances, "\"gpu_model\": \"V100\"",
		    "\"gpu_model\": 100");
	expect_error(0, t, "instance-data/instances.json", 13, 20,
		     "'instances[0].gpu_model' must be a string, found an "
		     "integer (100)");
	free(t);
	t = replace(small_instances, "\"vcpus\": 32", "\"vcpus\": -32");
	expect_error(0, t, "instance-data/instances.json", 10, 16,
		     "'instances[0].vcpus' must be at least 1, found an "
		     "integer (-32)");
	free(t);
	t = replace(small_instances, "\"vcpus\": 32", "\"vcpus\": 32.5");
	expect_error(0, t, "instance-data/instances.json", 10, 16,
		     "'instances[0].vcpus' must be an integer, found a "
		     "number (32.5)");
	free(t);
	t = replace(small_instances, "\"vcpus\": 32", "\"vcpus\": 99999999999");
	expect_error(0, t, "instance-data/instances.json", 10, 16,
		     "'instances[0].vcpus' must be at most 4096, found an "
		     "integer (99999999999)");
	free(t);
	t = with_tail(small_instances, "\"instances\": ", "[[1]]\n}\n");
	expect_error(0, t, "instance-data/instances.json", 6, 17,
		     "'instances[0]' must be a mapping, found a list");
	free(t);
	t = replace(small_frameworks, "\"py_versions\": [\"py38\"]",
		    "\"py_versions\": [38]");
	expect_error(2, t, "instance-data/frameworks.json", 20, 23,
		     "'images[0].py_versions[0]' must be a string, found an "
		     "integer (38)");
	free(t);
	t = replace(small_frameworks, "\"sdk_efa_instance_types\": []",
		    "\"sdk_efa_instance_types\": {}");
	expect_error(2, t, "instance-data/frameworks.json", 7, 29,
		     "'sdk_efa_instance_types' must be a list, found a "
		     "mapping");
	free(t);
}

Test(catalog, missing_key_points_at_its_mapping)
{
	char *t = replace(small_instances, "      \"efa\": false,\n", "");

	expect_error(0, t, "instance-data/instances.json", 7, 5,
		     "missing required key 'efa' in 'instances[0]'");
	free(t);
	t = replace(small_tested, "  \"models\": [\n    {\n",
		    "  \"rows\": [\n    {\n");
	/* the missing key is reported at the document, before the unknown
	 * one */
	expect_error(1, t, "instance-data/tested-models.json", 1, 1,
		     "missing required key 'models' in the document");
	free(t);
}

Test(catalog, unknown_key)
{
	char *t = replace(small_instances, "\"gpus\": 4,",
			  "\"gpus\": 4, \"tpus\": 0,");

	expect_error(0, t, "instance-data/instances.json", 12, 18,
		     "unknown key 'tpus' in 'instances[0]'; did you mean "
		     "'gpus'?");
	free(t);
}

Test(catalog, schema_version)
{
	char *t = replace(small_instances, "\"schema_version\": 1",
			  "\"schema_version\": 2");

	expect_error(0, t, "instance-data/instances.json", 2, 21,
		     "unsupported schema_version 2: this build reads "
		     "version 1");
	free(t);
	t = replace(small_frameworks, "\"schema_version\": 1",
		    "\"schema_version\": \"1\"");
	expect_error(2, t, "instance-data/frameworks.json", 2, 21,
		     "'schema_version' must be 1, found a string (\"1\")");
	free(t);
	t = replace(small_tested, "  \"schema_version\": 1,\n", "");
	expect_error(1, t, "instance-data/tested-models.json", 1, 1,
		     "missing required key 'schema_version' in the "
		     "document");
	free(t);
}

Test(catalog, syntax_error_has_position)
{
	/* a missing comma: the error is at the next member's quote */
	char *t = replace(small_instances, "\"family\": \"p3\",",
			  "\"family\": \"p3\"");

	expect_error(0, t, "instance-data/instances.json", 10, 7, NULL);
	free(t);
	expect_error(1, "[1, 2", "instance-data/tested-models.json", 1, 6,
		     NULL);
	expect_error(2, "", "instance-data/frameworks.json", 1, 1, NULL);
	expect_error(0, "[]", "instance-data/instances.json", 1, 1,
		     "the document must be a mapping, found a list");
}

Test(catalog, invalid_utf8)
{
	char *t = replace(small_instances, "\"family\": \"p3\"",
			  "\"family\": \"p\xff\"");

	/* the loader reports it, at the offending byte */
	expect_error(0, t, "instance-data/instances.json", 9, 19, NULL);
	free(t);
}

Test(catalog, enums_and_semantics)
{
	char *t = replace(small_tested, "\"framework\": \"pytorch\"",
			  "\"framework\": \"mxnet\"");

	expect_error(1, t, "instance-data/tested-models.json", 8, 20,
		     "'models[0].framework' must be one of 'pytorch', "
		     "'tensorflow', found a string (\"mxnet\")");
	free(t);
	t = replace(small_frameworks, "\"transformers_version\": \"4.21.1\"",
		    "\"transformers_version\": null");
	expect_error(2, t, "instance-data/frameworks.json", 18, 31,
		     "'images[0].transformers_version' must be set for a "
		     "huggingface image; found null");
	free(t);
	t = replace(small_frameworks, "\"py_versions\": [\"py38\"]",
		    "\"py_versions\": []");
	expect_error(2, t, "instance-data/frameworks.json", 20, 22,
		     "'images[0].py_versions' must be a list with at least 1 "
		     "item, found a list");
	free(t);
	t = replace(small_tested, "\"data_version\": \"2026.11.30\"",
		    "\"data_version\": \"2026.12.01\"");
	expect_error(1, t, "instance-data/tested-models.json", 3, 19,
		     "'data_version' is '2026.12.01' but the instance types "
		     "have '2026.11.30': the files must come from one release");
	free(t);
	t = replace(small_instances, "\"generated\": \"2026-11-30\"",
		    "\"generated\": \"30/11/2026\"");
	expect_error(0, t, "instance-data/instances.json", 4, 16,
		     "'generated' must look like YYYY-MM-DD; found a string "
		     "(\"30/11/2026\")");
	free(t);
	t = with_tail(small_frameworks, "\"images\": ", "[]\n}\n");
	expect_error(2, t, "instance-data/frameworks.json", 12, 13,
		     "'images' must be a list with at least 1 item, found a "
		     "list");
	free(t);
}

/* Downloaded data that passes the types but is absurd or hostile is
 * refused by the schemas with a position: a type name with a terminal
 * escape or a workflow command, a GPU type with no GPUs, a batch size of
 * 0, a negative memory size. */
#define TYPE_NAME                                                              \
	"must be an instance type name such as ml.p3.8xlarge (lower-case "     \
	"letters, digits, '-' and two dots); found a string "
Test(catalog, absurd_and_hostile_values)
{
	static const struct {
		int which;
		const char *from, *to;
		unsigned line, column;
		const char *message;
	} cases[] = {
		{0, "\"type\": \"ml.p3.8xlarge\"",
		 "\"type\": \"ml.p3.8xlarge\\u001b[2J\"", 8, 15,
		 "'instances[0].type' " TYPE_NAME
		 "(\"ml.p3.8xlarge\\x1B[2J\")"},
		{0, "\"type\": \"ml.p3.8xlarge\"",
		 "\"type\": \"ml.p3.8xlarge\\n::error::pwned\"", 8, 15,
		 "'instances[0].type' " TYPE_NAME
		 "(\"ml.p3.8xlarge\\n::error::pwned\")"},
		{0, "\"type\": \"ml.p3.8xlarge\"", "\"type\": \"p3.8xlarge\"",
		 8, 15, NULL},
		{0, "\"type\": \"ml.p3.8xlarge\"",
		 "\"type\": \"ml.P3.8xlarge\"", 8, 15, NULL},
		{0, "\"type\": \"ml.p3.8xlarge\"",
		 "\"type\": \"ml.p3.8x.large\"", 8, 15, NULL},
		{0, "\"gpus\": 4", "\"gpus\": 0", 12, 15,
		 "'instances[0].gpus' must be at least 1 for a type with a "
		 "'gpu_model'; found an integer (0)"},
		{0, "\"gpus\": 4", "\"gpus\": 4000", 12, 15,
		 "'instances[0].gpus' must be at most 64, found an integer "
		 "(4000)"},
		{0, "\"gpus\": 4", "\"gpus\": -4", 12, 15,
		 "'instances[0].gpus' must be at least 0, found an integer "
		 "(-4)"},
		{0, "\"gpu_model\": \"V100\"", "\"gpu_model\": null", 12, 15,
		 "'instances[0].gpus' must be 0 for a type without a "
		 "'gpu_model'; found an integer (4)"},
		{0, "\"vcpus\": 32", "\"vcpus\": 0", 10, 16,
		 "'instances[0].vcpus' must be at least 1, found an integer "
		 "(0)"},
		{0, "\"memory_gib\": 244", "\"memory_gib\": 0", 11, 21,
		 "'instances[0].memory_gib' must be at least 0.5, found an "
		 "integer (0)"},
		{0, "\"memory_gib\": 244", "\"memory_gib\": -244", 11, 21,
		 NULL},
		{0, "\"memory_gib\": 244", "\"memory_gib\": 1e999", 11, 21,
		 NULL},
		{0, "\"gpu_memory_gib\": 16", "\"gpu_memory_gib\": -16", 14, 25,
		 "'instances[0].gpu_memory_gib' must be greater than 0, found "
		 "an integer (-16)"},
		{0, "\"gpu_memory_gib\": 16", "\"gpu_memory_gib\": 0", 14, 25,
		 NULL},
		{0, "\"network_gbps\": 10", "\"network_gbps\": 0", 16, 23,
		 "'instances[0].network_gbps' must be greater than 0, found an "
		 "integer (0)"},
		{1, "\"compiler_batch_size\": 24", "\"compiler_batch_size\": 0",
		 18, 30,
		 "'models[0].compiler_batch_size' must be at least 1, found an "
		 "integer (0)"},
		{1, "\"compiler_batch_size\": 24",
		 "\"compiler_batch_size\": 99999999", 18, 30,
		 "'models[0].compiler_batch_size' must be at most 1048576, "
		 "found an integer (99999999)"},
		{1, "\"native_batch_size\": null", "\"native_batch_size\": 0",
		 17, 28,
		 "'models[0].native_batch_size' must be at least 1, found an "
		 "integer (0)"},
		{1, "\"sequence_length\": 512", "\"sequence_length\": -512", 15,
		 26, NULL},
		{1, "\"instance_count\": 2", "\"instance_count\": 0", 20, 25,
		 NULL},
		{1, "\"instance_type\": \"ml.p3.8xlarge\"",
		 "\"instance_type\": \"ml.p3.\\u0007\"", 13, 24,
		 "'models[0].instance_type' " TYPE_NAME "(\"ml.p3.\\x07\")"},
		{2, "\"sdk_efa_instance_types\": []",
		 "\"sdk_efa_instance_types\": [\"ml.p4d.24xlarge\\u001b]0;x\"]",
		 7, 30,
		 "'sdk_efa_instance_types[0]' " TYPE_NAME
		 "(\"ml.p4d.24xlarge\\x1B]0;x\")"},
		/* a C string would end at the NUL: refused by the loader */
		{1, "\"model\": \"Google/Electra_Small\"",
		 "\"model\": \"Google\\u0000Electra\"", 11, 16,
		 "'model' must not contain a NUL character"},
		{2, "\"supported_instance_classes\": [\"p3\", \"g5\"]",
		 "\"supported_instance_classes\": [\"p3\", \"\"]", 6, 40, NULL},
	};
	static const char *const files[] = {
		"instance-data/instances.json",
		"instance-data/tested-models.json",
		"instance-data/frameworks.json",
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *base = cases[i].which == 0   ? small_instances
				   : cases[i].which == 1 ? small_tested
							 : small_frameworks;
		char *t = replace(base, cases[i].from, cases[i].to);

		expect_error(cases[i].which, t, files[cases[i].which],
			     cases[i].line, cases[i].column, cases[i].message);
		free(t);
	}
}

Test(catalog, duplicate_type)
{
	const char *row = strstr(small_instances, "    {\n");
	const char *end = strstr(row, "    }\n") + strlen("    }");
	char *second, *t;
	size_t n;

	/* the only row twice: the second starts on line 20 */
	n = (size_t)(end - row);
	second = malloc(n + 16);
	cr_assert_not_null(second);
	memcpy(second, "    },\n", 7);
	memcpy(second + 7, row, n);
	strcpy(second + 7 + n, "\n  ]");
	t = replace(small_instances, "    }\n  ]", second);
	free(second);
	expect_error(0, t, "instance-data/instances.json", 21, 15,
		     "instance type 'ml.p3.8xlarge' is listed twice");
	free(t);
}

Test(catalog, failed_load_keeps_last_good_data)
{
	struct smp_catalog cat;
	struct smp_error err = {0};
	char *t = replace(small_instances, "\"gpus\": 4", "\"gpus\": null");

	memset(&cat, 0, sizeof(cat));
	cr_assert_eq(load_embedded(&cat, plain_allocator(), &err), 0);
	cr_assert_eq(load_with(0, t, &err, &cat), SMP_EPARSE);
	free(t);
	cr_assert_str_eq(err.message,
			 "'instances[0].gpus' must be an integer, found null");
	cr_assert_eq(cat.instance_count, 45);
	cr_assert_not_null(smp__catalog_instance(&cat, "ml.p3.8xlarge"));
	smp__catalog_release(&cat);
}

/* ---------------------------------------------------------- overlays */

#define OVERLAY_ROW(type, gpus)                                                \
	"{\"type\": \"" type "\", \"family\": \"g5\", \"vcpus\": 384, "        \
	"\"memory_gib\": 1536, \"gpus\": " gpus ", \"gpu_model\": \"A10G\", "  \
	"\"gpu_memory_gib\": 24, \"efa\": true, \"network_gbps\": 200, "       \
	"\"compiler_supported\": true, \"source\": \"t\"}"

/* Applies overlay text to the small trio: its result, err filled. */
static int
overlay_with(const char *text, struct smp_catalog *cat, struct smp_error *err)
{
	struct smp_data_buffer b = {"site.json", text, strlen(text)};

	memset(cat, 0, sizeof(*cat));
	cr_assert_eq(load_with(0, NULL, err, cat), 0, "%s", err->message);
	memset(err, 0, sizeof(*err));
	return smp__catalog_overlay(cat, plain_allocator(), &b, err);
}

Test(catalog, overlay_adds_and_replaces_rows)
{
	struct smp_catalog cat;
	struct smp_error err = {0};
	const struct smp_instance *in;

	cr_assert_eq(overlay_with("{\"schema_version\": 1, \"instances\": "
				  "[" OVERLAY_ROW("ml.g5.96xlarge",
						  "16") ", "
							"" OVERLAY_ROW(
								"ml.p3.8xlarge",
								"2") "]}",
				  &cat, &err),
		     0, "%s", err.message);
	cr_expect_eq(cat.instance_count, 2);
	in = smp__catalog_instance(&cat, "ml.g5.96xlarge");
	cr_assert_not_null(in);
	cr_expect_eq(in->gpus, 16);
	cr_expect_float_eq(in->gpu_memory_gib, 24.0, 1e-9);
	in = smp__catalog_instance(&cat, "ml.p3.8xlarge");
	cr_assert_not_null(in);
	cr_expect_eq(in->gpus, 2);
	smp__catalog_release(&cat);
	/* an empty overlay changes nothing */
	cr_assert_eq(overlay_with("{\"schema_version\": 1, \"instances\": []}",
				  &cat, &err),
		     0, "%s", err.message);
	cr_expect_eq(cat.instance_count, 1);
	smp__catalog_release(&cat);
}

/* The overlay goes through instances.schema.json's "#/$defs/overlay":
 * the rows are held to the same rules as the built-in data. */
Test(catalog, overlay_is_validated_by_the_schema)
{
	static const struct {
		const char *text;
		unsigned line, column;
		const char *message;
	} cases[] = {
		{"{\"schema_version\": 1, \"instances\": [\n" OVERLAY_ROW(
			 "ml.g5.96xlarge", "0") "]}",
		 2, 86,
		 "'instances[0].gpus' must be at least 1 for a type with a "
		 "'gpu_model'; found an integer (0)"},
		{"{\"schema_version\": 1, \"instances\": [\n" OVERLAY_ROW(
			 "ml.g5.96xlarge\\u001b[2J", "16") "]}",
		 2, 10,
		 "'instances[0].type' must be an instance type name such as "
		 "ml.p3.8xlarge (lower-case letters, digits, '-' and two "
		 "dots); found a string (\"ml.g5.96xlarge\\x1B[2J\")"},
		{"{\"schema_version\": 2, \"instances\": []}", 1, 20,
		 "unsupported schema_version 2: this build reads version 1"},
		{"{\"schema_version\": 1, \"instances\": [], \"extra\": {}}", 1,
		 40,
		 "unknown key 'extra' at the top level; the keys are "
		 "'schema_version' and 'instances'"},
		{"{\"instances\": []}", 1, 1,
		 "missing required key 'schema_version' in the document"},
		{"{\"schema_version\": 1, \"instances\": {}}", 1, 36,
		 "'instances' must be a list, found a mapping"},
		{"{\"schema_version\": 1, \"instances\": [\n" OVERLAY_ROW(
			 "ml.g5.96xlarge",
			 "16") ",\n" OVERLAY_ROW("ml.g5.96xlarge", "16") "]}",
		 3, 10, "instance type 'ml.g5.96xlarge' is listed twice"},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct smp_catalog cat;
		struct smp_error err = {0};

		cr_expect_eq(overlay_with(cases[i].text, &cat, &err),
			     SMP_EPARSE, "%s", cases[i].text);
		cr_expect_str_eq(err.source, "site.json");
		cr_expect_eq(err.line, cases[i].line, "%u:%u %s", err.line,
			     err.column, err.message);
		cr_expect_eq(err.column, cases[i].column, "%u:%u %s", err.line,
			     err.column, err.message);
		cr_expect_str_eq(err.message, cases[i].message);
		/* the catalog keeps its rows */
		cr_expect_eq(cat.instance_count, 1);
		smp__catalog_release(&cat);
	}
}

/* ------------------------------------------------ allocation failure */

/*
 * Fails allocation n for n = 0, 1, 2, ... until a load succeeds: every
 * failure must be SMP_ENOMEM with nothing left allocated.
 */
Test(catalog, allocation_failure_small)
{
	struct smp_data_buffer b[3] = {
		{"i", small_instances, sizeof(small_instances) - 1},
		{"t", small_tested, sizeof(small_tested) - 1},
		{"f", small_frameworks, sizeof(small_frameworks) - 1},
	};
	struct failing_alloc c;
	long n;

	for (n = 0;; n++) {
		struct smp_allocator a = fa_allocator(&c);
		struct smp_catalog cat;
		struct smp_error err = {0};
		int rc;

		fa_init(&c, n);
		memset(&cat, 0, sizeof(cat));
		rc = smp__catalog_load(&cat, &a, &b[0], &b[1], &b[2], &err);
		if (!c.failed) {
			cr_assert_eq(rc, 0, "%s", err.message);
			cr_assert_eq(cat.tested_count, 1);
			smp__catalog_release(&cat);
			cr_assert_eq(c.live, 0);
			break;
		}
		cr_assert_eq(rc, SMP_ENOMEM, "n=%ld rc=%d %s", n, rc,
			     err.message);
		cr_assert_eq(err.code, SMP_ENOMEM);
		cr_assert_eq(c.live, 0, "n=%ld leaks %ld blocks", n, c.live);
		cr_assert_null(cat.arena.head);
	}
	cr_assert_gt(n, 3);
}

/*
 * The same on the real data, sampled: each of the first 64 allocations,
 * then about 200 points spread over the whole load.
 */
Test(catalog, allocation_failure_embedded)
{
	struct failing_alloc c = FA_INIT;
	struct smp_allocator a = fa_allocator(&c);
	struct smp_catalog cat;
	struct smp_error err = {0};
	long total, n, step;

	memset(&cat, 0, sizeof(cat));
	cr_assert_eq(load_embedded(&cat, &a, &err), 0);
	total = c.calls;
	smp__catalog_release(&cat);
	cr_assert_eq(c.live, 0);
	step = total / 200 + 1;
	for (n = 0; n < total; n += n < 64 ? 1 : step) {
		int rc;

		fa_init(&c, n);
		memset(&cat, 0, sizeof(cat));
		rc = load_embedded(&cat, &a, &err);
		cr_assert_eq(rc, SMP_ENOMEM, "n=%ld of %ld: rc=%d", n, total,
			     rc);
		cr_assert_eq(c.live, 0, "n=%ld leaks %ld blocks", n, c.live);
	}
	fa_init(&c, total - 1);
	cr_assert_eq(load_embedded(&cat, &a, &err), SMP_ENOMEM);
	cr_assert_eq(c.live, 0);
}
