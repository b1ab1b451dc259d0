/* test_signature.c - the data index's Ed25519 key and signature
 * (catalog/signature.c, signature_crypto.c). The key pair was made with
 * openssl genpkey -algorithm ed25519; the signature of MSG with openssl
 * pkeyutl -sign -rawin; the private half is not kept. */
#include <criterion/criterion.h>
#include <string.h>

#include "catalog/signature.h"
#include "smpreflight.h"

static const char pem[] =
	"-----BEGIN PUBLIC KEY-----\n"
	"MCowBQYDK2VwAyEA0oEjVT75LkWcracoYLy6aKvGWZR3KKQPbgQ9IbXlgYE=\n"
	"-----END PUBLIC KEY-----\n";
static const char b64_key[] = "0oEjVT75LkWcracoYLy6aKvGWZR3KKQPbgQ9IbXlgYE=";
static const char msg[] = "sm-preflight signed index\n";
static const char b64_sig[] =
	"q2+QNPPxHprwr0fwLDehVQYSXWOIzZUvNVC29jwaZhbhTJq9j5xYOh4OgFh34Yl+"
	"baqqsEb+YDPzyWMVSWdwCg==";

Test(signature, pem_and_base64_keys_are_the_same_key)
{
	uint8_t a[SMP_ED25519_KEY_LEN], b[SMP_ED25519_KEY_LEN];
	char why[200];

	cr_assert_eq(
		smp__ed25519_key_parse(a, pem, strlen(pem), why, sizeof(why)),
		0, "%s", why);
	cr_assert_eq(smp__ed25519_key_parse(b, b64_key, strlen(b64_key), why,
					    sizeof(why)),
		     0, "%s", why);
	cr_assert_eq(memcmp(a, b, sizeof(a)), 0);
}

Test(signature, other_keys_are_refused)
{
	/* an EC P-256 public key: a PEM, but not Ed25519 */
	static const char ec[] = "-----BEGIN PUBLIC KEY-----\n"
				 "MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEAAAAAAAAA"
				 "AAAAAAAAAAAAAAAAAAA"
				 "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
				 "AAAAAAAAAAAAAAAAA==\n"
				 "-----END PUBLIC KEY-----\n";
	uint8_t k[SMP_ED25519_KEY_LEN];
	char why[200];

	cr_assert_eq(
		smp__ed25519_key_parse(k, ec, strlen(ec), why, sizeof(why)),
		SMP_EINVAL);
	cr_assert(strstr(why, "Ed25519"), "%s", why);
	cr_assert_eq(smp__ed25519_key_parse(k, "abc", 3, why, sizeof(why)),
		     SMP_EINVAL);
	cr_assert_eq(smp__ed25519_key_parse(k, pem, 40, why, sizeof(why)),
		     SMP_EINVAL, "a PEM cut before its END line");
	cr_assert_eq(smp__ed25519_key_parse(k, "", 0, why, sizeof(why)),
		     SMP_EINVAL);
}

Test(signature, signatures_raw_or_base64)
{
	uint8_t s[SMP_ED25519_SIG_LEN], raw[SMP_ED25519_SIG_LEN];

	cr_assert_eq(smp__ed25519_sig_parse(s, b64_sig, strlen(b64_sig)), 0);
	memcpy(raw, s, sizeof(raw));
	cr_assert_eq(smp__ed25519_sig_parse(s, (const char *)raw, sizeof(raw)),
		     0);
	cr_assert_eq(memcmp(s, raw, sizeof(s)), 0);
	cr_assert_eq(smp__ed25519_sig_parse(s, "AAAA", 4), SMP_EINVAL);
	cr_assert_eq(smp__ed25519_sig_parse(s, "!not base64!", 12), SMP_EINVAL);
}

Test(signature, verifies_the_signed_bytes_and_nothing_else)
{
	uint8_t k[SMP_ED25519_KEY_LEN], s[SMP_ED25519_SIG_LEN];
	char why[200], other[sizeof(msg)];
	int rc;

	cr_assert_eq(
		smp__ed25519_key_parse(k, pem, strlen(pem), why, sizeof(why)),
		0);
	cr_assert_eq(smp__ed25519_sig_parse(s, b64_sig, strlen(b64_sig)), 0);
	rc = smp__ed25519_verify(k, msg, strlen(msg), s, why, sizeof(why));
	if (rc == SMP_EFETCH)
		cr_skip_test(
			"no libcrypto.so.3 here (apt-get install libssl3): %s",
			why);
	cr_assert_eq(rc, 0, "%s", why);
	/* one byte of the index changed: refused */
	memcpy(other, msg, sizeof(msg));
	other[0] = 'S';
	cr_assert_eq(smp__ed25519_verify(k, other, strlen(other), s, why,
					 sizeof(why)),
		     SMP_EPARSE);
	cr_assert(strstr(why, "does not match"), "%s", why);
	/* one bit of the signature changed: refused */
	s[10] ^= 1;
	cr_assert_eq(
		smp__ed25519_verify(k, msg, strlen(msg), s, why, sizeof(why)),
		SMP_EPARSE);
	/* another key: refused */
	s[10] ^= 1;
	k[0] ^= 0x80;
	cr_assert_neq(
		smp__ed25519_verify(k, msg, strlen(msg), s, why, sizeof(why)),
		0);
}
