/*
 * image.c - container image URIs: registry, repository and the tag shapes
 * the AWS Deep Learning Containers use (the SageMaker Python SDK's
 * sagemaker.image_uris and the Deep Learning Containers' available_images.md):
 *
 *   1.11.0-transformers4.21.1-gpu-py38-cu113-ubuntu20.04   HF + PyTorch
 *   1.13.1-gpu-py39                                        PyTorch (SDK)
 *   1.13.1-gpu-py39-cu117-ubuntu20.04-sagemaker             PyTorch (docs)
 *   2.11.0-gpu-py39-cu112-ubuntu20.04-sagemaker             TensorFlow
 *
 * The tag is read token by token (split at '-'), so the optional parts
 * may come or go without a table of shapes.
 */
#include <string.h>

#include "job/image.h"

static int
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* "1", "1.11", "4.21.1": digits separated by single dots. */
static int
is_version(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || !is_digit(s[0]) || !is_digit(s[n - 1]))
		return 0;
	for (i = 0; i < n; i++)
		if (!is_digit(s[i]) && !(s[i] == '.' && is_digit(s[i + 1])))
			return 0;
	return 1;
}

/* prefix followed by at least one digit and nothing but digits */
static int
is_word_digits(const char *s, size_t n, const char *prefix)
{
	size_t p = strlen(prefix), i;

	if (n <= p || strncmp(s, prefix, p) != 0)
		return 0;
	for (i = p; i < n; i++)
		if (!is_digit(s[i]))
			return 0;
	return 1;
}

static int
has_prefix(const char *s, size_t n, const char *prefix)
{
	size_t p = strlen(prefix);

	return n >= p && strncmp(s, prefix, p) == 0;
}

/* 1 when s[0..n) contains word as a whole '-'-separated token. */
static int
has_token(const char *s, size_t n, const char *word)
{
	size_t w = strlen(word), i = 0;

	while (i < n) {
		size_t j = i;

		while (j < n && s[j] != '-')
			j++;
		if (j - i == w && strncmp(s + i, word, w) == 0)
			return 1;
		i = j + 1;
	}
	return 0;
}

static struct smp_span
span(size_t off, size_t len)
{
	struct smp_span sp;

	sp.off = off;
	sp.len = len;
	return sp;
}

/* <account>.dkr.ecr.<region>.amazonaws.com[.cn] */
static void
parse_host(struct smp_image_uri *im, const char *s, size_t n)
{
	const char *dkr = NULL, *p;
	size_t i;

	for (i = 0; i + 9 <= n; i++) {
		if (strncmp(s + i, ".dkr.ecr.", 9) == 0) {
			dkr = s + i;
			break;
		}
	}
	if (!dkr || dkr == s)
		return;
	im->account = span(0, (size_t)(dkr - s));
	p = dkr + 9;
	for (i = (size_t)(p - s); i < n && s[i] != '.'; i++)
		;
	if (i > (size_t)(p - s))
		im->region = span((size_t)(p - s), i - (size_t)(p - s));
}

/*
 * The framework a DLC repository holds. Only training repositories count:
 * pytorch-inference is no training image.
 */
static void
classify_repository(struct smp_image_uri *im, const char *s, size_t n)
{
	int hf = has_prefix(s, n, "huggingface-");
	int pt = has_token(s, n, "pytorch");
	int tf = has_token(s, n, "tensorflow");

	if (!has_token(s, n, "training") || pt == tf)
		return;
	/* the SDK's names, and the developer guide's names of the two
	 * transformers 4.11 images (huggingface-pytorch-training-comp) */
	im->trcomp =
		has_token(s, n, "trcomp") ||
		(n >= 14 && strncmp(s + n - 14, "-training-comp", 14) == 0);
	im->base_framework = pt ? "pytorch" : "tensorflow";
	if (hf)
		im->estimator = SMP_EST_HUGGINGFACE;
	else if (has_prefix(s, n, pt ? "pytorch-" : "tensorflow-"))
		im->estimator = pt ? SMP_EST_PYTORCH : SMP_EST_TENSORFLOW;
	else
		im->base_framework = NULL;
}

static void
parse_tag(struct smp_image_uri *im, const char *uri, size_t off, size_t n)
{
	const char *s = uri + off;
	size_t i = 0, first = 1;

	while (i < n) {
		size_t j = i, len;
		const char *t = s + i;

		while (j < n && s[j] != '-')
			j++;
		len = j - i;
		if (first && is_version(t, len))
			im->framework_version = span(off + i, len);
		else if (first)
			return; /* "latest", "v1": no versions in this tag */
		else if (has_prefix(t, len, "transformers") &&
			 is_version(t + 12, len - 12))
			im->transformers_version = span(off + i + 12, len - 12);
		else if (len == 3 && (strncmp(t, "gpu", 3) == 0 ||
				      strncmp(t, "cpu", 3) == 0)) {
			im->processor = span(off + i, len);
			im->gpu = t[0] == 'g';
		} else if (is_word_digits(t, len, "py"))
			im->py_version = span(off + i, len);
		else if (is_word_digits(t, len, "cu"))
			im->cuda = span(off + i, len);
		else if (has_prefix(t, len, "ubuntu") ||
			 has_prefix(t, len, "amzn"))
			im->os = span(off + i, len);
		first = 0;
		i = j + 1;
	}
}

int
smp__image_parse(struct smp_image_uri *out, const char *uri, size_t len)
{
	size_t slash = 0, end = len, i, repo;
	int has_slash = 0;

	memset(out, 0, sizeof(*out));
	/* a digest pins the image but names no version */
	for (i = 0; i < len; i++) {
		if (uri[i] == '@') {
			end = i;
			break;
		}
	}
	for (i = 0; i < end; i++) {
		if (uri[i] == '/') {
			if (!has_slash)
				parse_host(out, uri, i);
			has_slash = 1;
			slash = i + 1;
		}
	}
	repo = slash;
	for (i = repo; i < end; i++) {
		if (uri[i] == ':') {
			out->tag = span(i + 1, end - i - 1);
			end = i;
			break;
		}
	}
	if (end <= repo)
		return -1;
	out->repository = span(repo, end - repo);
	classify_repository(out, uri + repo, end - repo);
	if (out->tag.len)
		parse_tag(out, uri, out->tag.off, out->tag.len);
	return 0;
}
