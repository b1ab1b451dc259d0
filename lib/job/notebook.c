/*
 * notebook.c - a notebook's findings mapped back from its code cells to
 * the file and the cell (see notebook.h).
 */
#include <string.h>

#include "job/notebook.h"

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
		raw += smp__nb_raw_char(nb->json + raw, nb->json_len - raw,
					&cols);
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
