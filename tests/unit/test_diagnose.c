/*
 * test_diagnose.c - smp_diagnose_buffer(): one test per row of the
 * failure-signature table, the log formats, the situations against a
 * baseline, the argument and input errors, every allocation failure, and
 * the JSON output against schemas/diagnosis.schema.json (read with the
 * project's own schema checker).
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smpreflight.h"
#include "advise/diagnose.h"
#include "doc/load.h"
#include "failing_alloc.h"
#include "helpers.h"
#include "schema/schema.h"

#define IMAGE                                                                  \
	"763104351884.dkr.ecr.us-west-2.amazonaws.com/"                        \
	"huggingface-pytorch-trcomp-training:1.11.0-transformers4.21.1-gpu-"   \
	"py38-cu113-ubuntu20.04"

/* A DescribeTrainingJob response; status and the rest come after. */
#define RESPONSE(rest)                                                         \
	"TrainingJobName: bert-trcomp\n"                                       \
	"TrainingJobArn: arn:aws:sagemaker:us-west-2:111122223333:training-"   \
	"job/bert-trcomp\n"                                                    \
	"AlgorithmSpecification:\n"                                            \
	"  TrainingImage: " IMAGE "\n"                                         \
	"  TrainingInputMode: File\n"                                          \
	"HyperParameters:\n"                                                   \
	"  model_name_or_path: '\"bert-base-cased\"'\n"                        \
	"  per_device_train_batch_size: '24'\n"                                \
	"  learning_rate: '\"5e-05\"'\n"                                       \
	"  preprocessing_num_workers: '8'\n"                                   \
	"  sagemaker_program: '\"train.py\"'\n"                                \
	"  sagemaker_submit_directory: '\"s3://b/src/sourcedir.tar.gz\"'\n"    \
	"  sagemaker_training_compiler_enabled: 'true'\n"                      \
	"ResourceConfig: {InstanceType: ml.p3.2xlarge, InstanceCount: 1, "     \
	"VolumeSizeInGB: 30}\n"                                                \
	"ProfilerConfig: {DisableProfiler: true}\n" rest

static const char failed[] =
	RESPONSE("TrainingJobStatus: Failed\n"
		 "FailureReason: 'AlgorithmError: ExecuteUserScriptError: "
		 "ExitCode 1'\n");

static struct smp_diagnosis *
diagnose(const struct smp_context *ctx, const char *text,
	 const struct smp_diagnose_options *opts)
{
	struct smp_diagnosis *d = NULL;
	struct smp_error err = {0};

	cr_assert_eq(smp_diagnose_buffer(&d, ctx, "job.yaml", text,
					 strlen(text), opts, &err),
		     0, "%s", err.message);
	return d;
}

static const struct smp_diagnosis_item *
item(const struct smp_diagnosis *d, const char *id)
{
	size_t i;

	for (i = 0; i < d->item_count; i++)
		if (strcmp(d->items[i].id, id) == 0)
			return &d->items[i];
	cr_assert_fail("no checklist item '%s'", id);
	return NULL;
}

/* --- the signature table: one test per row ---------------------------- */

ParameterizedTestParameters(diagnose, each_signature_row)
{
	static size_t rows[32];
	size_t i, n = smp__diag_signature_count();

	cr_assert_leq(n, sizeof(rows) / sizeof(rows[0]));
	for (i = 0; i < n; i++)
		rows[i] = i;
	return cr_make_param_array(size_t, rows, n);
}

ParameterizedTest(size_t *row, diagnose, each_signature_row)
{
	struct smp_context *ctx = th_context(NULL);
	struct smp_diagnose_options o = SMP_DIAGNOSE_OPTIONS_INIT;
	struct smp_diagnosis *d;
	char example[256], log[512];
	const char *id = smp__diag_signature_id(*row);

	cr_assert_not_null(
		smp__diag_signature_example(*row, example, sizeof(example)));
	/* as aws logs get-log-events --output text prints it */
	snprintf(log, sizeof(log),
		 "EVENTS\t1764517861412\tstarting\t1764517861000\n"
		 "EVENTS\t1764517862143\tRuntimeError: %s!\t1764517862000\n",
		 example);
	o.log = log;
	o.log_len = strlen(log);
	o.log_name = "job.log";
	d = diagnose(ctx, failed, &o);
	cr_assert_eq(d->cause_count, 1, "%s: %zu causes", id, d->cause_count);
	cr_expect_str_eq(d->causes[0].id, id);
	cr_expect_str_eq(d->causes[0].source, "job.log");
	cr_expect_eq(d->causes[0].line, 2);
	cr_expect(strstr(d->causes[0].evidence, example) != NULL);
	cr_expect(strncmp(d->causes[0].evidence, "RuntimeError", 12) == 0,
		  "evidence is the message only: %s", d->causes[0].evidence);
	/* the guide's page, or the public report a row comes from */
	cr_expect(strstr(d->causes[0].page, "SageMaker Training Compiler") ||
			  strncmp(d->causes[0].page, "https://github.com/",
				  19) == 0,
		  "%s: page %s", id, d->causes[0].page);
	cr_expect_neq(d->causes[0].section[0], '\0');
	cr_expect(!strstr(d->causes[0].advice, "{gpus}") &&
			  !strstr(d->causes[0].advice, "{instance}") &&
			  !strstr(d->causes[0].advice, "{batch}"),
		  "placeholder left in advice: %s", d->causes[0].advice);
	cr_expect_eq(smp_diagnosis_found(d), 1);
	smp_diagnosis_free(d);
	smp_context_free(ctx);
}

Test(diagnose, signature_ids_are_unique)
{
	size_t i, j, n = smp__diag_signature_count();

	cr_assert_geq(n, 5);
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			cr_expect_str_neq(smp__diag_signature_id(i),
					  smp__diag_signature_id(j));
}

/* --- FailureReason and the log formats ------------------------------ */

Test(diagnose, failure_reason_first_then_the_log)
{
	static const char text[] = RESPONSE(
		"TrainingJobStatus: Failed\n"
		"FailureReason: \"AlgorithmError: ExecuteUserScriptError:\\n"
		"ExitCode 1\\nErrorMessage \\\"RuntimeError: "
		"computation_client.cc:280 : Missing XLA "
		"configuration\\\"\"\n");
	/* aws logs filter-log-events --output text */
	static const char log[] =
		"EVENTS\t37263771234560000000000001\t1764517862143\tjob/algo-1"
		"\t{'loss': nan, 'epoch': 0.1}\t1764517862000\n"
		"EVENTS\t37263771234560000000000002\t1764517863143\tjob/algo-1"
		"\t{'loss': nan, 'epoch': 0.2}\t1764517863000\n"
		"SEARCHEDLOGSTREAMS\tjob/algo-1\tTrue\n";
	struct smp_context *ctx = th_context(NULL);
	struct smp_diagnose_options o = SMP_DIAGNOSE_OPTIONS_INIT;
	struct smp_diagnosis *d;

	o.log = log;
	o.log_len = strlen(log);
	d = diagnose(ctx, text, &o);
	cr_assert_eq(d->cause_count, 2);
	cr_expect_str_eq(d->causes[0].id, "missing-xla-configuration");
	cr_expect_str_eq(d->causes[0].source, "FailureReason");
	cr_expect_eq(d->causes[0].line, 0);
	cr_expect(strstr(d->causes[0].advice, "\"1\"") != NULL,
		  "GPU count of ml.p3.2xlarge: %s", d->causes[0].advice);
	cr_expect_str_eq(d->causes[1].id, "nan-loss");
	cr_expect_str_eq(d->causes[1].source, "log");
	cr_expect_eq(d->causes[1].count, 2);
	cr_expect_str_eq(d->causes[1].evidence, "{'loss': nan, 'epoch': 0.1}");
	cr_expect_eq(d->situations[0].verdict, SMP_VERDICT_YES);
	smp_diagnosis_free(d);
	smp_context_free(ctx);
}

Test(diagnose, plain_text_log_and_nothing_found)
{
	static const char log[] = "epoch 1 loss 0.61\nepoch 2 loss 0.42\n";
	static const char text[] =
		RESPONSE("TrainingJobStatus: Completed\n"
			 "FinalMetricDataList:\n"
			 "- {MetricName: train_loss, Value: 0.42}\n");
	struct smp_context *ctx = th_context(NULL);
	struct smp_diagnose_options o = SMP_DIAGNOSE_OPTIONS_INIT;
	struct smp_diagnosis *d;

	o.log = log;
	o.log_len = strlen(log);
	d = diagnose(ctx, text, &o);
	cr_expect_eq(d->cause_count, 0);
	cr_expect_eq(d->situations[0].verdict, SMP_VERDICT_NO);
	cr_expect_eq(d->situations[1].verdict, SMP_VERDICT_CANNOT_TELL);
	cr_expect(strstr(d->situations[1].detail, "--baseline") != NULL);
	cr_expect_eq(d->situations[2].verdict, SMP_VERDICT_CANNOT_TELL);
	cr_expect_eq(item(d, "mark-step")->state, SMP_ITEM_CANNOT_TELL);
	cr_expect_str_eq(item(d, "mark-step")->needs, SMP__NEEDS_SOURCES);
	cr_expect_eq(item(d, "same-hyperparameters")->state,
		     SMP_ITEM_CANNOT_TELL);
	cr_expect_eq(item(d, "debugger-profiler")->state, SMP_ITEM_LOOKS_RIGHT);
	cr_expect_eq(smp_diagnosis_found(d), 0);
	smp_diagnosis_free(d);
	smp_context_free(ctx);
}

/* --- situations against a baseline ------------------------------------ */

#define NATIVE(metrics, seconds)                                               \
	"TrainingJobName: bert-native\n"                                       \
	"TrainingJobArn: arn:aws:sagemaker:us-west-2:111122223333:training-"   \
	"job/bert-native\n"                                                    \
	"TrainingJobStatus: Completed\n"                                       \
	"AlgorithmSpecification: {TrainingImage: 763104351884.dkr.ecr.us-"     \
	"west-2.amazonaws.com/huggingface-pytorch-training:1.11.0-"            \
	"transformers4.21.1-gpu-py38-cu113-ubuntu20.04}\n"                     \
	"HyperParameters:\n"                                                   \
	"  model_name_or_path: '\"bert-base-cased\"'\n"                        \
	"  per_device_train_batch_size: '12'\n"                                \
	"  learning_rate: '\"2.5e-05\"'\n"                                     \
	"  preprocessing_num_workers: '8'\n"                                   \
	"ResourceConfig: {InstanceType: ml.p3.2xlarge, InstanceCount: 1}\n"    \
	"FinalMetricDataList: " metrics "\n"                                   \
	"TrainingTimeInSeconds: " seconds "\n"                                 \
	"BillableTimeInSeconds: " seconds "\n"

static struct smp_diagnosis *
against(const struct smp_context *ctx, const char *job, const char *native)
{
	struct smp_diagnose_options o = SMP_DIAGNOSE_OPTIONS_INIT;

	o.baseline = native;
	o.baseline_len = strlen(native);
	o.baseline_name = "native.yaml";
	return diagnose(ctx, job, &o);
}

Test(diagnose, metrics_and_time_against_the_baseline)
{
	static const char job[] =
		RESPONSE("TrainingJobStatus: Completed\n"
			 "FinalMetricDataList:\n"
			 "- {MetricName: train_loss, Value: 0.30}\n"
			 "- {MetricName: eval_accuracy, Value: 0.85}\n"
			 "- {MetricName: samples_per_second, Value: 9}\n"
			 "TrainingTimeInSeconds: 2400\n"
			 "BillableTimeInSeconds: 2400\n");
	static const struct {
		const char *native;
		enum smp_verdict converge, faster;
		const char *says;
	} cases[] = {
		{NATIVE("[{MetricName: train_loss, Value: 0.31}, {MetricName: "
			"eval_accuracy, Value: 0.84}]",
			"3500"),
		 SMP_VERDICT_NO, SMP_VERDICT_NO, "31% less"},
		{NATIVE("[{MetricName: eval_accuracy, Value: 0.91}]", "3500"),
		 SMP_VERDICT_YES, SMP_VERDICT_NO, "'eval_accuracy' is 0.85"},
		{NATIVE("[{MetricName: train_loss, Value: 0.12}]", "2000"),
		 SMP_VERDICT_YES, SMP_VERDICT_YES, "2400 s against 2000 s"},
		/* a metric with no known direction is not compared */
		{NATIVE("[{MetricName: samples_per_second, Value: 20}]",
			"2400"),
		 SMP_VERDICT_CANNOT_TELL, SMP_VERDICT_YES, "no loss"},
	};
	struct smp_context *ctx = th_context(NULL);
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct smp_diagnosis *d = against(ctx, job, cases[i].native);

		cr_expect_eq(d->situations[1].verdict, cases[i].converge,
			     "case %zu: %s", i, d->situations[1].detail);
		cr_expect_eq(d->situations[2].verdict, cases[i].faster,
			     "case %zu: %s", i, d->situations[2].detail);
		cr_expect(
			strstr(d->situations[1].detail, cases[i].says) ||
				strstr(d->situations[2].detail, cases[i].says),
			"case %zu: '%s' not said", i, cases[i].says);
		/* batch 12 -> 24 and learning rate 2.5e-05 -> 5e-05: the
		 * SDK's quotes do not hide the numbers */
		cr_expect_eq(item(d, "learning-rate")->state,
			     SMP_ITEM_LOOKS_RIGHT, "%s",
			     item(d, "learning-rate")->detail);
		cr_expect(strstr(item(d, "learning-rate")->detail,
				 "linearly") != NULL);
		smp_diagnosis_free(d);
	}
	smp_context_free(ctx);
}

Test(diagnose, nan_metric_needs_no_baseline)
{
	static const char job[] =
		RESPONSE("TrainingJobStatus: Completed\n"
			 "FinalMetricDataList:\n"
			 "- {MetricName: train_loss, Value: .nan}\n");
	struct smp_context *ctx = th_context(NULL);
	struct smp_diagnosis *d = diagnose(ctx, job, NULL);

	cr_expect_eq(d->situations[1].verdict, SMP_VERDICT_YES);
	cr_expect(strstr(d->situations[1].detail, "NaN") != NULL);
	smp_diagnosis_free(d);
	smp_context_free(ctx);
}

Test(diagnose, hyperparameters_side_by_side)
{
	struct smp_context *ctx = th_context(NULL);
	struct smp_diagnosis *d = against(ctx, failed, NATIVE("[]", "3500"));
	size_t i;
	int seen = 0;

	for (i = 0; i < d->hyperparameter_count; i++) {
		const struct smp_diagnosis_hyperparameter *h =
			&d->hyperparameters[i];

		if (i)
			cr_expect(strcmp(d->hyperparameters[i - 1].name,
					 h->name) < 0);
		if (strcmp(h->name, "learning_rate") == 0) {
			cr_expect_str_eq(h->value, "5e-05");
			cr_expect_str_eq(h->baseline_value, "2.5e-05");
			cr_expect(h->differs);
			seen++;
		}
		if (strcmp(h->name, "model_name_or_path") == 0) {
			cr_expect_str_eq(h->value, "bert-base-cased");
			cr_expect(!h->differs);
			seen++;
		}
	}
	cr_expect_eq(seen, 2);
	smp_diagnosis_free(d);
	smp_context_free(ctx);
}

/* --- errors ----------------------------------------------------------- */

Test(diagnose, invalid_arguments)
{
	struct smp_context *ctx = th_context(NULL);
	struct smp_diagnose_options o = SMP_DIAGNOSE_OPTIONS_INIT;
	struct smp_diagnosis *d = (struct smp_diagnosis *)&o;
	struct smp_error err = {0};

	cr_expect_eq(smp_diagnose_buffer(NULL, ctx, "j", failed, 1, NULL, &err),
		     SMP_EINVAL);
	cr_expect_eq(smp_diagnose_buffer(&d, NULL, "j", failed, 1, NULL, &err),
		     SMP_EINVAL);
	cr_expect_null(d);
	cr_expect_eq(smp_diagnose_buffer(&d, ctx, NULL, failed, 1, NULL, &err),
		     SMP_EINVAL);
	cr_expect_eq(smp_diagnose_buffer(&d, ctx, "j", NULL, 1, NULL, &err),
		     SMP_EINVAL);
	o.version = 99;
	cr_expect_eq(smp_diagnose_buffer(&d, ctx, "j", failed, strlen(failed),
					 &o, NULL),
		     SMP_EINVAL);
	cr_expect_eq(
		smp_diagnose_options_init(&o, SMP_DIAGNOSE_OPTIONS_VERSION), 0);
	cr_expect_eq(o.version, SMP_DIAGNOSE_OPTIONS_VERSION);
	o.log_len = 3;
	cr_expect_eq(smp_diagnose_buffer(&d, ctx, "j", failed, strlen(failed),
					 &o, &err),
		     SMP_EINVAL);
	cr_expect_eq(smp_diagnosis_emit_text(NULL, smp_membuf_write_fn, NULL),
		     SMP_EINVAL);
	cr_expect_eq(smp_diagnosis_emit_json(NULL, smp_membuf_write_fn, NULL),
		     SMP_EINVAL);
	cr_expect_eq(smp_diagnosis_found(NULL), 0);
	smp_diagnosis_free(NULL);
	smp_context_free(ctx);
}

Test(diagnose, unreadable_inputs_are_parse_errors)
{
	static const struct {
		const char *text;
		uint32_t line;
		const char *says;
	} cases[] = {
		{"TrainingJobArn: x\nResourceConfig: ]\n", 2, ""},
		{"[1, 2]\n", 1, "mapping"},
		{"ResourceConfig: {InstanceType: ml.p3.2xlarge}\n", 1,
		 "not a DescribeTrainingJob response"},
		{"", 0, "no DescribeTrainingJob response"},
	};
	struct smp_context *ctx = th_context(NULL);
	struct smp_diagnose_options o = SMP_DIAGNOSE_OPTIONS_INIT;
	struct smp_diagnosis *d;
	struct smp_error err = {0};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		d = NULL;
		cr_expect_eq(
			smp_diagnose_buffer(&d, ctx, "j.yaml", cases[i].text,
					    strlen(cases[i].text), NULL, &err),
			SMP_EPARSE, "case %zu", i);
		cr_expect_null(d);
		cr_expect_eq(err.line, cases[i].line, "case %zu: %s", i,
			     err.message);
		cr_expect(strstr(err.message, cases[i].says) != NULL,
			  "case %zu: %s", i, err.message);
	}
	/* a broken baseline is named */
	o.baseline = "{";
	o.baseline_len = 1;
	o.baseline_name = "native.json";
	cr_expect_eq(smp_diagnose_buffer(&d, ctx, "j.yaml", failed,
					 strlen(failed), &o, &err),
		     SMP_EPARSE);
	cr_expect_str_eq(err.source, "native.json");
	smp_context_free(ctx);
}

Test(diagnose, every_allocation_failure_is_clean)
{
	static const char log[] = "RuntimeError: Missing XLA configuration\n";
	struct failing_alloc fa = FA_INIT;
	struct smp_allocator a = fa_allocator(&fa);
	struct smp_options opts = SMP_OPTIONS_INIT;
	struct smp_diagnose_options o = SMP_DIAGNOSE_OPTIONS_INIT;
	const char *native = NATIVE("[]", "3500");
	struct smp_context *ctx = NULL;
	struct smp_diagnosis *d;
	struct smp_error err = {0};
	long n, base;
	int rc, ok = 0;

	opts.allocator = &a;
	cr_assert_eq(smp_context_new(&ctx, &opts, &err), 0);
	o.baseline = native;
	o.baseline_len = strlen(native);
	o.log = log;
	o.log_len = strlen(log);
	/* the first run compiles the schema the context keeps */
	d = diagnose(ctx, failed, &o);
	smp_diagnosis_free(d);
	base = fa.live;
	for (n = 0; n < 100000 && !ok; n++) {
		fa_arm(&fa, n);
		d = NULL;
		rc = smp_diagnose_buffer(&d, ctx, "j.yaml", failed,
					 strlen(failed), &o, &err);
		if (rc == 0) {
			ok = fa.calls <= n;
			cr_assert_eq(d->cause_count, 1);
		} else {
			cr_assert_eq(rc, SMP_ENOMEM, "n=%ld rc=%d", n, rc);
			cr_assert_null(d);
		}
		smp_diagnosis_free(d);
		cr_assert_eq(fa.live, base, "leak at allocation %ld", n);
	}
	cr_assert(ok, "a run without failure completed");
	fa.fail_at = FA_NEVER;
	smp_context_free(ctx);
}

/* --- output ------------------------------------------------------------ */

static char *
render(const struct smp_diagnosis *d, int json)
{
	struct smp_membuf m = {NULL, 0, 0};
	char *buf;

	cr_assert_eq(json ? smp_diagnosis_emit_json(d, smp_membuf_write_fn, &m)
			  : smp_diagnosis_emit_text(d, smp_membuf_write_fn, &m),
		     0);
	buf = malloc(m.len + 1);
	cr_assert_not_null(buf);
	m.buf = buf;
	m.size = m.len + 1;
	m.len = 0;
	buf[0] = '\0';
	cr_assert_eq(json ? smp_diagnosis_emit_json(d, smp_membuf_write_fn, &m)
			  : smp_diagnosis_emit_text(d, smp_membuf_write_fn, &m),
		     0);
	return buf;
}

Test(diagnose, json_output_follows_its_schema)
{
	static const char log[] = "RuntimeError: Missing XLA configuration\n";
	struct smp_context *ctx = th_context(NULL);
	struct smp_diagnose_options o = SMP_DIAGNOSE_OPTIONS_INIT;
	const char *native = NATIVE("[]", "3500");
	struct smp_allocator a;
	struct smp_schema *s = NULL;
	struct smp_docs docs;
	struct smp_report *rep;
	struct smp_diagnosis *d;
	size_t len;
	char *schema = th_read_file("schemas/diagnosis.schema.json", &len);
	char *json;

	cr_assert_not_null(schema, "run from the repository root");
	smp__allocator_resolve(&a, NULL);
	cr_assert_eq(smp__schema_load(&s, &a, "diagnosis.schema.json", schema,
				      len, NULL),
		     0);
	o.baseline = native;
	o.baseline_len = strlen(native);
	o.log = log;
	o.log_len = strlen(log);
	d = diagnose(ctx, failed, &o);
	json = render(d, 1);
	smp__docs_init(&docs, &a);
	cr_assert_eq(smp__load_strict(&docs, "out.json", json, strlen(json), 1,
				      NULL),
		     0, "%s", json);
	cr_assert_eq(smp__report_new(&rep, &a, "out.json", NULL), 0);
	cr_assert_eq(docs.count, 1);
	cr_assert_eq(smp__schema_check(s, docs.items[0].root, rep, 0), 0);
	cr_expect_eq(smp_report_count(rep), 0, "%s: %s",
		     smp_report_count(rep) ? smp_report_get(rep, 0)->message
					   : "",
		     json);
	smp_report_free(rep);
	smp__docs_release(&docs);
	smp__schema_free(s);
	free(json);
	free(schema);
	json = render(d, 0);
	cr_expect(strstr(json, "Situation\n") != NULL);
	cr_expect(strstr(json, "Likely cause\n") < strstr(json, "Checklist\n"));
	cr_expect(strstr(json, "\"Training job fails due to missing "
			       "PyTorch/XLA configuration\"") != NULL);
	free(json);
	smp_diagnosis_free(d);
	smp_context_free(ctx);
}
