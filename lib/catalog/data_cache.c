/*
 * data_cache.c - the refreshed instance data on disk (layout in
 * data_cache.h): the names, paths and the lock shared by reading
 * (data_cache_read.c) and committing (data_cache_commit.c). The
 * context's side (what it records about the data) is
 * lib/context/data_origin.c.
 *
 * flock(2) is BSD rather than POSIX, but unlike fcntl locks it belongs to
 * the open file, so a library cannot drop a lock its host process holds
 * on the same file by closing an unrelated descriptor.
 */
#define _DEFAULT_SOURCE /* flock, with _POSIX_C_SOURCE from the Makefile */

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catalog/data_cache.h"
#include "util/error.h"
#include "util/path.h"

const char *const smp__doc_names[SMP_DOC_COUNT] = {
	"instances.json", "tested-models.json", "frameworks.json",
	"index.json"};

/* See data_cache.h. */
int
smp__cache_fail(struct smp_error *err, int code, const char *source,
		const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	smp__error_setv(err, code, source, NULL, fmt, ap);
	va_end(ap);
	return code;
}

/* See data_cache.h. */
void
smp__cache_say(char *out, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(out, size, fmt, ap);
	va_end(ap);
}

/* See data_cache.h. */
int
smp__cache_join(char *out, size_t size, const char *dir, const char *name,
		struct smp_error *err)
{
	size_t len = 0;

	if (size)
		out[0] = '\0';
	/* an empty folder is the root, as "/" + name always named it */
	if (!size || (!*dir && smp__path_append(out, size, &len, "/")) ||
	    smp__path_append(out, size, &len, dir) ||
	    smp__path_append(out, size, &len, name))
		return smp__cache_fail(err, SMP_EINVAL, dir, "path too long");
	return 0;
}

/* ------------------------------------------------------------ locking */

/*
 * Opens CACHE/lock and takes it shared or exclusive. A reader that finds
 * no lock file (nothing was ever committed, or a read-only copy) reads
 * without one: *fd is -1 then.
 */
int
smp__cache_lock(int *fd, const char *cache_dir, int exclusive,
		struct smp_error *err)
{
	char path[1100];
	struct stat st;
	int rc;

	*fd = -1;
	if (smp__cache_join(path, sizeof(path), cache_dir, "lock", err))
		return SMP_EINVAL;
	/* O_NOFOLLOW: a `lock` symlink would make us create or lock a
	 * file elsewhere; O_NONBLOCK: a FIFO there must not hang us */
	*fd = exclusive ? open(path,
			       O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK |
				       O_CLOEXEC,
			       0644)
			: open(path,
			       O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (*fd >= 0 && (fstat(*fd, &st) != 0 || !S_ISREG(st.st_mode))) {
		close(*fd);
		*fd = -1;
		errno = EINVAL;
		if (!exclusive)
			return 0;
		return smp__cache_fail(err, SMP_EIO, path,
				       "cannot use the lock: not a regular "
				       "file");
	}
	if (*fd < 0) {
		if (!exclusive)
			return 0;
		return smp__cache_fail(err, SMP_EIO, path,
				       "cannot open the lock: %s",
				       strerror(errno));
	}
	do
		rc = flock(*fd, exclusive ? LOCK_EX : LOCK_SH);
	while (rc != 0 && errno == EINTR);
	if (rc != 0 && exclusive) {
		rc = errno;
		close(*fd);
		*fd = -1;
		return smp__cache_fail(err, SMP_EIO, path, "cannot lock: %s",
				       strerror(rc));
	}
	return 0;
}

/* See data_cache.h. */
void
smp__cache_unlock(int fd)
{
	if (fd >= 0)
		close(fd); /* releases the flock */
}
