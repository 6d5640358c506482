/** @file
 * tendon — the raw kernel table (low level).
 *
 * One table per ISA, returned by tendon_kernels_for(). These are the unchecked kernels behind
 * the public entry points: they validate nothing (no NULL checks, no count checks, no overlap
 * checks) and report nothing. Call them only with arguments the public function's contract
 * accepts; the public functions (tendon/quat.h, tendon/blend.h, …) are the supported API.
 * Every entry of every table computes the same bits as the scalar table's entry for the same
 * input (finite inputs; NaNs by class). None allocates, reads a clock or keeps state.
 *
 * **The floating-point environment.** Unlike the public entry points, these function pointers
 * are not guarded: they run in the calling thread's environment as it is, and their bits are
 * the promised ones only in the defined environment (round to nearest, no FTZ/DAZ). A thread
 * that may have another (a game that sets FTZ/DAZ, a changed rounding mode) wraps a batch of
 * raw calls in tendon_fpenv_enter / tendon_fpenv_leave (tendon/fpenv.h) — one register write
 * each way per batch instead of per call. The spring march kernels call plan->anchor in that
 * same environment. (Why not guarded: a guard per call would be a register read and compare
 * in every kernel of every ISA, which the public entry points already pay once per call;
 * docs/determinism.md, "The floating-point environment".)
 *
 * Fields are appended as modules land; compare `isa` rather than relying on the size.
 * Appending one is an ABI change: the release that carries it bumps TENDON_VERSION_MINOR and so
 * the soname (libtendon.so.0.MINOR; README, "Versions and the ABI").
 */
#ifndef TENDON_KERNELS_H
#define TENDON_KERNELS_H

#include "blend.h"
#include "dispatch.h"
#include "fpenv.h"
#include "pose.h"
#include "skin.h"
#include "spring.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One ISA's kernel table (tendon_kernels_for()): the unchecked kernels, as described above. */
typedef struct tendon_kernels {
    tendon_isa isa; /**< the ISA whose variants these are */

    /** quat.h: count quaternions x y z w; t[count] per element. out may equal a or b. @{ */
    void (*quat_slerp)(const float *a, const float *b, const double *t, size_t count, float *out);
    void (*quat_nlerp)(const float *a, const float *b, const double *t, size_t count, float *out);
    void (*quat_multiply)(const float *a, const float *b, size_t count, float *out);
    /** @} */

    /** blend.h: joint_count joints; joint_weights NULL or [joint_count]. out may equal a or b.
     *  @{ */
    void (*pose_blend)(const tendon_pose *a, const tendon_pose *b, double t,
                       const float *joint_weights, size_t joint_count, tendon_pose *out);
    void (*pose_add)(const tendon_pose *base, const tendon_pose *delta, double weight,
                     const float *joint_weights, size_t joint_count, tendon_pose *out);
    /** @} */

    /* skeleton.h (float32 matrix kernels; 4×4 column-major, 16 floats per matrix). */
    /** out[16*count]: T·R·S of count joints. out must not overlap the inputs. */
    void (*local_matrices)(const float *translation, const float *rotation, const float *scale,
                           size_t count, float *out);
    /** joints [first, end): model[j] = (parents[j] < 0 ? root (NULL: copy) : model[parents[j]])
       × local[j] (skeleton.h's pairwise 4×4 product); local and model are whole arrays indexed
       by joint; local may equal model. */
    void (*model_matrices)(const float *local, const int32_t *parents, const float *root,
                           size_t first, size_t end, float *model);
    /** out[k] = model[joint_of[k]] × inverse_bind[k], k < count. out must not overlap inputs. */
    void (*palette)(const float *model, const uint32_t *joint_of, const float *inverse_bind,
                    size_t count, float *out);
    /** skin.h: a validated job with every stride resolved (nonzero) and every index in range. */
    void (*skin)(const tendon_skin_job *job);
    /** out[e] = base[e] + Σ weights[t]·deltas[t][e] (weight 0 skipped), e < float_count. */
    void (*morph)(const float *base, const float *const *deltas, const float *weights,
                  size_t target_count, size_t float_count, float *out);
    /** spring.h: march plan->steps substeps over plan->lanes lanes (tendon_spring_march_plan).
       spring_march: one link per lane (springs, batches); spring_chain_march: link_count links
       per lane, each anchored to the one above. Both call plan->anchor once per substep. @{ */
    void (*spring_march)(const tendon_spring_march_plan *plan);
    void (*spring_chain_march)(const tendon_spring_march_plan *plan);
    /** @} */
    /** clip.h: out[i] = a[i] + (b[i] − a[i])·u[i] in double, rounded once, i < count (the
       gathered components of LINEAR tracks; rotations use quat_slerp). out may equal a or b. */
    void (*clip_lerp)(const float *a, const float *b, const double *u, size_t count, float *out);
    /** clip.h CUBICSPLINE: out[i] = ((h00·v0 + h10·b0) + h01·v1) + h11·a1 in double, not
       rounded (rotations are normalised after); h is [4·count] as four planes h00, h10, h01,
       h11 (the tangent weights already × Δt), i < count. */
    void (*clip_hermite)(const float *v0, const float *b0, const float *v1, const float *a1,
                         const double *h, size_t count, double *out);
    /** skeleton.h: model_matrices' products for the joints order[0 .. count), in that order:
       every parent must come before its children in `order` (tendon_skeleton_level_order).
       Bitwise the same matrices as model_matrices over the same joints. local may equal
       model. (Appended last: fields are only ever appended.) */
    void (*model_matrices_ordered)(const float *local, const int32_t *parents, const float *root,
                                   const uint32_t *order, size_t count, float *model);
    /** Nonzero when a pass over a whole skeleton is faster on this table through
       model_matrices_ordered in the level order than through model_matrices in joint order
       (measured: docs/skinning.md, "Level order"); the library's whole-skeleton calls follow
       it. The bits are the same either way. */
    int model_pass_level_order;

    /* ---- the float32 tier (docs/fast-tier.md): float32 arithmetic, bitwise on every ISA ---- */
    /** quat.h _f32: count quaternions; t[count] floats per element. out may equal a or b. @{ */
    void (*quat_slerp_f32)(const float *a, const float *b, const float *t, size_t count,
                           float *out);
    void (*quat_nlerp_f32)(const float *a, const float *b, const float *t, size_t count,
                           float *out);
    void (*quat_multiply_f32)(const float *a, const float *b, size_t count, float *out);
    /** @} */
    /** blend.h _f32: as pose_blend / pose_add (the weight a double, rounded to float once per
       call, or per joint with joint_weights); pose_blend_nlerp_f32 nlerps. out may equal a or
       b. @{ */
    void (*pose_blend_f32)(const tendon_pose *a, const tendon_pose *b, double t,
                           const float *joint_weights, size_t joint_count, tendon_pose *out);
    void (*pose_blend_nlerp_f32)(const tendon_pose *a, const tendon_pose *b, double t,
                                 const float *joint_weights, size_t joint_count,
                                 tendon_pose *out);
    void (*pose_add_f32)(const tendon_pose *base, const tendon_pose *delta, double weight,
                         const float *joint_weights, size_t joint_count, tendon_pose *out);
    /** @} */
    /** blend.h tendon_pose_blend_layers_f32 on a validated job, joints [0, joint_count). */
    void (*pose_blend_layers_f32)(const tendon_blend_layers_job *job, size_t joint_count,
                                  tendon_pose *out);
    /* clip.h _f32 (the float32 tier of clip sampling; docs/clips.md). out may equal a or b. */
    /** out[i] = a[i] + (b[i] − a[i])·u[i] in float, i < count (gathered LINEAR components). */
    void (*clip_lerp_f32)(const float *a, const float *b, const float *u, size_t count,
                          float *out);
    /** out[i] = a[i] + (b[i] − a[i])·u in float, i < count: one u for the whole array (a run
       of a timeline's key-major block, key k against key k+1). */
    void (*clip_lerp_uniform_f32)(const float *a, const float *b, float u, size_t count,
                                  float *out);
    /** count quaternions (x y z w): the float tier's slerp of a[i] toward b[i] by clamp(u, 0,
       1) — bit for bit quat_slerp_f32 with every t[i] = u. */
    void (*clip_slerp_uniform_f32)(const float *a, const float *b, float u, size_t count,
                                   float *out);
    /** CUBICSPLINE in float: out[i] = ((h00·v0 + h10·b0) + h01·v1) + h11·a1, h [4·count] as
       four planes h00, h10, h01, h11 (the tangent weights already × Δt), i < count. */
    void (*clip_hermite_f32)(const float *v0, const float *b0, const float *v1, const float *a1,
                             const float *h, size_t count, float *out);

    /* ---- issue 12: the prepared skinning mesh (appended; keep this block contiguous) ---- */
    /** skin.h tendon_skin_mesh_apply_range on a created mesh: vertices [first, first + count);
       the outputs are vertex 0 of arrays with the mesh's strides, NULL ones not written. */
    void (*skin_mesh)(const struct tendon_skin_mesh *mesh, const float *palette, size_t first,
                      size_t count, float *out_positions, float *out_normals,
                      float *out_tangents);
    /** skeleton.h: palette's products (the same bits) with the inverse bind matrices given as
       the binding keeps them: inverse_bind_splat [64*count], per entry for k = 0..3 sixteen
       floats holding inverse_bind[k][4c + k] in lanes 4c..4c+3 (c = 0..3). */
    void (*palette_splat)(const float *model, const uint32_t *joint_of,
                          const float *inverse_bind_splat, size_t count, float *out);
    /** skin.h tendon_palette_to_dual_quat's arithmetic: returns the first matrix that is not a
       rotation, translation and uniform scale (then nothing is written), or count after
       writing out[16*count]. out may equal palette. */
    size_t (*palette_to_dual_quat)(const float *palette, size_t count, float *out);
    /** skin.h tendon_skin_mesh_apply_dq_range on a created mesh, dq as tendon_palette_to_dual_quat
       writes it (palette_count entries); outputs as skin_mesh. */
    void (*skin_mesh_dq)(const struct tendon_skin_mesh *mesh, const float *dq, size_t first,
                         size_t count, float *out_positions, float *out_normals,
                         float *out_tangents);
    /** Nonzero when palette_splat is faster on this table than palette (the 128-bit ISAs, whose
       splats are shuffles; on AVX2 and AVX-512 of AMD cores the four-times-larger table costs
       more than the in-lane splats it saves; on Intel cores it pays there too while the table
       stays in the first-level cache: palette_splat_max, measured, docs/skinning.md);
       tendon_palette and tendon_pose_palette follow it. The bits are the same either way. */
    int palette_splat_pays;
    /* ---- a weight per joint given (the spring rig: every substep time of a pose at once,
       each time with its own weights) ---- */
    /** pose_blend / pose_add with joint j's weight given as weights[j] in place of t·m_j (the
       joint weight pose_blend and pose_add compute from t and joint_weights: 0 where the clamped
       mask is 0, else t·clamp(m, 0, 1)); then clamped as they clamp it. With weights[j] that
       joint weight, the same bits as pose_blend / pose_add. out may equal a or b. @{ */
    void (*pose_blend_weighted)(const tendon_pose *a, const tendon_pose *b, const double *weights,
                                size_t joint_count, tendon_pose *out);
    void (*pose_add_weighted)(const tendon_pose *base, const tendon_pose *delta,
                              const double *weights, size_t joint_count, tendon_pose *out);
    /** @} */
    /** The float32 tier's: weights[j] the float weight pose_blend_f32 / pose_add_f32 use for
       joint j (clamp(t·m_j, 0, 1), or max(weight·m_j, 0) saturated at FLT_MAX, in double,
       rounded once), used as it is. @{ */
    void (*pose_blend_weighted_f32)(const tendon_pose *a, const tendon_pose *b,
                                    const float *weights, size_t joint_count, tendon_pose *out);
    void (*pose_add_weighted_f32)(const tendon_pose *base, const tendon_pose *delta,
                                  const float *weights, size_t joint_count, tendon_pose *out);
    /** @} */
    /** Where palette_splat_pays: the largest palette (entries) for which it does; a longer one
       takes palette. SIZE_MAX: any length. On Intel's AVX2 and AVX-512 tables 128 — 32 KiB of
       splat table, which with the model matrices read and the palette written fits the 48 KiB
       first-level data cache; beyond it the table's loads miss and palette is the faster
       (measured, docs/skinning.md). The bits are the same either way. */
    size_t palette_splat_max;
    /** The spring rig's matrices, one time per lane (docs/springs.md, "The spring rig"): for
       i < count, L_i = T·R·S of element i of translation (3 floats an element), rotation (4)
       and scale (3) — local_matrices' values — and M_i = A_i × L_i (model_matrices' pairwise
       product), **rows 0–2 only**, written as planes: element e (column-major, e % 4 < 3) of
       time i at model[e·stride + i], and L_i's at local[e·stride + i] unless local is NULL
       (row 3, which is 0 0 0 1, is never written). A_i: none when parent is NULL (M_i = L_i);
       the one 4×4 matrix parent[16] when parent_stride is 0; else the planes
       parent[e·parent_stride + i] (a product's rows 0–2 read only the parent's rows 0–2). The
       same bits as local_matrices then model_matrices, time by time. The outputs must not
       overlap the inputs or each other. */
    void (*local_model_lanes)(const float *translation, const float *rotation, const float *scale,
                              size_t count, const float *parent, size_t parent_stride,
                              float *local, float *model, size_t stride);
    /** Points through matrices, one per lane (the spring rig's anchors): for i < count and
       k < 3, out[k·out_stride + i] = row k of M_i·(p_i, 1), each ((m[k]·x + m[4+k]·y) +
       m[8+k]·z) + m[12+k] in that order. M_i: the planes m[e·m_stride + i] (rows 0–2,
       local_model_lanes' layout), or the one 4×4 matrix m[16] when m_stride is 0. p_i: the
       planes p[k·p_stride + i], or the one point p[3] when p_stride is 0. out may be exactly p
       when the points are planes with out_stride = p_stride (a lane's point is read before its
       result is written); no other overlap (one point must not overlap out). */
    void (*transform_points_lanes)(const float *m, size_t m_stride, const float *p,
                                   size_t p_stride, size_t count, float *out, size_t out_stride);
    /** The additive layer's rotations alone (the exact-tier spring rig's joints whose
       translation and scale the layer leaves as they are: docs/springs.md, "Translations and
       scales left at rest"): for i < count, out_i = base_i ⊗ the slerp from the identity toward delta_i —
       pose_add_weighted's rotation of joint i at weights[i] (clamped below at 0, the slerp's
       weight also above at 1, the scaled delta rounded to float before the product), bit for
       bit. Quaternions x y z w, 4 floats each; out may be exactly base or delta, and must not
       overlap them otherwise. The float32 tier's twin gives pose_add_weighted_f32's rotations
       from its weights as that takes them: the slerp's weight min(w, 1), nothing clamped below
       0, no rounding step (the arithmetic is float). A NaN weight gives NaN. @{ */
    void (*quat_add_weighted)(const float *base, const float *delta, const double *weights,
                              size_t count, float *out);
    void (*quat_add_weighted_f32)(const float *base, const float *delta, const float *weights,
                                  size_t count, float *out);
    /** @} */
} tendon_kernels;

#ifdef __cplusplus
}
#endif
#endif
