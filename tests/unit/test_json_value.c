/*
 * test_json_value.c - the public read-only JSON tree (smp_json_*), the
 * public escaper and the context getters an editor uses (instances,
 * tested rows, dialect keys, dialect detection), through smpreflight.h
 * only.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "smpreflight.h"

static struct smp_json *
parse(const char *s)
{
	struct smp_json *j = NULL;
	struct smp_error err;

	cr_assert_eq(smp_json_parse(&j, s, strlen(s), 0, NULL, &err), 0, "%s",
		     err.message);
	return j;
}

Test(json_value, types_members_and_elements)
{
	struct smp_json *j =
		parse("{\"id\": 12, \"s\": \"a\\u00e9\\n\", "
		      "\"t\": true, \"n\": null, "
		      "\"a\": [1.5, \"x\", {}], \"o\": {\"k\": false}}");
	const struct smp_json_value *r = smp_json_root(j), *a;
	double d = 0;
	size_t len = 0;

	cr_assert_eq(smp_json_type(r), SMP_JSON_OBJECT);
	cr_assert_eq(smp_json_length(r), 6);
	cr_assert_str_eq(smp_json_key_at(r, 1), "s");
	cr_assert_eq(smp_json_type(smp_json_get(r, "id")), SMP_JSON_NUMBER);
	cr_assert_str_eq(smp_json_text(smp_json_get(r, "id"), NULL), "12");
	cr_assert_str_eq(smp_json_text(smp_json_get(r, "s"), &len),
			 "a\xC3\xA9\n");
	cr_assert_eq(len, 4);
	cr_assert_eq(smp_json_bool(smp_json_get(r, "t")), 1);
	cr_assert_eq(smp_json_bool(smp_json_get(smp_json_get(r, "o"), "k")), 0);
	cr_assert_eq(smp_json_type(smp_json_get(r, "n")), SMP_JSON_NULL);
	cr_assert_null(smp_json_get(r, "missing"));
	cr_assert_eq(smp_json_type(NULL), SMP_JSON_NONE);
	a = smp_json_get(r, "a");
	cr_assert_eq(smp_json_type(a), SMP_JSON_ARRAY);
	cr_assert_eq(smp_json_length(a), 3);
	cr_assert_eq(smp_json_number(smp_json_at(a, 0), &d), 0);
	cr_assert_float_eq(d, 1.5, 1e-12);
	cr_assert_eq(smp_json_number(smp_json_at(a, 1), &d), -1);
	cr_assert_eq(smp_json_type(smp_json_at(a, 2)), SMP_JSON_OBJECT);
	cr_assert_null(smp_json_at(a, 3));
	cr_assert_null(smp_json_text(a, NULL));
	cr_assert_null(smp_json_key_at(a, 0));
	smp_json_free(j);
}

Test(json_value, strict_errors_and_limits)
{
	struct smp_json *j = NULL;
	struct smp_error err;
	static const char *const bad[] = {
		"{", "[1,]", "{\"a\":1,\"a\":2}", "01", "'x'", "", "\xff",
	};
	char big[100];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cr_assert_eq(smp_json_parse(&j, bad[i], strlen(bad[i]), 0, NULL,
					    &err),
			     SMP_EPARSE, "%s", bad[i]);
		cr_assert_null(j);
		cr_assert(err.message[0]);
	}
	memset(big, ' ', sizeof(big));
	big[0] = '"';
	big[sizeof(big) - 1] = '"';
	cr_assert_eq(smp_json_parse(&j, big, sizeof(big), 50, NULL, &err),
		     SMP_EPARSE, "over max_len");
	cr_assert_eq(smp_json_parse(&j, big, sizeof(big), 200, NULL, &err), 0);
	smp_json_free(j);
	cr_assert_eq(smp_json_parse(NULL, "1", 1, 0, NULL, &err), SMP_EINVAL);
	cr_assert_eq(smp_json_parse(&j, NULL, 1, 0, NULL, &err), SMP_EINVAL);
	smp_json_free(NULL);
}

static int
collect(void *ud, const char *data, size_t len)
{
	strncat(ud, data, len);
	return 0;
}

static int
refuse(void *ud, const char *data, size_t len)
{
	(void)ud;
	(void)data;
	(void)len;
	return 1;
}

Test(json_value, write_string_escapes_as_every_writer)
{
	char out[128] = "";

	cr_assert_eq(smp_json_write_string("a\"b\\\n\x01\xE2\x80\xA8\xff",
					   collect, out),
		     0);
	cr_assert_str_eq(out, "\"a\\\"b\\\\\\n\\u0001\\u2028\xEF\xBF\xBD\"");
	out[0] = '\0';
	cr_assert_eq(smp_json_write_string(NULL, collect, out), 0);
	cr_assert_str_eq(out, "null");
	cr_assert_eq(smp_json_write_string("x", refuse, NULL), SMP_EIO);
	cr_assert_eq(smp_json_write_string("x", NULL, NULL), SMP_EINVAL);
}

Test(json_value, context_getters)
{
	struct smp_context *ctx = NULL;
	struct smp_instance_info in;
	struct smp_tested_info row;
	struct smp_error err;
	size_t n, i, found = 0;
	const char *key;
	static const char spec[] = "estimator: PyTorch\nentry_point: t.py\n";

	cr_assert_eq(smp_context_new(&ctx, NULL, &err), 0, "%s", err.message);
	cr_assert_gt(smp_context_instance_count(ctx), 10);
	cr_assert_eq(
		smp_context_instance(ctx, 0, "ml.p3.8xlarge", &in, sizeof(in)),
		1);
	cr_assert_eq(in.gpus, 4);
	cr_assert_str_eq(in.gpu_model, "V100");
	cr_assert_eq(smp_context_instance(ctx, 0, "ml.nope", &in, sizeof(in)),
		     0);
	cr_assert_eq(smp_context_instance(ctx, smp_context_instance_count(ctx),
					  NULL, &in, sizeof(in)),
		     0);
	cr_assert_eq(smp_context_instance(NULL, 0, NULL, &in, sizeof(in)),
		     SMP_EINVAL);
	/* a short struct gets its first bytes only */
	memset(&in, 0, sizeof(in));
	cr_assert_eq(smp_context_instance(ctx, 0, "ml.p3.8xlarge", &in,
					  sizeof(const char *)),
		     1);
	cr_assert_str_eq(in.type, "ml.p3.8xlarge");
	cr_assert_null(in.family);
	n = smp_context_model_rows(ctx, "BERT_base-cased", 0, &row,
				   sizeof(row));
	cr_assert_gt(n, 0);
	cr_assert_not_null(row.instance_type);
	cr_assert_eq(smp_context_model_rows(ctx, "no-such-model", 0, NULL, 0),
		     0);
	for (i = 0;
	     (key = smp_context_dialect_key(ctx, SMP_DIALECT_ESTIMATOR, i));
	     i++)
		found += strcmp(key, "entry_point") == 0;
	cr_assert_eq(found, 1);
	cr_assert_null(smp_context_dialect_key(ctx, SMP_DIALECT_AUTO, 0));
	cr_assert_eq(smp_detect_dialect(ctx, "x.yaml", spec, strlen(spec)),
		     SMP_DIALECT_ESTIMATOR);
	cr_assert_eq(smp_detect_dialect(ctx, "x.yaml", "{", 1),
		     SMP_DIALECT_AUTO);
	smp_context_free(ctx);
}
