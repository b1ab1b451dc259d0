/*
 * py_eval.h - a small constant evaluator for Python launchers and
 * notebooks. It evaluates the expressions of straight-line code over a
 * token array: literals, names, dict/list/tuple displays, subscripts,
 * arithmetic and comparison on numbers, string concatenation, f-strings
 * with known parts, float()/int()/str()/round()/dict(kw=...), and the
 * calls of the SageMaker classes it knows (through the imports). Nothing
 * is executed: anything else is an UNKNOWN value, which later becomes an
 * unknown node (SMP_TAG_UNKNOWN) so that no rule guesses.
 *
 * Values live in the evaluator's own arena (released after the scan);
 * dictionaries are mutable and shared by reference as in Python, so that
 * `d[k] = v` and `d.update(...)` reach every name bound to d.
 */
#ifndef SMP_PY_EVAL_H
#define SMP_PY_EVAL_H

#include <stddef.h>
#include <stdint.h>

#include "doc/doc.h"
#include "script/pymodel.h"
#include "util/arena.h"
#include "util/siphash.h"

struct smp_pyindex;

enum smp_pyval_kind {
	SMP_PV_UNKNOWN = 0,
	SMP_PV_NONE,
	SMP_PV_BOOL,
	SMP_PV_INT,
	SMP_PV_FLOAT,
	SMP_PV_STR,
	SMP_PV_LIST,
	SMP_PV_TUPLE,
	SMP_PV_DICT,
	SMP_PV_MODULE, /* a name bound by an import: text is the dotted path */
	SMP_PV_OBJECT  /* an instance of a class the evaluator knows */
};

/* The classes the evaluator knows, by the last part of their path. */
enum smp_pycls {
	SMP_PYCLS_NONE = 0,
	SMP_PYCLS_HUGGINGFACE,
	SMP_PYCLS_PYTORCH,
	SMP_PYCLS_TENSORFLOW,
	SMP_PYCLS_ESTIMATOR, /* sagemaker.estimator.Estimator / Framework */
	SMP_PYCLS_MODEL_TRAINER,
	SMP_PYCLS_COMPILER_CONFIG,
	SMP_PYCLS_HELPER, /* Compute, SourceCode, Torchrun ...: kwargs map */
	SMP_PYCLS_BOTO3_SESSION,
	SMP_PYCLS_SM_SESSION, /* sagemaker.Session */
	SMP_PYCLS_CLIENT,     /* a SageMaker API client */
	/* sagemaker.tuner: HyperparameterTuner, and the ranges
	 * ContinuousParameter / IntegerParameter (min_value, max_value)
	 * and CategoricalParameter (values); tuner_python.c */
	SMP_PYCLS_TUNER,
	SMP_PYCLS_RANGE,
	SMP_PYCLS_CATEGORICAL
};

struct smp_pyval {
	enum smp_pyval_kind kind;
	/* a dict key's hash once computed (a key is never mutated): the
	 * low bits that index a table, in what would be padding */
	unsigned int hashed;
	struct smp_pos start, end; /* where the value was written */
	const char *text;          /* STR value, MODULE path, OBJECT class */
	size_t len;
	long long i; /* INT, BOOL */
	double f;    /* FLOAT */
	/* LIST, TUPLE: items; DICT and OBJECT (its keyword arguments): keys
	 * (STR values) and items */
	struct smp_pyval **keys;
	struct smp_pyval **items;
	size_t count, cap;
	struct smp_pyindex *index; /* DICT, OBJECT: keys by hash, or NULL */
	enum smp_pycls cls;        /* OBJECT */
	uint32_t hash;             /* see hashed */
	long job; /* OBJECT of a job class: index of its job, or -1 */
	/* OBJECT of a boto3 or SageMaker session or a client: the region
	 * its calls go to (region_name, or AWS_DEFAULT_REGION as the
	 * source had set it when the session was made); NULL: not said */
	const struct smp_pyval *region;
	/* UNKNOWN: the source text of the expression, for messages */
	size_t src_off, src_len;
};

struct smp_pyenv_entry {
	const char *name;
	size_t len;
	struct smp_pyval *val;
};

struct smp_pyeval;

/*
 * Called for every call of a job class (estimator, ModelTrainer,
 * create_training_job): cls, the callee's tokens [callee, args_open) and
 * the evaluated call as an OBJECT whose keys/items are the keyword
 * arguments. partial is 1 when an unknown **kwargs makes the argument
 * list incomplete. Returns the job's index, or -1.
 */
typedef long (*smp_pyjob_fn)(struct smp_pyeval *ev, enum smp_pycls cls,
			     size_t callee, const struct smp_pyval *call,
			     int partial);

/*
 * Called for a call of a job class that Python rejects before it runs:
 * keyword key given twice (f(**r, **r): TypeError, "got multiple values
 * for keyword argument"). callee and arg are token indexes: the callee,
 * the argument [arg, arg_end) that repeats key. The call makes no job.
 */
typedef void (*smp_pytypeerr_fn)(struct smp_pyeval *ev, size_t callee,
				 size_t arg, size_t arg_end,
				 const struct smp_pyval *key);

struct smp_pyeval {
	struct smp_arena arena; /* values */
	const char *buf;        /* m's */
	size_t len;
	const struct smp_pymodel *m; /* the tokens */
	struct smp_pyenv_entry *env; /* bindings, newest last */
	size_t nenv, capenv;
	const struct smp_allocator *alloc;
	size_t budget;           /* value bytes still allowed */
	size_t max_str;          /* longest string built */
	int uncertain;           /* > 0: inside a branch or loop */
	int oom;                 /* an allocation failed */
	unsigned depth;          /* expression nesting */
	struct smp_hashkey hkey; /* the names' and keys' hashes */
	smp_pyjob_fn on_job;
	/* during on_job: the region the job is created in, as region
	 * above (the estimator's sagemaker_session, the client's, else
	 * AWS_DEFAULT_REGION as the source set it); NULL: not said */
	const struct smp_pyval *job_region;
	smp_pytypeerr_fn on_type_error;
	size_t at;   /* the statement being evaluated: its first token */
	int limited; /* the budget ran out in the statement at limit_at */
	size_t limit_at;
	void *priv; /* the evaluator's own: the environment's index */
	/* os.environ as far as the source set it (a notebook's %env): a
	 * DICT read by os.environ["K"], a missing key unknown; NULL: none */
	struct smp_pyval *environ;
};

void smp__pyeval_init(struct smp_pyeval *ev, const struct smp_allocator *a,
		      const struct smp_pymodel *m,
		      const struct smp_hashkey *key);
void smp__pyeval_release(struct smp_pyeval *ev);

/*
 * Evaluates the expression starting at token *i (stopping before a ','
 * or a closing bracket or NEWLINE at its level, or '=' and ':' outside
 * brackets) and advances *i past it. Never NULL unless out of memory.
 */
struct smp_pyval *smp__pyeval_expr(struct smp_pyeval *ev, size_t *i);

/* The same for a comma list at the top of a statement: a, b -> tuple. */
struct smp_pyval *smp__pyeval_exprlist(struct smp_pyeval *ev, size_t *i);

/* a op b ("+", "*", "|" ...) over tokens [from, to), for x op= y. */
struct smp_pyval *smp__pyeval_binop(struct smp_pyeval *ev, const char *op,
				    struct smp_pyval *a, struct smp_pyval *b,
				    size_t from, size_t to);

/* A MODULE value for the dotted path (arena string) at token at. */
struct smp_pyval *smp__pyval_module(struct smp_pyeval *ev, const char *path,
				    size_t len, size_t at);

/* A fresh UNKNOWN value spanning tokens [from, to). */
struct smp_pyval *smp__pyval_unknown(struct smp_pyeval *ev, size_t from,
				     size_t to);

/* Binds name[0..len) to v (a new binding shadows the old one). */
int smp__pyeval_bind(struct smp_pyeval *ev, const char *name, size_t len,
		     struct smp_pyval *v);

/* Drops the bindings made since there were n (a function body ends). */
void smp__pyeval_truncate(struct smp_pyeval *ev, size_t n);

/* str(v) over tokens [from, to) when v's text is known, else UNKNOWN. */
struct smp_pyval *smp__pyeval_str_of(struct smp_pyeval *ev,
				     const struct smp_pyval *v, size_t from,
				     size_t to);

/* The value bound to name, or NULL. */
struct smp_pyval *smp__pyeval_lookup(const struct smp_pyeval *ev,
				     const char *name, size_t len);

/* The value of key in a DICT or OBJECT, or NULL. */
struct smp_pyval *smp__pyval_get(const struct smp_pyval *d, const char *key,
				 size_t len);

/*
 * Sets key to v in DICT d (replacing an existing key). Returns 0 or -1
 * when out of memory or over budget (then d becomes UNKNOWN).
 */
int smp__pyval_set(struct smp_pyeval *ev, struct smp_pyval *d,
		   struct smp_pyval *key, struct smp_pyval *v);

/*
 * os.environ[name] = value, set outside the tokens (a notebook's %env
 * line): value is a STR written at start..end. Returns 0 or -1 when out
 * of memory or over budget.
 */
int smp__pyeval_setenv(struct smp_pyeval *ev, const char *name, size_t nlen,
		       const char *value, size_t vlen, struct smp_pos start,
		       struct smp_pos end);

/*
 * os.environ[key] = v in the source (v an UNKNOWN when the statement may
 * not run). Returns 0 or -1 when out of memory or over budget.
 */
int smp__pyeval_environ_set(struct smp_pyeval *ev, struct smp_pyval *key,
			    struct smp_pyval *v);

/* Turns v into nodes in arena (the document's); NULL on out of memory. */
struct smp_node *smp__pyval_node(const struct smp_pyeval *ev,
				 struct smp_arena *arena,
				 const struct smp_pyval *v);

/* The shortest text that reads back as f (Python's repr of a float). */
void smp__pyfloat_repr(char *out, size_t size, double f);

#endif
