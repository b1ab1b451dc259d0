/*
 * notebook.c - a Jupyter notebook's code cells as one text with a line
 * map (see notebook.h). The JSON loader parses the notebook, so a broken
 * notebook is a syntax diagnostic with its position; what the checks do
 * not read (outputs, attachments, metadata: most of a notebook's bytes)
 * is blanked out of a copy first, so it costs a scan and no nodes. The
 * code is the decoded text of each code cell's "source" (a string or a
 * list of strings, one per line, as nbformat 4 writes it), every cell
 * ending in a newline.
 */
#include <string.h>
#include <strings.h>

#include "doc/notebook.h"
#include "doc/load.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/text.h"

struct build {
	struct smp_arena *arena;
	struct smp_buf code; /* copied into the arena when complete */
	struct smp_nb_line *lines;
	size_t nlines, capl;
	struct smp_nb_cell *cells;
	size_t ncells, capc;
	int oom; /* the lines could not grow */
};

static void
add_line(struct build *b, uint32_t cell, uint32_t line, size_t raw,
	 struct smp_pos at)
{
	if (b->oom)
		return;
	if (b->nlines == b->capl) {
		void *p = b->lines;

		if (smp__arena_grow(b->arena, &p, &b->capl, b->nlines + 1,
				    sizeof(*b->lines))) {
			b->oom = 1;
			return;
		}
		b->lines = p;
	}
	b->lines[b->nlines].cell = cell;
	b->lines[b->nlines].line = line;
	b->lines[b->nlines].raw = raw;
	b->lines[b->nlines].json_line = at.line;
	b->lines[b->nlines].json_column = at.column;
	b->nlines++;
}

/* Length of the escape at raw[0..n) (raw[0] is the backslash). */
static size_t
raw_escape(const char *raw, size_t n)
{
	if (n < 2)
		return n;
	if (raw[1] != 'u' || n < 6)
		return 2;
	/* a surrogate pair is one character in two escapes */
	if ((raw[2] == 'd' || raw[2] == 'D') && strchr("89abAB", raw[3]) &&
	    n >= 12 && raw[6] == '\\' && raw[7] == 'u')
		return 12;
	return 6;
}

size_t
smp__nb_raw_char(const char *raw, size_t n, uint32_t *cols)
{
	long cp;
	size_t k;

	if (raw[0] != '\\' || n < 2) {
		*cols = 1;
		return n ? smp__utf8_decode((const unsigned char *)raw, n, &cp)
			 : 0;
	}
	k = raw_escape(raw, n);
	*cols = (uint32_t)k;
	return k;
}

/* Bytes of the decoded character that starts s. */
static size_t
dec_char(const char *s, size_t n)
{
	long cp;

	return smp__utf8_decode((const unsigned char *)s, n, &cp);
}

/*
 * One piece of a cell's source: the JSON string node str. Its decoded
 * text goes into the code, and a line entry for every line it starts,
 * with where that line's text begins in the notebook.
 */
static void
add_piece(struct build *b, const char *json, size_t jlen,
	  const struct smp_node *str, uint32_t cell, uint32_t *line,
	  int *at_line_start)
{
	const char *s = str->u.scalar.value;
	size_t n = str->u.scalar.len, i = 0;
	size_t raw = str->start.offset + 1; /* after the opening quote */
	struct smp_pos at = str->start;     /* a JSON string is one line */

	at.column++;
	while (i < n) {
		size_t k, j = i, r = raw;
		uint32_t cols = 1;
		const unsigned char *u = (const unsigned char *)s;

		if (*at_line_start) {
			add_line(b, cell, ++*line, raw < jlen ? raw : 0, at);
			*at_line_start = 0;
		}
		/* a run of ASCII written as itself (no escape, no newline):
		 * one byte of the notebook per byte and column, one append */
		if (r < jlen) {
			size_t lim = n - i < jlen - r ? n - i : jlen - r;

			/* printable ASCII but the backslash (a JSON string
			 * holds no raw control character) */
			while (j - i < lim && u[j] >= 0x20 && u[j] < 0x7f &&
			       u[j] != '\\' && json[r] == s[j]) {
				j++;
				r++;
			}
		}
		if (j > i) {
			smp__buf_add(&b->code, s + i, j - i);
			at.column += (uint32_t)(j - i);
			raw = r;
			i = j;
			continue;
		}
		k = dec_char(s + i, n - i);
		smp__buf_add(&b->code, s + i, k);
		if (s[i] == '\n')
			*at_line_start = 1;
		if (raw < jlen)
			raw += smp__nb_raw_char(json + raw, jlen - raw, &cols);
		at.column += cols;
		i += k;
	}
}

static int
is_code_cell(const struct smp_node *cell)
{
	return smp__scalar_is(smp__map_get(cell, "cell_type"), "code");
}

/* What a JSON value is, for a message. */
static const char *
json_type(const struct smp_node *n)
{
	if (n->kind == SMP_NODE_MAPPING)
		return "an object";
	if (n->kind == SMP_NODE_SEQUENCE)
		return "a list";
	switch (smp__scalar_type(n)) {
	case SMP_SCALAR_STRING:
		return "a string";
	case SMP_SCALAR_NULL:
		return "null";
	case SMP_SCALAR_BOOL:
		return "a boolean";
	default:
		return "a number";
	}
}

static int
is_string(const struct smp_node *n)
{
	return n->kind == SMP_NODE_SCALAR &&
	       smp__scalar_type(n) == SMP_SCALAR_STRING;
}

/*
 * The string pieces of a cell's source are well-formed: strings with no
 * NUL. Else a diagnostic, and 0: the cell is not read.
 */
static int
source_ok(struct smp_docs *docs, const struct smp_node *src, size_t cell,
	  int *oom)
{
	size_t j,
		n = src->kind == SMP_NODE_SEQUENCE ? src->u.sequence.count : 1;

	if (src->kind == SMP_NODE_MAPPING ||
	    (src->kind == SMP_NODE_SCALAR && !is_string(src))) {
		*oom |= !smp__docs_diag(
			docs, SMP_DIAG_WRONG_TYPE, &src->start, NULL,
			"the 'source' of cell %zu is %s, not a string or a "
			"list of strings as nbformat 4 writes it; the cell is "
			"not checked",
			cell, json_type(src));
		return 0;
	}
	for (j = 0; j < n; j++) {
		const struct smp_node *p = src->kind == SMP_NODE_SEQUENCE
						   ? src->u.sequence.items[j]
						   : src;

		if (!is_string(p)) {
			*oom |= !smp__docs_diag(
				docs, SMP_DIAG_WRONG_TYPE, &p->start, NULL,
				"line %zu of the 'source' of cell %zu is %s, "
				"not a string; Jupyter cannot read the cell: "
				"write each line as a string",
				j + 1, cell, json_type(p));
			return 0;
		}
		if (memchr(p->u.scalar.value, '\0', p->u.scalar.len)) {
			*oom |= !smp__docs_diag(
				docs, SMP_DIAG_SYNTAX, &p->start, NULL,
				"the 'source' of cell %zu holds a NUL "
				"character "
				"(\\u0000), which Python refuses in source "
				"code; "
				"the cell is not checked: remove the character",
				cell);
			return 0;
		}
	}
	return 1;
}

static void
add_cell(struct build *b, uint32_t cell, size_t from, size_t to)
{
	if (b->oom)
		return;
	if (smp__grow(b->arena->alloc, (void **)&b->cells, &b->capc,
		      b->ncells + 1, sizeof(*b->cells))) {
		b->oom = 1;
		return;
	}
	b->cells[b->ncells].cell = cell;
	b->cells[b->ncells].from = from;
	b->cells[b->ncells].to = to;
	b->ncells++;
}

/* The kernel's language when it is not Python: language_info.name (what
 * ruff reads), else kernelspec.language; NULL for Python or none. */
static const char *
not_python(const struct smp_node *root)
{
	const struct smp_node *meta = smp__map_get(root, "metadata");
	const struct smp_node *l =
		smp__map_get(smp__map_get(meta, "language_info"), "name");

	if (!l || !is_string(l))
		l = smp__map_get(smp__map_get(meta, "kernelspec"), "language");
	if (!l || !is_string(l) || !l->u.scalar.len ||
	    strncasecmp(l->u.scalar.value, "python", 6) == 0)
		return NULL;
	return l->u.scalar.value;
}

/*
 * The sink's view of the notebook: of the top object, "cells" streams
 * and "metadata" keeps only what names the kernel; of a cell, only
 * "cell_type" and "source" are read. Outputs, attachments, widget state
 * and the other metadata are checked as JSON and build no nodes.
 */
struct reader {
	struct build b;
	struct smp_docs *docs;
	const char *buf;
	size_t len;
	size_t ncell; /* cells seen */
	int top;      /* the top object's member being read */
};

enum { TOP_OTHER, TOP_CELLS, TOP_METADATA };

static int
key_is(const struct smp_node *key, const char *s)
{
	return smp__scalar_is(key, s);
}

static int
on_member(void *ud, size_t depth, const struct smp_node *key)
{
	struct reader *r = ud;

	if (depth == 1) {
		r->top = key_is(key, "cells")      ? TOP_CELLS
			 : key_is(key, "metadata") ? TOP_METADATA
						   : TOP_OTHER;
		return r->top == TOP_CELLS ? SMP_JSON_STREAM : SMP_JSON_KEEP;
	}
	if (depth == 2 && r->top == TOP_METADATA)
		return key_is(key, "kernelspec") || key_is(key, "language_info")
			       ? SMP_JSON_KEEP
			       : SMP_JSON_SKIP;
	if (depth == 3 && r->top == TOP_CELLS)
		return key_is(key, "cell_type") || key_is(key, "source")
			       ? SMP_JSON_KEEP
			       : SMP_JSON_SKIP;
	return SMP_JSON_KEEP;
}

/* One cell, as the parser hands it over: its source into the code. */
static int
on_cell(void *ud, const struct smp_node *cell)
{
	struct reader *r = ud;
	struct build *b = &r->b;
	const struct smp_node *src;
	uint32_t line = 0, k = (uint32_t)++r->ncell;
	int at_start = 1;
	size_t from = b->code.len, j;

	if (b->oom || b->code.cut)
		return b->oom ? SMP_ENOMEM : 0;
	if (cell->kind != SMP_NODE_MAPPING) {
		b->oom |= !smp__docs_diag(
			r->docs, SMP_DIAG_WRONG_TYPE, &cell->start, NULL,
			"cell %u is %s, not an object with 'cell_type' and "
			"'source' as nbformat 4 writes it; Jupyter cannot open "
			"this notebook",
			(unsigned)k, json_type(cell));
		return b->oom ? SMP_ENOMEM : 0;
	}
	src = smp__map_get(cell, "source");
	if (!is_code_cell(cell) || !src || !source_ok(r->docs, src, k, &b->oom))
		return b->oom ? SMP_ENOMEM : 0;
	if (src->kind == SMP_NODE_SCALAR) {
		add_piece(b, r->buf, r->len, src, k, &line, &at_start);
	} else {
		for (j = 0; j < src->u.sequence.count; j++)
			add_piece(b, r->buf, r->len, src->u.sequence.items[j],
				  k, &line, &at_start);
	}
	if (!at_start)
		/* cells are separate lines */
		smp__buf_addc(&b->code, '\n');
	if (b->code.len > from && !b->code.cut)
		add_cell(b, k, from, b->code.len);
	return b->oom || b->code.oom ? SMP_ENOMEM : 0;
}

int
smp__notebook_load(struct smp_notebook *nb, struct smp_docs *docs,
		   const char *buf, size_t len, const struct smp_limits *limits)
{
	struct smp_limits lim, nl;
	const struct smp_node *root, *cells;
	struct smp_json_sink sink = {on_member, on_cell, NULL};
	struct reader r;
	struct build *b = &r.b;
	size_t bad = 0;
	int rc;

	if (!nb || !docs || (!buf && len))
		return SMP_EINVAL;
	memset(nb, 0, sizeof(*nb));
	smp__limits_resolve(&lim, limits);
	if (len && !smp__utf8_valid(buf, len, &bad)) {
		struct smp_pos pos = smp__pos_at(buf, len, bad);

		return smp__docs_diag(docs, SMP_DIAG_LIMIT, &pos, NULL,
				      "invalid UTF-8 byte 0x%02x at offset "
				      "%zu; notebooks must be UTF-8",
				      (unsigned char)buf[bad], bad)
			       ? 0
			       : SMP_ENOMEM;
	}
	memset(&r, 0, sizeof(r));
	r.docs = docs;
	r.buf = buf;
	r.len = len;
	b->arena = &docs->arena;
	smp__buf_init(&b->code, docs->arena.alloc, lim.max_file_size);
	sink.ud = &r;
	/* the file limit is the caller's (a notebook's outputs do not
	 * count); a cell's source is limited by the code's length */
	nl = lim;
	nl.max_file_size = len + 1;
	nl.max_scalar_len = lim.max_file_size + 1;
	nl.max_nodes = lim.max_nodes + lim.max_file_size;
	rc = smp__load_json_sink(docs, buf, len, &nl, &sink);
	if (rc || b->oom || b->code.oom) {
		rc = rc ? rc : SMP_ENOMEM;
	} else if (!docs->count || !docs->items[0].root) {
		/* not JSON: the parser's diagnostic says why */
	} else if (root = docs->items[0].root,
		   cells = smp__map_get(root, "cells"),
		   !cells || cells->kind != SMP_NODE_SEQUENCE) {
		if (!smp__docs_diag(docs, SMP_DIAG_WRONG_TYPE, &root->start,
				    NULL,
				    "not a Jupyter notebook in nbformat 4: no "
				    "list of 'cells'"))
			rc = SMP_ENOMEM;
	} else if (b->code.cut) {
		if (!smp__docs_diag(docs, SMP_DIAG_LIMIT, &cells->start, NULL,
				    "the code cells hold more than %zu bytes, "
				    "the limit for the code of a notebook",
				    lim.max_file_size))
			rc = SMP_ENOMEM;
	} else {
		nb->language = not_python(root);
		nb->code = smp__arena_strndup(
			&docs->arena, smp__buf_str(&b->code), b->code.len);
		nb->len = b->code.len;
		nb->cells = b->ncells ? smp__arena_alloc(
						&docs->arena,
						b->ncells * sizeof(*b->cells))
				      : NULL;
		if (nb->cells)
			memcpy(nb->cells, b->cells,
			       b->ncells * sizeof(*b->cells));
		if (!nb->code || (b->ncells && !nb->cells)) {
			rc = SMP_ENOMEM;
		} else {
			nb->ncells = b->ncells;
			nb->ok = 1;
			nb->lines = b->lines;
			nb->nlines = b->nlines;
			nb->json = buf;
			nb->json_len = len;
		}
	}
	smp__buf_free(&b->code);
	smp__free(docs->arena.alloc, b->cells);
	return rc;
}

const struct smp_nb_cell *
smp__notebook_cell_of(const struct smp_notebook *nb, uint32_t line)
{
	size_t lo = 0, hi;
	uint32_t cell;

	if (!nb || !line || line > nb->nlines)
		return NULL;
	cell = nb->lines[line - 1].cell;
	hi = nb->ncells;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (nb->cells[mid].cell < cell)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < nb->ncells && nb->cells[lo].cell == cell ? &nb->cells[lo]
							     : NULL;
}
