/* test_load.c - the loaders' entry: limits, BOM, UTF-8, size, dispatch */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "doc/load.h"
#include "rules/check.h"

/* Counts live blocks so that every test also checks for leaks. */
static void *
l_malloc(void *ud, size_t size)
{
	void *p = malloc(size);

	if (p)
		++*(size_t *)ud;
	return p;
}

static void *
l_realloc(void *ud, void *ptr, size_t size)
{
	void *p = realloc(ptr, size);

	if (p && !ptr)
		++*(size_t *)ud;
	return p;
}

static void
l_free(void *ud, void *ptr)
{
	if (ptr)
		--*(size_t *)ud;
	free(ptr);
}

struct run {
	size_t live;
	struct smp_allocator alloc;
	struct smp_docs docs;
	struct smp_report *rep;
	int rc;
};

static void
run_load(struct run *r, const char *name, const char *buf, size_t len,
	 const struct smp_limits *lim)
{
	memset(r, 0, sizeof(*r));
	r->alloc.malloc_fn = l_malloc;
	r->alloc.realloc_fn = l_realloc;
	r->alloc.free_fn = l_free;
	r->alloc.ud = &r->live;
	smp__docs_init(&r->docs, &r->alloc);
	cr_assert_eq(
		smp__report_new(&r->rep, &r->alloc, name ? name : "-", NULL),
		0);
	r->rep->buf = buf;
	r->rep->len = len;
	r->rc = smp__load(&r->docs, name, buf, len, lim);
	if (r->rc == 0)
		r->rc = smp__rules_input(r->rep, &r->docs);
}

static void
run_done(struct run *r)
{
	smp__docs_release(&r->docs);
	smp_report_free(r->rep);
	cr_expect_eq(r->live, 0, "%zu blocks leaked", r->live);
}

/* The one finding of the run, checked against rule, position and text. */
static void
expect_one(const struct run *r, const char *rule, unsigned line, unsigned col,
	   const char *msg)
{
	const struct smp_finding *f;

	cr_assert_eq(smp_report_count(r->rep), 1, "%zu findings",
		     smp_report_count(r->rep));
	f = smp_report_get(r->rep, 0);
	cr_expect_str_eq(f->rule, rule);
	cr_expect_eq(f->line, line, "line %u", f->line);
	cr_expect_eq(f->column, col, "column %u", f->column);
	cr_expect_str_eq(f->message, msg);
}

Test(load, limits_resolve_defaults)
{
	struct smp_limits in = {0, 7, 0, 9, 0}, out;

	smp__limits_resolve(&out, NULL);
	cr_expect_eq(out.max_file_size, 4u << 20);
	cr_expect_eq(out.max_depth, 64);
	cr_expect_eq(out.max_nodes, 100000);
	cr_expect_eq(out.max_scalar_len, 64u << 10);
	cr_expect_eq(out.max_documents, 1000);
	smp__limits_resolve(&out, &in);
	cr_expect_eq(out.max_file_size, 4u << 20);
	cr_expect_eq(out.max_depth, 7);
	cr_expect_eq(out.max_nodes, 100000);
	cr_expect_eq(out.max_scalar_len, 9);
	cr_expect_eq(out.max_documents, 1000);
	/* in and out may be the same struct */
	smp__limits_resolve(&in, &in);
	cr_expect_eq(in.max_nodes, 100000);
	cr_expect_eq(in.max_depth, 7);
}

Test(load, file_size_limit)
{
	struct smp_limits lim = {10, 0, 0, 0, 0};
	struct run r;

	run_load(&r, "big.json", "[1,2,3,4,5]", 11, &lim);
	cr_expect_eq(r.rc, 0);
	cr_expect_eq(r.docs.count, 0);
	expect_one(&r, "input-limit", 1, 1,
		   "file is 11 bytes, larger than the limit of 10 bytes");
	run_done(&r);

	run_load(&r, "ok.json", "[1,2,3,45]", 10, &lim);
	cr_expect_eq(r.docs.count, 1);
	cr_expect_eq(smp_report_count(r.rep), 0);
	run_done(&r);
}

Test(load, invalid_utf8_position)
{
	const char *in = "{\n  \"a\": \"\xff\"\n}";
	const char *later = "a: \xc3\xa9 \xc3\xa9\xc0";
	const char *bom = "\xef\xbb\xbf[\"\xfe\"]";
	struct run r;

	run_load(&r, "x.json", in, strlen(in), NULL);
	cr_expect_eq(r.rc, 0);
	cr_expect_eq(r.docs.count, 0);
	expect_one(&r, "input-limit", 2, 9,
		   "invalid UTF-8 byte 0xff at offset 10; specs must be UTF-8");
	cr_expect_str_eq(smp_report_get(r.rep, 0)->source_line,
			 "  \"a\": \"\xff\"");
	run_done(&r);

	/* columns count code points, so the two "é" are one column each */
	run_load(&r, "x.yaml", later, strlen(later), NULL);
	cr_expect_eq(r.docs.count, 0);
	expect_one(&r, "input-limit", 1, 7,
		   "invalid UTF-8 byte 0xc0 at offset 8; specs must be UTF-8");
	run_done(&r);

	/* the BOM is in the offset but is not a column */
	run_load(&r, "x.json", bom, strlen(bom), NULL);
	expect_one(&r, "input-limit", 1, 3,
		   "invalid UTF-8 byte 0xfe at offset 5; specs must be UTF-8");
	run_done(&r);

	/* UTF-16 is refused at its first byte */
	run_load(&r, NULL, "\xff\xfe{\0}\0", 6, NULL);
	expect_one(&r, "input-limit", 1, 1,
		   "invalid UTF-8 byte 0xff at offset 0; specs must be UTF-8");
	run_done(&r);
}

Test(load, bom_is_skipped_and_positions_stay)
{
	const char *json = "\xef\xbb\xbf{\"a\": [1,]}";
	const char *sniffed = "\xef\xbb\xbf\n  [1, 2]";
	const char *yaml = "\xef\xbb\xbf"
			   "a: 1\n";
	const struct smp_finding *f;
	const struct smp_node *root;
	struct run r;

	run_load(&r, "x.json", json, strlen(json), NULL);
	cr_expect_eq(r.docs.count, 0);
	expect_one(&r, "syntax", 1, 10,
		   "expected a JSON value after ',', found ']'; trailing "
		   "commas are not allowed");
	f = smp_report_get(r.rep, 0);
	cr_expect_eq(f->end_column, 11);
	run_done(&r);

	/* the BOM does not hide the '[' from the sniffing */
	run_load(&r, "-", sniffed, strlen(sniffed), NULL);
	cr_expect(r.docs.is_json);
	cr_assert_eq(r.docs.count, 1);
	root = r.docs.items[0].root;
	cr_expect_eq(root->kind, SMP_NODE_SEQUENCE);
	cr_expect_eq(root->start.line, 2);
	cr_expect_eq(root->start.column, 3);
	cr_expect_eq(root->start.offset, 6);
	run_done(&r);

	run_load(&r, "x.yaml", yaml, strlen(yaml), NULL);
	cr_expect(!r.docs.is_json);
	cr_expect_eq(smp_report_count(r.rep), 0);
	cr_assert_eq(r.docs.count, 1);
	root = r.docs.items[0].root;
	cr_assert(root);
	cr_expect_eq(root->kind, SMP_NODE_MAPPING);
	cr_expect_eq(root->start.line, 1);
	cr_expect_eq(root->start.column, 1);
	cr_expect_eq(root->start.offset, 3);
	run_done(&r);
}

Test(load, dispatch_by_name_and_first_byte)
{
	static const struct {
		const char *name;
		const char *in;
		int json;
	} cases[] = {
		{"job.json", "a: 1\n", 1},     /* the name wins: a JSON error */
		{"JOB.JSON", "{\"a\": 1}", 1}, /* case-insensitive */
		{"job.yaml", "a: 1\n", 0},     /* plain YAML */
		{"job.yml", "{a: 1}", 0},      /* a YAML flow mapping */
		{"-", " \n\t{\"a\": 1}", 1},   /* sniffed: first non-blank */
		{"<stdin>", "[1, 2]", 1},      /* sniffed */
		{"spec", "# c\n{\"a\": 1}", 0}, /* '#' first: YAML */
		{NULL, "a: [1]", 0},            /* no name */
		{"job.json.bak", "a: 1", 0},    /* suffix must be last */
		{"x.jsonl", "a: 1", 0},         /* not ".json" */
		{"empty", "", 0},               /* nothing: YAML, empty */
	};
	size_t k;

	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct run r;

		run_load(&r, cases[k].name, cases[k].in, strlen(cases[k].in),
			 NULL);
		cr_expect_eq(r.rc, 0, "rc for case %zu", k);
		cr_expect_eq(r.docs.is_json, cases[k].json, "loader for %s",
			     cases[k].name ? cases[k].name : "(null)");
		run_done(&r);
	}
}

Test(load, json_name_reports_json_errors)
{
	struct run r;

	run_load(&r, "job.json", "estimator: PyTorch\n", 19, NULL);
	cr_expect_eq(r.docs.count, 0);
	expect_one(&r, "syntax", 1, 1,
		   "expected a JSON value, found 'estimator'");
	run_done(&r);

	run_load(&r, "job.yml", "{estimator: PyTorch}", 20, NULL);
	cr_expect_eq(smp_report_count(r.rep), 0);
	cr_expect_eq(r.docs.count, 1);
	run_done(&r);
}
