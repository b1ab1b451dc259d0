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

enum block_kind { BLOCK_PLAIN, BLOCK_COND, BLOCK_SCOPE };

struct block {
	enum block_kind kind;
	size_t mark; /* BLOCK_SCOPE: the environment before the body */
};

struct scan {
	struct smp_pyeval ev;
	struct smp_pysrc *out;
	struct smp_arena *arena;
	struct smp_pytoken *toks;
	size_t ntoks, cap;
	struct block blocks[SMP_PYTOK_MAX_INDENT + 2];
	size_t nblocks;
	int oom;
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

/* ------------------------------------------------------------ tokens */

static void
syntax(struct scan *s, const struct smp_pos *at, const char *msg)
{
	if (s->out->syntax)
		return;
	s->out->syntax = 1;
	s->out->err_at = *at;
	snprintf(s->out->err, sizeof(s->out->err), "%s", msg);
}

static int
push_tok(struct scan *s, const struct smp_pytok *t,
	 const struct smp_allocator *a)
{
	void *items = s->toks;
	struct smp_pytoken *x;

	if (smp__grow(a, &items, &s->cap, s->ntoks + 1, sizeof(*s->toks)))
		return -1;
	s->toks = items;
	x = &s->toks[s->ntoks++];
	x->kind = t->kind;
	x->flags = t->flags;
	x->off = t->off;
	x->len = t->len;
	x->start = t->start;
	x->end = t->end;
	x->match = s->ntoks - 1;
	return 0;
}

/*
 * Tokenizes buf, matching brackets; what CPython's tokenizer rejects
 * (a stray character, an unterminated string, unbalanced brackets) is a
 * syntax error at its position.
 */
static int
tokenize(struct scan *s, const struct smp_allocator *a, const char *buf,
	 size_t len)
{
	struct smp_pytok_state st;
	struct smp_pytok t;
	size_t *stack = NULL, sp = 0, cap = 0;
	int rc = 0;

	smp__pytok_init(&st, buf, len);
	for (;;) {
		smp__pytok_next(&st, &t);
		if (t.kind == SMP_PYTOK_COMMENT)
			continue;
		if (t.kind == SMP_PYTOK_ERROR)
			syntax(s, &t.start,
			       t.len && buf[t.off] == '\\'
				       ? "unexpected character after line "
					 "continuation character"
				       : "invalid character in Python source");
		if (t.kind == SMP_PYTOK_STRING &&
		    (t.flags & SMP_PYSTR_UNTERMINATED))
			syntax(s, &t.start,
			       t.flags & SMP_PYSTR_TRIPLE
				       ? "unterminated triple-quoted string "
					 "literal"
				       : "unterminated string literal");
		if (push_tok(s, &t, a)) {
			rc = -1;
			break;
		}
		if (t.kind == SMP_PYTOK_OP && t.len == 1 &&
		    strchr("([{", buf[t.off])) {
			void *items = stack;

			if (smp__grow(a, &items, &cap, sp + 1,
				      sizeof(size_t))) {
				rc = -1;
				break;
			}
			stack = items;
			stack[sp++] = s->ntoks - 1;
		} else if (t.kind == SMP_PYTOK_OP && t.len == 1 &&
			   strchr(")]}", buf[t.off])) {
			static const char pairs[] = "()[]{}";
			size_t o;

			char msg[80];

			if (!sp) {
				snprintf(msg, sizeof(msg), "unmatched '%c'",
					 buf[t.off]);
				syntax(s, &t.start, msg);
				continue;
			}
			o = stack[--sp];
			if (strchr(pairs, buf[s->toks[o].off])[1] !=
			    buf[t.off]) {
				snprintf(msg, sizeof(msg),
					 "closing parenthesis '%c' does not "
					 "match opening parenthesis '%c'",
					 buf[t.off], buf[s->toks[o].off]);
				syntax(s, &t.start, msg);
			}
			s->toks[o].match = s->ntoks - 1;
			s->toks[s->ntoks - 1].match = o;
		}
		if (t.kind == SMP_PYTOK_END)
			break;
	}
	if (!rc && sp) {
		char msg[40];

		snprintf(msg, sizeof(msg), "'%c' was never closed",
			 buf[s->toks[stack[0]].off]);
		syntax(s, &s->toks[stack[0]].start, msg);
		/* close them at the end so that nothing reads past it */
		while (sp)
			s->toks[stack[--sp]].match = s->ntoks - 1;
	}
	smp__free(a, stack);
	return rc;
}

/* ----------------------------------------------------------- helpers */

static const struct smp_pytoken *
tok(const struct scan *s, size_t i)
{
	return &s->toks[i < s->ntoks ? i : s->ntoks - 1];
}

static int
op_is(const struct scan *s, size_t i, const char *op)
{
	const struct smp_pytoken *t = tok(s, i);

	return t->kind == SMP_PYTOK_OP && t->len == strlen(op) &&
	       memcmp(s->ev.buf + t->off, op, t->len) == 0;
}

static int
name_is(const struct scan *s, size_t i, const char *name)
{
	const struct smp_pytoken *t = tok(s, i);

	return t->kind == SMP_PYTOK_NAME && t->len == strlen(name) &&
	       memcmp(s->ev.buf + t->off, name, t->len) == 0;
}

static int
is_open(const struct scan *s, size_t i)
{
	return op_is(s, i, "(") || op_is(s, i, "[") || op_is(s, i, "{");
}

static int
line_end(const struct scan *s, size_t i)
{
	enum smp_pytok_kind k = tok(s, i)->kind;

	return k == SMP_PYTOK_NEWLINE || k == SMP_PYTOK_END;
}

/* The end of the simple statement at i: its ';' or NEWLINE. */
static size_t
stmt_end(const struct scan *s, size_t i)
{
	while (!line_end(s, i) && !op_is(s, i, ";")) {
		if (is_open(s, i))
			i = tok(s, i)->match;
		i++;
	}
	return i;
}

/* The ':' that ends a compound statement's header, or its line end. */
static size_t
header_colon(const struct scan *s, size_t i)
{
	int lambda = 0;

	while (!line_end(s, i)) {
		if (is_open(s, i))
			i = tok(s, i)->match;
		else if (name_is(s, i, "lambda"))
			lambda++;
		else if (op_is(s, i, ":")) {
			if (!lambda)
				return i;
			lambda--;
		}
		i++;
	}
	return i;
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

/* A dotted name at *i ("sagemaker.huggingface") as an arena string. */
static const char *
dotted(struct scan *s, size_t *i, size_t *len)
{
	size_t from = *i, n = 0, k;
	char *p;

	while (tok(s, *i)->kind == SMP_PYTOK_NAME) {
		n += tok(s, *i)->len + 1;
		(*i)++;
		if (!op_is(s, *i, "."))
			break;
		(*i)++;
	}
	if (!n)
		return NULL;
	p = smp__arena_alloc(&s->ev.arena, n);
	if (!p) {
		s->oom = 1;
		return NULL;
	}
	*len = 0;
	for (k = from; k < *i; k++) {
		const struct smp_pytoken *t = tok(s, k);

		if (t->kind != SMP_PYTOK_NAME)
			continue;
		if (*len)
			p[(*len)++] = '.';
		memcpy(p + *len, s->ev.buf + t->off, t->len);
		*len += t->len;
	}
	p[*len] = '\0';
	return p;
}

static struct smp_pyval *
module(struct scan *s, const char *path, size_t len, size_t at)
{
	return path ? smp__pyval_module(&s->ev, path, len, at)
		    : unknown_at(s, at, at + 1);
}

/* import a.b.c [as x], ... */
static void
stmt_import(struct scan *s, size_t i, size_t end)
{
	i++;
	while (i < end) {
		size_t first = i, len = 0;
		const char *path = dotted(s, &i, &len);

		if (!path)
			break;
		if (name_is(s, i, "as") &&
		    tok(s, i + 1)->kind == SMP_PYTOK_NAME) {
			bind_tok(s, i + 1, module(s, path, len, first));
			i += 2;
		} else {
			/* import a.b binds a */
			bind_tok(s, first,
				 module(s, path, tok(s, first)->len, first));
		}
		if (!op_is(s, i, ","))
			break;
		i++;
	}
}

/* from a.b import X [as Y], (...) */
static void
stmt_from(struct scan *s, size_t i, size_t end)
{
	size_t len = 0, plen;
	const char *base;
	int relative = 0;

	i++;
	while (op_is(s, i, ".") || op_is(s, i, "...")) {
		relative = 1;
		i++;
	}
	base = dotted(s, &i, &len);
	if (!name_is(s, i, "import"))
		return;
	i++;
	if (op_is(s, i, "("))
		i++;
	while (i < end && tok(s, i)->kind == SMP_PYTOK_NAME) {
		size_t name = i, bindat = i;
		const struct smp_pytoken *t = tok(s, i);
		char *p;

		i++;
		if (name_is(s, i, "as") &&
		    tok(s, i + 1)->kind == SMP_PYTOK_NAME) {
			bindat = i + 1;
			i += 2;
		}
		if (relative || !base) {
			bind_tok(s, bindat, unknown_at(s, name, name + 1));
		} else {
			plen = len + 1 + t->len;
			p = smp__arena_alloc(&s->ev.arena, plen + 1);
			if (!p) {
				s->oom = 1;
				return;
			}
			memcpy(p, base, len);
			p[len] = '.';
			memcpy(p + len + 1, s->ev.buf + t->off, t->len);
			p[plen] = '\0';
			bind_tok(s, bindat, module(s, p, plen, name));
		}
		if (!op_is(s, i, ","))
			break;
		i++;
	}
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
	struct smp_node *n = smp__arena_zalloc(arena, sizeof(*n));

	if (!n)
		return NULL;
	n->kind = SMP_NODE_SCALAR;
	n->start = start;
	n->end = end;
	n->u.scalar.value = smp__arena_strndup(arena, text, strlen(text));
	n->u.scalar.len = strlen(text);
	n->u.scalar.style = SMP_STYLE_PLAIN;
	return n->u.scalar.value ? n : NULL;
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
	if (out->count >= 1000)
		return -1; /* a generated file: the first thousand suffice */
	if (out->count == out->cap) {
		size_t cap = out->cap ? out->cap * 2 : 4;
		struct smp_pysrc_job *jobs =
			smp__arena_zalloc(s->arena, cap * sizeof(*jobs));

		if (!jobs) {
			s->oom = 1;
			return -1;
		}
		if (out->count)
			memcpy(jobs, out->jobs, out->count * sizeof(*jobs));
		out->jobs = jobs;
		out->cap = cap;
	}
	root = mapping(s->arena, call->count + 1, call);
	if (!root) {
		s->oom = 1;
		return -1;
	}
	if (named) {
		const struct smp_pytoken *t = tok(s, callee);
		struct smp_pair *p = &root->u.mapping.items[n++];

		p->key = text_node(s->arena, "estimator", t->start, t->end);
		p->value =
			text_node(s->arena, class_name(cls), t->start, t->end);
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
	/* an attribute (obj.x = v): not followed */
}

static const char *const aug_ops[] = {
	"+=", "-=", "*=", "/=",  "//=", "%=", "**=",
	"|=", "&=", "^=", ">>=", "<<=", "@=", NULL};

/* One simple statement [i, end). */
static void
simple(struct scan *s, size_t i, size_t end)
{
	size_t eqs[32], neq = 0, j, k, ann = 0;
	struct smp_pyval *v;

	if (name_is(s, i, "import")) {
		stmt_import(s, i, end);
		return;
	}
	if (name_is(s, i, "from")) {
		stmt_from(s, i, end);
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

/* The simple statements of a line, from i to its NEWLINE. */
static size_t
simple_line(struct scan *s, size_t i)
{
	while (!line_end(s, i)) {
		size_t end = stmt_end(s, i);

		if (end > i)
			simple(s, i, end);
		i = end;
		if (op_is(s, i, ";"))
			i++;
	}
	return i;
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
 * unknown. Returns the token after its ':'; *kind gets the block kind.
 */
static size_t
header(struct scan *s, size_t i, enum block_kind *kind, int *scope_params,
       size_t *pfrom, size_t *pto)
{
	size_t colon = header_colon(s, i), k;

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
	return line_end(s, colon) ? colon : colon + 1;
}

static int
is_compound(const struct scan *s, size_t i)
{
	static const char *const kw[] = {"if",    "elif", "else",   "for",
					 "while", "try",  "except", "finally",
					 "with",  "def",  "class",  NULL};
	size_t k;

	if (name_is(s, i, "async") &&
	    (name_is(s, i + 1, "def") || name_is(s, i + 1, "for") ||
	     name_is(s, i + 1, "with")))
		return 1;
	for (k = 0; kw[k]; k++)
		if (name_is(s, i, kw[k]))
			return 1;
	/* soft keywords: match x: / case y: */
	if ((name_is(s, i, "match") || name_is(s, i, "case")) &&
	    tok(s, i + 1)->kind != SMP_PYTOK_OP) {
		size_t c = header_colon(s, i);

		return !line_end(s, c) && line_end(s, c + 1);
	}
	return 0;
}

static void
walk(struct scan *s)
{
	size_t i = 0;
	int pending = 0, params = 0;
	enum block_kind kind = BLOCK_PLAIN;
	size_t pfrom = 0, pto = 0;

	while (i < s->ntoks && !s->oom && !s->ev.oom) {
		const struct smp_pytoken *t = tok(s, i);

		if (t->kind == SMP_PYTOK_END)
			break;
		if (t->kind == SMP_PYTOK_NEWLINE) {
			i++;
			continue;
		}
		if (t->kind == SMP_PYTOK_INDENT) {
			push_block(s, pending ? kind : BLOCK_PLAIN);
			if (pending && params)
				bind_names_unknown(s, pfrom, pto, 1);
			pending = 0;
			i++;
			continue;
		}
		if (t->kind == SMP_PYTOK_DEDENT) {
			pop_block(s);
			i++;
			continue;
		}
		pending = 0;
		if (op_is(s, i, "@")) {
			/* a decorator line */
			while (!line_end(s, i))
				i++;
			continue;
		}
		if (is_compound(s, i)) {
			size_t body =
				header(s, i, &kind, &params, &pfrom, &pto);

			if (line_end(s, body)) {
				pending = 1;
				i = body;
				continue;
			}
			/* a body on the header's line: if x: y = 1 */
			if (push_block(s, kind) == 0) {
				if (params)
					bind_names_unknown(s, pfrom, pto, 1);
				i = simple_line(s, body);
				pop_block(s);
			} else {
				i = simple_line(s, body);
			}
			continue;
		}
		i = simple_line(s, i);
	}
}

int
smp__pysrc_scan(struct smp_pysrc *out, struct smp_arena *arena,
		const struct smp_allocator *a, const char *buf, size_t len)
{
	struct scan s;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	memset(&s, 0, sizeof(s));
	s.out = out;
	s.arena = arena;
	if (tokenize(&s, a, buf, len)) {
		smp__free(a, s.toks);
		return SMP_ENOMEM;
	}
	if (!out->syntax) {
		smp__pyeval_init(&s.ev, a, buf, len, s.toks, s.ntoks);
		s.ev.on_job = on_job;
		walk(&s);
		if (s.ev.oom && s.ev.arena.total + 64 < s.ev.budget)
			rc = SMP_ENOMEM; /* a real failure, not the budget */
		if (s.oom)
			rc = SMP_ENOMEM;
		smp__pyeval_release(&s.ev);
	}
	smp__free(a, s.toks);
	return rc;
}
