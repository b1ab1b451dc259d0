/*
 * test_dialect_twins.c - the promise of the effective job on the golden
 * cases: every estimator case that can be written in another dialect is
 * rewritten, from its own effective job, as the CreateTrainingJob request
 * estimator.fit() would send (the image the SDK picks, the hyperparameters
 * the container receives with the SDK's sagemaker_* ones, the Debugger and
 * Profiler the SDK attaches), as ModelTrainer fields and as the training
 * job definition of a CreateHyperParameterTuningJob request, and the four
 * must give the same rules at corresponding places.
 *
 * A case has no twin when what it tests is the estimator's spelling
 * (schema findings, missing or unknown versions the SDK would refuse,
 * entry_point), when it has instance groups, or when the SDK would derive
 * no image. Rules only one dialect can have are left out of the
 * comparison, each with its reason below.
 */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smpreflight.h"
#include "context/context.h"
#include "doc/load.h"
#include "job/effective.h"
#include "job/image.h"
#include "job/image_uri.h"
#include "job/normalize.h"
#include "job/dialect.h"
#include "helpers.h"

/* Findings that say the estimator spec itself is not writable as
 * another dialect (its spelling is the point of the case). */
static const char *const untransferable[] = {
	"syntax",
	"duplicate-key",
	"input-limit",
	"unknown-key",
	"wrong-type",
	"value-not-string",
	"api-limits",
	"dialect-unknown",
	"distribution-unknown-key",
	"entry-point-missing",
	"framework-version-missing",
	"framework-version",
	"version-shape",
	"py-version",
	"instance-groups",
	"image-uri-override",
	"pytorchxla-without-compiler",
	"no-training-job",
	"local-mode",
	"distribution-incompatible",
};

/*
 * Rules compared in no twin: the reason each is dialect-specific.
 * compiler-unchecked: an estimator's image_uri bypasses the SDK's
 * checks; a request has no SDK to bypass. model-trainer-compiler:
 * ModelTrainer only. compiler-not-enabled: its fix and anchor differ, the
 * fact is compared through every compiler rule. script-missing: the
 * cases run without scripts. distribution-incompatible and
 * pytorchxla-version: the estimator's distribution mapping has no
 * request spelling but the one pytorchxla switch. suppression-*: inline
 * comments belong to the file, not to the job.
 */
static const char *const skipped[] = {
	"compiler-unchecked",        "model-trainer-compiler",
	"compiler-not-enabled",      "script-missing",
	"distribution-incompatible", "pytorchxla-version",
	"pytorchxla-tensorflow",     "suppression-invalid",
	"suppression-unused",
};

static int
in(const char *const *list, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strcmp(list[i], s) == 0)
			return 1;
	return 0;
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* A growable text buffer for the twins. */
struct out {
	char *s;
	size_t len, cap;
};

static void put(struct out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void
put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(o->s + o->len, o->cap - o->len, fmt, ap);
		va_end(ap);
		cr_assert_geq(n, 0);
		if (o->len + (size_t)n < o->cap)
			break;
		o->cap = (o->cap + (size_t)n) * 2 + 64;
		o->s = realloc(o->s, o->cap);
		cr_assert_not_null(o->s);
	}
	o->len += (size_t)n;
}

/* A JSON string of text[0..len). */
static void
put_str(struct out *o, const char *text, size_t len)
{
	size_t i;

	put(o, "\"");
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		if (c == '"' || c == '\\')
			put(o, "\\%c", c);
		else if (c < 0x20)
			put(o, "\\u%04x", c);
		else
			put(o, "%c", c);
	}
	put(o, "\"");
}

/* A scalar as the container receives it: a string. 0 when n is none. */
static int
put_value(struct out *o, const struct smp_node *n)
{
	int b = smp__scalar_bool(n);

	if (!n || n->kind != SMP_NODE_SCALAR ||
	    smp__scalar_type(n) == SMP_SCALAR_NULL)
		return 0;
	if (b >= 0)
		put(o, "\"%s\"", b ? "true" : "false");
	else
		put_str(o, n->u.scalar.value, n->u.scalar.len);
	return 1;
}

/* The hyperparameters the container receives, as a JSON object. */
static int
put_hyperparameters(struct out *o, const struct smp_job *job)
{
	const struct smp_node *hp = job->hyperparameters;
	size_t i, k, n = 0;

	put(o, "{");
	for (i = 0; i < job->nadded; i++) {
		put(o, "%s\"%s\": ", n++ ? ", " : "", job->added[i].name);
		if (!put_value(o, job->added[i].value))
			return 0;
	}
	for (i = 0; hp && i < hp->u.mapping.count; i++) {
		const struct smp_pair *p = &hp->u.mapping.items[i];
		int sdk = 0;

		if (p->key->kind != SMP_NODE_SCALAR)
			return 0;
		for (k = 0; k < job->nadded; k++)
			if (strcmp(job->added[k].name,
				   p->key->u.scalar.value) == 0)
				sdk = 1;
		if (sdk)
			continue; /* the SDK's value wins (dict.update) */
		put(o, "%s", n++ ? ", " : "");
		put_str(o, p->key->u.scalar.value, p->key->u.scalar.len);
		put(o, ": ");
		if (!put_value(o, p->value))
			return 0;
	}
	put(o, "}");
	return 1;
}

/* The environment; 0 when a value is no string (the case is about it). */
static int
put_environment(struct out *o, const struct smp_job *job)
{
	const struct smp_node *env = job->environment;
	size_t i;

	put(o, "{");
	for (i = 0; env && i < env->u.mapping.count; i++) {
		const struct smp_pair *p = &env->u.mapping.items[i];

		if (!smp__as_string(p->value) ||
		    p->key->kind != SMP_NODE_SCALAR)
			return 0;
		put(o, "%s", i ? ", " : "");
		put_str(o, p->key->u.scalar.value, p->key->u.scalar.len);
		put(o, ": ");
		put_str(o, p->value->u.scalar.value, p->value->u.scalar.len);
	}
	put(o, "}");
	return 1;
}

/* The image estimator.fit() would run (the effective job's, in the
 * region the caller set): given, or what the SDK derives. */
static int
image_of(const struct smp_job *job, char *out, size_t size)
{
	struct smp_image_uri im;

	if (!job->pulled_image)
		return 0;
	/* a custom image: what it holds is not known in a request */
	if (job->image && (smp__image_parse(&im, job->image->u.scalar.value,
					    job->image->u.scalar.len) ||
			   im.estimator == SMP_EST_UNKNOWN))
		return 0;
	snprintf(out, size, "%s", job->pulled_image);
	return 1;
}

/* The members a request and a tuning job's definition share, from the
 * image on; hp: the hyperparameters' member name. */
static int
put_training(struct out *o, const struct smp_job *job, const char *image,
	     const char *hp)
{
	const struct smp_node *role =
		smp__as_string(smp__map_get(job->root, "role"));

	/* the estimator's role, whose partition may tell the region */
	put(o, " \"RoleArn\": ");
	if (role)
		put_str(o, role->u.scalar.value, role->u.scalar.len);
	else
		put(o, "\"arn:aws:iam::111122223333:role/twin\"");
	put(o, ",\n \"AlgorithmSpecification\": {\"TrainingImage\": ");
	put_str(o, image, strlen(image));
	put(o, ", \"TrainingInputMode\": \"File\"},\n"
	       " \"ResourceConfig\": {");
	if (job->instance_type)
		put(o, "\"InstanceType\": \"%s\", ",
		    smp__node_text(job->instance_type));
	put(o, "\"InstanceCount\": %lld, \"VolumeSizeInGB\": 30},\n",
	    job->count);
	put(o, " \"%s\": ", hp);
	if (!put_hyperparameters(o, job))
		return 0;
	put(o, ",\n \"Environment\": ");
	return put_environment(o, job);
}

/* The request estimator.fit() sends; 0 when the job has no such twin. */
static int
api_twin(struct out *o, const struct smp_job *job, const char *image)
{
	put(o, "{\"TrainingJobName\": \"twin\",\n");
	if (!put_training(o, job, image, "HyperParameters"))
		return 0;
	if (job->debugger)
		put(o, ",\n \"DebugHookConfig\": {\"S3OutputPath\": "
		       "\"s3://bucket/debug\"}");
	put(o, ",\n \"ProfilerConfig\": {%s}\n}\n",
	    job->profiler ? "\"S3OutputPath\": \"s3://bucket/profile\""
			  : "\"DisableProfiler\": true");
	return 1;
}

/*
 * The same request as the one definition of a tuning job (a Debugger hook
 * and Profiler have no member there) whose one tuned hyperparameter the
 * job does not read: what the tuning job launches is the request.
 */
static int
tuning_twin(struct out *o, const struct smp_job *job, const char *image)
{
	put(o, "{\"HyperParameterTuningJobName\": \"twin\",\n"
	       " \"HyperParameterTuningJobConfig\": {\"Strategy\": "
	       "\"Random\", \"ResourceLimits\": {\"MaxNumberOfTrainingJobs\": "
	       "2, \"MaxParallelTrainingJobs\": 1}, \"ParameterRanges\": "
	       "{\"ContinuousParameterRanges\": [{\"Name\": \"twin_unused\", "
	       "\"MinValue\": \"0.1\", \"MaxValue\": \"0.2\"}]}},\n"
	       " \"TrainingJobDefinition\": {\"DefinitionName\": \"twin\",\n");
	if (!put_training(o, job, image, "StaticHyperParameters"))
		return 0;
	put(o, "\n}}\n");
	return 1;
}

/* The same job as ModelTrainer fields (JSON, which is YAML too). */
static int
model_trainer_twin(struct out *o, const struct smp_job *job, const char *image)
{
	const struct smp_node *role =
		smp__as_string(smp__map_get(job->root, "role"));

	put(o, "{\"training_image\": ");
	put_str(o, image, strlen(image));
	if (role) {
		put(o, ",\n \"role\": ");
		put_str(o, role->u.scalar.value, role->u.scalar.len);
	}
	put(o, ",\n \"source_code\": {\"entry_script\": \"train.py\"},\n"
	       " \"compute\": {");
	if (job->instance_type)
		put(o, "\"instance_type\": \"%s\", ",
		    smp__node_text(job->instance_type));
	put(o,
	    "\"instance_count\": %lld},\n \"hyperparameters\": ", job->count);
	if (!put_hyperparameters(o, job))
		return 0;
	put(o, ",\n \"environment\": ");
	if (!put_environment(o, job))
		return 0;
	put(o, "\n}\n");
	return 1;
}

/* Where a finding is, in words every dialect shares. */
static const char *
place_of(const char *pointer)
{
	static const struct {
		const char *prefix, *place;
	} map[] = {
		/* what the estimator spells as settings and the request as
		 * the hyperparameters the SDK makes of them */
		{"/compiler_config", "compiler"},
		{"/hyperparameters/sagemaker_training_compiler_", "compiler"},
		{"/HyperParameters/sagemaker_training_compiler_", "compiler"},
		{"/hyperparameters/sagemaker_training_compiler_", "compiler"},
		{"/distribution", "distribution"},
		{"/HyperParameters/sagemaker_pytorch_xla_", "distribution"},
		{"/hyperparameters/sagemaker_pytorch_xla_", "distribution"},
		{"/hyperparameters/", "hp:"},
		{"/HyperParameters/", "hp:"},
		{"/environment/", "env:"},
		{"/Environment/", "env:"},
		{"/instance_type", "instance-type"},
		{"/ResourceConfig/InstanceType", "instance-type"},
		{"/compute/instance_type", "instance-type"},
		{"/instance_count", "instance-count"},
		{"/ResourceConfig/InstanceCount", "instance-count"},
		{"/compute/instance_count", "instance-count"},
	};
	static char buf[300];
	size_t i, n;

	for (i = 0; pointer && i < COUNT(map); i++) {
		n = strlen(map[i].prefix);
		if (strncmp(pointer, map[i].prefix, n) != 0)
			continue;
		if (map[i].place[strlen(map[i].place) - 1] != ':')
			return map[i].place;
		snprintf(buf, sizeof(buf), "%s%s", map[i].place, pointer + n);
		return buf;
	}
	return "*";
}

static int
cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "rule@place" of every compared finding, sorted, joined by newlines. */
static void
summary(const struct smp_report *rep, int debugger_too, char *out, size_t size)
{
	char *lines[128];
	size_t i, n = 0, used = 0;

	for (i = 0; i < smp_report_count(rep) && n < COUNT(lines); i++) {
		const struct smp_finding *f = smp_report_get(rep, i);

		if (in(skipped, COUNT(skipped), f->rule) ||
		    (!debugger_too &&
		     strcmp(f->rule, "debugger-profiler-overhead") == 0))
			continue;
		lines[n] = malloc(400);
		cr_assert_not_null(lines[n]);
		/* a default Debugger hook has no node in an estimator spec:
		 * the finding sits on the compiler there, on DebugHookConfig
		 * in the request; the end-of-support notice sits on the
		 * compiler flag the estimator's SDK adds (no node) */
		snprintf(lines[n], 400, "%s@%s", f->rule,
			 strcmp(f->rule, "debugger-profiler-overhead") == 0 ||
					 strcmp(f->rule,
						"compiler-end-of-support") == 0
				 ? "*"
				 : place_of(f->pointer));
		n++;
	}
	qsort(lines, n, sizeof(lines[0]), cmp_line);
	out[0] = '\0';
	for (i = 0; i < n; i++) {
		used += (size_t)snprintf(out + used, size - used, "%s\n",
					 lines[i]);
		free(lines[i]);
		if (used >= size)
			break;
	}
}

static int
transferable(const struct smp_report *rep)
{
	size_t i;

	for (i = 0; i < smp_report_count(rep); i++) {
		const struct smp_finding *f = smp_report_get(rep, i);

		if (in(untransferable, COUNT(untransferable), f->rule))
			return 0;
		/* at a misspelt key ('torchxla'): its spelling is the point
		 * of the case, as for distribution-unknown-key */
		if (strcmp(f->rule, "pytorchxla-version") == 0 && f->pointer &&
		    strncmp(f->pointer, "/distribution/", 14) == 0 &&
		    strncmp(f->pointer, "/distribution/pytorchxla", 24) != 0)
			return 0;
	}
	return 1;
}

/*
 * The twins of one case file: 1 when it has them (and they agree, which
 * is asserted), 0 when it has none.
 */
static int
twin_case(const struct smp_context *ctx, const char *path, size_t *mt_agree)
{
	struct smp_docs docs;
	struct smp_limits lim;
	struct smp_job job;
	const struct smp_node *role;
	struct smp_report *rep[4];
	struct out api = {NULL, 0, 0}, mt = {NULL, 0, 0}, tu = {NULL, 0, 0};
	static char sum[4][8192];
	char image[512];
	size_t len = 0;
	char *buf = th_read_file(path, &len);
	int ok = 0;

	cr_assert_not_null(buf, "%s", path);
	smp__limits_resolve(&lim, NULL);
	smp__docs_init(&docs, &ctx->alloc);
	if (smp__load(&docs, path, buf, len, &lim) || docs.count != 1 ||
	    docs.ndiags || !docs.items[0].root ||
	    docs.items[0].root->kind != SMP_NODE_MAPPING ||
	    smp__detect_dialect(docs.items[0].root) != SMP_DIALECT_ESTIMATOR)
		goto done;
	memset(&job, 0, sizeof(job));
	job.dialect = SMP_DIALECT_ESTIMATOR;
	job.arena = &docs.arena;
	smp__normalize_estimator(&job, docs.items[0].root);
	job.region_default = "us-east-1";
	smp__job_resolve(&job, &ctx->catalog);
	/* a role of another partition says where the job runs; a twin's
	 * image would name us-east-1 instead */
	role = smp__as_string(smp__map_get(job.root, "role"));
	if (role && strncmp(role->u.scalar.value, "arn:aws:", 8) != 0)
		goto done;
	if (job.oom || job.estimator == SMP_EST_UNKNOWN ||
	    job.instance_groups || !image_of(&job, image, sizeof(image)))
		goto done;
	rep[0] = th_check_named(ctx, path, buf);
	if (!transferable(rep[0]) || !api_twin(&api, &job, image) ||
	    !model_trainer_twin(&mt, &job, image) ||
	    !tuning_twin(&tu, &job, image)) {
		smp_report_free(rep[0]);
		goto done;
	}
	rep[1] = th_check_named(ctx, "twin.json", api.s);
	rep[2] = th_check_named(ctx, "twin-mt.json", mt.s);
	summary(rep[0], 1, sum[0], sizeof(sum[0]));
	summary(rep[1], 1, sum[1], sizeof(sum[1]));
	cr_expect_str_eq(sum[1], sum[0],
			 "%s: the CreateTrainingJob twin differs\n%s--\n%s",
			 path, sum[0], sum[1]);
	/* ModelTrainer: no Debugger or Profiler defaults are modelled */
	summary(rep[0], 0, sum[0], sizeof(sum[0]));
	summary(rep[2], 0, sum[2], sizeof(sum[2]));
	cr_expect_str_eq(sum[2], sum[0],
			 "%s: the ModelTrainer twin differs\n%s--\n%s", path,
			 sum[0], sum[2]);
	/* the tuning job's definition: no Debugger or Profiler members */
	rep[3] = th_check_named(ctx, "twin-tuning.json", tu.s);
	summary(rep[3], 0, sum[3], sizeof(sum[3]));
	cr_expect_str_eq(sum[3], sum[0],
			 "%s: the tuning job twin differs\n%s--\n%s", path,
			 sum[0], sum[3]);
	if (strcmp(sum[2], sum[0]) == 0 && strcmp(sum[3], sum[0]) == 0)
		(*mt_agree)++;
	smp_report_free(rep[3]);
	ok = 1;
	smp_report_free(rep[0]);
	smp_report_free(rep[1]);
	smp_report_free(rep[2]);
done:
	free(api.s);
	free(mt.s);
	free(tu.s);
	smp__docs_release(&docs);
	free(buf);
	return ok;
}

static int
cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* tests/cases/<dir>/<case>.{yaml,json} run by run.sh without a .cmd. */
static size_t
case_files(char ***out)
{
	DIR *top = opendir("tests/cases");
	struct dirent *d, *e;
	char **v = NULL;
	size_t n = 0, cap = 0;

	cr_assert_not_null(top, "run from the top of the source tree");
	while ((d = readdir(top)) != NULL) {
		char dir[512];
		DIR *sub;

		if (d->d_name[0] == '.' ||
		    strncmp(d->d_name, "script-", 7) == 0)
			continue;
		snprintf(dir, sizeof(dir), "tests/cases/%s", d->d_name);
		sub = opendir(dir);
		if (!sub)
			continue;
		while ((e = readdir(sub)) != NULL) {
			const char *dot = strrchr(e->d_name, '.');
			char path[1100], cmd[1100];
			FILE *f;

			if (!dot || (strcmp(dot, ".yaml") != 0 &&
				     strcmp(dot, ".json") != 0))
				continue;
			snprintf(cmd, sizeof(cmd), "%s/%.*s.cmd", dir,
				 (int)(dot - e->d_name), e->d_name);
			f = fopen(cmd, "r");
			if (f) {
				fclose(f);
				continue;
			}
			snprintf(cmd, sizeof(cmd), "%s/%.*s.expected", dir,
				 (int)(dot - e->d_name), e->d_name);
			f = fopen(cmd, "r");
			if (!f)
				continue; /* a fixture, not a case */
			fclose(f);
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			if (n == cap) {
				cap = cap ? cap * 2 : 64;
				v = realloc(v, cap * sizeof(*v));
				cr_assert_not_null(v);
			}
			v[n] = strdup(path);
			cr_assert_not_null(v[n]);
			n++;
		}
		closedir(sub);
	}
	closedir(top);
	qsort(v, n, sizeof(*v), cmp_name);
	*out = v;
	return n;
}

Test(dialect_twins, every_transferable_golden_case_agrees)
{
	struct smp_options o = SMP_OPTIONS_INIT;
	struct smp_context *ctx;
	char **files;
	size_t n = case_files(&files), i, twins = 0, mt_agree = 0;

	o.no_script = 1;
	ctx = th_context(&o);
	for (i = 0; i < n; i++) {
		twins += (size_t)twin_case(ctx, files[i], &mt_agree);
		free(files[i]);
	}
	free(files);
	smp_context_free(ctx);
	fprintf(stderr,
		"dialect twins: %zu of %zu golden cases written in four "
		"forms, %zu agree in all four\n",
		twins, n, mt_agree);
	cr_assert_geq(twins, 100, "too few twins: %zu", twins);
	cr_assert_eq(mt_agree, twins);
}
