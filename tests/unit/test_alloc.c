/*
 * test_alloc.c - the one array growth policy: smp__grow() on the heap and
 * smp__arena_grow() in an arena double the same way, keep the elements,
 * refuse an overflowing size and leave the array as it was on failure.
 */
#include <criterion/criterion.h>
#include <stdint.h>

#include "failing_alloc.h"
#include "util/alloc.h"
#include "util/arena.h"

static struct failing_alloc counter = FA_INIT;
static const struct smp_allocator alloc = {fa_malloc, fa_realloc, fa_free,
					   &counter};

Test(alloc, grow_cap_doubles_and_refuses_overflow)
{
	size_t cap = 0;

	cr_expect_eq(smp__grow_cap(&cap, 0, 1, 4), 0);
	cr_expect_eq(cap, 8);
	cr_expect_eq(smp__grow_cap(&cap, 8, 9, 4), 0);
	cr_expect_eq(cap, 16);
	cr_expect_eq(smp__grow_cap(&cap, 16, 100, 4), 0);
	cr_expect_eq(cap, 128);
	cr_expect_eq(smp__grow_cap(&cap, 8, SIZE_MAX / 2, 16), SMP_ENOMEM);
}

Test(alloc, arena_grow_keeps_the_elements)
{
	struct smp_arena arena;
	void *items = NULL;
	int *v;
	size_t cap = 0, i;

	smp__arena_init(&arena, &alloc);
	for (i = 0; i < 100; i++) {
		cr_assert_eq(smp__arena_grow(&arena, &items, &cap, i + 1,
					     sizeof(int)),
			     0);
		v = items;
		v[i] = (int)i;
	}
	cr_expect_eq(cap, 128);
	for (i = 0; i < 100; i++)
		cr_expect_eq(v[i], (int)i);
	smp__arena_release(&arena);
	cr_expect_eq(counter.live, 0);
}

Test(alloc, arena_grow_failure_leaves_the_array)
{
	struct smp_arena arena;
	int first[8] = {7};
	void *items = first;
	size_t cap = 8;

	smp__arena_init(&arena, &alloc);
	fa_arm(&counter, 0); /* the next allocation fails */
	cr_expect_eq(smp__arena_grow(&arena, &items, &cap, 9, sizeof(int)),
		     SMP_ENOMEM);
	cr_expect_eq(items, (void *)first);
	cr_expect_eq(cap, 8);
	smp__arena_release(&arena);
	fa_init(&counter, FA_NEVER);
}
