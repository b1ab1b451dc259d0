/*
 * out.c - the output helpers every back-end shares: the buffered writer
 * and the escapers of the machine formats, and which findings are shown. Output
 * goes through a fixed buffer in the caller's struct to the caller's sink:
 * nothing is allocated, so escaping cannot fail except by the sink refusing
 * bytes, which is remembered (sticky, like the report's out-of-memory flag) and
 * returned once by smp__out_flush().
 */
#include <stdarg.h>
#include <string.h>

#include "emit/emitter.h"
#include "report/report.h"
#include "util/alloc.h"
#include "util/text.h"

static const char replacement[] = "\xEF\xBF\xBD"; /* U+FFFD */

/* See out.h. */
void
smp__out_init(struct smp__out *o, smp_write_fn write, void *ud)
{
	o->write = write;
	o->ud = ud;
	o->failed = 0;
	smp__buf_init_fixed(&o->buf, o->mem, sizeof(o->mem));
}

/* See out.h. */
int
smp__out_flush(struct smp__out *o)
{
	if (o->buf.len && !o->failed &&
	    o->write(o->ud, o->buf.data, o->buf.len))
		o->failed = 1;
	smp__buf_reset(&o->buf);
	return o->failed ? SMP_EIO : 0;
}

/* See out.h. */
void
smp__out_mem_slow(struct smp__out *o, const char *s, size_t n)
{
	while (n && !o->failed) {
		size_t room = o->buf.max - o->buf.len;
		size_t k = n < room ? n : room;

		smp__buf_add(&o->buf, s, k);
		s += k;
		n -= k;
		if (o->buf.len == o->buf.max)
			smp__out_flush(o);
	}
}

/* See out.h. */
void
smp__out_printf(struct smp__out *o, const char *fmt, ...)
{
	char line[SMP__OUT_CHUNK + 1];
	struct smp_buf b;
	va_list ap;

	if (o->failed)
		return;
	smp__buf_init_fixed(&b, line, o->buf.max + 1);
	va_start(ap, fmt);
	smp__buf_vaddf(&b, fmt, ap);
	va_end(ap);
	smp__out_mem(o, b.data, b.len);
}

/* See out.h. */
void
smp__out_uint(struct smp__out *o, uint64_t v)
{
	char tmp[24];
	size_t i = sizeof(tmp);

	/* lines and columns: mostly one or two digits */
	if (v < 100) {
		tmp[0] = (char)('0' + v / 10);
		tmp[1] = (char)('0' + v % 10);
		smp__out_mem(o, tmp + (v < 10), v < 10 ? 1 : 2);
		return;
	}
	do {
		tmp[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	smp__out_mem(o, tmp + i, sizeof(tmp) - i);
}

static const char hex[] = "0123456789ABCDEF";

static void
out_hex_escape(struct smp__out *o, const char *prefix, unsigned v,
	       unsigned digits)
{
	char tmp[8];
	unsigned i;

	smp__out_str(o, prefix);
	for (i = 0; i < digits; i++)
		tmp[i] = hex[(v >> (4 * (digits - 1 - i))) & 0xF];
	smp__out_mem(o, tmp, digits);
}

/*
 * Walks s, writing runs of bytes that need no escaping as they are and
 * handing every other character to esc(): the one loop behind all the
 * escapers. plain(c) says whether an ASCII byte passes unchanged.
 */
static void
out_escaped(struct smp__out *o, const char *s, int (*plain)(unsigned char),
	    void (*esc)(struct smp__out *, const char *, size_t, long, int),
	    int arg)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strlen(s), i = 0;

	while (i < n) {
		size_t start = i, k;
		long cp;

		while (i < n && u[i] < 0x80 && plain(u[i]))
			i++;
		smp__out_mem(o, s + start, i - start);
		if (i == n)
			break;
		k = smp__utf8_decode(u + i, n - i, &cp);
		esc(o, s + i, k, cp, arg);
		i += k;
	}
}

/* ------------------------------------------------------------- JSON */

/* smp__json_escape()'s sink. */
static void
out_put(void *ud, const char *p, size_t n)
{
	smp__out_mem(ud, p, n);
}

/* See out.h. */
void
smp__out_json_string_body(struct smp__out *o, const char *s)
{
	if (s && !o->failed)
		smp__json_escape(s, out_put, o);
}

/* See out.h. */
void
smp__out_json_string(struct smp__out *o, const char *s)
{
	if (!s) {
		smp__out_mem(o, "null", 4);
		return;
	}
	smp__out_mem(o, "\"", 1);
	smp__out_json_string_body(o, s);
	smp__out_mem(o, "\"", 1);
}

/* -------------------------------------------------------------- XML */

static int
xml_plain(unsigned char c)
{
	return c >= 0x20 && c != '&' && c != '<' && c != '>' && c != '"';
}

static void
xml_esc(struct smp__out *o, const char *s, size_t len, long cp, int attr)
{
	switch (cp) {
	case '&':
		smp__out_str(o, "&amp;");
		return;
	case '<':
		smp__out_str(o, "&lt;");
		return;
	case '>':
		smp__out_str(o, "&gt;");
		return;
	case '"':
		smp__out_str(o, attr ? "&quot;" : "\"");
		return;
	case '\t':
		smp__out_str(o, attr ? "&#9;" : "\t");
		return;
	case '\n':
		smp__out_str(o, attr ? "&#10;" : "\n");
		return;
	case '\r':
		/* a raw CR in content would be read back as LF */
		smp__out_str(o, "&#13;");
		return;
	default:
		break;
	}
	if (cp < 0x20 || cp == 0xFFFE || cp == 0xFFFF)
		smp__out_mem(o, replacement, 3); /* also cp < 0: invalid */
	else
		smp__out_mem(o, s, len);
}

/* See out.h. */
void
smp__out_xml(struct smp__out *o, const char *s, int attr)
{
	if (s)
		out_escaped(o, s, xml_plain, xml_esc, attr);
}

/* ---------------------------------------------------- GitHub commands */

static int
github_plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7F && c != '%' && c != ':' && c != ',';
}

static void
github_esc(struct smp__out *o, const char *s, size_t len, long cp, int property)
{
	switch (cp) {
	case '%':
		smp__out_mem(o, "%25", 3);
		return;
	case '\r':
		smp__out_mem(o, "%0D", 3);
		return;
	case '\n':
		smp__out_mem(o, "%0A", 3);
		return;
	case ':':
		smp__out_mem(o, property ? "%3A" : ":", property ? 3 : 1);
		return;
	case ',':
		smp__out_mem(o, property ? "%2C" : ",", property ? 3 : 1);
		return;
	case '\t':
		smp__out_mem(o, " ", 1);
		return;
	default:
		break;
	}
	if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F))
		smp__out_mem(o, replacement, 3); /* also cp < 0: invalid */
	else
		smp__out_mem(o, s, len);
}

/* See out.h. */
void
smp__out_github_data(struct smp__out *o, const char *s)
{
	if (s)
		out_escaped(o, s, github_plain, github_esc, 0);
}

/* See out.h. */
void
smp__out_github_property(struct smp__out *o, const char *s)
{
	if (s)
		out_escaped(o, s, github_plain, github_esc, 1);
}

/* -------------------------------------------------------------- URI */

/* unreserved, sub-delims, '@' and '/' of RFC 3986 (not ':'): a path is
 * mostly letters, '/' and '.', which a table answers at once */
#define URI_ROW8(c)                                                            \
	[(c)] = 1, [(c) + 1] = 1, [(c) + 2] = 1, [(c) + 3] = 1, [(c) + 4] = 1, \
	[(c) + 5] = 1, [(c) + 6] = 1, [(c) + 7] = 1
static const unsigned char uri_plain[256] = {
	URI_ROW8('a'), URI_ROW8('i'), URI_ROW8('q'), ['y'] = 1, ['z'] = 1,
	URI_ROW8('A'), URI_ROW8('I'), URI_ROW8('Q'), ['Y'] = 1, ['Z'] = 1,
	URI_ROW8('0'), ['8'] = 1,     ['9'] = 1,     ['-'] = 1, ['.'] = 1,
	['_'] = 1,     ['~'] = 1,     ['!'] = 1,     ['$'] = 1, ['&'] = 1,
	['\''] = 1,    ['('] = 1,     [')'] = 1,     ['*'] = 1, ['+'] = 1,
	[','] = 1,     [';'] = 1,     ['='] = 1,     ['@'] = 1, ['/'] = 1,
};
#undef URI_ROW8

/* See out.h. */
void
smp__out_uri_path(struct smp__out *o, const char *path)
{
	const unsigned char *u = (const unsigned char *)path;
	size_t i = 0;

	if (path[0] == '/') {
		/* file:///abs/path: the authority is empty */
		smp__out_str(o, "file://");
	} else {
		while (u[i] == '.' && u[i + 1] == '/') {
			i += 2;
			while (u[i] == '/')
				i++;
		}
	}
	for (; u[i]; i++) {
		size_t start = i;

		while (uri_plain[u[i]])
			i++;
		smp__out_mem(o, path + start, i - start);
		if (!u[i])
			break;
		out_hex_escape(o, "%", u[i], 2);
	}
}

/* See emitter.h. */
int
smp__emit_visible(const struct smp_emitter *em, const struct smp_finding *f)
{
	return f->severity >= SMP_SEVERITY_INFO &&
	       f->severity <= SMP_SEVERITY_ERROR &&
	       f->severity >= em->min_severity;
}

/* See emitter.h. */
const char *
smp__emit_report_file(const struct smp_report *report)
{
	if (report->file)
		return report->file;
	if (report->count && report->items[0].file)
		return report->items[0].file;
	return "<input>";
}

/* See emitter.h. */
void
smp__emit_items(struct smp_emitter *em, const struct smp_report *report,
		const char *indent, smp__emit_item_fn item, void *ud)
{
	const char *file = smp__emit_report_file(report);
	size_t i;

	for (i = 0; i < report->count; i++) {
		const struct smp_finding *f = &report->items[i];

		if (!smp__emit_visible(em, f))
			continue;
		smp__out_str(&em->out, em->items++ ? ",\n" : "\n");
		smp__out_str(&em->out, indent);
		item(em, f, f->file ? f->file : file, i, ud);
	}
}

/* See emitter.h. */
void
smp__emit_array_close(struct smp_emitter *em, const char *indent)
{
	if (em->items) {
		smp__out_str(&em->out, "\n");
		smp__out_str(&em->out, indent);
	}
	smp__out_str(&em->out, "]");
}

/* Appends to one of the emitter's buffers; fails only on ENOMEM. */
static int
buf_append(struct smp_emitter *em, struct smp_buf *b, const char *data,
	   size_t n)
{
	if (smp__buf_add(b, data, n)) {
		em->oom = 1;
		return -1;
	}
	return 0;
}

/* The smp_write_fn that appends to em->body. */
static int
body_write(void *ud, const char *data, size_t len)
{
	struct smp_emitter *em = ud;

	return buf_append(em, &em->body, data, len);
}

/* The smp_write_fn that appends to em->side. */
static int
side_write(void *ud, const char *data, size_t len)
{
	struct smp_emitter *em = ud;

	return buf_append(em, &em->side, data, len);
}

static int
redirect(struct smp_emitter *em, struct smp__sink *saved, smp_write_fn fn)
{
	smp__out_flush(&em->out);
	if (em->out.failed)
		return -1;
	saved->write = em->out.write;
	saved->ud = em->out.ud;
	em->out.write = fn;
	em->out.ud = em;
	return 0;
}

/* See emitter.h. Nothing is pending afterwards: the body gets only what
 * is written between the two calls. */
int
smp__emit_body_open(struct smp_emitter *em, struct smp__sink *saved)
{
	return redirect(em, saved, body_write);
}

/* See emitter.h. */
int
smp__emit_side_open(struct smp_emitter *em, struct smp__sink *saved)
{
	return redirect(em, saved, side_write);
}

/* See emitter.h. */
int
smp__emit_failure_open(struct smp_emitter *em, struct smp__sink *saved,
		       const char *indent)
{
	if (redirect(em, saved, body_write))
		return -1;
	smp__out_str(&em->out, em->failures > 1 ? ",\n" : "\n");
	smp__out_str(&em->out, indent);
	return 0;
}

/* See emitter.h. */
void
smp__emit_body_close(struct smp_emitter *em, const struct smp__sink *saved)
{
	smp__out_flush(&em->out);
	em->out.write = saved->write;
	em->out.ud = saved->ud;
	if (em->oom)
		em->out.failed = 0; /* settle() reports SMP_ENOMEM */
}
