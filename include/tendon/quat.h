/*
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

#ifdef __cplusplus
}
#endif
#endif
