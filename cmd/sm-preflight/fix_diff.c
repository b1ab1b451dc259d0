/*
 * fix_diff.c - the unified diff of `check --diff` (fix.h): lines, the
 * common head and tail set aside, the middle by longest common
 * subsequence (a fix touches a few lines, so the middle is small), then
 * hunks with three lines of context, as `diff -u` writes them.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fix.h"

#define CONTEXT ((size_t)3)
/* a middle larger than this many line pairs is one replaced block */
#define LCS_MAX ((size_t)4 * 1024 * 1024)

struct line {
	const char *s;
	size_t n; /* with its line break, if any */
};

struct lines {
	struct line *items;
	size_t count;
};

static int
split(struct lines *l, const char *s, size_t len)
{
	const char *nl, *at = s, *end = s + len;
	size_t n = 0;

	while (at < end && (nl = memchr(at, '\n', (size_t)(end - at)))) {
		at = nl + 1;
		n++;
	}
	l->items = calloc(n + 2, sizeof(*l->items));
	l->count = 0;
	if (!l->items)
		return -1;
	for (at = s; at < end && (nl = memchr(at, '\n', (size_t)(end - at)));
	     at = nl + 1) {
		l->items[l->count].s = at;
		l->items[l->count++].n = (size_t)(nl + 1 - at);
	}
	if (at < end) {
		l->items[l->count].s = at;
		l->items[l->count++].n = (size_t)(end - at);
	}
	return 0;
}

static int
same(const struct line *a, const struct line *b)
{
	return a->n == b->n && memcmp(a->s, b->s, a->n) == 0;
}

/* One step of the edit script: ' ' kept, '-' removed, '+' added. */
struct op {
	char kind;
	const struct line *line;
};

/* The edit script of a[0..n) to b[0..m), into ops; its length. */
static size_t
script(const struct line *a, size_t n, const struct line *b, size_t m,
       struct op *ops)
{
	size_t k = 0, i, j, head = 0, tail = 0;
	uint32_t *t = NULL;

	while (head < n && head < m && same(&a[head], &b[head]))
		head++;
	while (tail < n - head && tail < m - head &&
	       same(&a[n - 1 - tail], &b[m - 1 - tail]))
		tail++;
	for (i = 0; i < head; i++)
		ops[k++] = (struct op){' ', &a[i]};
	n -= head + tail;
	m -= head + tail;
	if (n && m && (n + 1) * (m + 1) <= LCS_MAX)
		t = calloc((n + 1) * (m + 1), sizeof(*t));
	if (t) {
		/* t[i][j]: the LCS of a[head+i..] and b[head+j..] */
		for (i = n; i-- > 0;)
			for (j = m; j-- > 0;)
				t[i * (m + 1) + j] =
					same(&a[head + i], &b[head + j])
						? t[(i + 1) * (m + 1) + j + 1] +
							  1
					: t[(i + 1) * (m + 1) + j] >
							t[i * (m + 1) + j + 1]
						? t[(i + 1) * (m + 1) + j]
						: t[i * (m + 1) + j + 1];
		for (i = 0, j = 0; i < n || j < m;) {
			if (i < n && j < m &&
			    same(&a[head + i], &b[head + j])) {
				ops[k++] = (struct op){' ', &a[head + i]};
				i++, j++;
			} else if (j == m ||
				   (i < n && t[(i + 1) * (m + 1) + j] >=
						     t[i * (m + 1) + j + 1]))
				ops[k++] = (struct op){'-', &a[head + i++]};
			else
				ops[k++] = (struct op){'+', &b[head + j++]};
		}
		free(t);
	} else {
		for (i = 0; i < n; i++)
			ops[k++] = (struct op){'-', &a[head + i]};
		for (j = 0; j < m; j++)
			ops[k++] = (struct op){'+', &b[head + j]};
	}
	for (i = 0; i < tail; i++)
		ops[k++] = (struct op){' ', &a[head + n + i]};
	return k;
}

static void
put_line(FILE *out, char kind, const struct line *l)
{
	fputc(kind, out);
	fwrite(l->s, 1, l->n, out);
	if (!l->n || l->s[l->n - 1] != '\n')
		fputs("\n\\ No newline at end of file\n", out);
}

/* "-5,3" counts as diff -u writes them: a start of 0 for no lines. */
static void
put_range(FILE *out, char sign, size_t start, size_t count)
{
	if (count == 1)
		fprintf(out, "%c%zu", sign, start);
	else
		fprintf(out, "%c%zu,%zu", sign, count ? start : start - 1,
			count);
}

static void
hunks(FILE *out, const struct op *ops, size_t k)
{
	size_t i = 0, la = 1, lb = 1;

	while (i < k) {
		size_t first, end, j, ca = 0, cb = 0, sa, sb, last;

		while (i < k && ops[i].kind == ' ')
			i++, la++, lb++;
		if (i == k)
			break;
		/* the hunk: back CONTEXT lines, on until CONTEXT*2 kept
		 * lines in a row (or the end) follow a change */
		first = i >= CONTEXT ? i - CONTEXT : 0;
		sa = la - (i - first);
		sb = lb - (i - first);
		last = i;
		for (end = i; end < k; end++) {
			if (ops[end].kind != ' ')
				last = end;
			else if (end - last > 2 * CONTEXT)
				break;
		}
		end = last + CONTEXT + 1 < k ? last + CONTEXT + 1 : k;
		for (j = first; j < end; j++) {
			if (ops[j].kind != '+')
				ca++;
			if (ops[j].kind != '-')
				cb++;
		}
		fputs("@@ ", out);
		put_range(out, '-', sa, ca);
		fputc(' ', out);
		put_range(out, '+', sb, cb);
		fputs(" @@\n", out);
		for (j = first; j < end; j++)
			put_line(out, ops[j].kind, ops[j].line);
		for (j = i; j < end; j++) {
			if (ops[j].kind != '+')
				la++;
			if (ops[j].kind != '-')
				lb++;
		}
		i = end;
	}
}

/* See fix.h. */
void
cli_fix_diff(FILE *out, const char *name, const char *a, size_t alen,
	     const char *b, size_t blen)
{
	struct lines la, lb;
	struct op *ops;
	size_t k;

	if (alen == blen && memcmp(a, b, alen) == 0)
		return;
	if (split(&la, a, alen) || split(&lb, b, blen)) {
		free(la.items);
		return;
	}
	ops = calloc(la.count + lb.count + 1, sizeof(*ops));
	if (ops) {
		k = script(la.items, la.count, lb.items, lb.count, ops);
		fprintf(out, "--- a/%s\n+++ b/%s\n", name, name);
		hunks(out, ops, k);
		free(ops);
	}
	free(la.items);
	free(lb.items);
}
