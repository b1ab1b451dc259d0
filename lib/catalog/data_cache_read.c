/*
 * data_cache_read.c - reading the refreshed instance data back from the
 * cache (layout in data_cache.h) under its shared lock, choosing between
 * it and the built-in data, and `sm-preflight data`'s cache info.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "catalog/data_cache.h"
#include "catalog/embedded.h"
#include "doc/load.h"
#include "util/alloc.h"
#include "util/options.h"
#include "util/read_file.h"
#include "util/error.h"

/* ------------------------------------------------------ JSON reading */

/* A copy of a string scalar without control characters, or NULL. */
static int
dup_str(char **out, const struct smp_node *n, const struct smp_allocator *a)
{
	size_t i;

	*out = NULL;
	if (!n || n->kind != SMP_NODE_SCALAR ||
	    smp__scalar_type(n) != SMP_SCALAR_STRING)
		return 0;
	for (i = 0; i < n->u.scalar.len; i++)
		if ((unsigned char)n->u.scalar.value[i] < 0x20 ||
		    n->u.scalar.value[i] == 0x7f)
			return 0; /* never sent back as a header */
	*out = smp__strndup(a, n->u.scalar.value, n->u.scalar.len);
	return *out ? 0 : SMP_ENOMEM;
}

/*
 * Parses a small JSON document with the spec loader and hands its root
 * mapping to fn. SMP_EPARSE when it is not a JSON object.
 */
static int
with_json(const char *name, const char *buf, size_t len,
	  const struct smp_allocator *a, struct smp_error *err,
	  int (*fn)(const struct smp_node *root, void *ud), void *ud)
{
	struct smp_docs docs;
	int rc;

	smp__docs_init(&docs, a);
	rc = smp__load_strict(&docs, name, buf, len, 1, err);
	if (rc) {
		/* the error is set */
	} else if (docs.count != 1 || !docs.items[0].root ||
		   docs.items[0].root->kind != SMP_NODE_MAPPING) {
		rc = smp__cache_fail(err, SMP_EPARSE, name,
				     "not a JSON object");
	} else {
		rc = fn(docs.items[0].root, ud);
		if (rc == SMP_ENOMEM)
			smp__cache_fail(err, rc, name, "out of memory");
		else if (rc)
			smp__cache_fail(err, rc, name, "unexpected content");
	}
	smp__docs_release(&docs);
	return rc;
}

struct meta_ctx {
	struct smp_cache_meta *m;
	const struct smp_allocator *a;
};

static int
int_of(const struct smp_node *n, int64_t *out)
{
	long long v;

	if (!n || n->kind != SMP_NODE_SCALAR || smp__scalar_int(n, &v))
		return -1;
	*out = (int64_t)v;
	return 0;
}

static int
read_meta_root(const struct smp_node *root, void *ud)
{
	struct meta_ctx *c = ud;
	struct smp_cache_meta *m = c->m;
	const struct smp_node *files;
	int i, rc;

	if (!smp__scalar_is(smp__map_get(root, "meta_version"), "1"))
		return SMP_EPARSE;
	if ((rc = dup_str(&m->url, smp__map_get(root, "url"), c->a)) ||
	    (rc = dup_str(&m->data_version, smp__map_get(root, "data_version"),
			  c->a)) ||
	    (rc = dup_str(&m->generated, smp__map_get(root, "generated"),
			  c->a)))
		return rc;
	if (!m->url || int_of(smp__map_get(root, "fetched"), &m->fetched))
		return SMP_EPARSE;
	/* optional: a copy written before sources could declare it has none */
	if (smp__map_get(root, "max_age_days") &&
	    (int_of(smp__map_get(root, "max_age_days"), &m->max_age_days) ||
	     m->max_age_days < 0))
		return SMP_EPARSE;
	files = smp__map_get(root, "files");
	for (i = 0;
	     files && files->kind == SMP_NODE_MAPPING && i < SMP_DOC_COUNT;
	     i++) {
		const struct smp_node *f =
			smp__map_get(files, smp__doc_names[i]);

		if (!f || f->kind != SMP_NODE_MAPPING)
			continue;
		if ((rc = dup_str(&m->etag[i], smp__map_get(f, "etag"),
				  c->a)) ||
		    (rc = dup_str(&m->last_modified[i],
				  smp__map_get(f, "last_modified"), c->a)))
			return rc;
	}
	return 0;
}

static void
cache_meta_release(struct smp_cache_meta *m, const struct smp_allocator *a)
{
	int i;

	smp__free(a, m->url);
	smp__free(a, m->data_version);
	smp__free(a, m->generated);
	for (i = 0; i < SMP_DOC_COUNT; i++) {
		smp__free(a, m->etag[i]);
		smp__free(a, m->last_modified[i]);
	}
	memset(m, 0, sizeof(*m));
}

/* ------------------------------------------------------------ reading */

void
smp__cache_copy_release(struct smp_cache_copy *c, const struct smp_allocator *a)
{
	int i;

	for (i = 0; i < SMP_DOC_COUNT; i++)
		smp__free(a, c->buf[i]);
	cache_meta_release(&c->meta, a);
	memset(c, 0, sizeof(*c));
}

static int
read_copy(struct smp_cache_copy *out, const struct smp_allocator *a, size_t max,
	  struct smp_error *err)
{
	struct meta_ctx mc = {&out->meta, a};
	char path[1100];
	char *meta = NULL;
	size_t meta_len = 0;
	int i, rc;

	for (i = 0; i < SMP_DOC_COUNT; i++) {
		if ((rc = smp__cache_join(path, sizeof(path), out->dir,
					  smp__doc_names[i], err)))
			return rc;
		if (i == SMP_DOC_INDEX && access(path, F_OK) != 0 &&
		    errno == ENOENT)
			continue; /* the index is optional */
		rc = smp__read_file(&out->buf[i], &out->len[i], a, path, max,
				    err);
		if (rc)
			return rc;
	}
	if ((rc = smp__cache_join(path, sizeof(path), out->dir,
				  SMP_CACHE_META_NAME, err)))
		return rc;
	rc = smp__read_file(&meta, &meta_len, a, path, SMP_CACHE_META_MAX, err);
	if (rc)
		return rc;
	rc = with_json(path, meta, meta_len, a, err, read_meta_root, &mc);
	smp__free(a, meta);
	return rc;
}

/* Everything is read under the shared lock: no writer switches folders
 * or deletes the old one in between. */
int
smp__cache_read(struct smp_cache_copy *out, const struct smp_allocator *a,
		const char *cache_dir, size_t max, struct smp_error *err)
{
	int lock, rc;

	memset(out, 0, sizeof(*out));
	if ((rc = smp__cache_join(out->dir, sizeof(out->dir), cache_dir,
				  "current", err)))
		return rc;
	if ((rc = smp__cache_lock(&lock, cache_dir, 0, err)))
		return rc;
	rc = read_copy(out, a, max, err);
	smp__cache_unlock(lock);
	if (rc)
		smp__cache_copy_release(out, a);
	return rc;
}

static int
read_checked_root(const struct smp_node *root, void *ud)
{
	return int_of(smp__map_get(root, "checked"), ud) ? SMP_EPARSE : 0;
}

/* 0 when there is no checked.json (or a bad one). */
static int64_t
read_checked(const char *cache_dir, const struct smp_allocator *a)
{
	char path[1100], *buf = NULL;
	size_t len;
	int64_t t = 0;
	struct smp_error e = {0};

	if (smp__cache_join(path, sizeof(path), cache_dir,
			    SMP_CACHE_CHECKED_NAME, NULL) ||
	    smp__read_file(&buf, &len, a, path, 4096, &e))
		return 0;
	if (with_json(path, buf, len, a, &e, read_checked_root, &t))
		t = 0;
	smp__free(a, buf);
	return t;
}

/* ---------------------------------------------------- choosing data */

/* Precompiled at build time by the same loader: nothing to parse or
 * allocate, so nothing fails. */
int
smp__catalog_load_embedded(struct smp_catalog *cat,
			   const struct smp_allocator *a, struct smp_error *err)
{
	(void)err;
	*cat = smp__embedded_catalog;
	smp__arena_init(&cat->arena, a);
	return 0;
}

static int
version_root(const struct smp_node *root, void *ud)
{
	const struct smp_node *v = smp__map_get(root, "data_version");

	if (!v || v->kind != SMP_NODE_SCALAR || v->u.scalar.len >= 32)
		return SMP_EPARSE;
	memcpy(ud, v->u.scalar.value, v->u.scalar.len + 1);
	return 0;
}

/* The embedded data_version, read from instances.json alone (the other
 * files are validated to agree with it). */
int
smp__builtin_data_version(char out[32], const struct smp_allocator *a)
{
	const struct smp_embedded_file *f =
		smp__embedded_find("instances.json");
	struct smp_error e = {0};

	out[0] = '\0';
	if (!f)
		return SMP_EINTERNAL;
	return with_json(f->name, (const char *)f->data, f->len, a, &e,
			 version_root, out);
}

void
smp__data_choice_release(struct smp_data_choice *c,
			 const struct smp_allocator *a)
{
	smp__free(a, c->url);
	smp__free(a, c->dir);
	memset(c, 0, sizeof(*c));
}

/*
 * Loads the cache into cat when it is valid and not older than the
 * embedded data: 0 when it did, 1 when it did not (choice->why_not), or
 * SMP_ENOMEM.
 */
static int
try_cache(struct smp_catalog *cat, struct smp_data_choice *choice,
	  const struct smp_allocator *a, const char *cache_dir, size_t max)
{
	struct smp_cache_copy copy;
	struct smp_data_buffer b[3];
	struct smp_catalog tmp;
	struct smp_error e = {0};
	char names[3][1100], builtin[32];
	struct stat st;
	int rc, i;

	memset(choice, 0, sizeof(*choice));
	memset(&e, 0, sizeof(e));
	if (!cache_dir)
		return 1;
	if (snprintf(names[0], sizeof(names[0]), "%s/current", cache_dir) >=
		    (int)sizeof(names[0]) ||
	    lstat(names[0], &st) != 0)
		return 1; /* no refreshed copy: nothing to say */
	rc = smp__cache_read(&copy, a, cache_dir, max, &e);
	if (rc == SMP_ENOMEM)
		return rc;
	if (rc) {
		smp__cache_say(choice->why_not, sizeof(choice->why_not),
			       "%s: %s", e.source, e.message);
		return 1;
	}
	for (i = 0; i < 3; i++) {
		snprintf(names[i], sizeof(names[i]), "%s/%s", copy.dir,
			 smp__doc_names[i]);
		b[i].name = names[i];
		b[i].buf = copy.buf[i];
		b[i].len = copy.len[i];
	}
	memset(&tmp, 0, sizeof(tmp));
	rc = smp__catalog_load(&tmp, a, &b[0], &b[1], &b[2], &e);
	if (rc == SMP_ENOMEM || rc == SMP_EINTERNAL)
		goto out;
	if (rc) {
		if (e.line)
			smp__cache_say(choice->why_not, sizeof(choice->why_not),
				       "%s:%u:%u: %s", e.source,
				       (unsigned)e.line, (unsigned)e.column,
				       e.message);
		else
			smp__cache_say(choice->why_not, sizeof(choice->why_not),
				       "%s: %s", e.source, e.message);
		rc = 1;
		goto out;
	}
	rc = smp__builtin_data_version(builtin, a);
	if (rc) {
		smp__catalog_release(&tmp);
		goto out;
	}
	if (strcmp(tmp.data_version, builtin) < 0) {
		smp__cache_say(
			choice->why_not, sizeof(choice->why_not),
			"the refreshed data %s is older than the built-in "
			"data %s",
			tmp.data_version, builtin);
		choice->older_than_builtin = 1;
		smp__catalog_release(&tmp);
		rc = 1;
		goto out;
	}
	choice->url = copy.meta.url;
	copy.meta.url = NULL;
	choice->dir = smp__strndup(a, copy.dir, strlen(copy.dir));
	if (!choice->dir) {
		smp__catalog_release(&tmp);
		smp__data_choice_release(choice, a);
		rc = SMP_ENOMEM;
		goto out;
	}
	choice->origin = SMP_DATA_CACHE;
	choice->fetched = copy.meta.fetched;
	choice->max_age_days = copy.meta.max_age_days;
	*cat = tmp;
	rc = 0;
out:
	smp__cache_copy_release(&copy, a);
	return rc;
}

int
smp__data_load_default(struct smp_catalog *cat, struct smp_data_choice *choice,
		       const struct smp_allocator *a, const char *cache_dir,
		       size_t max_size, struct smp_error *err)
{
	int rc = try_cache(cat, choice, a, cache_dir, max_size);

	if (rc <= 0) {
		if (rc)
			smp__cache_fail(err, rc, cache_dir, "out of memory");
		return rc;
	}
	choice->origin = SMP_DATA_BUILTIN;
	return smp__catalog_load_embedded(cat, a, err);
}

/* ------------------------------------------------ the context's side */

int
smp__data_try_cache(struct smp_catalog *cat, struct smp_data_choice *choice,
		    const struct smp_allocator *a, const char *cache_dir,
		    size_t max_size)
{
	return try_cache(cat, choice, a, cache_dir, max_size);
}

/* Howard Hinnant's days_from_civil: proleptic Gregorian, no time zone. */
long
smp__days_from_date(const char *s)
{
	int y, m, d, i;
	long era, yoe, doy, doe;

	for (i = 0; i < 10; i++)
		if (i == 4 || i == 7 ? s[i] != '-' : (s[i] < '0' || s[i] > '9'))
			return -1;
	y = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 +
	    (s[3] - '0');
	m = (s[5] - '0') * 10 + (s[6] - '0');
	d = (s[8] - '0') * 10 + (s[9] - '0');
	if (m < 1 || m > 12 || d < 1 || d > 31)
		return -1;
	y -= m <= 2;
	era = y / 400;
	yoe = y - era * 400;
	doy = (153L * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* --------------------------------------------------------- cache info */

int
smp_data_cache_info(struct smp_cache_info *out, const struct smp_options *opts,
		    struct smp_error *err)
{
	struct smp_options o;
	struct smp_limits lim;
	struct smp_allocator a;
	struct smp_cache_copy copy;
	struct smp_data_buffer b[3];
	struct smp_catalog cat;
	struct smp_error e = {0};
	char names[3][1100], builtin[32];
	struct stat st;
	int rc, i;

	smp__error_clear(err);
	if (!out)
		return smp__cache_fail(err, SMP_EINVAL, "out", "out is NULL");
	memset(out, 0, sizeof(*out));
	if (!opts)
		return smp__cache_fail(err, SMP_EINVAL, "options",
				       "no options");
	/* only the fields of the caller's version; 0 is refused */
	rc = smp__options_resolve(&o, opts, err);
	if (rc)
		return rc;
	opts = &o;
	if (!opts->cache_dir)
		return 0;
	if (smp__allocator_resolve(&a, opts->allocator))
		return smp__cache_fail(err, SMP_EINVAL, "options",
				       "the allocator needs all three hooks");
	smp__limits_of(&lim, opts);
	out->checked = read_checked(opts->cache_dir, &a);
	if (snprintf(out->path, sizeof(out->path), "%s/current",
		     opts->cache_dir) >= (int)sizeof(out->path) ||
	    lstat(out->path, &st) != 0)
		return 0;
	out->present = 1;
	memset(&e, 0, sizeof(e));
	rc = smp__cache_read(&copy, &a, opts->cache_dir, lim.max_file_size, &e);
	if (rc == SMP_ENOMEM)
		return smp__cache_fail(err, rc, opts->cache_dir,
				       "out of memory");
	if (rc) {
		smp__cache_say(out->error, sizeof(out->error), "%s: %s",
			       e.source, e.message);
		return 0;
	}
	snprintf(out->url, sizeof(out->url), "%s", copy.meta.url);
	out->fetched = copy.meta.fetched;
	for (i = 0; i < 3; i++) {
		snprintf(names[i], sizeof(names[i]), "%s/%s", copy.dir,
			 smp__doc_names[i]);
		b[i].name = names[i];
		b[i].buf = copy.buf[i];
		b[i].len = copy.len[i];
	}
	memset(&cat, 0, sizeof(cat));
	rc = smp__catalog_load(&cat, &a, &b[0], &b[1], &b[2], &e);
	smp__cache_copy_release(&copy, &a);
	if (rc == SMP_ENOMEM)
		return smp__cache_fail(err, rc, opts->cache_dir,
				       "out of memory");
	if (rc) {
		if (e.line)
			smp__cache_say(out->error, sizeof(out->error),
				       "%s:%u:%u: %s", e.source,
				       (unsigned)e.line, (unsigned)e.column,
				       e.message);
		else
			smp__cache_say(out->error, sizeof(out->error), "%s: %s",
				       e.source, e.message);
		return 0;
	}
	out->valid = 1;
	snprintf(out->data_version, sizeof(out->data_version), "%s",
		 cat.data_version);
	snprintf(out->generated, sizeof(out->generated), "%s", cat.generated);
	smp__catalog_release(&cat);
	rc = smp__builtin_data_version(builtin, &a);
	if (rc)
		return smp__cache_fail(
			err, rc, "built-in data",
			rc == SMP_ENOMEM ? "out of memory"
					 : "cannot read the built-in data");
	out->older_than_builtin = strcmp(out->data_version, builtin) < 0;
	return 0;
}
