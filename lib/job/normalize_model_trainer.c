/*
 * normalize_model_trainer.c - SageMaker ModelTrainer fields (SDK v2
 * sagemaker.modules, SDK v3 sagemaker.train) into the job model: compute,
 * source_code, environment, hyperparameters, training_image. ModelTrainer
 * has no Training Compiler integration: the only way in is a Training
 * Compiler training_image or the sagemaker_training_compiler_* flags,
 * which model-trainer-compiler then reports.
 */
#include "job/normalize.h"

/* ModelTrainer.model_post_init: no compute means one ml.m5.xlarge. */
#define DEFAULT_INSTANCE_TYPE "ml.m5.xlarge"

static int
has_groups(const struct smp_node *g)
{
	return g && ((g->kind == SMP_NODE_SEQUENCE && g->u.sequence.count) ||
		     g->kind == SMP_NODE_MAPPING);
}

/*
 * compute: {instance_type, instance_count, instance_groups}. Without an
 * instance type (and without groups) ModelTrainer runs on its default,
 * a CPU instance, which the instance rules must see: the made-up type
 * sits on the 'compute' key, else on the image, else on the first key.
 */
static void
take_compute(struct smp_job *job, const struct smp_node *root)
{
	const struct smp_node *compute =
		smp__as_mapping(smp__map_get(root, "compute"));
	const struct smp_node *n, *at;
	long long count;

	job->count = 1;
	job->instance_type =
		smp__as_string(smp__map_get(compute, "instance_type"));
	job->instance_groups = smp__map_get(compute, "instance_groups");
	n = smp__map_get(compute, "instance_count");
	if (smp__scalar_int(n, &count) == 0 && count >= 1) {
		job->instance_count = n;
		job->count = count;
	}
	if (job->instance_type || has_groups(job->instance_groups) ||
	    smp__map_get(compute, "instance_type"))
		return; /* a type of the wrong kind is the schema's business */
	if (compute)
		at = smp__map_key(root, "compute");
	else if (job->training_image)
		at = job->training_image;
	else
		at = root->u.mapping.count ? root->u.mapping.items[0].key
					   : root;
	job->instance_type = smp__job_default(job, at, DEFAULT_INSTANCE_TYPE);
	job->instance_type_default = job->instance_type != NULL;
}

void
smp__normalize_model_trainer(struct smp_job *job, const struct smp_node *root)
{
	const struct smp_node *src =
		smp__as_mapping(smp__map_get(root, "source_code"));
	const struct smp_node *image =
		smp__as_string(smp__map_get(root, "training_image"));

	job->root = root;
	job->training_image = image;
	smp__job_take_image(job, image, 1);
	take_compute(job, root);
	job->environment = smp__as_mapping(smp__map_get(root, "environment"));
	/* a string is a path to a hyperparameters file: not read */
	job->hyperparameters =
		smp__as_mapping(smp__map_get(root, "hyperparameters"));
	job->entry_point = smp__as_string(smp__map_get(src, "entry_script"));
	job->source_dir = smp__as_string(smp__map_get(src, "source_dir"));
}
