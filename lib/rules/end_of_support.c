/*
 * end_of_support.c - compiler-end-of-support: every page of the Training
 * Compiler guide opens with it. AWS makes no new releases or versions of
 * SageMaker Training Compiler; its Deep Learning Containers stay usable
 * but get no more patches or updates (AWS Deep Learning Containers
 * Framework Support Policy); and the SageMaker Python SDK v3 removed
 * TrainingCompilerConfig (its migration guide). Said once per file
 * (rules.def O()) and once per run of many files (R(): the CLI keeps the
 * first in output order): it is true of every compiler job alike.
 */
#include <string.h>

#include "rules/rules.h"
#include "tune/tune.h"
#include "util/fmt.h"

#define DLC_POLICY                                                             \
	"https://docs.aws.amazon.com/deep-learning-containers/latest/"         \
	"devguide/support-policy.html"

/* The framework's name as its documentation spells it. */
static const char *
framework_name(const struct smp_image *im)
{
	return strcmp(im->framework, "tensorflow") == 0 ? "TensorFlow"
							: "PyTorch";
}

/*
 * What the job's containers get: " ('huggingface-pytorch-trcomp-training'
 * for PyTorch 1.11.0) no more patches or updates", or with the policy's
 * end of patch of the version (instance data, end_of_patch) " (...) got
 * their last patch on 2024-10-28, the end of patch of PyTorch 1.13".
 */
static void
containers_words(char *out, size_t size, const struct smp_check *c)
{
	const struct smp_image *im = smp__tune_job_image(c->cat, c->job);
	const char *v, *dot;
	int minor;

	if (!im || !im->repository) {
		smp__fmt(out, size, " no more patches or updates");
		return;
	}
	if (!im->end_of_patch) {
		smp__fmt(out, size,
			 " ('%s' for %s %s) no more patches or updates",
			 im->repository, framework_name(im),
			 im->framework_version);
		return;
	}
	/* "1.13.1": the policy lists major.minor */
	v = im->framework_version;
	dot = strchr(v, '.');
	dot = dot ? strchr(dot + 1, '.') : NULL;
	minor = dot ? (int)(dot - v) : (int)strlen(v);
	smp__fmt(out, size,
		 " ('%s' for %s %s) got their last patch on %s, the end of "
		 "patch of %s %.*s",
		 im->repository, framework_name(im), v, im->end_of_patch,
		 framework_name(im), minor, v);
}

void
smp__rules_end_of_support(const struct smp_check *c)
{
	const struct smp_job *job = c->job;
	const struct smp_node *at =
		job->compiler_flag ? job->compiler_flag : smp__job_anchor(job);
	struct smp_finding *f;
	char img[256];

	if (!job->compiler)
		return;
	containers_words(img, sizeof(img), c);
	f = smp__report_node(
		c->rep, SMP_RULE_COMPILER_END_OF_SUPPORT, at,
		"SageMaker Training Compiler gets no new releases, and its "
		"containers%s (AWS Deep Learning Containers Framework Support "
		"Policy, " DLC_POLICY
		"); the SageMaker Python SDK v3 has no Training Compiler",
		img);
	if (smp__job_is_tensorflow(job))
		smp__finding_fix(c->rep, f,
				 "to keep getting patches, train on a "
				 "TensorFlow training container the policy "
				 "still supports, without the compiler, and "
				 "turn on XLA in the script "
				 "(tf.function(jit_compile=True))");
	else
		smp__finding_fix(c->rep, f,
				 "to keep getting patches, train on a PyTorch "
				 "training container the policy still supports "
				 "(PyTorch 2.x), without the compiler, and "
				 "compile with torch.compile (the Hugging Face "
				 "Trainer: TrainingArguments(torch_compile="
				 "True))");
}
