/*
 * gitignore.h - what git ignores, for walks: the .gitignore files of
 * every folder from the repository's top level down, .git/info/exclude
 * and the global excludes file (core.excludesFile in ~/.gitconfig, else
 * $XDG_CONFIG_HOME/git/ignore or ~/.config/git/ignore), read as git
 * reads them (gitignore(5)): '#' comments, '!' re-includes, a leading or
 * middle '/' anchors to the file's folder, a trailing '/' matches folders
 * only, "**" spans folders as a whole component (elsewhere it is '*'),
 * the last matching line wins and a deeper
 * file over a higher one. git itself is never run. Outside a repository
 * (no .git above the walked folder) nothing is ignored. Lines of any
 * length count; a pattern file over 100 MiB is ignored with a warning on
 * stderr, as git does. tests/walk/gitignore_vs_git.py compares the walk
 * with `git check-ignore --no-index`.
 */
#ifndef CLI_GITIGNORE_H
#define CLI_GITIGNORE_H

#include "walk.h"

struct cli_gitignore;

/* A new matcher; NULL when out of memory. */
struct cli_gitignore *cli_gitignore_new(void);

void cli_gitignore_free(struct cli_gitignore *g);

/*
 * 1 when git ignores the walked entry at path (as the walk spells it; its
 * folder must exist), 0 when not, -1 when out of memory.
 */
int cli_gitignore_match(struct cli_gitignore *g, const char *path,
			const char *name, int is_dir);

#endif
