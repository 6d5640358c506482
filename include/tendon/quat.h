/** @file
 * tendon — quaternion arrays: slerp, nlerp, product.
 *
 * Seed: 000 `blend.js` (slerpInto, multiplyInto). Quaternions are x y z w, four floats each,
 * packed: element i is q[4*i .. 4*i+3]. Alignment: the element's own (4 bytes for floats, 8 for
 * the double t); 64-byte alignment is a speed hint only.
 *
 * Arithmetic: each float is read, converted to double, computed in double, and rounded to
 * float once on store, in the operation order written in docs/determinism.md. Every ISA
 * variant is bitwise identical to the scalar reference in the default FP environment
 * (round-to-nearest, no FTZ/DAZ); NaN outputs are NaN on every ISA (sign and payload not
 * promised). Nothing allocates; every function is safe to call from many threads at once.
 */
#ifndef TENDON_QUAT_H
#define TENDON_QUAT_H

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Spherical interpolation along the shorter arc, per element: out[i] = slerp(a[i], b[i], t[i]).
 *
 * - Shortest arc: when dot(a, b) < 0, **a** is negated (dot == 0 does not flip), so t = 0
 *   returns −a in that case.
 * - t is clamped to [0, 1]; a NaN t gives a NaN quaternion. ±∞ clamp to 1 / 0.
 * - When the dot after the flip is > 0.9995 the blend is straight: (1 − t)·a + t·b.
 *   Otherwise θ = acos(dot) and the weights are sin((1 − t)·θ) and sin(t·θ) (the project's own
 *   acos and sin, docs/detmath.md; the common 1/sin θ cancels in the normalisation below).
 * - The result is normalised by its 4-component length; a zero-length result is left as it is.
 *
 * a, b, out: [4*count] x y z w. t: [count], unitless. count may be 0 (pointers may then be NULL).
 * Aliasing: out may be exactly a or b; any other overlap with a, b or t is refused.
 * Errors: TENDON_ERR_NULL (a NULL array with count > 0), TENDON_ERR_VALUE (a float array whose
 * address is not a multiple of 4 bytes, or such a t; the message names it), TENDON_ERR_OVERFLOW
 * (4*count floats overflow size_t, or an array runs past the end of the address space),
 * TENDON_ERR_ALIAS, TENDON_ERR_ISA (TENDON_ISA names an unusable ISA).
 * Nothing is written on error.
 */
TENDON_API tendon_status tendon_quat_slerp(const float *a, const float *b, const double *t,
                                           size_t count, float *out);

/**
 * Normalised linear interpolation along the shorter arc: the same flip of **a** when
 * dot(a, b) < 0, then (1 − t)·a + t·b normalised by its 4-component length (a zero-length
 * result left as it is). t clamped to [0, 1], NaN propagates. Shapes, aliasing, errors and
 * determinism as tendon_quat_slerp.
 */
TENDON_API tendon_status tendon_quat_nlerp(const float *a, const float *b, const double *t,
                                           size_t count, float *out);

/**
 * Hamilton product per element, out[i] = a[i] ⊗ b[i] (apply b, then a), in the seed's order:
 *   x = ((aw·bx + ax·bw) + ay·bz) − az·by     y = ((aw·by − ax·bz) + ay·bw) + az·bx
 *   z = ((aw·bz + ax·by) − ay·bx) + az·bw     w = ((aw·bw − ax·bx) − ay·by) − az·bz
 * computed in double, rounded once. Not normalised.
 * a, b, out: [4*count] x y z w. out may be exactly a or b. Errors as tendon_quat_slerp.
 */
TENDON_API tendon_status tendon_quat_multiply(const float *a, const float *b, size_t count,
                                              float *out);

/*
 * ---- The float32 tier (docs/fast-tier.md) ----
 *
 * The same operations computed in float32 throughout: every + − × ÷ √ in float, the tier's own
 * float polynomials for acos and sin (docs/detmath.md, "The float32 tier"), the sums in the
 * orders written above. Faster than the seed-exact tier (twice the lanes, no conversions) and
 * still **bitwise identical on every ISA and machine** in the default FP environment — but not
 * the seed's bits: use the exact tier for results shared with the seed's JavaScript engine.
 * Inputs are expected to be near unit length: a quaternion whose squared length overflows
 * float32 (components beyond ~1.8e19) normalises to zero components.
 */

/**
 * Slerp in float32 along the shorter arc, per element: out[i] = slerp(a[i], b[i], t[i]).
 *
 *   w = clamp(t[i], 0, 1) in float (NaN passes: a NaN quaternion)
 *   dot = ((ax·bx + ay·by) + az·bz) + aw·bw;  d = |dot|
 *   d > 0.99988, or w = 0, or w = 1:  s0 = 1 − w,  s1 = w   (the straight blend; at the ends
 *                                     the result is a or b normalised)
 *   otherwise θ = acos(d), s0 = sin((1 − w)·θ), s1 = sin(w·θ)
 *   dot < 0: s0 negated (a flipped: the shorter arc; dot == 0 does not flip)
 *   out = s0·a + s1·b, normalised by its 4-component length (one √, one ÷; zero length left)
 *
 * Accuracy against a true slerp of the same inputs (measured in tests/test_fast_tier.c over
 * random, near-parallel, near-antipodal pairs and t across [0, 1]): angle error ≤ 2e-5°,
 * ||out| − 1| ≤ 3e-7.
 * a, b, out: [4*count] x y z w. t: [count] floats, unitless. count may be 0 (pointers may then
 * be NULL). Aliasing: out may be exactly a or b; any other overlap with a, b or t is refused.
 * Errors: as tendon_quat_slerp (TENDON_ERR_NULL, TENDON_ERR_VALUE for a misaligned array,
 * TENDON_ERR_OVERFLOW, TENDON_ERR_ALIAS, TENDON_ERR_ISA). Nothing is written on error.
 * Seed: 000 blend.js slerpInto, in float32.
 */
TENDON_API tendon_status tendon_quat_slerp_f32(const float *a, const float *b, const float *t,
                                               size_t count, float *out);

/**
 * Normalised lerp in float32 along the shorter arc: s0 = 1 − w (negated when dot < 0),
 * s1 = w, out = s0·a + s1·b normalised, w = clamp(t[i], 0, 1) in float. Within 2e-5° and
 * 3e-7 of a double-precision nlerp of the same inputs. Shapes, aliasing, errors and
 * determinism as tendon_quat_slerp_f32.
 */
TENDON_API tendon_status tendon_quat_nlerp_f32(const float *a, const float *b, const float *t,
                                               size_t count, float *out);

/**
 * Hamilton product in float32, out[i] = a[i] ⊗ b[i], in the seed's order (tendon_quat_multiply's
 * formula, every operation in float). Not normalised. Shapes, aliasing and errors as
 * tendon_quat_multiply; bitwise identical on every ISA.
 */
TENDON_API tendon_status tendon_quat_multiply_f32(const float *a, const float *b, size_t count,
                                                  float *out);

#ifdef __cplusplus
}
#endif
#endif
