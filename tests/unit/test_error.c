/* test_error.c - the one struct smp_error setter (util/error.c) */
#include <criterion/criterion.h>
#include <string.h>

#include "util/error.h"

Test(error, sets_code_source_position_and_message)
{
	struct smp_error err = {0};
	struct smp_pos at = {3, 7, 42};

	cr_assert_eq(smp__error_set(&err, SMP_EPARSE, "job.yaml", &at,
				    "bad '%s'", "x"),
		     SMP_EPARSE);
	cr_assert_eq(err.code, SMP_EPARSE);
	cr_assert_str_eq(err.source, "job.yaml");
	cr_assert_eq(err.line, 3);
	cr_assert_eq(err.column, 7);
	cr_assert_eq(err.offset, 42);
	cr_assert_str_eq(err.message, "bad 'x'");
}

Test(error, the_first_error_of_a_call_wins)
{
	struct smp_error err = {0};

	smp__error_set(&err, SMP_ENOMEM, "inner", NULL, "out of memory");
	/* an outer caller's own wording does not hide the cause */
	cr_assert_eq(smp__error_set(&err, SMP_EIO, "outer", NULL, "failed"),
		     SMP_EIO);
	cr_assert_eq(err.code, SMP_ENOMEM);
	cr_assert_str_eq(err.source, "inner");
	cr_assert_str_eq(err.message, "out of memory");
	/* a new call starts empty */
	smp__error_clear(&err);
	cr_assert_eq(err.code, 0);
	cr_assert_str_eq(err.message, "");
	smp__error_set(&err, SMP_EIO, "outer", NULL, "failed");
	cr_assert_eq(err.code, SMP_EIO);
}

Test(error, a_long_source_keeps_its_tail)
{
	struct smp_error err = {0};
	char path[600];
	size_t n;

	memset(path, 'd', sizeof(path));
	memcpy(path + sizeof(path) - 10, "/job.yaml", 10);
	smp__error_set(&err, SMP_EPARSE, path, NULL, "x");
	n = strlen(err.source);
	cr_assert_eq(n, sizeof(err.source) - 1);
	cr_assert_eq(strncmp(err.source, "...", 3), 0);
	cr_assert_str_eq(err.source + n - 9, "/job.yaml");
}

Test(error, null_is_accepted)
{
	smp__error_clear(NULL);
	cr_assert_eq(smp__error_set(NULL, SMP_EINVAL, NULL, NULL, "x"),
		     SMP_EINVAL);
}
