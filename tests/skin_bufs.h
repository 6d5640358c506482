/*
 * Vertex buffers for the skinning suites (test_skin.c, test_skin_mesh.c; header-only, static):
 * one job's inputs and outputs in a chosen layout — packed, interleaved in one vertex buffer,
 * unaligned, or in place — filled from a seed, and a bit-for-bit comparison of two jobs'
 * outputs that prints both values in hex.
 */
#ifndef TENDON_TEST_SKIN_BUFS_H
#define TENDON_TEST_SKIN_BUFS_H

#include "skin_support.h"

typedef struct skin_case {
    size_t n, n_inf, isz;
    int mode;   /* 0 positions, 1 + normals, 2 + tangents */
    int layout; /* 0 packed, 1 interleaved, 2 unaligned, 3 in place */
} skin_case;

/* One vertex-buffer set for a case, filled from r; the job's strides are resolved. */
typedef struct skin_bufs {
    tbuf in, out, jb, wb, pb, nb, tb;
    tendon_skin_job job;
} skin_bufs;

/* interleaved: position 0, normal 12, tangent 24, weights 40, joints 56 in; position 0, normal
 * 16, tangent 32 out */
enum { ISTRIDE = 72, OSTRIDE = 48 };

static inline void skin_bufs_make(skin_bufs *b, const skin_case *c, const float *palette, size_t pc,
                           uint64_t seed)
{
    test_rng r;
    rng_seed(&r, seed);
    const size_t n = c->n, isz = c->isz, ni = c->n_inf;
    memset(b, 0, sizeof *b);
    tendon_skin_job *j = &b->job;
    j->palette = palette, j->palette_count = pc, j->vertex_count = n, j->influence_count = ni;
    j->joint_index_type = isz == 2 ? TENDON_JOINT_INDEX_U16 : TENDON_JOINT_INDEX_U8;
    unsigned char *jp, *wp, *pp, *np, *tp;
    if (c->layout == 1) {
        b->in = tbuf_make(ISTRIDE * n, 0);
        b->out = tbuf_make(OSTRIDE * n, 0);
        pp = b->in.p, np = b->in.p + 12, tp = b->in.p + 24, wp = b->in.p + 40, jp = b->in.p + 56;
        j->positions_stride = j->normals_stride = j->tangents_stride = ISTRIDE;
        j->weights_stride = j->joints_stride = ISTRIDE;
        j->out_positions = (float *)(void *)b->out.p;
        j->out_normals = (float *)(void *)(b->out.p + 16);
        j->out_tangents = (float *)(void *)(b->out.p + 32);
        j->out_positions_stride = j->out_normals_stride = j->out_tangents_stride = OSTRIDE;
    } else {
        const size_t off = c->layout == 2 ? 4 : 0;
        b->jb = tbuf_make(n * ni * isz, c->layout == 2 ? 2 : 0);
        b->wb = tbuf_make(n * ni * 4, off);
        b->pb = tbuf_make(n * 12, off);
        b->nb = tbuf_make(n * 12, off ? 8 : 0);
        b->tb = tbuf_make(n * 16, off ? 12 : 0);
        jp = b->jb.p, wp = b->wb.p, pp = b->pb.p, np = b->nb.p, tp = b->tb.p;
        j->joints_stride = ni * isz, j->weights_stride = ni * 4;
        j->positions_stride = j->normals_stride = 12, j->tangents_stride = 16;
        j->out_positions_stride = j->out_normals_stride = 12, j->out_tangents_stride = 16;
        if (c->layout == 3) {
            j->out_positions = (float *)(void *)pp, j->out_normals = (float *)(void *)np;
            j->out_tangents = (float *)(void *)tp;
        } else {
            b->out = tbuf_make(n * 40 + 8, off);
            j->out_positions = (float *)(void *)b->out.p;
            j->out_normals = (float *)(void *)(b->out.p + 12 * n + 4);
            j->out_tangents = (float *)(void *)(b->out.p + 24 * n + 8);
        }
    }
    j->joints = jp, j->weights = (const float *)(void *)wp;
    j->positions = (const float *)(void *)pp;
    j->normals = c->mode >= 1 ? (const float *)(void *)np : NULL;
    j->tangents = c->mode >= 2 ? (const float *)(void *)tp : NULL;
    if (c->mode < 1)
        j->out_normals = NULL;
    if (c->mode < 2)
        j->out_tangents = NULL;
    for (size_t v = 0; v < n; ++v) {
        for (size_t i = 0; i < ni; ++i) {
            const unsigned idx = (unsigned)(rng_u64(&r) % pc);
            if (isz == 2) {
                const uint16_t s = (uint16_t)idx;
                memcpy(jp + v * j->joints_stride + 2 * i, &s, 2);
            } else {
                jp[v * j->joints_stride + i] = (uint8_t)idx;
            }
            float wv = rng_unit(&r) < 0.1 ? 0.0f : (float)rng_range(&r, -0.2, 1.2);
            memcpy(wp + v * j->weights_stride + 4 * i, &wv, 4);
        }
        for (int k = 0; k < 4; ++k) {
            float pv = (float)rng_range(&r, -2, 2), nv = (float)rng_range(&r, -1, 1);
            float tv = k < 3 ? (float)rng_range(&r, -1, 1) : (rng_unit(&r) < 0.5 ? -1.0f : 1.0f);
            if (rng_unit(&r) < 0.01)
                pv = 0.0f, nv = -0.0f, tv = -0.0f;
            if (k < 3) {
                memcpy(pp + v * j->positions_stride + 4 * k, &pv, 4);
                memcpy(np + v * j->normals_stride + 4 * k, &nv, 4);
            }
            memcpy(tp + v * j->tangents_stride + 4 * k, &tv, 4);
        }
    }
}

static inline void skin_bufs_free(skin_bufs *b)
{
    tbuf_free(&b->in), tbuf_free(&b->out), tbuf_free(&b->jb);
    tbuf_free(&b->wb), tbuf_free(&b->pb), tbuf_free(&b->nb), tbuf_free(&b->tb);
}

static inline void compare_outputs(const skin_bufs *a, const skin_bufs *b, const char *isa,
                            const skin_case *c)
{
    static const char *const what[3] = {"position", "normal", "tangent"};
    for (size_t v = 0; v < c->n; ++v) {
        float x[4], y[4];
        for (int which = 0; which <= c->mode; ++which) {
            const tendon_skin_job *ja = &a->job, *jb = &b->job;
            const float *pa = which == 2 ? ja->out_tangents : which ? ja->out_normals
                                                                    : ja->out_positions;
            const float *pb = which == 2 ? jb->out_tangents : which ? jb->out_normals
                                                                    : jb->out_positions;
            const size_t sa = which == 2 ? ja->out_tangents_stride
                              : which    ? ja->out_normals_stride
                                         : ja->out_positions_stride;
            const size_t nf = which == 2 ? 4 : 3;
            memcpy(x, (const char *)pa + v * sa, 4 * nf);
            memcpy(y, (const char *)pb + v * sa, 4 * nf);
            const long d = first_float_diff(x, y, nf);
            ck_assert_msg(d < 0,
                          "%s skin n=%zu influences=%zu index bytes=%zu mode=%d layout=%d: "
                          "vertex %zu %s[%ld]: %s 0x%08x (%.9g), scalar 0x%08x (%.9g)",
                          isa, c->n, c->n_inf, c->isz, c->mode, c->layout, v, what[which], d,
                          isa, d < 0 ? 0 : float_bits(x[d]), d < 0 ? 0.0 : (double)x[d],
                          d < 0 ? 0 : float_bits(y[d]), d < 0 ? 0.0 : (double)y[d]);
        }
    }
}

/* Joint index k of vertex v in a case's buffers (u16 indices): read, and set. */
static inline uint16_t skin_bufs_joint(const skin_bufs *b, size_t v, size_t k)
{
    uint16_t idx;
    memcpy(&idx, (const unsigned char *)b->job.joints + v * b->job.joints_stride + 2 * k, 2);
    return idx;
}
static inline void skin_bufs_set_joint(skin_bufs *b, size_t v, size_t k, uint16_t idx)
{
    memcpy((unsigned char *)(void *)b->job.joints + v * b->job.joints_stride + 2 * k, &idx, 2);
}

static inline float *random_palette(test_rng *r, size_t pc)
{
    float *pal = malloc(pc * 64 + 4);
    for (size_t e = 0; e < pc * 16; ++e)
        pal[e] = (float)rng_range(r, -2, 2);
    for (size_t k = 0; k < pc; ++k)
        pal[16 * k + 3] = pal[16 * k + 7] = pal[16 * k + 11] = 0.0f, pal[16 * k + 15] = 1.0f;
    /* a few adversarial entries: signed zeros, denormals, huge */
    pal[5] = -0.0f, pal[17] = 1e-40f, pal[40] = 3e30f;
    return pal;
}

#endif
