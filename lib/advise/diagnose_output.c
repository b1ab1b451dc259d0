/*
 * diagnose_output.c - a diagnosis as text (read top to bottom: the job,
 * the situation, the likely causes, the hyperparameters against the
 * baseline, the checklist) and as JSON (schemas/diagnosis.schema.json).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "advise/diagnose.h"
#include "emit/out.h"
#include "job/settings.h"
#include "tune/tune.h"
#include "context/context.h"

static const char *const verdicts[] = {
	[SMP_VERDICT_NO] = "no",
	[SMP_VERDICT_YES] = "yes",
	[SMP_VERDICT_CANNOT_TELL] = "cannot tell",
};

static const char *const verdict_ids[] = {
	[SMP_VERDICT_NO] = "no",
	[SMP_VERDICT_YES] = "yes",
	[SMP_VERDICT_CANNOT_TELL] = "cannot-tell",
};

static const char *const states[] = {
	[SMP_ITEM_LOOKS_RIGHT] = "[looks right]",
	[SMP_ITEM_PROBLEM] = "[problem]    ",
	[SMP_ITEM_CANNOT_TELL] = "[cannot tell]",
};

static const char *const state_ids[] = {
	[SMP_ITEM_LOOKS_RIGHT] = "looks-right",
	[SMP_ITEM_PROBLEM] = "problem",
	[SMP_ITEM_CANNOT_TELL] = "cannot-tell",
};

/*
 * Untrusted text (the response's strings, log lines, file names) goes
 * out through these: control characters never reach the terminal as
 * such (smp__out_text_safe), and no line of it can start with "::", which
 * a GitHub Actions runner would read as a workflow command even after
 * blanks: the first ':' of such a line is written as "\x3a".
 */
static void
put_line(struct smp__out *o, const char *s, size_t n)
{
	size_t blanks = 0;

	while (blanks < n && (s[blanks] == ' ' || s[blanks] == '\t'))
		blanks++;
	if (n - blanks >= 2 && s[blanks] == ':' && s[blanks + 1] == ':') {
		smp__out_text_safe(o, s, blanks);
		smp__out_str(o, "\\x3a");
		s += blanks + 1;
		n -= blanks + 1;
	}
	smp__out_text_safe(o, s, n);
}

/* One untrusted value within a line: a newline in it is shown as ␊. */
static void
put(struct smp__out *o, const char *s)
{
	if (s)
		smp__out_text_safe(o, s, strlen(s));
}

/* Untrusted text whose lines are kept: every line after the first
 * indented by indent. */
static void
out_lines(struct smp__out *o, const char *s, const char *indent)
{
	int first = 1;

	while (s && *s) {
		const char *nl = strchr(s, '\n');
		size_t n = nl ? (size_t)(nl - s) : strlen(s);

		if (first)
			smp__out_text_safe(o, s, n);
		else
			put_line(o, s, n);
		first = 0;
		if (!nl)
			return;
		smp__out_str(o, "\n");
		smp__out_str(o, indent);
		s = nl + 1;
	}
}

static void out_fmt(struct smp__out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
out_fmt(struct smp__out *o, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0)
		smp__out_mem(o, buf,
			     (size_t)n < sizeof(buf) ? (size_t)n
						     : sizeof(buf) - 1);
}

static size_t
count_state(const struct smp_diagnosis *d, enum smp_item_state st)
{
	size_t i, n = 0;

	for (i = 0; i < d->item_count; i++)
		n += d->items[i].state == st;
	return n;
}

static void
text_job(struct smp__out *o, const struct smp_diagnosis *d)
{
	put_line(o, d->file, strlen(d->file));
	smp__out_str(o, ": training job '");
	put(o, d->job_name ? d->job_name : "(no name)");
	smp__out_str(o, "'");
	if (d->instance_type) {
		out_fmt(o, " on %lld x ", d->instance_count);
		put(o, d->instance_type);
		if (d->gpus > 0)
			out_fmt(o, " (%d GPU%s each)", d->gpus,
				d->gpus == 1 ? "" : "s");
	}
	smp__out_str(o, ", ");
	put(o, d->status ? d->status : "status unknown");
	smp__out_str(o, "\n");
	if (!d->compiler)
		smp__out_str(o, "  the job does not enable SageMaker "
				"Training Compiler: the guide is about "
				"compiler jobs, only the generic checks "
				"apply\n");
}

static void
text_situations(struct smp__out *o, const struct smp_diagnosis *d)
{
	size_t i;

	smp__out_str(o, "\nSituation\n");
	for (i = 0; i < d->situation_count; i++) {
		const struct smp_diagnosis_situation *s = &d->situations[i];

		out_fmt(o, "  %s: %s\n    ", s->title, verdicts[s->verdict]);
		out_lines(o, s->detail, "    ");
		smp__out_str(o, "\n");
	}
}

static void
text_causes(struct smp__out *o, const struct smp_diagnosis *d)
{
	size_t i;

	smp__out_str(o, "\nLikely cause\n");
	if (!d->cause_count) {
		if (!d->failure_reason && !d->log_file)
			smp__out_str(o, "  nothing to search: the response has "
					"no FailureReason\n");
		else {
			out_fmt(o, "  no known failure signature in %s%s",
				d->failure_reason ? "FailureReason" : "",
				d->failure_reason && d->log_file ? " or " : "");
			put(o, d->log_file);
			smp__out_str(o, "\n");
		}
		if (!d->log_file)
			smp__out_str(o, "  pass the job's CloudWatch log with "
					"--log FILE (aws logs get-log-events "
					"--output text) to search it too\n");
	}
	for (i = 0; i < d->cause_count; i++) {
		const struct smp_diagnosis_cause *c = &d->causes[i];

		out_fmt(o, "  %zu. ", i + 1);
		put(o, c->summary);
		out_fmt(o, " [%s]\n", c->id);
		smp__out_str(o, "     ");
		put(o, c->source);
		if (c->line)
			out_fmt(o, ":%u", c->line);
		smp__out_str(o, ": ");
		put(o, c->evidence);
		if (c->count > 1)
			out_fmt(o, " (seen %u times)", c->count);
		smp__out_str(o, "\n     = fix: ");
		put(o, c->advice);
		out_fmt(o, "\n     = see: %s, \"%s\"\n", c->page, c->section);
	}
}

static void
text_hyperparameters(struct smp__out *o, const struct smp_diagnosis *d)
{
	size_t i, same = 0, sdk = 0;

	if (!d->baseline_file)
		return;
	smp__out_str(o, "\nHyperparameters against the baseline ");
	put(o, d->baseline_file);
	smp__out_str(o, "\n");
	for (i = 0; i < d->hyperparameter_count; i++) {
		const struct smp_diagnosis_hyperparameter *h =
			&d->hyperparameters[i];

		/* the SDK's own (job name, code location, compiler flags)
		 * differ between any two jobs */
		if (strncmp(h->name, "sagemaker_", 10) == 0) {
			sdk++;
			continue;
		}
		if (!h->differs) {
			same++;
			continue;
		}
		smp__out_str(o, "  ");
		put(o, h->name);
		smp__out_str(o, ": ");
		put(o, h->value ? h->value : "not set");
		smp__out_str(o, " here, ");
		put(o, h->baseline_value ? h->baseline_value : "not set");
		smp__out_str(o, " in the baseline");
		if (smp__hparam_inert(h->name, strlen(h->name)))
			smp__out_str(o, " (does not change training: not "
					"compared)");
		smp__out_str(o, "\n");
	}
	out_fmt(o,
		"  %zu other%s the same; %zu sagemaker_* entr%s the SDK "
		"sets %s not compared\n",
		same, same == 1 ? " is" : "s are", sdk, sdk == 1 ? "y" : "ies",
		sdk == 1 ? "is" : "are");
}

/* --- the tuning job ---------------------------------------------------- */

static const struct smp__diag_tuning *
tuning_of(const struct smp_diagnosis *d)
{
	return &((const struct smp_diagnosis_build *)d)->tuning;
}

static void
out_num(struct smp__out *o, double v)
{
	char t[32];

	smp__tune_number(t, sizeof(t), v);
	smp__out_str(o, t);
}

/* The HyperparameterTuner snippet (sagemaker.tuner), each line after the
 * first starting with indent. Strings are JSON strings: valid Python. */
static void
tuner_snippet(struct smp__out *o, const struct smp__diag_tuning *t,
	      const char *indent)
{
	size_t i;

	smp__out_str(o, "from sagemaker.tuner import (CategoricalParameter, "
			"ContinuousParameter, HyperparameterTuner)\n");
	out_fmt(o, "%stuner = HyperparameterTuner(\n", indent);
	out_fmt(o, "%s    estimator,  # the compiled job's estimator\n",
		indent);
	out_fmt(o, "%s    objective_metric_name=", indent);
	smp__out_json_string(o, t->metric);
	out_fmt(o, ",\n%s    objective_type=\"%s\",\n", indent, t->objective);
	out_fmt(o, "%s    metric_definitions=[{\"Name\": ", indent);
	smp__out_json_string(o, t->metric);
	smp__out_str(o, ", \"Regex\": ");
	smp__out_json_string(o, t->regex);
	out_fmt(o, "}],\n%s    hyperparameter_ranges={\n%s        ", indent,
		indent);
	smp__out_json_string(o, t->lr_name);
	smp__out_str(o, ": ContinuousParameter(");
	out_num(o, t->lr_min);
	smp__out_str(o, ", ");
	out_num(o, t->lr_max);
	out_fmt(o, ", scaling_type=\"Logarithmic\"),\n%s        ", indent);
	smp__out_json_string(o, t->batch_name);
	smp__out_str(o, ": CategoricalParameter([");
	for (i = 0; i < t->nbatches; i++) {
		if (i)
			smp__out_str(o, ", ");
		out_num(o, t->batches[i]);
	}
	out_fmt(o,
		"]),\n%s    },\n%s    strategy=\"Bayesian\",\n%s    "
		"max_jobs=8,\n%s    max_parallel_jobs=2,\n%s)\n%stuner.fit("
		"inputs)  # the compiled job's channels",
		indent, indent, indent, indent, indent, indent);
}

/* A response node as JSON: scalars that read as numbers, booleans or null
 * (plain, as JSON writes them) bare, the rest strings. */
static void
node_json(struct smp__out *o, const struct smp_node *n)
{
	size_t i;
	double v;

	if (!n) {
		smp__out_str(o, "null");
		return;
	}
	if (n->kind == SMP_NODE_MAPPING) {
		smp__out_str(o, "{");
		for (i = 0; i < n->u.mapping.count; i++) {
			if (i)
				smp__out_str(o, ",");
			smp__out_json_string(
				o, smp__node_text(n->u.mapping.items[i].key));
			smp__out_str(o, ":");
			node_json(o, n->u.mapping.items[i].value);
		}
		smp__out_str(o, "}");
	} else if (n->kind == SMP_NODE_SEQUENCE) {
		smp__out_str(o, "[");
		for (i = 0; i < n->u.sequence.count; i++) {
			if (i)
				smp__out_str(o, ",");
			node_json(o, n->u.sequence.items[i]);
		}
		smp__out_str(o, "]");
	} else if (n->u.scalar.style == SMP_STYLE_PLAIN &&
		   (smp__scalar_bool(n) >= 0 || smp__node_number(n, &v) == 0 ||
		    strcmp(n->u.scalar.value, "null") == 0)) {
		if (smp__scalar_bool(n) >= 0)
			smp__out_str(o, smp__scalar_bool(n) ? "true" : "false");
		else
			smp__out_str(o, n->u.scalar.value);
	} else {
		smp__out_json_string(o, smp__node_text(n));
	}
}

/* A member of root copied into the request, when the response has it. */
static void
copy_member(struct smp__out *o, const struct smp_node *root, const char *name)
{
	const struct smp_node *v = smp__map_get(root, name);

	if (!v)
		return;
	smp__out_str(o, ",");
	smp__out_json_string(o, name);
	smp__out_str(o, ":");
	node_json(o, v);
}

/* The CreateHyperParameterTuningJob request, on one line. */
static void
tuning_request(struct smp__out *o, const struct smp_diagnosis *d,
	       const struct smp__diag_tuning *t)
{
	const struct smp_diagnosis_build *b =
		(const struct smp_diagnosis_build *)d;
	const struct smp_node *root = b->job.root;
	const struct smp_node *hp = b->job.hyperparameters;
	const struct smp_node *as =
		smp__map_get(root, "AlgorithmSpecification");
	char name[33];
	size_t i, first = 1;

	snprintf(name, sizeof(name), "%.27s-tune",
		 d->job_name ? d->job_name : "job");
	smp__out_str(o, "{\"HyperParameterTuningJobName\":");
	smp__out_json_string(o, name);
	smp__out_str(o, ",\"HyperParameterTuningJobConfig\":{\"Strategy\":"
			"\"Bayesian\",\"HyperParameterTuningJobObjective\":{"
			"\"Type\":");
	smp__out_json_string(o, t->objective);
	smp__out_str(o, ",\"MetricName\":");
	smp__out_json_string(o, t->metric);
	smp__out_str(o, "},\"ResourceLimits\":{\"MaxNumberOfTrainingJobs\":8,"
			"\"MaxParallelTrainingJobs\":2},\"ParameterRanges\":{"
			"\"ContinuousParameterRanges\":[{\"Name\":");
	smp__out_json_string(o, t->lr_name);
	smp__out_str(o, ",\"MinValue\":\"");
	out_num(o, t->lr_min);
	smp__out_str(o, "\",\"MaxValue\":\"");
	out_num(o, t->lr_max);
	smp__out_str(o, "\",\"ScalingType\":\"Logarithmic\"}],"
			"\"CategoricalParameterRanges\":[{\"Name\":");
	smp__out_json_string(o, t->batch_name);
	smp__out_str(o, ",\"Values\":[");
	for (i = 0; i < t->nbatches; i++) {
		smp__out_str(o, i ? ",\"" : "\"");
		out_num(o, t->batches[i]);
		smp__out_str(o, "\"");
	}
	smp__out_str(o, "]}]}},\"TrainingJobDefinition\":{"
			"\"StaticHyperParameters\":{");
	for (i = 0;
	     hp && hp->kind == SMP_NODE_MAPPING && i < hp->u.mapping.count;
	     i++) {
		const char *k = smp__node_text(hp->u.mapping.items[i].key);

		if (!k || strcmp(k, t->lr_name) == 0 ||
		    strcmp(k, t->batch_name) == 0 ||
		    strcmp(k, "sagemaker_job_name") == 0)
			continue;
		if (!first)
			smp__out_str(o, ",");
		first = 0;
		smp__out_json_string(o, k);
		smp__out_str(o, ":");
		smp__out_json_string(
			o, smp__node_text(hp->u.mapping.items[i].value));
	}
	smp__out_str(o, "},\"AlgorithmSpecification\":{\"TrainingImage\":");
	smp__out_json_string(o, smp__diag_member(as, "TrainingImage"));
	smp__out_str(o, ",\"TrainingInputMode\":");
	smp__out_json_string(o,
			     smp__diag_member(as, "TrainingInputMode")
				     ? smp__diag_member(as, "TrainingInputMode")
				     : "File");
	copy_member(o, as, "MetricDefinitions");
	smp__out_str(o, "}");
	copy_member(o, root, "RoleArn");
	copy_member(o, root, "InputDataConfig");
	copy_member(o, root, "OutputDataConfig");
	copy_member(o, root, "ResourceConfig");
	copy_member(o, root, "StoppingCondition");
	copy_member(o, root, "Environment");
	smp__out_str(o, "}}");
}

static void
text_tuning(struct smp__out *o, const struct smp_diagnosis *d)
{
	const struct smp__diag_tuning *t = tuning_of(d);
	size_t i;

	if (!t->wanted)
		return;
	smp__out_str(o, "\nTuning job (the guide: when retuning the batch size "
			"and learning rate breaks convergence, tune them with "
			"Automatic Model Tuning)\n");
	if (!t->ok) {
		smp__out_str(o, "  cannot propose one: ");
		put(o, t->why);
		smp__out_str(o, "\n");
		return;
	}
	smp__out_str(o, "  '");
	put(o, t->lr_name);
	smp__out_str(o, "' from ");
	out_num(o, t->lr_min);
	smp__out_str(o, " to ");
	out_num(o, t->lr_max);
	smp__out_str(o, " (the native ");
	out_num(o, t->lr0);
	if (fabs(t->k - 1) < 0.01)
		smp__out_str(o, ": the batch is the native one, k = 1, so "
				"the range goes down to half of it");
	else {
		smp__out_str(o, " scaled by sqrt(k) and by k, k = ");
		out_num(o, t->k);
	}
	smp__out_str(o, "); '");
	put(o, t->batch_name);
	smp__out_str(o, "' one of ");
	for (i = 0; i < t->nbatches; i++) {
		if (i)
			smp__out_str(o, ", ");
		out_num(o, t->batches[i]);
	}
	smp__out_str(o, " (the native and compiled batches, and the "
			"tested-models one when below the compiled one); "
			"objective: ");
	out_fmt(o, "%s '", t->objective);
	put(o, t->metric);
	smp__out_str(o, "'\n  SageMaker Python SDK:\n    ");
	tuner_snippet(o, t, "    ");
	smp__out_str(o, "\n  CreateHyperParameterTuningJob request (aws "
			"sagemaker create-hyper-parameter-tuning-job "
			"--cli-input-json file://tune.json):\n    ");
	tuning_request(o, d, t);
	smp__out_str(o, "\n");
}

static void
text_items(struct smp__out *o, const struct smp_diagnosis *d)
{
	static const enum smp_item_state order[] = {
		SMP_ITEM_PROBLEM, SMP_ITEM_CANNOT_TELL, SMP_ITEM_LOOKS_RIGHT};
	size_t i;

	smp__out_str(o, "\nChecklist\n");
	/* problems first, then what cannot be told, then the rest */
	for (i = 0; i < 3 * d->item_count; i++) {
		const struct smp_diagnosis_item *it =
			&d->items[i % d->item_count];

		if (it->state != order[i / d->item_count])
			continue;

		out_fmt(o, "  %s %s\n", states[it->state], it->title);
		smp__out_str(o, "                ");
		if (it->state == SMP_ITEM_PROBLEM && it->line) {
			put(o, it->file);
			out_fmt(o, ":%u:%u: ", it->line, it->column);
		}
		put(o, it->detail);
		if (it->rule)
			out_fmt(o, " [%s]", it->rule);
		if (it->needs)
			out_fmt(o, "; pass %s", it->needs);
		smp__out_str(o, "\n");
		if (it->state == SMP_ITEM_PROBLEM)
			out_fmt(o, "                = see: %s, \"%s\"\n",
				it->page, it->section);
	}
}

int
smp_diagnosis_emit_text(const struct smp_diagnosis *d, smp_write_fn write,
			void *ud)
{
	struct smp__out o;
	size_t problems, unknown;

	if (!d || !write)
		return SMP_EINVAL;
	smp__out_init(&o, write, ud);
	text_job(&o, d);
	text_situations(&o, d);
	text_causes(&o, d);
	text_hyperparameters(&o, d);
	text_tuning(&o, d);
	text_items(&o, d);
	problems = count_state(d, SMP_ITEM_PROBLEM);
	unknown = count_state(d, SMP_ITEM_CANNOT_TELL);
	out_fmt(&o,
		"\n%zu likely cause%s, %zu problem%s, %zu item%s that cannot "
		"be told\n",
		d->cause_count, d->cause_count == 1 ? "" : "s", problems,
		problems == 1 ? "" : "s", unknown, unknown == 1 ? "" : "s");
	return smp__out_flush(&o);
}

/* --- JSON ------------------------------------------------------------- */

static void
key(struct smp__out *o, const char *k, int first)
{
	if (!first)
		smp__out_str(o, ",");
	smp__out_json_string(o, k);
	smp__out_str(o, ":");
}

static void
kstr(struct smp__out *o, const char *k, const char *v, int first)
{
	key(o, k, first);
	smp__out_json_string(o, v);
}

static void
kuint(struct smp__out *o, const char *k, uint64_t v)
{
	key(o, k, 0);
	smp__out_uint(o, v);
}

static void
kbool(struct smp__out *o, const char *k, int v)
{
	key(o, k, 0);
	smp__out_str(o, v ? "true" : "false");
}

static void
json_job(struct smp__out *o, const struct smp_diagnosis *d)
{
	key(o, "job", 0);
	smp__out_str(o, "{");
	kstr(o, "name", d->job_name, 1);
	kstr(o, "status", d->status, 0);
	kstr(o, "instance_type", d->instance_type, 0);
	kuint(o, "instance_count",
	      d->instance_count > 0 ? (uint64_t)d->instance_count : 0);
	kuint(o, "gpus_per_instance", d->gpus > 0 ? (uint64_t)d->gpus : 0);
	kbool(o, "compiler", d->compiler);
	smp__out_str(o, "}");
}

static void
json_situations(struct smp__out *o, const struct smp_diagnosis *d)
{
	size_t i;

	key(o, "situations", 0);
	smp__out_str(o, "[");
	for (i = 0; i < d->situation_count; i++) {
		const struct smp_diagnosis_situation *s = &d->situations[i];

		smp__out_str(o, i ? ",{" : "{");
		kstr(o, "id", s->id, 1);
		kstr(o, "title", s->title, 0);
		kstr(o, "verdict", verdict_ids[s->verdict], 0);
		kstr(o, "detail", s->detail, 0);
		kstr(o, "section", s->section, 0);
		smp__out_str(o, "}");
	}
	smp__out_str(o, "]");
}

static void
json_causes(struct smp__out *o, const struct smp_diagnosis *d)
{
	size_t i;

	key(o, "causes", 0);
	smp__out_str(o, "[");
	for (i = 0; i < d->cause_count; i++) {
		const struct smp_diagnosis_cause *c = &d->causes[i];

		smp__out_str(o, i ? ",{" : "{");
		kstr(o, "id", c->id, 1);
		kstr(o, "summary", c->summary, 0);
		kstr(o, "advice", c->advice, 0);
		kstr(o, "page", c->page, 0);
		kstr(o, "section", c->section, 0);
		kstr(o, "source", c->source, 0);
		kuint(o, "line", c->line);
		kstr(o, "evidence", c->evidence, 0);
		kuint(o, "count", c->count);
		smp__out_str(o, "}");
	}
	smp__out_str(o, "]");
}

static void
json_items(struct smp__out *o, const struct smp_diagnosis *d)
{
	size_t i;

	key(o, "checklist", 0);
	smp__out_str(o, "[");
	for (i = 0; i < d->item_count; i++) {
		const struct smp_diagnosis_item *it = &d->items[i];

		smp__out_str(o, i ? ",{" : "{");
		kstr(o, "id", it->id, 1);
		kstr(o, "title", it->title, 0);
		kstr(o, "state", state_ids[it->state], 0);
		kstr(o, "detail", it->detail, 0);
		kstr(o, "page", it->page, 0);
		kstr(o, "section", it->section, 0);
		kstr(o, "rule", it->rule, 0);
		kstr(o, "file", it->file, 0);
		kuint(o, "line", it->line);
		kuint(o, "column", it->column);
		kstr(o, "needs", it->needs, 0);
		smp__out_str(o, "}");
	}
	smp__out_str(o, "]");
}

static void
json_hyperparameters(struct smp__out *o, const struct smp_diagnosis *d)
{
	size_t i;

	key(o, "hyperparameters", 0);
	smp__out_str(o, "[");
	for (i = 0; i < d->hyperparameter_count; i++) {
		const struct smp_diagnosis_hyperparameter *h =
			&d->hyperparameters[i];

		smp__out_str(o, i ? ",{" : "{");
		kstr(o, "name", h->name, 1);
		kstr(o, "value", h->value, 0);
		kstr(o, "baseline_value", h->baseline_value, 0);
		kbool(o, "differs", h->differs);
		smp__out_str(o, "}");
	}
	smp__out_str(o, "]");
}

/* The buffer a piece of output is collected in. */
static int
to_buf(void *ud, const char *data, size_t len)
{
	return smp__buf_add(ud, data, len) ? -1 : 0;
}

static void
json_tuning(struct smp__out *o, const struct smp_diagnosis *d)
{
	const struct smp__diag_tuning *t = tuning_of(d);
	const struct smp_diagnosis_build *b =
		(const struct smp_diagnosis_build *)d;
	struct smp_buf buf;
	struct smp__out sub;
	size_t i;

	key(o, "tuning", 0);
	if (!t->wanted) {
		smp__out_str(o, "null");
		return;
	}
	smp__out_str(o, "{");
	key(o, "proposed", 1);
	smp__out_str(o, t->ok ? "true" : "false");
	if (!t->ok) {
		kstr(o, "why", t->why, 0);
		smp__out_str(o, "}");
		return;
	}
	kstr(o, "objective_metric", t->metric, 0);
	kstr(o, "objective_type", t->objective, 0);
	key(o, "learning_rate", 0);
	smp__out_str(o, "{");
	kstr(o, "name", t->lr_name, 1);
	key(o, "min", 0);
	out_num(o, t->lr_min);
	key(o, "max", 0);
	out_num(o, t->lr_max);
	key(o, "native", 0);
	out_num(o, t->lr0);
	key(o, "k", 0);
	out_num(o, t->k);
	smp__out_str(o, "}");
	key(o, "batch_size", 0);
	smp__out_str(o, "{");
	kstr(o, "name", t->batch_name, 1);
	key(o, "values", 0);
	smp__out_str(o, "[");
	for (i = 0; i < t->nbatches; i++) {
		if (i)
			smp__out_str(o, ",");
		out_num(o, t->batches[i]);
	}
	smp__out_str(o, "]}");
	/* the snippet as one string */
	smp__buf_init(&buf, &b->ctx->alloc, SMP_BUF_NO_MAX);
	smp__out_init(&sub, to_buf, &buf);
	tuner_snippet(&sub, t, "");
	if (smp__out_flush(&sub) == 0 && !smp__buf_error(&buf))
		kstr(o, "sdk_snippet", smp__buf_str(&buf), 0);
	else
		o->failed = 1;
	smp__buf_free(&buf);
	key(o, "request", 0);
	tuning_request(o, d, t);
	smp__out_str(o, "}");
}

int
smp_diagnosis_emit_json(const struct smp_diagnosis *d, smp_write_fn write,
			void *ud)
{
	struct smp__out o;

	if (!d || !write)
		return SMP_EINVAL;
	smp__out_init(&o, write, ud);
	smp__out_str(&o, "{");
	key(&o, "schema_version", 1);
	smp__out_uint(&o, SMP_DIAGNOSIS_SCHEMA_VERSION);
	key(&o, "tool", 0);
	smp__out_str(&o, "{");
	kstr(&o, "name", "sm-preflight", 1);
	kstr(&o, "version", smp_version(), 0);
	smp__out_str(&o, "}");
	kstr(&o, "file", d->file, 0);
	json_job(&o, d);
	kstr(&o, "baseline", d->baseline_file, 0);
	kstr(&o, "log", d->log_file, 0);
	json_situations(&o, d);
	json_causes(&o, d);
	json_hyperparameters(&o, d);
	json_tuning(&o, d);
	json_items(&o, d);
	key(&o, "summary", 0);
	smp__out_str(&o, "{");
	key(&o, "causes", 1);
	smp__out_uint(&o, d->cause_count);
	kuint(&o, "problems", count_state(d, SMP_ITEM_PROBLEM));
	kuint(&o, "cannot_tell", count_state(d, SMP_ITEM_CANNOT_TELL));
	kbool(&o, "found", smp_diagnosis_found(d));
	smp__out_str(&o, "}}\n");
	return smp__out_flush(&o);
}
