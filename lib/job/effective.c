/*
 * effective.c - the effective job (see effective.h for what each fact
 * means and which SDK function it follows).
 */
#include <stdint.h>
#include <string.h>

#include "job/dialect.h"
#include "job/effective.h"
#include "job/image.h"
#include "job/normalize.h"
#include "script/script.h"
#include "util/text.h"

#define HP_COMPILER "sagemaker_training_compiler_enabled"
#define HP_DEBUG "sagemaker_training_compiler_debug_mode"
#define HP_XLA "sagemaker_pytorch_xla_multi_worker_enabled"

const struct smp_node *
smp__job_hyperparameter(const struct smp_job *job, const char *name)
{
	size_t i;

	for (i = 0; i < job->nadded; i++)
		if (strcmp(job->added[i].name, name) == 0)
			return job->added[i].value;
	return smp__map_get(job->hyperparameters, name);
}

/* Framework.hyperparameters: the SDK's value for name, shown at at. */
static void
add_hp(struct smp_job *job, const char *name, const struct smp_node *value,
       const struct smp_node *at, const char *text)
{
	if (job->nadded >= SMP_HP_ADDED_MAX)
		return;
	if (!value)
		value = smp__job_default(job, at, text);
	if (!value)
		return;
	job->added[job->nadded].name = name;
	job->added[job->nadded].value = value;
	job->nadded++;
}

/* The image the spec names, read into versions it does not state. */
static void
resolve_image(struct smp_job *job)
{
	const struct smp_node *n = job->dialect == SMP_DIALECT_ESTIMATOR
					   ? job->image_uri
					   : job->training_image;
	struct smp_image_uri im;

	if (!n || n->kind != SMP_NODE_SCALAR ||
	    smp__scalar_type(n) != SMP_SCALAR_STRING || n->u.scalar.len == 0)
		return;
	job->image = n;
	if (job->dialect == SMP_DIALECT_ESTIMATOR)
		smp__job_take_image(job, n, 0);
	if (smp__image_parse(&im, n->u.scalar.value, n->u.scalar.len))
		return;
	job->image_trcomp = im.trcomp;
	job->image_tf_gpu = im.estimator == SMP_EST_TENSORFLOW && im.gpu;
}

/* TensorFlow >= 2.9: the training images carry the compiler. */
static int
tensorflow_with_compiler(const struct smp_job *job)
{
	struct smp_version v, min = {{2, 9, 0, 0}, 2};

	if (job->estimator != SMP_EST_TENSORFLOW)
		return 0;
	if (job->image && !job->image_tf_gpu)
		return 0;
	if (!job->framework_version ||
	    smp__version_parse(&v, smp__node_text(job->framework_version)))
		return job->image_tf_gpu; /* a GPU image with no version */
	return smp__version_cmp(&v, &min) >= 0;
}

static void
resolve_compiler(struct smp_job *job)
{
	const struct smp_node *cc = job->compiler_config;
	const struct smp_node *flag, *debug;
	int on;

	if (cc && job->dialect == SMP_DIALECT_ESTIMATOR) {
		const struct smp_node *at =
			smp__map_key(job->root, "compiler_config");
		const struct smp_node *en = smp__map_get(cc, "enabled");

		/* TrainingCompilerConfig._to_hyperparameter_dict() */
		add_hp(job, HP_COMPILER, smp__scalar_bool(en) >= 0 ? en : NULL,
		       at, "true");
		debug = smp__map_get(cc, "debug");
		add_hp(job, HP_DEBUG,
		       smp__scalar_bool(debug) >= 0 ? debug : NULL, at,
		       "false");
		job->compiler = 1;
		job->compiler_sdk = 1;
		job->compiler_enabled = smp__scalar_bool(en) != 0;
		job->compiler_flag = smp__job_hyperparameter(job, HP_COMPILER);
		job->compiler_debug = smp__job_hyperparameter(job, HP_DEBUG);
		return;
	}
	flag = smp__map_get(job->hyperparameters, HP_COMPILER);
	job->compiler_flag = flag;
	job->compiler_debug = smp__map_get(job->hyperparameters, HP_DEBUG);
	on = smp__hp_flag(flag);
	if (on < 0)
		return;
	if (job->image_trcomp || tensorflow_with_compiler(job)) {
		job->compiler = 1;
		job->compiler_enabled = on;
		job->compiler_by_hand = job->dialect == SMP_DIALECT_ESTIMATOR &&
					job->image_trcomp;
	}
}

static void
resolve_pytorchxla(struct smp_job *job)
{
	const struct smp_node *x = job->pytorchxla_dist;
	const struct smp_pair *p;

	if (x) {
		const struct smp_node *en = x->kind == SMP_NODE_MAPPING
						    ? smp__map_get(x, "enabled")
						    : NULL;

		job->pytorchxla = x;
		job->pytorchxla_key =
			smp__map_key(job->distribution, "pytorchxla");
		/* a missing 'enabled' means false
		 * (Framework._distribution_configuration) */
		job->pytorchxla_enabled = smp__scalar_bool(en) == 1;
		/* the SDK sends the switch whenever the key is there */
		if (x->kind == SMP_NODE_MAPPING)
			add_hp(job, HP_XLA,
			       smp__scalar_bool(en) >= 0 ? en : NULL,
			       job->pytorchxla_key, "false");
		return;
	}
	/* the form a request (or an estimator passing it raw) takes; the
	 * key is kept for positions even when false */
	p = smp__map_pair(job->hyperparameters, HP_XLA);
	if (!p)
		return;
	job->pytorchxla_key = p->key;
	if (smp__hp_flag(p->value) == 1) {
		job->pytorchxla = p->value;
		job->pytorchxla_enabled = 1;
	}
}

static int
is_true(const struct smp_node *n)
{
	return smp__scalar_bool(n) == 1;
}

/* EstimatorBase / Framework debugger and profiler defaults. */
static void
resolve_debugger_profiler(struct smp_job *job)
{
	const struct smp_node *hook = job->debugger_hook_config;
	const struct smp_node *prof = job->disable_profiler;
	int sdk = job->dialect == SMP_DIALECT_ESTIMATOR;
	int hook_unset = !hook || (hook->kind == SMP_NODE_SCALAR &&
				   smp__scalar_type(hook) == SMP_SCALAR_NULL);

	if (!sdk) {
		job->debugger = hook != NULL;
		job->profiler = job->profiler_config && !is_true(prof);
		return;
	}
	job->debugger = hook_unset || smp__scalar_bool(hook) != 0;
	job->debugger_default = hook_unset;
	/* checkpointing on a distributed PyTorch/TensorFlow job turns the
	 * hook off (Framework._validate_and_set_debugger_configs) */
	if (job->debugger && job->checkpoint_s3_uri &&
	    job->checkpoint_local_path &&
	    (job->estimator == SMP_EST_PYTORCH ||
	     job->estimator == SMP_EST_TENSORFLOW) &&
	    (job->count > 1 || job->distribution))
		job->debugger = 0;
	job->profiler =
		!is_true(prof) && !is_true(smp__map_get(job->profiler_config,
							"disable_profiler"));
	job->profiler_default =
		job->profiler && !job->profiler_config &&
		(!prof || smp__scalar_type(prof) == SMP_SCALAR_NULL);
}

static size_t
count_user_hyperparameters(const struct smp_job *job)
{
	const struct smp_node *hp = job->hyperparameters;
	size_t i, n = 0;

	for (i = 0; hp && i < hp->u.mapping.count; i++) {
		const struct smp_node *k = hp->u.mapping.items[i].key;

		if (k->kind == SMP_NODE_SCALAR &&
		    strncmp(k->u.scalar.value, "sagemaker_", 10) != 0)
			n++;
	}
	return n;
}

/* A top-level key that is compiler_config, or one or two edits from it
 * (compiler_confg=, compilerconfig=): a spelling that silently turns a
 * compiler job into a plain one. */
static int
compiler_config_key(const struct smp_node *root)
{
	size_t i;

	for (i = 0; root && root->kind == SMP_NODE_MAPPING &&
		    i < root->u.mapping.count;
	     i++) {
		const char *k = smp__node_text(root->u.mapping.items[i].key);

		if (k && smp__edit_distance(k, "compiler_config", 2) <= 2)
			return 1;
	}
	return 0;
}

/* See job.h: compiler_intent. */
static int
compiler_intent(const struct smp_job *job)
{
	const struct smp_node *hp = job->hyperparameters;
	size_t i;

	if (job->compiler || job->image_trcomp || job->compiler_config ||
	    job->compiler_flag || job->pytorchxla_dist ||
	    job->pytorchxla_enabled || job->gpu_num_devices ||
	    smp__job_xla_misspelled(job))
		return 1;
	for (i = 0;
	     hp && hp->kind == SMP_NODE_MAPPING && i < hp->u.mapping.count;
	     i++) {
		const char *k = smp__node_text(hp->u.mapping.items[i].key);

		if (k && strncmp(k, "sagemaker_training_compiler_", 28) == 0)
			return 1;
	}
	return job->dialect == SMP_DIALECT_ESTIMATOR &&
	       compiler_config_key(job->root);
}

/* A range's bound: its node and number (numeric cleared when not one). */
static void
take_bound(struct smp_hp_range *r, const struct smp_node *n, int upper)
{
	double v;

	if (upper)
		r->hi = n;
	else
		r->lo = n;
	if (!n || smp__node_number(n, &v) != 0) {
		r->numeric = 0;
		return;
	}
	if (upper)
		r->max = v;
	else
		r->min = v;
}

/* The smallest and largest of a categorical range's Values: numbers when
 * all are, else the first and last written. */
static void
take_values(struct smp_hp_range *r, const struct smp_node *vals)
{
	size_t i;
	double v;

	r->categorical = 1;
	if (!vals || vals->kind != SMP_NODE_SEQUENCE ||
	    !vals->u.sequence.count) {
		r->numeric = 0;
		return;
	}
	r->lo = vals->u.sequence.items[0];
	r->hi = vals->u.sequence.items[vals->u.sequence.count - 1];
	for (i = 0; i < vals->u.sequence.count; i++) {
		const struct smp_node *n = vals->u.sequence.items[i];

		if (smp__node_number(n, &v) != 0) {
			r->numeric = 0;
			return;
		}
		if (i == 0 || v < r->min) {
			r->min = v;
			r->lo = n;
		}
		if (i == 0 || v > r->max) {
			r->max = v;
			r->hi = n;
		}
	}
}

static const char *const range_kinds[] = {
	"IntegerParameterRanges",
	"ContinuousParameterRanges",
	"CategoricalParameterRanges",
};

/*
 * The tuned hyperparameters: each range becomes one, and the effective
 * hyperparameters hold it with its upper end as the value (the batch a
 * job of the tuning job may get at most), after the static ones.
 */
static void
resolve_ranges(struct smp_job *job)
{
	const struct smp_node *hp = job->hyperparameters;
	struct smp_hp_range *r;
	struct smp_node *merged;
	size_t i, j, n = 0, nhp;

	for (i = 0; i < 3; i++) {
		const struct smp_node *seq =
			smp__map_get(job->ranges, range_kinds[i]);

		if (seq && seq->kind == SMP_NODE_SEQUENCE)
			n += seq->u.sequence.count;
	}
	if (!n || !job->arena)
		return;
	nhp = hp && hp->kind == SMP_NODE_MAPPING ? hp->u.mapping.count : 0;
	r = smp__arena_zalloc(job->arena, n * sizeof(*r));
	merged = smp__arena_zalloc(job->arena, sizeof(*merged));
	if (merged)
		merged->u.mapping.items = smp__arena_zalloc(
			job->arena, (nhp + n) * sizeof(struct smp_pair));
	if (!r || !merged || !merged->u.mapping.items) {
		job->oom = 1;
		return;
	}
	/* positioned on the static ones, else on the ranges */
	merged->kind = SMP_NODE_MAPPING;
	merged->start = (nhp ? hp : job->ranges)->start;
	merged->end = (nhp ? hp : job->ranges)->end;
	for (i = 0; i < nhp; i++)
		merged->u.mapping.items[merged->u.mapping.count++] =
			hp->u.mapping.items[i];
	for (i = 0; i < 3; i++) {
		const struct smp_node *seq =
			smp__map_get(job->ranges, range_kinds[i]);

		for (j = 0; seq && seq->kind == SMP_NODE_SEQUENCE &&
			    j < seq->u.sequence.count;
		     j++) {
			const struct smp_node *e = seq->u.sequence.items[j];
			struct smp_hp_range *x = &r[job->nranges];
			struct smp_pair *p;

			x->name = smp__as_string(smp__map_get(e, "Name"));
			if (!x->name)
				continue;
			x->numeric = 1;
			if (i == 2) {
				take_values(x, smp__map_get(e, "Values"));
			} else {
				take_bound(x, smp__map_get(e, "MinValue"), 0);
				take_bound(x, smp__map_get(e, "MaxValue"), 1);
			}
			if (!x->hi)
				continue;
			job->nranges++;
			/* a static one of the same name is replaced */
			p = (struct smp_pair *)(uintptr_t)smp__map_pair(
				merged, x->name->u.scalar.value);
			if (!p)
				p = &merged->u.mapping
					     .items[merged->u.mapping.count++];
			p->key = (struct smp_node *)(uintptr_t)x->name;
			p->value = (struct smp_node *)(uintptr_t)x->hi;
		}
	}
	job->range = r;
	job->hyperparameters = merged;
}

const struct smp_hp_range *
smp__job_range(const struct smp_job *job, const struct smp_node *value)
{
	size_t i;

	for (i = 0; value && i < job->nranges; i++)
		if (job->range[i].hi == value)
			return &job->range[i];
	return NULL;
}

void
smp__job_resolve(struct smp_job *job, const struct smp_catalog *cat)
{
	const struct smp_instance *it;

	resolve_ranges(job);
	resolve_image(job);
	resolve_compiler(job);
	resolve_pytorchxla(job);
	resolve_debugger_profiler(job);
	smp__job_resolve_image_region(job, cat);
	job->xla_version = smp__job_has_pytorchxla_version(job, cat);
	/* the launcher route is the HuggingFace container's: in the
	 * PyTorch one (1.12 on, with pytorchxla) training_script is a
	 * hyperparameter like any */
	job->launcher_script =
		job->estimator == SMP_EST_PYTORCH && job->xla_version == 1
			? NULL
			: smp__map_get(job->hyperparameters, "training_script");
	it = job->instance_type
		     ? smp__catalog_instance(cat,
					     smp__node_text(job->instance_type))
		     : NULL;
	job->instance = it;
	job->gpus = it && it->gpus > 0 ? it->gpus : 0;
	job->total_gpus = (long long)job->gpus * job->count;
	job->gpu_num_devices =
		smp__map_get(job->environment, "GPU_NUM_DEVICES");
	job->n_gpus = smp__map_get(job->hyperparameters, "n_gpus");
	if (job->pytorchxla_enabled)
		job->gpu_devices_from = SMP_GPU_DEVICES_CONTAINER;
	else if (job->gpu_num_devices)
		job->gpu_devices_from = SMP_GPU_DEVICES_ENV;
	else if (job->n_gpus)
		job->gpu_devices_from = SMP_GPU_DEVICES_HP;
	job->spawns_workers = job->launcher_script != NULL;
	job->user_hyperparameters = count_user_hyperparameters(job);
	job->compiler_intent = compiler_intent(job);
}

void
smp__job_resolve_script(struct smp_job *job)
{
	const struct smp_script_facts *s = job->script;

	if (!s || s->status != SMP_SCRIPT_SCANNED)
		return;
	if (s->spawns_workers)
		job->spawns_workers = 1;
	/* a scanned script that never sets it does not read n_gpus */
	if (job->gpu_devices_from == SMP_GPU_DEVICES_HP &&
	    !s->sets_gpu_num_devices)
		job->gpu_devices_from = SMP_GPU_DEVICES_UNSET;
	if (job->gpu_devices_from == SMP_GPU_DEVICES_UNSET &&
	    s->sets_gpu_num_devices)
		job->gpu_devices_from = SMP_GPU_DEVICES_SCRIPT;
}
