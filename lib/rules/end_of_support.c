/*
 * end_of_support.c - compiler-end-of-support: every page of the Training
 * Compiler guide opens with it. AWS makes no new releases or versions of
 * SageMaker Training Compiler; its Deep Learning Containers stay usable
 * but get no more patches or updates (AWS Deep Learning Containers
 * Framework Support Policy); and the SageMaker Python SDK v3 removed
 * TrainingCompilerConfig (its migration guide). Said once per file
 * (rules.def O()): it is true of every compiler job alike.
 */
#include <string.h>

#include "rules/rules.h"
#include "job/image.h"
#include "tune/tune.h"
#include "util/fmt.h"

#define DLC_POLICY                                                             \
	"https://docs.aws.amazon.com/deep-learning-containers/latest/"         \
	"devguide/support-policy.html"

/* "('huggingface-pytorch-trcomp-training' for PyTorch 1.11.0) ": a given
 * image is named by its own repository and tag, which is what is pulled
 * (the SDK uses image_uri as is, whatever framework_version says); a
 * version with no Training Compiler container is named by none */
static void
image_words(char *out, size_t size, const struct smp_check *c)
{
	const struct smp_image *im = smp__tune_job_image(c->cat, c->job);
	const struct smp_node *given = c->job->image;
	struct smp_image_uri u;

	if (im && im->repository && given &&
	    smp__image_parse(&u, given->u.scalar.value, given->u.scalar.len) ==
		    0 &&
	    u.repository.len && u.framework_version.len && u.base_framework)
		smp__fmt(out, size, " ('%.*s' for %s %.*s)",
			 (int)u.repository.len,
			 given->u.scalar.value + u.repository.off,
			 strcmp(u.base_framework, "tensorflow") == 0
				 ? "TensorFlow"
				 : "PyTorch",
			 (int)u.framework_version.len,
			 given->u.scalar.value + u.framework_version.off);
	else if (im && im->repository)
		smp__fmt(out, size, " ('%s' for %s %s)", im->repository,
			 strcmp(im->framework, "tensorflow") == 0 ? "TensorFlow"
								  : "PyTorch",
			 im->framework_version);
	else
		out[0] = '\0';
}

void
smp__rules_end_of_support(const struct smp_check *c)
{
	const struct smp_job *job = c->job;
	const struct smp_node *at =
		job->compiler_flag ? job->compiler_flag : smp__job_anchor(job);
	struct smp_finding *f;
	char img[160];

	if (!job->compiler)
		return;
	image_words(img, sizeof(img), c);
	f = smp__report_node(
		c->rep, SMP_RULE_COMPILER_END_OF_SUPPORT, at,
		"SageMaker Training Compiler gets no new releases, and its "
		"containers%s no more patches or updates (AWS Deep Learning "
		"Containers Framework Support Policy, " DLC_POLICY
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
