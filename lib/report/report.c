/*
 * report.c - collecting findings; sticky out-of-memory; JSON Pointers.
 * A report holds at most SMP_REPORT_FINDINGS_MAX findings and one copy of
 * each source line they point at, so its memory is bounded by the input.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "util/fmt.h"
#include "util/text.h"

int
smp__report_new(struct smp_report **out, const struct smp_allocator *a,
		const char *file, const enum smp_severity *severity)
{
	struct smp_report *r;

	*out = NULL;
	r = smp__calloc(a, 1, sizeof(*r));
	if (!r)
		return SMP_ENOMEM;
	r->alloc = a;
	smp__arena_init(&r->arena, a);
	r->severity = severity;
	r->file = smp__arena_strndup(&r->arena, file, strlen(file));
	if (!r->file) {
		smp_report_free(r);
		return SMP_ENOMEM;
	}
	*out = r;
	return 0;
}

/*
 * The text of line in r->buf for a finding of file: shared with an earlier
 * finding on the same line of the same buffer, else copied into the arena.
 * The scan back is bounded by SMP_REPORT_FINDINGS_MAX. NULL on
 * out-of-memory.
 */
static const char *
source_line(struct smp_report *r, const char *file, uint32_t line)
{
	size_t i = r->count, s, n;

	while (i-- > 0) {
		const struct smp_finding *g = &r->items[i];

		if (g->line == line && g->file == file && g->source_line)
			return g->source_line;
	}
	if (r->lines.buf != r->buf || r->lines.len != r->len) {
		smp__lines_release(&r->lines, r->alloc);
		smp__lines_init(&r->lines, r->buf, r->len);
	}
	s = smp__lines_start(&r->lines, r->alloc, line);
	if (r->lines.failed)
		return NULL; /* out of memory: the report fails */
	n = smp__line_len(r->buf, r->len, s);
	return smp__arena_strndup(&r->arena, r->buf + s, n);
}

void
smp_report_free(struct smp_report *r)
{
	if (!r)
		return;
	smp__lines_release(&r->lines, r->alloc);
	smp__free(r->alloc, r->items);
	smp__arena_release(&r->arena);
	smp__free(r->alloc, r);
}

size_t
smp_report_count(const struct smp_report *r)
{
	return r ? r->count : 0;
}

size_t
smp_report_jobs(const struct smp_report *r)
{
	return r ? r->jobs : 0;
}

size_t
smp_report_jobs_skipped(const struct smp_report *r)
{
	return r ? r->jobs_skipped : 0;
}

const struct smp_finding *
smp_report_get(const struct smp_report *r, size_t i)
{
	return r && i < r->count ? &r->items[i] : NULL;
}

enum smp_severity
smp_report_max_severity(const struct smp_report *r)
{
	enum smp_severity max = SMP_SEVERITY_OFF;
	size_t i;

	/* a suppressed finding counts for nothing */
	for (i = 0; r && i < r->count; i++)
		if (!r->items[i].suppressed && r->items[i].severity > max)
			max = r->items[i].severity;
	return max;
}

size_t
smp_report_remove_rule(struct smp_report *r, const char *rule)
{
	size_t i, k;

	if (!r || !rule)
		return 0;
	for (i = k = 0; i < r->count; i++)
		if (strcmp(r->items[i].rule, rule) != 0)
			r->items[k++] = r->items[i];
	i = r->count - k;
	r->count = k;
	return i;
}

/* A rule said once per report (rules.def O()) that already was. */
static int
once_said(const struct smp_report *r, enum smp_rule_id rule)
{
	size_t i;

	if (!smp__rule_once(rule))
		return 0;
	for (i = 0; i < r->count; i++)
		if (strcmp(r->items[i].rule, smp__rule_id(rule)) == 0)
			return 1;
	return 0;
}

/* The message of a finding at node (NULL: none) in r->scope's job. */
static const char *
scoped_message(struct smp_report *r, const struct smp_node *node,
	       const char *msg)
{
	const struct smp_report_scope *sc = r->scope;
	const char *via = node && sc->param ? sc->param(sc->ud, node) : NULL;

	if (via)
		return smp__arena_printf(&r->arena,
					 "in %s'%s': %s (the default value of "
					 "pipeline parameter '%s')",
					 sc->what, sc->name, msg, via);
	return smp__arena_printf(&r->arena, "in %s'%s': %s", sc->what, sc->name,
				 msg);
}

static struct smp_finding *
add_va(struct smp_report *r, enum smp_rule_id rule, const struct smp_pos *start,
       const struct smp_pos *end, const struct smp_node *node, const char *fmt,
       va_list ap)
{
	enum smp_severity sev = r->severity ? r->severity[rule]
					    : smp__rule_default_severity(rule);
	struct smp_finding *f;
	void *items = r->items;
	char msg[1024];
	int len;

	if (sev == SMP_SEVERITY_OFF || r->failed || once_said(r, rule))
		return NULL;
	if (r->scope && r->scope->partial && (!node || node == r->scope->root))
		return NULL;
	if (r->count >= SMP_REPORT_FINDINGS_MAX && !r->finished) {
		r->dropped++;
		return NULL;
	}
	if (smp__grow(r->alloc, &items, &r->cap, r->count + 1,
		      sizeof(*r->items))) {
		r->failed = 1;
		return NULL;
	}
	r->items = items;
	len = smp__vfmt(msg, sizeof(msg), fmt, ap);
	if (len < 0) {
		msg[0] = '\0';
		len = 0;
	} else if ((size_t)len >= sizeof(msg))
		len = (int)sizeof(msg) - 1;
	f = &r->items[r->count];
	memset(f, 0, sizeof(*f));
	f->rule = smp__rule_id(rule);
	f->severity = sev;
	f->file = r->src_file ? r->src_file : r->file;
	msg[len] = '\0';
	f->message = r->scope ? scoped_message(r, node, msg)
			      : smp__arena_strndup(&r->arena, msg, (size_t)len);
	if (!f->message) {
		r->failed = 1;
		return NULL;
	}
	if (start && start->line) {
		f->line = start->line;
		f->column = start->column;
		if (end && end->line) {
			f->end_line = end->line;
			f->end_column = end->column;
		} else {
			f->end_line = start->line;
			f->end_column = start->column + 1;
		}
		if (r->buf) {
			f->source_line = source_line(r, f->file, f->line);
			if (!f->source_line) {
				r->failed = 1;
				return NULL;
			}
		}
	}
	r->count++;
	return f;
}

struct smp_finding *
smp__report_add(struct smp_report *r, enum smp_rule_id rule,
		const struct smp_pos *start, const struct smp_pos *end,
		const char *fmt, ...)
{
	struct smp_finding *f;
	va_list ap;

	va_start(ap, fmt);
	f = add_va(r, rule, start, end, NULL, fmt, ap);
	va_end(ap);
	return f;
}

struct smp_finding *
smp__report_node(struct smp_report *r, enum smp_rule_id rule,
		 const struct smp_node *node, const char *fmt, ...)
{
	struct smp_finding *f;
	const struct smp_pos *end = NULL;
	va_list ap;

	if (smp__node_unknown(node))
		return NULL;
	/* a multi-line range would underline nothing useful: keep one line */
	if (node && node->end.line == node->start.line)
		end = &node->end;
	va_start(ap, fmt);
	f = add_va(r, rule, node ? &node->start : NULL, end, node, fmt, ap);
	va_end(ap);
	if (f && node && r->root)
		f->pointer = smp__report_pointer_of(r, r->root, node);
	return f;
}

void
smp__finding_soften(struct smp_report *r, struct smp_finding *f,
		    enum smp_rule_id rule, enum smp_severity sev)
{
	if (!f || (r->severity_set && r->severity_set[rule]) ||
	    (r->severity &&
	     r->severity[rule] != smp__rule_default_severity(rule)))
		return;
	if (f->severity > sev)
		f->severity = sev;
}

/* A finding's string member: a copy of s in the report's arena. */
static void
finding_str(struct smp_report *r, const char **member, const char *s)
{
	*member = smp__arena_strndup(&r->arena, s, strlen(s));
	if (!*member)
		r->failed = 1;
}

void
smp__finding_fix(struct smp_report *r, struct smp_finding *f, const char *fmt,
		 ...)
{
	char buf[1024];
	va_list ap;
	int len;

	if (!f)
		return;
	va_start(ap, fmt);
	len = smp__vfmt(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (len < 0)
		len = 0;
	else if ((size_t)len >= sizeof(buf))
		len = (int)strlen(buf); /* cut to the buffer */
	f->fix = smp__arena_strndup(&r->arena, buf, (size_t)len);
	if (!f->fix)
		r->failed = 1;
}

/* Out of memory on the way (r->failed is set): no half suggestion. */
static void
suggestion_complete(struct smp_finding *f)
{
	if (f->suggestion && f->suggestion_pointer &&
	    (f->suggestion_op != SMP_SUGGESTION_RENAME || f->suggestion_from))
		return;
	f->suggestion_op = SMP_SUGGESTION_NONE;
	f->suggestion = NULL;
	f->suggestion_pointer = NULL;
	f->suggestion_from = NULL;
}

void
smp__finding_suggest_at(struct smp_report *r, struct smp_finding *f,
			const char *pointer, enum smp_value_type type,
			const char *value)
{
	if (!f || !pointer || !value)
		return;
	if ((type == SMP_VALUE_NUMBER && !smp__is_json_number(value)) ||
	    (type == SMP_VALUE_BOOLEAN && strcmp(value, "true") != 0 &&
	     strcmp(value, "false") != 0))
		return;
	finding_str(r, &f->suggestion, value);
	finding_str(r, &f->suggestion_pointer, pointer);
	f->suggestion_from = NULL;
	f->suggestion_type = type;
	f->suggestion_op = SMP_SUGGESTION_SET;
	suggestion_complete(f);
}

void
smp__finding_suggest(struct smp_report *r, struct smp_finding *f,
		     enum smp_value_type type, const char *value)
{
	if (f)
		smp__finding_suggest_at(r, f, f->pointer, type, value);
}

void
smp__finding_suggest_node(struct smp_report *r, struct smp_finding *f,
			  const struct smp_node *node, enum smp_value_type type,
			  const char *value)
{
	if (f && node && r->root)
		smp__finding_suggest_at(
			r, f, smp__report_pointer_of(r, r->root, node), type,
			value);
}

/* The pointer of key beside f's pointer, in ptr; 0, or -1 for none. */
static int
sibling_pointer(char *ptr, size_t cap, const struct smp_finding *f,
		const char *key)
{
	const char *slash;
	size_t len;

	if (!f->pointer || !key || !(slash = strrchr(f->pointer, '/')))
		return -1;
	len = (size_t)(slash - f->pointer);
	if (len >= cap)
		return -1;
	memcpy(ptr, f->pointer, len);
	smp__pointer_seg(ptr, cap, &len, key, strlen(key));
	if (len >= cap)
		return -1;
	ptr[len] = '\0';
	return 0;
}

void
smp__finding_suggest_sibling(struct smp_report *r, struct smp_finding *f,
			     const char *key, enum smp_value_type type,
			     const char *value)
{
	char ptr[1024];

	if (f && sibling_pointer(ptr, sizeof(ptr), f, key) == 0)
		smp__finding_suggest_at(r, f, ptr, type, value);
}

void
smp__finding_suggest_child(struct smp_report *r, struct smp_finding *f,
			   const char *key, enum smp_value_type type,
			   const char *value)
{
	char ptr[1024];
	size_t len;

	if (!f || !f->pointer || !key || strlen(f->pointer) >= sizeof(ptr))
		return;
	len = strlen(f->pointer);
	memcpy(ptr, f->pointer, len);
	smp__pointer_seg(ptr, sizeof(ptr), &len, key, strlen(key));
	if (len >= sizeof(ptr))
		return;
	ptr[len] = '\0';
	smp__finding_suggest_at(r, f, ptr, type, value);
}

int
smp__value_type_of(const struct smp_node *n, enum smp_value_type *out)
{
	if (!n || n->kind != SMP_NODE_SCALAR)
		return -1;
	switch (smp__scalar_type(n)) {
	case SMP_SCALAR_STRING:
		*out = SMP_VALUE_STRING;
		return 0;
	case SMP_SCALAR_INT:
	case SMP_SCALAR_FLOAT:
		*out = SMP_VALUE_NUMBER;
		return 0;
	case SMP_SCALAR_BOOL:
		*out = SMP_VALUE_BOOLEAN;
		return 0;
	default:
		return -1;
	}
}

void
smp__finding_suggest_rename(struct smp_report *r, struct smp_finding *f,
			    const char *key)
{
	char ptr[1024];

	if (!f || sibling_pointer(ptr, sizeof(ptr), f, key) != 0)
		return;
	finding_str(r, &f->suggestion, key);
	finding_str(r, &f->suggestion_pointer, ptr);
	finding_str(r, &f->suggestion_from, f->pointer);
	f->suggestion_type = SMP_VALUE_STRING;
	f->suggestion_op = SMP_SUGGESTION_RENAME;
	suggestion_complete(f);
}

enum smp_value_type
smp__value_type_like(const struct smp_node *n, enum smp_value_type type)
{
	if (n && n->kind == SMP_NODE_SCALAR &&
	    smp__scalar_type(n) == SMP_SCALAR_STRING)
		return SMP_VALUE_STRING;
	return type;
}

/* 1 when a and b suggest the same replacement. */
static int
same_suggestion(const struct smp_finding *a, const struct smp_finding *b)
{
	return a->suggestion_op == b->suggestion_op &&
	       a->suggestion_type == b->suggestion_type &&
	       strcmp(a->suggestion, b->suggestion) == 0 &&
	       (a->suggestion_from == b->suggestion_from ||
		(a->suggestion_from && b->suggestion_from &&
		 strcmp(a->suggestion_from, b->suggestion_from) == 0));
}

void
smp__report_settle_suggestions(struct smp_report *r, size_t first)
{
	size_t i, j;

	for (i = first; i < r->count; i++) {
		struct smp_finding *f = &r->items[i];

		if (f->suggestion_op == SMP_SUGGESTION_NONE)
			continue;
		for (j = first; j < i; j++) {
			const struct smp_finding *g = &r->items[j];

			if (g->suggestion_op == SMP_SUGGESTION_NONE ||
			    strcmp(g->suggestion_pointer,
				   f->suggestion_pointer) != 0 ||
			    same_suggestion(f, g))
				continue;
			f->suggestion_op = SMP_SUGGESTION_NONE;
			f->suggestion = NULL;
			f->suggestion_pointer = NULL;
			f->suggestion_from = NULL;
			break;
		}
	}
}

void
smp__finding_pointer(struct smp_report *r, struct smp_finding *f,
		     const char *pointer)
{
	if (f)
		finding_str(r, &f->pointer, pointer);
}

void
smp__report_source(struct smp_report *r, const char *file, const char *buf,
		   size_t len, struct smp_report_source *saved)
{
	saved->src_file = r->src_file;
	saved->buf = r->buf;
	saved->len = r->len;
	saved->root = r->root;
	saved->lines = r->lines; /* kept for when the spec comes back */
	smp__lines_init(&r->lines, NULL, 0);
	r->src_file = NULL;
	if (file) {
		r->src_file = smp__arena_strndup(&r->arena, file, strlen(file));
		if (!r->src_file)
			r->failed = 1;
	}
	r->buf = buf;
	r->len = len;
	r->root = NULL; /* no JSON Pointers into another file */
}

void
smp__report_source_restore(struct smp_report *r,
			   const struct smp_report_source *saved)
{
	r->src_file = saved->src_file;
	r->buf = saved->buf;
	r->len = saved->len;
	r->root = saved->root;
	smp__lines_release(&r->lines, r->alloc);
	r->lines = saved->lines;
}

void
smp__report_finish(struct smp_report *r)
{
	struct smp_finding *f;
	size_t n = r->dropped;

	if (n && !r->finished) {
		r->finished = 1;
		f = smp__report_add(r, SMP_RULE_INPUT_LIMIT, NULL, NULL,
				    "%zu more finding%s not shown: a file "
				    "reports at most %d",
				    n, n == 1 ? "" : "s",
				    SMP_REPORT_FINDINGS_MAX);
		smp__finding_soften(r, f, SMP_RULE_INPUT_LIMIT,
				    SMP_SEVERITY_INFO);
		smp__finding_fix(r, f,
				 "fix the findings shown and check the file "
				 "again");
	}
	smp__lines_release(&r->lines, r->alloc);
}

int
smp__report_full(const struct smp_report *r)
{
	return r->count >= SMP_REPORT_FINDINGS_MAX && !r->finished;
}

static int
cmp_finding(const void *pa, const void *pb)
{
	const struct smp_finding *a = pa, *b = pb;
	int c = a->file == b->file ? 0 : strcmp(a->file, b->file);

	if (c)
		return c;

	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->column != b->column)
		return a->column < b->column ? -1 : 1;
	return strcmp(a->rule, b->rule);
}

void
smp__report_sort(struct smp_report *r)
{
	if (r->count > 1)
		qsort(r->items, r->count, sizeof(*r->items), cmp_finding);
}

/* A path being built: segments of the pointer, escaped per RFC 6901. */
struct path {
	char buf[1024];
	size_t len;
	int overflow;
};

static void
path_push(struct path *p, const struct smp_node *seg, size_t index)
{
	size_t i;
	char num[32];
	const char *s;
	size_t n;

	if (seg) {
		s = seg->kind == SMP_NODE_SCALAR ? seg->u.scalar.value : "?";
		n = seg->kind == SMP_NODE_SCALAR ? seg->u.scalar.len : 1;
	} else {
		n = (size_t)snprintf(num, sizeof(num), "%zu", index);
		s = num;
	}
	if (p->len + 1 < sizeof(p->buf))
		p->buf[p->len++] = '/';
	/* the common segment, nothing to escape: copied whole */
	if (!memchr(s, '~', n) && !memchr(s, '/', n)) {
		if (p->len + n >= sizeof(p->buf)) {
			p->overflow = 1;
			n = sizeof(p->buf) - 1 - p->len;
		}
		memcpy(p->buf + p->len, s, n);
		p->len += n;
		return;
	}
	for (i = 0; i < n; i++) {
		const char *esc = s[i] == '~'   ? "~0"
				  : s[i] == '/' ? "~1"
						: NULL;
		size_t k, el = esc ? 2 : 1;

		if (p->len + el >= sizeof(p->buf)) {
			p->overflow = 1;
			break;
		}
		if (!esc)
			p->buf[p->len++] = s[i];
		for (k = 0; esc && k < el; k++)
			p->buf[p->len++] = esc[k];
	}
}

/* One step from a node to its child: a mapping key or a sequence index. */
struct step {
	const struct smp_node *key; /* NULL for a sequence item */
	size_t index;
};

#define PATH_DEPTH_MAX 129

/* 1 when n's text may hold offset (a node's range holds its children's). */
static int
spans(const struct smp_node *n, size_t offset)
{
	return n && n->start.offset <= offset && offset <= n->end.offset;
}

/*
 * Depth-first search for target below cur, bounded by the document's node
 * limit; on success steps[0..*n) lead there. Only pointers are compared on
 * the way: the text is built once, for the path found. With prune, only
 * into the children whose text holds target's: the same first path in
 * document order, without visiting the rest of the tree (the caller
 * searches again without it when that finds nothing).
 */
static int
find_path(struct step *steps, size_t *n, const struct smp_node *cur,
	  const struct smp_node *target, unsigned depth, int prune)
{
	size_t i, at = target->start.offset;

	if (smp__node_same(cur, target))
		return 1;
	if (!cur || depth > 128)
		return 0;
	if (cur->kind == SMP_NODE_MAPPING) {
		for (i = 0; i < cur->u.mapping.count; i++) {
			const struct smp_pair *pr = &cur->u.mapping.items[i];

			steps[depth].key = pr->key;
			steps[depth].index = 0;
			if (pr->key == target ||
			    ((!prune || spans(pr->value, at)) &&
			     find_path(steps, n, pr->value, target, depth + 1,
				       prune))) {
				if (*n == 0)
					*n = depth + 1;
				return 1;
			}
		}
	} else if (cur->kind == SMP_NODE_SEQUENCE) {
		for (i = 0; i < cur->u.sequence.count; i++) {
			const struct smp_node *item = cur->u.sequence.items[i];

			steps[depth].key = NULL;
			steps[depth].index = i;
			if ((!prune || spans(item, at)) &&
			    find_path(steps, n, item, target, depth + 1,
				      prune)) {
				if (*n == 0)
					*n = depth + 1;
				return 1;
			}
		}
	}
	return 0;
}

/*
 * The scalar of the tree whose text holds offset: where a node that a
 * normalizer derived from the spec's text (a version inside an image tag,
 * a hyperparameter without the SDK's JSON quotes) sits in the document.
 * Steps as find_path().
 */
static int
find_at(struct step *steps, size_t *n, const struct smp_node *cur,
	size_t offset, unsigned depth)
{
	size_t i;

	if (!cur || depth > 128)
		return 0;
	if (cur->kind == SMP_NODE_SCALAR) {
		if (cur->start.offset <= offset && offset < cur->end.offset) {
			*n = depth;
			return 1;
		}
		return 0;
	}
	if (cur->kind == SMP_NODE_MAPPING) {
		for (i = 0; i < cur->u.mapping.count; i++) {
			const struct smp_pair *pr = &cur->u.mapping.items[i];

			steps[depth].key = pr->key;
			steps[depth].index = 0;
			if (find_at(steps, n, pr->value, offset, depth + 1))
				return 1;
		}
	} else if (cur->kind == SMP_NODE_SEQUENCE) {
		for (i = 0; i < cur->u.sequence.count; i++) {
			steps[depth].key = NULL;
			steps[depth].index = i;
			if (find_at(steps, n, cur->u.sequence.items[i], offset,
				    depth + 1))
				return 1;
		}
	}
	return 0;
}

/* See report.h. */
const char *
smp__report_pointer_of(struct smp_report *r, const struct smp_node *root,
		       const struct smp_node *node)
{
	struct step steps[PATH_DEPTH_MAX];
	struct path p;
	const char *s;
	size_t n = 0, i;

	if (!find_path(steps, &n, root, node, 0, 1) &&
	    (n = 0, !find_path(steps, &n, root, node, 0, 0))) {
		n = 0;
		if (node->kind != SMP_NODE_SCALAR ||
		    !find_at(steps, &n, root, node->start.offset, 0))
			return NULL;
	}
	p.len = 0;
	p.overflow = 0;
	for (i = 0; i < n && !p.overflow; i++)
		path_push(&p, steps[i].key, steps[i].index);
	if (p.overflow)
		return NULL;
	s = smp__arena_strndup(&r->arena, p.buf, p.len);
	if (!s)
		r->failed = 1;
	return s;
}
