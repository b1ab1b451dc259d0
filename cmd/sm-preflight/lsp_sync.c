/*
 * lsp_sync.c - text documents as the client has them, unsaved edits
 * included: didOpen, didChange with full or incremental changes
 * (TextDocumentSyncKind.Incremental, which covers both), didClose,
 * didSave (the notifications are lsp_text.c's). A document that grows
 * over LSP_MAX_DOCUMENT drops its text, and a diagnostic says so.
 */
#include <stdlib.h>
#include <string.h>

#include "lsp.h"

struct lsp_doc *
lsp_doc_find(struct lsp_server *s, const char *uri)
{
	struct lsp_doc *d;

	for (d = s->docs; uri && d; d = d->next)
		if (strcmp(d->uri, uri) == 0)
			return d;
	return NULL;
}

void
lsp_doc_free(struct lsp_doc *d)
{
	if (!d)
		return;
	smp_report_free(d->report);
	free(d->uri);
	free(d->path);
	free(d->text);
	free(d);
}

/* Takes text (malloc'd) as the document's; over the limit, drops it. */
void
lsp_doc_set_text(struct lsp_doc *d, char *text, size_t len)
{
	free(d->text);
	d->too_big = len > LSP_MAX_DOCUMENT;
	if (d->too_big) {
		free(text);
		text = NULL;
		len = 0;
	}
	d->text = text;
	d->len = len;
	smp_report_free(d->report);
	d->report = NULL;
}

static char *
copy(const char *s, size_t n)
{
	char *p = malloc(n + 1);

	if (p) {
		memcpy(p, s, n);
		p[n] = '\0';
	}
	return p;
}

struct lsp_doc *
lsp_doc_open(struct lsp_server *s, const char *uri, const char *text,
	     size_t len, long version)
{
	struct lsp_doc *d = lsp_doc_find(s, uri);
	char *t = len > LSP_MAX_DOCUMENT ? copy("", 0) : copy(text, len);

	if (!t)
		return NULL;
	if (!d) {
		d = calloc(1, sizeof(*d));
		if (!d || !(d->uri = copy(uri, strlen(uri)))) {
			free(d);
			free(t);
			return NULL;
		}
		d->path = lsp_uri_path(uri);
		if (!d->path)
			d->path = copy(uri, strlen(uri));
		d->next = s->docs;
		s->docs = d;
	}
	lsp_doc_set_text(d, t, len > LSP_MAX_DOCUMENT ? 0 : len);
	d->too_big = len > LSP_MAX_DOCUMENT;
	d->version = version;
	return d;
}

void
lsp_doc_close(struct lsp_server *s, const char *uri)
{
	struct lsp_doc **pp;

	for (pp = &s->docs; *pp; pp = &(*pp)->next) {
		if (strcmp((*pp)->uri, uri) == 0) {
			struct lsp_doc *d = *pp;

			*pp = d->next;
			lsp_doc_free(d);
			return;
		}
	}
}

/* text[a, z) becomes rep[0..n); 0, or -1 when memory ran out. */
static int
splice(struct lsp_doc *d, size_t a, size_t z, const char *rep, size_t n)
{
	size_t len = d->len - (z - a) + n;
	char *t;

	if (len > LSP_MAX_DOCUMENT) {
		lsp_doc_set_text(d, NULL, len);
		d->too_big = 1;
		return 0;
	}
	t = malloc(len + 1);
	if (!t)
		return -1;
	/* a document over the limit has no text (NULL) to copy from */
	if (a)
		memcpy(t, d->text, a);
	memcpy(t + a, rep, n);
	if (d->len > z)
		memcpy(t + a + n, d->text + z, d->len - z);
	t[len] = '\0';
	lsp_doc_set_text(d, t, len);
	return 0;
}

/* One TextDocumentContentChangeEvent: with a range, incremental. */
static int
apply_change(struct lsp_server *s, struct lsp_doc *d,
	     const struct smp_json_value *c)
{
	const struct smp_json_value *range = smp_json_get(c, "range");
	const struct smp_json_value *tv = smp_json_get(c, "text");
	struct lsp_position a, z;
	size_t n = 0, oa, oz;
	const char *text = smp_json_text(tv, &n);

	if (smp_json_type(tv) != SMP_JSON_STRING)
		return -1;
	if (!range)
		return splice(d, 0, d->len, text, n);
	if (lsp_read_position(smp_json_get(range, "start"), &a) ||
	    lsp_read_position(smp_json_get(range, "end"), &z))
		return -1;
	if (d->too_big)
		return 0; /* no text to edit; a full change brings it back */
	oa = lsp_offset(s, d->text, d->len, a);
	oz = lsp_offset(s, d->text, d->len, z);
	if (oz < oa)
		return -1;
	return splice(d, oa, oz, text, n);
}

int
lsp_doc_change(struct lsp_server *s, struct lsp_doc *d,
	       const struct smp_json_value *changes)
{
	size_t i, n = smp_json_length(changes);

	if (smp_json_type(changes) != SMP_JSON_ARRAY)
		return -1;
	for (i = 0; i < n; i++)
		if (apply_change(s, d, smp_json_at(changes, i)))
			return -1;
	return 0;
}
