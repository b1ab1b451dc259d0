/*
 * test_pymodel.c - the one Python source model: tokens with matched
 * brackets and compact positions, the statements (simple, headers,
 * decorators, bodies on the header's line, INDENT/DEDENT), the import
 * bindings of every import form, syntax errors, the token cap, and out
 * of memory at every allocation.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "failing_alloc.h"
#include "script/pymodel.h"
#include "smpreflight.h"

static struct smp_allocator alloc;
static struct smp_pymodel m;

static void
setup(void)
{
	smp__allocator_resolve(&alloc, NULL);
	memset(&m, 0, sizeof(m));
}

static void
teardown(void)
{
	smp__pymodel_release(&m);
}

TestSuite(pymodel, .init = setup, .fini = teardown);

static void
build(const char *src)
{
	smp__pymodel_release(&m);
	cr_assert_eq(smp__pymodel_build(&m, &alloc, src, strlen(src)), 0);
}

/* The text of token i as a NUL-terminated copy in buf. */
static const char *
text(size_t i, char *buf, size_t n)
{
	const struct smp_pytoken *t = smp__pym_tok(&m, i);
	size_t len = t->len < n - 1 ? t->len : n - 1;

	memcpy(buf, m.buf + t->off, len);
	buf[len] = '\0';
	return buf;
}

/* The index of the first token spelled s, or SIZE_MAX. */
static size_t
find(const char *s)
{
	size_t i;

	for (i = 0; i < m.ntoks; i++)
		if (m.toks[i].len == strlen(s) &&
		    memcmp(m.buf + m.toks[i].off, s, m.toks[i].len) == 0)
			return i;
	return (size_t)-1;
}

/* The binding of name (the newest), or NULL. */
static const struct smp_pybinding *
binding(const char *name)
{
	return smp__pym_binding(&m, name, strlen(name), (size_t)-1);
}

Test(pymodel, brackets_match_across_lines_and_comments_go)
{
	size_t open, close;
	char b[16];

	build("x = f(a, [1, {2: 3}],  # a comment\n"
	      "      b)\n");
	open = find("(");
	close = m.toks[open].match;
	cr_assert_str_eq(text(close, b, sizeof(b)), ")");
	cr_assert_eq(m.toks[close].match, open);
	cr_assert_eq(smp__pym_start(&m, close).line, 2);
	cr_assert_eq(m.toks[find("[")].match, find("]"));
	cr_assert_eq(m.toks[find("{")].match, find("}"));
	cr_assert_eq(m.comments, 1);
	cr_assert_eq(m.syntax, 0);
	/* one statement: the line continues inside the brackets */
	cr_assert_eq(m.nstmts, 1);
	/* a token past the end is the END token */
	cr_assert_eq(smp__pym_tok(&m, m.ntoks + 5)->kind, SMP_PYTOK_END);
}

Test(pymodel, positions_are_lines_columns_and_offsets)
{
	struct smp_pos s, e;
	size_t i;

	build("a = 1\n"
	      "name = \"h\xc3\xa9\" + x\n");
	i = find("x");
	s = smp__pym_start(&m, i);
	e = smp__pym_end(&m, i);
	cr_assert_eq(s.line, 2);
	cr_assert_eq(s.column, 15); /* code points: é is one column */
	cr_assert_eq(s.offset, strlen("a = 1\nname = \"h\xc3\xa9\" + "));
	cr_assert_eq(e.column, 16);
	cr_assert_eq(e.offset, s.offset + 1);
	cr_assert_eq(sizeof(struct smp_pytoken), 32);
}

Test(pymodel, statements_simple_header_decorator_and_blocks)
{
	const struct smp_pystmt *st;

	build("import os; x = 1\n"
	      "@decorate\n"
	      "def f(a, b=(1, 2)):\n"
	      "    y = a\n"
	      "    if y: z = 1; w = 2\n"
	      "v = lambda q: q\n"
	      "match = 3\n");
	cr_assert_eq(m.nstmts, 10);
	st = m.stmts;
	cr_assert_eq(st[0].kind, SMP_PYSTMT_SIMPLE);
	cr_assert(smp__pym_name(&m, st[0].first, "import"));
	cr_assert(smp__pym_op(&m, st[0].end, ";"));
	cr_assert_eq(st[1].same_line, 1); /* x = 1 after the ';' */
	cr_assert_eq(st[2].kind, SMP_PYSTMT_DECORATOR);
	cr_assert_eq(st[3].kind, SMP_PYSTMT_HEADER);
	/* the header's ':' is outside the parameters' brackets */
	cr_assert(smp__pym_op(&m, st[3].colon, ":"));
	cr_assert_eq(smp__pym_start(&m, st[3].colon).column, 19);
	cr_assert_eq(st[4].indent, 1);
	cr_assert_eq(st[5].kind, SMP_PYSTMT_HEADER);
	/* the body on the header's line: two statements */
	cr_assert_eq(st[6].same_line, 1);
	cr_assert_eq(st[7].same_line, 1);
	cr_assert_eq(st[8].dedents, 1);
	/* a lambda's ':' is no header; 'match' as a name is no header */
	cr_assert_eq(st[8].kind, SMP_PYSTMT_SIMPLE);
	cr_assert_eq(st[9].kind, SMP_PYSTMT_SIMPLE);
	cr_assert_eq(smp__pym_stmt_at(&m, st[5].first), 5);
	cr_assert_eq(smp__pym_stmt_at(&m, st[5].first + 1), m.nstmts);
}

Test(pymodel, soft_keyword_headers)
{
	build("match cmd:\n"
	      "    case 1:\n"
	      "        pass\n");
	cr_assert_eq(m.nstmts, 3);
	cr_assert_eq(m.stmts[0].kind, SMP_PYSTMT_HEADER);
	cr_assert_eq(m.stmts[1].kind, SMP_PYSTMT_HEADER);
	cr_assert_eq(m.stmts[2].kind, SMP_PYSTMT_SIMPLE);
}

Test(pymodel, import_bindings_of_every_form)
{
	const struct smp_pybinding *b;

	build("import torch_xla.core.xla_model as xm, os\n"
	      "import a.b.c\n"
	      "from sagemaker.huggingface import (HuggingFace,\n"
	      "    TrainingCompilerConfig as TCC)\n"
	      "from . import sibling\n"
	      "from ..pkg.mod import thing as t\n"
	      "from m import *\n");
	b = binding("xm");
	cr_assert_not_null(b);
	cr_assert_str_eq(b->target, "torch_xla.core.xla_model");
	cr_assert_eq(b->relative, 0);
	cr_assert_str_eq(binding("os")->target, "os");
	/* import a.b.c binds a, to a */
	cr_assert_str_eq(binding("a")->target, "a");
	cr_assert_null(binding("c"));
	cr_assert_str_eq(binding("HuggingFace")->target,
			 "sagemaker.huggingface.HuggingFace");
	b = binding("TCC");
	cr_assert_str_eq(b->target,
			 "sagemaker.huggingface.TrainingCompilerConfig");
	cr_assert_eq(smp__pym_start(&m, b->name_tok).line, 4);
	cr_assert_null(binding("TrainingCompilerConfig"));
	b = binding("sibling");
	cr_assert_str_eq(b->target, "..sibling");
	cr_assert_eq(b->relative, 1);
	cr_assert_str_eq(binding("t")->target, "..pkg.mod.thing");
	cr_assert_eq(binding("t")->relative, 1);
	/* a star import binds no name */
	cr_assert_eq(m.nbinds, 7);
	/* each statement knows its bindings */
	cr_assert_eq(m.stmts[0].nbind, 2);
	cr_assert_eq(m.stmts[2].bind, 3);
	cr_assert_eq(m.stmts[2].nbind, 2);
	cr_assert_eq(m.nstmts, 6);
	cr_assert_eq(m.stmts[5].nbind, 0);
}

Test(pymodel, binding_before_a_token_is_the_newest_before_it)
{
	const struct smp_pybinding *b;

	build("from x import Est\n"
	      "from sagemaker.estimator import Estimator as Est\n"
	      "y = Est\n");
	b = smp__pym_binding(&m, "Est", 3, find("y"));
	cr_assert_str_eq(b->target, "sagemaker.estimator.Estimator");
	b = smp__pym_binding(&m, "Est", 3, m.binds[1].name_tok);
	cr_assert_str_eq(b->target, "x.Est");
	cr_assert_null(smp__pym_binding(&m, "Est", 3, 0));
}

Test(pymodel, syntax_errors_as_cpython_reports_them)
{
	build("x = (1,\n");
	cr_assert_eq(m.syntax, 1);
	cr_assert_str_eq(m.err, "'(' was never closed");
	/* the model is complete anyway: the bracket closes at the end */
	cr_assert_eq(m.toks[find("(")].match, m.ntoks - 1);
	build("x = [1)\n");
	cr_assert_str_eq(m.err, "closing parenthesis ')' does not match "
				"opening parenthesis '['");
	build("x = 1)\n");
	cr_assert_str_eq(m.err, "unmatched ')'");
	build("s = 'abc\n");
	cr_assert_str_eq(m.err, "unterminated string literal");
	cr_assert_eq(m.bad_tokens, 1);
	build("x = 1 $ 2\n");
	cr_assert_str_eq(m.err, "invalid character in Python source");
	cr_assert_eq(m.err_at.column, 7);
	build("x = 1\n");
	cr_assert_eq(m.syntax, 0);
}

Test(pymodel, cut_after_the_token_cap)
{
	size_t n = SMP_PYMODEL_MAX_TOKENS + 100, k;
	char *src = malloc(n * 2 + 2);

	cr_assert_not_null(src);
	/* "[" then "1,1,1,...": a bracket left open by the cut */
	src[0] = '[';
	for (k = 0; k < n; k++) {
		src[1 + 2 * k] = '1';
		src[2 + 2 * k] = ',';
	}
	src[1 + 2 * n] = '\0';
	smp__pymodel_release(&m);
	cr_assert_eq(smp__pymodel_build(&m, &alloc, src, strlen(src)), 0);
	cr_assert_eq(m.cut, 1);
	cr_assert_eq(m.ntoks, SMP_PYMODEL_MAX_TOKENS);
	cr_assert_eq(m.toks[m.ntoks - 1].kind, SMP_PYTOK_END);
	cr_assert_gt(m.cut_at.offset, 0);
	/* the open bracket closes at the cut, and is no syntax error */
	cr_assert_eq(m.toks[0].match, m.ntoks - 1);
	cr_assert_eq(m.syntax, 0);
	free(src);
}

Test(pymodel, bad_arguments)
{
	cr_assert_eq(smp__pymodel_build(&m, NULL, "x", 1), SMP_EINVAL);
	/* NULL text is the empty source */
	cr_assert_eq(smp__pymodel_build(&m, &alloc, NULL, 5), 0);
	cr_assert_eq(smp__pym_tok(&m, 0)->kind, SMP_PYTOK_END);
	cr_assert_eq(m.nstmts, 0);
}

Test(pymodel, out_of_memory_at_every_allocation)
{
	static const char src[] = "import a.b as c\n"
				  "from d import (e, f as g)\n"
				  "x = [1, (2, {3: 4})]\n"
				  "def h(y):\n"
				  "    return y\n";
	long n;
	int done = 0;

	for (n = 0; !done && n < 1000; n++) {
		struct failing_alloc f;
		struct smp_allocator a;
		int rc;

		fa_init(&f, n);
		a = fa_allocator(&f);
		rc = smp__pymodel_build(&m, &a, src, strlen(src));
		if (f.failed) {
			cr_assert_eq(rc, SMP_ENOMEM, "call %ld", n);
		} else {
			cr_assert_eq(rc, 0);
			cr_assert_eq(m.nbinds, 3);
			done = 1;
		}
		smp__pymodel_release(&m);
		cr_assert_eq(f.live, 0, "call %ld leaks", n);
	}
	cr_assert(done);
}

/* Every operator and keyword carries its code; other names, and names
 * that only start like a keyword, carry none. */
Test(pymodel, operators_and_keywords_have_codes)
{
	static const char *const ops[] = {
		"(",  ")",  "[",  "]",  "{",   "}",   ":",   ",",   ";",  ".",
		"+",  "-",  "*",  "/",  "%",   "&",   "|",   "^",   "~",  "<",
		">",  "=",  "@",  "!",  "**",  "//",  ">>",  "<<",  "<=", ">=",
		"==", "!=", "->", "+=", "-=",  "*=",  "/=",  "%=",  "&=", "|=",
		"^=", "@=", ":=", "<>", "**=", "//=", ">>=", "<<=", "..."};
	char src[64];
	size_t k;

	cr_assert_eq(sizeof(ops) / sizeof(ops[0]) + 1, SMP_PYOP_COUNT);
	for (k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
		snprintf(src, sizeof(src), "x %s y\n", ops[k]);
		build(src);
		cr_expect_eq(smp__pym_opcode(&m, 1), k + 1, "%s", ops[k]);
		cr_expect_str_eq(smp__pyop_spelling(smp__pym_opcode(&m, 1)),
				 ops[k]);
		cr_expect_eq(smp__pym_opcode(&m, 0), SMP_PYOP_NONE);
	}
	build("if not x in y and z is None or True: lambda: yield\n"
	      "iff nott None_ Trueish trUe _if \xc3\xa9 match case\n");
	cr_expect_eq(smp__pym_kw(&m, 0), SMP_PYKW_IF);
	cr_expect_eq(smp__pym_kw(&m, 1), SMP_PYKW_NOT);
	cr_expect_eq(smp__pym_kw(&m, 2), SMP_PYKW_NONE);
	cr_expect_eq(smp__pym_kw(&m, 3), SMP_PYKW_IN);
	cr_expect_eq(smp__pym_kw(&m, 5), SMP_PYKW_AND);
	cr_expect_eq(smp__pym_kw(&m, 7), SMP_PYKW_IS);
	cr_expect_eq(smp__pym_kw(&m, 8), SMP_PYKW_NONE_CONST);
	cr_expect_eq(smp__pym_kw(&m, 9), SMP_PYKW_OR);
	cr_expect_eq(smp__pym_kw(&m, 10), SMP_PYKW_TRUE);
	cr_expect_eq(smp__pym_opcode(&m, 11), SMP_PYOP_COLON);
	cr_expect_eq(smp__pym_kw(&m, 11), SMP_PYKW_NONE);
	cr_expect_eq(smp__pym_kw(&m, 12), SMP_PYKW_LAMBDA);
	cr_expect_eq(smp__pym_kw(&m, 14), SMP_PYKW_YIELD);
	for (k = 16; k < 23; k++)
		cr_expect_eq(smp__pym_kw(&m, k), SMP_PYKW_NONE, "token %zu", k);
	cr_expect_eq(smp__pym_kw(&m, 23), SMP_PYKW_MATCH);
	cr_expect_eq(smp__pym_kw(&m, 24), SMP_PYKW_CASE);
	/* a string's or number's text is no keyword */
	build("'if' 1\n");
	cr_expect_eq(smp__pym_kw(&m, 0), SMP_PYKW_NONE);
	cr_expect_eq(m.toks[0].code, 0);
	cr_expect_eq(m.toks[1].code, 0);
}
