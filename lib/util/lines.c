/* lines.c - the line index of one buffer (see lines.h) */
#include <string.h>

#include "util/lines.h"
#include "util/pos.h"

void
smp__lines_init(struct smp_lines *l, const char *buf, size_t len)
{
	memset(l, 0, sizeof(*l));
	l->buf = buf;
	l->len = len;
}

/* Adds a line start; 0 or SMP_ENOMEM. */
static int
push(struct smp_lines *l, const struct smp_allocator *a, size_t *cap,
     size_t off)
{
	if (l->count == *cap) {
		void *items = l->start;

		if (smp__grow(a, &items, cap, l->count + 1, sizeof(*l->start)))
			return SMP_ENOMEM;
		l->start = items;
	}
	l->start[l->count++] = (uint32_t)off;
	return 0;
}

int
smp__lines_build(struct smp_lines *l, const struct smp_allocator *a)
{
	const char *buf = l->buf, *p;
	size_t len = l->len, cap = 0, i = 0;
	int has_cr;

	l->built = 1;
	if (len > UINT32_MAX)
		return 0; /* no index: smp__lines_start() scans */
	/* no '\r' looked for line by line in a text without one */
	has_cr = memchr(buf, '\r', len) != NULL;
	if (push(l, a, &cap, 0))
		goto oom;
	while (i < len) {
		/* the next '\n' or '\r': memchr for the common case */
		p = memchr(buf + i, '\n', len - i);
		if (has_cr) {
			const char *cr = memchr(
				buf + i, '\r',
				(size_t)((p ? p : buf + len) - (buf + i)));

			if (cr) {
				i = (size_t)(cr - buf) + 1;
				if (i < len && buf[i] == '\n')
					i++;
				if (push(l, a, &cap, i))
					goto oom;
				continue;
			}
		}
		if (!p)
			break;
		i = (size_t)(p - buf) + 1;
		if (push(l, a, &cap, i))
			goto oom;
	}
	return 0;
oom:
	smp__free(a, l->start);
	l->start = NULL;
	l->count = 0;
	l->failed = 1;
	return SMP_ENOMEM;
}

size_t
smp__lines_start(struct smp_lines *l, const struct smp_allocator *a,
		 uint32_t line)
{
	if (!l->built && a && ++l->lookups > SMP_LINES_SCANS)
		(void)smp__lines_build(l, a);
	if (!l->start) {
		size_t s;

		/* from a line start on, lines count as from the buffer's */
		if (l->near_line && line >= l->near_line)
			s = l->near_start +
			    smp__line_start(l->buf + l->near_start,
					    l->len - l->near_start,
					    line - l->near_line + 1);
		else
			s = smp__line_start(l->buf, l->len, line);
		if (line && s < l->len) {
			l->near_line = line;
			l->near_start = s;
		}
		return s;
	}
	if (line == 0 || line > l->count)
		return l->len;
	return l->start[line - 1];
}

void
smp__lines_release(struct smp_lines *l, const struct smp_allocator *a)
{
	smp__free(a, l->start);
	smp__lines_init(l, NULL, 0);
}
