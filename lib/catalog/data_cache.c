/*
 * data_cache.c - the refreshed instance data on disk (layout in
 * data_cache.h): reading it back at context creation, committing a new
 * copy atomically, and the data getters and checks built on it.
 *
 * flock(2) is BSD rather than POSIX, but unlike fcntl locks it belongs to
 * the open file, so a library cannot drop a lock its host process holds
 * on the same file by closing an unrelated descriptor.
 */
#define _DEFAULT_SOURCE /* flock, with _POSIX_C_SOURCE from the Makefile */

#include <dirent.h>
#include <stdarg.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/alloc.h"
#include "util/options.h"
#include "context/context.h"
#include "catalog/data_cache.h"
#include "catalog/embedded.h"
#include "doc/load.h"
#include "util/read_file.h"
#include "report/report.h"

const char *const smp__doc_names[SMP_DOC_COUNT] = {
	"instances.json", "tested-models.json", "frameworks.json",
	"index.json"};

#define META_NAME "meta.json"
#define CHECKED_NAME "checked.json"
#define META_MAX ((size_t)64 * 1024)
/* a folder without .busy this old was left by a writer that died */
#define ORPHAN_AGE 600

static int fail(struct smp_error *err, int code, const char *source,
		const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int
fail(struct smp_error *err, int code, const char *source, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return code;
	memset(err, 0, sizeof(*err));
	err->code = code;
	snprintf(err->source, sizeof(err->source), "%s", source ? source : "");
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	return code;
}

/* snprintf for text that may be cut short (messages, known-short paths). */
static void say(char *out, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void
say(char *out, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(out, size, fmt, ap);
	va_end(ap);
}

/* dir/name into out; SMP_EINVAL when it does not fit. */
static int
join(char *out, size_t size, const char *dir, const char *name,
     struct smp_error *err)
{
	int n = snprintf(out, size, "%s/%s", dir, name);

	if (n < 0 || (size_t)n >= size)
		return fail(err, SMP_EINVAL, dir, "path too long");
	return 0;
}

/* ------------------------------------------------------------ locking */

/*
 * Opens CACHE/lock and takes it shared or exclusive. A reader that finds
 * no lock file (nothing was ever committed, or a read-only copy) reads
 * without one: *fd is -1 then.
 */
static int
lock_cache(int *fd, const char *cache_dir, int exclusive, struct smp_error *err)
{
	char path[1100];
	int rc;

	*fd = -1;
	if (join(path, sizeof(path), cache_dir, "lock", err))
		return SMP_EINVAL;
	*fd = exclusive ? open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644)
			: open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0) {
		if (!exclusive)
			return 0;
		return fail(err, SMP_EIO, path, "cannot open the lock: %s",
			    strerror(errno));
	}
	do
		rc = flock(*fd, exclusive ? LOCK_EX : LOCK_SH);
	while (rc != 0 && errno == EINTR);
	if (rc != 0 && exclusive) {
		rc = errno;
		close(*fd);
		*fd = -1;
		return fail(err, SMP_EIO, path, "cannot lock: %s",
			    strerror(rc));
	}
	return 0;
}

static void
unlock_cache(int fd)
{
	if (fd >= 0)
		close(fd); /* releases the flock */
}

/* ------------------------------------------------------ JSON writing */

struct buf {
	const struct smp_allocator *a;
	char *p;
	size_t len, cap;
	int failed;
};

static void
put(struct buf *b, const char *s, size_t n)
{
	void *p = b->p;

	if (b->failed)
		return;
	if (smp__grow(b->a, &p, &b->cap, b->len + n + 1, 1)) {
		b->failed = 1;
		return;
	}
	b->p = p;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void
puts_(struct buf *b, const char *s)
{
	put(b, s, strlen(s));
}

/* A JSON string; control characters escaped as \u00XX. */
static void
put_json(struct buf *b, const char *s)
{
	char esc[8];

	put(b, "\"", 1);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			esc[0] = '\\';
			esc[1] = (char)c;
			put(b, esc, 2);
		} else if (c < 0x20) {
			snprintf(esc, sizeof(esc), "\\u%04x", c);
			put(b, esc, 6);
		} else {
			put(b, s, 1);
		}
	}
	put(b, "\"", 1);
}

static void
put_field(struct buf *b, const char *indent, const char *key, const char *v,
	  int comma)
{
	puts_(b, indent);
	put_json(b, key);
	puts_(b, ": ");
	if (v)
		put_json(b, v);
	else
		puts_(b, "null");
	puts_(b, comma ? ",\n" : "\n");
}

static char *
meta_json(const struct smp_cache_meta *m, const struct smp_allocator *a,
	  size_t *len)
{
	struct buf b = {a, NULL, 0, 0, 0};
	char num[32];
	int i;

	puts_(&b, "{\n  \"meta_version\": 1,\n");
	put_field(&b, "  ", "url", m->url, 1);
	snprintf(num, sizeof(num), "%lld", (long long)m->fetched);
	puts_(&b, "  \"fetched\": ");
	puts_(&b, num);
	puts_(&b, ",\n");
	put_field(&b, "  ", "data_version", m->data_version, 1);
	put_field(&b, "  ", "generated", m->generated, 1);
	puts_(&b, "  \"files\": {\n");
	for (i = 0; i < SMP_DOC_COUNT; i++) {
		puts_(&b, "    ");
		put_json(&b, smp__doc_names[i]);
		puts_(&b, ": {\n");
		put_field(&b, "      ", "etag", m->etag[i], 1);
		put_field(&b, "      ", "last_modified", m->last_modified[i],
			  0);
		puts_(&b, i + 1 < SMP_DOC_COUNT ? "    },\n" : "    }\n");
	}
	puts_(&b, "  }\n}\n");
	if (b.failed) {
		smp__free(a, b.p);
		return NULL;
	}
	*len = b.len;
	return b.p;
}

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
	struct smp_limits zero = {0, 0, 0, 0, 0}, lim;
	struct smp_report *rep = NULL;
	struct smp_docs docs;
	int rc;

	smp__limits_resolve(&lim, &zero);
	rc = smp__report_new(&rep, a, name, NULL);
	if (rc)
		return fail(err, rc, name, "out of memory");
	smp__docs_init(&docs, a);
	rc = smp__load_json(&docs, buf, len, &lim, rep);
	if (!rc && rep->failed)
		rc = SMP_ENOMEM;
	if (rc) {
		fail(err, rc, name, "out of memory");
	} else if (smp_report_count(rep) > 0 || docs.count != 1 ||
		   !docs.items[0].root ||
		   docs.items[0].root->kind != SMP_NODE_MAPPING) {
		const struct smp_finding *f = smp_report_get(rep, 0);

		rc = fail(err, SMP_EPARSE, name, "%s",
			  f ? f->message : "not a JSON object");
		if (f) {
			err->line = f->line;
			err->column = f->column;
		}
	} else {
		rc = fn(docs.items[0].root, ud);
		if (rc == SMP_ENOMEM)
			fail(err, rc, name, "out of memory");
		else if (rc)
			fail(err, rc, name, "unexpected content");
	}
	smp__docs_release(&docs);
	smp_report_free(rep);
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

void
smp__cache_meta_release(struct smp_cache_meta *m, const struct smp_allocator *a)
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
	smp__cache_meta_release(&c->meta, a);
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
		if ((rc = join(path, sizeof(path), out->dir, smp__doc_names[i],
			       err)))
			return rc;
		if (i == SMP_DOC_INDEX && access(path, F_OK) != 0 &&
		    errno == ENOENT)
			continue; /* the index is optional */
		rc = smp__read_file(&out->buf[i], &out->len[i], a, path, max,
				    err);
		if (rc)
			return rc;
	}
	if ((rc = join(path, sizeof(path), out->dir, META_NAME, err)))
		return rc;
	rc = smp__read_file(&meta, &meta_len, a, path, META_MAX, err);
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
	if ((rc = join(out->dir, sizeof(out->dir), cache_dir, "current", err)))
		return rc;
	if ((rc = lock_cache(&lock, cache_dir, 0, err)))
		return rc;
	rc = read_copy(out, a, max, err);
	unlock_cache(lock);
	if (rc)
		smp__cache_copy_release(out, a);
	return rc;
}

/* --------------------------------------------------------- committing */

static ssize_t
sys_write(void *ud, int fd, const void *buf, size_t len)
{
	(void)ud;
	return write(fd, buf, len);
}

static int
sys_fsync(void *ud, int fd)
{
	(void)ud;
	return fsync(fd);
}

static int
write_all(const struct smp_cache_io *io, int fd, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t n = io->write(io->ud, fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return -1;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Creates path (which must not exist), writes it whole and fsyncs it. */
static int
write_file(const struct smp_cache_io *io, const char *path, const char *buf,
	   size_t len, struct smp_error *err)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	int e;

	if (fd < 0)
		return fail(err, SMP_EIO, path, "cannot create: %s",
			    strerror(errno));
	if (write_all(io, fd, buf, len) || io->fsync(io->ud, fd)) {
		e = errno;
		close(fd);
		return fail(err, SMP_EIO, path, "cannot write: %s",
			    strerror(e));
	}
	if (close(fd))
		return fail(err, SMP_EIO, path, "cannot write: %s",
			    strerror(errno));
	return 0;
}

static int
sync_dir(const struct smp_cache_io *io, const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc;

	if (fd < 0)
		return -1;
	rc = io->fsync(io->ud, fd);
	close(fd);
	return rc;
}

/* Removes a folder of plain files (the only kind the cache makes). */
static void
remove_dir(const char *dir)
{
	char path[1400];
	struct dirent *e;
	DIR *d = opendir(dir);

	if (d) {
		while ((e = readdir(d)) != NULL) {
			if (strcmp(e->d_name, ".") == 0 ||
			    strcmp(e->d_name, "..") == 0)
				continue;
			if (snprintf(path, sizeof(path), "%s/%s", dir,
				     e->d_name) < (int)sizeof(path))
				unlink(path);
		}
		closedir(d);
	}
	rmdir(dir);
}

/* mkdir -p for the cache folder itself. */
static int
make_dirs(const char *dir, struct smp_error *err)
{
	char path[1024];
	size_t i, n = strlen(dir);

	if (n == 0 || n >= sizeof(path))
		return fail(err, SMP_EINVAL, dir, "invalid cache folder");
	memcpy(path, dir, n + 1);
	for (i = 1; i <= n; i++) {
		if (path[i] != '/' && path[i] != '\0')
			continue;
		path[i] = '\0';
		if (mkdir(path, 0755) != 0 && errno != EEXIST)
			return fail(err, SMP_EIO, path,
				    "cannot create the cache folder: %s",
				    strerror(errno));
		path[i] = dir[i];
	}
	return 0;
}

/* 1 when the writer of a .tmp- folder is gone (its .busy lock is free,
 * or it never made one and the folder is old). */
static int
orphaned(const char *dir)
{
	char path[1400];
	struct stat st;
	int fd, free_;

	if (snprintf(path, sizeof(path), "%s/.busy", dir) >= (int)sizeof(path))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return stat(dir, &st) == 0 &&
		       time(NULL) - st.st_mtime > ORPHAN_AGE;
	free_ = flock(fd, LOCK_EX | LOCK_NB) == 0;
	close(fd);
	return free_;
}

/* Under the exclusive lock: every other copy, dead writers' folders and
 * leftover link names go. Failures only leave litter behind. */
static void
clean_up(const char *cache_dir, const char *keep)
{
	char path[1400];
	struct dirent *e;
	DIR *d = opendir(cache_dir);

	if (!d)
		return;
	while ((e = readdir(d)) != NULL) {
		const char *n = e->d_name;

		if (snprintf(path, sizeof(path), "%s/%s", cache_dir, n) >=
		    (int)sizeof(path))
			continue;
		if ((strncmp(n, "data-", 5) == 0 && strcmp(n, keep) != 0) ||
		    (strncmp(n, ".tmp-", 5) == 0 && orphaned(path)))
			remove_dir(path);
		else if (strncmp(n, ".current-", 9) == 0 ||
			 strncmp(n, ".checked-", 9) == 0)
			unlink(path);
	}
	closedir(d);
}

/* The folder is complete and synced: switch `current` to it. */
static int
publish(const char *cache_dir, const char *tmp, const char *suffix,
	const struct smp_cache_io *io, struct smp_error *err)
{
	char data[64], link_tmp[1100], link[1100], target[1100];
	int lock, rc;

	snprintf(data, sizeof(data), "data-%s", suffix);
	if ((rc = join(target, sizeof(target), cache_dir, data, err)) ||
	    (rc = join(link, sizeof(link), cache_dir, "current", err)))
		return rc;
	snprintf(link_tmp, sizeof(link_tmp), "%s/.current-%s", cache_dir,
		 suffix);
	if ((rc = lock_cache(&lock, cache_dir, 1, err)))
		return rc;
	if (rename(tmp, target) != 0) {
		rc = fail(err, SMP_EIO, target, "cannot rename '%s': %s", tmp,
			  strerror(errno));
		goto out;
	}
	if (symlink(data, link_tmp) != 0 || rename(link_tmp, link) != 0) {
		rc = fail(err, SMP_EIO, link, "cannot switch to '%s': %s", data,
			  strerror(errno));
		unlink(link_tmp);
		remove_dir(target);
		goto out;
	}
	/* from here on the new copy is in use; syncing the folder makes
	 * the switch durable, and a failure cannot undo it */
	sync_dir(io, cache_dir);
	clean_up(cache_dir, data);
	say(link_tmp, sizeof(link_tmp), "%s/.busy", target);
	unlink(link_tmp);
out:
	unlock_cache(lock);
	return rc;
}

int
smp__cache_commit(const char *cache_dir, const char *const *buf,
		  const size_t *len, const struct smp_cache_meta *meta,
		  const struct smp_cache_io *io, const struct smp_allocator *a,
		  struct smp_error *err)
{
	struct smp_cache_io sys = {sys_write, sys_fsync, NULL};
	char tmp[1100], path[1100], *mj;
	size_t mlen = 0;
	int busy = -1, rc, i;

	if (!io)
		io = &sys;
	if ((rc = make_dirs(cache_dir, err)))
		return rc;
	if (snprintf(tmp, sizeof(tmp), "%s/.tmp-XXXXXX", cache_dir) >=
	    (int)sizeof(tmp))
		return fail(err, SMP_EINVAL, cache_dir, "path too long");
	if (!mkdtemp(tmp))
		return fail(err, SMP_EIO, cache_dir, "cannot write: %s",
			    strerror(errno));
	chmod(tmp, 0755); /* mkdtemp's 0700: the data is not secret */
	/* held until this process is done: tells others we are alive */
	say(path, sizeof(path), "%s/.busy", tmp);
	busy = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	if (busy < 0 || flock(busy, LOCK_EX) != 0) {
		rc = fail(err, SMP_EIO, path, "cannot write: %s",
			  strerror(errno));
		goto fail;
	}
	for (i = 0; i < SMP_DOC_COUNT; i++) {
		if (!buf[i])
			continue;
		if ((rc = join(path, sizeof(path), tmp, smp__doc_names[i],
			       err)) ||
		    (rc = write_file(io, path, buf[i], len[i], err)))
			goto fail;
	}
	mj = meta_json(meta, a, &mlen);
	if (!mj) {
		rc = fail(err, SMP_ENOMEM, cache_dir, "out of memory");
		goto fail;
	}
	say(path, sizeof(path), "%s/%s", tmp, META_NAME);
	rc = write_file(io, path, mj, mlen, err);
	smp__free(a, mj);
	if (rc)
		goto fail;
	if (sync_dir(io, tmp) != 0) {
		rc = fail(err, SMP_EIO, tmp, "cannot sync: %s",
			  strerror(errno));
		goto fail;
	}
	rc = publish(cache_dir, tmp, tmp + strlen(tmp) - 6, io, err);
	if (rc)
		goto fail;
	close(busy);
	return 0;
fail:
	remove_dir(tmp);
	if (busy >= 0)
		close(busy);
	return rc;
}

int
smp__cache_mark_checked(const char *cache_dir, int64_t now,
			const struct smp_cache_io *io, struct smp_error *err)
{
	struct smp_cache_io sys = {sys_write, sys_fsync, NULL};
	char tmp[1100], path[1100], text[64];
	int fd, rc = 0, n;

	if (!io)
		io = &sys;
	if ((rc = join(path, sizeof(path), cache_dir, CHECKED_NAME, err)))
		return rc;
	if (snprintf(tmp, sizeof(tmp), "%s/.checked-XXXXXX", cache_dir) >=
	    (int)sizeof(tmp))
		return fail(err, SMP_EINVAL, cache_dir, "path too long");
	fd = mkstemp(tmp);
	if (fd < 0)
		return fail(err, SMP_EIO, cache_dir, "cannot write: %s",
			    strerror(errno));
	n = snprintf(text, sizeof(text), "{\"checked\": %lld}\n",
		     (long long)now);
	if (write_all(io, fd, text, (size_t)n) || io->fsync(io->ud, fd) ||
	    fchmod(fd, 0644) || close(fd) != 0 || rename(tmp, path) != 0) {
		rc = fail(err, SMP_EIO, path, "cannot write: %s",
			  strerror(errno));
		unlink(tmp);
		return rc;
	}
	return 0;
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
	struct smp_error e;

	if (join(path, sizeof(path), cache_dir, CHECKED_NAME, NULL) ||
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
	struct smp_error e;

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
	struct smp_error e;
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
		say(choice->why_not, sizeof(choice->why_not), "%s: %s",
		    e.source, e.message);
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
			say(choice->why_not, sizeof(choice->why_not),
			    "%s:%u:%u: %s", e.source, (unsigned)e.line,
			    (unsigned)e.column, e.message);
		else
			say(choice->why_not, sizeof(choice->why_not), "%s: %s",
			    e.source, e.message);
		rc = 1;
		goto out;
	}
	rc = smp__builtin_data_version(builtin, a);
	if (rc) {
		smp__catalog_release(&tmp);
		goto out;
	}
	if (strcmp(tmp.data_version, builtin) < 0) {
		say(choice->why_not, sizeof(choice->why_not),
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
			fail(err, rc, cache_dir, "out of memory");
		return rc;
	}
	choice->origin = SMP_DATA_BUILTIN;
	return smp__catalog_load_embedded(cat, a, err);
}

/* ------------------------------------------------ context integration */

int
smp__context_data_cache(struct smp_context *ctx, const char *cache_dir,
			struct smp_error *err)
{
	struct smp_data_choice ch;
	int rc = try_cache(&ctx->catalog, &ch, &ctx->alloc, cache_dir,
			   ctx->limits.max_file_size);

	if (rc < 0)
		return fail(err, rc, cache_dir, "out of memory");
	if (rc > 0)
		return 1;
	ctx->data_origin = SMP_DATA_CACHE;
	ctx->data_source = ch.url;
	ctx->data_dir = ch.dir;
	ctx->data_fetched = ch.fetched;
	return 0;
}

int
smp__context_data_dir(struct smp_context *ctx, const char *dir,
		      struct smp_error *err)
{
	ctx->data_origin = SMP_DATA_DIRECTORY;
	ctx->data_dir = smp__strndup(&ctx->alloc, dir, strlen(dir));
	if (!ctx->data_dir)
		return fail(err, SMP_ENOMEM, "context", "out of memory");
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

int
smp_check_data_age(struct smp_report **out, const struct smp_context *ctx,
		   int64_t now, long max_age_days, struct smp_error *err)
{
	struct smp_report *rep = NULL;
	struct smp_finding *f;
	const char *name;
	long born, age;
	int rc;

	if (!out)
		return fail(err, SMP_EINVAL, "out", "out is NULL");
	*out = NULL;
	if (!ctx || max_age_days < 1)
		return fail(err, SMP_EINVAL, "options",
			    "the age limit must be at least one day");
	/* the caller's buffers (SMP_DATA_MEMORY) have no folder to name */
	name = ctx->data_origin == SMP_DATA_BUILTIN ? "<built-in instance data>"
	       : ctx->data_dir                      ? ctx->data_dir
			       : "<instance data in memory>";
	rc = smp__report_new(&rep, &ctx->alloc, name, ctx->severity);
	if (rc)
		return fail(err, rc, name, "out of memory");
	born = smp__days_from_date(ctx->catalog.generated);
	age = epoch_days(now) - born;
	if (born >= 0 && age > max_age_days) {
		f = smp__report_add(
			rep, SMP_RULE_DATA_STALE, NULL, NULL,
			"instance data '%s' is %ld days old, more "
			"than %ld: instance types and tested models "
			"published since are unknown to it",
			ctx->catalog.data_version, age, max_age_days);
		if (ctx->data_origin == SMP_DATA_DIRECTORY)
			smp__finding_fix(
				rep, f,
				"refresh the files in '%s', or drop "
				"--instance-data and run 'sm-preflight "
				"update-data'",
				ctx->data_dir);
		else if (ctx->data_origin == SMP_DATA_MEMORY)
			smp__finding_fix(rep, f,
					 "pass newer instance data, or raise "
					 "the age limit");
		else
			smp__finding_fix(rep, f,
					 "run 'sm-preflight update-data' (or "
					 "raise --stale-days)");
	}
	if (rep->failed) {
		smp_report_free(rep);
		return fail(err, SMP_ENOMEM, name, "out of memory");
	}
	*out = rep;
	return 0;
}

/* --------------------------------------------------------- cache info */

int
smp_data_cache_info(struct smp_cache_info *out, const struct smp_options *opts,
		    struct smp_error *err)
{
	struct smp_limits lim;
	struct smp_options o;
	struct smp_allocator a;
	struct smp_cache_copy copy;
	struct smp_data_buffer b[3];
	struct smp_catalog cat;
	struct smp_error e;
	char names[3][1100], builtin[32];
	struct stat st;
	int rc, i;

	if (!out)
		return fail(err, SMP_EINVAL, "out", "out is NULL");
	memset(out, 0, sizeof(*out));
	if (!opts)
		return fail(err, SMP_EINVAL, "options", "no options");
	/* only the fields of the caller's version; 0 is refused */
	rc = smp__options_resolve(&o, opts, err);
	if (rc)
		return rc;
	opts = &o;
	if (!opts->cache_dir)
		return 0;
	if (smp__allocator_resolve(&a, opts->allocator))
		return fail(err, SMP_EINVAL, "options",
			    "the allocator needs all three hooks");
	smp__limits_resolve(&lim, &opts->limits);
	out->checked = read_checked(opts->cache_dir, &a);
	if (snprintf(out->path, sizeof(out->path), "%s/current",
		     opts->cache_dir) >= (int)sizeof(out->path) ||
	    lstat(out->path, &st) != 0)
		return 0;
	out->present = 1;
	memset(&e, 0, sizeof(e));
	rc = smp__cache_read(&copy, &a, opts->cache_dir, lim.max_file_size, &e);
	if (rc == SMP_ENOMEM)
		return fail(err, rc, opts->cache_dir, "out of memory");
	if (rc) {
		say(out->error, sizeof(out->error), "%s: %s", e.source,
		    e.message);
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
		return fail(err, rc, opts->cache_dir, "out of memory");
	if (rc) {
		if (e.line)
			say(out->error, sizeof(out->error), "%s:%u:%u: %s",
			    e.source, (unsigned)e.line, (unsigned)e.column,
			    e.message);
		else
			say(out->error, sizeof(out->error), "%s: %s", e.source,
			    e.message);
		return 0;
	}
	out->valid = 1;
	snprintf(out->data_version, sizeof(out->data_version), "%s",
		 cat.data_version);
	snprintf(out->generated, sizeof(out->generated), "%s", cat.generated);
	smp__catalog_release(&cat);
	rc = smp__builtin_data_version(builtin, &a);
	if (rc)
		return fail(err, rc, "built-in data",
			    rc == SMP_ENOMEM ? "out of memory"
					     : "cannot read the built-in data");
	out->older_than_builtin = strcmp(out->data_version, builtin) < 0;
	return 0;
}
