/* read_file.h - reading a whole file through the context's allocator */
#ifndef SMP_READ_FILE_H
#define SMP_READ_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "smpreflight.h"

/*
 * Reads path into a NUL-terminated buffer (*out, *len). Returns SMP_EIO
 * (err filled with the system's reason), SMP_ELIMIT when the file is
 * larger than max bytes (nothing allocated), or SMP_ENOMEM.
 */
/*
 * Opens path for reading when it is a regular file; a FIFO, a device, a
 * socket or a folder is refused at once (never waited on): NULL with
 * err (may be NULL) giving SMP_EIO and the reason.
 */
FILE *smp__open_regular(const char *path, struct smp_error *err);

int smp__read_file(char **out, size_t *len, const struct smp_allocator *a,
		   const char *path, size_t max, struct smp_error *err);

/*
 * smp__read_file() from the open descriptor fd (closed, whatever
 * happens); path only names it in err.
 */
int smp__read_fd(char **out, size_t *len, const struct smp_allocator *a, int fd,
		 const char *path, size_t max, struct smp_error *err);

#endif
