/*
 * test_fix_write.c - how `check --fix` writes a file back
 * (cmd/sm-preflight/fix_write.c), on the write itself: the file is
 * stamped and read, then changed the way an editor saving while the fix
 * runs would change it, then written. Every change made after the read
 * must make the write refuse and keep the change (a different size; the
 * same size and modification time, which only the bytes tell; the same
 * bytes in a new inode); an untouched file is written in place (same
 * inode), through a symbolic link; a read-only or locked file is refused;
 * a file size limit is an error that leaves the text as it was.
 */
#define _DEFAULT_SOURCE /* mkdtemp(), symlink() */

#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../cmd/sm-preflight/fix_write.h"
#include "helpers.h"

#define ORIG "compiler_config:\n  debug: true\n"
#define FIXED "compiler_config:\n  debug: false\n"

static char top[PATH_MAX];
static char path[PATH_MAX + 16];
static char why[256];

/* path holding text, replaced through the same inode */
static void
put(const char *text)
{
	FILE *f = fopen(path, "r+b");

	if (!f)
		f = fopen(path, "wb");
	cr_assert_not_null(f, "cannot write %s", path);
	cr_assert_eq(ftruncate(fileno(f), 0), 0);
	fputs(text, f);
	cr_assert_eq(fclose(f), 0);
}

static void
setup(void)
{
	snprintf(top, sizeof(top), "%s/smp-fixwrite.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	cr_assert_not_null(mkdtemp(top));
	snprintf(path, sizeof(path), "%s/x.yaml", top);
	put(ORIG);
}

static void
teardown(void)
{
	th_rm_tree(top);
}

/* What the fix does before writing: the stamp, then the read. */
static char *
stamp_and_read(struct cli_stamp *st, size_t *len)
{
	char *orig;

	cli_stamp_take(st, path);
	cr_assert(st->taken);
	orig = th_read_file(path, len);
	cr_assert_not_null(orig);
	return orig;
}

static int
fix_write(const struct cli_stamp *st, const char *orig, size_t len,
	  const char *text)
{
	why[0] = '\0';
	return cli_fix_write(path, st, orig, len, text, strlen(text), why,
			     sizeof(why));
}

/* path holds exactly want */
static void
holds(const char *want)
{
	size_t n;
	char *now = th_read_file(path, &n);

	cr_assert_not_null(now);
	cr_assert_eq(n, strlen(want), "%zu bytes: '%s'", n, now);
	cr_assert_str_eq(now, want);
	free(now);
}

static ino_t
inode(const char *p)
{
	struct stat st;

	cr_assert_eq(stat(p, &st), 0);
	return st.st_ino;
}

TestSuite(fix_write, .init = setup, .fini = teardown);

Test(fix_write, untouched_file_written_in_place)
{
	static const char *const texts[] = {FIXED, "a: 1\n", ORIG "# more\n"};
	struct cli_stamp st;
	size_t len, i;
	ino_t ino = inode(path);

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		char *orig = stamp_and_read(&st, &len);

		cr_assert_eq(fix_write(&st, orig, len, texts[i]), CLI_WRITE_OK,
			     "%s", why);
		holds(texts[i]);
		cr_assert_eq(inode(path), ino);
		free(orig);
	}
}

Test(fix_write, edit_after_the_read_refused)
{
	struct cli_stamp st;
	size_t len;
	char *orig = stamp_and_read(&st, &len);

	put(ORIG "# an edit of mine\n");
	cr_assert_eq(fix_write(&st, orig, len, FIXED), CLI_WRITE_REFUSED);
	cr_assert_str_eq(why, "changed since it was read; not fixed");
	holds(ORIG "# an edit of mine\n");
	free(orig);
}

/* Same size, and the time set back: only the bytes differ. */
Test(fix_write, same_size_same_time_edit_refused)
{
	struct cli_stamp st;
	struct timespec times[2];
	size_t len;
	char *orig = stamp_and_read(&st, &len);

	put("compiler_config:\n  debug: TRUE\n");
	times[0] = st.mtime;
	times[1] = st.mtime;
	cr_assert_eq(utimensat(AT_FDCWD, path, times, 0), 0);
	cr_assert_eq(fix_write(&st, orig, len, FIXED), CLI_WRITE_REFUSED);
	cr_assert_str_eq(why, "changed since it was read; not fixed");
	holds("compiler_config:\n  debug: TRUE\n");
	free(orig);
}

/* An editor that saves by rename: a new inode, even with the same bytes. */
Test(fix_write, replaced_file_refused)
{
	struct cli_stamp st;
	char other[PATH_MAX + 16];
	size_t len;
	char *orig = stamp_and_read(&st, &len);
	FILE *f;

	snprintf(other, sizeof(other), "%s/saved", top);
	f = fopen(other, "wb");
	cr_assert_not_null(f);
	fputs(ORIG, f);
	fclose(f);
	cr_assert_eq(rename(other, path), 0);
	cr_assert_eq(fix_write(&st, orig, len, FIXED), CLI_WRITE_REFUSED);
	holds(ORIG);
	free(orig);
}

/* Another name of the file (a link) was fixed first. */
Test(fix_write, already_fixed_not_written_again)
{
	struct cli_stamp st;
	size_t len;
	char *orig = stamp_and_read(&st, &len);

	put(FIXED);
	cr_assert_eq(fix_write(&st, orig, len, FIXED), CLI_WRITE_SAME);
	holds(FIXED);
	free(orig);
}

Test(fix_write, symlink_written_through)
{
	struct cli_stamp st;
	char target[PATH_MAX + 16];
	size_t len;
	char *orig;
	struct stat lst;

	snprintf(target, sizeof(target), "%s/target.yaml", top);
	cr_assert_eq(rename(path, target), 0);
	cr_assert_eq(symlink("target.yaml", path), 0);
	orig = stamp_and_read(&st, &len);
	cr_assert_eq(fix_write(&st, orig, len, FIXED), CLI_WRITE_OK, "%s", why);
	cr_assert_eq(lstat(path, &lst), 0);
	cr_assert(S_ISLNK(lst.st_mode), "the link was replaced");
	holds(FIXED);
	free(orig);
}

/* Even for root, who could write it by privilege. */
Test(fix_write, read_only_refused)
{
	struct cli_stamp st;
	size_t len;
	char *orig = stamp_and_read(&st, &len);

	cr_assert_eq(chmod(path, 0444), 0);
	cr_assert_eq(fix_write(&st, orig, len, FIXED), CLI_WRITE_REFUSED);
	cr_assert_str_eq(why, "it is read-only (mode 0444); not fixed");
	holds(ORIG);
	free(orig);
}

/* Another sm-preflight run (a POSIX write lock) is writing it. */
Test(fix_write, locked_file_refused)
{
	struct cli_stamp st;
	size_t len;
	char *orig = stamp_and_read(&st, &len);
	int ready[2], status;
	char c = 0;
	pid_t child;

	cr_assert_eq(pipe(ready), 0);
	child = fork();
	cr_assert_neq(child, -1);
	if (child == 0) {
		struct flock lk;
		int fd = open(path, O_RDWR);

		memset(&lk, 0, sizeof(lk));
		lk.l_type = F_WRLCK;
		lk.l_whence = SEEK_SET;
		if (fd < 0 || fcntl(fd, F_SETLK, &lk) != 0 ||
		    write(ready[1], "x", 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	close(ready[1]);
	cr_assert_eq(read(ready[0], &c, 1), 1, "the child took no lock");
	cr_assert_eq(fix_write(&st, orig, len, FIXED), CLI_WRITE_REFUSED);
	cr_assert_str_eq(why, "another process holds a lock on it; not fixed");
	holds(ORIG);
	kill(child, SIGKILL);
	waitpid(child, &status, 0);
	close(ready[0]);
	free(orig);
}

/* RLIMIT_FSIZE below the fixed text: EFBIG, not death by SIGXFSZ, and
 * the text as it was (the test runs in its own process). */
Test(fix_write, file_size_limit_leaves_the_text)
{
	struct cli_stamp st;
	struct rlimit rl;
	size_t len;
	char *orig = stamp_and_read(&st, &len);

	rl.rlim_cur = len;
	rl.rlim_max = RLIM_INFINITY;
	cr_assert_eq(setrlimit(RLIMIT_FSIZE, &rl), 0);
	cr_assert_eq(fix_write(&st, orig, len, ORIG "# longer\n"),
		     CLI_WRITE_FAILED);
	rl.rlim_cur = RLIM_INFINITY;
	cr_assert_eq(setrlimit(RLIMIT_FSIZE, &rl), 0);
	cr_assert_str_eq(why, "File too large; not fixed");
	holds(ORIG);
	free(orig);
}
