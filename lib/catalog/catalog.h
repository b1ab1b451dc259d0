/*
 * catalog.h - the instance-type, tested-model and framework tables, read
 * from the instance-data JSON files (embedded at build time, or a folder)
 * by the same loader as specs, and validated before use.
 */
#ifndef SMP_CATALOG_H
#define SMP_CATALOG_H

#include <stddef.h>

#include "smpreflight.h"
#include "util/arena.h"

struct smp_instance {
	const char *type;   /* "ml.p3.8xlarge" */
	const char *family; /* "p3" */
	int vcpus;
	double memory_gib;
	int gpus;              /* 0 for CPU and Trainium types */
	const char *gpu_model; /* "V100", or NULL */
	double gpu_memory_gib; /* per GPU; 0 when none */
	int efa;
	double network_gbps; /* 0 when unknown */
	int compiler_supported;
};

struct smp_tested_model {
	const char *framework;            /* "pytorch", "tensorflow" */
	const char *framework_version;    /* "1.11.0" */
	const char *transformers_version; /* "4.21.1", or NULL */
	const char *model;                /* as the page writes it */
	const char *model_key;            /* normalized, see smp__model_key */
	const char *dataset;
	const char *instance_type;
	const char *precision; /* or NULL */
	int sequence_length;   /* 0 when unknown */
	const char *scope;     /* or NULL */
	int native_batch_size; /* 0 when the page leaves it blank */
	int compiler_batch_size;
	int batch_size_is_lower_bound;
	int instance_count; /* 0 when the table has no column */
	/* 1 + the index of the row's instance type in the catalog's
	 * instances (an overlay keeps the indices), or 0: not known at load
	 * (smp__catalog_row_instance looks the type up) */
	size_t instance_slot;
};

/* One Training Compiler image configuration the SDK can resolve. */
struct smp_image {
	const char *estimator; /* "huggingface", "pytorch", "tensorflow" */
	const char *framework; /* base framework: "pytorch", "tensorflow" */
	const char *framework_version;        /* canonical, "1.11.0" */
	const char *const *framework_aliases; /* other accepted spellings */
	size_t framework_alias_count;
	const char *transformers_version; /* NULL unless huggingface */
	const char *const *transformers_aliases;
	size_t transformers_alias_count;
	const char *const *py_versions;
	size_t py_version_count;
	const char *repository; /* ECR repository name */
	/* the DLC support policy's end of patch of the framework version,
	 * "2024-10-28"; NULL when the policy does not list it */
	const char *end_of_patch;
};

/*
 * One training image configuration of the SDK's image_uri_config tables
 * (scope "training"), what image_uris.retrieve() reads to build a URI;
 * smp__image_uri_derive() (job/image_uri.h) walks them.
 */
struct smp_image_config {
	const char *framework; /* retrieve()'s: "huggingface", "pytorch",
				  "tensorflow" */
	int compiler;          /* from <framework>-training-compiler.json */
	const char *version;   /* transformers version for huggingface */
	const char *const *version_aliases; /* aliases resolving to version */
	size_t version_alias_count;
	const char *base_framework; /* huggingface: "pytorch1.11.0"; NULL */
	const char *const *base_framework_aliases;
	size_t base_framework_alias_count;
	const char *const *py_versions; /* may be empty */
	size_t py_version_count;
	int py_keyed; /* the SDK keys the version by Python version */
	const char *repository;
	const char *registries; /* a set name of smp_image_registry */
	const char *const *processors;
	size_t processor_count;
	const char *container_version_cpu; /* or NULL */
	const char *container_version_gpu; /* or NULL */
};

/* One region's ECR account in a registry set. */
struct smp_image_registry {
	const char *set;
	const char *region;
	const char *account;
};

/* The ECR host name botocore resolves for a region. */
struct smp_ecr_hostname {
	const char *region;
	const char *hostname;
};

/* The SDK's container suffix for "<framework>-<tag>" on ml.p4d or with
 * smdistributed (image_uris._get_image_tag). */
struct smp_image_tag_suffix {
	const char *tag;
	const char *suffix;
};

struct smp_catalog {
	struct smp_arena arena;
	const char *data_version;
	const char *generated; /* YYYY-MM-DD */
	const struct smp_instance *instances;
	size_t instance_count;
	const struct smp_tested_model *tested;
	size_t tested_count;
	/* the tested rows ordered by model_key, file order within a model:
	 * a pick reads its model's rows, not the whole table */
	const struct smp_tested_model *const *tested_by_model;
	const struct smp_image *images;
	size_t image_count;
	/* instance classes the SDK accepts (exact match on ml.<class>.<size>)
	 */
	const char *const *supported_classes;
	size_t supported_class_count;
	/* the SDK's SUPPORTED_INSTANCE_TYPES_WITH_EFA (R11/R16) */
	const char *const *sdk_efa_types;
	size_t sdk_efa_type_count;
	/* minimum base framework version for pytorchxla per estimator */
	const char *pytorchxla_min_huggingface; /* "1.11" */
	const char *pytorchxla_min_pytorch;     /* "1.12" */
	/* the SDK's training image tables (frameworks.json) */
	const struct smp_image_config *image_configs;
	size_t image_config_count;
	const struct smp_image_registry *image_registries;
	size_t image_registry_count;
	const struct smp_ecr_hostname *ecr_hostnames;
	size_t ecr_hostname_count;
	const struct smp_image_tag_suffix *image_tag_suffixes;
	size_t image_tag_suffix_count;
	/* fw_utils.GRAVITON_ALLOWED_TARGET_INSTANCE_FAMILY */
	const char *const *graviton_families;
	size_t graviton_family_count;
};

/*
 * Loads the three documents, each given as a buffer (name is used in
 * errors, e.g. "instance-data/instances.json"). A malformed or invalid
 * document fails with SMP_EPARSE and err naming file, line and column.
 */
struct smp_data_buffer {
	const char *name;
	const char *buf;
	size_t len;
};

int smp__catalog_load(struct smp_catalog *cat, const struct smp_allocator *a,
		      const struct smp_data_buffer *instances,
		      const struct smp_data_buffer *tested,
		      const struct smp_data_buffer *frameworks,
		      struct smp_error *err);

void smp__catalog_release(struct smp_catalog *cat);

/*
 * Adds or replaces instance types from an overlay document
 * {"schema_version": 1, "instances": [rows as in instances.json]}: a type
 * already present is replaced whole, a new one appended. SMP_EPARSE with
 * err at the offending line and column; the catalog is unusable after a
 * failure (the context being created is freed).
 */
int smp__catalog_overlay(struct smp_catalog *cat, const struct smp_allocator *a,
			 const struct smp_data_buffer *overlay,
			 struct smp_error *err);

const struct smp_instance *smp__catalog_instance(const struct smp_catalog *cat,
						 const char *type);

/* The instance of a tested row (its instance_type), or NULL. */
const struct smp_instance *
smp__catalog_row_instance(const struct smp_catalog *cat,
			  const struct smp_tested_model *row);

/*
 * The tested rows of one model (a model_key, see smp__model_key), in file
 * order: *count rows from the returned array; NULL with *count 0 when the
 * table has none.
 */
const struct smp_tested_model *const *
smp__catalog_model_rows(const struct smp_catalog *cat, const char *model_key,
			size_t *count);

/*
 * 1 when version is the image's framework version or one of its aliases
 * ("1.11" for "1.11.0", the guide's "2.9.1" for the SDK's "2.9.2").
 */
int smp__image_framework_is(const struct smp_image *im, const char *version);

/* The same for the transformers version of a HuggingFace image. */
int smp__image_transformers_is(const struct smp_image *im, const char *version);

/* Normalizes a model name: lower case, '/' and '_' become '-'. */
void smp__model_key(char *out, size_t outsz, const char *model);

#endif
