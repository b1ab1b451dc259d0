/* error.c - filling a struct smp_error */
#include <stdio.h>
#include <string.h>

#include "util/error.h"

void
smp__error_clear(struct smp_error *err)
{
	if (err)
		memset(err, 0, sizeof(*err));
}

/* A long source name keeps its tail, where the file's name is, behind
 * "..." (as jansson's jsonp_error_set does). */
static void
set_source(struct smp_error *err, const char *source)
{
	size_t n = source ? strlen(source) : 0, room = sizeof(err->source);

	if (n < room) {
		memcpy(err->source, source ? source : "", n + 1);
		return;
	}
	memcpy(err->source, "...", 3);
	memcpy(err->source + 3, source + n - (room - 4), room - 4);
	err->source[room - 1] = '\0';
}

int
smp__error_setv(struct smp_error *err, int code, const char *source,
		const struct smp_pos *at, const char *fmt, va_list ap)
{
	if (!err || err->code != 0)
		return code; /* the first error is the cause: keep it */
	memset(err, 0, sizeof(*err));
	err->code = code;
	set_source(err, source);
	if (at) {
		err->line = at->line;
		err->column = at->column;
		err->offset = at->offset;
	}
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	return code;
}

int
smp__error_set(struct smp_error *err, int code, const char *source,
	       const struct smp_pos *at, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	smp__error_setv(err, code, source, at, fmt, ap);
	va_end(ap);
	return code;
}

int
smp__error_at(struct smp_error *err, int code, const char *source,
	      uint32_t line, uint32_t column, const char *message)
{
	struct smp_pos at = smp__pos_make(line, column);

	return smp__error_set(err, code, source, &at, "%s", message);
}

struct smp_pos
smp__pos_make(uint32_t line, uint32_t column)
{
	struct smp_pos p;

	p.line = line;
	p.column = column;
	p.offset = 0;
	return p;
}
