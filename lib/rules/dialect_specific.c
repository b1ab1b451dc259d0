/*
 * dialect_specific.c - what only some ways of writing a job can get wrong:
 * compiler flags without the compiler (every dialect), a ModelTrainer
 * job that tries to use the compiler, and an image tag that names no
 * versions (the versions rules then have nothing to check). api-limits
 * and value-not-string come from the dialects' schemas.
 */
#include <stdio.h>
#include <string.h>

#include "rules/rules.h"
#include "job/image.h"
#include "util/buf.h"

#define FLAG_PREFIX "sagemaker_training_compiler_"

/* The first sagemaker_training_compiler_* hyperparameter, or NULL. */
static const struct smp_pair *
first_flag(const struct smp_job *job)
{
	const struct smp_node *hp = job->hyperparameters;
	size_t i;

	for (i = 0; hp && i < hp->u.mapping.count; i++) {
		const struct smp_pair *p = &hp->u.mapping.items[i];

		if (p->key->kind == SMP_NODE_SCALAR &&
		    strncmp(p->key->u.scalar.value, FLAG_PREFIX,
			    strlen(FLAG_PREFIX)) == 0)
			return p;
	}
	return NULL;
}

static const char *
image_key(const struct smp_job *job)
{
	switch (job->dialect) {
	case SMP_DIALECT_CREATE_TRAINING_JOB:
		return "TrainingImage";
	case SMP_DIALECT_ESTIMATOR:
		return "image_uri";
	default:
		return "training_image";
	}
}

/*
 * The flags alone compile nothing: the container must be a Training
 * Compiler image (or TensorFlow's own from 2.9). An estimator without
 * image_uri gets the plain framework container unless compiler_config
 * is set (the SDK then sets the flags itself). This is what
 * HuggingFace.attach() gives back from a compiled job.
 */
static void
check_flags(const struct smp_check *c)
{
	const struct smp_job *job = c->job;
	const struct smp_pair *p = first_flag(job);
	struct smp_image_uri im;
	struct smp_finding *f;

	/* on a compiler image a flag that is no boolean is wrong-type's */
	if (!p || job->compiler ||
	    (job->image_trcomp && smp__hp_flag(p->value) < 0))
		return;
	if (job->estimator == SMP_EST_TENSORFLOW) {
		/* the SDK never changes a TensorFlow image: the version
		 * decides whether the compiler is in it */
		f = smp__report_node(
			c->rep, SMP_RULE_COMPILER_FLAGS_WITHOUT_CONFIG, p->key,
			"hyperparameter '%s' does nothing: TensorFlow %s "
			"training images have no Training Compiler (2.9 and "
			"later do)",
			p->key->u.scalar.value,
			smp__node_text(job->framework_version)
				? smp__node_text(job->framework_version)
				: "(unknown version)");
		smp__finding_fix(c->rep, f,
				 "use TensorFlow 2.9 to 2.11 for a compiled "
				 "job, or remove the '" FLAG_PREFIX
				 "*' hyperparameters");
		return;
	}
	if (job->image && smp__image_parse(&im, job->image->u.scalar.value,
					   job->image->u.scalar.len) == 0) {
		f = smp__report_node(
			c->rep, SMP_RULE_COMPILER_FLAGS_WITHOUT_CONFIG, p->key,
			"hyperparameter '%s' does nothing: '%.*s' is not a "
			"Training Compiler image",
			p->key->u.scalar.value, (int)im.repository.len,
			job->image->u.scalar.value + im.repository.off);
	} else if (job->dialect == SMP_DIALECT_ESTIMATOR) {
		f = smp__report_node(
			c->rep, SMP_RULE_COMPILER_FLAGS_WITHOUT_CONFIG, p->key,
			"hyperparameter '%s' does not turn Training Compiler "
			"on: without 'compiler_config' the SDK picks the plain "
			"framework container",
			p->key->u.scalar.value);
		smp__finding_fix(c->rep, f,
				 "add 'compiler_config: {enabled: true}' and "
				 "remove the '" FLAG_PREFIX "*' "
				 "hyperparameters");
		return;
	} else {
		f = smp__report_node(
			c->rep, SMP_RULE_COMPILER_FLAGS_WITHOUT_CONFIG, p->key,
			"hyperparameter '%s' does nothing without a Training "
			"Compiler '%s'",
			p->key->u.scalar.value, image_key(job));
	}
	if (job->dialect == SMP_DIALECT_ESTIMATOR)
		smp__finding_fix(c->rep, f,
				 "remove 'image_uri', set the framework "
				 "versions and 'compiler_config: {enabled: "
				 "true}', and remove the '" FLAG_PREFIX
				 "*' hyperparameters");
	else
		smp__finding_fix(c->rep, f,
				 "set '%s' to a Training Compiler image (a "
				 "'...-trcomp-training' repository, or "
				 "'tensorflow-training' 2.9 to 2.11 for GPU)",
				 image_key(job));
}

/* Nothing in ModelTrainer supports the compiler (SageMaker Python SDK v3:
 * sagemaker.modules.train.ModelTrainer has no compiler_config). */
static void
check_model_trainer(const struct smp_check *c)
{
	const struct smp_job *job = c->job;
	struct smp_finding *f;

	f = smp__report_node(
		c->rep, SMP_RULE_MODEL_TRAINER_COMPILER,
		job->training_image  ? job->training_image
		: job->compiler_flag ? smp__job_key_of(job, job->compiler_flag)
				     : job->root,
		"ModelTrainer has no Training Compiler support: nothing "
		"checks the compiler image and flags, and its own launcher "
		"likely hides the flags from the container");
	smp__finding_fix(c->rep, f,
			 "write the job as a HuggingFace, PyTorch or "
			 "TensorFlow estimator with 'compiler_config' (SDK "
			 "v2), or as a CreateTrainingJob request");
}

/* A tag of the same kind, for the fix. */
static const char *
example_tag(const struct smp_job *job)
{
	int pt = smp__job_is_pytorch(job);

	if (job->estimator == SMP_EST_HUGGINGFACE)
		return pt ? "1.11.0-transformers4.21.1-gpu-py38-cu113-"
			    "ubuntu20.04"
			  : "2.6.3-transformers4.17.0-gpu-py38-cu112-"
			    "ubuntu20.04";
	return pt ? "1.13.1-gpu-py39-cu117-ubuntu20.04-sagemaker"
		  : "2.11.0-gpu-py39-cu112-ubuntu20.04-sagemaker";
}

/*
 * framework-version-missing for an image (R26/R28 in the estimator): a
 * tag such as 'latest' or a digest hides the versions, so the container
 * cannot be checked against the supported ones.
 */
static void
check_image_versions(const struct smp_check *c)
{
	const struct smp_job *job = c->job;
	const char *parts[3];
	char what[96];
	struct smp_buf b;
	size_t n = 0, i;
	struct smp_finding *f;

	if (!job->image || job->estimator == SMP_EST_UNKNOWN)
		return;
	if (!job->framework_version)
		parts[n++] = "framework version";
	if (job->estimator == SMP_EST_HUGGINGFACE && !job->transformers_version)
		parts[n++] = "transformers version";
	if (!job->py_version)
		parts[n++] = "Python version";
	if (!n)
		return;
	smp__buf_init_fixed(&b, what, sizeof(what));
	for (i = 0; i < n; i++) {
		smp__buf_adds(&b, i == 0       ? ""
				  : i + 1 == n ? " or the "
					       : ", the ");
		smp__buf_adds(&b, parts[i]);
	}
	f = smp__report_node(c->rep, SMP_RULE_FRAMEWORK_VERSION_MISSING,
			     job->image,
			     "the image tag does not show the %s, so the "
			     "Training Compiler container cannot be checked",
			     what);
	smp__finding_fix(c->rep, f, "use a versioned tag such as '%s'",
			 example_tag(job));
}

/* Framework.__init__ takes entry_point as a required argument. */
static void
check_entry_point(const struct smp_check *c)
{
	const struct smp_job *job = c->job;
	struct smp_finding *f;

	if (job->dialect != SMP_DIALECT_ESTIMATOR ||
	    job->estimator == SMP_EST_UNKNOWN ||
	    smp__map_get(job->root, "entry_point") ||
	    (job->estimator == SMP_EST_PYTORCH &&
	     smp__map_get(job->root, "training_recipe")))
		return;
	f = smp__report_node(
		c->rep, SMP_RULE_ENTRY_POINT_MISSING, smp__job_anchor(job),
		"a %s estimator needs 'entry_point', the training script to "
		"run; the SDK raises an error without it",
		job->estimator == SMP_EST_HUGGINGFACE ? "HuggingFace"
		: job->estimator == SMP_EST_PYTORCH   ? "PyTorch"
						      : "TensorFlow");
	smp__finding_fix(c->rep, f,
			 "add 'entry_point: train.py' (the script's path, "
			 "relative to 'source_dir' when set)");
}

void
smp__rules_dialect(const struct smp_check *c)
{
	const struct smp_job *job = c->job;

	check_entry_point(c);
	check_flags(c);
	if (job->dialect == SMP_DIALECT_MODEL_TRAINER &&
	    (job->compiler || job->image_trcomp || first_flag(job)))
		check_model_trainer(c);
	if (!job->compiler ||
	    (job->compiler_sdk && job->estimator != SMP_EST_TENSORFLOW))
		return;
	check_image_versions(c);
}
