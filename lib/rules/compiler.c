/*
 * compiler.c - whether the compiler is on, and the settings that
 * slow a compiler job down or make the SDK reject it.
 */
#include "rules/rules.h"

/* Anchors a finding about the compiler at what turned it on. */
static const struct smp_node *
compiler_anchor(const struct smp_job *job)
{
	const struct smp_pair *p = smp__map_pair(job->root, "compiler_config");

	if (p)
		return p->key;
	if (job->compiler_flag)
		return smp__job_key_of(job, job->compiler_flag);
	return smp__job_anchor(job);
}

/* debug: true dumps compilation logs: overhead (seed; SDK R6). */
static void
check_debug(const struct smp_check *c)
{
	const struct smp_job *job = c->job;
	struct smp_finding *f;

	if (!job->compiler_enabled || smp__hp_flag(job->compiler_debug) != 1)
		return;
	f = smp__report_node(c->rep, SMP_RULE_COMPILER_DEBUG,
			     job->compiler_debug,
			     "the compiler's debug mode is on; its detailed "
			     "logs slow training down, so use it for "
			     "debugging runs only");
	smp__finding_fix(c->rep, f, "%s", smp__words(job)->debug_off);
	smp__finding_suggest(
		c->rep, f,
		smp__value_type_like(job->compiler_debug, SMP_VALUE_BOOLEAN),
		"false");
}

/*
 * The SDK attaches a Debugger hook at fit() unless debugger_hook_config
 * is false, and profiles unless disable_profiler is true (SDK R4; the
 * guide asks for both). A request has either only when it says so.
 */
static void
check_debugger_profiler(const struct smp_check *c)
{
	const struct smp_job *job = c->job;
	const struct smp_node *hook = job->debugger_hook_config;
	const struct smp_node *prof = job->disable_profiler;
	const struct smp_words *w = smp__words(job);
	int hook_on = job->debugger, prof_on = job->profiler;
	const struct smp_node *at;
	struct smp_finding *f;

	if (!hook_on && !prof_on)
		return;
	if (hook_on && hook)
		at = hook->kind == SMP_NODE_SCALAR ? hook
						   : smp__job_key_of(job, hook);
	else if (prof_on && prof)
		at = prof;
	else if (prof_on && job->profiler_config)
		at = smp__job_key_of(job, job->profiler_config);
	else
		at = compiler_anchor(job);
	if (hook_on && prof_on)
		f = smp__report_node(
			c->rep, SMP_RULE_DEBUGGER_PROFILER_OVERHEAD, at,
			"SageMaker Debugger and Profiler are on for a "
			"compiler job; they can trigger recompilation and "
			"slow training down");
	else if (hook_on)
		f = smp__report_node(
			c->rep, SMP_RULE_DEBUGGER_PROFILER_OVERHEAD, at,
			"SageMaker Debugger is on for a compiler job (%s); its "
			"hook can trigger recompilation",
			!job->debugger_default
				? w->hook_set
				: "the SDK attaches a default hook at fit()");
	else
		f = smp__report_node(
			c->rep, SMP_RULE_DEBUGGER_PROFILER_OVERHEAD, at,
			"the SageMaker Profiler is on for a compiler job "
			"(%s); it can trigger recompilation",
			w->profiler_set);
	smp__finding_fix(c->rep, f, "%s%s%s", hook_on ? w->hook_off : "",
			 hook_on && prof_on ? " and " : "",
			 prof_on ? w->profiler_off : "");
	/* one switch per fix; `check --fix` turns the other off next */
	if (job->dialect == SMP_DIALECT_ESTIMATOR)
		smp__finding_suggest_at(
			c->rep, f,
			hook_on ? "/debugger_hook_config" : "/disable_profiler",
			SMP_VALUE_BOOLEAN, hook_on ? "false" : "true");
}

/*
 * image_uri with compiler_config: HuggingFace and PyTorch refuse it
 * (TrainingCompilerConfig.validate: "Overriding the image URI is
 * currently not supported"); TensorFlow takes it as is. A Training
 * Compiler image picked by hand and switched on by hyperparameter runs,
 * but none of the SDK's compiler checks do.
 */
static void
check_image_uri(const struct smp_check *c)
{
	const struct smp_job *job = c->job;
	struct smp_finding *f;

	if (job->dialect != SMP_DIALECT_ESTIMATOR || !job->image ||
	    job->estimator == SMP_EST_TENSORFLOW)
		return;
	if (job->compiler_sdk) {
		f = smp__report_node(
			c->rep, SMP_RULE_IMAGE_URI_OVERRIDE, job->image,
			"'image_uri' cannot be set with 'compiler_config' for "
			"a %s estimator: the SDK refuses to override the "
			"Training Compiler image",
			job->estimator == SMP_EST_PYTORCH ? "PyTorch"
							  : "HuggingFace");
		smp__finding_fix(c->rep, f,
				 "remove 'image_uri' and keep the framework "
				 "versions and 'compiler_config'");
		return;
	}
	if (!job->compiler_by_hand)
		return;
	f = smp__report_node(
		c->rep, SMP_RULE_COMPILER_UNCHECKED, job->image,
		"this Training Compiler image is used as is and the compiler "
		"is switched on by hyperparameter, so none of the SDK's "
		"Training Compiler checks run on this job");
	smp__finding_fix(c->rep, f,
			 "remove 'image_uri' and the "
			 "'sagemaker_training_compiler_*' hyperparameters, and "
			 "set the framework versions and 'compiler_config' so "
			 "that the SDK picks and checks the image");
}

/* enabled: false is still a compiler job to the SDK (R23). */
static void
check_disabled(const struct smp_check *c)
{
	const struct smp_job *job = c->job;
	const struct smp_node *at;
	struct smp_finding *f;

	if (job->compiler_enabled)
		return;
	at = job->compiler_config &&
			     job->compiler_config->kind == SMP_NODE_MAPPING
		     ? smp__map_get(job->compiler_config, "enabled")
		     : NULL;
	if (!at)
		at = job->compiler_flag ? job->compiler_flag
					: compiler_anchor(job);
	f = smp__report_node(c->rep, SMP_RULE_COMPILER_DISABLED, at,
			     "the compiler is disabled, but the job still "
			     "runs in the Training Compiler container with "
			     "the compiler flags set to false");
	smp__finding_fix(c->rep, f,
			 "remove the compiler settings entirely for a "
			 "native run");
}

void
smp__rules_compiler(const struct smp_check *c)
{
	const struct smp_job *job = c->job;
	struct smp_finding *f;

	if (!job->compiler) {
		f = smp__report_node(
			c->rep, SMP_RULE_COMPILER_NOT_ENABLED,
			smp__job_anchor(job),
			job->image_trcomp ? "the Training Compiler image runs "
					    "without the compiler: no "
					    "'sagemaker_training_compiler_"
					    "enabled' hyperparameter turns it "
					    "on; only the generic checks apply"
					  : "Training Compiler is not enabled "
					    "in this spec; only the generic "
					    "checks apply");
		smp__finding_fix(c->rep, f, "%s",
				 smp__words(job)->enable_compiler);
		return;
	}
	check_disabled(c);
	check_debug(c);
	check_debugger_profiler(c);
	check_image_uri(c);
}
