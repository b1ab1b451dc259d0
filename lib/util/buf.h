/*
 * buf.h - the library's one byte buffer (after curl's dynbuf): text or
 * bytes appended piece by piece, NUL-terminated after every append, with
 * a longest length, and a failure that is sticky, so that a builder
 * appends without testing each call and looks at the flags once.
 *
 * Two kinds of storage:
 *  - smp__buf_init(): memory from the allocator hooks, grown by doubling
 *    up to max bytes of content; smp__buf_free() releases it.
 *  - smp__buf_init_fixed(): the caller's array, which never grows (for a
 *    message of bounded length: nothing is allocated, nothing can run out
 *    of memory); smp__buf_free() is a no-op for it.
 *
 * An append that would pass max (or the fixed array) keeps the prefix
 * that fits, sets cut and returns SMP_ELIMIT; one that cannot allocate
 * keeps the content as it was, sets oom and returns SMP_ENOMEM. After
 * either, every append is a no-op that returns the same code, until
 * smp__buf_reset().
 */
#ifndef SMP_BUF_H
#define SMP_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include "util/alloc.h"

struct smp_buf {
	char *data; /* the content and its NUL; NULL (heap) before any byte */
	size_t len; /* bytes of content */
	size_t cap; /* bytes at data */
	size_t lim; /* cap, or len once failed: the fast path's bound */
	size_t max; /* longest content */
	const struct smp_allocator *alloc; /* NULL: fixed storage */
	unsigned char oom;                 /* an allocation failed */
	unsigned char cut; /* an append passed max: data holds a prefix */
};

/* No limit on the length but memory's. */
#define SMP_BUF_NO_MAX ((size_t)-2)

/* An empty buffer over the allocator a, holding at most max bytes. */
void smp__buf_init(struct smp_buf *b, const struct smp_allocator *a,
		   size_t max);

/* An empty buffer over the caller's mem[0..size) (size >= 1): at most
 * size - 1 bytes of content. */
void smp__buf_init_fixed(struct smp_buf *b, char *mem, size_t size);

/* Appends p[0..n); 0, SMP_ELIMIT or SMP_ENOMEM (see above). */
int smp__buf_add_slow(struct smp_buf *b, const void *p, size_t n);

static inline int
smp__buf_add(struct smp_buf *b, const void *p, size_t n)
{
	/* the common case: it fits, and the buffer has not failed (lim is
	 * len once it failed, leaving no room) */
	if (n < b->lim - b->len) {
		memcpy(b->data + b->len, p, n);
		b->len += n;
		b->data[b->len] = '\0';
		return 0;
	}
	return smp__buf_add_slow(b, p, n);
}

/* Appends the string s. */
static inline int
smp__buf_adds(struct smp_buf *b, const char *s)
{
	return smp__buf_add(b, s, strlen(s));
}

/* Appends one byte. */
static inline int
smp__buf_addc(struct smp_buf *b, char c)
{
	return smp__buf_add(b, &c, 1);
}

/* Appends printf output; what passes max is cut as by smp__buf_add(). */
int smp__buf_addf(struct smp_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
int smp__buf_vaddf(struct smp_buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/* Empties the buffer and clears its flags; the memory is kept. */
void smp__buf_reset(struct smp_buf *b);

/* Releases the memory (not a fixed array's); the buffer is empty after,
 * its flags cleared, and it may be used again. */
void smp__buf_free(struct smp_buf *b);

/* The content, NUL-terminated; "" when empty. Borrowed. */
static inline const char *
smp__buf_str(const struct smp_buf *b)
{
	return b->data ? b->data : "";
}

/* Bytes that can be appended now without growing or failing. */
static inline size_t
smp__buf_room(const struct smp_buf *b)
{
	return b->lim > b->len ? b->lim - b->len - 1 : 0;
}

/* 0, or the sticky failure: SMP_ENOMEM or SMP_ELIMIT. */
int smp__buf_error(const struct smp_buf *b);

/*
 * Hands the allocated content to the caller (free it with smp__free() and
 * the buffer's allocator) and empties the buffer. NULL after a failure,
 * the buffer then freed, or for fixed storage; an empty buffer gives an
 * allocated "" (NULL if that fails). *len (may be NULL) gets the length.
 */
char *smp__buf_take(struct smp_buf *b, size_t *len);

/*
 * The library's one JSON string writer (RFC 8259): the body of s (without
 * quotes) in pieces handed to put(ud, p, n): runs of plain bytes as they
 * are, '"' and '\\' escaped, the short escapes for \b \f \n \r \t,
 * other control characters and U+2028/U+2029 as \u00XX (a JavaScript
 * reader takes the latter for line ends), and an invalid UTF-8 sequence as
 * U+FFFD, so that what is written is always valid JSON.
 */
void smp__json_escape(const char *s,
		      void (*put)(void *ud, const char *p, size_t n), void *ud);

/* Appends s as a quoted JSON string (smp__json_escape), or null for NULL. */
void smp__buf_json_string(struct smp_buf *b, const char *s);

#endif
