/*
 * data_cache_commit.c - writing a new copy of the instance data into the
 * cache (layout in data_cache.h) atomically, and cleaning up after it.
 *
 * Cleanup works on descriptors: the cache folder is opened once, each
 * entry is looked at with fstatat(AT_SYMLINK_NOFOLLOW) and opened with
 * O_DIRECTORY|O_NOFOLLOW, and only the files the cache itself writes are
 * removed with unlinkat(). A symlink named like a copy (data-*, .tmp-*)
 * is never followed, so nothing outside the cache is touched, and an
 * entry that does not look like ours is left alone.
 */
#define _DEFAULT_SOURCE /* flock, mkdtemp, with _POSIX_C_SOURCE */

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "catalog/data_cache.h"
#include "util/alloc.h"
#include "util/buf.h"

/* a folder without .busy this old was left by a writer that died */
#define ORPHAN_AGE 600

/* ------------------------------------------------------ JSON writing */

static void
put_field(struct smp_buf *b, const char *indent, const char *key, const char *v,
	  int comma)
{
	smp__buf_adds(b, indent);
	smp__buf_json_string(b, key);
	smp__buf_adds(b, ": ");
	smp__buf_json_string(b, v);
	smp__buf_adds(b, comma ? ",\n" : "\n");
}

static char *
meta_json(const struct smp_cache_meta *m, const struct smp_allocator *a,
	  size_t *len)
{
	struct smp_buf b;
	char num[32];
	int i;

	smp__buf_init(&b, a, SMP_BUF_NO_MAX);
	smp__buf_adds(&b, "{\n  \"meta_version\": 1,\n");
	put_field(&b, "  ", "url", m->url, 1);
	snprintf(num, sizeof(num), "%lld", (long long)m->fetched);
	smp__buf_adds(&b, "  \"fetched\": ");
	smp__buf_adds(&b, num);
	smp__buf_adds(&b, ",\n");
	put_field(&b, "  ", "data_version", m->data_version, 1);
	put_field(&b, "  ", "generated", m->generated, 1);
	if (m->max_age_days > 0) {
		snprintf(num, sizeof(num), "%lld", (long long)m->max_age_days);
		smp__buf_adds(&b, "  \"max_age_days\": ");
		smp__buf_adds(&b, num);
		smp__buf_adds(&b, ",\n");
	}
	smp__buf_adds(&b, "  \"files\": {\n");
	for (i = 0; i < SMP_DOC_COUNT; i++) {
		smp__buf_adds(&b, "    ");
		smp__buf_json_string(&b, smp__doc_names[i]);
		smp__buf_adds(&b, ": {\n");
		put_field(&b, "      ", "etag", m->etag[i], 1);
		put_field(&b, "      ", "last_modified", m->last_modified[i],
			  0);
		smp__buf_adds(&b,
			      i + 1 < SMP_DOC_COUNT ? "    },\n" : "    }\n");
	}
	smp__buf_adds(&b, "  }\n}\n");
	return smp__buf_take(&b, len); /* NULL when out of memory */
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

/* io with its NULL members (or io NULL) replaced by the system calls. */
static const struct smp_cache_io *
resolve_io(struct smp_cache_io *sys, const struct smp_cache_io *io)
{
	sys->write = io && io->write ? io->write : sys_write;
	sys->fsync = io && io->fsync ? io->fsync : sys_fsync;
	sys->ud = io ? io->ud : NULL;
	sys->at = io ? io->at : NULL;
	return sys;
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
		return smp__cache_fail(err, SMP_EIO, path, "cannot create: %s",
				       strerror(errno));
	if (write_all(io, fd, buf, len) || io->fsync(io->ud, fd)) {
		e = errno;
		close(fd);
		return smp__cache_fail(err, SMP_EIO, path, "cannot write: %s",
				       strerror(e));
	}
	if (close(fd))
		return smp__cache_fail(err, SMP_EIO, path, "cannot write: %s",
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

/* The names a copy folder may hold: the documents, meta.json, .busy. */
static int
ours(const char *name)
{
	int i;

	for (i = 0; i < SMP_DOC_COUNT; i++)
		if (strcmp(name, smp__doc_names[i]) == 0)
			return 1;
	return strcmp(name, SMP_CACHE_META_NAME) == 0 ||
	       strcmp(name, ".busy") == 0;
}

/*
 * Removes the copy folder `name` in the folder open as parent: only the
 * regular files a copy holds, then the folder if that emptied it. A
 * symlink (or anything else) under that name is left alone.
 */
static void
remove_copy_at(int parent, const char *name)
{
	struct dirent *e;
	struct stat st;
	DIR *d;
	int fd;

	fd = openat(parent, name,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return;
	}
	while ((e = readdir(d)) != NULL) {
		if (!ours(e->d_name) ||
		    fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !S_ISREG(st.st_mode))
			continue;
		(void)unlinkat(fd, e->d_name, 0);
	}
	closedir(d); /* closes fd */
	(void)unlinkat(parent, name, AT_REMOVEDIR);
}

/* remove_copy_at() for a full path this process made. */
static void
remove_copy(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[1100];
	int fd;

	if (!slash || (size_t)(slash - path) >= sizeof(dir))
		return;
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	fd = open(slash == path ? "/" : dir,
		  O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	remove_copy_at(fd, slash + 1);
	close(fd);
}

/* mkdir -p for the cache folder itself. */
static int
make_dirs(const char *dir, struct smp_error *err)
{
	char path[1024];
	size_t i, n = strlen(dir);

	if (n == 0 || n >= sizeof(path))
		return smp__cache_fail(err, SMP_EINVAL, dir,
				       "invalid cache folder");
	memcpy(path, dir, n + 1);
	for (i = 1; i <= n; i++) {
		if (path[i] != '/' && path[i] != '\0')
			continue;
		path[i] = '\0';
		if (mkdir(path, 0755) != 0 && errno != EEXIST)
			return smp__cache_fail(
				err, SMP_EIO, path,
				"cannot create the cache folder: %s",
				strerror(errno));
		path[i] = dir[i];
	}
	return 0;
}

/* 1 when the writer of the .tmp- folder `name` (in the folder open as
 * parent) is gone: its .busy lock is free, or it never made one and the
 * folder is old. Never through a symlink. */
static int
orphaned_at(int parent, const char *name)
{
	struct stat st;
	int dir, fd, free_;

	dir = openat(parent, name,
		     O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dir < 0)
		return 0;
	fd = openat(dir, ".busy",
		    O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		free_ = fstat(dir, &st) == 0 &&
			time(NULL) - st.st_mtime > ORPHAN_AGE;
		close(dir);
		return free_;
	}
	free_ = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
		flock(fd, LOCK_EX | LOCK_NB) == 0;
	close(fd);
	close(dir);
	return free_;
}

/* Under the exclusive lock: every other copy, dead writers' folders and
 * leftover link names go; only entries that are what the cache makes
 * (real folders, our symlinks and files), never what they point to.
 * Failures only leave litter behind. */
static void
clean_up(const char *cache_dir, const char *keep)
{
	struct dirent *e;
	struct stat st;
	DIR *d;
	int fd;

	fd = open(cache_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return;
	}
	while ((e = readdir(d)) != NULL) {
		const char *n = e->d_name;

		if (fstatat(fd, n, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		if (S_ISDIR(st.st_mode) &&
		    ((strncmp(n, "data-", 5) == 0 && strcmp(n, keep) != 0) ||
		     (strncmp(n, ".tmp-", 5) == 0 && orphaned_at(fd, n))))
			remove_copy_at(fd, n);
		else if ((strncmp(n, ".current-", 9) == 0 &&
			  S_ISLNK(st.st_mode)) ||
			 (strncmp(n, ".checked-", 9) == 0 &&
			  S_ISREG(st.st_mode)))
			(void)unlinkat(fd, n, 0); /* the name, not a target */
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
	if ((rc = smp__cache_join(target, sizeof(target), cache_dir, data,
				  err)) ||
	    (rc = smp__cache_join(link, sizeof(link), cache_dir, "current",
				  err)))
		return rc;
	snprintf(link_tmp, sizeof(link_tmp), "%s/.current-%s", cache_dir,
		 suffix);
	if ((rc = smp__cache_lock(&lock, cache_dir, 1, err)))
		return rc;
	if (rename(tmp, target) != 0) {
		rc = smp__cache_fail(err, SMP_EIO, target,
				     "cannot rename '%s': %s", tmp,
				     strerror(errno));
		goto out;
	}
	if (symlink(data, link_tmp) != 0 || rename(link_tmp, link) != 0) {
		rc = smp__cache_fail(err, SMP_EIO, link,
				     "cannot switch to '%s': %s", data,
				     strerror(errno));
		unlink(link_tmp);
		remove_copy(target);
		goto out;
	}
	/* from here on the new copy is in use; syncing the folder makes
	 * the switch durable, and a failure cannot undo it */
	sync_dir(io, cache_dir);
	clean_up(cache_dir, data);
	smp__cache_say(link_tmp, sizeof(link_tmp), "%s/.busy", target);
	unlink(link_tmp);
out:
	smp__cache_unlock(lock);
	return rc;
}

/*
 * Creates the .tmp- folder (its path into tmp) and its .busy file,
 * locked (*busy), under the exclusive cache lock: a concurrent cleanup
 * holds that lock, so it sees a new folder either without .busy (young:
 * alive) or with .busy locked, never in between.
 */
static int
start_copy(const char *cache_dir, char *tmp, size_t size, int *busy,
	   const struct smp_cache_io *io, struct smp_error *err)
{
	char path[1100];
	int lock, rc, e;

	if (snprintf(tmp, size, "%s/.tmp-XXXXXX", cache_dir) >= (int)size)
		return smp__cache_fail(err, SMP_EINVAL, cache_dir,
				       "path too long");
	if ((rc = smp__cache_lock(&lock, cache_dir, 1, err)))
		return rc;
	if (!mkdtemp(tmp)) {
		rc = smp__cache_fail(err, SMP_EIO, cache_dir,
				     "cannot write: %s", strerror(errno));
		smp__cache_unlock(lock);
		return rc;
	}
	chmod(tmp, 0755); /* mkdtemp's 0700: the data is not secret */
	/* held until this process is done: tells others we are alive */
	smp__cache_say(path, sizeof(path), "%s/.busy", tmp);
	*busy = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		     0600);
	if (*busy >= 0 && io->at)
		io->at(io->ud, "busy");
	if (*busy < 0 || flock(*busy, LOCK_EX) != 0) {
		e = errno;
		if (*busy >= 0)
			close(*busy);
		*busy = -1;
		remove_copy(tmp);
		smp__cache_unlock(lock);
		return smp__cache_fail(err, SMP_EIO, path, "cannot write: %s",
				       strerror(e));
	}
	smp__cache_unlock(lock);
	return 0;
}

int
smp__cache_commit(const char *cache_dir, const char *const *buf,
		  const size_t *len, const struct smp_cache_meta *meta,
		  const struct smp_cache_io *io, const struct smp_allocator *a,
		  struct smp_error *err)
{
	struct smp_cache_io sys;
	char tmp[1100], path[1100], *mj;
	size_t mlen = 0;
	int busy = -1, rc, i;

	io = resolve_io(&sys, io);
	if ((rc = make_dirs(cache_dir, err)))
		return rc;
	if ((rc = start_copy(cache_dir, tmp, sizeof(tmp), &busy, io, err)))
		return rc;
	for (i = 0; i < SMP_DOC_COUNT; i++) {
		if (!buf[i])
			continue;
		if ((rc = smp__cache_join(path, sizeof(path), tmp,
					  smp__doc_names[i], err)) ||
		    (rc = write_file(io, path, buf[i], len[i], err)))
			goto fail;
	}
	mj = meta_json(meta, a, &mlen);
	if (!mj) {
		rc = smp__cache_fail(err, SMP_ENOMEM, cache_dir,
				     "out of memory");
		goto fail;
	}
	smp__cache_say(path, sizeof(path), "%s/%s", tmp, SMP_CACHE_META_NAME);
	rc = write_file(io, path, mj, mlen, err);
	smp__free(a, mj);
	if (rc)
		goto fail;
	if (sync_dir(io, tmp) != 0) {
		rc = smp__cache_fail(err, SMP_EIO, tmp, "cannot sync: %s",
				     strerror(errno));
		goto fail;
	}
	rc = publish(cache_dir, tmp, tmp + strlen(tmp) - 6, io, err);
	if (rc)
		goto fail;
	close(busy);
	return 0;
fail:
	remove_copy(tmp);
	close(busy);
	return rc;
}

/* Under the exclusive lock, so that a cleanup never removes the
 * .checked- file of a live writer before it is renamed. */
int
smp__cache_mark_checked(const char *cache_dir, int64_t now,
			const struct smp_cache_io *io, struct smp_error *err)
{
	struct smp_cache_io sys;
	char tmp[1100], path[1100], text[64];
	int fd, lock, rc = 0, n;

	io = resolve_io(&sys, io);
	if ((rc = smp__cache_join(path, sizeof(path), cache_dir,
				  SMP_CACHE_CHECKED_NAME, err)))
		return rc;
	if (snprintf(tmp, sizeof(tmp), "%s/.checked-XXXXXX", cache_dir) >=
	    (int)sizeof(tmp))
		return smp__cache_fail(err, SMP_EINVAL, cache_dir,
				       "path too long");
	if ((rc = smp__cache_lock(&lock, cache_dir, 1, err)))
		return rc;
	fd = mkstemp(tmp);
	if (fd < 0) {
		rc = smp__cache_fail(err, SMP_EIO, cache_dir,
				     "cannot write: %s", strerror(errno));
		smp__cache_unlock(lock);
		return rc;
	}
	n = snprintf(text, sizeof(text), "{\"checked\": %lld}\n",
		     (long long)now);
	if (write_all(io, fd, text, (size_t)n) || io->fsync(io->ud, fd) ||
	    fchmod(fd, 0644) || close(fd) != 0 || rename(tmp, path) != 0) {
		rc = smp__cache_fail(err, SMP_EIO, path, "cannot write: %s",
				     strerror(errno));
		unlink(tmp);
	}
	smp__cache_unlock(lock);
	return rc;
}
