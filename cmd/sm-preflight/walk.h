/*
 * walk.h - turning command-line paths into spec files. A directory is
 * walked recursively for *.yaml, *.yml and *.json, skipping hidden
 * entries, following symbolic links but never into a directory already
 * visited (so loops end), and the files are visited sorted by path.
 */
#ifndef CLI_WALK_H
#define CLI_WALK_H

#include <stddef.h>

/* Called for each file; a non-zero return stops the walk. */
typedef int (*cli_walk_fn)(void *ud, const char *path);

/* Status of cli_walk() besides the callback's own stop value. */
#define CLI_WALK_ENOMEM (-1000)

/*
 * Visits path: "-" and anything that is not a directory are passed to fn
 * as they are (reading them, and reporting failure, is fn's job). A
 * directory that cannot be read is reported on stderr and counted in
 * *unreadable. Returns 0, fn's non-zero value, or CLI_WALK_ENOMEM.
 */
int cli_walk(const char *path, cli_walk_fn fn, void *ud, size_t *unreadable);

#endif
