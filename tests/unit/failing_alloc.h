/*
 * failing_alloc.h - the allocator of the out-of-memory tests: it fails
 * the Nth malloc or realloc call (0-based), or never, and counts calls and live
 * blocks, so that a test can loop N = 0, 1, 2 ... asserting SMP_ENOMEM and
 * nothing leaked each time. Linked into the unit-test binary with the test
 * files; no tests here.
 */
#ifndef FAILING_ALLOC_H
#define FAILING_ALLOC_H

#include <stddef.h>

#include "smpreflight.h"

/* The fail_at of an allocator that never fails. */
#define FA_NEVER (-1L)

/* An allocator that never fails, with every count at zero. */
#define FA_INIT                                                                \
	{                                                                      \
		.fail_at = FA_NEVER                                            \
	}

struct failing_alloc {
	long fail_at; /* the malloc/realloc call that fails, 0-based;
			 negative (FA_NEVER): none */
	long calls;   /* malloc and realloc calls, the failed ones included */
	long live;    /* blocks allocated and not freed: realloc(NULL, n)
			 is a new block, a failed realloc keeps its block */
	int failed;   /* a call failed since fa_init() or fa_arm() */
	int sticky;   /* fail every call from fail_at on, not only that one */
};

/* Sets every count to zero and fails call fail_at (not sticky). */
void fa_init(struct failing_alloc *fa, long fail_at);

/* Fails call fail_at counting from now (calls and failed restart at zero);
 * live blocks stay counted. */
void fa_arm(struct failing_alloc *fa, long fail_at);

/* The hooks, with fa as their user data, for smp_options.allocator. */
struct smp_allocator fa_allocator(struct failing_alloc *fa);

/* The hooks themselves, for a constant struct smp_allocator. */
void *fa_malloc(void *ud, size_t size);
void *fa_realloc(void *ud, void *ptr, size_t size);
void fa_free(void *ud, void *ptr);

#endif
