/* output.c - stdout sink, stderr messages, the colour decision */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "output.h"

int
cli_stdout_write(void *ud, const char *data, size_t len)
{
	(void)ud;
	return fwrite(data, 1, len, stdout) == len ? 0 : -1;
}

int
cli_use_color(enum cli_color mode)
{
	const char *no_color, *term;

	if (mode != CLI_COLOR_AUTO)
		return mode == CLI_COLOR_ALWAYS;
	if (!isatty(STDOUT_FILENO))
		return 0;
	no_color = getenv("NO_COLOR");
	if (no_color && no_color[0])
		return 0;
	term = getenv("TERM");
	return !(term && strcmp(term, "dumb") == 0);
}

void
cli_verror(const char *fmt, va_list ap)
{
	fflush(stdout);
	fputs("sm-preflight: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void
cli_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_verror(fmt, ap);
	va_end(ap);
}

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
