/*
 * fetch_curl.c - the default fetcher: one libcurl easy handle per GET,
 * set up defensively (curl's "libcurl security considerations"): no
 * signals, explicit protocols for the request and for redirects, TLS
 * verification forced on, timeouts, a size cap, no proxy or .netrc taken
 * from the environment. curl_global_init() is the program's job.
 */
#include <curl/curl.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "fetch.h"

#define MAX_REDIRECTS 5L

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
add_header(struct curl_slist **list, const char *name, const char *value)
{
	char line[512];
	struct curl_slist *l;

	if (!value || !value[0] || !header_safe(value) ||
	    snprintf(line, sizeof(line), "%s: %s", name, value) >=
		    (int)sizeof(line))
		return 0; /* unconditional then: costs bytes, not safety */
	l = curl_slist_append(*list, line);
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
setup(CURL *h, const struct smp_fetch_request *req, struct transfer *t,
      struct curl_slist *headers, char *errbuf)
{
	int plain = req->allow_http || smp__url_is_loopback(req->url);
	CURLcode c = CURLE_OK;

#define SET(opt, val)                                                          \
	do {                                                                   \
		if (c == CURLE_OK)                                             \
			c = curl_easy_setopt(h, opt, val);                     \
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
redirected(CURL *h, const char *url, struct smp_fetch_response *resp)
{
	char *where = NULL;

	if (curl_easy_getinfo(h, CURLINFO_EFFECTIVE_URL, &where) != CURLE_OK ||
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
	h = curl_easy_init();
	if (!h) {
		snprintf(resp->error, sizeof(resp->error),
			 "cannot start libcurl");
		return SMP_EFETCH;
	}
	if (add_header(&headers, "If-None-Match", req->if_none_match) ||
	    add_header(&headers, "If-Modified-Since", req->if_modified_since)) {
		curl_easy_cleanup(h);
		curl_slist_free_all(headers);
		return SMP_ENOMEM;
	}
	if (setup(h, req, &t, headers, errbuf) != 0) {
		snprintf(resp->error, sizeof(resp->error),
			 "libcurl lacks a required option (7.85 or later "
			 "needed)");
		rc = SMP_EFETCH;
		goto out;
	}
	c = curl_easy_perform(h);
	curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
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
	if (c == CURLE_UNSUPPORTED_PROTOCOL && redirected(h, req->url, resp))
		goto out;
	snprintf(resp->error, sizeof(resp->error), "%s",
		 errbuf[0] ? errbuf : curl_easy_strerror(c));
out:
	curl_easy_cleanup(h);
	curl_slist_free_all(headers);
	return rc;
}
