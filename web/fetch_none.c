/*
 * fetch_none.c - the playground has no network: the transport that
 * update-data would use, and the check of the data's signature, answer
 * that they are not offered here (the page checks with the instance data
 * compiled into it, and says which).
 */
#include "catalog/signature.h"
#include "smpreflight.h"

int
smp_curl_fetch_fn(void *ud, const struct smp_fetch_request *req,
		  struct smp_fetch_response *resp)
{
	(void)ud;
	(void)req;
	(void)resp;
	return SMP_EFETCH;
}

int
smp__ed25519_verify(const uint8_t key[SMP_ED25519_KEY_LEN], const char *msg,
		    size_t len, const uint8_t sig[SMP_ED25519_SIG_LEN],
		    char *why, size_t size)
{
	(void)key;
	(void)msg;
	(void)len;
	(void)sig;
	if (size)
		why[0] = '\0';
	return SMP_EFETCH;
}
