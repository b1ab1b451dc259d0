/*
 * arena.c - bump allocator in growing chunks. Built with SMP_ARENA_DEBUG
 * (make asan) each allocation is its own chunk, so ASan sees overflows.
 */
#include <stdarg.h>
#include <string.h>

#include "util/arena.h"
#include "util/fmt.h"

struct smp_arena_chunk {
	struct smp_arena_chunk *next;
	max_align_t data[];
};

#define ARENA_MIN_CHUNK 4096u
#define ALIGN (sizeof(max_align_t))

void
smp__arena_init(struct smp_arena *arena, const struct smp_allocator *a)
{
	memset(arena, 0, sizeof(*arena));
	arena->alloc = a;
}

void
smp__arena_release(struct smp_arena *arena)
{
	struct smp_arena_chunk *c = arena->head, *next;

	while (c) {
		next = c->next;
		smp__free(arena->alloc, c);
		c = next;
	}
	arena->head = NULL;
	arena->used = arena->size = arena->total = 0;
}

void *
smp__arena_alloc(struct smp_arena *arena, size_t size)
{
	struct smp_arena_chunk *c;
	size_t csize;

	if (size > SIZE_MAX - 2 * ALIGN - sizeof(*c))
		return NULL;
	size = (size + ALIGN - 1) & ~(ALIGN - 1);
#ifndef SMP_ARENA_DEBUG
	if (arena->head && arena->size - arena->used >= size) {
		void *p = (char *)arena->head->data + arena->used;

		arena->used += size;
		arena->total += size;
		return p;
	}
	csize = size > ARENA_MIN_CHUNK ? size : ARENA_MIN_CHUNK;
	/* grow chunks with the arena so big documents need few mallocs */
	if (arena->size * 2 > csize && arena->size < (1u << 20))
		csize = arena->size * 2;
#else
	csize = size;
#endif
	c = smp__malloc(arena->alloc, sizeof(*c) + csize);
	if (!c)
		return NULL;
	c->next = arena->head;
	arena->head = c;
	arena->size = csize;
	arena->used = size;
	arena->total += size;
	return c->data;
}

void *
smp__arena_zalloc(struct smp_arena *arena, size_t size)
{
	void *p = smp__arena_alloc(arena, size);

	if (p)
		memset(p, 0, size);
	return p;
}

char *
smp__arena_strndup(struct smp_arena *arena, const char *s, size_t n)
{
	char *p;

	if (n == SIZE_MAX)
		return NULL;
	p = smp__arena_alloc(arena, n + 1);
	if (!p)
		return NULL;
	if (n)
		memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
smp__arena_vprintf(struct smp_arena *arena, const char *fmt, va_list ap)
{
	char first[512];
	va_list again;
	char *p;
	int n;

	/* the library's formatter, which writes what vsnprintf would at a
	 * fraction of its cost; once into the stack when the text fits */
	va_copy(again, ap);
	n = smp__vfmt(first, sizeof(first), fmt, again);
	va_end(again);
	if (n < 0)
		return NULL;
	p = smp__arena_alloc(arena, (size_t)n + 1);
	if (!p)
		return NULL;
	if ((size_t)n < sizeof(first))
		memcpy(p, first, (size_t)n + 1);
	else
		smp__vfmt(p, (size_t)n + 1, fmt, ap);
	return p;
}

char *
smp__arena_printf(struct smp_arena *arena, const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = smp__arena_vprintf(arena, fmt, ap);
	va_end(ap);
	return p;
}

int
smp__arena_grow(struct smp_arena *arena, void **items, size_t *cap, size_t need,
		size_t elem_size)
{
	size_t ncap;
	void *p;

	if (need <= *cap)
		return 0;
	if (smp__grow_cap(&ncap, *cap, need, elem_size))
		return SMP_ENOMEM;
	p = smp__arena_alloc(arena, ncap * elem_size);
	if (!p)
		return SMP_ENOMEM;
	if (*cap)
		memcpy(p, *items, *cap * elem_size);
	*items = p;
	*cap = ncap;
	return 0;
}
