/* job.c - questions rules ask about a job, answered in one place */
#include <ctype.h>
#include <string.h>

#include "job/job.h"

int
smp__job_is_pytorch(const struct smp_job *job)
{
	return job->base_framework &&
	       strcmp(job->base_framework, "pytorch") == 0;
}

int
smp__job_is_tensorflow(const struct smp_job *job)
{
	return job->base_framework &&
	       strcmp(job->base_framework, "tensorflow") == 0;
}

int
smp__job_has_pytorchxla_version(const struct smp_job *job,
				const struct smp_catalog *cat)
{
	struct smp_version have, min;
	const char *min_s;

	if (!smp__job_is_pytorch(job) || !job->framework_version)
		return -1;
	min_s = job->estimator == SMP_EST_HUGGINGFACE
			? cat->pytorchxla_min_huggingface
			: cat->pytorchxla_min_pytorch;
	if (!min_s || smp__version_parse(&min, min_s) ||
	    smp__version_parse(&have, smp__node_text(job->framework_version)))
		return -1;
	return smp__version_cmp(&have, &min) >= 0;
}

const struct smp_node *
smp__job_anchor(const struct smp_job *job)
{
	if (job->estimator_node)
		return job->estimator_node;
	return job->root;
}

/* torchxla, pytorch_xla, PyTorchXLA ...: the spellings the docs use. */
int
smp__is_xla_misspelling(const struct smp_node *key)
{
	char norm[32];
	size_t i, n = 0;
	const char *s = smp__node_text(key);

	if (!s || strcmp(s, "pytorchxla") == 0)
		return 0;
	for (i = 0; s[i] && n + 1 < sizeof(norm); i++)
		if (s[i] != '_' && s[i] != '-')
			norm[n++] = (char)tolower((unsigned char)s[i]);
	norm[n] = '\0';
	return strcmp(norm, "pytorchxla") == 0 || strcmp(norm, "torchxla") == 0;
}

int
smp__job_xla_misspelled(const struct smp_job *job)
{
	const struct smp_node *dist = job->distribution;
	size_t i;

	for (i = 0; dist && i < dist->u.mapping.count; i++)
		if (smp__is_xla_misspelling(dist->u.mapping.items[i].key))
			return 1;
	return 0;
}

const char *
smp__estimator_key(enum smp_estimator e)
{
	switch (e) {
	case SMP_EST_HUGGINGFACE:
		return "huggingface";
	case SMP_EST_PYTORCH:
		return "pytorch";
	case SMP_EST_TENSORFLOW:
		return "tensorflow";
	default:
		return NULL;
	}
}
