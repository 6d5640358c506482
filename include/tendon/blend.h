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

/*
 * ---- The float32 tier (docs/fast-tier.md) ----
 *
 * The same calls, the same signatures and the same rules (clamping, shortest arc, what a mask
 * weight of 0 or NaN does, aliasing, errors), computed in float32 for speed: the blend weight
 * is clamped in double exactly as above and rounded to float once per call — per joint for a
 * mask: clamp(t·m_j) in double, then rounded (a finite additive weight beyond FLT_MAX saturates
 * to FLT_MAX, it never becomes ∞) — and every later operation is float32:
 *   translation, scale:  from + (to − from)·w          (blend)
 *                        base + delta·w,  base·(1 + (delta − 1)·w)   (additive)
 *   rotation:            tendon_quat_slerp_f32 / tendon_quat_nlerp_f32 of a, b by w (blend);
 *                        base ⊗ slerp₀(delta, min(w, 1)) (additive), where slerp₀ is the slerp
 *                        from the identity with its zero terms left out of the sums: dot = d.w,
 *                        q = (s1·dx, s1·dy, s1·dz, s0 + s1·dw) normalised (tendon_quat_slerp_f32's
 *                        weights s0, s1) — equal to the full slerp but for the sign of a zero
 *                        component.
 * Every ISA gives the scalar reference's bits (finite input; NaN by class), on x86-64 and
 * AArch64, with gcc and clang. Not the seed's bits: replays shared with the seed's JavaScript
 * engine use the exact tier above. Accuracy: the rotations within 2e-5° of a true slerp (nlerp)
 * of the same inputs, unit to 3e-7; translation and scale within a few float32 ulps of the exact
 * tier's.
 */

/** tendon_pose_blend in float32 (slerp). Errors as tendon_pose_blend. */
TENDON_API tendon_status tendon_pose_blend_f32(const tendon_pose *a, const tendon_pose *b,
                                               double t, tendon_pose *out);

/**
 * tendon_pose_blend_masked in float32 (slerp): w_j = clamp(t·m_j, 0, 1) in double, rounded to
 * float, 0 where m_j = clamp(joint_weights[j], 0, 1) is 0. A mask of all 1.0 gives exactly
 * tendon_pose_blend_f32's bits. Errors as tendon_pose_blend_masked.
 */
TENDON_API tendon_status tendon_pose_blend_masked_f32(const tendon_pose *a, const tendon_pose *b,
                                                      double t, const float *joint_weights,
                                                      tendon_pose *out);

/**
 * Blend `a` toward `b` by `t` with a normalised lerp for the rotations (what ozz-animation and
 * Unreal blend with): tendon_pose_blend_f32 with tendon_quat_nlerp_f32 in place of the slerp.
 * Cheaper than the slerp, and off a true slerp by up to ~8° of rotation at t = 1/4 for poses a
 * half-turn apart (exact at t = 0, 1/2, 1; negligible for close poses). Float32 tier only.
 * Errors as tendon_pose_blend.
 */
TENDON_API tendon_status tendon_pose_blend_nlerp_f32(const tendon_pose *a, const tendon_pose *b,
                                                     double t, tendon_pose *out);

/** tendon_pose_blend_nlerp_f32 with a weight per joint, as tendon_pose_blend_masked_f32. */
TENDON_API tendon_status tendon_pose_blend_nlerp_masked_f32(const tendon_pose *a,
                                                            const tendon_pose *b, double t,
                                                            const float *joint_weights,
                                                            tendon_pose *out);

/** tendon_pose_add in float32 (the formulas above). Errors as tendon_pose_add. */
TENDON_API tendon_status tendon_pose_add_f32(const tendon_pose *base, const tendon_pose *delta,
                                             double weight, tendon_pose *out);

/**
 * tendon_pose_add_masked in float32: w_j = max(weight·m_j, 0) in double (0 where m_j is 0),
 * saturated at FLT_MAX, rounded to float. A mask of all 1.0 gives exactly tendon_pose_add_f32's
 * bits. Errors as tendon_pose_add_masked.
 */
TENDON_API tendon_status tendon_pose_add_masked_f32(const tendon_pose *base,
                                                    const tendon_pose *delta, double weight,
                                                    const float *joint_weights, tendon_pose *out);

#ifdef __cplusplus
}
#endif
#endif
