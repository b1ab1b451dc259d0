/*
 * edit_notebook.c - a fix in a Jupyter notebook: only the cell's source
 * string changes, re-escaped as JSON, and every other byte of the file
 * (outputs, metadata, execution counts, the JSON's own layout) stays.
 *
 * It needs nothing of the notebook loader but what every finding in a
 * notebook carries: its place in the notebook's JSON file (line and
 * column) and in its cell. There the finding's own literal starts; it is
 * read from the JSON string, checked to be the literal the job's node
 * holds (same value, same column in the cell, same length in the code)
 * and replaced as in a launcher (edit_python.c). A fix that is no
 * replacement of the finding's own literal stays a message.
 */
#include <string.h>

#include "util/buf.h"
#include "util/pos.h"
#include "emit/out.h"
#include "fix/edit_notebook.h"
#include "fix/edit_python.h"

/* Literals longer than this are not what fixes replace. */
#define TOKEN_MAX 256

/* The byte offset of line:column (column in code points) in buf. */
static size_t
offset_of(const char *buf, size_t len, uint32_t line, uint32_t column)
{
	size_t p = smp__line_start(buf, len, line);
	uint32_t c;

	for (c = 1; c < column && p < len && buf[p] != '\n'; c++) {
		p++;
		while (p < len && ((unsigned char)buf[p] & 0xC0) == 0x80)
			p++;
	}
	return p;
}

/*
 * Decodes the JSON string text from buf[p] on into out (at most cap - 1
 * bytes), one byte of the code per entry of at[] (its JSON offset, and
 * at[n] the offset after the last), stopping at the string's end, at a
 * line break or when stop(out, n) says the token is complete. Returns n,
 * or -1 for an escape it does not decode (\u: the token is left alone).
 */
static long
decode(const char *buf, size_t len, size_t p, char *out, size_t *at, size_t cap)
{
	size_t n = 0;
	char q = 0;

	while (p < len && n + 1 < cap && buf[p] != '"') {
		char c = buf[p];
		size_t from = p;

		if (c == '\\') {
			if (p + 1 >= len)
				return -1;
			c = buf[p + 1];
			if (c == 'n')
				break;
			if (c != '"' && c != '\\' && c != '/')
				return -1;
			p += 2;
		} else
			p++;
		/* a token: a quoted string to its quote, else a word */
		if (n == 0 && (c == '"' || c == '\''))
			q = c;
		else if (!q &&
			 !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			   (c >= '0' && c <= '9') || c == '.' || c == '_' ||
			   c == '-' || c == '+')) {
			p = from;
			break;
		}
		at[n] = from;
		out[n++] = c;
		if (q && n > 1 && c == q)
			break;
	}
	at[n] = p;
	out[n] = '\0';
	return (long)n;
}

/* The node at f's pointer in one of the jobs, at f's column in the cell,
 * spanning n bytes of code, or NULL. */
static const struct smp_node *
node_of(const struct smp_docs *docs, const struct smp_finding *f, size_t n)
{
	size_t i;

	for (i = 0; i < docs->count; i++) {
		int unknown = 0;
		const struct smp_node *node = smp__node_at_pointer(
			docs->items[i].root, f->pointer, &unknown);

		if (node && !unknown && node->kind == SMP_NODE_SCALAR &&
		    node->start.column == f->cell_column &&
		    node->end.offset - node->start.offset == n)
			return node;
	}
	return NULL;
}

/*
 * 1 when JSON offset p is in a source line that is an IPython `%env
 * NAME=VALUE` magic: the value there is the line's own text, not a Python
 * literal (script/ipython.c reads it so).
 */
static int
on_env_magic(const char *buf, size_t p)
{
	size_t q = p;

	/* back to the opening quote of the JSON string holding p */
	while (q > 0 && !(buf[q - 1] == '"' && (q < 2 || buf[q - 2] != '\\')))
		q--;
	while (buf[q] == ' ' || buf[q] == '\t')
		q++;
	return strncmp(buf + q, "%env", 4) == 0 &&
	       (buf[q + 4] == ' ' || buf[q + 4] == '\t');
}

/* A %env value: one bare word, or no fix (1). */
static int
env_value(struct smp_buf *b, const struct smp_finding *f)
{
	const char *v = f->suggestion;

	if (f->suggestion_type != SMP_VALUE_STRING || !v || !*v ||
	    v[strcspn(v, " \t\r\n\"'$\\")] != '\0')
		return 1;
	smp__buf_adds(b, v);
	return 0;
}

static int
buf_write(void *ud, const char *data, size_t len)
{
	return smp__buf_add(ud, data, len) != 0;
}

/* See edit_notebook.h. */
int
smp__nb_edit(struct smp_fix_edit *e, struct smp_fix_edit *code,
	     struct smp_arena *arena, const char *buf, size_t len,
	     const struct smp_docs *docs, const struct smp_finding *f)
{
	char tok[TOKEN_MAX];
	size_t at[TOKEN_MAX];
	struct smp_node lit;
	const struct smp_node *node;
	struct smp_buf py, js;
	struct smp__out o;
	long n;
	int rc;

	if (f->suggestion_op != SMP_SUGGESTION_SET || !f->pointer ||
	    !f->suggestion_pointer ||
	    strcmp(f->pointer, f->suggestion_pointer) != 0 || !f->line ||
	    !f->cell_column)
		return 1;
	n = decode(buf, len, offset_of(buf, len, f->line, f->column), tok, at,
		   sizeof(tok));
	if (n <= 0)
		return 1;
	node = node_of(docs, f, (size_t)n);
	if (!node)
		return 1;
	/* the literal read from the JSON is the job's value */
	memset(&lit, 0, sizeof(lit));
	lit.kind = SMP_NODE_SCALAR;
	lit.end.offset = (size_t)n;
	if (tok[0] == '"' || tok[0] == '\'') {
		if (n < 2 || node->u.scalar.len != (size_t)n - 2 ||
		    memcmp(node->u.scalar.value, tok + 1, (size_t)n - 2) != 0)
			return 1;
	} else if (node->u.scalar.len != (size_t)n ||
		   memcmp(node->u.scalar.value, tok, (size_t)n) != 0) {
		/* True and False are read as true and false */
		if (!((strcmp(tok, "True") == 0 &&
		       smp__scalar_bool(node) == 1) ||
		      (strcmp(tok, "False") == 0 &&
		       smp__scalar_bool(node) == 0)))
			return 1;
	}
	smp__buf_init(&py, arena->alloc, TOKEN_MAX);
	rc = on_env_magic(buf, offset_of(buf, len, f->line, f->column))
		     ? env_value(&py, f)
		     : smp__py_set(&py, tok, &lit, f);
	if (rc || smp__buf_error(&py)) {
		smp__buf_free(&py);
		return rc ? rc : SMP_ENOMEM;
	}
	/* the Python text as the body of the JSON string */
	smp__buf_init(&js, arena->alloc, SMP_BUF_NO_MAX);
	smp__out_init(&o, buf_write, &js);
	smp__out_json_string_body(&o, py.data);
	smp__out_flush(&o);
	smp__buf_free(&py);
	if (smp__buf_error(&js)) {
		smp__buf_free(&js);
		return SMP_ENOMEM;
	}
	e->start = at[0];
	e->end = at[n];
	code->start = node->start.offset;
	code->end = node->end.offset;
	e->text = smp__arena_strndup(arena, js.data ? js.data : "", js.len);
	e->text_len = js.len;
	smp__buf_free(&js);
	if (!e->text)
		return SMP_ENOMEM;
	return e->end - e->start == e->text_len &&
			       memcmp(buf + e->start, e->text, e->text_len) == 0
		       ? 1
		       : 0;
}
