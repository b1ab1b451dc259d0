/*
 * test_diagnose_log.c - the log streamed to diagnose (log_read): a log of
 * any size is searched in one pass with memory that does not grow with
 * it; a signature split across the reader's pieces or across the windows
 * of a very long line is found; a reader error is SMP_EIO; the toolkit's
 * crash quotes the real error from the lines above it.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smpreflight.h"
#include "helpers.h"

#define IMAGE                                                                  \
	"763104351884.dkr.ecr.us-west-2.amazonaws.com/"                        \
	"huggingface-pytorch-trcomp-training:1.11.0-transformers4.21.1-gpu-"   \
	"py38-cu113-ubuntu20.04"

static const char failed[] =
	"TrainingJobName: j\n"
	"TrainingJobArn: arn:aws:sagemaker:us-west-2:111122223333:training-"
	"job/j\n"
	"TrainingJobStatus: Failed\n"
	"AlgorithmSpecification: {TrainingImage: " IMAGE
	", TrainingInputMode: File}\n"
	"ResourceConfig: {InstanceType: ml.p3.2xlarge, InstanceCount: 1, "
	"VolumeSizeInGB: 30}\n"
	"HyperParameters: {sagemaker_training_compiler_enabled: 'true'}\n";

/* A generated log: `lines` copies of a filler line, then the tail. */
struct gen {
	const char *filler;
	const char *tail;
	long long lines;
	size_t piece; /* bytes handed out per call at most */
	long long line;
	size_t at;   /* in the current line */
	int fail_at; /* the call that fails, or -1 */
	int calls;
};

static int
gen_read(void *ud, char *buf, size_t size, size_t *got)
{
	struct gen *g = ud;
	size_t n = 0;

	if (g->calls++ == g->fail_at)
		return -1;
	if (size > g->piece)
		size = g->piece;
	while (n < size) {
		const char *l = g->line < g->lines    ? g->filler
				: g->line == g->lines ? g->tail
						      : NULL;
		size_t len, k;

		if (!l)
			break;
		len = strlen(l);
		k = len - g->at < size - n ? len - g->at : size - n;
		memcpy(buf + n, l + g->at, k);
		n += k;
		g->at += k;
		if (g->at == len) {
			g->at = 0;
			g->line++;
		}
	}
	*got = n;
	return 0;
}

/* An allocator that knows how many bytes are live, and the peak. */
struct counting {
	size_t live, peak;
};

static void *
c_malloc(void *ud, size_t size)
{
	struct counting *c = ud;
	size_t *p = malloc(size + sizeof(size_t) * 2);

	if (!p)
		return NULL;
	p[0] = size;
	c->live += size;
	if (c->live > c->peak)
		c->peak = c->live;
	return p + 2;
}

static void
c_free(void *ud, void *ptr)
{
	struct counting *c = ud;
	size_t *p = ptr;

	if (!p)
		return;
	c->live -= p[-2];
	free(p - 2);
}

static void *
c_realloc(void *ud, void *ptr, size_t size)
{
	size_t *p = ptr, old;
	void *n;

	if (!ptr)
		return c_malloc(ud, size);
	old = p[-2];
	n = c_malloc(ud, size);
	if (!n)
		return NULL;
	memcpy(n, ptr, old < size ? old : size);
	c_free(ud, ptr);
	return n;
}

/* Diagnoses failed with the generated log; the peak bytes allocated. */
static size_t
peak_with(struct gen *g, const char *want_cause)
{
	struct counting c = {0, 0};
	struct smp_allocator a = {c_malloc, c_realloc, c_free, &c};
	struct smp_options opts = SMP_OPTIONS_INIT;
	struct smp_diagnose_options o = SMP_DIAGNOSE_OPTIONS_INIT;
	struct smp_context *ctx = NULL;
	struct smp_diagnosis *d = NULL;
	struct smp_error err;
	size_t peak;

	opts.allocator = &a;
	cr_assert_eq(smp_context_new(&ctx, &opts, &err), 0);
	o.log_name = "job.log";
	o.log_read = gen_read;
	o.log_ud = g;
	cr_assert_eq(smp_diagnose_buffer(&d, ctx, "job.yaml", failed,
					 strlen(failed), &o, &err),
		     0, "%s", err.message);
	cr_assert_eq(d->cause_count, 1);
	cr_expect_str_eq(d->causes[0].id, want_cause);
	cr_expect_eq(d->causes[0].line, (uint32_t)(g->lines + 1));
	peak = c.peak;
	smp_diagnosis_free(d);
	smp_context_free(ctx);
	cr_expect_eq(c.live, 0, "%zu bytes leaked", c.live);
	return peak;
}

/* 64 MiB of log (16 times check's file limit) takes no more memory than
 * a few lines: nothing grows with the log. */
Test(diagnose_log, memory_does_not_grow_with_the_log)
{
	static const char filler[] =
		"EVENTS\t1764517861412\t{'loss': 0.4521, 'learning_rate': "
		"4.9e-05, 'epoch': 0.12}\t1764517861000\n";
	static const char tail[] = "EVENTS\t1764517862143\tRuntimeError: CUDA "
				   "out of memory.\t1764517862000\n";
	struct gen small = {filler, tail, 10, 65536, 0, 0, -1, 0};
	struct gen big = {filler, tail, (64LL << 20) / (sizeof(filler) - 1),
			  65536,  0,    0,
			  -1,     0};
	size_t a = peak_with(&small, "out-of-memory");
	size_t b = peak_with(&big, "out-of-memory");

	cr_expect_eq(a, b, "peak %zu bytes with 10 lines, %zu with 64 MiB", a,
		     b);
}

/* Pieces of 7 bytes cut every pattern somewhere: still found. */
Test(diagnose_log, a_signature_across_pieces)
{
	struct gen g = {"step 1 loss 0.5\n",
			"RuntimeError: tensorflow/compiler/xla/xla_client/"
			"computation_client.cc:274 : Missing XLA "
			"configuration\n",
			1000,
			7,
			0,
			0,
			-1,
			0};

	peak_with(&g, "missing-xla-configuration");
}

/* A 1 MiB line, the signature at its very end: the windows overlap. */
Test(diagnose_log, a_signature_at_the_end_of_a_huge_line)
{
	char *line = malloc((1 << 20) + 64);
	struct gen g = {NULL, NULL, 0, 65536, 0, 0, -1, 0};

	cr_assert_not_null(line);
	memset(line, 'a', 1 << 20);
	strcpy(line + (1 << 20), "CUDA out of memory\n");
	g.tail = line;
	peak_with(&g, "out-of-memory");
	free(line);
}

Test(diagnose_log, a_reader_error_is_eio)
{
	struct smp_context *ctx = th_context(NULL);
	struct gen g = {"x\n", "y\n", 100000, 16, 0, 0, 3, 0};
	struct smp_diagnose_options o = SMP_DIAGNOSE_OPTIONS_INIT;
	struct smp_diagnosis *d = NULL;
	struct smp_error err;

	o.log_read = gen_read;
	o.log_ud = &g;
	cr_expect_eq(smp_diagnose_buffer(&d, ctx, "job.yaml", failed,
					 strlen(failed), &o, &err),
		     SMP_EIO);
	cr_expect_null(d);
	smp_context_free(ctx);
}

/* The toolkit's crash: the real error above its traceback is quoted. */
Test(diagnose_log, the_toolkit_crash_quotes_the_real_error)
{
	static const char log[] =
		"Invoking script with the following command:\n"
		"ModuleNotFoundError: No module named 'datasets'\n"
		"Traceback (most recent call last):\n"
		"  File \"/opt/conda/lib/python3.8/site-packages/"
		"sagemaker_training/process.py\", line 335, in check_error\n"
		"    raise error_class(\n"
		"TypeError: SMTrainingCompilerConfigurationError() takes no "
		"keyword arguments\n";
	struct smp_context *ctx = th_context(NULL);
	struct smp_diagnose_options o = SMP_DIAGNOSE_OPTIONS_INIT;
	struct smp_diagnosis *d = NULL;
	struct smp_error err;

	o.log = log;
	o.log_len = strlen(log);
	o.log_name = "job.log";
	cr_assert_eq(smp_diagnose_buffer(&d, ctx, "job.yaml", failed,
					 strlen(failed), &o, &err),
		     0);
	cr_assert_eq(d->cause_count, 1);
	cr_expect_str_eq(d->causes[0].id, "training-toolkit-crash");
	cr_expect(strstr(d->causes[0].advice,
			 "job.log:2: ModuleNotFoundError: No module named "
			 "'datasets'") != NULL,
		  "%s", d->causes[0].advice);
	smp_diagnosis_free(d);
	smp_context_free(ctx);
}
