/*
 * fmath.c - fmod() and the integer powers of pow() without libm (see
 * fmath.h). A power is multiplied out by squaring in double-double
 * arithmetic (a value as the unevaluated sum hi + lo of two doubles,
 * ~106 bits, with Dekker's exact product) and a binary exponent kept
 * apart, then rounded once: within ~2^-100 of the true value before its
 * rounding, so exact when the power is representable.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "util/fmath.h"

double
smp__fmod(double x, double y)
{
	double r = fabs(x), ay = fabs(y), d;

	if (!isfinite(x) || isnan(y) || y == 0)
		return (x * y) / (x * y); /* NaN */
	if (r < ay)
		return x; /* also when y is infinite */
	/* d: the largest ay * 2^k <= r, so that r - d is exact */
	d = ay;
	while (d <= DBL_MAX / 2 && d + d <= r)
		d += d;
	while (r >= ay) {
		while (d > r)
			d *= 0.5; /* exact: ay times a power of 2 */
		r -= d;           /* d <= r < 2d: exact */
	}
	return copysign(r, x);
}

/* (hi + lo) * 2^e, hi = fl(hi + lo), 1 <= hi < 2^256 */
struct ddx {
	double hi, lo;
	long e;
};

/* a = hi + lo exactly, 26 bits each (Dekker's split; |a| < 2^995) */
static void
split(double a, double *hi, double *lo)
{
	double c = 134217729.0 * a; /* 2^27 + 1 */

	*hi = c - (c - a);
	*lo = a - *hi;
}

/* p = fl(a * b) and *err = a * b - p, exactly */
static double
two_prod(double a, double b, double *err)
{
	double p = a * b, ah, al, bh, bl;

	split(a, &ah, &al);
	split(b, &bh, &bl);
	*err = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
	return p;
}

static struct ddx
mul(struct ddx a, struct ddx b)
{
	struct ddx r;
	double err, p = two_prod(a.hi, b.hi, &err);

	err += a.hi * b.lo + a.lo * b.hi;
	r.hi = p + err;
	r.lo = err - (r.hi - p);
	r.e = a.e + b.e;
	if (r.hi >= 0x1p256) { /* exact: both stay normal */
		r.hi *= 0x1p-256;
		r.lo *= 0x1p-256;
		r.e += 256;
	}
	return r;
}

/* 1 / (a.hi + a.lo) as hi + lo (2^-256 < hi <= 1) */
static void
recip(const struct ddx *a, double *hi, double *lo)
{
	double q = 1.0 / a->hi, err, p = two_prod(q, a->hi, &err);
	/* 1 - q * a: 1 - p is exact, p being within an ulp of 1 */
	double q2 = (((1.0 - p) - err) - q * a->lo) / a->hi;

	*hi = q + q2;
	*lo = q2 - (*hi - q);
}

/* (hi + lo) * 2^e for hi = fl(hi + lo) positive and normal, rounded
 * once (to nearest, ties to even) */
static double
scale(double hi, double lo, long e)
{
	uint64_t bits;
	long t;
	double a, b, n;

	memcpy(&bits, &hi, sizeof(bits));
	t = (long)(bits >> 52) - 1023 + e;
	if (t > 1023)
		return HUGE_VAL;
	if (t < -1076) /* below half the least subnormal */
		return 0.0;
	bits &= ~((uint64_t)0x7ff << 52);
	if (t >= -1022) { /* exact: only the exponent changes */
		bits |= (uint64_t)(t + 1023) << 52;
		memcpy(&hi, &bits, sizeof(hi));
		return hi;
	}
	/* subnormal: hi + lo in units of 2^-1074 is a + b, a < 2^52; round
	 * a to an integer n, then let b decide a tie */
	bits |= (uint64_t)(t + 1074 + 1023) << 52;
	memcpy(&a, &bits, sizeof(a));
	b = lo * (a / hi); /* a / hi: a power of 2 */
	n = (a + 0x1p52) - 0x1p52;
	if (a - n == 0.5 && b > 0)
		n += 1;
	else if (a - n == -0.5 && b < 0)
		n -= 1;
	return n * 0x1p-1074;
}

/*
 * |x|^n, or its reciprocal, for a finite |x| != 0, 1 and an integer
 * n >= 1: 0, or -1 when n > 2^40 and the power is not certainly out of
 * range (each squaring doubles the relative error: 2^40 of them keep it
 * below 2^-63)
 */
static int
int_pow(double *out, double x, double n, int reciprocal)
{
	double m = fabs(x), hi, lo, big = reciprocal ? 0.0 : HUGE_VAL;
	double tiny = reciprocal ? HUGE_VAL : 0.0;
	struct ddx r = {1.0, 0.0, 0}, b;
	uint64_t bits, k;
	long ex = 0, e;

	if (m < DBL_MIN) { /* subnormal */
		m *= 0x1p54;
		ex = -54;
	}
	memcpy(&bits, &m, sizeof(bits));
	ex += (long)(bits >> 52) - 1023;
	bits = (bits & ~((uint64_t)0x7ff << 52)) | ((uint64_t)1023 << 52);
	memcpy(&m, &bits, sizeof(m)); /* |x| = m * 2^ex, 1 <= m < 2 */
	/* 2^(n ex) <= |x|^n < 2^(n (ex + 1)), and near 1 (ln y between
	 * (y - 1) / y and y - 1): |x|^n >= e^(n (|x| - 1) / 2) when ex is
	 * 0, |x|^n <= e^(-n (1 - |x|)) when it is -1 (both exact) */
	if (n * (double)ex > 1100 || (ex == 0 && n * (m - 1) > 1500)) {
		*out = big;
		return 0;
	}
	if (n * (double)(ex + 1) < -1180 ||
	    (ex == -1 && n * (1 - m / 2) > 800)) {
		*out = tiny;
		return 0;
	}
	if (n > 0x1p40)
		return -1;
	b.hi = m;
	b.lo = 0.0;
	b.e = 0;
	for (k = (uint64_t)n;;) {
		if (k & 1)
			r = mul(r, b);
		k >>= 1;
		if (!k)
			break;
		b = mul(b, b);
	}
	/* no long overflows: n <= 1180 unless ex is 0 or -1 */
	e = r.e + ex * (long)n;
	if (!reciprocal) {
		*out = scale(r.hi, r.lo, e);
		return 0;
	}
	recip(&r, &hi, &lo);
	*out = scale(hi, lo, -e);
	return 0;
}

/* y is an integer (every double of 2^53 or more is, an even one) */
static int
is_integer(double y)
{
	return fabs(y) >= 0x1p53 || y == (double)(int64_t)y;
}

static int
is_odd(double y)
{
	return fabs(y) < 0x1p53 && y == (double)(int64_t)y && ((int64_t)y & 1);
}

int
smp__pow(double *out, double x, double y)
{
	double ax = fabs(x), v;

	if (y == 0 || x == 1) {
		*out = 1.0;
		return 0;
	}
	if (isnan(x) || isnan(y)) {
		*out = x + y;
		return 0;
	}
	if (isinf(y)) {
		*out = ax == 1 ? 1.0 : (ax < 1) == (y < 0) ? HUGE_VAL : 0.0;
		return 0;
	}
	if (x == 0 || isinf(x)) {
		/* 0^y and inf^y: 0 or inf, signed as x when y is odd */
		v = (x == 0) == (y < 0) ? HUGE_VAL : 0.0;
		*out = is_odd(y) ? copysign(v, x) : v;
		return 0;
	}
	if (!is_integer(y)) {
		if (x < 0) {
			*out = (x - x) / (x - x); /* NaN: no real power */
			return 0;
		}
		if (y != 0.5)
			return -1;
		*out = sqrt(x);
		return 0;
	}
	if (ax == 1) { /* -1 */
		*out = is_odd(y) ? -1.0 : 1.0;
		return 0;
	}
	if (int_pow(&v, x, fabs(y), y < 0))
		return -1;
	*out = x < 0 && is_odd(y) ? -v : v;
	return 0;
}
