/*
 * lsp_diag.c - a document checked as the editor has it (the unsaved
 * text, through smp_check with the file's real path, so that the dialect,
 * the entry scripts next to it and its configuration are found as the
 * CLI finds them), its findings published as LSP diagnostics. Changes are
 * debounced: a document is checked once typing pauses for debounce_ms.
 */
#include <stdlib.h>
#include <string.h>

#include "lsp.h"

void
lsp_doc_mark(struct lsp_server *s, struct lsp_doc *d)
{
	d->dirty = 1;
	d->due = lsp_now_ms() + s->debounce_ms;
}

int
lsp_check_text(struct lsp_server *s, const char *path, const char *text,
	       size_t len, struct smp_report **out,
	       const struct smp_context **ctxp)
{
	struct smp_check_options o = SMP_CHECK_OPTIONS_INIT;
	const struct smp_context *ctx = lsp_config_context(s, path, &o.flags);
	const char *slash = strrchr(path, '/');
	struct smp_error err;
	char *dir = NULL;
	int rc;

	*out = NULL;
	*ctxp = ctx;
	if (!ctx)
		return SMP_ENOMEM;
	if (slash) {
		/* entry scripts from the spec's folder, as a check of the
		 * file finds them (a buffer's folder is not known) */
		size_t n = slash == path ? 1 : (size_t)(slash - path);

		dir = malloc(n + 1);
		if (!dir)
			return SMP_ENOMEM;
		memcpy(dir, path, n);
		dir[n] = '\0';
		o.script_dir = dir;
	}
	memset(&err, 0, sizeof(err));
	rc = smp_check(out, ctx, path, text ? text : "", len, &o, &err);
	if (rc)
		lsp_log(s, 1, "%s: cannot check: %s", path,
			err.message[0] ? err.message : smp_strerror(rc));
	free(dir);
	return rc;
}

static void
publish_too_big(struct lsp_server *s, const struct lsp_doc *d)
{
	struct lsp_buf b = {0};

	lsp_notify_open(&b, "textDocument/publishDiagnostics");
	lsp_buf_str(&b, "{\"uri\":");
	lsp_buf_json(&b, d->uri);
	lsp_buf_printf(&b,
		       ",\"diagnostics\":[{\"range\":{\"start\":{\"line\":0,"
		       "\"character\":0},\"end\":{\"line\":0,\"character\":"
		       "0}},\"severity\":1,\"code\":\"input-limit\","
		       "\"source\":\"sm-preflight\",\"message\":\"the "
		       "document is over %zu bytes; sm-preflight does not "
		       "check it in the editor\"}]}}",
		       LSP_MAX_DOCUMENT);
	lsp_send(s, &b);
	lsp_buf_free(&b);
}

void
lsp_doc_check(struct lsp_server *s, struct lsp_doc *d)
{
	if (!d->dirty || d->nb)
		return; /* a cell is checked with its notebook */
	d->dirty = 0;
	smp_report_free(d->report);
	d->report = NULL;
	if (d->too_big) {
		publish_too_big(s, d);
		return;
	}
	if (lsp_config_check(s, d->uri, d->path, d->text, d->len) ||
	    lsp_check_text(s, d->path, d->text, d->len, &d->report, &d->ctx))
		return;
	lsp_publish(s, d->uri, d->path, d->text, d->len, d->report, 0);
}

int64_t
lsp_docs_due(struct lsp_server *s, int64_t now)
{
	int64_t next = -1;
	struct lsp_doc *d;

	for (d = s->docs; d; d = d->next) {
		if (!d->dirty || d->nb)
			continue;
		if (d->due <= now)
			lsp_doc_check(s, d);
		else if (next < 0 || d->due < next)
			next = d->due;
	}
	return next;
}

static int
severity(enum smp_severity sev)
{
	switch (sev) {
	case SMP_SEVERITY_ERROR:
		return 1;
	case SMP_SEVERITY_WARNING:
		return 2;
	default:
		return 3;
	}
}

/* 1 when the finding is in another file than the one checked (a spec's
 * entry script). */
static int
elsewhere(const struct smp_finding *f, const char *path)
{
	return f->file && f->file[0] && strcmp(f->file, path) != 0;
}

static void
related(struct lsp_buf *b, const struct smp_finding *f)
{
	struct lsp_position p;

	p.line = f->line ? f->line - 1 : 0;
	/* the script is not open: its columns are taken as they are (the
	 * same in UTF-16 for ASCII source) */
	p.character = f->column ? f->column - 1 : 0;
	lsp_buf_str(b, ",\"relatedInformation\":[{\"location\":{\"uri\":");
	if (f->file[0] == '/') {
		struct lsp_buf u = {0};

		lsp_buf_file_uri(&u, f->file);
		lsp_buf_json(b, u.data ? u.data : "");
		lsp_buf_free(&u);
	} else {
		lsp_buf_json(b, f->file);
	}
	lsp_buf_str(b, ",\"range\":");
	lsp_buf_range(b, p, p);
	lsp_buf_str(b, "},\"message\":\"the entry script's line behind "
		       "this finding\"}]");
}

/* The range of f in the checked text (a cell's lines when cell). */
static void
range_of(struct lsp_server *s, struct lsp_buf *b, const char *text, size_t len,
	 const struct smp_finding *f, uint32_t cell)
{
	struct lsp_position a, z;

	if (cell) {
		a = lsp_position_chars(s, text, len, f->cell_line,
				       f->cell_column);
		z = f->cell_end_column
			    ? lsp_position_chars(s, text, len, f->cell_line,
						 f->cell_end_column)
			    : a;
	} else {
		a = lsp_position_chars(s, text, len, f->line, f->column);
		z = f->end_line ? lsp_position_chars(s, text, len, f->end_line,
						     f->end_column)
				: a;
	}
	lsp_buf_range(b, a, z);
}

void
lsp_buf_diagnostic(struct lsp_server *s, struct lsp_buf *b, const char *text,
		   size_t len, const char *path, const struct smp_finding *f,
		   uint32_t cell)
{
	int away = elsewhere(f, path);
	struct lsp_position zero = {0, 0};

	lsp_buf_str(b, "{\"range\":");
	if (away)
		lsp_buf_range(b, zero, zero); /* the spec names the script */
	else
		range_of(s, b, text, len, f, cell);
	lsp_buf_printf(b, ",\"severity\":%d,\"code\":", severity(f->severity));
	lsp_buf_json(b, f->rule);
	if (s->rules_uri) {
		lsp_buf_str(b, ",\"codeDescription\":{\"href\":\"");
		/* the base is a URI already; the id is kebab-case */
		lsp_buf_add(b, s->rules_uri, strlen(s->rules_uri));
		lsp_buf_printf(b, "#%s\"}", f->rule);
	}
	lsp_buf_str(b, ",\"source\":\"sm-preflight\",\"message\":");
	{
		struct lsp_buf m = {0};

		lsp_buf_str(&m, f->message);
		if (f->fix) {
			lsp_buf_str(&m, "\nfix: ");
			lsp_buf_str(&m, f->fix);
		}
		lsp_buf_json(b, m.data ? m.data : f->message);
		lsp_buf_free(&m);
	}
	if (away)
		related(b, f);
	lsp_buf_str(b, "}");
}

void
lsp_publish(struct lsp_server *s, const char *uri, const char *path,
	    const char *text, size_t len, const struct smp_report *rep,
	    uint32_t cell)
{
	struct lsp_buf b = {0};
	size_t i, n = smp_report_count(rep), k = 0;

	lsp_notify_open(&b, "textDocument/publishDiagnostics");
	lsp_buf_str(&b, "{\"uri\":");
	lsp_buf_json(&b, uri);
	lsp_buf_str(&b, ",\"diagnostics\":[");
	for (i = 0; i < n; i++) {
		const struct smp_finding *f = smp_report_get(rep, i);

		/* a suppressed finding is hidden, as the text output does */
		/* a notebook's finding outside every cell goes on the
		 * first cell */
		if (f->suppressed ||
		    (cell && f->cell != cell && !(cell == 1 && !f->cell)))
			continue;
		if (k++)
			lsp_buf_str(&b, ",");
		lsp_buf_diagnostic(s, &b, text, len, path, f, cell);
	}
	lsp_buf_str(&b, "]}}");
	lsp_send(s, &b);
	lsp_buf_free(&b);
}
