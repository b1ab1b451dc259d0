/*
 * pos.h - positions in a buffer: the 1-based line and column (counted in
 * code points) and the byte offset of a character, and the line helpers
 * that map between them. Every stage that reports a place uses these.
 */
#ifndef SMP_POS_H
#define SMP_POS_H

#include <stddef.h>
#include <stdint.h>

struct smp_pos {
	uint32_t line;   /* 1-based */
	uint32_t column; /* 1-based, in characters */
	size_t offset;   /* byte offset into the buffer */
};

/* Line and column (1-based, counted in code points) of a byte offset. */
struct smp_pos smp__pos_at(const char *buf, size_t len, size_t offset);

/* Length in bytes of the line starting at buf[start] (without newline). */
size_t smp__line_len(const char *buf, size_t len, size_t start);

/* Byte offset where line (1-based) starts, or len when past the end. */
size_t smp__line_start(const char *buf, size_t len, unsigned line);

#endif
