/*
 * fix.c - smp_fix(): check, turn each applicable finding's patch into a
 * byte edit (edit.c), apply the edits that do not overlap, and check the
 * new text again, until no fix is left (ruff's fix loop). The check of
 * the last text is the result's report: what is left to fix by hand.
 */
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/error.h"
#include "util/options_version.h"
#include "report/fix_safety.h"
#include "report/report.h"
#include "job/source_python.h"
#include "context/context.h"
#include "rules/check.h"
#include "fix/edit.h"
#include "fix/edit_notebook.h"
#include "fix/fix.h"

static const size_t fix_options_size[SMP_FIX_OPTIONS_VERSION + 1] = {
	0, sizeof(struct smp_fix_options)};

int
smp_fix_options_init(struct smp_fix_options *opts, unsigned int version)
{
	const struct smp_fix_options defaults = SMP_FIX_OPTIONS_INIT;

	return smp__options_init(opts, version, &defaults, fix_options_size,
				 SMP_FIX_OPTIONS_VERSION);
}

/* The result and what it owns. */
struct fixed {
	struct smp_fix_result pub;
	const struct smp_allocator *alloc;
	struct smp_arena arena;
	char *text;
	struct smp_fix_applied *applied;
	size_t cap;
	struct smp_report *report;
};

/* One edit a finding asks for, in one pass. */
struct cand {
	struct smp_fix_edit e;
	const struct smp_finding *f;
	int unsafe;
	size_t order; /* the finding's index: ties keep report order */
};

struct pass {
	struct smp_arena arena; /* the edits' text */
	struct cand *items;
	size_t count;
	size_t cap;
	size_t unsafe_skipped;
};

static int
cand_cmp(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->e.start != y->e.start)
		return x->e.start < y->e.start ? -1 : 1;
	if (x->e.end != y->e.end)
		return x->e.end < y->e.end ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/*
 * 1 when f's pointer names, below root, the node f is at (or the key of
 * that node): the finding is about this document's own text, not a job
 * a normalizer found inside it (a pipeline step), whose pointers start
 * elsewhere.
 */
static int
anchored(const struct smp_node *root, const struct smp_finding *f)
{
	const struct smp_node *n, *m;
	char parent[512];
	const char *slash;
	int unknown = 0;
	size_t i;

	if (!root || !f->pointer)
		return 0;
	n = smp__node_at_pointer(root, f->pointer, &unknown);
	if (!n || unknown)
		return 0;
	if (n->start.line == f->line && n->start.column == f->column)
		return 1;
	slash = strrchr(f->pointer, '/');
	if (!slash || (size_t)(slash - f->pointer) >= sizeof(parent))
		return 0;
	memcpy(parent, f->pointer, (size_t)(slash - f->pointer));
	parent[slash - f->pointer] = '\0';
	m = smp__node_at_pointer(root, parent, &unknown);
	for (i = 0; m && m->kind == SMP_NODE_MAPPING && i < m->u.mapping.count;
	     i++)
		if (m->u.mapping.items[i].value == n)
			return m->u.mapping.items[i].key->start.line ==
				       f->line &&
			       m->u.mapping.items[i].key->start.column ==
				       f->column;
	return 0;
}

/* 1 when a node below n holds the text [s, e) (an insertion: s == e,
 * a mapping around s); depth bounds a YAML alias cycle's walk. */
static int
holds(const struct smp_node *n, size_t s, size_t e, int depth)
{
	size_t i;

	if (!n || depth > 64)
		return 0;
	if (n->kind == SMP_NODE_SCALAR)
		return s < e && n->start.offset < e && s < n->end.offset;
	/* an insertion goes after a mapping's last value (and its comma) */
	if (s == e && n->kind == SMP_NODE_MAPPING && n->u.mapping.count) {
		size_t last = n->u.mapping.items[n->u.mapping.count - 1]
				      .value->end.offset;

		if (n->start.offset < s && last <= s && s <= last + 1)
			return 1;
	}
	if (n->kind == SMP_NODE_MAPPING) {
		for (i = 0; i < n->u.mapping.count; i++)
			if (holds(n->u.mapping.items[i].value, s, e, depth + 1))
				return 1;
	} else {
		for (i = 0; i < n->u.sequence.count; i++)
			if (holds(n->u.sequence.items[i], s, e, depth + 1))
				return 1;
	}
	return 0;
}

/*
 * 1 when the text an edit changes is a value of more than one job of a
 * launcher or notebook (an assignment both use, a shared dict): fixing
 * it for one job would change the other, and the fix stays a message.
 */
static int
shared(const struct smp_docs *docs, const struct smp_fix_edit *e)
{
	size_t i, jobs = 0;

	for (i = 0; i < docs->count && jobs < 2; i++)
		jobs += holds(docs->items[i].root, e->start, e->end, 0);
	return jobs > 1;
}

/*
 * The edit f asks for in cur[0..len): 0 with *e and *safety set; 1 when
 * none (no applicable suggestion, not this file's text, or the patch has
 * no edit here); SMP_ENOMEM. The edit's text is in arena.
 */
static int
finding_edit(struct smp_fix_edit *e, enum smp_fix_safety *safety,
	     struct smp_arena *arena, const struct smp_finding *f,
	     const struct smp_docs *docs, const char *name, const char *cur,
	     size_t len)
{
	const struct smp_node *root;
	enum smp_rule_id id;
	size_t i;
	int kind, rc;

	if (!f->suggestion || f->suppressed || !f->line || !f->file ||
	    strcmp(f->file, name) != 0 || smp__rule_lookup(&id, f->rule))
		return 1;
	*safety = smp__rule_fix_safety(id);
	if (*safety == SMP_FIX_NONE)
		return 1;
	kind = smp__pysrc_kind(name);
	if (kind == 2 || f->cell) {
		struct smp_fix_edit code;

		rc = f->cell && kind == 2
			     ? smp__nb_edit(e, &code, arena, cur, len, docs, f)
			     : 1;
		return rc == 0 && shared(docs, &code) ? 1 : rc;
	}
	/* the document (or launcher job) whose node f is at */
	for (i = 0; i < docs->count; i++)
		if (anchored(docs->items[i].root, f))
			break;
	if (i == docs->count)
		return 1;
	root = docs->items[i].root;
	rc = smp__fix_edit(e, arena, cur, len, root,
			   kind == 1       ? SMP_FIX_PYTHON
			   : docs->is_json ? SMP_FIX_JSON
					   : SMP_FIX_YAML,
			   f);
	return rc == 0 && kind == 1 && shared(docs, e) ? 1 : rc;
}

/* The edits the findings of rep ask for in cur[0..len). */
static int
collect(struct pass *p, const struct smp_allocator *a,
	const struct smp_report *rep, const struct smp_docs *docs,
	const char *name, const char *cur, size_t len, int unsafe)
{
	size_t i, n = smp_report_count(rep);
	int rc;

	for (i = 0; i < n; i++) {
		const struct smp_finding *f = smp_report_get(rep, i);
		enum smp_fix_safety safety = SMP_FIX_NONE;
		struct smp_fix_edit e;

		rc = finding_edit(&e, &safety, &p->arena, f, docs, name, cur,
				  len);
		if (rc == 1)
			continue;
		if (rc)
			return rc;
		if (safety == SMP_FIX_UNSAFE && !unsafe) {
			p->unsafe_skipped++;
			continue;
		}
		if (p->count == p->cap &&
		    smp__grow(a, (void **)&p->items, &p->cap, p->count + 1,
			      sizeof(*p->items)))
			return SMP_ENOMEM;
		p->items[p->count].e = e;
		p->items[p->count].f = f;
		p->items[p->count].unsafe = safety == SMP_FIX_UNSAFE;
		p->items[p->count].order = i;
		p->count++;
	}
	return 0;
}

/* See fix.h. */
void
smp__fix_annotate(struct smp_report *rep, const struct smp_docs *docs,
		  const char *buf, size_t len)
{
	struct smp_arena arena;
	size_t i;

	smp__arena_init(&arena, rep->alloc);
	for (i = 0; i < rep->count && !rep->failed; i++) {
		struct smp_finding *f = &rep->items[i];
		enum smp_fix_safety safety = SMP_FIX_NONE;
		struct smp_fix_edit e;
		int rc;

		rc = finding_edit(&e, &safety, &arena, f, docs, rep->file, buf,
				  len);
		if (rc == 0)
			smp__finding_edit(rep, f, e.start, e.end, e.text,
					  e.text_len, safety == SMP_FIX_UNSAFE);
		else if (rc != 1)
			rep->failed = 1;
	}
	smp__arena_release(&arena);
}

static const char *
keep(struct fixed *r, const char *s)
{
	return s ? smp__arena_strndup(&r->arena, s, strlen(s)) : NULL;
}

/* Records c as applied in pass number. */
static int
record(struct fixed *r, const struct cand *c, unsigned int number)
{
	struct smp_fix_applied *x;

	if (r->pub.applied_count == r->cap &&
	    smp__grow(r->alloc, (void **)&r->applied, &r->cap,
		      r->pub.applied_count + 1, sizeof(*r->applied)))
		return SMP_ENOMEM;
	x = &r->applied[r->pub.applied_count];
	memset(x, 0, sizeof(*x));
	x->rule = keep(r, c->f->rule);
	x->message = keep(r, c->f->message);
	x->fix = keep(r, c->f->fix);
	x->pointer = keep(r, c->f->suggestion_pointer);
	x->replacement = keep(r, c->e.text);
	x->value = keep(r, c->f->suggestion);
	x->type = c->f->suggestion_type;
	if (!x->rule || !x->message || !x->pointer || !x->replacement ||
	    !x->value || (c->f->fix && !x->fix))
		return SMP_ENOMEM;
	x->line = c->f->line;
	x->column = c->f->column;
	x->unsafe = c->unsafe;
	x->pass = number;
	x->start = c->e.start;
	x->end = c->e.end;
	r->pub.applied_count++;
	r->pub.applied = r->applied;
	return 0;
}

/*
 * Applies the edits of p that do not overlap an earlier one (by start)
 * to cur, into out. An edit the same as the one before (two findings,
 * one patch) is applied once; an overlapping one waits for the next pass.
 */
static int
apply(struct fixed *r, struct pass *p, const char *cur, size_t len,
      unsigned int number, struct smp_buf *out)
{
	size_t i, at = 0;
	const struct smp_fix_edit *prev = NULL;
	int rc;

	qsort(p->items, p->count, sizeof(*p->items), cand_cmp);
	for (i = 0; i < p->count; i++) {
		const struct smp_fix_edit *e = &p->items[i].e;

		if (prev && e->start == prev->start && e->end == prev->end &&
		    e->text_len == prev->text_len &&
		    memcmp(e->text, prev->text, e->text_len) == 0)
			continue;
		if (prev && (e->start < prev->end ||
			     (e->start == prev->start && e->end == e->start)))
			continue;
		smp__buf_add(out, cur + at, e->start - at);
		smp__buf_add(out, e->text, e->text_len);
		at = e->end;
		prev = e;
		rc = record(r, &p->items[i], number);
		if (rc)
			return rc;
	}
	smp__buf_add(out, cur + at, len - at);
	return smp__buf_error(out) ? SMP_ENOMEM : 0;
}

static void
pass_release(struct pass *p, const struct smp_allocator *a)
{
	smp__arena_release(&p->arena);
	smp__free(a, p->items);
	memset(p, 0, sizeof(*p));
}

/* One check of cur and the edits it asks for, in p; *rep is the check. */
static int
check_pass(struct smp_report **rep, struct pass *p,
	   const struct smp_context *ctx, const char *name, const char *cur,
	   size_t len, const struct smp_fix_options *o, struct smp_error *err)
{
	struct smp_docs docs;
	struct smp_check_hook hook;
	int rc;

	memset(&hook, 0, sizeof(hook));
	smp__docs_init(&docs, &ctx->alloc);
	hook.keep = &docs;
	hook.format = o->format;
	hook.script_dir = o->script_dir;
	rc = smp__check_run(rep, ctx, name, cur, len, &hook, err);
	if (rc)
		return rc;
	/* a launcher named .py but read as YAML or JSON is that */
	if (!(o->format != SMP_INPUT_AUTO && smp__pysrc_kind(name)))
		rc = collect(p, &ctx->alloc, *rep, &docs, name, cur, len,
			     o->unsafe_fixes);
	smp__docs_release(&docs);
	return rc;
}

void
smp_fix_result_free(struct smp_fix_result *result)
{
	struct fixed *r = (struct fixed *)result;

	if (!r)
		return;
	smp_report_free(r->report);
	smp__free(r->alloc, r->applied);
	smp__free(r->alloc, r->text);
	smp__arena_release(&r->arena);
	smp__free(r->alloc, r);
}

/* The loop: check, apply, until no edit is left or the passes run out. */
static int
run(struct fixed *r, const struct smp_context *ctx, const char *name,
    const struct smp_fix_options *o, struct smp_error *err)
{
	unsigned int max =
		o->max_passes ? o->max_passes : SMP_FIX_PASSES_DEFAULT;
	struct pass p;
	struct smp_buf next;
	size_t len = r->pub.len;
	int rc;

	for (;;) {
		struct smp_report *rep = NULL;

		memset(&p, 0, sizeof(p));
		smp__arena_init(&p.arena, &ctx->alloc);
		rc = check_pass(&rep, &p, ctx, name, r->text, len, o, err);
		r->pub.passes++;
		if (rc || p.count == 0 || r->pub.passes > max) {
			r->pub.converged = rc == 0 && p.count == 0;
			r->pub.unsafe_skipped = p.unsafe_skipped;
			r->report = rep;
			pass_release(&p, &ctx->alloc);
			return rc;
		}
		smp__buf_init(&next, &ctx->alloc, SMP_BUF_NO_MAX);
		rc = apply(r, &p, r->text, len, r->pub.passes, &next);
		pass_release(&p, &ctx->alloc);
		smp_report_free(rep);
		if (rc) {
			smp__buf_free(&next);
			return rc;
		}
		smp__free(&ctx->alloc, r->text);
		r->text = smp__buf_take(&next, &len);
		if (!r->text)
			return SMP_ENOMEM;
		r->pub.text = r->text;
		r->pub.len = len;
		r->pub.changed = 1;
	}
}

int
smp_fix(struct smp_fix_result **out, const struct smp_context *ctx,
	const char *name, const char *buf, size_t len,
	const struct smp_fix_options *opts, struct smp_error *err)
{
	struct smp_fix_options o = SMP_FIX_OPTIONS_INIT;
	struct fixed *r;
	int rc;

	if (out)
		*out = NULL;
	if (!out || !ctx || !name || !buf)
		return smp__error_set(err, SMP_EINVAL, NULL, NULL,
				      "invalid argument: out, ctx, name and "
				      "buf are required");
	rc = smp__options_copy(&o, opts, fix_options_size,
			       SMP_FIX_OPTIONS_VERSION, "smp_fix_options", err);
	if (rc)
		return rc;
	if ((unsigned)o.format > SMP_INPUT_JSON)
		return smp__error_set(err, SMP_EINVAL, NULL, NULL,
				      "invalid smp_fix_options.format");
	r = smp__calloc(&ctx->alloc, 1, sizeof(*r));
	if (!r)
		return smp__error_set(err, SMP_ENOMEM, name, NULL, "%s",
				      smp_strerror(SMP_ENOMEM));
	r->alloc = &ctx->alloc;
	smp__arena_init(&r->arena, &ctx->alloc);
	r->text = smp__strndup(&ctx->alloc, buf, len);
	r->pub.text = r->text;
	r->pub.len = len;
	rc = r->text ? run(r, ctx, name, &o, err) : SMP_ENOMEM;
	if (rc) {
		smp_fix_result_free(&r->pub);
		if (rc == SMP_ENOMEM)
			return smp__error_set(err, rc, name, NULL, "%s",
					      smp_strerror(rc));
		return rc;
	}
	r->pub.report = r->report;
	*out = &r->pub;
	return 0;
}
