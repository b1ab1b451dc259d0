/*
 * check.h - what every rule function receives. Rules read the job and
 * the catalog, report through rep, and never allocate or print.
 */
#ifndef SMP_CHECK_H
#define SMP_CHECK_H

#include "catalog.h"
#include "job.h"
#include "report.h"
#include "settings.h"

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
};

/* smp_check_buffer() with a hook (NULL: exactly smp_check_buffer). */
int smp__check_run(struct smp_report **out, const struct smp_context *ctx,
		   const char *name, const char *buf, size_t len,
		   const struct smp_check_hook *hook, struct smp_error *err);

/* Normalizers, one per dialect: fill job from a document's root. */
void smp__normalize_estimator(struct smp_job *job, const struct smp_node *root);
void smp__normalize_model_trainer(struct smp_job *job,
				  const struct smp_node *root);
void smp__normalize_create_training_job(struct smp_job *job,
					const struct smp_node *root);

/* The dialect the keys of root point to; SMP_DIALECT_AUTO when none. */
enum smp_dialect smp__detect_dialect(const struct smp_node *root);

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
