/*
 * check_source.c - the pipeline for a Python launcher or a notebook: the
 * jobs the source creates (job/source_python.c) are checked one by one
 * as documents, like the jobs of a YAML stream. What the evaluator could
 * not know is an unknown node: the report adds no finding about one
 * (smp__report_node), so that no rule reports a value it did not see. A
 * notebook's code cells are read
 * first (doc/notebook.c), their IPython syntax made Python
 * (script/ipython.c), and its findings mapped back to cell and line.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rules/check.h"
#include "context/context.h"
#include "doc/load.h"
#include "job/notebook.h"
#include "script/ipython.h"
#include "job/source_python.h"
#include "report/suppress.h"
#include "script/script.h"
#include "rules/python_notes.h"
#include "util/text.h"

/* The pipeline parameter whose default the job's value n is, or NULL. */
static const char *
param_of(const void *ud, const struct smp_node *n)
{
	const struct smp_pysrc_job *job = ud;
	const char *via = NULL;
	size_t j;

	for (j = 0; j < job->nsubst; j++)
		if (job->subst[j].node == n)
			via = job->subst[j].param;
	return via;
}

/* Size and UTF-8 checks of a .py, as smp__load() does for specs. */
static int
source_ok(const struct smp_context *ctx, struct smp_report *rep)
{
	size_t bad = 0;

	if (rep->len > ctx->limits.max_file_size) {
		struct smp_pos pos = {1, 1, 0};

		smp__report_add(rep, SMP_RULE_INPUT_LIMIT, &pos, NULL,
				"file is %zu bytes, larger than the limit of "
				"%zu bytes",
				rep->len, ctx->limits.max_file_size);
		return 0;
	}
	if (!smp__utf8_valid(rep->buf, rep->len, &bad)) {
		struct smp_pos pos = smp__pos_at(rep->buf, rep->len, bad);

		smp__report_add(rep, SMP_RULE_INPUT_LIMIT, &pos, NULL,
				"invalid UTF-8 byte 0x%02x at offset %zu; "
				"Python sources must be UTF-8",
				(unsigned char)rep->buf[bad], bad);
		return 0;
	}
	return 1;
}

/*
 * The automatic baseline of a side-by-side notebook: with exactly one
 * estimator job without the compiler, it is the baseline of every
 * compiled estimator job of the same entry point. -1 when none.
 */
static long
native_of(const struct smp_pysrc *src)
{
	long native = -1;
	size_t k, compiled = 0;

	for (k = 0; k < src->count; k++) {
		const struct smp_pysrc_job *j = &src->jobs[k];

		if (j->dialect != SMP_DIALECT_ESTIMATOR || j->partial)
			continue;
		if (j->compiled) {
			compiled++;
		} else if (native >= 0) {
			return -1; /* two candidates: which one is not clear */
		} else {
			native = (long)k;
		}
	}
	return compiled ? native : -1;
}

static int
same_entry(const struct smp_pysrc_job *a, const struct smp_pysrc_job *b)
{
	return a->entry && b->entry && strcmp(a->entry, b->entry) == 0;
}

struct auto_base {
	int capture; /* the job being checked is the native one */
	int compare; /* it is a compiled one of the same entry point */
	int have;
	struct smp_job job;
	const struct smp_instance *instance;
	const char *name;
};

static void
auto_base_fn(void *ud, const struct smp_check *c)
{
	struct auto_base *a = ud;

	if (a->capture) {
		a->job = *c->job;
		a->job.script = NULL; /* released once its check ends */
		a->instance = c->instance;
		a->have = 1;
	} else if (a->compare && a->have) {
		struct smp_base b;

		b.job = &a->job;
		b.instance = a->instance;
		b.name = a->name;
		smp__rules_baseline(&b, c);
	}
}

static int
check_one(const struct smp_context *ctx, const struct smp_pysrc_job *job,
	  struct smp_docs *docs, struct smp_report *rep,
	  const struct smp_check_hook *hook, const char *script_dir,
	  const char *what, int push)
{
	struct smp_report_scope scope;
	const struct smp_report_scope *saved;
	int rc;

	if (push) {
		/* kept for the suppressions' scan and the hook */
		struct smp_doc *d = smp__docs_push(docs);

		if (!d)
			return SMP_ENOMEM;
		d->root = (struct smp_node *)(uintptr_t)job->root;
		d->start = job->at;
	}
	/* its findings are named after the job as they are added */
	scope.what = what;
	scope.name = job->name;
	scope.root = job->root;
	scope.partial = job->partial;
	scope.param = param_of;
	scope.ud = job;
	saved = rep->scope;
	rep->scope = &scope;
	rc = smp__check_root(ctx, job->root, job->dialect, job->ranges,
			     job->region, &docs->arena, rep, hook, script_dir);
	rep->scope = saved;
	return rc;
}

int
smp__check_jobs(const struct smp_context *ctx, const struct smp_pysrc *src,
		struct smp_docs *docs, struct smp_report *rep,
		const struct smp_check_hook *hook, const char *script_dir,
		const char *what, int push)
{
	struct auto_base ab;
	struct smp_check_hook own;
	/* a hook that adds to the jobs (--baseline, suggest) replaces the
	 * automatic baseline; one that only names a format or folder, or
	 * keeps the documents (check --fix), not */
	long native = hook && hook->fn ? -1 : native_of(src);
	size_t k;
	int rc = 0;

	if (native < 0) {
		for (k = 0; rc == 0 && k < src->count; k++)
			rc = check_one(ctx, &src->jobs[k], docs, rep, hook,
				       script_dir, what, push);
		return rc;
	}
	/* the native job first, so that the compiled ones can use it */
	memset(&ab, 0, sizeof(ab));
	memset(&own, 0, sizeof(own));
	if (hook) {
		own.files = hook->files;
		own.nfiles = hook->nfiles;
	}
	own.fn = auto_base_fn;
	own.ud = &ab;
	own.flags = hook ? hook->flags : 0;
	ab.name = src->jobs[native].name;
	ab.capture = 1;
	rc = check_one(ctx, &src->jobs[native], docs, rep, &own, script_dir,
		       what, push);
	ab.capture = 0;
	for (k = 0; rc == 0 && k < src->count; k++) {
		const struct smp_pysrc_job *j = &src->jobs[k];

		if ((long)k == native)
			continue;
		ab.compare = j->compiled &&
			     j->dialect == SMP_DIALECT_ESTIMATOR &&
			     same_entry(j, &src->jobs[native]);
		rc = check_one(ctx, j, docs, rep, &own, script_dir, what, push);
	}
	return rc;
}

/* 1 when a job of src is given a compiler_config. */
static int
any_compiled(const struct smp_pysrc *src)
{
	size_t k;

	for (k = 0; k < src->count; k++)
		if (src->jobs[k].compiled)
			return 1;
	return 0;
}

/*
 * Found by a walk with no sign of Training Compiler in it: the notes on
 * its Python are not reported either (the walk judges compiler jobs
 * only), except that the evaluation stopped short (input-limit).
 */
static int
walk_quiet(const struct smp_report *rep, const struct smp_pysrc *src,
	   const struct smp_check_hook *hook)
{
	static const char *const signs[] = {"compiler", "torchxla",
					    "GPU_NUM_DEVICES", "trcomp"};
	size_t k;

	if (!SMP__WALKED(hook) || (hook->flags & SMP_CHECK_ALL_JOBS) ||
	    any_compiled(src))
		return 0;
	for (k = 0; k < sizeof(signs) / sizeof(signs[0]); k++)
		if (smp__mem_contains(rep->buf, rep->len, signs[k]))
			return 0;
	return 1;
}

/* The calls no variable names: by their class and line (or cell). */
static int
name_calls(struct smp_pysrc *src, const struct smp_notebook *nb,
	   struct smp_arena *arena)
{
	size_t k;

	for (k = 0; k < src->count; k++) {
		struct smp_pysrc_job *job = &src->jobs[k];
		uint32_t line = job->at.line;

		if (job->name)
			continue;
		if (nb && line && line <= nb->nlines)
			job->name = smp__arena_printf(
				arena, "%s(...) in cell %u", job->cls,
				(unsigned)nb->lines[line - 1].cell);
		else
			job->name =
				smp__arena_printf(arena, "%s(...) on line %u",
						  job->cls, (unsigned)line);
		if (!job->name)
			return SMP_ENOMEM;
	}
	return 0;
}

/* Files a notebook defines with %%writefile: past these, not read. */
#define NB_FILES_MAX 16

/* %env lines of a notebook: past these, not read. */
#define NB_ENV_MAX 64

/* The files a notebook's %%writefile cells define (check.h), and the
 * variables its %env lines set. */
struct nb_files {
	struct smp_script_file items[NB_FILES_MAX];
	size_t count;
	struct smp_pysrc_env env[NB_ENV_MAX];
	size_t nenv;
};

/* The %env event ev of the cell at code offset base, for the evaluator:
 * from there on os.environ[name] is value. */
static void
set_env(struct nb_files *files, const struct smp_ipy_event *ev, size_t base,
	const char *orig, size_t len)
{
	struct smp_pysrc_env *e;

	if (files->nenv == NB_ENV_MAX)
		return;
	e = &files->env[files->nenv++];
	e->at = base + ev->at;
	e->name = orig + base + ev->name;
	e->name_len = ev->name_len;
	e->value = orig + base + ev->value;
	e->value_len = ev->value_len;
	e->start = smp__pos_at(orig, len, base + ev->value);
	e->end = smp__pos_at(orig, len, base + ev->value + ev->value_len);
}

/*
 * The %%writefile event ev of the cell at code offset base: its body
 * defines (or with -a extends) a file. The file's text is the notebook's
 * code with everything but its bodies blanked, so that its positions are
 * the notebook's and its findings map back to the cell.
 */
static int
define_file(struct nb_files *files, const struct smp_ipy_event *ev, size_t base,
	    const char *orig, size_t len, const char *shown_as,
	    struct smp_arena *arena)
{
	struct smp_script_file *f = NULL;
	const char *name = orig + base + ev->name;
	char *text;
	size_t k;
	int created = 0;

	for (k = 0; k < files->count && !f; k++)
		if (strlen(files->items[k].path) == ev->name_len &&
		    memcmp(files->items[k].path, name, ev->name_len) == 0)
			f = &files->items[k];
	if (!f) {
		if (files->count == NB_FILES_MAX)
			return 0;
		f = &files->items[files->count];
		f->path = smp__arena_strndup(arena, name, ev->name_len);
		f->text = smp__arena_alloc(arena, len ? len : 1);
		if (!f->path || !f->text)
			return SMP_ENOMEM;
		f->len = len;
		f->shown_as = shown_as;
		files->count++;
		created = 1;
	}
	text = (char *)(uintptr_t)f->text;
	if (created || !ev->append)
		for (k = 0; k < len; k++)
			text[k] = orig[k] == '\n' ? '\n' : ' ';
	memcpy(text + base + ev->value, orig + base + ev->value, ev->value_len);
	return 0;
}

/*
 * The code cells of nb as Python: each cell's IPython syntax rewritten
 * in place (script/ipython.h), from a copy of the cells as written, which
 * *written gets (the same length: every position holds in both); the
 * files its %%writefile cells define into files.
 */
static int
notebook_python(struct smp_notebook *nb, struct smp_arena *arena,
		const struct smp_allocator *alloc, const char **written,
		struct nb_files *files, const char *name)
{
	struct smp_ipy ipy;
	char *orig;
	size_t k, e;
	int rc = 0;

	*written = nb->code;
	if (!nb->len)
		return 0;
	orig = smp__arena_strndup(arena, nb->code, nb->len);
	if (!orig)
		return SMP_ENOMEM;
	*written = orig;
	smp__ipy_init(&ipy, alloc);
	for (k = 0; k < nb->ncells && rc == 0; k++) {
		size_t from = nb->cells[k].from, first = ipy.count;

		rc = smp__ipython(&ipy, orig + from, nb->cells[k].to - from,
				  nb->code + from);
		for (e = first; rc == 0 && e < ipy.count; e++)
			if (ipy.events[e].kind == SMP_IPY_WRITEFILE)
				rc = define_file(files, &ipy.events[e], from,
						 orig, nb->len, name, arena);
			else
				set_env(files, &ipy.events[e], from, orig,
					nb->len);
	}
	smp__ipy_free(&ipy);
	return rc;
}

/* A notebook keeps going past a cell that is not Python: at most this
 * many such cells, each scan reading the whole code again. */
#define BAD_CELLS_MAX 64

/*
 * Scans the code of rep into src. In a notebook, a cell that does not
 * tokenize as Python is a syntax warning naming it and is blanked out,
 * and the rest is scanned again: only that cell is lost.
 */
static int
scan_source(struct smp_pysrc *src, struct smp_notebook *nb,
	    const struct nb_files *files, struct smp_docs *docs,
	    const struct smp_context *ctx, struct smp_report *rep)
{
	size_t tries;
	int rc = 0;

	for (tries = 0;; tries++) {
		const struct smp_nb_cell *cell;
		struct smp_finding *f;
		size_t i;

		rc = smp__pysrc_scan_env(src, &docs->arena, &ctx->alloc,
					 &ctx->hash_key, rep->buf, rep->len,
					 files->env, files->nenv);
		if (rc || !src->syntax || !nb || tries == BAD_CELLS_MAX)
			return rc;
		cell = smp__notebook_cell_of(nb, src->err_at.line);
		if (!cell)
			return 0;
		f = smp__report_add(rep, SMP_RULE_SYNTAX, &src->err_at, NULL,
				    "cell %u is not valid Python: %s; the "
				    "other cells are checked without it",
				    (unsigned)cell->cell, src->err);
		smp__finding_soften(rep, f, SMP_RULE_SYNTAX,
				    SMP_SEVERITY_WARNING);
		if (rep->failed)
			return SMP_ENOMEM;
		for (i = cell->from; i < cell->to; i++)
			if (nb->code[i] != '\n')
				nb->code[i] = ' ';
	}
}

int
smp__check_source(const struct smp_context *ctx, const char *name,
		  struct smp_docs *docs, struct smp_report *rep,
		  const struct smp_check_hook *hook, const char *script_dir)
{
	struct smp_notebook nb;
	struct smp_pysrc src;
	struct nb_files files;
	struct smp_check_hook with_files;
	const char *written = NULL; /* a notebook's cells as written */
	const char *saved_buf = rep->buf;
	size_t saved_len = rep->len;
	int rc = 0, notebook = smp__pysrc_kind(name) == 2;

	memset(&nb, 0, sizeof(nb));
	memset(&src, 0, sizeof(src));
	files.count = files.nenv = 0;
	/* found by a walk: a source that never names sagemaker or boto3
	 * cannot create a job through their imports; not even tokenized */
	if (SMP__WALKED(hook) &&
	    !smp__mem_contains(rep->buf, rep->len, "sagemaker") &&
	    !smp__mem_contains(rep->buf, rep->len, "boto3"))
		return 0;
	if (!notebook && !source_ok(ctx, rep))
		return rep->failed ? SMP_ENOMEM : 0;
	if (notebook) {
		rc = smp__notebook_load(&nb, docs, rep->buf, rep->len,
					&ctx->limits);
		if (rc || !nb.ok || nb.language)
			/* a notebook whose kernel is not Python (R, Scala)
			 * is skipped, as ruff skips it */
			return rc || nb.ok ? rc : smp__rules_input(rep, docs);
		docs->count = 0; /* the notebook's JSON is not a job */
		rc = notebook_python(&nb, &docs->arena, &ctx->alloc, &written,
				     &files, rep->file);
		if (rc)
			return rc;
		if (files.count) {
			/* the entry-script checks read these when the
			 * script is not on disk */
			if (hook)
				with_files = *hook;
			else
				memset(&with_files, 0, sizeof(with_files));
			with_files.files = files.items;
			with_files.nfiles = files.count;
			hook = &with_files;
		}
		/* findings and excerpts refer to the code of the cells
		 * until they are mapped back */
		rep->buf = nb.code;
		rep->len = nb.len;
	}
	rc = scan_source(&src, notebook ? &nb : NULL, &files, docs, ctx, rep);
	if (written)
		/* excerpts and suppression comments: the cells as written */
		rep->buf = written;
	if (rc == 0 && src.syntax) {
		smp__report_add(rep, SMP_RULE_SYNTAX, &src.err_at, NULL,
				"%s; nothing else in this file is checked",
				src.err);
	} else if (rc == 0) {
		smp__rules_python_notes(rep, &src, walk_quiet(rep, &src, hook));
		if (src.count) {
			struct smp_check_hook h;

			rc = name_calls(&src, notebook ? &nb : NULL,
					&docs->arena);
			if (rc == 0)
				rc = smp__tuning_expand(&src, &docs->arena);
			if (hook)
				h = *hook;
			else
				memset(&h, 0, sizeof(h));
			if (SMP__WALKED(hook) && !any_compiled(&src) &&
			    smp__mem_contains(rep->buf, rep->len,
					      "TrainingCompilerConfig"))
				h.flags |= SMP__CHECK_FILE_INTENT;
			if (rc == 0)
				rc = smp__check_jobs(ctx, &src, docs, rep, &h,
						     script_dir, "", 1);
		} else if (SMP__WALKED(hook)) {
			/* found by a walk: a file without a job says nothing */
		} else if (!smp__python_notes_stopped(&src)) {
			struct smp_pos at = {1, 1, 0};

			smp__report_add(rep, SMP_RULE_NO_TRAINING_JOB, &at,
					NULL,
					"no SageMaker training job found: no "
					"call of an estimator, ModelTrainer or "
					"create_training_job through the "
					"sagemaker or boto3 imports");
		}
	}
	rep->root = NULL;
	if (rc == 0 && !rep->failed && !ctx->no_inline_ignores && !src.syntax)
		rc = smp__suppress_apply(rep, rep->buf, rep->len, docs,
					 ctx->now);
	if (notebook)
		smp__notebook_map(&nb, rep);
	rep->buf = saved_buf;
	rep->len = saved_len;
	/* what is wrong with the notebook's cells, where the file has it */
	if (rc == 0 && notebook)
		rc = smp__rules_input(rep, docs);
	return rc;
}
