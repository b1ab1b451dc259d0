/*
 * report_contract.h - what every fuzz target of a whole check asserts
 * about a report: a known rule id, a message, a severity, a sane position
 * within an input of size bytes, and findings in source order. Included
 * by the fuzz targets only (test code).
 */
#ifndef FUZZ_REPORT_CONTRACT_H
#define FUZZ_REPORT_CONTRACT_H

#include <stdlib.h>

#include "report/report.h"
#include "smpreflight.h"

static void
check_report(const struct smp_report *rep, size_t size)
{
	size_t i, n = smp_report_count(rep);

	for (i = 0; i < n; i++) {
		const struct smp_finding *f = smp_report_get(rep, i);
		const struct smp_finding *prev =
			i ? smp_report_get(rep, i - 1) : NULL;

		if (!f || !f->rule || !smp_rule_find(f->rule) || !f->message ||
		    !f->message[0] || !f->file)
			abort();
		if (f->severity < SMP_SEVERITY_INFO ||
		    f->severity > SMP_SEVERITY_ERROR)
			abort();
		if ((f->line == 0) != (f->column == 0))
			abort();
		/* a position lies in the input (one past the end at most) */
		if (f->line > size + 1 || f->column > size + 2)
			abort();
		/* an empty value has an empty range */
		if (f->line && f->end_line &&
		    (f->end_line < f->line ||
		     (f->end_line == f->line && f->end_column < f->column)))
			abort();
		if (prev &&
		    (prev->line > f->line ||
		     (prev->line == f->line && prev->column > f->column)))
			abort();
	}
	if (smp_report_get(rep, n))
		abort();
	/* the report's cap, and the finding that counts the rest */
	if (n > SMP_REPORT_FINDINGS_MAX + 1)
		abort();
}

#endif
