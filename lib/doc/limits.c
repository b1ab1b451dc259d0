/* limits.c - the input limits, with their defaults */
#include "doc/limits.h"

/*
 * Fills out from in, each 0 (or a NULL in) replaced by the default of
 * the README's "Bad input".
 */
void
smp__limits_resolve(struct smp_limits *out, const struct smp_limits *in)
{
	struct smp_limits d;

	d.max_file_size = (size_t)4 << 20;
	d.max_depth = 64;
	d.max_nodes = 100000;
	d.max_scalar_len = (size_t)64 << 10;
	d.max_documents = 1000;
	if (in) {
		if (in->max_file_size)
			d.max_file_size = in->max_file_size;
		if (in->max_depth)
			d.max_depth = in->max_depth;
		if (in->max_nodes)
			d.max_nodes = in->max_nodes;
		if (in->max_scalar_len)
			d.max_scalar_len = in->max_scalar_len;
		if (in->max_documents)
			d.max_documents = in->max_documents;
	}
	*out = d;
}

/* The limits of the options: their max_* fields, resolved. */
void
smp__limits_of(struct smp_limits *out, const struct smp_options *opts)
{
	struct smp_limits in;

	in.max_file_size = opts->max_file_size;
	in.max_depth = opts->max_depth;
	in.max_nodes = opts->max_nodes;
	in.max_scalar_len = opts->max_scalar_len;
	in.max_documents = opts->max_documents;
	smp__limits_resolve(out, &in);
}
