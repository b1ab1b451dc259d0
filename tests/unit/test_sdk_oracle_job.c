/*
 * test_sdk_oracle_job.c - the effective job's SDK-added hyperparameters
 * against the SageMaker Python SDK itself: for every spec of
 * tests/sdk-oracle/specs.json that the SDK accepted, the Training
 * Compiler and PyTorch/XLA switches the container receives
 * (smp__job_hyperparameter) must be the ones the SDK's estimator produced
 * (tests/sdk-oracle/expected.json), present with the same value or absent.
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "smpreflight.h"
#include "job/effective.h"
#include "rules/check.h"
#include "helpers.h"

static const char *const flags[] = {
	"sagemaker_training_compiler_enabled",
	"sagemaker_training_compiler_debug_mode",
	"sagemaker_pytorch_xla_multi_worker_enabled",
};
#define NFLAGS (sizeof(flags) / sizeof(flags[0]))

struct seen {
	char value[NFLAGS][16]; /* "" when absent */
	int ran;
};

static void
grab(void *ud, const struct smp_check *c)
{
	struct seen *s = ud;
	size_t i;

	s->ran = 1;
	for (i = 0; i < NFLAGS; i++) {
		const struct smp_node *v =
			smp__job_hyperparameter(c->job, flags[i]);
		const char *t = v ? smp__node_text(v) : NULL;

		snprintf(s->value[i], sizeof(s->value[i]), "%s", t ? t : "");
	}
}

static cJSON *
read_json(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;
	cJSON *j;

	cr_assert_not_null(f, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)n + 1);
	cr_assert_not_null(buf);
	cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	j = cJSON_ParseWithLength(buf, (size_t)n);
	free(buf);
	cr_assert_not_null(j);
	return j;
}

/* Checks spec (its kwargs and estimator class as an estimator spec) with
 * hook; the report is freed. */
static void
run_spec(const struct smp_context *ctx, const cJSON *spec,
	 const struct smp_check_hook *hook)
{
	cJSON *kw = cJSON_Duplicate(
		cJSON_GetObjectItemCaseSensitive(spec, "kwargs"), 1);
	struct smp_report *rep = NULL;
	char *text;

	cr_assert_not_null(kw);
	cJSON_AddStringToObject(
		kw, "estimator",
		cJSON_GetObjectItemCaseSensitive(spec, "estimator")
			->valuestring);
	text = cJSON_PrintUnformatted(kw);
	cr_assert_not_null(text);
	cr_assert_eq(smp__check_run(&rep, ctx, "o.json", text, strlen(text),
				    hook, NULL),
		     0);
	smp_report_free(rep);
	cJSON_free(text);
	cJSON_Delete(kw);
}

Test(sdk_oracle, effective_hyperparameters_equal_the_sdk)
{
	cJSON *specs = read_json("tests/sdk-oracle/specs.json");
	cJSON *exp = read_json("tests/sdk-oracle/expected.json");
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(specs, "specs");
	const cJSON *res = cJSON_GetObjectItemCaseSensitive(exp, "results");
	struct smp_context *ctx = th_context(NULL);
	const cJSON *spec;
	int i = 0, compared = 0;

	cJSON_ArrayForEach(spec, list)
	{
		const cJSON *r = cJSON_GetArrayItem(res, i++);
		const cJSON *hp =
			cJSON_GetObjectItemCaseSensitive(r, "hyperparameters");
		const char *name =
			cJSON_GetObjectItemCaseSensitive(spec, "name")
				->valuestring;
		struct seen s;
		struct smp_check_hook hook = {.fn = grab, .ud = &s};
		size_t k;

		if (!hp)
			continue; /* the SDK refused it */
		memset(&s, 0, sizeof(s));
		run_spec(ctx, spec, &hook);
		cr_assert(s.ran, "%s: no job", name);
		for (k = 0; k < NFLAGS; k++) {
			const cJSON *want =
				cJSON_GetObjectItemCaseSensitive(hp, flags[k]);
			const char *w =
				cJSON_IsString(want) ? want->valuestring : "";

			cr_expect(strcasecmp(s.value[k], w) == 0,
				  "%s: %s is '%s', the SDK sends '%s'",
				  cJSON_GetObjectItemCaseSensitive(spec, "name")
					  ->valuestring,
				  flags[k], s.value[k], w);
		}
		compared++;
	}
	cr_log_info("%d accepted specs: compiler and XLA switches compared",
		    compared);
	cr_expect_geq(compared, 60);
	smp_context_free(ctx);
	cJSON_Delete(specs);
	cJSON_Delete(exp);
}

struct pulled {
	char image[256];
	char account[16], registry[16], py[8], cuda[8];
	int missing, ran;
};

static void
grab_image(void *ud, const struct smp_check *c)
{
	struct pulled *p = ud;

	p->ran = 1;
	p->missing = c->job->image_region_missing;
	snprintf(p->image, sizeof(p->image), "%s",
		 c->job->pulled_image ? c->job->pulled_image : "");
	snprintf(p->account, sizeof(p->account), "%s",
		 c->job->image_account ? c->job->image_account : "");
	snprintf(p->registry, sizeof(p->registry), "%s",
		 c->job->registry_account ? c->job->registry_account : "");
	snprintf(p->py, sizeof(p->py), "%s",
		 c->job->image_py ? c->job->image_py : "");
	snprintf(p->cuda, sizeof(p->cuda), "%s",
		 c->job->image_cuda ? c->job->image_cuda : "");
}

/* 1 when the tag of uri has the part "-part" followed by '-' or its end. */
static int
tag_part(const char *uri, const char *part)
{
	const char *t = strrchr(uri, ':');
	size_t n = strlen(part);

	for (; t && (t = strchr(t, '-')) != NULL; t++)
		if (strncmp(t + 1, part, n) == 0 &&
		    (t[1 + n] == '-' || t[1 + n] == '\0'))
			return 1;
	return 0;
}

/*
 * The image the effective job pulls in the spec's region (smp_options.
 * region) is the URI the SDK derives; where the SDK refuses the region
 * ("Unsupported region"), the effective job knows the image is not
 * published there.
 */
Test(sdk_oracle, effective_image_and_region_equal_the_sdk)
{
	cJSON *specs = read_json("tests/sdk-oracle/specs.json");
	cJSON *exp = read_json("tests/sdk-oracle/expected.json");
	const cJSON *list = cJSON_GetObjectItemCaseSensitive(specs, "specs");
	const cJSON *res = cJSON_GetObjectItemCaseSensitive(exp, "results");
	const cJSON *spec;
	int i = 0, uris = 0, regions = 0, facts = 0;

	cJSON_ArrayForEach(spec, list)
	{
		const cJSON *r = cJSON_GetArrayItem(res, i++);
		const cJSON *uri =
			cJSON_GetObjectItemCaseSensitive(r, "image_uri");
		const cJSON *e = cJSON_GetObjectItemCaseSensitive(r, "error");
		const cJSON *msg =
			cJSON_GetObjectItemCaseSensitive(e, "message");
		const char *name =
			cJSON_GetObjectItemCaseSensitive(spec, "name")
				->valuestring;
		int region_error = cJSON_IsString(msg) &&
				   strncmp(msg->valuestring,
					   "Unsupported region", 18) == 0;
		struct smp_options o = SMP_OPTIONS_INIT;
		struct smp_context *ctx;
		struct pulled p;
		struct smp_check_hook hook = {.fn = grab_image, .ud = &p};

		if (!cJSON_IsString(uri) && !region_error)
			continue; /* refused for another reason */
		o.region = cJSON_GetObjectItemCaseSensitive(spec, "region")
				   ->valuestring;
		ctx = th_context(&o);
		memset(&p, 0, sizeof(p));
		run_spec(ctx, spec, &hook);
		cr_assert(p.ran, "%s: no job", name);
		if (region_error) {
			cr_expect(p.missing, "%s: the SDK refuses the region",
				  name);
			regions++;
		} else {
			const char *u = uri->valuestring;

			cr_expect_str_eq(p.image, u, "%s", name);
			cr_expect(!p.missing, "%s: published there", name);
			/* the facts of the SDK's URI: its account is the
			 * registry table's for the region, and the tag has
			 * the Python and CUDA parts the job holds */
			cr_expect(strncmp(u, p.account, strlen(p.account)) ==
						  0 &&
					  strncmp(u + strlen(p.account),
						  ".dkr.", 5) == 0,
				  "%s: account '%s'", name, p.account);
			/* (an image_uri of the user's: no SDK row) */
			cr_expect(
				!*p.registry || !strcmp(p.registry, p.account),
				"%s: registry account '%s'", name, p.registry);
			cr_expect(!*p.py || tag_part(u, p.py), "%s: '%s'", name,
				  p.py);
			cr_expect(!*p.cuda || tag_part(u, p.cuda), "%s: '%s'",
				  name, p.cuda);
			facts += *p.py && *p.cuda;
			uris++;
		}
		smp_context_free(ctx);
	}
	cr_log_info("%d image URIs (%d with Python and CUDA tags) and %d "
		    "refused regions compared",
		    uris, facts, regions);
	cr_expect_geq(uris, 60);
	cr_expect_geq(facts, 20);
	cr_expect_geq(regions, 4);
	cJSON_Delete(specs);
	cJSON_Delete(exp);
}
