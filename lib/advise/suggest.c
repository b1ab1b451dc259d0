/*
 * suggest.c - `sm-preflight suggest`: a batch size and learning rate for
 * a job from the tested-models table (README "Suggestions"), with the
 * arithmetic shown and the changed spec fragment ready to paste. The spec
 * is checked by the usual pipeline; a hook computes the suggestion while
 * the job's nodes are alive and copies what it keeps into its own arena.
 * Where no tested row applies the suggestion says so and invents nothing.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules/check.h"
#include "context/context.h"
#include "doc/load.h"
#include "util/read_file.h"
#include "util/error.h"
#include "util/buf.h"
#include "util/text.h"
#include "util/options_version.h"
#include "tune/tune.h"
#include "emit/out.h"
#include "fix/edit.h"
#include "advise/diagnose.h"

struct suggestion {
	struct smp_suggestion pub; /* first: the caller's pointer */
	struct smp_tested_row row;
	struct smp_suggest_side now, next; /* pub.now and pub.next */
	struct smp_arena arena;
	struct smp_report *report;
	const struct smp_allocator *alloc;
	int failed; /* an arena allocation failed */
};

struct change;

struct run {
	struct suggestion *s;
	struct change *change;         /* the spec's change, made in the hook */
	const struct smp_instance *to; /* NULL: stay on the job's type */
	int json;                      /* the spec is JSON */
	size_t jobs;
};

static const char *
dup(struct suggestion *s, const char *text)
{
	char *p;

	if (!text)
		return NULL;
	p = smp__arena_strndup(&s->arena, text, strlen(text));
	if (!p)
		s->failed = 1;
	return p;
}

/* a fragment, a value or the notes: longer ones are dropped */
#define TEXT_MAX 8192

/* ---- the spec fragment ---- */

#define FRAG_DEPTH 8
#define FRAG_NODES 32

/* A small tree of the keys that change, rendered as YAML or JSON. */
struct frag {
	struct {
		const char *key;
		const char *value; /* leaf value as written, or NULL */
		int child, next;   /* first child, next sibling; -1 none */
	} n[FRAG_NODES];
	int count;
};

/* At most instance type, batch and learning rate change. */
#define PATCHES 4

/* One value the suggestion sets, as a typed patch (JSON Pointer). */
struct patch {
	char pointer[256];
	enum smp_value_type type;
	char value[64];
};

/* What the suggestion changes: the fragment's tree and the patches. */
struct change {
	struct frag frag;
	struct patch patch[PATCHES];
	int count;
};

/* Path of keys from root's mapping down to node; depth or -1. */
static int
path_of(const struct smp_node *m, const struct smp_node *node,
	const char **segs, int depth)
{
	size_t i;
	int d;

	if (!m || m->kind != SMP_NODE_MAPPING || depth >= FRAG_DEPTH)
		return -1;
	for (i = 0; i < m->u.mapping.count; i++) {
		const struct smp_pair *p = &m->u.mapping.items[i];

		if (p->key->kind != SMP_NODE_SCALAR)
			continue;
		segs[depth] = p->key->u.scalar.value;
		if (smp__node_same(p->value, node))
			return depth + 1;
		d = path_of(p->value, node, segs, depth + 1);
		if (d > 0)
			return d;
	}
	return -1;
}

/* Adds segs[0..n) = value to the tree (node 0 is the root). */
static void
frag_put(struct frag *f, const char *const *segs, int n, const char *value)
{
	int at = 0, i, c, last;

	for (i = 0; i < n; i++) {
		last = -1;
		for (c = f->n[at].child; c >= 0; c = f->n[c].next) {
			if (strcmp(f->n[c].key, segs[i]) == 0)
				break;
			last = c;
		}
		if (c < 0) {
			if (f->count >= FRAG_NODES)
				return;
			c = f->count++;
			f->n[c].key = segs[i];
			f->n[c].value = NULL;
			f->n[c].child = -1;
			f->n[c].next = -1;
			if (last < 0)
				f->n[at].child = c;
			else
				f->n[last].next = c;
		}
		at = c;
	}
	f->n[at].value = value;
}

static int
plain_key(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_-./", *s))
			return 0;
	return 1;
}

static void
frag_yaml(struct smp_buf *b, const struct frag *f, int at, int depth)
{
	int c;

	for (c = f->n[at].child; c >= 0; c = f->n[c].next) {
		smp__buf_addf(b, "%*s", 2 * depth, "");
		if (plain_key(f->n[c].key))
			smp__buf_adds(b, f->n[c].key);
		else
			smp__buf_json_string(b, f->n[c].key);
		if (f->n[c].value) {
			smp__buf_addf(b, ": %s\n", f->n[c].value);
		} else {
			smp__buf_adds(b, ":\n");
			frag_yaml(b, f, c, depth + 1);
		}
	}
}

static void
frag_json(struct smp_buf *b, const struct frag *f, int at, int depth)
{
	int c;

	smp__buf_adds(b, "{\n");
	for (c = f->n[at].child; c >= 0; c = f->n[c].next) {
		smp__buf_addf(b, "%*s", 2 * (depth + 1), "");
		smp__buf_json_string(b, f->n[c].key);
		smp__buf_adds(b, ": ");
		if (f->n[c].value)
			smp__buf_adds(b, f->n[c].value);
		else
			frag_json(b, f, c, depth + 1);
		smp__buf_addf(b, "%s\n", f->n[c].next >= 0 ? "," : "");
	}
	smp__buf_addf(b, "%*s}", 2 * depth, "");
}

/* Records segs[0..n) = value (written as the spec writes it: text) as
 * a patch and in the fragment's tree. */
static void
change_put(struct suggestion *s, struct change *ch, const char *const *segs,
	   int n, enum smp_value_type type, const char *value, const char *text)
{
	struct patch *p;
	size_t len = 0;
	int i;

	/* text is the caller's buffer: the tree keeps a copy */
	text = dup(s, text);
	if (!text)
		return;
	frag_put(&ch->frag, segs, n, text);
	if (ch->count >= PATCHES)
		return;
	p = &ch->patch[ch->count];
	for (i = 0; i < n; i++)
		smp__pointer_seg(p->pointer, sizeof(p->pointer), &len, segs[i],
				 strlen(segs[i]));
	if (len >= sizeof(p->pointer) ||
	    (size_t)snprintf(p->value, sizeof(p->value), "%s", value) >=
		    sizeof(p->value))
		return;
	p->type = type;
	ch->count++;
}

/* The type a new value of the field at orig takes. */
static enum smp_value_type
number_type(const struct smp_node *orig)
{
	return smp__value_type_like(orig, SMP_VALUE_NUMBER);
}

/* The changed keys of the job in its own names and format. */
static void
make_fragment(struct run *r, const struct smp_check *c,
	      const struct smp_batch_reading *b, const struct smp_pair *lr)
{
	struct suggestion *s = r->s;
	struct change *ch = r->change;
	const char *segs[FRAG_DEPTH + 1];
	char vb[48], vl[48], nb_text[40], nl_text[40];
	char ivmem[TEXT_MAX];
	struct smp_buf iv;
	int n;

	smp__buf_init_fixed(&iv, ivmem, sizeof(ivmem));
	if (r->to && c->job->instance_type && c->instance &&
	    strcmp(r->to->type, c->instance->type) != 0) {
		n = path_of(c->job->root, c->job->instance_type, segs, 0);
		if (n > 0) {
			if (r->json)
				smp__buf_json_string(&iv, r->to->type);
			else
				smp__buf_adds(&iv, r->to->type);
			if (!smp__buf_error(&iv))
				change_put(s, ch, segs, n, SMP_VALUE_STRING,
					   r->to->type, iv.data);
		}
	}
	n = path_of(c->job->root, c->job->hyperparameters, segs, 0);
	if (n > 0 && n < FRAG_DEPTH) {
		double nb = b->scope == SMP_BATCH_GLOBAL
				    ? s->next.global_batch
				    : s->next.batch_per_gpu;

		/* only what changes */
		smp__tune_value(vb, sizeof(vb), b->pair->value, nb);
		smp__tune_number(nb_text, sizeof(nb_text), nb);
		segs[n] = b->pair->key->u.scalar.value;
		if (fabs(nb - b->value) > 1e-9 * b->value)
			change_put(s, ch, segs, n + 1,
				   number_type(b->pair->value), nb_text, vb);
		if (lr && s->next.learning_rate > 0 &&
		    fabs(s->next.learning_rate - s->now.learning_rate) >
			    1e-9 * s->now.learning_rate) {
			smp__tune_value(vl, sizeof(vl), lr->value,
					s->next.learning_rate);
			smp__tune_number(nl_text, sizeof(nl_text),
					 s->next.learning_rate);
			segs[n] = lr->key->u.scalar.value;
			change_put(s, ch, segs, n + 1, number_type(lr->value),
				   nl_text, vl);
		}
	}
}

/* The fragment as text, in the spec's format; NULL when empty. */
static void
render_fragment(struct suggestion *s, const struct frag *f, int json)
{
	char omem[TEXT_MAX];
	struct smp_buf out;

	if (f->n[0].child < 0)
		return;
	smp__buf_init_fixed(&out, omem, sizeof(omem));
	if (json) {
		frag_json(&out, f, 0, 0);
		smp__buf_addc(&out, '\n');
	} else {
		frag_yaml(&out, f, 0, 0);
	}
	if (!smp__buf_error(&out))
		s->pub.fragment = dup(s, out.data);
}

/* 1 when the check of the spec as written had a finding of the rule a
 * fixed: the fix answers the spec, not the move. */
static int
reported(const struct smp_report *rep, const struct smp_fix_applied *a)
{
	size_t i;

	for (i = 0; i < smp_report_count(rep); i++) {
		const struct smp_finding *f = smp_report_get(rep, i);

		if (strcmp(f->rule, a->rule) == 0)
			return 1;
	}
	return 0;
}

static int
edit_cmp(const void *a, const void *b)
{
	const struct smp_fix_edit *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/*
 * Makes the change in buf[0..len) as byte edits of the spec, then lets
 * smp_fix() add the safe fixes the changed job needs (the pytorchxla
 * distribution, GPU_NUM_DEVICES), which join the fragment: what the
 * suggestion prints is what a check accepts.
 */
static int
make_patched(struct suggestion *s, struct run *r, const struct smp_context *ctx,
	     const char *name, const char *buf, size_t len,
	     const struct smp_docs *docs, struct smp_error *err)
{
	struct change *ch = r->change;
	struct smp_fix_edit e[PATCHES];
	struct smp_fix_result *fixed = NULL;
	const struct smp_node *root = NULL;
	struct smp_buf out;
	size_t i, at = 0, n = 0;
	int k, rc;

	for (i = 0; i < docs->count && !root; i++)
		root = docs->items[i].root;
	for (k = 0; k < ch->count && root; k++) {
		struct smp_finding f;

		memset(&f, 0, sizeof(f));
		f.suggestion = ch->patch[k].value;
		f.suggestion_pointer = ch->patch[k].pointer;
		f.suggestion_op = SMP_SUGGESTION_SET;
		f.suggestion_type = ch->patch[k].type;
		rc = smp__fix_edit(&e[n], &s->arena, buf, len, root,
				   docs->is_json ? SMP_FIX_JSON : SMP_FIX_YAML,
				   &f);
		if (rc == 0)
			n++;
		else if (rc != 1)
			return rc;
	}
	if (n == 0)
		return 0;
	qsort(e, n, sizeof(e[0]), edit_cmp);
	smp__buf_init(&out, &ctx->alloc, SMP_BUF_NO_MAX);
	for (i = 0; i < n; i++) {
		if (e[i].start < at)
			continue; /* distinct nodes never overlap */
		smp__buf_add(&out, buf + at, e[i].start - at);
		smp__buf_add(&out, e[i].text, e[i].text_len);
		at = e[i].end;
	}
	smp__buf_add(&out, buf + at, len - at);
	if (smp__buf_error(&out)) {
		smp__buf_free(&out);
		return SMP_ENOMEM;
	}
	rc = smp_fix(&fixed, ctx, name, out.data, out.len, NULL, err);
	smp__buf_free(&out);
	if (rc)
		return rc;
	for (i = 0; i < fixed->applied_count; i++) {
		const struct smp_fix_applied *a = &fixed->applied[i];
		const char *segs[FRAG_DEPTH];
		char *p, *q;
		int depth = 0;

		/* what the spec already needed is check's to say */
		if (reported(s->report, a))
			continue;
		/* the pointer's keys, unescaped (RFC 6901) */
		p = smp__arena_strndup(&s->arena, a->pointer,
				       strlen(a->pointer));
		if (!p) {
			smp_fix_result_free(fixed);
			return SMP_ENOMEM;
		}
		while (*p == '/' && depth < FRAG_DEPTH) {
			char *w;

			*p++ = '\0';
			segs[depth++] = p;
			for (q = w = p; *q && *q != '/'; q++) {
				if (q[0] == '~' && (q[1] == '0' || q[1] == '1'))
					*w++ = *++q == '0' ? '~' : '/';
				else
					*w++ = *q;
			}
			p = q;
			if (w < q)
				*w = '\0';
		}
		/* a new value: "4" quoted as JSON and YAML both read it */
		if (a->type == SMP_VALUE_STRING) {
			char vmem[TEXT_MAX];
			struct smp_buf v;

			smp__buf_init_fixed(&v, vmem, sizeof(vmem));
			smp__buf_json_string(&v, a->value);
			frag_put(&ch->frag, segs, depth, dup(s, v.data));
		} else
			frag_put(&ch->frag, segs, depth, a->value);
	}
	s->pub.patched = smp__arena_strndup(&s->arena, fixed->text, fixed->len);
	s->pub.patched_len = fixed->len;
	if (!s->pub.patched)
		s->failed = 1;
	/* the fix result's strings go with it: copy what the tree keeps */
	for (k = 1; k < ch->frag.count; k++) {
		ch->frag.n[k].key = dup(s, ch->frag.n[k].key);
		ch->frag.n[k].value = dup(s, ch->frag.n[k].value);
	}
	smp_fix_result_free(fixed);
	return 0;
}

/* ---- the suggestion ---- */

static void
side_instance(struct smp_suggest_side *side, struct suggestion *s,
	      const struct smp_instance *it, long long count)
{
	side->instance_type = dup(s, it->type);
	side->gpus = it->gpus;
	side->instance_count = count;
	side->gpu_model = dup(s, it->gpu_model);
	side->gpu_memory_gib = it->gpu_memory_gib;
}

static void
copy_row(struct suggestion *s, const struct smp_catalog *cat,
	 const struct smp_tested_model *m)
{
	struct smp_tested_row *row = &s->row;

	row->framework = dup(s, m->framework);
	row->framework_version = dup(s, m->framework_version);
	row->transformers_version = dup(s, m->transformers_version);
	row->model = dup(s, m->model);
	row->instance_type = dup(s, m->instance_type);
	row->precision = dup(s, m->precision);
	row->sequence_length = m->sequence_length;
	row->instance_count = m->instance_count;
	row->native_batch_size = m->native_batch_size;
	row->compiler_batch_size = m->compiler_batch_size;
	row->batch_size_is_lower_bound = m->batch_size_is_lower_bound;
	row->batch_per_instance = smp__tune_row_per_instance(cat, m);
	row->compiler_batch_per_gpu = smp__tune_row_batch(cat, m);
	s->pub.row = row;
}

/* How a row other than the pick's relates to the job. */
static enum smp_row_relation
row_match_relation(const struct smp_tune_query *q,
		   const struct smp_tested_model *row)
{
	if (strcmp(row->instance_type, q->instance->type) == 0 &&
	    q->framework_version &&
	    strcmp(row->framework_version, q->framework_version) == 0)
		return SMP_ROW_RELATION_EXACT;
	return SMP_ROW_RELATION_SAME_GPU;
}

/* How the row was chosen, for the text and for callers. */
static void
row_choice(struct suggestion *s, const struct smp_check *c,
	   const struct smp_row_pick *pick, const struct smp_instance *on)
{
	const struct smp_pair *seq = smp__tune_seq_hparam(c->job);
	const char *seqname = seq ? seq->key->u.scalar.value : "";
	char text[512];
	struct smp_buf b;

	smp__buf_init_fixed(&b, text, sizeof(text));
	if (pick->match == SMP_ROW_EXACT)
		smp__buf_adds(&b, "exact match: framework, versions, "
				  "model and instance type");
	else if (pick->exact_rows)
		smp__buf_addf(&b,
			      "same model on the same GPU (%s, %g GiB) "
			      "at the sequence length of '%s'; the "
			      "rows for %s itself have another length",
			      on->gpu_model, on->gpu_memory_gib, seqname,
			      on->type);
	else
		smp__buf_addf(&b,
			      "no row for this exact job; the nearest "
			      "for the same model on the same GPU "
			      "(%s, %g GiB) as %s",
			      on->gpu_model, on->gpu_memory_gib, on->type);
	if (pick->candidates > 1) {
		if (pick->seq_matched && pick->seq_mixed && seq)
			smp__buf_addf(
				&b,
				"; of %zu rows, one with the sequence length "
				"of '%s'",
				pick->candidates, seqname);
		else if (pick->by_batch &&
			 (pick->match != SMP_ROW_EXACT || pick->exact_rows > 1))
			smp__buf_addf(
				&b,
				"; of %zu rows of several sequence lengths, "
				"the smallest batch (conservative: the spec "
				"sets no max_seq_length)",
				pick->candidates);
		else if (pick->count_matched)
			smp__buf_addf(
				&b, "; of %zu rows, the one for %d instance%s",
				pick->candidates, pick->row->instance_count,
				pick->row->instance_count == 1 ? "" : "s");
		else if (pick->ties > 1)
			smp__buf_addf(
				&b,
				"; of %zu rows, the smallest batch of the "
				"%zu closest (conservative)",
				pick->candidates, pick->ties);
		else
			smp__buf_addf(&b,
				      "; of %zu rows, the closest to the job",
				      pick->candidates);
	}
	s->pub.row_choice = dup(s, text);
}

static void set_message(struct suggestion *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
set_message(struct suggestion *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	s->pub.message = smp__arena_vprintf(&s->arena, fmt, ap);
	va_end(ap);
	if (!s->pub.message)
		s->failed = 1;
}

static void add_note(struct suggestion *s, struct smp_buf *notes,
		     const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* A line of the notes; notes that do not fit are dropped whole. */
static void
add_note(struct suggestion *s, struct smp_buf *notes, const char *fmt, ...)
{
	va_list ap;

	(void)s;
	va_start(ap, fmt);
	smp__buf_vaddf(notes, fmt, ap);
	va_end(ap);
	smp__buf_addc(notes, '\n');
}

/* "PyTorch 1.11.0, transformers 4.21.1" for messages. */
static void
job_framework(char *out, size_t size, const struct smp_job *job)
{
	const char *fv = smp__node_text(job->framework_version);
	const char *tv = smp__node_text(job->transformers_version);

	snprintf(out, size, "%s%s%s%s%s",
		 smp__framework_title(job->base_framework), fv ? " " : "",
		 fv ? fv : "", tv ? ", transformers " : "", tv ? tv : "");
}

static void
compute(struct run *r, const struct smp_check *c)
{
	struct suggestion *s = r->s;
	struct smp_suggestion *p = &s->pub;
	const struct smp_job *job = c->job;
	const struct smp_instance *now = c->instance;
	const struct smp_instance *to = r->to ? r->to : c->instance;
	const struct smp_pair *model, *lr;
	struct smp_batch_reading b;
	struct smp_tune_query q;
	struct smp_row_pick pick;
	struct smp_tune_target tg;
	char nmem[TEXT_MAX];
	struct smp_buf notes;
	char key[256], text[512], fw[128], kt[32], bt[32], nt[32], lt[32];
	char nl[32], tb[128] = "";
	const char *mname;
	double lrv = 0, nb;
	int moving, have_batch;

	smp__buf_init_fixed(&notes, nmem, sizeof(nmem));
	p->lr_scaling = c->settings->lr_scaling;
	model = smp__tune_model_hparam(c->settings, job);
	if (model) {
		smp__tune_model_text(text, sizeof(text), model->value);
		p->model = dup(s, text);
	}
	s->now.instance_count = job->count > 0 ? job->count : 1;
	if (!now) {
		p->outcome = SMP_SUGGEST_UNAVAILABLE;
		set_message(s,
			    "the instance type is %s, so the GPU count is "
			    "unknown",
			    job->instance_type ? "not in the instance data"
					       : "not given");
		return;
	}
	side_instance(&s->now, s, now, s->now.instance_count);
	if (now->gpus < 1) {
		p->outcome = SMP_SUGGEST_UNAVAILABLE;
		set_message(s,
			    "'%s' has no GPU; Training Compiler trains on "
			    "GPU instances",
			    now->type);
		return;
	}
	moving = r->to && strcmp(r->to->type, now->type) != 0;
	side_instance(&s->next, s, to, s->now.instance_count);
	if (!job->compiler || !job->compiler_enabled)
		add_note(s, &notes,
			 "the job does not turn the compiler on; the tested "
			 "batches are compiler batches");
	have_batch = smp__batch_read(&b, c->settings, job, now->gpus) == 0;
	if (have_batch) {
		p->batch_name = dup(s, smp__batch_key(&b));
		p->batch_is_global = b.scope == SMP_BATCH_GLOBAL;
		smp__batch_describe(text, sizeof(text), &b);
		p->batch_reading = dup(s, text);
		s->now.batch_per_gpu = b.per_gpu;
		s->now.global_batch = b.global;
	}
	lr = smp__hparam(c->settings, job->hyperparameters,
			 SMP_HP_LEARNING_RATE);
	if (lr && smp__node_number(lr->value, &lrv) == 0 && lrv > 0 &&
	    isfinite(lrv)) {
		p->lr_name = dup(s, lr->key->u.scalar.value);
		s->now.learning_rate = lrv;
	} else {
		lr = NULL;
	}
	if (smp__tune_query(&q, key, sizeof(key), c->settings, job, to)) {
		p->outcome = SMP_SUGGEST_UNAVAILABLE;
		if (model)
			set_message(s,
				    "the model '%s' is a path or the framework "
				    "is unknown, so no tested row can be "
				    "looked up",
				    p->model ? p->model : "");
		else
			set_message(s, "the spec names no model in its "
				       "hyperparameters (model_name_or_path, "
				       "model_name, ...), so no tested row "
				       "can be looked up");
		return;
	}
	mname = p->model ? p->model : "";
	smp__tune_pick(&pick, c->cat, &q);
	job_framework(fw, sizeof(fw), job);
	if (pick.row) {
		copy_row(s, c->cat, pick.row);
		smp__tune_row_batch_text(tb, sizeof(tb), c->cat, pick.row);
		p->relation = pick.match == SMP_ROW_EXACT
				      ? SMP_ROW_RELATION_EXACT
				      : SMP_ROW_RELATION_SAME_GPU;
		row_choice(s, c, &pick, to);
	}
	if (!have_batch) {
		p->outcome = SMP_SUGGEST_UNAVAILABLE;
		if (pick.row)
			set_message(s,
				    "the spec sets no batch size (looked for "
				    "%s, ...); the tested compiler batch for "
				    "'%s' on %s is %s",
				    c->settings->hp[SMP_HP_BATCH_SIZE].names[0],
				    mname, to->type, tb);
		else
			set_message(s,
				    "the spec sets no batch size (looked for "
				    "%s, ...), and no tested row applies to "
				    "'%s' on %s",
				    c->settings->hp[SMP_HP_BATCH_SIZE].names[0],
				    mname, to->type);
		goto notes;
	}
	if (pick.row && !moving) {
		/* the job's own batch is evidence about its conditions: the
		 * row's batch as is only when the row is this job */
		smp__tune_target(&tg, c->cat, &q, &pick, b.per_gpu);
		if (tg.row && tg.row != pick.row) {
			copy_row(s, c->cat, tg.row);
			smp__tune_row_batch_text(tb, sizeof(tb), c->cat,
						 tg.row);
			p->relation = row_match_relation(&q, tg.row);
			snprintf(text, sizeof(text),
				 "of %zu rows for the same model on the same "
				 "GPU, the one whose native batch is nearest "
				 "the job's",
				 pick.candidates);
			p->row_choice = dup(s, text);
		}
		if (tg.kind == SMP_TARGET_NONE) {
			p->outcome = SMP_SUGGEST_NO_ROW;
			p->row = NULL;
			p->relation = SMP_ROW_RELATION_NONE;
			smp__tune_number(bt, sizeof(bt), b.per_gpu);
			set_message(s,
				    "no batch suggested for '%s' on %s: %s; "
				    "measure GPU memory on a short run from "
				    "the per-GPU batch %s",
				    mname, to->type, tg.why, bt);
			goto notes;
		}
		if (tg.kind == SMP_TARGET_AT) {
			p->outcome = SMP_SUGGEST_OK;
			s->next.batch_per_gpu = b.per_gpu;
			s->next.global_batch = b.global;
			s->next.learning_rate = s->now.learning_rate;
			p->k = 1;
			smp__tune_number(bt, sizeof(bt), b.per_gpu);
			set_message(s,
				    "per-GPU batch %s is already the tested "
				    "compiler batch %s for '%s' on %s: nothing "
				    "to change",
				    bt, tb, mname, to->type);
			goto notes;
		}
		nb = tg.per_gpu;
		add_note(s, &notes, "%s", tg.why);
		if (tg.row->batch_size_is_lower_bound)
			add_note(s, &notes,
				 "the tested batch %s is a lower bound (the "
				 "largest tried, not the most that fits): more "
				 "may fit",
				 tb);
		p->outcome = SMP_SUGGEST_OK;
	} else if (pick.row) {
		/* a move: the job's batch ran on another GPU, so the row on
		 * the target instance is the only evidence there */
		nb = smp__tune_row_batch(c->cat, pick.row);
		if (b.scope == SMP_BATCH_PER_GPU && nb >= 1)
			nb = floor(nb); /* written per GPU: whole */
		if (pick.row->batch_size_is_lower_bound && b.per_gpu > nb) {
			nb = b.per_gpu;
			add_note(s, &notes,
				 "the tested batch %s is a lower bound (the "
				 "instance may fit more), so the per-GPU batch "
				 "is kept",
				 tb);
		}
		p->outcome = SMP_SUGGEST_OK;
	} else if (moving) {
		nb = b.per_gpu;
		p->outcome = SMP_SUGGEST_NO_ROW;
		if (to->gpu_memory_gib < now->gpu_memory_gib)
			add_note(s, &notes,
				 "per-GPU memory drops from %g to %g GiB: the "
				 "kept per-GPU batch may not fit; measure GPU "
				 "memory on a short run",
				 now->gpu_memory_gib, to->gpu_memory_gib);
		else if (to->gpu_memory_gib > now->gpu_memory_gib)
			add_note(s, &notes,
				 "per-GPU memory grows from %g to %g GiB: a "
				 "larger batch may fit; measure it",
				 now->gpu_memory_gib, to->gpu_memory_gib);
	} else if (!smp__tune_model_tested(c->cat, q.framework, key)) {
		p->outcome = SMP_SUGGEST_NO_ROW;
		set_message(s,
			    "'%s' is not in the tested-models table for %s; "
			    "nothing to suggest: measure GPU memory to find "
			    "the largest batch that fits",
			    mname, smp__framework_title(q.framework));
		goto notes;
	} else {
		p->outcome = SMP_SUGGEST_NO_ROW;
		set_message(s,
			    "no tested row applies to '%s' with %s on %s "
			    "(nor on another instance with the same %s %g GiB "
			    "GPU); nothing to suggest: measure GPU memory to "
			    "find the largest batch that fits",
			    mname, fw, to->type, to->gpu_model,
			    to->gpu_memory_gib);
		goto notes;
	}
	/* a per-GPU batch is a whole number of samples; a fraction, or
	 * arithmetic that overflows (batch 1e-320, learning rate 1e308),
	 * is refused rather than pasted into the spec */
	if (b.scope == SMP_BATCH_PER_GPU && b.per_gpu != floor(b.per_gpu)) {
		smp__tune_number(bt, sizeof(bt), b.per_gpu);
		p->outcome = SMP_SUGGEST_UNAVAILABLE;
		set_message(s,
			    "the per-GPU batch size %s is not a whole number; "
			    "nothing to suggest",
			    bt);
		goto notes;
	}
	s->next.batch_per_gpu = nb;
	s->next.global_batch =
		nb * (double)to->gpus * (double)s->next.instance_count;
	p->k = smp__tune_k(b.per_gpu, now->gpus, s->now.instance_count, nb,
			   to->gpus, s->next.instance_count);
	if (lr)
		s->next.learning_rate = smp__tune_lr(lrv, p->k, p->lr_scaling);
	else
		add_note(s, &notes,
			 "the spec sets no learning rate (%s, ...): scale the "
			 "script's default by %s",
			 c->settings->hp[SMP_HP_LEARNING_RATE].names[0],
			 p->lr_scaling == SMP_LR_SCALING_SQRT ? "sqrt(k)"
							      : "k");
	if (!isfinite(p->k) || !isfinite(s->next.global_batch) ||
	    !isfinite(s->next.learning_rate)) {
		p->outcome = SMP_SUGGEST_UNAVAILABLE;
		s->next.learning_rate = 0;
		set_message(s, "the batch and learning rate arithmetic does "
			       "not give finite numbers (k or the scaled "
			       "learning rate overflows); nothing to suggest");
		goto notes;
	}
	smp__tune_number(kt, sizeof(kt), p->k);
	/* the guide: aggressive hyperparameters make the loss oscillate or
	 * the model not learn; a large k scales the rate that much */
	if (lr && p->k >= 8) {
		char ft[40];

		smp__tune_number(ft, sizeof(ft),
				 p->lr_scaling == SMP_LR_SCALING_SQRT
					 ? sqrt(p->k)
					 : p->k);
		add_note(s, &notes,
			 "k = %s scales the learning rate %s times: aggressive "
			 "hyperparameters can make the training loss oscillate "
			 "or the model stop learning (AWS \"%s\", 'Check "
			 "hyperparameters'); warm the learning rate up over "
			 "the first steps and try the change in a short run "
			 "first, or tune it with SageMaker Automatic Model "
			 "Tuning",
			 kt, ft, SMP__PAGE_TROUBLESHOOTING);
	}
	smp__tune_number(bt, sizeof(bt), b.per_gpu);
	smp__tune_number(nt, sizeof(nt), nb);
	if (lr) {
		smp__tune_number(lt, sizeof(lt), lrv);
		smp__tune_number(nl, sizeof(nl), s->next.learning_rate);
		snprintf(text, sizeof(text), " and learning rate %s -> %s", lt,
			 nl);
	} else {
		text[0] = '\0';
	}
	if (p->outcome == SMP_SUGGEST_OK)
		set_message(s,
			    "per-GPU batch %s -> %s%s (k = %s, %s) for '%s' "
			    "on %s",
			    bt, nt, text, kt,
			    smp_lr_scaling_name(p->lr_scaling), mname,
			    to->type);
	else
		set_message(s,
			    "no tested row applies to '%s' with %s on %s; "
			    "keeping the per-GPU batch %s, the global batch "
			    "follows the GPU count (k = %s)%s",
			    mname, fw, to->type, bt, kt, text);
	make_fragment(r, c, &b, lr);
notes:
	if (notes.len && !smp__buf_error(&notes))
		p->notes = dup(s, notes.data);
}

static void
on_job(void *ud, const struct smp_check *c)
{
	struct run *r = ud;

	if (r->jobs++ == 0)
		compute(r, c);
}

/* The --to instance: known, with GPUs, supported by the compiler. */
static int
target(const struct smp_instance **out, const struct smp_catalog *cat,
       const char *type, struct smp_error *err)
{
	const struct smp_instance *it;
	const char *best = NULL;
	size_t i, d, best_d = 4;

	*out = NULL;
	if (!type)
		return 0;
	it = smp__catalog_instance(cat, type);
	if (!it) {
		for (i = 0; i < cat->instance_count; i++) {
			d = smp__edit_distance(type, cat->instances[i].type, 3);
			if (d < best_d) {
				best_d = d;
				best = cat->instances[i].type;
			}
		}
		if (best)
			return smp__error_set(
				err, SMP_EINVAL, NULL, NULL,
				"unknown instance type '%s'; did you mean "
				"'%s'?",
				type, best);
		return smp__error_set(err, SMP_EINVAL, NULL, NULL,
				      "unknown instance type '%s'", type);
	}
	if (it->gpus < 1 || !it->compiler_supported)
		return smp__error_set(
			err, SMP_EINVAL, NULL, NULL,
			"'%s' is not an instance type Training Compiler "
			"supports (%s)",
			type, it->gpus < 1 ? "no GPU" : "class not supported");
	*out = it;
	return 0;
}

void
smp_suggestion_free(struct smp_suggestion *suggestion)
{
	struct suggestion *s = (struct suggestion *)suggestion;

	if (!s)
		return;
	smp_report_free(s->report);
	smp__arena_release(&s->arena);
	smp__free(s->alloc, s);
}

static int
suggest(struct smp_suggestion **out, const struct smp_context *ctx,
	const char *name, const char *buf, size_t len, const char *path,
	const struct smp_suggest_options *opts, struct smp_error *err)
{
	struct smp_check_hook hook;
	struct suggestion *s;
	struct change change;
	struct smp_docs docs;
	struct run r;
	size_t i, errors = 0;
	char *owned = NULL;
	int rc;

	*out = NULL;
	if (!ctx || !name)
		return smp__error_set(err, SMP_EINVAL, NULL, NULL,
				      "invalid argument");
	memset(&r, 0, sizeof(r));
	rc = target(&r.to, &ctx->catalog, opts ? opts->to_instance : NULL, err);
	if (rc)
		return rc;
	if (path) {
		rc = smp__read_file(&owned, &len, &ctx->alloc, path,
				    ctx->limits.max_file_size, err);
		if (rc == SMP_ELIMIT)
			return smp__error_set(
				err, SMP_EIO, NULL, NULL,
				"file is larger than the limit of %zu "
				"bytes",
				ctx->limits.max_file_size);
		if (rc)
			return rc;
		buf = owned;
	}
	s = smp__calloc(&ctx->alloc, 1, sizeof(*s));
	if (!s) {
		smp__free(&ctx->alloc, owned);
		return smp__error_set(err, SMP_ENOMEM, NULL, NULL, "%s",
				      smp_strerror(SMP_ENOMEM));
	}
	s->alloc = &ctx->alloc;
	smp__arena_init(&s->arena, &ctx->alloc);
	r.s = s;
	/* the loader's decision: a flow mapping in a .yaml file is YAML */
	r.json = smp__load_is_json(name, buf ? buf : "", len);
	memset(&change, 0, sizeof(change));
	change.frag.count = 1;
	change.frag.n[0].child = change.frag.n[0].next = -1;
	r.change = &change;
	smp__docs_init(&docs, &ctx->alloc);
	memset(&hook, 0, sizeof(hook));
	hook.fn = on_job;
	hook.ud = &r;
	/* the nodes the change names live until it is made */
	hook.keep = &docs;
	hook.sources = NULL;
	rc = smp__check_run(&s->report, ctx, name, buf, len, &hook, err);
	if (rc == 0 && !s->failed)
		rc = make_patched(s, &r, ctx, name, buf ? buf : "", len, &docs,
				  err);
	if (rc == 0 && !s->failed)
		render_fragment(s, &change.frag, r.json);
	smp__docs_release(&docs);
	smp__free(&ctx->alloc, owned);
	if (rc)
		goto fail;
	s->pub.now = &s->now;
	s->pub.next = &s->next;
	s->pub.file = dup(s, name);
	s->pub.report = s->report;
	for (i = 0; i < smp_report_count(s->report); i++)
		if (smp_report_get(s->report, i)->severity ==
			    SMP_SEVERITY_ERROR &&
		    !smp_report_get(s->report, i)->suppressed)
			errors++;
	if (errors) {
		s->pub.outcome = SMP_SUGGEST_ERRORS;
		set_message(s,
			    "the spec has %zu error%s; fix %s first "
			    "('sm-preflight check %s')",
			    errors, errors == 1 ? "" : "s",
			    errors == 1 ? "it" : "them", name);
	} else if (r.jobs == 0) {
		s->pub.outcome = SMP_SUGGEST_UNAVAILABLE;
		set_message(s, "the file holds no job spec");
	} else if (r.jobs > 1 && !s->pub.notes) {
		char note[64];

		snprintf(note, sizeof(note),
			 "the file holds %zu jobs; this is the first\n",
			 r.jobs);
		s->pub.notes = dup(s, note);
	}
	if (s->failed) {
		rc = smp__error_set(err, SMP_ENOMEM, NULL, NULL, "%s",
				    smp_strerror(SMP_ENOMEM));
		goto fail;
	}
	*out = &s->pub;
	return 0;
fail:
	smp_suggestion_free(&s->pub);
	return rc;
}

static const size_t suggest_options_size[SMP_SUGGEST_OPTIONS_VERSION + 1] = {
	0, sizeof(struct smp_suggest_options)};

int
smp_suggest_options_init(struct smp_suggest_options *opts, unsigned int version)
{
	const struct smp_suggest_options defaults = SMP_SUGGEST_OPTIONS_INIT;

	return smp__options_init(opts, version, &defaults, suggest_options_size,
				 SMP_SUGGEST_OPTIONS_VERSION);
}

int
smp_suggest(struct smp_suggestion **out, const struct smp_context *ctx,
	    const char *name, const char *buf, size_t len,
	    const struct smp_suggest_options *opts, struct smp_error *err)
{
	struct smp_suggest_options o = SMP_SUGGEST_OPTIONS_INIT;
	int rc;

	smp__error_clear(err);
	if (!out)
		return smp__error_set(err, SMP_EINVAL, NULL, NULL,
				      "invalid argument: out is NULL");
	*out = NULL;
	rc = smp__options_copy(&o, opts, suggest_options_size,
			       SMP_SUGGEST_OPTIONS_VERSION,
			       "smp_suggest_options", err);
	if (rc)
		return rc;
	/* no buffer: name is the file to read */
	return suggest(out, ctx, name, buf, len, buf ? NULL : name, &o, err);
}

/* ---- text ---- */

/* "1 GPU (V100, 16 GiB) x 1 instance" */
static void
side_text(char *out, size_t size, const struct smp_suggest_side *side)
{
	snprintf(out, size, "%s: %d GPU%s (%s, %g GiB) x %lld instance%s",
		 side->instance_type, side->gpus, side->gpus == 1 ? "" : "s",
		 side->gpu_model ? side->gpu_model : "?", side->gpu_memory_gib,
		 side->instance_count, side->instance_count == 1 ? "" : "s");
}

static void
row_text(char *out, size_t size, const struct smp_tested_row *row)
{
	struct smp_tested_model m;
	char desc[256], native[32] = "", per[32];

	memset(&m, 0, sizeof(m));
	m.framework = row->framework;
	m.framework_version = row->framework_version;
	m.transformers_version = row->transformers_version;
	m.instance_type = row->instance_type;
	m.precision = row->precision;
	m.sequence_length = row->sequence_length;
	m.instance_count = row->instance_count;
	smp__tune_row_describe(desc, sizeof(desc), &m);
	smp__tune_number(per, sizeof(per), row->compiler_batch_per_gpu);
	if (row->native_batch_size > 0)
		snprintf(native, sizeof(native), " (native %d)",
			 row->native_batch_size);
	if (row->batch_per_instance)
		snprintf(out, size,
			 "%s, %s: compiler batch %d%s%s for the instance = %s "
			 "per GPU",
			 row->model, desc, row->compiler_batch_size,
			 row->batch_size_is_lower_bound ? " or more" : "",
			 native, per);
	else
		snprintf(out, size, "%s, %s: compiler batch %d%s per GPU%s",
			 row->model, desc, row->compiler_batch_size,
			 row->batch_size_is_lower_bound ? " or more" : "",
			 native);
}

static void
batch_line(struct smp__out *o, const char *label,
	   const struct smp_suggest_side *side)
{
	char b[32], g[32];

	smp__tune_number(b, sizeof(b), side->batch_per_gpu);
	smp__tune_number(g, sizeof(g), side->global_batch);
	smp__out_printf(o,
			"  %-12s%s per GPU x %d GPU%s x %lld instance%s = %s "
			"global\n",
			label, b, side->gpus, side->gpus == 1 ? "" : "s",
			side->instance_count,
			side->instance_count == 1 ? "" : "s", g);
}

static void
emit_arithmetic(struct smp__out *o, const struct smp_suggestion *s)
{
	char b0[32], b1[32], k[32], l0[32], l1[32], alt[32], sk[32];
	enum smp_lr_scaling other = s->lr_scaling == SMP_LR_SCALING_SQRT
					    ? SMP_LR_SCALING_LINEAR
					    : SMP_LR_SCALING_SQRT;

	batch_line(o, "now:", s->now);
	batch_line(o, "suggested:", s->next);
	smp__tune_number(b0, sizeof(b0), s->now->batch_per_gpu);
	smp__tune_number(b1, sizeof(b1), s->next->batch_per_gpu);
	smp__tune_number(k, sizeof(k), s->k);
	smp__out_printf(o, "  %-12s%s x %d x %lld / (%s x %d x %lld) = %s\n",
			"k:", b1, s->next->gpus, s->next->instance_count, b0,
			s->now->gpus, s->now->instance_count, k);
	if (s->now->learning_rate > 0) {
		smp__tune_number(l0, sizeof(l0), s->now->learning_rate);
		smp__tune_number(l1, sizeof(l1), s->next->learning_rate);
		smp__tune_number(
			alt, sizeof(alt),
			smp__tune_lr(s->now->learning_rate, s->k, other));
		smp__tune_number(sk, sizeof(sk), sqrt(s->k));
		if (s->lr_scaling == SMP_LR_SCALING_SQRT)
			smp__out_printf(
				o,
				"  %-12s%s x sqrt(%s) = %s x %s = %s (sqrt; "
				"linear gives %s)\n",
				"lr:", l0, k, l0, sk, l1, alt);
		else
			smp__out_printf(
				o,
				"  %-12s%s x %s = %s (linear; --lr-scaling "
				"sqrt gives %s x %s = %s)\n",
				"lr:", l0, k, l1, l0, sk, alt);
	}
}

int
smp_suggestion_emit_text(const struct smp_suggestion *s, smp_write_fn write,
			 void *ud)
{
	struct smp__out o;
	char text[512], other[512];
	const char *p, *nl;

	if (!s || !write)
		return SMP_EINVAL;
	smp__out_init(&o, write, ud);
	switch (s->outcome) {
	case SMP_SUGGEST_OK:
		smp__out_printf(&o, "%s: suggestion: %s\n", s->file,
				s->message);
		break;
	case SMP_SUGGEST_NO_ROW:
		smp__out_printf(&o, "%s: %s\n", s->file, s->message);
		break;
	default:
		smp__out_printf(&o, "%s: no suggestion: %s\n", s->file,
				s->message);
		break;
	}
	if (s->outcome == SMP_SUGGEST_ERRORS)
		return smp__out_flush(&o);
	if (s->now->instance_type) {
		side_text(text, sizeof(text), s->now);
		if (s->next->instance_type &&
		    strcmp(s->next->instance_type, s->now->instance_type) !=
			    0) {
			side_text(other, sizeof(other), s->next);
			smp__out_printf(&o, "  %-12s%s\n", "instance:", text);
			smp__out_printf(&o, "  %-12s-> %s\n", "", other);
		} else {
			smp__out_printf(&o, "  %-12s%s\n", "instance:", text);
		}
	}
	if (s->row) {
		row_text(text, sizeof(text), s->row);
		smp__out_printf(&o, "  %-12s%s\n", "tested row:", text);
		if (s->row_choice)
			smp__out_printf(&o, "  %-12s%s\n", "", s->row_choice);
	}
	if (s->batch_reading)
		smp__out_printf(&o, "  %-12s%s\n", "batch:", s->batch_reading);
	if (s->k > 0)
		emit_arithmetic(&o, s);
	for (p = s->notes; p && *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			break;
		smp__out_printf(&o, "  %-12s%.*s\n", "note:", (int)(nl - p), p);
	}
	if (s->fragment) {
		smp__out_printf(&o,
				"\n  the changed spec, ready to paste:\n\n");
		for (p = s->fragment; *p; p = nl + 1) {
			nl = strchr(p, '\n');
			if (!nl) {
				smp__out_printf(&o, "    %s\n", p);
				break;
			}
			smp__out_printf(&o, "    %.*s\n", (int)(nl - p), p);
		}
	}
	return smp__out_flush(&o);
}
