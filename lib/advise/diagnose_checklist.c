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

struct item_def {
	const char *id;
	const char *title;
	const char *page;
	const char *section;
	const char *spec_rules;   /* rule ids, '|'-separated, or NULL */
	const char *script_rules; /* the entry script's, or NULL */
	enum need need;
	const char *ok; /* what looking right means */
};

#define TS SMP__PAGE_TROUBLESHOOTING
#define BP SMP__PAGE_BEST_PRACTICES

/* clang-format off */
static const struct item_def items[] = {
	{"same-hyperparameters", "the same hyperparameters as the native run, except batch size and learning rate", TS, SMP__SEC_SINGLE_GPU, "baseline-drift", NULL, NEED_BASELINE, "no other hyperparameter, instance or framework version differs from the native run's"},
	{"learning-rate", "the learning rate scaled with the batch size (by k, or by the square root of k)", BP, SMP__SEC_GENERAL, "learning-rate-not-scaled", NULL, NEED_BASELINE, NULL},
	{"mark-step", "xm.mark_step() after every model update and before printing or logging", TS, SMP__SEC_SINGLE_GPU, NULL, "script-mark-step-missing", NEED_NONE, "the training loop marks the step (or leaves it to MpDeviceLoader, xm.optimizer_step or the Trainer)"},
	{"amp-order", "under AMP: scale and backward, reduce (distributed), unscale, clip, step, update, mark_step", TS, SMP__SEC_SINGLE_GPU, NULL, "script-amp-order", NEED_NONE, "no gradient clipping or reduction out of AMP order"},
	{"xla-device", "the model and tensors on xm.xla_device(), never CUDA", BP, SMP__SEC_PYTORCH, NULL, "script-cuda-device", NEED_NONE, "no CUDA device in the script"},
	{"seed", "a constant seed on every worker", TS, SMP__SEC_DISTRIBUTED, NULL, "script-seed-missing", NEED_DISTRIBUTED, "the workers share a constant seed"},
	{"distribution", "the pytorchxla distribution for several GPUs, with an _mp_fn(index) in the script", TS, SMP__SEC_DISTRIBUTED, "pytorchxla-missing|pytorchxla-version|pytorchxla-without-compiler|distribution-incompatible|distribution-unknown-key", "script-mp-fn-missing", NEED_DISTRIBUTED, "pytorchxla starts the workers and the script defines _mp_fn(index)"},
	{"device-loader", "MpDeviceLoader with a DistributedSampler, so each worker gets its share of the data", TS, SMP__SEC_DISTRIBUTED, NULL, "script-device-loader-missing", NEED_DISTRIBUTED, "the data is sharded and fed through MpDeviceLoader (or by the Trainer)"},
	{"gradient-sync", "the workers' gradients gathered and all-reduced before the update", TS, SMP__SEC_DISTRIBUTED, NULL, "script-gradient-sync-missing", NEED_DISTRIBUTED, "the update reduces the gradients across workers"},
	{"gpu-num-devices", "GPU_NUM_DEVICES equal to the instance's GPU count, set in one of three ways", TS, SMP__SEC_MISSING_XLA, "gpu-num-devices-mismatch|gpu-num-devices-missing|gpu-num-devices-invalid|pytorchxla-missing", "script-gpu-num-devices", NEED_NONE, "GPU_NUM_DEVICES is right for the instance, or pytorchxla sets it"},
	{"padding", "static input shapes: padding to max_length, never 'longest'", BP, SMP__SEC_GENERAL, "padding-dynamic", "script-padding-longest", NEED_NONE, "no dynamic padding"},
	{"xm-save", "checkpoints written with xm.save()", BP, SMP__SEC_PYTORCH, NULL, "script-torch-save", NEED_NONE, "no torch.save() of XLA tensors"},
	{"item-call", "no .item() or other explicit evaluation inside the training loop", BP, SMP__SEC_GENERAL, NULL, "script-item-call", NEED_NONE, "no .item() in the training loop"},
	{"logging", "logging and evaluation every so many steps, not every few", BP, SMP__SEC_GENERAL, "logging-too-frequent", NULL, NEED_NONE, "logging and evaluation are not too frequent"},
	{"debug", "the compiler's debug mode only for debugging runs", BP, SMP__SEC_GENERAL, "compiler-debug", NULL, NEED_NONE, "debug mode is off"},
	{"debugger-profiler", "SageMaker Debugger and Profiler turned off", BP, SMP__SEC_GENERAL, "debugger-profiler-overhead", NULL, NEED_NONE, "no Debugger hook, and the Profiler is disabled"},
	{"instance", "a supported instance type; for several GPUs one multi-GPU instance, EFA between instances", BP, SMP__SEC_GENERAL, "instance-unsupported|instance-unknown|local-mode|instance-groups|efa-recommended|prefer-multi-gpu-instance", NULL, NEED_NONE, "a supported GPU instance type, well chosen for the GPU count"},
	{"batch-size", "the batch size against the models AWS tested", BP, SMP__SEC_GENERAL, "batch-size-above-tested|batch-size-below-tested", NULL, NEED_NONE, "no tested batch size says otherwise"},
	{"versions", "a framework version Training Compiler supports", BP, SMP__SEC_GENERAL, "framework-version|framework-version-missing|py-version|version-shape|image-uri-override", NULL, NEED_NONE, "supported framework and Python versions"},
	{"short-run", "a run long enough to pay back the first steps' compilation", BP, SMP__SEC_GENERAL, "short-run", NULL, NEED_NONE, "the run is long enough"},
	{"preprocessing", "preprocessing_num_workers matched to the instance's vCPUs", BP, SMP__SEC_PYTORCH, "preprocessing-workers", NULL, NEED_NONE, "data preprocessing uses the instance's CPUs"},
};
/* clang-format on */

#undef TS
#undef BP

#define NITEMS (sizeof(items) / sizeof(items[0]))

/* 1 when id is one of the '|'-separated ids in list. */
static int
listed(const char *list, const char *id)
{
	size_t n = strlen(id);

	while (list && *list) {
		const char *bar = strchr(list, '|');
		size_t len = bar ? (size_t)(bar - list) : strlen(list);

		if (len == n && strncmp(list, id, n) == 0)
			return 1;
		list = bar ? bar + 1 : NULL;
	}
	return 0;
}

/* The first finding of the item's rules, and how many there are. */
static const struct smp_finding *
finding_of(const struct smp_report *rep, const struct item_def *def,
	   size_t *count)
{
	const struct smp_finding *first = NULL;
	size_t i, n = smp_report_count(rep);

	*count = 0;
	for (i = 0; i < n; i++) {
		const struct smp_finding *f = smp_report_get(rep, i);

		if (f->suppressed || (!listed(def->spec_rules, f->rule) &&
				      !listed(def->script_rules, f->rule)))
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

/* Looks-right text of the learning-rate item: k and how lr followed. */
static const char *
learning_rate_ok(struct smp_diagnosis_build *b)
{
	const struct smp_settings *s = &b->ctx->settings;
	const struct smp_job *base = smp__baseline_job(b->baseline);
	const struct smp_instance *bi = smp__baseline_instance(b->baseline);
	struct smp_batch_reading r0, r1;
	const struct smp_pair *l0, *l1;
	double x0, x1, k;
	char kt[32], rt[32];

	if (!bi || !b->instance ||
	    smp__batch_read(&r0, s, base, bi->gpus) != 0 ||
	    smp__batch_read(&r1, s, &b->job, b->instance->gpus) != 0)
		return "the batch size of one of the jobs is not known, so "
		       "there is no change to follow";
	k = r1.global / r0.global;
	smp__tune_number(kt, sizeof(kt), k);
	l0 = smp__hparam(s, base->hyperparameters, SMP_HP_LEARNING_RATE);
	l1 = smp__hparam(s, b->job.hyperparameters, SMP_HP_LEARNING_RATE);
	if (!l0 || !l1 || smp__node_number(l0->value, &x0) ||
	    smp__node_number(l1->value, &x1) || x0 <= 0 || !isfinite(x1))
		return smp__diag_printf(b,
					"the global batch changed by k = %s "
					"and the learning rate is left to the "
					"script in both jobs",
					kt);
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

static void
judge(struct smp_diagnosis_build *b, const struct item_def *def,
      struct smp_diagnosis_item *it)
{
	const struct smp_finding *f;
	size_t n;

	it->id = def->id;
	it->title = def->title;
	it->page = def->page;
	it->section = def->section;
	f = finding_of(b->report, def, &n);
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
		it->detail = "one worker: this applies to distributed training";
		return;
	}
	if (def->script_rules && !b->script_scanned) {
		it->state = SMP_ITEM_CANNOT_TELL;
		it->detail = def->spec_rules
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
	it->detail = def->ok ? def->ok : learning_rate_ok(b);
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
