/*
 * sarif.c - SARIF 2.1.0 (`check --format sarif`) as GitHub code
 * scanning reads it: one run; tool.driver names every rule with its
 * descriptions, help URI and default level (so an alert can always show
 * its rule, and ruleIndex is the rule's place in the table); one result
 * per finding, each with a physical location, because code scanning
 * drops results without one. A finding without a position points at line
 * 1 of its file. Suppressed findings stay, with an inSource suppression
 * and its reason, so that code scanning shows them as dismissed. With a
 * source root, files below it are relative to "%SRCROOT%" (artifact.h);
 * every result has a partialFingerprint (fingerprint.h).
 *
 * The driver comes first and the results stream after it: nothing is
 * kept per finding. Written by hand for the reasons given in json.c.
 */
#include "context/context.h"
#include "emit/artifact.h"
#include "emit/emitter.h"
#include "emit/fingerprint.h"
#include "report/report.h"
#include "util/alloc.h"

#include <stdlib.h>
#include <string.h>

/* GitHub code scanning's limit on a rule's fullDescription, in
 * characters; bytes here, which is never more. */
#define FULL_DESCRIPTION_MAX 1024

/* The uriBaseId of files below the source root, as GitHub names it. */
#define SRCROOT "%SRCROOT%"

static const char *
level(enum smp_severity sev)
{
	switch (sev) {
	case SMP_SEVERITY_ERROR:
		return "error";
	case SMP_SEVERITY_WARNING:
		return "warning";
	case SMP_SEVERITY_INFO:
		return "note";
	default:
		return "none";
	}
}

/* 1 when uri starts with a scheme (RFC 3986: ALPHA *( ALPHA / DIGIT /
 * "+" / "-" / "." ) ":"). */
static int
absolute_uri(const char *uri)
{
	const char *p = uri;

	if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
		return 0;
	while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
	       (*p >= '0' && *p <= '9') || *p == '+' || *p == '-' || *p == '.')
		p++;
	return *p == ':';
}

/* The rule id in PascalCase, SARIF's readable rule name
 * ("batch-size-below-tested" is "BatchSizeBelowTested"). */
static void
out_rule_name(struct smp__out *o, const char *id)
{
	int up = 1;

	smp__out_str(o, "\"");
	for (; *id; id++) {
		char c = *id;

		if (c == '-' || c == '_') {
			up = 1;
			continue;
		}
		if (up && c >= 'a' && c <= 'z')
			c = (char)(c - 'a' + 'A');
		up = 0;
		smp__out_mem(o, &c, 1);
	}
	smp__out_str(o, "\"");
}

/* The explanation as a fullDescription: whole when it fits GitHub's
 * limit, else cut after the last sentence (or word) that fits, with an
 * ellipsis; help.text has it whole. */
static void
out_full_description(struct smp_emitter *em, const char *text)
{
	static const char more[] = " \xE2\x80\xA6"; /* " ..." as U+2026 */
	size_t len = strlen(text), cut, i;
	char *copy;

	if (len <= FULL_DESCRIPTION_MAX) {
		smp__out_json_string(&em->out, text);
		return;
	}
	cut = 0;
	for (i = 0; i + sizeof(more) - 1 <= FULL_DESCRIPTION_MAX; i++) {
		if (text[i] == ' ' && i > 0 && text[i - 1] == '.')
			cut = i;
	}
	if (!cut) {
		for (i = FULL_DESCRIPTION_MAX - (sizeof(more) - 1); i > 0; i--)
			if (text[i] == ' ')
				break;
		cut = i;
	}
	copy = smp__strndup(&em->alloc, text, cut);
	if (!copy) {
		em->oom = 1;
		return;
	}
	smp__out_str(&em->out, "\"");
	smp__out_json_string_body(&em->out, copy);
	smp__out_json_string_body(
		&em->out, cut && text[cut - 1] == '.' ? more + 1 : more);
	smp__out_str(&em->out, "\"");
	smp__free(&em->alloc, copy);
}

static void
out_rule(struct smp_emitter *em, const struct smp_rule_info *r)
{
	struct smp__out *o = &em->out;
	const char *text = r->explanation ? r->explanation : r->id;

	smp__out_str(o, "{\"id\": ");
	smp__out_json_string(o, r->id);
	smp__out_str(o, ", \"name\": ");
	out_rule_name(o, r->id);
	smp__out_str(o, ", \"shortDescription\": {\"text\": ");
	smp__out_json_string(o, r->summary ? r->summary : r->id);
	smp__out_str(o, "}, \"fullDescription\": {\"text\": ");
	out_full_description(em, text);
	/* help: what code scanning shows beside an alert */
	smp__out_str(o, "}, \"help\": {\"text\": \"");
	smp__out_json_string_body(o, r->explanation ? r->explanation : r->id);
	if (r->source) {
		smp__out_str(o, "\\n\\nSource: ");
		smp__out_json_string_body(o, r->source);
	}
	smp__out_str(o, "\", \"markdown\": \"");
	smp__out_json_string_body(o, text);
	if (r->source) {
		smp__out_str(o, "\\n\\n**Source:** ");
		smp__out_json_string_body(o, r->source);
	}
	smp__out_str(o, "\"}, ");
	if (absolute_uri(em->rules_uri)) {
		/* SARIF wants it absolute: no relative one */
		smp__out_str(o, "\"helpUri\": \"");
		/* the base is the user's: escape it as a JSON string body */
		smp__out_json_string_body(o, em->rules_uri);
		smp__out_str(o, "#");
		smp__out_json_string_body(o, r->id);
		smp__out_str(o, "\", ");
	}
	smp__out_str(o, "\"defaultConfiguration\": {");
	if (r->default_severity == SMP_SEVERITY_OFF)
		smp__out_str(o, "\"enabled\": false, ");
	smp__out_str(o, "\"level\": \"");
	smp__out_str(o, level(r->default_severity));
	smp__out_str(o, "\"}, \"properties\": {\"tags\": [");
	smp__out_json_string(o, r->group ? r->group : "general");
	smp__out_str(o, "]}}");
}

static void
sarif_begin(struct smp_emitter *em)
{
	struct smp__out *o = &em->out;
	size_t i, n = smp_rule_count();

	smp__out_str(o, "{\n  \"$schema\": \"https://docs.oasis-open.org/"
			"sarif/sarif/v2.1.0/errata01/os/schemas/"
			"sarif-schema-2.1.0.json\",\n  \"version\": "
			"\"2.1.0\",\n  \"runs\": [\n    {\n      \"tool\": "
			"{\n        \"driver\": {\n          \"name\": "
			"\"sm-preflight\",\n          \"version\": ");
	smp__out_json_string(o, smp_version());
	smp__out_str(o, ",\n          \"semanticVersion\": ");
	smp__out_json_string(o, smp_version());
	/* absolute, as SARIF wants it: the published rules, else AWS's
	 * documentation of the compiler the rules check */
	smp__out_str(o, ",\n          \"informationUri\": ");
	smp__out_json_string(o, absolute_uri(em->rules_uri)
					? em->rules_uri
					: SMP_SARIF_INFORMATION_URI);
	smp__out_str(o, ",\n          \"rules\": [");
	for (i = 0; i < n; i++) {
		smp__out_str(o, i ? ",\n            " : "\n            ");
		out_rule(em, smp_rule_at(i));
	}
	smp__out_str(o, "\n          ]\n        }\n      },\n");
	if (em->source_root) {
		/* what %SRCROOT% stands for: a folder, so a final slash */
		smp__out_str(o, "      \"originalUriBaseIds\": {\"" SRCROOT
				"\": {\"uri\": \"");
		smp__out_uri_path(o, em->source_root);
		if (strcmp(em->source_root, "/") != 0)
			smp__out_str(o, "/");
		smp__out_str(o, "\"}},\n");
	}
	smp__out_str(o, "      \"columnKind\": \"unicodeCodePoints\",\n");
	smp__out_str(o, "      \"properties\": {\"instanceData\": "
			"{\"version\": ");
	smp__out_json_string(o, smp_context_data_version(em->ctx));
	smp__out_str(o, ", \"date\": ");
	smp__out_json_string(o, smp_context_data_date(em->ctx));
	smp__out_str(o, ", \"source\": ");
	smp__out_json_string(o, smp_context_data_source(em->ctx));
	smp__out_str(o, "}},\n      \"results\": [");
	em->items = 0;
}

/*
 * The region of a finding. SARIF columns, like ours, are 1-based and the
 * end column is exclusive; columnKind says they count code points.
 */
static void
out_region(struct smp__out *o, const struct smp_finding *f)
{
	smp__out_str(o, "\"region\": {\"startLine\": ");
	if (!f->line) {
		smp__out_str(o, "1}");
		return;
	}
	smp__out_uint(o, f->line);
	if (f->column) {
		smp__out_str(o, ", \"startColumn\": ");
		smp__out_uint(o, f->column);
	}
	if (f->end_line >= f->line) {
		smp__out_str(o, ", \"endLine\": ");
		smp__out_uint(o, f->end_line);
		if (f->column && f->end_column &&
		    (f->end_line > f->line || f->end_column >= f->column)) {
			smp__out_str(o, ", \"endColumn\": ");
			smp__out_uint(o, f->end_column);
		}
	}
	smp__out_str(o, "}");
}

/* The files of one report resolved for SARIF (artifact.h), the last one
 * kept: a report's findings are mostly in one or two files. */
struct files {
	struct smp_emitter *em;
	const char *name; /* what art was resolved for; NULL: nothing yet */
	struct smp__artifact art;
	uint64_t *keys;     /* per finding: its fingerprint key */
	size_t *occurrence; /* per finding: earlier ones with its key */
};

/* The artifact of name, or NULL when it could not be allocated. */
static const struct smp__artifact *
resolve(struct files *fs, const char *name)
{
	if (fs->name && strcmp(fs->name, name) == 0)
		return &fs->art;
	smp__artifact_release(&fs->art, &fs->em->alloc);
	fs->name = NULL;
	if (smp__artifact_resolve(&fs->art, &fs->em->alloc, fs->em->source_root,
				  fs->em->base_dir, name))
		return NULL;
	fs->name = name;
	return &fs->art;
}

/* An artifactLocation: relative to %SRCROOT% when the file is below it. */
static void
out_artifact(struct smp__out *o, const struct smp__artifact *art)
{
	smp__out_str(o, "{\"uri\": \"");
	smp__out_uri_path(o, art->path);
	smp__out_str(o, art->in_root ? "\", \"uriBaseId\": \"" SRCROOT "\"}"
				     : "\"}");
}

/* A finding's key and index, sorted to count the occurrences. */
struct keyed {
	uint64_t key;
	size_t i;
};

static int
by_key(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	int c = (x->key > y->key) - (x->key < y->key);

	return c ? c : (x->i > y->i) - (x->i < y->i);
}

/*
 * How many findings before each have its key, into fs->occurrence: one
 * sort instead of a scan of the earlier ones for each (which took
 * seconds for 99,000 duplicate keys). 0 or SMP_ENOMEM.
 */
static int
occurrences(struct files *fs, size_t n)
{
	struct keyed *k;
	size_t i;

	fs->occurrence = smp__calloc(&fs->em->alloc, n ? n : 1, sizeof(size_t));
	k = smp__calloc(&fs->em->alloc, n ? n : 1, sizeof(*k));
	if (!fs->occurrence || !k) {
		smp__free(&fs->em->alloc, k);
		return SMP_ENOMEM;
	}
	for (i = 0; i < n; i++) {
		k[i].key = fs->keys[i];
		k[i].i = i;
	}
	qsort(k, n, sizeof(*k), by_key);
	for (i = 1; i < n; i++)
		if (k[i].key == k[i - 1].key)
			fs->occurrence[k[i].i] = fs->occurrence[k[i - 1].i] + 1;
	smp__free(&fs->em->alloc, k);
	return 0;
}

static void
out_result(struct smp_emitter *em, const struct smp_finding *f,
	   const char *file, size_t i, void *ud)
{
	struct files *fs = ud;
	struct smp__out *o = &em->out;
	const struct smp__artifact *art = resolve(fs, file);
	char fp[SMP_FINGERPRINT_SIZE];
	enum smp_rule_id id;

	if (!art) {
		em->oom = 1;
		return;
	}
	smp__out_str(o, "{\"ruleId\": ");
	smp__out_json_string(o, f->rule ? f->rule : "?");
	if (f->rule && smp__rule_lookup(&id, f->rule) == 0) {
		smp__out_str(o, ", \"ruleIndex\": ");
		smp__out_uint(o, (uint64_t)id);
	}
	smp__out_str(o, ", \"level\": \"");
	smp__out_str(o, level(f->severity));
	smp__out_str(o, "\", \"message\": {\"text\": \"");
	smp__out_json_string_body(o, f->message ? f->message : "");
	if (f->fix) {
		smp__out_str(o, "\\nfix: ");
		smp__out_json_string_body(o, f->fix);
	}
	smp__out_str(o, "\"}, \"locations\": [{\"physicalLocation\": "
			"{\"artifactLocation\": ");
	out_artifact(o, art);
	smp__out_str(o, ", ");
	out_region(o, f);
	smp__out_str(o, "}}], \"partialFingerprints\": {\"" SMP_FINGERPRINT_KEY
			"\": \"");
	smp__fingerprint_hex(fp, fs->keys[i], fs->occurrence[i]);
	smp__out_str(o, fp);
	smp__out_str(o, "\"}");
	if (f->suppressed) {
		smp__out_str(o, ", \"suppressions\": [{\"kind\": \"inSource\"");
		if (f->suppression_reason) {
			smp__out_str(o, ", \"justification\": ");
			smp__out_json_string(o, f->suppression_reason);
		}
		smp__out_str(o, "}]");
	}
	if (f->pointer && f->pointer[0]) {
		smp__out_str(o, ", \"properties\": {\"pointer\": ");
		smp__out_json_string(o, f->pointer);
		smp__out_str(o, "}");
	}
	smp__out_str(o, "}");
}

/*
 * Every finding's fingerprint key first (hidden ones too, so that
 * --severity and min_severity change no fingerprint), then the visible
 * results.
 */
static void
sarif_file(struct smp_emitter *em, const struct smp_report *report)
{
	const char *file = smp__emit_report_file(report);
	struct smp__fp_cursor cursor;
	struct files fs;
	size_t i;

	memset(&fs, 0, sizeof(fs));
	fs.em = em;
	fs.keys = smp__calloc(&em->alloc, report->count ? report->count : 1,
			      sizeof(*fs.keys));
	if (!fs.keys) {
		em->oom = 1;
		return;
	}
	memset(&cursor, 0, sizeof(cursor));
	for (i = 0; i < report->count; i++) {
		const struct smp_finding *f = &report->items[i];
		const struct smp__artifact *art;
		const char *text;
		size_t n;

		art = resolve(&fs, f->file ? f->file : file);
		if (!art) {
			em->oom = 1;
			break;
		}
		n = smp__fingerprint_text(&cursor, f->source_line, f->column,
					  &text);
		fs.keys[i] = smp__fingerprint_key(f->rule ? f->rule : "?",
						  art->path, text, n);
	}
	if (!em->oom && occurrences(&fs, report->count))
		em->oom = 1;
	if (!em->oom)
		smp__emit_items(em, report, "        ", out_result, &fs);
	smp__artifact_release(&fs.art, &em->alloc);
	smp__free(&em->alloc, fs.keys);
	smp__free(&em->alloc, fs.occurrence);
}

/* a notification of the run's one invocation, kept in the
 * body until the results are closed. */
static void
sarif_failure(struct smp_emitter *em, const char *file, const char *message)
{
	struct smp__out *o = &em->out;
	struct smp__artifact art;
	struct smp__sink saved;

	if (smp__artifact_resolve(&art, &em->alloc, em->source_root,
				  em->base_dir, file)) {
		em->oom = 1;
		return;
	}
	if (smp__emit_failure_open(em, &saved, "          ") == 0) {
		smp__out_str(o, "{\"level\": \"error\", \"message\": "
				"{\"text\": \"could not be checked: ");
		smp__out_json_string_body(o, message);
		smp__out_str(o, "\"}, \"locations\": [{\"physicalLocation\": "
				"{\"artifactLocation\": ");
		out_artifact(o, &art);
		smp__out_str(o, "}}]}");
		smp__emit_body_close(em, &saved);
	}
	smp__artifact_release(&art, &em->alloc);
}

static void
sarif_end(struct smp_emitter *em)
{
	struct smp__out *o = &em->out;

	smp__emit_array_close(em, "      ");
	if (em->failures) {
		smp__out_str(o, ",\n      \"invocations\": [{"
				"\"executionSuccessful\": false, "
				"\"toolExecutionNotifications\": [");
		smp__out_mem(o, smp__buf_str(&em->body), em->body.len);
		smp__out_str(o, "\n      ]}]");
	}
	smp__out_str(o, "\n    }\n  ]\n}\n");
}

const struct smp_emitter_ops smp__emit_sarif = {
	.name = "sarif",
	.begin = sarif_begin,
	.file = sarif_file,
	.failure = sarif_failure,
	.end = sarif_end,
};
