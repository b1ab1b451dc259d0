/*
 * derive.c - the report of a fixed text from the report before the fix
 * (derive.h). A finding keeps its rule, message, fix and suggestion; its
 * place is found again in the new text: its start and end are turned into
 * byte offsets of the old text, moved by the edits before them, and
 * turned back into line and column (smp__pos_at(), as the check counts
 * them), its source line taken from the new text. A place on an edit's
 * span or at either end of it, or a finding around one, is not moved: the
 * caller checks the new text instead.
 */
#include <stdint.h>
#include <string.h>

#include "util/pos.h"
#include "fix/derive.h"

/* The schemas' smallest maxProperties of a mapping a local fix inserts
 * into (environment 100, hyperparameters 95): a text with fewer entries
 * than this cannot reach it. */
#define ENTRIES_BELOW 94

/* Line numbers are 32 bits (struct smp_pos). */
#define LINES_MAX ((size_t)UINT32_MAX)

/* A finding's new place, computed before any is changed. */
struct moved {
	struct smp_pos start, end;
	size_t edit_start, edit_end;
	const char *source_line;
};

/*
 * Where the lines of a text start, for texts whose lines end at '\n'
 * only (a '\r' and smp__pos_at() counts differently: no table, the
 * report is not derived).
 */
struct ltab {
	const char *buf;
	size_t len;
	size_t *start; /* start[i]: offset of line i + 1 */
	size_t count;
};

/* 0, 1 when buf has a '\r' or more than max lines, or SMP_ENOMEM. */
static int
ltab_build(struct ltab *t, const struct smp_allocator *a, const char *buf,
	   size_t len, size_t max)
{
	const char *nl;
	size_t i = 0, n = 1;

	memset(t, 0, sizeof(*t));
	if (memchr(buf, '\r', len))
		return 1;
	while (i < len && (nl = memchr(buf + i, '\n', len - i))) {
		i = (size_t)(nl - buf) + 1;
		n++;
	}
	if (n > max)
		return 1;
	t->start = smp__calloc(a, n, sizeof(*t->start));
	if (!t->start)
		return SMP_ENOMEM;
	t->buf = buf;
	t->len = len;
	t->start[t->count++] = 0;
	for (i = 0; i < len && (nl = memchr(buf + i, '\n', len - i));) {
		i = (size_t)(nl - buf) + 1;
		t->start[t->count++] = i;
	}
	return 0;
}

/* Offset of (line, column), as smp__pos_at() counts; 1 if none. */
static int
offset_of(const struct ltab *t, uint32_t line, uint32_t column, size_t *out)
{
	size_t s, e, i;
	uint32_t c = 1;

	if (line < 1 || line > t->count)
		return 1;
	s = t->start[line - 1];
	e = line < t->count ? t->start[line] - 1 : t->len;
	for (i = s; c < column; c++) {
		if (i >= e)
			return 1;
		i++;
		while (i < e && ((unsigned char)t->buf[i] & 0xC0) == 0x80)
			i++;
	}
	*out = i;
	return 0;
}

/* The line and column of off, as smp__pos_at() counts them. */
static struct smp_pos
pos_of(const struct ltab *t, size_t off)
{
	size_t lo = 0, hi = t->count, i;
	struct smp_pos p;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->start[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	p.line = (uint32_t)(lo + 1);
	p.column = 1;
	p.offset = off;
	for (i = t->start[lo]; i < off; i++)
		p.column += ((unsigned char)t->buf[i] & 0xC0) != 0x80;
	return p;
}

/*
 * off moved by the edits; 1 when it is on an edit (or at either end of a
 * replacement). Where text is only inserted, a place that starts there
 * (start) moves after the new text and one that ends there (!start) stays
 * before it: the bytes on either side are the same.
 */
static int
move(const struct smp_fix_edit *edits, size_t n, size_t off, int start,
     size_t *out)
{
	size_t i, add = 0, sub = 0;

	for (i = 0; i < n && edits[i].start <= off; i++) {
		if (edits[i].start == edits[i].end && off == edits[i].start) {
			if (!start)
				break;
		} else if (off <= edits[i].end) {
			return 1;
		}
		add += edits[i].text_len;
		sub += edits[i].end - edits[i].start;
	}
	*out = off + add - sub;
	return 0;
}

/* 1 when [s, e) holds an edit whole. */
static int
around(const struct smp_fix_edit *edits, size_t n, size_t s, size_t e)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s < edits[i].start && edits[i].end < e)
			return 1;
	return 0;
}

/* 1 when a mapping of cur may have ENTRIES_BELOW entries or more: every
 * entry has a ':' (JSON), or a ':', ',' or '?' (YAML's block, flow and
 * explicit keys). */
static int
many_entries(const char *cur, size_t len, int is_json)
{
	size_t i, count = 0;

	for (i = 0; i < len && count < ENTRIES_BELOW; i++)
		count += cur[i] == ':' ||
			 (!is_json && (cur[i] == ',' || cur[i] == '?'));
	return count >= ENTRIES_BELOW;
}

/* The text's own limits (limits.c), with room for a few more nodes. */
static int
near_limits(size_t len, const struct smp_limits *l)
{
	return len + 64 >= l->max_file_size || len + 64 >= l->max_nodes;
}

/* f's new place in m; 1 when it cannot be moved. */
static int
move_finding(struct moved *m, const struct smp_finding *f,
	     const struct smp_fix_edit *edits, size_t n, const struct ltab *old,
	     const struct ltab *cur)
{
	size_t s, e, ns, ne;

	if (offset_of(old, f->line, f->column, &s) ||
	    offset_of(old, f->end_line, f->end_column, &e) || e <= s ||
	    around(edits, n, s, e) || move(edits, n, s, 1, &ns) ||
	    move(edits, n, e, 0, &ne) || ne <= ns)
		return 1;
	m->start = pos_of(cur, ns);
	m->end = pos_of(cur, ne);
	if (f->edit_text &&
	    (f->edit_end < f->edit_start ||
	     around(edits, n, f->edit_start, f->edit_end) ||
	     move(edits, n, f->edit_start, 1, &m->edit_start) ||
	     move(edits, n, f->edit_end, 0, &m->edit_end) ||
	     m->edit_end < m->edit_start ||
	     (f->edit_end == f->edit_start && m->edit_end != m->edit_start)))
		return 1;
	return 0;
}

/* See derive.h. */
int
smp__fix_derive(struct smp_report *rep, const struct smp_fix_edit *edits,
		size_t n, const unsigned char *gone, const char *old,
		size_t old_len, const char *cur, size_t len,
		const struct smp_limits *limits)
{
	struct moved *m = NULL;
	struct ltab lo, lc;
	size_t i, k, inserts = 0;
	int rc = 0;

	if (rep->failed || rep->dropped || rep->finished || !rep->count ||
	    near_limits(len, limits))
		return 1;
	/* an anchor: an edited node may be an alias's too */
	if (!rep->is_json && memchr(old, '&', old_len))
		return 1;
	for (i = 0; i < n; i++)
		inserts += edits[i].start == edits[i].end;
	if (inserts && many_entries(cur, len, rep->is_json))
		return 1;
	rc = ltab_build(&lo, rep->alloc, old, old_len, LINES_MAX);
	if (rc == 0)
		rc = ltab_build(&lc, rep->alloc, cur, len, LINES_MAX);
	else
		memset(&lc, 0, sizeof(lc));
	if (rc == 0) {
		m = smp__calloc(rep->alloc, rep->count, sizeof(*m));
		rc = m ? 0 : SMP_ENOMEM;
	}
	for (i = 0; i < rep->count && rc == 0; i++) {
		const struct smp_finding *f = &rep->items[i];
		size_t s, ln;

		if (gone[i] || !f->line || strcmp(f->file, rep->file) != 0)
			continue; /* dropped, or not in this text */
		if (f->cell) {
			rc = 1;
			break;
		}
		rc = move_finding(&m[i], f, edits, n, &lo, &lc);
		if (rc || !f->source_line)
			continue;
		s = lc.start[m[i].start.line - 1];
		ln = smp__line_len(cur, len, s);
		m[i].source_line = smp__arena_strndup(&rep->arena, cur + s, ln);
		if (!m[i].source_line)
			rc = SMP_ENOMEM;
	}
	smp__free(rep->alloc, lo.start);
	smp__free(rep->alloc, lc.start);
	if (rc) {
		smp__free(rep->alloc, m);
		if (rc == SMP_ENOMEM)
			rep->failed = 1;
		return rc;
	}
	for (i = k = 0; i < rep->count; i++) {
		struct smp_finding f = rep->items[i];

		if (gone[i])
			continue;
		if (f.line && strcmp(f.file, rep->file) == 0) {
			f.line = m[i].start.line;
			f.column = m[i].start.column;
			f.end_line = m[i].end.line;
			f.end_column = m[i].end.column;
			if (f.source_line)
				f.source_line = m[i].source_line;
			if (f.edit_text) {
				f.edit_start = m[i].edit_start;
				f.edit_end = m[i].edit_end;
			}
		}
		rep->items[k++] = f;
	}
	rep->count = k;
	smp__free(rep->alloc, m);
	return 0;
}
