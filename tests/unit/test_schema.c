/*
 * test_schema.c - the schema checker: the real embedded estimator schema
 * against many specs (exact messages, rules, fixes, positions), every
 * supported keyword on small schemas, load errors (unsupported keywords,
 * bad $ref, cycles), document order and allocation failure.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/embedded.h"
#include "failing_alloc.h"
#include "doc/load.h"
#include "rules/check.h"
#include "schema/schema.h"
#include "util/error.h"

static struct failing_alloc counter = FA_INIT;
static const struct smp_allocator counting_alloc = {fa_malloc, fa_realloc,
						    fa_free, &counter};

static struct smp_schema *
load_estimator(void)
{
	const struct smp_embedded_file *f =
		smp__embedded_find("estimator.schema.json");
	struct smp_schema *s = NULL;
	struct smp_error err = {0};
	int rc;

	cr_assert_not_null(f, "estimator.schema.json is not embedded");
	rc = smp__schema_load(&s, &counting_alloc, f->name,
			      (const char *)f->data, f->len, &err);
	cr_assert_eq(rc, 0, "load: %d %s at %u:%u", rc, err.message, err.line,
		     err.column);
	cr_assert_not_null(s);
	return s;
}

static struct smp_schema *
load_text(const char *text, int want_rc, struct smp_error *err)
{
	struct smp_schema *s = NULL;
	int rc;

	rc = smp__schema_load(&s, &counting_alloc, "test.schema.json", text,
			      strlen(text), err);
	cr_assert_eq(rc, want_rc, "load returned %d (%s), want %d", rc,
		     err->message, want_rc);
	if (rc)
		cr_assert_null(s);
	return s;
}

/* A spec checked against a schema: the loaded docs and the report. */
struct checked {
	struct smp_docs docs;
	struct smp_report *rep;
	int rc;
};

/* Loads spec into t (no schema check yet). */
static void
load_spec(struct checked *t, const char *spec)
{
	struct smp_limits lim;
	size_t len = strlen(spec);
	int json = strncmp(spec, "{\"", 2) == 0; /* else YAML, flow or not */

	smp__limits_resolve(&lim, NULL);
	smp__docs_init(&t->docs, &counting_alloc);
	cr_assert_eq(smp__report_new(&t->rep, &counting_alloc,
				     json ? "spec.json" : "spec.yaml", NULL),
		     0);
	t->rep->buf = spec;
	t->rep->len = len;
	t->rep->is_json = json;
	t->rc = json ? smp__load_json(&t->docs, spec, len, &lim)
		     : smp__load_yaml(&t->docs, spec, len, &lim);
	if (t->rc == 0)
		t->rc = smp__rules_input(t->rep, &t->docs);
	cr_assert_eq(t->rc, 0);
	cr_assert_eq(t->rep->count, 0, "spec does not load: %s",
		     t->rep->count ? t->rep->items[0].message : "");
	cr_assert_eq(t->docs.count, 1);
	t->rep->root = t->docs.items[0].root;
}

static void
check_spec(struct checked *t, const struct smp_schema *s, const char *spec)
{
	load_spec(t, spec);
	t->rc = smp__schema_check(s, t->docs.items[0].root, t->rep, 0);
}

static void
release(struct checked *t)
{
	smp_report_free(t->rep);
	smp__docs_release(&t->docs);
}

static const struct smp_finding *
finding(const struct checked *t, size_t i)
{
	cr_assert_lt(i, t->rep->count, "finding %zu of %zu", i, t->rep->count);
	return &t->rep->items[i];
}

static void
dump(const struct checked *t)
{
	size_t i;

	for (i = 0; i < t->rep->count; i++)
		fprintf(stderr, "  %u:%u [%s] %s\n", t->rep->items[i].line,
			t->rep->items[i].column, t->rep->items[i].rule,
			t->rep->items[i].message);
}

/* Exactly one finding, with this rule and message. */
static const struct smp_finding *
expect_one(const struct checked *t, const char *rule, const char *message)
{
	const struct smp_finding *f;

	if (t->rep->count != 1)
		dump(t);
	cr_assert_eq(t->rc, 0);
	cr_assert_eq(t->rep->count, 1, "want 1 finding, got %zu",
		     t->rep->count);
	f = finding(t, 0);
	cr_expect_str_eq(f->rule, rule);
	if (message)
		cr_expect_str_eq(f->message, message);
	return f;
}

static void
expect_none(const struct checked *t)
{
	if (t->rep->count)
		dump(t);
	cr_assert_eq(t->rc, 0);
	cr_assert_eq(t->rep->count, 0, "want no findings, got %zu",
		     t->rep->count);
}

/* One spec against the estimator schema, expecting one finding. */
static void
one(const char *spec, const char *rule, const char *message)
{
	struct smp_schema *s = load_estimator();
	struct checked t;

	check_spec(&t, s, spec);
	expect_one(&t, rule, message);
	release(&t);
	smp__schema_free(s);
}

static void
none(const char *spec)
{
	struct smp_schema *s = load_estimator();
	struct checked t;

	check_spec(&t, s, spec);
	expect_none(&t);
	release(&t);
	smp__schema_free(s);
}

static const char hf_ok[] =
	"estimator: HuggingFace\n"
	"entry_point: train.py\n"
	"source_dir: scripts\n"
	"role: arn:aws:iam::111122223333:role/sm\n"
	"instance_type: ml.p3.8xlarge\n"
	"instance_count: 1\n"
	"transformers_version: \"4.21.1\"\n"
	"pytorch_version: \"1.11.0\"\n"
	"py_version: py38\n"
	"compiler_config: {enabled: true, debug: false}\n"
	"distribution: {pytorchxla: {enabled: true}}\n"
	"disable_profiler: true\n"
	"debugger_hook_config: false\n"
	"hyperparameters: {model_name_or_path: bert-base-uncased,\n"
	"  per_device_train_batch_size: 24, learning_rate: 5.0e-5,\n"
	"  fp16: true}\n"
	"environment: {GPU_NUM_DEVICES: \"4\", XLA_USE_BF16: \"1\"}\n"
	"tags: [{Key: team, Value: nlp}]\n"
	"metric_definitions: [{Name: loss, Regex: 'loss: ([0-9.]+)'}]\n"
	"max_run: 86400\n"
	"volume_size: 100\n"
	"use_spot_instances: false\n"
	"checkpoint_s3_uri: s3://bucket/ckpt\n"
	"subnets: [subnet-1]\n"
	"security_group_ids: [sg-1]\n";

Test(schema, correct_huggingface_spec_has_no_findings)
{
	none(hf_ok);
}

Test(schema, correct_pytorch_spec_has_no_findings)
{
	none("estimator: PyTorch\n"
	     "entry_point: train.py\n"
	     "framework_version: \"1.13.1\"\n"
	     "py_version: py39\n"
	     "instance_type: ml.p4d.24xlarge\n"
	     "instance_count: 2\n"
	     "compiler_config: {}\n"
	     "distribution:\n"
	     "  pytorchxla: {enabled: true}\n"
	     "training_recipe: llama\n"
	     "recipe_overrides: {trainer: {max_steps: 10}}\n"
	     "debugger_hook_config:\n"
	     "  s3_output_path: s3://b/d\n"
	     "  hook_parameters: {save_interval: \"100\"}\n"
	     "  collection_configs: [{name: weights, parameters: {}}]\n"
	     "profiler_config:\n"
	     "  s3_output_path: s3://b/p\n"
	     "  system_monitor_interval_millis: 500\n"
	     "  profile_params: {cpu_profiling_duration: \"3600\"}\n"
	     "  disable_profiler: false\n"
	     "instance_groups:\n"
	     "  - {instance_group_name: a, instance_type: ml.p3.2xlarge,\n"
	     "     instance_count: 1}\n"
	     "git_config: {repo: 'https://example.com/r.git', branch: main,\n"
	     "  2FA_enabled: false}\n"
	     "input_mode: FastFile\n"
	     "max_retry_attempts: 30\n");
}

Test(schema, correct_tensorflow_spec_has_no_findings)
{
	none("estimator: TensorFlow\n"
	     "entry_point: train.py\n"
	     "framework_version: \"2.11.0\"\n"
	     "py_version: py39\n"
	     "model_dir: false\n"
	     "instance_type: ml.p3.16xlarge\n"
	     "instance_count: 1\n"
	     "compiler_config: {enabled: true}\n"
	     "distributions: {multi_worker_mirrored_strategy: {enabled: "
	     "true}}\n"
	     "tags: {team: vision}\n"
	     "tensorboard_output_config: {s3_output_path: s3://b/tb}\n"
	     "instance_placement_config:\n"
	     "  EnableMultipleJobs: true\n"
	     "  PlacementSpecifications: [{UltraServerId: u1, InstanceCount: "
	     "2}]\n");
}

Test(schema, correct_json_spec_has_no_findings)
{
	none("{\"estimator\": \"PyTorch\", \"entry_point\": \"t.py\",\n"
	     " \"framework_version\": \"1.12\", \"py_version\": \"py38\",\n"
	     " \"instance_type\": \"ml.g5.48xlarge\", \"instance_count\": 1,\n"
	     " \"compiler_config\": {\"enabled\": true, \"debug\": false},\n"
	     " \"environment\": {\"GPU_NUM_DEVICES\": \"8\"}}\n");
}

Test(schema, spec_without_estimator_uses_the_union)
{
	/* keys of all three classes are accepted when the class is unknown */
	none("entry_point: t.py\n"
	     "framework_version: \"1.12\"\n"
	     "transformers_version: \"4.21\"\n"
	     "model_dir: s3://b/m\n");
}

Test(schema, typo_gets_did_you_mean_fix_and_suggestion)
{
	struct smp_schema *s = load_estimator();
	const struct smp_finding *f;
	struct checked t;

	check_spec(&t, s,
		   "estimator: HuggingFace\n"
		   "compiler_confg: {enabled: true}\n");
	f = expect_one(&t, "unknown-key",
		       "unknown key 'compiler_confg' for a HuggingFace "
		       "estimator; did you mean 'compiler_config'?");
	cr_expect_eq(f->line, 2);
	cr_expect_eq(f->column, 1);
	cr_expect_eq(f->end_column, 15);
	cr_expect_str_eq(f->fix,
			 "rename 'compiler_confg' to 'compiler_config'");
	cr_expect_str_eq(f->suggestion, "compiler_config");
	cr_expect_str_eq(f->pointer, "/compiler_confg");
	release(&t);
	smp__schema_free(s);
}

Test(schema, unknown_key_without_close_match_says_it_has_no_effect)
{
	one("estimator: PyTorch\ntotally_unknown_kwarg: 1\n", "unknown-key",
	    "unknown key 'totally_unknown_kwarg' for a PyTorch estimator; "
	    "the SDK silently ignores unknown arguments, so this setting has "
	    "no effect");
}

Test(schema, huggingface_only_key_on_pytorch_is_unknown)
{
	one("estimator: PyTorch\ntransformers_version: \"4.21\"\n",
	    "unknown-key",
	    "unknown key 'transformers_version' for a PyTorch estimator; the "
	    "SDK silently ignores unknown arguments, so this setting has no "
	    "effect");
}

Test(schema, pytorch_version_on_pytorch_suggests_framework_version)
{
	one("estimator: PyTorch\npytorch_version: \"1.12\"\n", "unknown-key",
	    "unknown key 'pytorch_version' for a PyTorch estimator; did you "
	    "mean 'framework_version'?");
}

Test(schema, framework_version_on_huggingface_is_unknown)
{
	one("estimator: HuggingFace\nframework_version: \"1.11\"\n",
	    "unknown-key", NULL);
}

Test(schema, legacy_names_are_accepted)
{
	none("estimator: HuggingFace\n"
	     "train_instance_type: ml.p3.2xlarge\n"
	     "train_instance_count: 1\n"
	     "train_max_run: 3600\n"
	     "train_use_spot_instances: true\n"
	     "train_max_wait: 7200\n"
	     "train_volume_size: 50\n"
	     "train_volume_kms_key: k\n"
	     "image_name: 1234.dkr.ecr.us-east-1.amazonaws.com/x:1\n");
}

Test(schema, legacy_name_keeps_the_type_of_the_new_name)
{
	one("estimator: PyTorch\ntrain_instance_count: two\n", "wrong-type",
	    "'train_instance_count' must be an integer, found a string "
	    "(\"two\")");
}

Test(schema, distributions_is_tensorflow_only)
{
	one("estimator: PyTorch\ndistributions: {}\n", "unknown-key",
	    "unknown key 'distributions' for a PyTorch estimator; did you "
	    "mean 'distribution'?");
}

Test(schema, torchxla_is_distribution_unknown_key_with_did_you_mean)
{
	struct smp_schema *s = load_estimator();
	const struct smp_finding *f;
	struct checked t;

	check_spec(&t, s,
		   "estimator: HuggingFace\n"
		   "distribution:\n"
		   "  torchxla: {enabled: true}\n");
	f = expect_one(&t, "distribution-unknown-key",
		       "unknown key 'torchxla' in 'distribution'; did you "
		       "mean 'pytorchxla'?");
	cr_expect_eq(f->line, 3);
	cr_expect_eq(f->column, 3);
	cr_expect_str_eq(f->suggestion, "pytorchxla");
	cr_expect_str_eq(f->fix, "rename 'torchxla' to 'pytorchxla'");
	cr_expect_str_eq(f->pointer, "/distribution/torchxla");
	release(&t);
	smp__schema_free(s);
}

Test(schema, pytorch_xla_maps_to_pytorchxla)
{
	one("estimator: PyTorch\ndistribution: {pytorch_xla: {enabled: "
	    "true}}\n",
	    "distribution-unknown-key",
	    "unknown key 'pytorch_xla' in 'distribution'; did you mean "
	    "'pytorchxla'?");
}

Test(schema, unknown_distribution_key_lists_the_known_ones)
{
	one("estimator: TensorFlow\ndistribution: {horovod: {}}\n",
	    "distribution-unknown-key",
	    "unknown key 'horovod' in 'distribution'; the SDK acts only on "
	    "'parameter_server', 'mpi', 'smdistributed', "
	    "'multi_worker_mirrored_strategy', 'instance_groups', "
	    "'pytorchxla' and silently ignores any other key");
}

Test(schema, distribution_not_a_mapping_is_wrong_type)
{
	one("estimator: HuggingFace\ndistribution: pytorchxla\n", "wrong-type",
	    "'distribution' must be a mapping, found a string "
	    "(\"pytorchxla\")");
}

Test(schema, unknown_sub_key_of_a_strategy_lists_the_keys)
{
	one("estimator: HuggingFace\ndistribution: {pytorchxla: {enable: "
	    "true}}\n",
	    "unknown-key",
	    "unknown key 'enable' in 'distribution.pytorchxla'; did you mean "
	    "'enabled'?");
	one("estimator: HuggingFace\ndistribution: {mpi: {zzz: 1}}\n",
	    "unknown-key",
	    "unknown key 'zzz' in 'distribution.mpi'; the keys are "
	    "'enabled', 'processes_per_host' and 'custom_mpi_options'");
}

Test(schema, compiler_config_true_is_wrong_type)
{
	one("estimator: HuggingFace\ncompiler_config: true\n", "wrong-type",
	    "'compiler_config' must be a mapping, found a boolean (true)");
}

Test(schema, compiler_config_fields_are_typed)
{
	one("estimator: PyTorch\ncompiler_config: {enabled: \"yes\"}\n",
	    "wrong-type",
	    "'compiler_config.enabled' must be a boolean, found a string "
	    "(\"yes\")");
	one("estimator: PyTorch\ncompiler_config: {enabld: true}\n",
	    "unknown-key",
	    "unknown key 'enabld' in 'compiler_config'; did you mean "
	    "'enabled'?");
}

Test(schema, pytorchxla_true_is_wrong_type)
{
	struct smp_schema *s = load_estimator();
	const struct smp_finding *f;
	struct checked t;

	check_spec(&t, s,
		   "estimator: PyTorch\ndistribution: {pytorchxla: true}\n");
	f = expect_one(&t, "wrong-type",
		       "'distribution.pytorchxla' must be a mapping, found a "
		       "boolean (true)");
	cr_expect_str_eq(f->pointer, "/distribution/pytorchxla");
	cr_expect_null(f->fix);
	release(&t);
	smp__schema_free(s);
}

Test(schema, environment_value_number_is_value_not_string)
{
	struct smp_schema *s = load_estimator();
	const struct smp_finding *f;
	struct checked t;

	check_spec(&t, s, "estimator: HuggingFace\nenvironment: {N_GPUS: 4}\n");
	f = expect_one(&t, "value-not-string",
		       "'environment.N_GPUS' must be a string, found an "
		       "integer (4); quote it: \"4\"");
	cr_expect_str_eq(f->fix, "quote the value: \"4\"");
	cr_expect_str_eq(f->suggestion, "4");
	release(&t);
	smp__schema_free(s);
}

Test(schema, environment_value_mapping_is_value_not_string)
{
	one("estimator: HuggingFace\nenvironment: {A: {b: c}}\n",
	    "value-not-string",
	    "'environment.A' must be a string, found a mapping");
}

Test(schema, gpu_num_devices_word_is_invalid_once)
{
	one("estimator: PyTorch\nenvironment: {GPU_NUM_DEVICES: \"four\"}\n",
	    "gpu-num-devices-invalid",
	    "'environment.GPU_NUM_DEVICES' must be a positive whole number "
	    "written as a string, e.g. \"4\"; found a string (\"four\")");
}

Test(schema, gpu_num_devices_number_is_invalid_once)
{
	struct smp_schema *s = load_estimator();
	const struct smp_finding *f;
	struct checked t;

	check_spec(&t, s,
		   "estimator: PyTorch\nenvironment:\n  GPU_NUM_DEVICES: 4\n");
	f = expect_one(&t, "gpu-num-devices-invalid",
		       "'environment.GPU_NUM_DEVICES' must be a positive "
		       "whole number written as a string, e.g. \"4\"; found "
		       "an integer (4); quote it: \"4\"");
	cr_expect_eq(f->line, 3);
	cr_expect_eq(f->column, 20);
	cr_expect_str_eq(f->suggestion, "4");
	release(&t);
	smp__schema_free(s);
}

Test(schema, gpu_num_devices_zero_is_invalid_without_quote_hint)
{
	struct smp_schema *s = load_estimator();
	const struct smp_finding *f;
	struct checked t;

	/* quoting 0 would still be wrong: no "quote it" */
	check_spec(&t, s,
		   "estimator: PyTorch\nenvironment: {GPU_NUM_DEVICES: 0}\n");
	f = expect_one(&t, "gpu-num-devices-invalid",
		       "'environment.GPU_NUM_DEVICES' must be a positive "
		       "whole number written as a string, e.g. \"4\"; found "
		       "an integer (0)");
	cr_expect_null(f->fix);
	release(&t);
	smp__schema_free(s);
	one("estimator: PyTorch\nenvironment: {GPU_NUM_DEVICES: \"04\"}\n",
	    "gpu-num-devices-invalid", NULL);
}

Test(schema, unquoted_version_float_says_quote_it)
{
	struct smp_schema *s = load_estimator();
	const struct smp_finding *f;
	struct checked t;

	check_spec(&t, s, "estimator: HuggingFace\npytorch_version: 1.10\n");
	f = expect_one(&t, "wrong-type",
		       "'pytorch_version' must be a string, found a number "
		       "(1.1); quote it: \"1.10\" \xE2\x80\x94 YAML reads 1.10 "
		       "as the number 1.1");
	cr_expect_str_eq(f->fix, "quote the value: \"1.10\"");
	cr_expect_str_eq(f->suggestion, "1.10");
	cr_expect_eq(f->column, 18);
	release(&t);
	smp__schema_free(s);
}

Test(schema, unquoted_version_that_reads_back_the_same)
{
	one("estimator: PyTorch\nframework_version: 1.13\n", "wrong-type",
	    "'framework_version' must be a string, found a number (1.13); "
	    "quote it: \"1.13\"");
	one("estimator: HuggingFace\ntransformers_version: 4\n", "wrong-type",
	    "'transformers_version' must be a string, found an integer (4); "
	    "quote it: \"4\"");
}

Test(schema, unquoted_version_in_json_says_json)
{
	one("{\"estimator\": \"PyTorch\", \"framework_version\": 1.10}",
	    "wrong-type",
	    "'framework_version' must be a string, found a number (1.1); "
	    "quote it: \"1.10\" \xE2\x80\x94 JSON reads 1.10 as the number "
	    "1.1");
}

Test(schema, instance_count_checks)
{
	one("estimator: PyTorch\ninstance_count: \"two\"\n", "wrong-type",
	    "'instance_count' must be an integer, found a string (\"two\")");
	one("estimator: PyTorch\ninstance_count: 0\n", "wrong-type",
	    "'instance_count' must be at least 1, found an integer (0)");
	one("estimator: PyTorch\ninstance_count: 2.0\n", "wrong-type",
	    "'instance_count' must be an integer, found a number (2)");
	/* empty is null: the SDK's None, instance_count's default */
	none("estimator: PyTorch\ninstance_count:\n");
}

Test(schema, max_retry_attempts_has_api_bounds)
{
	one("estimator: TensorFlow\nmax_retry_attempts: 31\n", "wrong-type",
	    "'max_retry_attempts' must be at most 30, found an integer (31)");
}

Test(schema, enum_value_gets_did_you_mean)
{
	struct smp_schema *s = load_estimator();
	const struct smp_finding *f;
	struct checked t;

	check_spec(&t, s, "estimator: PyTorch\ninput_mode: file\n");
	f = expect_one(&t, "wrong-type",
		       "'input_mode' must be one of 'File', 'Pipe', "
		       "'FastFile', found a string (\"file\"); did you mean "
		       "'File'?");
	cr_expect_str_eq(f->suggestion, "File");
	cr_expect_str_eq(f->fix, "replace 'file' with 'File'");
	release(&t);
	smp__schema_free(s);
}

Test(schema, unknown_estimator_class)
{
	one("estimator: Pytorch\n", "wrong-type",
	    "'estimator' must be one of 'HuggingFace', 'PyTorch', "
	    "'TensorFlow', found a string (\"Pytorch\"); did you mean "
	    "'PyTorch'?");
}

Test(schema, model_dir_is_a_string_or_false)
{
	none("estimator: TensorFlow\nmodel_dir: s3://b/m\n");
	one("estimator: TensorFlow\nmodel_dir: true\n", "wrong-type",
	    "'model_dir' must be a string or false, found a boolean (true)");
}

/* The SDK json.dumps() a list or mapping value of an estimator's
 * hyperparameters (EstimatorBase._json_encode_hyperparameters); null is
 * no value to send. */
Test(schema, hyperparameters_are_values_the_sdk_encodes)
{
	none("estimator: HuggingFace\nhyperparameters: {layers: [1, 2], "
	     "opt: {name: adamw}}\n");
	one("estimator: HuggingFace\nhyperparameters: {layers: null}\n",
	    "wrong-type",
	    "'hyperparameters.layers' must be a mapping, a list, a string, "
	    "a number or a boolean, found null");
}

Test(schema, debugger_hook_config_bool_or_mapping)
{
	none("estimator: HuggingFace\ndebugger_hook_config: true\n");
	one("estimator: HuggingFace\ndebugger_hook_config: \"false\"\n",
	    "wrong-type",
	    "'debugger_hook_config' must be a mapping or a boolean, found a "
	    "string (\"false\")");
	one("estimator: HuggingFace\ndisable_profiler: yes\n", "wrong-type",
	    "'disable_profiler' must be a boolean, found a string (\"yes\")");
}

Test(schema, list_items_are_named_by_index)
{
	one("estimator: HuggingFace\nmetric_definitions:\n"
	    "  - {Name: loss, Regex: x}\n  - {Name: acc, Regx: y}\n",
	    "unknown-key",
	    "unknown key 'Regx' in 'metric_definitions[1]'; did you mean "
	    "'Regex'?");
	one("estimator: HuggingFace\nsubnets: [a, 5]\n", "wrong-type",
	    "'subnets[1]' must be a string, found an integer (5); quote it: "
	    "\"5\"");
}

Test(schema, findings_come_in_document_order)
{
	struct smp_schema *s = load_estimator();
	struct checked t;
	size_t i;

	check_spec(&t, s,
		   "estimator: HuggingFace\n"
		   "compiler_confg: {}\n"
		   "instance_count: x\n"
		   "distribution: {torchxla: {}, mpi: true}\n"
		   "environment: {A: 1, GPU_NUM_DEVICES: 4}\n"
		   "zzz_unknown: 1\n");
	if (t.rep->count != 7)
		dump(&t);
	cr_assert_eq(t.rep->count, 7);
	for (i = 1; i < t.rep->count; i++)
		cr_expect(t.rep->items[i - 1].line < t.rep->items[i].line ||
				  (t.rep->items[i - 1].line ==
					   t.rep->items[i].line &&
				   t.rep->items[i - 1].column <
					   t.rep->items[i].column),
			  "finding %zu out of order", i);
	cr_expect_str_eq(t.rep->items[2].rule, "distribution-unknown-key");
	cr_expect_str_eq(t.rep->items[3].rule, "wrong-type");
	cr_expect_str_eq(t.rep->items[4].rule, "value-not-string");
	cr_expect_str_eq(t.rep->items[5].rule, "gpu-num-devices-invalid");
	release(&t);
	smp__schema_free(s);
}

Test(schema, top_keys_are_the_union_of_the_estimators)
{
	struct smp_schema *s = load_estimator();
	const char *const *keys;
	size_t n, i;
	int seen_est = 0, seen_tf = 0, seen_legacy = 0, seen_hf = 0;

	keys = smp__schema_top_keys(s, &n);
	/* 61 kwargs, 8 legacy names, 'distributions', 'estimator' */
	cr_expect_eq(n, 71);
	for (i = 0; i < n; i++) {
		seen_est |= strcmp(keys[i], "estimator") == 0;
		seen_tf |= strcmp(keys[i], "model_dir") == 0;
		seen_legacy |= strcmp(keys[i], "train_instance_type") == 0;
		seen_hf |= strcmp(keys[i], "transformers_version") == 0;
	}
	cr_expect(seen_est && seen_tf && seen_legacy && seen_hf);
	smp__schema_free(s);
	keys = smp__schema_top_keys(NULL, &n);
	cr_expect_null(keys);
	cr_expect_eq(n, 0);
}

Test(schema, every_embedded_schema_loads)
{
	size_t i, schemas = 0;

	for (i = 0; i < smp__embedded_count; i++) {
		const struct smp_embedded_file *f = &smp__embedded_files[i];
		struct smp_schema *s = NULL;
		struct smp_error err = {0};
		size_t len = strlen(f->name);
		int rc;

		if (len < 12 || strcmp(f->name + len - 12, ".schema.json"))
			continue;
		schemas++;
		rc = smp__schema_load(&s, &counting_alloc, f->name,
				      (const char *)f->data, f->len, &err);
		cr_expect_eq(rc, 0, "%s: %s at %u:%u", f->name, err.message,
			     err.line, err.column);
		smp__schema_free(s);
	}
	cr_expect_geq(schemas, 1);
}

/* ---- keywords on small schemas ---------------------------------- */

static void load_fails(const char *schema, const char *needle, unsigned line);

static void
small(const char *schema, const char *spec, const char *rule,
      const char *message)
{
	struct smp_schema *s;
	struct smp_error err = {0};
	struct checked t;

	s = load_text(schema, 0, &err);
	check_spec(&t, s, spec);
	if (rule)
		expect_one(&t, rule, message);
	else
		expect_none(&t);
	release(&t);
	smp__schema_free(s);
}

Test(schema, keyword_type_lists)
{
	small("{\"type\": [\"string\", \"null\"]}", "~\n", NULL, NULL);
	small("{\"type\": [\"string\", \"null\"]}", "[1]\n", "wrong-type",
	      "the document must be a string, found a list"); /* null: a
							       * default, not
							       * named */
	small("{\"type\": \"number\"}", "3\n", NULL, NULL);
	small("{\"type\": \"integer\"}", "0x1F\n", NULL, NULL);
	small("{\"type\": \"string\"}", "!!str 12\n", NULL, NULL);
}

Test(schema, keyword_const_and_enum)
{
	small("{\"const\": 2}", "2.0\n", NULL, NULL);
	small("{\"const\": {\"a\": [1, true, null]}}", "{a: [1, true, ~]}\n",
	      NULL, NULL);
	small("{\"const\": \"x\"}", "y\n", "wrong-type",
	      "the document must be 'x', found a string (\"y\")");
	small("{\"enum\": [1, \"a\", false]}", "false\n", NULL, NULL);
	small("{\"enum\": [1, \"a\", false]}", "2\n", "wrong-type",
	      "the document must be one of 1, 'a', false, found an integer "
	      "(2)");
}

Test(schema, keyword_numbers_and_lengths)
{
	small("{\"minimum\": 1.5, \"maximum\": 3}", "2\n", NULL, NULL);
	small("{\"minimum\": 1.5}", "1\n", "wrong-type",
	      "the document must be at least 1.5, found an integer (1)");
	small("{\"maximum\": 3}", "3.5\n", "wrong-type",
	      "the document must be at most 3, found a number (3.5)");
	small("{\"minimum\": 1}", "abc\n", NULL, NULL);
	small("{\"minLength\": 2, \"maxLength\": 3}", "\"\xC3\xA9\xC3\xA9\"\n",
	      NULL, NULL);
	small("{\"minLength\": 2}", "a\n", "wrong-type",
	      "the document must be at least 2 characters long, found a "
	      "string (\"a\")");
	small("{\"maxLength\": 1}", "ab\n", "wrong-type",
	      "the document must be at most 1 character long, found a string "
	      "(\"ab\")");
}

Test(schema, keyword_exclusive_bounds)
{
	small("{\"exclusiveMinimum\": 0, \"exclusiveMaximum\": 1}", "0.5\n",
	      NULL, NULL);
	small("{\"exclusiveMinimum\": 0}", "0\n", "wrong-type",
	      "the document must be greater than 0, found an integer (0)");
	small("{\"exclusiveMinimum\": 0}", "-0.25\n", "wrong-type",
	      "the document must be greater than 0, found a number (-0.25)");
	small("{\"exclusiveMaximum\": 2.5}", "2.5\n", "wrong-type",
	      "the document must be less than 2.5, found a number (2.5)");
	/* bounds only look at numbers; null passes */
	small("{\"exclusiveMinimum\": 0}", "~\n", NULL, NULL);
	small("{\"exclusiveMinimum\": 0}", "abc\n", NULL, NULL);
	load_fails("{\"exclusiveMinimum\": true}",
		   "'exclusiveMinimum' must be a number", 1);
	load_fails("{\"exclusiveMaximum\": \"1\"}",
		   "'exclusiveMaximum' must be a number", 1);
}

Test(schema, keyword_pattern)
{
	small("{\"pattern\": \"^ml\\\\.[a-z0-9]+\\\\.[a-z0-9]+$\"}",
	      "ml.p3.2xlarge\n", NULL, NULL);
	small("{\"pattern\": \"^ml\\\\.\"}", "p3.2xlarge\n", "wrong-type",
	      "the document must be a string matching the pattern '^ml\\.', "
	      "found a string (\"p3.2xlarge\")");
	/* patterns only look at strings */
	small("{\"pattern\": \"^x$\"}", "5\n", NULL, NULL);
}

Test(schema, keyword_counts_of_lists_and_objects)
{
	small("{\"minItems\": 1}", "[]\n", "wrong-type",
	      "the document must be a list with at least 1 item, found a "
	      "list");
	small("{\"maxItems\": 1}", "[1, 2]\n", "wrong-type",
	      "the document must be a list with at most 1 item, found a "
	      "list");
	small("{\"maxProperties\": 1}", "{a: 1, b: 2}\n", "wrong-type",
	      "the document must be a mapping with at most 1 entry, found a "
	      "mapping");
	small("{\"minProperties\": 2}", "{a: 1}\n", "wrong-type",
	      "the document must be a mapping with at least 2 entries, found "
	      "a mapping");
}

Test(schema, keyword_required)
{
	small("{\"required\": [\"a\"]}", "{a: 1}\n", NULL, NULL);
	small("{\"properties\": {\"x\": {\"required\": [\"a\", \"b\"]}}}",
	      "x: {a: 1}\n", "wrong-type", "missing required key 'b' in 'x'");
}

Test(schema, keyword_items_and_additional_properties_schema)
{
	small("{\"items\": {\"type\": \"integer\"}}", "[1, 2, x]\n",
	      "wrong-type", "'[2]' must be an integer, found a string (\"x\")");
	small("{\"additionalProperties\": {\"type\": \"boolean\"}}",
	      "{a: true, b: 1}\n", "wrong-type",
	      "'b' must be a boolean, found an integer (1)");
}

Test(schema, keyword_property_names)
{
	small("{\"propertyNames\": {\"pattern\": \"^[A-Z_]+$\"}}",
	      "{A: 1, b: 2}\n", "wrong-type",
	      "'b' must be a string matching the pattern '^[A-Z_]+$', found "
	      "a string (\"b\")");
}

Test(schema, keyword_false_schemas)
{
	small("{\"properties\": {\"a\": false}}", "{a: 1}\n", "unknown-key",
	      "key 'a' is not allowed at the top level");
	small("{\"items\": false}", "[1]\n", "wrong-type",
	      "'[0]' is not allowed here");
	small("{\"additionalProperties\": false, \"title\": \"a thing\"}",
	      "{zz: 1}\n", "unknown-key", "unknown key 'zz' for a thing");
	small("true", "{zz: 1}\n", NULL, NULL);
}

Test(schema, keyword_all_of_and_if_then_else)
{
	const char *sch =
		"{\"if\": {\"properties\": {\"k\": {\"const\": \"a\"}}},"
		" \"then\": {\"properties\": {\"v\": {\"type\": \"integer\"}}},"
		" \"else\": {\"properties\": {\"v\": {\"type\": \"string\"}}},"
		" \"allOf\": [{\"properties\": {\"w\": {\"type\": "
		"\"null\"}}}]}";

	small(sch, "{k: a, v: 1}\n", NULL, NULL);
	small(sch, "{k: b, v: x}\n", NULL, NULL);
	small(sch, "{k: b, v: 1}\n", "wrong-type",
	      "'v' must be a string, found an integer (1); quote it: \"1\"");
	small(sch, "{k: a, v: 1, w: 2}\n", "wrong-type",
	      "'w' must be null, found an integer (2)");
}

Test(schema, keyword_any_of)
{
	const char *sch = "{\"anyOf\": [{\"type\": \"integer\"},"
			  " {\"type\": \"object\", \"properties\":"
			  " {\"n\": {\"type\": \"integer\"}}}]}";

	small(sch, "3\n", NULL, NULL);
	small(sch, "{n: 3}\n", NULL, NULL);
	/* only the object branch is meant for a mapping: its finding */
	small(sch, "{n: x}\n", "wrong-type",
	      "'n' must be an integer, found a string (\"x\")");
	small(sch, "x\n", "wrong-type",
	      "the document must be an integer or a mapping, found a string "
	      "(\"x\")");
}

Test(schema, custom_rule_message_and_did_you_mean)
{
	const char *sch =
		"{\"properties\": {\"env\": {\"additionalProperties\":"
		" {\"type\": \"string\", \"x-smp-rule\": "
		"\"value-not-string\"}},"
		" \"d\": {\"properties\": {\"good\": {}},"
		" \"additionalProperties\": false,"
		" \"x-smp-rule\": \"distribution-unknown-key\","
		" \"x-smp-did-you-mean\": {\"bad\": \"good\"},"
		" \"x-smp-message\": \"only 'good' works\"}}}";

	small(sch, "env: {a: [1]}\n", "value-not-string",
	      "'env.a' must be a string, found a list");
	small(sch, "d: {bad: 1}\n", "distribution-unknown-key",
	      "unknown key 'bad' in 'd'; did you mean 'good'?");
	small(sch, "d: {qqqqqqqq: 1}\n", "distribution-unknown-key",
	      "unknown key 'qqqqqqqq' in 'd'; only 'good' works");
}

Test(schema, severity_off_rule_is_not_reported)
{
	enum smp_severity sev[SMP_RULE_COUNT];
	struct smp_schema *s = load_estimator();
	struct checked t;
	size_t i;

	for (i = 0; i < SMP_RULE_COUNT; i++)
		sev[i] = smp__rule_default_severity(i);
	sev[SMP_RULE_UNKNOWN_KEY] = SMP_SEVERITY_OFF;
	check_spec(&t, s, "estimator: PyTorch\nzzz: 1\ninstance_count: x\n");
	cr_assert_eq(t.rep->count, 2);
	/* the same document again, with unknown-key turned off */
	t.rep->severity = sev;
	t.rep->count = 0;
	cr_assert_eq(smp__schema_check(s, t.docs.items[0].root, t.rep, 0), 0);
	expect_one(&t, "wrong-type", NULL);
	release(&t);
	smp__schema_free(s);
}

Test(schema, yaml_aliases_and_odd_keys)
{
	/* an alias is checked where it is used; a non-string key is named */
	small("{\"properties\": {\"a\": {\"type\": \"object\"},"
	      " \"b\": {\"properties\": {\"x\": {\"type\": \"string\"}}}}}",
	      "a: &m {x: 1}\nb: *m\n", "wrong-type",
	      "'b.x' must be a string, found an integer (1); quote it: \"1\"");
	small("{\"additionalProperties\": false}", "{[1]: 2}\n", "wrong-type",
	      "keys must be strings, found a list");
	small("{\"additionalProperties\": false}", "\"a\\nb\": 1\n",
	      "unknown-key", "unknown key 'a\\nb' at the top level");
}

/* ---- load errors ------------------------------------------------- */

static void
load_fails(const char *schema, const char *needle, unsigned line)
{
	struct smp_error err = {0};

	memset(&err, 0, sizeof(err));
	load_text(schema, SMP_EPARSE, &err);
	cr_expect_eq(err.code, SMP_EPARSE);
	cr_expect_str_eq(err.source, "test.schema.json");
	cr_expect(strstr(err.message, needle) != NULL, "'%s' lacks '%s'",
		  err.message, needle);
	if (line)
		cr_expect_eq(err.line, line, "line %u, want %u", err.line,
			     line);
}

Test(schema, unsupported_keywords_are_load_errors)
{
	load_fails("{\"not\": {}}", "unsupported keyword 'not'", 1);
	load_fails("{\"properties\": {\"a\":\n {\"patternProperties\": {}}}}",
		   "unsupported keyword 'patternProperties'", 2);
	load_fails("{\"$defs\": {\"x\": {\"oneOf\": [true]}}}",
		   "unsupported keyword 'oneOf'", 1);
	load_fails("{\"items\": [true]}", "prefixItems", 1);
	load_fails("{\"format\": \"uri\"}", "unsupported keyword 'format'", 1);
}

Test(schema, malformed_schemas_are_load_errors)
{
	load_fails("{\"type\": \"thing\"}", "'type'", 1);
	load_fails("{\"type\": [\"string\", \"string\"]}", "repeated", 1);
	load_fails("{\"minLength\": -1}", "non-negative", 1);
	load_fails("{\"minimum\": \"1\"}", "'minimum' must be a number", 1);
	load_fails("{\"enum\": []}", "'enum'", 1);
	load_fails("{\"allOf\": []}", "'allOf'", 1);
	load_fails("{\"required\": [1]}", "'required'", 1);
	load_fails("{\"pattern\": \"(\"}", "POSIX", 1);
	load_fails("{\"x-smp-rule\": \"no-such-rule\"}", "names no rule", 1);
	load_fails("{\"x-smp-did-you-mean\": {\"a\": \"b\"}}", "not a property",
		   1);
	load_fails("{\"$ref\": \"#/$defs/missing\"}", "does not resolve", 1);
	load_fails("{\"$ref\": \"other.json#/x\"}", "local reference", 1);
	load_fails("[1]", "a schema must be an object or a boolean", 1);
	load_fails("{\"title\": 3}", "'title'", 1);
	load_fails("{\"a\": 1,\n\"a\": 2}", "", 2);
	load_fails("{\"type\": ", "", 1);
}

Test(schema, ref_cycles_through_properties_work)
{
	const char *tree =
		"{\"$ref\": \"#/$defs/node\", \"$defs\": {\"node\":"
		" {\"type\": \"object\", \"properties\": {"
		" \"name\": {\"type\": \"string\"},"
		" \"kids\": {\"type\": \"array\", \"items\": {\"$ref\": "
		"\"#/$defs/node\"}}},"
		" \"additionalProperties\": false}}}";

	small(tree, "name: a\nkids:\n  - name: b\n    kids: [{name: c}]\n",
	      NULL, NULL);
	small(tree, "name: a\nkids:\n  - name: b\n    kids: [{nme: c}]\n",
	      "unknown-key",
	      "unknown key 'nme' in 'kids[0].kids[0]'; did you mean 'name'?");
	small("{\"properties\": {\"self\": {\"$ref\": \"#\"}}, "
	      "\"type\": \"object\"}",
	      "self: {self: {self: 1}}\n", "wrong-type",
	      "'self.self.self' must be a mapping, found an integer (1)");
	small("{\"$ref\": \"#/$defs/a~1b\", \"$defs\": {\"a/b\": "
	      "{\"type\": \"string\"}}}",
	      "x\n", NULL, NULL);
}

Test(schema, ref_cycles_that_never_descend_are_load_errors)
{
	load_fails("{\"$ref\": \"#\"}", "cycle", 0);
	load_fails("{\"$defs\": {\"a\": {\"$ref\": \"#/$defs/b\"},"
		   " \"b\": {\"allOf\": [{\"$ref\": \"#/$defs/a\"}]}},"
		   " \"$ref\": \"#/$defs/a\"}",
		   "cycle", 0);
}

Test(schema, allocation_failure_on_load_is_clean)
{
	const struct smp_embedded_file *f =
		smp__embedded_find("estimator.schema.json");
	size_t n;

	cr_assert_not_null(f);
	for (n = 0;; n++) {
		struct smp_schema *s = NULL;
		struct smp_error err = {0};
		int rc;

		fa_init(&counter, (long)n);
		rc = smp__schema_load(&s, &counting_alloc, f->name,
				      (const char *)f->data, f->len, &err);
		if (rc == 0) {
			cr_assert_not_null(s);
			smp__schema_free(s);
			cr_assert_eq(counter.live, 0);
			break;
		}
		cr_assert_eq(rc, SMP_ENOMEM, "n=%zu: rc %d (%s)", n, rc,
			     err.message);
		cr_assert_null(s);
		cr_assert_eq(err.code, SMP_ENOMEM);
		cr_assert_eq(counter.live, 0, "n=%zu: %ld blocks leaked", n,
			     counter.live);
		cr_assert_lt(n, 100000);
	}
	cr_expect_gt(n, 5);
	fa_init(&counter, FA_NEVER);
}

/*
 * Fails the Nth allocation of one check for N = 0, 1, ... until the check
 * succeeds; each time the result is SMP_ENOMEM and nothing leaks.
 */
static size_t
check_alloc_loop(const struct smp_schema *s, const char *spec,
		 size_t want_findings)
{
	long schema_live = counter.live;
	size_t n;

	for (n = 0;; n++) {
		struct checked t;

		load_spec(&t, spec);
		counter.fail_at = counter.calls + (long)n;
		t.rc = smp__schema_check(s, t.docs.items[0].root, t.rep, 0);
		counter.fail_at = FA_NEVER;
		if (t.rc == 0) {
			cr_assert_eq(t.rep->failed, 0);
			cr_assert_eq(t.rep->count, want_findings);
			release(&t);
			break;
		}
		cr_assert_eq(t.rc, SMP_ENOMEM, "n=%zu: rc %d", n, t.rc);
		release(&t);
		cr_assert_eq(counter.live, schema_live, "n=%zu: leak", n);
		cr_assert_lt(n, 10000);
	}
	return n;
}

Test(schema, allocation_failure_on_check_is_clean)
{
	struct smp_schema *s = load_estimator();
	struct smp_error err = {0};
	char spec[16384];
	size_t i, len;

	/* many findings: the report grows, the arena takes new chunks */
	len = (size_t)snprintf(spec, sizeof(spec),
			       "estimator: HuggingFace\n"
			       "pytorch_version: 1.10\n"
			       "distribution: {torchxla: {}}\n"
			       "environment: {A: 1, GPU_NUM_DEVICES: 4}\n");
	for (i = 0; i < 200; i++)
		len += (size_t)snprintf(spec + len, sizeof(spec) - len,
					"unknown_key_number_%03zu: 1\n", i);
	cr_expect_geq(check_alloc_loop(s, spec, 204), 2);
	smp__schema_free(s);
	cr_assert_eq(counter.live, 0);

	/* findings out of order: the sort needs its scratch buffer */
	s = load_text("{\"allOf\": [{\"properties\": {\"b\": {\"type\": "
		      "\"string\"}}}, {\"properties\": {\"a\": {\"type\": "
		      "\"string\"}}}]}",
		      0, &err);
	cr_expect_geq(check_alloc_loop(s, "a: 1\nb: 2\n", 2), 1);
	smp__schema_free(s);
	cr_assert_eq(counter.live, 0);
}

Test(schema, findings_of_several_passes_are_sorted)
{
	struct smp_schema *s;
	struct smp_error err = {0};
	struct checked t;

	s = load_text("{\"allOf\": [{\"properties\": {\"b\": {\"type\": "
		      "\"string\"}}}, {\"properties\": {\"a\": {\"type\": "
		      "\"string\"}}}]}",
		      0, &err);
	check_spec(&t, s, "a: 1\nb: 2\n");
	cr_assert_eq(t.rep->count, 2);
	cr_expect_eq(finding(&t, 0)->line, 1);
	cr_expect_str_eq(finding(&t, 0)->pointer, "/a");
	cr_expect_eq(finding(&t, 1)->line, 2);
	release(&t);
	smp__schema_free(s);
}

Test(schema, free_null_and_check_null_are_no_ops)
{
	struct smp_schema *s = load_estimator();
	struct smp_report *rep;

	smp__schema_free(NULL);
	cr_assert_eq(smp__report_new(&rep, &counting_alloc, "x", NULL), 0);
	cr_expect_eq(smp__schema_check(s, NULL, rep, 0), 0);
	cr_expect_eq(rep->count, 0);
	smp_report_free(rep);
	smp__schema_free(s);
}

/* ---- validating a data file into an error ------------------------ */

/* Loads text as strict JSON into docs; its root. */
static const struct smp_node *
load_data(struct smp_docs *docs, const char *text)
{
	struct smp_error err = {0};

	smp__docs_init(docs, &counting_alloc);
	cr_assert_eq(smp__load_strict(docs, "data.json", text, strlen(text), 1,
				      &err),
		     0, "%s", err.message);
	return docs->items[0].root;
}

static const char rows_schema[] =
	"{\"type\": \"object\", \"additionalProperties\": false,\n"
	" \"properties\": {\"rows\": {\"type\": \"array\", "
	"\"items\": {\"$ref\": \"#/$defs/row\"}}},\n"
	" \"$defs\": {\"row\": {\"type\": \"object\", \"required\": [\"n\"],\n"
	"  \"if\": {\"properties\": {\"gpu\": {\"const\": true}}},\n"
	"  \"then\": {\"properties\": {\"n\": {\"minimum\": 1}}},\n"
	"  \"properties\": {\"gpu\": {\"type\": \"boolean\"},\n"
	"   \"n\": {\"type\": \"integer\", \"maximum\": 8},\n"
	"   \"name\": {\"type\": \"string\", \"pattern\": \"^[a-z]+$\"}}}}}";

/* Expects SMP_EPARSE at data.json:line:column with that message. */
static void
expect_invalid(const char *pointer, const char *text, unsigned line,
	       unsigned column, const char *message)
{
	struct smp_schema *s;
	struct smp_error err = {0};
	struct smp_docs docs;
	const struct smp_node *root;
	long live;

	s = load_text(rows_schema, 0, &err);
	live = counter.live;
	root = load_data(&docs, text);
	live = counter.live - live;
	memset(&err, 0, sizeof(err));
	cr_assert_eq(smp__schema_validate(s, pointer, root, "data.json", &err),
		     SMP_EPARSE, "%s", text);
	cr_expect_eq(err.code, SMP_EPARSE);
	cr_expect_str_eq(err.source, "data.json");
	cr_expect_eq(err.line, line, "%u:%u %s", err.line, err.column,
		     err.message);
	cr_expect_eq(err.column, column, "%u:%u %s", err.line, err.column,
		     err.message);
	cr_expect_str_eq(err.message, message);
	smp__docs_release(&docs);
	smp__schema_free(s);
	cr_assert_eq(counter.live, 0, "%ld blocks of the docs", live);
}

Test(schema, validate_accepts_a_valid_document)
{
	struct smp_schema *s;
	struct smp_error err = {0};
	struct smp_docs docs;

	s = load_text(rows_schema, 0, &err);
	cr_expect_eq(
		smp__schema_validate(
			s, NULL,
			load_data(&docs,
				  "{\"rows\": [{\"n\": 0, \"gpu\": false}, "
				  "{\"n\": 2, \"gpu\": true, "
				  "\"name\": \"ab\"}]}"),
			"data.json", &err),
		0, "%s", err.message);
	smp__docs_release(&docs);
	smp__docs_init(&docs, &counting_alloc);
	/* a part of the schema: one row */
	cr_expect_eq(smp__schema_validate(s, "#/$defs/row",
					  load_data(&docs, "{\"n\": 8}"),
					  "data.json", &err),
		     0, "%s", err.message);
	smp__docs_release(&docs);
	smp__schema_free(s);
	cr_assert_eq(counter.live, 0);
}

Test(schema, validate_reports_the_first_violation_in_document_order)
{
	/* the if/then finding (n, line 2) is found after the properties
	 * of the row (name, line 3), yet reported first */
	expect_invalid(NULL,
		       "{\"rows\": [{\"gpu\": true,\n"
		       "  \"n\": 0,\n"
		       "  \"name\": \"A\\u001b[2J\"}]}",
		       2, 8,
		       "'rows[0].n' must be at least 1, found an integer (0)");
	expect_invalid(NULL,
		       "{\"rows\": [{\"n\": 1, \"name\": \"A\\u001b[2J\"}]}", 1,
		       28,
		       "'rows[0].name' must be a string matching the pattern "
		       "'^[a-z]+$', found a string (\"A\\x1B[2J\")");
	expect_invalid(NULL, "{\"rows\": [{\"n\": 1}, {}]}", 1, 21,
		       "missing required key 'n' in 'rows[1]'");
	expect_invalid(NULL, "{\"rows\": [], \"extra\": 1}", 1, 14,
		       "unknown key 'extra' at the top level; the only key is "
		       "'rows'");
	/* no "quote it" hint for a data file */
	expect_invalid(
		NULL, "{\"rows\": [{\"n\": 1, \"name\": 12}]}", 1, 28,
		"'rows[0].name' must be a string, found an integer (12)");
	expect_invalid("#/$defs/row", "{\"n\": 9}", 1, 7,
		       "'n' must be at most 8, found an integer (9)");
}

Test(schema, validate_refuses_bad_arguments)
{
	struct smp_schema *s;
	struct smp_error err = {0};
	struct smp_docs docs;
	const struct smp_node *root;

	s = load_text(rows_schema, 0, &err);
	root = load_data(&docs, "{}");
	cr_expect_eq(smp__schema_validate(NULL, NULL, root, "d", &err),
		     SMP_EINVAL);
	cr_expect_eq(smp__schema_validate(s, NULL, NULL, "d", &err),
		     SMP_EINVAL);
	smp__error_clear(&err); /* the first error of a call wins */
	cr_expect_eq(smp__schema_validate(s, "#/$defs/none", root, "d", &err),
		     SMP_EINVAL);
	cr_expect(strstr(err.message, "#/$defs/none") != NULL, "%s",
		  err.message);
	cr_expect_eq(smp__schema_validate(s, "$defs/row", root, "d", &err),
		     SMP_EINVAL);
	/* a pointer to JSON that is not a registered schema */
	cr_expect_eq(smp__schema_validate(s, "#/$defs/row/required", root, "d",
					  &err),
		     SMP_EINVAL);
	/* err may be NULL */
	cr_expect_eq(smp__schema_validate(s, "#/$defs/row", root, "d", NULL),
		     SMP_EPARSE);
	smp__docs_release(&docs);
	smp__schema_free(s);
	cr_assert_eq(counter.live, 0);
}

/* The keys of a DescribeTrainingJob response: a top-level one the schema
 * does not know is a warning (printed by the service); one further down,
 * or in a request, stays an error. */
Test(schema, response_top_level_unknown_key_is_a_warning)
{
	static const char schema[] =
		"{\"additionalProperties\": false, \"properties\": {\"a\": "
		"{\"additionalProperties\": false}}}";
	struct smp_error err = {0};
	struct smp_schema *s = load_text(schema, 0, &err);
	struct checked t;

	load_spec(&t, "{zz: 1, a: {yy: 2}}\n");
	cr_assert_eq(smp__schema_check(s, t.docs.items[0].root, t.rep,
				       SMP__SCHEMA_RESPONSE),
		     0);
	cr_assert_eq(t.rep->count, 2);
	cr_expect_str_eq(finding(&t, 0)->pointer, "/zz");
	cr_expect_eq(finding(&t, 0)->severity, SMP_SEVERITY_WARNING);
	cr_expect_str_eq(finding(&t, 1)->pointer, "/a/yy");
	cr_expect_eq(finding(&t, 1)->severity, SMP_SEVERITY_ERROR);
	release(&t);
	check_spec(&t, s, "{zz: 1}\n");
	cr_assert_eq(t.rep->count, 1);
	cr_expect_eq(finding(&t, 0)->severity, SMP_SEVERITY_ERROR);
	release(&t);
	smp__schema_free(s);
}

/* A tuple where a scalar is wanted (a launcher's trailing comma): the
 * finding says how to fix it; a list does not get that fix. */
Test(schema, wrong_type_tuple_says_remove_the_comma)
{
	static const char schema[] =
		"{\"properties\": {\"a\": {\"type\": \"string\"}}}";
	struct smp_error err = {0};
	struct smp_schema *s = load_text(schema, 0, &err);
	struct checked t;
	const struct smp_finding *f;

	check_spec(&t, s, "a: !<" SMP_TAG_TUPLE "> [x]\n");
	f = expect_one(&t, "wrong-type", NULL);
	cr_expect_str_eq(f->fix,
			 "remove the trailing comma that makes the value a "
			 "tuple");
	release(&t);
	check_spec(&t, s, "a: [x]\n");
	f = expect_one(&t, "wrong-type", NULL);
	cr_expect_null(f->fix);
	release(&t);
	smp__schema_free(s);
}
