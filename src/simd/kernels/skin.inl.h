/*
 * THE SIMD body of the float32 matrix kernels — local matrices, model matrices, palette,
 * linear-blend skinning, morph targets — written once over the op layer's float lanes (vf,
 * TENDON_WF lanes) and instantiated per ISA by src/simd/<isa>/skin_<isa>.c: the lane-wise twin
 * of src/common/skin_ref.h. Same operations, same order; tails go to the scalar reference.
 *
 * Layouts (docs/skinning.md):
 * - local matrices: WF joints at a time in structure-of-arrays form (translation, quaternion and
 *   scale transposed in registers), the 16 elements transposed back to one matrix per joint.
 * - 4×4 product (model matrices, palette): one matrix at a time, vectorised across its 16
 *   elements: with the columns of a repeated in every group of four lanes and b's element k of
 *   each column splatted across that column's group, lane 4c+r computes exactly
 *   (a[r]·b[4c] + a[4+r]·b[4c+1]) + (a[8+r]·b[4c+2] + a[12+r]·b[4c+3]).
 * - skinning: WF vertices per block. Each vertex's blended matrix is built across its 16 elements
 *   (whole palette rows loaded, no gathers), the WF blended matrices are transposed in registers
 *   to one vector per element, and positions, normals and tangents are computed across vertices.
 * - morph: elements in blocks of 4·WF floats, targets in order inside each block.
 */
#include <stdint.h>
#include <string.h>

#include "../../common/dq_ref.h"
#include "../../common/kernels_internal.h"
#include "../../common/skin_mesh.h"
#include "../../common/skin_ref.h"

#ifndef TENDON_FN
#define TENDON_CAT_(a, b) a##_##b
#define TENDON_CAT(a, b) TENDON_CAT_(a, b)
/** The per-ISA name of a kernel: TENDON_FN(skin) → tendon_skin_<isa>. */
#define TENDON_FN(name) TENDON_CAT(tendon_##name, TENDON_SFX)
#endif

/** Vectors per 4×4 matrix. */
#define TENDON_MG (16 / TENDON_WF)

#if defined(__GNUC__)
#define TENDON_AINLINE static inline __attribute__((always_inline))
#define TENDON_NOINLINE static __attribute__((noinline))
#else
#define TENDON_AINLINE static inline
#define TENDON_NOINLINE static
#endif

/** A hint: the cache line holding p into every level (x86-64: prefetcht0; a read prefetch, as
    measured), where the compiler has a prefetch; nothing elsewhere. Changes no value. (Not
    SIMDe's _mm_prefetch: its T0 became prefetcht2 here.) */
static inline void vprefetch(const void *p)
{
#if defined(__GNUC__) || defined(__clang__)
    __builtin_prefetch(p, 0, 3);
#else
    (void)p;
#endif
}

/**
 * r = a × b (tendon_ref_mat4_mul) with a's columns given repeated in every group of four lanes
 * (vfload4_dup / vfmat_cols_dup) and b read from memory; lane 4c+r computes exactly
 * (a[r]·b[4c] + a[4+r]·b[4c+1]) + (a[8+r]·b[4c+2] + a[12+r]·b[4c+3]).
 */
TENDON_AINLINE void vmat4_mul_cols(const vf a[4], const float *b, vf r[TENDON_MG])
{
    for (int g = 0; g < TENDON_MG; ++g) {
        const vf bg = vfload(b + g * TENDON_WF);
        r[g] = vfadd(vfadd(vfmul(a[0], vfsplat4_0(bg)), vfmul(a[1], vfsplat4_1(bg))),
                     vfadd(vfmul(a[2], vfsplat4_2(bg)), vfmul(a[3], vfsplat4_3(bg))));
    }
}

TENDON_AINLINE void vmat4_load_cols(const float *a, vf col[4])
{
    for (int k = 0; k < 4; ++k)
        col[k] = vfload4_dup(a + 4 * k);
}

/** c = a × b. c may be exactly b (b is read whole before c is written). pieces: c stored in
    128-bit pieces (vfstore_pieces; a constant once inlined). */
TENDON_AINLINE void vmat4_mul(const float *a, const float *b, float *c, int pieces)
{
    vf col[4], r[TENDON_MG];
    vmat4_load_cols(a, col);
    vmat4_mul_cols(col, b, r);
    for (int g = 0; g < TENDON_MG; ++g) {
        if (pieces)
            vfstore_pieces(c + g * TENDON_WF, r[g]);
        else
            vfstore(c + g * TENDON_WF, r[g]);
    }
}

/* T·R·S of the WF joints from joint j, lane-wise: element e of each matrix in e[e]. */
TENDON_AINLINE void vlocal_elements(const float *translation, const float *rotation,
                                    const float *scale, size_t j, vf e[16])
{
    const vf one = vfset1(1.0f), zero = vfset1(0.0f);
    vf tx, ty, tz, x, y, z, w, sx, sy, sz;
    vfload3(translation + 3 * j, &tx, &ty, &tz);
    vfload4(rotation + 4 * j, &x, &y, &z, &w);
    vfload3(scale + 3 * j, &sx, &sy, &sz);
    const vf x2 = vfadd(x, x), y2 = vfadd(y, y), z2 = vfadd(z, z);
    const vf xx = vfmul(x, x2), yy = vfmul(y, y2), zz = vfmul(z, z2);
    const vf xy = vfmul(x, y2), xz = vfmul(x, z2), yz = vfmul(y, z2);
    const vf wx = vfmul(w, x2), wy = vfmul(w, y2), wz = vfmul(w, z2);
    e[0] = vfmul(vfsub(one, vfadd(yy, zz)), sx);
    e[1] = vfmul(vfadd(xy, wz), sx);
    e[2] = vfmul(vfsub(xz, wy), sx);
    e[3] = zero;
    e[4] = vfmul(vfsub(xy, wz), sy);
    e[5] = vfmul(vfsub(one, vfadd(xx, zz)), sy);
    e[6] = vfmul(vfadd(yz, wx), sy);
    e[7] = zero;
    e[8] = vfmul(vfadd(xz, wy), sz);
    e[9] = vfmul(vfsub(yz, wx), sz);
    e[10] = vfmul(vfsub(one, vfadd(xx, yy)), sz);
    e[11] = zero;
    e[12] = tx;
    e[13] = ty;
    e[14] = tz;
    e[15] = one;
}

/*
 * T·R·S of WF joints a block, lane-wise. The 16 element vectors go to memory either by
 * vftranspose and whole-matrix stores (local_matrices) or each matrix's four 128-bit pieces
 * stored on their own (local_matrices_pieces, vfstore_mats_pieces: fewer cross-lane shuffles
 * and more stores, which pays on Intel cores — docs/dispatch.md, "Per-vendor choices"). The
 * same values either way.
 */
TENDON_AINLINE void vlocal_matrices(const float *translation, const float *rotation,
                                    const float *scale, size_t count, float *out, int pieces,
                                    int prefetch)
{
    size_t j = 0;
    for (; j + TENDON_WF <= count; j += TENDON_WF) {
        vf e[16];
        if (prefetch && j + 2 * TENDON_WF <= count) /* the next block's WF + 1 lines */
            for (int l = 0; l <= TENDON_WF; ++l)
                vprefetch(out + 16 * (j + TENDON_WF) + 16 * l);
        vlocal_elements(translation, rotation, scale, j, e);
#if TENDON_WF >= 8 /* at four lanes a vector is a piece: the stores below already are */
        if (pieces) {
            vfstore_mats_pieces(e, out + 16 * j);
            continue;
        }
#else
        (void)pieces;
#endif
        for (int g = 0; g < TENDON_MG; ++g) {
            vftranspose(e + g * TENDON_WF); /* vector i: joint j+i's elements g·WF … */
            for (int i = 0; i < TENDON_WF; ++i)
                vfstore(out + 16 * (j + (size_t)i) + g * TENDON_WF, e[g * TENDON_WF + i]);
        }
    }
    tendon_local_matrices_scalar_from(translation, rotation, scale, j, count, out);
}

/*
 * Matrices written to memory that is not on a cache line's boundary (a caller's `model` from
 * malloc or std::vector, 16 bytes past a line) and does not fit the first-level cache: measured
 * on an Intel Xeon (lscpu model 207), the AVX2 and AVX-512 stores then wait on the lines — the
 * local matrices of 1024 joints took 2.9 ns a joint at both at 16 bytes past a line against 2.2
 * and 1.85 on one, whatever the stores' width (whole matrices, 128-bit pieces, or masked stores
 * within a line); SSE2 and SSE4.1 showed no difference. Prefetching the lines (vprefetch, a read
 * prefetch into every level) a block ahead, or in the model pass eight joints of the order
 * ahead, takes most of that back; in the first-level cache it only costs (1-3 %), so it runs on
 * the 8- and 16-lane ISAs for misaligned outputs of more than TENDON_PREFETCH_MIN matrices. The
 * same values either way (docs/skinning.md, "Buffers not aligned to the vector").
 */
#define TENDON_PREFETCH_MIN 256

TENDON_AINLINE int vprefetch_pays(const float *out, size_t count)
{
    return TENDON_WF >= 8 && ((uintptr_t)out & 63) != 0 && count > TENDON_PREFETCH_MIN;
}

void TENDON_FN(local_matrices)(const float *translation, const float *rotation,
                               const float *scale, size_t count, float *out)
{
    if (vprefetch_pays(out, count))
        vlocal_matrices(translation, rotation, scale, count, out, 0, 1);
    else
        vlocal_matrices(translation, rotation, scale, count, out, 0, 0);
}

/* Joints up to which local_matrices_pieces stores pieces: their matrices (16 KiB) and inputs stay
   in the first-level cache. Beyond it the four times as many stores go to the second level, and
   the whole-matrix form is faster (measured on an Intel Xeon: at 512 joints pieces took 1.28×
   the AVX2 time, at 256 0.82×). */
#define TENDON_LOCAL_PIECES_MAX 256

void TENDON_FN(local_matrices_pieces)(const float *translation, const float *rotation,
                                      const float *scale, size_t count, float *out)
{
    if (count <= TENDON_LOCAL_PIECES_MAX)
        vlocal_matrices(translation, rotation, scale, count, out, 1, 0);
    else if (vprefetch_pays(out, count))
        vlocal_matrices(translation, rotation, scale, count, out, 0, 1);
    else
        vlocal_matrices(translation, rotation, scale, count, out, 0, 0);
}

/*
 * One joint at many times, a time per lane (the spring rig's chunks): the local matrices'
 * element vectors stay in registers and multiply the parent's rows lane by lane — no
 * transpose, no splat (every lane has its own parent matrix, or all share one, broadcast).
 * parent_planes is a constant once inlined.
 */
TENDON_AINLINE void vlocal_model_lanes(const float *translation, const float *rotation,
                                       const float *scale, size_t count, const float *parent,
                                       size_t parent_stride, float *local, float *model,
                                       size_t stride, int parent_planes, size_t *done)
{
    size_t i = 0;
    for (; i + TENDON_WF <= count; i += TENDON_WF) {
        vf e[16];
        vlocal_elements(translation, rotation, scale, i, e);
        for (int x = 0; x < 16; ++x)
            if ((x & 3) != 3) {
                if (local)
                    vfstore(local + (size_t)x * stride + i, e[x]);
                if (!parent)
                    vfstore(model + (size_t)x * stride + i, e[x]);
            }
        if (!parent)
            continue;
        for (int r = 0; r < 3; ++r) { /* row r of every product: the parent's row r */
            vf a[4];
            for (int c = 0; c < 4; ++c)
                a[c] = parent_planes ? vfload(parent + (size_t)(4 * c + r) * parent_stride + i)
                                     : vfset1(parent[4 * c + r]);
            for (int c = 0; c < 4; ++c)
                vfstore(model + (size_t)(4 * c + r) * stride + i,
                        vfadd(vfadd(vfmul(a[0], e[4 * c]), vfmul(a[1], e[4 * c + 1])),
                              vfadd(vfmul(a[2], e[4 * c + 2]), vfmul(a[3], e[4 * c + 3]))));
        }
    }
    *done = i;
}

void TENDON_FN(local_model_lanes)(const float *translation, const float *rotation,
                                  const float *scale, size_t count, const float *parent,
                                  size_t parent_stride, float *local, float *model, size_t stride)
{
    size_t i;
    if (parent && parent_stride)
        vlocal_model_lanes(translation, rotation, scale, count, parent, parent_stride, local,
                           model, stride, 1, &i);
    else
        vlocal_model_lanes(translation, rotation, scale, count, parent, 0, local, model, stride,
                           0, &i);
    tendon_local_model_lanes_scalar_from(translation, rotation, scale, i, count, parent,
                                         parent_stride, local, model, stride);
}

/* transform_points_lanes; mp, pp: whether the matrices and the points are planes (constants once
   inlined). */
TENDON_AINLINE size_t vtransform_points_lanes(const float *m, size_t m_stride, const float *p,
                                              size_t p_stride, size_t count, float *out,
                                              size_t out_stride, int mp, int pp)
{
    size_t i = 0;
    for (; i + TENDON_WF <= count; i += TENDON_WF) {
        vf q[3], r[3];
        for (int k = 0; k < 3; ++k)
            q[k] = pp ? vfload(p + (size_t)k * p_stride + i) : vfset1(p[k]);
        for (int k = 0; k < 3; ++k) {
#define TENDON_M(e) (mp ? vfload(m + (size_t)(e) * m_stride + i) : vfset1(m[e]))
            r[k] = vfadd(vfadd(vfadd(vfmul(TENDON_M(k), q[0]), vfmul(TENDON_M(4 + k), q[1])),
                               vfmul(TENDON_M(8 + k), q[2])),
                         TENDON_M(12 + k));
#undef TENDON_M
        }
        for (int k = 0; k < 3; ++k)
            vfstore(out + (size_t)k * out_stride + i, r[k]);
    }
    return i;
}

void TENDON_FN(transform_points_lanes)(const float *m, size_t m_stride, const float *p,
                                       size_t p_stride, size_t count, float *out,
                                       size_t out_stride)
{
    size_t i;
    if (m_stride && p_stride)
        i = vtransform_points_lanes(m, m_stride, p, p_stride, count, out, out_stride, 1, 1);
    else if (m_stride)
        i = vtransform_points_lanes(m, m_stride, p, 0, count, out, out_stride, 1, 0);
    else if (p_stride)
        i = vtransform_points_lanes(m, 0, p, p_stride, count, out, out_stride, 0, 1);
    else
        i = vtransform_points_lanes(m, 0, p, 0, count, out, out_stride, 0, 0);
    tendon_transform_points_lanes_scalar_from(m, m_stride, p, p_stride, i, count, out,
                                              out_stride);
}

/*
 * The parent chain is a dependency through memory: each product waits for its parent's. When a
 * joint's parent is the joint computed just before it (a limb is a chain), the last product
 * stays in registers (r) and feeds the next joint directly, skipping the store → load round
 * trip on the critical path. The values are the same either way.
 */
/**
 * Model matrix of joint j into model (and r, as vfload would load it); prev: the joint whose
 * matrix r holds on entry, or SIZE_MAX for none.
 */
TENDON_AINLINE void vmodel_joint(const float *local, const int32_t *parents, const float *root,
                                 size_t j, float *model, vf r[TENDON_MG], size_t prev)
{
    const int32_t p = parents[j];
    vf col[4];
    if (p >= 0) {
        if ((size_t)p == prev)
            vfmat_cols_dup(r, col); /* r holds the parent's matrix */
        else
            vmat4_load_cols(model + 16 * (size_t)p, col);
    } else if (root) {
        vmat4_load_cols(root, col);
    } else {
        for (int g = 0; g < TENDON_MG; ++g) {
            r[g] = vfload(local + 16 * j + g * TENDON_WF);
            vfstore(model + 16 * j + g * TENDON_WF, r[g]);
        }
        return;
    }
    vmat4_mul_cols(col, local + 16 * j, r);
    for (int g = 0; g < TENDON_MG; ++g)
        vfstore(model + 16 * j + g * TENDON_WF, r[g]);
}

void TENDON_FN(model_matrices)(const float *local, const int32_t *parents, const float *root,
                               size_t first, size_t end, float *model)
{
    vf r[TENDON_MG];
    for (int g = 0; g < TENDON_MG; ++g)
        r[g] = vfset1(0.0f); /* never read before written: prev guards it */
    for (size_t j = first; j < end; ++j)
        vmodel_joint(local, parents, root, j, model, r, j > first ? j - 1 : SIZE_MAX);
}

/*
 * In a level order (tendon_skeleton_level_order: joints by depth) consecutive joints are mostly
 * independent, so the out-of-order core overlaps their products instead of waiting out each
 * parent chain in turn.
 */
void TENDON_FN(model_matrices_ordered)(const float *local, const int32_t *parents,
                                       const float *root, const uint32_t *order, size_t count,
                                       float *model)
{
    vf r[TENDON_MG];
    /* No register hand-off here: in a level order the parent is seldom the joint just done,
     * and a mispredicted test costs more than the round trip it saves (measured). */
    if (vprefetch_pays(model, count)) { /* see TENDON_PREFETCH_MIN */
        for (size_t i = 0; i < count; ++i) {
            if (i + 8 < count) { /* the two lines of joint order[i + 8]'s matrix */
                vprefetch(model + 16 * (size_t)order[i + 8]);
                vprefetch(model + 16 * (size_t)order[i + 8] + 15);
            }
            vmodel_joint(local, parents, root, order[i], model, r, SIZE_MAX);
        }
        return;
    }
    for (size_t i = 0; i < count; ++i)
        vmodel_joint(local, parents, root, order[i], model, r, SIZE_MAX);
}

/*
 * The palettes' stores: a caller's palette aligned to 16 bytes but not to the vector (malloc,
 * std::vector) is written in 128-bit pieces, none crossing a cache line — on an Intel Xeon
 * (lscpu model 207) a 64-entry palette at 16 bytes past a line took 5.88-5.98 ns a joint
 * through tendon_pose_palette at AVX-512 with whole-vector stores, 5.73-5.74 in pieces (5.56
 * aligned). The same values either way.
 */
TENDON_AINLINE int vout_pieces(const float *out)
{
    return ((uintptr_t)out & (sizeof(vf) - 1)) != 0;
}

TENDON_AINLINE void vpalette(const float *model, const uint32_t *joint_of,
                             const float *inverse_bind, size_t count, float *out, int pieces)
{
    for (size_t k = 0; k < count; ++k)
        vmat4_mul(model + 16 * (size_t)joint_of[k], inverse_bind + 16 * k, out + 16 * k, pieces);
}

void TENDON_FN(palette)(const float *model, const uint32_t *joint_of, const float *inverse_bind,
                        size_t count, float *out)
{
    if (vout_pieces(out))
        vpalette(model, joint_of, inverse_bind, count, out, 1);
    else
        vpalette(model, joint_of, inverse_bind, count, out, 0);
}

/*
 * The palette with the binding's splat table (tendon_kernels.palette_splat): b's element k of
 * each column already repeated across that column's lanes, so a product is four multiplies by
 * memory, no shuffle.
 */
TENDON_AINLINE void vpalette_splat(const float *model, const uint32_t *joint_of,
                                   const float *splat, size_t count, float *out, int pieces)
{
    for (size_t k = 0; k < count; ++k) {
        vf a[4];
        vmat4_load_cols(model + 16 * (size_t)joint_of[k], a);
        const float *s = splat + 64 * k;
        for (int g = 0; g < TENDON_MG; ++g) {
            const vf p0 = vfmul(a[0], vfload(s + g * TENDON_WF));
            const vf p1 = vfmul(a[1], vfload(s + 16 + g * TENDON_WF));
            const vf p2 = vfmul(a[2], vfload(s + 32 + g * TENDON_WF));
            const vf p3 = vfmul(a[3], vfload(s + 48 + g * TENDON_WF));
            const vf r = vfadd(vfadd(p0, p1), vfadd(p2, p3));
            if (pieces)
                vfstore_pieces(out + 16 * k + g * TENDON_WF, r);
            else
                vfstore(out + 16 * k + g * TENDON_WF, r);
        }
    }
}

void TENDON_FN(palette_splat)(const float *model, const uint32_t *joint_of, const float *splat,
                              size_t count, float *out)
{
    if (vout_pieces(out))
        vpalette_splat(model, joint_of, splat, count, out, 1);
    else
        vpalette_splat(model, joint_of, splat, count, out, 0);
}

/* ---- linear-blend skinning ------------------------------------------------------------------ */

/** WF points (x y z floats) from a byte-strided array, from vertex v0, one vector per component. */
TENDON_AINLINE void vskin_load3(const void *base, size_t stride, size_t v0, vf *x, vf *y, vf *z)
{
    if (stride == 3 * sizeof(float)) {
        vfload3((const float *)base + 3 * v0, x, y, z);
        return;
    }
    float tmp[3 * TENDON_WF];
    for (int i = 0; i < TENDON_WF; ++i)
        memcpy(tmp + 3 * i, (const unsigned char *)base + (v0 + (size_t)i) * stride,
               3 * sizeof(float));
    vfload3(tmp, x, y, z);
}

TENDON_AINLINE void vskin_store3(void *base, size_t stride, size_t v0, vf x, vf y, vf z)
{
    if (stride == 3 * sizeof(float)) {
        vfstore3((float *)base + 3 * v0, x, y, z);
        return;
    }
    float tmp[3 * TENDON_WF];
    vfstore3(tmp, x, y, z);
    for (int i = 0; i < TENDON_WF; ++i)
        memcpy((unsigned char *)base + (v0 + (size_t)i) * stride, tmp + 3 * i, 3 * sizeof(float));
}

/** WF x y z w tangents from a byte-strided array, from vertex v0, one vector per component. */
TENDON_AINLINE void vskin_load4(const void *base, size_t stride, size_t v0, vf *x, vf *y, vf *z,
                                vf *w)
{
    if (stride == 4 * sizeof(float)) {
        vfload4((const float *)base + 4 * v0, x, y, z, w);
        return;
    }
    float tmp[4 * TENDON_WF];
    for (int i = 0; i < TENDON_WF; ++i)
        memcpy(tmp + 4 * i, (const unsigned char *)base + (v0 + (size_t)i) * stride,
               4 * sizeof(float));
    vfload4(tmp, x, y, z, w);
}

TENDON_AINLINE void vskin_store4(void *base, size_t stride, size_t v0, vf x, vf y, vf z, vf w)
{
    if (stride == 4 * sizeof(float)) {
        vfstore4((float *)base + 4 * v0, x, y, z, w);
        return;
    }
    float tmp[4 * TENDON_WF];
    vfstore4(tmp, x, y, z, w);
    for (int i = 0; i < TENDON_WF; ++i)
        memcpy((unsigned char *)base + (v0 + (size_t)i) * stride, tmp + 4 * i, 4 * sizeof(float));
}

/*
 * What a skinning block writes, given its blended matrices as one vector per element (e, the
 * element index of a column-major 4×4, rows 0..2 only): tendon_ref_skin_position,
 * tendon_ref_skin_normal and tendon_ref_skin_tangent lane-wise, in their order.
 */
typedef struct vskin_out {
    vf px, py, pz;     /* position' */
    vf nx, ny, nz;     /* normal' */
    vf tx, ty, tz, tw; /* tangent' */
} vskin_out;

/** The position of a vertex per lane. */
TENDON_AINLINE void vskin_position(const vf *E, vf px, vf py, vf pz, vskin_out *o)
{
    o->px = vfadd(vfadd(vfadd(vfmul(E[0], px), vfmul(E[4], py)), vfmul(E[8], pz)), E[12]);
    o->py = vfadd(vfadd(vfadd(vfmul(E[1], px), vfmul(E[5], py)), vfmul(E[9], pz)), E[13]);
    o->pz = vfadd(vfadd(vfadd(vfmul(E[2], px), vfmul(E[6], py)), vfmul(E[10], pz)), E[14]);
}

/*
 * A frame between its two halves (vskin_frame_begin, vskin_frame_end): the normal's cofactor
 * product and its inverse length (negated where the matrix mirrors), the tangent's product, its
 * inverse length and its w. The mesh loops run the next block's blend between the halves.
 */
typedef struct vskin_pending {
    vf vx, vy, vz, inv;
    vf ux, uy, uz, invu, tw;
} vskin_pending;

/* Everything up to the normalisations' products: the square roots and divisions issued. */
TENDON_AINLINE void vskin_frame_begin(const vf *E, vf nx, vf ny, vf nz, int tangents, vf tx,
                                      vf ty, vf tz, vf tw, vskin_pending *p)
{
    const vf c0x = vfsub(vfmul(E[5], E[10]), vfmul(E[6], E[9]));
    const vf c0y = vfsub(vfmul(E[6], E[8]), vfmul(E[4], E[10]));
    const vf c0z = vfsub(vfmul(E[4], E[9]), vfmul(E[5], E[8]));
    const vf c1x = vfsub(vfmul(E[9], E[2]), vfmul(E[10], E[1]));
    const vf c1y = vfsub(vfmul(E[10], E[0]), vfmul(E[8], E[2]));
    const vf c1z = vfsub(vfmul(E[8], E[1]), vfmul(E[9], E[0]));
    const vf c2x = vfsub(vfmul(E[1], E[6]), vfmul(E[2], E[5]));
    const vf c2y = vfsub(vfmul(E[2], E[4]), vfmul(E[0], E[6]));
    const vf c2z = vfsub(vfmul(E[0], E[5]), vfmul(E[1], E[4]));
    const vf det = vfadd(vfadd(vfmul(E[0], c0x), vfmul(E[1], c0y)), vfmul(E[2], c0z));
    const vf vx = vfadd(vfadd(vfmul(c0x, nx), vfmul(c1x, ny)), vfmul(c2x, nz));
    const vf vy = vfadd(vfadd(vfmul(c0y, nx), vfmul(c1y, ny)), vfmul(c2y, nz));
    const vf vz = vfadd(vfadd(vfmul(c0z, nx), vfmul(c1z, ny)), vfmul(c2z, nz));
    const vf s = vfadd(vfadd(vfmul(vx, vx), vfmul(vy, vy)), vfmul(vz, vz));
    const vf zero = vfset1(0.0f), one = vfset1(1.0f);
    const vfmask mirrored = vflt(det, zero);
    const vf inv = vfsel(vfgt(s, zero), vfdiv(one, vfsqrt(s)), zero);
    p->vx = vx, p->vy = vy, p->vz = vz;
    p->inv = vfsel(mirrored, vfneg(inv), inv);
    if (tangents) {
        const vf ux = vfadd(vfadd(vfmul(E[0], tx), vfmul(E[4], ty)), vfmul(E[8], tz));
        const vf uy = vfadd(vfadd(vfmul(E[1], tx), vfmul(E[5], ty)), vfmul(E[9], tz));
        const vf uz = vfadd(vfadd(vfmul(E[2], tx), vfmul(E[6], ty)), vfmul(E[10], tz));
        const vf su = vfadd(vfadd(vfmul(ux, ux), vfmul(uy, uy)), vfmul(uz, uz));
        p->ux = ux, p->uy = uy, p->uz = uz;
        p->invu = vfsel(vfgt(su, zero), vfdiv(one, vfsqrt(su)), zero);
        p->tw = vfsel(mirrored, vfneg(tw), tw);
    }
}

/* The normalisations' products. */
TENDON_AINLINE void vskin_frame_end(const vskin_pending *p, int tangents, vskin_out *o)
{
    o->nx = vfmul(p->vx, p->inv);
    o->ny = vfmul(p->vy, p->inv);
    o->nz = vfmul(p->vz, p->inv);
    if (tangents) {
        o->tx = vfmul(p->ux, p->invu);
        o->ty = vfmul(p->uy, p->invu);
        o->tz = vfmul(p->uz, p->invu);
        o->tw = p->tw;
    }
}

/**
 * The normal (by the cofactors) and, when `tangents`, the tangent (by A itself, w by the sign
 * of det A). E: the blended matrix elements; n, t: the inputs per lane.
 */
TENDON_AINLINE void vskin_frame(const vf *E, vf nx, vf ny, vf nz, int tangents, vf tx, vf ty,
                                vf tz, vf tw, vskin_out *o)
{
    vskin_pending p;
    vskin_frame_begin(E, nx, ny, nz, tangents, tx, ty, tz, tw, &p);
    vskin_frame_end(&p, tangents, o);
}

/*
 * Vertices [v0, v0 + WF): n influences, uint16 indices or not, mode 0 positions, 1 + normals,
 * 2 + tangents (constants).
 */
TENDON_AINLINE void vskin_block(const tendon_skin_job *job, size_t v0, size_t n, int u16,
                                int mode)
{
    vf blk[TENDON_MG][TENDON_WF];
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 16
#endif
    for (int i = 0; i < TENDON_WF; ++i) {
        const size_t v = v0 + (size_t)i;
        const unsigned char *jp = (const unsigned char *)job->joints + v * job->joints_stride;
        const float *wp =
            (const float *)(const void *)((const unsigned char *)job->weights +
                                          v * job->weights_stride);
        const float *pal[4];
        vf wv[4];
        for (size_t k = 0; k < n; ++k) {
            unsigned idx;
            if (u16) {
                uint16_t s;
                memcpy(&s, jp + 2 * k, sizeof s);
                idx = s;
            } else {
                idx = jp[k];
            }
            pal[k] = job->palette + 16 * (size_t)idx;
            wv[k] = vfset1(wp[k]);
        }
        for (int g = 0; g < TENDON_MG; ++g) {
            vf acc = vfmul(wv[0], vfload(pal[0] + g * TENDON_WF));
            for (size_t k = 1; k < n; ++k)
                acc = vfadd(acc, vfmul(wv[k], vfload(pal[k] + g * TENDON_WF)));
            blk[g][i] = acc;
        }
    }
    vf E[16];
    for (int g = 0; g < TENDON_MG; ++g) {
        vftranspose_rows3(blk[g]); /* blk[g][r]: element g·WF + r of every vertex (not row 3) */
        for (int r = 0; r < TENDON_WF; ++r)
            E[g * TENDON_WF + r] = blk[g][r];
    }

    vf px, py, pz, nx, ny, nz, tx, ty, tz, tw;
    vskin_out o;
    vskin_load3(job->positions, job->positions_stride, v0, &px, &py, &pz);
    vskin_position(E, px, py, pz, &o);
    if (mode >= 1) {
        vskin_load3(job->normals, job->normals_stride, v0, &nx, &ny, &nz);
        if (mode >= 2)
            vskin_load4(job->tangents, job->tangents_stride, v0, &tx, &ty, &tz, &tw);
        else
            tx = ty = tz = tw = vfset1(0.0f);
        vskin_frame(E, nx, ny, nz, mode >= 2, tx, ty, tz, tw, &o);
    }
    vskin_store3(job->out_positions, job->out_positions_stride, v0, o.px, o.py, o.pz);
    if (mode >= 1)
        vskin_store3(job->out_normals, job->out_normals_stride, v0, o.nx, o.ny, o.nz);
    if (mode >= 2)
        vskin_store4(job->out_tangents, job->out_tangents_stride, v0, o.tx, o.ty, o.tz, o.tw);
}

/*
 * A palette (or dual-quaternion table) of 16 floats an entry that is not aligned to the vector —
 * a caller's array from malloc or std::vector, 16-byte aligned — splits a cache line on every
 * other 256-bit load of an entry and on every 512-bit one: measured 6-17 % of a 10 000-vertex
 * call on AVX2 and AVX-512. Such a palette of up to TENDON_PALETTE_ALIGN_MAX entries is copied
 * once per call to an aligned block on the stack (16 KiB, in a frame of its own: only a call
 * that copies has it), where the call skins at least as many vertices as the palette has
 * entries; the same values, so the same bits. Every one of the palette's entries is read (the
 * palette holds palette_count matrices: tendon/skin.h). The four-lane ISAs load 16 bytes: no
 * copy.
 */
#define TENDON_PALETTE_ALIGN_MAX 256

TENDON_AINLINE int vpalette_copy_pays(const float *palette, size_t count, size_t vertices)
{
    return TENDON_WF >= 8 && ((uintptr_t)palette & (sizeof(vf) - 1)) != 0 &&
           count <= TENDON_PALETTE_ALIGN_MAX && vertices >= count;
}

TENDON_AINLINE void vskin_loop(const tendon_skin_job *job, size_t n, int u16, int mode)
{
    const size_t count = job->vertex_count;
    size_t v = 0;
    for (; v + TENDON_WF <= count; v += TENDON_WF)
        vskin_block(job, v, n, u16, mode);
    tendon_skin_scalar_from(job, v, count);
}

TENDON_NOINLINE void vskin_run(const tendon_skin_job *job)
{
    const int u16 = job->joint_index_type == TENDON_JOINT_INDEX_U16;
    const int mode = job->normals == NULL ? 0 : job->tangents == NULL ? 1 : 2;
    switch ((job->influence_count - 1) * 6 + (size_t)(u16 * 3 + mode)) {
#define TENDON_SKIN_CASE(n, u, m)                                                                  \
    case ((n) - 1) * 6 + (u) * 3 + (m): vskin_loop(job, (n), (u), (m)); break;
#define TENDON_SKIN_CASES(n)                                                                       \
    TENDON_SKIN_CASE(n, 0, 0) TENDON_SKIN_CASE(n, 0, 1) TENDON_SKIN_CASE(n, 0, 2)                  \
    TENDON_SKIN_CASE(n, 1, 0) TENDON_SKIN_CASE(n, 1, 1) TENDON_SKIN_CASE(n, 1, 2)
        TENDON_SKIN_CASES(1) TENDON_SKIN_CASES(2) TENDON_SKIN_CASES(3) TENDON_SKIN_CASES(4)
#undef TENDON_SKIN_CASES
#undef TENDON_SKIN_CASE
    default: tendon_skin_scalar(job); break; /* unreachable for a validated job */
    }
}

#if TENDON_WF >= 8
/* vskin_run on a copy of the palette (vpalette_copy_pays), in this frame */
TENDON_NOINLINE void vskin_copied(const tendon_skin_job *job)
{
    _Alignas(64) float aligned[16 * TENDON_PALETTE_ALIGN_MAX];
    memcpy(aligned, job->palette, 16 * sizeof(float) * job->palette_count);
    tendon_skin_job local = *job;
    local.palette = aligned;
    vskin_run(&local);
}
#endif

void TENDON_FN(skin)(const tendon_skin_job *job)
{
#if TENDON_WF >= 8
    if (vpalette_copy_pays(job->palette, job->palette_count, job->vertex_count)) {
        vskin_copied(job);
        return;
    }
#endif
    vskin_run(job);
}

/* ---- the prepared mesh (src/common/skin_mesh.h) ----------------------------------------------- */

/* Every output of the mode wanted and packed, and the joints plane pre-scaled: the loops'
   constant-mode instantiations. */
TENDON_AINLINE int vmesh_fast(const tendon_skin_mesh *m, int mode, const float *op,
                              const float *on)
{
    return op && m->joint_shift == TENDON_MESH_JOINT_SHIFT &&
           m->out_stride[0] == 3 * sizeof(float) &&
           (mode < 1 || (on && m->out_stride[1] == 3 * sizeof(float))) &&
           (mode < 2 || m->out_stride[2] == 4 * sizeof(float));
}

/*
 * The entry of `entry_bytes` bytes of a palette or table that a joints plane value names: the
 * plane holds index << shift (src/common/skin_mesh.h), so the entry sits value · (entry_bytes >>
 * shift) bytes in — 8·value for a 64-byte entry at the mesh's shift of 3, an x86 scaled index:
 * no shift nor add per influence. `shift` is that constant in the packed (fast) loops
 * (vmesh_fast) and the mesh's own, at run time, in the others.
 */
TENDON_AINLINE const void *vmesh_entry(const void *table, size_t entry_bytes, unsigned shift,
                                       unsigned value)
{
    return (const unsigned char *)table + (size_t)value * (entry_bytes >> shift);
}

/*
 * Vertices [v0, v0 + WF) of a mesh, v0 a multiple of WF (so inside one 16-vertex block): the
 * same blend, transpose and per-lane formulas as vskin_block, reading the block's planes —
 * joint indices and weights per lane, positions, normals and tangents already one vector per
 * component. n influences is a constant, and so is `fast`: every output of the mode wanted and
 * packed (the common case, compiled with the mode (0 positions, 1 + normals, 2 + tangents) a
 * constant too and without the strided stores and the NULL tests, which otherwise cost
 * registers in the whole loop); else the mode and which outputs are written are decided per
 * call (NULL: not written) — one instantiation per n instead of three, which the compilers
 * took most of this file's build time to make (ASan builds above all).
 *
 * A block runs in three parts: vmesh_blend (the blended matrices, transposed to one vector per
 * element: E), vmesh_begin (the positions, stored, and the normal and tangent up to their
 * square roots and divisions) and vmesh_end (the normalisations' products, stored).
 */
#define TENDON_PLANE(off, c)                                                                       \
    ((const float *)(const void *)(b + (off)) + TENDON_MESH_LANES * (c) + l0)

TENDON_AINLINE void vmesh_blend(const tendon_skin_mesh *m, const float *palette, size_t v0,
                                size_t n, int rows, unsigned shift, vf *E)
{
    const size_t l0 = v0 % TENDON_MESH_LANES;
    /* every plane at an offset that is a constant here (n and mode are): one base pointer */
    const unsigned char *b = tendon_mesh_block(m, v0 / TENDON_MESH_LANES);
    const uint16_t *jv = (const uint16_t *)(const void *)b + n * l0;
    const float *wv0 = (const float *)(const void *)(b + tendon_mesh_off_w(n)) + n * l0;
    vf blk[TENDON_MG][TENDON_WF];
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 16
#endif
    for (int i = 0; i < TENDON_WF; ++i) {
        const float *pal[4];
        vf wv[4];
#if TENDON_WF == 4
        /* one load of the vertex's weights, then in-register splats (n = 4: one line) */
        if (n == 4) {
            const vf w4 = vfload_aligned(wv0 + 4 * (size_t)i);
            wv[0] = vfsplat4_0(w4), wv[1] = vfsplat4_1(w4);
            wv[2] = vfsplat4_2(w4), wv[3] = vfsplat4_3(w4);
        } else
#endif
            for (size_t k = 0; k < n; ++k)
                wv[k] = vfset1(wv0[n * (size_t)i + k]);
        for (size_t k = 0; k < n; ++k)
            pal[k] = vmesh_entry(palette, (rows ? 12 : 16) * sizeof(float), shift,
                                 jv[n * (size_t)i + k]);
        for (int g = 0; g < (rows ? 3 : TENDON_MG); ++g) {
            /* the row copy is aligned (64-byte block, 48-byte entries, 16-byte rows); a
               caller's palette need not be */
#define TENDON_PAL(k)                                                                              \
    (rows ? vfload_aligned(pal[k] + g * TENDON_WF) : vfload(pal[k] + g * TENDON_WF))
            vf acc = vfmul(wv[0], TENDON_PAL(0));
            for (size_t k = 1; k < n; ++k)
                acc = vfadd(acc, vfmul(wv[k], TENDON_PAL(k)));
#undef TENDON_PAL
            blk[g][i] = acc;
        }
    }
    if (rows) { /* blk[r][i]: row r of vertex i's matrix; transposed, element (r, c) = E[4c + r] */
        for (int r = 0; r < 3; ++r) {
            vftranspose(blk[r]);
            for (int c = 0; c < 4; ++c)
                E[4 * c + r] = blk[r][c];
        }
    } else { /* the bottom row (elements 3, 7, 11, 15) is never read */
        for (int g = 0; g < TENDON_MG; ++g) {
            vftranspose_rows3(blk[g]);
            for (int r = 0; r < TENDON_WF; ++r)
                E[g * TENDON_WF + r] = blk[g][r];
        }
    }
}

/* The positions (when `positions`: vmesh_loop may take them later), and the frame up to its √
   and ÷. */
TENDON_AINLINE void vmesh_begin(const tendon_skin_mesh *m, size_t v0, size_t n, int mode,
                                int fast, int positions, const vf *E, float *op,
                                vskin_pending *p)
{
    const size_t l0 = v0 % TENDON_MESH_LANES;
    const unsigned char *b = tendon_mesh_block(m, v0 / TENDON_MESH_LANES);
    const size_t off_p = tendon_mesh_off_p(n), off_n = tendon_mesh_off_n(n);
    const size_t off_t = tendon_mesh_off_t(n, 1); /* a mesh with tangents has normals */
    /* every plane aligned: 64-byte blocks, planes at multiples of 64 bytes, l0 a multiple of WF */
#define TENDON_PL(off, c) vfload_aligned(TENDON_PLANE(off, c))
    if (positions && (fast || op)) {
        vskin_out o;
        vskin_position(E, TENDON_PL(off_p, 0), TENDON_PL(off_p, 1),
                       TENDON_PL(off_p, 2), &o);
        if (fast)
            vfstore3(op + 3 * v0, o.px, o.py, o.pz);
        else
            vskin_store3(op, m->out_stride[0], v0, o.px, o.py, o.pz);
    }
    if (mode >= 1) {
        const vf zero = vfset1(0.0f);
        vskin_frame_begin(E, TENDON_PL(off_n, 0), TENDON_PL(off_n, 1),
                          TENDON_PL(off_n, 2), mode >= 2,
                          mode >= 2 ? TENDON_PL(off_t, 0) : zero,
                          mode >= 2 ? TENDON_PL(off_t, 1) : zero,
                          mode >= 2 ? TENDON_PL(off_t, 2) : zero,
                          mode >= 2 ? TENDON_PL(off_t, 3) : zero, p);
    }
#undef TENDON_PL
}

TENDON_AINLINE void vmesh_end(const tendon_skin_mesh *m, size_t v0, int mode, int fast,
                              const vskin_pending *p, float *on, float *ot)
{
    if (mode < 1)
        return;
    vskin_out o;
    /* vskin_frame_end sets the tangents only for mode 2; zeroed first, so a mode known only at
       run time leaves nothing the compiler sees as unset (dead stores where it is constant) */
    o.tx = o.ty = o.tz = o.tw = vfset1(0.0f);
    vskin_frame_end(p, mode >= 2, &o);
    if (fast) {
        vfstore3(on + 3 * v0, o.nx, o.ny, o.nz);
        if (mode >= 2)
            vfstore4(ot + 4 * v0, o.tx, o.ty, o.tz, o.tw);
    } else {
        if (on)
            vskin_store3(on, m->out_stride[1], v0, o.nx, o.ny, o.nz);
        if (mode >= 2)
            vskin_store4(ot, m->out_stride[2], v0, o.tx, o.ty, o.tz, o.tw);
    }
}
#undef TENDON_PLANE

/*
 * The packed (fast) loop with normals runs the next block's blend between a block's vmesh_begin
 * and vmesh_end. After a block's blend and transposes, its normal is a chain of ~80 cycles (the
 * cofactors, the product, the squared length, √, ÷), and its instructions with the block's
 * stores filled the core's reorder window: in block order the next block's blend — independent
 * work, bound by its loads — could not start until the chain had all but ended. Issued after
 * the chain's √ and ÷, it runs beside them. The same operations on the same values: the same
 * bits. llvm-mca (icelake-server) reproduced the block-order loop's AVX-512 time within 3 % and
 * predicted this order's gain; measured (docs/skinning.md, "The next block's blend beside the
 * normalisation"): positions + normals 0.83× the time at SSE2 and SSE4.1, 0.86-0.89× at AVX2,
 * 0.93× at AVX-512 (with TENDON_MESH_LATE_POSITIONS) with the core to itself; with the other
 * hardware thread of the core busy, 1.01-1.06× at SSE2 and SSE4.1, 0.94-0.96× at AVX2.
 * Positions alone (no chain to hide) and strided outputs keep block order. The 16-lane ISA
 * also stores a block's positions after the next block's blend (TENDON_MESH_LATE_POSITIONS):
 * measured 0.93× the time there, against 1.02× at SSE2 and 1.06× at AVX2, which keep them first.
 */
#define TENDON_MESH_LATE_POSITIONS (TENDON_WF >= 16)

TENDON_AINLINE size_t vmesh_loop(const tendon_skin_mesh *m, const float *palette, size_t v,
                                 size_t end, size_t n, int mode, int fast, int rows, float *op,
                                 float *on, float *ot)
{
    const unsigned shift = fast ? TENDON_MESH_JOINT_SHIFT : m->joint_shift;
    if (fast && mode >= 1 && v + TENDON_WF <= end) {
        vf E[16];
        vmesh_blend(m, palette, v, n, rows, shift, E);
        for (; v + 2 * TENDON_WF <= end; v += TENDON_WF) {
            vf next[16];
            vskin_pending p;
            vmesh_begin(m, v, n, mode, 1, !TENDON_MESH_LATE_POSITIONS, E, op, &p);
            vmesh_blend(m, palette, v + TENDON_WF, n, rows, shift, next);
            if (TENDON_MESH_LATE_POSITIONS)
                vmesh_begin(m, v, n, 0, 1, 1, E, op, &p); /* the positions alone */
            vmesh_end(m, v, mode, 1, &p, on, ot);
            for (int e = 0; e < 16; ++e)
                if ((e & 3) != 3) /* the bottom row is never set nor read */
                    E[e] = next[e];
        }
        vskin_pending p;
        vmesh_begin(m, v, n, mode, 1, 1, E, op, &p);
        vmesh_end(m, v, mode, 1, &p, on, ot);
        return v + TENDON_WF;
    }
    for (; v + TENDON_WF <= end; v += TENDON_WF) {
        vf E[16];
        vskin_pending p;
        vmesh_blend(m, palette, v, n, rows, shift, E);
        vmesh_begin(m, v, n, mode, fast, 1, E, op, &p);
        vmesh_end(m, v, mode, fast, &p, on, ot);
    }
    return v;
}

/*
 * Four-lane ISAs (SSE2, SSE4.1, NEON) blend a vertex's matrix one row of four at a time: rows
 * 0..2 of a 3×4 copy of the palette made per call on the stack, 12 floats an entry, instead of
 * four columns whose fourth lane (the bottom row) is never used — a quarter fewer products,
 * sums and transposes, and twelve accumulators instead of sixteen (a 16-register ISA spills
 * less). The same products in the same order: only where they are read from changes. Palettes
 * of more than TENDON_MESH_ROWS_MAX entries, and calls too short to repay the copy, keep the
 * columns.
 */
#define TENDON_MESH_ROWS_MAX 256

#if TENDON_WF == 4
static void vmesh_palette_rows(const float *palette, size_t count, float *rows)
{
    for (size_t j = 0; j < count; ++j) {
        vf c[4] = {vfload(palette + 16 * j), vfload(palette + 16 * j + 4),
                   vfload(palette + 16 * j + 8), vfload(palette + 16 * j + 12)};
        vftranspose(c);
        vfstore(rows + 12 * j, c[0]);
        vfstore(rows + 12 * j + 4, c[1]);
        vfstore(rows + 12 * j + 8, c[2]);
    }
}
#endif

TENDON_NOINLINE void vskin_mesh_run(const tendon_skin_mesh *m, const float *palette, size_t first,
                                    size_t count, float *op, float *on, float *ot)
{
    const size_t end = first + count;
    /* head: up to the first multiple of WF, by the scalar reference (equal by construction) */
    size_t v = (first + TENDON_WF - 1) / TENDON_WF * TENDON_WF;
    if (v > end)
        v = end;
    tendon_skin_mesh_scalar(m, palette, first, v - first, op, on, ot);
    const int mode = ot ? 2 : on ? 1 : 0;
    const int fast = vmesh_fast(m, mode, op, on);
    int rows = 0;
    const float *pal = palette;
#if TENDON_WF == 4
    _Alignas(64) float row_palette[12 * TENDON_MESH_ROWS_MAX];
    if (m->palette_count <= TENDON_MESH_ROWS_MAX && end - v >= m->palette_count) {
        vmesh_palette_rows(palette, m->palette_count, row_palette);
        rows = 1, pal = row_palette;
    }
#endif
    /* packed outputs: n and the mode constants; strided or partial outputs (the rare case):
       one instantiation per n, the mode and the NULL tests decided at run time */
    switch ((m->influence_count - 1) * 4 + (size_t)(fast ? mode : 3)) {
#define TENDON_MESH_CASE(n, md, f)                                                                 \
    case ((n) - 1) * 4 + ((f) ? (md) : 3):                                                         \
        v = rows ? vmesh_loop(m, pal, v, end, (n), (f) ? (md) : mode, (f), 1, op, on, ot)          \
                 : vmesh_loop(m, pal, v, end, (n), (f) ? (md) : mode, (f), 0, op, on, ot);         \
        break;
#define TENDON_MESH_CASES(n)                                                                       \
    TENDON_MESH_CASE(n, 0, 1) TENDON_MESH_CASE(n, 1, 1) TENDON_MESH_CASE(n, 2, 1)                  \
    TENDON_MESH_CASE(n, 0, 0)
        TENDON_MESH_CASES(1) TENDON_MESH_CASES(2) TENDON_MESH_CASES(3) TENDON_MESH_CASES(4)
#undef TENDON_MESH_CASES
#undef TENDON_MESH_CASE
    default: break; /* unreachable for a created mesh: the scalar tail does everything */
    }
    tendon_skin_mesh_scalar(m, palette, v, end - v, op, on, ot);
}

#if TENDON_WF >= 8
/* A mesh's pass (vskin_mesh_run, vskin_mesh_dq_run) over a palette or table of 16 floats an
   entry. */
typedef void (*vmesh_run_fn)(const tendon_skin_mesh *m, const float *table, size_t first,
                             size_t count, float *op, float *on, float *ot);

/* run on a copy of the mesh's palette or table (vpalette_copy_pays), in this frame */
TENDON_NOINLINE void vskin_mesh_copied(vmesh_run_fn run, const tendon_skin_mesh *m,
                                       const float *table, size_t first, size_t count,
                                       float *op, float *on, float *ot)
{
    _Alignas(64) float aligned[16 * TENDON_PALETTE_ALIGN_MAX];
    memcpy(aligned, table, 16 * sizeof(float) * m->palette_count);
    run(m, aligned, first, count, op, on, ot);
}
#endif

void TENDON_FN(skin_mesh)(const tendon_skin_mesh *m, const float *palette, size_t first,
                          size_t count, float *op, float *on, float *ot)
{
#if TENDON_WF >= 8
    if (vpalette_copy_pays(palette, m->palette_count, count)) {
        vskin_mesh_copied(vskin_mesh_run, m, palette, first, count, op, on, ot);
        return;
    }
#endif
    vskin_mesh_run(m, palette, first, count, op, on, ot);
}

/* ---- dual quaternions (src/common/dq_ref.h) ----------------------------------------------------- */

/* WF palette matrices from p (16 floats each) as one vector per element: E[e] lane i = p[16i+e]. */
TENDON_AINLINE void vdq_load_matrices(const float *p, vf E[16])
{
    vf blk[TENDON_MG][TENDON_WF];
    for (int i = 0; i < TENDON_WF; ++i)
        for (int g = 0; g < TENDON_MG; ++g)
            blk[g][i] = vfload(p + 16 * (size_t)i + g * TENDON_WF);
    for (int g = 0; g < TENDON_MG; ++g) {
        vftranspose(blk[g]);
        for (int r = 0; r < TENDON_WF; ++r)
            E[g * TENDON_WF + r] = blk[g][r];
    }
}

TENDON_AINLINE vf vdq_dot3(vf ax, vf ay, vf az, vf bx, vf by, vf bz)
{
    return vfadd(vfadd(vfmul(ax, bx), vfmul(ay, by)), vfmul(az, bz));
}

/* |v| ≤ t, false for NaN */
TENDON_AINLINE vfmask vdq_within(vf v, vf t) { return vfmand(vfle(v, t), vfle(vfneg(t), v)); }

/* tendon_ref_dq_metrics lane-wise: s (snapped) and the lanes that tendon_ref_dq_check refuses. */
TENDON_AINLINE vfmask vdq_metrics(const vf *E, vf *s_out)
{
    const vf l0 = vfsqrt(vdq_dot3(E[0], E[1], E[2], E[0], E[1], E[2]));
    const vf l1 = vfsqrt(vdq_dot3(E[4], E[5], E[6], E[4], E[5], E[6]));
    const vf l2 = vfsqrt(vdq_dot3(E[8], E[9], E[10], E[8], E[9], E[10]));
    const vf one = vfset1(1.0f);
    vf s = vfdiv(vfadd(vfadd(l0, l1), l2), vfset1(3.0f));
    s = vfsel(vdq_within(vfsub(s, one), vfset1(TENDON_DQ_SCALE_SNAP)), one, s);
    *s_out = s;
    const vf d01 = vdq_dot3(E[0], E[1], E[2], E[4], E[5], E[6]);
    const vf d02 = vdq_dot3(E[0], E[1], E[2], E[8], E[9], E[10]);
    const vf d12 = vdq_dot3(E[4], E[5], E[6], E[8], E[9], E[10]);
    const vf kx = vfsub(vfmul(E[5], E[10]), vfmul(E[6], E[9]));
    const vf ky = vfsub(vfmul(E[6], E[8]), vfmul(E[4], E[10]));
    const vf kz = vfsub(vfmul(E[4], E[9]), vfmul(E[5], E[8]));
    const vf det = vfadd(vfadd(vfmul(E[0], kx), vfmul(E[1], ky)), vfmul(E[2], kz));
    const vf big = vfset1(3.40282347e38f);
    vfmask ok = vfgt(det, vfset1(0.0f));
    for (int e = 0; e < 15; ++e)
        if ((e & 3) != 3)
            ok = vfmand(ok, vdq_within(E[e], big));
    const vf tl = vfmul(vfset1(TENDON_DQ_RIGID_TOL), s), tl2 = vfmul(tl, s);
    ok = vfmand(ok, vfmand(vdq_within(vfsub(l0, s), tl),
                           vfmand(vdq_within(vfsub(l1, s), tl), vdq_within(vfsub(l2, s), tl))));
    ok = vfmand(ok, vfmand(vdq_within(d01, tl2), vfmand(vdq_within(d02, tl2),
                                                         vdq_within(d12, tl2))));
    return ok;
}

/* tendon_ref_dq_convert lane-wise: q[0..7] the dual quaternion's components. */
TENDON_AINLINE void vdq_convert(const vf *E, vf s, vf q[8])
{
    const vf is = vfdiv(vfset1(1.0f), s);
    const vf r00 = vfmul(E[0], is), r10 = vfmul(E[1], is), r20 = vfmul(E[2], is);
    const vf r01 = vfmul(E[4], is), r11 = vfmul(E[5], is), r21 = vfmul(E[6], is);
    const vf r02 = vfmul(E[8], is), r12 = vfmul(E[9], is), r22 = vfmul(E[10], is);
    const vf t0 = vfadd(vfadd(r00, r11), r22), t1 = vfsub(vfsub(r00, r11), r22);
    const vf t2 = vfsub(vfsub(r11, r00), r22), t3 = vfsub(vfsub(r22, r00), r11);
    /* the case: 0, then 1, 2, 3 where strictly larger, as the reference's ifs */
    const vfmask c1 = vfgt(t1, t0);
    vf t = vfsel(c1, t1, t0);
    const vfmask c2 = vfgt(t2, t);
    t = vfsel(c2, t2, t);
    const vfmask c3 = vfgt(t3, t);
    t = vfsel(c3, t3, t);
    const vf root = vfmul(vfset1(0.5f), vfsqrt(vfadd(vfset1(1.0f), t)));
    const vf f = vfdiv(vfset1(0.25f), root);
    const vf dwx = vfmul(vfsub(r21, r12), f), dwy = vfmul(vfsub(r02, r20), f);
    const vf dwz = vfmul(vfsub(r10, r01), f), sxy = vfmul(vfadd(r01, r10), f);
    const vf sxz = vfmul(vfadd(r02, r20), f), syz = vfmul(vfadd(r12, r21), f);
    /* case 0: (dwx dwy dwz root); 1: (root sxy sxz dwx); 2: (sxy root syz dwy);
       3: (sxz syz root dwz) — the later case wins, as the reference's last if */
    vf x = dwx, y = dwy, z = dwz, w = root;
    x = vfsel(c1, root, x), y = vfsel(c1, sxy, y), z = vfsel(c1, sxz, z), w = vfsel(c1, dwx, w);
    /* c2 and c3 were taken against the running maximum, so the last true one is the case */
    x = vfsel(c2, sxy, x), y = vfsel(c2, root, y), z = vfsel(c2, syz, z), w = vfsel(c2, dwy, w);
    x = vfsel(c3, sxz, x), y = vfsel(c3, syz, y), z = vfsel(c3, root, z), w = vfsel(c3, dwz, w);
    const vf n2 = vfadd(vfadd(vfadd(vfmul(x, x), vfmul(y, y)), vfmul(z, z)), vfmul(w, w));
    vf inv = vfdiv(vfset1(1.0f), vfsqrt(n2));
    inv = vfsel(vflt(w, vfset1(0.0f)), vfneg(inv), inv);
    x = vfmul(x, inv), y = vfmul(y, inv), z = vfmul(z, inv), w = vfmul(w, inv);
    const vf tx = E[12], ty = E[13], tz = E[14], half = vfset1(0.5f);
    q[0] = x, q[1] = y, q[2] = z, q[3] = w;
    q[4] = vfmul(vfsub(vfadd(vfmul(tx, w), vfmul(ty, z)), vfmul(tz, y)), half);
    q[5] = vfmul(vfsub(vfadd(vfmul(ty, w), vfmul(tz, x)), vfmul(tx, z)), half);
    q[6] = vfmul(vfsub(vfadd(vfmul(tz, w), vfmul(tx, y)), vfmul(ty, x)), half);
    q[7] = vfmul(vfneg(vdq_dot3(tx, ty, tz, x, y, z)), half);
}

/*
 * tendon_kernels.palette_to_dual_quat: WF matrices at a time in structure of arrays. Every
 * matrix is checked first (a refused one stops the call before anything is written: its
 * index is found by the scalar check, which computes the same bits); then converted.
 */
size_t TENDON_FN(palette_to_dual_quat)(const float *palette, size_t count, float *out)
{
    size_t j = 0;
    for (; j + TENDON_WF <= count; j += TENDON_WF) {
        vf E[16], s;
        vdq_load_matrices(palette + 16 * j, E);
        if (!vfmask_all(vdq_metrics(E, &s)))
            break;
    }
    for (; j < count; ++j) {
        tendon_dq_metrics o;
        tendon_ref_dq_metrics(palette + 16 * j, &o);
        if (tendon_ref_dq_check(palette + 16 * j, &o) != TENDON_DQ_OK)
            return j;
    }
    for (j = 0; j + TENDON_WF <= count; j += TENDON_WF) {
        vf E[16], s, q[8];
        vdq_load_matrices(palette + 16 * j, E);
        vdq_metrics(E, &s);
        vdq_convert(E, s, q);
        _Alignas(64) float rec[8][TENDON_WF], sc[TENDON_WF];
        for (int c = 0; c < 8; ++c)
            vfstore(rec[c], q[c]);
        vfstore(sc, s);
        for (int i = 0; i < TENDON_WF; ++i) {
            float *o = out + 16 * (j + (size_t)i);
            for (int c = 0; c < 8; ++c)
                o[c] = rec[c][i];
            o[8] = sc[i];
            for (int c = 9; c < 16; ++c)
                o[c] = 0.0f;
        }
    }
    tendon_palette_to_dual_quat_scalar_from(palette, j, count, out);
    return count;
}

/* v rotated by the unit quaternion (x y z w): tendon_ref_dq_rotate lane-wise */
TENDON_AINLINE void vdq_rotate(vf x, vf y, vf z, vf w, vf vx, vf vy, vf vz, vf *ox, vf *oy, vf *oz)
{
    const vf cx = vfsub(vfmul(y, vz), vfmul(z, vy));
    const vf cy = vfsub(vfmul(z, vx), vfmul(x, vz));
    const vf cz = vfsub(vfmul(x, vy), vfmul(y, vx));
    const vf ux = vfadd(cx, cx), uy = vfadd(cy, cy), uz = vfadd(cz, cz);
    *ox = vfadd(vfadd(vx, vfmul(w, ux)), vfsub(vfmul(y, uz), vfmul(z, uy)));
    *oy = vfadd(vfadd(vy, vfmul(w, uy)), vfsub(vfmul(z, ux), vfmul(x, uz)));
    *oz = vfadd(vfadd(vz, vfmul(w, uz)), vfsub(vfmul(x, uy), vfmul(y, ux)));
}

/* The weights of influence k across the lanes, wkv[k] (four: one de-interleave). */
TENDON_AINLINE void vdq_weight_lanes(const float *wv0, size_t n, vf wkv[4])
{
    if (n == 4) {
        vfload4(wv0, &wkv[0], &wkv[1], &wkv[2], &wkv[3]);
    } else {
        _Alignas(64) float wt[4][TENDON_WF];
        for (int i = 0; i < TENDON_WF; ++i)
            for (size_t k = 0; k < n; ++k)
                wt[k][i] = wv0[n * (size_t)i + k];
        for (size_t k = 0; k < n; ++k)
            wkv[k] = vfload(wt[k]);
    }
}

#if TENDON_WF <= 8
/*
 * Row form (the 4- and 8-lane ISAs; issue 12). The lane form transposes every influence's eight
 * components into lanes to take the antipodality dot there: four transposes a vertex, which the
 * 16-lane AVX-512 absorbs and these do not. For palettes of up to TENDON_DQ_ROWS_MAX entries a
 * call instead makes, once, the dot's verdict for every pair of entries — which record, q or
 * −q, influence b contributes to a vertex whose first influence is a — and the blend runs on
 * whole records like linear blending's rows: each vertex's b = Σ wk·(±qk) from its influences'
 * 8-float records (one vector or two), the WF blended records transposed once.
 * wk·(−q) is exactly the reference's (−wk)·q (rounding is symmetric; a NaN's sign is not
 * promised), and the dot is the reference's, in its order ((x + y) + z) + w, negative where the
 * reference's `d < 0` holds (NaN: not). So the bits are the lane form's.
 */
#define TENDON_DQ_ROWS_MAX 64
typedef struct vdq_rows {
    _Alignas(64) float rec[2 * TENDON_DQ_ROWS_MAX][8]; /* entry j: q_j at j, −q_j at count + j */
    /* pick[a / 4][b][a % 4]: the byte offset in rec of b's record or its negation, for a vertex
       whose first influence is a. Four rows interleaved, so row a's entry for b sits 8·b bytes
       past its first — and 8·b is b's value in the mesh's pre-scaled joints plane: an influence
       costs its loads and no index arithmetic. row[a]: the byte offset in pick of row a's
       first entry, 8 bytes an entry: at a's plane value. */
    uint16_t pick[TENDON_DQ_ROWS_MAX / 4][TENDON_DQ_ROWS_MAX][4];
    uint64_t row[TENDON_DQ_ROWS_MAX];
} vdq_rows;

static void vdq_rows_make(const float *dq, size_t count, size_t stride, vdq_rows *t)
{
    _Alignas(64) float r[4][TENDON_DQ_ROWS_MAX], d_row[TENDON_DQ_ROWS_MAX];
    for (size_t j = 0; j < count; ++j)
        for (int g = 0; g < 8 / TENDON_WF; ++g) {
            const vf q = vfload(dq + 16 * j + g * TENDON_WF);
            vfstore(t->rec[j] + g * TENDON_WF, q);
            vfstore(t->rec[count + j] + g * TENDON_WF, vfneg(q));
        }
    for (size_t j = 0; j < stride; ++j)
        for (int c = 0; c < 4; ++c)
            r[c][j] = j < count ? dq[16 * j + (size_t)c] : 0.0f;
    for (size_t a = 0; a < count; ++a) {
        const float *qa = dq + 16 * a;
        const vf x = vfset1(qa[0]), y = vfset1(qa[1]), z = vfset1(qa[2]), w = vfset1(qa[3]);
        for (size_t b = 0; b < stride; b += TENDON_WF)
            vfstore(d_row + b,
                    vfadd(vfadd(vfadd(vfmul(x, vfload(r[0] + b)), vfmul(y, vfload(r[1] + b))),
                                vfmul(z, vfload(r[2] + b))),
                          vfmul(w, vfload(r[3] + b))));
        for (size_t b = 0; b < count; ++b)
            t->pick[a / 4][b][a % 4] =
                (uint16_t)(sizeof t->rec[0] * (d_row[b] < 0.0f ? count + b : b));
        t->row[a] = (uint64_t)((const unsigned char *)&t->pick[a / 4][0][a % 4] -
                               (const unsigned char *)t->pick);
    }
}

/* vmesh_blend_dq in row form: acc[e] lane i = component e of vertex v0 + i's b, and the
   scales' sum (unsigned weights) in sacc when positions are wanted. */
TENDON_AINLINE void vdq_blend_rows(const vdq_rows *t, const float *dq, const uint16_t *jv,
                                   unsigned shift, const float *wv0, size_t n, int scales,
                                   int unit, vf acc[8], vf *sacc)
{
    vf part[8 / TENDON_WF][TENDON_WF];
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 8
#endif
    for (int i = 0; i < TENDON_WF; ++i) {
        const uint16_t *ji = jv + n * (size_t)i;
        const float *wi = wv0 + n * (size_t)i;
        const uint64_t row =
            *(const uint64_t *)vmesh_entry(t->row, sizeof t->row[0], shift, ji[0]);
        const unsigned char *pick = (const unsigned char *)t->pick + row;
        const float *q0 = vmesh_entry(t->rec, sizeof t->rec[0], shift, ji[0]);
        const vf w0 = vfset1(wi[0]);
        for (int g = 0; g < 8 / TENDON_WF; ++g)
            part[g][i] = vfmul(w0, vfload(q0 + g * TENDON_WF));
        for (size_t k = 1; k < n; ++k) {
            const uint16_t at =
                *(const uint16_t *)vmesh_entry(pick, 4 * sizeof t->pick[0][0][0], shift, ji[k]);
            const float *qk = (const float *)(const void *)((const unsigned char *)t->rec + at);
            const vf wk = vfset1(wi[k]);
            for (int g = 0; g < 8 / TENDON_WF; ++g)
                part[g][i] = vfadd(part[g][i], vfmul(wk, vfload(qk + g * TENDON_WF)));
        }
    }
    for (int g = 0; g < 8 / TENDON_WF; ++g) {
        vftranspose(part[g]);
        for (int e = 0; e < TENDON_WF; ++e)
            acc[g * TENDON_WF + e] = part[g][e];
    }
    if (!scales)
        return;
    /* the scales: s = Σ wk·sk with the unsigned weights, lane-wise as the lane form has it */
    vf wkv[4];
    vdq_weight_lanes(wv0, n, wkv);
    vf s = vfset1(0.0f);
    for (size_t k = 0; k < n; ++k) {
        vf sk = wkv[k]; /* wk·1 */
        if (!unit) {
            _Alignas(64) float sv[TENDON_WF];
            for (int i = 0; i < TENDON_WF; ++i)
                sv[i] = ((const float *)vmesh_entry(dq, 16 * sizeof(float), shift,
                                                   jv[n * (size_t)i + k]))[8];
            sk = vfmul(wkv[k], vfload(sv));
        }
        s = k == 0 ? sk : vfadd(s, sk);
    }
    *sacc = s;
}
#endif

/* vmesh_blend_dq in lane form: each influence's eight components gathered across the
   lanes, the sign from the dot with the first influence's real part there; acc and sacc as
   vdq_blend_rows gives them. */
TENDON_AINLINE void vdq_blend_lanes(const float *dq, const uint16_t *jv, unsigned shift,
                                    const float *wv0, size_t n, int scales, int unit_scales,
                                    vf acc[8], vf *sacc_out)
{
    vf sacc = vfset1(0.0f), wkv[4];
    vdq_weight_lanes(wv0, n, wkv);
    vf r0[4];
    for (int e = 0; e < 8; ++e)
        acc[e] = sacc; /* (k = 0 overwrites: n ≥ 1) */
    for (int e = 0; e < 4; ++e)
        r0[e] = sacc;
    for (size_t k = 0; k < n; ++k) {
        const float *pk[TENDON_WF];
        for (int i = 0; i < TENDON_WF; ++i)
            pk[i] = vmesh_entry(dq, 16 * sizeof(float), shift, jv[n * (size_t)i + k]);
        const vf wk = wkv[k];
        vf ws = wk, c[8];
#if TENDON_WF == 4
        /* four lanes: the real parts first (the sign needs only them), then the dual parts —
           sixteen vectors live at most, what the 128-bit ISAs have */
        {
            vf rr[4] = {vfload(pk[0]), vfload(pk[1]), vfload(pk[2]), vfload(pk[3])};
            vftranspose(rr);
            for (int e = 0; e < 4; ++e)
                c[e] = rr[e];
        }
#else
        vfgather8(pk, c);
#endif
        if (k == 0) {
            for (int e = 0; e < 4; ++e)
                r0[e] = c[e];
        } else {
            const vf d = vfadd(vfadd(vfadd(vfmul(r0[0], c[0]), vfmul(r0[1], c[1])),
                                     vfmul(r0[2], c[2])),
                               vfmul(r0[3], c[3]));
            ws = vfsel(vflt(d, vfset1(0.0f)), vfneg(wk), wk);
        }
#if TENDON_WF == 4
        for (int e = 0; e < 4; ++e)
            acc[e] = k == 0 ? vfmul(ws, c[e]) : vfadd(acc[e], vfmul(ws, c[e]));
        {
            vf dd[4] = {vfload(pk[0] + 4), vfload(pk[1] + 4), vfload(pk[2] + 4),
                        vfload(pk[3] + 4)};
            vftranspose(dd);
            for (int e = 0; e < 4; ++e)
                acc[4 + e] = k == 0 ? vfmul(ws, dd[e]) : vfadd(acc[4 + e], vfmul(ws, dd[e]));
        }
#else
        for (int e = 0; e < 8; ++e)
            acc[e] = k == 0 ? vfmul(ws, c[e]) : vfadd(acc[e], vfmul(ws, c[e]));
#endif
        if (scales) {
            vf sk;
            if (unit_scales) {
                sk = wk; /* wk·1 */
            } else {
                _Alignas(64) float sv[TENDON_WF];
                for (int i = 0; i < TENDON_WF; ++i)
                    sv[i] = pk[i][8];
                sk = vfmul(wk, vfload(sv));
            }
            sacc = k == 0 ? sk : vfadd(sacc, sk);
        }
    }
    *sacc_out = sacc;
}

/*
 * Vertices [v0, v0 + WF) of a mesh by dual quaternions (tendon_ref_mesh_vertex_dq lane-wise), in
 * three parts, as the linear-blend mesh loop's: vmesh_blend_dq (the blended dual quaternion and
 * scale: lane form, or row form over a call's tables `rows` when `rowform`, above),
 * vmesh_norm_dq (its inverse length: the √ and ÷) and
 * vmesh_end_dq (the normalised rotation and translation applied, stored). The packed loop runs
 * norm(i), blend(i + 1), end(i): the chain from a block's √ and ÷ through its rotations runs
 * beside the next block's blend instead of before it (docs/skinning.md, "The next block's blend
 * beside the normalisation"). The same operations on the same values: the same bits.
 * unit_scales: every palette scale is exactly 1 (checked per call), so s is the weights' sum —
 * the same bits as Σ wk·1 — and no scale is gathered.
 */
typedef struct vdq_pending {
    vf acc[8], sacc, inv;
} vdq_pending;

TENDON_AINLINE void vmesh_blend_dq(const tendon_skin_mesh *m, const float *dq, const void *rows,
                                   size_t v0, size_t n, unsigned shift, int positions,
                                   int unit_scales, int rowform, vdq_pending *p)
{
    const size_t l0 = v0 % TENDON_MESH_LANES;
    const unsigned char *b = tendon_mesh_block(m, v0 / TENDON_MESH_LANES);
    const uint16_t *jv = (const uint16_t *)(const void *)b + n * l0;
    const float *wv0 = (const float *)(const void *)(b + tendon_mesh_off_w(n)) + n * l0;
#if TENDON_WF <= 8
    if (rowform)
        vdq_blend_rows((const vdq_rows *)rows, dq, jv, shift, wv0, n, positions, unit_scales,
                       p->acc, &p->sacc);
    else
#else
    (void)rows, (void)rowform;
#endif
        vdq_blend_lanes(dq, jv, shift, wv0, n, positions, unit_scales, p->acc, &p->sacc);
}
TENDON_AINLINE void vmesh_norm_dq(vdq_pending *p)
{
    const vf zero = vfset1(0.0f);
    const vf *acc = p->acc;
    const vf n2 = vfadd(vfadd(vfadd(vfmul(acc[0], acc[0]), vfmul(acc[1], acc[1])),
                              vfmul(acc[2], acc[2])),
                        vfmul(acc[3], acc[3]));
    p->inv = vfsel(vfgt(n2, zero), vfdiv(vfset1(1.0f), vfsqrt(n2)), zero);
}

TENDON_AINLINE void vmesh_end_dq(const tendon_skin_mesh *m, size_t v0, size_t n, int mode,
                                 int fast, const vdq_pending *p, float *op, float *on, float *ot)
{
    const size_t l0 = v0 % TENDON_MESH_LANES;
    const unsigned char *b = tendon_mesh_block(m, v0 / TENDON_MESH_LANES);
    const vf *acc = p->acc, sacc = p->sacc, inv = p->inv;
    const vf x = vfmul(acc[0], inv), y = vfmul(acc[1], inv), z = vfmul(acc[2], inv);
    const vf w = vfmul(acc[3], inv);
#define TENDON_PLANE(off, c)                                                                       \
    ((const float *)(const void *)(b + (off)) + TENDON_MESH_LANES * (c) + l0)
    const size_t off_p = tendon_mesh_off_p(n), off_n = tendon_mesh_off_n(n);
    const size_t off_t = tendon_mesh_off_t(n, 1);
    if (fast || op) {
        const vf dx = vfmul(acc[4], inv), dy = vfmul(acc[5], inv), dz = vfmul(acc[6], inv);
        const vf dw = vfmul(acc[7], inv);
        const vf tx = vfadd(vfsub(vfmul(w, dx), vfmul(dw, x)), vfsub(vfmul(y, dz), vfmul(z, dy)));
        const vf ty = vfadd(vfsub(vfmul(w, dy), vfmul(dw, y)), vfsub(vfmul(z, dx), vfmul(x, dz)));
        const vf tz = vfadd(vfsub(vfmul(w, dz), vfmul(dw, z)), vfsub(vfmul(x, dy), vfmul(y, dx)));
        vf px, py, pz;
        vdq_rotate(x, y, z, w, vfmul(vfload(TENDON_PLANE(off_p, 0)), sacc),
                   vfmul(vfload(TENDON_PLANE(off_p, 1)), sacc),
                   vfmul(vfload(TENDON_PLANE(off_p, 2)), sacc), &px, &py, &pz);
        px = vfadd(px, vfadd(tx, tx)), py = vfadd(py, vfadd(ty, ty)), pz = vfadd(pz, vfadd(tz, tz));
        if (fast)
            vfstore3(op + 3 * v0, px, py, pz);
        else
            vskin_store3(op, m->out_stride[0], v0, px, py, pz);
    }
    if (mode >= 1) {
        vf nx, ny, nz;
        if (fast || on) {
            vdq_rotate(x, y, z, w, vfload(TENDON_PLANE(off_n, 0)), vfload(TENDON_PLANE(off_n, 1)),
                       vfload(TENDON_PLANE(off_n, 2)), &nx, &ny, &nz);
            if (fast)
                vfstore3(on + 3 * v0, nx, ny, nz);
            else
                vskin_store3(on, m->out_stride[1], v0, nx, ny, nz);
        }
        if (mode >= 2) {
            vf tx, ty, tz;
            vdq_rotate(x, y, z, w, vfload(TENDON_PLANE(off_t, 0)), vfload(TENDON_PLANE(off_t, 1)),
                       vfload(TENDON_PLANE(off_t, 2)), &tx, &ty, &tz);
            const vf tw = vfload(TENDON_PLANE(off_t, 3));
            if (fast)
                vfstore4(ot + 4 * v0, tx, ty, tz, tw);
            else
                vskin_store4(ot, m->out_stride[2], v0, tx, ty, tz, tw);
        }
    }
#undef TENDON_PLANE
}

TENDON_AINLINE size_t vmesh_loop_dq(const tendon_skin_mesh *m, const float *dq, const void *rows,
                                    size_t v, size_t end, size_t n, int mode, int fast, int unit,
                                    int rowform, float *op, float *on, float *ot)
{
    const unsigned shift = fast ? TENDON_MESH_JOINT_SHIFT : m->joint_shift;
    if (fast && v + TENDON_WF <= end) {
        vdq_pending p; /* block v's blend; the next's beside its normalisation */
        vmesh_blend_dq(m, dq, rows, v, n, shift, 1, unit, rowform, &p);
        for (; v + 2 * TENDON_WF <= end; v += TENDON_WF) {
            vdq_pending next;
            vmesh_norm_dq(&p);
            vmesh_blend_dq(m, dq, rows, v + TENDON_WF, n, shift, 1, unit, rowform, &next);
            vmesh_end_dq(m, v, n, mode, 1, &p, op, on, ot);
            for (int e = 0; e < 8; ++e)
                p.acc[e] = next.acc[e];
            p.sacc = next.sacc;
        }
        vmesh_norm_dq(&p);
        vmesh_end_dq(m, v, n, mode, 1, &p, op, on, ot);
        return v + TENDON_WF;
    }
    for (; v + TENDON_WF <= end; v += TENDON_WF) {
        vdq_pending p;
        vmesh_blend_dq(m, dq, rows, v, n, shift, fast || op, unit, rowform, &p);
        vmesh_norm_dq(&p);
        vmesh_end_dq(m, v, n, mode, fast, &p, op, on, ot);
    }
    return v;
}

/* The row form pays (its tables' cost repaid): packed outputs, two influences or more, a palette
   of up to TENDON_DQ_ROWS_MAX entries and enough whole vectors of vertices. */
#if TENDON_WF <= 8
TENDON_AINLINE int vdq_rows_pay(const tendon_skin_mesh *m, int fast, size_t vectors)
{
    const size_t pc = m->palette_count;
    return fast && m->influence_count > 1 && pc <= TENDON_DQ_ROWS_MAX && vectors >= 64 &&
           vectors >= pc * pc / 2;
}
#endif

#if TENDON_WF <= 8
/* The row form over [v, end) (vdq_rows_pay: packed outputs, 2-4 influences), its tables in this
   frame (12.5 KiB): a call that takes the lane form has none on its stack. Returns where it
   stopped (whole vectors). */
TENDON_NOINLINE size_t vskin_mesh_dq_rows(const tendon_skin_mesh *m, const float *dq, size_t v,
                                          size_t end, int mode, int unit, float *op, float *on,
                                          float *ot)
{
    vdq_rows t;
    const size_t pc = m->palette_count;
    /* (the dots in blocks of WF entries: the real parts padded to a multiple of WF) */
    vdq_rows_make(dq, pc, (pc + TENDON_WF - 1) / TENDON_WF * TENDON_WF, &t);
    /* the scales' kind at run time */
    switch ((m->influence_count - 1) * 4 + (size_t)mode) {
#define TENDON_DQ_CASE(n, md)                                                                      \
    case ((n) - 1) * 4 + (md):                                                                     \
        return vmesh_loop_dq(m, dq, &t, v, end, (n), (md), 1, unit, 1, op, on, ot);
#define TENDON_DQ_CASES(n) TENDON_DQ_CASE(n, 0) TENDON_DQ_CASE(n, 1) TENDON_DQ_CASE(n, 2)
        TENDON_DQ_CASES(2) TENDON_DQ_CASES(3) TENDON_DQ_CASES(4)
#undef TENDON_DQ_CASES
#undef TENDON_DQ_CASE
    default: return v; /* unreachable: vdq_rows_pay asks for 2-4 influences */
    }
}
#endif

TENDON_NOINLINE void vskin_mesh_dq_run(const tendon_skin_mesh *m, const float *dq, size_t first,
                                       size_t count, float *op, float *on, float *ot)
{
    const size_t end = first + count;
    size_t v = (first + TENDON_WF - 1) / TENDON_WF * TENDON_WF;
    if (v > end)
        v = end;
    tendon_skin_mesh_dq_scalar(m, dq, first, v - first, op, on, ot);
    const int mode = ot ? 2 : on ? 1 : 0;
    const int fast = vmesh_fast(m, mode, op, on);
    int unit = 1; /* every scale exactly 1: O(palette_count) reads, no gather per vertex */
    for (size_t j = 0; j < m->palette_count && unit; ++j)
        unit = dq[16 * j + 8] == 1.0f;
#if TENDON_WF <= 8
    if (vdq_rows_pay(m, fast, end - v))
        v = vskin_mesh_dq_rows(m, dq, v, end, mode, unit, op, on, ot);
    else
#endif
        /* as skin_mesh: packed outputs with n and the mode constants, else one per n */
        switch ((m->influence_count - 1) * 4 + (size_t)(fast ? mode : 3)) {
#define TENDON_DQ_CASE(n, md, f)                                                                   \
    case ((n) - 1) * 4 + ((f) ? (md) : 3):                                                         \
        v = unit ? vmesh_loop_dq(m, dq, NULL, v, end, (n), (f) ? (md) : mode, (f), 1, 0, op, on,   \
                                 ot)                                                               \
                 : vmesh_loop_dq(m, dq, NULL, v, end, (n), (f) ? (md) : mode, (f), 0, 0, op, on,   \
                                 ot);                                                              \
        break;
#define TENDON_DQ_CASES(n)                                                                         \
    TENDON_DQ_CASE(n, 0, 1) TENDON_DQ_CASE(n, 1, 1) TENDON_DQ_CASE(n, 2, 1) TENDON_DQ_CASE(n, 0, 0)
            TENDON_DQ_CASES(1) TENDON_DQ_CASES(2) TENDON_DQ_CASES(3) TENDON_DQ_CASES(4)
#undef TENDON_DQ_CASES
#undef TENDON_DQ_CASE
        default: break;
        }
    tendon_skin_mesh_dq_scalar(m, dq, v, end - v, op, on, ot);
}

void TENDON_FN(skin_mesh_dq)(const tendon_skin_mesh *m, const float *dq, size_t first,
                             size_t count, float *op, float *on, float *ot)
{
#if TENDON_WF >= 8
    /* the lane form loads whole records: copied where the palette's would be; the row form
       (AVX2) reads the table only to make its own, aligned ones */
    int rows = 0;
#if TENDON_WF <= 8
    const size_t v = (first + TENDON_WF - 1) / TENDON_WF * TENDON_WF, end = first + count;
    rows = vdq_rows_pay(m, vmesh_fast(m, ot ? 2 : on ? 1 : 0, op, on), end > v ? end - v : 0);
#endif
    if (!rows && vpalette_copy_pays(dq, m->palette_count, count)) {
        vskin_mesh_copied(vskin_mesh_dq_run, m, dq, first, count, op, on, ot);
        return;
    }
#endif
    vskin_mesh_dq_run(m, dq, first, count, op, on, ot);
}

/* ---- morph targets -------------------------------------------------------------------------- */

void TENDON_FN(morph)(const float *base, const float *const *deltas, const float *weights,
                      size_t target_count, size_t float_count, float *out)
{
    size_t e = 0;
    for (; e + 4 * TENDON_WF <= float_count; e += 4 * TENDON_WF) {
        vf acc[4];
        for (int k = 0; k < 4; ++k)
            acc[k] = vfload(base + e + k * TENDON_WF);
        for (size_t t = 0; t < target_count; ++t) {
            const float w = weights[t];
            if (w != 0.0f) {
                const vf vw = vfset1(w);
                const float *d = deltas[t] + e;
                for (int k = 0; k < 4; ++k)
                    acc[k] = vfadd(acc[k], vfmul(vw, vfload(d + k * TENDON_WF)));
            }
        }
        for (int k = 0; k < 4; ++k)
            vfstore(out + e + k * TENDON_WF, acc[k]);
    }
    for (; e + TENDON_WF <= float_count; e += TENDON_WF) {
        vf acc = vfload(base + e);
        for (size_t t = 0; t < target_count; ++t) {
            const float w = weights[t];
            if (w != 0.0f)
                acc = vfadd(acc, vfmul(vfset1(w), vfload(deltas[t] + e)));
        }
        vfstore(out + e, acc);
    }
    tendon_morph_scalar_from(base, deltas, weights, target_count, e, float_count, out);
}
