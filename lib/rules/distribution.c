/*
 * distribution.c - how the job spreads over GPUs and instances:
 * 'pytorchxla' where it is needed, nothing incompatible where it is not.
 */
#include <string.h>

#include "rules/rules.h"

static const char *
version_text(const struct smp_job *job)
{
	const char *v = smp__node_text(job->framework_version);

	return v ? v : "?";
}

static const char *
framework_label(const struct smp_job *job)
{
	if (job->estimator == SMP_EST_HUGGINGFACE)
		return smp__job_is_pytorch(job) ? "HuggingFace PyTorch"
						: "HuggingFace TensorFlow";
	return job->estimator == SMP_EST_PYTORCH ? "PyTorch" : "TensorFlow";
}

/* R3, R12, R17, R20: mechanisms the compiler cannot run with. */
static void
check_incompatible(const struct smp_check *c)
{
	const struct smp_job *job = c->job;
	const struct smp_node *d = job->distribution;
	int xla_only = job->xla_version == 1;
	size_t i;

	for (i = 0; d && i < d->u.mapping.count; i++) {
		const struct smp_node *k = d->u.mapping.items[i].key;
		const struct smp_node *v = d->u.mapping.items[i].value;
		const char *name = smp__node_text(k);
		struct smp_finding *f = NULL;

		if (!name || strcmp(name, "pytorchxla") == 0)
			continue;
		if (strcmp(name, "smdistributed") == 0 ||
		    (strcmp(name, "pytorchddp") == 0 &&
		     job->estimator == SMP_EST_PYTORCH)) {
			f = smp__report_node(
				c->rep, SMP_RULE_DISTRIBUTION_INCOMPATIBLE, k,
				"'%s' (SageMaker distributed data parallel) "
				"is not compatible with Training Compiler",
				name);
		} else if (strcmp(name, "multi_worker_mirrored_strategy") ==
			   0) {
			if (smp__scalar_bool(smp__map_get(v, "enabled")) != 1)
				continue;
			f = smp__report_node(
				c->rep, SMP_RULE_DISTRIBUTION_INCOMPATIBLE, k,
				"'multi_worker_mirrored_strategy' is not "
				"compatible with Training Compiler");
		} else if (xla_only && !job->pytorchxla &&
			   !smp__is_xla_misspelling(k) &&
			   (strcmp(name, "mpi") == 0 ||
			    strcmp(name, "pytorchddp") == 0 ||
			    strcmp(name, "torch_distributed") == 0 ||
			    strcmp(name, "parameter_server") == 0)) {
			f = smp__report_node(
				c->rep, SMP_RULE_DISTRIBUTION_INCOMPATIBLE, k,
				"'pytorchxla' is the only distribution "
				"mechanism for %s %s with Training Compiler; "
				"'%s' is rejected",
				framework_label(job), version_text(job), name);
			smp__finding_fix(c->rep, f,
					 "replace '%s' with 'pytorchxla: "
					 "{enabled: true}'",
					 name);
			continue;
		} else {
			continue;
		}
		smp__finding_fix(c->rep, f, "remove '%s'%s", name,
				 smp__job_is_pytorch(job)
					 ? " and use 'pytorchxla: {enabled: "
					   "true}' for multi-GPU training"
					 : "");
	}
}

/* pytorchxla exists only from HF PyTorch 1.11 / PyTorch 1.12. */
static int
check_version(const struct smp_check *c)
{
	const struct smp_job *job = c->job;
	const char *min;
	struct smp_finding *f;

	if (!job->pytorchxla || !job->pytorchxla_enabled ||
	    job->xla_version != 0)
		return 0;
	min = job->estimator == SMP_EST_HUGGINGFACE
		      ? c->cat->pytorchxla_min_huggingface
		      : c->cat->pytorchxla_min_pytorch;
	f = smp__report_node(c->rep, SMP_RULE_PYTORCHXLA_VERSION,
			     job->pytorchxla,
			     "'pytorchxla' needs %s %s or later, but the job "
			     "uses %s",
			     framework_label(job), min, version_text(job));
	smp__finding_fix(c->rep, f,
			 "upgrade to %s %s, or launch through "
			 "torch_xla.distributed.sm_dist with the script in a "
			 "'training_script' hyperparameter",
			 framework_label(job), min);
	return 1;
}

/*
 * A misspelt pytorchxla ('torchxla') that is on, where the framework has
 * no pytorchxla at all: renaming it, as distribution-unknown-key would,
 * leads straight into the finding above. Said here at the key, with the
 * route that works; it supersedes the rename (rules.def).
 */
static int
check_misspelt_version(const struct smp_check *c)
{
	const struct smp_job *job = c->job;
	const struct smp_node *dist = job->distribution, *k = NULL;
	const char *min;
	struct smp_finding *f;
	size_t i;

	if (job->pytorchxla || job->xla_version != 0 ||
	    !smp__job_is_pytorch(job) || !dist ||
	    dist->kind != SMP_NODE_MAPPING)
		return 0;
	for (i = 0; i < dist->u.mapping.count && !k; i++)
		if (smp__is_xla_misspelling(dist->u.mapping.items[i].key) &&
		    smp__scalar_bool(smp__map_get(
			    dist->u.mapping.items[i].value, "enabled")) == 1)
			k = dist->u.mapping.items[i].key;
	if (!k)
		return 0;
	min = job->estimator == SMP_EST_HUGGINGFACE
		      ? c->cat->pytorchxla_min_huggingface
		      : c->cat->pytorchxla_min_pytorch;
	f = smp__report_node(c->rep, SMP_RULE_PYTORCHXLA_VERSION, k,
			     "'%s' reads as a misspelt 'pytorchxla', which "
			     "needs %s %s or later, but the job uses %s",
			     smp__node_text(k), framework_label(job), min,
			     version_text(job));
	smp__finding_fix(c->rep, f,
			 "remove '%s' and launch through "
			 "torch_xla.distributed.sm_dist: the script in a "
			 "'training_script' hyperparameter and the GPU count "
			 "in 'n_gpus'; or upgrade to %s %s and rename it to "
			 "'pytorchxla'",
			 smp__node_text(k), framework_label(job), min);
	return 1;
}

/* pytorchxla is PyTorch's; a TensorFlow job gets a message of its own. */
static int
check_tensorflow(const struct smp_check *c)
{
	const struct smp_job *job = c->job;
	struct smp_finding *f;

	if (!job->pytorchxla_enabled || !smp__job_is_tensorflow(job))
		return 0;
	f = smp__report_node(
		c->rep, SMP_RULE_PYTORCHXLA_TENSORFLOW,
		job->pytorchxla_key ? job->pytorchxla_key : job->pytorchxla,
		"'pytorchxla' starts PyTorch/XLA workers, but this is a %s "
		"job: %s",
		framework_label(job),
		job->estimator == SMP_EST_HUGGINGFACE && job->compiler_sdk
			? "the SDK refuses it with 'tensorflow_version'"
			: "the TensorFlow container ignores it");
	smp__finding_fix(c->rep, f, "%s", smp__words(job)->pytorchxla_off);
	return 1;
}

/*
 * A multi-GPU PyTorch compiler job without pytorchxla (or, before it
 * existed, without the launcher) trains apart or idles. Several
 * instances always need it. One multi-GPU instance needs it too:
 * GPU_NUM_DEVICES alone starts no process per GPU; only a script that
 * spawns its own workers (xmp.spawn) or the launcher route does.
 */
static void
check_missing(const struct smp_check *c)
{
	const struct smp_job *job = c->job;
	int has_version = job->xla_version;
	int gpus = job->gpus;
	const struct smp_node *at;
	struct smp_finding *f;

	if (!smp__job_is_pytorch(job) || (job->count < 2 && gpus < 2))
		return;
	if (job->pytorchxla && (job->pytorchxla_enabled ||
				job->pytorchxla->kind != SMP_NODE_MAPPING))
		return; /* enabled, or a wrong type already reported */
	if (smp__job_xla_misspelled(job))
		return; /* distribution-unknown-key says it, same fix */
	if (job->count < 2 && (has_version == 0 || job->spawns_workers))
		return;
	if (has_version == 0 && job->launcher_script)
		return;
	if (job->pytorchxla_key)
		at = job->pytorchxla_key;
	else if (job->distribution)
		at = smp__map_key(job->root, "distribution");
	else if (job->count > 1 && job->instance_count)
		at = job->instance_count;
	else
		at = job->instance_type;
	if (has_version == 0) {
		f = smp__report_node(
			c->rep, SMP_RULE_PYTORCHXLA_MISSING, at,
			"%s %s on %lld instances needs the launcher route: "
			"no 'training_script' hyperparameter shows an entry "
			"point that starts torch_xla.distributed.sm_dist, so "
			"each worker would train its own copy of the model",
			framework_label(job), version_text(job), job->count);
		smp__finding_fix(c->rep, f,
				 "set entry_point to a launcher that starts "
				 "torch_xla.distributed.sm_dist and pass the "
				 "script as hyperparameter 'training_script'");
	} else if (job->count > 1) {
		f = smp__report_node(
			c->rep, SMP_RULE_PYTORCHXLA_MISSING, at,
			"%lld instances train with 'pytorchxla' %s; each "
			"worker would train its own copy of the model",
			job->count,
			job->pytorchxla_key ? "disabled" : "not set");
		smp__finding_fix(c->rep, f, "%s",
				 smp__words(job)->pytorchxla_on);
	} else {
		f = smp__report_node(
			c->rep, SMP_RULE_PYTORCHXLA_MISSING, at,
			"'%s' has %d GPUs but 'pytorchxla' is %s%s; the job "
			"trains on one GPU while the others sit idle",
			smp__node_text(job->instance_type), gpus,
			job->pytorchxla_key ? "disabled" : "not set",
			job->gpu_devices_from != SMP_GPU_DEVICES_UNSET
				? " (GPU_NUM_DEVICES alone starts no process "
				  "per GPU)"
				: " and GPU_NUM_DEVICES is not set");
		smp__finding_soften(c->rep, f, SMP_RULE_PYTORCHXLA_MISSING,
				    SMP_SEVERITY_WARNING);
		smp__finding_fix(c->rep, f, "%s",
				 smp__words(job)->pytorchxla_on);
	}
	/* the dialect's own switch, for `check --fix` */
	if (has_version && job->dialect == SMP_DIALECT_ESTIMATOR)
		smp__finding_suggest_at(c->rep, f,
					"/distribution/pytorchxla/enabled",
					SMP_VALUE_BOOLEAN, "true");
	else if (has_version)
		smp__finding_suggest_at(
			c->rep, f,
			job->dialect == SMP_DIALECT_CREATE_TRAINING_JOB
				? "/HyperParameters/"
				  "sagemaker_pytorch_xla_multi_worker_enabled"
				: "/hyperparameters/"
				  "sagemaker_pytorch_xla_multi_worker_enabled",
			SMP_VALUE_STRING, "true");
}

void
smp__rules_distribution(const struct smp_check *c)
{
	const struct smp_job *job = c->job;
	struct smp_finding *f;

	if (check_tensorflow(c))
		return;
	if (!job->compiler) {
		if (!job->pytorchxla)
			return;
		f = smp__report_node(c->rep,
				     SMP_RULE_PYTORCHXLA_WITHOUT_COMPILER,
				     job->pytorchxla,
				     "'pytorchxla' needs Training Compiler, "
				     "but %s",
				     smp__words(job)->no_compiler);
		smp__finding_fix(c->rep, f, "%s",
				 smp__words(job)->pytorchxla_without_compiler);
		return;
	}
	check_incompatible(c);
	if (!check_version(c) && !check_misspelt_version(c))
		check_missing(c);
}
