/*
 * fuzz_check.c - libFuzzer target for a whole check (smp_check_buffer):
 * load, dialect detection, the dialect's schema, normalization and every
 * rule group. Each input runs once with the dialect detected and once
 * forced to each dialect, so that every normalizer meets every shape (an
 * estimator spec read as a request, a request read as ModelTrainer ...).
 * Besides crashes and sanitizer reports it aborts when a finding breaks
 * the report's contract: a known rule id, a message, a severity, a sane
 * position, and findings in source order.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report_contract.h"
#include "smpreflight.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* created once and kept: contexts are immutable, and a fuzz target may
 * keep state between inputs (test code, not the library) */
static struct smp_context *contexts[4];

static void
setup(void)
{
	int d;

	for (d = 0; d < 4; d++) {
		struct smp_options o = SMP_OPTIONS_INIT;

		o.dialect = (enum smp_dialect)d;
		o.limits.max_file_size = 1 << 16;
		o.limits.max_nodes = 4000;
		if (smp_context_new(&contexts[d], &o, NULL) != 0)
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int d;

	if (!contexts[0])
		setup();
	for (d = 0; d < 4; d++) {
		struct smp_report *rep = NULL;
		struct smp_error err;

		if (smp_check_buffer(&rep, contexts[d], "fuzz",
				     (const char *)data, size, &err) != 0)
			abort(); /* only out-of-memory may fail, and malloc
				    does not here */
		check_report(rep, size);
		smp_report_free(rep);
	}
	return 0;
}
