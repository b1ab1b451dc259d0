/*
 * args.c - which command-line options the entry script accepts. SageMaker
 * passes every hyperparameter as "--key value", and argparse's
 * parse_args() exits on an option it does not know, so a hyperparameter
 * is only worth suggesting when the script is known to take it.
 */
#include <string.h>

#include "script/pyquery.h"
#include "script/pytok.h"
#include "script/script.h"
#include "util/text.h"

/* "--preprocessing_num_workers" or "--preprocessing-num-workers" names
 * option name (given with '_'). */
static int
option_is(const char *body, size_t n, const char *name)
{
	size_t i, len = strlen(name);

	if (n != len + 2 || body[0] != '-' || body[1] != '-')
		return 0;
	for (i = 0; i < len; i++) {
		char c = body[i + 2];

		if (c != name[i] && !(c == '-' && name[i] == '_'))
			return 0;
	}
	return 1;
}

/* 1 when a NAME token of the script is exactly name (strings and
 * comments never match). */
static int
has_name_token(const struct smp_pyscan *p, const char *name)
{
	struct smp_pytok_state ts;
	struct smp_pytok t;
	struct smp_pos start = {1, 1, 0};
	size_t n = strlen(name);

	smp__pytok_init_at(&ts, p->buf, p->len, &start);
	for (;;) {
		smp__pytok_next(&ts, &t);
		if (t.kind == SMP_PYTOK_END)
			return 0;
		if (t.kind == SMP_PYTOK_NAME && t.len == n &&
		    memcmp(p->buf + t.off, name, n) == 0)
			return 1;
	}
}

int
smp__script_accepts_option(const struct smp_pyscan *p, const char *name)
{
	size_t i, k, n;
	const char *body;
	int hf_parser = 0;

	for (i = 0; i < p->ncalls; i++) {
		const struct smp_pycall *c = &p->calls[i];

		if (smp__streq(c->attr, "HfArgumentParser"))
			hf_parser = 1;
		if (!smp__streq(c->attr, "add_argument"))
			continue;
		/* add_argument("-n", "--preprocessing_num_workers", ...) */
		for (k = 0; k < c->nargs && k < 4; k++) {
			const struct smp_pyarg *a = smp__py_posarg(p, c, k);

			if (a && smp__py_arg_string(p, a, &body, &n) &&
			    option_is(body, n, name))
				return 1;
		}
	}
	/* HfArgumentParser turns the fields of its dataclasses into
	 * options: a field of that name is a name in the script's code */
	return hf_parser && has_name_token(p, name);
}
