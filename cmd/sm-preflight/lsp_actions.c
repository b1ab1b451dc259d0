/*
 * lsp_actions.c - code actions on the findings under the cursor: each
 * fix the CLI's --fix would make, as the same byte edit (safe ones a
 * preferred quickfix, unsafe ones a separate "(unsafe)" action), "fix all
 * safe" for the document (smp_fix, as `check --fix`), and "ignore with a
 * reason": the inline suppression comment report/suppress.c reads
 * ("# sm-preflight: ignore[rule] reason"), on a line of its own above the
 * finding (YAML and Python; JSON has no comments).
 */
#include <stdlib.h>
#include <string.h>

#include "lsp.h"

size_t
lsp_finding_edits(const struct smp_finding *f,
		  void (*fn)(void *ud, size_t start, size_t end,
			     const char *text),
		  void *ud)
{
	/* one edit per finding today (edit_text); a finding that carries a
	 * list of edits hands each here */
	if (!f->edit_text)
		return 0;
	fn(ud, f->edit_start, f->edit_end, f->edit_text);
	return 1;
}

struct edits {
	struct lsp_server *s;
	const struct lsp_doc *d;
	uint32_t cell; /* a notebook cell's 1-based number, else 0 */
	struct lsp_buf *b;
	size_t n;
};

static void
text_edit(struct lsp_buf *b, struct lsp_position a, struct lsp_position z,
	  const char *text)
{
	lsp_buf_str(b, "{\"range\":");
	lsp_buf_range(b, a, z);
	lsp_buf_str(b, ",\"newText\":");
	lsp_buf_json(b, text);
	lsp_buf_str(b, "}");
}

static void
put_edit(void *ud, size_t start, size_t end, const char *text)
{
	struct edits *e = ud;
	const struct lsp_doc *d = e->d;
	char *cell_text = NULL;

	/* a notebook's edit is of its JSON: made one of the cell's text */
	if (e->cell &&
	    lsp_nb_map_edit(d->nb, e->cell, &start, &end, text, &cell_text))
		return;
	if (start > end || end > d->len) {
		free(cell_text);
		return; /* not of this text: never applied */
	}
	if (e->n++)
		lsp_buf_str(e->b, ",");
	text_edit(e->b, lsp_position_at(e->s, d->text, d->len, start),
		  lsp_position_at(e->s, d->text, d->len, end),
		  cell_text ? cell_text : text);
	free(cell_text);
}

/* {"title":..,"kind":..,"edit":{"changes":{uri:[ */
static void
action_open(struct lsp_buf *b, const char *title, const char *kind,
	    int preferred, const char *uri)
{
	lsp_buf_str(b, "{\"title\":");
	lsp_buf_json(b, title);
	lsp_buf_str(b, ",\"kind\":");
	lsp_buf_json(b, kind);
	if (preferred)
		lsp_buf_str(b, ",\"isPreferred\":true");
	lsp_buf_str(b, ",\"edit\":{\"changes\":{");
	lsp_buf_json(b, uri);
	lsp_buf_str(b, ":[");
}

static void
fix_action(struct lsp_server *s, struct lsp_buf *b, const struct lsp_doc *d,
	   const struct smp_finding *f, uint32_t cell, size_t *count)
{
	struct lsp_buf title = {0};
	struct edits e = {s, d, cell, b, 0};
	size_t mark = b->len;

	lsp_buf_printf(&title, "%s: ", f->rule);
	lsp_buf_str(&title, f->fix ? f->fix : f->message);
	if (f->edit_unsafe)
		lsp_buf_str(&title, " (unsafe)");
	if (*count)
		lsp_buf_str(b, ",");
	action_open(b, title.data ? title.data : f->rule, "quickfix",
		    !f->edit_unsafe, d->uri);
	if (!lsp_finding_edits(f, put_edit, &e) || e.n == 0) {
		b->len = mark; /* nothing to apply: no action */
		lsp_buf_free(&title);
		return;
	}
	lsp_buf_str(b, "]}},\"diagnostics\":[");
	lsp_buf_diagnostic(s, b, d->text, d->len, d->path, f, cell);
	lsp_buf_str(b, "]}");
	(*count)++;
	lsp_buf_free(&title);
}

static int
is_json(const struct lsp_doc *d)
{
	size_t n = strlen(d->path);

	return (n > 5 && strcmp(d->path + n - 5, ".json") == 0) ||
	       (n > 6 && strcmp(d->path + n - 6, ".ipynb") == 0);
}

static void
ignore_action(struct lsp_server *s, struct lsp_buf *b, const struct lsp_doc *d,
	      const struct smp_finding *f, size_t *count)
{
	struct lsp_buf title = {0}, text = {0};
	struct lsp_position at = {f->line - 1, 0};
	size_t start = lsp_offset(s, d->text, d->len, at), i = start;

	/* the comment takes the line's indentation */
	while (i < d->len && (d->text[i] == ' ' || d->text[i] == '\t'))
		i++;
	lsp_buf_add(&text, d->text + start, i - start);
	lsp_buf_printf(&text, "# sm-preflight: ignore[%s] ", f->rule);
	lsp_buf_str(&text, "TODO: say why this is right\n");
	lsp_buf_printf(&title, "Ignore %s with a reason (inline comment)",
		       f->rule);
	if (*count)
		lsp_buf_str(b, ",");
	action_open(b, title.data ? title.data : f->rule, "quickfix", 0,
		    d->uri);
	text_edit(b, at, at, text.data ? text.data : "");
	lsp_buf_str(b, "]}},\"diagnostics\":[");
	lsp_buf_diagnostic(s, b, d->text, d->len, d->path, f, 0);
	lsp_buf_str(b, "]}");
	(*count)++;
	lsp_buf_free(&title);
	lsp_buf_free(&text);
}

/* The whole document's safe fixes (smp_fix, as check --fix): one edit
 * of the span between the common prefix and suffix. */
static void
fix_all_action(struct lsp_server *s, struct lsp_buf *b, const struct lsp_doc *d,
	       size_t *count)
{
	struct smp_fix_options o = SMP_FIX_OPTIONS_INIT;
	struct smp_fix_result *x = NULL;
	struct smp_error err;
	size_t pre = 0, suf = 0;
	char *dir = strdup(d->path), *slash = dir ? strrchr(dir, '/') : NULL;

	if (slash)
		slash[slash == dir ? 1 : 0] = '\0';
	o.script_dir = slash ? dir : NULL;
	lsp_config_context(s, d->path, &o.flags); /* d->ctx's flags */
	memset(&err, 0, sizeof(err));
	if (!d->ctx || !d->text ||
	    smp_fix(&x, d->ctx, d->path, d->text, d->len, &o, &err) ||
	    !x->changed || !x->text) {
		smp_fix_result_free(x);
		free(dir);
		return;
	}
	while (pre < d->len && pre < x->len && d->text[pre] == x->text[pre])
		pre++;
	while (suf < d->len - pre && suf < x->len - pre &&
	       d->text[d->len - 1 - suf] == x->text[x->len - 1 - suf])
		suf++;
	{
		char *mid = strndup(x->text + pre, x->len - pre - suf);

		if (*count)
			lsp_buf_str(b, ",");
		action_open(b, "sm-preflight: fix all safe findings",
			    "source.fixAll", 0, d->uri);
		text_edit(b, lsp_position_at(s, d->text, d->len, pre),
			  lsp_position_at(s, d->text, d->len, d->len - suf),
			  mid ? mid : "");
		lsp_buf_str(b, "]}}}");
		free(mid);
		(*count)++;
	}
	smp_fix_result_free(x);
	free(dir);
}

/* 1 when f's lines meet [a, z]'s. */
static int
in_range(const struct smp_finding *f, struct lsp_position a,
	 struct lsp_position z)
{
	uint32_t first = f->line - 1,
		 last = (f->end_line ? f->end_line : f->line) - 1;

	return f->line && first <= z.line && last >= a.line;
}

/* A notebook cell's fixes (its notebook's findings in that cell). */
static void
cell_actions(struct lsp_server *s, struct lsp_buf *b, const struct lsp_doc *d,
	     struct lsp_position a, struct lsp_position z, size_t *count)
{
	uint32_t cell = 0;
	const struct smp_report *rep = lsp_nb_report(s, d->nb, d->uri, &cell);

	for (size_t i = 0; i < smp_report_count(rep); i++) {
		const struct smp_finding *f = smp_report_get(rep, i);

		if (!f->suppressed && f->cell == cell && f->cell_line &&
		    f->cell_line - 1 >= a.line && f->cell_line - 1 <= z.line)
			fix_action(s, b, d, f, cell, count);
	}
}

void
lsp_code_action(struct lsp_server *s, const struct smp_json_value *id,
		const struct smp_json_value *params)
{
	const struct smp_json_value *range = smp_json_get(params, "range");
	struct lsp_doc *d = lsp_doc_find(
		s, lsp_str(smp_json_get(params, "textDocument"), "uri"));
	struct lsp_position a, z;
	struct lsp_buf b = {0};
	size_t i, count = 0;

	if (!d || d->too_big || !d->text ||
	    lsp_read_position(smp_json_get(range, "start"), &a) ||
	    lsp_read_position(smp_json_get(range, "end"), &z)) {
		lsp_send_result(s, id, "[]");
		return;
	}
	lsp_doc_check(s, d); /* the findings of the text as it is now */
	lsp_result_open(&b, id);
	lsp_buf_str(&b, "[");
	if (d->nb) {
		cell_actions(s, &b, d, a, z, &count);
		lsp_buf_str(&b, "]}");
		lsp_send(s, &b);
		lsp_buf_free(&b);
		return;
	}
	for (i = 0; i < smp_report_count(d->report); i++) {
		const struct smp_finding *f = smp_report_get(d->report, i);

		if (f->suppressed || !in_range(f, a, z) ||
		    (f->file && strcmp(f->file, d->path) != 0))
			continue;
		fix_action(s, &b, d, f, 0, &count);
		if (!is_json(d))
			ignore_action(s, &b, d, f, &count);
	}
	fix_all_action(s, &b, d, &count);
	lsp_buf_str(&b, "]}");
	lsp_send(s, &b);
	lsp_buf_free(&b);
}
