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
	H_EXCL_MAX = 1u << 15,
	/* no keyword but type (and x-smp-rule): most leaves, which the walk
	 * checks without a call (set when compiled) */
	H_TYPE_ONLY = 1u << 16
};

struct snode;

struct sprop {
	const char *name;
	size_t len;
	const struct snode *schema;
};

struct sdym {
	const char *from;
	size_t from_len;
	const char *to;
};

/* JSON values of a keyword (enum, required, x-smp-ignored-keys) */
struct svals {
	const struct smp_node *const *items;
	size_t count;
};

/* the value keywords beyond type of a node (smp__sv()) */
struct svalue {
	const struct smp_node *const_value; /* a scalar when embedded */
	struct svals enum_values;           /* scalars when embedded */
	struct svals required;              /* strings */
	double minimum, maximum, excl_minimum, excl_maximum;
	size_t min_length, max_length, min_items, max_items;
	size_t min_props, max_props;
	size_t pattern;          /* its index in the schema's patterns */
	const char *pattern_src; /* the pattern (POSIX ERE), H_PATTERN */
};

/* the wording of a node's findings, and what only the compiler reads
 * (smp__si()) */
struct sinfo {
	const char *title;
	const char *message;
	const char *const *prop_names; /* declaration order, for did-you-mean */
	const char *const
		*enum_words; /* the enum's strings, for did-you-mean */
	size_t nenum_words;
	const struct sdym *dym;
	size_t ndym;
	/* x-smp-ignored-keys: keys another variant of this object takes and
	 * this one ignores (strings); x-smp-unknown-severity warning:
	 * an unknown key that misspells none of the properties is only
	 * ignored by the consumer (the SDK's **kwargs), not rejected */
	struct svals ignored_keys;
	int unknown_warning;
	/* load only: the node's JSON and its $ref (for load errors, until
	 * resolved) and its x-smp-did-you-mean */
	const struct smp_node *at, *ref_target, *dym_at;
};

/*
 * A compiled schema node: what the walk reads on every value, the rest
 * behind value and info (NULL when empty: a node of a built-in schema
 * then takes no room for them). Everything is reachable through const
 * pointers, so that lib/schema/gen/embed_schemas.c can write the tree of
 * an embedded schema as constant C tables.
 */
struct snode {
	unsigned has;
	unsigned types;
	int is_false; /* the schema `false`: nothing is valid */
	enum smp_rule_id rule;
	const struct sprop *props; /* sorted by cmp_prop, for a search */
	size_t nprops;
	const struct snode *additional; /* NULL: any additional property */
	const struct snode *items;
	const struct snode *property_names;
	const struct snode *ref;
	const struct snode *if_s, *then_s, *else_s;
	const struct snode *const *all_of;
	size_t nall_of;
	const struct snode *const *any_of;
	size_t nany_of;
	const struct svalue *value;
	const struct sinfo *info;
	size_t id; /* 0, 1, ... in the order compiled */
};

extern const struct svalue smp__schema_no_value;
extern const struct sinfo smp__schema_no_info;

/* sn's value keywords, all zero when it has none */
static inline const struct svalue *
smp__sv(const struct snode *sn)
{
	return sn->value ? sn->value : &smp__schema_no_value;
}

/* sn's wording, all zero when it has none */
static inline const struct sinfo *
smp__si(const struct snode *sn)
{
	return sn->info ? sn->info : &smp__schema_no_info;
}

/* a registered schema: the root, a $defs member or a $ref target */
struct memo {
	const struct smp_node *json; /* load only */
	const char *pointer;         /* embedded: its JSON Pointer ("#/...") */
	const struct snode *sn;
};

/*
 * The compiled form of one schema file as constant tables
 * (lib/schema/gen/embed_schemas.c writes them; smp__schema_embedded()
 * wraps them).
 */
struct smp_schema_tables {
	const char *name; /* the file's base name, "estimator.schema.json" */
	const struct snode *root;
	const struct memo *subs; /* pointer set, json NULL */
	size_t nsubs;
	const char *const *top_keys;
	size_t ntop_keys;
	const char *const *patterns; /* by svalue.pattern */
	size_t npatterns;
};

/* every embedded schema, NULL-terminated (build/gen/embedded_schemas.c) */
extern const struct smp_schema_tables *const smp__embedded_schemas[];

struct smp_schema {
	struct smp_allocator alloc;
	struct smp_docs docs; /* loaded: the JSON; its arena holds the nodes */
	const struct snode *root;
	const struct memo *subs; /* the registered schemas, for a pointer */
	size_t nsubs;
	const char *const *top_keys;
	size_t ntop_keys;
	size_t nnodes;                   /* loaded: the ids of the nodes */
	const char *const *pattern_srcs; /* by svalue.pattern */
	size_t npatterns;
	const char **owned_srcs; /* loaded: pattern_srcs, ours to free */
	regex_t *rx; /* pattern_srcs compiled when the schema is built */
	size_t nrx;
};

/*
 * The schemas' patterns (pattern.c). smp__pattern_refused(): 1 with *why
 * (static) when src uses an escape POSIX leaves undefined ("\d").
 * smp__pattern_compile(): regcomp() as an ERE; 0, SMP_EPARSE with
 * regerror()'s text in msg, or SMP_ENOMEM. smp__schema_patterns_build():
 * every pattern of s into s->rx (SMP_EINTERNAL when one does not
 * compile: a built-in schema was checked by the build); _free() frees
 * them. smp__pattern_match(): 1 when text[0, len) has a match.
 */
int smp__pattern_refused(const char *src, const char **why);
int smp__pattern_compile(regex_t *rx, const char *src, char *msg, size_t size);
int smp__schema_patterns_build(struct smp_schema *s);
void smp__schema_patterns_free(struct smp_schema *s);
int smp__pattern_match(const regex_t *rx, const char *text, size_t len);

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
	const struct smp_node *typed; /* the node typed last, its type bits */
	unsigned typed_type;
	double typed_num;       /* and its value when a number */
	struct smp_report *rep; /* NULL: validating into verr */
	struct verr *verr;
	int json;       /* the spec was JSON: wording of the quoting hint */
	unsigned flags; /* smp__schema_check()'s SMP__SCHEMA_* */
	unsigned depth;
	const regex_t *rx; /* the schema's compiled patterns */
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
