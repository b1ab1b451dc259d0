/*
 * fmath.h - the two functions of the C math library the library needs
 * beyond those that compile to an instruction (fabs, floor, sqrt under
 * -fno-math-errno), so that a program using it loads no libm. Results
 * and special cases are those of C11 Annex F fmod() and pow().
 */
#ifndef SMP_FMATH_H
#define SMP_FMATH_H

/* fmod(x, y): x - n * y for the integer n that truncates x / y, exact;
 * NaN when x is infinite or y is 0. */
double smp__fmod(double x, double y);

/*
 * pow(x, y) into *out, returning 0, when y is an integer (of magnitude
 * up to 2^40, or any when the power is certainly out of range) or 1/2, or
 * the case is one of Annex F's special ones; the power is correctly rounded
 * (exact when representable) but for a subnormal result, which may be
 * one unit off in its last place. Returns -1, *out untouched, for any
 * other exponent, which this does not compute.
 */
int smp__pow(double *out, double x, double y);

#endif
