/*
 * config_context.c - one context per distinct configuration: profiles
 * whose rule severities and selection, names, lr-scaling and instance
 * overlay are the same share the context made for the first of them; and
 * the context of the commands that read no configuration (suggest,
 * diagnose).
 */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "config_priv.h"
#include "output.h"
#include "readfile.h"

/* Reads the overlay file whole (small: a few instance rows). */
static int
read_overlay(const char *path, const char *display, char **buf, size_t *len)
{
	const char *why = NULL;
	int rc = cli_read_regular(path, CLI_READ_MAX, buf, len, &why);

	if (rc == CLI_READ_ENOMEM)
		return cfg_oom();
	if (rc) {
		cli_error("cannot read the instance overlay '%s': %s", display,
			  why);
		return CLI_EXIT_USAGE;
	}
	return 0;
}

/* See commands.h. */
int
cli_context_error(int rc, const struct smp_error *err, const char *dir)
{
	if (rc == SMP_ENOMEM || rc == SMP_EINTERNAL) {
		if (err->message[0] && rc != SMP_ENOMEM)
			cli_error("internal error: %s: %s", smp_strerror(rc),
				  err->message);
		else
			cli_error("internal error: %s", smp_strerror(rc));
		return CLI_EXIT_INTERNAL;
	}
	if (err->source[0] && err->line)
		cli_error("cannot load the instance data: %s:%u:%u: %s",
			  err->source, (unsigned)err->line,
			  (unsigned)err->column, err->message);
	else if (err->source[0])
		cli_error("cannot load the instance data: %s: %s", err->source,
			  err->message[0] ? err->message : smp_strerror(rc));
	else
		cli_error("cannot load the instance data%s%s%s: %s",
			  dir ? " from '" : "", dir ? dir : "", dir ? "'" : "",
			  err->message[0] ? err->message : smp_strerror(rc));
	return CLI_EXIT_USAGE;
}

/* See commands.h. */
int
cli_context_new(struct smp_context **out, struct smp_options *opts,
		char *cache_buf, size_t size)
{
	struct smp_error err;
	int rc;

	/* the same data as check: a valid refreshed copy wins over built-in */
	if (!opts->instance_data_dir)
		opts->cache_dir = cli_cache_dir(cache_buf, size);
	memset(&err, 0, sizeof(err));
	rc = smp_context_new(out, opts, &err);
	return rc ? cli_context_error(rc, &err, opts->instance_data_dir) : 0;
}

/* Creates the context of p: the command line's options, the files' rule
 * severities before the command line's, their names and overlay. */
static int
create_context(struct cli_configs *c, struct cli_profile *p,
	       struct smp_context **out)
{
	const struct smp_options *base = c->args->opts;
	struct smp_options o = *base;
	struct smp_rule_override *ov;
	const char **sel = NULL;
	struct smp_names *dst[4];
	char *buf = NULL, *display = NULL;
	struct smp_error err;
	size_t i, j, len = 0;
	int rc = 0, k;

	*out = NULL;
	ov = calloc(p->rule_count + base->override_count + 1, sizeof(*ov));
	if (!ov)
		return cfg_oom();
	for (i = 0; i < p->rule_count; i++) {
		ov[i].rule = p->rules[i].rule;
		ov[i].severity = p->rules[i].severity;
	}
	for (j = 0; j < base->override_count; j++)
		ov[i + j] = base->overrides[j];
	o.overrides = ov;
	o.override_count = p->rule_count + base->override_count;
	o.lr_scaling = p->lr_scaling;
	/* the files' selection, unless the command line replaced it, with
	 * --extend-select's names after it */
	if (p->select && c->args->extend_count) {
		size_t n = p->select->count, m = c->args->extend_count;

		sel = calloc(n + m, sizeof(*sel));
		if (!sel) {
			free(ov);
			return cfg_oom();
		}
		for (i = 0; i < n; i++)
			sel[i] = p->select->items[i];
		for (i = 0; i < m; i++)
			sel[n + i] = c->args->extend_select[i];
		o.select.names = sel;
		o.select.count = n + m;
	} else if (p->select) {
		o.select.names = p->select->items;
		o.select.count = p->select->count;
	}
	if (p->ignore_rules) {
		o.ignore.names = p->ignore_rules->items;
		o.ignore.count = p->ignore_rules->count;
	}
	dst[0] = &o.batch_size_names;
	dst[1] = &o.learning_rate_names;
	dst[2] = &o.model_names;
	dst[3] = &o.global_batch_names;
	for (k = 0; k < 4; k++) {
		if (!p->names[k])
			continue;
		/* an empty list in a file means "none", which the library
		 * reads as the default: say so in `sm-preflight config` */
		dst[k]->names = p->names[k]->items;
		dst[k]->count = p->names[k]->count;
	}
	if (p->overlay) {
		display = cfg_display_of(c->cwd, p->overlay);
		if (!display) {
			free(ov);
			return cfg_oom();
		}
		rc = read_overlay(p->overlay, display, &buf, &len);
		o.instance_overlay.name = display;
		o.instance_overlay.buf = buf;
		o.instance_overlay.len = len;
	}
	if (rc == 0) {
		memset(&err, 0, sizeof(err));
		k = smp_context_new(out, &o, &err);
		if (k)
			rc = cli_context_error(k, &err, o.instance_data_dir);
	}
	free(buf);
	free(display);
	free(ov);
	free(sel);
	return rc;
}

int
cli_profile_context(struct cli_configs *c, struct cli_profile *p,
		    const struct smp_context **out)
{
	struct ctx_entry *e;
	int rc;

	if (p->ctx) {
		*out = p->ctx;
		return 0;
	}
	for (e = c->contexts; e; e = e->next)
		if (strcmp(e->key, p->key) == 0)
			break;
	if (!e) {
		e = calloc(1, sizeof(*e));
		if (!e)
			return cfg_oom();
		e->key = strdup(p->key);
		if (!e->key) {
			free(e);
			return cfg_oom();
		}
		rc = create_context(c, p, &e->ctx);
		if (rc) {
			free(e->key);
			free(e);
			return rc;
		}
		e->next = c->contexts;
		c->contexts = e;
		c->context_count++;
	}
	p->ctx = e->ctx;
	*out = p->ctx;
	return 0;
}
