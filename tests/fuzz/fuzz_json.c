/*
 * fuzz_json.c - libFuzzer target for the strict JSON loader, run with
 * small limits. Besides crashes and sanitizer reports it aborts when an
 * invariant breaks: every node's incrementally tracked position must equal
 * the one text.c computes from scratch, scalars must be NUL-terminated,
 * and a document is kept exactly when there is no syntax/limit finding.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "doc/load.h"
#include "rules/check.h"
#include "util/text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct input {
	const char *buf;
	size_t len;
	size_t bom; /* 3 when the input starts with a UTF-8 BOM */
};

static void
check_pos(const struct input *in, const struct smp_pos *p)
{
	struct smp_pos want;

	if (p->offset > in->len || p->line < 1 || p->column < 1)
		abort();
	if (in->len > 4096)
		return; /* smp__pos_at is linear: keep the fuzzer fast */
	want = smp__pos_at(in->buf, in->len, p->offset);
	if (in->bom && want.line == 1)
		want.column--; /* the BOM is not a column */
	if (want.line != p->line || want.column != p->column)
		abort();
}

static void
check_node(const struct input *in, const struct smp_node *n, unsigned depth)
{
	size_t k;

	if (!n || depth > 64)
		abort();
	check_pos(in, &n->start);
	check_pos(in, &n->end);
	if (n->start.offset >= n->end.offset)
		abort();
	switch (n->kind) {
	case SMP_NODE_SCALAR:
		if (n->u.scalar.value[n->u.scalar.len] != '\0')
			abort();
		if (n->u.scalar.style == SMP_STYLE_PLAIN &&
		    (n->end.offset - n->start.offset != n->u.scalar.len ||
		     memcmp(in->buf + n->start.offset, n->u.scalar.value,
			    n->u.scalar.len) != 0))
			abort();
		if (n->u.scalar.style == SMP_STYLE_DOUBLE_QUOTED &&
		    n->u.scalar.len + 2 > n->end.offset - n->start.offset)
			abort();
		break;
	case SMP_NODE_SEQUENCE:
		for (k = 0; k < n->u.sequence.count; k++)
			check_node(in, n->u.sequence.items[k], depth + 1);
		break;
	case SMP_NODE_MAPPING:
		for (k = 0; k < n->u.mapping.count; k++) {
			const struct smp_node *key = n->u.mapping.items[k].key;

			if (key->kind != SMP_NODE_SCALAR ||
			    key->u.scalar.style != SMP_STYLE_DOUBLE_QUOTED)
				abort();
			check_node(in, key, depth + 1);
			check_node(in, n->u.mapping.items[k].value, depth + 1);
		}
		break;
	}
}

/* Kept document or one syntax/limit finding, never both, never neither. */
static void
check_result(const struct input *in, int rc, const struct smp_docs *docs,
	     const struct smp_report *rep)
{
	size_t k, fatal = 0;

	if (rc != 0 || docs->count > 1)
		abort();
	for (k = 0; k < smp_report_count(rep); k++) {
		const struct smp_finding *f = smp_report_get(rep, k);

		if (f->line < 1 || f->column < 1 || !f->message)
			abort();
		if (strcmp(f->rule, "duplicate-key") != 0)
			fatal++;
	}
	if (fatal != (docs->count ? 0u : 1u))
		abort();
	if (docs->count)
		check_node(in, docs->items[0].root, 0);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct smp_limits lim = {1 << 16, 16, 2000, 256, 4};
	struct input in = {(const char *)data, size, 0};
	struct smp_allocator a;
	struct smp_docs docs;
	struct smp_report *rep;
	int rc;

	if (size >= 3 && memcmp(data, "\xEF\xBB\xBF", 3) == 0)
		in.bom = 3;
	smp__allocator_resolve(&a, NULL);

	/* the JSON parser alone: it must cope with any bytes */
	smp__docs_init(&docs, &a);
	if (smp__report_new(&rep, &a, "fuzz.json", NULL))
		return 0;
	rep->buf = in.buf;
	rep->len = in.len;
	rc = smp__load_json(&docs, in.buf, in.len, &lim);
	if (rc == 0)
		rc = smp__rules_input(rep, &docs);
	check_result(&in, rc, &docs, rep);
	smp__docs_release(&docs);
	smp_report_free(rep);

	/* the entry point: size and UTF-8 checks, then the same parser */
	smp__docs_init(&docs, &a);
	if (smp__report_new(&rep, &a, "fuzz.json", NULL))
		return 0;
	rc = smp__load(&docs, "fuzz.json", in.buf, in.len, &lim);
	if (rc == 0)
		rc = smp__rules_input(rep, &docs);
	check_result(&in, rc, &docs, rep);
	smp__docs_release(&docs);
	smp_report_free(rep);
	return 0;
}
