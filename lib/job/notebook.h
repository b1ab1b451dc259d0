/*
 * notebook.h - the code of a Jupyter notebook (nbformat 4): its code
 * cells in order, joined into one Python source, with a map from each
 * line of that source back to its cell, its line in the cell and the
 * place of its text inside the notebook's JSON. Markdown cells and
 * outputs are skipped; IPython magics (%, %%, !) are blanked out.
 */
#ifndef SMP_NOTEBOOK_H
#define SMP_NOTEBOOK_H

#include <stddef.h>
#include <stdint.h>

#include "smpreflight.h"
#include "doc/doc.h"
#include "report/report.h"

struct smp_nb_line {
	uint32_t cell; /* 1-based, counting every cell (as ruff does) */
	uint32_t line; /* 1-based line within the cell */
	size_t raw;    /* byte offset in the notebook of the line's first
			  character inside its JSON string; 0 when none */
	uint32_t json_line, json_column; /* where raw is in the file */
};

struct smp_notebook {
	int ok;     /* the code was read; else findings say why */
	char *code; /* the code cells, in the documents' arena */
	size_t len;
	struct smp_nb_line *lines; /* one per line of code */
	size_t nlines;
	const char *json; /* the notebook's own bytes (borrowed) */
	size_t json_len;
};

/*
 * Reads the notebook buf[0..len) into nb, its JSON parsed into docs. A
 * notebook that is not JSON leaves a diagnostic in docs (the caller
 * reports it); one without a list of cells is a wrong-type finding. Outputs do
 * not count against the limits: nodes and scalar length are counted for the
 * notebook's structure and its source cells only. Returns 0 or SMP_ENOMEM.
 */
int smp__notebook_load(struct smp_notebook *nb, struct smp_docs *docs,
		       const char *buf, size_t len,
		       const struct smp_limits *limits, struct smp_report *rep);

/*
 * Maps the findings of rep, positioned in nb->code, back into the
 * notebook: line and column become those of the JSON file, and cell,
 * cell_line and cell_column say where in which cell.
 */
void smp__notebook_map(const struct smp_notebook *nb, struct smp_report *rep);

#endif
