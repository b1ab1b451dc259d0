/*
 * test_open_beneath.c - the confined opener (util/open_beneath.h), with
 * openat2 and with the walk it falls back to: files beneath the project
 * root open; "..", absolute paths and symlinks out are refused, from a
 * spec named with and without a folder; FIFOs and folders are refused at
 * once; the repository root widens the project; reads honour the limit.
 */
#define _DEFAULT_SOURCE /* realpath(), symlink(), mkdtemp() */

#include <criterion/criterion.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/alloc.h"
#include "util/open_beneath.h"

typedef enum smp_beneath (*opener)(int *, const char *, const char *, int *);

static char top[PATH_MAX];

static void
put(const char *rel, const char *text)
{
	char p[PATH_MAX + 64];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", top, rel);
	f = fopen(p, "wb");
	cr_assert_not_null(f, "cannot write %s", p);
	fputs(text, f);
	fclose(f);
}

static void
dir(const char *rel)
{
	char p[PATH_MAX + 64];

	snprintf(p, sizeof(p), "%s/%s", top, rel);
	cr_assert_eq(mkdir(p, 0755), 0, "mkdir %s", p);
}

static void
link_to(const char *target, const char *rel)
{
	char p[PATH_MAX + 64];

	snprintf(p, sizeof(p), "%s/%s", top, rel);
	cr_assert_eq(symlink(target, p), 0, "symlink %s", p);
}

/*
 * A project proj/ (no .git) with jobs/ and src/ below, a secret beside
 * it, and a repository repo/ (with .git) holding jobs/ and lib/.
 */
static void
setup(void)
{
	char p[PATH_MAX + 64];

	snprintf(top, sizeof(top), "%s/smp-beneath.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	cr_assert_not_null(mkdtemp(top));
	put("secret.py", "SECRET\n");
	dir("proj");
	dir("proj/src");
	dir("proj/jobs");
	put("proj/train.py", "ok\n");
	put("proj/src/train.py", "src\n");
	link_to("../secret.py", "proj/out.py");
	link_to("src/train.py", "proj/in.py");
	link_to("../src/train.py", "proj/jobs/up.py");
	link_to("/etc/passwd", "proj/abs.py");
	link_to("loop.py", "proj/loop.py");
	link_to("..", "proj/src/parent");
	snprintf(p, sizeof(p), "%s/proj/fifo.py", top);
	cr_assert_eq(mkfifo(p, 0644), 0);
	dir("repo");
	dir("repo/.git");
	dir("repo/jobs");
	dir("repo/lib");
	put("repo/lib/train.py", "repo\n");
}

static void
teardown(void)
{
	char cmd[PATH_MAX + 64];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	cr_assert_eq(system(cmd), 0);
}

/* What opener says of rel beneath the folder base (below top). */
static enum smp_beneath
try_open(opener fn, const char *base, const char *rel, char *got, size_t n)
{
	char b[PATH_MAX + 64];
	enum smp_beneath r;
	ssize_t k = 0;
	int fd = -1, e = 0;

	snprintf(b, sizeof(b), "%s/%s", top, base);
	r = fn(&fd, b, rel, &e);
	if (got)
		got[0] = '\0';
	if (r == SMP_BENEATH_OK) {
		cr_assert_geq(fd, 0);
		if (got) {
			k = read(fd, got, n - 1);
			got[k < 0 ? 0 : k] = '\0';
		}
		close(fd);
	} else {
		cr_assert_eq(fd, -1);
	}
	return r;
}

/* A test of body with openat2 (where the kernel has it) and the walk. */
#define BOTH(name, body)                                                       \
	Test(open_beneath, name, .init = setup, .fini = teardown)              \
	{                                                                      \
		body(smp__open_beneath);                                       \
		body(smp__open_beneath_walk);                                  \
	}

static void
inside(opener fn)
{
	char got[64];

	cr_assert_eq(try_open(fn, "proj", "train.py", got, sizeof(got)),
		     SMP_BENEATH_OK);
	cr_assert_str_eq(got, "ok\n");
	cr_assert_eq(try_open(fn, "proj", "./src/../src//train.py", got,
			      sizeof(got)),
		     SMP_BENEATH_OK);
	cr_assert_str_eq(got, "src\n");
	/* symlinks that stay inside are followed */
	cr_assert_eq(try_open(fn, "proj", "in.py", got, sizeof(got)),
		     SMP_BENEATH_OK);
	cr_assert_str_eq(got, "src\n");
	cr_assert_eq(try_open(fn, "proj", "jobs/up.py", got, sizeof(got)),
		     SMP_BENEATH_OK);
	cr_assert_str_eq(got, "src\n");
	cr_assert_eq(
		try_open(fn, "proj", "src/parent/train.py", got, sizeof(got)),
		SMP_BENEATH_OK);
	cr_assert_str_eq(got, "ok\n");
}

BOTH(opens_files_beneath_the_root, inside)

static void
outside(opener fn)
{
	cr_assert_eq(try_open(fn, "proj", "../secret.py", NULL, 0),
		     SMP_BENEATH_OUTSIDE);
	cr_assert_eq(try_open(fn, "proj", "src/../../secret.py", NULL, 0),
		     SMP_BENEATH_OUTSIDE);
	cr_assert_eq(try_open(fn, "proj/src", "../train.py", NULL, 0),
		     SMP_BENEATH_OUTSIDE, "no repository: the spec's folder");
	cr_assert_eq(try_open(fn, "proj", "out.py", NULL, 0),
		     SMP_BENEATH_OUTSIDE);
	cr_assert_eq(try_open(fn, "proj", "abs.py", NULL, 0),
		     SMP_BENEATH_OUTSIDE);
	cr_assert_eq(try_open(fn, "proj", "src/parent/../secret.py", NULL, 0),
		     SMP_BENEATH_OUTSIDE);
	cr_assert_eq(try_open(fn, "proj", "/etc/passwd", NULL, 0),
		     SMP_BENEATH_OUTSIDE);
}

BOTH(refuses_escapes, outside)

static void
no_folder(opener fn)
{
	char cwd[PATH_MAX], p[PATH_MAX + 64];
	int fd = -1, e = 0;

	cr_assert_not_null(getcwd(cwd, sizeof(cwd)));
	snprintf(p, sizeof(p), "%s/proj", top);
	cr_assert_eq(chdir(p), 0);
	/* "" is the current folder, checked like any other */
	cr_assert_eq(fn(&fd, "", "../secret.py", &e), SMP_BENEATH_OUTSIDE);
	cr_assert_eq(fn(&fd, NULL, "out.py", &e), SMP_BENEATH_OUTSIDE);
	cr_assert_eq(fn(&fd, "", "train.py", &e), SMP_BENEATH_OK);
	close(fd);
	cr_assert_eq(chdir(cwd), 0);
	/* a folder that does not resolve opens nothing */
	snprintf(p, sizeof(p), "%s/nowhere", top);
	cr_assert_eq(fn(&fd, p, "train.py", &e), SMP_BENEATH_MISSING);
	cr_assert_eq(e, ENOENT);
}

BOTH(empty_folder_is_the_current_one, no_folder)

static void
not_regular(opener fn)
{
	int e = 0, fd = -1;
	char b[PATH_MAX + 64];

	cr_assert_eq(try_open(fn, "proj", "fifo.py", NULL, 0),
		     SMP_BENEATH_NOT_REGULAR);
	cr_assert_eq(try_open(fn, "proj", "src", NULL, 0),
		     SMP_BENEATH_NOT_REGULAR);
	cr_assert_eq(try_open(fn, "proj", "nothing.py", NULL, 0),
		     SMP_BENEATH_MISSING);
	cr_assert_eq(try_open(fn, "proj", "train.py/x", NULL, 0),
		     SMP_BENEATH_MISSING);
	cr_assert_eq(try_open(fn, "proj", "train.py/", NULL, 0),
		     SMP_BENEATH_MISSING);
	snprintf(b, sizeof(b), "%s/proj", top);
	cr_assert_eq(fn(&fd, b, "loop.py", &e), SMP_BENEATH_ERRNO);
	cr_assert_eq(e, ELOOP);
}

BOTH(refuses_what_is_not_a_regular_file, not_regular)

static void
repository(opener fn)
{
	char got[64];

	cr_assert_eq(
		try_open(fn, "repo/jobs", "../lib/train.py", got, sizeof(got)),
		SMP_BENEATH_OK);
	cr_assert_str_eq(got, "repo\n");
	cr_assert_eq(try_open(fn, "repo/jobs", "../../secret.py", NULL, 0),
		     SMP_BENEATH_OUTSIDE);
}

BOTH(repository_root_widens_the_project, repository)

Test(open_beneath, project_root_is_the_repository, .init = setup,
     .fini = teardown)
{
	char root[PATH_MAX], b[PATH_MAX + 64], want[PATH_MAX + 64];

	snprintf(b, sizeof(b), "%s/repo/jobs", top);
	cr_assert_eq(smp__project_root(root, sizeof(root), b), 0);
	cr_assert_not_null(realpath(top, want));
	strcat(want, "/repo");
	cr_assert_str_eq(root, want);
	cr_assert_eq(smp__project_root(root, 4, b), -1);
}

Test(open_beneath, reads_within_the_limit, .init = setup, .fini = teardown)
{
	char b[PATH_MAX + 64], *buf = NULL;
	struct smp_allocator a;
	size_t len = 0;
	int e = 0;

	cr_assert_eq(smp__allocator_resolve(&a, NULL), 0);

	snprintf(b, sizeof(b), "%s/proj", top);
	cr_assert_eq(smp__read_beneath(&buf, &len, &a, b, "train.py", 64, &e),
		     SMP_BENEATH_OK);
	cr_assert_eq(len, 3);
	cr_assert_str_eq(buf, "ok\n");
	smp__free(&a, buf);
	cr_assert_eq(smp__read_beneath(&buf, &len, &a, b, "train.py", 2, &e),
		     SMP_BENEATH_TOO_LARGE);
	cr_assert_null(buf);
	cr_assert_eq(smp__read_beneath(&buf, &len, &a, b, "out.py", 64, &e),
		     SMP_BENEATH_OUTSIDE);
	cr_assert_null(buf);
}
