/*
 * test_notebook.c - the notebook loader (doc/notebook.h): code cells as
 * written with their places, the kernel's language, outputs and metadata
 * skipped without nodes, and what is wrong with a notebook as neutral
 * diagnostics: not JSON, no cells, a cell that is not an object, a
 * source line that is not a string, a NUL in a source.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "doc/notebook.h"
#include "failing_alloc.h"
#include "util/alloc.h"

static struct smp_allocator sys;
static struct smp_docs docs;
static struct smp_notebook nb;

static void
setup(void)
{
	smp__allocator_resolve(&sys, NULL);
	smp__docs_init(&docs, &sys);
}

static void
teardown(void)
{
	smp__docs_release(&docs);
}

TestSuite(notebook, .init = setup, .fini = teardown);

static void
load(const char *json)
{
	cr_assert_eq(smp__notebook_load(&nb, &docs, json, strlen(json), NULL),
		     0);
}

Test(notebook, code_cells_as_written_with_their_places)
{
	static const char j[] =
		"{\"cells\": [\n"
		" {\"cell_type\": \"markdown\", \"source\": [\"# x\"]},\n"
		" {\"cell_type\": \"code\", \"source\": [\"%env A=1\\n\",\n"
		"   \"b = 1\"]},\n"
		" {\"cell_type\": \"code\", \"source\": \"c = 2\\n\"}\n"
		"], \"nbformat\": 4}\n";

	load(j);
	cr_assert(nb.ok);
	cr_assert_eq(docs.ndiags, 0);
	cr_expect_str_eq(nb.code, "%env A=1\nb = 1\nc = 2\n");
	cr_assert_eq(nb.ncells, 2);
	cr_expect_eq(nb.cells[0].cell, 2);
	cr_expect_eq(nb.cells[0].from, 0);
	cr_expect_eq(nb.cells[0].to, 15);
	cr_expect_eq(nb.cells[1].cell, 3);
	cr_expect_eq(nb.cells[1].from, 15);
	cr_assert_eq(nb.nlines, 3);
	cr_expect_eq(nb.lines[1].line, 2);
	cr_expect_eq(nb.lines[1].json_line, 4);
	cr_expect_eq(nb.lines[1].json_column, 5);
	cr_expect_eq(memcmp(j + nb.lines[1].raw, "b = 1", 5), 0);
	cr_expect_eq(smp__notebook_cell_of(&nb, 3), &nb.cells[1]);
	cr_expect_null(smp__notebook_cell_of(&nb, 4));
	cr_expect_null(nb.language);
}

/* Runs of plain ASCII, escapes and non-ASCII characters mixed in one
 * source line: every line's start keeps its byte and column in the file. */
Test(notebook, escapes_and_unicode_keep_the_line_places)
{
	static const char j[] =
		"{\"cells\": [{\"cell_type\": \"code\", \"source\": "
		"[\"s = \\\"\u00e9\\t\\u00e9/\\/x\\\"\\n\", "
		"\"t = 1\\n\\nu = 2\"]}]}";

	load(j);
	cr_assert(nb.ok);
	cr_expect_str_eq(nb.code,
			 "s = \"\u00e9\t\u00e9//x\"\nt = 1\n\nu = 2\n");
	cr_assert_eq(nb.nlines, 4);
	cr_expect_eq(nb.lines[0].json_column, 46);
	cr_expect_eq(memcmp(j + nb.lines[0].raw, "s = ", 4), 0);
	cr_expect_eq(nb.lines[1].json_column, 73);
	cr_expect_eq(memcmp(j + nb.lines[1].raw, "t = 1", 5), 0);
	cr_expect_eq(nb.lines[2].json_column, 80);
	cr_expect_eq(memcmp(j + nb.lines[2].raw, "\\nu", 3), 0);
	cr_expect_eq(nb.lines[3].json_column, 82);
	cr_expect_eq(memcmp(j + nb.lines[3].raw, "u = 2", 5), 0);
}

Test(notebook, language_of_the_kernel)
{
	load("{\"metadata\": {\"kernelspec\": {\"name\": \"ir\", "
	     "\"language\": \"R\"}, \"language_info\": {\"version\": \"4\", "
	     "\"name\": \"R\"}}, \"cells\": [{\"cell_type\": \"code\", "
	     "\"source\": \"x <- 1\"}]}");
	cr_assert_str_eq(nb.language, "R");
	smp__docs_release(&docs);
	smp__docs_init(&docs, &sys);
	load("{\"metadata\": {\"kernelspec\": {\"language\": \"scala\"}}, "
	     "\"cells\": []}");
	cr_assert_str_eq(nb.language, "scala");
	smp__docs_release(&docs);
	smp__docs_init(&docs, &sys);
	load("{\"metadata\": {\"language_info\": {\"name\": \"python\"}, "
	     "\"kernelspec\": {\"language\": \"python3\"}}, \"cells\": []}");
	cr_assert_null(nb.language);
	cr_assert(nb.ok);
}

Test(notebook, outputs_and_metadata_build_no_nodes)
{
	static const char j[] =
		"{\"metadata\": {\"widgets\": {\"state\": [1, 2, 3, 4, 5, 6, "
		"7, 8]}},\n \"cells\": [{\"cell_type\": \"code\", "
		"\"metadata\": {\"tags\": [\"a\", \"b\", \"c\"]},\n"
		"  \"outputs\": [{\"text\": [\"x\", \"y\", \"z\"]}], "
		"\"source\": \"x = 1\\n\"}]}";
	struct smp_limits lim;

	memset(&lim, 0, sizeof(lim));
	/* the root, two keys and their values, the cell's five members:
	 * well under 20 nodes once the rest is skipped */
	lim.max_nodes = 20;
	cr_assert_eq(smp__notebook_load(&nb, &docs, j, strlen(j), &lim), 0);
	cr_assert_eq(docs.ndiags, 0);
	cr_assert(nb.ok);
	cr_expect_str_eq(nb.code, "x = 1\n");
}

Test(notebook, not_json_is_a_syntax_diagnostic)
{
	load("{\"cells\": [}");
	cr_assert_not(nb.ok);
	cr_assert_eq(docs.ndiags, 1);
	cr_expect_eq(docs.diags[0].kind, SMP_DIAG_SYNTAX);
}

Test(notebook, no_cells_is_a_wrong_type_diagnostic)
{
	load("{\"nbformat\": 4}");
	cr_assert_not(nb.ok);
	cr_assert_eq(docs.ndiags, 1);
	cr_expect_eq(docs.diags[0].kind, SMP_DIAG_WRONG_TYPE);
	cr_expect(strstr(docs.diags[0].message, "no list of 'cells'"));
}

Test(notebook, bad_cells_are_diagnostics_and_the_rest_is_read)
{
	static const char j[] =
		"{\"cells\": [7,\n"
		" {\"cell_type\": \"code\", \"source\": [\"a = 1\\n\", 2]},\n"
		" {\"cell_type\": \"code\", \"source\": "
		"\"t = 'ml.p3.8xlarge\\u0000evil'\"},\n"
		" {\"cell_type\": \"code\", \"source\": {\"x\": 1}},\n"
		" {\"cell_type\": \"code\", \"source\": \"ok = 1\"}]}";

	load(j);
	cr_assert(nb.ok);
	cr_expect_str_eq(nb.code, "ok = 1\n");
	cr_assert_eq(docs.ndiags, 4);
	cr_expect_eq(docs.diags[0].kind, SMP_DIAG_WRONG_TYPE);
	cr_expect(strstr(docs.diags[0].message, "cell 1 is a number"));
	cr_expect_eq(docs.diags[0].start.line, 1);
	cr_expect_eq(docs.diags[1].kind, SMP_DIAG_WRONG_TYPE);
	cr_expect(strstr(docs.diags[1].message, "line 2 of the 'source' of "
						"cell 2 is a number"));
	cr_expect_eq(docs.diags[1].start.line, 2);
	cr_expect_eq(docs.diags[2].kind, SMP_DIAG_SYNTAX);
	cr_expect(strstr(docs.diags[2].message, "NUL character"));
	cr_expect_eq(docs.diags[2].start.line, 3);
	cr_expect(strstr(docs.diags[3].message, "is an object"));
}

Test(notebook, invalid_utf8_is_a_limit_diagnostic)
{
	load("{\"cells\": [\"\xff\"]}");
	cr_assert_not(nb.ok);
	cr_assert_eq(docs.ndiags, 1);
	cr_expect_eq(docs.diags[0].kind, SMP_DIAG_LIMIT);
}

Test(notebook, code_over_the_file_limit_is_a_limit_diagnostic)
{
	static const char j[] = "{\"cells\": [{\"cell_type\": \"code\", "
				"\"source\": \"a = 1\"}, {\"cell_type\": "
				"\"code\", \"source\": \"b = 2\"}]}";
	struct smp_limits lim;

	memset(&lim, 0, sizeof(lim));
	lim.max_file_size = 8;
	cr_assert_eq(smp__notebook_load(&nb, &docs, j, strlen(j), &lim), 0);
	cr_assert_not(nb.ok);
	cr_assert_eq(docs.ndiags, 1);
	cr_expect_eq(docs.diags[0].kind, SMP_DIAG_LIMIT);
	cr_expect(strstr(docs.diags[0].message, "more than 8 bytes"));
}

Test(notebook, bad_arguments)
{
	cr_expect_eq(smp__notebook_load(NULL, &docs, "{}", 2, NULL),
		     SMP_EINVAL);
	cr_expect_eq(smp__notebook_load(&nb, NULL, "{}", 2, NULL), SMP_EINVAL);
	cr_expect_eq(smp__notebook_load(&nb, &docs, NULL, 2, NULL), SMP_EINVAL);
}

Test(notebook, every_allocation_failure_is_clean)
{
	static const char j[] =
		"{\"metadata\": {\"kernelspec\": {\"language\": \"R\"}}, "
		"\"cells\": [3, {\"cell_type\": \"code\", \"source\": "
		"[\"a = 1\\n\", \"b = 2\"]}]}";
	struct failing_alloc fa = FA_INIT;
	struct smp_allocator a = fa_allocator(&fa);
	long n;
	int rc = SMP_ENOMEM;

	for (n = 0; rc == SMP_ENOMEM; n++) {
		struct smp_docs d;

		fa_init(&fa, n);
		smp__docs_init(&d, &a);
		rc = smp__notebook_load(&nb, &d, j, strlen(j), NULL);
		cr_assert(rc == 0 || rc == SMP_ENOMEM, "n=%ld rc=%d", n, rc);
		smp__docs_release(&d);
		cr_assert_eq(fa.live, 0, "n=%ld leaked", n);
	}
	cr_expect_gt(n, 2);
}

Test(notebook, what_is_skipped_is_still_checked_as_json)
{
	load("{\"cells\": [{\"cell_type\": \"code\", \"source\": \"x = 1\",\n"
	     " \"outputs\": [{\"text\": [\"a\", tru]}]}]}");
	cr_assert_not(nb.ok);
	cr_assert_eq(docs.ndiags, 1);
	cr_expect_eq(docs.diags[0].kind, SMP_DIAG_SYNTAX);
	cr_expect_eq(docs.diags[0].start.line, 2);
}

Test(notebook, a_duplicate_key_names_its_cell)
{
	load("{\"cells\": [{\"cell_type\": \"code\", \"source\": \"\"},\n"
	     " {\"cell_type\": \"markdown\", \"source\": \"\"},\n"
	     " {\"cell_type\": \"code\", \"source\": \"a = 1\", \"source\": "
	     "\"b = 2\"}]}");
	cr_assert(nb.ok, "a duplicate key is reported, the notebook read");
	cr_assert_eq(docs.ndiags, 1);
	cr_expect_eq(docs.diags[0].kind, SMP_DIAG_DUPLICATE_KEY);
	cr_expect_str_eq(docs.diags[0].pointer, "/cells/2/source");
	cr_expect_str_eq(nb.code, "b = 2\n");
}
