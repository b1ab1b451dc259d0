/*
 * cmd_check.c - `sm-preflight check [FILE|DIR|-]...`: walk the inputs,
 * check each through the library, print the findings in argument and walk
 * order, a summary on stderr, and the exit status (DESIGN.md section 9).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "output.h"
#include "smpreflight.h"
#include "walk.h"

/*
 * stdin is read whole; one byte more than the library's default file
 * size limit (DESIGN.md section 8) is enough for it to report the limit.
 */
#define STDIN_MAX ((size_t)4 * 1024 * 1024 + 1)

enum {
	OPT_FAIL_ON,
	OPT_COLOR,
	OPT_DIALECT,
	OPT_INSTANCE_DATA,
	OPT_DISABLE,
	OPT_SEVERITY,
	OPT_QUIET,
	OPT_HELP
};

static const struct cli_option options[] = {
	{"--fail-on", 0, OPT_FAIL_ON, "LEVEL",
	 "exit 1 on findings at or above LEVEL: error (default), warning, "
	 "info"},
	{"--color", 0, OPT_COLOR, "WHEN",
	 "colour the findings: auto (default: when stdout is a terminal and "
	 "NO_COLOR is unset), always, never"},
	{"--dialect", 0, OPT_DIALECT, "D",
	 "read every spec as D: auto (default), estimator, model_trainer, "
	 "create_training_job"},
	{"--instance-data", 0, OPT_INSTANCE_DATA, "DIR",
	 "use instances.json, tested-models.json and frameworks.json from DIR "
	 "instead of the built-in data"},
	{"--disable", 0, OPT_DISABLE, "RULE", "turn RULE off (repeatable)"},
	{"--severity", 0, OPT_SEVERITY, "RULE=LEVEL",
	 "report RULE as error, warning, info, or off (repeatable)"},
	{"--quiet", 'q', OPT_QUIET, NULL, "print no summary line"},
	{"--help", 'h', OPT_HELP, NULL, "show this help"},
};

struct run {
	const struct smp_context *ctx;
	unsigned int text_flags;
	size_t files;
	size_t unreadable;
	size_t counts[SMP_SEVERITY_ERROR + 1];
	enum smp_severity max;
	int status; /* CLI_EXIT_INTERNAL or CLI_EXIT_USAGE once fatal */
};

/* Reads all of stdin (up to STDIN_MAX bytes) into a malloc'd buffer. */
static int
read_stdin(char **out, size_t *len)
{
	size_t cap = 65536, n = 0, got;
	char *buf = malloc(cap), *p;

	*out = NULL;
	*len = 0;
	if (!buf)
		return SMP_ENOMEM;
	for (;;) {
		if (n == cap) {
			if (cap >= STDIN_MAX)
				break;
			cap = cap * 2 < STDIN_MAX ? cap * 2 : STDIN_MAX;
			p = realloc(buf, cap);
			if (!p) {
				free(buf);
				return SMP_ENOMEM;
			}
			buf = p;
		}
		got = fread(buf + n, 1, cap - n, stdin);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(stdin)) {
		free(buf);
		return SMP_EIO;
	}
	*out = buf;
	*len = n;
	return 0;
}

static int
check_stdin(struct smp_report **rep, const struct smp_context *ctx,
	    struct smp_error *err)
{
	char *buf;
	size_t len;
	int rc = read_stdin(&buf, &len);

	if (rc == SMP_EIO)
		snprintf(err->message, sizeof(err->message), "%s",
			 "read error");
	if (rc)
		return rc;
	rc = smp_check_buffer(rep, ctx, "<stdin>", buf, len, err);
	free(buf);
	return rc;
}

static void
internal_error(int code, const struct smp_error *err)
{
	if (err && err->message[0] && code != SMP_ENOMEM)
		cli_error("internal error: %s: %s", smp_strerror(code),
			  err->message);
	else
		cli_error("internal error: %s", smp_strerror(code));
}

/* The walk callback: one file, checked and printed. */
static int
check_one(void *ud, const char *path)
{
	struct run *r = ud;
	struct smp_report *rep = NULL;
	struct smp_error err;
	size_t i, n;
	int rc;

	memset(&err, 0, sizeof(err));
	if (strcmp(path, "-") == 0) {
		rc = check_stdin(&rep, r->ctx, &err);
		path = "<stdin>";
	} else {
		rc = smp_check_file(&rep, r->ctx, path, &err);
	}
	if (rc == SMP_EIO || rc == SMP_ELIMIT) {
		cli_error("cannot read '%s': %s", path,
			  err.message[0] ? err.message : smp_strerror(rc));
		r->unreadable++;
		return 0;
	}
	if (rc) {
		internal_error(rc, &err);
		r->status = CLI_EXIT_INTERNAL;
		return 1;
	}
	r->files++;
	n = smp_report_count(rep);
	for (i = 0; i < n; i++) {
		const struct smp_finding *f = smp_report_get(rep, i);

		if (f->severity <= SMP_SEVERITY_OFF ||
		    f->severity > SMP_SEVERITY_ERROR)
			continue;
		r->counts[f->severity]++;
		if (f->severity > r->max)
			r->max = f->severity;
	}
	rc = smp_emit_text(rep, SMP_SEVERITY_INFO, r->text_flags,
			   cli_stdout_write, NULL);
	smp_report_free(rep);
	if (rc) {
		cli_error("cannot write the output");
		r->status = CLI_EXIT_USAGE;
		return 1;
	}
	return 0;
}

static size_t
plural_s(size_t n)
{
	return n == 1 ? 0 : 1;
}

/* "2 errors, 1 warning, 1 info in 3 files" (nothing when all is well). */
static void
print_summary(const struct run *r)
{
	static const char *const names[] = {"", "info", "warning", "error"};
	size_t total = 0;
	int sev, first = 1;

	for (sev = SMP_SEVERITY_ERROR; sev >= SMP_SEVERITY_INFO; sev--)
		total += r->counts[sev];
	if (total == 0 && r->unreadable == 0)
		return;
	fflush(stdout);
	if (total == 0)
		fputs("no findings", stderr);
	for (sev = SMP_SEVERITY_ERROR; sev >= SMP_SEVERITY_INFO; sev--) {
		size_t n = r->counts[sev];

		if (!n)
			continue;
		fprintf(stderr, "%s%zu %s%s", first ? "" : ", ", n, names[sev],
			sev != SMP_SEVERITY_INFO && n != 1 ? "s" : "");
		first = 0;
	}
	fprintf(stderr, " in %zu file%s", r->files,
		plural_s(r->files) ? "s" : "");
	if (r->unreadable)
		fprintf(stderr, "; %zu file%s could not be read", r->unreadable,
			plural_s(r->unreadable) ? "s" : "");
	fputc('\n', stderr);
}

/* Unknown rule ids are usage errors with a did-you-mean from the table. */
static int
known_rule(const char *option, const char *id)
{
	const char *ids[256];
	const char *best;
	size_t i, n = smp_rule_count();

	if (smp_rule_find(id))
		return 1;
	if (n > 256)
		n = 256;
	for (i = 0; i < n; i++)
		ids[i] = smp_rule_at(i)->id;
	best = cli_did_you_mean(id, ids, n);
	if (best)
		cli_usage_error("unknown rule '%s' in '%s'; did you mean '%s'?",
				id, option, best);
	else
		cli_usage_error("unknown rule '%s' in '%s'; 'sm-preflight "
				"rules' lists them",
				id, option);
	return 0;
}

/* RULE=LEVEL for --severity. */
static int
parse_severity(struct smp_rule_override *o, const char *value, char **owned)
{
	static const char *const levels[] = {"error", "warning", "info", "off"};
	const char *eq = strchr(value, '=');
	char *id;
	int k;

	if (!eq || eq == value) {
		cli_usage_error("invalid value '%s' for '--severity'; expected "
				"RULE=LEVEL",
				value);
		return -1;
	}
	id = malloc((size_t)(eq - value) + 1);
	if (!id) {
		internal_error(SMP_ENOMEM, NULL);
		return -2;
	}
	memcpy(id, value, (size_t)(eq - value));
	id[eq - value] = '\0';
	*owned = id;
	if (!known_rule("--severity", id))
		return -1;
	k = cli_choice("--severity", eq + 1, levels, 4);
	if (k < 0)
		return -1;
	o->rule = id;
	smp_severity_parse(&o->severity, levels[k]);
	return 0;
}

static int
context_error(int rc, const struct smp_error *err, const char *dir)
{
	if (rc == SMP_ENOMEM || rc == SMP_EINTERNAL) {
		internal_error(rc, err);
		return CLI_EXIT_INTERNAL;
	}
	if (err->source[0] && err->line)
		cli_error("cannot load the instance data: %s:%u:%u: %s",
			  err->source, (unsigned)err->line,
			  (unsigned)err->column, err->message);
	else if (err->source[0])
		cli_error("cannot load the instance data: %s: %s", err->source,
			  err->message[0] ? err->message : smp_strerror(rc));
	else
		cli_error("cannot load the instance data%s%s%s: %s",
			  dir ? " from '" : "", dir ? dir : "", dir ? "'" : "",
			  err->message[0] ? err->message : smp_strerror(rc));
	return CLI_EXIT_USAGE;
}

static int
run_check(int argc, char **argv)
{
	static const char *const fail_levels[] = {"error", "warning", "info"};
	static const char *const colors[] = {"auto", "always", "never"};
	static const char *const dialects[] = {
		"auto", "estimator", "model_trainer", "create_training_job"};
	struct smp_options opts = SMP_OPTIONS_INIT;
	struct smp_rule_override *overrides;
	struct smp_context *ctx = NULL;
	enum smp_severity fail_on = SMP_SEVERITY_ERROR;
	enum cli_color color = CLI_COLOR_AUTO;
	struct smp_error err;
	struct cli_args it;
	struct run r;
	const char *value;
	const char **inputs;
	char **owned;
	size_t ninputs = 0, nowned = 0, i;
	int id, k, status = CLI_EXIT_OK, quiet = 0;

	/* every argument is at most one input, override or owned string */
	overrides = calloc((size_t)argc + 1, sizeof(*overrides));
	inputs = calloc((size_t)argc + 1, sizeof(*inputs));
	owned = calloc((size_t)argc + 1, sizeof(*owned));
	if (!overrides || !inputs || !owned) {
		internal_error(SMP_ENOMEM, NULL);
		status = CLI_EXIT_INTERNAL;
		goto out;
	}
	cli_args_init(&it, argc, argv);
	while (status == CLI_EXIT_OK &&
	       (id = cli_args_next(&it, options,
				   sizeof(options) / sizeof(options[0]),
				   &value)) != CLI_ARG_END) {
		switch (id) {
		case CLI_ARG_POSITIONAL:
			inputs[ninputs++] = value;
			break;
		case OPT_FAIL_ON:
			k = cli_choice("--fail-on", value, fail_levels, 3);
			if (k < 0)
				status = CLI_EXIT_USAGE;
			else
				fail_on = (enum smp_severity)(
					SMP_SEVERITY_ERROR - k);
			break;
		case OPT_COLOR:
			k = cli_choice("--color", value, colors, 3);
			if (k < 0)
				status = CLI_EXIT_USAGE;
			else
				color = (enum cli_color)k;
			break;
		case OPT_DIALECT:
			k = cli_choice("--dialect", value, dialects, 4);
			if (k < 0 ||
			    smp_dialect_parse(&opts.dialect, dialects[k]) != 0)
				status = CLI_EXIT_USAGE;
			break;
		case OPT_INSTANCE_DATA:
			opts.instance_data_dir = value;
			break;
		case OPT_DISABLE:
			if (!known_rule("--disable", value)) {
				status = CLI_EXIT_USAGE;
				break;
			}
			overrides[opts.override_count].rule = value;
			overrides[opts.override_count++].severity =
				SMP_SEVERITY_OFF;
			break;
		case OPT_SEVERITY:
			k = parse_severity(&overrides[opts.override_count],
					   value, &owned[nowned]);
			if (owned[nowned])
				nowned++;
			if (k == 0)
				opts.override_count++;
			else
				status = k == -2 ? CLI_EXIT_INTERNAL
						 : CLI_EXIT_USAGE;
			break;
		case OPT_QUIET:
			quiet = 1;
			break;
		case OPT_HELP:
			cli_command_help(stdout, &cli_cmd_check);
			goto out;
		default:
			status = CLI_EXIT_USAGE;
			break;
		}
	}
	if (status != CLI_EXIT_OK)
		goto out;
	if (ninputs == 0) {
		status = cli_usage_error(
			"nothing to check; give spec files, directories or "
			"'-' for stdin");
		goto out;
	}
	opts.overrides = overrides;
	memset(&err, 0, sizeof(err));
	k = smp_context_new(&ctx, &opts, &err);
	if (k) {
		status = context_error(k, &err, opts.instance_data_dir);
		goto out;
	}

	memset(&r, 0, sizeof(r));
	r.ctx = ctx;
	r.text_flags = cli_use_color(color) ? SMP_TEXT_COLOR : 0;
	for (i = 0; i < ninputs && r.status == CLI_EXIT_OK; i++) {
		k = cli_walk(inputs[i], check_one, &r, &r.unreadable);
		if (k == CLI_WALK_ENOMEM) {
			internal_error(SMP_ENOMEM, NULL);
			r.status = CLI_EXIT_INTERNAL;
		}
	}
	if (fflush(stdout) != 0 && r.status == CLI_EXIT_OK) {
		cli_error("cannot write the output");
		r.status = CLI_EXIT_USAGE;
	}
	if (r.status != CLI_EXIT_OK)
		status = r.status;
	else if (r.unreadable)
		status = CLI_EXIT_USAGE;
	else if (r.max != SMP_SEVERITY_OFF && r.max >= fail_on)
		status = CLI_EXIT_FINDINGS;
	if (!quiet && r.status == CLI_EXIT_OK)
		print_summary(&r);
out:
	smp_context_free(ctx);
	for (i = 0; owned && i < nowned; i++)
		free(owned[i]);
	free(owned);
	free(inputs);
	free(overrides);
	return status;
}

const struct cli_command cli_cmd_check = {
	"check",
	"[OPTION]... [FILE|DIR|-]...",
	"Check SageMaker Training Compiler job specs (YAML or JSON). A DIR is "
	"walked for *.yaml, *.yml and *.json (hidden entries skipped); '-' "
	"reads stdin. This is the default command.",
	"Exit status: 0 no finding at or above --fail-on, 1 findings at or "
	"above it, 2 usage error or an input that could not be read, 3 "
	"internal error.",
	options,
	sizeof(options) / sizeof(options[0]),
	run_check,
};
