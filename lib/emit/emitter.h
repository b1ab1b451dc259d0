/*
 * emitter.h - the emitter's state and the interface of its back-ends.
 */
#ifndef SMP_EMITTER_H
#define SMP_EMITTER_H

#include "smpreflight.h"
#include "emit/out.h"

/*
 * The emitter behind smp_emitter_new(): the dispatcher (writer.c) counts
 * and calls the format's back-end through its ops; each back-end (json.c,
 * ...) writes its document through `out` and knows only the helpers of
 * out.h and the two below, never the dispatcher.
 */
struct smp_emitter {
	struct smp_allocator alloc;
	const struct smp_context *ctx;
	enum smp_format format;
	enum smp_severity min_severity;
	enum smp_severity fail_on;
	unsigned int text_flags;
	char *rules_uri;   /* owned */
	char *hostname;    /* owned: JUnit's, never NULL */
	char *source_root; /* owned: SARIF's, normalized; NULL for none */
	char *base_dir;    /* owned: normalized; NULL for source_root */
	int64_t timestamp;
	int started; /* the format's begin() ran */
	int finished;
	int status; /* sticky: the first error */
	/* what was emitted so far */
	size_t files;
	size_t files_with_errors;
	size_t counts[SMP_SEVERITY_ERROR + 1]; /* not suppressed */
	size_t suppressed;
	size_t items; /* elements written to the current JSON array */
	/* JUnit: testcases are kept in body until the counts are known */
	struct smp_buf body;
	/* JUnit: the suite's <system-out>, written after the testcases */
	struct smp_buf side;
	size_t failed_cases;
	size_t failures; /* smp_emitter_add_failure() calls */
	/* smp_emitter_walk_summary(): walked is 1 once it was called */
	int walked;
	size_t walk_skipped, walk_jobs, walk_not_judged;
	int oom; /* the body could not grow */
	struct smp__out out;
};

/* 1 when f is written at all: a severity, not below min_severity. */
int smp__emit_visible(const struct smp_emitter *em,
		      const struct smp_finding *f);

/* The file a report is about, for empty reports too. */
const char *smp__emit_report_file(const struct smp_report *report);

/*
 * The elements of a JSON array of findings (JSON's "findings", SARIF's
 * "results"): item() writes each visible finding of report (file is
 * where it is: its own file or the report's; i its index in report), one
 * per line after indent, comma-separated across reports through
 * em->items. smp__emit_array_close() ends the array: "]" when empty,
 * else a newline, indent and "]".
 */
typedef void (*smp__emit_item_fn)(struct smp_emitter *em,
				  const struct smp_finding *f, const char *file,
				  size_t i, void *ud);
void smp__emit_items(struct smp_emitter *em, const struct smp_report *report,
		     const char *indent, smp__emit_item_fn item, void *ud);
void smp__emit_array_close(struct smp_emitter *em, const char *indent);

/*
 * Sends what the format writes to em->body instead of the sink, until
 * smp__emit_body_close() (JUnit's testcases, the failures JSON and SARIF
 * write after the findings). A failure to grow the body is SMP_ENOMEM at
 * the next settle. body_open returns -1 when the sink already failed.
 */
struct smp__sink {
	smp_write_fn write;
	void *ud;
};
int smp__emit_body_open(struct smp_emitter *em, struct smp__sink *saved);
/* The same for em->side, a second buffer (JUnit's suite <system-out>);
 * close it with smp__emit_body_close(). */
int smp__emit_side_open(struct smp_emitter *em, struct smp__sink *saved);
void smp__emit_body_close(struct smp_emitter *em,
			  const struct smp__sink *saved);

/*
 * A failure as an element of an array kept in the body (JSON's "errors",
 * SARIF's toolExecutionNotifications): opens the body and writes the
 * separator, a comma after the first failure, a newline and indent.
 * Returns as smp__emit_body_open(); write the element, then close.
 */
int smp__emit_failure_open(struct smp_emitter *em, struct smp__sink *saved,
			   const char *indent);

/*
 * A format's back-end, as curl's struct Curl_ssl: begin runs before the
 * first file (also when there is none), file once per report, failure
 * once per smp_emitter_add_failure(), end after the last; NULL for
 * nothing to do (file is always set).
 */
struct smp_emitter_ops {
	const char *name; /* as --format spells it */
	void (*begin)(struct smp_emitter *em);
	void (*file)(struct smp_emitter *em, const struct smp_report *report);
	void (*failure)(struct smp_emitter *em, const char *file,
			const char *message);
	void (*end)(struct smp_emitter *em);
};

/* The back-ends, one per enum smp_format value. */
extern const struct smp_emitter_ops smp__emit_text;
extern const struct smp_emitter_ops smp__emit_json;
extern const struct smp_emitter_ops smp__emit_sarif;
extern const struct smp_emitter_ops smp__emit_github;
extern const struct smp_emitter_ops smp__emit_junit;

#endif
