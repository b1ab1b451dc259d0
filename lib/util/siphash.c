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

void
smp__siphash_init(struct smp_siphash *s, const struct smp_hashkey *key)
{
	s->v[0] = 0x736f6d6570736575ULL ^ key->k0;
	s->v[1] = 0x646f72616e646f6dULL ^ key->k1;
	s->v[2] = 0x6c7967656e657261ULL ^ key->k0;
	s->v[3] = 0x7465646279746573ULL ^ key->k1;
	s->ntail = 0;
	s->len = 0;
}

/* One 8-byte word of the message. */
static void
compress(uint64_t v[4], uint64_t m)
{
	v[3] ^= m;
	sipround(v);
	v[0] ^= m;
}

void
smp__siphash_update(struct smp_siphash *s, const void *data, size_t n)
{
	const unsigned char *p = data;

	s->len += n;
	if (s->ntail) {
		size_t take = 8 - s->ntail < n ? 8 - s->ntail : n;

		memcpy(s->tail + s->ntail, p, take);
		s->ntail += take;
		p += take;
		n -= take;
		if (s->ntail < 8)
			return;
		compress(s->v, load64(s->tail));
		s->ntail = 0;
	}
	for (; n >= 8; p += 8, n -= 8)
		compress(s->v, load64(p));
	memcpy(s->tail, p, n);
	s->ntail = n;
}

uint64_t
smp__siphash_final(struct smp_siphash *s)
{
	uint64_t b = (uint64_t)s->len << 56;
	size_t k;

	for (k = 0; k < s->ntail; k++)
		b |= (uint64_t)s->tail[k] << (8 * k);
	compress(s->v, b);
	s->v[2] ^= 0xff;
	sipround(s->v);
	sipround(s->v);
	sipround(s->v);
	return s->v[0] ^ s->v[1] ^ s->v[2] ^ s->v[3];
}

uint64_t
smp__siphash(const struct smp_hashkey *key, const void *data, size_t len)
{
	struct smp_siphash s;

	smp__siphash_init(&s, key);
	smp__siphash_update(&s, data, len);
	return smp__siphash_final(&s);
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
