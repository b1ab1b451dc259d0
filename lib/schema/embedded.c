/*
 * embedded.c - the built-in schemas: the constant tables the build
 * compiled (lib/schema/gen/embed_schemas.c, into the build folder)
 * wrapped as a struct smp_schema: nothing is parsed; only the patterns
 * are given to regcomp(), once, when the schema is first built.
 */
#include <string.h>

#include "schema/schema.h"
#include "schema/internal.h"
#include "util/alloc.h"
#include "util/error.h"

static const struct smp_schema_tables *
find_tables(const char *name)
{
	size_t i;

	for (i = 0; smp__embedded_schemas[i]; i++)
		if (strcmp(smp__embedded_schemas[i]->name, name) == 0)
			return smp__embedded_schemas[i];
	return NULL;
}

static int
nomem(struct smp_schema *s, const char *name, struct smp_error *err)
{
	smp__schema_free(s);
	smp__error_set(err, SMP_ENOMEM, name, NULL, "%s",
		       smp_strerror(SMP_ENOMEM));
	return SMP_ENOMEM;
}

/* The built-in schema name, ready to check with (see schema.h). */
int
smp__schema_embedded(struct smp_schema **out, const struct smp_allocator *a,
		     const char *name, struct smp_error *err)
{
	const struct smp_schema_tables *t;
	struct smp_schema *s;
	int rc;

	*out = NULL;
	if (!name || !(t = find_tables(name)))
		return 0;
	s = smp__calloc(a, 1, sizeof(*s));
	if (!s)
		return nomem(NULL, name, err);
	s->alloc = *a;
	smp__docs_init(&s->docs, &s->alloc);
	s->root = t->root;
	s->subs = t->subs;
	s->nsubs = t->nsubs;
	s->top_keys = t->top_keys;
	s->ntop_keys = t->ntop_keys;
	s->pattern_srcs = t->patterns;
	s->npatterns = t->npatterns;
	rc = smp__schema_patterns_build(s);
	if (rc == SMP_ENOMEM)
		return nomem(s, name, err);
	if (rc) {
		smp__schema_free(s);
		return smp__error_set(err, rc, name, NULL,
				      "a built-in pattern does not compile");
	}
	*out = s;
	return 0;
}
