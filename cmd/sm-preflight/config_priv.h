/*
 * config_priv.h - what the files of the configuration share (config.h is
 * what the rest of the program sees): the parsed files, the per-folder
 * chains and their memo, the merged profiles, and the run that owns them.
 *
 *   config_discover.c  the upward search, the memo, the run's lifetime
 *   config_load.c      reading and parsing one file (errors with positions)
 *   config_pyproject.c pyproject.toml's [tool.sm-preflight] as that YAML
 *   config_profile.c   merging a chain's files into a profile
 *   config_context.c   one context per distinct profile
 *   config_filter.c    the walk filter (`exclude:`, `ignore:` globs in
 *                      glob.c, git's ignores) and --force-exclude
 *   config_print.c     `sm-preflight config`
 */
#ifndef CLI_CONFIG_PRIV_H
#define CLI_CONFIG_PRIV_H

#include <stddef.h>

#include "args.h"
#include "config.h"
#include "walk.h"

/* One parsed file. */
struct cfg_file {
	struct smp_config *cfg;
	char *path;    /* absolute */
	char *dir;     /* its folder, absolute */
	char *display; /* relative to the working folder when below it */
	struct cfg_file *next;
};

/* A folder's files, nearest first; shared by every folder below it
 * without a file of its own. */
struct chain {
	struct cfg_file *file;
	struct chain *parent;
	struct cli_profile *profile; /* made on first use */
	struct chain *next;          /* all chains, for freeing */
};

/* Where a value came from: a file's key, or NULL for the command line
 * or the default (told apart by the caller). */
struct origin {
	const struct cfg_file *file;
	struct smp_config_pos pos;
};

struct ignore {
	const char *pattern; /* borrowed from the file's config */
	const char *base;    /* the file's folder */
};

struct rule_setting {
	const char *rule;
	enum smp_severity severity;
	struct origin from;
};

struct cli_profile {
	enum smp_severity fail_on;
	struct origin fail_on_from;
	int fail_on_cli;
	enum smp_lr_scaling lr_scaling;
	struct origin lr_from;
	int lr_cli;
	/* rule severities of the files, farthest file first */
	struct rule_setting *rules;
	size_t rule_count;
	const struct smp_config_list *names[4];
	struct origin names_from[4];
	char *overlay; /* absolute path, or NULL */
	struct origin overlay_from;
	const char *data_url; /* the nearest file's data-url, or NULL */
	struct origin data_url_from;
	const struct smp_config_list *extensions; /* NULL: default */
	struct origin extensions_from;
	int all_jobs; /* all-jobs: true, or --all-jobs */
	struct origin all_jobs_from;
	/* select: and ignore-rules: of the nearest file that has each, or
	 * NULL (the command line's --select / --ignore replace them) */
	const struct smp_config_list *select;
	struct origin select_from;
	const struct smp_config_list *ignore_rules;
	struct origin ignore_rules_from;
	struct ignore *ignores;
	size_t ignore_count;
	/* the excluded patterns: --exclude's (base the working folder), or
	 * the nearest file's exclude:; exclude_set 0: the default list */
	struct ignore *excludes;
	size_t exclude_count;
	int exclude_set;
	struct origin exclude_from;
	int force_exclude; /* force-exclude: true, or --force-exclude */
	struct origin force_exclude_from;
	int respect_gitignore; /* 1 unless respect-gitignore: false */
	struct origin respect_gitignore_from;
	char *key; /* what its context depends on */
	const struct smp_context *ctx;
	struct cli_profile *next;
};

struct ctx_entry {
	char *key;
	struct smp_context *ctx;
	struct ctx_entry *next;
};

/* folder -> chain, open addressing */
struct memo {
	char *dir;
	struct chain *chain;
	int used;
	/* the search stopped above dir: its parent belongs to another
	 * user (`stop_uid`), so files there and above are not read */
	int stopped;
	unsigned long stop_uid;
};

struct cli_configs {
	const struct cli_config_args *args;
	char *cwd;
	struct cfg_file *files;
	struct chain *chains;
	struct chain *forced;     /* --config FILE */
	struct cli_profile *base; /* no file */
	struct cli_profile *profiles;
	struct ctx_entry *contexts;
	size_t context_count;
	struct memo *memo;
	size_t memo_count, memo_cap;
	struct cli_gitignore *gitignore; /* the walk filter's, or NULL */
};

/* The configuration keys of the four name lists, in the order of
 * cli_profile.names. */
extern const char *const cfg_name_keys[4];

/* Prints the out-of-memory error; returns CLI_EXIT_INTERNAL. */
int cfg_oom(void);

/* Lexically normalized absolute path of p (relative to cwd); NULL on
 * ENOMEM. */
char *cfg_abs_path(const char *cwd, const char *p);

/* The folder of an absolute path ("/" for "/x" and "/"); NULL on ENOMEM. */
char *cfg_parent_of(const char *p);

/* How a path is shown: relative to the working folder when below it. */
char *cfg_display_of(const char *cwd, const char *p);

/* Reads and parses the file at abs (absolute) into a new cfg_file of c.
 * Returns an exit status; errors are printed as FILE:LINE:COL. */
int cfg_load_file(struct cli_configs *c, const char *abs,
		  struct cfg_file **out);

/* What cfg_pyproject_yaml() returns. */
enum { CFG_TOML_OK, CFG_TOML_NONE, CFG_TOML_ERROR, CFG_TOML_ENOMEM };

struct cfg_toml_error {
	unsigned line, column; /* 1-based, in the TOML */
	char message[160];
};

/* Where a line's key and value are, to map the YAML's columns back. */
struct cfg_toml_col {
	unsigned yaml_value; /* the value's column in the YAML; 0: none */
	unsigned toml_key;   /* the key's and the value's in the TOML */
	unsigned toml_value;
};

struct cfg_toml_yaml {
	char *yaml; /* line N holds what line N of the TOML did */
	size_t len;
	struct cfg_toml_col *cols; /* per line */
	size_t ncols;
};

/*
 * The [tool.sm-preflight] table (and its [tool.sm-preflight.KEY]
 * subtables) of a pyproject.toml's text as YAML for smp_config_parse, line
 * for line. CFG_TOML_OK with *out filled (cfg_pyproject_release() frees
 * it); CFG_TOML_NONE when the file has no such table; CFG_TOML_ERROR with
 * *err set (what the reader does not take, or broken TOML);
 * CFG_TOML_ENOMEM.
 */
int cfg_pyproject_yaml(const char *buf, size_t len, struct cfg_toml_yaml *out,
		       struct cfg_toml_error *err);

/* The TOML's column of a column of the YAML's line. */
unsigned cfg_pyproject_column(const struct cfg_toml_yaml *y, unsigned line,
			      unsigned column);

void cfg_pyproject_release(struct cfg_toml_yaml *y);

/* The memo entry of an absolute folder, or NULL when not searched yet. */
struct memo *cfg_memo_find(struct cli_configs *c, const char *dir);

/* The chain of an absolute folder (NULL: no file applies); an exit
 * status. */
int cfg_chain_of_dir(struct cli_configs *c, const char *dir,
		     struct chain **out);

/* The merged profile of a chain (NULL: the command line alone), made on
 * first use and owned by c; an exit status. */
int cfg_profile_of(struct cli_configs *c, struct chain *ch,
		   struct cli_profile **out);

void cfg_profile_free(struct cli_profile *p);

#endif
