/*
 * test_threads.c - one context shared by 8 threads: every example and
 * golden-case spec is checked, suggested and compared with a baseline
 * from all threads at once, each thread starting at a different spec, and
 * every result must equal the serial run's. `make tsan` runs this suite
 * under ThreadSanitizer.
 */
#ifdef SMP_TEST_STANDALONE
/*
 * make tsan builds this file alone: Criterion aborts under
 * ThreadSanitizer (its inheritable arena cannot be mapped, Criterion
 * issue #274), so these stand-ins run the same tests from a plain main().
 */
#include <stdio.h>
#include <stdlib.h>

static int sa_failed;

static void
sa_check(int ok, const char *what, int line)
{
	if (!ok) {
		fprintf(stderr, "test_threads.c:%d: failed: %s\n", line, what);
		sa_failed = 1;
	}
}

#define SA_1(a, ...) (a)
#define SA_2(a, b, ...) (a), (b)
#define SA_CMP(op, a, b) ((a)op(b))
#define SA_CMP2(op, ...) SA_CMPX(op, SA_2(__VA_ARGS__, ~))
#define SA_CMPX(op, ...) SA_CMP(op, __VA_ARGS__)
#define SA_ASSERT(ok, ...)                                                     \
	do {                                                                   \
		int sa_ok = (ok);                                              \
		sa_check(sa_ok, #__VA_ARGS__, __LINE__);                       \
		if (!sa_ok)                                                    \
			exit(1);                                               \
	} while (0)
#define cr_assert_eq(...) SA_ASSERT(SA_CMP2(==, __VA_ARGS__, ~), __VA_ARGS__)
#define cr_assert_gt(...) SA_ASSERT(SA_CMP2(>, __VA_ARGS__, ~), __VA_ARGS__)
#define cr_assert_lt(...) SA_ASSERT(SA_CMP2(<, __VA_ARGS__, ~), __VA_ARGS__)
#define cr_expect_eq(...)                                                      \
	sa_check(SA_CMP2(==, __VA_ARGS__, ~), #__VA_ARGS__, __LINE__)
#define cr_assert_not_null(...)                                                \
	SA_ASSERT(SA_1(__VA_ARGS__, ~) != NULL, __VA_ARGS__)
#define cr_assert_str_eq(...)                                                  \
	SA_ASSERT(strcmp(SA_2(__VA_ARGS__, ~)) == 0, __VA_ARGS__)
#define cr_log_info(...) (fprintf(stderr, __VA_ARGS__), fputc('\n', stderr))
#define Test(suite, name, ...) static void suite##_##name(void)
#else
#include <criterion/criterion.h>
#endif
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smpreflight.h"

/* smp_check() options comparing with baseline b */
#define BASELINE_OPTS(b)                                                       \
	(&(struct smp_check_options){.version = SMP_CHECK_OPTIONS_VERSION,     \
				     .baseline = (b)})

#define THREADS 8
#define ROUNDS 2
#define MAX_SPECS 2048

struct growbuf {
	char *data;
	size_t len;
	size_t cap;
	int failed;
};

/* An smp_write_fn appending to a growbuf (malloc'd, NUL-terminated). */
static int
grow_write(void *ud, const char *data, size_t len)
{
	struct growbuf *b = ud;

	if (b->len + len + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		char *p;

		while (cap < b->len + len + 1)
			cap *= 2;
		p = realloc(b->data, cap);
		if (!p) {
			b->failed = 1;
			return -1;
		}
		b->data = p;
		b->cap = cap;
	}
	memcpy(b->data + b->len, data, len);
	b->len += len;
	b->data[b->len] = '\0';
	return 0;
}

static void
grow_printf(struct growbuf *b, const char *what, int rc)
{
	char line[64];
	int n = snprintf(line, sizeof(line), "[%s rc=%d]\n", what, rc);

	grow_write(b, line, (size_t)n);
}

struct specs {
	char *path[MAX_SPECS];
	size_t count;
};

static int
is_spec(const char *name)
{
	const char *dot = strrchr(name, '.');

	return dot && (strcmp(dot, ".yaml") == 0 || strcmp(dot, ".yml") == 0 ||
		       strcmp(dot, ".json") == 0);
}

/* Adds the specs directly in dir; returns how many. */
static size_t
add_dir(struct specs *s, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t added = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)) != NULL) {
		char path[1024];

		if (e->d_name[0] == '.' || !is_spec(e->d_name))
			continue;
		cr_assert_lt(s->count, MAX_SPECS);
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		s->path[s->count] = strdup(path);
		cr_assert_not_null(s->path[s->count]);
		s->count++;
		added++;
	}
	closedir(d);
	return added;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* examples/ and every tests/cases/<dir>/, sorted. */
static void
collect_specs(struct specs *s)
{
	DIR *d;
	struct dirent *e;
	size_t cases = 0;

	s->count = 0;
	cr_assert_gt(add_dir(s, "examples"), 0, "run from the repository root");
	d = opendir("tests/cases");
	cr_assert_not_null(d);
	while ((e = readdir(d)) != NULL) {
		char dir[512];

		if (e->d_name[0] == '.')
			continue;
		snprintf(dir, sizeof(dir), "tests/cases/%s", e->d_name);
		cases += add_dir(s, dir);
	}
	closedir(d);
	cr_assert_gt(cases, 50, "golden cases not found");
	qsort(s->path, s->count, sizeof(s->path[0]), cmp_str);
}

/*
 * Everything one spec gives: the check's text, the check against the
 * shared baseline, and the suggestion's text, each with its status.
 */
static char *
run_one(const struct smp_context *ctx, const struct smp_baseline *bl,
	const char *path)
{
	struct growbuf b = {NULL, 0, 0, 0};
	struct smp_report *rep = NULL;
	struct smp_suggestion *sug = NULL;
	struct smp_error err = {0};
	int rc;

	rc = smp_check_file(&rep, ctx, path, &err);
	grow_printf(&b, "check", rc);
	if (rc == 0) {
		rc = smp_emit_text(rep, SMP_SEVERITY_INFO, 0, grow_write, &b);
		grow_printf(&b, "emit", rc);
		smp_report_free(rep);
	}
	rc = smp_check(&rep, ctx, path, NULL, 0, BASELINE_OPTS(bl), &err);
	grow_printf(&b, "baseline", rc);
	if (rc == 0) {
		rc = smp_emit_text(rep, SMP_SEVERITY_INFO, 0, grow_write, &b);
		grow_printf(&b, "emit", rc);
		smp_report_free(rep);
	}
	rc = smp_suggest(&sug, ctx, path, NULL, 0, NULL, &err);
	grow_printf(&b, "suggest", rc);
	if (rc == 0) {
		rc = smp_suggestion_emit_text(sug, grow_write, &b);
		grow_printf(&b, "emit", rc);
		smp_suggestion_free(sug);
	}
	if (b.failed) {
		free(b.data);
		return NULL;
	}
	return b.data;
}

struct shared {
	const struct smp_context *ctx;
	const struct smp_baseline *bl;
	const struct specs *specs;
	char *const *expected;
};

struct worker {
	pthread_t tid;
	const struct shared *sh;
	size_t first; /* the spec this thread starts at */
	size_t runs;
	size_t mismatches;
	size_t first_mismatch; /* index of the first spec that differed */
	char *first_got;       /* and what this thread got for it */
};

/* Criterion's asserts are not for other threads: count, then assert. */
static void *
work(void *arg)
{
	struct worker *w = arg;
	const struct specs *s = w->sh->specs;
	size_t round, k;

	for (round = 0; round < ROUNDS; round++) {
		for (k = 0; k < s->count; k++) {
			size_t i = (w->first + k) % s->count;
			char *got = run_one(w->sh->ctx, w->sh->bl, s->path[i]);

			w->runs++;
			if (!got || strcmp(got, w->sh->expected[i]) != 0) {
				if (!w->mismatches) {
					w->first_mismatch = i;
					w->first_got = got;
					got = NULL;
				}
				w->mismatches++;
			}
			free(got);
		}
	}
	return NULL;
}

Test(threads, one_context_eight_threads_match_serial_runs, .timeout = 120)
{
	static struct specs specs;
	struct smp_context *ctx = NULL;
	struct smp_baseline *bl = NULL;
	struct smp_error err = {0};
	struct worker w[THREADS];
	struct shared sh;
	char **expected;
	size_t i, runs = 0;
	int t;

	collect_specs(&specs);
	cr_assert_eq(smp_context_new(&ctx, NULL, &err), 0, "%s", err.message);
	cr_assert_eq(smp_baseline_new(&bl, ctx, "examples/bert-single-gpu.yaml",
				      NULL, 0, &err),
		     0, "%s", err.message);
	expected = calloc(specs.count, sizeof(*expected));
	cr_assert_not_null(expected);
	for (i = 0; i < specs.count; i++) {
		expected[i] = run_one(ctx, bl, specs.path[i]);
		cr_assert_not_null(expected[i]);
		/* the serial run is itself stable */
		{
			char *again = run_one(ctx, bl, specs.path[i]);

			cr_assert_str_eq(again, expected[i], "%s",
					 specs.path[i]);
			free(again);
		}
	}
	sh.ctx = ctx;
	sh.bl = bl;
	sh.specs = &specs;
	sh.expected = expected;
	for (t = 0; t < THREADS; t++) {
		memset(&w[t], 0, sizeof(w[t]));
		w[t].sh = &sh;
		w[t].first = (size_t)t * specs.count / THREADS;
		cr_assert_eq(pthread_create(&w[t].tid, NULL, work, &w[t]), 0);
	}
	for (t = 0; t < THREADS; t++) {
		cr_assert_eq(pthread_join(w[t].tid, NULL), 0);
		cr_expect_eq(w[t].mismatches, 0,
			     "thread %d: %zu results differ from the serial "
			     "run, first %s:\n--- serial\n%s\n--- thread\n%s",
			     t, w[t].mismatches,
			     specs.path[w[t].first_mismatch],
			     expected[w[t].first_mismatch],
			     w[t].first_got ? w[t].first_got : "(no memory)");
		free(w[t].first_got);
		runs += w[t].runs;
	}
	cr_assert_eq(runs, (size_t)THREADS * ROUNDS * specs.count);
	cr_log_info("%zu specs, %zu concurrent runs of check, baseline check "
		    "and suggest",
		    specs.count, runs);
	for (i = 0; i < specs.count; i++) {
		free(expected[i]);
		free(specs.path[i]);
	}
	free(expected);
	smp_baseline_free(bl);
	smp_context_free(ctx);
}

/* One spec per dialect: each compiles its dialect's schema at first use. */
static const char *const first_use[] = {
	"examples/bert-single-gpu.yaml",           /* estimator */
	"examples/broken-model-trainer-mt.yaml",   /* ModelTrainer */
	"examples/broken-copied-request-api.json", /* CreateTrainingJob */
};
#define FIRST_USE (sizeof(first_use) / sizeof(first_use[0]))

struct first_use_run {
	pthread_t tid;
	const struct smp_context *ctx;
	char *const *expected;
	size_t first;
	size_t mismatches;
};

static void *
first_use_work(void *arg)
{
	struct first_use_run *r = arg;
	size_t k;

	for (k = 0; k < FIRST_USE; k++) {
		size_t i = (r->first + k) % FIRST_USE;
		char *got = run_one(r->ctx, NULL, first_use[i]);

		if (!got || strcmp(got, r->expected[i]) != 0)
			r->mismatches++;
		free(got);
	}
	return NULL;
}

/*
 * A fresh context checked from 8 threads at once: they race to compile
 * the schemas it builds at first use, and must all get the serial run's
 * results (from another context).
 */
Test(threads, first_use_of_a_fresh_context, .timeout = 120)
{
	struct smp_context *ref = NULL, *ctx = NULL;
	struct first_use_run r[THREADS];
	char *expected[FIRST_USE];
	struct smp_error err = {0};
	size_t i;
	int t;

	cr_assert_eq(smp_context_new(&ref, NULL, &err), 0, "%s", err.message);
	for (i = 0; i < FIRST_USE; i++) {
		expected[i] = run_one(ref, NULL, first_use[i]);
		cr_assert_not_null(expected[i]);
	}
	smp_context_free(ref);
	cr_assert_eq(smp_context_new(&ctx, NULL, &err), 0, "%s", err.message);
	for (t = 0; t < THREADS; t++) {
		memset(&r[t], 0, sizeof(r[t]));
		r[t].ctx = ctx;
		r[t].expected = expected;
		r[t].first = (size_t)t % FIRST_USE;
		cr_assert_eq(
			pthread_create(&r[t].tid, NULL, first_use_work, &r[t]),
			0);
	}
	for (t = 0; t < THREADS; t++) {
		cr_assert_eq(pthread_join(r[t].tid, NULL), 0);
		cr_expect_eq(r[t].mismatches, 0, "thread %d", t);
	}
	for (i = 0; i < FIRST_USE; i++)
		free(expected[i]);
	smp_context_free(ctx);
}

/*
 * Contexts are independent: threads each creating, using and freeing
 * their own context at the same time (no hidden shared state).
 */
static void *
own_context(void *arg)
{
	size_t *failures = arg;
	int k;

	for (k = 0; k < 4; k++) {
		struct smp_context *ctx = NULL;
		struct smp_report *rep = NULL;
		struct smp_error err = {0};

		if (smp_context_new(&ctx, NULL, &err) != 0) {
			(*failures)++;
			continue;
		}
		if (smp_check_file(&rep, ctx,
				   "examples/broken-gpu-num-devices.yaml",
				   &err) != 0 ||
		    smp_report_count(rep) == 0)
			(*failures)++;
		smp_report_free(rep);
		smp_context_free(ctx);
	}
	return NULL;
}

Test(threads, contexts_created_and_freed_concurrently, .timeout = 120)
{
	pthread_t tid[THREADS];
	size_t failures[THREADS] = {0};
	int t;

	for (t = 0; t < THREADS; t++)
		cr_assert_eq(pthread_create(&tid[t], NULL, own_context,
					    &failures[t]),
			     0);
	for (t = 0; t < THREADS; t++) {
		cr_assert_eq(pthread_join(tid[t], NULL), 0);
		cr_expect_eq(failures[t], 0, "thread %d", t);
	}
}

#ifdef SMP_TEST_STANDALONE
int
main(void)
{
	threads_one_context_eight_threads_match_serial_runs();
	threads_first_use_of_a_fresh_context();
	threads_contexts_created_and_freed_concurrently();
	fprintf(stderr, "test_threads: %s\n", sa_failed ? "FAILED" : "passed");
	return sa_failed;
}
#endif
