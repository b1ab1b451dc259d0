/* commands.h - the sub-commands; main.c holds the table of them */
#ifndef CLI_COMMANDS_H
#define CLI_COMMANDS_H

#include "args.h"
#include "smpreflight.h"

extern const struct cli_command cli_cmd_check;
extern const struct cli_command cli_cmd_rules;
extern const struct cli_command cli_cmd_explain;
extern const struct cli_command cli_cmd_suggest;
extern const struct cli_command cli_cmd_diagnose;
extern const struct cli_command cli_cmd_update_data;
extern const struct cli_command cli_cmd_data;
extern const struct cli_command cli_cmd_config; /* config_print.c */
extern const struct cli_command cli_cmd_lsp;    /* lsp_main.c */

/* The --instance-data entry of the commands that load instance data
 * (check, suggest, diagnose), with their option id. */
#define CLI_OPTION_INSTANCE_DATA(id)                                           \
	{                                                                      \
		"--instance-data", 0, (id), "DIR",                             \
			"use instances.json, tested-models.json and "          \
			"frameworks.json from DIR instead of the built-in "    \
			"data"                                                 \
	}

/* cmd_data.c: the cache folder ($XDG_CACHE_HOME/sm-preflight, else
 * ~/.cache/sm-preflight) in buf, or NULL when there is none. */
const char *cli_cache_dir(char *buf, size_t size);

/* cmd_data.c: the data-stale age limit from --stale-days (value, may be
 * NULL) or SM_PREFLIGHT_STALE_DAYS, else -1 (the data's own limit); 0 is
 * off. 0 or CLI_EXIT_USAGE. */
int cli_stale_days(const char *value, long *out);

/* The limit in force for ctx: days when set (>= 0), else the limit the
 * data's source declares (smp_context_data_max_age; 0: none). */
long cli_stale_limit(const struct smp_context *ctx, long days);

/* cmd_rules.c: the rule id closest to id (a did-you-mean), or NULL. */
const char *cli_rule_did_you_mean(const char *id);

/* config_context.c: why a context could not be made (the instance data,
 * or the overlay from dir when not NULL), printed with the file, line and
 * column the library gives; returns CLI_EXIT_USAGE, or CLI_EXIT_INTERNAL
 * for an internal error. */
int cli_context_error(int rc, const struct smp_error *err, const char *dir);

/* A context from opts for a command that reads no configuration file:
 * the refreshed data in the cache (its folder written to cache_buf of
 * size bytes) unless opts names an instance-data folder. Returns an exit
 * status, errors printed (cli_context_error). */
int cli_context_new(struct smp_context **out, struct smp_options *opts,
		    char *cache_buf, size_t size);

#endif
