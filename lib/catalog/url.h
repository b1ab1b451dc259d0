/* url.h - the data URL policy (url.c) */
#ifndef SMP_URL_H
#define SMP_URL_H

#include "smpreflight.h"

/* The longest data URL accepted, in bytes. */
#define SMP_URL_MAX 1900

/* 1 when url's host is localhost, 127.x.x.x or [::1]. */
int smp__url_is_loopback(const char *url);

/*
 * The URL policy: http:// or https:// with a host, no whitespace or
 * control characters, no query or fragment; http:// only to loopback
 * unless allow_http. Returns 0 or SMP_EINVAL with err saying why.
 */
int smp__url_check(const char *url, int allow_http, struct smp_error *err);

#endif
