/*
 * script.h - the entry script of a job (README "Entry-script checks"): finding
 * the Python file the spec names, reading it, and the facts the rules ask about
 * (does it set GPU_NUM_DEVICES?). The script rules themselves are in
 * lib/rules/script.c.
 *
 * Order in check.c: normalize -> smp__script_load() (facts in job->script)
 * -> the spec rules -> smp__rules_script() -> smp__script_release().
 */
#ifndef SMP_SCRIPT_H
#define SMP_SCRIPT_H

#include "util/arena.h"
#include "doc/doc.h"
#include "script/pyscan.h"

#define SMP_SCRIPT_MAX_NAMES 16

enum smp_script_status {
	SMP_SCRIPT_NONE = 0, /* not looked for: no entry point, no compiler,
				--no-script, a buffer with no folder, remote */
	SMP_SCRIPT_SCANNED,  /* read and scanned */
	SMP_SCRIPT_MISSING,  /* named but not read: reason says why */
	SMP_SCRIPT_NOT_LOCAL /* an absolute path, or one resolving outside
				the spec's folder or repository (reason set):
				deliberately not read */
};

struct smp_script_facts {
	const struct smp_allocator *alloc;
	struct smp_arena arena;
	enum smp_script_status status;
	/* the spec value that names the script (entry point, or the
	 * launcher's training_script hyperparameter), its role and path */
	const struct smp_node *node;
	int launcher; /* node is the 'training_script' hyperparameter */
	const char *path;
	const char *reason; /* MISSING: "was not found", ... */
	char *buf;          /* the script's bytes (allocator) */
	size_t len;
	struct smp_pyscan scan;
	const char **resolved;   /* per call: the callee through the imports */
	unsigned char *training; /* per loop: steps the optimizer or calls
				    backward() directly in its body */

	/* what the script establishes, for the spec rules and the script
	 * rules alike */
	int sets_gpu_num_devices; /* os.environ["GPU_NUM_DEVICES"] = ...,
				     setdefault, putenv, update */
	int managed;         /* the HF Trainer, Accelerate or Lightning runs the
				loop: they call mark_step, wrap the loaders,
				reduce the gradients and seed the workers */
	const char *manager; /* "Trainer", ... for messages */
	int spawns_workers;  /* xmp.spawn() / torch_xla.launch(): one
				process per device, started by the script */
	int imports_torch;
	int uses_xla_device;
	int has_mark_step;     /* xm.mark_step(), optimizer_step(barrier=True)
				  or a loop fed by MpDeviceLoader */
	int has_device_loader; /* MpDeviceLoader / ParallelLoader */
	int has_sampler;       /* DistributedSampler or sharding */
	int has_gradient_sync; /* xm.optimizer_step, reduce_gradients, an
				  all_reduce of gradients, DDP */
	/* the script takes --preprocessing_num_workers (argparse
	 * add_argument, or an HfArgumentParser dataclass field) */
	int accepts_preprocessing_workers;
	/* GradScalers and optimizers by name: "scaler", "self.optimizer" */
	const char *scalers[SMP_SCRIPT_MAX_NAMES];
	size_t nscalers;
	const char *optimizers[SMP_SCRIPT_MAX_NAMES];
	size_t noptimizers;
};

/* Prepares s (status NONE); release it with smp__script_release(). */
void smp__script_init(struct smp_script_facts *s,
		      const struct smp_allocator *a);

/*
 * A file defined by the source being checked rather than on disk: a
 * notebook's %%writefile cell. text is scanned as the script, its
 * positions those of the defining source, and findings name shown_as.
 */
struct smp_script_file {
	const char *path; /* as written, relative to the source's folder */
	const char *text;
	size_t len;
	const char *shown_as;
};

/*
 * What the spec says about its script: the entry point, a launcher's
 * training_script hyperparameter (read instead when it is a string), the
 * source_dir, and whether source_dir lies in a git repository.
 */
struct smp_script_where {
	const struct smp_node *entry_point;
	const struct smp_node *launcher_script;
	const struct smp_node *source_dir;
	int in_git;
	/* files the checked source defined (a notebook's %%writefile
	 * cells): read when the script is not on disk; NULL: none */
	const struct smp_script_file *files;
	size_t nfiles;
};

/*
 * Finds the script w names (a launcher's training_script first, else the
 * entry point), relative to base_dir (the spec's folder; "" is the current
 * one; NULL: not looked for) and the source_dir, reads it (at most
 * max_size bytes, regular files only) and scans it. A script that cannot
 * be read is a status, not an error. Returns 0, or SMP_ENOMEM.
 */
int smp__script_load(struct smp_script_facts *s,
		     const struct smp_script_where *w, const char *base_dir,
		     size_t max_size);

void smp__script_release(struct smp_script_facts *s);

/* The facts of a scanned script (facts.c); 0 or SMP_ENOMEM. */
int smp__script_analyze(struct smp_script_facts *s);

/* 1 when receiver (n bytes) names a GradScaler of the script. */
int smp__script_is_scaler(const struct smp_script_facts *s,
			  const char *receiver, size_t n);

/*
 * An optimizer step: xm.optimizer_step(...), optimizer.step() or, with
 * AMP, scaler.step(optimizer). 2 for the scaler's step, 0 for none.
 */
int smp__script_step_kind(const struct smp_script_facts *s,
			  const struct smp_pycall *c);

/*
 * 1 when the script is known to accept the command-line option --name
 * (name with '_'; '-' spellings match too): an argparse add_argument()
 * of it, or a name of its code when it parses with HfArgumentParser
 * (whose dataclass fields become options). 0 when not known (args.c).
 */
int smp__script_accepts_option(const struct smp_pyscan *p, const char *name);

/* 1 when assignment a sets os.environ["GPU_NUM_DEVICES"]. */
int smp__script_is_env_target(const struct smp_pyscan *p,
			      const struct smp_pyassign *a);

/*
 * Where a script named name lies: base_dir/source_dir/name into out.
 * Returns 0; 1 when name or source_dir is an absolute path (not read);
 * 2 when source_dir is remote (s3://, a git repository: nothing to read
 * here); -1 when the path does not fit.
 */
int smp__script_path(char *out, size_t n, const char *base_dir,
		     const char *source_dir, const char *name);

#endif
