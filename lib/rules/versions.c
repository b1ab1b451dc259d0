/*
 * versions.c - framework, transformers and Python versions: is
 * there a Training Compiler container for them (the SDK resolves the image
 * at fit(), minutes after the job was written)?
 */
#include <stdio.h>
#include <string.h>

#include "rules/rules.h"
#include "util/buf.h"

static int
transformers_match(const struct smp_image *im, const char *tv)
{
	return smp__image_transformers_is(im, tv);
}

static int
framework_match(const struct smp_image *im, const char *fw, const char *fv)
{
	return fw && strcmp(im->framework, fw) == 0 &&
	       smp__image_framework_is(im, fv);
}

/* Appends s to a ", "-separated list unless already there. */
static void
list_add(struct smp_buf *b, const char *s)
{
	const char *list = smp__buf_str(b), *p = list;

	while ((p = strstr(p, s)) != NULL) {
		size_t n = strlen(s);

		if ((p == list || p[-1] == ' ') && (p[n] == ',' || !p[n]))
			return;
		p += n;
	}
	smp__buf_adds(b, b->len ? ", " : "");
	smp__buf_adds(b, s);
}

/* The spelling of canonical (or of one of its aliases) with parts parts,
 * so that a fix keeps the shape the SDK requires of the pair; canonical
 * when none has that shape. */
static const char *
shaped(const char *canonical, const char *const *aliases, size_t n, int parts)
{
	struct smp_version v;
	size_t i;

	if (smp__version_parse(&v, canonical) == 0 && v.count == parts)
		return canonical;
	for (i = 0; i < n; i++)
		if (smp__version_parse(&v, aliases[i]) == 0 && v.count == parts)
			return aliases[i];
	return canonical;
}

static const char *
framework_title(const char *fw)
{
	return strcmp(fw, "tensorflow") == 0 ? "TensorFlow" : "PyTorch";
}

/* The number of parts of a version as written (0 when unparsable). */
static int
parts_of(const char *s)
{
	struct smp_version v;

	return s && smp__version_parse(&v, s) == 0 ? v.count : 0;
}

/* The Hugging Face container of transformers version tv for the base
 * framework fw, or NULL. */
static const struct smp_image *
hf_image_for(const struct smp_catalog *cat, const char *fw, const char *tv)
{
	size_t i;

	for (i = 0; fw && tv && i < cat->image_count; i++) {
		const struct smp_image *im = &cat->images[i];

		if (strcmp(im->estimator, "huggingface") == 0 &&
		    strcmp(im->framework, fw) == 0 &&
		    transformers_match(im, tv))
			return im;
	}
	return NULL;
}

/* "use '1.11.0'" for one choice, "use one of 1.12.0, 1.13.1" for more. */
static void
fix_choices(struct smp_report *rep, struct smp_finding *f, const char *list)
{
	if (!list[0])
		return;
	if (strchr(list, ','))
		smp__finding_fix(rep, f, "use one of %s", list);
	else
		smp__finding_fix(rep, f, "use '%s'", list);
}

static void
report_missing(const struct smp_check *c, const char *what, const char *example)
{
	struct smp_finding *f;

	f = smp__report_node(c->rep, SMP_RULE_FRAMEWORK_VERSION_MISSING,
			     smp__job_anchor(c->job),
			     "%s; the SDK cannot pick a Training Compiler "
			     "container without it",
			     what);
	smp__finding_fix(c->rep, f, "add %s", example);
}

/* R26, R28: the versions the SDK needs to find the image. */
static int
check_missing(const struct smp_check *c)
{
	const struct smp_node *root = c->job->root;
	int missing = 0;

	switch (c->job->estimator) {
	case SMP_EST_HUGGINGFACE: {
		int pt = smp__map_get(root, "pytorch_version") != NULL;
		int tf = smp__map_get(root, "tensorflow_version") != NULL;

		if (!smp__map_get(root, "transformers_version")) {
			report_missing(c, "'transformers_version' is missing",
				       "'transformers_version: \"4.21.1\"'");
			missing = 1;
		}
		if (!pt && !tf) {
			report_missing(c,
				       "neither 'pytorch_version' nor "
				       "'tensorflow_version' is set",
				       "'pytorch_version: \"1.11.0\"'");
			missing = 1;
		} else if (pt && tf) {
			struct smp_finding *f = smp__report_node(
				c->rep, SMP_RULE_FRAMEWORK_VERSION_MISSING,
				smp__map_get(root, "tensorflow_version"),
				"'pytorch_version' and 'tensorflow_version' "
				"are both set; a HuggingFace estimator takes "
				"exactly one");
			smp__finding_fix(c->rep, f, "remove one of them");
			missing = 1;
		}
		break;
	}
	case SMP_EST_PYTORCH:
	case SMP_EST_TENSORFLOW:
		if (!smp__map_get(root, "framework_version")) {
			report_missing(
				c, "'framework_version' is missing",
				c->job->estimator == SMP_EST_PYTORCH
					? "'framework_version: \"1.13.1\"'"
					: "'framework_version: \"2.11.0\"'");
			missing = 1;
		}
		break;
	default: {
		struct smp_finding *f = smp__report_node(
			c->rep, SMP_RULE_FRAMEWORK_VERSION_MISSING,
			smp__job_anchor(c->job),
			"the estimator class is unknown and no framework "
			"version shows it");
		smp__finding_fix(c->rep, f,
				 "add 'estimator: HuggingFace', "
				 "'PyTorch' or 'TensorFlow'");
		return 1;
	}
	}
	if (!smp__map_get(root, "py_version")) {
		report_missing(
			c, "'py_version' is missing",
			"the container's Python, e.g. 'py_version: py38'");
		missing = 1;
	}
	return missing;
}

/* R27: '4.21' goes with '1.11', '4.21.1' with '1.11.0'. */
static int
check_shape(const struct smp_check *c)
{
	const struct smp_job *job = c->job;
	const struct smp_image *im;
	const char *want;
	struct smp_version t, b;
	struct smp_finding *f;

	if (job->estimator != SMP_EST_HUGGINGFACE ||
	    !job->transformers_version || !job->framework_version)
		return 0;
	if (smp__version_parse(&t, smp__node_text(job->transformers_version)) ||
	    smp__version_parse(&b, smp__node_text(job->framework_version)) ||
	    t.count == b.count)
		return 0;
	f = smp__report_node(
		c->rep, SMP_RULE_VERSION_SHAPE, job->framework_version,
		"'%s' has %d parts but transformers_version "
		"'%s' has %d; the SDK requires the same shape",
		smp__node_text(job->framework_version), b.count,
		smp__node_text(job->transformers_version), t.count);
	/* name the value to write: the partner of the transformers version
	 * in its shape, so that the fix leads to a container */
	im = hf_image_for(c->cat, job->base_framework,
			  smp__node_text(job->transformers_version));
	if (im) {
		want = shaped(im->framework_version, im->framework_aliases,
			      im->framework_alias_count, t.count);
		smp__finding_fix(
			c->rep, f, "set '%s' to \"%s\"",
			smp__job_key_of(c->job, job->framework_version)
				? smp__node_text(smp__job_key_of(
					  c->job, job->framework_version))
				: "the framework version",
			want);
		smp__finding_suggest(c->rep, f, SMP_VALUE_STRING, want);
	} else {
		smp__finding_fix(c->rep, f, "write both with %d parts",
				 t.count);
	}
	return 1;
}

/* R8, R19, R24: resolves the image entry; NULL when none (reported). */
static const struct smp_image *
resolve_image(const struct smp_check *c)
{
	const struct smp_job *job = c->job;
	const struct smp_catalog *cat = c->cat;
	const char *est = smp__estimator_key(job->estimator);
	const char *tv = smp__node_text(job->transformers_version);
	const char *fv = smp__node_text(job->framework_version);
	const struct smp_image *hit;
	char list[256];
	struct smp_buf lb;
	int tv_known = 0;
	struct smp_finding *f;
	size_t i;

	if (!est || !fv)
		return NULL;
	smp__buf_init_fixed(&lb, list, sizeof(list));
	for (i = 0; i < cat->image_count; i++) {
		const struct smp_image *im = &cat->images[i];

		if (strcmp(im->estimator, est) != 0)
			continue;
		if (job->estimator == SMP_EST_HUGGINGFACE) {
			if (!tv)
				return NULL;
			if (!transformers_match(im, tv))
				continue;
			tv_known = 1;
		}
		if (framework_match(im, job->base_framework, fv))
			return im;
	}
	if (job->estimator == SMP_EST_HUGGINGFACE && !tv_known) {
		for (i = 0; i < cat->image_count; i++)
			if (strcmp(cat->images[i].estimator, est) == 0)
				list_add(&lb,
					 cat->images[i].transformers_version);
		f = smp__report_node(c->rep, SMP_RULE_FRAMEWORK_VERSION,
				     job->transformers_version,
				     "transformers '%s' has no Training "
				     "Compiler container; supported versions "
				     "are %s",
				     tv, list);
		/* the framework version names its partner */
		for (i = 0; i < cat->image_count; i++) {
			const struct smp_image *im = &cat->images[i];
			const char *want;

			if (strcmp(im->estimator, est) != 0 ||
			    !framework_match(im, job->base_framework, fv))
				continue;
			want = shaped(im->transformers_version,
				      im->transformers_aliases,
				      im->transformers_alias_count,
				      parts_of(fv));
			smp__finding_fix(c->rep, f,
					 "use '%s' (%s %s goes with "
					 "transformers %s)",
					 want, framework_title(im->framework),
					 im->framework_version,
					 im->transformers_version);
			smp__finding_suggest(c->rep, f, SMP_VALUE_STRING, want);
			return NULL;
		}
		fix_choices(c->rep, f, list);
		return NULL;
	}
	for (i = 0; i < cat->image_count; i++) {
		const struct smp_image *im = &cat->images[i];

		if (strcmp(im->estimator, est) == 0 &&
		    strcmp(im->framework, job->base_framework) == 0 &&
		    (!tv || transformers_match(im, tv)))
			list_add(&lb, im->framework_version);
	}
	if (tv)
		f = smp__report_node(
			c->rep, SMP_RULE_FRAMEWORK_VERSION,
			job->framework_version,
			"%s '%s' is not the base of any Training Compiler "
			"container for transformers %s%s",
			strcmp(job->base_framework, "pytorch") == 0
				? "PyTorch"
				: "TensorFlow",
			fv, tv,
			list[0] ? ""
				: "; that transformers version has no "
				  "container for this framework");
	if (tv && (hit = hf_image_for(cat, job->base_framework, tv)) != NULL) {
		const char *want =
			shaped(hit->framework_version, hit->framework_aliases,
			       hit->framework_alias_count, parts_of(tv));

		smp__finding_fix(c->rep, f,
				 "use '%s' (transformers %s goes "
				 "with %s %s)",
				 want, hit->transformers_version,
				 framework_title(hit->framework),
				 hit->framework_version);
		smp__finding_suggest(c->rep, f, SMP_VALUE_STRING, want);
		return NULL;
	}
	if (!tv)
		f = smp__report_node(c->rep, SMP_RULE_FRAMEWORK_VERSION,
				     job->framework_version,
				     "%s '%s' has no Training Compiler "
				     "container",
				     job->estimator == SMP_EST_PYTORCH
					     ? "PyTorch"
					     : "TensorFlow",
				     fv);
	fix_choices(c->rep, f, list);
	return NULL;
}

/* R25: the container has exactly the Python versions it was built with. */
static void
check_python(const struct smp_check *c, const struct smp_image *im)
{
	const char *py = smp__node_text(c->job->py_version);
	char list[64];
	struct smp_buf lb;
	struct smp_finding *f;
	size_t i;

	if (!py)
		return;
	smp__buf_init_fixed(&lb, list, sizeof(list));
	for (i = 0; i < im->py_version_count; i++) {
		if (strcmp(py, im->py_versions[i]) == 0)
			return;
		list_add(&lb, im->py_versions[i]);
	}
	f = smp__report_node(c->rep, SMP_RULE_PY_VERSION, c->job->py_version,
			     "py_version '%s' does not match the Training "
			     "Compiler container for %s %s, which has %s",
			     py, im->framework, im->framework_version, list);
	smp__finding_fix(c->rep, f, "%s%s%s", smp__words(c->job)->py_fix_prefix,
			 im->py_versions[0], smp__words(c->job)->py_fix_suffix);
	if (im->py_version_count)
		smp__finding_suggest(c->rep, f, SMP_VALUE_STRING,
				     im->py_versions[0]);
}

/* 1 when n is a version read from the given image's tag, not an
 * argument of the spec. */
static int
in_image(const struct smp_job *job, const struct smp_node *n)
{
	return n && job->image && n->start.offset >= job->image->start.offset &&
	       n->start.offset <= job->image->end.offset;
}

void
smp__rules_versions(const struct smp_check *c)
{
	const struct smp_image *im;

	/* image_uri with compiler_config: image-uri-override speaks */
	if (!c->job->compiler || (c->job->compiler_sdk && c->job->image &&
				  c->job->estimator != SMP_EST_TENSORFLOW))
		return;
	/* a given image names the versions in its tag (every dialect):
	 * dialect_specific.c checks that the tag shows them */
	if (c->job->dialect == SMP_DIALECT_ESTIMATOR && !c->job->image &&
	    check_missing(c) && c->job->estimator == SMP_EST_UNKNOWN)
		return;
	/* an estimator's image_uri is used as is (Framework.
	 * training_image_uri returns it): its version arguments choose no
	 * container, and HuggingFace._validate_args returns before the
	 * shape check when image_uri is given; versions only the image's
	 * tag names are the image's own, and judged. Only TensorFlow's
	 * TrainingCompilerConfig.validate still judges framework_version
	 * (2.9 to 2.11), and only with compiler_config. */
	if (c->job->dialect == SMP_DIALECT_ESTIMATOR && c->job->image &&
	    !c->job->compiler_sdk &&
	    (!in_image(c->job, c->job->framework_version) ||
	     (c->job->transformers_version &&
	      !in_image(c->job, c->job->transformers_version))))
		return;
	if (check_shape(c))
		return;
	im = resolve_image(c);
	if (im)
		check_python(c, im);
}
