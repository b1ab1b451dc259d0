/*
 * info.c - read-only views of what a context holds, for an editor's hover
 * and completion (`sm-preflight lsp`): instance types, the tested rows of
 * a model, the top-level keys of a dialect's schema, and the dialect a
 * text is written in. Each reads the tables the rules read, so that an
 * editor shows what a check decides with.
 */
#include <string.h>

#include "context/context.h"
#include "doc/load.h"
#include "job/dialect.h"

size_t
smp_context_instance_count(const struct smp_context *ctx)
{
	return ctx ? ctx->catalog.instance_count : 0;
}

/* Copies the public view of in into *out, at most size bytes of it. */
static void
copy_instance(const struct smp_instance *in, struct smp_instance_info *out,
	      size_t size)
{
	struct smp_instance_info v;

	v.type = in->type;
	v.family = in->family;
	v.vcpus = in->vcpus;
	v.memory_gib = in->memory_gib;
	v.gpus = in->gpus;
	v.gpu_model = in->gpu_model;
	v.gpu_memory_gib = in->gpu_memory_gib;
	v.efa = in->efa;
	v.network_gbps = in->network_gbps;
	v.compiler_supported = in->compiler_supported;
	memcpy(out, &v, size < sizeof(v) ? size : sizeof(v));
}

int
smp_context_instance(const struct smp_context *ctx, size_t i, const char *type,
		     struct smp_instance_info *out, size_t size)
{
	const struct smp_instance *in;

	if (!ctx || !out)
		return SMP_EINVAL;
	if (type)
		in = smp__catalog_instance(&ctx->catalog, type);
	else
		in = i < ctx->catalog.instance_count
			     ? &ctx->catalog.instances[i]
			     : NULL;
	if (!in)
		return 0;
	copy_instance(in, out, size);
	return 1;
}

static void
copy_row(const struct smp_tested_model *r, struct smp_tested_info *out,
	 size_t size)
{
	struct smp_tested_info v;

	v.framework = r->framework;
	v.framework_version = r->framework_version;
	v.transformers_version = r->transformers_version;
	v.model = r->model;
	v.instance_type = r->instance_type;
	v.precision = r->precision;
	v.sequence_length = r->sequence_length;
	v.native_batch_size = r->native_batch_size;
	v.compiler_batch_size = r->compiler_batch_size;
	v.instance_count = r->instance_count;
	memcpy(out, &v, size < sizeof(v) ? size : sizeof(v));
}

size_t
smp_context_model_rows(const struct smp_context *ctx, const char *model,
		       size_t i, struct smp_tested_info *out, size_t size)
{
	const struct smp_tested_model *const *rows;
	char key[256];
	size_t n = 0;

	if (!ctx || !model)
		return 0;
	/* the key `suggest` matches a job's model by (tune/) */
	smp__model_key(key, sizeof(key), model);
	rows = smp__catalog_model_rows(&ctx->catalog, key, &n);
	if (out && i < n)
		copy_row(rows[i], out, size);
	return n;
}

const char *
smp_context_dialect_key(const struct smp_context *ctx, enum smp_dialect dialect,
			size_t i)
{
	const struct smp_schema *schema = NULL;
	const char *const *keys;
	size_t n = 0;

	if (!ctx || dialect == SMP_DIALECT_AUTO ||
	    smp__context_schema(ctx, dialect, &schema) || !schema)
		return NULL;
	keys = smp__schema_top_keys(schema, &n);
	return i < n ? keys[i] : NULL;
}

enum smp_dialect
smp_detect_dialect(const struct smp_context *ctx, const char *name,
		   const char *buf, size_t len)
{
	enum smp_dialect d = SMP_DIALECT_AUTO;
	struct smp_docs docs;

	if (!ctx || (!buf && len))
		return SMP_DIALECT_AUTO;
	if (ctx->dialect != SMP_DIALECT_AUTO)
		return ctx->dialect; /* forced, as a check forces it */
	smp__docs_init(&docs, &ctx->alloc);
	if (smp__load(&docs, name, buf ? buf : "", len, &ctx->limits) == 0 &&
	    docs.count && docs.items[0].root)
		d = smp__detect_dialect(docs.items[0].root);
	smp__docs_release(&docs);
	return d;
}
