/*
 * data_stale.c - the data-stale rule: instance data older than the limit
 * does not know the instance types and tested models published since.
 * A check of the context, not of a spec (smp_check_data_age).
 */
#include "context/context.h"
#include "report/report.h"
#include "util/error.h"

int
smp_check_data_age(struct smp_report **out, const struct smp_context *ctx,
		   int64_t now, long max_age_days, struct smp_error *err)
{
	struct smp_report *rep = NULL;
	struct smp_finding *f;
	const char *name;
	long age;
	int rc;

	smp__error_clear(err);
	if (!out)
		return smp__error_set(err, SMP_EINVAL, "out", NULL,
				      "out is NULL");
	*out = NULL;
	if (!ctx || max_age_days < 1)
		return smp__error_set(err, SMP_EINVAL, "options", NULL,
				      "the age limit must be at least one day");
	/* the caller's buffers (SMP_DATA_MEMORY) have no folder to name */
	name = ctx->data_origin == SMP_DATA_BUILTIN ? "<built-in instance data>"
	       : ctx->data_dir                      ? ctx->data_dir
			       : "<instance data in memory>";
	rc = smp__report_new(&rep, &ctx->alloc, name, ctx->severity);
	if (rc)
		return smp__error_set(err, rc, name, NULL, "out of memory");
	age = smp_context_data_age(ctx, now);
	if (age > max_age_days) {
		f = smp__report_add(
			rep, SMP_RULE_DATA_STALE, NULL, NULL,
			"instance data '%s' is %ld days old, more "
			"than %ld: instance types and tested models "
			"published since are unknown to it",
			ctx->catalog.data_version, age, max_age_days);
		if (ctx->data_origin == SMP_DATA_DIRECTORY)
			smp__finding_fix(
				rep, f,
				"refresh the files in '%s', or drop "
				"--instance-data and run 'sm-preflight "
				"update-data'",
				ctx->data_dir);
		else if (ctx->data_origin == SMP_DATA_MEMORY)
			smp__finding_fix(rep, f,
					 "pass newer instance data, or raise "
					 "the age limit");
		else
			smp__finding_fix(rep, f,
					 "run 'sm-preflight update-data' (or "
					 "raise --stale-days)");
	}
	if (rep->failed) {
		smp_report_free(rep);
		return smp__error_set(err, SMP_ENOMEM, name, NULL,
				      "out of memory");
	}
	*out = rep;
	return 0;
}
