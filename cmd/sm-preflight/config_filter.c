/*
 * config_filter.c - the walk filter: a folder's configuration says which
 * entries to skip (what git ignores unless respect-gitignore: false, the
 * excluded patterns, `ignore:` and `extend-exclude:` globs matched by
 * glob.c) and which file extensions are specs; and --force-exclude, the
 * same patterns over the paths named on the command line (ruff's).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config_priv.h"
#include "gitignore.h"
#include "glob.h"
#include "output.h"

static int
has_extension(const struct smp_config_list *exts, const char *name)
{
	const char *dot = strrchr(name, '.');
	size_t i;

	if (!exts)
		return cli_walk_default_suffix(name);
	if (!dot || dot == name)
		return 0;
	for (i = 0; i < exts->count; i++) {
		const char *e = exts->items[i];

		if (strcmp(dot + 1, e[0] == '.' ? e + 1 : e) == 0)
			return 1;
	}
	return 0;
}

/* A launcher or notebook, walked unless --no-python. */
static int
is_python(const char *name)
{
	size_t n = strlen(name);

	return (n > 3 && strcmp(name + n - 3, ".py") == 0) ||
	       (n > 6 && strcmp(name + n - 6, ".ipynb") == 0);
}

/* 1 when a pattern of list matches the entry at abs (absolute, name its
 * last component), each relative to its own folder; an entry outside a
 * pattern's folder is not matched by it. */
static int
match_list(const struct ignore *list, size_t n, const char *abs,
	   const char *name, int is_dir)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const char *base = list[i].base;
		size_t bl = strlen(base);
		const char *rel;

		if (strcmp(base, "/") == 0)
			rel = abs + 1;
		else if (strncmp(abs, base, bl) == 0 && abs[bl] == '/')
			rel = abs + bl + 1;
		else
			continue;
		if (cli_ignore_match(list[i].pattern, rel, name, is_dir))
			return 1;
	}
	return 0;
}

/* 1 when the patterns of p exclude the entry at abs: the excluded ones
 * (--exclude, the nearest exclude:, else the default names), then
 * --extend-exclude and the files' ignore: and extend-exclude:. */
static int
excluded(const struct cli_configs *c, const struct cli_profile *p,
	 const char *abs, const char *name, int is_dir)
{
	size_t i, cl = strlen(c->cwd);

	if (p->exclude_set ? match_list(p->excludes, p->exclude_count, abs,
					name, is_dir)
			   : cli_walk_default_exclude(name))
		return 1;
	/* --extend-exclude: relative to the working folder */
	for (i = 0; i < c->args->extend_exclude_count; i++)
		if (strncmp(abs, c->cwd, cl) == 0 && abs[cl] == '/' &&
		    cli_ignore_match(c->args->extend_exclude[i], abs + cl + 1,
				     name, is_dir))
			return 1;
	return match_list(p->ignores, p->ignore_count, abs, name, is_dir);
}

/* The profile of the folder holding abs: 0, or -1 (printed). */
static int
profile_above(struct cli_configs *c, const char *abs, struct cli_profile **p,
	      struct chain **ch)
{
	char *dir = cfg_parent_of(abs);
	int rc;

	*ch = NULL;
	*p = NULL;
	if (!dir) {
		cfg_oom();
		return -1;
	}
	rc = cfg_chain_of_dir(c, dir, ch);
	if (!rc)
		rc = cfg_profile_of(c, *ch, p);
	free(dir);
	/* cfg_profile_of() sets *p whenever it succeeds */
	return rc != 0 || !*p ? -1 : 0;
}

/* The absolute path of path (*abs, the caller's to free) and the profile
 * of its folder; -1 (printed, nothing to free) when either fails. */
static int
locate(struct cli_configs *c, const char *path, char **abs,
       struct cli_profile **p, struct chain **ch)
{
	*abs = cfg_abs_path(c->cwd, path);
	if (!*abs) {
		cfg_oom();
		return -1;
	}
	if (profile_above(c, *abs, p, ch)) {
		free(*abs);
		*abs = NULL;
		return -1;
	}
	return 0;
}

static int
filter_skip(void *ud, const char *path, const char *name, int is_dir)
{
	struct cli_configs *c = ud;
	struct cli_profile *p;
	struct chain *ch;
	char *abs;
	int skip = 0;

	if (locate(c, path, &abs, &p, &ch))
		return -1;
	if (p->respect_gitignore && c->gitignore) {
		skip = cli_gitignore_match(c->gitignore, path, name, is_dir);
		if (skip < 0) {
			cli_error("out of memory reading the .gitignore files");
			free(abs);
			return -1;
		}
	}
	if (!skip)
		skip = excluded(c, p, abs, name, is_dir);
	/* the folder's instance overlay is data, not a spec */
	if (!skip && !is_dir)
		skip = !(has_extension(p->extensions, name) ||
			 (!c->args->no_python &&
			  (!p->extensions || c->args->include_python) &&
			  is_python(name))) ||
		       (p->overlay && strcmp(p->overlay, abs) == 0);
	free(abs);
	return skip;
}

void
cli_configs_filter(struct cli_configs *c, struct cli_gitignore *g,
		   struct cli_walk_filter *out)
{
	c->gitignore = g;
	out->skip = filter_skip;
	out->ud = c;
}

/* 1 when abs is below the folder dir (both absolute). */
static int
is_below(const char *abs, const char *dir)
{
	size_t n = strlen(dir);

	return strcmp(dir, "/") == 0
		       ? abs[1] != '\0'
		       : strncmp(abs, dir, n) == 0 && abs[n] == '/';
}

/* See config.h: the entry and every folder above it below the stop. */
int
cli_configs_force_excluded(struct cli_configs *c, const char *path)
{
	struct cli_profile *p;
	struct chain *ch;
	struct stat st;
	const char *stop;
	char *abs;
	size_t end, sl;
	int rc, is_dir;

	if (strcmp(path, "-") == 0)
		return 0;
	if (locate(c, path, &abs, &p, &ch))
		return -1;
	/* the working folder itself (`check .`) is never excluded */
	if (!p->force_exclude || strcmp(abs, "/") == 0 ||
	    strcmp(abs, c->cwd) == 0) {
		free(abs);
		return 0;
	}
	/* ruff stops at the project root: here the working folder, or for a
	 * path outside it the nearest configuration's folder */
	if (is_below(abs, c->cwd))
		stop = c->cwd;
	else if (ch && is_below(abs, ch->file->dir))
		stop = ch->file->dir;
	else
		stop = NULL; /* the entry alone */
	sl = stop && strcmp(stop, "/") != 0 ? strlen(stop) : 0;
	is_dir = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
	end = strlen(abs);
	for (;;) {
		char *name;

		abs[end] = '\0';
		name = strrchr(abs, '/') + 1; /* abs is absolute */
		rc = profile_above(c, abs, &p, &ch)
			     ? -1
			     : excluded(c, p, abs, name, is_dir);
		if (rc || !stop)
			break;
		end = (size_t)(name - abs) - 1; /* the folder above */
		if (end <= sl)
			break;
		is_dir = 1;
	}
	free(abs);
	return rc;
}
