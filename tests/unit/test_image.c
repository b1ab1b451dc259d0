/*
 * test_image.c - image URIs: every tag shape of the Deep Learning Containers
 * (as the SDK builds them and as the developer guide publishes them), the
 * repositories that hold the compiler, and URIs that name no version.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "job/image.h"

#define ECR "763104351884.dkr.ecr.us-east-1.amazonaws.com/"

struct want {
	const char *uri;
	enum smp_estimator estimator;
	const char *framework; /* base framework, or NULL */
	int trcomp;
	const char *version; /* "" when absent */
	const char *transformers;
	const char *py;
	const char *processor;
	const char *cuda;
	const char *os;
};

static const struct want cases[] = {
	/* HuggingFace + PyTorch, as the SDK builds them */
	{ECR "huggingface-pytorch-trcomp-training:1.11.0-transformers4.21.1-"
	     "gpu-py38-cu113-ubuntu20.04",
	 SMP_EST_HUGGINGFACE, "pytorch", 1, "1.11.0", "4.21.1", "py38", "gpu",
	 "cu113", "ubuntu20.04"},
	{ECR "huggingface-pytorch-trcomp-training:1.10.2-transformers4.17.0-"
	     "gpu-py38-cu113-ubuntu20.04",
	 SMP_EST_HUGGINGFACE, "pytorch", 1, "1.10.2", "4.17.0", "py38", "gpu",
	 "cu113", "ubuntu20.04"},
	{ECR "huggingface-pytorch-trcomp-training:1.9.0-transformers4.11.0-"
	     "gpu-py38-cu111-ubuntu20.04",
	 SMP_EST_HUGGINGFACE, "pytorch", 1, "1.9.0", "4.11.0", "py38", "gpu",
	 "cu111", "ubuntu20.04"},
	/* alias inputs stay in the tag */
	{ECR "huggingface-pytorch-trcomp-training:1.11-transformers4.21-gpu-"
	     "py38-cu113-ubuntu20.04",
	 SMP_EST_HUGGINGFACE, "pytorch", 1, "1.11", "4.21", "py38", "gpu",
	 "cu113", "ubuntu20.04"},
	/* HuggingFace + TensorFlow */
	{ECR "huggingface-tensorflow-trcomp-training:2.6.3-transformers4.17.0-"
	     "gpu-py38-cu112-ubuntu20.04",
	 SMP_EST_HUGGINGFACE, "tensorflow", 1, "2.6.3", "4.17.0", "py38", "gpu",
	 "cu112", "ubuntu20.04"},
	{ECR "huggingface-tensorflow-trcomp-training:2.5.1-transformers4.11.0-"
	     "gpu-py37-cu112-ubuntu18.04",
	 SMP_EST_HUGGINGFACE, "tensorflow", 1, "2.5.1", "4.11.0", "py37", "gpu",
	 "cu112", "ubuntu18.04"},
	/* the developer guide's names of the 4.11 repositories */
	{ECR "huggingface-pytorch-training-comp:1.9.0-transformers4.11.0-gpu-"
	     "py38-cu111-ubuntu20.04",
	 SMP_EST_HUGGINGFACE, "pytorch", 1, "1.9.0", "4.11.0", "py38", "gpu",
	 "cu111", "ubuntu20.04"},
	/* PyTorch: the SDK's short tags, the guide's long ones */
	{ECR "pytorch-trcomp-training:1.12.0-gpu-py38", SMP_EST_PYTORCH,
	 "pytorch", 1, "1.12.0", "", "py38", "gpu", "", ""},
	{ECR "pytorch-trcomp-training:1.13.1-gpu-py39", SMP_EST_PYTORCH,
	 "pytorch", 1, "1.13.1", "", "py39", "gpu", "", ""},
	{ECR "pytorch-trcomp-training:1.13-gpu-py39", SMP_EST_PYTORCH,
	 "pytorch", 1, "1.13", "", "py39", "gpu", "", ""},
	{ECR "pytorch-trcomp-training:1.12.0-gpu-py38-cu113-ubuntu20.04-"
	     "sagemaker",
	 SMP_EST_PYTORCH, "pytorch", 1, "1.12.0", "", "py38", "gpu", "cu113",
	 "ubuntu20.04"},
	{ECR "pytorch-trcomp-training:1.13.1-gpu-py39-cu117-ubuntu20.04-"
	     "sagemaker",
	 SMP_EST_PYTORCH, "pytorch", 1, "1.13.1", "", "py39", "gpu", "cu117",
	 "ubuntu20.04"},
	/* TensorFlow: the compiler is inside the plain GPU image */
	{ECR "tensorflow-training:2.9.2-gpu-py39", SMP_EST_TENSORFLOW,
	 "tensorflow", 0, "2.9.2", "", "py39", "gpu", "", ""},
	{ECR "tensorflow-training:2.10.1-gpu-py39", SMP_EST_TENSORFLOW,
	 "tensorflow", 0, "2.10.1", "", "py39", "gpu", "", ""},
	{ECR "tensorflow-training:2.11.0-gpu-py39", SMP_EST_TENSORFLOW,
	 "tensorflow", 0, "2.11.0", "", "py39", "gpu", "", ""},
	{ECR "tensorflow-training:2.9.1-gpu-py39-cu112-ubuntu20.04-sagemaker",
	 SMP_EST_TENSORFLOW, "tensorflow", 0, "2.9.1", "", "py39", "gpu",
	 "cu112", "ubuntu20.04"},
	{ECR "tensorflow-training:2.10.0-gpu-py39-cu112-ubuntu20.04-sagemaker",
	 SMP_EST_TENSORFLOW, "tensorflow", 0, "2.10.0", "", "py39", "gpu",
	 "cu112", "ubuntu20.04"},
	{ECR "tensorflow-training:2.11.0-gpu-py39-cu112-ubuntu20.04-sagemaker",
	 SMP_EST_TENSORFLOW, "tensorflow", 0, "2.11.0", "", "py39", "gpu",
	 "cu112", "ubuntu20.04"},
	/* the CPU image has no compiler */
	{ECR "tensorflow-training:2.11.0-cpu-py39", SMP_EST_TENSORFLOW,
	 "tensorflow", 0, "2.11.0", "", "py39", "cpu", "", ""},
	/* plain framework images: known class, no compiler */
	{ECR "pytorch-training:1.13.1-gpu-py39-cu117-ubuntu20.04-sagemaker",
	 SMP_EST_PYTORCH, "pytorch", 0, "1.13.1", "", "py39", "gpu", "cu117",
	 "ubuntu20.04"},
	{ECR "huggingface-pytorch-training:1.13.1-transformers4.26.0-gpu-py39-"
	     "cu117-ubuntu20.04",
	 SMP_EST_HUGGINGFACE, "pytorch", 0, "1.13.1", "4.26.0", "py39", "gpu",
	 "cu117", "ubuntu20.04"},
	/* not training images, or not AWS's */
	{ECR "pytorch-inference:1.13.1-gpu-py39", SMP_EST_UNKNOWN, NULL, 0,
	 "1.13.1", "", "py39", "gpu", "", ""},
	{"123456789012.dkr.ecr.eu-west-1.amazonaws.com/team/my-trainer:v3",
	 SMP_EST_UNKNOWN, NULL, 0, "", "", "", "", "", ""},
	{"pytorch/pytorch:1.13.1-cuda11.6-cudnn8-runtime", SMP_EST_UNKNOWN,
	 NULL, 0, "1.13.1", "", "", "", "", ""},
	/* tags without versions, digests, no tag at all */
	{ECR "pytorch-trcomp-training:latest", SMP_EST_PYTORCH, "pytorch", 1,
	 "", "", "", "", "", ""},
	{ECR "pytorch-trcomp-training@sha256:0123456789abcdef", SMP_EST_PYTORCH,
	 "pytorch", 1, "", "", "", "", "", ""},
	{"pytorch-trcomp-training", SMP_EST_PYTORCH, "pytorch", 1, "", "", "",
	 "", "", ""},
	/* a registry with a port is no tag */
	{"localhost:5000/tensorflow-training:2.10.1-gpu-py39",
	 SMP_EST_TENSORFLOW, "tensorflow", 0, "2.10.1", "", "py39", "gpu", "",
	 ""},
};

static void
assert_span(const char *uri, const struct smp_span *sp, const char *want,
	    const char *what)
{
	cr_assert_eq(sp->len, strlen(want), "%s of %s: length %zu, want '%s'",
		     what, uri, sp->len, want);
	cr_assert(strncmp(uri + sp->off, want, sp->len) == 0,
		  "%s of %s: '%.*s', want '%s'", what, uri, (int)sp->len,
		  uri + sp->off, want);
}

Test(image, reads_every_tag_shape)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct want *w = &cases[i];
		struct smp_image_uri im;

		cr_assert_eq(smp__image_parse(&im, w->uri, strlen(w->uri)), 0,
			     "%s", w->uri);
		cr_assert_eq(im.estimator, w->estimator, "class of %s", w->uri);
		if (w->framework)
			cr_assert_str_eq(im.base_framework, w->framework, "%s",
					 w->uri);
		else
			cr_assert_null(im.base_framework, "%s", w->uri);
		cr_assert_eq(im.trcomp, w->trcomp, "trcomp %s", w->uri);
		assert_span(w->uri, &im.framework_version, w->version,
			    "version");
		assert_span(w->uri, &im.transformers_version, w->transformers,
			    "transformers");
		assert_span(w->uri, &im.py_version, w->py, "python");
		assert_span(w->uri, &im.processor, w->processor, "processor");
		assert_span(w->uri, &im.cuda, w->cuda, "cuda");
		assert_span(w->uri, &im.os, w->os, "os");
	}
}

Test(image, splits_registry_repository_and_tag)
{
	const char *uri = "626614931356.dkr.ecr.af-south-1.amazonaws.com/"
			  "pytorch-trcomp-training:1.13.1-gpu-py39";
	struct smp_image_uri im;

	cr_assert_eq(smp__image_parse(&im, uri, strlen(uri)), 0);
	assert_span(uri, &im.account, "626614931356", "account");
	assert_span(uri, &im.region, "af-south-1", "region");
	assert_span(uri, &im.repository, "pytorch-trcomp-training",
		    "repository");
	assert_span(uri, &im.tag, "1.13.1-gpu-py39", "tag");
}

Test(image, china_registry)
{
	const char *uri = "727897471807.dkr.ecr.cn-north-1.amazonaws.com.cn/"
			  "tensorflow-training:2.11.0-gpu-py39";
	struct smp_image_uri im;

	cr_assert_eq(smp__image_parse(&im, uri, strlen(uri)), 0);
	assert_span(uri, &im.region, "cn-north-1", "region");
	cr_assert_eq(im.estimator, SMP_EST_TENSORFLOW);
}

Test(image, rejects_uris_without_a_repository)
{
	static const char *const bad[] = {"", "registry.example.com/",
					  ":1.13.1-gpu-py39", "@sha256:00"};
	struct smp_image_uri im;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_assert_eq(smp__image_parse(&im, bad[i], strlen(bad[i])), -1,
			     "'%s'", bad[i]);
}

Test(image, reads_only_len_bytes)
{
	/* the buffer goes on past len: nothing after it may count */
	const char *uri = "pytorch-trcomp-training:1.13.1-gpu-py39-cu117";
	struct smp_image_uri im;

	cr_assert_eq(smp__image_parse(&im, uri, strlen(uri) - 6), 0);
	assert_span(uri, &im.py_version, "py39", "python");
	cr_assert_eq(im.cuda.len, 0);
}

Test(image, versions_must_be_dotted_digits)
{
	static const char *const odd[] = {
		"pytorch-trcomp-training:1..13-gpu-py39",
		"pytorch-trcomp-training:1.13.-gpu-py39",
		"pytorch-trcomp-training:.13-gpu-py39",
		"pytorch-trcomp-training:v1.13-gpu-py39",
	};
	struct smp_image_uri im;
	size_t i;

	for (i = 0; i < sizeof(odd) / sizeof(odd[0]); i++) {
		cr_assert_eq(smp__image_parse(&im, odd[i], strlen(odd[i])), 0);
		cr_assert_eq(im.framework_version.len, 0, "%s", odd[i]);
		cr_assert_eq(im.py_version.len, 0, "%s: no versions at all",
			     odd[i]);
	}
}
