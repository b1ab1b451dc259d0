/*
 * image_uri.h - the training image a framework estimator would use,
 * derived from framework, versions, py_version, instance type, region and
 * the Training Compiler configuration exactly as the SageMaker Python
 * SDK's Framework.training_image_uri() -> image_uris.get_training_image_uri()
 * -> image_uris.retrieve() derives it (v2.257.6), from the SDK's own tables
 * carried in frameworks.json (catalog.h struct smp_image_config...).
 *
 * For the effective job: when a spec names no image, call
 * smp__image_uri_derive() with what the estimator would pass; status says
 * either the URI or which argument the SDK would refuse (its ValueError),
 * with the table row that was used so a message can name the valid
 * choices (row->py_versions...). tests/sdk-oracle/expected.json holds the
 * SDK's own answers and tests/unit/test_image_uri.c checks them.
 */
#ifndef SMP_IMAGE_URI_H
#define SMP_IMAGE_URI_H

#include <stddef.h>

#include "catalog/catalog.h"

/* What the estimator hands to image_uris.get_training_image_uri(). NULL
 * is an argument the spec does not give (the SDK's None). */
struct smp_image_request {
	/* "huggingface", "pytorch" or "tensorflow" (the estimator's
	 * _framework_name) */
	const char *framework;
	/* framework_version; for huggingface the transformers_version.
	 * Spelled as in the spec: the tag keeps an alias ("1.13") as is. */
	const char *version;
	/* huggingface only: "pytorch" or "tensorflow", and that version as
	 * the spec spells it (pytorch_version / tensorflow_version) */
	const char *base_framework;
	const char *base_version;
	const char *py_version;
	const char *instance_type;
	const char *region;
	/* compiler_config is given at all: the SDK tests the object, so
	 * enabled: false still selects the compiler image (HF, PyTorch);
	 * TensorFlow's image does not depend on it */
	int compiler;
	/* the distribution has an 'smdistributed' key (tag suffix table) */
	int smdistributed;
};

enum smp_image_status {
	SMP_IMAGE_OK = 0,
	/* framework not one of the three, or no region */
	SMP_IMAGE_BAD_REQUEST,
	/* version missing or not in the table: "Unsupported <framework>
	 * version" (the SDK's list is the rows' versions and aliases) */
	SMP_IMAGE_VERSION,
	/* huggingface: no image of that transformers version for this base
	 * framework version ("Unsupported base framework") */
	SMP_IMAGE_BASE_FRAMEWORK,
	/* py_version not offered, or missing while several are */
	SMP_IMAGE_PY_VERSION,
	/* no registry in that region ("Unsupported region") */
	SMP_IMAGE_REGION,
	/* the region has a registry but botocore (as the data was built)
	 * resolves no ECR host for it */
	SMP_IMAGE_HOSTNAME,
	/* instance type missing, not ml.<family>.<size>, or its processor
	 * (cpu, gpu) has no image ("Unsupported processor") */
	SMP_IMAGE_PROCESSOR,
	/* ml.p2 with PyTorch >= 1.13 or TensorFlow >= 2.12 */
	SMP_IMAGE_INSTANCE_DEPRECATED,
	/* a route this table does not hold: Neuron (inf, trn), Graviton
	 * (inference_graviton scope), an SDK table without the processor's
	 * container version */
	SMP_IMAGE_UNSUPPORTED,
	/* the URI does not fit struct smp_image_result.uri */
	SMP_IMAGE_TOO_LONG
};

struct smp_image_result {
	enum smp_image_status status;
	/* the row used; on PY_VERSION/REGION/PROCESSOR... failures the
	 * version's first row, so callers can list its choices; NULL when
	 * the version or base framework did not resolve */
	const struct smp_image_config *config;
	/* the Python version in the tag: the spec's, or the SDK's default
	 * when the version offers only one; NULL when the image has none */
	const char *py_version;
	const char *processor; /* "gpu", "cpu", or NULL */
	const char *account;   /* ECR registry account */
	const char *hostname;  /* "ecr.us-east-1.amazonaws.com" */
	char uri[256];         /* "" unless status is SMP_IMAGE_OK */
};

/*
 * Fills *out for rq against the catalog's image tables. Returns 0 (the
 * outcome is out->status), or SMP_EINVAL when an argument is NULL. No
 * allocation; the pointers in *out borrow from the catalog and rq.
 */
int smp__image_uri_derive(struct smp_image_result *out,
			  const struct smp_catalog *cat,
			  const struct smp_image_request *rq);

/*
 * The ml.<family>.<size> family as the SDK's utils.get_instance_type_family()
 * reads it ("ml.p3.2xlarge" -> "p3"; also "ml_p3"), into out; "" when the
 * type does not have that shape. Returns the family's length.
 */
size_t smp__instance_family(char *out, size_t outsz, const char *type);

#endif
