/*
 * config_profile.c - merging: a profile is a chain's files applied
 * farthest first, so that a nearer file overrides a farther one key by
 * key, with the command line over them all.
 */
#include <stdlib.h>
#include <string.h>

#include "config_priv.h"

const char *const cfg_name_keys[4] = {"batch-size", "learning-rate", "model",
				      "global-batch"};

/* Appends patterns[0..count) relative to base to *list. */
static int
add_patterns(struct ignore **list, size_t *count, const char *const *patterns,
	     size_t n, const char *base)
{
	struct ignore *grown;
	size_t i;

	if (!n)
		return 0;
	grown = realloc(*list, (*count + n) * sizeof(*grown));
	if (!grown)
		return -1;
	*list = grown;
	for (i = 0; i < n; i++) {
		grown[*count].pattern = patterns[i];
		grown[(*count)++].base = base;
	}
	return 0;
}

/* ignore: and extend-exclude: add up over the files (ruff's
 * extend-exclude); a nearer exclude: replaces a farther one's, unless
 * --exclude replaced them all. */
static int
add_ignores(struct cli_profile *p, const struct cfg_file *f,
	    const struct cli_config_args *a)
{
	const struct smp_config *cfg = f->cfg;

	if (cfg->exclude.set && !a->exclude_count) {
		p->exclude_count = 0;
		p->exclude_set = 1;
		p->exclude_from.file = f;
		p->exclude_from.pos = cfg->exclude.pos;
		if (add_patterns(&p->excludes, &p->exclude_count,
				 cfg->exclude.items, cfg->exclude.count,
				 f->dir))
			return -1;
	}
	if (add_patterns(&p->ignores, &p->ignore_count, cfg->ignore.items,
			 cfg->ignore.count, f->dir))
		return -1;
	return add_patterns(&p->ignores, &p->ignore_count,
			    cfg->extend_exclude.items,
			    cfg->extend_exclude.count, f->dir);
}

static int
add_rule(struct cli_profile *p, const struct cfg_file *f,
	 const struct smp_config_rule *r)
{
	struct rule_setting *n;
	size_t i;

	/* a nearer file's setting replaces a farther one's */
	for (i = 0; i < p->rule_count; i++) {
		if (strcmp(p->rules[i].rule, r->rule) == 0) {
			p->rules[i].severity = r->severity;
			p->rules[i].from.file = f;
			p->rules[i].from.pos = r->pos;
			return 0;
		}
	}
	n = realloc(p->rules, (p->rule_count + 1) * sizeof(*n));
	if (!n)
		return -1;
	p->rules = n;
	n[p->rule_count].rule = r->rule;
	n[p->rule_count].severity = r->severity;
	n[p->rule_count].from.file = f;
	n[p->rule_count++].from.pos = r->pos;
	return 0;
}

/* A file's select: or ignore-rules: over a farther one's, unless the
 * command line gave the option. */
static void
apply_selection(const struct smp_config_list **dst, struct origin *from,
		const struct smp_config_list *l, const struct cfg_file *f,
		int cli)
{
	if (!l->set || cli)
		return;
	*dst = l;
	from->file = f;
	from->pos = l->pos;
}

/* Applies one file over what the farther files set. */
static int
apply_file(struct cli_profile *p, const struct cfg_file *f,
	   const struct cli_config_args *a)
{
	const struct smp_config *cfg = f->cfg;
	const struct smp_config_list *lists[4];
	size_t i;

	lists[0] = &cfg->batch_size_names;
	lists[1] = &cfg->learning_rate_names;
	lists[2] = &cfg->model_names;
	lists[3] = &cfg->global_batch_names;
	if (cfg->fail_on.value && !p->fail_on_cli) {
		cli_fail_on_parse(&p->fail_on, cfg->fail_on.value);
		p->fail_on_from.file = f;
		p->fail_on_from.pos = cfg->fail_on.pos;
	}
	if (cfg->lr_scaling.value && !p->lr_cli) {
		smp_lr_scaling_parse(&p->lr_scaling, cfg->lr_scaling.value);
		p->lr_from.file = f;
		p->lr_from.pos = cfg->lr_scaling.pos;
	}
	for (i = 0; i < 4; i++) {
		if (!lists[i]->set)
			continue;
		p->names[i] = lists[i];
		p->names_from[i].file = f;
		p->names_from[i].pos = lists[i]->pos;
	}
	if (cfg->instance_overlay.value) {
		const char *v = cfg->instance_overlay.value;

		free(p->overlay);
		p->overlay = v[0] == '/' ? strdup(v) : cli_path_join(f->dir, v);
		if (!p->overlay)
			return -1;
		p->overlay_from.file = f;
		p->overlay_from.pos = cfg->instance_overlay.pos;
	}
	if (cfg->data_url.value) {
		p->data_url = cfg->data_url.value;
		p->data_url_from.file = f;
		p->data_url_from.pos = cfg->data_url.pos;
	}
	if (cfg->all_jobs >= 0 && !a->all_jobs) {
		p->all_jobs = cfg->all_jobs;
		p->all_jobs_from.file = f;
		p->all_jobs_from.pos = cfg->all_jobs_pos;
	}
	if (cfg->force_exclude >= 0 && !a->force_exclude_set) {
		p->force_exclude = cfg->force_exclude;
		p->force_exclude_from.file = f;
		p->force_exclude_from.pos = cfg->force_exclude_pos;
	}
	if (cfg->respect_gitignore >= 0 && !a->respect_gitignore_set) {
		p->respect_gitignore = cfg->respect_gitignore;
		p->respect_gitignore_from.file = f;
		p->respect_gitignore_from.pos = cfg->respect_gitignore_pos;
	}
	if (cfg->extensions.set) {
		p->extensions = &cfg->extensions;
		p->extensions_from.file = f;
		p->extensions_from.pos = cfg->extensions.pos;
	}
	apply_selection(&p->select, &p->select_from, &cfg->select, f,
			a->select_set);
	apply_selection(&p->ignore_rules, &p->ignore_rules_from,
			&cfg->ignore_rules, f, a->ignore_set);
	for (i = 0; i < cfg->rule_count; i++)
		if (add_rule(p, f, &cfg->rules[i]))
			return -1;
	return add_ignores(p, f, a);
}

/* Appends s to the key, with a separator no setting holds. */
static int
key_add(char **key, size_t *len, const char *s)
{
	size_t n = strlen(s);
	char *k = realloc(*key, *len + n + 2);

	if (!k)
		return -1;
	memcpy(k + *len, s, n);
	k[*len + n] = '\x1f';
	k[*len + n + 1] = '\0';
	*key = k;
	*len += n + 1;
	return 0;
}

/* What the profile's context depends on, as one string. */
static int
make_key(struct cli_profile *p)
{
	size_t len = 0, i, j;
	int bad = 0;

	p->key = strdup("");
	if (!p->key)
		return -1;
	for (i = 0; i < p->rule_count; i++) {
		bad |= key_add(&p->key, &len, p->rules[i].rule);
		bad |= key_add(&p->key, &len,
			       smp_severity_name(p->rules[i].severity));
	}
	bad |= key_add(&p->key, &len, "|lr");
	bad |= key_add(&p->key, &len, smp_lr_scaling_name(p->lr_scaling));
	for (i = 0; i < 4; i++) {
		bad |= key_add(&p->key, &len, cfg_name_keys[i]);
		for (j = 0; p->names[i] && j < p->names[i]->count; j++)
			bad |= key_add(&p->key, &len, p->names[i]->items[j]);
	}
	bad |= key_add(&p->key, &len, "|select");
	for (j = 0; p->select && j < p->select->count; j++)
		bad |= key_add(&p->key, &len, p->select->items[j]);
	bad |= key_add(&p->key, &len, "|ignore-rules");
	for (j = 0; p->ignore_rules && j < p->ignore_rules->count; j++)
		bad |= key_add(&p->key, &len, p->ignore_rules->items[j]);
	bad |= key_add(&p->key, &len, "|overlay");
	bad |= key_add(&p->key, &len, p->overlay ? p->overlay : "");
	return bad ? -1 : 0;
}

void
cfg_profile_free(struct cli_profile *p)
{
	if (!p)
		return;
	free(p->rules);
	free(p->overlay);
	free(p->ignores);
	free(p->excludes);
	free(p->key);
	free(p);
}

/* The merged profile of a chain (NULL: the command line alone). */
int
cfg_profile_of(struct cli_configs *c, struct chain *ch,
	       struct cli_profile **out)
{
	const struct cli_config_args *a = c->args;
	struct chain *files[256];
	struct cli_profile *p;
	size_t n = 0, i;

	if (ch ? ch->profile != NULL : c->base != NULL) {
		*out = ch ? ch->profile : c->base;
		return 0;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return cfg_oom();
	p->fail_on = a->fail_on_set ? a->fail_on : SMP_SEVERITY_ERROR;
	p->fail_on_cli = a->fail_on_set;
	p->lr_scaling = a->opts->lr_scaling;
	p->lr_cli = a->lr_scaling_set;
	p->all_jobs = a->all_jobs;
	p->force_exclude = a->force_exclude_set && a->force_exclude;
	p->respect_gitignore =
		!a->respect_gitignore_set || a->respect_gitignore;
	if (a->exclude_count) {
		p->exclude_set = 1;
		if (add_patterns(&p->excludes, &p->exclude_count, a->exclude,
				 a->exclude_count, c->cwd)) {
			cfg_profile_free(p);
			return cfg_oom();
		}
	}
	for (; ch && n < sizeof(files) / sizeof(files[0]); ch = ch->parent)
		files[n++] = ch;
	/* farthest first, so that nearer files override */
	for (i = n; i-- > 0;) {
		if (apply_file(p, files[i]->file, a)) {
			cfg_profile_free(p);
			return cfg_oom();
		}
	}
	if (make_key(p)) {
		cfg_profile_free(p);
		return cfg_oom();
	}
	p->next = c->profiles;
	c->profiles = p;
	if (n)
		files[0]->profile = p;
	else
		c->base = p;
	*out = p;
	return 0;
}

/* ---------------------------------------------------------- API */

int
cli_configs_profile(struct cli_configs *c, const char *path,
		    const char *stdin_name, struct cli_profile **out)
{
	struct chain *ch = NULL;
	char *abs, *dir;
	int rc;

	*out = NULL;
	if (strcmp(path, "-") == 0)
		path = stdin_name ? stdin_name : "./-";
	abs = cfg_abs_path(c->cwd, path);
	dir = abs ? cfg_parent_of(abs) : NULL;
	free(abs);
	if (!dir)
		return cfg_oom();
	rc = cfg_chain_of_dir(c, dir, &ch);
	free(dir);
	if (rc)
		return rc;
	return cfg_profile_of(c, ch, out);
}

const char *
cli_profile_data_url(const struct cli_profile *p)
{
	return p->data_url;
}

/* See config.h. */
const char *
cli_fail_on_name(enum smp_severity fail_on)
{
	return fail_on > SMP_SEVERITY_ERROR ? "none"
					    : smp_severity_name(fail_on);
}

/* See config.h. */
int
cli_fail_on_parse(enum smp_severity *out, const char *name)
{
	enum smp_severity sev;

	if (strcmp(name, "none") == 0) {
		*out = CLI_FAIL_ON_NONE;
		return 0;
	}
	if (smp_severity_parse(&sev, name) != 0 || sev == SMP_SEVERITY_OFF)
		return -1;
	*out = sev;
	return 0;
}

/* See config.h. */
enum smp_severity
cli_fail_level(enum smp_severity fail_on)
{
	return fail_on > SMP_SEVERITY_ERROR ? SMP_SEVERITY_ERROR : fail_on;
}

int
cli_profile_all_jobs(const struct cli_profile *p)
{
	return p->all_jobs;
}

enum smp_severity
cli_profile_fail_on(const struct cli_profile *p)
{
	return p->fail_on;
}
