/*
 * The prepared skinning mesh (tendon/skin.h tendon_skin_mesh_*): created once, applied under
 * every ISA, bit for bit equal to tendon_skin's scalar table on the job it was made from — u8
 * and u16 indices, 1–4 influences, positions / + normals / + tangents, packed, interleaved,
 * unaligned and in-place buffers, every vertex count 0..67 and 1031, ranges that split the
 * mesh anywhere; a mesh created under each ISA (forced) applied under each; creation refuses a
 * bad index or a non-finite weight by name and creates nothing; the caller's buffers changed
 * after creation change nothing; apply's O(1) checks.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "skin_bufs.h"
#include "common/skin_mesh.h" /* joint_shift: which regime a mesh's joints plane is in */

/* A mesh from a case's job; abort on failure. */
static tendon_skin_mesh *mesh_of(const tendon_skin_job *job)
{
    tendon_skin_mesh *m = NULL;
    const tendon_status s = tendon_skin_mesh_create(job, &m);
    ck_assert_msg(s == TENDON_OK && m, "tendon_skin_mesh_create: %s: %s", tendon_status_name(s),
                  tendon_error_message());
    return m;
}

/* Vertices [first, first + count) of mesh m through table k into job j's outputs: TENDON_OK. */
static void apply_on(const tendon_kernels *k, const tendon_skin_mesh *m, const float *pal,
                     size_t first, size_t count, const tendon_skin_job *j)
{
    ck_assert_int_eq(tendon_skin_mesh_apply_range_on(k, m, pal, first, count, j->out_positions,
                                                     j->out_normals, j->out_tangents),
                     TENDON_OK);
}

/* Poison a case's outputs (so an unwritten element shows). */
static void poison_outputs(const tendon_skin_job *j)
{
    for (size_t v = 0; v < j->vertex_count; ++v) {
        const float nan4[4] = {NAN, NAN, NAN, NAN};
        memcpy((char *)j->out_positions + v * j->out_positions_stride, nan4, 12);
        if (j->out_normals)
            memcpy((char *)j->out_normals + v * j->out_normals_stride, nan4, 12);
        if (j->out_tangents)
            memcpy((char *)j->out_tangents + v * j->out_tangents_stride, nan4, 16);
    }
}

/*
 * Every ISA applies a mesh made from each case; the reference is the scalar table's skin on an
 * identical copy of the buffers. Whole meshes, then the same mesh split into random ranges.
 */
START_TEST(test_mesh_every_isa)
{
    ISA_TABLE_OR_RETURN(k);
    const tendon_kernels *ref = tendon_kernels_for(TENDON_ISA_SCALAR);
    const char *isa = tendon_isa_name((tendon_isa)_i);
    test_rng r;
    rng_seed(&r, 0x3E5 + (uint64_t)_i);
    float *pal = random_palette(&r, 70);
    for (int ci = 0; ci < SWEEP_COUNT; ++ci) {
        for (size_t ni = 1; ni <= 4; ++ni) {
            for (size_t isz = 1; isz <= 2; ++isz) {
                for (int mode = 0; mode < 3; ++mode) {
                    for (int layout = 0; layout < 4; ++layout) {
                        const skin_case c = {sweep_count(ci), ni, isz, mode, layout};
                        const uint64_t seed = rng_u64(&r);
                        skin_bufs a, b;
                        skin_bufs_make(&a, &c, pal, 70, seed);
                        skin_bufs_make(&b, &c, pal, 70, seed);
                        tendon_skin_mesh *m = mesh_of(&a.job);
                        ref->skin(&b.job);
                        const tendon_skin_job *j = &a.job;
                        apply_on(k, m, pal, 0, c.n, j);
                        compare_outputs(&a, &b, isa, &c);
                        /* split into 1–5 ranges at random points: the same bits */
                        if (c.n > 0 && (ci % 5 == 0 || c.n == SWEEP_LONG)) {
                            poison_outputs(j);
                            size_t v = 0;
                            while (v < c.n) {
                                size_t len = 1 + (size_t)(rng_u64(&r) % (c.n - v));
                                if (rng_unit(&r) < 0.3)
                                    len = 1 + (size_t)(rng_u64(&r) % 19);
                                if (len > c.n - v)
                                    len = c.n - v;
                                apply_on(k, m, pal, v, len, j);
                                v += len;
                            }
                            compare_outputs(&a, &b, isa, &c);
                        }
                        tendon_skin_mesh_destroy(m);
                        skin_bufs_free(&a);
                        skin_bufs_free(&b);
                    }
                }
            }
        }
    }
    free(pal);
}
END_TEST

/*
 * The palette wherever a caller's array puts it: 0, 4, 16, 32 and 48 bytes past a 64-byte
 * boundary (AVX2 and AVX-512 copy a palette of up to 256 entries that is not aligned to their
 * vector to an aligned block when the call skins at least as many vertices as it has entries:
 * docs/skinning.md "Buffers not aligned to the vector"). Applied to the mesh (whole, and from
 * vertex 5 then the first five) and through the job (tendon_kernels.skin), calls one vertex
 * shorter than the palette, as long and longer, palettes of 70, 256 (the largest copied), 257
 * and 300 entries: every result bit for bit the scalar table's on the same values.
 */
START_TEST(test_mesh_palette_offsets)
{
    ISA_TABLE_OR_RETURN(k);
    const tendon_kernels *ref = tendon_kernels_for(TENDON_ISA_SCALAR);
    const char *isa = tendon_isa_name((tendon_isa)_i);
    test_rng r;
    rng_seed(&r, 0xA11 + (uint64_t)_i);
    static const size_t offsets[] = {0, 4, 16, 32, 48};
    /* 256 entries: the largest copied; 257 and 300: never copied */
    static const size_t palettes[] = {70, 256, 257, 300};
    for (size_t pi = 0; pi < 4; ++pi) {
        const size_t pc = palettes[pi];
        const size_t counts[] = {pc - 1, pc, 1031};
        float *pal = random_palette(&r, pc);
        for (size_t oi = 0; oi < sizeof offsets / sizeof offsets[0]; ++oi) {
            tbuf pb = tbuf_make(64 * pc, offsets[oi]);
            float *at = (float *)(void *)pb.p;
            memcpy(at, pal, 64 * pc);
            for (size_t ci = pi == 3 ? 2 : 0; ci < 3; ++ci) {
                for (size_t ni = 1; ni <= 4; ni += 3) {
                    for (int mode = 0; mode < 3; ++mode) {
                        for (int layout = 0; layout < 2; ++layout) {
                            const skin_case c = {counts[ci], ni, 2, mode, layout};
                            const uint64_t seed = rng_u64(&r);
                            skin_bufs a, b;
                            skin_bufs_make(&a, &c, at, pc, seed);
                            skin_bufs_make(&b, &c, pal, pc, seed);
                            ref->skin(&b.job);
                            tendon_skin_mesh *m = mesh_of(&a.job);
                            const tendon_skin_job *j = &a.job;
                            apply_on(k, m, at, 0, c.n, j);
                            compare_outputs(&a, &b, isa, &c);
                            /* from vertex 5 (a scalar head first), then the first five */
                            poison_outputs(j);
                            apply_on(k, m, at, 5, c.n - 5, j);
                            apply_on(k, m, at, 0, 5, j);
                            compare_outputs(&a, &b, isa, &c);
                            poison_outputs(j);
                            k->skin(&a.job); /* the job's kernel, the same palette */
                            compare_outputs(&a, &b, isa, &c);
                            tendon_skin_mesh_destroy(m);
                            skin_bufs_free(&a);
                            skin_bufs_free(&b);
                        }
                    }
                }
            }
            tbuf_free(&pb);
        }
        free(pal);
    }
}
END_TEST

/*
 * Indices around the joints plane's pre-scaling bound (src/common/skin_mesh.h): while every
 * index of a mesh is below TENDON_MESH_SCALED_MAX (8192) the plane holds 8·index and the packed
 * loops address entries by a scaled index; an index of 8192 or more keeps the plane plain and
 * every call takes the general loop with the mesh's shift. Palettes of 8192 entries (index
 * 8191, stored as 65528, on the first vertex), 8193 (index 8192 there: the smallest not
 * pre-scaled), 65536 (index 65535 there) and 65536 with every index below 8192 (pre-scaled: the
 * regime follows the indices, not palette_count): the regime asserted, then every ISA bit for
 * bit against the scalar table's tendon_skin, 1–4 influences, every mode, packed, interleaved,
 * unaligned and in-place layouts, whole and split in two, the last vertex on entry 0.
 */
START_TEST(test_mesh_large_palettes)
{
    ISA_TABLE_OR_RETURN(k);
    const tendon_kernels *ref = tendon_kernels_for(TENDON_ISA_SCALAR);
    const char *isa = tendon_isa_name((tendon_isa)_i);
    test_rng r;
    rng_seed(&r, 0x8192 + (uint64_t)_i);
    static const size_t palettes[] = {8192, 8193, 65536, 65536};
    static const size_t largest[] = {8191, 8192, 65535, 8191};
    for (size_t pi = 0; pi < 4; ++pi) {
        const size_t pc = palettes[pi], top = largest[pi];
        float *pal = random_palette(&r, pc);
        for (size_t ni = 1; ni <= 4; ++ni) {
            for (int mode = 0; mode < 3; ++mode) {
                for (int layout = 0; layout < 4; ++layout) {
                    const skin_case c = {ni == 4 ? 1031 : 67, ni, 2, mode, layout};
                    const uint64_t seed = rng_u64(&r);
                    skin_bufs a, b;
                    skin_bufs_make(&a, &c, pal, top + 1, seed);
                    skin_bufs_make(&b, &c, pal, top + 1, seed);
                    a.job.palette_count = b.job.palette_count = pc;
                    for (size_t kk = 0; kk < ni; ++kk) {
                        skin_bufs_set_joint(&a, 0, kk, (uint16_t)top);
                        skin_bufs_set_joint(&b, 0, kk, (uint16_t)top);
                        skin_bufs_set_joint(&a, c.n - 1, kk, 0);
                        skin_bufs_set_joint(&b, c.n - 1, kk, 0);
                    }
                    ref->skin(&b.job);
                    tendon_skin_mesh *m = mesh_of(&a.job);
                    ck_assert_uint_eq(m->joint_shift, top < 8192 ? 3u : 0u);
                    const tendon_skin_job *j = &a.job;
                    apply_on(k, m, pal, 0, c.n, j);
                    compare_outputs(&a, &b, isa, &c);
                    poison_outputs(j);
                    const size_t cut = c.n / 3 + 1;
                    apply_on(k, m, pal, cut, c.n - cut, j);
                    apply_on(k, m, pal, 0, cut, j);
                    compare_outputs(&a, &b, isa, &c);
                    tendon_skin_mesh_destroy(m);
                    skin_bufs_free(&a);
                    skin_bufs_free(&b);
                }
            }
        }
        free(pal);
    }
}
END_TEST

/*
 * A mesh created under each supported ISA (forced: creation must not depend on it) and applied
 * under each table gives the same bits, which are tendon_skin's through the public entry.
 */
START_TEST(test_mesh_created_under_each_isa)
{
    tendon_isa original;
    ck_assert_int_eq(tendon_isa_active(&original), TENDON_OK);
    test_rng r;
    rng_seed(&r, 0xC4EA7E);
    float *pal = random_palette(&r, 70);
    const skin_case c = {1003, 4, 2, 2, 1};
    skin_bufs want;
    skin_bufs_make(&want, &c, pal, 70, 99);
    ck_assert_int_eq(tendon_skin(&want.job), TENDON_OK);
    for (int a = 0; a < TENDON_ISA_COUNT; ++a) {
        if (!tendon_isa_supported((tendon_isa)a))
            continue;
        ck_assert_int_eq(tendon_isa_force((tendon_isa)a), TENDON_OK);
        skin_bufs got;
        skin_bufs_make(&got, &c, pal, 70, 99);
        tendon_skin_mesh *m = mesh_of(&got.job);
        for (int b = 0; b < TENDON_ISA_COUNT; ++b) {
            const tendon_kernels *k = tendon_kernels_for((tendon_isa)b);
            if (!k)
                continue;
            poison_outputs(&got.job);
            ck_assert_int_eq(tendon_skin_mesh_apply_range_on(k, m, pal, 0, c.n,
                                                             got.job.out_positions,
                                                             got.job.out_normals,
                                                             got.job.out_tangents),
                             TENDON_OK);
            char what[64];
            snprintf(what, sizeof what, "created under %s, applied under %s",
                     tendon_isa_name((tendon_isa)a), tendon_isa_name((tendon_isa)b));
            compare_outputs(&got, &want, what, &c);
        }
        /* and the public apply, under the forced ISA */
        poison_outputs(&got.job);
        ck_assert_int_eq(tendon_skin_mesh_apply(m, pal, got.job.out_positions,
                                                got.job.out_normals, got.job.out_tangents),
                         TENDON_OK);
        compare_outputs(&got, &want, tendon_isa_name((tendon_isa)a), &c);
        tendon_skin_mesh_destroy(m);
        skin_bufs_free(&got);
    }
    ck_assert_int_eq(tendon_isa_force(original), TENDON_OK);
    skin_bufs_free(&want);
    free(pal);
}
END_TEST

/* The mesh owns copies: changing (then freeing) every input buffer afterwards changes nothing. */
START_TEST(test_mesh_owns_copies)
{
    test_rng r;
    rng_seed(&r, 0x0C0);
    float *pal = random_palette(&r, 70);
    const skin_case c = {333, 3, 1, 2, 0};
    skin_bufs a, b;
    skin_bufs_make(&a, &c, pal, 70, 5);
    skin_bufs_make(&b, &c, pal, 70, 5);
    tendon_skin_mesh *m = mesh_of(&a.job);
    /* scribble over the inputs the mesh was made from, then free them */
    memset(a.jb.p, 0x7F, c.n * 3);
    memset(a.wb.p, 0x55, c.n * 12);
    memset(a.pb.p, 0xC3, c.n * 12);
    memset(a.nb.p, 0x11, c.n * 12);
    memset(a.tb.p, 0xEE, c.n * 16);
    tbuf_free(&a.jb), tbuf_free(&a.wb), tbuf_free(&a.pb), tbuf_free(&a.nb), tbuf_free(&a.tb);
    ck_assert_int_eq(tendon_skin_mesh_apply(m, pal, a.job.out_positions, a.job.out_normals,
                                            a.job.out_tangents),
                     TENDON_OK);
    ck_assert_int_eq(tendon_skin(&b.job), TENDON_OK);
    compare_outputs(&a, &b, "after the inputs changed", &c);
    tendon_skin_mesh_destroy(m);
    skin_bufs_free(&a);
    skin_bufs_free(&b);
    free(pal);
}
END_TEST

/* Morph targets: new positions for a range, then apply, equal tendon_skin on those positions. */
START_TEST(test_mesh_set_positions)
{
    test_rng r;
    rng_seed(&r, 0x5E7);
    float *pal = random_palette(&r, 70);
    const skin_case c = {205, 4, 2, 1, 1};
    skin_bufs a, b;
    skin_bufs_make(&a, &c, pal, 70, 8);
    skin_bufs_make(&b, &c, pal, 70, 8);
    tendon_skin_mesh *m = mesh_of(&a.job);
    /* move vertices [17, 17 + 100) in b's (interleaved) input, and tell the mesh */
    for (size_t v = 17; v < 117; ++v) {
        float *p = (float *)(void *)((char *)b.job.positions + v * b.job.positions_stride);
        p[0] += 0.5f, p[1] -= 0.25f, p[2] *= 1.5f;
    }
    const float *moved = (const float *)(const void *)((const char *)b.job.positions +
                                                       17 * b.job.positions_stride);
    ck_assert_int_eq(tendon_skin_mesh_set_positions(m, moved, b.job.positions_stride, 17, 100),
                     TENDON_OK);
    ck_assert_int_eq(tendon_skin(&b.job), TENDON_OK);
    ck_assert_int_eq(tendon_skin_mesh_apply(m, pal, a.job.out_positions, a.job.out_normals, NULL),
                     TENDON_OK);
    compare_outputs(&a, &b, "after set_positions", &c);
    /* errors: nothing changed */
    ck_assert_int_eq(tendon_skin_mesh_set_positions(NULL, moved, 0, 0, 1), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_skin_mesh_set_positions(m, NULL, 0, 0, 1), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_skin_mesh_set_positions(m, moved, 0, 200, 6), TENDON_ERR_RANGE);
    ck_assert_int_eq(tendon_skin_mesh_set_positions(m, moved, 8, 0, 2), TENDON_ERR_VALUE);
    ck_assert_int_eq(tendon_skin_mesh_set_positions(m, NULL, 0, 205, 0), TENDON_OK);
    ck_assert_int_eq(tendon_skin_mesh_apply(m, pal, a.job.out_positions, a.job.out_normals, NULL),
                     TENDON_OK);
    compare_outputs(&a, &b, "after refused updates", &c);
    tendon_skin_mesh_destroy(m);
    skin_bufs_free(&a);
    skin_bufs_free(&b);
    free(pal);
}
END_TEST

/* Queries, and the memory the header documents. */
START_TEST(test_mesh_queries)
{
    test_rng r;
    rng_seed(&r, 0x9E5);
    float *pal = random_palette(&r, 70);
    for (int mode = 0; mode < 3; ++mode) {
        for (size_t ni = 1; ni <= 4; ++ni) {
            const skin_case c = {1000, ni, 1, mode, 0};
            skin_bufs a;
            skin_bufs_make(&a, &c, pal, 70, 1);
            a.job.out_positions = NULL, a.job.out_normals = NULL, a.job.out_tangents = NULL;
            a.job.palette = NULL; /* neither is read at creation */
            tendon_skin_mesh *m = mesh_of(&a.job);
            ck_assert_uint_eq(tendon_skin_mesh_vertex_count(m), 1000);
            ck_assert_uint_eq(tendon_skin_mesh_influence_count(m), ni);
            ck_assert_uint_eq(tendon_skin_mesh_palette_count(m), 70);
            const unsigned want = TENDON_SKIN_OUTPUT_POSITIONS |
                                  (mode >= 1 ? TENDON_SKIN_OUTPUT_NORMALS : 0u) |
                                  (mode >= 2 ? TENDON_SKIN_OUTPUT_TANGENTS : 0u);
            ck_assert_uint_eq(tendon_skin_mesh_outputs(m), want);
            /* 63 blocks of 16 vertices: 64·⌈n/2⌉ + 64·n + 192 (+192) (+256) bytes each */
            const size_t block = 64 * ((ni + 1) / 2) + 64 * ni + 192 + (mode >= 1 ? 192 : 0) +
                                 (mode >= 2 ? 256 : 0);
            const size_t bytes = tendon_skin_mesh_memory_bytes(m);
            ck_assert_uint_ge(bytes, 63 * block);
            ck_assert_uint_le(bytes, 63 * block + 512);
            tendon_skin_mesh_destroy(m);
            skin_bufs_free(&a);
        }
    }
    ck_assert_uint_eq(tendon_skin_mesh_vertex_count(NULL), 0);
    ck_assert_uint_eq(tendon_skin_mesh_influence_count(NULL), 0);
    ck_assert_uint_eq(tendon_skin_mesh_palette_count(NULL), 0);
    ck_assert_uint_eq(tendon_skin_mesh_outputs(NULL), 0);
    ck_assert_uint_eq(tendon_skin_mesh_memory_bytes(NULL), 0);
    tendon_skin_mesh_destroy(NULL);
    free(pal);
}
END_TEST

/* Creation refuses by name and creates nothing. */
START_TEST(test_mesh_create_errors)
{
    uint8_t j[8] = {0, 1, 2, 0, 1, 2, 0, 1};
    uint16_t j16[8] = {0, 1, 2, 0, 1, 2, 0, 1};
    float w[8] = {0.5f, 0.5f, 0, 0, 1, 0, 0, 0}, p[6] = {0}, n[6] = {0}, t[8] = {0};
    tendon_skin_job ok = {.palette_count = 3, .vertex_count = 2, .influence_count = 4,
                          .joint_index_type = TENDON_JOINT_INDEX_U8, .joints = j, .weights = w,
                          .positions = p, .normals = n, .tangents = t};
    tendon_skin_job job = ok;
    tendon_skin_mesh *m = (tendon_skin_mesh *)&job; /* a non-NULL marker */
    ck_assert_int_eq(tendon_skin_mesh_create(&job, &m), TENDON_OK);
    ck_assert_ptr_nonnull(m);
    tendon_skin_mesh_destroy(m);
#define EXPECT_CREATE_FAIL(st, frag)                                                               \
    do {                                                                                           \
        m = (tendon_skin_mesh *)&job;                                                              \
        ck_assert_int_eq(tendon_skin_mesh_create(&job, &m), (st));                                 \
        ck_assert_ptr_null(m);                                                                     \
        ck_assert_msg(strstr(tendon_error_message(), (frag)) != NULL, "message lacks \"%s\": %s", \
                      (frag), tendon_error_message());                                             \
    } while (0)
    /* a bad index: vertex, influence, index and palette size named */
    j[6] = 3;
    EXPECT_CREATE_FAIL(TENDON_ERR_RANGE, "vertex 1, influence 2 has joint index 3, but the "
                                         "palette has 3 entries");
    j[6] = 0;
    job.joint_index_type = TENDON_JOINT_INDEX_U16, job.joints = j16;
    j16[5] = 65535;
    EXPECT_CREATE_FAIL(TENDON_ERR_RANGE, "vertex 1, influence 1 has joint index 65535");
    j16[5] = 1;
    job = ok, job.palette_count = 0;
    EXPECT_CREATE_FAIL(TENDON_ERR_RANGE, "no entries");
    /* non-finite weights, by vertex and influence; other weights as given */
    job = ok;
    w[5] = NAN;
    EXPECT_CREATE_FAIL(TENDON_ERR_VALUE, "vertex 1, influence 1 has weight nan");
    w[5] = -INFINITY;
    EXPECT_CREATE_FAIL(TENDON_ERR_VALUE, "vertex 1, influence 1 has weight -inf");
    w[5] = -0.25f; /* negative: used as given */
    ck_assert_int_eq(tendon_skin_mesh_create(&job, &m), TENDON_OK);
    tendon_skin_mesh_destroy(m);
    w[5] = 0;
    /* NULLs */
    ck_assert_int_eq(tendon_skin_mesh_create(&job, NULL), TENDON_ERR_NULL);
    m = (tendon_skin_mesh *)&job;
    ck_assert_int_eq(tendon_skin_mesh_create(NULL, &m), TENDON_ERR_NULL);
    ck_assert_ptr_null(m);
    job = ok, job.joints = NULL;
    EXPECT_CREATE_FAIL(TENDON_ERR_NULL, "joints");
    job = ok, job.weights = NULL;
    EXPECT_CREATE_FAIL(TENDON_ERR_NULL, "weights");
    job = ok, job.positions = NULL;
    EXPECT_CREATE_FAIL(TENDON_ERR_NULL, "positions");
    job = ok, job.normals = NULL;
    EXPECT_CREATE_FAIL(TENDON_ERR_NULL, "tangents are given but normals is NULL");
    /* values, strides, alignment, extents */
    job = ok, job.influence_count = 5;
    EXPECT_CREATE_FAIL(TENDON_ERR_VALUE, "influence_count is 5");
    job = ok, job.joint_index_type = (tendon_joint_index_type)3;
    EXPECT_CREATE_FAIL(TENDON_ERR_VALUE, "joint_index_type");
    job = ok, job.positions_stride = 8;
    EXPECT_CREATE_FAIL(TENDON_ERR_VALUE, "positions stride");
    job = ok, job.out_normals_stride = 13;
    EXPECT_CREATE_FAIL(TENDON_ERR_VALUE, "out_normals stride");
    job = ok, job.out_tangents_stride = 12;
    EXPECT_CREATE_FAIL(TENDON_ERR_VALUE, "out_tangents stride");
    /* an output the mesh does not have: its stride is never used, and ignored as tendon_skin
       ignores it (a mesh with no tangents, or with neither normals nor tangents, and a stride
       that would be refused for that output) */
    for (int outs = 0; outs < 2; ++outs) {
        job = ok, job.tangents = NULL, job.out_tangents_stride = 7;
        if (outs == 0)
            job.normals = NULL, job.out_normals_stride = 13;
        m = NULL;
        ck_assert_int_eq(tendon_skin_mesh_create(&job, &m), TENDON_OK);
        ck_assert_uint_eq(tendon_skin_mesh_outputs(m), outs == 0 ? TENDON_SKIN_OUTPUT_POSITIONS
                                                                 : TENDON_SKIN_OUTPUT_POSITIONS |
                                                                       TENDON_SKIN_OUTPUT_NORMALS);
        tendon_skin_mesh_destroy(m);
        float pal[3 * 16] = {0}, op[6], on[6];
        job.palette = pal, job.out_positions = op, job.out_normals = outs ? on : NULL;
        ck_assert_int_eq(tendon_skin(&job), TENDON_OK);
    }
    job = ok, job.weights = (const float *)(const void *)((const char *)w + 2);
    EXPECT_CREATE_FAIL(TENDON_ERR_VALUE, "aligned");
    job = ok, job.vertex_count = SIZE_MAX / 8;
    EXPECT_CREATE_FAIL(TENDON_ERR_OVERFLOW, "overflow");
    job = ok, job.palette_count = SIZE_MAX / 32;
    EXPECT_CREATE_FAIL(TENDON_ERR_OVERFLOW, "palette_count");
    /* no vertices: a valid empty mesh, nothing read */
    job = ok, job.vertex_count = 0, job.joints = NULL, job.weights = NULL, job.positions = NULL;
    ck_assert_int_eq(tendon_skin_mesh_create(&job, &m), TENDON_OK);
    ck_assert_uint_eq(tendon_skin_mesh_vertex_count(m), 0);
    ck_assert_int_eq(tendon_skin_mesh_apply(m, NULL, NULL, NULL, NULL), TENDON_OK);
    tendon_skin_mesh_destroy(m);
#undef EXPECT_CREATE_FAIL
}
END_TEST

/* Apply: O(1) checks, each a named error with nothing written. */
START_TEST(test_mesh_apply_errors)
{
    float pal[4 * 16]; /* 3 matrices, and one float of room for a 4-byte-aligned start */
    for (int e = 0; e < 64; ++e)
        pal[e] = (float)(e % 5);
    uint8_t j[8] = {0, 1, 2, 0, 1, 2, 0, 1};
    float w[8] = {0.5f, 0.5f, 0, 0, 1, 0, 0, 0}, p[6] = {1, 2, 3, 4, 5, 6}, n[6] = {0, 0, 1};
    tendon_skin_job pn = {.palette_count = 3, .vertex_count = 2, .influence_count = 4,
                          .joint_index_type = TENDON_JOINT_INDEX_U8, .joints = j, .weights = w,
                          .positions = p, .normals = n};
    tendon_skin_job po = pn;
    po.normals = NULL;
    tendon_skin_mesh *mn, *mp;
    ck_assert_int_eq(tendon_skin_mesh_create(&pn, &mn), TENDON_OK);
    ck_assert_int_eq(tendon_skin_mesh_create(&po, &mp), TENDON_OK);
    _Alignas(64) float buf[64];
    for (int i = 0; i < 64; ++i)
        buf[i] = 42.0f;
    float *op = buf, *on = buf + 8, *ot = buf + 16;
#define EXPECT_UNWRITTEN()                                                                         \
    for (int i = 0; i < 64; ++i)                                                                   \
        ck_assert_msg(buf[i] == 42.0f, "buf[%d] written on error", i)
    ck_assert_int_eq(tendon_skin_mesh_apply(NULL, pal, op, NULL, NULL), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_skin_mesh_apply(mn, NULL, op, NULL, NULL), TENDON_ERR_NULL);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "palette is NULL"));
    ck_assert_int_eq(tendon_skin_mesh_apply(mp, pal, op, on, NULL), TENDON_ERR_VALUE);
    ck_assert_msg(strstr(tendon_error_message(), "out_normals is given, but the mesh was "
                                                 "created without normals"),
                  "%s", tendon_error_message());
    ck_assert_int_eq(tendon_skin_mesh_apply(mn, pal, op, on, ot), TENDON_ERR_VALUE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "out_tangents"));
    ck_assert_int_eq(tendon_skin_mesh_apply(mn, pal + 1, op, NULL, NULL), TENDON_OK);
    for (int i = 0; i < 64; ++i)
        buf[i] = 42.0f;
    ck_assert_int_eq(tendon_skin_mesh_apply(mn, (const float *)(const void *)((char *)pal + 2),
                                            op, NULL, NULL),
                     TENDON_ERR_VALUE);
    ck_assert_int_eq(tendon_skin_mesh_apply(mn, pal, (float *)(void *)((char *)op + 1), NULL,
                                            NULL),
                     TENDON_ERR_VALUE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "out_positions"));
    ck_assert_int_eq(tendon_skin_mesh_apply(mn, pal, op, op + 3, NULL), TENDON_ERR_ALIAS);
    ck_assert_int_eq(tendon_skin_mesh_apply(mn, pal, op, op + 5, NULL), TENDON_ERR_ALIAS);
    ck_assert_int_eq(tendon_skin_mesh_apply(mn, (const float *)op, op + 40, NULL, NULL),
                     TENDON_ERR_ALIAS);
    ck_assert_int_eq(tendon_skin_mesh_apply_range(mn, pal, 1, 2, op, on, NULL), TENDON_ERR_RANGE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "[1, 1 + 2)"));
    /* each form names itself, not the form it shares its checks with */
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "tendon_skin_mesh_apply_range: "));
    ck_assert_int_eq(tendon_skin_mesh_apply_range_on(NULL, mn, pal, 1, 2, op, on, NULL),
                     TENDON_ERR_RANGE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "tendon_skin_mesh_apply_range_on: "));
    ck_assert_int_eq(tendon_skin_mesh_apply(mn, NULL, op, on, NULL), TENDON_ERR_NULL);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "tendon_skin_mesh_apply: "));
    ck_assert_int_eq(tendon_skin_mesh_apply_range(mn, pal, 3, 0, op, on, NULL), TENDON_ERR_RANGE);
    ck_assert_int_eq(tendon_skin_mesh_apply_range(mn, pal, SIZE_MAX, 2, op, on, NULL),
                     TENDON_ERR_RANGE);
    ck_assert_int_eq(tendon_skin_mesh_apply(mn, pal, (float *)(uintptr_t)(UINTPTR_MAX - 15), NULL,
                                            NULL),
                     TENDON_ERR_OVERFLOW);
    /* vertex `first` itself past the end of the address space: refused before a pointer to it
       is formed (forming it was undefined behaviour, which UBSan reported) */
    ck_assert_int_eq(tendon_skin_mesh_apply_range(mn, pal, 1, 1,
                                                  (float *)(uintptr_t)(UINTPTR_MAX - 7), NULL,
                                                  NULL),
                     TENDON_ERR_OVERFLOW);
    ck_assert_ptr_nonnull(
        strstr(tendon_error_message(), "vertex 1 at stride 12 lies past the end"));
    EXPECT_UNWRITTEN();
    /* allowed: nothing wanted, an empty range, one output only, interleaved outputs */
    ck_assert_int_eq(tendon_skin_mesh_apply(mn, pal, NULL, NULL, NULL), TENDON_OK);
    ck_assert_int_eq(tendon_skin_mesh_apply_range(mn, NULL, 2, 0, op, on, NULL), TENDON_OK);
    EXPECT_UNWRITTEN();
    ck_assert_int_eq(tendon_skin_mesh_apply(mn, pal, NULL, on, NULL), TENDON_OK);
    ck_assert(buf[0] == 42.0f && buf[8] != 42.0f);
    tendon_skin_mesh_destroy(mn);
    /* interleaved outputs (one 24-byte vertex: position then normal) */
    pn.out_positions_stride = pn.out_normals_stride = 24;
    ck_assert_int_eq(tendon_skin_mesh_create(&pn, &mn), TENDON_OK);
    ck_assert_int_eq(tendon_skin_mesh_apply(mn, pal, buf, buf + 3, NULL), TENDON_OK);
    ck_assert_int_eq(tendon_skin_mesh_apply(mn, pal, buf, buf + 2, NULL), TENDON_ERR_ALIAS);
    tendon_skin_mesh_destroy(mn);
    tendon_skin_mesh_destroy(mp);
#undef EXPECT_UNWRITTEN
}
END_TEST

/* Hand-computed: a 2-influence blend written with a 32-byte output stride. */
START_TEST(test_mesh_hand)
{
    float pal[2 * 16] = {0};
    pal[0] = pal[5] = pal[10] = pal[15] = 1, pal[12] = 1, pal[13] = 2, pal[14] = 3;
    pal[16] = 2, pal[21] = 1, pal[26] = 1, pal[31] = 1;
    const uint16_t j[2] = {0, 1};
    const float w[2] = {0.25f, 0.75f}, p[3] = {1, 1, 1}, n[3] = {1, 1, 0};
    tendon_skin_job job = {.palette_count = 2, .vertex_count = 1, .influence_count = 2,
                           .joint_index_type = TENDON_JOINT_INDEX_U16, .joints = j, .weights = w,
                           .positions = p, .normals = n, .out_positions_stride = 32,
                           .out_normals_stride = 32};
    tendon_skin_mesh *m;
    ck_assert_int_eq(tendon_skin_mesh_create(&job, &m), TENDON_OK);
    float out[8] = {0};
    ck_assert_int_eq(tendon_skin_mesh_apply(m, pal, out, out + 4, NULL), TENDON_OK);
    ck_assert(out[0] == 2.0f && out[1] == 1.5f && out[2] == 1.75f && out[3] == 0.0f);
    ck_assert(fabs(out[4] - 0.4961389383568338) < 1e-6 && fabs(out[5] - 0.8682431421244592) < 1e-6);
    tendon_skin_mesh_destroy(m);
}
END_TEST

static Suite *mesh_suite(void)
{
    Suite *s = suite_create("skin_mesh");
    TCase *api = tcase_create("api");
    tcase_set_timeout(api, 60);
    tcase_add_test(api, test_mesh_hand);
    tcase_add_test(api, test_mesh_owns_copies);
    tcase_add_test(api, test_mesh_set_positions);
    tcase_add_test(api, test_mesh_queries);
    tcase_add_test(api, test_mesh_create_errors);
    tcase_add_test(api, test_mesh_apply_errors);
    tcase_add_test(api, test_mesh_created_under_each_isa);
    suite_add_tcase(s, api);
    TCase *isa = tcase_create("every_isa");
    tcase_set_timeout(isa, 240);
    tcase_add_loop_test(isa, test_mesh_every_isa, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(isa, test_mesh_palette_offsets, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(isa, test_mesh_large_palettes, 0, TENDON_ISA_COUNT);
    suite_add_tcase(s, isa);
    return s;
}

int main(void)
{
    if (env_isa_unusable())
        return 77;
    return run_suite(mesh_suite());
}
