/*
 * test_fingerprint.c - a SARIF fingerprint key is the SipHash-1-3, with
 * the fixed fingerprint key, of rule, path and normalized text each ended
 * by a NUL; the fingerprint is that key in hex, a colon and its
 * occurrence in decimal (fingerprint.h), whatever the number of digits.
 */
#include <criterion/criterion.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "emit/fingerprint.h"
#include "util/siphash.h"

Test(fingerprint, key_is_the_siphash_of_the_fields_each_ended_by_nul)
{
	static const struct smp_hashkey k = {SMP_FINGERPRINT_K0,
					     SMP_FINGERPRINT_K1};
	static const char joined[] = "unknown-key\0a/b.yaml\0x: 1";

	/* whitespace runs are one space, none at either end */
	cr_assert_eq(
		smp__fingerprint_key("unknown-key", "a/b.yaml", " x:  1\t", 7),
		smp__siphash(&k, joined, sizeof(joined)));
}

Test(fingerprint, hex_is_the_key_and_the_decimal_occurrence)
{
	static const size_t occ[] = {0,  1,   9,         10,
				     99, 100, 123456789, (size_t)-1};
	uint64_t key = smp__fingerprint_key("unknown-key", "a/b.yaml", "x", 1);
	char got[SMP_FINGERPRINT_SIZE], want[64];
	size_t i;

	for (i = 0; i < sizeof(occ) / sizeof(occ[0]); i++) {
		snprintf(want, sizeof(want), "%016" PRIx64 ":%zu", key, occ[i]);
		smp__fingerprint_hex(got, key, occ[i]);
		cr_assert_str_eq(got, want, "occurrence %zu", occ[i]);
		cr_assert_lt(strlen(got), SMP_FINGERPRINT_SIZE);
	}
	/* a small key keeps its leading zeros */
	smp__fingerprint_hex(got, 0xabcULL, 3);
	cr_assert_str_eq(got, "0000000000000abc:3");
}

/* The hash of data given in pieces is the hash of the pieces joined,
 * whatever the cut (across a word, at its end, empty pieces). */
Test(fingerprint, siphash_in_pieces_is_siphash_of_the_whole)
{
	static const struct smp_hashkey k = {1, 2};
	unsigned char data[40];
	size_t cut, cut2;

	for (cut = 0; cut < sizeof(data); cut++)
		data[cut] = (unsigned char)(cut * 37 + 1);
	for (cut = 0; cut <= sizeof(data); cut++)
		for (cut2 = cut; cut2 <= sizeof(data); cut2 += 3) {
			struct smp_siphash s;

			smp__siphash_init(&s, &k);
			smp__siphash_update(&s, data, cut);
			smp__siphash_update(&s, data + cut, 0);
			smp__siphash_update(&s, data + cut, cut2 - cut);
			smp__siphash_update(&s, data + cut2,
					    sizeof(data) - cut2);
			cr_assert_eq(smp__siphash_final(&s),
				     smp__siphash(&k, data, sizeof(data)),
				     "cut at %zu, %zu", cut, cut2);
		}
}
