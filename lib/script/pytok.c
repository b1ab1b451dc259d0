/*
 * pytok.c - the Python tokenizer (see pytok.h). Modelled on CPython's
 * tokenizer where it matters for finding code: string prefixes and
 * quoting, f-string replacement fields (nested strings inside them do not
 * end the f-string), comments, continuations and indentation. Where
 * CPython would raise a SyntaxError this goes on with the smallest
 * damage: an unterminated single-quoted string ends at its line.
 */
#include <string.h>

#include "script/pytok.h"

/* Mode stack of one f-string: replacement fields and format specs. */
#define MAX_MODES 4
enum { MODE_EXPR = 1, MODE_SPEC = 2 };

struct frame {
	char quote;
	unsigned char triple;
	unsigned char format;
	unsigned char nmode;
	unsigned char mode[MAX_MODES];
	unsigned short brackets[MAX_MODES]; /* open ( [ { in an EXPR */
};

static int
is_nl(unsigned char c)
{
	return c == '\n' || c == '\r';
}

static int
is_name_start(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       c >= 0x80;
}

static int
is_name_char(unsigned char c)
{
	return is_name_start(c) || (c >= '0' && c <= '9');
}

static int
is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static unsigned char
at(const struct smp_pytok_state *s, size_t i)
{
	return i < s->len ? (unsigned char)s->buf[i] : 0;
}

/* One byte forward (CRLF as one step), keeping line and column. */
static void
adv(struct smp_pytok_state *s)
{
	unsigned char c = (unsigned char)s->buf[s->pos];

	if (c == '\n' || c == '\r') {
		s->pos += c == '\r' && at(s, s->pos + 1) == '\n' ? 2 : 1;
		s->line++;
		s->column = 1;
		return;
	}
	if ((c & 0xC0) != 0x80)
		s->column++;
	s->pos++;
}

/*
 * Bytes that end no line, from s->pos while their class is in `want`
 * (SKIP_* bits): one step each, the columns counting code points (a
 * UTF-8 continuation byte adds none). The runs of names, blanks,
 * comments and string text go this way instead of adv()'s.
 */
enum { SKIP_NAME = 1, SKIP_BLANK = 2, SKIP_LINE = 4 };

/* The SKIP_* class of every byte. */
#define N SKIP_NAME
#define B SKIP_BLANK
#define L SKIP_LINE
static const unsigned char byte_class[256] = {
	L,     L,     L,     L,     L,     L,     L,     L,     L,     B | L,
	0,     L,     B | L, 0,     L,     L,     L,     L,     L,     L,
	L,     L,     L,     L,     L,     L,     L,     L,     L,     L,
	L,     L,     B | L, L,     L,     L,     L,     L,     L,     L,
	L,     L,     L,     L,     L,     L,     L,     L,     N | L, N | L,
	N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L, L,     L,
	L,     L,     L,     L,     L,     N | L, N | L, N | L, N | L, N | L,
	N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L,
	N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L,
	N | L, L,     L,     L,     L,     N | L, L,     N | L, N | L, N | L,
	N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L,
	N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L,
	N | L, N | L, N | L, L,     L,     L,     L,     L,     N | L, N | L,
	N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L,
	N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L,
	N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L,
	N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L,
	N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L,
	N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L,
	N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L,
	N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L,
	N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L,
	N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L,
	N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L,
	N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L, N | L,
	N | L, N | L, N | L, N | L, N | L, N | L,
};
#undef N
#undef B
#undef L

/* The columns of p[0..n): its code points (a UTF-8 continuation byte
 * adds none); `any` is the bytes or-ed, to skip the count for ASCII. */
static uint32_t
columns(const unsigned char *p, size_t n, unsigned char any)
{
	uint32_t col = (uint32_t)n;
	size_t k;

	if (any & 0x80)
		for (k = 0; k < n; k++)
			col -= (p[k] & 0xC0) == 0x80;
	return col;
}

static inline void
skip_run(struct smp_pytok_state *s, unsigned want)
{
	const unsigned char *p = (const unsigned char *)s->buf + s->pos;
	const unsigned char *e = (const unsigned char *)s->buf + s->len;
	const unsigned char *from = p;
	unsigned char any = 0;

	while (p < e && (byte_class[*p] & want))
		any |= *p++;
	s->column += columns(from, (size_t)(p - from), any);
	s->pos = (size_t)(p - (const unsigned char *)s->buf);
}

static void
here(const struct smp_pytok_state *s, struct smp_pos *p)
{
	p->line = s->line;
	p->column = s->column;
	p->offset = s->pos;
}

static void
begin(const struct smp_pytok_state *s, struct smp_pytok *t,
      enum smp_pytok_kind kind)
{
	t->kind = kind;
	t->flags = 0;
	t->off = s->pos;
	t->depth = s->depth;
	here(s, &t->start);
}

static void
finish(const struct smp_pytok_state *s, struct smp_pytok *t)
{
	t->len = s->pos - t->off;
	here(s, &t->end);
}

/* An empty token (NEWLINE at the end, INDENT, DEDENT, END). */
static void
empty(const struct smp_pytok_state *s, struct smp_pytok *t,
      enum smp_pytok_kind kind)
{
	begin(s, t, kind);
	finish(s, t);
}

void
smp__pytok_init(struct smp_pytok_state *s, const char *buf, size_t len)
{
	memset(s, 0, sizeof(*s));
	s->buf = buf ? buf : "";
	s->len = buf ? len : 0;
	s->line = 1;
	s->column = 1;
	s->at_line_start = 1;
}

void
smp__pytok_init_at(struct smp_pytok_state *s, const char *buf, size_t len,
		   const struct smp_pos *pos)
{
	smp__pytok_init(s, buf, len);
	if (pos->offset <= s->len) {
		s->pos = pos->offset;
		s->line = pos->line;
		s->column = pos->column;
	}
	s->at_line_start = 0;
	s->line_has_token = 1;
}

/* String prefix flags of name[0..n), or -1 when it is no prefix. */
static int
prefix_flags(const char *name, size_t n)
{
	unsigned int f = 0;
	size_t i;

	if (n == 0 || n > 2)
		return -1;
	for (i = 0; i < n; i++) {
		unsigned int bit;

		switch (name[i]) {
		case 'r':
		case 'R':
			bit = SMP_PYSTR_RAW;
			break;
		case 'b':
		case 'B':
			bit = SMP_PYSTR_BYTES;
			break;
		case 'f':
		case 'F':
			bit = SMP_PYSTR_FORMAT;
			break;
		case 'u':
		case 'U':
			if (n != 1)
				return -1; /* u combines with nothing */
			bit = 0;
			break;
		default:
			return -1;
		}
		if (f & bit)
			return -1;
		f |= bit;
	}
	if ((f & SMP_PYSTR_BYTES) && (f & SMP_PYSTR_FORMAT))
		return -1;
	return (int)f;
}

/* Consumes the quote(s) opening a string at s->pos into frame fr. */
static void
open_frame(struct smp_pytok_state *s, struct frame *fr, int format)
{
	char q = s->buf[s->pos];

	memset(fr, 0, sizeof(*fr));
	fr->quote = q;
	fr->format = (unsigned char)format;
	if (at(s, s->pos + 1) == (unsigned char)q &&
	    at(s, s->pos + 2) == (unsigned char)q) {
		fr->triple = 1;
		adv(s);
		adv(s);
	}
	adv(s);
}

/* A nested string inside a replacement field: is it an f-string? */
static int
nested_is_format(const struct smp_pytok_state *s, size_t quote, size_t from)
{
	size_t b = quote;
	int f;

	while (b > from && quote - b < 2 &&
	       is_name_char((unsigned char)s->buf[b - 1]))
		b--;
	if (b > from && is_name_char((unsigned char)s->buf[b - 1]))
		return 0; /* part of a longer name: no prefix */
	f = prefix_flags(s->buf + b, quote - b);
	return f > 0 && (f & SMP_PYSTR_FORMAT);
}

/*
 * One byte of a string's literal part (or of a format spec). Returns 1
 * when the innermost frame ended (closed or unterminated).
 */
static int
literal_step(struct smp_pytok_state *s, struct frame *fr, int *unterminated)
{
	unsigned char c = (unsigned char)s->buf[s->pos];

	if (c == '\\') {
		/* escapes (even in raw strings) keep the next char, quote or
		 * newline included, from ending the string */
		adv(s);
		if (s->pos < s->len)
			adv(s);
		return 0;
	}
	if (is_nl(c) && !fr->triple) {
		*unterminated = 1;
		return 1;
	}
	if (c == (unsigned char)fr->quote) {
		if (!fr->triple) {
			adv(s);
			return 1;
		}
		if (at(s, s->pos + 1) == c && at(s, s->pos + 2) == c) {
			adv(s);
			adv(s);
			adv(s);
			return 1;
		}
		adv(s);
		return 0;
	}
	if (fr->format && c == '{') {
		if (fr->nmode == 0 && at(s, s->pos + 1) == '{') {
			adv(s);
			adv(s);
			return 0;
		}
		if (fr->nmode < MAX_MODES) {
			fr->mode[fr->nmode] = MODE_EXPR;
			fr->brackets[fr->nmode] = 0;
			fr->nmode++;
		}
		adv(s);
		return 0;
	}
	if (fr->format && c == '}') {
		if (fr->nmode == 0) {
			adv(s);
			if (at(s, s->pos) == '}')
				adv(s);
			return 0;
		}
		fr->nmode--; /* the end of a field whose spec this was */
		adv(s);
		return 0;
	}
	adv(s);
	return 0;
}

/* One byte of a replacement field's expression. */
static void
expr_step(struct smp_pytok_state *s, struct frame *fr)
{
	unsigned char c = (unsigned char)s->buf[s->pos];
	unsigned int m = fr->nmode - 1u;

	switch (c) {
	case '#': /* a comment (Python 3.12) runs to the end of the line */
		skip_run(s, SKIP_LINE);
		return;
	case '(':
	case '[':
	case '{':
		if (fr->brackets[m] < 0xFFFF)
			fr->brackets[m]++;
		break;
	case ')':
	case ']':
		if (fr->brackets[m])
			fr->brackets[m]--;
		break;
	case '}':
		if (fr->brackets[m])
			fr->brackets[m]--;
		else
			fr->nmode--;
		break;
	case ':':
		if (fr->brackets[m] == 0)
			fr->mode[m] = MODE_SPEC;
		break;
	default:
		break;
	}
	adv(s);
}

/*
 * Past the bytes of a string's literal part that need no literal_step():
 * not its quote, a backslash, a line end, or a brace of an f-string.
 * Returns 1 at the end of the input.
 */
static int
plain_text(struct smp_pytok_state *s, const struct frame *fr)
{
	const unsigned char *p = (const unsigned char *)s->buf + s->pos;
	const unsigned char *e = (const unsigned char *)s->buf + s->len;
	const unsigned char *from = p;
	unsigned char q = (unsigned char)fr->quote, any = 0;

	while (p < e) {
		unsigned char c = *p;

		if (c == q || c == '\\' || c == '\n' || c == '\r' ||
		    (fr->format && (c == '{' || c == '}')))
			break;
		any |= c;
		p++;
	}
	s->column += columns(from, (size_t)(p - from), any);
	s->pos = (size_t)(p - (const unsigned char *)s->buf);
	return p == e;
}

/*
 * A string from its opening quote at s->pos: the frames stack nested
 * strings inside f-string replacement fields. Sets UNTERMINATED when the
 * outermost string does not close.
 */
/*
 * A string that is no f-string, from its opening quote: what
 * scan_string() does with one frame and no fields, without the frames.
 */
static void
scan_plain_string(struct smp_pytok_state *s, struct smp_pytok *t,
		  unsigned int flags)
{
	struct frame fr;
	unsigned char q = (unsigned char)s->buf[s->pos];
	int triple = at(s, s->pos + 1) == q && at(s, s->pos + 2) == q;

	/* the quotes are ASCII on one line */
	s->pos += triple ? 3 : 1;
	s->column += triple ? 3 : 1;
	memset(&fr, 0, sizeof(fr));
	fr.quote = (char)q;
	if (triple)
		flags |= SMP_PYSTR_TRIPLE;
	for (;;) {
		unsigned char c;

		if (plain_text(s, &fr)) {
			flags |= SMP_PYSTR_UNTERMINATED; /* the input ended */
			break;
		}
		c = (unsigned char)s->buf[s->pos];
		if (c == '\\') {
			adv(s);
			if (s->pos < s->len)
				adv(s);
			continue;
		}
		if (c != q) { /* a line end */
			if (!triple) {
				flags |= SMP_PYSTR_UNTERMINATED;
				break;
			}
			adv(s);
			continue;
		}
		if (!triple) {
			adv(s);
			break;
		}
		if (at(s, s->pos + 1) == c && at(s, s->pos + 2) == c) {
			s->pos += 3;
			s->column += 3;
			break;
		}
		adv(s);
	}
	t->kind = SMP_PYTOK_STRING;
	t->flags = flags;
	finish(s, t);
}

static void
scan_string(struct smp_pytok_state *s, struct smp_pytok *t, unsigned int flags)
{
	struct frame fr[SMP_PYTOK_MAX_FSTRING];
	unsigned int nf = 1;
	int unterminated = 0;
	size_t field_from = s->pos;

	if (!(flags & SMP_PYSTR_FORMAT)) {
		scan_plain_string(s, t, flags);
		return;
	}
	open_frame(s, &fr[0], 1);
	if (fr[0].triple)
		flags |= SMP_PYSTR_TRIPLE;
	while (s->pos < s->len && nf > 0) {
		struct frame *f = &fr[nf - 1];
		unsigned char c = (unsigned char)s->buf[s->pos];

		if (f->nmode == 0 || f->mode[f->nmode - 1] == MODE_SPEC) {
			if (plain_text(s, f))
				continue; /* the end of the input */
			if (literal_step(s, f, &unterminated)) {
				if (unterminated && nf > 1) {
					/* only the nested one ends here */
					unterminated = 0;
				} else if (unterminated) {
					break;
				}
				nf--;
			}
			continue;
		}
		if (is_nl(c) && !f->triple) {
			/* a field cannot span lines in a one-line string
			 * (before 3.12): end here, at the smallest damage */
			if (nf == 1) {
				unterminated = 1;
				break;
			}
			nf--;
			continue;
		}
		if ((c == '\'' || c == '"') && nf < SMP_PYTOK_MAX_FSTRING) {
			int format = nested_is_format(s, s->pos, field_from);

			open_frame(s, &fr[nf], format);
			nf++;
			continue;
		}
		expr_step(s, f);
	}
	if (nf > 0)
		unterminated = 1;
	if (unterminated)
		flags |= SMP_PYSTR_UNTERMINATED;
	t->kind = SMP_PYTOK_STRING;
	t->flags = flags;
	finish(s, t);
}

static void
scan_number(struct smp_pytok_state *s, struct smp_pytok *t)
{
	unsigned char c = at(s, s->pos), n = at(s, s->pos + 1);

	if (c == '0' && (n == 'x' || n == 'X' || n == 'o' || n == 'O' ||
			 n == 'b' || n == 'B')) {
		adv(s);
		adv(s);
	}
	for (;;) {
		c = at(s, s->pos);
		if (s->pos >= s->len)
			break;
		if ((c == 'e' || c == 'E') &&
		    (at(s, s->pos + 1) == '+' || at(s, s->pos + 1) == '-') &&
		    is_digit(at(s, s->pos + 2))) {
			adv(s);
			adv(s);
			continue;
		}
		if (!is_name_char(c) && c != '.')
			break;
		if (c == '.' && at(s, s->pos + 1) == '.')
			break; /* 1..x is not a number */
		adv(s);
	}
	t->kind = SMP_PYTOK_NUMBER;
	finish(s, t);
}

/* Length of the operator at s->pos (longest match), or 0. */
static size_t
op_len(const struct smp_pytok_state *s)
{
	unsigned char c = at(s, s->pos), n = at(s, s->pos + 1);
	unsigned char n2 = at(s, s->pos + 2);

	switch (c) {
	case '(':
	case ')':
	case '[':
	case ']':
	case '{':
	case '}':
	case ',':
	case ';':
	case '~':
		return 1;
	case '.':
		return n == '.' && n2 == '.' ? 3 : 1;
	case '*':
	case '/':
	case '<':
	case '>':
		/* ** // << >> and their augmented forms; <= >= <> */
		if (n == c)
			return n2 == '=' ? 3 : 2;
		if (n == '=' || (c == '<' && n == '>'))
			return 2;
		return 1;
	case '-':
		return n == '=' || n == '>' ? 2 : 1;
	case '+':
	case '%':
	case '&':
	case '|':
	case '^':
	case '@':
	case '=':
	case '!':
	case ':':
		return n == '=' ? 2 : 1;
	default:
		return 0;
	}
}

static void
scan_op(struct smp_pytok_state *s, struct smp_pytok *t, size_t n)
{
	unsigned char c = at(s, s->pos);

	if (n == 1 && (c == '(' || c == '[' || c == '{'))
		s->depth++;
	if (n == 1 && (c == ')' || c == ']' || c == '}') && s->depth) {
		s->depth--;
		t->depth = s->depth; /* a closer pairs with its opener */
	}
	/* an operator is ASCII on one line */
	s->pos += n;
	s->column += (uint32_t)n;
	t->kind = SMP_PYTOK_OP;
	finish(s, t);
}

/* A token starting with a name char: a name, or a prefixed string. */
static void
scan_name(struct smp_pytok_state *s, struct smp_pytok *t)
{
	int flags;

	skip_run(s, SKIP_NAME);
	if (s->pos < s->len &&
	    (at(s, s->pos) == '\'' || at(s, s->pos) == '"') &&
	    (flags = prefix_flags(s->buf + t->off, s->pos - t->off)) >= 0) {
		scan_string(s, t, (unsigned int)flags);
		return;
	}
	t->kind = SMP_PYTOK_NAME;
	finish(s, t);
}

/*
 * At the start of a physical line outside brackets: measures the
 * indentation (tabs to the next multiple of 8, as CPython) and emits
 * INDENT/DEDENT. Returns 1 when *t was filled, 0 to go on scanning.
 */
static int
line_start(struct smp_pytok_state *s, struct smp_pytok *t)
{
	unsigned int col = 0, top;

	while (s->pos < s->len) {
		unsigned char c = at(s, s->pos);

		if (c == ' ')
			col++;
		else if (c == '\t')
			col = (col / 8 + 1) * 8;
		else if (c == '\f')
			col = 0;
		else
			break;
		if (col > 0x7FFFFFFFu)
			col = 0x7FFFFFFFu;
		adv(s);
	}
	if (s->pos >= s->len || at(s, s->pos) == '#' || is_nl(at(s, s->pos)))
		return 0; /* blank or comment-only: no indentation */
	s->at_line_start = 0;
	top = s->nindent ? s->indent[s->nindent - 1] : 0;
	if (col > top) {
		if (s->nindent >= SMP_PYTOK_MAX_INDENT) {
			s->overflow = 1; /* deeper levels read as the last */
			return 0;
		}
		s->indent[s->nindent++] = col;
		empty(s, t, SMP_PYTOK_INDENT);
		return 1;
	}
	while (s->nindent && s->indent[s->nindent - 1] > col) {
		s->nindent--;
		s->pending++;
	}
	if (!s->pending)
		return 0;
	s->pending--;
	empty(s, t, SMP_PYTOK_DEDENT);
	return 1;
}

void
smp__pytok_next(struct smp_pytok_state *s, struct smp_pytok *t)
{
	unsigned char c;
	size_t n;

	for (;;) {
		if (s->pending) {
			s->pending--;
			empty(s, t, SMP_PYTOK_DEDENT);
			return;
		}
		if (s->at_line_start && s->depth == 0 && line_start(s, t))
			return;
		if (s->pos < s->len &&
		    (byte_class[(unsigned char)s->buf[s->pos]] & SKIP_BLANK))
			skip_run(s, SKIP_BLANK);
		if (s->pos >= s->len) {
			if (s->line_has_token) {
				s->line_has_token = 0;
				empty(s, t, SMP_PYTOK_NEWLINE);
			} else if (s->nindent) {
				s->nindent--;
				empty(s, t, SMP_PYTOK_DEDENT);
			} else {
				empty(s, t, SMP_PYTOK_END);
			}
			return;
		}
		c = (unsigned char)s->buf[s->pos];
		if (is_nl(c)) {
			if (s->depth > 0 || !s->line_has_token) {
				adv(s);
				if (s->depth == 0)
					s->at_line_start = 1;
				continue;
			}
			begin(s, t, SMP_PYTOK_NEWLINE);
			adv(s);
			finish(s, t);
			s->line_has_token = 0;
			s->at_line_start = 1;
			return;
		}
		if (c == '#') {
			begin(s, t, SMP_PYTOK_COMMENT);
			skip_run(s, SKIP_LINE);
			finish(s, t);
			return;
		}
		if (c == '\\' &&
		    (s->pos + 1 >= s->len || is_nl(at(s, s->pos + 1)))) {
			/* explicit continuation: the line goes on */
			adv(s);
			if (s->pos < s->len)
				adv(s);
			continue;
		}
		break;
	}
	s->line_has_token = 1;
	begin(s, t, SMP_PYTOK_ERROR);
	if ((byte_class[c] & SKIP_NAME) && !is_digit(c)) {
		scan_name(s, t);
	} else if (is_digit(c) || (c == '.' && is_digit(at(s, s->pos + 1)))) {
		scan_number(s, t);
	} else if (c == '\'' || c == '"') {
		scan_string(s, t, 0);
	} else if ((n = op_len(s)) > 0) {
		scan_op(s, t, n);
	} else {
		adv(s);
		finish(s, t);
	}
}

int
smp__pytok_is(const struct smp_pytok *t, const char *buf, const char *s)
{
	size_t n = strlen(s);

	return (t->kind == SMP_PYTOK_OP || t->kind == SMP_PYTOK_NAME) &&
	       t->len == n && memcmp(buf + t->off, s, n) == 0;
}

int
smp__pystr_body(const struct smp_pytok *t, const char *buf, const char **body,
		size_t *blen)
{
	const char *p = buf + t->off, *end = buf + t->off + t->len;
	size_t q = t->flags & SMP_PYSTR_TRIPLE ? 3 : 1;

	*body = "";
	*blen = 0;
	if (t->kind != SMP_PYTOK_STRING)
		return 0;
	while (p < end && *p != '\'' && *p != '"')
		p++;
	if ((size_t)(end - p) < q)
		return 0;
	p += q;
	if (!(t->flags & SMP_PYSTR_UNTERMINATED) && (size_t)(end - p) >= q)
		end -= q;
	*body = p;
	*blen = (size_t)(end - p);
	return !(t->flags & (SMP_PYSTR_FORMAT | SMP_PYSTR_UNTERMINATED)) &&
	       !memchr(p, '\\', *blen);
}
