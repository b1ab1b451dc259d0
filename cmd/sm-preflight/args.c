/* args.c - option parsing, did-you-mean and help for the sub-commands */
#include <ctype.h>
#include <stdarg.h>
#include <string.h>

#include "args.h"
#include "output.h"

/* Parsing starts after the command name. */
void
cli_args_init(struct cli_args *it, int argc, char **argv)
{
	it->argc = argc;
	it->argv = argv;
	it->next = 1;
	it->options_done = 0;
}

static int arg_error(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

/* A usage error inside cli_args_next(). */
static int
arg_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_verror(fmt, ap);
	va_end(ap);
	fputs("Try 'sm-preflight --help'.\n", stderr);
	return CLI_ARG_ERROR;
}

static const struct cli_option *
find_long(const struct cli_option *opts, size_t count, const char *name,
	  size_t len)
{
	size_t i;

	for (i = 0; i < count; i++)
		if (strlen(opts[i].name) == len &&
		    strncmp(opts[i].name, name, len) == 0)
			return &opts[i];
	return NULL;
}

static int
unknown_option(const char *arg, size_t len, const struct cli_option *opts,
	       size_t count)
{
	const char *names[64];
	const char *best;
	char word[128];
	size_t i, n = 0;

	if (len >= sizeof(word))
		len = sizeof(word) - 1;
	memcpy(word, arg, len);
	word[len] = '\0';
	for (i = 0; i < count && n < 64; i++)
		names[n++] = opts[i].name;
	best = cli_did_you_mean(word, names, n);
	if (best)
		return arg_error("unknown option '%s'; did you mean '%s'?",
				 word, best);
	return arg_error("unknown option '%s'", word);
}

/*
 * GNU-style: options may follow operands; "--" ends them; "-" alone is
 * an operand (stdin). Values come as "--opt=v" or as the next argument.
 */
int
cli_args_next(struct cli_args *it, const struct cli_option *opts, size_t count,
	      const char **value)
{
	const struct cli_option *o = NULL;
	const char *arg, *eq;
	size_t i;

	*value = NULL;
	if (it->next >= it->argc)
		return CLI_ARG_END;
	arg = it->argv[it->next++];
	if (it->options_done || arg[0] != '-' || arg[1] == '\0') {
		*value = arg;
		return CLI_ARG_POSITIONAL;
	}
	if (strcmp(arg, "--") == 0) {
		it->options_done = 1;
		return cli_args_next(it, opts, count, value);
	}
	if (arg[1] != '-') {
		/* one short alias, e.g. -q; no clusters */
		for (i = 0; i < count && arg[2] == '\0'; i++)
			if (opts[i].short_name && opts[i].short_name == arg[1])
				o = &opts[i];
		if (!o)
			return unknown_option(arg, strlen(arg), opts, count);
		if (o->value_name) {
			if (it->next >= it->argc)
				return arg_error("option '%s' needs a value",
						 arg);
			*value = it->argv[it->next++];
		}
		return o->id;
	}
	eq = strchr(arg, '=');
	o = find_long(opts, count, arg, eq ? (size_t)(eq - arg) : strlen(arg));
	if (!o)
		return unknown_option(arg,
				      eq ? (size_t)(eq - arg) : strlen(arg),
				      opts, count);
	if (!o->value_name) {
		if (eq)
			return arg_error("option '%s' takes no value", o->name);
		return o->id;
	}
	if (eq) {
		*value = eq + 1;
	} else {
		if (it->next >= it->argc)
			return arg_error("option '%s' needs a value (%s)",
					 o->name, o->value_name);
		*value = it->argv[it->next++];
	}
	return o->id;
}

/*
 * Optimal string alignment distance, case-insensitive, capped: words
 * longer than 63 characters are never close.
 */
static size_t
distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t rows[3][64];
	size_t *pp = rows[0], *prev = rows[1], *cur = rows[2], *t;

	if (la > 63 || lb > 63)
		return (size_t)-1;
	for (j = 0; j <= lb; j++)
		prev[j] = j;
	for (i = 1; i <= la; i++) {
		cur[0] = i;
		for (j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]);
			int cb = tolower((unsigned char)b[j - 1]);
			size_t best = prev[j - 1] + (ca != cb);

			if (prev[j] + 1 < best)
				best = prev[j] + 1;
			if (cur[j - 1] + 1 < best)
				best = cur[j - 1] + 1;
			if (i > 1 && j > 1 &&
			    ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb &&
			    pp[j - 2] + 1 < best)
				best = pp[j - 2] + 1;
			cur[j] = best;
		}
		t = pp;
		pp = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb];
}

/* 1 when word (at least 3 characters) starts the longer name of. */
static int
is_prefix(const char *word, const char *of)
{
	size_t n = strlen(word), i;

	if (n < 3 || strlen(of) <= n)
		return 0;
	for (i = 0; i < n; i++)
		if (tolower((unsigned char)word[i]) !=
		    tolower((unsigned char)of[i]))
			return 0;
	return 1;
}

/*
 * An exact case-insensitive match first, then a unique-enough prefix
 * ("--fail" for "--fail-on"), then the nearest by edit distance.
 */
const char *
cli_did_you_mean(const char *word, const char *const *candidates, size_t count)
{
	size_t len = strlen(word), limit, best_d = (size_t)-1, i, d;
	const char *best = NULL;

	for (i = 0; i < count; i++)
		if (distance(word, candidates[i]) == 0)
			return candidates[i];
	for (i = 0; i < count; i++)
		if (is_prefix(word, candidates[i]))
			return candidates[i];
	limit = len < 4 ? 1 : len < 8 ? 2 : 3;
	for (i = 0; i < count; i++) {
		d = distance(word, candidates[i]);
		if (d <= limit && d < best_d) {
			best_d = d;
			best = candidates[i];
		}
	}
	return best;
}

/* Usage errors all end with the same pointer to --help. */
int
cli_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_verror(fmt, ap);
	va_end(ap);
	fputs("Try 'sm-preflight --help'.\n", stderr);
	return CLI_EXIT_USAGE;
}

/* A closed set of values: an unknown one gets did-you-mean or the list. */
int
cli_choice(const char *option, const char *value, const char *const *names,
	   size_t count)
{
	const char *best;
	char list[256];
	size_t i, n = 0;

	for (i = 0; i < count; i++)
		if (strcmp(value, names[i]) == 0)
			return (int)i;
	best = cli_did_you_mean(value, names, count);
	if (best) {
		cli_usage_error("invalid value '%s' for '%s'; did you mean "
				"'%s'?",
				value, option, best);
		return -1;
	}
	list[0] = '\0';
	for (i = 0; i < count && n < sizeof(list); i++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s",
				      i == 0           ? ""
				      : i + 1 == count ? " or "
						       : ", ",
				      names[i]);
	cli_usage_error("invalid value '%s' for '%s'; expected %s", value,
			option, list);
	return -1;
}

/* Two columns; a long left column puts the help on the next line. */
void
cli_print_options(FILE *f, const struct cli_option *opts, size_t count)
{
	char left[64];
	size_t i;

	for (i = 0; i < count; i++) {
		const struct cli_option *o = &opts[i];
		int n;

		if (o->short_name)
			n = snprintf(left, sizeof(left), "-%c, %s%s%s",
				     o->short_name, o->name,
				     o->value_name ? " " : "",
				     o->value_name ? o->value_name : "");
		else
			n = snprintf(left, sizeof(left), "    %s%s%s", o->name,
				     o->value_name ? " " : "",
				     o->value_name ? o->value_name : "");
		if (n >= 24) {
			fprintf(f, "  %s\n", left);
			cli_wrap(f, o->help, 26, 0);
		} else {
			fprintf(f, "  %-24s", left);
			cli_wrap(f, o->help, 26, 26);
		}
	}
}

/* Usage line, summary, options and epilog of one command. */
void
cli_command_help(FILE *f, const struct cli_command *cmd)
{
	fprintf(f, "Usage: sm-preflight %s %s\n\n", cmd->name, cmd->synopsis);
	cli_wrap(f, cmd->summary, 0, 0);
	if (cmd->option_count) {
		fputs("\nOptions:\n", f);
		cli_print_options(f, cmd->options, cmd->option_count);
	}
	if (cmd->epilog) {
		fputc('\n', f);
		cli_wrap(f, cmd->epilog, 0, 0);
	}
}

/* See args.h. */
int
cli_help(const struct cli_command *cmd)
{
	cli_command_help(stdout, cmd);
	return fflush(stdout) ? CLI_EXIT_USAGE : CLI_EXIT_OK;
}
