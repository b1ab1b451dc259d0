/*
 * script.c - the entry script of a job: where it lies, reading it (a
 * regular file, within the size limit) and scanning it for its facts
 * (facts.c). A script that cannot be read is a status, not an error.
 */
#define _XOPEN_SOURCE                                                          \
	700 /* XSI strerror_r(), with _POSIX_C_SOURCE (Makefile) */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "script/script.h"
#include "util/open_beneath.h"
#include "util/path.h"

static int
is_remote(const char *s)
{
	return strstr(s, "://") != NULL;
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
	if ((base_dir && smp__path_append(out, n, &len, base_dir)) ||
	    (source_dir && smp__path_append(out, n, &len, source_dir)) ||
	    smp__path_append(out, n, &len, name))
		return -1;
	return 0;
}

/*
 * Why the script at rel beneath base_dir was not read, into s->status and
 * s->reason: a path that resolves (through "..", symlinks) outside the
 * spec's folder, or the repository when there is one, is refused like an
 * absolute path, so that a spec never makes us read /etc/passwd or
 * /proc/self/environ and print a line of it as an excerpt. 0 or
 * SMP_ENOMEM.
 */
static int
not_read(struct smp_script_facts *s, enum smp_beneath r, int e, size_t max_size)
{
	char why[128];

	switch (r) {
	case SMP_BENEATH_OUTSIDE:
		s->status = SMP_SCRIPT_NOT_LOCAL;
		s->reason = "resolves outside the spec's folder and its "
			    "repository";
		return 0;
	case SMP_BENEATH_MISSING:
		s->reason = "was not found";
		return 0;
	case SMP_BENEATH_NOT_REGULAR:
		s->reason = "is not a regular file";
		return 0;
	case SMP_BENEATH_TOO_LARGE:
		s->reason = smp__arena_printf(&s->arena,
					      "is larger than the limit of %zu "
					      "bytes",
					      max_size);
		return s->reason ? 0 : SMP_ENOMEM;
	case SMP_BENEATH_NOMEM:
		return SMP_ENOMEM;
	default:
		break;
	}
	if (!e || strerror_r(e, why, sizeof(why)) != 0) /* thread-safe */
		snprintf(why, sizeof(why), "error %d", e);
	s->reason = smp__arena_printf(&s->arena, "cannot be read (%s)", why);
	return s->reason ? 0 : SMP_ENOMEM;
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
	enum smp_beneath got;
	size_t len;
	int r, rc, e;

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
	s->path = smp__arena_strndup(&s->arena, path, strlen(path));
	if (!s->path)
		return SMP_ENOMEM;
	/* the same path without the spec's folder, opened beneath it */
	len = 0;
	if ((src && smp__path_append(path, sizeof(path), &len, src)) ||
	    smp__path_append(path, sizeof(path), &len, name)) {
		s->reason = "has a path too long to read";
		return 0;
	}
	got = smp__read_beneath(&s->buf, &s->len, s->alloc, base_dir, path,
				max_size, &e);
	if (got != SMP_BENEATH_OK) {
		const char *full = s->path;

		if (got == SMP_BENEATH_OUTSIDE)
			s->path = name;
		rc = not_read(s, got, e, max_size);
		/* not on disk: a notebook's %%writefile cell may define it */
		if (rc == 0 && got == SMP_BENEATH_MISSING)
			rc = defined_file(s, w, base_dir, full);
		return rc;
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
