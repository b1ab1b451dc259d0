/*
 * tune.c - reading a job's batch, the scaling arithmetic, and choosing
 * the tested-models row that applies to a job (README "Suggestions").
 * Pure functions over the job and the catalog: no allocation.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tune/tune.h"
#include "util/fmt.h"

/* 1 when the first strlen(prefix) characters of key[0..len) are prefix,
 * ignoring case and with '-' and '_' alike. */
static int
name_prefix(const char *key, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len > n && smp__name_eq(key, n, prefix);
}

static int
scalar_key_is(const struct smp_node *k, const char *name)
{
	return k && k->kind == SMP_NODE_SCALAR &&
	       smp__name_eq(k->u.scalar.value, k->u.scalar.len, name);
}

int
smp__batch_read(struct smp_batch_reading *out, const struct smp_settings *s,
		const struct smp_job *job, int gpus)
{
	const struct smp_pair *p;
	const struct smp_node *k;
	double v, total;

	memset(out, 0, sizeof(*out));
	p = smp__hparam(s, job->hyperparameters, SMP_HP_BATCH_SIZE);
	if (!p)
		p = smp__hparam(s, job->hyperparameters, SMP_HP_GLOBAL_BATCH);
	/* past 1e12 a batch is nonsense, and products could overflow */
	if (!p || gpus < 1 || smp__node_number(p->value, &v) != 0 || !(v > 0) ||
	    v > 1e12)
		return -1;
	k = p->key;
	out->pair = p;
	out->value = v;
	out->gpus = gpus;
	out->instances = job->count > 0 ? job->count : 1;
	/* an explicit global-batch name is the user's word: it wins */
	if (smp__hparam_is(s, k, SMP_HP_GLOBAL_BATCH)) {
		out->scope = SMP_BATCH_GLOBAL;
		out->why = SMP_BATCH_WHY_GLOBAL_NAME;
	} else if (name_prefix(k->u.scalar.value, k->u.scalar.len,
			       "per_device_") ||
		   name_prefix(k->u.scalar.value, k->u.scalar.len,
			       "per_gpu_")) {
		out->scope = SMP_BATCH_PER_GPU;
		out->why = SMP_BATCH_WHY_PREFIX;
	} else if (job->base_framework &&
		   strcmp(job->base_framework, "tensorflow") == 0 &&
		   scalar_key_is(k, "batch_size")) {
		/* Keras under MirroredStrategy splits the batch it is given
		 * across the replicas (AWS ViT example: 48 x 4 GPUs = 192) */
		out->scope = SMP_BATCH_GLOBAL;
		out->why = SMP_BATCH_WHY_TENSORFLOW;
	} else {
		out->scope = SMP_BATCH_PER_GPU;
		out->why = SMP_BATCH_WHY_DEFAULT;
	}
	total = (double)gpus * (double)out->instances;
	if (out->scope == SMP_BATCH_GLOBAL) {
		out->global = v;
		out->per_gpu = v / total;
	} else {
		out->per_gpu = v;
		out->global = v * total;
	}
	return 0;
}

const char *
smp__batch_key(const struct smp_batch_reading *r)
{
	return r->pair ? r->pair->key->u.scalar.value : "";
}

/* "4 GPUs" or "8 GPUs (4 x 2 instances)" (in doubles: any count). */
static void
gpus_text(char *out, size_t size, int gpus, long long instances)
{
	double total = (double)gpus * (double)instances;

	if (instances > 1)
		snprintf(out, size, "%.0f GPUs (%d x %lld instances)", total,
			 gpus, instances);
	else
		snprintf(out, size, "%.0f GPU%s", total, total == 1 ? "" : "s");
}

void
smp__batch_describe(char *out, size_t size, const struct smp_batch_reading *r)
{
	char v[32], per[32], gpus[64];
	const char *why = "";

	smp__tune_number(v, sizeof(v), r->value);
	if (r->scope == SMP_BATCH_PER_GPU) {
		smp__fmt(out, size, "per-GPU batch %s (per GPU, from '%s')", v,
			 smp__batch_key(r));
		return;
	}
	smp__tune_number(per, sizeof(per), r->per_gpu);
	gpus_text(gpus, sizeof(gpus), r->gpus, r->instances);
	if (r->why == SMP_BATCH_WHY_TENSORFLOW)
		why = ", the global Keras batch of a TensorFlow job";
	else if (r->why == SMP_BATCH_WHY_GLOBAL_NAME)
		why = ", a global-batch name";
	smp__fmt(out, size,
		 "global batch %s over %s = %s per GPU (from '%s'%s)", v, gpus,
		 per, smp__batch_key(r), why);
}

double
smp__tune_k(double b1, int g1, long long n1, double b2, int g2, long long n2)
{
	double before = b1 * (double)g1 * (double)n1;

	if (!(before > 0))
		return 0;
	return b2 * (double)g2 * (double)n2 / before;
}

double
smp__tune_lr(double lr, double k, enum smp_lr_scaling scaling)
{
	return scaling == SMP_LR_SCALING_SQRT ? lr * sqrt(k) : lr * k;
}

int
smp__tune_lr_follows(double ratio, double k)
{
	/* a little slack for numbers printed with few digits */
	double tol = SMP_TUNE_LR_TOLERANCE + 1e-9;

	if (!(k > 0) || !isfinite(ratio))
		return 0;
	if (fabs(ratio / k - 1) <= tol)
		return 1;
	if (fabs(ratio / sqrt(k) - 1) <= tol)
		return 2;
	return 0;
}

/* Copies the NUL-terminated s into out[size], cut to fit. */
static void
copy_cut(char *out, size_t size, const char *s)
{
	size_t k = 0;

	if (!size)
		return;
	while (k + 1 < size && s[k]) {
		out[k] = s[k];
		k++;
	}
	out[k] = '\0';
}

/* 10^0 .. 10^22, each exact in a double */
static const double pow10_exact[] = {
	1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/*
 * What "%.4g" prints for a finite, non-zero v of magnitude 1e-19 to 1e15,
 * without the floating-point printf: 0 with tmp[24] written, -1 when the
 * rounding to four digits is too close to a tie to tell from a double
 * product (then printf decides). The four digits are v scaled by an exact
 * power of ten, one rounding off the exact value; away from .5 by far
 * more than that error, they round as printf rounds the exact value.
 */
static int
g4(char tmp[24], double v)
{
	double a = fabs(v), scaled, fl;
	unsigned m;
	char d[4];
	int x, i, n = 0, last;

	if (!(a >= 1e-19 && a < 1e15))
		return -1;
	/* x: the decimal exponent (a guess near a power of ten; the
	 * rounding below settles it) */
	x = 0;
	while (x < 14 && a >= pow10_exact[x + 1])
		x++;
	while (x > -19 && a < (x >= 0 ? pow10_exact[x] : 1 / pow10_exact[-x]))
		x--;
	scaled = x <= 3 ? a * pow10_exact[3 - x] : a / pow10_exact[x - 3];
	fl = floor(scaled);
	if (fabs(scaled - fl - 0.5) < 1e-6)
		return -1;
	m = (unsigned)fl + (scaled - fl > 0.5);
	if (m == 10000) {
		m = 1000;
		x++;
	}
	if (m < 1000 || m > 9999)
		return -1;
	for (i = 3; i >= 0; i--) {
		d[i] = (char)('0' + m % 10);
		m /= 10;
	}
	if (v < 0)
		tmp[n++] = '-';
	if (x < -4 || x >= 4) {
		/* %e: d.ddd, trailing zeros dropped, e-05 */
		tmp[n++] = d[0];
		for (last = 3; last > 0 && d[last] == '0'; last--)
			;
		if (last > 0) {
			tmp[n++] = '.';
			for (i = 1; i <= last; i++)
				tmp[n++] = d[i];
		}
		tmp[n++] = 'e';
		tmp[n++] = x < 0 ? '-' : '+';
		x = x < 0 ? -x : x;
		tmp[n++] = (char)('0' + x / 10);
		tmp[n++] = (char)('0' + x % 10);
	} else if (x >= 0) {
		/* %f: x + 1 digits, the point, the rest without trailing
		 * zeros */
		for (i = 0; i <= x; i++)
			tmp[n++] = d[i];
		for (last = 3; last > x && d[last] == '0'; last--)
			;
		if (last > x) {
			tmp[n++] = '.';
			for (i = x + 1; i <= last; i++)
				tmp[n++] = d[i];
		}
	} else {
		/* 0.000dddd */
		tmp[n++] = '0';
		tmp[n++] = '.';
		for (i = 0; i < -x - 1; i++)
			tmp[n++] = '0';
		for (last = 3; last > 0 && d[last] == '0'; last--)
			;
		for (i = 0; i <= last; i++)
			tmp[n++] = d[i];
	}
	tmp[n] = '\0';
	return 0;
}

void
smp__tune_number(char *out, size_t size, double v)
{
	if (isfinite(v) && fabs(v) < 1e15 && v == floor(v)) {
		/* what "%.0f" prints, without the floating-point printf */
		char tmp[24];
		size_t i = sizeof(tmp);
		unsigned long long u = (unsigned long long)fabs(v);

		tmp[--i] = '\0';
		do {
			tmp[--i] = (char)('0' + u % 10);
			u /= 10;
		} while (u);
		if (signbit(v))
			tmp[--i] = '-';
		copy_cut(out, size, tmp + i);
	} else {
		char tmp[24];

		if (g4(tmp, v) == 0)
			copy_cut(out, size, tmp);
		else
			snprintf(out, size, "%.4g", v);
	}
}

void
smp__tune_value(char *out, size_t size, const struct smp_node *orig, double v)
{
	char num[40];

	smp__tune_number(num, sizeof(num), v);
	if (orig && orig->kind == SMP_NODE_SCALAR &&
	    smp__scalar_type(orig) == SMP_SCALAR_STRING)
		smp__fmt(out, size, "\"%s\"", num);
	else
		smp__fmt(out, size, "%s", num);
}

const char *
smp__framework_title(const char *framework)
{
	if (framework && strcmp(framework, "tensorflow") == 0)
		return "TensorFlow";
	if (framework && strcmp(framework, "pytorch") == 0)
		return "PyTorch";
	return framework ? framework : "?";
}

/* Names that carry the tokenizer's fixed sequence length. */
static const char *const seq_names[] = {
	"max_seq_length", "max_length",      "block_size",
	"max_seq_len",    "sequence_length", "seq_length",
};

const struct smp_pair *
smp__tune_seq_hparam(const struct smp_job *job)
{
	const struct smp_node *hp = job->hyperparameters;
	size_t i, j;

	if (!hp || hp->kind != SMP_NODE_MAPPING)
		return NULL;
	for (i = 0; i < sizeof(seq_names) / sizeof(seq_names[0]); i++)
		for (j = hp->u.mapping.count; j-- > 0;)
			if (scalar_key_is(hp->u.mapping.items[j].key,
					  seq_names[i]))
				return &hp->u.mapping.items[j];
	return NULL;
}

const struct smp_pair *
smp__tune_model_hparam(const struct smp_settings *s, const struct smp_job *job)
{
	return smp__hparam(s, job->hyperparameters, SMP_HP_MODEL);
}

/* A local path or URI names no model of the table. */
static int
is_path(const char *s)
{
	return s[0] == '/' || s[0] == '.' || s[0] == '~' ||
	       strstr(s, "://") != NULL;
}

void
smp__tune_model_text(char *out, size_t size, const struct smp_node *v)
{
	const char *t = v ? smp__node_text(v) : NULL;
	size_t n = t ? strlen(t) : 0;

	if (n >= 2 && t[0] == '"' && t[n - 1] == '"') {
		t++;
		n -= 2;
	}
	if (!size)
		return;
	if (n >= size)
		n = size - 1; /* cut as "%.*s" is */
	if (n)
		memcpy(out, t, n);
	out[n] = '\0';
}

int
smp__tune_query(struct smp_tune_query *q, char *key, size_t keysize,
		const struct smp_settings *s, const struct smp_job *job,
		const struct smp_instance *instance)
{
	const struct smp_pair *p = smp__tune_model_hparam(s, job);
	char model[256];
	double seq;

	memset(q, 0, sizeof(*q));
	q->model = p;
	smp__tune_model_text(model, sizeof(model), p ? p->value : NULL);
	if (!model[0] || is_path(model))
		return -1;
	smp__model_key(key, keysize, model);
	q->model_key = key;
	if (!job->base_framework)
		return 1;
	q->estimator = job->estimator;
	q->framework = job->base_framework;
	q->framework_version = smp__node_text(job->framework_version);
	q->transformers_version = smp__node_text(job->transformers_version);
	q->instance = instance;
	q->instance_count = job->count > 0 ? job->count : 1;
	p = smp__tune_seq_hparam(job);
	if (p && smp__node_number(p->value, &seq) == 0 && seq >= 1 &&
	    seq <= 1e6)
		q->sequence_length = (int)seq;
	return 0;
}

/* The rows of q's model in cat. */
static const struct smp_tested_model *const *
query_rows(const struct smp_catalog *cat, const struct smp_tune_query *q,
	   size_t *n)
{
	if (q->rows_cat == cat) {
		*n = q->row_count;
		return q->rows;
	}
	return smp__catalog_model_rows(cat, q->model_key, n);
}

/* The container image of the query's versions in cat, or NULL. */
static const struct smp_image *
image_of(const struct smp_catalog *cat, const struct smp_tune_query *q)
{
	const char *est = smp__estimator_key(q->estimator);
	size_t i;

	if (!est || !q->framework || !q->framework_version)
		return NULL;
	for (i = 0; i < cat->image_count; i++) {
		const struct smp_image *im = &cat->images[i];

		/* the first bytes tell most images apart without a call */
		if (im->estimator[0] != est[0] ||
		    im->framework[0] != q->framework[0] ||
		    strcmp(im->estimator, est) != 0 ||
		    strcmp(im->framework, q->framework) != 0 ||
		    !smp__image_framework_is(im, q->framework_version))
			continue;
		if (im->transformers_version &&
		    !smp__image_transformers_is(im, q->transformers_version))
			continue;
		return im;
	}
	return NULL;
}

/* image_of(), looked up once for q's catalog (smp__tune_query_rows). */
static const struct smp_image *
query_image(const struct smp_catalog *cat, const struct smp_tune_query *q)
{
	return q->rows_cat == cat ? q->image : image_of(cat, q);
}

void
smp__tune_query_rows(struct smp_tune_query *q, const struct smp_catalog *cat)
{
	q->rows = smp__catalog_model_rows(cat, q->model_key, &q->row_count);
	q->image = image_of(cat, q);
	q->rows_cat = cat;
}

const struct smp_image *
smp__tune_job_image(const struct smp_catalog *cat, const struct smp_job *job)
{
	struct smp_tune_query q;

	memset(&q, 0, sizeof(q));
	q.estimator = job->estimator;
	q.framework = job->base_framework;
	q.framework_version = smp__node_text(job->framework_version);
	q.transformers_version = smp__node_text(job->transformers_version);
	if (!q.framework)
		return NULL;
	return query_image(cat, &q);
}

static int
version_eq(const char *a, const char *b)
{
	struct smp_version va, vb;

	if (!a || !b)
		return !a && !b;
	if (smp__version_parse(&va, a) || smp__version_parse(&vb, b))
		return strcmp(a, b) == 0;
	return smp__version_cmp(&va, &vb) == 0;
}

/*
 * 1 when row was tested with the query's framework version (and
 * transformers version, or none for a plain estimator): the same
 * container, whichever spelling of its version either side uses.
 */
static int
row_same_versions(const struct smp_tested_model *row,
		  const struct smp_tune_query *q, const struct smp_image *im)
{
	if (im) {
		if (!smp__image_framework_is(im, row->framework_version))
			return 0;
		if (!im->transformers_version)
			return row->transformers_version == NULL;
		return smp__image_transformers_is(im,
						  row->transformers_version);
	}
	if (q->estimator != SMP_EST_HUGGINGFACE && row->transformers_version)
		return 0;
	return version_eq(row->framework_version, q->framework_version) &&
	       version_eq(row->transformers_version, q->transformers_version);
}

static int
row_same_model(const struct smp_tested_model *row,
	       const struct smp_tune_query *q)
{
	/* every row given comes from the model's rows (query_rows(), a
	 * range of equal model keys): only the framework can differ, and
	 * its first byte tells pytorch from tensorflow without a call */
	return row->model_key && q->model_key &&
	       row->framework[0] == q->framework[0] &&
	       strcmp(row->framework, q->framework) == 0;
}

static int
same_gpu(const struct smp_instance *a, const struct smp_instance *b)
{
	return a && b && a->gpus > 0 && b->gpus > 0 && a->gpu_model &&
	       b->gpu_model && strcmp(a->gpu_model, b->gpu_model) == 0 &&
	       fabs(a->gpu_memory_gib - b->gpu_memory_gib) < 0.01;
}

/* Classifies a row for q: SMP_ROW_NONE when it does not apply. */
static enum smp_row_match
row_match(const struct smp_catalog *cat, const struct smp_tested_model *row,
	  const struct smp_tune_query *q, const struct smp_image *im)
{
	int same_type;

	if (!q->instance || !row_same_model(row, q))
		return SMP_ROW_NONE;
	same_type = row->instance_type == q->instance->type ||
		    strcmp(row->instance_type, q->instance->type) == 0;
	if (same_type && row_same_versions(row, q, im))
		return SMP_ROW_EXACT;
	/* types are unique in the catalog: the same type is q's instance */
	if (same_gpu(q->instance,
		     same_type ? q->instance
			       : smp__catalog_row_instance(cat, row)))
		return SMP_ROW_SAME_GPU;
	return SMP_ROW_NONE;
}

/*
 * How far a row's version is from the query's, major first; large when
 * either is unknown (qv: the query's version, parsed once; qv_ok 0 when
 * it does not parse).
 */
static double
version_distance(const char *a, const struct smp_version *qv, int qv_ok)
{
	struct smp_version va;
	double d = 0;
	int i;

	if (!a || !qv_ok || smp__version_parse(&va, a))
		return 1e18;
	for (i = 0; i < 3; i++)
		d = d * 1000 + fabs((double)va.part[i] - (double)qv->part[i]);
	return d;
}

/*
 * A candidate row of a pick and what prefer() compares, worked out once
 * per pick rather than at every comparison (a pick compares each row
 * with the best so far, then with the chosen one).
 */
struct cand {
	const struct smp_tested_model *row;
	enum smp_row_match match;
	int same_versions; /* row_same_versions() */
	int same_type;     /* the query's instance type */
	double batch;      /* smp__tune_row_batch() */
	double distance;   /* version_distance() */
};

/* What a pick knows of its query beyond q: the image and the version. */
struct pick_env {
	const struct smp_catalog *cat;
	const struct smp_tune_query *q;
	const struct smp_image *im;
	struct smp_version qv;
	int qv_ok;
};

static void
cand_init(struct cand *c, const struct pick_env *e,
	  const struct smp_tested_model *row, enum smp_row_match m)
{
	c->row = row;
	c->match = m;
	c->same_versions = row_same_versions(row, e->q, e->im);
	c->same_type = strcmp(row->instance_type, e->q->instance->type) == 0;
	c->batch = smp__tune_row_batch(e->cat, row);
	c->distance =
		version_distance(row->framework_version, &e->qv, e->qv_ok);
}

/*
 * Compares two candidate rows on the preferences before the batch size:
 * negative when a is preferred, positive when b is, 0 when they tie.
 * The sequence length comes first: it drives memory more than anything
 * else that differs between rows.
 */
static int
prefer(const struct cand *a, const struct cand *b,
       const struct smp_tune_query *q, int by_batch)
{
	int hf = q->estimator == SMP_EST_HUGGINGFACE;
	int x, y;

	if (q->sequence_length) {
		x = a->row->sequence_length == q->sequence_length;
		y = b->row->sequence_length == q->sequence_length;
		if (x != y)
			return y - x;
	}
	x = a->match == SMP_ROW_EXACT;
	y = b->match == SMP_ROW_EXACT;
	if (x != y)
		return y - x;
	if (by_batch && a->batch != b->batch)
		return a->batch < b->batch ? -1 : 1;
	if (a->same_versions != b->same_versions)
		return b->same_versions - a->same_versions;
	if (a->same_type != b->same_type)
		return b->same_type - a->same_type;
	x = (a->row->transformers_version != NULL) == hf;
	y = (b->row->transformers_version != NULL) == hf;
	if (x != y)
		return y - x;
	if (a->distance != b->distance)
		return a->distance < b->distance ? -1 : 1;
	x = a->row->instance_count > 0 &&
	    a->row->instance_count == q->instance_count;
	y = b->row->instance_count > 0 &&
	    b->row->instance_count == q->instance_count;
	return y - x;
}

/*
 * The rows of a pick, matched once: the passes of smp__tune_pick() read
 * these rather than match every row of the table again (the table has
 * over a thousand rows and a check may pick several times). More than
 * PICK_MAX matching rows, which no model has, fall back to every row.
 */
#define PICK_MAX 256

struct pick_rows {
	struct cand cand[PICK_MAX];
	size_t count; /* matching rows, even past PICK_MAX */
	const struct smp_tested_model *const *model; /* the model's rows */
	size_t model_count;
	struct cand scratch; /* past PICK_MAX: the row pick_at() gave */
};

static void
pick_rows(struct pick_rows *p, const struct pick_env *e)
{
	size_t i;

	p->count = 0;
	p->model = query_rows(e->cat, e->q, &p->model_count);
	for (i = 0; i < p->model_count; i++) {
		const struct smp_tested_model *r = p->model[i];
		enum smp_row_match m;

		m = row_match(e->cat, r, e->q, e->im);
		if (m == SMP_ROW_NONE)
			continue;
		if (p->count < PICK_MAX)
			cand_init(&p->cand[p->count], e, r, m);
		p->count++;
	}
}

/* The k-th row to look at, or NULL to skip it. */
static const struct cand *
pick_at(struct pick_rows *p, const struct pick_env *e, size_t k)
{
	enum smp_row_match m;

	if (p->count <= PICK_MAX)
		return p->cand[k].row ? &p->cand[k] : NULL;
	m = row_match(e->cat, p->model[k], e->q, e->im);
	if (m == SMP_ROW_NONE)
		return NULL;
	cand_init(&p->scratch, e, p->model[k], m);
	return &p->scratch;
}

void
smp__tune_pick(struct smp_row_pick *out, const struct smp_catalog *cat,
	       const struct smp_tune_query *q)
{
	const struct smp_tested_model *prev = NULL;
	const struct cand *c;
	struct cand best, max;
	struct pick_env e;
	struct pick_rows rows;
	size_t i, total;
	int any_seq = 0, d;

	memset(out, 0, sizeof(*out));
	memset(&best, 0, sizeof(best));
	memset(&max, 0, sizeof(max));
	if (!q->model_key || !q->framework || !q->instance)
		return;
	e.cat = cat;
	e.q = q;
	e.im = query_image(cat, q);
	e.qv_ok = q->framework_version &&
		  smp__version_parse(&e.qv, q->framework_version) == 0;
	pick_rows(&rows, &e);
	total = rows.count <= PICK_MAX ? rows.count : rows.model_count;
	/* rows of several lengths and none given: the job may use the
	 * longest, so the smallest batch is the safe one */
	for (i = 0; i < total; i++) {
		if (!(c = pick_at(&rows, &e, i)))
			continue;
		if (prev && c->row->sequence_length != prev->sequence_length)
			out->seq_mixed = 1;
		prev = c->row;
	}
	out->by_batch = out->seq_mixed && !q->sequence_length;
	for (i = 0; i < total; i++) {
		if (!(c = pick_at(&rows, &e, i)))
			continue;
		out->candidates++;
		if (c->match == SMP_ROW_EXACT)
			out->exact_rows++;
		if (q->sequence_length &&
		    c->row->sequence_length == q->sequence_length)
			any_seq = 1;
		if (!best.row) {
			best = *c;
			continue;
		}
		d = prefer(c, &best, q, out->by_batch);
		if (d < 0 || (d == 0 && c->batch < best.batch))
			best = *c;
	}
	if (!best.row)
		return;
	for (i = 0; i < total; i++) {
		if (!(c = pick_at(&rows, &e, i)))
			continue;
		if (prefer(c, &best, q, out->by_batch) == 0)
			out->ties++;
		/* the largest batch on this GPU, at the job's length */
		if (any_seq && c->row->sequence_length != q->sequence_length)
			continue;
		if (!max.row || c->batch > max.batch ||
		    (c->batch == max.batch &&
		     c->row->batch_size_is_lower_bound))
			max = *c;
	}
	/* of equal maxima, name the chosen row */
	if (max.row && best.batch == max.batch &&
	    best.row->batch_size_is_lower_bound >=
		    max.row->batch_size_is_lower_bound &&
	    (!any_seq || best.row->sequence_length == q->sequence_length))
		max = best;
	out->match = best.match;
	out->row = best.row;
	out->max = max.row;
	out->seq_matched = q->sequence_length &&
			   best.row->sequence_length == q->sequence_length;
	out->count_matched = best.row->instance_count > 0 &&
			     best.row->instance_count == q->instance_count;
}

/* Hugging Face rows carry a Transformers version; the family of a job is
 * its estimator's (an image-only job's estimator comes from the image). */
static int
same_family(const struct smp_tested_model *row, const struct smp_tune_query *q)
{
	if (q->estimator == SMP_EST_UNKNOWN)
		return 0;
	return (row->transformers_version != NULL) ==
	       (q->estimator == SMP_EST_HUGGINGFACE);
}

const struct smp_tested_model *
smp__tune_same_job_max(const struct smp_catalog *cat,
		       const struct smp_tune_query *q, int any_length)
{
	const struct smp_tested_model *best = NULL;
	const struct smp_tested_model *const *rows;
	const struct smp_image *im;
	size_t i, n;

	if (!q->model_key || !q->framework || !q->instance)
		return NULL;
	im = query_image(cat, q);
	rows = query_rows(cat, q, &n);
	for (i = 0; i < n; i++) {
		const struct smp_tested_model *r = rows[i];

		if (!row_same_model(r, q) || !same_family(r, q) ||
		    !row_same_versions(r, q, im) ||
		    !same_gpu(q->instance, smp__catalog_row_instance(cat, r)))
			continue;
		/* a row of one sequence length is this job only when the
		 * spec states that length: unstated, the job's may be far
		 * shorter (AWS's BERT notebooks ran 24 where the 512-token
		 * row says 20) */
		if (r->sequence_length && !any_length &&
		    r->sequence_length != q->sequence_length)
			continue;
		if (!best ||
		    smp__tune_row_batch(cat, r) >
			    smp__tune_row_batch(cat, best) ||
		    (smp__tune_row_batch(cat, r) ==
			     smp__tune_row_batch(cat, best) &&
		     r->batch_size_is_lower_bound))
			best = r;
	}
	return best;
}

/* The row's native batch for one GPU; 0 when the page leaves it blank. */
static double
row_native(const struct smp_catalog *cat, const struct smp_tested_model *row)
{
	if (row->native_batch_size <= 0)
		return 0;
	if (smp__tune_row_per_instance(cat, row))
		return (double)row->native_batch_size /
		       (double)smp__catalog_row_instance(cat, row)->gpus;
	return row->native_batch_size;
}

/* How far apart two batches are, as a factor >= 1. */
static double
factor(double a, double b)
{
	return a > b ? a / b : b / a;
}

/* A native batch this far from the job's says the row ran under other
 * conditions (sequence length, data, precision) than the job: its
 * compiler/native ratio no longer transfers. */
#define TARGET_FAR 3.0
/* Within this of the row's native batch, the job is the row's job. */
#define TARGET_SAME 1.15

/* The candidate row (same model, same GPU) whose native batch is nearest
 * the job's, at the query's sequence length when it states one. */
static const struct smp_tested_model *
nearest_native(const struct smp_catalog *cat, const struct smp_tune_query *q,
	       double job)
{
	const struct smp_tested_model *best = NULL;
	const struct smp_image *im = query_image(cat, q);
	const struct smp_tested_model *const *rows;
	double bf = 0, f;
	size_t i, n;

	rows = query_rows(cat, q, &n);
	for (i = 0; i < n; i++) {
		const struct smp_tested_model *r = rows[i];

		if (row_match(cat, r, q, im) == SMP_ROW_NONE ||
		    !(row_native(cat, r) > 0) ||
		    (q->sequence_length &&
		     r->sequence_length != q->sequence_length))
			continue;
		f = factor(job, row_native(cat, r));
		if (!best || f < bf) {
			best = r;
			bf = f;
		}
	}
	return best && bf <= TARGET_FAR ? best : NULL;
}

void
smp__tune_target(struct smp_tune_target *out, const struct smp_catalog *cat,
		 const struct smp_tune_query *q,
		 const struct smp_row_pick *pick, double job)
{
	const struct smp_tested_model *row = pick->row;
	double c, n, v;
	char nt[32], jt[32];

	memset(out, 0, sizeof(*out));
	if (!row || !(job > 0)) {
		smp__fmt(out->why, sizeof(out->why), "no tested row applies");
		return;
	}
	out->row = row;
	c = smp__tune_row_batch(cat, row);
	n = row_native(cat, row);
	if (fabs(job - floor(c)) < 0.5) {
		out->kind = SMP_TARGET_AT;
		out->per_gpu = job;
		smp__fmt(out->why, sizeof(out->why),
			 "the job already runs the tested compiler batch");
		return;
	}
	smp__tune_number(jt, sizeof(jt), job);
	if (n > 0 && factor(job, n) <= TARGET_SAME &&
	    (!q->sequence_length || !row->sequence_length ||
	     row->sequence_length == q->sequence_length)) {
		out->kind = SMP_TARGET_ROW;
		v = c;
		smp__tune_number(nt, sizeof(nt), n);
		smp__fmt(out->why, sizeof(out->why),
			 "the job's batch %s is the row's native batch %s: "
			 "the row's compiler batch applies",
			 jt, nt);
	} else {
		/* an exact row stays unless its native batch is too far off;
		 * else the row whose native batch is nearest the job's is the
		 * best evidence of its conditions (the chosen row wins ties) */
		const struct smp_tested_model *alt =
			nearest_native(cat, q, job);

		if (alt && alt != row &&
		    (!(n > 0) ||
		     ((pick->match != SMP_ROW_EXACT ||
		       factor(job, n) > TARGET_FAR) &&
		      factor(job, row_native(cat, alt)) < factor(job, n)))) {
			out->other_row = 1;
			row = out->row = alt;
			c = smp__tune_row_batch(cat, row);
			n = row_native(cat, row);
		}
		if (!(n > 0) || factor(job, n) > TARGET_FAR) {
			if (n > 0) {
				smp__tune_number(nt, sizeof(nt), n);
				smp__fmt(out->why, sizeof(out->why),
					 "the row's native batch %s is far "
					 "from the job's %s, as is every "
					 "row's of this model on this GPU, "
					 "so they ran under other conditions "
					 "(sequence length, data, precision) "
					 "and their batches do not transfer",
					 nt, jt);
			} else {
				smp__fmt(out->why, sizeof(out->why),
					 "the row gives no native batch to "
					 "compare the job's %s with, so its "
					 "compiler batch may not apply",
					 jt);
			}
			out->row = NULL;
			return;
		}
		out->kind = SMP_TARGET_SCALED;
		out->ratio = c / n;
		v = job * out->ratio;
		smp__tune_number(nt, sizeof(nt), n);
		smp__fmt(out->why, sizeof(out->why),
			 "the job's batch %s x the row's compiler/native "
			 "ratio %.3g (its native batch is %s)",
			 jt, out->ratio, nt);
	}
	v = v >= 1 ? floor(v) : v;
	/* the job already runs its batch: never less, unless the row shows
	 * the compiler fitting less than native */
	if (v <= job && c >= n) {
		out->kind = SMP_TARGET_KEEP;
		v = job;
		smp__fmt(out->why, sizeof(out->why),
			 "the row shows no larger batch than the job's %s", jt);
	}
	out->per_gpu = v;
}

int
smp__tune_row_per_instance(const struct smp_catalog *cat,
			   const struct smp_tested_model *row)
{
	const struct smp_instance *it;

	if (strcmp(row->framework, "tensorflow") != 0 ||
	    row->sequence_length > 0)
		return 0;
	it = smp__catalog_row_instance(cat, row);
	return it && it->gpus > 1;
}

double
smp__tune_row_batch(const struct smp_catalog *cat,
		    const struct smp_tested_model *row)
{
	if (smp__tune_row_per_instance(cat, row))
		return (double)row->compiler_batch_size /
		       (double)smp__catalog_row_instance(cat, row)->gpus;
	return row->compiler_batch_size;
}

void
smp__tune_row_batch_text(char *out, size_t size, const struct smp_catalog *cat,
			 const struct smp_tested_model *row)
{
	char per[32];

	smp__tune_number(per, sizeof(per), smp__tune_row_batch(cat, row));
	if (smp__tune_row_per_instance(cat, row))
		smp__fmt(out, size, "%s per GPU (%d for the %d GPUs of %s)",
			 per, row->compiler_batch_size,
			 smp__catalog_row_instance(cat, row)->gpus,
			 row->instance_type);
	else
		smp__fmt(out, size, "%s per GPU", per);
}

/* 1 when one of rows[0..n) is of framework (NULL: any). */
static int
rows_tested(const struct smp_tested_model *const *rows, size_t n,
	    const char *framework)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!framework || strcmp(rows[i]->framework, framework) == 0)
			return 1;
	return 0;
}

int
smp__tune_model_tested(const struct smp_catalog *cat, const char *framework,
		       const char *model_key)
{
	const struct smp_tested_model *const *rows;
	size_t n;

	rows = smp__catalog_model_rows(cat, model_key, &n);
	return rows_tested(rows, n, framework);
}

int
smp__tune_query_tested(const struct smp_tune_query *q,
		       const struct smp_catalog *cat, const char *framework)
{
	const struct smp_tested_model *const *rows;
	size_t n;

	rows = query_rows(cat, q, &n);
	return rows_tested(rows, n, framework);
}

void
smp__tune_row_describe(char *out, size_t size,
		       const struct smp_tested_model *row)
{
	char tf[48] = "", seq[40] = "", count[32] = "";

	if (row->transformers_version)
		smp__fmt(tf, sizeof(tf), ", transformers %s",
			 row->transformers_version);
	if (row->sequence_length > 0)
		smp__fmt(seq, sizeof(seq), ", sequence length %d",
			 row->sequence_length);
	if (row->instance_count > 0)
		smp__fmt(count, sizeof(count), ", %d instance%s",
			 row->instance_count,
			 row->instance_count == 1 ? "" : "s");
	/* tables without a precision column state AMP in their heading */
	smp__fmt(out, size, "%s %s%s, %s%s, %s%s",
		 smp__framework_title(row->framework), row->framework_version,
		 tf, row->instance_type, seq,
		 row->precision ? row->precision : "AMP", count);
}
