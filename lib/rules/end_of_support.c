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
#include "job/image.h"
#include "tune/tune.h"
#include "util/fmt.h"

#define DLC_POLICY                                                             \
	"https://docs.aws.amazon.com/deep-learning-containers/latest/"         \
	"devguide/support-policy.html"

/* The framework's name as its documentation spells it. */
static const char *
framework_name(const char *framework)
{
	return strcmp(framework, "tensorflow") == 0 ? "TensorFlow" : "PyTorch";
}

/*
 * What the job's containers get: " ('huggingface-pytorch-trcomp-training'
 * for PyTorch 1.11.0) no more patches or updates", or with the policy's
 * end of patch of the version (instance data, end_of_patch) " (...) got
 * their last patch on 2024-10-28, the end of patch of PyTorch 1.13". A
 * given image is named by its own repository and tag, which is what is
 * pulled (the SDK uses image_uri as is, whatever framework_version says);
 * a version with no Training Compiler container is named by none.
 */
static void
containers_words(char *out, size_t size, const struct smp_check *c)
{
	const struct smp_image *im = smp__tune_job_image(c->cat, c->job);
	const struct smp_node *given = c->job->image;
	const char *repo, *framework, *v, *dot, *eop;
	int repo_len, v_len, minor;
	struct smp_image_uri u;

	if (!im || !im->repository) {
		smp__fmt(out, size, " no more patches or updates");
		return;
	}
	repo = im->repository;
	repo_len = (int)strlen(repo);
	framework = im->framework;
	v = im->framework_version;
	v_len = (int)strlen(v);
	eop = im->end_of_patch;
	if (given &&
	    smp__image_parse(&u, given->u.scalar.value, given->u.scalar.len) ==
		    0 &&
	    u.repository.len && u.framework_version.len && u.base_framework) {
		repo = given->u.scalar.value + u.repository.off;
		repo_len = (int)u.repository.len;
		framework = u.base_framework;
		/* the date is the catalog image's: only for its own version */
		if (u.framework_version.len != (size_t)v_len ||
		    memcmp(given->u.scalar.value + u.framework_version.off, v,
			   (size_t)v_len) != 0)
			eop = NULL;
		v = given->u.scalar.value + u.framework_version.off;
		v_len = (int)u.framework_version.len;
	}
	if (!eop) {
		smp__fmt(out, size,
			 " ('%.*s' for %s %.*s) no more patches or updates",
			 repo_len, repo, framework_name(framework), v_len, v);
		return;
	}
	/* "1.13.1": the policy lists major.minor */
	dot = memchr(v, '.', (size_t)v_len);
	dot = dot ? memchr(dot + 1, '.', (size_t)(v + v_len - dot - 1)) : NULL;
	minor = dot ? (int)(dot - v) : v_len;
	smp__fmt(out, size,
		 " ('%.*s' for %s %.*s) got their last patch on %s, the end of "
		 "patch of %s %.*s",
		 repo_len, repo, framework_name(framework), v_len, v, eop,
		 framework_name(framework), minor, v);
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
