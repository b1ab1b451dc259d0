/*
 * emit_util.h - what the machine-format emitters share: a small buffered
 * writer over the caller's smp_write_fn with a sticky failure, and the
 * escapers of each format (JSON strings, XML text and attributes, GitHub
 * workflow-command data and properties, URI references).
 *
 * Every escaper takes text from a finding or a file name, which may hold
 * anything: bytes that are not valid UTF-8 become U+FFFD, so the output
 * is always valid UTF-8 whatever the input.
 */
#ifndef SMP_EMIT_UTIL_H
#define SMP_EMIT_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "smpreflight.h"

struct smp__out {
	smp_write_fn write;
	void *ud;
	int failed; /* the sink refused a write: nothing more is written */
	size_t len;
	char buf[4096];
};

void smp__out_init(struct smp__out *o, smp_write_fn write, void *ud);

/* Hands the buffered bytes to the sink; 0, or SMP_EIO once it failed. */
int smp__out_flush(struct smp__out *o);

void smp__out_mem(struct smp__out *o, const char *s, size_t n);
void smp__out_str(struct smp__out *o, const char *s);
void smp__out_uint(struct smp__out *o, uint64_t v);

/*
 * s as a JSON string with its quotes (RFC 8259): '"', '\\' and every
 * control character escaped (\n, \t, ... or \u00XX), U+2028 and U+2029
 * as \u2028 / \u2029 (so the output is also valid JavaScript), other
 * non-ASCII characters as UTF-8. NULL is written as null.
 */
void smp__out_json_string(struct smp__out *o, const char *s);

/* The same without the quotes, to build a string from pieces; NULL
 * writes nothing. */
void smp__out_json_string_body(struct smp__out *o, const char *s);

/*
 * s as XML 1.0 character data: & < > escaped, and in an attribute value
 * (attr non-zero, in double quotes) also " and tab, newline and carriage
 * return as character references, which attribute normalisation keeps.
 * Characters XML 1.0 forbids (other C0 controls, U+FFFE, U+FFFF) become
 * U+FFFD.
 */
void smp__out_xml(struct smp__out *o, const char *s, int attr);

/*
 * GitHub Actions workflow commands (actions/toolkit command.ts): the data
 * after "::" escapes % CR LF as %25 %0D %0A; a property value also escapes
 * ':' and ',' as %3A and %2C. Other control characters become U+FFFD and
 * tabs spaces, so nothing can end the command or start another.
 */
void smp__out_github_data(struct smp__out *o, const char *s);
void smp__out_github_property(struct smp__out *o, const char *s);

/*
 * A file name as a SARIF artifactLocation.uri (RFC 3986): an absolute path
 * becomes a file:// URI, a relative one a relative reference without its
 * leading "./", with every byte outside the unreserved characters, the
 * sub-delimiters, '@' and '/' percent-encoded (':' too, so that a first
 * segment never reads as a scheme).
 */
void smp__out_uri_path(struct smp__out *o, const char *path);

/*
 * The emitter behind smp_emitter_new(): the generic part (emit_util.c)
 * counts, filters and dispatches; each format's file (emit_json.c, ...)
 * writes its document through `out`.
 */
struct smp_emitter {
	struct smp_allocator alloc;
	const struct smp_context *ctx;
	enum smp_format format;
	enum smp_severity min_severity;
	enum smp_severity fail_on;
	unsigned int text_flags;
	char *rules_uri; /* owned */
	int started;     /* the format's begin() ran */
	int finished;
	int status; /* sticky: the first error */
	/* what was emitted so far */
	size_t files;
	size_t files_with_errors;
	size_t counts[SMP_SEVERITY_ERROR + 1]; /* not suppressed */
	size_t suppressed;
	size_t items; /* elements written to the current JSON array */
	/* JUnit: testcases are kept in body until the counts are known */
	char *body;
	size_t body_len;
	size_t body_cap;
	size_t failed_cases;
	size_t failures; /* smp_emitter_add_failure() calls */
	int oom;         /* the body could not grow */
	struct smp__out out;
};

/* 1 when f is written at all: a severity, not below min_severity. */
int smp__emit_visible(const struct smp_emitter *em,
		      const struct smp_finding *f);

/* The file a report is about, for empty reports too. */
const char *smp__emit_report_file(const struct smp_report *report);

/*
 * Sends what the format writes to em->body instead of the sink, until
 * smp__emit_body_close() (JUnit's testcases, the failures JSON and SARIF
 * write after the findings). A failure to grow the body is SMP_ENOMEM at
 * the next settle.
 */
struct smp__sink {
	smp_write_fn write;
	void *ud;
};
int smp__emit_body_open(struct smp_emitter *em, struct smp__sink *saved);
void smp__emit_body_close(struct smp_emitter *em,
			  const struct smp__sink *saved);

/* The format writers: begin (before the first file), one file, end;
 * a failure (smp_emitter_add_failure()). */
void smp__emit_json_failure(struct smp_emitter *em, const char *file,
			    const char *message);
void smp__emit_sarif_failure(struct smp_emitter *em, const char *file,
			     const char *message);
void smp__emit_github_failure(struct smp_emitter *em, const char *file,
			      const char *message);
void smp__emit_junit_failure(struct smp_emitter *em, const char *file,
			     const char *message);
void smp__emit_json_begin(struct smp_emitter *em);
void smp__emit_json_file(struct smp_emitter *em,
			 const struct smp_report *report);
void smp__emit_json_end(struct smp_emitter *em);
void smp__emit_sarif_begin(struct smp_emitter *em);
void smp__emit_sarif_file(struct smp_emitter *em,
			  const struct smp_report *report);
void smp__emit_sarif_end(struct smp_emitter *em);
void smp__emit_github_file(struct smp_emitter *em,
			   const struct smp_report *report);
void smp__emit_junit_file(struct smp_emitter *em,
			  const struct smp_report *report);
void smp__emit_junit_end(struct smp_emitter *em);

#endif
