/** @file
 * tendon — skeletons, model matrices, inverse bind matrices and the skinning palette.
 *
 * Seeds: 002 (`Skeleton`, `SkeletonJoint`: joints in DFS pre-order, a parent before its
 * children, rest transform T·R·S relative to the parent, bind data NOT on the skeleton) and the
 * README of 000 (`Skeleton.palette`, `applyPoseToNode` for a rig driven without skinning).
 *
 * Matrices are 4×4 float, **column-major**, 16 floats each: element (row r, column c) is
 * m[4·c + r], the translation is m[12], m[13], m[14] (glTF and cglm `mat4` layout). Arrays of
 * matrices are `[16*count]` floats, matrix j at `16*j`. Quaternions are x y z w.
 *
 * Arithmetic (docs/skinning.md, docs/determinism.md): the matrix kernels compute in float32, as
 * a GPU would, with every sum in one written order and no fused multiply-add. A 4×4 product
 * element is summed pairwise (issue 12, docs/determinism.md "Pairwise products"):
 *   (a×b)[4c+r] = (a[r]·b[4c] + a[4+r]·b[4c+1]) + (a[8+r]·b[4c+2] + a[12+r]·b[4c+3]).
 * Every ISA variant (scalar, SSE2, SSE4.1, AVX2, AVX-512, NEON) is bitwise identical to the
 * scalar reference in the default FP environment; NaN outputs are NaN on every ISA (sign and
 * payload not promised).
 *
 * Objects (skeleton, binding) allocate when created and are immutable afterwards: any number of
 * threads may use one at once. The per-frame functions allocate nothing and keep no state.
 * Alignment: the element's own (4 bytes for floats, int32 parents and uint32 joint indices), as
 * C requires; 64-byte alignment is a speed hint only. A misaligned pointer that would be read or
 * written is refused with TENDON_ERR_VALUE naming the argument, before anything is touched.
 */
#ifndef TENDON_SKELETON_H
#define TENDON_SKELETON_H

#include <stdint.h>

#include "pose.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A joint hierarchy: counts, parents, optional names, the rest pose. Opaque, immutable. */
typedef struct tendon_skeleton tendon_skeleton;

/** What tendon_skeleton_create copies. */
typedef struct tendon_skeleton_desc {
    /** Number of joints; 0 is allowed (an empty skeleton). At most INT32_MAX. */
    size_t joint_count;
    /**
     * [joint_count]: parents[j] is −1 for a root (any number of roots), otherwise the parent's
     * index, in **DFS pre-order** (seed 002): the parent of joint j > 0 is joint j − 1 or one of
     * joint j − 1's ancestors (so 0 ≤ parents[j] < j). Then every joint's subtree is the
     * contiguous range of joints that follows it, which partial updates rely on. {−1, 0, 1, 0}
     * is valid; {−1, 0, 0, 1} is not (joint 3 returns under joint 1 after joint 2 closed its
     * subtree). May be NULL only when joint_count is 0.
     */
    const int32_t *parents;
    /**
     * NULL (unnamed joints), or [joint_count] NUL-terminated names: each non-NULL, non-empty and
     * unique (seed 002: the name is the joint's identity). Copied.
     */
    const char *const *names;
    /**
     * NULL (every joint at rest: translation 0, rotation (0,0,0,1), scale 1), or a pose of
     * joint_count joints: each joint's rest transform relative to its parent, T·R·S. Copied
     * bit for bit (the rotation is not normalised).
     */
    const tendon_pose *rest;
} tendon_skeleton_desc;

/**
 * Create a skeleton from `desc` (everything is copied; desc may be freed afterwards).
 * Allocates: call at set-up, not per frame. Free with tendon_skeleton_destroy.
 * Errors (the message names the joint — by name when names are given — and the rule):
 *   TENDON_ERR_NULL      desc, out, desc->parents (joint_count > 0), a NULL entry in names
 *   TENDON_ERR_RANGE     parents[j] ≥ j (a parent not before its child, itself included),
 *                        parents[j] < −1, or not DFS pre-order: parents[j] is neither j − 1
 *                        nor an ancestor of j − 1 (the message names the joint, its parent,
 *                        the joint before it and the rule)
 *   TENDON_ERR_VALUE     an empty name, two joints with the same name, parents or a rest
 *                        pose array not aligned to its 4-byte element, or desc or names not
 *                        aligned to its type
 *   TENDON_ERR_COUNT     desc->rest->joint_count differs from joint_count
 *   TENDON_ERR_OVERFLOW  joint_count > INT32_MAX, or its byte sizes overflow size_t
 *   TENDON_ERR_NOMEM
 * On error *out is NULL.
 */
TENDON_API tendon_status tendon_skeleton_create(const tendon_skeleton_desc *desc,
                                                tendon_skeleton **out);

/** Free a skeleton. NULL is a no-op. Bindings made from it stay valid (they copy what they need). */
TENDON_API void tendon_skeleton_destroy(tendon_skeleton *skeleton);

/** The joint count; 0 for NULL. */
TENDON_API size_t tendon_skeleton_joint_count(const tendon_skeleton *skeleton);

/** The parents array, [joint_count] (−1 for roots, DFS pre-order); NULL for NULL or 0 joints. */
TENDON_API const int32_t *tendon_skeleton_parents(const tendon_skeleton *skeleton);

/**
 * The skeleton's level order, [joint_count]: the roots, then every joint of depth 1, then depth
 * 2, …, each depth in joint (DFS) order; computed once at creation. Every parent comes before
 * its children, and consecutive joints of one depth are independent, which is what the
 * model-matrix pass over a whole skeleton walks (tendon_kernels.model_matrices_ordered; see
 * docs/skinning.md). NULL for NULL or 0 joints.
 */
TENDON_API const uint32_t *tendon_skeleton_level_order(const tendon_skeleton *skeleton);

/** The name of `joint`, or NULL (unnamed skeleton, NULL skeleton, joint out of range). */
TENDON_API const char *tendon_skeleton_joint_name(const tendon_skeleton *skeleton, size_t joint);

/**
 * The index of the joint called `name` (exact, case-sensitive match) into *out.
 * Errors: TENDON_ERR_NULL (skeleton, name, out), TENDON_ERR_VALUE (out not aligned to size_t),
 * TENDON_ERR_NOT_FOUND (no such joint, or the skeleton has no names; the message names it).
 * *out is unchanged on error.
 */
TENDON_API tendon_status tendon_skeleton_find_joint(const tendon_skeleton *skeleton,
                                                    const char *name, size_t *out);

/**
 * Copy the rest pose into `out` (bit for bit).
 * Errors: TENDON_ERR_NULL, TENDON_ERR_COUNT (out->joint_count differs), TENDON_ERR_VALUE (an
 * array of out not aligned to float), TENDON_ERR_ALIAS (out's own arrays overlap each other).
 */
TENDON_API tendon_status tendon_skeleton_rest_pose(const tendon_skeleton *skeleton,
                                                   tendon_pose *out);

/**
 * Local TRS → 4×4, for every joint of `pose`: M = T·R·S (glTF order), in float32, with the
 * quaternion **as given** (not renormalised, as glTF and three.js do not):
 *
 *   x2 = x+x, y2 = y+y, z2 = z+z;  xx = x·x2, yy = y·y2, zz = z·z2, xy = x·y2, xz = x·z2,
 *   yz = y·z2, wx = w·x2, wy = w·y2, wz = w·z2
 *   column 0: ((1 − (yy+zz))·sx, (xy+wz)·sx, (xz−wy)·sx, 0)
 *   column 1: ((xy−wz)·sy, (1 − (xx+zz))·sy, (yz+wx)·sy, 0)
 *   column 2: ((xz+wy)·sz, (yz−wx)·sz, (1 − (xx+yy))·sz, 0)
 *   column 3: (tx, ty, tz, 1)
 *
 * A non-unit quaternion gives a non-orthogonal matrix (|q|² = 2 is not a rotation); normalise
 * poses you did not make. pose: joint_count joints. out_local: [16*joint_count], must not
 * overlap the pose's arrays.
 * Errors: TENDON_ERR_NULL, TENDON_ERR_VALUE (a misaligned pose array or out_local),
 * TENDON_ERR_OVERFLOW, TENDON_ERR_ALIAS, TENDON_ERR_ISA.
 */
TENDON_API tendon_status tendon_local_matrices(const tendon_pose *pose, float *out_local);

/**
 * Model (skeleton-space) matrices through the parents, for the joints [first, first + count):
 *
 *   parents[j] < 0:   model[j] = root_matrix × local[j]   (root_matrix NULL: model[j] = local[j],
 *                                                          copied bit for bit)
 *   otherwise:        model[j] = model[parents[j]] × local[j]
 *
 * each parent final before its children read it (joint order; a call covering the whole
 * skeleton walks tendon_skeleton_level_order instead on the ISAs where that is faster — the
 * same products, the same bits, with fewer stalls on parent chains). root_matrix is the
 * transform of the skeleton's non-joint ancestors (a glTF node above the skeleton root, or the
 * character's placement in the world); any 4×4. A **partial update** (like ozz's from/to): with
 * first > 0, the matrices of joints before `first` are read from `model` as they are (they must
 * hold model matrices from an earlier call); because joints are in DFS pre-order, a joint's
 * subtree is the contiguous range that follows it. This is also how a rig is driven without
 * skinning (seed 000 `applyPoseToNode`): the model matrices are the nodes' transforms.
 *
 * local: [16*joint_count], read for joints in the range. model: [16*joint_count]; written in
 * the range, read for parents. local == model (in place: the range holds local matrices on
 * entry) is allowed; a partial overlap is refused. root_matrix: NULL or [16], must not overlap
 * the written range.
 * Errors: TENDON_ERR_NULL (skeleton, local, model when the range is not empty), TENDON_ERR_RANGE
 * (first + count > joint_count; the message names both), TENDON_ERR_VALUE (local, model or
 * root_matrix misaligned, when the range is not empty), TENDON_ERR_OVERFLOW (an array runs past
 * the end of the address space), TENDON_ERR_ALIAS, TENDON_ERR_ISA.
 */
TENDON_API tendon_status tendon_model_matrices(const tendon_skeleton *skeleton, const float *local,
                                               const float *root_matrix, size_t first,
                                               size_t count, float *model);

struct tendon_kernels;

/**
 * tendon_model_matrices with the matrices computed through `kernels` (from tendon_kernels_for(),
 * emulated variants included) instead of the active table; NULL means the active table. The same
 * validation, errors and bits; the order a whole-skeleton pass walks is the one that pays on
 * that table. For tools and benchmarks that run every ISA in one process.
 */
TENDON_API tendon_status tendon_model_matrices_on(const struct tendon_kernels *kernels,
                                                  const tendon_skeleton *skeleton,
                                                  const float *local, const float *root_matrix,
                                                  size_t first, size_t count, float *model);

/**
 * The whole pose → model matrices of every joint: tendon_local_matrices into out_model, then
 * tendon_model_matrices in place (bitwise the same as the two calls).
 * pose: skeleton's joint_count joints. out_model: [16*joint_count], must not overlap the pose.
 * Errors: TENDON_ERR_NULL, TENDON_ERR_COUNT (pose and skeleton joint counts differ),
 * TENDON_ERR_VALUE (a misaligned pose array, out_model or root_matrix), TENDON_ERR_OVERFLOW,
 * TENDON_ERR_ALIAS, TENDON_ERR_ISA.
 */
TENDON_API tendon_status tendon_pose_model_matrices(const tendon_skeleton *skeleton,
                                                    const tendon_pose *pose,
                                                    const float *root_matrix, float *out_model);

/**
 * Inverse bind matrices for the case bind ≡ rest (seed 002: `world_rest(J)⁻¹`, derived rather
 * than stored): the rest pose's model matrices (tendon_pose_model_matrices of the rest pose with
 * root_matrix), then for each palette entry k the **general affine inverse** of
 * model_rest[joint_of[k]]: the 3×3 part inverted through its cofactors and determinant, the
 * translation −A⁻¹·t, computed in double and rounded to float once; non-uniform and negative
 * scale work. Set-up time: allocates a scratch of 16·joint_count floats.
 *
 * root_matrix: NULL (identity) or [16] (the mesh's bind-time placement of the skeleton's
 * non-joint ancestors). joint_of: [palette_count] skeleton joint indices (any order, repeats
 * allowed). out_inverse_bind: [16*palette_count].
 * Errors: TENDON_ERR_NULL, TENDON_ERR_RANGE (joint_of[k] ≥ joint_count: names k and the value),
 * TENDON_ERR_VALUE (a world rest matrix with a non-finite element — the message names it and its
 * value —, not affine — its bottom row, quoted, is not (0, 0, 0, 1) —, singular — its 3×3
 * determinant is 0 —, or whose inverse overflows float — the determinant is quoted, and the
 * translation where only the inverse's translation overflows; the message names the joint; or a
 * misaligned joint_of, root_matrix or out_inverse_bind), TENDON_ERR_ALIAS
 * (out_inverse_bind overlaps joint_of or root_matrix), TENDON_ERR_OVERFLOW, TENDON_ERR_NOMEM.
 */
TENDON_API tendon_status tendon_inverse_bind_from_rest(const tendon_skeleton *skeleton,
                                                       const float *root_matrix,
                                                       const uint32_t *joint_of,
                                                       size_t palette_count,
                                                       float *out_inverse_bind);

/**
 * A skin binding: which skeleton joint each palette entry uses, and that mesh's inverse bind
 * matrices. The palette follows the skin's own joint order (a glTF skin's `joints`), which need
 * not be DFS order and may leave out the non-joint ancestors. Inverse bind matrices belong to
 * the binding, not the skeleton: one skeleton admits a different bind array per mesh (seed 002).
 * Opaque, immutable.
 */
typedef struct tendon_skin_binding tendon_skin_binding;

/**
 * Create a binding of `palette_count` entries to `skeleton` (everything is copied; the binding
 * keeps the skeleton's joint count, not a pointer to it).
 * joint_of: [palette_count], each < the skeleton's joint_count; repeats are allowed.
 * inverse_bind: [16*palette_count] column-major (glTF `inverseBindMatrices`), or NULL to derive
 * them from the rest pose (tendon_inverse_bind_from_rest with no root matrix).
 * palette_count 0 is allowed (an empty palette). Allocates. Free with
 * tendon_skin_binding_destroy.
 * Errors: TENDON_ERR_NULL, TENDON_ERR_RANGE (joint_of[k] out of range: names k, the value and
 * the joint count), TENDON_ERR_VALUE (joint_of or inverse_bind misaligned), the errors of
 * tendon_inverse_bind_from_rest when inverse_bind is NULL, TENDON_ERR_OVERFLOW,
 * TENDON_ERR_NOMEM. On error *out is NULL.
 */
TENDON_API tendon_status tendon_skin_binding_create(const tendon_skeleton *skeleton,
                                                    const uint32_t *joint_of,
                                                    const float *inverse_bind,
                                                    size_t palette_count,
                                                    tendon_skin_binding **out);

/** Free a binding. NULL is a no-op. */
TENDON_API void tendon_skin_binding_destroy(tendon_skin_binding *binding);

/** Palette entries; 0 for NULL. */
TENDON_API size_t tendon_skin_binding_palette_count(const tendon_skin_binding *binding);
/** The joint count of the skeleton the binding was made for; 0 for NULL. */
TENDON_API size_t tendon_skin_binding_joint_count(const tendon_skin_binding *binding);
/** [palette_count] skeleton joint per entry; NULL for NULL or an empty binding. */
TENDON_API const uint32_t *tendon_skin_binding_joints(const tendon_skin_binding *binding);
/** [16*palette_count] inverse bind matrices; NULL for NULL or an empty binding. */
TENDON_API const float *tendon_skin_binding_inverse_bind(const tendon_skin_binding *binding);

/**
 * The skinning palette: out_palette[k] = model[joint_of[k]] × inverse_bind[k] (float32, the
 * product order above), for every entry of the binding.
 * model: [16*joint_count], joint_count equal to the binding's skeleton joint count.
 * out_palette: [16*palette_count], must not overlap model.
 * Errors: TENDON_ERR_NULL, TENDON_ERR_COUNT (joint_count differs from the binding's skeleton),
 * TENDON_ERR_VALUE (model or out_palette misaligned), TENDON_ERR_OVERFLOW, TENDON_ERR_ALIAS,
 * TENDON_ERR_ISA.
 */
TENDON_API tendon_status tendon_palette(const tendon_skin_binding *binding, const float *model,
                                        size_t joint_count, float *out_palette);

/**
 * The whole pipeline, pose → palette in one call (seed 000 `Skeleton.palette`):
 * tendon_pose_model_matrices(skeleton, pose, root_matrix, model) then
 * tendon_palette(binding, model, …, out_palette) — bitwise the same as those calls.
 * model: [16*joint_count], the caller's workspace; it holds the model matrices afterwards.
 * out_palette: [16*palette_count], must not overlap model or the pose.
 * Errors: those of the two calls, and TENDON_ERR_COUNT when the binding was made for a skeleton
 * of another joint count.
 */
TENDON_API tendon_status tendon_pose_palette(const tendon_skeleton *skeleton,
                                             const tendon_skin_binding *binding,
                                             const tendon_pose *pose, const float *root_matrix,
                                             float *model, float *out_palette);

#ifdef __cplusplus
}
#endif
#endif
