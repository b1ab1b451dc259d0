/*
 * output.h - where the CLI writes: findings and listings to stdout
 * through a smp_write_fn, messages to stderr as "sm-preflight: ...",
 * and whether colour is on.
 */
#ifndef CLI_OUTPUT_H
#define CLI_OUTPUT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

enum cli_color { CLI_COLOR_AUTO, CLI_COLOR_ALWAYS, CLI_COLOR_NEVER };

/* A smp_write_fn writing to stdout; ud is unused. */
int cli_stdout_write(void *ud, const char *data, size_t len);

/*
 * 1 when output to stdout should be coloured: always, never, or (auto)
 * never when NO_COLOR is set and not empty (https://no-color.org), else
 * always when FORCE_COLOR is set and not empty (https://force-color.org)
 * or CLICOLOR_FORCE is set and not "0" (https://bixense.com/clicolors),
 * else when stdout is a terminal and TERM is not "dumb".
 */
int cli_use_color(enum cli_color mode);

/*
 * Prints "sm-preflight: MESSAGE\n" to stderr, after flushing stdout so
 * that the two streams interleave in order when both go to one place.
 */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_verror(const char *fmt, va_list ap)
	__attribute__((format(printf, 1, 0)));

/*
 * Writes text to f word-wrapped at 79 columns, continuation lines
 * indented by indent; col is the column the cursor is at now. A '\n' in
 * text starts a new line. Ends with a newline.
 */
void cli_wrap(FILE *f, const char *text, size_t indent, size_t col);

/*
 * s made safe to print from untrusted data (a downloaded data file, a
 * server's error): control characters and DEL become \xNN, so no
 * terminal escape, carriage return or "::error::" line can be injected;
 * cut with "..." when it does not fit. Returns buf.
 */
const char *cli_printable(char *buf, size_t size, const char *s);

#endif
