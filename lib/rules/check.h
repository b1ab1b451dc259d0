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

struct smp_check {
	const struct smp_job *job;
	const struct smp_catalog *cat;
	struct smp_report *rep;
	const struct smp_instance *instance; /* NULL when unknown */
	const struct smp_settings *settings;
};

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
};

/* smp_check_buffer() with a hook (NULL: exactly smp_check_buffer). */
int smp__check_run(struct smp_report **out, const struct smp_context *ctx,
		   const char *name, const char *buf, size_t len,
		   const struct smp_check_hook *hook, struct smp_error *err);

/* smp_check_file() with a hook. */
int smp__check_file_run(struct smp_report **out, const struct smp_context *ctx,
			const char *path, const struct smp_check_hook *hook,
			struct smp_error *err);

#endif
