/*
 * load.h - bytes to documents. Syntax errors, duplicate keys and limits
 * become findings (rules syntax, duplicate-key, input-limit) in the report;
 * the return value is 0, or SMP_ENOMEM when memory ran out.
 */
#ifndef SMP_LOAD_H
#define SMP_LOAD_H

#include "smpreflight.h"
#include "doc/doc.h"
#include "report/report.h"

/* Limits with every 0 replaced by the default of DESIGN.md section 8. */
void smp__limits_resolve(struct smp_limits *out, const struct smp_limits *in);

/*
 * Strict RFC 8259 JSON into docs (one document). On a syntax error the
 * document is dropped (docs->count stays 0) and a finding is added.
 */
int smp__load_json(struct smp_docs *docs, const char *buf, size_t len,
		   const struct smp_limits *limits, struct smp_report *rep);

/*
 * YAML (libyaml events) into docs, one per document of the stream. On a
 * syntax error the documents completed before it are kept.
 */
int smp__load_yaml(struct smp_docs *docs, const char *buf, size_t len,
		   const struct smp_limits *limits, struct smp_report *rep);

/*
 * Chooses the loader: JSON when the name ends in ".json", or when the
 * first non-blank byte is '{' or '['; YAML otherwise. Checks the file
 * size limit and UTF-8 validity first.
 */
int smp__load(struct smp_docs *docs, const char *name, const char *buf,
	      size_t len, const struct smp_limits *limits,
	      struct smp_report *rep);

#endif
