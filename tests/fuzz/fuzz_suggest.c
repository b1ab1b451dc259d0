/*
 * fuzz_suggest.c - libFuzzer target for suggestions and the baseline
 * comparison. The first byte picks the learning-rate scaling and a --to
 * instance (or none); the rest is the spec. Besides crashes and sanitizer
 * reports it aborts when an invariant breaks: the outcome is known, k and
 * the batches agree (next.global = k x now.global), a row goes with a
 * relation, no number appears where no row applies without a move, the
 * text renders, and a single-document job compared with itself as the
 * baseline never drifts and never mis-scales its learning rate.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "smpreflight.h"

/* smp_check() options comparing with baseline b */
#define BASELINE_OPTS(b)                                                       \
	(&(struct smp_check_options){.version = SMP_CHECK_OPTIONS_VERSION,     \
				     .baseline = (b)})

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* created once and kept: contexts are immutable, and a fuzz target may
 * keep state between inputs (test code, not the library) */
static struct smp_context *contexts[2];

static const char *const targets[] = {
	NULL,
	"ml.p3.2xlarge",
	"ml.p3.8xlarge",
	"ml.p3dn.24xlarge",
	"ml.p4d.24xlarge",
	"ml.g5.48xlarge",
	"ml.g4dn.xlarge",
	"ml.m5.xlarge", /* no GPU: SMP_EINVAL */
};

static void
setup(void)
{
	int i;

	for (i = 0; i < 2; i++) {
		struct smp_options o = SMP_OPTIONS_INIT;

		o.lr_scaling = (enum smp_lr_scaling)i;
		o.max_file_size = 1 << 16;
		o.max_nodes = 4000;
		if (smp_context_new(&contexts[i], &o, NULL) != 0)
			abort();
	}
}

static int
sink(void *ud, const char *data, size_t len)
{
	size_t *total = ud;

	if (memchr(data, '\0', len))
		abort();
	*total += len;
	return 0;
}

static int
near(double a, double b)
{
	return fabs(a - b) <= 1e-6 * fmax(1, fmax(fabs(a), fabs(b)));
}

static void
check_suggestion(const struct smp_suggestion *s, const char *to)
{
	size_t total = 0;

	if (!s || !s->file || !s->message || !s->report)
		abort();
	if (s->outcome > SMP_SUGGEST_ERRORS)
		abort();
	if ((s->row != NULL) != (s->relation != SMP_ROW_RELATION_NONE))
		abort();
	if (s->outcome == SMP_SUGGEST_OK && !s->row)
		abort();
	if (s->k > 0) {
		if (!near(s->next->global_batch, s->k * s->now->global_batch))
			abort();
		if (!near(s->next->global_batch,
			  s->next->batch_per_gpu * s->next->gpus *
				  (double)s->next->instance_count))
			abort();
	}
	/* never a number from nowhere */
	if (s->outcome == SMP_SUGGEST_NO_ROW && !to && s->k != 0)
		abort();
	if (smp_suggestion_emit_text(s, sink, &total) != 0 || total == 0)
		abort();
}

static int
contains(const char *buf, size_t size, const char *what)
{
	size_t n = strlen(what), i;

	for (i = 0; i + n <= size; i++)
		if (memcmp(buf + i, what, n) == 0)
			return 1;
	return 0;
}

static void
check_self_baseline(const struct smp_context *ctx, const char *buf, size_t size)
{
	struct smp_baseline *b = NULL;
	struct smp_report *rep = NULL;
	size_t i;

	if (smp_baseline_new(&b, ctx, "native.yaml", buf, size, NULL) != 0)
		return;
	if (smp_check(&rep, ctx, "same.yaml", buf, size, BASELINE_OPTS(b),
		      NULL) != 0)
		abort();
	/* one document only: later documents are other jobs */
	if (!contains(buf, size, "---") && !contains(buf, size, "...")) {
		for (i = 0; i < smp_report_count(rep); i++) {
			const char *rule = smp_report_get(rep, i)->rule;

			if (strcmp(rule, "baseline-drift") == 0 ||
			    strcmp(rule, "learning-rate-not-scaled") == 0)
				abort();
		}
	}
	smp_report_free(rep);
	smp_baseline_free(b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct smp_suggest_options so = SMP_SUGGEST_OPTIONS_INIT;
	struct smp_suggestion *s = NULL;
	const struct smp_context *ctx;
	const char *buf;
	int rc;

	if (!contexts[0])
		setup();
	if (size < 1)
		return 0;
	ctx = contexts[data[0] & 1];
	so.to_instance = targets[(data[0] >> 1) % 8];
	buf = (const char *)data + 1;
	size--;
	rc = smp_suggest(&s, ctx, "fuzz.yaml", buf, size, &so, NULL);
	if (rc == SMP_EINVAL) {
		/* only the CPU target is refused */
		if (!so.to_instance || strcmp(so.to_instance, "ml.m5.xlarge"))
			abort();
		if (s)
			abort();
	} else if (rc != 0) {
		abort();
	} else {
		check_suggestion(s, so.to_instance);
		smp_suggestion_free(s);
	}
	check_self_baseline(ctx, buf, size);
	return 0;
}
