/*
 * load.c - the loaders' common entry: limits, file size, UTF-8, and the
 * choice between the JSON and the YAML loader.
 */
#include <string.h>

#include "doc/load.h"
#include "util/text.h"

static const char bom[] = "\xEF\xBB\xBF";

/*
 * Fills out from in, each 0 (or a NULL in) replaced by the default of
 * DESIGN.md section 8.
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

static int
ends_with(const char *name, const char *suffix)
{
	size_t n = strlen(name), s = strlen(suffix), k;

	if (n < s)
		return 0;
	for (k = 0; k < s; k++) {
		char c = name[n - s + k];

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c != suffix[k])
			return 0;
	}
	return 1;
}

/*
 * JSON by name, else YAML by name (a YAML flow mapping starts with '{'
 * too), else by the first non-blank byte after the BOM.
 */
static int
is_json(const char *name, const char *buf, size_t len, size_t start)
{
	size_t i;

	if (name && ends_with(name, ".json"))
		return 1;
	if (name && (ends_with(name, ".yaml") || ends_with(name, ".yml")))
		return 0;
	for (i = start; i < len; i++)
		if (buf[i] != ' ' && buf[i] != '\t' && buf[i] != '\r' &&
		    buf[i] != '\n')
			return buf[i] == '{' || buf[i] == '[';
	return 0;
}

/*
 * Loads buf into docs with the loader its name or first byte selects.
 * The loaders get the whole buffer, BOM included, so that offsets are
 * those of the original bytes; both skip the BOM themselves (libyaml does,
 * and so does the JSON loader) and do not count it as a column.
 */
int
smp__load(struct smp_docs *docs, const char *name, const char *buf, size_t len,
	  const struct smp_limits *limits, struct smp_report *rep)
{
	struct smp_limits lim;
	size_t start = 0, bad = 0;

	smp__limits_resolve(&lim, limits);
	if (len > lim.max_file_size) {
		struct smp_pos pos = {1, 1, 0};

		smp__report_add(rep, SMP_RULE_INPUT_LIMIT, &pos, NULL,
				"file is %zu bytes, larger than the limit of "
				"%zu bytes",
				len, lim.max_file_size);
		return rep->failed ? SMP_ENOMEM : 0;
	}
	if (len >= 3 && memcmp(buf, bom, 3) == 0)
		start = 3;
	if (!smp__utf8_valid(buf, len, &bad)) {
		struct smp_pos pos = smp__pos_at(buf, len, bad);

		if (start && pos.line == 1)
			pos.column--; /* the BOM is not a column */
		smp__report_add(
			rep, SMP_RULE_INPUT_LIMIT, &pos, NULL,
			"invalid UTF-8 byte 0x%02x at offset %zu; specs "
			"must be UTF-8",
			(unsigned char)buf[bad], bad);
		return rep->failed ? SMP_ENOMEM : 0;
	}
	if (docs->format == SMP_INPUT_JSON ||
	    (docs->format != SMP_INPUT_YAML && is_json(name, buf, len, start)))
		return smp__load_json(docs, buf, len, &lim, rep);
	return smp__load_yaml(docs, buf, len, &lim, rep);
}
