/*
 * cleanup.h - the temporary files beside --output targets are removed
 * when SIGINT, SIGTERM or SIGHUP ends the run: an interrupted run leaves
 * no "report.json.XXXXXX" behind. A signal the shell started us ignoring
 * stays ignored.
 */
#ifndef CLI_CLEANUP_H
#define CLI_CLEANUP_H

/* How many temporaries can be registered at once. */
#define CLI_CLEANUP_MAX 16

/*
 * Holds (on non-zero) or releases the three signals, so that creating a
 * file and registering it happen as one step. Calls do not nest.
 */
void cli_cleanup_hold(int on);

/*
 * Registers path (borrowed: it must live until cli_cleanup_remove()) to
 * be unlinked if a signal ends the run; installs the handlers on first
 * use. Returns 0, or -1 when every slot is taken.
 */
int cli_cleanup_add(const char *path);

/* Forgets path (renamed into place, or removed by the caller). */
void cli_cleanup_remove(const char *path);

#endif
