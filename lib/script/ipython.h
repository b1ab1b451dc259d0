/*
 * ipython.h - IPython syntax in a code cell, once, before the Python
 * model reads it. The pass turns the text of one cell into Python text of
 * the same length (every position kept): each IPython construct becomes
 * blanks (a no-op) or, where it is a value (x = !ls, x = %sx ls), the
 * name '_' that nothing binds, which the evaluator reads as unknown.
 * What a construct does for later cells is an event: %env sets a
 * variable, %%writefile defines a file. Nothing else in the cell changes.
 *
 * The constructs, as IPython's input transformers read them at the start
 * of a statement (not inside brackets or strings):
 *   - line magics (%pip install x, %cd, %matplotlib inline) and shell
 *     escapes (!cmd, !!cmd), with their backslash-continued lines;
 *   - x = !cmd and x = %magic: the value is unknown;
 *   - help: obj?, obj??, ?obj;
 *   - autocall: /f a b, ,f a b, ;f a b;
 *   - cell magics on the cell's first line: the bodies of %%time,
 *     %%timeit, %%capture and %%prun are Python; every other body
 *     (%%bash, %%sh, %%script, %%html, %%writefile, ...) is not.
 * The pass does not know about notebooks: a cell is just text.
 */
#ifndef SMP_IPYTHON_H
#define SMP_IPYTHON_H

#include <stddef.h>

#include "smpreflight.h"

enum smp_ipy_kind {
	SMP_IPY_ENV,      /* %env NAME=VALUE or %env NAME VALUE */
	SMP_IPY_WRITEFILE /* %%writefile [-a] PATH, then the body */
};

/* Offsets are into the text given to smp__ipython(). */
struct smp_ipy_event {
	enum smp_ipy_kind kind;
	size_t at;   /* the construct's first byte ('%') */
	size_t name; /* ENV: the variable; WRITEFILE: the path */
	size_t name_len;
	size_t value;     /* ENV: the value; WRITEFILE: the body (the */
	size_t value_len; /* lines after the magic's, to the cell's end) */
	int append;       /* WRITEFILE: -a / --append */
};

struct smp_ipy {
	const struct smp_allocator *alloc;
	struct smp_ipy_event *events; /* in the order of the text */
	size_t count, cap;
};

void smp__ipy_init(struct smp_ipy *ipy, const struct smp_allocator *alloc);
void smp__ipy_free(struct smp_ipy *ipy);

/*
 * Writes the Python text of the cell src[0..len) into out[0..len) (out
 * and src may not overlap) and appends the cell's events to ipy. Returns
 * 0, SMP_EINVAL for a NULL argument, or SMP_ENOMEM.
 */
int smp__ipython(struct smp_ipy *ipy, const char *src, size_t len, char *out);

#endif
