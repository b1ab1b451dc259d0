/*
 * test_fetch.c - smp_data_update() with a fake fetcher (no network): the
 * URL policy, conditional requests, retries and their backoff, size cap,
 * validation and index digests, the list of changes, write failures
 * injected through the cache I/O, and allocation failure at every step.
 * The real libcurl fetcher is exercised by tests/net/run.sh.
 */
#include <criterion/criterion.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog/data_cache.h"
#include "catalog/embedded.h"
#include "failing_alloc.h"
#include "catalog/fetch.h"
#include "helpers.h"
#include "util/sha256.h"
#include "small_docs.h"

/* ---------------------------------------------------------------- helpers */

/* What the fake server holds per document (instances, tested-models,
 * frameworks, index); a NULL body answers 404. */
#define FAKE_SIG SMP_DOC_COUNT /* index.json.sig */
struct fake {
	const char *body[SMP_DOC_COUNT + 1];
	size_t len[SMP_DOC_COUNT + 1];
	const char *etag[SMP_DOC_COUNT + 1];
	int fail_first[SMP_DOC_COUNT + 1]; /* 500s before the 200 */
	int transport;                     /* 1: every call times out */
	int transient;                     /* with transport: worth a retry */
	int calls;
	int not_modified;
	int conditional; /* requests that carried If-None-Match */
	long slept[16];
	int nsleep;
};

static int
doc_of(const char *url)
{
	const char *name = strrchr(url, '/') + 1;
	int i;

	for (i = 0; i < SMP_DOC_COUNT; i++)
		if (strcmp(name, smp__doc_names[i]) == 0)
			return i;
	return strcmp(name, "index.json.sig") == 0 ? FAKE_SIG : -1;
}

static int
fake_fetch(void *ud, const struct smp_fetch_request *req,
	   struct smp_fetch_response *resp)
{
	struct fake *f = ud;
	int d = doc_of(req->url);
	size_t off, n;

	f->calls++;
	cr_assert_geq(d, 0, "unexpected URL %s", req->url);
	if (f->transport) {
		snprintf(resp->error, sizeof(resp->error), "timed out");
		resp->transient = f->transient;
		return SMP_EFETCH;
	}
	if (f->fail_first[d] > 0) {
		f->fail_first[d]--;
		resp->status = 500;
		return 0;
	}
	if (!f->body[d]) {
		resp->status = 404;
		return 0;
	}
	if (req->if_none_match)
		f->conditional++;
	if (f->etag[d] && req->if_none_match &&
	    strcmp(req->if_none_match, f->etag[d]) == 0) {
		f->not_modified++;
		resp->status = 304;
		return 0;
	}
	for (off = 0; off < f->len[d]; off += n) {
		n = f->len[d] - off < 4096 ? f->len[d] - off : 4096;
		if (req->write(req->write_ud, f->body[d] + off, n))
			return SMP_EFETCH; /* as libcurl does */
	}
	resp->status = 200;
	if (f->etag[d])
		snprintf(resp->etag, sizeof(resp->etag), "%s", f->etag[d]);
	return 0;
}

static void
record_sleep(void *ud, long ms)
{
	struct fake *f = ud;

	if (f->nsleep < 16)
		f->slept[f->nsleep++] = ms;
}

/* The fake serves the embedded data, with ETags. */
static void
fake_embedded(struct fake *f)
{
	int i;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < 3; i++) {
		const struct smp_embedded_file *e =
			smp__embedded_find(smp__doc_names[i]);

		cr_assert_not_null(e);
		f->body[i] = (const char *)e->data;
		f->len[i] = e->len;
	}
	f->etag[0] = "\"i1\"";
	f->etag[1] = "\"t1\"";
	f->etag[2] = "\"f1\"";
}

/* s with the first `from` replaced by `to` (malloc'd). */
static char *
replace1(const char *s, size_t len, const char *from, const char *to,
	 size_t *out_len)
{
	const char *p = strstr(s, from);
	size_t a, b = strlen(from), c = strlen(to);
	char *r;

	cr_assert_not_null(p, "'%s' not found", from);
	a = (size_t)(p - s);
	r = malloc(len - b + c + 1);
	cr_assert_not_null(r);
	memcpy(r, s, a);
	memcpy(r + a, to, c);
	memcpy(r + a + c, p + b, len - a - b);
	r[len - b + c] = '\0';
	*out_len = len - b + c;
	return r;
}

/* The text of `"key": "value"` (first occurrence) in from. */
static void
field_text(char *from, size_t size, const char *s, const char *key)
{
	char pre[64];
	const char *p, *end;

	snprintf(pre, sizeof(pre), "\"%s\": \"", key);
	p = strstr(s, pre);
	cr_assert_not_null(p);
	end = strchr(p + strlen(pre), '"');
	cr_assert_not_null(end);
	snprintf(from, size, "%.*s", (int)(end + 1 - p), p);
}

/* Replaces the header fields "data_version" and "generated". */
static char *
redate(const char *s, size_t len, const char *version, const char *date,
       size_t *out_len)
{
	char from_v[64], from_g[64], to_v[64], to_g[64], *t, *r;
	size_t tl;

	field_text(from_v, sizeof(from_v), s, "data_version");
	field_text(from_g, sizeof(from_g), s, "generated");
	snprintf(to_v, sizeof(to_v), "\"data_version\": \"%s\"", version);
	snprintf(to_g, sizeof(to_g), "\"generated\": \"%s\"", date);
	t = replace1(s, len, from_v, to_v, &tl);
	r = replace1(t, tl, from_g, to_g, out_len);
	free(t);
	return r;
}

static char tmp_root[64];

static const char *
make_tmp(void)
{
	snprintf(tmp_root, sizeof(tmp_root), "/tmp/smp-fetch-XXXXXX");
	cr_assert_not_null(mkdtemp(tmp_root));
	return tmp_root;
}

struct env {
	struct fake fake;
	struct smp_options opts;
	struct smp_update_options up;
	char cache[128];
	struct smp_error err;
};

static void
env_init(struct env *e)
{
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_update_options u = SMP_UPDATE_OPTIONS_INIT;

	memset(e, 0, sizeof(*e));
	fake_embedded(&e->fake);
	snprintf(e->cache, sizeof(e->cache), "%s/cache", make_tmp());
	e->opts = o;
	e->opts.cache_dir = e->cache;
	e->up = u;
	e->up.url = "https://data.example.com/instance-data";
	e->up.fetch = fake_fetch;
	e->up.fetch_ud = &e->fake;
	e->up.sleep_fn = record_sleep;
	e->up.sleep_ud = &e->fake;
	e->up.retry_delay_ms = 100;
	e->up.now = 1800000000;
	/* the download's mechanics; the signature has tests of its own */
	e->up.insecure_unsigned = 1;
}

static void
env_release(struct env *e)
{
	th_rm_tree(tmp_root);
	(void)e;
}

static int
update(struct env *e, struct smp_update_result **r)
{
	memset(&e->err, 0, sizeof(e->err));
	return smp_data_update(r, &e->opts, &e->up, &e->err);
}

/* The data_version of the embedded data. */
static const char *
builtin(void)
{
	static char v[32];
	struct smp_context *ctx = NULL;
	struct smp_error err = {0};

	cr_assert_eq(smp_context_new(&ctx, NULL, &err), 0);
	snprintf(v, sizeof(v), "%s", smp_context_data_version(ctx));
	smp_context_free(ctx);
	return v;
}

/* The data_version a context with the env's options uses, and where
 * from. */
static void
expect_in_use(struct env *e, const char *version, enum smp_data_origin o)
{
	struct smp_context *ctx = NULL;
	struct smp_error err = {0};

	cr_assert_eq(smp_context_new(&ctx, &e->opts, &err), 0, "%s",
		     err.message);
	cr_assert_str_eq(smp_context_data_version(ctx), version);
	cr_assert_eq(smp_context_data_origin(ctx), o);
	smp_context_free(ctx);
}

/* ------------------------------------------------------------------ tests */

Test(fetch, url_policy)
{
	struct smp_error err = {0};

	cr_assert_eq(smp__url_check("https://example.com/d/", 0, &err), 0);
	cr_assert_eq(smp__url_check("http://127.0.0.1:8080/d", 0, &err), 0);
	cr_assert_eq(smp__url_check("http://localhost/d", 0, &err), 0);
	cr_assert_eq(smp__url_check("http://[::1]:80/d", 0, &err), 0);
	cr_assert_eq(smp__url_check("http://example.com/d", 0, &err),
		     SMP_EINVAL);
	cr_assert(strstr(err.message, "loopback"));
	cr_assert_eq(smp__url_check("http://example.com/d", 1, &err), 0);
	cr_assert_eq(smp__url_check("ftp://example.com/d", 1, &err),
		     SMP_EINVAL);
	cr_assert_eq(smp__url_check("file:///etc", 1, &err), SMP_EINVAL);
	cr_assert_eq(smp__url_check("https://", 0, &err), SMP_EINVAL);
	cr_assert_eq(smp__url_check("https://a.com/d?x=1", 0, &err),
		     SMP_EINVAL);
	cr_assert_eq(smp__url_check("https://a.com/a b", 0, &err), SMP_EINVAL);
	cr_assert_eq(smp__url_check("https://a.com/\r\nX: y", 0, &err),
		     SMP_EINVAL);
	cr_assert_eq(smp__url_check("", 0, &err), SMP_EINVAL);
}

Test(fetch, loopback_hosts)
{
	cr_assert(smp__url_is_loopback("http://127.0.0.1/"));
	cr_assert(smp__url_is_loopback("http://127.1.2.3:99/x"));
	cr_assert(smp__url_is_loopback("https://LOCALHOST./x"));
	cr_assert(smp__url_is_loopback("http://user@localhost:1"));
	cr_assert(smp__url_is_loopback("http://[::1]/"));
	cr_assert_not(smp__url_is_loopback("http://128.0.0.1/"));
	cr_assert_not(smp__url_is_loopback("http://127.0.0.1.evil.com/"));
	cr_assert_not(smp__url_is_loopback("http://localhost.example.com/"));
	cr_assert_not(smp__url_is_loopback("http://localhost@evil.com/"));
	cr_assert_not(smp__url_is_loopback("http://[::2]/"));
	cr_assert_not(smp__url_is_loopback("ftp://127.0.0.1/"));
}

Test(fetch, refuses_bad_options_without_fetching)
{
	struct smp_update_result *r = NULL;
	struct env e;

	env_init(&e);
	e.opts.offline = 1;
	cr_assert_eq(update(&e, &r), SMP_EINVAL);
	cr_assert(strstr(e.err.message, "offline"));
	e.opts.offline = 0;
	e.opts.cache_dir = NULL;
	cr_assert_eq(update(&e, &r), SMP_EINVAL);
	e.opts.cache_dir = e.cache;
	e.up.url = NULL;
	cr_assert_eq(update(&e, &r), SMP_EINVAL);
	e.up.url = "http://data.example.com/";
	cr_assert_eq(update(&e, &r), SMP_EINVAL);
	e.up.version = 99;
	cr_assert_eq(update(&e, &r), SMP_EINVAL);
	cr_assert_null(r);
	cr_assert_eq(e.fake.calls, 0);
	env_release(&e);
}

Test(fetch, first_update_stores_and_is_used)
{
	struct smp_update_result *r = NULL;
	struct env e;

	env_init(&e);
	cr_assert_eq(update(&e, &r), 0, "%s: %s", e.err.source, e.err.message);
	/* same bytes as the built-in data: nothing changed in use */
	cr_assert_eq(r->outcome, SMP_UPDATE_UNCHANGED);
	cr_assert_eq(r->old_origin, SMP_DATA_BUILTIN);
	cr_assert_eq(r->change_count, 0);
	cr_assert_str_eq(r->url, "https://data.example.com/instance-data/");
	cr_assert_eq(r->requests, 4); /* index (404) + 3 */
	cr_assert_not(r->verified);
	smp_update_result_free(r);
	expect_in_use(&e, builtin(), SMP_DATA_CACHE);
	env_release(&e);
}

Test(fetch, conditional_requests_answer_304)
{
	struct smp_update_result *r = NULL;
	struct env e;

	env_init(&e);
	cr_assert_eq(update(&e, &r), 0);
	smp_update_result_free(r);
	cr_assert_eq(e.fake.conditional, 0);
	cr_assert_eq(update(&e, &r), 0, "%s", e.err.message);
	cr_assert_eq(e.fake.conditional, 3);
	cr_assert_eq(e.fake.not_modified, 3);
	cr_assert(r->not_modified);
	cr_assert_eq(r->outcome, SMP_UPDATE_UNCHANGED);
	smp_update_result_free(r);
	/* another source: its validators are not ours to send */
	e.up.url = "https://mirror.example.com/d/";
	e.fake.conditional = 0;
	cr_assert_eq(update(&e, &r), 0);
	cr_assert_eq(e.fake.conditional, 0);
	smp_update_result_free(r);
	env_release(&e);
}

Test(fetch, changes_are_listed)
{
	struct smp_update_result *r = NULL;
	char *doc[3], *t;
	size_t len[3], tl;
	struct env e;
	size_t i;
	int added = 0, removed = 0, changed = 0;

	env_init(&e);
	for (i = 0; i < 3; i++) {
		doc[i] = redate(e.fake.body[i], e.fake.len[i], "2100.01.01",
				"2100-01-01", &len[i]);
		e.fake.body[i] = doc[i];
		e.fake.len[i] = len[i];
	}
	/* rename one type (one removed, one added), change another */
	t = replace1(doc[0], len[0], "\"type\": \"ml.trn1.32xlarge\"",
		     "\"type\": \"ml.trn9.32xlarge\"", &tl);
	free(doc[0]);
	doc[0] = replace1(t, tl, "\"vcpus\": 8,", "\"vcpus\": 9,", &len[0]);
	free(t);
	e.fake.body[0] = doc[0];
	e.fake.len[0] = len[0];
	cr_assert_eq(update(&e, &r), 0, "%s: %s", e.err.source, e.err.message);
	cr_assert_eq(r->outcome, SMP_UPDATE_UPDATED);
	cr_assert_str_eq(r->new_version, "2100.01.01");
	cr_assert_str_eq(r->new_date, "2100-01-01");
	for (i = 0; i < r->change_count; i++) {
		const struct smp_data_change *c = &r->changes[i];

		if (c->kind == SMP_DATA_ADDED) {
			added++;
			cr_assert_str_eq(c->instance_type, "ml.trn9.32xlarge");
		} else if (c->kind == SMP_DATA_REMOVED) {
			removed++;
			cr_assert_str_eq(c->instance_type, "ml.trn1.32xlarge");
		} else {
			changed++;
			cr_assert_str_eq(c->detail, "vcpus 8 -> 9");
		}
	}
	cr_assert_eq(added, 1);
	cr_assert_eq(removed, 1);
	cr_assert_eq(changed, 1);
	smp_update_result_free(r);
	expect_in_use(&e, "2100.01.01", SMP_DATA_CACHE);
	for (i = 0; i < 3; i++)
		free(doc[i]);
	env_release(&e);
}

Test(fetch, retries_5xx_with_doubling_delay)
{
	struct smp_update_result *r = NULL;
	struct env e;

	env_init(&e);
	e.fake.fail_first[1] = 2;
	cr_assert_eq(update(&e, &r), 0, "%s", e.err.message);
	cr_assert_eq(e.fake.nsleep, 2);
	cr_assert_eq(e.fake.slept[0], 100);
	cr_assert_eq(e.fake.slept[1], 200);
	cr_assert_eq(r->requests, 6);
	smp_update_result_free(r);
	env_release(&e);
}

Test(fetch, gives_up_after_max_attempts)
{
	struct smp_update_result *r = NULL;
	struct env e;

	env_init(&e);
	e.fake.fail_first[0] = 10;
	e.up.max_attempts = 3;
	cr_assert_eq(update(&e, &r), SMP_EFETCH);
	cr_assert_null(r);
	cr_assert_str_eq(e.err.source, "https://data.example.com/instance-data/"
				       "instances.json");
	cr_assert_str_eq(e.err.message, "the server answered HTTP 500 (3 "
					"attempts)");
	cr_assert_eq(e.fake.nsleep, 2);
	env_release(&e);
}

Test(fetch, transient_failures_retried_others_not)
{
	struct smp_update_result *r = NULL;
	struct env e;
	int calls;

	env_init(&e);
	e.fake.transport = 1;
	e.fake.transient = 1;
	cr_assert_eq(update(&e, &r), SMP_EFETCH);
	cr_assert_eq(e.fake.calls, 3);
	cr_assert(strstr(e.err.message, "timed out (3 attempts)"));
	calls = e.fake.calls;
	e.fake.transient = 0;
	cr_assert_eq(update(&e, &r), SMP_EFETCH);
	cr_assert_eq(e.fake.calls - calls, 1);
	cr_assert_str_eq(e.err.message, "timed out");
	env_release(&e);
}

Test(fetch, missing_document_fails_missing_index_does_not)
{
	struct smp_update_result *r = NULL;
	struct env e;

	env_init(&e);
	e.fake.body[2] = NULL;
	cr_assert_eq(update(&e, &r), SMP_EFETCH);
	cr_assert(strstr(e.err.source, "frameworks.json"));
	cr_assert_str_eq(e.err.message, "the server answered HTTP 404");
	cr_assert_eq(access(e.cache, F_OK), -1, "nothing written");
	env_release(&e);
}

Test(fetch, size_cap)
{
	struct smp_update_result *r = NULL;
	struct env e;

	env_init(&e);
	e.up.max_size = 10000; /* instances.json is larger */
	cr_assert_eq(update(&e, &r), SMP_EFETCH);
	cr_assert(strstr(e.err.message, "larger than the limit of 10000"));
	env_release(&e);
}

/* A bad document leaves the previous refresh in use. */
static void
expect_refused(struct env *e, int doc, const char *body, int code,
	       const char *msg)
{
	struct smp_update_result *r = NULL;

	cr_assert_eq(update(e, &r), 0);
	smp_update_result_free(r);
	e->fake.body[doc] = body;
	e->fake.len[doc] = strlen(body);
	e->fake.etag[doc] = NULL;
	cr_assert_eq(update(e, &r), code, "%s", e->err.message);
	cr_assert_null(r);
	cr_assert(strstr(e->err.message, msg), "message: %s", e->err.message);
	expect_in_use(e, builtin(), SMP_DATA_CACHE);
	cr_assert_eq(th_count_prefixed(e->cache, ".tmp-"), 0);
}

Test(fetch, invalid_json_refused)
{
	struct env e;

	env_init(&e);
	expect_refused(&e, 0, "{\"schema_version\": 1,\n  \"data_v", SMP_EPARSE,
		       "unexpected end of input");
	cr_assert_eq(e.err.line, 2);
	cr_assert(strstr(e.err.source, "instances.json"));
	env_release(&e);
}

Test(fetch, wrong_schema_version_refused)
{
	struct env e;

	env_init(&e);
	expect_refused(&e, 2, "{\"schema_version\": 7}", SMP_EPARSE,
		       "unsupported schema_version 7");
	cr_assert_eq(e.err.line, 1);
	cr_assert_eq(e.err.column, 20);
	env_release(&e);
}

Test(fetch, index_digests_verified)
{
	struct smp_update_result *r = NULL;
	char index[512], h[3][65];
	struct env e;
	int i;

	env_init(&e);
	for (i = 0; i < 3; i++)
		smp__sha256_hex(h[i], e.fake.body[i], e.fake.len[i]);
	snprintf(index, sizeof(index),
		 "{\"files\": {\"instances.json\": {\"sha256\": \"%s\"}, "
		 "\"tested-models.json\": {\"sha256\": \"%s\"}, "
		 "\"frameworks.json\": {\"sha256\": \"%s\"}}}",
		 h[0], h[1], h[2]);
	e.fake.body[SMP_DOC_INDEX] = index;
	e.fake.len[SMP_DOC_INDEX] = strlen(index);
	cr_assert_eq(update(&e, &r), 0, "%s", e.err.message);
	cr_assert(r->verified);
	smp_update_result_free(r);
	/* one digit off */
	index[strlen(index) - 10] ^= 1;
	e.fake.etag[2] = NULL;
	cr_assert_eq(update(&e, &r), SMP_EFETCH);
	cr_assert(strstr(e.err.source, "frameworks.json"));
	cr_assert(strstr(e.err.message, "does not match"));
	/* an index without a digest for a file */
	snprintf(index, sizeof(index), "{\"files\": {}}");
	e.fake.len[SMP_DOC_INDEX] = strlen(index);
	cr_assert_eq(update(&e, &r), SMP_EPARSE);
	cr_assert(strstr(e.err.message, "no 64-digit 'sha256'"));
	env_release(&e);
}

/* Write failures injected into the commit: the old copy stays. */
struct io_fault {
	long budget; /* bytes that may still be written */
	int fail_fsync;
};

static ssize_t
short_write(void *ud, int fd, const void *buf, size_t len)
{
	struct io_fault *f = ud;

	if (f->budget <= 0) {
		errno = ENOSPC;
		return -1;
	}
	if ((long)len > f->budget)
		len = (size_t)f->budget; /* a partial write first */
	f->budget -= (long)len;
	return write(fd, buf, len);
}

static int
maybe_fsync(void *ud, int fd)
{
	struct io_fault *f = ud;

	if (f->fail_fsync) {
		errno = EIO;
		return -1;
	}
	return fsync(fd);
}

Test(fetch, write_failure_keeps_old_data)
{
	struct smp_update_result *r = NULL;
	struct io_fault fault = {0, 0};
	struct smp_cache_io io = {short_write, maybe_fsync, &fault, NULL};
	long budgets[5];
	char *doc[3];
	size_t len[3], i;
	struct env e;

	env_init(&e);
	cr_assert_eq(update(&e, &r), 0);
	smp_update_result_free(r);
	for (i = 0; i < 3; i++) {
		doc[i] = redate(e.fake.body[i], e.fake.len[i], "2100.01.01",
				"2100-01-01", &len[i]);
		e.fake.body[i] = doc[i];
		e.fake.len[i] = len[i];
		e.fake.etag[i] = NULL;
	}
	/* nothing, one byte, into instances.json, into tested-models.json,
	 * the last bytes of frameworks.json (meta.json comes last) */
	budgets[0] = 0;
	budgets[1] = 1;
	budgets[2] = 5000;
	budgets[3] = (long)(len[0] + 100);
	budgets[4] = (long)(len[0] + len[1] + len[2] - 10);
	for (i = 0; i < sizeof(budgets) / sizeof(budgets[0]); i++) {
		fault.budget = budgets[i];
		memset(&e.err, 0, sizeof(e.err));
		cr_assert_eq(
			smp__data_update_io(&r, &e.opts, &e.up, &io, &e.err),
			SMP_EIO, "budget %ld", budgets[i]);
		cr_assert(strstr(e.err.message, "No space left"));
		expect_in_use(&e, builtin(), SMP_DATA_CACHE);
		cr_assert_eq(th_count_prefixed(e.cache, ".tmp-"), 0);
		cr_assert_eq(th_count_prefixed(e.cache, "data-"), 1);
	}
	fault.budget = 1L << 30;
	fault.fail_fsync = 1;
	cr_assert_eq(smp__data_update_io(&r, &e.opts, &e.up, &io, &e.err),
		     SMP_EIO);
	expect_in_use(&e, builtin(), SMP_DATA_CACHE);
	fault.fail_fsync = 0;
	cr_assert_eq(smp__data_update_io(&r, &e.opts, &e.up, &io, &e.err), 0);
	smp_update_result_free(r);
	expect_in_use(&e, "2100.01.01", SMP_DATA_CACHE);
	cr_assert_eq(th_count_prefixed(e.cache, "data-"), 1);
	for (i = 0; i < 3; i++)
		free(doc[i]);
	env_release(&e);
}

/* Small but valid documents (small_docs.h), so that failing every
 * allocation stays fast under ASan with SMP_ARENA_DEBUG. */

static const char *const small_v1[3] = {
	SMALL_INSTANCES("2100.01.01", "2100-01-01", "32"),
	SMALL_TESTED("2100.01.01", "2100-01-01"),
	SMALL_FRAMEWORKS("2100.01.01", "2100-01-01")};
static const char *const small_v2[3] = {
	SMALL_INSTANCES("2100.02.02", "2100-02-02", "33"),
	SMALL_TESTED("2100.02.02", "2100-02-02"),
	SMALL_FRAMEWORKS("2100.02.02", "2100-02-02")};

static void
serve(struct fake *f, const char *const docs[3])
{
	int i;

	for (i = 0; i < 3; i++) {
		f->body[i] = docs[i];
		f->len[i] = strlen(docs[i]);
		f->etag[i] = NULL;
	}
}

/*
 * Out of memory is SMP_ENOMEM: fail allocation N of an update that replaces a
 * previous copy (reading the cache, downloads, validation, the diff,
 * the commit): N = 0..63 and the last 256 one by one, a stride between.
 * Every failure is SMP_ENOMEM, leaks nothing and leaves the old copy.
 */
Test(fetch, every_allocation_failure_is_clean)
{
	struct failing_alloc c = FA_INIT;
	struct smp_allocator a = fa_allocator(&c);
	struct smp_update_result *r = NULL;
	struct env e;
	char dry[160], real[160];
	long n, total, step;
	int rc;

	env_init(&e);
	snprintf(dry, sizeof(dry), "%s", e.cache);
	snprintf(real, sizeof(real), "%s/cache2", tmp_root);
	serve(&e.fake, small_v1);
	cr_assert_eq(update(&e, &r), 0, "%s", e.err.message);
	smp_update_result_free(r);
	e.opts.cache_dir = real;
	cr_assert_eq(update(&e, &r), 0);
	smp_update_result_free(r);
	serve(&e.fake, small_v2);
	e.opts.allocator = &a;
	/* a dry run on the twin cache counts the allocations */
	e.opts.cache_dir = dry;
	cr_assert_eq(update(&e, &r), 0, "%s", e.err.message);
	cr_assert_eq(r->change_count, 1);
	smp_update_result_free(r);
	total = c.calls;
	cr_assert_eq(c.live, 0);
	e.opts.cache_dir = real;
	step = total / 200 + 1;
	for (n = 0; n < total; n += n < 64 || n >= total - 256 ? 1 : step) {
		fa_arm(&c, n);
		rc = update(&e, &r);
		cr_assert_eq(rc, SMP_ENOMEM, "n=%ld of %ld: rc=%d %s", n, total,
			     rc, e.err.message);
		cr_assert_null(r);
		cr_assert_eq(c.live, 0, "n=%ld leaked %ld", n, c.live);
	}
	e.opts.allocator = NULL;
	expect_in_use(&e, "2100.01.01", SMP_DATA_CACHE);
	e.opts.allocator = &a;
	c.fail_at = FA_NEVER;
	cr_assert_eq(update(&e, &r), 0);
	cr_assert_eq(r->outcome, SMP_UPDATE_UPDATED);
	cr_assert_eq(r->change_count, 1);
	cr_assert_str_eq(r->changes[0].detail, "vcpus 32 -> 33");
	smp_update_result_free(r);
	cr_assert_eq(c.live, 0);
	env_release(&e);
}

/* ---------------------------------------------------- the signed index */

/* Signs msg with a test key through libcrypto (the library only ever
 * verifies): the key's public half in base64 into pub, the signature's
 * 64 bytes into sig. 0, or -1 when libcrypto is not there. */
static int
test_sign(const char *msg, size_t len, char pub[64], unsigned char sig[64])
{
	static const unsigned char seed[32] = "sm-preflight test key, not real";
	void *lib = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
	void *(*new_priv)(int, void *, const unsigned char *, size_t);
	int (*get_pub)(const void *, unsigned char *, size_t *);
	void *(*ctx_new)(void);
	int (*sign_init)(void *, void **, const void *, void *, void *);
	int (*sign)(void *, unsigned char *, size_t *, const unsigned char *,
		    size_t);
	void (*pkey_free)(void *);
	void (*ctx_free)(void *);
	unsigned char raw[32];
	size_t n = sizeof(raw), sl = 64;
	void *pk, *ctx;
	static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqr"
				  "stuvwxyz0123456789+/";
	size_t i, o = 0;

	if (!lib)
		return -1;
	*(void **)&new_priv = dlsym(lib, "EVP_PKEY_new_raw_private_key");
	*(void **)&get_pub = dlsym(lib, "EVP_PKEY_get_raw_public_key");
	*(void **)&ctx_new = dlsym(lib, "EVP_MD_CTX_new");
	*(void **)&sign_init = dlsym(lib, "EVP_DigestSignInit");
	*(void **)&sign = dlsym(lib, "EVP_DigestSign");
	*(void **)&pkey_free = dlsym(lib, "EVP_PKEY_free");
	*(void **)&ctx_free = dlsym(lib, "EVP_MD_CTX_free");
	cr_assert(new_priv && get_pub && ctx_new && sign_init && sign &&
		  pkey_free && ctx_free);
	pk = new_priv(1087 /* EVP_PKEY_ED25519 */, NULL, seed, 32);
	ctx = ctx_new();
	cr_assert(pk && ctx);
	cr_assert_eq(get_pub(pk, raw, &n), 1);
	cr_assert_eq(sign_init(ctx, NULL, NULL, NULL, pk), 1);
	cr_assert_eq(sign(ctx, sig, &sl, (const unsigned char *)msg, len), 1);
	ctx_free(ctx);
	pkey_free(pk);
	dlclose(lib);
	for (i = 0; i < 33; i += 3) { /* 32 bytes: 10 groups and a pair */
		unsigned long v =
			(unsigned long)raw[i] << 16 |
			(i + 1 < 32 ? (unsigned long)raw[i + 1] << 8 : 0) |
			(i + 2 < 32 ? raw[i + 2] : 0);

		pub[o++] = b64[v >> 18 & 63];
		pub[o++] = b64[v >> 12 & 63];
		pub[o++] = i + 1 < 32 ? b64[v >> 6 & 63] : '=';
		pub[o++] = i + 2 < 32 ? b64[v & 63] : '=';
	}
	pub[o] = '\0';
	return 0;
}

/* An index of the fake's three files with their digests. */
static void
make_index(struct env *e, char *index, size_t size)
{
	char h[3][65];
	int i;

	for (i = 0; i < 3; i++)
		smp__sha256_hex(h[i], e->fake.body[i], e->fake.len[i]);
	snprintf(index, size,
		 "{\"files\": {\"instances.json\": {\"sha256\": \"%s\"}, "
		 "\"tested-models.json\": {\"sha256\": \"%s\"}, "
		 "\"frameworks.json\": {\"sha256\": \"%s\"}}}",
		 h[0], h[1], h[2]);
	e->fake.body[SMP_DOC_INDEX] = index;
	e->fake.len[SMP_DOC_INDEX] = strlen(index);
}

Test(fetch, signed_index_taken_with_its_key)
{
	struct smp_update_result *r = NULL;
	unsigned char sig[64];
	char index[512], pub[64];
	struct env e;

	env_init(&e);
	e.up.insecure_unsigned = 0;
	make_index(&e, index, sizeof(index));
	if (test_sign(index, strlen(index), pub, sig))
		cr_skip_test("no libcrypto.so.3 (apt-get install libssl3)");
	e.fake.body[FAKE_SIG] = (const char *)sig;
	e.fake.len[FAKE_SIG] = sizeof(sig);
	e.up.public_key = pub;
	cr_assert_eq(update(&e, &r), 0, "%s", e.err.message);
	cr_assert(r->signature_verified);
	cr_assert(r->verified);
	smp_update_result_free(r);
	env_release(&e);
}

Test(fetch, unsigned_or_forged_data_refused)
{
	struct smp_update_result *r = NULL;
	unsigned char sig[64];
	char index[512], pub[64];
	struct env e;

	env_init(&e);
	e.up.insecure_unsigned = 0;
	/* no key at all: refused before any request */
	cr_assert_eq(update(&e, &r), SMP_EINVAL);
	cr_assert(strstr(e.err.message, "--public-key"), "%s", e.err.message);
	cr_assert_eq(e.fake.calls, 0);
	e.up.public_key = "not a key";
	cr_assert_eq(update(&e, &r), SMP_EINVAL);
	cr_assert_str_eq(e.err.source, "public key");
	make_index(&e, index, sizeof(index));
	if (test_sign(index, strlen(index), pub, sig))
		cr_skip_test("no libcrypto.so.3 (apt-get install libssl3)");
	e.up.public_key = pub;
	/* an index but no signature: 404 */
	cr_assert_eq(update(&e, &r), SMP_EFETCH);
	cr_assert(strstr(e.err.source, "index.json.sig"), "%s", e.err.source);
	/* a mirror that changed a digest (and so a fact) keeps the old
	 * signature: refused */
	e.fake.body[FAKE_SIG] = (const char *)sig;
	e.fake.len[FAKE_SIG] = sizeof(sig);
	index[20] = index[20] == 'a' ? 'b' : 'a';
	cr_assert_eq(update(&e, &r), SMP_EPARSE);
	cr_assert(strstr(e.err.message, "not signed by the public key"), "%s",
		  e.err.message);
	/* no index at all: nothing vouches for the files */
	e.fake.body[SMP_DOC_INDEX] = NULL;
	cr_assert_eq(update(&e, &r), SMP_EPARSE);
	cr_assert(strstr(e.err.message, "serves no index.json"), "%s",
		  e.err.message);
	/* and taken only when the caller says so */
	e.up.insecure_unsigned = 1;
	cr_assert_eq(update(&e, &r), 0, "%s", e.err.message);
	cr_assert(!r->signature_verified);
	smp_update_result_free(r);
	env_release(&e);
}
