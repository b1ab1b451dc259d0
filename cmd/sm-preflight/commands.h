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

#endif
