/*
 * lsp_notebook.c - Jupyter notebooks as LSP 3.17 notebook documents: the
 * client sends the cells (each a text document of its own) and their
 * order; the server writes them back into an nbformat 4 notebook, checks
 * it as the CLI checks a .ipynb file, and publishes each finding on its
 * cell's document at the line and column within the cell (the library's
 * cell, cell_line, cell_column). A finding outside every cell goes on the
 * first one.
 */
#include <stdlib.h>
#include <string.h>

#include "lsp.h"

struct nb_cell {
	char *uri;
	int code; /* kind 2: code; 1: markup */
};

struct lsp_notebook {
	char *uri, *path;
	struct nb_cell *cells;
	size_t ncells;
	int dirty;
	int64_t due;
	/* the last check: its report, the .ipynb text it read and where each
	 * cell's source string lies in it (to map fixes back to cells) */
	struct smp_report *report;
	char *json;
	size_t *src_from, *src_to;
	struct lsp_notebook *next;
};

static struct lsp_notebook *
nb_find(struct lsp_server *s, const char *uri)
{
	struct lsp_notebook *nb;

	for (nb = s->notebooks; uri && nb; nb = nb->next)
		if (strcmp(nb->uri, uri) == 0)
			return nb;
	return NULL;
}

static void
cells_free(struct lsp_notebook *nb, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		free(nb->cells[i].uri);
}

/* Drops the last check (the cells or their order changed). */
static void
nb_forget(struct lsp_notebook *nb)
{
	smp_report_free(nb->report);
	free(nb->json);
	free(nb->src_from);
	free(nb->src_to);
	nb->report = NULL;
	nb->json = NULL;
	nb->src_from = nb->src_to = NULL;
}

static void
nb_free(struct lsp_notebook *nb)
{
	nb_forget(nb);
	cells_free(nb, 0, nb->ncells);
	free(nb->cells);
	free(nb->uri);
	free(nb->path);
	free(nb);
}

/* Replaces cells[start, start+del) by the NotebookCell array add. */
static int
splice_cells(struct lsp_notebook *nb, size_t start, size_t del,
	     const struct smp_json_value *add)
{
	size_t n = smp_json_length(add), i, total;
	struct nb_cell *c;

	if (start > nb->ncells || del > nb->ncells - start)
		return -1;
	total = nb->ncells - del + n;
	c = calloc(total ? total : 1, sizeof(*c));
	if (!c)
		return -1;
	if (start)
		memcpy(c, nb->cells, start * sizeof(*c));
	for (i = 0; i < n; i++) {
		const struct smp_json_value *cell = smp_json_at(add, i);
		const char *uri = lsp_str(cell, "document");

		c[start + i].uri = strdup(uri ? uri : "");
		c[start + i].code = lsp_int(cell, "kind", 2) == 2;
	}
	if (nb->ncells > start + del) /* else nb->cells may be NULL */
		memcpy(c + start + n, nb->cells + start + del,
		       (nb->ncells - start - del) * sizeof(*c));
	cells_free(nb, start, start + del);
	free(nb->cells);
	nb->cells = c;
	nb->ncells = total;
	return 0;
}

/* Opens the cells' text documents of a TextDocumentItem array. */
static void
open_cells(struct lsp_server *s, struct lsp_notebook *nb,
	   const struct smp_json_value *items)
{
	for (size_t i = 0; i < smp_json_length(items); i++) {
		const struct smp_json_value *it = smp_json_at(items, i);
		const char *uri = lsp_str(it, "uri");
		size_t n = 0;
		const char *text = smp_json_text(smp_json_get(it, "text"), &n);
		struct lsp_doc *d;

		if (!uri || !text)
			continue;
		d = lsp_doc_open(s, uri, text, n, lsp_int(it, "version", 0));
		if (d)
			d->nb = nb;
	}
}

static void
close_cells(struct lsp_server *s, const struct smp_json_value *ids)
{
	for (size_t i = 0; i < smp_json_length(ids); i++)
		lsp_doc_close(s, lsp_str(smp_json_at(ids, i), "uri"));
}

void
lsp_nb_mark(struct lsp_server *s, struct lsp_notebook *nb)
{
	nb->dirty = 1;
	nb->due = lsp_now_ms() + s->debounce_ms;
}

void
lsp_nb_did_open(struct lsp_server *s, const struct smp_json_value *p)
{
	const struct smp_json_value *doc = smp_json_get(p, "notebookDocument");
	const char *uri = lsp_str(doc, "uri");
	struct lsp_notebook *nb;

	if (!uri || nb_find(s, uri))
		return;
	nb = calloc(1, sizeof(*nb));
	if (!nb || !(nb->uri = strdup(uri))) {
		free(nb);
		return;
	}
	nb->path = lsp_uri_path(uri);
	if (!nb->path)
		nb->path = strdup(uri);
	nb->next = s->notebooks;
	s->notebooks = nb;
	splice_cells(nb, 0, 0, smp_json_get(doc, "cells"));
	open_cells(s, nb, smp_json_get(p, "cellTextDocuments"));
	nb->dirty = 1;
	lsp_nb_check(s, nb);
}

/* The textContent changes of NotebookDocumentChangeEvent.cells. */
static void
text_changes(struct lsp_server *s, const struct smp_json_value *list)
{
	for (size_t i = 0; i < smp_json_length(list); i++) {
		const struct smp_json_value *c = smp_json_at(list, i);
		struct lsp_doc *d = lsp_doc_find(
			s, lsp_str(smp_json_get(c, "document"), "uri"));

		if (d && lsp_doc_change(s, d, smp_json_get(c, "changes")))
			lsp_log(s, 1, "%s: a malformed cell change", d->uri);
	}
}

void
lsp_nb_did_change(struct lsp_server *s, const struct smp_json_value *p)
{
	const struct smp_json_value *doc = smp_json_get(p, "notebookDocument");
	const struct smp_json_value *cells =
		smp_json_get(smp_json_get(p, "change"), "cells");
	const struct smp_json_value *st = smp_json_get(cells, "structure");
	struct lsp_notebook *nb = nb_find(s, lsp_str(doc, "uri"));

	if (!nb)
		return;
	if (st) {
		const struct smp_json_value *a = smp_json_get(st, "array");
		long start = lsp_int(a, "start", -1);
		long del = lsp_int(a, "deleteCount", -1);

		if (start < 0 || del < 0 ||
		    splice_cells(nb, (size_t)start, (size_t)del,
				 smp_json_get(a, "cells")))
			lsp_log(s, 1, "%s: a malformed cell structure change",
				nb->uri);
		close_cells(s, smp_json_get(st, "didClose"));
		open_cells(s, nb, smp_json_get(st, "didOpen"));
	}
	for (size_t i = 0; i < smp_json_length(smp_json_get(cells, "data"));
	     i++) {
		const struct smp_json_value *c =
			smp_json_at(smp_json_get(cells, "data"), i);
		const char *uri = lsp_str(c, "document");

		for (size_t k = 0; uri && k < nb->ncells; k++)
			if (nb->cells[k].uri &&
			    strcmp(nb->cells[k].uri, uri) == 0)
				nb->cells[k].code = lsp_int(c, "kind", 2) == 2;
	}
	text_changes(s, smp_json_get(cells, "textContent"));
	lsp_nb_mark(s, nb);
}

void
lsp_nb_did_close(struct lsp_server *s, const struct smp_json_value *p)
{
	const char *uri = lsp_str(smp_json_get(p, "notebookDocument"), "uri");
	struct lsp_notebook **pp;

	close_cells(s, smp_json_get(p, "cellTextDocuments"));
	for (pp = &s->notebooks; uri && *pp; pp = &(*pp)->next) {
		if (strcmp((*pp)->uri, uri) == 0) {
			struct lsp_notebook *nb = *pp;

			*pp = nb->next;
			nb_free(nb);
			return;
		}
	}
}

/* The notebook's cells as an nbformat 4 notebook (the CLI reads it),
 * each cell's source string at nb->src_from[i], src_to[i]. */
static void
write_ipynb(struct lsp_server *s, struct lsp_notebook *nb, struct lsp_buf *b)
{
	nb->src_from = calloc(nb->ncells + 1, sizeof(size_t));
	nb->src_to = calloc(nb->ncells + 1, sizeof(size_t));
	if (!nb->src_from || !nb->src_to)
		b->oom = 1;
	lsp_buf_str(b, "{\"cells\":[");
	for (size_t i = 0; i < nb->ncells; i++) {
		struct lsp_doc *d = lsp_doc_find(s, nb->cells[i].uri);

		if (i)
			lsp_buf_str(b, ",");
		lsp_buf_str(b, nb->cells[i].code
				       ? "{\"cell_type\":\"code\""
				       : "{\"cell_type\":\"markdown\"");
		lsp_buf_str(b, ",\"metadata\":{},\"source\":");
		if (nb->src_from && !b->oom)
			nb->src_from[i] = b->len + 1; /* after the quote */
		lsp_buf_json(b, d && d->text ? d->text : "");
		if (nb->src_to && !b->oom)
			nb->src_to[i] = b->len - 1;
		lsp_buf_str(b, nb->cells[i].code ? ",\"outputs\":[],"
						   "\"execution_count\":null}"
						 : "}");
	}
	lsp_buf_str(b,
		    "],\"metadata\":{},\"nbformat\":4,\"nbformat_minor\":5}");
}

void
lsp_nb_check(struct lsp_server *s, struct lsp_notebook *nb)
{
	struct lsp_buf b = {0};
	struct smp_report *rep = NULL;
	const struct smp_context *ctx;

	nb->dirty = 0;
	nb_forget(nb);
	for (size_t i = 0; i < nb->ncells; i++) {
		struct lsp_doc *d = lsp_doc_find(s, nb->cells[i].uri);

		if (d)
			d->dirty = 0;
	}
	write_ipynb(s, nb, &b);
	if (b.oom ||
	    lsp_check_text(s, nb->path, b.data, b.len, &rep, &ctx) != 0) {
		lsp_buf_free(&b);
		return;
	}
	for (size_t i = 0; i < nb->ncells; i++) {
		struct lsp_doc *d = lsp_doc_find(s, nb->cells[i].uri);

		if (d)
			lsp_publish(s, d->uri, nb->path, d->text, d->len, rep,
				    (uint32_t)(i + 1));
	}
	nb->report = rep; /* kept for code actions */
	nb->json = b.data;
}

const struct smp_report *
lsp_nb_report(struct lsp_server *s, struct lsp_notebook *nb,
	      const char *cell_uri, uint32_t *cell)
{
	*cell = 0;
	if (nb->dirty || !nb->report)
		lsp_nb_check(s, nb);
	for (size_t i = 0; i < nb->ncells; i++)
		if (nb->cells[i].uri && strcmp(nb->cells[i].uri, cell_uri) == 0)
			*cell = (uint32_t)(i + 1);
	return *cell ? nb->report : NULL;
}

/* The text of the JSON string body s[0..n) (the library's reader, on the
 * body put back in quotes); NULL when it is not one. */
static char *
unescape(const char *s, size_t n, size_t *len)
{
	struct smp_json *j = NULL;
	char *q = malloc(n + 3), *out = NULL;
	const char *t;

	if (!q)
		return NULL;
	q[0] = '"';
	memcpy(q + 1, s, n);
	q[n + 1] = '"';
	q[n + 2] = '\0';
	if (smp_json_parse(&j, q, n + 2, n + 16, NULL, NULL) == 0 &&
	    (t = smp_json_text(smp_json_root(j), len)) != NULL) {
		out = malloc(*len + 1);
		if (out)
			memcpy(out, t, *len + 1);
	}
	smp_json_free(j);
	free(q);
	return out;
}

int
lsp_nb_map_edit(const struct lsp_notebook *nb, uint32_t cell, size_t *start,
		size_t *end, const char *text, char **out)
{
	size_t from, a = 0, z = 0, n = 0;
	char *pa, *pz;

	*out = NULL;
	if (!cell || cell > nb->ncells || !nb->json || !nb->src_from)
		return -1;
	from = nb->src_from[cell - 1];
	if (*start < from || *end < *start || *end > nb->src_to[cell - 1])
		return -1; /* not inside the cell's source string */
	pa = unescape(nb->json + from, *start - from, &a);
	pz = unescape(nb->json + from, *end - from, &z);
	*out = unescape(text, strlen(text), &n);
	free(pa);
	free(pz);
	if (!pa || !pz || !*out) {
		free(*out);
		*out = NULL;
		return -1;
	}
	*start = a;
	*end = z;
	return 0;
}

const char *
lsp_nb_path(const struct lsp_notebook *nb)
{
	return nb->path;
}

int64_t
lsp_nb_due(struct lsp_server *s, int64_t now)
{
	int64_t next = -1;

	for (struct lsp_notebook *nb = s->notebooks; nb; nb = nb->next) {
		if (!nb->dirty)
			continue;
		if (nb->due <= now)
			lsp_nb_check(s, nb);
		else if (next < 0 || nb->due < next)
			next = nb->due;
	}
	return next;
}

void
lsp_nb_free_all(struct lsp_server *s)
{
	while (s->notebooks) {
		struct lsp_notebook *nb = s->notebooks;

		s->notebooks = nb->next;
		nb_free(nb);
	}
}
