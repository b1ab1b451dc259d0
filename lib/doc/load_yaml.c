/*
 * load_yaml.c - YAML to nodes through libyaml's event parser, the one YAML
 * parser of the project. Events are turned into nodes in the documents'
 * arena at once and freed; aliases
 * point at the anchored node, and the node limit counts what an alias
 * expands to, so a billion-laughs document stops after a few events.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "doc/load.h"
#include "util/text.h"

/* Mappings up to this size are checked for duplicate keys pairwise. */
#define DUP_PAIRWISE_MAX 16

/* The longest key text quoted in a duplicate-key message. */

/* An anchor of the current document; the entry lives in the arena. */
struct anchor {
	struct anchor *next;
	const char *name;
	size_t hash;
	struct smp_node *node;
	size_t size; /* nodes in the subtree, aliases expanded; 0 = open */
};

/* An open mapping or sequence; its children sit on items from base. */
struct frame {
	struct smp_node *node;
	struct anchor *anchor;
	size_t base;
	size_t size;
};

struct loader {
	struct smp_docs *docs;
	struct smp_arena *arena;
	const struct smp_allocator *alloc;
	int failed; /* a diagnostic could not be added */
	const char *buf;
	size_t len;
	size_t max_depth, max_nodes, max_scalar, max_docs;
	/* libyaml's mark.index counts characters: a moving cursor maps it
	 * to a byte offset in time proportional to the distance moved */
	size_t cur_index, cur_off, base_off;
	/* no byte above 0x7F: a character index is the byte offset */
	int ascii;
	struct frame *frames;
	size_t nframes, cap_frames;
	struct smp_node **items;
	size_t nitems, cap_items;
	struct anchor **buckets;
	size_t nbuckets, nanchors;
	struct smp_doc doc;
	size_t nodes; /* in the current document, aliases expanded */
	size_t ndocs;
};

/* Handlers return 0 to go on, STOP after a diagnostic, or SMP_ENOMEM. */
#define STOP 1

static struct smp_diag *diag(struct loader *ld, enum smp_diag_kind kind,
			     const struct smp_pos *start,
			     const struct smp_pos *end, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Adds a diagnostic; when memory runs out, ld->failed says so. */
static struct smp_diag *
diag(struct loader *ld, enum smp_diag_kind kind, const struct smp_pos *start,
     const struct smp_pos *end, const char *fmt, ...)
{
	struct smp_diag *d;
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	d = smp__docs_diag(ld->docs, kind, start, end, "%s", msg);
	if (!d)
		ld->failed = 1;
	return d;
}

/* Tags that come up often point at these instead of an arena copy. */
static const char *const common_tags[] = {
	"!",
	"tag:yaml.org,2002:str",
	"tag:yaml.org,2002:int",
	"tag:yaml.org,2002:float",
	"tag:yaml.org,2002:bool",
	"tag:yaml.org,2002:null",
	"tag:yaml.org,2002:map",
	"tag:yaml.org,2002:seq",
	"tag:yaml.org,2002:binary",
	"tag:yaml.org,2002:timestamp",
};

static size_t
utf8_width(unsigned char c)
{
	if (c < 0x80)
		return 1;
	if ((c & 0xE0) == 0xC0)
		return 2;
	if ((c & 0xF0) == 0xE0)
		return 3;
	if ((c & 0xF8) == 0xF0)
		return 4;
	return 1;
}

/* Most specs are ASCII: then byte_offset() needs no walk (a BOM is not). */
static int
is_ascii(const char *buf, size_t len)
{
	const unsigned char *s = (const unsigned char *)buf;
	uint64_t wide = 0;
	unsigned char any = 0;
	size_t i = 0;

	/* eight bytes at a time (memcpy: no alignment assumed) */
	for (; i + 8 <= len; i += 8) {
		uint64_t w;

		memcpy(&w, s + i, sizeof(w));
		wide |= w;
	}
	for (; i < len; i++)
		any |= s[i];
	return (wide & 0x8080808080808080ULL) == 0 && (any & 0x80) == 0;
}

static size_t
byte_offset(struct loader *ld, size_t index)
{
	const unsigned char *s = (const unsigned char *)ld->buf;

	if (ld->ascii)
		return index < ld->len ? index : ld->len;
	while (ld->cur_index < index && ld->cur_off < ld->len) {
		ld->cur_off += utf8_width(s[ld->cur_off]);
		if (ld->cur_off > ld->len)
			ld->cur_off = ld->len;
		ld->cur_index++;
	}
	while (ld->cur_index > index && ld->cur_off > ld->base_off) {
		ld->cur_off--;
		while (ld->cur_off > ld->base_off &&
		       (s[ld->cur_off] & 0xC0) == 0x80)
			ld->cur_off--;
		ld->cur_index--;
	}
	return ld->cur_off;
}

/*
 * The one place where a libyaml mark (0-based line and column, index in
 * characters) becomes our position (1-based, with a byte offset).
 */
static struct smp_pos
mark_pos(struct loader *ld, const yaml_mark_t *m)
{
	struct smp_pos p;

	p.line = m->line < UINT32_MAX ? (uint32_t)m->line + 1 : UINT32_MAX;
	p.column =
		m->column < UINT32_MAX ? (uint32_t)m->column + 1 : UINT32_MAX;
	p.offset = byte_offset(ld, m->index);
	return p;
}

/* An end position is underlined only when it is on the start's line. */
static const struct smp_pos *
same_line_end(const struct smp_node *n)
{
	return n->end.line == n->start.line ? &n->end : NULL;
}

/* FNV-1a, for anchor names and mapping keys. */
static size_t
hash_bytes(const char *s, size_t n)
{
	size_t h = (size_t)14695981039346656037ULL, i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * (size_t)1099511628211ULL;
	return h;
}

static size_t
hash_name(const char *s)
{
	return hash_bytes(s, strlen(s));
}

static struct anchor *
anchor_find(const struct loader *ld, const char *name)
{
	struct anchor *a;
	size_t h;

	if (!ld->nbuckets)
		return NULL;
	h = hash_name(name);
	for (a = ld->buckets[h & (ld->nbuckets - 1)]; a; a = a->next)
		if (a->hash == h && strcmp(a->name, name) == 0)
			return a;
	return NULL;
}

static int
anchors_grow(struct loader *ld)
{
	size_t n = ld->nbuckets ? ld->nbuckets * 2 : 64, i;
	struct anchor **b, *a, *next;

	if (n > SIZE_MAX / sizeof(struct anchor *))
		return SMP_ENOMEM;
	b = smp__calloc(ld->alloc, n, sizeof(struct anchor *));
	if (!b)
		return SMP_ENOMEM;
	for (i = 0; i < ld->nbuckets; i++) {
		for (a = ld->buckets[i]; a; a = next) {
			next = a->next;
			a->next = b[a->hash & (n - 1)];
			b[a->hash & (n - 1)] = a;
		}
	}
	smp__free(ld->alloc, ld->buckets);
	ld->buckets = b;
	ld->nbuckets = n;
	return 0;
}

/* Defines (or redefines: the latest wins) an anchor for node. */
static int
anchor_put(struct loader *ld, struct anchor **out, const char *name,
	   struct smp_node *node, size_t size)
{
	struct anchor *a = anchor_find(ld, name);

	if (!a) {
		if (ld->nanchors >= ld->nbuckets && anchors_grow(ld))
			return SMP_ENOMEM;
		a = smp__arena_alloc(ld->arena, sizeof(*a));
		if (!a)
			return SMP_ENOMEM;
		a->name = smp__arena_strndup(ld->arena, name, strlen(name));
		if (!a->name)
			return SMP_ENOMEM;
		a->hash = hash_name(name);
		a->next = ld->buckets[a->hash & (ld->nbuckets - 1)];
		ld->buckets[a->hash & (ld->nbuckets - 1)] = a;
		ld->nanchors++;
	}
	a->node = node;
	a->size = size;
	if (out)
		*out = a;
	return 0;
}

static void
doc_begin(struct loader *ld, const yaml_event_t *ev)
{
	memset(&ld->doc, 0, sizeof(ld->doc));
	ld->doc.start = mark_pos(ld, &ev->start_mark);
	ld->nodes = 0;
	ld->nframes = ld->nitems = 0;
	if (ld->nbuckets)
		memset(ld->buckets, 0, ld->nbuckets * sizeof(struct anchor *));
	ld->nanchors = 0;
}

/* Counts n more nodes in the document (n > 1 for an alias). */
static int
count_nodes(struct loader *ld, size_t n, const yaml_mark_t *at, int alias)
{
	struct smp_pos p;

	if (ld->nodes <= ld->max_nodes && n <= ld->max_nodes - ld->nodes) {
		ld->nodes += n;
		return 0;
	}
	p = mark_pos(ld, at);
	if (alias)
		diag(ld, SMP_DIAG_LIMIT, &p, NULL,
		     "document expands to more than %zu nodes "
		     "through aliases (billion laughs?)",
		     ld->max_nodes);
	else
		diag(ld, SMP_DIAG_LIMIT, &p, NULL,
		     "document has more than %zu nodes", ld->max_nodes);
	return STOP;
}

/* Hangs a finished node (size nodes, aliases expanded) on its parent. */
static int
attach(struct loader *ld, struct smp_node *node, size_t size)
{
	void *items;

	if (!ld->nframes) {
		ld->doc.root = node;
		return 0;
	}
	if (ld->nitems >= ld->cap_items) {
		items = ld->items;
		if (smp__grow(ld->alloc, &items, &ld->cap_items, ld->nitems + 1,
			      sizeof(struct smp_node *)))
			return SMP_ENOMEM;
		ld->items = items;
	}
	ld->items[ld->nitems++] = node;
	ld->frames[ld->nframes - 1].size += size;
	return 0;
}

static const char *
copy_tag(struct loader *ld, const yaml_char_t *tag, int *oom)
{
	const char *t = (const char *)tag;
	size_t i;

	*oom = 0;
	if (!t)
		return NULL;
	for (i = 0; i < sizeof(common_tags) / sizeof(common_tags[0]); i++)
		if (strcmp(t, common_tags[i]) == 0)
			return common_tags[i];
	t = smp__arena_strndup(ld->arena, t, strlen(t));
	*oom = t == NULL;
	return t;
}

static struct smp_node *
new_node(struct loader *ld, enum smp_node_kind kind, const yaml_event_t *ev,
	 const yaml_char_t *tag)
{
	struct smp_node *n = smp__arena_alloc(ld->arena, sizeof(*n));
	int oom;

	if (!n)
		return NULL;
	memset(n, 0, sizeof(*n)); /* a constant size: inlined stores */
	n->kind = kind;
	n->start = mark_pos(ld, &ev->start_mark);
	n->end = mark_pos(ld, &ev->end_mark);
	n->tag = copy_tag(ld, tag, &oom);
	return oom ? NULL : n;
}

static enum smp_scalar_style
scalar_style(yaml_scalar_style_t s)
{
	switch (s) {
	case YAML_SINGLE_QUOTED_SCALAR_STYLE:
		return SMP_STYLE_SINGLE_QUOTED;
	case YAML_DOUBLE_QUOTED_SCALAR_STYLE:
		return SMP_STYLE_DOUBLE_QUOTED;
	case YAML_LITERAL_SCALAR_STYLE:
		return SMP_STYLE_LITERAL;
	case YAML_FOLDED_SCALAR_STYLE:
		return SMP_STYLE_FOLDED;
	case YAML_ANY_SCALAR_STYLE:
	case YAML_PLAIN_SCALAR_STYLE:
		break;
	}
	return SMP_STYLE_PLAIN;
}

static int
on_scalar(struct loader *ld, const yaml_event_t *ev)
{
	size_t len = ev->data.scalar.length;
	struct smp_node *n;
	char *v;
	int rc;

	if (len > ld->max_scalar) {
		struct smp_pos p = mark_pos(ld, &ev->start_mark);

		diag(ld, SMP_DIAG_LIMIT, &p, NULL,
		     "scalar of %zu bytes is longer than the limit "
		     "of %zu bytes",
		     len, ld->max_scalar);
		return STOP;
	}
	rc = count_nodes(ld, 1, &ev->start_mark, 0);
	if (rc)
		return rc;
	n = new_node(ld, SMP_NODE_SCALAR, ev, ev->data.scalar.tag);
	if (!n)
		return SMP_ENOMEM;
	v = smp__arena_strndup(ld->arena, (const char *)ev->data.scalar.value,
			       len);
	if (!v)
		return SMP_ENOMEM;
	n->u.scalar.value = v;
	n->u.scalar.len = len;
	n->u.scalar.style = scalar_style(ev->data.scalar.style);
	if (ev->data.scalar.anchor &&
	    anchor_put(ld, NULL, (const char *)ev->data.scalar.anchor, n, 1))
		return SMP_ENOMEM;
	return attach(ld, n, 1);
}

static int
on_start(struct loader *ld, const yaml_event_t *ev)
{
	int is_map = ev->type == YAML_MAPPING_START_EVENT;
	const yaml_char_t *tag = is_map ? ev->data.mapping_start.tag
					: ev->data.sequence_start.tag;
	const yaml_char_t *anchor = is_map ? ev->data.mapping_start.anchor
					   : ev->data.sequence_start.anchor;
	struct frame *f;
	struct smp_node *n;
	void *frames;
	int rc;

	if (ld->nframes >= ld->max_depth) {
		struct smp_pos p = mark_pos(ld, &ev->start_mark);

		diag(ld, SMP_DIAG_LIMIT, &p, NULL,
		     "document nests deeper than %zu levels", ld->max_depth);
		return STOP;
	}
	rc = count_nodes(ld, 1, &ev->start_mark, 0);
	if (rc)
		return rc;
	n = new_node(ld, is_map ? SMP_NODE_MAPPING : SMP_NODE_SEQUENCE, ev,
		     tag);
	if (!n)
		return SMP_ENOMEM;
	frames = ld->frames;
	if (smp__grow(ld->alloc, &frames, &ld->cap_frames, ld->nframes + 1,
		      sizeof(*ld->frames)))
		return SMP_ENOMEM;
	ld->frames = frames;
	f = &ld->frames[ld->nframes++];
	f->node = n;
	f->anchor = NULL;
	f->base = ld->nitems;
	f->size = 1;
	/* size 0 marks the anchor open: an alias to it inside is a cycle */
	if (anchor && anchor_put(ld, &f->anchor, (const char *)anchor, n, 0))
		return SMP_ENOMEM;
	return 0;
}

static int
key_equal(const struct smp_node *a, const struct smp_node *b)
{
	return a->kind == SMP_NODE_SCALAR && b->kind == SMP_NODE_SCALAR &&
	       a->u.scalar.len == b->u.scalar.len &&
	       memcmp(a->u.scalar.value, b->u.scalar.value, a->u.scalar.len) ==
		       0;
}

/*
 * The JSON Pointer of a duplicate key, from the open frames: each parent
 * holds its children on items up to the next frame's base (end for the
 * innermost). None when a key on the way is not a plain scalar.
 */
static void
set_dup_pointer(struct loader *ld, struct smp_diag *f, size_t end,
		const struct smp_node *key)
{
	char ptr[1024], num[32];
	size_t len = 0, d;

	for (d = 0; d < ld->nframes && len < sizeof(ptr); d++) {
		const struct frame *fr = &ld->frames[d];
		size_t stop =
			d + 1 < ld->nframes ? ld->frames[d + 1].base : end;
		size_t r = stop - fr->base;

		if (fr->node->kind == SMP_NODE_MAPPING) {
			const struct smp_node *k;

			/* an even count: the child being built is a key */
			if (r % 2 == 0)
				return;
			k = ld->items[stop - 1];
			if (k->kind != SMP_NODE_SCALAR)
				return;
			smp__pointer_seg(ptr, sizeof(ptr), &len,
					 k->u.scalar.value, k->u.scalar.len);
		} else {
			int w = snprintf(num, sizeof(num), "%zu", r);

			smp__pointer_seg(ptr, sizeof(ptr), &len, num,
					 (size_t)w);
		}
	}
	smp__pointer_seg(ptr, sizeof(ptr), &len, key->u.scalar.value,
			 key->u.scalar.len);
	if (len >= sizeof(ptr) || memchr(ptr, '\0', len))
		return;
	f->pointer = smp__arena_strndup(ld->arena, ptr, len);
	if (!f->pointer)
		ld->failed = 1;
}

static void
report_duplicate(struct loader *ld, size_t end, const struct smp_node *key,
		 const struct smp_node *first)
{
	struct smp_diag *f = smp__docs_duplicate_key(ld->docs, key,
						     same_line_end(key), first);

	if (!f)
		ld->failed = 1;
	else
		set_dup_pointer(ld, f, end, key);
}

/*
 * Duplicate scalar keys of mapping m, each reported at its second (and
 * later) occurrence, in source order, naming the first; end is where
 * the mapping's own items began, for the pointer. Large mappings go
 * through a hash table of first occurrences, so 100,000 keys cost O(n).
 */
static int
check_duplicates(struct loader *ld, const struct smp_node *m, size_t end)
{
	const struct smp_pair *items = m->u.mapping.items;
	size_t n = m->u.mapping.count, i, j, nslots = 64, *slots;

	if (n <= DUP_PAIRWISE_MAX) {
		for (i = 1; i < n; i++)
			for (j = 0; j < i; j++)
				if (key_equal(items[i].key, items[j].key)) {
					report_duplicate(ld, end, items[i].key,
							 items[j].key);
					break;
				}
		return 0;
	}
	while (nslots < 2 * n)
		nslots *= 2;
	/* slot holds index + 1 of a first occurrence; 0 is empty */
	slots = smp__calloc(ld->alloc, nslots, sizeof(*slots));
	if (!slots)
		return SMP_ENOMEM;
	for (i = 0; i < n; i++) {
		const struct smp_node *k = items[i].key;

		if (k->kind != SMP_NODE_SCALAR)
			continue;
		j = hash_bytes(k->u.scalar.value, k->u.scalar.len) &
		    (nslots - 1);
		while (slots[j] && !key_equal(items[slots[j] - 1].key, k))
			j = (j + 1) & (nslots - 1);
		if (slots[j])
			report_duplicate(ld, end, k, items[slots[j] - 1].key);
		else
			slots[j] = i + 1;
	}
	smp__free(ld->alloc, slots);
	return 0;
}

static int
on_end(struct loader *ld, const yaml_event_t *ev)
{
	struct frame f;
	struct smp_node *n;
	size_t count, i;

	if (!ld->nframes)
		return 0; /* libyaml never sends an unbalanced end */
	f = ld->frames[--ld->nframes];
	n = f.node;
	count = ld->nitems - f.base;
	n->end = mark_pos(ld, &ev->end_mark);
	if (n->kind == SMP_NODE_MAPPING) {
		struct smp_pair *p = NULL;

		count /= 2;
		if (count) {
			p = smp__arena_alloc(ld->arena, count * sizeof(*p));
			if (!p)
				return SMP_ENOMEM;
		}
		for (i = 0; i < count; i++) {
			p[i].key = ld->items[f.base + 2 * i];
			p[i].value = ld->items[f.base + 2 * i + 1];
		}
		n->u.mapping.items = p;
		n->u.mapping.count = count;
		if (check_duplicates(ld, n, f.base))
			return SMP_ENOMEM;
	} else {
		struct smp_node **s = NULL;

		if (count) {
			s = smp__arena_alloc(ld->arena,
					     count * sizeof(struct smp_node *));
			if (!s)
				return SMP_ENOMEM;
			memcpy(s, ld->items + f.base,
			       count * sizeof(struct smp_node *));
		}
		n->u.sequence.items = s;
		n->u.sequence.count = count;
	}
	ld->nitems = f.base;
	/* a later anchor of the same name may have replaced this one */
	if (f.anchor && f.anchor->node == n)
		f.anchor->size = f.size;
	return attach(ld, n, f.size);
}

static int
on_alias(struct loader *ld, const yaml_event_t *ev)
{
	const char *name = (const char *)ev->data.alias.anchor;
	struct anchor *a = anchor_find(ld, name);
	struct smp_pos p;
	int rc;

	if (!a || !a->size) {
		p = mark_pos(ld, &ev->start_mark);
		if (!a)
			diag(ld, SMP_DIAG_SYNTAX, &p, NULL,
			     "unknown alias '*%s': define the anchor "
			     "'&%s' before using it",
			     name, name);
		else
			diag(ld, SMP_DIAG_LIMIT, &p, NULL,
			     "alias '*%s' refers to a node that "
			     "contains it: the document would "
			     "expand forever",
			     name);
		return STOP;
	}
	rc = count_nodes(ld, a->size, &ev->start_mark, 1);
	if (rc)
		return rc;
	return attach(ld, a->node, a->size);
}

static int
on_document(struct loader *ld, const yaml_event_t *ev)
{
	struct smp_doc *d;

	if (ev->type == YAML_DOCUMENT_START_EVENT) {
		if (ld->ndocs >= ld->max_docs) {
			struct smp_pos p = mark_pos(ld, &ev->start_mark);

			diag(ld, SMP_DIAG_LIMIT, &p, NULL,
			     "stream has more than %zu documents",
			     ld->max_docs);
			return STOP;
		}
		doc_begin(ld, ev);
		return 0;
	}
	d = smp__docs_push(ld->docs);
	if (!d)
		return SMP_ENOMEM;
	*d = ld->doc;
	ld->ndocs++;
	return 0;
}

/* libyaml's wording, lower-case first, no final full stop. */
static void
tidy_message(char *msg)
{
	size_t n = strlen(msg);

	if (msg[0] >= 'A' && msg[0] <= 'Z' && !(msg[1] >= 'A' && msg[1] <= 'Z'))
		msg[0] = (char)(msg[0] - 'A' + 'a');
	while (n > 0 && (msg[n - 1] == '.' || msg[n - 1] == ' '))
		msg[--n] = '\0';
}

static int
syntax_error(struct loader *ld, const yaml_parser_t *p)
{
	const char *problem = p->problem ? p->problem : "invalid YAML";
	struct smp_pos at, ctx;
	char msg[512];

	if (p->error == YAML_MEMORY_ERROR)
		return SMP_ENOMEM;
	if (p->error == YAML_READER_ERROR) {
		/* problem_offset counts bytes, unlike the marks */
		at = smp__pos_at(ld->buf, ld->len, p->problem_offset);
		if (ld->base_off && at.line == 1 && at.column > 1)
			at.column--; /* as in marks, the BOM is no column */
		if (p->problem_value < 0)
			snprintf(msg, sizeof(msg), "%s", problem);
		else if (strstr(problem, "octet"))
			snprintf(msg, sizeof(msg), "%s (byte 0x%02X)", problem,
				 (unsigned)p->problem_value);
		else
			snprintf(msg, sizeof(msg), "%s (U+%04X)", problem,
				 (unsigned)p->problem_value);
	} else {
		at = mark_pos(ld, &p->problem_mark);
		if (!p->context) {
			snprintf(msg, sizeof(msg), "%s", problem);
		} else if (p->context_mark.index == p->problem_mark.index ||
			   at.offset >= ld->len) {
			/* at the end of the stream, the start of what was
			 * left open says better where to look */
			at = mark_pos(ld, &p->context_mark);
			snprintf(msg, sizeof(msg), "%s %s", problem,
				 p->context);
		} else {
			ctx = mark_pos(ld, &p->context_mark);
			snprintf(msg, sizeof(msg),
				 "%s %s (started at line %u column %u)",
				 problem, p->context, (unsigned)ctx.line,
				 (unsigned)ctx.column);
		}
	}
	tidy_message(msg);
	diag(ld, SMP_DIAG_SYNTAX, &at, NULL, "%s", msg);
	return STOP;
}

static int
on_event(struct loader *ld, const yaml_event_t *ev)
{
	switch (ev->type) {
	case YAML_DOCUMENT_START_EVENT:
	case YAML_DOCUMENT_END_EVENT:
		return on_document(ld, ev);
	case YAML_SCALAR_EVENT:
		return on_scalar(ld, ev);
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		return on_start(ld, ev);
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		return on_end(ld, ev);
	case YAML_ALIAS_EVENT:
		return on_alias(ld, ev);
	case YAML_NO_EVENT:
	case YAML_STREAM_START_EVENT:
	case YAML_STREAM_END_EVENT:
		break;
	}
	return 0;
}

static int
parse_stream(struct loader *ld, yaml_parser_t *parser)
{
	yaml_event_t ev;
	int rc, done;

	for (;;) {
		if (!yaml_parser_parse(parser, &ev))
			return syntax_error(ld, parser);
		done = ev.type == YAML_STREAM_END_EVENT;
		rc = on_event(ld, &ev);
		yaml_event_delete(&ev);
		if (rc || done)
			return rc;
	}
}

static int
parse_libyaml(struct loader *ld)
{
	yaml_parser_t parser;
	int rc;

	if (!yaml_parser_initialize(&parser))
		return SMP_ENOMEM;
	yaml_parser_set_input_string(&parser, (const unsigned char *)ld->buf,
				     ld->len);
	/* specs are UTF-8: a UTF-16 byte order mark is a reader error at
	 * byte 0 rather than a decoding that the byte offsets cannot follow */
	if (ld->len >= 2 && ((unsigned char)ld->buf[0] == 0xFF ||
			     (unsigned char)ld->buf[0] == 0xFE))
		yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING);
	rc = parse_stream(ld, &parser);
	yaml_parser_delete(&parser);
	return rc;
}

int
smp__load_yaml(struct smp_docs *docs, const char *buf, size_t len,
	       const struct smp_limits *limits)
{
	struct smp_limits lim;
	struct loader ld;
	int rc;

	smp__limits_resolve(&lim, limits);
	memset(&ld, 0, sizeof(ld));
	ld.docs = docs;
	ld.arena = &docs->arena;
	ld.alloc = docs->arena.alloc;
	ld.buf = buf ? buf : "";
	ld.len = buf ? len : 0;
	ld.max_depth = lim.max_depth;
	ld.max_nodes = lim.max_nodes;
	ld.max_scalar = lim.max_scalar_len;
	ld.max_docs = lim.max_documents;
	/* libyaml skips a UTF-8 byte order mark without counting it */
	if (ld.len >= 3 && memcmp(ld.buf, "\xEF\xBB\xBF", 3) == 0)
		ld.base_off = ld.cur_off = 3;
	ld.ascii = is_ascii(ld.buf, ld.len);
	rc = parse_libyaml(&ld);
	smp__free(ld.alloc, ld.frames);
	smp__free(ld.alloc, ld.items);
	smp__free(ld.alloc, ld.buckets);
	if (rc == SMP_ENOMEM || ld.failed)
		return SMP_ENOMEM;
	return 0;
}
