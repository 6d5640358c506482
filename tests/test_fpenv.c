/*
 * test_fpenv — the floating-point environment of a calling thread (issue 14; docs/determinism.md,
 * "The floating-point environment"; tendon/fpenv.h).
 *
 * In the default build (TENDON_FPENV=guard), under each mode a caller's thread may have — FTZ,
 * DAZ, FTZ+DAZ, FE_DOWNWARD, FE_UPWARD, FE_TOWARDZERO, and FTZ+DAZ+FE_UPWARD together (on
 * AArch64 FTZ and DAZ are both FPCR.FZ) — on the active ISA (ctest runs this suite once per
 * TENDON_ISA) and, through the _on forms, on every ISA that runs here:
 *   - a representative public call of each module gives the same bytes as in the default
 *     environment, on inputs where the mode matters (denormals, inexact results: the raw kernel
 *     table, which is not guarded, is shown to give other bits under every mode on them);
 *   - the control register is the caller's again after every call;
 *   - every user callback (spring anchors plain and status, the rig's weight function and root
 *     transform, a blend tree's pose source, a transition predicate) runs in the caller's mode
 *     (its own arithmetic is the caller's business; the ones here compute with integers only);
 *   - tendon_fpenv_enter / tendon_fpenv_leave around raw kernel calls give the default bits and
 *     put the mode back; tendon_fpenv_describe names the modes.
 * Built with TENDON_FPENV=check (a separate build directory): every such call is refused with
 * TENDON_ERR_FPENV, the message naming the register value, and writes nothing.
 * No tolerances: bytes are compared with memcmp.
 */
#define _GNU_SOURCE
#include <fenv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

/* ---- the modes ------------------------------------------------------------------------------ */

enum { M_DEFAULT, M_FTZ, M_DAZ, M_FTZ_DAZ, M_DOWN, M_UP, M_ZERO, M_ALL, MODE_COUNT };
static const char *const MODE_NAME[MODE_COUNT] = {
    "default", "FTZ", "DAZ", "FTZ+DAZ", "FE_DOWNWARD", "FE_UPWARD", "FE_TOWARDZERO",
    "FTZ+DAZ+FE_UPWARD"};

static uint64_t reg(void)
{
#if defined(__x86_64__)
    uint32_t csr;
    __asm__ volatile("stmxcsr %0" : "=m"(csr)::"memory");
    return csr;
#elif defined(__aarch64__)
    uint64_t fpcr;
    __asm__ volatile("mrs %0, fpcr" : "=r"(fpcr)::"memory");
    return fpcr;
#else
    return 0;
#endif
}

/* The control bits only (x86: without the sticky flags). */
static uint64_t ctrl(uint64_t r)
{
#if defined(__x86_64__)
    return r & ~(uint64_t)0x3f;
#else
    return r;
#endif
}

static void set_mode(int m)
{
    const int ftz = m == M_FTZ || m == M_FTZ_DAZ || m == M_ALL;
    const int daz = m == M_DAZ || m == M_FTZ_DAZ || m == M_ALL;
    const int round = m == M_DOWN ? FE_DOWNWARD
                      : m == M_UP || m == M_ALL ? FE_UPWARD
                      : m == M_ZERO             ? FE_TOWARDZERO
                                                : FE_TONEAREST;
    ck_assert(fesetround(round) == 0);
#if defined(__x86_64__)
    uint32_t csr = (uint32_t)reg();
    csr = (csr & ~(0x8000u | 0x40u)) | (ftz ? 0x8000u : 0) | (daz ? 0x40u : 0);
    __asm__ volatile("ldmxcsr %0" ::"m"(csr) : "memory");
#elif defined(__aarch64__)
    uint64_t fpcr = reg();
    fpcr = (fpcr & ~(1ull << 24)) | ((ftz || daz) ? (1ull << 24) : 0);
    __asm__ volatile("msr fpcr, %0" ::"r"(fpcr) : "memory");
#else
    (void)ftz;
    (void)daz;
#endif
    if (m != M_DEFAULT)
        ck_assert_msg(!tendon_fpenv_is_defined(reg()), "mode %s did not change the register",
                      MODE_NAME[m]);
}

/* ---- outputs, compared byte for byte -------------------------------------------------------- */

typedef struct out_buf {
    unsigned char *p;
    size_t n, cap;
} out_buf;

static void put(out_buf *o, const void *data, size_t bytes)
{
    if (o->n + bytes > o->cap) {
        o->cap = 2 * (o->n + bytes) + 4096;
        o->p = realloc(o->p, o->cap);
        ck_assert(o->p != NULL);
    }
    memcpy(o->p + o->n, data, bytes);
    o->n += bytes;
}

static void put_pose(out_buf *o, const tendon_pose *p)
{
    put(o, p->translation, 3 * p->joint_count * sizeof(float));
    put(o, p->rotation, 4 * p->joint_count * sizeof(float));
    put(o, p->scale, 3 * p->joint_count * sizeof(float));
}

/* What callbacks saw: every call's control register, against the caller's. */
typedef struct seen {
    uint64_t expect;
    size_t calls, wrong;
    uint64_t first_wrong;
} seen;
static seen g_seen; /* the test's own state (the library keeps none) */

static void saw(void)
{
    const uint64_t r = reg();
    ++g_seen.calls;
    if (ctrl(r) != ctrl(g_seen.expect) && g_seen.wrong++ == 0)
        g_seen.first_wrong = r;
}

/*
 * One library call in mode m: the register is the caller's again afterwards (and the status
 * TENDON_OK). Evaluates to nothing; callbacks inside record what they saw in g_seen.
 */
#define IN_MODE(m, call)                                                                           \
    do {                                                                                           \
        set_mode(m);                                                                               \
        const uint64_t before_ = reg();                                                            \
        g_seen.expect = before_;                                                                   \
        const tendon_status st_ = (call);                                                          \
        const uint64_t after_ = reg();                                                             \
        set_mode(M_DEFAULT);                                                                       \
        ck_assert_msg(ctrl(after_) == ctrl(before_),                                               \
                      "%s in %s: the control register went from 0x%llx to 0x%llx", #call,         \
                      MODE_NAME[m], (unsigned long long)before_, (unsigned long long)after_);     \
        ck_assert_msg(st_ == TENDON_OK, "%s in %s: %s: %s", #call, MODE_NAME[m],                   \
                      tendon_status_name(st_), tendon_error_message());                            \
    } while (0)

/* ---- inputs: built in the default environment, mode-sensitive --------------------------------*/

enum { N = 67 }; /* joints, quaternions: odd, so every tail path runs */

static float tiny(test_rng *r) /* a denormal float, either sign */
{
    const uint32_t bits = (uint32_t)(rng_u64(r) & 0x007FFFFFu) | 1u |
                          ((rng_u64(r) & 1) ? 0x80000000u : 0);
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static void random_pose(test_rng *r, tendon_pose *p, int denormals)
{
    for (size_t j = 0; j < p->joint_count; ++j) {
        for (int c = 0; c < 3; ++c) {
            p->translation[3 * j + c] =
                denormals && (j + c) % 3 == 0 ? tiny(r) : (float)rng_range(r, -2.0, 2.0);
            p->scale[3 * j + c] = (float)rng_range(r, 0.5, 1.7);
        }
        rng_unit_quat(r, p->rotation + 4 * j);
        if (denormals == 1 && j % 5 == 1) /* 2: translations only (a skeleton's rest pose) */
            p->rotation[4 * j] = tiny(r);
    }
}

/* Integer-only "functions of time" for callbacks: the same bits in any mode. */
static uint64_t time_hash(double t)
{
    uint64_t b;
    memcpy(&b, &t, sizeof b);
    b ^= b >> 29;
    b *= 0xbf58476d1ce4e5b9ull;
    return b ^ (b >> 32);
}
static float hash_float(uint64_t h, int k) /* a float in [1, 2) from bits: no arithmetic */
{
    const uint32_t bits = 0x3f800000u | (uint32_t)((h >> (k * 7)) & 0x7FFFFFu);
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

static void anchor_cb(void *user, double t, float *out)
{
    (void)user;
    saw();
    const uint64_t h = time_hash(t);
    for (int k = 0; k < 3; ++k)
        out[k] = hash_float(h, k) - 0.0f; /* - 0.0f is exact in every mode */
}
static void anchor_many_cb(void *user, double t, float *out)
{
    const size_t n = *(const size_t *)user;
    saw();
    const uint64_t h = time_hash(t);
    for (size_t i = 0; i < 3 * n; ++i)
        out[i] = hash_float(h + i, (int)(i % 3));
}
static tendon_status anchor_status_cb(void *user, double t, float *out)
{
    anchor_many_cb(user, t, out);
    return TENDON_OK;
}

/* ---- the cases: one or more public calls of a module, their outputs appended --------------- */

static void case_quat(int m, out_buf *o)
{
    test_rng r;
    rng_seed(&r, 0x9e11);
    static float a[4 * N], b[4 * N], out[4 * N], tf[N];
    static double t[N];
    for (int i = 0; i < N; ++i) {
        rng_unit_quat(&r, a + 4 * i);
        rng_unit_quat(&r, b + 4 * i);
        if (i % 4 == 0) /* near-parallel: the straight-blend branch */
            for (int c = 0; c < 4; ++c)
                b[4 * i + c] = a[4 * i + c] + (float)rng_range(&r, -1e-3, 1e-3);
        if (i % 7 == 3)
            a[4 * i + 1] = tiny(&r);
        t[i] = rng_unit(&r);
        tf[i] = (float)t[i];
    }
    IN_MODE(m, tendon_quat_slerp(a, b, t, N, out));
    put(o, out, sizeof out);
    IN_MODE(m, tendon_quat_nlerp(a, b, t, N, out));
    put(o, out, sizeof out);
    IN_MODE(m, tendon_quat_multiply(a, b, N, out));
    put(o, out, sizeof out);
    IN_MODE(m, tendon_quat_slerp_f32(a, b, tf, N, out));
    put(o, out, sizeof out);
}

typedef struct poses {
    tendon_pose a, b, out;
    float mask[N];
} poses;

static void make_poses(poses *p)
{
    test_rng r;
    rng_seed(&r, 0xb1e4d);
    ck_assert(tendon_pose_create(N, &p->a) == TENDON_OK);
    ck_assert(tendon_pose_create(N, &p->b) == TENDON_OK);
    ck_assert(tendon_pose_create(N, &p->out) == TENDON_OK);
    random_pose(&r, &p->a, 1);
    random_pose(&r, &p->b, 1);
    for (int j = 0; j < N; ++j)
        p->mask[j] = j % 9 == 0 ? tiny(&r) : (float)rng_unit(&r);
}

static void free_poses(poses *p)
{
    tendon_pose_destroy(&p->a);
    tendon_pose_destroy(&p->b);
    tendon_pose_destroy(&p->out);
}

static void case_blend(int m, out_buf *o)
{
    poses p;
    make_poses(&p);
    const double t = 0.3183098861837907; /* 1/π: inexact products */
    IN_MODE(m, tendon_pose_blend(&p.a, &p.b, t, &p.out));
    put_pose(o, &p.out);
    IN_MODE(m, tendon_pose_add_masked(&p.a, &p.b, 0.7, p.mask, &p.out));
    put_pose(o, &p.out);
    IN_MODE(m, tendon_pose_blend_f32(&p.a, &p.b, t, &p.out));
    put_pose(o, &p.out);
    IN_MODE(m, tendon_pose_blend_nlerp_masked_f32(&p.a, &p.b, t, p.mask, &p.out));
    put_pose(o, &p.out);
    IN_MODE(m, tendon_pose_delta(&p.a, &p.b, &p.out));
    put_pose(o, &p.out);
    free_poses(&p);
}

/* A chain skeleton of N joints (parents j − 1, a root every 10), rest pose with denormals. */
static tendon_skeleton *make_skeleton(int m, tendon_pose *rest)
{
    static int32_t parents[N];
    static char names[N][24]; /* room for any int in "joint%d" */
    static const char *name_ptr[N];
    for (int j = 0; j < N; ++j) {
        parents[j] = j % 10 == 0 ? -1 : j - 1;
        snprintf(names[j], sizeof names[j], "joint%d", j);
        name_ptr[j] = names[j];
    }
    test_rng r;
    rng_seed(&r, 0x5ce1);
    ck_assert(tendon_pose_create(N, rest) == TENDON_OK);
    random_pose(&r, rest, 2);
    const tendon_skeleton_desc d = {N, parents, name_ptr, rest};
    tendon_skeleton *sk = NULL;
    IN_MODE(m, tendon_skeleton_create(&d, &sk));
    return sk;
}

static void case_skeleton(int m, out_buf *o)
{
    tendon_pose rest;
    tendon_skeleton *sk = make_skeleton(m, &rest);
    poses p;
    make_poses(&p);
    static float model[16 * N], local[16 * N], palette[16 * N], ibm[16 * N];
    static uint32_t joint_of[N];
    for (int j = 0; j < N; ++j)
        joint_of[j] = (uint32_t)(N - 1 - j);
    const float root[16] = {1.1f, 0.1f, 0, 0, -0.1f, 0.9f, 0, 0, 0, 0, 1.3f, 0, 0.25f, -1.5f, 3, 1};
    IN_MODE(m, tendon_local_matrices(&p.a, local));
    put(o, local, sizeof local);
    IN_MODE(m, tendon_pose_model_matrices(sk, &p.a, root, model));
    put(o, model, sizeof model);
    IN_MODE(m, tendon_inverse_bind_from_rest(sk, NULL, joint_of, N, ibm));
    put(o, ibm, sizeof ibm);
    tendon_skin_binding *bind = NULL;
    IN_MODE(m, tendon_skin_binding_create(sk, joint_of, ibm, N, &bind));
    IN_MODE(m, tendon_pose_palette(sk, bind, &p.a, NULL, model, palette));
    put(o, palette, sizeof palette);
    /* the _on form on every ISA that runs here */
    for (int isa = 0; isa < TENDON_ISA_COUNT; ++isa) {
        const tendon_kernels *k = tendon_kernels_for((tendon_isa)isa);
        if (!k)
            continue;
        IN_MODE(m, tendon_model_matrices_on(k, sk, local, root, 0, N, model));
        put(o, model, sizeof model);
    }
    /* skinning of positions and normals by that palette, and morph targets */
    enum { V = 41 };
    static float pos[3 * V], nrm[3 * V], opos[3 * V], onrm[3 * V], w[4 * V], d0[3 * V],
        d1[3 * V], morphed[3 * V];
    static uint16_t jo[4 * V];
    test_rng r;
    rng_seed(&r, 0x5c1);
    for (int v = 0; v < 3 * V; ++v) {
        pos[v] = v % 11 == 0 ? tiny(&r) : (float)rng_range(&r, -1, 1);
        nrm[v] = (float)rng_range(&r, -1, 1);
        d0[v] = v % 5 == 0 ? tiny(&r) : (float)rng_range(&r, -0.1, 0.1);
        d1[v] = (float)rng_range(&r, -0.1, 0.1);
    }
    for (int v = 0; v < V; ++v)
        for (int i = 0; i < 4; ++i) {
            jo[4 * v + i] = (uint16_t)((v * 7 + i * 13) % N);
            w[4 * v + i] = (float)(0.1 + 0.2 * i + 0.001 * v);
        }
    tendon_skin_job job;
    memset(&job, 0, sizeof job);
    job.palette = palette;
    job.palette_count = N;
    job.vertex_count = V;
    job.influence_count = 4;
    job.joint_index_type = TENDON_JOINT_INDEX_U16;
    job.joints = jo;
    job.weights = w;
    job.positions = pos;
    job.out_positions = opos;
    job.normals = nrm;
    job.out_normals = onrm;
    IN_MODE(m, tendon_skin(&job));
    put(o, opos, sizeof opos);
    put(o, onrm, sizeof onrm);
    const float *deltas[2] = {d0, d1};
    const float mw[2] = {0.3333333f, tiny(&r)};
    IN_MODE(m, tendon_morph(pos, deltas, mw, 2, 3 * V, morphed));
    put(o, morphed, sizeof morphed);
    /* a mask over the skeleton, and a retarget onto a copy of it */
    float mask[N];
    IN_MODE(m, tendon_bone_mask_by_index(sk, 2, 2.7, mask));
    put(o, mask, sizeof mask);
    tendon_retarget_map *map = NULL;
    IN_MODE(m, tendon_retarget_map_create(sk, sk, &map));
    IN_MODE(m, tendon_retarget_pose(map, &p.a, &p.out));
    put_pose(o, &p.out);
    tendon_retarget_map_destroy(map);
    tendon_skin_binding_destroy(bind);
    tendon_skeleton_destroy(sk);
    tendon_pose_destroy(&rest);
    free_poses(&p);
}

/* A clip over N joints: LINEAR rotations and translations (denormal values), CUBICSPLINE
   scales, created in mode m. */
static tendon_clip *make_clip(int m, float **storage)
{
    enum { K = 13 };
    static float times[K];
    for (int k = 0; k < K; ++k)
        times[k] = (float)k * 0.0833333f;
    float *v = malloc((size_t)N * K * (4 + 3 + 9) * sizeof(float));
    *storage = v;
    test_rng r;
    rng_seed(&r, 0xc11b);
    static tendon_track_desc tr[3 * N];
    size_t n = 0;
    for (int j = 0; j < N; ++j) {
        float *q = v;
        for (int k = 0; k < K; ++k)
            rng_unit_quat(&r, q + 4 * k);
        v += 4 * K;
        tr[n++] = (tendon_track_desc){(uint32_t)j, TENDON_PATH_ROTATION, TENDON_INTERP_LINEAR, 4,
                                      K, times, q};
        float *t = v;
        for (int k = 0; k < 3 * K; ++k)
            t[k] = k % 4 == 0 ? tiny(&r) : (float)rng_range(&r, -1, 1);
        v += 3 * K;
        tr[n++] = (tendon_track_desc){(uint32_t)j, TENDON_PATH_TRANSLATION, TENDON_INTERP_LINEAR,
                                      3, K, times, t};
        float *s = v;
        for (int k = 0; k < 9 * K; ++k)
            s[k] = (float)rng_range(&r, 0.8, 1.2);
        v += 9 * K;
        tr[n++] = (tendon_track_desc){(uint32_t)j, TENDON_PATH_SCALE, TENDON_INTERP_CUBICSPLINE, 3,
                                      K, times, s};
    }
    const tendon_clip_desc d = {N, n, tr};
    tendon_clip *clip = NULL;
    IN_MODE(m, tendon_clip_create(&d, &clip));
    return clip;
}

static void case_clip(int m, out_buf *o)
{
    float *storage;
    tendon_clip *clip = make_clip(m, &storage);
    poses p;
    make_poses(&p);
    static const double TIMES[5] = {0.0137, 0.3333333333333333, 0.61, 0.9999, 0.70710678118654757};
    for (int i = 0; i < 5; ++i) {
        IN_MODE(m, tendon_clip_sample(clip, TIMES[i], &p.out));
        put_pose(o, &p.out);
        IN_MODE(m, tendon_clip_sample_f32(clip, TIMES[i], &p.out));
        put_pose(o, &p.out);
    }
    tendon_root_motion rm;
    memset(&rm, 0, sizeof rm);
    IN_MODE(m, tendon_root_motion_extract(clip, 0, 0.1, 7.3, &rm));
    put(o, &rm, sizeof rm);
    /* many times of a few joints, on every ISA */
    static const uint32_t joints[3] = {1, 17, 66};
    tendon_pose many;
    ck_assert(tendon_pose_create(3 * 5, &many) == TENDON_OK);
    for (int isa = 0; isa < TENDON_ISA_COUNT; ++isa) {
        const tendon_kernels *k = tendon_kernels_for((tendon_isa)isa);
        if (!k)
            continue;
        IN_MODE(m, tendon_clip_sample_times_on(k, clip, TIMES, 5, joints, 3, &many));
        put_pose(o, &many);
        IN_MODE(m, tendon_clip_sample_times_f32_on(k, clip, TIMES, 5, joints, 3, &many));
        put_pose(o, &many);
    }
    tendon_pose_destroy(&many);
    tendon_clip_destroy(clip);
    free(storage);
    free_poses(&p);
}

static void case_spring(int m, out_buf *o)
{
    const tendon_spring_settings set = {2.7182818, 0.31, 0.5};
    double sec;
    IN_MODE(m, tendon_spring_settle_sec(&set, &sec));
    put(o, &sec, sizeof sec);
    tendon_spring_link links[5];
    for (int i = 0; i < 5; ++i)
        links[i] = (tendon_spring_link){1.3 + 0.7 * i, 0.2 + 0.15 * i, 0.4, {0.01, -0.1, 1e-310}};
    IN_MODE(m, tendon_spring_chain_settle_sec(links, 5, &sec));
    put(o, &sec, sizeof sec);
    size_t springs = 5, chains = 3;
    size_t bytes_b = 0, bytes_c = 0;
    ck_assert(tendon_spring_batch_workspace_size(springs, &bytes_b) == TENDON_OK);
    ck_assert(tendon_spring_chain_workspace_size(5, chains, &bytes_c) == TENDON_OK);
    void *ws = tendon_aligned_alloc(64, ((bytes_b > bytes_c ? bytes_b : bytes_c) + 63) / 64 * 64);
    float one[3], batch[3 * 5], chain[3 * 5 * 3];
    for (int isa = 0; isa < TENDON_ISA_COUNT; ++isa) {
        const tendon_kernels *k = tendon_kernels_for((tendon_isa)isa);
        if (!k)
            continue;
        IN_MODE(m, tendon_spring_sample_on(k, &set, anchor_cb, NULL, 1.2345, one));
        put(o, one, sizeof one);
        IN_MODE(m, tendon_spring_sample_batch_on(k, &set, anchor_many_cb, &springs, 0.77,
                                                 springs, ws, bytes_b, batch));
        put(o, batch, sizeof batch);
        IN_MODE(m, tendon_spring_sample_batch_status_on(k, &set, TENDON_SPRING_LOOKBACK_SLOW_POLE,
                                                        anchor_status_cb, &springs, 0.77, springs,
                                                        ws, bytes_b, batch));
        put(o, batch, sizeof batch);
        IN_MODE(m, tendon_spring_chain_sample_batch_on(k, links, 5, anchor_many_cb, &chains, 2.5,
                                                       chains, ws, bytes_c, chain,
                                                       sizeof chain / sizeof chain[0]));
        put(o, chain, sizeof chain);
        size_t one_chain = 1;
        IN_MODE(m, tendon_spring_chain_sample_status_on(
                       k, links, 5, TENDON_SPRING_LOOKBACK_SEED, anchor_status_cb, &one_chain,
                       0.25, TENDON_SPRING_MAX_WORK, NULL, 0, chain, 15));
        put(o, chain, 15 * sizeof(float));
    }
    IN_MODE(m, tendon_spring_sample(&set, anchor_cb, NULL, -3.5, one)); /* a forwarder */
    put(o, one, sizeof one);
    tendon_aligned_free(ws);
}

static void case_ik(int m, out_buf *o)
{
    const float root[3] = {0, 1.5f, 0}, mid[3] = {0.3f, 1.1f, 0.05f}, end[3] = {0.55f, 0.7f, 1e-39f};
    const float target[3] = {0.45f, 0.9f, 0.3333333f}, pole[3] = {0, 0, 1};
    tendon_ik_two_bone_result res;
    IN_MODE(m, tendon_ik_two_bone(root, mid, end, target, pole, 0.8125, &res));
    put(o, &res, sizeof res);
}

/* ---- graph: a pose source (which calls tendon itself, in the caller's mode) and a predicate */

typedef struct source_data {
    const tendon_pose *a, *b;
} source_data;

static void source_cb(void *user, double t, tendon_pose *out)
{
    const source_data *s = user;
    saw();
    /* a nested tendon call in the caller's environment: guarded on its own */
    const double w = (double)hash_float(time_hash(t), 1) - 1.0; /* exact: [0, 1) */
    ck_assert(tendon_pose_blend(s->a, s->b, w, out) == TENDON_OK);
    ck_assert_msg(ctrl(reg()) == ctrl(g_seen.expect), "a nested call changed the register");
}

static int predicate_cb(void *user, const tendon_parameters *params)
{
    (void)user;
    (void)params;
    saw();
    return 1;
}

static void case_graph(int m, out_buf *o)
{
    float *storage;
    tendon_clip *clip = make_clip(M_DEFAULT, &storage);
    poses p;
    make_poses(&p);
    source_data sd = {&p.a, &p.b};
    const tendon_blend_node nodes[3] = {
        {.kind = TENDON_BLEND_LERP, .parameter = "mix", .a = 1, .b = 2},
        {.kind = TENDON_BLEND_CLIP, .clip = clip},
        {.kind = TENDON_BLEND_SOURCE, .sample = source_cb, .user = &sd}};
    const tendon_blend_tree_desc td = {nodes, 3, 0, N, &p.a, TENDON_TIER_EXACT};
    tendon_blend_tree *tree = NULL, *tree2 = NULL;
    IN_MODE(m, tendon_blend_tree_create(&td, &tree));
    IN_MODE(m, tendon_blend_tree_set(tree, "mix", 0.4142135623730951));
    IN_MODE(m, tendon_blend_tree_evaluate(tree, 0.3, &p.out));
    put_pose(o, &p.out);
    const tendon_blend_tree_desc td2 = {nodes, 3, 0, N, &p.b, TENDON_TIER_F32};
    ck_assert(tendon_blend_tree_create(&td2, &tree2) == TENDON_OK);
    ck_assert(tendon_blend_tree_set(tree2, "mix", 0.7) == TENDON_OK);
    const tendon_state_desc states[2] = {{"idle", tree}, {"walk", tree2}};
    const tendon_transition_desc tr[1] = {{"idle", "walk", 0.3, predicate_cb, NULL}};
    const tendon_state_machine_desc md = {states, 2, tr, 1, N, NULL, 0, TENDON_TIER_EXACT};
    tendon_state_machine *sm = NULL;
    IN_MODE(m, tendon_state_machine_create(&md, &sm));
    for (int f = 0; f < 7; ++f) {
        IN_MODE(m, tendon_state_machine_advance(sm, 1.0 / 60.0));
        IN_MODE(m, tendon_state_machine_evaluate(sm, &p.out));
        put_pose(o, &p.out);
    }
    tendon_state_machine_destroy(sm);
    tendon_blend_tree_destroy(tree);
    tendon_blend_tree_destroy(tree2);
    tendon_clip_destroy(clip);
    free(storage);
    free_poses(&p);
}

/* ---- the spring rig: a weight function and a root transform ---------------------------------- */

static void weight_cb(void *user, const double *times, size_t count, double *out)
{
    (void)user;
    saw();
    for (size_t i = 0; i < count; ++i)
        out[i] = (double)hash_float(time_hash(times[i]), 2) - 1.0; /* exact */
}

static tendon_status root_cb(void *user, double t, float out[16])
{
    (void)user;
    saw();
    const uint64_t h = time_hash(t);
    const float m[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0,
                         hash_float(h, 0) - 1.0f, hash_float(h, 1) - 1.0f, 0.5f, 1};
    memcpy(out, m, sizeof m);
    return TENDON_OK;
}

static void case_rig(int m, out_buf *o)
{
    tendon_pose rest;
    tendon_skeleton *sk = make_skeleton(M_DEFAULT, &rest);
    float *s1, *s2;
    tendon_clip *walk = make_clip(M_DEFAULT, &s1), *wave = make_clip(M_DEFAULT, &s2);
    const tendon_spring_settings set = {3.1, 0.45, 0.3};
    static const uint32_t chain_joints[4] = {20, 21, 22, 23};
    const tendon_spring_rig_chain chain = {"tail", NULL, chain_joints, 4, {0.01f, 0, 0}, &set, 1,
                                           NULL};
    tendon_spring_rig_desc d;
    memset(&d, 0, sizeof d);
    d.skeleton = sk;
    d.chains = &chain;
    d.chain_count = 1;
    d.source.base = (tendon_rig_clip){walk, 0.0, 1};
    d.source.blend = (tendon_rig_clip){wave, 0.25, 1};
    d.source.blend_weight = (tendon_rig_weight){weight_cb, NULL, 0.0};
    d.root = root_cb;
    tendon_spring_rig *rig = NULL;
    IN_MODE(m, tendon_spring_rig_create(&d, &rig));
    size_t bytes = 0;
    ck_assert(tendon_spring_rig_workspace_size(rig, &bytes) == TENDON_OK);
    void *ws = malloc(bytes);
    float positions[3 * 3];
    tendon_pose pose, scratch;
    ck_assert(tendon_pose_create(N, &pose) == TENDON_OK);
    ck_assert(tendon_pose_create(N, &scratch) == TENDON_OK);
    ck_assert(tendon_pose_copy(&rest, &pose) == TENDON_OK);
    IN_MODE(m, tendon_spring_rig_sample(rig, 1.75, ws, bytes, positions, 9, &pose));
    put(o, positions, sizeof positions);
    put_pose(o, &pose);
    for (int isa = 0; isa < TENDON_ISA_COUNT; ++isa) {
        const tendon_kernels *k = tendon_kernels_for((tendon_isa)isa);
        if (!k)
            continue;
        IN_MODE(m, tendon_spring_rig_evaluate_on(k, rig, 0.6, ws, bytes));
        IN_MODE(m, tendon_spring_rig_march_on(k, rig, 0.6, ws, bytes, positions, 9, NULL));
        put(o, positions, sizeof positions);
    }
    IN_MODE(m, tendon_spring_rig_source_pose(rig, 0.9, &scratch, &pose));
    put_pose(o, &pose);
    static float model[16 * N];
    float anchor[3];
    IN_MODE(m, tendon_spring_rig_anchor(rig, 0, 0.9, &pose, &scratch, model, anchor));
    put(o, anchor, sizeof anchor);
    free(ws);
    tendon_pose_destroy(&pose);
    tendon_pose_destroy(&scratch);
    tendon_spring_rig_destroy(rig);
    tendon_clip_destroy(walk);
    tendon_clip_destroy(wave);
    free(s1);
    free(s2);
    tendon_skeleton_destroy(sk);
    tendon_pose_destroy(&rest);
}

typedef struct fp_case {
    const char *name;
    void (*run)(int mode, out_buf *o);
    int callbacks; /* nonzero: its callbacks must have run */
} fp_case;

static const fp_case CASES[] __attribute__((unused)) = {
    {"quat", case_quat, 0},     {"blend", case_blend, 0}, {"skeleton+skin+mask+retarget", case_skeleton, 0},
    {"clip", case_clip, 0},     {"spring", case_spring, 1}, {"ik", case_ik, 0},
    {"graph", case_graph, 1},   {"spring_rig", case_rig, 1}};
enum { CASE_COUNT = sizeof CASES / sizeof CASES[0] };

#if !defined(TENDON_FPENV_CHECK)

/* Every case in mode _i gives the default environment's bytes; callbacks saw the caller's mode. */
START_TEST(same_bits_in_every_mode)
{
    const int m = _i;
    for (int c = 0; c < CASE_COUNT; ++c) {
        out_buf want = {0}, got = {0};
        memset(&g_seen, 0, sizeof g_seen);
        CASES[c].run(M_DEFAULT, &want);
        ck_assert_uint_eq(g_seen.wrong, 0);
        memset(&g_seen, 0, sizeof g_seen);
        CASES[c].run(m, &got);
        ck_assert_msg(g_seen.wrong == 0,
                      "%s in %s: %zu of %zu callback calls ran in another environment (first: "
                      "0x%llx)",
                      CASES[c].name, MODE_NAME[m], g_seen.wrong, g_seen.calls,
                      (unsigned long long)g_seen.first_wrong);
        if (CASES[c].callbacks)
            ck_assert_msg(g_seen.calls > 0, "%s: no callback ran", CASES[c].name);
        ck_assert_uint_eq(got.n, want.n);
        size_t at = 0;
        while (at < want.n && want.p[at] == got.p[at])
            ++at;
        ck_assert_msg(at == want.n, "%s in %s: byte %zu of %zu differs from the default "
                      "environment's",
                      CASES[c].name, MODE_NAME[m], at, want.n);
        free(want.p);
        free(got.p);
    }
    printf("%s: %d modules' calls give the default bits; the register is restored; callbacks "
           "ran in the caller's mode\n",
           MODE_NAME[m], CASE_COUNT);
}
END_TEST

/* The raw kernel table is not guarded: on these inputs every mode changes its bits (so the
   equalities above are not vacuous), and tendon_fpenv_enter / _leave around it restores them. */
START_TEST(raw_kernels_and_enter_leave)
{
    const int m = _i;
    const tendon_kernels *k = tendon_kernels_for(TENDON_ISA_SCALAR);
    poses p;
    make_poses(&p);
    test_rng r;
    rng_seed(&r, 0x4a);
    static float qa[4 * N], qb[4 * N], q_def[4 * N], q_raw[4 * N], q_in[4 * N];
    static double t[N];
    for (int i = 0; i < N; ++i) {
        rng_unit_quat(&r, qa + 4 * i);
        rng_unit_quat(&r, qb + 4 * i);
        t[i] = rng_unit(&r);
    }
    tendon_pose def, raw;
    ck_assert(tendon_pose_create(N, &def) == TENDON_OK);
    ck_assert(tendon_pose_create(N, &raw) == TENDON_OK);
    const double w = 0.3183098861837907;
    k->pose_blend(&p.a, &p.b, w, NULL, N, &def);
    k->quat_slerp(qa, qb, t, N, q_def);

    set_mode(m);
    const uint64_t mode_reg = reg();
    k->pose_blend(&p.a, &p.b, w, NULL, N, &raw);
    k->quat_slerp(qa, qb, t, N, q_raw);
    tendon_fpenv saved;
    ck_assert(tendon_fpenv_enter(&saved) == TENDON_OK);
    const uint64_t inside = reg();
    k->pose_blend(&p.a, &p.b, w, NULL, N, &p.out);
    k->quat_slerp(qa, qb, t, N, q_in);
    ck_assert(tendon_fpenv_leave(&saved) == TENDON_OK);
    const uint64_t after = reg();
    set_mode(M_DEFAULT);

    ck_assert_msg(saved.switched && saved.caller == mode_reg, "enter did not save 0x%llx",
                  (unsigned long long)mode_reg);
    ck_assert_msg(tendon_fpenv_is_defined(inside), "inside enter: 0x%llx",
                  (unsigned long long)inside);
    ck_assert_msg(ctrl(after) == ctrl(mode_reg), "leave: 0x%llx, was 0x%llx",
                  (unsigned long long)after, (unsigned long long)mode_reg);
    const int raw_differs =
        memcmp(raw.translation, def.translation, 3 * N * sizeof(float)) != 0 ||
        memcmp(raw.rotation, def.rotation, 4 * N * sizeof(float)) != 0 ||
        memcmp(raw.scale, def.scale, 3 * N * sizeof(float)) != 0 ||
        memcmp(q_raw, q_def, sizeof q_def) != 0;
    ck_assert_msg(raw_differs, "%s changes nothing on these inputs: the test would be vacuous",
                  MODE_NAME[m]);
    ck_assert(memcmp(p.out.translation, def.translation, 3 * N * sizeof(float)) == 0);
    ck_assert(memcmp(p.out.rotation, def.rotation, 4 * N * sizeof(float)) == 0);
    ck_assert(memcmp(p.out.scale, def.scale, 3 * N * sizeof(float)) == 0);
    ck_assert(memcmp(q_in, q_def, sizeof q_def) == 0);
    tendon_pose_destroy(&def);
    tendon_pose_destroy(&raw);
    free_poses(&p);
}
END_TEST

#else /* TENDON_FPENV=check */

/* Every case's first call in mode _i is refused by name and writes nothing. */
START_TEST(check_mode_refuses)
{
    const int m = _i;
    poses p;
    make_poses(&p);
    memset(p.out.translation, 0xA5, 3 * N * sizeof(float));
    set_mode(m);
    const uint64_t r0 = reg();
    const tendon_status st = tendon_pose_blend(&p.a, &p.b, 0.25, &p.out);
    float q[4] = {7, 7, 7, 7};
    const float qa[4] = {0, 0, 0, 1};
    const double t = 0.5;
    const tendon_status st2 = tendon_quat_slerp(qa, qa, &t, 1, q);
    float one[3] = {7, 7, 7};
    const tendon_spring_settings set = {2, 0.5, 1};
    memset(&g_seen, 0, sizeof g_seen);
    const tendon_status st3 = tendon_spring_sample(&set, anchor_cb, NULL, 1.0, one);
    const uint64_t r1 = reg();
    set_mode(M_DEFAULT);
    ck_assert_int_eq(st, TENDON_ERR_FPENV);
    ck_assert_int_eq(st2, TENDON_ERR_FPENV);
    ck_assert_int_eq(st3, TENDON_ERR_FPENV);
    ck_assert_uint_eq(g_seen.calls, 0); /* refused before any callback */
    ck_assert(r0 == r1);
    char hex[32];
    snprintf(hex, sizeof hex, "0x%llx", (unsigned long long)r0);
    const char *msg = tendon_error_message();
    ck_assert_msg(strstr(msg, "tendon_spring_sample") && strstr(msg, hex) &&
                      strstr(msg, "TENDON_FPENV=check"),
                  "message: %s", msg);
    for (size_t i = 0; i < 3 * N * sizeof(float); ++i)
        ck_assert_uint_eq(((unsigned char *)p.out.translation)[i], 0xA5);
    ck_assert(q[0] == 7 && q[3] == 7 && one[0] == 7 && one[2] == 7);
    /* a constructor refused by the environment sets *out to NULL, as on every other error (it
       was left as it was: a caller destroying *out on failure freed garbage; a review) */
    {
        static const int32_t parents[2] = {-1, 0};
        const tendon_skeleton_desc sd = {2, parents, NULL, NULL};
        tendon_skeleton *sk = (tendon_skeleton *)(uintptr_t)0xdeadbeef;
        tendon_clip *clip = (tendon_clip *)(uintptr_t)0xdeadbeef;
        const tendon_clip_desc cd = {1, 0, NULL};
        set_mode(m);
        const tendon_status s1 = tendon_skeleton_create(&sd, &sk);
        const tendon_status s2 = tendon_clip_create(&cd, &clip);
        set_mode(M_DEFAULT);
        ck_assert_int_eq(s1, TENDON_ERR_FPENV);
        ck_assert_int_eq(s2, TENDON_ERR_FPENV);
        ck_assert_ptr_null(sk);
        ck_assert_ptr_null(clip);
    }
    /* in the default environment the same calls run */
    ck_assert(tendon_pose_blend(&p.a, &p.b, 0.25, &p.out) == TENDON_OK);
    ck_assert_str_eq(tendon_fpenv_mode(), "check");
    free_poses(&p);
}
END_TEST

#endif

/* The default environment: the fast path changes nothing; describe names the modes. */
START_TEST(default_and_describe)
{
    set_mode(M_DEFAULT);
    /* The sticky exception flags of earlier tests, when they ran in this same process (Check
       without fork, CK_FORK=no: the Windows build under wine), are not the default register. */
    feclearexcept(FE_ALL_EXCEPT);
    ck_assert(tendon_fpenv_is_defined(reg()));
    ck_assert(ctrl(tendon_fpenv_read()) == ctrl(tendon_fpenv_defined()));
    char d[200];
    const size_t n = tendon_fpenv_describe(reg(), d, sizeof d);
    ck_assert_uint_eq(n, strlen(d));
    ck_assert_msg(strstr(d, "round to nearest") != NULL, "%s", d);
#if defined(__x86_64__)
    ck_assert_msg(strstr(d, "MXCSR 0x1f80") && strstr(d, "FTZ off") && strstr(d, "DAZ off"), "%s",
                  d);
    tendon_fpenv_describe(0x9f80 | 0x40 | 0x4000, d, sizeof d); /* FTZ, DAZ, round up */
    ck_assert_msg(strstr(d, "round up") && strstr(d, "FTZ on") && strstr(d, "DAZ on"), "%s", d);
    tendon_fpenv_describe(0x1f00, d, sizeof d); /* invalid unmasked */
    ck_assert_msg(strstr(d, "traps invalid") != NULL, "%s", d);
    ck_assert(tendon_fpenv_is_defined(0x1f80 | 0x3f)); /* sticky flags ignored */
    ck_assert(!tendon_fpenv_is_defined(0x1f80 | 0x40));
#elif defined(__aarch64__)
    ck_assert_msg(strstr(d, "FPCR") && strstr(d, "FZ off"), "%s", d);
    tendon_fpenv_describe(1u << 24 | 2u << 22, d, sizeof d);
    ck_assert_msg(strstr(d, "FZ on") && strstr(d, "round down"), "%s", d);
#endif
    char small[8];
    ck_assert_uint_eq(tendon_fpenv_describe(reg(), small, sizeof small), n);
    ck_assert_uint_eq(strlen(small), 7);
    ck_assert_uint_eq(tendon_fpenv_describe(reg(), NULL, 0), n);
    ck_assert(tendon_fpenv_enter(NULL) == TENDON_ERR_NULL);
    ck_assert(tendon_fpenv_leave(NULL) == TENDON_ERR_NULL);
    tendon_fpenv e;
    ck_assert(tendon_fpenv_enter(&e) == TENDON_OK);
    ck_assert(!e.switched);
    ck_assert(tendon_fpenv_leave(&e) == TENDON_OK);
    ck_assert(tendon_fpenv_is_defined(reg()));
#if defined(__x86_64__)
    /* a struct enter never filled (reserved MXCSR bits 16-31 set, "switched"): refused by
       name, not loaded — ldmxcsr would fault (#GP, SIGSEGV) — and the register unchanged */
    const uint64_t before = tendon_fpenv_read();
    const tendon_fpenv bogus = {0xffffffffull, 1};
    ck_assert(tendon_fpenv_leave(&bogus) == TENDON_ERR_VALUE);
    ck_assert_msg(strstr(tendon_error_message(), "saved->caller is 0xffffffff") != NULL, "%s",
                  tendon_error_message());
    ck_assert(tendon_fpenv_read() == before);
    const tendon_fpenv unswitched = {0xffffffffull, 0}; /* enter changed nothing: nothing to do */
    ck_assert(tendon_fpenv_leave(&unswitched) == TENDON_OK);
    ck_assert(tendon_fpenv_read() == before);
#endif
}
END_TEST

int main(void)
{
    if (env_isa_unusable())
        return 77;
    Suite *s = suite_create("fpenv");
    TCase *tc = tcase_create("modes");
    tcase_set_timeout(tc, 120);
#if !defined(TENDON_FPENV_CHECK)
    tcase_add_loop_test(tc, same_bits_in_every_mode, M_FTZ, MODE_COUNT);
    tcase_add_loop_test(tc, raw_kernels_and_enter_leave, M_FTZ, MODE_COUNT);
#else
    tcase_add_loop_test(tc, check_mode_refuses, M_FTZ, MODE_COUNT);
#endif
    tcase_add_test(tc, default_and_describe);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
