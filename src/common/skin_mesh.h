/*
 * Internal: the prepared skinning mesh's storage (tendon_skin_mesh, tendon/skin.h) and its scalar
 * reference, shared by src/skin_mesh.c (which builds it), src/scalar/skin_scalar.c and the SIMD
 * body (src/simd/kernels/skin.inl.h). Not installed.
 *
 * The layout does not depend on the ISA (a mesh made under one ISA is applied under any): the
 * vertices in **blocks of 16** (the widest vector, AVX-512's 16 floats; 4 and 8 divide it),
 * each block structure-of-arrays, 64-byte aligned, every plane one 64-byte line:
 *
 *   uint16 joints[16][n]      lane l's n indices together (one load fetches a vertex's; u8 or
 *                             u16 in the job: widened), each as index << joint_shift (below),
 *                             the section padded to 64 bytes
 *   float  weights[16][n]     lane l's n weights together, as given (finite: NaN and ±∞
 *                             refused at creation)
 *   float  positions[3][16]   x, then y, then z of the 16 lanes
 *   float  normals[3][16]     when the mesh has normals
 *   float  tangents[4][16]    when it has tangents (x, y, z, w)
 *
 * n = influence_count (1..4). Lanes past vertex_count in the last block are zero (joint 0,
 * weight 0, zero attributes); no kernel writes them out. Vertex v is lane v % 16 of block
 * v / 16. Bytes per block: 64·⌈n/2⌉ + 64·n + 192 (+ 192 normals) (+ 256 tangents).
 */
#ifndef TENDON_SKIN_MESH_H
#define TENDON_SKIN_MESH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "skin_ref.h"

#define TENDON_MESH_LANES 16

/*
 * The joints plane holds index << joint_shift: TENDON_MESH_JOINT_SHIFT (3) when every joint
 * index of the mesh is below TENDON_MESH_SCALED_MAX (8192) — every value then still fits 16
 * bits — and 0 otherwise. A value of the plane is the byte offset of its palette entry (64
 * bytes) divided by 8, so a
 * kernel addresses the entry as base + 8·value, an x86 scaled index: no shift and no add per
 * influence, which the per-vertex index arithmetic (a shift and an add for each of four
 * indices, on the ports the vector arithmetic uses) cost (docs/skinning.md, "Joint indices
 * pre-scaled in the mesh"). The same for every ISA.
 */
#define TENDON_MESH_JOINT_SHIFT 3u
#define TENDON_MESH_SCALED_MAX ((size_t)65536 >> TENDON_MESH_JOINT_SHIFT)

/*
 * The planes' byte offsets within a block, from n and whether the mesh has normals: what
 * src/skin_mesh.c lays out, and what a kernel specialised on n computes as constants.
 */
static inline size_t tendon_mesh_off_w(size_t n) { return 64 * ((n + 1) / 2); }
static inline size_t tendon_mesh_off_p(size_t n) { return tendon_mesh_off_w(n) + 64 * n; }
static inline size_t tendon_mesh_off_n(size_t n) { return tendon_mesh_off_p(n) + 192; }
static inline size_t tendon_mesh_off_t(size_t n, int normals)
{
    return tendon_mesh_off_n(n) + (normals ? 192 : 0);
}

/* tendon_skin_mesh_outputs bits (tendon/skin.h TENDON_SKIN_OUTPUT_*) */
struct tendon_skin_mesh {
    size_t vertex_count;
    size_t influence_count; /* 1..4 */
    size_t palette_count;   /* every joint index is below it (checked at creation) */
    unsigned joint_shift;   /* the joints plane holds index << joint_shift (above) */
    size_t block_count;     /* ⌈vertex_count / 16⌉ */
    size_t block_bytes;     /* a multiple of 64 */
    size_t off_w, off_p, off_n, off_t; /* byte offsets of the planes within a block */
    unsigned outputs;       /* what apply may write: positions, + normals, + tangents */
    size_t out_stride[3];   /* positions, normals, tangents: resolved (nonzero) byte strides */
    size_t bytes;           /* everything the mesh owns (struct + blocks) */
    unsigned char *blocks;  /* block_count × block_bytes, 64-byte aligned */
};

static inline const unsigned char *tendon_mesh_block(const struct tendon_skin_mesh *m, size_t b)
{
    return m->blocks + b * m->block_bytes;
}
/** Lane l's n joint plane values (n = influence_count): index << m->joint_shift. */
static inline const uint16_t *tendon_mesh_joints(const struct tendon_skin_mesh *m,
                                                 const unsigned char *blk, size_t l)
{
    return (const uint16_t *)(const void *)blk + m->influence_count * l;
}
/** Lane l's n weights. */
static inline const float *tendon_mesh_weights(const struct tendon_skin_mesh *m,
                                               const unsigned char *blk, size_t l)
{
    return (const float *)(const void *)(blk + m->off_w) + m->influence_count * l;
}
/** Component c of the positions (0 x, 1 y, 2 z) of a block's 16 lanes. */
static inline const float *tendon_mesh_pos(const struct tendon_skin_mesh *m,
                                           const unsigned char *blk, size_t c)
{
    return (const float *)(const void *)(blk + m->off_p) + TENDON_MESH_LANES * c;
}
static inline const float *tendon_mesh_nrm(const struct tendon_skin_mesh *m,
                                           const unsigned char *blk, size_t c)
{
    return (const float *)(const void *)(blk + m->off_n) + TENDON_MESH_LANES * c;
}
static inline const float *tendon_mesh_tan(const struct tendon_skin_mesh *m,
                                           const unsigned char *blk, size_t c)
{
    return (const float *)(const void *)(blk + m->off_t) + TENDON_MESH_LANES * c;
}

/** The joints and weights of vertex v (the first n entries; the rest 0). */
static inline void tendon_ref_mesh_influences(const struct tendon_skin_mesh *m, size_t v,
                                              unsigned j[4], float w[4])
{
    const unsigned char *blk = tendon_mesh_block(m, v / TENDON_MESH_LANES);
    const size_t l = v % TENDON_MESH_LANES;
    for (size_t k = 0; k < 4; ++k) {
        j[k] = k < m->influence_count ? (unsigned)tendon_mesh_joints(m, blk, l)[k] >> m->joint_shift
                                      : 0;
        w[k] = k < m->influence_count ? tendon_mesh_weights(m, blk, l)[k] : 0.0f;
    }
}

/**
 * Linear-blend skinning of vertex v of a mesh: tendon_ref_skin_vertex's arithmetic on the
 * mesh's copies, writing each non-NULL output (pointers to vertex 0, the mesh's strides).
 */
static inline void tendon_ref_mesh_vertex(const struct tendon_skin_mesh *m, const float *palette,
                                          size_t v, float *op, float *on, float *ot)
{
    const unsigned char *blk = tendon_mesh_block(m, v / TENDON_MESH_LANES);
    const size_t l = v % TENDON_MESH_LANES;
    unsigned j[4];
    float w[4], mtx[16];
    tendon_ref_mesh_influences(m, v, j, w);
    tendon_ref_skin_blend(palette, j, w, m->influence_count, mtx);
    if (op) {
        const float p[3] = {tendon_mesh_pos(m, blk, 0)[l], tendon_mesh_pos(m, blk, 1)[l],
                            tendon_mesh_pos(m, blk, 2)[l]};
        float o[3];
        tendon_ref_skin_position(mtx, p, o);
        memcpy((unsigned char *)op + v * m->out_stride[0], o, sizeof o);
    }
    if (on) {
        const float n[3] = {tendon_mesh_nrm(m, blk, 0)[l], tendon_mesh_nrm(m, blk, 1)[l],
                            tendon_mesh_nrm(m, blk, 2)[l]};
        float o[3];
        tendon_ref_skin_normal(mtx, n, o);
        memcpy((unsigned char *)on + v * m->out_stride[1], o, sizeof o);
    }
    if (ot) {
        const float t[4] = {tendon_mesh_tan(m, blk, 0)[l], tendon_mesh_tan(m, blk, 1)[l],
                            tendon_mesh_tan(m, blk, 2)[l], tendon_mesh_tan(m, blk, 3)[l]};
        float o[4];
        tendon_ref_skin_tangent(mtx, t, o);
        memcpy((unsigned char *)ot + v * m->out_stride[2], o, sizeof o);
    }
}

#endif
