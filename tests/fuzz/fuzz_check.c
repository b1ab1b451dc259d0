/*
 * fuzz_check.c - libFuzzer target for a whole check (smp_check_buffer):
 * load, dialect detection, the dialect's schema, normalization and every
 * rule group. Each input runs once with the dialect detected and once
 * forced to each dialect, so that every normalizer meets every shape (an
 * estimator spec read as a request, a request read as ModelTrainer ...).
 * Besides crashes and sanitizer reports it aborts when a finding breaks
 * the report's contract: a known rule id, a message, a severity, a sane
 * position, and findings in source order. The report of the detected
 * dialect is also written as SARIF (to nowhere).
 *
 * With SMP_FUZZ_LARGE=1 in the environment the target runs at the default
 * limits (4 MiB, the default node count) and expands each input, so that
 * the fuzzer reaches what small inputs cannot: long lines and many
 * findings. An input is two bytes of repeat count (little-endian), then
 * HEAD '\0' BODY '\0' TAIL; the buffer checked is HEAD, BODY repeated,
 * TAIL, cut to 4 MiB (without NULs: the whole rest is BODY). The contract
 * then includes the report's cap: at most 1,000 findings and the one that
 * counts the rest. Run it with an RSS limit, e.g.
 *   SMP_FUZZ_LARGE=1 build/fuzz/fuzz_check -rss_limit_mb=512 \
 *     -max_total_time=60 build/fuzz/new-large tests/fuzz/corpus-large/check
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report_contract.h"
#include "smpreflight.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* created once and kept: contexts are immutable, and a fuzz target may
 * keep state between inputs (test code, not the library) */
static struct smp_context *contexts[4];
static int large; /* SMP_FUZZ_LARGE=1: default limits, expanded inputs */

#define LARGE_MAX (4u << 20)

static void
setup(void)
{
	const char *env = getenv("SMP_FUZZ_LARGE");
	int d;

	large = env && strcmp(env, "1") == 0;
	for (d = 0; d < 4; d++) {
		struct smp_options o = SMP_OPTIONS_INIT;

		o.dialect = (enum smp_dialect)d;
		if (!large) {
			o.max_file_size = 1 << 16;
			o.max_nodes = 4000;
		}
		if (smp_context_new(&contexts[d], &o, NULL) != 0)
			abort();
	}
}

/* The large-mode buffer of an input (see the top); malloc'ed. */
static char *
expand(const uint8_t *data, size_t size, size_t *len)
{
	const uint8_t *rest = data + 2, *nul1, *nul2;
	size_t n = size - 2, head = 0, body = n, tail = 0, reps, i, k;
	const uint8_t *b = rest, *t = rest + n;
	char *out;

	reps = (size_t)data[0] | (size_t)data[1] << 8;
	nul1 = memchr(rest, 0, n);
	nul2 = nul1 ? memchr(nul1 + 1, 0, n - (size_t)(nul1 + 1 - rest)) : NULL;
	if (nul1 && nul2) {
		head = (size_t)(nul1 - rest);
		b = nul1 + 1;
		body = (size_t)(nul2 - b);
		t = nul2 + 1;
		tail = n - (size_t)(t - rest);
	}
	out = malloc(LARGE_MAX);
	if (!out)
		abort();
	k = head < LARGE_MAX ? head : LARGE_MAX;
	memcpy(out, rest, k);
	for (i = 0; body && i < reps && k + body <= LARGE_MAX; i++, k += body)
		memcpy(out + k, b, body);
	if (tail && k + tail <= LARGE_MAX) {
		memcpy(out + k, t, tail);
		k += tail;
	}
	*len = k;
	return out;
}

/* A sink that keeps nothing: the SARIF of a report is only produced. */
static int
discard(void *ud, const char *data, size_t len)
{
	(void)data;
	*(size_t *)ud += len;
	return 0;
}

/*
 * The report as SARIF, whose fingerprints once cost findings x line
 * length: it must be produced, without error, for any report.
 */
static void
emit_sarif(const struct smp_report *rep)
{
	struct smp_emitter *em = NULL;
	size_t written = 0;

	if (smp_emitter_new(&em, contexts[0], SMP_FORMAT_SARIF, NULL, discard,
			    &written) != 0 ||
	    smp_emitter_add(em, rep) != 0 || smp_emitter_finish(em) != 0 ||
	    written == 0)
		abort();
	smp_emitter_free(em);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int d;

	const char *buf = (const char *)data;
	char *big = NULL;

	if (!contexts[0])
		setup();
	if (large && size >= 2) {
		big = expand(data, size, &size);
		buf = big;
	}
	for (d = 0; d < 4; d++) {
		struct smp_report *rep = NULL;
		struct smp_error err = {0};

		if (smp_check_buffer(&rep, contexts[d], "fuzz", buf, size,
				     &err) != 0)
			abort(); /* only out-of-memory may fail, and malloc
				    does not here */
		check_report(rep, size);
		if (d == 0)
			emit_sarif(rep);
		smp_report_free(rep);
	}
	free(big);
	return 0;
}
