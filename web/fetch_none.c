/*
 * fetch_none.c - the playground has no network: the transport that
 * update-data would use answers that it is not offered here (the page
 * checks with the instance data compiled into it, and says which).
 */
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
