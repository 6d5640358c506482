/*
 * tendon — combining poses: a blend between two, an additive layer over one, and their
 * per-joint-weight (bone-masked) forms.
 *
 * Seed: 000 `blend.js` (blendPoses, addPose) and its README. All of them write into a
 * caller-owned pose and allocate nothing; all are pure functions of their inputs.
 *
 * Arithmetic: floats are read, converted to double, computed in double and rounded to float
 * once on store, in the seed's orders (docs/determinism.md). **t and weight are doubles**, as
 * the seed's numbers are. Every ISA variant is bitwise identical to the scalar reference in the
 * default FP environment; NaN outputs are NaN on every ISA (sign and payload not promised).
 *
 * Aliasing: `out` may be exactly one of the input poses (every joint is read before it is
 * written); arrays that partly overlap an input's are refused (TENDON_ERR_ALIAS).
 * Alignment: the element's own (4 bytes for floats); 64-byte alignment is a speed hint only. A
 * pose array or joint_weights pointer that is not a multiple of 4 bytes (with joint_count > 0)
 * is refused with TENDON_ERR_VALUE naming the argument and the array; nothing is written.
 */
#ifndef TENDON_BLEND_H
#define TENDON_BLEND_H

#include "pose.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Blend `a` toward `b` by `t` into `out` (seed `blendPoses`).
 *
 *   w = clamp(t, 0, 1)        (not extrapolated; NaN is not clamped: every output is NaN)
 *   translation, scale:  from + (to − from)·w
 *   rotation:            tendon_quat_slerp(a, b, w)  (a flipped when dot < 0)
 *
 * A mirrored (negative) scale keeps its sign only when both poses carry it on the same axis:
 * scale is lerped componentwise, so two TRS spellings of one mirrored matrix (e.g. s=(−1,1,1)
 * with a 180° turn about y, and s=(1,1,−1)) blend through a rank-deficient scale. Give blend
 * inputs a consistent mirror axis (docs/blend.md).
 *
 * a, b, out: poses of equal joint_count (0 allowed).
 * Errors: TENDON_ERR_NULL (a pose or one of its arrays), TENDON_ERR_COUNT (joint counts
 * differ), TENDON_ERR_VALUE (a misaligned array), TENDON_ERR_ALIAS, TENDON_ERR_ISA. Nothing is
 * written on error.
 */
TENDON_API tendon_status tendon_pose_blend(const tendon_pose *a, const tendon_pose *b, double t,
                                           tendon_pose *out);

/**
 * Blend with a weight per joint (a bone mask). With m_j = clamp(joint_weights[j], 0, 1):
 * a joint whose m_j is 0 keeps `a` (it is not in the layer, whatever t is — even ±∞ or NaN);
 * otherwise it uses w_j = clamp(t · m_j, 0, 1), the product in double; everything else as
 * tendon_pose_blend. A mask of all 1.0 gives exactly tendon_pose_blend's bits; a NaN mask
 * weight gives that joint NaN.
 * joint_weights: [joint_count] floats, meant to be in [0, 1] (clamped to it).
 * Errors: as tendon_pose_blend, plus TENDON_ERR_NULL for joint_weights (when joint_count > 0).
 */
TENDON_API tendon_status tendon_pose_blend_masked(const tendon_pose *a, const tendon_pose *b,
                                                  double t, const float *joint_weights,
                                                  tendon_pose *out);

/**
 * Apply `delta` on top of `base`, scaled by `weight`, into `out` (seed `addPose`): a delta,
 * not a target.
 *
 *   w = weight < 0 ? 0 : weight      (no upper clamp; NaN passes through)
 *   translation:  base + delta·w
 *   scale:        base · (1 + (delta − 1)·w)     (a delta scale of 1 is "unchanged")
 *   rotation:     base ⊗ slerp(identity, delta, min(w, 1)), the slerped delta rounded to
 *                 float before the product (as the seed's float32 scratch does); the base is
 *                 not normalised. A delta with w < 0 at weight 0 gives −base (the flip).
 *
 * base, delta, out: poses of equal joint_count. Errors as tendon_pose_blend.
 */
TENDON_API tendon_status tendon_pose_add(const tendon_pose *base, const tendon_pose *delta,
                                         double weight, tendon_pose *out);

/**
 * Additive layer with a weight per joint (a bone mask). With m_j = clamp(joint_weights[j], 0, 1):
 * a joint whose m_j is 0 keeps `base` (weight 0, whatever `weight` is — even +∞ or NaN);
 * otherwise it uses weight · m_j (product in double) in place of weight, then the rules of
 * tendon_pose_add. A mask of all 1.0 gives exactly tendon_pose_add's bits.
 * Errors: as tendon_pose_add, plus TENDON_ERR_NULL for joint_weights (when joint_count > 0).
 */
TENDON_API tendon_status tendon_pose_add_masked(const tendon_pose *base, const tendon_pose *delta,
                                                double weight, const float *joint_weights,
                                                tendon_pose *out);

#ifdef __cplusplus
}
#endif
#endif
