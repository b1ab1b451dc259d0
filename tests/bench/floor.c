/*
 * floor.c - the floor of `make bench`: what libyaml alone costs to read
 * the same files. It walks the same folders as `sm-preflight check`
 * (recursively, hidden entries skipped, *.yaml, *.yml, *.json), reads
 * each file whole and runs libyaml's event parser to the end of the
 * stream, and nothing else: no node tree, no checks, no output beyond a
 * count. sm-preflight cannot be faster than this with the same parser.
 *
 *   floor [--shard K/N] [--json] PATH...
 *                 prints "N files, M events, K parse errors"
 *
 * --json scans each file with a minimal JSON tokenizer instead of
 * libyaml (strings with their escapes, numbers, literals, punctuation;
 * no tree, no nesting check): the floor of a JSON file is the cheaper
 * of the two, as a JSON-only tool would not pay for a YAML parser.
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
	int json; /* --json: the JSON tokenizer, not libyaml */
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

/*
 * The tokens of a JSON text, or -1 at the first byte no token starts
 * with. Each token is scanned to its end; its value is not built.
 */
static long
json_tokens(const unsigned char *s, size_t n)
{
	size_t i = 0;
	long tokens = 0;

	while (i < n) {
		unsigned char c = s[i];

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			i++;
			continue;
		}
		tokens++;
		if (c == '{' || c == '}' || c == '[' || c == ']' || c == ':' ||
		    c == ',') {
			i++;
		} else if (c == '"') {
			for (i++; i < n && s[i] != '"'; i++)
				if (s[i] == '\\')
					i++;
			if (i >= n)
				return -1;
			i++;
		} else if (c == '-' || (c >= '0' && c <= '9')) {
			for (i++; i < n &&
				  ((s[i] >= '0' && s[i] <= '9') ||
				   s[i] == '.' || s[i] == 'e' || s[i] == 'E' ||
				   s[i] == '+' || s[i] == '-');
			     i++)
				;
		} else if (c >= 'a' && c <= 'z') {
			/* true, false, null */
			for (i++; i < n && s[i] >= 'a' && s[i] <= 'z'; i++)
				;
		} else
			return -1;
	}
	return tokens;
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
	if (t->json) {
		long k = json_tokens(buf, len);

		if (k < 0)
			t->errors++;
		else
			t->events += (unsigned long)k;
		return;
	}
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
	struct totals t = {0, 0, 0, 0, 0, 1, 0};
	int i = 1;

	if (argc > i + 1 && strcmp(argv[i], "--shard") == 0) {
		if (sscanf(argv[i + 1], "%lu/%lu", &t.shard, &t.shards) != 2 ||
		    t.shards == 0 || t.shard >= t.shards) {
			fprintf(stderr, "floor: --shard K/N with K < N\n");
			return 2;
		}
		i += 2;
	}
	if (i < argc && strcmp(argv[i], "--json") == 0) {
		t.json = 1;
		i++;
	}
	if (i >= argc) {
		fprintf(stderr,
			"usage: floor [--shard K/N] [--json] PATH...\n");
		return 2;
	}
	for (; i < argc; i++)
		walk(argv[i], &t, 0);
	printf("%lu files, %lu events, %lu parse errors\n", t.files, t.events,
	       t.errors);
	return 0;
}
