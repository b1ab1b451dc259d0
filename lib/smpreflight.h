/*
 * smpreflight.h - the public API of libsmpreflight.
 *
 * Preflight checks for Amazon SageMaker Training Compiler jobs: load a job
 * spec (YAML or JSON), check it against the instance and tested-model data,
 * and return findings as data. The library never prints, never exits and
 * never reads the environment; every allocation goes through the context's
 * allocator and is freed by the matching *_free function.
 *
 * Conventions: functions return 0 on success or a negative SMP_E* code;
 * out-parameters come first; *_free(NULL) is a no-op; pointers returned by
 * getters are borrowed and live as long as the object they came from.
 */
#ifndef SMPREFLIGHT_H
#define SMPREFLIGHT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SMP_VERSION_MAJOR 0
#define SMP_VERSION_MINOR 1
#define SMP_VERSION_PATCH 0
#define SMP_VERSION_STRING "0.1.0"

/* The library's version string, e.g. "0.1.0". */
const char *smp_version(void);

/* Status codes. Findings are not errors: a completed check returns 0. */
enum smp_status {
	SMP_OK = 0,
	SMP_ENOMEM = -1,   /* an allocation failed */
	SMP_EIO = -2,      /* a file could not be read */
	SMP_EPARSE = -3,   /* a data document could not be parsed */
	SMP_EINVAL = -4,   /* an argument or option is invalid */
	SMP_ELIMIT = -5,   /* an input limit was exceeded */
	SMP_EFETCH = -6,   /* a download failed */
	SMP_EINTERNAL = -7 /* a bug: please report it */
};

/* A short English description of an SMP_E* code; never NULL. */
const char *smp_strerror(int code);

/*
 * Operational error details, owned by the caller: fixed size, no heap.
 * line/column are 1-based; 0 means unknown.
 */
struct smp_error {
	int code;
	char source[256];
	uint32_t line;
	uint32_t column;
	size_t offset;
	char message[512];
};

enum smp_severity {
	SMP_SEVERITY_OFF = 0, /* rule disabled */
	SMP_SEVERITY_INFO = 1,
	SMP_SEVERITY_WARNING = 2,
	SMP_SEVERITY_ERROR = 3
};

/* "info", "warning", "error" or "off". */
const char *smp_severity_name(enum smp_severity severity);

/* Parses "info", "warning", "error" or "off"; returns SMP_EINVAL otherwise. */
int smp_severity_parse(enum smp_severity *out, const char *name);

/*
 * Allocator hooks. All three must be set, or the whole pointer left NULL
 * for malloc/realloc/free. realloc_fn(ud, NULL, n) must act as malloc.
 */
struct smp_allocator {
	void *(*malloc_fn)(void *ud, size_t size);
	void *(*realloc_fn)(void *ud, void *ptr, size_t size);
	void (*free_fn)(void *ud, void *ptr);
	void *ud;
};

/* Per-document input limits (DESIGN.md section 8); 0 selects the default. */
struct smp_limits {
	size_t max_file_size;  /* bytes, default 4 MiB */
	size_t max_depth;      /* nesting, default 64 */
	size_t max_nodes;      /* nodes counting alias expansion, 100000 */
	size_t max_scalar_len; /* bytes, default 64 KiB */
	size_t max_documents;  /* per YAML stream, default 1000 */
};

/* How a spec is written (DESIGN.md section 3). */
enum smp_dialect {
	SMP_DIALECT_AUTO = 0,
	SMP_DIALECT_ESTIMATOR,
	SMP_DIALECT_MODEL_TRAINER,
	SMP_DIALECT_CREATE_TRAINING_JOB
};

/* "auto", "estimator", "model_trainer" or "create_training_job". */
const char *smp_dialect_name(enum smp_dialect dialect);
int smp_dialect_parse(enum smp_dialect *out, const char *name);

/* A per-rule severity override: rule id and new severity (OFF disables). */
struct smp_rule_override {
	const char *rule;
	enum smp_severity severity;
};

/* How a learning rate follows a batch-size change by a factor k. */
enum smp_lr_scaling {
	SMP_LR_SCALING_LINEAR = 0, /* lr x k (the default) */
	SMP_LR_SCALING_SQRT = 1    /* lr x sqrt(k) */
};

/* "linear" or "sqrt". */
const char *smp_lr_scaling_name(enum smp_lr_scaling scaling);
int smp_lr_scaling_parse(enum smp_lr_scaling *out, const char *name);

/*
 * A list of hyperparameter names. Names match case-insensitively with
 * '-' and '_' alike ("BATCH_SIZE" finds "batch-size"). count 0 keeps the
 * default list.
 */
struct smp_names {
	const char *const *names;
	size_t count;
};

#define SMP_OPTIONS_VERSION 1

/*
 * Context options. Always start from SMP_OPTIONS_INIT so that fields added
 * in later versions get their defaults; the library reads only the fields
 * that existed in the version the caller was compiled with.
 */
struct smp_options {
	unsigned int version;
	/* NULL: malloc/realloc/free. Copied into the context. */
	const struct smp_allocator *allocator;
	/* A folder holding instances.json, tested-models.json and
	 * frameworks.json; NULL uses the data embedded at build time. */
	const char *instance_data_dir;
	struct smp_limits limits;
	/* Forces a dialect; AUTO detects it from the keys. */
	enum smp_dialect dialect;
	/* Severity overrides, applied in order; rule ids are validated. */
	const struct smp_rule_override *overrides;
	size_t override_count;
	/* Hyperparameters that carry the per-GPU batch size (default
	 * per_device_train_batch_size, train_batch_size, batch_size), the
	 * learning rate (learning_rate, lr) and the model (model_name_or_path,
	 * model_name, model_id, model_type, model). */
	struct smp_names batch_size_names;
	struct smp_names learning_rate_names;
	struct smp_names model_names;
	/* Batch names whose value is the global batch across all GPUs rather
	 * than per GPU. Default: none, except that a TensorFlow job's plain
	 * "batch_size" is read as the global Keras batch (DESIGN.md 7). */
	struct smp_names global_batch_names;
	/* Learning-rate scaling used in suggestions. */
	enum smp_lr_scaling lr_scaling;
	/* short-run fires below this many max_steps; 0 means 100. */
	long short_run_steps;
};

/* Every field spelled out, so that C and C++ callers with
 * -Wmissing-field-initializers compile it cleanly. */
#define SMP_OPTIONS_INIT                                                       \
	{                                                                      \
		SMP_OPTIONS_VERSION, NULL, NULL, {0, 0, 0, 0, 0},              \
			SMP_DIALECT_AUTO, NULL, 0, {NULL, 0}, {NULL, 0},       \
			{NULL, 0}, {NULL, 0}, SMP_LR_SCALING_LINEAR, 0         \
	}

/* Immutable after creation; may be shared by threads checking at once. */
struct smp_context;

/*
 * Creates a context: copies the options and loads the instance data.
 * On failure returns a negative code, fills err (may be NULL) and sets
 * *out to NULL.
 */
int smp_context_new(struct smp_context **out, const struct smp_options *opts,
		    struct smp_error *err);

void smp_context_free(struct smp_context *ctx);

/* The loaded instance data: its data_version and generated date. */
const char *smp_context_data_version(const struct smp_context *ctx);
const char *smp_context_data_date(const struct smp_context *ctx);

/* One finding; every string is owned by the report. */
struct smp_finding {
	const char *
		rule; /* stable kebab-case id, e.g. "gpu-num-devices-missing" */
	enum smp_severity severity;
	const char *message; /* lower-case start, no final full stop */
	const char *file;    /* the name given to the check */
	uint32_t line;       /* 1-based; 0 when the finding has no position */
	uint32_t column;     /* 1-based, in characters */
	uint32_t end_line;
	uint32_t end_column; /* exclusive */
	const char *
		pointer; /* JSON Pointer, e.g. "/environment/GPU_NUM_DEVICES" */
	const char *fix; /* how to fix it, or NULL */
	const char *suggestion;  /* a suggested value, or NULL */
	const char *source_line; /* the text of `line`, or NULL */
};

/* The findings of one checked buffer or file, in source order. */
struct smp_report;

/*
 * Checks one spec held in buf[0..len). name is used in findings (a path or
 * "<stdin>"). A spec that cannot be parsed is a `syntax` finding, not an
 * error: errors are SMP_ENOMEM, SMP_EINVAL and the like.
 */
int smp_check_buffer(struct smp_report **out, const struct smp_context *ctx,
		     const char *name, const char *buf, size_t len,
		     struct smp_error *err);

/*
 * Reads and checks a file. An unreadable file returns SMP_EIO with err
 * filled; a file over the size limit gives an `input-limit` finding.
 */
int smp_check_file(struct smp_report **out, const struct smp_context *ctx,
		   const char *path, struct smp_error *err);

void smp_report_free(struct smp_report *report);

size_t smp_report_count(const struct smp_report *report);

/* The i-th finding, or NULL when i is out of range. */
const struct smp_finding *smp_report_get(const struct smp_report *report,
					 size_t i);

/* The highest severity among the findings; OFF when there are none. */
enum smp_severity smp_report_max_severity(const struct smp_report *report);

/* Static information about a rule. */
struct smp_rule_info {
	const char *id;
	enum smp_severity default_severity;
	const char *group;
	const char *summary;
	const char *explanation;
	const char *source; /* where the rule comes from (seed, SDK rule) */
};

size_t smp_rule_count(void);
/* The i-th rule in table order, or NULL when i is out of range. */
const struct smp_rule_info *smp_rule_at(size_t i);
/* The rule with this id, or NULL. */
const struct smp_rule_info *smp_rule_find(const char *id);

/*
 * Output sink: called with consecutive pieces of output; returns 0 to go
 * on or non-zero to stop (the emitter then returns SMP_EIO).
 */
typedef int (*smp_write_fn)(void *ud, const char *data, size_t len);

#define SMP_TEXT_COLOR 1u /* ANSI colours */

/*
 * Writes the findings of a report as text (DESIGN.md section 5): one
 * "file:line:col: severity: message [rule]" line, the source excerpt with
 * a caret and the fix line. Findings below min_severity are skipped.
 */
int smp_emit_text(const struct smp_report *report,
		  enum smp_severity min_severity, unsigned int flags,
		  smp_write_fn write, void *ud);

#ifdef __cplusplus
}
#endif

#endif /* SMPREFLIGHT_H */
