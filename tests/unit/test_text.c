/*
 * test_text.c - util/text.c's edit distance: the letter-count bound that
 * answers most pairs before the table never changes an answer within the
 * limit, nor says within for a pair that is not (checked against the
 * table alone over random words), and its known values.
 */
#include <criterion/criterion.h>
#include <ctype.h>
#include <stdint.h>
#include <string.h>

#include "util/text.h"

/* The optimal string alignment distance, the whole table, no shortcut. */
static size_t
reference(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, d[20][20];

	for (i = 0; i <= la; i++)
		d[i][0] = i;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		for (j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]);
			int cb = tolower((unsigned char)b[j - 1]);
			size_t v = d[i - 1][j] + 1;

			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (d[i - 1][j - 1] + (ca != cb) < v)
				v = d[i - 1][j - 1] + (ca != cb);
			if (i > 1 && j > 1 &&
			    ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	}
	return d[la][lb];
}

static uint64_t
next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

Test(text, edit_distance_known_values)
{
	cr_assert_eq(smp__edit_distance("compiler_config", "compiler_confg", 2),
		     1);
	cr_assert_eq(smp__edit_distance("compiler_config", "compilerconfig", 2),
		     1);
	cr_assert_eq(
		smp__edit_distance("Compiler_Config", "compiler_config", 2), 0);
	cr_assert_eq(smp__edit_distance("ab", "ba", 2), 1);
	/* same letters, far apart: the bound lets the table answer */
	cr_assert_eq(smp__edit_distance("abcd", "dcba", 2), 3);
	/* other letters: over the limit without the table */
	cr_assert_eq(
		smp__edit_distance("hyperparameters", "compiler_config", 2), 3);
}

/* Words over a small alphabet, so that close pairs are common. */
Test(text, edit_distance_bound_changes_no_answer)
{
	static const char alphabet[] = "abcdeABC_";
	uint64_t s = 7;
	char a[19], b[19];
	size_t n, i, limit;

	for (n = 0; n < 200000; n++) {
		size_t la = next_rand(&s) % 18, lb;

		for (i = 0; i < la; i++)
			a[i] = alphabet[next_rand(&s) % (sizeof(alphabet) - 1)];
		a[la] = '\0';
		/* b: a with a few edits, or a word of its own */
		memcpy(b, a, la + 1);
		lb = la;
		for (i = next_rand(&s) % 4; i > 0 && lb > 0 && lb < 18; i--) {
			size_t at = next_rand(&s) % lb;

			b[at] = alphabet[next_rand(&s) %
					 (sizeof(alphabet) - 1)];
		}
		if (next_rand(&s) % 3 == 0) {
			lb = next_rand(&s) % 18;
			for (i = 0; i < lb; i++)
				b[i] = alphabet[next_rand(&s) %
						(sizeof(alphabet) - 1)];
			b[lb] = '\0';
		}
		limit = next_rand(&s) % 4;
		{
			size_t want = reference(a, b);
			size_t got = smp__edit_distance(a, b, limit);

			/* over the limit is all a caller reads then */
			if (want > limit)
				cr_assert_gt(got, limit, "'%s' '%s' limit %zu",
					     a, b, limit);
			else
				cr_assert_eq(got, want, "'%s' '%s' limit %zu",
					     a, b, limit);
		}
	}
}
