/*
 * test_emit_artifact.c - what SARIF's locations and fingerprints are made
 * of: absolute paths normalized as text, file names made relative to the
 * source root (or left absolute outside it), source lines with their
 * whitespace collapsed, and fingerprint keys that depend on rule, path,
 * line text and occurrence only.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "emit/artifact.h"
#include "emit/fingerprint.h"
#include "util/alloc.h"

static const char *
norm(const char *path)
{
	static char buf[256];

	cr_assert_lt(strlen(path), sizeof(buf));
	strcpy(buf, path);
	smp__path_normalize(buf);
	return buf;
}

Test(emit_artifact, absolute_paths_are_normalized_as_text)
{
	cr_assert_str_eq(norm("/a/b/c"), "/a/b/c");
	cr_assert_str_eq(norm("/a//b/./c/"), "/a/b/c");
	cr_assert_str_eq(norm("/a/b/../c"), "/a/c");
	cr_assert_str_eq(norm("/a/../../c"), "/c");
	cr_assert_str_eq(norm("/.."), "/");
	cr_assert_str_eq(norm("/"), "/");
	cr_assert_str_eq(norm("//"), "/");
	cr_assert_str_eq(norm("/a/..b/.c"), "/a/..b/.c");
	/* a relative path is no business of it */
	cr_assert_str_eq(norm("./a/../b"), "./a/../b");
}

/* file resolved against root and base; *in_root set. */
static const char *
resolve(const char *root, const char *base, const char *file, int *in_root)
{
	static char buf[256];
	struct smp_allocator a;
	struct smp__artifact art;

	cr_assert_eq(smp__allocator_resolve(&a, NULL), 0);
	cr_assert_eq(smp__artifact_resolve(&art, &a, root, base, file), 0);
	cr_assert_lt(strlen(art.path), sizeof(buf));
	strcpy(buf, art.path);
	*in_root = art.in_root;
	smp__artifact_release(&art, &a);
	return buf;
}

Test(emit_artifact, files_below_the_root_are_relative_to_it)
{
	int in;

	cr_assert_str_eq(resolve("/src/repo", "/src/repo", "jobs/a.yaml", &in),
			 "jobs/a.yaml");
	cr_assert(in);
	cr_assert_str_eq(
		resolve("/src/repo", "/src/repo/jobs", "./x/../a b.yaml", &in),
		"jobs/a b.yaml");
	cr_assert(in);
	cr_assert_str_eq(
		resolve("/src/repo", "/elsewhere", "/src/repo/j/a.yaml", &in),
		"j/a.yaml");
	cr_assert(in);
	/* no base: relative names are relative to the root */
	cr_assert_str_eq(resolve("/src/repo", NULL, "a.yaml", &in), "a.yaml");
	cr_assert(in);
	/* the filesystem root holds everything */
	cr_assert_str_eq(resolve("/", "/", "/etc/a.yaml", &in), "etc/a.yaml");
	cr_assert(in);
}

Test(emit_artifact, files_outside_the_root_stay_absolute)
{
	int in;

	cr_assert_str_eq(resolve("/src/repo", "/src/repo", "../b/a.yaml", &in),
			 "/src/b/a.yaml");
	cr_assert_not(in);
	/* a prefix of the name is not a parent folder */
	cr_assert_str_eq(resolve("/src/repo", "/", "/src/repo2/a.yaml", &in),
			 "/src/repo2/a.yaml");
	cr_assert_not(in);
	cr_assert_str_eq(resolve("/src/repo", "/src", "repo", &in),
			 "/src/repo");
	cr_assert_not(in);
}

Test(emit_artifact, without_a_root_or_for_stdin_names_stay_as_given)
{
	int in;

	cr_assert_str_eq(resolve(NULL, NULL, "./jobs/a.yaml", &in),
			 "jobs/a.yaml");
	cr_assert_not(in);
	cr_assert_str_eq(resolve(NULL, "/x", "/abs/a.yaml", &in),
			 "/abs/a.yaml");
	cr_assert_not(in);
	cr_assert_str_eq(resolve("/src/repo", "/src/repo", "<stdin>", &in),
			 "<stdin>");
	cr_assert_not(in);
}

static const char *
line(const char *s)
{
	static char buf[256];

	cr_assert_lt(strlen(s ? s : ""), sizeof(buf));
	smp__line_normalize(buf, s);
	return buf;
}

Test(emit_artifact, source_lines_collapse_whitespace)
{
	cr_assert_str_eq(line("  instance_type:\t ml.p3.2xlarge  \r\n"),
			 "instance_type: ml.p3.2xlarge");
	cr_assert_str_eq(line("a\v\fb"), "a b");
	cr_assert_str_eq(line(" \t "), "");
	cr_assert_str_eq(line(NULL), "");
	cr_assert_eq(smp__line_normalize((char[8]){0}, "x  y"), 3);
}

static void
fp(char out[65], const char *rule, const char *path, const char *text,
   size_t occurrence)
{
	smp__fingerprint_hex(
		out, smp__fingerprint_key(rule, path, text, strlen(text)),
		occurrence);
}

Test(emit_artifact, fingerprints_name_rule_path_line_text_and_occurrence)
{
	char a[65], b[65];
	size_t i;

	fp(a, "compiler-debug", "jobs/a.yaml", "  debug: true", 0);
	cr_assert_eq(strlen(a), 18);
	for (i = 0; i < 16; i++)
		cr_assert(strchr("0123456789abcdef", a[i]), "%s", a);
	cr_assert_str_eq(a + 16, ":0");
	/* whitespace is not part of it */
	fp(b, "compiler-debug", "jobs/a.yaml", "debug:   true\n", 0);
	cr_assert_str_eq(a, b);
	/* each of rule, path, text and occurrence is */
	fp(b, "short-run", "jobs/a.yaml", "debug: true", 0);
	cr_assert_str_neq(a, b);
	fp(b, "compiler-debug", "jobs/b.yaml", "debug: true", 0);
	cr_assert_str_neq(a, b);
	fp(b, "compiler-debug", "jobs/a.yaml", "debug: false", 0);
	cr_assert_str_neq(a, b);
	fp(b, "compiler-debug", "jobs/a.yaml", "debug: true", 1);
	cr_assert_str_neq(a, b);
	/* the fields do not run into each other */
	fp(a, "ab", "c", "d", 0);
	fp(b, "a", "bc", "d", 0);
	cr_assert_str_neq(a, b);
}

/* The fingerprint of a finding at column of line, by its window. */
static void
fp_at(char out[65], const char *line, uint32_t column)
{
	struct smp__fp_cursor c;
	const char *text;
	size_t n;

	memset(&c, 0, sizeof(c));
	n = smp__fingerprint_text(&c, line, column, &text);
	cr_assert_leq(n, SMP_FINGERPRINT_WINDOW);
	smp__fingerprint_hex(
		out, smp__fingerprint_key("unknown-key", "a.json", text, n), 0);
}

Test(emit_artifact, long_lines_are_fingerprinted_by_a_window)
{
	enum { LEN = 100000 };
	struct smp__fp_cursor c;
	char *line = malloc(LEN + 1), *other = malloc(LEN + 1);
	char a[65], b[65], whole[65];
	const char *text;
	size_t i, n;

	cr_assert(line && other);
	/* a short line is fingerprinted whole, as before */
	memset(&c, 0, sizeof(c));
	n = smp__fingerprint_text(&c, "  debug: true", 9, &text);
	cr_assert_eq(n, strlen("  debug: true"));
	fp_at(a, "  debug: true", 9);
	fp(whole, "unknown-key", "a.json", "  debug: true", 0);
	cr_assert_str_eq(a, whole);
	for (i = 0; i < LEN; i++)
		line[i] = (char)('a' + i % 23);
	line[LEN] = '\0';
	memcpy(other, line, LEN + 1);
	/* text far from the column is not part of it, text near it is */
	other[10] = '#';
	fp_at(a, line, 50000);
	fp_at(b, other, 50000);
	cr_assert_str_eq(a, b);
	other[50010] = '#';
	fp_at(b, other, 50000);
	cr_assert_str_neq(a, b);
	fp_at(b, line, 20000);
	cr_assert_str_neq(a, b);
	/* one cursor over a line's findings in column order, or back */
	memset(&c, 0, sizeof(c));
	cr_assert_eq(smp__fingerprint_text(&c, line, 20000, &text),
		     SMP_FINGERPRINT_WINDOW);
	cr_assert_eq(text, line + 20000 - 1 - SMP_FINGERPRINT_WINDOW / 2);
	smp__fingerprint_text(&c, line, 50000, &text);
	cr_assert_eq(text, line + 50000 - 1 - SMP_FINGERPRINT_WINDOW / 2);
	smp__fingerprint_text(&c, line, 3, &text);
	cr_assert_eq(text, line);
	/* the window never starts or ends inside a UTF-8 character */
	for (i = 0; i + 1 < LEN; i += 2) {
		line[i] = (char)0xC3;
		line[i + 1] = (char)0xA9; /* é */
	}
	memset(&c, 0, sizeof(c));
	n = smp__fingerprint_text(&c, line, 30000, &text);
	cr_assert_eq(((unsigned char)text[0] & 0xC0), 0xC0);
	cr_assert_eq(((unsigned char)text[n] & 0xC0), 0xC0);
	cr_assert_eq(text, line + 2 * (30000 - 1) - SMP_FINGERPRINT_WINDOW / 2);
	free(line);
	free(other);
}
