/*
 * report.h - building a report. Rules call smp__report_add() and never
 * check for out-of-memory themselves: the report remembers the failure
 * (sticky, like git's strbuf) and the check returns SMP_ENOMEM at the end.
 */
#ifndef SMP_REPORT_H
#define SMP_REPORT_H

#include "smpreflight.h"
#include "util/arena.h"
#include "util/lines.h"
#include "doc/doc.h"
#include "report/rule_table.h"

/*
 * At most this many findings are kept per report: past it they are only
 * counted, and smp__report_finish() adds one input-limit finding that says
 * how many were not shown. Memory and output stay bounded however many
 * problems a hostile file has.
 */
#define SMP_REPORT_FINDINGS_MAX 1000

/*
 * What a job of a Python source (check_source.c) makes of the findings
 * added while it is checked, decided as each is added: its message starts
 * "in <what>'<name>': " (with "(the default value of pipeline parameter
 * '<p>')" after it for a value param() says stands for one), and, for a
 * job with an unknown **kwargs (partial), a finding about something absent
 * (no node, or the job's root) is not added: it may be among the unknown
 * arguments.
 */
struct smp_report_scope {
	const char *what; /* "" or "pipeline step " */
	const char *name;
	const struct smp_node *root;
	int partial;
	/* the pipeline parameter whose default n is, or NULL */
	const char *(*param)(const void *ud, const struct smp_node *n);
	const void *ud;
};

struct smp_report {
	const struct smp_allocator *alloc;
	struct smp_arena arena;
	const char *file;
	/* the file findings are added to when not the spec itself (an
	 * entry script); NULL means file. See smp__report_source(). */
	const char *src_file;
	/* borrowed while the check runs, for source lines and pointers */
	const char *buf;
	size_t len;
	int is_json; /* the loader read buf as JSON (smp_docs.is_json) */
	const struct smp_node *root;
	/* per-rule severity from the context; NULL means the defaults */
	const enum smp_severity *severity;
	/* per rule, 1 when the user set its severity (--severity, config
	 * 'rules:'): then no rule softens it; NULL means none was set */
	const unsigned char *severity_set;
	struct smp_finding *items;
	size_t count;
	size_t cap;
	int failed;     /* an allocation failed: the report is incomplete */
	size_t dropped; /* findings past SMP_REPORT_FINDINGS_MAX */
	int finished;   /* smp__report_finish() added its finding */
	size_t jobs;    /* jobs judged (smp_report_jobs()) */
	size_t jobs_skipped; /* found in a walk, not Training Compiler jobs */
	/* entry scripts read and scanned for the jobs (their rules read
	 * the job: a fix that changes it is checked again, lib/fix/fix.c) */
	size_t scripts_scanned;
	struct smp_lines lines; /* of buf, built when findings need it */
	const struct smp_report_scope *scope; /* NULL outside a source's job */
};

/* Allocates an empty report for file; the report copies the name. */
int smp__report_new(struct smp_report **out, const struct smp_allocator *a,
		    const char *file, const enum smp_severity *severity);

/*
 * Adds a finding at [start, end) (end may be NULL). Returns the finding
 * so that fix/suggestion can be set, or NULL when the rule is off or an
 * allocation failed (then r->failed is set).
 */
struct smp_finding *smp__report_add(struct smp_report *r, enum smp_rule_id rule,
				    const struct smp_pos *start,
				    const struct smp_pos *end, const char *fmt,
				    ...) __attribute__((format(printf, 5, 6)));

/*
 * The same at a node, with its JSON Pointer looked up from r->root. A node
 * that stands for an unknown value (smp__node_unknown: what a Python
 * source computes at run time) gets no finding: no rule reports a value it
 * did not see.
 */
struct smp_finding *
smp__report_node(struct smp_report *r, enum smp_rule_id rule,
		 const struct smp_node *node, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/*
 * Lowers f's severity to at most sev, for a rule with a softer case
 * (instance-unknown for a well-formed type, ...), unless the user set the
 * rule's severity explicitly (r->severity_set), even to its default: then
 * that severity stands.
 */
void smp__finding_soften(struct smp_report *r, struct smp_finding *f,
			 enum smp_rule_id rule, enum smp_severity sev);

/* Sets the fix text of f (NULL f is ignored). */
void smp__finding_fix(struct smp_report *r, struct smp_finding *f,
		      const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Suggests setting f's own pointer to value, of JSON type `type` (NULL f,
 * or f without a pointer, is ignored: a suggestion is a replacement in
 * the spec's data). A NUMBER that is not a JSON number, or a BOOLEAN
 * other than "true"/"false", is no suggestion.
 */
void smp__finding_suggest(struct smp_report *r, struct smp_finding *f,
			  enum smp_value_type type, const char *value);

/* The same at another pointer (a key that is absent, say). */
void smp__finding_suggest_at(struct smp_report *r, struct smp_finding *f,
			     const char *pointer, enum smp_value_type type,
			     const char *value);

/* The same at node's pointer (NULL node, or one not in the document:
 * no suggestion). */
void smp__finding_suggest_node(struct smp_report *r, struct smp_finding *f,
			       const struct smp_node *node,
			       enum smp_value_type type, const char *value);

/* The same at key, a sibling of f's pointer (a key that is absent). */
void smp__finding_suggest_sibling(struct smp_report *r, struct smp_finding *f,
				  const char *key, enum smp_value_type type,
				  const char *value);

/* The same at key below f's pointer (f is at a mapping's key). */
void smp__finding_suggest_child(struct smp_report *r, struct smp_finding *f,
				const char *key, enum smp_value_type type,
				const char *value);

/* The type of a scalar's value (NULL for null, a mapping or a list). */
int smp__value_type_of(const struct smp_node *n, enum smp_value_type *out);

/* Suggests renaming the key at f's pointer to key (a sibling). */
void smp__finding_suggest_rename(struct smp_report *r, struct smp_finding *f,
				 const char *key);

/*
 * The type a suggested value for the field at n takes: STRING when n is
 * a string (a map of strings, a value the user quoted: keep its type),
 * else type. NULL n: type.
 */
enum smp_value_type smp__value_type_like(const struct smp_node *n,
					 enum smp_value_type type);

/*
 * One replacement per pointer: from findings[first] on (one job), a
 * suggestion whose pointer an earlier finding's suggestion already sets
 * to something else is dropped (the fix text stays), so that applying
 * every suggestion of a job is well defined.
 */
void smp__report_settle_suggestions(struct smp_report *r, size_t first);

/* Sets the JSON Pointer of f explicitly (e.g. for a key that is absent). */
void smp__finding_pointer(struct smp_report *r, struct smp_finding *f,
			  const char *pointer);

/*
 * Where the next findings are: another file (an entry script) with its
 * text, or back to the spec when file is NULL. saved receives the state to
 * hand back to smp__report_source_restore().
 */
struct smp_report_source {
	const char *src_file;
	const char *buf;
	size_t len;
	const struct smp_node *root;
	struct smp_lines lines; /* of buf, built when findings need it */
};

void smp__report_source(struct smp_report *r, const char *file, const char *buf,
			size_t len, struct smp_report_source *saved);
void smp__report_source_restore(struct smp_report *r,
				const struct smp_report_source *saved);

/*
 * Ends adding findings: when some were dropped past
 * SMP_REPORT_FINDINGS_MAX, adds the input-limit finding that counts them;
 * frees the line index. Call it while r->buf is still the checked buffer.
 */
void smp__report_finish(struct smp_report *r);

/*
 * 1 when the report keeps no more findings: the next ones are only
 * counted. A rule whose message is costly to write (a did-you-mean search)
 * may test it first, and then still add the finding with any message so
 * that it is counted.
 */
int smp__report_full(const struct smp_report *r);

/* Sorts findings by file, line, column, then rule id (stable output). */
void smp__report_sort(struct smp_report *r);

/*
 * Finds the JSON Pointer of node below root ("" for root itself); NULL
 * when not found. Written into the report's arena.
 */
const char *smp__report_pointer_of(struct smp_report *r,
				   const struct smp_node *root,
				   const struct smp_node *node);

#endif
