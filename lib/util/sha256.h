/*
 * sha256.h - SHA-256 (FIPS 180-4) for verifying downloaded instance data
 * against the digests of an index document; libcurl exposes none.
 */
#ifndef SMP_SHA256_H
#define SMP_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct smp_sha256 {
	uint32_t h[8];
	uint64_t bits; /* message length so far */
	unsigned char block[64];
	size_t used; /* bytes in block */
};

void smp__sha256_init(struct smp_sha256 *s);
void smp__sha256_update(struct smp_sha256 *s, const void *data, size_t len);
void smp__sha256_final(struct smp_sha256 *s, unsigned char digest[32]);

/* The digest of data[0..len) as 64 lower-case hex digits and a NUL. */
void smp__sha256_hex(char out[65], const void *data, size_t len);

#endif
