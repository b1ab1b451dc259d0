/* read_file.c - whole-file reads with a size cap (no mmap: files are small) */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/alloc.h"
#include "util/buf.h"
#include "util/read_file.h"
#include "util/error.h"

static int
io_error(struct smp_error *err, const char *path, int code, const char *why)
{
	return smp__error_set(err, code, path, NULL, "%s", why);
}

/*
 * O_NONBLOCK: opening a FIFO for reading would otherwise wait for a
 * writer forever; it is then refused by fstat() like any file that is
 * not a regular one (a device could stream without end).
 */
FILE *
smp__open_regular(const char *path, struct smp_error *err)
{
	struct stat st;
	FILE *f;
	int fd, flags;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		io_error(err, path, SMP_EIO, strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) != 0) {
		io_error(err, path, SMP_EIO, strerror(errno));
		close(fd);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		io_error(err, path, SMP_EIO,
			 S_ISDIR(st.st_mode)    ? strerror(EISDIR)
			 : S_ISFIFO(st.st_mode) ? "a FIFO, not a regular file"
						: "not a regular file");
		close(fd);
		return NULL;
	}
	flags = fcntl(fd, F_GETFL);
	if (flags != -1)
		(void)fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
	f = fdopen(fd, "rb");
	if (!f) {
		io_error(err, path, SMP_EIO, strerror(errno));
		close(fd);
	}
	return f;
}

/* Reads the stream f to its end (then closes it); see read_file.h. */
static int
read_stream(char **out, size_t *len, const struct smp_allocator *a, FILE *f,
	    const char *path, size_t max, struct smp_error *err)
{
	char chunk[8192];
	struct smp_buf b;
	size_t got;
	int rc, bad = 0, e = 0;

	smp__buf_init(&b, a, max);
	while ((got = fread(chunk, 1, sizeof(chunk), f)) > 0)
		if (smp__buf_add(&b, chunk, got))
			break;
	if (!got && ferror(f)) {
		bad = 1;
		e = errno;
	}
	fclose(f);
	rc = smp__buf_error(&b);
	if (rc || bad) {
		smp__buf_free(&b);
		if (rc == SMP_ELIMIT)
			return io_error(err, path, SMP_ELIMIT,
					"file is larger than the size limit");
		if (rc)
			return io_error(err, path, SMP_ENOMEM, "out of memory");
		return io_error(err, path, SMP_EIO,
				e ? strerror(e) : "read error");
	}
	*out = smp__buf_take(&b, len);
	if (!*out)
		return io_error(err, path, SMP_ENOMEM, "out of memory");
	return 0;
}

int
smp__read_file(char **out, size_t *len, const struct smp_allocator *a,
	       const char *path, size_t max, struct smp_error *err)
{
	FILE *f;

	*out = NULL;
	*len = 0;
	f = smp__open_regular(path, err);
	if (!f)
		return err ? err->code : SMP_EIO;
	return read_stream(out, len, a, f, path, max, err);
}

int
smp__read_fd(char **out, size_t *len, const struct smp_allocator *a, int fd,
	     const char *path, size_t max, struct smp_error *err)
{
	FILE *f;

	*out = NULL;
	*len = 0;
	f = fdopen(fd, "rb");
	if (!f) {
		close(fd);
		return io_error(err, path, SMP_EIO, strerror(errno));
	}
	return read_stream(out, len, a, f, path, max, err);
}
