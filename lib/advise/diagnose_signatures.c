/*
 * diagnose_signatures.c - the known failure signatures: text that
 * FailureReason or the job's log shows when a Training Compiler job goes
 * wrong in a way the guide explains. One row each: adding a signature is
 * adding a row. Patterns are alternatives separated by '|', matched
 * without regard to case; in advice, {gpus}, {instance} and {batch} become
 * the job's GPUs per instance, instance type and batch size.
 *
 * The log is what `aws logs get-log-events --output text` prints (lines
 * "EVENTS<TAB>timestamp<TAB>message<TAB>ingestion time"), what
 * `aws logs filter-log-events --output text` prints ("EVENTS<TAB>event
 * id<TAB>ingestion time<TAB>stream<TAB>message<TAB>timestamp"), or plain
 * text; evidence quotes the message only.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "advise/diagnose.h"
#include "tune/tune.h"
#include "context/context.h"

struct signature {
	const char *id;
	const char *patterns;
	const char *page;
	const char *section;
	const char *summary;
	const char *advice;
};

#define TS SMP__PAGE_TROUBLESHOOTING
#define BP SMP__PAGE_BEST_PRACTICES

/* clang-format off */
static const struct signature signatures[] = {
	{"missing-xla-configuration", "Missing XLA configuration", TS, SMP__SEC_MISSING_XLA, "PyTorch/XLA found no device configuration: GPU_NUM_DEVICES is not set to the instance's GPU count", "set GPU_NUM_DEVICES to \"{gpus}\" (the GPUs of one {instance}) in one of three ways: the estimator's environment={\"GPU_NUM_DEVICES\": \"{gpus}\"}; a hyperparameter n_gpus that the script copies into os.environ[\"GPU_NUM_DEVICES\"]; or os.environ[\"GPU_NUM_DEVICES\"] = \"{gpus}\" in the script, as a string. The pytorchxla distribution sets it for every worker"},
	{"gpu-num-devices-not-a-string", "str expected, not int", TS, SMP__SEC_MISSING_XLA, "the script assigns a number to an os.environ entry (GPU_NUM_DEVICES = 4 raises TypeError)", "assign a string: os.environ[\"GPU_NUM_DEVICES\"] = \"{gpus}\", or str(args.n_gpus)"},
	{"xla-device-mismatch", "Expected all tensors to be on the same device|found at least two devices|is not an XLA tensor|expected device xla|xla:0 and cuda|cuda:0 and xla", BP, SMP__SEC_PYTORCH, "tensors on a CUDA device meet tensors on the XLA device", "put the model and every tensor on xm.xla_device() (import torch_xla.core.xla_model as xm) instead of .cuda() or torch.device(\"cuda\"); do not mix CUDA and XLA devices"},
	{"out-of-memory", "RESOURCE_EXHAUSTED|CUDA out of memory|OutOfMemoryError|OOM when allocating|Resource exhausted", BP, SMP__SEC_GENERAL, "the GPU ran out of memory", "lower the batch ({batch}) to the compiler batch AWS tested for this model and {instance} (`sm-preflight suggest` on this response gives it, with the learning rate scaled to match): the compiler changes the model's memory footprint, so a batch that fits natively may not fit compiled, and the other way round"},
	{"nan-loss", "'loss': nan|\"loss\": nan|loss: nan|loss=nan|loss = nan|loss is nan|nan loss", TS, SMP__SEC_SINGLE_GPU, "the training loss became NaN: the model stopped learning", "run the native twin with identical hyperparameters to tell hyperparameters from compiler problems: a batch size or learning rate retuned for the compiler can be too aggressive; under AMP keep the order scale and backward, reduce the gradients (distributed), unscale, clip, step, update, then xm.mark_step()"},
	{"repeated-compilation", "CompileTime too frequent|TransferFromServerTime too frequent|recompil", BP, SMP__SEC_GENERAL, "the graph is compiled again and again: input shapes change from step to step", "give every batch the same shape: padding='max_length' with a fixed max_length in the tokenizer (not 'longest'), drop_last=True in the data loader; log and evaluate less often"},
	{"mp-fn-missing", "has no attribute '_mp_fn'", TS, SMP__SEC_DISTRIBUTED, "the pytorchxla launcher found no _mp_fn(index) in the entry script", "define def _mp_fn(index): main() in the entry script; the launcher calls it once per worker"},
};
/* clang-format on */

#undef TS
#undef BP

#define NSIG (sizeof(signatures) / sizeof(signatures[0]))

size_t
smp__diag_signature_count(void)
{
	return NSIG;
}

const char *
smp__diag_signature_id(size_t i)
{
	return i < NSIG ? signatures[i].id : NULL;
}

const char *
smp__diag_signature_example(size_t i, char *buf, size_t size)
{
	const char *p, *bar;
	size_t n;

	if (i >= NSIG || !size)
		return NULL;
	p = signatures[i].patterns;
	bar = strchr(p, '|');
	n = bar ? (size_t)(bar - p) : strlen(p);
	if (n >= size)
		n = size - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return buf;
}

/* Case-insensitive search of the n bytes at needle in s[0..len). */
static const char *
find(const char *s, size_t len, const char *needle, size_t n)
{
	size_t i, j;

	for (i = 0; n && i + n <= len; i++) {
		for (j = 0; j < n; j++)
			if (tolower((unsigned char)s[i + j]) !=
			    tolower((unsigned char)needle[j]))
				break;
		if (j == n)
			return s + i;
	}
	return NULL;
}

/* 1 when one of sig's patterns is in s[0..len). */
static int
matches(const struct signature *sig, const char *s, size_t len)
{
	const char *p = sig->patterns;

	while (*p) {
		const char *bar = strchr(p, '|');
		size_t n = bar ? (size_t)(bar - p) : strlen(p);

		if (find(s, len, p, n))
			return 1;
		p += n + (bar != NULL);
	}
	return 0;
}

/* The advice with the job's numbers in. */
static const char *
advice(struct smp_diagnosis_build *b, const char *text)
{
	char out[2048], gpus[32], batch[300];
	const char *inst =
		b->pub.instance_type ? b->pub.instance_type : "instance";
	struct smp_batch_reading r;
	size_t len = 0;

	if (b->pub.gpus > 0)
		snprintf(gpus, sizeof(gpus), "%d", b->pub.gpus);
	else
		snprintf(gpus, sizeof(gpus), "N");
	if (b->instance && smp__batch_read(&r, &b->ctx->settings, &b->job,
					   b->instance->gpus) == 0)
		smp__batch_describe(batch, sizeof(batch), &r);
	else
		snprintf(batch, sizeof(batch), "the batch size");
	while (*text && len + 1 < sizeof(out)) {
		const char *sub = NULL;
		size_t skip = 0;

		if (strncmp(text, "{gpus}", 6) == 0)
			sub = gpus, skip = 6;
		else if (strncmp(text, "{instance}", 10) == 0)
			sub = inst, skip = 10;
		else if (strncmp(text, "{batch}", 7) == 0)
			sub = batch, skip = 7;
		if (sub) {
			len += (size_t)snprintf(out + len, sizeof(out) - len,
						"%s", sub);
			if (len >= sizeof(out))
				len = sizeof(out) - 1;
			text += skip;
		} else {
			out[len++] = *text++;
		}
	}
	out[len] = '\0';
	return smp__diag_str(b, out, len);
}

/* The message of a log line (see the top of the file). */
static void
message(const char **s, size_t *len)
{
	const char *f[8];
	size_t n = 0, i;
	const char *p = *s, *end = *s + *len;

	if (*len < 7 || strncmp(p, "EVENTS\t", 7) != 0)
		return;
	while (p < end && n < 8) {
		f[n++] = p;
		p = memchr(p, '\t', (size_t)(end - p));
		if (!p)
			break;
		p++;
	}
	/* get-log-events: EVENTS ts message ingest; filter-log-events:
	 * EVENTS id ingest stream message ts */
	i = n >= 6 ? 4 : n >= 4 ? 2 : 0;
	if (!i)
		return;
	p = memchr(f[i], '\t', (size_t)(end - f[i]));
	*s = f[i];
	*len = p ? (size_t)(p - f[i]) : (size_t)(end - f[i]);
}

/* Evidence: the text trimmed of blanks, at most 300 bytes. */
static const char *
evidence(struct smp_diagnosis_build *b, const char *s, size_t len)
{
	while (len && isspace((unsigned char)*s))
		s++, len--;
	while (len && isspace((unsigned char)s[len - 1]))
		len--;
	if (len > 300)
		return smp__diag_printf(b, "%.297s...", s);
	return smp__diag_str(b, s, len);
}

/* Records that sig was seen; the first sighting is kept. */
static void
seen(struct smp_diagnosis_build *b, size_t sig, const char *source,
     uint32_t line, const char *text, size_t len)
{
	struct smp_diagnosis_cause *c;
	size_t i;

	for (i = 0; i < b->pub.cause_count; i++) {
		if (strcmp(b->causes[i].id, signatures[sig].id) == 0) {
			b->causes[i].count++;
			return;
		}
	}
	if (b->pub.cause_count >= SMP__CAUSES_MAX)
		return;
	c = &b->causes[b->pub.cause_count++];
	c->id = signatures[sig].id;
	c->summary = signatures[sig].summary;
	c->page = signatures[sig].page;
	c->section = signatures[sig].section;
	c->advice = advice(b, signatures[sig].advice);
	c->source = source;
	c->line = line;
	c->evidence = evidence(b, text, len);
	c->count = 1;
}

/* Each line of text[0..len) against every signature. */
static void
scan(struct smp_diagnosis_build *b, const char *source, const char *text,
     size_t len, int is_log)
{
	const char *p = text, *end = text + len;
	uint32_t line = 0;
	size_t i;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *s = p;
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		line++;
		if (is_log)
			message(&s, &n);
		for (i = 0; i < NSIG; i++)
			if (matches(&signatures[i], s, n))
				seen(b, i, source, is_log ? line : 0, s, n);
		p = nl ? nl + 1 : end;
	}
}

int
smp__diag_causes(struct smp_diagnosis_build *b, const char *log, size_t log_len)
{
	const char *why = smp__diag_member(b->job.root, "FailureReason");

	if (why)
		scan(b, "FailureReason", why, strlen(why), 0);
	if (log)
		scan(b, b->pub.log_file, log, log_len, 1);
	return b->oom ? SMP_ENOMEM : 0;
}
