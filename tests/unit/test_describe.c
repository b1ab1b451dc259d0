/*
 * test_describe.c - DescribeTrainingJob responses in check: detection,
 * the response-only members against botocore's model
 * (schemas/botocore-sagemaker.json), that model's request members against
 * the reference (spec-fields.json), no findings on a correct response,
 * and the SDK's JSON-quoted sagemaker_program.
 */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smpreflight.h"
#include "rules/check.h"
#include "helpers.h"

static cJSON *
load_json(const char *path)
{
	char *text = th_read_file(path, NULL);
	cJSON *j;

	if (!text)
		return NULL;
	j = cJSON_Parse(text);
	free(text);
	cr_assert_not_null(j, "%s does not parse", path);
	return j;
}

static int
in_array(const cJSON *arr, const char *s)
{
	const cJSON *e;

	cJSON_ArrayForEach(e, arr) if (cJSON_IsString(e) &&
				       strcmp(e->valuestring, s) == 0) return 1;
	return 0;
}

/* botocore's request members and the reference's agree: every member
 * (top level and in every structure) of the Debian model is in the
 * reference, which may be newer and have more; the schema's request
 * members are the reference's exactly. */
Test(describe, botocore_request_members_agree_with_spec_fields)
{
	const char *shared = getenv("SMP_SHARED_DIR");
	char path[1024];
	cJSON *ref, *boto, *api, *req, *structs, *st, *m, *schema, *props;
	size_t newer = 0;

	snprintf(path, sizeof(path), "%s/reference/spec-fields.json",
		 shared && *shared ? shared : "../shared");
	ref = load_json(path);
	if (!ref)
		cr_skip_test("%s not found (set SMP_SHARED_DIR): the botocore "
			     "model is not compared with the reference",
			     path);
	boto = load_json("schemas/botocore-sagemaker.json");
	cr_assert_not_null(boto, "schemas/botocore-sagemaker.json");
	api = cJSON_GetObjectItemCaseSensitive(ref, "create_training_job");
	req = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(boto,
						 "CreateTrainingJobRequest"),
		"members");
	cr_assert(cJSON_GetArraySize(req) > 10);
	cJSON_ArrayForEach(m, req) cr_expect(
		in_array(cJSON_GetObjectItemCaseSensitive(api, "top"),
			 m->valuestring),
		"botocore request member '%s' is not in spec-fields.json",
		m->valuestring);
	cJSON_ArrayForEach(m, cJSON_GetObjectItemCaseSensitive(api, "top"))
		newer += !in_array(req, m->valuestring);
	structs = cJSON_GetObjectItemCaseSensitive(boto, "request_structures");
	cJSON_ArrayForEach(st, structs)
	{
		const cJSON *want =
			cJSON_GetObjectItemCaseSensitive(api, st->string);

		if (!want)
			continue; /* a structure the reference leaves out */
		cJSON_ArrayForEach(m, st) cr_expect(
			in_array(want, m->valuestring),
			"botocore member %s.%s is not in spec-fields.json",
			st->string, m->valuestring);
	}
	/* the generated schema's request members are the reference's */
	schema = load_json("schemas/create-training-job.schema.json");
	cr_assert_not_null(schema);
	props = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(
			cJSON_GetObjectItemCaseSensitive(schema, "$defs"),
			"CreateTrainingJobRequest"),
		"properties");
	cr_assert_eq(cJSON_GetArraySize(props),
		     cJSON_GetArraySize(
			     cJSON_GetObjectItemCaseSensitive(api, "top")));
	cJSON_ArrayForEach(m, props) cr_expect(
		in_array(cJSON_GetObjectItemCaseSensitive(api, "top"),
			 m->string),
		"schema request member '%s' is not in spec-fields.json",
		m->string);
	cr_log_info("spec-fields.json has %zu request members newer than "
		    "botocore %s",
		    newer,
		    cJSON_GetObjectItemCaseSensitive(boto, "botocore_version")
			    ->valuestring);
	cJSON_Delete(schema);
	cJSON_Delete(boto);
	cJSON_Delete(ref);
}

/* Detection's response-only keys are botocore's, and each is a key of
 * the CreateTrainingJob dialect. */
Test(describe, response_keys_are_botocore_s)
{
	cJSON *boto = load_json("schemas/botocore-sagemaker.json");
	const char *const *keys, *const *api;
	const cJSON *only, *m;
	size_t n, napi, i, j;

	cr_assert_not_null(boto);
	only = cJSON_GetObjectItemCaseSensitive(boto, "response_only");
	keys = smp__response_keys(&n);
	cr_assert_eq((int)n, cJSON_GetArraySize(only));
	cJSON_ArrayForEach(m, only)
	{
		for (i = 0; i < n && strcmp(keys[i], m->string); i++)
			;
		cr_expect(i < n, "'%s' missing from response_keys", m->string);
	}
	api = smp__dialect_keys(SMP_DIALECT_CREATE_TRAINING_JOB, &napi);
	for (i = 0; i < n; i++) {
		for (j = 0; j < napi && strcmp(api[j], keys[i]); j++)
			;
		cr_expect(j < napi, "'%s' is not a CreateTrainingJob key",
			  keys[i]);
		if (i)
			cr_expect(strcmp(keys[i - 1], keys[i]) < 0, "sorted");
	}
	cJSON_Delete(boto);
}

static const char response_yaml[] =
	"TrainingJobName: bert-trcomp-1\n"
	"TrainingJobArn: "
	"arn:aws:sagemaker:us-west-2:111122223333:training-job/bert-trcomp-1\n"
	"TrainingJobStatus: Completed\n"
	"SecondaryStatus: Completed\n"
	"ModelArtifacts:\n"
	"  S3ModelArtifacts: s3://b/bert-trcomp-1/output/model.tar.gz\n"
	"AlgorithmSpecification:\n"
	"  TrainingImage: 763104351884.dkr.ecr.us-west-2.amazonaws.com/"
	"huggingface-pytorch-trcomp-training:1.11.0-transformers4.21.1-gpu-"
	"py38-cu113-ubuntu20.04\n"
	"  TrainingInputMode: File\n"
	"  EnableSageMakerMetricsTimeSeries: true\n"
	"RoleArn: arn:aws:iam::111122223333:role/SageMaker\n"
	"HyperParameters:\n"
	"  sagemaker_program: '\"train.py\"'\n"
	"  sagemaker_submit_directory: '\"s3://b/src/sourcedir.tar.gz\"'\n"
	"  sagemaker_training_compiler_enabled: 'true'\n"
	"  preprocessing_num_workers: '8'\n"
	"ResourceConfig: {InstanceType: ml.p3.2xlarge, InstanceCount: 1, "
	"VolumeSizeInGB: 30}\n"
	"OutputDataConfig: {S3OutputPath: 's3://b/'}\n"
	"StoppingCondition: {MaxRuntimeInSeconds: 86400}\n"
	"CreationTime: '2026-11-30T14:02:11.843000+00:00'\n"
	"TrainingStartTime: 1764511420.112\n"
	"TrainingEndTime: '2026-11-30T15:09:02.275000+00:00'\n"
	"LastModifiedTime: '2026-11-30T15:09:02.275000+00:00'\n"
	"SecondaryStatusTransitions:\n"
	"- {Status: Starting, StartTime: '2026-11-30T14:02:11+00:00', "
	"StatusMessage: Preparing the instances for training}\n"
	"FinalMetricDataList:\n"
	"- {MetricName: train_loss, Value: 0.0421, Timestamp: "
	"'2026-11-30T15:08:00+00:00'}\n"
	"TrainingTimeInSeconds: 3842\n"
	"BillableTimeInSeconds: 3842\n"
	"ProfilingStatus: Disabled\n"
	"WarmPoolStatus: {Status: Terminated, "
	"ResourceRetainedBillableTimeInSeconds: 0}\n"
	"ProfilerConfig: {DisableProfiler: true}\n";

/* Any response-only member makes a response: its unknown top-level keys
 * are then warnings (a newer API's members), a request's are errors. */
Test(describe, detected_by_a_response_only_member)
{
	static const struct {
		const char *text;
		int response;
	} cases[] = {
		{"TrainingJobArn: x\n", 1},
		{"TrainingJobStatus: Failed\nResourceConfig: {}\n", 1},
		{"ResourceConfig: {}\nFinalMetricDataList: []\n", 1},
		{"ResourceConfig: {}\nTrainingJobName: x\n", 0},
		{"HyperParameters: {}\n", 0},
	};
	struct smp_context *ctx = th_context(NULL);
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[256];
		struct smp_report *rep;
		const struct smp_finding *f;

		snprintf(text, sizeof(text), "%sWarmPoolStatu: {}\n",
			 cases[i].text);
		rep = th_check(ctx, text);
		f = th_find(rep, "unknown-key");
		cr_assert_not_null(f, "%s", text);
		cr_expect_eq(f->severity,
			     cases[i].response ? SMP_SEVERITY_WARNING
					       : SMP_SEVERITY_ERROR,
			     "%s", text);
		smp_report_free(rep);
	}
	smp_context_free(ctx);
}

Test(describe, correct_response_has_no_findings)
{
	/* the end-of-support notice is every compiler job's */
	static const char *const eos[] = {"compiler-end-of-support"};
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_context *ctx;
	struct smp_report *rep;
	size_t i, n;

	o.ignore.names = eos;
	o.ignore.count = 1;
	ctx = th_context(&o);
	rep = th_check(ctx, response_yaml);
	n = smp_report_count(rep);

	for (i = 0; i < n; i++) {
		const struct smp_finding *f = smp_report_get(rep, i);

		cr_expect_fail("%s:%u: %s [%s]", f->file, f->line, f->message,
			       f->rule);
	}
	smp_report_free(rep);
	smp_context_free(ctx);
}

Test(describe, unknown_member_is_a_warning_in_a_response_only)
{
	struct smp_context *ctx = th_context(NULL);
	struct smp_report *rep;
	const struct smp_finding *f;

	rep = th_check(ctx, "TrainingJobArn: x\nTrainingJobOutput: {}\n");
	f = th_find(rep, "unknown-key");
	cr_assert_not_null(f);
	cr_expect_eq(f->severity, SMP_SEVERITY_WARNING);
	cr_expect(strstr(f->message, "DescribeTrainingJob response") != NULL,
		  "%s", f->message);
	smp_report_free(rep);
	/* nested members of the request part stay errors */
	rep = th_check(ctx, "TrainingJobArn: x\nResourceConfig: "
			    "{InstanceTyp: ml.p3.2xlarge}\n");
	f = th_find(rep, "unknown-key");
	cr_assert_not_null(f);
	cr_expect_eq(f->severity, SMP_SEVERITY_ERROR);
	smp_report_free(rep);
	/* and so do top-level ones of a request */
	rep = th_check(ctx, "ResourceConfig: {}\nTrainingJobOutput: {}\n");
	f = th_find(rep, "unknown-key");
	cr_assert_not_null(f);
	cr_expect_eq(f->severity, SMP_SEVERITY_ERROR);
	smp_report_free(rep);
	smp_context_free(ctx);
}

struct entry {
	char entry[64];
	char source[128];
};

static void
grab(void *ud, const struct smp_check *c)
{
	struct entry *e = ud;

	snprintf(e->entry, sizeof(e->entry), "%s",
		 c->job->entry_point ? smp__node_text(c->job->entry_point)
				     : "(none)");
	snprintf(e->source, sizeof(e->source), "%s",
		 c->job->source_dir ? smp__node_text(c->job->source_dir)
				    : "(none)");
}

Test(describe, sdk_quoted_program_is_unquoted)
{
	static const struct {
		const char *hp, *entry, *source;
	} cases[] = {
		{"sagemaker_program: '\"train.py\"'\n  "
		 "sagemaker_submit_directory: '\"s3://b/s.tar.gz\"'\n",
		 "train.py", "s3://b/s.tar.gz"},
		{"sagemaker_program: train.py\n", "train.py", "(none)"},
		{"sagemaker_program: '\"\"'\n", "(none)", "(none)"},
		{"sagemaker_submit_directory: s3://b/s.tar.gz\n", "(none)",
		 "(none)"},
	};
	struct smp_context *ctx = th_context(NULL);
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[512];
		struct entry e = {"", ""};
		struct smp_check_hook hook = {.fn = grab, .ud = &e};
		struct smp_report *rep = NULL;

		snprintf(text, sizeof(text),
			 "TrainingJobArn: x\nHyperParameters:\n  %s",
			 cases[i].hp);
		cr_assert_eq(smp__check_run(&rep, ctx, "d.yaml", text,
					    strlen(text), &hook, NULL),
			     0);
		cr_expect_str_eq(e.entry, cases[i].entry, "%s", text);
		cr_expect_str_eq(e.source, cases[i].source, "%s", text);
		smp_report_free(rep);
	}
	smp_context_free(ctx);
}

/* The rules read a request's hyperparameters as the container does (the
 * SDK's JSON quotes off), and their findings keep pointer and position. */
Test(describe, sdk_quoted_values_reach_the_rules)
{
	static const char request[] =
		"{\n"
		"  \"AlgorithmSpecification\": {\"TrainingImage\": "
		"\"763104351884.dkr.ecr.us-west-2.amazonaws.com/huggingface-"
		"pytorch-trcomp-training:1.11.0-transformers4.21.1-gpu-py38-"
		"cu113-ubuntu20.04\"},\n"
		"  \"ResourceConfig\": {\"InstanceType\": \"ml.p3.2xlarge\", "
		"\"InstanceCount\": 1},\n"
		"  \"HyperParameters\": {\n"
		"    \"sagemaker_training_compiler_enabled\": \"true\",\n"
		"    \"padding\": \"\\\"longest\\\"\"\n"
		"  }\n"
		"}\n";
	struct smp_context *ctx = th_context(NULL);
	struct smp_report *rep = NULL;
	const struct smp_finding *f;
	struct smp_error err = {0};

	cr_assert_eq(smp_check_buffer(&rep, ctx, "r.json", request,
				      strlen(request), &err),
		     0);
	f = th_find(rep, "padding-dynamic");
	cr_assert_not_null(f, "the quoted 'longest' is read as longest");
	cr_expect_eq(f->line, 6);
	cr_expect_str_eq(f->pointer, "/HyperParameters/padding");
	/* no entry script was read: whether it takes
	 * --preprocessing_num_workers is unknown, so it is not suggested */
	cr_expect_null(th_find(rep, "preprocessing-workers"));
	smp_report_free(rep);
	smp_context_free(ctx);
}
