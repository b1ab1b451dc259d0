/*
 * text.c - findings as text for a terminal (README "Example"):
 *
 *   jobs/bert.yaml:14:20: error: GPU_NUM_DEVICES is "8" but ... [rule]
 *      14 |   GPU_NUM_DEVICES: "8"
 *         |                    ^~~
 *         = fix: set GPU_NUM_DEVICES to "4"
 *
 * Output goes through the shared buffered writer (out.h) on the stack to
 * the caller's sink; nothing is allocated. Text that came from the spec (file
 * names, messages, the excerpt) is made safe for a terminal: control
 * characters, invalid UTF-8 and bidirectional overrides never reach it as such.
 */
#include <stdint.h>
#include <string.h>

#include "emit/emitter.h"
#include "emit/out.h"
#include "report/report.h"
#include "util/text.h"

#define TAB_STOP 8
/* Source lines wider than this many cells are cut around the caret. */
#define EXCERPT_MAX 100
#define EXCERPT_BEFORE 40
/* Printable ASCII is measured in runs of at most this many bytes. */
#define RUN_MAX 256

#define ANSI_RESET "\033[0m"
#define ANSI_BOLD "\033[1m"
#define ANSI_DIM "\033[2m"
#define ANSI_RED "\033[1;31m"
#define ANSI_YELLOW "\033[1;33m"
#define ANSI_CYAN "\033[1;36m"
#define ANSI_GREEN "\033[1;32m"

/* c (a space or '~') times over, from a constant run of each. */
static void
out_repeat(struct smp__out *o, char c, size_t times)
{
	static const char spaces[] = "                                ";
	static const char tildes[] = "~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~";
	const char *run = c == '~' ? tildes : spaces;

	while (times) {
		size_t k =
			times < sizeof(spaces) - 1 ? times : sizeof(spaces) - 1;

		smp__out_mem(o, run, k);
		times -= k;
	}
}

/* Writes a colour escape only when colour is on. */
static void
out_color(struct smp__out *o, int color, const char *code)
{
	if (color)
		smp__out_str(o, code);
}

/*
 * Cells a code point takes in a terminal: 0 for combining marks, 2 for
 * East Asian wide and fullwidth ranges, else 1. A small table instead of
 * wcwidth(), which depends on the process locale.
 */
static unsigned
cp_width(long cp)
{
	static const long wide[][2] = {
		{0x1100, 0x115F},   {0x2E80, 0x303E},   {0x3041, 0x33FF},
		{0x3400, 0x4DBF},   {0x4E00, 0x9FFF},   {0xA000, 0xA4CF},
		{0xAC00, 0xD7A3},   {0xF900, 0xFAFF},   {0xFE30, 0xFE4F},
		{0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},   {0x1F300, 0x1F64F},
		{0x1F900, 0x1F9FF}, {0x20000, 0x3FFFD},
	};
	size_t i;

	if ((cp >= 0x0300 && cp <= 0x036F) || (cp >= 0x200B && cp <= 0x200D))
		return 0;
	for (i = 0; i < sizeof(wide) / sizeof(wide[0]); i++)
		if (cp >= wide[i][0] && cp <= wide[i][1])
			return 2;
	return 1;
}

/* 1 for a character out_char() writes as a replacement or picture. */
static int
is_replaced(long cp)
{
	return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) ||
	       (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

/* Terminal cells out_char() uses for cp. */
static size_t
char_cells(long cp)
{
	return is_replaced(cp) ? 1 : cp_width(cp);
}

/*
 * Writes one character safely: C0 controls and DEL as their Unicode
 * control pictures (like rustc), C1 controls, bidirectional overrides and
 * invalid bytes (cp < 0) as U+FFFD.
 */
static void
out_char(struct smp__out *o, const char *s, size_t len, long cp)
{
	static const char replacement[] = "\xEF\xBF\xBD";
	char pic[3];

	if (cp >= 0 && (cp < 0x20 || cp == 0x7F)) {
		unsigned v = cp == 0x7F ? 0x2421 : 0x2400 + (unsigned)cp;

		pic[0] = (char)(0xE0 | (v >> 12));
		pic[1] = (char)(0x80 | ((v >> 6) & 0x3F));
		pic[2] = (char)(0x80 | (v & 0x3F));
		smp__out_mem(o, pic, 3);
	} else if (is_replaced(cp)) {
		smp__out_mem(o, replacement, 3);
	} else {
		smp__out_mem(o, s, len);
	}
}

/*
 * Length of the run of printable ASCII (0x20..0x7E) at the start of
 * u[0..n), eight bytes at a time where it can: most of the text is.
 */
static size_t
ascii_run(const unsigned char *u, size_t n)
{
	const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
	size_t i = 0;

	/* sixteen bytes a test while none stops the run, then eight */
	while (i + 16 <= n) {
		uint64_t x, y;

		memcpy(&x, u + i, 8);
		memcpy(&y, u + i + 8, 8);
		if (((((x - ones * 0x20) & ~x) | ((x + ones) | x)) |
		     (((y - ones * 0x20) & ~y) | ((y + ones) | y))) &
		    high)
			break;
		i += 16;
	}
	while (i + 8 <= n) {
		uint64_t x;

		memcpy(&x, u + i, 8);
		/* any byte below 0x20, or above 0x7E (0x7F and 8-bit) */
		if ((((x - ones * 0x20) & ~x) | ((x + ones) | x)) & high)
			break;
		i += 8;
	}
	while (i < n && u[i] >= 0x20 && u[i] < 0x7F)
		i++;
	return i;
}

/* Text from a finding on the message line: tabs become spaces. */
void
smp__out_text_safe(struct smp__out *o, const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0;

	while (i < n) {
		size_t start = i, k;
		long cp;

		/* runs of plain printable ASCII go out in one piece */
		i += ascii_run(u + i, n - i);
		smp__out_mem(o, s + start, i - start);
		if (i == n)
			break;
		if (u[i] == '\t') {
			smp__out_mem(o, " ", 1);
			i++;
			continue;
		}
		k = smp__utf8_decode(u + i, n - i, &cp);
		out_char(o, s + i, k, cp);
		i += k;
	}
}

static void
out_safe(struct smp__out *o, const char *s)
{
	smp__out_text_safe(o, s, strlen(s));
}

/* Where the underline goes, in terminal cells from the line's start. */
struct span {
	size_t start;
	size_t end; /* exclusive; > start */
};

/*
 * The cells of the source line that are shown: a character is written
 * when it lies wholly inside [from, to). A long line (minified JSON, a
 * binary file) is cut to a window around the caret.
 */
struct window {
	size_t from;
	size_t to;
	size_t first; /* where the first written character starts */
	size_t total; /* cells of the whole line */
};

/* One character of the excerpt, written when inside the window. */
static size_t
excerpt_char(struct smp__out *o, struct window *win, size_t cells,
	     const char *s, size_t len, long cp)
{
	int tab = len == 1 && s[0] == '\t';
	size_t w = tab ? TAB_STOP - cells % TAB_STOP : char_cells(cp);

	if (o && cells >= win->from && cells + w <= win->to) {
		if (win->first == (size_t)-1)
			win->first = cells;
		if (tab)
			out_repeat(o, ' ', w);
		else
			out_char(o, s, len, cp);
	}
	return w;
}

/*
 * A run of n printable ASCII characters starting at cell `cells`: one
 * cell each, so the part inside the window goes out in one piece (what
 * excerpt_char() would do character by character).
 */
static void
excerpt_ascii(struct smp__out *o, struct window *win, size_t cells,
	      const char *s, size_t n)
{
	size_t a = win->from > cells ? win->from - cells : 0;
	size_t b = win->to > cells ? win->to - cells : 0;

	if (b > n)
		b = n;
	if (a >= b)
		return;
	if (win->first == (size_t)-1)
		win->first = cells + a;
	smp__out_mem(o, s + a, b - a);
}

/*
 * Writes the source line (tabs expanded to TAB_STOP) inside the window,
 * or only measures it when o is NULL, and finds where the characters
 * `column` up to `end_column` (exclusive) start. Columns count as
 * smp__pos_at() does: every byte that is not a UTF-8 continuation byte
 * starts a character.
 */
/* The columns an excerpt underlines: from column up to end (exclusive;
 * 0: one character, or to the end of a multi-line range's line). */
struct finding_cols {
	uint32_t column, end;
	int multi_line;
};

static void
finding_cols(struct finding_cols *fc, const struct smp_finding *f)
{
	/* a notebook's excerpt is the cell's line: its columns */
	fc->column = f->cell ? f->cell_column : f->column;
	fc->end = 0;
	if (f->cell)
		fc->end = f->cell_end_column > fc->column ? f->cell_end_column
							  : 0;
	else if (f->end_line == f->line && f->end_column > f->column)
		fc->end = f->end_column;
	fc->multi_line = f->end_line > f->line;
}

static struct span
excerpt(struct smp__out *o, const struct smp_finding *f, struct window *win)
{
	const char *s = f->source_line;
	const unsigned char *u = (const unsigned char *)s;
	size_t i = 0, cells = 0, stop = (size_t)-1;
	uint32_t col = 1, end;
	struct span sp = {0, 0};
	int have_start = 0, have_end = 0;
	struct finding_cols fc;
	uint32_t column;

	finding_cols(&fc, f);
	column = fc.column;
	end = fc.end;
	win->first = (size_t)-1;
	/* NUL-terminated, and never read past the window: a finding on a
	 * megabyte-long line costs what one on a short line does */
	while (u[i]) {
		size_t k;
		long cp;

		if (have_start && stop == (size_t)-1)
			stop = (sp.start > EXCERPT_BEFORE
					? sp.start - EXCERPT_BEFORE
					: 0) +
			       EXCERPT_MAX;
		/* past the widest window the caret can have: the line is
		 * long, which is all the rest would tell */
		if (cells > stop)
			break;
		/* the common case: printable ASCII, a column and a cell each */
		if (u[i] >= 0x20 && u[i] < 0x7F) {
			k = ascii_run(u + i, strnlen(s + i, RUN_MAX));
			if (column >= col && column - col < k) {
				sp.start = cells + (column - col);
				have_start = 1;
			}
			if (end && end >= col && end - col < k) {
				sp.end = cells + (end - col);
				have_end = 1;
			}
			if (o)
				excerpt_ascii(o, win, cells, s + i, k);
			cells += k;
			col += (uint32_t)k;
			i += k;
			continue;
		}
		if ((u[i] & 0xC0) == 0x80) {
			/* a stray continuation byte: no column of its own */
			k = 1;
			while ((u[i + k] & 0xC0) == 0x80)
				k++;
			cells += excerpt_char(o, win, cells, s + i, k, -1);
			i += k;
			continue;
		}
		if (col == column) {
			sp.start = cells;
			have_start = 1;
		}
		if (end && col == end) {
			sp.end = cells;
			have_end = 1;
		}
		/* a UTF-8 sequence is at most 4 bytes */
		k = smp__utf8_decode(u + i, strnlen(s + i, 4), &cp);
		if (cp < 0) {
			/* an invalid sequence shows as one character */
			while ((u[i + k] & 0xC0) == 0x80)
				k++;
		}
		cells += excerpt_char(o, win, cells, s + i, k, cp);
		i += k;
		col++;
	}
	win->total = cells;
	if (win->first == (size_t)-1)
		win->first = cells < win->from ? win->from : cells;
	/* a position past the end of the line: one cell per character */
	if (!have_start && column >= col)
		sp.start = cells + (column - col);
	if (!have_end) {
		if (end >= col)
			sp.end = cells + (end - col);
		else if (fc.multi_line)
			sp.end = cells; /* a multi-line range: to the end */
	}
	if (sp.end <= sp.start)
		sp.end = sp.start + 1;
	return sp;
}

/*
 * The excerpt() of a line of at most EXCERPT_MAX printable ASCII bytes,
 * the common case, without its two passes: one cell per byte, no window.
 * Returns 0 (and *len the line's length) when it applies.
 */
static int
ascii_excerpt(const struct finding_cols *fc, const char *s, size_t *len,
	      struct span *sp)
{
	size_t n = strnlen(s, EXCERPT_MAX + 1);

	if (n > EXCERPT_MAX || ascii_run((const unsigned char *)s, n) != n)
		return -1;
	*len = n;
	sp->start = fc->column ? fc->column - 1 : 0;
	if (fc->end)
		sp->end = fc->end - 1;
	else
		sp->end = fc->multi_line ? n : 0;
	if (sp->end <= sp->start)
		sp->end = sp->start + 1;
	return 0;
}

static size_t
digits(uint32_t v)
{
	size_t n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

static const char *
severity_color(enum smp_severity sev)
{
	switch (sev) {
	case SMP_SEVERITY_ERROR:
		return ANSI_RED;
	case SMP_SEVERITY_WARNING:
		return ANSI_YELLOW;
	default:
		return ANSI_CYAN;
	}
}

/* The caret line: indent cells of spaces, then '^' and '~' from start up
 * to end (exclusive). */
static void
underline(struct smp__out *o, size_t width, size_t indent, size_t start,
	  size_t end, int color)
{
	out_repeat(o, ' ', 3 + width);
	smp__out_mem(o, " | ", 3);
	out_repeat(o, ' ', indent);
	out_color(o, color, ANSI_GREEN);
	smp__out_mem(o, "^", 1);
	if (end > start + 1)
		out_repeat(o, '~', end - start - 1);
	out_color(o, color, ANSI_RESET);
	smp__out_mem(o, "\n", 1);
}

static void
emit_finding(struct smp__out *o, const struct smp_finding *f, int color)
{
	/* a notebook's cell line, as ruff shows it: nb.ipynb:cell 7:3:18 */
	uint32_t line = f->cell ? f->cell_line : f->line;
	size_t width = digits(line);

	/* file:line:col: severity: message [rule] */
	out_color(o, color, ANSI_BOLD);
	out_safe(o, f->file ? f->file : "<input>");
	if (f->cell) {
		smp__out_mem(o, ":cell ", 6);
		smp__out_uint(o, f->cell);
		smp__out_mem(o, ":", 1);
		smp__out_uint(o, f->cell_line);
		if (f->cell_column) {
			smp__out_mem(o, ":", 1);
			smp__out_uint(o, f->cell_column);
		}
	} else if (f->line) {
		smp__out_mem(o, ":", 1);
		smp__out_uint(o, f->line);
		if (f->column) {
			smp__out_mem(o, ":", 1);
			smp__out_uint(o, f->column);
		}
	}
	smp__out_mem(o, ":", 1);
	out_color(o, color, ANSI_RESET);
	smp__out_mem(o, " ", 1);
	out_color(o, color, severity_color(f->severity));
	smp__out_str(o, smp_severity_name(f->severity));
	out_color(o, color, ANSI_RESET);
	smp__out_mem(o, ": ", 2);
	out_safe(o, f->message ? f->message : "");
	smp__out_mem(o, " ", 1);
	out_color(o, color, ANSI_DIM);
	smp__out_mem(o, "[", 1);
	out_safe(o, f->rule ? f->rule : "?");
	smp__out_mem(o, "]", 1);
	out_color(o, color, ANSI_RESET);
	smp__out_mem(o, "\n", 1);

	if (f->line && f->source_line) {
		struct window win = {0, (size_t)-1, 0, 0};
		struct finding_cols fc;
		struct span sp;
		size_t lead = 0, n;

		finding_cols(&fc, f);
		if (ascii_excerpt(&fc, f->source_line, &n, &sp) == 0) {
			out_repeat(o, ' ', 3);
			smp__out_uint(o, line);
			smp__out_mem(o, " |", 2);
			if (n) {
				smp__out_mem(o, " ", 1);
				smp__out_mem(o, f->source_line, n);
			}
			smp__out_mem(o, "\n", 1);
			if (f->column)
				underline(o, width, sp.start, sp.start, sp.end,
					  color);
			goto fix;
		}
		sp = excerpt(NULL, f, &win);
		if (win.total > EXCERPT_MAX) {
			win.from = sp.start > EXCERPT_BEFORE
					   ? sp.start - EXCERPT_BEFORE
					   : 0;
			win.to = win.from + EXCERPT_MAX;
		}
		out_repeat(o, ' ', 3);
		smp__out_uint(o, line);
		smp__out_mem(o, " |", 2);
		if (f->source_line[0])
			smp__out_mem(o, " ", 1);
		if (win.from > 0) {
			smp__out_mem(o, "...", 3);
			lead = 3;
		}
		sp = excerpt(o, f, &win);
		if (win.to < win.total)
			smp__out_mem(o, "...", 3);
		smp__out_mem(o, "\n", 1);
		if (f->column)
			underline(o, width, lead + (sp.start - win.first),
				  sp.start, sp.end < win.to ? sp.end : win.to,
				  color);
	}
fix:
	if (f->fix) {
		out_repeat(o, ' ', 3 + width);
		smp__out_mem(o, " = fix: ", 8);
		out_safe(o, f->fix);
		smp__out_mem(o, "\n", 1);
	}
}

/* See smpreflight.h. */
int
smp_emit_text(const struct smp_report *report, enum smp_severity min_severity,
	      unsigned int flags, smp_write_fn write, void *ud)
{
	struct smp__out o;
	size_t i;

	if (!report || !write)
		return SMP_EINVAL;
	smp__out_init(&o, write, ud);
	for (i = 0; i < report->count && !o.failed; i++) {
		const struct smp_finding *f = &report->items[i];

		/* a suppressed finding is kept for JSON and SARIF only */
		if (f->severity == SMP_SEVERITY_OFF ||
		    f->severity < min_severity || f->suppressed)
			continue;
		emit_finding(&o, f, (flags & SMP_TEXT_COLOR) != 0);
	}
	return smp__out_flush(&o);
}

/*
 * The text back-end of the emitter: smp_emit_text() writes to the sink
 * itself, once the emitter's buffer is empty.
 */
static void
text_file(struct smp_emitter *em, const struct smp_report *report)
{
	int rc;

	if (smp__out_flush(&em->out))
		return; /* the dispatcher records the failure */
	rc = smp_emit_text(report, em->min_severity, em->text_flags,
			   em->out.write, em->out.ud);
	if (rc && !em->status)
		em->status = rc;
}

const struct smp_emitter_ops smp__emit_text = {
	.name = "text",
	.file = text_file,
};
