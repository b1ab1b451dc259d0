/*
 * pyscan.h - the light structure pass over a Python script: what the
 * entry-script rules ask about, found from the tokens (pytok.h) so that
 * nothing inside strings or comments counts. It records
 *   - imports and their aliases (import torch_xla.core.xla_model as xm),
 *   - function and class definitions with the extent of their bodies,
 *   - for/while loops with the extent of their bodies,
 *   - calls: the dotted callee, its arguments (keyword or positional,
 *     each with its first token), the innermost function and loop around
 *     it, and whether an `if` with a '%' test (periodic work) guards it,
 *   - simple assignments `a.b = ...` and `a.b["key"] = ...` (such as
 *     os.environ["GPU_NUM_DEVICES"] = "4").
 * It is not a parser: it needs no valid Python, and bad input only gives
 * fewer records. Memory is one arena and bounded: past SMP_PYSCAN_MAX
 * records of a kind, scanning goes on but `truncated` is set, and rules
 * that conclude from an absence must then stay quiet.
 */
#ifndef SMP_PYSCAN_H
#define SMP_PYSCAN_H

#include <stddef.h>

#include "util/arena.h"
#include "script/pytok.h"

#define SMP_PYSCAN_MAX 65536

struct smp_pyimport {
	const char *name;   /* the name bound: "xm", "torch", "Trainer" */
	const char *target; /* what it stands for: "torch_xla.core.xla_model" */
};

struct smp_pydef {
	const char *name;
	int is_class;
	struct smp_pos start;    /* the 'def' / 'class' keyword */
	struct smp_pos name_end; /* just after the name */
	int parent; /* enclosing def or class, -1 at module level */
	size_t nparams;
	const char *param0; /* first parameter's name, or NULL */
	const char *base;   /* class: its first base as written, or NULL */
	size_t body_start;  /* offsets of the body */
	size_t body_end;
};

struct smp_pyloop {
	int is_while;
	struct smp_pos start;  /* the 'for' / 'while' keyword */
	struct smp_pos kw_end; /* just after it */
	int parent;            /* enclosing loop in the same function, -1 */
	int func;              /* enclosing def, -1 */
	size_t body_start;
	size_t body_end;
};

struct smp_pyarg {
	const char *name;       /* keyword, or NULL when positional */
	struct smp_pos start;   /* the keyword, or the value's first token */
	struct smp_pytok first; /* the value's first token */
	size_t ntok; /* tokens of the value at its own level (a nested bracket
			counts its two brackets only): 1 for a plain value */
	struct smp_pos end; /* just after the value */
	int call;           /* the call it belongs to */
	int next;           /* the call's next argument, -1 */
};

struct smp_pycall {
	/* the callee as written: "xm.mark_step", "torch.save", "print";
	 * with a leading '.' when called on an expression: ".item" for
	 * loss.detach().item() */
	const char *callee;
	const char *attr;          /* the last component: "mark_step" */
	struct smp_pos start;      /* the callee's first token */
	struct smp_pos attr_start; /* the last component */
	struct smp_pos end;        /* just after ')' (or '(' if unclosed) */
	int func;                  /* innermost enclosing def, -1 */
	int loop;                  /* innermost loop in that def, -1 */
	int periodic;              /* guarded by an `if` whose test has '%' */
	size_t nargs;
	int first_arg; /* index into args, -1 */
	int last_arg;
};

struct smp_pyassign {
	const char *target;   /* "device", "self.scaler", "os.environ" */
	const char *key;      /* target["key"]: the key's text, else NULL */
	int key_exact;        /* key is exactly the literal's value */
	struct smp_pos start; /* the target */
	struct smp_pos target_end;
	struct smp_pytok value; /* the value's first token */
	size_t ntok;            /* tokens in the value, nested ones too */
	struct smp_pos value_end;
	int func;
	int loop;
};

struct smp_pyscan {
	const char *buf;
	size_t len;
	struct smp_pyimport *imports;
	size_t nimports, cimports;
	struct smp_pydef *defs;
	size_t ndefs, cdefs;
	struct smp_pyloop *loops;
	size_t nloops, cloops;
	struct smp_pycall *calls;
	size_t ncalls, ccalls;
	struct smp_pyarg *args;
	size_t nargs, cargs;
	struct smp_pyassign *assigns;
	size_t nassigns, cassigns;
	/* the `if __name__ == "__main__":` line at module level, if any */
	struct smp_pos main_guard;
	struct smp_pos main_guard_end; /* just after its 'if' */
	int has_main_guard;
	size_t tokens;     /* tokens read */
	size_t bad_tokens; /* ERROR tokens and unterminated strings */
	int truncated;     /* some records were dropped */
};

/*
 * Scans buf[0..len) into out, allocating from arena (which must outlive
 * out). Returns 0, or SMP_ENOMEM (out is then incomplete).
 */
int smp__pyscan_run(struct smp_pyscan *out, struct smp_arena *arena,
		    const char *buf, size_t len);

/*
 * The dotted name a callee or chain stands for, through the imports:
 * "xm.mark_step" -> "torch_xla.core.xla_model.mark_step". Names that are
 * not imported come back as written. Written to out (size n, truncated).
 */
void smp__pyscan_resolve(const struct smp_pyscan *scan, const char *chain,
			 char *out, size_t n);

#endif
