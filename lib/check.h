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

/* Lowers f's severity to at most sev (for rules with a softer case). */
void smp__finding_cap_severity(struct smp_finding *f, enum smp_severity sev);

/* The node to anchor a finding about something absent: a key or root. */
const struct smp_node *smp__job_anchor(const struct smp_job *job);

#endif
