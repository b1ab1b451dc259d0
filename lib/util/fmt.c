/* fmt.c - a snprintf for the plain conversions (see fmt.h) */
#include <stdio.h>
#include <string.h>

#include "util/fmt.h"

struct sink {
	char *out;
	size_t size;
	size_t len; /* the whole length, written or not */
};

static void
put(struct sink *s, const char *p, size_t n)
{
	if (s->len + 1 < s->size) {
		size_t room = s->size - 1 - s->len;

		memcpy(s->out + s->len, p, n < room ? n : room);
	}
	s->len += n;
}

static void
put_unsigned(struct sink *s, unsigned long long u, int negative)
{
	char tmp[24];
	size_t i = sizeof(tmp);

	do {
		tmp[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (negative)
		tmp[--i] = '-';
	put(s, tmp + i, sizeof(tmp) - i);
}

static void
put_signed(struct sink *s, long long v)
{
	if (v < 0)
		put_unsigned(s, 0ULL - (unsigned long long)v, 1);
	else
		put_unsigned(s, (unsigned long long)v, 0);
}

/* 0 when done, -1 when fmt has a conversion left to vsnprintf. */
static int
format(struct sink *s, const char *fmt, va_list ap)
{
	const char *p = fmt;

	for (;;) {
		const char *pct = strchr(p, '%');
		const char *str;

		if (!pct) {
			put(s, p, strlen(p));
			return 0;
		}
		put(s, p, (size_t)(pct - p));
		p = pct + 1;
		switch (*p) {
		case '%':
			put(s, "%", 1);
			p++;
			break;
		case 's':
			str = va_arg(ap, const char *);
			if (!str)
				return -1;
			put(s, str, strlen(str));
			p++;
			break;
		case 'c': {
			char c = (char)va_arg(ap, int);

			put(s, &c, 1);
			p++;
			break;
		}
		case 'd':
			put_signed(s, va_arg(ap, int));
			p++;
			break;
		case 'u':
			put_unsigned(s, va_arg(ap, unsigned), 0);
			p++;
			break;
		case 'z':
			if (p[1] != 'u')
				return -1;
			put_unsigned(s, va_arg(ap, size_t), 0);
			p += 2;
			break;
		case 'l':
			if (p[1] == 'l' && p[2] == 'd') {
				put_signed(s, va_arg(ap, long long));
				p += 3;
			} else if (p[1] == 'l' && p[2] == 'u') {
				put_unsigned(s, va_arg(ap, unsigned long long),
					     0);
				p += 3;
			} else if (p[1] == 'd') {
				put_signed(s, va_arg(ap, long));
				p += 2;
			} else if (p[1] == 'u') {
				put_unsigned(s, va_arg(ap, unsigned long), 0);
				p += 2;
			} else
				return -1;
			break;
		case '.':
			if (p[1] == '*' && p[2] == 's') {
				int prec = va_arg(ap, int);
				const char *end;
				size_t n;

				str = va_arg(ap, const char *);
				if (!str || prec < 0)
					return -1;
				end = memchr(str, '\0', (size_t)prec);
				n = end ? (size_t)(end - str) : (size_t)prec;
				put(s, str, n);
				p += 3;
				break;
			}
			return -1;
		default:
			return -1;
		}
	}
}

int
smp__vfmt(char *out, size_t size, const char *fmt, va_list ap)
{
	struct sink s;
	va_list again;
	int rc;

	s.out = out;
	s.size = size;
	s.len = 0;
	va_copy(again, ap);
	if (format(&s, fmt, ap) != 0 || s.len > 0x7fffffff) {
		rc = vsnprintf(out, size, fmt, again);
		va_end(again);
		return rc;
	}
	va_end(again);
	if (size)
		out[s.len < size ? s.len : size - 1] = '\0';
	return (int)s.len;
}

int
smp__fmt(char *out, size_t size, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = smp__vfmt(out, size, fmt, ap);
	va_end(ap);
	return rc;
}
