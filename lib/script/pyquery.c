/*
 * pyquery.c - questions over the records of the structure pass (pyscan.h):
 * the call at an offset, a call's arguments, names in a range. Shared by
 * the script facts (script/facts.c) and the script rules (rules/script.c).
 */
#include <string.h>

#include "script/pyquery.h"
#include "util/text.h"

/* Case-insensitive substring test for ASCII identifiers. */
int
smp__py_has_word(const char *s, size_t n, const char *word)
{
	size_t k = strlen(word), i, j;

	for (i = 0; i + k <= n; i++) {
		for (j = 0; j < k; j++) {
			char c = s[i + j];

			if (c >= 'A' && c <= 'Z')
				c = (char)(c - 'A' + 'a');
			if (c != word[j])
				break;
		}
		if (j == k)
			return 1;
	}
	return 0;
}

/* The call whose callee starts at byte off (calls are in that order). */
int
smp__py_call_at(const struct smp_pyscan *p, size_t off)
{
	size_t lo = 0, hi = p->ncalls;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->calls[mid].start.offset < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < p->ncalls && p->calls[lo].start.offset == off ? (int)lo
								  : -1;
}

/* The keyword argument name of call i, or NULL. */
const struct smp_pyarg *
smp__py_kwarg(const struct smp_pyscan *p, const struct smp_pycall *c,
	      const char *name)
{
	int k;

	for (k = c->first_arg; k >= 0; k = p->args[k].next)
		if (smp__streq(p->args[k].name, name))
			return &p->args[k];
	return NULL;
}

/* The n-th (0-based) positional argument of c, or NULL. */
const struct smp_pyarg *
smp__py_posarg(const struct smp_pyscan *p, const struct smp_pycall *c, size_t n)
{
	int k;

	for (k = c->first_arg; k >= 0; k = p->args[k].next)
		if (!p->args[k].name && n-- == 0)
			return &p->args[k];
	return NULL;
}

/* 1 when the argument is exactly the one token spelled s. */
int
smp__py_arg_is(const struct smp_pyscan *p, const struct smp_pyarg *a,
	       const char *s)
{
	return a && a->ntok == 1 && smp__pytok_is(&a->first, p->buf, s);
}

/* The value of a one-token string argument, when exact. */
int
smp__py_arg_string(const struct smp_pyscan *p, const struct smp_pyarg *a,
		   const char **body, size_t *len)
{
	if (!a || a->ntok != 1 || a->first.kind != SMP_PYTOK_STRING)
		return 0;
	return smp__pystr_body(&a->first, p->buf, body, len);
}

int
smp__py_arg_string_is(const struct smp_pyscan *p, const struct smp_pyarg *a,
		      const char *s)
{
	const char *body;
	size_t n;

	return smp__py_arg_string(p, a, &body, &n) && n == strlen(s) &&
	       memcmp(body, s, n) == 0;
}

/*
 * 1 when a NAME token in [from, to) satisfies want(name): tokenizes the
 * range again (it starts at a token, outside brackets of its own).
 */
int
smp__py_range_has_name(const struct smp_pyscan *p, const struct smp_pos *from,
		       size_t to, int (*want)(const char *s, size_t n))
{
	struct smp_pytok_state ts;
	struct smp_pytok t;

	smp__pytok_init_at(&ts, p->buf, p->len, from);
	for (;;) {
		smp__pytok_next(&ts, &t);
		if (t.kind == SMP_PYTOK_END || t.off >= to)
			return 0;
		if (t.kind == SMP_PYTOK_NAME && want(p->buf + t.off, t.len))
			return 1;
	}
}

int
smp__py_name_is_grad(const char *s, size_t n)
{
	return smp__py_has_word(s, n, "grad");
}

/* The start of the first argument of c, for range scans. */
int
smp__py_args_range(const struct smp_pyscan *p, const struct smp_pycall *c,
		   struct smp_pos *from, size_t *to)
{
	if (c->first_arg < 0)
		return 0;
	*from = p->args[c->first_arg].start;
	*to = c->end.offset;
	return 1;
}
