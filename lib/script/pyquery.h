/*
 * pyquery.h - questions over the records of the structure pass (pyscan.h),
 * asked by the script facts and the script rules alike.
 */
#ifndef SMP_PYQUERY_H
#define SMP_PYQUERY_H

#include <stddef.h>

#include "script/pyscan.h"

/* The call whose callee starts at byte off (calls are in that order), or
 * -1. */
int smp__py_call_at(const struct smp_pyscan *p, size_t off);

/* The keyword argument name of call c, or NULL. */
const struct smp_pyarg *smp__py_kwarg(const struct smp_pyscan *p,
				      const struct smp_pycall *c,
				      const char *name);

/* The n-th (0-based) positional argument of c, or NULL. */
const struct smp_pyarg *smp__py_posarg(const struct smp_pyscan *p,
				       const struct smp_pycall *c, size_t n);

/* 1 when the argument is exactly the one token spelled s. */
int smp__py_arg_is(const struct smp_pyscan *p, const struct smp_pyarg *a,
		   const char *s);

/* The value of a one-token string argument, when exact: 1, else 0. */
int smp__py_arg_string(const struct smp_pyscan *p, const struct smp_pyarg *a,
		       const char **body, size_t *len);

/* 1 when the argument is a one-token string whose value is s. */
int smp__py_arg_string_is(const struct smp_pyscan *p, const struct smp_pyarg *a,
			  const char *s);

/*
 * 1 when a NAME token in [from, to) satisfies want(name): tokenizes the
 * range again (it starts at a token, outside brackets of its own).
 */
int smp__py_range_has_name(const struct smp_pyscan *p,
			   const struct smp_pos *from, size_t to,
			   int (*want)(const char *s, size_t n));

/* 1 when word (lower case) occurs in s[0..n), ASCII case ignored. */
int smp__py_has_word(const char *s, size_t n, const char *word);

/* 1 when the name holds "grad" (any case): a gradient variable. */
int smp__py_name_is_grad(const char *s, size_t n);

/* The arguments of c as a range [*from, *to) for range scans; 0 when c
 * has none. */
int smp__py_args_range(const struct smp_pyscan *p, const struct smp_pycall *c,
		       struct smp_pos *from, size_t *to);

#endif
