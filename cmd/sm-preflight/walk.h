/*
 * walk.h - turning command-line paths into spec files. A directory is
 * walked recursively for *.yaml, *.yml and *.json (or what a filter
 * accepts), skipping hidden entries and (without a filter, which then
 * decides) the folders of cli_walk_default_exclude(), following symbolic links
 * that stay inside the folder being walked (never one that leads out of it, and
 * never into a directory already visited, so loops end). All the files of all
 * the inputs are sorted by path and each is listed once, so the order of
 * the output depends neither on readdir() nor on the order of the
 * arguments.
 */
#ifndef CLI_WALK_H
#define CLI_WALK_H

#include <stddef.h>

/* cli_walk_collect()'s status when out of memory. */
#define CLI_WALK_ENOMEM (-1000)

/*
 * Decides about an entry met inside a walked directory (never about the
 * paths given): path as the walk spells it ("dir/sub/x.yaml"), name its
 * last component, is_dir 1 for a directory. Returns 1 to skip it (a
 * skipped directory is not entered), 0 to keep it, or -1 to stop the walk
 * (the filter printed why).
 */
struct cli_walk_filter {
	int (*skip)(void *ud, const char *path, const char *name, int is_dir);
	void *ud;
};

/*
 * The files found, sorted by their sort name, without duplicates. An
 * entry the walk could not look into (a folder it cannot list, an entry
 * it cannot stat: no search permission, a path longer than PATH_MAX) is
 * listed too, in its place, with errors[i] saying why (strerror());
 * errors[i] is NULL for the others.
 */
struct cli_walk_list {
	char **paths;
	char **errors;
	/* walked[i] 1 when paths[i] was found by walking a folder, 0 when
	 * it was named on the command line (the check treats them apart) */
	unsigned char *walked;
	/* symbolic links skipped because they lead out of the walked
	 * folder */
	size_t outside;
	size_t count;
	size_t cap;
	/* the inputs that are directories in which the walk found nothing
	 * (no file kept, nothing it could not look into): borrowed from
	 * the inputs, in argument order */
	const char **empty;
	size_t empty_count;
};

/*
 * Collects the files of inputs[0..n): "-" and anything that is not a
 * directory are kept as given (reading them, and reporting failure, is
 * the caller's job); a directory is walked, each entry passing filter
 * (NULL: the default extensions). "-" sorts as stdin_name. What cannot
 * be walked is listed with its error (see struct cli_walk_list): the
 * caller reports it in order. Returns 0, CLI_WALK_ENOMEM, or -1 when the
 * filter stopped the walk; the list is to be freed with
 * cli_walk_list_free() in every case.
 */
int cli_walk_collect(struct cli_walk_list *out, const char *const *inputs,
		     size_t n, const struct cli_walk_filter *filter,
		     const char *stdin_name);

void cli_walk_list_free(struct cli_walk_list *list);

/*
 * 1 for the folders a walk never enters unless the configuration's
 * `exclude:` or --exclude replace the list, like ruff's default excludes:
 * __pycache__, __pypackages__, _build, buck-out, build, dist,
 * node_modules, site-packages, venv (hidden ones such as .git, .venv,
 * .tox and .ipynb_checkpoints are skipped as hidden).
 */
int cli_walk_default_exclude(const char *name);

/*
 * The command's one path join: dir + "/" + name, no '/' added when dir
 * ends in one ("/" + name for the root), and just name in "." so that
 * `check .` prints "jobs/a.yaml" as ruff does (and GitHub annotations
 * name the file as the checkout does). Malloc'd; NULL on ENOMEM.
 */
char *cli_path_join(const char *dir, const char *name);

/* 1 when name ends in .yaml, .yml or .json: the default spec files. */
int cli_walk_default_suffix(const char *name);

#endif
