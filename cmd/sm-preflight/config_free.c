/*
 * config_free.c - the end of a run's configuration: its files, chains,
 * profiles and contexts. Apart from discovery so that discovery does not
 * call into the profiles that are built on it.
 */
#include <stdlib.h>

#include "config_priv.h"

void
cli_configs_free(struct cli_configs *c)
{
	size_t i;

	if (!c)
		return;
	while (c->files) {
		struct cfg_file *f = c->files;

		c->files = f->next;
		smp_config_free(f->cfg);
		free(f->path);
		free(f->dir);
		free(f->display);
		free(f);
	}
	while (c->chains) {
		struct chain *ch = c->chains;

		c->chains = ch->next;
		free(ch);
	}
	while (c->profiles) {
		struct cli_profile *p = c->profiles;

		c->profiles = p->next;
		cfg_profile_free(p);
	}
	while (c->contexts) {
		struct ctx_entry *e = c->contexts;

		c->contexts = e->next;
		smp_context_free(e->ctx);
		free(e->key);
		free(e);
	}
	for (i = 0; i < c->memo_cap; i++)
		free(c->memo[i].dir);
	free(c->memo);
	free(c->cwd);
	free(c);
}
