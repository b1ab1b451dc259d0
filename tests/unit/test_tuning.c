/*
 * test_tuning.c - a CreateHyperParameterTuningJob request as the training
 * jobs it launches (job/tuning.c) and its ranges in the effective job
 * (job/effective.c).
 */
#include <criterion/criterion.h>
#include <string.h>

#include "smpreflight.h"
#include "doc/load.h"
#include "util/alloc.h"
#include "doc/limits.h"
#include "job/effective.h"
#include "job/normalize.h"
#include "job/source_python.h"
#include "catalog/embedded.h"
#include "util/buf.h"
#include "helpers.h"

static const char request[] =
	"{\"HyperParameterTuningJobName\": \"t\",\n"
	" \"HyperParameterTuningJobConfig\": {\"ParameterRanges\": {\n"
	"   \"IntegerParameterRanges\": [{\"Name\": \"batch_size\", "
	"\"MinValue\": \"8\", \"MaxValue\": \"64\"}],\n"
	"   \"CategoricalParameterRanges\": [{\"Name\": \"warmup\", "
	"\"Values\": [\"10\", \"100\", \"50\"]}]}},\n"
	" \"TrainingJobDefinitions\": [\n"
	"  {\"DefinitionName\": \"a\", \"TuningObjective\": {},\n"
	"   \"ResourceConfig\": {\"InstanceType\": \"ml.p3.2xlarge\"},\n"
	"   \"StaticHyperParameters\": {\"epochs\": \"3\", "
	"\"batch_size\": \"4\"}},\n"
	"  {\"HyperParameterRanges\": {\"ContinuousParameterRanges\": "
	"[{\"Name\": \"lr\", \"MinValue\": \"1e-5\", \"MaxValue\": "
	"\"x\"}]}}]}\n";

struct loaded {
	struct smp_allocator a;
	struct smp_docs docs;
	struct smp_pysrc src;
};

static void
load(struct loaded *l)
{
	struct smp_limits lim;

	smp__allocator_resolve(&l->a, NULL);
	smp__limits_resolve(&lim, NULL);
	smp__docs_init(&l->docs, &l->a);
	cr_assert_eq(
		smp__load(&l->docs, "t.json", request, strlen(request), &lim),
		0);
	cr_assert_eq(smp__tuning_scan(&l->src, &l->docs.arena,
				      l->docs.items[0].root),
		     1);
}

Test(tuning, every_definition_is_a_training_job)
{
	struct loaded l;
	const struct smp_node *r;

	load(&l);
	cr_assert_eq(l.src.count, 2);
	cr_assert_str_eq(l.src.jobs[0].name, "a");
	cr_assert_str_eq(l.src.jobs[1].name, "TrainingJobDefinitions[1]");
	r = l.src.jobs[0].root;
	cr_assert_eq(l.src.jobs[0].dialect, SMP_DIALECT_CREATE_TRAINING_JOB);
	/* StaticHyperParameters are its HyperParameters, the tuning-only
	 * members are gone, positions are the file's */
	cr_assert_not_null(smp__map_get(r, "HyperParameters"));
	cr_assert_null(smp__map_get(r, "StaticHyperParameters"));
	cr_assert_null(smp__map_get(r, "DefinitionName"));
	cr_assert_null(smp__map_get(r, "TuningObjective"));
	cr_assert_eq(smp__map_key(r, "HyperParameters")->start.line, 8);
	/* the request's ranges, unless the definition has its own */
	cr_assert_not_null(
		smp__map_get(l.src.jobs[0].ranges, "IntegerParameterRanges"));
	cr_assert_not_null(smp__map_get(l.src.jobs[1].ranges,
					"ContinuousParameterRanges"));
	smp__docs_release(&l.docs);
}

Test(tuning, not_a_tuning_request)
{
	struct smp_pysrc src;
	struct smp_node root;

	memset(&root, 0, sizeof(root));
	root.kind = SMP_NODE_MAPPING;
	cr_assert_eq(smp__tuning_scan(&src, NULL, &root), 0);
	cr_assert_eq(smp__tuning_count(&root), 0);
	cr_assert_eq(smp__tuning_scan(&src, NULL, NULL), 0);
}

Test(tuning, ranges_in_the_effective_job)
{
	struct loaded l;
	struct smp_job job;
	const struct smp_hp_range *rg;
	const struct smp_node *v;
	double x;

	load(&l);
	memset(&job, 0, sizeof(job));
	job.dialect = SMP_DIALECT_CREATE_TRAINING_JOB;
	job.arena = &l.docs.arena;
	smp__normalize_create_training_job(&job, l.src.jobs[0].root);
	job.ranges = l.src.jobs[0].ranges;
	smp__job_resolve(&job, NULL);
	cr_assert_eq(job.oom, 0);
	cr_assert_eq(job.nranges, 2);
	/* the tuned batch replaces the static one, at its upper end */
	v = smp__map_get(job.hyperparameters, "batch_size");
	cr_assert_eq(smp__node_number(v, &x), 0);
	cr_assert_float_eq(x, 64, 1e-9);
	rg = smp__job_range(&job, v);
	cr_assert_not_null(rg);
	cr_assert(rg->numeric && !rg->categorical);
	cr_assert_float_eq(rg->min, 8, 1e-9);
	/* a categorical range: its smallest and largest value */
	rg = smp__job_range(&job, smp__map_get(job.hyperparameters, "warmup"));
	cr_assert_not_null(rg);
	cr_assert(rg->categorical);
	cr_assert_float_eq(rg->min, 10, 1e-9);
	cr_assert_float_eq(rg->max, 100, 1e-9);
	/* static ones are kept and are no range */
	v = smp__map_get(job.hyperparameters, "epochs");
	cr_assert_not_null(v);
	cr_assert_null(smp__job_range(&job, v));
	smp__docs_release(&l.docs);
}

/* HyperparameterTuner(...) in a launcher: its ranges on its estimator */
Test(tuning, python_tuner_ranges)
{
	static const char src[] =
		"from sagemaker.pytorch import PyTorch\n"
		"from sagemaker.tuner import HyperparameterTuner, "
		"IntegerParameter, CategoricalParameter\n"
		"est = PyTorch(entry_point='t.py', framework_version='1.13.1',"
		" py_version='py39', instance_type='ml.p3.2xlarge')\n"
		"t = HyperparameterTuner(est, 'loss', hyperparameter_ranges="
		"{'batch_size': IntegerParameter(8, 64), "
		"'opt': CategoricalParameter(['adam', 'sgd'])})\n";
	const struct smp_hashkey key = {1, 2};
	struct loaded l;
	struct smp_pysrc src_jobs;
	const struct smp_node *seq, *e;

	smp__allocator_resolve(&l.a, NULL);
	smp__docs_init(&l.docs, &l.a);
	cr_assert_eq(smp__pysrc_scan(&src_jobs, &l.docs.arena, &l.a, &key, src,
				     strlen(src)),
		     0);
	cr_assert_eq(src_jobs.count, 1);
	cr_assert_not_null(src_jobs.jobs[0].ranges);
	seq = smp__map_get(src_jobs.jobs[0].ranges, "IntegerParameterRanges");
	cr_assert_not_null(seq);
	cr_assert_eq(seq->u.sequence.count, 1);
	e = seq->u.sequence.items[0];
	cr_assert_str_eq(smp__node_text(smp__map_get(e, "Name")), "batch_size");
	cr_assert_str_eq(smp__node_text(smp__map_get(e, "MaxValue")), "64");
	seq = smp__map_get(src_jobs.jobs[0].ranges,
			   "CategoricalParameterRanges");
	cr_assert_not_null(seq);
	cr_assert_eq(smp__map_get(seq->u.sequence.items[0], "Values")
			     ->u.sequence.count,
		     2);
	smp__docs_release(&l.docs);
}

/*
 * A checked request (smp__tuning_scan: the tuning schema reports a
 * definition's unknown members) hands the CreateTrainingJob check exactly
 * the members the schema leaves to it, so no key is reported twice and
 * none is lost: the schema's own list, read from the embedded file.
 */
Test(tuning, definition_members_are_the_schemas_shared_ones)
{
	const struct smp_embedded_file *f = smp__embedded_find(
		"create-hyper-parameter-tuning-job.schema.json");
	const struct smp_node *props, *def;
	struct smp_allocator a;
	struct smp_limits lim;
	struct smp_docs docs, req;
	struct smp_pysrc src;
	struct smp_buf b;
	size_t i, shared = 0;

	cr_assert_not_null(f);
	smp__allocator_resolve(&a, NULL);
	smp__limits_resolve(&lim, NULL);
	smp__docs_init(&docs, &a);
	cr_assert_eq(
		smp__load(&docs, f->name, (const char *)f->data, f->len, &lim),
		0);
	props = smp__map_get(
		smp__map_get(smp__map_get(docs.items[0].root, "$defs"),
			     "HyperParameterTrainingJobDefinition"),
		"properties");
	cr_assert_not_null(props);
	/* a definition with every member the schema knows, and one more */
	smp__buf_init(&b, &a, SMP_BUF_NO_MAX);
	smp__buf_adds(&b, "{\"HyperParameterTuningJobName\": \"t\", "
			  "\"TrainingJobDefinition\": {\"NotAMember\": 1");
	for (i = 0; i < props->u.mapping.count; i++)
		smp__buf_addf(&b, ", \"%s\": 1",
			      props->u.mapping.items[i].key->u.scalar.value);
	smp__buf_adds(&b, "}}");
	cr_assert(!b.oom);
	smp__docs_init(&req, &a);
	cr_assert_eq(smp__load(&req, "t.json", b.data, b.len, &lim), 0);
	cr_assert_eq(smp__tuning_scan(&src, &req.arena, req.items[0].root), 1);
	def = src.jobs[0].root;
	cr_assert_null(smp__map_get(def, "NotAMember"));
	for (i = 0; i < props->u.mapping.count; i++) {
		const struct smp_pair *p = &props->u.mapping.items[i];
		const char *name = p->key->u.scalar.value;
		const struct smp_node *d =
			smp__map_get(p->value, "description");
		int left = d && strstr(d->u.scalar.value,
				       "checked as the CreateTrainingJob");
		const char *as = strcmp(name, "StaticHyperParameters") == 0
					 ? "HyperParameters"
					 : name;

		shared += left;
		cr_assert_eq(smp__map_get(def, as) != NULL, left,
			     "definition member %s", name);
	}
	cr_assert_gt(shared, 10);
	smp__buf_free(&b);
	smp__docs_release(&req);
	smp__docs_release(&docs);
}
