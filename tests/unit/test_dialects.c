/*
 * test_dialects.c - the three ways a job is written: detection, the key
 * tables against the schemas, and the promise of the job model: the same
 * job written as estimator kwargs, as ModelTrainer fields and as a
 * CreateTrainingJob request gives the same findings (rule and message),
 * apart from the findings only one dialect can have.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smpreflight.h"
#include "rules/check.h"
#include "catalog/embedded.h"
#include "failing_alloc.h"
#include "helpers.h"
#include "doc/load.h"
#include "schema/schema.h"

static struct smp_context *
new_context(enum smp_dialect dialect)
{
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_context *ctx = NULL;
	struct smp_error err = {0};

	o.dialect = dialect;
	cr_assert_eq(smp_context_new(&ctx, &o, &err), 0, "context: %s",
		     err.message);
	return ctx;
}

static struct smp_report *
check(const struct smp_context *ctx, const char *name, const char *text)
{
	return th_check_named(ctx, name, text);
}

/* Detection of one document, through the loader. */
static enum smp_dialect
detect(const char *text)
{
	struct smp_allocator a;
	struct smp_limits lim;
	struct smp_docs docs;
	struct smp_report *rep;
	enum smp_dialect d;

	smp__allocator_resolve(&a, NULL);
	smp__limits_resolve(&lim, NULL);
	smp__docs_init(&docs, &a);
	cr_assert_eq(smp__report_new(&rep, &a, "t.yaml", NULL), 0);
	cr_assert_eq(smp__load(&docs, "t.yaml", text, strlen(text), &lim), 0);
	cr_assert_eq(smp__rules_input(rep, &docs), 0);
	cr_assert_eq(docs.count, 1, "%s", text);
	d = smp__detect_dialect(docs.items[0].root);
	smp__docs_release(&docs);
	smp_report_free(rep);
	return d;
}

Test(dialects, detects_from_the_keys)
{
	static const struct {
		const char *text;
		enum smp_dialect want;
	} cases[] = {
		{"estimator: HuggingFace\n", SMP_DIALECT_ESTIMATOR},
		{"entry_point: t.py\ninstance_type: ml.p3.2xlarge\n",
		 SMP_DIALECT_ESTIMATOR},
		{"framework_version: '1.13.1'\n", SMP_DIALECT_ESTIMATOR},
		{"compute: {instance_type: ml.p3.2xlarge}\n",
		 SMP_DIALECT_MODEL_TRAINER},
		{"training_image: x\nhyperparameters: {}\n",
		 SMP_DIALECT_MODEL_TRAINER},
		{"source_code: {entry_script: t.py}\n",
		 SMP_DIALECT_MODEL_TRAINER},
		{"{\"AlgorithmSpecification\": {}}",
		 SMP_DIALECT_CREATE_TRAINING_JOB},
		{"TrainingJobName: j\nRoleArn: r\n",
		 SMP_DIALECT_CREATE_TRAINING_JOB},
		{"HyperParameters: {a: '1'}\n",
		 SMP_DIALECT_CREATE_TRAINING_JOB},
		/* keys both snake_case dialects have: the estimator */
		{"hyperparameters: {a: 1}\nenvironment: {}\n",
		 SMP_DIALECT_ESTIMATOR},
		/* the most keys win; a stray key of another dialect does not */
		{"estimator: PyTorch\nentry_point: t.py\ncompute: {}\n",
		 SMP_DIALECT_ESTIMATOR},
		{"compute: {}\ntraining_image: x\ninstance_type: "
		 "ml.p3.2xlarge\n",
		 SMP_DIALECT_MODEL_TRAINER},
		/* only misspelled keys: the closest dialect */
		{"compiler_confg: {enabled: true}\n", SMP_DIALECT_ESTIMATOR},
		{"compte: {}\n", SMP_DIALECT_MODEL_TRAINER},
		{"ResourceConfg: {}\n", SMP_DIALECT_CREATE_TRAINING_JOB},
		/* nothing at all */
		{"name: report\nschedule: daily\n", SMP_DIALECT_AUTO},
		{"{}", SMP_DIALECT_AUTO},
		{"[1, 2]", SMP_DIALECT_AUTO},
		{"? [a]\n: 1\n", SMP_DIALECT_AUTO},
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		cr_assert_eq(detect(cases[i].text), cases[i].want, "%s -> %s",
			     cases[i].text, smp_dialect_name(cases[i].want));
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Detection's key tables are exactly the schemas' top-level keys. */
Test(dialects, key_tables_match_the_schemas)
{
	static const struct {
		enum smp_dialect dialect;
		const char *schema;
	} d[] = {
		{SMP_DIALECT_ESTIMATOR, "estimator.schema.json"},
		{SMP_DIALECT_MODEL_TRAINER, "model-trainer.schema.json"},
		{SMP_DIALECT_CREATE_TRAINING_JOB,
		 "create-training-job.schema.json"},
	};
	struct smp_allocator a;
	size_t i, k;

	smp__allocator_resolve(&a, NULL);
	for (i = 0; i < sizeof(d) / sizeof(d[0]); i++) {
		const struct smp_embedded_file *f =
			smp__embedded_find(d[i].schema);
		struct smp_schema *s = NULL;
		const char *const *want, *const *have;
		const char **sorted;
		size_t nwant, nhave;

		cr_assert_not_null(f, "%s is embedded", d[i].schema);
		cr_assert_eq(smp__schema_load(&s, &a, f->name,
					      (const char *)f->data, f->len,
					      NULL),
			     0);
		want = smp__schema_top_keys(s, &nwant);
		have = smp__dialect_keys(d[i].dialect, &nhave);
		cr_assert_eq(nhave, nwant, "%s: %zu keys, schema has %zu",
			     d[i].schema, nhave, nwant);
		sorted = malloc(nwant * sizeof(*sorted));
		cr_assert_not_null(sorted);
		memcpy(sorted, want, nwant * sizeof(*sorted));
		qsort(sorted, nwant, sizeof(*sorted), cmp_str);
		for (k = 0; k < nwant; k++) {
			cr_assert_str_eq(have[k], sorted[k], "%s key %zu",
					 d[i].schema, k);
			if (k)
				cr_assert_lt(strcmp(have[k - 1], have[k]), 0,
					     "sorted for bsearch");
		}
		free(sorted);
		smp__schema_free(s);
	}
}

/* ---- the same job in three dialects --------------------------------- */

#define IMAGE "763104351884.dkr.ecr.us-east-1.amazonaws.com/"

struct job {
	const char *name;
	const char *instance;
	int count;
	const char *debug;   /* "true" / "false" */
	const char *gpu_env; /* GPU_NUM_DEVICES value, or NULL */
	int xla;             /* pytorchxla enabled */
	int tensorflow;      /* TensorFlow 2.12 instead of HF PyTorch */
	const char *expect;  /* a rule that must fire, or NULL: no error */
};

static const struct job jobs[] = {
	{"correct single GPU", "ml.p3.2xlarge", 1, "false", NULL, 0, 0, NULL},
	{"multi-GPU without pytorchxla", "ml.p3.8xlarge", 1, "false", NULL, 0,
	 0, "pytorchxla-missing"},
	{"two nodes without pytorchxla", "ml.p4d.24xlarge", 2, "false", NULL, 0,
	 0, "pytorchxla-missing"},
	{"wrong GPU_NUM_DEVICES", "ml.p3.8xlarge", 1, "false", "8", 0, 0,
	 "gpu-num-devices-mismatch"},
	{"ignored GPU_NUM_DEVICES", "ml.p3.8xlarge", 1, "false", "2", 1, 0,
	 "gpu-num-devices-mismatch"},
	{"debug on", "ml.p3.2xlarge", 1, "true", NULL, 0, 0, "compiler-debug"},
	{"unsupported instance", "ml.p4de.24xlarge", 1, "false", NULL, 1, 0,
	 "instance-unsupported"},
	{"no EFA", "ml.p3.16xlarge", 2, "false", NULL, 1, 0, "efa-recommended"},
	{"single-GPU fleet", "ml.g4dn.xlarge", 4, "false", NULL, 1, 0,
	 "prefer-multi-gpu-instance"},
	{"TensorFlow 2.12", "ml.p3.2xlarge", 1, "false", NULL, 0, 1,
	 "framework-version"},
};

static void
estimator_form(char *out, size_t size, const struct job *j)
{
	char env[64] = "", dist[64] = "";

	if (j->gpu_env)
		snprintf(env, sizeof(env),
			 "environment: {GPU_NUM_DEVICES: \"%s\"}\n",
			 j->gpu_env);
	if (j->xla)
		snprintf(dist, sizeof(dist),
			 "distribution: {pytorchxla: {enabled: true}}\n");
	snprintf(out, size,
		 "%s"
		 "entry_point: train.py\n"
		 "instance_type: %s\n"
		 "instance_count: %d\n"
		 "compiler_config: {enabled: true, debug: %s}\n"
		 "debugger_hook_config: false\n"
		 "disable_profiler: true\n"
		 "%s%s"
		 "hyperparameters:\n"
		 "  model_name_or_path: bert-base-uncased\n"
		 "  per_device_train_batch_size: 24\n"
		 "  preprocessing_num_workers: 8\n",
		 j->tensorflow ? "estimator: TensorFlow\n"
				 "framework_version: \"2.12.0\"\n"
				 "py_version: py310\n"
			       : "estimator: HuggingFace\n"
				 "transformers_version: \"4.21.1\"\n"
				 "pytorch_version: \"1.11.0\"\n"
				 "py_version: py38\n",
		 j->instance, j->count, j->debug, dist, env);
}

static const char *
image_of(const struct job *j)
{
	return j->tensorflow ? IMAGE "tensorflow-training:2.12.0-gpu-py310-"
				     "cu118-ubuntu20.04-sagemaker"
			     : IMAGE "huggingface-pytorch-trcomp-training:"
				     "1.11.0-transformers4.21.1-gpu-py38-cu113-"
				     "ubuntu20.04";
}

static void
model_trainer_form(char *out, size_t size, const struct job *j)
{
	char env[64] = "";

	if (j->gpu_env)
		snprintf(env, sizeof(env),
			 "environment: {GPU_NUM_DEVICES: \"%s\"}\n",
			 j->gpu_env);
	snprintf(out, size,
		 "training_image: %s\n"
		 "source_code: {source_dir: scripts, entry_script: train.py}\n"
		 "compute: {instance_type: %s, instance_count: %d}\n"
		 "%s"
		 "hyperparameters:\n"
		 "  sagemaker_training_compiler_enabled: true\n"
		 "  sagemaker_training_compiler_debug_mode: %s\n"
		 "%s"
		 "  model_name_or_path: bert-base-uncased\n"
		 "  per_device_train_batch_size: 24\n"
		 "  preprocessing_num_workers: 8\n",
		 image_of(j), j->instance, j->count, env, j->debug,
		 j->xla ? "  sagemaker_pytorch_xla_multi_worker_enabled: true\n"
			: "");
}

static void
api_form(char *out, size_t size, const struct job *j)
{
	char env[80] = "";

	if (j->gpu_env)
		snprintf(env, sizeof(env),
			 "  \"Environment\": {\"GPU_NUM_DEVICES\": \"%s\"},\n",
			 j->gpu_env);
	snprintf(out, size,
		 "{\n"
		 "  \"TrainingJobName\": \"same-job\",\n"
		 "  \"AlgorithmSpecification\": {\"TrainingImage\": \"%s\", "
		 "\"TrainingInputMode\": \"File\"},\n"
		 "  \"ResourceConfig\": {\"InstanceType\": \"%s\", "
		 "\"InstanceCount\": %d, \"VolumeSizeInGB\": 50},\n"
		 "%s"
		 "  \"HyperParameters\": {\n"
		 "    \"sagemaker_training_compiler_enabled\": \"true\",\n"
		 "    \"sagemaker_training_compiler_debug_mode\": \"%s\",\n"
		 "%s"
		 "    \"model_name_or_path\": \"bert-base-uncased\",\n"
		 "    \"per_device_train_batch_size\": \"24\",\n"
		 "    \"preprocessing_num_workers\": \"8\"\n"
		 "  }\n"
		 "}\n",
		 image_of(j), j->instance, j->count, env, j->debug,
		 j->xla ? "    \"sagemaker_pytorch_xla_multi_worker_enabled\": "
			  "\"true\",\n"
			: "");
}

/* Findings only one way of writing a job can have. */
static int
dialect_specific(const char *rule)
{
	return strcmp(rule, "model-trainer-compiler") == 0;
}

static int
cmp_line(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* "rule: message" of every finding that is not dialect-specific, sorted. */
static size_t
summary(const struct smp_report *rep, char lines[][600], size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < smp_report_count(rep); i++) {
		const struct smp_finding *f = smp_report_get(rep, i);

		if (dialect_specific(f->rule))
			continue;
		cr_assert_lt(n, max);
		snprintf(lines[n++], 600, "%s: %s", f->rule, f->message);
	}
	qsort(lines, n, sizeof(lines[0]), cmp_line);
	return n;
}

Test(dialects, same_job_same_findings)
{
	struct smp_context *ctx = new_context(SMP_DIALECT_AUTO);
	static char text[3][2048];
	static char lines[3][32][600];
	size_t i, k, n[3];

	for (i = 0; i < sizeof(jobs) / sizeof(jobs[0]); i++) {
		const struct job *j = &jobs[i];
		struct smp_report *rep[3];
		int d;

		estimator_form(text[0], sizeof(text[0]), j);
		model_trainer_form(text[1], sizeof(text[1]), j);
		api_form(text[2], sizeof(text[2]), j);
		rep[0] = check(ctx, "job.yaml", text[0]);
		rep[1] = check(ctx, "mt.yaml", text[1]);
		rep[2] = check(ctx, "api.json", text[2]);
		for (d = 0; d < 3; d++) {
			n[d] = summary(rep[d], lines[d], 32);
			if (j->expect)
				cr_assert_not_null(th_find(rep[d], j->expect),
						   "%s, form %d: no %s",
						   j->name, d, j->expect);
			else
				cr_assert_lt(smp_report_max_severity(rep[d]),
					     SMP_SEVERITY_ERROR,
					     "%s, form %d: %s", j->name, d,
					     n[d] ? lines[d][0] : "");
		}
		/* ModelTrainer always says it has no compiler support */
		cr_assert_not_null(th_find(rep[1], "model-trainer-compiler"));
		cr_assert_null(th_find(rep[0], "model-trainer-compiler"));
		for (d = 1; d < 3; d++) {
			cr_assert_eq(n[d], n[0],
				     "%s: form %d has %zu findings, the "
				     "estimator %zu (first: %s / %s)",
				     j->name, d, n[d], n[0],
				     n[d] ? lines[d][0] : "-",
				     n[0] ? lines[0][0] : "-");
			for (k = 0; k < n[0]; k++)
				cr_assert_str_eq(lines[d][k], lines[0][k],
						 "%s, form %d", j->name, d);
		}
		for (d = 0; d < 3; d++)
			smp_report_free(rep[d]);
	}
	smp_context_free(ctx);
}

/* ---- what only one dialect does ------------------------------------- */

Test(dialects, unknown_dialect_is_one_finding_at_the_root)
{
	static const char text[] = "# a cron job, not a training job\n"
				   "name: nightly\n"
				   "schedule: \"0 3 * * *\"\n"
				   "command: [report, --all]\n";
	struct smp_context *ctx = new_context(SMP_DIALECT_AUTO);
	struct smp_report *rep = check(ctx, "x.yaml", text);
	const struct smp_finding *f;

	cr_assert_eq(smp_report_count(rep), 1);
	f = smp_report_get(rep, 0);
	cr_assert_str_eq(f->rule, "dialect-unknown");
	cr_assert_eq(f->severity, SMP_SEVERITY_ERROR);
	cr_assert_eq(f->line, 2);
	cr_assert_eq(f->column, 1);
	cr_assert_str_eq(f->pointer, "");
	cr_assert(strstr(f->message, "use --dialect") != NULL);
	smp_report_free(rep);
	smp_context_free(ctx);
}

Test(dialects, forced_dialect_wins)
{
	static const char text[] = "name: nightly\n"
				   "ResourceConfig: {InstanceType: x}\n";
	struct smp_context *ctx = new_context(SMP_DIALECT_CREATE_TRAINING_JOB);
	struct smp_report *rep = check(ctx, "x.yaml", text);
	const struct smp_finding *f = th_find(rep, "unknown-key");

	cr_assert_null(th_find(rep, "dialect-unknown"));
	cr_assert_not_null(f);
	cr_assert(strstr(f->message, "a CreateTrainingJob request") != NULL,
		  "%s", f->message);
	cr_assert_not_null(th_find(rep, "instance-unknown"));
	smp_report_free(rep);
	smp_context_free(ctx);
}

/* No 'compute': ModelTrainer trains on one ml.m5.xlarge (a CPU). */
Test(dialects, model_trainer_default_instance)
{
	static const char text[] =
		"base_job_name: bert\n"
		"training_image: " IMAGE "pytorch-trcomp-training:1.13.1-gpu-"
		"py39\n"
		"hyperparameters: {sagemaker_training_compiler_enabled: "
		"true}\n";
	struct smp_context *ctx = new_context(SMP_DIALECT_AUTO);
	struct smp_report *rep = check(ctx, "mt.yaml", text);
	const struct smp_finding *f = th_find(rep, "instance-unsupported");

	cr_assert_not_null(f);
	cr_assert(strstr(f->message, "'ml.m5.xlarge'") != NULL, "%s",
		  f->message);
	cr_assert(strstr(f->message, "default") != NULL, "%s", f->message);
	/* shown on the image that made it a compiler job */
	cr_assert_eq(f->line, 2);
	cr_assert_eq(f->column, 17);
	cr_assert_not_null(th_find(rep, "model-trainer-compiler"));
	smp_report_free(rep);
	smp_context_free(ctx);
}

/* Versions cut out of the tag point at their place in it. */
Test(dialects, tag_versions_have_their_own_position)
{
	static const char text[] =
		"{\"AlgorithmSpecification\": {\"TrainingImage\": \"" IMAGE
		"pytorch-trcomp-training:1.13.1-gpu-py38\"},\n"
		" \"ResourceConfig\": {\"InstanceType\": \"ml.p3.2xlarge\"},\n"
		" \"HyperParameters\": "
		"{\"sagemaker_training_compiler_enabled\": \"true\"}}\n";
	struct smp_context *ctx = new_context(SMP_DIALECT_AUTO);
	struct smp_report *rep = check(ctx, "api.json", text);
	const struct smp_finding *f = th_find(rep, "py-version");
	const char *at;

	cr_assert_not_null(f);
	cr_assert(strstr(f->message, "'py38'") != NULL, "%s", f->message);
	cr_assert_str_eq(f->suggestion, "py39");
	at = strstr(text, "py38\"");
	cr_assert_eq(f->line, 1);
	cr_assert_eq(f->column, (uint32_t)(at - text) + 1);
	cr_assert_eq(f->end_column, f->column + 4);
	smp_report_free(rep);
	smp_context_free(ctx);
}

/* The hyperparameter flag alone is not enough in a request. */
Test(dialects, api_needs_image_and_flag)
{
	static const char *const texts[] = {
		/* flag, plain image */
		"{\"AlgorithmSpecification\": {\"TrainingImage\": \"" IMAGE
		"pytorch-training:1.13.1-gpu-py39\"},"
		" \"HyperParameters\": "
		"{\"sagemaker_training_compiler_enabled\": \"true\"}}",
		/* compiler image, no flag */
		"{\"AlgorithmSpecification\": {\"TrainingImage\": \"" IMAGE
		"pytorch-trcomp-training:1.13.1-gpu-py39\"}}",
	};
	struct smp_context *ctx = new_context(SMP_DIALECT_AUTO);
	struct smp_report *rep;

	rep = check(ctx, "a.json", texts[0]);
	cr_assert_not_null(th_find(rep, "compiler-not-enabled"));
	cr_assert_not_null(th_find(rep, "compiler-flags-without-config"));
	smp_report_free(rep);
	rep = check(ctx, "b.json", texts[1]);
	cr_assert_not_null(th_find(rep, "compiler-not-enabled"));
	cr_assert_null(th_find(rep, "compiler-flags-without-config"));
	smp_report_free(rep);
	smp_context_free(ctx);
}

/* Out of memory is SMP_ENOMEM, for the nodes the normalizers make up. */
Test(dialects, every_allocation_failure_is_clean)
{
	static char texts[2][2048];
	struct failing_alloc st = FA_INIT;
	struct smp_allocator a = fa_allocator(&st);
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_context *ctx = NULL;
	long base;
	int t;

	/* ModelTrainer without compute; a request with versions in the tag */
	snprintf(texts[0], sizeof(texts[0]),
		 "training_image: %s\n"
		 "hyperparameters: {sagemaker_training_compiler_enabled: "
		 "true}\n",
		 image_of(&jobs[0]));
	api_form(texts[1], sizeof(texts[1]), &jobs[3]);
	o.allocator = &a;
	cr_assert_eq(smp_context_new(&ctx, &o, NULL), 0);
	/* the first check of a dialect compiles its schema, which the
	 * context keeps: count what the checks after it leave */
	for (t = 0; t < 2; t++) {
		struct smp_report *first = NULL;

		cr_assert_eq(smp_check_buffer(&first, ctx, "j", texts[t],
					      strlen(texts[t]), NULL),
			     0);
		smp_report_free(first);
	}
	base = st.live;
	for (t = 0; t < 2; t++) {
		long n;
		int done = 0;

		for (n = 0; !done; n++) {
			struct smp_report *rep = NULL;
			int rc;

			fa_arm(&st, n);
			rc = smp_check_buffer(&rep, ctx, "j", texts[t],
					      strlen(texts[t]), NULL);
			cr_assert(rc == 0 || rc == SMP_ENOMEM, "n=%ld rc=%d", n,
				  rc);
			if (rc == 0)
				cr_assert_gt(smp_report_count(rep), 0);
			done = rc == 0 && st.calls <= n;
			smp_report_free(rep);
			cr_assert_eq(st.live, base, "text %d n=%ld leaked %ld",
				     t, n, st.live - base);
		}
	}
	st.fail_at = FA_NEVER;
	smp_context_free(ctx);
	cr_assert_eq(st.live, 0);
}
