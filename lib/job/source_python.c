/*
 * source_python.c - statements of a Python source, in order: imports
 * bind module paths, assignments bind values, and the evaluator reports
 * each job constructor it meets (see source_python.h). Blocks matter
 * only for what is certain: a value assigned inside a branch or a loop
 * is unknown after it, a function's own names go when its body ends.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "job/py_eval.h"
#include "job/source_python.h"
#include "util/alloc.h"

/* Jobs kept: a generated file's first thousand suffice. */
#define MAX_JOBS 1000

enum block_kind { BLOCK_PLAIN, BLOCK_COND, BLOCK_SCOPE };

struct block {
	enum block_kind kind;
	size_t mark; /* BLOCK_SCOPE: the environment before the body */
};

struct scan {
	struct smp_pyeval ev;
	struct smp_pysrc *out;
	struct smp_arena *arena;
	struct smp_pymodel m;
	struct block blocks[SMP_PYTOK_MAX_INDENT + 2];
	size_t nblocks;
	int oom;
	const struct smp_pysrc_env *env; /* set before the statements */
	size_t nenv, env_done;
};

int
smp__pysrc_kind(const char *name)
{
	size_t n = name ? strlen(name) : 0;

	if (n >= 3 && strcmp(name + n - 3, ".py") == 0)
		return 1;
	if (n >= 6 && strcmp(name + n - 6, ".ipynb") == 0)
		return 2;
	return 0;
}

/* ----------------------------------------------------------- helpers */

static const struct smp_pytoken *
tok(const struct scan *s, size_t i)
{
	return smp__pym_tok(&s->m, i);
}

static int
op_is(const struct scan *s, size_t i, const char *op)
{
	return smp__pym_op(&s->m, i, op);
}

static int
name_is(const struct scan *s, size_t i, const char *name)
{
	return smp__pym_name(&s->m, i, name);
}

static int
is_open(const struct scan *s, size_t i)
{
	return smp__pym_is_open(&s->m, i);
}

static struct smp_pyval *
unknown_at(struct scan *s, size_t from, size_t to)
{
	return smp__pyval_unknown(&s->ev, from, to);
}

static void
bind_tok(struct scan *s, size_t i, struct smp_pyval *v)
{
	const struct smp_pytoken *t = tok(s, i);

	if (t->kind == SMP_PYTOK_NAME &&
	    smp__pyeval_bind(&s->ev, s->ev.buf + t->off, t->len, v))
		s->oom = 1;
}

/* Binds every plain name in [from, to) to unknown (for targets, params). */
static void
bind_names_unknown(struct scan *s, size_t from, size_t to, int params)
{
	size_t i;

	for (i = from; i < to; i++) {
		if (params && op_is(s, i, "=")) {
			/* a default value: skip it */
			i++;
			while (i < to && !op_is(s, i, ",")) {
				if (is_open(s, i))
					i = tok(s, i)->match;
				i++;
			}
			continue;
		}
		if (params && op_is(s, i, ":")) {
			while (i + 1 < to && !op_is(s, i + 1, ",") &&
			       !op_is(s, i + 1, "=")) {
				i++;
				if (is_open(s, i))
					i = tok(s, i)->match;
			}
			continue;
		}
		if (tok(s, i)->kind == SMP_PYTOK_NAME && !name_is(s, i, "in") &&
		    !name_is(s, i, "as") && !op_is(s, i - 1, "."))
			bind_tok(s, i, unknown_at(s, i, i + 1));
	}
}

/* ----------------------------------------------------------- imports */

/* The bindings the model read from the import statement st. */
static void
stmt_import(struct scan *s, const struct smp_pystmt *st)
{
	size_t k;

	for (k = st->bind; k < st->bind + st->nbind; k++) {
		const struct smp_pybinding *b = &s->m.binds[k];

		bind_tok(s, b->name_tok,
			 b->relative
				 ? unknown_at(s, b->name_tok, b->name_tok + 1)
				 : smp__pyval_module(&s->ev, b->target,
						     b->target_len,
						     b->path_tok));
	}
}

/* ------------------------------------------------------------- notes */

/* Adds a note on tokens [from, to) with text[0..len) (NULL: the source). */
static struct smp_pysrc_note *
note(struct scan *s, enum smp_pysrc_note_kind kind, size_t from, size_t to,
     const char *text, size_t len)
{
	struct smp_pysrc *out = s->out;
	struct smp_pysrc_note *n;

	if (out->nnotes >= SMP_PYSRC_MAX_NOTES)
		return NULL;
	if (out->nnotes == out->capnotes) {
		void *notes = out->notes;

		if (smp__arena_grow(s->arena, &notes, &out->capnotes,
				    out->nnotes + 1, sizeof(*out->notes))) {
			s->oom = 1;
			return NULL;
		}
		out->notes = notes;
	}
	if (to <= from)
		to = from + 1;
	n = &out->notes[out->nnotes];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	n->at = smp__pym_start(&s->m, from);
	n->end = smp__pym_end(&s->m, to - 1);
	if (!text) {
		text = s->m.buf + tok(s, from)->off;
		len = tok(s, to - 1)->off + tok(s, to - 1)->len -
		      tok(s, from)->off;
	}
	n->text = smp__arena_strndup(s->arena, text, len);
	if (!n->text) {
		s->oom = 1;
		return NULL;
	}
	out->nnotes++;
	return n;
}

static void
on_type_error(struct smp_pyeval *ev, size_t callee, size_t arg, size_t arg_end,
	      const struct smp_pyval *key)
{
	struct scan *s =
		(struct scan *)((char *)ev - offsetof(struct scan, ev));
	struct smp_pysrc_note *n;
	const struct smp_pytoken *t = tok(s, callee);

	if (key->kind != SMP_PV_STR)
		return;
	n = note(s, SMP_PYNOTE_TYPE_ERROR, arg, arg_end, key->text, key->len);
	if (n) {
		n->what =
			smp__arena_strndup(s->arena, s->m.buf + t->off, t->len);
		if (!n->what)
			s->oom = 1;
	}
}

/*
 * target: value where target is a subscript (d["k"], self.hp["k"]): an
 * annotation, which Python evaluates and stores nothing for, written
 * where an assignment was meant. [i, colon) is the target.
 */
static int
annotation_slip(const struct scan *s, size_t i, size_t colon, size_t end)
{
	int subscript = 0;

	if (tok(s, i)->kind != SMP_PYTOK_NAME || colon + 1 >= end)
		return 0;
	i++;
	while (op_is(s, i, ".") && tok(s, i + 1)->kind == SMP_PYTOK_NAME)
		i += 2;
	while (op_is(s, i, "[")) {
		i = tok(s, i)->match + 1;
		subscript = 1;
	}
	return subscript && i == colon;
}

/* ------------------------------------------------------------- jobs */

static const char *
class_name(enum smp_pycls cls)
{
	switch (cls) {
	case SMP_PYCLS_HUGGINGFACE:
		return "HuggingFace";
	case SMP_PYCLS_PYTORCH:
		return "PyTorch";
	case SMP_PYCLS_TENSORFLOW:
		return "TensorFlow";
	case SMP_PYCLS_ESTIMATOR:
		return "Estimator";
	case SMP_PYCLS_MODEL_TRAINER:
		return "ModelTrainer";
	default:
		return "create_training_job";
	}
}

static struct smp_node *
mapping(struct smp_arena *arena, size_t n, const struct smp_pyval *at)
{
	struct smp_node *m = smp__arena_zalloc(arena, sizeof(*m));

	if (!m)
		return NULL;
	m->kind = SMP_NODE_MAPPING;
	m->start = at->start;
	m->end = at->end;
	m->u.mapping.items =
		smp__arena_zalloc(arena, (n ? n : 1) * sizeof(struct smp_pair));
	return m->u.mapping.items ? m : NULL;
}

static struct smp_node *
text_node(struct smp_arena *arena, const char *text, struct smp_pos start,
	  struct smp_pos end)
{
	size_t len = strlen(text);
	/* the node and its text in one piece of the arena */
	struct smp_node *n = smp__arena_alloc(arena, sizeof(*n) + len + 1);
	char *copy;

	if (!n)
		return NULL;
	*n = (struct smp_node){.kind = SMP_NODE_SCALAR};
	copy = (char *)(n + 1);
	memcpy(copy, text, len + 1);
	n->start = start;
	n->end = end;
	n->u.scalar.value = copy;
	n->u.scalar.len = len;
	n->u.scalar.style = SMP_STYLE_PLAIN;
	return n;
}

static long
on_job(struct smp_pyeval *ev, enum smp_pycls cls, size_t callee,
       const struct smp_pyval *call, int partial)
{
	struct scan *s =
		(struct scan *)((char *)ev - offsetof(struct scan, ev));
	struct smp_pysrc *out = s->out;
	struct smp_pysrc_job *job;
	struct smp_node *root;
	size_t k, n = 0;
	const struct smp_pyval *ep, *cc;
	int named = cls == SMP_PYCLS_HUGGINGFACE || cls == SMP_PYCLS_PYTORCH ||
		    cls == SMP_PYCLS_TENSORFLOW;

	if (cls == SMP_PYCLS_TUNER) {
		if (smp__tuner_attach(ev, s->arena, out, call))
			s->oom = 1;
		return -1;
	}
	if (out->count >= MAX_JOBS)
		return -1;
	if (out->count == out->cap) {
		void *jobs = out->jobs;

		if (smp__arena_grow(s->arena, &jobs, &out->cap, out->count + 1,
				    sizeof(*out->jobs))) {
			s->oom = 1;
			return -1;
		}
		out->jobs = jobs;
	}
	root = mapping(s->arena, call->count + 1, call);
	if (!root) {
		s->oom = 1;
		return -1;
	}
	if (named) {
		struct smp_pos t0 = smp__pym_start(&s->m, callee);
		struct smp_pos t1 = smp__pym_end(&s->m, callee);
		struct smp_pair *p = &root->u.mapping.items[n++];

		p->key = text_node(s->arena, "estimator", t0, t1);
		p->value = text_node(s->arena, class_name(cls), t0, t1);
		if (!p->key || !p->value) {
			s->oom = 1;
			return -1;
		}
	}
	for (k = 0; k < call->count; k++) {
		const struct smp_pyval *key = call->keys[k];
		struct smp_pair *p = &root->u.mapping.items[n];

		if (named && key->len == 9 &&
		    memcmp(key->text, "estimator", 9) == 0)
			continue;
		p->key = text_node(s->arena, key->text, key->start, key->end);
		p->value = smp__pyval_node(ev, s->arena, call->items[k]);
		if (!p->key || !p->value) {
			s->oom = 1;
			return -1;
		}
		n++;
	}
	root->u.mapping.count = n;
	job = &out->jobs[out->count];
	memset(job, 0, sizeof(*job));
	job->root = root;
	job->partial = partial;
	job->cls = class_name(cls);
	job->at = call->start;
	job->dialect =
		cls == SMP_PYCLS_MODEL_TRAINER ? SMP_DIALECT_MODEL_TRAINER
		: cls == SMP_PYCLS_CLIENT      ? SMP_DIALECT_CREATE_TRAINING_JOB
					       : SMP_DIALECT_ESTIMATOR;
	/* a tuning request: its definitions are the jobs (tuning.c) */
	if (cls == SMP_PYCLS_CLIENT && tok(s, callee)->len == 33)
		job->cls = "create_hyper_parameter_tuning_job";
	ep = smp__pyval_get(call, "entry_point", 11);
	if (ep && ep->kind == SMP_PV_STR)
		job->entry = smp__arena_strndup(s->arena, ep->text, ep->len);
	/* client.create_training_job(**request): named by its request */
	if (cls == SMP_PYCLS_CLIENT && op_is(s, callee + 1, "(") &&
	    op_is(s, callee + 2, "**") &&
	    tok(s, callee + 3)->kind == SMP_PYTOK_NAME &&
	    op_is(s, callee + 4, ")")) {
		const struct smp_pytoken *t = tok(s, callee + 3);

		job->name = smp__arena_strndup(s->arena, s->ev.buf + t->off,
					       t->len);
		if (!job->name)
			s->oom = 1;
	}
	cc = smp__pyval_get(call, "compiler_config", 15);
	job->compiled = cc && cc->kind != SMP_PV_NONE;
	if (ev->job_region && ev->job_region->kind != SMP_PV_NONE) {
		job->region = smp__pyval_node(ev, s->arena, ev->job_region);
		if (!job->region)
			s->oom = 1;
	}
	return (long)out->count++;
}

/* Names the job v was made by after the variable t it is bound to. */
static void
name_job(struct scan *s, const struct smp_pyval *v, size_t t)
{
	const struct smp_pytoken *x = tok(s, t);
	struct smp_pysrc_job *job;

	if (v->kind != SMP_PV_OBJECT || v->job < 0 ||
	    (size_t)v->job >= s->out->count || x->kind != SMP_PYTOK_NAME)
		return;
	job = &s->out->jobs[v->job];
	if (!job->name) {
		job->name = smp__arena_strndup(s->arena, s->ev.buf + x->off,
					       x->len);
		if (!job->name)
			s->oom = 1;
	}
}

/* ------------------------------------------------------- assignments */

/* The subscripts of a target d[k1][k2]: assigns v at the last one. */
static void
assign_subscript(struct scan *s, size_t from, size_t to, struct smp_pyval *v)
{
	struct smp_pyval *d = smp__pyeval_lookup(
		&s->ev, s->ev.buf + tok(s, from)->off, tok(s, from)->len);
	size_t i = from + 1;

	while (d && i < to && op_is(s, i, "[")) {
		size_t close = tok(s, i)->match, j = i + 1;
		struct smp_pyval *k = smp__pyeval_expr(&s->ev, &j);

		if (j != close || d->kind != SMP_PV_DICT) {
			if (d->kind == SMP_PV_DICT || d->kind == SMP_PV_LIST)
				d->kind = SMP_PV_UNKNOWN;
			return;
		}
		if (close + 1 >= to) {
			if (s->ev.uncertain)
				v = unknown_at(s, from, to);
			if (smp__pyval_set(&s->ev, d, k, v))
				s->oom = s->ev.oom;
			return;
		}
		d = smp__pyval_get(d, k->kind == SMP_PV_STR ? k->text : "",
				   k->kind == SMP_PV_STR ? k->len : 0);
		i = close + 1;
	}
}

/* os.environ[k] = v (os imported as a module under any name): 1 when the
 * target [from, to) is that, and it is done. */
static int
assign_environ(struct scan *s, size_t from, size_t to, struct smp_pyval *v)
{
	const struct smp_pytoken *t = tok(s, from);
	struct smp_pyval *os =
		smp__pyeval_lookup(&s->ev, s->ev.buf + t->off, t->len);
	size_t close, j = from + 4;
	struct smp_pyval *k;

	if (!os || os->kind != SMP_PV_MODULE || os->len != 2 ||
	    memcmp(os->text, "os", 2) != 0 || to < from + 6 ||
	    !op_is(s, from + 1, ".") || !name_is(s, from + 2, "environ") ||
	    !op_is(s, from + 3, "["))
		return 0;
	close = tok(s, from + 3)->match;
	if (close + 1 != to)
		return 0;
	k = smp__pyeval_expr(&s->ev, &j);
	if (j != close)
		k = unknown_at(s, from + 4, close);
	if (s->ev.uncertain)
		v = unknown_at(s, from, to);
	if (smp__pyeval_environ_set(&s->ev, k, v))
		s->oom = s->ev.oom;
	return 1;
}

static void assign(struct scan *s, size_t from, size_t to, struct smp_pyval *v,
		   unsigned depth);

/* a, b = ... and (a, b) = ...: element by element when the count fits */
static void
assign_tuple(struct scan *s, size_t from, size_t to, struct smp_pyval *v,
	     unsigned depth)
{
	size_t starts[64], ends[64], n = 1, i = from, k;

	starts[0] = from;
	while (i < to) {
		if (is_open(s, i)) {
			i = tok(s, i)->match;
		} else if (op_is(s, i, ",") && n < 64) {
			ends[n - 1] = i;
			starts[n++] = i + 1;
		}
		i++;
	}
	ends[n - 1] = to;
	if (starts[n - 1] >= to)
		n--; /* a, b, = ... */
	for (k = 0; k < n; k++) {
		struct smp_pyval *x =
			(v->kind == SMP_PV_TUPLE || v->kind == SMP_PV_LIST) &&
					v->count == n
				? v->items[k]
				: unknown_at(s, starts[k], ends[k]);

		assign(s, starts[k], ends[k], x, depth + 1);
	}
}

/* Binds the target [from, to) to v; depth bounds nested targets. */
static void
assign(struct scan *s, size_t from, size_t to, struct smp_pyval *v,
       unsigned depth)
{
	size_t i;
	int comma = 0;

	if (to <= from || depth > 32)
		return;
	for (i = from; i < to; i++) {
		if (is_open(s, i))
			i = tok(s, i)->match;
		else if (op_is(s, i, ","))
			comma = 1;
	}
	if (comma) {
		assign_tuple(s, from, to, v, depth);
		return;
	}
	if ((op_is(s, from, "(") || op_is(s, from, "[")) &&
	    tok(s, from)->match == to - 1) {
		assign_tuple(s, from + 1, to - 1, v, depth);
		return;
	}
	if (op_is(s, from, "*")) {
		assign(s, from + 1, to, unknown_at(s, from, to), depth + 1);
		return;
	}
	if (tok(s, from)->kind != SMP_PYTOK_NAME)
		return;
	if (to == from + 1) {
		name_job(s, v, from);
		bind_tok(s, from,
			 s->ev.uncertain ? unknown_at(s, from, to) : v);
		return;
	}
	if (op_is(s, from + 1, "["))
		assign_subscript(s, from, to, v);
	else
		assign_environ(s, from, to, v);
	/* another attribute (obj.x = v): not followed */
}

static const char *const aug_ops[] = {
	"+=", "-=", "*=", "/=",  "//=", "%=", "**=",
	"|=", "&=", "^=", ">>=", "<<=", "@=", NULL};

/* One simple statement. */
static void
simple(struct scan *s, const struct smp_pystmt *st)
{
	size_t eqs[32], neq = 0, j, k, ann = 0, i = st->first, end = st->end;
	struct smp_pyval *v;

	if (end <= i)
		return;
	s->ev.at = i;
	if (name_is(s, i, "import") || name_is(s, i, "from")) {
		stmt_import(s, st);
		return;
	}
	if (name_is(s, i, "return") || name_is(s, i, "await")) {
		j = i + 1;
		if (j < end)
			smp__pyeval_exprlist(&s->ev, &j);
		return;
	}
	if (name_is(s, i, "pass") || name_is(s, i, "del") ||
	    name_is(s, i, "global") || name_is(s, i, "nonlocal") ||
	    name_is(s, i, "assert") || name_is(s, i, "raise") ||
	    name_is(s, i, "break") || name_is(s, i, "continue") ||
	    name_is(s, i, "yield"))
		return;
	for (j = i; j < end; j++) {
		if (is_open(s, j)) {
			j = tok(s, j)->match;
			continue;
		}
		if (op_is(s, j, "=") && neq < 32)
			eqs[neq++] = j;
		if (op_is(s, j, ":") && !neq && !ann)
			ann = j;
		for (k = 0; !neq && aug_ops[k]; k++)
			if (op_is(s, j, aug_ops[k])) {
				struct smp_pyval *cur, *rhs;
				char op[4];
				size_t n = strlen(aug_ops[k]) - 1, r = j + 1;
				size_t c = i;

				memcpy(op, aug_ops[k], n);
				op[n] = '\0';
				rhs = smp__pyeval_exprlist(&s->ev, &r);

				cur = smp__pyeval_expr(&s->ev, &c);
				if (c == j) {
					v = smp__pyeval_binop(&s->ev, op, cur,
							      rhs, i, end);
					/* += on a list or dict mutates it */
					if (cur->kind == SMP_PV_LIST ||
					    cur->kind == SMP_PV_DICT)
						cur->kind = SMP_PV_UNKNOWN;
					assign(s, i, j, v, 0);
				} else {
					assign(s, i, j, unknown_at(s, i, end),
					       0);
				}
				return;
			}
	}
	if (!neq) {
		j = i;
		if (ann && annotation_slip(s, i, ann, end))
			note(s, SMP_PYNOTE_ANNOTATION, i, end, NULL, 0);
		if (ann)
			return; /* x: int */
		smp__pyeval_exprlist(&s->ev, &j);
		return;
	}
	j = eqs[neq - 1] + 1;
	v = smp__pyeval_exprlist(&s->ev, &j);
	if (ann && ann < eqs[0])
		assign(s, i, ann, v, 0); /* x: int = 5 */
	else
		assign(s, i, eqs[0], v, 0);
	for (k = 1; k < neq; k++)
		assign(s, eqs[k - 1] + 1, eqs[k], v, 0);
}

/* The simple statements on a header's line from statement k: returns
 * the last one's index. */
static size_t
simple_line(struct scan *s, size_t k)
{
	while (k < s->m.nstmts && s->m.stmts[k].same_line &&
	       s->m.stmts[k].kind == SMP_PYSTMT_SIMPLE)
		simple(s, &s->m.stmts[k++]);
	return k - 1;
}

/* ------------------------------------------------------------ blocks */

static int
push_block(struct scan *s, enum block_kind kind)
{
	if (s->nblocks >= sizeof(s->blocks) / sizeof(s->blocks[0]))
		return -1;
	s->blocks[s->nblocks].kind = kind;
	s->blocks[s->nblocks].mark = s->ev.nenv;
	s->nblocks++;
	if (kind == BLOCK_COND)
		s->ev.uncertain++;
	return 0;
}

static void
pop_block(struct scan *s)
{
	struct block *b;

	if (!s->nblocks)
		return;
	b = &s->blocks[--s->nblocks];
	if (b->kind == BLOCK_COND)
		s->ev.uncertain--;
	if (b->kind == BLOCK_SCOPE)
		smp__pyeval_truncate(&s->ev, b->mark);
}

/* if __name__ == "__main__": runs when the launcher runs */
static int
is_main_guard(const struct scan *s, size_t i, size_t colon)
{
	const char *body;
	size_t blen;
	struct smp_pytok t;

	if (colon != i + 4 || !name_is(s, i + 1, "__name__") ||
	    !op_is(s, i + 2, "==") || tok(s, i + 3)->kind != SMP_PYTOK_STRING)
		return 0;
	memset(&t, 0, sizeof(t));
	t.kind = SMP_PYTOK_STRING;
	t.flags = tok(s, i + 3)->flags;
	t.off = tok(s, i + 3)->off;
	t.len = tok(s, i + 3)->len;
	return smp__pystr_body(&t, s->ev.buf, &body, &blen) && blen == 8 &&
	       memcmp(body, "__main__", 8) == 0;
}

/*
 * A compound statement's header at i: what its block is, with the names
 * it binds (for targets, with ... as, except ... as, parameters) bound to
 * unknown; *kind gets the block kind.
 */
static void
header(struct scan *s, const struct smp_pystmt *st, enum block_kind *kind,
       int *scope_params, size_t *pfrom, size_t *pto)
{
	size_t i = st->first, colon = st->colon, k;

	s->ev.at = i;

	*scope_params = 0;
	if (name_is(s, i, "async"))
		i++;
	if (name_is(s, i, "def") || name_is(s, i, "class")) {
		*kind = BLOCK_SCOPE;
		*scope_params = name_is(s, i, "def");
		if (op_is(s, i + 2, "(")) {
			*pfrom = i + 3;
			*pto = tok(s, i + 2)->match;
		} else {
			*pfrom = *pto = i;
		}
		/* the function's name is bound: calls of it are unknown */
		bind_tok(s, i + 1, unknown_at(s, i + 1, i + 2));
	} else if (name_is(s, i, "if")) {
		*kind = is_main_guard(s, i, colon) ? BLOCK_PLAIN : BLOCK_COND;
		k = i + 1;
		smp__pyeval_expr(&s->ev, &k); /* jobs in a condition */
	} else if (name_is(s, i, "try") || name_is(s, i, "finally")) {
		*kind = BLOCK_PLAIN;
	} else if (name_is(s, i, "with")) {
		*kind = BLOCK_PLAIN;
		for (k = i + 1; k < colon; k++) {
			if (is_open(s, k))
				k = tok(s, k)->match;
			else if (name_is(s, k, "as")) {
				size_t e = k + 1;

				while (e < colon && !op_is(s, e, ","))
					e++;
				bind_names_unknown(s, k + 1, e, 0);
			}
		}
	} else {
		/* elif, else, for, while, except, match, case */
		*kind = BLOCK_COND;
		if (name_is(s, i, "for")) {
			for (k = i + 1; k < colon && !name_is(s, k, "in"); k++)
				;
			bind_names_unknown(s, i + 1, k, 0);
		} else if (name_is(s, i, "except")) {
			for (k = i + 1; k < colon && !name_is(s, k, "as"); k++)
				;
			bind_names_unknown(s, k, colon, 0);
		}
	}
}

/* The variables set outside the Python (%env) before offset off. */
static void
set_env_before(struct scan *s, size_t off)
{
	while (s->env_done < s->nenv && s->env[s->env_done].at <= off) {
		const struct smp_pysrc_env *e = &s->env[s->env_done++];

		if (smp__pyeval_setenv(&s->ev, e->name, e->name_len, e->value,
				       e->value_len, e->start, e->end))
			break;
	}
}

static void
walk(struct scan *s)
{
	size_t k, d, pfrom = 0, pto = 0;
	int pending = 0, params = 0;
	enum block_kind kind = BLOCK_PLAIN;

	/* past the jobs kept, what follows changes none of them: a job's
	 * nodes are made when its call is evaluated */
	for (k = 0; k < s->m.nstmts && !s->oom && !s->ev.oom &&
		    !s->ev.limited && s->out->count < MAX_JOBS;
	     k++) {
		const struct smp_pystmt *st = &s->m.stmts[k];

		for (d = 0; d < st->dedents; d++)
			pop_block(s);
		if (st->indent) {
			push_block(s, pending ? kind : BLOCK_PLAIN);
			if (pending && params)
				bind_names_unknown(s, pfrom, pto, 1);
		}
		pending = 0;
		set_env_before(s, s->m.toks[st->first].off);
		if (st->kind == SMP_PYSTMT_DECORATOR)
			continue;
		if (st->kind == SMP_PYSTMT_SIMPLE) {
			simple(s, st);
			continue;
		}
		header(s, st, &kind, &params, &pfrom, &pto);
		if (k + 1 >= s->m.nstmts || !s->m.stmts[k + 1].same_line) {
			pending = 1;
			continue;
		}
		/* a body on the header's line: if x: y = 1 */
		if (push_block(s, kind) == 0) {
			if (params)
				bind_names_unknown(s, pfrom, pto, 1);
			k = simple_line(s, k + 1);
			pop_block(s);
		} else {
			k = simple_line(s, k + 1);
		}
	}
}

/* ------------------------------------------------- assumed imports */

/* The SDK classes a documentation snippet uses without importing them. */
static const struct {
	const char *name, *path;
} sdk_names[] = {
	{"PyTorch", "sagemaker.pytorch.PyTorch"},
	{"HuggingFace", "sagemaker.huggingface.HuggingFace"},
	{"TensorFlow", "sagemaker.tensorflow.TensorFlow"},
	{"TrainingCompilerConfig",
	 "sagemaker.training_compiler.config.TrainingCompilerConfig"},
};

#define NSDK (sizeof(sdk_names) / sizeof(sdk_names[0]))

/*
 * For each SDK name: its first call, when name is used only as a call of
 * a plain name (never defined, assigned, imported or an attribute) and
 * nothing is imported with '*': then it can only be the SDK's class, so
 * that a snippet such as the documentation's reads as it is meant. Else
 * SIZE_MAX. One pass over the tokens for all the names.
 */
static void
unambiguous(const struct scan *s, size_t first[NSDK])
{
	size_t k, j, len[NSDK];
	int bad[NSDK];

	for (j = 0; j < NSDK; j++) {
		len[j] = strlen(sdk_names[j].name);
		first[j] = (size_t)-1;
		bad[j] = smp__pym_binding(&s->m, sdk_names[j].name, len[j],
					  (size_t)-1) != NULL;
	}
	for (k = 0; k + 1 < s->m.ntoks; k++) {
		const struct smp_pytoken *t = tok(s, k);

		if (t->kind != SMP_PYTOK_NAME)
			continue;
		if (t->code == SMP_PYKW_IMPORT && op_is(s, k + 1, "*")) {
			for (j = 0; j < NSDK; j++)
				bad[j] = 1;
			break;
		}
		for (j = 0; j < NSDK; j++) {
			if (bad[j] || t->len != len[j] ||
			    memcmp(s->m.buf + t->off, sdk_names[j].name,
				   len[j]) != 0)
				continue;
			if (!op_is(s, k + 1, "(") ||
			    (k && (op_is(s, k - 1, ".") ||
				   name_is(s, k - 1, "def") ||
				   name_is(s, k - 1, "class"))))
				bad[j] = 1;
			else if (first[j] == (size_t)-1)
				first[j] = k;
		}
	}
	for (j = 0; j < NSDK; j++)
		if (bad[j])
			first[j] = (size_t)-1;
}

/* Binds the SDK names a snippet uses without imports; *first gets the
 * first use, and the names go to names[0..cap). Returns how many. */
static size_t
assume_imports(struct scan *s, size_t *first, char *names, size_t cap)
{
	size_t k, n = 0, used = 0, ats[NSDK];

	*first = (size_t)-1;
	names[0] = '\0';
	unambiguous(s, ats);
	for (k = 0; k < NSDK; k++) {
		size_t at = ats[k];
		const char *path = sdk_names[k].path;
		int w;

		if (at == (size_t)-1)
			continue;
		if (smp__pyeval_bind(&s->ev, sdk_names[k].name,
				     strlen(sdk_names[k].name),
				     smp__pyval_module(&s->ev, path,
						       strlen(path), at))) {
			s->oom = 1;
			return 0;
		}
		if (at < *first)
			*first = at;
		w = snprintf(names + used, cap - used, "%s'%s'", n ? ", " : "",
			     sdk_names[k].name);
		if (w > 0 && (size_t)w < cap - used)
			used += (size_t)w;
		n++;
	}
	return n;
}

int
smp__pysrc_scan(struct smp_pysrc *out, struct smp_arena *arena,
		const struct smp_allocator *a, const struct smp_hashkey *key,
		const char *buf, size_t len)
{
	return smp__pysrc_scan_env(out, arena, a, key, buf, len, NULL, 0);
}

int
smp__pysrc_scan_env(struct smp_pysrc *out, struct smp_arena *arena,
		    const struct smp_allocator *a,
		    const struct smp_hashkey *key, const char *buf, size_t len,
		    const struct smp_pysrc_env *env, size_t nenv)
{
	struct scan s;
	int rc = 0;
	size_t assumed, first;
	char names[128];

	memset(out, 0, sizeof(*out));
	memset(&s, 0, sizeof(s));
	s.env = env;
	s.nenv = nenv;
	s.out = out;
	s.arena = arena;
	if (smp__pymodel_build(&s.m, a, buf, len))
		return SMP_ENOMEM;
	if (s.m.syntax) {
		out->syntax = 1;
		out->err_at = s.m.err_at;
		snprintf(out->err, sizeof(out->err), "%s", s.m.err);
	} else {
		smp__pyeval_init(&s.ev, a, &s.m, key);
		s.ev.on_job = on_job;
		s.ev.on_type_error = on_type_error;
		assumed = assume_imports(&s, &first, names, sizeof(names));
		walk(&s);
		if (assumed && out->count)
			note(&s, SMP_PYNOTE_ASSUMED, first, first + 1, names,
			     strlen(names));
		if (s.m.cut) {
			struct smp_pysrc_note *n =
				note(&s, SMP_PYNOTE_LIMIT, s.m.ntoks - 1,
				     s.m.ntoks, "", 0);

			if (n)
				n->tokens = SMP_PYMODEL_MAX_TOKENS;
		}
		if (s.ev.limited) {
			struct smp_pysrc_note *n =
				note(&s, SMP_PYNOTE_LIMIT, s.ev.limit_at,
				     s.ev.limit_at + 1, "", 0);

			if (n)
				n->budget = s.ev.budget;
		}
		if (s.ev.oom && s.ev.arena.total + 64 < s.ev.budget)
			rc = SMP_ENOMEM; /* a real failure, not the budget */
		if (s.oom)
			rc = SMP_ENOMEM;
		smp__pyeval_release(&s.ev);
	}
	smp__pymodel_release(&s.m);
	return rc;
}
