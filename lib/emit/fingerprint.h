/*
 * fingerprint.h - SARIF partialFingerprints that survive line moves: a
 * result is named by its rule, its file (relative to the source root),
 * the text of its line with whitespace collapsed, and which occurrence of
 * that triple in its report it is. Inserting or deleting lines elsewhere
 * changes none of them; editing the line itself does.
 */
#ifndef SMP_EMIT_FINGERPRINT_H
#define SMP_EMIT_FINGERPRINT_H

#include <stddef.h>

/* The key under partialFingerprints; "v1" changes with the recipe. */
#define SMP_FINGERPRINT_KEY "smPreflight/v1"

/*
 * line with every run of whitespace (space, tab, CR, LF, VT, FF) made one
 * space and none at either end, into out (room for strlen(line) + 1
 * bytes); NULL line is "". Returns the length written.
 */
size_t smp__line_normalize(char *out, const char *line);

/*
 * The SHA-256 of rule, path and the normalized line, each ended by a NUL
 * byte: two results with the same key are occurrences of one triple.
 */
void smp__fingerprint_key(unsigned char key[32], const char *rule,
			  const char *path, const char *line);

/*
 * The fingerprint of the occurrence-th (0-based) result with key: the
 * SHA-256 of the key and the occurrence in decimal, as 64 lower-case hex
 * digits and a NUL.
 */
void smp__fingerprint_hex(char out[65], const unsigned char key[32],
			  size_t occurrence);

#endif
