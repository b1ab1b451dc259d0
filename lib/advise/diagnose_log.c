/*
 * diagnose_log.c - FailureReason and the job's log searched for the
 * failure signatures in one pass and bounded memory, whatever the log's
 * size: the text comes in pieces (a buffer, or the caller's reader) and
 * is cut into lines; a line longer than the line buffer is searched in
 * overlapping windows; the last lines are kept for what a signature needs
 * from above it (the training toolkit's own crash hides the script's real
 * error there). Patterns are found through the index of their first two
 * bytes (lower-cased), so a byte costs one table look-up in most places.
 *
 * The log is what `aws logs get-log-events --output text` prints (lines
 * "EVENTS<TAB>timestamp<TAB>message<TAB>ingestion time"), what
 * `aws logs filter-log-events --output text` prints ("EVENTS<TAB>event
 * id<TAB>ingestion time<TAB>stream<TAB>message<TAB>timestamp"), or plain
 * text; evidence quotes the message only.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "advise/diagnose.h"
#include "context/context.h"

/* A line is searched in windows of this many bytes. */
#define LINE_MAX_BYTES (64 * 1024)
/* The log is read in pieces of this many bytes. */
#define CHUNK (64 * 1024)
/* Lines kept above the current one, and how much of each. */
#define WINDOW 64
#define WINDOW_BYTES 512
#define PAT_MAX 96
#define NPAT_MAX 96

struct kept {
	uint32_t line;
	size_t len;
	char text[WINDOW_BYTES];
};

struct scan {
	struct smp_diagnosis_build *b;
	const char *source;
	int is_log;
	uint32_t line;
	/* the patterns, lower-cased, and the index of their first bytes */
	size_t npat, maxpat;
	char pat[NPAT_MAX][PAT_MAX];
	unsigned char patlen[NPAT_MAX];
	unsigned char sig[NPAT_MAX];
	int16_t next[NPAT_MAX];
	int16_t head[65536];
	/* the line being assembled */
	char buf[LINE_MAX_BYTES];
	size_t len;
	int continued; /* buf holds a later window of a long line */
	uint64_t seen; /* the signatures this line already showed */
	struct kept window[WINDOW];
	size_t kept; /* lines in the window so far (all of them) */
	char chunk[CHUNK];
};

static unsigned char
lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

static unsigned
pair(const unsigned char *p)
{
	return (unsigned)lower(p[0]) << 8 | lower(p[1]);
}

/* Builds the pattern index; 0, or -1 when the table does not fit. */
static int
index_patterns(struct scan *s)
{
	size_t i, n = smp__diag_signature_count();

	memset(s->head, 0xff, sizeof(s->head));
	for (i = 0; i < n; i++) {
		const char *p = smp__diag_signature_patterns(i);

		while (*p) {
			const char *bar = strchr(p, '|');
			size_t len = bar ? (size_t)(bar - p) : strlen(p), k;
			unsigned h;

			if (s->npat >= NPAT_MAX || len >= PAT_MAX || len < 2 ||
			    i >= 64)
				return -1;
			for (k = 0; k < len; k++)
				s->pat[s->npat][k] =
					(char)lower((unsigned char)p[k]);
			s->patlen[s->npat] = (unsigned char)len;
			s->sig[s->npat] = (unsigned char)i;
			h = pair((const unsigned char *)s->pat[s->npat]);
			s->next[s->npat] = s->head[h];
			s->head[h] = (int16_t)s->npat;
			if (len > s->maxpat)
				s->maxpat = len;
			s->npat++;
			p += len + (bar != NULL);
		}
	}
	return 0;
}

/* The signatures whose patterns are in t[0..n), as a bit set. */
static uint64_t
search(const struct scan *s, const char *t, size_t n)
{
	const unsigned char *u = (const unsigned char *)t;
	uint64_t found = 0;
	size_t i, k;

	for (i = 0; i + 1 < n; i++) {
		int16_t p = s->head[pair(u + i)];

		for (; p >= 0; p = s->next[p]) {
			size_t len = s->patlen[p];

			if (n - i < len)
				continue;
			for (k = 2; k < len; k++)
				if (lower(u[i + k]) !=
				    (unsigned char)s->pat[p][k])
					break;
			if (k == len)
				found |= (uint64_t)1 << s->sig[p];
		}
	}
	return found;
}

/* The message of a log line (see the top of the file). */
static void
message(const char **t, size_t *len)
{
	const char *f[8];
	size_t n = 0, i;
	const char *p = *t, *end = *t + *len;

	if (*len < 7 || strncmp(p, "EVENTS\t", 7) != 0)
		return;
	while (p < end && n < 8) {
		f[n++] = p;
		p = memchr(p, '\t', (size_t)(end - p));
		if (!p)
			break;
		p++;
	}
	/* get-log-events: EVENTS ts message ingest; filter-log-events:
	 * EVENTS id ingest stream message ts */
	i = n >= 6 ? 4 : n >= 4 ? 2 : 0;
	if (!i)
		return;
	p = memchr(f[i], '\t', (size_t)(end - f[i]));
	*t = f[i];
	*len = p ? (size_t)(p - f[i]) : (size_t)(end - f[i]);
}

/* 1 when t[0..n) reads as the line of an error: "...Error: ...",
 * "...Exception: ...". */
static int
error_line(const char *t, size_t n)
{
	static const char *const marks[] = {
		"error:", "exception:", "error(",
		"killed", "[errno",     "no such file"};
	size_t i, j, k;

	for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		size_t m = strlen(marks[i]);

		for (j = 0; j + m <= n; j++) {
			for (k = 0; k < m; k++)
				if (lower((unsigned char)t[j + k]) !=
				    (unsigned char)marks[i][k])
					break;
			if (k == m)
				return 1;
		}
	}
	return 0;
}

static int
has(const char *t, size_t n, const char *needle)
{
	size_t m = strlen(needle), j;

	for (j = 0; j + m <= n; j++)
		if (memcmp(t + j, needle, m) == 0)
			return 1;
	return 0;
}

/*
 * The script's own error above the toolkit's crash: going up from the
 * crash, past the toolkit's traceback (the lines up to its "Traceback"),
 * the nearest line that reads as an error and is not the toolkit's.
 */
static const struct kept *
real_error(const struct scan *s)
{
	size_t avail = s->kept < WINDOW ? s->kept : WINDOW, i;
	int past = 0;

	for (i = 1; i <= avail; i++) {
		const struct kept *k = &s->window[(s->kept - i) % WINDOW];

		if (!past) {
			past = has(k->text, k->len, "Traceback (most recent");
			continue;
		}
		/* the toolkit's and SageMaker's own lines are not it */
		if (has(k->text, k->len, "sagemaker_training") ||
		    has(k->text, k->len, "SMTrainingCompiler") ||
		    has(k->text, k->len, "AlgorithmError") ||
		    has(k->text, k->len, "Framework Error") ||
		    has(k->text, k->len, "Traceback (most recent"))
			continue;
		if (error_line(k->text, k->len))
			return k;
	}
	return NULL;
}

/* One window of a line: its signatures recorded, the line kept. */
static void
take(struct scan *s, const char *t, size_t n, int first)
{
	uint64_t found;
	size_t i;

	if (first && s->is_log)
		message(&t, &n);
	found = search(s, t, n) & ~s->seen;
	for (i = 0; found; i++, found >>= 1) {
		struct smp__diag_sighting at = {
			s->source, s->is_log ? s->line : 0, t, n, NULL, 0, 0};
		const struct kept *k;

		if (!(found & 1))
			continue;
		s->seen |= (uint64_t)1 << i;
		k = smp__diag_signature_needs_above(i) ? real_error(s) : NULL;
		if (k) {
			at.above = k->text;
			at.above_len = k->len;
			at.above_line = s->is_log ? k->line : 0;
		}
		smp__diag_seen(s->b, i, &at);
	}
}

/* The line in buf is complete. */
static void
end_line(struct scan *s)
{
	const char *t = s->buf;
	size_t n = s->len;
	struct kept *k;

	take(s, s->buf, s->len, !s->continued);
	if (!s->continued && s->is_log)
		message(&t, &n);
	k = &s->window[s->kept % WINDOW];
	k->line = s->line;
	k->len = n < WINDOW_BYTES ? n : WINDOW_BYTES;
	memcpy(k->text, t, k->len);
	s->kept++;
	s->len = 0;
	s->continued = 0;
	s->seen = 0;
	s->line++;
}

/* Adds data[0..n) to the text. */
static void
feed(struct scan *s, const char *data, size_t n)
{
	while (n) {
		const char *nl = memchr(data, '\n', n);
		size_t piece = nl ? (size_t)(nl - data) : n, room;

		while (piece) {
			room = sizeof(s->buf) - s->len;
			if (room > piece)
				room = piece;
			memcpy(s->buf + s->len, data, room);
			s->len += room;
			data += room;
			n -= room;
			piece -= room;
			if (s->len == sizeof(s->buf)) {
				/* a long line: search what is here, keep the
				 * tail that a pattern could straddle */
				size_t keep = s->maxpat - 1;

				take(s, s->buf, s->len, !s->continued);
				memmove(s->buf, s->buf + s->len - keep, keep);
				s->len = keep;
				s->continued = 1;
			}
		}
		if (nl) {
			end_line(s);
			data++;
			n--;
		}
	}
}

static void
finish(struct scan *s)
{
	if (s->len || s->continued)
		end_line(s);
}

static void
begin(struct scan *s, const char *source, int is_log)
{
	s->source = source;
	s->is_log = is_log;
	s->line = 1;
	s->len = 0;
	s->continued = 0;
	s->seen = 0;
	s->kept = 0;
}

int
smp__diag_causes(struct smp_diagnosis_build *b,
		 const struct smp_diagnose_options *o)
{
	const char *why = smp__diag_member(b->job.root, "FailureReason");
	struct scan *s;
	int rc = 0;

	if (!why && !o->log && !o->log_read)
		return 0;
	s = smp__malloc(&b->ctx->alloc, sizeof(*s));
	if (!s)
		return SMP_ENOMEM;
	s->b = b;
	s->npat = 0;
	s->maxpat = 0;
	if (index_patterns(s) != 0) {
		smp__free(&b->ctx->alloc, s);
		return SMP_EINVAL;
	}
	if (why) {
		begin(s, "FailureReason", 0);
		feed(s, why, strlen(why));
		finish(s);
	}
	if (o->log_read) {
		size_t got;

		begin(s, b->pub.log_file, 1);
		while ((rc = o->log_read(o->log_ud, s->chunk, sizeof(s->chunk),
					 &got)) == 0 &&
		       got)
			feed(s, s->chunk,
			     got < sizeof(s->chunk) ? got : sizeof(s->chunk));
		if (rc)
			rc = SMP_EIO;
		else
			finish(s);
	} else if (o->log) {
		begin(s, b->pub.log_file, 1);
		feed(s, o->log, o->log_len);
		finish(s);
	}
	smp__free(&b->ctx->alloc, s);
	if (!rc && b->oom)
		rc = SMP_ENOMEM;
	return rc;
}
