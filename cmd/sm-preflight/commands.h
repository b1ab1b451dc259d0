/* commands.h - the sub-commands; main.c holds the table of them */
#ifndef CLI_COMMANDS_H
#define CLI_COMMANDS_H

#include "args.h"

extern const struct cli_command cli_cmd_check;
extern const struct cli_command cli_cmd_rules;
extern const struct cli_command cli_cmd_explain;

#endif
