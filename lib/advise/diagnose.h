/*
 * diagnose.h - the parts of `diagnose` (smp_diagnose_buffer()), one file
 * each: diagnose.c runs the check on the DescribeTrainingJob response and
 * owns the result; diagnose_situation.c tells the situation,
 * diagnose_signatures.c matches FailureReason and the log against the
 * known failure signatures, diagnose_checklist.c turns the findings into
 * the guide's checklist, diagnose_output.c writes text and JSON.
 */
#ifndef SMP_ADVISE_DIAGNOSE_H
#define SMP_ADVISE_DIAGNOSE_H

#include "smpreflight.h"
#include "rules/check.h"
#include "tune/tune.h"
#include "util/arena.h"

/* The AWS pages the guide is made of, by their titles. */
#define SMP__PAGE_TROUBLESHOOTING "SageMaker Training Compiler Troubleshooting"
#define SMP__PAGE_BEST_PRACTICES                                               \
	"SageMaker Training Compiler Best Practices and Considerations"

/* The troubleshooting page's sections, by their titles. */
#define SMP__SEC_CONVERGENCE                                                   \
	"Training job is not converging as expected when compared to the "     \
	"native framework training job"
#define SMP__SEC_SINGLE_GPU "Convergence issue occurring in single GPU training"
#define SMP__SEC_DISTRIBUTED                                                   \
	"Convergence issue occurring in distributed training"
#define SMP__SEC_MISSING_XLA                                                   \
	"Training job fails due to missing PyTorch/XLA configuration"
#define SMP__SEC_NOT_FASTER                                                    \
	"SageMaker Training Compiler does not reduce the total training time"
/* The best-practices page's sections. */
#define SMP__SEC_GENERAL "General Best Practices"
#define SMP__SEC_PYTORCH "Best Practices for PyTorch"

/* What tells what cannot be told otherwise. */
#define SMP__NEEDS_SOURCES "--source-dir DIR"
#define SMP__NEEDS_LOG "--log FILE"
#define SMP__NEEDS_BASELINE "--baseline NATIVE_DESCRIBE"

#define SMP__SITUATIONS 3
#define SMP__CAUSES_MAX 16
#define SMP__ITEMS_MAX 24

#define SMP__TUNING_BATCHES 4

/* A tuning job for a job that does not converge (diagnose_tuning.c). */
struct smp__diag_tuning {
	int wanted;      /* the job does not converge and has a baseline */
	int ok;          /* ... and a tuning job can be proposed */
	const char *why; /* wanted but not ok: what is missing */
	const char *metric, *objective, *regex;
	const char *lr_name, *batch_name;
	double lr0, k, lr_min, lr_max;
	double batches[SMP__TUNING_BATCHES]; /* per GPU, ascending */
	size_t nbatches;
};

struct smp_diagnosis_build {
	struct smp_diagnosis pub; /* first: the public view */
	const struct smp_context *ctx;
	struct smp_arena arena;
	struct smp_docs docs; /* the response's nodes */
	struct smp_job job;
	const struct smp_instance *instance;
	int have_job;
	int script_scanned;     /* the entry script was read and scanned */
	const char *script_why; /* why it was not: "was not found", ... */
	int script_refused;     /* outside --source-dir: not to be passed */
	struct smp_baseline *baseline; /* owned */
	const struct smp_node *baseline_root;
	struct smp_report *report;
	struct smp_diagnosis_situation situations[SMP__SITUATIONS];
	struct smp_diagnosis_cause causes[SMP__CAUSES_MAX];
	/* the cause's advice quotes the real error found above it */
	unsigned char cause_above[SMP__CAUSES_MAX];
	struct smp_diagnosis_item items[SMP__ITEMS_MAX];
	/* the metric that came out worse than the baseline's, and which way
	 * it improves (-1 lower, 1 higher) */
	const char *worse_metric;
	int worse_dir;
	struct smp__diag_tuning tuning;
	int oom; /* an allocation failed */
};

/* A copy of s (or printf) in the diagnosis' arena; sets b->oom. */
const char *smp__diag_str(struct smp_diagnosis_build *b, const char *s,
			  size_t n);
const char *smp__diag_printf(struct smp_diagnosis_build *b, const char *fmt,
			     ...) __attribute__((format(printf, 2, 3)));

/* The text of a scalar member of the response (or NULL). */
const char *smp__diag_member(const struct smp_node *root, const char *name);

/* The tested-models row that applies to the job, and the job's batch. */
struct smp__diag_tested {
	const struct smp_tested_model *row;
	struct smp_batch_reading batch;
	double row_batch; /* the row's compiler batch per GPU */
	char model[256];
	char row_text[600]; /* "for 'bert-base-cased' (PyTorch 1.11.0, ...)" */
	const char *why;    /* when there is none: why, for "cannot tell" */
};

/* Fills t for the job; 0, or -1 with t->why when no row applies. */
int smp__diag_tested(struct smp_diagnosis_build *b, struct smp__diag_tested *t);

/* 1 when the job trains with more than one worker. */
int smp__diag_distributed(const struct smp_job *job);

void smp__diag_situations(struct smp_diagnosis_build *b);

/* FailureReason and the log searched for the signatures (diagnose_log.c);
 * SMP_EIO when the log's reader fails. */
int smp__diag_causes(struct smp_diagnosis_build *b,
		     const struct smp_diagnose_options *o);

/* Where a signature was seen: the text, and for a signature that needs
 * it, the nearest error line above it (NULL when none was found). */
struct smp__diag_sighting {
	const char *source;
	uint32_t line; /* 0 for FailureReason */
	const char *text;
	size_t len;
	const char *above;
	size_t above_len;
	uint32_t above_line;
};

/* Records that signature sig was seen (diagnose_signatures.c). */
void smp__diag_seen(struct smp_diagnosis_build *b, size_t sig,
		    const struct smp__diag_sighting *at);

/* The '|'-separated patterns of signature i. */
const char *smp__diag_signature_patterns(size_t i);

/* 1 when signature i hides the real error above it in the log. */
int smp__diag_signature_needs_above(size_t i);

/* The tuning job, when the job does not converge (diagnose_tuning.c). */
void smp__diag_tuning(struct smp_diagnosis_build *b);

/* The causes adjusted to what the job already has (diagnose_refine.c):
 * a fix the response already applies is never the advice. */
void smp__diag_refine(struct smp_diagnosis_build *b);
void smp__diag_checklist(struct smp_diagnosis_build *b);
int smp__diag_hyperparameters(struct smp_diagnosis_build *b);

/*
 * The failure signatures, for tests: the number of rows, and the id and
 * one text each row matches (the first of its patterns).
 */
size_t smp__diag_signature_count(void);
const char *smp__diag_signature_id(size_t i);
const char *smp__diag_signature_example(size_t i, char *buf, size_t size);

#endif
