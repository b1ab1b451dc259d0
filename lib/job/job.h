/*
 * job.h - the job model: what a spec says, whichever dialect wrote it.
 * Every field keeps the node it came from (NULL when absent) so that each
 * finding has a position. Rules read only this struct and the catalog.
 */
#ifndef SMP_JOB_H
#define SMP_JOB_H

#include "smpreflight.h"
#include "doc/doc.h"

enum smp_estimator {
	SMP_EST_UNKNOWN = 0,
	SMP_EST_HUGGINGFACE,
	SMP_EST_PYTORCH,
	SMP_EST_TENSORFLOW
};

/* A dotted version such as "1.11.0"; parts beyond 4 are ignored. */
struct smp_version {
	int part[4];
	int count; /* number of parts given; 0 when unparsable */
};

struct smp_script_facts;

struct smp_job {
	enum smp_dialect dialect;
	const struct smp_node *root;

	enum smp_estimator estimator;
	const struct smp_node *estimator_node;

	const struct smp_node *instance_type;  /* string scalar or NULL */
	const struct smp_node *instance_count; /* int scalar or NULL */
	long long count;                       /* instance_count, default 1 */
	const struct smp_node *instance_groups;

	/* framework versions: pytorch_version/tensorflow_version (HF) or
	 * framework_version (PyTorch, TensorFlow) */
	const struct smp_node *transformers_version;
	const struct smp_node *framework_version;
	const char *base_framework; /* "pytorch", "tensorflow" or NULL */
	const struct smp_node *py_version;
	const struct smp_node *image_uri;

	/* compiler: present when compiler_config is given at all (R23) */
	const struct smp_node *compiler_config;
	int compiler;         /* 1 when the compiler is selected */
	int compiler_enabled; /* compiler_config.enabled, default true */
	const struct smp_node *compiler_debug; /* the debug value node */

	const struct smp_node *distribution;   /* mapping or NULL */
	const struct smp_node *pytorchxla;     /* the pytorchxla value node */
	const struct smp_node *pytorchxla_key; /* its key, for positions */
	int pytorchxla_enabled;
	const struct smp_node
		*launcher_script; /* hyperparameter training_script */

	const struct smp_node *environment;
	const struct smp_node *hyperparameters;
	const struct smp_node *gpu_num_devices; /* environment value */
	const struct smp_node *n_gpus;          /* hyperparameter n_gpus */

	/* the container image, when the dialect names it (ModelTrainer
	 * training_image, CreateTrainingJob TrainingImage) */
	const struct smp_node *training_image;
	/* hyperparameter sagemaker_training_compiler_enabled, when given */
	const struct smp_node *compiler_flag;
	/* hyperparameter values are strings on the wire (API dialect) */
	int hyperparameters_are_strings;

	const struct smp_node *entry_point;
	const struct smp_node *source_dir;

	const struct smp_node *debugger_hook_config;
	const struct smp_node *disable_profiler;
	const struct smp_node *profiler_config;

	/* 1 when instance_type is not in the spec but ModelTrainer's
	 * default (ml.m5.xlarge when 'compute' names no instance type) */
	int instance_type_default;
	/* where a normalizer makes the nodes a spec implies without holding
	 * them (a version inside an image tag, that default instance type;
	 * smp__job_part, smp__job_default): the document's arena, so that
	 * they live as long as the real nodes. oom is set when such an
	 * allocation failed. */
	struct smp_arena *arena;
	int oom;

	/* what the entry script establishes (script.h), read by the spec
	 * rules too; NULL or status NONE when it was not scanned */
	const struct smp_script_facts *script;
};

/* "huggingface", "pytorch", "tensorflow" (the catalog's spelling) or NULL. */
const char *smp__estimator_key(enum smp_estimator e);

/* Parses "1.11.0" / "1.11"; returns 0 or -1 when not dotted digits. */
int smp__version_parse(struct smp_version *out, const char *s);

/* Compares a and b part by part, missing parts as 0 (1.11 == 1.11.0). */
int smp__version_cmp(const struct smp_version *a, const struct smp_version *b);

/* The text of a string/number scalar, else NULL (for messages). */
const char *smp__node_text(const struct smp_node *n);

#endif
