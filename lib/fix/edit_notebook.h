/*
 * edit_notebook.h - a finding's literal replaced inside a notebook's cell
 * source string (edit_notebook.c).
 */
#ifndef SMP_FIX_EDIT_NOTEBOOK_H
#define SMP_FIX_EDIT_NOTEBOOK_H

#include <stddef.h>

#include "smpreflight.h"
#include "util/arena.h"
#include "doc/doc.h"
#include "fix/edit.h"

/*
 * The edit of the notebook buf[0..len) that sets the literal f is at to
 * f's value, docs holding the notebook's jobs: 0 with *e set (text in
 * arena) and code's start and end the literal's span in the jobs' code; 1 when
 * f's fix is no such replacement or the literal is not found as written;
 * SMP_ENOMEM.
 */
int smp__nb_edit(struct smp_fix_edit *e, struct smp_fix_edit *code,
		 struct smp_arena *arena, const char *buf, size_t len,
		 const struct smp_docs *docs, const struct smp_finding *f);

#endif
