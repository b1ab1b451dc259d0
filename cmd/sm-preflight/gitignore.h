/*
 * gitignore.h - what git ignores, for walks: the .gitignore files of
 * every folder from the repository's top level down, .git/info/exclude
 * and the global excludes file (core.excludesFile in ~/.gitconfig, else
 * $XDG_CONFIG_HOME/git/ignore or ~/.config/git/ignore), read as git
 * reads them (gitignore(5)): '#' comments, '!' re-includes, a leading or
 * middle '/' anchors to the file's folder, a trailing '/' matches folders
 * only, "**" spans folders, the last matching line wins and a deeper
 * file over a higher one. git itself is never run. Outside a repository
 * (no .git above the walked folder) nothing is ignored.
 */
#ifndef CLI_GITIGNORE_H
#define CLI_GITIGNORE_H

#include "walk.h"

struct cli_gitignore;

/* A new matcher; NULL when out of memory. */
struct cli_gitignore *cli_gitignore_new(void);

void cli_gitignore_free(struct cli_gitignore *g);

/*
 * A walk filter that skips what git ignores, then asks inner (which may
 * have NULL skip: the default suffixes). g and inner must outlive out.
 */
void cli_gitignore_filter(struct cli_gitignore *g,
			  const struct cli_walk_filter *inner,
			  struct cli_walk_filter *out);

#endif
