/*
 * Internal: the per-ISA kernel prototypes and tables. Not installed.
 *
 * Every kernel family is declared once per ISA through TENDON_DECLARE_KERNELS(suffix); the
 * table of an ISA is defined in src/dispatch/dispatch.c from these.
 */
#ifndef TENDON_KERNELS_INTERNAL_H
#define TENDON_KERNELS_INTERNAL_H

#include <stdatomic.h>
#include <stdint.h>

#include "tendon/tendon.h" /* every public declaration, so definitions get TENDON_API visibility */

#if defined(__GNUC__) && !defined(_WIN32)
#define TENDON_HIDDEN __attribute__((visibility("hidden")))
#else
#define TENDON_HIDDEN /* a DLL exports only what is dllexport (MinGW: no such attribute) */
#endif

#define TENDON_DECLARE_KERNELS(sfx)                                                                \
    TENDON_HIDDEN void tendon_quat_slerp_##sfx(const float *a, const float *b, const double *t,   \
                                               size_t count, float *out);                          \
    TENDON_HIDDEN void tendon_quat_nlerp_##sfx(const float *a, const float *b, const double *t,   \
                                               size_t count, float *out);                          \
    TENDON_HIDDEN void tendon_quat_multiply_##sfx(const float *a, const float *b, size_t count,    \
                                                  float *out);                                     \
    TENDON_HIDDEN void tendon_pose_blend_##sfx(const tendon_pose *a, const tendon_pose *b,         \
                                               double t, const float *joint_weights,               \
                                               size_t joint_count, tendon_pose *out);              \
    TENDON_HIDDEN void tendon_pose_add_##sfx(const tendon_pose *base, const tendon_pose *delta,    \
                                             double weight, const float *joint_weights,            \
                                             size_t joint_count, tendon_pose *out);               \
    TENDON_HIDDEN void tendon_local_matrices_##sfx(const float *translation, const float *rotation,\
                                                   const float *scale, size_t count, float *out);  \
    TENDON_HIDDEN void tendon_local_matrices_pieces_##sfx(                                         \
        const float *translation, const float *rotation, const float *scale, size_t count,        \
        float *out);                                                                               \
    TENDON_HIDDEN void tendon_model_matrices_##sfx(const float *local, const int32_t *parents,     \
                                                   const float *root, size_t first, size_t end,    \
                                                   float *model);                                  \
    TENDON_HIDDEN void tendon_model_matrices_ordered_##sfx(                                        \
        const float *local, const int32_t *parents, const float *root, const uint32_t *order,      \
        size_t count, float *model);                                                               \
    TENDON_HIDDEN void tendon_palette_##sfx(const float *model, const uint32_t *joint_of,          \
                                            const float *inverse_bind, size_t count, float *out);  \
    TENDON_HIDDEN void tendon_skin_##sfx(const tendon_skin_job *job);                              \
    TENDON_HIDDEN void tendon_morph_##sfx(const float *base, const float *const *deltas,           \
                                          const float *weights, size_t target_count,               \
                                          size_t float_count, float *out);                         \
    TENDON_HIDDEN void tendon_spring_march_##sfx(const tendon_spring_march_plan *plan);           \
    TENDON_HIDDEN void tendon_spring_chain_march_##sfx(const tendon_spring_march_plan *plan);    \
    TENDON_HIDDEN void tendon_clip_lerp_##sfx(const float *a, const float *b, const double *u,    \
                                             size_t count, float *out);                            \
    TENDON_HIDDEN void tendon_clip_hermite_##sfx(const float *v0, const float *b0,                 \
                                                const float *v1, const float *a1, const double *h, \
                                                size_t count, double *out);            \
    TENDON_HIDDEN void tendon_quat_slerp_f32_##sfx(const float *a, const float *b,               \
                                                   const float *t, size_t count, float *out);     \
    TENDON_HIDDEN void tendon_quat_nlerp_f32_##sfx(const float *a, const float *b,               \
                                                   const float *t, size_t count, float *out);     \
    TENDON_HIDDEN void tendon_quat_multiply_f32_##sfx(const float *a, const float *b,            \
                                                      size_t count, float *out);                  \
    TENDON_HIDDEN void tendon_pose_blend_f32_##sfx(const tendon_pose *a, const tendon_pose *b,    \
                                                   double t, const float *joint_weights,          \
                                                   size_t joint_count, tendon_pose *out);         \
    TENDON_HIDDEN void tendon_pose_blend_nlerp_f32_##sfx(                                          \
        const tendon_pose *a, const tendon_pose *b, double t, const float *joint_weights,         \
        size_t joint_count, tendon_pose *out);                                                     \
    TENDON_HIDDEN void tendon_pose_add_f32_##sfx(const tendon_pose *base,                          \
                                                 const tendon_pose *delta, double weight,          \
                                                 const float *joint_weights, size_t joint_count,   \
                                                 tendon_pose *out);                                \
    TENDON_HIDDEN void tendon_pose_blend_layers_f32_##sfx(const tendon_blend_layers_job *job,     \
                                                          size_t joint_count, tendon_pose *out);   \
    TENDON_HIDDEN void tendon_clip_lerp_f32_##sfx(const float *a, const float *b, const float *u, \
                                                 size_t count, float *out);                        \
    TENDON_HIDDEN void tendon_clip_lerp_uniform_f32_##sfx(const float *a, const float *b, float u,\
                                                         size_t count, float *out);                \
    TENDON_HIDDEN void tendon_clip_slerp_uniform_f32_##sfx(const float *a, const float *b,        \
                                                          float u, size_t count, float *out);     \
    TENDON_HIDDEN void tendon_clip_hermite_f32_##sfx(const float *v0, const float *b0,             \
                                                    const float *v1, const float *a1,              \
                                                    const float *h, size_t count, float *out);     \
    TENDON_HIDDEN void tendon_skin_mesh_##sfx(const struct tendon_skin_mesh *mesh,                 \
                                              const float *palette, size_t first, size_t count,    \
                                              float *out_positions, float *out_normals,            \
                                              float *out_tangents);                                \
    TENDON_HIDDEN void tendon_palette_splat_##sfx(const float *model, const uint32_t *joint_of,    \
                                                  const float *inverse_bind_splat, size_t count,   \
                                                  float *out);                                     \
    TENDON_HIDDEN size_t tendon_palette_to_dual_quat_##sfx(const float *palette, size_t count,     \
                                                           float *out);                            \
    TENDON_HIDDEN void tendon_skin_mesh_dq_##sfx(const struct tendon_skin_mesh *mesh,              \
                                                 const float *dq, size_t first, size_t count,      \
                                                 float *out_positions, float *out_normals,         \
                                                 float *out_tangents);                            \
    TENDON_HIDDEN void tendon_pose_blend_weighted_##sfx(const tendon_pose *a, const tendon_pose *b,\
                                                       const double *weights, size_t joint_count,\
                                                       tendon_pose *out);                          \
    TENDON_HIDDEN void tendon_pose_add_weighted_##sfx(const tendon_pose *base,                     \
                                                     const tendon_pose *delta,                     \
                                                     const double *weights, size_t joint_count,    \
                                                     tendon_pose *out);                            \
    TENDON_HIDDEN void tendon_pose_blend_weighted_f32_##sfx(                                       \
        const tendon_pose *a, const tendon_pose *b, const float *weights, size_t joint_count,     \
        tendon_pose *out);                                                                         \
    TENDON_HIDDEN void tendon_pose_add_weighted_f32_##sfx(                                         \
        const tendon_pose *base, const tendon_pose *delta, const float *weights,                   \
        size_t joint_count, tendon_pose *out);                                                     \
    TENDON_HIDDEN void tendon_quat_add_weighted_##sfx(const float *base, const float *delta,        \
                                                      const double *weights, size_t count,       \
                                                      float *out);                                \
    TENDON_HIDDEN void tendon_quat_add_weighted_f32_##sfx(const float *base, const float *delta,    \
                                                          const float *weights, size_t count,    \
                                                          float *out);                            \
    TENDON_HIDDEN void tendon_local_model_lanes_##sfx(                                             \
        const float *translation, const float *rotation, const float *scale, size_t count,        \
        const float *parent, size_t parent_stride, float *local, float *model, size_t stride);  \
    TENDON_HIDDEN void tendon_transform_points_lanes_##sfx(                                        \
        const float *m, size_t m_stride, const float *p, size_t p_stride, size_t count,           \
        float *out, size_t out_stride);

TENDON_DECLARE_KERNELS(scalar)
TENDON_DECLARE_KERNELS(sse2)
TENDON_DECLARE_KERNELS(sse41)
TENDON_DECLARE_KERNELS(avx2)
TENDON_DECLARE_KERNELS(avx512)
TENDON_DECLARE_KERNELS(neon)
TENDON_DECLARE_KERNELS(simd128)

/* tendon_kernels_for(isa) as it is on an Intel CPU (intel nonzero: the *_INTEL tables of
   dispatch.c) or on any other, whatever this CPU's vendor: the tests run both sets of per-vendor
   choices on every machine. NULL where tendon_kernels_for would give NULL. */
TENDON_HIDDEN const tendon_kernels *tendon_kernels_for_vendor(tendon_isa isa, int intel);
/* The ISA's local_matrices (pieces 0) or local_matrices_pieces (1), whichever table takes it
   (the scalar reference for the scalar ISA): the tests run both forms on every ISA. NULL where
   tendon_kernels_for would give NULL. */
typedef void (*tendon_local_matrices_fn)(const float *translation, const float *rotation,
                                         const float *scale, size_t count, float *out);
TENDON_HIDDEN tendon_local_matrices_fn tendon_local_matrices_form(tendon_isa isa, int pieces);

/*
 * Partial-range forms of the scalar reference, used by the SIMD variants for their tails: the
 * joints [first, joint_count) of the same poses. Equal to the SIMD block by construction.
 */
TENDON_HIDDEN void tendon_pose_blend_scalar_from(const tendon_pose *a, const tendon_pose *b,
                                                 double t, const float *joint_weights,
                                                 size_t first, size_t joint_count,
                                                 tendon_pose *out);
TENDON_HIDDEN void tendon_pose_add_scalar_from(const tendon_pose *base, const tendon_pose *delta,
                                               double weight, const float *joint_weights,
                                               size_t first, size_t joint_count,
                                               tendon_pose *out);
/* The per-joint weight of the exact tier's blend and additive layer (blend_scalar.c): t, or
   with a mask m = clamp(mask[j], 0, 1): 0 where m is 0, else t·m — the `weights` of the
   _weighted kernels that give tendon_pose_blend's / tendon_pose_add's bits. */
TENDON_HIDDEN double tendon_blend_joint_weight(double t, const float *joint_weights, size_t j);
TENDON_HIDDEN void tendon_pose_blend_weighted_scalar_from(const tendon_pose *a,
                                                          const tendon_pose *b,
                                                          const double *weights, size_t first,
                                                          size_t joint_count, tendon_pose *out);
TENDON_HIDDEN void tendon_pose_add_weighted_scalar_from(const tendon_pose *base,
                                                        const tendon_pose *delta,
                                                        const double *weights, size_t first,
                                                        size_t joint_count, tendon_pose *out);
TENDON_HIDDEN void tendon_pose_blend_weighted_f32_scalar_from(const tendon_pose *a,
                                                              const tendon_pose *b,
                                                              const float *weights, size_t first,
                                                              size_t joint_count,
                                                              tendon_pose *out);
TENDON_HIDDEN void tendon_quat_add_weighted_scalar_from(const float *base, const float *delta,
                                                       const double *weights, size_t first,
                                                       size_t count, float *out);
TENDON_HIDDEN void tendon_quat_add_weighted_f32_scalar_from(const float *base,
                                                           const float *delta,
                                                           const float *weights, size_t first,
                                                           size_t count, float *out);
TENDON_HIDDEN void tendon_pose_add_weighted_f32_scalar_from(const tendon_pose *base,
                                                            const tendon_pose *delta,
                                                            const float *weights, size_t first,
                                                            size_t joint_count,
                                                            tendon_pose *out);

/*
 * The float32 tier's scalar reference (src/scalar/blend_f32_scalar.c): partial-range forms for
 * the SIMD tails (elements / joints [first, count) of the same arrays), and the weights every
 * variant rounds to float once: clamp(t·m_j, 0, 1) for a blend, max(weight·m_j, 0) saturated
 * at FLT_MAX for an additive layer, in double (joint_weights NULL: m_j = 1).
 */
TENDON_HIDDEN float tendon_blend_weight_f32(double t, const float *joint_weights, size_t j);
TENDON_HIDDEN float tendon_add_weight_f32(double weight, const float *joint_weights, size_t j);
TENDON_HIDDEN void tendon_pose_blend_f32_scalar_from(const tendon_pose *a, const tendon_pose *b,
                                                     double t, const float *joint_weights,
                                                     size_t first, size_t joint_count,
                                                     tendon_pose *out);
TENDON_HIDDEN void tendon_pose_blend_nlerp_f32_scalar_from(const tendon_pose *a,
                                                           const tendon_pose *b, double t,
                                                           const float *joint_weights,
                                                           size_t first, size_t joint_count,
                                                           tendon_pose *out);
TENDON_HIDDEN void tendon_pose_add_f32_scalar_from(const tendon_pose *base,
                                                   const tendon_pose *delta, double weight,
                                                   const float *joint_weights, size_t first,
                                                   size_t joint_count, tendon_pose *out);
TENDON_HIDDEN void tendon_pose_blend_layers_f32_scalar_from(const tendon_blend_layers_job *job,
                                                            size_t first, size_t joint_count,
                                                            tendon_pose *out);
TENDON_HIDDEN void tendon_quat_slerp_f32_scalar_from(const float *a, const float *b,
                                                     const float *t, size_t first, size_t count,
                                                     float *out);
TENDON_HIDDEN void tendon_quat_nlerp_f32_scalar_from(const float *a, const float *b,
                                                     const float *t, size_t first, size_t count,
                                                     float *out);
TENDON_HIDDEN void tendon_quat_multiply_f32_scalar_from(const float *a, const float *b,
                                                        size_t first, size_t count, float *out);

/* The float32 Hermite sum with its four weight planes given separately (the SIMD tails: the
   planes of the remaining elements are not `count` apart). src/scalar/clip_f32_scalar.c */
TENDON_HIDDEN void tendon_clip_hermite_f32_scalar_planes(const float *v0, const float *b0,
                                                         const float *v1, const float *a1,
                                                         const float *h00, const float *h10,
                                                         const float *h01, const float *h11,
                                                         size_t count, float *out);

/*
 * Partial-range forms of the matrix kernels' scalar reference, for the SIMD tails: elements
 * [first, end) of the same arrays (src/scalar/skin_scalar.c).
 */
TENDON_HIDDEN void tendon_local_matrices_scalar_from(const float *translation,
                                                     const float *rotation, const float *scale,
                                                     size_t first, size_t end, float *out);
TENDON_HIDDEN void tendon_skin_scalar_from(const tendon_skin_job *job, size_t first, size_t end);
TENDON_HIDDEN void tendon_local_model_lanes_scalar_from(const float *translation,
                                                       const float *rotation, const float *scale,
                                                       size_t first, size_t end,
                                                       const float *parent, size_t parent_stride,
                                                       float *local, float *model, size_t stride);
TENDON_HIDDEN void tendon_transform_points_lanes_scalar_from(const float *m, size_t m_stride,
                                                            const float *p, size_t p_stride,
                                                            size_t first, size_t end, float *out,
                                                            size_t out_stride);
/* (the mesh kernels' scalar instances, tendon_skin_mesh_scalar and tendon_skin_mesh_dq_scalar,
   already take a range) */
/* The dual-quaternion conversion of palette matrices [first, end), unchecked (the SIMD tails). */
TENDON_HIDDEN void tendon_palette_to_dual_quat_scalar_from(const float *palette, size_t first,
                                                           size_t end, float *out);
TENDON_HIDDEN void tendon_morph_scalar_from(const float *base, const float *const *deltas,
                                            const float *weights, size_t target_count,
                                            size_t first, size_t end, float *out);

/*
 * The clip sampler on a given table, unchecked (src/clip.c): into pose (packed NULL) or into
 * packed[value_count] (tendon_clip_sample_tracks' layout). For the tests' per-ISA comparison.
 */
/* The skeleton's own rest pose (src/skeleton.c), read-only: no copy. */
TENDON_HIDDEN const tendon_pose *tendon_skeleton_rest_view(const tendon_skeleton *skeleton);

/* tendon_blend_tree_evaluate under an entry point's floating-point guard (src/common/fpenv.h):
   the tree's pose sources run in the environment `env` saved (NULL: as they are). */
TENDON_HIDDEN tendon_status tendon_blend_tree_evaluate_env(tendon_blend_tree *tree,
                                                           double time_sec, tendon_pose *out,
                                                           const tendon_fpenv *env);

/*
 * The additive layer at weight +0 with one constant delta d (src/spring_rig.c: the spring
 * rig's idle layer slots, docs/springs.md). _make computes, in the add kernels' scalar order
 * (blend_scalar.c, or blend_f32_scalar.c for f32: the float32 tier), what does not depend on
 * the base pose: c[0..47] the translation's d.t·w and c[48..95] the scale's 1 + (d.s − 1)·w,
 * each repeated over 16 joints' x y z (both are ±0, 1 or NaN: floats, exact in either tier's
 * arithmetic), and q0 the rounded slerp(identity, d.r, w). _apply then layers `pose` in place
 * (count joints; q0: [4·count], the constant at every joint): the translation + c, the
 * scale · c, the rotation ⊗ q0 by k's quat_multiply_f32 (the float32 tier, or the exact tier
 * when q0 has one component ±1 and the others ±0: then every product is exact and every sum
 * has one term, so float and double agree) or quat_multiply — the same bits as
 * k->pose_add_weighted(_f32)(pose, d at every joint, weights +0, count, pose). _rotate is
 * _apply's rotation alone (rotation: [4·count]); _keeps says whether c's translation addends
 * are all +0 and its scale factors all 1 (an identity delta's), so that _apply leaves a
 * translation and a scale that are finite and hold no −0 as they are: x + (+0) = x, x·1 = x.
 */
#define TENDON_ADD_ZERO_FLOATS 96
TENDON_HIDDEN void tendon_add_zero_weight_make(int f32, const float d_translation[3],
                                               const float d_rotation[4], const float d_scale[3],
                                               float c[TENDON_ADD_ZERO_FLOATS], float q0[4]);
TENDON_HIDDEN void tendon_add_zero_weight_apply(const tendon_kernels *k, int f32,
                                                const float c[TENDON_ADD_ZERO_FLOATS],
                                                const float *q0, size_t count,
                                                tendon_pose *pose);
TENDON_HIDDEN void tendon_add_zero_weight_rotate(const tendon_kernels *k, int f32,
                                                 const float *q0, size_t count, float *rotation);
TENDON_HIDDEN int tendon_add_zero_weight_keeps(const float c[TENDON_ADD_ZERO_FLOATS]);
/*
 * Many times, a subset of the joints (src/clip.c): tendon_clip_subset lists the TRS tracks of
 * the joints with a slot (slot_of_joint[joint] ≥ 0; [clip joint_count]) into tracks/slots
 * (room for every track), three kinds (0 STEP + CUBICSPLINE, 1 LINEAR non-rotation, 2 LINEAR
 * rotation) from first[k], count[k] each; tendon_clip_sample_times_table samples them at every
 * time into out (time i's slot s is joint i·time_step + s·slot_step: slot by slot for a time,
 * time_step = slot count, slot_step 1; or time by time for a slot, time_step 1 — and then,
 * when slot_step ≥ time_count rounded up to 16, the elements from time_count to that
 * rounding may be overwritten too), f32: the float32 tier. hints: NULL or [timeline_count]
 * key intervals (the cursor's; the result does not depend on them). Unchecked: times not NaN,
 * out big enough.
 */
/* channels[joint] |= 1 where a translation track drives the joint, 2 a rotation, 4 a scale
   ([clip joint_count]; weights tracks leave it as it is). */
TENDON_HIDDEN void tendon_clip_mark_channels(const tendon_clip *clip, uint8_t *channels);
TENDON_HIDDEN size_t tendon_clip_subset(const tendon_clip *clip, const int32_t *slot_of_joint,
                                        uint32_t *tracks, uint32_t *slots, size_t first[3],
                                        size_t count[3]);
TENDON_HIDDEN void tendon_clip_sample_times_table(const tendon_kernels *kt,
                                                  const tendon_clip *clip, int f32,
                                                  const uint32_t *tracks, const uint32_t *slots,
                                                  const size_t first[3], const size_t count[3],
                                                  const double *times, size_t time_count,
                                                  size_t time_step, size_t slot_step,
                                                  uint32_t *hints, tendon_pose *out);
TENDON_HIDDEN void tendon_clip_sample_table(const tendon_kernels *kt, const tendon_clip *clip,
                                            double time_sec, tendon_pose *pose, float *packed);
/* The same with a cursor (tendon_clip_sample_cursor, unchecked): for the benchmarks. */
TENDON_HIDDEN void tendon_clip_sample_table_cursor(const tendon_kernels *kt,
                                                   const tendon_clip *clip, double time_sec,
                                                   uint32_t *cursor, tendon_pose *pose);
/* The float32 tier's sampler on a given table, unchecked: tendon_clip_sample_f32 /
   tendon_clip_sample_tracks_f32 (packed non-NULL) and tendon_clip_sample_cursor_f32. */
TENDON_HIDDEN void tendon_clip_sample_table_f32(const tendon_kernels *kt, const tendon_clip *clip,
                                                double time_sec, tendon_pose *pose,
                                                float *packed);
TENDON_HIDDEN void tendon_clip_sample_table_cursor_f32(const tendon_kernels *kt,
                                                       const tendon_clip *clip, double time_sec,
                                                       uint32_t *cursor, tendon_pose *pose);

/* Thread-local error message (src/status.c). Always returns `status`. */
TENDON_HIDDEN tendon_status tendon_fail(tendon_status status, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The active table, choosing it on first use (src/dispatch/dispatch.c). The common case, a
   table already chosen, is one acquire load inline in the caller; the first call chooses. */
TENDON_HIDDEN extern _Atomic(const tendon_kernels *) tendon_active_table_;
TENDON_HIDDEN tendon_status tendon_active_kernels_choose(const tendon_kernels **out);
static inline tendon_status tendon_active_kernels(const tendon_kernels **out)
{
    const tendon_kernels *table =
        atomic_load_explicit(&tendon_active_table_, memory_order_acquire);
    if (table) {
        *out = table;
        return TENDON_OK;
    }
    return tendon_active_kernels_choose(out);
}

/*
 * Argument checks shared by the public entry points (src/check.c). Each returns TENDON_OK or
 * sets the message (naming `fn` and `what`) and returns the status.
 */
TENDON_HIDDEN tendon_status tendon_check_array(const char *fn, const char *what, const void *p,
                                               size_t count, size_t elem_floats);
/* p aligned to `align` bytes (a pointer to a struct or to pointers: _Alignof its type); NULL
   passes (the caller's NULL check names it) */
TENDON_HIDDEN tendon_status tendon_check_aligned(const char *fn, const char *what, const void *p,
                                                 size_t align);
/* count doubles, 8-byte aligned */
TENDON_HIDDEN tendon_status tendon_check_array_f64(const char *fn, const char *what,
                                                   const double *p, size_t count);
TENDON_HIDDEN tendon_status tendon_check_pose(const char *fn, const char *what,
                                              const tendon_pose *pose);
/* out's arrays against in's: identical or disjoint, never partly overlapping. */
TENDON_HIDDEN tendon_status tendon_check_pose_alias(const char *fn, const char *out_name,
                                                    const tendon_pose *out, const char *in_name,
                                                    const tendon_pose *in);
/* Two checked poses sharing no byte at all (a scratch pose and the pose it helps fill). */
TENDON_HIDDEN tendon_status tendon_check_poses_apart(const char *fn, const char *a_name,
                                                     const tendon_pose *a, const char *b_name,
                                                     const tendon_pose *b);
/* Do [a, a + a_bytes) and [b, b + b_bytes) share a byte? (Differences, not sums: a + bytes may
   wrap for a count near the overflow limit.) */
static inline int tendon_ranges_overlap(const void *a, size_t a_bytes, const void *b,
                                        size_t b_bytes)
{
    if (a_bytes == 0 || b_bytes == 0)
        return 0;
    const uintptr_t a0 = (uintptr_t)a, b0 = (uintptr_t)b;
    return a0 <= b0 ? b0 - a0 < a_bytes : a0 - b0 < b_bytes;
}

#endif
