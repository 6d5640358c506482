/*
 * The float32 tier's own transcendentals, scalar form (docs/detmath.md, "The float32 tier").
 *
 * The same reductions as detmath.h, with float32 polynomials: only float + − × ÷, the correctly
 * rounded square root and compares. Each function is one fixed sequence of float operations;
 * the SIMD bodies (src/simd/kernels/detmath_f32_vec.inl.h) perform the same sequence lane-wise,
 * so every ISA computes the same bits. Compiled with -ffp-contract=off: nothing may become FMA.
 */
#ifndef TENDON_DETMATH_F32_H
#define TENDON_DETMATH_F32_H

#include "detmath_f32_coeffs.h"

/** The correctly rounded float32 square root (sqrtss / fsqrt s): no libm (-fno-math-errno). */
static inline float tendon_detf_sqrt(float x) { return __builtin_sqrtf(x); }

/**
 * acos(x) for x ∈ [0, 1]: √(1 − x)·P(x), one polynomial over the whole interval, in exactly
 * this order (Estrin: the √ and the polynomial are independent chains):
 *   y = x·x;  P = ((C0 + C1·x) + (C2 + C3·x)·y) + ((C4 + C5·x) + C6·y)·(y·y)
 * 1 − x is exact for x ≥ 1/2; NaN gives NaN; outside [0, 1] the result is unspecified.
 */
static inline float tendon_detf_acos_pos(float x)
{
    const float y = x * x;
    const float p0 = TENDON_F32_ACOS_C0 + TENDON_F32_ACOS_C1 * x;
    const float p1 = TENDON_F32_ACOS_C2 + TENDON_F32_ACOS_C3 * x;
    const float p2 = TENDON_F32_ACOS_C4 + TENDON_F32_ACOS_C5 * x;
    const float q0 = p0 + p1 * y;
    const float q1 = p2 + TENDON_F32_ACOS_C6 * y;
    const float p = q0 + q1 * (y * y);
    return tendon_detf_sqrt(1.0f - x) * p;
}

/**
 * sin(x) for x ∈ [−π/2, π/2] (no range reduction; outside, unspecified):
 *   y = x²;  P = (C0 + C1·y) + (C2 + C3·y)·(y·y);  x + (x·y)·P
 * (unlike the double tier there is no rule for −0: sin(−0) may come out +0).
 */
static inline float tendon_detf_sin_core(float x)
{
    const float y = x * x;
    const float p0 = TENDON_F32_SIN_C0 + TENDON_F32_SIN_C1 * y;
    const float p1 = TENDON_F32_SIN_C2 + TENDON_F32_SIN_C3 * y;
    const float p = p0 + p1 * (y * y);
    return x + (x * y) * p;
}

#endif
