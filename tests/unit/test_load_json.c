/* test_load_json.c - the strict JSON loader: errors, positions, limits */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "failing_alloc.h"
#include "doc/load.h"
#include "rules/check.h"

/* One load: its allocator, documents, report and status. */
struct run {
	struct failing_alloc count;
	struct smp_allocator alloc;
	struct smp_docs docs;
	struct smp_report *rep;
	int rc;
};

static void
run_init(struct run *r, long fail_at)
{
	memset(r, 0, sizeof(*r));
	fa_init(&r->count, fail_at);
	r->alloc = fa_allocator(&r->count);
	smp__docs_init(&r->docs, &r->alloc);
}

static void
run_json(struct run *r, const char *buf, size_t len,
	 const struct smp_limits *lim)
{
	run_init(r, FA_NEVER);
	cr_assert_eq(smp__report_new(&r->rep, &r->alloc, "x.json", NULL), 0);
	r->rep->buf = buf;
	r->rep->len = len;
	r->rc = smp__load_json(&r->docs, buf, len, lim);
	if (r->rc == 0)
		r->rc = smp__rules_input(r->rep, &r->docs);
}

/* Frees everything and checks that nothing is left allocated. */
static void
run_done(struct run *r)
{
	smp__docs_release(&r->docs);
	smp_report_free(r->rep);
	cr_expect_eq(r->count.live, 0, "%ld blocks leaked", r->count.live);
}

static const struct smp_node *
root_of(const struct run *r)
{
	cr_assert_eq(r->rc, 0);
	cr_assert_eq(r->docs.count, 1);
	return r->docs.items[0].root;
}

/* An input that must fail with one finding at line:col. */
struct bad {
	const char *in;
	size_t len; /* 0: strlen(in) */
	unsigned line, col;
	const char *msg;
};

static void
expect_bad(const struct bad *cases, size_t n, const char *rule,
	   const struct smp_limits *lim)
{
	size_t k;

	for (k = 0; k < n; k++) {
		const struct bad *c = &cases[k];
		size_t len = c->len ? c->len : strlen(c->in);
		const struct smp_finding *f;
		struct run r;

		run_json(&r, c->in, len, lim);
		cr_expect_eq(r.rc, 0, "rc for %s", c->in);
		cr_expect_eq(r.docs.count, 0, "document kept for %s", c->in);
		cr_expect(r.docs.is_json);
		cr_expect_eq(smp_report_count(r.rep), 1, "%zu findings for %s",
			     smp_report_count(r.rep), c->in);
		f = smp_report_get(r.rep, 0);
		if (f) {
			cr_expect_str_eq(f->rule, rule, "rule for %s", c->in);
			cr_expect_eq(f->line, c->line, "line for %s: %u", c->in,
				     f->line);
			cr_expect_eq(f->column, c->col, "column for %s: %u",
				     c->in, f->column);
			cr_expect_str_eq(f->message, c->msg, "message for %s",
					 c->in);
		}
		run_done(&r);
	}
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

Test(load_json, syntax_errors_structure)
{
	static const struct bad cases[] = {
		{"", 0, 1, 1, "unexpected end of input, expected a JSON value"},
		{"  \n ", 0, 2, 2,
		 "unexpected end of input, expected a JSON value"},
		{"[", 0, 1, 2,
		 "unexpected end of input inside an array (opened at line 1 "
		 "column 1)"},
		{"{\n  \"a\": [1,\n", 0, 3, 1,
		 "unexpected end of input inside an array (opened at line 2 "
		 "column 8)"},
		{"{", 0, 1, 2,
		 "unexpected end of input inside an object (opened at line 1 "
		 "column 1)"},
		{"{\"a\"", 0, 1, 5,
		 "unexpected end of input inside an object (opened at line 1 "
		 "column 1)"},
		{"{\"a\":", 0, 1, 6,
		 "unexpected end of input inside an object (opened at line 1 "
		 "column 1)"},
		{"[{\"a\":1", 0, 1, 8,
		 "unexpected end of input inside an object (opened at line 1 "
		 "column 2)"},
		{"[1,]", 0, 1, 4,
		 "expected a JSON value after ',', found ']'; trailing commas "
		 "are not allowed"},
		{"[ 1, ]", 0, 1, 6,
		 "expected a JSON value after ',', found ']'; trailing commas "
		 "are not allowed"},
		{"{\"a\":1,}", 0, 1, 8,
		 "expected a string key after ',', found '}'; trailing commas "
		 "are not allowed"},
		{"{,}", 0, 1, 2, "expected a string key or '}', found ','"},
		{"[,]", 0, 1, 2, "expected a JSON value or ']', found ','"},
		{"[1,,2]", 0, 1, 4,
		 "expected a JSON value after ',', found ','"},
		{"{\"a\" 1}", 0, 1, 6,
		 "expected ':' after an object key, found '1'"},
		{"{\"a\"=1}", 0, 1, 5,
		 "expected ':' after an object key, found '='"},
		{"{\"a\":}", 0, 1, 6,
		 "expected a JSON value after ':', found '}'"},
		{"{\"a\":1]", 0, 1, 7,
		 "expected ',' or '}' after an object member, found ']'"},
		{"{\"a\":1 \"b\":2}", 0, 1, 8,
		 "expected ',' or '}' after an object member, found '\"'"},
		{"[1}", 0, 1, 3,
		 "expected ',' or ']' after an array element, found '}'"},
		{"[1 2]", 0, 1, 4,
		 "expected ',' or ']' after an array element, found '2'"},
		{"[0x1F]", 0, 1, 3,
		 "expected ',' or ']' after an array element, found 'x1F'"},
		{"[1] x", 0, 1, 5, "unexpected 'x' after the JSON value"},
		{"[1]]", 0, 1, 4, "unexpected ']' after the JSON value"},
		{"{}\n{}", 0, 2, 1, "unexpected '{' after the JSON value"},
		{"1.5.3", 0, 1, 4, "unexpected '.' after the JSON value"},
		{"123\0", 4, 1, 4, "unexpected U+0000 after the JSON value"},
		{"[\f]", 0, 1, 2, "expected a JSON value or ']', found U+000C"},
		{"[\xe2\x81\xa0]", 0, 1, 2,
		 "expected a JSON value or ']', found '\xe2\x81\xa0' (U+2060)"},
		{"[\xff]", 0, 1, 2,
		 "expected a JSON value or ']', found invalid UTF-8 byte 0xff"},
		{"[\"\xc3\xa9\", \x80]", 0, 1, 7,
		 "expected a JSON value after ',', found invalid UTF-8 byte "
		 "0x80"},
		{"{a:1}", 0, 1, 2,
		 "expected a string key or '}', found 'a'; object keys must be "
		 "double-quoted strings"},
		{"{'a':1}", 0, 1, 2,
		 "expected a string key or '}', found \"'\"; JSON strings use "
		 "double quotes"},
		{"[/* c */]", 0, 1, 2,
		 "expected a JSON value or ']', found '/'; JSON does not allow "
		 "comments"},
		{"{\"a\": 1, # c\n}", 0, 1, 10,
		 "expected a string key after ',', found '#'; JSON does not "
		 "allow comments"},
		{"\xef\xbb\xbf[1,]", 0, 1, 4,
		 "expected a JSON value after ',', found ']'; trailing commas "
		 "are not allowed"},
		{"\xef\xbb", 0, 1, 1,
		 "expected a JSON value, found invalid UTF-8 byte 0xef"},
	};

	expect_bad(cases, N(cases), "syntax", NULL);
}

Test(load_json, syntax_errors_literals_and_numbers)
{
	static const struct bad cases[] = {
		{"True", 0, 1, 1,
		 "expected a JSON value, found 'True'; JSON literals are "
		 "lower-case: true, false, null"},
		{"[None]", 0, 1, 2,
		 "expected a JSON value or ']', found 'None'; JSON writes it "
		 "as null"},
		{"{\"a\": NaN}", 0, 1, 7,
		 "expected a JSON value after ':', found 'NaN'; JSON numbers "
		 "cannot be NaN or Infinity"},
		{"tru", 0, 1, 1, "expected a JSON value, found 'tru'"},
		{"[truex]", 0, 1, 2,
		 "expected a JSON value or ']', found 'truex'"},
		{"[nul", 0, 1, 2, "expected a JSON value or ']', found 'nul'"},
		{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", 0, 1, 1,
		 "expected a JSON value, found "
		 "'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...'"},
		{"01", 0, 1, 1, "leading zeros are not allowed in a number"},
		{"[-012]", 0, 1, 3,
		 "leading zeros are not allowed in a number"},
		{"00", 0, 1, 1, "leading zeros are not allowed in a number"},
		{"-", 0, 1, 2,
		 "expected a digit after '-', found end of input"},
		{"[- 1]", 0, 1, 3, "expected a digit after '-', found a space"},
		{"-Infinity", 0, 1, 2,
		 "expected a digit after '-', found 'Infinity'; JSON numbers "
		 "cannot be NaN or Infinity"},
		{"1.", 0, 1, 3,
		 "expected a digit after the decimal point, found end of "
		 "input"},
		{"[1.e3]", 0, 1, 4,
		 "expected a digit after the decimal point, found 'e3'"},
		{"1e", 0, 1, 3,
		 "expected a digit in the exponent, found end of input"},
		{"[1E+]", 0, 1, 5,
		 "expected a digit in the exponent, found ']'"},
		{".5", 0, 1, 1, "expected a JSON value, found '.'"},
		{"+1", 0, 1, 1, "expected a JSON value, found '+'"},
	};

	expect_bad(cases, N(cases), "syntax", NULL);
}

Test(load_json, syntax_errors_strings)
{
	static const struct bad cases[] = {
		{"\"abc", 0, 1, 5,
		 "unexpected end of input inside a string (opened at line 1 "
		 "column 1)"},
		{"{\n \"a\": 1,\n   \"b\": \"xyz", 0, 3, 13,
		 "unexpected end of input inside a string (opened at line 3 "
		 "column 9)"},
		{"{\n  \"a\": \"x\n\"}", 0, 2, 10,
		 "control character U+000A must be escaped in a string"},
		{"\"a\tb\"", 0, 1, 3,
		 "control character U+0009 must be escaped in a string"},
		{"\"\xc3\xa9\x01\"", 0, 1, 3,
		 "control character U+0001 must be escaped in a string"},
		{"\"a\\x\"", 0, 1, 3,
		 "invalid escape '\\x' in a string; JSON knows \\\" \\\\ \\/ "
		 "\\b "
		 "\\f \\n \\r \\t and \\uXXXX"},
		{"\"\xc3\xa9\\q\"", 0, 1, 3,
		 "invalid escape '\\q' in a string; JSON knows \\\" \\\\ \\/ "
		 "\\b "
		 "\\f \\n \\r \\t and \\uXXXX"},
		{"\"\\\0\"", 4, 1, 2,
		 "invalid escape: '\\' followed by U+0000 in a string"},
		{"\"\\'\"", 0, 1, 2,
		 "invalid escape: '\\' followed by \"'\" in a string"},
		{"\"\\", 0, 1, 3,
		 "unexpected end of input inside a string (opened at line 1 "
		 "column 1)"},
		{"\"\\u12G4\"", 0, 1, 6,
		 "expected 4 hex digits after '\\u', found 'G4'"},
		{"\"\\U0041\"", 0, 1, 2,
		 "invalid escape '\\U' in a string; JSON knows \\\" \\\\ \\/ "
		 "\\b "
		 "\\f \\n \\r \\t and \\uXXXX"},
		{"\"\\u12", 0, 1, 6,
		 "unexpected end of input inside a string (opened at line 1 "
		 "column 1)"},
		{"\"\\uD800\"", 0, 1, 2,
		 "lone surrogate '\\uD800' in a string: a high surrogate must "
		 "be "
		 "followed by a low one (\\uDC00-\\uDFFF)"},
		{"\"\\uD800\\u0041\"", 0, 1, 2,
		 "lone surrogate '\\uD800' in a string: a high surrogate must "
		 "be "
		 "followed by a low one (\\uDC00-\\uDFFF)"},
		{"\"x\\udbff\\udbff\"", 0, 1, 3,
		 "lone surrogate '\\udbff' in a string: a high surrogate must "
		 "be "
		 "followed by a low one (\\uDC00-\\uDFFF)"},
		{"\"\\uDC00\"", 0, 1, 2,
		 "lone surrogate '\\uDC00' in a string: a low surrogate must "
		 "follow a high one (\\uD800-\\uDBFF)"},
		{"\"\xff\"", 0, 1, 2, "invalid UTF-8 byte 0xff in a string"},
		{"\"\xc3\xa9\xc0\xaf\"", 0, 1, 3,
		 "invalid UTF-8 byte 0xc0 in a string"},
		{"\"\xed\xa0\x80\"", 0, 1, 2,
		 "invalid UTF-8 byte 0xed in a string"},
		{"\"\xe2\x82\"", 0, 1, 2,
		 "invalid UTF-8 byte 0xe2 in a string"},
		{"\"\xf4\x90\x80\x80\"", 0, 1, 2,
		 "invalid UTF-8 byte 0xf4 in a string"},
	};

	expect_bad(cases, N(cases), "syntax", NULL);
}

Test(load_json, node_positions)
{
	const char *in = "{\n"
			 "  \"a\": [1, \"x\"],\n"
			 "  \"\xc3\xa9\": {\"k\": true},\n"
			 "  \"n\": null\n"
			 "}";
	const struct smp_node *root, *arr, *obj;
	const struct smp_pair *pa, *pe;
	struct run r;

	run_json(&r, in, strlen(in), NULL);
	root = root_of(&r);
	cr_expect_eq(smp_report_count(r.rep), 0);
	cr_assert_eq(root->kind, SMP_NODE_MAPPING);
	cr_assert_eq(root->u.mapping.count, 3);
	cr_expect_eq(r.docs.items[0].start.line, 1);
	cr_expect_eq(root->start.line, 1);
	cr_expect_eq(root->start.column, 1);
	cr_expect_eq(root->start.offset, 0);
	cr_expect_eq(root->end.line, 5);
	cr_expect_eq(root->end.column, 2);
	cr_expect_eq(root->end.offset, strlen(in));

	pa = &root->u.mapping.items[0];
	cr_expect_eq(pa->key->start.line, 2);
	cr_expect_eq(pa->key->start.column, 3);
	cr_expect_eq(pa->key->start.offset, 4);
	cr_expect_eq(pa->key->end.column, 6);
	arr = pa->value;
	cr_assert_eq(arr->kind, SMP_NODE_SEQUENCE);
	cr_assert_eq(arr->u.sequence.count, 2);
	cr_expect_eq(arr->start.column, 8);
	cr_expect_eq(arr->end.column, 16);
	cr_expect_eq(arr->u.sequence.items[0]->start.column, 9);
	cr_expect_eq(arr->u.sequence.items[0]->end.column, 10);
	cr_expect_eq(arr->u.sequence.items[1]->start.column, 12);
	cr_expect_eq(arr->u.sequence.items[1]->end.column, 15);
	cr_expect_str_eq(arr->u.sequence.items[1]->u.scalar.value, "x");

	/* columns count code points: "é" is one column, two bytes */
	pe = &root->u.mapping.items[1];
	cr_expect_str_eq(pe->key->u.scalar.value, "\xc3\xa9");
	cr_expect_eq(pe->key->start.line, 3);
	cr_expect_eq(pe->key->start.column, 3);
	cr_expect_eq(pe->key->end.column, 6);
	obj = pe->value;
	cr_expect_eq(obj->start.column, 8);
	cr_expect_eq(obj->start.offset, (size_t)(strstr(in, "{\"k\"") - in));
	cr_expect_eq(obj->u.mapping.items[0].value->start.column, 14);
	cr_expect_eq(obj->u.mapping.items[0].value->start.offset,
		     (size_t)(strstr(in, "true") - in));
	cr_expect_eq(obj->u.mapping.items[0].value->end.column, 18);
	cr_expect_eq(obj->end.column, 19);
	cr_expect_eq(root->u.mapping.items[2].value->start.line, 4);
	cr_expect_eq(root->u.mapping.items[2].value->start.column, 8);
	run_done(&r);
}

Test(load_json, line_breaks_tabs_and_bom)
{
	const char *in = "[\r\n1,\r2,\n\t3]";
	const char *bom = "\xef\xbb\xbf {\"a\": 1}";
	const struct smp_node *root;
	struct run r;

	run_json(&r, in, strlen(in), NULL);
	root = root_of(&r);
	cr_assert_eq(root->u.sequence.count, 3);
	cr_expect_eq(root->u.sequence.items[0]->start.line, 2);
	cr_expect_eq(root->u.sequence.items[0]->start.column, 1);
	cr_expect_eq(root->u.sequence.items[1]->start.line, 3);
	cr_expect_eq(root->u.sequence.items[1]->start.column, 1);
	cr_expect_eq(root->u.sequence.items[2]->start.line, 4);
	cr_expect_eq(root->u.sequence.items[2]->start.column, 2);
	cr_expect_eq(root->end.line, 4);
	run_done(&r);

	/* the BOM is skipped: in the offsets, but not a column */
	run_json(&r, bom, strlen(bom), NULL);
	root = root_of(&r);
	cr_expect_eq(root->start.line, 1);
	cr_expect_eq(root->start.column, 2);
	cr_expect_eq(root->start.offset, 4);
	cr_expect_eq(root->u.mapping.items[0].value->start.column, 8);
	run_done(&r);
}

Test(load_json, scalars_and_types)
{
	const char *in = "[1, -0, -2.5e3, 1E+2, 0.5, true, false, null, \"1\", "
			 "\"true\", \"\", 12345678901234567890123]";
	static const enum smp_scalar_type want[] = {
		SMP_SCALAR_INT,    SMP_SCALAR_INT,    SMP_SCALAR_FLOAT,
		SMP_SCALAR_FLOAT,  SMP_SCALAR_FLOAT,  SMP_SCALAR_BOOL,
		SMP_SCALAR_BOOL,   SMP_SCALAR_NULL,   SMP_SCALAR_STRING,
		SMP_SCALAR_STRING, SMP_SCALAR_STRING, SMP_SCALAR_INT,
	};
	static const char *const text[] = {
		"1",   "-0",   "-2.5e3", "1E+2",
		"0.5", "true", "false",  "null",
		"1",   "true", "",       "12345678901234567890123",
	};
	const struct smp_node *root;
	struct run r;
	size_t k;

	run_json(&r, in, strlen(in), NULL);
	root = root_of(&r);
	cr_assert_eq(root->u.sequence.count, N(want));
	for (k = 0; k < N(want); k++) {
		const struct smp_node *n = root->u.sequence.items[k];

		cr_expect_eq(n->kind, SMP_NODE_SCALAR);
		cr_expect_str_eq(n->u.scalar.value, text[k]);
		cr_expect_eq(n->u.scalar.len, strlen(text[k]));
		cr_expect_eq(n->u.scalar.style,
			     k < 8 || k == 11 ? SMP_STYLE_PLAIN
					      : SMP_STYLE_DOUBLE_QUOTED);
		cr_expect_eq(n->tag, NULL);
		cr_expect_eq(smp__scalar_type(n), want[k], "type of item %zu",
			     k);
	}
	run_done(&r);

	/* a bare scalar is a document too (RFC 8259) */
	run_json(&r, " \"x\" ", 5, NULL);
	root = root_of(&r);
	cr_expect_str_eq(root->u.scalar.value, "x");
	run_done(&r);
}

Test(load_json, escapes_decode_to_utf8)
{
	const char *in =
		"\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t|\\u0041\\u00e9\\u20AC"
		"\\uD83D\\uDE00\\uDBFF\\uDFFF|\x7f\xc3\xa9\"";
	const char *want = "a\"b\\c/d\b\f\n\r\t|A\xc3\xa9\xe2\x82\xac"
			   "\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf|\x7f\xc3\xa9";
	const struct smp_node *root;
	struct run r;

	run_json(&r, in, strlen(in), NULL);
	root = root_of(&r);
	cr_expect_eq(root->u.scalar.len, strlen(want));
	cr_expect_str_eq(root->u.scalar.value, want);
	cr_expect_eq(root->u.scalar.style, SMP_STYLE_DOUBLE_QUOTED);
	cr_expect_eq(root->end.offset, strlen(in));
	cr_expect_eq(root->end.column, 69);
	run_done(&r);
}

Test(load_json, nul_escape_is_length_counted)
{
	const char *in = "{\"k\\u0000\": \"a\\u0000b\"}";
	const struct smp_node *root, *v;
	struct run r;

	run_json(&r, in, strlen(in), NULL);
	root = root_of(&r);
	v = root->u.mapping.items[0].value;
	cr_expect_eq(v->u.scalar.len, 3);
	cr_expect_eq(memcmp(v->u.scalar.value, "a\0b", 4), 0);
	cr_expect_eq(root->u.mapping.items[0].key->u.scalar.len, 2);
	/* NUL inside: never typed as anything but a string */
	cr_expect_eq(smp__scalar_type(v), SMP_SCALAR_STRING);
	cr_expect_eq(smp__map_get(root, "k"), NULL);
	run_done(&r);
}

Test(load_json, duplicate_keys)
{
	const char *in = "{\n"
			 "  \"x\": 1,\n"
			 "  \"y\": 2,\n"
			 "  \"x\": 3\n"
			 "}";
	const char *nested = "{\"a\": [{\"b/~\": 0, \"b/~\": 1}], \"c\": "
			     "{\"x\": 1, \"x\": 2, \"x\": 3}}";
	const struct smp_finding *f;
	const struct smp_node *root;
	long long v = 0;
	struct run r;

	run_json(&r, in, strlen(in), NULL);
	root = root_of(&r);
	cr_assert_eq(smp_report_count(r.rep), 1);
	f = smp_report_get(r.rep, 0);
	cr_expect_str_eq(f->rule, "duplicate-key");
	cr_expect_eq(f->line, 4);
	cr_expect_eq(f->column, 3);
	cr_expect_eq(f->end_line, 4);
	cr_expect_eq(f->end_column, 6);
	cr_expect_str_eq(f->message, "duplicate key 'x' (first at line 2 "
				     "column 3); parsers keep the last value "
				     "silently");
	cr_expect_str_eq(f->pointer, "/x");
	cr_expect_str_eq(f->source_line, "  \"x\": 3");
	/* both members stay; lookups see the last, as parsers do */
	cr_expect_eq(root->u.mapping.count, 3);
	cr_expect_eq(smp__scalar_int(smp__map_get(root, "x"), &v), 0);
	cr_expect_eq(v, 3);
	run_done(&r);

	run_json(&r, nested, strlen(nested), NULL);
	root_of(&r);
	cr_assert_eq(smp_report_count(r.rep), 3);
	f = smp_report_get(r.rep, 0);
	cr_expect_str_eq(f->pointer, "/a/0/b~1~0");
	cr_expect_str_eq(f->message, "duplicate key 'b/~' (first at line 1 "
				     "column 9); parsers keep the last value "
				     "silently");
	f = smp_report_get(r.rep, 1);
	cr_expect_str_eq(f->pointer, "/c/x");
	cr_expect_eq(f->column, 45);
	cr_expect(strstr(f->message, "(first at line 1 column 37)"));
	f = smp_report_get(r.rep, 2);
	cr_expect_eq(f->column, 53);
	cr_expect(strstr(f->message, "(first at line 1 column 37)"));
	run_done(&r);
}

Test(load_json, duplicate_keys_in_large_objects)
{
	/* past 16 keys the object is checked through the hash table */
	char buf[4096];
	size_t n = 0, k;
	const struct smp_finding *f;
	struct run r;

	n += (size_t)sprintf(buf + n, "[{");
	for (k = 0; k < 40; k++)
		n += (size_t)sprintf(buf + n, "%s\"k%zu\":%zu", k ? "," : "",
				     k == 10   ? (size_t)3
				     : k == 30 ? 3
					       : k,
				     k);
	n += (size_t)sprintf(buf + n, "},{");
	for (k = 0; k < 40; k++)
		n += (size_t)sprintf(buf + n, "%s\"k%zu\":%zu", k ? "," : "", k,
				     k);
	n += (size_t)sprintf(buf + n, ",\"k39\":0}]");
	run_json(&r, buf, n, NULL);
	root_of(&r);
	cr_assert_eq(smp_report_count(r.rep), 3);
	f = smp_report_get(r.rep, 0);
	cr_expect_str_eq(f->pointer, "/0/k3");
	cr_expect(strstr(f->message, "(first at line 1 column 24)"), "%s",
		  f->message);
	cr_expect_str_eq(smp_report_get(r.rep, 1)->pointer, "/0/k3");
	cr_expect(strstr(smp_report_get(r.rep, 1)->message,
			 "(first at line 1 column 24)"));
	f = smp_report_get(r.rep, 2);
	cr_expect_str_eq(f->pointer, "/1/k39");
	cr_expect_eq(f->column, (unsigned)n - 8);
	run_done(&r);
}

Test(load_json, duplicate_key_quoting)
{
	char buf[512];
	const struct smp_finding *f;
	struct run r;
	int n;

	n = sprintf(buf, "{\"a\\u0001'\":1,\"a\\u0001'\":2}");
	run_json(&r, buf, (size_t)n, NULL);
	cr_assert_eq(smp_report_count(r.rep), 1);
	f = smp_report_get(r.rep, 0);
	cr_expect_str_eq(f->message, "duplicate key 'a\\u0001'' (first at "
				     "line 1 column 2); parsers keep the last "
				     "value silently");
	run_done(&r);

	/* long keys are cut after 64 bytes */
	n = sprintf(buf, "{\"%0100d\":1,\"%0100d\":2}", 7, 7);
	run_json(&r, buf, (size_t)n, NULL);
	cr_assert_eq(smp_report_count(r.rep), 1);
	f = smp_report_get(r.rep, 0);
	cr_expect(strstr(f->message, "'0000000000000000000000000000000000000"
				     "000000000000000000000000000...' (first"),
		  "%s", f->message);
	run_done(&r);

	/* a duplicate before a syntax error is still reported */
	run_json(&r, "{\"a\":1,\"a\":2,}", 14, NULL);
	cr_expect_eq(r.docs.count, 0);
	cr_assert_eq(smp_report_count(r.rep), 2);
	cr_expect_str_eq(smp_report_get(r.rep, 0)->rule, "duplicate-key");
	cr_expect_str_eq(smp_report_get(r.rep, 1)->rule, "syntax");
	run_done(&r);
}

Test(load_json, limit_depth)
{
	struct smp_limits lim = {0, 3, 0, 0, 0};
	static const struct bad cases[] = {
		{"[[[[1]]]]", 0, 1, 4, "document nests deeper than 3 levels"},
		{"{\"a\":{\"b\":{\"c\":{}}}}", 0, 1, 16,
		 "document nests deeper than 3 levels"},
	};
	struct run r;

	expect_bad(cases, N(cases), "input-limit", &lim);
	run_json(&r, "[[[1]]]", 7, &lim);
	root_of(&r);
	cr_expect_eq(smp_report_count(r.rep), 0);
	run_done(&r);
}

Test(load_json, limit_nodes)
{
	struct smp_limits lim = {0, 0, 5, 0, 0};
	static const struct bad cases[] = {
		{"[1,2,3,4,5]", 0, 1, 10, "document has more than 5 nodes"},
		{"{\"a\":1,\"b\":2,\"c\":3}", 0, 1, 14,
		 "document has more than 5 nodes"},
		{"[[[[[[]]]]]]", 0, 1, 6, "document has more than 5 nodes"},
	};
	struct run r;

	expect_bad(cases, N(cases), "input-limit", &lim);
	run_json(&r, "{\"a\":1,\"b\":2}", 13, &lim);
	root_of(&r);
	cr_expect_eq(smp_report_count(r.rep), 0);
	run_done(&r);
}

Test(load_json, limit_scalar_length)
{
	struct smp_limits lim = {0, 0, 0, 4, 0};
	static const struct bad cases[] = {
		{"\"abcde\"", 0, 1, 1,
		 "string is longer than the limit of 4 bytes"},
		{"[\"\\u20AC\\u20AC\"]", 0, 1, 2,
		 "string is longer than the limit of 4 bytes"},
		{"{\"abcde\":1}", 0, 1, 2,
		 "string is longer than the limit of 4 bytes"},
		{"\n 12345", 0, 2, 2,
		 "number is longer than the limit of 4 bytes"},
	};
	static const char *const ok[] = {"\"abcd\"", "\"\\u00e9\\u00e9\"",
					 "1234", "-1.5"};
	struct run r;
	size_t k;

	expect_bad(cases, N(cases), "input-limit", &lim);
	for (k = 0; k < N(ok); k++) {
		run_json(&r, ok[k], strlen(ok[k]), &lim);
		root_of(&r);
		cr_expect_eq(smp_report_count(r.rep), 0, "%s", ok[k]);
		run_done(&r);
	}
}

Test(load_json, deep_nesting_stops_at_the_limit)
{
	static char buf[10000 * 5];
	const struct smp_finding *f;
	struct run r;
	size_t k, n = 0;

	memset(buf, '[', 10000);
	run_json(&r, buf, 10000, NULL);
	cr_expect_eq(r.docs.count, 0);
	cr_assert_eq(smp_report_count(r.rep), 1);
	f = smp_report_get(r.rep, 0);
	cr_expect_str_eq(f->rule, "input-limit");
	cr_expect_eq(f->line, 1);
	cr_expect_eq(f->column, 65);
	cr_expect_str_eq(f->message, "document nests deeper than 64 levels");
	run_done(&r);

	for (k = 0; k < 10000; k++) {
		memcpy(buf + n, "{\"a\":", 5);
		n += 5;
	}
	run_json(&r, buf, n, NULL);
	cr_assert_eq(smp_report_count(r.rep), 1);
	cr_expect_eq(smp_report_get(r.rep, 0)->column, 64 * 5 + 1);
	run_done(&r);
}

Test(load_json, object_with_100000_members)
{
	struct smp_limits lim = {0, 0, 300000, 0, 0};
	size_t cap = 100000 * 24 + 16, n = 0, k;
	char *buf = malloc(cap);
	const struct smp_node *root;
	const struct smp_pair *last;
	struct run r;

	cr_assert(buf);
	buf[n++] = '{';
	for (k = 0; k < 100000; k++)
		n += (size_t)snprintf(buf + n, cap - n, "%s\"k%zu\":%zu",
				      k ? "," : "", k, k);
	buf[n++] = '}';
	run_json(&r, buf, n, &lim);
	root = root_of(&r);
	cr_expect_eq(smp_report_count(r.rep), 0);
	cr_assert_eq(root->u.mapping.count, 100000);
	last = &root->u.mapping.items[99999];
	cr_expect_str_eq(last->key->u.scalar.value, "k99999");
	cr_expect_str_eq(last->value->u.scalar.value, "99999");
	cr_expect_eq(last->value->end.offset, n - 1);
	run_done(&r);

	/* with the default limit it is too many nodes */
	run_json(&r, buf, n, NULL);
	cr_expect_eq(r.docs.count, 0);
	cr_assert_eq(smp_report_count(r.rep), 1);
	cr_expect_str_eq(smp_report_get(r.rep, 0)->message,
			 "document has more than 100000 nodes");
	run_done(&r);

	/* one duplicate at the very end is found */
	buf[n - 1] = ',';
	n += (size_t)snprintf(buf + n, cap - n, "\"k5\":0}");
	run_json(&r, buf, n, &lim);
	root_of(&r);
	cr_assert_eq(smp_report_count(r.rep), 1);
	cr_expect_str_eq(smp_report_get(r.rep, 0)->rule, "duplicate-key");
	cr_expect_str_eq(smp_report_get(r.rep, 0)->pointer, "/k5");
	run_done(&r);
	free(buf);
}

/*
 * Fails allocation N = 0, 1, 2, ... until a run completes: each run ends
 * in success or SMP_ENOMEM and leaves nothing allocated.
 */
static void
alloc_failure_loop(const char *in, size_t want_docs, size_t want_findings)
{
	long fail_at;

	for (fail_at = 0;; fail_at++) {
		struct run r;
		int rc;

		run_init(&r, fail_at);
		rc = smp__report_new(&r.rep, &r.alloc, "x.json", NULL);
		if (rc == 0) {
			r.rep->buf = in;
			r.rep->len = strlen(in);
			rc = smp__load_json(&r.docs, in, strlen(in), NULL);
			if (rc == 0)
				rc = smp__rules_input(r.rep, &r.docs);
		}
		cr_assert(rc == 0 || rc == SMP_ENOMEM, "rc %d at %ld", rc,
			  fail_at);
		if (rc == 0) {
			cr_expect_eq(r.docs.count, want_docs);
			cr_expect_eq(smp_report_count(r.rep), want_findings);
			cr_expect(!r.rep->failed);
		}
		cr_expect(rc == SMP_ENOMEM || !r.count.failed,
			  "a failed allocation at %ld went unnoticed", fail_at);
		run_done(&r);
		if (!r.count.failed)
			break;
	}
	cr_expect_gt(fail_at, 2);
}

Test(load_json, allocation_failures)
{
	char big[2048];
	size_t n = 0, k;

	n += (size_t)sprintf(big + n, "{\"list\": [1, 2.5, \"\\u00e9\\n\", "
				      "[true, false, null], {}], \"o\": {");
	for (k = 0; k < 40; k++)
		n += (size_t)sprintf(big + n, "\"key%zu\": \"%s\", ", k,
				     "value with some text in it");
	sprintf(big + n, "\"key7\": 0}, \"list\": []}");
	alloc_failure_loop(big, 1, 2);
	alloc_failure_loop("{\"a\": [1, 2, {\"b\": \"\\\"x\"}], \"a\": 1,}", 0,
			   2);
	alloc_failure_loop(
		"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
		"[[[[[[[[[[[[[[[[",
		0, 1);
}

static char *
read_all(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	long n;

	*len = 0;
	if (!fp)
		return NULL;
	if (fseek(fp, 0, SEEK_END) == 0 && (n = ftell(fp)) >= 0 &&
	    fseek(fp, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, fp) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		*len = (size_t)n;
	}
	fclose(fp);
	return buf;
}

/* True when the report has a syntax or input-limit finding with a position. */
static int
rejected(const struct smp_report *rep)
{
	size_t k;

	for (k = 0; k < smp_report_count(rep); k++) {
		const struct smp_finding *f = smp_report_get(rep, k);

		if ((strcmp(f->rule, "syntax") == 0 ||
		     strcmp(f->rule, "input-limit") == 0) &&
		    f->line >= 1 && f->column >= 1)
			return 1;
	}
	return 0;
}

Test(load_json, json_test_suite)
{
	const char *shared = getenv("SMP_SHARED_DIR");
	size_t y = 0, y_ok = 0, nn = 0, n_ok = 0, i = 0;
	char dir[1024], path[2048];
	struct dirent *e;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/corpora/json-test-suite/test_parsing",
		 shared && *shared ? shared : "../shared");
	d = opendir(dir);
	if (!d)
		cr_skip_test("json-test-suite not found at %s (set "
			     "SMP_SHARED_DIR)",
			     dir);
	while ((e = readdir(d)) != NULL) {
		const char *name = e->d_name;
		struct run r;
		size_t len = 0;
		char *buf;

		if (strlen(name) < 3 || name[1] != '_' ||
		    !strchr("yni", name[0]))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		buf = read_all(path, &len);
		cr_assert(buf, "cannot read %s", path);
		run_json(&r, buf, len, NULL);
		cr_expect_eq(r.rc, 0, "%s", name);
		if (name[0] == 'y') {
			y++;
			if (r.docs.count == 1 && !rejected(r.rep))
				y_ok++;
			else
				cr_expect_fail(
					"%s was rejected: %s", name,
					smp_report_count(r.rep)
						? smp_report_get(r.rep, 0)
							  ->message
						: "no document");
		} else if (name[0] == 'n') {
			nn++;
			if (r.docs.count == 0 && rejected(r.rep))
				n_ok++;
			else
				cr_expect_fail("%s was accepted", name);
		} else {
			i++;
		}
		run_done(&r);
		free(buf);
	}
	closedir(d);
	fprintf(stderr,
		"json-test-suite: %zu/%zu y accepted, %zu/%zu n rejected, "
		"%zu i handled\n",
		y_ok, y, n_ok, nn, i);
	cr_expect_gt(y, 0);
	cr_expect_gt(nn, 0);
	cr_expect_eq(y_ok, y);
	cr_expect_eq(n_ok, nn);
}
