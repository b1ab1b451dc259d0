/*
 * error.h - the one setter of struct smp_error (as jansson's
 * jsonp_error_set): code, source, position and message in one call.
 */
#ifndef SMP_ERROR_H
#define SMP_ERROR_H

#include <stdarg.h>

#include "smpreflight.h"
#include "util/pos.h"

/*
 * Empties err (when not NULL) for a new call: every public function that
 * takes a struct smp_error calls it first, so that the setter below can
 * keep the first error of the call.
 */
void smp__error_clear(struct smp_error *err);

/*
 * Fills err, when not NULL and still empty (the first error wins, as in
 * jansson): code, source (NULL: empty), the line, column
 * and offset of at (NULL: unknown, all 0) and the formatted message, each
 * truncated to fit (a long source keeps its tail behind "..."). Returns code,
 * so that a caller can return its result.
 */
int smp__error_set(struct smp_error *err, int code, const char *source,
		   const struct smp_pos *at, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* The same with a va_list. */
int smp__error_setv(struct smp_error *err, int code, const char *source,
		    const struct smp_pos *at, const char *fmt, va_list ap)
	__attribute__((format(printf, 5, 0)));

/* smp__error_set() at a line and column (offset 0) with a fixed
 * message, as the data-file loaders report. Returns code. */
int smp__error_at(struct smp_error *err, int code, const char *source,
		  uint32_t line, uint32_t column, const char *message);

/* A position from a line and column only (offset 0), for smp__error_set. */
struct smp_pos smp__pos_make(uint32_t line, uint32_t column);

#endif
