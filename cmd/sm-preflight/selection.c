/* selection.c - --select and --ignore: names split, checked and kept */
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "output.h"
#include "selection.h"
#include "smpreflight.h"

/* Rule ids, then the distinct group names, then ALL. */
static size_t
candidates(const char **out, size_t cap)
{
	size_t i, j, n = 0, count = smp_rule_count();

	for (i = 0; i < count && n < cap; i++)
		out[n++] = smp_rule_at(i)->id;
	for (i = 0; i < count && n < cap; i++) {
		const char *g = smp_rule_at(i)->group;

		for (j = 0; j < n; j++)
			if (strcmp(out[j], g) == 0)
				break;
		if (j == n)
			out[n++] = g;
	}
	if (n < cap)
		out[n++] = "ALL";
	return n;
}

/*
 * 1 when name is a rule id, a group name or ALL; else prints a usage
 * error naming option (e.g. "--select", or "select" with the config
 * file's name before it) with a did-you-mean, and returns 0.
 */
static int
cli_select_known(const char *option, const char *name)
{
	const char *names[512];
	const char *best;
	size_t i, n = candidates(names, sizeof(names) / sizeof(names[0]));

	for (i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return 1;
	best = cli_did_you_mean(name, names, n);
	if (best)
		cli_usage_error("unknown rule or group '%s' in '%s'; did you "
				"mean '%s'?",
				name, option, best);
	else
		cli_usage_error("unknown rule or group '%s' in '%s'; "
				"'sm-preflight rules' lists them",
				name, option);
	return 0;
}

int
cli_select_add(struct cli_select_list *l, const char *option, const char *value)
{
	const char *p = value, *comma;
	char *name, **grown;
	size_t len;

	l->set = 1;
	for (;;) {
		comma = strchr(p, ',');
		len = comma ? (size_t)(comma - p) : strlen(p);
		while (len && (*p == ' ' || *p == '\t')) {
			p++;
			len--;
		}
		while (len && (p[len - 1] == ' ' || p[len - 1] == '\t'))
			len--;
		if (len) {
			if (l->count == l->cap) {
				size_t cap = l->cap ? l->cap * 2 : 8;

				grown = realloc(l->names, cap * sizeof(*grown));
				if (!grown)
					goto oom;
				l->names = grown;
				l->cap = cap;
			}
			name = malloc(len + 1);
			if (!name)
				goto oom;
			memcpy(name, p, len);
			name[len] = '\0';
			l->names[l->count++] = name;
			if (!cli_select_known(option, name))
				return CLI_EXIT_USAGE;
		}
		if (!comma)
			return CLI_EXIT_OK;
		p = comma + 1;
	}
oom:
	cli_error("internal error: %s", smp_strerror(SMP_ENOMEM));
	return CLI_EXIT_INTERNAL;
}

void
cli_select_release(struct cli_select_list *l)
{
	size_t i;

	for (i = 0; i < l->count; i++)
		free(l->names[i]);
	free(l->names);
	memset(l, 0, sizeof(*l));
}
