/*
 * test_fmt.c - the plain-conversion formatter (lib/util/fmt.h): the same
 * text and return value as snprintf for every conversion it formats
 * itself, for the ones it leaves to vsnprintf, when the text is cut to
 * the buffer, and with no buffer at all.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "util/fmt.h"

/* Formats with both into buffers of size n and compares them (n goes
 * through a volatile: the compiler is not to check the cut texts). */
#define SAME(n, ...)                                                           \
	do {                                                                   \
		char a_[64], b_[64];                                           \
		volatile size_t n_ = (n);                                      \
		int ra_, rb_;                                                  \
                                                                               \
		memset(a_, 'x', sizeof(a_));                                   \
		memset(b_, 'x', sizeof(b_));                                   \
		ra_ = smp__fmt(a_, n_, __VA_ARGS__);                           \
		rb_ = snprintf(b_, n_, __VA_ARGS__);                           \
		cr_assert_eq(ra_, rb_, "return %d, snprintf %d", ra_, rb_);    \
		cr_assert_eq(memcmp(a_, b_, sizeof(a_)), 0, "\"%.*s\"",        \
			     (int)sizeof(a_), a_);                             \
	} while (0)

Test(fmt, plain_conversions_match_snprintf)
{
	SAME(64, "no conversion");
	SAME(64, "%s and '%s'", "one", "");
	SAME(64, "100%% of %c", 'x');
	SAME(64, "%d %d %d", 0, -42, 2147483647);
	SAME(64, "%d", -2147483647 - 1);
	SAME(64, "%u %zu", 4294967295u, (size_t)123456789);
	SAME(64, "%ld %lu", -1234567890L, 1234567890UL);
	SAME(64, "%lld %llu", -9223372036854775807LL - 1,
	     18446744073709551615ULL);
	SAME(64, "[%.*s]", 3, "abcdef");
	SAME(64, "[%.*s]", 9, "abc");
	SAME(64, "%s", "");
}

Test(fmt, other_conversions_go_to_vsnprintf)
{
	const char *volatile none = NULL;

	SAME(64, "%.0f GPUs, %g GiB", 8.0, 40.5);
	SAME(64, "%5d|%-4s|%x", 42, "ab", 255u);
	SAME(64, "%s then %.4g", "text", 0.000123456);
	/* glibc prints "(null)": the formatter leaves that to it */
	SAME(64, "[%s]", none);
}

Test(fmt, cut_to_the_buffer_with_the_whole_length_returned)
{
	SAME(1, "%s", "abc");
	SAME(4, "%s-%d", "abcdef", 12345);
	SAME(8, "%d%d", 1234, 5678);
	SAME(6, "%lld", 123456789012LL);
	SAME(5, "ab%%cd");
	SAME(0, "%s", "nothing written");
}
