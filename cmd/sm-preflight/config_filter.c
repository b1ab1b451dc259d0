/*
 * config_filter.c - the walk filter: a folder's configuration says which
 * entries to skip (`ignore:` globs, matched by glob.c) and which file
 * extensions are specs.
 */
#include <stdlib.h>
#include <string.h>

#include "config_priv.h"
#include "glob.h"

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

static int
filter_skip(void *ud, const char *path, const char *name, int is_dir)
{
	struct cli_configs *c = ud;
	struct cli_profile *p;
	struct chain *ch = NULL;
	char *abs = cfg_abs_path(c->cwd, path), *dir;
	size_t i;
	int skip = 0;

	dir = abs ? cfg_parent_of(abs) : NULL;
	if (!dir || cfg_chain_of_dir(c, dir, &ch) ||
	    cfg_profile_of(c, ch, &p)) {
		free(abs);
		free(dir);
		return -1;
	}
	/* --extend-exclude: relative to the working folder */
	for (i = 0; i < c->args->extend_exclude_count && !skip; i++) {
		size_t cl = strlen(c->cwd);

		if (strncmp(abs, c->cwd, cl) == 0 && abs[cl] == '/')
			skip = cli_ignore_match(c->args->extend_exclude[i],
						abs + cl + 1, name, is_dir);
	}
	for (i = 0; i < p->ignore_count && !skip; i++) {
		const char *base = p->ignores[i].base;
		size_t bl = strlen(base);
		const char *rel;

		if (strcmp(base, "/") == 0)
			rel = abs + 1;
		else if (strncmp(abs, base, bl) == 0 && abs[bl] == '/')
			rel = abs + bl + 1;
		else
			continue;
		skip = cli_ignore_match(p->ignores[i].pattern, rel, name,
					is_dir);
	}
	/* the folder's instance overlay is data, not a spec */
	if (!skip && !is_dir)
		skip = !(has_extension(p->extensions, name) ||
			 (!c->args->no_python &&
			  (!p->extensions || c->args->include_python) &&
			  is_python(name))) ||
		       (p->overlay && strcmp(p->overlay, abs) == 0);
	free(abs);
	free(dir);
	return skip;
}

void
cli_configs_filter(struct cli_configs *c, struct cli_walk_filter *out)
{
	out->skip = filter_skip;
	out->ud = c;
}
