/*
 * test_load_yaml.c - the YAML loader: positions, styles, tags, streams,
 * aliases, every error path with its line:column, duplicate keys, limits
 * and allocation failure.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "failing_alloc.h"
#include "doc/load.h"
#include "rules/check.h"

/* The README "Bad input" defaults, filled here on purpose. */
static struct smp_limits
default_limits(void)
{
	struct smp_limits l = {4u << 20, 64, 100000, 65536, 1000};

	return l;
}

struct loaded {
	struct failing_alloc count;
	struct smp_allocator alloc;
	struct smp_docs docs;
	struct smp_report *rep;
	int rc;
};

static void
load_n(struct loaded *t, const char *buf, size_t len,
       const struct smp_limits *lim)
{
	struct smp_limits def = default_limits();

	memset(t, 0, sizeof(*t));
	fa_init(&t->count, FA_NEVER);
	t->alloc = fa_allocator(&t->count);
	smp__docs_init(&t->docs, &t->alloc);
	cr_assert_eq(smp__report_new(&t->rep, &t->alloc, "x.yaml", NULL), 0);
	t->rep->buf = buf;
	t->rep->len = len;
	t->rc = smp__load_yaml(&t->docs, buf, len, lim ? lim : &def);
	if (t->rc == 0)
		t->rc = smp__rules_input(t->rep, &t->docs);
}

static void
load(struct loaded *t, const char *text)
{
	load_n(t, text, strlen(text), NULL);
}

static void
unload(struct loaded *t)
{
	smp__docs_release(&t->docs);
	smp_report_free(t->rep);
	cr_assert_eq(t->count.live, 0, "%ld blocks leaked", t->count.live);
}

static const struct smp_node *
root(const struct loaded *t, size_t i)
{
	cr_assert_gt(t->docs.count, i);
	return t->docs.items[i].root;
}

static void
assert_pos(const struct smp_pos *p, unsigned line, unsigned col, size_t off)
{
	cr_assert_eq(p->line, line, "line %u, expected %u", p->line, line);
	cr_assert_eq(p->column, col, "column %u, expected %u", p->column, col);
	cr_assert_eq(p->offset, off, "offset %zu, expected %zu", p->offset,
		     off);
}

/* Asserts exactly one finding, with its rule, position and message. */
static void
assert_only_finding(const struct loaded *t, const char *rule, unsigned line,
		    unsigned col, const char *msg)
{
	const struct smp_finding *f;

	cr_assert_eq(t->rc, 0);
	cr_assert_eq(smp_report_count(t->rep), 1, "%zu findings",
		     smp_report_count(t->rep));
	f = smp_report_get(t->rep, 0);
	cr_assert_str_eq(f->rule, rule);
	cr_assert_str_eq(f->message, msg);
	cr_assert_eq(f->line, line, "line %u, expected %u", f->line, line);
	cr_assert_eq(f->column, col, "column %u, expected %u", f->column, col);
}

/* Syntax error in a one-document input: the document is dropped. */
static void
check_syntax(const char *text, unsigned line, unsigned col, const char *msg)
{
	struct loaded t;

	load(&t, text);
	assert_only_finding(&t, "syntax", line, col, msg);
	cr_assert_eq(t.docs.count, 0);
	unload(&t);
}

static const struct smp_node *
get(const struct smp_node *m, const char *key)
{
	const struct smp_node *v = smp__map_get(m, key);

	cr_assert_not_null(v, "no key '%s'", key);
	return v;
}

Test(load_yaml, block_positions)
{
	static const char text[] = "name: value\n"
				   "list:\n"
				   "  - a\n"
				   "  - b: c\n"
				   "    d: 1\n";
	const struct smp_node *r, *list, *item;
	struct loaded t;

	load(&t, text);
	cr_assert_eq(t.rc, 0);
	cr_assert_eq(smp_report_count(t.rep), 0);
	cr_assert_eq(t.docs.count, 1);
	r = root(&t, 0);
	cr_assert_eq(r->kind, SMP_NODE_MAPPING);
	cr_assert_eq(r->u.mapping.count, 2);
	assert_pos(&r->start, 1, 1, 0);
	assert_pos(&r->u.mapping.items[0].key->start, 1, 1, 0);
	assert_pos(&r->u.mapping.items[0].key->end, 1, 5, 4);
	assert_pos(&r->u.mapping.items[0].value->start, 1, 7, 6);
	assert_pos(&r->u.mapping.items[0].value->end, 1, 12, 11);
	list = get(r, "list");
	cr_assert_eq(list->kind, SMP_NODE_SEQUENCE);
	cr_assert_eq(list->u.sequence.count, 2);
	assert_pos(&list->start, 3, 3, 20);
	assert_pos(&list->u.sequence.items[0]->start, 3, 5, 22);
	item = list->u.sequence.items[1];
	cr_assert_eq(item->kind, SMP_NODE_MAPPING);
	assert_pos(&item->start, 4, 5, 28);
	assert_pos(&get(item, "b")->start, 4, 8, 31);
	assert_pos(&item->u.mapping.items[1].key->start, 5, 5, 37);
	assert_pos(&get(item, "d")->start, 5, 8, 40);
	cr_assert_eq(t.docs.items[0].start.line, 1);
	unload(&t);
}

Test(load_yaml, flow_positions)
{
	static const char text[] = "{a: [1, 22], b: {c: d}}\n";
	const struct smp_node *r, *a, *b;
	struct loaded t;

	load(&t, text);
	cr_assert_eq(smp_report_count(t.rep), 0);
	r = root(&t, 0);
	assert_pos(&r->start, 1, 1, 0);
	assert_pos(&r->end, 1, 24, 23);
	a = get(r, "a");
	assert_pos(&a->start, 1, 5, 4);
	assert_pos(&a->end, 1, 12, 11);
	assert_pos(&a->u.sequence.items[1]->start, 1, 9, 8);
	assert_pos(&a->u.sequence.items[1]->end, 1, 11, 10);
	b = get(r, "b");
	assert_pos(&b->start, 1, 17, 16);
	assert_pos(&get(b, "c")->start, 1, 21, 20);
	unload(&t);
}

Test(load_yaml, multi_line_scalars)
{
	static const char text[] = "text: |\n"
				   "  line one\n"
				   "  line two\n"
				   "quoted: \"a\n"
				   "  b\"\n"
				   "next: 1\n";
	const struct smp_node *r, *v;
	struct loaded t;

	load(&t, text);
	cr_assert_eq(smp_report_count(t.rep), 0);
	r = root(&t, 0);
	v = get(r, "text");
	cr_assert_eq(v->u.scalar.style, SMP_STYLE_LITERAL);
	cr_assert_str_eq(v->u.scalar.value, "line one\nline two\n");
	assert_pos(&v->start, 1, 7, 6);
	assert_pos(&v->end, 4, 1, 30);
	v = get(r, "quoted");
	cr_assert_str_eq(v->u.scalar.value, "a b");
	assert_pos(&v->start, 4, 9, 38);
	assert_pos(&v->end, 5, 5, 45);
	assert_pos(&r->u.mapping.items[2].key->start, 6, 1, 46);
	unload(&t);
}

/* Columns count characters, offsets count bytes. */
Test(load_yaml, utf8_columns_and_offsets)
{
	static const char text[] = "\xc3\xa9t\xc3\xa9: \"\xe2\x82\xac\"\n"
				   "x: \xf0\x9f\x98\x80 y\n";
	const struct smp_node *r, *v;
	struct loaded t;

	load(&t, text);
	cr_assert_eq(smp_report_count(t.rep), 0);
	r = root(&t, 0);
	v = r->u.mapping.items[0].value;
	cr_assert_str_eq(v->u.scalar.value, "\xe2\x82\xac");
	assert_pos(&v->start, 1, 6, 7);
	assert_pos(&v->end, 1, 9, 12);
	assert_pos(&r->u.mapping.items[1].key->start, 2, 1, 13);
	v = get(r, "x");
	assert_pos(&v->start, 2, 4, 16);
	assert_pos(&v->end, 2, 7, 22);
	unload(&t);
}

Test(load_yaml, crlf_and_bom_offsets)
{
	static const char crlf[] = "a: 1\r\nb: 2\r\n";
	static const char bom[] = "\xef\xbb\xbf"
				  "a: 1\nb: 2\n";
	struct loaded t;

	load(&t, crlf);
	cr_assert_eq(smp_report_count(t.rep), 0);
	assert_pos(&get(root(&t, 0), "b")->start, 2, 4, 9);
	unload(&t);

	load(&t, bom);
	cr_assert_eq(smp_report_count(t.rep), 0);
	assert_pos(&root(&t, 0)->u.mapping.items[0].key->start, 1, 1, 3);
	assert_pos(&get(root(&t, 0), "b")->start, 2, 4, 11);
	unload(&t);
}

Test(load_yaml, styles)
{
	static const char text[] = "p: plain\n"
				   "s: 'single'\n"
				   "d: \"double\"\n"
				   "l: |\n"
				   "  lit\n"
				   "f: >\n"
				   "  fold\n"
				   "  ed\n"
				   "e:\n";
	const struct smp_node *r;
	struct loaded t;

	load(&t, text);
	cr_assert_eq(smp_report_count(t.rep), 0);
	r = root(&t, 0);
	cr_assert_eq(get(r, "p")->u.scalar.style, SMP_STYLE_PLAIN);
	cr_assert_eq(get(r, "s")->u.scalar.style, SMP_STYLE_SINGLE_QUOTED);
	cr_assert_eq(get(r, "d")->u.scalar.style, SMP_STYLE_DOUBLE_QUOTED);
	cr_assert_eq(get(r, "l")->u.scalar.style, SMP_STYLE_LITERAL);
	cr_assert_eq(get(r, "f")->u.scalar.style, SMP_STYLE_FOLDED);
	cr_assert_str_eq(get(r, "f")->u.scalar.value, "fold ed\n");
	cr_assert_eq(get(r, "e")->u.scalar.len, 0);
	cr_assert_eq(smp__scalar_type(get(r, "e")), SMP_SCALAR_NULL);
	cr_assert_null(get(r, "p")->tag);
	unload(&t);
}

Test(load_yaml, tags)
{
	static const char text[] = "a: !!str 123\n"
				   "b: !custom x\n"
				   "c: ! 7\n"
				   "d: !!map {x: 1}\n"
				   "e: !<tag:example.com,2024:t> [1]\n"
				   "f: 8\n"
				   "g: !!int \"9\"\n";
	const struct smp_node *r;
	struct loaded t;

	load(&t, text);
	cr_assert_eq(smp_report_count(t.rep), 0);
	r = root(&t, 0);
	cr_assert_str_eq(get(r, "a")->tag, "tag:yaml.org,2002:str");
	cr_assert_eq(smp__scalar_type(get(r, "a")), SMP_SCALAR_STRING);
	assert_pos(&get(r, "a")->start, 1, 4, 3);
	cr_assert_str_eq(get(r, "b")->tag, "!custom");
	cr_assert_str_eq(get(r, "c")->tag, "!");
	cr_assert_str_eq(get(r, "d")->tag, "tag:yaml.org,2002:map");
	cr_assert_eq(get(r, "d")->kind, SMP_NODE_MAPPING);
	cr_assert_str_eq(get(r, "e")->tag, "tag:example.com,2024:t");
	cr_assert_null(get(r, "f")->tag);
	cr_assert_eq(smp__scalar_type(get(r, "f")), SMP_SCALAR_INT);
	cr_assert_eq(smp__scalar_type(get(r, "g")), SMP_SCALAR_INT);
	unload(&t);
}

Test(load_yaml, multi_document_stream)
{
	static const char text[] = "# comment\n"
				   "a: 1\n"
				   "---\n"
				   "- b\n"
				   "...\n"
				   "--- plain\n"
				   "---\n";
	struct loaded t;

	load(&t, text);
	cr_assert_eq(t.rc, 0);
	cr_assert_eq(smp_report_count(t.rep), 0);
	cr_assert_eq(t.docs.count, 4);
	cr_assert_eq(root(&t, 0)->kind, SMP_NODE_MAPPING);
	cr_assert_eq(t.docs.items[0].start.line, 2);
	cr_assert_eq(root(&t, 1)->kind, SMP_NODE_SEQUENCE);
	cr_assert_eq(t.docs.items[1].start.line, 3);
	cr_assert(smp__scalar_is(root(&t, 2), "plain"));
	assert_pos(&root(&t, 2)->start, 6, 5, 31);
	/* an explicit empty document holds one empty (null) scalar */
	cr_assert_eq(root(&t, 3)->u.scalar.len, 0);
	unload(&t);
}

Test(load_yaml, empty_stream_has_no_document)
{
	struct loaded t;

	load(&t, "");
	cr_assert_eq(t.rc, 0);
	cr_assert_eq(t.docs.count, 0);
	cr_assert_eq(smp_report_count(t.rep), 0);
	unload(&t);
	load(&t, "# only a comment\n\n");
	cr_assert_eq(t.docs.count, 0);
	unload(&t);
	load_n(&t, NULL, 0, NULL);
	cr_assert_eq(t.rc, 0);
	cr_assert_eq(t.docs.count, 0);
	unload(&t);
}

Test(load_yaml, anchors_and_aliases)
{
	static const char text[] = "base: &b {x: 1, y: [2, 3]}\n"
				   "copy: *b\n"
				   "s: &s word\n"
				   "*s : key is an alias\n"
				   "again: &b 5\n"
				   "late: *b\n"
				   "<<: *b\n";
	const struct smp_node *r, *base;
	struct loaded t;

	load(&t, text);
	cr_assert_eq(t.rc, 0);
	cr_assert_eq(smp_report_count(t.rep), 0);
	r = root(&t, 0);
	base = get(r, "base");
	cr_assert_eq(get(r, "copy"), base);
	cr_assert_eq(r->u.mapping.items[3].key, get(r, "s"));
	/* a redefined anchor: the latest definition wins */
	cr_assert(smp__scalar_is(get(r, "late"), "5"));
	/* merge keys stay ordinary keys */
	cr_assert(smp__scalar_is(get(r, "<<"), "5"));
	cr_assert_eq(r->u.mapping.count, 7);
	unload(&t);
}

Test(load_yaml, anchors_are_per_document)
{
	struct loaded t;

	load(&t, "a: &x 1\n---\nb: *x\n");
	assert_only_finding(&t, "syntax", 3, 4,
			    "unknown alias '*x': define the anchor '&x' "
			    "before using it");
	cr_assert_eq(t.docs.count, 1);
	unload(&t);
}

Test(load_yaml, recursive_alias)
{
	struct loaded t;

	load(&t, "a: &r\n  b: *r\n");
	assert_only_finding(&t, "input-limit", 2, 6,
			    "alias '*r' refers to a node that contains it: "
			    "the document would expand forever");
	cr_assert_eq(t.docs.count, 0);
	unload(&t);
}

Test(load_yaml, syntax_errors)
{
	check_syntax("a: b\n  c: d\n", 2, 4,
		     "mapping values are not allowed in this context");
	check_syntax("a:\n  b: 1\n c: 2\n", 3, 2,
		     "did not find expected key while parsing a block mapping "
		     "(started at line 1 column 1)");
	check_syntax("a: [1, 2]]\n", 1, 10,
		     "did not find expected key while parsing a block mapping "
		     "(started at line 1 column 1)");
	/* at the end of the stream, the position is what was left open */
	check_syntax("x: 1\nlist: [1, 2\n", 2, 7,
		     "did not find expected ',' or ']' while parsing a flow "
		     "sequence");
	check_syntax("{a: 1\n", 1, 1,
		     "did not find expected ',' or '}' while parsing a flow "
		     "mapping");
	check_syntax("key: \"abc\n", 1, 6,
		     "found unexpected end of stream while scanning a quoted "
		     "scalar");
	check_syntax("a:\n\tb: 1\n", 2, 1,
		     "found character that cannot start any token while "
		     "scanning for the next token");
	check_syntax("a: @b\n", 1, 4,
		     "found character that cannot start any token while "
		     "scanning for the next token");
	check_syntax("!e!foo x\n", 1, 1,
		     "found undefined tag handle while parsing a node");
	check_syntax("a: &\n", 1, 5,
		     "did not find expected alphabetic or numeric character "
		     "while scanning an anchor (started at line 1 column 4)");
	check_syntax("a: !<x\n", 1, 7,
		     "did not find the expected '>' while scanning a tag "
		     "(started at line 1 column 4)");
	check_syntax("\"\\q\"\n", 1, 2,
		     "found unknown escape character while parsing a quoted "
		     "scalar (started at line 1 column 1)");
	check_syntax("%YAML 1.1\n%YAML 1.1\n---\na\n", 2, 1,
		     "found duplicate %YAML directive");
	check_syntax("- a\nb: 1\n", 2, 1,
		     "did not find expected '-' indicator while parsing a "
		     "block collection (started at line 1 column 1)");
	check_syntax("x: [\xc3\xa9, *nope]\n", 1, 8,
		     "unknown alias '*nope': define the anchor '&nope' before "
		     "using it");
}

/* Reader errors carry a byte offset, not a mark. */
Test(load_yaml, reader_errors)
{
	static const char ctl[] = "a: 1\nb: \x01\n";
	static const char bad[] = "a: \xc3\xa9\nb: \xff\n";
	static const char trunc[] = "a: \xe2\x82";
	const struct smp_finding *f;
	struct loaded t;

	check_syntax(ctl, 2, 4, "control characters are not allowed (U+0001)");
	check_syntax(bad, 2, 4, "invalid leading UTF-8 octet (byte 0xFF)");
	check_syntax(trunc, 1, 4, "incomplete UTF-8 octet sequence");
	/* as in marks, a byte order mark is not a column */
	check_syntax("\xef\xbb\xbf"
		     "a: \x01\n",
		     1, 4, "control characters are not allowed (U+0001)");
	load_n(&t, bad, sizeof(bad) - 1, NULL);
	f = smp_report_get(t.rep, 0);
	cr_assert_not_null(f);
	cr_assert_str_eq(f->source_line, "b: \xff");
	unload(&t);
	/* a NUL byte inside the buffer is a control character too */
	load_n(&t, "a: \0b\n", 6, NULL);
	assert_only_finding(&t, "syntax", 1, 4,
			    "control characters are not allowed (U+0000)");
	unload(&t);
}

/* Specs are UTF-8: libyaml is not allowed to decode UTF-16. */
Test(load_yaml, utf16_is_rejected)
{
	static const char le[] = "\xff\xfe"
				 "a\0:\0 \0"
				 "1\0";

	struct loaded t;

	load_n(&t, le, sizeof(le) - 1, NULL);
	assert_only_finding(&t, "syntax", 1, 1,
			    "invalid leading UTF-8 octet (byte 0xFF)");
	cr_assert_eq(t.docs.count, 0);
	unload(&t);
}

Test(load_yaml, error_keeps_earlier_documents)
{
	struct loaded t;

	load(&t, "a: 1\n---\nb: 2\n---\nc: [\n");
	cr_assert_eq(t.rc, 0);
	cr_assert_eq(t.docs.count, 2);
	cr_assert(smp__scalar_is(get(root(&t, 1), "b"), "2"));
	cr_assert_eq(smp_report_count(t.rep), 1);
	cr_assert_str_eq(smp_report_get(t.rep, 0)->rule, "syntax");
	cr_assert_str_eq(smp_report_get(t.rep, 0)->message,
			 "did not find expected node content while parsing a "
			 "flow node");
	cr_assert_eq(smp_report_get(t.rep, 0)->line, 6);
	unload(&t);
}

Test(load_yaml, duplicate_keys)
{
	static const char text[] = "top:\n"
				   "  x: 1\n"
				   "  y: 2\n"
				   "  x: 3\n"
				   "  \"y\": 4\n"
				   "  x: 5\n"
				   "  [x]: 6\n"
				   "  [x]: 7\n";
	const struct smp_finding *f;
	struct loaded t;

	load(&t, text);
	cr_assert_eq(t.rc, 0);
	cr_assert_eq(t.docs.count, 1);
	cr_assert_eq(smp_report_count(t.rep), 3);
	f = smp_report_get(t.rep, 0);
	cr_assert_str_eq(f->rule, "duplicate-key");
	cr_assert_str_eq(f->message, "duplicate key 'x' (first at line 2 "
				     "column 3); parsers keep the last value "
				     "silently");
	cr_assert_eq(f->line, 4);
	cr_assert_eq(f->column, 3);
	cr_assert_eq(f->end_column, 4);
	cr_assert_str_eq(f->source_line, "  x: 3");
	cr_assert_str_eq(f->pointer, "/top/x");
	f = smp_report_get(t.rep, 1);
	cr_assert_str_eq(f->message, "duplicate key 'y' (first at line 3 "
				     "column 3); parsers keep the last value "
				     "silently");
	cr_assert_eq(f->line, 5);
	f = smp_report_get(t.rep, 2);
	cr_assert_eq(f->line, 6);
	cr_assert(strstr(f->message, "(first at line 2 column 3)"));
	/* the last value is what lookups see */
	cr_assert(smp__scalar_is(get(get(root(&t, 0), "top"), "x"), "5"));
	unload(&t);
}

Test(load_yaml, duplicate_key_pointer)
{
	static const char text[] = "list:\n"
				   "  - {a: 1}\n"
				   "  - n:\n"
				   "      x/y~: 1\n"
				   "      x/y~: 2\n"
				   "? [k]\n"
				   ": {d: 1, d: 2}\n"
				   "? {e: 1, e: 2}\n"
				   ": v\n";
	const struct smp_finding *f;
	struct loaded t;

	load(&t, text);
	cr_assert_eq(smp_report_count(t.rep), 3);
	f = smp_report_get(t.rep, 0);
	cr_assert_eq(f->line, 5);
	cr_assert_str_eq(f->pointer, "/list/1/n/x~1y~0");
	/* below a non-scalar key there is no JSON Pointer */
	f = smp_report_get(t.rep, 1);
	cr_assert_eq(f->line, 7);
	cr_assert_eq(f->column, 10);
	cr_assert_null(f->pointer);
	/* nor inside a key */
	f = smp_report_get(t.rep, 2);
	cr_assert_eq(f->line, 8);
	cr_assert_eq(f->column, 10);
	cr_assert_null(f->pointer);
	unload(&t);
	/* a first key: no read before the parent's items (found by fuzzing) */
	load(&t, "? {e: 1, e: 2}\n: v\n");
	cr_assert_eq(smp_report_count(t.rep), 1);
	cr_assert_null(smp_report_get(t.rep, 0)->pointer);
	unload(&t);
}

Test(load_yaml, duplicate_key_text_is_quoted_safely)
{
	static const char text[] = "\"a\\tb\": 1\n"
				   "\"a\\tb\": 2\n";
	struct loaded t;
	char *big;
	size_t i;

	load(&t, text);
	cr_assert_eq(smp_report_count(t.rep), 1);
	cr_assert(strstr(smp_report_get(t.rep, 0)->message, "'a\\u0009b'"));
	unload(&t);

	big = malloc(2 * 120 + 16);
	cr_assert_not_null(big);
	for (i = 0; i < 100; i++)
		big[i] = 'k';
	memcpy(big + 100, ": 1\n", 4);
	memcpy(big + 104, big, 100);
	memcpy(big + 204, ": 2\n", 5);
	load(&t, big);
	cr_assert_eq(smp_report_count(t.rep), 1);
	cr_assert(
		strstr(smp_report_get(t.rep, 0)->message,
		       "'kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk"
		       "kkkkkkkkkkk...'"));
	unload(&t);
	free(big);
}

/* 100,000 distinct keys plus two duplicates: sorted, not O(n^2). */
Test(load_yaml, duplicate_keys_in_large_mapping)
{
	size_t n = 100000, cap = n * 16 + 64, len = 0, i;
	struct smp_limits lim = default_limits();
	char *buf = malloc(cap);
	const struct smp_finding *f;
	struct loaded t;

	cr_assert_not_null(buf);
	for (i = 0; i < n; i++)
		len += (size_t)snprintf(buf + len, cap - len, "k%zu: %zu\n", i,
					i);
	len += (size_t)snprintf(buf + len, cap - len, "k77: dup\nk5: dup\n");
	lim.max_nodes = 2 * n + 10;
	load_n(&t, buf, len, &lim);
	cr_assert_eq(t.rc, 0);
	cr_assert_eq(t.docs.count, 1);
	cr_assert_eq(root(&t, 0)->u.mapping.count, n + 2);
	cr_assert_eq(smp_report_count(t.rep), 2);
	f = smp_report_get(t.rep, 0);
	cr_assert_eq(f->line, n + 1);
	cr_assert(strstr(f->message, "'k77' (first at line 78 column 1)"));
	f = smp_report_get(t.rep, 1);
	cr_assert_eq(f->line, n + 2);
	cr_assert(strstr(f->message, "'k5' (first at line 6 column 1)"));
	unload(&t);
	free(buf);
}

/* 10 levels of 10 aliases each: 10^10 nodes if expanded. */
Test(load_yaml, billion_laughs)
{
	char buf[4096];
	size_t len = 0;
	const struct smp_finding *f;
	struct loaded t;
	int i, j;

	len += (size_t)snprintf(buf + len, sizeof(buf) - len,
				"ok: 1\n---\na0: &a0 [lol]\n");
	for (i = 1; i < 10; i++) {
		len += (size_t)snprintf(buf + len, sizeof(buf) - len,
					"a%d: &a%d [", i, i);
		for (j = 0; j < 10; j++)
			len += (size_t)snprintf(buf + len, sizeof(buf) - len,
						"%s*a%d", j ? ", " : "", i - 1);
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "]\n");
	}
	load_n(&t, buf, len, NULL);
	cr_assert_eq(t.rc, 0);
	/* the first document is kept, the expanding one dropped */
	cr_assert_eq(t.docs.count, 1);
	cr_assert_eq(smp_report_count(t.rep), 1);
	f = smp_report_get(t.rep, 0);
	cr_assert_str_eq(f->rule, "input-limit");
	cr_assert_str_eq(f->message, "document expands to more than 100000 "
				     "nodes through aliases (billion laughs?)");
	/* *a4 stands for 21111 nodes: the 4th one on line 8 crosses the
	 * limit; no expansion is ever materialised */
	cr_assert_eq(f->line, 8);
	cr_assert_eq(f->column, 25);
	cr_assert_lt(t.docs.arena.total, 64 * 1024);
	unload(&t);
}

Test(load_yaml, node_limit_without_aliases)
{
	struct smp_limits lim = default_limits();
	struct loaded t;

	lim.max_nodes = 5;
	load_n(&t, "[1, 2, 3, 4]\n", 13, &lim);
	cr_assert_eq(smp_report_count(t.rep), 0);
	cr_assert_eq(t.docs.count, 1);
	unload(&t);
	load_n(&t, "[1, 2, 3, 4, 5]\n", 16, &lim);
	assert_only_finding(&t, "input-limit", 1, 14,
			    "document has more than 5 nodes");
	cr_assert_eq(t.docs.count, 0);
	unload(&t);
}

Test(load_yaml, deep_nesting)
{
	size_t n = 10000, i;
	char *buf = malloc(n + 1);
	struct loaded t;

	cr_assert_not_null(buf);
	memset(buf, '[', n);
	buf[n] = '\0';
	load_n(&t, buf, n, NULL);
	assert_only_finding(&t, "input-limit", 1, 65,
			    "document nests deeper than 64 levels");
	cr_assert_eq(t.docs.count, 0);
	unload(&t);

	/* exactly 64 levels is fine */
	for (i = 0; i < 64; i++)
		buf[64 + i] = ']';
	load_n(&t, buf, 128, NULL);
	cr_assert_eq(smp_report_count(t.rep), 0);
	cr_assert_eq(t.docs.count, 1);
	unload(&t);
	free(buf);
}

Test(load_yaml, long_scalar)
{
	size_t n = 65536;
	char *buf = malloc(n + 16);
	struct loaded t;

	cr_assert_not_null(buf);
	memcpy(buf, "a: 1\nb: ", 8);
	memset(buf + 8, 'x', n);
	load_n(&t, buf, 8 + n, NULL);
	cr_assert_eq(smp_report_count(t.rep), 0);
	cr_assert_eq(get(root(&t, 0), "b")->u.scalar.len, n);
	unload(&t);
	buf[8 + n] = 'x';
	load_n(&t, buf, 9 + n, NULL);
	assert_only_finding(&t, "input-limit", 2, 4,
			    "scalar of 65537 bytes is longer than the limit of "
			    "65536 bytes");
	cr_assert_eq(t.docs.count, 0);
	unload(&t);
	free(buf);
}

Test(load_yaml, too_many_documents)
{
	size_t n = 1001, i, len = 0;
	char *buf = malloc(n * 12);
	struct loaded t;

	cr_assert_not_null(buf);
	for (i = 0; i < n; i++)
		len += (size_t)sprintf(buf + len, "--- %zu\n", i);
	load_n(&t, buf, len, NULL);
	assert_only_finding(&t, "input-limit", 1001, 1,
			    "stream has more than 1000 documents");
	cr_assert_eq(t.docs.count, 1000);
	cr_assert(smp__scalar_is(root(&t, 999), "999"));
	unload(&t);
	load_n(&t, buf, len - 9, NULL);
	cr_assert_eq(smp_report_count(t.rep), 0);
	cr_assert_eq(t.docs.count, 1000);
	unload(&t);
	free(buf);
}

/* A zeroed limits struct means the defaults. */
Test(load_yaml, zero_limits_are_defaults)
{
	struct smp_limits zero = {0, 0, 0, 0, 0};
	char buf[200];
	struct loaded t;

	memset(buf, '[', 65);
	load_n(&t, buf, 65, &zero);
	assert_only_finding(&t, "input-limit", 1, 65,
			    "document nests deeper than 64 levels");
	unload(&t);
}

/* A disabled rule still stops the stream, without a finding. */
Test(load_yaml, disabled_rules)
{
	static const char text[] = "a: 1\na: 2\n---\n[\n";
	enum smp_severity sev[SMP_RULE_COUNT];
	struct smp_allocator a;
	struct smp_report *rep;
	struct smp_docs docs;
	size_t i;

	for (i = 0; i < SMP_RULE_COUNT; i++)
		sev[i] = SMP_SEVERITY_OFF;
	smp__allocator_resolve(&a, NULL);
	smp__docs_init(&docs, &a);
	cr_assert_eq(smp__report_new(&rep, &a, "x.yaml", sev), 0);
	cr_assert_eq(smp__load_yaml(&docs, text, strlen(text), NULL), 0);
	cr_assert_eq(smp__rules_input(rep, &docs), 0);
	cr_assert_eq(smp_report_count(rep), 0);
	cr_assert_eq(docs.count, 1);
	smp__docs_release(&docs);
	smp_report_free(rep);
}

static const char chaos_text[] =
	"a: &x {k: [1, 2, *y]}\n"; /* unknown alias: syntax finding */

static const char chaos_stream[] = "base: &b {x: 1, y: [2, 3]}\n"
				   "copy: *b\n"
				   "k1: 1\nk2: 2\nk3: 3\nk4: 4\nk5: 5\nk6: 6\n"
				   "k7: 7\nk8: 8\nk9: 9\nk10: 10\nk11: 11\n"
				   "k12: 12\nk13: 13\nk14: 14\nk15: 15\n"
				   "k1: dup\n"
				   "t: !custom 'tagged'\n"
				   "---\n"
				   "- &s \"s\"\n"
				   "- *s\n"
				   "---\n"
				   "x: [1, 2\n";

/* Fails the Nth allocation, N = 0, 1, 2, ... until a run succeeds. */
static void
chaos(const char *text)
{
	struct smp_limits lim = default_limits();
	size_t n, len = strlen(text), ok_findings = 0;
	int succeeded = 0;

	for (n = 0; n < 10000 && !succeeded; n++) {
		struct failing_alloc c;
		struct smp_allocator a = fa_allocator(&c);
		struct smp_report *rep = NULL;
		struct smp_docs docs;
		int rc;

		fa_init(&c, (long)n);
		smp__docs_init(&docs, &a);
		if (smp__report_new(&rep, &a, "x.yaml", NULL) == 0) {
			rep->buf = text;
			rep->len = len;
			rc = smp__load_yaml(&docs, text, len, &lim);
			if (rc == 0)
				rc = smp__rules_input(rep, &docs);
			cr_assert(rc == 0 || rc == SMP_ENOMEM, "rc %d", rc);
			if (rc == 0) {
				succeeded = 1;
				ok_findings = smp_report_count(rep);
			}
		}
		smp__docs_release(&docs);
		smp_report_free(rep);
		cr_assert_eq(c.live, 0, "%ld leaked when failing call %zu",
			     c.live, n);
	}
	cr_assert(succeeded);
	cr_assert_gt(n, 3);
	cr_assert_gt(ok_findings, 0);
}

Test(load_yaml, allocation_failure)
{
	chaos(chaos_stream);
	chaos(chaos_text);
}
