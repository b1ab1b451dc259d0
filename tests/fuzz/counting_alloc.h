/*
 * counting_alloc.h - the allocator of the fuzz targets: the malloc family
 * counting live blocks in the size_t its user data points at, so that a
 * leak aborts a run even without LeakSanitizer.
 */
#ifndef FUZZ_COUNTING_ALLOC_H
#define FUZZ_COUNTING_ALLOC_H

#include <stdlib.h>

static void *
f_malloc(void *ud, size_t size)
{
	void *p = malloc(size);

	if (p)
		++*(size_t *)ud;
	return p;
}

static void *
f_realloc(void *ud, void *ptr, size_t size)
{
	if (!ptr)
		return f_malloc(ud, size);
	return realloc(ptr, size);
}

static void
f_free(void *ud, void *ptr)
{
	if (ptr)
		--*(size_t *)ud;
	free(ptr);
}

#endif
