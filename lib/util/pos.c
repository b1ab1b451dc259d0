/* pos.c - byte offsets to line:column, and where lines start */
#include <string.h>

#include "util/pos.h"

struct smp_pos
smp__pos_at(const char *buf, size_t len, size_t offset)
{
	struct smp_pos p = {1, 1, offset};
	size_t i;

	if (offset > len)
		offset = len;
	p.offset = offset;
	for (i = 0; i < offset; i++) {
		unsigned char c = (unsigned char)buf[i];

		if (c == '\n') {
			p.line++;
			p.column = 1;
		} else if (c == '\r') {
			/* a lone CR ends a line too; CRLF counts once */
			if (i + 1 < len && buf[i + 1] == '\n')
				continue;
			p.line++;
			p.column = 1;
		} else if ((c & 0xC0) != 0x80) {
			p.column++;
		}
	}
	return p;
}

size_t
smp__line_len(const char *buf, size_t len, size_t start)
{
	const char *p = buf + start, *nl, *cr;
	size_t n;

	if (start >= len)
		return 0;
	/* memchr for the '\n', then for a '\r' before it */
	nl = memchr(p, '\n', len - start);
	n = nl ? (size_t)(nl - p) : len - start;
	cr = memchr(p, '\r', n);
	return cr ? (size_t)(cr - p) : n;
}

size_t
smp__line_start(const char *buf, size_t len, unsigned line)
{
	const char *nl;
	size_t i = 0;
	unsigned cur = 1;

	/* the common case, no '\r' up to there: line - 1 '\n' go before */
	while (cur < line && i < len && (nl = memchr(buf + i, '\n', len - i))) {
		i = (size_t)(nl - buf) + 1;
		cur++;
	}
	if (!memchr(buf, '\r', cur == line ? i : len))
		return cur == line ? i : len;
	i = 0;
	cur = 1;
	while (cur < line && i < len) {
		if (buf[i] == '\n' ||
		    (buf[i] == '\r' && !(i + 1 < len && buf[i + 1] == '\n')))
			cur++;
		i++;
	}
	return cur == line ? i : len;
}
