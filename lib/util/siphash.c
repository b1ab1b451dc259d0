/*
 * siphash.c - SipHash-1-3 (see siphash.h), after the reference
 * implementation's description: one compression round per 8-byte word,
 * three finalization rounds.
 */
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "util/siphash.h"

static uint64_t
rotl(uint64_t x, int b)
{
	return (x << b) | (x >> (64 - b));
}

static void
sipround(uint64_t v[4])
{
	v[0] += v[1];
	v[1] = rotl(v[1], 13);
	v[1] ^= v[0];
	v[0] = rotl(v[0], 32);
	v[2] += v[3];
	v[3] = rotl(v[3], 16);
	v[3] ^= v[2];
	v[0] += v[3];
	v[3] = rotl(v[3], 21);
	v[3] ^= v[0];
	v[2] += v[1];
	v[1] = rotl(v[1], 17);
	v[1] ^= v[2];
	v[2] = rotl(v[2], 32);
}

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
	uint64_t v[4], b = (uint64_t)len << 56, m;
	size_t left = len & 7, k;

	v[0] = 0x736f6d6570736575ULL ^ key->k0;
	v[1] = 0x646f72616e646f6dULL ^ key->k1;
	v[2] = 0x6c7967656e657261ULL ^ key->k0;
	v[3] = 0x7465646279746573ULL ^ key->k1;
	for (k = 0; k + 8 <= len; k += 8) {
		m = load64(p + k);
		v[3] ^= m;
		sipround(v);
		v[0] ^= m;
	}
	for (m = 0; left > 0; left--)
		m |= (uint64_t)p[k + left - 1] << (8 * (left - 1));
	b |= m;
	v[3] ^= b;
	sipround(v);
	v[0] ^= b;
	v[2] ^= 0xff;
	sipround(v);
	sipround(v);
	sipround(v);
	return v[0] ^ v[1] ^ v[2] ^ v[3];
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
