/*
 * The project's own exp, sin/cos (with range reduction), sinh and cosh, in double — what the
 * spring coefficients need (docs/springs.md). No libm: + − × ÷ and bit operations only, one
 * fixed sequence of operations per function, so every machine and compiler gets the same bits
 * (compiled with -ffp-contract=off: nothing here may become an FMA).
 *
 * These are scalar only. The spring coefficients are computed once per call in common code and
 * handed to the march, so no ISA variant evaluates them; they need no SIMD twin.
 *
 * Accuracy, measured against MPFR by tests/test_detmath_exp.c (the numbers are in
 * docs/springs.md): exp, sin, cos within 1 ulp; sinh, cosh within 2 ulp; over the domains
 * stated per function. Coefficients: tools/fit_detmath_exp.py → detmath_exp_coeffs.h.
 */
#ifndef TENDON_DETMATH_EXP_H
#define TENDON_DETMATH_EXP_H

#include <stdint.h>
#include <string.h>

#include "detmath_exp_coeffs.h"

/** Adding and subtracting 1.5·2^52 rounds a double of magnitude below 2^51 to an integer
    (round-to-nearest-even, the default FP environment). */
#define TENDON_ROUND_MAGIC 0x1.8p52

static inline uint64_t tendon_dx_bits(double x)
{
    uint64_t i;
    memcpy(&i, &x, sizeof i);
    return i;
}
static inline double tendon_dx_from_bits(uint64_t i)
{
    double x;
    memcpy(&x, &i, sizeof x);
    return x;
}

/** 2^k as a double, for k in [−1022, 1023] (built from its bits). */
static inline double tendon_det_pow2i(int k)
{
    return tendon_dx_from_bits((uint64_t)(int64_t)(k + 1023) << 52);
}

/** x · 2^k for k in [−1100, 1100], rounded once (into the subnormals or to ±∞ if it must be). */
static inline double tendon_det_scale2(double x, int k)
{
    if (k > 1000)
        return (x * tendon_det_pow2i(1000)) * tendon_det_pow2i(k - 1000);
    if (k < -1000)
        return (x * tendon_det_pow2i(k + 1000)) * tendon_det_pow2i(-1000);
    return x * tendon_det_pow2i(k);
}

/** |x| (the sign bit cleared). */
static inline double tendon_det_fabs(double x)
{
    return tendon_dx_from_bits(tendon_dx_bits(x) & ~(UINT64_C(1) << 63));
}

/**
 * e^x as hi·2^k + lo·2^k with hi = 1 + p rounded and lo its rounding error (exact, fast
 * two-sum: |p| < 1/2), for x ∈ [−746, 711] (no NaN or overflow handling: callers do it).
 *
 *   k = round(x / ln 2),  r = (x − k·LN2_HI) − k·LN2_LO  ∈ [−ln2/2, ln2/2] (k·LN2_HI exact),
 *   carried as r + r_lo (r_lo the rounding error of the second subtraction)
 *   e^r = 1 + p,  p = r + (r²·P_exp(r) + r_lo)
 */
static inline double tendon_det_exp_parts(double x, double *lo_out, int *k_out)
{
    const double kd = (x * TENDON_INV_LN2 + TENDON_ROUND_MAGIC) - TENDON_ROUND_MAGIC;
    const double hi = x - kd * TENDON_LN2_HI;
    const double lo = kd * TENDON_LN2_LO;
    const double r = hi - lo;
    const double r_lo = (hi - r) - lo;
    double p = TENDON_EXP_C10;
    p = p * r + TENDON_EXP_C9;
    p = p * r + TENDON_EXP_C8;
    p = p * r + TENDON_EXP_C7;
    p = p * r + TENDON_EXP_C6;
    p = p * r + TENDON_EXP_C5;
    p = p * r + TENDON_EXP_C4;
    p = p * r + TENDON_EXP_C3;
    p = p * r + TENDON_EXP_C2;
    p = p * r + TENDON_EXP_C1;
    p = p * r + TENDON_EXP_C0;
    p = r + ((r * r) * p + r_lo);
    const double e = 1.0 + p;
    *lo_out = (1.0 - e) + p;
    *k_out = (int)kd;
    return e;
}

/**
 * e^x for every double. NaN gives NaN, x > 710 gives +∞, x < −746 gives +0; in between the
 * result overflows or goes subnormal exactly where e^x does (one rounding of (1 + p)·2^k).
 */
static inline double tendon_det_exp(double x)
{
    if (!(x == x))
        return x + x;
    if (x > 710.0)
        return tendon_dx_from_bits(UINT64_C(0x7FF0000000000000));
    if (x < -746.0)
        return 0.0;
    double lo;
    int k;
    const double e = tendon_det_exp_parts(x, &lo, &k);
    return tendon_det_scale2(e, k);
}

/**
 * sin(r + lo) for r ∈ [−π/4, π/4] and |lo| ≤ ulp(r), the low part of a reduced argument:
 * r + ((r·y)·P_sin(y) + lo), y = r² (the lo·(cos r − 1) it leaves out is below 2^−60 of r).
 */
static inline double tendon_det_sin_kernel(double r, double lo)
{
    const double y = r * r;
    double p = TENDON_SINR_C6;
    p = p * y + TENDON_SINR_C5;
    p = p * y + TENDON_SINR_C4;
    p = p * y + TENDON_SINR_C3;
    p = p * y + TENDON_SINR_C2;
    p = p * y + TENDON_SINR_C1;
    p = p * y + TENDON_SINR_C0;
    return r + ((r * y) * p + lo);
}

/**
 * cos(r + lo) for r ∈ [−π/4, π/4], |lo| ≤ ulp(r): 1 − y/2 + (y²·P_cos(y) − r·lo), y = r²,
 * summed so that the rounding error of 1 − y/2 is carried: w = 1 − y/2, and (1 − w) − y/2 is
 * that error exactly (Sterbenz).
 */
static inline double tendon_det_cos_kernel(double r, double lo)
{
    const double y = r * r;
    double p = TENDON_COSR_C6;
    p = p * y + TENDON_COSR_C5;
    p = p * y + TENDON_COSR_C4;
    p = p * y + TENDON_COSR_C3;
    p = p * y + TENDON_COSR_C2;
    p = p * y + TENDON_COSR_C1;
    p = p * y + TENDON_COSR_C0;
    const double half = 0.5 * y;
    const double w = 1.0 - half;
    const double carried = (1.0 - w) - half;
    return w + (carried + ((y * y) * p - r * lo));
}

/** The largest |x| tendon_det_sincos reduces (k·PIO2_1 and k·PIO2_2 stay exact below it). */
#define TENDON_DET_SINCOS_MAX 0x1p20

/**
 * sin x and cos x together, for |x| ≤ 2^20 (TENDON_DET_SINCOS_MAX); NaN for both outside that
 * domain, for ±∞ and for NaN. sin(±0) = ±0.
 *
 *   k = round(x · 2/π)
 *   x − k·π/2 = ((x − k·PIO2_1) − k·PIO2_2) − k·PIO2_3, carried as r + lo: the first difference
 *   is exact (Sterbenz), the second is split exactly (two-sum), the third is small
 *   quadrant k mod 4:  0: ( sin r,  cos r)   1: ( cos r, −sin r)
 *                      2: (−sin r, −cos r)   3: (−cos r,  sin r)
 * For |x| ≤ ~π/4 (k = 0) there is no reduction: r = x, lo = 0 (and sin(±0) = ±0).
 */
static inline void tendon_det_sincos(double x, double *sin_out, double *cos_out)
{
    if (!(tendon_det_fabs(x) <= TENDON_DET_SINCOS_MAX)) {
        const double nan = tendon_dx_from_bits(UINT64_C(0x7FF8000000000000));
        *sin_out = nan;
        *cos_out = nan;
        return;
    }
    const double kd = (x * TENDON_INV_PIO2 + TENDON_ROUND_MAGIC) - TENDON_ROUND_MAGIC;
    double r = x, lo = 0.0;
    if (kd != 0.0) {
        const double t = x - kd * TENDON_PIO2_1; /* exact */
        const double p2 = kd * TENDON_PIO2_2;    /* exact */
        const double u = t - p2;                 /* two-sum: t − p2 = u + ue exactly */
        const double back = u - t;
        const double ue = (t - (u - back)) + (-p2 - back);
        const double tail = ue - kd * TENDON_PIO2_3;
        r = u + tail; /* fast two-sum: |u| ≥ |tail| */
        lo = tail - (r - u);
    }
    const double s = x == 0.0 ? x : tendon_det_sin_kernel(r, lo); /* keeps the sign of ±0 */
    const double c = tendon_det_cos_kernel(r, lo);
    switch ((unsigned)((int64_t)kd & 3)) {
    case 0: *sin_out = s; *cos_out = c; break;
    case 1: *sin_out = c; *cos_out = -s; break;
    case 2: *sin_out = -s; *cos_out = -c; break;
    default: *sin_out = -c; *cos_out = s; break;
    }
}

/** sin x (tendon_det_sincos's first half; same domain). */
static inline double tendon_det_sin_any(double x)
{
    double s, c;
    tendon_det_sincos(x, &s, &c);
    return s;
}

/** cos x (tendon_det_sincos's second half; same domain). */
static inline double tendon_det_cos_any(double x)
{
    double s, c;
    tendon_det_sincos(x, &s, &c);
    return c;
}

/**
 * e^a/2 ± e^−a/2 for a = |x| (sign = +1 for cosh, any a ≥ 0; −1 for sinh, a ≥ 1): e^a carried in two parts
 * (tendon_det_exp_parts) so the small e^−a and the low part meet before the one rounding that
 * matters. Past a = 709 (where e^−a is far below an ulp) the result is hi·2^(k−1), rounded
 * once, so it overflows only where cosh and sinh do (a ≈ 710.48).
 */
static inline double tendon_det_cosh_sinh_big(double a, double sign)
{
    if (a > 711.0)
        return tendon_dx_from_bits(UINT64_C(0x7FF0000000000000));
    double lo;
    int k;
    const double e = tendon_det_exp_parts(a, &lo, &k);
    if (a > 709.0)
        return tendon_det_scale2(e, k - 1);
    const double scale = tendon_det_pow2i(k - 1);
    const double small = 0.5 * tendon_det_exp(-a);
    return e * scale + (lo * scale + sign * small);
}

/** cosh x for every double (even; overflows where cosh does). NaN gives NaN. */
static inline double tendon_det_cosh(double x)
{
    const double a = tendon_det_fabs(x);
    if (!(a == a))
        return x + x;
    return tendon_det_cosh_sinh_big(a, 1.0);
}

/**
 * sinh x for every double: odd; a + (a·y)·P_sinh(y) for a = |x| < 1 (no cancellation near 0),
 * tendon_det_cosh_sinh_big beyond. NaN gives NaN; sinh(±0) = ±0.
 */
static inline double tendon_det_sinh(double x)
{
    const double a = tendon_det_fabs(x);
    double r;
    if (!(a == a))
        return x + x;
    if (a < 1.0) {
        const double y = a * a;
        double p = TENDON_SINH_C7;
        p = p * y + TENDON_SINH_C6;
        p = p * y + TENDON_SINH_C5;
        p = p * y + TENDON_SINH_C4;
        p = p * y + TENDON_SINH_C3;
        p = p * y + TENDON_SINH_C2;
        p = p * y + TENDON_SINH_C1;
        p = p * y + TENDON_SINH_C0;
        r = a + (a * y) * p;
    } else {
        r = tendon_det_cosh_sinh_big(a, -1.0);
    }
    return tendon_dx_bits(x) >> 63 ? -r : r;
}

#endif
