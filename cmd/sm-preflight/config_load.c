/*
 * config_load.c - reading and parsing one configuration file: the
 * library's smp_config_parse turns the YAML into settings; a file that
 * cannot be read or used is printed as FILE:LINE:COL: message.
 */
#include <stdlib.h>
#include <string.h>

#include "config_priv.h"
#include "output.h"
#include "readfile.h"

/* Reads and parses one file; errors printed as FILE:LINE:COL. */
int
cfg_load_file(struct cli_configs *c, const char *abs, struct cfg_file **out)
{
	struct cfg_file *f;
	struct smp_error err;
	const char *why = NULL;
	char *buf = NULL;
	size_t len = 0;
	int rc;

	*out = NULL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return cfg_oom();
	f->path = strdup(abs);
	f->dir = cfg_parent_of(abs);
	f->display = cfg_display_of(c->cwd, abs);
	f->next = c->files;
	c->files = f;
	if (!f->path || !f->dir || !f->display)
		return cfg_oom();
	rc = cli_read_regular(abs, CLI_READ_MAX, &buf, &len, &why);
	if (rc == CLI_READ_ENOMEM)
		return cfg_oom();
	if (rc) {
		cli_error("cannot read the configuration '%s': %s", f->display,
			  why);
		return CLI_EXIT_USAGE;
	}
	memset(&err, 0, sizeof(err));
	rc = smp_config_parse(&f->cfg, f->display, buf, len, NULL, &err);
	free(buf);
	if (rc == SMP_ENOMEM)
		return cfg_oom();
	if (rc) {
		if (err.line)
			cli_error("%s:%u:%u: %s", f->display,
				  (unsigned)err.line, (unsigned)err.column,
				  err.message);
		else
			cli_error("%s: %s", f->display,
				  err.message[0] ? err.message
						 : smp_strerror(rc));
		return rc == SMP_EINTERNAL ? CLI_EXIT_INTERNAL : CLI_EXIT_USAGE;
	}
	*out = f;
	return 0;
}
