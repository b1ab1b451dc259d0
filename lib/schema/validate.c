/*
 * validate.c - checks a document's nodes against a compiled schema
 * (internal.h): which keyword a value violates. The wording of the
 * findings is messages.c's. Checking allocates nothing of its own except
 * a scratch buffer to put findings in document order.
 */
#include <stdlib.h>
#include <string.h>

#include "schema/schema.h"
#include "schema/internal.h"
#include "util/alloc.h"
#include "doc/load.h"
#include "util/error.h"

/* deepest recursion of the check (document descent plus applicators) */
#define CHECK_DEPTH_MAX 1000

/* the first bytes of the core schema's nulls, booleans and numbers (and
 * NUL, which strchr() would find too) */
static const unsigned char may_be_typed[256] = {
	[0] = 1,   ['~'] = 1, ['n'] = 1, ['N'] = 1, ['t'] = 1, ['T'] = 1,
	['f'] = 1, ['F'] = 1, ['.'] = 1, ['+'] = 1, ['-'] = 1, ['0'] = 1,
	['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1,
	['7'] = 1, ['8'] = 1, ['9'] = 1,
};

/*
 * The JSON type bits of n; *num (when not NULL) gets its value when n is
 * a number, so that the bounds need not parse the text again (strtod is
 * the dearest step of checking a float).
 */
static unsigned
node_type_num(const struct smp_node *n, double *num)
{
	long long x;
	double d;

	switch (n->kind) {
	case SMP_NODE_MAPPING:
		return T_OBJECT;
	case SMP_NODE_SEQUENCE:
		return T_ARRAY;
	case SMP_NODE_SCALAR:
		break;
	}
	/* hot path: untagged text that is quoted, or that starts like no
	 * null, boolean or number of the core schema, is a string */
	if (!n->tag && (n->u.scalar.style != SMP_STYLE_PLAIN ||
			(n->u.scalar.len &&
			 !may_be_typed[(unsigned char)n->u.scalar.value[0]])))
		return T_STRING;
	switch (smp__scalar_type(n)) {
	case SMP_SCALAR_INT:
		/* an integer that overflows, or text tagged !!int that is no
		 * integer ("!!int banana"), matches no type: it must not
		 * pass as the default the job would then use */
		if (smp__scalar_int(n, &x))
			return 0;
		if (num)
			*num = (double)x;
		return T_INTEGER | T_NUMBER;
	case SMP_SCALAR_FLOAT:
		if (smp__scalar_number(n, &d))
			return 0;
		if (num)
			*num = d;
		return T_NUMBER;
	case SMP_SCALAR_BOOL:
		return smp__scalar_bool(n) >= 0 ? T_BOOLEAN : 0;
	case SMP_SCALAR_NULL:
		return T_NULL;
	case SMP_SCALAR_STRING:
		break;
	}
	return T_STRING;
}

static unsigned
node_type(const struct smp_node *n)
{
	return node_type_num(n, NULL);
}

/* Equality of a schema's JSON value and a document node. */
static int
json_equal(const struct smp_node *a, const struct smp_node *b, unsigned depth)
{
	size_t i;

	if (a->kind != b->kind || depth > 64)
		return 0;
	if (a->kind == SMP_NODE_SEQUENCE) {
		if (a->u.sequence.count != b->u.sequence.count)
			return 0;
		for (i = 0; i < a->u.sequence.count; i++)
			if (!json_equal(a->u.sequence.items[i],
					b->u.sequence.items[i], depth + 1))
				return 0;
		return 1;
	}
	if (a->kind == SMP_NODE_MAPPING) {
		if (a->u.mapping.count != b->u.mapping.count)
			return 0;
		for (i = 0; i < a->u.mapping.count; i++) {
			const struct smp_pair *p = &a->u.mapping.items[i];
			const struct smp_node *v =
				smp__map_get(b, p->key->u.scalar.value);

			if (!v || !json_equal(p->value, v, depth + 1))
				return 0;
		}
		return 1;
	}
	{
		unsigned ta = node_type(a), tb = node_type(b);
		double x, y;

		if ((ta & T_NUMBER) && (tb & T_NUMBER))
			return smp__scalar_number(a, &x) == 0 &&
			       smp__scalar_number(b, &y) == 0 && x == y;
		if (ta != tb)
			return 0;
		if (ta == T_BOOLEAN)
			return smp__scalar_bool(a) == smp__scalar_bool(b);
		if (ta == T_NULL)
			return 1;
		return a->u.scalar.len == b->u.scalar.len &&
		       memcmp(a->u.scalar.value, b->u.scalar.value,
			      a->u.scalar.len) == 0;
	}
}

static size_t
utf8_chars(const char *s, size_t n)
{
	size_t i, count = 0;

	for (i = 0; i < n; i++)
		count += ((unsigned char)s[i] & 0xC0) != 0x80;
	return count;
}

static int validate(struct walk *w, const struct snode *sn,
		    const struct smp_node *n, const struct seg *path,
		    int report);

/*
 * The "quote it" hint: a number or boolean where a string is wanted, and
 * the same text as a string would pass.
 */
static int
quote_would_pass(struct walk *w, const struct snode *sn,
		 const struct smp_node *n)
{
	struct smp_node fake;
	unsigned t = node_type(n);
	int pass;

	if (n->kind != SMP_NODE_SCALAR || !(sn->types & T_STRING) ||
	    !(t & (T_NUMBER | T_BOOLEAN)) || n->u.scalar.len == 0)
		return 0;
	fake = *n;
	fake.tag = NULL;
	fake.u.scalar.style = SMP_STYLE_DOUBLE_QUOTED;
	w->typed = NULL; /* the stack copy is not the node typed */
	pass = validate(w, sn, &fake, NULL, 0) == 0;
	w->typed = NULL;
	return pass;
}

/* check_value() result for a type mismatch */
#define BAD_TYPE 2

/*
 * Checks the value keywords: 0, BAD_TYPE, or 1 at the first other
 * violation (reported when report is set).
 */
static int
check_value(struct walk *w, const struct snode *sn, const struct smp_node *n,
	    const struct seg *path, int report)
{
	const struct smp_node *missing = NULL;
	enum violation bad;
	double v = 0;
	unsigned t;

	if (!(sn->has & ~(unsigned)(H_RULE | H_TYPE_ONLY)))
		return 0;
	/* a value is often checked against several schemas (a $ref, the
	 * branches of anyOf): type it once */
	if (w->typed != n) {
		w->typed_num = 0;
		w->typed_type = node_type_num(n, &w->typed_num);
		w->typed = n;
	}
	t = w->typed_type;
	v = w->typed_num;

	if ((sn->has & H_TYPE) && !(sn->types & t)) {
		if (report)
			/* the quote hint is for specs, not data files */
			smp__schema_report(w, sn, n, t, path, V_TYPE, NULL,
					   w->rep &&
						   quote_would_pass(w, sn, n));
		return BAD_TYPE;
	}
	if ((sn->has & H_CONST) &&
	    !json_equal(smp__sv(sn)->const_value, n, 0)) {
		bad = V_CONST;
		goto bad;
	}
	if (sn->has & H_ENUM) {
		size_t i, count = smp__sv(sn)->enum_values.count;

		for (i = 0; i < count; i++)
			if (json_equal(smp__sv(sn)->enum_values.items[i], n, 0))
				break;
		if (i == count) {
			bad = V_ENUM;
			goto bad;
		}
	}
	if ((t & T_NUMBER) &&
	    (sn->has & (H_MINIMUM | H_MAXIMUM | H_EXCL_MIN | H_EXCL_MAX))) {
		if ((sn->has & H_MINIMUM) && !(v >= smp__sv(sn)->minimum)) {
			bad = V_MINIMUM;
			goto bad;
		}
		if ((sn->has & H_MAXIMUM) && !(v <= smp__sv(sn)->maximum)) {
			bad = V_MAXIMUM;
			goto bad;
		}
		if ((sn->has & H_EXCL_MIN) &&
		    !(v > smp__sv(sn)->excl_minimum)) {
			bad = V_EXCL_MIN;
			goto bad;
		}
		if ((sn->has & H_EXCL_MAX) &&
		    !(v < smp__sv(sn)->excl_maximum)) {
			bad = V_EXCL_MAX;
			goto bad;
		}
	}
	if (t == T_STRING) {
		/* a string no longer in bytes than the maximum is short
		 * enough in characters: count only when it may matter */
		size_t chars = n->u.scalar.len;

		if ((sn->has & H_MIN_LENGTH) ||
		    ((sn->has & H_MAX_LENGTH) &&
		     chars > smp__sv(sn)->max_length))
			chars = utf8_chars(n->u.scalar.value, chars);

		if ((sn->has & H_MIN_LENGTH) &&
		    chars < smp__sv(sn)->min_length) {
			bad = V_MIN_LENGTH;
			goto bad;
		}
		if ((sn->has & H_MAX_LENGTH) &&
		    chars > smp__sv(sn)->max_length) {
			bad = V_MAX_LENGTH;
			goto bad;
		}
		if ((sn->has & H_PATTERN) &&
		    !smp__pattern_match(&w->rx[smp__sv(sn)->pattern],
					n->u.scalar.value, n->u.scalar.len)) {
			bad = V_PATTERN;
			goto bad;
		}
	}
	if (t == T_ARRAY || t == T_OBJECT) {
		size_t count =
			t == T_ARRAY ? n->u.sequence.count : n->u.mapping.count;
		unsigned lo = t == T_ARRAY ? H_MIN_ITEMS : H_MIN_PROPS;
		unsigned hi = t == T_ARRAY ? H_MAX_ITEMS : H_MAX_PROPS;
		size_t min = t == T_ARRAY ? smp__sv(sn)->min_items
					  : smp__sv(sn)->min_props;
		size_t max = t == T_ARRAY ? smp__sv(sn)->max_items
					  : smp__sv(sn)->max_props;

		if ((sn->has & lo) && count < min) {
			bad = V_MIN_COUNT;
			goto bad;
		}
		if ((sn->has & hi) && count > max) {
			bad = V_MAX_COUNT;
			goto bad;
		}
	}
	if (t == T_OBJECT && (sn->has & H_REQUIRED)) {
		size_t i;

		for (i = 0; i < smp__sv(sn)->required.count; i++) {
			const struct smp_node *k =
				smp__sv(sn)->required.items[i];

			if (smp__map_pair(n, k->u.scalar.value))
				continue;
			missing = k;
			bad = V_REQUIRED;
			goto bad;
		}
	}
	return 0;
bad:
	if (report)
		smp__schema_report(w, sn, n, t, path, bad, missing, 0);
	return 1;
}

static int
check_object(struct walk *w, const struct snode *sn, const struct smp_node *n,
	     const struct seg *path, int report)
{
	int bad = 0;
	size_t i;

	for (i = 0; i < n->u.mapping.count; i++) {
		const struct smp_pair *p = &n->u.mapping.items[i];
		const struct sprop *prop = NULL;
		const struct snode *sub;
		struct seg seg;

		seg.up = path;
		seg.key = p->key;
		seg.index = 0;
		if (sn->property_names &&
		    validate(w, sn->property_names, p->key, &seg, report)) {
			bad = 1;
			if (!report)
				return 1;
		}
		if (p->key->kind == SMP_NODE_SCALAR)
			prop = smp__schema_find_prop(sn, p->key->u.scalar.value,
						     p->key->u.scalar.len);
		sub = prop ? prop->schema : sn->additional;
		if (!sub)
			continue;
		if (sub->is_false || p->key->kind != SMP_NODE_SCALAR) {
			/* an unknown key: its value is not looked at */
			if (!report)
				return 1;
			smp__schema_report_key(w, sn, p, path, prop != NULL);
			bad = 1;
			continue;
		}
		if (validate(w, sub, p->value, &seg, report)) {
			bad = 1;
			if (!report)
				return 1;
		}
	}
	return bad;
}

/* Whether branch b of an anyOf names a type that n has. */
static int
branch_typed_for(const struct snode *b, const struct smp_node *n)
{
	while (!(b->has & H_TYPE) && b->ref)
		b = b->ref;
	return (b->has & H_TYPE) && (b->types & node_type(n));
}

static int
check_any_of(struct walk *w, const struct snode *sn, const struct smp_node *n,
	     const struct seg *path, int report)
{
	const struct snode *only = NULL;
	size_t i, typed = 0;

	for (i = 0; i < sn->nany_of; i++)
		if (validate(w, sn->any_of[i], n, path, 0) == 0)
			return 0;
	if (!report)
		return 1;
	/* one branch is meant for this kind of value: its findings say most */
	for (i = 0; i < sn->nany_of; i++) {
		if (branch_typed_for(sn->any_of[i], n)) {
			typed++;
			only = sn->any_of[i];
		}
	}
	if (typed == 1) {
		validate(w, only, n, path, 1);
		return 1;
	}
	smp__schema_report(w, sn, n, 0, path, V_ANY_OF, NULL, 0);
	return 1;
}

/*
 * Checks n against sn: 0 valid, 1 not. With report, every violation
 * becomes a finding; without, it stops at the first (for if and anyOf).
 */
static int
validate(struct walk *w, const struct snode *sn, const struct smp_node *n,
	 const struct seg *path, int report)
{
	int bad = 0;
	size_t i;

	if (w->depth >= CHECK_DEPTH_MAX)
		return 0; /* a pathological schema: stop, do not crash */
	if (n->tag && smp__node_unknown(n))
		return 0; /* a value a Python source computes: not known */
	if (sn->has & H_TYPE_ONLY) {
		/* the common leaf: only its type to check */
		if (w->typed != n) {
			w->typed_num = 0;
			w->typed_type = node_type_num(n, &w->typed_num);
			w->typed = n;
		}
		if (sn->types & w->typed_type)
			return 0;
	}
	w->depth++;
	if (sn->is_false) {
		if (report)
			smp__schema_report(w, sn, n, 0, path, V_FALSE, NULL, 0);
		bad = 1;
		goto out;
	}
	/* one value finding per node and schema; after a type mismatch
	 * nothing else applies */
	switch (check_value(w, sn, n, path, report)) {
	case 0:
		break;
	case BAD_TYPE:
		bad = 1;
		goto out;
	default:
		bad = 1;
		if (!report)
			goto out;
	}
	if (n->kind == SMP_NODE_MAPPING &&
	    (sn->nprops || sn->additional || sn->property_names)) {
		bad |= check_object(w, sn, n, path, report);
		if (bad && !report)
			goto out;
	}
	if (n->kind == SMP_NODE_SEQUENCE && sn->items) {
		for (i = 0; i < n->u.sequence.count; i++) {
			struct seg seg;

			seg.up = path;
			seg.key = NULL;
			seg.index = i;
			if (validate(w, sn->items, n->u.sequence.items[i], &seg,
				     report)) {
				bad = 1;
				if (!report)
					goto out;
			}
		}
	}
	if (sn->ref && validate(w, sn->ref, n, path, report)) {
		bad = 1;
		if (!report)
			goto out;
	}
	for (i = 0; i < sn->nall_of; i++) {
		if (validate(w, sn->all_of[i], n, path, report)) {
			bad = 1;
			if (!report)
				goto out;
		}
	}
	if (sn->nany_of && check_any_of(w, sn, n, path, report)) {
		bad = 1;
		if (!report)
			goto out;
	}
	if (sn->if_s) {
		const struct snode *branch =
			validate(w, sn->if_s, n, path, 0) == 0 ? sn->then_s
							       : sn->else_s;

		if (branch && validate(w, branch, n, path, report))
			bad = 1;
	}
out:
	w->depth--;
	return bad;
}

static int
cmp_pos(const struct smp_finding *a, const struct smp_finding *b)
{
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->column != b->column)
		return a->column < b->column ? -1 : 1;
	return 0;
}

/* Stable merge sort of findings [from, count) into document order. */
static int
sort_findings(struct smp_report *r, size_t from)
{
	struct smp_finding *a, *tmp;
	size_t n = r->count - from, width, i;

	if (n < 2)
		return 0; /* also keeps NULL items out of the arithmetic */
	a = r->items + from;
	for (i = 1; i < n; i++)
		if (cmp_pos(&a[i - 1], &a[i]) > 0)
			break;
	if (i >= n)
		return 0;
	tmp = smp__malloc(r->alloc, n * sizeof(*tmp));
	if (!tmp)
		return SMP_ENOMEM;
	for (width = 1; width < n; width *= 2) {
		for (i = 0; i < n; i += 2 * width) {
			size_t lo = i, mid = i + width < n ? i + width : n;
			size_t hi = i + 2 * width < n ? i + 2 * width : n;
			size_t x = lo, y = mid, k = lo;

			while (x < mid && y < hi)
				tmp[k++] = cmp_pos(&a[y], &a[x]) < 0 ? a[y++]
								     : a[x++];
			while (x < mid)
				tmp[k++] = a[x++];
			while (y < hi)
				tmp[k++] = a[y++];
		}
		memcpy(a, tmp, n * sizeof(*tmp));
	}
	smp__free(r->alloc, tmp);
	return 0;
}

/*
 * Checks the document under root against the schema (see schema.h);
 * findings are added in document order.
 */
int
smp__schema_check(const struct smp_schema *s, const struct smp_node *root,
		  struct smp_report *rep, unsigned flags)
{
	struct walk w;
	size_t from = rep->count;

	if (!s || !root)
		return rep->failed ? SMP_ENOMEM : 0;
	memset(&w, 0, sizeof(w)); /* no node typed yet */
	w.rep = rep;
	w.verr = NULL;
	w.rx = s->rx;
	/* the loader's own decision (a format hint or the bytes can make a
	 * job.yaml JSON), not the file name again */
	w.json = rep->is_json;
	w.flags = flags;
	w.depth = 0;
	validate(&w, s->root, root, NULL, 1);
	if (rep->failed)
		return SMP_ENOMEM;
	if (sort_findings(rep, from)) {
		rep->failed = 1;
		return SMP_ENOMEM;
	}
	return 0;
}

/*
 * Validates a data file's document (see schema.h): the walk of
 * smp__schema_check() without a report, keeping the earliest violation.
 */
int
smp__schema_validate(const struct smp_schema *s, const char *pointer,
		     const struct smp_node *root, const char *name,
		     struct smp_error *err)
{
	const struct snode *sn;
	struct smp_error local;
	struct verr verr;
	struct walk w;

	if (!s || !root)
		return smp__error_set(err, SMP_EINVAL, name, NULL,
				      "no schema or no document to validate");
	sn = pointer ? smp__schema_part(s, pointer) : s->root;
	if (!sn)
		return smp__error_set(err, SMP_EINVAL, name, NULL,
				      "the schema has no '%.200s'", pointer);
	memset(&local, 0, sizeof(local));
	verr.err = err ? err : &local;
	verr.name = name;
	verr.found = 0;
	memset(&w, 0, sizeof(w)); /* no node typed yet */
	w.rep = NULL;
	w.verr = &verr;
	w.rx = s->rx;
	w.json = 1;
	w.flags = 0;
	w.depth = 0;
	validate(&w, sn, root, NULL, 1);
	return verr.found ? SMP_EPARSE : 0;
}
