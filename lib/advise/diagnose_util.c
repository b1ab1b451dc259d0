/*
 * diagnose_util.c - what the parts of a diagnosis share: strings in the
 * diagnosis' arena, a response member's text, whether the job is
 * distributed. Kept apart from diagnose.c, which calls the parts, so that
 * no two files call each other.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "advise/diagnose.h"
#include "context/context.h"

const char *
smp__diag_str(struct smp_diagnosis_build *b, const char *s, size_t n)
{
	char *out;

	if (!s)
		return NULL;
	out = smp__arena_strndup(&b->arena, s, n);
	if (!out)
		b->oom = 1;
	return out;
}

const char *
smp__diag_printf(struct smp_diagnosis_build *b, const char *fmt, ...)
{
	const char *out;
	va_list ap;

	va_start(ap, fmt);
	out = smp__arena_vprintf(&b->arena, fmt, ap);
	va_end(ap);
	if (!out)
		b->oom = 1;
	return out;
}

const char *
smp__diag_member(const struct smp_node *root, const char *name)
{
	return smp__node_text(smp__map_get(root, name));
}

int
smp__diag_distributed(const struct smp_job *job)
{
	return job->pytorchxla_enabled || job->count > 1 ||
	       job->launcher_script != NULL;
}

int
smp__diag_tested(struct smp_diagnosis_build *b, struct smp__diag_tested *t)
{
	const struct smp_settings *s = &b->ctx->settings;
	const struct smp_catalog *cat = &b->ctx->catalog;
	struct smp_tune_query q;
	struct smp_row_pick pick;
	char key[256], desc[256];
	int rc;

	memset(t, 0, sizeof(*t));
	if (!b->instance || b->instance->gpus < 1) {
		t->why = "the instance's GPUs are not known";
		return -1;
	}
	rc = smp__tune_query(&q, key, sizeof(key), s, &b->job, b->instance);
	if (rc < 0) {
		t->why = "the hyperparameters name no model to look up in the "
			 "tested-models table";
		return -1;
	}
	smp__tune_model_text(t->model, sizeof(t->model),
			     smp__tune_model_hparam(s, &b->job)->value);
	if (rc > 0 || !smp__tune_model_tested(cat, q.framework, key)) {
		t->why = smp__diag_printf(b,
					  "model '%s' is not in the "
					  "tested-models table, so no tested "
					  "batch size applies",
					  t->model);
		return -1;
	}
	smp__tune_pick(&pick, cat, &q);
	if (!pick.row) {
		t->why = smp__diag_printf(b,
					  "the tested-models table has no row "
					  "for '%s' on this GPU",
					  t->model);
		return -1;
	}
	if (smp__batch_read(&t->batch, s, &b->job, b->instance->gpus) != 0) {
		t->why = "the hyperparameters name no batch size";
		return -1;
	}
	t->row = pick.row;
	t->row_batch = smp__tune_row_batch(cat, pick.row);
	smp__tune_row_describe(desc, sizeof(desc), pick.row);
	snprintf(t->row_text, sizeof(t->row_text), "for '%s' (%s)", t->model,
		 desc);
	return 0;
}
