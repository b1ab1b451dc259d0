/*
 * lsp_pos.c - positions. LSP counts a line's characters in UTF-16 code
 * units unless the client and server agreed on UTF-8 bytes (3.17
 * positionEncoding); findings count them in characters (code points).
 * Lines end at "\n" ("\r\n" keeps its "\r" out of the line). Text that is
 * not valid UTF-8 counts each bad byte as one character, as the library's
 * decoder does, so nothing here can run past the text.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsp.h"

/* The offset where line (0-based) starts, clamped to len. */
static size_t
line_start(const char *text, size_t len, uint32_t line)
{
	size_t i = 0;

	while (line > 0 && i < len) {
		const char *nl = memchr(text + i, '\n', len - i);

		if (!nl)
			return len;
		i = (size_t)(nl - text) + 1;
		line--;
	}
	return i;
}

/* The end of the line starting at i (before "\r\n" or "\n"). */
static size_t
line_end(const char *text, size_t len, size_t i)
{
	const char *nl = memchr(text + i, '\n', len - i);
	size_t e = nl ? (size_t)(nl - text) : len;

	if (e > i && text[e - 1] == '\r')
		e--;
	return e;
}

/* The length in bytes of the character at s[0..n) (1 for a bad byte) and
 * its UTF-16 length in *units. */
static size_t
char_len(const unsigned char *s, size_t n, uint32_t *units)
{
	size_t k = 1;

	*units = 1;
	if (s[0] >= 0xF0 && s[0] <= 0xF4)
		k = 4;
	else if (s[0] >= 0xE0)
		k = 3;
	else if (s[0] >= 0xC2 && s[0] < 0xE0)
		k = 2;
	else
		return 1;
	if (k > n)
		return 1;
	for (size_t j = 1; j < k; j++)
		if ((s[j] & 0xC0) != 0x80)
			return 1;
	if (k == 4)
		*units = 2; /* a surrogate pair */
	return k;
}

size_t
lsp_offset(const struct lsp_server *s, const char *text, size_t len,
	   struct lsp_position p)
{
	size_t i = line_start(text, len, p.line), e = line_end(text, len, i);
	uint32_t n = 0;

	if (s->enc == LSP_UTF8)
		return p.character < e - i ? i + p.character : e;
	while (i < e && n < p.character) {
		uint32_t u;

		i += char_len((const unsigned char *)text + i, e - i, &u);
		n += u;
	}
	return i;
}

struct lsp_position
lsp_position_at(const struct lsp_server *s, const char *text, size_t len,
		size_t off)
{
	struct lsp_position p = {0, 0};
	size_t i = 0, start = 0;

	if (off > len)
		off = len;
	while (i < off) {
		const char *nl = memchr(text + i, '\n', off - i);

		if (!nl)
			break;
		p.line++;
		i = start = (size_t)(nl - text) + 1;
	}
	if (s->enc == LSP_UTF8) {
		p.character = (uint32_t)(off - start);
		return p;
	}
	for (i = start; i < off;) {
		uint32_t u;

		i += char_len((const unsigned char *)text + i, off - i, &u);
		p.character += u;
	}
	return p;
}

struct lsp_position
lsp_position_chars(const struct lsp_server *s, const char *text, size_t len,
		   uint32_t line, uint32_t column)
{
	struct lsp_position p = {0, 0};
	size_t i, e;

	if (line == 0)
		return p;
	p.line = line - 1;
	i = line_start(text, len, p.line);
	e = line_end(text, len, i);
	while (i < e && column > 1) {
		uint32_t u;

		i += char_len((const unsigned char *)text + i, e - i, &u);
		p.character += s->enc == LSP_UTF8 ? 0 : u;
		column--;
	}
	if (s->enc == LSP_UTF8)
		p.character = (uint32_t)(i - line_start(text, len, p.line));
	/* a column past the line's end (the library's end of a line):
	 * the characters it counts past it, as the client clamps */
	p.character += column > 1 ? column - 1 : 0;
	return p;
}

void
lsp_buf_position(struct lsp_buf *b, struct lsp_position p)
{
	lsp_buf_printf(b, "{\"line\":%u,\"character\":%u}", (unsigned)p.line,
		       (unsigned)p.character);
}

void
lsp_buf_range(struct lsp_buf *b, struct lsp_position a, struct lsp_position z)
{
	lsp_buf_str(b, "{\"start\":");
	lsp_buf_position(b, a);
	lsp_buf_str(b, ",\"end\":");
	lsp_buf_position(b, z);
	lsp_buf_str(b, "}");
}

int
lsp_read_position(const struct smp_json_value *v, struct lsp_position *p)
{
	long line = lsp_int(v, "line", -1), ch = lsp_int(v, "character", -1);

	if (line < 0 || ch < 0)
		return -1;
	p->line = (uint32_t)line;
	p->character = (uint32_t)ch;
	return 0;
}

static int
hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

char *
lsp_uri_path(const char *uri)
{
	const char *p;
	char *out;
	size_t k = 0;

	if (strncmp(uri, "file://", 7) != 0)
		return NULL;
	p = uri + 7;
	if (*p != '/') { /* file://host/path: the host is dropped */
		p = strchr(p, '/');
		if (!p)
			return NULL;
	}
	out = calloc(strlen(p) + 1, 1);
	if (!out)
		return NULL;
	for (; *p && *p != '?' && *p != '#'; p++) {
		if (*p == '%' && hex(p[1]) >= 0 && hex(p[2]) >= 0) {
			out[k++] = (char)(hex(p[1]) * 16 + hex(p[2]));
			p += 2;
		} else {
			out[k++] = *p;
		}
	}
	return out;
}

void
lsp_buf_file_uri(struct lsp_buf *b, const char *path)
{
	static const char safe[] = "-._~/!$&'()*+,;=@";
	const unsigned char *p = (const unsigned char *)path;

	lsp_buf_str(b, "file://");
	for (; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr(safe, *p))
			lsp_buf_add(b, (const char *)p, 1);
		else
			lsp_buf_printf(b, "%%%02X", *p);
	}
}
