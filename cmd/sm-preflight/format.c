/*
 * format.c - `check --format/--output`: the outputs of a run, each an
 * smp_emitter. Files are written to a temporary file beside the target
 * and renamed over it only when the document is complete, so a CI step
 * reading report.sarif never sees half a document, and a run that fails
 * leaves the previous report in place.
 */
#define _XOPEN_SOURCE                                                          \
	700 /* realpath(), with _POSIX_C_SOURCE from the Makefile */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "cleanup.h"
#include "srcroot.h"
#include "commands.h"
#include "format.h"

static const char *const format_names[] = {"text", "json", "sarif", "github",
					   "junit"};

#define NFORMATS (sizeof(format_names) / sizeof(format_names[0]))

/* See format.h. */
void
cli_outputs_init(struct cli_outputs *o)
{
	memset(o, 0, sizeof(*o));
}

/* A new pair, its output not yet given. */
int
cli_outputs_format(struct cli_outputs *o, const char *value)
{
	int k = cli_choice("--format", value, format_names, NFORMATS);

	if (k < 0)
		return CLI_EXIT_USAGE;
	if (o->count == CLI_MAX_OUTPUTS)
		return cli_usage_error("at most %d '--format' options",
				       CLI_MAX_OUTPUTS);
	memset(&o->items[o->count], 0, sizeof(o->items[0]));
	o->items[o->count++].format = (enum smp_format)k;
	o->bound = 0;
	return 0;
}

/* Binds FILE to the --format just before it. */
int
cli_outputs_output(struct cli_outputs *o, const char *value)
{
	struct cli_output *last;

	if (o->count == 0)
		return cli_usage_error("'--output %s' needs a '--format' "
				       "before it, e.g. '--format json "
				       "--output %s'",
				       value, value);
	last = &o->items[o->count - 1];
	if (o->bound)
		return cli_usage_error("'--format %s' has two '--output' "
				       "options; give each its own '--format'",
				       format_names[last->format]);
	if (value[0] == '\0')
		return cli_usage_error("'--output' needs a file name");
	last->path = strcmp(value, "-") == 0 ? NULL : value;
	o->bound = 1;
	return 0;
}

/* See format.h. */
void
cli_outputs_rules_uri(struct cli_outputs *o, const char *value)
{
	o->rules_uri = value;
}

/* See format.h. */
void
cli_outputs_sarif_root(struct cli_outputs *o, const char *value)
{
	o->sarif_root = value;
}

/* See format.h. */
void
cli_outputs_sources(struct cli_outputs *o, char *const *files, size_t n)
{
	o->files = files;
	o->nfiles = n;
}

/* SARIF's source root and the working directory, when a SARIF output is
 * there, or annotations in a GitHub workspace (their file names are
 * relative to it, as the SARIF's): 0 or an exit status (printed). */
static int
sarif_root(struct cli_outputs *o, struct smp_emitter_options *opts)
{
	const char *ws = getenv("GITHUB_WORKSPACE");
	size_t i;
	int rc, want = 0;

	for (i = 0; i < o->count; i++)
		if (o->items[i].format == SMP_FORMAT_SARIF ||
		    (o->items[i].format == SMP_FORMAT_GITHUB && ws && ws[0]))
			want = 1;
	if (!want)
		return 0;
	rc = cli_sarif_root(&o->root, &o->cwd, o->sarif_root, o->files,
			    o->nfiles);
	opts->source_root = o->root;
	opts->base_dir = o->cwd;
	return rc;
}

/*
 * A path that may not exist yet, with its folder resolved (symlinks,
 * "." and ".."): malloc'd, or NULL when the folder does not resolve.
 */
static char *
resolve_path(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	char *dir, *real, *out;
	size_t n;

	if (!slash)
		dir = strdup(".");
	else if (slash == path)
		dir = strdup("/");
	else
		dir = strndup(path, (size_t)(slash - path));
	real = dir ? realpath(dir, NULL) : NULL;
	free(dir);
	if (!real)
		return NULL;
	n = strlen(real) + strlen(base) + 2;
	out = malloc(n);
	if (out)
		snprintf(out, n, "%s/%s", strcmp(real, "/") ? real : "", base);
	free(real);
	return out;
}

/*
 * 1 when a and b name one file: the same device and inode when both
 * exist, else the same path once the folder is resolved ("r.out",
 * "./r.out" and "sub/../r.out" are one file).
 */
static int
same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	char *ra, *rb;
	int same;

	if (strcmp(a, b) == 0)
		return 1;
	if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	ra = resolve_path(a);
	rb = resolve_path(b);
	same = ra && rb && strcmp(ra, rb) == 0;
	free(ra);
	free(rb);
	return same;
}

/* At most one output to stdout, and no file twice. */
static int
check_pairs(const struct cli_outputs *o)
{
	const struct cli_output *to_stdout = NULL;
	size_t i, j;

	for (i = 0; i < o->count; i++) {
		const struct cli_output *a = &o->items[i];

		if (!a->path) {
			if (to_stdout)
				return cli_usage_error(
					"'--format %s' and '--format %s' both "
					"write to stdout; give one of them "
					"'--output FILE'",
					format_names[to_stdout->format],
					format_names[a->format]);
			to_stdout = a;
			continue;
		}
		for (j = 0; j < i; j++) {
			const char *b = o->items[j].path;

			if (!b || !same_file(b, a->path))
				continue;
			if (strcmp(b, a->path) == 0)
				return cli_usage_error(
					"'--output %s' is given twice",
					a->path);
			return cli_usage_error("'--output %s' and '--output "
					       "%s' are the same file",
					       b, a->path);
		}
	}
	return 0;
}

/* Writes to the stream of a file output. */
static int
file_write(void *fp, const char *data, size_t len)
{
	return fwrite(data, 1, len, fp) == len ? 0 : -1;
}

/*
 * A target that is not a regular file (a character device such as
 * /dev/null, a FIFO, a socket), directly or through a symlink such as
 * /dev/stdout, is written in place: renaming a temporary file over it
 * would replace the device with a file. Returns 1 when out is opened so,
 * 0 when it takes the temporary file and the rename, or an exit status.
 */
static int
open_in_place(struct cli_output *out)
{
	struct stat st;
	int fd;

	if (stat(out->path, &st) != 0 || S_ISREG(st.st_mode))
		return 0;
	if (S_ISDIR(st.st_mode)) {
		cli_error("cannot write '%s': it is a directory", out->path);
		return -CLI_EXIT_USAGE;
	}
	/* no O_CREAT: nothing is created in place of what vanished */
	fd = open(out->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		cli_error("cannot write '%s': %s", out->path, strerror(errno));
		return -CLI_EXIT_USAGE;
	}
	out->fp = fdopen(fd, "w");
	if (!out->fp) {
		cli_error("cannot write '%s': %s", out->path, strerror(errno));
		close(fd);
		return -CLI_EXIT_USAGE;
	}
	out->in_place = 1;
	return 1;
}

/* The temporary file beside out->path, readable as the umask allows. */
static int
open_tmp(struct cli_output *out)
{
	size_t n = strlen(out->path);
	mode_t mask;
	int fd, k;

	k = open_in_place(out);
	if (k)
		return k < 0 ? -k : 0;
	out->tmp = malloc(n + sizeof(".XXXXXX"));
	if (!out->tmp) {
		cli_error("internal error: %s", smp_strerror(SMP_ENOMEM));
		return CLI_EXIT_INTERNAL;
	}
	memcpy(out->tmp, out->path, n);
	memcpy(out->tmp + n, ".XXXXXX", sizeof(".XXXXXX"));
	/* a signal between mkstemp() and the registration would leave
	 * the file behind: both happen with the signals held */
	cli_cleanup_hold(1);
	fd = mkstemp(out->tmp);
	if (fd >= 0)
		cli_cleanup_add(out->tmp);
	cli_cleanup_hold(0);
	if (fd < 0) {
		cli_error("cannot write '%s': %s", out->path, strerror(errno));
		free(out->tmp);
		out->tmp = NULL;
		return CLI_EXIT_USAGE;
	}
	/* mkstemp() makes it 0600; a report is as readable as any file */
	mask = umask(0);
	umask(mask);
	(void)fchmod(fd, 0666 & ~mask);
	out->fp = fdopen(fd, "w");
	if (!out->fp) {
		cli_error("cannot write '%s': %s", out->path, strerror(errno));
		close(fd);
		return CLI_EXIT_USAGE;
	}
	return 0;
}

static int
github_actions(void)
{
	const char *v = getenv("GITHUB_ACTIONS");

	return v && strcmp(v, "true") == 0;
}

/*
 * JUnit's timestamp and hostname: SOURCE_DATE_EPOCH (reproducible-builds.org)
 * when it is a number of seconds, with "localhost" so that the document
 * does not depend on the machine; else now and this host's name.
 */
static void
run_stamp(struct smp_emitter_options *opts, char *host, size_t size)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH");
	char *end = NULL;
	long long v = -1;

	if (sde && sde[0]) {
		errno = 0;
		v = strtoll(sde, &end, 10);
		if (errno || *end || v < 0)
			v = -1;
	}
	if (v >= 0) {
		opts->timestamp = (int64_t)v;
		opts->hostname = "localhost";
		return;
	}
	opts->timestamp = (int64_t)time(NULL);
	if (gethostname(host, size - 1) == 0) {
		host[size - 1] = '\0';
		opts->hostname = host;
	}
}

/* See format.h. */
int
cli_outputs_open(struct cli_outputs *o, const struct smp_context *ctx,
		 enum smp_severity fail_on, enum cli_color color)
{
	struct smp_emitter_options opts = SMP_EMITTER_OPTIONS_INIT;
	char host[256] = "";
	size_t i;
	int rc;

	if (o->count == 0) {
		/* no --format: the terminal's text, or annotations in CI */
		memset(&o->items[0], 0, sizeof(o->items[0]));
		o->items[0].format =
			github_actions() ? SMP_FORMAT_GITHUB : SMP_FORMAT_TEXT;
		o->count = 1;
	}
	rc = check_pairs(o);
	if (rc)
		return rc;
	if (!o->rules_uri) {
		const char *env = getenv(CLI_RULES_URI_ENV);

		o->rules_uri = env && env[0] ? env : CLI_RULES_URI_DEFAULT;
	}
	rc = sarif_root(o, &opts);
	if (rc)
		return rc;
	opts.fail_on = fail_on;
	opts.rules_uri = o->rules_uri;
	run_stamp(&opts, host, sizeof(host));
	for (i = 0; i < o->count; i++) {
		struct cli_output *out = &o->items[i];
		smp_write_fn write = cli_stdout_write;
		void *ud = NULL;

		if (out->path) {
			rc = open_tmp(out);
			if (rc)
				return rc;
			write = file_write;
			ud = out->fp;
		}
		opts.text_flags = (out->path ? color == CLI_COLOR_ALWAYS
					     : cli_use_color(color))
					  ? SMP_TEXT_COLOR
					  : 0;
		rc = smp_emitter_new(&out->em, ctx, out->format, &opts, write,
				     ud);
		if (rc) {
			cli_error("internal error: %s", smp_strerror(rc));
			return CLI_EXIT_INTERNAL;
		}
	}
	return 0;
}

/* The message for an emitter's failure; the exit status it means. */
static int
output_error(const struct cli_output *out, int rc)
{
	if (rc == SMP_EIO) {
		cli_error("cannot write '%s'%s%s",
			  out->path ? out->path : "stdout", errno ? ": " : "",
			  errno ? strerror(errno) : "");
		return CLI_EXIT_USAGE;
	}
	cli_error("internal error: %s", smp_strerror(rc));
	return CLI_EXIT_INTERNAL;
}

/* See format.h. */
int
cli_outputs_add(struct cli_outputs *o, const struct smp_report *rep)
{
	size_t i;

	for (i = 0; i < o->count; i++) {
		int rc;

		errno = 0;
		rc = smp_emitter_add(o->items[i].em, rep);
		if (rc)
			return output_error(&o->items[i], rc);
	}
	return 0;
}

/* See format.h. */
int
cli_outputs_failure(struct cli_outputs *o, const char *file,
		    const char *message)
{
	size_t i;

	for (i = 0; i < o->count; i++) {
		int rc;

		errno = 0;
		rc = smp_emitter_add_failure(o->items[i].em, file, message);
		if (rc)
			return output_error(&o->items[i], rc);
	}
	return 0;
}

/* See format.h. */
int
cli_outputs_data_age(struct cli_outputs *o, const struct smp_context *ctx,
		     long days, enum smp_severity *sev)
{
	struct smp_report *rep = NULL;
	struct smp_error err;
	int rc;

	*sev = SMP_SEVERITY_OFF;
	days = cli_stale_limit(ctx, days);
	if (days <= 0)
		return 0;
	memset(&err, 0, sizeof(err));
	rc = smp_check_data_age(&rep, ctx, (int64_t)time(NULL), days, &err);
	if (rc) {
		cli_error("internal error: %s", smp_strerror(rc));
		return CLI_EXIT_INTERNAL;
	}
	*sev = smp_report_max_severity(rep);
	/* a report without findings would still count as a file */
	rc = smp_report_count(rep) ? cli_outputs_add(o, rep) : 0;
	smp_report_free(rep);
	return rc;
}

/* Ends one document; a file is flushed, synced and renamed into place. */
static int
finish_one(struct cli_output *out)
{
	int rc, fail = 0;

	errno = 0;
	rc = smp_emitter_finish(out->em);
	if (rc)
		return output_error(out, rc);
	if (!out->path)
		return fflush(stdout) ? output_error(out, SMP_EIO) : 0;
	/* a device or FIFO written in place is not synced (fsync fails
	 * with EINVAL on most of them) and not renamed */
	if (fflush(out->fp) || (!out->in_place && fsync(fileno(out->fp))))
		fail = 1;
	if (fclose(out->fp))
		fail = 1;
	out->fp = NULL;
	if (out->in_place)
		return fail ? output_error(out, SMP_EIO) : 0;
	if (fail || rename(out->tmp, out->path))
		return output_error(out, SMP_EIO);
	cli_cleanup_remove(out->tmp);
	free(out->tmp);
	out->tmp = NULL;
	return 0;
}

/* See format.h. */
int
cli_outputs_finish(struct cli_outputs *o)
{
	size_t i;
	int status = 0;

	for (i = 0; i < o->count; i++) {
		int rc = finish_one(&o->items[i]);

		if (rc && !status)
			status = rc;
	}
	return status;
}

/* See format.h. */
void
cli_outputs_release(struct cli_outputs *o)
{
	size_t i;

	for (i = 0; i < o->count; i++) {
		struct cli_output *out = &o->items[i];

		smp_emitter_free(out->em);
		out->em = NULL;
		if (out->fp)
			fclose(out->fp);
		out->fp = NULL;
		if (out->tmp) {
			unlink(out->tmp);
			cli_cleanup_remove(out->tmp);
		}
		free(out->tmp);
		out->tmp = NULL;
	}
	free(o->root);
	free(o->cwd);
	o->root = o->cwd = NULL;
}
