/*
 * test_json_oracle.c - the project's strict JSON reader (lib/doc/
 * load_json.c) against cJSON, its oracle: over JSONTestSuite's parsing
 * cases ($SMP_SHARED_DIR/corpora/json-test-suite) and the fuzz seeds
 * (tests/fuzz/corpus/json*), both must accept or reject each file alike,
 * and where both accept, read the same values: the same keys in the same
 * order, the same strings, numbers equal as doubles, the same literals.
 * Where the readers differ on purpose, the file is in expected[] with the
 * reason; a difference not listed fails, and so does a listed file that
 * no longer differs. cJSON is linked into the unit tests only.
 */
#include <cJSON.h>
#include <criterion/criterion.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "failing_alloc.h"
#include "doc/load.h"

/* A file the two readers treat differently, and why that is intended. */
struct expected {
	const char *file;
	const char *why;
};

/* the reasons, one per kind of difference */
#define DUP                                                                    \
	"a repeated key is an error for the strict reader (RFC 8259 4: names " \
	"SHOULD be unique; a data file that repeats one is ambiguous); cJSON " \
	"keeps both members"
#define NUL                                                                    \
	"a \\u0000 escape: cJSON's strings are C strings and end at it; ours " \
	"keep the length"
#define CTRL                                                                   \
	"a raw control character in a string (RFC 8259 7: must be escaped); "  \
	"cJSON takes it"
#define UTF8                                                                   \
	"not UTF-8 (RFC 8259 8.1; the loader checks every input): cJSON "      \
	"copies the bytes unchecked"
#define NUM                                                                    \
	"a number outside RFC 8259 6's grammar (leading zero, no digit "       \
	"before or after '.'): cJSON reads numbers with strtod()"
#define DEPTH                                                                  \
	"500 nested arrays: over the loader's depth limit (64, "               \
	"lib/doc/limits.h: an input-limit finding); cJSON's is 1,000"
#define ENDNUL                                                                 \
	"a NUL byte after the value: cJSON stops reading at it, ours reads "   \
	"the whole buffer"
#define FF                                                                     \
	"a form feed between tokens (RFC 8259 2 allows only space, tab, LF, "  \
	"CR): cJSON skips every byte <= 32"
#define HEX "a \\u escape without four hex digits: cJSON takes it"

static const struct expected expected[] = {
	{"json/dup_keys.json", DUP},
	{"json/dup_keys_large.json", DUP},
	{"suite/y_object_duplicated_key.json", DUP},
	{"suite/y_object_duplicated_key_and_value.json", DUP},
	{"json/valid_escapes.json", NUL},
	{"suite/y_object_escaped_null_in_key.json", NUL},
	{"suite/y_string_null_escape.json", NUL},
	{"json/err_control_char.json", CTRL},
	{"suite/n_string_unescaped_ctrl_char.json", CTRL},
	{"suite/n_string_unescaped_newline.json", CTRL},
	{"suite/n_string_unescaped_tab.json", CTRL},
	{"json/err_invalid_utf8.json", UTF8},
	{"suite/i_string_UTF-8_invalid_sequence.json", UTF8},
	{"suite/i_string_UTF8_surrogate_U+D800.json", UTF8},
	{"suite/i_string_invalid_utf-8.json", UTF8},
	{"suite/i_string_iso_latin_1.json", UTF8},
	{"suite/i_string_lone_utf8_continuation_byte.json", UTF8},
	{"suite/i_string_not_in_unicode_range.json", UTF8},
	{"suite/i_string_overlong_sequence_2_bytes.json", UTF8},
	{"suite/i_string_overlong_sequence_6_bytes.json", UTF8},
	{"suite/i_string_overlong_sequence_6_bytes_null.json", UTF8},
	{"suite/i_string_truncated-utf-8.json", UTF8},
	{"suite/i_string_utf16BE_no_BOM.json", UTF8},
	{"suite/i_string_utf16LE_no_BOM.json", UTF8},
	{"json/err_leading_zero.json", NUM},
	{"suite/n_number_-01.json", NUM},
	{"suite/n_number_-2..json", NUM},
	{"suite/n_number_0.e1.json", NUM},
	{"suite/n_number_2.e+3.json", NUM},
	{"suite/n_number_2.e-3.json", NUM},
	{"suite/n_number_2.e3.json", NUM},
	{"suite/n_number_neg_int_starting_with_zero.json", NUM},
	{"suite/n_number_neg_real_without_int_part.json", NUM},
	{"suite/n_number_real_without_fractional_part.json", NUM},
	{"suite/n_number_with_leading_zero.json", NUM},
	{"suite/i_structure_500_nested_arrays.json", DEPTH},
	{"suite/n_multidigit_number_then_00.json", ENDNUL},
	{"suite/n_structure_null-byte-outside-string.json", ENDNUL},
	{"suite/n_structure_whitespace_formfeed.json", FF},
	{"suite/n_string_invalid_unicode_escape.json", HEX},
};

#define NEXPECTED (sizeof(expected) / sizeof(expected[0]))

static char *
read_all(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!fp)
		return NULL;
	if (fseek(fp, 0, SEEK_END) == 0 && (n = ftell(fp)) >= 0 &&
	    fseek(fp, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, fp) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		if (buf)
			buf[n] = '\0';
		*len = (size_t)n;
	}
	fclose(fp);
	return buf;
}

static int same_value(const struct smp_node *n, const cJSON *j);

static int
same_scalar(const struct smp_node *n, const cJSON *j)
{
	const char *v = n->u.scalar.value;
	double d;

	if (n->u.scalar.style == SMP_STYLE_DOUBLE_QUOTED)
		return cJSON_IsString(j) &&
		       strlen(j->valuestring) == n->u.scalar.len &&
		       memcmp(j->valuestring, v, n->u.scalar.len) == 0;
	if (strcmp(v, "true") == 0)
		return cJSON_IsTrue(j);
	if (strcmp(v, "false") == 0)
		return cJSON_IsFalse(j);
	if (strcmp(v, "null") == 0)
		return cJSON_IsNull(j);
	if (!cJSON_IsNumber(j))
		return 0;
	d = strtod(v, NULL);
	return d == j->valuedouble || (isinf(d) && isinf(j->valuedouble) &&
				       signbit(d) == signbit(j->valuedouble));
}

static int
same_value(const struct smp_node *n, const cJSON *j)
{
	const cJSON *c = j->child;
	size_t i;

	switch (n->kind) {
	case SMP_NODE_SCALAR:
		return same_scalar(n, j);
	case SMP_NODE_SEQUENCE:
		if (!cJSON_IsArray(j))
			return 0;
		for (i = 0; i < n->u.sequence.count; i++, c = c->next)
			if (!c || !same_value(n->u.sequence.items[i], c))
				return 0;
		return c == NULL;
	case SMP_NODE_MAPPING:
		if (!cJSON_IsObject(j))
			return 0;
		for (i = 0; i < n->u.mapping.count; i++, c = c->next) {
			const struct smp_node *k = n->u.mapping.items[i].key;

			if (!c || strlen(c->string) != k->u.scalar.len ||
			    memcmp(c->string, k->u.scalar.value,
				   k->u.scalar.len) != 0 ||
			    !same_value(n->u.mapping.items[i].value, c))
				return 0;
		}
		return c == NULL;
	}
	return 0;
}

/* What the two readers made of one file, as a word for the messages. */
static const char *
compare(const char *buf, size_t len)
{
	struct failing_alloc count = FA_INIT;
	struct smp_allocator a = fa_allocator(&count);
	struct smp_docs docs;
	const char *end = NULL;
	const char *verdict;
	cJSON *j;
	int ours;

	smp__docs_init(&docs, &a);
	cr_assert_eq(smp__load_json(&docs, buf, len, NULL), 0);
	ours = docs.count == 1 && docs.ndiags == 0;
	/* require_null_terminated: nothing but blanks, then the NUL that
	 * read_all() put at buf[len], which the length must then count */
	j = cJSON_ParseWithLengthOpts(buf, len + 1, &end, 1);
	if (ours && j)
		verdict = same_value(docs.items[0].root, j) ? "same"
							    : "other values";
	else if (ours)
		verdict = "accepted by us only";
	else if (j)
		verdict = "accepted by cJSON only";
	else
		verdict = "same";
	cJSON_Delete(j);
	smp__docs_release(&docs);
	cr_expect_eq(count.live, 0, "%ld blocks leaked", count.live);
	return verdict;
}

static const struct expected *
expected_of(const char *file)
{
	size_t i;

	for (i = 0; i < NEXPECTED; i++)
		if (strcmp(expected[i].file, file) == 0)
			return &expected[i];
	return NULL;
}

/* Compares every file of dir whose name passes keep; counts in *files,
 * marks the expected differences met in met[]. */
static void
compare_dir(const char *dir, const char *label, int (*keep)(const char *),
	    size_t *files, int *met)
{
	char path[2048], key[512];
	struct dirent *e;
	DIR *d = opendir(dir);

	cr_assert_not_null(d, "cannot open %s", dir);
	while ((e = readdir(d)) != NULL) {
		const struct expected *x;
		const char *verdict;
		size_t len = 0;
		char *buf;

		if (e->d_name[0] == '.' || !keep(e->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		snprintf(key, sizeof(key), "%s/%s", label, e->d_name);
		buf = read_all(path, &len);
		cr_assert_not_null(buf, "cannot read %s", path);
		verdict = compare(buf, len);
		free(buf);
		(*files)++;
		x = expected_of(key);
		if (x)
			met[x - expected] = 1;
		if (strcmp(verdict, "same") != 0 && !x)
			cr_expect_fail("%s: %s (not an expected difference)",
				       key, verdict);
		if (strcmp(verdict, "same") == 0 && x)
			cr_expect_fail("%s: no longer differs (%s): drop it "
				       "from expected[]",
				       key, x->why);
	}
	closedir(d);
}

static int
suite_case(const char *name)
{
	return strlen(name) > 2 && name[1] == '_' && strchr("yni", name[0]);
}

static int
any_file(const char *name)
{
	(void)name;
	return 1;
}

static int
json_dir(const char *name)
{
	return strncmp(name, "json", 4) == 0;
}

Test(json_oracle, json_test_suite)
{
	const char *shared = getenv("SMP_SHARED_DIR");
	char dir[1024];
	int met[NEXPECTED] = {0};
	size_t files = 0, i;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/corpora/json-test-suite/test_parsing",
		 shared && *shared ? shared : "../shared");
	d = opendir(dir);
	if (!d)
		cr_skip_test("json-test-suite not found at %s (set "
			     "SMP_SHARED_DIR): the cJSON differential test "
			     "of the JSON reader is skipped",
			     dir);
	closedir(d);
	compare_dir(dir, "suite", suite_case, &files, met);
	cr_expect_gt(files, 300, "only %zu suite files", files);
	for (i = 0; i < NEXPECTED; i++)
		if (strncmp(expected[i].file, "suite/", 6) == 0)
			cr_expect(met[i], "%s: no such file", expected[i].file);
}

Test(json_oracle, fuzz_seeds)
{
	const char *root = "tests/fuzz/corpus";
	char dir[1024];
	int met[NEXPECTED] = {0};
	size_t files = 0, i;
	struct dirent *e;
	DIR *d = opendir(root);

	cr_assert_not_null(d, "cannot open %s (run from the top folder)", root);
	while ((e = readdir(d)) != NULL) {
		if (!json_dir(e->d_name))
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", root, e->d_name);
		compare_dir(dir, e->d_name, any_file, &files, met);
	}
	closedir(d);
	cr_expect_gt(files, 20, "only %zu seeds", files);
	for (i = 0; i < NEXPECTED; i++)
		if (strncmp(expected[i].file, "suite/", 6) != 0)
			cr_expect(met[i], "%s: no such file", expected[i].file);
}
