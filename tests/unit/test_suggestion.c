/*
 * test_suggestion.c - a finding's suggestion is a typed replacement: the
 * pointer it applies to, the value in the JSON type of the field (the
 * environment's strings, a CreateTrainingJob request's string
 * hyperparameters, an estimator's numbers and booleans), a rename for a
 * misspelled key; and one replacement per pointer within a job.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "helpers.h"
#include "smpreflight.h"
#include "util/alloc.h"
#include "report/report.h"

static const char estimator[] = TH_HF_P3_8X_DEBUG
	"compiler_confg: {enabled: true}\n"
	"disable_profiler: true\n"
	"debugger_hook_config: false\n"
	"environment: {GPU_NUM_DEVICES: 2}\n"
	"hyperparameters: {model_name_or_path: bert-base-cased,\n"
	"  per_device_train_batch_size: 96}\n";

static const struct smp_finding *
found(const struct smp_report *rep, const char *rule)
{
	const struct smp_finding *f = th_find(rep, rule);

	cr_assert_not_null(f, "no %s", rule);
	return f;
}

static void
assert_set(const struct smp_finding *f, const char *pointer,
	   enum smp_value_type type, const char *value)
{
	cr_assert_eq(f->suggestion_op, SMP_SUGGESTION_SET, "%s", f->rule);
	cr_assert_str_eq(f->suggestion_pointer, pointer, "%s", f->rule);
	cr_assert_eq(f->suggestion_type, type, "%s", f->rule);
	cr_assert_str_eq(f->suggestion, value, "%s", f->rule);
	cr_assert_null(f->suggestion_from);
}

/* The batch above the tested one: a set of the batch, in type. */
static void
assert_batch(const struct smp_report *rep, const char *pointer,
	     enum smp_value_type type)
{
	const struct smp_finding *f = found(rep, "batch-size-above-tested");

	cr_assert_eq(f->suggestion_op, SMP_SUGGESTION_SET);
	cr_assert_str_eq(f->suggestion_pointer, pointer);
	cr_assert_eq(f->suggestion_type, type);
}

/* spec checked under name, without its entry script, in a new *ctx
 * (freed after the report) */
static struct smp_report *
checked(struct smp_context **ctx, const char *name, const char *spec)
{
	struct smp_options o = SMP_OPTIONS_INIT;

	o.no_script = 1;
	*ctx = th_context(&o);
	return th_check_named(*ctx, name, spec);
}

Test(suggestion, typed_replacements_of_an_estimator)
{
	struct smp_context *ctx;
	struct smp_report *rep = checked(&ctx, "j.yaml", estimator);
	const struct smp_finding *f;

	/* a number where a string belongs: the string, at the same place */
	assert_set(found(rep, "gpu-num-devices-mismatch"),
		   "/environment/GPU_NUM_DEVICES", SMP_VALUE_STRING, "4");
	assert_set(found(rep, "compiler-debug"), "/compiler_config/debug",
		   SMP_VALUE_BOOLEAN, "false");
	assert_batch(rep, "/hyperparameters/per_device_train_batch_size",
		     SMP_VALUE_NUMBER);
	f = found(rep, "unknown-key");
	cr_assert_eq(f->suggestion_op, SMP_SUGGESTION_RENAME);
	cr_assert_str_eq(f->suggestion_from, "/compiler_confg");
	cr_assert_str_eq(f->suggestion_pointer, "/compiler_config");
	cr_assert_str_eq(f->suggestion, "compiler_config");
	smp_report_free(rep);
	smp_context_free(ctx);
}

static const char request[] =
	"{\"TrainingJobName\": \"bert\",\n"
	" \"AlgorithmSpecification\": {\"TrainingImage\": "
	"\"763104351884.dkr.ecr.us-east-1.amazonaws.com/"
	"huggingface-pytorch-trcomp-training:1.11.0-transformers4.21.1-gpu-"
	"py38-cu113-ubuntu20.04\", \"TrainingInputMode\": \"File\"},\n"
	" \"ResourceConfig\": {\"InstanceType\": \"ml.p3.8xlarge\", "
	"\"InstanceCount\": 1, \"VolumeSizeInGB\": 50},\n"
	" \"HyperParameters\": {\"sagemaker_training_compiler_enabled\": "
	"\"true\", \"sagemaker_pytorch_xla_multi_worker_enabled\": \"true\", "
	"\"model_name_or_path\": \"bert-base-cased\", "
	"\"per_device_train_batch_size\": \"96\"}}\n";

/* The request's hyperparameters are strings: so is the suggestion. */
Test(suggestion, api_request_hyperparameters_stay_strings)
{
	struct smp_context *ctx;
	struct smp_report *rep = checked(&ctx, "job.json", request);

	assert_batch(rep, "/HyperParameters/per_device_train_batch_size",
		     SMP_VALUE_STRING);
	smp_report_free(rep);
	smp_context_free(ctx);
}

static struct smp_finding *
add(struct smp_report *rep, enum smp_rule_id rule, const char *pointer)
{
	struct smp_finding *f = smp__report_add(rep, rule, NULL, NULL, "m");

	cr_assert_not_null(f);
	smp__finding_pointer(rep, f, pointer);
	return f;
}

Test(suggestion, one_replacement_per_pointer_in_a_job)
{
	struct smp_allocator a;
	struct smp_report *rep;
	struct smp_finding *f[5];

	smp__allocator_resolve(&a, NULL);
	cr_assert_eq(smp__report_new(&rep, &a, "t.yaml", NULL), 0);
	f[0] = add(rep, SMP_RULE_INSTANCE_UNKNOWN, "/instance_type");
	smp__finding_suggest(rep, f[0], SMP_VALUE_STRING, "ml.p3.2xlarge");
	/* the same value again: kept */
	f[1] = add(rep, SMP_RULE_EFA_RECOMMENDED, "/instance_count");
	smp__finding_suggest_at(rep, f[1], "/instance_type", SMP_VALUE_STRING,
				"ml.p3.2xlarge");
	/* another value for the same pointer: dropped */
	f[2] = add(rep, SMP_RULE_PREFER_MULTI_GPU_INSTANCE, "/instance_count");
	smp__finding_suggest_at(rep, f[2], "/instance_type", SMP_VALUE_STRING,
				"ml.p4d.24xlarge");
	/* the same text as another type: dropped too */
	f[3] = add(rep, SMP_RULE_SHORT_RUN, "/hyperparameters/max_steps");
	smp__finding_suggest(rep, f[3], SMP_VALUE_NUMBER, "100");
	f[4] = add(rep, SMP_RULE_LOGGING_TOO_FREQUENT,
		   "/hyperparameters/max_steps");
	smp__finding_suggest(rep, f[4], SMP_VALUE_STRING, "100");
	smp__report_settle_suggestions(rep, 0);
	cr_assert_eq(rep->items[0].suggestion_op, SMP_SUGGESTION_SET);
	cr_assert_eq(rep->items[1].suggestion_op, SMP_SUGGESTION_SET);
	cr_assert_eq(rep->items[2].suggestion_op, SMP_SUGGESTION_NONE);
	cr_assert_null(rep->items[2].suggestion);
	cr_assert_eq(rep->items[3].suggestion_op, SMP_SUGGESTION_SET);
	cr_assert_eq(rep->items[4].suggestion_op, SMP_SUGGESTION_NONE);
	/* an earlier job's suggestions do not count */
	f[0] = add(rep, SMP_RULE_INSTANCE_UNKNOWN, "/instance_type");
	smp__finding_suggest(rep, f[0], SMP_VALUE_STRING, "ml.g5.xlarge");
	smp__report_settle_suggestions(rep, 5);
	cr_assert_eq(rep->items[5].suggestion_op, SMP_SUGGESTION_SET);
	smp_report_free(rep);
}

Test(suggestion, values_that_are_not_their_type_are_refused)
{
	struct smp_allocator a;
	struct smp_report *rep;
	struct smp_finding *f;

	smp__allocator_resolve(&a, NULL);
	cr_assert_eq(smp__report_new(&rep, &a, "t.yaml", NULL), 0);
	f = add(rep, SMP_RULE_SHORT_RUN, "/hyperparameters/max_steps");
	smp__finding_suggest(rep, f, SMP_VALUE_NUMBER, "1e");
	smp__finding_suggest(rep, f, SMP_VALUE_NUMBER, "01");
	smp__finding_suggest(rep, f, SMP_VALUE_BOOLEAN, "yes");
	cr_assert_eq(f->suggestion_op, SMP_SUGGESTION_NONE);
	smp__finding_suggest(rep, f, SMP_VALUE_NUMBER, "-2.5e-05");
	cr_assert_eq(f->suggestion_op, SMP_SUGGESTION_SET);
	/* a finding without a pointer (an entry script) has none */
	f = smp__report_add(rep, SMP_RULE_SCRIPT_GPU_NUM_DEVICES, NULL, NULL,
			    "m");
	smp__finding_suggest(rep, f, SMP_VALUE_STRING, "4");
	cr_assert_eq(f->suggestion_op, SMP_SUGGESTION_NONE);
	/* a key with '/' and '~' in its name is escaped in the rename */
	f = add(rep, SMP_RULE_UNKNOWN_KEY, "/environment/a~1b");
	smp__finding_suggest_rename(rep, f, "x/y~z");
	cr_assert_str_eq(f->suggestion_pointer, "/environment/x~1y~0z");
	smp_report_free(rep);
}
