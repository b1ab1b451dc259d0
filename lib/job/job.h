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

/* Normalizers, one per dialect: fill job from a document's root. */
void smp__normalize_estimator(struct smp_job *job, const struct smp_node *root);
void smp__normalize_model_trainer(struct smp_job *job,
				  const struct smp_node *root);
void smp__normalize_create_training_job(struct smp_job *job,
					const struct smp_node *root);

/* The dialect the keys of root point to; SMP_DIALECT_AUTO when none. */
enum smp_dialect smp__detect_dialect(const struct smp_node *root);

/* The top-level keys detection knows for a dialect, sorted (for tests). */
const char *const *smp__dialect_keys(enum smp_dialect dialect, size_t *count);

/*
 * 1 when root is a DescribeTrainingJob response: a CreateTrainingJob
 * request plus members only a response has (TrainingJobArn,
 * TrainingJobStatus, ...; smp__response_keys lists them, sorted).
 */
int smp__is_describe_response(const struct smp_node *root);
const char *const *smp__response_keys(size_t *count);

/*
 * How the job's dialect spells what fixes (and a few messages) name, so
 * that one rule gives the right advice in every dialect (dialect.c).
 */
struct smp_words {
	const char *enable_compiler; /* fix: turn the compiler on */
	const char *no_compiler;     /* "the spec has no 'compiler_config'" */
	const char *pytorchxla_without_compiler; /* fix of that finding */
	const char *pytorchxla_on;               /* fix: enable pytorchxla */
	const char *pytorchxla_off;              /* fix: drop pytorchxla */
	const char *debug_off;                   /* fix: debug mode off */
	const char *hook_set;     /* why the Debugger hook is on */
	const char *hook_off;     /* fix: no Debugger hook */
	const char *profiler_set; /* why the Profiler is on */
	const char *profiler_off; /* fix: no Profiler */
	const char *environment;  /* the environment map's key */
	const char *instance_type, *instance_count, *instance_groups;
	/* fix of py-version: prefix, the Python version, suffix */
	const char *py_fix_prefix, *py_fix_suffix;
};

const struct smp_words *smp__words(const struct smp_job *job);

/* The key node whose value is node, or node itself (for positions). */
const struct smp_node *smp__job_key_of(const struct smp_job *job,
				       const struct smp_node *node);

/*
 * A flag as the job's dialect reads it: 1 true, 0 false, -1 neither.
 * Booleans in every dialect; the strings "true" and "false" too where
 * hyperparameters reach the container as those strings (ModelTrainer,
 * CreateTrainingJob).
 */
int smp__job_flag(const struct smp_job *job, const struct smp_node *n);

/*
 * Nodes the spec implies without holding them, made in job->arena (NULL,
 * with job->oom set, when that fails). smp__job_part: the text
 * from[off..off+len) of a string scalar, positioned on that part when
 * from is one line written as is, else on all of from (a version inside
 * an image tag). smp__job_default: text positioned on all of at (a
 * default value, shown where it applies).
 */
const struct smp_node *smp__job_part(struct smp_job *job,
				     const struct smp_node *from, size_t off,
				     size_t len);
const struct smp_node *smp__job_default(struct smp_job *job,
					const struct smp_node *at,
					const char *text);

/*
 * Shared by the ModelTrainer and CreateTrainingJob normalizers. take_image
 * reads an image URI node into the estimator class, base framework and
 * versions; it returns 2 for a Training Compiler repository, 1 for the
 * GPU TensorFlow image (the compiler is built in), else 0.
 * take_hyperparameters reads the map: GPU count, launcher script and the
 * sagemaker_training_compiler_* / pytorch-xla flags.
 */
int smp__job_take_image(struct smp_job *job, const struct smp_node *image);
void smp__job_take_hyperparameters(struct smp_job *job,
				   const struct smp_node *hp);

/* 1 for a PyTorch-based job: HuggingFace with pytorch_version, PyTorch. */
int smp__job_is_pytorch(const struct smp_job *job);

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

/*
 * GPUs in the whole job (per instance x instances); 0 when unknown or
 * when instance (the job's instance type, NULL when unknown) has none.
 */
long long smp__job_total_gpus(const struct smp_job *job,
			      const struct smp_instance *instance);

/* The node to anchor a finding about something absent: a key or root. */
const struct smp_node *smp__job_anchor(const struct smp_job *job);

#endif
