/*
 * The scalar reference of the matrix kernels, in float32, one element at a time.
 *
 * This is the meaning of local matrices, the 4×4 product, linear-blend skinning (positions,
 * normals, tangents) and morph
 * targets in tendon: every SIMD body (src/simd/kernels/skin.inl.h) performs these operations in
 * this order, lane-wise, so its bits equal these. Compiled with -ffp-contract=off and
 * -fno-math-errno: no product is fused into an FMA, and __builtin_sqrtf is the correctly rounded
 * instruction, never a libm call. Branches here are selects there, on the same comparison.
 */
#ifndef TENDON_SKIN_REF_H
#define TENDON_SKIN_REF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tendon/skin.h"

/** T·R·S of one joint into m[16] (column-major); the quaternion as given. */
static inline void tendon_ref_local_matrix(const float t[3], const float q[4], const float s[3],
                                           float m[16])
{
    const float x = q[0], y = q[1], z = q[2], w = q[3];
    const float x2 = x + x, y2 = y + y, z2 = z + z;
    const float xx = x * x2, yy = y * y2, zz = z * z2;
    const float xy = x * y2, xz = x * z2, yz = y * z2;
    const float wx = w * x2, wy = w * y2, wz = w * z2;
    m[0] = (1.0f - (yy + zz)) * s[0];
    m[1] = (xy + wz) * s[0];
    m[2] = (xz - wy) * s[0];
    m[3] = 0.0f;
    m[4] = (xy - wz) * s[1];
    m[5] = (1.0f - (xx + zz)) * s[1];
    m[6] = (yz + wx) * s[1];
    m[7] = 0.0f;
    m[8] = (xz + wy) * s[2];
    m[9] = (yz - wx) * s[2];
    m[10] = (1.0f - (xx + yy)) * s[2];
    m[11] = 0.0f;
    m[12] = t[0];
    m[13] = t[1];
    m[14] = t[2];
    m[15] = 1.0f;
}

/**
 * c = a × b, the 4×4 product of the skeleton pipeline (model matrices, palette), column-major,
 * each element's four products **summed pairwise** (issue 12; docs/determinism.md, "Pairwise
 * products"):
 *   c[4j+r] = (a[r]·b[4j] + a[4+r]·b[4j+1]) + (a[8+r]·b[4j+2] + a[12+r]·b[4j+3])
 * so a chain of products waits on two dependent additions, not three. c may be exactly a or b.
 */
static inline void tendon_ref_mat4_mul(const float *a, const float *b, float *c)
{
    float r[16];
    for (int j = 0; j < 4; ++j)
        for (int i = 0; i < 4; ++i)
            r[4 * j + i] = (a[i] * b[4 * j] + a[4 + i] * b[4 * j + 1]) +
                           (a[8 + i] * b[4 * j + 2] + a[12 + i] * b[4 * j + 3]);
    memcpy(c, r, sizeof r);
}

/** One joint of the model-matrix pass (see tendon_model_matrices). */
static inline void tendon_ref_model_joint(const float *local, const int32_t *parents,
                                          const float *root, size_t j, float *model)
{
    const int32_t p = parents[j];
    if (p >= 0)
        tendon_ref_mat4_mul(model + 16 * (size_t)p, local + 16 * j, model + 16 * j);
    else if (root)
        tendon_ref_mat4_mul(root, local + 16 * j, model + 16 * j);
    else if (model != local)
        memcpy(model + 16 * j, local + 16 * j, 16 * sizeof(float));
}

/** The joint index of influence i of a vertex whose indices start at p. */
static inline unsigned tendon_ref_joint_index(const void *p, tendon_joint_index_type type, size_t i)
{
    if (type == TENDON_JOINT_INDEX_U16) {
        uint16_t v;
        memcpy(&v, (const unsigned char *)p + 2 * i, sizeof v);
        return v;
    }
    return ((const unsigned char *)p)[i];
}

/**
 * The blended matrix of one vertex, rows 0..2 of each column (m[4c+r], r < 3; the bottom row is
 * left unwritten): m[e] = ((w0·P[j0][e] + w1·P[j1][e]) + w2·P[j2][e]) + w3·P[j3][e], first n terms.
 */
static inline void tendon_ref_skin_blend(const float *palette, const unsigned j[4],
                                         const float w[4], size_t n, float m[16])
{
    for (int e = 0; e < 16; ++e) {
        if ((e & 3) == 3)
            continue;
        float acc = w[0] * palette[16 * (size_t)j[0] + e];
        for (size_t i = 1; i < n; ++i)
            acc = acc + w[i] * palette[16 * (size_t)j[i] + e];
        m[e] = acc;
    }
}

/** position' = ((M0·x + M1·y) + M2·z) + M3, rows 0..2. */
static inline void tendon_ref_skin_position(const float m[16], const float p[3], float out[3])
{
    for (int r = 0; r < 3; ++r)
        out[r] = ((m[r] * p[0] + m[4 + r] * p[1]) + m[8 + r] * p[2]) + m[12 + r];
}

/**
 * The normal by the inverse transpose of the blended 3×3 A = (a b c) (columns of m): the
 * cofactor columns b×c, c×a, a×b, normalised, negated when det A < 0.
 */
static inline void tendon_ref_skin_normal(const float m[16], const float n[3], float out[3])
{
    const float c0x = m[5] * m[10] - m[6] * m[9];
    const float c0y = m[6] * m[8] - m[4] * m[10];
    const float c0z = m[4] * m[9] - m[5] * m[8];
    const float c1x = m[9] * m[2] - m[10] * m[1];
    const float c1y = m[10] * m[0] - m[8] * m[2];
    const float c1z = m[8] * m[1] - m[9] * m[0];
    const float c2x = m[1] * m[6] - m[2] * m[5];
    const float c2y = m[2] * m[4] - m[0] * m[6];
    const float c2z = m[0] * m[5] - m[1] * m[4];
    const float det = (m[0] * c0x + m[1] * c0y) + m[2] * c0z;
    const float vx = (c0x * n[0] + c1x * n[1]) + c2x * n[2];
    const float vy = (c0y * n[0] + c1y * n[1]) + c2y * n[2];
    const float vz = (c0z * n[0] + c1z * n[1]) + c2z * n[2];
    const float s = (vx * vx + vy * vy) + vz * vz;
    float inv = s > 0.0f ? 1.0f / __builtin_sqrtf(s) : 0.0f;
    if (det < 0.0f)
        inv = -inv;
    out[0] = vx * inv;
    out[1] = vy * inv;
    out[2] = vz * inv;
}

/**
 * The tangent by the blended 3×3 A = (a b c) itself (columns of m), normalised; w negated when
 * det A < 0 (det as tendon_ref_skin_normal computes it: (a.x·c0.x + a.y·c0.y) + a.z·c0.z with
 * c0 = b×c).
 */
static inline void tendon_ref_skin_tangent(const float m[16], const float t[4], float out[4])
{
    const float c0x = m[5] * m[10] - m[6] * m[9];
    const float c0y = m[6] * m[8] - m[4] * m[10];
    const float c0z = m[4] * m[9] - m[5] * m[8];
    const float det = (m[0] * c0x + m[1] * c0y) + m[2] * c0z;
    const float ux = (m[0] * t[0] + m[4] * t[1]) + m[8] * t[2];
    const float uy = (m[1] * t[0] + m[5] * t[1]) + m[9] * t[2];
    const float uz = (m[2] * t[0] + m[6] * t[1]) + m[10] * t[2];
    const float s = (ux * ux + uy * uy) + uz * uz;
    const float inv = s > 0.0f ? 1.0f / __builtin_sqrtf(s) : 0.0f;
    out[0] = ux * inv;
    out[1] = uy * inv;
    out[2] = uz * inv;
    out[3] = det < 0.0f ? -t[3] : t[3];
}

/** Byte-strided element i of an array. */
static inline const void *tendon_ref_at(const void *base, size_t stride, size_t i)
{
    return (const unsigned char *)base + i * stride;
}

/** Skin vertex i of a validated job (strides resolved): read everything, then write. */
static inline void tendon_ref_skin_vertex(const tendon_skin_job *job, size_t i)
{
    const size_t n = job->influence_count;
    const void *jp = tendon_ref_at(job->joints, job->joints_stride, i);
    const float *wp = (const float *)tendon_ref_at(job->weights, job->weights_stride, i);
    unsigned j[4] = {0, 0, 0, 0};
    float w[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (size_t k = 0; k < n; ++k) {
        j[k] = tendon_ref_joint_index(jp, job->joint_index_type, k);
        w[k] = wp[k];
    }
    float m[16], p[3], nrm[3], tan[4], out_p[3], out_n[3], out_t[4];
    tendon_ref_skin_blend(job->palette, j, w, n, m);
    memcpy(p, tendon_ref_at(job->positions, job->positions_stride, i), sizeof p);
    if (job->normals)
        memcpy(nrm, tendon_ref_at(job->normals, job->normals_stride, i), sizeof nrm);
    if (job->tangents)
        memcpy(tan, tendon_ref_at(job->tangents, job->tangents_stride, i), sizeof tan);
    tendon_ref_skin_position(m, p, out_p);
    memcpy((unsigned char *)job->out_positions + i * job->out_positions_stride, out_p, sizeof out_p);
    if (job->normals) {
        tendon_ref_skin_normal(m, nrm, out_n);
        memcpy((unsigned char *)job->out_normals + i * job->out_normals_stride, out_n,
               sizeof out_n);
    }
    if (job->tangents) {
        tendon_ref_skin_tangent(m, tan, out_t);
        memcpy((unsigned char *)job->out_tangents + i * job->out_tangents_stride, out_t,
               sizeof out_t);
    }
}

#endif
