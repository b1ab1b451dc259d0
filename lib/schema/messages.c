/*
 * messages.c - the wording of the schema findings: what a value must be,
 * how the document's value reads, did-you-mean and "quote it" hints, and
 * the fixes and suggestions that go with them. validate.c decides which
 * keyword a value violates; this file says so.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "schema/schema.h"
#include "schema/internal.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/text.h"

/* an object with at most this many properties lists them when a key is
 * unknown and nothing is close */
#define LIST_KEYS_MAX 8
/* bytes of a document's text quoted in a message */
#define QUOTE_MAX 48

/* a message's bytes, the rest cut (a prefix, as snprintf would keep) */
#define MSG_MAX 900

/* Document text for a message: control bytes escaped, long text cut. */
static void
sb_text(struct smp_buf *b, const char *s, size_t n, size_t max)
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
			smp__buf_adds(b, "\\n");
		else if (ch == '\t')
			smp__buf_adds(b, "\\t");
		else if (ch == '"' || ch == '\\')
			smp__buf_addf(b, "\\%c", ch);
		else if (ch < 0x20 || ch == 0x7F)
			smp__buf_addf(b, "\\x%02X", ch);
		else
			smp__buf_add(b, s + i, 1);
	}
	if (cut < n)
		smp__buf_adds(b, "...");
}

static void
sb_path(struct smp_buf *b, const struct seg *p)
{
	const struct seg *chain[32] = {NULL};
	size_t n = 0;
	int first = 1;

	for (; p && n < sizeof(chain) / sizeof(chain[0]); p = p->up)
		chain[n++] = p;
	if (p)
		smp__buf_adds(b, "...");
	while (n-- > 0) {
		const struct seg *s = chain[n];

		if (!s->key) {
			smp__buf_addf(b, "[%zu]", s->index);
			first = 0;
			continue;
		}
		if (!first)
			smp__buf_adds(b, ".");
		first = 0;
		if (s->key->kind == SMP_NODE_SCALAR)
			sb_text(b, s->key->u.scalar.value, s->key->u.scalar.len,
				QUOTE_MAX);
		else
			smp__buf_adds(b, "?");
	}
}

/* "'distribution.pytorchxla'" or "the document" */
static void
sb_subject(struct smp_buf *b, const struct seg *p)
{
	if (!p) {
		smp__buf_adds(b, "the document");
		return;
	}
	smp__buf_adds(b, "'");
	sb_path(b, p);
	smp__buf_adds(b, "'");
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
sb_found(struct smp_buf *b, const struct smp_node *n)
{
	char num[40];
	double v;

	if (n->kind != SMP_NODE_SCALAR) {
		smp__buf_adds(b, smp__node_type_name(n));
		return;
	}
	switch (smp__scalar_type(n)) {
	case SMP_SCALAR_STRING:
		smp__buf_adds(b, "a string (\"");
		sb_text(b, n->u.scalar.value, n->u.scalar.len, QUOTE_MAX);
		smp__buf_adds(b, "\")");
		return;
	case SMP_SCALAR_NULL:
		smp__buf_adds(b, n->u.scalar.len ? "null" : "an empty value");
		return;
	case SMP_SCALAR_FLOAT:
		if (smp__scalar_number(n, &v) == 0 && isfinite(v)) {
			fmt_number(num, sizeof(num), v);
			smp__buf_addf(b, "a number (%s)", num);
			return;
		}
		break;
	case SMP_SCALAR_INT:
		if (smp__scalar_number(n, &v) != 0) {
			double big = strtod(n->u.scalar.value, NULL);

			smp__buf_adds(b,
				      isfinite(big) && big != 0
					      ? "an integer out of range ("
					      : "text tagged !!int that is no "
						"integer (");
			sb_text(b, n->u.scalar.value, n->u.scalar.len,
				QUOTE_MAX);
			smp__buf_adds(b, ")");
			return;
		}
		break;
	case SMP_SCALAR_BOOL:
		if (smp__scalar_bool(n) < 0) {
			smp__buf_adds(
				b, "text tagged !!bool that is no boolean (");
			sb_text(b, n->u.scalar.value, n->u.scalar.len,
				QUOTE_MAX);
			smp__buf_adds(b, ")");
			return;
		}
		break;
	}
	smp__buf_adds(b, smp__node_type_name(n));
	smp__buf_adds(b, " (");
	sb_text(b, n->u.scalar.value, n->u.scalar.len, QUOTE_MAX);
	smp__buf_adds(b, ")");
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
sb_types(struct smp_buf *b, unsigned types)
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
			smp__buf_adds(b, n + 1 == total ? " or " : ", ");
		smp__buf_adds(b, type_word(1u << i));
		n++;
	}
}

/* A schema JSON value for a message: 'File', false, 3 */
static void
sb_json_value(struct smp_buf *b, const struct smp_node *v)
{
	if (v->kind != SMP_NODE_SCALAR)
		smp__buf_adds(b, smp__node_type_name(v));
	else if (smp__schema_is_string(v))
		smp__buf_addf(b, "'%s'", v->u.scalar.value);
	else
		smp__buf_adds(b, v->u.scalar.value);
}

static void
sb_enum(struct smp_buf *b, const struct svals *values)
{
	size_t i, n = values->count;

	if (n == 1) {
		sb_json_value(b, values->items[0]);
		return;
	}
	smp__buf_adds(b, "one of ");
	for (i = 0; i < n; i++) {
		if (i)
			smp__buf_adds(b, ", ");
		if (i == 12) {
			smp__buf_adds(b, "...");
			break;
		}
		sb_json_value(b, values->items[i]);
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
	size_t i;

	for (i = 0; i < smp__si(sn)->ignored_keys.count; i++) {
		const struct smp_node *e = smp__si(sn)->ignored_keys.items[i];

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

	for (i = 0; i < smp__si(sn)->ndym; i++)
		if (smp__si(sn)->dym[i].from_len == key->u.scalar.len &&
		    memcmp(smp__si(sn)->dym[i].from, key->u.scalar.value,
			   key->u.scalar.len) == 0)
			return smp__si(sn)->dym[i].to;
	return NULL;
}

static void
sb_branch(struct smp_buf *b, const struct snode *sn)
{
	while (!(sn->has & (H_TYPE | H_CONST | H_ENUM)) && sn->ref)
		sn = sn->ref;
	if (sn->has & H_CONST)
		sb_json_value(b, smp__sv(sn)->const_value);
	else if (sn->has & H_ENUM)
		sb_enum(b, &smp__sv(sn)->enum_values);
	else if (sn->has & H_TYPE)
		sb_types(b, sn->types);
	else
		smp__buf_adds(b, "valid");
}

/* "must be <what>": the keyword v of sn that a value of type t violates */
static void
sb_what(struct smp_buf *b, const struct snode *sn, unsigned t, enum violation v,
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
		sb_json_value(b, smp__sv(sn)->const_value);
		break;
	case V_ENUM:
		sb_enum(b, &smp__sv(sn)->enum_values);
		break;
	case V_MINIMUM:
		fmt_number(num, sizeof(num), smp__sv(sn)->minimum);
		smp__buf_addf(b, "at least %s", num);
		break;
	case V_MAXIMUM:
		fmt_number(num, sizeof(num), smp__sv(sn)->maximum);
		smp__buf_addf(b, "at most %s", num);
		break;
	case V_EXCL_MIN:
		fmt_number(num, sizeof(num), smp__sv(sn)->excl_minimum);
		smp__buf_addf(b, "greater than %s", num);
		break;
	case V_EXCL_MAX:
		fmt_number(num, sizeof(num), smp__sv(sn)->excl_maximum);
		smp__buf_addf(b, "less than %s", num);
		break;
	case V_MIN_LENGTH:
		smp__buf_addf(b, "at least %zu character%s long",
			      smp__sv(sn)->min_length,
			      smp__sv(sn)->min_length == 1 ? "" : "s");
		break;
	case V_MAX_LENGTH:
		smp__buf_addf(b, "at most %zu character%s long",
			      smp__sv(sn)->max_length,
			      smp__sv(sn)->max_length == 1 ? "" : "s");
		break;
	case V_PATTERN:
		smp__buf_adds(b, "a string matching the pattern '");
		smp__buf_adds(b, smp__sv(sn)->pattern_src);
		smp__buf_adds(b, "'");
		break;
	case V_MIN_COUNT:
		count = t == T_ARRAY ? smp__sv(sn)->min_items
				     : smp__sv(sn)->min_props;
		smp__buf_addf(b, "%s with at least %zu %s%s", type_word(t),
			      count, unit, count == 1 ? one : many);
		break;
	case V_MAX_COUNT:
		count = t == T_ARRAY ? smp__sv(sn)->max_items
				     : smp__sv(sn)->max_props;
		smp__buf_addf(b, "%s with at most %zu %s%s", type_word(t),
			      count, unit, count == 1 ? one : many);
		break;
	case V_REQUIRED:
		smp__buf_addf(b, "a mapping with the key '%s'",
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
				smp__buf_adds(b,
					      shown + 1 == (k ? k : sn->nany_of)
						      ? " or "
						      : ", ");
			sb_branch(b, sn->any_of[i]);
			shown++;
		}
		break;
	}
}

/*
 * One violation at n: a finding in the report, or, when validating a data
 * file, the earliest violation in document order kept in the error (the
 * walk is not in document order: if/then/else runs after the
 * properties). The finding, or NULL.
 */
static struct smp_finding *
violation(const struct walk *w, enum smp_rule_id rule, const struct smp_node *n,
	  const struct smp_buf *msg)
{
	struct verr *v = w->verr;

	if (w->rep) {
		struct smp_finding *f = smp__report_node(w->rep, rule, n, "%s",
							 smp__buf_str(msg));

		/* a Python launcher's stray trailing comma */
		if (rule == SMP_RULE_WRONG_TYPE &&
		    n->kind == SMP_NODE_SEQUENCE && n->tag &&
		    strcmp(n->tag, SMP_TAG_TUPLE) == 0)
			smp__finding_fix(w->rep, f,
					 "remove the trailing comma that "
					 "makes the value a tuple");
		return f;
	}
	if (!v->found || n->start.line < v->err->line ||
	    (n->start.line == v->err->line &&
	     n->start.column < v->err->column)) {
		smp__error_clear(v->err); /* an earlier one replaces it */
		smp__error_set(v->err, SMP_EPARSE, v->name, &n->start, "%s",
			       smp__buf_str(msg));
	}
	v->found = 1;
	return NULL;
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
	char bmem[MSG_MAX], wmem[MSG_MAX];
	struct smp_buf b, what;
	char num[40];
	double x;

	smp__buf_init_fixed(&b, bmem, sizeof(bmem));
	sb_subject(&b, path);
	if (v == V_FALSE) {
		smp__buf_adds(&b, " is not allowed here");
		violation(w, rule_of(sn, SMP_RULE_WRONG_TYPE), n, &b);
		return;
	}
	if (v == V_REQUIRED) {
		smp__buf_init_fixed(&b, bmem, sizeof(bmem));
		smp__buf_addf(&b, "missing required key '%s' in ",
			      missing->u.scalar.value);
		sb_subject(&b, path);
		violation(w, rule_of(sn, SMP_RULE_WRONG_TYPE), n, &b);
		return;
	}
	smp__buf_init_fixed(&what, wmem, sizeof(wmem));
	sb_what(&what, sn, t, v, missing);
	if (v == V_ENUM && t == T_STRING)
		dym = smp__did_you_mean(n->u.scalar.value,
					smp__si(sn)->enum_words,
					smp__si(sn)->nenum_words);
	if (smp__si(sn)->message) {
		smp__buf_addf(&b, " %s; found ", smp__si(sn)->message);
	} else {
		smp__buf_addf(&b, " must be %s, found ", smp__buf_str(&what));
	}
	sb_found(&b, n);
	if (dym) {
		smp__buf_addf(&b, "; did you mean '%s'?", dym);
		f = violation(w, rule_of(sn, SMP_RULE_WRONG_TYPE), n, &b);
		smp__finding_fix(w->rep, f, "replace '%s' with '%s'",
				 n->u.scalar.value, dym);
		smp__finding_suggest(w->rep, f, SMP_VALUE_STRING, dym);
		return;
	}
	if (quote) {
		smp__buf_adds(&b, "; quote it: \"");
		sb_text(&b, n->u.scalar.value, n->u.scalar.len, QUOTE_MAX);
		smp__buf_adds(&b, "\"");
		if (smp__scalar_type(n) == SMP_SCALAR_FLOAT &&
		    smp__scalar_number(n, &x) == 0 && isfinite(x)) {
			fmt_number(num, sizeof(num), x);
			if (strcmp(num, n->u.scalar.value) != 0)
				smp__buf_addf(
					&b,
					" \xE2\x80\x94 %s reads %s as the "
					"number %s",
					w->json ? "JSON" : "YAML",
					n->u.scalar.value, num);
		}
	}
	f = violation(w, rule_of(sn, SMP_RULE_WRONG_TYPE), n, &b);
	if (quote && f) {
		smp__finding_fix(w->rep, f, "quote the value: \"%s\"",
				 n->u.scalar.value);
		smp__finding_suggest(w->rep, f, SMP_VALUE_STRING,
				     n->u.scalar.value);
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
	char bmem[MSG_MAX];
	struct smp_buf b;
	size_t i;
	int ignored;

	smp__buf_init_fixed(&b, bmem, sizeof(bmem));
	if (k->kind != SMP_NODE_SCALAR) {
		smp__buf_addf(&b, "keys must be strings, found %s",
			      smp__node_type_name(k));
		violation(w, rule_of(sn, SMP_RULE_WRONG_TYPE), k, &b);
		return;
	}
	if (w->rep && smp__report_full(w->rep)) {
		/* only counted: spare the did-you-mean search */
		smp__report_node(w->rep, rule_of(sn, SMP_RULE_UNKNOWN_KEY), k,
				 "%s", "");
		return;
	}
	smp__buf_adds(&b, known ? "key '" : "unknown key '");
	sb_text(&b, k->u.scalar.value, k->u.scalar.len, QUOTE_MAX);
	smp__buf_adds(&b, known ? "' is not allowed " : "' ");
	if (smp__si(sn)->title) {
		smp__buf_addf(&b, "for %s", smp__si(sn)->title);
	} else if (path) {
		smp__buf_adds(&b, "in ");
		sb_subject(&b, path);
	} else {
		smp__buf_adds(&b, "at the top level");
	}
	ignored = is_ignored_key(sn, k);
	if (!known) {
		best = find_dym(sn, k);
		if (!best && !ignored)
			best = smp__did_you_mean(k->u.scalar.value,
						 smp__si(sn)->prop_names,
						 sn->nprops);
	}
	if (best) {
		smp__buf_addf(&b, "; did you mean '%s'?", best);
	} else if (smp__si(sn)->message) {
		smp__buf_addf(&b, "; %s", smp__si(sn)->message);
	} else if (!known && sn->nprops && sn->nprops <= LIST_KEYS_MAX) {
		smp__buf_adds(&b, sn->nprops == 1 ? "; the only key is "
						  : "; the keys are ");
		for (i = 0; i < sn->nprops; i++) {
			if (i)
				smp__buf_adds(&b, i + 1 == sn->nprops ? " and "
								      : ", ");
			smp__buf_addf(&b, "'%s'", smp__si(sn)->prop_names[i]);
		}
	}
	f = violation(w, rule_of(sn, SMP_RULE_UNKNOWN_KEY), k, &b);
	/* a misspelling loses the intended setting: an error; a key the
	 * consumer only ignores leaves a job that runs: a warning */
	if ((smp__si(sn)->unknown_warning && (ignored || !best)) ||
	    (!path && (w->flags & SMP__SCHEMA_RESPONSE)))
		smp__finding_soften(w->rep, f,
				    rule_of(sn, SMP_RULE_UNKNOWN_KEY),
				    SMP_SEVERITY_WARNING);
	if (best) {
		char kmem[MSG_MAX];
		struct smp_buf key;

		smp__buf_init_fixed(&key, kmem, sizeof(kmem));
		sb_text(&key, k->u.scalar.value, k->u.scalar.len, QUOTE_MAX);
		smp__finding_fix(w->rep, f, "rename '%s' to '%s'",
				 smp__buf_str(&key), best);
		smp__finding_suggest_rename(w->rep, f, best);
	}
}
