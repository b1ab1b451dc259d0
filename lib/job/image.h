/*
 * image.h - reading a container image URI such as
 * 763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-trcomp-training:
 * 1.13.1-gpu-py39: which framework the repository holds, whether it is a
 * Training Compiler image, and the versions its tag names. Pure string
 * work with no allocation, so the dialects that name an image (ModelTrainer
 * training_image, CreateTrainingJob TrainingImage) can fill the job model
 * from it and the version rules apply unchanged.
 */
#ifndef SMP_IMAGE_H
#define SMP_IMAGE_H

#include <stddef.h>

#include "job/job.h"

/* A piece of the URI: byte offset and length; len 0 when absent. */
struct smp_span {
	size_t off;
	size_t len;
};

struct smp_image_uri {
	struct smp_span account;    /* "763104351884" (ECR hosts only) */
	struct smp_span region;     /* "us-east-1" (ECR hosts only) */
	struct smp_span repository; /* last path segment, without the tag */
	struct smp_span tag;        /* after ':'; absent with a digest */
	/* parts of the tag */
	struct smp_span framework_version;    /* "1.11.0" */
	struct smp_span transformers_version; /* "4.21.1" */
	struct smp_span processor;            /* "gpu" or "cpu" */
	struct smp_span py_version;           /* "py38" */
	struct smp_span cuda;                 /* "cu113" */
	struct smp_span os;                   /* "ubuntu20.04" */
	/* from the repository name */
	enum smp_estimator estimator;
	const char *base_framework; /* "pytorch", "tensorflow" or NULL */
	int trcomp; /* a Training Compiler repository (HF, PyTorch) */
	int gpu;    /* the tag says "gpu" */
};

/*
 * Parses uri[0..len). Returns 0, or -1 when there is no repository name
 * at all (empty, or ends in '/'); an image that is not an AWS Deep
 * Learning Container still parses, with estimator SMP_EST_UNKNOWN.
 */
int smp__image_parse(struct smp_image_uri *out, const char *uri, size_t len);

#endif
