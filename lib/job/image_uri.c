/*
 * image_uri.c - image_uris.retrieve() for training images, over the SDK's
 * tables in the catalog (see image_uri.h). Each step names the SDK
 * function it follows (src/sagemaker/image_uris.py unless said otherwise);
 * the tables themselves are never re-typed here.
 */
#include <stdio.h>
#include <string.h>

#include "job/image_uri.h"
#include "job/job.h"

#define NO_ROW ((size_t)-1)

static int
streq(const char *a, const char *b)
{
	return a && b && strcmp(a, b) == 0;
}

static int
in_list(const char *s, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; s && i < n; i++)
		if (strcmp(s, list[i]) == 0)
			return 1;
	return 0;
}

static int
is_lower_digit_dash(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
}

static int
is_word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/*
 * utils.get_instance_type_family(): r"^ml[\._]([a-z\d\-]+)\.?\w*$". The
 * greedy group is the only way the pattern can match (what follows it
 * starts with '.' or a character outside the group), so no backtracking.
 */
size_t
smp__instance_family(char *out, size_t outsz, const char *type)
{
	const char *p, *start;
	size_t n;

	if (outsz)
		out[0] = '\0';
	if (!type || strncmp(type, "ml", 2) != 0 ||
	    (type[2] != '.' && type[2] != '_'))
		return 0;
	start = p = type + 3;
	while (is_lower_digit_dash(*p))
		p++;
	n = (size_t)(p - start);
	if (!n)
		return 0;
	if (*p == '.')
		p++;
	while (is_word(*p))
		p++;
	if (*p || n >= outsz)
		return 0;
	memcpy(out, start, n);
	out[n] = '\0';
	return n;
}

/* The rows retrieve() reads: the *-training-compiler table when a
 * compiler config is given for Hugging Face or PyTorch, else the
 * framework's own training scope. */
static int
row_in_scope(const struct smp_image_config *c, const char *framework,
	     int compiler)
{
	return streq(c->framework, framework) && c->compiler == compiler;
}

/* _validate_version_and_set_if_needed() + _version_for_config(): the
 * first row of the table version that version names (exactly, or through
 * the scope's version_aliases), or NO_ROW. A scope with a single version
 * gives that one whatever was asked, as the SDK does. */
static size_t
find_version(const struct smp_catalog *cat, const char *framework, int compiler,
	     const char *version)
{
	const char *sole = NULL;
	size_t i, first = NO_ROW, sole_row = NO_ROW;
	int several = 0;

	for (i = 0; i < cat->image_config_count; i++) {
		const struct smp_image_config *c = &cat->image_configs[i];

		if (!row_in_scope(c, framework, compiler))
			continue;
		if (!sole) {
			sole = c->version;
			sole_row = i;
		} else if (!streq(sole, c->version)) {
			several = 1;
		}
		if (first == NO_ROW && (streq(version, c->version) ||
					in_list(version, c->version_aliases,
						c->version_alias_count)))
			first = i;
	}
	/* "if len(available_versions) == 1 and version not in
	 * aliased_versions: return available_versions[0]" */
	if (sole && !several && first == NO_ROW)
		return sole_row;
	return version ? first : NO_ROW;
}

/* The rows of one table version and (Hugging Face) base framework key:
 * several only when the SDK keys the version by Python version. */
static int
same_entry(const struct smp_image_config *a, const struct smp_image_config *b)
{
	return streq(a->framework, b->framework) &&
	       a->compiler == b->compiler && streq(a->version, b->version) &&
	       (a->base_framework ? streq(a->base_framework, b->base_framework)
				  : !b->base_framework);
}

/* Hugging Face: version_config["version_aliases"].get(base, base) must be
 * a key of the version ("pytorch1.11" -> "pytorch1.11.0"). */
static size_t
find_base(const struct smp_catalog *cat, size_t vrow, const char *base)
{
	const struct smp_image_config *v = &cat->image_configs[vrow];
	size_t i;

	for (i = vrow; i < cat->image_config_count; i++) {
		const struct smp_image_config *c = &cat->image_configs[i];

		if (!streq(c->framework, v->framework) ||
		    c->compiler != v->compiler ||
		    !streq(c->version, v->version))
			continue;
		if (streq(base, c->base_framework) ||
		    in_list(base, c->base_framework_aliases,
			    c->base_framework_alias_count))
			return i;
	}
	return NO_ROW;
}

/* _validate_py_version_and_set_if_needed(): the row for py_version (the
 * entry's own row unless keyed by Python version), the Python version
 * the tag names in *py, or NO_ROW when the SDK refuses it. */
static size_t
pick_python(const struct smp_catalog *cat, size_t erow, const char *want,
	    const char **py)
{
	const struct smp_image_config *e = &cat->image_configs[erow];
	size_t i, n = 0, only = NO_ROW;

	*py = NULL;
	if (!e->py_keyed) {
		if (!e->py_version_count)
			return erow; /* "Ignoring unnecessary Python version" */
		if (!want && e->py_version_count == 1) {
			*py = e->py_versions[0];
			return erow;
		}
		if (!in_list(want, e->py_versions, e->py_version_count))
			return NO_ROW;
		*py = want;
		return erow;
	}
	/* keyed: each row holds one Python version of the entry */
	for (i = erow; i < cat->image_config_count; i++) {
		const struct smp_image_config *c = &cat->image_configs[i];

		if (!same_entry(c, e) || !c->py_version_count)
			continue;
		n++;
		only = i;
		if (want && streq(want, c->py_versions[0])) {
			*py = c->py_versions[0];
			return i;
		}
	}
	if (!want && n == 1) {
		*py = cat->image_configs[only].py_versions[0];
		return only;
	}
	return NO_ROW;
}

/* _processor(): the processor the instance type needs, checked against
 * the processors the table offers; NULL when the SDK refuses it. */
static const char *
pick_processor(const struct smp_image_config *c, const char *type,
	       const char *family)
{
	const char *p;
	size_t i;

	if (c->processor_count == 1 && !type)
		return c->processors[0];
	if (!type)
		return NULL; /* "Empty SageMaker instance type" */
	if (strncmp(type, "local", 5) == 0)
		p = strcmp(type, "local") == 0 ? "cpu" : "gpu";
	else if (strncmp(type, "neuron", 6) == 0)
		p = "neuron";
	else if (!family[0])
		return NULL; /* "Invalid SageMaker instance type" */
	else if (in_list(family, c->processors, c->processor_count))
		p = family;
	else if (strncmp(family, "inf", 3) == 0)
		p = "inf";
	else if (strncmp(family, "trn", 3) == 0)
		p = "trn";
	else if (family[0] == 'g' || family[0] == 'p')
		p = "gpu";
	else
		p = "cpu";
	for (i = 0; i < c->processor_count; i++)
		if (strcmp(p, c->processors[i]) == 0)
			return c->processors[i]; /* the catalog's copy */
	return NULL;
}

/* _registry_from_region() and the botocore ECR host name. */
static int
pick_registry(struct smp_image_result *out, const struct smp_catalog *cat,
	      const struct smp_image_config *c, const char *region)
{
	size_t i;

	out->account = NULL;
	for (i = 0; i < cat->image_registry_count; i++) {
		const struct smp_image_registry *r = &cat->image_registries[i];

		if (streq(r->set, c->registries) && streq(r->region, region)) {
			out->account = r->account;
			break;
		}
	}
	if (!out->account)
		return SMP_IMAGE_REGION;
	for (i = 0; i < cat->ecr_hostname_count; i++)
		if (streq(cat->ecr_hostnames[i].region, region)) {
			out->hostname = cat->ecr_hostnames[i].hostname;
			return SMP_IMAGE_OK;
		}
	return SMP_IMAGE_HOSTNAME;
}

/* _validate_instance_deprecation(): ml.p2 has no PyTorch >= 1.13 or
 * TensorFlow >= 2.12 images (packaging.version comparison of the
 * version as given). */
static int
p2_deprecated(const char *framework, const char *family, const char *version)
{
	struct smp_version v, min;

	if (strcmp(family, "p2") != 0 || smp__version_parse(&v, version))
		return 0;
	if (streq(framework, "pytorch"))
		smp__version_parse(&min, "1.13");
	else if (streq(framework, "tensorflow"))
		smp__version_parse(&min, "2.12");
	else
		return 0;
	return smp__version_cmp(&v, &min) >= 0;
}

/* The routes retrieve() takes outside these tables (non-compiler path):
 * Neuron images for Hugging Face and PyTorch on inf/trn families
 * (_get_inference_tool), the inference_graviton scope or refusal on
 * Graviton families, the Trainium check for other frameworks. */
static int
other_route(const struct smp_catalog *cat, const char *framework,
	    const char *type, const char *family)
{
	if ((streq(framework, "huggingface") || streq(framework, "pytorch")) &&
	    (strncmp(family, "inf", 3) == 0 || strncmp(family, "trn", 3) == 0))
		return 1;
	if (type && strstr(type, "trn"))
		return 1;
	return in_list(family, cat->graviton_families,
		       cat->graviton_family_count);
}

/* Appends "-part" (or "part" first) to the tag, as _format_tag() joins
 * the non-empty parts. */
static void
tag_part(char *tag, size_t size, const char *part)
{
	size_t n = strlen(tag);

	if (!part || !*part || n + 1 >= size)
		return;
	snprintf(tag + n, size - n, "%s%s", n ? "-" : "", part);
}

/* _get_image_tag(): on ml.p4d or with smdistributed, the suffix table
 * keyed by "<framework>-<tag>". */
static const char *
tag_suffix(const struct smp_catalog *cat, const char *framework,
	   const char *tag)
{
	size_t i, n = strlen(framework);

	for (i = 0; i < cat->image_tag_suffix_count; i++) {
		const char *k = cat->image_tag_suffixes[i].tag;

		if (strncmp(k, framework, n) == 0 && k[n] == '-' &&
		    strcmp(k + n + 1, tag) == 0)
			return cat->image_tag_suffixes[i].suffix;
	}
	return NULL;
}

static int
finish(struct smp_image_result *out, int status)
{
	out->status = (enum smp_image_status)status;
	if (status != SMP_IMAGE_OK)
		out->uri[0] = '\0';
	return 0;
}

int
smp__image_uri_derive(struct smp_image_result *out,
		      const struct smp_catalog *cat,
		      const struct smp_image_request *rq)
{
	const struct smp_image_config *c;
	char family[32], base[64], tag[160];
	const char *container = NULL, *suffix;
	size_t vrow, row;
	int hf, compiler, rc, n;

	if (!out || !cat || !rq)
		return SMP_EINVAL;
	memset(out, 0, sizeof(*out));
	hf = streq(rq->framework, "huggingface");
	if ((!hf && !streq(rq->framework, "pytorch") &&
	     !streq(rq->framework, "tensorflow")) ||
	    !rq->region)
		return finish(out, SMP_IMAGE_BAD_REQUEST);
	smp__instance_family(family, sizeof(family), rq->instance_type);
	/* retrieve(): "if training_compiler_config and (framework in
	 * [HUGGING_FACE_FRAMEWORK, 'pytorch'])" */
	compiler = rq->compiler && !streq(rq->framework, "tensorflow");
	if (!compiler &&
	    other_route(cat, rq->framework, rq->instance_type, family))
		return finish(out, SMP_IMAGE_UNSUPPORTED);
	vrow = find_version(cat, rq->framework, compiler, rq->version);
	if (vrow == NO_ROW)
		return finish(out, SMP_IMAGE_VERSION);
	out->config = &cat->image_configs[vrow];
	row = vrow;
	if (hf) {
		/* get_training_image_uri(): f"pytorch{pytorch_version}" */
		n = snprintf(base, sizeof(base), "%s%s",
			     rq->base_framework ? rq->base_framework : "",
			     rq->base_version ? rq->base_version : "");
		if (!rq->base_framework || !rq->base_version || n < 0 ||
		    (size_t)n >= sizeof(base))
			return finish(out, SMP_IMAGE_BASE_FRAMEWORK);
		row = find_base(cat, vrow, base);
		if (row == NO_ROW)
			return finish(out, SMP_IMAGE_BASE_FRAMEWORK);
		out->config = &cat->image_configs[row];
		/* get_training_image_uri() checks the instance type against
		 * cpu/gpu before anything else for Hugging Face */
		if (!rq->instance_type ||
		    (!family[0] && strncmp(rq->instance_type, "local", 5) != 0))
			return finish(out, SMP_IMAGE_PROCESSOR);
	}
	row = pick_python(cat, row, rq->py_version, &out->py_version);
	if (row == NO_ROW)
		return finish(out, SMP_IMAGE_PY_VERSION);
	c = out->config = &cat->image_configs[row];
	rc = pick_registry(out, cat, c, rq->region);
	if (rc != SMP_IMAGE_OK)
		return finish(out, rc);
	out->processor = pick_processor(c, rq->instance_type, family);
	if (!out->processor)
		return finish(out, SMP_IMAGE_PROCESSOR);
	/* "if version_config.get('container_version'): container_version =
	 * version_config['container_version'][processor]"; else Hugging
	 * Face's native GPU default from get_training_image_uri() */
	if (c->container_version_cpu || c->container_version_gpu) {
		container = streq(out->processor, "gpu")
				    ? c->container_version_gpu
			    : streq(out->processor, "cpu")
				    ? c->container_version_cpu
				    : NULL;
		if (!container)
			return finish(out, SMP_IMAGE_UNSUPPORTED);
	} else if (hf && !rq->compiler && streq(out->processor, "gpu")) {
		container = "cu110-ubuntu18.04";
	}
	if (p2_deprecated(rq->framework, family, rq->version))
		return finish(out, SMP_IMAGE_INSTANCE_DEPRECATED);
	/* the tag prefix: the versions as the spec spells them (the SDK
	 * keeps the alias it was given) */
	tag[0] = '\0';
	if (hf) {
		n = snprintf(tag, sizeof(tag), "%s-transformers%s",
			     rq->base_version, rq->version);
	} else {
		n = snprintf(tag, sizeof(tag), "%s", rq->version);
	}
	if (n < 0 || (size_t)n >= sizeof(tag))
		return finish(out, SMP_IMAGE_TOO_LONG);
	tag_part(tag, sizeof(tag), out->processor);
	tag_part(tag, sizeof(tag), out->py_version);
	tag_part(tag, sizeof(tag), container);
	if (rq->instance_type &&
	    (strcmp(family, "p4d") == 0 || rq->smdistributed)) {
		suffix = tag_suffix(cat, rq->framework, tag);
		tag_part(tag, sizeof(tag), suffix);
	}
	n = snprintf(out->uri, sizeof(out->uri), "%s.dkr.%s/%s:%s",
		     out->account, out->hostname, c->repository, tag);
	if (n < 0 || (size_t)n >= sizeof(out->uri))
		return finish(out, SMP_IMAGE_TOO_LONG);
	return finish(out, SMP_IMAGE_OK);
}
