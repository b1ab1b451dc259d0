/*
 * schema.h - structural checks driven by the project's own JSON Schemas
 * (schemas/<dialect>.schema.json, compiled into C tables at build time).
 * The C checker interprets the subset of draft 2020-12 the schemas use, so the
 * schema an editor completes against and the checks the CLI runs cannot drift
 * apart.
 *
 * Findings: unknown-key (with did-you-mean from the allowed keys),
 * wrong-type, value-not-string, and whatever rule an "x-smp-rule"
 * annotation names for a location (e.g. distribution-unknown-key).
 */
#ifndef SMP_SCHEMA_H
#define SMP_SCHEMA_H

#include "smpreflight.h"
#include "doc/doc.h"
#include "report/report.h"

struct smp_schema;

/*
 * Parses a schema document (JSON) into a compiled, immutable form. The
 * library's own schemas are built in (smp__schema_embedded()); this is
 * what compiles them at build time, and what tests use.
 * name is used in errors. SMP_EPARSE with err filled when the schema uses
 * a keyword the checker does not support or is malformed.
 */
int smp__schema_load(struct smp_schema **out, const struct smp_allocator *a,
		     const char *name, const char *buf, size_t len,
		     struct smp_error *err);

/*
 * The built-in schema file name ("estimator.schema.json"), compiled at
 * build time (lib/schema/gen/embed_schemas.c): nothing is parsed, only
 * its few patterns are given to regcomp(). 0 with *out NULL when no
 * schema of that name is built in; SMP_ENOMEM.
 */
int smp__schema_embedded(struct smp_schema **out, const struct smp_allocator *a,
			 const char *name, struct smp_error *err);

/* Frees a schema of either function; NULL is a no-op. */
void smp__schema_free(struct smp_schema *schema);

/*
 * The document is a DescribeTrainingJob response: a key at its top level
 * that the schema does not know was printed by the service, not typed by
 * a user (most likely a member newer than the botocore model the schema
 * comes from), and botocore rejects unknown request members, not response
 * ones: unknown-key says it as a warning.
 */
#define SMP__SCHEMA_RESPONSE 1u

/*
 * Checks the document rooted at root against the schema, adding findings
 * to rep; flags is 0 or SMP__SCHEMA_RESPONSE. Returns 0 (findings are not
 * errors) or SMP_ENOMEM.
 */
int smp__schema_check(const struct smp_schema *schema,
		      const struct smp_node *root, struct smp_report *rep,
		      unsigned flags);

/*
 * Validates a data file's document (instance data, an overlay) against
 * the schema, or against its part at pointer ("#/$defs/overlay": the root,
 * a $defs member or a $ref target; NULL: the whole schema). The earliest
 * violation in document order becomes SMP_EPARSE in err: name, the line
 * and column of the offending value (or key), and the message a finding
 * would carry. 0 when the document is valid; SMP_EINVAL for a NULL schema
 * or root, or a pointer to no such part. Allocates nothing.
 */
int smp__schema_validate(const struct smp_schema *schema, const char *pointer,
			 const struct smp_node *root, const char *name,
			 struct smp_error *err);

/*
 * The property names allowed at the top level of the schema (for
 * dialect detection); borrowed, NULL-free array of *count entries.
 */
const char *const *smp__schema_top_keys(const struct smp_schema *schema,
					size_t *count);

#endif
