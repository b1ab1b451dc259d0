/*
 * test_fingerprint.c - a SARIF fingerprint is the SHA-256 of its key and
 * its occurrence written in decimal (fingerprint.h), whatever the number
 * of digits.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "emit/fingerprint.h"
#include "util/sha256.h"

Test(fingerprint, hex_is_the_digest_of_key_and_decimal_occurrence)
{
	static const size_t occ[] = {0,  1,   9,         10,
				     99, 100, 123456789, (size_t)-1};
	unsigned char key[32], data[32 + 24];
	char got[65], want[65];
	size_t i;

	smp__fingerprint_key(key, "unknown-key", "a/b.yaml", "x:  1", 5);
	for (i = 0; i < sizeof(occ) / sizeof(occ[0]); i++) {
		int n = snprintf((char *)data + 32, 24, "%zu", occ[i]);

		memcpy(data, key, 32);
		smp__sha256_hex(want, data, 32 + (size_t)n);
		smp__fingerprint_hex(got, key, occ[i]);
		cr_assert_str_eq(got, want, "occurrence %zu", occ[i]);
	}
	/* the occurrence tells results of one key apart */
	smp__fingerprint_hex(want, key, 1);
	cr_assert_str_neq(got, want);
}
