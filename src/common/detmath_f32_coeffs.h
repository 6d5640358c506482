/*
 * Coefficients of the float32 tier's own acos and sin (docs/fast-tier.md, docs/detmath.md), one
 * set shared by the scalar reference (detmath_f32.h) and every SIMD body
 * (src/simd/kernels/quat_f32_core.inl.h). Fitted by tools/fit_detmath_f32.py (mpmath chebyfit,
 * near-minimax, each coefficient rounded to float32), written as hexadecimal literals so every
 * compiler reads the same bits.
 *
 *   acos(x) = √(1 − x)·Pf_acos(x),   x ∈ [0, 1]               Pf_acos degree 6
 *   sin(x)  = x + (x·y)·Pf_sin(y),   y = x²,  x ∈ [−π/2, π/2] Pf_sin  degree 3
 */
#ifndef TENDON_DETMATH_F32_COEFFS_H
#define TENDON_DETMATH_F32_COEFFS_H

/* Pf_acos: degree 6 on [0, 1.0], |P - f| <= 1.93e-7 (chebyfit's estimate, before rounding) */
#define TENDON_F32_ACOS_C6 0x1.215ca4p-9f
#define TENDON_F32_ACOS_C5 -0x1.64814ap-7f
#define TENDON_F32_ACOS_C4 0x1.b3c73ep-6f
#define TENDON_F32_ACOS_C3 -0x1.8e7e9p-5f
#define TENDON_F32_ACOS_C2 0x1.6b63aap-4f
#define TENDON_F32_ACOS_C1 -0x1.b776c4p-3f
#define TENDON_F32_ACOS_C0 0x1.921fb2p+0f

/* Pf_sin: degree 3 on [0, 2.4674011], |P - f| <= 7.01e-9 (chebyfit's estimate, before rounding) */
#define TENDON_F32_SIN_C3 0x1.61a18ap-19f
#define TENDON_F32_SIN_C2 -0x1.9fb686p-13f
#define TENDON_F32_SIN_C1 0x1.11104ep-7f
#define TENDON_F32_SIN_C0 -0x1.555554p-3f

/*
 * The float32 slerp blends straight ((1 − w)·a + w·b, normalised) when the dot after the
 * hemisphere flip exceeds this (float32 0x1.fff046p-1): there a straight blend is at most
 * 6.83e-6° off a true slerp (the seed's 0.9995: 5.8e-5°), which leaves room for float32
 * rounding in the tier's 2e-5° bound (docs/fast-tier.md).
 */
#define TENDON_F32_SLERP_STRAIGHT_DOT 0.99988f

#endif
