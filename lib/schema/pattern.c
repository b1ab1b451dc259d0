/*
 * pattern.c - the schemas' "pattern" keyword through the C library's
 * POSIX regular expressions (regcomp/regexec, extended syntax; glibc and
 * musl, so the WebAssembly build too). A schema keeps its pattern strings
 * (the generator writes strings, not automata) and compiles them once,
 * when the schema is built; matching is regexec().
 */
#include <ctype.h>
#include <regex.h>
#include <string.h>

#include "schema/internal.h"
#include "util/alloc.h"
#include "util/error.h"

/*
 * POSIX leaves a backslash before an ordinary character undefined: glibc
 * reads "\d" as a 'd' and others as a digit class, so a schema written for
 * another regex dialect would match something else silently. Refused,
 * with the spelling to use instead.
 */
int
smp__pattern_refused(const char *src, const char **why)
{
	const char *p;

	for (p = src; *p; p++) {
		if (*p != '\\')
			continue;
		if (!p[1]) {
			*why = "it ends in a lone '\\'";
			return 1;
		}
		if (isalnum((unsigned char)p[1])) {
			*why = "'\\' before a letter or digit ('\\d', '\\w', "
			       "...) is not POSIX: write a bracket expression "
			       "such as [0-9]";
			return 1;
		}
		p++;
	}
	return 0;
}

/* REG_NOSUB: only whether a string matches is asked, never where. */
int
smp__pattern_compile(regex_t *rx, const char *src, char *msg, size_t size)
{
	int rc = regcomp(rx, src, REG_EXTENDED | REG_NOSUB);

	if (rc == 0)
		return 0;
	if (msg && size)
		regerror(rc, NULL, msg, size);
	return rc == REG_ESPACE ? SMP_ENOMEM : SMP_EPARSE;
}

/* Compiles the schema's patterns (s->pattern_srcs) into s->rx. */
int
smp__schema_patterns_build(struct smp_schema *s)
{
	size_t i;
	int rc;

	if (!s->npatterns)
		return 0;
	s->rx = smp__calloc(&s->alloc, s->npatterns, sizeof(*s->rx));
	if (!s->rx)
		return SMP_ENOMEM;
	for (i = 0; i < s->npatterns; i++) {
		rc = smp__pattern_compile(&s->rx[i], s->pattern_srcs[i], NULL,
					  0);
		if (rc) {
			s->nrx = i;
			return rc == SMP_ENOMEM ? rc : SMP_EINTERNAL;
		}
	}
	s->nrx = s->npatterns;
	return 0;
}

void
smp__schema_patterns_free(struct smp_schema *s)
{
	size_t i;

	for (i = 0; i < s->nrx; i++)
		regfree(&s->rx[i]);
	smp__free(&s->alloc, s->rx);
	s->rx = NULL;
	s->nrx = 0;
}

/* A string with a NUL byte cannot match a C regex fully: no match. */
int
smp__pattern_match(const regex_t *rx, const char *text, size_t len)
{
	if (strlen(text) != len)
		return 0;
	return regexec(rx, text, 0, NULL, 0) == 0;
}
