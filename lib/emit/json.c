/*
 * json.c - the JSON report (`check --format json`), described by
 * schemas/report.schema.json:
 *
 *   {
 *     "schema_version": 2,
 *     "tool": {"name": "sm-preflight", "version": "0.1.0"},
 *     "instance_data": {"version": ..., "date": ..., "source": ...},
 *     "findings": [
 *       {"rule": ..., "severity": ..., "file": ..., "line": ..., ...},
 *       ...
 *     ],
 *     "errors": [{"file": ..., "message": ...}, ...],
 *     "summary": {"files": ..., "files_with_errors": ..., ...,
 *                 "walk": {"files_skipped": ..., "jobs": ...,
 *                          "jobs_not_judged": ...}}
 *   }
 *
 * "errors" (the files that could not be checked) and the summary's
 * "files_failed" are there only when some file failed.
 *
 * Written by hand rather than with cJSON: cJSON builds the whole tree in
 * memory (a run over 10,000 files would hold every finding until the end)
 * and allocates through process-wide hooks instead of the context's
 * allocator. Streaming keeps memory flat; out.c's escaper produces
 * valid JSON from any bytes. One finding per line keeps the output easy
 * to grep and to diff.
 */
#include "context/context.h"
#include "emit/emitter.h"
#include "report/report.h"

/* A position field: the number, or null when the finding has none. */
static void
out_pos(struct smp__out *o, const char *key, uint32_t v)
{
	smp__out_str(o, key);
	if (v)
		smp__out_uint(o, v);
	else
		smp__out_str(o, "null");
}

/*
 * The suggestion as a replacement: {"op": "set", "pointer": P, "value": V}
 * with V in its JSON type, or {"op": "rename", "from": P0, "pointer": P}
 * (docs/API.md, "Suggestions"); null without one.
 */
static void
out_suggestion(struct smp__out *o, const struct smp_finding *f)
{
	if (f->suggestion_op == SMP_SUGGESTION_NONE || !f->suggestion ||
	    !f->suggestion_pointer) {
		smp__out_str(o, "null");
		return;
	}
	if (f->suggestion_op == SMP_SUGGESTION_RENAME) {
		smp__out_str(o, "{\"op\": \"rename\", \"from\": ");
		smp__out_json_string(o, f->suggestion_from);
		smp__out_str(o, ", \"pointer\": ");
		smp__out_json_string(o, f->suggestion_pointer);
		smp__out_str(o, "}");
		return;
	}
	smp__out_str(o, "{\"op\": \"set\", \"pointer\": ");
	smp__out_json_string(o, f->suggestion_pointer);
	smp__out_str(o, ", \"value\": ");
	if (f->suggestion_type == SMP_VALUE_STRING)
		smp__out_json_string(o, f->suggestion);
	else
		smp__out_str(o, f->suggestion); /* checked when it was set */
	smp__out_str(o, "}");
}

static void
out_finding(struct smp__out *o, const struct smp_finding *f, const char *file)
{
	smp__out_str(o, "{\"rule\": ");
	smp__out_json_string(o, f->rule ? f->rule : "?");
	smp__out_str(o, ", \"severity\": ");
	smp__out_json_string(o, smp_severity_name(f->severity));
	smp__out_str(o, ", \"file\": ");
	smp__out_json_string(o, f->file ? f->file : file);
	out_pos(o, ", \"line\": ", f->line);
	out_pos(o, ", \"column\": ", f->line ? f->column : 0);
	out_pos(o, ", \"end_line\": ", f->line ? f->end_line : 0);
	out_pos(o, ", \"end_column\": ",
		f->line && f->end_line ? f->end_column : 0);
	if (f->cell) {
		/* a notebook: the cell and the place within it too */
		out_pos(o, ", \"cell\": ", f->cell);
		out_pos(o, ", \"cell_line\": ", f->cell_line);
		out_pos(o, ", \"cell_column\": ", f->cell_column);
	}
	smp__out_str(o, ", \"message\": ");
	smp__out_json_string(o, f->message ? f->message : "");
	smp__out_str(o, ", \"pointer\": ");
	smp__out_json_string(o, f->pointer);
	smp__out_str(o, ", \"fix\": ");
	smp__out_json_string(o, f->fix);
	smp__out_str(o, ", \"suggestion\": ");
	out_suggestion(o, f);
	if (f->edit_text) {
		/* the suggestion as the byte edit check --fix makes */
		smp__out_str(
			o,
			f->edit_unsafe
				? ", \"edit\": {\"applicability\": \"unsafe\""
				: ", \"edit\": {\"applicability\": \"safe\"");
		smp__out_printf(o, ", \"start\": %zu, \"end\": %zu",
				f->edit_start, f->edit_end);
		smp__out_str(o, ", \"replacement\": ");
		smp__out_json_string(o, f->edit_text);
		smp__out_str(o, "}");
	}
	smp__out_str(o, f->suppressed ? ", \"suppressed\": true"
				      : ", \"suppressed\": false");
	smp__out_str(o, ", \"suppression_reason\": ");
	smp__out_json_string(o, f->suppressed ? f->suppression_reason : NULL);
	smp__out_str(o, "}");
}

static void
json_begin(struct smp_emitter *em)
{
	struct smp__out *o = &em->out;

	smp__out_str(o, "{\n  \"schema_version\": ");
	smp__out_uint(o, SMP_REPORT_SCHEMA_VERSION);
	smp__out_str(o, ",\n  \"tool\": {\"name\": \"sm-preflight\", "
			"\"version\": ");
	smp__out_json_string(o, smp_version());
	smp__out_str(o, "},\n  \"instance_data\": {\"version\": ");
	smp__out_json_string(o, smp_context_data_version(em->ctx));
	smp__out_str(o, ", \"date\": ");
	smp__out_json_string(o, smp_context_data_date(em->ctx));
	smp__out_str(o, ", \"source\": ");
	smp__out_json_string(o, smp_context_data_source(em->ctx));
	smp__out_str(o, "},\n  \"findings\": [");
	em->items = 0;
}

static void
json_item(struct smp_emitter *em, const struct smp_finding *f, const char *file,
	  size_t i, void *ud)
{
	(void)i;
	(void)ud;
	out_finding(&em->out, f, file);
}

static void
json_file(struct smp_emitter *em, const struct smp_report *report)
{
	smp__emit_items(em, report, "    ", json_item, NULL);
}

/* kept in the body until the findings are closed. */
static void
json_failure(struct smp_emitter *em, const char *file, const char *message)
{
	struct smp__out *o = &em->out;
	struct smp__sink saved;

	if (smp__emit_failure_open(em, &saved, "    "))
		return;
	smp__out_str(o, "{\"file\": ");
	smp__out_json_string(o, file);
	smp__out_str(o, ", \"message\": ");
	smp__out_json_string(o, message);
	smp__out_str(o, "}");
	smp__emit_body_close(em, &saved);
}

/* The summary's "walk": what smp_emitter_walk_summary() said. */
static void
json_walk(struct smp_emitter *em)
{
	static const char *const keys[] = {"files_skipped", "jobs",
					   "jobs_not_judged"};
	const size_t values[] = {em->walk_skipped, em->walk_jobs,
				 em->walk_not_judged};
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		smp__out_str(&em->out, i ? ", \"" : ", \"walk\": {\"");
		smp__out_str(&em->out, keys[i]);
		smp__out_str(&em->out, "\": ");
		smp__out_uint(&em->out, values[i]);
	}
	smp__out_str(&em->out, "}");
}

static void
json_end(struct smp_emitter *em)
{
	struct smp__out *o = &em->out;

	smp__emit_array_close(em, "  ");
	smp__out_str(o, ",\n");
	if (em->failures) {
		/* the files that could not be checked */
		smp__out_str(o, "  \"errors\": [");
		smp__out_mem(o, smp__buf_str(&em->body), em->body.len);
		smp__out_str(o, "\n  ],\n");
	}
	smp__out_str(o, "  \"summary\": {\"files\": ");
	smp__out_uint(o, em->files);
	smp__out_str(o, ", \"files_with_errors\": ");
	smp__out_uint(o, em->files_with_errors);
	smp__out_str(o, ", \"findings\": ");
	smp__out_uint(o, em->counts[SMP_SEVERITY_ERROR] +
				 em->counts[SMP_SEVERITY_WARNING] +
				 em->counts[SMP_SEVERITY_INFO]);
	smp__out_str(o, ", \"error\": ");
	smp__out_uint(o, em->counts[SMP_SEVERITY_ERROR]);
	smp__out_str(o, ", \"warning\": ");
	smp__out_uint(o, em->counts[SMP_SEVERITY_WARNING]);
	smp__out_str(o, ", \"info\": ");
	smp__out_uint(o, em->counts[SMP_SEVERITY_INFO]);
	smp__out_str(o, ", \"suppressed\": ");
	smp__out_uint(o, em->suppressed);
	if (em->failures) {
		smp__out_str(o, ", \"files_failed\": ");
		smp__out_uint(o, em->failures);
	}
	if (em->walked)
		json_walk(em);
	smp__out_str(o, "}\n}\n");
}

const struct smp_emitter_ops smp__emit_json = {
	.name = "json",
	.begin = json_begin,
	.file = json_file,
	.failure = json_failure,
	.end = json_end,
};
