/*
 * lsp_text.c - the text document notifications (didOpen, didChange,
 * didClose, didSave): the document store's changes (lsp_sync.c), then a
 * check now (open) or after the debounce (change) of the document, or of
 * the notebook a cell belongs to (lsp_notebook.c).
 */
#include <stdlib.h>
#include <string.h>

#include "lsp.h"

void
lsp_mark_any(struct lsp_server *s, struct lsp_doc *d)
{
	if (d->nb)
		lsp_nb_mark(s, d->nb);
	else
		lsp_doc_mark(s, d);
}

void
lsp_did_open(struct lsp_server *s, const struct smp_json_value *params)
{
	const struct smp_json_value *item =
		smp_json_get(params, "textDocument");
	const char *uri = lsp_str(item, "uri");
	size_t n = 0;
	const char *text = smp_json_text(smp_json_get(item, "text"), &n);
	struct lsp_doc *d;

	if (!uri || !text)
		return;
	d = lsp_doc_open(s, uri, text, n, lsp_int(item, "version", 0));
	if (!d || d->nb)
		return;
	lsp_doc_mark(s, d);
	lsp_doc_check(s, d); /* on open at once: nothing to wait for */
}

void
lsp_did_change(struct lsp_server *s, const struct smp_json_value *params)
{
	const struct smp_json_value *id = smp_json_get(params, "textDocument");
	struct lsp_doc *d = lsp_doc_find(s, lsp_str(id, "uri"));

	if (!d)
		return;
	if (lsp_doc_change(s, d, smp_json_get(params, "contentChanges")))
		lsp_log(s, 1,
			"%s: a malformed change; the document may "
			"differ from the editor's until it is reopened",
			d->uri);
	d->version = lsp_int(id, "version", d->version);
	lsp_mark_any(s, d);
}

void
lsp_did_close(struct lsp_server *s, const struct smp_json_value *params)
{
	const char *uri = lsp_str(smp_json_get(params, "textDocument"), "uri");
	struct lsp_buf b = {0};

	if (!uri || !lsp_doc_find(s, uri))
		return;
	lsp_doc_close(s, uri);
	/* a closed file's diagnostics go with it */
	lsp_notify_open(&b, "textDocument/publishDiagnostics");
	lsp_buf_str(&b, "{\"uri\":");
	lsp_buf_json(&b, uri);
	lsp_buf_str(&b, ",\"diagnostics\":[]}}");
	lsp_send(s, &b);
	lsp_buf_free(&b);
}

void
lsp_did_save(struct lsp_server *s, const struct smp_json_value *params)
{
	const char *uri = lsp_str(smp_json_get(params, "textDocument"), "uri");
	char *path = uri ? lsp_uri_path(uri) : NULL;
	struct lsp_doc *d;

	if (path && lsp_config_is_file(path)) {
		/* a configuration changed: every document is judged again */
		lsp_config_reset(s);
		for (d = s->docs; d; d = d->next)
			lsp_mark_any(s, d);
	}
	free(path);
}
