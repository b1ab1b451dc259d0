/*
 * load.c - the loaders' common entry: file size, UTF-8, the choice
 * between the JSON and the YAML loader, and the strict load of data files.
 */
#include <string.h>

#include "doc/load.h"
#include "util/error.h"
#include "util/text.h"

static const char bom[] = "\xEF\xBB\xBF";

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
int
smp__load_is_json(const char *name, const char *buf, size_t len)
{
	size_t i, start = len >= 3 && memcmp(buf, bom, 3) == 0 ? 3 : 0;

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
	  const struct smp_limits *limits)
{
	struct smp_limits lim;
	size_t start = 0, bad = 0;

	smp__limits_resolve(&lim, limits);
	if (len > lim.max_file_size) {
		struct smp_pos pos = {1, 1, 0};

		if (!smp__docs_diag(docs, SMP_DIAG_LIMIT, &pos, NULL,
				    "file is %zu bytes, larger than the limit "
				    "of %zu bytes",
				    len, lim.max_file_size))
			return SMP_ENOMEM;
		return 0;
	}
	if (len >= 3 && memcmp(buf, bom, 3) == 0)
		start = 3;
	if (!smp__utf8_valid(buf, len, &bad)) {
		struct smp_pos pos = smp__pos_at(buf, len, bad);

		if (start && pos.line == 1)
			pos.column--; /* the BOM is not a column */
		if (!smp__docs_diag(docs, SMP_DIAG_LIMIT, &pos, NULL,
				    "invalid UTF-8 byte 0x%02x at offset %zu; "
				    "specs must be UTF-8",
				    (unsigned char)buf[bad], bad))
			return SMP_ENOMEM;
		return 0;
	}
	if (docs->format == SMP_INPUT_JSON ||
	    (docs->format != SMP_INPUT_YAML &&
	     smp__load_is_json(name, buf, len)))
		return smp__load_json(docs, buf, len, &lim);
	return smp__load_yaml(docs, buf, len, &lim);
}

/* The first diagnostic by position; ties go to the kind first in order. */
static const struct smp_diag *
first_diag(const struct smp_docs *docs)
{
	const struct smp_diag *best = NULL;
	size_t i;

	for (i = 0; i < docs->ndiags; i++) {
		const struct smp_diag *d = &docs->diags[i];

		if (!best || d->start.line < best->start.line ||
		    (d->start.line == best->start.line &&
		     (d->start.column < best->start.column ||
		      (d->start.column == best->start.column &&
		       d->kind < best->kind))))
			best = d;
	}
	return best;
}

int
smp__load_strict(struct smp_docs *docs, const char *name, const char *buf,
		 size_t len, int json, struct smp_error *err)
{
	struct smp_limits lim;
	const struct smp_diag *d;
	int rc;

	smp__limits_resolve(&lim, NULL);
	rc = json ? smp__load_json(docs, buf, len, &lim)
		  : smp__load(docs, name, buf, len, &lim);
	if (rc)
		return smp__error_set(err, rc, name, NULL, "%s",
				      smp_strerror(rc));
	d = first_diag(docs);
	if (d)
		return smp__error_set(err, SMP_EPARSE, name, &d->start, "%s",
				      d->message);
	return 0;
}
