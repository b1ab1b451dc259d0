/*
 * annotate.c - each finding's byte edit, set while smp_check() still has
 * the parsed documents (fix.h): the finding's own document or launcher
 * job found by its pointer and position, the rule's safety from rules.def,
 * the edit from edit.c (YAML, JSON, Python) or edit_notebook.c.
 */
#include <string.h>

#include "report/fix_safety.h"
#include "job/source_python.h"
#include "fix/edit.h"
#include "fix/edit_notebook.h"
#include "fix/fix.h"

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
