/*
 * github.c - GitHub Actions workflow commands (`check --format
 * github`), one line per finding, which the runner turns into
 * annotations on the pull request:
 *
 *   ::error file=jobs/bert.yaml,line=14,col=20,endLine=14,endColumn=23,
 *   title=sm-preflight (gpu-num-devices-mismatch)::GPU_NUM_DEVICES is ...
 *
 * (one line). The title names the tool and the rule, so that the
 * annotations are told apart from other linters' on the same line. A file
 * below the emitter's source root (the CLI's GITHUB_WORKSPACE, as for
 * SARIF) is named relative to it, as the runner places annotations by
 * the repository's paths; other names are written as given. Errors are
 * ::error, warnings ::warning, infos ::notice. The
 * runner rejects col/endColumn on a range over several lines, so such a
 * finding gives its start only (line and col). The fix follows the
 * message on a second line of the annotation. Suppressed findings are not
 * written: an annotation cannot be marked as dismissed.
 */
#include "emit/artifact.h"
#include "emit/emitter.h"
#include "report/report.h"

static const char *
command(enum smp_severity sev)
{
	switch (sev) {
	case SMP_SEVERITY_ERROR:
		return "::error ";
	case SMP_SEVERITY_WARNING:
		return "::warning ";
	default:
		return "::notice ";
	}
}

static void
out_property(struct smp__out *o, const char *name, uint32_t v)
{
	smp__out_str(o, ",");
	smp__out_str(o, name);
	smp__out_str(o, "=");
	smp__out_uint(o, v);
}

/* file=NAME: relative to the source root when the file is below it. */
static void
out_file(struct smp_emitter *em, const char *file)
{
	struct smp__artifact art;

	smp__out_str(&em->out, "file=");
	if (!em->source_root) {
		smp__out_github_property(&em->out, file);
		return;
	}
	if (smp__artifact_resolve(&art, &em->alloc, em->source_root,
				  em->base_dir, file)) {
		em->oom = 1;
		return;
	}
	smp__out_github_property(&em->out, art.in_root ? art.path : file);
	smp__artifact_release(&art, &em->alloc);
}

static void
out_finding(struct smp_emitter *em, const struct smp_finding *f,
	    const char *file)
{
	struct smp__out *o = &em->out;

	smp__out_str(o, command(f->severity));
	out_file(em, f->file ? f->file : file);
	if (f->line) {
		int one_line = f->end_line == f->line;

		out_property(o, "line", f->line);
		if (f->column)
			out_property(o, "col", f->column);
		if (one_line && f->column && f->end_column >= f->column) {
			out_property(o, "endLine", f->end_line);
			out_property(o, "endColumn", f->end_column);
		}
	}
	smp__out_str(o, ",title=sm-preflight (");
	smp__out_github_property(o, f->rule ? f->rule : "?");
	smp__out_str(o, ")::");
	smp__out_github_data(o, f->message ? f->message : "");
	if (f->fix) {
		smp__out_str(o, "%0Afix: ");
		smp__out_github_data(o, f->fix);
	}
	smp__out_str(o, "\n");
}

static void
github_file(struct smp_emitter *em, const struct smp_report *report)
{
	const char *file = smp__emit_report_file(report);
	size_t i;

	for (i = 0; i < report->count; i++) {
		const struct smp_finding *f = &report->items[i];

		if (smp__emit_visible(em, f) && !f->suppressed)
			out_finding(em, f, file);
	}
}

/* A failure: an ::error annotation on the file. */
static void
github_failure(struct smp_emitter *em, const char *file, const char *message)
{
	struct smp__out *o = &em->out;

	smp__out_str(o, "::error ");
	out_file(em, file);
	smp__out_str(o, ",title=sm-preflight::could not be checked: ");
	smp__out_github_data(o, message);
	smp__out_str(o, "\n");
}

const struct smp_emitter_ops smp__emit_github = {
	.name = "github",
	.file = github_file,
	.failure = github_failure,
};
