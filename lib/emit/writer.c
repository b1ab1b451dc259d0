/*
 * writer.c - the emitter (smp_emitter_new and friends): it counts what
 * was emitted, keeps the first error, and calls the format's back-end
 * through the one table of ops below. Back-ends never call back here.
 */
#include <stddef.h>
#include <string.h>

#include "util/options_version.h"
#include "context/context.h"
#include "emit/artifact.h"
#include "emit/emitter.h"
#include "report/report.h"
#include "util/alloc.h"

/* The back-ends by enum smp_format: the dispatcher's one table. */
static const struct smp_emitter_ops *const formats[] = {
	[SMP_FORMAT_TEXT] = &smp__emit_text,
	[SMP_FORMAT_JSON] = &smp__emit_json,
	[SMP_FORMAT_SARIF] = &smp__emit_sarif,
	[SMP_FORMAT_GITHUB] = &smp__emit_github,
	[SMP_FORMAT_JUNIT] = &smp__emit_junit};

#define NFORMATS (sizeof(formats) / sizeof(formats[0]))

/* See smpreflight.h. */
const char *
smp_format_name(enum smp_format format)
{
	return (unsigned)format < NFORMATS ? formats[format]->name : "?";
}

/* See smpreflight.h. */
int
smp_format_parse(enum smp_format *out, const char *name)
{
	size_t i;

	if (!out || !name)
		return SMP_EINVAL;
	for (i = 0; i < NFORMATS; i++) {
		if (strcmp(name, formats[i]->name) == 0) {
			*out = (enum smp_format)i;
			return 0;
		}
	}
	return SMP_EINVAL;
}

/*
 * Bytes of struct smp_emitter_options per version (docs/API.md, "ABI"):
 * a caller compiled with an older header passes a shorter struct, so
 * only the fields its version has are copied over the defaults. When
 * fields are appended after a release, bump SMP_EMITTER_OPTIONS_VERSION
 * and replace the last entry by the offset of the first new field.
 */
static const size_t options_size[SMP_EMITTER_OPTIONS_VERSION + 1] = {
	0,
	offsetof(struct smp_emitter_options, rules_uri) + sizeof(const char *),
	offsetof(struct smp_emitter_options, source_root),
	sizeof(struct smp_emitter_options),
};

/* A copy of an absolute folder, normalized; NULL stays NULL. Returns
 * 0, or -1 when it could not be allocated. */
static int
copy_dir(struct smp_emitter *em, char **out, const char *dir)
{
	*out = NULL;
	if (!dir)
		return 0;
	*out = smp__strndup(&em->alloc, dir, strlen(dir));
	if (!*out)
		return -1;
	smp__path_normalize(*out);
	return 0;
}

static void
emitter_free(struct smp_emitter *em)
{
	smp__free(&em->alloc, em->rules_uri);
	smp__free(&em->alloc, em->hostname);
	smp__free(&em->alloc, em->source_root);
	smp__free(&em->alloc, em->base_dir);
	smp__buf_free(&em->body);
	smp__buf_free(&em->side);
	smp__free(&em->alloc, em);
}

static int
valid_severity(enum smp_severity sev)
{
	return sev >= SMP_SEVERITY_OFF && sev <= SMP_SEVERITY_ERROR;
}

/* See smpreflight.h. */
int
smp_emitter_options_init(struct smp_emitter_options *opts, unsigned int version)
{
	const struct smp_emitter_options defaults = SMP_EMITTER_OPTIONS_INIT;

	return smp__options_init(opts, version, &defaults, options_size,
				 SMP_EMITTER_OPTIONS_VERSION);
}

int
smp_emitter_new(struct smp_emitter **out, const struct smp_context *ctx,
		enum smp_format format, const struct smp_emitter_options *opts,
		smp_write_fn write, void *ud)
{
	struct smp_emitter_options o = SMP_EMITTER_OPTIONS_INIT;
	struct smp_emitter *em;
	const char *uri, *host;

	if (out)
		*out = NULL;
	if (smp__options_copy(&o, opts, options_size,
			      SMP_EMITTER_OPTIONS_VERSION,
			      "smp_emitter_options", NULL))
		return SMP_EINVAL;
	opts = &o;
	if (!out || !ctx || !write || (unsigned)format >= NFORMATS ||
	    !valid_severity(opts->min_severity) ||
	    !valid_severity(opts->fail_on) ||
	    (opts->source_root && opts->source_root[0] != '/') ||
	    (opts->base_dir && opts->base_dir[0] != '/'))
		return SMP_EINVAL;
	em = smp__calloc(&ctx->alloc, 1, sizeof(*em));
	if (!em)
		return SMP_ENOMEM;
	em->alloc = ctx->alloc;
	em->ctx = ctx;
	em->format = format;
	em->min_severity = opts->min_severity;
	em->fail_on = opts->fail_on ? opts->fail_on : SMP_SEVERITY_ERROR;
	em->text_flags = opts->text_flags;
	smp__buf_init(&em->body, &em->alloc, SMP_BUF_NO_MAX);
	smp__buf_init(&em->side, &em->alloc, SMP_BUF_NO_MAX);
	uri = opts->rules_uri ? opts->rules_uri : "docs/rules.md";
	em->rules_uri = smp__strndup(&em->alloc, uri, strlen(uri));
	host = opts->hostname && opts->hostname[0] ? opts->hostname
						   : "localhost";
	em->hostname = smp__strndup(&em->alloc, host, strlen(host));
	if (!em->rules_uri || !em->hostname ||
	    copy_dir(em, &em->source_root, opts->source_root) ||
	    copy_dir(em, &em->base_dir, opts->base_dir)) {
		emitter_free(em);
		return SMP_ENOMEM;
	}
	em->timestamp = opts->timestamp;
	smp__out_init(&em->out, write, ud);
	*out = em;
	return 0;
}

/* The first error sticks: a broken document is never continued. */
static int
settle(struct smp_emitter *em)
{
	int rc = smp__out_flush(&em->out);

	if (em->oom)
		rc = SMP_ENOMEM;
	if (rc && !em->status)
		em->status = rc;
	return em->status;
}

static void
begin(struct smp_emitter *em)
{
	if (em->started)
		return;
	em->started = 1;
	if (formats[em->format]->begin)
		formats[em->format]->begin(em);
}

/* Counts what the JSON summary and the JUnit totals report. */
static void
count(struct smp_emitter *em, const struct smp_report *report)
{
	size_t i;
	int errors = 0;

	em->files++;
	for (i = 0; i < report->count; i++) {
		const struct smp_finding *f = &report->items[i];

		if (!smp__emit_visible(em, f))
			continue;
		if (f->suppressed) {
			em->suppressed++;
			continue;
		}
		em->counts[f->severity]++;
		if (f->severity == SMP_SEVERITY_ERROR)
			errors = 1;
	}
	if (errors)
		em->files_with_errors++;
}

/* Before anything is added: the sticky error, SMP_EINVAL for a NULL
 * emitter or one already finished, else 0 with the document begun. */
static int
ready(struct smp_emitter *em)
{
	if (!em)
		return SMP_EINVAL;
	if (em->status)
		return em->status;
	if (em->finished)
		return SMP_EINVAL;
	begin(em);
	return 0;
}

/* See smpreflight.h. */
int
smp_emitter_add(struct smp_emitter *em, const struct smp_report *report)
{
	int rc;

	if (!report)
		return SMP_EINVAL;
	rc = ready(em);
	if (rc)
		return rc;
	count(em, report);
	formats[em->format]->file(em, report);
	return settle(em);
}

/* See smpreflight.h. */
int
smp_emitter_add_failure(struct smp_emitter *em, const char *file,
			const char *message)
{
	int rc;

	if (!file || !message)
		return SMP_EINVAL;
	rc = ready(em);
	if (rc)
		return rc;
	em->failures++;
	/* text has none: the caller tells the people who read text */
	if (formats[em->format]->failure)
		formats[em->format]->failure(em, file, message);
	return settle(em);
}

/* See smpreflight.h. */
int
smp_emitter_finish(struct smp_emitter *em)
{
	int rc = ready(em);

	if (rc)
		return rc;
	em->finished = 1;
	if (formats[em->format]->end)
		formats[em->format]->end(em);
	return settle(em);
}

/* See smpreflight.h. */
int
smp_emitter_walk_summary(struct smp_emitter *em, size_t files_skipped,
			 size_t jobs, size_t jobs_not_judged)
{
	if (!em)
		return SMP_EINVAL;
	em->walked = 1;
	em->walk_skipped = files_skipped;
	em->walk_jobs = jobs;
	em->walk_not_judged = jobs_not_judged;
	return 0;
}

/* See smpreflight.h. */
void
smp_emitter_free(struct smp_emitter *em)
{
	if (em)
		emitter_free(em);
}
