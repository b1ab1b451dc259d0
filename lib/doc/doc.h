/*
 * doc.h - the node tree that both loaders produce: mappings, sequences and
 * scalars, each with the 1-based line and column of its first character
 * and of the character after its end. Everything lives in the document's
 * arena. YAML aliases point at the anchored node, so the tree may be a DAG
 * (bounded by the node limit, which counts alias expansion).
 */
#ifndef SMP_DOC_H
#define SMP_DOC_H

#include <stddef.h>
#include <stdint.h>

#include "util/arena.h"
#include "util/pos.h"

enum smp_node_kind { SMP_NODE_SCALAR, SMP_NODE_MAPPING, SMP_NODE_SEQUENCE };

enum smp_scalar_style {
	SMP_STYLE_PLAIN, /* YAML plain; JSON number, true, false, null */
	SMP_STYLE_SINGLE_QUOTED, /* YAML '...' */
	SMP_STYLE_DOUBLE_QUOTED, /* YAML "..." and every JSON string */
	SMP_STYLE_LITERAL,       /* YAML | */
	SMP_STYLE_FOLDED         /* YAML > */
};

/* What a scalar means under the YAML 1.2 core schema (JSON: exact). */
enum smp_scalar_type {
	SMP_SCALAR_STRING,
	SMP_SCALAR_INT,
	SMP_SCALAR_FLOAT,
	SMP_SCALAR_BOOL,
	SMP_SCALAR_NULL
};

struct smp_node;

struct smp_pair {
	struct smp_node *key;
	struct smp_node *value;
};

struct smp_node {
	enum smp_node_kind kind;
	struct smp_pos start;
	struct smp_pos end;
	const char *tag; /* explicit YAML tag, resolved
			    ("tag:yaml.org,2002:str"), or NULL */
	union {
		struct {
			const char *value; /* NUL-terminated, may hold NULs */
			size_t len;
			enum smp_scalar_style style;
		} scalar;
		struct {
			struct smp_pair *items;
			size_t count;
		} mapping;
		struct {
			struct smp_node **items;
			size_t count;
		} sequence;
	} u;
};

/* One parsed document. */
struct smp_doc {
	struct smp_node *root; /* NULL for an empty YAML document */
	struct smp_pos start;  /* where the document starts */
};

/*
 * What a loader found wrong with its input, in neutral terms (no rule is
 * named here): the spec pipeline turns these into findings
 * (smp__rules_input), data files into a struct smp_error
 * (smp__load_strict). The kinds are in the order of their rules' names,
 * which breaks ties between two at one position.
 */
enum smp_diag_kind {
	SMP_DIAG_DUPLICATE_KEY, /* a mapping repeats a key */
	SMP_DIAG_LIMIT,         /* a size, depth or count limit; not UTF-8 */
	SMP_DIAG_SYNTAX,        /* not well-formed JSON or YAML */
	SMP_DIAG_WRONG_TYPE     /* a value of the wrong JSON type */
};

struct smp_diag {
	enum smp_diag_kind kind;
	struct smp_pos start;
	struct smp_pos end;  /* line 0: the one character at start */
	const char *pointer; /* JSON Pointer of the node, or NULL */
	const char *message; /* lower case, no final stop */
};

/*
 * The documents of one buffer. The arena owns the nodes of every doc; the
 * docs array itself comes from the allocator.
 */
struct smp_docs {
	struct smp_arena arena;
	struct smp_doc *items;
	size_t count;
	size_t cap;
	int is_json;            /* the buffer was read as JSON */
	struct smp_diag *diags; /* in the order the loader met them */
	size_t ndiags;
	size_t diags_cap;
	/* set before smp__load(): how the buffer is written; AUTO decides
	 * from the name, then the bytes */
	enum smp_input_format format;
};

void smp__docs_init(struct smp_docs *docs, const struct smp_allocator *a);
void smp__docs_release(struct smp_docs *docs);

/* Appends a doc; returns it zeroed or NULL on out of memory. */
struct smp_doc *smp__docs_push(struct smp_docs *docs);

/*
 * Appends a diagnostic (message and the strings it points to in the
 * arena; end may be NULL). Returns it, or NULL on out of memory.
 */
struct smp_diag *smp__docs_diag(struct smp_docs *docs, enum smp_diag_kind kind,
				const struct smp_pos *start,
				const struct smp_pos *end, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/*
 * Appends "/" and s[0..n) with the RFC 6901 escapes (~0, ~1) to the
 * JSON Pointer out[0..*len) of cap bytes; when it does not fit, *len
 * becomes cap (and stays so), which the caller reads as no pointer.
 */
void smp__pointer_seg(char *out, size_t cap, size_t *len, const char *s,
		      size_t n);

/*
 * The duplicate-key diagnostic of both loaders: key (a scalar) again in
 * its mapping, first its first occurrence; the diagnostic spans key's
 * start to end. Returns it, or NULL on out of memory.
 */
struct smp_diag *smp__docs_duplicate_key(struct smp_docs *docs,
					 const struct smp_node *key,
					 const struct smp_pos *end,
					 const struct smp_node *first);

/*
 * The tag of a value a Python source computes in a way sm-preflight does
 * not evaluate (a function call, os.environ, a branch): a string scalar
 * holding the expression's text. Schema checks and rules that need the
 * value skip it (smp__node_unknown).
 */
#define SMP_TAG_UNKNOWN "tag:sm-preflight,2026:unknown"

/* The tag of a sequence that is a Python tuple (for messages). */
#define SMP_TAG_TUPLE "tag:sm-preflight,2026:tuple"

/* 1 when n is such an unknown value. */
int smp__node_unknown(const struct smp_node *n);

/* Typing of scalars: tags win, then style, then the core schema. */
enum smp_scalar_type smp__scalar_type(const struct smp_node *n);

/* Name for messages: "a string", "an integer", "a mapping", ... */
const char *smp__node_type_name(const struct smp_node *n);

/* The value of key (exact, case-sensitive) in mapping m, or NULL. */
const struct smp_node *smp__map_get(const struct smp_node *m, const char *key);

/*
 * 1 when a and b are the same node of a document, or b a copy a normalizer
 * made of the mapping a (the same start; a mapping cannot start where
 * another one does): a CreateTrainingJob request's hyperparameters as the
 * container reads them.
 */
int smp__node_same(const struct smp_node *a, const struct smp_node *b);

/* The key node of key in mapping m (to anchor findings), or NULL. */
const struct smp_node *smp__map_key(const struct smp_node *m, const char *key);

/* The pair holding key, or NULL. */
const struct smp_pair *smp__map_pair(const struct smp_node *m, const char *key);

/* n when it is a string scalar, else NULL (wrong types were reported). */
const struct smp_node *smp__as_string(const struct smp_node *n);

/* n when it is a mapping, else NULL. */
const struct smp_node *smp__as_mapping(const struct smp_node *n);

/* 1 when n is a scalar whose text equals s exactly. */
int smp__scalar_is(const struct smp_node *n, const char *s);

/* Truthiness of a bool scalar: 1 true, 0 false, -1 not a bool (also a
 * !!bool tag on text that is no boolean: "!!bool yes"). */
int smp__scalar_bool(const struct smp_node *n);

/*
 * Integer value of an int scalar (decimal, 0x, 0o under YAML 1.2 core).
 * Returns 0 and sets *out, or -1 when n is not an integer or overflows.
 */
int smp__scalar_int(const struct smp_node *n, long long *out);

/* Numeric value of an int or float scalar; -1 when not a number. */
int smp__scalar_number(const struct smp_node *n, double *out);

/*
 * The same, but also for a string holding a number ("24", "5e-5"), as
 * hyperparameters are strings in the API dialect. -1 when not numeric.
 */
int smp__node_number(const struct smp_node *n, double *out);

/* The text of a string/number scalar, else NULL (for messages). */
const char *smp__node_text(const struct smp_node *n);

/*
 * The node a JSON Pointer (RFC 6901) names below root, or NULL when
 * absent; *unknown is set when the path crosses an unknown value
 * (smp__node_unknown), where the walk stops.
 */
const struct smp_node *smp__node_at_pointer(const struct smp_node *root,
					    const char *pointer, int *unknown);

#endif
