/*
 * ipython.c - a code cell's IPython syntax as Python of the same length
 * (see ipython.h). One pass over the lines, with just enough of Python's
 * lexical state (open brackets, an open string, a backslash at the end
 * of the line) to know where a statement starts: IPython transforms a
 * line only there, and so does this pass.
 */
#include <string.h>

#include "script/ipython.h"
#include "util/alloc.h"

/* Python's lexical state at a line's start. */
struct pystate {
	char quote;   /* the open string's quote, or 0 */
	int triple;   /* it is a triple-quoted string */
	size_t depth; /* open brackets */
	int cont;     /* the line before ended in a backslash */
};

/* The bodies of these cell magics are Python: IPython runs them. */
static const char *const python_bodies[] = {"time", "timeit", "capture",
					    "prun"};

/* IPython's default shell aliases and the magics most run without '%'
 * (automagic): a line "rm -rf $DIR" is the alias, not Python. */
static const char *const automagics[] = {"cat", "cd", "conda", "cp",
					 "ll",  "ls", "mkdir", "mv",
					 "pip", "rm", "rmdir"};

void
smp__ipy_init(struct smp_ipy *ipy, const struct smp_allocator *alloc)
{
	memset(ipy, 0, sizeof(*ipy));
	ipy->alloc = alloc;
}

void
smp__ipy_free(struct smp_ipy *ipy)
{
	if (!ipy)
		return;
	smp__free(ipy->alloc, ipy->events);
	ipy->events = NULL;
	ipy->count = ipy->cap = 0;
}

static int
is_word(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || (unsigned char)c >= 0x80;
}

static int
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\f' || c == '\r';
}

/* The end of the line that holds i: its '\n', or len. */
static size_t
line_end(const char *s, size_t len, size_t i)
{
	const char *nl = i < len ? memchr(s + i, '\n', len - i) : NULL;

	return nl ? (size_t)(nl - s) : len;
}

/* The line [i, e) ends in a backslash (trailing blanks aside). */
static int
ends_in_backslash(const char *s, size_t i, size_t e)
{
	while (e > i && is_blank(s[e - 1]))
		e--;
	return e > i && s[e - 1] == '\\';
}

/* Blanks out[from, to) to spaces, newlines kept. */
static void
blank(char *out, size_t from, size_t to)
{
	for (; from < to; from++)
		if (out[from] != '\n')
			out[from] = ' ';
}

/* The end of the logical line that starts on the line holding i: the
 * '\n' (or len) of the last line, lines ending in '\' continued. */
static size_t
logical_end(const char *s, size_t len, size_t i)
{
	size_t e = line_end(s, len, i);

	while (e < len && ends_in_backslash(s, i, e)) {
		i = e + 1;
		e = line_end(s, len, i);
	}
	return e;
}

/*
 * Reads the Python line [i, e) into st. Returns the offset just past its
 * last character that is neither blank nor in a comment, or i.
 */
static size_t
scan_line(struct pystate *st, const char *s, size_t i, size_t e)
{
	size_t last = i;

	st->cont = 0;
	while (i < e) {
		char c = s[i];

		if (st->quote) {
			if (c == '\\') {
				i += 2;
				continue;
			}
			if (c == st->quote &&
			    (!st->triple ||
			     (i + 2 < e && s[i + 1] == c && s[i + 2] == c))) {
				i += st->triple ? 3 : 1;
				st->quote = 0;
				last = i;
				continue;
			}
			i++;
			continue;
		}
		if (c == '#')
			break;
		if (c == '\'' || c == '"') {
			st->triple =
				i + 2 < e && s[i + 1] == c && s[i + 2] == c;
			st->quote = c;
			i += st->triple ? 3 : 1;
			continue;
		}
		if (c == '(' || c == '[' || c == '{')
			st->depth++;
		else if ((c == ')' || c == ']' || c == '}') && st->depth)
			st->depth--;
		if (!is_blank(c))
			last = i + 1;
		i++;
	}
	if (st->quote && !st->triple) {
		/* a one-line string ends with its line, unless continued */
		if (!(e > 0 && i == e + 1 && s[e - 1] == '\\'))
			st->quote = 0;
	} else if (!st->quote &&
		   ends_in_backslash(s, last ? last - 1 : 0, last)) {
		st->cont = 1;
	}
	return last;
}

static int
add_event(struct smp_ipy *ipy, const struct smp_ipy_event *ev)
{
	if (smp__grow(ipy->alloc, (void **)&ipy->events, &ipy->cap,
		      ipy->count + 1, sizeof(*ipy->events)))
		return SMP_ENOMEM;
	ipy->events[ipy->count++] = *ev;
	return 0;
}

/* [*from, *to) without the blanks at either end. */
static void
trim(const char *s, size_t *from, size_t *to)
{
	while (*from < *to && is_blank(s[*from]))
		(*from)++;
	while (*to > *from && is_blank(s[*to - 1]))
		(*to)--;
}

/*
 * %env: the arguments [a, e) as IPython's env magic splits them: at the
 * first '=' when there is one, else at the first blank; one word alone
 * only reads the variable (no event).
 */
static int
env_event(struct smp_ipy *ipy, const char *s, size_t at, size_t a, size_t e)
{
	struct smp_ipy_event ev;
	size_t k, n0, n1, v0, v1;
	const char *eq;

	trim(s, &a, &e);
	eq = a < e ? memchr(s + a, '=', e - a) : NULL;
	if (eq) {
		k = (size_t)(eq - s);
	} else {
		for (k = a; k < e && !is_blank(s[k]); k++)
			;
		if (k == e)
			return 0;
	}
	n0 = a;
	n1 = k;
	v0 = k + 1;
	v1 = e;
	trim(s, &n0, &n1);
	trim(s, &v0, &v1);
	if (n0 == n1)
		return 0;
	memset(&ev, 0, sizeof(ev));
	ev.kind = SMP_IPY_ENV;
	ev.at = at;
	ev.name = n0;
	ev.name_len = n1 - n0;
	ev.value = v0;
	ev.value_len = v1 - v0;
	return add_event(ipy, &ev);
}

/* A word w at s[i..e) followed by a blank or the end. */
static int
word_at(const char *s, size_t i, size_t e, const char *w)
{
	size_t n = strlen(w);

	return e - i >= n && memcmp(s + i, w, n) == 0 &&
	       (i + n == e || !is_word(s[i + n]));
}

/*
 * x = !cmd, a, b = %sx cmd: the offset of the '!' or '%' after the
 * targets (names, dotted, comma-separated) and the '=', or 0.
 */
static size_t
assigned_escape(const char *s, size_t i, size_t e)
{
	size_t k = i;
	int names = 0;

	for (;;) {
		size_t w = k;

		while (k < e && (is_word(s[k]) || s[k] == '.'))
			k++;
		if (k == w)
			return 0;
		names++;
		while (k < e && is_blank(s[k]))
			k++;
		if (k < e && s[k] == ',') {
			k++;
			while (k < e && is_blank(s[k]))
				k++;
			continue;
		}
		break;
	}
	if (!names || k + 1 >= e || s[k] != '=' || s[k + 1] == '=')
		return 0;
	for (k++; k < e && is_blank(s[k]); k++)
		;
	return k < e && (s[k] == '!' || s[k] == '%') ? k : 0;
}

/*
 * An alias or magic named without '%' at k, with arguments that cannot
 * continue a Python expression: "rm -rf x", "pip install x", "cd dir".
 * A name followed by an operator, a bracket, a dot or '=' is Python.
 */
static int
automagic(const char *s, size_t k, size_t e)
{
	size_t n = k, j, a;

	while (n < e && is_word(s[n]))
		n++;
	if (n == k || n >= e || !is_blank(s[n]))
		return 0;
	for (a = n; a < e && is_blank(s[a]); a++)
		;
	if (a == e || strchr("=([{.,:;+*/%<>&|^!~#'\"@", s[a]) ||
	    (s[a] == '-' && a + 1 < e &&
	     (is_blank(s[a + 1]) || s[a + 1] == '=')))
		return 0;
	for (j = 0; j < sizeof(automagics) / sizeof(*automagics); j++)
		if (n - k == strlen(automagics[j]) &&
		    memcmp(s + k, automagics[j], n - k) == 0)
			return 1;
	return 0;
}

/*
 * A line that starts a statement at k (its first non-blank byte, of the
 * line [i, e)): an IPython construct is rewritten in out and the offset
 * past it returned; a Python line returns 0.
 */
static size_t
statement(struct smp_ipy *ipy, const char *s, size_t len, char *out, size_t i,
	  size_t k, int *rc)
{
	size_t e = line_end(s, len, i), q, end;
	char c = s[k];

	(void)i;
	if (c == '!' || c == '%') {
		end = logical_end(s, len, k);
		if (c == '%' && (word_at(s, k + 1, e, "env") ||
				 word_at(s, k + 1, e, "set_env")))
			*rc = env_event(ipy, s, k,
					k + (s[k + 1] == 'e' ? 4 : 8), e);
		blank(out, k, end);
		if (k > i)
			out[k] = '0'; /* a statement still, in its block */
		return end;
	}
	if (c == '?' || ((c == '/' || c == ',' || c == ';') && k + 1 < e &&
			 is_word(s[k + 1]))) {
		end = logical_end(s, len, k);
		blank(out, k, end);
		if (k > i)
			out[k] = '0';
		return end;
	}
	if (automagic(s, k, e)) {
		end = logical_end(s, len, k);
		blank(out, k, end);
		if (k > i)
			out[k] = '0';
		return end;
	}
	q = assigned_escape(s, k, e);
	if (q) {
		end = logical_end(s, len, k);
		blank(out, q, end);
		out[q] = '_'; /* bound to nothing: an unknown value */
		return end;
	}
	return 0;
}

/*
 * A cell magic on the first line [k, e): its body is Python (returns
 * e), or not (the rest of the cell is blanked; returns len). %%writefile
 * is an event.
 */
static size_t
cell_magic(struct smp_ipy *ipy, const char *s, size_t len, char *out, size_t k,
	   int *rc)
{
	size_t e = line_end(s, len, k), w = k + 2, n, j;

	for (n = w; n < e && is_word(s[n]); n++)
		;
	blank(out, k, e);
	for (j = 0; j < sizeof(python_bodies) / sizeof(*python_bodies); j++)
		if (n - w == strlen(python_bodies[j]) &&
		    memcmp(s + w, python_bodies[j], n - w) == 0)
			return e;
	if (n - w == 9 && memcmp(s + w, "writefile", 9) == 0) {
		struct smp_ipy_event ev;
		size_t a = n, b;

		memset(&ev, 0, sizeof(ev));
		ev.kind = SMP_IPY_WRITEFILE;
		ev.at = k;
		for (;;) {
			while (a < e && is_blank(s[a]))
				a++;
			for (b = a; b < e && !is_blank(s[b]); b++)
				;
			if ((b - a == 2 && memcmp(s + a, "-a", 2) == 0) ||
			    (b - a == 8 && memcmp(s + a, "--append", 8) == 0)) {
				ev.append = 1;
				a = b;
				continue;
			}
			break;
		}
		b = e;
		trim(s, &a, &b);
		if (b - a >= 2 && (s[a] == '"' || s[a] == '\'') &&
		    s[b - 1] == s[a]) {
			a++;
			b--;
		}
		if (b > a) {
			ev.name = a;
			ev.name_len = b - a;
			ev.value = e < len ? e + 1 : len;
			ev.value_len = len - ev.value;
			*rc = add_event(ipy, &ev);
		}
	}
	blank(out, e, len);
	return len;
}

int
smp__ipython(struct smp_ipy *ipy, const char *src, size_t len, char *out)
{
	struct pystate st;
	size_t i = 0, k;
	int rc = 0;

	if (!ipy || (!src && len) || (!out && len))
		return SMP_EINVAL;
	if (!len)
		return 0;
	memcpy(out, src, len);
	memset(&st, 0, sizeof(st));
	/* a cell magic is the first line that is not blank */
	for (k = 0; k < len && (is_blank(src[k]) || src[k] == '\n'); k++)
		;
	if (k + 1 < len && src[k] == '%' && src[k + 1] == '%' &&
	    (k == 0 || src[k - 1] == '\n')) {
		i = cell_magic(ipy, src, len, out, k, &rc);
		i = i < len ? i + 1 : len;
	}
	while (i < len && rc == 0) {
		size_t e = line_end(src, len, i), next = 0, last;

		if (!st.quote && !st.depth && !st.cont) {
			for (k = i; k < e && is_blank(src[k]); k++)
				;
			if (k < e)
				next = statement(ipy, src, len, out, i, k, &rc);
			if (next) {
				i = next < len ? next + 1 : len;
				continue;
			}
			last = scan_line(&st, src, k, e);
			/* help at the end: obj? or obj?? on its own line */
			if (!st.quote && !st.depth && !st.cont && last > k &&
			    src[last - 1] == '?') {
				blank(out, k, last);
				if (k > i)
					out[k] = '0';
			}
		} else {
			scan_line(&st, src, i, e);
		}
		i = e < len ? e + 1 : len;
	}
	return rc;
}
