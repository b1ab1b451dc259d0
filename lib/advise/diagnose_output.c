/*
 * diagnose_output.c - a diagnosis as text (read top to bottom: the job,
 * the situation, the likely causes, the hyperparameters against the
 * baseline, the checklist) and as JSON (schemas/diagnosis.schema.json).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "advise/diagnose.h"
#include "emit/out.h"
#include "job/settings.h"

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
		else
		{
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
