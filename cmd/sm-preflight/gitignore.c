/*
 * gitignore.c - what git ignores (see gitignore.h). Each folder's
 * .gitignore is read once (a hash table by real path); the chain of
 * folders from the repository's top level to the entry's folder is kept
 * for the last folder asked about, which is the next one's too in a walk.
 */
#define _XOPEN_SOURCE                                                          \
	700 /* realpath(), with _POSIX_C_SOURCE from the Makefile */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "gitignore.h"
#include "glob.h"
#include "readfile.h"

/* git's limit on a pattern file (dir.c, PATTERN_MAX_FILE_SIZE) */
#define GITIGNORE_MAX ((size_t)100 * 1024 * 1024)

/* One line of a gitignore file, parsed once. */
struct pat {
	char *text;  /* without '!', a leading '/' or a trailing '/' */
	size_t len;  /* of text */
	size_t next; /* the next index in its hash chain, or 0 */
	unsigned char negate, dir_only;
	unsigned char path;    /* matched against the relative path, else
				  against the name (it had a '/') */
	unsigned char literal; /* no wildcard: found by hashing alone */
	unsigned char live;    /* no later line is the same pattern */
};

/*
 * The patterns of one file, relative to dir. A later line of the same
 * pattern decides whatever an earlier one would, so only the last is
 * live; the literal ones are found through the hash table (the last
 * matching line is the one with the highest index), the others are
 * matched from the last down to the best literal match. Matching an
 * entry is then not a pass over every line of a huge file.
 */
struct plist {
	char *dir; /* real path of the folder they are relative to */
	struct pat *pats;
	size_t count, cap;
	size_t *heads; /* hash -> 1 + index of the chain's first line */
	size_t nheads;
	/* the live wildcard lines in order, by [path][first byte, or 256
	 * when that is a wildcard]: an entry is matched only against the
	 * lines that can match its first byte */
	struct bucket {
		size_t *idx;
		size_t n;
	} wild[2][257];
	size_t *wild_all; /* the storage of every bucket */
};

struct cli_gitignore {
	/* folder (real path) -> its .gitignore, open addressing */
	struct plist **table;
	size_t cap, used;
	/* the global excludes file and the current top's info/exclude */
	struct plist global, info;
	int global_read;
	char *top; /* the repository's top level, NULL outside one */
	/* the last folder asked about, as spelled and resolved, and the
	 * .gitignore lists from top down to it */
	char *parent, *real;
	struct plist **chain;
	size_t nchain, chain_cap;
	int nomem;
};

static void
plist_release(struct plist *l)
{
	size_t i;

	for (i = 0; i < l->count; i++)
		free(l->pats[i].text);
	free(l->pats);
	free(l->heads);
	free(l->wild_all);
	free(l->dir);
	memset(l, 0, sizeof(*l));
}

static size_t
hash_mem(const char *s, size_t n, int path, int dir_only)
{
	size_t h = 5381, i;

	for (i = 0; i < n; i++)
		h = h * 33 ^ (unsigned char)s[i];
	return h * 4 + (size_t)(path * 2 + dir_only);
}

/* The index of the last line that is this pattern, or SIZE_MAX. */
static size_t
find_pat(const struct plist *l, const char *s, size_t n, int path, int dir_only,
	 int literal_only)
{
	size_t i, best = SIZE_MAX;

	if (!l->nheads)
		return best;
	for (i = l->heads[hash_mem(s, n, path, dir_only) % l->nheads]; i;
	     i = l->pats[i - 1].next) {
		const struct pat *t = &l->pats[i - 1];

		if (t->len == n && t->path == path && t->dir_only == dir_only &&
		    (!literal_only || t->literal) &&
		    memcmp(t->text, s, n) == 0 &&
		    (best == SIZE_MAX || i - 1 > best))
			best = i - 1;
	}
	return best;
}

/* One line of a gitignore file into l (see gitignore(5)). */
static int
add_line(struct plist *l, char *line, size_t n)
{
	struct pat t;

	if (n && line[n - 1] == '\r')
		n--;
	/* trailing spaces go unless quoted with a backslash */
	while (n && line[n - 1] == ' ' && !(n > 1 && line[n - 2] == '\\'))
		n--;
	if (!n || line[0] == '#')
		return 0;
	memset(&t, 0, sizeof(t));
	if (line[0] == '!') {
		t.negate = 1;
		line++;
		n--;
	}
	if (n > 1 && line[n - 1] == '/') {
		t.dir_only = 1;
		n--;
	}
	if (!n)
		return 0;
	t.path = memchr(line, '/', n) != NULL;
	if (line[0] == '/') {
		line++;
		n--;
	}
	t.len = n;
	t.literal = !memchr(line, '*', n) && !memchr(line, '?', n) &&
		    !memchr(line, '[', n) && !memchr(line, '\\', n);
	t.text = strndup(line, n);
	if (!t.text)
		return -1;
	if (l->count == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		struct pat *grown = realloc(l->pats, cap * sizeof(*grown));

		if (!grown) {
			free(t.text);
			return -1;
		}
		l->pats = grown;
		l->cap = cap;
	}
	l->pats[l->count++] = t;
	return 0;
}

/* The bucket of a wildcard line: its first byte unless a wildcard. */
static unsigned
first_byte(const struct pat *t)
{
	unsigned char c = (unsigned char)t->text[0];

	return strchr("*?[\\", c) ? 256 : c;
}

/* The hash table and the live wildcard lines, once every line is in. */
static int
plist_index(struct plist *l)
{
	size_t i, h, at = 0;
	struct bucket *b;

	l->nheads = l->count * 2 + 1;
	l->heads = calloc(l->nheads, sizeof(*l->heads));
	l->wild_all = malloc((l->count + 1) * sizeof(*l->wild_all));
	if (!l->heads || !l->wild_all)
		return -1;
	/* from the last line up: the first of each pattern met is live */
	for (i = l->count; i-- > 0;) {
		struct pat *t = &l->pats[i];

		t->live = find_pat(l, t->text, t->len, t->path, t->dir_only,
				   0) == SIZE_MAX;
		h = hash_mem(t->text, t->len, t->path, t->dir_only) % l->nheads;
		t->next = l->heads[h];
		l->heads[h] = i + 1;
		if (t->live && !t->literal)
			l->wild[t->path][first_byte(t)].n++;
	}
	for (h = 0; h < (size_t)2 * 257; h++) {
		b = &l->wild[h / 257][h % 257];
		b->idx = l->wild_all + at;
		at += b->n;
		b->n = 0;
	}
	for (i = 0; i < l->count; i++)
		if (l->pats[i].live && !l->pats[i].literal) {
			b = &l->wild[l->pats[i].path][first_byte(&l->pats[i])];
			b->idx[b->n++] = i;
		}
	return 0;
}

/*
 * Reads the patterns of file (absent or unreadable: none) into l. git
 * reads pattern files of up to 100 MiB and warns that it ignores a larger
 * one (dir.c, PATTERN_MAX_FILE_SIZE): so does this, on stderr.
 */
static int
read_patterns(struct plist *l, const char *file)
{
	char *buf, *line, *nl;
	size_t len;
	const char *why;
	struct stat st;
	int rc = 0;

	if (stat(file, &st) == 0 && S_ISREG(st.st_mode) &&
	    (size_t)st.st_size > GITIGNORE_MAX) {
		fprintf(stderr,
			"sm-preflight: warning: ignoring '%s': larger than "
			"100 MiB, as git ignores it\n",
			file);
		return plist_index(l);
	}
	if (cli_read_regular(file, GITIGNORE_MAX, &buf, &len, &why) !=
	    CLI_READ_OK)
		return errno == ENOMEM ? -1 : plist_index(l);
	for (line = buf; rc == 0 && line < buf + len; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(buf + len - line));
		if (!nl)
			nl = buf + len;
		rc = add_line(l, line, (size_t)(nl - line));
	}
	free(buf);
	return rc ? rc : plist_index(l);
}

static size_t
hash_str(const char *s)
{
	size_t h = 5381;

	while (*s)
		h = h * 33 ^ (unsigned char)*s++;
	return h;
}

/* The .gitignore list of the folder dir (real path), read once. */
static struct plist *
dir_list(struct cli_gitignore *g, const char *dir)
{
	struct plist *l;
	size_t i, mask;
	char *file;

	if (g->used * 2 >= g->cap) {
		size_t ncap = g->cap ? g->cap * 2 : 64, k;
		/* NOLINTNEXTLINE(bugprone-sizeof-expression): pointers */
		struct plist **n = calloc(ncap, sizeof(*n));

		if (!n)
			return NULL;
		for (k = 0; k < g->cap; k++) {
			if (!g->table[k])
				continue;
			for (i = hash_str(g->table[k]->dir) & (ncap - 1); n[i];
			     i = (i + 1) & (ncap - 1))
				;
			n[i] = g->table[k];
		}
		free(g->table);
		g->table = n;
		g->cap = ncap;
	}
	mask = g->cap - 1;
	for (i = hash_str(dir) & mask; g->table[i]; i = (i + 1) & mask)
		if (strcmp(g->table[i]->dir, dir) == 0)
			return g->table[i];
	l = calloc(1, sizeof(*l));
	file = cli_path_join(dir, ".gitignore");
	if (!l || !file || !(l->dir = strdup(dir)) ||
	    read_patterns(l, file) != 0) {
		free(file);
		if (l)
			plist_release(l);
		free(l);
		return NULL;
	}
	free(file);
	g->table[i] = l;
	g->used++;
	return l;
}

/* 1 when dir/.git exists (a folder, or a worktree's file). */
static int
has_git(const char *dir)
{
	char *p = cli_path_join(dir, ".git");
	struct stat st;
	int yes = p && stat(p, &st) == 0;

	free(p);
	return yes;
}

/*
 * The folder holding the repository's data, from top/.git: the folder
 * itself, or where a worktree's ".git" file points (its "gitdir: X"),
 * then that folder's "commondir" when it has one.
 */
static char *
git_dir(const char *top)
{
	char *dot = cli_path_join(top, ".git"), *buf = NULL, *dir, *common, *c;
	const char *why;
	struct stat st;
	size_t len;

	if (!dot || stat(dot, &st) != 0 || S_ISDIR(st.st_mode))
		return dot;
	if (cli_read_regular(dot, 4096, &buf, &len, &why) != CLI_READ_OK ||
	    strncmp(buf, "gitdir: ", 8) != 0) {
		free(buf);
		return dot;
	}
	free(dot);
	buf[strcspn(buf, "\r\n")] = '\0';
	dir = buf[8] == '/' ? strdup(buf + 8) : cli_path_join(top, buf + 8);
	free(buf);
	common = dir ? cli_path_join(dir, "commondir") : NULL;
	if (common &&
	    cli_read_regular(common, 4096, &buf, &len, &why) == CLI_READ_OK) {
		buf[strcspn(buf, "\r\n")] = '\0';
		c = buf[0] == '/' ? strdup(buf) : cli_path_join(dir, buf);
		free(buf);
		if (c) {
			free(dir);
			dir = c;
		}
	}
	free(common);
	return dir;
}

/* ~/x with $HOME, as git expands core.excludesFile. */
static char *
expand_home(const char *v)
{
	const char *home = getenv("HOME");

	if (v[0] == '~' && v[1] == '/' && home && *home)
		return cli_path_join(home, v + 2);
	return strdup(v);
}

/* core.excludesFile from ~/.gitconfig ([core] excludesfile = X). */
static char *
config_excludes_file(void)
{
	const char *home = getenv("HOME"), *why;
	char *cfg, *buf, *line, *nl, *found = NULL;
	size_t len;
	int in_core = 0;

	if (!home || !*home)
		return NULL;
	cfg = cli_path_join(home, ".gitconfig");
	if (!cfg || cli_read_regular(cfg, CLI_READ_MAX, &buf, &len, &why) !=
			    CLI_READ_OK) {
		free(cfg);
		return NULL;
	}
	free(cfg);
	for (line = buf; line < buf + len && !found; line = nl + 1) {
		char *s, *e;

		nl = memchr(line, '\n', (size_t)(buf + len - line));
		if (!nl)
			nl = buf + len;
		*nl = '\0';
		for (s = line; *s == ' ' || *s == '\t'; s++)
			;
		if (*s == '[') {
			in_core = strncmp(s, "[core]", 6) == 0;
			continue;
		}
		if (!in_core || strncasecmp(s, "excludesfile", 12) != 0)
			continue;
		s += 12;
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s++ != '=')
			continue;
		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '"')
			s++;
		e = s + strlen(s);
		while (e > s && (e[-1] == ' ' || e[-1] == '\t' ||
				 e[-1] == '\r' || e[-1] == '"'))
			e--;
		*e = '\0';
		if (*s)
			found = expand_home(s);
	}
	free(buf);
	return found;
}

/* The global excludes file's patterns (read once). */
static int
read_global(struct cli_gitignore *g)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	char *file = config_excludes_file(), *base;
	int rc = 0;

	g->global_read = 1;
	if (!file && xdg && *xdg)
		file = cli_path_join(xdg, "git/ignore");
	else if (!file && home && *home) {
		base = cli_path_join(home, ".config");
		file = base ? cli_path_join(base, "git/ignore") : NULL;
		free(base);
	}
	if (file)
		rc = read_patterns(&g->global, file);
	free(file);
	return rc;
}

/* The repository top level above real (inclusive), or NULL. */
static char *
find_top(const char *real)
{
	char *p = strdup(real), *slash;

	while (p) {
		if (has_git(p))
			return p;
		slash = strrchr(p, '/');
		if (!slash || slash == p) {
			free(p);
			return NULL;
		}
		*slash = '\0';
	}
	return NULL;
}

/* Resolves the folder parent (as spelled) into g's chain. */
static int
set_parent(struct cli_gitignore *g, const char *parent)
{
	char *real, *top, *p;
	size_t tl;

	if (g->parent && strcmp(g->parent, parent) == 0)
		return 0;
	free(g->parent);
	free(g->real);
	g->parent = strdup(parent);
	g->real = real = realpath(parent, NULL);
	g->nchain = 0;
	if (!g->parent)
		return -1;
	if (!real)
		return errno == ENOMEM ? -1 : 0;
	if (!g->global_read && read_global(g))
		return -1;
	top = find_top(real);
	if (!top || !g->top || strcmp(top, g->top) != 0) {
		char *gd = top ? git_dir(top) : NULL, *ex;

		plist_release(&g->info);
		free(g->top);
		g->top = top;
		ex = gd ? cli_path_join(gd, "info/exclude") : NULL;
		if (ex && read_patterns(&g->info, ex)) {
			free(gd);
			free(ex);
			return -1;
		}
		free(gd);
		free(ex);
	} else {
		free(top);
	}
	if (!g->top)
		return 0;
	/* the folders from top down to real, each with its .gitignore */
	tl = strlen(g->top);
	for (p = real + tl;; p = strchr(p + 1, '/')) {
		char saved = '\0';
		struct plist *l, **grown;

		if (p) {
			saved = *p;
			*p = '\0';
		}
		l = dir_list(g, real);
		if (p)
			*p = saved;
		if (!l)
			return -1;
		if (g->nchain == g->chain_cap) {
			size_t n = g->chain_cap ? g->chain_cap * 2 : 16;

			/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
			grown = realloc(g->chain, n * sizeof(*grown));
			if (!grown)
				return -1;
			g->chain = grown;
			g->chain_cap = n;
		}
		g->chain[g->nchain++] = l;
		if (!p || !*p)
			break;
	}
	return 0;
}

/*
 * The last wildcard line of l that matches the entry, or SIZE_MAX: the
 * four buckets that can (name or path, its first byte or a wildcard)
 * merged from their last lines down, stopping at the first match or
 * below `below` (a literal line that matched, or SIZE_MAX).
 */
static size_t
last_wild(const struct plist *l, const char *name, const char *rel, int is_dir,
	  size_t below)
{
	const struct bucket *b[4] = {
		&l->wild[0][(unsigned char)name[0]], &l->wild[0][256],
		&l->wild[1][(unsigned char)rel[0]], &l->wild[1][256]};
	size_t left[4], i, top = 0;
	int k, pick;

	for (k = 0; k < 4; k++)
		left[k] = b[k]->n;
	for (;;) {
		pick = -1;
		for (k = 0; k < 4; k++)
			if (left[k] &&
			    (pick < 0 || b[k]->idx[left[k] - 1] > top))
				top = b[pick = k]->idx[left[k] - 1];
		if (pick < 0 || (below != SIZE_MAX && top < below))
			return SIZE_MAX;
		i = b[pick]->idx[--left[pick]];
		if ((!l->pats[i].dir_only || is_dir) &&
		    cli_glob_match(l->pats[i].text, l->pats[i].len,
				   l->pats[i].path ? rel : name))
			return i;
	}
}

/* The verdict of l on the entry at abs: 1 ignore, 0 include, -1 none. */
static int
verdict(const struct plist *l, const char *base, const char *abs,
	const char *name, int is_dir)
{
	size_t bl = strlen(base), nl = strlen(name), rl, k, best;
	const char *rel;

	if (!l->count)
		return -1;
	if (strcmp(base, "/") == 0)
		rel = abs + 1;
	else if (strncmp(abs, base, bl) == 0 && abs[bl] == '/')
		rel = abs + bl + 1;
	else
		return -1;
	rl = strlen(rel);
	/* the last literal line that names the entry */
	best = find_pat(l, name, nl, 0, 0, 1);
	k = find_pat(l, rel, rl, 1, 0, 1);
	if (k != SIZE_MAX && (best == SIZE_MAX || k > best))
		best = k;
	if (is_dir) {
		k = find_pat(l, name, nl, 0, 1, 1);
		if (k != SIZE_MAX && (best == SIZE_MAX || k > best))
			best = k;
		k = find_pat(l, rel, rl, 1, 1, 1);
		if (k != SIZE_MAX && (best == SIZE_MAX || k > best))
			best = k;
	}
	/* a later wildcard line that matches wins over it */
	k = last_wild(l, name, rel, is_dir, best);
	if (k != SIZE_MAX && (best == SIZE_MAX || k > best))
		best = k;
	return best == SIZE_MAX ? -1 : !l->pats[best].negate;
}

/*
 * 1 when git ignores the walked entry at path (as the walk spells it; its
 * folder must exist), 0 when not, -1 when out of memory.
 */
int
cli_gitignore_match(struct cli_gitignore *g, const char *path, const char *name,
		    int is_dir)
{
	const char *slash = strrchr(path, '/');
	char *parent, *abs;
	size_t i;
	int v = 0, k;

	if (!g)
		return 0;
	parent = slash ? strndup(path,
				 slash == path ? 1 : (size_t)(slash - path))
		       : strdup(".");
	if (!parent || set_parent(g, parent)) {
		free(parent);
		return -1;
	}
	free(parent);
	if (!g->top || !g->real)
		return 0;
	abs = cli_path_join(g->real, name);
	if (!abs)
		return -1;
	/* lowest precedence first: the last verdict stands */
	k = verdict(&g->global, g->top, abs, name, is_dir);
	if (k >= 0)
		v = k;
	k = verdict(&g->info, g->top, abs, name, is_dir);
	if (k >= 0)
		v = k;
	for (i = 0; i < g->nchain; i++) {
		k = verdict(g->chain[i], g->chain[i]->dir, abs, name, is_dir);
		if (k >= 0)
			v = k;
	}
	free(abs);
	return v;
}

struct cli_gitignore *
cli_gitignore_new(void)
{
	return calloc(1, sizeof(struct cli_gitignore));
}

void
cli_gitignore_free(struct cli_gitignore *g)
{
	size_t i;

	if (!g)
		return;
	for (i = 0; i < g->cap; i++)
		if (g->table[i]) {
			plist_release(g->table[i]);
			free(g->table[i]);
		}
	free(g->table);
	plist_release(&g->global);
	plist_release(&g->info);
	free(g->top);
	free(g->parent);
	free(g->real);
	free(g->chain);
	free(g);
}
