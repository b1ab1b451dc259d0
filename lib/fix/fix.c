/*
 * fix.c - smp_fix(): check (smp_check() gives every finding whose fix
 * applies itself its byte edit, annotate.c), apply the edits that do not
 * overlap, and check the new text again, until no fix is left (ruff's fix
 * loop). The check of the last text is the result's report: what is left
 * to fix by hand.
 *
 * That check is skipped when its report is known without it (derive.c
 * would be one function; it is here): every fix of the pass was applied
 * and is local (rules.def L()), so the check of the new text is the one
 * before, less the fixed findings, the others moved with the edits.
 */
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

#include "util/buf.h"
#include "util/error.h"
#include "util/options_version.h"
#include "util/pos.h"
#include "util/text.h"
#include "doc/limits.h"
#include "report/report.h"
#include "report/fix_safety.h"
#include "job/source_python.h"
#include "context/context.h"
#include "fix/edit.h"
#include "fix/derive.h"

static const size_t fix_options_size[SMP_FIX_OPTIONS_VERSION + 1] = {
	0, offsetof(struct smp_fix_options, flags),
	sizeof(struct smp_fix_options)};

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
	int done;     /* applied, or the same edit as the one applied */
	int dup;      /* the same edit as the one before it */
};

struct pass {
	struct cand *items;
	size_t count;
	size_t cap;
	size_t unsafe_skipped;
	size_t waiting; /* overlapped an applied edit: the next pass's */
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

/* The edits the findings of rep carry (smp_check() set them). */
static int
collect(struct pass *p, const struct smp_allocator *a,
	const struct smp_report *rep, int unsafe)
{
	size_t i, n = smp_report_count(rep);

	for (i = 0; i < n; i++) {
		const struct smp_finding *f = smp_report_get(rep, i);
		struct cand *c;

		if (!f->edit_text)
			continue;
		if (f->edit_unsafe && !unsafe) {
			p->unsafe_skipped++;
			continue;
		}
		if (p->count == p->cap &&
		    smp__grow(a, (void **)&p->items, &p->cap, p->count + 1,
			      sizeof(*p->items)))
			return SMP_ENOMEM;
		c = &p->items[p->count++];
		memset(c, 0, sizeof(*c));
		c->e.start = f->edit_start;
		c->e.end = f->edit_end;
		c->e.text = f->edit_text;
		c->e.text_len = strlen(f->edit_text);
		c->f = f;
		c->unsafe = f->edit_unsafe;
		c->order = i;
	}
	return 0;
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
		    memcmp(e->text, prev->text, e->text_len) == 0) {
			p->items[i].done = p->items[i].dup = 1;
			continue;
		}
		if (prev && (e->start < prev->end ||
			     (e->start == prev->start && e->end == e->start))) {
			p->waiting++;
			continue;
		}
		p->items[i].done = 1;
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
	smp__free(a, p->items);
	memset(p, 0, sizeof(*p));
}

/* One check of cur and the edits it asks for, in p; *rep is the check. */
static int
check_pass(struct smp_report **rep, struct pass *p,
	   const struct smp_context *ctx, const char *name, const char *cur,
	   size_t len, const struct smp_fix_options *o, struct smp_error *err)
{
	struct smp_check_options co = SMP_CHECK_OPTIONS_INIT;
	int rc;

	co.baseline = o->baseline;
	co.script_dir = o->script_dir;
	co.format = o->format;
	co.flags = o->flags & (SMP_CHECK_WALKED | SMP_CHECK_ALL_JOBS);
	rc = smp_check(rep, ctx, name, cur, len, &co, err);
	if (rc)
		return rc;
	return collect(p, &ctx->alloc, *rep, o->unsafe_fixes);
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

/*
 * 1 when the check after pass p needs not run (fix.c's head): every edit
 * was applied (none waits for a next pass), each for a local fix, no
 * baseline is compared (its findings read every value), no inline
 * suppression can change its verdict, and the text is a YAML or JSON spec.
 * A fix of a rule that reads the distribution (rules.def D(): adding it,
 * by the distribution or the hyperparameter, or GPU_NUM_DEVICES, which
 * the distribution decides about) is local only when no entry script was
 * scanned and no other finding in rep reads the distribution.
 */
static int
local_pass(const struct pass *p, const struct smp_report *rep,
	   const struct smp_fix_options *o, const char *name, const char *text,
	   size_t len)
{
	size_t i, n = smp_report_count(rep);
	int distribution = 0;

	if (p->waiting || o->baseline || smp__pysrc_kind(name) ||
	    smp__mem_contains(text, len, "sm-preflight"))
		return 0;
	for (i = 0; i < p->count; i++) {
		enum smp_rule_id id;

		if (!p->items[i].done ||
		    smp__rule_lookup(&id, p->items[i].f->rule) ||
		    !smp__rule_fix_local(id))
			return 0;
		distribution |= smp__rule_reads_distribution(id);
	}
	if (!distribution)
		return 1;
	if (rep->scripts_scanned)
		return 0;
	for (i = 0; i < n; i++) {
		const struct smp_finding *f = smp_report_get(rep, i);
		enum smp_rule_id id;
		size_t k;

		if (smp__rule_lookup(&id, f->rule) ||
		    !smp__rule_reads_distribution(id))
			continue;
		for (k = 0; k < p->count && p->items[k].f != f; k++)
			;
		if (k == p->count)
			return 0; /* not fixed in this pass: it may change */
	}
	return 1;
}

/*
 * rep, the check of old, made the check of cur (derive.c) when pass p
 * allows it: 0 done, 1 not (rep unchanged), SMP_ENOMEM.
 */
static int
derive(struct smp_report *rep, const struct pass *p,
       const struct smp_context *ctx, const char *old, size_t old_len,
       const char *cur, size_t len)
{
	struct smp_fix_edit *edits;
	unsigned char *gone;
	struct smp_limits limits;
	size_t i, n = 0;
	int rc;

	edits = smp__calloc(&ctx->alloc, p->count, sizeof(*edits));
	gone = smp__calloc(&ctx->alloc, smp_report_count(rep), 1);
	if (!edits || !gone) {
		smp__free(&ctx->alloc, edits);
		smp__free(&ctx->alloc, gone);
		return SMP_ENOMEM;
	}
	for (i = 0; i < p->count; i++) {
		gone[p->items[i].order] = 1;
		if (!p->items[i].dup)
			edits[n++] = p->items[i].e;
	}
	smp__limits_resolve(&limits, &ctx->limits);
	rc = smp__fix_derive(rep, edits, n, gone, old, old_len, cur, len,
			     &limits);
	smp__free(&ctx->alloc, edits);
	smp__free(&ctx->alloc, gone);
	return rc;
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
	struct smp_report *derived = NULL;
	char *old;
	size_t old_len;
	int rc;

	for (;;) {
		struct smp_report *rep = derived;

		memset(&p, 0, sizeof(p));
		if (derived) {
			/* its edits were all applied: none is left */
			p.unsafe_skipped = r->pub.unsafe_skipped;
			derived = NULL;
			rc = 0;
		} else {
			rc = check_pass(&rep, &p, ctx, name, r->text, len, o,
					err);
		}
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
		if (rc) {
			pass_release(&p, &ctx->alloc);
			smp_report_free(rep);
			smp__buf_free(&next);
			return rc;
		}
		old = r->text;
		old_len = len;
		r->text = smp__buf_take(&next, &len);
		if (!r->text) {
			r->text = old;
			pass_release(&p, &ctx->alloc);
			smp_report_free(rep);
			return SMP_ENOMEM;
		}
		/* the next check known without it (derive.c), or run */
		rc = local_pass(&p, rep, o, name, old, old_len)
			     ? derive(rep, &p, ctx, old, old_len, r->text, len)
			     : 1;
		r->pub.unsafe_skipped = p.unsafe_skipped;
		pass_release(&p, &ctx->alloc);
		smp__free(&ctx->alloc, old);
		if (rc == 0)
			derived = rep;
		else
			smp_report_free(rep);
		if (rc == SMP_ENOMEM)
			return rc;
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
