/*
 * test_sha256.c - SHA-256 against the FIPS 180-2 appendix B examples and
 * Python's hashlib at the padding boundaries, whole and in pieces.
 */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "util/sha256.h"

static void
expect_hex(const char *data, size_t len, const char *want)
{
	char got[65];

	smp__sha256_hex(got, data, len);
	cr_assert_str_eq(got, want, "len %zu", len);
}

Test(sha256, fips_180_2_one_block)
{
	expect_hex(
		"abc", 3,
		"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015"
		"ad");
}

Test(sha256, fips_180_2_two_blocks)
{
	const char *m =
		"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";

	expect_hex(
		m, strlen(m),
		"248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06"
		"c1");
}

Test(sha256, fips_180_2_million_a)
{
	struct smp_sha256 s;
	unsigned char d[32];
	char a[1000];
	int i;

	memset(a, 'a', sizeof(a));
	smp__sha256_init(&s);
	for (i = 0; i < 1000; i++)
		smp__sha256_update(&s, a, sizeof(a));
	smp__sha256_final(&s, d);
	cr_assert_eq(d[0], 0xcd);
	cr_assert_eq(d[1], 0xc7);
	cr_assert_eq(d[30], 0x2c);
	cr_assert_eq(d[31], 0xd0);
}

Test(sha256, empty_message)
{
	expect_hex(
		"", 0,
		"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b8"
		"55");
}

/* 55/56 bytes: the length still fits the last block / needs another. */
Test(sha256, padding_boundaries)
{
	static const struct {
		size_t len;
		const char *hex;
	} cases[] = {
		{55,
		 "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f"
		 "734318"},
		{56,
		 "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686e"
		 "c6738a"},
		{63,
		 "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457d"
		 "dc2f34"},
		{64,
		 "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df15"
		 "4668eb"},
		{119,
		 "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6"
		 "584dcfb"},
	};
	char a[128];
	size_t i;

	memset(a, 'a', sizeof(a));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		expect_hex(a, cases[i].len, cases[i].hex);
}

/* Any split of the input gives the same digest. */
Test(sha256, pieces_equal_whole)
{
	char *buf = malloc(3000), want[65], got[65];
	static const char hex[] = "0123456789abcdef";
	struct smp_sha256 s;
	unsigned char d[32];
	size_t step, off, n;
	int i;

	cr_assert_not_null(buf);
	for (i = 0; i < 1000; i++)
		memcpy(buf + 3 * i, "abc", 3);
	smp__sha256_hex(want, buf, 3000);
	cr_assert_str_eq(want, "328de8f1895f8bb09f6e6b4c2012ef2b2a6f067cd00279"
			       "4b750aa040a6f6d8bd");
	for (step = 1; step < 200; step += 13) {
		smp__sha256_init(&s);
		for (off = 0; off < 3000; off += n) {
			n = 3000 - off < step ? 3000 - off : step;
			smp__sha256_update(&s, buf + off, n);
		}
		smp__sha256_final(&s, d);
		for (i = 0; i < 32; i++) {
			got[2 * i] = hex[d[i] >> 4];
			got[2 * i + 1] = hex[d[i] & 15];
		}
		got[64] = '\0';
		cr_assert_str_eq(got, want, "step %zu", step);
	}
	free(buf);
}
