/*
 * arena.h - one arena per parsed document: nodes,
 * strings and findings' text come from it and go with one release.
 */
#ifndef SMP_ARENA_H
#define SMP_ARENA_H

#include <stdarg.h>
#include <stddef.h>

#include "util/alloc.h"

struct smp_arena_chunk;

struct smp_arena {
	const struct smp_allocator *alloc;
	struct smp_arena_chunk *head;
	size_t used;  /* bytes used in head */
	size_t size;  /* capacity of head */
	size_t total; /* bytes handed out, for limits and benchmarks */
};

void smp__arena_init(struct smp_arena *arena, const struct smp_allocator *a);

/* Frees every chunk; the arena may be used again afterwards. */
void smp__arena_release(struct smp_arena *arena);

/* Max-aligned, uninitialised memory, or NULL when out of memory. */
void *smp__arena_alloc(struct smp_arena *arena, size_t size);

/* Zeroed memory. */
void *smp__arena_zalloc(struct smp_arena *arena, size_t size);

/* A NUL-terminated copy of s[0..n). */
/*
 * smp__grow() for an array in the arena: a larger block holding a copy of
 * the *cap elements (the old block stays until the arena goes). 0, or
 * SMP_ENOMEM with the array unchanged.
 */
int smp__arena_grow(struct smp_arena *arena, void **items, size_t *cap,
		    size_t need, size_t elem_size);

char *smp__arena_strndup(struct smp_arena *arena, const char *s, size_t n);

/* printf into the arena. */
char *smp__arena_printf(struct smp_arena *arena, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The same with a va_list (ap is used up). */
char *smp__arena_vprintf(struct smp_arena *arena, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

#endif
