/*
 * image_region.c - the image SageMaker pulls and the region it is pulled
 * in (effective.h): the given image URI as is, else the one
 * image_uris.retrieve() derives (image_uri.c), and the region from the
 * image's ECR host, else the region the caller says the jobs run in
 * (smp_options.region). The SDK's registry tables say in which regions
 * the job's container is published (image_uris._registry_from_region).
 */
#include <string.h>

#include "job/effective.h"
#include "job/image.h"
#include "job/image_uri.h"
#include "job/normalize.h"

/* The text of part sp of uri, in the job's arena; NULL when absent. */
static const char *
part_text(struct smp_job *job, const char *uri, struct smp_span sp)
{
	const char *s;

	if (!sp.len || !job->arena)
		return NULL;
	s = smp__arena_strndup(job->arena, uri + sp.off, sp.len);
	if (!s)
		job->oom = 1;
	return s;
}

/* The account, Python and CUDA tags of the pulled image; the SDK's
 * registry account of its repository in the job's region. */
static void
image_facts(struct smp_job *job, const struct smp_catalog *cat)
{
	struct smp_image_uri im;
	const char *uri = job->pulled_image;
	size_t i;

	if (uri && smp__image_parse(&im, uri, strlen(uri)) == 0) {
		job->image_account = part_text(job, uri, im.account);
		job->image_py = part_text(job, uri, im.py_version);
		job->image_cuda = part_text(job, uri, im.cuda);
	}
	for (i = 0; cat && job->image_config && job->region &&
		    i < cat->image_registry_count;
	     i++) {
		const struct smp_image_registry *r = &cat->image_registries[i];

		if (strcmp(r->set, job->image_config->registries) == 0 &&
		    strcmp(r->region, job->region) == 0)
			job->registry_account = r->account;
	}
}

/* The partition of a region by its prefix (botocore's partitions). */
static const char *
partition_of(const char *region)
{
	static const struct {
		const char *prefix, *partition;
	} map[] = {
		{"cn-", "aws-cn"},         {"us-gov-", "aws-us-gov"},
		{"us-isob-", "aws-iso-b"}, {"us-iso-", "aws-iso"},
		{"eu-isoe-", "aws-iso-e"}, {"us-isof-", "aws-iso-f"},
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strncmp(region, map[i].prefix, strlen(map[i].prefix)) == 0)
			return map[i].partition;
	return "aws";
}

static int
span_is(const char *s, struct smp_span sp, const char *want)
{
	return want && strlen(want) == sp.len &&
	       memcmp(s + sp.off, want, sp.len) == 0;
}

/* The SDK table row of a given image: same repository, and the version
 * its tag names when a row has it (else the repository's first row). */
static const struct smp_image_config *
config_of(const struct smp_catalog *cat, const char *uri,
	  const struct smp_image_uri *im)
{
	const struct smp_image_config *first = NULL;
	size_t i;

	for (i = 0; cat && i < cat->image_config_count; i++) {
		const struct smp_image_config *c = &cat->image_configs[i];
		struct smp_span v = im->transformers_version.len
					    ? im->transformers_version
					    : im->framework_version;

		if (!span_is(uri, im->repository, c->repository))
			continue;
		if (span_is(uri, v, c->version))
			return c;
		if (!first)
			first = c;
	}
	return first;
}

/* What the estimator would hand to image_uris.retrieve(). */
static void
derive(struct smp_job *job, const struct smp_catalog *cat, const char *region,
       struct smp_image_result *r)
{
	struct smp_image_request rq;

	memset(&rq, 0, sizeof(rq));
	memset(r, 0, sizeof(*r));
	r->status = SMP_IMAGE_BAD_REQUEST;
	rq.framework = smp__estimator_key(job->estimator);
	if (!rq.framework || !cat)
		return;
	if (job->estimator == SMP_EST_HUGGINGFACE) {
		rq.version = smp__node_text(job->transformers_version);
		rq.base_framework = job->base_framework;
		rq.base_version = smp__node_text(job->framework_version);
	} else {
		rq.version = smp__node_text(job->framework_version);
	}
	rq.py_version = smp__node_text(job->py_version);
	rq.instance_type = smp__node_text(job->instance_type);
	rq.region = region;
	rq.compiler = job->compiler_sdk;
	rq.smdistributed =
		smp__map_get(job->distribution, "smdistributed") != NULL;
	smp__image_uri_derive(r, cat, &rq);
}

/* 1 when the registry set has the region; with region NULL, a region
 * of the partition. */
static int
published_in(const struct smp_catalog *cat, const char *set, const char *region,
	     const char *partition)
{
	size_t i;

	for (i = 0; i < cat->image_registry_count; i++) {
		const struct smp_image_registry *r = &cat->image_registries[i];

		if (strcmp(r->set, set) != 0)
			continue;
		if (region ? strcmp(r->region, region) == 0
			   : strcmp(partition_of(r->region), partition) == 0)
			return 1;
	}
	return 0;
}

/* The partition of the job's IAM role ARN ("arn:aws-cn:iam::..."), the
 * request's RoleArn or the SDK's role argument, when not "aws". */
static void
partition_from_role(struct smp_job *job)
{
	const struct smp_node *role =
		smp__as_string(smp__map_get(job->root, "RoleArn"));
	const char *v, *colon;

	if (!role)
		role = smp__as_string(smp__map_get(job->root, "role"));
	if (!role || strncmp(role->u.scalar.value, "arn:", 4) != 0)
		return;
	v = role->u.scalar.value + 4;
	colon = strchr(v, ':');
	if (!colon || colon == v || (colon - v == 3 && !strncmp(v, "aws", 3)))
		return;
	job->partition_node = smp__job_part(job, role, 4, (size_t)(colon - v));
	job->partition = job->partition_node
				 ? job->partition_node->u.scalar.value
				 : NULL;
}

void
smp__job_resolve_image_region(struct smp_job *job,
			      const struct smp_catalog *cat)
{
	struct smp_image_uri im;
	struct smp_image_result r;
	const char *uri = job->image ? job->image->u.scalar.value : NULL;
	int parsed = uri &&
		     smp__image_parse(&im, uri, job->image->u.scalar.len) == 0;

	if (parsed && im.region.len) {
		job->region_node = smp__job_part(job, job->image, im.region.off,
						 im.region.len);
		job->region = job->region_node
				      ? job->region_node->u.scalar.value
				      : NULL;
	} else {
		job->region = job->region_default;
		if (job->region)
			job->region_node = job->region_default_node;
	}
	job->partition = job->region ? partition_of(job->region) : NULL;
	if (!job->region)
		partition_from_role(job);
	if (parsed) {
		job->pulled_image = job->image->u.scalar.value;
		job->image_config = config_of(cat, uri, &im);
	} else if (!job->image && !job->region && job->partition) {
		/* the row the SDK would use, whatever the region */
		derive(job, cat, "us-east-1", &r);
		job->image_config = r.config;
	} else if (!job->image && job->region) {
		derive(job, cat, job->region, &r);
		job->image_config = r.config;
		if (r.status == SMP_IMAGE_OK && job->arena) {
			job->pulled_image = smp__arena_strndup(
				job->arena, r.uri, strlen(r.uri));
			if (!job->pulled_image)
				job->oom = 1;
		}
	}
	image_facts(job, cat);
	job->image_region_missing =
		job->partition && job->image_config && cat &&
		!published_in(cat, job->image_config->registries, job->region,
			      job->partition);
}
