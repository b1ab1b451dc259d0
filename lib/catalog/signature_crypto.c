/*
 * signature_crypto.c - the Ed25519 check of the data index through
 * OpenSSL's libcrypto (EVP_DigestVerify with a raw public key, as
 * RFC 8032's PureEdDSA wants: no digest is given). Like libcurl in
 * fetch_curl.c, libcrypto is loaded with dlopen() at the call, not linked:
 * only update-data needs it, and libcurl already brings it. Nothing is
 * kept between calls.
 */
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "catalog/signature.h"
#include "smpreflight.h"

#ifndef SMP_CRYPTO_SONAME
#define SMP_CRYPTO_SONAME "libcrypto.so.3"
#endif
#ifndef RTLD_NODELETE
#define RTLD_NODELETE 0
#endif

/* EVP_PKEY_ED25519 is NID_ED25519 (obj_mac.h), stable across releases. */
#define NID_ED25519 1087

struct crypto_api {
	void *(*pkey_new_raw_public_key)(int type, void *engine,
					 const unsigned char *key, size_t len);
	void (*pkey_free)(void *pkey);
	void *(*md_ctx_new)(void);
	void (*md_ctx_free)(void *ctx);
	int (*digest_verify_init)(void *ctx, void **pctx, const void *type,
				  void *engine, void *pkey);
	int (*digest_verify)(void *ctx, const unsigned char *sig, size_t siglen,
			     const unsigned char *tbs, size_t tbslen);
};

static const struct {
	const char *name;
	size_t offset;
} crypto_symbols[] = {
	{"EVP_PKEY_new_raw_public_key",
	 offsetof(struct crypto_api, pkey_new_raw_public_key)},
	{"EVP_PKEY_free", offsetof(struct crypto_api, pkey_free)},
	{"EVP_MD_CTX_new", offsetof(struct crypto_api, md_ctx_new)},
	{"EVP_MD_CTX_free", offsetof(struct crypto_api, md_ctx_free)},
	{"EVP_DigestVerifyInit",
	 offsetof(struct crypto_api, digest_verify_init)},
	{"EVP_DigestVerify", offsetof(struct crypto_api, digest_verify)},
};

int
smp__ed25519_verify(const uint8_t key[SMP_ED25519_KEY_LEN], const char *msg,
		    size_t len, const uint8_t sig[SMP_ED25519_SIG_LEN],
		    char *why, size_t size)
{
	struct crypto_api api;
	void *lib, *pkey = NULL, *md = NULL;
	size_t i;
	int ok = 0;

	lib = dlopen(SMP_CRYPTO_SONAME, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
	if (!lib) {
		const char *e = dlerror();

		snprintf(why, size,
			 "cannot load OpenSSL's " SMP_CRYPTO_SONAME
			 ", which checks the signature: %.120s",
			 e ? e : "not found");
		return SMP_EFETCH;
	}
	for (i = 0; i < sizeof(crypto_symbols) / sizeof(crypto_symbols[0]);
	     i++) {
		void *sym = dlsym(lib, crypto_symbols[i].name);

		if (!sym) {
			snprintf(why, size, SMP_CRYPTO_SONAME " lacks %s",
				 crypto_symbols[i].name);
			dlclose(lib);
			return SMP_EFETCH;
		}
		memcpy((char *)&api + crypto_symbols[i].offset, &sym,
		       sizeof(sym));
	}
	pkey = api.pkey_new_raw_public_key(NID_ED25519, NULL, key,
					   SMP_ED25519_KEY_LEN);
	md = pkey ? api.md_ctx_new() : NULL;
	if (md && api.digest_verify_init(md, NULL, NULL, NULL, pkey) == 1)
		ok = api.digest_verify(md, sig, SMP_ED25519_SIG_LEN,
				       (const unsigned char *)msg, len) == 1;
	if (md)
		api.md_ctx_free(md);
	if (pkey)
		api.pkey_free(pkey);
	dlclose(lib);
	if (!ok) {
		snprintf(why, size,
			 pkey ? "the signature does not match"
			      : "the public key is not a usable Ed25519 key");
		return SMP_EPARSE;
	}
	return 0;
}
