/*
 * source_python.h - the jobs of a Python launcher or notebook. The
 * source is tokenized (script/pytok), its straight-line code evaluated by
 * the constant evaluator (py_eval.h) in order, and every call of a
 * SageMaker job class found through the imports (HuggingFace, PyTorch,
 * TensorFlow, Estimator, ModelTrainer, a client's create_training_job)
 * becomes a synthetic document: a node tree in the estimator,
 * model_trainer or create_training_job dialect whose nodes carry the
 * positions of the source. No code is executed.
 */
#ifndef SMP_SOURCE_PYTHON_H
#define SMP_SOURCE_PYTHON_H

#include <stddef.h>

#include "smpreflight.h"
#include "doc/doc.h"
#include "util/siphash.h"

/* A value a pipeline parameter's default stands for (pipeline_def.c). */
struct smp_pysrc_subst {
	const struct smp_node *node; /* the DefaultValue used */
	const char *param;           /* the parameter's name */
};

struct smp_pysrc_job {
	const char *name; /* the variable it is bound to, or NULL */
	enum smp_dialect dialect;
	const struct smp_node *root;
	int partial;       /* an unknown **kwargs: absent keys may be set */
	int compiled;      /* compiler_config given and not None */
	const char *entry; /* entry_point as a known string, or NULL */
	const char *cls;   /* "HuggingFace", "PyTorch", ... */
	struct smp_pos at; /* the call */
	/* pipeline steps: the parameters whose defaults were used */
	struct smp_pysrc_subst *subst;
	size_t nsubst;
	/* a tuning job's definition: the ranges it searches (ParameterRanges
	 * as the API spells it), or NULL (tuning.c) */
	const struct smp_node *ranges;
	/* the region the source creates the job in: region_name of the
	 * estimator's sagemaker_session's boto3 session or of the client,
	 * else AWS_DEFAULT_REGION as the source sets it (os.environ, %env);
	 * a string node, an unknown node when it cannot be read, or NULL
	 * when the source says nothing (then --region, AWS_REGION...) */
	const struct smp_node *region;
};

/* What the scan noticed besides the jobs, for the rules to report. */
enum smp_pysrc_note_kind {
	SMP_PYNOTE_LIMIT,      /* the evaluation ran out of its budget here */
	SMP_PYNOTE_TYPE_ERROR, /* a job call Python rejects: text the keyword */
	SMP_PYNOTE_ANNOTATION, /* d["k"]: v, an annotation where = was meant */
	SMP_PYNOTE_ASSUMED     /* SDK names without imports: text the names */
};

struct smp_pysrc_note {
	enum smp_pysrc_note_kind kind;
	struct smp_pos at, end;
	const char *text; /* the statement, keyword or names (arena) */
	const char *what; /* TYPE_ERROR: the callee as written (arena) */
	size_t budget;    /* LIMIT: the bytes of values allowed, or 0 */
	size_t tokens;    /* LIMIT: the tokens read, when cut there */
};

#define SMP_PYSRC_MAX_NOTES 100

struct smp_pysrc {
	struct smp_pysrc_job *jobs; /* in the arena */
	size_t count, cap;
	struct smp_pysrc_note *notes; /* in the arena */
	size_t nnotes, capnotes;
	int syntax; /* 1: the source does not tokenize as Python */
	struct smp_pos err_at;
	char err[160];
};

/*
 * Finds the jobs of buf[0..len) into out; nodes and the job array come
 * from arena (the documents'), scratch memory from a; key keys the
 * evaluator's hash tables (the context's). Returns 0 or
 * SMP_ENOMEM. A syntax error sets out->syntax and finds nothing.
 */
int smp__pysrc_scan(struct smp_pysrc *out, struct smp_arena *arena,
		    const struct smp_allocator *a,
		    const struct smp_hashkey *key, const char *buf, size_t len);

/*
 * A variable the source sets outside its Python (a notebook's %env
 * line at offset at): from there on os.environ[name] is value.
 */
struct smp_pysrc_env {
	size_t at;
	const char *name, *value;
	size_t name_len, value_len;
	struct smp_pos start, end; /* where the value is written */
};

/* smp__pysrc_scan() with the variables env[0..nenv) (in order of at). */
int smp__pysrc_scan_env(struct smp_pysrc *out, struct smp_arena *arena,
			const struct smp_allocator *a,
			const struct smp_hashkey *key, const char *buf,
			size_t len, const struct smp_pysrc_env *env,
			size_t nenv);

/*
 * A SageMaker Pipeline definition ({"Version", "Parameters", "Steps"}, as
 * pipeline.definition() writes it): every step of Type "Training" has a
 * CreateTrainingJob request in Arguments, which becomes a job named after
 * the step, with {"Get": "Parameters.X"} replaced by X's DefaultValue and
 * other functions ({"Std:Join": ...}, {"Get": "Steps..."}) unknown nodes.
 * Returns 1 when root is a pipeline definition (out holds its training
 * steps, maybe none), 0 when it is not, SMP_ENOMEM.
 */
int smp__pipeline_scan(struct smp_pysrc *out, struct smp_arena *arena,
		       const struct smp_node *root);

/*
 * A CreateHyperParameterTuningJob request (or a DescribeHyperParameter-
 * TuningJob response): every training job definition becomes a
 * CreateTrainingJob job named by its DefinitionName, its ranges beside
 * it (tuning.c). smp__tuning_scan: 1 when root is one (out holds its
 * definitions), 0 when not, SMP_ENOMEM; the caller checks root with the
 * tuning schema (SMP__SCHEMA_TUNING), which reports a definition's
 * unknown members, so they are not in the definition's job. smp__tuning_count:
 * how many definitions root holds (0 when it is not a tuning request).
 * smp__tuning_add: appends them to out, which has room for them, named
 * "prefix/name" when prefix is not NULL; 0 or SMP_ENOMEM.
 */
int smp__tuning_scan(struct smp_pysrc *out, struct smp_arena *arena,
		     const struct smp_node *root);
size_t smp__tuning_count(const struct smp_node *root);
/*
 * Replaces every job of src that is a tuning request (a launcher's
 * create_hyper_parameter_tuning_job(...)) by its definitions, named
 * "job/definition" (job's name may be NULL until the calls are named:
 * then the definition's alone). 0 or SMP_ENOMEM.
 */
int smp__tuning_expand(struct smp_pysrc *src, struct smp_arena *arena);
int smp__tuning_add(struct smp_pysrc *out, struct smp_arena *arena,
		    const struct smp_node *root, const char *prefix);

/*
 * A HyperparameterTuner(...) object of a Python source: the ranges of its
 * hyperparameter_ranges become the ranges of its estimator's job in out
 * (tuner_python.c). 0 (also when the estimator or ranges are not known)
 * or SMP_ENOMEM.
 */
struct smp_pyeval;
struct smp_pyval;
int smp__tuner_attach(const struct smp_pyeval *ev, struct smp_arena *arena,
		      struct smp_pysrc *out, const struct smp_pyval *tuner);

/* 1 when name ends in ".py"; 2 when it ends in ".ipynb"; else 0. */
int smp__pysrc_kind(const char *name);

#endif
