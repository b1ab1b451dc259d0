/*
 * replay.c - runs a fuzz target over saved inputs without libFuzzer, so
 * that every corpus file is a regression test in `make test`. A missing
 * or empty folder is an error: a replay that tests nothing must not pass.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Reads path whole; NULL on error. */
static uint8_t *
read_file(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t cap = 0, n = 0, got;

	if (!fp)
		return NULL;
	do {
		if (n == cap) {
			uint8_t *p = realloc(buf, cap ? cap * 2 : 4096);

			if (!p) {
				free(buf);
				fclose(fp);
				return NULL;
			}
			buf = p;
			cap = cap ? cap * 2 : 4096;
		}
		got = fread(buf + n, 1, cap - n, fp);
		n += got;
	} while (got > 0);
	if (ferror(fp)) {
		free(buf);
		buf = NULL;
	}
	fclose(fp);
	*len = n;
	return buf;
}

/* Feeds every regular file of dir to the target; -1 on error. */
static long
replay_dir(const char *dir)
{
	char path[4096];
	struct dirent *e;
	long count = 0;
	DIR *d = opendir(dir);

	if (!d) {
		fprintf(stderr, "replay: cannot open %s\n", dir);
		return -1;
	}
	while ((e = readdir(d)) != NULL) {
		struct stat st;
		uint8_t *buf;
		size_t len = 0;

		if (e->d_name[0] == '.')
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >=
		    (int)sizeof(path))
			continue;
		if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		buf = read_file(path, &len);
		if (!buf) {
			fprintf(stderr, "replay: cannot read %s\n", path);
			closedir(d);
			return -1;
		}
		LLVMFuzzerTestOneInput(buf, len);
		free(buf);
		count++;
	}
	closedir(d);
	return count;
}

int
main(int argc, char **argv)
{
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: %s DIR...\n", argv[0]);
		return 2;
	}
	for (i = 1; i < argc; i++) {
		long n = replay_dir(argv[i]);

		if (n < 0)
			return 1;
		if (n == 0) {
			fprintf(stderr, "replay: no inputs in %s\n", argv[i]);
			return 1;
		}
		printf("replayed %ld inputs from %s\n", n, argv[i]);
	}
	return 0;
}
