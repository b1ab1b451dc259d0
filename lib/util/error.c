/* error.c - filling a struct smp_error */
#include <stdio.h>
#include <string.h>

#include "util/error.h"

int
smp__error_setv(struct smp_error *err, int code, const char *source,
		const struct smp_pos *at, const char *fmt, va_list ap)
{
	if (!err)
		return code;
	memset(err, 0, sizeof(*err));
	err->code = code;
	snprintf(err->source, sizeof(err->source), "%s", source ? source : "");
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
