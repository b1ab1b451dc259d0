/*
 * tune.h - batch-size and learning-rate arithmetic (README "Suggestions")
 * and the lookup of the tested-models row that applies to a job. Shared
 * by the tuning rules, the baseline comparison and `suggest`, so that all
 * three read a batch and pick a row the same way.
 *
 * The tested tables give one batch size per model and instance. For the
 * language models it is the batch of one GPU: the same model has about
 * the same size on 1, 4 and 8 GPUs of a kind (bert-base-uncased, PyTorch
 * 1.9.0: 24 on ml.p3.2xlarge and on ml.p3.8xlarge). The TensorFlow vision
 * rows (no sequence length) give the batch of the whole instance, as
 * Keras takes it: ResNet152 160 on ml.p3.2xlarge and 1280 = 8 x 160 on
 * ml.p3.16xlarge, VisionTransformer 128 and 1024. smp__tune_row_batch()
 * turns both into a per-GPU batch; everything compares those.
 */
#ifndef SMP_TUNE_H
#define SMP_TUNE_H

#include <stddef.h>

#include "catalog/catalog.h"
#include "job/job.h"
#include "job/settings.h"

/* "Well below" the tested batch: under this fraction of it. */
#define SMP_TUNE_BELOW_FRACTION 0.75
/* A learning rate follows k or sqrt(k) when within this relative error. */
#define SMP_TUNE_LR_TOLERANCE 0.05

enum smp_batch_scope {
	SMP_BATCH_PER_GPU, /* the value is the batch of one GPU */
	SMP_BATCH_GLOBAL   /* the value is the batch of all GPUs together */
};

/* Why a batch name was read the way it was. */
enum smp_batch_why {
	SMP_BATCH_WHY_PREFIX,      /* per_device_* / per_gpu_* */
	SMP_BATCH_WHY_DEFAULT,     /* any other name: per GPU */
	SMP_BATCH_WHY_GLOBAL_NAME, /* listed in the global-batch names */
	SMP_BATCH_WHY_TENSORFLOW   /* TensorFlow's plain batch_size */
};

/* How the batch hyperparameter of a job reads. */
struct smp_batch_reading {
	const struct smp_pair *pair; /* the hyperparameter */
	enum smp_batch_scope scope;
	enum smp_batch_why why;
	double value;           /* as written */
	int gpus;               /* per instance */
	long long instances;    /* instance count */
	double per_gpu, global; /* both readings, from value */
};

/*
 * Reads the batch hyperparameter of job (the first name of the batch
 * list that is present) for an instance with gpus GPUs. Returns 0, or -1
 * when there is none, it is not a positive number up to 1e12, or gpus < 1.
 */
int smp__batch_read(struct smp_batch_reading *out, const struct smp_settings *s,
		    const struct smp_job *job, int gpus);

/*
 * Describes the reading for messages: "per-GPU batch 24 (per GPU, from
 * 'per_device_train_batch_size')" or "global batch 192 over 4 GPUs = 48
 * per GPU (from 'batch_size', ...)". Always NUL-terminates.
 */
void smp__batch_describe(char *out, size_t size,
			 const struct smp_batch_reading *r);

/* The batch name as written in the spec (for quoting it). */
const char *smp__batch_key(const struct smp_batch_reading *r);

/* k = b2 x g2 x n2 / (b1 x g1 x n1): the change of the global batch. */
double smp__tune_k(double b1, int g1, long long n1, double b2, int g2,
		   long long n2);

/* The learning rate after the batch changed by k: lr x k or lr x sqrt(k). */
double smp__tune_lr(double lr, double k, enum smp_lr_scaling scaling);

/*
 * Which rule a learning-rate ratio (new / old) follows for a batch change
 * k, within SMP_TUNE_LR_TOLERANCE: 1 linear, 2 square root, 0 neither.
 * Linear wins when both hold (k near 1).
 */
int smp__tune_lr_follows(double ratio, double k);

/* Writes v with up to 4 significant digits ("6.667e-05", "26"). */
void smp__tune_number(char *out, size_t size, double v);

/*
 * Writes v as a new value for the hyperparameter whose old value node is
 * orig: quoted ("26") when orig is a string, bare (26) otherwise.
 */
void smp__tune_value(char *out, size_t size, const struct smp_node *orig,
		     double v);

/* How well the row found for a job matches it. */
enum smp_row_match {
	SMP_ROW_NONE = 0,
	SMP_ROW_EXACT,   /* framework, versions, model and instance type */
	SMP_ROW_SAME_GPU /* same model and framework on the same GPU model
			    and per-GPU memory */
};

/* What a job asks of the tested table. */
struct smp_tune_query {
	enum smp_estimator estimator;
	const char *framework;            /* base: "pytorch", "tensorflow" */
	const char *framework_version;    /* as written, or NULL */
	const char *transformers_version; /* as written, or NULL */
	const char *model_key;            /* smp__model_key of the model */
	const struct smp_instance *instance;
	int sequence_length; /* from the hyperparameters, 0 when not given */
	long long instance_count;
	/* the model's hyperparameter (key and value), or NULL */
	const struct smp_pair *model;
	/* the model's rows of rows_cat and the container image of the
	 * query's versions there (or NULL), looked up once
	 * (smp__tune_query_rows); rows_cat NULL: each function looks them
	 * up itself */
	const struct smp_catalog *rows_cat;
	const struct smp_tested_model *const *rows;
	size_t row_count;
	const struct smp_image *image;
};

/* The rows that apply to a query and the one chosen. */
struct smp_row_pick {
	enum smp_row_match match;           /* of the chosen row */
	const struct smp_tested_model *row; /* the chosen row, or NULL */
	/* the largest compiler batch among the rows of this model on this
	 * GPU (those of the query's sequence length when there are some) */
	const struct smp_tested_model *max;
	size_t candidates; /* rows of this model on this GPU */
	size_t exact_rows; /* of which exact matches */
	int seq_matched;   /* the chosen row has the query's sequence length */
	int count_matched; /* ... and the query's instance count */
	int seq_mixed;     /* the candidates have several sequence lengths */
	/* ... and the query none: the smallest batch came before the
	 * versions */
	int by_batch;
	size_t ties; /* rows equal to the chosen one before the batch size:
			more than 1 when it won as the smallest batch */
};

/*
 * Fills the query of a job on instance (model key into key[keysize]).
 * Returns 0, or -1 when the job names no model or the model is a path or
 * URI (nothing to look up), or 1 when the framework is unknown (only
 * model_key is set then).
 */
int smp__tune_query(struct smp_tune_query *q, char *key, size_t keysize,
		    const struct smp_settings *s, const struct smp_job *job,
		    const struct smp_instance *instance);

/*
 * Looks the rows of q's model and the image of its versions up in cat
 * once, for the functions below that are given q and cat (a check asks
 * the table several times).
 */
void smp__tune_query_rows(struct smp_tune_query *q,
			  const struct smp_catalog *cat);

/* smp__tune_model_tested() for q's model, from its rows. */
int smp__tune_query_tested(const struct smp_tune_query *q,
			   const struct smp_catalog *cat,
			   const char *framework);

/*
 * Finds the tested row for q among the rows of the same model and
 * framework on an instance with the same GPU model and memory (exact
 * rows, same instance type and versions, are among them), or none. Prefers
 * the query's sequence length (it drives memory most), then an exact row,
 * then the job's framework versions, instance type, Hugging Face or not,
 * the nearest framework version, the job's instance count, then the
 * smallest compiler batch (the conservative choice), then table order.
 * When the query gives no sequence length and the rows have several, the
 * smallest batch comes right after the exact row: the job may well use
 * the longest.
 */
void smp__tune_pick(struct smp_row_pick *out, const struct smp_catalog *cat,
		    const struct smp_tune_query *q);

/*
 * The row of the table that really is this job, the only ground for
 * claiming an out-of-memory risk: the same model, framework family
 * (Hugging Face on PyTorch, PyTorch, Hugging Face on TensorFlow,
 * TensorFlow) and framework version, the same GPU model and memory, and,
 * for a row with a sequence length, the same length stated by the query
 * (a row without one, a vision model, needs none; any_length waives
 * this for a query that states none). Of several such rows, the one with
 * the largest per-GPU compiler batch; NULL when none.
 */
const struct smp_tested_model *
smp__tune_same_job_max(const struct smp_catalog *cat,
		       const struct smp_tune_query *q, int any_length);

/* With no sequence length stated, a batch this many times the same job's
 * largest tested one is reported anyway: no plausible length fits it. */
#define SMP_TUNE_ABOVE_UNSTATED 1.5

/* What a row says about a job's batch (smp__tune_target). */
enum smp_target_kind {
	SMP_TARGET_NONE = 0, /* abstain: see why */
	SMP_TARGET_AT,       /* the job already runs the row's batch */
	SMP_TARGET_ROW,      /* the row is this job: its batch as is */
	SMP_TARGET_SCALED,   /* the job's batch x the row's compiler/native */
	SMP_TARGET_KEEP      /* the row shows no gain over the job's batch */
};

struct smp_tune_target {
	enum smp_target_kind kind;
	const struct smp_tested_model *row; /* the row used, or NULL */
	int other_row;  /* row is not pick->row: its native batch is the
			   nearest to the job's */
	double per_gpu; /* the suggested per-GPU batch (whole) */
	double ratio;   /* SCALED: the row's compiler / native batch */
	char why[384];  /* NONE: the reason; else how the batch was found */
};

/*
 * The per-GPU batch a compiled job can run, from the pick for q and the
 * batch the job runs now (per GPU, read as the native batch: the job's
 * own evidence about its sequence length, data and precision). The row's
 * compiler batch applies as is only when the job's batch is within 15% of
 * the row's native batch and the sequence lengths agree; otherwise the
 * job's batch is scaled by the row's compiler/native ratio: of an exact
 * row unless its native batch is more than 3x away, else of the candidate
 * row whose native batch is nearest the job's (within 3x); with no such
 * row it abstains. Never below
 * the job's batch unless the row itself fits less with the compiler.
 */
void smp__tune_target(struct smp_tune_target *out,
		      const struct smp_catalog *cat,
		      const struct smp_tune_query *q,
		      const struct smp_row_pick *pick, double job_per_gpu);

/* 1 when the row's batch is for all GPUs of its instance together. */
int smp__tune_row_per_instance(const struct smp_catalog *cat,
			       const struct smp_tested_model *row);

/* The row's compiler batch for one GPU. */
double smp__tune_row_batch(const struct smp_catalog *cat,
			   const struct smp_tested_model *row);

/*
 * "24 per GPU", or "160 per GPU (1280 for the 8 GPUs of ml.p3.16xlarge)"
 * for a per-instance row. Always NUL-terminates.
 */
void smp__tune_row_batch_text(char *out, size_t size,
			      const struct smp_catalog *cat,
			      const struct smp_tested_model *row);

/*
 * The Training Compiler container a job's versions resolve to (any
 * spelling the SDK accepts: "1.13" is 1.13.1), or NULL.
 */
const struct smp_image *smp__tune_job_image(const struct smp_catalog *cat,
					    const struct smp_job *job);

/* 1 when the table has any row of model_key for framework (NULL: for
 * any framework). */
int smp__tune_model_tested(const struct smp_catalog *cat, const char *framework,
			   const char *model_key);

/*
 * Describes a row: "PyTorch 1.11.0, transformers 4.21.1, ml.p3.2xlarge,
 * sequence length 512, AMP". Always NUL-terminates.
 */
void smp__tune_row_describe(char *out, size_t size,
			    const struct smp_tested_model *row);

/* "PyTorch" or "TensorFlow" for a base framework name. */
const char *smp__framework_title(const char *framework);

/* The sequence-length hyperparameter of job, or NULL. */
const struct smp_pair *smp__tune_seq_hparam(const struct smp_job *job);

/*
 * The model name a model hyperparameter value gives, without the JSON
 * quotes the SDK puts around string hyperparameters of a
 * CreateTrainingJob request ("\"bert-base-uncased\""); "" when none.
 */
void smp__tune_model_text(char *out, size_t size, const struct smp_node *v);

/* The model hyperparameter (model list order), or NULL. */
const struct smp_pair *smp__tune_model_hparam(const struct smp_settings *s,
					      const struct smp_job *job);

#endif
