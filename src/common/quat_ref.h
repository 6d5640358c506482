/*
 * The scalar reference of the quaternion arithmetic, in double, one element at a time.
 *
 * This is the meaning of slerp / nlerp / the product in tendon: every SIMD body performs these
 * operations in this order, lane-wise (src/simd/kernels/quat_core.inl.h), so its bits equal
 * these. Branches here are selects there, on the same comparison of the same values.
 */
#ifndef TENDON_QUAT_REF_H
#define TENDON_QUAT_REF_H

#include <math.h> /* INFINITY only: no libm call */

#include "detmath.h"

/** w clamped to [0, 1]; NaN stays NaN. */
static inline double tendon_ref_clamp01(double w)
{
    return w < 0.0 ? 0.0 : (w > 1.0 ? 1.0 : w);
}

/** Is v ±∞? (No libm: x − x is NaN exactly for ±∞ and NaN, and v == v excludes NaN.) */
static inline int tendon_ref_is_inf(double v) { return v == v && !(v - v == v - v); }

/**
 * Normalise q by its 4-component length, as the seed's `Math.hypot` then divide does:
 *   s = ((x·x + y·y) + z·z) + w·w
 *   s > 0:   q · (1/√s)   (one correctly rounded √ and one ÷; for s = ∞ that factor is 0:
 *                          finite components become ±0 and infinite ones NaN, as x/∞ does)
 *   s NaN:   as s = ∞ when a component is ±∞ (hypot's rule), else left as it is
 *   s = 0:   left as it is (a zero-length result)
 */
static inline void tendon_ref_normalize(double q[4])
{
    const double s = ((q[0] * q[0] + q[1] * q[1]) + q[2] * q[2]) + q[3] * q[3];
    double inv = 1.0;
    if (s > 0.0)
        inv = 1.0 / tendon_det_sqrt(s);
    else if (s != s && (tendon_ref_is_inf(q[0]) || tendon_ref_is_inf(q[1]) ||
                        tendon_ref_is_inf(q[2]) || tendon_ref_is_inf(q[3])))
        inv = 0.0;
    q[0] = q[0] * inv;
    q[1] = q[1] * inv;
    q[2] = q[2] * inv;
    q[3] = q[3] * inv;
}

/** ((ax·bx + ay·by) + az·bz) + aw·bw */
static inline double tendon_ref_dot(const double a[4], const double b[4])
{
    return ((a[0] * b[0] + a[1] * b[1]) + a[2] * b[2]) + a[3] * b[3];
}

/**
 * Slerp of a toward b by w (already clamped to [0, 1] or NaN), into out (double, before the
 * float store). The seed's slerpInto with its 1/sin θ left out: both weights share it and the
 * normalisation that follows removes any common positive factor.
 */
static inline void tendon_ref_slerp(const double a_in[4], const double b[4], double w,
                                    double out[4])
{
    double a[4] = {a_in[0], a_in[1], a_in[2], a_in[3]};
    double dot = tendon_ref_dot(a, b);
    if (dot < 0.0) {
        a[0] = -a[0];
        a[1] = -a[1];
        a[2] = -a[2];
        a[3] = -a[3];
    }
    /* The flipped dot. |dot| also for dot = −0 (not flipped): −0 and +0 take the same path
       (neither exceeds the threshold, and acos sees 0 either way), and the SIMD bodies use the
       one-instruction absolute value. */
    dot = dot < 0.0 ? -dot : (dot == 0.0 ? 0.0 : dot);
    double s0, s1;
    if (dot > TENDON_SLERP_STRAIGHT_DOT) {
        s0 = 1.0 - w;
        s1 = w;
    } else {
        const double theta = tendon_det_acos_pos(dot);
        s0 = tendon_det_sin_core((1.0 - w) * theta);
        s1 = tendon_det_sin_core(w * theta);
    }
    out[0] = s0 * a[0] + s1 * b[0];
    out[1] = s0 * a[1] + s1 * b[1];
    out[2] = s0 * a[2] + s1 * b[2];
    out[3] = s0 * a[3] + s1 * b[3];
    tendon_ref_normalize(out);
}

/** The shortest-arc normalised lerp: the flip of a, then (1 − w)·a + w·b, normalised. */
static inline void tendon_ref_nlerp(const double a_in[4], const double b[4], double w,
                                    double out[4])
{
    double a[4] = {a_in[0], a_in[1], a_in[2], a_in[3]};
    const double dot = tendon_ref_dot(a, b);
    if (dot < 0.0) {
        a[0] = -a[0];
        a[1] = -a[1];
        a[2] = -a[2];
        a[3] = -a[3];
    }
    const double s0 = 1.0 - w;
    out[0] = s0 * a[0] + w * b[0];
    out[1] = s0 * a[1] + w * b[1];
    out[2] = s0 * a[2] + w * b[2];
    out[3] = s0 * a[3] + w * b[3];
    tendon_ref_normalize(out);
}

/** The Hamilton product a ⊗ b in the seed's order (docs/determinism.md). */
static inline void tendon_ref_multiply(const double a[4], const double b[4], double out[4])
{
    const double ax = a[0], ay = a[1], az = a[2], aw = a[3];
    const double bx = b[0], by = b[1], bz = b[2], bw = b[3];
    out[0] = ((aw * bx + ax * bw) + ay * bz) - az * by;
    out[1] = ((aw * by - ax * bz) + ay * bw) + az * bx;
    out[2] = ((aw * bz + ax * by) - ay * bx) + az * bw;
    out[3] = ((aw * bw - ax * bx) - ay * by) - az * bz;
}

static inline void tendon_ref_load4(const float *p, double q[4])
{
    q[0] = (double)p[0];
    q[1] = (double)p[1];
    q[2] = (double)p[2];
    q[3] = (double)p[3];
}

static inline void tendon_ref_store4(const double q[4], float *p)
{
    p[0] = (float)q[0];
    p[1] = (float)q[1];
    p[2] = (float)q[2];
    p[3] = (float)q[3];
}

#endif
