/*
 * embed_schemas.c - build tool: embed_schemas OUT.c SCHEMA... compiles
 * each JSON Schema file with the library's own compiler (compile.c, so a
 * schema is refused exactly as at run time) and writes the compiled trees
 * as constant C tables, smp__embedded_schemas[]. A check then parses and
 * compiles no schema: that was two thirds of the cost of checking one
 * spec. Patterns are written as their strings, which the library gives
 * to regcomp() when the schema is first built. The output
 * depends on the files' bytes alone.
 *
 * The tables hold what a check reads; what only the compiler needs (the
 * JSON positions of the nodes, the unresolved $ref) is NULL. A const or
 * enum value of an embedded schema must be a scalar (every one is); the
 * tool refuses other values rather than write them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/alloc.h"
#include "util/error.h"
#include "util/read_file.h"
#include "schema/schema.h"
#include "schema/internal.h"
#include "doc/load.h"

struct out {
	FILE *f;
	size_t file; /* index of the schema file, the prefix of names */
	size_t next; /* the next number for an auxiliary table */
	const char *path;
	int bad;
	/* where node id went: s<file>_n[slot[id]], or when leaf[id]
	 * s<file>_t[slot[id]], the pointer-free nodes, each once */
	unsigned char *leaf;
	size_t *slot;
};

/* The address of node sn in the tables. */
static void
put_ref(struct out *o, const struct snode *sn)
{
	fprintf(o->f, "&s%zu_%c[%zu]", o->file, o->leaf[sn->id] ? 't' : 'n',
		o->slot[sn->id]);
}

/* A C string literal of s[0, len): printable ASCII as is, the rest (and
 * '?', against trigraphs) escaped in octal. */
static void
put_mem(FILE *f, const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i;

	fputc('"', f);
	for (i = 0; i < len; i++) {
		if (p[i] == '"' || p[i] == '\\')
			fprintf(f, "\\%c", p[i]);
		else if (p[i] < 0x20 || p[i] >= 0x7f || p[i] == '?')
			fprintf(f, "\\%03o", p[i]);
		else
			fputc(p[i], f);
	}
	fputc('"', f);
}

static void
put_str(FILE *f, const char *s)
{
	if (s)
		put_mem(f, s, strlen(s));
	else
		fputs("NULL", f);
}

static void
put_num(FILE *f, double v)
{
	fprintf(f, "%.17g", v);
}

/* A scalar JSON value as a constant node; its number. */
static size_t
put_value(struct out *o, const struct smp_node *v)
{
	size_t n = o->next++;

	if (v->kind != SMP_NODE_SCALAR) {
		fprintf(stderr,
			"%s:%u:%u: an embedded schema's const and enum "
			"values must be scalars\n",
			o->path, (unsigned)v->start.line,
			(unsigned)v->start.column);
		o->bad = 1;
	}
	fprintf(o->f, "static const struct smp_node s%zu_v%zu = {", o->file, n);
	fputs(".kind = SMP_NODE_SCALAR, .tag = ", o->f);
	put_str(o->f, v->tag);
	fputs(", .u.scalar = {", o->f);
	if (v->kind == SMP_NODE_SCALAR) {
		put_mem(o->f, v->u.scalar.value, v->u.scalar.len);
		fprintf(o->f, ", %zu, (enum smp_scalar_style)%d",
			v->u.scalar.len, (int)v->u.scalar.style);
	} else {
		fputs("\"\", 0, SMP_STYLE_PLAIN", o->f);
	}
	fputs("}};\n", o->f);
	return n;
}

/* A keyword's values as a table of constant nodes; its number. */
static size_t
put_vals(struct out *o, const struct svals *v)
{
	size_t *nums = calloc(v->count ? v->count : 1, sizeof(size_t));
	size_t i, n;

	if (!nums) {
		o->bad = 1;
		return 0;
	}
	for (i = 0; i < v->count; i++)
		nums[i] = put_value(o, v->items[i]);
	n = o->next++;
	fprintf(o->f, "static const struct smp_node *const s%zu_l%zu[] = {",
		o->file, n);
	for (i = 0; i < v->count; i++)
		fprintf(o->f, "%s&s%zu_v%zu", i ? ", " : "", o->file, nums[i]);
	fputs("};\n", o->f);
	free(nums);
	return n;
}

static size_t
put_strings(struct out *o, const char *const *items, size_t count)
{
	size_t i, n = o->next++;

	fprintf(o->f, "static const char *const s%zu_k%zu[] = {", o->file, n);
	for (i = 0; i < count; i++) {
		fputs(i ? ", " : "", o->f);
		put_str(o->f, items[i]);
	}
	fputs("};\n", o->f);
	return n;
}

static size_t
put_nodes(struct out *o, const struct snode *const *items, size_t count)
{
	size_t i, n = o->next++;

	fprintf(o->f, "static const struct snode *const s%zu_a%zu[] = {",
		o->file, n);
	for (i = 0; i < count; i++) {
		fputs(i ? ", " : "", o->f);
		put_ref(o, items[i]);
	}
	fputs("};\n", o->f);
	return n;
}

/* what put_aux() wrote for one node, by member */
struct aux {
	size_t props, prop_names, all_of, any_of, const_value, enum_values,
		enum_words, required, dym, ignored, value, info;
	int has_value, has_info;
};

static void
put_ptr(struct out *o, const char *member, const struct snode *sn)
{
	if (sn) {
		fprintf(o->f, "\t .%s = ", member);
		put_ref(o, sn);
		fputs(",\n", o->f);
	}
}

static void
put_double(struct out *o, const char *member, double v)
{
	if (!isfinite(v)) {
		fprintf(stderr, "%s: '%s' is not a finite number\n", o->path,
			member);
		o->bad = 1;
		return;
	}
	if (v != 0) {
		fprintf(o->f, "\t .%s = ", member);
		put_num(o->f, v);
		fputs(",\n", o->f);
	}
}

static void
put_size(struct out *o, const char *member, size_t v)
{
	if (v)
		fprintf(o->f, "\t .%s = %zu,\n", member, v);
}

static void
put_vals_ref(struct out *o, const char *member, const struct svals *v, size_t n)
{
	if (v->count)
		fprintf(o->f, "\t .%s = {s%zu_l%zu, %zu},\n", member, o->file,
			n, v->count);
}

static void
put_member_str(struct out *o, const char *member, const char *v)
{
	if (v) {
		fprintf(o->f, "\t .%s = ", member);
		put_str(o->f, v);
		fputs(",\n", o->f);
	}
}

/* The node's value keywords as s<file>_x<n>. */
static void
put_svalue(struct out *o, const struct svalue *v, struct aux *x)
{
	FILE *f = o->f;

	x->value = o->next++;
	fprintf(f, "static const struct svalue s%zu_x%zu = {\n", o->file,
		x->value);
	if (v->const_value)
		fprintf(f, "\t .const_value = &s%zu_v%zu,\n", o->file,
			x->const_value);
	else /* a bound of 0 is written as nothing: never an empty {} */
		fputs("\t .const_value = NULL,\n", f);
	put_vals_ref(o, "enum_values", &v->enum_values, x->enum_values);
	put_vals_ref(o, "required", &v->required, x->required);
	put_double(o, "minimum", v->minimum);
	put_double(o, "maximum", v->maximum);
	put_double(o, "excl_minimum", v->excl_minimum);
	put_double(o, "excl_maximum", v->excl_maximum);
	put_size(o, "min_length", v->min_length);
	put_size(o, "max_length", v->max_length);
	put_size(o, "min_items", v->min_items);
	put_size(o, "max_items", v->max_items);
	put_size(o, "min_props", v->min_props);
	put_size(o, "max_props", v->max_props);
	put_size(o, "pattern", v->pattern);
	put_member_str(o, "pattern_src", v->pattern_src);
	fputs("};\n", f);
}

/* The node's wording as s<file>_i<n> (what only the compiler reads is
 * left out). */
static void
put_sinfo(struct out *o, const struct snode *sn, const struct sinfo *in,
	  struct aux *x)
{
	FILE *f = o->f;

	x->info = o->next++;
	fprintf(f, "static const struct sinfo s%zu_i%zu = {\n", o->file,
		x->info);
	put_member_str(o, "title", in->title);
	put_member_str(o, "message", in->message);
	if (sn->nprops)
		fprintf(f, "\t .prop_names = s%zu_k%zu,\n", o->file,
			x->prop_names);
	if (in->nenum_words)
		fprintf(f, "\t .enum_words = s%zu_k%zu, .nenum_words = %zu,\n",
			o->file, x->enum_words, in->nenum_words);
	if (in->ndym)
		fprintf(f, "\t .dym = s%zu_d%zu, .ndym = %zu,\n", o->file,
			x->dym, in->ndym);
	put_vals_ref(o, "ignored_keys", &in->ignored_keys, x->ignored);
	if (in->unknown_warning)
		fputs("\t .unknown_warning = 1,\n", f);
	fputs("};\n", f);
}

/* a node with nothing but a type (most) points at no value */
static int
has_value(const struct snode *sn)
{
	return (sn->has & ~(unsigned)(H_TYPE | H_RULE | H_TYPE_ONLY)) != 0;
}

static int
has_info(const struct snode *sn)
{
	const struct sinfo *in = smp__si(sn);

	return in->title || in->message || sn->nprops || in->nenum_words ||
	       in->ndym || in->ignored_keys.count || in->unknown_warning;
}

/* a node that points at no table of its own: one like it is as good
 * (the walk reads nodes, never compares them) */
static int
is_plain(const struct snode *sn)
{
	return !sn->nprops && !sn->nall_of && !sn->nany_of && !has_value(sn) &&
	       !has_info(sn);
}

/* a plain node that points at no node either: the table of them holds
 * no pointer, so it is read-only data that no relocation writes */
static int
is_leaf(const struct snode *sn)
{
	return is_plain(sn) && !sn->additional && !sn->items &&
	       !sn->property_names && !sn->ref && !sn->if_s && !sn->then_s &&
	       !sn->else_s;
}

/* plain nodes a and b alike: the same keywords and links */
static int
same_plain(const struct snode *a, const struct snode *b)
{
	return a->has == b->has && a->types == b->types &&
	       a->is_false == b->is_false &&
	       (!(a->has & H_RULE) || a->rule == b->rule) &&
	       a->additional == b->additional && a->items == b->items &&
	       a->property_names == b->property_names && a->ref == b->ref &&
	       a->if_s == b->if_s && a->then_s == b->then_s &&
	       a->else_s == b->else_s;
}

/* o->leaf and o->slot for the n nodes of table, each plain node written
 * once; the counts of the two arrays in *nn and *nt */
static int
place(struct out *o, const struct snode **table, size_t n, size_t *nn,
      size_t *nt)
{
	unsigned char *leaf = calloc(n ? n : 1, 1);
	size_t *slot = calloc(n ? n : 1, sizeof(*slot)), i, j;

	if (!leaf || !slot) {
		free(leaf);
		free(slot);
		return -1;
	}
	*nn = *nt = 0;
	for (i = 0; i < n; i++) {
		if (!table[i] || !is_plain(table[i])) {
			slot[i] = (*nn)++;
			continue;
		}
		leaf[i] = (unsigned char)is_leaf(table[i]);
		for (j = 0; j < i; j++)
			if (table[j] && leaf[j] == leaf[i] &&
			    is_plain(table[j]) &&
			    same_plain(table[j], table[i]))
				break;
		if (j < i)
			slot[i] = slot[j];
		else
			slot[i] = leaf[i] ? (*nt)++ : (*nn)++;
	}
	o->leaf = leaf;
	o->slot = slot;
	return 0;
}

static void
put_aux(struct out *o, const struct snode *sn, struct aux *x)
{
	const struct svalue *v = smp__sv(sn);
	const struct sinfo *in = smp__si(sn);
	size_t i;

	memset(x, 0, sizeof(*x));
	if (sn->nprops) {
		x->props = o->next++;
		fprintf(o->f, "static const struct sprop s%zu_p%zu[] = {\n",
			o->file, x->props);
		for (i = 0; i < sn->nprops; i++) {
			fputs("\t{", o->f);
			put_mem(o->f, sn->props[i].name, sn->props[i].len);
			fprintf(o->f, ", %zu, ", sn->props[i].len);
			put_ref(o, sn->props[i].schema);
			fputs("},\n", o->f);
		}
		fputs("};\n", o->f);
		x->prop_names = put_strings(o, in->prop_names, sn->nprops);
	}
	if (sn->nall_of)
		x->all_of = put_nodes(o, sn->all_of, sn->nall_of);
	if (sn->nany_of)
		x->any_of = put_nodes(o, sn->any_of, sn->nany_of);
	if (v->const_value)
		x->const_value = put_value(o, v->const_value);
	if (v->enum_values.count)
		x->enum_values = put_vals(o, &v->enum_values);
	if (in->nenum_words)
		x->enum_words = put_strings(o, in->enum_words, in->nenum_words);
	if (v->required.count)
		x->required = put_vals(o, &v->required);
	if (in->ignored_keys.count)
		x->ignored = put_vals(o, &in->ignored_keys);
	if (in->ndym) {
		x->dym = o->next++;
		fprintf(o->f, "static const struct sdym s%zu_d%zu[] = {",
			o->file, x->dym);
		for (i = 0; i < in->ndym; i++) {
			fputs(i ? ", {" : "{", o->f);
			put_mem(o->f, in->dym[i].from, in->dym[i].from_len);
			fprintf(o->f, ", %zu, ", in->dym[i].from_len);
			put_str(o->f, in->dym[i].to);
			fputs("}", o->f);
		}
		fputs("};\n", o->f);
	}
	x->has_value = has_value(sn);
	if (x->has_value)
		put_svalue(o, v, x);
	x->has_info = has_info(sn);
	if (x->has_info)
		put_sinfo(o, sn, in, x);
}

static void
put_node(struct out *o, const struct snode *sn, const struct aux *x)
{
	FILE *f = o->f;

	fputs("\t{.has = ", f);
	fprintf(f, "%uu, .types = %uu, .is_false = %d,\n", sn->has, sn->types,
		sn->is_false);
	if (sn->has & H_RULE)
		fprintf(f, "\t .rule = (enum smp_rule_id)%d,\n", (int)sn->rule);
	if (sn->nprops)
		fprintf(f, "\t .props = s%zu_p%zu, .nprops = %zu,\n", o->file,
			x->props, sn->nprops);
	put_ptr(o, "additional", sn->additional);
	put_ptr(o, "items", sn->items);
	put_ptr(o, "property_names", sn->property_names);
	put_ptr(o, "ref", sn->ref);
	put_ptr(o, "if_s", sn->if_s);
	put_ptr(o, "then_s", sn->then_s);
	put_ptr(o, "else_s", sn->else_s);
	if (sn->nall_of)
		fprintf(f, "\t .all_of = s%zu_a%zu, .nall_of = %zu,\n", o->file,
			x->all_of, sn->nall_of);
	if (sn->nany_of)
		fprintf(f, "\t .any_of = s%zu_a%zu, .nany_of = %zu,\n", o->file,
			x->any_of, sn->nany_of);
	if (x->has_value)
		fprintf(f, "\t .value = &s%zu_x%zu,\n", o->file, x->value);
	if (x->has_info)
		fprintf(f, "\t .info = &s%zu_i%zu,\n", o->file, x->info);
	fprintf(f, "\t .id = %zu},\n", sn->id);
}

/* The nodes of table[0, n) that are leaves (1) or not (0), in order. */
static void
put_nodes_of(struct out *o, const struct snode **table, const struct aux *aux,
	     size_t n, int leaves, size_t count)
{
	size_t i, k = 0;

	if (!count)
		return;
	fprintf(o->f, "static const struct snode s%zu_%c[%zu] = {\n", o->file,
		leaves ? 't' : 'n', count);
	for (i = 0; i < n; i++)
		if (table[i] && o->leaf[i] == leaves && o->slot[i] == k) {
			put_node(o, table[i], &aux[i]);
			k++;
		}
	fputs("};\n", o->f);
}

/* Every node of the tree by id (table[id]), reached from sn. */
static void
collect(const struct snode *sn, const struct snode **table, size_t n)
{
	size_t i;

	if (!sn || sn->id >= n || table[sn->id])
		return;
	table[sn->id] = sn;
	for (i = 0; i < sn->nprops; i++)
		collect(sn->props[i].schema, table, n);
	collect(sn->additional, table, n);
	collect(sn->items, table, n);
	collect(sn->property_names, table, n);
	collect(sn->ref, table, n);
	collect(sn->if_s, table, n);
	collect(sn->then_s, table, n);
	collect(sn->else_s, table, n);
	for (i = 0; i < sn->nall_of; i++)
		collect(sn->all_of[i], table, n);
	for (i = 0; i < sn->nany_of; i++)
		collect(sn->any_of[i], table, n);
}

/*
 * The JSON Pointer of target under cur ("#/$defs/x"), written at
 * buf[len...]; 1 when found. Escapes '~' and '/' as RFC 6901 says.
 */
static int
pointer_of(const struct smp_node *cur, const struct smp_node *target, char *buf,
	   size_t len, size_t cap)
{
	size_t i, j, k;

	if (cur == target) {
		buf[len] = '\0';
		return 1;
	}
	if (cur->kind == SMP_NODE_MAPPING) {
		for (i = 0; i < cur->u.mapping.count; i++) {
			const struct smp_node *key =
				cur->u.mapping.items[i].key;

			k = len;
			if (k + 1 >= cap)
				return 0;
			buf[k++] = '/';
			for (j = 0; j < key->u.scalar.len; j++) {
				char ch = key->u.scalar.value[j];

				if (k + 2 >= cap)
					return 0;
				if (ch == '~' || ch == '/') {
					buf[k++] = '~';
					ch = ch == '~' ? '0' : '1';
				}
				buf[k++] = ch;
			}
			if (pointer_of(cur->u.mapping.items[i].value, target,
				       buf, k, cap))
				return 1;
		}
	} else if (cur->kind == SMP_NODE_SEQUENCE) {
		for (i = 0; i < cur->u.sequence.count; i++) {
			int w = snprintf(buf + len, cap - len, "/%zu", i);

			if (w < 0 || (size_t)w >= cap - len)
				return 0;
			if (pointer_of(cur->u.sequence.items[i], target, buf,
				       len + (size_t)w, cap))
				return 1;
		}
	}
	return 0;
}

static const char *
base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static int
write_schema(struct out *o, const struct smp_schema *s)
{
	const struct snode **table;
	struct aux *aux;
	char ptr[4096];
	size_t i, n = s->nnodes, nn, nt;
	FILE *f = o->f;

	table = calloc(n ? n : 1, sizeof(*table));
	aux = calloc(n ? n : 1, sizeof(*aux));
	if (!table || !aux) {
		free(table);
		free(aux);
		return -1;
	}
	collect(s->root, table, n);
	for (i = 0; i < s->nsubs; i++)
		collect(s->subs[i].sn, table, n);
	if (place(o, table, n, &nn, &nt)) {
		free(table);
		free(aux);
		return -1;
	}
	fprintf(f, "\n/* %s */\n", base_name(o->path));
	if (nn)
		fprintf(f, "static const struct snode s%zu_n[%zu];\n", o->file,
			nn);
	if (nt)
		fprintf(f, "static const struct snode s%zu_t[%zu];\n", o->file,
			nt);
	for (i = 0; i < n; i++) {
		if (!table[i]) {
			fprintf(stderr, "%s: compiled node %zu unreachable\n",
				o->path, i);
			o->bad = 1;
			continue;
		}
		put_aux(o, table[i], &aux[i]);
	}
	put_nodes_of(o, table, aux, n, 0, nn);
	put_nodes_of(o, table, aux, n, 1, nt);
	fprintf(f, "static const struct memo s%zu_subs[] = {\n", o->file);
	for (i = 0; i < s->nsubs; i++) {
		ptr[0] = '#';
		if (!pointer_of(s->docs.items[0].root, s->subs[i].json, ptr, 1,
				sizeof(ptr))) {
			fprintf(stderr, "%s: no pointer to a $defs member\n",
				o->path);
			o->bad = 1;
			continue;
		}
		fputs("\t{NULL, ", f);
		put_str(f, ptr);
		fputs(", ", f);
		put_ref(o, s->subs[i].sn);
		fputs("},\n", f);
	}
	fputs("};\n", f);
	fprintf(f, "static const char *const s%zu_top[] = {", o->file);
	for (i = 0; i < s->ntop_keys; i++) {
		fputs(i ? ", " : "", f);
		put_str(f, s->top_keys[i]);
	}
	fputs(s->ntop_keys ? "};\n" : "NULL};\n", f);
	fprintf(f, "static const char *const s%zu_pat[] = {", o->file);
	for (i = 0; i < s->npatterns; i++) {
		fputs(i ? ", " : "", f);
		put_str(f, s->pattern_srcs[i]);
	}
	fputs(s->npatterns ? "};\n" : "NULL};\n", f);
	fprintf(f, "static const struct smp_schema_tables s%zu = {\n\t",
		o->file);
	put_str(f, base_name(o->path));
	fputs(",\n\t", f);
	put_ref(o, s->root);
	fprintf(f,
		",\n\ts%zu_subs, %zu,\n\ts%zu_top, %zu,\n\ts%zu_pat, %zu};\n",
		o->file, s->nsubs, o->file, s->ntop_keys, o->file,
		s->npatterns);
	free(o->leaf);
	free(o->slot);
	o->leaf = NULL;
	o->slot = NULL;
	free(table);
	free(aux);
	return 0;
}

int
main(int argc, char **argv)
{
	struct smp_allocator a;
	struct out o;
	char tmp[4096];
	int i, rc = 1;

	if (argc < 2) {
		fprintf(stderr, "usage: embed_schemas OUT.c SCHEMA...\n");
		return 2;
	}
	smp__allocator_resolve(&a, NULL);
	snprintf(tmp, sizeof(tmp), "%s.tmp", argv[1]);
	memset(&o, 0, sizeof(o));
	o.f = fopen(tmp, "w");
	if (!o.f) {
		perror(tmp);
		return 1;
	}
	fputs("/* generated by lib/schema/gen/embed_schemas.c from "
	      "schemas/; do not edit */\n"
	      "#include <stddef.h>\n\n#include \"schema/internal.h\"\n",
	      o.f);
	for (i = 2; i < argc && !o.bad; i++) {
		struct smp_error err;
		struct smp_schema *s = NULL;
		size_t len;
		char *buf = NULL;

		memset(&err, 0, sizeof(err));
		if (smp__read_file(&buf, &len, &a, argv[i], (size_t)1 << 24,
				   &err) != 0) {
			fprintf(stderr, "%s: %s\n", argv[i], err.message);
			o.bad = 1;
			break;
		}
		if (smp__schema_load(&s, &a, base_name(argv[i]), buf, len,
				     &err) != 0) {
			fprintf(stderr, "%s:%u:%u: %s\n", argv[i],
				(unsigned)err.line, (unsigned)err.column,
				err.message);
			o.bad = 1;
		} else {
			o.file = (size_t)(i - 2);
			o.next = 0;
			o.path = argv[i];
			if (write_schema(&o, s))
				o.bad = 1;
		}
		smp__schema_free(s);
		smp__free(&a, buf);
	}
	fputs("\nconst struct smp_schema_tables *const "
	      "smp__embedded_schemas[] = {\n",
	      o.f);
	for (i = 2; i < argc; i++)
		fprintf(o.f, "\t&s%d,\n", i - 2);
	fputs("\tNULL};\n", o.f);
	if ((fclose(o.f) != 0) || o.bad) {
		if (!o.bad)
			perror(tmp);
		remove(tmp);
	} else if (rename(tmp, argv[1]) != 0) {
		perror(argv[1]);
		remove(tmp);
	} else {
		rc = 0;
	}
	return rc;
}
