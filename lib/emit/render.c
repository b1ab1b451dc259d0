/*
 * render.c - ready-made output sinks for the emitters: a caller's FILE *
 * and a caller's fixed buffer (snprintf-style: what does not fit is
 * counted, so the caller can retry with a buffer of the right size).
 */
#include <stdio.h>
#include <string.h>

#include "smpreflight.h"

/* Writes to the stream the caller passed; the library opens nothing. */
int
smp_file_write_fn(void *file, const char *data, size_t len)
{
	if (!file || (!data && len))
		return -1;
	if (len == 0)
		return 0;
	return fwrite(data, 1, len, (FILE *)file) == len ? 0 : -1;
}

/* Never fails: output past the end is only counted. */
int
smp_membuf_write_fn(void *membuf, const char *data, size_t len)
{
	struct smp_membuf *m = membuf;

	if (!m || (!data && len))
		return -1;
	if (len && m->buf && m->size > 0 && m->len < m->size - 1) {
		size_t room = m->size - 1 - m->len;
		size_t n = len < room ? len : room;

		memcpy(m->buf + m->len, data, n);
		m->buf[m->len + n] = '\0';
	}
	m->len = len > SIZE_MAX - m->len ? SIZE_MAX : m->len + len;
	return 0;
}

/* smp_emit_text() into buf[0..size) through smp_membuf_write_fn(). */
int
smp_report_render_text(char *buf, size_t size, size_t *needed,
		       const struct smp_report *report,
		       enum smp_severity min_severity, unsigned int flags)
{
	struct smp_membuf m;
	int rc;

	if (needed)
		*needed = 0;
	if (!report || (!buf && size))
		return SMP_EINVAL;
	m.buf = buf;
	m.size = size;
	m.len = 0;
	if (size)
		buf[0] = '\0';
	rc = smp_emit_text(report, min_severity, flags, smp_membuf_write_fn,
			   &m);
	if (needed)
		*needed = m.len;
	return rc;
}
