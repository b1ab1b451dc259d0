/*
 * args.h - command-line parsing for the sub-commands: long options as
 * "--opt value" or "--opt=value", a few short aliases, options anywhere
 * before "--", did-you-mean for anything unknown, and the help text that
 * is generated from the same option tables.
 */
#ifndef CLI_ARGS_H
#define CLI_ARGS_H

#include <stddef.h>
#include <stdio.h>

/* Exit statuses (README "Gating", sm-preflight(1) EXIT STATUS). */
enum cli_exit {
	CLI_EXIT_OK = 0,
	CLI_EXIT_FINDINGS = 1,
	CLI_EXIT_USAGE = 2, /* also: an input that could not be read */
	CLI_EXIT_INTERNAL = 3
};

struct cli_option {
	const char *name;       /* "--fail-on" */
	char short_name;        /* 'q', or 0 */
	int id;                 /* returned by cli_args_next() */
	const char *value_name; /* "LEVEL", or NULL for a flag */
	const char *help;
};

struct cli_command {
	const char *name;
	const char *synopsis; /* what follows the name in a usage line */
	const char *summary;
	const char *epilog; /* printed after the options, or NULL */
	const struct cli_option *options;
	size_t option_count;
	/* argv[0] is the command's name */
	int (*run)(int argc, char **argv);
};

/* What cli_args_next() found besides an option id (ids are >= 0). */
enum {
	CLI_ARG_END = -1,        /* no arguments left */
	CLI_ARG_POSITIONAL = -2, /* *value is the argument */
	CLI_ARG_ERROR = -3       /* a usage error was printed */
};

struct cli_args {
	int argc;
	char **argv;
	int next;
	int options_done; /* after "--" */
};

/* Starts parsing at argv[1] (argv[0] is the command). */
void cli_args_init(struct cli_args *it, int argc, char **argv);

/*
 * The next option or positional argument. For an option with a value,
 * *value points at it. Unknown options, missing and unexpected values
 * print a usage error (with did-you-mean) and return CLI_ARG_ERROR.
 */
int cli_args_next(struct cli_args *it, const struct cli_option *opts,
		  size_t count, const char **value);

/*
 * The candidate closest to word (case-insensitive; a unique prefix
 * counts as close), or NULL when none is close enough to suggest.
 */
const char *cli_did_you_mean(const char *word, const char *const *candidates,
			     size_t count);

/*
 * Prints "sm-preflight: MESSAGE" and "Try 'sm-preflight --help'." to
 * stderr; returns CLI_EXIT_USAGE.
 */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Checks that value is one of names[0..count); else prints a usage error
 * naming the option, with did-you-mean. Returns the index or -1.
 */
int cli_choice(const char *option, const char *value, const char *const *names,
	       size_t count);

/* Prints the option list of a command, two-column, to f. */
void cli_print_options(FILE *f, const struct cli_option *opts, size_t count);

/* Prints the full help of one command to f. */
void cli_command_help(FILE *f, const struct cli_command *cmd);

/* --help: the help of cmd to stdout; CLI_EXIT_OK, or CLI_EXIT_USAGE when
 * stdout cannot be written. */
int cli_help(const struct cli_command *cmd);

#endif
