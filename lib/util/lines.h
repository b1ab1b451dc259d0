/*
 * lines.h - a line index of one buffer, built once: where each line
 * starts, so that a finding's line is found in O(log n) instead of a scan
 * from the start of the buffer per finding. Lines end as smp__pos_at()
 * counts them: at '\n', at a lone '\r', and once at "\r\n".
 */
#ifndef SMP_LINES_H
#define SMP_LINES_H

#include <stddef.h>
#include <stdint.h>

#include "util/alloc.h"

struct smp_lines {
	const char *buf;
	size_t len;
	/* start[i] is the offset of line i + 1; offsets fit 32 bits (a
	 * buffer over 4 GiB gets no index and falls back to scanning) */
	uint32_t *start;
	size_t count;
	unsigned lookups; /* smp__lines_start() calls so far */
	/* the last line a scan found (0: none) and where it starts: a scan
	 * for a later line goes on from there */
	uint32_t near_line;
	size_t near_start;
	int built;  /* 1 once smp__lines_build() ran for buf */
	int failed; /* the build ran out of memory */
};

/* Lookups answered by a scan before the index is built: a small file
 * with a few findings never needs one. */
#define SMP_LINES_SCANS 4

/* An empty index over buf[0..len); nothing is allocated yet. */
void smp__lines_init(struct smp_lines *l, const char *buf, size_t len);

/* Builds the index. Returns 0 or SMP_ENOMEM (then `failed` is set and
 * smp__lines_start() scans). */
int smp__lines_build(struct smp_lines *l, const struct smp_allocator *a);

/*
 * Byte offset where line (1-based) starts, or len when past the end. The
 * first SMP_LINES_SCANS lookups scan; the next builds the index (with a;
 * NULL a never builds).
 */
size_t smp__lines_start(struct smp_lines *l, const struct smp_allocator *a,
			uint32_t line);

void smp__lines_release(struct smp_lines *l, const struct smp_allocator *a);

#endif
