/*
 * fix.h - `check --fix`, `--diff`, `--show-fixes`, `--unsafe-fixes`
 * (README "Fixing"): each file's fixes through smp_fix(), shown as a
 * unified diff or written back in place (fix_write.h) and only when the
 * file on disk is still the one that was read.
 */
#ifndef CLI_FIX_H
#define CLI_FIX_H

#include <stdio.h>

#include "fix_write.h"
#include "smpreflight.h"

enum cli_fix_mode { CLI_FIX_OFF = 0, CLI_FIX_APPLY, CLI_FIX_DIFF };

struct cli_fix {
	enum cli_fix_mode mode;
	int show;   /* --show-fixes */
	int unsafe; /* --unsafe-fixes */
	/* --baseline: its fixes too (borrowed) */
	const struct smp_baseline *baseline;
	size_t files_changed;
	size_t fixes_applied;
	size_t unsafe_skipped;
	size_t write_errors;
};

/* One file's fix, made in a worker thread and used in output order. */
struct cli_fixed {
	char *orig; /* the bytes that were read */
	size_t orig_len;
	struct cli_stamp stamp; /* the file before it was read */
	struct smp_fix_result *result;
};

/*
 * Reads path ("-": stdin, labelled name) and fixes it, flags as
 * smp_fix_options.flags (a walked file's); 0 with *out set,
 * SMP_EIO (err says why), SMP_ENOMEM, or what smp_fix() returns.
 */
int cli_fix_file(struct cli_fixed **out, const struct cli_fix *fix,
		 const struct smp_context *ctx, const char *path,
		 const char *name, unsigned int flags, struct smp_error *err);

void cli_fixed_free(struct cli_fixed *fixed);

/*
 * In output order: prints the diff (--diff), or writes the fixed text
 * (--fix: in place, or to stdout for stdin), and lists the fixes
 * applied (--show-fixes). Returns 0, or 1 when the file could not be
 * written (an error was printed).
 */
int cli_fix_done(struct cli_fix *fix, const char *path, const char *name,
		 const struct cli_fixed *fixed);

/* The closing line: "fixed 3 problems in 2 files", to stderr. */
void cli_fix_summary(const struct cli_fix *fix);

/*
 * A unified diff (3 lines of context) of a[0..alen) to b[0..blen),
 * labelled "a/name" and "b/name"; nothing when they are equal.
 */
void cli_fix_diff(FILE *out, const char *name, const char *a, size_t alen,
		  const char *b, size_t blen);

#endif
