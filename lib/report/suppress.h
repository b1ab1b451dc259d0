/*
 * suppress.h - inline suppression comments in YAML specs:
 *
 *   # sm-preflight: ignore[rule-id,...] reason [until=YYYY-MM-DD]
 *
 * on a finding's line, or on a line of its own above it. The loaders keep
 * no comments, so the source text is scanned; the parsed documents tell a
 * real comment from a '#' inside a quoted or block scalar.
 */
#ifndef SMP_SUPPRESS_H
#define SMP_SUPPRESS_H

#include <stddef.h>
#include <stdint.h>

#include "doc/doc.h"
#include "report/report.h"

#define SMP_SUPPRESS_MAX_IDS 16

/* What one comment says, as smp__suppress_parse() read it. */
enum smp_suppress_kind {
	SMP_SUPPRESS_NONE = 0,   /* not an sm-preflight directive */
	SMP_SUPPRESS_VALID = 1,  /* ids and a reason; maybe until */
	SMP_SUPPRESS_INVALID = 2 /* a directive that cannot work: see why */
};

struct smp_suppress_comment {
	enum smp_suppress_kind kind;
	/* the rule ids: offset and length in the comment text */
	size_t id_off[SMP_SUPPRESS_MAX_IDS];
	size_t id_len[SMP_SUPPRESS_MAX_IDS];
	size_t id_count;
	/* the reason, trimmed, with the until= token taken out of it: the
	 * text [reason_off, reason_off + reason_len) of the comment, less
	 * [until_off, until_off + until_len) when until is inside it */
	size_t reason_off, reason_len;
	size_t until_off, until_len; /* until_len 0: no until= */
	char until[11];              /* "YYYY-MM-DD", or "" */
	/* INVALID: what is wrong (lower-case, no final stop) */
	char why[160];
};

/*
 * Parses one comment: text[0..len) is what follows the '#', up to the end
 * of the line. Rule ids are checked against the rule table (an unknown id
 * makes the comment INVALID, with a did-you-mean); dates must exist.
 * Nothing is allocated.
 */
void smp__suppress_parse(struct smp_suppress_comment *out, const char *text,
			 size_t len);

/* 1 when buf[0..len) has the text every suppression comment has
 * ("sm-preflight"), so that it may hold one. */
int smp__suppress_marked(const char *buf, size_t len);

/*
 * Applies the suppression comments of buf[0..len) (a YAML spec whose
 * documents are docs) to the spec's findings in rep: marks the findings
 * they suppress, and adds suppression-invalid for comments that cannot
 * work (no reason, unknown rule, bad or passed until= date) and
 * suppression-unused for rule ids that suppressed nothing. now (seconds
 * since the epoch) decides whether until= has passed: a suppression works
 * through its until day (UTC). Returns 0 or SMP_ENOMEM.
 */
int smp__suppress_apply(struct smp_report *rep, const char *buf, size_t len,
			const struct smp_docs *docs, int64_t now);

#endif
