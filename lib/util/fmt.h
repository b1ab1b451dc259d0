/*
 * fmt.h - snprintf for the formats findings and hints use: %s, %.*s, %c,
 * %d, %u, %ld, %lu, %lld, %llu, %zu and %% are formatted here, at a
 * fraction of the C library's cost; any other conversion (flags, widths,
 * floating point) goes to vsnprintf, so the output is always the same.
 */
#ifndef SMP_FMT_H
#define SMP_FMT_H

#include <stdarg.h>
#include <stddef.h>

/* As vsnprintf: writes at most size bytes (NUL included) and returns the
 * length the whole text has, or a negative value on an encoding error. */
int smp__vfmt(char *out, size_t size, const char *fmt, va_list ap);

/* As snprintf, through smp__vfmt. */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
int
smp__fmt(char *out, size_t size, const char *fmt, ...);

#endif
