/*
 * test_siphash.c - the keyed hash of the evaluator's tables: the same key
 * and input give the same hash, another key another one, every input
 * byte and the length count, and two seeds differ.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "util/siphash.h"

Test(siphash, keyed_and_deterministic)
{
	struct smp_hashkey a = {1, 2}, b = {1, 3};
	const char *s = "hyperparameters";

	cr_assert_eq(smp__siphash(&a, s, strlen(s)),
		     smp__siphash(&a, s, strlen(s)));
	cr_assert_neq(smp__siphash(&a, s, strlen(s)),
		      smp__siphash(&b, s, strlen(s)));
}

Test(siphash, every_byte_and_the_length_count)
{
	struct smp_hashkey k = {0x0706050403020100ULL, 0x0f0e0d0c0b0a0908ULL};
	unsigned char buf[32];
	uint64_t seen[64];
	size_t n = 0, i, j;

	memset(buf, 0, sizeof(buf));
	/* the empty input, then lengths 1..31 of zeros: all distinct */
	for (i = 0; i < sizeof(buf); i++)
		seen[n++] = smp__siphash(&k, buf, i);
	/* one bit flipped at each position of a 31-byte input */
	for (i = 0; i < 31; i++) {
		buf[i] = 1;
		seen[n++] = smp__siphash(&k, buf, 31);
		buf[i] = 0;
	}
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			cr_assert_neq(seen[i], seen[j], "%zu and %zu", i, j);
}

Test(siphash, seeds_differ)
{
	struct smp_hashkey a, b;

	smp__siphash_seed(&a);
	smp__siphash_seed(&b);
	cr_assert(a.k0 != b.k0 || a.k1 != b.k1);
}
