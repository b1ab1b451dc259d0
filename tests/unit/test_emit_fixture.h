/*
 * test_emit_fixture.h - what the emitter tests share: a growing sink, a
 * context on a failing allocator (failing_alloc.h), hand-built
 * findings and reports (report.h is transparent inside the library), and
 * a helper that runs one emitter over a list of reports. Static inline,
 * so that each test file uses what it needs without warnings.
 */
#ifndef TEST_EMIT_FIXTURE_H
#define TEST_EMIT_FIXTURE_H

#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "failing_alloc.h"
#include "report/report.h"
#include "smpreflight.h"

struct fx_sink {
	char *buf;
	size_t len;
	size_t cap;
	size_t calls;
	size_t fail_at; /* 0: never fail */
};

static inline int
fx_write(void *ud, const char *data, size_t len)
{
	struct fx_sink *s = ud;

	s->calls++;
	if (s->fail_at && s->calls >= s->fail_at)
		return -1;
	if (s->len + len + 1 > s->cap) {
		size_t cap = (s->len + len + 1) * 2;
		char *p = realloc(s->buf, cap);

		cr_assert_not_null(p);
		s->buf = p;
		s->cap = cap;
	}
	memcpy(s->buf + s->len, data, len);
	s->len += len;
	s->buf[s->len] = '\0';
	return 0;
}

static inline void
fx_sink_free(struct fx_sink *s)
{
	free(s->buf);
	memset(s, 0, sizeof(*s));
}

/* A context with the default data and, when a is given, its allocator. */
static inline struct smp_context *
fx_context(struct failing_alloc *a)
{
	static struct smp_allocator hooks;
	struct smp_options opts = SMP_OPTIONS_INIT;
	struct smp_allocator *h = NULL;
	struct smp_context *ctx = NULL;
	struct smp_error err = {0};

	if (a) {
		/* per test: Criterion runs each test in its own process */
		hooks = fa_allocator(a);
		h = &hooks;
	}
	opts.allocator = h;
	memset(&err, 0, sizeof(err));
	cr_assert_eq(smp_context_new(&ctx, &opts, &err), 0, "%s", err.message);
	return ctx;
}

static inline struct smp_finding
fx_finding(const char *file, const char *rule, enum smp_severity sev,
	   const char *msg, uint32_t line, uint32_t col, uint32_t end_col)
{
	struct smp_finding f;

	memset(&f, 0, sizeof(f));
	f.file = file;
	f.rule = rule;
	f.severity = sev;
	f.message = msg;
	f.line = line;
	f.column = col;
	f.end_line = line;
	f.end_column = end_col;
	return f;
}

static inline struct smp_report
fx_report(const char *file, struct smp_finding *items, size_t n)
{
	struct smp_report r;

	memset(&r, 0, sizeof(r));
	r.file = file;
	r.items = items;
	r.count = n;
	return r;
}

/* Runs one emitter over reports[0..n) into s; the first non-zero status. */
static inline int
fx_emit(const struct smp_context *ctx, enum smp_format format,
	const struct smp_emitter_options *opts, const struct smp_report *reps,
	size_t n, struct fx_sink *s)
{
	struct smp_emitter *em = NULL;
	size_t i;
	int rc;

	rc = smp_emitter_new(&em, ctx, format, opts, fx_write, s);
	if (rc)
		return rc;
	for (i = 0; i < n && rc == 0; i++)
		rc = smp_emitter_add(em, &reps[i]);
	if (rc == 0)
		rc = smp_emitter_finish(em);
	smp_emitter_free(em);
	return rc;
}

#endif
