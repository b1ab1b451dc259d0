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
 * getters are borrowed and live as long as the object they came from. A
 * NULL argument that a function cannot take is SMP_EINVAL (getters
 * return their documented "none" value), never a crash.
 *
 * Options structs start with `unsigned int version` and only ever grow
 * at the end: initialize one with its *_options_init(&opts,
 * SMP_*_OPTIONS_VERSION) or its SMP_*_OPTIONS_INIT macro (C99 designated
 * initializers; C++ before C++20 calls the function). The library reads
 * only the fields of the caller's version; a version newer than the
 * library's is SMP_EINVAL.
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

/* The ABI version: the shared library is libsmpreflight.so.SMP_ABI_VERSION
 * and its symbols are versioned SMPREFLIGHT_<it>. Raised on every
 * incompatible change (a function removed or changed, a field moved). */
#define SMP_ABI_VERSION 1

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
 * for malloc/realloc/free: one or two set is SMP_EINVAL (never silently
 * replaced). realloc_fn(ud, NULL, n) must act as malloc.
 */
struct smp_allocator {
	void *(*malloc_fn)(void *ud, size_t size);
	void *(*realloc_fn)(void *ud, void *ptr, size_t size);
	void (*free_fn)(void *ud, void *ptr);
	void *ud;
};

/* How a spec is written (README "Usage"). */
enum smp_dialect {
	SMP_DIALECT_AUTO = 0,
	SMP_DIALECT_ESTIMATOR,
	SMP_DIALECT_MODEL_TRAINER,
	SMP_DIALECT_CREATE_TRAINING_JOB
};

/* "auto", "estimator", "model_trainer" or "create_training_job". */
const char *smp_dialect_name(enum smp_dialect dialect);

/* Parses one of those names into *out; returns SMP_EINVAL otherwise. */
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

/* Parses "linear" or "sqrt" into *out; returns SMP_EINVAL otherwise. */
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

/*
 * One document held in memory by the caller: its bytes and a name used in
 * errors (NULL: the document's usual file name).
 */
struct smp_memory_doc {
	const char *name;
	const char *buf;
	size_t len;
};

/*
 * The options' layout version (docs/API.md, "ABI"). Fields are only ever
 * appended; a caller sets version to the SMP_OPTIONS_VERSION it was
 * compiled with (SMP_OPTIONS_INIT does) and the library reads no field
 * that version lacks, using the default instead. Version 1 ends at
 * override_count; version 2 adds the fields up to instance_data; version
 * 3 adds no_inline_ignores, instance_overlay and now; version 4 adds
 * select and ignore.
 */
#define SMP_OPTIONS_VERSION 5

/*
 * Context options. Always start from smp_options_init() or
 * SMP_OPTIONS_INIT so that fields added in later versions get their
 * defaults; the library reads only the fields that existed in the version
 * the caller was compiled with. Every default is zero or NULL.
 */
struct smp_options {
	unsigned int version;
	/* NULL: malloc/realloc/free. Copied into the context. */
	const struct smp_allocator *allocator;
	/* A folder holding instances.json, tested-models.json and
	 * frameworks.json; NULL uses the data embedded at build time. */
	const char *instance_data_dir;
	/* Per-document input limits (README "Bad input"); 0 selects the
	 * default. Fields of the options themselves, not a struct of their
	 * own, so that a limit added later is appended like any option. */
	size_t max_file_size;  /* bytes, default 4 MiB */
	size_t max_depth;      /* nesting, default 64 */
	size_t max_nodes;      /* nodes counting alias expansion, 100000 */
	size_t max_scalar_len; /* bytes, default 64 KiB */
	size_t max_documents;  /* per YAML stream, default 1000 */
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
	 * "batch_size" is read as the global Keras batch (README
	 * "Suggestions"). */
	struct smp_names global_batch_names;
	/* Learning-rate scaling used in suggestions. */
	enum smp_lr_scaling lr_scaling;
	/* short-run fires below this many max_steps; 0 means 100. */
	long short_run_steps;
	/* Entry-script checks (README "Entry-script checks"): non-zero skips
	 * them. smp_check_file() looks for the script the spec names relative
	 * to the spec's own folder; smp_check_buffer() relative to
	 * script_base_dir, and not at all when it is NULL (copied into the
	 * context). */
	int no_script;
	const char *script_base_dir;
	/* Refreshed instance data (smp_data_update()): the folder holding
	 * it, used when instance_data_dir is NULL and the copy there is
	 * valid and not older than the embedded data. NULL: no cache. The
	 * library never guesses it (the CLI passes
	 * $XDG_CACHE_HOME/sm-preflight). */
	const char *cache_dir;
	/* Non-zero promises no network access: smp_data_update() refuses
	 * with SMP_EINVAL. Creating a context or checking never touches the
	 * network either way; only local data is read. */
	int offline;
	/* The instance data as three documents held by the caller, in the
	 * order instances.json, tested-models.json, frameworks.json: used,
	 * instead of instance_data_dir, cache_dir or the embedded data, when
	 * all three buf are non-NULL (only some is SMP_EINVAL). Parsed and
	 * validated by smp_context_new() like a folder; not kept. */
	struct smp_memory_doc instance_data[3];
	/* Version 3. Non-zero ignores every inline suppression comment
	 * ("# sm-preflight: ignore[rule] reason"): nothing is suppressed
	 * and suppression-invalid / suppression-unused never fire. */
	int no_inline_ignores;
	/* Instance types to add to, or replace in, the instance data in use
	 * (a site's own types, or a correction ahead of a release): a JSON
	 * document {"schema_version": 1, "instances": [...]} whose entries
	 * have the fields of instances.json's. A type already in the data is
	 * replaced whole, a new one appended. NULL buf: none. Parsed and
	 * validated by smp_context_new() (SMP_EPARSE with err's source,
	 * line and column); not kept. */
	struct smp_memory_doc instance_overlay;
	/* The time (seconds since the epoch) that the until= dates of
	 * suppression comments are compared with; 0: the current time. */
	int64_t now;
	/* Version 4. Which rules run, as ruff's --select and --ignore: each
	 * entry a rule id, a group name (struct smp_rule_info's group:
	 * "instance", "script", ...) or "ALL", matched exactly. A rule runs
	 * when the most specific entry of select naming it (its id over its
	 * group over ALL; count 0 selects ALL) is more specific than every
	 * entry of ignore naming it (ignore wins a tie): ignore "script" with
	 * select "script-cuda-device" keeps that one script rule. overrides
	 * then set the severity of the rules that run; a rule that does not
	 * run stays off whatever its override. An unknown entry is
	 * SMP_EINVAL, err's message naming it (with a did-you-mean). */
	struct smp_names select;
	struct smp_names ignore;
	/* Version 5. The AWS region the jobs run in ("us-west-2") where a
	 * spec does not name one itself (an image URI's ECR host does). NULL:
	 * unknown, and the region checks stay quiet. The library reads no
	 * environment: the CLI passes --region, else AWS_REGION, else
	 * AWS_DEFAULT_REGION. Copied. */
	const char *region;
};

#define SMP_OPTIONS_INIT                                                       \
	{                                                                      \
		.version = SMP_OPTIONS_VERSION                                 \
	}

/*
 * Fills *opts with the defaults for the layout `version` (pass
 * SMP_OPTIONS_VERSION) and sets opts->version. SMP_EINVAL for a NULL opts
 * or a version this library does not know; nothing past a struct of that
 * version is written.
 */
int smp_options_init(struct smp_options *opts, unsigned int version);

/* Immutable after creation; may be shared by threads checking at once. */
struct smp_context;

/*
 * Creates a context: copies the options (NULL: the defaults) and loads
 * the instance data. On failure returns a negative code, fills err (may
 * be NULL) and sets *out to NULL; SMP_EINVAL for a NULL out.
 */
int smp_context_new(struct smp_context **out, const struct smp_options *opts,
		    struct smp_error *err);

/* Frees a context and everything it owns; NULL is a no-op. Free the
 * reports, suggestions, baselines and emitters made with it first. */
void smp_context_free(struct smp_context *ctx);

/* The loaded instance data: its data_version and generated date ("" for
 * a NULL ctx). */
const char *smp_context_data_version(const struct smp_context *ctx);
const char *smp_context_data_date(const struct smp_context *ctx);

/* How a finding's suggestion applies (struct smp_finding). */
enum smp_suggestion_op {
	SMP_SUGGESTION_NONE = 0,
	SMP_SUGGESTION_SET = 1,   /* set the pointer to the value */
	SMP_SUGGESTION_RENAME = 2 /* rename the key at from */
};

/* The JSON type of a suggested value. */
enum smp_value_type {
	SMP_VALUE_STRING = 0,
	SMP_VALUE_NUMBER = 1,
	SMP_VALUE_BOOLEAN = 2
};

/* One finding; every string is owned by the report. */
struct smp_finding {
	const char *
		rule; /* stable kebab-case id, e.g. "gpu-num-devices-missing" */
	enum smp_severity severity;
	const char *message; /* lower-case start, no final full stop */
	/* the file the finding is in: the name given to the check, or the
	 * path of the entry script (spec folder, source_dir, entry point)
	 * for a finding of the script's code; line and column are then the
	 * script's and it has no pointer (NULL or "") */
	const char *file;
	uint32_t line;   /* 1-based; 0 when the finding has no position */
	uint32_t column; /* 1-based, in characters */
	uint32_t end_line;
	uint32_t end_column; /* exclusive */
	const char *
		pointer; /* JSON Pointer, e.g. "/environment/GPU_NUM_DEVICES" */
	const char *fix; /* how to fix it, or NULL */
	/* the suggested value as text ("8", "42", "true", a key name), or
	 * NULL; suggestion_op and suggestion_type below say how it applies
	 * (docs/API.md, "Suggestions") */
	const char *suggestion;
	const char *source_line; /* the text of `line`, or NULL */
	/* 1 when an inline "# sm-preflight: ignore[rule] reason" comment
	 * suppresses it: emitters hide it from text output and mark it
	 * suppressed in SARIF. */
	int suppressed;
	const char *suppression_reason; /* the comment's reason, or NULL */
	/* In a Jupyter notebook: the 1-based cell (counting every cell),
	 * and line and column within it; line and column above are then
	 * those of the notebook's JSON file. 0 when not in a notebook. */
	uint32_t cell;
	uint32_t cell_line;
	uint32_t cell_column;
	uint32_t cell_end_column; /* exclusive, on cell_line; 0 if none */
	/* The suggestion as a replacement a program can apply to the spec's
	 * data (JSON Patch, RFC 6902, in other words): SET puts the value
	 * `suggestion`, of JSON type suggestion_type, at the JSON Pointer
	 * suggestion_pointer (added or replaced, RFC 6902 "add"); RENAME
	 * moves the member at suggestion_from to suggestion_pointer, whose
	 * last segment is the new key `suggestion` (RFC 6902 "move"). NONE
	 * (suggestion NULL): no replacement. Within one job no two findings
	 * suggest different replacements for the same pointer. */
	enum smp_suggestion_op suggestion_op;
	enum smp_value_type suggestion_type;
	const char *suggestion_pointer;
	const char *suggestion_from; /* RENAME only, else NULL */
	/* The suggestion as one byte edit of the checked text, when the
	 * rule's fix applies itself (README "Fixing"): text[edit_start,
	 * edit_end) becomes edit_text (NULL: no edit); edit_unsafe 1 when
	 * it changes what is trained (applied with --unsafe-fixes only). */
	const char *edit_text;
	size_t edit_start;
	size_t edit_end;
	int edit_unsafe;
};

/* The findings of one checked buffer or file, in source order. */
struct smp_report;

/*
 * How a spec is written. AUTO: JSON when the name ends in ".json", YAML
 * when it ends in ".yaml" or ".yml", else JSON when the first non-blank
 * byte is '{' or '[', else YAML. Values may be added (other input forms).
 */
enum smp_input_format {
	SMP_INPUT_AUTO = 0,
	SMP_INPUT_YAML = 1,
	SMP_INPUT_JSON = 2
};

struct smp_baseline;

#define SMP_CHECK_OPTIONS_VERSION 2

/*
 * smp_check_options.flags (version 2). SMP_CHECK_WALKED: the file was
 * found by walking a folder, not named by the user. Then a file whose
 * content shows no training job (no estimator, ModelTrainer,
 * CreateTrainingJob request, DescribeTrainingJob response or pipeline
 * definition; a .py or notebook that never calls a SageMaker job class
 * through its imports) gets no finding at all, and a job that neither
 * enables Training Compiler nor shows the intent to (a compiler image,
 * sagemaker_training_compiler_* hyperparameters, compiler_config or a
 * near-miss of it, pytorchxla, GPU_NUM_DEVICES, a TrainingCompilerConfig
 * import) is not judged; smp_report_jobs() and smp_report_jobs_skipped()
 * say what was found. Files that cannot be read or parsed are reported
 * as always. SMP_CHECK_ALL_JOBS (with WALKED): every job found is judged.
 * SMP_CHECK_NO_EDITS: the findings' byte edits (edit_text, edit_start,
 * edit_end, edit_unsafe) are not worked out and stay NULL and 0, for a
 * caller that neither applies fixes nor shows the edits (the fix
 * suggestions' text is there as always). SMP_CHECK_RUN_SAID: the rules
 * said once per run (smp_rule_info.once_per_run) were said by an earlier
 * check of the caller's run, whose later reports drop them
 * (smp_report_remove_rule()): they are not worked out, unless the spec
 * has an inline suppression (which may name one of them).
 */
#define SMP_CHECK_WALKED 1u
#define SMP_CHECK_ALL_JOBS 2u
#define SMP_CHECK_NO_EDITS 4u
#define SMP_CHECK_RUN_SAID 8u

/* Per-check options; NULL options mean the defaults (all zero). */
struct smp_check_options {
	unsigned int version;
	/* Also compare every job with this native run (smp_baseline_new()):
	 * learning-rate-not-scaled and baseline-drift findings.
	 * NULL: no comparison. */
	const struct smp_baseline *baseline;
	/* Where the entry scripts the spec names are looked for. NULL: a
	 * file's own folder; for a buffer, the context's script_base_dir
	 * (and nowhere when that is NULL too). */
	const char *script_dir;
	/* How the spec is written; AUTO decides from the name and bytes. */
	enum smp_input_format format;
	/* Version 2. SMP_CHECK_WALKED, SMP_CHECK_ALL_JOBS, SMP_CHECK_NO_EDITS,
	 * SMP_CHECK_RUN_SAID;
	 * 0: the file was named by the user, every job in it is judged and
	 * the findings carry their edits. */
	unsigned int flags;
};

#define SMP_CHECK_OPTIONS_INIT                                                 \
	{                                                                      \
		.version = SMP_CHECK_OPTIONS_VERSION                           \
	}

/* As smp_options_init(), for struct smp_check_options. */
int smp_check_options_init(struct smp_check_options *opts,
			   unsigned int version);

/*
 * Checks one spec: buf[0..len) when buf is non-NULL (name labels the
 * findings: a path or "<stdin>"), else the file at the path name (an
 * unreadable one is SMP_EIO with err filled; one over the size limit an
 * `input-limit` finding). A spec that cannot be parsed is a `syntax`
 * finding, not an error. Returns 0 with *out set; SMP_EINVAL for a NULL
 * out, ctx or name or bad options; SMP_ENOMEM.
 */
int smp_check(struct smp_report **out, const struct smp_context *ctx,
	      const char *name, const char *buf, size_t len,
	      const struct smp_check_options *opts, struct smp_error *err);

/* The two common cases, with the default options: smp_check(out, ctx,
 * name, buf, len, NULL, err) for a buffer (buf may be NULL only with len
 * 0: an empty spec) and smp_check(out, ctx, path, NULL, 0, NULL, err)
 * for a file. */
int smp_check_buffer(struct smp_report **out, const struct smp_context *ctx,
		     const char *name, const char *buf, size_t len,
		     struct smp_error *err);
int smp_check_file(struct smp_report **out, const struct smp_context *ctx,
		   const char *path, struct smp_error *err);

/* Frees a report and its findings; NULL is a no-op. */
void smp_report_free(struct smp_report *report);

/* The number of findings, suppressed ones included; 0 for NULL. */
size_t smp_report_count(const struct smp_report *report);

/*
 * The jobs the check judged, and those it found but did not judge (not
 * Training Compiler jobs, in a walk: SMP_CHECK_WALKED); 0 for NULL. A
 * walked file with neither, and no finding, holds no training job.
 */
size_t smp_report_jobs(const struct smp_report *report);
size_t smp_report_jobs_skipped(const struct smp_report *report);

/* The i-th finding, or NULL when i is out of range or report NULL. */
const struct smp_finding *smp_report_get(const struct smp_report *report,
					 size_t i);

/* The highest severity among the findings that are not suppressed; OFF
 * when there are none. */
enum smp_severity smp_report_max_severity(const struct smp_report *report);

/*
 * Removes every finding of rule (a rule id) from report, which the
 * caller owns; the others keep their order (smp_report_get() indexes
 * move up). For a caller that checks many files as one run and says a
 * once-per-run rule (smp_rule_info.once_per_run) only in the first report
 * that has it. Returns the number removed (0 for a NULL report or rule).
 */
size_t smp_report_remove_rule(struct smp_report *report, const char *rule);

/* Static information about a rule. */
struct smp_rule_info {
	const char *id;
	enum smp_severity default_severity;
	const char *group;
	const char *summary;
	const char *explanation;
	const char *source; /* where the rule comes from (seed, SDK rule) */
	/* 1 when the rule says one thing about every job alike and is said
	 * once per run: a caller that checks many files as one run keeps
	 * its first finding (in output order) and removes it from the later
	 * reports with smp_report_remove_rule(); within one report it is
	 * said once already. Appended in 0.x; the library owns the struct. */
	int once_per_run;
};

/* The number of rules this library knows. */
size_t smp_rule_count(void);
/* The i-th rule in table order, or NULL when i is out of range. */
const struct smp_rule_info *smp_rule_at(size_t i);
/* The rule with this id, or NULL (also for a NULL id). */
const struct smp_rule_info *smp_rule_find(const char *id);

/*
 * Output sink: called with consecutive pieces of output; returns 0 to go
 * on or non-zero to stop (the emitter then returns SMP_EIO).
 */
typedef int (*smp_write_fn)(void *ud, const char *data, size_t len);

#define SMP_TEXT_COLOR 1u /* ANSI colours */

/*
 * Writes the findings of a report as text: one
 * "file:line:col: severity: message [rule]" line, the source excerpt with
 * a caret and the fix line. Findings below min_severity and suppressed
 * findings are skipped.
 */
int smp_emit_text(const struct smp_report *report,
		  enum smp_severity min_severity, unsigned int flags,
		  smp_write_fn write, void *ud);
/* (SMP_EINVAL for a NULL report or write.) */

/*
 * Ready-made sinks, so that any emitter (smp_emit_text(),
 * smp_suggestion_emit_text(), ...) can write to a stream or a buffer.
 *
 * smp_file_write_fn() is an smp_write_fn whose ud is a FILE * the caller
 * opened (declared void * so that this header needs no <stdio.h>); it
 * returns non-zero when fwrite() fails or the stream is NULL, and the
 * caller keeps the stream. Example: smp_emit_text(rep, SMP_SEVERITY_INFO,
 * 0, smp_file_write_fn, stdout).
 */
int smp_file_write_fn(void *file, const char *data, size_t len);

/*
 * A caller-provided fixed buffer, filled snprintf-style by
 * smp_membuf_write_fn() (an smp_write_fn whose ud is a struct smp_membuf *):
 * at most size - 1 bytes are stored and buf stays NUL-terminated after
 * every write; len counts every byte written, including those that did
 * not fit, so the output was truncated exactly when len >= size. Start
 * with len 0 and buf[0] = '\0'. Fails (non-zero) only for a NULL membuf.
 */
struct smp_membuf {
	char *buf;   /* the caller's storage; NULL only with size 0 */
	size_t size; /* bytes of buf */
	size_t len;  /* bytes of output so far, stored or not */
};

int smp_membuf_write_fn(void *membuf, const char *data, size_t len);

/*
 * smp_emit_text() into the caller's buf[0..size), NUL-terminated when
 * size > 0; *needed (may be NULL) receives the full length of the text
 * without the NUL. The text was truncated when *needed >= size: call
 * again with a buffer of *needed + 1 bytes (size 0 and buf NULL just
 * measure). Returns 0, or SMP_EINVAL for a NULL report or a NULL buf with
 * size > 0. Nothing is allocated.
 */
int smp_report_render_text(char *buf, size_t size, size_t *needed,
			   const struct smp_report *report,
			   enum smp_severity min_severity, unsigned int flags);

/*
 * Output formats for a whole run (`check --format`): one document that
 * covers every checked file.
 *
 *   TEXT    smp_emit_text() for each file, one after the other
 *   JSON    one object: schema_version (SMP_REPORT_SCHEMA_VERSION, see
 *           schemas/report.schema.json), tool, instance_data, one object
 *           per finding, and a summary (counts by severity, files, files
 *           with errors, suppressed findings)
 *   SARIF   SARIF 2.1.0 for GitHub code scanning: one run, every rule
 *           with its descriptions and help URI, one result per finding
 *           with a physical location; suppressed findings carry an
 *           inSource suppression with their reason
 *   GITHUB  GitHub Actions workflow commands, one line per finding:
 *           "::error file=F,line=L,col=C,endLine=..,endColumn=..,
 *           title=RULE::MESSAGE" (warning, notice for the others)
 *   JUNIT   JUnit XML valid against the Ant and the Jenkins xUnit
 *           schemas: one <testsuite> (timestamp, hostname), one
 *           <testcase> per file, one <failure> for a file with findings
 *           at or above fail_on (all of them in its text), the other
 *           findings in the suite's <system-out>
 *
 * Suppressed findings (smp_finding.suppressed) are left out of TEXT,
 * GITHUB and JUNIT, and kept but marked in JSON and SARIF.
 */
enum smp_format {
	SMP_FORMAT_TEXT = 0,
	SMP_FORMAT_JSON = 1,
	SMP_FORMAT_SARIF = 2,
	SMP_FORMAT_GITHUB = 3,
	SMP_FORMAT_JUNIT = 4
};

/* "text", "json", "sarif", "github" or "junit"; "?" when out of range. */
const char *smp_format_name(enum smp_format format);

/* Parses a format name; returns SMP_EINVAL when it is none of them. */
int smp_format_parse(enum smp_format *out, const char *name);

/* The "schema_version" of the JSON report, raised on incompatible change. */
#define SMP_REPORT_SCHEMA_VERSION 2

/*
 * The emitter options' layout version (docs/API.md, "ABI"): version 1
 * ends at rules_uri; version 2 adds timestamp and hostname; version 3
 * source_root and base_dir.
 */
#define SMP_EMITTER_OPTIONS_VERSION 3

/* Start from SMP_EMITTER_OPTIONS_INIT; NULL options mean the defaults. */
struct smp_emitter_options {
	unsigned int version;
	/* Findings below it are left out of every format (default INFO:
	 * all of them). */
	enum smp_severity min_severity;
	/* JUNIT: findings at or above it are <failure>s (default ERROR). */
	enum smp_severity fail_on;
	/* TEXT: SMP_TEXT_COLOR, as for smp_emit_text(). */
	unsigned int text_flags;
	/* SARIF: where docs/rules.md is published. Each rule's helpUri is
	 * rules_uri + "#" + rule id, and the driver's informationUri is
	 * rules_uri, both only when rules_uri is absolute (SARIF wants
	 * absolute URIs there); the default, "docs/rules.md", gives no
	 * helpUri and SMP_SARIF_INFORMATION_URI as informationUri.
	 * Copied. */
	const char *rules_uri;
	/* Version 2. JUNIT: the <testsuite>'s timestamp, seconds since the
	 * epoch, written in UTC as YYYY-MM-DDTHH:MM:SS. The library never
	 * reads the clock: 0 writes 1970-01-01T00:00:00 (the CLI passes the
	 * start of the run, or SOURCE_DATE_EPOCH). */
	int64_t timestamp;
	/* Version 2. JUNIT: the <testsuite>'s hostname; NULL or "" writes
	 * "localhost". Copied. */
	const char *hostname;
	/* Version 3. SARIF: the source root, an absolute folder ("/src/repo";
	 * the CLI's --sarif-root, GITHUB_WORKSPACE or the git top level: the
	 * library reads no environment). A file below it gets an
	 * artifactLocation relative to it with uriBaseId "%SRCROOT%", and
	 * the run's originalUriBaseIds gives %SRCROOT% as a file:// URI; a
	 * file outside it an absolute file:// URI. NULL: the names as given,
	 * no uriBaseId. A relative root is SMP_EINVAL. Copied. */
	const char *source_root;
	/* Version 3. SARIF: the absolute folder that relative file names are
	 * relative to (the caller's working directory); NULL: source_root.
	 * A relative base_dir is SMP_EINVAL. Copied. */
	const char *base_dir;
};

/* The SARIF driver's informationUri when rules_uri is not absolute: the
 * AWS documentation of SageMaker Training Compiler, which every rule
 * checks against (the tool has no public home page). */
#define SMP_SARIF_INFORMATION_URI                                              \
	"https://docs.aws.amazon.com/sagemaker/latest/dg/"                     \
	"training-compiler.html"

#define SMP_EMITTER_OPTIONS_INIT                                               \
	{                                                                      \
		.version = SMP_EMITTER_OPTIONS_VERSION,                        \
		.min_severity = SMP_SEVERITY_INFO,                             \
		.fail_on = SMP_SEVERITY_ERROR                                  \
	}

/* As smp_options_init(), for struct smp_emitter_options. */
int smp_emitter_options_init(struct smp_emitter_options *opts,
			     unsigned int version);

/*
 * A multi-file emitter: one output document built from the reports of a
 * run. Create it for a format and a sink, add each file's report in the
 * order they should appear (sort them by file name for output that does
 * not depend on how the files were found or checked), and finish it,
 * which writes the end of the document (the JSON summary, the closing
 * brackets, the whole JUnit document). Reports can be freed as soon as
 * smp_emitter_add() returns: the emitter keeps counts, not findings
 * (JUNIT keeps the text of its testcases until the end, because its
 * counts come first). Not thread-safe: one thread adds.
 */
struct smp_emitter;

/*
 * Creates an emitter writing to write(ud, ...). ctx (borrowed: free the
 * emitter first) gives the allocator and the instance-data version the
 * JSON and SARIF outputs name. Nothing is written yet. Returns 0,
 * SMP_EINVAL (bad format or options, NULL ctx or write) or SMP_ENOMEM.
 */
int smp_emitter_new(struct smp_emitter **out, const struct smp_context *ctx,
		    enum smp_format format,
		    const struct smp_emitter_options *opts, smp_write_fn write,
		    void *ud);

/*
 * Writes the findings of one checked file. Returns 0; SMP_EIO once the
 * sink has refused a write; SMP_ENOMEM; SMP_EINVAL after finish. Every
 * later call returns the same error.
 */
int smp_emitter_add(struct smp_emitter *em, const struct smp_report *report);

/*
 * Records that file could not be checked at all (it could not be read,
 * or checking it failed: out of memory, an internal error); message says
 * why ("No such file or directory"). Each format carries it where its
 * consumers look: JSON an "errors" entry and summary "files_failed",
 * SARIF a toolExecutionNotification of the run's invocation (with
 * executionSuccessful false), JUnit a testcase with an <error>, GitHub an
 * ::error annotation. TEXT writes nothing: text is read by people, to
 * whom the caller reports it (the CLI on stderr). Returns 0, SMP_EINVAL
 * (a NULL argument, or after finish), or an error as for
 * smp_emitter_add().
 */
int smp_emitter_add_failure(struct smp_emitter *em, const char *file,
			    const char *message);

/* Ends the document (also when no report was added). 0 or an error as
 * for smp_emitter_add(). */
int smp_emitter_finish(struct smp_emitter *em);

/*
 * What a walk skipped (SMP_CHECK_WALKED): files without a training job,
 * and the jobs judged and not judged, for the JSON summary's "walk"
 * object (other formats ignore it). Call before smp_emitter_finish();
 * without the call the summary has no "walk". SMP_EINVAL for a NULL em.
 */
int smp_emitter_walk_summary(struct smp_emitter *em, size_t files_skipped,
			     size_t jobs, size_t jobs_not_judged);

/* Frees an emitter (finished or not: nothing more is written); NULL is a
 * no-op. */
void smp_emitter_free(struct smp_emitter *em);

/*
 * Baseline comparison (`check --baseline`): a native run and its compiled
 * twin should differ only in the compiler, the batch size and the
 * learning rate (troubleshooting guide). A baseline is the first job of a
 * native spec, parsed once and compared with every compiled spec checked
 * against it: `learning-rate-not-scaled` and `baseline-drift` findings,
 * positioned in the compiled spec.
 */
struct smp_baseline;

/*
 * Parses the native spec buf[0..len) named name, or the file at the path
 * name when buf is NULL, into a baseline (compare with it through
 * smp_check_options.baseline). A spec that cannot be parsed or holds no
 * job mapping returns SMP_EPARSE with err naming the file, line and
 * column; its other findings are ignored; an unreadable file is SMP_EIO;
 * a NULL out, ctx or name SMP_EINVAL. The baseline borrows ctx: free it
 * before the context.
 */
int smp_baseline_new(struct smp_baseline **out, const struct smp_context *ctx,
		     const char *name, const char *buf, size_t len,
		     struct smp_error *err);

/* Frees a baseline; NULL is a no-op. */
void smp_baseline_free(struct smp_baseline *baseline);

/*
 * Batch-size and learning-rate suggestions (README "Suggestions", `sm-
 * preflight suggest`). global batch = per-GPU batch x GPUs per instance x
 * instances; the new per-GPU batch comes from the tested-models row for
 * the job (never invented), k = new global / old global, and the learning
 * rate is scaled by k or sqrt(k) as the context's lr_scaling says.
 */
#define SMP_SUGGEST_OPTIONS_VERSION 1

/* Start from SMP_SUGGEST_OPTIONS_INIT; NULL options mean the defaults. */
struct smp_suggest_options {
	unsigned int version;
	/* Move the job to this instance type ("ml.p4d.24xlarge"); NULL keeps
	 * the job's. The instance count stays. */
	const char *to_instance;
};

#define SMP_SUGGEST_OPTIONS_INIT                                               \
	{                                                                      \
		.version = SMP_SUGGEST_OPTIONS_VERSION                         \
	}

/* As smp_options_init(), for struct smp_suggest_options. */
int smp_suggest_options_init(struct smp_suggest_options *opts,
			     unsigned int version);

enum smp_suggest_outcome {
	/* a new batch from a tested row, with k and the learning rate */
	SMP_SUGGEST_OK = 0,
	/* no tested row applies: no batch is suggested, except that a move
	 * (to_instance) keeps the per-GPU batch and shows the arithmetic */
	SMP_SUGGEST_NO_ROW = 1,
	/* something the arithmetic needs is missing (no job, no GPU
	 * instance, no batch or model hyperparameter): see message */
	SMP_SUGGEST_UNAVAILABLE = 2,
	/* the spec has error-level findings: fix them first */
	SMP_SUGGEST_ERRORS = 3
};

/* How the tested row relates to the job. */
enum smp_row_relation {
	SMP_ROW_RELATION_NONE = 0,
	SMP_ROW_RELATION_EXACT = 1,   /* same framework, versions, model and
					 instance type */
	SMP_ROW_RELATION_SAME_GPU = 2 /* same model and framework on an
					 instance with the same GPU model and
					 per-GPU memory */
};

/*
 * One row of the tested-models table. Batch sizes are per GPU, except in
 * the TensorFlow vision rows, which give the batch of all GPUs of the
 * instance together (batch_per_instance); compiler_batch_per_gpu is the
 * per-GPU figure either way.
 */
struct smp_tested_row {
	const char *framework;            /* "pytorch", "tensorflow" */
	const char *framework_version;    /* "1.11.0" */
	const char *transformers_version; /* NULL unless Hugging Face */
	const char *model;                /* as the AWS page writes it */
	const char *instance_type;
	const char *precision; /* NULL: the table's heading says AMP */
	int sequence_length;   /* 0 when the table gives none */
	int instance_count;    /* 0 when the table has no such column */
	int native_batch_size; /* 0 when the page leaves it blank */
	int compiler_batch_size;
	int batch_size_is_lower_bound; /* the instance may fit more */
	int batch_per_instance;
	double compiler_batch_per_gpu;
};

/* The job on one instance type: before, or after the suggestion. */
struct smp_suggest_side {
	const char *instance_type; /* NULL when unknown */
	int gpus;                  /* per instance; 0 when unknown */
	long long instance_count;
	const char *gpu_model; /* "V100", or NULL */
	double gpu_memory_gib; /* per GPU */
	double batch_per_gpu;  /* 0 when unknown */
	double global_batch;   /* batch_per_gpu x gpus x instance_count */
	double learning_rate;  /* 0 when the spec sets none */
};

/*
 * A suggestion: read-only, every string owned by it. `now` is the job as
 * written; `next` is filled when a batch is suggested (OK, or NO_ROW with
 * a move), and k is then next->global_batch / now->global_batch (else 0,
 * and *next all zero). Both point into the suggestion, never NULL, so
 * that struct smp_suggest_side can grow.
 */
struct smp_suggestion {
	enum smp_suggest_outcome outcome;
	const char *file;
	/* one line saying what was concluded (or why nothing applies) */
	const char *message;
	const char *model;         /* the model hyperparameter, or NULL */
	const char *batch_name;    /* the batch hyperparameter, or NULL */
	int batch_is_global;       /* its value is the global batch */
	const char *batch_reading; /* "per-GPU batch 24 (per GPU, from ...)" */
	const char *lr_name;       /* the learning-rate hyperparameter */
	enum smp_lr_scaling lr_scaling;
	const struct smp_suggest_side *now;
	const struct smp_suggest_side *next;
	double k;
	enum smp_row_relation relation;
	const struct smp_tested_row *row; /* NULL when none applies */
	const char *row_choice;           /* how the row was chosen, or NULL */
	/* remarks, one per line ("per-GPU memory drops ..."), or NULL */
	const char *notes;
	/* the changed part of the spec in its own keys and format (YAML or
	 * JSON), ready to paste; NULL when nothing changes */
	const char *fragment;
	/* the findings of checking the spec (borrowed from the suggestion) */
	const struct smp_report *report;
	/* the whole spec with the change made as exact byte edits and then
	 * the safe fixes it needs (smp_fix(): the distribution and
	 * GPU_NUM_DEVICES a move to more GPUs asks for), which the fragment
	 * shows too; NULL when nothing changes. NUL-terminated. */
	const char *patched;
	size_t patched_len;
};

/*
 * Checks the spec buf[0..len) (or the file at the path name when buf is
 * NULL, as smp_check() does) and suggests a batch size and learning rate
 * for its first job. Returns 0 with *out set whatever the outcome;
 * SMP_EINVAL (err says why) for a NULL out, ctx or name, bad options, or
 * when opts->to_instance is not a known GPU instance type that Training
 * Compiler supports; SMP_EIO for an unreadable file; SMP_ENOMEM.
 */
int smp_suggest(struct smp_suggestion **out, const struct smp_context *ctx,
		const char *name, const char *buf, size_t len,
		const struct smp_suggest_options *opts, struct smp_error *err);

/* Frees a suggestion and its report; NULL is a no-op. */
void smp_suggestion_free(struct smp_suggestion *suggestion);

/*
 * Writes a suggestion as text: the conclusion, the tested row and how it
 * was chosen, the batch now and suggested, k and the learning-rate
 * arithmetic, notes, and the spec fragment to paste.
 */
int smp_suggestion_emit_text(const struct smp_suggestion *suggestion,
			     smp_write_fn write, void *ud);

/*
 * Fixes (README "Fixing", `sm-preflight check --fix`): each finding's
 * suggestion, where its rule declares the fix safe (or unsafe, with
 * unsafe_fixes), applied to the spec as exact byte edits of the YAML or
 * JSON text it came from; every byte outside the edited spans stays.
 * Edits that overlap in one pass: the first applies, the others wait for
 * the next pass, which checks the new text again, until no fix is left
 * or max_passes passes ran.
 */
#define SMP_FIX_OPTIONS_VERSION 2

struct smp_fix_options {
	unsigned int version;
	/* also apply the fixes that change what is trained (batch size,
	 * learning rate, instance type, versions) */
	int unsafe_fixes;
	/* check-and-fix passes at most; 0 means SMP_FIX_PASSES_DEFAULT */
	unsigned int max_passes;
	/* as struct smp_check_options */
	const char *script_dir;
	enum smp_input_format format;
	/* also compare every job with this native run, as
	 * smp_check_options.baseline (its learning-rate-not-scaled and
	 * baseline-drift fixes); NULL: no comparison */
	const struct smp_baseline *baseline;
	/* Version 2. SMP_CHECK_WALKED, SMP_CHECK_ALL_JOBS as in
	 * smp_check_options.flags (a file a walk found fixes only the jobs
	 * a check of it judges); SMP_CHECK_NO_EDITS is ignored. */
	unsigned int flags;
};

#define SMP_FIX_PASSES_DEFAULT 10

#define SMP_FIX_OPTIONS_INIT                                                   \
	{                                                                      \
		.version = SMP_FIX_OPTIONS_VERSION                             \
	}

/* As smp_options_init(), for struct smp_fix_options. */
int smp_fix_options_init(struct smp_fix_options *opts, unsigned int version);

/* One fix that was applied: the finding it answered, in the text of the
 * pass that applied it, and its edit of that text. */
struct smp_fix_applied {
	const char *rule;    /* the finding's rule id */
	const char *message; /* the finding's message */
	const char *fix;     /* the finding's fix text, or NULL */
	const char *pointer; /* the JSON Pointer the patch set or renamed */
	uint32_t line;       /* where the finding was, 1-based */
	uint32_t column;
	int unsafe;        /* applied only because of unsafe_fixes */
	unsigned int pass; /* 1 for the first pass */
	size_t start;      /* its edit: text[start, end) of that pass's */
	size_t end;        /* input became replacement */
	const char *replacement;
	/* the value set (the finding's suggestion), of JSON type type; the
	 * new key for a rename */
	const char *value;
	enum smp_value_type type;
};

/*
 * The outcome of smp_fix(): read-only, every string and the report owned
 * by it (freed by smp_fix_result_free()); the caller may only trim the
 * report with smp_report_remove_rule().
 */
struct smp_fix_result {
	const char *text; /* the fixed spec, NUL-terminated; the input */
	size_t len;       /* itself when nothing applied */
	int changed;      /* text differs from the input */
	const struct smp_fix_applied *applied;
	size_t applied_count;
	unsigned int passes; /* checks run */
	/* 1 when the last check found no fix left to apply; 0 when
	 * max_passes ran out first */
	int converged;
	/* fixes left because they are unsafe and unsafe_fixes is off */
	size_t unsafe_skipped;
	/* the findings of checking text (what is left to fix by hand) */
	struct smp_report *report;
};

/*
 * Checks buf[0..len) (name as for smp_check(); buf is required) and
 * applies its fixes as above. Returns 0 with *out set; SMP_EINVAL for a
 * NULL out, ctx, name or buf or bad options; SMP_ENOMEM. In a Python
 * launcher only literals are replaced (a computed value never is) and
 * keywords added; in a notebook only the literal a finding points at,
 * inside its cell's source string.
 */
int smp_fix(struct smp_fix_result **out, const struct smp_context *ctx,
	    const char *name, const char *buf, size_t len,
	    const struct smp_fix_options *opts, struct smp_error *err);

/* Frees a fix result and its report; NULL is a no-op. */
void smp_fix_result_free(struct smp_fix_result *result);

/*
 * Instance data: where the data in use comes from, and refreshing it
 * (`sm-preflight data`, `sm-preflight update-data`; README "Refreshing
 * instance data").
 *
 * A context without instance_data_dir uses the refreshed copy in
 * opts->cache_dir when it loads and validates and is not older than the
 * data embedded at build time, and the embedded data otherwise.
 */
enum smp_data_origin {
	SMP_DATA_BUILTIN = 0,   /* embedded at build time */
	SMP_DATA_DIRECTORY = 1, /* opts->instance_data_dir */
	SMP_DATA_CACHE = 2,     /* refreshed by smp_data_update() */
	SMP_DATA_MEMORY = 3     /* opts->instance_data, the caller's buffers */
};

/* Where the context's data came from (BUILTIN for a NULL ctx). */
enum smp_data_origin smp_context_data_origin(const struct smp_context *ctx);

/*
 * The source of the data, for reports: the URL the cached data was
 * downloaded from, the folder given as instance_data_dir, "memory" for
 * the caller's buffers (instance_data), or "built-in". Never NULL ("" for
 * a NULL ctx).
 */
const char *smp_context_data_source(const struct smp_context *ctx);

/* When the cached data was downloaded (seconds since the epoch); 0 for
 * the other origins and a NULL ctx. */
int64_t smp_context_data_fetched(const struct smp_context *ctx);

/*
 * How many days the source of refreshed data vouches for it (the
 * "max_age_days" of the index.json it was downloaded with): the default
 * limit of the data-stale check. 0 when no limit is declared, and always
 * for the built-in data (AWS publishes no new Training Compiler releases:
 * that catalog is frozen, not ageing), a folder or caller buffers, or a
 * NULL ctx.
 */
long smp_context_data_max_age(const struct smp_context *ctx);

/* Whole days from the data's generated date to now (seconds since the
 * epoch); -1 when the date is unknown or ctx NULL. Negative ages count
 * as 0. */
long smp_context_data_age(const struct smp_context *ctx, int64_t now);

/*
 * The `data-stale` check, made once per run rather than once per spec:
 * a report named after the data (its folder, or "<built-in instance
 * data>") that holds one finding without a position when the data's
 * generated date lies more than max_age_days days before now (seconds
 * since the epoch), and no finding otherwise or when the rule is off.
 * max_age_days < 1, a NULL out or ctx is SMP_EINVAL.
 */
int smp_check_data_age(struct smp_report **out, const struct smp_context *ctx,
		       int64_t now, long max_age_days, struct smp_error *err);

/*
 * What the cache folder holds, for `sm-preflight data`: fixed size, no
 * heap. Strings are empty when unknown.
 */
struct smp_cache_info {
	int present;            /* a refreshed copy exists */
	int valid;              /* it loads and passes validation */
	int older_than_builtin; /* valid, but the embedded data is newer */
	char path[1024];        /* the folder holding the copy */
	char url[1024];         /* where it was downloaded from */
	char data_version[32];
	char generated[16];
	int64_t fetched; /* download time, seconds since the epoch */
	int64_t checked; /* last successful update-data, changed or not */
	char error[512]; /* why it is not valid */
};

/*
 * Describes opts->cache_dir (NULL cache_dir: present is 0). Returns 0
 * whatever the cache holds; SMP_ENOMEM; SMP_EINVAL for a NULL out or opts
 * or bad options (version 0 or newer than the library among them).
 */
int smp_data_cache_info(struct smp_cache_info *out,
			const struct smp_options *opts, struct smp_error *err);

/*
 * Transport for smp_data_update(): one HTTP(S) GET (a proxy library, a
 * test double). The fetcher streams the body to req->write; the library keeps
 * it, enforces req->max_size there and retries transient failures.
 * smp_curl_fetch_fn() is the default; an embedder may supply its own.
 */
struct smp_fetch_request {
	const char *url;               /* http:// or https:// */
	const char *if_none_match;     /* ETag of the copy held, or NULL */
	const char *if_modified_since; /* its Last-Modified, or NULL */
	const char *ca_file; /* PEM certificates to trust; NULL: system's */
	const char *proxy;   /* proxy URL; NULL: none (never from env) */
	int allow_http;      /* plain http:// to a host other than loopback */
	long connect_timeout_ms;
	long timeout_ms; /* the whole transfer */
	size_t max_size; /* a longer body is refused */
	/* receives the body in pieces; non-zero stops the transfer */
	int (*write)(void *write_ud, const char *data, size_t len);
	void *write_ud;
};

struct smp_fetch_response {
	long status;    /* HTTP status of the final response; 0 if none */
	int transient;  /* a timeout or lost connection: worth a retry */
	int too_large;  /* the body exceeded max_size */
	char etag[256]; /* ETag of the response, or "" */
	char last_modified[128]; /* Last-Modified of the response, or "" */
	char error[256];         /* what went wrong, when not 0 */
};

/*
 * Performs req. Returns 0 when a response arrived (any status, in
 * resp->status) and SMP_EFETCH when none did (resp->error says why, and
 * resp->transient whether a retry may help); resp is zeroed by the caller.
 */
typedef int (*smp_fetch_fn)(void *ud, const struct smp_fetch_request *req,
			    struct smp_fetch_response *resp);

/*
 * The libcurl fetcher (an smp_fetch_fn): one easy handle per call, no signals,
 * TLS verification always on (TLS 1.2 or later), https only, or http too for
 * loopback hosts or allow_http, redirects (at most 5) only to https,
 * compressed transfer. ud is unused. libcurl (libcurl.so.4) is loaded
 * with dlopen() at the call, not linked: SMP_EFETCH says so when it is
 * missing. libcurl 7.84 or later with CURL_VERSION_THREADSAFE is
 * initialized here; with an older one, a threaded program calls
 * curl_global_init() before starting its threads.
 */
int smp_curl_fetch_fn(void *ud, const struct smp_fetch_request *req,
		      struct smp_fetch_response *resp);

/* Version 2 adds public_key and insecure_unsigned: from it on, data is
 * taken only when index.json is signed by the publisher's key. */
#define SMP_UPDATE_OPTIONS_VERSION 2

/* Start from SMP_UPDATE_OPTIONS_INIT; 0 and NULL select the defaults. */
struct smp_update_options {
	unsigned int version;
	/* Base URL of a folder serving instances.json, tested-models.json,
	 * frameworks.json and optionally index.json, as the repository's
	 * instance-data/ folder does. Required: there is no default host.
	 * https://, or http:// to loopback or with allow_http. */
	const char *url;
	smp_fetch_fn fetch; /* NULL: smp_curl_fetch_fn */
	void *fetch_ud;
	const char *ca_file;
	const char *proxy;
	int allow_http;
	long connect_timeout_ms; /* default 10000 (capped by timeout_ms) */
	long timeout_ms;         /* per request, default 60000 */
	size_t max_size;         /* per document, default 4 MiB */
	/* attempts per document on 5xx, 408, 429 and transient failures
	 * (default 3), waiting retry_delay_ms (default 500) doubled after
	 * each failed attempt */
	int max_attempts;
	long retry_delay_ms;
	/* waits between attempts; NULL: nanosleep. For tests. */
	void (*sleep_fn)(void *ud, long ms);
	void *sleep_ud;
	/* the time recorded as the download time; 0: now */
	int64_t now;
	/* Version 2. The data publisher's Ed25519 public key: a PEM "PUBLIC
	 * KEY" (openssl pkey -pubout) or its 32 bytes in base64, NUL-
	 * terminated. The source must serve index.json and index.json.sig,
	 * the key's signature of index.json's bytes (openssl pkeyutl -sign
	 * -rawin; raw or base64), and index.json must give the sha256 of the
	 * three files: a mirror that changes a fact cannot forge that. The
	 * check uses OpenSSL's libcrypto.so.3, loaded at the call. Copied. */
	const char *public_key;
	/* Version 2. 1: take data that is not signed (no public_key needed;
	 * index.json's digests are still checked when it is served). Only
	 * for a source you trust by other means. */
	int insecure_unsigned;
};

#define SMP_UPDATE_OPTIONS_INIT                                                \
	{                                                                      \
		.version = SMP_UPDATE_OPTIONS_VERSION                          \
	}

/* As smp_options_init(), for struct smp_update_options. */
int smp_update_options_init(struct smp_update_options *opts,
			    unsigned int version);

enum smp_data_change_kind {
	SMP_DATA_ADDED = 1,
	SMP_DATA_REMOVED = 2,
	SMP_DATA_CHANGED = 3
};

/* One instance type that differs between the old and the new data. */
struct smp_data_change {
	enum smp_data_change_kind kind;
	const char *instance_type;
	/* CHANGED: "gpus 4 -> 8, efa false -> true"; else NULL */
	const char *detail;
};

enum smp_update_outcome {
	SMP_UPDATE_UPDATED = 0,  /* the cache now holds different data */
	SMP_UPDATE_UNCHANGED = 1 /* the source serves the data in use */
};

/* What smp_data_update() did; read-only, every string owned by it. */
struct smp_update_result {
	enum smp_update_outcome outcome;
	const char *url; /* the base URL, with a final '/' */
	/* the data in use before (cache or built-in) and the data now */
	enum smp_data_origin old_origin;
	const char *old_version;
	const char *old_date;
	const char *new_version;
	const char *new_date;
	const struct smp_data_change *changes; /* instance types */
	size_t change_count;
	size_t old_tested_count; /* tested-model rows */
	size_t new_tested_count;
	size_t old_image_count; /* framework images */
	size_t new_image_count;
	int not_modified;       /* every document answered 304 */
	int verified;           /* index.json digests matched */
	int signature_verified; /* index.json.sig is public_key's signature */
	int older_than_builtin; /* stored, but the embedded data is newer
				   and stays in use */
	unsigned int requests;  /* HTTP requests, retries included */
};

/*
 * Downloads the instance data from update->url into opts->cache_dir
 * (created when missing) and reports what changed against the data a
 * context with the same opts used before. Conditional requests (ETag,
 * Last-Modified) make an unchanged source cost one small request per
 * document. The new documents replace the cache only when all three
 * parse, pass the catalog's validation with one data_version and a
 * schema_version this build reads, and match index.json's sha256 where
 * it gives them, index.json itself signed by update->public_key unless
 * update->insecure_unsigned; the replacement is atomic (a new folder written
 * and fsync'd, then a symlink renamed, under a lock), so a failure or a crash
 * at any point leaves the previous data in use.
 *
 * Returns 0 with *out set (UPDATED or UNCHANGED); SMP_EINVAL for a NULL
 * out or update, or bad options (no url or cache_dir, a plain-http URL to a
 * remote host, opts->offline set); SMP_EFETCH when a document could not be
 * downloaded (err->source is its URL); SMP_EPARSE when one is invalid (err
 * gives its URL, line and column); SMP_EIO when the cache cannot be written;
 * SMP_ENOMEM.
 */
int smp_data_update(struct smp_update_result **out,
		    const struct smp_options *opts,
		    const struct smp_update_options *update,
		    struct smp_error *err);

/* Frees an update result; NULL is a no-op. */
void smp_update_result_free(struct smp_update_result *result);

/*
 * Configuration files (`.sm-preflight.yaml`, schemas/config.schema.json):
 * parsed and validated by the library with the same loader and schema
 * checker as specs, so that an unknown or misspelled key is an error with
 * its line and column. Finding the files, merging them and turning them
 * into smp_options is the caller's (the CLI's) business.
 */

/* Where a value was written in its file: 1-based line and column. */
struct smp_config_pos {
	uint32_t line;
	uint32_t column;
};

/* A string setting; value is NULL when the file does not set it. */
struct smp_config_string {
	const char *value;
	struct smp_config_pos pos;
};

/* A list setting; set is 1 when the file has the key (count may be 0). */
struct smp_config_list {
	const char *const *items;
	size_t count;
	int set;
	struct smp_config_pos pos;
};

/* One entry of `rules:`, a rule id known to this library. */
struct smp_config_rule {
	const char *rule;
	enum smp_severity severity;
	struct smp_config_pos pos;
};

/*
 * A parsed configuration file: read-only, every string owned by it.
 * Fields may be appended in later versions (the library allocates it).
 */
struct smp_config {
	const char *name; /* as given to smp_config_parse() */
	/* `root: true`: no configuration further up applies */
	int root;
	struct smp_config_pos root_pos;
	struct smp_config_string fail_on;    /* "error", "warning", "info" */
	struct smp_config_string lr_scaling; /* "linear", "sqrt" */
	/* the instance_overlay file, relative to the configuration's folder
	 * unless absolute */
	struct smp_config_string instance_overlay;
	const struct smp_config_rule *rules; /* in file order */
	size_t rule_count;
	/* hyperparameter name lists (smp_options' names) */
	struct smp_config_list batch_size_names;
	struct smp_config_list learning_rate_names;
	struct smp_config_list model_names;
	struct smp_config_list global_batch_names;
	/* glob patterns of paths to skip when walking folders, relative to
	 * the configuration's folder */
	struct smp_config_list ignore;
	/* file name extensions a walked folder's specs have, without the
	 * dot ("yaml") */
	struct smp_config_list extensions;
	/* where `update-data` downloads from when no URL is given */
	struct smp_config_string data_url;
	/* `select:` and `ignore-rules:`, smp_options' select and ignore:
	 * rule ids, group names or "ALL", each checked (an unknown one is
	 * SMP_EPARSE at its position, with a did-you-mean) */
	struct smp_config_list select;
	struct smp_config_list ignore_rules;
	/* `all-jobs:`: 1 true, 0 false, -1 not set; a walk then judges every
	 * job found, not only Training Compiler ones */
	int all_jobs;
	struct smp_config_pos all_jobs_pos;
	/* `exclude:`: glob patterns, as `ignore`, that replace the default
	 * list of folders a walk never enters (ruff's `exclude`); set 0:
	 * the default list (or a farther file's `exclude`) stands */
	struct smp_config_list exclude;
	/* `extend-exclude:`: patterns added to the excluded ones, as `ignore`
	 * (ruff's name for it) */
	struct smp_config_list extend_exclude;
	/* `force-exclude:`: 1 true, 0 false, -1 not set; true: paths named
	 * on the command line are excluded by the patterns too */
	int force_exclude;
	struct smp_config_pos force_exclude_pos;
	/* `respect-gitignore:`: 1 true, 0 false, -1 not set; false: a walk
	 * also enters what git ignores */
	int respect_gitignore;
	struct smp_config_pos respect_gitignore_pos;
};

/*
 * Parses the configuration buf[0..len) named name (YAML, or JSON when the
 * name ends in ".json"). alloc NULL: malloc. An empty document is an empty
 * configuration. Returns 0 with *out set; SMP_EPARSE with err giving the
 * name, line, column and what is wrong (syntax, an unknown key with
 * did-you-mean, a wrong type, an unknown rule id); SMP_ENOMEM.
 */
int smp_config_parse(struct smp_config **out, const char *name, const char *buf,
		     size_t len, const struct smp_allocator *alloc,
		     struct smp_error *err);

/* Frees a parsed configuration; NULL is a no-op. */
void smp_config_free(struct smp_config *config);

/*
 * Diagnose (`sm-preflight diagnose`): the SageMaker Training Compiler
 * troubleshooting guide run against a job that already ran, from its
 * DescribeTrainingJob response (aws sagemaker describe-training-job,
 * boto3 describe_training_job; JSON or YAML). It tells which situation
 * the job is in (failed, does not converge like its native-framework
 * twin, not faster than it), the known causes that FailureReason and the
 * job's log show (a table of failure signatures, each with the guide
 * section it comes from), and the guide's checklist, each item found a
 * problem, looks right or cannot tell (with what would tell). The
 * checklist is the check's own findings on the response, and on the entry
 * script when a local copy of the code is given.
 */
#define SMP_DIAGNOSE_OPTIONS_VERSION 2

/* A reader: up to size bytes into buf, *got 0 at the end; non-zero when
 * the input cannot be read. */
typedef int (*smp_read_fn)(void *ud, char *buf, size_t size, size_t *got);

/* Start from SMP_DIAGNOSE_OPTIONS_INIT; NULL options mean the defaults. */
struct smp_diagnose_options {
	unsigned int version;
	/* The native-framework run of the same job (its DescribeTrainingJob
	 * response), for the metrics, the training time and the
	 * hyperparameters side by side; NULL: none. */
	const char *baseline_name;
	const char *baseline;
	size_t baseline_len;
	/* The job's CloudWatch log: the text `aws logs get-log-events
	 * --output text` or `aws logs filter-log-events --output text`
	 * prints, or plain text; NULL: none. */
	const char *log_name;
	const char *log;
	size_t log_len;
	/* A folder holding a local copy of the job's code (what the SDK
	 * uploaded as sagemaker_submit_directory): the entry script is read
	 * from it; NULL: the script is not read. */
	const char *source_dir;
	/* Since version 2: the log read in pieces instead of from log and
	 * log_len, so that a log of any size is searched in bounded memory
	 * and one pass: log_read(log_ud, buf, size, &got) puts up to size
	 * bytes in buf and returns 0, with got 0 at the end of the log, or
	 * non-zero when the log cannot be read (smp_diagnose_buffer() then
	 * returns SMP_EIO). NULL: the log is log[0..log_len). */
	smp_read_fn log_read;
	void *log_ud;
};

#define SMP_DIAGNOSE_OPTIONS_INIT                                              \
	{                                                                      \
		.version = SMP_DIAGNOSE_OPTIONS_VERSION                        \
	}

/* As smp_options_init(), for struct smp_diagnose_options. */
int smp_diagnose_options_init(struct smp_diagnose_options *opts,
			      unsigned int version);

/* Version of `diagnose --format json` (schemas/diagnosis.schema.json). */
#define SMP_DIAGNOSIS_SCHEMA_VERSION 1

/* Whether the job is in a situation, as far as the inputs show. */
enum smp_verdict {
	SMP_VERDICT_NO = 0,
	SMP_VERDICT_YES = 1,
	SMP_VERDICT_CANNOT_TELL = 2
};

/* One of the guide's situations: "failed", "not-converging",
 * "not-faster". */
struct smp_diagnosis_situation {
	const char *id;
	const char *title;   /* "the job failed" */
	const char *section; /* the guide section, by its title */
	enum smp_verdict verdict;
	/* what shows it, or (CANNOT_TELL) what would tell */
	const char *detail;
};

/* A known cause: a failure signature found in FailureReason or the log. */
struct smp_diagnosis_cause {
	const char *id;       /* "missing-xla-configuration", ... */
	const char *summary;  /* what went wrong */
	const char *page;     /* the AWS documentation page, by its title */
	const char *section;  /* its section, by its title */
	const char *advice;   /* what to do, with the job's numbers */
	const char *source;   /* "FailureReason" or the log's name */
	uint32_t line;        /* line in the log; 0 for FailureReason */
	const char *evidence; /* the matching text (a log message, trimmed) */
	unsigned int count;   /* how many times it was seen */
};

enum smp_item_state {
	SMP_ITEM_LOOKS_RIGHT = 0,
	SMP_ITEM_PROBLEM = 1,
	SMP_ITEM_CANNOT_TELL = 2
};

/* One checklist item of the guide. */
struct smp_diagnosis_item {
	const char *id;      /* "mark-step", "gpu-num-devices", ... */
	const char *title;   /* what the guide asks for */
	const char *page;    /* the AWS documentation page, by its title */
	const char *section; /* its section, by its title */
	enum smp_item_state state;
	/* PROBLEM: the finding's message; LOOKS_RIGHT: what was checked;
	 * CANNOT_TELL: why not */
	const char *detail;
	const char *rule; /* PROBLEM: the rule id of the finding */
	const char *file; /* PROBLEM: where the spec or script shows it */
	uint32_t line;
	uint32_t column;
	/* CANNOT_TELL: what would tell ("--source-dir DIR", "--log FILE",
	 * "--baseline NATIVE_DESCRIBE"); else NULL */
	const char *needs;
};

/* A hyperparameter side by side with the baseline's (NULL: not set). */
struct smp_diagnosis_hyperparameter {
	const char *name;
	const char *value;
	const char *baseline_value;
	int differs;
};

/* A diagnosis: read-only, every string owned by it. */
struct smp_diagnosis {
	const char *file;
	const char *job_name;       /* TrainingJobName, or NULL */
	const char *status;         /* TrainingJobStatus, or NULL */
	const char *failure_reason; /* FailureReason, or NULL */
	const char *instance_type;  /* ResourceConfig.InstanceType, or NULL */
	long long instance_count;
	int gpus;     /* GPUs per instance from the instance data; 0 unknown */
	int compiler; /* the job enables Training Compiler */
	const char *baseline_file; /* NULL without a baseline */
	const char *log_file;      /* NULL without a log */
	const struct smp_diagnosis_situation *situations;
	size_t situation_count;
	/* most likely first: FailureReason's, then the log's in order */
	const struct smp_diagnosis_cause *causes;
	size_t cause_count;
	const struct smp_diagnosis_item *items;
	size_t item_count;
	/* with a baseline: every hyperparameter of either job, by name */
	const struct smp_diagnosis_hyperparameter *hyperparameters;
	size_t hyperparameter_count;
	/* the findings of checking the response (and its script) */
	const struct smp_report *report;
};

/*
 * Diagnoses the job whose DescribeTrainingJob response is buf[0..len),
 * named name. Returns 0 with *out set; SMP_EPARSE (err gives the source,
 * line and column) when the response or the baseline cannot be read as a
 * job (syntax error, input limit, not a mapping, no job in it);
 * SMP_EINVAL for a NULL out, ctx or name, or a NULL buffer with a
 * non-zero length; SMP_ENOMEM. Nothing is printed.
 */
int smp_diagnose_buffer(struct smp_diagnosis **out,
			const struct smp_context *ctx, const char *name,
			const char *buf, size_t len,
			const struct smp_diagnose_options *opts,
			struct smp_error *err);

/* Frees a diagnosis; NULL is a no-op. */
void smp_diagnosis_free(struct smp_diagnosis *diagnosis);

/* 1 when the diagnosis found something: the job failed (TrainingJobStatus
 * Failed, even with no known cause), a known cause, or a checklist item
 * with a problem (`diagnose` exits 1); else 0. */
int smp_diagnosis_found(const struct smp_diagnosis *diagnosis);

/*
 * Writes a diagnosis as text a person reads top to bottom: the job, the
 * situation, the likely causes, then the checklist; or as one JSON object
 * (schemas/diagnosis.schema.json, schema_version
 * SMP_DIAGNOSIS_SCHEMA_VERSION). SMP_EINVAL for NULL arguments, SMP_EIO
 * when write fails.
 */
int smp_diagnosis_emit_text(const struct smp_diagnosis *diagnosis,
			    smp_write_fn write, void *ud);
int smp_diagnosis_emit_json(const struct smp_diagnosis *diagnosis,
			    smp_write_fn write, void *ud);

/*
 * Reading JSON (for a caller that speaks a JSON protocol, as the
 * `sm-preflight lsp` language server does): the library's strict RFC 8259
 * reader (the one specs are read with) turned into a read-only tree. A
 * value is borrowed from its document and lives until smp_json_free().
 */
struct smp_json;       /* one parsed JSON text */
struct smp_json_value; /* a value in it */

enum smp_json_type {
	SMP_JSON_NONE = 0, /* no value (a NULL value, an absent member) */
	SMP_JSON_NULL,
	SMP_JSON_BOOL,
	SMP_JSON_NUMBER,
	SMP_JSON_STRING,
	SMP_JSON_ARRAY,
	SMP_JSON_OBJECT
};

/*
 * Parses buf[0..len) as one JSON text. max_len bounds both the text and
 * any one string in it (0: the spec limits, 4 MiB and 64 KiB); nesting
 * deeper than 64 or over 100000 values is refused. alloc NULL: malloc.
 * Returns 0 with *out set; SMP_EPARSE with err giving the line, column and
 * what is wrong (not UTF-8, a syntax error, a duplicate key, a limit);
 * SMP_EINVAL for a NULL out or a NULL buf with len > 0; SMP_ENOMEM.
 */
int smp_json_parse(struct smp_json **out, const char *buf, size_t len,
		   size_t max_len, const struct smp_allocator *alloc,
		   struct smp_error *err);

/* Frees a parsed text and all its values; NULL is a no-op. */
void smp_json_free(struct smp_json *json);

/* The top value of a parsed text; NULL for NULL. */
const struct smp_json_value *smp_json_root(const struct smp_json *json);

/* The type of v; SMP_JSON_NONE for NULL. */
enum smp_json_type smp_json_type(const struct smp_json_value *v);

/*
 * The text of a string (unescaped, NUL-terminated; *len, when len is not
 * NULL, gets its length, which counts any NUL it holds) or of a number as
 * written ("1e3"); NULL for any other type.
 */
const char *smp_json_text(const struct smp_json_value *v, size_t *len);

/* A number's value into *out: 0, or -1 when v is no number. */
int smp_json_number(const struct smp_json_value *v, double *out);

/* 1 for true, 0 for false, -1 when v is no boolean. */
int smp_json_bool(const struct smp_json_value *v);

/* The member key of an object (exact match), or NULL when v is no object
 * or has no such member. */
const struct smp_json_value *smp_json_get(const struct smp_json_value *v,
					  const char *key);

/* The number of elements of an array or members of an object; 0 else. */
size_t smp_json_length(const struct smp_json_value *v);

/* The i-th element of an array, or the i-th member's value of an object
 * (in text order); NULL when out of range. */
const struct smp_json_value *smp_json_at(const struct smp_json_value *v,
					 size_t i);

/* The i-th member's key of an object (NUL-terminated), or NULL. */
const char *smp_json_key_at(const struct smp_json_value *v, size_t i);

/*
 * Writes s as a JSON string with its quotes through write, with the same
 * escaping as every JSON the library writes ('"', '\\', control
 * characters, U+2028/U+2029; invalid UTF-8 as U+FFFD); NULL writes null.
 * Returns 0, SMP_EINVAL for a NULL write, SMP_EIO when write fails.
 */
int smp_json_write_string(const char *s, smp_write_fn write, void *ud);

/*
 * The instance data of a context, for an editor's hover and completion:
 * instance types, and the tested-model rows (as `suggest` reads them).
 * Each getter copies at most size bytes of its struct into *out (pass
 * sizeof(*out)): fields may be appended. Strings belong to the context.
 */
struct smp_instance_info {
	const char *type;   /* "ml.p3.8xlarge" */
	const char *family; /* "p3" */
	int vcpus;
	double memory_gib;
	int gpus;               /* 0 for CPU and Trainium types */
	const char *gpu_model;  /* "V100", or NULL */
	double gpu_memory_gib;  /* per GPU; 0 when none */
	int efa;                /* 1 when the type has EFA */
	double network_gbps;    /* 0 when unknown */
	int compiler_supported; /* 1 when Training Compiler supports it */
};

struct smp_tested_info {
	const char *framework;            /* "pytorch", "tensorflow" */
	const char *framework_version;    /* "1.11.0" */
	const char *transformers_version; /* or NULL */
	const char *model;                /* as the AWS page writes it */
	const char *instance_type;
	const char *precision; /* or NULL */
	int sequence_length;   /* 0 when unknown */
	int native_batch_size; /* 0 when the page leaves it blank */
	int compiler_batch_size;
	int instance_count; /* 0 when the table has no column */
};

/* The number of instance types of the context's data; 0 for NULL. */
size_t smp_context_instance_count(const struct smp_context *ctx);

/*
 * The i-th instance type (data order), or with type non-NULL the one of
 * that name (i ignored), copied into *out: 1; 0 when i is out of range
 * or the type unknown; SMP_EINVAL for a NULL ctx or out.
 */
int smp_context_instance(const struct smp_context *ctx, size_t i,
			 const char *type, struct smp_instance_info *out,
			 size_t size);

/*
 * The tested rows of a model name (normalized as `suggest` matches them:
 * case, '/' and '_' do not matter): returns their number, and when i is
 * below it and out non-NULL copies the i-th (file order) into *out. 0 for
 * a NULL ctx or model.
 */
size_t smp_context_model_rows(const struct smp_context *ctx, const char *model,
			      size_t i, struct smp_tested_info *out,
			      size_t size);

/*
 * The i-th top-level key the schema of dialect allows (the keys an editor
 * offers to complete), or NULL past the last or for a dialect without a
 * schema (AUTO).
 */
const char *smp_context_dialect_key(const struct smp_context *ctx,
				    enum smp_dialect dialect, size_t i);

/*
 * The dialect a spec's text is written in, as a check detects it (its
 * name decides JSON or YAML as for smp_check()); SMP_DIALECT_AUTO when
 * the text cannot be read or shows none.
 */
enum smp_dialect smp_detect_dialect(const struct smp_context *ctx,
				    const char *name, const char *buf,
				    size_t len);

#ifdef __cplusplus
}
#endif

#endif /* SMPREFLIGHT_H */
