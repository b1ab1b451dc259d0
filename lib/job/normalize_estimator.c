/*
 * normalize_estimator.c - SageMaker Python SDK v2 estimator kwargs (plus
 * `estimator:` naming the class) into the job model. Structure and types
 * were already checked against the schema; here only well-typed values are
 * taken, so rules can trust what they read.
 */
#include <strings.h>
#include <string.h>

#include "job/normalize.h"
#include "util/text.h"

/* The root keys the normalizer reads, looked up in one pass (keys()). */
enum key {
	K_ESTIMATOR,
	K_INSTANCE_TYPE,
	K_TRAIN_INSTANCE_TYPE,
	K_INSTANCE_COUNT,
	K_TRAIN_INSTANCE_COUNT,
	K_INSTANCE_GROUPS,
	K_TRANSFORMERS_VERSION,
	K_PYTORCH_VERSION,
	K_TENSORFLOW_VERSION,
	K_FRAMEWORK_VERSION,
	K_PY_VERSION,
	K_IMAGE_URI,
	K_IMAGE_NAME,
	K_COMPILER_CONFIG,
	K_DISTRIBUTION,
	K_DISTRIBUTIONS,
	K_ENVIRONMENT,
	K_HYPERPARAMETERS,
	K_ENTRY_POINT,
	K_SOURCE_DIR,
	K_DEBUGGER_HOOK_CONFIG,
	K_DISABLE_PROFILER,
	K_PROFILER_CONFIG,
	K_CHECKPOINT_S3_URI,
	K_CHECKPOINT_LOCAL_PATH,
	K_COUNT
};

static const struct smp_name key_names[K_COUNT] = {
	[K_ESTIMATOR] = SMP_NAME("estimator"),
	[K_INSTANCE_TYPE] = SMP_NAME("instance_type"),
	[K_TRAIN_INSTANCE_TYPE] = SMP_NAME("train_instance_type"),
	[K_INSTANCE_COUNT] = SMP_NAME("instance_count"),
	[K_TRAIN_INSTANCE_COUNT] = SMP_NAME("train_instance_count"),
	[K_INSTANCE_GROUPS] = SMP_NAME("instance_groups"),
	[K_TRANSFORMERS_VERSION] = SMP_NAME("transformers_version"),
	[K_PYTORCH_VERSION] = SMP_NAME("pytorch_version"),
	[K_TENSORFLOW_VERSION] = SMP_NAME("tensorflow_version"),
	[K_FRAMEWORK_VERSION] = SMP_NAME("framework_version"),
	[K_PY_VERSION] = SMP_NAME("py_version"),
	[K_IMAGE_URI] = SMP_NAME("image_uri"),
	[K_IMAGE_NAME] = SMP_NAME("image_name"),
	[K_COMPILER_CONFIG] = SMP_NAME("compiler_config"),
	[K_DISTRIBUTION] = SMP_NAME("distribution"),
	[K_DISTRIBUTIONS] = SMP_NAME("distributions"),
	[K_ENVIRONMENT] = SMP_NAME("environment"),
	[K_HYPERPARAMETERS] = SMP_NAME("hyperparameters"),
	[K_ENTRY_POINT] = SMP_NAME("entry_point"),
	[K_SOURCE_DIR] = SMP_NAME("source_dir"),
	[K_DEBUGGER_HOOK_CONFIG] = SMP_NAME("debugger_hook_config"),
	[K_DISABLE_PROFILER] = SMP_NAME("disable_profiler"),
	[K_PROFILER_CONFIG] = SMP_NAME("profiler_config"),
	[K_CHECKPOINT_S3_URI] = SMP_NAME("checkpoint_s3_uri"),
	[K_CHECKPOINT_LOCAL_PATH] = SMP_NAME("checkpoint_local_path"),
};

/*
 * The value of each key of key_names in root, or NULL: what
 * smp__map_get() gives for each (the last of duplicates wins), in one
 * pass over the root rather than one per key.
 */
static void
keys(const struct smp_node *v[K_COUNT], const struct smp_node *root)
{
	size_t i, k;

	for (k = 0; k < K_COUNT; k++)
		v[k] = NULL;
	if (!root || root->kind != SMP_NODE_MAPPING)
		return;
	for (i = root->u.mapping.count; i-- > 0;) {
		const struct smp_node *key = root->u.mapping.items[i].key;

		if (key->kind != SMP_NODE_SCALAR)
			continue;
		for (k = 0; k < K_COUNT; k++) {
			if (key->u.scalar.len != key_names[k].len ||
			    key->u.scalar.value[0] != key_names[k].name[0] ||
			    memcmp(key->u.scalar.value, key_names[k].name,
				   key_names[k].len) != 0)
				continue;
			if (!v[k])
				v[k] = root->u.mapping.items[i].value;
			break;
		}
	}
}

/* The value of a key, or of its legacy name (train_instance_type ...). */
static const struct smp_node *
get2(const struct smp_node *const v[K_COUNT], enum key key, enum key legacy)
{
	return v[key] ? v[key] : v[legacy];
}

static enum smp_estimator
estimator_class(const struct smp_node *n)
{
	const char *s = smp__node_text(n);

	if (!s)
		return SMP_EST_UNKNOWN;
	if (strcasecmp(s, "HuggingFace") == 0)
		return SMP_EST_HUGGINGFACE;
	if (strcasecmp(s, "PyTorch") == 0)
		return SMP_EST_PYTORCH;
	if (strcasecmp(s, "TensorFlow") == 0)
		return SMP_EST_TENSORFLOW;
	return SMP_EST_UNKNOWN;
}

/*
 * Without `estimator:`, the class shows in the keys: transformers_version
 * is HuggingFace only; a framework_version of 1.x is PyTorch, 2.x
 * TensorFlow (the only majors Training Compiler ever shipped).
 */
static enum smp_estimator
infer_class(const struct smp_node *const v[K_COUNT])
{
	const char *fv;

	if (v[K_TRANSFORMERS_VERSION] || v[K_PYTORCH_VERSION] ||
	    v[K_TENSORFLOW_VERSION])
		return SMP_EST_HUGGINGFACE;
	fv = smp__node_text(smp__as_string(v[K_FRAMEWORK_VERSION]));
	if (fv && fv[0] == '1' && fv[1] == '.')
		return SMP_EST_PYTORCH;
	if (fv && fv[0] == '2' && fv[1] == '.')
		return SMP_EST_TENSORFLOW;
	return SMP_EST_UNKNOWN;
}

static void
take_versions(struct smp_job *job, const struct smp_node *const v[K_COUNT])
{
	const struct smp_node *pt, *tf;

	if (job->estimator == SMP_EST_HUGGINGFACE) {
		job->transformers_version =
			smp__as_string(v[K_TRANSFORMERS_VERSION]);
		pt = smp__as_string(v[K_PYTORCH_VERSION]);
		tf = smp__as_string(v[K_TENSORFLOW_VERSION]);
		/* both set is framework-version-missing's business */
		if (pt) {
			job->framework_version = pt;
			job->base_framework = "pytorch";
		} else if (tf) {
			job->framework_version = tf;
			job->base_framework = "tensorflow";
		}
	} else {
		job->framework_version = smp__as_string(v[K_FRAMEWORK_VERSION]);
		if (job->estimator == SMP_EST_PYTORCH)
			job->base_framework = "pytorch";
		else if (job->estimator == SMP_EST_TENSORFLOW)
			job->base_framework = "tensorflow";
	}
	job->py_version = smp__as_string(v[K_PY_VERSION]);
	job->image_uri = get2(v, K_IMAGE_URI, K_IMAGE_NAME);
}

/* compiler_config and distribution as given; null (None) is absent */
static const struct smp_node *
not_null(const struct smp_node *n)
{
	return n && n->kind == SMP_NODE_SCALAR &&
			       smp__scalar_type(n) == SMP_SCALAR_NULL
		       ? NULL
		       : n;
}

void
smp__normalize_estimator(struct smp_job *job, const struct smp_node *root)
{
	const struct smp_node *v[K_COUNT];
	const struct smp_node *n;
	long long count;

	keys(v, root);
	job->root = root;
	job->estimator_node = v[K_ESTIMATOR];
	job->estimator = estimator_class(job->estimator_node);
	if (!job->estimator_node)
		job->estimator = infer_class(v);

	job->instance_type =
		smp__as_string(get2(v, K_INSTANCE_TYPE, K_TRAIN_INSTANCE_TYPE));
	n = get2(v, K_INSTANCE_COUNT, K_TRAIN_INSTANCE_COUNT);
	job->count = 1;
	if (smp__scalar_int(n, &count) == 0 && count >= 1) {
		job->instance_count = n;
		job->count = count;
	}
	job->instance_groups = v[K_INSTANCE_GROUPS];

	take_versions(job, v);
	job->compiler_config = not_null(v[K_COMPILER_CONFIG]);
	job->distribution =
		smp__as_mapping(get2(v, K_DISTRIBUTION, K_DISTRIBUTIONS));
	job->pytorchxla_dist = smp__map_get(job->distribution, "pytorchxla");

	job->environment = smp__as_mapping(v[K_ENVIRONMENT]);
	job->hyperparameters = smp__as_mapping(v[K_HYPERPARAMETERS]);

	job->entry_point = smp__as_string(v[K_ENTRY_POINT]);
	job->source_dir = smp__as_string(v[K_SOURCE_DIR]);
	job->debugger_hook_config = v[K_DEBUGGER_HOOK_CONFIG];
	job->disable_profiler = v[K_DISABLE_PROFILER];
	job->profiler_config = smp__as_mapping(v[K_PROFILER_CONFIG]);
	job->checkpoint_s3_uri = smp__as_string(v[K_CHECKPOINT_S3_URI]);
	job->checkpoint_local_path = smp__as_string(v[K_CHECKPOINT_LOCAL_PATH]);
}
