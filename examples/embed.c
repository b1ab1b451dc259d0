/*
 * embed.c - a job-submission step built on libsmpreflight: check the
 * spec before handing it to SageMaker, print the findings, and refuse the
 * job when one of them is an error.
 *
 *   cc embed.c $(pkg-config --cflags --libs smpreflight) -o embed
 *   ./embed job.yaml && submit-the-job job.yaml
 *
 * Exit status: 0 the job may go (warnings and infos are only shown);
 * 1 it has an error-level finding; 2 usage, or the file cannot be read;
 * 3 the library failed (out of memory, broken instance data).
 */
#include <stdio.h>
#include <string.h>

#include <smpreflight.h>

int
main(int argc, char **argv)
{
	struct smp_context *ctx = NULL;
	struct smp_report *rep = NULL;
	struct smp_error err;
	size_t i, errors = 0, others = 0;
	int rc;

	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: embed FILE\n"
				"checks a SageMaker Training Compiler job "
				"spec before it is submitted\n");
		return 2;
	}
	/* One context per program: it is immutable and could be shared by
	 * every thread of a submission service. NULL options: the instance
	 * data embedded in the library, default severities. */
	if (smp_context_new(&ctx, NULL, &err) != 0) {
		fprintf(stderr, "embed: %s\n", err.message);
		return 3;
	}
	rc = smp_check_file(&rep, ctx, argv[1], &err);
	if (rc != 0) {
		/* an operational error, not a finding */
		fprintf(stderr, "embed: %s: %s\n",
			err.source[0] ? err.source : argv[1],
			err.message[0] ? err.message : smp_strerror(rc));
		smp_context_free(ctx);
		return rc == SMP_EIO ? 2 : 3;
	}

	/* The findings as the CLI shows them: file:line:col, severity,
	 * message, rule id, the source line and the fix. */
	if (smp_emit_text(rep, SMP_SEVERITY_INFO, 0, smp_file_write_fn,
			  stdout) != 0) {
		fprintf(stderr, "embed: cannot write the findings\n");
		smp_report_free(rep);
		smp_context_free(ctx);
		return 3;
	}

	/* The same findings as data: the submission service decides. */
	for (i = 0; i < smp_report_count(rep); i++) {
		const struct smp_finding *f = smp_report_get(rep, i);

		if (f->severity == SMP_SEVERITY_ERROR) {
			if (errors++ == 0)
				printf("\nembed: refusing '%s':\n", argv[1]);
			/* f->file: the spec, or the entry script the
			 * finding is in; a script has no JSON Pointer */
			printf("  - %s in %s", f->rule, f->file);
			if (f->line)
				printf(":%u", (unsigned)f->line);
			if (f->pointer && f->pointer[0])
				printf(" at %s", f->pointer);
			printf("\n");
		} else {
			others++;
		}
	}
	if (errors)
		printf("embed: %zu error(s); fix them and submit again\n",
		       errors);
	else
		printf("embed: '%s' may be submitted (%zu warning(s) or "
		       "note(s))\n",
		       argv[1], others);

	smp_report_free(rep);
	smp_context_free(ctx);
	return errors ? 1 : 0;
}
