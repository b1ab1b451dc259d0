/*
 * messages.c - the wording of the schema findings: what a value must be,
 * how the document's value reads, did-you-mean and "quote it" hints, and
 * the fixes and suggestions that go with them. validate.c decides which
 * keyword a value violates; this file says so.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema/schema.h"
#include "schema/internal.h"
#include "util/text.h"

/* an object with at most this many properties lists them when a key is
 * unknown and nothing is close */
#define LIST_KEYS_MAX 8
/* bytes of a document's text quoted in a message */
#define QUOTE_MAX 48

/* a message being built, silently truncated */
struct sbuf {
	char s[900];
	size_t len;
};

static void
sb_add(struct sbuf *b, const char *s, size_t n)
{
	size_t room = sizeof(b->s) - 1 - b->len;

	if (n > room)
		n = room;
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void
sb_str(struct sbuf *b, const char *s)
{
	sb_add(b, s, strlen(s));
}

static void sb_fmt(struct sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
sb_fmt(struct sbuf *b, const char *fmt, ...)
{
	size_t room = sizeof(b->s) - b->len;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b->s + b->len, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->len += (size_t)n < room ? (size_t)n : room - 1;
}

/* Document text for a message: control bytes escaped, long text cut. */
static void
sb_text(struct sbuf *b, const char *s, size_t n, size_t max)
{
	size_t i, cut = n;

	if (n > max) {
		cut = max;
		while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80)
			cut--;
	}
	for (i = 0; i < cut; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch == '\n')
			sb_str(b, "\\n");
		else if (ch == '\t')
			sb_str(b, "\\t");
		else if (ch == '"' || ch == '\\')
			sb_fmt(b, "\\%c", ch);
		else if (ch < 0x20 || ch == 0x7F)
			sb_fmt(b, "\\x%02X", ch);
		else
			sb_add(b, s + i, 1);
	}
	if (cut < n)
		sb_str(b, "...");
}

static void
sb_path(struct sbuf *b, const struct seg *p)
{
	const struct seg *chain[32] = {NULL};
	size_t n = 0;
	int first = 1;

	for (; p && n < sizeof(chain) / sizeof(chain[0]); p = p->up)
		chain[n++] = p;
	if (p)
		sb_str(b, "...");
	while (n-- > 0) {
		const struct seg *s = chain[n];

		if (!s->key) {
			sb_fmt(b, "[%zu]", s->index);
			first = 0;
			continue;
		}
		if (!first)
			sb_str(b, ".");
		first = 0;
		if (s->key->kind == SMP_NODE_SCALAR)
			sb_text(b, s->key->u.scalar.value, s->key->u.scalar.len,
				QUOTE_MAX);
		else
			sb_str(b, "?");
	}
}

/* "'distribution.pytorchxla'" or "the document" */
static void
sb_subject(struct sbuf *b, const struct seg *p)
{
	if (!p) {
		sb_str(b, "the document");
		return;
	}
	sb_str(b, "'");
	sb_path(b, p);
	sb_str(b, "'");
}

/* Shortest %g text that reads back as v ("1.1" for 1.10). */
static void
fmt_number(char *out, size_t size, double v)
{
	int prec;

	if (v == floor(v) && fabs(v) < 1e15) {
		snprintf(out, size, "%.0f", v);
		return;
	}
	for (prec = 1; prec <= 17; prec++) {
		snprintf(out, size, "%.*g", prec, v);
		if (strtod(out, NULL) == v)
			return;
	}
}

/* How the document's value reads: a string ("two"), a number (1.1) */
static void
sb_found(struct sbuf *b, const struct smp_node *n)
{
	char num[40];
	double v;

	if (n->kind != SMP_NODE_SCALAR) {
		sb_str(b, smp__node_type_name(n));
		return;
	}
	switch (smp__scalar_type(n)) {
	case SMP_SCALAR_STRING:
		sb_str(b, "a string (\"");
		sb_text(b, n->u.scalar.value, n->u.scalar.len, QUOTE_MAX);
		sb_str(b, "\")");
		return;
	case SMP_SCALAR_NULL:
		sb_str(b, n->u.scalar.len ? "null" : "an empty value");
		return;
	case SMP_SCALAR_FLOAT:
		if (smp__scalar_number(n, &v) == 0 && isfinite(v)) {
			fmt_number(num, sizeof(num), v);
			sb_fmt(b, "a number (%s)", num);
			return;
		}
		break;
	case SMP_SCALAR_INT:
		if (smp__scalar_number(n, &v) != 0) {
			double big = strtod(n->u.scalar.value, NULL);

			sb_str(b, isfinite(big) && big != 0
					  ? "an integer out of range ("
					  : "text tagged !!int that is no "
					    "integer (");
			sb_text(b, n->u.scalar.value, n->u.scalar.len,
				QUOTE_MAX);
			sb_str(b, ")");
			return;
		}
		break;
	case SMP_SCALAR_BOOL:
		if (smp__scalar_bool(n) < 0) {
			sb_str(b, "text tagged !!bool that is no boolean (");
			sb_text(b, n->u.scalar.value, n->u.scalar.len,
				QUOTE_MAX);
			sb_str(b, ")");
			return;
		}
		break;
	}
	sb_str(b, smp__node_type_name(n));
	sb_str(b, " (");
	sb_text(b, n->u.scalar.value, n->u.scalar.len, QUOTE_MAX);
	sb_str(b, ")");
}

static const char *
type_word(unsigned bit)
{
	switch (bit) {
	case T_OBJECT:
		return "a mapping";
	case T_ARRAY:
		return "a list";
	case T_STRING:
		return "a string";
	case T_INTEGER:
		return "an integer";
	case T_NUMBER:
		return "a number";
	case T_BOOLEAN:
		return "a boolean";
	default:
		return "null";
	}
}

/* "a string, a number or a boolean"; null (an optional argument's
 * default) is not named beside a real type */
static void
sb_types(struct sbuf *b, unsigned types)
{
	size_t i, n = 0, total = 0;

	if (types != T_NULL)
		types &= ~T_NULL;

	for (i = 0; i < 7; i++)
		total += (types >> i) & 1u;
	for (i = 0; i < 7; i++) {
		if (!(types & (1u << i)))
			continue;
		if (n)
			sb_str(b, n + 1 == total ? " or " : ", ");
		sb_str(b, type_word(1u << i));
		n++;
	}
}

/* A schema JSON value for a message: 'File', false, 3 */
static void
sb_json_value(struct sbuf *b, const struct smp_node *v)
{
	if (v->kind != SMP_NODE_SCALAR)
		sb_str(b, smp__node_type_name(v));
	else if (smp__schema_is_string(v))
		sb_fmt(b, "'%s'", v->u.scalar.value);
	else
		sb_str(b, v->u.scalar.value);
}

static void
sb_enum(struct sbuf *b, const struct smp_node *values)
{
	size_t i, n = values->u.sequence.count;

	if (n == 1) {
		sb_json_value(b, values->u.sequence.items[0]);
		return;
	}
	sb_str(b, "one of ");
	for (i = 0; i < n; i++) {
		if (i)
			sb_str(b, ", ");
		if (i == 12) {
			sb_str(b, "...");
			break;
		}
		sb_json_value(b, values->u.sequence.items[i]);
	}
}

static enum smp_rule_id
rule_of(const struct snode *sn, enum smp_rule_id dflt)
{
	return (sn->has & H_RULE) ? sn->rule : dflt;
}

/* 1 when key is one of sn's x-smp-ignored-keys. */
static int
is_ignored_key(const struct snode *sn, const struct smp_node *key)
{
	const struct smp_node *v = sn->ignored_keys;
	size_t i;

	for (i = 0; v && i < v->u.sequence.count; i++) {
		const struct smp_node *e = v->u.sequence.items[i];

		if (e->u.scalar.len == key->u.scalar.len &&
		    memcmp(e->u.scalar.value, key->u.scalar.value,
			   key->u.scalar.len) == 0)
			return 1;
	}
	return 0;
}

static const char *
find_dym(const struct snode *sn, const struct smp_node *key)
{
	size_t i;

	for (i = 0; i < sn->ndym; i++)
		if (sn->dym[i].from_len == key->u.scalar.len &&
		    memcmp(sn->dym[i].from, key->u.scalar.value,
			   key->u.scalar.len) == 0)
			return sn->dym[i].to;
	return NULL;
}

static void
sb_branch(struct sbuf *b, const struct snode *sn)
{
	while (!(sn->has & (H_TYPE | H_CONST | H_ENUM)) && sn->ref)
		sn = sn->ref;
	if (sn->has & H_CONST)
		sb_json_value(b, sn->const_value);
	else if (sn->has & H_ENUM)
		sb_enum(b, sn->enum_values);
	else if (sn->has & H_TYPE)
		sb_types(b, sn->types);
	else
		sb_str(b, "valid");
}

/* "must be <what>": the keyword v of sn that a value of type t violates */
static void
sb_what(struct sbuf *b, const struct snode *sn, unsigned t, enum violation v,
	const struct smp_node *missing)
{
	const char *unit = t == T_ARRAY ? "item" : "entr";
	const char *one = t == T_ARRAY ? "" : "y";
	const char *many = t == T_ARRAY ? "s" : "ies";
	char num[40];
	size_t i, k, shown, count;

	switch (v) {
	case V_FALSE:
		break;
	case V_TYPE:
		sb_types(b, sn->types);
		break;
	case V_CONST:
		sb_json_value(b, sn->const_value);
		break;
	case V_ENUM:
		sb_enum(b, sn->enum_values);
		break;
	case V_MINIMUM:
		fmt_number(num, sizeof(num), sn->minimum);
		sb_fmt(b, "at least %s", num);
		break;
	case V_MAXIMUM:
		fmt_number(num, sizeof(num), sn->maximum);
		sb_fmt(b, "at most %s", num);
		break;
	case V_MIN_LENGTH:
		sb_fmt(b, "at least %zu character%s long", sn->min_length,
		       sn->min_length == 1 ? "" : "s");
		break;
	case V_MAX_LENGTH:
		sb_fmt(b, "at most %zu character%s long", sn->max_length,
		       sn->max_length == 1 ? "" : "s");
		break;
	case V_PATTERN:
		sb_str(b, "a string matching the pattern '");
		sb_str(b, sn->pattern_src);
		sb_str(b, "'");
		break;
	case V_MIN_COUNT:
		count = t == T_ARRAY ? sn->min_items : sn->min_props;
		sb_fmt(b, "%s with at least %zu %s%s", type_word(t), count,
		       unit, count == 1 ? one : many);
		break;
	case V_MAX_COUNT:
		count = t == T_ARRAY ? sn->max_items : sn->max_props;
		sb_fmt(b, "%s with at most %zu %s%s", type_word(t), count, unit,
		       count == 1 ? one : many);
		break;
	case V_REQUIRED:
		sb_fmt(b, "a mapping with the key '%s'",
		       missing->u.scalar.value);
		break;
	case V_ANY_OF:
		/* a null branch (an optional argument's default) goes
		 * unnamed */
		for (i = 0, k = 0; i < sn->nany_of; i++)
			if (sn->any_of[i]->types != T_NULL)
				k++;
		for (i = 0, shown = 0; i < sn->nany_of; i++) {
			if (k && sn->any_of[i]->types == T_NULL)
				continue;
			if (shown)
				sb_str(b, shown + 1 == (k ? k : sn->nany_of)
						  ? " or "
						  : ", ");
			sb_branch(b, sn->any_of[i]);
			shown++;
		}
		break;
	}
}

/*
 * Reports that value n violates keyword v of sn (see internal.h): "'path'
 * must be <what>, found <n>", or with the schema's x-smp-message "'path'
 * <message>; found <n>"; then a did-you-mean for an enum, or the "quote
 * it" hint.
 */
void
smp__schema_report(const struct walk *w, const struct snode *sn,
		   const struct smp_node *n, unsigned t, const struct seg *path,
		   enum violation v, const struct smp_node *missing, int quote)
{
	const char *dym = NULL;
	struct smp_finding *f;
	struct sbuf b, what;
	char num[40];
	double x;

	b.len = 0;
	b.s[0] = '\0';
	sb_subject(&b, path);
	if (v == V_FALSE) {
		sb_str(&b, " is not allowed here");
		smp__report_node(w->rep, rule_of(sn, SMP_RULE_WRONG_TYPE), n,
				 "%s", b.s);
		return;
	}
	what.len = 0;
	what.s[0] = '\0';
	sb_what(&what, sn, t, v, missing);
	if (v == V_ENUM && t == T_STRING)
		dym = smp__did_you_mean(n->u.scalar.value, sn->enum_words,
					sn->nenum_words);
	if (sn->message) {
		sb_fmt(&b, " %s; found ", sn->message);
	} else {
		sb_fmt(&b, " must be %s, found ", what.s);
	}
	sb_found(&b, n);
	if (dym) {
		sb_fmt(&b, "; did you mean '%s'?", dym);
		f = smp__report_node(w->rep, rule_of(sn, SMP_RULE_WRONG_TYPE),
				     n, "%s", b.s);
		smp__finding_fix(w->rep, f, "replace '%s' with '%s'",
				 n->u.scalar.value, dym);
		smp__finding_suggest(w->rep, f, dym);
		return;
	}
	if (quote) {
		sb_str(&b, "; quote it: \"");
		sb_text(&b, n->u.scalar.value, n->u.scalar.len, QUOTE_MAX);
		sb_str(&b, "\"");
		if (smp__scalar_type(n) == SMP_SCALAR_FLOAT &&
		    smp__scalar_number(n, &x) == 0 && isfinite(x)) {
			fmt_number(num, sizeof(num), x);
			if (strcmp(num, n->u.scalar.value) != 0)
				sb_fmt(&b,
				       " \xE2\x80\x94 %s reads %s as the "
				       "number %s",
				       w->json ? "JSON" : "YAML",
				       n->u.scalar.value, num);
		}
	}
	f = smp__report_node(w->rep, rule_of(sn, SMP_RULE_WRONG_TYPE), n, "%s",
			     b.s);
	if (quote && f) {
		smp__finding_fix(w->rep, f, "quote the value: \"%s\"",
				 n->u.scalar.value);
		smp__finding_suggest(w->rep, f, n->u.scalar.value);
	}
}

/* A key that the object's schema does not allow, reported at the key. */
void
smp__schema_report_key(const struct walk *w, const struct snode *sn,
		       const struct smp_pair *p, const struct seg *path,
		       int known)
{
	const struct smp_node *k = p->key;
	const char *best = NULL;
	struct smp_finding *f;
	struct sbuf b;
	size_t i;
	int ignored;

	b.len = 0;
	b.s[0] = '\0';
	if (k->kind != SMP_NODE_SCALAR) {
		sb_fmt(&b, "keys must be strings, found %s",
		       smp__node_type_name(k));
		smp__report_node(w->rep, rule_of(sn, SMP_RULE_WRONG_TYPE), k,
				 "%s", b.s);
		return;
	}
	if (smp__report_full(w->rep)) {
		/* only counted: spare the did-you-mean search */
		smp__report_node(w->rep, rule_of(sn, SMP_RULE_UNKNOWN_KEY), k,
				 "%s", "");
		return;
	}
	sb_str(&b, known ? "key '" : "unknown key '");
	sb_text(&b, k->u.scalar.value, k->u.scalar.len, QUOTE_MAX);
	sb_str(&b, known ? "' is not allowed " : "' ");
	if (sn->title) {
		sb_fmt(&b, "for %s", sn->title);
	} else if (path) {
		sb_str(&b, "in ");
		sb_subject(&b, path);
	} else {
		sb_str(&b, "at the top level");
	}
	ignored = is_ignored_key(sn, k);
	if (!known) {
		best = find_dym(sn, k);
		if (!best && !ignored)
			best = smp__did_you_mean(k->u.scalar.value,
						 sn->prop_names, sn->nprops);
	}
	if (best) {
		sb_fmt(&b, "; did you mean '%s'?", best);
	} else if (sn->message) {
		sb_fmt(&b, "; %s", sn->message);
	} else if (!known && sn->nprops && sn->nprops <= LIST_KEYS_MAX) {
		sb_str(&b, sn->nprops == 1 ? "; the only key is "
					   : "; the keys are ");
		for (i = 0; i < sn->nprops; i++) {
			if (i)
				sb_str(&b,
				       i + 1 == sn->nprops ? " and " : ", ");
			sb_fmt(&b, "'%s'", sn->prop_names[i]);
		}
	}
	f = smp__report_node(w->rep, rule_of(sn, SMP_RULE_UNKNOWN_KEY), k, "%s",
			     b.s);
	/* a misspelling loses the intended setting: an error; a key the
	 * consumer only ignores leaves a job that runs: a warning */
	if (sn->unknown_warning && (ignored || !best))
		smp__finding_soften(w->rep, f,
				    rule_of(sn, SMP_RULE_UNKNOWN_KEY),
				    SMP_SEVERITY_WARNING);
	if (best) {
		struct sbuf key;

		key.len = 0;
		key.s[0] = '\0';
		sb_text(&key, k->u.scalar.value, k->u.scalar.len, QUOTE_MAX);
		smp__finding_fix(w->rep, f, "rename '%s' to '%s'", key.s, best);
		smp__finding_suggest(w->rep, f, best);
	}
}
