/*
 * artifact.h - where a SARIF result's file is. A file name as the check
 * was given it ("jobs/a.yaml", "./jobs/a.yaml", "/abs/jobs/a.yaml") is
 * made absolute against the caller's base folder and, when it lies below
 * the source root, relative to the root: SARIF's artifactLocation with
 * uriBaseId "%SRCROOT%", as GitHub code scanning resolves it against the
 * checkout. Paths are handled as text ("." and ".." resolved lexically,
 * nothing read from the file system): the caller passes a resolved root
 * and base (the CLI: realpath() and getcwd()).
 */
#ifndef SMP_EMIT_ARTIFACT_H
#define SMP_EMIT_ARTIFACT_H

#include "smpreflight.h"

/*
 * Normalizes an absolute path in place: repeated slashes, "." segments and
 * a trailing slash go, ".." takes the segment before it (none above "/").
 * "/" stays "/". A relative path is left as it is.
 */
void smp__path_normalize(char *path);

/* Where a file is, for SARIF. */
struct smp__artifact {
	/* below the root: the path relative to it ("jobs/a.yaml"); else
	 * the absolute path, or the name as given when there is none (no
	 * base, or a name such as "<stdin>"). Allocated. */
	char *path;
	int in_root; /* 1: path is relative to the source root */
};

/*
 * Resolves file for SARIF. root (absolute, normalized, NULL for none)
 * and base (absolute: what a relative name is relative to; NULL for
 * root) come from the emitter's options. A name in angle brackets
 * ("<stdin>") is no path and is kept as given, as is every name when
 * root is NULL (a leading "./" dropped). Returns 0 or SMP_ENOMEM.
 */
int smp__artifact_resolve(struct smp__artifact *out,
			  const struct smp_allocator *a, const char *root,
			  const char *base, const char *file);

void smp__artifact_release(struct smp__artifact *art,
			   const struct smp_allocator *a);

#endif
