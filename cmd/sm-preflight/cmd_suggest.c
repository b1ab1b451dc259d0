/*
 * cmd_suggest.c - `sm-preflight suggest FILE [--to INSTANCE]
 * [--lr-scaling linear|sqrt]`: a batch size and learning rate for the
 * job from the tested-models table, with the arithmetic and the spec
 * fragment to paste (README "Suggestions").
 *
 * Exit status: 0 a suggestion, or a plain statement that none applies
 * (no tested row, no batch or model hyperparameter, no GPU); 1 the spec
 * has error-level findings, printed first: tuning a job that cannot run
 * is meaningless; 2 usage error, unreadable file, or a --to that is not
 * a Training Compiler GPU instance; 3 internal error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "fix.h"
#include "output.h"
#include "readfile.h"
#include "smpreflight.h"

enum {
	OPT_TO,
	OPT_LR_SCALING,
	OPT_DIALECT,
	OPT_INSTANCE_DATA,
	OPT_DIFF,
	OPT_HELP
};

static const struct cli_option options[] = {
	{"--to", 0, OPT_TO, "INSTANCE",
	 "move the job to this instance type (e.g. ml.p4d.24xlarge); the "
	 "instance count stays"},
	{"--lr-scaling", 0, OPT_LR_SCALING, "HOW",
	 "scale the learning rate with the global batch: linear (x k, "
	 "default) or sqrt (x sqrt(k))"},
	{"--dialect", 0, OPT_DIALECT, "D",
	 "read the spec as D: auto (default), estimator, model_trainer, "
	 "create_training_job"},
	CLI_OPTION_INSTANCE_DATA(OPT_INSTANCE_DATA),
	{"--diff", 0, OPT_DIFF, NULL,
	 "print the change as a unified diff of FILE instead (the "
	 "distribution and GPU_NUM_DEVICES included when the move needs "
	 "them)"},
	{"--help", 'h', OPT_HELP, NULL, "show this help"},
};

/* Reads all of stdin into a malloc'd buffer (4 MiB + 1 at most). */
static int
read_stdin(char **out, size_t *len)
{
	size_t cap = (size_t)4 * 1024 * 1024 + 1, n = 0, got;
	char *buf = malloc(cap);

	*out = NULL;
	*len = 0;
	if (!buf)
		return SMP_ENOMEM;
	while (n < cap && (got = fread(buf + n, 1, cap - n, stdin)) > 0)
		n += got;
	if (ferror(stdin)) {
		free(buf);
		return SMP_EIO;
	}
	*out = buf;
	*len = n;
	return 0;
}

static int
suggest_input(struct smp_suggestion **out, const struct smp_context *ctx,
	      const char *path, const struct smp_suggest_options *opts,
	      struct smp_error *err)
{
	char *buf;
	size_t len;
	int rc;

	if (strcmp(path, "-") != 0)
		return smp_suggest(out, ctx, path, NULL, 0, opts, err);
	rc = read_stdin(&buf, &len);
	if (rc == SMP_EIO)
		snprintf(err->message, sizeof(err->message), "read error");
	if (rc)
		return rc;
	rc = smp_suggest(out, ctx, "<stdin>", buf ? buf : "", len, opts, err);
	free(buf);
	return rc;
}

/* --diff: the file against the suggestion's patched spec; 1 when they
 * differ, as `check --diff`. */
static int
print_diff(const char *file, const struct smp_suggestion *s)
{
	const char *why = NULL;
	char *buf;
	size_t len;

	if (!s->patched)
		return CLI_EXIT_OK;
	if (cli_read_regular(file, CLI_READ_MAX, &buf, &len, &why)) {
		cli_error("cannot read '%s': %s", file, why ? why : "error");
		return CLI_EXIT_USAGE;
	}
	cli_fix_diff(stdout, file, buf, len, s->patched, s->patched_len);
	free(buf);
	if (fflush(stdout) != 0) {
		cli_error("cannot write the output");
		return CLI_EXIT_USAGE;
	}
	return CLI_EXIT_FINDINGS;
}

static int
run_suggest(int argc, char **argv)
{
	static const char *const scalings[] = {"linear", "sqrt"};
	static const char *const dialects[] = {
		"auto", "estimator", "model_trainer", "create_training_job"};
	struct smp_options opts = SMP_OPTIONS_INIT;
	struct smp_suggest_options sopts = SMP_SUGGEST_OPTIONS_INIT;
	struct smp_suggestion *s = NULL;
	struct smp_context *ctx = NULL;
	struct smp_error err;
	struct cli_args it;
	const char *value, *file = NULL;
	char cache_dir[1024];
	int id, k, status = CLI_EXIT_OK, diff = 0;

	cli_args_init(&it, argc, argv);
	while ((id = cli_args_next(&it, options,
				   sizeof(options) / sizeof(options[0]),
				   &value)) != CLI_ARG_END) {
		switch (id) {
		case CLI_ARG_POSITIONAL:
			if (file)
				return cli_usage_error("'suggest' takes one "
						       "spec file");
			file = value;
			break;
		case OPT_TO:
			sopts.to_instance = value;
			break;
		case OPT_LR_SCALING:
			k = cli_choice("--lr-scaling", value, scalings, 2);
			if (k < 0 || smp_lr_scaling_parse(&opts.lr_scaling,
							  scalings[k]) != 0)
				return CLI_EXIT_USAGE;
			break;
		case OPT_DIALECT:
			k = cli_choice("--dialect", value, dialects, 4);
			if (k < 0 ||
			    smp_dialect_parse(&opts.dialect, dialects[k]) != 0)
				return CLI_EXIT_USAGE;
			break;
		case OPT_INSTANCE_DATA:
			opts.instance_data_dir = value;
			break;
		case OPT_DIFF:
			diff = 1;
			break;
		case OPT_HELP:
			return cli_help(&cli_cmd_suggest);
		default:
			return CLI_EXIT_USAGE;
		}
	}
	if (!file)
		return cli_usage_error("nothing to suggest for; give one spec "
				       "file (or '-' for stdin)");
	if (diff && strcmp(file, "-") == 0)
		return cli_usage_error("--diff needs a file, not stdin");
	status = cli_context_new(&ctx, &opts, cache_dir, sizeof(cache_dir));
	if (status)
		return status;
	memset(&err, 0, sizeof(err));
	k = suggest_input(&s, ctx, file, &sopts, &err);
	if (k == SMP_EINVAL) {
		status = cli_usage_error(
			"%s", err.message[0] ? err.message : smp_strerror(k));
		goto out;
	}
	if (k == SMP_EIO) {
		cli_error("cannot read '%s': %s", file,
			  err.message[0] ? err.message : smp_strerror(k));
		status = CLI_EXIT_USAGE;
		goto out;
	}
	if (k) {
		cli_error("internal error: %s", smp_strerror(k));
		status = CLI_EXIT_INTERNAL;
		goto out;
	}
	if (s->outcome == SMP_SUGGEST_ERRORS) {
		/* the errors first, so that the reason is on screen */
		if (smp_emit_text(s->report, SMP_SEVERITY_ERROR,
				  cli_use_color(CLI_COLOR_AUTO) ? SMP_TEXT_COLOR
								: 0,
				  cli_stdout_write, NULL) != 0)
			status = CLI_EXIT_USAGE;
	}
	if (diff && s->outcome != SMP_SUGGEST_ERRORS) {
		status = print_diff(file, s);
		goto out;
	}
	if (smp_suggestion_emit_text(s, cli_stdout_write, NULL) != 0 ||
	    fflush(stdout) != 0) {
		cli_error("cannot write the output");
		status = CLI_EXIT_USAGE;
	} else if (status == CLI_EXIT_OK && s->outcome == SMP_SUGGEST_ERRORS) {
		status = CLI_EXIT_FINDINGS;
	}
out:
	smp_suggestion_free(s);
	smp_context_free(ctx);
	return status;
}

const struct cli_command cli_cmd_suggest = {
	"suggest",
	"[OPTION]... FILE",
	"Suggest a per-GPU batch size and learning rate for the job in FILE "
	"from the tested-models table: the batch now and suggested, the "
	"factor k = new global batch / old global batch, the learning rate "
	"scaled by k or sqrt(k), the tested row used, and the changed spec "
	"to paste. Where no tested row applies it says so and suggests no "
	"number.",
	"Exit status: 0 a suggestion or a statement that none applies, 1 the "
	"spec has errors (printed; fix them first), 2 usage error, unreadable "
	"file or an unsupported --to, 3 internal error.",
	options,
	sizeof(options) / sizeof(options[0]),
	run_suggest,
};
