/*
 * The scalar reference of dual-quaternion skinning (tendon/skin.h): a palette matrix → its
 * rigid part as a unit dual quaternion and a uniform scale, and one vertex of a prepared mesh
 * skinned by them. float32, every sum in the order written here; the SIMD body
 * (src/simd/kernels/skin.inl.h, "dual quaternions") performs the same operations lane-wise,
 * branches as selects on the same comparisons, so its bits equal these. Compiled with
 * -ffp-contract=off and -fno-math-errno: __builtin_sqrtf is the correctly rounded instruction.
 */
#ifndef TENDON_DQ_REF_H
#define TENDON_DQ_REF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "skin_mesh.h"

/* A scale within this of 1 is 1 exactly (the common case: model × inverse bind of a rig whose
 * inverse binds carry the inverse of its scale, rounded). 2⁻²⁰ ≈ 9.5e-7. */
#define TENDON_DQ_SCALE_SNAP 0x1p-20f
/* Rigidity tolerance, relative: column lengths within 2⁻¹⁰ of their mean, and columns
 * orthogonal within 2⁻¹⁰ (|cos| of the angle between two). */
#define TENDON_DQ_RIGID_TOL 0x1p-10f

/* Why a matrix is refused (tendon_ref_dq_check's result). */
enum {
    TENDON_DQ_OK = 0,
    TENDON_DQ_NONFINITE = 1, /* an element of rows 0..2 is NaN or ±∞ */
    TENDON_DQ_MIRROR = 2,    /* det of the 3×3 ≤ 0: a reflection or a degenerate matrix */
    TENDON_DQ_SCALE = 3,     /* a column's length differs from the mean by more than the tol */
    TENDON_DQ_SHEAR = 4      /* two columns are not orthogonal within the tolerance */
};

/** What the conversion of one matrix computes first (and the check reads). */
typedef struct tendon_dq_metrics {
    float l0, l1, l2;       /* column lengths √((a.x² + a.y²) + a.z²) */
    float s;                /* ((l0 + l1) + l2) / 3, snapped to 1 within TENDON_DQ_SCALE_SNAP */
    float d01, d02, d12;    /* column dot products ((a.x·b.x + a.y·b.y) + a.z·b.z) */
    float det;              /* (c0.x·k.x + c0.y·k.y) + c0.z·k.z, k = c1 × c2 */
} tendon_dq_metrics;

static inline float tendon_dq_dot3(const float *a, const float *b)
{
    return (a[0] * b[0] + a[1] * b[1]) + a[2] * b[2];
}

static inline void tendon_ref_dq_metrics(const float *m, tendon_dq_metrics *o)
{
    o->l0 = __builtin_sqrtf(tendon_dq_dot3(m, m));
    o->l1 = __builtin_sqrtf(tendon_dq_dot3(m + 4, m + 4));
    o->l2 = __builtin_sqrtf(tendon_dq_dot3(m + 8, m + 8));
    float s = ((o->l0 + o->l1) + o->l2) / 3.0f;
    const float ds = s - 1.0f;
    if (ds <= TENDON_DQ_SCALE_SNAP && ds >= -TENDON_DQ_SCALE_SNAP)
        s = 1.0f;
    o->s = s;
    o->d01 = tendon_dq_dot3(m, m + 4);
    o->d02 = tendon_dq_dot3(m, m + 8);
    o->d12 = tendon_dq_dot3(m + 4, m + 8);
    const float kx = m[5] * m[10] - m[6] * m[9];
    const float ky = m[6] * m[8] - m[4] * m[10];
    const float kz = m[4] * m[9] - m[5] * m[8];
    o->det = (m[0] * kx + m[1] * ky) + m[2] * kz;
}

/**
 * Whether palette matrix m (rows 0..2 read) is a rotation, a translation and a uniform scale:
 * TENDON_DQ_OK, else why not. Every comparison is false for NaN, so NaN fails as wanted:
 *   finite:     every element of rows 0..2 satisfies −FLT_MAX ≤ e ≤ FLT_MAX
 *   det > 0
 *   uniform:    |lc − s| ≤ tol·s for c = 0, 1, 2 (s before snapping is within 2⁻²⁰ of it)
 *   orthogonal: |dij| ≤ (tol·s)·s for each pair
 */
static inline int tendon_ref_dq_check(const float *m, const tendon_dq_metrics *o)
{
    for (int e = 0; e < 15; ++e) {
        if ((e & 3) == 3)
            continue;
        if (!(m[e] >= -3.40282347e38f && m[e] <= 3.40282347e38f))
            return TENDON_DQ_NONFINITE;
    }
    if (!(o->det > 0.0f))
        return TENDON_DQ_MIRROR;
    const float tl = TENDON_DQ_RIGID_TOL * o->s, tl2 = tl * o->s;
    const float e0 = o->l0 - o->s, e1 = o->l1 - o->s, e2 = o->l2 - o->s;
    if (!(e0 <= tl && e0 >= -tl && e1 <= tl && e1 >= -tl && e2 <= tl && e2 >= -tl))
        return TENDON_DQ_SCALE;
    if (!(o->d01 <= tl2 && o->d01 >= -tl2 && o->d02 <= tl2 && o->d02 >= -tl2 &&
          o->d12 <= tl2 && o->d12 >= -tl2))
        return TENDON_DQ_SHEAR;
    return TENDON_DQ_OK;
}

/**
 * The dual quaternion of an accepted palette matrix m into out[16]: real part (x y z w) of the
 * rotation R = A·(1/s) by Shepperd's method — the largest of the four candidates
 *   t0 = (R00 + R11) + R22,  t1 = (R00 − R11) − R22,  t2 = (R11 − R00) − R22,
 *   t3 = (R22 − R00) − R11
 * (first in that order on ties) gives root = 0.5·√(1 + t) and f = 0.25 / root, the other three
 * components from the differences and sums of R's off-diagonal pairs times f — then
 * normalised (q · 1/√(((x² + y²) + z²) + w²)) and turned to w ≥ 0 (negated if w < 0); dual part
 * 0.5·(t, 0) ⊗ q; out[8] = s; out[9..15] = 0. out may be exactly m (everything is read first).
 */
static inline void tendon_ref_dq_convert(const float *m, const tendon_dq_metrics *o, float *out)
{
    const float is = 1.0f / o->s;
    /* R[r][c] = m[4c + r] · is */
    const float r00 = m[0] * is, r10 = m[1] * is, r20 = m[2] * is;
    const float r01 = m[4] * is, r11 = m[5] * is, r21 = m[6] * is;
    const float r02 = m[8] * is, r12 = m[9] * is, r22 = m[10] * is;
    const float t0 = (r00 + r11) + r22, t1 = (r00 - r11) - r22;
    const float t2 = (r11 - r00) - r22, t3 = (r22 - r00) - r11;
    int c = 0;
    float t = t0;
    if (t1 > t)
        c = 1, t = t1;
    if (t2 > t)
        c = 2, t = t2;
    if (t3 > t)
        c = 3, t = t3;
    const float root = 0.5f * __builtin_sqrtf(1.0f + t);
    const float f = 0.25f / root;
    const float dwx = (r21 - r12) * f, dwy = (r02 - r20) * f, dwz = (r10 - r01) * f;
    const float sxy = (r01 + r10) * f, sxz = (r02 + r20) * f, syz = (r12 + r21) * f;
    float x, y, z, w;
    if (c == 0)
        x = dwx, y = dwy, z = dwz, w = root;
    else if (c == 1)
        x = root, y = sxy, z = sxz, w = dwx;
    else if (c == 2)
        x = sxy, y = root, z = syz, w = dwy;
    else
        x = sxz, y = syz, z = root, w = dwz;
    const float n2 = ((x * x + y * y) + z * z) + w * w;
    float inv = 1.0f / __builtin_sqrtf(n2);
    if (w < 0.0f)
        inv = -inv;
    x = x * inv, y = y * inv, z = z * inv, w = w * inv;
    const float tx = m[12], ty = m[13], tz = m[14], s = o->s;
    out[0] = x, out[1] = y, out[2] = z, out[3] = w;
    out[4] = ((tx * w + ty * z) - tz * y) * 0.5f;
    out[5] = ((ty * w + tz * x) - tx * z) * 0.5f;
    out[6] = ((tz * w + tx * y) - ty * x) * 0.5f;
    out[7] = -((tx * x + ty * y) + tz * z) * 0.5f;
    out[8] = s;
    for (int e = 9; e < 16; ++e)
        out[e] = 0.0f;
}

/** v rotated by the unit quaternion (x y z w): c = q×v, u = c + c, v + w·u + q×u. */
static inline void tendon_ref_dq_rotate(float x, float y, float z, float w, const float v[3],
                                        float out[3])
{
    const float cx = y * v[2] - z * v[1], cy = z * v[0] - x * v[2], cz = x * v[1] - y * v[0];
    const float ux = cx + cx, uy = cy + cy, uz = cz + cz;
    out[0] = (v[0] + w * ux) + (y * uz - z * uy);
    out[1] = (v[1] + w * uy) + (z * ux - x * uz);
    out[2] = (v[2] + w * uz) + (x * uy - y * ux);
}

/**
 * Vertex v of a mesh skinned by dual quaternions dq (16 floats per palette entry):
 *   w'k = −wk where ((r0·rk)) < 0 (r the real parts; the dot in x, y, z, w order, summed
 *   ((x + y) + z) + w), else wk; k = 0 keeps w0
 *   b = ((w'0·dq0 + w'1·dq1) + w'2·dq2) + w'3·dq3   (8 components, the first n terms)
 *   s = ((w0·s0 + w1·s1) + w2·s2) + w3·s3          (the scales, unsigned weights)
 *   n² = ((b.x² + b.y²) + b.z²) + b.w²,  inv = n² > 0 ? 1/√n² : 0,  q = b.real·inv,
 *   d = b.dual·inv
 *   t = 2·((q.w·d.xyz − d.w·q.xyz) + q.xyz × d.xyz)  (per component: ((w·dx − dw·x) + (y·dz −
 *   z·dy)) + the same again)
 *   position' = rotate(q, s·p) + t,  normal' = rotate(q, n),  tangent' = (rotate(q, t.xyz), t.w)
 */
static inline void tendon_ref_mesh_vertex_dq(const struct tendon_skin_mesh *m, const float *dq,
                                             size_t v, float *op, float *on, float *ot)
{
    const unsigned char *blk = tendon_mesh_block(m, v / TENDON_MESH_LANES);
    const size_t l = v % TENDON_MESH_LANES, n = m->influence_count;
    unsigned j[4];
    float w[4];
    tendon_ref_mesh_influences(m, v, j, w);
    const float *q0 = dq + 16 * (size_t)j[0];
    float b[8] = {0, 0, 0, 0, 0, 0, 0, 0}, s = 0.0f; /* n ≥ 1: overwritten by k = 0 */
    for (size_t k = 0; k < n; ++k) {
        const float *qk = dq + 16 * (size_t)j[k];
        float wk = w[k];
        if (k > 0) {
            const float d = ((q0[0] * qk[0] + q0[1] * qk[1]) + q0[2] * qk[2]) + q0[3] * qk[3];
            if (d < 0.0f)
                wk = -wk;
        }
        for (int c = 0; c < 8; ++c)
            b[c] = k == 0 ? wk * qk[c] : b[c] + wk * qk[c];
        s = k == 0 ? w[k] * qk[8] : s + w[k] * qk[8];
    }
    const float n2 = ((b[0] * b[0] + b[1] * b[1]) + b[2] * b[2]) + b[3] * b[3];
    const float inv = n2 > 0.0f ? 1.0f / __builtin_sqrtf(n2) : 0.0f;
    const float x = b[0] * inv, y = b[1] * inv, z = b[2] * inv, qw = b[3] * inv;
    const float dx = b[4] * inv, dy = b[5] * inv, dz = b[6] * inv, dw = b[7] * inv;
    if (op) {
        const float tx = (qw * dx - dw * x) + (y * dz - z * dy);
        const float ty = (qw * dy - dw * y) + (z * dx - x * dz);
        const float tz = (qw * dz - dw * z) + (x * dy - y * dx);
        const float p[3] = {tendon_mesh_pos(m, blk, 0)[l] * s, tendon_mesh_pos(m, blk, 1)[l] * s,
                            tendon_mesh_pos(m, blk, 2)[l] * s};
        float r[3];
        tendon_ref_dq_rotate(x, y, z, qw, p, r);
        const float o[3] = {r[0] + (tx + tx), r[1] + (ty + ty), r[2] + (tz + tz)};
        memcpy((unsigned char *)op + v * m->out_stride[0], o, sizeof o);
    }
    if (on) {
        const float nv[3] = {tendon_mesh_nrm(m, blk, 0)[l], tendon_mesh_nrm(m, blk, 1)[l],
                             tendon_mesh_nrm(m, blk, 2)[l]};
        float o[3];
        tendon_ref_dq_rotate(x, y, z, qw, nv, o);
        memcpy((unsigned char *)on + v * m->out_stride[1], o, sizeof o);
    }
    if (ot) {
        const float tv[3] = {tendon_mesh_tan(m, blk, 0)[l], tendon_mesh_tan(m, blk, 1)[l],
                             tendon_mesh_tan(m, blk, 2)[l]};
        float o[4];
        tendon_ref_dq_rotate(x, y, z, qw, tv, o);
        o[3] = tendon_mesh_tan(m, blk, 3)[l];
        memcpy((unsigned char *)ot + v * m->out_stride[2], o, sizeof o);
    }
}

#endif
