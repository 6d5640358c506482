/*
 * The scalar reference of the float32 tier's quaternion arithmetic (docs/fast-tier.md): every
 * operation in float32, one element at a time, in the order the SIMD bodies follow lane-wise
 * (src/simd/kernels/quat_f32_core.inl.h). Branches here are selects there, on the same
 * comparison of the same values. The orders of the sums are the seed-exact tier's
 * (quat_ref.h); only the precision, the polynomials and the straight-blend threshold differ.
 */
#ifndef TENDON_QUAT_REF_F32_H
#define TENDON_QUAT_REF_F32_H

#include <float.h>
#include <math.h> /* INFINITY only: no libm call */

#include "detmath_f32.h"

/**
 * A weight computed in double, rounded once to float32: NaN and ±∞ stay as they are, and a
 * finite value beyond ±FLT_MAX saturates to ±FLT_MAX instead of rounding to ±∞.
 */
static inline float tendon_weight_to_f32(double w)
{
    if (w > (double)FLT_MAX && w < (double)INFINITY)
        w = (double)FLT_MAX;
    else if (w < -(double)FLT_MAX && w > -(double)INFINITY)
        w = -(double)FLT_MAX;
    return (float)w;
}

/** w clamped to [0, 1] in float; NaN stays NaN. */
static inline float tendon_reff_clamp01(float w) { return w < 0.0f ? 0.0f : (w > 1.0f ? 1.0f : w); }

/** ((ax·bx + ay·by) + az·bz) + aw·bw in float */
static inline float tendon_reff_dot(const float a[4], const float b[4])
{
    return ((a[0] * b[0] + a[1] * b[1]) + a[2] * b[2]) + a[3] * b[3];
}

/**
 * Normalise q by its 4-component length, in float:
 *   s = ((x·x + y·y) + z·z) + w·w
 *   s > 0:  q · (1/√s)   (one correctly rounded √ and one ÷; s = ∞ — a component beyond
 *                         ~1.8e19, or an infinite one — gives the factor 0: finite components
 *                         become ±0, infinite ones NaN)
 *   else:   left as it is (a zero-length result; or s NaN: a NaN component stays NaN and the
 *           others keep their values — unlike the exact tier there is no hypot rule for an
 *           infinite component beside a NaN)
 */
static inline void tendon_reff_normalize(float q[4])
{
    const float s = ((q[0] * q[0] + q[1] * q[1]) + q[2] * q[2]) + q[3] * q[3];
    const float inv = s > 0.0f ? 1.0f / tendon_detf_sqrt(s) : 1.0f;
    q[0] = q[0] * inv;
    q[1] = q[1] * inv;
    q[2] = q[2] * inv;
    q[3] = q[3] * inv;
}

/**
 * The slerp weights (s0 for a, s1 for b) of w ∈ [0, 1] (or NaN) given the raw dot of a and b:
 *   d = |dot|;  d > TENDON_F32_SLERP_STRAIGHT_DOT, or w = 0, or w = 1:  s0 = 1 − w,  s1 = w
 *               otherwise θ = acos(d), s0 = sin((1 − w)·θ), s1 = sin(w·θ)
 *   dot < 0 (the shorter arc): s0 negated — the same bits as negating a (rounding is
 *   symmetric), which is what the seed's slerp does.
 * (At w = 0 and 1 the straight weights are exactly 1 and 0: the ends are ±a or b, normalised,
 * and the slerp from the identity by 0 is the identity exactly — a joint an additive layer's
 * mask leaves out keeps its base rotation bit for bit.)
 */
static inline void tendon_reff_slerp_weights(float dot, float w, float *s0, float *s1)
{
    const float d = dot < 0.0f ? -dot : (dot == 0.0f ? 0.0f : dot);
    const float one_minus_w = 1.0f - w;
    float c0, c1;
    if (d > TENDON_F32_SLERP_STRAIGHT_DOT || w == 0.0f || w == 1.0f) {
        c0 = one_minus_w;
        c1 = w;
    } else {
        const float theta = tendon_detf_acos_pos(d);
        c0 = tendon_detf_sin_core(one_minus_w * theta);
        c1 = tendon_detf_sin_core(w * theta);
    }
    *s0 = dot < 0.0f ? -c0 : c0;
    *s1 = c1;
}

/** out = s0·a + s1·b component-wise, then normalised. */
static inline void tendon_reff_combine(const float a[4], const float b[4], float s0, float s1,
                                       float out[4])
{
    out[0] = s0 * a[0] + s1 * b[0];
    out[1] = s0 * a[1] + s1 * b[1];
    out[2] = s0 * a[2] + s1 * b[2];
    out[3] = s0 * a[3] + s1 * b[3];
    tendon_reff_normalize(out);
}

/** Slerp of a toward b by w (clamped to [0, 1] already, or NaN), into out. */
static inline void tendon_reff_slerp(const float a[4], const float b[4], float w, float out[4])
{
    float s0, s1;
    tendon_reff_slerp_weights(tendon_reff_dot(a, b), w, &s0, &s1);
    tendon_reff_combine(a, b, s0, s1, out);
}

/** The shortest-arc normalised lerp: s0 = ±(1 − w) (negated when dot < 0), s1 = w. */
static inline void tendon_reff_nlerp(const float a[4], const float b[4], float w, float out[4])
{
    const float dot = tendon_reff_dot(a, b);
    const float s0 = 1.0f - w;
    tendon_reff_combine(a, b, dot < 0.0f ? -s0 : s0, w, out);
}

/**
 * Slerp from the identity (0, 0, 0, 1) toward d by w, with the identity's zero terms left out
 * of the sums: dot = d.w, weights as tendon_reff_slerp_weights, then
 *   q = (s1·dx, s1·dy, s1·dz, s0 + s1·dw), normalised.
 * (The full formula adds s0·0 to each of the first three: the same value except for the sign of
 * a zero component, which this definition fixes as s1·d's.)
 */
static inline void tendon_reff_slerp_from_identity(const float d[4], float w, float out[4])
{
    float s0, s1;
    tendon_reff_slerp_weights(d[3], w, &s0, &s1);
    out[0] = s1 * d[0];
    out[1] = s1 * d[1];
    out[2] = s1 * d[2];
    out[3] = s0 + s1 * d[3];
    tendon_reff_normalize(out);
}

/** The Hamilton product a ⊗ b in the seed's order (quat_ref.h), in float. */
static inline void tendon_reff_multiply(const float a[4], const float b[4], float out[4])
{
    const float ax = a[0], ay = a[1], az = a[2], aw = a[3];
    const float bx = b[0], by = b[1], bz = b[2], bw = b[3];
    out[0] = ((aw * bx + ax * bw) + ay * bz) - az * by;
    out[1] = ((aw * by - ax * bz) + ay * bw) + az * bx;
    out[2] = ((aw * bz + ax * by) - ay * bx) + az * bw;
    out[3] = ((aw * bw - ax * bx) - ay * by) - az * bz;
}

#endif
