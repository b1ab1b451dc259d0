/*
 * main.c - sm-preflight: the sub-command table, global options (--help,
 * --version, also as the commands help and version) and `check` as the
 * default command. The CLI uses only the
 * public API in smpreflight.h.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "output.h"
#include "smpreflight.h"

static const struct cli_command *const commands[] = {
	&cli_cmd_check,   &cli_cmd_rules,    &cli_cmd_explain,
	&cli_cmd_suggest, &cli_cmd_diagnose, &cli_cmd_update_data,
	&cli_cmd_data,    &cli_cmd_config,   &cli_cmd_lsp,
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static const struct cli_option global_options[] = {
	{"--help", 'h', 0, NULL,
	 "show this help; 'sm-preflight COMMAND --help' for one command"},
	{"--version", 0, 1, NULL,
	 "print the version and the built-in instance data's version"},
};

static const struct cli_command *
find_command(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i]->name, name) == 0)
			return commands[i];
	return NULL;
}

static int
print_help(void)
{
	size_t i;

	printf("Usage: sm-preflight COMMAND [OPTION]... [ARG]...\n"
	       "       sm-preflight [OPTION]... [FILE|DIR|-]...    (same as "
	       "'check')\n\n"
	       "Preflight checks for Amazon SageMaker Training Compiler job "
	       "specs (YAML or JSON):\nfindings with line, column and fix, "
	       "before the GPUs are billed.\n\nCommands:\n");
	for (i = 0; i < NCOMMANDS; i++) {
		char left[64];

		snprintf(left, sizeof(left), "%s %s", commands[i]->name,
			 commands[i]->synopsis);
		printf("  %s\n", left);
		cli_wrap(stdout, commands[i]->summary, 6, 0);
	}
	printf("  help [COMMAND]\n      Show this help, or one command's.\n");
	printf("  version\n      Print the version and the built-in data's "
	       "version, as --version.\n");
	for (i = 0; i < NCOMMANDS; i++) {
		if (commands[i]->option_count <= 1)
			continue; /* only --help */
		printf("\nOptions of '%s':\n", commands[i]->name);
		cli_print_options(stdout, commands[i]->options,
				  commands[i]->option_count);
	}
	printf("\nGlobal options:\n");
	cli_print_options(stdout, global_options,
			  sizeof(global_options) / sizeof(global_options[0]));
	printf("\nOptions take their value as '--opt VALUE' or "
	       "'--opt=VALUE'.\n\n");
	cli_wrap(stdout, cli_cmd_check.epilog, 0, 0);
	return fflush(stdout) ? CLI_EXIT_USAGE : CLI_EXIT_OK;
}

/* "sm-preflight 0.1.0 (data 2024.1 2024-05-01)" */
static int
print_version(void)
{
	struct smp_options opts = SMP_OPTIONS_INIT;
	struct smp_context *ctx = NULL;
	struct smp_error err;
	int rc;

	memset(&err, 0, sizeof(err));
	rc = smp_context_new(&ctx, &opts, &err);
	if (rc) {
		printf("sm-preflight %s\n", smp_version());
		cli_error("internal error: cannot load the built-in instance "
			  "data: %s",
			  err.message[0] ? err.message : smp_strerror(rc));
		return CLI_EXIT_INTERNAL;
	}
	printf("sm-preflight %s (data %s %s)\n", smp_version(),
	       smp_context_data_version(ctx), smp_context_data_date(ctx));
	smp_context_free(ctx);
	return fflush(stdout) ? CLI_EXIT_USAGE : CLI_EXIT_OK;
}

static const char *const *
command_names(const char **names)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		names[i] = commands[i]->name;
	names[NCOMMANDS] = "help";
	names[NCOMMANDS + 1] = "version";
	return names;
}

static int
run_help(int argc, char **argv)
{
	const struct cli_command *cmd;
	const char *names[NCOMMANDS + 2];
	const char *best;

	if (argc < 3 || strcmp(argv[2], "help") == 0)
		return print_help();
	if (argc > 3)
		return cli_usage_error("'help' takes one command name");
	if (strcmp(argv[2], "version") == 0) {
		printf("Usage: sm-preflight version\n\nPrint the version and "
		       "the built-in instance data's version (as "
		       "--version).\n");
		return fflush(stdout) ? CLI_EXIT_USAGE : CLI_EXIT_OK;
	}
	cmd = find_command(argv[2]);
	if (cmd)
		return cli_help(cmd);
	best = cli_did_you_mean(argv[2], command_names(names), NCOMMANDS + 2);
	if (best)
		return cli_usage_error("unknown command '%s'; did you mean "
				       "'%s'?",
				       argv[2], best);
	return cli_usage_error("unknown command '%s'", argv[2]);
}

/*
 * A first argument that is neither a command nor an existing path but
 * looks like a mistyped command ("chek") is a usage error, not a missing
 * file: returns the suggestion or NULL.
 */
static const char *
mistyped_command(const char *arg)
{
	const char *names[NCOMMANDS + 2];

	if (arg[0] == '-' || strchr(arg, '/') || strchr(arg, '.') ||
	    access(arg, F_OK) == 0)
		return NULL;
	return cli_did_you_mean(arg, command_names(names), NCOMMANDS + 2);
}

/* Dispatches to a sub-command; anything else is `check`. */
int
main(int argc, char **argv)
{
	const struct cli_command *cmd;
	const char *typo;

	if (argc < 2)
		return cli_cmd_check.run(argc, argv);
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
		return argc == 2 ? print_help()
				 : cli_usage_error("'%s' takes no argument",
						   argv[1]);
	if (strcmp(argv[1], "--version") == 0 ||
	    strcmp(argv[1], "version") == 0)
		return argc == 2 ? print_version()
				 : cli_usage_error("'%s' takes no argument",
						   argv[1]);
	if (strcmp(argv[1], "help") == 0)
		return run_help(argc, argv);
	cmd = find_command(argv[1]);
	if (cmd)
		return cmd->run(argc - 1, argv + 1);
	typo = mistyped_command(argv[1]);
	if (typo)
		return cli_usage_error("unknown command '%s'; did you mean "
				       "'%s'?",
				       argv[1], typo);
	/* check is the default command: argv[0] stands in for its name */
	return cli_cmd_check.run(argc, argv);
}
