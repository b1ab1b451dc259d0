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
