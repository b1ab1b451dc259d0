/*
 * lsp_hover.c - hover and completion from the library's own tables:
 * on a finding, its rule's explanation and source (smp_rule_find); on an
 * instance type, its GPUs, GPU memory, EFA and compiler support
 * (smp_context_instance); on a model name, the tested rows for it
 * (smp_context_model_rows, as `suggest` matches them). Completion offers
 * the instance types with their GPU counts, and the top-level keys of the
 * dialect being edited (its schema's, smp_context_dialect_key).
 */
#include <stdlib.h>
#include <string.h>

#include "lsp.h"

static struct lsp_doc *
doc_of(struct lsp_server *s, const struct smp_json_value *params,
       struct lsp_position *p)
{
	struct lsp_doc *d = lsp_doc_find(
		s, lsp_str(smp_json_get(params, "textDocument"), "uri"));

	if (!d || d->too_big || !d->text ||
	    lsp_read_position(smp_json_get(params, "position"), p))
		return NULL;
	return d;
}

/* Where a document's configuration is looked for: a cell's notebook. */
static const char *
path_of(const struct lsp_doc *d)
{
	return d->nb ? lsp_nb_path(d->nb) : d->path;
}

static int
word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '.' || c == '-' || c == '_' ||
	       c == '/';
}

/* The word around offset off (instance types, model ids), into out. */
static void
word_at(const struct lsp_doc *d, size_t off, char *out, size_t size,
	size_t *start)
{
	size_t a = off, z = off;

	while (a > 0 && word_char(d->text[a - 1]))
		a--;
	while (z < d->len && word_char(d->text[z]))
		z++;
	if (z - a >= size)
		z = a + size - 1;
	memcpy(out, d->text + a, z - a);
	out[z - a] = '\0';
	*start = a;
}

static void
hover_finding(struct lsp_buf *m, const struct smp_finding *f)
{
	const struct smp_rule_info *r = smp_rule_find(f->rule);

	lsp_buf_printf(m, "**%s** (%s)\n\n", f->rule,
		       smp_severity_name(f->severity));
	lsp_buf_str(m, f->message);
	if (f->fix) {
		lsp_buf_str(m, "\n\nFix: ");
		lsp_buf_str(m, f->fix);
	}
	if (r && r->explanation) {
		lsp_buf_str(m, "\n\n");
		lsp_buf_str(m, r->explanation);
	}
	if (r && r->source) {
		lsp_buf_str(m, "\n\nSource: ");
		lsp_buf_str(m, r->source);
	}
	lsp_buf_str(m, "\n\n");
}

static int
hover_instance(struct lsp_buf *m, const struct smp_context *ctx,
	       const char *word)
{
	struct smp_instance_info in;

	if (smp_context_instance(ctx, 0, word, &in, sizeof(in)) != 1)
		return 0;
	lsp_buf_printf(m, "**%s**: %d vCPUs, %.0f GiB memory\n\n", in.type,
		       in.vcpus, in.memory_gib);
	if (in.gpus)
		lsp_buf_printf(m, "- GPUs: %d x %s, %.0f GiB each\n", in.gpus,
			       in.gpu_model ? in.gpu_model : "GPU",
			       in.gpu_memory_gib);
	else
		lsp_buf_str(m, "- GPUs: none\n");
	lsp_buf_printf(m, "- EFA: %s\n", in.efa ? "yes" : "no");
	lsp_buf_printf(m, "- SageMaker Training Compiler: %s\n",
		       in.compiler_supported ? "supported" : "not supported");
	return 1;
}

static int
hover_model(struct lsp_buf *m, const struct smp_context *ctx, const char *word)
{
	struct smp_tested_info r;
	size_t n = smp_context_model_rows(ctx, word, 0, NULL, 0), i;

	if (n == 0)
		return 0;
	lsp_buf_printf(m, "**%s**: %zu tested row%s (AWS, Tested models)\n\n",
		       word, n, n == 1 ? "" : "s");
	lsp_buf_str(m, "| framework | instance | batch native | batch "
		       "compiler |\n|---|---|---|---|\n");
	for (i = 0; i < n && i < 20; i++) {
		smp_context_model_rows(ctx, word, i, &r, sizeof(r));
		lsp_buf_printf(m, "| %s %s%s%s | %s | %d | %d |\n", r.framework,
			       r.framework_version,
			       r.transformers_version ? " / transformers " : "",
			       r.transformers_version ? r.transformers_version
						      : "",
			       r.instance_type, r.native_batch_size,
			       r.compiler_batch_size);
	}
	return 1;
}

void
lsp_hover(struct lsp_server *s, const struct smp_json_value *id,
	  const struct smp_json_value *params)
{
	struct lsp_position p;
	struct lsp_doc *d = doc_of(s, params, &p);
	struct lsp_buf m = {0}, b = {0};
	const struct smp_context *ctx;
	char word[256];
	size_t i, start;

	if (!d) {
		lsp_send_result(s, id, "null");
		return;
	}
	/* a cell's findings are its notebook's: no finding hover there */
	lsp_doc_check(s, d);
	for (i = 0; !d->nb && i < smp_report_count(d->report); i++) {
		const struct smp_finding *f = smp_report_get(d->report, i);
		uint32_t last = (f->end_line ? f->end_line : f->line) - 1;

		if (!f->suppressed && f->line && p.line >= f->line - 1 &&
		    p.line <= last &&
		    (!f->file || strcmp(f->file, d->path) == 0))
			hover_finding(&m, f);
	}
	ctx = d->ctx ? d->ctx : lsp_config_context(s, path_of(d), NULL);
	word_at(d, lsp_offset(s, d->text, d->len, p), word, sizeof(word),
		&start);
	if (ctx && word[0] && !hover_instance(&m, ctx, word))
		hover_model(&m, ctx, word);
	if (!m.len) {
		lsp_send_result(s, id, "null");
		return;
	}
	lsp_result_open(&b, id);
	lsp_buf_str(&b, "{\"contents\":{\"kind\":\"markdown\",\"value\":");
	lsp_buf_json(&b, m.data);
	lsp_buf_str(&b, "}}}");
	lsp_send(s, &b);
	lsp_buf_free(&b);
	lsp_buf_free(&m);
}

static void
complete_instances(struct lsp_buf *b, const struct smp_context *ctx, size_t *n)
{
	struct smp_instance_info in;

	for (size_t i = 0;
	     smp_context_instance(ctx, i, NULL, &in, sizeof(in)) == 1; i++) {
		if (!in.gpus)
			continue; /* the compiler trains on GPUs */
		lsp_buf_str(b, *n ? ",{\"label\":" : "{\"label\":");
		lsp_buf_json(b, in.type);
		lsp_buf_printf(
			b, ",\"kind\":12,\"detail\":\"%d x %s GPU%s%s\"}",
			in.gpus, in.gpu_model ? in.gpu_model : "",
			in.efa ? ", EFA" : "",
			in.compiler_supported ? "" : ", no Training Compiler");
		(*n)++;
	}
}

static void
complete_keys(struct lsp_buf *b, const struct smp_context *ctx,
	      enum smp_dialect dialect, size_t *n)
{
	enum smp_dialect from = dialect, to = dialect, k;
	const char *key;

	if (dialect == SMP_DIALECT_AUTO) {
		from = SMP_DIALECT_ESTIMATOR;
		to = SMP_DIALECT_CREATE_TRAINING_JOB;
	}
	for (k = from; k <= to; k++) {
		for (size_t i = 0; (key = smp_context_dialect_key(ctx, k, i));
		     i++) {
			lsp_buf_str(b, *n ? ",{\"label\":" : "{\"label\":");
			lsp_buf_json(b, key);
			lsp_buf_str(b, ",\"kind\":10,\"detail\":");
			lsp_buf_json(b, smp_dialect_name(k));
			lsp_buf_str(b, "}");
			(*n)++;
		}
	}
}

/* 1 when s[0..n) holds w. */
static int
contains(const char *s, size_t n, const char *w)
{
	size_t k = strlen(w);

	for (size_t i = 0; i + k <= n; i++)
		if (memcmp(s + i, w, k) == 0)
			return 1;
	return 0;
}

/* 1 when the line before the cursor is a key being typed at the top
 * level: no indentation in YAML, one level (up to 4 spaces or a tab)
 * before its quote in JSON; no ':' yet. */
static int
at_top_key(const char *line, size_t n, int json)
{
	size_t i = 0;

	while (json && i < n && i < 4 && (line[i] == ' ' || line[i] == '\t'))
		i++;
	if (i < n && line[i] == '{')
		i++;
	if (i < n && line[i] == '"')
		i++;
	else if (json || (n && (line[0] == ' ' || line[0] == '\t')))
		return 0;
	for (; i < n; i++)
		if (!word_char(line[i]))
			return 0;
	return 1;
}

static int
ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* 1 for a YAML or JSON spec (keys are completed there, not in Python) */
static int
is_spec(const struct lsp_doc *d)
{
	return !d->nb &&
	       (ends_with(d->path, ".yaml") || ends_with(d->path, ".yml") ||
		ends_with(d->path, ".json"));
}

/* The dialect of the text, else (a key half typed does not parse) the
 * one it had when it last did. */
static enum smp_dialect
dialect_of(const struct smp_context *ctx, struct lsp_doc *d)
{
	enum smp_dialect k = smp_detect_dialect(ctx, d->path, d->text, d->len);

	if (k != SMP_DIALECT_AUTO)
		d->dialect = k;
	return d->dialect;
}

void
lsp_completion(struct lsp_server *s, const struct smp_json_value *id,
	       const struct smp_json_value *params)
{
	struct lsp_position p, bol;
	struct lsp_doc *d = doc_of(s, params, &p);
	const struct smp_context *ctx;
	struct lsp_buf b = {0};
	size_t off, from, n = 0;

	ctx = d ? lsp_config_context(s, path_of(d), NULL) : NULL;
	if (!d || !ctx) {
		lsp_send_result(s, id, "[]");
		return;
	}
	bol.line = p.line;
	bol.character = 0;
	from = lsp_offset(s, d->text, d->len, bol);
	off = lsp_offset(s, d->text, d->len, p);
	lsp_result_open(&b, id);
	lsp_buf_str(&b, "{\"isIncomplete\":false,\"items\":[");
	if (contains(d->text + from, off - from, "nstance") ||
	    contains(d->text + from, off - from, "ml."))
		complete_instances(&b, ctx, &n);
	else if (is_spec(d) && at_top_key(d->text + from, off - from,
					  ends_with(d->path, ".json")))
		complete_keys(&b, ctx, dialect_of(ctx, d), &n);
	lsp_buf_str(&b, "]}}");
	lsp_send(s, &b);
	lsp_buf_free(&b);
}
