/*
 * regex.c - POSIX extended regular expressions for the schemas' "pattern"
 * (see regex.h): a parser into a tree, code generation into a Thompson
 * program, and a matcher that runs every thread of the program over the
 * text at once.
 */
#include <string.h>

#include "schema/regex.h"

/* longest program a pattern may compile to */
#define SMP_RX_MAX 256

enum smp_rx_op {
	RX_SET,   /* one byte in set[], then the next instruction */
	RX_SPLIT, /* both x and y */
	RX_JMP,   /* x */
	RX_BOL,   /* only at the start of the text */
	RX_EOL,   /* only at its end */
	RX_MATCH
};

struct smp_rxi {
	unsigned char op; /* enum smp_rx_op */
	unsigned short x, y;
	unsigned char set[32]; /* RX_SET: bit b of set[b / 8] */
};

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

	*out = 0;
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
	unsigned min = 0, max = 0;
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

/* bit pc of a set of program counters */
static int
has_pc(const unsigned char *bits, unsigned pc)
{
	return (int)((bits[pc / 8] >> (pc % 8)) & 1u);
}

/*
 * The threads waiting for a byte (RX_SET pcs, into sets) that the threads
 * in kernel reach at a position where bol and eol say whether the text
 * starts and ends there; 1 when one of them reaches RX_MATCH.
 */
static int
closure(const struct smp_rxi *prog, size_t n, const unsigned char *kernel,
	int bol, int eol, unsigned char *sets)
{
	unsigned char seen[SMP_RX_MAX / 8];
	unsigned short stack[SMP_RX_MAX];
	size_t top = 0, pc;
	int match = 0;

	memset(seen, 0, sizeof(seen));
	memset(sets, 0, SMP_RX_MAX / 8);
	for (pc = 0; pc < n; pc++) {
		if (!has_pc(kernel, (unsigned)pc))
			continue;
		set_bit(seen, (unsigned)pc);
		stack[top++] = (unsigned short)pc;
	}
	while (top) {
		unsigned at = stack[--top], next[2];
		const struct smp_rxi *in = &prog[at];
		size_t nn = 0, i;

		switch (in->op) {
		case RX_MATCH:
			match = 1;
			break;
		case RX_SET:
			set_bit(sets, at);
			break;
		case RX_JMP:
			next[nn++] = in->x;
			break;
		case RX_SPLIT:
			next[nn++] = in->x;
			next[nn++] = in->y;
			break;
		case RX_BOL:
		case RX_EOL:
			if (in->op == RX_BOL ? bol : eol)
				next[nn++] = at + 1;
			break;
		}
		for (i = 0; i < nn; i++) {
			if (has_pc(seen, next[i]))
				continue;
			set_bit(seen, next[i]);
			stack[top++] = (unsigned short)next[i];
		}
	}
	return match;
}

/* a state of the automaton while it is built */
struct dstate {
	unsigned char sets[SMP_RX_MAX / 8]; /* the threads waiting */
	unsigned char accept;
};

struct builder {
	const struct smp_rxi *prog;
	size_t n;
	struct dstate st[SMP_RX_STATES];
	size_t nst;
};

/* The state of the threads of kernel (bol: at the start), added when
 * new; SMP_RX_DEAD when nothing can match any more, -1 when too many. */
static int
state_of(struct builder *b, const unsigned char *kernel, int bol)
{
	struct dstate d;
	size_t i;

	memset(&d, 0, sizeof(d));
	if (closure(b->prog, b->n, kernel, bol, 0, d.sets))
		d.accept |= SMP_RX_ACCEPT;
	if (closure(b->prog, b->n, kernel, bol, 1, d.sets))
		d.accept |= SMP_RX_ACCEPT_AT_END;
	/* the second closure has the more threads: eol only adds */
	closure(b->prog, b->n, kernel, bol, 0, d.sets);
	if (b->nst && !d.accept) {
		for (i = 0; i < sizeof(d.sets) && !d.sets[i]; i++)
			;
		if (i == sizeof(d.sets))
			return SMP_RX_DEAD;
	}
	for (i = 0; i < b->nst; i++)
		if (b->st[i].accept == d.accept &&
		    memcmp(b->st[i].sets, d.sets, sizeof(d.sets)) == 0)
			return (int)i;
	if (b->nst >= SMP_RX_STATES)
		return -1;
	b->st[b->nst] = d;
	return (int)b->nst++;
}

/* The bytes in classes: two bytes share one when every RX_SET treats
 * them alike. */
static unsigned
byte_classes(const struct smp_rxi *prog, size_t n, unsigned char *cls)
{
	unsigned ncls = 1, c;
	size_t pc;

	memset(cls, 0, 256);
	for (pc = 0; pc < n; pc++) {
		short map[256][2];
		unsigned char out[256];
		unsigned next = 0;

		if (prog[pc].op != RX_SET)
			continue;
		memset(map, 0xff, sizeof(map));
		for (c = 0; c < 256; c++) {
			int in = (prog[pc].set[c / 8] >> (c % 8)) & 1;

			if (map[cls[c]][in] < 0)
				map[cls[c]][in] = (short)next++;
			out[c] = (unsigned char)map[cls[c]][in];
		}
		memcpy(cls, out, 256);
		ncls = next;
	}
	return ncls;
}

int
smp__rx_compile(const char *src, struct smp_rx *out, struct smp_rx_buf *buf,
		const char **why)
{
	/* about 30 KB of stack, and no allocation */
	struct smp_rxi prog[SMP_RX_MAX];
	struct parser parser, *p = &parser;
	struct builder builder, *b = &builder;
	unsigned char kernel[SMP_RX_MAX / 8];
	unsigned c, rep[256];
	size_t i, pc;
	int root;

	memset(p, 0, sizeof(*p));
	b->nst = 0;
	p->s = src;
	p->out = prog;
	root = parse_alt(p);
	if (root >= 0 && p->s[p->pos])
		root = fail(p, "a ')' is not opened");
	if (root < 0 || gen(p, (unsigned)root) || emit(p, RX_MATCH) < 0) {
		*why = p->why ? p->why : "the pattern is malformed";
		return -1;
	}
	/* the automaton: state 0 at the start of the text, then the subset
	 * construction, a search restarting at every byte */
	b->prog = prog;
	b->n = p->n;
	memset(out, 0, sizeof(*out));
	out->ncls = (unsigned short)byte_classes(prog, p->n, out->cls);
	for (c = 256; c-- > 0;)
		rep[out->cls[c]] = c;
	memset(kernel, 0, sizeof(kernel));
	set_bit(kernel, 0);
	state_of(b, kernel, 1);
	*why = "the pattern is too complex";
	for (i = 0; i < b->nst; i++) {
		if ((i + 1) * out->ncls > sizeof(buf->next))
			return -1;
		for (c = 0; c < out->ncls; c++) {
			unsigned byte = rep[c];
			int to;

			memset(kernel, 0, sizeof(kernel));
			set_bit(kernel, 0);
			for (pc = 0; pc < p->n; pc++)
				if (has_pc(b->st[i].sets, (unsigned)pc) &&
				    ((prog[pc].set[byte / 8] >> (byte % 8)) &
				     1u))
					set_bit(kernel, (unsigned)pc + 1);
			if ((to = state_of(b, kernel, 0)) < 0)
				return -1;
			buf->next[i * out->ncls + c] = (unsigned char)to;
		}
		buf->accept[i] = b->st[i].accept;
	}
	out->nstates = (unsigned short)b->nst;
	out->next = buf->next;
	out->accept = buf->accept;
	return 0;
}

int
smp__rx_match(const struct smp_rx *rx, const char *text, size_t len)
{
	const unsigned char *s = (const unsigned char *)text;
	unsigned st = 0;
	size_t i;

	if (!rx->nstates)
		return 0;
	for (i = 0; i < len; i++) {
		if (rx->accept[st] & SMP_RX_ACCEPT)
			return 1;
		st = rx->next[st * rx->ncls + rx->cls[s[i]]];
		if (st == SMP_RX_DEAD)
			return 0;
	}
	return (rx->accept[st] & SMP_RX_ACCEPT_AT_END) != 0;
}
