/*
 * fetch.c - refreshing the instance data (`sm-preflight update-data`):
 * the URL policy, conditional downloads with retries through a fetcher
 * callback, verification (index.json digests, the catalog's own
 * validation), the atomic commit into the cache and the list of instance
 * types that changed.
 */
#include <ctype.h>
#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "util/alloc.h"
#include "util/buf.h"
#include "util/options.h"
#include "util/options_version.h"
#include "util/arena.h"
#include "catalog/catalog.h"
#include "catalog/data_cache.h"
#include "catalog/embedded.h"
#include "catalog/fetch.h"
#include "doc/load.h"
#include "util/sha256.h"
#include "catalog/signature.h"
#include "util/error.h"
#include "util/text.h"

#define DEFAULT_TIMEOUT_MS 60000L
#define DEFAULT_CONNECT_MS 10000L
#define DEFAULT_MAX_SIZE ((size_t)4 * 1024 * 1024)
#define DEFAULT_ATTEMPTS 3
#define DEFAULT_DELAY_MS 500L
#define MAX_DELAY_MS 30000L

/* ------------------------------------------------------------ result */

struct result {
	struct smp_update_result pub; /* first: the handle is &pub */
	struct smp_allocator alloc;
	struct smp_arena arena;
	struct smp_data_change *changes;
	size_t cap;
};

void
smp_update_result_free(struct smp_update_result *result)
{
	struct result *r = (struct result *)result;
	struct smp_allocator a;

	if (!r)
		return;
	a = r->alloc;
	smp__free(&a, r->changes);
	smp__arena_release(&r->arena);
	smp__free(&a, r);
}

static const char *
bool_name(int b)
{
	return b ? "true" : "false";
}

static const char *
str_or_none(const char *s)
{
	return s ? s : "none";
}

static int
same_str(const char *x, const char *y)
{
	return (!x && !y) || (x && y && strcmp(x, y) == 0);
}

/* "gpus 4 -> 8, efa false -> true" into the arena; "" when equal. */
static char *
instance_diff(struct smp_arena *ar, const struct smp_instance *o,
	      const struct smp_instance *n)
{
	char d[768];
	struct smp_buf b;

#define ADD(...)                                                               \
	do {                                                                   \
		smp__buf_adds(&b, b.len ? ", " : "");                          \
		smp__buf_addf(&b, __VA_ARGS__);                                \
	} while (0)

	smp__buf_init_fixed(&b, d, sizeof(d));
	if (!same_str(o->family, n->family))
		ADD("family %s -> %s", str_or_none(o->family),
		    str_or_none(n->family));
	if (o->vcpus != n->vcpus)
		ADD("vcpus %d -> %d", o->vcpus, n->vcpus);
	if (o->memory_gib != n->memory_gib)
		ADD("memory_gib %g -> %g", o->memory_gib, n->memory_gib);
	if (o->gpus != n->gpus)
		ADD("gpus %d -> %d", o->gpus, n->gpus);
	if (!same_str(o->gpu_model, n->gpu_model))
		ADD("gpu_model %s -> %s", str_or_none(o->gpu_model),
		    str_or_none(n->gpu_model));
	if (o->gpu_memory_gib != n->gpu_memory_gib)
		ADD("gpu_memory_gib %g -> %g", o->gpu_memory_gib,
		    n->gpu_memory_gib);
	if (!o->efa != !n->efa)
		ADD("efa %s -> %s", bool_name(o->efa), bool_name(n->efa));
	if (o->network_gbps != n->network_gbps)
		ADD("network_gbps %g -> %g", o->network_gbps, n->network_gbps);
	if (!o->compiler_supported != !n->compiler_supported)
		ADD("compiler_supported %s -> %s",
		    bool_name(o->compiler_supported),
		    bool_name(n->compiler_supported));
#undef ADD
	return smp__arena_strndup(ar, d, b.len);
}

static int
add_change(struct result *r, enum smp_data_change_kind kind, const char *type,
	   const char *detail)
{
	void *items = r->changes;
	struct smp_data_change *c;

	if (smp__grow(&r->alloc, &items, &r->cap, r->pub.change_count + 1,
		      sizeof(*r->changes)))
		return SMP_ENOMEM;
	r->changes = items;
	c = &r->changes[r->pub.change_count++];
	c->kind = kind;
	c->instance_type = smp__arena_strndup(&r->arena, type, strlen(type));
	c->detail = detail;
	return c->instance_type ? 0 : SMP_ENOMEM;
}

/* Added in new order, removed in old order, then changed. */
static int
diff_catalogs(struct result *r, const struct smp_catalog *o,
	      const struct smp_catalog *n)
{
	size_t i;
	int rc;

	for (i = 0; i < n->instance_count; i++)
		if (!smp__catalog_instance(o, n->instances[i].type) &&
		    (rc = add_change(r, SMP_DATA_ADDED, n->instances[i].type,
				     NULL)))
			return rc;
	for (i = 0; i < o->instance_count; i++)
		if (!smp__catalog_instance(n, o->instances[i].type) &&
		    (rc = add_change(r, SMP_DATA_REMOVED, o->instances[i].type,
				     NULL)))
			return rc;
	for (i = 0; i < n->instance_count; i++) {
		const struct smp_instance *was =
			smp__catalog_instance(o, n->instances[i].type);
		char *d;

		if (!was)
			continue;
		d = instance_diff(&r->arena, was, &n->instances[i]);
		if (!d)
			return SMP_ENOMEM;
		if (d[0] && (rc = add_change(r, SMP_DATA_CHANGED,
					     n->instances[i].type, d)))
			return rc;
	}
	r->pub.changes = r->changes;
	return 0;
}

/* ---------------------------------------------------------- download */

/* The write callback of a download: the body of one attempt, kept in a
 * struct smp_buf through the caller's allocator up to the size limit. */
static int
sink_write(void *ud, const char *data, size_t len)
{
	return smp__buf_add(ud, data, len) ? 1 : 0;
}

static void
sleep_ms(void *ud, long ms)
{
	struct timespec ts;

	(void)ud;
	ts.tv_sec = ms / 1000;
	ts.tv_nsec = (ms % 1000) * 1000000L;
	while (nanosleep(&ts, &ts) != 0)
		;
}

enum got { GOT_BODY, GOT_NOT_MODIFIED, GOT_NOT_FOUND };

/* One document as downloaded (or reused from the cache). */
/* the signature of index.json, beside it */
#define SIG_NAME "index.json.sig"

struct doc {
	char url[2048];
	char *owned; /* a downloaded body */
	const char *buf;
	size_t len;
	enum got got;
	char etag[256];
	char last_modified[128];
};

struct updater {
	struct smp_update_options o; /* defaults filled in */
	const struct smp_allocator *a;
	const char *base;
	struct smp_cache_copy copy;        /* the cached copy, if readable */
	const struct smp_cache_copy *held; /* &copy when from base, or NULL */
	struct smp_error *err;
	unsigned int requests;
	int64_t max_age_days; /* declared by index.json; 0 for none */
	uint8_t key[SMP_ED25519_KEY_LEN]; /* public_key, read */
};

/*
 * GETs one document, with the cached copy's validators when there is
 * one, retrying 5xx, 408, 429 and transient failures with a doubling
 * delay. 404 and 410 are GOT_NOT_FOUND for the optional index only.
 */
static int
download(struct updater *U, int which, struct doc *d)
{
	const struct smp_cache_copy *h = U->held;
	const char *inm = NULL, *ims = NULL;
	long delay = U->o.retry_delay_ms;
	int attempt;

	/* which == SMP_DOC_COUNT: the index's signature, never cached */
	snprintf(d->url, sizeof(d->url), "%s%s", U->base,
		 which < SMP_DOC_COUNT ? smp__doc_names[which] : SIG_NAME);
	if (h && which < SMP_DOC_COUNT && h->buf[which]) {
		inm = h->meta.etag[which];
		ims = h->meta.last_modified[which];
	}
	for (attempt = 1;; attempt++) {
		struct smp_buf s;
		struct smp_fetch_request req;
		struct smp_fetch_response resp;
		char why[300];
		int rc, retry = 0;

		smp__buf_init(&s, U->a, U->o.max_size);
		memset(&req, 0, sizeof(req));
		memset(&resp, 0, sizeof(resp));
		req.url = d->url;
		req.if_none_match = inm;
		req.if_modified_since = ims;
		req.ca_file = U->o.ca_file;
		req.proxy = U->o.proxy;
		req.allow_http = U->o.allow_http;
		req.connect_timeout_ms = U->o.connect_timeout_ms;
		req.timeout_ms = U->o.timeout_ms;
		req.max_size = U->o.max_size;
		req.write = sink_write;
		req.write_ud = &s;
		rc = U->o.fetch(U->o.fetch_ud, &req, &resp);
		U->requests++;
		resp.error[sizeof(resp.error) - 1] = '\0';
		resp.etag[sizeof(resp.etag) - 1] = '\0';
		resp.last_modified[sizeof(resp.last_modified) - 1] = '\0';
		if (s.oom || rc == SMP_ENOMEM) {
			smp__buf_free(&s);
			return smp__error_set(U->err, SMP_ENOMEM, d->url, NULL,
					      "out of memory");
		}
		if (s.cut || resp.too_large) {
			smp__buf_free(&s);
			return smp__error_set(
				U->err, SMP_EFETCH, d->url, NULL,
				"the document is larger than the limit of "
				"%zu bytes",
				U->o.max_size);
		}
		if (rc) {
			snprintf(why, sizeof(why), "%s",
				 resp.error[0] ? resp.error
					       : "the download failed");
			retry = resp.transient;
		} else if (resp.status == 200) {
			/* the body's memory moves to d */
			d->owned = s.data;
			d->buf = smp__buf_str(&s);
			d->len = s.len;
			d->got = GOT_BODY;
			snprintf(d->etag, sizeof(d->etag), "%s", resp.etag);
			snprintf(d->last_modified, sizeof(d->last_modified),
				 "%s", resp.last_modified);
			return 0;
		} else if (resp.status == 304 && (inm || ims)) {
			smp__buf_free(&s);
			d->buf = h->buf[which];
			d->len = h->len[which];
			d->got = GOT_NOT_MODIFIED;
			snprintf(d->etag, sizeof(d->etag), "%s",
				 resp.etag[0] ? resp.etag
				 : inm        ? inm
					      : "");
			snprintf(d->last_modified, sizeof(d->last_modified),
				 "%s", ims ? ims : "");
			return 0;
		} else if ((resp.status == 404 || resp.status == 410) &&
			   which == SMP_DOC_INDEX) {
			smp__buf_free(&s);
			d->got = GOT_NOT_FOUND;
			return 0;
		} else {
			snprintf(why, sizeof(why),
				 "the server answered HTTP %ld", resp.status);
			retry = resp.status >= 500 || resp.status == 408 ||
				resp.status == 429;
		}
		smp__buf_free(&s);
		if (!retry || attempt >= U->o.max_attempts) {
			if (attempt > 1)
				return smp__error_set(
					U->err, SMP_EFETCH, d->url, NULL,
					"%s (%d attempts)", why, attempt);
			return smp__error_set(U->err, SMP_EFETCH, d->url, NULL,
					      "%s", why);
		}
		if (delay > 0)
			U->o.sleep_fn(U->o.sleep_ud, delay);
		delay = delay * 2 > MAX_DELAY_MS ? MAX_DELAY_MS : delay * 2;
	}
}

/* --------------------------------------------------------- the index */

/*
 * index.json signed by the publisher's key (signature.h): downloaded as
 * index.json.sig on every update, the held index included, so that a 304
 * for index.json cannot pass a copy the key never signed.
 */
static int
verify_signature(struct updater *U, const struct doc *idx)
{
	uint8_t sig[SMP_ED25519_SIG_LEN];
	struct doc sd;
	char why[200];
	int rc;

	if (idx->got == GOT_NOT_FOUND)
		return smp__error_set(
			U->err, SMP_EPARSE, idx->url, NULL,
			"the source serves no index.json, so the data's "
			"signature cannot be checked (a source you trust by "
			"other means: --insecure-unsigned)");
	memset(&sd, 0, sizeof(sd));
	rc = download(U, SMP_DOC_COUNT, &sd);
	if (rc)
		return rc;
	if (smp__ed25519_sig_parse(sig, sd.buf, sd.len)) {
		rc = smp__error_set(U->err, SMP_EPARSE, sd.url, NULL,
				    "not an Ed25519 signature (64 bytes, raw "
				    "or in base64)");
	} else {
		rc = smp__ed25519_verify(U->key, idx->buf, idx->len, sig, why,
					 sizeof(why));
		if (rc == SMP_EPARSE)
			rc = smp__error_set(U->err, SMP_EPARSE, sd.url, NULL,
					    "%s: index.json was not signed by "
					    "the public key given; the data "
					    "is refused",
					    why);
		else if (rc)
			rc = smp__error_set(U->err, rc, sd.url, NULL, "%s",
					    why);
	}
	smp__free(U->a, sd.owned);
	return rc;
}

struct index_check {
	struct doc *docs;
	struct smp_error *err;
	const char *index_url;
	int64_t max_age_days; /* out: the optional "max_age_days" */
};

/* Longest validity a source may declare: 100 years, in days. */
#define MAX_AGE_DAYS_LIMIT 36500

static int
check_index_root(const struct smp_node *root, void *ud)
{
	struct index_check *c = ud;
	const struct smp_node *files = smp__map_get(root, "files");
	const struct smp_node *age = smp__map_get(root, "max_age_days");
	long long days = 0;
	int i;

	if (!files || files->kind != SMP_NODE_MAPPING)
		return smp__error_set(c->err, SMP_EPARSE, c->index_url, NULL,
				      "index.json has no 'files' object");
	/* how long the source vouches for this data: data-stale's limit */
	if (age) {
		if (smp__scalar_type(age) != SMP_SCALAR_INT ||
		    smp__parse_count(age->u.scalar.value, age->u.scalar.len,
				     &days) ||
		    days > MAX_AGE_DAYS_LIMIT)
			return smp__error_set(
				c->err, SMP_EPARSE, c->index_url, NULL,
				"index.json: 'max_age_days' must be a "
				"whole number of days from 1 to %d",
				MAX_AGE_DAYS_LIMIT);
		c->max_age_days = days;
	}
	for (i = 0; i < 3; i++) {
		const struct smp_node *f =
			smp__map_get(files, smp__doc_names[i]);
		const struct smp_node *h = f ? smp__map_get(f, "sha256") : NULL;
		char got[65];
		size_t k;

		if (!h || h->kind != SMP_NODE_SCALAR || h->u.scalar.len != 64)
			return smp__error_set(
				c->err, SMP_EPARSE, c->index_url, NULL,
				"index.json gives no 64-digit 'sha256' "
				"for '%s'",
				smp__doc_names[i]);
		smp__sha256_hex(got, c->docs[i].buf, c->docs[i].len);
		for (k = 0; k < 64; k++)
			if (tolower((unsigned char)h->u.scalar.value[k]) !=
			    got[k])
				return smp__error_set(
					c->err, SMP_EFETCH, c->docs[i].url,
					NULL,
					"sha256 %s does not match %s in "
					"index.json: the download is "
					"corrupt or the mirror is out of "
					"step",
					got, h->u.scalar.value);
	}
	return 0;
}

/* Verifies the three documents against index.json. */
static int
verify_index(struct updater *U, struct doc *docs, const struct doc *idx)
{
	struct index_check c = {docs, U->err, idx->url, 0};
	struct smp_docs parsed;
	int rc;

	smp__docs_init(&parsed, U->a);
	rc = smp__load_strict(&parsed, idx->url, idx->buf, idx->len, 1, U->err);
	if (rc) {
		/* the error is set */
	} else if (parsed.count != 1 || !parsed.items[0].root ||
		   parsed.items[0].root->kind != SMP_NODE_MAPPING) {
		rc = smp__error_set(U->err, SMP_EPARSE, idx->url, NULL,
				    "index.json is not a JSON object");
	} else {
		rc = check_index_root(parsed.items[0].root, &c);
		U->max_age_days = c.max_age_days;
	}
	smp__docs_release(&parsed);
	return rc;
}

/* ------------------------------------------------------------ update */

static int
same_bytes(const char *x, size_t xl, const char *y, size_t yl)
{
	if (!x || !y)
		return !x && !y;
	return xl == yl && memcmp(x, y, xl) == 0;
}

static const size_t update_options_size[SMP_UPDATE_OPTIONS_VERSION + 1] = {
	0, offsetof(struct smp_update_options, public_key),
	sizeof(struct smp_update_options)};

int
smp_update_options_init(struct smp_update_options *opts, unsigned int version)
{
	const struct smp_update_options defaults = SMP_UPDATE_OPTIONS_INIT;

	return smp__options_init(opts, version, &defaults, update_options_size,
				 SMP_UPDATE_OPTIONS_VERSION);
}

static int
resolve_options(struct updater *U, const struct smp_update_options *u,
		struct smp_error *err)
{
	const struct smp_update_options defaults = SMP_UPDATE_OPTIONS_INIT;
	int rc;

	if (!u)
		return smp__error_set(err, SMP_EINVAL, "options", NULL,
				      "no smp_update_options");
	U->o = defaults;
	rc = smp__options_copy(&U->o, u, update_options_size,
			       SMP_UPDATE_OPTIONS_VERSION, "smp_update_options",
			       err);
	if (rc)
		return rc;
	if (!U->o.insecure_unsigned) {
		char why[200];

		if (!U->o.public_key)
			return smp__error_set(
				err, SMP_EINVAL, "options", NULL,
				"no public key to check the data's signature "
				"with: give the publisher's Ed25519 key "
				"(--public-key FILE), or take unsigned data "
				"from a source you trust "
				"(--insecure-unsigned)");
		if (smp__ed25519_key_parse(U->key, U->o.public_key,
					   strlen(U->o.public_key), why,
					   sizeof(why)))
			return smp__error_set(err, SMP_EINVAL, "public key",
					      NULL, "%s", why);
	}
	if (!U->o.fetch)
		U->o.fetch = smp_curl_fetch_fn;
	if (U->o.timeout_ms <= 0)
		U->o.timeout_ms = DEFAULT_TIMEOUT_MS;
	if (U->o.connect_timeout_ms <= 0)
		U->o.connect_timeout_ms = DEFAULT_CONNECT_MS;
	if (U->o.connect_timeout_ms > U->o.timeout_ms)
		U->o.connect_timeout_ms = U->o.timeout_ms;
	if (U->o.max_size == 0)
		U->o.max_size = DEFAULT_MAX_SIZE;
	if (U->o.max_attempts <= 0)
		U->o.max_attempts = DEFAULT_ATTEMPTS;
	if (U->o.retry_delay_ms == 0)
		U->o.retry_delay_ms = DEFAULT_DELAY_MS;
	if (!U->o.sleep_fn)
		U->o.sleep_fn = sleep_ms;
	if (U->o.now == 0)
		U->o.now = (int64_t)time(NULL);
	return 0;
}

/* The bytes the data in use was read from, to tell "unchanged". */
static void
in_use_bytes(const struct smp_data_choice *ch, const struct smp_cache_copy *c,
	     int have_copy, const char *buf[3], size_t len[3])
{
	int i;

	for (i = 0; i < 3; i++) {
		const struct smp_embedded_file *f =
			smp__embedded_find(smp__doc_names[i]);

		buf[i] = NULL;
		len[i] = 0;
		if (ch->origin == SMP_DATA_CACHE && have_copy) {
			buf[i] = c->buf[i];
			len[i] = c->len[i];
		} else if (ch->origin == SMP_DATA_BUILTIN && f) {
			buf[i] = (const char *)f->data;
			len[i] = f->len;
		}
	}
}

/* What the new meta.json records. */
static void
fill_meta(struct smp_cache_meta *m, struct updater *U, struct doc *docs,
	  const struct smp_catalog *cat)
{
	int i;

	memset(m, 0, sizeof(*m));
	m->url = (char *)(uintptr_t)U->base; /* borrowed, never freed */
	m->fetched = U->o.now;
	m->data_version = (char *)(uintptr_t)cat->data_version;
	m->generated = (char *)(uintptr_t)cat->generated;
	m->max_age_days = U->max_age_days;
	for (i = 0; i < SMP_DOC_COUNT; i++) {
		m->etag[i] = docs[i].etag[0] ? docs[i].etag : NULL;
		m->last_modified[i] =
			docs[i].last_modified[0] ? docs[i].last_modified : NULL;
	}
}

/* 1 when the cached copy already records exactly this download. */
static int
cache_holds(const struct smp_cache_copy *h, struct doc *docs)
{
	int i;

	if (!h)
		return 0;
	for (i = 0; i < SMP_DOC_COUNT; i++) {
		const char *buf =
			docs[i].got == GOT_NOT_FOUND ? NULL : docs[i].buf;

		if (!same_bytes(h->buf[i], h->len[i], buf, docs[i].len) ||
		    !same_str(h->meta.etag[i],
			      docs[i].etag[0] ? docs[i].etag : NULL) ||
		    !same_str(h->meta.last_modified[i],
			      docs[i].last_modified[0] ? docs[i].last_modified
						       : NULL))
			return 0;
	}
	return 1;
}

static int
builtin_newer(const char *version, const struct smp_allocator *a, int *newer)
{
	char builtin[32];
	int rc = smp__builtin_data_version(builtin, a);

	*newer = !rc && strcmp(version, builtin) < 0;
	return rc;
}

/* The whole refresh once options are resolved; see smp_data_update(). */
static int
run_update(struct result *r, struct updater *U, const char *cache_dir,
	   const struct smp_cache_io *io)
{
	struct smp_catalog old_cat, new_cat;
	struct smp_data_choice choice;
	struct smp_cache_copy *copy = &U->copy;
	struct smp_data_buffer b[3];
	struct smp_cache_meta meta;
	struct doc docs[SMP_DOC_COUNT];
	const char *use_buf[3], *bufs[SMP_DOC_COUNT];
	size_t use_len[3], lens[SMP_DOC_COUNT];
	struct smp_error scratch = {0};
	int have_copy = 0, i, rc, same, not_modified = 1, newer;

	memset(&old_cat, 0, sizeof(old_cat));
	memset(&new_cat, 0, sizeof(new_cat));
	memset(copy, 0, sizeof(*copy));
	memset(docs, 0, sizeof(docs));
	rc = smp__data_load_default(&old_cat, &choice, U->a, cache_dir,
				    U->o.max_size, U->err);
	if (rc)
		return rc;
	/* validators are sent only for a valid copy from the same source */
	rc = smp__cache_read(copy, U->a, cache_dir, U->o.max_size, &scratch);
	if (rc == SMP_ENOMEM) {
		smp__error_set(U->err, rc, cache_dir, NULL, "out of memory");
		goto out;
	}
	have_copy = rc == 0;
	if (have_copy && strcmp(copy->meta.url, U->base) == 0 &&
	    (choice.origin == SMP_DATA_CACHE || choice.older_than_builtin))
		U->held = copy;
	for (i = SMP_DOC_COUNT - 1; i >= 0; i--) { /* the index first */
		rc = download(U, i, &docs[i]);
		if (rc)
			goto out;
		if (i != SMP_DOC_INDEX && docs[i].got != GOT_NOT_MODIFIED)
			not_modified = 0;
	}
	if (!U->o.insecure_unsigned) {
		rc = verify_signature(U, &docs[SMP_DOC_INDEX]);
		if (rc)
			goto out;
		r->pub.signature_verified = 1;
	}
	if (docs[SMP_DOC_INDEX].got != GOT_NOT_FOUND) {
		rc = verify_index(U, docs, &docs[SMP_DOC_INDEX]);
		if (rc)
			goto out;
		r->pub.verified = 1;
	}
	for (i = 0; i < 3; i++) {
		b[i].name = docs[i].url;
		b[i].buf = docs[i].buf;
		b[i].len = docs[i].len;
	}
	rc = smp__catalog_load(&new_cat, U->a, &b[0], &b[1], &b[2], U->err);
	if (rc)
		goto out;
	in_use_bytes(&choice, copy, have_copy, use_buf, use_len);
	same = 1;
	for (i = 0; i < 3; i++)
		same = same && same_bytes(use_buf[i], use_len[i], docs[i].buf,
					  docs[i].len);
	rc = builtin_newer(new_cat.data_version, U->a, &newer);
	if (rc) {
		smp__error_set(U->err, rc, "built-in data", NULL,
			       "cannot read it");
		goto out;
	}
	r->pub.outcome = same ? SMP_UPDATE_UNCHANGED : SMP_UPDATE_UPDATED;
	r->pub.not_modified = not_modified;
	r->pub.older_than_builtin = newer;
	r->pub.old_origin = choice.origin;
	r->pub.old_tested_count = old_cat.tested_count;
	r->pub.new_tested_count = new_cat.tested_count;
	r->pub.old_image_count = old_cat.image_count;
	r->pub.new_image_count = new_cat.image_count;
	r->pub.url = smp__arena_strndup(&r->arena, U->base, strlen(U->base));
	r->pub.old_version = smp__arena_strndup(&r->arena, old_cat.data_version,
						strlen(old_cat.data_version));
	r->pub.old_date = smp__arena_strndup(&r->arena, old_cat.generated,
					     strlen(old_cat.generated));
	r->pub.new_version = smp__arena_strndup(&r->arena, new_cat.data_version,
						strlen(new_cat.data_version));
	r->pub.new_date = smp__arena_strndup(&r->arena, new_cat.generated,
					     strlen(new_cat.generated));
	rc = diff_catalogs(r, &old_cat, &new_cat);
	if (!rc && (!r->pub.url || !r->pub.old_version || !r->pub.old_date ||
		    !r->pub.new_version || !r->pub.new_date))
		rc = SMP_ENOMEM;
	if (rc) {
		smp__error_set(U->err, rc, "update", NULL, "out of memory");
		goto out;
	}
	/* the result is complete before the cache changes: an allocation
	 * failure never reports an error for an update that happened */
	if (!cache_holds(U->held, docs)) {
		for (i = 0; i < SMP_DOC_COUNT; i++) {
			bufs[i] = docs[i].got == GOT_NOT_FOUND ? NULL
							       : docs[i].buf;
			lens[i] = docs[i].len;
		}
		fill_meta(&meta, U, docs, &new_cat);
		rc = smp__cache_commit(cache_dir, bufs, lens, &meta, io, U->a,
				       U->err);
	}
	/* the data is in place; a failure to note the time is not fatal */
	if (!rc)
		smp__cache_mark_checked(cache_dir, U->o.now, io, &scratch);
out:
	for (i = 0; i < SMP_DOC_COUNT; i++)
		smp__free(U->a, docs[i].owned);
	U->held = NULL;
	smp__cache_copy_release(copy, U->a);
	smp__catalog_release(&new_cat);
	smp__catalog_release(&old_cat);
	smp__data_choice_release(&choice, U->a);
	return rc;
}

int
smp__data_update_io(struct smp_update_result **out,
		    const struct smp_options *opts,
		    const struct smp_update_options *update,
		    const struct smp_cache_io *io, struct smp_error *err)
{
	struct smp_options o;
	struct updater U;
	struct result *r;
	struct smp_allocator a;
	char base[SMP_URL_MAX + 2];
	size_t n;
	int rc;

	if (!out)
		return smp__error_set(err, SMP_EINVAL, "out", NULL,
				      "out is NULL");
	*out = NULL;
	/* only the fields of the caller's version (NULL: the defaults) */
	rc = smp__options_resolve(&o, opts, err);
	if (rc)
		return rc;
	opts = &o;
	if (opts->offline)
		return smp__error_set(
			err, SMP_EINVAL, "options", NULL,
			"offline: refreshing the data needs the network");
	if (!opts->cache_dir || !opts->cache_dir[0])
		return smp__error_set(err, SMP_EINVAL, "options", NULL,
				      "no cache folder to store the data in");
	memset(&U, 0, sizeof(U));
	rc = resolve_options(&U, update, err);
	if (rc)
		return rc;
	rc = smp__url_check(update->url, U.o.allow_http, err);
	if (rc)
		return rc;
	n = strlen(update->url);
	snprintf(base, sizeof(base), "%s%s", update->url,
		 update->url[n - 1] == '/' ? "" : "/");
	if (smp__allocator_resolve(&a, opts->allocator))
		return smp__error_set(err, SMP_EINVAL, "options", NULL,
				      "the allocator needs all three hooks");
	r = smp__calloc(&a, 1, sizeof(*r));
	if (!r)
		return smp__error_set(err, SMP_ENOMEM, "update", NULL,
				      "out of memory");
	r->alloc = a;
	smp__arena_init(&r->arena, &r->alloc);
	U.a = &r->alloc;
	U.base = base;
	U.err = err;
	rc = run_update(r, &U, opts->cache_dir, io);
	r->pub.requests = U.requests;
	if (rc) {
		smp_update_result_free(&r->pub);
		return rc;
	}
	*out = &r->pub;
	return 0;
}

int
smp_data_update(struct smp_update_result **out, const struct smp_options *opts,
		const struct smp_update_options *update, struct smp_error *err)
{
	smp__error_clear(err);
	return smp__data_update_io(out, opts, update, NULL, err);
}
