/*
 * notebook.c - a Jupyter notebook's code cells as one Python source with
 * a line map (see notebook.h). The JSON loader parses the notebook, so a
 * broken notebook is a syntax finding with its position; the code is
 * then the decoded text of each code cell's "source" (a string or a list
 * of strings, one per line, as nbformat 4 writes it), every cell ending
 * in a newline.
 */
#include <string.h>

#include "job/notebook.h"
#include "doc/load.h"
#include "util/alloc.h"
#include "util/buf.h"
#include "util/text.h"

struct build {
	struct smp_arena *arena;
	struct smp_buf code; /* copied into the arena when complete */
	struct smp_nb_line *lines;
	size_t nlines, capl;
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

/* Length in the JSON of the escape or character at raw[0..n); *cols
 * gets the columns it takes (an escape is ASCII: a column a byte). */
static size_t
raw_char(const char *raw, size_t n, uint32_t *cols)
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
			raw += raw_char(json + raw, jlen - raw, &cols);
		at.column += cols;
		i += k;
	}
}

/*
 * IPython syntax is not Python: a line starting with % or ! (a magic, a
 * shell command) becomes blanks of the same length, and a cell that
 * starts with %% (a cell magic: %%bash, %%writefile) is blanked whole.
 */
static void
blank_magics(char *code, size_t from, size_t to)
{
	size_t i = from;
	int cell_magic;

	while (i < to && (code[i] == ' ' || code[i] == '\t' || code[i] == '\n'))
		i++;
	cell_magic = i + 1 < to && code[i] == '%' && code[i + 1] == '%';
	for (i = from; i < to;) {
		size_t e = i, k = i;

		while (e < to && code[e] != '\n')
			e++;
		while (k < e && (code[k] == ' ' || code[k] == '\t'))
			k++;
		if (cell_magic || (k < e && (code[k] == '%' || code[k] == '!')))
			memset(code + i, ' ', e - i);
		i = e + 1;
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

/*
 * Blanks the insides of every "outputs" and "attachments" array or object
 * of copy (a notebook's bytes) with spaces, newlines kept: the JSON still
 * parses with the same byte offsets and lines, and its outputs (images,
 * logs: most of a notebook's size) cost a scan instead of a parse.
 */
static void
blank_outputs(char *copy, size_t len)
{
	size_t i = 0, depth = 0;

	while (i < len) {
		char c = copy[i];

		if (c == '"') {
			size_t e = string_end(copy, len, i), k = e + 1;
			int heavy =
				(e - i - 1 == 7 &&
				 memcmp(copy + i + 1, "outputs", 7) == 0) ||
				(e - i - 1 == 11 &&
				 memcmp(copy + i + 1, "attachments", 11) == 0);

			if (e >= len)
				return;
			while (k < len && strchr(" \t\r\n", copy[k]))
				k++;
			if (heavy && depth >= 2 && k < len && copy[k] == ':') {
				k++;
				while (k < len && strchr(" \t\r\n", copy[k]))
					k++;
				if (k < len &&
				    (copy[k] == '[' || copy[k] == '{')) {
					size_t end = value_end(copy, len, k), j;

					if (end >= len)
						return;
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

int
smp__notebook_load(struct smp_notebook *nb, struct smp_docs *docs,
		   const char *buf, size_t len, const struct smp_limits *limits,
		   struct smp_report *rep)
{
	struct smp_limits lim;
	const struct smp_node *root, *cells;
	struct build b;
	size_t bad = 0, k;
	int rc;

	memset(nb, 0, sizeof(*nb));
	smp__limits_resolve(&lim, limits);
	if (!smp__utf8_valid(buf, len, &bad)) {
		struct smp_pos pos = smp__pos_at(buf, len, bad);

		smp__report_add(rep, SMP_RULE_INPUT_LIMIT, &pos, NULL,
				"invalid UTF-8 byte 0x%02x at offset %zu; "
				"notebooks must be UTF-8",
				(unsigned char)buf[bad], bad);
		return rep->failed ? SMP_ENOMEM : 0;
	}
	/* outputs are data, not the job: only the source is limited, and
	 * their bytes are blanked before the parse */
	{
		struct smp_limits nl = lim;
		char *copy = smp__malloc(docs->arena.alloc, len ? len : 1);

		if (!copy)
			return SMP_ENOMEM;
		memcpy(copy, buf, len);
		blank_outputs(copy, len);
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
	root = docs->items[0].root;
	cells = smp__map_get(root, "cells");
	if (!cells || cells->kind != SMP_NODE_SEQUENCE) {
		smp__report_node(rep, SMP_RULE_WRONG_TYPE, root ? root : NULL,
				 "not a Jupyter notebook in nbformat 4: no "
				 "list of 'cells'");
		return rep->failed ? SMP_ENOMEM : 0;
	}
	memset(&b, 0, sizeof(b));
	b.arena = &docs->arena;
	smp__buf_init(&b.code, docs->arena.alloc, SMP_BUF_NO_MAX);
	for (k = 0; k < cells->u.sequence.count; k++) {
		const struct smp_node *cell = cells->u.sequence.items[k];
		const struct smp_node *src = smp__map_get(cell, "source");
		uint32_t line = 0;
		int at_start = 1;
		size_t from = b.code.len, j;

		if (!is_code_cell(cell) || !src)
			continue;
		if (src->kind == SMP_NODE_SCALAR &&
		    smp__scalar_type(src) == SMP_SCALAR_STRING) {
			add_piece(&b, buf, len, src, (uint32_t)(k + 1), &line,
				  &at_start);
		} else if (src->kind == SMP_NODE_SEQUENCE) {
			for (j = 0; j < src->u.sequence.count; j++) {
				const struct smp_node *p =
					src->u.sequence.items[j];

				if (p->kind == SMP_NODE_SCALAR &&
				    smp__scalar_type(p) == SMP_SCALAR_STRING)
					add_piece(&b, buf, len, p,
						  (uint32_t)(k + 1), &line,
						  &at_start);
			}
		}
		if (!at_start)
			/* cells are separate lines */
			smp__buf_addc(&b.code, '\n');
		if (!smp__buf_error(&b.code) && b.code.len > from)
			blank_magics(b.code.data, from, b.code.len);
		if (b.code.len > lim.max_file_size) {
			struct smp_pos at = src->start;

			smp__report_add(rep, SMP_RULE_INPUT_LIMIT, &at, NULL,
					"the code cells hold more than %zu "
					"bytes, the limit for a source",
					lim.max_file_size);
			smp__buf_free(&b.code);
			return rep->failed ? SMP_ENOMEM : 0;
		}
	}
	if (b.oom || smp__buf_error(&b.code)) {
		smp__buf_free(&b.code);
		return SMP_ENOMEM;
	}
	nb->code = smp__arena_strndup(&docs->arena, smp__buf_str(&b.code),
				      b.code.len);
	nb->len = nb->code ? b.code.len : 0;
	smp__buf_free(&b.code);
	if (!nb->code)
		return SMP_ENOMEM;
	nb->ok = 1;
	nb->lines = b.lines;
	nb->nlines = b.nlines;
	nb->json = buf;
	nb->json_len = len;
	return 0;
}

/* The notebook position of code line:column, into *line / *column of
 * the JSON file and *cell, *cell_line of the cell. 0 when unmapped. */
static int
map_pos(const struct smp_notebook *nb, uint32_t line, uint32_t column,
	uint32_t *jline, uint32_t *jcol, uint32_t *cell, uint32_t *cline)
{
	const struct smp_nb_line *l;
	size_t raw;
	uint32_t c, col;

	if (!line || line > nb->nlines)
		return 0;
	l = &nb->lines[line - 1];
	*cell = l->cell;
	*cline = l->line;
	if (!l->raw)
		return 0;
	raw = l->raw;
	col = l->json_column;
	for (c = 1; c < column && raw < nb->json_len; c++) {
		uint32_t cols = 1;

		if (nb->json[raw] == '"')
			break; /* the end of the string: a column past it */
		raw += raw_char(nb->json + raw, nb->json_len - raw, &cols);
		col += cols;
	}
	*jline = l->json_line;
	*jcol = col + (column > c ? column - c : 0);
	return 1;
}

void
smp__notebook_map(const struct smp_notebook *nb, struct smp_report *rep)
{
	size_t k;

	for (k = 0; k < rep->count; k++) {
		struct smp_finding *f = &rep->items[k];
		uint32_t jl = 0, jc = 0, cell = 0, cl = 0, el = 0, ec = 0;
		uint32_t ecell = 0, ecl = 0;

		if (!f->line ||
		    (f->file && rep->file && strcmp(f->file, rep->file) != 0))
			continue; /* an entry script's finding */
		if (!map_pos(nb, f->line, f->column ? f->column : 1, &jl, &jc,
			     &cell, &cl)) {
			if (cell) {
				f->cell = cell;
				f->cell_line = cl;
				f->cell_column = f->column;
			}
			continue;
		}
		f->cell = cell;
		f->cell_line = cl;
		f->cell_column = f->column;
		f->cell_end_column = f->end_line == f->line ? f->end_column : 0;
		if (f->end_line &&
		    map_pos(nb, f->end_line, f->end_column, &el, &ec, &ecell,
			    &ecl) &&
		    ecell == cell) {
			f->end_line = el;
			f->end_column = ec;
		} else {
			f->end_line = 0;
			f->end_column = 0;
		}
		f->line = jl;
		f->column = f->column ? jc : 0;
	}
}
