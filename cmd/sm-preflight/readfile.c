/* readfile.c - whole regular files for the CLI (see readfile.h) */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "readfile.h"

/* The reason a path cannot be opened as a regular file, or NULL. */
static const char *
not_regular(const struct stat *st)
{
	if (S_ISREG(st->st_mode))
		return NULL;
	if (S_ISDIR(st->st_mode))
		return strerror(EISDIR);
	if (S_ISFIFO(st->st_mode))
		return "a FIFO, not a regular file";
	return "not a regular file";
}

/* See readfile.h. */
int
cli_open_regular(const char *path, const char **why)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);

	if (fd < 0) {
		*why = strerror(errno);
		return -1;
	}
	if (fstat(fd, &st) != 0 || (*why = not_regular(&st)) != NULL) {
		if (!*why)
			*why = strerror(errno);
		close(fd);
		return -1;
	}
	return fd;
}

/* See readfile.h. */
int
cli_read_regular(const char *path, size_t max, char **buf, size_t *len,
		 const char **why)
{
	size_t cap = 4096, n = 0;
	char *b, *nb;
	ssize_t got;
	int fd;

	*buf = NULL;
	*len = 0;
	fd = cli_open_regular(path, why);
	if (fd < 0)
		return CLI_READ_EIO;
	b = malloc(cap);
	if (!b) {
		close(fd);
		return CLI_READ_ENOMEM;
	}
	for (;;) {
		if (n + 1 >= cap) {
			if (cap > max + 1) {
				free(b);
				close(fd);
				*why = "larger than 4 MiB";
				return CLI_READ_EIO;
			}
			nb = realloc(b, cap * 2);
			if (!nb) {
				free(b);
				close(fd);
				return CLI_READ_ENOMEM;
			}
			b = nb;
			cap *= 2;
		}
		got = read(fd, b + n, cap - n - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			*why = strerror(errno);
			free(b);
			close(fd);
			return CLI_READ_EIO;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	close(fd);
	if (n > max) {
		free(b);
		*why = "larger than 4 MiB";
		return CLI_READ_EIO;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return CLI_READ_OK;
}
