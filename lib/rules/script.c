/*
 * script.c - the rules of the "script" group (README "Entry-script
 * checks"; the Training Compiler guide's best practices and
 * troubleshooting pages), over the facts and
 * records of lib/script/. Every rule looks at records of the structure
 * pass (pyscan.h), never at raw text, so words in strings, comments and
 * docstrings never count.
 *
 * Precision first: a rule that concludes from an absence (no mark_step,
 * no seed ...) only fires when the script itself holds the training loop
 * it is about, and never when the Hugging Face Trainer (or Accelerate,
 * or Lightning) runs that loop, since those do the step, the device
 * loader, the gradient reduction and the seeding themselves.
 */
#include <stdio.h>
#include <string.h>

#include "rules/rules.h"
#include "script/pyquery.h"
#include "script/script.h"
#include "util/text.h"

/*
 * Rules that compare a call with every other call look at no more than
 * this many of them, so that a pathological script stays linear.
 */
#define MAX_EXAMINED 64

/*
 * Findings of one rule in one script: past this many the same mistake
 * repeated adds nothing (and each finding copies its source line).
 */
#define MAX_PER_RULE 50

int
smp__rules_script_load(struct smp_script_facts *s, const struct smp_job *job,
		       const char *base_dir, size_t max_size,
		       const struct smp_script_file *files, size_t nfiles)
{
	struct smp_script_where w;

	if (!job->compiler)
		return 0;
	w.entry_point = job->entry_point;
	w.launcher_script = job->launcher_script;
	w.source_dir = job->source_dir;
	w.in_git = job->root && job->root->kind == SMP_NODE_MAPPING &&
		   smp__map_get(job->root, "git_config") != NULL;
	w.files = files;
	w.nfiles = nfiles;
	return smp__script_load(s, &w, base_dir, max_size);
}

/* Names that make a seed differ from one worker to the next. */
static int
name_is_per_worker(const char *s, size_t n)
{
	static const char *const names[] = {
		"index",       "rank",          "local_rank",
		"ordinal",     "get_ordinal",   "get_local_ordinal",
		"global_rank", "process_index", "getpid",
		"time",        "time_ns"};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == n && memcmp(names[i], s, n) == 0)
			return 1;
	return 0;
}

struct run {
	const struct smp_check *c;
	struct smp_report *rep;
	const struct smp_script_facts *s;
	const struct smp_pyscan *p;
	int distributed;
	unsigned int reported[SMP_RULE_COUNT];
};

/* 1 while rule may report another finding in this script. */
static int
room(struct run *r, enum smp_rule_id rule)
{
	return r->reported[rule]++ < MAX_PER_RULE;
}

/* end when it is on start's line, else NULL (one-line carets only). */
static const struct smp_pos *
same_line(const struct smp_pos *start, const struct smp_pos *end)
{
	return end && end->line == start->line ? end : NULL;
}

/* "xm.optimizer_step(...)" or "optimizer.step()" for messages. */
static const char *
shown(const struct smp_pycall *c, char *buf, size_t n)
{
	snprintf(buf, n, "%s(%s)", c->callee, c->nargs ? "..." : "");
	return buf;
}

static void
report_missing(const struct smp_check *c, const struct smp_script_facts *s)
{
	const struct smp_job *job = c->job;
	const char *role = s->launcher ? "training script" : "entry script";
	const char *key = s->launcher ? "the 'training_script' hyperparameter"
			  : job->dialect == SMP_DIALECT_MODEL_TRAINER
				  ? "'source_code.entry_script'"
				  : "'entry_point'";
	const char *name = smp__node_text(s->node);
	struct smp_finding *f;

	if (s->status == SMP_SCRIPT_NOT_LOCAL && s->reason) {
		f = smp__report_node(c->rep, SMP_RULE_SCRIPT_MISSING, s->node,
				     "%s '%s' %s, which is not read (as an "
				     "absolute path is not); the script "
				     "checks did not run",
				     role, s->path, s->reason);
		smp__finding_fix(c->rep, f,
				 "keep the script within the spec's folder or "
				 "its repository and give %s relative to it",
				 key);
		return;
	}
	if (s->status == SMP_SCRIPT_NOT_LOCAL) {
		f = smp__report_node(c->rep, SMP_RULE_SCRIPT_MISSING, s->node,
				     "%s '%s' is an absolute path, which is "
				     "not read; the script checks did not run",
				     role, s->path);
		smp__finding_fix(c->rep, f,
				 "give %s relative to 'source_dir' or the "
				 "spec's folder",
				 key);
		return;
	}
	if (smp__streq(s->path, name))
		f = smp__report_node(c->rep, SMP_RULE_SCRIPT_MISSING, s->node,
				     "%s '%s' %s; the script checks did not "
				     "run",
				     role, name, s->reason);
	else
		f = smp__report_node(c->rep, SMP_RULE_SCRIPT_MISSING, s->node,
				     "%s '%s' %s at '%s'; the script checks "
				     "did not run",
				     role, name, s->reason, s->path);
	smp__finding_fix(c->rep, f,
			 "check %s and 'source_dir' against the spec's folder, "
			 "or turn the script checks off with --no-script",
			 key);
}

/* script-padding-longest */
static void
rule_padding(struct run *r)
{
	const struct smp_pyscan *p = r->p;
	int static_pad = 0;
	size_t i;

	for (i = 0; i < p->nargs; i++) {
		const struct smp_pyarg *a = &p->args[i];
		const char *res = r->s->resolved[a->call];
		struct smp_finding *f;
		const char *what;

		if ((smp__streq(a->name, "padding") &&
		     smp__py_arg_string_is(p, a, "max_length")) ||
		    (smp__streq(a->name, "pad_to_max_length") &&
		     smp__py_arg_is(p, a, "True")))
			static_pad = 1;
		if (!smp__streq(a->name, "padding"))
			continue;
		if (smp__py_arg_string_is(p, a, "longest"))
			what = "padding=\"longest\"";
		else if (smp__py_arg_is(p, a, "True"))
			what = "padding=True";
		else
			continue;
		if (smp__starts_with(res, "torch.nn") ||
		    smp__starts_with(res, "tf.") ||
		    smp__starts_with(res, "tensorflow.") ||
		    smp__starts_with(res, "keras"))
			continue; /* a layer's padding, not a tokenizer's */
		if (!room(r, SMP_RULE_SCRIPT_PADDING_LONGEST))
			break;
		f = smp__report_add(r->rep, SMP_RULE_SCRIPT_PADDING_LONGEST,
				    &a->start, same_line(&a->start, &a->end),
				    "'%s' pads each batch to its longest "
				    "sequence, so tensor shapes change from "
				    "batch to batch and the graph recompiles",
				    what);
		smp__finding_fix(r->rep, f,
				 "use padding=\"max_length\" with a fixed "
				 "max_length");
	}
	if (static_pad)
		return;
	for (i = 0; i < p->ncalls; i++) {
		const struct smp_pycall *c = &p->calls[i];
		const struct smp_pyarg *pad = smp__py_kwarg(p, c, "padding");
		struct smp_finding *f;

		if (!smp__streq(c->attr, "DataCollatorWithPadding") || pad)
			continue; /* an explicit padding is judged above */
		if (!room(r, SMP_RULE_SCRIPT_PADDING_LONGEST))
			break;
		f = smp__report_add(
			r->rep, SMP_RULE_SCRIPT_PADDING_LONGEST, &c->start,
			same_line(&c->start, &c->end),
			"'DataCollatorWithPadding' pads each batch "
			"to its longest sequence by default, and "
			"nothing in the script pads to a fixed "
			"length: shapes change from batch to batch");
		smp__finding_fix(r->rep, f,
				 "tokenize with padding=\"max_length\" and a "
				 "fixed max_length, or pass "
				 "padding=\"max_length\" and max_length to the "
				 "collator");
	}
}

/* A loop of a training: it, or a loop around it, steps or backwards. */
static int
in_training_loop(const struct run *r, int loop)
{
	size_t guard = 0;

	while (loop >= 0 && guard++ < r->p->nloops) {
		if (r->s->training[loop])
			return 1;
		loop = r->p->loops[loop].parent;
	}
	return 0;
}

/*
 * 1 when call c has an argument that is exactly a tensor the loop trains
 * on: the receiver of a '<name>.backward()' call of the script (the loss
 * a step is computed from).
 */
static int
passes_tensor(const struct smp_pyscan *p, const struct smp_pycall *c,
	      const char **name)
{
	int k;

	for (k = c->first_arg; k >= 0; k = p->args[k].next) {
		const struct smp_pyarg *a = &p->args[k];
		size_t i;

		if (a->name)
			continue;
		for (i = 0; i < p->ncalls; i++) {
			const struct smp_pycall *b = &p->calls[i];
			size_t n = strlen(b->callee);

			if (!smp__streq(b->attr, "backward") ||
			    b->callee[0] == '.' || n <= 9)
				continue;
			/* the argument's text is the receiver, exactly */
			if (a->end.offset == a->first.off + (n - 9) &&
			    a->end.offset <= p->len &&
			    memcmp(p->buf + a->first.off, b->callee, n - 9) ==
				    0) {
				*name = b->callee;
				return (int)(n - 9);
			}
		}
	}
	return 0;
}

/* A call that prints or logs: print(...), logger.info(...), ... */
static int
prints(const struct smp_pycall *c)
{
	static const char *const logs[] = {"info", "debug", "warning", "error",
					   "log"};
	size_t i;

	if (smp__streq(c->callee, "print"))
		return 1;
	if (!strchr(c->callee, '.'))
		return 0;
	for (i = 0; i < sizeof(logs) / sizeof(logs[0]); i++)
		if (smp__streq(c->attr, logs[i]))
			return 1;
	return 0;
}

/* 1 when an xm.mark_step() of loop comes before offset off. */
static int
stepped_before(const struct smp_pyscan *p, int loop, size_t off)
{
	size_t i;

	for (i = 0; i < p->ncalls && p->calls[i].start.offset < off; i++)
		if (p->calls[i].loop == loop &&
		    smp__streq(p->calls[i].attr, "mark_step"))
			return 1;
	return 0;
}

/*
 * What in call c reads a tensor on the host (best practices: explicit
 * evaluation), in what: '.item()', '.cpu()', '.numpy()', '.tolist()',
 * float(loss) / int(loss), and print or logging of the loss before the
 * loop's xm.mark_step() (troubleshooting). 0 when nothing.
 */
static int
host_read(const struct smp_pyscan *p, const struct smp_pycall *c, char *what,
	  size_t size)
{
	const char *name = NULL;
	int n;

	if ((smp__streq(c->attr, "item") || smp__streq(c->attr, "cpu") ||
	     smp__streq(c->attr, "numpy") || smp__streq(c->attr, "tolist")) &&
	    c->nargs == 0 && strchr(c->callee, '.') != NULL) {
		snprintf(what, size,
			 "'.%s()' in the training loop copies a "
			 "tensor to the host at every step",
			 c->attr);
		return 1;
	}
	if ((smp__streq(c->callee, "float") || smp__streq(c->callee, "int")) &&
	    c->nargs == 1 && (n = passes_tensor(p, c, &name)) > 0) {
		snprintf(what, size,
			 "'%s(%.*s)' in the training loop copies "
			 "the tensor to the host at every step",
			 c->callee, n, name);
		return 1;
	}
	if (prints(c) && (n = passes_tensor(p, c, &name)) > 0 &&
	    !stepped_before(p, c->loop, c->start.offset)) {
		snprintf(what, size,
			 "'%s(%.*s%s)' evaluates a tensor before "
			 "xm.mark_step() at every step",
			 c->callee, n, name, c->nargs > 1 ? ", ..." : "");
		return 1;
	}
	return 0;
}

/* script-item-call: explicit evaluation in the training loop */
static void
rule_item(struct run *r)
{
	const struct smp_pyscan *p = r->p;
	size_t i, closure_end = 0, last_end = 0;
	char what[200];

	for (i = 0; i < p->ncalls; i++) {
		const struct smp_pycall *c = &p->calls[i];
		struct smp_finding *f;

		/* calls come in source order: inside the arguments of an
		 * xm.add_step_closure(...) while before the furthest end of
		 * one (the closure runs after the step, as the guide asks) */
		if (smp__streq(c->attr, "add_step_closure") &&
		    c->end.offset > closure_end)
			closure_end = c->end.offset;
		if (c->periodic || c->start.offset < closure_end ||
		    !in_training_loop(r, c->loop) ||
		    !host_read(p, c, what, sizeof(what)))
			continue;
		/* x.cpu().numpy(): the copy was said at '.cpu()' */
		if (last_end && c->attr_start.offset == last_end + 1)
			continue;
		last_end = c->end.offset;
		if (!room(r, SMP_RULE_SCRIPT_ITEM_CALL))
			break;
		f = smp__report_add(r->rep, SMP_RULE_SCRIPT_ITEM_CALL,
				    &c->attr_start,
				    same_line(&c->attr_start, &c->end),
				    "%s, which cuts the compiled graph short "
				    "and slows every step",
				    what);
		smp__finding_fix(r->rep, f,
				 "keep the value on the device and read it "
				 "every N steps (under 'if step %% N == 0') or "
				 "in xm.add_step_closure(), after the step");
	}
}

/* script-torch-save */
static void
rule_torch_save(struct run *r)
{
	const struct smp_pyscan *p = r->p;
	size_t i;

	for (i = 0; i < p->ncalls; i++) {
		const struct smp_pycall *c = &p->calls[i];
		struct smp_finding *f;

		if (!smp__streq(r->s->resolved[i], "torch.save"))
			continue;
		if (!room(r, SMP_RULE_SCRIPT_TORCH_SAVE))
			break;
		f = smp__report_add(
			r->rep, SMP_RULE_SCRIPT_TORCH_SAVE, &c->start,
			same_line(&c->start, &c->end),
			"'%s' saves XLA tensors as they are; a compiled job "
			"checkpoints with 'xm.save', which moves them to the "
			"CPU and writes once for all processes",
			c->callee);
		smp__finding_fix(r->rep, f,
				 "import torch_xla.core.xla_model as xm and "
				 "call xm.save(...) with the same arguments");
	}
}

static int
string_is_cuda(const struct smp_pyscan *p, const struct smp_pyarg *a)
{
	const char *body;
	size_t n;

	if (!a || a->first.kind != SMP_PYTOK_STRING ||
	    (a->first.flags & SMP_PYSTR_BYTES))
		return 0;
	smp__pystr_body(&a->first, p->buf, &body, &n);
	return n >= 4 && memcmp(body, "cuda", 4) == 0 &&
	       (n == 4 || body[4] == ':' || body[4] == '"' || body[4] == '\'');
}

static void
cuda_finding(struct run *r, const struct smp_pos *start,
	     const struct smp_pos *end, const char *what)
{
	struct smp_finding *f;

	if (!room(r, SMP_RULE_SCRIPT_CUDA_DEVICE))
		return;
	if (r->s->uses_xla_device)
		f = smp__report_add(r->rep, SMP_RULE_SCRIPT_CUDA_DEVICE, start,
				    same_line(start, end),
				    "'%s' puts tensors on a CUDA device while "
				    "the script also uses the XLA device; "
				    "mixing the two fails to compile",
				    what);
	else
		f = smp__report_add(r->rep, SMP_RULE_SCRIPT_CUDA_DEVICE, start,
				    same_line(start, end),
				    "'%s' puts tensors on a CUDA device; a "
				    "compiled job must run on the XLA device",
				    what);
	smp__finding_fix(r->rep, f,
			 "use device = xm.xla_device() and move the model "
			 "and batches with .to(device)");
}

/* script-cuda-device */
static void
rule_cuda(struct run *r)
{
	const struct smp_pyscan *p = r->p;
	size_t i;

	for (i = 0; i < p->ncalls; i++) {
		const struct smp_pycall *c = &p->calls[i];
		const char *res = r->s->resolved[i];
		const struct smp_pyarg *dev = smp__py_kwarg(p, c, "device");

		if (smp__streq(c->attr, "cuda") && strchr(c->callee, '.') &&
		    !smp__starts_with(res, "torch.cuda")) {
			cuda_finding(r, &c->attr_start, &c->end, ".cuda()");
		} else if (smp__streq(res, "torch.device") &&
			   (string_is_cuda(p, smp__py_posarg(p, c, 0)) ||
			    string_is_cuda(p, smp__py_kwarg(p, c, "type")))) {
			cuda_finding(r, &c->start, &c->end,
				     "torch.device(\"cuda\")");
		} else if (smp__streq(c->attr, "to") && c->callee[0] != '\0' &&
			   strchr(c->callee, '.') &&
			   string_is_cuda(p, smp__py_posarg(p, c, 0))) {
			cuda_finding(r, &c->attr_start, &c->end,
				     ".to(\"cuda\")");
		} else if (smp__streq(res, "torch.cuda.set_device")) {
			cuda_finding(r, &c->start, &c->end,
				     "torch.cuda.set_device");
		}
		if (string_is_cuda(p, dev))
			cuda_finding(r, &dev->start, &dev->end,
				     "device=\"cuda\"");
	}
}

/* The first optimizer step in a training loop (or anywhere), or NULL. */
static const struct smp_pycall *
first_step(const struct run *r, int in_loop, int *kind)
{
	const struct smp_pyscan *p = r->p;
	size_t i;

	for (i = 0; i < p->ncalls; i++) {
		int k = smp__script_step_kind(r->s, &p->calls[i]);

		if (k && (!in_loop || p->calls[i].loop >= 0)) {
			if (kind)
				*kind = k;
			return &p->calls[i];
		}
	}
	return NULL;
}

/* script-mark-step-missing */
static void
rule_mark_step(struct run *r)
{
	const struct smp_pycall *step;
	struct smp_finding *f;
	char buf[300];

	if (r->s->managed || r->s->has_mark_step || r->p->truncated)
		return;
	step = first_step(r, 1, NULL);
	if (!step)
		return;
	f = smp__report_add(
		r->rep, SMP_RULE_SCRIPT_MARK_STEP_MISSING, &step->start,
		same_line(&step->start, &step->end),
		"'%s' runs in the training loop but the script never calls "
		"'xm.mark_step()': the lazily built graph is not cut after "
		"each update, and logged values are stale",
		shown(step, buf, sizeof(buf)));
	smp__finding_fix(r->rep, f,
			 "call xm.mark_step() after the optimizer step in "
			 "every iteration, or feed the batches through "
			 "pl.MpDeviceLoader, which does it");
}

/* Where to point at for something the whole script lacks. */
static void
script_anchor(const struct run *r, struct smp_pos *at,
	      const struct smp_pos **end)
{
	const struct smp_pyscan *p = r->p;
	size_t i;

	*end = NULL;
	if (p->has_main_guard) {
		*at = p->main_guard;
		*end = &p->main_guard_end;
		return;
	}
	for (i = 0; i < p->ndefs; i++) {
		if (p->defs[i].parent < 0 &&
		    smp__streq(p->defs[i].name, "main")) {
			*at = p->defs[i].start;
			*end = &p->defs[i].name_end;
			return;
		}
	}
	at->line = 1;
	at->column = 1;
	at->offset = 0;
}

/* script-mp-fn-missing */
static void
rule_mp_fn(struct run *r)
{
	const struct smp_pyscan *p = r->p;
	const struct smp_pydef *nested = NULL;
	const struct smp_pos *end;
	struct smp_finding *f;
	struct smp_pos at;
	size_t i;

	if (p->truncated)
		return;
	for (i = 0; i < p->ndefs; i++) {
		const struct smp_pydef *d = &p->defs[i];

		if (d->is_class || !smp__streq(d->name, "_mp_fn"))
			continue;
		if (d->parent >= 0) {
			nested = d;
			continue;
		}
		if (d->nparams > 0)
			return;
		f = smp__report_add(r->rep, SMP_RULE_SCRIPT_MP_FN_MISSING,
				    &d->start, &d->name_end,
				    "'_mp_fn' takes no argument, but the "
				    "pytorchxla launcher calls it with the "
				    "process index");
		smp__finding_fix(r->rep, f,
				 "define it as 'def _mp_fn(index):'");
		return;
	}
	if (nested) {
		f = smp__report_add(r->rep, SMP_RULE_SCRIPT_MP_FN_MISSING,
				    &nested->start, &nested->name_end,
				    "'_mp_fn' is defined inside another "
				    "function, but the pytorchxla launcher "
				    "looks it up at module level");
		smp__finding_fix(r->rep, f,
				 "move 'def _mp_fn(index):' to the top level "
				 "of the script");
		return;
	}
	script_anchor(r, &at, &end);
	f = smp__report_add(r->rep, SMP_RULE_SCRIPT_MP_FN_MISSING, &at, end,
			    "'pytorchxla' is enabled but the script defines no "
			    "'_mp_fn(index)', the function the launcher calls "
			    "in each worker process");
	smp__finding_fix(r->rep, f,
			 "add 'def _mp_fn(index): main()' at the top level of "
			 "the script");
}

/* The first loop that trains, or NULL. */
static const struct smp_pyloop *
training_loop(const struct run *r)
{
	size_t i;

	for (i = 0; i < r->p->nloops; i++)
		if (r->s->training[i])
			return &r->p->loops[i];
	return NULL;
}

/* script-device-loader-missing */
static void
rule_device_loader(struct run *r)
{
	const struct smp_pyscan *p = r->p;
	const struct smp_pyloop *loop = training_loop(r);
	const struct smp_pos *start, *end;
	struct smp_finding *f;
	const char *msg;
	size_t i;

	if (r->s->managed || p->truncated || !loop ||
	    (r->s->has_device_loader && r->s->has_sampler))
		return;
	start = &loop->start;
	end = &loop->kw_end;
	for (i = 0; i < p->ncalls; i++) {
		if (smp__streq(p->calls[i].attr, "DataLoader")) {
			start = &p->calls[i].start;
			end = same_line(start, &p->calls[i].end);
			break;
		}
	}
	if (!r->s->has_device_loader && !r->s->has_sampler)
		msg = "distributed training reads its batches without "
		      "'DistributedSampler' and 'MpDeviceLoader': every "
		      "worker trains on the same data";
	else if (!r->s->has_sampler)
		msg = "distributed training reads its batches without a "
		      "'DistributedSampler': every worker trains on the same "
		      "data";
	else
		msg = "distributed training does not feed its batches "
		      "through 'MpDeviceLoader', which loads them onto each "
		      "worker's XLA device";
	f = smp__report_add(r->rep, SMP_RULE_SCRIPT_DEVICE_LOADER_MISSING,
			    start, end, "%s", msg);
	smp__finding_fix(r->rep, f,
			 "load with DataLoader(ds, sampler=DistributedSampler("
			 "ds, num_replicas=xm.xrt_world_size(), "
			 "rank=xm.get_ordinal())) and iterate over "
			 "pl.MpDeviceLoader(loader, device)");
}

static int
is_seed_call(const struct run *r, size_t i)
{
	const char *a = r->p->calls[i].attr, *res = r->s->resolved[i];

	if (smp__starts_with(res, "torch.cuda."))
		return 0; /* seeds only the GPU generators */
	return smp__streq(a, "manual_seed") || smp__streq(a, "set_seed") ||
	       smp__streq(a, "seed_everything") ||
	       smp__streq(a, "set_rng_state");
}

/* script-seed-missing */
static void
rule_seed(struct run *r)
{
	const struct smp_pyscan *p = r->p;
	const struct smp_pyloop *loop = training_loop(r);
	const struct smp_pycall *per_worker = NULL;
	struct smp_finding *f;
	struct smp_pos from;
	size_t i, to;
	char buf[300];

	if (r->s->managed || p->truncated || !loop)
		return;
	for (i = 0; i < p->ncalls; i++) {
		const struct smp_pycall *c = &p->calls[i];

		if (!is_seed_call(r, i))
			continue;
		if (smp__py_args_range(p, c, &from, &to) &&
		    smp__py_range_has_name(p, &from, to, name_is_per_worker)) {
			if (!per_worker)
				per_worker = c;
			continue;
		}
		return; /* a constant seed */
	}
	if (per_worker) {
		f = smp__report_add(
			r->rep, SMP_RULE_SCRIPT_SEED_MISSING,
			&per_worker->start,
			same_line(&per_worker->start, &per_worker->end),
			"'%s' seeds each worker differently, so "
			"the workers start from different initial "
			"weights",
			shown(per_worker, buf, sizeof(buf)));
		smp__finding_fix(r->rep, f,
				 "seed every worker with the same constant, "
				 "e.g. torch.manual_seed(42), before building "
				 "the model");
		return;
	}
	f = smp__report_add(r->rep, SMP_RULE_SCRIPT_SEED_MISSING, &loop->start,
			    &loop->kw_end,
			    "distributed training without a constant seed: "
			    "each worker may start from different initial "
			    "weights and train a different model");
	smp__finding_fix(r->rep, f,
			 "call torch.manual_seed(42) (or "
			 "transformers.set_seed(42)) on every worker before "
			 "building the model");
}

/* script-gradient-sync-missing */
static void
rule_gradient_sync(struct run *r)
{
	const struct smp_pycall *step;
	struct smp_finding *f;
	char buf[300];

	if (r->s->managed || r->s->has_gradient_sync || r->p->truncated)
		return;
	step = first_step(r, 0, NULL);
	if (!step)
		return;
	f = smp__report_add(
		r->rep, SMP_RULE_SCRIPT_GRADIENT_SYNC_MISSING, &step->start,
		same_line(&step->start, &step->end),
		"'%s' updates each worker's model with its own gradients: "
		"the script has no 'xm.optimizer_step', "
		"'xm.reduce_gradients' or 'all_reduce' of the gradients",
		shown(step, buf, sizeof(buf)));
	smp__finding_fix(r->rep, f,
			 "replace optimizer.step() with "
			 "xm.optimizer_step(optimizer), or all_reduce the "
			 "gradients before the step");
}

/* --- script-gpu-num-devices ------------------------------------------- */

enum val_kind { VAL_UNKNOWN, VAL_NUMBER, VAL_STRING, VAL_INT };

struct value {
	enum val_kind kind;
	char text[64];   /* the number or string */
	char what[128];  /* VAL_INT: the expression */
	const char *why; /* VAL_INT: how we know it is an int */
};

static void
copy_text(char *out, size_t n, const char *s, size_t len)
{
	if (len >= n)
		len = n - 1;
	memcpy(out, s, len);
	out[len] = '\0';
}

/* argparse: the `type` of the option whose dest is name. */
static const struct smp_pyarg *
argparse_type(const struct run *r, const char *name, size_t n)
{
	const struct smp_pyscan *p = r->p;
	char opt[160];
	size_t i, k;

	if (n + 3 > sizeof(opt))
		return NULL;
	for (i = 0; i < p->ncalls; i++) {
		const struct smp_pycall *c = &p->calls[i];
		const struct smp_pyarg *a;
		const char *body;
		size_t blen;
		int match = 0;

		if (!smp__streq(c->attr, "add_argument"))
			continue;
		for (a = smp__py_posarg(p, c, 0), k = 0; a && !match;
		     a = smp__py_posarg(p, c, ++k)) {
			if (!smp__py_arg_string(p, a, &body, &blen))
				continue;
			while (blen && *body == '-') {
				body++;
				blen--;
			}
			match = blen == n;
			for (size_t j = 0; match && j < n; j++)
				match = body[j] == name[j] ||
					(body[j] == '-' && name[j] == '_');
		}
		a = smp__py_kwarg(p, c, "dest");
		if (a && smp__py_arg_string(p, a, &body, &blen))
			match = blen == n && memcmp(body, name, n) == 0;
		if (match)
			return smp__py_kwarg(p, c, "type");
	}
	return NULL;
}

/* What is assigned, from its first token to end. */
static void
value_of(const struct run *r, const struct smp_pytok *first,
	 const struct smp_pos *end, struct value *v)
{
	const struct smp_pyscan *p = r->p;
	struct smp_pytok_state ts;
	struct smp_pytok t[8];
	size_t n = 0;
	const char *body;
	size_t blen;
	int k;

	memset(v, 0, sizeof(*v));
	if (first->kind == SMP_PYTOK_END)
		return;
	smp__pytok_init_at(&ts, p->buf, p->len, &first->start);
	while (n < 8) {
		smp__pytok_next(&ts, &t[n]);
		if (t[n].kind == SMP_PYTOK_END || t[n].off >= end->offset ||
		    t[n].kind == SMP_PYTOK_NEWLINE)
			break;
		if (t[n].kind != SMP_PYTOK_COMMENT)
			n++;
	}
	if (n == 1 && t[0].kind == SMP_PYTOK_NUMBER) {
		v->kind = VAL_NUMBER;
		copy_text(v->text, sizeof(v->text), p->buf + t[0].off,
			  t[0].len);
		return;
	}
	if (n == 1 && t[0].kind == SMP_PYTOK_STRING) {
		if (smp__pystr_body(&t[0], p->buf, &body, &blen)) {
			v->kind = VAL_STRING;
			copy_text(v->text, sizeof(v->text), body, blen);
		}
		return;
	}
	/* str(4): a hard-coded count in a string */
	if (n == 4 && smp__pytok_is(&t[0], p->buf, "str") &&
	    smp__pytok_is(&t[1], p->buf, "(") &&
	    t[2].kind == SMP_PYTOK_NUMBER &&
	    smp__pytok_is(&t[3], p->buf, ")")) {
		v->kind = VAL_STRING;
		copy_text(v->text, sizeof(v->text), p->buf + t[2].off,
			  t[2].len);
		return;
	}
	/* args.n_gpus where --n_gpus is parsed with type=int */
	if (n == 3 && t[0].kind == SMP_PYTOK_NAME &&
	    smp__pytok_is(&t[1], p->buf, ".") && t[2].kind == SMP_PYTOK_NAME) {
		const struct smp_pyarg *type =
			argparse_type(r, p->buf + t[2].off, t[2].len);

		if (smp__py_arg_is(p, type, "int")) {
			v->kind = VAL_INT;
			copy_text(v->what, sizeof(v->what), p->buf + t[0].off,
				  t[2].off + t[2].len - t[0].off);
			v->why = "parsed with type=int";
		}
		return;
	}
	/* a call that returns an int */
	k = smp__py_call_at(p, first->off);
	if (k >= 0 && p->calls[k].end.offset == end->offset) {
		const char *res = r->s->resolved[k];

		if (smp__streq(res, "int") || smp__streq(res, "len") ||
		    smp__streq(res, "torch.cuda.device_count") ||
		    smp__ends_with(res, "xla_model.xrt_world_size") ||
		    smp__ends_with(res, "xla_model.get_world_size")) {
			v->kind = VAL_INT;
			snprintf(v->what, sizeof(v->what), "%s(%s)",
				 p->calls[k].callee,
				 p->calls[k].nargs ? "..." : "");
			v->why = "it returns an int";
		}
	}
}

static void
check_gpu_value(struct run *r, const struct smp_pytok *first,
		const struct smp_pos *end)
{
	const struct smp_instance *inst = r->c->instance;
	int gpus = inst && inst->gpus > 0 ? inst->gpus : 0;
	const struct smp_pos *e = same_line(&first->start, end);
	struct smp_finding *f;
	struct value v;
	char want[32];
	long long n;

	value_of(r, first, end, &v);
	if (gpus)
		snprintf(want, sizeof(want), "%d", gpus);
	switch (v.kind) {
	case VAL_NUMBER:
		f = smp__report_add(
			r->rep, SMP_RULE_SCRIPT_GPU_NUM_DEVICES, &first->start,
			e,
			"'GPU_NUM_DEVICES' is given the number %s; os.environ "
			"values must be strings, so this line raises "
			"TypeError",
			v.text);
		smp__finding_fix(r->rep, f, "assign the string \"%s\"",
				 gpus ? want : v.text);
		break;
	case VAL_INT:
		f = smp__report_add(r->rep, SMP_RULE_SCRIPT_GPU_NUM_DEVICES,
				    &first->start, e,
				    "'%s' is an int (%s); os.environ values "
				    "must be strings, so this line raises "
				    "TypeError",
				    v.what, v.why);
		smp__finding_fix(r->rep, f, "assign str(%s)", v.what);
		break;
	case VAL_STRING:
		if (smp__parse_count(v.text, strlen(v.text), &n)) {
			f = smp__report_add(
				r->rep, SMP_RULE_SCRIPT_GPU_NUM_DEVICES,
				&first->start, e,
				"'GPU_NUM_DEVICES' is set to \"%s\"; it must "
				"be a positive whole number",
				v.text);
			if (gpus)
				smp__finding_fix(r->rep, f,
						 "set it to \"%s\", the GPUs "
						 "of '%s'",
						 want, inst->type);
			else
				smp__finding_fix(r->rep, f,
						 "set it to the number of GPUs "
						 "per instance");
			break;
		}
		if (!gpus || n == gpus)
			break;
		f = smp__report_add(r->rep, SMP_RULE_SCRIPT_GPU_NUM_DEVICES,
				    &first->start, e,
				    "'GPU_NUM_DEVICES' is set to \"%s\" but "
				    "'%s' has %d GPU%s",
				    v.text, inst->type, gpus,
				    gpus == 1 ? "" : "s");
		smp__finding_fix(r->rep, f, "set it to \"%s\"", want);
		smp__finding_suggest(r->rep, f, SMP_VALUE_STRING, want);
		break;
	default:
		break;
	}
}

static void
rule_gpu_num_devices(struct run *r)
{
	const struct smp_pyscan *p = r->p;
	size_t i, seen = 0;

	for (i = 0; i < p->nassigns; i++) {
		const struct smp_pyassign *a = &p->assigns[i];

		if (smp__script_is_env_target(p, a) && ++seen <= MAX_EXAMINED)
			check_gpu_value(r, &a->value, &a->value_end);
	}
	for (i = 0; i < p->ncalls; i++) {
		const struct smp_pycall *c = &p->calls[i];
		const char *res = r->s->resolved[i];
		const struct smp_pyarg *v;

		if (smp__streq(res, "os.environ.update")) {
			v = smp__py_kwarg(p, c, "GPU_NUM_DEVICES");
		} else if ((smp__streq(res, "os.environ.setdefault") ||
			    smp__streq(res, "os.putenv")) &&
			   smp__py_arg_string_is(p, smp__py_posarg(p, c, 0),
						 "GPU_NUM_DEVICES")) {
			v = smp__py_posarg(p, c, 1);
		} else {
			continue;
		}
		if (v && ++seen <= MAX_EXAMINED)
			check_gpu_value(r, &v->first, &v->end);
	}
}

/* --- script-amp-order -------------------------------------------------- */

static int
is_clip(const struct run *r, size_t i)
{
	const struct smp_pycall *c = &r->p->calls[i];
	const char *res = r->s->resolved[i];

	if (!smp__streq(c->attr, "clip_grad_norm_") &&
	    !smp__streq(c->attr, "clip_grad_value_") &&
	    !smp__streq(c->attr, "clip_grad_norm"))
		return 0;
	/* accelerator.clip_grad_norm_ unscales by itself */
	return smp__starts_with(res, "torch.") ||
	       strchr(c->callee, '.') == NULL;
}

/* A call on a GradScaler: scaler.<method>(...). */
static int
scaler_call(const struct run *r, const struct smp_pycall *c, const char *method)
{
	size_t n = strlen(c->callee), m = strlen(method);

	if (!smp__streq(c->attr, method) || c->callee[0] == '.' || n <= m + 1)
		return 0;
	return smp__script_is_scaler(r->s, c->callee, n - m - 1);
}

static int
is_gradient_reduce(const struct run *r, const struct smp_pycall *c)
{
	struct smp_pos from;
	size_t to;

	if (smp__streq(c->attr, "reduce_gradients"))
		return 1;
	return smp__streq(c->attr, "all_reduce") &&
	       smp__py_args_range(r->p, c, &from, &to) &&
	       smp__py_range_has_name(r->p, &from, to, smp__py_name_is_grad);
}

/* script-amp-order */
static void
rule_amp_order(struct run *r)
{
	const struct smp_pyscan *p = r->p;
	size_t i, j, seen = 0;

	if (r->s->managed || r->s->nscalers == 0)
		return;
	for (i = 0; i < p->ncalls; i++) {
		const struct smp_pycall *c = &p->calls[i];
		int uses_scaler = 0, before = 0, after = 0;
		struct smp_finding *f;

		if (!is_clip(r, i))
			continue;
		if (++seen > MAX_EXAMINED)
			break; /* each is compared with every call */
		for (j = 0; j < p->ncalls; j++) {
			const struct smp_pycall *o = &p->calls[j];

			if (o->func != c->func)
				continue;
			if (scaler_call(r, o, "scale") ||
			    scaler_call(r, o, "step") ||
			    scaler_call(r, o, "unscale_"))
				uses_scaler = 1;
			if (scaler_call(r, o, "unscale_")) {
				if (j < i)
					before = 1;
				else
					after = 1;
			}
		}
		if (!uses_scaler || before)
			continue;
		if (after)
			f = smp__report_add(
				r->rep, SMP_RULE_SCRIPT_AMP_ORDER, &c->start,
				same_line(&c->start, &c->end),
				"'%s' runs before the GradScaler's 'unscale_', "
				"so it clips the scaled gradients",
				c->callee);
		else
			f = smp__report_add(
				r->rep, SMP_RULE_SCRIPT_AMP_ORDER, &c->start,
				same_line(&c->start, &c->end),
				"'%s' clips gradients that the GradScaler "
				"scaled: 'unscale_' is not called before it",
				c->callee);
		smp__finding_fix(r->rep, f,
				 "call scaler.unscale_(optimizer) first, then "
				 "clip, then scaler.step(optimizer) and "
				 "scaler.update()");
	}
	if (!r->distributed)
		return;
	seen = 0;
	for (i = 0; i < p->ncalls; i++) {
		const struct smp_pycall *c = &p->calls[i], *late = NULL;
		struct smp_finding *f;
		char buf[300];

		if (!is_gradient_reduce(r, c))
			continue;
		if (++seen > MAX_EXAMINED)
			break;
		for (j = 0; j < i && !late; j++) {
			const struct smp_pycall *o = &p->calls[j];

			if (o->func == c->func && o->loop == c->loop &&
			    (scaler_call(r, o, "unscale_") ||
			     scaler_call(r, o, "step")))
				late = o;
		}
		if (!late)
			continue;
		f = smp__report_add(r->rep, SMP_RULE_SCRIPT_AMP_ORDER,
				    &c->start, same_line(&c->start, &c->end),
				    "'%s' reduces the gradients after '%s'; "
				    "under AMP they must be reduced across "
				    "workers before they are unscaled, clipped "
				    "and applied",
				    c->callee, shown(late, buf, sizeof(buf)));
		smp__finding_fix(r->rep, f,
				 "order each step as: scaler.scale(loss)."
				 "backward(), all_reduce the gradients, "
				 "scaler.unscale_(optimizer), clip, "
				 "scaler.step(optimizer), scaler.update(), "
				 "xm.mark_step()");
	}
}

void
smp__rules_script(const struct smp_check *c)
{
	const struct smp_job *job = c->job;
	const struct smp_script_facts *s = job->script;
	struct smp_report_source saved;
	struct run r;
	int pytorch;

	if (!s || s->status == SMP_SCRIPT_NONE)
		return;
	if (s->status != SMP_SCRIPT_SCANNED) {
		report_missing(c, s);
		return;
	}
	memset(&r, 0, sizeof(r));
	r.c = c;
	r.rep = c->rep;
	r.s = s;
	r.p = &s->scan;
	pytorch = smp__job_is_pytorch(job) ||
		  (!job->base_framework && s->imports_torch);
	r.distributed = job->pytorchxla_enabled ||
			(s->launcher && c->job->total_gpus > 1);
	smp__report_source(c->rep, s->path, s->buf, s->len, &saved);
	if (r.p->truncated) {
		/* the rules that conclude from an absence stay quiet: say so
		 * rather than pass the script silently */
		struct smp_finding *f = smp__report_add(
			c->rep, SMP_RULE_INPUT_LIMIT, NULL, NULL,
			"the script has more than %d calls (or arguments, "
			"imports, definitions, loops or assignments): the "
			"checks that look for something missing were skipped",
			SMP_PYSCAN_MAX);

		smp__finding_soften(c->rep, f, SMP_RULE_INPUT_LIMIT,
				    SMP_SEVERITY_INFO);
		smp__finding_fix(c->rep, f,
				 "split the script into smaller modules");
	}
	rule_padding(&r);
	if (pytorch) {
		rule_item(&r);
		rule_torch_save(&r);
		rule_cuda(&r);
		rule_mark_step(&r);
		if (job->pytorchxla_enabled)
			rule_mp_fn(&r);
		if (r.distributed) {
			rule_device_loader(&r);
			rule_seed(&r);
			rule_gradient_sync(&r);
		}
		rule_gpu_num_devices(&r);
		rule_amp_order(&r);
	}
	smp__report_source_restore(c->rep, &saved);
}
