/*
 * fetch_curl.c - the default fetcher: one libcurl easy handle per GET,
 * set up defensively (curl's "libcurl security considerations"): no
 * signals, explicit protocols for the request and for redirects, TLS
 * verification forced on, timeouts, a size cap, no proxy or .netrc taken
 * from the environment.
 *
 * libcurl is loaded at each call with dlopen() rather than linked: linked,
 * it and the ~30 libraries it needs (TLS, Kerberos, LDAP, ...) cost every
 * process about 3 ms and 6 MiB, although only a data refresh uses them.
 * Its functions are looked up into a struct on the caller's stack, so
 * nothing is kept between calls; the loader counts references, and
 * RTLD_NODELETE keeps the library mapped after the first call.
 */
#include <curl/curl.h>
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "catalog/url.h"

#define MAX_REDIRECTS 5L

/* The library's name at run time (a build may point it elsewhere). */
#ifndef SMP_CURL_SONAME
#define SMP_CURL_SONAME "libcurl.so.4"
#endif
#ifndef RTLD_NODELETE
#define RTLD_NODELETE 0
#endif

/* The libcurl functions used here; names differ from curl's own, which
 * curl.h may define as type-checking macros. */
struct curl_api {
	void *lib;
	CURLcode (*global_init)(long flags);
	void (*global_cleanup)(void);
	curl_version_info_data *(*version_info)(CURLversion v);
	CURL *(*easy_init)(void);
	CURLcode (*easy_setopt)(CURL *h, CURLoption opt, ...);
	CURLcode (*easy_perform)(CURL *h);
	CURLcode (*easy_getinfo)(CURL *h, CURLINFO info, ...);
	void (*easy_cleanup)(CURL *h);
	const char *(*easy_strerror)(CURLcode c);
	struct curl_slist *(*slist_append)(struct curl_slist *l, const char *s);
	void (*slist_free_all)(struct curl_slist *l);
	int initialized; /* global_init() was called and needs its cleanup */
};

static const struct {
	const char *name;
	size_t offset;
} curl_symbols[] = {
	{"curl_global_init", offsetof(struct curl_api, global_init)},
	{"curl_global_cleanup", offsetof(struct curl_api, global_cleanup)},
	{"curl_version_info", offsetof(struct curl_api, version_info)},
	{"curl_easy_init", offsetof(struct curl_api, easy_init)},
	{"curl_easy_setopt", offsetof(struct curl_api, easy_setopt)},
	{"curl_easy_perform", offsetof(struct curl_api, easy_perform)},
	{"curl_easy_getinfo", offsetof(struct curl_api, easy_getinfo)},
	{"curl_easy_cleanup", offsetof(struct curl_api, easy_cleanup)},
	{"curl_easy_strerror", offsetof(struct curl_api, easy_strerror)},
	{"curl_slist_append", offsetof(struct curl_api, slist_append)},
	{"curl_slist_free_all", offsetof(struct curl_api, slist_free_all)},
};

/* dlsym() returns a data pointer stored into function pointers */
_Static_assert(sizeof(void *) == sizeof(void (*)(void)),
	       "function and data pointers differ in size");

static void
curl_unload(struct curl_api *api)
{
	if (api->initialized)
		api->global_cleanup();
	dlclose(api->lib);
}

/*
 * Loads libcurl and looks its functions up (POSIX guarantees that a data
 * pointer from dlsym() converts to a function pointer; memcpy() says so
 * without a cast ISO C lacks). Since 7.84, curl_global_init() is
 * reference-counted and thread-safe where libcurl says so, and is then
 * called here; an older libcurl initialises itself in curl_easy_init(),
 * or the program has called curl_global_init() before its threads.
 */
static int
curl_load(struct curl_api *api, struct smp_fetch_response *resp)
{
	const curl_version_info_data *v;
	const char *why;
	size_t i;

	memset(api, 0, sizeof(*api));
	api->lib =
		dlopen(SMP_CURL_SONAME, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
	if (!api->lib) {
		why = dlerror();
		snprintf(resp->error, sizeof(resp->error),
			 "cannot load libcurl (" SMP_CURL_SONAME
			 "), which downloads need: %.160s",
			 why ? why : "not found");
		return SMP_EFETCH;
	}
	for (i = 0; i < sizeof(curl_symbols) / sizeof(curl_symbols[0]); i++) {
		void *sym = dlsym(api->lib, curl_symbols[i].name);

		if (!sym) {
			snprintf(resp->error, sizeof(resp->error),
				 SMP_CURL_SONAME " lacks %s (libcurl 7.85 or "
						 "later needed)",
				 curl_symbols[i].name);
			dlclose(api->lib);
			return SMP_EFETCH;
		}
		memcpy((char *)api + curl_symbols[i].offset, &sym, sizeof(sym));
	}
	v = api->version_info(CURLVERSION_NOW);
	if (v && (v->features & CURL_VERSION_THREADSAFE)) {
		if (api->global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
			snprintf(resp->error, sizeof(resp->error),
				 "cannot initialize libcurl");
			dlclose(api->lib);
			return SMP_EFETCH;
		}
		api->initialized = 1;
	}
	return 0;
}

struct transfer {
	const struct smp_fetch_request *req;
	struct smp_fetch_response *resp;
	int refused; /* the request's write callback said stop */
};

static size_t
on_body(char *data, size_t size, size_t n, void *ud)
{
	struct transfer *t = ud;
	size_t len = size * n;

	if (len && t->req->write(t->req->write_ud, data, len)) {
		t->refused = 1;
		return 0; /* curl ends the transfer with CURLE_WRITE_ERROR */
	}
	return len;
}

/* Copies a header's value, trimmed, when the line is "name: value". */
static int
header_value(char *out, size_t outsz, const char *line, size_t len,
	     const char *name)
{
	size_t k = strlen(name), i, j;

	if (len <= k || strncasecmp(line, name, k) != 0 || line[k] != ':')
		return 0;
	for (i = k + 1; i < len && (line[i] == ' ' || line[i] == '\t'); i++)
		;
	for (j = len; j > i && (line[j - 1] == '\r' || line[j - 1] == '\n' ||
				line[j - 1] == ' ' || line[j - 1] == '\t');
	     j--)
		;
	if (j - i >= outsz)
		j = i; /* absurdly long: better none than a cut one */
	memcpy(out, line + i, j - i);
	out[j - i] = '\0';
	return 1;
}

/* Each response of a redirect chain starts with its status line, so the
 * validators kept are those of the final response. */
static size_t
on_header(char *line, size_t size, size_t n, void *ud)
{
	struct transfer *t = ud;
	size_t len = size * n;

	if (len >= 5 && strncmp(line, "HTTP/", 5) == 0) {
		t->resp->etag[0] = '\0';
		t->resp->last_modified[0] = '\0';
	} else if (!header_value(t->resp->etag, sizeof(t->resp->etag), line,
				 len, "ETag")) {
		header_value(t->resp->last_modified,
			     sizeof(t->resp->last_modified), line, len,
			     "Last-Modified");
	}
	return len;
}

/* A header value taken from the cache must not smuggle a line break. */
static int
header_safe(const char *v)
{
	for (; *v; v++)
		if ((unsigned char)*v < 0x20 || *v == 0x7f)
			return 0;
	return 1;
}

static int
add_header(const struct curl_api *api, struct curl_slist **list,
	   const char *name, const char *value)
{
	char line[512];
	struct curl_slist *l;

	if (!value || !value[0] || !header_safe(value) ||
	    snprintf(line, sizeof(line), "%s: %s", name, value) >=
		    (int)sizeof(line))
		return 0; /* unconditional then: costs bytes, not safety */
	l = api->slist_append(*list, line);
	if (!l)
		return -1;
	*list = l;
	return 0;
}

static int
is_transient(CURLcode c)
{
	switch (c) {
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_COULDNT_CONNECT:
	case CURLE_GOT_NOTHING:
	case CURLE_PARTIAL_FILE:
	case CURLE_RECV_ERROR:
	case CURLE_SEND_ERROR:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
		return 1;
	default:
		return 0;
	}
}

static int
setup(const struct curl_api *api, CURL *h, const struct smp_fetch_request *req,
      struct transfer *t, struct curl_slist *headers, char *errbuf)
{
	int plain = req->allow_http || smp__url_is_loopback(req->url);
	CURLcode c = CURLE_OK;

#define SET(opt, val)                                                          \
	do {                                                                   \
		if (c == CURLE_OK)                                             \
			c = api->easy_setopt(h, opt, val);                     \
	} while (0)
	SET(CURLOPT_ERRORBUFFER, errbuf);
	SET(CURLOPT_NOSIGNAL, 1L);
	SET(CURLOPT_URL, req->url);
	SET(CURLOPT_PROTOCOLS_STR, plain ? "https,http" : "https");
	SET(CURLOPT_REDIR_PROTOCOLS_STR, "https");
	SET(CURLOPT_FOLLOWLOCATION, 1L);
	SET(CURLOPT_MAXREDIRS, MAX_REDIRECTS);
	SET(CURLOPT_SSL_VERIFYPEER, 1L);
	SET(CURLOPT_SSL_VERIFYHOST, 2L);
	SET(CURLOPT_SSLVERSION, (long)CURL_SSLVERSION_TLSv1_2);
	if (req->ca_file)
		SET(CURLOPT_CAINFO, req->ca_file);
	/* "" turns proxies off, the environment's included */
	SET(CURLOPT_PROXY, req->proxy ? req->proxy : "");
	SET(CURLOPT_NOPROXY, "localhost,127.0.0.1,::1");
	SET(CURLOPT_NETRC, (long)CURL_NETRC_IGNORED);
	SET(CURLOPT_CONNECTTIMEOUT_MS, req->connect_timeout_ms);
	SET(CURLOPT_TIMEOUT_MS, req->timeout_ms);
	SET(CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)req->max_size);
	SET(CURLOPT_ACCEPT_ENCODING, "");
	SET(CURLOPT_USERAGENT, "sm-preflight/" SMP_VERSION_STRING);
	SET(CURLOPT_HTTPHEADER, headers);
	SET(CURLOPT_WRITEFUNCTION, on_body);
	SET(CURLOPT_WRITEDATA, t);
	SET(CURLOPT_HEADERFUNCTION, on_header);
	SET(CURLOPT_HEADERDATA, t);
#undef SET
	return c == CURLE_OK ? 0 : (int)c;
}

/* A redirect to a protocol other than https is refused by libcurl with a
 * message about its build; say what happened instead. */
static int
redirected(const struct curl_api *api, CURL *h, const char *url,
	   struct smp_fetch_response *resp)
{
	char *where = NULL;

	if (api->easy_getinfo(h, CURLINFO_EFFECTIVE_URL, &where) != CURLE_OK ||
	    !where || strcmp(where, url) == 0)
		return 0;
	snprintf(resp->error, sizeof(resp->error),
		 "refused the redirect to '%.180s': only https:// redirects "
		 "are followed",
		 where);
	return 1;
}

int
smp_fetch_curl(void *ud, const struct smp_fetch_request *req,
	       struct smp_fetch_response *resp)
{
	char errbuf[CURL_ERROR_SIZE];
	struct curl_slist *headers = NULL;
	struct transfer t = {req, resp, 0};
	struct curl_api api;
	CURL *h;
	CURLcode c;
	long status = 0;
	int rc = 0;

	(void)ud;
	errbuf[0] = '\0';
	resp->status = 0;
	if (!req || !req->url || !req->write) {
		snprintf(resp->error, sizeof(resp->error), "invalid request");
		return SMP_EFETCH;
	}
	if (curl_load(&api, resp))
		return SMP_EFETCH;
	h = api.easy_init();
	if (!h) {
		snprintf(resp->error, sizeof(resp->error),
			 "cannot start libcurl");
		curl_unload(&api);
		return SMP_EFETCH;
	}
	if (add_header(&api, &headers, "If-None-Match", req->if_none_match) ||
	    add_header(&api, &headers, "If-Modified-Since",
		       req->if_modified_since)) {
		rc = SMP_ENOMEM;
		goto out;
	}
	if (setup(&api, h, req, &t, headers, errbuf) != 0) {
		snprintf(resp->error, sizeof(resp->error),
			 "libcurl lacks a required option (7.85 or later "
			 "needed)");
		rc = SMP_EFETCH;
		goto out;
	}
	c = api.easy_perform(h);
	api.easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
	if (c == CURLE_OK) {
		resp->status = status;
		goto out;
	}
	rc = SMP_EFETCH;
	/* curl's own cap (a Content-Length over it), or the library's sink
	 * refusing more */
	if (c == CURLE_FILESIZE_EXCEEDED ||
	    (c == CURLE_WRITE_ERROR && t.refused))
		resp->too_large = 1;
	resp->transient = is_transient(c);
	if (c == CURLE_UNSUPPORTED_PROTOCOL &&
	    redirected(&api, h, req->url, resp))
		goto out;
	snprintf(resp->error, sizeof(resp->error), "%s",
		 errbuf[0] ? errbuf : api.easy_strerror(c));
out:
	api.easy_cleanup(h);
	api.slist_free_all(headers);
	curl_unload(&api);
	return rc;
}
