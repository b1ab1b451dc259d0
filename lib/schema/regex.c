/*
 * regex.c - POSIX extended regular expressions for the schemas' "pattern"
 * (see regex.h): a parser into a tree, code generation into a Thompson
 * program, and a matcher that runs every thread of the program over the
 * text at once.
 */
#include <string.h>

#include "schema/regex.h"

/* the tree of a pattern */
enum { N_EMPTY, N_SET, N_BOL, N_EOL, N_CAT, N_ALT, N_REP };

#define REP_INF 0xffffu
/* the largest count of {n,m} (POSIX's RE_DUP_MAX is at least 255) */
#define REP_MAX 255u
#define NEST_MAX 64

struct tnode {
	unsigned char type;
	unsigned short a, b;     /* children (N_CAT, N_ALT; N_REP: a) */
	unsigned short min, max; /* N_REP */
	unsigned char set[32];   /* N_SET */
};

struct parser {
	const char *s;
	size_t pos;
	struct tnode t[SMP_RX_MAX];
	size_t nt;
	unsigned depth;
	const char *why;
	struct smp_rxi *out;
	size_t n;
};

static int
fail(struct parser *p, const char *why)
{
	if (!p->why)
		p->why = why;
	return -1;
}

static int
new_node(struct parser *p, unsigned char type)
{
	if (p->nt >= SMP_RX_MAX)
		return fail(p, "the pattern is too long");
	memset(&p->t[p->nt], 0, sizeof(p->t[0]));
	p->t[p->nt].type = type;
	return (int)p->nt++;
}

static void
set_bit(unsigned char *set, unsigned c)
{
	set[c / 8] = (unsigned char)(set[c / 8] | (1u << (c % 8)));
}

static int
in_class(const char *name, size_t len, unsigned c)
{
	static const struct {
		const char *name;
		const char *lo, *hi; /* ranges, pairwise */
	} classes[] = {
		{"alpha", "Aa", "Zz"},     {"digit", "0", "9"},
		{"alnum", "Aa0", "Zz9"},   {"upper", "A", "Z"},
		{"lower", "a", "z"},       {"xdigit", "0Aa", "9Ff"},
		{"space", " \t", " \r"},   {"blank", " \t", " \t"},
		{"punct", "!:[{", "/@`~"}, {"print", " ", "~"},
		{"graph", "!", "~"},       {"cntrl", "\001\177", "\037\177"},
	};
	size_t i, j;

	for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
		if (strlen(classes[i].name) != len ||
		    memcmp(classes[i].name, name, len) != 0)
			continue;
		for (j = 0; classes[i].lo[j]; j++)
			if (c >= (unsigned char)classes[i].lo[j] &&
			    c <= (unsigned char)classes[i].hi[j])
				return 1;
		return 0;
	}
	return -1;
}

/* A bracket expression, p->pos just after '['. */
static int
parse_bracket(struct parser *p, unsigned char *set)
{
	const char *s = p->s;
	int neg = 0, first = 1;
	unsigned c, i;

	if (s[p->pos] == '^') {
		neg = 1;
		p->pos++;
	}
	for (;;) {
		unsigned lo;

		c = (unsigned char)s[p->pos];
		if (!c)
			return fail(p, "a '[' is not closed");
		if (c == ']' && !first)
			break;
		first = 0;
		if (c == '[' && (s[p->pos + 1] == '.' || s[p->pos + 1] == '='))
			return fail(p, "collating elements are not supported");
		if (c == '[' && s[p->pos + 1] == ':') {
			const char *name = s + p->pos + 2;
			const char *end = strstr(name, ":]");

			if (!end ||
			    in_class(name, (size_t)(end - name), 'a') < 0)
				return fail(p, "an unknown character class");
			for (i = 1; i < 256; i++)
				if (in_class(name, (size_t)(end - name), i) ==
				    1)
					set_bit(set, i);
			p->pos = (size_t)(end + 2 - s);
			continue;
		}
		lo = c;
		p->pos++;
		if (s[p->pos] == '-' && s[p->pos + 1] && s[p->pos + 1] != ']') {
			unsigned hi = (unsigned char)s[p->pos + 1];

			if (hi == '[')
				return fail(p, "a range ends in a class");
			if (hi < lo)
				return fail(p, "a range is backwards");
			for (i = lo; i <= hi; i++)
				set_bit(set, i);
			p->pos += 2;
		} else {
			set_bit(set, lo);
		}
	}
	p->pos++; /* ']' */
	if (neg)
		for (i = 0; i < 32; i++)
			set[i] = (unsigned char)~set[i];
	set[0] = (unsigned char)(set[0] & ~1u); /* never the NUL byte */
	return 0;
}

static int parse_alt(struct parser *p);

static int
parse_atom(struct parser *p)
{
	unsigned c = (unsigned char)p->s[p->pos];
	int n, i;

	switch (c) {
	case '(':
		if (++p->depth > NEST_MAX)
			return fail(p, "groups nest too deeply");
		p->pos++;
		n = parse_alt(p);
		if (n < 0)
			return -1;
		if (p->s[p->pos] != ')')
			return fail(p, "a '(' is not closed");
		p->pos++;
		p->depth--;
		return n;
	case '^':
	case '$':
		p->pos++;
		return new_node(p, c == '^' ? N_BOL : N_EOL);
	case '.':
		p->pos++;
		if ((n = new_node(p, N_SET)) < 0)
			return -1;
		memset(p->t[n].set, 0xff, 32);
		p->t[n].set[0] = 0xfe;
		return n;
	case '[':
		p->pos++;
		if ((n = new_node(p, N_SET)) < 0)
			return -1;
		return parse_bracket(p, p->t[n].set) ? -1 : n;
	case '\\':
		c = (unsigned char)p->s[++p->pos];
		if (!c)
			return fail(p, "the pattern ends in '\\'");
		if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
		    (c >= 'A' && c <= 'Z'))
			return fail(p, "an escape such as \\d is not POSIX; "
				       "write a bracket expression such as "
				       "[0-9]");
		break;
	case '*':
	case '+':
	case '?':
	case '{':
		return fail(p, "a repetition follows nothing");
	case ')':
		return fail(p, "a ')' is not opened");
	default:
		break;
	}
	p->pos++;
	if ((n = new_node(p, N_SET)) < 0)
		return -1;
	i = (int)c;
	set_bit(p->t[n].set, (unsigned)i);
	return n;
}

static int
parse_count(struct parser *p, unsigned *out)
{
	unsigned v = 0;

	if (p->s[p->pos] < '0' || p->s[p->pos] > '9')
		return -1;
	while (p->s[p->pos] >= '0' && p->s[p->pos] <= '9') {
		v = v * 10 + (unsigned)(p->s[p->pos++] - '0');
		if (v > REP_MAX)
			return fail(p, "a repetition count is too large");
	}
	*out = v;
	return 0;
}

static int
parse_piece(struct parser *p)
{
	unsigned min, max;
	int a = parse_atom(p), r;
	char c = p->s[p->pos];

	if (a < 0)
		return -1;
	if (c == '*' || c == '+' || c == '?') {
		min = c == '+';
		max = c == '?' ? 1 : REP_INF;
		p->pos++;
	} else if (c == '{') {
		p->pos++;
		if (parse_count(p, &min))
			return fail(p, "a '{' is not a repetition count");
		max = min;
		if (p->s[p->pos] == ',') {
			p->pos++;
			max = REP_INF;
			if (p->s[p->pos] != '}' && parse_count(p, &max))
				return fail(p,
					    "a '{' is not a repetition count");
		}
		if (p->s[p->pos] != '}' || max < min)
			return fail(p, "a '{' is not a repetition count");
		p->pos++;
	} else {
		return a;
	}
	c = p->s[p->pos];
	if (c == '*' || c == '+' || c == '?' || c == '{')
		return fail(p, "two repetitions in a row");
	if ((r = new_node(p, N_REP)) < 0)
		return -1;
	p->t[r].a = (unsigned short)a;
	p->t[r].min = (unsigned short)min;
	p->t[r].max = (unsigned short)max;
	return r;
}

static int
parse_seq(struct parser *p)
{
	int left = -1;

	while (p->s[p->pos] && p->s[p->pos] != '|' && p->s[p->pos] != ')') {
		int right = parse_piece(p), cat;

		if (right < 0)
			return -1;
		if (left < 0) {
			left = right;
			continue;
		}
		if ((cat = new_node(p, N_CAT)) < 0)
			return -1;
		p->t[cat].a = (unsigned short)left;
		p->t[cat].b = (unsigned short)right;
		left = cat;
	}
	return left < 0 ? new_node(p, N_EMPTY) : left;
}

static int
parse_alt(struct parser *p)
{
	int left = parse_seq(p);

	while (left >= 0 && p->s[p->pos] == '|') {
		int right, alt;

		p->pos++;
		if ((right = parse_seq(p)) < 0)
			return -1;
		if ((alt = new_node(p, N_ALT)) < 0)
			return -1;
		p->t[alt].a = (unsigned short)left;
		p->t[alt].b = (unsigned short)right;
		left = alt;
	}
	return left;
}

static int
emit(struct parser *p, unsigned char op)
{
	if (p->n >= SMP_RX_MAX)
		return fail(p, "the pattern is too long");
	memset(&p->out[p->n], 0, sizeof(p->out[0]));
	p->out[p->n].op = op;
	return (int)p->n++;
}

static int
gen(struct parser *p, unsigned t)
{
	const struct tnode *nd = &p->t[t];
	int i, j, k;
	unsigned r;

	switch (nd->type) {
	case N_EMPTY:
		return 0;
	case N_SET:
		if ((i = emit(p, RX_SET)) < 0)
			return -1;
		memcpy(p->out[i].set, nd->set, 32);
		return 0;
	case N_BOL:
	case N_EOL:
		return emit(p, nd->type == N_BOL ? RX_BOL : RX_EOL) < 0 ? -1
									: 0;
	case N_CAT:
		return gen(p, nd->a) || gen(p, nd->b) ? -1 : 0;
	case N_ALT:
		/* SPLIT a, b; a; JMP end; b; end: */
		if ((i = emit(p, RX_SPLIT)) < 0 || gen(p, nd->a) ||
		    (j = emit(p, RX_JMP)) < 0)
			return -1;
		p->out[i].x = (unsigned short)(i + 1);
		p->out[i].y = (unsigned short)p->n;
		if (gen(p, nd->b))
			return -1;
		p->out[j].x = (unsigned short)p->n;
		return 0;
	default: /* N_REP: min copies, then the optional ones or a loop */
		for (r = 0; r < nd->min; r++)
			if (gen(p, nd->a))
				return -1;
		if (nd->max == REP_INF) {
			/* loop: SPLIT body, out; body; JMP loop; out: */
			if ((i = emit(p, RX_SPLIT)) < 0 || gen(p, nd->a) ||
			    (j = emit(p, RX_JMP)) < 0)
				return -1;
			p->out[i].x = (unsigned short)(i + 1);
			p->out[i].y = (unsigned short)p->n;
			p->out[j].x = (unsigned short)i;
			return 0;
		}
		/* each optional copy may be skipped to the end */
		k = (int)p->n;
		for (r = nd->min; r < nd->max; r++) {
			if ((i = emit(p, RX_SPLIT)) < 0 || gen(p, nd->a))
				return -1;
			p->out[i].x = (unsigned short)(i + 1);
		}
		for (i = k; i < (int)p->n; i++)
			if (p->out[i].op == RX_SPLIT && p->out[i].y == 0 &&
			    p->out[i].x == i + 1)
				p->out[i].y = (unsigned short)p->n;
		return 0;
	}
}

int
smp__rx_compile(const char *src, struct smp_rxi *out, size_t *n,
		const char **why)
{
	struct parser *p, local;
	int root;

	p = &local;
	memset(p, 0, sizeof(*p));
	p->s = src;
	p->out = out;
	root = parse_alt(p);
	if (root >= 0 && p->s[p->pos])
		root = fail(p, "a ')' is not opened");
	if (root < 0 || gen(p, (unsigned)root) || emit(p, RX_MATCH) < 0) {
		*why = p->why ? p->why : "the pattern is malformed";
		return -1;
	}
	*n = p->n;
	return 0;
}

/*
 * Adds thread pc at text position pos to list (each pc once per step:
 * mark[pc] == step), following jumps and assertions. 1 when a thread
 * reaches RX_MATCH.
 */
static int
add(const struct smp_rxi *prog, unsigned short *list, size_t *count,
    unsigned *mark, unsigned step, unsigned pc, size_t pos, size_t len)
{
	unsigned short stack[SMP_RX_MAX];
	size_t top = 0;

	if (mark[pc] == step)
		return 0;
	mark[pc] = step;
	stack[top++] = (unsigned short)pc;
	while (top) {
		const struct smp_rxi *in = &prog[stack[--top]];
		unsigned next[2];
		size_t nn = 0, i;

		switch (in->op) {
		case RX_MATCH:
			return 1;
		case RX_SET:
			list[(*count)++] = (unsigned short)(in - prog);
			break;
		case RX_JMP:
			next[nn++] = in->x;
			break;
		case RX_SPLIT:
			next[nn++] = in->y;
			next[nn++] = in->x;
			break;
		case RX_BOL:
			if (pos == 0)
				next[nn++] = (unsigned)(in - prog) + 1;
			break;
		default: /* RX_EOL */
			if (pos == len)
				next[nn++] = (unsigned)(in - prog) + 1;
			break;
		}
		for (i = 0; i < nn; i++) {
			if (mark[next[i]] == step)
				continue;
			mark[next[i]] = step;
			stack[top++] = (unsigned short)next[i];
		}
	}
	return 0;
}

int
smp__rx_match(const struct smp_rxi *prog, size_t n, const char *text,
	      size_t len)
{
	unsigned short a[SMP_RX_MAX], b[SMP_RX_MAX];
	unsigned short *cur = a, *next = b, *tmp;
	unsigned mark[SMP_RX_MAX];
	size_t ncur = 0, nnext, i, pos;
	unsigned step = 1;

	if (!n || n > SMP_RX_MAX)
		return 0;
	memset(mark, 0, n * sizeof(mark[0]));
	for (pos = 0;; pos++) {
		/* a match may start anywhere */
		if (add(prog, cur, &ncur, mark, step, 0, pos, len))
			return 1;
		if (pos == len || (!ncur && prog[0].op == RX_BOL))
			return 0;
		step++;
		nnext = 0;
		for (i = 0; i < ncur; i++) {
			const struct smp_rxi *in = &prog[cur[i]];
			unsigned c = (unsigned char)text[pos];

			if ((in->set[c / 8] >> (c % 8)) & 1u &&
			    add(prog, next, &nnext, mark, step, cur[i] + 1u,
				pos + 1, len))
				return 1;
		}
		tmp = cur;
		cur = next;
		next = tmp;
		ncur = nnext;
	}
}
