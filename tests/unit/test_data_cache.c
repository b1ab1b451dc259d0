/*
 * test_data_cache.c - the refreshed-data cache: commits that crash
 * midway or race each other, what a context chooses (folder, cache,
 * embedded), data-stale and the data getters, and reading the cache
 * under allocation failure.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "catalog/data_cache.h"
#include "catalog/embedded.h"
#include "failing_alloc.h"
#include "helpers.h"
#include "small_docs.h"
#include "smpreflight.h"

/* ---------------------------------------------------------------- helpers */

static char root[64];

static const char *
make_root(void)
{
	snprintf(root, sizeof(root), "/tmp/smp-cache-XXXXXX");
	cr_assert_not_null(mkdtemp(root));
	return root;
}

/* The three embedded documents, optionally redated (malloc'd copies). */
struct docs {
	char *buf[SMP_DOC_COUNT];
	size_t len[SMP_DOC_COUNT];
};

static char *
redate_one(const char *s, size_t len, const char *version, const char *date,
	   size_t *out_len)
{
	const char *v = strstr(s, "\"data_version\": \"");
	const char *g = strstr(s, "\"generated\": \"");
	char *r;
	size_t vo, go;

	cr_assert(v && g && v < g);
	vo = (size_t)(v - s) + 17;
	go = (size_t)(g - s) + 14;
	/* both values are exactly 10 characters: patch in place */
	r = malloc(len + 1);
	cr_assert_not_null(r);
	memcpy(r, s, len);
	r[len] = '\0';
	memcpy(r + vo, version, 10);
	memcpy(r + go, date, 10);
	*out_len = len;
	return r;
}

static void
docs_make(struct docs *d, const char *version, const char *date)
{
	int i;

	memset(d, 0, sizeof(*d));
	for (i = 0; i < 3; i++) {
		const struct smp_embedded_file *f =
			smp__embedded_find(smp__doc_names[i]);

		cr_assert_not_null(f);
		d->buf[i] = redate_one((const char *)f->data, f->len, version,
				       date, &d->len[i]);
	}
}

static void
docs_free(struct docs *d)
{
	int i;

	for (i = 0; i < SMP_DOC_COUNT; i++)
		free(d->buf[i]);
}

/* A commit's result, for forked writers: a child must never reach a
 * Criterion assertion (its report would reach the runner as the test's,
 * and the runner can wait for it forever). */
static int
commit_rc(const char *cache, const struct docs *d, const char *url,
	  const struct smp_cache_io *io, struct smp_error *err)
{
	struct smp_allocator a = {NULL, NULL, NULL, NULL};
	struct smp_cache_meta m;
	const char *b[SMP_DOC_COUNT];
	int i;

	smp__allocator_resolve(&a, NULL);
	memset(&m, 0, sizeof(m));
	m.url = (char *)(uintptr_t)url;
	m.fetched = 1800000000;
	m.etag[0] = (char *)(uintptr_t) "\"e0\"";
	for (i = 0; i < SMP_DOC_COUNT; i++)
		b[i] = d->buf[i];
	return smp__cache_commit(cache, b, d->len, &m, io, &a, err);
}

static void
commit(const char *cache, const struct docs *d, const char *url,
       const struct smp_cache_io *io)
{
	struct smp_error err = {0};

	cr_assert_eq(commit_rc(cache, d, url, io, &err), 0, "%s: %s",
		     err.source, err.message);
}

/* In a forked child: commit, and exit 0 when it worked. */
static void
child_commit(const char *cache, const struct docs *d, const char *url,
	     const struct smp_cache_io *io)
{
	struct smp_error err = {0};

	_exit(commit_rc(cache, d, url, io, &err) == 0 ? 0 : 1);
}

/* waitpid() for a child that must have exited 0. */
static void
reap_ok(pid_t pid, const char *who)
{
	int status;

	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "%s failed (status %d)", who, status);
}

static struct smp_context *
context(const char *cache, const char *dir)
{
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_context *ctx = NULL;
	struct smp_error err = {0};

	o.cache_dir = cache;
	o.instance_data_dir = dir;
	cr_assert_eq(smp_context_new(&ctx, &o, &err), 0, "%s", err.message);
	return ctx;
}

/* ------------------------------------------------------------------ tests */

Test(data_cache, context_uses_valid_newer_cache)
{
	char cache[128];
	struct smp_context *ctx;
	struct docs d;

	snprintf(cache, sizeof(cache), "%s/c", make_root());
	docs_make(&d, "2100.01.01", "2100-01-01");
	commit(cache, &d, "https://example.com/data/", NULL);
	ctx = context(cache, NULL);
	cr_assert_eq(smp_context_data_origin(ctx), SMP_DATA_CACHE);
	cr_assert_str_eq(smp_context_data_version(ctx), "2100.01.01");
	cr_assert_str_eq(smp_context_data_source(ctx),
			 "https://example.com/data/");
	cr_assert_eq(smp_context_data_fetched(ctx), 1800000000);
	smp_context_free(ctx);
	/* --instance-data wins over the cache */
	ctx = context(cache, "instance-data");
	cr_assert_eq(smp_context_data_origin(ctx), SMP_DATA_DIRECTORY);
	cr_assert_str_eq(smp_context_data_source(ctx), "instance-data");
	cr_assert_eq(smp_context_data_fetched(ctx), 0);
	smp_context_free(ctx);
	/* no cache folder at all: the embedded data */
	ctx = context(NULL, NULL);
	cr_assert_eq(smp_context_data_origin(ctx), SMP_DATA_BUILTIN);
	cr_assert_str_eq(smp_context_data_source(ctx), "built-in");
	smp_context_free(ctx);
	docs_free(&d);
	th_rm_tree(root);
}

Test(data_cache, invalid_or_older_cache_falls_back_to_builtin)
{
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_cache_info info;
	struct smp_context *ctx;
	struct smp_error err = {0};
	char cache[128], path[256];
	struct docs d;
	FILE *f;

	snprintf(cache, sizeof(cache), "%s/c", make_root());
	docs_make(&d, "2001.01.01", "2001-01-01");
	commit(cache, &d, "https://example.com/old/", NULL);
	ctx = context(cache, NULL);
	cr_assert_eq(smp_context_data_origin(ctx), SMP_DATA_BUILTIN);
	smp_context_free(ctx);
	o.cache_dir = cache;
	cr_assert_eq(smp_data_cache_info(&info, &o, &err), 0);
	cr_assert(info.present && info.valid && info.older_than_builtin);
	cr_assert_str_eq(info.data_version, "2001.01.01");
	cr_assert_str_eq(info.url, "https://example.com/old/");
	docs_free(&d);

	docs_make(&d, "2100.01.01", "2100-01-01");
	commit(cache, &d, "https://example.com/new/", NULL);
	snprintf(path, sizeof(path), "%s/current/frameworks.json", cache);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("{\"schema_version\": 1,", f);
	fclose(f);
	ctx = context(cache, NULL);
	cr_assert_eq(smp_context_data_origin(ctx), SMP_DATA_BUILTIN);
	smp_context_free(ctx);
	cr_assert_eq(smp_data_cache_info(&info, &o, &err), 0);
	cr_assert(info.present);
	cr_assert_not(info.valid);
	cr_assert(strstr(info.error, "frameworks.json:1:"), "%s", info.error);
	/* a copy missing a file */
	unlink(path);
	cr_assert_eq(smp_data_cache_info(&info, &o, &err), 0);
	cr_assert_not(info.valid);
	cr_assert(strstr(info.error, "No such file"), "%s", info.error);
	docs_free(&d);
	th_rm_tree(root);
}

/* The write hook of the crash test: dies like a killed process halfway
 * through tested-models.json. */
static ssize_t
die_midway(void *ud, int fd, const void *buf, size_t len)
{
	size_t *left = ud;

	if (len >= *left) {
		if (write(fd, buf, *left / 2) < 0)
			_exit(4);
		_exit(3);
	}
	*left -= len;
	return write(fd, buf, len);
}

static int
real_fsync(void *ud, int fd)
{
	(void)ud;
	return fsync(fd);
}

Test(data_cache, crash_mid_write_keeps_old_copy, .timeout = 60)
{
	char cache[128];
	struct smp_context *ctx;
	struct docs old, next;
	int status;
	pid_t pid;

	snprintf(cache, sizeof(cache), "%s/c", make_root());
	docs_make(&old, "2100.01.01", "2100-01-01");
	docs_make(&next, "2100.02.02", "2100-02-02");
	commit(cache, &old, "https://example.com/a/", NULL);
	pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		size_t left = next.len[0] + next.len[1] / 2;
		struct smp_cache_io io = {die_midway, real_fsync, &left, NULL};

		child_commit(cache, &next, "https://example.com/b/", &io);
	}
	cr_assert_eq(waitpid(pid, &status, 0), pid);
	cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 3);
	/* the dead writer's folder is there, the old copy in use */
	cr_assert_eq(th_count_prefixed(cache, ".tmp-"), 1);
	ctx = context(cache, NULL);
	cr_assert_eq(smp_context_data_origin(ctx), SMP_DATA_CACHE);
	cr_assert_str_eq(smp_context_data_version(ctx), "2100.01.01");
	smp_context_free(ctx);
	/* the next commit clears what the dead writer left */
	commit(cache, &next, "https://example.com/b/", NULL);
	cr_assert_eq(th_count_prefixed(cache, ".tmp-"), 0);
	cr_assert_eq(th_count_prefixed(cache, "data-"), 1);
	ctx = context(cache, NULL);
	cr_assert_str_eq(smp_context_data_version(ctx), "2100.02.02");
	smp_context_free(ctx);
	docs_free(&old);
	docs_free(&next);
	th_rm_tree(root);
}

/* exists(dir/name) */
static int
there(const char *dir, const char *name)
{
	char p[600];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return lstat(p, &st) == 0;
}

static void
touch(const char *dir, const char *name)
{
	char p[600];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	cr_assert_not_null(f);
	fputs("{}\n", f);
	fclose(f);
}

Test(data_cache, cleanup_never_follows_symlinks_nor_removes_foreign_files)
{
	char cache[128], outside[128], p[256];
	struct timespec old[2];
	struct docs d;

	snprintf(cache, sizeof(cache), "%s/c", make_root());
	snprintf(outside, sizeof(outside), "%s/outside", root);
	cr_assert_eq(mkdir(outside, 0755), 0);
	touch(outside, "instances.json");
	touch(outside, "meta.json");
	touch(outside, ".busy");
	/* older than the orphan age: a .tmp- folder this old is a dead
	 * writer's, were it ours */
	old[0].tv_sec = old[1].tv_sec = time(NULL) - 7200;
	old[0].tv_nsec = old[1].tv_nsec = 0;
	cr_assert_eq(utimensat(AT_FDCWD, outside, old, 0), 0);
	docs_make(&d, "2100.01.01", "2100-01-01");
	commit(cache, &d, "https://example.com/a/", NULL);
	snprintf(p, sizeof(p), "%s/data-evil", cache);
	cr_assert_eq(symlink(outside, p), 0);
	snprintf(p, sizeof(p), "%s/.tmp-evil", cache);
	cr_assert_eq(symlink(outside, p), 0);
	/* a real old copy holding a file the cache never writes */
	snprintf(p, sizeof(p), "%s/data-foreign", cache);
	cr_assert_eq(mkdir(p, 0755), 0);
	touch(p, "instances.json");
	touch(p, "notes.txt");
	commit(cache, &d, "https://example.com/b/", NULL);
	/* nothing outside was removed, nor the links themselves */
	cr_assert(there(outside, "instances.json"));
	cr_assert(there(outside, "meta.json"));
	cr_assert(there(outside, ".busy"));
	cr_assert(there(cache, "data-evil"));
	cr_assert(there(cache, ".tmp-evil"));
	/* our files went, the foreign one (and so its folder) stayed */
	cr_assert(!there(p, "instances.json"));
	cr_assert(there(p, "notes.txt"));
	docs_free(&d);
	th_rm_tree(root);
}

Test(data_cache, lock_symlink_is_not_followed)
{
	struct smp_allocator a = {NULL, NULL, NULL, NULL};
	char cache[128], target[128], p[256];
	const char *b[SMP_DOC_COUNT];
	struct smp_cache_meta m;
	struct smp_error err = {0};
	struct docs d;
	int i;

	snprintf(cache, sizeof(cache), "%s/c", make_root());
	snprintf(target, sizeof(target), "%s/created-elsewhere", root);
	cr_assert_eq(mkdir(cache, 0755), 0);
	snprintf(p, sizeof(p), "%s/lock", cache);
	cr_assert_eq(symlink(target, p), 0);
	docs_make(&d, "2100.01.01", "2100-01-01");
	smp__allocator_resolve(&a, NULL);
	memset(&m, 0, sizeof(m));
	m.url = (char *)(uintptr_t) "https://example.com/a/";
	for (i = 0; i < SMP_DOC_COUNT; i++)
		b[i] = d.buf[i];
	cr_assert_eq(smp__cache_commit(cache, b, d.len, &m, NULL, &a, &err),
		     SMP_EIO);
	cr_assert(strstr(err.message, "lock"), "%s", err.message);
	cr_assert(!there(root, "created-elsewhere"));
	/* and the half-made copy is gone */
	cr_assert_eq(th_count_prefixed(cache, ".tmp-"), 0);
	cr_assert_eq(th_count_prefixed(cache, "data-"), 0);
	docs_free(&d);
	th_rm_tree(root);
}

/* After racing writers: one copy, in use, and no litter; frees d[0..1]
 * and the test's folder. */
static void
one_copy_left(const char *cache, struct docs *d)
{
	struct smp_context *ctx;

	cr_assert_eq(th_count_prefixed(cache, "data-"), 1);
	cr_assert_eq(th_count_prefixed(cache, ".tmp-"), 0);
	cr_assert_eq(th_count_prefixed(cache, ".current-"), 0);
	ctx = context(cache, NULL);
	cr_assert_eq(smp_context_data_origin(ctx), SMP_DATA_CACHE);
	smp_context_free(ctx);
	docs_free(&d[0]);
	docs_free(&d[1]);
	th_rm_tree(root);
}

/* In a forked child: n contexts in a row must each use the cache (a
 * commit in between must never show a reader a half-made copy). */
static void
child_read(const char *cache, int n)
{
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_context *ctx;
	struct smp_error err = {0};
	int i, bad = 0;

	o.cache_dir = cache;
	for (i = 0; i < n && !bad; i++) {
		ctx = NULL;
		bad = smp_context_new(&ctx, &o, &err) != 0 ||
		      smp_context_data_origin(ctx) != SMP_DATA_CACHE;
		smp_context_free(ctx);
	}
	_exit(bad);
}

Test(data_cache, concurrent_commits_leave_one_valid_copy, .timeout = 60)
{
	char cache[128];
	struct docs d[2];
	pid_t pids[8];
	int i;

	snprintf(cache, sizeof(cache), "%s/c", make_root());
	docs_make(&d[0], "2100.01.01", "2100-01-01");
	docs_make(&d[1], "2100.02.02", "2100-02-02");
	commit(cache, &d[0], "https://example.com/", NULL);
	for (i = 0; i < 8; i++) {
		pids[i] = fork();
		cr_assert_geq(pids[i], 0);
		if (pids[i] == 0 && i < 6)
			child_commit(cache, &d[i % 2], "https://example.com/",
				     NULL);
		if (pids[i] == 0)
			child_read(cache, 20);
	}
	for (i = 0; i < 8; i++)
		reap_ok(pids[i], i < 6 ? "a writer" : "a reader");
	one_copy_left(cache, d);
}

/* A writer paused (io.at) right after creating its folder's .busy. */
struct pause {
	int ready; /* written once the writer is at the point */
	int go;    /* read until the parent lets it go on */
};

static void
pause_at(void *ud, const char *point)
{
	struct pause *p = ud;
	char c = 'x';

	if (strcmp(point, "busy") != 0)
		return;
	if (write(p->ready, &c, 1) != 1 || read(p->go, &c, 1) < 0)
		_exit(5);
}

/*
 * The window between a writer creating .busy and locking it: a second
 * writer's cleanup that ran then took the first writer's folder for a
 * dead writer's and removed it (the first commit failed, or published a
 * copy missing files). The first writer is paused in that window while
 * the second one commits; the second may wait for the first (it does:
 * the window is under the cache lock), but neither may fail.
 */
Test(data_cache, cleanup_spares_a_writer_starting_its_folder, .timeout = 60)
{
	struct smp_cache_io io = {NULL, NULL, NULL, pause_at};
	int ready[2], go[2], i, status;
	struct pause p;
	struct docs d[2];
	struct timespec tick = {0, 10000000};
	char cache[128], c;
	pid_t first, second, w = 0;

	snprintf(cache, sizeof(cache), "%s/c", make_root());
	docs_make(&d[0], "2100.01.01", "2100-01-01");
	docs_make(&d[1], "2100.02.02", "2100-02-02");
	commit(cache, &d[0], "https://example.com/", NULL);
	cr_assert_eq(pipe(ready), 0);
	cr_assert_eq(pipe(go), 0);
	first = fork();
	cr_assert_geq(first, 0);
	if (first == 0) {
		close(ready[0]);
		close(go[1]);
		p.ready = ready[1];
		p.go = go[0];
		io.ud = &p;
		child_commit(cache, &d[1], "https://example.com/", &io);
	}
	close(ready[1]);
	close(go[0]);
	cr_assert_eq(read(ready[0], &c, 1), 1,
		     "the first writer never "
		     "reached its .busy");
	second = fork();
	cr_assert_geq(second, 0);
	if (second == 0)
		child_commit(cache, &d[0], "https://example.com/", NULL);
	/* long enough for the second commit to finish if nothing holds it
	 * back; the outcome must not depend on it */
	for (i = 0; i < 100 && (w = waitpid(second, &status, WNOHANG)) == 0;
	     i++)
		nanosleep(&tick, NULL);
	c = 'g';
	cr_assert_eq(write(go[1], &c, 1), 1);
	close(go[1]);
	close(ready[0]);
	reap_ok(first, "the paused writer");
	if (w == second)
		cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
			  "the second writer failed (status %d)", status);
	else
		reap_ok(second, "the second writer");
	one_copy_left(cache, d);
}

/* Validators from the cache become request headers: a line break in
 * one must not survive the round trip. */
Test(data_cache, meta_round_trip_drops_unsafe_validators)
{
	struct smp_allocator a;
	struct smp_cache_meta m;
	struct smp_cache_copy c;
	struct smp_error err = {0};
	const char *b[SMP_DOC_COUNT];
	char cache[128];
	struct docs d;
	int i;

	smp__allocator_resolve(&a, NULL);
	snprintf(cache, sizeof(cache), "%s/c", make_root());
	docs_make(&d, "2100.01.01", "2100-01-01");
	memset(&m, 0, sizeof(m));
	m.url = (char *)(uintptr_t) "https://example.com/\"q\"/";
	m.fetched = 42;
	m.etag[0] = (char *)(uintptr_t) "W/\"a\\b\"";
	m.etag[1] = (char *)(uintptr_t) "\"x\"\r\nInjected: 1";
	m.last_modified[2] =
		(char *)(uintptr_t) "Mon, 30 Nov 2026 00:00:00 GMT";
	for (i = 0; i < SMP_DOC_COUNT; i++)
		b[i] = d.buf[i];
	cr_assert_eq(smp__cache_commit(cache, b, d.len, &m, NULL, &a, &err), 0);
	cr_assert_eq(smp__cache_read(&c, &a, cache, 1 << 22, &err), 0, "%s",
		     err.message);
	cr_assert_str_eq(c.meta.url, "https://example.com/\"q\"/");
	cr_assert_eq(c.meta.fetched, 42);
	cr_assert_str_eq(c.meta.etag[0], "W/\"a\\b\"");
	cr_assert_null(c.meta.etag[1]);
	cr_assert_null(c.meta.etag[2]);
	cr_assert_str_eq(c.meta.last_modified[2],
			 "Mon, 30 Nov 2026 00:00:00 GMT");
	cr_assert_null(c.buf[SMP_DOC_INDEX]);
	cr_assert_eq(c.len[1], d.len[1]);
	cr_assert_eq(memcmp(c.buf[1], d.buf[1], d.len[1]), 0);
	smp__cache_copy_release(&c, &a);
	docs_free(&d);
	th_rm_tree(root);
}

Test(data_cache, days_from_date)
{
	cr_assert_eq(smp__days_from_date("1970-01-01"), 0);
	cr_assert_eq(smp__days_from_date("2000-03-01"), 11017);
	cr_assert_eq(smp__days_from_date("2024-02-29"), 19782);
	cr_assert_eq(smp__days_from_date("2026-11-30"), 20787);
	cr_assert_eq(smp__days_from_date("2026-13-01"), -1);
	cr_assert_eq(smp__days_from_date("2026/11/30"), -1);
	cr_assert_eq(smp__days_from_date("26-11-30"), -1);
}

/* data-stale: one finding at no position, named after the data. */
Test(data_cache, data_stale_once_at_no_position)
{
	struct smp_context *ctx = context(NULL, NULL);
	struct smp_report *rep = NULL;
	const struct smp_finding *f;
	struct smp_error err = {0};
	long born = smp__days_from_date(smp_context_data_date(ctx));
	int64_t day = 86400;

	cr_assert_geq(born, 0);
	cr_assert_eq(smp_check_data_age(&rep, ctx, (born + 181) * day + 5, 180,
					&err),
		     0);
	cr_assert_eq(smp_report_count(rep), 1);
	f = smp_report_get(rep, 0);
	cr_assert_str_eq(f->rule, "data-stale");
	cr_assert_eq(f->severity, SMP_SEVERITY_WARNING);
	cr_assert_eq(f->line, 0);
	cr_assert_str_eq(f->file, "<built-in instance data>");
	cr_assert(strstr(f->message, "is 181 days old, more than 180"), "%s",
		  f->message);
	cr_assert(strstr(f->fix, "update-data"));
	smp_report_free(rep);
	cr_assert_eq(smp_context_data_age(ctx, (born + 181) * day + 5), 181);
	/* at the limit: quiet */
	cr_assert_eq(smp_check_data_age(&rep, ctx, (born + 180) * day + 86399,
					180, &err),
		     0);
	cr_assert_eq(smp_report_count(rep), 0);
	smp_report_free(rep);
	/* before the data was made (clock skew): quiet, age 0 */
	cr_assert_eq(smp_check_data_age(&rep, ctx, (born - 3) * day, 1, &err),
		     0);
	cr_assert_eq(smp_report_count(rep), 0);
	smp_report_free(rep);
	cr_assert_eq(smp_context_data_age(ctx, (born - 3) * day), 0);
	cr_assert_eq(smp_check_data_age(&rep, ctx, 0, 0, &err), SMP_EINVAL);
	cr_assert_null(rep);
	smp_context_free(ctx);
}

Test(data_cache, data_stale_follows_severity_overrides)
{
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_rule_override ov = {"data-stale", SMP_SEVERITY_OFF};
	struct smp_context *ctx = NULL;
	struct smp_report *rep = NULL;
	struct smp_error err = {0};
	int64_t late = (int64_t)4102444800; /* 2100-01-01 */

	o.overrides = &ov;
	o.override_count = 1;
	cr_assert_eq(smp_context_new(&ctx, &o, &err), 0);
	cr_assert_eq(smp_check_data_age(&rep, ctx, late, 180, &err), 0);
	cr_assert_eq(smp_report_count(rep), 0);
	smp_report_free(rep);
	smp_context_free(ctx);
	ov.severity = SMP_SEVERITY_ERROR;
	cr_assert_eq(smp_context_new(&ctx, &o, &err), 0);
	cr_assert_eq(smp_check_data_age(&rep, ctx, late, 180, &err), 0);
	cr_assert_eq(smp_report_max_severity(rep), SMP_SEVERITY_ERROR);
	smp_report_free(rep);
	smp_context_free(ctx);
	/* a folder's finding is named after the folder */
	ctx = context(NULL, "instance-data");
	cr_assert_eq(smp_check_data_age(&rep, ctx, late, 180, &err), 0);
	cr_assert_str_eq(smp_report_get(rep, 0)->file, "instance-data");
	cr_assert(strstr(smp_report_get(rep, 0)->fix, "'instance-data'"));
	smp_report_free(rep);
	smp_context_free(ctx);
}

Test(data_cache, cache_info_without_cache)
{
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_cache_info info;
	struct smp_error err = {0};
	char cache[128];

	cr_assert_eq(smp_data_cache_info(&info, &o, &err), 0);
	cr_assert_not(info.present);
	snprintf(cache, sizeof(cache), "%s/none", make_root());
	o.cache_dir = cache;
	cr_assert_eq(smp_data_cache_info(&info, &o, &err), 0);
	cr_assert_not(info.present);
	cr_assert_eq(info.checked, 0);
	cr_assert_eq(smp__cache_mark_checked(root, 77, NULL, &err), 0);
	o.cache_dir = root;
	cr_assert_eq(smp_data_cache_info(&info, &o, &err), 0);
	cr_assert_eq(info.checked, 77);
	th_rm_tree(root);
}

/* Reading the cache at context creation and for `data`, with allocation
 * N failing: SMP_ENOMEM (never a silent fall-back) and no leak. The
 * first 64 and last 256 allocations one by one, a stride between. */
static void
fail_each(struct failing_alloc *c, const struct smp_options *o, int info_call)
{
	struct smp_context *ctx = NULL;
	struct smp_cache_info info;
	struct smp_error err = {0};
	long n, total, step;
	int rc;

	fa_arm(c, FA_NEVER);
	if (info_call) {
		cr_assert_eq(smp_data_cache_info(&info, o, &err), 0);
		cr_assert(info.valid);
	} else {
		cr_assert_eq(smp_context_new(&ctx, o, &err), 0);
		cr_assert_eq(smp_context_data_origin(ctx), SMP_DATA_CACHE);
		smp_context_free(ctx);
	}
	total = c->calls;
	step = total / 200 + 1;
	for (n = 0; n < total; n += n < 64 || n >= total - 256 ? 1 : step) {
		fa_arm(c, n);
		rc = info_call ? smp_data_cache_info(&info, o, &err)
			       : smp_context_new(&ctx, o, &err);
		cr_assert_eq(c->live, 0, "n=%ld leaked %ld", n, c->live);
		/* checked.json is optional: losing it is not an error */
		if (info_call && rc == 0 && info.valid)
			continue;
		cr_assert_eq(rc, SMP_ENOMEM, "n=%ld of %ld: rc=%d", n, total,
			     rc);
	}
}

/* Small valid documents (small_docs.h) keep this fast under ASan. */

static const char *const small[3] = {
	SMALL_INSTANCES("2100.01.01", "2100-01-01", "32"),
	SMALL_TESTED("2100.01.01", "2100-01-01"),
	SMALL_FRAMEWORKS("2100.01.01", "2100-01-01")};

Test(data_cache, reading_cache_allocation_failures_are_clean)
{
	struct failing_alloc c = FA_INIT;
	struct smp_allocator a = fa_allocator(&c);
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_error err = {0};
	char cache[128];
	struct docs d;
	int i;

	snprintf(cache, sizeof(cache), "%s/c", make_root());
	memset(&d, 0, sizeof(d));
	for (i = 0; i < 3; i++) {
		d.len[i] = strlen(small[i]);
		d.buf[i] = malloc(d.len[i] + 1);
		cr_assert_not_null(d.buf[i]);
		memcpy(d.buf[i], small[i], d.len[i] + 1);
	}
	commit(cache, &d, "https://example.com/", NULL);
	cr_assert_eq(smp__cache_mark_checked(cache, 5, NULL, &err), 0);
	o.cache_dir = cache;
	o.allocator = &a;
	fail_each(&c, &o, 0);
	fail_each(&c, &o, 1);
	docs_free(&d);
	th_rm_tree(root);
}
