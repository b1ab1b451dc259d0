/*
 * test_emit_text.c - the text emitter on hand-built reports (report.h is
 * transparent inside the library) and on one real check.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "report/report.h"
#include "smpreflight.h"

struct sink {
	char buf[8192];
	size_t len;
	size_t calls;
	size_t fail_after; /* 0: never fail */
};

static int
sink_write(void *ud, const char *data, size_t len)
{
	struct sink *s = ud;

	s->calls++;
	if (s->fail_after && s->calls >= s->fail_after)
		return -1;
	cr_assert_lt(s->len + len, sizeof(s->buf));
	memcpy(s->buf + s->len, data, len);
	s->len += len;
	s->buf[s->len] = '\0';
	return 0;
}

static struct smp_finding
finding(const char *rule, enum smp_severity sev, const char *msg, uint32_t line,
	uint32_t col, uint32_t end_col, const char *src, const char *fix)
{
	struct smp_finding f;

	memset(&f, 0, sizeof(f));
	f.rule = rule;
	f.severity = sev;
	f.message = msg;
	f.file = "jobs/bert.yaml";
	f.line = line;
	f.column = col;
	f.end_line = line;
	f.end_column = end_col;
	f.source_line = src;
	f.fix = fix;
	return f;
}

/* Emits findings[0..n) as text into s; returns the emitter's status. */
static int
emit(struct sink *s, struct smp_finding *items, size_t n, enum smp_severity min,
     unsigned flags)
{
	struct smp_report r;

	memset(&r, 0, sizeof(r));
	r.items = items;
	r.count = n;
	memset(s, 0, sizeof(*s));
	return smp_emit_text(&r, min, flags, sink_write, s);
}

Test(emit_text, design_example)
{
	struct smp_finding f = finding(
		"gpu-num-devices-mismatch", SMP_SEVERITY_ERROR,
		"GPU_NUM_DEVICES is \"8\" but ml.p3.8xlarge has 4 GPUs", 14, 20,
		23, "  GPU_NUM_DEVICES: \"8\"", "set GPU_NUM_DEVICES to \"4\"");
	struct sink s;

	cr_assert_eq(emit(&s, &f, 1, SMP_SEVERITY_INFO, 0), 0);
	cr_assert_str_eq(
		s.buf,
		"jobs/bert.yaml:14:20: error: GPU_NUM_DEVICES is \"8\" but "
		"ml.p3.8xlarge has 4 GPUs [gpu-num-devices-mismatch]\n"
		"   14 |   GPU_NUM_DEVICES: \"8\"\n"
		"      |                    ^~~\n"
		"      = fix: set GPU_NUM_DEVICES to \"4\"\n");
}

Test(emit_text, gutter_follows_line_number_width)
{
	struct smp_finding f[2] = {
		finding("syntax", SMP_SEVERITY_ERROR, "bad", 5, 1, 2, "a: [",
			"close it"),
		finding("syntax", SMP_SEVERITY_ERROR, "bad", 12345, 3, 4,
			"a: [", NULL),
	};
	struct sink s;

	cr_assert_eq(emit(&s, f, 2, SMP_SEVERITY_INFO, 0), 0);
	cr_assert_str_eq(s.buf, "jobs/bert.yaml:5:1: error: bad [syntax]\n"
				"   5 | a: [\n"
				"     | ^\n"
				"     = fix: close it\n"
				"jobs/bert.yaml:12345:3: error: bad [syntax]\n"
				"   12345 | a: [\n"
				"         |   ^\n");
}

Test(emit_text, no_excerpt_without_position_or_source)
{
	struct smp_finding f[2] = {
		finding("compiler-not-enabled", SMP_SEVERITY_INFO,
			"no compiler", 0, 0, 0, NULL, NULL),
		finding("local-mode", SMP_SEVERITY_ERROR, "'local'", 3, 16, 21,
			NULL, "use an ml.* type"),
	};
	struct sink s;

	cr_assert_eq(emit(&s, f, 2, SMP_SEVERITY_INFO, 0), 0);
	cr_assert_str_eq(
		s.buf,
		"jobs/bert.yaml: info: no compiler [compiler-not-enabled]\n"
		"jobs/bert.yaml:3:16: error: 'local' [local-mode]\n"
		"     = fix: use an ml.* type\n");
}

Test(emit_text, skips_findings_below_min_severity)
{
	struct smp_finding f[3] = {
		finding("a", SMP_SEVERITY_INFO, "i", 0, 0, 0, NULL, NULL),
		finding("b", SMP_SEVERITY_WARNING, "w", 0, 0, 0, NULL, NULL),
		finding("c", SMP_SEVERITY_ERROR, "e", 0, 0, 0, NULL, NULL),
	};
	struct sink s;

	cr_assert_eq(emit(&s, f, 3, SMP_SEVERITY_WARNING, 0), 0);
	cr_assert_str_eq(s.buf, "jobs/bert.yaml: warning: w [b]\n"
				"jobs/bert.yaml: error: e [c]\n");
	cr_assert_eq(emit(&s, f, 3, SMP_SEVERITY_ERROR, 0), 0);
	cr_assert_str_eq(s.buf, "jobs/bert.yaml: error: e [c]\n");
}

Test(emit_text, caret_counts_code_points)
{
	/* "é" and "名" are one column each; "名" takes two cells */
	struct smp_finding f[2] = {
		finding("r", SMP_SEVERITY_WARNING, "m", 1, 5, 7,
			"k: \xC3\xA9xy", NULL),
		finding("r", SMP_SEVERITY_WARNING, "m", 1, 5, 6,
			"k: \xE5\x90\x8Dxy", NULL),
	};
	struct sink s;

	cr_assert_eq(emit(&s, f, 2, SMP_SEVERITY_INFO, 0), 0);
	cr_assert_str_eq(s.buf, "jobs/bert.yaml:1:5: warning: m [r]\n"
				"   1 | k: \xC3\xA9xy\n"
				"     |     ^~\n"
				"jobs/bert.yaml:1:5: warning: m [r]\n"
				"   1 | k: \xE5\x90\x8Dxy\n"
				"     |      ^\n");
}

Test(emit_text, tabs_expand_and_caret_lines_up)
{
	/* column 4 is 'b' after "a", TAB, TAB: cells 0, 1..7, 8..15 */
	struct smp_finding f = finding("r", SMP_SEVERITY_INFO, "m", 2, 4, 5,
				       "a\t\tb # c", NULL);
	struct sink s;

	cr_assert_eq(emit(&s, &f, 1, SMP_SEVERITY_INFO, 0), 0);
	cr_assert_str_eq(s.buf, "jobs/bert.yaml:2:4: info: m [r]\n"
				"   2 | a               b # c\n"
				"     |                 ^\n");
}

Test(emit_text, span_edges)
{
	struct smp_finding f[4] = {
		/* end not after start: one caret */
		finding("r", SMP_SEVERITY_INFO, "m", 1, 2, 2, "abc", NULL),
		/* past the end of the line (e.g. a missing value) */
		finding("r", SMP_SEVERITY_INFO, "m", 1, 5, 0, "abc", NULL),
		/* end past the end of the line */
		finding("r", SMP_SEVERITY_INFO, "m", 1, 2, 9, "abc", NULL),
		/* an empty line */
		finding("r", SMP_SEVERITY_INFO, "m", 1, 1, 2, "", NULL),
	};
	struct sink s;

	f[3].file = "x";
	cr_assert_eq(emit(&s, f, 4, SMP_SEVERITY_INFO, 0), 0);
	cr_assert_str_eq(s.buf, "jobs/bert.yaml:1:2: info: m [r]\n"
				"   1 | abc\n"
				"     |  ^\n"
				"jobs/bert.yaml:1:5: info: m [r]\n"
				"   1 | abc\n"
				"     |     ^\n"
				"jobs/bert.yaml:1:2: info: m [r]\n"
				"   1 | abc\n"
				"     |  ^~~~~~~\n"
				"x:1:1: info: m [r]\n"
				"   1 |\n"
				"     | ^\n");
}

Test(emit_text, multi_line_range_underlines_to_end_of_line)
{
	struct smp_finding f = finding("r", SMP_SEVERITY_INFO, "m", 1, 4, 2,
				       "a: {b: 1,", NULL);
	struct sink s;

	f.end_line = 3;
	cr_assert_eq(emit(&s, &f, 1, SMP_SEVERITY_INFO, 0), 0);
	cr_assert_str_eq(s.buf, "jobs/bert.yaml:1:4: info: m [r]\n"
				"   1 | a: {b: 1,\n"
				"     |    ^~~~~~\n");
}

Test(emit_text, terminal_controls_are_neutralised)
{
	/* ESC in the message and excerpt, invalid UTF-8, a bidi override */
	struct smp_finding f =
		finding("r", SMP_SEVERITY_ERROR, "key '\033[31mx' bad", 1, 3, 4,
			"\033a\xFF\xE2\x80\xAE"
			"b",
			NULL);
	struct sink s;

	cr_assert_eq(emit(&s, &f, 1, SMP_SEVERITY_INFO, 0), 0);
	cr_assert_null(strchr(s.buf, '\033'));
	cr_assert_str_eq(s.buf,
			 "jobs/bert.yaml:1:3: error: key '\xE2\x90\x9B[31mx' "
			 "bad [r]\n"
			 "   1 | \xE2\x90\x9B"
			 "a\xEF\xBF\xBD\xEF\xBF\xBD"
			 "b\n"
			 "     |   ^\n");
}

Test(emit_text, color)
{
	struct smp_finding f[2] = {
		finding("gpu-num-devices-invalid", SMP_SEVERITY_ERROR, "bad", 1,
			2, 3, "xy", "fix it"),
		finding("efa-recommended", SMP_SEVERITY_WARNING, "w", 0, 0, 0,
			NULL, NULL),
	};
	struct sink s;

	cr_assert_eq(emit(&s, f, 2, SMP_SEVERITY_INFO, SMP_TEXT_COLOR), 0);
	cr_assert_str_eq(
		s.buf,
		"\033[1mjobs/bert.yaml:1:2:\033[0m \033[1;31merror\033[0m: bad "
		"\033[2m[gpu-num-devices-invalid]\033[0m\n"
		"   1 | xy\n"
		"     |  \033[1;32m^\033[0m\n"
		"     = fix: fix it\n"
		"\033[1mjobs/bert.yaml:\033[0m \033[1;33mwarning\033[0m: w "
		"\033[2m[efa-recommended]\033[0m\n");
}

Test(emit_text, sink_failure_is_eio)
{
	struct smp_finding f[64];
	struct smp_report r;
	struct sink s;
	size_t i;

	for (i = 0; i < 64; i++)
		f[i] = finding("r", SMP_SEVERITY_ERROR, "a message", 7, 1, 2,
			       "some source line", "a fix");
	memset(&r, 0, sizeof(r));
	r.items = f;
	r.count = 64;
	memset(&s, 0, sizeof(s));
	s.fail_after = 1;
	cr_assert_eq(smp_emit_text(&r, SMP_SEVERITY_INFO, 0, sink_write, &s),
		     SMP_EIO);
	cr_assert_eq(s.calls, 1, "stops writing after the first failure");
	cr_assert_eq(smp_emit_text(NULL, SMP_SEVERITY_INFO, 0, sink_write, &s),
		     SMP_EINVAL);
}

Test(emit_text, long_output_is_written_in_pieces)
{
	struct smp_finding f[80];
	struct sink s;
	size_t i;

	for (i = 0; i < 80; i++)
		f[i] = finding("r", SMP_SEVERITY_ERROR, "a message", 7, 1, 2,
			       "some source line", NULL);
	cr_assert_eq(emit(&s, f, 80, SMP_SEVERITY_INFO, 0), 0);
	cr_assert_gt(s.calls, 1);
	/* 80 x (35 + 26 + 12) bytes: more than the writer's buffer */
	cr_assert_eq(s.len, 80 * (strlen("jobs/bert.yaml:7:1: error: a "
					 "message [r]\n") +
				  strlen("   7 | some source line\n") +
				  strlen("     | ^\n")));
}

Test(emit_text, real_check)
{
	static const char spec[] = "estimator: HuggingFace\n"
				   "instance_type: ml.p3.2xlarge\n"
				   "instance_count: 1\n"
				   "compiler_confg: {enabled: true}\n";
	struct smp_options opts = SMP_OPTIONS_INIT;
	struct smp_context *ctx = NULL;
	struct smp_report *rep = NULL;
	struct smp_error err = {0};
	struct sink s;

	memset(&err, 0, sizeof(err));
	cr_assert_eq(smp_context_new(&ctx, &opts, &err), 0, "%s", err.message);
	cr_assert_eq(smp_check_buffer(&rep, ctx, "job.yaml", spec,
				      sizeof(spec) - 1, &err),
		     0);
	memset(&s, 0, sizeof(s));
	cr_assert_eq(smp_emit_text(rep, SMP_SEVERITY_INFO, 0, sink_write, &s),
		     0);
	cr_assert(strstr(s.buf, "job.yaml:4:1: error: ") != NULL, "%s", s.buf);
	cr_assert(strstr(s.buf, "[unknown-key]\n"
				"   4 | compiler_confg: {enabled: true}\n"
				"     | ^~~~~~~~~~~~~~\n") != NULL,
		  "%s", s.buf);
	smp_report_free(rep);
	smp_context_free(ctx);
}

Test(emit_text, long_lines_are_cut_around_the_caret)
{
	char line[301], want[1024];
	struct smp_finding f[2];
	struct sink s;
	int n;

	memset(line, 'x', 300);
	line[300] = '\0';
	line[199] = 'Y'; /* column 200 */
	f[0] = finding("r", SMP_SEVERITY_ERROR, "m", 1, 200, 203, line, NULL);
	f[1] = finding("r", SMP_SEVERITY_ERROR, "m", 1, 5, 6, line, NULL);
	cr_assert_eq(emit(&s, f, 2, SMP_SEVERITY_INFO, 0), 0);
	/* cells 159..258 shown: 40 before the caret, 60 from it */
	n = snprintf(want, sizeof(want),
		     "jobs/bert.yaml:1:200: error: m [r]\n"
		     "   1 | ...%.40sY%.59s...\n"
		     "     | %43s^~~\n"
		     "jobs/bert.yaml:1:5: error: m [r]\n"
		     "   1 | %.100s...\n"
		     "     |     ^\n",
		     line, line, "", line);
	cr_assert_lt(n, (int)sizeof(want));
	cr_assert_str_eq(s.buf, want);
}

/* A printable ASCII line of the window's width goes out whole (the short
 * path); one byte more is cut like any long line. A finding without a
 * column has no caret line; a multi-line range from past the end keeps
 * one caret. */
Test(emit_text, ascii_lines_at_the_window_width)
{
	static const char tail[] = "jobs/bert.yaml:2: info: m [r]\n"
				   "   2 | ab\n"
				   "jobs/bert.yaml:3:4: info: m [r]\n"
				   "   3 | ab\n"
				   "     |    ^\n";
	struct smp_finding f[4];
	char wide[102], want[1024] = "";
	struct sink s;

	memset(wide, 'a', 101);
	wide[101] = '\0';
	f[0] = finding("r", SMP_SEVERITY_INFO, "m", 1, 5, 7, wide + 1, NULL);
	f[1] = finding("r", SMP_SEVERITY_INFO, "m", 1, 5, 7, wide, NULL);
	f[2] = finding("r", SMP_SEVERITY_INFO, "m", 2, 0, 0, "ab", NULL);
	f[3] = finding("r", SMP_SEVERITY_INFO, "m", 3, 4, 0, "ab", NULL);
	f[3].end_line = 4;
	cr_assert_eq(emit(&s, f, 4, SMP_SEVERITY_INFO, 0), 0);
	/* 100 bytes whole, then 101 cut to 100 and "..." */
	strcat(want, "jobs/bert.yaml:1:5: info: m [r]\n   1 | ");
	strcat(want, wide + 1);
	strcat(want,
	       "\n     |     ^~\njobs/bert.yaml:1:5: info: m [r]\n   1 | ");
	strcat(want, wide + 1); /* as many as the 100 the window shows */
	strcat(want, "...\n     |     ^~\n");
	strcat(want, tail);
	cr_assert_str_eq(s.buf, want);
}
