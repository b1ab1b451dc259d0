/*
 * job.h - the job model: what a spec says, whichever dialect wrote it.
 * Every field keeps the node it came from (NULL when absent) so that each
 * finding has a position. Rules read only this struct and the catalog.
 */
#ifndef SMP_JOB_H
#define SMP_JOB_H

#include "smpreflight.h"
#include "catalog/catalog.h"
#include "doc/doc.h"
#include "util/version.h"

enum smp_estimator {
	SMP_EST_UNKNOWN = 0,
	SMP_EST_HUGGINGFACE,
	SMP_EST_PYTORCH,
	SMP_EST_TENSORFLOW
};

struct smp_script_facts;

/* Where the GPU count PyTorch/XLA uses (GPU_NUM_DEVICES) comes from. */
enum smp_gpu_devices_from {
	SMP_GPU_DEVICES_UNSET = 0, /* nothing sets it: the container's 1 */
	SMP_GPU_DEVICES_ENV,       /* environment GPU_NUM_DEVICES */
	SMP_GPU_DEVICES_HP,        /* an n_gpus hyperparameter read into it */
	SMP_GPU_DEVICES_SCRIPT,    /* the entry script sets it */
	SMP_GPU_DEVICES_CONTAINER  /* pytorchxla on: the container sets it */
};

/* A hyperparameter the SDK adds to the user's (Framework.hyperparameters). */
struct smp_hp_added {
	const char *name;
	const struct smp_node
		*value; /* made-up node on the setting behind it */
};

#define SMP_HP_ADDED_MAX 4

/* A hyperparameter a tuning job searches (effective.c): in the effective
 * hyperparameters its value is hi, the upper end of the range. */
struct smp_hp_range {
	const struct smp_node *name;    /* the range's Name */
	const struct smp_node *lo, *hi; /* MinValue and MaxValue, or the
					   smallest and largest Values */
	double min, max;                /* their numbers when numeric is 1 */
	int numeric;
	int categorical; /* CategoricalParameterRanges */
};

struct smp_job {
	enum smp_dialect dialect;
	const struct smp_node *root;

	/* ---- what the spec says (the normalizers fill this part) ---- */

	enum smp_estimator estimator;
	const struct smp_node *estimator_node;

	const struct smp_node *instance_type;  /* string scalar or NULL */
	const struct smp_node *instance_count; /* int scalar or NULL */
	long long count;                       /* instance_count, default 1 */
	const struct smp_node *instance_groups;

	/* framework versions: pytorch_version/tensorflow_version (HF) or
	 * framework_version (PyTorch, TensorFlow); or cut from the image
	 * tag when the spec names an image (every dialect) */
	const struct smp_node *transformers_version;
	const struct smp_node *framework_version;
	const char *base_framework; /* "pytorch", "tensorflow" or NULL */
	const struct smp_node *py_version;
	/* the estimator's image_uri (NULL, null or "" when not given) */
	const struct smp_node *image_uri;
	/* the container image the other dialects name (ModelTrainer
	 * training_image, CreateTrainingJob TrainingImage) */
	const struct smp_node *training_image;

	/* estimator compiler_config: the mapping (NULL when absent/null) */
	const struct smp_node *compiler_config;

	const struct smp_node *distribution;    /* mapping or NULL */
	const struct smp_node *pytorchxla_dist; /* distribution.pytorchxla */

	const struct smp_node *environment;
	const struct smp_node *hyperparameters;
	/* hyperparameter values are strings on the wire (API dialect) */
	int hyperparameters_are_strings;

	const struct smp_node *entry_point;
	const struct smp_node *source_dir;

	const struct smp_node *debugger_hook_config;
	const struct smp_node *disable_profiler;
	const struct smp_node *profiler_config;
	const struct smp_node *checkpoint_s3_uri;
	const struct smp_node *checkpoint_local_path;

	/* the region the jobs run in where the image names none: the one
	 * a Python source creates the job in when it is known (then
	 * region_default_node is its string node), else the context's
	 * (smp_options.region), or NULL */
	const char *region_default;
	const struct smp_node *region_default_node;

	/* a tuning job definition's ranges (ParameterRanges: Integer-,
	 * Continuous- and CategoricalParameterRanges), NULL otherwise */
	const struct smp_node *ranges;

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

	/* ---- the effective job (effective.c): what SageMaker runs ----
	 * Computed once after normalization and before any rule, the same
	 * way for every dialect; each fact keeps the node it comes from so
	 * findings point at the line to change. See effective.h. */

	/* the image: given (image_uri / training_image / TrainingImage,
	 * used as is: the SDK's training_image_uri returns it unchanged),
	 * else derived by the SDK from framework, versions and py_version */
	const struct smp_node *image; /* the given URI, NULL when derived */
	int image_trcomp;             /* a Training Compiler repository */
	int image_tf_gpu;             /* the GPU tensorflow-training image */

	/* the image SageMaker pulls: the given URI, else the one the SDK
	 * derives (when the region is known); NULL when neither */
	const char *pulled_image;
	/* the SDK's table row of that image (its repository's registries) */
	const struct smp_image_config *image_config;
	/* the region the job runs in: the given image's ECR host (then
	 * region_node is that part of the URI), else region_default; and
	 * its partition ("aws", "aws-cn", "aws-us-gov", "aws-iso"...) */
	const char *region, *partition;
	const struct smp_node *region_node;
	/* with no region: the partition of the role ARN, which names it */
	const struct smp_node *partition_node;
	int image_region_missing; /* the SDK publishes the image's
				     repository in no registry of region */
	/* facts of the pulled image's URI (image.h): the ECR registry's
	 * account ("763104351884"), the tag's Python ("py39") and CUDA
	 * ("cu117") parts; and the account the SDK's registry table gives
	 * the image's repository in the region (image_uris.
	 * _registry_from_region). NULL when unknown. No rule compares the
	 * two accounts: an image copied to the user's own ECR registry is
	 * pulled from there, and is the same image. */
	const char *image_account, *image_py, *image_cuda;
	const char *registry_account;

	int compiler;         /* the job runs Training Compiler's container
				 with the compiler flags: compiler checks apply */
	int compiler_enabled; /* ... and the flags say enabled */
	int compiler_sdk;     /* compiler_config in an estimator: the SDK's
				 TrainingCompilerConfig.validate() runs */
	int compiler_by_hand; /* an estimator image_uri of a compiler image
				 enabled by hyperparameter: no SDK checks */
	/* sagemaker_training_compiler_enabled / _debug_mode as the
	 * container receives them (the user's, or added by the SDK) */
	const struct smp_node *compiler_flag;
	const struct smp_node *compiler_debug;

	/* the job enables Training Compiler or shows the intent to (a
	 * compiler image, sagemaker_training_compiler_* hyperparameters,
	 * compiler_config given in any form or misspelled, pytorchxla or a
	 * misspelling of it, GPU_NUM_DEVICES): what a walk judges */
	int compiler_intent;
	int pytorchxla_enabled; /* distribution.pytorchxla.enabled or the
				   sagemaker_pytorch_xla_multi_worker_enabled
				   hyperparameter */
	const struct smp_node *pytorchxla;     /* the node that says so (or
						  the wrong-typed value) */
	const struct smp_node *pytorchxla_key; /* its key, for positions */
	int xla_version; /* the version has pytorchxla: 1, 0, -1 unknown */
	/* hyperparameter training_script in the HuggingFace container: the
	 * launcher route (NULL in the PyTorch one, 1.12 on) */
	const struct smp_node *launcher_script;

	/* the instance data of instance_type; NULL when unset or not in
	 * the catalog (the check's c->instance) */
	const struct smp_instance *instance;
	int gpus;             /* GPUs per instance; 0 unknown or none */
	long long total_gpus; /* gpus x instances; 0 when unknown */
	enum smp_gpu_devices_from gpu_devices_from;
	const struct smp_node *gpu_num_devices; /* environment value */
	const struct smp_node *n_gpus;          /* hyperparameter n_gpus */
	int spawns_workers; /* the script starts one process per GPU itself
			       (xmp.spawn), or the launcher route does */

	int debugger; /* a Debugger hook is attached */
	int profiler; /* the Profiler runs */
	int debugger_default, profiler_default; /* ... by the SDK's default */

	struct smp_hp_added added[SMP_HP_ADDED_MAX]; /* SDK-added ones */
	size_t nadded;
	/* the tuned hyperparameters (a tuning job definition's ranges) */
	const struct smp_hp_range *range;
	size_t nranges;

	/* the user's own hyperparameters: neither sagemaker_* plumbing nor
	 * added by the SDK (what the efficiency rules read) */
	size_t user_hyperparameters;

	/* what the entry script establishes (script.h), read by the spec
	 * rules too; NULL or status NONE when it was not scanned */
	const struct smp_script_facts *script;
};

/* "huggingface", "pytorch", "tensorflow" (the catalog's spelling) or NULL. */
const char *smp__estimator_key(enum smp_estimator e);

/* 1 for a PyTorch-based job: HuggingFace with pytorch_version, PyTorch. */
int smp__job_is_pytorch(const struct smp_job *job);

/* 1 for a TensorFlow-based job: HuggingFace TensorFlow, TensorFlow. */
int smp__job_is_tensorflow(const struct smp_job *job);

/*
 * 1 when the job's version has the pytorchxla distribution (HuggingFace
 * PyTorch >= 1.11, PyTorch >= 1.12); 0 when older; -1 when unknown.
 */
int smp__job_has_pytorchxla_version(const struct smp_job *job,
				    const struct smp_catalog *cat);

/* 1 for torchxla, pytorch_xla, PyTorchXLA ...: pytorchxla misspelled. */
int smp__is_xla_misspelling(const struct smp_node *key);

/* 1 when the distribution holds a misspelled pytorchxla key. */
int smp__job_xla_misspelled(const struct smp_job *job);

/* The node to anchor a finding about something absent: a key or root. */
const struct smp_node *smp__job_anchor(const struct smp_job *job);

#endif
