/*
 * glob.h - the patterns of `ignore:` in .sm-preflight.yaml, gitignore
 * style: '*' and '?' within one name, "**" across folders when it is a
 * whole component ("**" + "/" matches zero or more folders; elsewhere it
 * is one '*', as in git), [...] classes ('!' or '^' negates),
 * '\' quotes the next character.
 *
 * Matching takes time proportional to the pattern's length times the
 * name's at worst (star backtracking as in git's wildmatch, never
 * recursion), so no pattern in a pull request can hang a run.
 */
#ifndef CLI_GLOB_H
#define CLI_GLOB_H

/*
 * One ignore pattern against a walked entry: rel is its path relative
 * to the pattern's folder, name its last component. A pattern without
 * '/' (a trailing one aside) matches a name at any depth; a trailing '/'
 * matches folders only; a leading '/' only anchors.
 */
int cli_ignore_match(const char *pattern, const char *rel, const char *name,
		     int is_dir);

/* The pattern p[0, n) (no trailing '/') against the whole of s. */
int cli_glob_match(const char *p, size_t n, const char *s);

#endif
