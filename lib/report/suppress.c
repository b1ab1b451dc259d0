/*
 * suppress.c - inline suppression comments (README "Suppressing a finding"):
 * parsing
 * "# sm-preflight: ignore[rule-id,...] reason until=YYYY-MM-DD" and
 * applying it to the findings of the line it governs.
 *
 * Why a text scan: the loaders keep no comments (libyaml reports none).
 * A '#' is a YAML comment only at the start of a line or after blank
 * space, and not inside a quoted or block scalar; the parsed documents
 * know where every scalar lies, so each candidate is checked against
 * them. Specs that never mention "sm-preflight" cost one memchr-like scan.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "report/suppress.h"
#include "util/alloc.h"
#include "report/rule_table.h"
#include "util/text.h"

#define MARKER "sm-preflight"
#define MARKER_LEN (sizeof(MARKER) - 1)
#define UNTIL "until="
#define UNTIL_LEN (sizeof(UNTIL) - 1)

/* One directive found in the text. */
struct found {
	struct smp_suppress_comment c;
	const char *text; /* what follows the '#' */
	uint32_t line;    /* of the comment */
	struct smp_pos start, end;
	uint32_t target; /* the line it governs; 0: none (end of file) */
	int own_line;    /* nothing but blank space before the '#' */
	unsigned char used[SMP_SUPPRESS_MAX_IDS];
};

static int
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* where the marker's rarest byte in specs and sources sits in it */
#define MARKER_DASH 2

int
smp__suppress_marked(const char *s, size_t len)
{
	size_t i = MARKER_DASH;

	/* every marker has its '-' there: only those are compared */
	while (i + MARKER_LEN - MARKER_DASH <= len) {
		const char *p = memchr(s + i, '-', len - i);

		if (!p)
			return 0;
		i = (size_t)(p - s);
		if (i + MARKER_LEN - MARKER_DASH <= len &&
		    memcmp(p - MARKER_DASH, MARKER, MARKER_LEN) == 0)
			return 1;
		i++;
	}
	return 0;
}

static void invalid(struct smp_suppress_comment *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
invalid(struct smp_suppress_comment *c, const char *fmt, ...)
{
	va_list ap;

	c->kind = SMP_SUPPRESS_INVALID;
	va_start(ap, fmt);
	vsnprintf(c->why, sizeof(c->why), fmt, ap);
	va_end(ap);
}

/* How much of a word a message quotes (%.*s): 30 bytes at most. */
static int
quoted_len(size_t n)
{
	return (int)(n > 30 ? 30 : n);
}

static int
leap(int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/* "YYYY-MM-DD" naming a day that exists. */
static int
valid_date(const char *s, size_t len)
{
	static const int mdays[] = {31, 28, 31, 30, 31, 30,
				    31, 31, 30, 31, 30, 31};
	int y, m, d;
	size_t i;

	if (len != 10 || s[4] != '-' || s[7] != '-')
		return 0;
	for (i = 0; i < 10; i++)
		if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9'))
			return 0;
	y = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 +
	    (s[3] - '0');
	m = (s[5] - '0') * 10 + (s[6] - '0');
	d = (s[8] - '0') * 10 + (s[9] - '0');
	if (m < 1 || m > 12 || d < 1)
		return 0;
	return d <= mdays[m - 1] + (m == 2 && leap(y));
}

/* Checks every id against the rule table; the first unknown one makes
 * the comment invalid, with the nearest known id when one is close. */
static void
check_ids(struct smp_suppress_comment *c, const char *text)
{
	const char *ids[SMP_RULE_COUNT];
	char id[64];
	size_t i, k;

	for (k = 0; k < SMP_RULE_COUNT; k++)
		ids[k] = smp__rule_id((enum smp_rule_id)k);
	for (i = 0; i < c->id_count; i++) {
		enum smp_rule_id r;
		const char *best;

		snprintf(id, sizeof(id), "%.*s", (int)c->id_len[i],
			 text + c->id_off[i]);
		if (c->id_len[i] < sizeof(id) && smp__rule_lookup(&r, id) == 0)
			continue;
		best = smp__did_you_mean(id, ids, SMP_RULE_COUNT);
		if (best)
			invalid(c,
				"unknown rule '%s' in the suppression; did "
				"you mean '%s'?",
				id, best);
		else
			invalid(c,
				"unknown rule '%s' in the suppression; "
				"'sm-preflight rules' lists them",
				id);
		return;
	}
}

/* The list between '[' and ']': ids separated by commas. */
static size_t
parse_ids(struct smp_suppress_comment *c, const char *t, size_t len, size_t i)
{
	for (;;) {
		size_t start, end;

		while (i < len && is_blank(t[i]))
			i++;
		start = i;
		while (i < len && t[i] != ',' && t[i] != ']' && !is_blank(t[i]))
			i++;
		end = i;
		while (i < len && is_blank(t[i]))
			i++;
		if (i >= len) {
			invalid(c, "missing ']' after the rule ids");
			return len;
		}
		if (end == start) {
			invalid(c, "empty rule id in 'ignore[...]'; list the "
				   "rules to suppress");
			return len;
		}
		if (t[i] != ',' && t[i] != ']') {
			invalid(c, "rule ids in 'ignore[...]' are separated by "
				   "commas");
			return len;
		}
		if (c->id_count == SMP_SUPPRESS_MAX_IDS) {
			invalid(c, "more than 16 rule ids in one suppression");
			return len;
		}
		c->id_off[c->id_count] = start;
		c->id_len[c->id_count++] = end - start;
		if (t[i++] == ']')
			return i;
	}
}

/* The reason and until= date after ']'. */
static void
parse_tail(struct smp_suppress_comment *c, const char *t, size_t len, size_t i)
{
	size_t k, end = len, rest;

	while (end > i && (is_blank(t[end - 1]) || t[end - 1] == '\r'))
		end--;
	while (i < end && is_blank(t[i]))
		i++;
	/* until= as a word of its own, anywhere in the reason */
	for (k = i; k + UNTIL_LEN <= end; k++) {
		size_t v = k + UNTIL_LEN, e = v;

		if ((k > i && !is_blank(t[k - 1])) ||
		    memcmp(t + k, UNTIL, UNTIL_LEN) != 0)
			continue;
		while (e < end && !is_blank(t[e]))
			e++;
		if (!valid_date(t + v, e - v)) {
			invalid(c,
				"invalid date 'until=%.*s'; write "
				"until=YYYY-MM-DD",
				quoted_len(e - v), t + v);
			return;
		}
		memcpy(c->until, t + v, 10);
		c->until[10] = '\0';
		c->until_off = k;
		c->until_len = e - k;
		break;
	}
	c->reason_off = i;
	c->reason_len = end - i;
	rest = c->reason_len - c->until_len;
	if (rest == 0) {
		invalid(c,
			"a suppression needs a reason after ']': say why the "
			"finding does not apply");
		return;
	}
	c->kind = SMP_SUPPRESS_VALID;
}

void
smp__suppress_parse(struct smp_suppress_comment *out, const char *text,
		    size_t len)
{
	size_t i = 0, w;

	memset(out, 0, sizeof(*out));
	while (i < len && is_blank(text[i]))
		i++;
	if (len - i < MARKER_LEN + 1 ||
	    memcmp(text + i, MARKER ":", MARKER_LEN + 1) != 0)
		return; /* an ordinary comment */
	i += MARKER_LEN + 1;
	while (i < len && is_blank(text[i]))
		i++;
	w = i;
	while (i < len && text[i] != '[' && !is_blank(text[i]))
		i++;
	if (i - w != 6 || memcmp(text + w, "ignore", 6) != 0) {
		invalid(out,
			"unknown sm-preflight directive '%.*s'; write "
			"'ignore[rule-id,...] reason'",
			quoted_len(i - w), text + w);
		return;
	}
	while (i < len && is_blank(text[i]))
		i++;
	if (i >= len || text[i] != '[') {
		invalid(out,
			"'ignore' needs the rules to suppress in brackets: "
			"'ignore[rule-id,...] reason'");
		return;
	}
	i = parse_ids(out, text, len, i + 1);
	if (out->kind == SMP_SUPPRESS_INVALID)
		return;
	check_ids(out, text);
	if (out->kind == SMP_SUPPRESS_INVALID)
		return;
	parse_tail(out, text, len, i);
}

/* 1 when offset off lies inside a scalar of the tree at n. */
static int
inside_scalar(const struct smp_node *n, size_t off, unsigned depth)
{
	size_t i;

	if (!n || depth > 256 || off < n->start.offset || off >= n->end.offset)
		return 0;
	switch (n->kind) {
	case SMP_NODE_SCALAR:
		return 1;
	case SMP_NODE_MAPPING:
		for (i = 0; i < n->u.mapping.count; i++)
			if (inside_scalar(n->u.mapping.items[i].key, off,
					  depth + 1) ||
			    inside_scalar(n->u.mapping.items[i].value, off,
					  depth + 1))
				return 1;
		return 0;
	case SMP_NODE_SEQUENCE:
		for (i = 0; i < n->u.sequence.count; i++)
			if (inside_scalar(n->u.sequence.items[i], off,
					  depth + 1))
				return 1;
		return 0;
	}
	return 0;
}

static int
in_scalar(const struct smp_docs *docs, size_t off)
{
	size_t i;

	for (i = 0; docs && i < docs->count; i++)
		if (inside_scalar(docs->items[i].root, off, 0))
			return 1;
	return 0;
}

/* Position of buf[off] on a line that starts at line_start. */
static struct smp_pos
pos_on_line(const char *buf, size_t line_start, uint32_t line, size_t off)
{
	struct smp_pos p;
	size_t i;

	p.line = line;
	p.column = 1;
	p.offset = off;
	for (i = line_start; i < off; i++)
		if (((unsigned char)buf[i] & 0xC0) != 0x80)
			p.column++;
	return p;
}

/* The end of the line starting at s, and where the next one starts. */
static size_t
line_end(const char *buf, size_t len, size_t s, size_t *next)
{
	size_t e = s;

	while (e < len && buf[e] != '\n' && buf[e] != '\r')
		e++;
	*next = e;
	if (e < len)
		*next = e + (buf[e] == '\r' && e + 1 < len && buf[e + 1] == '\n'
				     ? 2
				     : 1);
	return e;
}

/* The first real comment of the line [s, e): its '#', or e. */
static size_t
comment_start(const char *buf, size_t s, size_t e, const struct smp_docs *docs)
{
	size_t k;

	for (k = s; k < e; k++)
		if (buf[k] == '#' && (k == s || is_blank(buf[k - 1])) &&
		    !in_scalar(docs, k))
			return k;
	return e;
}

/* Finds every directive; *pending counts those still waiting for the
 * line they govern. */
static int
scan(struct smp_report *rep, const char *buf, size_t len,
     const struct smp_docs *docs, struct found **out, size_t *count)
{
	struct found *items = NULL;
	size_t n = 0, cap = 0, s = 0, pending = 0, next;
	uint32_t line = 1;

	for (; s < len; s = next, line++) {
		size_t e = line_end(buf, len, s, &next), k = s, h;
		int blank_before;

		while (k < e && is_blank(buf[k]))
			k++;
		/* a line with content ends the wait of the comments above
		 * (a '#' inside a block scalar is content too) */
		if (k < e && pending && (buf[k] != '#' || in_scalar(docs, k))) {
			for (; pending; pending--)
				items[n - pending].target = line;
		}
		if (!smp__suppress_marked(buf + s, e - s))
			continue;
		h = comment_start(buf, s, e, docs);
		if (h == e)
			continue;
		blank_before = h == k;
		if (smp__grow(rep->alloc, (void **)&items, &cap, n + 1,
			      sizeof(*items))) {
			smp__free(rep->alloc, items);
			return SMP_ENOMEM;
		}
		memset(&items[n], 0, sizeof(items[n]));
		smp__suppress_parse(&items[n].c, buf + h + 1, e - h - 1);
		if (items[n].c.kind == SMP_SUPPRESS_NONE)
			continue;
		items[n].text = buf + h + 1;
		items[n].line = line;
		items[n].start = pos_on_line(buf, s, line, h);
		items[n].end = pos_on_line(buf, s, line, e);
		items[n].own_line = blank_before;
		if (blank_before) {
			pending++;
		} else {
			/* the comments waiting above govern this line too */
			for (; pending; pending--)
				items[n - pending].target = line;
			items[n].target = line;
		}
		n++;
	}
	*out = items;
	*count = n;
	return 0;
}

static void
today(char out[11], int64_t now)
{
	time_t t = (time_t)now;
	struct tm tm;

	if (!gmtime_r(&t, &tm)) {
		strcpy(out, "1970-01-01");
		return;
	}
	snprintf(out, 11, "%04u-%02u-%02u",
		 (unsigned)(tm.tm_year + 1900) % 10000u,
		 (unsigned)(tm.tm_mon + 1) % 100u, (unsigned)tm.tm_mday % 100u);
}

/* The reason without the until= token, in the report's arena. */
static const char *
reason_text(struct smp_report *rep, const struct found *f)
{
	const struct smp_suppress_comment *c = &f->c;
	const char *t = f->text;
	char buf[512];
	size_t n = 0, i;

	for (i = c->reason_off;
	     i < c->reason_off + c->reason_len && n + 1 < sizeof(buf); i++) {
		if (c->until_len && i == c->until_off) {
			i += c->until_len - 1;
			continue;
		}
		/* one space where until= stood between two words */
		if (is_blank(t[i]) && (n == 0 || buf[n - 1] == ' '))
			continue;
		if (is_blank(t[i]))
			buf[n++] = ' ';
		else
			buf[n++] = t[i];
	}
	while (n && buf[n - 1] == ' ')
		n--;
	return smp__arena_strndup(&rep->arena, buf, n);
}

/* Marks the findings f suppresses (those of the spec itself on its
 * target line, of a listed rule); count: findings before any were added
 * here. */
static void
apply_one(struct smp_report *rep, struct found *f, size_t count)
{
	const char *reason = NULL;
	size_t i, j;

	for (i = 0; f->target && i < count; i++) {
		struct smp_finding *x = &rep->items[i];

		if (x->suppressed || x->file != rep->file ||
		    x->line != f->target)
			continue;
		for (j = 0; j < f->c.id_count; j++) {
			if (strlen(x->rule) != f->c.id_len[j] ||
			    memcmp(x->rule, f->text + f->c.id_off[j],
				   f->c.id_len[j]) != 0)
				continue;
			if (!reason)
				reason = reason_text(rep, f);
			if (!reason) {
				rep->failed = 1;
				return;
			}
			x->suppressed = 1;
			x->suppression_reason = reason;
			f->used[j] = 1;
			break;
		}
	}
}

static void
report_invalid(struct smp_report *rep, const struct found *f, const char *why,
	       const char *fix)
{
	struct smp_finding *x =
		smp__report_add(rep, SMP_RULE_SUPPRESSION_INVALID, &f->start,
				&f->end, "%s", why);

	smp__finding_fix(rep, x, "%s", fix);
}

static void
report_unused(struct smp_report *rep, const struct found *f, size_t j)
{
	struct smp_pos at = f->start, end;
	struct smp_finding *x;
	int len = (int)f->c.id_len[j];
	const char *id = f->text + f->c.id_off[j];

	/* the id itself: the comment text starts one column after '#' */
	at.column = f->start.column + 1 + (uint32_t)f->c.id_off[j];
	at.offset = f->start.offset + 1 + f->c.id_off[j];
	end = at;
	end.column += (uint32_t)f->c.id_len[j];
	if (f->target)
		x = smp__report_add(rep, SMP_RULE_SUPPRESSION_UNUSED, &at, &end,
				    "the suppression of '%.*s' suppresses "
				    "nothing: no '%.*s' finding on line %u",
				    len, id, len, id, (unsigned)f->target);
	else
		x = smp__report_add(rep, SMP_RULE_SUPPRESSION_UNUSED, &at, &end,
				    "the suppression of '%.*s' suppresses "
				    "nothing: no line follows it",
				    len, id);
	smp__finding_fix(rep, x,
			 "remove '%.*s' from the comment (or the whole "
			 "comment)",
			 len, id);
}

int
smp__suppress_apply(struct smp_report *rep, const char *buf, size_t len,
		    const struct smp_docs *docs, int64_t now)
{
	struct found *items = NULL;
	size_t n = 0, i, j, count;
	char day[11];
	int rc;

	if (!buf || !smp__suppress_marked(buf, len))
		return 0;
	rc = scan(rep, buf, len, docs, &items, &n);
	if (rc) {
		rep->failed = 1;
		return rc;
	}
	today(day, now);
	count = rep->count;
	for (i = 0; i < n; i++)
		if (items[i].c.kind == SMP_SUPPRESS_VALID &&
		    (!items[i].c.until[0] ||
		     strcmp(day, items[i].c.until) <= 0))
			apply_one(rep, &items[i], count);
	for (i = 0; i < n && !rep->failed; i++) {
		struct found *f = &items[i];

		if (f->c.kind == SMP_SUPPRESS_INVALID) {
			report_invalid(rep, f, f->c.why,
				       "write '# sm-preflight: "
				       "ignore[rule-id,...] reason', with "
				       "until=YYYY-MM-DD if it should lapse");
		} else if (f->c.until[0] && strcmp(day, f->c.until) > 0) {
			char why[160];

			snprintf(why, sizeof(why),
				 "the suppression expired on %s "
				 "(until=%s): what it suppressed is "
				 "reported again",
				 f->c.until, f->c.until);
			report_invalid(rep, f, why,
				       "fix what it suppressed, or move the "
				       "date if the reason still holds");
		} else if (!rep->dropped) {
			/* with findings dropped past the report's cap, an
			 * unused one may have matched one of those */
			for (j = 0; j < f->c.id_count; j++)
				if (!f->used[j])
					report_unused(rep, f, j);
		}
	}
	smp__free(rep->alloc, items);
	return rep->failed ? SMP_ENOMEM : 0;
}
