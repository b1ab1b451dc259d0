/*
 * helpers.c - helpers shared by the unit-test files; see helpers.h. Not a
 * test file: it defines no Criterion tests.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"

/* The error message goes into the assertion: a context that cannot be
 * made is the test's setup failing, not what it tests. */
struct smp_context *
th_context(const struct smp_options *opts)
{
	struct smp_context *ctx = NULL;
	struct smp_error err = {0};
	int rc = smp_context_new(&ctx, opts, &err);

	cr_assert_eq(rc, 0, "context: %s", err.message);
	return ctx;
}

/* Findings are data: only a check that did not complete is a failure. */
struct smp_report *
th_check(const struct smp_context *ctx, const char *spec)
{
	return th_check_named(ctx, "j.yaml", spec);
}

struct smp_report *
th_check_named(const struct smp_context *ctx, const char *name,
	       const char *spec)
{
	struct smp_report *rep = NULL;
	struct smp_error err = {0};

	cr_assert_eq(
		smp_check_buffer(&rep, ctx, name, spec, strlen(spec), &err), 0,
		"%s: %s", name, err.message);
	return rep;
}

/* Linear: a test's report holds a handful of findings. */
const struct smp_finding *
th_find(const struct smp_report *rep, const char *rule)
{
	size_t i;

	for (i = 0; i < smp_report_count(rep); i++)
		if (strcmp(smp_report_get(rep, i)->rule, rule) == 0)
			return smp_report_get(rep, i);
	return NULL;
}

/* For assertions that read as a yes/no question. */
int
th_has_rule(const struct smp_report *rep, const char *rule)
{
	return th_find(rep, rule) != NULL;
}

/* lstat, so that a link is removed, never followed. */
void
th_rm_tree(const char *path)
{
	char sub[1200];
	struct dirent *e;
	struct stat st;
	DIR *d;

	if (lstat(path, &st) != 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		unlink(path);
		return;
	}
	d = opendir(path);
	while (d && (e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		th_rm_tree(sub);
	}
	if (d)
		closedir(d);
	rmdir(path);
}

/* Hidden names count too: temporary files start with a dot. */
int
th_count_prefixed(const char *dir, const char *prefix)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	int n = 0;

	while (d && (e = readdir(d)) != NULL)
		n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
	if (d)
		closedir(d);
	return n;
}

char *
th_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long n;

	if (!f)
		return NULL;
	cr_assert_eq(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	cr_assert_geq(n, 0);
	rewind(f);
	buf = malloc((size_t)n + 1);
	cr_assert_not_null(buf);
	cr_assert_eq(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	if (len)
		*len = (size_t)n;
	return buf;
}
