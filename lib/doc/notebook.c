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
		size_t cap = b->capl ? b->capl * 2 : 64;
		struct smp_nb_line *p =
			smp__arena_alloc(b->arena, cap * sizeof(*p));

		if (!p) {
			b->oom = 1;
			return;
		}
		if (b->nlines)
			memcpy(p, b->lines, b->nlines * sizeof(*p));
		b->lines = p;
		b->capl = cap;
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
		size_t k = dec_char(s + i, n - i);
		uint32_t cols = 1;

		if (*at_line_start) {
			add_line(b, cell, ++*line, raw < jlen ? raw : 0, at);
			*at_line_start = 0;
		}
		smp__buf_add(&b->code, s + i, k);
		if (s[i] == '\n')
			*at_line_start = 1;
		if (raw < jlen)
			raw += smp__nb_raw_char(json + raw, jlen - raw, &cols);
		at.column += cols;
		i += k;
	}
}

/* The end of the JSON string whose '"' is at i: its closing quote, or
 * len when it does not close. */
static size_t
string_end(const char *b, size_t len, size_t i)
{
	for (i++; i < len; i++) {
		if (b[i] == '\\')
			i++;
		else if (b[i] == '"')
			return i;
	}
	return len;
}

/* The bracket closing the array or object opened at i, or len. */
static size_t
value_end(const char *b, size_t len, size_t i)
{
	size_t depth = 0;

	for (; i < len; i++) {
		if (b[i] == '"') {
			i = string_end(b, len, i);
		} else if (b[i] == '[' || b[i] == '{') {
			depth++;
		} else if (b[i] == ']' || b[i] == '}') {
			if (--depth == 0)
				return i;
		}
	}
	return len;
}

static size_t
skip_ws(const char *b, size_t len, size_t i)
{
	while (i < len && strchr(" \t\r\n", b[i]))
		i++;
	return i;
}

/* The key "k" (n bytes) at b[i], its quote included. */
static int
key_is(const char *b, size_t i, size_t e, const char *k, size_t n)
{
	return e - i - 1 == n && memcmp(b + i + 1, k, n) == 0;
}

/*
 * In the object opened at b[o] (and closed at its end), the string
 * value of member key: *at and *n get its raw text (escapes as written:
 * a language name has none). Returns 0 when there is none.
 */
static int
member_string(const char *b, size_t len, size_t o, const char *key, size_t *at,
	      size_t *n)
{
	size_t i = o + 1, klen = strlen(key);

	while (i < len) {
		size_t e, v;

		i = skip_ws(b, len, i);
		if (i >= len || b[i] != '"')
			return 0;
		e = string_end(b, len, i);
		v = skip_ws(b, len, e + 1);
		if (v >= len || b[v] != ':')
			return 0;
		v = skip_ws(b, len, v + 1);
		if (v >= len)
			return 0;
		if (key_is(b, i, e, key, klen)) {
			if (b[v] != '"' && b[v] != '{')
				return 0;
			*at = v;
			*n = b[v] == '"' ? string_end(b, len, v) - v - 1 : 0;
			return 1;
		}
		if (b[v] == '"')
			i = string_end(b, len, v) + 1;
		else if (b[v] == '{' || b[v] == '[')
			i = value_end(b, len, v) + 1;
		else {
			while (v < len && b[v] != ',' && b[v] != '}')
				v++;
			i = v;
		}
		i = skip_ws(b, len, i);
		if (i >= len || b[i] != ',')
			return 0;
		i++;
	}
	return 0;
}

/*
 * The kernel's language in the notebook's metadata object opened at
 * b[o]: language_info.name (what ruff reads), else kernelspec.language.
 */
static void
meta_language(const char *b, size_t len, size_t o, size_t *at, size_t *n)
{
	size_t v, vn;

	*n = 0;
	if (member_string(b, len, o, "language_info", &v, &vn) && b[v] == '{' &&
	    member_string(b, len, v, "name", at, n) && b[*at] == '"') {
		(*at)++;
		return;
	}
	*n = 0;
	if (member_string(b, len, o, "kernelspec", &v, &vn) && b[v] == '{' &&
	    member_string(b, len, v, "language", at, n) && b[*at] == '"') {
		(*at)++;
		return;
	}
	*n = 0;
}

/*
 * Blanks the insides of every "outputs" and "attachments" array or object
 * of a cell, of each cell's "metadata" and of the notebook's "metadata"
 * (its language read first into *lang, *nlang) in copy (a notebook's
 * bytes) with spaces, newlines kept: the JSON still parses with the same
 * byte offsets and lines, and what no check reads (images, logs, widget
 * state: most of a notebook's size) costs a scan instead of a parse.
 */
static void
blank_outputs(char *copy, size_t len, size_t *lang, size_t *nlang)
{
	size_t i = 0, depth = 0;

	*nlang = 0;
	while (i < len) {
		char c = copy[i];

		if (c == '"') {
			size_t e = string_end(copy, len, i), k = e + 1;
			int out = depth >= 2 &&
				  (key_is(copy, i, e, "outputs", 7) ||
				   key_is(copy, i, e, "attachments", 11));
			int meta = (depth == 1 || depth == 3) &&
				   key_is(copy, i, e, "metadata", 8);

			if (e >= len)
				return;
			k = skip_ws(copy, len, k);
			if ((out || meta) && k < len && copy[k] == ':') {
				k = skip_ws(copy, len, k + 1);
				if (k < len &&
				    (copy[k] == '[' || copy[k] == '{')) {
					size_t end = value_end(copy, len, k), j;

					if (end >= len)
						return;
					if (meta && depth == 1 &&
					    copy[k] == '{')
						meta_language(copy, len, k,
							      lang, nlang);
					for (j = k + 1; j < end; j++)
						if (copy[j] != '\n' &&
						    copy[j] != '\r')
							copy[j] = ' ';
					i = end + 1;
					continue;
				}
			}
			i = e + 1;
			continue;
		}
		if (c == '[' || c == '{')
			depth++;
		else if ((c == ']' || c == '}') && depth)
			depth--;
		i++;
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

/* The language, when it is not Python, copied into the arena. */
static const char *
not_python(struct smp_arena *arena, const char *b, size_t at, size_t n,
	   int *oom)
{
	const char *l;

	if (!n || (n >= 6 && strncasecmp(b + at, "python", 6) == 0))
		return NULL;
	if (n > 64)
		n = 64;
	l = smp__arena_strndup(arena, b + at, n);
	*oom |= !l;
	return l;
}

/* The notebook's cells, into b: each code cell's source, in order. */
static void
read_cells(struct build *b, struct smp_docs *docs, const char *buf, size_t len,
	   const struct smp_node *cells)
{
	size_t k, j;

	for (k = 0; k < cells->u.sequence.count && !b->oom; k++) {
		const struct smp_node *cell = cells->u.sequence.items[k];
		const struct smp_node *src;
		uint32_t line = 0;
		int at_start = 1;
		size_t from = b->code.len;

		if (cell->kind != SMP_NODE_MAPPING) {
			b->oom |= !smp__docs_diag(
				docs, SMP_DIAG_WRONG_TYPE, &cell->start, NULL,
				"cell %zu is %s, not an object with "
				"'cell_type' and 'source' as nbformat 4 "
				"writes it; Jupyter cannot open this notebook",
				k + 1, json_type(cell));
			continue;
		}
		src = smp__map_get(cell, "source");
		if (!is_code_cell(cell) || !src ||
		    !source_ok(docs, src, k + 1, &b->oom))
			continue;
		if (src->kind == SMP_NODE_SCALAR) {
			add_piece(b, buf, len, src, (uint32_t)(k + 1), &line,
				  &at_start);
		} else {
			for (j = 0; j < src->u.sequence.count; j++)
				add_piece(b, buf, len, src->u.sequence.items[j],
					  (uint32_t)(k + 1), &line, &at_start);
		}
		if (!at_start)
			/* cells are separate lines */
			smp__buf_addc(&b->code, '\n');
		if (b->code.len > from)
			add_cell(b, (uint32_t)(k + 1), from, b->code.len);
	}
}

int
smp__notebook_load(struct smp_notebook *nb, struct smp_docs *docs,
		   const char *buf, size_t len, const struct smp_limits *limits)
{
	struct smp_limits lim;
	const struct smp_node *root, *cells;
	struct build b;
	size_t bad = 0, lang = 0, nlang = 0;
	int rc;

	if (!nb || !docs || (!buf && len))
		return SMP_EINVAL;
	memset(nb, 0, sizeof(*nb));
	smp__limits_resolve(&lim, limits);
	if (!smp__utf8_valid(buf, len, &bad)) {
		struct smp_pos pos = smp__pos_at(buf, len, bad);

		return smp__docs_diag(docs, SMP_DIAG_LIMIT, &pos, NULL,
				      "invalid UTF-8 byte 0x%02x at offset "
				      "%zu; notebooks must be UTF-8",
				      (unsigned char)buf[bad], bad)
			       ? 0
			       : SMP_ENOMEM;
	}
	/* outputs are data, not the job: only the source is limited, and
	 * their bytes are blanked before the parse */
	{
		struct smp_limits nl = lim;
		char *copy = smp__malloc(docs->arena.alloc, len ? len : 1);

		if (!copy)
			return SMP_ENOMEM;
		memcpy(copy, buf, len);
		blank_outputs(copy, len, &lang, &nlang);
		nl.max_file_size = len + 1;
		nl.max_scalar_len = len + 1;
		nl.max_nodes = lim.max_nodes + len / 4;
		rc = smp__load_json(docs, copy, len, &nl);
		smp__free(docs->arena.alloc, copy);
	}
	/* a syntax error or a limit is a diagnostic of docs: the caller
	 * reports it (smp__rules_input) */
	if (rc || !docs->count || docs->ndiags)
		return rc;
	memset(&b, 0, sizeof(b));
	b.arena = &docs->arena;
	nb->language = not_python(&docs->arena, buf, lang, nlang, &b.oom);
	root = docs->items[0].root;
	cells = smp__map_get(root, "cells");
	if (!cells || cells->kind != SMP_NODE_SEQUENCE) {
		const struct smp_pos *at = root ? &root->start : NULL;
		struct smp_pos one = {1, 1, 0};

		return smp__docs_diag(docs, SMP_DIAG_WRONG_TYPE, at ? at : &one,
				      NULL,
				      "not a Jupyter notebook in nbformat 4: "
				      "no list of 'cells'")
			       ? 0
			       : SMP_ENOMEM;
	}
	smp__buf_init(&b.code, docs->arena.alloc, lim.max_file_size);
	read_cells(&b, docs, buf, len, cells);
	if (b.oom || b.code.oom) {
		smp__buf_free(&b.code);
		smp__free(docs->arena.alloc, b.cells);
		return SMP_ENOMEM;
	}
	if (b.code.cut) {
		struct smp_pos at = cells->start;

		smp__buf_free(&b.code);
		smp__free(docs->arena.alloc, b.cells);
		return smp__docs_diag(docs, SMP_DIAG_LIMIT, &at, NULL,
				      "the code cells hold more than %zu "
				      "bytes, the limit for a source",
				      lim.max_file_size)
			       ? 0
			       : SMP_ENOMEM;
	}
	nb->code = smp__arena_strndup(&docs->arena, smp__buf_str(&b.code),
				      b.code.len);
	nb->len = nb->code ? b.code.len : 0;
	smp__buf_free(&b.code);
	nb->cells = b.ncells ? smp__arena_alloc(&docs->arena,
						b.ncells * sizeof(*b.cells))
			     : NULL;
	if (nb->cells)
		memcpy(nb->cells, b.cells, b.ncells * sizeof(*b.cells));
	smp__free(docs->arena.alloc, b.cells);
	if (!nb->code || (b.ncells && !nb->cells))
		return SMP_ENOMEM;
	nb->ncells = b.ncells;
	nb->ok = 1;
	nb->lines = b.lines;
	nb->nlines = b.nlines;
	nb->json = buf;
	nb->json_len = len;
	return 0;
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
