/*
 * readfile.h - the CLI's own whole-file reads (configuration files,
 * instance overlays): regular files only, opened O_NONBLOCK so that a
 * FIFO is refused at once instead of blocking, with a size cap.
 */
#ifndef CLI_READFILE_H
#define CLI_READFILE_H

#include <stddef.h>

/* What the CLI reads whole is at most this large (as the library's
 * default file size limit). */
#define CLI_READ_MAX ((size_t)4 * 1024 * 1024)

enum { CLI_READ_OK = 0, CLI_READ_EIO = -1, CLI_READ_ENOMEM = -2 };

/*
 * Reads path into a malloc'd, NUL-terminated *buf (*len bytes). On
 * CLI_READ_EIO *why says what happened ("No such file or directory",
 * "a FIFO, not a regular file", "larger than 4 MiB", ...): a static
 * string, or strerror()'s.
 */
/*
 * Opens path for reading if it is a regular file (O_NONBLOCK, then
 * checked with fstat, so that a FIFO is refused at once): the file
 * descriptor, or -1 with *why set as for cli_read_regular().
 */
int cli_open_regular(const char *path, const char **why);

int cli_read_regular(const char *path, size_t max, char **buf, size_t *len,
		     const char **why);

#endif
