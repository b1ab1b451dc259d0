/*
 * test_config_file.c - smp_config_parse() (configuration files read with
 * the spec loader and checked against schemas/config.schema.json) and the
 * instance overlay of smp_options (instance types added or replaced).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "failing_alloc.h"
#include "helpers.h"
#include "smpreflight.h"

static const char config_text[] =
	"# a configuration\n"
	"root: true\n"
	"fail-on: warning\n"
	"lr-scaling: sqrt\n"
	"rules:\n"
	"  compiler-debug: off\n"
	"  efa-recommended: error\n"
	"hyperparameters:\n"
	"  batch-size: [bs, per_device_train_batch_size]\n"
	"  global-batch: []\n"
	"instance-overlay: site/instances.json\n"
	"ignore: [\"legacy/**\", \"*.draft.yaml\"]\n"
	"extensions: [yaml, job]\n"
	"data-url: https://data.example.org/instance-data/\n";

Test(config_file, parse_reads_every_key)
{
	struct smp_config *c = NULL;
	struct smp_error err = {0};

	cr_assert_eq(smp_config_parse(&c, ".sm-preflight.yaml", config_text,
				      strlen(config_text), NULL, &err),
		     0, "%s", err.message);
	cr_assert_eq(c->root, 1);
	cr_assert_str_eq(c->fail_on.value, "warning");
	cr_assert_eq(c->fail_on.pos.line, 3);
	cr_assert_eq(c->fail_on.pos.column, 1);
	cr_assert_str_eq(c->lr_scaling.value, "sqrt");
	cr_assert_eq(c->rule_count, 2);
	cr_assert_str_eq(c->rules[0].rule, "compiler-debug");
	cr_assert_eq(c->rules[0].severity, SMP_SEVERITY_OFF);
	cr_assert_eq(c->rules[1].severity, SMP_SEVERITY_ERROR);
	cr_assert_eq(c->rules[1].pos.line, 7);
	cr_assert_eq(c->rules[1].pos.column, 3);
	cr_assert_eq(c->batch_size_names.count, 2);
	cr_assert_str_eq(c->batch_size_names.items[0], "bs");
	cr_assert_eq(c->global_batch_names.set, 1);
	cr_assert_eq(c->global_batch_names.count, 0);
	cr_assert_eq(c->model_names.set, 0);
	cr_assert_str_eq(c->instance_overlay.value, "site/instances.json");
	cr_assert_eq(c->ignore.count, 2);
	cr_assert_str_eq(c->ignore.items[1], "*.draft.yaml");
	cr_assert_eq(c->extensions.count, 2);
	cr_assert_str_eq(c->data_url.value,
			 "https://data.example.org/instance-data/");
	cr_assert_eq(c->data_url.pos.line, 14);
	cr_assert_eq(c->select.set, 0);
	cr_assert_eq(c->ignore_rules.set, 0);
	cr_assert_eq(c->all_jobs, -1); /* not set */
	smp_config_free(c);

	cr_assert_eq(smp_config_parse(&c, "all.yaml",
				      "root: true\nall-jobs: true\n", 25, NULL,
				      &err),
		     0, "%s", err.message);
	cr_assert_eq(c->all_jobs, 1);
	cr_assert_eq(c->all_jobs_pos.line, 2);
	cr_assert_eq(c->exclude.set, 0);
	cr_assert_eq(c->force_exclude, -1); /* not set */
	cr_assert_eq(c->respect_gitignore, -1);
	smp_config_free(c);

	cr_assert_eq(smp_config_parse(&c, "sel.yaml",
				      "select: [ALL]\nignore-rules: [script, "
				      "compiler-debug]\n",
				      53, NULL, &err),
		     0, "%s", err.message);
	cr_assert_eq(c->select.count, 1);
	cr_assert_str_eq(c->select.items[0], "ALL");
	cr_assert_eq(c->ignore_rules.count, 2);
	cr_assert_str_eq(c->ignore_rules.items[1], "compiler-debug");
	cr_assert_eq(c->ignore_rules.pos.line, 2);
	smp_config_free(c);

	cr_assert_eq(smp_config_parse(&c, "empty.yaml", "# nothing\n", 10, NULL,
				      &err),
		     0);
	cr_assert_null(c->fail_on.value);
	cr_assert_eq(c->rule_count, 0);
	smp_config_free(c);
	smp_config_free(NULL);
}

/* ruff's exclude, extend-exclude, force-exclude and respect-gitignore */
Test(config_file, exclude_keys)
{
	static const char text[] = "exclude: [drafts, \"old/*.yaml\"]\n"
				   "extend-exclude: [gen/]\n"
				   "force-exclude: true\n"
				   "respect-gitignore: false\n";
	struct smp_config *c;
	struct smp_error err;

	cr_assert_eq(
		smp_config_parse(&c, "x.yaml", text, strlen(text), NULL, &err),
		0, "%s", err.message);
	cr_assert_eq(c->exclude.set, 1);
	cr_assert_eq(c->exclude.count, 2);
	cr_assert_str_eq(c->exclude.items[1], "old/*.yaml");
	cr_assert_eq(c->exclude.pos.line, 1);
	cr_assert_eq(c->extend_exclude.count, 1);
	cr_assert_str_eq(c->extend_exclude.items[0], "gen/");
	cr_assert_eq(c->ignore.set, 0);
	cr_assert_eq(c->force_exclude, 1);
	cr_assert_eq(c->force_exclude_pos.line, 3);
	cr_assert_eq(c->respect_gitignore, 0);
	cr_assert_eq(c->respect_gitignore_pos.line, 4);
	smp_config_free(c);

	/* an empty exclude is set: nothing is excluded by default */
	cr_assert_eq(
		smp_config_parse(&c, "e.yaml", "exclude: []\n", 12, NULL, &err),
		0, "%s", err.message);
	cr_assert_eq(c->exclude.set, 1);
	cr_assert_eq(c->exclude.count, 0);
	smp_config_free(c);

	cr_assert_neq(smp_config_parse(&c, "b.yaml",
				       "force-exclude: yes please\n", 26, NULL,
				       &err),
		      0);
	cr_assert_eq(err.line, 1);
}

Test(config_file, parse_errors_have_positions)
{
	static const struct {
		const char *text;
		unsigned line, column;
		const char *what;
	} bad[] = {
		{"fail-on: warning\nlr_scaling: sqrt\n", 2, 1,
		 "did you mean 'lr-scaling'"},
		{"rules:\n  compiler-debg: off\n", 2, 3,
		 "did you mean 'compiler-debug'"},
		{"rules:\n  compiler-debug: loud\n", 2, 19, "must be one of"},
		{"hyperparameters:\n  model: bert\n", 2, 10, "list"},
		{"fail-on: [warning\n", 1, 10, "flow sequence"},
		{"- a\n- b\n", 1, 1, "mapping"},
		{"a: 1\na: 2\n", 2, 1, "duplicate"},
		{"extensions: []\n", 1, 13, ""},
		{"select: [ALL, instanse]\n", 1, 15,
		 "unknown rule or group 'instanse' in 'select'; did you mean "
		 "'instance'?"},
		{"ignore-rules: [script-cuda-devise]\n", 1, 16,
		 "did you mean 'script-cuda-device'"},
		{"ignore-rules: script\n", 1, 15, "must be a list"},
	};
	struct smp_config *c;
	struct smp_error err = {0};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		c = (struct smp_config *)&err; /* must become NULL */
		cr_assert_eq(smp_config_parse(&c, "c.yaml", bad[i].text,
					      strlen(bad[i].text), NULL, &err),
			     SMP_EPARSE, "%s", bad[i].text);
		cr_assert_null(c);
		cr_assert_str_eq(err.source, "c.yaml");
		cr_assert_eq(err.line, bad[i].line, "%s: line %u: %s",
			     bad[i].text, err.line, err.message);
		cr_assert_eq(err.column, bad[i].column, "%s: column %u: %s",
			     bad[i].text, err.column, err.message);
		cr_assert_not_null(strstr(err.message, bad[i].what), "%s: %s",
				   bad[i].text, err.message);
	}
}

Test(config_file, parse_allocation_failure_is_clean)
{
	struct failing_alloc st = FA_INIT;
	struct smp_allocator a = fa_allocator(&st);
	long n;
	int done = 0;

	for (n = 0; !done; n++) {
		struct smp_config *c = NULL;
		int rc;

		fa_arm(&st, n);
		rc = smp_config_parse(&c, "c.yaml", config_text,
				      strlen(config_text), &a, NULL);
		cr_assert(rc == 0 || rc == SMP_ENOMEM, "n=%ld rc=%d", n, rc);
		done = rc == 0 && st.calls <= n;
		if (rc == 0)
			cr_assert_str_eq(c->fail_on.value, "warning");
		smp_config_free(c);
		cr_assert_eq(st.live, 0, "n=%ld leaked %ld", n, st.live);
	}
}

static const char overlay[] =
	"{\"schema_version\": 1, \"instances\": [\n"
	" {\"type\": \"ml.g5.96xlarge\", \"family\": \"g5\", \"vcpus\": 384,"
	" \"memory_gib\": 1536, \"gpus\": 16, \"gpu_model\": \"A10G\","
	" \"gpu_memory_gib\": 24, \"efa\": true, \"network_gbps\": 200,"
	" \"compiler_supported\": true, \"source\": \"test\"},\n"
	" {\"type\": \"ml.p3.2xlarge\", \"family\": \"p3\", \"vcpus\": 96,"
	" \"memory_gib\": 61, \"gpus\": 1, \"gpu_model\": \"V100\","
	" \"gpu_memory_gib\": 16, \"efa\": false, \"network_gbps\": 10,"
	" \"compiler_supported\": true, \"source\": \"test: replaced\"}]}\n";

/* The message of rule's finding in spec, or "" (static buffer). */
static const char *
message_of(const struct smp_context *ctx, const char *spec, const char *rule)
{
	static char msg[1024];
	struct smp_report *rep = th_check(ctx, spec);
	const struct smp_finding *f = th_find(rep, rule);

	snprintf(msg, sizeof(msg), "%s", f ? f->message : "");
	smp_report_free(rep);
	return msg;
}

Test(config_file, overlay_adds_and_replaces_instance_types)
{
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_context *ctx = NULL;
	struct smp_error err = {0};
	static const char new_type[] = "estimator: HuggingFace\n"
				       "instance_type: ml.g5.96xlarge\n";
	static const char replaced[] =
		"estimator: HuggingFace\n"
		"instance_type: ml.p3.2xlarge\n"
		"transformers_version: \"4.21.1\"\n"
		"pytorch_version: \"1.11.0\"\n"
		"py_version: py38\n"
		"compiler_config: {enabled: true}\n"
		"debugger_hook_config: false\n"
		"disable_profiler: true\n"
		"hyperparameters: {model_name_or_path: bert-base-uncased, "
		"preprocessing_num_workers: 1}\n";

	o.no_script = 1;
	cr_assert_eq(smp_context_new(&ctx, &o, &err), 0);
	cr_assert_str_neq(message_of(ctx, new_type, "instance-unknown"), "");
	cr_assert_not_null(strstr(
		message_of(ctx, replaced, "preprocessing-workers"), "8 vCPUs"));
	smp_context_free(ctx);

	o.instance_overlay.name = "site.json";
	o.instance_overlay.buf = overlay;
	o.instance_overlay.len = strlen(overlay);
	cr_assert_eq(smp_context_new(&ctx, &o, &err), 0, "%s", err.message);
	cr_assert_str_eq(message_of(ctx, new_type, "instance-unknown"), "");
	cr_assert_not_null(
		strstr(message_of(ctx, replaced, "preprocessing-workers"),
		       "96 vCPUs"),
		"%s", message_of(ctx, replaced, "preprocessing-workers"));
	smp_context_free(ctx);
}

Test(config_file, bad_overlay_is_an_error_with_position)
{
	static const char bad[] = "{\"schema_version\": 1, \"instances\": [\n"
				  "  {\"type\": \"ml.x.y\"}]}\n";
	static const char twice[] =
		"{\"schema_version\": 1, \"instances\": [\n"
		" {\"type\": \"ml.g5.96xlarge\", \"family\": \"g5\", "
		"\"vcpus\": "
		"1, \"memory_gib\": 1, \"gpus\": 1, \"gpu_model\": \"A10G\", "
		"\"gpu_memory_gib\": null, \"efa\": false, \"network_gbps\": "
		"null, \"compiler_supported\": true, \"source\": \"t\"},\n"
		" {\"type\": \"ml.g5.96xlarge\", \"family\": \"g5\", "
		"\"vcpus\": "
		"1, \"memory_gib\": 1, \"gpus\": 1, \"gpu_model\": \"A10G\", "
		"\"gpu_memory_gib\": null, \"efa\": false, \"network_gbps\": "
		"null, \"compiler_supported\": true, \"source\": \"t\"}]}\n";
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_context *ctx = NULL;
	struct smp_error err = {0};

	o.instance_overlay.name = "site.json";
	o.instance_overlay.buf = bad;
	o.instance_overlay.len = strlen(bad);
	cr_assert_eq(smp_context_new(&ctx, &o, &err), SMP_EPARSE);
	cr_assert_null(ctx);
	cr_assert_str_eq(err.source, "site.json");
	cr_assert_eq(err.line, 2);
	cr_assert_str_eq(err.message,
			 "missing required key 'family' in 'instances[0]'");

	o.instance_overlay.buf = twice;
	o.instance_overlay.len = strlen(twice);
	cr_assert_eq(smp_context_new(&ctx, &o, &err), SMP_EPARSE);
	cr_assert_eq(err.line, 3);
	cr_assert_not_null(strstr(err.message, "listed twice"));
}
