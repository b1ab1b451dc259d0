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
 * the testcases that failed. Suppressed findings are left out.
 *
 * The totals are attributes of the opening tag, so the testcases are
 * written to a buffer (em->body) and the document at the end: the one
 * format whose memory grows with the number of files (a few hundred
 * bytes each).
 */
#include <string.h>

#include "emit/emitter.h"
#include "report/report.h"

/* The smp_write_fn that appends to em->body; fails only on ENOMEM. */
static int
body_write(void *ud, const char *data, size_t len)
{
	struct smp_emitter *em = ud;
	void *body = em->body;

	if (em->body_len + len < em->body_len ||
	    smp__grow(&em->alloc, &body, &em->body_cap, em->body_len + len,
		      1)) {
		em->oom = 1;
		return -1;
	}
	em->body = body;
	memcpy(em->body + em->body_len, data, len);
	em->body_len += len;
	return 0;
}

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
	smp_write_fn write = em->out.write;
	void *ud = em->out.ud;

	/* nothing is pending: JUnit writes to the sink only at the end */
	smp__out_flush(&em->out);
	if (em->out.failed)
		return;
	em->out.write = body_write;
	em->out.ud = em;
	out_testcase(em, report);
	smp__out_flush(&em->out);
	em->out.write = write;
	em->out.ud = ud;
	if (em->oom)
		em->out.failed = 0; /* settle() reports SMP_ENOMEM */
}

static void
junit_end(struct smp_emitter *em)
{
	struct smp__out *o = &em->out;

	smp__out_str(o, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			"<testsuite name=\"sm-preflight\" tests=\"");
	smp__out_uint(o, em->files);
	smp__out_str(o, "\" failures=\"");
	smp__out_uint(o, em->failed_cases);
	smp__out_str(o, "\" errors=\"0\" skipped=\"0\">\n");
	if (em->body_len)
		smp__out_mem(o, em->body, em->body_len);
	smp__out_str(o, "</testsuite>\n");
}

const struct smp_emitter_ops smp__emit_junit = {
	.name = "junit",
	.file = junit_file,
	.end = junit_end,
};
