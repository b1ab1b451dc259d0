/* read_file.c - whole-file reads with a size cap (no mmap: files are small) */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util/alloc.h"
#include "util/read_file.h"
#include "util/error.h"

static int
io_error(struct smp_error *err, const char *path, int code, const char *why)
{
	return smp__error_set(err, code, path, NULL, "%s", why);
}

int
smp__read_file(char **out, size_t *len, const struct smp_allocator *a,
	       const char *path, size_t max, struct smp_error *err)
{
	FILE *f;
	char *buf = NULL, *p;
	size_t cap = 0, n = 0, got;

	*out = NULL;
	*len = 0;
	f = fopen(path, "rb");
	if (!f)
		return io_error(err, path, SMP_EIO, strerror(errno));
	for (;;) {
		if (n + 1 >= cap) {
			size_t ncap = cap ? cap * 2 : 8192;

			if (cap > max + 1)
				break;
			p = smp__realloc(a, buf, ncap);
			if (!p) {
				smp__free(a, buf);
				fclose(f);
				return io_error(err, path, SMP_ENOMEM,
						"out of memory");
			}
			buf = p;
			cap = ncap;
		}
		got = fread(buf + n, 1, cap - n - 1, f);
		n += got;
		if (n > max)
			break;
		if (got == 0) {
			if (ferror(f)) {
				int e = errno;

				smp__free(a, buf);
				fclose(f);
				return io_error(err, path, SMP_EIO,
						e ? strerror(e) : "read error");
			}
			break;
		}
	}
	fclose(f);
	if (n > max) {
		smp__free(a, buf);
		return io_error(err, path, SMP_ELIMIT,
				"file is larger than the size limit");
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}
