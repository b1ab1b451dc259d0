/*
 * fuzz_diagnose.c - libFuzzer target for diagnose: the input, cut at its
 * first NUL byte, is a DescribeTrainingJob response and the job's log
 * (the log streamed in pieces of a size the first byte picks, so that
 * lines and signatures split across reads). Besides crashes and sanitizer
 * reports it aborts when a finished diagnosis does not render in both
 * formats, or renders a raw ESC or BEL (untrusted text is escaped).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "smpreflight.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* created once and kept: test code, not the library */
static struct smp_context *ctx;

struct piece_reader {
	const char *buf;
	size_t len, at, piece;
};

static int
read_pieces(void *ud, char *buf, size_t size, size_t *got)
{
	struct piece_reader *r = ud;
	size_t n = r->len - r->at;

	if (n > r->piece)
		n = r->piece;
	if (n > size)
		n = size;
	memcpy(buf, r->buf + r->at, n);
	r->at += n;
	*got = n;
	return 0;
}

static int
no_control(void *ud, const char *data, size_t len)
{
	size_t i;

	(void)ud;
	for (i = 0; i < len; i++)
		if (data[i] == '\x1b' || data[i] == '\x07')
			abort(); /* a terminal escape reached the output */
	return 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct smp_diagnose_options o = SMP_DIAGNOSE_OPTIONS_INIT;
	struct smp_diagnosis *d = NULL;
	struct piece_reader r;
	const char *text = (const char *)data, *nul;
	size_t rlen;

	if (!ctx) {
		struct smp_options opts = SMP_OPTIONS_INIT;

		opts.max_file_size = 1 << 16;
		opts.max_nodes = 4000;
		if (smp_context_new(&ctx, &opts, NULL) != 0)
			abort();
	}
	if (size < 1)
		return 0;
	nul = memchr(text + 1, '\0', size - 1);
	rlen = nul ? (size_t)(nul - (text + 1)) : size - 1;
	memset(&r, 0, sizeof(r));
	r.buf = nul ? nul + 1 : "";
	r.len = nul ? size - 1 - rlen - 1 : 0;
	r.piece = 1 + (size_t)(data[0] % 64);
	o.log_name = "log.txt";
	o.log_read = read_pieces;
	o.log_ud = &r;
	if (smp_diagnose_buffer(&d, ctx, "describe.json", text + 1, rlen, &o,
				NULL) == 0) {
		if (smp_diagnosis_emit_text(d, no_control, NULL) != 0 ||
		    smp_diagnosis_emit_json(d, no_control, NULL) != 0)
			abort();
		smp_diagnosis_free(d);
	}
	return 0;
}
