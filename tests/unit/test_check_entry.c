/*
 * test_check_entry.c - smp_check(), the one check entry point: a buffer
 * or a file, and its options (input format, entry-script folder,
 * baseline), read at the caller's version.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "smpreflight.h"

/* A flow mapping: YAML and JSON alike, but only JSON has no comments. */
static const char FLOW[] =
	"{\"estimator\": \"PyTorch\", \"entry_point\": \"train.py\", "
	"\"instance_type\": \"ml.p3.2xlarge\", \"framework_version\": "
	"\"1.13.1\", \"py_version\": \"py39\", \"compiler_confg\": {}}\n";

static const char YAML_SPEC[] = "estimator: PyTorch\n"
				"entry_point: train.py\n"
				"instance_type: ml.p3.2xlarge\n"
				"framework_version: 1.13.1\n"
				"py_version: py39\n"
				"compiler_config: {enabled: true}\n";

static struct smp_report *
check_with(const struct smp_context *ctx, const char *name, const char *buf,
	   const struct smp_check_options *o)
{
	struct smp_report *rep = NULL;
	struct smp_error err = {0};
	int rc =
		smp_check(&rep, ctx, name, buf, buf ? strlen(buf) : 0, o, &err);

	cr_assert_eq(rc, 0, "%s", err.message);
	cr_assert_not_null(rep);
	return rep;
}

Test(check_entry, format_forces_the_loader)
{
	struct smp_context *ctx = th_context(NULL);
	struct smp_check_options o;
	struct smp_report *rep;

	cr_assert_eq(smp_check_options_init(&o, SMP_CHECK_OPTIONS_VERSION), 0);
	cr_assert_eq(o.version, SMP_CHECK_OPTIONS_VERSION);
	cr_assert_null(o.baseline);
	cr_assert_eq(o.format, SMP_INPUT_AUTO);
	/* YAML text named .json: AUTO reads JSON and fails to parse it */
	rep = check_with(ctx, "j.json", YAML_SPEC, &o);
	cr_assert(th_has_rule(rep, "syntax"));
	smp_report_free(rep);
	o.format = SMP_INPUT_YAML;
	rep = check_with(ctx, "j.json", YAML_SPEC, &o);
	cr_assert(!th_has_rule(rep, "syntax"));
	smp_report_free(rep);
	/* an unknown format is refused */
	o.format = (enum smp_input_format)99;
	{
		struct smp_report *none = NULL;

		cr_assert_eq(smp_check(&none, ctx, "j.yaml", FLOW, strlen(FLOW),
				       &o, NULL),
			     SMP_EINVAL);
		cr_assert_null(none);
	}
	o.format = SMP_INPUT_JSON;
	rep = check_with(ctx, "j.yaml", FLOW, &o);
	cr_assert(th_has_rule(rep, "unknown-key"));
	smp_report_free(rep);
	smp_context_free(ctx);
}

Test(check_entry, buffer_or_file)
{
	struct smp_context *ctx = th_context(NULL);
	struct smp_check_options o = SMP_CHECK_OPTIONS_INIT;
	char dir[] = "/tmp/smp-entry-XXXXXX", path[64];
	struct smp_report *a, *b;
	struct smp_error err = {0};
	FILE *f;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/job.yaml", dir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(YAML_SPEC, f);
	fclose(f);
	/* a NULL buffer reads the file called name, and looks for its
	 * entry script beside it */
	o.script_dir = dir;
	a = check_with(ctx, path, NULL, NULL);
	b = check_with(ctx, path, YAML_SPEC, &o);
	cr_assert_eq(smp_report_count(a), smp_report_count(b));
	cr_assert_gt(smp_report_count(a), 0);
	smp_report_free(a);
	smp_report_free(b);
	cr_assert_eq(
		smp_check(&a, ctx, "/nonexistent/j.yaml", NULL, 0, NULL, &err),
		SMP_EIO);
	cr_assert_null(a);
	th_rm_tree(dir);
	smp_context_free(ctx);
}

Test(check_entry, script_dir_finds_the_entry_script)
{
	struct smp_context *ctx = th_context(NULL);
	struct smp_check_options o = SMP_CHECK_OPTIONS_INIT;
	char dir[] = "/tmp/smp-entry-XXXXXX", path[64];
	struct smp_report *rep;
	FILE *f;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/train.py", dir);
	f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs("import torch\n", f);
	fclose(f);
	/* a buffer without script_base_dir: the script is not looked for */
	rep = check_with(ctx, "j.yaml", YAML_SPEC, &o);
	cr_assert(!th_has_rule(rep, "script-missing"));
	smp_report_free(rep);
	/* in another folder: missing there */
	o.script_dir = "/nonexistent";
	rep = check_with(ctx, "j.yaml", YAML_SPEC, &o);
	cr_assert(th_has_rule(rep, "script-missing"));
	smp_report_free(rep);
	/* in its folder: found, so not missing */
	o.script_dir = dir;
	rep = check_with(ctx, "j.yaml", YAML_SPEC, &o);
	cr_assert(!th_has_rule(rep, "script-missing"));
	smp_report_free(rep);
	th_rm_tree(dir);
	smp_context_free(ctx);
}

Test(check_entry, options_of_a_newer_library_are_refused)
{
	struct smp_context *ctx = th_context(NULL);
	struct smp_check_options o = SMP_CHECK_OPTIONS_INIT;
	struct smp_report *rep = NULL;
	struct smp_error err = {0};

	o.version = SMP_CHECK_OPTIONS_VERSION + 1;
	cr_assert_eq(smp_check(&rep, ctx, "j.yaml", YAML_SPEC,
			       strlen(YAML_SPEC), &o, &err),
		     SMP_EINVAL);
	cr_assert_str_eq(err.source, "options");
	cr_assert(strstr(err.message, "smp_check_options") != NULL, "%s",
		  err.message);
	smp_context_free(ctx);
}
