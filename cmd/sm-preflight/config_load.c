/*
 * config_load.c - reading and parsing one configuration file: the
 * library's smp_config_parse turns the YAML into settings (a
 * pyproject.toml's [tool.sm-preflight] table first into that YAML,
 * config_pyproject.c); a file that cannot be read or used is printed as
 * FILE:LINE:COL: message.
 */
#include <stdlib.h>
#include <string.h>

#include "config_priv.h"
#include "output.h"
#include "readfile.h"

/* 1 when abs names a pyproject.toml. */
static int
is_pyproject(const char *abs)
{
	const char *base = strrchr(abs, '/');

	return strcmp(base ? base + 1 : abs, CLI_PYPROJECT_NAME) == 0;
}

/* A pyproject.toml's table as YAML in *buf (replaced): 0, 1 when it has
 * none, or an exit status (printed). */
static int
from_pyproject(const struct cfg_file *f, char **buf, size_t *len,
	       struct cfg_toml_yaml *y)
{
	struct cfg_toml_error e;
	int rc = cfg_pyproject_yaml(*buf, *len, y, &e);

	free(*buf);
	*buf = NULL;
	if (rc == CFG_TOML_ENOMEM)
		return cfg_oom();
	if (rc == CFG_TOML_NONE)
		return 1;
	if (rc == CFG_TOML_ERROR) {
		cli_error("%s:%u:%u: %s", f->display, e.line, e.column,
			  e.message);
		return CLI_EXIT_USAGE;
	}
	*buf = y->yaml;
	*len = y->len;
	return 0;
}

/* Reads and parses one file; errors printed as FILE:LINE:COL. */
int
cfg_load_file(struct cli_configs *c, const char *abs, struct cfg_file **out)
{
	struct cfg_file *f;
	struct smp_error err;
	struct cfg_toml_yaml y;
	const char *why = NULL;
	char *buf = NULL;
	size_t len = 0;
	int rc, toml;

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
	memset(&y, 0, sizeof(y));
	toml = is_pyproject(abs);
	if (toml) {
		rc = from_pyproject(f, &buf, &len, &y);
		if (rc == 1 && c->args->config_file) {
			cli_error("'%s' has no [tool.sm-preflight] table",
				  f->display);
			return CLI_EXIT_USAGE;
		}
		if (rc)
			return rc == 1 ? 0 : rc; /* 0 with *out NULL: none */
	}
	memset(&err, 0, sizeof(err));
	rc = smp_config_parse(&f->cfg, f->display, buf, len, NULL, &err);
	if (toml) {
		err.column = cfg_pyproject_column(&y, err.line, err.column);
		cfg_pyproject_release(&y);
	} else {
		free(buf);
	}
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
