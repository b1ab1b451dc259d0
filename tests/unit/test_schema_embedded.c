/*
 * test_schema_embedded.c - the schemas compiled at build time
 * (lib/schema/gen/embed_schemas.c) are the trees the run-time compiler
 * builds from the embedded text, node for node; a pointer finds the same
 * part; an unknown name is no schema; allocation failure is SMP_ENOMEM
 * with nothing leaked.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/embedded.h"
#include "failing_alloc.h"
#include "doc/load.h"
#include "schema/schema.h"
#include "schema/internal.h"
#include "util/error.h"

static struct failing_alloc counter = FA_INIT;
static const struct smp_allocator counting_alloc = {fa_malloc, fa_realloc,
						    fa_free, &counter};

static int
same_str(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* an embedded node with no table of its own: the build writes one of
 * each kind, which the nodes like it share (keeping the first's id) */
static int
is_plain(const struct snode *a)
{
	return !a->nprops && !a->nall_of && !a->nany_of && !a->value &&
	       !a->info;
}

/* a plain node that points at no node either */
static int
is_leaf(const struct snode *a)
{
	return is_plain(a) && !a->additional && !a->items &&
	       !a->property_names && !a->ref && !a->if_s && !a->then_s &&
	       !a->else_s;
}

static void
same_link(const struct snode *a, const struct snode *b, const char *what,
	  size_t id)
{
	cr_assert_eq(!a, !b, "node %zu: %s present in one tree only", id, what);
	if (a)
		cr_assert(a->id == b->id || is_plain(a),
			  "node %zu: %s leads elsewhere", id, what);
}

static void
same_vals(const struct svals *a, const struct svals *b, const char *what,
	  size_t id)
{
	size_t i;

	cr_assert_eq(a->count, b->count, "node %zu: %s count", id, what);
	for (i = 0; i < a->count; i++) {
		const struct smp_node *x = a->items[i], *y = b->items[i];

		cr_assert_eq(x->kind, SMP_NODE_SCALAR);
		cr_assert_eq(y->kind, SMP_NODE_SCALAR);
		cr_assert_eq(x->u.scalar.len, y->u.scalar.len);
		cr_assert_eq(memcmp(x->u.scalar.value, y->u.scalar.value,
				    x->u.scalar.len),
			     0, "node %zu: %s value %zu", id, what, i);
		cr_assert_eq(x->u.scalar.style, y->u.scalar.style);
		cr_assert(same_str(x->tag, y->tag));
		cr_assert_eq(smp__scalar_type(x), smp__scalar_type(y));
	}
}

/* Compares node a (embedded) with b (compiled now), then what they lead
 * to; seen[id] marks the nodes done. */
static void
same_node(const struct snode *a, const struct snode *b, unsigned char *seen,
	  size_t n)
{
	size_t i, id = b->id;

	cr_assert(a->id == b->id || is_plain(a));
	cr_assert_lt(id, n);
	if (seen[id])
		return;
	seen[id] = 1;
	cr_assert_eq(a->has, b->has, "node %zu: keywords", id);
	cr_assert_eq(a->types, b->types, "node %zu: types", id);
	cr_assert_eq(a->is_false, b->is_false);
	if (b->has & H_RULE)
		cr_assert_eq(a->rule, b->rule, "node %zu: rule", id);
	cr_assert(same_str(smp__si(a)->title, smp__si(b)->title),
		  "node %zu: title", id);
	cr_assert(same_str(smp__si(a)->message, smp__si(b)->message),
		  "node %zu: message", id);
	cr_assert_eq(a->nprops, b->nprops, "node %zu: properties", id);
	for (i = 0; i < b->nprops; i++) {
		cr_assert_eq(a->props[i].len, b->props[i].len);
		cr_assert_eq(memcmp(a->props[i].name, b->props[i].name,
				    b->props[i].len),
			     0, "node %zu: property %zu", id, i);
		cr_assert_str_eq(smp__si(a)->prop_names[i],
				 smp__si(b)->prop_names[i]);
		same_link(a->props[i].schema, b->props[i].schema, "property",
			  id);
	}
	same_link(a->additional, b->additional, "additionalProperties", id);
	same_link(a->items, b->items, "items", id);
	same_link(a->property_names, b->property_names, "propertyNames", id);
	same_link(a->ref, b->ref, "$ref", id);
	same_link(a->if_s, b->if_s, "if", id);
	same_link(a->then_s, b->then_s, "then", id);
	same_link(a->else_s, b->else_s, "else", id);
	cr_assert_eq(a->nall_of, b->nall_of);
	for (i = 0; i < b->nall_of; i++)
		same_link(a->all_of[i], b->all_of[i], "allOf", id);
	cr_assert_eq(a->nany_of, b->nany_of);
	for (i = 0; i < b->nany_of; i++)
		same_link(a->any_of[i], b->any_of[i], "anyOf", id);
	cr_assert_eq(!smp__sv(a)->const_value, !smp__sv(b)->const_value);
	if (smp__sv(b)->const_value) {
		struct svals x = {&smp__sv(a)->const_value, 1},
			     y = {&smp__sv(b)->const_value, 1};

		same_vals(&x, &y, "const", id);
	}
	same_vals(&smp__sv(a)->enum_values, &smp__sv(b)->enum_values, "enum",
		  id);
	cr_assert_eq(smp__si(a)->nenum_words, smp__si(b)->nenum_words);
	for (i = 0; i < smp__si(b)->nenum_words; i++)
		cr_assert_str_eq(smp__si(a)->enum_words[i],
				 smp__si(b)->enum_words[i]);
	same_vals(&smp__sv(a)->required, &smp__sv(b)->required, "required", id);
	same_vals(&smp__si(a)->ignored_keys, &smp__si(b)->ignored_keys,
		  "x-smp-ignored-keys", id);
	cr_assert(smp__sv(a)->minimum == smp__sv(b)->minimum &&
			  smp__sv(a)->maximum == smp__sv(b)->maximum &&
			  smp__sv(a)->excl_minimum ==
				  smp__sv(b)->excl_minimum &&
			  smp__sv(a)->excl_maximum == smp__sv(b)->excl_maximum,
		  "node %zu: bounds", id);
	cr_assert(smp__sv(a)->min_length == smp__sv(b)->min_length &&
			  smp__sv(a)->max_length == smp__sv(b)->max_length &&
			  smp__sv(a)->min_items == smp__sv(b)->min_items &&
			  smp__sv(a)->max_items == smp__sv(b)->max_items &&
			  smp__sv(a)->min_props == smp__sv(b)->min_props &&
			  smp__sv(a)->max_props == smp__sv(b)->max_props,
		  "node %zu: counts", id);
	if (b->has & H_PATTERN) {
		cr_assert_eq(smp__sv(a)->pattern, smp__sv(b)->pattern,
			     "node %zu: pattern index", id);
		cr_assert_str_eq(smp__sv(a)->pattern_src,
				 smp__sv(b)->pattern_src);
	}
	cr_assert_eq(smp__si(a)->ndym, smp__si(b)->ndym);
	for (i = 0; i < smp__si(b)->ndym; i++) {
		cr_assert_eq(smp__si(a)->dym[i].from_len,
			     smp__si(b)->dym[i].from_len);
		cr_assert_eq(memcmp(smp__si(a)->dym[i].from,
				    smp__si(b)->dym[i].from,
				    smp__si(b)->dym[i].from_len),
			     0);
		cr_assert_str_eq(smp__si(a)->dym[i].to, smp__si(b)->dym[i].to);
	}
	cr_assert_eq(smp__si(a)->unknown_warning, smp__si(b)->unknown_warning);
	/* what they lead to */
	for (i = 0; i < b->nprops; i++)
		same_node(a->props[i].schema, b->props[i].schema, seen, n);
	if (b->additional)
		same_node(a->additional, b->additional, seen, n);
	if (b->items)
		same_node(a->items, b->items, seen, n);
	if (b->property_names)
		same_node(a->property_names, b->property_names, seen, n);
	if (b->ref)
		same_node(a->ref, b->ref, seen, n);
	if (b->if_s)
		same_node(a->if_s, b->if_s, seen, n);
	if (b->then_s)
		same_node(a->then_s, b->then_s, seen, n);
	if (b->else_s)
		same_node(a->else_s, b->else_s, seen, n);
	for (i = 0; i < b->nall_of; i++)
		same_node(a->all_of[i], b->all_of[i], seen, n);
	for (i = 0; i < b->nany_of; i++)
		same_node(a->any_of[i], b->any_of[i], seen, n);
}

Test(schema_embedded, every_schema_is_the_compiled_text)
{
	size_t k, checked = 0;

	for (k = 0; k < smp__embedded_count; k++) {
		const struct smp_embedded_file *f = &smp__embedded_files[k];
		struct smp_schema *text = NULL, *built = NULL;
		struct smp_error err = {0};
		const char *const *ka, *const *kb;
		unsigned char *seen;
		size_t na, nb, i, len = strlen(f->name);

		if (len < 12 || strcmp(f->name + len - 12, ".schema.json"))
			continue;
		cr_assert_eq(smp__schema_load(&text, &counting_alloc, f->name,
					      (const char *)f->data, f->len,
					      &err),
			     0, "%s: %s", f->name, err.message);
		cr_assert_eq(smp__schema_embedded(&built, &counting_alloc,
						  f->name, &err),
			     0);
		cr_assert_not_null(built, "%s is not compiled in", f->name);
		seen = calloc(text->nnodes, 1);
		cr_assert_not_null(seen);
		same_node(built->root, text->root, seen, text->nnodes);
		cr_assert_eq(built->nsubs, text->nsubs);
		for (i = 0; i < text->nsubs; i++)
			same_node(built->subs[i].sn, text->subs[i].sn, seen,
				  text->nnodes);
		for (i = 0; i < text->nnodes; i++)
			cr_expect(seen[i], "%s: node %zu not compared", f->name,
				  i);
		free(seen);
		ka = smp__schema_top_keys(built, &na);
		kb = smp__schema_top_keys(text, &nb);
		cr_assert_eq(na, nb);
		for (i = 0; i < na; i++)
			cr_assert_str_eq(ka[i], kb[i]);
		/* the same pattern strings, compiled when built */
		cr_assert_eq(built->npatterns, text->npatterns);
		cr_assert_eq(built->nrx, built->npatterns);
		for (i = 0; i < built->npatterns; i++)
			cr_assert_str_eq(built->pattern_srcs[i],
					 text->pattern_srcs[i]);
		/* every registered part has a pointer that finds it */
		cr_assert_eq(built->nsubs, text->nsubs);
		for (i = 0; i < built->nsubs; i++) {
			const char *p = built->subs[i].pointer;
			const struct snode *x = smp__schema_part(built, p),
					   *y = smp__schema_part(text, p);

			cr_assert_not_null(x, "%s: %s", f->name, p);
			cr_assert_not_null(y, "%s: %s", f->name, p);
			cr_assert(x->id == y->id || is_plain(x), "%s: %s",
				  f->name, p);
		}
		smp__schema_free(text);
		smp__schema_free(built);
		checked++;
	}
	cr_assert_geq(checked, 3, "only %zu schemas compared", checked);
	cr_assert_eq(counter.live, 0, "leaked %ld blocks", counter.live);
}

Test(schema_embedded, pointers_and_unknown_names)
{
	struct smp_schema *s = NULL;
	struct smp_error err = {0};

	cr_assert_eq(smp__schema_embedded(&s, &counting_alloc,
					  "no-such.schema.json", &err),
		     0);
	cr_assert_null(s);
	cr_assert_eq(smp__schema_embedded(&s, &counting_alloc, NULL, &err), 0);
	cr_assert_null(s);
	cr_assert_eq(smp__schema_embedded(&s, &counting_alloc,
					  "instances.schema.json", &err),
		     0);
	cr_assert_not_null(s);
	cr_assert_eq(smp__schema_part(s, "#"), s->root);
	cr_assert_not_null(smp__schema_part(s, "#/$defs/overlay"));
	cr_assert_null(smp__schema_part(s, "#/$defs/none"));
	cr_assert_null(smp__schema_part(s, "$defs/overlay"));
	smp__schema_free(s);
	smp__schema_free(NULL);
	cr_assert_eq(counter.live, 0);
}

/* A data file checked with a built-in schema: the same first error as
 * with the schema compiled from its text. */
Test(schema_embedded, validates_like_the_text)
{
	const struct smp_embedded_file *f =
		smp__embedded_find("config.schema.json");
	static const char doc[] = "fail-on: warning\nrules:\n  x: 3\n";
	struct smp_schema *text = NULL, *built = NULL;
	struct smp_error ea = {0}, eb = {0};
	struct smp_docs docs;

	cr_assert_not_null(f);
	cr_assert_eq(smp__schema_load(&text, &counting_alloc, f->name,
				      (const char *)f->data, f->len, &ea),
		     0);
	cr_assert_eq(
		smp__schema_embedded(&built, &counting_alloc, f->name, &ea), 0);
	smp__docs_init(&docs, &counting_alloc);
	cr_assert_eq(
		smp__load_strict(&docs, "c.yaml", doc, sizeof(doc) - 1, 0, &ea),
		0);
	cr_assert_eq(smp__schema_validate(text, NULL, docs.items[0].root,
					  "c.yaml", &ea),
		     SMP_EPARSE);
	cr_assert_eq(smp__schema_validate(built, NULL, docs.items[0].root,
					  "c.yaml", &eb),
		     SMP_EPARSE);
	cr_assert_str_eq(ea.message, eb.message);
	cr_assert_eq(ea.line, eb.line);
	cr_assert_eq(ea.column, eb.column);
	smp__docs_release(&docs);
	smp__schema_free(text);
	smp__schema_free(built);
	cr_assert_eq(counter.live, 0);
}

Test(schema_embedded, out_of_memory)
{
	long n;
	int done = 0;

	for (n = 0; n < 50 && !done; n++) {
		struct smp_schema *s = NULL;
		struct smp_error err = {0};
		int rc;

		fa_init(&counter, n);
		rc = smp__schema_embedded(&s, &counting_alloc,
					  "create-training-job.schema.json",
					  &err);
		if (!counter.failed) {
			cr_assert_eq(rc, 0);
			cr_assert_not_null(s);
			done = 1;
		} else {
			cr_assert_eq(rc, SMP_ENOMEM, "call %ld: %d", n, rc);
			cr_assert_null(s);
		}
		smp__schema_free(s);
		cr_assert_eq(counter.live, 0, "call %ld: leaked", n);
	}
	fa_init(&counter, FA_NEVER);
	cr_assert(done);
}

/* Counts in *uses the leaves reached from a, and in *kinds (their
 * addresses in kind[]) the distinct ones. */
static void
count_leaves(const struct snode *a, const struct snode **kind, size_t *kinds,
	     size_t *uses, const struct snode **done, size_t *ndone)
{
	size_t i;

	if (!a)
		return;
	if (is_leaf(a)) {
		(*uses)++;
		for (i = 0; i < *kinds && kind[i] != a; i++)
			;
		if (i == *kinds)
			kind[(*kinds)++] = a;
		return;
	}
	for (i = 0; i < *ndone; i++)
		if (done[i] == a)
			return;
	done[(*ndone)++] = a;
	for (i = 0; i < a->nprops; i++)
		count_leaves(a->props[i].schema, kind, kinds, uses, done,
			     ndone);
	count_leaves(a->additional, kind, kinds, uses, done, ndone);
	count_leaves(a->items, kind, kinds, uses, done, ndone);
	count_leaves(a->property_names, kind, kinds, uses, done, ndone);
	count_leaves(a->ref, kind, kinds, uses, done, ndone);
	count_leaves(a->if_s, kind, kinds, uses, done, ndone);
	count_leaves(a->then_s, kind, kinds, uses, done, ndone);
	count_leaves(a->else_s, kind, kinds, uses, done, ndone);
	for (i = 0; i < a->nall_of; i++)
		count_leaves(a->all_of[i], kind, kinds, uses, done, ndone);
	for (i = 0; i < a->nany_of; i++)
		count_leaves(a->any_of[i], kind, kinds, uses, done, ndone);
}

/* the estimator schema's type-only leaves are written once each: far
 * fewer distinct leaves than places that reach one */
Test(schema_embedded, leaves_are_shared)
{
	static const struct snode *kind[4096], *done[4096];
	const struct smp_allocator *a = &counting_alloc;
	struct smp_schema *s = NULL;
	size_t kinds = 0, uses = 0, ndone = 0;

	cr_assert_eq(smp__schema_embedded(&s, a, "estimator.schema.json", NULL),
		     0);
	cr_assert_not_null(s);
	count_leaves(s->root, kind, &kinds, &uses, done, &ndone);
	cr_assert_gt(kinds, 1);
	cr_assert_lt(kinds * 4, uses, "%zu leaves for %zu uses", kinds, uses);
	smp__schema_free(s);
}
