/*
 * config.h - `.sm-preflight.yaml` files: found from each spec's folder
 * upward to the repository root (the first folder holding .git, else the
 * filesystem root, or a file saying `root: true`), parsed by the library
 * (smp_config_parse), merged key by key with the nearer file winning and
 * the command line over them all. A profile is the merged configuration
 * of one folder; profiles with the same context settings share one
 * context. `sm-preflight config [PATH]` prints a profile with the origin
 * of every value.
 */
#ifndef CLI_CONFIG_H
#define CLI_CONFIG_H

#include <stddef.h>

#include "smpreflight.h"
#include "walk.h"

#define CLI_CONFIG_NAME ".sm-preflight.yaml"
/* read where a folder has no CLI_CONFIG_NAME, when it has the table
 * [tool.sm-preflight] */
#define CLI_PYPROJECT_NAME "pyproject.toml"

/* --fail-on none (or fail-on: none in a file): above every severity, so
 * no finding fails the run; the machine formats' failure level is then
 * error (cli_fail_level()). */
#define CLI_FAIL_ON_NONE ((enum smp_severity)(SMP_SEVERITY_ERROR + 1))

/* The fail-on level's name: a severity's, or "none". */
const char *cli_fail_on_name(enum smp_severity fail_on);

/* Parses "error", "warning", "info" or "none"; -1 for anything else. */
int cli_fail_on_parse(enum smp_severity *out, const char *name);

/* What to tell an emitter (JUnit's failures): fail_on, error for none. */
enum smp_severity cli_fail_level(enum smp_severity fail_on);

/* What the command line says, to be merged with the files. */
struct cli_config_args {
	const char *config_file; /* --config FILE: the only file read */
	int no_config;           /* --no-config: no file read */
	int fail_on_set;         /* --fail-on given */
	enum smp_severity fail_on;
	int lr_scaling_set; /* --lr-scaling given (opts->lr_scaling) */
	int no_python;      /* --no-python: walks skip *.py and *.ipynb */
	/* --include-python: walks read them even where the configuration's
	 * extensions leave them out */
	int include_python;
	int all_jobs; /* --all-jobs: over every file's all-jobs */
	/* --extend-exclude: more ignore patterns, relative to the working
	 * folder, for every walk (as ruff's) */
	const char *const *extend_exclude;
	size_t extend_exclude_count;
	/* --exclude (exclude_count > 0): the excluded patterns, relative to
	 * the working folder, instead of the default list and the files'
	 * exclude (ruff's --exclude) */
	const char *const *exclude;
	size_t exclude_count;
	/* --force-exclude / --no-force-exclude given (force_exclude 1 / 0);
	 * else the files' force-exclude, else false */
	int force_exclude_set;
	int force_exclude;
	/* --respect-gitignore / --no-respect-gitignore given
	 * (respect_gitignore 1 / 0); else the files', else true */
	int respect_gitignore_set;
	int respect_gitignore;
	/* --select / --ignore given (opts->select, opts->ignore): they
	 * replace the files' select / ignore-rules */
	int select_set;
	int ignore_set;
	/* --extend-select (ruff's): added to the files' select when no
	 * --select replaced it (with --select, already in opts->select) */
	const char *const *extend_select;
	size_t extend_count;
	/* the options of the command line, base of every context; the
	 * files' rule severities go before opts->overrides */
	const struct smp_options *opts;
};

struct cli_configs;
struct cli_profile;

/*
 * Starts a run: reads --config FILE when given. Returns an exit status:
 * 0, CLI_EXIT_USAGE (a bad --config, printed) or CLI_EXIT_INTERNAL.
 * args and what it points to must outlive the result.
 */
int cli_configs_new(struct cli_configs **out,
		    const struct cli_config_args *args);

void cli_configs_free(struct cli_configs *c);

struct cli_gitignore;

/*
 * The walk filter of the run: hidden entries aside (the walk skips
 * them), a walked entry is skipped when git ignores it (through g, unless
 * its folder's configuration says respect-gitignore: false; g may be
 * NULL), when an excluded pattern matches it (--exclude, else the nearest
 * file's `exclude`, else cli_walk_default_exclude()), or an `ignore` /
 * `extend-exclude` glob of its folder's configuration or --extend-exclude
 * does, and a file unless its extension is one of `extensions`. A
 * configuration file that cannot be read stops the walk. c and g must
 * outlive out.
 */
void cli_configs_filter(struct cli_configs *c, struct cli_gitignore *g,
			struct cli_walk_filter *out);

/*
 * --force-exclude (or force-exclude: true in the configuration of path's
 * folder): 1 when path, named on the command line, or a folder above it
 * (up to the working folder, or the nearest configuration's folder for a
 * path outside it) is excluded as a walk would exclude it (the patterns,
 * not git's); 0 when it is to be checked (always without force-exclude,
 * and for "-"); -1 when a configuration file cannot be used (printed).
 */
int cli_configs_force_excluded(struct cli_configs *c, const char *path);

/*
 * The profile governing the spec at path ("-": stdin, governed from the
 * folder of stdin_name when not NULL, else the working folder). Returns
 * an exit status; a configuration file that cannot be used is printed.
 */
int cli_configs_profile(struct cli_configs *c, const char *path,
			const char *stdin_name, struct cli_profile **out);

/*
 * The context of a profile, created on first use and shared by the
 * profiles whose rule severities, names, lr-scaling and instance overlay
 * are the same. Returns an exit status (errors printed).
 */
int cli_profile_context(struct cli_configs *c, struct cli_profile *p,
			const struct smp_context **out);

/* The profile's data-url (the nearest file's), or NULL. */
const char *cli_profile_data_url(const struct cli_profile *p);

/* The profile's fail-on: the command line's, a file's, or error. */
enum smp_severity cli_profile_fail_on(const struct cli_profile *p);

/* 1 when a walk judges every job of the profile's folder (all-jobs:
 * true, or --all-jobs), not only Training Compiler ones. */
int cli_profile_all_jobs(const struct cli_profile *p);

#endif
