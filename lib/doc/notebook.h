/*
 * notebook.h - the code of a Jupyter notebook (nbformat 4): its code
 * cells in order, joined into one text, with a map from each line of
 * that text back to its cell, its line in the cell and the place of its
 * text inside the notebook's JSON, and the kernel's language. Markdown
 * cells are skipped; outputs, attachments and metadata are skipped
 * without building nodes. The text is the cells as written: IPython
 * syntax is the Python model's to read (script/ipython.h). What is wrong
 * with the notebook is a neutral diagnostic in the documents (syntax,
 * limit, wrong type), never a finding.
 */
#ifndef SMP_DOC_NOTEBOOK_H
#define SMP_DOC_NOTEBOOK_H

#include <stddef.h>
#include <stdint.h>

#include "smpreflight.h"
#include "doc/doc.h"
#include "doc/limits.h"

struct smp_nb_line {
	uint32_t cell; /* 1-based, counting every cell (as ruff does) */
	uint32_t line; /* 1-based line within the cell */
	size_t raw;    /* byte offset in the notebook of the line's first
			  character inside its JSON string; 0 when none */
	uint32_t json_line, json_column; /* where raw is in the file */
};

/* One code cell's text: code[from, to), every cell ending in '\n'. */
struct smp_nb_cell {
	uint32_t cell; /* 1-based, counting every cell */
	size_t from, to;
};

struct smp_notebook {
	int ok;     /* the code was read; else diagnostics say why */
	char *code; /* the code cells, in the documents' arena */
	size_t len;
	struct smp_nb_line *lines; /* one per line of code */
	size_t nlines;
	struct smp_nb_cell *cells; /* the code cells, in order */
	size_t ncells;
	/* metadata.language_info.name, else metadata.kernelspec.language,
	 * when it is not Python ("R", "scala"); NULL for a Python kernel or
	 * none named */
	const char *language;
	const char *json; /* the notebook's own bytes (borrowed) */
	size_t json_len;
};

/*
 * Reads the notebook buf[0..len) into nb, in docs' arena. A notebook
 * that is not JSON, not UTF-8, whose code cells exceed the file size
 * limit or without a list of cells leaves a diagnostic in docs and nb->ok
 * 0. A cell that is not an object, a source entry that is not a string or
 * a cell holding a NUL character is a diagnostic too, and that cell (or
 * entry) is skipped; the rest is read. Outputs do not count against the
 * limits. Returns 0 or SMP_ENOMEM.
 */
int smp__notebook_load(struct smp_notebook *nb, struct smp_docs *docs,
		       const char *buf, size_t len,
		       const struct smp_limits *limits);

/*
 * Length in the JSON of the escape or character at raw[0..n) inside a
 * string; *cols gets the columns it takes (an escape is ASCII: a column
 * a byte).
 */
size_t smp__nb_raw_char(const char *raw, size_t n, uint32_t *cols);

/* The code cell that holds line (1-based) of nb->code, or NULL. */
const struct smp_nb_cell *smp__notebook_cell_of(const struct smp_notebook *nb,
						uint32_t line);

#endif
