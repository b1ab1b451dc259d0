/*
 * normalize_create_training_job.c - a CreateTrainingJob request (boto3,
 * AWS CLI --cli-input-json, as JSON or YAML) into the job model. What the
 * estimator derives from its arguments is here spelled out: the image
 * names the framework and versions, and hyperparameters (strings on the
 * wire) carry the compiler and pytorch-xla switches (SDK R31).
 */
#include "job/job.h"

/*
 * A string hyperparameter, without the JSON quotes the SDK wraps it in
 * ("\"train.py\"" is train.py); as written when it has none. NULL when it
 * is not a non-empty string.
 */
static const struct smp_node *
sdk_string(struct smp_job *job, const struct smp_node *n)
{
	size_t len;

	n = smp__as_string(n);
	if (!n || !n->u.scalar.len)
		return NULL;
	len = n->u.scalar.len;
	if (len >= 2 && n->u.scalar.value[0] == '"' &&
	    n->u.scalar.value[len - 1] == '"')
		return len > 2 ? smp__job_part(job, n, 1, len - 2) : NULL;
	return n;
}

void
smp__normalize_create_training_job(struct smp_job *job,
				   const struct smp_node *root)
{
	const struct smp_node *alg =
		smp__as_mapping(smp__map_get(root, "AlgorithmSpecification"));
	const struct smp_node *res =
		smp__as_mapping(smp__map_get(root, "ResourceConfig"));
	const struct smp_node *n;
	long long count;
	int image, flag;

	job->root = root;
	job->hyperparameters_are_strings = 1;
	image = smp__job_take_image(
		job, smp__as_string(smp__map_get(alg, "TrainingImage")));

	job->count = 1;
	job->instance_type = smp__as_string(smp__map_get(res, "InstanceType"));
	job->instance_groups = smp__map_get(res, "InstanceGroups");
	n = smp__map_get(res, "InstanceCount");
	if (smp__scalar_int(n, &count) == 0 && count >= 1) {
		job->instance_count = n;
		job->count = count;
	}

	job->environment = smp__as_mapping(smp__map_get(root, "Environment"));
	job->gpu_num_devices =
		smp__map_get(job->environment, "GPU_NUM_DEVICES");
	smp__job_take_hyperparameters(job,
				      smp__map_get(root, "HyperParameters"));
	/* what the SDK put there: the entry script and where its code is,
	 * JSON-quoted ("\"train.py\"") because every value the SDK sends
	 * is json.dumps()ed; the code is usually an S3 tarball, so the
	 * script is read only from a local copy (--source-dir) */
	job->entry_point = sdk_string(
		job, smp__map_get(job->hyperparameters, "sagemaker_program"));
	if (job->entry_point)
		job->source_dir = sdk_string(
			job, smp__map_get(job->hyperparameters,
					  "sagemaker_submit_directory"));

	/* a request has a Debugger hook or a Profiler only when it says
	 * so; the estimator's SDK adds both by default */
	job->debugger_hook_config =
		smp__as_mapping(smp__map_get(root, "DebugHookConfig"));
	job->profiler_config =
		smp__as_mapping(smp__map_get(root, "ProfilerConfig"));
	job->disable_profiler =
		smp__map_get(job->profiler_config, "DisableProfiler");

	/* both the image and the flag (developer guide, "Using the
	 * CreateTrainingJob API"); "false" still runs the compiler's
	 * container, like the estimator's enabled: false (R23) */
	flag = smp__job_flag(job, job->compiler_flag);
	if (image && flag >= 0) {
		job->compiler = 1;
		job->compiler_enabled = flag;
	}
}
