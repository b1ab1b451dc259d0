/* path.h - the library's one path join */
#ifndef SMP_PATH_H
#define SMP_PATH_H

#include <stddef.h>

/*
 * Appends the path part to out (n bytes, *len used, NUL-terminated),
 * with one '/' between it and what is there: its "./" prefixes and
 * trailing '/'s are dropped, and "" or "." adds nothing. 0, or -1 when
 * out is too small (out then holds what fitted before the part).
 */
int smp__path_append(char *out, size_t n, size_t *len, const char *part);

#endif
