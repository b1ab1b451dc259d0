/*
 * out.h - what the back-ends share for their output: a small buffered
 * writer over the caller's smp_write_fn with a sticky failure (a fixed
 * struct smp_buf, flushed to the sink whenever it fills), and the
 * escapers of each format (JSON strings, XML text and attributes, GitHub
 * workflow-command data and properties, URI references).
 *
 * Every escaper takes text from a finding or a file name, which may hold
 * anything: bytes that are not valid UTF-8 become U+FFFD, so the output
 * is always valid UTF-8 whatever the input.
 */
#ifndef SMP_EMIT_OUT_H
#define SMP_EMIT_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "smpreflight.h"
#include "util/buf.h"

/* bytes a writer keeps before it hands them to the sink */
#define SMP__OUT_CHUNK 4096

struct smp__out {
	smp_write_fn write;
	void *ud;
	int failed; /* the sink refused a write: nothing more is written */
	struct smp_buf buf; /* fixed, over mem: flushed when full */
	char mem[SMP__OUT_CHUNK + 1];
};

/* A writer to write(ud, ...) in pieces of SMP__OUT_CHUNK bytes. */
void smp__out_init(struct smp__out *o, smp_write_fn write, void *ud);

/* Hands the buffered bytes to the sink; 0, or SMP_EIO once it failed. */
int smp__out_flush(struct smp__out *o);

/* Appends what does not fit now, flushing as the buffer fills. */
void smp__out_mem_slow(struct smp__out *o, const char *s, size_t n);

static inline void
smp__out_mem(struct smp__out *o, const char *s, size_t n)
{
	/* the common case: a short piece that fits without a flush */
	if (n < smp__buf_room(&o->buf))
		smp__buf_add(&o->buf, s, n);
	else
		smp__out_mem_slow(o, s, n);
}

static inline void
smp__out_str(struct smp__out *o, const char *s)
{
	smp__out_mem(o, s, strlen(s));
}

void smp__out_uint(struct smp__out *o, uint64_t v);

/*
 * printf output; a piece longer than the writer's chunk is cut to it
 * (for lines of bounded length: messages and the like).
 */
void smp__out_printf(struct smp__out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

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
 * s[0..n) made safe for a terminal (text.c, which writes findings so):
 * tabs as spaces, other C0 controls and DEL as their Unicode control
 * pictures (a newline too, so nothing starts a line), C1 controls,
 * bidirectional overrides and invalid UTF-8 as U+FFFD.
 */
void smp__out_text_safe(struct smp__out *o, const char *s, size_t n);

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

#endif
