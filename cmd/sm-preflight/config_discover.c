/*
 * config_discover.c - finding the configuration files: from a folder
 * upward to the repository root, a `root: true` file or a folder of
 * another user's; and the run that owns what was found.
 *
 * Discovery is memoized per folder: a folder's chain is its own file (if
 * any) in front of its parent's chain, so a tree of ten thousand specs
 * costs one stat() per folder and one parse per file. Folders are kept as
 * absolute paths normalized lexically (no symlink resolution), which is
 * how the user sees the tree.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config_priv.h"
#include "output.h"

/* ---------------------------------------------------------- files */

static int
exists(const char *dir, const char *name, int want_dir)
{
	char *p = cli_path_join(dir, name);
	struct stat st;
	int ok;

	if (!p)
		return 0;
	ok = stat(p, &st) == 0 && (want_dir ? 1 : S_ISREG(st.st_mode));
	free(p);
	return ok;
}

static int
new_chain(struct cli_configs *c, struct cfg_file *f, struct chain *parent,
	  struct chain **out)
{
	struct chain *ch = calloc(1, sizeof(*ch));

	if (!ch)
		return cfg_oom();
	ch->file = f;
	ch->parent = f->cfg->root ? NULL : parent;
	ch->next = c->chains;
	c->chains = ch;
	*out = ch;
	return 0;
}

/* Loads the file at path (malloc'd, freed here; NULL: out of memory)
 * as a new chain in front of parent. An exit status. */
static int
load_chain(struct cli_configs *c, char *path, struct chain *parent,
	   struct chain **out)
{
	struct cfg_file *f;
	int rc;

	if (!path)
		return cfg_oom();
	rc = cfg_load_file(c, path, &f);
	free(path);
	if (rc == 0 && !f) { /* a pyproject.toml without the table */
		*out = parent;
		return 0;
	}
	return rc ? rc : new_chain(c, f, parent, out);
}

/* ---------------------------------------------------------- memo */

static size_t
hash_str(const char *s)
{
	size_t h = 1469598103934665603ull & SIZE_MAX;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * (1099511628211ull & SIZE_MAX);
	return h;
}

struct memo *
cfg_memo_find(struct cli_configs *c, const char *dir)
{
	size_t i, mask;

	if (!c->memo_cap)
		return NULL;
	mask = c->memo_cap - 1;
	for (i = hash_str(dir) & mask; c->memo[i].used; i = (i + 1) & mask)
		if (strcmp(c->memo[i].dir, dir) == 0)
			return &c->memo[i];
	return NULL;
}

static int
memo_put(struct cli_configs *c, const char *dir, struct chain *ch,
	 const struct memo *stop)
{
	size_t i, mask;
	char *d;

	if ((c->memo_count + 1) * 2 > c->memo_cap) {
		size_t ncap = c->memo_cap ? c->memo_cap * 2 : 64, k;
		struct memo *n = calloc(ncap, sizeof(*n));

		if (!n)
			return -1;
		for (k = 0; k < c->memo_cap; k++) {
			if (!c->memo[k].used)
				continue;
			for (i = hash_str(c->memo[k].dir) & (ncap - 1);
			     n[i].used; i = (i + 1) & (ncap - 1))
				;
			n[i] = c->memo[k];
		}
		free(c->memo);
		c->memo = n;
		c->memo_cap = ncap;
	}
	d = strdup(dir);
	if (!d)
		return -1;
	mask = c->memo_cap - 1;
	for (i = hash_str(dir) & mask; c->memo[i].used; i = (i + 1) & mask)
		;
	c->memo[i].dir = d;
	c->memo[i].chain = ch;
	c->memo[i].used = 1;
	c->memo[i].stopped = stop->stopped;
	c->memo[i].stop_uid = stop->stop_uid;
	c->memo_count++;
	return 0;
}

/*
 * 1 when the upward search may go from dir to its parent up: the parent
 * belongs to dir's owner, to root or to the user running us. A folder of
 * someone else's above a project (a shared /tmp-like parent) could
 * otherwise plant a configuration that turns rules off below it; this
 * is the reasoning of git's safe.directory. A folder that cannot be
 * stat()ed changes nothing.
 */
static int
trusted_parent(const char *dir, const char *up, unsigned long *uid)
{
	struct stat d, u;

	if (stat(dir, &d) != 0 || stat(up, &u) != 0)
		return 1;
	*uid = (unsigned long)u.st_uid;
	return u.st_uid == d.st_uid || u.st_uid == 0 || u.st_uid == geteuid();
}

/* The chain of an absolute folder (NULL: no file applies). */
int
cfg_chain_of_dir(struct cli_configs *c, const char *dir, struct chain **out)
{
	struct chain *parent = NULL, *ch;
	struct memo *m, stop;
	char *up;
	int rc;

	*out = NULL;
	if (c->args->no_config)
		return 0;
	if (c->forced) {
		*out = c->forced;
		return 0;
	}
	m = cfg_memo_find(c, dir);
	if (m) {
		*out = m->chain;
		return 0;
	}
	/* the repository root, the filesystem root and a folder of
	 * another user's end the search */
	memset(&stop, 0, sizeof(stop));
	if (strcmp(dir, "/") != 0 && !exists(dir, ".git", 1)) {
		up = cfg_parent_of(dir);
		if (!up)
			return cfg_oom();
		rc = 0;
		if (trusted_parent(dir, up, &stop.stop_uid))
			rc = cfg_chain_of_dir(c, up, &parent);
		else
			stop.stopped = 1;
		free(up);
		if (rc)
			return rc;
	}
	ch = parent;
	if (exists(dir, CLI_CONFIG_NAME, 0)) {
		rc = load_chain(c, cli_path_join(dir, CLI_CONFIG_NAME), parent,
				&ch);
		if (rc)
			return rc;
	} else if (exists(dir, CLI_PYPROJECT_NAME, 0)) {
		/* as ruff reads pyproject.toml when there is no ruff.toml */
		rc = load_chain(c, cli_path_join(dir, CLI_PYPROJECT_NAME),
				parent, &ch);
		if (rc)
			return rc;
	}
	if (memo_put(c, dir, ch, &stop))
		return cfg_oom();
	*out = ch;
	return 0;
}

/* ---------------------------------------------------------- the run */

int
cli_configs_new(struct cli_configs **out, const struct cli_config_args *args)
{
	struct cli_configs *c;
	char buf[PATH_MAX];
	int rc;

	*out = NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return cfg_oom();
	c->args = args;
	if (!getcwd(buf, sizeof(buf))) {
		cli_error("cannot tell the working folder: %s",
			  strerror(errno));
		free(c);
		return CLI_EXIT_USAGE;
	}
	c->cwd = strdup(buf);
	if (!c->cwd) {
		free(c);
		return cfg_oom();
	}
	*out = c;
	if (args->config_file && !args->no_config) {
		rc = load_chain(c, cfg_abs_path(c->cwd, args->config_file),
				NULL, &c->forced);
		if (rc)
			return rc;
	}
	return 0;
}
