/*
 * lsp_proto.c - the base protocol: messages framed by a Content-Length
 * header (LSP 3.17 "Base Protocol"), read with a bounded buffer, and the
 * JSON-RPC envelopes written back. A header that cannot be read is
 * skipped up to its blank line; a body over LSP_MAX_MESSAGE is read past
 * without being kept, so no input makes the server hold more than that.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "lsp.h"

#define HEADER_MAX 8192

struct lsp_reader {
	int fd;
	int eof;
	char buf[65536];
	size_t start, end; /* unread bytes buf[start, end) */
};

struct lsp_reader *
lsp_reader_new(int fd)
{
	struct lsp_reader *r = calloc(1, sizeof(*r));

	if (r)
		r->fd = fd;
	return r;
}

void
lsp_reader_free(struct lsp_reader *r)
{
	free(r);
}

int64_t
lsp_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Refills the buffer; 1 read, 0 timed out, -1 end of input. */
static int
fill(struct lsp_reader *r, int timeout_ms)
{
	struct pollfd pfd = {r->fd, POLLIN, 0};
	ssize_t got;

	if (r->eof)
		return -1;
	if (r->start > 0) {
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->end -= r->start;
		r->start = 0;
	}
	if (r->end == sizeof(r->buf))
		return 1; /* full: the caller consumes first */
	if (timeout_ms >= 0) {
		int k = poll(&pfd, 1, timeout_ms);

		if (k == 0 || (k < 0 && errno == EINTR))
			return 0;
	}
	do
		got = read(r->fd, r->buf + r->end, sizeof(r->buf) - r->end);
	while (got < 0 && errno == EINTR);
	if (got <= 0) {
		r->eof = 1;
		return -1;
	}
	r->end += (size_t)got;
	return 1;
}

/* The end of the header block (after "\r\n\r\n") in the buffer, or 0. */
static size_t
header_end(const struct lsp_reader *r)
{
	size_t i;

	for (i = r->start; i + 3 < r->end; i++)
		if (memcmp(r->buf + i, "\r\n\r\n", 4) == 0)
			return i + 4 - r->start;
	return 0;
}

/* Content-Length of a header block; -1 when missing or malformed. */
static long long
content_length(const char *h, size_t n)
{
	static const char name[] = "content-length:";
	const char *p = h, *end = h + n;
	long long v = -1;

	while (p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		size_t len = eol ? (size_t)(eol - p) : (size_t)(end - p);

		if (len > sizeof(name) - 1 &&
		    strncasecmp(p, name, sizeof(name) - 1) == 0) {
			const char *q = p + sizeof(name) - 1;
			char *stop;

			while (*q == ' ' || *q == '\t')
				q++;
			if (*q < '0' || *q > '9')
				return -1;
			v = strtoll(q, &stop, 10);
			while (*stop == ' ' || *stop == '\t')
				stop++;
			if (*stop != '\r' && *stop != '\n')
				return -1;
		}
		p += len + 1;
	}
	return v;
}

/* Reads n body bytes into out (or drops them when out is NULL). */
static int
read_body(struct lsp_reader *r, char *out, size_t n)
{
	size_t have = 0;

	while (have < n) {
		size_t k = r->end - r->start;

		if (k == 0) {
			if (fill(r, -1) < 0)
				return -1;
			continue;
		}
		if (k > n - have)
			k = n - have;
		if (out)
			memcpy(out + have, r->buf + r->start, k);
		r->start += k;
		have += k;
	}
	return 0;
}

int
lsp_read(struct lsp_reader *r, int timeout_ms, char **body, size_t *len)
{
	size_t hlen;
	long long n;
	char *out;
	int k;

	*body = NULL;
	while ((hlen = header_end(r)) == 0) {
		if (r->end - r->start >= HEADER_MAX) {
			/* no blank line in sight: drop it and resync */
			r->start = r->end;
			fprintf(stderr, "sm-preflight lsp: header too long, "
					"skipped\n");
			return -2;
		}
		k = fill(r, timeout_ms);
		if (k <= 0)
			return k;
		timeout_ms = -1; /* a message has begun: read it whole */
	}
	n = content_length(r->buf + r->start, hlen);
	r->start += hlen;
	if (n < 0) {
		fprintf(stderr, "sm-preflight lsp: a header without a valid "
				"Content-Length, skipped\n");
		return -2;
	}
	if ((unsigned long long)n > LSP_MAX_MESSAGE) {
		fprintf(stderr,
			"sm-preflight lsp: a message of %lld bytes, over "
			"the limit of %zu, skipped\n",
			n, LSP_MAX_MESSAGE);
		return read_body(r, NULL, (size_t)n) ? -1 : -2;
	}
	out = malloc((size_t)n + 1);
	if (!out)
		return read_body(r, NULL, (size_t)n) ? -1 : -2;
	if (read_body(r, out, (size_t)n)) {
		free(out);
		return -1;
	}
	out[n] = '\0';
	*body = out;
	*len = (size_t)n;
	return 1;
}

void
lsp_buf_add(struct lsp_buf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		char *p;

		while (cap < b->len + n + 1)
			cap *= 2;
		p = realloc(b->data, cap);
		if (!p) {
			b->oom = 1;
			return;
		}
		b->data = p;
		b->cap = cap;
	}
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void
lsp_buf_str(struct lsp_buf *b, const char *s)
{
	lsp_buf_add(b, s, strlen(s));
}

void
lsp_buf_printf(struct lsp_buf *b, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n > 0)
		lsp_buf_add(b, tmp,
			    (size_t)n < sizeof(tmp) ? (size_t)n
						    : sizeof(tmp) - 1);
}

static int
buf_write(void *ud, const char *data, size_t len)
{
	lsp_buf_add(ud, data, len);
	return 0;
}

void
lsp_buf_json(struct lsp_buf *b, const char *s)
{
	smp_json_write_string(s, buf_write, b);
}

void
lsp_buf_free(struct lsp_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof(*b));
}

static void
write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t k = write(fd, p, n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return; /* the client is gone; the read loop ends */
		p += k;
		n -= (size_t)k;
	}
}

void
lsp_send(struct lsp_server *s, struct lsp_buf *b)
{
	char head[64];
	int n;

	if (b->oom) {
		fprintf(stderr, "sm-preflight lsp: out of memory; a message "
				"was not sent\n");
		lsp_buf_free(b);
		return;
	}
	n = snprintf(head, sizeof(head), "Content-Length: %zu\r\n\r\n", b->len);
	write_all(s->out_fd, head, (size_t)n);
	write_all(s->out_fd, b->data, b->len);
	b->len = 0;
}

void
lsp_buf_id(struct lsp_buf *b, const struct smp_json_value *id)
{
	enum smp_json_type t = smp_json_type(id);

	if (t == SMP_JSON_NUMBER)
		lsp_buf_str(b, smp_json_text(id, NULL));
	else if (t == SMP_JSON_STRING)
		lsp_buf_json(b, smp_json_text(id, NULL));
	else
		lsp_buf_str(b, "null");
}

void
lsp_result_open(struct lsp_buf *b, const struct smp_json_value *id)
{
	lsp_buf_str(b, "{\"jsonrpc\":\"2.0\",\"id\":");
	lsp_buf_id(b, id);
	lsp_buf_str(b, ",\"result\":");
}

void
lsp_send_result(struct lsp_server *s, const struct smp_json_value *id,
		const char *result)
{
	struct lsp_buf b = {0};

	lsp_result_open(&b, id);
	lsp_buf_str(&b, result);
	lsp_buf_str(&b, "}");
	lsp_send(s, &b);
	lsp_buf_free(&b);
}

void
lsp_send_error(struct lsp_server *s, const struct smp_json_value *id, int code,
	       const char *message)
{
	struct lsp_buf b = {0};

	lsp_buf_str(&b, "{\"jsonrpc\":\"2.0\",\"id\":");
	lsp_buf_id(&b, id);
	lsp_buf_printf(&b, ",\"error\":{\"code\":%d,\"message\":", code);
	lsp_buf_json(&b, message);
	lsp_buf_str(&b, "}}");
	lsp_send(s, &b);
	lsp_buf_free(&b);
}

void
lsp_notify_open(struct lsp_buf *b, const char *method)
{
	lsp_buf_str(b, "{\"jsonrpc\":\"2.0\",\"method\":");
	lsp_buf_json(b, method);
	lsp_buf_str(b, ",\"params\":");
}

void
lsp_log(struct lsp_server *s, int type, const char *fmt, ...)
{
	struct lsp_buf b = {0};
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "sm-preflight lsp: %s\n", msg);
	lsp_notify_open(&b, "window/logMessage");
	lsp_buf_printf(&b, "{\"type\":%d,\"message\":", type);
	lsp_buf_json(&b, msg);
	lsp_buf_str(&b, "}}");
	lsp_send(s, &b);
	lsp_buf_free(&b);
}

const char *
lsp_str(const struct smp_json_value *v, const char *key)
{
	const struct smp_json_value *m = smp_json_get(v, key);

	return smp_json_type(m) == SMP_JSON_STRING ? smp_json_text(m, NULL)
						   : NULL;
}

long
lsp_int(const struct smp_json_value *v, const char *key, long dflt)
{
	double d;

	if (smp_json_number(smp_json_get(v, key), &d) || d < -2147483648.0 ||
	    d > 2147483647.0)
		return dflt;
	return (long)d;
}
