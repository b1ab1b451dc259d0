/*
 * url.c - the data URL policy: https:// with a host, plain http:// only to
 * a loopback host (by name or address, nothing is resolved) unless the
 * caller allows it. Shared by the update (fetch.c) and the libcurl
 * back-end (fetch_curl.c), which sees only this.
 */
#include <string.h>
#include <strings.h>

#include "catalog/url.h"
#include "util/error.h"

/* The scheme's length ("https://" is 8), or 0 for anything else. */
static size_t
scheme_len(const char *url, int *is_http)
{
	*is_http = 0;
	if (strncmp(url, "https://", 8) == 0)
		return 8;
	if (strncmp(url, "http://", 7) == 0) {
		*is_http = 1;
		return 7;
	}
	return 0;
}

static int
is_ipv4_loopback(const char *h, size_t n)
{
	size_t i, parts = 1, digits = 0;

	if (n < 4 || strncmp(h, "127.", 4) != 0)
		return 0;
	for (i = 0; i < n; i++) {
		if (h[i] == '.') {
			if (digits == 0 || digits > 3)
				return 0;
			parts++;
			digits = 0;
		} else if (h[i] >= '0' && h[i] <= '9') {
			digits++;
		} else {
			return 0;
		}
	}
	return parts == 4 && digits > 0 && digits <= 3;
}

/* Loopback by name or address; nothing is resolved. */
int
smp__url_is_loopback(const char *url)
{
	const char *auth, *end, *at, *h;
	size_t n;
	int http;

	if (!url || !(n = scheme_len(url, &http)))
		return 0;
	auth = url + n;
	end = auth + strcspn(auth, "/?#");
	for (at = auth; at < end; at++)
		if (*at == '@')
			auth = at + 1; /* after the user info */
	h = auth;
	if (*h == '[') {
		const char *close = memchr(h, ']', (size_t)(end - h));

		return close && close - h == 4 && strncmp(h, "[::1]", 5) == 0;
	}
	for (n = 0; h + n < end && h[n] != ':'; n++)
		;
	if (n > 0 && h[n - 1] == '.')
		n--; /* "localhost." */
	if (n == 9 && strncasecmp(h, "localhost", 9) == 0)
		return 1;
	return is_ipv4_loopback(h, n);
}

int
smp__url_check(const char *url, int allow_http, struct smp_error *err)
{
	size_t i, n;
	int http;

	if (!url || !url[0])
		return smp__error_set(err, SMP_EINVAL, "url", NULL,
				      "no data URL given");
	if (strlen(url) > SMP_URL_MAX)
		return smp__error_set(err, SMP_EINVAL, "url", NULL,
				      "the URL is too long");
	n = scheme_len(url, &http);
	if (!n)
		return smp__error_set(
			err, SMP_EINVAL, url, NULL,
			"the data URL must start with https:// (or "
			"http:// for a loopback host)");
	for (i = 0; url[i]; i++) {
		unsigned char c = (unsigned char)url[i];

		if (c <= 0x20 || c >= 0x7f)
			return smp__error_set(
				err, SMP_EINVAL, url, NULL,
				"the URL holds a space, control or "
				"non-ASCII character; percent-encode it");
		if (c == '?' || c == '#')
			return smp__error_set(
				err, SMP_EINVAL, url, NULL,
				"the URL must name a folder, without a "
				"query or fragment");
	}
	if (url[n] == '\0' || url[n] == '/' || url[n] == ':' || url[n] == '@')
		return smp__error_set(err, SMP_EINVAL, url, NULL,
				      "the URL has no host");
	if (http && !allow_http && !smp__url_is_loopback(url))
		return smp__error_set(
			err, SMP_EINVAL, url, NULL,
			"plain http:// is allowed only to a loopback host "
			"unless explicitly allowed (--allow-http); use "
			"https://");
	return 0;
}
