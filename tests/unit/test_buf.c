/*
 * test_buf.c - the byte buffer (lib/util/buf.h): growth, the longest
 * length (a prefix kept, the failure sticky), fixed storage, printf
 * output longer than its scratch, taking the content, and the failures
 * of the allocator (failing_alloc.h: every call that can fail, in turn).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "util/alloc.h"
#include "util/buf.h"

#include "failing_alloc.h"

static struct smp_allocator
plain(void)
{
	struct smp_allocator a;

	smp__allocator_resolve(&a, NULL);
	return a;
}

Test(buf, empty_is_an_empty_string_and_allocates_nothing)
{
	struct failing_alloc fa = FA_INIT;
	struct smp_allocator a = fa_allocator(&fa);
	struct smp_buf b;

	smp__buf_init(&b, &a, SMP_BUF_NO_MAX);
	cr_assert_str_eq(smp__buf_str(&b), "");
	cr_assert_eq(smp__buf_add(&b, "", 0), 0);
	cr_assert_eq(b.len, 0);
	cr_assert_eq(fa.calls, 0);
	smp__buf_free(&b);
	cr_assert_eq(fa.live, 0);
}

Test(buf, grows_by_doubling_and_stays_terminated)
{
	struct smp_allocator a = plain();
	struct smp_buf b;
	char want[5000];
	size_t i, last_cap = 0, growths = 0;

	smp__buf_init(&b, &a, SMP_BUF_NO_MAX);
	for (i = 0; i < sizeof(want) - 1; i++) {
		want[i] = (char)('a' + i % 26);
		cr_assert_eq(smp__buf_addc(&b, want[i]), 0);
		cr_assert_eq(b.data[b.len], '\0');
		if (b.cap != last_cap) {
			cr_assert_gt(b.cap, last_cap);
			last_cap = b.cap;
			growths++;
		}
	}
	want[i] = '\0';
	cr_assert_str_eq(smp__buf_str(&b), want);
	cr_assert_eq(b.len, sizeof(want) - 1);
	/* 64, 128, ... 8192: a handful of reallocations, not one a byte */
	cr_assert_leq(growths, 8, "%zu growths", growths);
	cr_assert_eq(smp__buf_error(&b), 0);
	smp__buf_free(&b);
	cr_assert_null(b.data);
	cr_assert_eq(b.len, 0);
}

Test(buf, adds_strings_bytes_and_printf)
{
	struct smp_allocator a = plain();
	struct smp_buf b;

	smp__buf_init(&b, &a, SMP_BUF_NO_MAX);
	smp__buf_adds(&b, "key ");
	smp__buf_add(&b, "'x'zzz", 3);
	smp__buf_addc(&b, ':');
	smp__buf_addf(&b, " %d of %s", 3, "four");
	cr_assert_str_eq(smp__buf_str(&b), "key 'x': 3 of four");
	smp__buf_free(&b);
}

Test(buf, printf_longer_than_its_scratch)
{
	struct smp_allocator a = plain();
	struct smp_buf b;
	char big[3001];

	memset(big, 'q', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	smp__buf_init(&b, &a, SMP_BUF_NO_MAX);
	smp__buf_adds(&b, "<");
	cr_assert_eq(smp__buf_addf(&b, "%s>%d", big, 7), 0);
	cr_assert_eq(b.len, 1 + 3000 + 2);
	cr_assert_eq(b.data[0], '<');
	cr_assert_eq(memcmp(b.data + 1, big, 3000), 0);
	cr_assert_str_eq(b.data + 3001, ">7");
	smp__buf_free(&b);
}

Test(buf, max_keeps_the_prefix_and_fails_sticky)
{
	struct smp_allocator a = plain();
	struct smp_buf b;

	smp__buf_init(&b, &a, 10);
	cr_assert_eq(smp__buf_adds(&b, "0123456"), 0);
	cr_assert_eq(smp__buf_adds(&b, "789abc"), SMP_ELIMIT);
	cr_assert_str_eq(smp__buf_str(&b), "0123456789");
	cr_assert(b.cut);
	cr_assert_not(b.oom);
	cr_assert_leq(b.cap, 11);
	/* sticky: nothing more is added, short or long */
	cr_assert_eq(smp__buf_addc(&b, 'x'), SMP_ELIMIT);
	cr_assert_eq(smp__buf_addf(&b, "%d", 1), SMP_ELIMIT);
	cr_assert_str_eq(smp__buf_str(&b), "0123456789");
	cr_assert_eq(smp__buf_error(&b), SMP_ELIMIT);
	/* reset clears the flag and keeps the memory */
	smp__buf_reset(&b);
	cr_assert_eq(smp__buf_error(&b), 0);
	cr_assert_eq(smp__buf_adds(&b, "0123456789"), 0);
	cr_assert_eq(smp__buf_addc(&b, 'x'), SMP_ELIMIT);
	cr_assert_str_eq(smp__buf_str(&b), "0123456789");
	smp__buf_free(&b);
}

Test(buf, max_cuts_long_printf_output_too)
{
	struct smp_allocator a = plain();
	struct smp_buf b;
	char big[600];

	memset(big, 'z', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	smp__buf_init(&b, &a, 300);
	smp__buf_adds(&b, "ab");
	cr_assert_eq(smp__buf_addf(&b, "%s", big), SMP_ELIMIT);
	cr_assert_eq(b.len, 300);
	cr_assert_eq(strlen(b.data), 300);
	cr_assert_eq(memcmp(b.data, "abzzz", 5), 0);
	smp__buf_free(&b);
}

Test(buf, max_zero_holds_nothing)
{
	struct failing_alloc fa = FA_INIT;
	struct smp_allocator a = fa_allocator(&fa);
	struct smp_buf b;

	smp__buf_init(&b, &a, 0);
	cr_assert_eq(smp__buf_addc(&b, 'x'), SMP_ELIMIT);
	cr_assert_str_eq(smp__buf_str(&b), "");
	cr_assert_eq(fa.calls, 0);
	smp__buf_free(&b);
}

Test(buf, fixed_storage_never_allocates_and_cuts_like_snprintf)
{
	char mem[8];
	struct smp_buf b;

	smp__buf_init_fixed(&b, mem, sizeof(mem));
	cr_assert_str_eq(smp__buf_str(&b), "");
	cr_assert_eq(smp__buf_adds(&b, "abc"), 0);
	cr_assert_eq(smp__buf_addf(&b, "%d", 1234567), SMP_ELIMIT);
	/* what snprintf(mem, 8, "abc%d", 1234567) would have left */
	cr_assert_str_eq(mem, "abc1234");
	cr_assert_eq(b.len, 7);
	cr_assert_eq(smp__buf_addc(&b, 'x'), SMP_ELIMIT);
	smp__buf_reset(&b);
	cr_assert_str_eq(mem, "");
	cr_assert_eq(smp__buf_adds(&b, "1234567"), 0);
	cr_assert_str_eq(mem, "1234567");
	/* free is a no-op for the caller's storage */
	smp__buf_free(&b);
	cr_assert_eq(b.data, mem);
	cr_assert_null(smp__buf_take(&b, NULL));
}

Test(buf, take_hands_over_the_memory)
{
	struct failing_alloc fa = FA_INIT;
	struct smp_allocator a = fa_allocator(&fa);
	struct smp_buf b;
	size_t len = 99;
	char *p;

	smp__buf_init(&b, &a, SMP_BUF_NO_MAX);
	smp__buf_adds(&b, "hello");
	p = smp__buf_take(&b, &len);
	cr_assert_str_eq(p, "hello");
	cr_assert_eq(len, 5);
	cr_assert_null(b.data);
	cr_assert_eq(b.len, 0);
	smp__free(&a, p);
	/* an empty buffer hands over an allocated "" */
	p = smp__buf_take(&b, &len);
	cr_assert_not_null(p);
	cr_assert_str_eq(p, "");
	cr_assert_eq(len, 0);
	smp__free(&a, p);
	/* a cut buffer hands over nothing, and is freed */
	smp__buf_init(&b, &a, 2);
	smp__buf_adds(&b, "abc");
	cr_assert_null(smp__buf_take(&b, &len));
	cr_assert_eq(fa.live, 0);
}

/* Builds a text of several growths and printf pieces; each allocation in
 * turn fails: the buffer says SMP_ENOMEM, stays a valid prefix, adds
 * nothing more, and frees all. */
Test(buf, every_allocation_failure_is_sticky_enomem)
{
	struct failing_alloc fa = FA_INIT;
	struct smp_allocator a = fa_allocator(&fa);
	long n, total = 0;

	for (n = 0;; n++) {
		struct smp_buf b;
		size_t i, before;
		int rc = 0;

		fa_init(&fa, n);
		smp__buf_init(&b, &a, SMP_BUF_NO_MAX);
		for (i = 0; i < 200 && !rc; i++)
			rc = smp__buf_addf(&b, "piece %zu of a longer text; ",
					   i);
		if (!fa.failed) {
			cr_assert_eq(rc, 0);
			cr_assert_eq(smp__buf_error(&b), 0);
			total = fa.calls;
			smp__buf_free(&b);
			cr_assert_eq(fa.live, 0);
			break;
		}
		cr_assert_eq(rc, SMP_ENOMEM, "failing call %ld", n);
		cr_assert(b.oom);
		cr_assert_not(b.cut);
		cr_assert_eq(strlen(smp__buf_str(&b)), b.len);
		cr_assert_eq(strncmp(smp__buf_str(&b), "piece 0 of",
				     b.len < 10 ? b.len : 10),
			     0);
		before = b.len;
		fa_arm(&fa, FA_NEVER);
		cr_assert_eq(smp__buf_adds(&b, "more"), SMP_ENOMEM);
		cr_assert_eq(b.len, before);
		cr_assert_null(smp__buf_take(&b, NULL));
		cr_assert_eq(fa.calls, 0);
		cr_assert_eq(fa.live, 0);
	}
	cr_assert_gt(total, 3, "%ld allocations", total);
}

/* The one JSON string writer: short escapes, \u00XX for the other control
 * characters and the JavaScript line ends, U+FFFD for a broken sequence,
 * null for NULL; UTF-8 passes as it is. */
Test(buf, json_string)
{
	char mem[128];
	struct smp_buf b;

	smp__buf_init_fixed(&b, mem, sizeof(mem));
	smp__buf_json_string(&b, "a\"b\\c\n\t\x01\xE2\x80\xA8\xC3\xA9\xFF");
	cr_expect_str_eq(
		smp__buf_str(&b),
		"\"a\\\"b\\\\c\\n\\t\\u0001\\u2028\xC3\xA9\xEF\xBF\xBD\"");
	smp__buf_reset(&b);
	smp__buf_json_string(&b, NULL);
	smp__buf_json_string(&b, "");
	cr_expect_str_eq(smp__buf_str(&b), "null\"\"");
}

/* Plain text goes out eight bytes at a time: each byte that needs an
 * escape, at every place in and across those words, is still escaped,
 * and bytes that look alike to a word-wide test (0x7F, 0xA2, 0xDC, 0x20,
 * 0x21, 0x23, 0x5B, 0x5D) pass or are decoded as before. */
Test(buf, json_string_words)
{
	static const char *const special[] = {"\"",   "\\",           "\n",
					      "\x1f", "\xE2\x80\xA9", "\xFF"};
	static const char *const escaped[] = {
		"\\\"", "\\\\", "\\n", "\\u001F", "\\u2029", "\xEF\xBF\xBD"};
	static const char plain[] = "abc \x7f!#[]~0123456789ABCDEFGHIJ";
	char mem[256], in[64], want[128];
	struct smp_buf b;
	size_t k, at;

	smp__buf_init_fixed(&b, mem, sizeof(mem));
	smp__buf_json_string(&b, plain);
	snprintf(want, sizeof(want), "\"%s\"", plain);
	cr_assert_str_eq(smp__buf_str(&b), want);
	for (k = 0; k < sizeof(special) / sizeof(special[0]); k++)
		for (at = 0; at < 20; at++) {
			snprintf(in, sizeof(in), "%.*s%s%s", (int)at, plain,
				 special[k], plain + at);
			snprintf(want, sizeof(want), "\"%.*s%s%s\"", (int)at,
				 plain, escaped[k], plain + at);
			smp__buf_reset(&b);
			smp__buf_json_string(&b, in);
			cr_assert_str_eq(smp__buf_str(&b), want, "%zu at %zu",
					 k, at);
		}
	/* non-ASCII that needs no escape passes as it is */
	smp__buf_reset(&b);
	smp__buf_json_string(&b, "\xC2\xA2\xC3\x9C..........\xC3\xA9");
	cr_assert_str_eq(smp__buf_str(&b),
			 "\"\xC2\xA2\xC3\x9C..........\xC3\xA9\"");
}
