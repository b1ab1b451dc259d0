/*
 * test_embedded.c - the data compiled into the library is byte for byte
 * the files in the source tree (CONVENTIONS.md 23): a stale build or a
 * broken embed.sh would otherwise check specs against old data.
 * Run from the repository root.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "embedded.h"

/* Reads a whole file (test code: plain malloc); NULL when unreadable. */
static unsigned char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!f)
		return NULL;
	do {
		if (n == cap) {
			unsigned char *p;

			cap = cap ? cap * 2 : 65536;
			p = realloc(buf, cap);
			if (!p) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = p;
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got > 0);
	fclose(f);
	*len = n;
	return buf;
}

static int
ends_with(const char *s, const char *suffix)
{
	size_t ls = strlen(s), lx = strlen(suffix);

	return ls >= lx && strcmp(s + ls - lx, suffix) == 0;
}

Test(embedded, bytes_equal_files)
{
	size_t i, data = 0, schemas = 0;

	cr_assert_gt(smp__embedded_count, 0);
	for (i = 0; i < smp__embedded_count; i++) {
		const struct smp_embedded_file *e = &smp__embedded_files[i];
		int is_schema = ends_with(e->name, ".schema.json");
		char path[512];
		unsigned char *disk;
		size_t len = 0;

		cr_assert_not_null(e->name);
		snprintf(path, sizeof(path), "%s/%s",
			 is_schema ? "schemas" : "instance-data", e->name);
		disk = slurp(path, &len);
		cr_assert_not_null(disk,
				   "cannot read %s (run from the "
				   "repository root)",
				   path);
		cr_expect_eq(e->len, len,
			     "%s: %zu bytes embedded, %zu on disk: rebuild",
			     path, e->len, len);
		if (e->len == len)
			cr_expect(memcmp(e->data, disk, len) == 0,
				  "%s: embedded bytes differ: rebuild", path);
		/* embed.sh appends a NUL so the data can be read as text */
		cr_expect_eq(e->data[e->len], 0, "%s: no final NUL", path);
		free(disk);
		if (is_schema)
			schemas++;
		else
			data++;
	}
	cr_assert_geq(data, 3);
	cr_assert_geq(schemas, 3);
	cr_assert_null(smp__embedded_files[smp__embedded_count].name);
}

Test(embedded, find_by_name)
{
	static const char *const names[] = {
		"instances.json",
		"tested-models.json",
		"frameworks.json",
		"instances.schema.json",
		"tested-models.schema.json",
		"frameworks.schema.json",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct smp_embedded_file *e =
			smp__embedded_find(names[i]);

		cr_assert_not_null(e, "%s is not embedded", names[i]);
		cr_assert_str_eq(e->name, names[i]);
		cr_assert_gt(e->len, 0);
	}
	cr_assert_null(smp__embedded_find("instances"));
	cr_assert_null(smp__embedded_find("instance-data/instances.json"));
	cr_assert_null(smp__embedded_find(""));
}
