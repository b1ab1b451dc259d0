/*
 * test_emit_util.c - the escapers behind the machine formats: JSON
 * strings (control characters, non-ASCII, invalid UTF-8), XML text and
 * attributes, GitHub workflow-command data and properties, URI paths,
 * and the buffered writer's sticky failure.
 */
#include <criterion/criterion.h>
#include <string.h>

#include "emit/out.h"

struct sink {
	char buf[16384];
	size_t len;
	size_t calls;
	size_t fail_at; /* 0: never fail */
};

static int
sink_write(void *ud, const char *data, size_t len)
{
	struct sink *s = ud;

	s->calls++;
	if (s->fail_at && s->calls >= s->fail_at)
		return -1;
	cr_assert_lt(s->len + len, sizeof(s->buf));
	memcpy(s->buf + s->len, data, len);
	s->len += len;
	s->buf[s->len] = '\0';
	return 0;
}

enum kind { JSON, JSON_BODY, XML_TEXT, XML_ATTR, GH_DATA, GH_PROP, URI };

/* Escapes s one way; returns the output (static storage). */
static const char *
esc(enum kind k, const char *s)
{
	static struct sink sk;
	struct smp__out o;

	memset(&sk, 0, sizeof(sk));
	smp__out_init(&o, sink_write, &sk);
	switch (k) {
	case JSON:
		smp__out_json_string(&o, s);
		break;
	case JSON_BODY:
		smp__out_json_string_body(&o, s);
		break;
	case XML_TEXT:
		smp__out_xml(&o, s, 0);
		break;
	case XML_ATTR:
		smp__out_xml(&o, s, 1);
		break;
	case GH_DATA:
		smp__out_github_data(&o, s);
		break;
	case GH_PROP:
		smp__out_github_property(&o, s);
		break;
	case URI:
		smp__out_uri_path(&o, s);
		break;
	}
	cr_assert_eq(smp__out_flush(&o), 0);
	return sk.buf;
}

Test(emit_util, json_quotes_backslash_and_named_controls)
{
	cr_assert_str_eq(esc(JSON, "say \"hi\" \\ bye"),
			 "\"say \\\"hi\\\" \\\\ bye\"");
	cr_assert_str_eq(esc(JSON, "a\nb\tc\rd\be\ff"),
			 "\"a\\nb\\tc\\rd\\be\\ff\"");
	cr_assert_str_eq(esc(JSON, NULL), "null");
	cr_assert_str_eq(esc(JSON, ""), "\"\"");
	cr_assert_str_eq(esc(JSON_BODY, "x\"y"), "x\\\"y");
}

Test(emit_util, json_other_controls_as_u_escapes)
{
	cr_assert_str_eq(esc(JSON, "\x01\x1f\x1b[31m"),
			 "\"\\u0001\\u001F\\u001B[31m\"");
	/* DEL is legal in a JSON string */
	cr_assert_str_eq(esc(JSON, "\x7f"), "\"\x7f\"");
}

Test(emit_util, json_keeps_utf8_and_escapes_line_separators)
{
	/* é, CJK, an emoji pass as UTF-8 */
	cr_assert_str_eq(esc(JSON, "caf\xC3\xA9 \xE4\xB8\xAD \xF0\x9F\x98\x80"),
			 "\"caf\xC3\xA9 \xE4\xB8\xAD \xF0\x9F\x98\x80\"");
	/* U+2028 and U+2029 end a line in JavaScript */
	cr_assert_str_eq(esc(JSON, "a\xE2\x80\xA8"
				   "b\xE2\x80\xA9"),
			 "\"a\\u2028b\\u2029\"");
}

Test(emit_util, json_invalid_utf8_becomes_replacement)
{
	/* a lone continuation byte, an overlong '/', a surrogate, a
	 * truncated sequence at the end */
	cr_assert_str_eq(esc(JSON, "a\x80"
				   "b"),
			 "\"a\xEF\xBF\xBD"
			 "b\"");
	cr_assert_str_eq(esc(JSON, "\xC0\xAF"), "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");
	cr_assert_str_eq(esc(JSON, "\xED\xA0\x80"),
			 "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\"");
	cr_assert_str_eq(esc(JSON, "x\xE4\xB8"),
			 "\"x\xEF\xBF\xBD\xEF\xBF\xBD\"");
}

Test(emit_util, xml_text_and_attribute)
{
	cr_assert_str_eq(esc(XML_TEXT, "a < b && c > \"d\" 'e'"),
			 "a &lt; b &amp;&amp; c &gt; \"d\" 'e'");
	cr_assert_str_eq(esc(XML_ATTR, "a < b & \"c\" 'd'"),
			 "a &lt; b &amp; &quot;c&quot; 'd'");
	/* whitespace survives attribute normalisation as references */
	cr_assert_str_eq(esc(XML_ATTR, "1\n2\t3\r4"), "1&#10;2&#9;3&#13;4");
	cr_assert_str_eq(esc(XML_TEXT, "1\n2\t3\r4"), "1\n2\t3&#13;4");
	/* "]]>" cannot end a CDATA section that is not there */
	cr_assert_str_eq(esc(XML_TEXT, "]]>"), "]]&gt;");
}

Test(emit_util, xml_forbidden_characters_replaced)
{
	/* C0 controls other than tab/LF/CR are not XML 1.0 characters */
	cr_assert_str_eq(esc(XML_TEXT, "a\x01"
				       "b\x1b"
				       "c"),
			 "a\xEF\xBF\xBD"
			 "b\xEF\xBF\xBD"
			 "c");
	/* U+FFFE, U+FFFF and invalid bytes neither */
	cr_assert_str_eq(esc(XML_TEXT, "\xEF\xBF\xBE\xEF\xBF\xBF\xFF"),
			 "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
	/* other non-ASCII stays */
	cr_assert_str_eq(esc(XML_ATTR, "\xC3\xBC\xE2\x82\xAC"),
			 "\xC3\xBC\xE2\x82\xAC");
}

Test(emit_util, github_data_escapes_percent_and_newlines)
{
	cr_assert_str_eq(esc(GH_DATA, "100% sure\r\nnext: a, b"),
			 "100%25 sure%0D%0Anext: a, b");
	/* a newline cannot start another command */
	cr_assert_str_eq(esc(GH_DATA, "x\n::error::pwned"),
			 "x%0A::error::pwned");
}

Test(emit_util, github_property_also_escapes_colon_and_comma)
{
	cr_assert_str_eq(esc(GH_PROP, "a:b,c%d\ne"), "a%3Ab%2Cc%25d%0Ae");
	cr_assert_str_eq(esc(GH_PROP, "jobs/bert.yaml"), "jobs/bert.yaml");
}

Test(emit_util, github_controls_and_invalid_bytes)
{
	cr_assert_str_eq(esc(GH_DATA, "a\tb"), "a b");
	cr_assert_str_eq(esc(GH_DATA, "\x1b[2J\x7f"),
			 "\xEF\xBF\xBD[2J\xEF\xBF\xBD");
	cr_assert_str_eq(esc(GH_PROP, "\xC2\x85\xFE"),
			 "\xEF\xBF\xBD\xEF\xBF\xBD");
	cr_assert_str_eq(esc(GH_DATA, "na\xC3\xAFve"), "na\xC3\xAFve");
}

Test(emit_util, uri_relative_paths)
{
	cr_assert_str_eq(esc(URI, "jobs/bert.yaml"), "jobs/bert.yaml");
	cr_assert_str_eq(esc(URI, "./jobs/x.yaml"), "jobs/x.yaml");
	cr_assert_str_eq(esc(URI, "././/a.json"), "a.json");
	cr_assert_str_eq(esc(URI, "../up/a b#1?.yaml"),
			 "../up/a%20b%231%3F.yaml");
	/* a first segment with ':' must not read as a scheme */
	cr_assert_str_eq(esc(URI, "c:job.yaml"), "c%3Ajob.yaml");
	cr_assert_str_eq(esc(URI, "<stdin>"), "%3Cstdin%3E");
	cr_assert_str_eq(esc(URI, "back\\slash%.yaml"), "back%5Cslash%25.yaml");
	/* UTF-8 is percent-encoded byte by byte */
	cr_assert_str_eq(esc(URI, "caf\xC3\xA9.yaml"), "caf%C3%A9.yaml");
}

Test(emit_util, uri_absolute_path_becomes_file_uri)
{
	cr_assert_str_eq(esc(URI, "/home/ci/jobs/a.yaml"),
			 "file:///home/ci/jobs/a.yaml");
	cr_assert_str_eq(esc(URI, "/tmp/x y"), "file:///tmp/x%20y");
}

Test(emit_util, long_output_crosses_the_buffer)
{
	static char big[10000];
	static struct sink sk;
	struct smp__out o;

	memset(big, 'a', sizeof(big) - 1);
	big[5000] = '"';
	memset(&sk, 0, sizeof(sk));
	smp__out_init(&o, sink_write, &sk);
	smp__out_json_string(&o, big);
	cr_assert_eq(smp__out_flush(&o), 0);
	cr_assert_eq(sk.len, sizeof(big) - 1 + 2 + 1);
	cr_assert_gt(sk.calls, 1);
	cr_assert_eq(memcmp(sk.buf + 5001, "\\\"", 2), 0);
}

Test(emit_util, sink_failure_is_sticky)
{
	static char big[10000];
	static struct sink sk;
	struct smp__out o;

	memset(big, 'b', sizeof(big) - 1);
	memset(&sk, 0, sizeof(sk));
	sk.fail_at = 1;
	smp__out_init(&o, sink_write, &sk);
	smp__out_str(&o, big);
	smp__out_str(&o, big);
	cr_assert_eq(smp__out_flush(&o), SMP_EIO);
	cr_assert_eq(sk.calls, 1); /* nothing more was tried */
	cr_assert_eq(smp__out_flush(&o), SMP_EIO);
}

Test(emit_util, numbers)
{
	static struct sink sk;
	struct smp__out o;

	memset(&sk, 0, sizeof(sk));
	smp__out_init(&o, sink_write, &sk);
	smp__out_uint(&o, 0);
	smp__out_str(&o, " ");
	smp__out_uint(&o, 18446744073709551615ull);
	cr_assert_eq(smp__out_flush(&o), 0);
	cr_assert_str_eq(sk.buf, "0 18446744073709551615");
}

Test(emit_util, format_names_round_trip)
{
	static const char *const names[] = {"text", "json", "sarif", "github",
					    "junit"};
	enum smp_format f;
	size_t i;

	for (i = 0; i < 5; i++) {
		cr_assert_eq(smp_format_parse(&f, names[i]), 0);
		cr_assert_eq((size_t)f, i);
		cr_assert_str_eq(smp_format_name(f), names[i]);
	}
	cr_assert_eq(smp_format_parse(&f, "xml"), SMP_EINVAL);
	cr_assert_eq(smp_format_parse(&f, NULL), SMP_EINVAL);
	cr_assert_str_eq(smp_format_name((enum smp_format)99), "?");
}
