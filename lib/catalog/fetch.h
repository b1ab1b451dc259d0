/*
 * fetch.h - refreshing instance data: URL policy and the update with a
 * replaceable cache I/O (tests fail writes midway through it).
 */
#ifndef SMP_FETCH_H
#define SMP_FETCH_H

#include "smpreflight.h"
#include "catalog/data_cache.h"
#include "catalog/url.h"

/* smp_data_update() with the cache's file operations replaced. */
int smp__data_update_io(struct smp_update_result **out,
			const struct smp_options *opts,
			const struct smp_update_options *update,
			const struct smp_cache_io *io, struct smp_error *err);

#endif
