/*
 * selection.h - the rule selection of the command line: --select and
 * --ignore take comma-separated rule ids, group names and ALL, each
 * option repeatable; unknown names are usage errors with a did-you-mean.
 * The library applies the selection (smp_options select and ignore).
 */
#ifndef CLI_SELECTION_H
#define CLI_SELECTION_H

#include <stddef.h>

struct cli_select_list {
	char **names; /* owned */
	size_t count;
	size_t cap;
	int set; /* the option was given (even as an empty list) */
};

/*
 * Adds each comma-separated name of value (blank entries skipped) to l.
 * Returns an exit status: 0, CLI_EXIT_USAGE (printed) or
 * CLI_EXIT_INTERNAL (out of memory, printed).
 */
int cli_select_add(struct cli_select_list *l, const char *option,
		   const char *value);

void cli_select_release(struct cli_select_list *l);

#endif
