/*
 * test_rule_select.c - rule selection (select/ignore): the group
 * expansion of the rule table, the most specific entry winning, unknown
 * names, and the options of a context (version 4) applying it.
 */
#include <criterion/criterion.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "smpreflight.h"
#include "report/rule_table.h"

static enum smp_rule_id
rule(const char *id)
{
	enum smp_rule_id r = SMP_RULE_COUNT;

	cr_assert_eq(smp__rule_lookup(&r, id), 0, "%s", id);
	return r;
}

static size_t
count_on(const unsigned char on[SMP_RULE_COUNT])
{
	size_t i, n = 0;

	for (i = 0; i < SMP_RULE_COUNT; i++)
		n += on[i];
	return n;
}

Test(rule_select, selector_specificity)
{
	enum smp_rule_id cuda = rule("script-cuda-device");

	cr_assert_eq(smp__rule_selector_match("script-cuda-device", cuda), 3);
	cr_assert_eq(smp__rule_selector_match("script", cuda), 2);
	cr_assert_eq(smp__rule_selector_match("ALL", cuda), 1);
	cr_assert_eq(smp__rule_selector_match("instance", cuda), 0);
	cr_assert_eq(smp__rule_selector_match("all", cuda), 0);
	cr_assert_eq(smp__rule_selector_match(NULL, cuda), 0);
}

Test(rule_select, group_expands_to_exactly_its_rules)
{
	static const char *const sel[] = {"gpu-num-devices"};
	unsigned char on[SMP_RULE_COUNT];
	const char *bad = "x";

	cr_assert_eq(smp__rules_select(on, sel, 1, NULL, 0, &bad), 0);
	cr_assert_null(bad);
	cr_assert_eq(count_on(on), 3);
	cr_assert(on[rule("gpu-num-devices-mismatch")]);
	cr_assert(on[rule("gpu-num-devices-missing")]);
	cr_assert(on[rule("gpu-num-devices-invalid")]);
	/* a rule of another group with a similar id is not in it */
	cr_assert_not(on[rule("script-gpu-num-devices")]);
}

Test(rule_select, every_rule_is_in_its_group_and_all)
{
	unsigned char on[SMP_RULE_COUNT];
	const char *bad;
	size_t i;

	cr_assert_eq(smp__rules_select(on, NULL, 0, NULL, 0, &bad), 0);
	cr_assert_eq(count_on(on), SMP_RULE_COUNT);
	for (i = 0; i < SMP_RULE_COUNT; i++) {
		const struct smp_rule_info *info = smp_rule_at(i);
		const char *g = info->group;

		cr_assert(smp__rule_selector_known(g), "%s", g);
		cr_assert_eq(smp__rule_selector_match(g, (enum smp_rule_id)i),
			     2, "%s", info->id);
	}
}

Test(rule_select, more_specific_entry_wins_and_ignore_wins_a_tie)
{
	static const char *const script[] = {"script"};
	static const char *const cuda[] = {"script-cuda-device"};
	static const char *const all[] = {"ALL"};
	unsigned char on[SMP_RULE_COUNT];
	const char *bad;

	/* --ignore script --select script-cuda-device */
	cr_assert_eq(smp__rules_select(on, cuda, 1, script, 1, &bad), 0);
	cr_assert_eq(count_on(on), 1);
	cr_assert(on[rule("script-cuda-device")]);
	/* --select script --ignore script-cuda-device */
	cr_assert_eq(smp__rules_select(on, script, 1, cuda, 1, &bad), 0);
	cr_assert_not(on[rule("script-cuda-device")]);
	cr_assert(on[rule("script-item-call")]);
	cr_assert_not(on[rule("unknown-key")]);
	/* the default select (ALL) and --ignore script */
	cr_assert_eq(smp__rules_select(on, NULL, 0, script, 1, &bad), 0);
	cr_assert_not(on[rule("script-item-call")]);
	cr_assert(on[rule("unknown-key")]);
	/* the same name on both sides: ignored */
	cr_assert_eq(smp__rules_select(on, all, 1, all, 1, &bad), 0);
	cr_assert_eq(count_on(on), 0);
	cr_assert_eq(smp__rules_select(on, script, 1, script, 1, &bad), 0);
	cr_assert_eq(count_on(on), 0);
}

Test(rule_select, unknown_names_are_refused)
{
	static const char *const sel[] = {"instance", "instanse"};
	static const char *const ign[] = {"ALL", "All"};
	unsigned char on[SMP_RULE_COUNT];
	const char *bad = NULL;

	cr_assert_eq(smp__rules_select(on, sel, 2, NULL, 0, &bad), -1);
	cr_assert_str_eq(bad, "instanse");
	cr_assert_eq(smp__rules_select(on, NULL, 0, ign, 2, &bad), -1);
	cr_assert_str_eq(bad, "All");
	cr_assert_not(smp__rule_selector_known(""));
}

Test(rule_select, groups_are_listed_once_in_table_order)
{
	const char *groups[SMP_RULE_COUNT];
	size_t n = smp__rule_groups(groups), i, j;

	cr_assert_geq(n, 8);
	cr_assert_str_eq(groups[0], "spec");
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			cr_assert_str_neq(groups[i], groups[j]);
}

static const char two_groups[] =
	TH_HF_P3_8X_DEBUG "disable_profiler: true\n"
			  "debugger_hook_config: false\n"
			  "environment: {GPU_NUM_DEVICES: \"2\"}\n";

/* The report of two_groups under o, its context in *ctx (freed after
 * the report). */
static struct smp_report *
check_with(const struct smp_options *o, struct smp_context **ctx)
{
	struct smp_report *rep = NULL;
	struct smp_error err = {0};

	*ctx = NULL;
	cr_assert_eq(smp_context_new(ctx, o, &err), 0, "%s", err.message);
	cr_assert_eq(smp_check_buffer(&rep, *ctx, "job.yaml", two_groups,
				      strlen(two_groups), &err),
		     0);
	return rep;
}

Test(rule_select, context_applies_select_and_ignore)
{
	static const char *const sel[] = {"gpu-num-devices", "compiler"};
	static const char *const ign[] = {"compiler-debug"};
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_context *ctx;
	struct smp_report *rep;

	o.no_script = 1;
	rep = check_with(&o, &ctx);
	cr_assert(th_has_rule(rep, "compiler-debug"));
	cr_assert(th_has_rule(rep, "gpu-num-devices-mismatch"));
	smp_report_free(rep);
	smp_context_free(ctx);

	o.select.names = sel;
	o.select.count = 2;
	o.ignore.names = ign;
	o.ignore.count = 1;
	rep = check_with(&o, &ctx);
	cr_assert_not(th_has_rule(rep, "compiler-debug"));
	cr_assert(th_has_rule(rep, "gpu-num-devices-mismatch"));
	smp_report_free(rep);
	smp_context_free(ctx);
}

/* An override never brings back a rule the selection leaves out. */
Test(rule_select, override_does_not_revive_an_ignored_rule)
{
	static const char *const ign[] = {"compiler"};
	static const struct smp_rule_override up[] = {
		{"compiler-debug", SMP_SEVERITY_ERROR}};
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_context *ctx;
	struct smp_report *rep;

	o.no_script = 1;
	o.ignore.names = ign;
	o.ignore.count = 1;
	o.overrides = up;
	o.override_count = 1;
	rep = check_with(&o, &ctx);
	cr_assert_not(th_has_rule(rep, "compiler-debug"));
	smp_report_free(rep);
	smp_context_free(ctx);
}

Test(rule_select, context_refuses_unknown_names_with_did_you_mean)
{
	static const char *const sel[] = {"distributoin"};
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_context *ctx = NULL;
	struct smp_error err = {0};

	o.select.names = sel;
	o.select.count = 1;
	cr_assert_eq(smp_context_new(&ctx, &o, &err), SMP_EINVAL);
	cr_assert_null(ctx);
	cr_assert_neq(strstr(err.message, "'distributoin'"), NULL, "%s",
		      err.message);
	cr_assert_neq(strstr(err.message, "did you mean 'distribution'"), NULL,
		      "%s", err.message);
	o.select.names = NULL;
	cr_assert_eq(smp_context_new(&ctx, &o, &err), SMP_EINVAL);
}

/* A version-3 caller has no select/ignore: garbage there is not read. */
Test(rule_select, version_3_caller_has_no_selection)
{
	union {
		struct smp_options o;
		unsigned char bytes[sizeof(struct smp_options)];
	} mem;
	struct smp_options full = SMP_OPTIONS_INIT;
	const size_t v3 = offsetof(struct smp_options, select);
	struct smp_context *ctx;
	struct smp_report *rep;

	full.version = 3;
	full.no_script = 1;
	memset(&mem, 0xA5, sizeof(mem));
	memcpy(mem.bytes, &full, v3);
	rep = check_with(&mem.o, &ctx);
	cr_assert(th_has_rule(rep, "compiler-debug"));
	smp_report_free(rep);
	smp_context_free(ctx);
}
