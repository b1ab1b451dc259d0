/*
 * region.c - compiler-region-unavailable: the SageMaker Python SDK's
 * registry tables (image_uris._registry_from_region, the
 * image_uri_config tables of the compiler and tensorflow.json)
 * publish each Training Compiler container in a fixed set of regions;
 * none of them is in the China, GovCloud or ISO partitions. A compiler
 * job whose region (the image's ECR host, the launcher's boto3 session,
 * client or AWS_DEFAULT_REGION, --region or AWS_REGION) is not
 * in that set cannot pull its container. An unknown region says nothing,
 * and so does a given image in a registry account that is none of the
 * SDK's tables' (the user's own ECR registry, where the container was
 * copied: it is there, whatever the SDK publishes).
 */
#include <string.h>

#include "rules/rules.h"
#include "util/buf.h"

/* "us-east-1, us-east-2, ..." of the registry set, in the table's order. */
static void
regions_of(struct smp_buf *b, const struct smp_catalog *cat, const char *set)
{
	size_t i, n = 0;

	for (i = 0; i < cat->image_registry_count; i++) {
		if (strcmp(cat->image_registries[i].set, set) != 0)
			continue;
		smp__buf_addf(b, "%s%s", n++ ? ", " : "",
			      cat->image_registries[i].region);
	}
}

/* 1 when account is a registry account of the SDK's tables. */
static int
sdk_account(const struct smp_catalog *cat, const char *account)
{
	size_t i;

	for (i = 0; i < cat->image_registry_count; i++)
		if (strcmp(cat->image_registries[i].account, account) == 0)
			return 1;
	return 0;
}

void
smp__rules_region(const struct smp_check *c)
{
	const struct smp_job *job = c->job;
	const struct smp_node *at;
	struct smp_finding *f;
	struct smp_buf b;
	char list[1024];

	if (!job->compiler || !job->image_region_missing || !job->image_config)
		return;
	if (job->image && job->image_account &&
	    !sdk_account(c->cat, job->image_account))
		return;
	smp__buf_init_fixed(&b, list, sizeof(list));
	regions_of(&b, c->cat, job->image_config->registries);
	at = job->region_node      ? job->region_node
	     : job->partition_node ? job->partition_node
	     : job->compiler_flag  ? job->compiler_flag
				   : smp__job_anchor(job);
	if (!job->region) {
		f = smp__report_node(
			c->rep, SMP_RULE_COMPILER_REGION_UNAVAILABLE, at,
			"the Training Compiler container '%s' is published in "
			"no region of partition %s, the role ARN's; the "
			"SageMaker Python SDK has it in %s",
			job->image_config->repository, job->partition, list);
		smp__finding_fix(c->rep, f,
				 "run the job in one of those regions, or "
				 "without the compiler in this partition");
		return;
	}
	f = smp__report_node(
		c->rep, SMP_RULE_COMPILER_REGION_UNAVAILABLE, at,
		"the Training Compiler container '%s' is not "
		"published in '%s' (partition %s)%s; the SageMaker "
		"Python SDK has it in %s",
		job->image_config->repository, job->region, job->partition,
		job->region_node ? "" : ", the region the job runs in", list);
	smp__finding_fix(c->rep, f,
			 "run the job in one of those regions, or without the "
			 "compiler in this one");
}
