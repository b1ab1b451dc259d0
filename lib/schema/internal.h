/*
 * internal.h - what the schema stage's files share: the compiled schema
 * tree (built by compile.c, immutable after), and the walk over a
 * document that validate.c does and messages.c words findings for.
 * Not part of the stage's interface (schema.h).
 */
#ifndef SMP_SCHEMA_INTERNAL_H
#define SMP_SCHEMA_INTERNAL_H

#include <regex.h>
#include <stddef.h>

#include "schema/schema.h"
#include "doc/doc.h"
#include "report/report.h"

/* JSON Schema instance types, as bits */
enum {
	T_OBJECT = 1u << 0,
	T_ARRAY = 1u << 1,
	T_STRING = 1u << 2,
	T_INTEGER = 1u << 3,
	T_NUMBER = 1u << 4,
	T_BOOLEAN = 1u << 5,
	T_NULL = 1u << 6
};

/* which value keywords a schema node has */
enum {
	H_TYPE = 1u << 0,
	H_CONST = 1u << 1,
	H_ENUM = 1u << 2,
	H_MINIMUM = 1u << 3,
	H_MAXIMUM = 1u << 4,
	H_MIN_LENGTH = 1u << 5,
	H_MAX_LENGTH = 1u << 6,
	H_PATTERN = 1u << 7,
	H_MIN_ITEMS = 1u << 8,
	H_MAX_ITEMS = 1u << 9,
	H_MIN_PROPS = 1u << 10,
	H_MAX_PROPS = 1u << 11,
	H_REQUIRED = 1u << 12,
	H_RULE = 1u << 13,
	H_EXCL_MIN = 1u << 14,
	H_EXCL_MAX = 1u << 15
};

struct snode;

struct sprop {
	const char *name;
	size_t len;
	struct snode *schema;
};

struct sdym {
	const char *from;
	size_t from_len;
	const char *to;
};

struct snode {
	unsigned has;
	unsigned types;
	int is_false; /* the schema `false`: nothing is valid */
	enum smp_rule_id rule;
	const char *title;
	const char *message;
	const struct smp_node *at; /* its JSON, for load errors */

	struct sprop *props; /* sorted by name for bsearch */
	size_t nprops;
	const char **prop_names;  /* declaration order, for did-you-mean */
	struct snode *additional; /* NULL: any additional property */
	struct snode *items;
	struct snode *property_names;
	struct snode *ref;
	const struct smp_node *ref_target; /* until resolved */
	struct snode *if_s, *then_s, *else_s;
	struct snode **all_of;
	size_t nall_of;
	struct snode **any_of;
	size_t nany_of;

	const struct smp_node *const_value;
	const struct smp_node *enum_values; /* a JSON array */
	const char **enum_words;            /* its strings, for did-you-mean */
	size_t nenum_words;
	const struct smp_node *required; /* a JSON array of strings */
	double minimum, maximum, excl_minimum, excl_maximum;
	size_t min_length, max_length, min_items, max_items;
	size_t min_props, max_props;
	regex_t *pattern;
	const char *pattern_src;
	struct sdym *dym;
	size_t ndym;
	const struct smp_node *dym_at;
	/* x-smp-ignored-keys: keys another variant of this object takes and
	 * this one ignores (a JSON array); x-smp-unknown-severity warning:
	 * an unknown key that misspells none of the properties is only
	 * ignored by the consumer (the SDK's **kwargs), not rejected */
	const struct smp_node *ignored_keys;
	int unknown_warning;

	unsigned char mark; /* load-time graph walks only */
};

struct rx {
	struct rx *next;
	regex_t re;
};

/* a registered schema: the root, a $defs member or a $ref target */
struct memo {
	const struct smp_node *json;
	struct snode *sn;
};

struct smp_schema {
	struct smp_allocator alloc;
	struct smp_docs docs; /* the JSON; its arena holds everything */
	struct rx *regexes;
	struct snode *root;
	struct memo *subs; /* the registered schemas, for a pointer */
	size_t nsubs;
	const char **top_keys;
	size_t ntop_keys;
};

/* 1 when n is a JSON string (or a YAML scalar that types as one) */
static inline int
smp__schema_is_string(const struct smp_node *n)
{
	/* every JSON string is double-quoted: skip the core-schema typing */
	return n->kind == SMP_NODE_SCALAR &&
	       ((!n->tag && n->u.scalar.style == SMP_STYLE_DOUBLE_QUOTED) ||
		smp__scalar_type(n) == SMP_SCALAR_STRING);
}

/* The registered schema at pointer ("#/$defs/x"), or NULL. */
const struct snode *smp__schema_part(const struct smp_schema *s,
				     const char *pointer);

/* The property of object schema sn named name[0, len), or NULL. */
const struct sprop *smp__schema_find_prop(const struct snode *sn,
					  const char *name, size_t len);

/* where a node sits in the document, for messages: a linked path */
struct seg {
	const struct seg *up;
	const struct smp_node *key; /* NULL: index */
	size_t index;
};

/* smp__schema_validate(): where the earliest violation goes */
struct verr {
	struct smp_error *err;
	const char *name; /* the document's */
	int found;        /* err holds a violation */
};

struct walk {
	struct smp_report *rep; /* NULL: validating into verr */
	struct verr *verr;
	int json;       /* the spec was JSON: wording of the quoting hint */
	unsigned flags; /* smp__schema_check()'s SMP__SCHEMA_* */
	unsigned depth;
};

/* what a value violates, for smp__schema_report() */
enum violation {
	V_FALSE,      /* the schema false: nothing is allowed here */
	V_TYPE,       /* type */
	V_CONST,      /* const */
	V_ENUM,       /* enum */
	V_MINIMUM,    /* minimum */
	V_MAXIMUM,    /* maximum */
	V_EXCL_MIN,   /* exclusiveMinimum */
	V_EXCL_MAX,   /* exclusiveMaximum */
	V_MIN_LENGTH, /* minLength */
	V_MAX_LENGTH, /* maxLength */
	V_PATTERN,    /* pattern */
	V_MIN_COUNT,  /* minItems, minProperties */
	V_MAX_COUNT,  /* maxItems, maxProperties */
	V_REQUIRED,   /* required: the key `missing` is absent */
	V_ANY_OF      /* anyOf: no branch, and none meant for its type */
};

/*
 * Adds the finding for value n (of JSON type bits t) at path violating
 * keyword v of sn. missing: the absent key for V_REQUIRED; quote: the
 * same text quoted would pass (V_TYPE), so the finding says to quote it.
 */
void smp__schema_report(const struct walk *w, const struct snode *sn,
			const struct smp_node *n, unsigned t,
			const struct seg *path, enum violation v,
			const struct smp_node *missing, int quote);

/*
 * Adds the finding for key p->key, which object schema sn does not allow
 * (known: it is a property whose schema is false) in the object at path.
 */
void smp__schema_report_key(const struct walk *w, const struct snode *sn,
			    const struct smp_pair *p, const struct seg *path,
			    int known);

#endif
