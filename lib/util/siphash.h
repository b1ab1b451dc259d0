/*
 * siphash.h - a keyed hash for the tables an input fills (names and keys
 * of a Python source): SipHash-1-3 (Aumasson and Bernstein), as CPython
 * uses for str and bytes. With a key the input cannot know, no input
 * makes its names collide on purpose, so a table stays linear.
 */
#ifndef SMP_SIPHASH_H
#define SMP_SIPHASH_H

#include <stddef.h>
#include <stdint.h>

/* A 128-bit key: fill it once per context (smp__siphash_seed). */
struct smp_hashkey {
	uint64_t k0, k1;
};

uint64_t smp__siphash(const struct smp_hashkey *key, const void *data,
		      size_t len);

/* The same hash over data given in pieces: init, update for each piece
 * in order, final; equal to smp__siphash() of the pieces joined. */
struct smp_siphash {
	uint64_t v[4];
	unsigned char tail[8]; /* the bytes of an unfinished word */
	size_t ntail;
	size_t len; /* bytes so far */
};

void smp__siphash_init(struct smp_siphash *s, const struct smp_hashkey *key);
void smp__siphash_update(struct smp_siphash *s, const void *data, size_t n);
uint64_t smp__siphash_final(struct smp_siphash *s);

/*
 * A fresh key from the system's random source (getentropy), or from
 * the time and addresses where it fails: never one fixed key for every
 * run. Opens no file.
 */
void smp__siphash_seed(struct smp_hashkey *key);

#endif
