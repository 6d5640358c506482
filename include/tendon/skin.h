/** @file
 * tendon — linear-blend skinning of positions, normals and tangents by a palette, skin weight
 * normalisation, and morph targets.
 *
 * Seed: the README of 000 (skinning and morph targets; the palette comes from
 * tendon/skeleton.h). The decisions and their reasons are in docs/skinning.md.
 *
 * Arithmetic: float32, every sum in one written order, no fused multiply-add. Every ISA variant
 * is bitwise identical to the scalar reference in the default FP environment; NaN outputs are
 * NaN on every ISA (sign and payload not promised). Nothing here allocates or keeps state.
 * Alignment: the element's own (4 bytes for floats, 2 for uint16 indices, a pointer's for the
 * morph deltas array), as C requires; 64-byte alignment is a speed hint only. A misaligned
 * pointer that would be read or written is refused with TENDON_ERR_VALUE naming it.
 */
#ifndef TENDON_SKIN_H
#define TENDON_SKIN_H

#include <stddef.h>
#include <stdint.h>

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The type of a vertex's joint indices (glTF JOINTS_0: unsigned byte or unsigned short). */
typedef enum tendon_joint_index_type {
    TENDON_JOINT_INDEX_U8 = 1,  /**< uint8_t per influence */
    TENDON_JOINT_INDEX_U16 = 2  /**< uint16_t per influence (native byte order) */
} tendon_joint_index_type;

/**
 * One linear-blend skinning call: every field is the caller's; the job owns no buffer.
 *
 * Strides are in **bytes** between consecutive vertices (glTF `byteStride`), so attributes may
 * live in one interleaved vertex buffer; 0 means tightly packed (12 for a position or normal,
 * 16 for a tangent, influence_count·size for joints and weights). A nonzero stride must be at least the element's
 * size and a multiple of its alignment (4 for floats, 2 for uint16 indices).
 */
typedef struct tendon_skin_job {
    /** [16*palette_count] column-major matrices (tendon_palette). Only rows 0..2 are read: the
     *  palette is taken to be affine; the bottom row is ignored, nothing is divided by w. */
    const float *palette;
    size_t palette_count; /**< matrices in `palette`: every joint index is checked against it */

    size_t vertex_count; /**< vertices to skin */
    /** Influences per vertex, 1..4 (glTF JOINTS_0 / WEIGHTS_0 hold 4; fewer skips the rest). */
    size_t influence_count;

    tendon_joint_index_type joint_index_type; /**< the type of each entry of `joints` */
    /** Per vertex: influence_count indices into the palette, each < palette_count (checked). */
    const void *joints;
    size_t joints_stride; /**< bytes from one vertex's joints to the next's; 0: packed */
    /** Per vertex: influence_count float weights, used **as given** (not normalised here:
     *  tendon_skin_weights_normalize at load time). Zero weights still read their joint. */
    const float *weights;
    size_t weights_stride; /**< bytes; 0: packed (4·influence_count) */

    /** Per vertex: x y z (bind-space position, metres). Required. */
    const float *positions;
    size_t positions_stride; /**< bytes; 0: packed (12) */
    /** Per vertex: x y z skinned position. Required. May be exactly `positions` (same stride). */
    float *out_positions;
    size_t out_positions_stride; /**< bytes; 0: packed (12) */

    /** Per vertex: x y z normal, or NULL to skin positions only (then out_normals NULL too). */
    const float *normals;
    size_t normals_stride; /**< bytes; 0: packed (12) */
    /** Per vertex: unit skinned normal. May be exactly `normals` (same stride). */
    float *out_normals;
    size_t out_normals_stride; /**< bytes; 0: packed (12) */

    /* ---- appended (issue 12): fields are only ever appended; a zeroed job has no tangents ---- */

    /** Per vertex: x y z w tangent (glTF TANGENT: xyz a direction, w = ±1 the bitangent's
     *  handedness), or NULL (then out_tangents NULL too). Needs normals: a job with tangents
     *  and no normals is refused. Stride 0: 16 bytes. */
    const float *tangents;
    size_t tangents_stride; /**< bytes; 0: packed (16) */
    /** Per vertex: x y z unit skinned tangent and w (see tendon_skin). May be exactly
     *  `tangents` (same stride). */
    float *out_tangents;
    size_t out_tangents_stride; /**< bytes; 0: packed (16) */
} tendon_skin_job;

/**
 * Linear-blend skinning (docs/skinning.md). For each vertex with influences (jᵢ, wᵢ), i < n:
 *
 *   M[e] = ((w₀·P[j₀][e] + w₁·P[j₁][e]) + w₂·P[j₂][e]) + w₃·P[j₃][e]     (the first n terms;
 *          n = 1 is w₀·P[j₀][e]), for the 12 elements of rows 0..2
 *   position' = ((M₀·x + M₁·y) + M₂·z) + M₃   with Mc the column c (rows 0..2)
 *   normal:   the **inverse transpose of the blended 3×3** A = (M₀ M₁ M₂), through its
 *             cofactor columns C₀ = M₁×M₂, C₁ = M₂×M₀, C₂ = M₀×M₁ (cross products written
 *             (a.y·b.z − a.z·b.y, a.z·b.x − a.x·b.z, a.x·b.y − a.y·b.x)) and
 *             det = (M₀.x·C₀.x + M₀.y·C₀.y) + M₀.z·C₀.z:
 *               v = (C₀·nx + C₁·ny) + C₂·nz,   s = (v.x·v.x + v.y·v.y) + v.z·v.z
 *               normal' = v · (s > 0 ? 1/√s : 0) · (det < 0 ? −1 : 1)
 *             i.e. A⁻ᵀ·n normalised (A⁻ᵀ = C/det, so a mirrored joint keeps the normal on the
 *             outside).
 *   tangent:  by the blended 3×3 itself (a tangent lies in the surface, so it moves with it),
 *             renormalised, and its w multiplied by the sign of det A (a mirrored joint flips
 *             the normal back outside, so the bitangent's handedness flips with it):
 *               u = (M₀·tx + M₁·ty) + M₂·tz,   s = (u.x·u.x + u.y·u.y) + u.z·u.z
 *               tangent' = (u · (s > 0 ? 1/√s : 0),  det < 0 ? −tw : tw)
 *             (det as for the normal; det = 0 or NaN keeps tw). Its range of validity is the
 *             normal's with k for k²: unit while s is a normal float.
 *   Range of validity (exact, the same bits on every ISA; docs/skinning.md): normal' is unit to
 *   a few ulp when s is a normal float, 2⁻¹²⁶ ≤ s ≤ FLT_MAX. When s is subnormal the direction
 *   is kept but the length is not 1 (s carries up to 3·2⁻¹⁵⁰ of absolute rounding error: |n'| =
 *   0.944 for a palette of scale 1e-11). When s is 0, +∞ or NaN the factor is 0 and normal' =
 *   v·(±0): ±0 in each component where v is finite, NaN where v is ±∞ or NaN. So the normal is
 *   zero for a degenerate A or all-zero weights (s = 0), for a tiny A (every |vᵢ| < 2⁻⁷⁵) and
 *   for a large A whose s overflows while its cofactors do not (|v| ≥ ~2⁶⁴); it is NaN once a
 *   cofactor overflows (a product of two entries of A beyond FLT_MAX: entries from ~2⁶⁴ ≈
 *   1.8e19). For A = k·(a rotation) and a unit n, |v| = k²: unit for 2^-31.5 ≤ k < 2^32 (about
 *   3.3e-10 to 4.29e9), shorter or longer than 1 below that down to about 5e-12, zero below
 *   that and for 2^32 ≤ k < 2^64, NaN from 2^64 (k = 1e20 gives NaN in every component).
 *
 * Weights are used as given: weights that do not sum to one scale the vertex about the origin,
 * and **all-zero weights put the vertex at the origin** with a zero normal (finite, never NaN);
 * normalise at load time. Vertices are independent; the output of one never depends on another.
 *
 * Aliasing: out_positions may be exactly positions (same stride), out_normals exactly normals,
 * out_tangents exactly tangents;
 * outputs must not otherwise overlap any input or each other — except that attributes
 * interleaved in one buffer (same stride, disjoint bytes within each vertex) do not overlap.
 * Errors (nothing is written on error):
 *   TENDON_ERR_NULL      job, palette, joints, weights, positions, out_positions (vertex_count
 *                        > 0); normals given without out_normals or the reverse; the same
 *                        for tangents; tangents given without normals
 *   TENDON_ERR_VALUE     influence_count not in 1..4, an unknown joint_index_type, a stride
 *                        smaller than its element or not a multiple of its alignment, a
 *                        misaligned pointer
 *   TENDON_ERR_RANGE     a joint index ≥ palette_count (names the vertex, the influence, the
 *                        index and the palette size) — every index is checked before anything
 *                        is read through it
 *   TENDON_ERR_OVERFLOW  a buffer's byte extent (the palette's 64·palette_count bytes included)
 *                        overflows size_t or runs past the end of the address space
 *   TENDON_ERR_ALIAS     a partial overlap
 *   TENDON_ERR_ISA
 * Stack: as tendon_skin_mesh_apply (a palette not aligned to the vector is copied on AVX2 and
 * AVX-512 when the job has at least palette_count vertices).
 */
TENDON_API tendon_status tendon_skin(const tendon_skin_job *job);

/* ---- the prepared mesh ---------------------------------------------------------------------- */

/**
 * A mesh prepared for skinning (docs/skinning.md, "The prepared mesh"): the vertex inputs of a
 * tendon_skin_job copied once, checked once, and repacked into the layout that skins fastest —
 * blocks of 16 vertices, structure of arrays, 64-byte aligned; the same layout whatever ISA
 * creates or applies it. Opaque; immutable but for tendon_skin_mesh_set_positions (morph
 * targets): any number of threads may apply one mesh at once (tendon_skin_mesh_apply_range
 * splits it).
 *
 * Memory: per vertex 2·n bytes of joint indices (rounded up per 16 vertices to 64-byte lines),
 * 4·n of weights, 12 of positions, + 12 with normals, + 16 with tangents (n = influence_count;
 * 48 bytes for 4 influences with normals, 64 with tangents), the last block padded to 16
 * vertices, plus one small header; tendon_skin_mesh_memory_bytes says exactly.
 *
 * Speed: a mesh whose joint indices are all below 8192 stores them pre-scaled, which the packed
 * loops address directly; a mesh with a larger index is as correct (the same bits) but every
 * call takes the general, slower loop (docs/skinning.md, "Joint indices pre-scaled in the
 * mesh").
 *
 * More than 4 influences (glTF JOINTS_1 / WEIGHTS_1) are out of scope, as for tendon_skin.
 */
typedef struct tendon_skin_mesh tendon_skin_mesh;

/** What a mesh can write (tendon_skin_mesh_outputs). */
typedef enum tendon_skin_output {
    TENDON_SKIN_OUTPUT_POSITIONS = 1, /**< always */
    TENDON_SKIN_OUTPUT_NORMALS = 2,   /**< the job had normals */
    TENDON_SKIN_OUTPUT_TANGENTS = 4   /**< the job had tangents (and so normals) */
} tendon_skin_output;

/**
 * Prepare `job`'s mesh. Read from the job: vertex_count, influence_count, joint_index_type,
 * palette_count (the bound every joint index is checked against: a palette given to apply must
 * hold at least that many matrices — apply cannot check its length, only its pointer), joints,
 * weights, positions, normals (NULL: no normals), tangents (NULL: no tangents; they need
 * normals) with their strides, and the **output strides** of the outputs the mesh has (0 =
 * packed: 12, 12, 16 bytes), which apply writes with — out_normals_stride only with normals,
 * out_tangents_stride only with tangents (an output the mesh lacks is refused at apply, so its
 * stride is ignored, as tendon_skin ignores it). Not read: palette and the output pointers (NULL is fine; given ones
 * are ignored). Everything read is copied: changing or freeing the caller's buffers afterwards
 * changes nothing.
 *
 * Checked here, once, so that apply need not: influence_count, joint_index_type, every stride,
 * alignment and byte extent (as tendon_skin), **every joint index < palette_count** (the message
 * names the vertex, the influence, the index and the palette size), **every weight finite**
 * (a NaN or ±∞ weight is refused naming the vertex and the influence; other weights, negative
 * or not summing to one, are used as given, as tendon_skin does). On error nothing is created
 * and *out is NULL.
 *
 * Allocates (once): call at load time. Free with tendon_skin_mesh_destroy.
 * Errors: TENDON_ERR_NULL (job, out; joints, weights or positions with vertex_count > 0;
 * tangents without normals), TENDON_ERR_VALUE (influence_count, joint_index_type, a stride, a
 * misaligned pointer, a non-finite weight), TENDON_ERR_RANGE (a joint index), TENDON_ERR_OVERFLOW
 * (a byte extent, or the mesh's size), TENDON_ERR_NOMEM.
 */
TENDON_API tendon_status tendon_skin_mesh_create(const tendon_skin_job *job,
                                                 tendon_skin_mesh **out);

/** Free a mesh. NULL is a no-op. */
TENDON_API void tendon_skin_mesh_destroy(tendon_skin_mesh *mesh);

/** Vertices; 0 for NULL. */
TENDON_API size_t tendon_skin_mesh_vertex_count(const tendon_skin_mesh *mesh);
/** Influences per vertex (1..4); 0 for NULL. */
TENDON_API size_t tendon_skin_mesh_influence_count(const tendon_skin_mesh *mesh);
/** The palette size the joint indices were checked against; 0 for NULL. */
TENDON_API size_t tendon_skin_mesh_palette_count(const tendon_skin_mesh *mesh);
/** TENDON_SKIN_OUTPUT_* bits of what apply can write; 0 for NULL. */
TENDON_API unsigned tendon_skin_mesh_outputs(const tendon_skin_mesh *mesh);
/** Bytes the mesh owns (header and vertex blocks); 0 for NULL. */
TENDON_API size_t tendon_skin_mesh_memory_bytes(const tendon_skin_mesh *mesh);

/**
 * Skin every vertex of `mesh` by `palette`: the same bits as tendon_skin on the job the mesh was
 * made from with this palette (the formulas of tendon_skin: positions, normals, tangents), on
 * every ISA in the default FP environment.
 *
 * palette: [16*palette_count] column-major matrices, rows 0..2 read (tendon_pose_palette);
 * **its length cannot be checked here**: it must hold the mesh's palette_count matrices.
 * out_positions / out_normals / out_tangents: vertex 0 of each output array, written with the
 * output strides given at creation; NULL for an output not wanted. An output the mesh was not
 * made for (normals, tangents) must be NULL: asking for it is refused by name. Outputs must not
 * overlap each other or the palette (attributes interleaved in one buffer do not overlap); they
 * may be the buffers the mesh was made from (it reads only its own copies).
 *
 * Checks: O(1) — the pointers, their alignment and extents, the overlaps; no joint index and no
 * weight is looked at again. Allocates nothing. Alignment: floats' own; 64 bytes is a hint: on
 * AVX2 and AVX-512 a palette not aligned to the vector, of up to 256 entries, is copied whole
 * (all palette_count entries are read, whichever the vertices use) to an aligned block on the
 * stack for a call of at least palette_count vertices — up to about 21 KiB of stack then
 * (measured peaks); else under 5 KiB, but for the four-lane ISAs' row copy of a palette (13.2 KiB
 * in all) and the row tables of tendon_skin_mesh_apply_dq on the 4- and 8-lane ISAs (15.7-17.1
 * KiB in all) (docs/skinning.md, "Buffers not aligned to the vector"). The same bits either way.
 * Errors (nothing is written on error): TENDON_ERR_NULL (mesh; palette with vertices to skin),
 * TENDON_ERR_VALUE (an output the mesh cannot write, a misaligned pointer), TENDON_ERR_OVERFLOW
 * (an output's or the palette's extent runs past the end of the address space),
 * TENDON_ERR_ALIAS, TENDON_ERR_ISA.
 */
TENDON_API tendon_status tendon_skin_mesh_apply(const tendon_skin_mesh *mesh, const float *palette,
                                                float *out_positions, float *out_normals,
                                                float *out_tangents);

/**
 * tendon_skin_mesh_apply for the vertices [first_vertex, first_vertex + vertex_count) only, so
 * threads can split one mesh: the outputs are still the whole arrays (vertex v at byte
 * v·stride) and only the range is written; calls on disjoint ranges may run at once. Any split
 * gives the same bits (a vertex's result never depends on another); ranges starting at a
 * multiple of 16 run fastest. Errors: those of tendon_skin_mesh_apply, and TENDON_ERR_RANGE
 * (the range is not within the mesh's vertices; names both).
 */
TENDON_API tendon_status tendon_skin_mesh_apply_range(const tendon_skin_mesh *mesh,
                                                      const float *palette, size_t first_vertex,
                                                      size_t vertex_count, float *out_positions,
                                                      float *out_normals, float *out_tangents);

/**
 * Replace the bind-space positions of vertices [first_vertex, first_vertex + vertex_count) in
 * the mesh's copy — what morph targets need (tendon_morph, then this, then apply: the same bits
 * as tendon_skin on the morphed positions). positions: that range's x y z, `stride` bytes
 * apart (0: 12), vertex first_vertex first. Copies only (O(vertex_count), no allocation, no
 * other check repeated). The one call that changes a mesh: it must not run while an apply of
 * the same mesh runs on another thread.
 * Errors (nothing is changed on error): TENDON_ERR_NULL (mesh; positions with vertices),
 * TENDON_ERR_RANGE (the range; names both), TENDON_ERR_VALUE (a bad stride, a misaligned
 * pointer), TENDON_ERR_OVERFLOW.
 */
TENDON_API tendon_status tendon_skin_mesh_set_positions(tendon_skin_mesh *mesh,
                                                        const float *positions, size_t stride,
                                                        size_t first_vertex, size_t vertex_count);

struct tendon_kernels;

/**
 * tendon_skin_mesh_apply_range through `kernels` (tendon_kernels_for(), emulated variants
 * included) instead of the active table; NULL means the active table. The same checks, errors
 * and bits. For tools, tests and benchmarks that run every ISA in one process.
 */
TENDON_API tendon_status tendon_skin_mesh_apply_range_on(const struct tendon_kernels *kernels,
                                                         const tendon_skin_mesh *mesh,
                                                         const float *palette,
                                                         size_t first_vertex, size_t vertex_count,
                                                         float *out_positions, float *out_normals,
                                                         float *out_tangents);

/* ---- dual-quaternion skinning --------------------------------------------------------------- */

/**
 * The rigid part of each palette matrix as a unit dual quaternion, and its uniform scale, for
 * tendon_skin_mesh_apply_dq (docs/skinning.md, "Dual-quaternion skinning").
 *
 * palette: [16*count] column-major matrices, rows 0..2 read (tendon_pose_palette's output).
 * out_dq: [16*count] floats, 16 per entry (the size of a matrix, so it may be exactly palette:
 * converted in place): [0..3] the real part x y z w (unit, w ≥ 0), [4..7] the dual part
 * x y z w (= ½·(t, 0) ⊗ real), [8] the uniform scale s, [9..15] zero.
 *
 * The method, deterministic and the same bits on every ISA (float32, src/common/dq_ref.h):
 * column lengths l_c = √((a.x² + a.y²) + a.z²); s = ((l0 + l1) + l2) / 3, set to exactly 1
 * when within 2⁻²⁰ of it (model × inverse bind of a rig that carries a scale rounds near 1);
 * R = A · (1/s); the quaternion of R by Shepperd's method (the largest of trace, R00, R11, R22
 * picks which component is √ — ties to the first), normalised, with w ≥ 0; the translation t
 * is column 3 (any finite translation is accepted: one of ~1e38 or more can make the dual
 * part ±∞, its sums of products overflowing float32 — 3e38 rotated 90° does). A matrix is
 * refused unless every element of rows 0..2 is finite, det A > 0 (no mirror), every
 * |l_c − s| ≤ 2⁻¹⁰·s (a uniform scale) and every pair of columns has |a·b| ≤ 2⁻¹⁰·s² (no
 * shear): dual quaternions carry none of those, so skin such joints with
 * tendon_skin_mesh_apply. Per frame: allocates nothing.
 *
 * Errors (nothing is written on error): TENDON_ERR_NULL (palette or out_dq with count > 0),
 * TENDON_ERR_VALUE (a misaligned pointer; a refused matrix — the message names the first such
 * entry and why: its column lengths, the cosine between two columns, its determinant or the
 * element that is not finite; elements so large that a column's squared length or the
 * determinant overflows float32 — from ~1.8e19, or a NaN determinant from ~7e12 — are "too
 * large", not a non-uniform scale or a mirror; at the other end a uniform scale below ~5e-16
 * makes the determinant underflow to 0, reported as "a mirror or a degenerate matrix"),
 * TENDON_ERR_OVERFLOW, TENDON_ERR_ALIAS (out_dq partly overlaps palette), TENDON_ERR_ISA.
 */
TENDON_API tendon_status tendon_palette_to_dual_quat(const float *palette, size_t count,
                                                     float *out_dq);

/**
 * Dual-quaternion skinning of every vertex of `mesh` by `dq` (tendon_palette_to_dual_quat's
 * output, the mesh's palette_count entries — its length cannot be checked here). Per vertex,
 * with influences (jᵢ, wᵢ) and rᵢ the real part of dq[jᵢ] (src/common/dq_ref.h):
 *
 *   w'ᵢ = −wᵢ where (r₀·rᵢ) < 0 (the antipodality fix against the first influence; the dot
 *         summed ((x + y) + z) + w), else wᵢ; w'₀ = w₀
 *   b = ((w'₀·dq₀ + w'₁·dq₁) + w'₂·dq₂) + w'₃·dq₃   (eight components; the first n terms)
 *   s = ((w₀·s₀ + w₁·s₁) + w₂·s₂) + w₃·s₃          (the scales, unsigned weights)
 *   inv = |b.real|² > 0 ? 1/√|b.real|² : 0,  q = b.real·inv,  d = b.dual·inv
 *   t = 2·((q.w·d.xyz − d.w·q.xyz) + q.xyz × d.xyz)
 *   position' = rotate(q, s·p) + t,   normal' = rotate(q, n),   tangent' = (rotate(q, t.xyz), t.w)
 *
 * with rotate(q, v) = (v + q.w·u) + q.xyz × u, u = 2·(q.xyz × v). Normals and tangents are
 * rotated, not renormalised (a unit q keeps them unit to rounding), and tangent w is kept (no
 * mirror survives tendon_palette_to_dual_quat). All-zero weights give q = 0: the position goes
 * to the origin, normals and tangents are passed through. Outputs, strides, checks, ranges,
 * threads, errors, the copy of a table not aligned to the vector and the stack it takes are
 * tendon_skin_mesh_apply's. Every ISA computes the same bits in the default FP environment.
 */
TENDON_API tendon_status tendon_skin_mesh_apply_dq(const tendon_skin_mesh *mesh, const float *dq,
                                                   float *out_positions, float *out_normals,
                                                   float *out_tangents);

/** tendon_skin_mesh_apply_dq for vertices [first_vertex, first_vertex + vertex_count) (as
 *  tendon_skin_mesh_apply_range). */
TENDON_API tendon_status tendon_skin_mesh_apply_dq_range(const tendon_skin_mesh *mesh,
                                                         const float *dq, size_t first_vertex,
                                                         size_t vertex_count,
                                                         float *out_positions,
                                                         float *out_normals, float *out_tangents);

/** tendon_skin_mesh_apply_dq_range through `kernels` (NULL: the active table). */
TENDON_API tendon_status tendon_skin_mesh_apply_dq_range_on(const struct tendon_kernels *kernels,
                                                            const tendon_skin_mesh *mesh,
                                                            const float *dq, size_t first_vertex,
                                                            size_t vertex_count,
                                                            float *out_positions,
                                                            float *out_normals,
                                                            float *out_tangents);

/**
 * Make each vertex's weights sum to one (**unit sum, not unit length**: the glTF loaders that
 * normalised to unit L2 length broke skins — bug case anim-bug-18), in place:
 *
 *   sum = ((w₀ + w₁) + w₂) + w₃   (the first influence_count terms, float32)
 *   sum > 0:  wᵢ = wᵢ / sum       (correctly rounded; the new sum is 1 within a few ulp)
 *   sum = 0 (all weights zero): the vertex goes wholly to its first influence: (1, 0, 0, 0)
 *
 * weights: vertex_count vertices of influence_count floats, `stride` bytes apart (0: packed).
 * influence_count: 1..4. Set-up time (scalar; not in the kernel table).
 * Errors: TENDON_ERR_NULL (weights, vertex_count > 0), TENDON_ERR_VALUE (influence_count not in
 * 1..4; a bad stride or a misaligned pointer; a negative, NaN or infinite weight — the
 * message names the vertex and the influence — or weights whose sum overflows — it names the
 * vertex; nothing is written),
 * TENDON_ERR_OVERFLOW.
 */
TENDON_API tendon_status tendon_skin_weights_normalize(float *weights, size_t stride,
                                                       size_t influence_count,
                                                       size_t vertex_count);

/**
 * Morph targets (glTF morph targets, blend shapes), for positions, normals or any float
 * attribute stored tightly packed:
 *
 *   out[e] = ((base[e] + w₀·d₀[e]) + w₁·d₁[e]) + …   in target order, float32
 *
 * **One rule for every term: a target whose weight is exactly zero (+0 or −0) is skipped**, on
 * every ISA and for every element, so a zero weight never turns an infinite delta into NaN and
 * costs nothing; every other weight (tiny, negative, above 1, NaN) is applied as given.
 * Morphed normals are not renormalised (skinning normalises its output).
 *
 * base: [float_count]. deltas: [target_count] pointers, each [float_count] (a pointer may be
 * NULL only if its weight is zero). weights: [target_count]. out: [float_count]; may be exactly
 * base; must not otherwise overlap base, a delta or the weights.
 * Errors: TENDON_ERR_NULL, TENDON_ERR_VALUE (base, out, weights or a delta that is read not on a
 * 4-byte boundary, or deltas not aligned to a pointer; the message names it),
 * TENDON_ERR_OVERFLOW (a byte size overflows size_t or an array runs past the end of the address
 * space), TENDON_ERR_ALIAS, TENDON_ERR_ISA.
 */
TENDON_API tendon_status tendon_morph(const float *base, const float *const *deltas,
                                      const float *weights, size_t target_count,
                                      size_t float_count, float *out);

#ifdef __cplusplus
}
#endif
#endif
