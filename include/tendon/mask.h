/** @file
 * tendon — bone masks for layered animation: which bones a layer drives, and how much.
 *
 * Seed: 003 (bone-mask). A mask is a **weight per bone**, ramped along the chain below a split
 * root over `falloff` bones, never a set: a hard boundary kinks the torso at one joint. It feeds
 * the per-joint-weight blends of blend.h (tendon_pose_add_masked, tendon_pose_blend_masked).
 * The layer is applied **additively by default** — as a delta from its own reference pose, so
 * the base's counter-rotation survives under it — and by override as the sharper tool. A split
 * root that cannot be found is an error naming it and listing near matches, never an all-zero
 * mask (which animates nothing and looks exactly like a clip that failed to load).
 * Decisions: docs/layers.md.
 *
 * Nothing here allocates; every function is pure. Arithmetic of the mask and the delta: read
 * float, compute in double, round once (blend.h's family), plain C with no per-ISA variant; the
 * layers are blend.h's kernels. Every result is bitwise the same on every ISA and machine.
 */
#ifndef TENDON_MASK_H
#define TENDON_MASK_H

#include "blend.h"
#include "clip.h"
#include "skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The largest falloff (bones to full authority): 2^24, so the split root's weight 1/falloff
 *  stays a normal float — a larger one would round the first weights to 0, an all-zero mask
 *  near the root. */
#define TENDON_BONE_MASK_MAX_FALLOFF 16777216.0

/** How a masked layer meets the base. */
typedef enum tendon_mask_mode {
    /** The default: the layer is a delta (tendon_pose_delta) added on top of the base
     *  (tendon_pose_add_masked) — the base's motion underneath survives. */
    TENDON_MASK_ADDITIVE = 0,
    /** The layer is a full pose that replaces the base where the mask says
     *  (tendon_pose_blend_masked) — what is underneath is lost there. */
    TENDON_MASK_OVERRIDE = 1
} tendon_mask_mode;

/**
 * Build the mask of the chain below `root_name` into out_weights[joint_count]:
 *
 *   d(j) = number of bones from the split root down to j (0 at the root) for j in the root's
 *          subtree (the root itself and every joint whose parent chain reaches it)
 *   w(j) = min(1, (d(j) + 1) / falloff)   in double, rounded once to float, inside the subtree
 *   w(j) = 0                              everywhere else
 *
 * so the root has 1/falloff, full authority is reached `falloff` bones down (at the root itself
 * when falloff is 1), and a joint and its parent differ by at most 1/falloff (the root and its
 * parent by exactly 1/falloff) — no joint kinks.
 *
 * falloff: bones to full authority, from 1 to TENDON_BONE_MASK_MAX_FALLOFF (2^24; non-integers
 * allowed: 2.5 gives 0.4, 0.8, 1). The name is matched exactly (case-sensitive, as tendon_skeleton_find_joint).
 * out_weights: [joint_count] floats; written only on success.
 * Errors:
 *   TENDON_ERR_NULL       skeleton, root_name, out_weights (joint_count > 0)
 *   TENDON_ERR_NOT_FOUND  no joint is named root_name: the message names it and lists up to five
 *                         near matches (same letters in another case, one name containing the
 *                         other, or an edit distance ≤ max(2, length/3)), or says there are none
 *                         or that the skeleton has no names
 *   TENDON_ERR_VALUE      falloff NaN, < 1 or > TENDON_BONE_MASK_MAX_FALLOFF; out_weights not
 *                         aligned to float
 */
TENDON_API tendon_status tendon_bone_mask_by_name(const tendon_skeleton *skeleton,
                                                  const char *root_name, double falloff,
                                                  float *out_weights);

/**
 * As tendon_bone_mask_by_name, with the split root given by index.
 * Errors: TENDON_ERR_NULL, TENDON_ERR_RANGE (root ≥ joint_count; the message names both),
 * TENDON_ERR_VALUE (falloff; out_weights misaligned).
 */
TENDON_API tendon_status tendon_bone_mask_by_index(const tendon_skeleton *skeleton, size_t root,
                                                   double falloff, float *out_weights);

/**
 * Apply a masked layer to `base` into `out`:
 *   TENDON_MASK_ADDITIVE  tendon_pose_add_masked(base, layer, weight, mask, out) — `layer` is a
 *                         delta pose (tendon_pose_delta of the layer's clip pose and its
 *                         reference pose)
 *   TENDON_MASK_OVERRIDE  tendon_pose_blend_masked(base, layer, weight, mask, out) — `layer` is
 *                         a full pose
 * with every rule, aliasing permission and error of those functions (weight is a double: the
 * layer's overall weight), plus TENDON_ERR_VALUE for a mode that is neither.
 */
TENDON_API tendon_status tendon_layer_apply(const tendon_pose *base, const tendon_pose *layer,
                                            double weight, const float *mask_weights,
                                            tendon_mask_mode mode, tendon_pose *out);

/**
 * The delta of `pose` from `reference`, in the conventions of tendon_pose_add, so that
 * tendon_pose_add(reference, delta, 1) reproduces `pose` (to float rounding: within a float32
 * ulp or two per component):
 *
 *   translation  pose − reference
 *   rotation     reference⁻¹ ⊗ pose = conj(reference) ⊗ pose, normalised (reference taken as a
 *                rotation: normalised first; the product in the seed's order); where pose's
 *                rotation equals reference's component by component (==: ±0 alike) and is
 *                finite, exactly (0, 0, 0, 1), the formula's exact value, which its rounding
 *                would miss by ~1e-17 (or, in tendon_pose_delta_f32, a float ulp)
 *   scale        pose / reference   (tendon_pose_add multiplies: base · delta at weight 1)
 *
 * each in double, rounded once (tendon_pose_delta_f32: the same in float32). For an additive
 * layer: its clip pose at time t against its reference pose (commonly the clip's first frame,
 * or the bind pose).
 *
 * reference, pose, out_delta: poses of equal joint_count; out_delta may be exactly either input
 * (each joint is read before it is written); partial overlaps are refused.
 * Errors: TENDON_ERR_NULL, TENDON_ERR_COUNT, TENDON_ERR_ALIAS, TENDON_ERR_VALUE (a reference
 * scale component that is 0, or a reference rotation of length 0: the message names the joint;
 * nothing is written).
 */
TENDON_API tendon_status tendon_pose_delta(const tendon_pose *reference, const tendon_pose *pose,
                                           tendon_pose *out_delta);

/**
 * The delta of a clip at `time_sec` from its reference pose — what an additive layer adds
 * (seed 003: the aim clip applied as a delta from its own reference pose):
 *
 *   out_delta ← reference;  tendon_clip_sample(clip, time_sec, out_delta);
 *   tendon_pose_delta(reference, out_delta, out_delta)
 *
 * so a channel no track drives has the identity delta (translation 0, rotation (0,0,0,1),
 * scale 1, exactly, where the reference's values are finite and its scale is not 0) and adds
 * nothing. `reference` is the clip's reference pose: commonly the clip sampled
 * at its first key over the bind pose, or the bind pose itself. Allocates nothing.
 * reference, out_delta: the clip's joint count; out_delta must not overlap reference.
 * Errors: as tendon_clip_sample and tendon_pose_delta (TENDON_ERR_NULL, TENDON_ERR_COUNT,
 * TENDON_ERR_ALIAS, TENDON_ERR_VALUE); on error out_delta's content is unspecified.
 */
TENDON_API tendon_status tendon_clip_delta_pose(const tendon_clip *clip, double time_sec,
                                                const tendon_pose *reference,
                                                tendon_pose *out_delta);

/*
 * ---- The float32 tier (docs/fast-tier.md) ----
 */

/**
 * tendon_layer_apply on the float32 tier: TENDON_MASK_ADDITIVE is tendon_pose_add_masked_f32,
 * TENDON_MASK_OVERRIDE tendon_pose_blend_masked_f32, with every rule, aliasing permission and
 * error of those functions, plus TENDON_ERR_VALUE for a mode that is neither. Bitwise identical
 * on every ISA; not the seed's bits.
 */
TENDON_API tendon_status tendon_layer_apply_f32(const tendon_pose *base, const tendon_pose *layer,
                                                double weight, const float *mask_weights,
                                                tendon_mask_mode mode, tendon_pose *out);

/**
 * tendon_pose_delta in float32: the same formulas and conventions, every operation in float
 * (the reference rotation normalised by tendon_quat_slerp_f32's normalisation, the product in
 * the seed's order, normalised — (0, 0, 0, 1) exactly where the rotations are equal; translation
 * pose − reference; scale pose / reference, one correctly rounded division), so tendon_pose_add_f32(reference, delta, 1) reproduces `pose`
 * to float rounding. Plain C, the same on every ISA and machine. Shapes, aliasing and errors
 * (named by this function) as tendon_pose_delta.
 */
TENDON_API tendon_status tendon_pose_delta_f32(const tendon_pose *reference,
                                               const tendon_pose *pose, tendon_pose *out_delta);

/**
 * tendon_clip_delta_pose on the float32 tier: out_delta ← reference; tendon_clip_sample_f32(
 * clip, time_sec, out_delta); tendon_pose_delta_f32(reference, out_delta, out_delta). Shapes,
 * aliasing and errors as tendon_clip_delta_pose; allocates nothing. Bitwise identical on every
 * ISA (the sampling's kernels are; the delta is plain C).
 */
TENDON_API tendon_status tendon_clip_delta_pose_f32(const tendon_clip *clip, double time_sec,
                                                    const tendon_pose *reference,
                                                    tendon_pose *out_delta);

#ifdef __cplusplus
}
#endif
#endif
