/*
 * srcroot.h - the source root of SARIF output (smp_emitter_options
 * source_root), resolved by the CLI because the library reads no
 * environment and runs no git: the first of
 *
 *   1. --sarif-root DIR;
 *   2. GITHUB_WORKSPACE (the checkout in GitHub Actions), when set;
 *   3. the git top level of the checked files: the nearest folder at or
 *      above a file's folder that holds a `.git` (a directory, or a file
 *      as in a worktree or submodule), found without running git, for
 *      the first file (in output order) that is in a repository;
 *   4. the working directory.
 *
 * Files outside the root (in another repository, or in none) keep
 * absolute file:// URIs.
 */
#ifndef CLI_SRCROOT_H
#define CLI_SRCROOT_H

#include <stddef.h>

/*
 * Resolves the root as above (option: --sarif-root or NULL; files: the
 * paths to be checked, "-" skipped) and the working directory, both
 * absolute and resolved, into malloc'd *root and *cwd. Returns 0, or
 * CLI_EXIT_USAGE (printed: the --sarif-root folder does not resolve) or
 * CLI_EXIT_INTERNAL (printed).
 */
int cli_sarif_root(char **root, char **cwd, const char *option,
		   char *const *files, size_t nfiles);

#endif
