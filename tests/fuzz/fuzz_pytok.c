/*
 * fuzz_pytok.c - libFuzzer target for the Python tokenizer and the
 * structure pass over it (the entry-script scan). Besides crashes and
 * sanitizer reports it aborts when an invariant breaks: tokens move
 * forward inside the input, their positions equal the ones text.c
 * computes from scratch, INDENT and DEDENT balance, the token count is
 * linear in the input (no hang), and every record of the scan points
 * inside the input and to records that exist.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "script/pyscan.h"
#include "script/pytok.h"
#include "util/text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* sample: smp__pos_at() is linear, so big inputs check some tokens */
static void
same_pos(const char *buf, size_t len, size_t off, const struct smp_pos *p,
	 size_t n)
{
	struct smp_pos want;

	if (p->offset != off || off > len)
		abort();
	if (len > 1024 && n % 64 != 0)
		return;
	want = smp__pos_at(buf, len, off);
	if (want.line != p->line || want.column != p->column)
		abort();
}

static void
tokens(const char *buf, size_t len)
{
	struct smp_pytok_state s;
	struct smp_pytok t;
	size_t n = 0, last = 0;
	long balance = 0;

	smp__pytok_init(&s, buf, len);
	for (;;) {
		smp__pytok_next(&s, &t);
		if (t.off < last || t.off + t.len > len)
			abort();
		same_pos(buf, len, t.off, &t.start, n);
		same_pos(buf, len, t.off + t.len, &t.end, n);
		last = t.off;
		if (t.kind == SMP_PYTOK_INDENT)
			balance++;
		if (t.kind == SMP_PYTOK_DEDENT && --balance < 0)
			abort();
		if ((t.kind == SMP_PYTOK_INDENT ||
		     t.kind == SMP_PYTOK_DEDENT) &&
		    t.len != 0)
			abort();
		if (t.kind == SMP_PYTOK_END)
			break;
		if (++n > 3 * len + 4)
			abort(); /* more tokens than the input can hold */
	}
	if (balance != 0)
		abort();
}

static void
structure(const char *buf, size_t len)
{
	struct smp_allocator a;
	struct smp_arena arena;
	struct smp_pyscan p;
	size_t i;

	smp__allocator_resolve(&a, NULL);
	smp__arena_init(&arena, &a);
	if (smp__pyscan_run(&p, &arena, buf, len) != 0)
		abort(); /* malloc does not fail here */
	for (i = 0; i < p.ncalls; i++) {
		const struct smp_pycall *c = &p.calls[i];
		int k, n = 0;

		if (i > 0 && c->start.offset <= p.calls[i - 1].start.offset)
			abort(); /* call_at() relies on this order */
		if (c->end.offset > len || c->loop >= (int)p.nloops ||
		    c->func >= (int)p.ndefs || !c->callee || !c->attr)
			abort();
		for (k = c->first_arg; k >= 0; k = p.args[k].next) {
			if ((size_t)k >= p.nargs || p.args[k].call != (int)i ||
			    ++n > (int)p.nargs)
				abort();
		}
		if ((size_t)n != c->nargs)
			abort();
	}
	for (i = 0; i < p.ndefs; i++)
		if (p.defs[i].parent >= (int)i || !p.defs[i].name ||
		    p.defs[i].body_start > p.defs[i].body_end ||
		    p.defs[i].body_end > len)
			abort();
	for (i = 0; i < p.nloops; i++)
		if (p.loops[i].parent >= (int)i ||
		    p.loops[i].body_start > p.loops[i].body_end ||
		    p.loops[i].body_end > len)
			abort();
	for (i = 0; i < p.nassigns; i++)
		if (!p.assigns[i].target || p.assigns[i].value_end.offset > len)
			abort();
	smp__arena_release(&arena);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;

	tokens(buf, size);
	structure(buf, size);
	return 0;
}
