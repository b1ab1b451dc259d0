/*
 * cmd_check.c - `sm-preflight check [FILE|DIR|-]...`: walk the inputs,
 * check each through the library, print the findings in argument and walk
 * order, a summary on stderr, and the exit status.
 */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "config.h"
#include "fix.h"
#include "format.h"
#include "gitignore.h"
#include "jobs.h"
#include "output.h"
#include "selection.h"
#include "smpreflight.h"
#include "walk.h"

/*
 * stdin is read whole; one byte more than the library's default file
 * size limit (README "Bad input") is enough for it to report the limit.
 */
#define STDIN_MAX ((size_t)4 * 1024 * 1024 + 1)

enum {
	OPT_FAIL_ON,
	OPT_EXIT_ZERO,
	OPT_COLOR,
	OPT_DIALECT,
	OPT_INSTANCE_DATA,
	OPT_SELECT,
	OPT_EXTEND_SELECT,
	OPT_IGNORE,
	OPT_DISABLE,
	OPT_SEVERITY,
	OPT_BASELINE,
	OPT_LR_SCALING,
	OPT_NO_SCRIPT,
	OPT_INCLUDE_PYTHON,
	/* the walk: what it reads, and which jobs it judges */
	OPT_NO_PYTHON,
	OPT_ALL_JOBS,
	OPT_EXTEND_EXCLUDE,
	OPT_EXCLUDE,
	OPT_FORCE_EXCLUDE,
	OPT_NO_FORCE_EXCLUDE,
	OPT_RESPECT_GITIGNORE,
	OPT_NO_RESPECT_GITIGNORE,
	OPT_VERBOSE,
	OPT_AS_WALK,
	OPT_OFFLINE,
	OPT_STALE_DAYS,
	OPT_FORMAT,
	OPT_OUTPUT,
	OPT_RULES_URI,
	OPT_SARIF_ROOT,
	OPT_CONFIG,
	OPT_NO_CONFIG,
	OPT_NO_INLINE_IGNORES,
	OPT_REGION,
	OPT_JOBS,
	OPT_STDIN_FILENAME,
	OPT_STATISTICS,
	OPT_QUIET,
	/* fixes (fix.h) */
	OPT_FIX,
	OPT_DIFF,
	OPT_SHOW_FIXES,
	OPT_UNSAFE_FIXES,
	OPT_HELP
};

static const struct cli_option options[] = {
	{"--fail-on", 0, OPT_FAIL_ON, "LEVEL",
	 "exit 1 on findings at or above LEVEL: error (default), warning, "
	 "info, or none (report, never exit 1 for findings)"},
	{"--exit-zero", 0, OPT_EXIT_ZERO, NULL,
	 "the same as --fail-on none (ruff's spelling)"},
	{"--color", 0, OPT_COLOR, "WHEN",
	 "colour the findings: auto (default: when stdout is a terminal, or "
	 "FORCE_COLOR or CLICOLOR_FORCE is set; never with NO_COLOR), "
	 "always, never"},
	{"--dialect", 0, OPT_DIALECT, "D",
	 "read every spec as D: auto (default), estimator, model_trainer, "
	 "create_training_job"},
	CLI_OPTION_INSTANCE_DATA(OPT_INSTANCE_DATA),
	{"--select", 0, OPT_SELECT, "LIST",
	 "run only these rules: comma-separated rule ids, group names (spec, "
	 "instance, distribution, compiler, versions, script, ...) or ALL "
	 "(default); repeatable; replaces the configuration's select"},
	{"--extend-select", 0, OPT_EXTEND_SELECT, "LIST",
	 "rules or groups to run besides the configuration's select (or "
	 "--select); repeatable (ruff's option)"},
	{"--ignore", 0, OPT_IGNORE, "LIST",
	 "do not run these rules (ids, groups or ALL; repeatable; replaces "
	 "the configuration's ignore-rules). The most specific name wins: "
	 "--ignore script --select script-cuda-device keeps that rule"},
	{"--disable", 0, OPT_DISABLE, "RULE",
	 "turn RULE off, as --severity RULE=off (repeatable)"},
	{"--severity", 0, OPT_SEVERITY, "RULE=LEVEL",
	 "report RULE as error, warning, info, or off (repeatable); a rule "
	 "that --select/--ignore leave out stays off"},
	{"--baseline", 0, OPT_BASELINE, "FILE",
	 "compare every spec with the native run in FILE: learning rate "
	 "scaled with the batch, nothing else changed"},
	{"--lr-scaling", 0, OPT_LR_SCALING, "HOW",
	 "learning rate in batch-size fixes: linear (x k, default) or sqrt "
	 "(x sqrt(k))"},
	{"--no-script", 0, OPT_NO_SCRIPT, NULL,
	 "do not read the entry scripts the specs name (no script-* rules)"},
	{"--include-python", 0, OPT_INCLUDE_PYTHON, NULL,
	 "walk *.py launchers and *.ipynb notebooks too (the default; "
	 "kept for older scripts)"},
	{"--no-python", 0, OPT_NO_PYTHON, NULL,
	 "in a directory, check only *.yaml, *.yml and *.json (a file named "
	 "on the command line always is checked)"},
	{"--all-jobs", 0, OPT_ALL_JOBS, NULL,
	 "in a directory, judge every training job found, not only those "
	 "that use or mean to use Training Compiler"},
	{"--exclude", 0, OPT_EXCLUDE, "PATTERN",
	 "skip walked entries matching PATTERN instead of the default "
	 "excluded folders (build, dist, node_modules, venv, ...) and the "
	 "configuration's exclude (gitignore style, relative to the working "
	 "directory; repeatable; ruff's option)"},
	{"--extend-exclude", 0, OPT_EXTEND_EXCLUDE, "PATTERN",
	 "also skip walked entries matching PATTERN (gitignore style, "
	 "relative to the working directory; repeatable)"},
	{"--force-exclude", 0, OPT_FORCE_EXCLUDE, NULL,
	 "apply the excluded patterns to the paths named on the command line "
	 "too (for hooks that pass every changed file); the configuration's "
	 "force-exclude"},
	{"--no-force-exclude", 0, OPT_NO_FORCE_EXCLUDE, NULL,
	 "check every path named on the command line (the default)"},
	{"--respect-gitignore", 0, OPT_RESPECT_GITIGNORE, NULL,
	 "skip what git ignores in walks (the default)"},
	{"--no-respect-gitignore", 0, OPT_NO_RESPECT_GITIGNORE, NULL,
	 "walk what git ignores too (.gitignore, .git/info/exclude, the "
	 "global excludes file); the configuration's respect-gitignore"},
	{"--as-walk", 0, OPT_AS_WALK, NULL,
	 "check the named files as if a walk had found them: those without "
	 "a training job are skipped, only Training Compiler jobs judged "
	 "(for hooks that pass every staged file)"},
	{"--verbose", 'v', OPT_VERBOSE, NULL,
	 "list the walked files skipped because they hold no training job, "
	 "and the jobs not judged (on stderr)"},
	{"--offline", 0, OPT_OFFLINE, NULL,
	 "never use the network (checking does not anyway): the built-in or "
	 "refreshed data only"},
	{"--stale-days", 0, OPT_STALE_DAYS, "N",
	 "warn once (data-stale) when the instance data is older than N days "
	 "(default: the limit the refreshed data's source declares, none for "
	 "the built-in data; or SM_PREFLIGHT_STALE_DAYS; 0 turns it off)"},
	{"--format", 0, OPT_FORMAT, "FORMAT",
	 "text (default), json, sarif, github (default when GITHUB_ACTIONS is "
	 "true) or junit; repeatable, each with its own --output"},
	{"--output-format", 0, OPT_FORMAT, "FORMAT",
	 "the same as --format (ruff's spelling)"},
	{"--output", 'o', OPT_OUTPUT, "FILE",
	 "write the --format before it to FILE (atomically) instead of "
	 "stdout"},
	{"--rules-uri", 0, OPT_RULES_URI, "URI",
	 "where docs/rules.md is published, for SARIF help links (default "
	 "docs/rules.md, or SM_PREFLIGHT_RULES_URI)"},
	{"--sarif-root", 0, OPT_SARIF_ROOT, "DIR",
	 "make SARIF artifact URIs relative to DIR (%SRCROOT%; default: "
	 "GITHUB_WORKSPACE, else the files' git top level, else the working "
	 "directory)"},
	{"--config", 0, OPT_CONFIG, "FILE",
	 "read only FILE instead of the " CLI_CONFIG_NAME " files found from "
	 "each spec's folder up to the repository root"},
	{"--no-config", 0, OPT_NO_CONFIG, NULL, "read no configuration file"},
	{"--no-inline-ignores", 0, OPT_NO_INLINE_IGNORES, NULL,
	 "ignore every '# sm-preflight: ignore[rule] reason' comment"},
	{"--region", 0, OPT_REGION, "REGION",
	 "the AWS region the jobs run in where neither an image URI's host "
	 "nor a launcher's boto3 session or client names one (default: "
	 "AWS_REGION, else AWS_DEFAULT_REGION); with neither, the region "
	 "checks stay quiet"},
	{"--jobs", 'j', OPT_JOBS, "N",
	 "check N files at a time (default: the number of CPUs); the output "
	 "is the same whatever N is"},
	{"--stdin-filename", 0, OPT_STDIN_FILENAME, "NAME",
	 "name '-' (stdin) NAME in findings; its configuration is found from "
	 "NAME's folder"},
	{"--statistics", 0, OPT_STATISTICS, NULL,
	 "after the report, print one line per rule that fired: its count, "
	 "id and severity, most frequent first (on stdout)"},
	{"--quiet", 'q', OPT_QUIET, NULL, "print no summary line"},
	/* fixes (fix.h) */
	{"--fix", 0, OPT_FIX, NULL,
	 "apply the safe fixes in place ('-': print the fixed text)"},
	{"--diff", 0, OPT_DIFF, NULL,
	 "print the fixes as a unified diff and change nothing; exit 1 when "
	 "there is one"},
	{"--show-fixes", 0, OPT_SHOW_FIXES, NULL, "list the fixes applied"},
	{"--unsafe-fixes", 0, OPT_UNSAFE_FIXES, NULL,
	 "also apply fixes that change what is trained (batch size, learning "
	 "rate, instance type, versions)"},
	{"--help", 'h', OPT_HELP, NULL, "show this help"},
};

struct run {
	const struct smp_context *ctx; /* the first file's, for the outputs */
	/* the files in output order, and each one's context and fail-on */
	const struct cli_walk_list *files;
	const struct smp_context **ctxs;
	unsigned char *fail_on;
	const char *stdin_name; /* --stdin-filename, or NULL */
	size_t suppressed;
	int failing; /* a finding at or above its file's fail-on */
	const struct smp_baseline *baseline; /* NULL without --baseline */
	struct cli_fix fix;                  /* --fix, --diff */
	struct cli_outputs *outs;
	unsigned int text_flags;
	unsigned int check_flags; /* SMP_CHECK_NO_EDITS: no output shows them */
	size_t files_checked;
	unsigned char *all_jobs; /* per file: all-jobs, --all-jobs */
	int verbose;             /* --verbose */
	int walked;      /* an input was a folder: the summary is said */
	size_t skipped;  /* walked files without a training job */
	size_t jobs;     /* jobs judged */
	size_t unjudged; /* walked jobs without Training Compiler */
	size_t unreadable;
	size_t failed; /* checks that failed (out of memory, internal) */
	size_t counts[SMP_SEVERITY_ERROR + 1];
	/* --statistics: per rule (table order), per severity; or NULL */
	size_t (*stats)[SMP_SEVERITY_ERROR + 1];
	enum smp_severity max;
	int status; /* CLI_EXIT_INTERNAL or CLI_EXIT_USAGE once fatal */
	/* per rule (table order): 1 once a rule said once per run
	 * (smp_rule_info.once_per_run) was output */
	unsigned char *said;
	/* the rules said once per run (table order), found once */
	size_t *once;
	size_t nonce;
	/* the file in whose report every rule said once per run was said
	 * (SIZE_MAX: not yet): a later file is checked without them
	 * (SMP_CHECK_RUN_SAID), its report would lose them anyway; read by
	 * the workers, set by the caller's thread in output order */
	atomic_size_t said_at;
};

/* Reads all of stdin (up to STDIN_MAX bytes) into a malloc'd buffer. */
static int
read_stdin(char **out, size_t *len)
{
	size_t cap = 65536, n = 0, got;
	char *buf = malloc(cap), *p;

	*out = NULL;
	*len = 0;
	if (!buf)
		return SMP_ENOMEM;
	for (;;) {
		if (n == cap) {
			if (cap >= STDIN_MAX)
				break;
			cap = cap * 2 < STDIN_MAX ? cap * 2 : STDIN_MAX;
			p = realloc(buf, cap);
			if (!p) {
				free(buf);
				return SMP_ENOMEM;
			}
			buf = p;
		}
		got = fread(buf + n, 1, cap - n, stdin);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(stdin)) {
		free(buf);
		return SMP_EIO;
	}
	*out = buf;
	*len = n;
	return 0;
}

static int
check_stdin(struct smp_report **rep, const struct smp_context *ctx,
	    const char *name, const struct smp_baseline *baseline,
	    unsigned int flags, struct smp_error *err)
{
	struct smp_check_options o = SMP_CHECK_OPTIONS_INIT;
	char *buf;
	size_t len;
	int rc = read_stdin(&buf, &len);

	if (rc == SMP_EIO)
		snprintf(err->message, sizeof(err->message), "%s",
			 "read error");
	if (rc)
		return rc;
	o.baseline = baseline;
	o.flags = flags;
	rc = smp_check(rep, ctx, name, buf ? buf : "", len, &o, err);
	free(buf);
	return rc;
}

static void
internal_error(int code, const struct smp_error *err)
{
	if (err && err->message[0] && code != SMP_ENOMEM)
		cli_error("internal error: %s: %s", smp_strerror(code),
			  err->message);
	else
		cli_error("internal error: %s", smp_strerror(code));
}

/* What a worker hands back for one file. */
struct result {
	int rc;
	struct smp_report *rep;
	struct smp_error err;
	struct cli_fixed *fixed; /* --fix, --diff: rep is its report */
};

/* The check flags of file i: a walk's file judges only compiler jobs,
 * unless all-jobs says every job. */
static unsigned int
walk_flags(const struct run *r, size_t i)
{
	if (!r->files->walked[i])
		return 0u;
	return SMP_CHECK_WALKED | (r->all_jobs[i] ? SMP_CHECK_ALL_JOBS : 0u);
}

/* In a worker thread: file i checked, nothing printed. */
static void *
check_work(void *ud, size_t i)
{
	struct run *r = ud;
	const char *path = r->files->paths[i];
	struct result *res = calloc(1, sizeof(*res));

	if (!res)
		return NULL;
	if (r->files->errors[i]) {
		/* the walk could not look into it: nothing to check */
		res->rc = SMP_EIO;
		snprintf(res->err.message, sizeof(res->err.message), "%s",
			 r->files->errors[i]);
	} else if (r->fix.mode)
		res->rc = cli_fix_file(
			&res->fixed, &r->fix, r->ctxs[i], path,
			strcmp(path, "-") == 0
				? (r->stdin_name ? r->stdin_name : "<stdin>")
				: path,
			walk_flags(r, i), &res->err);
	else if (strcmp(path, "-") == 0)
		res->rc = check_stdin(&res->rep, r->ctxs[i],
				      r->stdin_name ? r->stdin_name : "<stdin>",
				      r->baseline, r->check_flags, &res->err);
	else {
		struct smp_check_options o = SMP_CHECK_OPTIONS_INIT;

		o.baseline = r->baseline;
		o.flags = r->check_flags | walk_flags(r, i);
		if (atomic_load_explicit(&r->said_at, memory_order_relaxed) < i)
			o.flags |= SMP_CHECK_RUN_SAID;
		res->rc = smp_check(&res->rep, r->ctxs[i], path, NULL, 0, &o,
				    &res->err);
	}
	return res;
}

static void
check_discard(void *ud, void *result)
{
	struct result *res = result;

	(void)ud;
	if (res) {
		smp_report_free(res->rep);
		cli_fixed_free(res->fixed);
	}
	free(res);
}

static size_t
plural_s(size_t n)
{
	return n == 1 ? 0 : 1;
}

/* A file that was not checked, to every output. */
static int
not_checked(struct run *r, const char *path, const char *why)
{
	int rc = cli_outputs_failure(r->outs, path, why);

	if (rc) {
		r->status = rc;
		return 1;
	}
	return 0;
}

/* One finding of rule at sev for --statistics. */
static void
count_rule(struct run *r, const char *rule, enum smp_severity sev)
{
	size_t i, n = smp_rule_count();

	if (!r->stats)
		return;
	for (i = 0; i < n; i++)
		if (strcmp(smp_rule_at(i)->id, rule) == 0) {
			r->stats[i][sev]++;
			return;
		}
}

/*
 * The rules said once per run (rules.def R(), such as
 * compiler-end-of-support): the first report in output order that has
 * one keeps it, and the later ones lose theirs before anything counts or
 * writes them, so every output and --statistics say it once whatever
 * --jobs is. A suppressed finding does not count as said.
 */
static void
once_per_run(struct run *r, struct smp_report *rep, size_t file)
{
	size_t j, k, count;
	int all = 1;

	if (atomic_load_explicit(&r->said_at, memory_order_relaxed) <
	    SIZE_MAX) {
		/* all said: only drop what a check that began before
		 * then still worked out */
		for (j = 0; j < r->nonce; j++)
			smp_report_remove_rule(rep,
					       smp_rule_at(r->once[j])->id);
		return;
	}
	for (j = 0; j < r->nonce; j++) {
		size_t i = r->once[j];
		const char *id = smp_rule_at(i)->id;

		if (r->said[i]) {
			smp_report_remove_rule(rep, id);
			continue;
		}
		count = smp_report_count(rep);
		for (k = 0; k < count && !r->said[i]; k++) {
			const struct smp_finding *f = smp_report_get(rep, k);

			r->said[i] = strcmp(f->rule, id) == 0 && !f->suppressed;
		}
		all &= r->said[i];
	}
	if (all)
		atomic_store_explicit(&r->said_at, file, memory_order_relaxed);
}

/* File i checked again as it is on disk, after --fix could not write
 * it: its report in res->rep (the caller's thread). */
static int
recheck(const struct run *r, size_t i, struct result *res)
{
	struct smp_check_options o = SMP_CHECK_OPTIONS_INIT;

	o.baseline = r->baseline;
	o.flags = r->check_flags | walk_flags(r, i);
	return smp_check(&res->rep, r->ctxs[i], r->files->paths[i], NULL, 0, &o,
			 &res->err);
}

/* In the caller's thread, in output order: counted and written. */
static int
check_done(void *ud, size_t i, void *result)
{
	struct run *r = ud;
	struct result *res = result;
	const char *path = r->files->paths[i];
	struct smp_report *rep;
	size_t k, n;
	int rc;

	if (strcmp(path, "-") == 0)
		path = r->stdin_name ? r->stdin_name : "<stdin>";
	if (res && res->rc == 0 && res->fixed) {
		res->rep = NULL;
		if (cli_fix_done(&r->fix, r->files->paths[i], path,
				 res->fixed)) {
			/* not written: the findings are those of the text
			 * on disk, not of the fix that was not saved */
			r->failing = 1;
			res->rc = recheck(r, i, res);
		}
		/* --diff shows only the diff; --fix on stdin only the text */
		if (r->fix.mode == CLI_FIX_DIFF ||
		    strcmp(r->files->paths[i], "-") == 0) {
			r->files_checked++;
			return 0;
		}
	}
	/* a file that could not be read, or whose check failed (out of
	 * memory, an internal error), is reported in every output and
	 * the run goes on: one file never costs the others' results */
	rc = res ? res->rc : SMP_ENOMEM;
	rep = res ? res->rep : NULL;
	if (res && res->fixed && !rep)
		rep = res->fixed->result->report;
	if (rc == SMP_EIO || rc == SMP_ELIMIT) {
		const char *why = res->err.message[0] ? res->err.message
						      : smp_strerror(rc);

		cli_error("cannot read '%s': %s", path, why);
		r->unreadable++;
		return not_checked(r, path, why);
	}
	if (rc) {
		char why[600];

		if (res && res->err.message[0] && rc != SMP_ENOMEM)
			snprintf(why, sizeof(why), "%s: %s", smp_strerror(rc),
				 res->err.message);
		else
			snprintf(why, sizeof(why), "%s", smp_strerror(rc));
		cli_error("cannot check '%s': %s", path, why);
		r->failed++;
		return not_checked(r, path, why);
	}
	once_per_run(r, rep, i);
	n = smp_report_count(rep);
	r->jobs += smp_report_jobs(rep);
	r->unjudged += smp_report_jobs_skipped(rep);
	if (r->files->walked[i] && n == 0 && smp_report_jobs(rep) == 0) {
		/* found by the walk, nothing to judge: said only as a count
		 * (and by --verbose), in no output */
		if (smp_report_jobs_skipped(rep) == 0) {
			r->skipped++;
			if (r->verbose)
				cli_error("skipped '%s': no training job",
					  path);
		} else if (r->verbose) {
			cli_error("skipped '%s': %zu job%s without Training "
				  "Compiler (--all-jobs judges them)",
				  path, smp_report_jobs_skipped(rep),
				  plural_s(smp_report_jobs_skipped(rep)) ? "s"
									 : "");
		}
		return 0;
	}
	r->files_checked++;
	for (k = 0; k < n; k++) {
		const struct smp_finding *f = smp_report_get(rep, k);

		if (f->severity <= SMP_SEVERITY_OFF ||
		    f->severity > SMP_SEVERITY_ERROR)
			continue;
		/* a suppressed finding counts for nothing */
		if (f->suppressed) {
			r->suppressed++;
			continue;
		}
		r->counts[f->severity]++;
		count_rule(r, f->rule, f->severity);
		if (f->severity > r->max)
			r->max = f->severity;
		if (f->severity >= r->fail_on[i])
			r->failing = 1;
	}
	rc = cli_outputs_add(r->outs, rep);
	if (rc) {
		r->status = rc;
		return 1;
	}
	return 0;
}

/* n with thousands separators: "1,702". */
static const char *
grouped(char *buf, size_t size, size_t n)
{
	char digits[32];
	size_t len = (size_t)snprintf(digits, sizeof(digits), "%zu", n), i,
	       k = 0;

	for (i = 0; i < len && k + 2 < size; i++) {
		if (i && (len - i) % 3 == 0)
			buf[k++] = ',';
		buf[k++] = digits[i];
	}
	buf[k] = '\0';
	return buf;
}

/*
 * "2 errors, 1 warning, 1 info in 3 files"; after a walk always (also
 * "no findings"), with the jobs judged and what the walk skipped:
 * "no findings in 9 files (9 jobs checked); 1,702 files without a
 * training job skipped". Nothing when named files are all well.
 */
static void
print_summary(const struct run *r)
{
	static const char *const names[] = {"", "info", "warning", "error"};
	size_t total = 0;
	int sev, first = 1;
	char num[40];

	for (sev = SMP_SEVERITY_ERROR; sev >= SMP_SEVERITY_INFO; sev--)
		total += r->counts[sev];
	if (total == 0 && r->unreadable == 0 && r->failed == 0 &&
	    r->suppressed == 0 && !r->walked)
		return;
	fflush(stdout);
	if (total == 0)
		fputs("no findings", stderr);
	for (sev = SMP_SEVERITY_ERROR; sev >= SMP_SEVERITY_INFO; sev--) {
		size_t n = r->counts[sev];

		if (!n)
			continue;
		fprintf(stderr, "%s%zu %s%s", first ? "" : ", ", n, names[sev],
			sev != SMP_SEVERITY_INFO && n != 1 ? "s" : "");
		first = 0;
	}
	if (total == 0 && r->files_checked == 0 && r->walked)
		fputs(": no Training Compiler job found", stderr);
	else
		fprintf(stderr, " in %s file%s",
			grouped(num, sizeof(num), r->files_checked),
			plural_s(r->files_checked) ? "s" : "");
	if (r->walked && r->files_checked)
		fprintf(stderr, " (%s job%s checked)",
			grouped(num, sizeof(num), r->jobs),
			plural_s(r->jobs) ? "s" : "");
	if (r->skipped)
		fprintf(stderr, "; %s file%s without a training job skipped",
			grouped(num, sizeof(num), r->skipped),
			plural_s(r->skipped) ? "s" : "");
	if (r->unjudged)
		fprintf(stderr,
			"; %s job%s without Training Compiler not judged",
			grouped(num, sizeof(num), r->unjudged),
			plural_s(r->unjudged) ? "s" : "");
	if (r->suppressed)
		fprintf(stderr, "; %zu suppressed", r->suppressed);
	if (r->unreadable)
		fprintf(stderr, "; %zu file%s could not be read", r->unreadable,
			plural_s(r->unreadable) ? "s" : "");
	if (r->failed)
		fprintf(stderr, "; %zu file%s could not be checked", r->failed,
			plural_s(r->failed) ? "s" : "");
	fputc('\n', stderr);
}

/* The total of rule i, for sorting the statistics. */
static size_t
stat_total(const struct run *r, size_t i)
{
	size_t t = 0;
	int sev;

	for (sev = SMP_SEVERITY_INFO; sev <= SMP_SEVERITY_ERROR; sev++)
		t += r->stats[i][sev];
	return t;
}

/*
 * --statistics: "  12  unknown-key  [error]", one line per rule that
 * fired, by count (most first) then rule id; a rule reported at more
 * than one severity lists them all, highest first ("[error, warning]").
 * To stdout after the report, unless a machine format writes there.
 */
static void
print_statistics(const struct run *r, FILE *f)
{
	size_t n = smp_rule_count(), i, j, k, used = 0, width = 1, idw = 1;
	size_t order[512];

	for (i = 0; i < n && used < sizeof(order) / sizeof(order[0]); i++) {
		size_t t = stat_total(r, i);
		char digits[32];

		if (!t)
			continue;
		/* insertion: count descending, then id ascending */
		for (j = used; j > 0; j--) {
			size_t o = order[j - 1], ot = stat_total(r, o);

			if (ot > t ||
			    (ot == t && strcmp(smp_rule_at(o)->id,
					       smp_rule_at(i)->id) < 0))
				break;
			order[j] = o;
		}
		order[j] = i;
		used++;
		k = (size_t)snprintf(digits, sizeof(digits), "%zu", t);
		if (k > width)
			width = k;
		if (strlen(smp_rule_at(i)->id) > idw)
			idw = strlen(smp_rule_at(i)->id);
	}
	for (j = 0; j < used; j++) {
		int sev, first = 1;

		i = order[j];
		fprintf(f, "%*zu  %-*s  [", (int)width, stat_total(r, i),
			(int)idw, smp_rule_at(i)->id);
		for (sev = SMP_SEVERITY_ERROR; sev >= SMP_SEVERITY_INFO;
		     sev--) {
			if (!r->stats[i][sev])
				continue;
			fprintf(f, "%s%s", first ? "" : ", ",
				smp_severity_name((enum smp_severity)sev));
			first = 0;
		}
		fputs("]\n", f);
	}
	if (r->walked) {
		char a[40], b[40];

		fprintf(f,
			"%s walked file%s without a training job skipped, %s "
			"job%s without Training Compiler not judged\n",
			grouped(a, sizeof(a), r->skipped),
			plural_s(r->skipped) ? "s" : "",
			grouped(b, sizeof(b), r->unjudged),
			plural_s(r->unjudged) ? "s" : "");
	}
}

/* 1 when an output shows the findings' byte edits (JSON only). */
static int
shows_edits(const struct cli_outputs *o)
{
	size_t i;

	for (i = 0; i < o->count; i++)
		if (o->items[i].format == SMP_FORMAT_JSON)
			return 1;
	return 0;
}

/* 1 when a JSON, SARIF or JUnit document goes to stdout. */
static int
machine_on_stdout(const struct cli_outputs *o)
{
	size_t i;

	for (i = 0; i < o->count; i++)
		if (!o->items[i].path &&
		    o->items[i].format != SMP_FORMAT_TEXT &&
		    o->items[i].format != SMP_FORMAT_GITHUB)
			return 1;
	return 0;
}

/* Unknown rule ids are usage errors with a did-you-mean from the table. */
static int
known_rule(const char *option, const char *id)
{
	const char *best;

	if (smp_rule_find(id))
		return 1;
	best = cli_rule_did_you_mean(id);
	if (best)
		cli_usage_error("unknown rule '%s' in '%s'; did you mean '%s'?",
				id, option, best);
	else
		cli_usage_error("unknown rule '%s' in '%s'; 'sm-preflight "
				"rules' lists them",
				id, option);
	return 0;
}

/* RULE=LEVEL for --severity. */
static int
parse_severity(struct smp_rule_override *o, const char *value, char **owned)
{
	static const char *const levels[] = {"error", "warning", "info", "off"};
	const char *eq = strchr(value, '=');
	char *id;
	int k;

	if (!eq || eq == value) {
		cli_usage_error("invalid value '%s' for '--severity'; expected "
				"RULE=LEVEL",
				value);
		return -1;
	}
	id = malloc((size_t)(eq - value) + 1);
	if (!id) {
		internal_error(SMP_ENOMEM, NULL);
		return -2;
	}
	memcpy(id, value, (size_t)(eq - value));
	id[eq - value] = '\0';
	*owned = id;
	if (!known_rule("--severity", id))
		return -1;
	k = cli_choice("--severity", eq + 1, levels, 4);
	if (k < 0)
		return -1;
	o->rule = id;
	smp_severity_parse(&o->severity, levels[k]);
	return 0;
}

/* A --baseline that cannot be used stops the run before any check. */
static int
baseline_error(int rc, const struct smp_error *err, const char *path)
{
	if (rc == SMP_ENOMEM || rc == SMP_EINTERNAL) {
		internal_error(rc, err);
		return CLI_EXIT_INTERNAL;
	}
	if (rc == SMP_EIO)
		cli_error("cannot read the baseline '%s': %s", path,
			  err->message[0] ? err->message : smp_strerror(rc));
	else if (err->line)
		cli_error("cannot use the baseline: %s:%u:%u: %s", path,
			  (unsigned)err->line, (unsigned)err->column,
			  err->message);
	else
		cli_error("cannot use the baseline '%s': %s", path,
			  err->message[0] ? err->message : smp_strerror(rc));
	return CLI_EXIT_USAGE;
}

/* --jobs N: 1 to 1024. */
static int
parse_jobs(const char *value, unsigned *out)
{
	char *end;
	long n = strtol(value, &end, 10);

	if (!*value || *end || n < 1 || n > 1024)
		return cli_usage_error("invalid value '%s' for '--jobs'; "
				       "expected a number from 1 to 1024",
				       value);
	*out = (unsigned)n;
	return CLI_EXIT_OK;
}

/*
 * Each file's context and fail-on, from the configuration of its folder
 * (contexts are created here, in this thread, before any worker starts;
 * files with the same settings share one). *first is the first file's
 * context, or the command line's when there is no file, for what is
 * reported once per run.
 */
static int
resolve_contexts(struct run *r, struct cli_configs *configs,
		 const struct cli_walk_list *files,
		 const struct smp_context **first)
{
	struct cli_profile *p;
	size_t i;
	int status;

	/* NOLINTNEXTLINE(bugprone-sizeof-expression): pointers, one a file */
	r->ctxs = calloc(files->count + 1, sizeof(*r->ctxs));
	r->fail_on = calloc(files->count + 1, 1);
	r->all_jobs = calloc(files->count + 1, 1);
	if (!r->ctxs || !r->fail_on || !r->all_jobs) {
		internal_error(SMP_ENOMEM, NULL);
		return CLI_EXIT_INTERNAL;
	}
	for (i = 0; i < files->count; i++) {
		status = cli_configs_profile(configs, files->paths[i],
					     r->stdin_name, &p);
		if (status == CLI_EXIT_OK)
			status = cli_profile_context(configs, p, &r->ctxs[i]);
		if (status != CLI_EXIT_OK)
			return status;
		r->fail_on[i] = (unsigned char)cli_profile_fail_on(p);
		r->all_jobs[i] = (unsigned char)cli_profile_all_jobs(p);
	}
	if (files->count) {
		*first = r->ctxs[0];
		return CLI_EXIT_OK;
	}
	status = cli_configs_profile(configs, ".", NULL, &p);
	if (status == CLI_EXIT_OK)
		status = cli_profile_context(configs, p, first);
	return status;
}

/*
 * --force-exclude: the named paths that the excluded patterns match (or
 * a folder above them) are dropped from inputs, as ruff does; when none
 * is left, that is said (a hook passing only excluded files exits 0).
 */
static int
force_exclude(struct cli_configs *configs, const char **inputs, size_t *n,
	      int verbose, int quiet)
{
	size_t i, k = 0, given = *n;

	for (i = 0; i < given; i++) {
		int x = cli_configs_force_excluded(configs, inputs[i]);

		if (x < 0)
			return CLI_EXIT_USAGE; /* printed */
		if (!x)
			inputs[k++] = inputs[i];
		else if (verbose)
			cli_error("skipped '%s': excluded (--force-exclude)",
				  inputs[i]);
	}
	*n = k;
	if (k == 0 && given && !quiet)
		cli_error("every path given is excluded (force-exclude); "
			  "nothing to check");
	return CLI_EXIT_OK;
}

static int
run_check(int argc, char **argv)
{
	static const char *const fail_levels[] = {"error", "warning", "info",
						  "none"};
	static const char *const colors[] = {"auto", "always", "never"};
	static const char *const scalings[] = {"linear", "sqrt"};
	static const char *const dialects[] = {
		"auto", "estimator", "model_trainer", "create_training_job"};
	struct smp_options opts = SMP_OPTIONS_INIT;
	struct smp_rule_override *overrides;
	const struct smp_context *ctx = NULL;
	struct cli_configs *configs = NULL;
	struct cli_config_args cargs;
	struct cli_walk_list files;
	struct cli_walk_filter filter;
	struct cli_select_list select, ignore, extend;
	unsigned jobs = 0;
	struct smp_baseline *baseline = NULL;
	const char *baseline_path = NULL;
	enum smp_severity fail_on = SMP_SEVERITY_ERROR;
	enum cli_color color = CLI_COLOR_AUTO;
	struct smp_error err;
	struct cli_args it;
	struct cli_outputs outs;
	struct run r;
	const char *value;
	const char **inputs, **excludes, **replaces;
	struct cli_gitignore *gitignore = NULL;
	size_t nexcludes = 0, nreplaces = 0;
	char **owned;
	size_t ninputs = 0, nowned = 0, i;
	int id, k, status = CLI_EXIT_OK, quiet = 0, statistics = 0;
	int as_walk = 0;
	const char *stale_value = NULL;
	enum smp_severity stale_sev;
	char cache_dir[1024];
	long stale_days;

	cli_outputs_init(&outs);
	memset(&cargs, 0, sizeof(cargs));
	memset(&files, 0, sizeof(files));
	memset(&r, 0, sizeof(r));
	atomic_init(&r.said_at, SIZE_MAX);
	memset(&select, 0, sizeof(select));
	memset(&extend, 0, sizeof(extend));
	memset(&ignore, 0, sizeof(ignore));
	/* every argument is at most one input, override or owned string */
	overrides = calloc((size_t)argc + 1, sizeof(*overrides));
	inputs = calloc((size_t)argc + 1, sizeof(*inputs));
	owned = calloc((size_t)argc + 1, sizeof(*owned));
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): pointers */
	excludes = calloc((size_t)argc + 1, sizeof(*excludes));
	/* NOLINTNEXTLINE(bugprone-sizeof-expression): pointers */
	replaces = calloc((size_t)argc + 1, sizeof(*replaces));
	gitignore = cli_gitignore_new();
	if (!overrides || !inputs || !owned || !excludes || !replaces ||
	    !gitignore) {
		internal_error(SMP_ENOMEM, NULL);
		status = CLI_EXIT_INTERNAL;
		goto out;
	}
	/* the AWS CLI's and SDKs' own order: --region, AWS_REGION, then
	 * AWS_DEFAULT_REGION (the library reads no environment) */
	opts.region = getenv("AWS_REGION");
	if (!opts.region || !*opts.region)
		opts.region = getenv("AWS_DEFAULT_REGION");
	cli_args_init(&it, argc, argv);
	while (status == CLI_EXIT_OK &&
	       (id = cli_args_next(&it, options,
				   sizeof(options) / sizeof(options[0]),
				   &value)) != CLI_ARG_END) {
		switch (id) {
		case CLI_ARG_POSITIONAL:
			inputs[ninputs++] = value;
			break;
		case OPT_FAIL_ON:
			k = cli_choice("--fail-on", value, fail_levels, 4);
			if (k < 0)
				status = CLI_EXIT_USAGE;
			else
				cli_fail_on_parse(&fail_on, fail_levels[k]);
			cargs.fail_on_set = 1;
			break;
		case OPT_EXIT_ZERO:
			cli_fail_on_parse(&fail_on, "none");
			cargs.fail_on_set = 1;
			break;
		case OPT_COLOR:
			k = cli_choice("--color", value, colors, 3);
			if (k < 0)
				status = CLI_EXIT_USAGE;
			else
				color = (enum cli_color)k;
			break;
		case OPT_DIALECT:
			k = cli_choice("--dialect", value, dialects, 4);
			if (k < 0 ||
			    smp_dialect_parse(&opts.dialect, dialects[k]) != 0)
				status = CLI_EXIT_USAGE;
			break;
		case OPT_INSTANCE_DATA:
			opts.instance_data_dir = value;
			break;
		case OPT_SELECT:
			status = cli_select_add(&select, "--select", value);
			break;
		case OPT_EXTEND_SELECT:
			status = cli_select_add(&extend, "--extend-select",
						value);
			break;
		case OPT_IGNORE:
			status = cli_select_add(&ignore, "--ignore", value);
			break;
		case OPT_DISABLE:
			if (!known_rule("--disable", value)) {
				status = CLI_EXIT_USAGE;
				break;
			}
			overrides[opts.override_count].rule = value;
			overrides[opts.override_count++].severity =
				SMP_SEVERITY_OFF;
			break;
		case OPT_SEVERITY:
			k = parse_severity(&overrides[opts.override_count],
					   value, &owned[nowned]);
			if (owned[nowned])
				nowned++;
			if (k == 0)
				opts.override_count++;
			else
				status = k == -2 ? CLI_EXIT_INTERNAL
						 : CLI_EXIT_USAGE;
			break;
		case OPT_BASELINE:
			baseline_path = value;
			break;
		case OPT_LR_SCALING:
			k = cli_choice("--lr-scaling", value, scalings, 2);
			if (k < 0 || smp_lr_scaling_parse(&opts.lr_scaling,
							  scalings[k]) != 0)
				status = CLI_EXIT_USAGE;
			cargs.lr_scaling_set = 1;
			break;
		case OPT_CONFIG:
			cargs.config_file = value;
			break;
		case OPT_NO_CONFIG:
			cargs.no_config = 1;
			break;
		case OPT_NO_INLINE_IGNORES:
			opts.no_inline_ignores = 1;
			break;
		case OPT_REGION:
			opts.region = value;
			break;
		case OPT_JOBS:
			status = parse_jobs(value, &jobs);
			break;
		case OPT_STDIN_FILENAME:
			r.stdin_name = value;
			break;
		case OPT_NO_SCRIPT:
			opts.no_script = 1;
			break;
		case OPT_INCLUDE_PYTHON:
			cargs.include_python = 1;
			break;
		case OPT_NO_PYTHON:
			cargs.no_python = 1;
			break;
		case OPT_ALL_JOBS:
			cargs.all_jobs = 1;
			break;
		case OPT_EXTEND_EXCLUDE:
			excludes[nexcludes++] = value;
			break;
		case OPT_EXCLUDE:
			replaces[nreplaces++] = value;
			break;
		case OPT_FORCE_EXCLUDE:
		case OPT_NO_FORCE_EXCLUDE:
			cargs.force_exclude_set = 1;
			cargs.force_exclude = id == OPT_FORCE_EXCLUDE;
			break;
		case OPT_RESPECT_GITIGNORE:
		case OPT_NO_RESPECT_GITIGNORE:
			cargs.respect_gitignore_set = 1;
			cargs.respect_gitignore = id == OPT_RESPECT_GITIGNORE;
			break;
		case OPT_VERBOSE:
			r.verbose = 1;
			break;
		case OPT_AS_WALK:
			as_walk = 1;
			break;
		case OPT_OFFLINE:
			opts.offline = 1;
			break;
		case OPT_STALE_DAYS:
			stale_value = value;
			break;
		case OPT_FORMAT:
			status = cli_outputs_format(&outs, value);
			break;
		case OPT_OUTPUT:
			status = cli_outputs_output(&outs, value);
			break;
		case OPT_RULES_URI:
			cli_outputs_rules_uri(&outs, value);
			break;
		case OPT_STATISTICS:
			statistics = 1;
			break;
		case OPT_SARIF_ROOT:
			cli_outputs_sarif_root(&outs, value);
			break;
		case OPT_QUIET:
			quiet = 1;
			break;
		/* fixes (fix.h) */
		case OPT_FIX:
			r.fix.mode = CLI_FIX_APPLY;
			break;
		case OPT_DIFF:
			r.fix.mode = CLI_FIX_DIFF;
			break;
		case OPT_SHOW_FIXES:
			r.fix.show = 1;
			break;
		case OPT_UNSAFE_FIXES:
			r.fix.unsafe = 1;
			break;
		case OPT_HELP:
			cli_command_help(stdout, &cli_cmd_check);
			goto out;
		default:
			status = CLI_EXIT_USAGE;
			break;
		}
	}
	if (status != CLI_EXIT_OK)
		goto out;
	if (ninputs == 0) {
		status = cli_usage_error(
			"nothing to check; give spec files, directories or "
			"'-' for stdin");
		goto out;
	}
	if (cli_stale_days(stale_value, &stale_days)) {
		status = CLI_EXIT_USAGE;
		goto out;
	}
	opts.overrides = overrides;
	/* with --select, --extend-select adds to it; else to the files' */
	for (i = 0; select.set && status == 0 && i < extend.count; i++)
		status = cli_select_add(&select, "--extend-select",
					extend.names[i]);
	if (status)
		goto out;
	cargs.extend_select = (const char *const *)extend.names;
	cargs.extend_count = select.set ? 0 : extend.count;
	opts.select.names = (const char *const *)select.names;
	opts.select.count = select.count;
	opts.ignore.names = (const char *const *)ignore.names;
	opts.ignore.count = ignore.count;
	cargs.extend_exclude = excludes;
	cargs.extend_exclude_count = nexcludes;
	cargs.exclude = replaces;
	cargs.exclude_count = nreplaces;
	cargs.select_set = select.set;
	cargs.ignore_set = ignore.set;
	/* a refreshed copy in the user's cache, when valid (update-data) */
	opts.cache_dir = cli_cache_dir(cache_dir, sizeof(cache_dir));
	cargs.fail_on = fail_on;
	cargs.opts = &opts;
	status = cli_configs_new(&configs, &cargs);
	if (status != CLI_EXIT_OK)
		goto out;
	status = force_exclude(configs, inputs, &ninputs, r.verbose, quiet);
	if (status != CLI_EXIT_OK)
		goto out;
	/* every file first, sorted: the output order (walk.c) */
	cli_configs_filter(configs, gitignore, &filter);
	k = cli_walk_collect(&files, inputs, ninputs, &filter, r.stdin_name);
	if (k == CLI_WALK_ENOMEM) {
		internal_error(SMP_ENOMEM, NULL);
		status = CLI_EXIT_INTERNAL;
		goto out;
	}
	if (k) {
		status = CLI_EXIT_USAGE; /* a configuration file, printed */
		goto out;
	}
	/* a folder with nothing to check is said, and the run exits 2 like
	 * an input that could not be read (nothing at all: at once) */
	for (i = 0; i < files.empty_count; i++)
		cli_error("%s: no job files (*.yaml, *.yml, *.json%s, or the "
			  "configuration's extensions; hidden and ignored "
			  "entries are skipped)",
			  files.empty[i],
			  cargs.no_python ? "" : ", *.py, *.ipynb");
	for (i = 0; as_walk && i < files.count; i++)
		files.walked[i] =
			(unsigned char)(strcmp(files.paths[i], "-") != 0);
	for (i = 0; i < files.count && !r.walked; i++)
		r.walked = files.walked[i];
	if (files.count == 0 && files.empty_count) {
		status = CLI_EXIT_USAGE;
		goto out;
	}
	status = resolve_contexts(&r, configs, &files, &ctx);
	if (status != CLI_EXIT_OK)
		goto out;
	/* what is reported once per run goes by the first file's fail-on */
	if (files.count)
		fail_on = (enum smp_severity)r.fail_on[0];

	if (baseline_path) {
		memset(&err, 0, sizeof(err));
		k = smp_baseline_new(&baseline, ctx, baseline_path, NULL, 0,
				     &err);
		if (k) {
			status = baseline_error(k, &err, baseline_path);
			goto out;
		}
	}

	cli_outputs_sources(&outs, files.paths, files.count);
	status = cli_outputs_open(&outs, ctx, cli_fail_level(fail_on), color);
	if (status != CLI_EXIT_OK)
		goto out;
	r.ctx = ctx;
	r.files = &files;
	r.baseline = baseline;
	r.fix.baseline = baseline;
	r.outs = &outs;
	r.text_flags = cli_use_color(color) ? SMP_TEXT_COLOR : 0;
	/* --fix and --diff check through smp_fix(), which makes its own */
	r.check_flags = shows_edits(&outs) ? 0u : SMP_CHECK_NO_EDITS;
	r.said = calloc(smp_rule_count(), 1);
	r.once = calloc(smp_rule_count(), sizeof(*r.once));
	if (!r.said || !r.once) {
		internal_error(SMP_ENOMEM, NULL);
		status = CLI_EXIT_INTERNAL;
		goto out;
	}
	{
		size_t j;

		for (j = 0; j < smp_rule_count(); j++)
			if (smp_rule_at(j)->once_per_run)
				r.once[r.nonce++] = j;
	}
	if (statistics) {
		r.stats = calloc(smp_rule_count(), sizeof(*r.stats));
		if (!r.stats) {
			internal_error(SMP_ENOMEM, NULL);
			status = CLI_EXIT_INTERNAL;
			goto out;
		}
	}
	/* data-stale: once per run, ahead of the specs' findings */
	status = cli_outputs_data_age(&outs, ctx, stale_days, &stale_sev);
	if (status != CLI_EXIT_OK)
		goto out;
	if (stale_sev != SMP_SEVERITY_OFF) {
		r.counts[stale_sev]++;
		count_rule(&r, "data-stale", stale_sev);
		r.max = stale_sev;
		if (stale_sev >= fail_on)
			r.failing = 1;
	}
	{
		static const struct cli_jobs_ops ops = {check_work, check_done,
							check_discard};

		k = cli_jobs_run(files.count, jobs ? jobs : cli_jobs_default(),
				 &ops, &r);
		if (k < 0 && r.status == CLI_EXIT_OK) {
			internal_error(SMP_ENOMEM, NULL);
			r.status = CLI_EXIT_INTERNAL;
		}
	}
	/* the JSON summary's "walk": what the walk skipped */
	for (i = 0; r.walked && i < outs.count; i++)
		if (outs.items[i].em)
			smp_emitter_walk_summary(outs.items[i].em, r.skipped,
						 r.jobs, r.unjudged);
	if (r.status == CLI_EXIT_OK)
		r.status = cli_outputs_finish(&outs);
	if (r.stats && r.status == CLI_EXIT_OK)
		print_statistics(&r,
				 machine_on_stdout(&outs) ? stderr : stdout);
	if (fflush(stdout) != 0 && r.status == CLI_EXIT_OK) {
		cli_error("cannot write the output");
		r.status = CLI_EXIT_USAGE;
	}
	if (r.status != CLI_EXIT_OK)
		status = r.status;
	else if (r.unreadable || r.failed || files.empty_count)
		status = CLI_EXIT_USAGE;
	else if (r.failing)
		status = CLI_EXIT_FINDINGS;
	/* --diff: 1 when there is a diff, as ruff */
	if (r.fix.mode == CLI_FIX_DIFF && status == CLI_EXIT_FINDINGS)
		status = r.fix.files_changed ? CLI_EXIT_FINDINGS : CLI_EXIT_OK;
	else if (r.fix.mode == CLI_FIX_DIFF && status == CLI_EXIT_OK &&
		 r.fix.files_changed)
		status = CLI_EXIT_FINDINGS;
	if (!quiet && r.status == CLI_EXIT_OK && r.fix.mode != CLI_FIX_DIFF)
		print_summary(&r);
	if (!quiet && r.status == CLI_EXIT_OK && r.fix.mode)
		cli_fix_summary(&r.fix);
out:
	cli_outputs_release(&outs);
	smp_baseline_free(baseline);
	free(r.ctxs);
	free(r.fail_on);
	free(r.all_jobs);
	free(r.stats);
	free(r.said);
	free(r.once);
	cli_walk_list_free(&files);
	cli_configs_free(configs);
	for (i = 0; owned && i < nowned; i++)
		free(owned[i]);
	free(owned);
	free(inputs);
	free(excludes);
	free(replaces);
	cli_gitignore_free(gitignore);
	free(overrides);
	cli_select_release(&select);
	cli_select_release(&extend);
	cli_select_release(&ignore);
	return status;
}

const struct cli_command cli_cmd_check = {
	"check",
	"[OPTION]... [FILE|DIR|-]...",
	"Check SageMaker Training Compiler jobs: specs (YAML or JSON), Python "
	"launchers and notebooks. A DIR is walked for *.yaml, *.yml, *.json, "
	"*.py and *.ipynb, skipping hidden entries, what git ignores and "
	"build, dist, node_modules, venv, __pycache__ ...; in a walk, files "
	"without a training job and jobs that do not use Training Compiler "
	"are skipped and counted. '-' reads stdin. This is the default "
	"command.",
	"Exit status: 0 no finding at or above --fail-on, 1 findings at or "
	"above it, 2 usage error or an input that could not be read, 3 "
	"internal error.",
	options,
	sizeof(options) / sizeof(options[0]),
	run_check,
};
