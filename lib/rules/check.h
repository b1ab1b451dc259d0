/*
 * check.h - what every rule function receives. Rules read the job and
 * the catalog, report through rep, and never allocate or print.
 */
#ifndef SMP_CHECK_H
#define SMP_CHECK_H

#include "catalog/catalog.h"
#include "job/job.h"
#include "report/report.h"
#include "job/settings.h"

struct smp_check {
	const struct smp_job *job;
	const struct smp_catalog *cat;
	struct smp_report *rep;
	const struct smp_instance *instance; /* NULL when unknown */
	const struct smp_settings *settings;
};

/* The rule groups, one file each; run in this order by check.c. */
void smp__rules_compiler(const struct smp_check *c);
void smp__rules_instance(const struct smp_check *c);
void smp__rules_distribution(const struct smp_check *c);
void smp__rules_versions(const struct smp_check *c);
void smp__rules_gpu_num_devices(const struct smp_check *c);
void smp__rules_efficiency(const struct smp_check *c);
void smp__rules_tune(const struct smp_check *c);
void smp__rules_dialect(const struct smp_check *c);
/* The entry script's rules (script.c): run last, after the spec rules. */
void smp__rules_script(const struct smp_check *c);

/*
 * What suggest and the baseline comparison add to the pipeline of
 * smp_check_buffer(): fn (may be NULL) sees every job after its rules
 * ran, and may add findings; keep (may be NULL) receives the parsed
 * documents, which the caller then owns and releases with
 * smp__docs_release(), so that node pointers it kept stay valid.
 */
struct smp_check_hook {
	void (*fn)(void *ud, const struct smp_check *c);
	void *ud;
	struct smp_docs *keep;
	/* how the buffer is written (smp_check_options.format) */
	enum smp_input_format format;
	/* where entry scripts are found instead of the spec's folder or the
	 * context's script_base_dir; NULL: those */
	const char *script_dir;
};

/* smp_check_buffer() with a hook (NULL: exactly smp_check_buffer). */
int smp__check_run(struct smp_report **out, const struct smp_context *ctx,
		   const char *name, const char *buf, size_t len,
		   const struct smp_check_hook *hook, struct smp_error *err);

/* smp_check_file() with a hook. */
int smp__check_file_run(struct smp_report **out, const struct smp_context *ctx,
			const char *path, const struct smp_check_hook *hook,
			struct smp_error *err);

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

/* GPUs in the whole job (per instance x instances); 0 when unknown. */
long long smp__job_total_gpus(const struct smp_check *c);

/* The node to anchor a finding about something absent: a key or root. */
const struct smp_node *smp__job_anchor(const struct smp_job *job);

#endif
