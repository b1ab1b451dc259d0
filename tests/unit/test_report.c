/*
 * test_report.c - what the report decides as a finding is added: no
 * finding about an unknown value, a Python source's job named in each
 * message (struct smp_report_scope), nothing about something absent in a
 * job with an unknown **kwargs; and the U() rows of rules.def.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "failing_alloc.h"
#include "helpers.h"
#include "smpreflight.h"
#include "report/report.h"
#include "doc/load.h"
#include "doc/limits.h"

static struct failing_alloc counter = FA_INIT;
static const struct smp_allocator alloc = {fa_malloc, fa_realloc, fa_free,
					   &counter};

struct fixture {
	struct smp_docs docs;
	struct smp_report *rep;
	const struct smp_node *root, *a, *b;
};

static void
setup(struct fixture *x, const char *spec)
{
	struct smp_limits lim;

	smp__limits_resolve(&lim, NULL);
	smp__docs_init(&x->docs, &alloc);
	cr_assert_eq(smp__load_yaml(&x->docs, spec, strlen(spec), &lim), 0);
	cr_assert_eq(smp__report_new(&x->rep, &alloc, "spec.yaml", NULL), 0);
	x->root = x->docs.items[0].root;
	x->rep->root = x->root;
	x->a = x->root->u.mapping.items[0].value;
	x->b = x->root->u.mapping.items[1].value;
}

static void
teardown(struct fixture *x)
{
	smp_report_free(x->rep);
	smp__docs_release(&x->docs);
	cr_expect_eq(counter.live, 0);
}

static const char *
param_b(const void *ud, const struct smp_node *n)
{
	const struct fixture *x = ud;

	return n == x->b ? "Param" : NULL;
}

Test(report, no_finding_about_an_unknown_value)
{
	struct fixture x;

	setup(&x, "a: !<" SMP_TAG_UNKNOWN "> x\nb: 1\n");
	cr_expect_null(smp__report_node(x.rep, SMP_RULE_WRONG_TYPE, x.a, "m"));
	cr_expect_not_null(
		smp__report_node(x.rep, SMP_RULE_WRONG_TYPE, x.b, "m"));
	cr_expect_eq(x.rep->count, 1);
	cr_expect_str_eq(x.rep->items[0].pointer, "/b");
	teardown(&x);
}

Test(report, scope_names_the_job_and_the_pipeline_parameter)
{
	struct smp_report_scope sc = {
		.what = "pipeline step ", .name = "train", .param = param_b};
	struct smp_pos pos = {1, 1, 0};
	struct fixture x;

	setup(&x, "a: 1\nb: 2\n");
	sc.root = x.root;
	sc.ud = &x;
	x.rep->scope = &sc;
	smp__report_node(x.rep, SMP_RULE_WRONG_TYPE, x.a, "'a' is %d", 1);
	smp__report_node(x.rep, SMP_RULE_WRONG_TYPE, x.b, "'b' is %d", 2);
	smp__report_add(x.rep, SMP_RULE_WRONG_TYPE, &pos, NULL, "no node");
	x.rep->scope = NULL;
	smp__report_add(x.rep, SMP_RULE_WRONG_TYPE, &pos, NULL, "outside");
	cr_assert_eq(x.rep->count, 4);
	cr_expect_str_eq(x.rep->items[0].message,
			 "in pipeline step 'train': 'a' is 1");
	cr_expect_str_eq(x.rep->items[1].message,
			 "in pipeline step 'train': 'b' is 2 (the default "
			 "value of pipeline parameter 'Param')");
	cr_expect_str_eq(x.rep->items[2].message,
			 "in pipeline step 'train': no node");
	cr_expect_str_eq(x.rep->items[3].message, "outside");
	teardown(&x);
}

Test(report, partial_job_says_nothing_about_what_is_absent)
{
	struct smp_report_scope sc = {.what = "", .name = "est", .partial = 1};
	struct smp_pos pos = {1, 1, 0};
	struct fixture x;

	setup(&x, "a: 1\nb: 2\n");
	sc.root = x.root;
	x.rep->scope = &sc;
	cr_expect_null(
		smp__report_node(x.rep, SMP_RULE_WRONG_TYPE, x.root, "root"));
	cr_expect_null(smp__report_add(x.rep, SMP_RULE_WRONG_TYPE, &pos, NULL,
				       "nowhere"));
	cr_expect_not_null(
		smp__report_node(x.rep, SMP_RULE_WRONG_TYPE, x.a, "a"));
	cr_assert_eq(x.rep->count, 1);
	cr_expect_str_eq(x.rep->items[0].message, "in 'est': a");
	teardown(&x);
}

Test(rule_table, unreadable_input_rules_are_declared)
{
	size_t i, n = 0;

	cr_expect(smp__rule_unreadable(SMP_RULE_SYNTAX));
	cr_expect(smp__rule_unreadable(SMP_RULE_INPUT_LIMIT));
	cr_expect_not(smp__rule_unreadable(SMP_RULE_UNKNOWN_KEY));
	cr_expect_not(smp__rule_unreadable(SMP_RULE_COUNT));
	for (i = 0; i < SMP_RULE_COUNT; i++)
		n += (size_t)smp__rule_unreadable((enum smp_rule_id)i);
	cr_expect_eq(n, 2);
}
