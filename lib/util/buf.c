/*
 * buf.c - the growable byte buffer (see buf.h).
 */
#include <stdarg.h>
#include <stdio.h>

#include "util/buf.h"
#include "util/text.h"

/* the first allocation: most strings built are short */
#define FIRST_CAP 64

void
smp__buf_init(struct smp_buf *b, const struct smp_allocator *a, size_t max)
{
	memset(b, 0, sizeof(*b));
	b->alloc = a;
	b->max = max > SMP_BUF_NO_MAX ? SMP_BUF_NO_MAX : max;
}

void
smp__buf_init_fixed(struct smp_buf *b, char *mem, size_t size)
{
	memset(b, 0, sizeof(*b));
	b->data = mem;
	b->cap = b->lim = size;
	b->max = size - 1;
	mem[0] = '\0';
}

static int
fail(struct smp_buf *b, int code)
{
	if (code == SMP_ENOMEM)
		b->oom = 1;
	else
		b->cut = 1;
	b->lim = b->len;
	return code;
}

/* Room for need bytes of content and the NUL (need <= max); 0 or
 * SMP_ENOMEM. The capacity never passes max + 1. */
static int
grow(struct smp_buf *b, size_t need)
{
	size_t ncap = b->cap ? b->cap : FIRST_CAP;
	char *p;

	if (ncap > b->max)
		ncap = b->max + 1;
	while (ncap <= need)
		ncap = ncap > (b->max + 1) / 2 ? b->max + 1 : ncap * 2;
	p = smp__realloc(b->alloc, b->data, ncap);
	if (!p)
		return SMP_ENOMEM;
	b->data = p;
	b->cap = b->lim = ncap;
	return 0;
}

int
smp__buf_add_slow(struct smp_buf *b, const void *p, size_t n)
{
	int rc = smp__buf_error(b);
	size_t take = n;

	if (rc)
		return rc;
	if (take > b->max - b->len)
		take = b->max - b->len;
	/* fixed storage always has room for max bytes: only a heap buffer
	 * gets here short of room */
	if (take && b->len + take >= b->cap && grow(b, b->len + take))
		return fail(b, SMP_ENOMEM);
	if (take) {
		memcpy(b->data + b->len, p, take);
		b->len += take;
		b->data[b->len] = '\0';
	}
	return take < n ? fail(b, SMP_ELIMIT) : 0;
}

int
smp__buf_vaddf(struct smp_buf *b, const char *fmt, va_list ap)
{
	char small[256];
	size_t want;
	va_list again;
	int n, rc = smp__buf_error(b);

	if (rc)
		return rc;
	va_copy(again, ap);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	if (n < 0 || (size_t)n < sizeof(small)) {
		va_end(again);
		if (n < 0)
			return fail(b, SMP_ELIMIT); /* no text to add */
		return smp__buf_add(b, small, (size_t)n);
	}
	/* longer: room for it (or for the prefix max allows), then again;
	 * the capacity is at most max + 1, so vsnprintf() writes want */
	want = (size_t)n < b->max - b->len ? (size_t)n : b->max - b->len;
	if (want && b->len + want >= b->cap && grow(b, b->len + want)) {
		va_end(again);
		return fail(b, SMP_ENOMEM);
	}
	if (want) {
		vsnprintf(b->data + b->len, b->cap - b->len, fmt, again);
		b->len += want;
	}
	va_end(again);
	return want < (size_t)n ? fail(b, SMP_ELIMIT) : 0;
}

int
smp__buf_addf(struct smp_buf *b, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = smp__buf_vaddf(b, fmt, ap);
	va_end(ap);
	return rc;
}

void
smp__buf_reset(struct smp_buf *b)
{
	b->len = 0;
	b->oom = b->cut = 0;
	b->lim = b->cap;
	if (b->data)
		b->data[0] = '\0';
}

void
smp__buf_free(struct smp_buf *b)
{
	if (b->alloc) {
		smp__free(b->alloc, b->data);
		b->data = NULL;
		b->cap = 0;
	}
	smp__buf_reset(b);
}

int
smp__buf_error(const struct smp_buf *b)
{
	return b->oom ? SMP_ENOMEM : b->cut ? SMP_ELIMIT : 0;
}

char *
smp__buf_take(struct smp_buf *b, size_t *len)
{
	char *p;

	if (len)
		*len = 0;
	if (!b->alloc || smp__buf_error(b)) {
		smp__buf_free(b);
		return NULL;
	}
	if (!b->data) {
		if (grow(b, 0))
			return NULL;
		b->data[0] = '\0';
	}
	p = b->data;
	if (len)
		*len = b->len;
	b->data = NULL;
	b->cap = 0;
	smp__buf_reset(b);
	return p;
}

/* The escape of a character that is not a plain byte; NULL: itself. */
static const char *
json_short_escape(long cp)
{
	switch (cp) {
	case '"':
		return "\\\"";
	case '\\':
		return "\\\\";
	case '\b':
		return "\\b";
	case '\f':
		return "\\f";
	case '\n':
		return "\\n";
	case '\r':
		return "\\r";
	case '\t':
		return "\\t";
	default:
		return NULL;
	}
}

void
smp__json_escape(const char *s, void (*put)(void *ud, const char *p, size_t n),
		 void *ud)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strlen(s), i = 0;

	while (i < n) {
		size_t start = i, k;
		const char *e;
		long cp;

		i += smp__json_plain_run(u + i, n - i);
		if (i > start)
			put(ud, s + start, i - start);
		if (i == n)
			break;
		k = smp__utf8_decode(u + i, n - i, &cp);
		e = json_short_escape(cp);
		if (e) {
			put(ud, e, 2);
		} else if (cp < 0) {
			put(ud, "\xEF\xBF\xBD", 3); /* U+FFFD */
		} else if (cp < 0x20 || cp == 0x2028 || cp == 0x2029) {
			char x[6] = {'\\', 'u'};
			unsigned d;

			for (d = 0; d < 4; d++)
				x[2 + d] = hex[(cp >> (4 * (3 - d))) & 0xF];
			put(ud, x, 6);
		} else {
			put(ud, s + i, k);
		}
		i += k;
	}
}

static void
buf_put(void *ud, const char *p, size_t n)
{
	smp__buf_add(ud, p, n);
}

void
smp__buf_json_string(struct smp_buf *b, const char *s)
{
	if (!s) {
		smp__buf_add(b, "null", 4);
		return;
	}
	smp__buf_addc(b, '"');
	smp__json_escape(s, buf_put, b);
	smp__buf_addc(b, '"');
}

/* The public face of the one escaper: the quoted string to a sink. */
struct sink_put {
	smp_write_fn write;
	void *ud;
	int failed;
};

static void
sink_put(void *ud, const char *p, size_t n)
{
	struct sink_put *s = ud;

	if (!s->failed && s->write(s->ud, p, n))
		s->failed = 1;
}

int
smp_json_write_string(const char *s, smp_write_fn write, void *ud)
{
	struct sink_put sp = {write, ud, 0};

	if (!write)
		return SMP_EINVAL;
	if (!s)
		return write(ud, "null", 4) ? SMP_EIO : 0;
	sink_put(&sp, "\"", 1);
	smp__json_escape(s, sink_put, &sp);
	sink_put(&sp, "\"", 1);
	return sp.failed ? SMP_EIO : 0;
}
