/*
 * facts.c - what an entry script establishes, found once for the spec
 * rules and the script rules alike: the framework that runs its loop,
 * GradScalers and optimizers by name, XLA device use, mark_step, device
 * loaders, samplers, gradient reduction, GPU_NUM_DEVICES. Every fact
 * comes from records of the structure pass (pyscan.h), never from raw
 * text, so words in strings, comments and docstrings never count.
 */
#include <stdio.h>
#include <string.h>

#include "script/pyquery.h"
#include "script/script.h"
#include "util/text.h"

/* A framework that runs the training loop itself, by its dotted name. */
static const char *
manager_of(const char *resolved)
{
	const char *last;

	if (!resolved)
		return NULL;
	last = strrchr(resolved, '.');
	last = last ? last + 1 : resolved;
	if (smp__starts_with(resolved, "transformers.") &&
	    smp__ends_with(last, "Trainer"))
		return "Trainer";
	if (smp__starts_with(resolved, "accelerate.") &&
	    smp__streq(last, "Accelerator"))
		return "Accelerator";
	if ((smp__starts_with(resolved, "pytorch_lightning.") ||
	     smp__starts_with(resolved, "lightning.")) &&
	    smp__streq(last, "Trainer"))
		return "Lightning Trainer";
	return NULL;
}

/* 1 when receiver[0..n) is one of names[0..count). */
static int
named(const char *const *names, size_t count, const char *receiver, size_t n)
{
	size_t i;

	for (i = 0; i < count; i++)
		if (strlen(names[i]) == n && memcmp(names[i], receiver, n) == 0)
			return 1;
	return 0;
}

int
smp__script_is_scaler(const struct smp_script_facts *s, const char *receiver,
		      size_t n)
{
	return named(s->scalers, s->nscalers, receiver, n);
}

static const char *const optimizer_classes[] = {
	"SGD",    "Adam",    "AdamW",     "Adagrad",         "Adadelta",
	"Adamax", "RMSprop", "NAdam",     "RAdam",           "LAMB",
	"Lamb",   "LARS",    "Adafactor", "AdamWeightDecay", "SparseAdam",
	"LBFGS"};

static int
is_optimizer_class(const char *resolved, const char *attr)
{
	size_t i;

	if (smp__starts_with(resolved, "torch.optim.") &&
	    !smp__starts_with(resolved, "torch.optim.lr_scheduler"))
		return 1;
	for (i = 0;
	     i < sizeof(optimizer_classes) / sizeof(optimizer_classes[0]); i++)
		if (smp__streq(attr, optimizer_classes[i]))
			return 1;
	return 0;
}

/* 1 when the receiver of a .step() is an optimizer. */
static int
is_optimizer(const struct smp_script_facts *s, const char *recv, size_t n)
{
	const char *last = recv + n;

	while (last > recv && last[-1] != '.')
		last--;
	if (smp__py_has_word(last, (size_t)(recv + n - last), "sched"))
		return 0;
	if (smp__py_has_word(last, (size_t)(recv + n - last), "optim") ||
	    (recv + n - last == 3 && memcmp(last, "opt", 3) == 0))
		return 1;
	return named(s->optimizers, s->noptimizers, recv, n);
}

/*
 * An optimizer step: xm.optimizer_step(...), optimizer.step() or, with
 * AMP, scaler.step(optimizer). 2 for the scaler's step.
 */
int
smp__script_step_kind(const struct smp_script_facts *s,
		      const struct smp_pycall *c)
{
	size_t n;

	if (smp__streq(c->attr, "optimizer_step"))
		return 1;
	if (!smp__streq(c->attr, "step") || c->callee[0] == '.')
		return 0;
	n = strlen(c->callee);
	if (n <= 5)
		return 0; /* a bare step() */
	n -= 5;           /* without ".step" */
	if (smp__script_is_scaler(s, c->callee, n))
		return 2;
	return is_optimizer(s, c->callee, n) ? 1 : 0;
}

/*
 * Names of GradScalers (assigned from GradScaler(), or unscale_'d) and of
 * optimizers (assigned from an optimizer class), once for all rules.
 */
static int
collect_names(struct smp_script_facts *s)
{
	const struct smp_pyscan *p = &s->scan;
	size_t i;

	for (i = 0; i < p->nassigns; i++) {
		const struct smp_pyassign *a = &p->assigns[i];
		int k;

		if (a->key || a->value.kind != SMP_PYTOK_NAME)
			continue;
		k = smp__py_call_at(p, a->value.off);
		if (k < 0)
			continue;
		if (smp__streq(p->calls[k].attr, "GradScaler") &&
		    s->nscalers < SMP_SCRIPT_MAX_NAMES)
			s->scalers[s->nscalers++] = a->target;
		else if (is_optimizer_class(s->resolved[k], p->calls[k].attr) &&
			 s->noptimizers < SMP_SCRIPT_MAX_NAMES)
			s->optimizers[s->noptimizers++] = a->target;
	}
	for (i = 0; i < p->ncalls && s->nscalers < SMP_SCRIPT_MAX_NAMES; i++) {
		const struct smp_pycall *c = &p->calls[i];
		size_t n = strlen(c->callee);

		if (!smp__streq(c->attr, "unscale_") || c->callee[0] == '.' ||
		    n <= 9 || smp__script_is_scaler(s, c->callee, n - 9))
			continue;
		/* the receiver: "scaler" of "scaler.unscale_" */
		s->scalers[s->nscalers] =
			smp__arena_strndup(&s->arena, c->callee, n - 9);
		if (!s->scalers[s->nscalers])
			return SMP_ENOMEM;
		s->nscalers++;
	}
	return 0;
}

static int
sets_gpu_num_devices_call(const struct smp_pyscan *p, const char *resolved,
			  const struct smp_pycall *c)
{
	if (smp__streq(resolved, "os.environ.setdefault") ||
	    smp__streq(resolved, "os.putenv"))
		return smp__py_arg_string_is(p, smp__py_posarg(p, c, 0),
					     "GPU_NUM_DEVICES");
	if (smp__streq(resolved, "os.environ.update"))
		return smp__py_kwarg(p, c, "GPU_NUM_DEVICES") != NULL;
	return 0;
}

int
smp__script_is_env_target(const struct smp_pyscan *p,
			  const struct smp_pyassign *a)
{
	char r[64];

	if (!a->key || !a->key_exact || !smp__streq(a->key, "GPU_NUM_DEVICES"))
		return 0;
	smp__pyscan_resolve(p, a->target, r, sizeof(r));
	return smp__streq(r, "os.environ");
}

int
smp__script_analyze(struct smp_script_facts *s)
{
	struct smp_pyscan *p = &s->scan;
	char r[512];
	size_t i;

	s->resolved = smp__arena_zalloc(&s->arena,
					(p->ncalls + 1) * sizeof(*s->resolved));
	s->training = smp__arena_zalloc(&s->arena, p->nloops + 1);
	if (!s->resolved || !s->training)
		return SMP_ENOMEM;
	for (i = 0; i < p->nimports; i++)
		if (smp__streq(p->imports[i].target, "torch") ||
		    smp__starts_with(p->imports[i].target, "torch."))
			s->imports_torch = 1;
	for (i = 0; i < p->ncalls; i++) {
		smp__pyscan_resolve(p, p->calls[i].callee, r, sizeof(r));
		s->resolved[i] = smp__arena_strndup(&s->arena, r, strlen(r));
		if (!s->resolved[i])
			return SMP_ENOMEM;
	}
	if (collect_names(s))
		return SMP_ENOMEM;
	for (i = 0; i < p->ncalls; i++) {
		const struct smp_pycall *c = &p->calls[i];
		const char *res = s->resolved[i], *a = c->attr, *m;
		struct smp_pos from;
		size_t to;

		if (smp__streq(a, "mark_step") ||
		    smp__streq(res, "torch_xla.sync") ||
		    smp__streq(res, "torch_xla.step"))
			s->has_mark_step = 1;
		if (smp__streq(a, "MpDeviceLoader") ||
		    smp__streq(a, "ParallelLoader")) {
			s->has_device_loader = 1;
			s->has_mark_step = 1; /* it marks a step per batch */
		}
		if (smp__streq(a, "optimizer_step")) {
			s->has_gradient_sync = 1;
			if (smp__py_arg_is(p, smp__py_kwarg(p, c, "barrier"),
					   "True"))
				s->has_mark_step = 1;
		}
		if (smp__streq(a, "reduce_gradients") ||
		    smp__streq(a, "DistributedDataParallel") ||
		    (smp__streq(c->callee, "DDP") && c->nargs > 0))
			s->has_gradient_sync = 1;
		if (smp__streq(a, "all_reduce") &&
		    smp__py_args_range(p, c, &from, &to) &&
		    smp__py_range_has_name(p, &from, to, smp__py_name_is_grad))
			s->has_gradient_sync = 1;
		if (smp__streq(a, "DistributedSampler") ||
		    smp__streq(a, "split_dataset_by_node") ||
		    (smp__streq(a, "shard") &&
		     smp__py_kwarg(p, c, "num_shards")))
			s->has_sampler = 1;
		if (smp__ends_with(res, "xla_model.xla_device") ||
		    smp__streq(res, "torch_xla.device"))
			s->uses_xla_device = 1;
		if ((m = manager_of(res)) != NULL && !s->managed) {
			s->managed = 1;
			s->manager = m;
		}
		if (sets_gpu_num_devices_call(p, res, c))
			s->sets_gpu_num_devices = 1;
		/* xmp.spawn(_mp_fn, ...): one process per device */
		if (smp__ends_with(res, "xla_multiprocessing.spawn") ||
		    smp__streq(res, "torch_xla.launch"))
			s->spawns_workers = 1;
		if (c->loop >= 0 &&
		    (smp__script_step_kind(s, c) || smp__streq(a, "backward")))
			s->training[c->loop] = 1;
	}
	for (i = 0; i < p->ndefs; i++) {
		const struct smp_pydef *d = &p->defs[i];
		const char *m;

		if (!d->is_class || !d->base)
			continue;
		smp__pyscan_resolve(p, d->base, r, sizeof(r));
		if ((m = manager_of(r)) != NULL && !s->managed) {
			s->managed = 1;
			s->manager = m;
		}
	}
	for (i = 0; i < p->nassigns; i++)
		if (smp__script_is_env_target(p, &p->assigns[i]))
			s->sets_gpu_num_devices = 1;
	s->accepts_preprocessing_workers =
		smp__script_accepts_option(p, "preprocessing_num_workers");
	return 0;
}
