/*
 * open_beneath.c - opening a file a spec names, beneath the project root
 * (open_beneath.h). A realpath() comparison after the fact failed open
 * when the spec's folder was "" (realpath("") is an error); here the
 * resolution itself is confined, so nothing outside is ever opened:
 * openat2(RESOLVE_BENEATH) where the kernel has it, else a walk that
 * opens one component at a time with O_NOFOLLOW, counts the depth below
 * the root for "..", and expands relative symlinks by hand.
 */
#define _DEFAULT_SOURCE /* syscall(), with _POSIX_C_SOURCE */

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__linux__) && defined(__has_include)
#if __has_include(<linux/openat2.h>) && __has_include(<sys/syscall.h>)
#include <linux/openat2.h>
#include <sys/syscall.h>
#ifdef SYS_openat2
#define HAVE_OPENAT2 1
#endif
#endif
#endif

#include "util/open_beneath.h"
#include "util/read_file.h"

/* How many symlinks one resolution may expand (Linux's own limit). */
#define MAX_LINKS 40

#define FILE_FLAGS (O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

/* Walks up from the resolved folder real (n bytes) to one holding .git. */
static void
repository_root(char *root, const char *real)
{
	char probe[PATH_MAX + 8];
	struct stat st;
	size_t n = strlen(real);

	memcpy(root, real, n + 1);
	for (;;) {
		memcpy(probe, root, n);
		memcpy(probe + (n == 1 ? 0 : n), "/.git", sizeof("/.git"));
		if (stat(probe, &st) == 0) {
			root[n] = '\0';
			return;
		}
		if (n <= 1)
			break;
		while (n > 1 && root[n - 1] != '/')
			n--;
		if (n > 1)
			n--; /* the '/' before the last component */
		root[n] = '\0';
	}
	memcpy(root, real, strlen(real) + 1); /* no repository */
}

/* root and the resolved base_dir, both PATH_MAX bytes; -1 with errno. */
static int
roots(char *root, char *real, const char *base_dir)
{
	if (!realpath(base_dir && *base_dir ? base_dir : ".", real))
		return -1;
	repository_root(root, real);
	return 0;
}

int
smp__project_root(char *root, size_t n, const char *base_dir)
{
	char r[PATH_MAX], real[PATH_MAX];

	if (roots(r, real, base_dir))
		return -1;
	if (strlen(r) >= n) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(root, r, strlen(r) + 1);
	return 0;
}

static enum smp_beneath
from_errno(int e, int *sys_errno)
{
	*sys_errno = e;
	if (e == ENOENT || e == ENOTDIR)
		return SMP_BENEATH_MISSING;
	if (e == EXDEV)
		return SMP_BENEATH_OUTSIDE;
	if (e == ENOMEM)
		return SMP_BENEATH_NOMEM;
	return SMP_BENEATH_ERRNO;
}

/*
 * Replaces the path left to walk (path, from offset at) by the symlink
 * target link followed by it. -1 when that does not fit.
 */
static int
splice(char *path, size_t size, size_t at, const char *link, size_t n)
{
	size_t rest = strlen(path + at), sep = rest ? 1 : 0;

	if (n + sep + rest + 1 > size)
		return -1;
	memmove(path + n + sep, path + at, rest + 1);
	memcpy(path, link, n);
	if (sep)
		path[n] = '/'; /* a link as the last name keeps no '/' */
	return 0;
}

/* Moves *cur to next (a descriptor or -1 with errno). */
static int
step(int *cur, int next)
{
	if (next < 0)
		return -1;
	close(*cur);
	*cur = next;
	return 0;
}

/*
 * The walk beneath dirfd (not closed). A path left is kept in path (the
 * rest after the component in hand, with symlink targets put in front).
 */
static enum smp_beneath
walk(int dirfd, const char *rel, int *fd, int *sys_errno)
{
	char path[2 * PATH_MAX], link[PATH_MAX], comp[NAME_MAX + 1];
	size_t at = 0, depth = 0, n;
	int cur, e, links = 0;
	struct stat st;
	ssize_t got;

	if (strlen(rel) >= sizeof(path))
		return from_errno(ENAMETOOLONG, sys_errno);
	memcpy(path, rel, strlen(rel) + 1);
	cur = openat(dirfd, ".", DIR_FLAGS);
	if (cur < 0)
		return from_errno(errno, sys_errno);
	for (;;) {
		int last;

		while (path[at] == '/')
			at++;
		if (!path[at])
			break; /* ends on a folder */
		n = strcspn(path + at, "/");
		if (n > NAME_MAX) {
			close(cur);
			return from_errno(ENAMETOOLONG, sys_errno);
		}
		memcpy(comp, path + at, n);
		comp[n] = '\0';
		at += n;
		last = !path[at]; /* "name/" must be a folder */
		if (strcmp(comp, ".") == 0)
			continue;
		if (strcmp(comp, "..") == 0) {
			if (depth == 0) {
				close(cur);
				return SMP_BENEATH_OUTSIDE;
			}
			if (step(&cur, openat(cur, "..", DIR_FLAGS)))
				goto fail;
			depth--;
			continue;
		}
		if (fstatat(cur, comp, &st, AT_SYMLINK_NOFOLLOW) != 0)
			goto fail;
		if (S_ISLNK(st.st_mode)) {
			got = readlinkat(cur, comp, link, sizeof(link));
			if (got < 0)
				goto fail;
			if ((size_t)got >= sizeof(link) ||
			    ++links > MAX_LINKS) {
				errno = (size_t)got >= sizeof(link)
						? ENAMETOOLONG
						: ELOOP;
				goto fail;
			}
			if (got == 0 || link[0] == '/') {
				close(cur);
				return SMP_BENEATH_OUTSIDE;
			}
			if (splice(path, sizeof(path), at, link, (size_t)got)) {
				errno = ENAMETOOLONG;
				goto fail;
			}
			at = 0;
			continue;
		}
		if (last && !S_ISDIR(st.st_mode)) {
			/* O_NOFOLLOW: swapped for a symlink since, refused */
			*fd = openat(cur, comp, FILE_FLAGS | O_NOFOLLOW);
			e = errno;
			close(cur);
			return *fd < 0 ? from_errno(e, sys_errno)
				       : SMP_BENEATH_OK;
		}
		if (!S_ISDIR(st.st_mode)) {
			errno = ENOTDIR;
			goto fail;
		}
		if (step(&cur, openat(cur, comp, DIR_FLAGS)))
			goto fail;
		depth++;
	}
	/* the path names a folder: handed back to be refused */
	*fd = cur;
	return SMP_BENEATH_OK;
fail:
	e = errno;
	close(cur);
	return from_errno(e, sys_errno);
}

/* Refuses what is not a regular file; makes a regular one blocking. */
static enum smp_beneath
regular_only(int *fd, int *sys_errno)
{
	struct stat st;
	int flags;

	if (fstat(*fd, &st) != 0) {
		int e = errno;

		close(*fd);
		*fd = -1;
		return from_errno(e, sys_errno);
	}
	if (!S_ISREG(st.st_mode)) {
		close(*fd);
		*fd = -1;
		*sys_errno = S_ISDIR(st.st_mode) ? EISDIR : 0;
		return SMP_BENEATH_NOT_REGULAR;
	}
	flags = fcntl(*fd, F_GETFL);
	if (flags != -1)
		(void)fcntl(*fd, F_SETFL, flags & ~O_NONBLOCK);
	return SMP_BENEATH_OK;
}

/* root's descriptor and rel as a path from it, into full; -1 w/ errno. */
static int
start(const char *base_dir, const char *rel, char *full, size_t size)
{
	char root[PATH_MAX], real[PATH_MAX];
	const char *sub;
	size_t n;
	int dirfd;

	if (roots(root, real, base_dir))
		return -1;
	n = strlen(root);
	/* real lies in root; what follows is the spec's folder below it */
	sub = real[n] == '/' ? real + n + 1 : n == 1 ? real + 1 : "";
	if (snprintf(full, size, "%s%s%s", sub, *sub ? "/" : "", rel) >=
	    (int)size) {
		errno = ENAMETOOLONG;
		return -1;
	}
	dirfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return dirfd;
}

static enum smp_beneath
open_beneath(int *fd, const char *base_dir, const char *rel, int *sys_errno,
	     int kernel)
{
	char full[2 * PATH_MAX];
	enum smp_beneath r;
	int dirfd;

	*fd = -1;
	*sys_errno = 0;
	if (!rel || !*rel)
		return from_errno(ENOENT, sys_errno);
	if (rel[0] == '/')
		return SMP_BENEATH_OUTSIDE;
	dirfd = start(base_dir, rel, full, sizeof(full));
	if (dirfd < 0)
		return from_errno(errno, sys_errno);
	r = SMP_BENEATH_ERRNO;
#ifdef HAVE_OPENAT2
	if (kernel) {
		struct open_how how;
		long got;

		memset(&how, 0, sizeof(how));
		how.flags = FILE_FLAGS;
		how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
		got = syscall(SYS_openat2, dirfd, full, &how, sizeof(how));
		if (got >= 0) {
			*fd = (int)got;
			r = SMP_BENEATH_OK;
		} else if (errno != ENOSYS && errno != EPERM &&
			   errno != E2BIG && errno != EINVAL &&
			   errno != EAGAIN) {
			r = from_errno(errno, sys_errno);
			close(dirfd);
			return r;
		} else {
			kernel = 0; /* no openat2 here (or a race): walk */
		}
	}
#endif
	if (!kernel)
		r = walk(dirfd, full, fd, sys_errno);
	close(dirfd);
	if (r != SMP_BENEATH_OK)
		return r;
	return regular_only(fd, sys_errno);
}

enum smp_beneath
smp__open_beneath(int *fd, const char *base_dir, const char *rel,
		  int *sys_errno)
{
	return open_beneath(fd, base_dir, rel, sys_errno, 1);
}

enum smp_beneath
smp__open_beneath_walk(int *fd, const char *base_dir, const char *rel,
		       int *sys_errno)
{
	return open_beneath(fd, base_dir, rel, sys_errno, 0);
}

enum smp_beneath
smp__read_beneath(char **out, size_t *len, const struct smp_allocator *a,
		  const char *base_dir, const char *rel, size_t max,
		  int *sys_errno)
{
	struct smp_error err;
	struct stat st;
	enum smp_beneath r;
	int fd, rc;

	*out = NULL;
	*len = 0;
	r = smp__open_beneath(&fd, base_dir, rel, sys_errno);
	if (r != SMP_BENEATH_OK)
		return r;
	if (fstat(fd, &st) == 0 &&
	    (unsigned long long)st.st_size > (unsigned long long)max) {
		close(fd);
		return SMP_BENEATH_TOO_LARGE;
	}
	memset(&err, 0, sizeof(err));
	rc = smp__read_fd(out, len, a, fd, rel, max, &err);
	if (rc == 0)
		return SMP_BENEATH_OK;
	if (rc == SMP_ENOMEM)
		return SMP_BENEATH_NOMEM;
	if (rc == SMP_ELIMIT)
		return SMP_BENEATH_TOO_LARGE;
	*sys_errno = EIO;
	return SMP_BENEATH_ERRNO;
}
