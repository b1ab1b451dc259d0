/*
 * fuzz_yaml_block.c - libFuzzer target for the YAML block scanner: when
 * it accepts an input, libyaml must parse that input into the same
 * events (type, marks, value, style) and no tag or anchor; a decline
 * costs nothing but speed. Every allocation is returned.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "doc/yaml_block.h"

#include "counting_alloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
same_mark(yaml_mark_t a, yaml_mark_t b)
{
	return a.index == b.index && a.line == b.line && a.column == b.column;
}

/* 1 when libyaml's event e is the scanner's g. */
static int
same_event(const yaml_event_t *e, const yaml_event_t *g)
{
	if (e->type != g->type || !same_mark(e->start_mark, g->start_mark) ||
	    !same_mark(e->end_mark, g->end_mark))
		return 0;
	switch (e->type) {
	case YAML_SCALAR_EVENT:
		return !e->data.scalar.tag && !e->data.scalar.anchor &&
		       e->data.scalar.style == g->data.scalar.style &&
		       e->data.scalar.length == g->data.scalar.length &&
		       memcmp(e->data.scalar.value, g->data.scalar.value,
			      e->data.scalar.length) == 0;
	case YAML_MAPPING_START_EVENT:
		return !e->data.mapping_start.tag &&
		       !e->data.mapping_start.anchor;
	case YAML_SEQUENCE_START_EVENT:
		return !e->data.sequence_start.tag &&
		       !e->data.sequence_start.anchor;
	default:
		return 1;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t live = 0, n, i = 0;
	struct smp_allocator a = {f_malloc, f_realloc, f_free, &live};
	yaml_event_t *got, e;
	yaml_parser_t p;
	int rc, done = 0;

	rc = smp__yaml_block_scan((const char *)data, size, &a, &got, &n);
	if (rc == SMP_ENOMEM)
		return 0;
	if (rc != 0 && rc != 1)
		abort();
	if (rc == 0) {
		if (got || live)
			abort();
		return 0;
	}
	if (!yaml_parser_initialize(&p))
		abort();
	yaml_parser_set_input_string(&p, data, size);
	while (!done) {
		if (!yaml_parser_parse(&p, &e))
			abort(); /* accepted what libyaml refuses */
		done = e.type == YAML_STREAM_END_EVENT;
		if (e.type != YAML_STREAM_START_EVENT && !done) {
			if (i >= n || !same_event(&e, &got[i]))
				abort();
			i++;
		}
		yaml_event_delete(&e);
	}
	yaml_parser_delete(&p);
	if (i != n)
		abort();
	f_free(&live, got);
	if (live != 0)
		abort();
	return 0;
}
