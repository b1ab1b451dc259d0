/*
 * notebook.h - a notebook's findings in the notebook: the checks read
 * its code cells as one source (doc/notebook.h), and their findings are
 * mapped back to the JSON file's line:column and to the cell.
 */
#ifndef SMP_JOB_NOTEBOOK_H
#define SMP_JOB_NOTEBOOK_H

#include "doc/notebook.h"
#include "report/report.h"

/*
 * Maps the findings of rep, positioned in nb->code, back into the
 * notebook: line and column become those of the JSON file, and cell,
 * cell_line and cell_column say where in which cell.
 */
void smp__notebook_map(const struct smp_notebook *nb, struct smp_report *rep);

#endif
