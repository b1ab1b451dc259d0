/*
 * cmd_diagnose.c - `sm-preflight diagnose DESCRIBE [--baseline
 * NATIVE_DESCRIBE] [--log FILE] [--source-dir DIR] [--format
 * text|json]`: the Training Compiler troubleshooting guide run against a
 * job that already ran, from its DescribeTrainingJob response (see
 * smp_diagnose_buffer()).
 *
 * Exit status: 0 the job did not fail and nothing was found; 1 the job
 * failed (TrainingJobStatus Failed, even when no cause is known), or a
 * likely cause or a checklist problem was found; 2 usage error or an
 * input that cannot be read (not a regular file, not a
 * DescribeTrainingJob response, a syntax error); 3 internal error.
 *
 * The response and the baseline are read whole (at most 4 MiB, as
 * check's default file-size limit); the log is streamed to the library
 * in pieces, so a log of any size is searched in bounded memory.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "output.h"
#include "readfile.h"
#include "smpreflight.h"

enum {
	OPT_BASELINE,
	OPT_LOG,
	OPT_SOURCE_DIR,
	OPT_FORMAT,
	OPT_INSTANCE_DATA,
	OPT_HELP
};

static const struct cli_option options[] = {
	{"--baseline", 0, OPT_BASELINE, "NATIVE_DESCRIBE",
	 "the DescribeTrainingJob response of the same job run without the "
	 "compiler: compares final metrics, training time and "
	 "hyperparameters"},
	{"--log", 0, OPT_LOG, "FILE",
	 "the job's CloudWatch log ('aws logs get-log-events --output text', "
	 "'aws logs filter-log-events --output text', or plain text), "
	 "searched for known failure signatures as it is read (any size; "
	 "'-' reads it from stdin)"},
	{"--source-dir", 0, OPT_SOURCE_DIR, "DIR",
	 "a local copy of the job's code (its source_dir): the entry script "
	 "the response names is read from DIR and checked"},
	{"--format", 0, OPT_FORMAT, "F", "text (default) or json"},
	CLI_OPTION_INSTANCE_DATA(OPT_INSTANCE_DATA),
	{"--help", 'h', OPT_HELP, NULL, "show this help"},
};

/* The largest response read, as check's default file-size limit. */
#define MAX_INPUT CLI_READ_MAX

/* Reads stdin whole into a malloc'd buffer. */
static int
slurp_stdin(char **out, size_t *len, const char **why)
{
	size_t cap = MAX_INPUT + 1, n = 0, got;
	char *buf;

	*out = NULL;
	*len = 0;
	buf = malloc(cap);
	if (!buf)
		return SMP_ENOMEM;
	while (n < cap && (got = fread(buf + n, 1, cap - n, stdin)) > 0)
		n += got;
	if (ferror(stdin) || n > MAX_INPUT) {
		*why = n > MAX_INPUT ? "larger than 4 MiB" : "read error";
		free(buf);
		return SMP_EIO;
	}
	*out = buf;
	*len = n;
	return 0;
}

struct inputs {
	const char *describe, *baseline, *log, *source_dir;
	int json;
	const char *instance_data;
};

/* Parses the arguments; CLI_EXIT_OK to go on, -1 after --help. */
static int
parse(int argc, char **argv, struct inputs *in)
{
	static const char *const formats[] = {"text", "json"};
	struct cli_args it;
	const char *value;
	int id, k;

	cli_args_init(&it, argc, argv);
	while ((id = cli_args_next(&it, options,
				   sizeof(options) / sizeof(options[0]),
				   &value)) != CLI_ARG_END) {
		switch (id) {
		case CLI_ARG_POSITIONAL:
			if (in->describe)
				return cli_usage_error(
					"'diagnose' takes one "
					"DescribeTrainingJob response");
			in->describe = value;
			break;
		case OPT_BASELINE:
			in->baseline = value;
			break;
		case OPT_LOG:
			in->log = value;
			break;
		case OPT_SOURCE_DIR:
			in->source_dir = value;
			break;
		case OPT_FORMAT:
			k = cli_choice("--format", value, formats, 2);
			if (k < 0)
				return CLI_EXIT_USAGE;
			in->json = k == 1;
			break;
		case OPT_INSTANCE_DATA:
			in->instance_data = value;
			break;
		case OPT_HELP:
			cli_command_help(stdout, &cli_cmd_diagnose);
			return fflush(stdout) ? CLI_EXIT_USAGE : -1;
		default:
			return CLI_EXIT_USAGE;
		}
	}
	if (!in->describe)
		return cli_usage_error(
			"nothing to diagnose; give the job's "
			"DescribeTrainingJob response ('aws sagemaker "
			"describe-training-job --training-job-name NAME > "
			"job.json'), or '-' for stdin");
	return CLI_EXIT_OK;
}

/* Reads one input whole ("-": stdin); CLI_EXIT_OK or the exit status
 * after the message. */
static int
read_input(const char *path, char **buf, size_t *len)
{
	const char *why = "read error";
	int rc;

	if (strcmp(path, "-") == 0)
		rc = slurp_stdin(buf, len, &why);
	else
		rc = cli_read_regular(path, MAX_INPUT, buf, len, &why) ==
				     CLI_READ_ENOMEM
			     ? SMP_ENOMEM
		     : *buf ? 0
			    : SMP_EIO;
	if (rc == SMP_ENOMEM) {
		cli_error("internal error: out of memory");
		return CLI_EXIT_INTERNAL;
	}
	if (rc) {
		cli_error("cannot read '%s': %s", path, why);
		return CLI_EXIT_USAGE;
	}
	return CLI_EXIT_OK;
}

/* The log, streamed: a file descriptor and why a read failed. */
struct log_reader {
	int fd;
	int err;
};

static int
log_read(void *ud, char *buf, size_t size, size_t *got)
{
	struct log_reader *r = ud;
	ssize_t n;

	do
		n = read(r->fd, buf, size);
	while (n < 0 && errno == EINTR);
	if (n < 0) {
		r->err = errno;
		*got = 0;
		return -1;
	}
	*got = (size_t)n;
	return 0;
}

static int
run(const struct inputs *in, const struct smp_context *ctx)
{
	struct smp_diagnose_options dopts = SMP_DIAGNOSE_OPTIONS_INIT;
	struct smp_diagnosis *d = NULL;
	struct smp_error err;
	struct log_reader lr = {-1, 0};
	char *buf = NULL, *base = NULL;
	const char *why = NULL;
	size_t len = 0;
	int status, rc;

	if (!in->describe)
		return CLI_EXIT_USAGE;
	if ((in->log && strcmp(in->log, "-") == 0) +
		    (strcmp(in->describe, "-") == 0) +
		    (in->baseline && strcmp(in->baseline, "-") == 0) >
	    1)
		return cli_usage_error("only one of the inputs can be '-' "
				       "(stdin)");
	status = read_input(in->describe, &buf, &len);
	if (!status && in->baseline) {
		status = read_input(in->baseline, &base, &dopts.baseline_len);
		dopts.baseline_name = in->baseline;
		dopts.baseline = base;
	}
	if (!status && in->log) {
		lr.fd = strcmp(in->log, "-") == 0
				? STDIN_FILENO
				: cli_open_regular(in->log, &why);
		if (lr.fd < 0) {
			cli_error("cannot read '%s': %s", in->log, why);
			status = CLI_EXIT_USAGE;
		}
		dopts.log_name = strcmp(in->log, "-") ? in->log : "<stdin>";
		dopts.log_read = log_read;
		dopts.log_ud = &lr;
	}
	dopts.source_dir = in->source_dir;
	if (status)
		goto out;
	memset(&err, 0, sizeof(err));
	rc = smp_diagnose_buffer(
		&d, ctx, strcmp(in->describe, "-") ? in->describe : "<stdin>",
		buf, len, &dopts, &err);
	if (rc == SMP_EIO) {
		cli_error("cannot read '%s': %s", in->log ? in->log : "-",
			  strerror(lr.err ? lr.err : EIO));
		status = CLI_EXIT_USAGE;
		goto out;
	}
	if (rc == SMP_EPARSE || rc == SMP_EINVAL) {
		if (err.line)
			cli_error("%s:%u:%u: %s", err.source, err.line,
				  err.column, err.message);
		else
			cli_error("%s: %s", err.source, err.message);
		status = CLI_EXIT_USAGE;
		goto out;
	}
	if (rc) {
		cli_error("internal error: %s", smp_strerror(rc));
		status = CLI_EXIT_INTERNAL;
		goto out;
	}
	rc = in->json ? smp_diagnosis_emit_json(d, cli_stdout_write, NULL)
		      : smp_diagnosis_emit_text(d, cli_stdout_write, NULL);
	if (rc || fflush(stdout) != 0) {
		cli_error("cannot write the output");
		status = CLI_EXIT_USAGE;
	} else {
		status = smp_diagnosis_found(d) ? CLI_EXIT_FINDINGS
						: CLI_EXIT_OK;
	}
out:
	smp_diagnosis_free(d);
	free(buf);
	free(base);
	if (lr.fd > STDIN_FILENO)
		close(lr.fd);
	return status;
}

static int
run_diagnose(int argc, char **argv)
{
	struct smp_options opts = SMP_OPTIONS_INIT;
	struct inputs in = {NULL, NULL, NULL, NULL, 0, NULL};
	struct smp_context *ctx = NULL;
	char cache_dir[1024];
	int status = parse(argc, argv, &in);

	if (status)
		return status < 0 ? CLI_EXIT_OK : status;
	opts.instance_data_dir = in.instance_data;
	status = cli_context_new(&ctx, &opts, cache_dir, sizeof(cache_dir));
	if (status)
		return status;
	status = run(&in, ctx);
	smp_context_free(ctx);
	return status;
}

const struct cli_command cli_cmd_diagnose = {
	"diagnose",
	"[OPTION]... DESCRIBE",
	"Run the SageMaker Training Compiler troubleshooting guide against a "
	"job that already ran, from its DescribeTrainingJob response "
	"DESCRIBE (JSON or YAML, as 'aws sagemaker describe-training-job' "
	"prints it): which situation it is in (failed, does not converge "
	"like its native run, not faster), the likely cause from "
	"FailureReason and the log, then the guide's checklist, each item "
	"found a problem, looks right, or cannot tell (and what would "
	"tell).",
	"Exit status: 0 the job did not fail and nothing was found; 1 the "
	"job failed (TrainingJobStatus Failed, even when no known cause "
	"matches), or a likely cause or a checklist problem was found; 2 "
	"usage error, or an input that cannot be read (not a regular file, "
	"not a DescribeTrainingJob response); 3 internal error.",
	options,
	sizeof(options) / sizeof(options[0]),
	run_diagnose,
};
