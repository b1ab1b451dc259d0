/*
 * test_check_no_edits.c - SMP_CHECK_NO_EDITS: the same findings, fix
 * text and all, without their byte edits (a plain text or SARIF check
 * does not work them out).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "helpers.h"
#include "smpreflight.h"

static const char spec[] = "estimator: HuggingFace\n"
			   "entry_point: train.py\n"
			   "instance_type: ml.p3.8xlarge\n"
			   "instance_count: 1\n"
			   "transformers_version: \"4.21.1\"\n"
			   "pytorch_version: \"1.10.2\"\n"
			   "py_version: py38\n"
			   "compiler_config: {enabled: true}\n"
			   "debugger_hook_config: false\n"
			   "disable_profiler: true\n"
			   "distribution: {pytorchxla: {enabled: true}}\n"
			   "environment: {GPU_NUM_DEVICES: \"8\"}\n";

static struct smp_report *
check(const struct smp_context *ctx, unsigned int flags)
{
	struct smp_check_options o = SMP_CHECK_OPTIONS_INIT;
	struct smp_report *rep = NULL;
	struct smp_error err;

	o.flags = flags;
	cr_assert_eq(
		smp_check(&rep, ctx, "s.yaml", spec, strlen(spec), &o, &err), 0,
		"%s", err.message);
	return rep;
}

Test(check_no_edits, same_findings_without_their_edits)
{
	struct smp_context *ctx = th_context(NULL);
	struct smp_report *with = check(ctx, 0);
	struct smp_report *without = check(ctx, SMP_CHECK_NO_EDITS);
	size_t i, edits = 0;

	cr_assert_eq(smp_report_count(with), smp_report_count(without));
	for (i = 0; i < smp_report_count(with); i++) {
		const struct smp_finding *a = smp_report_get(with, i);
		const struct smp_finding *b = smp_report_get(without, i);

		cr_assert_str_eq(a->rule, b->rule);
		cr_assert_str_eq(a->message, b->message);
		cr_assert_eq(a->line, b->line);
		if (a->fix)
			cr_assert_str_eq(a->fix, b->fix);
		edits += a->edit_text != NULL;
		cr_assert_null(b->edit_text);
		cr_assert_eq(b->edit_start, 0);
		cr_assert_eq(b->edit_end, 0);
		cr_assert_eq(b->edit_unsafe, 0);
	}
	/* gpu-num-devices-mismatch and framework-version have edits */
	cr_assert_geq(edits, 2);
	smp_report_free(with);
	smp_report_free(without);
	smp_context_free(ctx);
}

Test(check_no_edits, unknown_flags_still_refused)
{
	struct smp_context *ctx = th_context(NULL);
	struct smp_check_options o = SMP_CHECK_OPTIONS_INIT;
	struct smp_report *rep = NULL;
	struct smp_error err;

	o.flags = SMP_CHECK_NO_EDITS | 16u; /* past SMP_CHECK_RUN_SAID */
	cr_assert_eq(
		smp_check(&rep, ctx, "s.yaml", spec, strlen(spec), &o, &err),
		SMP_EINVAL);
	cr_assert_null(rep);
	smp_context_free(ctx);
}
