/*
 * test_normalize.c - the estimator normalizer reads the root's keys in
 * one pass: the same values smp__map_get() would give each key (the last
 * of duplicates wins), legacy names only when the current one is absent.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "smpreflight.h"
#include "doc/load.h"
#include "job/normalize.h"
#include "doc/limits.h"
#include "util/alloc.h"

static struct smp_allocator a;

/* Loads text and normalizes its root as an estimator into job. */
static void
normalize(struct smp_docs *docs, struct smp_job *job, const char *text)
{
	struct smp_limits lim;

	smp__allocator_resolve(&a, NULL);
	smp__limits_resolve(&lim, NULL);
	smp__docs_init(docs, &a);
	cr_assert_eq(smp__load(docs, "job.yaml", text, strlen(text), &lim), 0);
	cr_assert_eq(docs->count, 1);
	memset(job, 0, sizeof(*job));
	job->dialect = SMP_DIALECT_ESTIMATOR;
	job->arena = &docs->arena;
	smp__normalize_estimator(job, docs->items[0].root);
}

static int
text_is(const struct smp_node *n, const char *s)
{
	return n && strcmp(smp__node_text(n), s) == 0;
}

Test(normalize, last_duplicate_wins_and_legacy_names_yield)
{
	struct smp_docs docs;
	struct smp_job job;

	normalize(&docs, &job,
		  "train_instance_type: ml.p3.2xlarge\n"
		  "instance_type: ml.p3.8xlarge\n"
		  "instance_type: ml.g5.xlarge\n"
		  "train_instance_count: 3\n"
		  "estimator: PyTorch\n"
		  "framework_version: \"1.13.1\"\n"
		  "image_name: x/y:1\n"
		  "distributions: {pytorchxla: {enabled: true}}\n"
		  "hyperparameters: {epochs: 1}\n"
		  "entry_point: a.py\n"
		  "entry_point: b.py\n"
		  "checkpoint_local_path: /opt/ml/checkpoints\n");
	cr_expect(text_is(job.instance_type, "ml.g5.xlarge"));
	cr_expect_eq(job.count, 3);
	cr_expect_eq(job.estimator, SMP_EST_PYTORCH);
	cr_expect_str_eq(job.base_framework, "pytorch");
	cr_expect(text_is(job.framework_version, "1.13.1"));
	cr_expect(text_is(job.image_uri, "x/y:1"));
	cr_expect_not_null(job.distribution);
	cr_expect_not_null(job.pytorchxla_dist);
	cr_expect_not_null(job.hyperparameters);
	cr_expect(text_is(job.entry_point, "b.py"));
	cr_expect(text_is(job.checkpoint_local_path, "/opt/ml/checkpoints"));
	cr_expect_null(job.source_dir);
	cr_expect_null(job.compiler_config);
	smp__docs_release(&docs);
}

Test(normalize, class_inferred_from_the_keys)
{
	struct smp_docs docs;
	struct smp_job job;

	normalize(&docs, &job,
		  "transformers_version: \"4.21.1\"\n"
		  "pytorch_version: \"1.11.0\"\n"
		  "compiler_config: null\n"
		  "instance_count: 0\n"
		  "\"\": 1\n"
		  "? [a]\n"
		  ": 2\n");
	cr_expect_eq(job.estimator, SMP_EST_HUGGINGFACE);
	cr_expect(text_is(job.transformers_version, "4.21.1"));
	cr_expect(text_is(job.framework_version, "1.11.0"));
	cr_expect_null(job.compiler_config); /* null is absent */
	cr_expect_eq(job.count, 1);
	cr_expect_null(job.instance_count);
	smp__docs_release(&docs);

	normalize(&docs, &job, "framework_version: \"2.10\"\n");
	cr_expect_eq(job.estimator, SMP_EST_TENSORFLOW);
	smp__docs_release(&docs);
}
