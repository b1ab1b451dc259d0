/*
 * tuning.c - the training jobs of a CreateHyperParameterTuningJob request
 * (boto3 create_hyper_parameter_tuning_job, AWS CLI --cli-input-json, a
 * pipeline's Tuning step): each HyperParameterTrainingJobDefinition
 * (TrainingJobDefinition, or each of TrainingJobDefinitions) is the
 * CreateTrainingJob request SageMaker sends for every job it launches.
 * The definition's members are the request's (AlgorithmSpecification,
 * ResourceConfig, Environment, ...), StaticHyperParameters are its
 * HyperParameters, and the ranges it searches (the definition's
 * HyperParameterRanges, else HyperParameterTuningJobConfig.
 * ParameterRanges) go beside the tree: the effective job reads them
 * (effective.h). The member names are the SageMaker API's
 * (CreateHyperParameterTuningJob in botocore's service model).
 */
#include <stdio.h>
#include <string.h>

#include "job/source_python.h"

/* Definition members that have no CreateTrainingJob counterpart. */
static const char *const tuning_only[] = {
	"DefinitionName",
	"TuningObjective",
	"HyperParameterRanges",
	"HyperParameterTuningResourceConfig",
};

/* Definition members that are CreateTrainingJob's too (botocore's
 * HyperParameterTrainingJobDefinition; StaticHyperParameters becomes
 * HyperParameters); schemas/create-hyper-parameter-tuning-job.schema.json
 * leaves them to the create-training-job schema. */
static const char *const shared[] = {
	"StaticHyperParameters",
	"AlgorithmSpecification",
	"RoleArn",
	"InputDataConfig",
	"VpcConfig",
	"OutputDataConfig",
	"ResourceConfig",
	"StoppingCondition",
	"EnableNetworkIsolation",
	"EnableInterContainerTrafficEncryption",
	"EnableManagedSpotTraining",
	"CheckpointConfig",
	"RetryStrategy",
	"Environment",
};

static int
key_in(const struct smp_node *k, const char *const *names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (smp__scalar_is(k, names[i]))
			return 1;
	return 0;
}

/* 1 when the definition member k is not passed to the CreateTrainingJob
 * request: a tuning-only member, or, when the tuning schema checks the
 * request (checked), any member that is not one of the shared ones (the
 * schema reports it, once). */
static int
dropped_key(const struct smp_node *k, int checked)
{
	if (key_in(k, tuning_only,
		   sizeof(tuning_only) / sizeof(tuning_only[0])))
		return 1;
	return checked &&
	       !key_in(k, shared, sizeof(shared) / sizeof(shared[0]));
}

/* A key node reading text, positioned on at. */
static struct smp_node *
renamed_key(struct smp_arena *arena, const struct smp_node *at,
	    const char *text)
{
	struct smp_node *k = smp__arena_zalloc(arena, sizeof(*k));

	if (!k)
		return NULL;
	*k = *at;
	k->u.scalar.value = text;
	k->u.scalar.len = strlen(text);
	return k;
}

/* The CreateTrainingJob request a definition becomes; NULL on ENOMEM. */
static const struct smp_node *
as_training_job(struct smp_arena *arena, const struct smp_node *def,
		int checked)
{
	struct smp_node *root = smp__arena_zalloc(arena, sizeof(*root));
	size_t i, n = def->u.mapping.count;

	if (!root)
		return NULL;
	*root = *def;
	root->u.mapping.count = 0;
	root->u.mapping.items =
		smp__arena_alloc(arena, (n ? n : 1) * sizeof(struct smp_pair));
	if (!root->u.mapping.items)
		return NULL;
	for (i = 0; i < n; i++) {
		struct smp_pair p = def->u.mapping.items[i];

		if (dropped_key(p.key, checked))
			continue;
		if (smp__scalar_is(p.key, "StaticHyperParameters")) {
			p.key = renamed_key(arena, p.key, "HyperParameters");
			if (!p.key)
				return NULL;
		}
		root->u.mapping.items[root->u.mapping.count++] = p;
	}
	return root;
}

/* 1 when root is a CreateHyperParameterTuningJob request (or the
 * DescribeHyperParameterTuningJob response, which repeats it). */
static int
is_tuning_request(const struct smp_node *root)
{
	return root && root->kind == SMP_NODE_MAPPING &&
	       (smp__map_get(root, "TrainingJobDefinition") ||
		smp__map_get(root, "TrainingJobDefinitions")) &&
	       (smp__map_get(root, "HyperParameterTuningJobConfig") ||
		smp__map_get(root, "HyperParameterTuningJobName"));
}

size_t
smp__tuning_count(const struct smp_node *root)
{
	const struct smp_node *defs;

	if (!is_tuning_request(root))
		return 0;
	defs = smp__map_get(root, "TrainingJobDefinitions");
	return (smp__map_get(root, "TrainingJobDefinition") ? 1 : 0) +
	       (defs && defs->kind == SMP_NODE_SEQUENCE ? defs->u.sequence.count
							: 0);
}

/* One definition into out->jobs[out->count] (room was made). */
static int
add_definition(struct smp_pysrc *out, struct smp_arena *arena,
	       const struct smp_node *def, const struct smp_node *ranges,
	       const char *fallback, const char *prefix, int checked)
{
	const struct smp_node *name = smp__map_get(def, "DefinitionName");
	struct smp_pysrc_job *job;
	const char *base;

	if (!def || def->kind != SMP_NODE_MAPPING)
		return 0;
	job = &out->jobs[out->count];
	memset(job, 0, sizeof(*job));
	job->root = as_training_job(arena, def, checked);
	if (!job->root)
		return SMP_ENOMEM;
	/* the definition's own ranges win (TrainingJobDefinitions) */
	job->ranges =
		smp__as_mapping(smp__map_get(def, "HyperParameterRanges"));
	if (!job->ranges)
		job->ranges = smp__as_mapping(ranges);
	job->dialect = SMP_DIALECT_CREATE_TRAINING_JOB;
	job->cls = "definition";
	job->at = def->start;
	base = name && name->kind == SMP_NODE_SCALAR && name->u.scalar.len
		       ? name->u.scalar.value
		       : fallback;
	job->name =
		prefix ? smp__arena_printf(arena, "%s/%s", prefix, base) : base;
	if (!job->name)
		return SMP_ENOMEM;
	out->count++;
	return 0;
}

/* smp__tuning_add(); checked: the tuning schema checks root */
static int
add_all(struct smp_pysrc *out, struct smp_arena *arena,
	const struct smp_node *root, const char *prefix, int checked)
{
	const struct smp_node *cfg =
		smp__map_get(root, "HyperParameterTuningJobConfig");
	const struct smp_node *ranges = smp__map_get(cfg, "ParameterRanges");
	const struct smp_node *defs =
		smp__map_get(root, "TrainingJobDefinitions");
	const struct smp_node *one =
		smp__map_get(root, "TrainingJobDefinition");
	size_t k;
	int rc;

	if (!is_tuning_request(root))
		return 0;
	rc = one ? add_definition(out, arena, one, ranges,
				  "TrainingJobDefinition", prefix, checked)
		 : 0;
	for (k = 0; rc == 0 && defs && defs->kind == SMP_NODE_SEQUENCE &&
		    k < defs->u.sequence.count;
	     k++) {
		char fallback[48];
		const char *fb;

		snprintf(fallback, sizeof(fallback),
			 "TrainingJobDefinitions[%zu]", k);
		fb = smp__arena_strndup(arena, fallback, strlen(fallback));
		if (!fb)
			return SMP_ENOMEM;
		rc = add_definition(out, arena, defs->u.sequence.items[k],
				    ranges, fb, prefix, checked);
	}
	return rc;
}

int
smp__tuning_add(struct smp_pysrc *out, struct smp_arena *arena,
		const struct smp_node *root, const char *prefix)
{
	return add_all(out, arena, root, prefix, 0);
}

int
smp__tuning_scan(struct smp_pysrc *out, struct smp_arena *arena,
		 const struct smp_node *root)
{
	size_t n = smp__tuning_count(root);
	int rc;

	memset(out, 0, sizeof(*out));
	if (!is_tuning_request(root))
		return 0;
	out->jobs = smp__arena_zalloc(arena, (n ? n : 1) * sizeof(*out->jobs));
	if (!out->jobs)
		return SMP_ENOMEM;
	out->cap = n;
	rc = add_all(out, arena, root, NULL, 1);
	return rc < 0 ? rc : 1;
}

int
smp__tuning_expand(struct smp_pysrc *src, struct smp_arena *arena)
{
	struct smp_pysrc out;
	size_t k, room = 0;
	int rc;

	for (k = 0; k < src->count; k++)
		room += smp__tuning_count(src->jobs[k].root);
	if (!room)
		return 0;
	out = *src;
	out.count = 0;
	out.cap = src->count + room;
	out.jobs = smp__arena_zalloc(arena, out.cap * sizeof(*out.jobs));
	if (!out.jobs)
		return SMP_ENOMEM;
	for (k = 0; k < src->count; k++) {
		const struct smp_pysrc_job *j = &src->jobs[k];
		size_t first = out.count, d;

		if (!smp__tuning_count(j->root)) {
			out.jobs[out.count++] = *j;
			continue;
		}
		rc = smp__tuning_add(&out, arena, j->root, j->name);
		if (rc)
			return rc;
		/* where the request was made, and what the evaluator knew */
		for (d = first; d < out.count; d++) {
			out.jobs[d].partial = j->partial;
			out.jobs[d].cls = j->cls;
			out.jobs[d].region = j->region;
		}
	}
	*src = out;
	return 0;
}
