/*
 * data_origin.c - what a context records about its instance data: where it
 * came from (built in, the refreshed cache, a folder, caller memory), when
 * it was fetched, how old it is.
 */
#include <string.h>

#include "catalog/data_cache.h"
#include "context/context.h"
#include "util/alloc.h"
#include "util/error.h"

int
smp__context_data_cache(struct smp_context *ctx, const char *cache_dir,
			struct smp_error *err)
{
	struct smp_data_choice ch;
	int rc = smp__data_try_cache(&ctx->catalog, &ch, &ctx->alloc, cache_dir,
				     ctx->limits.max_file_size);

	if (rc < 0)
		return smp__error_set(err, rc, cache_dir, NULL,
				      "out of memory");
	if (rc > 0)
		return 1;
	ctx->data_origin = SMP_DATA_CACHE;
	ctx->data_source = ch.url;
	ctx->data_dir = ch.dir;
	ctx->data_fetched = ch.fetched;
	ctx->data_max_age_days = ch.max_age_days;
	return 0;
}

int
smp__context_data_dir(struct smp_context *ctx, const char *dir,
		      struct smp_error *err)
{
	ctx->data_origin = SMP_DATA_DIRECTORY;
	ctx->data_dir = smp__strndup(&ctx->alloc, dir, strlen(dir));
	if (!ctx->data_dir)
		return smp__error_set(err, SMP_ENOMEM, "context", NULL,
				      "out of memory");
	return 0;
}

void
smp__context_data_release(struct smp_context *ctx)
{
	smp__free(&ctx->alloc, ctx->data_source);
	smp__free(&ctx->alloc, ctx->data_dir);
	ctx->data_source = NULL;
	ctx->data_dir = NULL;
}

enum smp_data_origin
smp_context_data_origin(const struct smp_context *ctx)
{
	return ctx ? ctx->data_origin : SMP_DATA_BUILTIN;
}

const char *
smp_context_data_source(const struct smp_context *ctx)
{
	if (!ctx)
		return "";
	switch (ctx->data_origin) {
	case SMP_DATA_CACHE:
		return ctx->data_source ? ctx->data_source : "cache";
	case SMP_DATA_DIRECTORY:
		return ctx->data_dir;
	case SMP_DATA_MEMORY:
		return "memory";
	default:
		return "built-in";
	}
}

int64_t
smp_context_data_fetched(const struct smp_context *ctx)
{
	return ctx && ctx->data_origin == SMP_DATA_CACHE ? ctx->data_fetched
							 : 0;
}

long
smp_context_data_max_age(const struct smp_context *ctx)
{
	if (!ctx || ctx->data_origin != SMP_DATA_CACHE)
		return 0;
	return (long)ctx->data_max_age_days;
}

/* Days since the epoch of a time, rounding towards the past. */
static long
epoch_days(int64_t now)
{
	return (long)((now >= 0 ? now : now - 86399) / 86400);
}

long
smp_context_data_age(const struct smp_context *ctx, int64_t now)
{
	long born = ctx ? smp__days_from_date(ctx->catalog.generated) : -1;

	if (born < 0)
		return -1;
	return epoch_days(now) > born ? epoch_days(now) - born : 0;
}
