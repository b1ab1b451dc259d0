/*
 * format.h - where `check` writes its findings: --format and --output
 * pairs, each an smp_emitter writing to stdout or to a file that appears
 * atomically (a temporary file renamed into place at the end).
 *
 *   --format json --output report.json --format sarif --output r.sarif
 *
 * Each --output binds to the --format before it; a format without one
 * goes to stdout, and at most one may. With no --format at all the
 * output is text, or GitHub workflow commands when GITHUB_ACTIONS is
 * "true" (the CLI reads the environment; the library never does).
 *
 * Use: cli_outputs_init(), cli_outputs_format() / _output() /
 * _rules_uri() while parsing, cli_outputs_open() once the context
 * exists, cli_outputs_add() for each file's report in output order
 * (sorted by path), cli_outputs_finish(), and cli_outputs_release()
 * always.
 */
#ifndef CLI_FORMAT_H
#define CLI_FORMAT_H

#include <stddef.h>

#include "output.h"
#include "smpreflight.h"

#define CLI_MAX_OUTPUTS 8

/* The SARIF rules_uri when neither --rules-uri nor the variable is set. */
#define CLI_RULES_URI_DEFAULT "docs/rules.md"
#define CLI_RULES_URI_ENV "SM_PREFLIGHT_RULES_URI"

struct cli_output {
	enum smp_format format;
	const char *path; /* NULL: stdout */
	char *tmp;        /* the temporary file until it is renamed */
	void *fp;         /* FILE * of tmp, or of path when in_place */
	int in_place;     /* path is a device, FIFO or socket: no rename */
	struct smp_emitter *em;
};

struct cli_outputs {
	struct cli_output items[CLI_MAX_OUTPUTS];
	size_t count;
	int bound; /* the last --format already has its --output */
	const char *rules_uri;
	/* SARIF's source root (srcroot.h): --sarif-root, the files it is
	 * found from, and what cli_outputs_open() resolved (owned) */
	const char *sarif_root;
	char *const *files;
	size_t nfiles;
	char *root;
	char *cwd;
};

void cli_outputs_init(struct cli_outputs *o);

/* --format VALUE: 0, or CLI_EXIT_USAGE after printing why. */
int cli_outputs_format(struct cli_outputs *o, const char *value);

/* --output FILE ("-" is stdout): 0, or CLI_EXIT_USAGE. */
int cli_outputs_output(struct cli_outputs *o, const char *value);

/* --rules-uri URI: the base of SARIF help links. */
void cli_outputs_rules_uri(struct cli_outputs *o, const char *value);

/* --sarif-root DIR: the folder SARIF's artifact URIs are relative to. */
void cli_outputs_sarif_root(struct cli_outputs *o, const char *value);

/* The files to be checked (borrowed until cli_outputs_open()): SARIF's
 * source root may be their git top level. */
void cli_outputs_sources(struct cli_outputs *o, char *const *files, size_t n);

/*
 * Checks the pairs (at most one to stdout, no file twice), picks the
 * default format, resolves SARIF's source root when a SARIF output is
 * there, creates the temporary files and the emitters. text
 * output is coloured as `color` says (to stdout) or only with --color
 * always (to a file); junit failures are findings at or above fail_on.
 * Returns 0, CLI_EXIT_USAGE (printed) or CLI_EXIT_INTERNAL.
 */
int cli_outputs_open(struct cli_outputs *o, const struct smp_context *ctx,
		     enum smp_severity fail_on, enum cli_color color);

/* One file's findings to every output: 0, or an exit status (printed). */
int cli_outputs_add(struct cli_outputs *o, const struct smp_report *rep);

/*
 * A file that could not be checked (message: why) to every output: 0, or
 * an exit status (printed).
 */
int cli_outputs_failure(struct cli_outputs *o, const char *file,
			const char *message);

/*
 * The once-per-run data-stale check to every
 * output, ahead of the specs; *sev is its severity (OFF when none or when
 * days is 0). 0 or CLI_EXIT_INTERNAL (printed).
 */
int cli_outputs_data_age(struct cli_outputs *o, const struct smp_context *ctx,
			 long days, enum smp_severity *sev);

/*
 * Ends every document and renames the files into place. A failure is
 * printed and leaves the earlier file, if any, untouched: 0 or
 * CLI_EXIT_USAGE (an output could not be written).
 */
int cli_outputs_finish(struct cli_outputs *o);

/* Frees the emitters and removes temporary files that were not renamed. */
void cli_outputs_release(struct cli_outputs *o);

#endif
