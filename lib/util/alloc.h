/* alloc.h - the context's allocator, wrapped so callers never test hooks */
#ifndef SMP_ALLOC_H
#define SMP_ALLOC_H

#include "smpreflight.h"

/* Resolves NULL to the malloc family; copied by value into the context.
 * SMP_EINVAL (out holding the malloc family) for a non-NULL in without all
 * three hooks: a half-filled allocator is refused, not replaced. */
int smp__allocator_resolve(struct smp_allocator *out,
			   const struct smp_allocator *in);

void *smp__malloc(const struct smp_allocator *a, size_t size);
void *smp__calloc(const struct smp_allocator *a, size_t n, size_t size);
void *smp__realloc(const struct smp_allocator *a, void *ptr, size_t size);
void smp__free(const struct smp_allocator *a, void *ptr);
char *smp__strndup(const struct smp_allocator *a, const char *s, size_t n);

/*
 * The capacity an array of cap elements of elem_size grows to so that it
 * holds need: doubled from cap (8 for an empty one) until it does, into
 * *out. 0, or SMP_ENOMEM when the size would overflow. The one growth
 * policy of smp__grow() and smp__arena_grow().
 */
int smp__grow_cap(size_t *out, size_t cap, size_t need, size_t elem_size);

/*
 * Grows a dynamic array *items of *cap elements of elem_size so that it
 * holds at least need elements. Returns 0 or SMP_ENOMEM (array unchanged).
 */
int smp__grow(const struct smp_allocator *a, void **items, size_t *cap,
	      size_t need, size_t elem_size);

#endif
