/*
 * Dual-quaternion skinning (tendon/skin.h tendon_palette_to_dual_quat, tendon_skin_mesh_apply_dq):
 * every ISA bit for bit against the scalar table; a double-precision oracle for positions and
 * normals within the bound docs/skinning.md states; a rigid palette with one joint per vertex
 * gives linear-blend skinning's answer to that bound; antipodal influences blend the short way;
 * non-rigid joints refused by name, nothing written; and the twist ("candy wrapper") figures
 * docs/skinning.md quotes: a cylinder's waist under linear-blend and dual-quaternion skinning at
 * 90° and 180°.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "skin_bufs.h"
#include "common/skin_mesh.h" /* joint_shift: which regime a mesh's joints plane is in */

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* A rigid palette entry: rotation about a random axis by up to `max_angle`, translation in
 * ±3 m, uniform scale s. */
static void rigid_matrix(test_rng *r, double max_angle, float s, float *m)
{
    double axis[3], len = 0;
    for (int c = 0; c < 3; ++c) {
        axis[c] = rng_range(r, -1, 1);
        len += axis[c] * axis[c];
    }
    len = sqrt(len);
    const double half = rng_range(r, -max_angle / 2, max_angle / 2);
    const float q[4] = {(float)(axis[0] / len * sin(half)), (float)(axis[1] / len * sin(half)),
                        (float)(axis[2] / len * sin(half)), (float)cos(half)};
    const float t[3] = {(float)rng_range(r, -3, 3), (float)rng_range(r, -3, 3),
                        (float)rng_range(r, -3, 3)};
    const float sc[3] = {s, s, s};
    cglm_trs(t, q, sc, m);
}

static float *rigid_palette(test_rng *r, size_t n, int unit_scale)
{
    float *p = malloc(64 * n + 64);
    for (size_t j = 0; j < n; ++j)
        rigid_matrix(r, M_PI * 1.9, unit_scale ? 1.0f : (float)rng_range(r, 0.5, 2.0), p + 16 * j);
    return p;
}

/* ---- every ISA against scalar ------------------------------------------------------------- */

START_TEST(test_isa_palette_to_dual_quat)
{
    ISA_TABLE_OR_RETURN(k);
    const tendon_kernels *ref = tendon_kernels_for(TENDON_ISA_SCALAR);
    const char *isa = tendon_isa_name((tendon_isa)_i);
    test_rng r;
    rng_seed(&r, 0xD0A + (uint64_t)_i);
    for (int ci = 0; ci < SWEEP_COUNT; ++ci) {
        const size_t n = sweep_count(ci) > 300 ? 300 : sweep_count(ci);
        float *pal = rigid_palette(&r, n, ci % 3 == 0);
        float *a = malloc(64 * n + 64), *b = malloc(64 * n + 64);
        ck_assert_uint_eq(k->palette_to_dual_quat(pal, n, a), n);
        ck_assert_uint_eq(ref->palette_to_dual_quat(pal, n, b), n);
        const long d = first_float_diff(a, b, 16 * n);
        ck_assert_msg(d < 0, "%s palette_to_dual_quat n=%zu: float %ld: 0x%08x vs scalar 0x%08x",
                      isa, n, d, d < 0 ? 0 : float_bits(a[d]), d < 0 ? 0 : float_bits(b[d]));
        /* in place */
        memcpy(a, pal, 64 * n);
        ck_assert_uint_eq(k->palette_to_dual_quat(a, n, a), n);
        ck_assert_msg(first_float_diff(a, b, 16 * n) < 0, "%s in place n=%zu", isa, n);
        /* a non-rigid entry at a random place: the same index, nothing written */
        if (n > 0) {
            const size_t bad = (size_t)(rng_u64(&r) % n);
            float *q = pal + 16 * bad;
            switch (ci % 4) {
            case 0: q[0] *= 1.01f, q[1] *= 1.01f, q[2] *= 1.01f; break; /* non-uniform */
            case 1: q[4] += 0.05f * q[0], q[5] += 0.05f * q[1], q[6] += 0.05f * q[2]; break;
            case 2: q[0] = -q[0], q[1] = -q[1], q[2] = -q[2]; break; /* mirror */
            default: q[13] = NAN; break;
            }
            for (size_t e = 0; e < 16 * n; ++e)
                a[e] = 42.0f;
            ck_assert_uint_eq(k->palette_to_dual_quat(pal, n, a), bad);
            ck_assert_uint_eq(ref->palette_to_dual_quat(pal, n, b), bad);
            for (size_t e = 0; e < 16 * n; ++e)
                ck_assert_msg(a[e] == 42.0f, "%s: written on refusal (float %zu)", isa, e);
        }
        free(pal), free(a), free(b);
    }
}
END_TEST

/*
 * The mesh by dual quaternions: every ISA against the scalar table, bit for bit. Palettes of 70
 * entries take the lane form on every ISA; of 64, 13 and 3 the 4- and 8-lane ISAs' row form
 * with its per-call tables where a call skins at least max(64, entries²/2) vertices (the long
 * count — 2100 vertices at 64 entries, the table's largest — and, at 3 entries, 65 vertices too;
 * the split calls below fall short of it, so one call of each kind meets the other).
 */
/*
 * One case: a mesh from the case's buffers (seeded), skinned by table k with dq_k and by the
 * scalar table with dq_ref (the same values, wherever each sits), compared bit for bit; with
 * `split`, k again in two calls cut at a third.
 */
static void dq_case(const tendon_kernels *k, const char *isa, const skin_case *c,
                    const float *pal, size_t pc, const float *dq_k, const float *dq_ref,
                    uint64_t seed, int split)
{
    const tendon_kernels *ref = tendon_kernels_for(TENDON_ISA_SCALAR);
    skin_bufs a, b;
    skin_bufs_make(&a, c, pal, pc, seed);
    skin_bufs_make(&b, c, pal, pc, seed);
    /* finite weights only: a mesh refuses NaN and ±inf */
    tendon_skin_mesh *m;
    ck_assert_int_eq(tendon_skin_mesh_create(&a.job, &m), TENDON_OK);
    const tendon_skin_job *ja = &a.job, *jb = &b.job;
    k->skin_mesh_dq(m, dq_k, 0, c->n, ja->out_positions, ja->out_normals, ja->out_tangents);
    ref->skin_mesh_dq(m, dq_ref, 0, c->n, jb->out_positions, jb->out_normals, jb->out_tangents);
    compare_outputs(&a, &b, isa, c);
    if (split && c->n > 3) { /* split at a third: the same bits */
        const size_t cut = c->n / 3 + 1;
        k->skin_mesh_dq(m, dq_k, 0, cut, ja->out_positions, ja->out_normals, ja->out_tangents);
        k->skin_mesh_dq(m, dq_k, cut, c->n - cut, ja->out_positions, ja->out_normals,
                        ja->out_tangents);
        compare_outputs(&a, &b, isa, c);
    }
    tendon_skin_mesh_destroy(m);
    skin_bufs_free(&a);
    skin_bufs_free(&b);
}

START_TEST(test_isa_skin_mesh_dq)
{
    ISA_TABLE_OR_RETURN(k);
    const tendon_kernels *ref = tendon_kernels_for(TENDON_ISA_SCALAR);
    const char *isa = tendon_isa_name((tendon_isa)_i);
    test_rng r;
    rng_seed(&r, 0xD0B + (uint64_t)_i);
    static const size_t palettes[] = {70, 64, 13, 3};
    for (size_t run = 0; run < 2 * (sizeof palettes / sizeof palettes[0]); ++run) {
        const size_t pi = run / 2, pc = palettes[pi];
        const int unit = (int)(run % 2);
        float *pal = rigid_palette(&r, pc, unit);
        float *dq = malloc(64 * pc);
        ck_assert_uint_eq(ref->palette_to_dual_quat(pal, pc, dq), pc);
        /* the lane form's palette sweeps the counts; the others a short count (lane form), 65
           (row form at 3 entries) and the long one */
        static const int row_counts[] = {44, 65, SWEEP_COUNT - 1};
        const int runs = pi == 0 ? SWEEP_COUNT : (int)(sizeof row_counts / sizeof row_counts[0]);
        for (int ri = 0; ri < runs; ri += pi == 0 && !unit ? 3 : 1) {
            const int ci = pi == 0 ? ri : row_counts[ri];
            /* (the row form: two influences or more, packed outputs only — layouts 0, 2
               (unaligned) and 3 (in place) — and every mode: positions, + normals, + tangents,
               each its own instantiation of the pipelined loop) */
            for (size_t ni = pi ? 2 : 1; ni <= 4; ++ni) {
                for (int mode = 0; mode < 3; ++mode) {
                    for (int layout = 0; layout < 4; layout += pi ? 1 + (layout == 0) : 1 + (ci % 2)) {
                        const size_t count =
                            pc == 64 && ci == SWEEP_COUNT - 1 ? 2100 : sweep_count(ci);
                        const skin_case c = {count, ni, 2, mode, layout};
                        dq_case(k, isa, &c, pal, pc, dq, dq, rng_u64(&r), 1);
                    }
                }
            }
        }
        free(pal), free(dq);
    }
}
END_TEST

/*
 * The dual quaternions wherever a caller's array puts them: 0, 4, 16, 32 and 48 bytes past a
 * 64-byte boundary (AVX2 and AVX-512 copy an unaligned table of up to 256 entries to an aligned
 * block when the call repays it), for the lane form (70 entries) and the row form (64 entries,
 * 2100 vertices), calls shorter than the palette too: the scalar table's bits.
 */
START_TEST(test_isa_skin_mesh_dq_offsets)
{
    ISA_TABLE_OR_RETURN(k);
    const tendon_kernels *ref = tendon_kernels_for(TENDON_ISA_SCALAR);
    const char *isa = tendon_isa_name((tendon_isa)_i);
    test_rng r;
    rng_seed(&r, 0xD0A + (uint64_t)_i);
    static const size_t offsets[] = {0, 4, 16, 32, 48};
    static const size_t palettes[] = {70, 64};
    for (size_t pi = 0; pi < 2; ++pi) {
        const size_t pc = palettes[pi];
        float *pal = rigid_palette(&r, pc, (int)pi);
        float *dq = malloc(64 * pc);
        ck_assert_uint_eq(ref->palette_to_dual_quat(pal, pc, dq), pc);
        for (size_t oi = 0; oi < sizeof offsets / sizeof offsets[0]; ++oi) {
            tbuf qb = tbuf_make(64 * pc, offsets[oi]);
            float *at = (float *)(void *)qb.p;
            memcpy(at, dq, 64 * pc);
            const size_t counts[2] = {pc - 1, pi ? 2100 : 1031};
            for (int ci = 0; ci < 2; ++ci) {
                for (int mode = 0; mode < 3; ++mode) {
                    for (int layout = 0; layout < 2; ++layout) {
                        const skin_case c = {counts[ci], 4, 2, mode, layout};
                        dq_case(k, isa, &c, pal, pc, at, dq, rng_u64(&r), 0);
                    }
                }
            }
            tbuf_free(&qb);
        }
        free(pal), free(dq);
    }
}
END_TEST

/*
 * Palettes around the joints plane's pre-scaling bound (src/common/skin_mesh.h: up to 8192
 * entries the plane holds 8·index; past it, the index, and every call takes the general loop):
 * 8192, 8193 and 65536 entries. Vertices made on 64 indices, then moved to the palette's last
 * 64 entries (index + pc − 64); the same vertices on a 64-entry mesh reading the table from
 * entry pc − 64 are the reference: each ISA on the large mesh bit for bit the scalar table on
 * the small one (different regimes, the same values), unit and non-unit scales, 1–4
 * influences, every mode and layout, whole and split.
 */
START_TEST(test_isa_skin_mesh_dq_large_palettes)
{
    ISA_TABLE_OR_RETURN(k);
    const tendon_kernels *ref = tendon_kernels_for(TENDON_ISA_SCALAR);
    const char *isa = tendon_isa_name((tendon_isa)_i);
    test_rng r;
    rng_seed(&r, 0xD8192 + (uint64_t)_i);
    static const size_t palettes[] = {8192, 8193, 65536};
    for (size_t run = 0; run < 6; ++run) {
        const size_t pc = palettes[run / 2], off = pc - 64;
        float *pal = rigid_palette(&r, pc, (int)(run % 2));
        float *dq = malloc(64 * pc);
        ck_assert_uint_eq(ref->palette_to_dual_quat(pal, pc, dq), pc);
        for (size_t ni = 1; ni <= 4; ++ni) {
            for (int mode = 0; mode < 3; ++mode) {
                for (int layout = 0; layout < 4; ++layout) {
                    const skin_case c = {ni == 4 ? 1031 : 67, ni, 2, mode, layout};
                    const uint64_t seed = rng_u64(&r);
                    skin_bufs a, b;
                    skin_bufs_make(&a, &c, pal, 64, seed);
                    skin_bufs_make(&b, &c, pal, 64, seed);
                    a.job.palette_count = pc;
                    /* on vertex 0: index pc − 1 in the large mesh */
                    skin_bufs_set_joint(&a, 0, 0, 63), skin_bufs_set_joint(&b, 0, 0, 63);
                    for (size_t v = 0; v < c.n; ++v)
                        for (size_t kk = 0; kk < ni; ++kk)
                            skin_bufs_set_joint(&a, v, kk,
                                                (uint16_t)(skin_bufs_joint(&a, v, kk) + off));
                    tendon_skin_mesh *ma, *mb;
                    ck_assert_int_eq(tendon_skin_mesh_create(&a.job, &ma), TENDON_OK);
                    ck_assert_int_eq(tendon_skin_mesh_create(&b.job, &mb), TENDON_OK);
                    ck_assert_uint_eq(ma->joint_shift, pc <= 8192 ? 3u : 0u);
                    const tendon_skin_job *ja = &a.job, *jb = &b.job;
                    ref->skin_mesh_dq(mb, dq + 16 * off, 0, c.n, jb->out_positions,
                                      jb->out_normals, jb->out_tangents);
                    k->skin_mesh_dq(ma, dq, 0, c.n, ja->out_positions, ja->out_normals,
                                    ja->out_tangents);
                    compare_outputs(&a, &b, isa, &c);
                    const size_t cut = c.n / 3 + 1;
                    k->skin_mesh_dq(ma, dq, cut, c.n - cut, ja->out_positions, ja->out_normals,
                                    ja->out_tangents);
                    k->skin_mesh_dq(ma, dq, 0, cut, ja->out_positions, ja->out_normals,
                                    ja->out_tangents);
                    compare_outputs(&a, &b, isa, &c);
                    tendon_skin_mesh_destroy(ma), tendon_skin_mesh_destroy(mb);
                    skin_bufs_free(&a);
                    skin_bufs_free(&b);
                }
            }
        }
        free(pal), free(dq);
    }
}
END_TEST

/* ---- the double-precision oracle ----------------------------------------------------------- */

/* The unit quaternion (x y z w, w ≥ 0) of a rotation matrix in double (Shepperd). */
static void quat_of(const double R[3][3], double q[4])
{
    const double t[4] = {R[0][0] + R[1][1] + R[2][2], R[0][0] - R[1][1] - R[2][2],
                         R[1][1] - R[0][0] - R[2][2], R[2][2] - R[0][0] - R[1][1]};
    int c = 0;
    for (int i = 1; i < 4; ++i)
        if (t[i] > t[c])
            c = i;
    const double root = 0.5 * sqrt(1 + t[c]), f = 0.25 / root;
    const double dwx = (R[2][1] - R[1][2]) * f, dwy = (R[0][2] - R[2][0]) * f;
    const double dwz = (R[1][0] - R[0][1]) * f, sxy = (R[0][1] + R[1][0]) * f;
    const double sxz = (R[0][2] + R[2][0]) * f, syz = (R[1][2] + R[2][1]) * f;
    const double cand[4][4] = {{dwx, dwy, dwz, root}, {root, sxy, sxz, dwx},
                               {sxy, root, syz, dwy}, {sxz, syz, root, dwz}};
    double n = 0;
    for (int i = 0; i < 4; ++i)
        n += cand[c][i] * cand[c][i];
    n = sqrt(n) * (cand[c][3] < 0 ? -1 : 1);
    for (int i = 0; i < 4; ++i)
        q[i] = cand[c][i] / n;
}

/* DQS of one vertex in double, from the palette matrices (taken as exact) */
static void dqs_oracle(const float *pal, const unsigned *j, const float *w, size_t n,
                       const float p[3], const float nrm[3], double out_p[3], double out_n[3])
{
    double b[8] = {0}, s = 0, q0[4] = {0};
    for (size_t k = 0; k < n; ++k) {
        const float *m = pal + 16 * j[k];
        double len[3], R[3][3], q[4];
        for (int c = 0; c < 3; ++c)
            len[c] = sqrt((double)m[4 * c] * m[4 * c] + (double)m[4 * c + 1] * m[4 * c + 1] +
                          (double)m[4 * c + 2] * m[4 * c + 2]);
        const double sk = (len[0] + len[1] + len[2]) / 3;
        for (int rr = 0; rr < 3; ++rr)
            for (int c = 0; c < 3; ++c)
                R[rr][c] = m[4 * c + rr] / sk;
        quat_of(R, q);
        const double t[3] = {m[12], m[13], m[14]};
        const double d[4] = {0.5 * (t[0] * q[3] + t[1] * q[2] - t[2] * q[1]),
                             0.5 * (t[1] * q[3] + t[2] * q[0] - t[0] * q[2]),
                             0.5 * (t[2] * q[3] + t[0] * q[1] - t[1] * q[0]),
                             -0.5 * (t[0] * q[0] + t[1] * q[1] + t[2] * q[2])};
        if (k == 0)
            memcpy(q0, q, sizeof q0);
        const double sign = (q0[0] * q[0] + q0[1] * q[1] + q0[2] * q[2] + q0[3] * q[3]) < 0 ? -1 : 1;
        for (int c = 0; c < 4; ++c)
            b[c] += sign * w[k] * q[c], b[4 + c] += sign * w[k] * d[c];
        s += w[k] * sk;
    }
    const double nn = sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2] + b[3] * b[3]);
    for (int c = 0; c < 8; ++c)
        b[c] /= nn;
    const double x = b[0], y = b[1], z = b[2], qw = b[3];
    const double R[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - z * qw), 2 * (x * z + y * qw)},
                            {2 * (x * y + z * qw), 1 - 2 * (x * x + z * z), 2 * (y * z - x * qw)},
                            {2 * (x * z - y * qw), 2 * (y * z + x * qw), 1 - 2 * (x * x + y * y)}};
    const double tt[3] = {2 * (qw * b[4] - b[7] * x + y * b[6] - z * b[5]),
                          2 * (qw * b[5] - b[7] * y + z * b[4] - x * b[6]),
                          2 * (qw * b[6] - b[7] * z + x * b[5] - y * b[4])};
    for (int rr = 0; rr < 3; ++rr) {
        out_p[rr] = s * (R[rr][0] * p[0] + R[rr][1] * p[1] + R[rr][2] * p[2]) + tt[rr];
        out_n[rr] = R[rr][0] * nrm[0] + R[rr][1] * nrm[1] + R[rr][2] * nrm[2];
    }
}

/*
 * Against the oracle: rigid palettes (rotations of any angle, translations in ±3 m, uniform
 * scales in [0.5, 2] or 1), 1–4 influences with positive weights summing to one, positions in
 * ±1 m, unit normals: |position − oracle| ≤ 4e-6·(1 + |oracle|) and |normal − oracle| ≤ 4e-6 —
 * the bound docs/skinning.md states — on every ISA (they agree bit for bit, above).
 */
START_TEST(test_dq_oracle)
{
    test_rng r;
    rng_seed(&r, 0x0AC1E);
    enum { PC = 40, NV = 3000 };
    double worst_p = 0, worst_n = 0;
    for (int unit = 0; unit < 2; ++unit) {
        float *pal = rigid_palette(&r, PC, unit);
        float dq[16 * PC];
        ck_assert_int_eq(tendon_palette_to_dual_quat(pal, PC, dq), TENDON_OK);
        for (size_t ni = 1; ni <= 4; ++ni) {
            uint16_t *jn = malloc(8 * NV);
            float *w = malloc(16 * NV), *p = malloc(12 * NV), *nr = malloc(12 * NV);
            float *op = malloc(12 * NV), *on = malloc(12 * NV);
            for (size_t v = 0; v < NV; ++v) {
                double sum = 0;
                for (size_t i = 0; i < ni; ++i) {
                    jn[ni * v + i] = (uint16_t)(rng_u64(&r) % PC);
                    w[ni * v + i] = (float)rng_range(&r, 0.05, 1);
                    sum += w[ni * v + i];
                }
                for (size_t i = 0; i < ni; ++i)
                    w[ni * v + i] = (float)(w[ni * v + i] / sum);
                double len = 0;
                for (int c = 0; c < 3; ++c) {
                    p[3 * v + c] = (float)rng_range(&r, -1, 1);
                    nr[3 * v + c] = (float)rng_range(&r, -1, 1);
                    len += (double)nr[3 * v + c] * nr[3 * v + c];
                }
                for (int c = 0; c < 3; ++c)
                    nr[3 * v + c] = (float)(nr[3 * v + c] / sqrt(len));
            }
            tendon_skin_job job = {.palette_count = PC, .vertex_count = NV, .influence_count = ni,
                                   .joint_index_type = TENDON_JOINT_INDEX_U16, .joints = jn,
                                   .weights = w, .positions = p, .normals = nr};
            tendon_skin_mesh *m;
            ck_assert_int_eq(tendon_skin_mesh_create(&job, &m), TENDON_OK);
            ck_assert_int_eq(tendon_skin_mesh_apply_dq(m, dq, op, on, NULL), TENDON_OK);
            for (size_t v = 0; v < NV; ++v) {
                unsigned jj[4];
                for (size_t i = 0; i < ni; ++i)
                    jj[i] = jn[ni * v + i];
                double wp[3], wn[3];
                dqs_oracle(pal, jj, w + ni * v, ni, p + 3 * v, nr + 3 * v, wp, wn);
                double lp = 0;
                for (int c = 0; c < 3; ++c)
                    lp += wp[c] * wp[c];
                for (int c = 0; c < 3; ++c) {
                    const double ep = fabs(op[3 * v + c] - wp[c]) / (1 + sqrt(lp));
                    const double en = fabs(on[3 * v + c] - wn[c]);
                    worst_p = ep > worst_p ? ep : worst_p;
                    worst_n = en > worst_n ? en : worst_n;
                    ck_assert_msg(ep <= 4e-6 && en <= 4e-6,
                                  "influences %zu vertex %zu component %d: position %.9g vs "
                                  "%.9g, normal %.9g vs %.9g",
                                  ni, v, c, (double)op[3 * v + c], wp[c],
                                  (double)on[3 * v + c], wn[c]);
                }
            }
            tendon_skin_mesh_destroy(m);
            free(jn), free(w), free(p), free(nr), free(op), free(on);
        }
        free(pal);
    }
    printf("test_dq_oracle: worst position error %.3g (relative to 1 + |p|), normal %.3g\n",
           worst_p, worst_n);
}
END_TEST

/*
 * A rigid palette with every vertex on one joint (1–4 influences all naming it, weights
 * summing to 1): dual-quaternion skinning is that joint's transform, as linear-blend skinning
 * is — to the oracle's bound.
 */
START_TEST(test_dq_rigid_equals_lbs)
{
    test_rng r;
    rng_seed(&r, 0x51D);
    enum { PC = 30, NV = 2000 };
    float *pal = rigid_palette(&r, PC, 0);
    float dq[16 * PC];
    ck_assert_int_eq(tendon_palette_to_dual_quat(pal, PC, dq), TENDON_OK);
    uint8_t jn[4 * NV];
    float w[4 * NV], p[3 * NV], nr[3 * NV], lp[3 * NV], ln[3 * NV], dp[3 * NV], dn[3 * NV];
    for (size_t v = 0; v < NV; ++v) {
        const uint8_t joint = (uint8_t)(rng_u64(&r) % PC);
        double sum = 0;
        for (int i = 0; i < 4; ++i) {
            jn[4 * v + i] = joint;
            w[4 * v + i] = (float)rng_range(&r, 0.05, 1);
            sum += w[4 * v + i];
        }
        for (int i = 0; i < 4; ++i)
            w[4 * v + i] = (float)(w[4 * v + i] / sum);
        for (int c = 0; c < 3; ++c) {
            p[3 * v + c] = (float)rng_range(&r, -1, 1);
            nr[3 * v + c] = c == 2 ? 1.0f : 0.0f;
        }
    }
    tendon_skin_job job = {.palette = pal, .palette_count = PC, .vertex_count = NV,
                           .influence_count = 4, .joint_index_type = TENDON_JOINT_INDEX_U8,
                           .joints = jn, .weights = w, .positions = p, .normals = nr,
                           .out_positions = lp, .out_normals = ln};
    ck_assert_int_eq(tendon_skin(&job), TENDON_OK);
    tendon_skin_mesh *m;
    ck_assert_int_eq(tendon_skin_mesh_create(&job, &m), TENDON_OK);
    ck_assert_int_eq(tendon_skin_mesh_apply_dq(m, dq, dp, dn, NULL), TENDON_OK);
    for (size_t e = 0; e < 3 * NV; ++e) {
        ck_assert_msg(fabs(dp[e] - lp[e]) <= 4e-6 * (1 + fabs(lp[e])) + 4e-6,
                      "float %zu: DQS %.9g, LBS %.9g", e, (double)dp[e], (double)lp[e]);
        ck_assert_msg(fabs(dn[e] - ln[e]) <= 4e-6, "normal float %zu: DQS %.9g, LBS %.9g", e,
                      (double)dn[e], (double)ln[e]);
    }
    tendon_skin_mesh_destroy(m);
    free(pal);
}
END_TEST

/*
 * Antipodal influences: a dual quaternion and its negation are one transform; without the fix
 * their 50/50 blend is zero. And +170° and −170° about z, blended 50/50, meet at 180° (the short
 * way), not at 0°.
 */
START_TEST(test_dq_antipodal)
{
    float pal[2 * 16];
    const float one[3] = {1, 1, 1}, t0[3] = {1, 2, 3}, t1[3] = {1, 2, 3};
    const double a = 170.0 * M_PI / 180.0;
    const float qa[4] = {0, 0, (float)sin(a / 2), (float)cos(a / 2)};
    const float qb[4] = {0, 0, (float)sin(-a / 2), (float)cos(-a / 2)};
    cglm_trs(t0, qa, one, pal);
    cglm_trs(t1, qb, one, pal + 16);
    float dq[2 * 16];
    ck_assert_int_eq(tendon_palette_to_dual_quat(pal, 2, dq), TENDON_OK);
    const uint8_t jn[4] = {0, 1, 0, 0};
    const float w[2] = {0.5f, 0.5f}, p[3] = {1, 0, 0}, nr[3] = {1, 0, 0};
    tendon_skin_job job = {.palette_count = 2, .vertex_count = 1, .influence_count = 2,
                           .joint_index_type = TENDON_JOINT_INDEX_U8, .joints = jn, .weights = w,
                           .positions = p, .normals = nr};
    tendon_skin_mesh *m;
    ck_assert_int_eq(tendon_skin_mesh_create(&job, &m), TENDON_OK);
    float op[3], on[3];
    ck_assert_int_eq(tendon_skin_mesh_apply_dq(m, dq, op, on, NULL), TENDON_OK);
    /* 180° about z: (1, 0, 0) → (−1, 0, 0), then + (1, 2, 3) */
    ck_assert_msg(fabs(op[0] - 0.0) < 1e-5 && fabs(op[1] - 2.0) < 1e-5 && fabs(op[2] - 3.0) < 1e-5,
                  "short way: (%g, %g, %g)", (double)op[0], (double)op[1], (double)op[2]);
    ck_assert_msg(fabs(on[0] + 1.0) < 1e-5, "normal (%g, %g, %g)", (double)on[0], (double)on[1],
                  (double)on[2]);
    /* one transform written twice, the second negated: the blend is that transform */
    float dq2[2 * 16];
    memcpy(dq2, dq, 16 * sizeof(float));
    for (int e = 0; e < 8; ++e)
        dq2[16 + e] = -dq[e];
    dq2[16 + 8] = dq[8];
    for (int e = 9; e < 16; ++e)
        dq2[16 + e] = 0;
    ck_assert_int_eq(tendon_skin_mesh_apply_dq(m, dq2, op, on, NULL), TENDON_OK);
    float want[3];
    tendon_skin_job single = job;
    const uint8_t j0[2] = {0, 0};
    single.joints = j0, single.palette = pal, single.out_positions = want, single.normals = NULL;
    ck_assert_int_eq(tendon_skin(&single), TENDON_OK);
    for (int c = 0; c < 3; ++c)
        ck_assert_msg(fabs(op[c] - want[c]) < 1e-5, "antipodal copy: component %d %g vs %g", c,
                      (double)op[c], (double)want[c]);
    tendon_skin_mesh_destroy(m);
}
END_TEST

/* Non-rigid joints: refused naming the entry and why; nothing written. Scales near 1 snap. */
START_TEST(test_dq_refusals)
{
    test_rng r;
    rng_seed(&r, 0xBAD);
    float pal[4 * 16], out[4 * 16];
    for (int j = 0; j < 4; ++j)
        rigid_matrix(&r, 3.0, 1.5f, pal + 16 * j);
    ck_assert_int_eq(tendon_palette_to_dual_quat(pal, 4, out), TENDON_OK);
    ck_assert(out[8] == 1.5f && out[9] == 0.0f && out[15] == 0.0f);
    float q[4 * 16];
#define EXPECT_REFUSED(frag)                                                                       \
    do {                                                                                           \
        for (int e = 0; e < 64; ++e)                                                               \
            out[e] = 7.0f;                                                                         \
        ck_assert_int_eq(tendon_palette_to_dual_quat(q, 4, out), TENDON_ERR_VALUE);               \
        ck_assert_msg(strstr(tendon_error_message(), "palette entry 2") &&                        \
                          strstr(tendon_error_message(), (frag)),                                  \
                      "%s", tendon_error_message());                                               \
        for (int e = 0; e < 64; ++e)                                                               \
            ck_assert(out[e] == 7.0f);                                                             \
    } while (0)
    memcpy(q, pal, sizeof q);
    q[32 + 0] *= 1.1f, q[32 + 1] *= 1.1f, q[32 + 2] *= 1.1f;
    EXPECT_REFUSED("non-uniform scale");
    memcpy(q, pal, sizeof q);
    /* column 1 turned 0.05 rad toward column 0: lengths kept, no longer orthogonal */
    for (int c = 0; c < 3; ++c)
        q[32 + 4 + c] = (float)(cos(0.05) * pal[32 + 4 + c] + sin(0.05) * pal[32 + c]);
    EXPECT_REFUSED("sheared");
    memcpy(q, pal, sizeof q);
    q[32 + 8] = -q[32 + 8], q[32 + 9] = -q[32 + 9], q[32 + 10] = -q[32 + 10];
    EXPECT_REFUSED("determinant");
    memcpy(q, pal, sizeof q);
    q[32 + 12] = INFINITY;
    EXPECT_REFUSED("m[12] = inf");
    memcpy(q, pal, sizeof q);
    q[32 + 5] = NAN;
    EXPECT_REFUSED("non-finite");
    /* finite elements too large for float32's squares: the scale overflows (the lengths are
       +inf, their differences NaN), which is not a non-uniform scale */
    memcpy(q, pal, sizeof q);
    for (int e = 0; e < 12; ++e)
        q[32 + e] = (e & 3) == 3 ? 0.0f : e % 5 == 0 ? 3e19f : 0.0f; /* diag(3e19): det +inf */
    EXPECT_REFUSED("palette entry 2's scale is too large: a column's squared length overflows "
                   "float32 (column lengths inf, inf, inf");
    ck_assert_ptr_null(strstr(tendon_error_message(), "non-uniform"));
    /* columns (3e19, 0, 0), (0, 3e19, 3e19), (0, 3e19, 3e19): the cofactor m5·m10 − m6·m9 is
       ∞ − ∞, so det is NaN — too large, not a mirror */
    memcpy(q, pal, sizeof q);
    for (int e = 0; e < 12; ++e)
        q[32 + e] = 0.0f;
    q[32 + 0] = 3e19f, q[32 + 5] = q[32 + 6] = q[32 + 9] = q[32 + 10] = 3e19f;
    EXPECT_REFUSED("palette entry 2 is too large: its determinant overflows float32");
    ck_assert_ptr_null(strstr(tendon_error_message(), "mirror"));
#undef EXPECT_REFUSED
    /* within the tolerance: accepted; a scale within 2^-20 of 1 is 1 exactly */
    memcpy(q, pal, sizeof q);
    for (int j = 0; j < 4; ++j)
        rigid_matrix(&r, 3.0, 1.0f + 0x1p-22f, q + 16 * j);
    q[0] *= 1.0f + 0x1p-12f;
    ck_assert_int_eq(tendon_palette_to_dual_quat(q, 4, out), TENDON_OK);
    for (int j = 0; j < 4; ++j)
        ck_assert_msg(out[16 * j + 8] == 1.0f, "entry %d scale %.9g", j, (double)out[16 * j + 8]);
    /* arguments */
    ck_assert_int_eq(tendon_palette_to_dual_quat(NULL, 4, out), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_palette_to_dual_quat(pal, 4, NULL), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_palette_to_dual_quat(NULL, 0, NULL), TENDON_OK);
    ck_assert_int_eq(tendon_palette_to_dual_quat(pal, 3, pal + 4), TENDON_ERR_ALIAS);
    ck_assert_int_eq(tendon_palette_to_dual_quat((const float *)(const void *)((char *)pal + 2),
                                                 3, out),
                     TENDON_ERR_VALUE);
    /* in place */
    memcpy(q, pal, sizeof q);
    ck_assert_int_eq(tendon_palette_to_dual_quat(pal, 4, out), TENDON_OK);
    ck_assert_int_eq(tendon_palette_to_dual_quat(q, 4, q), TENDON_OK);
    ck_assert(first_float_diff(q, out, 64) < 0);
    /* apply_dq: the mesh's O(1) checks */
    const uint8_t jn[2] = {0, 1};
    const float w[2] = {0.5f, 0.5f}, p[3] = {1, 2, 3};
    tendon_skin_job job = {.palette_count = 2, .vertex_count = 1, .influence_count = 2,
                           .joint_index_type = TENDON_JOINT_INDEX_U8, .joints = jn, .weights = w,
                           .positions = p};
    tendon_skin_mesh *m;
    ck_assert_int_eq(tendon_skin_mesh_create(&job, &m), TENDON_OK);
    float op[3];
    ck_assert_int_eq(tendon_skin_mesh_apply_dq(m, NULL, op, NULL, NULL), TENDON_ERR_NULL);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "dq is NULL"));
    ck_assert_int_eq(tendon_skin_mesh_apply_dq(m, out, op, op, NULL), TENDON_ERR_VALUE);
    ck_assert_int_eq(tendon_skin_mesh_apply_dq_range(m, out, 0, 2, op, NULL, NULL),
                     TENDON_ERR_RANGE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "tendon_skin_mesh_apply_dq_range: "));
    ck_assert_int_eq(tendon_skin_mesh_apply_dq_range_on(NULL, m, out, 0, 2, op, NULL, NULL),
                     TENDON_ERR_RANGE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "tendon_skin_mesh_apply_dq_range_on: "));
    ck_assert_int_eq(tendon_skin_mesh_apply_dq(m, out, out + 4, NULL, NULL), TENDON_ERR_ALIAS);
    ck_assert_int_eq(tendon_skin_mesh_apply_dq(m, out, op, NULL, NULL), TENDON_OK);
    tendon_skin_mesh_destroy(m);
}
END_TEST

/* ---- the twist: candy wrapper ---------------------------------------------------------------- */

/*
 * A cylinder of radius 1 along x from −2 to 2 (rings every 0.05, 64 vertices each, closed by two
 * caps), bound to two joints at the origin: joint 0 fixed, joint 1 twisted by θ about x; the
 * weight of joint 1 ramps linearly from 0 at x = −1 to 1 at x = 1. Reported: the radius at the
 * waist (x = 0) and the enclosed volume (divergence theorem over the closed triangulated
 * surface), relative to the rest shape's, for linear-blend and dual-quaternion skinning.
 */
enum { RING = 64, RINGS = 81 };

static double mesh_volume(const float *pos)
{
    /* triangles of the side, then the two caps (fans about the axis points at the end) */
    double vol = 0;
    for (int r = 0; r + 1 < RINGS; ++r) {
        for (int i = 0; i < RING; ++i) {
            const int a = r * RING + i, b = r * RING + (i + 1) % RING;
            const int c = (r + 1) * RING + i, d = (r + 1) * RING + (i + 1) % RING;
            const int tri[2][3] = {{a, b, c}, {b, d, c}}; /* outward */
            for (int t = 0; t < 2; ++t) {
                const float *p0 = pos + 3 * tri[t][0], *p1 = pos + 3 * tri[t][1];
                const float *p2 = pos + 3 * tri[t][2];
                vol += ((double)p0[0] * (p1[1] * (double)p2[2] - p1[2] * (double)p2[1]) -
                        (double)p0[1] * (p1[0] * (double)p2[2] - p1[2] * (double)p2[0]) +
                        (double)p0[2] * (p1[0] * (double)p2[1] - p1[1] * (double)p2[0])) /
                       6.0;
            }
        }
    }
    /* caps: the end rings' centroids (the axis points, which the skinning keeps on the axis) */
    for (int e = 0; e < 2; ++e) {
        const int r = e ? RINGS - 1 : 0;
        double cx = 0, cy = 0, cz = 0;
        for (int i = 0; i < RING; ++i)
            cx += pos[3 * (r * RING + i)], cy += pos[3 * (r * RING + i) + 1],
                cz += pos[3 * (r * RING + i) + 2];
        cx /= RING, cy /= RING, cz /= RING;
        for (int i = 0; i < RING; ++i) {
            const float *p1 = pos + 3 * (r * RING + i), *p2 = pos + 3 * (r * RING + (i + 1) % RING);
            const double s = e ? 1.0 : -1.0; /* outward: the cap at x = 2 faces +x */
            vol += s * (cx * (p1[1] * (double)p2[2] - p1[2] * (double)p2[1]) -
                        cy * (p1[0] * (double)p2[2] - p1[2] * (double)p2[0]) +
                        cz * (p1[0] * (double)p2[1] - p1[1] * (double)p2[0])) /
                   6.0;
        }
    }
    return vol;
}

static void twist(double theta_deg, double out[6])
{
    static float pos[3 * RING * RINGS], rest_out[3 * RING * RINGS], out_l[3 * RING * RINGS];
    static float out_d[3 * RING * RINGS], w[2 * RING * RINGS];
    static uint8_t jn[2 * RING * RINGS];
    for (int r = 0; r < RINGS; ++r) {
        const double x = -2.0 + 0.05 * r;
        double w1 = (x + 1.0) / 2.0;
        w1 = w1 < 0 ? 0 : w1 > 1 ? 1 : w1;
        for (int i = 0; i < RING; ++i) {
            const double a = 2 * M_PI * i / RING;
            const int v = r * RING + i;
            pos[3 * v] = (float)x, pos[3 * v + 1] = (float)cos(a), pos[3 * v + 2] = (float)sin(a);
            jn[2 * v] = 0, jn[2 * v + 1] = 1;
            w[2 * v] = (float)(1 - w1), w[2 * v + 1] = (float)w1;
        }
    }
    float pal[32];
    const float one[3] = {1, 1, 1}, zero[3] = {0, 0, 0}, id[4] = {0, 0, 0, 1};
    const double h = theta_deg * M_PI / 360.0;
    const float q[4] = {(float)sin(h), 0, 0, (float)cos(h)};
    cglm_trs(zero, id, one, pal);
    cglm_trs(zero, q, one, pal + 16);
    float dq[32];
    ck_assert_int_eq(tendon_palette_to_dual_quat(pal, 2, dq), TENDON_OK);
    tendon_skin_job job = {.palette = pal, .palette_count = 2, .vertex_count = RING * RINGS,
                           .influence_count = 2, .joint_index_type = TENDON_JOINT_INDEX_U8,
                           .joints = jn, .weights = w, .positions = pos};
    tendon_skin_mesh *m;
    ck_assert_int_eq(tendon_skin_mesh_create(&job, &m), TENDON_OK);
    ck_assert_int_eq(tendon_skin_mesh_apply(m, pal, out_l, NULL, NULL), TENDON_OK);
    ck_assert_int_eq(tendon_skin_mesh_apply_dq(m, dq, out_d, NULL, NULL), TENDON_OK);
    memcpy(rest_out, pos, sizeof pos);
    tendon_skin_mesh_destroy(m);
    const int waist = 40; /* x = 0 */
    double rl = 1e30, rd = 1e30;
    for (int i = 0; i < RING; ++i) {
        const int v = waist * RING + i;
        const double a = hypot(out_l[3 * v + 1], out_l[3 * v + 2]);
        const double b = hypot(out_d[3 * v + 1], out_d[3 * v + 2]);
        rl = a < rl ? a : rl, rd = b < rd ? b : rd;
    }
    const double v0 = mesh_volume(rest_out);
    out[0] = rl, out[1] = rd, out[2] = mesh_volume(out_l) / v0, out[3] = mesh_volume(out_d) / v0;
    out[4] = v0;
    out[5] = 0;
}

START_TEST(test_dq_candy_wrapper)
{
    double r90[6], r180[6];
    twist(90, r90);
    twist(180, r180);
    printf("candy wrapper (rest volume %.4f): twist 90°: waist radius LBS %.4f, DQS %.6f; volume "
           "LBS %.4f, DQS %.6f of rest\n",
           r90[4], r90[0], r90[1], r90[2], r90[3]);
    printf("candy wrapper: twist 180°: waist radius LBS %.4f, DQS %.6f; volume LBS %.4f, DQS %.6f "
           "of rest\n",
           r180[0], r180[1], r180[2], r180[3]);
    /* LBS: cos(θ/2) at the waist (0.707 at 90°, 0 at 180°); DQS keeps the radius */
    ck_assert(fabs(r90[0] - cos(M_PI / 4)) < 1e-3);
    ck_assert(r180[0] < 1e-3);
    ck_assert(fabs(r90[1] - 1.0) < 1e-5 && fabs(r180[1] - 1.0) < 1e-5);
    ck_assert_msg(fabs(r90[3] - 1.0) < 1e-3 && fabs(r180[3] - 1.0) < 1e-3, "DQS volume %.6f %.6f",
                  r90[3], r180[3]);
    ck_assert(r90[2] < 0.9 && r180[2] < 0.75);
}
END_TEST

static Suite *dq_suite(void)
{
    Suite *s = suite_create("skin_dq");
    TCase *api = tcase_create("api");
    tcase_set_timeout(api, 60);
    tcase_add_test(api, test_dq_oracle);
    tcase_add_test(api, test_dq_rigid_equals_lbs);
    tcase_add_test(api, test_dq_antipodal);
    tcase_add_test(api, test_dq_refusals);
    tcase_add_test(api, test_dq_candy_wrapper);
    suite_add_tcase(s, api);
    TCase *isa = tcase_create("every_isa");
    tcase_set_timeout(isa, 240);
    tcase_add_loop_test(isa, test_isa_palette_to_dual_quat, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(isa, test_isa_skin_mesh_dq, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(isa, test_isa_skin_mesh_dq_offsets, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(isa, test_isa_skin_mesh_dq_large_palettes, 0, TENDON_ISA_COUNT);
    suite_add_tcase(s, isa);
    return s;
}

int main(void)
{
    if (env_isa_unusable())
        return 77;
    return run_suite(dq_suite());
}
