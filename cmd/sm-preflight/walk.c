/* walk.c - recursive directory walk for spec files, sorted, loop-safe */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "output.h"
#include "walk.h"

struct dir_id {
	dev_t dev;
	ino_t ino;
};

struct walk {
	char **paths;
	size_t count, cap;
	struct dir_id *seen;
	size_t seen_count, seen_cap;
	size_t *unreadable;
	int nomem;
};

static int
grow(void **items, size_t *cap, size_t need, size_t size)
{
	size_t ncap = *cap ? *cap : 16;
	void *p;

	if (need <= *cap)
		return 0;
	while (ncap < need)
		ncap *= 2;
	p = realloc(*items, ncap * size);
	if (!p)
		return -1;
	*items = p;
	*cap = ncap;
	return 0;
}

static int
has_spec_suffix(const char *name)
{
	static const char *const suffixes[] = {".yaml", ".yml", ".json"};
	size_t n = strlen(name), i;

	for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		size_t k = strlen(suffixes[i]);

		if (n > k && strcmp(name + n - k, suffixes[i]) == 0)
			return 1;
	}
	return 0;
}

static char *
join(const char *dir, const char *name)
{
	size_t dl = strlen(dir), size = dl + strlen(name) + 2;
	const char *sep = dl > 0 && dir[dl - 1] != '/' ? "/" : "";
	char *p = malloc(size);

	if (p)
		snprintf(p, size, "%s%s%s", dir, sep, name);
	return p;
}

static void
add_path(struct walk *w, char *path)
{
	if (!path || grow((void **)&w->paths, &w->cap, w->count + 1,
			  sizeof(*w->paths))) {
		free(path);
		w->nomem = 1;
		return;
	}
	w->paths[w->count++] = path;
}

/* Remembers a directory; returns 1 when it was visited before. */
static int
seen_before(struct walk *w, const struct stat *st)
{
	size_t i;

	for (i = 0; i < w->seen_count; i++)
		if (w->seen[i].dev == st->st_dev &&
		    w->seen[i].ino == st->st_ino)
			return 1;
	if (grow((void **)&w->seen, &w->seen_cap, w->seen_count + 1,
		 sizeof(*w->seen))) {
		w->nomem = 1;
		return 1;
	}
	w->seen[w->seen_count].dev = st->st_dev;
	w->seen[w->seen_count].ino = st->st_ino;
	w->seen_count++;
	return 0;
}

/*
 * The names in dir, hidden ones left out. The directory is closed before
 * the walk goes deeper, so deep trees do not use a descriptor per level.
 */
static int
list_dir(struct walk *w, const char *dir, char ***out, size_t *count)
{
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *d;

	*out = NULL;
	*count = 0;
	d = opendir(dir);
	if (!d)
		return -1;
	while ((de = readdir(d)) != NULL) {
		char *name;

		if (de->d_name[0] == '.')
			continue; /* hidden, and "." and ".." */
		name = strdup(de->d_name);
		if (!name ||
		    grow((void **)&names, &cap, n + 1, sizeof(*names))) {
			free(name);
			w->nomem = 1;
			break;
		}
		names[n++] = name;
	}
	closedir(d);
	*out = names;
	*count = n;
	return 0;
}

static void
walk_dir(struct walk *w, const char *dir, const struct stat *dst)
{
	char **names;
	size_t count, i;

	if (seen_before(w, dst))
		return;
	if (list_dir(w, dir, &names, &count) != 0) {
		cli_error("cannot read '%s': %s", dir, strerror(errno));
		(*w->unreadable)++;
		return;
	}
	for (i = 0; i < count && !w->nomem; i++) {
		char *path = join(dir, names[i]);
		struct stat st;

		if (!path) {
			w->nomem = 1;
		} else if (stat(path, &st) != 0) {
			/* a broken link named like a spec is reported by
			 * the check, as any unreadable file */
			if (has_spec_suffix(names[i]))
				add_path(w, path);
			else
				free(path);
		} else if (S_ISDIR(st.st_mode)) {
			walk_dir(w, path, &st);
			free(path);
		} else if (S_ISREG(st.st_mode) && has_spec_suffix(names[i])) {
			add_path(w, path);
		} else {
			free(path);
		}
	}
	for (i = 0; i < count; i++)
		free(names[i]);
	free(names);
}

static int
cmp_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * Collects first, then sorts, so that output order depends only on the
 * paths and never on readdir() order.
 */
int
cli_walk(const char *path, cli_walk_fn fn, void *ud, size_t *unreadable)
{
	struct walk w;
	struct stat st;
	size_t i;
	int rc = 0;

	if (strcmp(path, "-") == 0 || stat(path, &st) != 0 ||
	    !S_ISDIR(st.st_mode))
		return fn(ud, path);
	memset(&w, 0, sizeof(w));
	w.unreadable = unreadable;
	walk_dir(&w, path, &st);
	if (!w.nomem && w.count > 1)
		qsort(w.paths, w.count, sizeof(*w.paths), cmp_path);
	for (i = 0; i < w.count && !w.nomem && rc == 0; i++)
		rc = fn(ud, w.paths[i]);
	for (i = 0; i < w.count; i++)
		free(w.paths[i]);
	free(w.paths);
	free(w.seen);
	return w.nomem ? CLI_WALK_ENOMEM : rc;
}
