/*
 * fix.c - `check --fix` and `--diff` for one file (fix.h): the library
 * fixes the text; this file shows the diff, or writes the text back in
 * place (fix_write.c), only when the file still holds the bytes that
 * were read: a file changed meanwhile is left alone.
 */
#include <stdlib.h>
#include <string.h>

#include "fix.h"
#include "output.h"
#include "readfile.h"

void
cli_fixed_free(struct cli_fixed *fixed)
{
	if (!fixed)
		return;
	smp_fix_result_free(fixed->result);
	free(fixed->orig);
	free(fixed);
}

/* All of f (at most CLI_READ_MAX bytes), as cli_read_regular(). */
static int
read_all(FILE *f, char **buf, size_t *len, const char **why)
{
	size_t cap = 65536, n = 0, got;
	char *b = malloc(cap + 1), *nb;

	*buf = NULL;
	*len = 0;
	if (!b)
		return CLI_READ_ENOMEM;
	while ((got = fread(b + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			if (cap > CLI_READ_MAX) {
				free(b);
				*why = "larger than 4 MiB";
				return CLI_READ_EIO;
			}
			nb = realloc(b, cap * 2 + 1);
			if (!nb) {
				free(b);
				return CLI_READ_ENOMEM;
			}
			b = nb;
			cap *= 2;
		}
	}
	if (ferror(f)) {
		free(b);
		*why = "read error";
		return CLI_READ_EIO;
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return 0;
}

/* See fix.h. */
int
cli_fix_file(struct cli_fixed **out, const struct cli_fix *fix,
	     const struct smp_context *ctx, const char *path, const char *name,
	     unsigned int flags, struct smp_error *err)
{
	struct smp_fix_options o = SMP_FIX_OPTIONS_INIT;
	struct cli_fixed *x = calloc(1, sizeof(*x));
	const char *why = NULL, *slash = strrchr(path, '/');
	char *dir = NULL;
	int rc;

	*out = NULL;
	if (!x)
		return SMP_ENOMEM;
	if (strcmp(path, "-") == 0)
		rc = read_all(stdin, &x->orig, &x->orig_len, &why);
	else {
		/* taken before the read, so that a change between the two
		 * is seen when the file is written */
		cli_stamp_take(&x->stamp, path);
		rc = cli_read_regular(path, CLI_READ_MAX, &x->orig,
				      &x->orig_len, &why);
	}
	if (rc) {
		free(x);
		if (rc == CLI_READ_ENOMEM)
			return SMP_ENOMEM;
		snprintf(err->message, sizeof(err->message), "%s", why);
		return SMP_EIO;
	}
	o.unsafe_fixes = fix->unsafe;
	o.baseline = fix->baseline;
	o.flags = flags;
	if (strcmp(path, "-") != 0) {
		/* entry scripts from the spec's folder, as a check finds them
		 * (a text's own folder is not known to the library) */
		dir = strndup(path, !slash          ? 0
				    : slash == path ? 1
						    : (size_t)(slash - path));
		if (!dir) {
			cli_fixed_free(x);
			return SMP_ENOMEM;
		}
		o.script_dir = dir;
	}
	rc = smp_fix(&x->result, ctx, name, x->orig, x->orig_len, &o, err);
	free(dir);
	if (rc) {
		cli_fixed_free(x);
		return rc;
	}
	*out = x;
	return 0;
}

static void
show(const char *name, const struct smp_fix_result *res)
{
	size_t i;

	for (i = 0; i < res->applied_count; i++) {
		const struct smp_fix_applied *a = &res->applied[i];

		printf("%s:%u:%u: fixed [%s] %s%s\n", name, (unsigned)a->line,
		       (unsigned)a->column, a->rule, a->pointer,
		       a->unsafe ? " (unsafe)" : "");
	}
}

/* See fix.h. */
int
cli_fix_done(struct cli_fix *fix, const char *path, const char *name,
	     const struct cli_fixed *fixed)
{
	const struct smp_fix_result *res = fixed->result;
	int is_stdin = strcmp(path, "-") == 0, rc;
	char why[256];

	fix->unsafe_skipped += res->unsafe_skipped;
	if (fix->mode == CLI_FIX_DIFF) {
		if (res->changed) {
			fix->files_changed++;
			fix->fixes_applied += res->applied_count;
		}
		cli_fix_diff(stdout, name, fixed->orig, fixed->orig_len,
			     res->text, res->len);
		return 0;
	}
	if (is_stdin) {
		/* the fixed text is the output, as ruff does with stdin */
		fwrite(res->text, 1, res->len, stdout);
	} else if (res->changed) {
		rc = cli_fix_write(path, &fixed->stamp, fixed->orig,
				   fixed->orig_len, res->text, res->len, why,
				   sizeof(why));
		if (rc == CLI_WRITE_SAME)
			return 0; /* fixed, and counted, under another name */
		if (rc != CLI_WRITE_OK) {
			cli_error("cannot write '%s': %s", name, why);
			fix->write_errors++;
			return 1;
		}
	}
	if (res->changed) {
		fix->files_changed++;
		fix->fixes_applied += res->applied_count;
	}
	if (fix->show && !is_stdin)
		show(name, res);
	return 0;
}

/* See fix.h. */
void
cli_fix_summary(const struct cli_fix *fix)
{
	fflush(stdout);
	if (fix->mode == CLI_FIX_APPLY)
		fprintf(stderr, "fixed %zu problem%s in %zu file%s\n",
			fix->fixes_applied, fix->fixes_applied == 1 ? "" : "s",
			fix->files_changed, fix->files_changed == 1 ? "" : "s");
	else if (fix->files_changed)
		fprintf(stderr, "would fix %zu problem%s in %zu file%s\n",
			fix->fixes_applied, fix->fixes_applied == 1 ? "" : "s",
			fix->files_changed, fix->files_changed == 1 ? "" : "s");
	if (fix->unsafe_skipped)
		fprintf(stderr,
			"%zu more fix%s available with --unsafe-fixes\n",
			fix->unsafe_skipped,
			fix->unsafe_skipped == 1 ? " is" : "es are");
}
