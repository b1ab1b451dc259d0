/*
 * fingerprint.h - SARIF partialFingerprints that survive line moves: a
 * result is named by its rule, its file (relative to the source root),
 * the text of its line with whitespace collapsed (of a long line, the part
 * around the finding), and which occurrence of that triple in its report
 * it is. Inserting or deleting lines elsewhere
 * changes none of them; editing the line itself does.
 */
#ifndef SMP_EMIT_FINGERPRINT_H
#define SMP_EMIT_FINGERPRINT_H

#include <stddef.h>
#include <stdint.h>

/* The key under partialFingerprints; "v2" changes with the recipe (v1
 * was two SHA-256 digests per result: half a SARIF run's cost). */
#define SMP_FINGERPRINT_KEY "smPreflight/v2"

/* SipHash-1-3's key for fingerprints: fixed, so that a run gives the
 * same fingerprints as the last ("smPrefli", "ght/v2", little-endian). */
#define SMP_FINGERPRINT_K0 0x696c66657250736dULL
#define SMP_FINGERPRINT_K1 0x000032762f746867ULL

/* 16 hex digits, a colon, up to 20 decimal digits and a NUL */
#define SMP_FINGERPRINT_SIZE 38

/*
 * line with every run of whitespace (space, tab, CR, LF, VT, FF) made one
 * space and none at either end, into out (room for strlen(line) + 1
 * bytes); NULL line is "". Returns the length written.
 */
size_t smp__line_normalize(char *out, const char *line);

/*
 * The SipHash-1-3 (key SMP_FINGERPRINT_K0, K1) of rule, path and the
 * normalized text (len bytes, or up to a NUL), each ended by a NUL byte:
 * two results with the same key are occurrences of one triple.
 */
uint64_t smp__fingerprint_key(const char *rule, const char *path,
			      const char *text, size_t len);

/*
 * A line of up to this many bytes is fingerprinted whole; a longer one
 * (a minified JSON request on one line) by the bytes within half of it
 * on either side of the finding's column, so that the cost of a result
 * does not grow with its line.
 */
#define SMP_FINGERPRINT_WINDOW 1024

/* Where smp__fingerprint_text() got to on the last line it was given. */
struct smp__fp_cursor {
	const char *line; /* NULL: none yet */
	size_t len;       /* strlen(line), measured once */
	uint32_t column;  /* the column of byte at */
	size_t at;
};

/*
 * The text of line (NULL is "") that a finding at column (1-based, in
 * characters) is fingerprinted by: *start and the length returned (the
 * whole line, or its window). c, zeroed before the first call, keeps the
 * line's length and the last column's byte, so that findings of one line
 * in column order walk it once.
 */
size_t smp__fingerprint_text(struct smp__fp_cursor *c, const char *line,
			     uint32_t column, const char **start);

/*
 * The fingerprint of the occurrence-th (0-based) result with key: the
 * key as 16 lower-case hex digits, a colon and the occurrence in decimal
 * (the "hash:occurrence" shape of GitHub's own primaryLocationLineHash),
 * and a NUL.
 */
void smp__fingerprint_hex(char out[SMP_FINGERPRINT_SIZE], uint64_t key,
			  size_t occurrence);

#endif
