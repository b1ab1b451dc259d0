/*
 * cmd_data.c - `sm-preflight update-data` (refresh the instance data over
 * HTTPS into the user's cache) and `sm-preflight data` (which data is in
 * use, its version, date, source and age), plus what `check` needs from
 * them: the cache folder and the data-stale age limit. The library reads
 * no environment: the URL, the cache folder and the proxy are resolved
 * here and passed in.
 *
 * update-data exit status: 0 updated or already up to date; 1 the refresh
 * failed (download, verification or write; the data in use is kept);
 * 2 usage error (no URL, bad option, --offline); 3 internal error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "config.h"
#include "output.h"
#include "readfile.h"
#include "smpreflight.h"

#define MAX_STALE_DAYS 36500L

/* ---------------------------------------------------- shared helpers */

/* A whole number in [min, max]; -1 otherwise. */
static long
parse_count(const char *s, long min, long max)
{
	char *end;
	long v;

	if (!s || !*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	return v;
}

/*
 * The age limit of data-stale: option value (may be NULL), else
 * SM_PREFLIGHT_STALE_DAYS, else -1: the limit the data's source declares
 * (cli_stale_limit). 0 turns the check off. Returns 0, or CLI_EXIT_USAGE
 * after printing why.
 */
int
cli_stale_days(const char *value, long *out)
{
	const char *env = getenv("SM_PREFLIGHT_STALE_DAYS");
	const char *what = "--stale-days";

	*out = -1;
	if (!value && env && *env) {
		value = env;
		what = "SM_PREFLIGHT_STALE_DAYS";
	}
	if (!value)
		return 0;
	*out = parse_count(value, 0, MAX_STALE_DAYS);
	if (*out < 0)
		return cli_usage_error("invalid value '%s' for '%s'; expected "
				       "a number of days (0 turns the check "
				       "off)",
				       value, what);
	return 0;
}

/* See commands.h. */
long
cli_stale_limit(const struct smp_context *ctx, long days)
{
	return days >= 0 ? days : smp_context_data_max_age(ctx);
}

/*
 * The data-url of the configuration that governs the working folder,
 * copied into buf ("" when none). Returns an exit status; a configuration
 * that cannot be read is printed.
 */
static int
config_data_url(char *buf, size_t size)
{
	struct smp_options opts = SMP_OPTIONS_INIT;
	struct cli_config_args args;
	struct cli_configs *configs = NULL;
	struct cli_profile *p = NULL;
	const char *url;
	int status;

	buf[0] = '\0';
	memset(&args, 0, sizeof(args));
	args.opts = &opts;
	status = cli_configs_new(&configs, &args);
	if (!status)
		status = cli_configs_profile(configs, "-", NULL, &p);
	url = !status ? cli_profile_data_url(p) : NULL;
	if (url && strlen(url) >= size)
		status = cli_usage_error("'data-url' is too long");
	else if (url)
		memcpy(buf, url, strlen(url) + 1);
	cli_configs_free(configs);
	return status;
}

/* "2026-11-30 07:55:00 UTC" */
static const char *
utc(char *buf, size_t size, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (t <= 0 || !gmtime_r(&tt, &tm) ||
	    strftime(buf, size, "%Y-%m-%d %H:%M:%S UTC", &tm) == 0)
		snprintf(buf, size, "unknown");
	return buf;
}

static const char *
days(long n)
{
	return n == 1 ? "day" : "days";
}

static const char *
origin_name(enum smp_data_origin o)
{
	switch (o) {
	case SMP_DATA_CACHE:
		return "refreshed copy (update-data)";
	case SMP_DATA_DIRECTORY:
		return "--instance-data folder";
	default:
		return "built-in (embedded at build time)";
	}
}

/* ------------------------------------------------------- update-data */

enum {
	U_URL,
	U_TIMEOUT,
	U_CACERT,
	U_ALLOW_HTTP,
	U_RETRIES,
	U_PROXY,
	U_OFFLINE,
	U_PUBLIC_KEY,
	U_INSECURE_UNSIGNED,
	U_QUIET,
	U_HELP
};

static const struct cli_option update_options[] = {
	{"--url", 0, U_URL, "URL",
	 "base URL of a copy of the instance-data/ folder (default: "
	 "SM_PREFLIGHT_DATA_URL, else the URL of the last refresh)"},
	{"--timeout", 0, U_TIMEOUT, "S",
	 "give up on a request after S seconds (default 60)"},
	{"--cacert", 0, U_CACERT, "FILE",
	 "trust the CA certificates in FILE (PEM) instead of the system's"},
	{"--allow-http", 0, U_ALLOW_HTTP, NULL,
	 "allow plain http:// to a host other than loopback (insecure)"},
	{"--retries", 0, U_RETRIES, "N",
	 "retry a failed request N times on 5xx answers and timeouts "
	 "(default 2)"},
	{"--proxy", 0, U_PROXY, "URL",
	 "use this proxy (default: https_proxy/HTTPS_PROXY, or http_proxy "
	 "for an http:// URL)"},
	{"--offline", 0, U_OFFLINE, NULL,
	 "refuse: update-data needs the network (for scripts that pass "
	 "--offline everywhere)"},
	{"--public-key", 0, U_PUBLIC_KEY, "FILE",
	 "the data publisher's Ed25519 public key (PEM, or 32 bytes in "
	 "base64) that index.json.sig must be signed with (default: "
	 "SM_PREFLIGHT_DATA_PUBLIC_KEY)"},
	{"--insecure-unsigned", 0, U_INSECURE_UNSIGNED, NULL,
	 "take data whose index is not signed (only from a source you trust "
	 "by other means)"},
	{"--quiet", 'q', U_QUIET, NULL, "print nothing on success"},
	{"--help", 'h', U_HELP, NULL, "show this help"},
};

/* What a failed refresh leaves in use, for the error message. */
static void
print_kept(const char *cache_dir)
{
	struct smp_options opts = SMP_OPTIONS_INIT;
	struct smp_context *ctx = NULL;
	struct smp_error err;

	opts.cache_dir = cache_dir;
	memset(&err, 0, sizeof(err));
	if (smp_context_new(&ctx, &opts, &err) != 0)
		return;
	fprintf(stderr,
		"sm-preflight: the instance data in use is unchanged: %s "
		"(%s)\n",
		smp_context_data_version(ctx),
		smp_context_data_origin(ctx) == SMP_DATA_CACHE
			? smp_context_data_source(ctx)
			: "built-in");
	smp_context_free(ctx);
}

/* cli_printable() into a local array */
#define P(buf, s) cli_printable(buf, sizeof(buf), s)

static int
update_failed(int rc, const struct smp_error *err, const char *cache_dir)
{
	char src[512], msg[600];

	/* a server's or a data file's words: made printable */
	P(src, err->source);
	P(msg, err->message);
	if (rc == SMP_ENOMEM || rc == SMP_EINTERNAL) {
		cli_error("internal error: %s",
			  msg[0] ? msg : smp_strerror(rc));
		return CLI_EXIT_INTERNAL;
	}
	if (rc == SMP_EINVAL) {
		cli_error("update-data: %s%s%s", src, src[0] ? ": " : "", msg);
		return CLI_EXIT_USAGE;
	}
	if (err->line)
		cli_error("update-data failed: %s:%u:%u: %s", src,
			  (unsigned)err->line, (unsigned)err->column, msg);
	else
		cli_error("update-data failed: %s: %s", src,
			  msg[0] ? msg : smp_strerror(rc));
	print_kept(cache_dir);
	return CLI_EXIT_FINDINGS;
}

static void
print_result(const struct smp_update_result *r, const char *cache_dir)
{
	static const char *const kinds[] = {"",
					    "added:  ", "removed:", "changed:"};
	char url[512], ov[64], nv[64], nd[64], ty[128], de[512];
	size_t i;

	/* everything below comes from downloaded data or a server */
	P(url, r->url);
	P(ov, r->old_version);
	P(nv, r->new_version);
	P(nd, r->new_date);
	if (r->outcome == SMP_UPDATE_UNCHANGED) {
		printf("instance data is up to date: %s (generated %s) from "
		       "%s%s\n",
		       nv, nd, url, r->not_modified ? " (not modified)" : "");
	} else {
		printf("updated the instance data from %s: %s (%s) -> %s "
		       "(generated %s)\n",
		       url, ov,
		       r->old_origin == SMP_DATA_CACHE ? "previous download"
						       : "built-in",
		       nv, nd);
		for (i = 0; i < r->change_count; i++) {
			const struct smp_data_change *c = &r->changes[i];

			printf("  %s %s%s%s\n", kinds[c->kind],
			       P(ty, c->instance_type), c->detail ? ": " : "",
			       c->detail ? P(de, c->detail) : "");
		}
		if (r->change_count == 0)
			printf("  instance types: no change\n");
		printf("  tested-model rows: %zu -> %zu; framework images: "
		       "%zu -> %zu\n",
		       r->old_tested_count, r->new_tested_count,
		       r->old_image_count, r->new_image_count);
	}
	if (r->signature_verified)
		printf("  index.json is signed by the public key given\n");
	if (r->verified)
		printf("  sha256 of every file matches index.json\n");
	if (r->older_than_builtin)
		printf("  note: the built-in data is newer than %s and stays "
		       "in use\n",
		       nv);
	if (r->outcome == SMP_UPDATE_UPDATED)
		printf("  stored in %s/current\n", cache_dir);
}

/* Proxy from the conventional variables, as curl's own tool reads them. */
static const char *
env_proxy(const char *url)
{
	const char *p;

	if (strncmp(url, "https://", 8) == 0) {
		p = getenv("https_proxy");
		if (!p || !*p)
			p = getenv("HTTPS_PROXY");
	} else {
		p = getenv("http_proxy");
	}
	return p && *p ? p : NULL;
}

static int
run_update_data(int argc, char **argv)
{
	struct smp_options opts = SMP_OPTIONS_INIT;
	struct smp_update_options up = SMP_UPDATE_OPTIONS_INIT;
	struct smp_update_result *res = NULL;
	static struct smp_cache_info info;
	struct smp_error err;
	struct cli_args it;
	char dir[1024], conf_url[2048];
	const char *value, *url = NULL, *key_file = NULL;
	char *key = NULL;
	long n;
	int id, rc, quiet = 0, offline = 0;

	cli_args_init(&it, argc, argv);
	while ((id = cli_args_next(&it, update_options,
				   sizeof(update_options) /
					   sizeof(update_options[0]),
				   &value)) != CLI_ARG_END) {
		switch (id) {
		case U_URL:
			url = value;
			break;
		case U_TIMEOUT:
			n = parse_count(value, 1, 3600);
			if (n < 0)
				return cli_usage_error(
					"invalid value '%s' for '--timeout'; "
					"expected seconds from 1 to 3600",
					value);
			up.timeout_ms = n * 1000;
			break;
		case U_CACERT:
			if (access(value, R_OK) != 0) {
				cli_error("cannot read the --cacert file '%s': "
					  "%s",
					  value, strerror(errno));
				return CLI_EXIT_USAGE;
			}
			up.ca_file = value;
			break;
		case U_ALLOW_HTTP:
			up.allow_http = 1;
			break;
		case U_RETRIES:
			n = parse_count(value, 0, 10);
			if (n < 0)
				return cli_usage_error(
					"invalid value '%s' for '--retries'; "
					"expected 0 to 10",
					value);
			up.max_attempts = (int)n + 1;
			break;
		case U_PROXY:
			up.proxy = value;
			break;
		case U_OFFLINE:
			offline = 1;
			break;
		case U_PUBLIC_KEY:
			key_file = value;
			break;
		case U_INSECURE_UNSIGNED:
			up.insecure_unsigned = 1;
			break;
		case U_QUIET:
			quiet = 1;
			break;
		case U_HELP:
			return cli_help(&cli_cmd_update_data);
		case CLI_ARG_POSITIONAL:
			return cli_usage_error("'update-data' takes no "
					       "argument ('%s'); use --url",
					       value);
		default:
			return CLI_EXIT_USAGE;
		}
	}
	if (offline)
		return cli_usage_error("'update-data' needs the network, which "
				       "--offline forbids");
	opts.cache_dir = cli_cache_dir(dir, sizeof(dir));
	if (!opts.cache_dir)
		return cli_usage_error("no cache folder: set XDG_CACHE_HOME "
				       "or HOME");
	/* --url, SM_PREFLIGHT_DATA_URL, the configuration's data-url, then
	 * the source of the last refresh */
	if (!url) {
		url = getenv("SM_PREFLIGHT_DATA_URL");
		if (url && !*url)
			url = NULL;
	}
	if (!url) {
		int status = config_data_url(conf_url, sizeof(conf_url));

		if (status)
			return status;
		if (conf_url[0])
			url = conf_url;
	}
	if (!url) {
		memset(&err, 0, sizeof(err));
		if (smp_data_cache_info(&info, &opts, &err) == 0 && info.url[0])
			url = info.url;
		if (url && !quiet)
			fprintf(stderr,
				"sm-preflight: no 'data-url' "
				"in " CLI_CONFIG_NAME
				" and no SM_PREFLIGHT_DATA_URL: refreshing "
				"from the last source, %s\n",
				url);
	}
	if (!url)
		return cli_usage_error(
			"no data URL: give --url URL, set 'data-url' "
			"in " CLI_CONFIG_NAME
			" or SM_PREFLIGHT_DATA_URL to a copy "
			"of the repository's instance-data/ folder served "
			"over HTTPS (there is no default source)");
	if (!up.proxy)
		up.proxy = env_proxy(url);
	up.url = url;
	if (!key_file && !up.insecure_unsigned) {
		key_file = getenv("SM_PREFLIGHT_DATA_PUBLIC_KEY");
		if (key_file && !*key_file)
			key_file = NULL;
	}
	if (key_file && !up.insecure_unsigned) {
		const char *why = NULL;
		size_t len;

		if (cli_read_regular(key_file, 16384, &key, &len, &why)) {
			cli_error("cannot read the public key '%s': %s",
				  key_file, why ? why : "read error");
			return CLI_EXIT_USAGE;
		}
		up.public_key = key;
	}
	if (up.insecure_unsigned && !quiet)
		fprintf(stderr, "sm-preflight: warning: --insecure-unsigned: "
				"the data's signature is not checked\n");
	/* the library's fetcher loads and initializes libcurl itself, so
	 * that `check` never pays for it */
	memset(&err, 0, sizeof(err));
	rc = smp_data_update(&res, &opts, &up, &err);
	free(key);
	if (rc)
		return update_failed(rc, &err, opts.cache_dir);
	if (!quiet)
		print_result(res, opts.cache_dir);
	smp_update_result_free(res);
	return fflush(stdout) ? CLI_EXIT_USAGE : CLI_EXIT_OK;
}

const struct cli_command cli_cmd_update_data = {
	"update-data",
	"[--url URL] [--cacert FILE] [OPTION]...",
	"Download the instance data (instances.json, tested-models.json, "
	"frameworks.json and an optional index.json with sha256 digests) "
	"from a copy of the repository's instance-data/ folder into "
	"$XDG_CACHE_HOME/sm-preflight (else ~/.cache/sm-preflight), and say "
	"which instance types were added, removed or changed. HTTPS only "
	"(plain HTTP to loopback, or with --allow-http); the new data "
	"replaces the old only after it validates, atomically.",
	"Exit status: 0 updated or already up to date, 1 the refresh failed "
	"(the data in use is kept), 2 usage error, 3 internal error.",
	update_options,
	sizeof(update_options) / sizeof(update_options[0]),
	run_update_data,
};

/* -------------------------------------------------------------- data */

enum { D_INSTANCE_DATA, D_STALE_DAYS, D_OFFLINE, D_HELP };

static const struct cli_option data_options[] = {
	{"--instance-data", 0, D_INSTANCE_DATA, "DIR",
	 "describe the data in DIR, as 'check --instance-data DIR' uses it"},
	{"--stale-days", 0, D_STALE_DAYS, "N",
	 "age limit of data-stale (default: the limit the refreshed data's "
	 "source declares, none for the built-in data; or "
	 "SM_PREFLIGHT_STALE_DAYS; "
	 "0 turns the check off)"},
	{"--offline", 0, D_OFFLINE, NULL,
	 "accepted for symmetry: 'data' never uses the network"},
	{"--help", 'h', D_HELP, NULL, "show this help"},
};

static void
print_cache(const struct smp_cache_info *info, const char *cache_dir,
	    enum smp_data_origin in_use)
{
	char t[64], e[600], v[64];

	if (!cache_dir) {
		printf("cache:        none (neither XDG_CACHE_HOME nor HOME is "
		       "set)\n");
		return;
	}
	if (!info->present) {
		printf("cache:        none in %s (run 'sm-preflight "
		       "update-data --url URL')\n",
		       cache_dir);
		return;
	}
	if (in_use != SMP_DATA_CACHE) {
		if (!info->valid)
			printf("cache:        %s is not used: %s\n", info->path,
			       P(e, info->error));
		else if (info->older_than_builtin)
			printf("cache:        %s (%s) is not used: the "
			       "built-in data is newer\n",
			       info->path, P(v, info->data_version));
		else
			printf("cache:        %s (%s), not used with "
			       "--instance-data\n",
			       info->path, P(v, info->data_version));
		return;
	}
	printf("downloaded:   %s\n", utc(t, sizeof(t), info->fetched));
	if (info->checked > info->fetched)
		printf("last checked: %s (no change)\n",
		       utc(t, sizeof(t), info->checked));
	printf("folder:       %s\n", info->path);
}

static int
run_data(int argc, char **argv)
{
	char pv[64], pd[64], ps[600];
	struct smp_options opts = SMP_OPTIONS_INIT;
	struct smp_context *ctx = NULL, *builtin = NULL;
	static struct smp_cache_info info;
	struct smp_error err;
	struct cli_args it;
	char dir[1024];
	const char *value, *stale_value = NULL;
	long limit, age;
	int chosen;
	int id, rc;

	cli_args_init(&it, argc, argv);
	while ((id = cli_args_next(&it, data_options,
				   sizeof(data_options) /
					   sizeof(data_options[0]),
				   &value)) != CLI_ARG_END) {
		switch (id) {
		case D_INSTANCE_DATA:
			opts.instance_data_dir = value;
			break;
		case D_STALE_DAYS:
			stale_value = value;
			break;
		case D_OFFLINE:
			opts.offline = 1;
			break;
		case D_HELP:
			return cli_help(&cli_cmd_data);
		case CLI_ARG_POSITIONAL:
			return cli_usage_error("'data' takes no argument "
					       "('%s')",
					       value);
		default:
			return CLI_EXIT_USAGE;
		}
	}
	if (cli_stale_days(stale_value, &limit))
		return CLI_EXIT_USAGE;
	opts.cache_dir = cli_cache_dir(dir, sizeof(dir));
	memset(&err, 0, sizeof(err));
	rc = smp_context_new(&ctx, &opts, &err);
	if (rc)
		return cli_context_error(rc, &err, opts.instance_data_dir);
	rc = smp_data_cache_info(&info, &opts, &err);
	if (rc == 0) {
		struct smp_options plain = SMP_OPTIONS_INIT;

		rc = smp_context_new(&builtin, &plain, &err);
	}
	if (rc) {
		smp_context_free(ctx);
		cli_error("internal error: %s", smp_strerror(rc));
		return CLI_EXIT_INTERNAL;
	}
	age = smp_context_data_age(ctx, (int64_t)time(NULL));
	chosen = limit >= 0; /* --stale-days or SM_PREFLIGHT_STALE_DAYS */
	limit = cli_stale_limit(ctx, limit);
	printf("data in use:  %s\n", origin_name(smp_context_data_origin(ctx)));
	printf("version:      %s, generated %s",
	       P(pv, smp_context_data_version(ctx)),
	       P(pd, smp_context_data_date(ctx)));
	if (age >= 0)
		printf(" (%ld %s old)", age, days(age));
	printf("\nsource:       %s\n", P(ps, smp_context_data_source(ctx)));
	if (smp_context_data_origin(ctx) != SMP_DATA_DIRECTORY)
		print_cache(&info, opts.cache_dir,
			    smp_context_data_origin(ctx));
	if (smp_context_data_origin(ctx) != SMP_DATA_BUILTIN)
		printf("built-in:     %s, generated %s\n",
		       smp_context_data_version(builtin),
		       smp_context_data_date(builtin));
	if (limit == 0 && chosen)
		printf("stale check:  off\n");
	else if (limit == 0 && smp_context_data_origin(ctx) == SMP_DATA_BUILTIN)
		printf("stale check:  off (the built-in data is frozen: AWS "
		       "publishes no new Training Compiler releases)\n");
	else if (limit == 0)
		printf("stale check:  off (the data's source declares no age "
		       "limit)\n");
	else if (age > limit)
		printf("stale check:  stale: older than %ld %s; run "
		       "'sm-preflight update-data'\n",
		       limit, days(limit));
	else
		printf("stale check:  fresh (limit %ld %s)\n", limit,
		       days(limit));
	smp_context_free(builtin);
	smp_context_free(ctx);
	return fflush(stdout) ? CLI_EXIT_USAGE : CLI_EXIT_OK;
}

const struct cli_command cli_cmd_data = {
	"data",
	"[--instance-data DIR] [--stale-days N]",
	"Show which instance data 'check' uses (the --instance-data folder, "
	"else a refreshed copy that is valid and not older than the built-in "
	"data, else the built-in data), its version, date, source and age, "
	"and the state of the cache. Never uses the network.",
	NULL,
	data_options,
	sizeof(data_options) / sizeof(data_options[0]),
	run_data,
};
