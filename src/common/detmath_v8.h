/*
 * The seed's own Math: exp, expm1, sin, cos, sinh, cosh and a three-argument hypot computed as
 * the JavaScript runtime the seed corpus was recorded with computes them — node 20.20.2, V8 11.3
 * (docs/springs.md pins it) — so the seed-exact spring tier reproduces the seed's doubles bit for
 * bit (docs/detmath.md, "The seed's own Math").
 *
 * V8 11.3 evaluates Math.exp/sin/cos/sinh/cosh with its port of fdlibm 5.3 (the published
 * algorithms: Cody–Waite and Payne–Hanek reduction by π/2, the fixed minimax polynomials on
 * [−π/4, π/4], exp's reduction by ln 2 with the rational Remez form, expm1's scaled form, sinh
 * and cosh built from expm1 and exp). This file implements those algorithms — the same operations
 * in the same order, so the same bits — written here from the algorithm descriptions, with the
 * published coefficients (facts about the runtime: src/common/detmath_v8_coeffs.h). Math.hypot is
 * V8's own builtin: the arguments divided by the largest magnitude, their squares summed with
 * Kahan compensation, √ of that times the largest.
 *
 * Rules as for the rest of detmath: + − × ÷ √, integer and bit operations only, no libm, one
 * fixed sequence per function, compiled with -ffp-contract=off (no FMA may fuse anything). Scalar
 * only: the spring coefficients that use these are computed once per call in common code.
 *
 * Checked against node 20.20.2 itself: tests/test_detmath_v8.c replays tests/data/v8_math.txt
 * (written by tools/v8-math-table.js under that node), 0 mismatches required.
 */
#ifndef TENDON_DETMATH_V8_H
#define TENDON_DETMATH_V8_H

#include <stdint.h>
#include <string.h>

#include "detmath_v8_coeffs.h"

static inline uint64_t tendon_v8_bits(double x)
{
    uint64_t i;
    memcpy(&i, &x, sizeof i);
    return i;
}
static inline double tendon_v8_from_bits(uint64_t i)
{
    double x;
    memcpy(&x, &i, sizeof x);
    return x;
}
/* The upper 32 bits of x (sign, exponent, top 20 fraction bits): fdlibm's branch keys. */
static inline uint32_t tendon_v8_high(double x)
{
    return (uint32_t)(tendon_v8_bits(x) >> 32);
}
static inline double tendon_v8_fabs(double x)
{
    return tendon_v8_from_bits(tendon_v8_bits(x) & ~(UINT64_C(1) << 63));
}
/* 2^k for k ∈ [−1022, 1023], built from its bits. */
static inline double tendon_v8_pow2(int k)
{
    return tendon_v8_from_bits((uint64_t)(int64_t)(k + 1023) << 52);
}
/* x·2^k for k ∈ [−2044, 2046] in at most two exact steps (one rounding at most). */
static inline double tendon_v8_scale(double x, int k)
{
    if (k > 1023)
        return (x * tendon_v8_pow2(1023)) * tendon_v8_pow2(k - 1023);
    if (k < -1022)
        return (x * tendon_v8_pow2(-1022)) * tendon_v8_pow2(k + 1022);
    return x * tendon_v8_pow2(k);
}
/* ⌊x⌋ for 0 ≤ x < 2^62 (what the reduction needs). */
static inline double tendon_v8_floor_nonneg(double x)
{
    if (!(x < 0x1p52))
        return x;
    const double t = (double)(int64_t)x;
    return t > x ? t - 1.0 : t;
}

/* ---- exp ----------------------------------------------------------------------------------- */

/*
 * The argument reduction exp and expm1 share, for 0.5·ln 2 < |x| (|x| < 1.5·ln 2: k = ±1):
 * x = k·ln 2 + (hi − lo), with ln 2 split in two (hi exact); returns k.
 */
static inline int tendon_v8_reduce_ln2(double x, uint32_t ax, int negative, double *hi,
                                       double *lo)
{
    if (ax < 0x3FF0A2B2u) { /* |x| < 1.5·ln 2: k = ±1 */
        *hi = negative ? x + TENDON_V8_LN2_HI : x - TENDON_V8_LN2_HI;
        *lo = negative ? -TENDON_V8_LN2_LO : TENDON_V8_LN2_LO;
        return negative ? -1 : 1;
    }
    const int k = (int)(TENDON_V8_INV_LN2 * x + (negative ? -0.5 : 0.5));
    const double kd = (double)k;
    *hi = x - kd * TENDON_V8_LN2_HI;
    *lo = kd * TENDON_V8_LN2_LO;
    return k;
}

/**
 * e^x as V8 11.3's Math.exp: for every double. NaN → NaN, +∞ → +∞, −∞ → +0; x > 709.78… → +∞,
 * x < −745.13… → +0; exp(1) = e rounded (V8's special case).
 *
 *   k = nearest integer to x/ln 2 (by x·(1/ln 2) ± 1/2 truncated; k = ±1 directly for
 *   0.5·ln 2 < |x| < 1.5·ln 2), r = (x − k·LN2_HI) − k·LN2_LO = hi − lo,
 *   c = r − r²·(P1 + r²·(P2 + r²·(P3 + r²·(P4 + r²·P5)))),
 *   e^r = 1 − ((lo − r·c/(2 − c)) − hi), ·2^k (k < −1021: in two steps, the second ·2^−1000).
 */
static inline double tendon_v8_exp(double x)
{
    const uint32_t word = tendon_v8_high(x);
    const int negative = (int)(word >> 31);
    const uint32_t ax = word & 0x7FFFFFFFu;
    double hi = 0.0, lo = 0.0;
    int k = 0;

    if (ax >= 0x40862E42u) { /* |x| ≥ 709.78: NaN, ±∞, overflow, underflow */
        if (ax >= 0x7FF00000u) {
            if ((tendon_v8_bits(x) & UINT64_C(0x000FFFFFFFFFFFFF)) != 0)
                return x + x;
            return negative ? 0.0 : x;
        }
        if (x > TENDON_V8_EXP_OVERFLOW)
            return tendon_v8_from_bits(UINT64_C(0x7FF0000000000000));
        if (x < TENDON_V8_EXP_UNDERFLOW)
            return 0.0;
    }
    if (ax > 0x3FD62E42u) { /* |x| > 0.5·ln 2: reduce */
        if (x == 1.0)
            return TENDON_V8_E;
        k = tendon_v8_reduce_ln2(x, ax, negative, &hi, &lo);
        x = hi - lo;
    } else if (ax < 0x3E300000u) { /* |x| < 2^−28: 1 + x is e^x rounded */
        return 1.0 + x;
    }

    const double t = x * x;
    const double c =
        x - t * (TENDON_V8_EXP_P1 +
                 t * (TENDON_V8_EXP_P2 +
                      t * (TENDON_V8_EXP_P3 + t * (TENDON_V8_EXP_P4 + t * TENDON_V8_EXP_P5))));
    if (k == 0)
        return 1.0 - ((x * c) / (c - 2.0) - x);
    const double y = 1.0 - ((lo - (x * c) / (2.0 - c)) - hi);
    if (k >= -1021) {
        if (k == 1024)
            return (y * 2.0) * tendon_v8_pow2(1023);
        return y * tendon_v8_pow2(k);
    }
    return (y * tendon_v8_pow2(k + 1000)) * tendon_v8_pow2(-1000);
}

/* ---- expm1 (what sinh and cosh are built from) ---------------------------------------------- */

/**
 * e^x − 1 as V8 11.3's expm1 (fdlibm's scaled rational form), for every double: NaN → NaN,
 * +∞ → +∞, −∞ → −1, x > 709.78… → +∞, x < −56·ln 2 → −1, |x| < 2^−54 → x (±0 kept).
 */
static inline double tendon_v8_expm1(double x)
{
    const uint32_t word = tendon_v8_high(x);
    const int negative = (int)(word >> 31);
    const uint32_t ax = word & 0x7FFFFFFFu;
    double hi, lo, c = 0.0;
    int k = 0;

    if (ax >= 0x4043687Au) { /* |x| ≥ 56·ln 2 */
        if (ax >= 0x40862E42u) {
            if (ax >= 0x7FF00000u) {
                if ((tendon_v8_bits(x) & UINT64_C(0x000FFFFFFFFFFFFF)) != 0)
                    return x + x;
                return negative ? -1.0 : x;
            }
            if (x > TENDON_V8_EXP_OVERFLOW)
                return tendon_v8_from_bits(UINT64_C(0x7FF0000000000000));
        }
        if (negative)
            return -1.0; /* e^x below half an ulp of 1 */
    }
    if (ax > 0x3FD62E42u) {
        k = tendon_v8_reduce_ln2(x, ax, negative, &hi, &lo);
        x = hi - lo;
        c = (hi - x) - lo; /* the rounding error of the reduction */
    } else if (ax < 0x3C900000u) {
        return x;
    }

    const double hfx = 0.5 * x;
    const double hxs = x * hfx;
    const double r1 =
        1.0 + hxs * (TENDON_V8_EXPM1_Q1 +
                     hxs * (TENDON_V8_EXPM1_Q2 +
                            hxs * (TENDON_V8_EXPM1_Q3 +
                                   hxs * (TENDON_V8_EXPM1_Q4 + hxs * TENDON_V8_EXPM1_Q5))));
    const double t3 = 3.0 - r1 * hfx;
    double e = hxs * ((r1 - t3) / (6.0 - x * t3));
    if (k == 0)
        return x - (x * e - hxs);
    e = x * (e - c) - c;
    e -= hxs;
    if (k == -1)
        return 0.5 * (x - e) - 0.5;
    if (k == 1) {
        if (x < -0.25)
            return -2.0 * (e - (x + 0.5));
        return 1.0 + 2.0 * (x - e);
    }
    if (k <= -2 || k > 56) { /* e^x − 1 ≈ e^x */
        double y = 1.0 - (e - x);
        if (k == 1024)
            y = (y * 2.0) * tendon_v8_pow2(1023);
        else
            y = y * tendon_v8_pow2(k);
        return y - 1.0;
    }
    double y;
    if (k < 20) {
        const double t = 1.0 - tendon_v8_pow2(-k); /* 1 − 2^−k, exact */
        y = t - (e - x);
        y = y * tendon_v8_pow2(k);
    } else {
        const double t = tendon_v8_pow2(-k);
        y = x - (e + t);
        y += 1.0;
        y = y * tendon_v8_pow2(k);
    }
    return y;
}

/* ---- sinh, cosh ----------------------------------------------------------------------------- */

/**
 * sinh x as V8 11.3's Math.sinh, for every double (odd; sinh(±0) = ±0, NaN → NaN, ±∞ → ±∞):
 *   |x| < 2^−28: x;  |x| < 1: h·(2t − t²/(t + 1));  |x| < 22: h·(t + t/(t + 1)), t = expm1|x|,
 *   h = ±1/2 with x's sign;  |x| < 709.78: h·e^|x|;  up to 710.4758600739439: (h·w)·w with
 *   w = e^(|x|/2);  beyond: ±∞.
 */
static inline double tendon_v8_sinh(double x)
{
    const double h = x < 0.0 ? -0.5 : 0.5;
    const double a = tendon_v8_fabs(x);
    if (a < 22.0) {
        if (a < 0x1p-28)
            return x;
        const double t = tendon_v8_expm1(a);
        if (a < 1.0)
            return h * (2.0 * t - (t * t) / (t + 1.0));
        return h * (t + t / (t + 1.0));
    }
    if (a < TENDON_V8_LOG_MAXD)
        return h * tendon_v8_exp(a);
    if (a <= TENDON_V8_HYP_OVERFLOW) {
        const double w = tendon_v8_exp(0.5 * a);
        const double t = h * w;
        return t * w;
    }
    return x * 1.0e307; /* ±∞ (or NaN for NaN) */
}

/**
 * cosh x as V8 11.3's Math.cosh, for every double (even; NaN → NaN, ±∞ → +∞), a = |x|:
 *   a < 0.5·ln 2: t = expm1 a, w = 1 + t; w itself below 2^−55, else 1 + t²/(w + w);
 *   a < 22: e/2 + (1/2)/e, e = e^a;  a < 709.78: e^a/2;  up to 710.4758600739439: (w/2)·w,
 *   w = e^(a/2);  beyond: +∞.
 */
static inline double tendon_v8_cosh(double x)
{
    const uint32_t ax = tendon_v8_high(x) & 0x7FFFFFFFu;
    const double a = tendon_v8_fabs(x);
    if (ax < 0x3FD62E43u) {
        const double t = tendon_v8_expm1(a);
        const double w = 1.0 + t;
        if (ax < 0x3C800000u)
            return w;
        return 1.0 + (t * t) / (w + w);
    }
    if (ax < 0x40360000u) {
        const double t = tendon_v8_exp(a);
        return 0.5 * t + 0.5 / t;
    }
    if (ax < 0x40862E42u)
        return 0.5 * tendon_v8_exp(a);
    if (a <= TENDON_V8_HYP_OVERFLOW) {
        const double w = tendon_v8_exp(0.5 * a);
        const double t = 0.5 * w;
        return t * w;
    }
    if (ax >= 0x7FF00000u)
        return x * x; /* +∞, or NaN */
    return tendon_v8_from_bits(UINT64_C(0x7FF0000000000000));
}

/* ---- sin, cos ------------------------------------------------------------------------------- */

/*
 * sin(x + y) for |x| ≤ π/4, y the low part of a reduced argument (|y| < ulp(x)/2); `has_tail` 0
 * when y is known to be 0 (an unreduced argument).
 *   z = x², v = z·x, r = S2 + z·(S3 + z·(S4 + z·(S5 + z·S6)))
 *   no tail: x + v·(S1 + z·r);  with a tail: x − ((z·(y/2 − v·r) − y) − v·S1)
 */
static inline double tendon_v8_sin_kernel(double x, double y, int has_tail)
{
    if ((tendon_v8_high(x) & 0x7FFFFFFFu) < 0x3E400000u) { /* |x| < 2^−27 */
        if ((int)x == 0)
            return x;
    }
    const double z = x * x;
    const double v = z * x;
    const double r =
        TENDON_V8_SIN_S2 +
        z * (TENDON_V8_SIN_S3 + z * (TENDON_V8_SIN_S4 + z * (TENDON_V8_SIN_S5 + z * TENDON_V8_SIN_S6)));
    if (!has_tail)
        return x + v * (TENDON_V8_SIN_S1 + z * r);
    return x - ((z * (0.5 * y - v * r) - y) - v * TENDON_V8_SIN_S1);
}

/*
 * cos(x + y) for |x| ≤ π/4, |y| < ulp(x)/2:
 *   z = x², r = z·(C1 + z·(C2 + … + z·C6))
 *   |x| < 0.3: 1 − (z/2 − (z·r − x·y));  else with q = |x|/4 truncated to its high word (0.28125
 *   past 0.78125): (1 − q) − ((z/2 − q) − (z·r − x·y)) — 1 − q is exact, which keeps the error
 *   of the large 1 − z/2 out of the result.
 */
static inline double tendon_v8_cos_kernel(double x, double y)
{
    const uint32_t ax = tendon_v8_high(x) & 0x7FFFFFFFu;
    if (ax < 0x3E400000u) {
        if ((int)x == 0)
            return 1.0;
    }
    const double z = x * x;
    const double r =
        z * (TENDON_V8_COS_C1 +
             z * (TENDON_V8_COS_C2 +
                  z * (TENDON_V8_COS_C3 +
                       z * (TENDON_V8_COS_C4 + z * (TENDON_V8_COS_C5 + z * TENDON_V8_COS_C6)))));
    if (ax < 0x3FD33333u)
        return 1.0 - (0.5 * z - (z * r - x * y));
    const double q = ax > 0x3FE90000u ? 0.28125
                                      : tendon_v8_from_bits((uint64_t)(ax - 0x00200000u) << 32);
    const double hz = 0.5 * z - q;
    const double a = 1.0 - q;
    return a - (hz - (z * r - x * y));
}

/*
 * Payne–Hanek: x (given as 24-bit pieces xs[0 … n_pieces−1], x = Σ xs[i]·2^(e0 − 24i)) times
 * 2/π, the integer part mod 8 returned, the fraction times π/2 in y[0] + y[1]. fdlibm's
 * __kernel_rem_pio2 at double precision (4 + 1 terms of π/2 pieces), re-expressed.
 */
static inline int tendon_v8_rem_pio2_large(const double *xs, double *y, int e0, int n_pieces)
{
    enum { JK = 4 };                                  /* terms kept beyond the integer part */
    const double two24 = 0x1p24, twon24 = 0x1p-24;
    const int jx = n_pieces - 1;
    int jv = (e0 - 3) / 24;
    if (jv < 0)
        jv = 0;
    int q0 = e0 - 24 * (jv + 1);
    double f[20], q[20], fq[20];
    int32_t iq[20];

    /* the digits of 2/π that matter for this exponent */
    for (int i = 0, j = jv - jx; i <= jx + JK; ++i, ++j)
        f[i] = j < 0 ? 0.0 : (double)tendon_v8_two_over_pi[j];
    for (int i = 0; i <= JK; ++i) {
        double fw = 0.0;
        for (int j = 0; j <= jx; ++j)
            fw += xs[j] * f[jx + i - j];
        q[i] = fw;
    }

    int jz = JK, n, ih;
    double z;
    for (;;) {
        /* the products, cut into 24-bit integers iq[0 …] (most significant first) */
        int i = 0;
        z = q[jz];
        for (int j = jz; j > 0; ++i, --j) {
            const double fw = (double)(int32_t)(twon24 * z);
            iq[i] = (int32_t)(z - two24 * fw);
            z = q[j - 1] + fw;
        }
        /* the integer part, mod 8 */
        z = tendon_v8_scale(z, q0);
        z -= 8.0 * tendon_v8_floor_nonneg(z * 0.125);
        n = (int)z;
        z -= (double)n;
        ih = 0;
        if (q0 > 0) { /* iq[jz − 1] still holds integer bits */
            const int32_t top = iq[jz - 1] >> (24 - q0);
            n += top;
            iq[jz - 1] -= top << (24 - q0);
            ih = iq[jz - 1] >> (23 - q0);
        } else if (q0 == 0) {
            ih = iq[jz - 1] >> 23;
        } else if (z >= 0.5) {
            ih = 2;
        }
        if (ih > 0) { /* the fraction is ≥ 1/2: take 1 − fraction, and n + 1 */
            n += 1;
            int carry = 0;
            for (int m = 0; m < jz; ++m) {
                const int32_t d = iq[m];
                if (carry == 0) {
                    if (d != 0) {
                        carry = 1;
                        iq[m] = 0x1000000 - d;
                    }
                } else {
                    iq[m] = 0xFFFFFF - d;
                }
            }
            if (q0 == 1)
                iq[jz - 1] &= 0x7FFFFF;
            else if (q0 == 2)
                iq[jz - 1] &= 0x3FFFFF;
            if (ih == 2) {
                z = 1.0 - z;
                if (carry != 0)
                    z -= tendon_v8_scale(1.0, q0);
            }
        }
        /* a fraction that cancelled to zero needs more digits of 2/π */
        if (z == 0.0) {
            int any = 0;
            for (int m = jz - 1; m >= JK; --m)
                any |= iq[m];
            if (any == 0) {
                int extra = 1;
                while (iq[JK - extra] == 0)
                    ++extra;
                for (int m = jz + 1; m <= jz + extra; ++m) {
                    f[jx + m] = (double)tendon_v8_two_over_pi[jv + m];
                    double fw = 0.0;
                    for (int j = 0; j <= jx; ++j)
                        fw += xs[j] * f[jx + m - j];
                    q[m] = fw;
                }
                jz += extra;
                continue;
            }
        }
        break;
    }

    /* drop zero digits, or append the last one */
    if (z == 0.0) {
        jz -= 1;
        q0 -= 24;
        while (iq[jz] == 0) {
            jz--;
            q0 -= 24;
        }
    } else {
        z = tendon_v8_scale(z, -q0);
        if (z >= two24) {
            const double fw = (double)(int32_t)(twon24 * z);
            iq[jz] = (int32_t)(z - two24 * fw);
            jz += 1;
            q0 += 24;
            iq[jz] = (int32_t)fw;
        } else {
            iq[jz] = (int32_t)z;
        }
    }

    /* the fraction's digits as doubles, then times π/2 */
    double fw = tendon_v8_scale(1.0, q0);
    for (int i = jz; i >= 0; --i) {
        q[i] = fw * (double)iq[i];
        fw *= twon24;
    }
    for (int i = jz; i >= 0; --i) {
        fw = 0.0;
        for (int k = 0; k <= JK && k <= jz - i; ++k)
            fw += tendon_v8_pio2_pieces[k] * q[i + k];
        fq[jz - i] = fw;
    }
    fw = 0.0;
    for (int i = jz; i >= 0; --i)
        fw += fq[i];
    y[0] = ih == 0 ? fw : -fw;
    fw = fq[0] - fw;
    for (int i = 1; i <= jz; ++i)
        fw += fq[i];
    y[1] = ih == 0 ? fw : -fw;
    return n & 7;
}

/*
 * x = n·π/2 + (y[0] + y[1]) with |y[0] + y[1]| ≤ π/4 (about); returns n (mod 8 beyond
 * 2^19·π/2). Finite x only.
 *   |x| ≤ π/4: n = 0.  |x| < 3π/4: n = ±1 by PIO2_1 (+ PIO2_2 when x is near π/2 itself).
 *   |x| ≤ 2^19·π/2: n = round(|x|·2/π), x − n·PIO2_1 − n·PIO2_1T, redone with the 2nd and 3rd
 *   33-bit pieces when cancellation took more than 16 (then 49) bits.  Beyond: Payne–Hanek.
 */
static inline int tendon_v8_rem_pio2(double x, double *y)
{
    const uint32_t word = tendon_v8_high(x);
    const uint32_t ax = word & 0x7FFFFFFFu;
    const int negative = (int)(word >> 31);

    if (ax <= 0x3FE921FBu) {
        y[0] = x;
        y[1] = 0.0;
        return 0;
    }
    if (ax < 0x4002D97Cu) { /* |x| < 3π/4 */
        if (!negative) {
            double z = x - TENDON_V8_PIO2_1;
            if (ax != 0x3FF921FBu) {
                y[0] = z - TENDON_V8_PIO2_1T;
                y[1] = (z - y[0]) - TENDON_V8_PIO2_1T;
            } else { /* near π/2: 33 more bits of π/2 */
                z -= TENDON_V8_PIO2_2;
                y[0] = z - TENDON_V8_PIO2_2T;
                y[1] = (z - y[0]) - TENDON_V8_PIO2_2T;
            }
            return 1;
        }
        double z = x + TENDON_V8_PIO2_1;
        if (ax != 0x3FF921FBu) {
            y[0] = z + TENDON_V8_PIO2_1T;
            y[1] = (z - y[0]) + TENDON_V8_PIO2_1T;
        } else {
            z += TENDON_V8_PIO2_2;
            y[0] = z + TENDON_V8_PIO2_2T;
            y[1] = (z - y[0]) + TENDON_V8_PIO2_2T;
        }
        return -1;
    }
    if (ax <= 0x413921FBu) { /* |x| ≲ 2^19·π/2: Cody–Waite, in up to three stages */
        const double t = tendon_v8_fabs(x);
        const int n = (int)(t * TENDON_V8_INV_PIO2 + 0.5);
        const double fn = (double)n;
        double r = t - fn * TENDON_V8_PIO2_1; /* exact */
        double w = fn * TENDON_V8_PIO2_1T;
        if (n < 32 && ax != tendon_v8_npio2_hw[n - 1]) {
            y[0] = r - w;
        } else {
            const int j = (int)(ax >> 20);
            y[0] = r - w;
            int lost = j - (int)((tendon_v8_high(y[0]) >> 20) & 0x7FF);
            if (lost > 16) { /* 2nd stage: 33 more bits */
                double u = r;
                w = fn * TENDON_V8_PIO2_2;
                r = u - w;
                w = fn * TENDON_V8_PIO2_2T - ((u - r) - w);
                y[0] = r - w;
                lost = j - (int)((tendon_v8_high(y[0]) >> 20) & 0x7FF);
                if (lost > 49) { /* 3rd stage */
                    u = r;
                    w = fn * TENDON_V8_PIO2_3;
                    r = u - w;
                    w = fn * TENDON_V8_PIO2_3T - ((u - r) - w);
                    y[0] = r - w;
                }
            }
        }
        y[1] = (r - y[0]) - w;
        if (negative) {
            y[0] = -y[0];
            y[1] = -y[1];
            return -n;
        }
        return n;
    }
    /* Large |x|: cut it into three 24-bit pieces scaled to [1, 2^24) and reduce exactly. */
    const int e0 = (int)(ax >> 20) - 1046; /* x = z·2^e0, z < 2^24 */
    double z = tendon_v8_from_bits(((uint64_t)(ax - ((uint32_t)e0 << 20)) << 32) |
                                   (tendon_v8_bits(x) & 0xFFFFFFFFu));
    double xs[3];
    for (int i = 0; i < 2; ++i) {
        xs[i] = (double)(int32_t)z;
        z = (z - xs[i]) * 0x1p24;
    }
    xs[2] = z;
    int pieces = 3;
    while (xs[pieces - 1] == 0.0)
        --pieces;
    double out[2];
    const int n = tendon_v8_rem_pio2_large(xs, out, e0, pieces);
    if (negative) {
        y[0] = -out[0];
        y[1] = -out[1];
        return -n;
    }
    y[0] = out[0];
    y[1] = out[1];
    return n;
}

/** sin x as V8 11.3's Math.sin, for every double: NaN for NaN and ±∞, sin(±0) = ±0. */
static inline double tendon_v8_sin(double x)
{
    const uint32_t ax = tendon_v8_high(x) & 0x7FFFFFFFu;
    if (ax <= 0x3FE921FBu)
        return tendon_v8_sin_kernel(x, 0.0, 0);
    if (ax >= 0x7FF00000u)
        return x - x;
    double y[2];
    const int n = tendon_v8_rem_pio2(x, y);
    switch (n & 3) {
    case 0: return tendon_v8_sin_kernel(y[0], y[1], 1);
    case 1: return tendon_v8_cos_kernel(y[0], y[1]);
    case 2: return -tendon_v8_sin_kernel(y[0], y[1], 1);
    default: return -tendon_v8_cos_kernel(y[0], y[1]);
    }
}

/** cos x as V8 11.3's Math.cos, for every double: NaN for NaN and ±∞, cos(±0) = 1. */
static inline double tendon_v8_cos(double x)
{
    const uint32_t ax = tendon_v8_high(x) & 0x7FFFFFFFu;
    if (ax <= 0x3FE921FBu)
        return tendon_v8_cos_kernel(x, 0.0);
    if (ax >= 0x7FF00000u)
        return x - x;
    double y[2];
    const int n = tendon_v8_rem_pio2(x, y);
    switch (n & 3) {
    case 0: return tendon_v8_cos_kernel(y[0], y[1]);
    case 1: return -tendon_v8_sin_kernel(y[0], y[1], 1);
    case 2: return -tendon_v8_cos_kernel(y[0], y[1]);
    default: return tendon_v8_sin_kernel(y[0], y[1], 1);
    }
}

/* ---- hypot ---------------------------------------------------------------------------------- */

/**
 * Math.hypot(a, b, c) as V8 11.3's builtin: any ±∞ → +∞; else any NaN → NaN; all zero → +0;
 * else m = max |·|, each n = |v|/m squared and summed in argument order with Kahan compensation
 * (s = n² − comp, p = sum + s, comp = (p − sum) − s, sum = p), and √sum · m. Never overflows or
 * underflows spuriously (the squares are of numbers ≤ 1).
 */
static inline double tendon_v8_hypot3(double a, double b, double c)
{
    const double v[3] = {tendon_v8_fabs(a), tendon_v8_fabs(b), tendon_v8_fabs(c)};
    double m = 0.0;
    int any_nan = 0;
    double mag[3];
    for (int i = 0; i < 3; ++i) {
        if (!(v[i] == v[i])) {
            any_nan = 1;
            mag[i] = 0.0;
        } else {
            mag[i] = v[i];
            if (v[i] > m)
                m = v[i];
        }
    }
    if (m == tendon_v8_from_bits(UINT64_C(0x7FF0000000000000)))
        return m;
    if (any_nan)
        return tendon_v8_from_bits(UINT64_C(0x7FF8000000000000));
    if (m == 0.0)
        return 0.0;
    double sum = 0.0, comp = 0.0;
    for (int i = 0; i < 3; ++i) {
        const double n = mag[i] / m;
        const double s = n * n - comp;
        const double p = sum + s;
        comp = (p - sum) - s;
        sum = p;
    }
    return __builtin_sqrt(sum) * m;
}

#endif
