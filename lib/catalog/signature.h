/*
 * signature.h - the data index's Ed25519 signature: the publisher's public
 * key, read from its PEM or base64 form, and the check of index.json's
 * bytes against index.json.sig. The digests in index.json then vouch for
 * the three data files, so a mirror that changes a fact must also forge
 * the signature.
 */
#ifndef SMP_CATALOG_SIGNATURE_H
#define SMP_CATALOG_SIGNATURE_H

#include <stddef.h>
#include <stdint.h>

#define SMP_ED25519_KEY_LEN 32
#define SMP_ED25519_SIG_LEN 64

/*
 * Reads an Ed25519 public key from text[0..len): a PEM "PUBLIC KEY"
 * (SubjectPublicKeyInfo, as `openssl pkey -pubout` writes it) or the 32
 * raw bytes in base64. 0, or SMP_EINVAL with why[0..size) saying what is
 * wrong.
 */
int smp__ed25519_key_parse(uint8_t key[SMP_ED25519_KEY_LEN], const char *text,
			   size_t len, char *why, size_t size);

/*
 * Reads a signature: the 64 raw bytes (`openssl pkeyutl -sign -rawin`
 * writes them) or their base64. 0, or SMP_EINVAL.
 */
int smp__ed25519_sig_parse(uint8_t sig[SMP_ED25519_SIG_LEN], const char *text,
			   size_t len);

/*
 * 0 when sig is key's signature of msg[0..len); SMP_EPARSE when it is
 * not; SMP_EFETCH when no verifier can be loaded (why says which library
 * is missing). Defined by signature_crypto.c (OpenSSL's libcrypto,
 * loaded at the call as libcurl is).
 */
int smp__ed25519_verify(const uint8_t key[SMP_ED25519_KEY_LEN], const char *msg,
			size_t len, const uint8_t sig[SMP_ED25519_SIG_LEN],
			char *why, size_t size);

#endif
