/*
 * test_baseline.c - `check --baseline` through the public API: the
 * learning rate against the change of the global batch (linear, sqrt,
 * the 5% tolerance, missing rates), drift in hyperparameters, instances
 * and versions, what is exempt, unusable baselines and out-of-memory.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "failing_alloc.h"
#include "smpreflight.h"

/* smp_check() options comparing with baseline b */
#define BASELINE_OPTS(b)                                                       \
	(&(struct smp_check_options){.version = SMP_CHECK_OPTIONS_VERSION,     \
				     .baseline = (b)})

static struct smp_context *
context(void)
{
	struct smp_context *ctx = NULL;
	struct smp_error err = {0};
	int rc = smp_context_new(&ctx, NULL, &err);

	cr_assert_eq(rc, 0, "context: %s", err.message);
	return ctx;
}

static struct smp_baseline *
baseline(const struct smp_context *ctx, const char *spec)
{
	struct smp_baseline *b = NULL;
	struct smp_error err = {0};
	int rc = smp_baseline_new(&b, ctx, "native.yaml", spec, strlen(spec),
				  &err);

	cr_assert_eq(rc, 0, "baseline: %s", err.message);
	return b;
}

static struct smp_report *
compare(const struct smp_context *ctx, const struct smp_baseline *b,
	const char *spec)
{
	struct smp_report *rep = NULL;
	struct smp_error err = {0};
	int rc = smp_check(&rep, ctx, "compiled.yaml", spec, strlen(spec),
			   BASELINE_OPTS(b), &err);

	cr_assert_eq(rc, 0, "check: %s", err.message);
	return rep;
}

/* The n-th finding of rule (0-based), or NULL. */
static const struct smp_finding *
nth(const struct smp_report *r, const char *rule, size_t n)
{
	size_t i;

	for (i = 0; i < smp_report_count(r); i++) {
		const struct smp_finding *f = smp_report_get(r, i);

		if (strcmp(f->rule, rule) == 0 && n-- == 0)
			return f;
	}
	return NULL;
}

static size_t
count(const struct smp_report *r, const char *rule)
{
	size_t n = 0;

	while (nth(r, rule, n))
		n++;
	return n;
}

#define HEAD                                                                   \
	"estimator: HuggingFace\n"                                             \
	"entry_point: train.py\n"                                              \
	"instance_type: ml.p3.2xlarge\n"                                       \
	"transformers_version: \"4.11.0\"\n"                                   \
	"pytorch_version: \"1.9.0\"\n"                                         \
	"py_version: py38\n"

/* line 7 */
#define NATIVE                                                                 \
	HEAD "hyperparameters:\n"                                              \
	     "  model_name_or_path: distilgpt2\n"                              \
	     "  per_device_train_batch_size: 12\n"                             \
	     "  learning_rate: 5.0e-5\n"                                       \
	     "  num_train_epochs: 3\n"                                         \
	     "  fp16: true\n"

/* the compiled twin: compiler on, batch 24, the rate line last */
static char *
compiled(const char *lr_line)
{
	static char buf[1024];

	snprintf(buf, sizeof(buf),
		 HEAD "compiler_config: {enabled: true}\n"
		      "debugger_hook_config: false\n"
		      "disable_profiler: true\n"
		      "hyperparameters:\n"
		      "  model_name_or_path: distilgpt2\n"
		      "  per_device_train_batch_size: 24\n"
		      "  num_train_epochs: \"3\"\n"
		      "  fp16: \"True\"\n"
		      "  preprocessing_num_workers: 8\n"
		      "  sagemaker_training_compiler_enabled: true\n"
		      "%s",
		 lr_line);
	return buf;
}

Test(baseline, learning_rate_not_scaled)
{
	struct smp_context *ctx = context();
	struct smp_baseline *b = baseline(ctx, NATIVE);
	struct smp_report *rep;
	const struct smp_finding *f;

	rep = compare(ctx, b, compiled("  learning_rate: 5.0e-5\n"));
	cr_assert_eq(count(rep, "learning-rate-not-scaled"), 1);
	cr_assert_eq(count(rep, "baseline-drift"), 0,
		     "\"3\" is 3, \"True\" is true, workers and compiler "
		     "flags are exempt");
	f = nth(rep, "learning-rate-not-scaled", 0);
	cr_assert_eq(f->line, 17);
	cr_assert_eq(f->column, 18);
	cr_assert_str_eq(f->pointer, "/hyperparameters/learning_rate");
	cr_assert_str_eq(f->message,
			 "'learning_rate' is 5e-05 as in the baseline "
			 "'native.yaml', but the global batch changed by k = 2 "
			 "(12 to 24; 'per_device_train_batch_size' read per "
			 "GPU)");
	cr_assert_str_eq(f->fix, "set 'learning_rate' to 0.0001 (x k, linear) "
				 "or 7.071e-05 (x sqrt(k))");
	cr_assert_str_eq(f->suggestion, "0.0001");
	cr_assert_eq(f->severity, SMP_SEVERITY_WARNING);
	smp_report_free(rep);
	/* doubled by 1.8: neither 2 nor 1.414 */
	rep = compare(ctx, b, compiled("  learning_rate: 9.0e-5\n"));
	cr_assert_eq(count(rep, "learning-rate-not-scaled"), 1);
	cr_assert_not_null(
		strstr(nth(rep, "learning-rate-not-scaled", 0)->message,
		       "follows neither k nor sqrt(k)"));
	smp_report_free(rep);
	smp_baseline_free(b);
	smp_context_free(ctx);
}

Test(baseline, linear_or_sqrt_within_5_percent_is_quiet)
{
	static const char *const quiet[] = {
		"  learning_rate: 1.0e-4\n",   /* x 2 */
		"  learning_rate: 7.071e-5\n", /* x sqrt(2) */
		"  learning_rate: 1.04e-4\n",  /* x 2 + 4% */
		"  learning_rate: 6.8e-5\n",   /* x sqrt(2) - 3.8% */
		"  lr: 0.0001\n",              /* another name of the rate */
	};
	static const char *const loud[] = {
		"  learning_rate: 1.06e-4\n", /* x 2 + 6% */
		"  learning_rate: 6.6e-5\n",  /* x sqrt(2) - 6.7% */
	};
	struct smp_context *ctx = context();
	struct smp_baseline *b = baseline(ctx, NATIVE);
	struct smp_report *rep;
	size_t i;

	for (i = 0; i < sizeof(quiet) / sizeof(quiet[0]); i++) {
		rep = compare(ctx, b, compiled(quiet[i]));
		cr_assert_eq(count(rep, "learning-rate-not-scaled"), 0, "%s",
			     quiet[i]);
		smp_report_free(rep);
	}
	for (i = 0; i < sizeof(loud) / sizeof(loud[0]); i++) {
		rep = compare(ctx, b, compiled(loud[i]));
		cr_assert_eq(count(rep, "learning-rate-not-scaled"), 1, "%s",
			     loud[i]);
		smp_report_free(rep);
	}
	smp_baseline_free(b);
	smp_context_free(ctx);
}

Test(baseline, missing_learning_rates)
{
	struct smp_context *ctx = context();
	struct smp_baseline *b = baseline(ctx, NATIVE), *none;
	struct smp_report *rep;
	const struct smp_finding *f;

	/* the compiled job drops the rate: the script default applies */
	rep = compare(ctx, b, compiled(""));
	f = nth(rep, "learning-rate-not-scaled", 0);
	cr_assert_not_null(f);
	cr_assert_eq(f->line, 12, "at the batch size");
	cr_assert_str_eq(f->suggestion, "0.0001");
	smp_report_free(rep);
	/* neither sets one while the batch doubles */
	none = baseline(ctx, HEAD "hyperparameters:\n"
				  "  model_name_or_path: distilgpt2\n"
				  "  per_device_train_batch_size: 12\n"
				  "  num_train_epochs: 3\n"
				  "  fp16: true\n");
	rep = compare(ctx, none, compiled(""));
	f = nth(rep, "learning-rate-not-scaled", 0);
	cr_assert_not_null(f);
	cr_assert_not_null(strstr(f->message, "neither job sets a learning "
					      "rate"));
	smp_report_free(rep);
	/* only the compiled job sets one: nothing to compare it with */
	rep = compare(ctx, none, compiled("  learning_rate: 3.0e-5\n"));
	cr_assert_eq(count(rep, "learning-rate-not-scaled"), 0);
	smp_report_free(rep);
	smp_baseline_free(none);
	smp_baseline_free(b);
	smp_context_free(ctx);
}

Test(baseline, global_batch_counts_gpus_and_instances)
{
	struct smp_context *ctx = context();
	struct smp_baseline *b;
	struct smp_report *rep;

	/* 16 x 4 GPUs x 1 = 64 -> 16 x 4 GPUs x 2 = 128: k = 2 */
	b = baseline(ctx, "estimator: PyTorch\n"
			  "instance_type: ml.p3.8xlarge\n"
			  "framework_version: \"1.13.1\"\n"
			  "hyperparameters: {model_name: gpt2, "
			  "per_device_train_batch_size: 16, lr: 0.001}\n");
	rep = compare(ctx, b,
		      "estimator: PyTorch\n"
		      "instance_type: ml.p3.8xlarge\n"
		      "instance_count: 2\n"
		      "framework_version: \"1.13\"\n"
		      "compiler_config: {}\n"
		      "hyperparameters: {model_name: gpt2, "
		      "per_device_train_batch_size: 16, lr: 0.002}\n");
	cr_assert_eq(count(rep, "learning-rate-not-scaled"), 0);
	cr_assert_eq(count(rep, "baseline-drift"), 1, "the instance count");
	cr_assert_str_eq(nth(rep, "baseline-drift", 0)->message,
			 "instance count 2 differs from the baseline "
			 "'native.yaml', which uses 1");
	cr_assert_eq(nth(rep, "baseline-drift", 0)->line, 3);
	smp_report_free(rep);
	smp_baseline_free(b);
	smp_context_free(ctx);
}

Test(baseline, drift_in_hyperparameters_instance_and_versions)
{
	struct smp_context *ctx = context();
	struct smp_baseline *b = baseline(ctx, NATIVE);
	struct smp_report *rep;
	const struct smp_finding *f;

	rep = compare(ctx, b,
		      "estimator: HuggingFace\n"
		      "entry_point: launcher.py\n"
		      "instance_type: ml.p3.8xlarge\n"
		      "transformers_version: \"4.17.0\"\n"
		      "pytorch_version: \"1.10.2\"\n"
		      "py_version: py38\n"
		      "compiler_config: {}\n"
		      "hyperparameters:\n"
		      "  model_name_or_path: distilgpt2\n"
		      "  per_device_train_batch_size: 6\n"
		      "  learning_rate: 1.0e-4\n"
		      "  num_train_epochs: 5\n"
		      "  warmup_steps: 100\n"
		      "  training_script: train.py\n");
	/* instance, framework, transformers, epochs, warmup (extra), fp16
	 * (missing) */
	cr_assert_eq(count(rep, "baseline-drift"), 6);
	f = nth(rep, "baseline-drift", 0);
	cr_assert_eq(f->line, 3);
	cr_assert_str_eq(f->message,
			 "instance type 'ml.p3.8xlarge' differs from the "
			 "baseline 'native.yaml', which runs on "
			 "'ml.p3.2xlarge'");
	cr_assert_str_eq(f->suggestion, "ml.p3.2xlarge");
	f = nth(rep, "baseline-drift", 1);
	cr_assert_eq(f->line, 4);
	cr_assert_str_eq(f->message, "transformers 4.17.0 differs from the "
				     "baseline 'native.yaml', which uses "
				     "4.11.0");
	cr_assert_eq(nth(rep, "baseline-drift", 2)->line, 5);
	f = nth(rep, "baseline-drift", 3);
	cr_assert_eq(f->line, 8, "a missing key is reported at the mapping");
	cr_assert_str_eq(f->message,
			 "hyperparameter 'fp16' is set in the baseline "
			 "'native.yaml' (true) but not here");
	cr_assert_str_eq(f->fix, "add 'fp16: true'");
	f = nth(rep, "baseline-drift", 4);
	cr_assert_eq(f->line, 12);
	cr_assert_str_eq(f->message, "hyperparameter 'num_train_epochs' is 5 "
				     "here but 3 in the baseline "
				     "'native.yaml'");
	cr_assert_str_eq(f->suggestion, "3");
	f = nth(rep, "baseline-drift", 5);
	cr_assert_eq(f->line, 13);
	cr_assert_eq(f->column, 3, "at the key");
	/* 12 x 1 -> 6 x 4 = 24: k = 2 and lr x 2: scaled */
	cr_assert_eq(count(rep, "learning-rate-not-scaled"), 0);
	smp_report_free(rep);
	smp_baseline_free(b);
	smp_context_free(ctx);
}

Test(baseline, other_estimator_is_one_finding)
{
	struct smp_context *ctx = context();
	struct smp_baseline *b = baseline(ctx, NATIVE);
	struct smp_report *rep;

	rep = compare(ctx, b,
		      "estimator: PyTorch\n"
		      "instance_type: ml.p3.2xlarge\n"
		      "framework_version: \"1.13.1\"\n"
		      "compiler_config: {}\n"
		      "hyperparameters: {model_name_or_path: distilgpt2, "
		      "per_device_train_batch_size: 12, learning_rate: "
		      "5.0e-5, num_train_epochs: 3, fp16: true}\n");
	cr_assert_eq(count(rep, "baseline-drift"), 1);
	cr_assert_str_eq(nth(rep, "baseline-drift", 0)->message,
			 "the job uses PyTorch where the baseline "
			 "'native.yaml' uses HuggingFace");
	cr_assert_eq(count(rep, "learning-rate-not-scaled"), 0);
	smp_report_free(rep);
	smp_baseline_free(b);
	smp_context_free(ctx);
}

Test(baseline, unusable_baselines)
{
	struct smp_context *ctx = context();
	struct smp_baseline *b = (struct smp_baseline *)ctx;
	struct smp_report *rep = NULL, *plain = NULL;
	struct smp_error err = {0};

	cr_assert_eq(smp_baseline_new(&b, ctx, "n.yaml", "a: [1,\n", 7, &err),
		     SMP_EPARSE);
	cr_assert_null(b);
	cr_assert_str_eq(err.source, "n.yaml");
	cr_assert_eq(err.line, 2);
	cr_assert_eq(smp_baseline_new(&b, ctx, "n.yaml", "", 0, &err),
		     SMP_EPARSE);
	cr_assert_str_eq(err.message, "the baseline holds no job spec");
	cr_assert_eq(smp_baseline_new(&b, ctx, "n.yaml", "- 1\n", 4, &err),
		     SMP_EPARSE);
	cr_assert_eq(
		smp_baseline_new(&b, ctx, "/nonexistent.yaml", NULL, 0, &err),
		SMP_EIO);
	cr_assert_eq(smp_baseline_new(&b, NULL, "n.yaml", "", 0, &err),
		     SMP_EINVAL);
	smp_baseline_free(NULL);
	/* no baseline: exactly a check */
	cr_assert_eq(smp_check(&rep, ctx, "c.yaml", NATIVE, strlen(NATIVE),
			       BASELINE_OPTS(NULL), &err),
		     0);
	cr_assert_eq(smp_check_buffer(&plain, ctx, "c.yaml", NATIVE,
				      strlen(NATIVE), &err),
		     0);
	cr_assert_eq(smp_report_count(rep), smp_report_count(plain));
	smp_report_free(plain);
	smp_report_free(rep);
	smp_context_free(ctx);
}

Test(baseline, files)
{
	struct smp_context *ctx = context();
	struct smp_baseline *b = NULL;
	struct smp_report *rep = NULL;
	struct smp_error err = {0};
	char native[] = "/tmp/smp-baseline-XXXXXX";
	FILE *f;
	int fd = mkstemp(native);

	cr_assert_geq(fd, 0);
	f = fdopen(fd, "w");
	fputs(NATIVE, f);
	fclose(f);
	cr_assert_eq(smp_baseline_new(&b, ctx, native, NULL, 0, &err), 0);
	cr_assert_eq(
		smp_check(&rep, ctx, native, NULL, 0, BASELINE_OPTS(b), &err),
		0);
	cr_assert_eq(count(rep, "baseline-drift"), 0, "a job is its own twin");
	cr_assert_eq(count(rep, "learning-rate-not-scaled"), 0);
	smp_report_free(rep);
	smp_baseline_free(b);
	remove(native);
	smp_context_free(ctx);
}

Test(baseline, every_allocation_failure_is_clean)
{
	struct failing_alloc fa = FA_INIT;
	struct smp_allocator a = fa_allocator(&fa);
	struct smp_options opts = SMP_OPTIONS_INIT;
	struct smp_context *ctx = NULL;
	struct smp_baseline *b;
	struct smp_report *rep;
	const char *spec = compiled("  learning_rate: 5.0e-5\n");
	struct smp_error err = {0};
	long n, base;
	int rc, ok = 0;

	opts.allocator = &a;
	cr_assert_eq(smp_context_new(&ctx, &opts, &err), 0);
	/* the first check compiles the dialect's schema, which the context
	 * keeps: count what the runs after it leave */
	cr_assert_eq(
		smp_check_buffer(&rep, ctx, "c.yaml", spec, strlen(spec), &err),
		0);
	smp_report_free(rep);
	base = fa.live;
	for (n = 0; n < 100000 && !ok; n++) {
		fa_arm(&fa, n);
		b = NULL;
		rep = NULL;
		rc = smp_baseline_new(&b, ctx, "native.yaml", NATIVE,
				      strlen(NATIVE), &err);
		if (rc == 0)
			rc = smp_check(&rep, ctx, "c.yaml", spec, strlen(spec),
				       BASELINE_OPTS(b), &err);
		if (rc == 0) {
			ok = fa.calls <= n;
			cr_assert_eq(count(rep, "learning-rate-not-scaled"), 1);
		} else {
			cr_assert_eq(rc, SMP_ENOMEM, "n=%ld rc=%d", n, rc);
			cr_assert_null(rep);
		}
		smp_report_free(rep);
		smp_baseline_free(b);
		cr_assert_eq(fa.live, base, "leak at allocation %ld", n);
	}
	cr_assert(ok, "a run without failure completed");
	fa.fail_at = FA_NEVER;
	smp_context_free(ctx);
	cr_assert_eq(fa.live, 0);
}
