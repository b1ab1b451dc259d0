/*
 * entry.c - the playground's entry points into the library, compiled to
 * WebAssembly: check a buffer and answer with the JSON report that
 * `sm-preflight check --format json` writes for the same file, or with a
 * suggestion's text. The page's worker calls these; nothing here parses
 * or judges a job itself.
 *
 * The program's state is two contexts (linear and square-root learning-
 * rate scaling; neither reads entry scripts: a page has only the one file
 * pasted), made on first use and kept for the page's life: the library
 * itself keeps none.
 */
#include <stdlib.h>
#include <string.h>

#include "smpreflight.h"

/* A growing output buffer behind an smp_write_fn. */
struct out {
	char *buf;
	size_t len, cap;
	int failed;
};

static int
out_write(void *ud, const char *data, size_t len)
{
	struct out *o = ud;

	if (o->failed)
		return -1;
	if (o->len + len + 1 > o->cap) {
		size_t cap = o->cap ? o->cap : 4096;
		char *p;

		while (cap < o->len + len + 1)
			cap *= 2;
		p = realloc(o->buf, cap);
		if (!p) {
			o->failed = 1;
			return -1;
		}
		o->buf = p;
		o->cap = cap;
	}
	memcpy(o->buf + o->len, data, len);
	o->len += len;
	o->buf[o->len] = '\0';
	return 0;
}

/* The result handed to JavaScript: the text, or NULL (out of memory). */
static char *
out_take(struct out *o)
{
	if (o->failed || !o->buf) {
		free(o->buf);
		return NULL;
	}
	return o->buf;
}

static struct smp_context *contexts[2];

static struct smp_context *
context(int sqrt_scaling)
{
	struct smp_context **c = &contexts[sqrt_scaling != 0];
	struct smp_options opts;
	struct smp_error err;

	if (*c)
		return *c;
	smp_options_init(&opts, SMP_OPTIONS_VERSION);
	opts.lr_scaling =
		sqrt_scaling ? SMP_LR_SCALING_SQRT : SMP_LR_SCALING_LINEAR;
	opts.no_script = 1;
	memset(&err, 0, sizeof(err));
	if (smp_context_new(c, &opts, &err))
		return NULL;
	return *c;
}

/*
 * The JSON report of one buffer named name, as the CLI writes it for one
 * file (the same emitter and options); a file that cannot be checked is
 * an "errors" entry, as in the CLI. As `--no-script`: the page has no
 * entry script to read. The caller frees it with smpw_free().
 */
char *smpw_check(const char *name, const char *text, size_t len);

char *
smpw_check(const char *name, const char *text, size_t len)
{
	struct smp_emitter_options eo = SMP_EMITTER_OPTIONS_INIT;
	struct smp_context *ctx = context(0);
	struct smp_emitter *em = NULL;
	struct smp_report *rep = NULL;
	struct smp_error err;
	struct out o = {NULL, 0, 0, 0};
	int rc;

	if (!ctx ||
	    smp_emitter_new(&em, ctx, SMP_FORMAT_JSON, &eo, out_write, &o))
		return NULL;
	memset(&err, 0, sizeof(err));
	rc = smp_check_buffer(&rep, ctx, name, text, len, &err);
	if (rc == 0)
		rc = smp_emitter_add(em, rep);
	else
		rc = smp_emitter_add_failure(em, name,
					     err.message[0] ? err.message
							    : smp_strerror(rc));
	smp_report_free(rep);
	if (rc == 0)
		rc = smp_emitter_finish(em);
	smp_emitter_free(em);
	if (rc)
		o.failed = 1;
	return out_take(&o);
}

/*
 * `sm-preflight suggest` for one buffer: the suggestion's text, moving the
 * job to to_instance when it is not empty, with square-root learning-rate
 * scaling when sqrt_scaling is 1. A buffer that cannot be read gives the
 * library's message.
 */
char *smpw_suggest(const char *name, const char *text, size_t len,
		   const char *to_instance, int sqrt_scaling);

char *
smpw_suggest(const char *name, const char *text, size_t len,
	     const char *to_instance, int sqrt_scaling)
{
	struct smp_suggest_options so = SMP_SUGGEST_OPTIONS_INIT;
	struct smp_context *ctx = context(sqrt_scaling);
	struct smp_suggestion *s = NULL;
	struct smp_error err;
	struct out o = {NULL, 0, 0, 0};

	if (!ctx)
		return NULL;
	so.to_instance = to_instance && to_instance[0] ? to_instance : NULL;
	memset(&err, 0, sizeof(err));
	if (smp_suggest(&s, ctx, name, text, len, &so, &err)) {
		out_write(&o, err.message, strlen(err.message));
		return out_take(&o);
	}
	smp_suggestion_emit_text(s, out_write, &o);
	smp_suggestion_free(s);
	if (!o.buf)
		out_write(&o, "", 0);
	return out_take(&o);
}

/* "TOOL-VERSION DATA-VERSION DATA-DATE", for the page's footer. */
char *smpw_versions(void);

char *
smpw_versions(void)
{
	struct smp_context *ctx = context(0);
	struct out o = {NULL, 0, 0, 0};
	const char *parts[3];
	int i;

	if (!ctx)
		return NULL;
	parts[0] = smp_version();
	parts[1] = smp_context_data_version(ctx);
	parts[2] = smp_context_data_date(ctx);
	for (i = 0; i < 3; i++) {
		if (i)
			out_write(&o, " ", 1);
		out_write(&o, parts[i], strlen(parts[i]));
	}
	return out_take(&o);
}

/* Frees what the functions above return. */
void smpw_free(char *p);

void
smpw_free(char *p)
{
	free(p);
}
