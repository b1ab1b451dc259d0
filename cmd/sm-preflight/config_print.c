/*
 * config_print.c - `sm-preflight config [PATH]`: the profile of PATH as
 * YAML, every value with the file, line and column it comes from.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands.h"
#include "config_priv.h"
#include "output.h"

static const char *const default_names[4] = {
	"per_device_train_batch_size, train_batch_size, batch_size",
	"learning_rate, lr",
	"model_name_or_path, model_name, model_id, model_type, model",
	"none (a TensorFlow job's batch_size is global)"};

static void
print_origin(const struct origin *o, const char *fallback)
{
	if (o->file)
		printf("  # %s:%u:%u\n", o->file->display,
		       (unsigned)o->pos.line, (unsigned)o->pos.column);
	else
		printf("  # %s\n", fallback);
}

/* A YAML scalar, quoted when plain would not read back the same. */
static void
print_scalar(const char *s)
{
	const char *q;
	int plain = *s != '\0';

	for (q = s; *q && plain; q++)
		if (!((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
		      (*q >= '0' && *q <= '9') || strchr("_.-/", *q)))
			plain = 0;
	if (plain && !strchr("-.", s[0])) {
		fputs(s, stdout);
		return;
	}
	putchar('"');
	for (q = s; *q; q++) {
		if (*q == '"' || *q == '\\')
			putchar('\\');
		putchar(*q);
	}
	putchar('"');
}

static void
print_list(const struct smp_config_list *l)
{
	size_t i;

	putchar('[');
	for (i = 0; i < l->count; i++) {
		if (i)
			fputs(", ", stdout);
		print_scalar(l->items[i]);
	}
	putchar(']');
}

/*
 * select: / ignore-rules: as a list that reads back (an empty one is the
 * default), from the nearest file that has it or the default.
 */
static void
print_selection(const char *key, const struct smp_config_list *l,
		const struct origin *from, const char *dflt)
{
	printf("%s: ", key);
	if (l) {
		print_list(l);
		print_origin(from, "default");
	} else {
		printf("%s\n", dflt);
	}
}

/* Says where the search from dir stopped at another user's folder (the
 * search itself filled the memo on its way up). 0, or -1 on ENOMEM. */
static int
print_stop(struct cli_configs *c, const char *dir)
{
	char *d = strdup(dir), *up, *shown;
	struct memo *m;

	while (d && (m = cfg_memo_find(c, d)) != NULL) {
		if (m->stopped) {
			up = cfg_parent_of(d);
			shown = up ? cfg_display_of(c->cwd, up) : NULL;
			free(up);
			if (!shown)
				break;
			printf("# search stopped below '%s': owned by another "
			       "user (uid %lu), so its configuration files "
			       "and those above it are not read\n",
			       shown, m->stop_uid);
			free(shown);
			free(d);
			return 0;
		}
		if (strcmp(d, "/") == 0)
			break;
		up = cfg_parent_of(d);
		free(d);
		d = up;
	}
	if (!d)
		return -1;
	free(d);
	return 0;
}

/* A list of patterns, each with the file it comes from (relative to its
 * folder), or the command line (relative to the working folder). */
static void
print_patterns(const struct cli_configs *c, const char *key,
	       const struct ignore *list, size_t n)
{
	size_t i;

	printf("%s:%s\n", key, n ? "" : " []  # the file's empty list");
	for (i = 0; i < n; i++) {
		const struct cfg_file *f = NULL;
		const struct cfg_file *g;

		for (g = c->files; g && !f; g = g->next)
			if (g->dir == list[i].base)
				f = g;
		printf("  - ");
		print_scalar(list[i].pattern);
		if (f)
			printf("  # %s (relative to its folder)\n", f->display);
		else
			printf("  # command line\n");
	}
}

static int
print_profile(struct cli_configs *c, const struct cli_profile *p,
	      const char *target, const char *dir, struct chain *ch)
{
	const char *cli = "command line";
	size_t i;

	printf("# the configuration of '%s'\n", target);
	if (c->args->no_config)
		printf("# files: none (--no-config)\n");
	else if (!ch)
		printf("# files: none found up to the repository root\n");
	else
		printf("# files, nearest first:\n");
	for (; ch; ch = ch->parent)
		printf("#   %s%s\n", ch->file->display,
		       ch->file->cfg->root ? " (root: true)" : "");
	if (print_stop(c, dir))
		return cfg_oom();
	printf("fail-on: %s", cli_fail_on_name(p->fail_on));
	print_origin(&p->fail_on_from, p->fail_on_cli ? cli : "default");
	printf("all-jobs: %s", p->all_jobs ? "true" : "false");
	print_origin(&p->all_jobs_from, c->args->all_jobs ? cli : "default");
	printf("lr-scaling: %s", smp_lr_scaling_name(p->lr_scaling));
	print_origin(&p->lr_from, p->lr_cli ? cli : "default");
	if (!p->rule_count && !c->args->opts->override_count)
		printf("rules: {}  # default severities ('sm-preflight "
		       "rules')\n");
	else
		printf("rules:\n");
	for (i = 0; i < p->rule_count; i++) {
		const struct smp_options *o = c->args->opts;
		size_t j;
		int by_cli = 0;

		for (j = 0; j < o->override_count; j++)
			if (strcmp(o->overrides[j].rule, p->rules[i].rule) == 0)
				by_cli = 1;
		if (by_cli)
			continue; /* printed with the command line's */
		printf("  %s: %s", p->rules[i].rule,
		       smp_severity_name(p->rules[i].severity));
		print_origin(&p->rules[i].from, "default");
	}
	for (i = 0; i < c->args->opts->override_count; i++) {
		const struct smp_rule_override *ov =
			&c->args->opts->overrides[i];
		size_t j;
		int later = 0;

		for (j = i + 1; j < c->args->opts->override_count; j++)
			if (strcmp(c->args->opts->overrides[j].rule,
				   ov->rule) == 0)
				later = 1;
		if (later)
			continue; /* the last one given wins */
		printf("  %s: %s  # %s\n", ov->rule,
		       smp_severity_name(ov->severity), cli);
	}
	print_selection("select", p->select, &p->select_from,
			"[ALL]  # default: every rule");
	print_selection("ignore-rules", p->ignore_rules, &p->ignore_rules_from,
			"[]  # default: none");
	printf("hyperparameters:\n");
	for (i = 0; i < 4; i++) {
		printf("  %s: ", cfg_name_keys[i]);
		if (p->names[i] && p->names[i]->count) {
			print_list(p->names[i]);
			print_origin(&p->names_from[i], "default");
		} else {
			printf("[]  # default: %s%s\n", default_names[i],
			       p->names[i] ? " (the file's empty list)" : "");
		}
	}
	if (p->overlay) {
		char *d = cfg_display_of(c->cwd, p->overlay);

		if (!d)
			return cfg_oom();
		printf("instance-overlay: ");
		print_scalar(d);
		free(d);
		print_origin(&p->overlay_from, "default");
	} else {
		/* a comment: the key takes a path, and null is none */
		printf("# instance-overlay: none (default)\n");
	}
	if (p->data_url) {
		printf("data-url: ");
		print_scalar(p->data_url);
		print_origin(&p->data_url_from, "default");
	} else {
		printf("# data-url: not set (update-data then needs --url or "
		       "SM_PREFLIGHT_DATA_URL)\n");
	}
	if (!p->exclude_set)
		/* a comment, so that the default reads back as the default */
		printf("# exclude: default: __pycache__, __pypackages__, "
		       "_build, buck-out, build, dist, node_modules, "
		       "site-packages, venv (hidden entries are always "
		       "skipped)\n");
	else
		print_patterns(c, "exclude", p->excludes, p->exclude_count);
	if (!p->ignore_count)
		printf("extend-exclude: []  # default: none (ignore: is the "
		       "same)\n");
	else
		print_patterns(c, "extend-exclude", p->ignores,
			       p->ignore_count);
	printf("force-exclude: %s", p->force_exclude ? "true" : "false");
	print_origin(&p->force_exclude_from,
		     c->args->force_exclude_set ? cli : "default");
	printf("respect-gitignore: %s",
	       p->respect_gitignore ? "true" : "false");
	print_origin(&p->respect_gitignore_from,
		     c->args->respect_gitignore_set ? cli : "default");
	printf("extensions: ");
	if (p->extensions) {
		print_list(p->extensions);
		print_origin(&p->extensions_from, "default");
	} else {
		printf("[yaml, yml, json, py, ipynb]  # default\n");
	}
	return fflush(stdout) ? CLI_EXIT_USAGE : CLI_EXIT_OK;
}

enum { OPT_CONFIG, OPT_NO_CONFIG, OPT_HELP };

static const struct cli_option options[] = {
	{"--config", 0, OPT_CONFIG, "FILE",
	 "read only FILE instead of the .sm-preflight.yaml files"},
	{"--no-config", 0, OPT_NO_CONFIG, NULL,
	 "read no configuration file: the defaults"},
	{"--help", 'h', OPT_HELP, NULL, "show this help"},
};

static int
run_config(int argc, char **argv)
{
	struct smp_options opts = SMP_OPTIONS_INIT;
	struct cli_config_args args;
	struct cli_configs *c = NULL;
	struct cli_profile *p;
	struct chain *ch = NULL;
	struct cli_args it;
	const char *value, *target = NULL;
	struct stat st;
	char *abs = NULL, *dir = NULL;
	int id, status = CLI_EXIT_OK;

	memset(&args, 0, sizeof(args));
	args.opts = &opts;
	cli_args_init(&it, argc, argv);
	while ((id = cli_args_next(&it, options,
				   sizeof(options) / sizeof(options[0]),
				   &value)) != CLI_ARG_END) {
		switch (id) {
		case CLI_ARG_POSITIONAL:
			if (target)
				return cli_usage_error(
					"'config' takes one PATH");
			target = value;
			break;
		case OPT_CONFIG:
			args.config_file = value;
			break;
		case OPT_NO_CONFIG:
			args.no_config = 1;
			break;
		case OPT_HELP:
			return cli_help(&cli_cmd_config);
		default:
			return CLI_EXIT_USAGE;
		}
	}
	if (!target)
		target = ".";
	status = cli_configs_new(&c, &args);
	if (status)
		goto out;
	abs = cfg_abs_path(c->cwd, target);
	if (!abs) {
		status = cfg_oom();
		goto out;
	}
	/* a folder is configured by its own file; a spec by its folder's */
	dir = stat(target, &st) == 0 && S_ISDIR(st.st_mode)
		      ? strdup(abs)
		      : cfg_parent_of(abs);
	if (!dir) {
		status = cfg_oom();
		goto out;
	}
	status = cfg_chain_of_dir(c, dir, &ch);
	if (!status)
		status = cfg_profile_of(c, ch, &p);
	if (!status)
		status = print_profile(c, p, target, dir, ch);
out:
	free(abs);
	free(dir);
	cli_configs_free(c);
	return status;
}

const struct cli_command cli_cmd_config = {
	"config",
	"[OPTION]... [PATH]",
	"Print the configuration that applies to PATH (a spec or a folder; "
	"default '.'): every setting with the file, line and column it comes "
	"from, or 'default'. Files named " CLI_CONFIG_NAME
	" are read from the folder upward to the repository root (the first "
	"folder holding .git); a nearer file overrides a farther one key by "
	"key, and 'root: true' stops the search, as does a folder owned by "
	"another user (not the owner of the folder below it, root, or you).",
	"Exit status: 0 printed, 2 a configuration file that cannot be used.",
	options,
	sizeof(options) / sizeof(options[0]),
	run_config,
};
