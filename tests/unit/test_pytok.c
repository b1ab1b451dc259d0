/*
 * test_pytok.c - the Python tokenizer: every string prefix and quoting,
 * f-strings with nested quotes, comments, continuations, indentation,
 * positions in code points, and bad input that must end cleanly.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "script/pytok.h"
#include "util/text.h"

/* One letter per token kind, for compact expectations. */
static char
letter(enum smp_pytok_kind k)
{
	switch (k) {
	case SMP_PYTOK_NAME:
		return 'N';
	case SMP_PYTOK_NUMBER:
		return '1';
	case SMP_PYTOK_STRING:
		return 'S';
	case SMP_PYTOK_OP:
		return 'O';
	case SMP_PYTOK_COMMENT:
		return 'C';
	case SMP_PYTOK_NEWLINE:
		return 'L';
	case SMP_PYTOK_INDENT:
		return '>';
	case SMP_PYTOK_DEDENT:
		return '<';
	case SMP_PYTOK_ERROR:
		return 'E';
	default:
		return '.';
	}
}

/* The kinds of all tokens of src, up to END: "NOSL". */
static char kinds_buf[4096];

static const char *
kinds(const char *src)
{
	struct smp_pytok_state s;
	struct smp_pytok t;
	size_t n = 0;

	smp__pytok_init(&s, src, strlen(src));
	for (;;) {
		smp__pytok_next(&s, &t);
		if (t.kind == SMP_PYTOK_END || n + 1 >= sizeof(kinds_buf))
			break;
		kinds_buf[n++] = letter(t.kind);
	}
	kinds_buf[n] = '\0';
	return kinds_buf;
}

/* The i-th token (0-based, END counts) of src[0..len). */
static struct smp_pytok
nth_len(const char *src, size_t len, size_t i)
{
	struct smp_pytok_state s;
	struct smp_pytok t;

	smp__pytok_init(&s, src, len);
	do
		smp__pytok_next(&s, &t);
	while (i-- > 0 && t.kind != SMP_PYTOK_END);
	return t;
}

static struct smp_pytok
nth(const char *src, size_t i)
{
	return nth_len(src, strlen(src), i);
}

/* Text of token t of src, in a static buffer. */
static char text_buf[1024];

static const char *
text(const char *src, const struct smp_pytok *t)
{
	size_t n =
		t->len < sizeof(text_buf) - 1 ? t->len : sizeof(text_buf) - 1;

	memcpy(text_buf, src + t->off, n);
	text_buf[n] = '\0';
	return text_buf;
}

Test(pytok, simple_statement)
{
	cr_assert_str_eq(kinds("x = 1\n"), "NO1L");
	cr_assert_str_eq(kinds("print(a.b, c=2)"), "NONONONO1OL");
}

Test(pytok, every_string_prefix_in_any_case)
{
	static const char *const prefixes[] = {
		"",   "r",  "R",  "b",  "B",  "u",  "U",  "f",  "F",
		"rb", "Rb", "rB", "RB", "br", "Br", "bR", "BR", "fr",
		"Fr", "fR", "FR", "rf", "Rf", "rF", "RF"};
	static const char *const quotes[] = {"'", "\"", "'''", "\"\"\""};
	char src[64];
	size_t i, q;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		for (q = 0; q < 4; q++) {
			struct smp_pytok t;

			snprintf(src, sizeof(src), "x = %s%sa.item()%s # c\n",
				 prefixes[i], quotes[q], quotes[q]);
			cr_assert_str_eq(kinds(src), "NOSCL", "%s", src);
			t = nth(src, 2);
			cr_assert_eq(t.len,
				     strlen(prefixes[i]) +
					     2 * strlen(quotes[q]) + 8,
				     "%s", src);
			cr_assert_eq(!!(t.flags & SMP_PYSTR_TRIPLE),
				     strlen(quotes[q]) == 3, "%s", src);
			cr_assert_eq(!!(t.flags & SMP_PYSTR_RAW),
				     strpbrk(prefixes[i], "rR") != NULL);
			cr_assert_eq(!!(t.flags & SMP_PYSTR_BYTES),
				     strpbrk(prefixes[i], "bB") != NULL);
			cr_assert_eq(!!(t.flags & SMP_PYSTR_FORMAT),
				     strpbrk(prefixes[i], "fF") != NULL);
			cr_assert_eq(t.flags & SMP_PYSTR_UNTERMINATED, 0);
		}
	}
}

Test(pytok, names_that_are_no_prefix)
{
	/* "ub", "bf", "rr" and longer names are names before a string */
	cr_assert_str_eq(kinds("ub'x'"), "NSL");
	cr_assert_str_eq(kinds("bf'x'"), "NSL");
	cr_assert_str_eq(kinds("rr'x'"), "NSL");
	cr_assert_str_eq(kinds("item'x'"), "NSL");
	cr_assert_str_eq(kinds("f 'x'"), "NSL");
}

Test(pytok, escapes_and_raw_strings)
{
	struct smp_pytok t = nth("s = 'it\\'s' + x", 2);

	cr_assert_eq(t.len, 7);
	cr_assert_str_eq(kinds("s = 'it\\'s' + x"), "NOSONL");
	/* a raw string still cannot end on an escaped quote */
	t = nth("r'\\'' + y", 0);
	cr_assert_eq(t.len, 5);
	cr_assert_str_eq(kinds("r'\\\\' + y"), "SONL");
	/* a backslash-newline continues a one-line string */
	cr_assert_str_eq(kinds("'a\\\nb' + c\n"), "SONL");
}

Test(pytok, triple_quoted_strings_span_lines)
{
	const char *src = "x = '''one\n\"two\" 'three'\n''' ; y\n";
	struct smp_pytok t = nth(src, 2);

	cr_assert_str_eq(kinds(src), "NOSONL");
	cr_assert_eq(t.start.line, 1);
	cr_assert_eq(t.end.line, 3);
	cr_assert_eq(t.end.column, 4);
	/* the quote run of an empty string is not a triple quote */
	cr_assert_str_eq(kinds("a = '' + \"\"\n"), "NOSOSL");
	cr_assert_str_eq(kinds("'''a''''b'"), "SSL");
}

Test(pytok, fstring_is_one_token_with_nested_quotes)
{
	/* Python 3.12 nesting, dict access, format specs, conversions */
	const char *src = "m = f\"{d[\"k\"]:>{w}} {x!r} {'}'} {{lit}}\" + z\n";
	struct smp_pytok t = nth(src, 2);

	cr_assert_str_eq(kinds(src), "NOSONL");
	cr_assert_str_eq(text(src, &t),
			 "f\"{d[\"k\"]:>{w}} {x!r} {'}'} {{lit}}\"");
	/* a '#' in a format spec is no comment */
	cr_assert_str_eq(kinds("f'{x:#x}' + y\n"), "SONL");
	/* nested f-strings */
	cr_assert_str_eq(kinds("f'{f\"{a}\" + f\"{b!s}\"}' + c\n"), "SONL");
	/* a triple-quoted f-string field across lines */
	cr_assert_str_eq(kinds("f'''{\n  a\n}''' + b\n"), "SONL");
	/* a lambda and a walrus inside brackets keep their ':' */
	cr_assert_str_eq(kinds("f'{(lambda: 1)()} {(n:=2)} {a[1:2]}'\n"), "SL");
}

Test(pytok, comments_and_blank_lines)
{
	cr_assert_str_eq(kinds("# only\n\n   # indented comment\nx\n"), "CCNL");
	cr_assert_str_eq(kinds("x  # c 'not a string'\n"), "NCL");
	/* comments and blank lines do not change the indentation */
	cr_assert_str_eq(kinds("if a:\n    b\n# c\n\n    c\nd\n"),
			 "NNOL>NLCNL<NL");
}

Test(pytok, explicit_and_implicit_continuation)
{
	cr_assert_str_eq(kinds("x = 1 + \\\n    2\ny\n"), "NO1O1LNL");
	cr_assert_str_eq(kinds("x = (1,\n     2,\n\n  3)\ny\n"),
			 "NOO1O1O1OLNL");
	cr_assert_str_eq(kinds("d = {\n  'a': [1,\n 2]}\n"), "NOOSOO1O1OOL");
	/* a backslash not before a newline is an error token */
	cr_assert_str_eq(kinds("a \\ b\n"), "NENL");
	/* a backslash at the very end */
	cr_assert_str_eq(kinds("a\\"), "NL");
}

Test(pytok, indent_and_dedent)
{
	const char *src = "def f(x):\n"
			  "    for i in x:\n"
			  "        g(i)\n"
			  "    return x\n"
			  "h()\n";

	cr_assert_str_eq(kinds(src), "NNONOOL>NNNNOL>NONOL<NNL<NOOL");
	/* dedents are emitted at the end of input */
	cr_assert_str_eq(kinds("if a:\n  if b:\n    c"), "NNOL>NNOL>NL<<");
	/* tabs count to the next multiple of eight */
	cr_assert_str_eq(kinds("if a:\n\tb\n        c\n"), "NNOL>NLNL<");
}

Test(pytok, positions_count_code_points_and_tabs_as_one)
{
	const char *src = "s = \"h\xc3\xa9llo\" # \xe2\x82\xac\n\tx = 1\n";
	struct smp_pytok t;

	t = nth(src, 3); /* the comment */
	cr_assert_eq(t.kind, SMP_PYTOK_COMMENT);
	cr_assert_eq(t.start.line, 1);
	cr_assert_eq(t.start.column, 13);
	t = nth(src, 6); /* x after INDENT */
	cr_assert_eq(t.kind, SMP_PYTOK_NAME);
	cr_assert_eq(t.start.line, 2);
	cr_assert_eq(t.start.column, 2);
}

Test(pytok, line_endings_lf_crlf_cr)
{
	const char *src = "a = 1\r\nb = 2\rc = 3\n";
	struct smp_pytok t;

	cr_assert_str_eq(kinds(src), "NO1LNO1LNO1L");
	t = nth(src, 3);
	cr_assert_eq(t.kind, SMP_PYTOK_NEWLINE);
	cr_assert_eq(t.len, 2);
	t = nth(src, 8);
	cr_assert_eq(t.start.line, 3);
	cr_assert_eq(t.start.column, 1);
}

Test(pytok, positions_agree_with_text_c)
{
	const char *src =
		"# \xc3\xa9\r\nif x:\r\n\t\ty = f'{a}\xe2\x82\xac' \\\r\n"
		"  + '''\n\xf0\x9f\x98\x80'''\rz\n";
	struct smp_pytok_state s;
	struct smp_pytok t;
	size_t len = strlen(src);

	smp__pytok_init(&s, src, len);
	do {
		struct smp_pos a, b;

		smp__pytok_next(&s, &t);
		a = smp__pos_at(src, len, t.off);
		b = smp__pos_at(src, len, t.off + t.len);
		cr_assert_eq(t.start.line, a.line, "token at %zu", t.off);
		cr_assert_eq(t.start.column, a.column, "token at %zu", t.off);
		cr_assert_eq(t.end.line, b.line, "token at %zu", t.off);
		cr_assert_eq(t.end.column, b.column, "token at %zu", t.off);
	} while (t.kind != SMP_PYTOK_END);
}

Test(pytok, numbers_and_operators)
{
	cr_assert_str_eq(kinds("x = 0x1F + 1_000 + 1.5e-3 + .5j - 3e+2\n"),
			 "NO1O1O1O1O1L");
	cr_assert_str_eq(kinds("a **= b // c -> d := e != f ... g\n"),
			 "NONONONONONONL");
	cr_assert_eq(nth("a **= b", 1).len, 3);
	cr_assert_eq(nth("a == b", 1).len, 2);
	cr_assert_eq(nth("a = = b", 1).len, 1);
	/* characters Python does not know are error tokens */
	cr_assert_str_eq(kinds("a $ b ? c `d`\n"), "NENENENEL");
}

Test(pytok, unterminated_strings_end_at_their_line_or_eof)
{
	struct smp_pytok t;

	cr_assert_str_eq(kinds("x = 'abc\ny = 1\n"), "NOSLNO1L");
	t = nth("x = 'abc\ny = 1\n", 2);
	cr_assert(t.flags & SMP_PYSTR_UNTERMINATED);
	cr_assert_eq(t.len, 4);
	t = nth("s = '''never closed\nat all", 2);
	cr_assert(t.flags & SMP_PYSTR_UNTERMINATED);
	cr_assert_eq(t.off + t.len, strlen("s = '''never closed\nat all"));
	/* an f-string field that never closes ends at the line too */
	cr_assert_str_eq(kinds("f'{a\nb\n"), "SLNL");
	cr_assert_str_eq(kinds("'"), "SL");
	cr_assert_str_eq(kinds("f\""), "SL");
}

Test(pytok, invalid_utf8_and_nul_bytes)
{
	const char src[] = "a\xff\xfe = '\x80' \0 b\n\xc3";
	struct smp_pytok_state s;
	struct smp_pytok t;
	size_t n = 0;

	smp__pytok_init(&s, src, sizeof(src) - 1);
	do {
		smp__pytok_next(&s, &t);
		cr_assert(t.off + t.len <= sizeof(src) - 1);
		n++;
	} while (t.kind != SMP_PYTOK_END && n < 100);
	cr_assert_eq(t.kind, SMP_PYTOK_END);
	cr_assert_eq(nth_len(src, sizeof(src) - 1, 0).len, 3);
	cr_assert_eq(nth_len(src, sizeof(src) - 1, 3).kind, SMP_PYTOK_ERROR);
}

Test(pytok, ten_thousand_nested_brackets)
{
	size_t n = 10000, i, count = 0;
	char *src = malloc(2 * n + 2);
	struct smp_pytok_state s;
	struct smp_pytok t;

	cr_assert_not_null(src);
	for (i = 0; i < n; i++) {
		src[i] = "([{"[i % 3];
		src[2 * n - 1 - i] = ")]}"[i % 3];
	}
	src[2 * n] = '\n';
	smp__pytok_init(&s, src, 2 * n + 1);
	do {
		smp__pytok_next(&s, &t);
		if (t.kind == SMP_PYTOK_OP && count == n)
			cr_assert_eq(t.depth, n - 1); /* the innermost closer */
		count++;
	} while (t.kind != SMP_PYTOK_END);
	cr_assert_eq(count, 2 * n + 2); /* brackets, NEWLINE, END */
	/* unbalanced closers never make the depth negative */
	cr_assert_str_eq(kinds(")))]]}\nx\n"), "OOOOOOLNL");
	free(src);
}

Test(pytok, deep_indentation_is_bounded_and_balanced)
{
	size_t levels = 150, i, j, len = 0, indents = 0, dedents = 0;
	char *src = malloc(levels * (levels + 8));
	struct smp_pytok_state s;
	struct smp_pytok t;

	cr_assert_not_null(src);
	for (i = 0; i < levels; i++) {
		for (j = 0; j < i; j++)
			src[len++] = ' ';
		memcpy(src + len, "if a:\n", 6);
		len += 6;
	}
	smp__pytok_init(&s, src, len);
	do {
		smp__pytok_next(&s, &t);
		indents += t.kind == SMP_PYTOK_INDENT;
		dedents += t.kind == SMP_PYTOK_DEDENT;
	} while (t.kind != SMP_PYTOK_END);
	cr_assert_eq(indents, SMP_PYTOK_MAX_INDENT);
	cr_assert_eq(dedents, indents);
	free(src);
}

Test(pytok, random_bytes_always_end)
{
	static const char steer[] =
		"'\"\\{}()[]#\n\r\t fFrRbB:=.0x\xc3\xa9\xff";
	unsigned int seed = 12345;
	char buf[512];
	int round;

	for (round = 0; round < 2000; round++) {
		struct smp_pytok_state s;
		struct smp_pytok t;
		size_t len = (size_t)(round % 200) + 1, i, n = 0, last = 0;

		for (i = 0; i < len; i++) {
			seed = seed * 1103515245u + 12345u;
			/* mostly the bytes that steer the tokenizer */
			buf[i] = steer[(seed >> 16) % (sizeof(steer) - 1)];
		}
		smp__pytok_init(&s, buf, len);
		do {
			smp__pytok_next(&s, &t);
			cr_assert(t.off >= last && t.off + t.len <= len);
			last = t.off;
			n++;
		} while (t.kind != SMP_PYTOK_END && n <= 4 * len + 210);
		cr_assert_eq(t.kind, SMP_PYTOK_END, "round %d", round);
	}
}

Test(pytok, string_body)
{
	const char *src =
		"(r'a\\b', \"\"\"x\"\"\", f'{y}', 'ok', b'\\x00', '''op";
	const char *body;
	size_t n;
	struct smp_pytok t;

	t = nth(src, 1);
	cr_assert_eq(smp__pystr_body(&t, src, &body, &n), 0); /* backslash */
	cr_assert_eq(n, 3);
	t = nth(src, 3);
	cr_assert_eq(smp__pystr_body(&t, src, &body, &n), 1);
	cr_assert_eq(n, 1);
	cr_assert_eq(body[0], 'x');
	t = nth(src, 5);
	cr_assert_eq(smp__pystr_body(&t, src, &body, &n), 0); /* f-string */
	cr_assert_eq(n, 3);
	t = nth(src, 7);
	cr_assert_eq(smp__pystr_body(&t, src, &body, &n), 1);
	cr_assert_eq(strncmp(body, "ok", n), 0);
	t = nth(src, 11);
	cr_assert(t.flags & SMP_PYSTR_UNTERMINATED);
	cr_assert_eq(smp__pystr_body(&t, src, &body, &n), 0);
	cr_assert_eq(n, 2);
	t = nth(src, 0);
	cr_assert_eq(smp__pystr_body(&t, src, &body, &n), 0); /* no string */
}

Test(pytok, restart_in_the_middle)
{
	const char *src = "x = 1\nos.environ['A'] = str(4)  # c\n";
	struct smp_pytok_state s;
	struct smp_pytok t = nth(src, 10); /* '=' of line 2 */
	struct smp_pos at;

	cr_assert(smp__pytok_is(&t, src, "="));
	t = nth(src, 11);
	at = t.start;
	smp__pytok_init_at(&s, src, strlen(src), &at);
	smp__pytok_next(&s, &t);
	cr_assert(smp__pytok_is(&t, src, "str"));
	cr_assert_eq(t.start.line, 2);
	cr_assert_eq(t.start.column, 19);
	smp__pytok_next(&s, &t);
	cr_assert(smp__pytok_is(&t, src, "("));
	smp__pytok_next(&s, &t);
	smp__pytok_next(&s, &t);
	smp__pytok_next(&s, &t);
	cr_assert_eq(t.kind, SMP_PYTOK_COMMENT);
	smp__pytok_next(&s, &t);
	cr_assert_eq(t.kind, SMP_PYTOK_NEWLINE);
}

/* A string that is no f-string: escaped quotes and line ends, a triple
 * quote's lone quotes and CRLF, code points and the end of the input. */
Test(pytok, plain_strings_end_where_python_ends_them)
{
	struct smp_pytok t;

	t = nth("s = 'a\\'b\\\nc\u00e9' + 1", 2);
	cr_assert_eq(t.kind, SMP_PYTOK_STRING);
	cr_assert_eq(t.flags, 0);
	cr_assert_eq(t.len, strlen("'a\\'b\\\nc\u00e9'"));
	cr_assert_eq(t.end.line, 2);
	cr_assert_eq(t.end.column, 4); /* c, the accent, the quote */
	t = nth("s = r\"\"\"a\"b\"\"\r\n\"\"\"", 2);
	cr_assert_eq(t.flags, SMP_PYSTR_RAW | SMP_PYSTR_TRIPLE);
	cr_assert_eq(t.off + t.len, strlen("s = r\"\"\"a\"b\"\"\r\n\"\"\""));
	cr_assert_eq(t.end.line, 2);
	cr_assert_eq(t.end.column, 4);
	t = nth("'x'", 0);
	cr_assert_eq(t.flags, 0);
	cr_assert_eq(t.len, 3);
	t = nth("'x\\", 0);
	cr_assert(t.flags & SMP_PYSTR_UNTERMINATED);
	cr_assert_eq(t.len, 3);
	t = nth("b'''x''", 0);
	cr_assert_eq(t.flags, SMP_PYSTR_BYTES | SMP_PYSTR_TRIPLE |
				      SMP_PYSTR_UNTERMINATED);
	cr_assert_eq(t.len, 7);
	cr_assert_str_eq(kinds("'a\r\nb'\n"), "SLSL");
}
