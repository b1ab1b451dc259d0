/*
 * instance.c - the instance type and the cluster shape: is the type
 * real, does Training Compiler support it, and is the cluster laid out the
 * way the best-practice guide asks (EFA, multi-GPU instances).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rules/rules.h"
#include "util/buf.h"
#include "util/text.h"

#define MAX_TYPES 512

/* 1 when s is ml.<class>.<size> with lower-case letters, digits, '-'. */
static int
well_formed(const char *s, char *cls, size_t clssz)
{
	const char *p, *dot;
	size_t n;

	if (strncmp(s, "ml.", 3) != 0)
		return 0;
	p = s + 3;
	dot = strchr(p, '.');
	if (!dot || dot == p || strchr(dot + 1, '.') || !dot[1])
		return 0;
	for (; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		      *p == '-' || *p == '.'))
			return 0;
	n = (size_t)(dot - (s + 3));
	if (n >= clssz)
		return 0;
	memcpy(cls, s + 3, n);
	cls[n] = '\0';
	return 1;
}

static size_t
type_names(const struct smp_catalog *cat, const char **out, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < cat->instance_count && n < max; i++)
		out[n++] = cat->instances[i].type;
	return n;
}

static int
class_supported(const struct smp_catalog *cat, const char *cls)
{
	size_t i;

	for (i = 0; i < cat->supported_class_count; i++)
		if (strcmp(cat->supported_classes[i], cls) == 0)
			return 1;
	return 0;
}

/*
 * The compiler-supported instance of the catalog with the lowest score
 * (the first of equal ones); score() is negative for an instance that
 * does not qualify. NULL when none does.
 */
static const struct smp_instance *
best_instance(const struct smp_catalog *cat,
	      double (*score)(const struct smp_instance *, const void *),
	      const void *ud)
{
	const struct smp_instance *best = NULL;
	double best_score = 0;
	size_t i;

	for (i = 0; i < cat->instance_count; i++) {
		const struct smp_instance *it = &cat->instances[i];
		double sc;

		if (!it->compiler_supported)
			continue;
		sc = score(it, ud);
		if (sc >= 0 && (!best || sc < best_score)) {
			best = it;
			best_score = sc;
		}
	}
	return best;
}

struct gpus_like {
	int gpus;
	const struct smp_instance *like;
	int want_efa;
};

static double
score_gpus_like(const struct smp_instance *it, const void *ud)
{
	const struct gpus_like *q = ud;
	double score;

	if (it->gpus != q->gpus)
		return -1;
	score = q->like ? fabs(it->gpu_memory_gib - q->like->gpu_memory_gib)
			: it->gpu_memory_gib;
	if (q->want_efa && !it->efa)
		score += 1000;
	return score + it->vcpus / 1000.0;
}

/*
 * A supported instance with `gpus` GPUs, closest in GPU memory to `like`
 * (EFA preferred when want_efa), smallest first on ties; NULL when none.
 */
static const struct smp_instance *
supported_with_gpus(const struct smp_catalog *cat, int gpus,
		    const struct smp_instance *like, int want_efa)
{
	const struct gpus_like q = {gpus, like, want_efa};

	return best_instance(cat, score_gpus_like, &q);
}

static void
check_local(const struct smp_check *c, const char *type)
{
	struct smp_finding *f;

	f = smp__report_node(c->rep, SMP_RULE_LOCAL_MODE, c->job->instance_type,
			     "Training Compiler does not run in local mode "
			     "('%s')%s",
			     type,
			     strcmp(type, "local_gpu") == 0
				     ? "; the SDK lets 'local_gpu' through, "
				       "so the job fails later"
				     : "");
	smp__finding_fix(c->rep, f,
			 "use a supported GPU instance such as "
			 "'ml.p3.2xlarge' or 'ml.g5.xlarge'");
}

/* Malformed or unknown types (generic check, compiler or not). */
static int
check_known(const struct smp_check *c, const char *type, char *cls,
	    size_t clssz)
{
	const char *names[MAX_TYPES], *same[MAX_TYPES];
	size_t n = type_names(c->cat, names, MAX_TYPES);
	const char *hint;
	char fixed[128];
	struct smp_finding *f;
	size_t i, m;

	if (!well_formed(type, cls, clssz)) {
		/* "p3.2xlarge" and "ML.P3.2XLARGE" are common slips */
		snprintf(fixed, sizeof(fixed), "%s%s",
			 strncmp(type, "ml.", 3) == 0 ? "" : "ml.", type);
		for (i = 0; fixed[i]; i++)
			if (fixed[i] >= 'A' && fixed[i] <= 'Z')
				fixed[i] = (char)(fixed[i] - 'A' + 'a');
		hint = smp__catalog_instance(c->cat, fixed)
			       ? fixed
			       : smp__did_you_mean(type, names, n);
		f = smp__report_node(c->rep, SMP_RULE_INSTANCE_UNKNOWN,
				     c->job->instance_type,
				     "instance type '%s' is not of the form "
				     "'ml.<class>.<size>'%s%s%s",
				     type, hint ? "; did you mean '" : "",
				     hint ? hint : "", hint ? "'?" : "");
		if (hint) {
			smp__finding_fix(c->rep, f, "write '%s'", hint);
			smp__finding_suggest(c->rep, f, SMP_VALUE_STRING, hint);
		}
		return 0;
	}
	if (c->instance)
		return 1;
	/* a size slip keeps its class: "ml.p4d.xlarge" means a p4d, not
	 * the nearest spelling of another class (ml.g4dn.xlarge) */
	for (i = 0, m = 0; i < c->cat->instance_count && m < MAX_TYPES; i++)
		if (strcmp(c->cat->instances[i].family, cls) == 0)
			same[m++] = c->cat->instances[i].type;
	if (m) {
		hint = smp__did_you_mean(type, same, m);
		if (!hint && m == 1)
			hint = same[0];
	} else if (!class_supported(c->cat, cls)) {
		/* a class the data does not have and the compiler does not
		 * support (ml.p2.xlarge): instance-unsupported says so,
		 * with a supported alternative, rather than a guess */
		return 1;
	} else {
		hint = smp__did_you_mean(type, names, n);
	}
	f = smp__report_node(c->rep, SMP_RULE_INSTANCE_UNKNOWN,
			     c->job->instance_type,
			     "instance type '%s' is not in the instance data "
			     "(version %s of %s)%s%s%s",
			     type, c->cat->data_version, c->cat->generated,
			     hint ? "; did you mean '" : "", hint ? hint : "",
			     hint ? "'?" : "");
	smp__finding_soften(c->rep, f, SMP_RULE_INSTANCE_UNKNOWN,
			    SMP_SEVERITY_WARNING);
	if (hint) {
		smp__finding_fix(c->rep, f,
				 "write '%s', or refresh the data "
				 "with 'sm-preflight update-data' "
				 "if the type is new",
				 hint);
		smp__finding_suggest(c->rep, f, SMP_VALUE_STRING, hint);
	} else {
		smp__finding_fix(c->rep, f,
				 "refresh the data with "
				 "'sm-preflight update-data' if "
				 "the type is new");
	}
	return 1;
}

static void
check_supported(const struct smp_check *c, const char *type, const char *cls)
{
	const struct smp_instance *alt;
	char list[128];
	struct smp_buf b;
	struct smp_finding *f;
	size_t i;

	if (class_supported(c->cat, cls))
		return;
	smp__buf_init_fixed(&b, list, sizeof(list));
	for (i = 0; i < c->cat->supported_class_count; i++) {
		smp__buf_adds(&b, i ? ", " : "");
		smp__buf_adds(&b, c->cat->supported_classes[i]);
	}
	/* a type the data does not have: its GPUs are unknown, so the
	 * smallest supported single-GPU type stands in */
	alt = c->instance
		      ? supported_with_gpus(
				c->cat,
				c->instance->gpus > 0 ? c->instance->gpus : 1,
				c->instance->gpus > 0 ? c->instance : NULL,
				c->instance->efa)
		      : supported_with_gpus(c->cat, 1, NULL, 0);
	f = smp__report_node(
		c->rep, SMP_RULE_INSTANCE_UNSUPPORTED, c->job->instance_type,
		"Training Compiler does not support instance "
		"class '%s' of '%s'%s; supported classes are %s",
		cls, type,
		c->job->instance_type_default
			? " (ModelTrainer's default when 'compute' "
			  "names no instance type)"
			: "",
		list);
	if (alt) {
		smp__finding_fix(c->rep, f, "%s'%s' (%d x %s, %g GiB each)",
				 c->job->instance_type_default
					 ? "set 'compute.instance_type' to "
				 : c->instance
					 ? "use "
					 : "use a supported type such as ",
				 alt->type, alt->gpus, alt->gpu_model,
				 alt->gpu_memory_gib);
		/* ModelTrainer's default stands at no key of the spec: the
		 * value goes where the fix says, not where it is anchored */
		if (c->job->instance_type_default)
			smp__finding_suggest_at(c->rep, f,
						"/compute/instance_type",
						SMP_VALUE_STRING, alt->type);
		else
			smp__finding_suggest_node(c->rep, f,
						  c->job->instance_type,
						  SMP_VALUE_STRING, alt->type);
	}
}

static void
check_groups(const struct smp_check *c)
{
	const struct smp_node *g = c->job->instance_groups;
	const struct smp_words *w = smp__words(c->job);
	struct smp_finding *f;

	if (!g || (g->kind == SMP_NODE_SEQUENCE && g->u.sequence.count == 0) ||
	    (g->kind == SMP_NODE_SCALAR &&
	     smp__scalar_type(g) == SMP_SCALAR_NULL))
		return;
	f = smp__report_node(c->rep, SMP_RULE_INSTANCE_GROUPS,
			     smp__job_key_of(c->job, g),
			     "Training Compiler supports only homogeneous "
			     "clusters; '%s' is rejected",
			     w->instance_groups);
	smp__finding_fix(c->rep, f, "use '%s' and '%s' instead",
			 w->instance_type, w->instance_count);
}

static double
score_efa_alternative(const struct smp_instance *cand, const void *ud)
{
	const struct smp_instance *it = ud;
	int score;

	if (!cand->efa || cand->gpus < it->gpus)
		return -1;
	score = cand->gpus * 1000 + cand->vcpus;
	if (!cand->gpu_model || !it->gpu_model ||
	    strcmp(cand->gpu_model, it->gpu_model) != 0)
		score += 1000000;
	return score;
}

/*
 * The smallest supported EFA instance with at least as many GPUs, of the
 * same GPU model when there is one.
 */
static const struct smp_instance *
efa_alternative(const struct smp_catalog *cat, const struct smp_instance *it)
{
	return best_instance(cat, score_efa_alternative, it);
}

/* Several instances talk over the network: EFA (seed; R11/R16). */
static void
check_efa(const struct smp_check *c)
{
	const struct smp_instance *it = c->instance, *alt;
	struct smp_finding *f;
	const struct smp_node *at;

	if (!it || c->job->count < 2 || it->efa || it->gpus < 1)
		return;
	alt = efa_alternative(c->cat, it);
	at = c->job->instance_count ? c->job->instance_count
				    : c->job->instance_type;
	f = smp__report_node(c->rep, SMP_RULE_EFA_RECOMMENDED, at,
			     "%lld instances of '%s' train across the network "
			     "without EFA; EFA instances such as "
			     "'ml.p3dn.24xlarge' and 'ml.p4d.24xlarge' train "
			     "faster",
			     c->job->count, it->type);
	if (alt) {
		smp__finding_fix(c->rep, f, "use '%s' (%d x %s, EFA)",
				 alt->type, alt->gpus, alt->gpu_model);
		smp__finding_suggest_node(c->rep, f, c->job->instance_type,
					  SMP_VALUE_STRING, alt->type);
	}
}

/*
 * n single-GPU instances: one instance with n GPUs (or fewer instances
 * with more GPUs each) is faster (seed: 1 x p3dn.24xlarge beats
 * 8 x p3.2xlarge).
 */
static void
check_multi_gpu(const struct smp_check *c)
{
	const struct smp_instance *it = c->instance, *best = NULL;
	long long total = c->job->count;
	struct smp_finding *f;
	size_t i;

	if (!it || it->gpus != 1 || total < 2)
		return;
	for (i = 0; i < c->cat->instance_count; i++) {
		const struct smp_instance *cand = &c->cat->instances[i];

		if (!cand->compiler_supported || cand->gpus < 2 ||
		    cand->gpus > total || total % cand->gpus != 0 ||
		    strcmp(cand->gpu_model ? cand->gpu_model : "",
			   it->gpu_model ? it->gpu_model : "") != 0)
			continue;
		/* most GPUs per instance, then EFA, then more memory */
		if (!best || cand->gpus > best->gpus ||
		    (cand->gpus == best->gpus &&
		     (cand->efa > best->efa ||
		      (cand->efa == best->efa &&
		       cand->gpu_memory_gib > best->gpu_memory_gib))))
			best = cand;
	}
	if (!best)
		return;
	f = smp__report_node(c->rep, SMP_RULE_PREFER_MULTI_GPU_INSTANCE,
			     c->job->instance_count ? c->job->instance_count
						    : c->job->instance_type,
			     "%lld single-GPU '%s' instances train slower "
			     "than %lld x '%s' with the same %lld GPUs",
			     total, it->type, total / best->gpus, best->type,
			     total);
	smp__finding_fix(c->rep, f, "use %s '%s' with %s %lld",
			 smp__words(c->job)->instance_type, best->type,
			 smp__words(c->job)->instance_count,
			 total / best->gpus);
	smp__finding_suggest_node(c->rep, f, c->job->instance_type,
				  SMP_VALUE_STRING, best->type);
}

void
smp__rules_instance(const struct smp_check *c)
{
	const char *type = smp__node_text(c->job->instance_type);
	char cls[64];

	if (c->job->compiler)
		check_groups(c);
	if (!type)
		return;
	if (strcmp(type, "local") == 0 || strcmp(type, "local_gpu") == 0) {
		if (c->job->compiler)
			check_local(c, type);
		return;
	}
	if (!check_known(c, type, cls, sizeof(cls)))
		return;
	if (!c->job->compiler)
		return;
	check_supported(c, type, cls);
	/* prefer-multi-gpu-instance supersedes efa-recommended (rules.def):
	 * fewer, bigger instances first; EFA matters for what is left */
	check_multi_gpu(c);
	check_efa(c);
}
