/*
 * normalize_estimator.c - SageMaker Python SDK v2 estimator kwargs (plus
 * `estimator:` naming the class) into the job model. Structure and types
 * were already checked against the schema; here only well-typed values are
 * taken, so rules can trust what they read.
 */
#include <strings.h>
#include <string.h>

#include "job/normalize.h"

/* The value of key, or of its legacy name (train_instance_type ...). */
static const struct smp_node *
get2(const struct smp_node *m, const char *key, const char *legacy)
{
	const struct smp_node *v = smp__map_get(m, key);

	return v ? v : (legacy ? smp__map_get(m, legacy) : NULL);
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
infer_class(const struct smp_node *root)
{
	const char *fv;

	if (smp__map_get(root, "transformers_version") ||
	    smp__map_get(root, "pytorch_version") ||
	    smp__map_get(root, "tensorflow_version"))
		return SMP_EST_HUGGINGFACE;
	fv = smp__node_text(
		smp__as_string(smp__map_get(root, "framework_version")));
	if (fv && fv[0] == '1' && fv[1] == '.')
		return SMP_EST_PYTORCH;
	if (fv && fv[0] == '2' && fv[1] == '.')
		return SMP_EST_TENSORFLOW;
	return SMP_EST_UNKNOWN;
}

static void
take_versions(struct smp_job *job, const struct smp_node *root)
{
	const struct smp_node *pt, *tf;

	if (job->estimator == SMP_EST_HUGGINGFACE) {
		job->transformers_version = smp__as_string(
			smp__map_get(root, "transformers_version"));
		pt = smp__as_string(smp__map_get(root, "pytorch_version"));
		tf = smp__as_string(smp__map_get(root, "tensorflow_version"));
		/* both set is framework-version-missing's business */
		if (pt) {
			job->framework_version = pt;
			job->base_framework = "pytorch";
		} else if (tf) {
			job->framework_version = tf;
			job->base_framework = "tensorflow";
		}
	} else {
		job->framework_version =
			smp__as_string(smp__map_get(root, "framework_version"));
		if (job->estimator == SMP_EST_PYTORCH)
			job->base_framework = "pytorch";
		else if (job->estimator == SMP_EST_TENSORFLOW)
			job->base_framework = "tensorflow";
	}
	job->py_version = smp__as_string(smp__map_get(root, "py_version"));
	job->image_uri = get2(root, "image_uri", "image_name");
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
	const struct smp_node *n;
	long long count;

	job->root = root;
	job->estimator_node = smp__map_get(root, "estimator");
	job->estimator = estimator_class(job->estimator_node);
	if (!job->estimator_node)
		job->estimator = infer_class(root);

	job->instance_type = smp__as_string(
		get2(root, "instance_type", "train_instance_type"));
	n = get2(root, "instance_count", "train_instance_count");
	job->count = 1;
	if (smp__scalar_int(n, &count) == 0 && count >= 1) {
		job->instance_count = n;
		job->count = count;
	}
	job->instance_groups = smp__map_get(root, "instance_groups");

	take_versions(job, root);
	job->compiler_config = not_null(smp__map_get(root, "compiler_config"));
	job->distribution =
		smp__as_mapping(get2(root, "distribution", "distributions"));
	job->pytorchxla_dist = smp__map_get(job->distribution, "pytorchxla");

	job->environment = smp__as_mapping(smp__map_get(root, "environment"));
	job->hyperparameters =
		smp__as_mapping(smp__map_get(root, "hyperparameters"));

	job->entry_point = smp__as_string(smp__map_get(root, "entry_point"));
	job->source_dir = smp__as_string(smp__map_get(root, "source_dir"));
	job->debugger_hook_config = smp__map_get(root, "debugger_hook_config");
	job->disable_profiler = smp__map_get(root, "disable_profiler");
	job->profiler_config =
		smp__as_mapping(smp__map_get(root, "profiler_config"));
	job->checkpoint_s3_uri =
		smp__as_string(smp__map_get(root, "checkpoint_s3_uri"));
	job->checkpoint_local_path =
		smp__as_string(smp__map_get(root, "checkpoint_local_path"));
}
