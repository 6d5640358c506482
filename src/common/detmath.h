/*
 * The project's own transcendentals, scalar form (docs/detmath.md).
 *
 * Only + − × ÷, the correctly rounded square root and bit operations: no libm, no estimate
 * instructions. Each function is one fixed sequence of operations; the SIMD bodies
 * (src/simd/kernels/detmath_vec.inl.h) perform the same sequence lane-wise, so every ISA
 * computes the same bits. Compiled with -ffp-contract=off: nothing here may become an FMA.
 */
#ifndef TENDON_DETMATH_H
#define TENDON_DETMATH_H

#include <stdint.h>
#include <string.h>

#include "detmath_coeffs.h"

static inline uint64_t tendon_det_bits(double x) { uint64_t i; memcpy(&i, &x, sizeof i); return i; }
static inline double tendon_det_from_bits(uint64_t i) { double x; memcpy(&x, &i, sizeof x); return x; }

/**
 * 1/√s for s a positive, finite, normal double: within 2.8e-16 relative (2.2 ulp, measured
 * against MPFR in tests/test_detmath.c). Division-free; kept for kernels where the divider is
 * the bottleneck (the slerp path measured faster with one correctly rounded √ and one ÷).
 * Outside that domain the result is unspecified (finite garbage or NaN); callers select it away.
 */
static inline double tendon_det_rsqrt(double s)
{
    double y = tendon_det_from_bits(TENDON_RSQRT_MAGIC - (tendon_det_bits(s) >> 1));
    const double h = 0.5 * s;
    y = y * (1.5 - (h * y) * y);
    y = y * (1.5 - (h * y) * y);
    y = y * (1.5 - (h * y) * y);
    y = y * (1.5 - (h * y) * y);
    return y;
}

/**
 * The correctly rounded IEEE square root (sqrtsd / fsqrt): identical bits on every machine.
 * Not libm: with -fno-math-errno (set for the whole project) the builtin is the instruction.
 */
static inline double tendon_det_sqrt(double x) { return __builtin_sqrt(x); }

/**
 * asin(u) for u ∈ [0, 1/2] (odd: also [−1/2, 0]). P_asin(y) by Estrin's scheme, in exactly this
 * order (pairs, then pairs of pairs by y², y⁴, y⁸): a dependency chain of ~6 operations instead
 * of Horner's 20, which is what keeps the SIMD bodies from waiting on latency.
 */
static inline double tendon_det_asin_core(double u)
{
    const double y = u * u;
    const double y2 = y * y;
    const double y4 = y2 * y2;
    const double y8 = y4 * y4;
    const double p0 = TENDON_ASIN_C0 + TENDON_ASIN_C1 * y;
    const double p1 = TENDON_ASIN_C2 + TENDON_ASIN_C3 * y;
    const double p2 = TENDON_ASIN_C4 + TENDON_ASIN_C5 * y;
    const double p3 = TENDON_ASIN_C6 + TENDON_ASIN_C7 * y;
    const double p4 = TENDON_ASIN_C8 + TENDON_ASIN_C9 * y;
    const double q0 = p0 + p1 * y2;
    const double q1 = p2 + p3 * y2;
    const double q2 = p4 + TENDON_ASIN_C10 * y2;
    const double p = (q0 + q1 * y4) + q2 * y8;
    return u + (u * y) * p;
}

/**
 * acos(x) for x ∈ [0, 1]; NaN gives NaN; outside [0, 1] unspecified.
 *   x ≤ 1/2:  π/2 − asin(x)
 *   x > 1/2:  2·asin(√((1 − x)/2)), the square root correctly rounded
 */
static inline double tendon_det_acos_pos(double x)
{
    if (x <= 0.5)
        return TENDON_PIO2 - tendon_det_asin_core(x);
    const double z = (1.0 - x) * 0.5;
    const double u = tendon_det_sqrt(z);
    return 2.0 * tendon_det_asin_core(u);
}

/** acos(x) for x ∈ [−1, 1] (acos(−x) = π − acos(x)); NaN outside [−1, 1] and for NaN. */
static inline double tendon_det_acos(double x)
{
    if (!(x >= -1.0 && x <= 1.0))
        return (x - x) / (x - x); /* NaN without libm: 0/0 or inf−inf */
    if (x < 0.0)
        return (TENDON_PI_HI - tendon_det_acos_pos(-x)) + TENDON_PI_LO;
    return tendon_det_acos_pos(x);
}

/** sin(x) for x ∈ [−π/2, π/2]; outside, unspecified (no range reduction). Estrin order. */
static inline double tendon_det_sin_core(double x)
{
    const double y = x * x;
    const double y2 = y * y;
    const double y4 = y2 * y2;
    const double p0 = TENDON_SIN_C0 + TENDON_SIN_C1 * y;
    const double p1 = TENDON_SIN_C2 + TENDON_SIN_C3 * y;
    const double p2 = TENDON_SIN_C4 + TENDON_SIN_C5 * y;
    const double q0 = p0 + p1 * y2;
    const double q1 = p2 + TENDON_SIN_C6 * y2;
    const double p = q0 + q1 * y4;
    /* x + (x·y)·p is +0 for x = −0 (−0 + +0); sin(±0) is ±0, and the seed's Math.sin keeps it. */
    return x == 0.0 ? x : x + (x * y) * p;
}

/**
 * sin(x) for x ∈ [−π, π], by sin(x) = sin(π − x) past π/2 (π split in two parts, so the
 * reduction is exact to ~1e-32); NaN outside [−π, π] and for NaN.
 */
static inline double tendon_det_sin(double x)
{
    const double ax = x < 0.0 ? -x : x;
    if (!(ax <= TENDON_PI_HI))
        return (x - x) / (x - x);
    if (ax <= TENDON_PIO2)
        return tendon_det_sin_core(x);
    const double r = tendon_det_sin_core((TENDON_PI_HI - ax) + TENDON_PI_LO);
    return x < 0.0 ? -r : r;
}

#endif
