/*
 * signature.c - reading the data publisher's Ed25519 public key and the
 * index's signature (signature.h). The check itself is in
 * signature_crypto.c.
 */
#include <stdio.h>
#include <string.h>

#include "catalog/signature.h"
#include "smpreflight.h"

/* The DER of an Ed25519 SubjectPublicKeyInfo before its 32 key bytes
 * (RFC 8410, section 4): SEQUENCE { SEQUENCE { OID 1.3.101.112 },
 * BIT STRING }. */
static const uint8_t spki_prefix[12] = {0x30, 0x2a, 0x30, 0x05, 0x06, 0x03,
					0x2b, 0x65, 0x70, 0x03, 0x21, 0x00};

static int
b64_value(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/* Base64 (RFC 4648, whitespace skipped, '=' ends it) into out[0..max);
 * the number of bytes, or -1 when text is not base64 or too long. */
static long
b64_decode(uint8_t *out, size_t max, const char *text, size_t len)
{
	unsigned long acc = 0;
	size_t n = 0, i;
	int bits = 0;

	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];
		int v;

		if (c == ' ' || c == '\t' || c == '\r' || c == '\n')
			continue;
		if (c == '=')
			break;
		v = b64_value(c);
		if (v < 0)
			return -1;
		acc = (acc << 6 | (unsigned long)v) & 0xffffffUL;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			if (n == max)
				return -1;
			out[n++] = (uint8_t)(acc >> bits);
		}
	}
	for (; i < len; i++) /* only padding and blanks may follow '=' */
		if (!strchr("= \t\r\n", text[i]))
			return -1;
	return (long)n;
}

/* needle in hay[0..len), or NULL: hay need not be NUL-terminated. */
static const char *
find(const char *hay, size_t len, const char *needle)
{
	size_t n = strlen(needle), i;

	for (i = 0; n <= len && i <= len - n; i++)
		if (memcmp(hay + i, needle, n) == 0)
			return hay + i;
	return NULL;
}

int
smp__ed25519_key_parse(uint8_t key[SMP_ED25519_KEY_LEN], const char *text,
		       size_t len, char *why, size_t size)
{
	static const char begin[] = "-----BEGIN PUBLIC KEY-----";
	static const char end[] = "-----END PUBLIC KEY-----";
	uint8_t der[64];
	const char *b, *e;
	long n;

	b = find(text, len, begin);
	if (b) {
		b += sizeof(begin) - 1;
		e = find(b, len - (size_t)(b - text), end);
		if (!e) {
			snprintf(why, size, "a PEM key without its END line");
			return SMP_EINVAL;
		}
		n = b64_decode(der, sizeof(der), b, (size_t)(e - b));
		if (n != (long)sizeof(spki_prefix) + SMP_ED25519_KEY_LEN ||
		    memcmp(der, spki_prefix, sizeof(spki_prefix)) != 0) {
			snprintf(why, size,
				 "not an Ed25519 public key (openssl genpkey "
				 "-algorithm ed25519 makes one; openssl pkey "
				 "-pubout writes its public half)");
			return SMP_EINVAL;
		}
		memcpy(key, der + sizeof(spki_prefix), SMP_ED25519_KEY_LEN);
		return 0;
	}
	n = b64_decode(der, sizeof(der), text, len);
	if (n != SMP_ED25519_KEY_LEN) {
		snprintf(why, size,
			 "neither a PEM public key nor 32 bytes in base64");
		return SMP_EINVAL;
	}
	memcpy(key, der, SMP_ED25519_KEY_LEN);
	return 0;
}

int
smp__ed25519_sig_parse(uint8_t sig[SMP_ED25519_SIG_LEN], const char *text,
		       size_t len)
{
	uint8_t raw[SMP_ED25519_SIG_LEN + 1];

	if (len == SMP_ED25519_SIG_LEN) {
		memcpy(sig, text, SMP_ED25519_SIG_LEN);
		return 0;
	}
	if (b64_decode(raw, sizeof(raw), text, len) != SMP_ED25519_SIG_LEN)
		return SMP_EINVAL;
	memcpy(sig, raw, SMP_ED25519_SIG_LEN);
	return 0;
}
