/*
 * gpu_num_devices.c - GPU_NUM_DEVICES, the variable PyTorch/XLA
 * reads to know how many GPUs to use (troubleshooting: "missing PyTorch/
 * XLA configuration"): a multi-GPU job without it fails with "Missing XLA
 * configuration". The SDK never looks at it; the container sets it when
 * pytorchxla is enabled. Where the count comes from is one fact of the
 * effective job (gpu_devices_from): an n_gpus hyperparameter counts only
 * when the entry script reads it into GPU_NUM_DEVICES.
 */
#include <stdio.h>
#include <string.h>

#include "rules/rules.h"
#include "util/text.h"
#include "script/script.h"

/* What the troubleshooting guide says of a multi-GPU job without the
 * count ("Training job fails due to missing PyTorch/XLA configuration"):
 * the instance type and its GPUs follow. */
#define MISSING_XLA                                                            \
	"the troubleshooting guide says such a job fails with 'Missing XLA "   \
	"configuration': PyTorch/XLA needs GPU_NUM_DEVICES set to the GPUs "   \
	"per instance ('%s' has %d)"

/* A positive count from "4" (environment) or 4 / "4" (hyperparameter). */
static int
positive_count(const struct smp_node *n, long long *out)
{
	const char *s = smp__node_text(n);

	if (!s || !*s)
		return -1;
	if (smp__scalar_type(n) == SMP_SCALAR_INT)
		return smp__scalar_int(n, out) == 0 && *out > 0 ? 0 : -1;
	if (smp__scalar_type(n) != SMP_SCALAR_STRING)
		return -1;
	return smp__parse_count(s, strlen(s), out);
}

static void
check_value(const struct smp_check *c, const struct smp_node *n)
{
	const struct smp_job *job = c->job;
	long long v;
	struct smp_finding *f;
	char want[32], what[96];

	if (positive_count(n, &v)) {
		/* environment values are the schema's business */
		if (n == job->n_gpus) {
			f = smp__report_node(
				c->rep, SMP_RULE_GPU_NUM_DEVICES_INVALID, n,
				"hyperparameter 'n_gpus' is '%s'; it must be "
				"a positive whole number",
				smp__node_text(n) ? smp__node_text(n) : "?");
			if (c->instance && c->instance->gpus > 0)
				smp__finding_fix(c->rep, f, "set it to %d",
						 c->instance->gpus);
		}
		return;
	}
	if (!c->instance || c->instance->gpus <= 0 || v == c->instance->gpus)
		return;
	/* an n_gpus nothing reads into GPU_NUM_DEVICES sets no count:
	 * gpu-num-devices-missing says so, once */
	if (n == job->n_gpus && job->gpu_devices_from != SMP_GPU_DEVICES_HP)
		return;
	snprintf(want, sizeof(want), "%d", c->instance->gpus);
	if (n == job->n_gpus)
		snprintf(what, sizeof(what),
			 "hyperparameter 'n_gpus' (read into GPU_NUM_DEVICES) "
			 "is %lld",
			 v);
	else if (smp__scalar_type(n) == SMP_SCALAR_INT)
		snprintf(what, sizeof(what),
			 "GPU_NUM_DEVICES is %lld (a number, not a string)", v);
	else
		snprintf(what, sizeof(what), "GPU_NUM_DEVICES is \"%lld\"", v);
	if (job->pytorchxla && job->pytorchxla_enabled) {
		f = smp__report_node(c->rep, SMP_RULE_GPU_NUM_DEVICES_MISMATCH,
				     n,
				     "%s but '%s' has %d GPU%s; with "
				     "'pytorchxla' the container overwrites "
				     "it, so the value is ignored",
				     what, c->instance->type, c->instance->gpus,
				     c->instance->gpus == 1 ? "" : "s");
		smp__finding_soften(c->rep, f,
				    SMP_RULE_GPU_NUM_DEVICES_MISMATCH,
				    SMP_SEVERITY_WARNING);
		smp__finding_fix(c->rep, f, "remove it, or set it to \"%s\"",
				 want);
	} else {
		f = smp__report_node(c->rep, SMP_RULE_GPU_NUM_DEVICES_MISMATCH,
				     n, "%s but '%s' has %d GPU%s", what,
				     c->instance->type, c->instance->gpus,
				     c->instance->gpus == 1 ? "" : "s");
		smp__finding_fix(c->rep, f, "set it to %s%s%s",
				 n == job->n_gpus ? "" : "\"", want,
				 n == job->n_gpus ? "" : "\"");
	}
	/* the environment holds strings, whatever the spec wrote */
	smp__finding_suggest(c->rep, f, SMP_VALUE_STRING, want);
}

/*
 * The suggestion of gpu-num-devices-missing: the environment variable at
 * the instance's count, in the job's top-level environment mapping (for
 * `check --fix`; the mapping is added when absent).
 */
static void
suggest_count(const struct smp_check *c, struct smp_finding *f)
{
	char ptr[64], value[16];

	snprintf(ptr, sizeof(ptr), "/%s/GPU_NUM_DEVICES",
		 smp__words(c->job)->environment);
	snprintf(value, sizeof(value), "%d", c->instance->gpus);
	smp__finding_suggest_at(c->rep, f, ptr, SMP_VALUE_STRING, value);
}

static void
check_missing(const struct smp_check *c)
{
	const struct smp_job *job = c->job;
	struct smp_finding *f;

	if (!job->compiler || !smp__job_is_pytorch(job) || !c->instance ||
	    c->instance->gpus < 2)
		return;
	if ((job->pytorchxla && (job->pytorchxla_enabled ||
				 job->pytorchxla->kind != SMP_NODE_MAPPING)) ||
	    job->launcher_script ||
	    (job->gpu_devices_from != SMP_GPU_DEVICES_UNSET &&
	     job->gpu_devices_from != SMP_GPU_DEVICES_HP))
		return;
	/* distribution-unknown-key says it better */
	if (smp__job_xla_misspelled(job))
		return;
	if (job->n_gpus) { /* a scanned script never reads it */
		if (job->gpu_devices_from == SMP_GPU_DEVICES_HP)
			return;
		f = smp__report_node(
			c->rep, SMP_RULE_GPU_NUM_DEVICES_MISSING, job->n_gpus,
			"hyperparameter 'n_gpus' is given but the entry script "
			"never reads it into GPU_NUM_DEVICES; " MISSING_XLA,
			c->instance->type, c->instance->gpus);
		smp__finding_fix(
			c->rep, f,
			"in the script, os.environ[\"GPU_NUM_DEVICES\"] "
			"= args.n_gpus (parsed as a string), or add "
			"'%s: {GPU_NUM_DEVICES: \"%d\"}'",
			smp__words(job)->environment, c->instance->gpus);
		return;
	}
	f = smp__report_node(c->rep, SMP_RULE_GPU_NUM_DEVICES_MISSING,
			     job->instance_type,
			     "GPU_NUM_DEVICES is not set; " MISSING_XLA,
			     c->instance->type, c->instance->gpus);
	smp__finding_fix(c->rep, f,
			 "add '%s: {GPU_NUM_DEVICES: \"%d\"}', or "
			 "launch through torch_xla.distributed.sm_dist with "
			 "the script in a 'training_script' hyperparameter",
			 smp__words(job)->environment, c->instance->gpus);
	suggest_count(c, f);
}

void
smp__rules_gpu_num_devices(const struct smp_check *c)
{
	if (c->job->gpu_num_devices)
		check_value(c, c->job->gpu_num_devices);
	if (c->job->n_gpus)
		check_value(c, c->job->n_gpus);
	check_missing(c);
}
