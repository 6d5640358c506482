/** @file
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
 * written); more precisely, each of out's three arrays must be either exactly the same array
 * of an input (translation for translation, …) or apart from all of its arrays, so out may
 * also share only, say, its rotations with an input. Arrays that partly overlap an input's, or
 * one of out's arrays lying on an input's array of another kind, are refused (TENDON_ERR_ALIAS).
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
 * a joint whose m_j is 0 gets the weight 0, whatever t is (even ±∞ or NaN); otherwise it uses
 * w_j = clamp(t · m_j, 0, 1), the product in double; everything else as tendon_pose_blend. So a
 * joint out of the mask is blended as tendon_pose_blend blends at t = 0: `a`'s translation and
 * scale (from + (to − from)·0: a −0 component may come out +0, and a non-finite `b` component
 * gives NaN) and `a`'s rotation — negated where dot(a, b) < 0 (the seed's hemisphere flip: the
 * same rotation). It is not copied bit for bit. A mask of all 1.0 gives exactly
 * tendon_pose_blend's bits; a NaN mask weight gives that joint NaN.
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
 * a joint whose m_j is 0 gets the weight 0, whatever `weight` is (even +∞ or NaN); otherwise it
 * uses weight · m_j (product in double) in place of weight, then the rules of tendon_pose_add.
 * So a joint out of the mask is tendon_pose_add's at weight 0: `base`'s translation and scale
 * (base + delta·0, base·(1 + (delta − 1)·0): a −0 component may come out +0, and a non-finite
 * `delta` component gives NaN) and base ⊗ slerp(identity, delta, 0) for the rotation — `base`,
 * or −base where the delta's w < 0 (the flip: the same rotation). A mask of all 1.0 gives
 * exactly tendon_pose_add's bits.
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

/** Which tier of arithmetic a blend tree or state machine evaluates on (docs/fast-tier.md). */
typedef enum tendon_tier {
    /** The seed-exact tier: float in, double inside, rounded once — the seed's bits. */
    TENDON_TIER_EXACT = 0,
    /** The float32 tier: the `_f32` calls (blends slerp; clips sample with
     *  tendon_clip_sample_f32). */
    TENDON_TIER_F32 = 1
} tendon_tier;

/** tendon_pose_blend in float32 (slerp). Errors as tendon_pose_blend. */
TENDON_API tendon_status tendon_pose_blend_f32(const tendon_pose *a, const tendon_pose *b,
                                               double t, tendon_pose *out);

/**
 * tendon_pose_blend_masked in float32 (slerp): w_j = clamp(t·m_j, 0, 1) in double, rounded to
 * float, 0 where m_j = clamp(joint_weights[j], 0, 1) is 0 — where a joint gets ±a normalised
 * (the slerp's end at w = 0), as tendon_pose_blend_masked describes. A mask of all 1.0 gives
 * exactly tendon_pose_blend_f32's bits. Errors as tendon_pose_blend_masked.
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

/*
 * ---- N-layer blending (float32 tier) ----
 */

/** ozz-animation's default threshold: below a total weight of 0.1 the rest pose fills in. */
#define TENDON_BLEND_LAYERS_DEFAULT_THRESHOLD 0.1

/** One layer of tendon_pose_blend_layers_f32. */
typedef struct tendon_blend_layer {
    /** The layer's pose: a full pose for a blended layer, a delta (tendon_pose_delta's
     *  conventions) for an additive one. joint_count equal to the output's. */
    const tendon_pose *pose;
    /** The layer's weight, unitless. ≤ 0 (and −∞): the layer is skipped (not read at all). A
     *  NaN weight makes every output NaN; +∞ too (a rotation's w may be +∞ instead: see
     *  tendon_pose_blend_layers_f32). A blended layer's weights are relative (they are
     *  normalised); an additive layer's is its amount (1 = the whole delta; no upper clamp). */
    double weight;
    /** NULL (every joint 1), or [joint_count] per-joint weights, clamped to [0, 1] (NaN
     *  propagates to that joint) and multiplied by `weight` in float. */
    const float *joint_weights;
} tendon_blend_layer;

/** The arguments of tendon_pose_blend_layers_f32 (nothing is owned; all are read only). */
typedef struct tendon_blend_layers_job {
    /** [layer_count] blended layers, in order; may be NULL when layer_count is 0. */
    const tendon_blend_layer *layers;
    size_t layer_count; /**< entries of `layers` */
    /** [additive_count] additive layers, applied in order after the blend; may be NULL when 0. */
    const tendon_blend_layer *additive_layers;
    size_t additive_count; /**< entries of `additive_layers` */
    /** The rest (bind) pose: it fills in where the blended weights sum below the threshold. */
    const tendon_pose *rest_pose;
    /** Finite and > 0 (TENDON_BLEND_LAYERS_DEFAULT_THRESHOLD is ozz's 0.1). */
    double threshold;
} tendon_blend_layers_job;

/**
 * Blend any number of weighted layers, then apply additive layers (ozz-animation's
 * BlendingJob, with tendon's bone-mask rules and exact determinism), in float32. Per joint j:
 *
 *   for each blended layer i, in order (weight_i ≤ 0: skipped):
 *     w = w_i · m in float, where w_i is weight_i rounded to float once per call (a finite
 *         weight beyond FLT_MAX saturates to FLT_MAX) and m = clamp(joint_weights_i[j], 0, 1)
 *         in float (1 without joint weights) — as ozz multiplies them
 *     W = W + w
 *     T = T + w·t_i          S = S + w·s_i          (component-wise, float)
 *     d = ((Qx·qx + Qy·qy) + Qz·qz) + Qw·qw;  Q = Q + (d < 0 ? −w : w)·q_i
 *   with W, T, S, Q starting at 0 — rotations accumulate with each sign fixed against the
 *   running sum, and are normalised once below.
 *   W == 0 (no layer reached the joint): the rest pose, bit for bit.
 *   otherwise, with θ = (float)threshold and r = θ − W:
 *     r > 0: the rest pose enters as one more layer of weight r (its sign fixed the same way),
 *            and W = W + r
 *     T = T·(1/W),  S = S·(1/W),  Q = normalise(Q) (tendon_quat_slerp_f32's normalisation)
 *   then for each additive layer k, in order (weight_k ≤ 0: skipped), with w = w_k · m as above
 *   (no upper clamp), tendon_pose_add_f32's formulas:
 *     T = T + w·t_k,  S = S·(1 + (s_k − 1)·w),  Q = Q ⊗ slerp₀(q_k, min(w, 1))
 *
 * so with a threshold ≤ 1 one layer of weight 1 gives that layer's translation and scale bit
 * for bit (but +0 for a −0 component: the sums start at +0) and its rotation normalised (with
 * a larger threshold the rest pose enters too); all weights 0 give the rest pose. This formula is part of the bits:
 * every ISA computes exactly it (docs/fast-tier.md, "N-layer blending").
 *
 * job: every pose of joint_count equal to out's; a blended layer's weights are relative (two
 * layers of 2 and 2 blend as 0.5 and 0.5) within a range: the rotation sum Q is normalised
 * through its squared length in float32, so where the joint's summed weight W exceeds ~1.8e19
 * that square overflows and Q comes out (0, 0, 0, 0), and where W·|q| falls below ~1e-19 (only
 * reachable with a threshold below that) the square underflows and Q is left unnormalised —
 * both reported as TENDON_OK. Keep summed weights in [1e-19, 1e19] (and the threshold ≥ 1e-19);
 * weights beyond ~1e38 overflow float32 in the sums themselves, and a weight of +∞ (kept as
 * +∞: only finite weights saturate) makes every joint NaN (a w component may be +∞): 0·∞ and
 * ∞ − ∞ in the sums, ∞·0 where a joint weight is 0 — also with TENDON_OK.
 * out: written whole. It may be exactly any one of the input poses (each joint's inputs are
 * all read before its output is written); a partial overlap of out with any input array, or
 * with a joint_weights array, is refused.
 * Errors: TENDON_ERR_NULL (job, out, a layer's pose, rest_pose, layers / additive_layers with a
 * nonzero count), TENDON_ERR_COUNT (a joint count differs; the message names the layer),
 * TENDON_ERR_VALUE (threshold NaN, ≤ 0, or above FLT_MAX — +∞ and a finite double such as 1e39
 * alike: "too large", as it is used as a float32; a misaligned array), TENDON_ERR_ALIAS,
 * TENDON_ERR_ISA. Nothing is written on error. Allocates nothing.
 * Determinism: bitwise identical on every ISA and machine in the default FP environment.
 */
TENDON_API tendon_status tendon_pose_blend_layers_f32(const tendon_blend_layers_job *job,
                                                      tendon_pose *out);

#ifdef __cplusplus
}
#endif
#endif
