/*
 * fix_write.c - a fixed file written in place (see fix_write.h).
 *
 * Why in place, not a temporary file renamed over the original: a rename
 * gives the name a new inode, owned by whoever runs the fix, with the
 * mode copied by hand; it turns a symbolic link into a copy and splits
 * hard links; it needs a writable folder, not a writable file; it loses
 * an edit made between the read and the rename; and a run killed
 * (SIGKILL, SIGXFSZ) leaves the temporary file behind.
 *
 * The trade-off: a rename is atomic, a write in place is not. So the
 * space a longer text needs is reserved first (posix_fallocate()), and
 * SIGXFSZ is ignored while writing, so that a full disk or a file size
 * limit (RLIMIT_FSIZE) is an error before any byte has changed; and an
 * error after that puts the original bytes (kept in memory) back. What
 * is left is a crash, SIGKILL or power loss within the one pwrite() of
 * at most 4 MiB and the fsync() after it: the file may then hold part of
 * each text. That is the risk vim takes with 'backupcopy=yes' (without
 * its backup file, which would be one more file beside the original to
 * leave behind), for the same gains: the inode, owner, group, mode, ACLs
 * and links are the file's own.
 *
 * The compare-and-swap: a POSIX write lock is taken (advisory: it orders
 * two sm-preflight runs, not an editor, and closing any other descriptor
 * of the file in this process drops it), the inode, size and
 * modification time are compared with those taken before the file was
 * read, and its bytes are read again and compared; only then is it
 * written. An editor that saves within the microseconds between that
 * comparison and the write still loses its edit: nothing short of a
 * mandatory lock closes that window.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fix_write.h"

/* cli_fix_write() goes on with writing */
#define GO_ON (-1)

/* See fix_write.h. */
void
cli_stamp_take(struct cli_stamp *s, const char *path)
{
	struct stat st;

	memset(s, 0, sizeof(*s));
	if (stat(path, &st) != 0)
		return;
	s->taken = 1;
	s->dev = st.st_dev;
	s->ino = st.st_ino;
	s->size = st.st_size;
	s->mtime = st.st_mtim;
}

/* 1 when fd holds exactly want[0..n), 0 when not, -1 on a read error. */
static int
holds(int fd, const char *want, size_t n)
{
	char chunk[16384];
	size_t off = 0;
	ssize_t got;

	for (;;) {
		got = pread(fd, chunk, sizeof(chunk), (off_t)off);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -1;
		if (got == 0)
			return off == n;
		if ((size_t)got > n - off ||
		    memcmp(chunk, want + off, (size_t)got) != 0)
			return 0;
		off += (size_t)got;
	}
}

/* All of buf[0..n) at offset 0: 0, or an errno value. */
static int
put(int fd, const char *buf, size_t n)
{
	size_t off = 0;
	ssize_t w;

	while (off < n) {
		w = pwrite(fd, buf + off, n - off, (off_t)off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return w < 0 ? errno : EIO;
		off += (size_t)w;
	}
	return 0;
}

static int
refuse(char *why, size_t whysz, const char *what)
{
	snprintf(why, whysz, "%s; not fixed", what);
	return CLI_WRITE_REFUSED;
}

/* A mode with no write permission for anyone marks the file read-only:
 * refused even for root, who could write it by privilege. */
static int
read_only(char *why, size_t whysz, mode_t mode)
{
	snprintf(why, whysz, "it is read-only (mode %04o); not fixed",
		 (unsigned)(mode & 07777));
	return CLI_WRITE_REFUSED;
}

/* 1 when st is not the file the stamp was taken of, as it was then. */
static int
moved_on(const struct cli_stamp *s, const struct stat *st)
{
	return s->taken && (s->dev != st->st_dev || s->ino != st->st_ino ||
			    s->size != st->st_size ||
			    s->mtime.tv_sec != st->st_mtim.tv_sec ||
			    s->mtime.tv_nsec != st->st_mtim.tv_nsec);
}

/* The checks before writing, on the open, locked file: GO_ON, or what
 * cli_fix_write() returns. */
static int
compare(int fd, const struct cli_stamp *stamp, const char *orig,
	size_t orig_len, const char *text, size_t len, char *why, size_t whysz)
{
	struct stat st;
	int same;

	if (fstat(fd, &st) != 0)
		return refuse(why, whysz, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return refuse(why, whysz, "not a regular file");
	if (!(st.st_mode & 0222))
		return read_only(why, whysz, st.st_mode);
	/* another name of this file (a link) was fixed first */
	if ((size_t)st.st_size == len && holds(fd, text, len) == 1)
		return CLI_WRITE_SAME;
	if (moved_on(stamp, &st))
		return refuse(why, whysz, "changed since it was read");
	same = holds(fd, orig, orig_len);
	if (same < 0)
		return refuse(why, whysz, strerror(errno));
	if (!same)
		return refuse(why, whysz, "changed since it was read");
	return GO_ON;
}

/* Space for a longer text, so that ENOSPC or EFBIG comes before any
 * byte changes: 0, or an errno value (the file as it was). */
static int
reserve(int fd, size_t orig_len, size_t len)
{
	int e;

	if (len <= orig_len)
		return 0;
	e = posix_fallocate(fd, (off_t)orig_len, (off_t)(len - orig_len));
	/* a file system that cannot reserve: the write finds out */
	if (e == EINVAL || e == EOPNOTSUPP || e == ENOSYS)
		return 0;
	if (e)
		(void)ftruncate(fd, (off_t)orig_len);
	return e;
}

/* The text over the file; on an error the original put back. */
static int
overwrite(int fd, const char *orig, size_t orig_len, const char *text,
	  size_t len, char *why, size_t whysz)
{
	int e = reserve(fd, orig_len, len);

	if (e) {
		snprintf(why, whysz, "%s; not fixed", strerror(e));
		return CLI_WRITE_FAILED;
	}
	e = put(fd, text, len);
	if (!e && len < orig_len && ftruncate(fd, (off_t)len) != 0)
		e = errno;
	if (!e && fsync(fd) != 0)
		e = errno;
	if (!e)
		return CLI_WRITE_OK;
	if (put(fd, orig, orig_len) == 0 &&
	    ftruncate(fd, (off_t)orig_len) == 0 && fsync(fd) == 0) {
		snprintf(why, whysz, "%s; not fixed (its text is as it was)",
			 strerror(e));
		return CLI_WRITE_FAILED;
	}
	snprintf(why, whysz,
		 "%s, and putting its text back failed too: it may hold part "
		 "of the fixed text",
		 strerror(e));
	return CLI_WRITE_DAMAGED;
}

/* See fix_write.h. */
int
cli_fix_write(const char *path, const struct cli_stamp *stamp, const char *orig,
	      size_t orig_len, const char *text, size_t len, char *why,
	      size_t whysz)
{
	struct flock lk;
	struct sigaction ign, old;
	struct stat st;
	int fd, rc;

	/* follows a symbolic link, as reading did: its target is the file.
	 * A device put in its place is not opened (opening one can act);
	 * fstat() below sees what was opened. */
	if (stat(path, &st) != 0)
		return refuse(why, whysz, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return refuse(why, whysz, "not a regular file");
	if (!(st.st_mode & 0222))
		return read_only(why, whysz, st.st_mode);
	fd = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return refuse(why, whysz, strerror(errno));
	memset(&lk, 0, sizeof(lk));
	lk.l_type = F_WRLCK;
	lk.l_whence = SEEK_SET;
	if (fcntl(fd, F_SETLK, &lk) != 0 &&
	    (errno == EACCES || errno == EAGAIN)) {
		close(fd);
		return refuse(why, whysz, "another process holds a lock on it");
	}
	/* (no lock at all, ENOLCK on some network file systems: the
	 * comparison below still stands) */
	rc = compare(fd, stamp, orig, orig_len, text, len, why, whysz);
	if (rc == GO_ON) {
		memset(&ign, 0, sizeof(ign));
		ign.sa_handler = SIG_IGN;
		sigemptyset(&ign.sa_mask);
		(void)sigaction(SIGXFSZ, &ign, &old);
		rc = overwrite(fd, orig, orig_len, text, len, why, whysz);
		(void)sigaction(SIGXFSZ, &old, NULL);
	}
	close(fd); /* drops the lock */
	return rc;
}
