/*
 * open_beneath.h - the one way a file named by a spec is opened: beneath
 * the project root, never through a symlink or ".." out of it, regular
 * files only (CONVENTIONS rule 27). Nothing else in the library opens a
 * path a spec, a notebook, a launcher or a describe response names;
 * tests/lint/file_openers.py (make lint) checks it.
 */
#ifndef SMP_OPEN_BENEATH_H
#define SMP_OPEN_BENEATH_H

#include <stddef.h>

#include "smpreflight.h"

/* Why a file was not opened (smp__open_beneath()). */
enum smp_beneath {
	SMP_BENEATH_OK = 0,
	SMP_BENEATH_OUTSIDE,     /* "..", an absolute path or a symlink out */
	SMP_BENEATH_MISSING,     /* no such file (or a component is a file) */
	SMP_BENEATH_NOT_REGULAR, /* a folder, FIFO, device or socket */
	SMP_BENEATH_TOO_LARGE,   /* larger than the caller's limit */
	SMP_BENEATH_ERRNO,       /* another failure: *sys_errno says which */
	SMP_BENEATH_NOMEM
};

/*
 * The project root of base_dir into root (n bytes): the nearest folder
 * holding .git at or above base_dir, resolved, else base_dir itself
 * resolved. base_dir "" (or NULL) is the current folder, never "no
 * check". -1 with errno when base_dir does not resolve or root is too
 * small.
 */
int smp__project_root(char *root, size_t n, const char *base_dir);

/*
 * Opens rel, a path relative to base_dir (a spec's folder), for reading,
 * resolved component by component beneath the project root of base_dir
 * (openat2 RESOLVE_BENEATH where the kernel has it, else openat with
 * O_NOFOLLOW per component and symlinks expanded by hand): ".." above the
 * root, an absolute rel, an absolute symlink or one that leads out is
 * SMP_BENEATH_OUTSIDE. The file must be a regular one (a FIFO is never
 * waited on). Fails closed: a base_dir that does not resolve opens
 * nothing. On SMP_BENEATH_OK *fd is the open descriptor (blocking again),
 * the caller closes it; else *fd is -1 and *sys_errno the system's reason
 * (0 when none).
 */
enum smp_beneath smp__open_beneath(int *fd, const char *base_dir,
				   const char *rel, int *sys_errno);

/*
 * smp__open_beneath() without openat2, whatever the kernel has: the
 * fallback, for tests.
 */
enum smp_beneath smp__open_beneath_walk(int *fd, const char *base_dir,
					const char *rel, int *sys_errno);

/*
 * Reads rel beneath base_dir (smp__open_beneath()) into a NUL-terminated
 * buffer *out of *len bytes, at most max bytes (else
 * SMP_BENEATH_TOO_LARGE, nothing allocated).
 */
enum smp_beneath smp__read_beneath(char **out, size_t *len,
				   const struct smp_allocator *a,
				   const char *base_dir, const char *rel,
				   size_t max, int *sys_errno);

#endif
