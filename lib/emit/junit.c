/*
 * junit.c - JUnit XML (`check --format junit`) for CI systems that
 * show test reports (GitLab, Jenkins, Azure Pipelines):
 *
 *   <?xml version="1.0" encoding="UTF-8"?>
 *   <testsuite name="sm-preflight" tests="2" failures="1" errors="0"
 *       skipped="0">
 *     <testcase classname="sm-preflight" name="jobs/a.yaml"
 *         file="jobs/a.yaml">
 *       <failure type="RULE" message="MESSAGE">a.yaml:3:1: error: ...
 *   </failure>
 *       <system-out>a.yaml:9:1: info: ...</system-out>
 *     </testcase>
 *     <testcase classname="sm-preflight" name="jobs/b.yaml"
 *         file="jobs/b.yaml"/>
 *   </testsuite>
 *
 * One testcase per checked file; a <failure> per finding at or above
 * fail_on, the other findings as lines of <system-out>; "failures" counts
 * the testcases that failed. Suppressed findings are left out. A file
 * that could not be checked is a testcase with an <error>, counted in
 * "errors".
 *
 * The totals are attributes of the opening tag, so the testcases are
 * written to a buffer (em->body) and the document at the end: the one
 * format whose memory grows with the number of files (a few hundred
 * bytes each).
 */
#include <string.h>

#include "emit/emitter.h"
#include "report/report.h"

/* "file:line:col: severity: message [rule]" and the fix on a new line. */
static void
out_line(struct smp__out *o, const struct smp_finding *f, const char *file)
{
	smp__out_xml(o, f->file ? f->file : file, 0);
	if (f->line) {
		smp__out_str(o, ":");
		smp__out_uint(o, f->line);
		if (f->column) {
			smp__out_str(o, ":");
			smp__out_uint(o, f->column);
		}
	}
	smp__out_str(o, ": ");
	smp__out_str(o, smp_severity_name(f->severity));
	smp__out_str(o, ": ");
	smp__out_xml(o, f->message ? f->message : "", 0);
	smp__out_str(o, " [");
	smp__out_xml(o, f->rule ? f->rule : "?", 0);
	smp__out_str(o, "]\n");
	if (f->fix) {
		smp__out_str(o, "fix: ");
		smp__out_xml(o, f->fix, 0);
		smp__out_str(o, "\n");
	}
}

static int
shown(const struct smp_emitter *em, const struct smp_finding *f)
{
	return smp__emit_visible(em, f) && !f->suppressed;
}

static void
out_testcase(struct smp_emitter *em, const struct smp_report *report)
{
	struct smp__out *o = &em->out;
	const char *file = smp__emit_report_file(report);
	size_t i, failures = 0, others = 0;

	for (i = 0; i < report->count; i++) {
		const struct smp_finding *f = &report->items[i];

		if (!shown(em, f))
			continue;
		if (f->severity >= em->fail_on)
			failures++;
		else
			others++;
	}
	smp__out_str(o, "  <testcase classname=\"sm-preflight\" name=\"");
	smp__out_xml(o, file, 1);
	smp__out_str(o, "\" file=\"");
	smp__out_xml(o, file, 1);
	if (!failures && !others) {
		smp__out_str(o, "\"/>\n");
		return;
	}
	smp__out_str(o, "\">\n");
	for (i = 0; i < report->count; i++) {
		const struct smp_finding *f = &report->items[i];

		if (!shown(em, f) || f->severity < em->fail_on)
			continue;
		smp__out_str(o, "    <failure type=\"");
		smp__out_xml(o, f->rule ? f->rule : "?", 1);
		smp__out_str(o, "\" message=\"");
		smp__out_xml(o, f->message ? f->message : "", 1);
		smp__out_str(o, "\">");
		out_line(o, f, file);
		smp__out_str(o, "</failure>\n");
	}
	if (others) {
		smp__out_str(o, "    <system-out>");
		for (i = 0; i < report->count; i++) {
			const struct smp_finding *f = &report->items[i];

			if (shown(em, f) && f->severity < em->fail_on)
				out_line(o, f, file);
		}
		smp__out_str(o, "</system-out>\n");
	}
	smp__out_str(o, "  </testcase>\n");
	if (failures)
		em->failed_cases++;
}

static void
junit_file(struct smp_emitter *em, const struct smp_report *report)
{
	struct smp__sink saved;

	if (smp__emit_body_open(em, &saved))
		return;
	out_testcase(em, report);
	smp__emit_body_close(em, &saved);
}

/* a testcase with an <error>, counted in "errors". */
static void
junit_failure(struct smp_emitter *em, const char *file, const char *message)
{
	struct smp__out *o = &em->out;
	struct smp__sink saved;

	if (smp__emit_body_open(em, &saved))
		return;
	smp__out_str(o, "  <testcase classname=\"sm-preflight\" name=\"");
	smp__out_xml(o, file, 1);
	smp__out_str(o, "\" file=\"");
	smp__out_xml(o, file, 1);
	smp__out_str(o, "\">\n    <error type=\"not-checked\" message=\"");
	smp__out_xml(o, message, 1);
	smp__out_str(o, "\">");
	smp__out_xml(o, file, 0);
	smp__out_str(o, ": could not be checked: ");
	smp__out_xml(o, message, 0);
	smp__out_str(o, "\n</error>\n  </testcase>\n");
	smp__emit_body_close(em, &saved);
}

static void
junit_end(struct smp_emitter *em)
{
	struct smp__out *o = &em->out;

	smp__out_str(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			"<testsuite name=\"sm-preflight\" tests=\"");
	smp__out_uint(o, em->files + em->failures);
	smp__out_str(o, "\" failures=\"");
	smp__out_uint(o, em->failed_cases);
	smp__out_str(o, "\" errors=\"");
	smp__out_uint(o, em->failures);
	smp__out_str(o, "\" skipped=\"0\">\n");
	if (em->body_len)
		smp__out_mem(o, em->body, em->body_len);
	smp__out_str(o, "</testsuite>\n");
}

const struct smp_emitter_ops smp__emit_junit = {
	.name = "junit",
	.file = junit_file,
	.failure = junit_failure,
	.end = junit_end,
};
