/*
 * test_schema_pattern.c - the schemas' "pattern"s through regcomp() and
 * regexec() (lib/schema/pattern.c): every pattern of every built-in
 * schema has strings here that must match and strings that must not, and
 * is checked through the schema that holds it (compiled when the schema
 * is built); a pattern the schemas gain without cases here fails the
 * test. Escapes POSIX leaves undefined ("\d", "\w") and what regcomp()
 * refuses are load errors.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "failing_alloc.h"
#include "schema/schema.h"
#include "schema/internal.h"
#include "util/error.h"

struct pcase {
	const char *pattern;
	const char *const *match;    /* NULL-terminated */
	const char *const *no_match; /* NULL-terminated */
};

static struct failing_alloc counter = FA_INIT;
static const struct smp_allocator alloc = {fa_malloc, fa_realloc, fa_free,
					   &counter};

#define L(...) ((const char *const[]){__VA_ARGS__, NULL})

static const struct pcase cases[] = {
	{"^[a-zA-Z_][a-zA-Z0-9_]*$", L("a", "_x", "Abc_9", "z9"),
	 L("", "9a", "a-b", "a b", "a.b", "\xc3\xa9")},
	{"^[1-9][0-9]*$", L("1", "10", "987"), L("", "0", "01", "1a", "-1")},
	{"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", L("2024-01-31", "0000-00-00"),
	 L("2024-1-31", "24-01-31", "2024-01-311", "2024/01/31", "")},
	{"^ml\\.[a-z0-9-]+\\.[a-z0-9]+$",
	 L("ml.p3.2xlarge", "ml.trn1-n.32xlarge", "ml.g5.xlarge"),
	 L("p3.2xlarge", "ml.p3", "mlxp3.2xlarge", "ml.P3.2xlarge",
	   "ml.p3.2xlarge.", "ml..x")},
	{"^[a-z0-9-]+$", L("a", "p3-dn", "0"), L("", "A", "a_b", "a.b")},
	{"^[0-9]{4}\\.[0-9]{2}\\.[0-9]{2}$", L("2023.10.01"),
	 L("2023-10-01", "2023.1.01", "20231001", "2023.10.01.")},
	{"^[0-9]+(\\.[0-9]+)*$", L("1", "1.13", "2.0.1", "10.20.30.40"),
	 L("", "1.", ".1", "1..2", "1.a", "v1")},
	{"^py[0-9]+$", L("py3", "py310"), L("py", "py3.10", "Py3", "xpy3")},
	{"^[a-z0-9]+(-[a-z0-9]+)*$", L("a", "gpt2", "bert-base-cased"),
	 L("", "-a", "a-", "a--b", "Bert")},
	{"^[A-Za-z0-9_.+-]+$", L("a", "A.b+c-d_e", "1.0+cu118"),
	 L("", "a b", "a/b", "a:b")},
	{"^[0-9]{12}$", L("123456789012"),
	 L("12345678901", "1234567890123", "12345678901a")},
	{"^[0-9]+\\.[0-9]+\\.[0-9]+", L("1.2.3", "10.20.30-rc1", "1.2.3.4"),
	 L("1.2", "v1.2.3", "1..2.3", "")},
	{"^([a-z0-9]+(-[a-z0-9]+)*|ALL)$", L("ALL", "missing-compiler", "a1"),
	 L("All", "ALLx", "ALL-x", "", "-a", "Missing")},
	{"^(/([^~]|~[01])*)+$", L("/", "/a", "/a/b", "/a~0b/~1", "//"),
	 L("", "a", "/~", "/~2", "/a~")},
};

#define NCASES (sizeof(cases) / sizeof(cases[0]))

static const struct pcase *
case_of(const char *pattern)
{
	size_t i;

	for (i = 0; i < NCASES; i++)
		if (strcmp(cases[i].pattern, pattern) == 0)
			return &cases[i];
	return NULL;
}

static void
check_case(const struct pcase *c, const regex_t *rx, const char *schema)
{
	size_t i;

	for (i = 0; c->match[i]; i++)
		cr_expect(smp__pattern_match(rx, c->match[i],
					     strlen(c->match[i])),
			  "%s: '%s' should match '%s'", schema, c->pattern,
			  c->match[i]);
	for (i = 0; c->no_match[i]; i++)
		cr_expect(!smp__pattern_match(rx, c->no_match[i],
					      strlen(c->no_match[i])),
			  "%s: '%s' should not match '%s'", schema, c->pattern,
			  c->no_match[i]);
}

/* Every pattern of every built-in schema, through the schema's own
 * compiled patterns, in the order its nodes index them. */
Test(schema_pattern, every_schema_pattern_conforms)
{
	size_t k, i, seen = 0, used[NCASES] = {0};

	for (k = 0; smp__embedded_schemas[k]; k++) {
		const char *name = smp__embedded_schemas[k]->name;
		struct smp_schema *s = NULL;
		struct smp_error err = {0};

		cr_assert_eq(smp__schema_embedded(&s, &alloc, name, &err), 0,
			     "%s: %s", name, err.message);
		cr_assert_not_null(s);
		cr_assert_eq(s->nrx, s->npatterns, "%s", name);
		for (i = 0; i < s->npatterns; i++) {
			const struct pcase *c = case_of(s->pattern_srcs[i]);

			cr_assert_not_null(c, "%s: pattern '%s' has no cases",
					   name, s->pattern_srcs[i]);
			check_case(c, &s->rx[i], name);
			used[c - cases]++;
			seen++;
		}
		smp__schema_free(s);
	}
	cr_assert_geq(seen, NCASES, "only %zu patterns seen", seen);
	cr_assert_eq(counter.live, 0, "leaked %ld blocks", counter.live);
	for (i = 0; i < NCASES; i++)
		cr_expect(used[i], "'%s' is in no schema: drop its cases",
			  cases[i].pattern);
}

/* Matching is of the whole string given: a NUL inside never matches. */
Test(schema_pattern, nul_byte_never_matches)
{
	regex_t rx;

	cr_assert_eq(smp__pattern_compile(&rx, "^a.c$", NULL, 0), 0);
	cr_assert(smp__pattern_match(&rx, "abc", 3));
	cr_assert(!smp__pattern_match(&rx, "a\0c", 3));
	cr_assert(!smp__pattern_match(&rx, "abcd", 4));
	regfree(&rx);
	/* a search, as regexec() does: unanchored unless '^' or '$' */
	cr_assert_eq(smp__pattern_compile(&rx, "ab", NULL, 0), 0);
	cr_assert(smp__pattern_match(&rx, "aaab", 4));
	cr_assert(!smp__pattern_match(&rx, "aaa", 3));
	regfree(&rx);
}

static void
load_refused(const char *pattern, const char *want)
{
	char json[256];
	struct smp_schema *s = NULL;
	struct smp_error err = {0};
	int rc;

	snprintf(json, sizeof(json),
		 "{\"type\": \"string\", \"pattern\": \"%s\"}", pattern);
	rc = smp__schema_load(&s, &alloc, "t.schema.json", json, strlen(json),
			      &err);
	cr_assert_eq(rc, SMP_EPARSE, "'%s' was accepted", pattern);
	cr_assert_null(s);
	cr_assert_eq(counter.live, 0, "leaked %ld blocks", counter.live);
	cr_assert_not_null(strstr(err.message, "not a POSIX extended regex"),
			   "%s", err.message);
	cr_assert_not_null(strstr(err.message, want), "'%s': %s, want '%s'",
			   pattern, err.message, want);
}

/* JSON text: a backslash is written "\\\\" in C for one in the pattern. */
Test(schema_pattern, refusals)
{
	load_refused("\\\\d+", "write a bracket expression");
	load_refused("^\\\\w+$", "not POSIX");
	load_refused("a\\\\1", "not POSIX");
	load_refused("a\\\\", "lone");
	load_refused("(", "");
	load_refused("[a", "");
	load_refused("a{2,1}", "");
}

Test(schema_pattern, accepted_escapes_compile)
{
	struct smp_schema *s = NULL;
	struct smp_error err = {0};
	const char *json = "{\"type\": \"string\", \"pattern\": "
			   "\"^a\\\\.b\\\\$\\\\\\\\$\"}";

	cr_assert_eq(smp__schema_load(&s, &alloc, "t.schema.json", json,
				      strlen(json), &err),
		     0, "%s", err.message);
	cr_assert_eq(s->npatterns, 1);
	cr_assert(smp__pattern_match(&s->rx[0], "a.b$\\", 5));
	cr_assert(!smp__pattern_match(&s->rx[0], "axb$\\", 5));
	smp__schema_free(s);
	cr_assert_eq(counter.live, 0, "leaked %ld blocks", counter.live);
}
