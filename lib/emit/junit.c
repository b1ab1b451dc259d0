/*
 * junit.c - JUnit XML (`check --format junit`) for CI systems that
 * show test reports (GitLab, Jenkins, Azure Pipelines), valid against
 * both the Apache Ant schema (strict) and the Jenkins xUnit plugin's
 * junit-10.xsd:
 *
 *   <?xml version="1.0" encoding="UTF-8"?>
 *   <testsuite name="sm-preflight" tests="2" failures="1" errors="0"
 *       skipped="0" time="0" timestamp="2026-12-01T11:12:00"
 *       hostname="ci-42">
 *     <properties/>
 *     <testcase classname="sm-preflight" name="jobs/a.yaml" time="0">
 *       <failure type="RULE" message="MESSAGE">a.yaml:3:1: error: ...
 *   </failure>
 *     </testcase>
 *     <testcase classname="sm-preflight" name="jobs/b.yaml" time="0"/>
 *     <system-out>a.yaml:9:1: info: ...
 *   </system-out>
 *     <system-err/>
 *   </testsuite>
 *
 * One testcase per checked file, with at most one <failure> (Ant allows
 * one): a file with findings at or above fail_on fails once, its message
 * summarising them (the finding's own message when there is one, else
 * "N findings at or above SEVERITY: rule, rule"), its text listing them
 * all. The findings below fail_on go to the suite's <system-out> (Ant
 * has none in a testcase). "failures" counts the testcases that failed.
 * Suppressed findings are left out. A file that could not be checked is
 * a testcase with an <error>, counted in "errors". The timestamp and
 * hostname come from the options: the library reads no clock.
 *
 * The totals are attributes of the opening tag, so the testcases are
 * written to a buffer (em->body) and the suite's <system-out> to a second
 * one (em->side), the document at the end: the one format whose memory
 * grows with the number of files (a few hundred bytes each).
 */
#include <stdint.h>
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

/* The failure's message: the finding's when it is alone, else a count
 * and the distinct rules in order of appearance. */
static void
out_summary(struct smp_emitter *em, const struct smp_report *report,
	    size_t failures)
{
	struct smp__out *o = &em->out;
	size_t i, j, named = 0;

	smp__out_uint(o, failures);
	smp__out_str(o, " findings at or above ");
	smp__out_str(o, smp_severity_name(em->fail_on));
	smp__out_str(o, ":");
	for (i = 0; i < report->count; i++) {
		const struct smp_finding *f = &report->items[i];
		const char *rule = f->rule ? f->rule : "?";
		int seen = 0;

		if (!shown(em, f) || f->severity < em->fail_on)
			continue;
		for (j = 0; j < i && !seen; j++) {
			const struct smp_finding *g = &report->items[j];

			seen = shown(em, g) && g->severity >= em->fail_on &&
			       strcmp(g->rule ? g->rule : "?", rule) == 0;
		}
		if (seen)
			continue;
		smp__out_str(o, named++ ? ", " : " ");
		smp__out_xml(o, rule, 1);
	}
}

static void
out_testcase(struct smp_emitter *em, const struct smp_report *report)
{
	struct smp__out *o = &em->out;
	const char *file = smp__emit_report_file(report);
	const struct smp_finding *first = NULL;
	size_t i, failures = 0;

	for (i = 0; i < report->count; i++) {
		const struct smp_finding *f = &report->items[i];

		if (shown(em, f) && f->severity >= em->fail_on) {
			if (!failures++)
				first = f;
		}
	}
	smp__out_str(o, "  <testcase classname=\"sm-preflight\" name=\"");
	smp__out_xml(o, file, 1);
	if (!failures) {
		smp__out_str(o, "\" time=\"0\"/>\n");
		return;
	}
	smp__out_str(o, "\" time=\"0\">\n    <failure type=\"");
	smp__out_xml(o, failures == 1 && first->rule ? first->rule : "multiple",
		     1);
	smp__out_str(o, "\" message=\"");
	if (failures == 1)
		smp__out_xml(o, first->message ? first->message : "", 1);
	else
		out_summary(em, report, failures);
	smp__out_str(o, "\">");
	for (i = 0; i < report->count; i++) {
		const struct smp_finding *f = &report->items[i];

		if (shown(em, f) && f->severity >= em->fail_on)
			out_line(o, f, file);
	}
	smp__out_str(o, "</failure>\n  </testcase>\n");
	em->failed_cases++;
}

/* The findings below fail_on, for the suite's <system-out>. */
static void
out_others(struct smp_emitter *em, const struct smp_report *report)
{
	const char *file = smp__emit_report_file(report);
	size_t i;

	for (i = 0; i < report->count; i++) {
		const struct smp_finding *f = &report->items[i];

		if (shown(em, f) && f->severity < em->fail_on)
			out_line(&em->out, f, file);
	}
}

static void
junit_file(struct smp_emitter *em, const struct smp_report *report)
{
	struct smp__sink saved;

	if (smp__emit_body_open(em, &saved))
		return;
	out_testcase(em, report);
	smp__emit_body_close(em, &saved);
	if (smp__emit_side_open(em, &saved))
		return;
	out_others(em, report);
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
	smp__out_str(o, "\" time=\"0\">\n    <error type=\"not-checked\" "
			"message=\"");
	smp__out_xml(o, message, 1);
	smp__out_str(o, "\">");
	smp__out_xml(o, file, 0);
	smp__out_str(o, ": could not be checked: ");
	smp__out_xml(o, message, 0);
	smp__out_str(o, "\n</error>\n  </testcase>\n");
	smp__emit_body_close(em, &saved);
}

/* Days since 1970-01-01 to a civil date (H. Hinnant's algorithm). */
static void
civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
	int64_t era, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	yoe = z - era * 146097;
	yoe = (yoe - yoe / 1460 + yoe / 36524 - yoe / 146096) / 365;
	doy = z - era * 146097 - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (unsigned)(doy - (153 * mp + 2) / 5 + 1);
	*m = (unsigned)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

static void
out_2(struct smp__out *o, unsigned v)
{
	char b[2];

	b[0] = (char)('0' + v / 10 % 10);
	b[1] = (char)('0' + v % 10);
	smp__out_mem(o, b, 2);
}

/* YYYY-MM-DDTHH:MM:SS in UTC, clamped to years 1970..9999. */
static void
out_timestamp(struct smp__out *o, int64_t t)
{
	const int64_t max = INT64_C(253402300799); /* 9999-12-31T23:59:59 */
	int64_t days, secs, year;
	unsigned month, day;

	if (t < 0)
		t = 0;
	if (t > max)
		t = max;
	days = t / 86400;
	secs = t % 86400;
	civil_from_days(days, &year, &month, &day);
	out_2(o, (unsigned)(year / 100));
	out_2(o, (unsigned)(year % 100));
	smp__out_str(o, "-");
	out_2(o, month);
	smp__out_str(o, "-");
	out_2(o, day);
	smp__out_str(o, "T");
	out_2(o, (unsigned)(secs / 3600));
	smp__out_str(o, ":");
	out_2(o, (unsigned)(secs / 60 % 60));
	smp__out_str(o, ":");
	out_2(o, (unsigned)(secs % 60));
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
	smp__out_str(o, "\" skipped=\"0\" time=\"0\" timestamp=\"");
	out_timestamp(o, em->timestamp);
	smp__out_str(o, "\" hostname=\"");
	smp__out_xml(o, em->hostname, 1);
	smp__out_str(o, "\">\n  <properties/>\n");
	if (em->body.len)
		smp__out_mem(o, smp__buf_str(&em->body), em->body.len);
	if (em->side.len) {
		smp__out_str(o, "  <system-out>");
		smp__out_mem(o, smp__buf_str(&em->side), em->side.len);
		smp__out_str(o, "</system-out>\n");
	} else {
		smp__out_str(o, "  <system-out/>\n");
	}
	smp__out_str(o, "  <system-err/>\n</testsuite>\n");
}

const struct smp_emitter_ops smp__emit_junit = {
	.name = "junit",
	.file = junit_file,
	.failure = junit_failure,
	.end = junit_end,
};
