/*
 * check_entry.c - the public check entry points: smp_check() (a buffer
 * or a file, with per-check options: baseline, script folder, input
 * format) and its two thin wrappers for the common cases. The pipeline
 * itself is rules/check.c; this file only turns options into its hook.
 */
#include <stddef.h>
#include <string.h>

#include "advise/baseline.h"
#include "util/error.h"
#include "fix/fix.h"
#include "util/options_version.h"

static const size_t check_options_size[SMP_CHECK_OPTIONS_VERSION + 1] = {
	0, offsetof(struct smp_check_options, flags),
	sizeof(struct smp_check_options)};

int
smp_check_options_init(struct smp_check_options *opts, unsigned int version)
{
	const struct smp_check_options defaults = SMP_CHECK_OPTIONS_INIT;

	return smp__options_init(opts, version, &defaults, check_options_size,
				 SMP_CHECK_OPTIONS_VERSION);
}

/* The hook function comparing every job with the baseline ud. */
static void
compare(void *ud, const struct smp_check *c)
{
	smp__baseline_compare(ud, c);
}

static int
invalid(struct smp_error *err, const char *message)
{
	return smp__error_set(err, SMP_EINVAL, NULL, NULL, "%s", message);
}

int
smp_check(struct smp_report **out, const struct smp_context *ctx,
	  const char *name, const char *buf, size_t len,
	  const struct smp_check_options *opts, struct smp_error *err)
{
	struct smp_check_options o = SMP_CHECK_OPTIONS_INIT;
	struct smp_check_hook hook;
	int rc;

	smp__error_clear(err);
	if (out)
		*out = NULL;
	if (!out || !ctx || !name)
		return invalid(err, "invalid argument: out, ctx and name are "
				    "required");
	rc = smp__options_copy(&o, opts, check_options_size,
			       SMP_CHECK_OPTIONS_VERSION, "smp_check_options",
			       err);
	if (rc)
		return rc;
	if ((unsigned)o.format > SMP_INPUT_JSON)
		return invalid(err, "invalid smp_check_options.format");
	memset(&hook, 0, sizeof(hook));
	if (o.baseline) {
		hook.fn = compare;
		/* the hook's ud is not const; compare only reads it */
		memcpy(&hook.ud, &o.baseline, sizeof(hook.ud));
	}
	hook.format = o.format;
	hook.script_dir = o.script_dir;
	if (o.flags & ~(SMP_CHECK_WALKED | SMP_CHECK_ALL_JOBS |
			SMP_CHECK_NO_EDITS | SMP_CHECK_RUN_SAID))
		return invalid(err, "invalid smp_check_options.flags");
	hook.flags = o.flags & ~SMP_CHECK_NO_EDITS;
	/* the edits cost as much as a rule: only for whoever uses them */
	if (!(o.flags & SMP_CHECK_NO_EDITS))
		hook.finish = smp__fix_annotate;
	if (!buf)
		return smp__check_file_run(out, ctx, name, &hook, err);
	return smp__check_run(out, ctx, name, buf, len, &hook, err);
}

int
smp_check_buffer(struct smp_report **out, const struct smp_context *ctx,
		 const char *name, const char *buf, size_t len,
		 struct smp_error *err)
{
	smp__error_clear(err);
	if (!buf && len)
		return invalid(err, "invalid argument: NULL buf with len > 0");
	/* an empty spec: a buffer still, not the file called name */
	return smp_check(out, ctx, name, buf ? buf : "", len, NULL, err);
}

int
smp_check_file(struct smp_report **out, const struct smp_context *ctx,
	       const char *path, struct smp_error *err)
{
	smp__error_clear(err);
	return smp_check(out, ctx, path, NULL, 0, NULL, err);
}
