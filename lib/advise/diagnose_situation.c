/*
 * diagnose_situation.c - which of the troubleshooting guide's situations
 * the job is in: it failed (TrainingJobStatus, FailureReason); it does not
 * converge like its native-framework twin (FinalMetricDataList worse than
 * the baseline's for the same metric: a loss higher, an accuracy lower,
 * or NaN); it is not faster (TrainingTimeInSeconds or
 * BillableTimeInSeconds not below the baseline's). Without a baseline the
 * last two cannot be told, except a NaN metric. Both comparisons need
 * runs that did the same work: the same epochs or max_steps planned, and
 * neither stopped early (a NaN metric, an 'epoch' final metric short of
 * the planned epochs); else they cannot be told.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "advise/diagnose.h"
#include "advise/baseline.h"

/* A metric is worse than the baseline's by more than this fraction. */
#define METRIC_TOLERANCE 0.01

/* Name parts that say which way a metric improves. */
static const char *const lower_better[] = {
	"loss", "error", "perplexity", "mse", "mae", "rmse", "wer", "cer",
};
static const char *const higher_better[] = {
	"acc",   "f1",          "precision", "recall",  "auc",      "bleu",
	"rouge", "exact_match", "matthews",  "pearson", "spearman", "iou",
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static int
contains(const char *name, const char *const *parts, size_t n)
{
	char low[256];
	size_t i;

	for (i = 0; name[i] && i + 1 < sizeof(low); i++)
		low[i] = (char)tolower((unsigned char)name[i]);
	low[i] = '\0';
	for (i = 0; i < n; i++)
		if (strstr(low, parts[i]))
			return 1;
	return 0;
}

/* -1 when lower is better, 1 when higher is, 0 when the name says not. */
static int
direction(const char *name)
{
	if (contains(name, lower_better, COUNT(lower_better)))
		return -1;
	if (contains(name, higher_better, COUNT(higher_better)))
		return 1;
	return 0;
}

/* The value of a FinalMetricDataList entry: 0 with *v (NaN included), -1
 * when it has none. "NaN" may be written as a string. */
static int
metric_value(const struct smp_node *m, double *v)
{
	const struct smp_node *n = smp__map_get(m, "Value");
	const char *t = smp__node_text(n);

	if (t && (strcasecmp(t, "nan") == 0 || strcasecmp(t, ".nan") == 0)) {
		*v = NAN;
		return 0;
	}
	return smp__node_number(n, v);
}

/* The entry of list named name, or NULL. */
static const struct smp_node *
metric_named(const struct smp_node *list, const char *name)
{
	size_t i;

	if (!list || list->kind != SMP_NODE_SEQUENCE)
		return NULL;
	for (i = 0; i < list->u.sequence.count; i++) {
		const struct smp_node *m = list->u.sequence.items[i];
		const char *mn = smp__diag_member(m, "MetricName");

		if (mn && strcmp(mn, name) == 0)
			return m;
	}
	return NULL;
}

static size_t
metric_count(const struct smp_node *list)
{
	return list && list->kind == SMP_NODE_SEQUENCE ? list->u.sequence.count
						       : 0;
}

static void
set(struct smp_diagnosis_situation *s, enum smp_verdict v, const char *detail)
{
	s->verdict = v;
	s->detail = detail;
}

static void
failed(struct smp_diagnosis_build *b, struct smp_diagnosis_situation *s)
{
	const char *st = b->pub.status;
	const char *why = smp__diag_member(b->job.root, "FailureReason");

	if (!st) {
		set(s, SMP_VERDICT_CANNOT_TELL,
		    "the response has no TrainingJobStatus");
	} else if (strcmp(st, "Failed") == 0) {
		set(s, SMP_VERDICT_YES,
		    why ? smp__diag_printf(b, "TrainingJobStatus is Failed: %s",
					   why)
			: "TrainingJobStatus is Failed, with no FailureReason");
	} else if (strcmp(st, "InProgress") == 0 ||
		   strcmp(st, "Stopping") == 0) {
		set(s, SMP_VERDICT_NO,
		    smp__diag_printf(b,
				     "TrainingJobStatus is %s: the job has "
				     "not ended yet; diagnose it again when "
				     "it has",
				     st));
	} else {
		set(s, SMP_VERDICT_NO,
		    smp__diag_printf(b, "TrainingJobStatus is %s", st));
	}
}

/* A NaN metric of the job, without a baseline to compare with. */
static const char *
nan_metric(struct smp_diagnosis_build *b, const struct smp_node *list)
{
	size_t i;

	for (i = 0; i < metric_count(list); i++) {
		const struct smp_node *m = list->u.sequence.items[i];
		const char *name = smp__diag_member(m, "MetricName");
		double v;

		if (name && metric_value(m, &v) == 0 && isnan(v)) {
			if (direction(name)) {
				b->worse_metric = name;
				b->worse_dir = direction(name);
			}
			return smp__diag_printf(
				b,
				"final metric '%s' is NaN: the model does "
				"not learn",
				name);
		}
	}
	return NULL;
}

/* --- the work each run did ------------------------------------------- */

/* What a run set out to do and how far it got. */
struct work {
	const char *unit; /* "epochs" or "steps", or NULL: not known */
	const char *name; /* the hyperparameter that plans it */
	double planned;   /* from the hyperparameters */
	double done;      /* the "epoch" final metric; < 0 not reported */
	int nan;          /* a final metric is NaN */
};

static void
read_work(struct work *w, const struct smp_node *root,
	  const struct smp_node *hp)
{
	static const char *const epochs[] = {"num_train_epochs", "epochs",
					     "n_epochs", "max_epochs"};
	const struct smp_node *list = smp__map_get(root, "FinalMetricDataList");
	const struct smp_node *m;
	size_t i;
	double v;

	memset(w, 0, sizeof(*w));
	w->done = -1;
	if (smp__node_number(smp__map_get(hp, "max_steps"), &v) == 0 && v > 0) {
		w->unit = "steps";
		w->name = "max_steps";
		w->planned = v;
	}
	for (i = 0; !w->unit && i < COUNT(epochs); i++) {
		if (smp__node_number(smp__map_get(hp, epochs[i]), &v) == 0 &&
		    v > 0) {
			w->unit = "epochs";
			w->name = epochs[i];
			w->planned = v;
		}
	}
	m = metric_named(list, "epoch");
	if (m && metric_value(m, &v) == 0 && isfinite(v))
		w->done = v;
	for (i = 0; i < metric_count(list); i++)
		if (metric_value(list->u.sequence.items[i], &v) == 0 &&
		    isnan(v))
			w->nan = 1;
}

/* Why run w (called who) stopped before the end, or NULL. */
static const char *
stopped_early(struct smp_diagnosis_build *b, const struct work *w,
	      const char *who)
{
	char p[32], d[32];

	if (w->nan)
		return smp__diag_printf(b,
					"%s reported a NaN metric: it stopped "
					"learning before the end",
					who);
	if (w->done < 0 || !w->unit || strcmp(w->unit, "epochs") != 0 ||
	    w->done >= w->planned - 0.5)
		return NULL;
	snprintf(p, sizeof(p), "%g", w->planned);
	snprintf(d, sizeof(d), "%g", w->done);
	return smp__diag_printf(b,
				"%s stopped at epoch %s of %s ('epoch' in "
				"FinalMetricDataList against '%s'): early "
				"stopping or a failure",
				who, d, p, w->name);
}

/*
 * NULL when the two runs did the same work, else why they do not
 * compare. *same says what shows they did ("both 'epochs' 3"), or NULL
 * when nothing tells.
 */
static const char *
unlike_work(struct smp_diagnosis_build *b, const char **same)
{
	struct work mine, theirs;
	const char *why;

	*same = NULL;
	read_work(&mine, b->job.root, b->job.hyperparameters);
	read_work(&theirs, b->baseline_root,
		  smp__baseline_job(b->baseline)->hyperparameters);
	if ((why = stopped_early(b, &mine, "this run")) != NULL ||
	    (why = stopped_early(b, &theirs, "the native run")) != NULL)
		return why;
	if (mine.unit && theirs.unit &&
	    (strcmp(mine.unit, theirs.unit) != 0 ||
	     fabs(mine.planned - theirs.planned) > 1e-9))
		return smp__diag_printf(b,
					"the runs planned different work: "
					"'%s' %g here, '%s' %g in the native "
					"run",
					mine.name, mine.planned, theirs.name,
					theirs.planned);
	if (mine.unit && theirs.unit)
		*same = smp__diag_printf(b, "both ran '%s' %g", mine.name,
					 mine.planned);
	return NULL;
}

static void
not_converging(struct smp_diagnosis_build *b, struct smp_diagnosis_situation *s)
{
	const char *same = NULL, *unlike;
	const struct smp_node *mine =
		smp__map_get(b->job.root, "FinalMetricDataList");
	const struct smp_node *theirs =
		smp__map_get(b->baseline_root, "FinalMetricDataList");
	const char *nan = nan_metric(b, mine);
	char better[512] = "";
	size_t i, compared = 0, blen = 0;

	if (nan) {
		set(s, SMP_VERDICT_YES, nan);
		return;
	}
	if (!metric_count(mine) && b->pub.status &&
	    strcmp(b->pub.status, "Failed") == 0) {
		set(s, SMP_VERDICT_CANNOT_TELL,
		    "the job failed before it reported final metrics");
		return;
	}
	if (!metric_count(mine)) {
		set(s, SMP_VERDICT_CANNOT_TELL,
		    "the job reported no final metrics (FinalMetricDataList "
		    "is empty: give the estimator metric_definitions for its "
		    "loss and accuracy)");
		return;
	}
	if (!b->baseline) {
		set(s, SMP_VERDICT_CANNOT_TELL,
		    "needs the final metrics of the same job run without the "
		    "compiler: pass its DescribeTrainingJob response with "
		    "--baseline");
		return;
	}
	if ((unlike = unlike_work(b, &same)) != NULL) {
		set(s, SMP_VERDICT_CANNOT_TELL,
		    smp__diag_printf(b,
				     "final metrics compare only between "
				     "runs that did the same work: %s",
				     unlike));
		return;
	}
	for (i = 0; i < metric_count(mine); i++) {
		const struct smp_node *m = mine->u.sequence.items[i];
		const char *name = smp__diag_member(m, "MetricName");
		const struct smp_node *t =
			name ? metric_named(theirs, name) : NULL;
		int dir = name ? direction(name) : 0;
		double v, w;

		if (!t || !dir || metric_value(m, &v) || metric_value(t, &w) ||
		    isnan(w))
			continue;
		compared++;
		if ((dir < 0 && v > w + fabs(w) * METRIC_TOLERANCE) ||
		    (dir > 0 && v < w - fabs(w) * METRIC_TOLERANCE)) {
			b->worse_metric = name;
			b->worse_dir = dir;
			set(s, SMP_VERDICT_YES,
			    smp__diag_printf(
				    b,
				    "final '%s' is %g against %g in the "
				    "native run '%s' (%s is better)",
				    name, v, w, b->pub.baseline_file,
				    dir < 0 ? "lower" : "higher"));
			return;
		}
		if (blen < sizeof(better))
			blen += (size_t)snprintf(better + blen,
						 sizeof(better) - blen,
						 "%s'%s' %g against %g",
						 blen ? ", " : "", name, v, w);
	}
	if (!compared) {
		set(s, SMP_VERDICT_CANNOT_TELL,
		    "no loss or accuracy metric is in both FinalMetricDataList "
		    "(the job's and the baseline's): name the same metrics in "
		    "both jobs' metric_definitions");
		return;
	}
	set(s, SMP_VERDICT_NO,
	    smp__diag_printf(
		    b, "final metrics as good as the native run's: %s%s%s",
		    better, same ? "; " : "", same ? same : ""));
}

/* A whole number member of root, or -1. */
static long long
seconds(const struct smp_node *root, const char *name)
{
	long long v;

	return smp__scalar_int(smp__map_get(root, name), &v) == 0 ? v : -1;
}

static void
not_faster(struct smp_diagnosis_build *b, struct smp_diagnosis_situation *s)
{
	const char *st = b->pub.status;
	const char *bst =
		smp__diag_member(b->baseline_root, "TrainingJobStatus");
	long long t, bt, bill, bbill;
	const char *same = NULL, *unlike;

	if (!b->baseline) {
		set(s, SMP_VERDICT_CANNOT_TELL,
		    "needs the training time of the same job run without the "
		    "compiler: pass its DescribeTrainingJob response with "
		    "--baseline");
		return;
	}
	if (!st || strcmp(st, "Completed") != 0 || !bst ||
	    strcmp(bst, "Completed") != 0) {
		set(s, SMP_VERDICT_CANNOT_TELL,
		    smp__diag_printf(b,
				     "training times compare only between "
				     "completed jobs; this one is %s, the "
				     "baseline %s",
				     st ? st : "of unknown status",
				     bst ? bst : "of unknown status"));
		return;
	}
	if ((unlike = unlike_work(b, &same)) != NULL) {
		set(s, SMP_VERDICT_CANNOT_TELL,
		    smp__diag_printf(b,
				     "training times compare only between "
				     "runs that did the same work: %s",
				     unlike));
		return;
	}
	t = seconds(b->job.root, "TrainingTimeInSeconds");
	bt = seconds(b->baseline_root, "TrainingTimeInSeconds");
	bill = seconds(b->job.root, "BillableTimeInSeconds");
	bbill = seconds(b->baseline_root, "BillableTimeInSeconds");
	if (t < 0 || bt <= 0) {
		set(s, SMP_VERDICT_CANNOT_TELL,
		    "TrainingTimeInSeconds is missing from the job or the "
		    "baseline");
		return;
	}
	if (t >= bt || (bill >= 0 && bbill > 0 && bill >= bbill)) {
		set(s, SMP_VERDICT_YES,
		    smp__diag_printf(b,
				     "training took %lld s against %lld s "
				     "natively (billable %lld s against %lld "
				     "s)%s%s",
				     t, bt, bill, bbill, same ? "; " : "",
				     same ? same : ""));
		return;
	}
	set(s, SMP_VERDICT_NO,
	    smp__diag_printf(b,
			     "training took %lld s against %lld s natively "
			     "(%.0f%% less)%s%s",
			     t, bt, 100.0 * (double)(bt - t) / (double)bt,
			     same ? "; " : "", same ? same : ""));
}

void
smp__diag_situations(struct smp_diagnosis_build *b)
{
	struct smp_diagnosis_situation *s = b->situations;

	s[0].id = "failed";
	s[0].title = "the job failed";
	s[0].section = SMP__SEC_MISSING_XLA;
	failed(b, &s[0]);
	s[1].id = "not-converging";
	s[1].title = "the job does not converge like its native run";
	s[1].section = SMP__SEC_CONVERGENCE;
	not_converging(b, &s[1]);
	s[2].id = "not-faster";
	s[2].title = "the job is not faster than its native run";
	s[2].section = SMP__SEC_NOT_FASTER;
	not_faster(b, &s[2]);
}
