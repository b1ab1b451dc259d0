/*
 * floor.c - the floor of `make bench`: what libyaml alone costs to read
 * the same files. It walks the same folders as `sm-preflight check`
 * (recursively, hidden entries skipped, *.yaml, *.yml, *.json), reads
 * each file whole and runs libyaml's event parser to the end of the
 * stream, and nothing else: no node tree, no checks, no output beyond a
 * count. sm-preflight cannot be faster than this with the same parser.
 *
 *   floor [--shard K/N] PATH...   prints "N files, M events, K parse errors"
 *
 * --shard K/N parses only every N-th spec file, starting with the K-th (in
 * walk order): N such processes side by side are the floor run N-way
 * parallel, which `check --jobs N` is measured against.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <yaml.h>

struct totals {
	unsigned long files;
	unsigned long events;
	unsigned long errors;
	unsigned long seen; /* spec files met, for --shard */
	unsigned long shard, shards;
};

static int
spec_name(const char *name)
{
	static const char *const suffixes[] = {".yaml", ".yml", ".json"};
	size_t n = strlen(name), i;

	for (i = 0; i < 3; i++) {
		size_t k = strlen(suffixes[i]);

		if (n > k && strcmp(name + n - k, suffixes[i]) == 0)
			return 1;
	}
	return 0;
}

/* Reads path whole into a growing buffer. */
static int
read_all(const char *path, unsigned char **buf, size_t *cap, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t got;

	if (!f)
		return -1;
	*len = 0;
	for (;;) {
		if (*len == *cap) {
			size_t ncap = *cap ? *cap * 2 : 65536;
			unsigned char *p = realloc(*buf, ncap);

			if (!p) {
				fclose(f);
				return -1;
			}
			*buf = p;
			*cap = ncap;
		}
		got = fread(*buf + *len, 1, *cap - *len, f);
		*len += got;
		if (got == 0)
			break;
	}
	fclose(f);
	return 0;
}

static void
parse_file(const char *path, struct totals *t)
{
	static unsigned char *buf;
	static size_t cap;
	size_t len;
	yaml_parser_t parser;
	yaml_event_t ev;
	int done = 0;

	if (t->seen++ % t->shards != t->shard)
		return;
	if (read_all(path, &buf, &cap, &len) != 0) {
		t->errors++;
		return;
	}
	t->files++;
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, buf, len);
	while (!done) {
		if (!yaml_parser_parse(&parser, &ev)) {
			t->errors++;
			break;
		}
		t->events++;
		done = ev.type == YAML_STREAM_END_EVENT;
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&parser);
}

static void
walk(const char *path, struct totals *t, unsigned depth)
{
	struct stat st;
	struct dirent *de;
	DIR *d;

	if (stat(path, &st) != 0) {
		t->errors++;
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		parse_file(path, t);
		return;
	}
	if (depth > 64)
		return;
	d = opendir(path);
	if (!d) {
		t->errors++;
		return;
	}
	while ((de = readdir(d)) != NULL) {
		char sub[4096];
		struct stat s2;

		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
		if (stat(sub, &s2) != 0)
			continue;
		if (S_ISDIR(s2.st_mode))
			walk(sub, t, depth + 1);
		else if (S_ISREG(s2.st_mode) && spec_name(de->d_name))
			parse_file(sub, t);
	}
	closedir(d);
}

int
main(int argc, char **argv)
{
	struct totals t = {0, 0, 0, 0, 0, 1};
	int i = 1;

	if (argc > 2 && strcmp(argv[1], "--shard") == 0) {
		if (sscanf(argv[2], "%lu/%lu", &t.shard, &t.shards) != 2 ||
		    t.shards == 0 || t.shard >= t.shards) {
			fprintf(stderr, "floor: --shard K/N with K < N\n");
			return 2;
		}
		i = 3;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: floor [--shard K/N] PATH...\n");
		return 2;
	}
	for (; i < argc; i++)
		walk(argv[i], &t, 0);
	printf("%lu files, %lu events, %lu parse errors\n", t.files, t.events,
	       t.errors);
	return 0;
}
