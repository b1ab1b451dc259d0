/*
 * test_pyscan.c - the structure pass: imports and aliases, definitions
 * with their scopes, calls with keyword arguments, loops, periodic
 * guards, os.environ assignments, and its limits (caps, out of memory).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "failing_alloc.h"
#include "script/pyscan.h"
#include "smpreflight.h"

struct scanned {
	struct smp_allocator a;
	struct smp_arena arena;
	struct smp_pyscan scan;
	const char *src;
};

static void
scan(struct scanned *s, const char *src)
{
	int rc;

	smp__allocator_resolve(&s->a, NULL);
	smp__arena_init(&s->arena, &s->a);
	s->src = src;
	rc = smp__pyscan_run(&s->scan, &s->arena, src, strlen(src));
	cr_assert_eq(rc, 0);
}

static void
done(struct scanned *s)
{
	smp__arena_release(&s->arena);
}

/* The first call whose callee is name, or NULL. */
static const struct smp_pycall *
call(const struct scanned *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->scan.ncalls; i++)
		if (strcmp(s->scan.calls[i].callee, name) == 0)
			return &s->scan.calls[i];
	return NULL;
}

static size_t
count_calls(const struct scanned *s, const char *name)
{
	size_t i, n = 0;

	for (i = 0; i < s->scan.ncalls; i++)
		n += strcmp(s->scan.calls[i].callee, name) == 0;
	return n;
}

static const struct smp_pyarg *
arg(const struct scanned *s, const struct smp_pycall *c, size_t i)
{
	int k = c->first_arg;

	while (k >= 0 && i-- > 0)
		k = s->scan.args[k].next;
	return k >= 0 ? &s->scan.args[k] : NULL;
}

static const char *
first_text(const struct scanned *s, const struct smp_pyarg *a)
{
	static char buf[256];
	size_t n = a->first.len < 255 ? a->first.len : 255;

	memcpy(buf, s->src + a->first.off, n);
	buf[n] = '\0';
	return buf;
}

static const char *
resolve(const struct scanned *s, const char *chain)
{
	static char buf[256];

	smp__pyscan_resolve(&s->scan, chain, buf, sizeof(buf));
	return buf;
}

Test(pyscan, imports_and_aliases)
{
	struct scanned s;

	scan(&s,
	     "import os, argparse as ap\n"
	     "import torch_xla.core.xla_model as xm\n"
	     "import torch_xla.distributed.parallel_loader\n"
	     "from torch_xla.distributed import xla_multiprocessing as xmp\n"
	     "from transformers import (AutoTokenizer,\n"
	     "    Trainer as HFTrainer, set_seed)\n"
	     "from .local import helper; import numpy as np\n"
	     "from torch.nn.utils import *\n");
	cr_assert_str_eq(resolve(&s, "xm.mark_step"),
			 "torch_xla.core.xla_model.mark_step");
	cr_assert_str_eq(resolve(&s, "xmp.spawn"),
			 "torch_xla.distributed.xla_multiprocessing.spawn");
	cr_assert_str_eq(resolve(&s, "HFTrainer"), "transformers.Trainer");
	cr_assert_str_eq(resolve(&s, "set_seed"), "transformers.set_seed");
	cr_assert_str_eq(resolve(&s, "ap.ArgumentParser"),
			 "argparse.ArgumentParser");
	cr_assert_str_eq(resolve(&s, "os.environ"), "os.environ");
	cr_assert_str_eq(resolve(&s, "torch_xla.distributed.parallel_loader.X"),
			 "torch_xla.distributed.parallel_loader.X");
	cr_assert_str_eq(resolve(&s, "helper"), ".local.helper");
	cr_assert_str_eq(resolve(&s, "np.zeros"), "numpy.zeros");
	cr_assert_str_eq(resolve(&s, "unknown.thing"), "unknown.thing");
	cr_assert_str_eq(resolve(&s, ".item"), ".item");
	done(&s);
}

Test(pyscan, later_imports_win)
{
	struct scanned s;

	scan(&s, "import torch as t\nimport tensorflow as t\n");
	cr_assert_str_eq(resolve(&s, "t.save"), "tensorflow.save");
	done(&s);
}

Test(pyscan, definitions_scopes_and_parameters)
{
	struct scanned s;
	const struct smp_pyscan *p;

	scan(&s, "class Runner(transformers.Trainer):\n"
		 "    def step(self, *args, **kw):\n"
		 "        def inner(): pass\n"
		 "        return inner()\n"
		 "\n"
		 "def _mp_fn(index):\n"
		 "    main()\n"
		 "async def fetch(a, /, b=1, *, c):\n"
		 "    await go()\n"
		 "def noargs() -> int: return 1\n");
	p = &s.scan;
	cr_assert_eq(p->ndefs, 6);
	cr_assert_str_eq(p->defs[0].name, "Runner");
	cr_assert(p->defs[0].is_class);
	cr_assert_str_eq(p->defs[0].base, "transformers.Trainer");
	cr_assert_str_eq(p->defs[1].name, "step");
	cr_assert_eq(p->defs[1].parent, 0);
	cr_assert_eq(p->defs[1].nparams, 3);
	cr_assert_str_eq(p->defs[1].param0, "self");
	cr_assert_str_eq(p->defs[2].name, "inner");
	cr_assert_eq(p->defs[2].parent, 1);
	cr_assert_eq(p->defs[2].nparams, 0);
	cr_assert_str_eq(p->defs[3].name, "_mp_fn");
	cr_assert_eq(p->defs[3].parent, -1);
	cr_assert_eq(p->defs[3].nparams, 1);
	cr_assert_str_eq(p->defs[3].param0, "index");
	cr_assert_eq(p->defs[3].start.line, 6);
	cr_assert_eq(p->defs[3].name_end.column, 11);
	cr_assert_str_eq(p->defs[4].name, "fetch");
	cr_assert_eq(p->defs[4].nparams, 3);
	cr_assert_eq(p->defs[4].start.column, 1); /* at 'async' */
	cr_assert_str_eq(p->defs[5].name, "noargs");
	cr_assert_eq(p->defs[5].parent, -1);
	/* calls know their function */
	cr_assert_eq(call(&s, "inner")->func, 1);
	cr_assert_eq(call(&s, "main")->func, 3);
	cr_assert_eq(call(&s, "go")->func, 4);
	/* bodies end where the suite ends */
	cr_assert(p->defs[3].body_end <=
		  (size_t)(strstr(s.src, "async") - s.src));
	cr_assert(p->defs[3].body_start >
		  (size_t)(strstr(s.src, "_mp_fn") - s.src));
	done(&s);
}

Test(pyscan, calls_with_keyword_and_positional_arguments)
{
	struct scanned s;
	const struct smp_pycall *c;
	const struct smp_pyarg *a;

	scan(&s, "tok(texts, padding='longest', max_length=128,\n"
		 "    truncation=(a == b), **extra)\n"
		 "f(x == y, g(z=1), [k for k in v], *rest)\n");
	c = call(&s, "tok");
	cr_assert_not_null(c);
	cr_assert_eq(c->nargs, 5);
	a = arg(&s, c, 0);
	cr_assert_null(a->name);
	cr_assert_str_eq(first_text(&s, a), "texts");
	a = arg(&s, c, 1);
	cr_assert_str_eq(a->name, "padding");
	cr_assert_eq(a->ntok, 1);
	cr_assert_str_eq(first_text(&s, a), "'longest'");
	cr_assert_eq(a->start.column, 12);
	cr_assert_eq(a->end.column, 29);
	a = arg(&s, c, 3);
	cr_assert_str_eq(a->name, "truncation");
	cr_assert_eq(a->start.line, 2);
	cr_assert_eq(a->ntok, 2); /* ( and ): the inside is nested */
	a = arg(&s, c, 4);
	cr_assert_null(a->name);
	cr_assert_str_eq(first_text(&s, a), "**");
	cr_assert_eq(c->end.line, 2);
	c = call(&s, "f");
	cr_assert_eq(c->nargs, 4);
	cr_assert_null(arg(&s, c, 0)->name); /* '==' is no keyword */
	cr_assert_null(arg(&s, c, 1)->name);
	c = call(&s, "g");
	cr_assert_eq(c->nargs, 1);
	cr_assert_str_eq(arg(&s, c, 0)->name, "z");
	done(&s);
}

Test(pyscan, callees_chains_and_expressions)
{
	struct scanned s;
	const struct smp_pycall *c;

	scan(&s, "loss.detach().item()\n"
		 "a.b.c.d(1)\n"
		 "'x'.join(y)\n"
		 "if (x): pass\n"
		 "while(y): return (z)\n"
		 "print (w)\n"
		 "obj[0].cuda()\n"
		 "def f(x): pass\n"
		 "class C(Base): pass\n");
	c = call(&s, ".item");
	cr_assert_not_null(c);
	cr_assert_str_eq(c->attr, "item");
	cr_assert_eq(c->nargs, 0);
	cr_assert_not_null(call(&s, "loss.detach"));
	c = call(&s, "a.b.c.d");
	cr_assert_str_eq(c->attr, "d");
	cr_assert_eq(c->start.column, 1);
	cr_assert_eq(c->attr_start.column, 7);
	cr_assert_not_null(call(&s, ".join"));
	cr_assert_not_null(call(&s, "print"));
	cr_assert_not_null(call(&s, ".cuda"));
	cr_assert_null(call(&s, "if"));
	cr_assert_null(call(&s, "while"));
	cr_assert_null(call(&s, "return"));
	cr_assert_null(call(&s, "f"));
	cr_assert_null(call(&s, "C"));
	done(&s);
}

Test(pyscan, loops_and_their_bodies)
{
	struct scanned s;
	const struct smp_pyscan *p;

	scan(&s, "def train(loader):\n"
		 "    for epoch in range(3):\n"
		 "        for batch in iter(loader):\n"
		 "            step(batch)\n"
		 "            def cb(): later()\n"
		 "        after_epoch()\n"
		 "    xs = [f(x) for x in loader]\n"
		 "    while True: once()\n"
		 "    done()\n"
		 "async def a():\n"
		 "    async for x in s:\n"
		 "        inside()\n");
	p = &s.scan;
	cr_assert_eq(p->nloops, 4);
	cr_assert_eq(p->loops[0].parent, -1);
	cr_assert_eq(p->loops[0].func, 0);
	cr_assert_eq(p->loops[1].parent, 0);
	cr_assert_eq(p->loops[2].is_while, 1);
	cr_assert_eq(p->loops[3].start.line, 11);
	cr_assert_eq(p->loops[3].start.column, 5);
	cr_assert_eq(call(&s, "step")->loop, 1);
	cr_assert_eq(call(&s, "after_epoch")->loop, 0);
	cr_assert_eq(call(&s, "later")->loop, -1); /* its own function */
	cr_assert_eq(call(&s, "iter")->loop, 0);   /* the header: outside */
	cr_assert_eq(call(&s, "range")->loop, -1);
	cr_assert_eq(call(&s, "f")->loop, -1); /* a comprehension */
	cr_assert_eq(call(&s, "once")->loop, 2);
	cr_assert_eq(call(&s, "done")->loop, -1);
	cr_assert_eq(call(&s, "inside")->loop, 3);
	cr_assert(p->loops[1].body_end <=
		  (size_t)(strstr(s.src, "after_epoch") - s.src));
	done(&s);
}

Test(pyscan, periodic_guards)
{
	struct scanned s;

	scan(&s, "for step, b in enumerate(d):\n"
		 "    every()\n"
		 "    if (step + 1) % 10 == 0:\n"
		 "        log(loss.item())\n"
		 "        if x:\n"
		 "            deep()\n"
		 "    elif other:\n"
		 "        not_periodic()\n"
		 "    if step % 5 == 0: inline()\n"
		 "    after()\n");
	cr_assert_eq(call(&s, "every")->periodic, 0);
	cr_assert_eq(call(&s, "log")->periodic, 1);
	cr_assert_eq(call(&s, "loss.item")->periodic, 1);
	cr_assert_eq(call(&s, "deep")->periodic, 1);
	cr_assert_eq(call(&s, "not_periodic")->periodic, 0);
	cr_assert_eq(call(&s, "inline")->periodic, 1);
	cr_assert_eq(call(&s, "after")->periodic, 0);
	done(&s);
}

Test(pyscan, environ_assignments)
{
	struct scanned s;
	const struct smp_pyscan *p;

	scan(&s, "os.environ[\"GPU_NUM_DEVICES\"] = 4\n"
		 "environ['GPU_NUM_DEVICES'] = args.n_gpus  # approach 2\n"
		 "os.environ['A\\x42'] = '1'\n"
		 "device = xm.xla_device()\n"
		 "self.scaler: GradScaler = GradScaler()\n"
		 "a, b = 1, 2\n"
		 "x = y = z\n"
		 "d[k] = v\n");
	p = &s.scan;
	cr_assert_eq(p->nassigns, 5);
	cr_assert_str_eq(p->assigns[0].target, "os.environ");
	cr_assert_str_eq(p->assigns[0].key, "GPU_NUM_DEVICES");
	cr_assert(p->assigns[0].key_exact);
	cr_assert_eq(p->assigns[0].value.kind, SMP_PYTOK_NUMBER);
	cr_assert_eq(p->assigns[0].value.start.column, 33);
	cr_assert_eq(p->assigns[0].ntok, 1);
	cr_assert_str_eq(p->assigns[1].target, "environ");
	cr_assert_eq(p->assigns[1].ntok, 3);
	cr_assert_eq(p->assigns[1].value_end.column, 41);
	cr_assert_eq(p->assigns[2].key_exact, 0);
	cr_assert_str_eq(p->assigns[3].target, "device");
	cr_assert_eq(p->assigns[3].value.kind, SMP_PYTOK_NAME);
	cr_assert_str_eq(p->assigns[4].target, "x");
	done(&s);
}

Test(pyscan, strings_and_comments_hold_no_code)
{
	struct scanned s;

	scan(&s, "'''torch.save(m)\nfor x in y:\n    z()'''\n"
		 "# xm.mark_step()\n"
		 "s = f\"{loss.item()}\" + 'model.cuda()'\n"
		 "def f():\n"
		 "    \"\"\"os.environ['GPU_NUM_DEVICES'] = 4\"\"\"\n");
	cr_assert_eq(s.scan.ncalls, 0);
	cr_assert_eq(s.scan.nloops, 0);
	cr_assert_eq(s.scan.nassigns, 1); /* s = ... */
	cr_assert_eq(s.scan.ndefs, 1);
	done(&s);
}

Test(pyscan, main_guard)
{
	struct scanned s;

	scan(&s,
	     "def main(): pass\n\nif __name__ == '__main__':\n    main()\n");
	cr_assert(s.scan.has_main_guard);
	cr_assert_eq(s.scan.main_guard.line, 3);
	cr_assert_eq(s.scan.main_guard.column, 1);
	done(&s);
	scan(&s, "def f():\n    if __name__ == '__main__':\n        g()\n");
	cr_assert_not(s.scan.has_main_guard); /* not at module level */
	done(&s);
}

Test(pyscan, broken_input_gives_fewer_records)
{
	struct scanned s;

	scan(&s, "def (:\n  for\n)))] x(\nif a b c:\n\tf(\n");
	cr_assert(s.scan.bad_tokens == 0);
	done(&s);
	scan(&s, "x = 'open\ny = f(1)\n$\n");
	cr_assert_eq(s.scan.bad_tokens, 2);
	cr_assert_not_null(call(&s, "f"));
	done(&s);
}

Test(pyscan, records_are_capped)
{
	size_t n = SMP_PYSCAN_MAX + 10, i;
	char *src = malloc(n * 4 + 1);
	struct scanned s;

	cr_assert_not_null(src);
	for (i = 0; i < n; i++)
		memcpy(src + 4 * i, "f()\n", 4);
	src[4 * n] = '\0';
	scan(&s, src);
	cr_assert_eq(s.scan.ncalls, SMP_PYSCAN_MAX);
	cr_assert(s.scan.truncated);
	cr_assert_eq(count_calls(&s, "f"), SMP_PYSCAN_MAX);
	done(&s);
	free(src);
}

Test(pyscan, out_of_memory_at_every_allocation)
{
	char src[8192];
	size_t len = 0;
	long n;
	int i;

	for (i = 0; i < 60; i++)
		len += (size_t)snprintf(src + len, sizeof(src) - len,
					"import m%d as a%d\n"
					"def f%d(x):\n"
					"    for b in x: g(b, k=%d)\n"
					"os.environ['K'] = '%d'\n",
					i, i, i, i, i);
	for (n = 0;; n++) {
		struct failing_alloc f;
		struct smp_allocator a = fa_allocator(&f);
		struct smp_allocator r;
		struct smp_arena arena;
		struct smp_pyscan scan_out;
		int rc;

		fa_init(&f, n);
		smp__allocator_resolve(&r, &a);
		smp__arena_init(&arena, &r);
		rc = smp__pyscan_run(&scan_out, &arena, src, len);
		smp__arena_release(&arena);
		cr_assert_eq(f.live, 0, "leak when failing allocation %ld", n);
		if (rc == 0) {
			cr_assert_eq(scan_out.ncalls, 60);
			break;
		}
		cr_assert_eq(rc, SMP_ENOMEM);
		cr_assert(n < 10000);
	}
}
