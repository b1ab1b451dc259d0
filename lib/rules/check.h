/*
 * check.h - what every rule function receives, and the pipeline for one
 * buffer (check.c). Rules read the effective job (job/effective.h) and
 * the catalog, report through rep, and never allocate or print.
 */
#ifndef SMP_CHECK_H
#define SMP_CHECK_H

#include "catalog/catalog.h"
#include "job/dialect.h"
#include "job/job.h"
#include "report/report.h"
#include "job/settings.h"
#include "job/source_python.h"

struct smp_check {
	const struct smp_job *job;
	const struct smp_catalog *cat;
	struct smp_report *rep;
	const struct smp_instance *instance; /* NULL when unknown */
	const struct smp_settings *settings;
};

/*
 * The loaders' diagnostics of docs as syntax, duplicate-key and
 * input-limit findings, in the order the loader met them (input.c).
 * Returns 0, or SMP_ENOMEM when the report ran out of memory.
 */
int smp__rules_input(struct smp_report *rep, const struct smp_docs *docs);

/*
 * The entry script of a job with the compiler on, read and scanned into s
 * (smp__script_load() with what the job says); 0 or SMP_ENOMEM.
 */
struct smp_script_facts;
struct smp_script_file;
int smp__rules_script_load(struct smp_script_facts *s,
			   const struct smp_job *job, const char *base_dir,
			   size_t max_size, const struct smp_script_file *files,
			   size_t nfiles);

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
	/* a folder holding a local copy of the job's code: the entry script
	 * is read from it, whatever the spec says its code is (an S3 source
	 * directory); NULL: as the spec says */
	const char *sources;
	/* files the checked source defined (a notebook's %%writefile
	 * cells), read when an entry script is not on disk */
	const struct smp_script_file *files;
	size_t nfiles;
	/* smp_check_options.flags (SMP_CHECK_WALKED, SMP_CHECK_ALL_JOBS,
	 * SMP_CHECK_RUN_SAID), and SMP__CHECK_FILE_INTENT below */
	unsigned int flags;
	/* called once all findings are in (suppressions applied), while
	 * the documents and buf are alive; may annotate the findings
	 * (check --fix's byte edits); NULL: nothing */
	void (*finish)(struct smp_report *rep, const struct smp_docs *docs,
		       const char *buf, size_t len);
};

/*
 * Set by check_source.c on a walked source that imports
 * TrainingCompilerConfig but passes it to none of its jobs: each of
 * them shows the intent (the config was meant for one of them).
 */
#define SMP__CHECK_FILE_INTENT 0x100u

/* 1 when a walk skips what holds no job (SMP_CHECK_WALKED in flags). */
#define SMP__WALKED(hook) ((hook) && ((hook)->flags & SMP_CHECK_WALKED))

/*
 * The pipeline for one document's root: schema, normalize, entry script,
 * rules, hook. forced is the dialect, or SMP_DIALECT_AUTO to detect it
 * (unless the context forces one). ranges: a tuning job definition's
 * ParameterRanges (NULL for a training job). region: where the source
 * creates the job (struct smp_pysrc_job); NULL or an unknown node: the
 * context's.
 * Findings go to rep.
 */
int smp__check_root(const struct smp_context *ctx, const struct smp_node *root,
		    enum smp_dialect forced, const struct smp_node *ranges,
		    const struct smp_node *region, struct smp_arena *arena,
		    struct smp_report *rep, const struct smp_check_hook *hook,
		    const char *script_dir);

/*
 * A Python launcher or notebook (name ends in .py or .ipynb) held in
 * rep->buf: its jobs found (job/source_python.h), each checked with
 * smp__check_root() as a document kept in docs, their findings named by
 * the job, suppression comments applied, and a notebook's positions
 * mapped back to its cells (check_source.c).
 */
int smp__check_source(const struct smp_context *ctx, const char *name,
		      struct smp_docs *docs, struct smp_report *rep,
		      const struct smp_check_hook *hook,
		      const char *script_dir);

/*
 * Checks the jobs of src one by one (smp__check_root), their findings
 * named "in <what>'<name>': " as they are added (struct
 * smp_report_scope).
 * push: also append each job's root to docs (for suppressions and the
 * hook); never while the caller iterates over docs.
 */
int smp__check_jobs(const struct smp_context *ctx, const struct smp_pysrc *src,
		    struct smp_docs *docs, struct smp_report *rep,
		    const struct smp_check_hook *hook, const char *script_dir,
		    const char *what, int push);

/* A native job the checked one is compared with (baseline_rules.c). */
struct smp_base {
	const struct smp_job *job;
	const struct smp_instance *instance; /* NULL when unknown */
	const char *name;                    /* for messages */
};

/* learning-rate-not-scaled and baseline-drift of c's job against b. */
void smp__rules_baseline(const struct smp_base *b, const struct smp_check *c);

/* smp_check_buffer() with a hook (NULL: exactly smp_check_buffer). */
int smp__check_run(struct smp_report **out, const struct smp_context *ctx,
		   const char *name, const char *buf, size_t len,
		   const struct smp_check_hook *hook, struct smp_error *err);

/* smp_check_file() with a hook. */
int smp__check_file_run(struct smp_report **out, const struct smp_context *ctx,
			const char *path, const struct smp_check_hook *hook,
			struct smp_error *err);

#endif
