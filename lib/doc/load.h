/*
 * load.h - bytes to documents. What is wrong with the input (syntax,
 * duplicate keys, limits) becomes a neutral diagnostic in docs->diags,
 * never a finding: the spec pipeline turns diagnostics into findings
 * (smp__rules_input), data files use smp__load_strict(). The return value
 * is 0, or SMP_ENOMEM when memory ran out.
 */
#ifndef SMP_LOAD_H
#define SMP_LOAD_H

#include "smpreflight.h"
#include "doc/doc.h"
#include "doc/limits.h"

/*
 * Strict RFC 8259 JSON into docs (one document). On a syntax error the
 * document is dropped (docs->count stays 0) and a diagnostic is added.
 */
int smp__load_json(struct smp_docs *docs, const char *buf, size_t len,
		   const struct smp_limits *limits);

/* What a sink says of a member (smp_json_sink.member). */
enum {
	SMP_JSON_KEEP,  /* parse it into the tree */
	SMP_JSON_SKIP,  /* check it is JSON, build nothing: an empty node of
			   its kind stands for it */
	SMP_JSON_STREAM /* an array: hand each element to the sink, keep
			   none (the array stays empty) */
};

/*
 * A reader of a large JSON document that needs little of it. member is
 * asked about each member as its key is read (depth: open containers,
 * 1 for the top object's members; key: the key's node), outside skipped
 * values; element gets each element of a streamed array, its nodes valid
 * only during the call. Either returns SMP_ENOMEM to stop; a diagnostic
 * it adds goes into docs like the parser's.
 */
struct smp_json_sink {
	int (*member)(void *ud, size_t depth, const struct smp_node *key);
	int (*element)(void *ud, const struct smp_node *element);
	void *ud;
};

/*
 * smp__load_json() with a sink (NULL: none). A skipped value counts
 * against no limit but the depth; each streamed element against the
 * node limit on its own, not with the others.
 */
int smp__load_json_sink(struct smp_docs *docs, const char *buf, size_t len,
			const struct smp_limits *limits,
			const struct smp_json_sink *sink);

/*
 * YAML (libyaml events) into docs, one per document of the stream. On a
 * syntax error the documents completed before it are kept.
 */
int smp__load_yaml(struct smp_docs *docs, const char *buf, size_t len,
		   const struct smp_limits *limits);

/*
 * The one JSON-or-YAML decision: JSON when name ends in ".json", YAML when
 * it ends in ".yaml" or ".yml" (a YAML flow mapping starts with '{' too),
 * else JSON when the first non-blank byte after a BOM is '{' or '['.
 * name may be NULL.
 */
int smp__load_is_json(const char *name, const char *buf, size_t len);

/*
 * Chooses the loader with smp__load_is_json(). Checks the file size limit
 * and UTF-8 validity first.
 */
int smp__load(struct smp_docs *docs, const char *name, const char *buf,
	      size_t len, const struct smp_limits *limits);

/*
 * The load of a data file (catalog, index, schema, configuration,
 * baseline, overlay): JSON only when json is set, else as smp__load()
 * chooses; default limits. Any diagnostic is an error: SMP_EPARSE in err
 * with the position and message of the first one. Returns 0, SMP_EPARSE
 * or SMP_ENOMEM; docs are the caller's to release in every case.
 */
int smp__load_strict(struct smp_docs *docs, const char *name, const char *buf,
		     size_t len, int json, struct smp_error *err);

#endif
