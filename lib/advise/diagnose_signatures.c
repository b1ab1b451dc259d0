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
 * text, cut into lines and searched by diagnose_log.c.
 *
 * Besides the guide's own failures, the rows hold what public failure
 * reports show: the training toolkit's crash that hides the script's
 * error, and host memory exhausted by data-loader workers.
 * diagnose_refine.c then fits a row's text to what the job already has.
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

enum {
	SIG_MISSING_XLA,
	SIG_NOT_A_STRING,
	SIG_DEVICE_MISMATCH,
	SIG_OOM,
	SIG_NAN,
	SIG_RECOMPILE,
	SIG_MP_FN,
	SIG_TOOLKIT,
	SIG_HOST_OOM
};

#define TOOLKIT_PR "https://github.com/aws/sagemaker-training-toolkit/pull/172"

/* clang-format off */
static const struct signature signatures[] = {
	[SIG_MISSING_XLA] = {"missing-xla-configuration", "Missing XLA configuration", TS, SMP__SEC_MISSING_XLA, "PyTorch/XLA found no device configuration: GPU_NUM_DEVICES is not set to the instance's GPU count", "set GPU_NUM_DEVICES to \"{gpus}\" (the GPUs of one {instance}) in one of three ways: the estimator's environment={\"GPU_NUM_DEVICES\": \"{gpus}\"}; a hyperparameter n_gpus that the script copies into os.environ[\"GPU_NUM_DEVICES\"]; or os.environ[\"GPU_NUM_DEVICES\"] = \"{gpus}\" in the script, as a string. The pytorchxla distribution sets it for every worker"},
	{"gpu-num-devices-not-a-string", "str expected, not int", TS, SMP__SEC_MISSING_XLA, "the script assigns a number to an os.environ entry (GPU_NUM_DEVICES = 4 raises TypeError)", "assign a string: os.environ[\"GPU_NUM_DEVICES\"] = \"{gpus}\", or str(args.n_gpus)"},
	{"xla-device-mismatch", "Expected all tensors to be on the same device|found at least two devices|is not an XLA tensor|expected device xla|xla:0 and cuda|cuda:0 and xla", BP, SMP__SEC_PYTORCH, "tensors on a CUDA device meet tensors on the XLA device", "put the model and every tensor on xm.xla_device() (import torch_xla.core.xla_model as xm) instead of .cuda() or torch.device(\"cuda\"); do not mix CUDA and XLA devices"},
	{"out-of-memory", "RESOURCE_EXHAUSTED|CUDA out of memory|OutOfMemoryError|OOM when allocating|Resource exhausted", BP, SMP__SEC_GENERAL, "the GPU ran out of memory", "go down from the batch that failed ({batch}), never up: try three quarters of it and scale the learning rate by the same factor (the compiler changes the model's memory footprint, so a batch that fits natively may not fit compiled, and the other way round)"},
	{"nan-loss", "'loss': nan|\"loss\": nan|loss: nan|loss=nan|loss = nan|loss is nan|nan loss", TS, SMP__SEC_SINGLE_GPU, "the training loss became NaN: the model stopped learning", "run the native twin with identical hyperparameters to tell hyperparameters from compiler problems: a batch size or learning rate retuned for the compiler can be too aggressive; under AMP keep the order scale and backward, reduce the gradients (distributed), unscale, clip, step, update, then xm.mark_step()"},
	{"repeated-compilation", "CompileTime too frequent|TransferFromServerTime too frequent|recompil", BP, SMP__SEC_GENERAL, "the graph is compiled again and again: input shapes change from step to step", "give every batch the same shape: padding='max_length' with a fixed max_length in the tokenizer (not 'longest'), drop_last=True in the data loader; log and evaluate less often"},
	{"mp-fn-missing", "has no attribute '_mp_fn'", TS, SMP__SEC_DISTRIBUTED, "the pytorchxla launcher found no _mp_fn(index) in the entry script", "define def _mp_fn(index): main() in the entry script; the launcher calls it once per worker"},
	{"training-toolkit-crash", "SMTrainingCompilerConfigurationError() takes no keyword arguments", TOOLKIT_PR, "fix: SMTrainingCompilerConfigurationError takes no keyword argument", "the SageMaker training toolkit crashed while it reported the script's failure: this TypeError hides the script's real error, and names Training Compiler even in jobs that do not use it", "The TypeError itself is the toolkit's: sagemaker-training releases of early 2023 raise SMTrainingCompilerConfigurationError with keyword arguments it does not take whenever the script fails (aws/sagemaker-training-toolkit, process.py check_error); it says nothing about the compiler"},
	{"host-out-of-memory", "killed by signal: Killed|ExitCode 137|exit code: 137|exit status 137|Out of memory: Killed process|oom-kill|OOM Killed|Cannot allocate memory", BP, SMP__SEC_PYTORCH, "the instance ran out of host memory: the kernel killed a process (signal 9, exit code 137)", "lower dataloader_num_workers and preprocessing_num_workers well below the {instance}'s vCPUs (each worker holds its own copy of the data, and the compiler needs host memory of its own), or take an instance with more memory"},
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

/* Where a sighting was: "FailureReason" or "job.log:12". */
static const char *
where(struct smp_diagnosis_build *b, const char *source, uint32_t line)
{
	return line ? smp__diag_printf(b, "%s:%u", source, line) : source;
}

/* The toolkit's crash: the advice names the real error above it. */
static const char *
hidden_error_advice(struct smp_diagnosis_build *b,
		    const struct smp__diag_sighting *at)
{
	if (at->above)
		return smp__diag_printf(
			b,
			"the script's real error is above it, at %s: %s; fix "
			"that one. %s",
			where(b, at->source, at->above_line),
			evidence(b, at->above, at->above_len),
			signatures[SIG_TOOLKIT].advice);
	if (at->line)
		return smp__diag_printf(
			b,
			"the script's real error is in the log above line %u, "
			"before the toolkit's own traceback; fix that one. %s",
			at->line, signatures[SIG_TOOLKIT].advice);
	return smp__diag_printf(
		b,
		"the script's real error is not in FailureReason: it is in "
		"the job's log, above the toolkit's traceback (pass the log "
		"with --log FILE to have it found). %s",
		signatures[SIG_TOOLKIT].advice);
}

void
smp__diag_seen(struct smp_diagnosis_build *b, size_t sig,
	       const struct smp__diag_sighting *at)
{
	struct smp_diagnosis_cause *c;
	size_t i;

	if (sig >= NSIG)
		return;
	for (i = 0; i < b->pub.cause_count; i++) {
		if (strcmp(b->causes[i].id, signatures[sig].id) != 0)
			continue;
		c = &b->causes[i];
		c->count++;
		if (at->above && !b->cause_above[i]) {
			/* the log shows what FailureReason could not: the
			 * real error above the crash */
			b->cause_above[i] = 1;
			c->advice = hidden_error_advice(b, at);
			c->source = at->source;
			c->line = at->line;
			c->evidence = evidence(b, at->text, at->len);
		}
		return;
	}
	if (b->pub.cause_count >= SMP__CAUSES_MAX)
		return;
	b->cause_above[b->pub.cause_count] = at->above != NULL;
	c = &b->causes[b->pub.cause_count++];
	c->id = signatures[sig].id;
	c->summary = signatures[sig].summary;
	c->page = signatures[sig].page;
	c->section = signatures[sig].section;
	c->advice = sig == SIG_TOOLKIT ? hidden_error_advice(b, at)
				       : advice(b, signatures[sig].advice);
	c->source = at->source;
	c->line = at->line;
	c->evidence = evidence(b, at->text, at->len);
	c->count = 1;
}

const char *
smp__diag_signature_patterns(size_t i)
{
	return i < NSIG ? signatures[i].patterns : NULL;
}

int
smp__diag_signature_needs_above(size_t i)
{
	return i == SIG_TOOLKIT;
}
