/*
 * config_pyproject.c - the [tool.sm-preflight] table of a pyproject.toml,
 * read by a small, bounded reader of the TOML the table needs, and turned
 * into the YAML the library's smp_config_parse reads, line for line: the
 * Nth line of the YAML holds what the Nth line of the TOML did, so that
 * the library's errors point into the pyproject.toml (columns are mapped
 * back to the key or the value of their line).
 *
 * Read in the table: bare and quoted keys, basic and literal strings,
 * integers, booleans, arrays of those (over several lines, with comments
 * and a trailing comma), comments; one level of subtables
 * ([tool.sm-preflight.rules], [tool.sm-preflight.hyperparameters]).
 * Everything else in the table (dotted keys, inline tables, multi-line
 * strings, floats, dates, nested arrays) is an error naming the line.
 * Other tables are skipped: their strings (multi-line ones too), arrays
 * and inline tables are lexed only far enough to find the next header.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config_priv.h"

#define TABLE "tool.sm-preflight"
#define MAX_NESTING 64 /* arrays and inline tables of a skipped value */

struct toml {
	const char *s;
	size_t len, i;
	unsigned line; /* 1-based */
	size_t line_start;
	char *out; /* the YAML */
	size_t out_len, out_cap;
	struct cfg_toml_col *cols; /* per line */
	size_t ncols;
	struct cfg_toml_error *err;
	int oom;
};

static unsigned
column(const struct toml *t)
{
	return (unsigned)(t->i - t->line_start) + 1;
}

static int
fail(struct toml *t, const char *msg)
{
	if (t->err->message[0] == '\0') {
		t->err->line = t->line;
		t->err->column = column(t);
		snprintf(t->err->message, sizeof(t->err->message), "%s", msg);
	}
	return -1;
}

static int
put(struct toml *t, const char *s, size_t n)
{
	if (t->out_len + n + 1 > t->out_cap) {
		size_t cap = t->out_cap ? t->out_cap * 2 : 256;
		char *p;

		while (cap < t->out_len + n + 1)
			cap *= 2;
		p = realloc(t->out, cap);
		if (!p) {
			t->oom = 1;
			return -1;
		}
		t->out = p;
		t->out_cap = cap;
	}
	memcpy(t->out + t->out_len, s, n);
	t->out_len += n;
	t->out[t->out_len] = '\0';
	return 0;
}

static int
puts_(struct toml *t, const char *s)
{
	return put(t, s, strlen(s));
}

/* The column the next byte of the YAML's current line is at. */
static unsigned
out_column(const struct toml *t)
{
	size_t j = t->out_len;

	while (j > 0 && t->out[j - 1] != '\n')
		j--;
	return (unsigned)(t->out_len - j) + 1;
}

static int
peek(const struct toml *t)
{
	return t->i < t->len ? (unsigned char)t->s[t->i] : -1;
}

static int
starts(const struct toml *t, const char *p)
{
	size_t n = strlen(p);

	return t->len - t->i >= n && memcmp(t->s + t->i, p, n) == 0;
}

static void
blanks(struct toml *t)
{
	while (peek(t) == ' ' || peek(t) == '\t')
		t->i++;
}

/* A newline (LF or CRLF) at i: consumed, and the YAML gets one too. */
static int
newline(struct toml *t)
{
	if (starts(t, "\r\n"))
		t->i++;
	if (peek(t) != '\n')
		return 0;
	t->i++;
	t->line++;
	t->line_start = t->i;
	return put(t, "\n", 1) ? -1 : 1;
}

/* A comment at i, to the end of its line (not consumed). */
static void
comment(struct toml *t)
{
	if (peek(t) == '#')
		while (t->i < t->len && peek(t) != '\n' && !starts(t, "\r\n"))
			t->i++;
}

/* Blanks, comments and newlines inside an array of the table: counted
 * in *newlines, for the YAML to get after the array's line. */
static void
array_gap(struct toml *t, unsigned *newlines)
{
	for (;;) {
		blanks(t);
		comment(t);
		if (starts(t, "\r\n"))
			t->i++;
		if (peek(t) != '\n')
			return;
		t->i++;
		t->line++;
		t->line_start = t->i;
		(*newlines)++;
	}
}

/* Blanks and a comment, to the end of the line (not consumed). */
static int
line_end(struct toml *t)
{
	blanks(t);
	comment(t);
	if (t->i < t->len && peek(t) != '\n' && !starts(t, "\r\n"))
		return fail(t, "expected the end of the line");
	return 0;
}

/* ------------------------------------------------------------ strings */

/* A YAML double-quoted string of s[0..n). */
static int
put_quoted(struct toml *t, const char *s, size_t n)
{
	size_t k;

	if (put(t, "\"", 1))
		return -1;
	for (k = 0; k < n; k++) {
		unsigned char c = (unsigned char)s[k];
		char esc[8];

		if (c == '"' || c == '\\') {
			esc[0] = '\\';
			esc[1] = (char)c;
			if (put(t, esc, 2))
				return -1;
		} else if (c < 0x20 || c == 0x7f) {
			snprintf(esc, sizeof(esc), "\\x%02x", c);
			if (puts_(t, esc))
				return -1;
		} else if (put(t, s + k, 1)) {
			return -1;
		}
	}
	return put(t, "\"", 1);
}

static int
hex_value(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* UTF-8 of code point u into b (4 bytes); its length, 0 if invalid. */
static size_t
utf8(unsigned long u, char *b)
{
	if (u < 0x80) {
		b[0] = (char)u;
		return 1;
	}
	if (u < 0x800) {
		b[0] = (char)(0xc0 | (u >> 6));
		b[1] = (char)(0x80 | (u & 0x3f));
		return 2;
	}
	if ((u >= 0xd800 && u <= 0xdfff) || u > 0x10ffff)
		return 0;
	if (u < 0x10000) {
		b[0] = (char)(0xe0 | (u >> 12));
		b[1] = (char)(0x80 | ((u >> 6) & 0x3f));
		b[2] = (char)(0x80 | (u & 0x3f));
		return 3;
	}
	b[0] = (char)(0xf0 | (u >> 18));
	b[1] = (char)(0x80 | ((u >> 12) & 0x3f));
	b[2] = (char)(0x80 | ((u >> 6) & 0x3f));
	b[3] = (char)(0x80 | (u & 0x3f));
	return 4;
}

/*
 * A one-line basic ("...") or literal ('...') string at i: its bytes,
 * escapes decoded, into *val (malloc'd) and *n. Multi-line strings are
 * refused (only skip_string() passes over them).
 */
static int
read_string(struct toml *t, char **val, size_t *n)
{
	int quote = peek(t);
	char *b;
	size_t cap = 16, used = 0;

	if (starts(t, "\"\"\"") || starts(t, "'''"))
		return fail(t, "multi-line strings are not read in "
			       "[" TABLE "]; write the value on one line");
	b = malloc(cap);
	if (!b) {
		t->oom = 1;
		return -1;
	}
	t->i++;
	for (;;) {
		int c = peek(t);
		char enc[4];
		size_t m = 1;

		if (c < 0 || c == '\n' || c == '\r') {
			free(b);
			return fail(t, "the string does not end on its line");
		}
		t->i++;
		if (c == quote)
			break;
		enc[0] = (char)c;
		if (c == '\\' && quote == '"') {
			int e = peek(t);
			unsigned long u = 0;
			int k, digits = 0;

			t->i++;
			switch (e) {
			case 'b':
				enc[0] = '\b';
				break;
			case 't':
				enc[0] = '\t';
				break;
			case 'n':
				enc[0] = '\n';
				break;
			case 'f':
				enc[0] = '\f';
				break;
			case 'r':
				enc[0] = '\r';
				break;
			case '"':
				enc[0] = '"';
				break;
			case '\\':
				enc[0] = '\\';
				break;
			case 'u':
				digits = 4;
				break;
			case 'U':
				digits = 8;
				break;
			default:
				free(b);
				t->i--;
				return fail(t, "unknown escape in the string "
					       "(\\b \\t \\n \\f \\r \\\" \\\\ "
					       "\\uXXXX \\UXXXXXXXX)");
			}
			for (k = 0; k < digits; k++) {
				int h = hex_value(peek(t));

				if (h < 0) {
					free(b);
					return fail(t,
						    "'\\u' needs hex digits");
				}
				u = u * 16 + (unsigned long)h;
				t->i++;
			}
			if (digits) {
				m = utf8(u, enc);
				if (!m) {
					free(b);
					return fail(t, "the escape is no "
						       "Unicode scalar value");
				}
			}
		}
		if (used + m + 1 > cap) {
			char *p;

			cap *= 2;
			p = realloc(b, cap);
			if (!p) {
				free(b);
				t->oom = 1;
				return -1;
			}
			b = p;
		}
		memcpy(b + used, enc, m);
		used += m;
	}
	b[used] = '\0';
	*val = b;
	*n = used;
	return 0;
}

/* ---------------------------------------------------------- skipping */

/* Any string at i, multi-line ones too; the YAML gets their newlines. */
static int
skip_string(struct toml *t)
{
	int quote = peek(t);
	int multi = starts(t, "\"\"\"") || starts(t, "'''");
	const char *close = quote == '"' ? "\"\"\"" : "'''";

	t->i += multi ? 3 : 1;
	for (;;) {
		int c = peek(t), rc;

		if (c < 0)
			return fail(t, "a string does not end");
		if (multi && starts(t, close)) {
			t->i += 3;
			while (peek(t) == quote) /* up to two more quotes */
				t->i++;
			return 0;
		}
		if (!multi && c == quote) {
			t->i++;
			return 0;
		}
		rc = newline(t);
		if (rc < 0)
			return -1;
		if (rc > 0) {
			if (!multi)
				return fail(t, "a string does not end on its "
					       "line");
			continue;
		}
		if (c == '\\' && quote == '"' && t->i + 1 < t->len &&
		    t->s[t->i + 1] != '\n' && t->s[t->i + 1] != '\r')
			t->i++;
		t->i++;
	}
}

/* A value of another table: strings, arrays, inline tables, scalars. */
static int
skip_value(struct toml *t)
{
	int depth = 0;

	for (;;) {
		int c = peek(t), rc;

		if (c == '"' || c == '\'') {
			if (skip_string(t))
				return -1;
			continue;
		}
		if (c == '[' || c == '{') {
			if (++depth > MAX_NESTING)
				return fail(t, "values nest too deeply");
			t->i++;
			continue;
		}
		if (depth > 0 && (c == ']' || c == '}')) {
			depth--;
			t->i++;
			continue;
		}
		if (depth > 0 && c == '#') {
			comment(t);
			continue;
		}
		if (depth > 0) {
			if (c < 0)
				return fail(t, "an array or inline table does "
					       "not end");
			rc = newline(t);
			if (rc < 0)
				return -1;
			if (rc == 0)
				t->i++;
			continue;
		}
		/* at depth 0 the value ends with its line or a comment */
		if (c < 0 || c == '\n' || c == '\r' || c == '#')
			return 0;
		t->i++;
	}
}

/* ------------------------------------------------------------- keys */

static int
bare_char(int c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-';
}

/*
 * A key, dotted parts joined by '.', into *key (malloc'd); *parts is how
 * many there were. Unless any is set (another table's key), a quoted part
 * holding a '.' is refused (no key of the table holds one).
 */
static int
read_key(struct toml *t, char **key, int *parts, int any)
{
	char *k = NULL;
	size_t n = 0;

	*parts = 0;
	for (;;) {
		char *part = NULL;
		size_t m = 0, start;
		char *p;

		blanks(t);
		if (peek(t) == '"' || peek(t) == '\'') {
			if (read_string(t, &part, &m))
				goto bad;
			if (!any && memchr(part, '.', m)) {
				free(part);
				fail(t, "a quoted key holding '.' is not read");
				goto bad;
			}
		} else {
			start = t->i;
			while (bare_char(peek(t)))
				t->i++;
			if (t->i == start) {
				fail(t, "expected a key");
				goto bad;
			}
			m = t->i - start;
			part = malloc(m + 1);
			if (!part) {
				t->oom = 1;
				goto bad;
			}
			memcpy(part, t->s + start, m);
			part[m] = '\0';
		}
		p = realloc(k, n + m + 2);
		if (!p) {
			free(part);
			t->oom = 1;
			goto bad;
		}
		k = p;
		if (n)
			k[n++] = '.';
		memcpy(k + n, part, m);
		n += m;
		k[n] = '\0';
		free(part);
		(*parts)++;
		blanks(t);
		if (peek(t) != '.')
			break;
		t->i++;
	}
	*key = k;
	return 0;
bad:
	free(k);
	return -1;
}

/* -------------------------------------------------- the table's values */

/* One scalar of the table (a string, integer or boolean) as YAML. */
static int
put_scalar(struct toml *t)
{
	int c = peek(t);
	size_t start = t->i;

	if (c == '"' || c == '\'') {
		char *v;
		size_t n;
		int rc;

		if (read_string(t, &v, &n))
			return -1;
		rc = put_quoted(t, v, n);
		free(v);
		return rc;
	}
	if (starts(t, "true") &&
	    !bare_char(t->i + 4 < t->len ? (unsigned char)t->s[t->i + 4] : 0)) {
		t->i += 4;
		return puts_(t, "true");
	}
	if (starts(t, "false") &&
	    !bare_char(t->i + 5 < t->len ? (unsigned char)t->s[t->i + 5] : 0)) {
		t->i += 5;
		return puts_(t, "false");
	}
	if (c == '+' || c == '-')
		t->i++;
	while (peek(t) >= '0' && peek(t) <= '9')
		t->i++;
	if (t->i > start && t->s[t->i - 1] >= '0' && t->s[t->i - 1] <= '9' &&
	    !bare_char(peek(t)) && peek(t) != '.' && peek(t) != ':')
		return put(t, t->s + start, t->i - start);
	t->i = start;
	if (c == '{')
		return fail(t, "inline tables are not read in [" TABLE "]; "
			       "write a [" TABLE ".KEY] table");
	if (c == '[')
		return fail(t, "nested arrays are not read in [" TABLE "]");
	return fail(t, "expected a string, an integer, true, false or an "
		       "array of them");
}

/* An array of scalars, over several lines: one flow sequence in the
 * YAML's line of the key, then the lines it took. */
static int
put_array(struct toml *t)
{
	unsigned newlines = 0, k;
	int first = 1;

	t->i++; /* '[' */
	if (puts_(t, "["))
		return -1;
	for (;;) {
		int rc;

		/* newlines inside the array go after it */
		array_gap(t, &newlines);
		if (peek(t) == ']') {
			t->i++;
			break;
		}
		if (peek(t) < 0)
			return fail(t, "the array does not end");
		if (!first && puts_(t, ", "))
			return -1;
		rc = put_scalar(t);
		if (rc)
			return -1;
		first = 0;
		array_gap(t, &newlines);
		if (peek(t) == ',') {
			t->i++;
			continue;
		}
		if (peek(t) == ']') {
			t->i++;
			break;
		}
		return fail(t, "expected ',' or ']' in the array");
	}
	if (puts_(t, "]"))
		return -1;
	for (k = 0; k < newlines; k++)
		if (puts_(t, "\n"))
			return -1;
	return 0;
}

/* key = value of the table, as "key: value" in the YAML. */
static int
table_entry(struct toml *t, int nested)
{
	struct cfg_toml_col cm;
	unsigned line = t->line;
	char *key;
	int parts, rc;

	memset(&cm, 0, sizeof(cm));
	cm.toml_key = column(t);
	if (read_key(t, &key, &parts, 0))
		return -1;
	if (parts > 1) {
		t->i = t->line_start + cm.toml_key - 1;
		free(key);
		return fail(t, "dotted keys are not read in [" TABLE "]; "
			       "write a [" TABLE ".KEY] table");
	}
	blanks(t);
	if (peek(t) != '=') {
		free(key);
		return fail(t, "expected '=' after the key");
	}
	t->i++;
	blanks(t);
	cm.toml_value = column(t);
	rc = (nested && puts_(t, "  ")) || put_quoted(t, key, strlen(key)) ||
	     puts_(t, ": ");
	free(key);
	if (rc)
		return -1;
	cm.yaml_value = out_column(t);
	if (line <= t->ncols)
		t->cols[line - 1] = cm;
	if (peek(t) == '[')
		return put_array(t);
	return put_scalar(t);
}

/* ------------------------------------------------------------ headers */

/* A table header at i ('['): 0 another table, 1 ours, 2 a subtable of
 * ours (its name, malloc'd, in *sub). */
static int
header(struct toml *t, char **sub)
{
	int array = starts(t, "[[");
	char *name;
	int parts, rc = 0;
	size_t n = strlen(TABLE);

	*sub = NULL;
	t->i += array ? 2 : 1;
	if (read_key(t, &name, &parts, 1))
		return -1;
	blanks(t);
	if (!starts(t, array ? "]]" : "]")) {
		free(name);
		return fail(t, "expected ']' to end the table's name");
	}
	t->i += array ? 2 : 1;
	if (strncmp(name, TABLE, n) == 0 &&
	    (name[n] == '\0' || name[n] == '.')) {
		if (array) {
			rc = fail(t, "[[" TABLE "]] is an array of tables; "
				     "write [" TABLE "]");
		} else if (name[n] == '\0') {
			rc = 1;
		} else if (strchr(name + n + 1, '.')) {
			rc = fail(t, "tables below [" TABLE ".KEY] are not "
				     "read");
		} else {
			*sub = strdup(name + n + 1);
			rc = *sub ? 2 : -1;
			if (!*sub)
				t->oom = 1;
		}
	}
	free(name);
	return rc;
}

/* ---------------------------------------------------------- the file */

/* See config_priv.h. */
int
cfg_pyproject_yaml(const char *buf, size_t len, struct cfg_toml_yaml *out,
		   struct cfg_toml_error *err)
{
	struct toml t;
	int in = 0, found = 0, rc = 0;
	size_t k, lines = 1;

	memset(&t, 0, sizeof(t));
	memset(err, 0, sizeof(*err));
	memset(out, 0, sizeof(*out));
	t.s = buf;
	t.len = len;
	t.line = 1;
	t.err = err;
	for (k = 0; k < len; k++)
		lines += buf[k] == '\n';
	t.cols = calloc(lines, sizeof(*t.cols));
	if (!t.cols || put(&t, "", 0))
		goto oom;
	t.ncols = lines;
	if (len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0)
		t.i = t.line_start = 3;
	while (rc == 0 && t.i < t.len) {
		int c;

		blanks(&t);
		c = peek(&t);
		if (c == '#' || c == '\n' || c == '\r' || c < 0) {
			rc = line_end(&t);
		} else if (c == '[') {
			char *sub = NULL;
			int h = header(&t, &sub);

			if (h < 0) {
				rc = -1;
				break;
			}
			if (h == 1 && found == 1) {
				rc = fail(&t, "[" TABLE "] is defined twice");
				break;
			}
			if (h == 1)
				found = 1;
			if (h == 2) {
				found = found ? found : 2;
				rc = put_quoted(&t, sub, strlen(sub)) ||
				     puts_(&t, ":");
				free(sub);
			}
			in = h;
			if (rc == 0)
				rc = line_end(&t);
		} else if (in) {
			rc = table_entry(&t, in == 2);
			if (rc == 0)
				rc = line_end(&t);
		} else {
			char *key;
			int parts;

			rc = read_key(&t, &key, &parts, 1);
			if (rc == 0) {
				free(key);
				blanks(&t);
				if (peek(&t) != '=')
					rc = fail(&t, "expected '=' after the "
						      "key");
				else
					t.i++;
			}
			if (rc == 0) {
				blanks(&t);
				rc = skip_value(&t);
			}
			if (rc == 0)
				rc = line_end(&t);
		}
		if (rc == 0 && newline(&t) < 0)
			rc = -1;
	}
	if (t.oom)
		goto oom;
	if (rc) {
		free(t.out);
		free(t.cols);
		return CFG_TOML_ERROR;
	}
	if (!found) {
		free(t.out);
		free(t.cols);
		return CFG_TOML_NONE;
	}
	out->yaml = t.out;
	out->len = t.out_len;
	out->cols = t.cols;
	out->ncols = t.ncols;
	return CFG_TOML_OK;
oom:
	free(t.out);
	free(t.cols);
	return CFG_TOML_ENOMEM;
}

/* See config_priv.h. */
unsigned
cfg_pyproject_column(const struct cfg_toml_yaml *y, unsigned line,
		     unsigned column)
{
	const struct cfg_toml_col *c;

	if (line == 0 || line > y->ncols)
		return column;
	c = &y->cols[line - 1];
	if (!c->toml_key)
		return column;
	if (column >= c->yaml_value)
		return c->toml_value + (column - c->yaml_value);
	return c->toml_key;
}

void
cfg_pyproject_release(struct cfg_toml_yaml *y)
{
	free(y->yaml);
	free(y->cols);
	memset(y, 0, sizeof(*y));
}
