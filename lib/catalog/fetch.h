/*
 * fetch.h - refreshing instance data: URL policy and the update with a
 * replaceable cache I/O (tests fail writes midway through it).
 */
#ifndef SMP_FETCH_H
#define SMP_FETCH_H

#include "smpreflight.h"
#include "catalog/data_cache.h"

/* 1 when url's host is localhost, 127.x.x.x or [::1]. */
int smp__url_is_loopback(const char *url);

/*
 * The URL policy: http:// or https:// with a host, no whitespace or
 * control characters, no query or fragment; http:// only to loopback
 * unless allow_http. Returns 0 or SMP_EINVAL with err saying why.
 */
int smp__url_check(const char *url, int allow_http, struct smp_error *err);

/* smp_data_update() with the cache's file operations replaced. */
int smp__data_update_io(struct smp_update_result **out,
			const struct smp_options *opts,
			const struct smp_update_options *update,
			const struct smp_cache_io *io, struct smp_error *err);

#endif
