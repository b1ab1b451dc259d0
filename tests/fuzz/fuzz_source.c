/*
 * fuzz_source.c - libFuzzer target for the check of a Python launcher and
 * of a Jupyter notebook (smp_check_buffer with a .py and an .ipynb name):
 * tokenizer, statement walker, constant evaluator, the synthetic
 * documents through the whole pipeline, the notebook's code map. Besides
 * crashes and sanitizer reports it aborts when a finding breaks the
 * report's contract: a known rule id, a message, a severity, a sane
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
static struct smp_context *context;

static void
setup(void)
{
	struct smp_options o = SMP_OPTIONS_INIT;

	o.max_file_size = 1 << 16;
	o.max_nodes = 4000;
	o.no_script = 1;
	if (smp_context_new(&context, &o, NULL) != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = {"fuzz.py", "fuzz.ipynb"};
	int d;

	if (!context)
		setup();
	for (d = 0; d < 2; d++) {
		struct smp_report *rep = NULL;
		struct smp_error err = {0};

		if (smp_check_buffer(&rep, context, names[d],
				     (const char *)data, size, &err) != 0)
			abort(); /* only out-of-memory may fail, and malloc
				    does not here */
		check_report(rep, size);
		smp_report_free(rep);
	}
	return 0;
}
