/*
 * test_report_pointer.c - the JSON Pointer of a finding's node
 * (smp__report_pointer_of): the first place in document order that holds
 * it, found through the nodes whose text holds it, and the same answer
 * where the tree reaches one node twice (a YAML alias) or a node is not
 * in the tree at all.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "doc/load.h"
#include "report/report.h"
#include "util/alloc.h"

/* The default limits (smpreflight.h, struct smp_options max_*). */
static const struct smp_limits lim = {4u << 20, 64, 100000, 65536, 1000};

struct loaded {
	struct smp_allocator alloc;
	struct smp_docs docs;
	struct smp_report *rep;
	const struct smp_node *root;
};

static void
load(struct loaded *t, const char *text)
{
	cr_assert_eq(smp__allocator_resolve(&t->alloc, NULL), 0);
	smp__docs_init(&t->docs, &t->alloc);
	cr_assert_eq(smp__report_new(&t->rep, &t->alloc, "x.yaml", NULL), 0);
	cr_assert_eq(smp__load_yaml(&t->docs, text, strlen(text), &lim), 0);
	cr_assert_eq(t->docs.count, 1);
	t->root = t->docs.items[0].root;
}

static void
release(struct loaded *t)
{
	smp_report_free(t->rep);
	smp__docs_release(&t->docs);
}

static const char *
pointer(struct loaded *t, const struct smp_node *n)
{
	return smp__report_pointer_of(t->rep, t->root, n);
}

Test(report_pointer, every_node_of_a_nested_document)
{
	struct loaded t;
	const struct smp_node *hp, *seq;

	load(&t, "a: 1\n"
		 "hp:\n"
		 "  lr: 0.1\n"
		 "  list: [x, {k/~: v}, z]\n"
		 "b: {c: d}\n");
	hp = smp__map_get(t.root, "hp");
	seq = smp__map_get(hp, "list");
	cr_assert_str_eq(pointer(&t, smp__map_get(t.root, "a")), "/a");
	cr_assert_str_eq(pointer(&t, smp__map_get(hp, "lr")), "/hp/lr");
	cr_assert_str_eq(pointer(&t, seq->u.sequence.items[2]), "/hp/list/2");
	cr_assert_str_eq(
		pointer(&t, seq->u.sequence.items[1]->u.mapping.items[0].value),
		"/hp/list/1/k~1~0");
	/* a key is its pair's place */
	cr_assert_str_eq(pointer(&t, hp->u.mapping.items[1].key), "/hp/list");
	cr_assert_str_eq(
		pointer(&t, smp__map_get(smp__map_get(t.root, "b"), "c")),
		"/b/c");
	cr_assert_str_eq(pointer(&t, t.root), "");
	release(&t);
}

Test(report_pointer, an_aliased_node_is_at_its_anchor)
{
	struct loaded t;
	const struct smp_node *v;

	load(&t, "first: 1\n"
		 "base: &b {lr: 0.1}\n"
		 "again: *b\n");
	v = smp__map_get(smp__map_get(t.root, "again"), "lr");
	cr_assert_str_eq(pointer(&t, v), "/base/lr");
	release(&t);
}

Test(report_pointer, a_node_outside_the_tree_by_its_text)
{
	struct loaded t;
	struct smp_node copy;

	load(&t, "a: {b: [1, 2]}\n");
	/* a normalizer's node: a copy of a scalar, found where its text is */
	copy = *smp__map_get(smp__map_get(t.root, "a"), "b")
			->u.sequence.items[1];
	cr_assert_str_eq(pointer(&t, &copy), "/a/b/1");
	copy.start.offset = copy.end.offset = 999;
	cr_assert_null(pointer(&t, &copy));
	release(&t);
}

/* A pointer is at most 1023 bytes: one longer has none. */
Test(report_pointer, a_pointer_past_its_buffer_is_none)
{
	static char text[1100];
	struct loaded t;
	const char *p;

	memset(text, 'k', 1022);
	memcpy(text + 1022, ": 1\n", 5);
	load(&t, text);
	p = pointer(&t, t.root->u.mapping.items[0].value);
	cr_assert_not_null(p);
	cr_assert_eq(strlen(p), 1023);
	cr_assert_eq(p[0], '/');
	release(&t);

	memset(text, 'k', 1023);
	memcpy(text + 1023, ": 1\n", 5);
	load(&t, text);
	cr_assert_null(pointer(&t, t.root->u.mapping.items[0].value));
	release(&t);
}
