/*
 * siphash.c - SipHash-1-3 (see siphash.h), after the reference
 * implementation's description: one compression round per 8-byte word,
 * three finalization rounds.
 */
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "util/siphash.h"

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))

#define SIPROUND(v0, v1, v2, v3)                                               \
	do {                                                                   \
		v0 += v1;                                                      \
		v1 = ROTL(v1, 13);                                             \
		v1 ^= v0;                                                      \
		v0 = ROTL(v0, 32);                                             \
		v2 += v3;                                                      \
		v3 = ROTL(v3, 16);                                             \
		v3 ^= v2;                                                      \
		v0 += v3;                                                      \
		v3 = ROTL(v3, 21);                                             \
		v3 ^= v0;                                                      \
		v2 += v1;                                                      \
		v1 = ROTL(v1, 17);                                             \
		v1 ^= v2;                                                      \
		v2 = ROTL(v2, 32);                                             \
	} while (0)

static uint64_t
load64(const unsigned char *p)
{
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
	       (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 |
	       (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 |
	       (uint64_t)p[7] << 56;
}

uint64_t
smp__siphash(const struct smp_hashkey *key, const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t v0 = 0x736f6d6570736575ULL ^ key->k0;
	uint64_t v1 = 0x646f72616e646f6dULL ^ key->k1;
	uint64_t v2 = 0x6c7967656e657261ULL ^ key->k0;
	uint64_t v3 = 0x7465646279746573ULL ^ key->k1;
	uint64_t b = (uint64_t)len << 56, m;
	size_t left = len & 7, k;

	for (k = 0; k + 8 <= len; k += 8) {
		m = load64(p + k);
		v3 ^= m;
		SIPROUND(v0, v1, v2, v3);
		v0 ^= m;
	}
	for (m = 0; left > 0; left--)
		m |= (uint64_t)p[k + left - 1] << (8 * (left - 1));
	b |= m;
	v3 ^= b;
	SIPROUND(v0, v1, v2, v3);
	v0 ^= b;
	v2 ^= 0xff;
	SIPROUND(v0, v1, v2, v3);
	SIPROUND(v0, v1, v2, v3);
	SIPROUND(v0, v1, v2, v3);
	return v0 ^ v1 ^ v2 ^ v3;
}

void
smp__siphash_seed(struct smp_hashkey *key)
{
	unsigned char raw[16];
	struct timespec ts;
	struct smp_hashkey mix = {0x9e3779b97f4a7c15ULL, 0};

	if (getentropy(raw, sizeof(raw)) == 0) {
		key->k0 = load64(raw);
		key->k1 = load64(raw + 8);
		return;
	}
	/* no random source: the time and this call's addresses */
	clock_gettime(CLOCK_REALTIME, &ts);
	mix.k1 = (uint64_t)(uintptr_t)key ^ (uint64_t)(uintptr_t)&ts;
	key->k0 = smp__siphash(&mix, &ts, sizeof(ts));
	mix.k0 = key->k0;
	key->k1 = smp__siphash(&mix, &mix.k1, sizeof(mix.k1));
}
