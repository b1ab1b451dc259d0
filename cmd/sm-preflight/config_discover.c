/*
 * config.c - configuration files: discovery, merging, the walk filter,
 * one context per distinct configuration, and `sm-preflight config`.
 *
 * Discovery is memoized per folder: a folder's chain is its own file (if
 * any) in front of its parent's chain, so a tree of ten thousand specs
 * costs one stat() per folder and one parse per file. Folders are kept as
 * absolute paths normalized lexically (no symlink resolution), which is
 * how the user sees the tree.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "config.h"
#include "glob.h"
#include "readfile.h"
#include "output.h"

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
	struct ignore *ignores;
	size_t ignore_count;
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
};

static const char *const name_keys[4] = {"batch-size", "learning-rate", "model",
					 "global-batch"};
static const char *const default_names[4] = {
	"per_device_train_batch_size, train_batch_size, batch_size",
	"learning_rate, lr",
	"model_name_or_path, model_name, model_id, model_type, model",
	"none (a TensorFlow job's batch_size is global)"};

/* ---------------------------------------------------------- paths */

/* Lexically normalized absolute path of p (relative to cwd). */
static char *
abs_path(const char *cwd, const char *p)
{
	size_t n = strlen(cwd) + strlen(p) + 2, k = 0;
	char *in = malloc(n), *out = malloc(n + 1);
	char *save = NULL, *seg;

	if (!in || !out) {
		free(in);
		free(out);
		return NULL;
	}
	if (p[0] == '/')
		snprintf(in, n, "%s", p);
	else
		snprintf(in, n, "%s/%s", cwd, p);
	out[0] = '\0';
	for (seg = strtok_r(in, "/", &save); seg;
	     seg = strtok_r(NULL, "/", &save)) {
		if (strcmp(seg, ".") == 0)
			continue;
		if (strcmp(seg, "..") == 0) {
			while (k > 0 && out[k - 1] != '/')
				k--;
			if (k > 0)
				k--;
			out[k] = '\0';
			continue;
		}
		out[k++] = '/';
		memcpy(out + k, seg, strlen(seg));
		k += strlen(seg);
		out[k] = '\0';
	}
	if (k == 0) {
		out[0] = '/';
		out[1] = '\0';
	}
	free(in);
	return out;
}

/* The folder of an absolute path ("/" for "/x" and "/"). */
static char *
parent_of(const char *p)
{
	const char *slash = strrchr(p, '/');
	size_t n = slash && slash != p ? (size_t)(slash - p) : 1;
	char *d = malloc(n + 1);

	if (d) {
		memcpy(d, p, n);
		d[n] = '\0';
	}
	return d;
}

static char *
join2(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);

	if (p)
		snprintf(p, n, "%s%s%s", dir, strcmp(dir, "/") ? "/" : "",
			 name);
	return p;
}

/* How a path is shown: relative to the working folder when below it. */
static char *
display_of(const char *cwd, const char *p)
{
	size_t n = strlen(cwd);

	if (strcmp(cwd, "/") != 0 && strncmp(p, cwd, n) == 0 && p[n] == '/')
		return strdup(p + n + 1);
	if (strcmp(cwd, "/") == 0 && p[0] == '/' && p[1])
		return strdup(p + 1);
	return strdup(p);
}

static int
exists(const char *dir, const char *name, int want_dir)
{
	char *p = join2(dir, name);
	struct stat st;
	int ok;

	if (!p)
		return 0;
	ok = stat(p, &st) == 0 && (want_dir ? 1 : S_ISREG(st.st_mode));
	free(p);
	return ok;
}

/* ---------------------------------------------------------- files */

static int
oom(void)
{
	cli_error("internal error: out of memory");
	return CLI_EXIT_INTERNAL;
}

/* Reads and parses one file; errors printed as FILE:LINE:COL. */
static int
load_file(struct cli_configs *c, const char *abs, struct cfg_file **out)
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
		return oom();
	f->path = strdup(abs);
	f->dir = parent_of(abs);
	f->display = display_of(c->cwd, abs);
	f->next = c->files;
	c->files = f;
	if (!f->path || !f->dir || !f->display)
		return oom();
	rc = cli_read_regular(abs, CLI_READ_MAX, &buf, &len, &why);
	if (rc == CLI_READ_ENOMEM)
		return oom();
	if (rc) {
		cli_error("cannot read the configuration '%s': %s", f->display,
			  why);
		return CLI_EXIT_USAGE;
	}
	memset(&err, 0, sizeof(err));
	rc = smp_config_parse(&f->cfg, f->display, buf, len, NULL, &err);
	free(buf);
	if (rc == SMP_ENOMEM)
		return oom();
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

static int
new_chain(struct cli_configs *c, struct cfg_file *f, struct chain *parent,
	  struct chain **out)
{
	struct chain *ch = calloc(1, sizeof(*ch));

	if (!ch)
		return oom();
	ch->file = f;
	ch->parent = f->cfg->root ? NULL : parent;
	ch->next = c->chains;
	c->chains = ch;
	*out = ch;
	return 0;
}

/* ---------------------------------------------------------- memo */

static size_t
hash_str(const char *s)
{
	size_t h = 1469598103934665603ull & SIZE_MAX;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * (1099511628211ull & SIZE_MAX);
	return h;
}

static struct memo *
memo_find(struct cli_configs *c, const char *dir)
{
	size_t i, mask;

	if (!c->memo_cap)
		return NULL;
	mask = c->memo_cap - 1;
	for (i = hash_str(dir) & mask; c->memo[i].used; i = (i + 1) & mask)
		if (strcmp(c->memo[i].dir, dir) == 0)
			return &c->memo[i];
	return NULL;
}

static int
memo_put(struct cli_configs *c, const char *dir, struct chain *ch,
	 const struct memo *stop)
{
	size_t i, mask;
	char *d;

	if ((c->memo_count + 1) * 2 > c->memo_cap) {
		size_t ncap = c->memo_cap ? c->memo_cap * 2 : 64, k;
		struct memo *n = calloc(ncap, sizeof(*n));

		if (!n)
			return -1;
		for (k = 0; k < c->memo_cap; k++) {
			if (!c->memo[k].used)
				continue;
			for (i = hash_str(c->memo[k].dir) & (ncap - 1);
			     n[i].used; i = (i + 1) & (ncap - 1))
				;
			n[i] = c->memo[k];
		}
		free(c->memo);
		c->memo = n;
		c->memo_cap = ncap;
	}
	d = strdup(dir);
	if (!d)
		return -1;
	mask = c->memo_cap - 1;
	for (i = hash_str(dir) & mask; c->memo[i].used; i = (i + 1) & mask)
		;
	c->memo[i].dir = d;
	c->memo[i].chain = ch;
	c->memo[i].used = 1;
	c->memo[i].stopped = stop->stopped;
	c->memo[i].stop_uid = stop->stop_uid;
	c->memo_count++;
	return 0;
}

/*
 * 1 when the upward search may go from dir to its parent up: the parent
 * belongs to dir's owner, to root or to the user running us. A folder of
 * someone else's above a project (a shared /tmp-like parent) could
 * otherwise plant a configuration that turns rules off below it; this
 * is the reasoning of git's safe.directory. A folder that cannot be
 * stat()ed changes nothing.
 */
static int
trusted_parent(const char *dir, const char *up, unsigned long *uid)
{
	struct stat d, u;

	if (stat(dir, &d) != 0 || stat(up, &u) != 0)
		return 1;
	*uid = (unsigned long)u.st_uid;
	return u.st_uid == d.st_uid || u.st_uid == 0 || u.st_uid == geteuid();
}

/* The chain of an absolute folder (NULL: no file applies). */
static int
chain_of_dir(struct cli_configs *c, const char *dir, struct chain **out)
{
	struct chain *parent = NULL, *ch;
	struct memo *m, stop;
	char *up;
	int rc;

	*out = NULL;
	if (c->args->no_config)
		return 0;
	if (c->forced) {
		*out = c->forced;
		return 0;
	}
	m = memo_find(c, dir);
	if (m) {
		*out = m->chain;
		return 0;
	}
	/* the repository root, the filesystem root and a folder of
	 * another user's end the search */
	memset(&stop, 0, sizeof(stop));
	if (strcmp(dir, "/") != 0 && !exists(dir, ".git", 1)) {
		up = parent_of(dir);
		if (!up)
			return oom();
		rc = 0;
		if (trusted_parent(dir, up, &stop.stop_uid))
			rc = chain_of_dir(c, up, &parent);
		else
			stop.stopped = 1;
		free(up);
		if (rc)
			return rc;
	}
	ch = parent;
	if (exists(dir, CLI_CONFIG_NAME, 0)) {
		struct cfg_file *f;
		char *p = join2(dir, CLI_CONFIG_NAME);

		if (!p)
			return oom();
		rc = load_file(c, p, &f);
		free(p);
		if (rc)
			return rc;
		rc = new_chain(c, f, parent, &ch);
		if (rc)
			return rc;
	}
	if (memo_put(c, dir, ch, &stop))
		return oom();
	*out = ch;
	return 0;
}

/* ---------------------------------------------------------- profiles */

static int
add_ignores(struct cli_profile *p, const struct cfg_file *f)
{
	const struct smp_config_list *l = &f->cfg->ignore;
	struct ignore *n;
	size_t i;

	if (!l->count)
		return 0;
	n = realloc(p->ignores, (p->ignore_count + l->count) * sizeof(*n));
	if (!n)
		return -1;
	p->ignores = n;
	for (i = 0; i < l->count; i++) {
		n[p->ignore_count].pattern = l->items[i];
		n[p->ignore_count++].base = f->dir;
	}
	return 0;
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

/* Applies one file over what the farther files set. */
static int
apply_file(struct cli_profile *p, const struct cfg_file *f)
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
		p->overlay = v[0] == '/' ? strdup(v) : join2(f->dir, v);
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
	if (cfg->extensions.set) {
		p->extensions = &cfg->extensions;
		p->extensions_from.file = f;
		p->extensions_from.pos = cfg->extensions.pos;
	}
	for (i = 0; i < cfg->rule_count; i++)
		if (add_rule(p, f, &cfg->rules[i]))
			return -1;
	return add_ignores(p, f);
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
		bad |= key_add(&p->key, &len, name_keys[i]);
		for (j = 0; p->names[i] && j < p->names[i]->count; j++)
			bad |= key_add(&p->key, &len, p->names[i]->items[j]);
	}
	bad |= key_add(&p->key, &len, "|overlay");
	bad |= key_add(&p->key, &len, p->overlay ? p->overlay : "");
	return bad ? -1 : 0;
}

static void
profile_free(struct cli_profile *p)
{
	if (!p)
		return;
	free(p->rules);
	free(p->overlay);
	free(p->ignores);
	free(p->key);
	free(p);
}

/* The merged profile of a chain (NULL: the command line alone). */
static int
profile_of(struct cli_configs *c, struct chain *ch, struct cli_profile **out)
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
		return oom();
	p->fail_on = a->fail_on_set ? a->fail_on : SMP_SEVERITY_ERROR;
	p->fail_on_cli = a->fail_on_set;
	p->lr_scaling = a->opts->lr_scaling;
	p->lr_cli = a->lr_scaling_set;
	for (; ch && n < sizeof(files) / sizeof(files[0]); ch = ch->parent)
		files[n++] = ch;
	/* farthest first, so that nearer files override */
	for (i = n; i-- > 0;) {
		if (apply_file(p, files[i]->file)) {
			profile_free(p);
			return oom();
		}
	}
	if (make_key(p)) {
		profile_free(p);
		return oom();
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
cli_configs_new(struct cli_configs **out, const struct cli_config_args *args)
{
	struct cli_configs *c;
	char buf[PATH_MAX];
	int rc;

	*out = NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return oom();
	c->args = args;
	if (!getcwd(buf, sizeof(buf))) {
		cli_error("cannot tell the working folder: %s",
			  strerror(errno));
		free(c);
		return CLI_EXIT_USAGE;
	}
	c->cwd = strdup(buf);
	if (!c->cwd) {
		free(c);
		return oom();
	}
	*out = c;
	if (args->config_file && !args->no_config) {
		struct cfg_file *f;
		char *p = abs_path(c->cwd, args->config_file);

		if (!p)
			return oom();
		rc = load_file(c, p, &f);
		free(p);
		if (rc)
			return rc;
		rc = new_chain(c, f, NULL, &c->forced);
		if (rc)
			return rc;
		c->forced->parent = NULL;
	}
	return 0;
}

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
		profile_free(p);
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
	abs = abs_path(c->cwd, path);
	dir = abs ? parent_of(abs) : NULL;
	free(abs);
	if (!dir)
		return oom();
	rc = chain_of_dir(c, dir, &ch);
	free(dir);
	if (rc)
		return rc;
	return profile_of(c, ch, out);
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

enum smp_severity
cli_profile_fail_on(const struct cli_profile *p)
{
	return p->fail_on;
}

/* Reads the overlay file whole (small: a few instance rows). */
static int
read_overlay(const char *path, const char *display, char **buf, size_t *len)
{
	const char *why = NULL;
	int rc = cli_read_regular(path, CLI_READ_MAX, buf, len, &why);

	if (rc == CLI_READ_ENOMEM)
		return oom();
	if (rc) {
		cli_error("cannot read the instance overlay '%s': %s", display,
			  why);
		return CLI_EXIT_USAGE;
	}
	return 0;
}

/* Why a context could not be made (the instance data, or the
 * overlay), with the file, line and column the library gives. */
static int
context_error(int rc, const struct smp_error *err, const char *dir)
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

/* Creates the context of p: the command line's options, the files' rule
 * severities before the command line's, their names and overlay. */
static int
create_context(struct cli_configs *c, struct cli_profile *p,
	       struct smp_context **out)
{
	const struct smp_options *base = c->args->opts;
	struct smp_options o = *base;
	struct smp_rule_override *ov;
	struct smp_names *dst[4];
	char *buf = NULL, *display = NULL;
	struct smp_error err;
	size_t i, j, len = 0;
	int rc = 0, k;

	*out = NULL;
	ov = calloc(p->rule_count + base->override_count + 1, sizeof(*ov));
	if (!ov)
		return oom();
	for (i = 0; i < p->rule_count; i++) {
		ov[i].rule = p->rules[i].rule;
		ov[i].severity = p->rules[i].severity;
	}
	for (j = 0; j < base->override_count; j++)
		ov[i + j] = base->overrides[j];
	o.overrides = ov;
	o.override_count = p->rule_count + base->override_count;
	o.lr_scaling = p->lr_scaling;
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
		display = display_of(c->cwd, p->overlay);
		if (!display) {
			free(ov);
			return oom();
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
			rc = context_error(k, &err, o.instance_data_dir);
	}
	free(buf);
	free(display);
	free(ov);
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
			return oom();
		e->key = strdup(p->key);
		if (!e->key) {
			free(e);
			return oom();
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

/* ---------------------------------------------------------- filter */

static int
has_extension(const struct smp_config_list *exts, const char *name)
{
	const char *dot = strrchr(name, '.');
	size_t i;

	if (!exts)
		return cli_walk_default_suffix(name);
	if (!dot || dot == name)
		return 0;
	for (i = 0; i < exts->count; i++) {
		const char *e = exts->items[i];

		if (strcmp(dot + 1, e[0] == '.' ? e + 1 : e) == 0)
			return 1;
	}
	return 0;
}

/* A launcher or notebook, walked with --include-python. */
static int
is_python(const char *name)
{
	size_t n = strlen(name);

	return (n > 3 && strcmp(name + n - 3, ".py") == 0) ||
	       (n > 6 && strcmp(name + n - 6, ".ipynb") == 0);
}

static int
filter_skip(void *ud, const char *path, const char *name, int is_dir)
{
	struct cli_configs *c = ud;
	struct cli_profile *p;
	struct chain *ch = NULL;
	char *abs = abs_path(c->cwd, path), *dir;
	size_t i;
	int skip = 0;

	dir = abs ? parent_of(abs) : NULL;
	if (!dir || chain_of_dir(c, dir, &ch) || profile_of(c, ch, &p)) {
		free(abs);
		free(dir);
		return -1;
	}
	for (i = 0; i < p->ignore_count && !skip; i++) {
		const char *base = p->ignores[i].base;
		size_t bl = strlen(base);
		const char *rel;

		if (strcmp(base, "/") == 0)
			rel = abs + 1;
		else if (strncmp(abs, base, bl) == 0 && abs[bl] == '/')
			rel = abs + bl + 1;
		else
			continue;
		skip = cli_ignore_match(p->ignores[i].pattern, rel, name,
					is_dir);
	}
	/* the folder's instance overlay is data, not a spec */
	if (!skip && !is_dir)
		skip = !(has_extension(p->extensions, name) ||
			 (c->args->include_python && is_python(name))) ||
		       (p->overlay && strcmp(p->overlay, abs) == 0);
	free(abs);
	free(dir);
	return skip;
}

void
cli_configs_filter(struct cli_configs *c, struct cli_walk_filter *out)
{
	out->skip = filter_skip;
	out->ud = c;
}

/* ---------------------------------------------------------- config */

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

/* Says where the search from dir stopped at another user's folder (the
 * search itself filled the memo on its way up). 0, or -1 on ENOMEM. */
static int
print_stop(struct cli_configs *c, const char *dir)
{
	char *d = strdup(dir), *up, *shown;
	struct memo *m;

	while (d && (m = memo_find(c, d)) != NULL) {
		if (m->stopped) {
			up = parent_of(d);
			shown = up ? display_of(c->cwd, up) : NULL;
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
		up = parent_of(d);
		free(d);
		d = up;
	}
	if (!d)
		return -1;
	free(d);
	return 0;
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
		return oom();
	printf("fail-on: %s", cli_fail_on_name(p->fail_on));
	print_origin(&p->fail_on_from, p->fail_on_cli ? cli : "default");
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
	printf("hyperparameters:\n");
	for (i = 0; i < 4; i++) {
		printf("  %s: ", name_keys[i]);
		if (p->names[i] && p->names[i]->count) {
			print_list(p->names[i]);
			print_origin(&p->names_from[i], "default");
		} else {
			printf("[]  # default: %s%s\n", default_names[i],
			       p->names[i] ? " (the file's empty list)" : "");
		}
	}
	if (p->overlay) {
		char *d = display_of(c->cwd, p->overlay);

		if (!d)
			return oom();
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
	if (!p->ignore_count)
		printf("ignore: []  # default: none (hidden entries are "
		       "always skipped)\n");
	else
		printf("ignore:\n");
	for (i = 0; i < p->ignore_count; i++) {
		const struct cfg_file *f = NULL;
		const struct cfg_file *g;

		for (g = c->files; g && !f; g = g->next)
			if (g->dir == p->ignores[i].base)
				f = g;
		printf("  - ");
		print_scalar(p->ignores[i].pattern);
		printf("  # %s (relative to its folder)\n",
		       f ? f->display : "?");
	}
	printf("extensions: ");
	if (p->extensions) {
		print_list(p->extensions);
		print_origin(&p->extensions_from, "default");
	} else {
		printf("[yaml, yml, json]  # default\n");
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
			cli_command_help(stdout, &cli_cmd_config);
			return fflush(stdout) ? CLI_EXIT_USAGE : CLI_EXIT_OK;
		default:
			return CLI_EXIT_USAGE;
		}
	}
	if (!target)
		target = ".";
	status = cli_configs_new(&c, &args);
	if (status)
		goto out;
	abs = abs_path(c->cwd, target);
	if (!abs) {
		status = oom();
		goto out;
	}
	/* a folder is configured by its own file; a spec by its folder's */
	dir = stat(target, &st) == 0 && S_ISDIR(st.st_mode) ? strdup(abs)
							    : parent_of(abs);
	if (!dir) {
		status = oom();
		goto out;
	}
	status = chain_of_dir(c, dir, &ch);
	if (!status)
		status = profile_of(c, ch, &p);
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
