/*
 * test_limits.c - bounded memory on hostile inputs: a report keeps at
 * most SMP_REPORT_FINDINGS_MAX findings and says how many more there
 * were, findings on one line share one copy of it, the line index agrees
 * with the scan it replaces, and a script past the scanner's record limit
 * says that its checks were skipped. The inputs are generated here; no
 * assertion is about time.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "report/report.h"
#include "script/pyscan.h"
#include "smpreflight.h"
#include "util/alloc.h"
#include "util/lines.h"
#include "util/pos.h"

/* A growing string; asserts on out-of-memory. */
struct text {
	char *s;
	size_t len, cap;
};

static void
text_add(struct text *t, const char *s)
{
	size_t n = strlen(s);

	if (t->len + n + 1 > t->cap) {
		t->cap = (t->len + n + 1) * 2;
		t->s = realloc(t->s, t->cap);
		cr_assert_not_null(t->s);
	}
	memcpy(t->s + t->len, s, n + 1);
	t->len += n;
}

/* A one-line CreateTrainingJob request with `keys` more keys, unknown
 * ones ("Unknown0": 1, ...) or one key again and again ("Dup": 0, ...):
 * minified JSON, as the API takes it. */
static struct text
one_line_request(int keys, int dup)
{
	struct text t = {NULL, 0, 0};
	char key[64];
	int i;

	text_add(&t, "{\"AlgorithmSpecification\": {\"TrainingImage\": "
		     "\"x\", \"TrainingInputMode\": \"File\"}");
	for (i = 0; i < keys; i++) {
		text_add(&t, ", ");
		if (dup)
			snprintf(key, sizeof(key), "\"Dup\": %d", i);
		else
			snprintf(key, sizeof(key), "\"Unknown%d\": 1", i);
		text_add(&t, key);
	}
	text_add(&t, "}");
	return t;
}

static size_t
count_rule(const struct smp_report *rep, const char *rule)
{
	size_t i, n = 0;

	for (i = 0; i < smp_report_count(rep); i++)
		n += strcmp(smp_report_get(rep, i)->rule, rule) == 0;
	return n;
}

/* The input-limit finding that counts the findings not kept. */
static const struct smp_finding *
more_finding(const struct smp_report *rep)
{
	size_t i;

	for (i = 0; i < smp_report_count(rep); i++) {
		const struct smp_finding *f = smp_report_get(rep, i);

		if (strcmp(f->rule, "input-limit") == 0 &&
		    strstr(f->message, "not shown"))
			return f;
	}
	return NULL;
}

Test(limits, findings_past_the_cap_are_counted_in_one_finding)
{
	struct smp_context *ctx = th_context(NULL);
	struct text t = one_line_request(8000, 0);
	struct smp_report *rep = NULL;
	const struct smp_finding *f, *first = NULL;
	size_t i, unknown;
	int rc;

	rc = smp_check_buffer(&rep, ctx, "req.json", t.s, t.len, NULL);
	cr_assert_eq(rc, 0);
	unknown = count_rule(rep, "unknown-key");
	cr_assert_leq(smp_report_count(rep), SMP_REPORT_FINDINGS_MAX + 1);
	cr_assert_gt(unknown, 900, "the first findings are kept");
	f = more_finding(rep);
	cr_assert_not_null(f, "one finding says how many were dropped");
	cr_assert_eq(f->severity, SMP_SEVERITY_INFO);
	cr_assert_eq(count_rule(rep, "input-limit"), 1);
	/* every unknown key is either kept or counted */
	cr_assert_geq(strtoul(f->message, NULL, 10) + unknown, 8000, "%s",
		      f->message);
	cr_assert(strstr(f->message, "more findings not shown") != NULL, "%s",
		  f->message);
	/* every finding on the one line shares one copy of it */
	for (i = 0; i < smp_report_count(rep); i++) {
		f = smp_report_get(rep, i);
		if (!f->source_line)
			continue;
		if (!first)
			first = f;
		cr_assert_eq(f->source_line, first->source_line,
			     "finding %zu has its own copy of the line", i);
	}
	cr_assert_not_null(first);
	cr_assert_eq(strlen(first->source_line), t.len);
	smp_report_free(rep);
	free(t.s);
	smp_context_free(ctx);
}

Test(limits, duplicate_keys_on_one_line_are_capped)
{
	struct smp_context *ctx = th_context(NULL);
	struct text t = one_line_request(3000, 1);
	struct smp_report *rep = NULL;
	int rc;

	rc = smp_check_buffer(&rep, ctx, "dup.json", t.s, t.len, NULL);
	cr_assert_eq(rc, 0);
	cr_assert_leq(smp_report_count(rep), SMP_REPORT_FINDINGS_MAX + 1);
	cr_assert_gt(count_rule(rep, "duplicate-key"), 900);
	cr_assert_not_null(more_finding(rep));
	smp_report_free(rep);
	free(t.s);
	smp_context_free(ctx);
}

Test(limits, a_report_under_the_cap_has_no_limit_finding)
{
	struct smp_context *ctx = th_context(NULL);
	struct text t = one_line_request(SMP_REPORT_FINDINGS_MAX - 10, 0);
	struct smp_report *rep = NULL;
	int rc;

	rc = smp_check_buffer(&rep, ctx, "req.json", t.s, t.len, NULL);
	cr_assert_eq(rc, 0);
	cr_assert_eq(count_rule(rep, "unknown-key"),
		     SMP_REPORT_FINDINGS_MAX - 10);
	cr_assert_null(more_finding(rep));
	smp_report_free(rep);
	free(t.s);
	smp_context_free(ctx);
}

Test(limits, line_index_agrees_with_the_scan)
{
	static const char buf[] = "a\nbb\r\nccc\rdd\n\n\r\re\r\n";
	size_t len = sizeof(buf) - 1;
	struct smp_allocator a;
	struct smp_lines l;
	unsigned line;

	smp__allocator_resolve(&a, NULL);
	smp__lines_init(&l, buf, len);
	cr_assert_eq(smp__lines_build(&l, &a), 0);
	cr_assert_eq(l.count, 9);
	for (line = 0; line <= 12; line++)
		cr_assert_eq(smp__lines_start(&l, &a, line),
			     smp__line_start(buf, len, line), "line %u", line);
	smp__lines_release(&l, &a);
}

/* The scans before the index go on from the last line found: every order
 * of lookups, over CR, LF and CRLF endings, agrees with a scan from the
 * start (a NULL allocator never builds the index). */
Test(limits, line_scans_go_on_from_the_last_line)
{
	static const char buf[] = "a\nbb\r\nccc\rdd\n\n\r\re\r\nf";
	static const unsigned order[] = {2,  3,  3, 5, 4, 9,  1, 8,
					 10, 12, 6, 7, 0, 11, 2, 9};
	size_t len = sizeof(buf) - 1, i;
	struct smp_lines l;
	unsigned line;

	smp__lines_init(&l, buf, len);
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		cr_assert_eq(smp__lines_start(&l, NULL, order[i]),
			     smp__line_start(buf, len, order[i]), "line %u",
			     order[i]);
	for (line = 0; line <= 12; line++)
		cr_assert_eq(smp__lines_start(&l, NULL, line),
			     smp__line_start(buf, len, line), "line %u", line);
	cr_assert_null(l.start);
	cr_assert_gt(l.near_line, 0, "a scan found a line");
}

/* A line ends at '\n', '\r' or the end of the text, whichever is first;
 * from the end or past it, a line is empty. */
Test(limits, line_len_stops_at_either_line_end)
{
	static const char buf[] = "ab\ncd\r\nef\rgh";
	size_t len = sizeof(buf) - 1;

	cr_assert_eq(smp__line_len(buf, len, 0), 2);
	cr_assert_eq(smp__line_len(buf, len, 1), 1);
	cr_assert_eq(smp__line_len(buf, len, 2), 0);
	cr_assert_eq(smp__line_len(buf, len, 3), 2);
	cr_assert_eq(smp__line_len(buf, len, 7), 2);
	cr_assert_eq(smp__line_len(buf, len, 10), 2);
	cr_assert_eq(smp__line_len(buf, len, len), 0);
	cr_assert_eq(smp__line_len(buf, len, len + 5), 0);
	cr_assert_eq(smp__line_len(buf, 5, 3), 2, "the length bounds it");
}

Test(limits, line_index_is_built_after_a_few_lookups)
{
	struct smp_allocator a;
	struct text t = {NULL, 0, 0};
	struct smp_lines l;
	unsigned i;

	smp__allocator_resolve(&a, NULL);
	for (i = 0; i < 5000; i++)
		text_add(&t, "x: 1\n");
	smp__lines_init(&l, t.s, t.len);
	for (i = 1; i <= SMP_LINES_SCANS; i++)
		cr_assert_eq(smp__lines_start(&l, &a, i), (i - 1) * 5);
	cr_assert_null(l.start, "a few lookups scan");
	for (i = 1; i <= 5001; i++)
		cr_assert_eq(smp__lines_start(&l, &a, i), (i - 1) * 5);
	cr_assert_not_null(l.start, "then the index is built once");
	cr_assert_eq(l.count, 5001);
	smp__lines_release(&l, &a);
	free(t.s);
}

Test(limits, many_findings_one_per_line_keep_their_lines)
{
	struct smp_context *ctx = th_context(NULL);
	struct text t = {NULL, 0, 0};
	struct smp_report *rep = NULL;
	char line[64];
	size_t i;
	int rc;

	text_add(&t, "{\"AlgorithmSpecification\": {\"TrainingImage\": \"x\", "
		     "\"TrainingInputMode\": \"File\"}");
	for (i = 0; i < 3000; i++) {
		snprintf(line, sizeof(line), ",\n\"Unknown%zu\": 1", i);
		text_add(&t, line);
	}
	text_add(&t, "\n}\n");
	rc = smp_check_buffer(&rep, ctx, "lines.json", t.s, t.len, NULL);
	cr_assert_eq(rc, 0);
	cr_assert_not_null(more_finding(rep));
	for (i = 0; i < smp_report_count(rep); i++) {
		const struct smp_finding *f = smp_report_get(rep, i);

		if (strcmp(f->rule, "unknown-key") != 0)
			continue;
		snprintf(line, sizeof(line), "\"Unknown%u\": 1", f->line - 2);
		cr_assert(strncmp(f->source_line, line, strlen(line)) == 0,
			  "line %u: %s", f->line, f->source_line);
	}
	smp_report_free(rep);
	free(t.s);
	smp_context_free(ctx);
}

Test(limits, script_past_the_scanner_limit_says_so)
{
	struct smp_context *ctx = th_context(NULL);
	const struct smp_finding *f;
	struct smp_report *rep = NULL;
	struct smp_error err = {0};
	char dir[] = "/tmp/smp-limits-XXXXXX", path[128];
	FILE *fp;
	int i, rc;

	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/train.py", dir);
	fp = fopen(path, "w");
	cr_assert_not_null(fp);
	fputs("import torch\n", fp);
	for (i = 0; i < SMP_PYSCAN_MAX + 10; i++)
		fputs("f()\n", fp);
	fclose(fp);
	snprintf(path, sizeof(path), "%s/job.yaml", dir);
	fp = fopen(path, "w");
	cr_assert_not_null(fp);
	fputs("estimator: HuggingFace\n"
	      "entry_point: train.py\n"
	      "instance_type: ml.p3.2xlarge\n"
	      "transformers_version: \"4.21.1\"\n"
	      "pytorch_version: \"1.11.0\"\n"
	      "py_version: py38\n"
	      "compiler_config: {enabled: true}\n",
	      fp);
	fclose(fp);
	rc = smp_check_file(&rep, ctx, path, &err);
	cr_assert_eq(rc, 0, "check: %s", err.message);
	f = th_find(rep, "input-limit");
	cr_assert_not_null(f, "the skipped script checks are reported");
	cr_assert_eq(f->severity, SMP_SEVERITY_INFO);
	cr_assert(strstr(f->message, "65536") != NULL, "%s", f->message);
	cr_assert(strstr(f->file, "train.py") != NULL, "%s", f->file);
	smp_report_free(rep);
	th_rm_tree(dir);
	smp_context_free(ctx);
}

/* smp_check_file() of text written to a new file named name. */
static struct smp_report *
check_written(struct smp_context *ctx, const char *name, const char *text,
	      char *dir)
{
	struct smp_report *rep = NULL;
	struct smp_error err;
	char path[128];
	FILE *fp;

	strcpy(dir, "/tmp/smp-limits-XXXXXX");
	cr_assert_not_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "w");
	cr_assert_not_null(fp);
	fputs(text, fp);
	fclose(fp);
	cr_assert_eq(smp_check_file(&rep, ctx, path, &err), 0, "check: %s",
		     err.message);
	return rep;
}

Test(limits, a_notebook_too_large_names_its_own_limit)
{
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_context *ctx;
	const struct smp_finding *f;
	struct smp_report *rep;
	char dir[32], text[2000];

	o.max_file_size = 100; /* a notebook may have 1,600 bytes */
	ctx = th_context(&o);
	memset(text, ' ', sizeof(text) - 1);
	text[0] = '{';
	text[sizeof(text) - 2] = '}';
	text[sizeof(text) - 1] = '\0';
	rep = check_written(ctx, "big.ipynb", text, dir);
	f = th_find(rep, "input-limit");
	cr_assert_not_null(f);
	cr_assert(strstr(f->message, "larger than the limit of 1600 bytes "
				     "for a notebook") != NULL,
		  "%s", f->message);
	smp_report_free(rep);
	th_rm_tree(dir);
	/* a spec keeps the plain limit */
	rep = check_written(ctx, "big.yaml", text, dir);
	f = th_find(rep, "input-limit");
	cr_assert_not_null(f);
	cr_assert(strstr(f->message, "limit of 100 bytes") != NULL, "%s",
		  f->message);
	cr_assert_null(strstr(f->message, "notebook"), "%s", f->message);
	smp_report_free(rep);
	th_rm_tree(dir);
	smp_context_free(ctx);
}
