/*
 * test_yaml_suite.c - the YAML loader over the YAML test suite
 * ($SMP_SHARED_DIR/corpora/yaml-test-suite). Every case loads without a
 * crash or a hang; every invalid case gives a syntax or input-limit
 * finding unless libyaml 0.2.5 itself accepts it (listed below with the
 * reason); valid cases that libyaml rejects are listed too, and the data
 * of every accepted valid case is compared with its in.json.
 */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "doc/load.h"
#include "rules/check.h"

struct known {
	const char *id;
	const char *reason;
};

/* Invalid YAML that libyaml 0.2.5 accepts: no finding is expected. */
static const struct known accepted_invalid[] = {
	{"9C9N", "flow sequence lines less indented than the block key"},
	{"9HCY", "directive after a document without a '...' end marker"},
	{"9JBA", "comment without a space after a flow sequence"},
	{"CVW2", "comment without a space after a flow comma"},
	{"DK95/01", "tab as indentation of a double-quoted continuation"},
	{"EB22", "directive after a document without a '...' end marker"},
	{"G5U8", "plain '-' as a flow sequence entry"},
	{"MUS6/00", "comment without a space after a %YAML directive"},
	{"MUS6/01", "second %YAML directive without a '...' end marker"},
	{"QB6E", "quoted continuation lines less indented than the key"},
	{"RHX7", "directive after a document without a '...' end marker"},
	{"S98Z", "leading blank line of a block scalar more indented than "
		 "its content"},
	{"SU5Z", "comment without a space after a double-quoted scalar"},
	{"X4QW", "comment without a space after a block scalar indicator"},
	{"Y79Y/003", "tab as indentation inside a flow sequence"},
	{"YJV2", "plain '-' as a flow sequence entry"},
};

/* Valid YAML that libyaml 0.2.5 rejects: a syntax finding is expected. */
static const struct known rejected_valid[] = {
	{"2JQS", "empty implicit key (': a')"},
	{"2LFX", "reserved directive rejected instead of ignored"},
	{"2SXE", "':' inside an anchor name"},
	{"4ABK", "flow mapping entry without a value indicator"},
	{"4MUZ/00", "flow ':' on the line after its key"},
	{"4MUZ/01", "flow ':' on the line after its key"},
	{"4MUZ/02", "flow ':' on the line after its key"},
	{"58MP", "plain flow scalar starting with ':'"},
	{"5MUD", "flow ':' on the line after its key"},
	{"5T43", "plain flow scalar starting with ':'"},
	{"6BCT", "tab as separation space"},
	{"6CA3", "tab before a top-level flow collection"},
	{"6LVF", "reserved directive rejected instead of ignored"},
	{"6M2F", "empty implicit key (': a')"},
	{"7Z25", "bare document after a '...' end marker"},
	{"8XYN", "non-ASCII character in an anchor name"},
	{"96NN/00", "tab leading block scalar content"},
	{"96NN/01", "tab leading block scalar content"},
	{"9SA2", "multi-line quoted key in a flow mapping"},
	{"A2M4", "tab as separation space"},
	{"BEC7", "%YAML 1.3 rejected instead of accepted with a warning"},
	{"CFD4", "empty implicit key in a flow sequence pair"},
	{"DBG4", "plain flow scalar starting with ':'"},
	{"DK3J", "zero-indented top-level block scalar"},
	{"DK95/00", "tab as separation space"},
	{"DK95/03", "tab on a blank line before content"},
	{"DK95/04", "tab on a blank line between entries"},
	{"FP8R", "zero-indented top-level block scalar"},
	{"FRK4", "empty nodes in a flow mapping"},
	{"HM87/00", "plain flow scalar starting with ':'"},
	{"HWV9", "'...' end marker with no document"},
	{"K3WX", "flow ':' on the line after its key"},
	{"M2N8/00", "empty implicit key (': x')"},
	{"M7A3", "bare document after a '...' end marker"},
	{"MUS6/05", "reserved directive rejected instead of ignored"},
	{"MUS6/06", "reserved directive rejected instead of ignored"},
	{"NHX8", "empty implicit key (':')"},
	{"NJ66", "multi-line plain key in a flow mapping"},
	{"NKF9", "empty implicit key (': empty key')"},
	{"Q5MG", "tab before a top-level flow collection"},
	{"QT73", "'...' end marker with no document"},
	{"R4YG", "tab in block scalar content"},
	{"S3PD", "empty implicit key (': # Both empty')"},
	{"SM9W/01", "empty implicit key (':')"},
	{"UKK6/00", "empty implicit key ('- :')"},
	{"UT92", "multi-line plain key in a flow mapping"},
	{"VJP3/01", "flow ':' on the line after its key"},
	{"W4TN", "'%' line in a block scalar read as a directive"},
	{"W5VH", "':' and other indicators inside an anchor name"},
	{"Y79Y/001", "tab in block scalar content"},
	{"Y79Y/010", "tab as separation space"},
};

/* Accepted valid cases whose data differs from in.json. */
static const struct known json_differs[] = {
	{"652Z", "libyaml reads '?foo' in a flow mapping as '? foo'"},
	{"HM87/01", "libyaml reads '?x' in a flow sequence as '? x'"},
	{"JEF9/02", "libyaml drops a keep-chomped trailing line of spaces"},
	{"L24T/01", "libyaml drops a trailing line of spaces in a literal"},
	{"Y2GN", "libyaml ends the anchor name '&an:chor' at the ':'"},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const struct known *
find_known(const struct known *table, size_t n, const char *id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(table[i].id, id) == 0)
			return &table[i];
	return NULL;
}

static char *
read_all(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0, r;

	if (!f)
		return NULL;
	for (;;) {
		if (n + 4096 + 1 > cap) {
			char *p;

			cap = cap ? cap * 2 : 8192;
			p = realloc(buf, cap);
			cr_assert_not_null(p);
			buf = p;
		}
		r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
		if (r == 0)
			break;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static int
exists(const char *path, int want_dir)
{
	struct stat st;

	if (stat(path, &st) != 0)
		return 0;
	return want_dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode);
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted entries of a folder (NULL-terminated, malloc'd). */
static char **
list_dir(const char *path, size_t *n)
{
	DIR *d = opendir(path);
	struct dirent *e;
	char **v = NULL;
	size_t cap = 0;

	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if (*n + 2 > cap) {
			char **p;

			cap = cap ? cap * 2 : 64;
			p = realloc(v, cap * sizeof(*v));
			cr_assert_not_null(p);
			v = p;
		}
		v[(*n)++] = strdup(e->d_name);
	}
	closedir(d);
	if (v) {
		qsort(v, *n, sizeof(*v), cmp_str);
		v[*n] = NULL;
	}
	return v;
}

static void
free_list(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Case folders are named by four upper-case letters and digits. */
static int
is_case_id(const char *s)
{
	size_t i;

	for (i = 0; i < 4; i++)
		if (!((s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9')))
			return 0;
	return s[4] == '\0';
}

/* 1 when node n holds the same data as JSON value j. */
static int
same_data(const struct smp_node *n, const cJSON *j)
{
	size_t i;
	const cJSON *c;

	if (!n)
		return cJSON_IsNull(j);
	switch (n->kind) {
	case SMP_NODE_MAPPING:
		/* same keys and values; in.json may order keys differently */
		if (!cJSON_IsObject(j) ||
		    (size_t)cJSON_GetArraySize(j) != n->u.mapping.count)
			return 0;
		for (i = 0; i < n->u.mapping.count; i++) {
			const struct smp_node *k = n->u.mapping.items[i].key;

			if (k->kind != SMP_NODE_SCALAR ||
			    strlen(k->u.scalar.value) != k->u.scalar.len)
				return 0;
			c = cJSON_GetObjectItemCaseSensitive(j,
							     k->u.scalar.value);
			if (!c || !same_data(n->u.mapping.items[i].value, c))
				return 0;
		}
		return 1;
	case SMP_NODE_SEQUENCE:
		if (!cJSON_IsArray(j))
			return 0;
		c = j->child;
		for (i = 0; i < n->u.sequence.count; i++, c = c->next)
			if (!c || !same_data(n->u.sequence.items[i], c))
				return 0;
		return c == NULL;
	case SMP_NODE_SCALAR:
		break;
	}
	switch (smp__scalar_type(n)) {
	case SMP_SCALAR_NULL:
		return cJSON_IsNull(j);
	case SMP_SCALAR_BOOL:
		return cJSON_IsBool(j) &&
		       smp__scalar_bool(n) == (cJSON_IsTrue(j) ? 1 : 0);
	case SMP_SCALAR_INT:
	case SMP_SCALAR_FLOAT: {
		double d;

		return cJSON_IsNumber(j) && smp__scalar_number(n, &d) == 0 &&
		       fabs(d - j->valuedouble) <= 1e-9 * fabs(d);
	}
	case SMP_SCALAR_STRING:
		break;
	}
	return cJSON_IsString(j) && strlen(j->valuestring) == n->u.scalar.len &&
	       memcmp(j->valuestring, n->u.scalar.value, n->u.scalar.len) == 0;
}

/* Compares the documents with the JSON values of in.json, in order. */
static int
same_as_json(const struct smp_docs *docs, const char *json, size_t len)
{
	const char *p = json, *end = json + len;
	size_t i = 0;

	for (;;) {
		const char *next = NULL;
		cJSON *j;
		int ok;

		while (p < end && strchr(" \t\r\n", *p))
			p++;
		if (p >= end)
			return i == docs->count;
		if (i >= docs->count)
			return 0;
		j = cJSON_ParseWithLengthOpts(p, (size_t)(end - p), &next, 0);
		if (!j)
			return 0;
		ok = same_data(docs->items[i].root, j);
		cJSON_Delete(j);
		if (!ok)
			return 0;
		p = next;
		i++;
	}
}

struct tally {
	size_t cases, valid, valid_ok, invalid, invalid_ok;
	size_t known_accepted, known_rejected, json_checked, json_same;
	size_t json_known, failures;
	char unexpected[4096];
	char json_diff[4096];
	char rejected[4096];
};

static void
append(char *list, size_t cap, const char *id)
{
	size_t n = strlen(list);

	if (n + strlen(id) + 2 < cap)
		snprintf(list + n, cap - n, "%s%s", n ? " " : "", id);
}

static void
run_case(struct tally *t, const char *dir, const char *id)
{
	struct smp_limits lim = {4u << 20, 64, 100000, 65536, 1000};
	char path[4096];
	struct smp_allocator a;
	struct smp_report *rep;
	struct smp_docs docs;
	size_t len, jlen, i;
	int invalid, rejected = 0;
	char *buf, *json;

	snprintf(path, sizeof(path), "%s/%s/in.yaml", dir, id);
	buf = read_all(path, &len);
	cr_assert_not_null(buf, "cannot read %s", path);
	snprintf(path, sizeof(path), "%s/%s/error", dir, id);
	invalid = exists(path, 0);

	smp__allocator_resolve(&a, NULL);
	smp__docs_init(&docs, &a);
	cr_assert_eq(smp__report_new(&rep, &a, "in.yaml", NULL), 0);
	rep->buf = buf;
	rep->len = len;
	cr_assert_eq(smp__load_yaml(&docs, buf, len, &lim), 0, "%s", id);
	cr_assert_eq(smp__rules_input(rep, &docs), 0, "%s", id);
	for (i = 0; i < smp_report_count(rep); i++) {
		const char *rule = smp_report_get(rep, i)->rule;

		if (strcmp(rule, "syntax") == 0 ||
		    strcmp(rule, "input-limit") == 0)
			rejected = 1;
	}
	t->cases++;
	if (invalid) {
		const struct known *k = find_known(accepted_invalid,
						   COUNT(accepted_invalid), id);

		t->invalid++;
		t->invalid_ok += rejected;
		if (k && !rejected) {
			t->known_accepted++;
		} else if (k || !rejected) {
			/* unlisted acceptance, or a stale table entry */
			t->failures++;
			append(t->unexpected, sizeof(t->unexpected), id);
		}
	} else {
		const struct known *k =
			find_known(rejected_valid, COUNT(rejected_valid), id);

		t->valid++;
		t->valid_ok += !rejected;
		if (rejected)
			append(t->rejected, sizeof(t->rejected), id);
		if (k && rejected) {
			t->known_rejected++;
		} else if (k || rejected) {
			t->failures++;
			append(t->unexpected, sizeof(t->unexpected), id);
		}
		snprintf(path, sizeof(path), "%s/%s/in.json", dir, id);
		json = rejected ? NULL : read_all(path, &jlen);
		if (json) {
			t->json_checked++;
			k = find_known(json_differs, COUNT(json_differs), id);
			if (same_as_json(&docs, json, jlen)) {
				t->json_same++;
				if (k) {
					t->failures++;
					append(t->unexpected,
					       sizeof(t->unexpected), id);
				}
			} else {
				append(t->json_diff, sizeof(t->json_diff), id);
				t->json_known += k != NULL;
				if (!k) {
					t->failures++;
					append(t->unexpected,
					       sizeof(t->unexpected), id);
				}
			}
			free(json);
		}
	}
	smp__docs_release(&docs);
	smp_report_free(rep);
	free(buf);
}

Test(yaml_suite, conformance, .timeout = 60)
{
	const char *shared = getenv("SMP_SHARED_DIR");
	char dir[2048], sub[4096], id[64];
	struct tally *t = calloc(1, sizeof(*t));
	size_t n, m, i, k;
	char **top, **inner;

	cr_assert_not_null(t);
	snprintf(dir, sizeof(dir), "%s/corpora/yaml-test-suite",
		 shared && *shared ? shared : "../shared");
	if (!exists(dir, 1)) {
		free(t);
		cr_skip_test("yaml-test-suite not found at %s "
			     "(set SMP_SHARED_DIR)",
			     dir);
	}
	top = list_dir(dir, &n);
	cr_assert_not_null(top);
	for (i = 0; i < n; i++) {
		if (!is_case_id(top[i]))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s/in.yaml", dir, top[i]);
		if (exists(sub, 0)) {
			run_case(t, dir, top[i]);
			continue;
		}
		snprintf(sub, sizeof(sub), "%s/%s", dir, top[i]);
		inner = list_dir(sub, &m);
		for (k = 0; k < m; k++) {
			snprintf(sub, sizeof(sub), "%s/%s/%s/in.yaml", dir,
				 top[i], inner[k]);
			snprintf(id, sizeof(id), "%s/%.8s", top[i], inner[k]);
			if (exists(sub, 0))
				run_case(t, dir, id);
		}
		free_list(inner, m);
	}
	free_list(top, n);

	printf("yaml-test-suite: %zu cases; valid accepted %zu/%zu; error "
	       "rejected %zu/%zu; libyaml-known exceptions: %zu invalid "
	       "accepted, %zu valid rejected; in.json equal %zu/%zu\n",
	       t->cases, t->valid_ok, t->valid, t->invalid_ok, t->invalid,
	       t->known_accepted, t->known_rejected, t->json_same,
	       t->json_checked);
	printf("yaml-test-suite: valid cases libyaml rejects: %s\n",
	       t->rejected);
	if (t->json_diff[0])
		printf("yaml-test-suite: data differs from in.json: %s\n",
		       t->json_diff);
	fflush(stdout);
	cr_expect_gt(t->cases, 300);
	cr_expect_eq(t->failures, 0,
		     "cases not matching the tables (update the tables with "
		     "a reason, or fix the loader): %s",
		     t->unexpected);
	cr_expect_eq(t->known_accepted, COUNT(accepted_invalid));
	cr_expect_eq(t->known_rejected, COUNT(rejected_valid));
	cr_expect_eq(t->json_known, COUNT(json_differs));
	free(t);
}
