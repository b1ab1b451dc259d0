/*
 * script.c - the entry script of a job: where it lies, reading it (a
 * regular file, within the size limit) and scanning it for its facts
 * (facts.c). A script that cannot be read is a status, not an error.
 */
#define _XOPEN_SOURCE                                                          \
	700 /* realpath(), with _POSIX_C_SOURCE from the Makefile */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "script/script.h"
#include "util/read_file.h"

static int
is_remote(const char *s)
{
	return strstr(s, "://") != NULL;
}

/* Appends one path component (without "./" prefixes or trailing '/'). */
static int
join(char *out, size_t n, size_t *len, const char *part)
{
	size_t k;

	while (part[0] == '.' && part[1] == '/') {
		part += 2;
		while (*part == '/')
			part++;
	}
	if (!*part || strcmp(part, ".") == 0)
		return 0;
	k = strlen(part);
	while (k > 1 && part[k - 1] == '/')
		k--;
	if (*len > 0 && out[*len - 1] != '/') {
		if (*len + 2 > n)
			return -1;
		out[(*len)++] = '/';
	}
	if (*len + k + 1 > n)
		return -1;
	memcpy(out + *len, part, k);
	*len += k;
	out[*len] = '\0';
	return 0;
}

int
smp__script_path(char *out, size_t n, const char *base_dir,
		 const char *source_dir, const char *name)
{
	size_t len = 0;

	if (n == 0)
		return -1;
	out[0] = '\0';
	if ((source_dir && is_remote(source_dir)) || is_remote(name))
		return 2;
	if (name[0] == '/' || (source_dir && source_dir[0] == '/'))
		return 1;
	if ((base_dir && join(out, n, &len, base_dir)) ||
	    (source_dir && join(out, n, &len, source_dir)) ||
	    join(out, n, &len, name))
		return -1;
	return 0;
}

/* 1 when the resolved path p lies in the resolved folder root. */
static int
within(const char *p, const char *root)
{
	size_t n = strlen(root);

	if (strcmp(root, "/") == 0)
		return 1;
	return strncmp(p, root, n) == 0 && (p[n] == '/' || p[n] == '\0');
}

/*
 * Where a script may be read from: the repository root above base_dir
 * (the nearest folder holding .git), else base_dir itself, resolved.
 * *repo is 1 for a repository root. -1 when base_dir does not resolve.
 */
static int
confinement(char *root, const char *base_dir, int *repo)
{
	char probe[PATH_MAX + 8];
	struct stat st;
	size_t n;

	if (!realpath(base_dir, root))
		return -1;
	n = strlen(root);
	*repo = 0;
	for (;;) {
		if (n + sizeof("/.git") <= sizeof(probe)) {
			memcpy(probe, root, n);
			memcpy(probe + (n == 1 ? 0 : n), "/.git",
			       sizeof("/.git"));
			if (stat(probe, &st) == 0) {
				root[n] = '\0';
				*repo = 1;
				return 0;
			}
		}
		if (n <= 1)
			break;
		while (n > 1 && root[n - 1] != '/')
			n--;
		if (n > 1)
			n--; /* the '/' before the last component */
		root[n] = '\0';
	}
	/* no repository: the spec's own folder */
	return realpath(base_dir, root) ? 0 : -1;
}

/*
 * A relative script path that resolves (through "..", symlinks) outside
 * the spec's folder, or the repository when there is one, is refused
 * like an absolute path: the spec must not make us read /etc/passwd or
 * /proc/self/environ and print a line of it as an excerpt. Returns 1 and
 * s->reason when path is refused so; 0 when it may be read (or does not
 * resolve: the caller reports it missing); SMP_ENOMEM.
 */
static int
refuse_outside(struct smp_script_facts *s, const char *path,
	       const char *base_dir)
{
	char real[PATH_MAX], root[PATH_MAX];
	int repo;

	if (!realpath(path, real) || confinement(root, base_dir, &repo))
		return 0;
	if (within(real, root))
		return 0;
	(void)repo; /* one wording, whether or not there is one */
	s->reason = "resolves outside the spec's folder and its repository";
	return 1;
}

void
smp__script_init(struct smp_script_facts *s, const struct smp_allocator *a)
{
	memset(s, 0, sizeof(*s));
	s->alloc = a;
	smp__arena_init(&s->arena, a);
}

void
smp__script_release(struct smp_script_facts *s)
{
	if (!s->alloc)
		return;
	smp__free(s->alloc, s->buf);
	smp__arena_release(&s->arena);
	memset(s, 0, sizeof(*s));
}

/* path without its "./" steps at the start */
static const char *
plain(const char *path)
{
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	return path;
}

/*
 * The script at path is not on disk: when the checked source defined it
 * (the last definition wins), that text is scanned instead.
 */
static int
defined_file(struct smp_script_facts *s, const struct smp_script_where *w,
	     const char *base_dir, const char *path)
{
	const struct smp_script_file *f = NULL;
	char other[4096];
	size_t k;
	int rc;

	for (k = 0; k < w->nfiles; k++)
		if (smp__script_path(other, sizeof(other), base_dir, NULL,
				     w->files[k].path) == 0 &&
		    strcmp(plain(other), plain(path)) == 0)
			f = &w->files[k];
	if (!f)
		return 0;
	s->buf = smp__malloc(s->alloc, f->len + 1);
	if (!s->buf)
		return SMP_ENOMEM;
	memcpy(s->buf, f->text, f->len);
	s->buf[f->len] = '\0';
	s->len = f->len;
	s->path = f->shown_as;
	rc = smp__pyscan_run(&s->scan, &s->arena, s->buf, s->len);
	if (rc == 0)
		rc = smp__script_analyze(s);
	if (rc)
		return rc;
	s->status = SMP_SCRIPT_SCANNED;
	s->reason = NULL;
	return 0;
}

int
smp__script_load(struct smp_script_facts *s, const struct smp_script_where *w,
		 const char *base_dir, size_t max_size)
{
	const struct smp_node *node = w->entry_point;
	const char *name, *src = NULL;
	char path[4096];
	struct smp_error err = {0};
	struct stat st;
	int r, rc;

	if (!base_dir)
		return 0;
	if (w->launcher_script && w->launcher_script->kind == SMP_NODE_SCALAR &&
	    smp__scalar_type(w->launcher_script) == SMP_SCALAR_STRING) {
		node = w->launcher_script;
		s->launcher = 1;
	}
	name = node ? smp__node_text(node) : NULL;
	if (!name || !*name)
		return 0;
	if (w->source_dir)
		src = smp__node_text(w->source_dir);
	if (w->in_git)
		return 0; /* source_dir is inside a git repository */
	r = smp__script_path(path, sizeof(path), base_dir, src, name);
	if (r == 2)
		return 0;
	s->node = node;
	if (r == 1) {
		s->status = SMP_SCRIPT_NOT_LOCAL;
		s->path = name;
		return 0;
	}
	s->status = SMP_SCRIPT_MISSING;
	if (r < 0) {
		s->path = name;
		s->reason = "has a path too long to read";
		return 0;
	}
	if (refuse_outside(s, path, base_dir)) {
		s->status = SMP_SCRIPT_NOT_LOCAL;
		s->path = name;
		return 0;
	}
	s->path = smp__arena_strndup(&s->arena, path, strlen(path));
	if (!s->path)
		return SMP_ENOMEM;
	if (stat(path, &st) != 0) {
		int e = errno;
		char why[128];

		if (e == ENOENT || e == ENOTDIR) {
			s->reason = "was not found";
			return defined_file(s, w, base_dir, path);
		}
		if (strerror_r(e, why, sizeof(why)) != 0) /* thread-safe */
			snprintf(why, sizeof(why), "error %d", e);
		s->reason = smp__arena_printf(&s->arena, "cannot be read (%s)",
					      why);
		return s->reason ? 0 : SMP_ENOMEM;
	}
	if (!S_ISREG(st.st_mode)) {
		s->reason = "is not a regular file";
		return 0;
	}
	if ((unsigned long long)st.st_size > (unsigned long long)max_size) {
		s->reason = smp__arena_printf(&s->arena,
					      "is larger than the limit of %zu "
					      "bytes",
					      max_size);
		return s->reason ? 0 : SMP_ENOMEM;
	}
	rc = smp__read_file(&s->buf, &s->len, s->alloc, path, max_size, &err);
	if (rc == SMP_ENOMEM)
		return rc;
	if (rc) {
		s->reason = smp__arena_printf(&s->arena, "cannot be read (%s)",
					      err.message);
		return s->reason ? 0 : SMP_ENOMEM;
	}
	rc = smp__pyscan_run(&s->scan, &s->arena, s->buf, s->len);
	if (rc == 0)
		rc = smp__script_analyze(s);
	if (rc)
		return rc;
	s->status = SMP_SCRIPT_SCANNED;
	s->reason = NULL;
	return 0;
}
