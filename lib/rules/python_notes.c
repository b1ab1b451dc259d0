/*
 * python_notes.c - the Python scan's notes as findings (see
 * python_notes.h).
 */
#include <stddef.h>

#include "rules/python_notes.h"

/* The longest statement quoted in a message. */
#define QUOTE_MAX 60

static void
limit(struct smp_report *rep, const struct smp_pysrc_note *n)
{
	struct smp_finding *f;

	if (n->tokens) {
		f = smp__report_add(rep, SMP_RULE_INPUT_LIMIT, &n->at, NULL,
				    "this Python source has more than %zu "
				    "tokens; it is read up to here only",
				    n->tokens);
		smp__finding_fix(rep, f,
				 "split the file, or check the job as a "
				 "CreateTrainingJob JSON or YAML spec");
		return;
	}
	f = smp__report_add(
		rep, SMP_RULE_INPUT_LIMIT, &n->at, NULL,
		"evaluating this statement reaches the limit of %zu bytes of "
		"values for this file; the jobs from here on are not checked",
		n->budget);

	smp__finding_fix(rep, f,
			 "build large values with fewer copies, or check the "
			 "job as a CreateTrainingJob JSON or YAML spec");
}

static void
type_error(struct smp_report *rep, const struct smp_pysrc_note *n)
{
	struct smp_finding *f = smp__report_add(
		rep, SMP_RULE_SYNTAX, &n->at, &n->end,
		"'%s' gets keyword argument '%s' twice: Python raises "
		"TypeError (got multiple values for keyword argument) and "
		"no job is created",
		n->what ? n->what : "", n->text);

	smp__finding_fix(rep, f,
			 "pass each argument once: merge the dictionaries "
			 "first, as in {**a, **b}");
}

static void
annotation(struct smp_report *rep, const struct smp_pysrc_note *n)
{
	int len = 0;
	struct smp_finding *f;

	while (n->text[len] && n->text[len] != '\n' && len < QUOTE_MAX)
		len++;
	f = smp__report_add(rep, SMP_RULE_ANNOTATION_NOT_ASSIGNMENT, &n->at,
			    &n->end,
			    "'%.*s%s' is an annotation, not an assignment: "
			    "Python stores nothing, so the job runs without "
			    "this value",
			    len, n->text, n->text[len] ? "..." : "");
	smp__finding_fix(rep, f, "write '=' instead of ':'");
}

static void
assumed(struct smp_report *rep, const struct smp_pysrc_note *n)
{
	struct smp_finding *f = smp__report_add(
		rep, SMP_RULE_IMPORTS_ASSUMED, &n->at, &n->end,
		"%s used without imports: read as the SageMaker Python SDK's "
		"classes",
		n->text);

	smp__finding_fix(rep, f,
			 "add the imports, as in 'from sagemaker.pytorch "
			 "import PyTorch, TrainingCompilerConfig'");
}

void
smp__rules_python_notes(struct smp_report *rep, const struct smp_pysrc *src,
			int limits_only)
{
	size_t k;

	for (k = 0; k < src->nnotes; k++) {
		const struct smp_pysrc_note *n = &src->notes[k];

		if (limits_only && n->kind != SMP_PYNOTE_LIMIT)
			continue;
		switch (n->kind) {
		case SMP_PYNOTE_LIMIT:
			limit(rep, n);
			break;
		case SMP_PYNOTE_TYPE_ERROR:
			type_error(rep, n);
			break;
		case SMP_PYNOTE_ANNOTATION:
			annotation(rep, n);
			break;
		case SMP_PYNOTE_ASSUMED:
			assumed(rep, n);
			break;
		}
	}
}

int
smp__python_notes_stopped(const struct smp_pysrc *src)
{
	size_t k;

	for (k = 0; k < src->nnotes; k++)
		if (src->notes[k].kind == SMP_PYNOTE_LIMIT ||
		    src->notes[k].kind == SMP_PYNOTE_TYPE_ERROR)
			return 1;
	return 0;
}
