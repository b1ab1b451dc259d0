/*
 * normalize_create_training_job.c - a CreateTrainingJob request (boto3,
 * AWS CLI --cli-input-json, as JSON or YAML) into the job model. What the
 * estimator derives from its arguments is here spelled out: the image
 * names the framework and versions, and hyperparameters (strings on the
 * wire) carry the compiler and pytorch-xla switches (SDK R31).
 */
#include <string.h>

#include "job/normalize.h"

/*
 * A string hyperparameter without the JSON quotes the SDK wraps it in:
 * the estimator json.dumps()es every value, so learning_rate="5e-05"
 * arrives as "\"5e-05\"", and the container json.loads() it back. NULL
 * when n is not such a string (or holds escapes, kept as written).
 */
static struct smp_node *
unquoted(struct smp_job *job, const struct smp_node *n)
{
	const struct smp_node *part;
	struct smp_node *out;
	size_t len;

	n = smp__as_string(n);
	if (!n || n->u.scalar.len < 2)
		return NULL;
	len = n->u.scalar.len;
	if (n->u.scalar.value[0] != '"' || n->u.scalar.value[len - 1] != '"' ||
	    memchr(n->u.scalar.value + 1, '"', len - 2) ||
	    memchr(n->u.scalar.value + 1, '\\', len - 2))
		return NULL;
	part = smp__job_part(job, n, 1, len - 2);
	out = part && job->arena ? smp__arena_zalloc(job->arena, sizeof(*out))
				 : NULL;
	if (!out) {
		job->oom = 1;
		return NULL;
	}
	*out = *part;
	return out;
}

/* The hyperparameters as the container reads them: a copy of hp with
 * the SDK's JSON-quoted strings unquoted (hp itself when none is). */
static const struct smp_node *
container_view(struct smp_job *job, const struct smp_node *hp)
{
	struct smp_node *copy;
	struct smp_pair *items;
	size_t i, n;

	if (!hp || hp->kind != SMP_NODE_MAPPING || !job->arena)
		return hp;
	n = hp->u.mapping.count;
	for (i = 0; i < n; i++)
		if (smp__as_string(hp->u.mapping.items[i].value) &&
		    hp->u.mapping.items[i].value->u.scalar.len >= 2 &&
		    hp->u.mapping.items[i].value->u.scalar.value[0] == '"')
			break;
	if (i == n)
		return hp;
	copy = smp__arena_zalloc(job->arena, sizeof(*copy));
	items = smp__arena_zalloc(job->arena, n * sizeof(*items));
	if (!copy || !items) {
		job->oom = 1;
		return hp;
	}
	*copy = *hp;
	for (i = 0; i < n; i++) {
		struct smp_node *v =
			unquoted(job, hp->u.mapping.items[i].value);

		items[i].key = hp->u.mapping.items[i].key;
		items[i].value = v ? v : hp->u.mapping.items[i].value;
	}
	copy->u.mapping.items = items;
	return copy;
}

/* A non-empty string hyperparameter, or NULL. */
static const struct smp_node *
nonempty(const struct smp_node *n)
{
	n = smp__as_string(n);
	return n && n->u.scalar.len ? n : NULL;
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

	job->root = root;
	job->hyperparameters_are_strings = 1;
	job->training_image =
		smp__as_string(smp__map_get(alg, "TrainingImage"));
	smp__job_take_image(job, job->training_image, 1);

	job->count = 1;
	job->instance_type = smp__as_string(smp__map_get(res, "InstanceType"));
	job->instance_groups = smp__map_get(res, "InstanceGroups");
	n = smp__map_get(res, "InstanceCount");
	if (smp__scalar_int(n, &count) == 0 && count >= 1) {
		job->instance_count = n;
		job->count = count;
	}

	job->environment = smp__as_mapping(smp__map_get(root, "Environment"));
	job->hyperparameters = smp__as_mapping(
		container_view(job, smp__map_get(root, "HyperParameters")));
	/* what the SDK put there (unquoted above): the entry script and
	 * where its code is, usually an S3 tarball, so that the script is
	 * read only from a local copy (--source-dir) */
	job->entry_point = nonempty(
		smp__map_get(job->hyperparameters, "sagemaker_program"));
	if (job->entry_point)
		job->source_dir = nonempty(smp__map_get(
			job->hyperparameters, "sagemaker_submit_directory"));

	/* a request has a Debugger hook or a Profiler only when it says
	 * so; the estimator's SDK adds both by default */
	job->debugger_hook_config =
		smp__as_mapping(smp__map_get(root, "DebugHookConfig"));
	job->profiler_config =
		smp__as_mapping(smp__map_get(root, "ProfilerConfig"));
	job->disable_profiler =
		smp__map_get(job->profiler_config, "DisableProfiler");
}
