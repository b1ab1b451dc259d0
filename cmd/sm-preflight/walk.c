/* walk.c - recursive directory walk for spec files, sorted, loop-safe */
#define _XOPEN_SOURCE                                                          \
	700 /* realpath(), with _POSIX_C_SOURCE from the Makefile */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
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
	struct cli_walk_list *list;
	const struct cli_walk_filter *filter;
	/* directories entered, by device and inode: an open-addressing
	 * set, so that a large tree costs no quadratic search */
	struct dir_id *seen;
	size_t seen_count, seen_cap;
	size_t revisits; /* folders met again (a link, or named twice) */
	size_t outside;  /* symbolic links out of the walked folder */
	/* the folder being walked, resolved: no symbolic link is followed
	 * out of it (NULL while adding the paths named on the command line) */
	char *root;
	size_t root_len;
	int nomem;
	int stopped;
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

int
cli_walk_default_suffix(const char *name)
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

/* See walk.h. */
char *
cli_path_join(const char *dir, const char *name)
{
	size_t dl = strcmp(dir, ".") == 0 ? 0 : strlen(dir), nl = strlen(name);
	size_t sl = dl > 0 && dir[dl - 1] != '/' ? 1 : 0;
	char *p = malloc(dl + sl + nl + 1);

	if (p) {
		memcpy(p, dir, dl + 1);
		if (sl)
			p[dl] = '/';
		memcpy(p + dl + sl, name, nl + 1);
	}
	return p;
}

/* Takes path; with why (errno), as an entry that could not be walked. */
static void
add_entry(struct walk *w, char *path, int why)
{
	struct cli_walk_list *l = w->list;
	size_t cap = l->cap;
	char *err = why ? strdup(strerror(why)) : NULL;

	size_t wcap = l->cap;

	if (!path || (why && !err) ||
	    grow((void **)&l->paths, &cap, l->count + 1, sizeof(*l->paths)) ||
	    grow((void **)&l->walked, &wcap, l->count + 1, 1) ||
	    grow((void **)&l->errors, &l->cap, l->count + 1,
		 sizeof(*l->errors))) {
		free(path);
		free(err);
		w->nomem = 1;
		return;
	}
	l->paths[l->count] = path;
	l->walked[l->count] = (unsigned char)(w->root != NULL);
	l->errors[l->count++] = err;
}

static void
add_path(struct walk *w, char *path)
{
	add_entry(w, path, 0);
}

static size_t
hash_id(const struct stat *st)
{
	unsigned long long h =
		(unsigned long long)st->st_ino * 0x9E3779B97F4A7C15ull;

	return (size_t)(h ^ ((unsigned long long)st->st_dev << 7) ^ (h >> 29));
}

/* Remembers a directory; returns 1 when it was visited before. */
static int
seen_before(struct walk *w, const struct stat *st)
{
	size_t i, mask;

	if (w->seen_count * 2 >= w->seen_cap) {
		size_t ncap = w->seen_cap ? w->seen_cap * 2 : 64, k;
		struct dir_id *n = calloc(ncap, sizeof(*n));

		if (!n) {
			w->nomem = 1;
			return 1;
		}
		/* inode 0 marks an empty slot; no directory has it */
		for (k = 0; k < w->seen_cap; k++) {
			struct stat tmp;

			if (!w->seen[k].ino)
				continue;
			tmp.st_dev = w->seen[k].dev;
			tmp.st_ino = w->seen[k].ino;
			for (i = hash_id(&tmp) & (ncap - 1); n[i].ino;
			     i = (i + 1) & (ncap - 1))
				;
			n[i] = w->seen[k];
		}
		free(w->seen);
		w->seen = n;
		w->seen_cap = ncap;
	}
	mask = w->seen_cap - 1;
	for (i = hash_id(st) & mask; w->seen[i].ino; i = (i + 1) & mask)
		if (w->seen[i].dev == st->st_dev &&
		    w->seen[i].ino == st->st_ino)
			return 1;
	w->seen[i].dev = st->st_dev;
	w->seen[i].ino = st->st_ino ? st->st_ino : 1;
	w->seen_count++;
	return 0;
}

static int
cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
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
	/* sorted, so that which of two paths to one directory is walked
	 * (the first) never depends on readdir() order */
	if (n > 1)
		qsort(names, n, sizeof(*names), cmp_name);
	*out = names;
	*count = n;
	return 0;
}

/*
 * 1 for the folders a walk never enters, like ruff's default excludes:
 * __pycache__, __pypackages__, _build, buck-out, build, dist,
 * node_modules, site-packages, venv (hidden ones such as .git, .venv,
 * .tox and .ipynb_checkpoints are skipped as hidden).
 */
int
cli_walk_default_exclude(const char *name)
{
	/* ruff's default excludes that are not hidden (hidden entries are
	 * skipped anyway), and Python's byte-code caches */
	static const char *const names[] = {
		"__pycache__",  "__pypackages__", "_build",
		"buck-out",     "build",          "dist",
		"node_modules", "site-packages",  "venv",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i]) == 0)
			return 1;
	return 0;
}

/*
 * 1 when the symbolic link path leads out of the folder being walked
 * (a secret such as /proc/self/environ, /etc/passwd, or / itself): it is
 * skipped, as if it were not there. A link that resolves to nothing is
 * kept (0): what it names cannot be read, and the check says so.
 */
static int
leads_out(struct walk *w, const char *path)
{
	char *real = realpath(path, NULL);
	int out;

	if (!real)
		return errno == ENOMEM ? (w->nomem = 1) : 0;
	out = !(strncmp(real, w->root, w->root_len) == 0 &&
		(real[w->root_len] == '/' || real[w->root_len] == '\0' ||
		 w->root_len == 1));
	free(real);
	return out;
}

/* 1 to skip: the filter's word, or the default excludes and suffixes. */
static int
skip(struct walk *w, const char *path, const char *name, int is_dir)
{
	int k;

	if (!w->filter)
		return is_dir ? cli_walk_default_exclude(name)
			      : !cli_walk_default_suffix(name);
	k = w->filter->skip(w->filter->ud, path, name, is_dir);
	if (k < 0)
		w->stopped = 1;
	return k != 0;
}

static void
walk_dir(struct walk *w, const char *dir, const struct stat *dst)
{
	char **names;
	size_t count, i;

	if (seen_before(w, dst)) {
		w->revisits++;
		return;
	}
	if (list_dir(w, dir, &names, &count) != 0) {
		add_entry(w, strdup(dir), errno ? errno : EIO);
		return;
	}
	for (i = 0; i < count && !w->nomem && !w->stopped; i++) {
		char *path = cli_path_join(dir, names[i]);
		struct stat st;
		int e;

		if (!path) {
			w->nomem = 1;
		} else if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode) &&
			   leads_out(w, path)) {
			w->outside++;
			free(path);
		} else if (stat(path, &st) != 0) {
			e = errno;
			if (e == EACCES) {
				/* no search permission on dir: its entries
				 * cannot be looked at; say so once */
				free(path);
				add_entry(w, strdup(dir), e);
				break;
			}
			/* a broken link named like a spec is reported by
			 * the check, as any unreadable file; an entry that
			 * cannot be stat()ed (a path longer than PATH_MAX)
			 * is reported unless a folder of that name would be
			 * skipped */
			if (e == ENOENT || e == ELOOP || e == ENOTDIR) {
				if (!skip(w, path, names[i], 0))
					add_path(w, path);
				else
					free(path);
			} else if (!skip(w, path, names[i], 1)) {
				add_entry(w, path, e);
			} else {
				free(path);
			}
		} else if (S_ISDIR(st.st_mode)) {
			if (!skip(w, path, names[i], 1))
				walk_dir(w, path, &st);
			free(path);
		} else if (S_ISREG(st.st_mode) && !skip(w, path, names[i], 0)) {
			add_path(w, path);
		} else {
			free(path);
		}
	}
	for (i = 0; i < count; i++)
		free(names[i]);
	free(names);
}

/* Sorting: "-" as its display name. */
static const char *sort_stdin_name;

static const char *
sort_name(const char *p)
{
	return strcmp(p, "-") == 0 && sort_stdin_name ? sort_stdin_name : p;
}

/* A path and its walk error, sorted together. */
struct entry {
	char *path;
	char *error;
	unsigned char walked;
};

static int
cmp_entry(const void *a, const void *b)
{
	return strcmp(sort_name(((const struct entry *)a)->path),
		      sort_name(((const struct entry *)b)->path));
}

/* Sorts the list by sort name (stable pairs of path and error). */
static int
sort_list(struct cli_walk_list *l, const char *stdin_name)
{
	struct entry *e;
	size_t i;

	if (l->count < 2)
		return 0;
	e = malloc(l->count * sizeof(*e));
	if (!e)
		return -1;
	for (i = 0; i < l->count; i++) {
		e[i].path = l->paths[i];
		e[i].error = l->errors[i];
		e[i].walked = l->walked[i];
	}
	/* qsort has no context argument: the name of "-" is passed in a
	 * file-scope variable, set and cleared around the one call */
	sort_stdin_name = stdin_name;
	qsort(e, l->count, sizeof(*e), cmp_entry);
	sort_stdin_name = NULL;
	for (i = 0; i < l->count; i++) {
		l->paths[i] = e[i].path;
		l->errors[i] = e[i].error;
		l->walked[i] = e[i].walked;
	}
	free(e);
	return 0;
}

/* Remembers a walked input that held nothing (room for every input). */
static int
note_empty(struct cli_walk_list *out, const char *input, size_t inputs)
{
	if (!out->empty) {
		/* NOLINTNEXTLINE(bugprone-sizeof-expression): pointers */
		out->empty = calloc(inputs, sizeof(*out->empty));
		if (!out->empty)
			return -1;
	}
	out->empty[out->empty_count++] = input;
	return 0;
}

int
cli_walk_collect(struct cli_walk_list *out, const char *const *inputs, size_t n,
		 const struct cli_walk_filter *filter, const char *stdin_name)
{
	struct walk w;
	size_t i, k;

	memset(out, 0, sizeof(*out));
	memset(&w, 0, sizeof(w));
	w.list = out;
	w.filter = filter;
	for (i = 0; i < n && !w.nomem && !w.stopped; i++) {
		struct stat st;

		if (strcmp(inputs[i], "-") == 0 || stat(inputs[i], &st) != 0 ||
		    !S_ISDIR(st.st_mode))
			add_path(&w, strdup(inputs[i]));
		else {
			size_t before = out->count, revisits = w.revisits;

			w.root = realpath(inputs[i], NULL);
			if (!w.root) {
				add_entry(&w, strdup(inputs[i]),
					  errno ? errno : EIO);
				continue;
			}
			w.root_len = strlen(w.root);
			/* a folder walked before (named twice, or inside
			 * another input) is not empty */
			walk_dir(&w, inputs[i], &st);
			free(w.root);
			w.root = NULL;
			if (out->count == before && w.revisits == revisits &&
			    !w.nomem && !w.stopped &&
			    note_empty(out, inputs[i], n))
				w.nomem = 1;
		}
	}
	free(w.seen);
	out->outside = w.outside;
	if (w.nomem)
		return CLI_WALK_ENOMEM;
	if (w.stopped)
		return -1;
	if (sort_list(out, stdin_name))
		return CLI_WALK_ENOMEM;
	for (i = k = 0; i < out->count; i++) {
		if (k && strcmp(out->paths[k - 1], out->paths[i]) == 0) {
			/* named and found by a walk: named */
			out->walked[k - 1] =
				(unsigned char)(out->walked[k - 1] &
						out->walked[i]);
			free(out->paths[i]);
			free(out->errors[i]);
		} else {
			out->errors[k] = out->errors[i];
			out->walked[k] = out->walked[i];
			out->paths[k++] = out->paths[i];
		}
	}
	out->count = k;
	return 0;
}

void
cli_walk_list_free(struct cli_walk_list *list)
{
	size_t i;

	if (!list)
		return;
	for (i = 0; i < list->count; i++) {
		free(list->paths[i]);
		free(list->errors[i]);
	}
	free(list->paths);
	free(list->errors);
	free(list->walked);
	free(list->empty);
	memset(list, 0, sizeof(*list));
}
