/* alloc.c - allocator hooks; the default is the C library's malloc family */
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"

static void *
default_malloc(void *ud, size_t size)
{
	(void)ud;
	return malloc(size);
}

static void *
default_realloc(void *ud, void *ptr, size_t size)
{
	(void)ud;
	return realloc(ptr, size);
}

static void
default_free(void *ud, void *ptr)
{
	(void)ud;
	free(ptr);
}

int
smp__allocator_resolve(struct smp_allocator *out,
		       const struct smp_allocator *in)
{
	if (in && in->malloc_fn && in->realloc_fn && in->free_fn) {
		*out = *in;
		return 0;
	}
	out->malloc_fn = default_malloc;
	out->realloc_fn = default_realloc;
	out->free_fn = default_free;
	out->ud = NULL;
	return in ? SMP_EINVAL : 0; /* half-filled: refused */
}

void *
smp__malloc(const struct smp_allocator *a, size_t size)
{
	return a->malloc_fn(a->ud, size ? size : 1);
}

void *
smp__calloc(const struct smp_allocator *a, size_t n, size_t size)
{
	void *p;

	if (size && n > SIZE_MAX / size)
		return NULL;
	p = smp__malloc(a, n * size);
	if (p)
		memset(p, 0, n * size);
	return p;
}

void *
smp__realloc(const struct smp_allocator *a, void *ptr, size_t size)
{
	return a->realloc_fn(a->ud, ptr, size ? size : 1);
}

void
smp__free(const struct smp_allocator *a, void *ptr)
{
	if (ptr)
		a->free_fn(a->ud, ptr);
}

char *
smp__strndup(const struct smp_allocator *a, const char *s, size_t n)
{
	char *p = smp__malloc(a, n + 1);

	if (!p)
		return NULL;
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

int
smp__grow_cap(size_t *out, size_t cap, size_t need, size_t elem_size)
{
	size_t ncap = cap ? cap : 8;

	while (ncap < need) {
		if (ncap > SIZE_MAX / 2 / elem_size)
			return SMP_ENOMEM;
		ncap *= 2;
	}
	*out = ncap;
	return 0;
}

int
smp__grow(const struct smp_allocator *a, void **items, size_t *cap, size_t need,
	  size_t elem_size)
{
	size_t ncap;
	void *p;

	if (need <= *cap)
		return 0;
	if (smp__grow_cap(&ncap, *cap, need, elem_size))
		return SMP_ENOMEM;
	p = smp__realloc(a, *items, ncap * elem_size);
	if (!p)
		return SMP_ENOMEM;
	*items = p;
	*cap = ncap;
	return 0;
}
