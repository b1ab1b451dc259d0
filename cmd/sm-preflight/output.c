/* output.c - stdout sink, stderr messages, the colour decision */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output.h"

/* stdout is block-buffered when redirected: one fwrite per piece. */
int
cli_stdout_write(void *ud, const char *data, size_t len)
{
	(void)ud;
	return fwrite(data, 1, len, stdout) == len ? 0 : -1;
}

/* The variables only matter in auto mode; NO_COLOR wins. */
int
cli_use_color(enum cli_color mode)
{
	const char *no_color, *force, *clicolor, *term;

	if (mode != CLI_COLOR_AUTO)
		return mode == CLI_COLOR_ALWAYS;
	no_color = getenv("NO_COLOR");
	if (no_color && no_color[0])
		return 0;
	force = getenv("FORCE_COLOR");
	clicolor = getenv("CLICOLOR_FORCE");
	if ((force && force[0]) ||
	    (clicolor && clicolor[0] && strcmp(clicolor, "0") != 0))
		return 1;
	if (!isatty(STDOUT_FILENO))
		return 0;
	term = getenv("TERM");
	return !(term && strcmp(term, "dumb") == 0);
}

/* Flushes stdout first so findings and messages stay in order. */
void
cli_verror(const char *fmt, va_list ap)
{
	fflush(stdout);
	fputs("sm-preflight: ", stderr);
	vfprintf(stderr, fmt, ap); /* NOLINT(clang-analyzer-valist.*) */
	fputc('\n', stderr);
}

/* The printf-style form of cli_verror(). */
void
cli_error(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("sm-preflight: ", stderr);
	va_start(ap, fmt);
	/* clang-tidy 14 reports a false "uninitialized va_list" here when it
	 * analyses several files in one run */
	vfprintf(stderr, fmt, ap); /* NOLINT(clang-analyzer-valist.*) */
	va_end(ap);
	fputc('\n', stderr);
}

/* Greedy word wrap; a word longer than the line is not split. */
void
cli_wrap(FILE *f, const char *text, size_t indent, size_t col)
{
	const size_t width = 79;
	const char *s = text;
	int fresh = 1; /* nothing written on this line yet */

	while (*s) {
		size_t n;

		if (*s == '\n' || *s == ' ') {
			if (*s == '\n') {
				fputc('\n', f);
				col = 0;
				fresh = 1;
			}
			s++;
			continue;
		}
		n = strcspn(s, " \n");
		if (!fresh && col + 1 + n > width) {
			fputc('\n', f);
			col = 0;
			fresh = 1;
		}
		if (!fresh) {
			fputc(' ', f);
			col++;
		} else if (col < indent) {
			fprintf(f, "%*s", (int)(indent - col), "");
			col = indent;
		}
		fwrite(s, 1, n, f);
		col += n;
		fresh = 0;
		s += n;
	}
	fputc('\n', f);
}

/* See output.h. */
const char *
cli_printable(char *buf, size_t size, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0;

	if (size < 8) {
		if (size)
			buf[0] = '\0';
		return buf;
	}
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;
		int esc = c < 0x20 || c == 0x7f;

		if (n + (esc ? 4 : 1) + 4 > size) {
			memcpy(buf + n, "...", 3); /* room kept for it */
			n += 3;
			break;
		}
		if (esc) {
			buf[n++] = '\\';
			buf[n++] = 'x';
			buf[n++] = hex[c >> 4];
			buf[n++] = hex[c & 15];
		} else {
			buf[n++] = (char)c;
		}
	}
	buf[n] = '\0';
	return buf;
}
