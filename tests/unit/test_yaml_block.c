/*
 * test_yaml_block.c - the block scanner against libyaml, event by event:
 * whatever the scanner accepts, libyaml parses into the same events
 * (type, marks, value, style), over the shapes specs have, every YAML
 * file of the repository, the YAML test suite and mutations of specs.
 * What it declines goes to libyaml, so a wrong decline costs speed only;
 * a wrong accept would change findings, and these tests look for one.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "failing_alloc.h"
#include "helpers.h"
#include "doc/yaml_block.h"

/* One libyaml event as the comparison needs it. */
struct ev {
	yaml_event_type_t type;
	yaml_mark_t start, end;
	char *value;
	size_t len;
	yaml_scalar_style_t style;
	int tagged; /* a tag or an anchor */
};

struct evs {
	struct ev *items;
	size_t n, cap;
};

static void
evs_free(struct evs *e)
{
	size_t i;

	for (i = 0; i < e->n; i++)
		free(e->items[i].value);
	free(e->items);
	memset(e, 0, sizeof(*e));
}

/* libyaml's events without the stream's own; 1 when it parsed it all. */
static int
libyaml_events(const char *buf, size_t len, struct evs *out)
{
	yaml_parser_t p;
	yaml_event_t e;
	int ok = 1, done = 0;

	memset(out, 0, sizeof(*out));
	cr_assert(yaml_parser_initialize(&p));
	yaml_parser_set_input_string(&p, (const unsigned char *)buf, len);
	while (!done) {
		struct ev *v;

		if (!yaml_parser_parse(&p, &e)) {
			ok = 0;
			break;
		}
		done = e.type == YAML_STREAM_END_EVENT;
		if (e.type != YAML_STREAM_START_EVENT &&
		    e.type != YAML_STREAM_END_EVENT) {
			if (out->n == out->cap) {
				out->cap = out->cap ? 2 * out->cap : 64;
				out->items =
					realloc(out->items,
						out->cap * sizeof(*out->items));
				cr_assert_not_null(out->items);
			}
			v = &out->items[out->n++];
			memset(v, 0, sizeof(*v));
			v->type = e.type;
			v->start = e.start_mark;
			v->end = e.end_mark;
			if (e.type == YAML_SCALAR_EVENT) {
				v->len = e.data.scalar.length;
				v->value = malloc(v->len + 1);
				cr_assert_not_null(v->value);
				memcpy(v->value, e.data.scalar.value, v->len);
				v->style = e.data.scalar.style;
				v->tagged = e.data.scalar.tag ||
					    e.data.scalar.anchor;
			} else if (e.type == YAML_MAPPING_START_EVENT) {
				v->tagged = e.data.mapping_start.tag ||
					    e.data.mapping_start.anchor;
			} else if (e.type == YAML_SEQUENCE_START_EVENT) {
				v->tagged = e.data.sequence_start.tag ||
					    e.data.sequence_start.anchor;
			}
		}
		yaml_event_delete(&e);
	}
	yaml_parser_delete(&p);
	return ok;
}

static void
assert_mark(const char *name, size_t i, const char *what, yaml_mark_t got,
	    yaml_mark_t want, const char *buf, size_t len)
{
	cr_assert(got.index == want.index && got.line == want.line &&
			  got.column == want.column,
		  "%s: event %zu %s at %zu:%zu(%zu), libyaml %zu:%zu(%zu):\n"
		  "%.*s",
		  name, i, what, got.line, got.column, got.index, want.line,
		  want.column, want.index, (int)len, buf);
}

/*
 * Scans buf; when the scanner accepts it, libyaml must parse it into the
 * same events. Returns 1 accepted, 0 declined; what is compared and
 * where it differs is in the failure message (name says which input).
 */
static int
compare(const char *name, const char *buf, size_t len)
{
	struct smp_allocator a = {NULL, NULL, NULL, NULL};
	yaml_event_t *got;
	struct evs want;
	size_t n, i;
	int rc;

	cr_assert_eq(smp__allocator_resolve(&a, NULL), 0);
	rc = smp__yaml_block_scan(buf, len, &a, &got, &n);
	cr_assert(rc == 0 || rc == 1, "%s: rc %d", name, rc);
	if (rc == 0) {
		cr_assert_null(got);
		return 0;
	}
	cr_assert(libyaml_events(buf, len, &want),
		  "%s: accepted, but libyaml refuses it:\n%.*s", name, (int)len,
		  buf);
	cr_assert_eq(n, want.n, "%s: %zu events, libyaml %zu:\n%.*s", name, n,
		     want.n, (int)len, buf);
	for (i = 0; i < n; i++) {
		const struct ev *w = &want.items[i];
		const yaml_event_t *g = &got[i];

		cr_assert_eq(g->type, w->type,
			     "%s: event %zu type %d, libyaml %d", name, i,
			     g->type, w->type);
		assert_mark(name, i, "starts", g->start_mark, w->start, buf,
			    len);
		assert_mark(name, i, "ends", g->end_mark, w->end, buf, len);
		cr_assert_not(w->tagged, "%s: event %zu has a tag or anchor",
			      name, i);
		if (w->type != YAML_SCALAR_EVENT)
			continue;
		cr_assert_eq(g->data.scalar.length, w->len,
			     "%s: event %zu value length", name, i);
		cr_assert_eq(memcmp(g->data.scalar.value, w->value, w->len), 0,
			     "%s: event %zu value '%.*s', libyaml '%s'", name,
			     i, (int)w->len, (const char *)g->data.scalar.value,
			     w->value);
		cr_assert_eq(g->data.scalar.style, w->style,
			     "%s: event %zu style", name, i);
	}
	evs_free(&want);
	smp__free(&a, got);
	return 1;
}

static int
compare_str(const char *text)
{
	return compare(text, text, strlen(text));
}

/* The shapes of estimator, ModelTrainer and CreateTrainingJob specs. */
static const char *const accepted[] = {
	"a: 1\n",
	"a: 1",
	"a: 1\n\n# tail\n   ",
	"a:\n  b:\n    - k: v\n  ",
	"a:\n  b:\n    - k: v\n  # c",
	"a:\n- b: 1\n  c:\n    d: 2\n ",
	"# generated job spec\nestimator: HuggingFace\nentry_point: train.py\n"
	"compiler_config:\n  enabled: true\n  debug: true\nenvironment:\n"
	"  GPU_NUM_DEVICES: \"4\"\n",
	"a:   # comment\n  b: 1\nc: \"x\"   # d\nd: 'y'\n\"k\": v\n'q': w\n",
	"e:\n- p\n- q: 1\n  r: 2\nf:\ng: end\n",
	"e:\n  - p\n  - q: 1\n    r: 2\n\n  # c\nf: 1",
	"x:\n- a: 1\n  b:\n    c: 2\n- d\ny: 3\n",
	"k:\n- a:\n  - x\n  - y\n  b: 2\n",
	"a:\n  b:\n    c:\n      d: deep\n",
	"a:\nb:\n",
	"a: b\n   # indented comment\nc: d\n",
	"url: s3://bucket/prefix/data\nimage: 1.dkr.ecr.aws/x:1.0\n",
	"lr: 3e-05\nn: -1\nm: ~\nt: 2026-01-01\ns: a, b [c] {d}\n",
	"hyperparameters:\n  epochs: 3 # three\n  x: a#b\n",
	"a: ''\nb: \"\"\nc: 'it is'\n",
	"key with spaces: value with spaces   \n",
	"a:\n  -   x\n  -   y: 1\n      z: 2\n",
	"compiler_config: {}\ndistribution: {pytorchxla: {enabled: true}}\n",
	"a: []\nb: {x: 1, \"y\": [p, q], 'z': s3://b/k}\n",
	"c:\n- {k: v}\n- [1, 2]\nd: { x: 1 , y: 2 }  # c\n",
	"a: [1, 2]\n",
	"a: {b: 1}\n",
	"a: [x:y]\n",
};

/* Outside the subset (or refused by libyaml): libyaml reads them. */
static const char *const declined[] = {
	"",
	"# only a comment\n",
	"---\na: 1\n",
	"a: 1\n---\nb: 2\n",
	"a: 1\n...\n",
	"%YAML 1.2\n---\na: 1\n",
	"- a\n- b\n",
	"  a: 1\n",
	"a: {b: 1, }\n",
	"a: [a: 1]\n",
	"a: {b}\n",
	"a: {b: }\n",
	"a: [1,\n  2]\n",
	"a: {[x]: 1}\n",
	"a: [x:]\n",
	"a: {b:c}\n",
	"t: {m:? e: t}\n",
	"t: [m:?]\n",
	"a: {b: x:}\n",
	"a: [1] x\n",
	"a: {b: 1}: c\n",
	"- {a: 1}\n",
	"a: &x 1\nb: *x\n",
	"a: !!str 1\n",
	"a: |\n  text\n",
	"a: >\n  text\n",
	"a: \"x\\ty\"\n",
	"a: 'it''s'\n",
	"a: \"two\n  lines\"\n",
	"a: plain\n  continued\n",
	"a:\n  value on the next line\n",
	"a: b: c\n",
	"a: b:\n",
	"a : 1\n",
	"? a\n: 1\n",
	"a:\tb\n",
	"a: 1\r\n",
	"\xEF\xBB\xBF"
	"a: 1\n",
	"a: caf\xC3\xA9\n",
	"a:\n  - - x\n",
	"a:\n  -\n    b: 1\n",
	"a:\n  - x\n  b: 1\n",
	"a:\n    b: 1\n  c: 2\n",
	"a: 1\n b: 2\n",
	"a: \"x\" y\n",
	"a: \"x\"# c\n",
	"a #b: c\n",
	"@a: 1\n",
	": not a key\n",
	"a: - b\n",
};

Test(yaml_block, accepts_the_shapes_specs_have)
{
	size_t i;

	for (i = 0; i < sizeof(accepted) / sizeof(accepted[0]); i++)
		cr_expect_eq(compare_str(accepted[i]), 1, "declined:\n%s",
			     accepted[i]);
}

Test(yaml_block, declines_what_libyaml_must_read)
{
	size_t i;

	for (i = 0; i < sizeof(declined) / sizeof(declined[0]); i++)
		cr_expect_eq(compare_str(declined[i]), 0, "accepted:\n%s",
			     declined[i]);
}

/* A key longer than libyaml's simple keys may be. */
Test(yaml_block, declines_a_key_libyaml_refuses)
{
	char buf[2100];

	memset(buf, 'k', 2000);
	memcpy(buf + 2000, ": 1\n", 5);
	cr_assert_eq(compare("long key", buf, strlen(buf)), 0);
	memcpy(buf + 900, ": 1\n", 5);
	cr_assert_eq(compare("900-byte key", buf, strlen(buf)), 1);
}

/* Deeper than the scanner's levels: libyaml (and the depth limit). */
Test(yaml_block, declines_deep_nesting)
{
	char buf[16384];
	size_t n = 0, d;

	for (d = 0; d < 80; d++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%*sk%zu:\n",
				      (int)(2 * d), "", d);
	cr_assert_eq(compare("80 levels", buf, n), 0);
	n = 0;
	for (d = 0; d < 30; d++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%*sk%zu:\n",
				      (int)(2 * d), "", d);
	cr_assert_eq(compare("30 levels", buf, n), 1);
}

/* Every .yaml and .yml file under dir; returns how many were accepted. */
static size_t
compare_tree(const char *dir, size_t *seen)
{
	char path[2048];
	struct dirent *e;
	struct stat st;
	size_t n = 0;
	DIR *d = opendir(dir);

	while (d && (e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);
		char *buf;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (lstat(path, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			n += compare_tree(path, seen);
			continue;
		}
		if (!S_ISREG(st.st_mode) ||
		    !((len > 5 && strcmp(e->d_name + len - 5, ".yaml") == 0) ||
		      (len > 4 && strcmp(e->d_name + len - 4, ".yml") == 0)))
			continue;
		buf = th_read_file(path, &len);
		cr_assert_not_null(buf, "%s", path);
		n += (size_t)compare(path, buf, len);
		(*seen)++;
		free(buf);
	}
	if (d)
		closedir(d);
	return n;
}

Test(yaml_block, every_yaml_file_of_the_repository)
{
	size_t seen = 0, n = compare_tree("tests", &seen);

	n += compare_tree("examples", &seen);
	printf("yaml_block: accepted %zu of %zu repository YAML files\n", n,
	       seen);
	cr_assert_gt(seen, 300);
	/* most specs are in the subset: the fast path is the common one */
	cr_assert_gt(n, seen / 2);
}

Test(yaml_block, the_yaml_test_suite)
{
	const char *shared = getenv("SMP_SHARED_DIR");
	char dir[1024], path[1400];
	struct dirent *e;
	size_t n = 0, seen = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/corpora/yaml-test-suite",
		 shared ? shared : "../shared");
	d = opendir(dir);
	if (!d)
		cr_skip_test("yaml-test-suite not found at %s (set "
			     "SMP_SHARED_DIR)",
			     dir);
	while ((e = readdir(d)) != NULL) {
		size_t len;
		char *buf;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/in.yaml", dir, e->d_name);
		buf = th_read_file(path, &len);
		if (!buf)
			continue;
		n += (size_t)compare(path, buf, len);
		seen++;
		free(buf);
	}
	closedir(d);
	printf("yaml_block: accepted %zu of %zu yaml-test-suite cases\n", n,
	       seen);
	cr_assert_gt(seen, 100);
}

/* xorshift64: the same mutations on every run. */
static uint64_t
next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static const char *const seeds[] = {
	"# generated job spec\nestimator: HuggingFace\nentry_point: train.py\n"
	"instance_type: ml.p3.16xlarge\ninstance_count: 2\n"
	"compiler_config:\n  enabled: true\n  debug: false\n"
	"distribution:\n  pytorchxla:\n    enabled: true\n"
	"hyperparameters:\n  model_name_or_path: 'bert-base-cased'\n"
	"  per_device_train_batch_size: 24 # per GPU\n  learning_rate: 5e-5\n"
	"environment:\n  GPU_NUM_DEVICES: \"8\"\n",
	"AlgorithmSpecification:\n  TrainingImage: 763104351884.dkr.ecr."
	"us-west-2.amazonaws.com/x:1.0\n  TrainingInputMode: File\n"
	"ResourceConfig:\n  InstanceType: ml.p4d.24xlarge\n  InstanceCount: 1\n"
	"InputDataConfig:\n- ChannelName: train\n  DataSource:\n"
	"    S3DataSource:\n      S3Uri: s3://b/train\n"
	"- ChannelName: test\n  DataSource:\n    S3DataSource:\n"
	"      S3Uri: s3://b/test\nTags:\n  - Key: a\n    Value: b\n",
	"estimator: PyTorch\ncompiler_config: {enabled: true, debug: false}\n"
	"distribution: {pytorchxla: {enabled: true}}\n"
	"hyperparameters: {epochs: 3, 'lr': 5e-5, \"names\": [a, b, c]}\n"
	"environment: {}\ntags: []\n",
};

/* Characters that change how YAML reads a line. */
static const char mutants[] = " \n-:#'\"[]{}&*!|>%@`?,\\.~ak1";

Test(yaml_block, mutations_of_specs)
{
	uint64_t s = 0x9E3779B97F4A7C15ULL;
	size_t k, i, accepted_n = 0, total = 0;
	char buf[4096];

	for (k = 0; k < sizeof(seeds) / sizeof(seeds[0]); k++) {
		size_t base = strlen(seeds[k]);

		for (i = 0; i < 20000; i++) {
			size_t len = base, m, edits = 1 + next_rand(&s) % 3;

			memcpy(buf, seeds[k], base);
			for (m = 0; m < edits; m++) {
				size_t at = next_rand(&s) % len;
				char c = mutants[next_rand(&s) %
						 (sizeof(mutants) - 1)];

				switch (next_rand(&s) % 3) {
				case 0: /* replace */
					buf[at] = c;
					break;
				case 1: /* insert */
					memmove(buf + at + 1, buf + at,
						len - at);
					buf[at] = c;
					len++;
					break;
				default: /* delete */
					memmove(buf + at, buf + at + 1,
						len - at - 1);
					len--;
					break;
				}
			}
			accepted_n += (size_t)compare("mutation", buf, len);
			total++;
		}
	}
	printf("yaml_block: accepted %zu of %zu mutations\n", accepted_n,
	       total);
	/* both sides of the line are exercised */
	cr_assert_gt(accepted_n, total / 10);
	cr_assert_lt(accepted_n, total);
}

/* Indentation shifted line by line: the closing of levels. */
Test(yaml_block, indentation_shifts)
{
	uint64_t s = 42;
	char buf[4096], line[256];
	size_t i, accepted_n = 0;

	for (i = 0; i < 20000; i++) {
		const char *p = seeds[i % (sizeof(seeds) / sizeof(seeds[0]))];
		size_t len = 0;

		while (*p) {
			const char *nl = strchr(p, '\n');
			size_t n = nl ? (size_t)(nl - p) + 1 : strlen(p);
			int shift = (int)(next_rand(&s) % 8) - 4;
			size_t lead = strspn(p, " ");

			if (next_rand(&s) % 4)
				shift = 0;
			if (shift < 0 && (size_t)-shift > lead)
				shift = -(int)lead;
			if (shift > 0) {
				memset(line, ' ', (size_t)shift);
				memcpy(line + shift, p, n);
				memcpy(buf + len, line, n + (size_t)shift);
				len += n + (size_t)shift;
			} else {
				memcpy(buf + len, p + (size_t)-shift,
				       n - (size_t)-shift);
				len += n - (size_t)-shift;
			}
			p += n;
		}
		accepted_n += (size_t)compare("indentation", buf, len);
	}
	printf("yaml_block: accepted %zu of 20000 indentation shifts\n",
	       accepted_n);
	cr_assert_gt(accepted_n, 1000);
}

Test(yaml_block, allocation_failure)
{
	const char *text = seeds[1];
	size_t nth;

	for (nth = 0; nth < 8; nth++) {
		struct failing_alloc fa;
		struct smp_allocator a;
		yaml_event_t *ev;
		size_t n;
		int rc;

		fa_init(&fa, (long)nth);
		a = fa_allocator(&fa);
		rc = smp__yaml_block_scan(text, strlen(text), &a, &ev, &n);
		if (rc == 1) {
			smp__free(&a, ev);
			break;
		}
		cr_assert_eq(rc, SMP_ENOMEM);
		cr_assert_null(ev);
		cr_assert_eq(fa.live, 0);
	}
	cr_assert_lt(nth, 8);
}

/* The events of a scan are held at once: large documents go to libyaml. */
Test(yaml_block, declines_large_documents)
{
	size_t cap = 20000 * 16, n = 0, i;
	char *buf = malloc(cap);

	cr_assert_not_null(buf);
	for (i = 0; i < 20000; i++)
		n += (size_t)snprintf(buf + n, cap - n, "k%zu: v\n", i);
	cr_assert_eq(compare("20,000 keys", buf, n), 0);
	n = 0;
	for (i = 0; i < 2000; i++)
		n += (size_t)snprintf(buf + n, cap - n, "k%zu: v\n", i);
	cr_assert_eq(compare("2,000 keys", buf, n), 1);
	free(buf);
}
