/*
 * diagnose_checklist.c - the guide's checklist, item by item, from the
 * findings the check made on the response (and on its entry script when
 * the code was given): an item with a finding of its rules found a
 * problem; an item whose rules could not run says what would tell; the
 * others look right. No rule is evaluated here: the rules are check's.
 * With a baseline, also the hyperparameters side by side.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "advise/diagnose.h"
#include "advise/baseline.h"
#include "tune/tune.h"
#include "context/context.h"

enum need { NEED_NONE = 0, NEED_BASELINE, NEED_DISTRIBUTED };

/*
 * The evidence that an item looks right, named in the line (the field,
 * the value): the detail, or NULL with *why saying what is missing (the
 * item then cannot be told). *problem set: the fields show the problem
 * themselves (when the rule that would say so did not run).
 */
typedef const char *(*evidence_fn)(struct smp_diagnosis_build *b,
				   const char **why, int *problem);

struct item_def {
	const char *id;
	const char *title;
	const char *page;
	const char *section;
	const enum smp_rule_id *spec_rules;   /* RULES(...), or NULL */
	const enum smp_rule_id *script_rules; /* the entry script's, or NULL */
	enum need need;
	const char *ok;       /* what the scanned script showed, or NULL */
	evidence_fn evidence; /* how the response shows it, or NULL */
};

/* A list of rules, ended by SMP_RULE_COUNT. */
#define RULES(...) ((const enum smp_rule_id[]){__VA_ARGS__, SMP_RULE_COUNT})

#define EVIDENCE(name)                                                         \
	static const char *name(struct smp_diagnosis_build *b,                 \
				const char **why, int *problem)
EVIDENCE(same_hp_ok);
EVIDENCE(learning_rate_ok);
EVIDENCE(distribution_ok);
EVIDENCE(gpu_num_devices_ok);
EVIDENCE(logging_ok);
EVIDENCE(debug_ok);
EVIDENCE(debugger_ok);
EVIDENCE(instance_ok);
EVIDENCE(batch_ok);
EVIDENCE(versions_ok);
EVIDENCE(short_run_ok);
EVIDENCE(preprocessing_ok);

#define TS SMP__PAGE_TROUBLESHOOTING
#define BP SMP__PAGE_BEST_PRACTICES

/* clang-format off */
static const struct item_def items[] = {
	{"same-hyperparameters", "the same hyperparameters as the native run, except batch size and learning rate", TS, SMP__SEC_SINGLE_GPU, RULES(SMP_RULE_BASELINE_DRIFT), NULL, NEED_BASELINE, NULL, same_hp_ok},
	{"learning-rate", "the learning rate scaled with the batch size (by k, or by the square root of k)", BP, SMP__SEC_GENERAL, RULES(SMP_RULE_LEARNING_RATE_NOT_SCALED), NULL, NEED_BASELINE, NULL, learning_rate_ok},
	{"mark-step", "xm.mark_step() after every model update and before printing or logging", TS, SMP__SEC_SINGLE_GPU, NULL, RULES(SMP_RULE_SCRIPT_MARK_STEP_MISSING), NEED_NONE, "the training loop marks the step (or leaves it to MpDeviceLoader, xm.optimizer_step or the Trainer)", NULL},
	{"amp-order", "under AMP: scale and backward, reduce (distributed), unscale, clip, step, update, mark_step", TS, SMP__SEC_SINGLE_GPU, NULL, RULES(SMP_RULE_SCRIPT_AMP_ORDER), NEED_NONE, "no gradient clipping or reduction out of AMP order", NULL},
	{"xla-device", "the model and tensors on xm.xla_device(), never CUDA", BP, SMP__SEC_PYTORCH, NULL, RULES(SMP_RULE_SCRIPT_CUDA_DEVICE), NEED_NONE, "no CUDA device in the script", NULL},
	{"seed", "a constant seed on every worker", TS, SMP__SEC_DISTRIBUTED, NULL, RULES(SMP_RULE_SCRIPT_SEED_MISSING), NEED_DISTRIBUTED, "the workers share a constant seed", NULL},
	{"distribution", "the pytorchxla distribution for several GPUs, with an _mp_fn(index) in the script", TS, SMP__SEC_DISTRIBUTED, RULES(SMP_RULE_PYTORCHXLA_MISSING, SMP_RULE_PYTORCHXLA_VERSION, SMP_RULE_PYTORCHXLA_WITHOUT_COMPILER, SMP_RULE_DISTRIBUTION_INCOMPATIBLE, SMP_RULE_DISTRIBUTION_UNKNOWN_KEY), RULES(SMP_RULE_SCRIPT_MP_FN_MISSING), NEED_DISTRIBUTED, "pytorchxla starts the workers and the script defines _mp_fn(index)", distribution_ok},
	{"device-loader", "MpDeviceLoader with a DistributedSampler, so each worker gets its share of the data", TS, SMP__SEC_DISTRIBUTED, NULL, RULES(SMP_RULE_SCRIPT_DEVICE_LOADER_MISSING), NEED_DISTRIBUTED, "the data is sharded and fed through MpDeviceLoader (or by the Trainer)", NULL},
	{"gradient-sync", "the workers' gradients gathered and all-reduced before the update", TS, SMP__SEC_DISTRIBUTED, NULL, RULES(SMP_RULE_SCRIPT_GRADIENT_SYNC_MISSING), NEED_DISTRIBUTED, "the update reduces the gradients across workers", NULL},
	{"gpu-num-devices", "GPU_NUM_DEVICES equal to the instance's GPU count, set in one of three ways", TS, SMP__SEC_MISSING_XLA, RULES(SMP_RULE_GPU_NUM_DEVICES_MISMATCH, SMP_RULE_GPU_NUM_DEVICES_MISSING, SMP_RULE_GPU_NUM_DEVICES_INVALID, SMP_RULE_PYTORCHXLA_MISSING), RULES(SMP_RULE_SCRIPT_GPU_NUM_DEVICES), NEED_NONE, "the entry script does not contradict it", gpu_num_devices_ok},
	{"padding", "static input shapes: padding to max_length, never 'longest'", BP, SMP__SEC_GENERAL, RULES(SMP_RULE_PADDING_DYNAMIC), RULES(SMP_RULE_SCRIPT_PADDING_LONGEST), NEED_NONE, "the entry script pads to a fixed length (no padding='longest')", NULL},
	{"xm-save", "checkpoints written with xm.save()", BP, SMP__SEC_PYTORCH, NULL, RULES(SMP_RULE_SCRIPT_TORCH_SAVE), NEED_NONE, "no torch.save() of XLA tensors", NULL},
	{"item-call", "no .item() or other explicit evaluation inside the training loop", BP, SMP__SEC_GENERAL, NULL, RULES(SMP_RULE_SCRIPT_ITEM_CALL), NEED_NONE, "no .item() in the training loop", NULL},
	{"logging", "logging and evaluation every so many steps, not every few", BP, SMP__SEC_GENERAL, RULES(SMP_RULE_LOGGING_TOO_FREQUENT), NULL, NEED_NONE, NULL, logging_ok},
	{"debug", "the compiler's debug mode only for debugging runs", BP, SMP__SEC_GENERAL, RULES(SMP_RULE_COMPILER_DEBUG), NULL, NEED_NONE, NULL, debug_ok},
	{"debugger-profiler", "SageMaker Debugger and Profiler turned off", BP, SMP__SEC_GENERAL, RULES(SMP_RULE_DEBUGGER_PROFILER_OVERHEAD), NULL, NEED_NONE, NULL, debugger_ok},
	{"instance", "a supported instance type; for several GPUs one multi-GPU instance, EFA between instances", BP, SMP__SEC_GENERAL, RULES(SMP_RULE_INSTANCE_UNSUPPORTED, SMP_RULE_INSTANCE_UNKNOWN, SMP_RULE_LOCAL_MODE, SMP_RULE_INSTANCE_GROUPS, SMP_RULE_EFA_RECOMMENDED, SMP_RULE_PREFER_MULTI_GPU_INSTANCE), NULL, NEED_NONE, NULL, instance_ok},
	{"batch-size", "the batch size against the models AWS tested", BP, SMP__SEC_GENERAL, RULES(SMP_RULE_BATCH_SIZE_ABOVE_TESTED, SMP_RULE_BATCH_SIZE_BELOW_TESTED), NULL, NEED_NONE, NULL, batch_ok},
	{"versions", "a framework version Training Compiler supports", BP, SMP__SEC_GENERAL, RULES(SMP_RULE_FRAMEWORK_VERSION, SMP_RULE_FRAMEWORK_VERSION_MISSING, SMP_RULE_PY_VERSION, SMP_RULE_VERSION_SHAPE, SMP_RULE_IMAGE_URI_OVERRIDE), NULL, NEED_NONE, NULL, versions_ok},
	{"short-run", "a run long enough to pay back the first steps' compilation", BP, SMP__SEC_GENERAL, RULES(SMP_RULE_SHORT_RUN), NULL, NEED_NONE, NULL, short_run_ok},
	{"preprocessing", "preprocessing_num_workers matched to the instance's vCPUs", BP, SMP__SEC_PYTORCH, RULES(SMP_RULE_PREPROCESSING_WORKERS), NULL, NEED_NONE, NULL, preprocessing_ok},
};
/* clang-format on */

#undef TS
#undef BP

#define NITEMS (sizeof(items) / sizeof(items[0]))

/* 1 when a finding of rule id (its id string) is of one of list's rules. */
static int
listed(const enum smp_rule_id *list, const char *id)
{
	for (; list && *list != SMP_RULE_COUNT; list++)
		if (strcmp(smp__rule_id(*list), id) == 0)
			return 1;
	return 0;
}

/*
 * 1 when finding f is about the item only by way of another: pytorchxla
 * missing is the GPU count's problem only when nothing sets
 * GPU_NUM_DEVICES (the distribution item has it otherwise).
 */
static int
not_this_items(const struct smp_diagnosis_build *b, const char *item,
	       const struct smp_finding *f)
{
	static const enum smp_rule_id pytorchxla_missing[] = {
		SMP_RULE_PYTORCHXLA_MISSING, SMP_RULE_COUNT};

	return strcmp(item, "gpu-num-devices") == 0 &&
	       listed(pytorchxla_missing, f->rule) &&
	       b->job.gpu_devices_from != SMP_GPU_DEVICES_UNSET;
}

/* The first finding of the item's rules, and how many there are. */
static const struct smp_finding *
finding_of(const struct smp_diagnosis_build *b, const struct item_def *def,
	   size_t *count)
{
	const struct smp_report *rep = b->report;
	const struct smp_finding *first = NULL;
	size_t i, n = smp_report_count(rep);

	*count = 0;
	for (i = 0; i < n; i++) {
		const struct smp_finding *f = smp_report_get(rep, i);

		if (f->suppressed ||
		    (!listed(def->spec_rules, f->rule) &&
		     !listed(def->script_rules, f->rule)) ||
		    not_this_items(b, def->id, f))
			continue;
		if (!first)
			first = f;
		++*count;
	}
	return first;
}

/* Why the entry script could not be checked. */
static const char *
script_why(const struct smp_diagnosis_build *b)
{
	if (!b->job.compiler)
		return "the job does not enable Training Compiler, so its "
		       "entry script is not checked";
	if (b->script_why)
		return b->script_why;
	if (!b->job.entry_point)
		return "the response names no entry script "
		       "(hyperparameter sagemaker_program)";
	return "the entry script's code is not at hand";
}

/* The text of hyperparameter name, or NULL. */
static const char *
hp(const struct smp_diagnosis_build *b, const char *name)
{
	return smp__node_text(smp__map_get(b->job.hyperparameters, name));
}

/* The items about what the compiler costs: nothing to tell without it. */
static int
compiler_off(const struct smp_diagnosis_build *b, const char **why)
{
	if (b->job.compiler)
		return 0;
	*why = "the job does not enable Training Compiler, so this item (a "
	       "cost of compiled jobs) has nothing to judge";
	return 1;
}

EVIDENCE(same_hp_ok)
{
	(void)why;
	(void)problem;
	return smp__diag_printf(b,
				"compared with the native run '%s': no "
				"hyperparameter that changes training, "
				"instance type or framework version differs",
				b->pub.baseline_file);
}

/* k and how the learning rate followed it. */
EVIDENCE(learning_rate_ok)
{
	const struct smp_settings *s = &b->ctx->settings;
	const struct smp_job *base = smp__baseline_job(b->baseline);
	const struct smp_instance *bi = smp__baseline_instance(b->baseline);
	struct smp_batch_reading r0, r1;
	const struct smp_pair *l0, *l1;
	double x0, x1, k;
	char kt[32], rt[32];

	(void)problem;
	if (!bi || !b->instance ||
	    smp__batch_read(&r0, s, base, bi->gpus) != 0 ||
	    smp__batch_read(&r1, s, &b->job, b->instance->gpus) != 0) {
		*why = "the batch size of one of the jobs is not in its "
		       "hyperparameters, so there is no change to follow";
		return NULL;
	}
	k = r1.global / r0.global;
	smp__tune_number(kt, sizeof(kt), k);
	l0 = smp__hparam(s, base->hyperparameters, SMP_HP_LEARNING_RATE);
	l1 = smp__hparam(s, b->job.hyperparameters, SMP_HP_LEARNING_RATE);
	if (!l0 || !l1 || smp__node_number(l0->value, &x0) ||
	    smp__node_number(l1->value, &x1) || x0 <= 0 || !isfinite(x1)) {
		*why = smp__diag_printf(b,
					"the global batch changed by k = %s "
					"but the learning rate is not in both "
					"jobs' hyperparameters (the script "
					"decides it)",
					kt);
		return NULL;
	}
	smp__tune_number(rt, sizeof(rt), x1 / x0);
	switch (smp__tune_lr_follows(x1 / x0, k)) {
	case 1:
		return smp__diag_printf(b,
					"the global batch changed by k = %s, "
					"the learning rate by %s: linearly",
					kt, rt);
	case 2:
		return smp__diag_printf(b,
					"the global batch changed by k = %s, "
					"the learning rate by %s: by the "
					"square root of k",
					kt, rt);
	default:
		return smp__diag_printf(b,
					"the global batch changed by k = %s, "
					"the learning rate by %s",
					kt, rt);
	}
}

EVIDENCE(distribution_ok)
{
	(void)problem;
	if (b->job.pytorchxla_enabled)
		return "the pytorchxla distribution is enabled";
	if (b->job.launcher_script)
		return smp__diag_printf(
			b,
			"hyperparameter training_script '%s': a launcher "
			"starts the workers",
			smp__node_text(b->job.launcher_script));
	*why = "the response enables no pytorchxla distribution and names "
	       "no launcher";
	return NULL;
}

EVIDENCE(gpu_num_devices_ok)
{
	const struct smp_job *j = &b->job;
	const char *env = smp__node_text(j->gpu_num_devices);
	char want[16];

	(void)problem;
	if (!j->compiler) {
		*why = "the job does not enable Training Compiler, so "
		       "nothing reads GPU_NUM_DEVICES";
		return NULL;
	}
	if (b->pub.gpus <= 0) {
		*why = "the instance's GPU count is not known";
		return NULL;
	}
	snprintf(want, sizeof(want), "%d", b->pub.gpus);
	switch (j->gpu_devices_from) {
	case SMP_GPU_DEVICES_CONTAINER:
		return "the pytorchxla distribution sets it for every worker";
	case SMP_GPU_DEVICES_ENV:
		if (env && strcmp(env, want) == 0)
			return smp__diag_printf(b,
						"Environment sets "
						"GPU_NUM_DEVICES to \"%s\", "
						"the GPUs of one %s",
						env, b->pub.instance_type);
		break;
	case SMP_GPU_DEVICES_HP:
		return smp__diag_printf(b,
					"hyperparameter n_gpus is %s, read "
					"into it",
					smp__node_text(j->n_gpus));
	case SMP_GPU_DEVICES_SCRIPT:
		return "the entry script sets it";
	case SMP_GPU_DEVICES_UNSET:
		break;
	}
	*why = "nothing in the response sets GPU_NUM_DEVICES (Environment, "
	       "an n_gpus hyperparameter, the pytorchxla distribution)";
	return NULL;
}

EVIDENCE(logging_ok)
{
	static const char *const names[] = {"logging_steps", "eval_steps",
					    "save_steps"};
	char facts[256];
	size_t i, n = 0;

	(void)problem;
	if (compiler_off(b, why))
		return NULL;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *v = hp(b, names[i]);

		if (v && n < sizeof(facts))
			n += (size_t)snprintf(facts + n, sizeof(facts) - n,
					      "%s'%s' is %s", n ? ", " : "",
					      names[i], v);
	}
	if (!n) {
		*why = "no logging_steps, eval_steps or save_steps in "
		       "HyperParameters: the script's defaults decide";
		return NULL;
	}
	return smp__diag_printf(b, "%s: every 10 steps or fewer often", facts);
}

EVIDENCE(debug_ok)
{
	const char *v = smp__node_text(b->job.compiler_debug);

	(void)problem;
	if (!b->job.compiler)
		return "the job does not enable Training Compiler, so there "
		       "is no debug mode";
	if (!v) {
		*why = "HyperParameters has no "
		       "sagemaker_training_compiler_debug_mode";
		return NULL;
	}
	return smp__diag_printf(
		b, "sagemaker_training_compiler_debug_mode is %s", v);
}

EVIDENCE(debugger_ok)
{
	const struct smp_node *root = b->job.root;
	const struct smp_node *hook = smp__map_get(root, "DebugHookConfig");
	const struct smp_node *pc = smp__map_get(root, "ProfilerConfig");
	const struct smp_node *dis = smp__map_get(pc, "DisableProfiler");
	int off = pc ? smp__scalar_bool(dis) == 1 : 1;

	if ((pc && pc->kind != SMP_NODE_MAPPING) ||
	    (dis && smp__scalar_bool(dis) < 0)) {
		*why = "ProfilerConfig cannot be read (DisableProfiler is not "
		       "a boolean)";
		return NULL;
	}
	if (hook || !off) {
		*problem = 1;
		return smp__diag_printf(
			b, "the response has %s%s%s: %s on%s",
			hook ? "a DebugHookConfig" : "",
			hook && !off ? " and " : "",
			!off ? (dis ? "ProfilerConfig.DisableProfiler false"
				    : "a ProfilerConfig without "
				      "DisableProfiler")
			     : "",
			hook && !off ? "Debugger and Profiler are"
			: hook       ? "Debugger is"
				     : "the Profiler is",
			b->job.compiler ? ""
					: " (they cost a compiled job "
					  "recompilations: turn them off "
					  "with the compiler)");
	}
	return pc ? "the response has no DebugHookConfig, and "
		    "ProfilerConfig.DisableProfiler is true"
		  : "the response has neither DebugHookConfig nor "
		    "ProfilerConfig";
}

EVIDENCE(instance_ok)
{
	const struct smp_instance *in = b->instance;

	(void)problem;
	if (!in) {
		*why = "the instance type is not in the instance data";
		return NULL;
	}
	if (!in->compiler_supported || in->gpus < 1) {
		*why = smp__diag_printf(b,
					"'%s' is not an instance type "
					"Training Compiler supports, and the "
					"job does not enable the compiler",
					in->type);
		return NULL;
	}
	return smp__diag_printf(b,
				"'%s' (%d %s GPU%s) is an instance type "
				"Training Compiler supports, %lld instance%s",
				in->type, in->gpus,
				in->gpu_model ? in->gpu_model : "",
				in->gpus == 1 ? "" : "s", b->job.count,
				b->job.count == 1 ? "" : "s");
}

EVIDENCE(batch_ok)
{
	struct smp__diag_tested t;
	char batch[300], rb[32];
	size_t i;

	if (!b->job.compiler) {
		*why = "the job does not enable Training Compiler: the "
		       "tested batches are compiler batches";
		return NULL;
	}
	if (smp__diag_tested(b, &t) != 0) {
		*why = t.why;
		return NULL;
	}
	smp__batch_describe(batch, sizeof(batch), &t.batch);
	smp__tune_number(rb, sizeof(rb), t.row_batch);
	if (t.batch.per_gpu > t.row_batch) {
		/* above the row, without the check's out-of-memory claim
		 * (which needs a row that is this very job): the table does
		 * not say whether it fits */
		*why = smp__diag_printf(b,
					"%s is above the %s per GPU tested %s; "
					"whether it fits this job's GPU "
					"memory (its sequence length, AMP) "
					"cannot be told from the table",
					batch, rb, t.row_text);
		return NULL;
	}
	for (i = 0; i < b->pub.cause_count; i++) {
		if (strcmp(b->causes[i].id, "out-of-memory") != 0)
			continue;
		*problem = 1;
		return smp__diag_printf(b,
					"%s ran out of GPU memory although the "
					"table lists %s per GPU %s: its row "
					"did not hold for this job; go down "
					"from the batch that failed",
					batch, rb, t.row_text);
	}
	return smp__diag_printf(b, "%s, at or below the %s per GPU tested %s",
				batch, rb, t.row_text);
}

EVIDENCE(versions_ok)
{
	const struct smp_job *j = &b->job;
	const char *image = smp__node_text(j->image);
	const char *fv = smp__node_text(j->framework_version);

	(void)problem;
	if (compiler_off(b, why))
		return NULL;
	if (image && j->image_trcomp)
		return smp__diag_printf(b,
					"the image '%s' is a Training "
					"Compiler image",
					image);
	if (fv)
		return smp__diag_printf(b, "framework version %s", fv);
	*why = "the response names neither a Training Compiler image nor a "
	       "framework version";
	return NULL;
}

EVIDENCE(short_run_ok)
{
	static const char *const names[] = {"max_steps", "num_train_epochs",
					    "epochs"};
	size_t i;

	(void)problem;
	if (compiler_off(b, why))
		return NULL;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *v = hp(b, names[i]);

		if (v)
			return smp__diag_printf(b, "'%s' is %s", names[i], v);
	}
	*why = "neither max_steps, num_train_epochs nor epochs is in "
	       "HyperParameters: the script's defaults decide how long it "
	       "runs";
	return NULL;
}

EVIDENCE(preprocessing_ok)
{
	const char *v = hp(b, "preprocessing_num_workers");

	(void)problem;
	if (compiler_off(b, why))
		return NULL;
	if (!v || !b->instance) {
		*why = v ? "the instance's vCPU count is not known"
			 : "no preprocessing_num_workers in HyperParameters";
		return NULL;
	}
	return smp__diag_printf(b,
				"'preprocessing_num_workers' is %s on the %d "
				"vCPUs of %s",
				v, b->instance->vcpus, b->instance->type);
}

/* "1 instance, no pytorchxla distribution, no launcher". */
static const char *
one_worker(struct smp_diagnosis_build *b)
{
	return smp__diag_printf(b,
				"one worker (%lld instance, no pytorchxla "
				"distribution, no launcher): this applies to "
				"distributed training",
				b->job.count);
}

static void
judge(struct smp_diagnosis_build *b, const struct item_def *def,
      struct smp_diagnosis_item *it)
{
	const struct smp_finding *f;
	const char *why = NULL, *ok = NULL;
	int problem = 0;
	size_t n;

	it->id = def->id;
	it->title = def->title;
	it->page = def->page;
	it->section = def->section;
	f = finding_of(b, def, &n);
	if (f) {
		it->state = SMP_ITEM_PROBLEM;
		it->detail = n > 1 ? smp__diag_printf(b, "%s (and %zu more)",
						      f->message, n - 1)
				   : f->message;
		it->rule = f->rule;
		it->file = f->file;
		it->line = f->line;
		it->column = f->column;
		return;
	}
	if (def->need == NEED_BASELINE && !b->baseline) {
		it->state = SMP_ITEM_CANNOT_TELL;
		it->detail = "needs the native run to compare with";
		it->needs = SMP__NEEDS_BASELINE;
		return;
	}
	if (def->need == NEED_DISTRIBUTED && !smp__diag_distributed(&b->job)) {
		it->state = SMP_ITEM_LOOKS_RIGHT;
		it->detail = one_worker(b);
		return;
	}
	if (def->evidence) {
		ok = def->evidence(b, &why, &problem);
		if (problem) {
			it->state = SMP_ITEM_PROBLEM;
			it->detail = ok;
			return;
		}
		if (!ok) {
			it->state = SMP_ITEM_CANNOT_TELL;
			it->detail = why;
			if (def->script_rules && !b->script_scanned &&
			    b->job.compiler) {
				it->detail = smp__diag_printf(
					b, "%s, and %s", why, script_why(b));
				it->needs =
					b->job.compiler && !b->script_refused
						? SMP__NEEDS_SOURCES
						: NULL;
			}
			return;
		}
	}
	if (def->script_rules && !b->script_scanned) {
		if (ok && def->evidence == gpu_num_devices_ok) {
			/* the response sets it; the script could undo it */
			it->state = SMP_ITEM_LOOKS_RIGHT;
			it->detail = smp__diag_printf(
				b, "%s (%s: it could still override this)", ok,
				script_why(b));
			return;
		}
		it->state = SMP_ITEM_CANNOT_TELL;
		it->detail = ok ? smp__diag_printf(b, "%s, but %s", ok,
						   script_why(b))
			     : def->spec_rules
				     ? smp__diag_printf(b,
							"the spec shows no "
							"problem, but %s",
							script_why(b))
				     : script_why(b);
		it->needs = b->job.compiler && !b->script_refused
				    ? SMP__NEEDS_SOURCES
				    : NULL;
		return;
	}
	it->state = SMP_ITEM_LOOKS_RIGHT;
	if (ok && def->script_rules && def->ok)
		it->detail = smp__diag_printf(b, "%s; %s", ok, def->ok);
	else
		it->detail = ok ? ok : def->ok;
}

void
smp__diag_checklist(struct smp_diagnosis_build *b)
{
	size_t i;

	for (i = 0; i < NITEMS && i < SMP__ITEMS_MAX; i++)
		judge(b, &items[i], &b->items[i]);
	b->pub.item_count = i;
}

/* --- hyperparameters side by side ------------------------------------- */

static const char *
value_of(const struct smp_node *map, const char *name)
{
	return smp__node_text(smp__map_get(map, name));
}

/* Adds the names of map not yet in out[0..*n). */
static void
add_names(const struct smp_node *map, const char **out, size_t *n, size_t cap)
{
	size_t i, j;

	if (!map || map->kind != SMP_NODE_MAPPING)
		return;
	for (i = 0; i < map->u.mapping.count && *n < cap; i++) {
		const char *k = smp__node_text(map->u.mapping.items[i].key);

		for (j = 0; k && j < *n && strcmp(out[j], k) != 0; j++)
			;
		if (k && j == *n)
			out[(*n)++] = k;
	}
}

static int
cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int
smp__diag_hyperparameters(struct smp_diagnosis_build *b)
{
	const struct smp_node *mine = b->job.hyperparameters;
	const struct smp_node *theirs =
		smp__baseline_job(b->baseline)->hyperparameters;
	struct smp_diagnosis_hyperparameter *hp;
	const char *names[256];
	size_t n = 0, i;

	add_names(mine, names, &n, 256);
	add_names(theirs, names, &n, 256);
	if (!n)
		return 0;
	qsort(names, n, sizeof(*names), cmp_name);
	hp = smp__arena_zalloc(&b->arena, n * sizeof(*hp));
	if (!hp)
		return SMP_ENOMEM;
	for (i = 0; i < n; i++) {
		const char *v = value_of(mine, names[i]);
		const char *w = value_of(theirs, names[i]);

		hp[i].name = names[i];
		hp[i].value = v;
		hp[i].baseline_value = w;
		hp[i].differs = !v || !w || strcmp(v, w) != 0;
	}
	b->pub.hyperparameters = hp;
	b->pub.hyperparameter_count = n;
	return 0;
}
