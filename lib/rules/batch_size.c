/*
 * batch_size.c - the batch size of a compiled job against the tested-
 * models table (best practices: use the largest batch that fits, and
 * rescale the learning rate with it): batch-size-below-tested,
 * batch-size-above-tested and model-untested. A tuned batch (a tuning
 * job's range) is judged by its upper end, the largest a launched job
 * may get (effective.h).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rules/rules.h"
#include "job/effective.h"
#include "tune/tune.h"
#include "util/fmt.h"

/* "for 'bert-base-uncased' (PyTorch 1.11.0, ..., AMP)", and how it was
 * chosen when several rows applied. */
static void
row_text(char *out, size_t size, const struct smp_check *c,
	 const struct smp_row_pick *pick, const struct smp_tested_model *row,
	 const char *model)
{
	char desc[256], how[128] = "", gib[32];
	const struct smp_pair *seq = smp__tune_seq_hparam(c->job);
	double mem = c->instance->gpu_memory_gib;

	smp__tune_row_describe(desc, sizeof(desc), row);
	/* what "%g" writes: a whole number of GiB without printf */
	if (mem >= 0 && mem < 1e6 && mem == floor(mem))
		smp__tune_number(gib, sizeof(gib), mem);
	else
		snprintf(gib, sizeof(gib), "%g", mem);
	if (row == pick->row && pick->candidates > 1) {
		if (pick->seq_matched && pick->seq_mixed && seq)
			smp__fmt(how, sizeof(how), "; the row for '%s'",
				 seq->key->u.scalar.value);
		else if (pick->by_batch &&
			 (pick->match != SMP_ROW_EXACT || pick->exact_rows > 1))
			smp__fmt(how, sizeof(how),
				 "; the smallest batch of %zu rows of several "
				 "sequence lengths",
				 pick->candidates);
		else if (pick->ties > 1)
			smp__fmt(how, sizeof(how),
				 "; the smallest batch of %zu matching rows",
				 pick->ties);
	}
	if (row != pick->row)
		smp__fmt(out, size, "for '%s' on %s %s GiB GPUs (%s)", model,
			 c->instance->gpu_model, gib, desc);
	else if (pick->match == SMP_ROW_SAME_GPU)
		smp__fmt(out, size,
			 "for '%s' (no row for this exact job; nearest on the "
			 "same %s %s GiB GPU: %s%s)",
			 model, c->instance->gpu_model, gib, desc, how);
	else
		smp__fmt(out, size, "for '%s' (%s%s)", model, desc, how);
}

/* The batch value to write for a per-GPU batch, in the spec's reading
 * (a per-GPU value is whole). */
static double
spec_batch(const struct smp_batch_reading *b, double per_gpu)
{
	if (b->scope == SMP_BATCH_GLOBAL)
		return per_gpu * (double)b->gpus * (double)b->instances;
	return per_gpu >= 1 ? floor(per_gpu) : per_gpu;
}

/* What both findings about a tested row say: the spec's reading, the
 * row's batch and where it comes from, and the spec's batch that matches
 * the row (as written in the spec, and bare). */
struct row_words {
	char reading[256], where[512], bt[128], val[48], bare[40];
	double batch;
};

static void
row_words(struct row_words *w, const struct smp_check *c,
	  const struct smp_batch_reading *b, const struct smp_row_pick *pick,
	  const struct smp_tested_model *row, const char *model)
{
	smp__batch_describe(w->reading, sizeof(w->reading), b);
	smp__tune_row_batch_text(w->bt, sizeof(w->bt), c->cat, row);
	row_text(w->where, sizeof(w->where), c, pick, row, model);
	w->batch = spec_batch(b, smp__tune_row_batch(c->cat, row));
	smp__tune_value(w->val, sizeof(w->val), b->pair->value, w->batch);
	smp__tune_number(w->bare, sizeof(w->bare), w->batch);
}

/* " at the upper end of its tuned range 32 to 128" for a tuned batch. */
static void
tuned_text(char *out, size_t size, const struct smp_hp_range *rg)
{
	if (!rg) {
		out[0] = '\0';
		return;
	}
	if (!rg->numeric) {
		smp__fmt(out, size, " at the upper end of its tuned range");
		return;
	}
	smp__fmt(out, size, " at the upper end of its tuned range %s to %s",
		 smp__node_text(rg->lo), smp__node_text(rg->hi));
}

/* Below the tested batch: suggest it, with the learning rate rescaled. */
static void
report_below(const struct smp_check *c, const struct smp_batch_reading *b,
	     const struct smp_row_pick *pick, const char *model)
{
	const struct smp_pair *lr = smp__hparam(
		c->settings, c->job->hyperparameters, SMP_HP_LEARNING_RATE);
	enum smp_lr_scaling sc = c->settings->lr_scaling;
	char kt[32], lrt[48], lrold[40];
	struct row_words w;
	struct smp_finding *f;
	double k, lrv;

	const struct smp_hp_range *rg = smp__job_range(c->job, b->pair->value);
	char tuned[160];

	row_words(&w, c, b, pick, pick->row, model);
	tuned_text(tuned, sizeof(tuned), rg);
	f = smp__report_node(c->rep, SMP_RULE_BATCH_SIZE_BELOW_TESTED,
			     b->pair->value,
			     "%s%s is well below the tested compiler batch %s "
			     "%s",
			     w.reading, tuned, w.bt, w.where);
	k = w.batch / b->value;
	smp__tune_number(kt, sizeof(kt), k);
	if (rg) {
		smp__finding_fix(c->rep, f,
				 "raise the upper end of the range of '%s' to "
				 "%s and move the learning rate's range with "
				 "it (x k or x sqrt(k), k = %s)",
				 smp__batch_key(b), w.val, kt);
	} else if (lr && smp__node_number(lr->value, &lrv) == 0 && lrv > 0 &&
		   isfinite(lrv)) {
		smp__tune_value(lrt, sizeof(lrt), lr->value,
				smp__tune_lr(lrv, k, sc));
		smp__tune_number(lrold, sizeof(lrold), lrv);
		smp__finding_fix(
			c->rep, f,
			"set '%s' to %s and '%s' to %s (%s x %s, "
			"k = %s)",
			smp__batch_key(b), w.val, lr->key->u.scalar.value, lrt,
			lrold, sc == SMP_LR_SCALING_SQRT ? "sqrt(k)" : "k", kt);
	} else if (sc == SMP_LR_SCALING_SQRT) {
		smp__tune_number(lrt, sizeof(lrt), smp__tune_lr(1, k, sc));
		smp__finding_fix(c->rep, f,
				 "set '%s' to %s and scale the learning rate "
				 "by sqrt(k) = %s (k = %s)",
				 smp__batch_key(b), w.val, lrt, kt);
	} else {
		smp__finding_fix(c->rep, f,
				 "set '%s' to %s and scale the learning rate "
				 "by k = %s",
				 smp__batch_key(b), w.val, kt);
	}
	smp__finding_suggest(
		c->rep, f,
		smp__value_type_like(b->pair->value, SMP_VALUE_NUMBER), w.bare);
}

/* Above the largest tested batch: out-of-memory risk. */
static void
report_above(const struct smp_check *c, const struct smp_batch_reading *b,
	     const struct smp_row_pick *pick, const char *model)
{
	struct row_words w;
	struct smp_finding *f;

	const struct smp_hp_range *rg = smp__job_range(c->job, b->pair->value);
	char tuned[160];

	row_words(&w, c, b, pick, pick->max, model);
	tuned_text(tuned, sizeof(tuned), rg);
	f = smp__report_node(c->rep, SMP_RULE_BATCH_SIZE_ABOVE_TESTED,
			     b->pair->value,
			     "%s%s is above the largest tested compiler batch "
			     "%s %s; it may run out of GPU memory",
			     w.reading, tuned, w.bt, w.where);
	if (rg)
		smp__finding_fix(c->rep, f,
				 "lower the upper end of the range of '%s' to "
				 "%s, or measure GPU memory on a short run "
				 "before tuning",
				 smp__batch_key(b), w.val);
	else
		smp__finding_fix(c->rep, f,
				 "lower '%s' to %s, or measure GPU memory on a "
				 "short run before a long one",
				 smp__batch_key(b), w.val);
	smp__finding_suggest(
		c->rep, f,
		smp__value_type_like(b->pair->value, SMP_VALUE_NUMBER), w.bare);
}

/*
 * Compiler jobs only, and only with the compiler on: the tested batches
 * are compiler batches, and a disabled compiler trains natively. The
 * model comes from the model-name hyperparameters.
 */
void
smp__rules_tune(const struct smp_check *c)
{
	const struct smp_job *job = c->job;
	const struct smp_pair *model;
	struct smp_tune_query q;
	struct smp_batch_reading b;
	struct smp_row_pick pick;
	struct smp_finding *f;
	char key[256], name[256];
	double margin;

	if (!job->compiler || !job->compiler_enabled || !job->hyperparameters)
		return;
	if (smp__tune_query(&q, key, sizeof(key), c->settings, job,
			    c->instance) < 0)
		return;
	smp__tune_query_rows(&q, c->cat);
	model = q.model;
	smp__tune_model_text(name, sizeof(name), model->value);
	if (!q.framework) {
		/* the framework is unknown: untested only when no row of
		 * any framework has the model */
		if (!smp__tune_query_tested(&q, c->cat, NULL)) {
			f = smp__report_node(c->rep, SMP_RULE_MODEL_UNTESTED,
					     model->value,
					     "model '%s' is in no row of the "
					     "tested-models table, so no "
					     "tested batch size applies",
					     name);
			smp__finding_fix(c->rep, f,
					 "measure GPU memory on a short run "
					 "to find the largest batch that "
					 "fits");
		}
		return;
	}
	if (!smp__tune_query_tested(&q, c->cat, q.framework)) {
		f = smp__report_node(c->rep, SMP_RULE_MODEL_UNTESTED,
				     model->value,
				     "model '%s' is not in the tested-models "
				     "table for %s, so no tested batch size "
				     "applies",
				     name, smp__framework_title(q.framework));
		smp__finding_fix(c->rep, f,
				 "measure GPU memory on a short run to find "
				 "the largest batch that fits");
		return;
	}
	if (!c->instance || c->instance->gpus < 1 ||
	    smp__batch_read(&b, c->settings, job, c->instance->gpus) != 0)
		return;
	smp__tune_pick(&pick, c->cat, &q);
	if (!pick.row)
		return;
	if (b.per_gpu <
	    SMP_TUNE_BELOW_FRACTION * smp__tune_row_batch(c->cat, pick.row)) {
		report_below(c, &b, &pick, name);
		return;
	}
	/* an out-of-memory claim needs a row that is this very job; with
	 * no sequence length stated, only far above any of its lengths */
	pick.max = smp__tune_same_job_max(c->cat, &q, 0);
	margin = 1;
	if (!pick.max && !q.sequence_length) {
		pick.max = smp__tune_same_job_max(c->cat, &q, 1);
		margin = SMP_TUNE_ABOVE_UNSTATED;
	}
	if (pick.max &&
	    b.per_gpu > margin * smp__tune_row_batch(c->cat, pick.max) &&
	    !pick.max->batch_size_is_lower_bound)
		report_above(c, &b, &pick, name);
}
