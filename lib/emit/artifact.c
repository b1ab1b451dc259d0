/*
 * artifact.c - a file name made relative to the SARIF source root
 * (artifact.h).
 */
#include <string.h>

#include "emit/artifact.h"
#include "util/alloc.h"

/* See artifact.h. */
void
smp__path_normalize(char *path)
{
	char *in = path, *out = path;

	if (path[0] != '/')
		return;
	while (*in) {
		const char *seg;
		size_t n;

		while (*in == '/')
			in++;
		seg = in;
		while (*in && *in != '/')
			in++;
		n = (size_t)(in - seg);
		if (n == 0 || (n == 1 && seg[0] == '.'))
			continue;
		if (n == 2 && seg[0] == '.' && seg[1] == '.') {
			while (out > path && *--out != '/')
				;
			continue;
		}
		*out++ = '/';
		memmove(out, seg, n);
		out += n;
	}
	if (out == path)
		*out++ = '/';
	*out = '\0';
}

/* "./" at the start of a relative name, as often as it is there. */
static const char *
skip_dot_slash(const char *s)
{
	while (s[0] == '.' && s[1] == '/') {
		s += 2;
		while (*s == '/')
			s++;
	}
	return s;
}

/* See artifact.h. */
int
smp__artifact_resolve(struct smp__artifact *out, const struct smp_allocator *a,
		      const char *root, const char *base, const char *file)
{
	size_t flen = strlen(file), blen, rlen;
	char *abs;

	out->path = NULL;
	out->in_root = 0;
	if (!base)
		base = root;
	if (!root || (file[0] == '<' && flen > 1 && file[flen - 1] == '>') ||
	    (file[0] != '/' && !base)) {
		const char *name = file[0] == '/' ? file : skip_dot_slash(file);

		out->path = smp__strndup(a, name, strlen(name));
		return out->path ? 0 : SMP_ENOMEM;
	}
	blen = file[0] == '/' ? 0 : strlen(base);
	abs = smp__malloc(a, blen + 1 + flen + 1);
	if (!abs)
		return SMP_ENOMEM;
	if (blen) {
		memcpy(abs, base, blen);
		abs[blen] = '/';
		memcpy(abs + blen + 1, file, flen + 1);
	} else {
		memcpy(abs, file, flen + 1);
	}
	smp__path_normalize(abs);
	rlen = strcmp(root, "/") == 0 ? 0 : strlen(root);
	if (strncmp(abs, root, rlen) == 0 && abs[rlen] == '/' &&
	    abs[rlen + 1]) {
		memmove(abs, abs + rlen + 1, strlen(abs + rlen + 1) + 1);
		out->in_root = 1;
	}
	out->path = abs;
	return 0;
}

/* See artifact.h. */
void
smp__artifact_release(struct smp__artifact *art, const struct smp_allocator *a)
{
	smp__free(a, art->path);
	art->path = NULL;
}
