/*
 * fuzz_yaml.c - libFuzzer target for the YAML loader. Small limits keep
 * each run cheap; after loading, the tree is walked to check what the
 * loader promises: positions inside the buffer, no cycles, the limits
 * held, and every allocation returned.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "doc/load.h"
#include "rules/check.h"

#include "counting_alloc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_pos(const struct smp_pos *p, size_t size)
{
	if (p->line < 1 || p->column < 1 || p->offset > size)
		abort();
}

/* Visits n; returns the nodes it expands to (aliases counted again). */
static size_t
walk(const struct smp_node *n, size_t size, size_t depth,
     const struct smp_limits *lim)
{
	size_t i, total = 1;

	/* deeper than the limit means a cycle or a missed depth check */
	if (depth > lim->max_depth + 1)
		abort();
	check_pos(&n->start, size);
	check_pos(&n->end, size);
	if (n->end.offset < n->start.offset)
		abort();
	switch (n->kind) {
	case SMP_NODE_SCALAR:
		if (n->u.scalar.len > lim->max_scalar_len ||
		    n->u.scalar.value[n->u.scalar.len] != '\0')
			abort();
		break;
	case SMP_NODE_MAPPING:
		for (i = 0; i < n->u.mapping.count; i++) {
			total += walk(n->u.mapping.items[i].key, size,
				      depth + 1, lim);
			total += walk(n->u.mapping.items[i].value, size,
				      depth + 1, lim);
			if (total > lim->max_nodes)
				abort();
		}
		break;
	case SMP_NODE_SEQUENCE:
		for (i = 0; i < n->u.sequence.count; i++) {
			total += walk(n->u.sequence.items[i], size, depth + 1,
				      lim);
			if (total > lim->max_nodes)
				abort();
		}
		break;
	}
	return total;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct smp_limits lim = {1u << 16, 16, 2000, 1024, 8};
	size_t live = 0, i;
	struct smp_allocator a = {f_malloc, f_realloc, f_free, &live};
	const char *buf = (const char *)data;
	struct smp_report *rep;
	struct smp_docs docs;
	int rc;

	smp__docs_init(&docs, &a);
	if (smp__report_new(&rep, &a, "fuzz.yaml", NULL))
		abort();
	rep->buf = buf;
	rep->len = size;
	rc = smp__load_yaml(&docs, buf, size, &lim);
	if (rc == 0)
		rc = smp__rules_input(rep, &docs);
	if (rc != 0 && rc != SMP_ENOMEM)
		abort();
	if (docs.count > lim.max_documents)
		abort();
	for (i = 0; i < docs.count; i++)
		if (docs.items[i].root &&
		    walk(docs.items[i].root, size, 1, &lim) > lim.max_nodes)
			abort();
	for (i = 0; i < smp_report_count(rep); i++) {
		const struct smp_finding *f = smp_report_get(rep, i);

		if (!f->message || !f->message[0] || !f->rule)
			abort();
	}
	smp__docs_release(&docs);
	smp_report_free(rep);
	if (live != 0)
		abort();
	return 0;
}
