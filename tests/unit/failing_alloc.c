/*
 * failing_alloc.c - the allocator of the out-of-memory tests; see
 * failing_alloc.h. Not a test file: it defines no Criterion tests.
 */
#include <stdlib.h>
#include <string.h>

#include "failing_alloc.h"

/* Counts the call and says whether it is the one (or, sticky, one of
 * those) to fail. */
static int
should_fail(struct failing_alloc *fa)
{
	long call = fa->calls++;

	if (fa->fail_at < 0)
		return 0;
	if (call == fa->fail_at || (fa->sticky && call > fa->fail_at)) {
		fa->failed = 1;
		return 1;
	}
	return 0;
}

/* Zero counts: a test starts each run from a clean slate. */
void
fa_init(struct failing_alloc *fa, long fail_at)
{
	memset(fa, 0, sizeof(*fa));
	fa->fail_at = fail_at;
}

/* Live blocks survive: a test arms around one call on a long-lived
 * context and compares live with what the context holds. */
void
fa_arm(struct failing_alloc *fa, long fail_at)
{
	fa->calls = 0;
	fa->failed = 0;
	fa->fail_at = fail_at;
}

/* By value: the library copies the hooks into the context. */
struct smp_allocator
fa_allocator(struct failing_alloc *fa)
{
	struct smp_allocator a = {fa_malloc, fa_realloc, fa_free, fa};

	return a;
}

/* Counts a block only when one was returned. */
void *
fa_malloc(void *ud, size_t size)
{
	struct failing_alloc *fa = ud;
	void *p;

	if (should_fail(fa))
		return NULL;
	p = malloc(size);
	if (p)
		fa->live++;
	return p;
}

/* realloc(NULL, n) makes a block; a failed realloc leaves ptr live. */
void *
fa_realloc(void *ud, void *ptr, size_t size)
{
	struct failing_alloc *fa = ud;
	void *p;

	if (should_fail(fa))
		return NULL;
	p = realloc(ptr, size);
	if (p && !ptr)
		fa->live++;
	return p;
}

/* free(NULL) is no block. */
void
fa_free(void *ud, void *ptr)
{
	struct failing_alloc *fa = ud;

	if (ptr)
		fa->live--;
	free(ptr);
}
