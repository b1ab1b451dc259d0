/*
 * lsp_config.c - the workspace's configuration, found and merged by the
 * CLI's own code (config_*.c: .sm-preflight.yaml, else pyproject.toml's
 * [tool.sm-preflight], from the spec's folder up to the repository root),
 * so that the editor judges a file as `sm-preflight check FILE` run from
 * the workspace root does. Read again after a configuration file changes
 * (lsp_config_reset). A configuration that cannot be used is logged and
 * the built-in defaults judge the file meanwhile.
 */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "config.h"
#include "lsp.h"

struct lsp_configs {
	struct smp_options opts;
	struct cli_config_args args;
	struct cli_configs *configs; /* NULL until first use */
	struct smp_context *fallback;
	char cache[4096];
	int failed; /* the last cli_configs_new() failed */
};

static struct lsp_configs *
configs(struct lsp_server *s)
{
	struct lsp_configs *c = s->configs;

	if (c)
		return c;
	c = calloc(1, sizeof(*c));
	if (!c)
		return NULL;
	smp_options_init(&c->opts, SMP_OPTIONS_VERSION);
	/* a refreshed copy in the user's cache wins, as for check */
	c->opts.cache_dir = cli_cache_dir(c->cache, sizeof(c->cache));
	c->args.opts = &c->opts;
	c->args.fail_on = SMP_SEVERITY_ERROR;
	s->configs = c;
	return c;
}

static const struct smp_context *
fallback(struct lsp_server *s, struct lsp_configs *c)
{
	char cache[4096];

	if (!c->fallback) {
		struct smp_options o = c->opts;

		if (cli_context_new(&c->fallback, &o, cache, sizeof(cache)))
			lsp_log(s, 1, "cannot load the instance data");
	}
	return c->fallback;
}

const struct smp_context *
lsp_config_context(struct lsp_server *s, const char *path, unsigned *flags)
{
	struct lsp_configs *c = configs(s);
	struct cli_profile *p = NULL;
	const struct smp_context *ctx = NULL;

	/* as a walk judges a file: an editor opens YAML and Python that is
	 * no training job, which is left alone */
	if (flags)
		*flags = SMP_CHECK_WALKED;
	if (!c)
		return NULL;
	if (!c->configs && cli_configs_new(&c->configs, &c->args)) {
		c->configs = NULL;
		lsp_log(s, 1,
			"the configuration cannot be used (see the "
			"message above); the defaults apply");
		return fallback(s, c);
	}
	if (cli_configs_profile(c->configs, path, NULL, &p) ||
	    cli_profile_context(c->configs, p, &ctx)) {
		lsp_log(s, 2,
			"%s: its configuration cannot be used (see the "
			"message above); the defaults apply",
			path);
		return fallback(s, c);
	}
	if (flags && cli_profile_all_jobs(p))
		*flags |= SMP_CHECK_ALL_JOBS; /* all-jobs: true */
	return ctx;
}

void
lsp_config_reset(struct lsp_server *s)
{
	struct lsp_configs *c = s->configs;

	if (!c)
		return;
	/* contexts belong to the configs: no report may point at them */
	for (struct lsp_doc *d = s->docs; d; d = d->next) {
		smp_report_free(d->report);
		d->report = NULL;
		d->ctx = NULL;
	}
	cli_configs_free(c->configs);
	c->configs = NULL;
}

void
lsp_config_free(struct lsp_server *s)
{
	struct lsp_configs *c = s->configs;

	if (!c)
		return;
	cli_configs_free(c->configs);
	smp_context_free(c->fallback);
	free(c);
	s->configs = NULL;
}

/* The configuration file being edited, read by the library's parser
 * (smp_config_parse, as the CLI reads it): what it refuses is one
 * diagnostic at its line and column, which a bad key's did-you-mean is
 * part of. */
int
lsp_config_check(struct lsp_server *s, const char *uri, const char *path,
		 const char *text, size_t len)
{
	const char *base = strrchr(path, '/');
	struct smp_config *cfg = NULL;
	struct smp_error err;
	struct lsp_buf b = {0};

	if (strcmp(base ? base + 1 : path, CLI_CONFIG_NAME) != 0)
		return 0;
	memset(&err, 0, sizeof(err));
	lsp_notify_open(&b, "textDocument/publishDiagnostics");
	lsp_buf_str(&b, "{\"uri\":");
	lsp_buf_json(&b, uri);
	lsp_buf_str(&b, ",\"diagnostics\":[");
	if (smp_config_parse(&cfg, path, text, len, NULL, &err) != 0) {
		struct lsp_position a = lsp_position_chars(
			s, text, len, err.line, err.column ? err.column : 1);
		struct lsp_position z = lsp_position_chars(
			s, text, len, err.line, err.column + 1);

		lsp_buf_str(&b, "{\"range\":");
		lsp_buf_range(&b, a, z);
		lsp_buf_str(&b, ",\"severity\":1,\"source\":\"sm-preflight\","
				"\"message\":");
		lsp_buf_json(&b, err.message[0] ? err.message
						: smp_strerror(SMP_EPARSE));
		lsp_buf_str(&b, "}");
	}
	lsp_buf_str(&b, "]}}");
	lsp_send(s, &b);
	lsp_buf_free(&b);
	smp_config_free(cfg);
	return 1;
}

int
lsp_config_is_file(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return strcmp(base, CLI_CONFIG_NAME) == 0 ||
	       strcmp(base, CLI_PYPROJECT_NAME) == 0;
}
