/*
 * test_image_uri.c - smp__image_uri_derive() against the SageMaker Python
 * SDK itself: tests/sdk-oracle/expected.json holds what the SDK's own code
 * (v2.257.6, run offline by tests/sdk-oracle/oracle.py) returned for the
 * estimator specs of tests/sdk-oracle/specs.json. Every image URI must be
 * equal, and every refusal of image_uris.retrieve() must be the same kind
 * of refusal. Errors the estimator raises before it asks for an image
 * (compiler validation, missing arguments) are the rules' business and
 * are counted, not compared here.
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/embedded.h"
#include "job/image_uri.h"

#define ORACLE "tests/sdk-oracle/"

static cJSON *
read_json(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;
	cJSON *j;

	cr_assert_not_null(f, "cannot open %s (run from the repository root)",
			   path);
	cr_assert_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	cr_assert_geq(n, 0);
	cr_assert_eq(fseek(f, 0, SEEK_SET), 0);
	buf = malloc((size_t)n + 1);
	cr_assert_not_null(buf);
	cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	buf[n] = '\0';
	j = cJSON_ParseWithLength(buf, (size_t)n);
	free(buf);
	cr_assert_not_null(j, "%s is not JSON", path);
	return j;
}

static const char *
str(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* The request the estimator of spec makes (Framework.training_image_uri). */
static void
request_of(struct smp_image_request *rq, const cJSON *spec)
{
	const cJSON *kw = cJSON_GetObjectItemCaseSensitive(spec, "kwargs");
	const char *est = str(spec, "estimator");
	const cJSON *dist =
		cJSON_GetObjectItemCaseSensitive(kw, "distribution");

	memset(rq, 0, sizeof(*rq));
	cr_assert_not_null(est);
	rq->framework = strcmp(est, "HuggingFace") == 0 ? "huggingface"
			: strcmp(est, "PyTorch") == 0   ? "pytorch"
							: "tensorflow";
	if (strcmp(rq->framework, "huggingface") == 0) {
		rq->version = str(kw, "transformers_version");
		rq->base_framework =
			str(kw, "pytorch_version") ? "pytorch" : "tensorflow";
		rq->base_version = str(kw, "pytorch_version")
					   ? str(kw, "pytorch_version")
					   : str(kw, "tensorflow_version");
	} else {
		rq->version = str(kw, "framework_version");
	}
	rq->py_version = str(kw, "py_version");
	rq->instance_type = str(kw, "instance_type");
	rq->region = str(spec, "region");
	rq->compiler = cJSON_HasObjectItem(kw, "compiler_config");
	rq->smdistributed = cJSON_IsObject(dist) &&
			    cJSON_HasObjectItem(dist, "smdistributed");
}

/* The status retrieve()'s ValueError corresponds to, or -1 when the
 * error is not retrieve()'s. */
static int
status_of_error(const char *msg)
{
	static const struct {
		const char *prefix;
		enum smp_image_status status;
	} map[] = {
		{"Unsupported region", SMP_IMAGE_REGION},
		{"Unsupported Python version", SMP_IMAGE_PY_VERSION},
		{"Unsupported processor", SMP_IMAGE_PROCESSOR},
		{"Unsupported base framework", SMP_IMAGE_BASE_FRAMEWORK},
		{"P2 instances have been deprecated",
		 SMP_IMAGE_INSTANCE_DEPRECATED},
	};
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (strncmp(msg, map[i].prefix, strlen(map[i].prefix)) == 0)
			return (int)map[i].status;
	if (strncmp(msg, "Unsupported ", 12) == 0 && strstr(msg, " version: "))
		return SMP_IMAGE_VERSION; /* "Unsupported pytorch version" */
	return -1;
}

Test(image_uri, equals_the_sdk)
{
	cJSON *specs = read_json(ORACLE "specs.json");
	cJSON *exp = read_json(ORACLE "expected.json");
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(specs, "specs");
	const cJSON *res = cJSON_GetObjectItemCaseSensitive(exp, "results");
	const cJSON *spec;
	int i = 0, uris = 0, refusals = 0, other = 0;

	cr_assert_eq(cJSON_GetArraySize(list), cJSON_GetArraySize(res),
		     "rerun tests/sdk-oracle/oracle.py after editing specs");
	cJSON_ArrayForEach(spec, list)
	{
		const cJSON *r = cJSON_GetArrayItem(res, i++);
		const cJSON *kw =
			cJSON_GetObjectItemCaseSensitive(spec, "kwargs");
		const cJSON *err = cJSON_GetObjectItemCaseSensitive(r, "error");
		struct smp_image_request rq;
		struct smp_image_result out;
		int want;

		cr_assert_str_eq(str(r, "name"), str(spec, "name"));
		request_of(&rq, spec);
		cr_assert_eq(smp__image_uri_derive(&out, &smp__embedded_catalog,
						   &rq),
			     0);
		if (err) {
			want = status_of_error(str(err, "message"));
			if (want < 0) {
				other++;
				continue;
			}
			cr_expect_eq((int)out.status, want,
				     "%s: status %d, the SDK said: %s",
				     str(spec, "name"), (int)out.status,
				     str(err, "message"));
			refusals++;
			continue;
		}
		if (cJSON_HasObjectItem(kw, "image_uri")) {
			other++; /* returned unchanged; no derivation */
			continue;
		}
		cr_expect_eq(out.status, SMP_IMAGE_OK, "%s: status %d",
			     str(spec, "name"), (int)out.status);
		cr_expect_str_eq(out.uri, str(r, "image_uri"), "%s",
				 str(spec, "name"));
		uris++;
	}
	/* the coverage the oracle's specs give; a smaller number means
	 * specs.json lost cases */
	cr_expect_geq(uris, 70, "only %d URIs compared", uris);
	cr_expect_geq(refusals, 10, "only %d refusals compared", refusals);
	cr_log_info("%d URIs equal, %d refusals of the same kind, %d not "
		    "image derivations",
		    uris, refusals, other);
	cJSON_Delete(specs);
	cJSON_Delete(exp);
}

Test(image_uri, family_as_the_sdk_reads_it)
{
	char f[16];

	cr_assert_eq(smp__instance_family(f, sizeof(f), "ml.p3.2xlarge"), 2);
	cr_assert_str_eq(f, "p3");
	cr_assert_eq(smp__instance_family(f, sizeof(f), "ml_g4dn"), 4);
	cr_assert_str_eq(f, "g4dn");
	cr_assert_eq(smp__instance_family(f, sizeof(f), "ml.p3.2x.large"), 0);
	cr_assert_str_eq(f, "");
	cr_assert_eq(smp__instance_family(f, sizeof(f), "local_gpu"), 0);
	cr_assert_eq(smp__instance_family(f, sizeof(f), NULL), 0);
	cr_assert_eq(smp__instance_family(f, 3, "ml.g4dn.xlarge"), 0);
}

Test(image_uri, rejects_bad_arguments)
{
	struct smp_image_request rq;
	struct smp_image_result out;

	memset(&rq, 0, sizeof(rq));
	cr_assert_eq(smp__image_uri_derive(NULL, &smp__embedded_catalog, &rq),
		     SMP_EINVAL);
	cr_assert_eq(smp__image_uri_derive(&out, NULL, &rq), SMP_EINVAL);
	cr_assert_eq(smp__image_uri_derive(&out, &smp__embedded_catalog, NULL),
		     SMP_EINVAL);
	rq.framework = "mxnet";
	rq.region = "us-east-1";
	cr_assert_eq(smp__image_uri_derive(&out, &smp__embedded_catalog, &rq),
		     0);
	cr_assert_eq(out.status, SMP_IMAGE_BAD_REQUEST);
	cr_assert_str_eq(out.uri, "");
}

/* What a message needs when the SDK refuses: the version's row, so the
 * Python versions the image exists for can be named (TF 2.9: py39). */
Test(image_uri, refusal_keeps_the_row)
{
	struct smp_image_request rq;
	struct smp_image_result out;

	memset(&rq, 0, sizeof(rq));
	rq.framework = "tensorflow";
	rq.version = "2.9";
	rq.py_version = "py38";
	rq.instance_type = "ml.p3.2xlarge";
	rq.region = "us-east-1";
	rq.compiler = 1;
	cr_assert_eq(smp__image_uri_derive(&out, &smp__embedded_catalog, &rq),
		     0);
	cr_assert_eq(out.status, SMP_IMAGE_PY_VERSION);
	cr_assert_not_null(out.config);
	cr_assert_str_eq(out.config->version, "2.9.2");
	cr_assert_eq(out.config->py_version_count, 1);
	cr_assert_str_eq(out.config->py_versions[0], "py39");
	/* the default when the spec gives none and there is one */
	rq.py_version = NULL;
	cr_assert_eq(smp__image_uri_derive(&out, &smp__embedded_catalog, &rq),
		     0);
	cr_assert_eq(out.status, SMP_IMAGE_OK);
	cr_assert_str_eq(out.py_version, "py39");
	cr_assert_str_eq(out.uri, "763104351884.dkr.ecr.us-east-1.amazonaws."
				  "com/tensorflow-training:2.9-gpu-py39");
}
