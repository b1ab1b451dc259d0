/*
 * test_regex.c - the schemas' pattern matcher (lib/schema/regex.c) says
 * what the C library's regexec() says (its automaton, built at load, is
 * exact), for every pattern the schemas use
 * and the constructs of POSIX ERE, on chosen and on generated strings;
 * what it refuses, it refuses with a reason.
 */
#include <criterion/criterion.h>
#include <regex.h>
#include <stdio.h>
#include <string.h>

#include "schema/regex.h"

static const char *const patterns[] = {
	/* the schemas' */
	"^[0-9]+(\\.[0-9]+)*$",
	"^py[0-9]+$",
	"^[a-z0-9-]+$",
	"^[a-zA-Z_][a-zA-Z0-9_]*$",
	"^[1-9][0-9]*$",
	"^ml\\.[a-z0-9-]+\\.[a-z0-9]+$",
	"^[0-9]{4}\\.[0-9]{2}\\.[0-9]{2}$",
	"^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
	"^[a-z0-9]+(-[a-z0-9]+)*$",
	"^[0-9]+\\.[0-9]+\\.[0-9]+",
	"^(/([^~]|~[01])*)+$",
	"^[0-9]{12}$",
	"^[A-Za-z0-9_.+-]+$",
	"^([a-z0-9]+(-[a-z0-9]+)*|ALL)$",
	/* the constructs */
	"",
	"a",
	"ab|cd",
	"^a|b$",
	"(a|b)*c",
	"a?b+c*",
	"a{2}",
	"^a{2,}$",
	"^a{1,3}$",
	"^(ab){0,2}$",
	"^(a*)*$",
	"^(a|)+b$",
	"[]a]",
	"[^]a]",
	"^[a-]+$",
	"^[[:digit:]]+$",
	"^[[:alpha:][:digit:]_]+$",
	"^[^[:space:]]+$",
	"^[[:upper:]][[:lower:]]*$",
	"^[[:xdigit:]]+$",
	"^[[:punct:]]$",
	"x.y",
	"^.*$",
	"\\^\\$\\.\\[\\(\\)\\|\\*\\+\\?\\{\\}\\\\",
	"a$b",
	"()",
	"^(a|b|c|d)(e|f)?$",
};

static const char *const texts[] = {
	"",
	"a",
	"aa",
	"aaa",
	"aaaa",
	"b",
	"ab",
	"abab",
	"ababab",
	"ac",
	"bc",
	"abc",
	"cd",
	"xcd",
	"abd",
	"1",
	"0",
	"10",
	"012",
	"1.2",
	"1.2.3",
	"1.2.",
	"1..2",
	".1",
	"py38",
	"py",
	"ml.p3.2xlarge",
	"ml.p3.",
	"ML.p3.x",
	"ml.g5.48xlarge",
	"2026.01.02",
	"2026-01-02",
	"2026-1-2",
	"123456789012",
	"12345678901",
	"my-rule",
	"my--rule",
	"-rule",
	"rule-",
	"ALL",
	"ALLx",
	"all",
	"/a",
	"/a~0/b~1",
	"/a~2",
	"a/",
	"//",
	"]",
	"]a",
	"-",
	"a-b",
	"A",
	"Ab",
	"AB",
	"_x9",
	"9x",
	"x y",
	"x\ny",
	"x.y",
	"xzy",
	"xy",
	"^$.[()|*+?{}\\",
	"f00D",
	"!",
	" ",
	"\t",
	"e",
	"ae",
	"df",
	"ef",
	"a b",
	"\xc3\xa9t\xc3\xa9",
	"aab",
	"baab",
};

static int
libc_match(const char *pattern, const char *text)
{
	regex_t re;
	int rc;

	cr_assert_eq(regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB), 0,
		     "libc refuses '%s'", pattern);
	rc = regexec(&re, text, 0, NULL, 0) == 0;
	regfree(&re);
	return rc;
}

static int
our_match(const char *pattern, const char *text)
{
	struct smp_rx_buf buf;
	struct smp_rx rx;
	const char *why = NULL;

	cr_assert_eq(smp__rx_compile(pattern, &rx, &buf, &why), 0,
		     "'%s' refused: %s", pattern, why ? why : "?");
	return smp__rx_match(&rx, text, strlen(text));
}

Test(regex, like_regexec_on_chosen_strings)
{
	size_t i, j, compared = 0;

	for (i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++)
		for (j = 0; j < sizeof(texts) / sizeof(texts[0]); j++) {
			cr_assert_eq(our_match(patterns[i], texts[j]),
				     libc_match(patterns[i], texts[j]),
				     "'%s' on '%s'", patterns[i], texts[j]);
			compared++;
		}
	cr_assert_gt(compared, 3000);
}

/* Every string of up to 5 characters over a small alphabet. */
Test(regex, like_regexec_on_generated_strings)
{
	static const char alphabet[] = "a-1.~/";
	static const char *const some[] = {
		"^[0-9]+(\\.[0-9]+)*$",     "^(/([^~]|~[01])*)+$",
		"^[a-z0-9]+(-[a-z0-9]+)*$", "(a|-)*1",
		"^a{1,2}-?[0-9]{0,2}$",     "~[01]|\\.$",
	};
	size_t k = sizeof(alphabet) - 1, p, len, code, total, i;
	char text[8];

	for (p = 0; p < sizeof(some) / sizeof(some[0]); p++) {
		for (len = 0; len <= 5; len++) {
			for (total = 1, i = 0; i < len; i++)
				total *= k;
			for (code = 0; code < total; code++) {
				size_t c = code;

				for (i = 0; i < len; i++, c /= k)
					text[i] = alphabet[c % k];
				text[len] = '\0';
				cr_assert_eq(our_match(some[p], text),
					     libc_match(some[p], text),
					     "'%s' on '%s'", some[p], text);
			}
		}
	}
}

/* Matching is over the bytes given: a NUL is a byte like any other. */
Test(regex, bytes_and_length)
{
	struct smp_rx_buf buf;
	struct smp_rx rx;
	const char *why;

	cr_assert_eq(smp__rx_compile("^a.c$", &rx, &buf, &why), 0);
	cr_assert(smp__rx_match(&rx, "abc", 3));
	cr_assert(!smp__rx_match(&rx, "abcd", 4));
	cr_assert(smp__rx_match(&rx, "abcd", 3));
	cr_assert(!smp__rx_match(&rx, "a\0c", 3), "'.' is never a NUL");
	/* a search: the automaton restarts at every byte */
	cr_assert_eq(smp__rx_compile("ab", &rx, &buf, &why), 0);
	cr_assert(smp__rx_match(&rx, "aaab", 4));
	cr_assert(!smp__rx_match(&rx, "aaa", 3));
}

static void
refused(const char *pattern, const char *want)
{
	struct smp_rx_buf buf;
	struct smp_rx rx;
	const char *why = NULL;

	cr_assert_eq(smp__rx_compile(pattern, &rx, &buf, &why), -1,
		     "'%s' compiled", pattern);
	cr_assert_not_null(why);
	cr_assert_not_null(strstr(why, want), "'%s': '%s', want '%s'", pattern,
			   why, want);
}

Test(regex, refusals)
{
	char big[80];

	refused("(", "'(' is not closed");
	refused("a)", "')' is not opened");
	refused("[a", "'[' is not closed");
	refused("[z-a]", "backwards");
	refused("[[:nope:]]", "unknown character class");
	refused("[[.a.]]", "collating");
	refused("*a", "repetition follows nothing");
	refused("a**", "two repetitions");
	refused("a{", "repetition count");
	refused("a{3,2}", "repetition count");
	refused("a{256}", "too large");
	refused("\\d+", "not POSIX");
	refused("a\\", "ends in");
	refused("(((((((((((((((((((((((((((((((((((((((((((((((((((((((((("
		"((((((((((a))))))))))))))))))))))))))))))))))))))))))))))))"
		"))))))))))))))))))",
		"nest too deeply");
	snprintf(big, sizeof(big), "^[a-z]{200}[0-9]{100}$");
	refused(big, "too long");
	/* 2^9 states: a deterministic automaton would be too large */
	refused("(a|b)*a(a|b){8}", "too complex");
}
