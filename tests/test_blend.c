/*
 * test_blend — pose blend and the additive layer (tendon/blend.h), through the kernel tables.
 *
 * 1. Every ISA's pose_blend and pose_add, unmasked and masked (joint weights random, 0, 1, NaN,
 *    negative, > 1, ±∞), equal the scalar table bit for bit (NaNs by class) on random and
 *    adversarial poses, every joint count 0..67, unaligned arrays, out == a / out == b
 *    (base / delta), nothing written past the arrays; masked with every weight 1.0 equals
 *    unmasked bit for bit.
 * 2. The formulas, checked against values computed here: blend translation and scale
 *    from + (to − from)·w (the seed's order, in double, rounded once), rotation bit for bit the
 *    quat_slerp kernel's; t clamping (−1 ≡ 0, 2 ≡ 1, ±∞, NaN → all NaN); the hemisphere flip;
 *    the per-joint weight t·w_j. Additive: translation base + delta·w, scale
 *    base·(1 + (delta − 1)·w), rotation base ⊗ float(slerp(identity, delta, min(w, 1))) bit for
 *    bit the quat kernels' composition; weight < 0 ≡ 0; weight 0 with delta.w < 0 gives −base;
 *    weights 1e30 and +∞ as the seed computes them (rotation capped at 1).
 * 3. Bug cases anim-bug-06 (mirrored scale) and anim-bug-07 (additive applied as absolute).
 */
#define _POSIX_C_SOURCE 200809L
#include "support.h"

#include <float.h>
#include <inttypes.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COUNT 67
#define GUARD 32
#define SENTINEL 0xDEADBEEFu

/* ck_assert_msg marks a point (a write to Check's pipe) on every pass; in loops that run
   millions of times that dominates the run time, so the hot checks fail through this instead. */
#define EXPECT(expr, ...)                                                                          \
    do {                                                                                           \
        if (!(expr))                                                                               \
            ck_abort_msg(__VA_ARGS__);                                                             \
    } while (0)
#define INF_F ((float)INFINITY)
#define NAN_F ((float)NAN)

/* The seed-exact kernels and their float32 tier (docs/fast-tier.md). */
enum { K_BLEND, K_ADD, K_BLEND_F32, K_NLERP_F32, K_ADD_F32, K_COUNT };
static const char *const KNAME[K_COUNT] = {"pose_blend", "pose_add", "pose_blend_f32",
                                           "pose_blend_nlerp_f32", "pose_add_f32"};
static int is_additive(int which) { return which == K_ADD || which == K_ADD_F32; }
static const size_t WIDTH[3] = {3, 4, 3};
static const char *const ARRAY[3] = {"translation", "rotation", "scale"};

/* ---------------------------------------------------------------------------------------------
 * Poses whose three arrays are separately allocated, 64-byte-aligned blocks used at an offset
 * of `off` floats, each followed by a guard of sentinels.
 * ------------------------------------------------------------------------------------------- */

typedef struct tpose {
    float *block[3];
    size_t n;
    tendon_pose p;
} tpose;

static float *parr(const tendon_pose *p, int k)
{
    return k == 0 ? p->translation : k == 1 ? p->rotation : p->scale;
}

static tpose tpose_make(size_t n, size_t off)
{
    tpose t;
    float *arrays[3];
    for (int k = 0; k < 3; ++k) {
        const size_t bytes = ((WIDTH[k] * n + off + GUARD) * sizeof(float) + 63) & ~(size_t)63;
        t.block[k] = tendon_aligned_alloc(64, bytes);
        ck_assert_ptr_nonnull(t.block[k]);
        memset(t.block[k], 0, bytes);
        arrays[k] = t.block[k] + off;
    }
    t.n = n;
    t.p.translation = arrays[0];
    t.p.rotation = arrays[1];
    t.p.scale = arrays[2];
    t.p.joint_count = n;
    return t;
}

static void tpose_free(tpose *t)
{
    for (int k = 0; k < 3; ++k)
        tendon_aligned_free(t->block[k]);
}

static void tpose_fill_sentinel(tpose *t)
{
    const uint32_t s = SENTINEL;
    for (int k = 0; k < 3; ++k)
        for (size_t i = 0; i < WIDTH[k] * t->n + GUARD; ++i)
            memcpy(parr(&t->p, k) + i, &s, sizeof s);
}

static void tpose_copy_values(tpose *dst, const tendon_pose *src)
{
    for (int k = 0; k < 3; ++k)
        if (src->joint_count)
            memcpy(parr(&dst->p, k), parr(src, k), WIDTH[k] * src->joint_count * sizeof(float));
}

static void tpose_assert_guard(const tpose *t, const char *what)
{
    for (int k = 0; k < 3; ++k)
        for (size_t i = WIDTH[k] * t->n; i < WIDTH[k] * t->n + GUARD; ++i)
            EXPECT(float_bits(parr(&t->p, k)[i]) == SENTINEL,
                   "%s wrote past %s[%zu] (joint count %zu)", what, ARRAY[k], WIDTH[k] * t->n,
                   t->n);
}

/* ---------------------------------------------------------------------------------------------
 * Adversarial data (the quaternion part mirrors test_quat.c's generator).
 * ------------------------------------------------------------------------------------------- */

static const float ADV_Q[][4] = {
    {0, 0, 0, 1},
    {0, 0, 0, -1},
    {1, 0, 0, 0},
    {0, 1, 0, 0},
    {0.5f, 0.5f, 0.5f, 0.5f},
    {0.5f, -0.5f, 0.5f, -0.5f},
    {-0.5f, -0.5f, -0.5f, -0.5f},
    {0, 0, 0.70710677f, 0.70710677f},
    {0, 0, 0.984807753f, -0.173648178f},
    {0, 0, 0, 0},
    {-0.0f, -0.0f, -0.0f, -0.0f},
    {-0.0f, 0.0f, -0.0f, 1},
    {0, 0, 0.0316f, 0.9995f},
    {0, 0, 0.0316f, 0.99955f},
    {0, 0, 0, 2},
    {1e-20f, 0, 0, 1e-20f},
    {3e38f, 3e38f, 0, 0},
    {FLT_MAX, FLT_MAX, FLT_MAX, FLT_MAX},
    {1e-40f, 0, 0, 1},
    {1.4e-45f, -1.4e-45f, 1e-39f, -1e-38f},
    {NAN_F, 0, 0, 1},
    {0, 0, 0, NAN_F},
    {INF_F, 0, 0, 1},
    {0, 0, 0, -INF_F},
    {INF_F, NAN_F, 0, 1},
    {0x1p27f, 1.0f, 0x1p27f, 1.0f},   /* with the next: the seed's dot order flips, others */
    {0x1p27f, 0.5f, -0x1p27f, -0.3f}, /* do not (test_quat.c test_reduction_order) */
    {0x1p27f, 0.5f, -0x1p27f, 0.9996f},
};
#define N_ADV_Q (sizeof ADV_Q / sizeof ADV_Q[0])

/* t / weight values: 0, 1, −0, out of range, NaN, ±∞, huge, tiny, in between. */
static const double ADV_W[] = {0.0,      1.0,       -0.0,          -3.0,    7.0,  NAN,
                               INFINITY, -INFINITY, 1e30,          -1e30,   0.5,  0.25,
                               4.9e-324, 1e-310,    1.0 - 0x1p-53, 0x1p-30, 0.999};
#define N_ADV_W (sizeof ADV_W / sizeof ADV_W[0])

static const float ADV_TRANSLATION[] = {0.0f,      -0.0f, NAN_F,  INF_F,   -INF_F, 1e-40f,
                                        -1.4e-45f, 1e30f, -3e38f, FLT_MAX, 1e-30f, 1.0f};
static const float ADV_SCALE[] = {0.0f,   -0.0f, -1.0f, 1.0f,    NAN_F,  INF_F,
                                  1e-40f, 1e30f, -2.0f, FLT_MAX, -INF_F, 1e-30f};
static const float ADV_JOINT_WEIGHT[] = {0.0f,  1.0f,   NAN_F,  -0.5f, -0.0f, 2.5f,
                                         INF_F, -INF_F, 1e-40f, 0.5f,  1e30f, -1.0f};

static double dot_seed(const float a[4], const float b[4])
{
    return (((double)a[0] * b[0] + (double)a[1] * b[1]) + (double)a[2] * b[2]) +
           (double)a[3] * b[3];
}

/* b near a with the double dot within 1e-7 of 0.9995, on the side `side` (see test_quat.c). */
static void near_parallel(test_rng *r, int side, float a[4], float b[4])
{
    for (int tries = 0; tries < 100000; ++tries) {
        rng_unit_quat(r, a);
        const double target = 0.9995 + side * rng_range(r, 0.0, 1e-7);
        const double half = acos(target), sh = sin(half);
        double ax[3], len = 0;
        for (int c = 0; c < 3; ++c) {
            ax[c] = rng_range(r, -1, 1);
            len += ax[c] * ax[c];
        }
        if (len < 1e-3)
            continue;
        len = sqrt(len);
        const double rq[4] = {sh * ax[0] / len, sh * ax[1] / len, sh * ax[2] / len, cos(half)};
        const double A[4] = {a[0], a[1], a[2], a[3]};
        b[0] = (float)(A[3] * rq[0] + A[0] * rq[3] + A[1] * rq[2] - A[2] * rq[1]);
        b[1] = (float)(A[3] * rq[1] - A[0] * rq[2] + A[1] * rq[3] + A[2] * rq[0]);
        b[2] = (float)(A[3] * rq[2] + A[0] * rq[1] - A[1] * rq[0] + A[2] * rq[3]);
        b[3] = (float)(A[3] * rq[3] - A[0] * rq[0] - A[1] * rq[1] - A[2] * rq[2]);
        const double d = dot_seed(a, b) - 0.9995;
        if (side > 0 ? (d > 0 && d <= 1e-7) : (d <= 0 && d >= -1e-7))
            return;
    }
    ck_abort_msg("could not build a near-parallel pair");
}

static void gen_rotation_pair(test_rng *r, float a[4], float b[4])
{
    switch (rng_u64(r) % 12) {
    default:
        rng_unit_quat(r, a);
        rng_unit_quat(r, b);
        break;
    case 4:
        rng_unit_quat(r, a);
        memcpy(b, a, 4 * sizeof(float));
        break;
    case 5:
        rng_unit_quat(r, a);
        for (int c = 0; c < 4; ++c)
            b[c] = -a[c];
        break;
    case 6: near_parallel(r, +1, a, b); break;
    case 7: near_parallel(r, -1, a, b); break;
    case 8:
        near_parallel(r, (rng_u64(r) & 1) ? 1 : -1, a, b);
        for (int c = 0; c < 4; ++c)
            b[c] = -b[c];
        break;
    case 9: /* orthogonal: dot exactly 0 */
        rng_unit_quat(r, a);
        b[0] = -a[1];
        b[1] = a[0];
        b[2] = -a[3];
        b[3] = a[2];
        break;
    case 10:
        memcpy(a, ADV_Q[rng_u64(r) % N_ADV_Q], 4 * sizeof(float));
        memcpy(b, ADV_Q[rng_u64(r) % N_ADV_Q], 4 * sizeof(float));
        break;
    case 11: { /* non-unit and denormal */
        static const float S[] = {1e-39f, 1e-3f, 3.0f, 1e20f};
        rng_unit_quat(r, a);
        rng_unit_quat(r, b);
        const float sa = S[rng_u64(r) % 4], sb = S[rng_u64(r) % 4];
        for (int c = 0; c < 4; ++c) {
            a[c] *= sa;
            b[c] *= sb;
        }
        break;
    }
    }
}

static float gen_translation(test_rng *r)
{
    if (rng_u64(r) % 8 == 0)
        return ADV_TRANSLATION[rng_u64(r) % (sizeof ADV_TRANSLATION / sizeof(float))];
    return (float)rng_range(r, -10, 10);
}

static float gen_scale(test_rng *r)
{
    if (rng_u64(r) % 8 == 0)
        return ADV_SCALE[rng_u64(r) % (sizeof ADV_SCALE / sizeof(float))];
    const float s = (float)rng_range(r, 0.1, 3);
    return rng_u64(r) % 5 == 0 ? -s : s;
}

/* Fill a and b (n joints each) with random, adversarial data. */
static void gen_poses(test_rng *r, tendon_pose *a, tendon_pose *b)
{
    for (size_t j = 0; j < a->joint_count; ++j) {
        for (int c = 0; c < 3; ++c) {
            a->translation[3 * j + c] = gen_translation(r);
            b->translation[3 * j + c] = gen_translation(r);
            a->scale[3 * j + c] = gen_scale(r);
            b->scale[3 * j + c] = gen_scale(r);
        }
        gen_rotation_pair(r, a->rotation + 4 * j, b->rotation + 4 * j);
    }
}

static double gen_weight(test_rng *r)
{
    switch (rng_u64(r) % 4) {
    case 0: return rng_unit(r);
    case 1: return rng_range(r, -3, 7);
    default: return ADV_W[rng_u64(r) % N_ADV_W];
    }
}

/* Joint weights of kind 0..5: random in [0,1], all 0, all 1, all NaN, negative, a mix. */
static const char *const MASK_KIND[6] = {"random", "zero", "one", "NaN", "negative", "mixed"};
static void gen_mask(test_rng *r, int kind, float *w, size_t n)
{
    for (size_t j = 0; j < n; ++j) {
        switch (kind) {
        case 0: w[j] = (float)rng_unit(r); break;
        case 1: w[j] = 0.0f; break;
        case 2: w[j] = 1.0f; break;
        case 3: w[j] = NAN_F; break;
        case 4: w[j] = (float)-rng_range(r, 0, 2); break;
        default:
            w[j] = rng_u64(r) & 1
                       ? (float)rng_unit(r)
                       : ADV_JOINT_WEIGHT[rng_u64(r) % (sizeof ADV_JOINT_WEIGHT / sizeof(float))];
            break;
        }
    }
}

/* ---------------------------------------------------------------------------------------------
 * Bitwise against scalar
 * ------------------------------------------------------------------------------------------- */

static void call(const tendon_kernels *k, int which, const tendon_pose *a, const tendon_pose *b,
                 double t, const float *jw, size_t n, tendon_pose *out)
{
    switch (which) {
    case K_BLEND: k->pose_blend(a, b, t, jw, n, out); break;
    case K_ADD: k->pose_add(a, b, t, jw, n, out); break;
    case K_BLEND_F32: k->pose_blend_f32(a, b, t, jw, n, out); break;
    case K_NLERP_F32: k->pose_blend_nlerp_f32(a, b, t, jw, n, out); break;
    default: k->pose_add_f32(a, b, t, jw, n, out); break;
    }
}

typedef struct ctx {
    int isa, which;
    uint64_t seed;
    const char *how;
    double t;
    const float *jw;
} ctx;

/* Compare got against want, all three arrays; report joint, component, inputs, both values. */
static void assert_pose_same(const ctx *c, const tendon_pose *got, const tendon_pose *want,
                             const tendon_pose *a, const tendon_pose *b)
{
    const size_t n = want->joint_count;
    for (int k = 0; k < 3; ++k) {
        const long bad = first_float_diff(parr(got, k), parr(want, k), WIDTH[k] * n);
        if (bad < 0)
            continue;
        const size_t j = (size_t)bad / WIDTH[k], comp = (size_t)bad % WIDTH[k];
        char jws[48] = "none";
        if (c->jw)
            snprintf(jws, sizeof jws, "%a", (double)c->jw[j]);
        ck_abort_msg("%s %s (%s) differs from scalar: seed %" PRIu64 ", %zu joints, t/weight %a, "
                     "joint %zu weight %s, %s component %zu: got 0x%08" PRIx32 " (%a), scalar "
                     "0x%08" PRIx32 " (%a); inputs %a and %a; rotations (%a %a %a %a) and "
                     "(%a %a %a %a)",
                     tendon_isa_name((tendon_isa)c->isa), KNAME[c->which], c->how, c->seed, n, c->t,
                     j, jws, ARRAY[k], comp, float_bits(parr(got, k)[bad]),
                     (double)parr(got, k)[bad], float_bits(parr(want, k)[bad]),
                     (double)parr(want, k)[bad], (double)parr(a, k)[bad], (double)parr(b, k)[bad],
                     (double)a->rotation[4 * j], (double)a->rotation[4 * j + 1],
                     (double)a->rotation[4 * j + 2], (double)a->rotation[4 * j + 3],
                     (double)b->rotation[4 * j], (double)b->rotation[4 * j + 1],
                     (double)b->rotation[4 * j + 2], (double)b->rotation[4 * j + 3]);
    }
}

/*
 * ISA k against scalar on (a, b, t, jw): a fresh out, out == a, out == b; and when every joint
 * weight is 1.0, also against the unmasked call on the same ISA.
 */
static void check_against_scalar(ctx *c, const tendon_kernels *k, const tendon_pose *a,
                                 const tendon_pose *b, size_t off)
{
    const tendon_kernels *ref = tendon_kernels_for(TENDON_ISA_SCALAR);
    const size_t n = a->joint_count;
    tpose want = tpose_make(n, 0), got = tpose_make(n, off);
    call(ref, c->which, a, b, c->t, c->jw, n, &want.p);

    const char *base_how = c->how;
    tpose_fill_sentinel(&got);
    call(k, c->which, a, b, c->t, c->jw, n, &got.p);
    assert_pose_same(c, &got.p, &want.p, a, b);
    tpose_assert_guard(&got, KNAME[c->which]);

    c->how = !is_additive(c->which) ? "out == a" : "out == base";
    tpose_fill_sentinel(&got);
    tpose_copy_values(&got, a);
    call(k, c->which, &got.p, b, c->t, c->jw, n, &got.p);
    assert_pose_same(c, &got.p, &want.p, a, b);
    tpose_assert_guard(&got, KNAME[c->which]);

    c->how = !is_additive(c->which) ? "out == b" : "out == delta";
    tpose_fill_sentinel(&got);
    tpose_copy_values(&got, b);
    call(k, c->which, a, &got.p, c->t, c->jw, n, &got.p);
    assert_pose_same(c, &got.p, &want.p, a, b);
    tpose_assert_guard(&got, KNAME[c->which]);

    int all_one = c->jw != NULL;
    for (size_t j = 0; all_one && j < n; ++j)
        all_one = c->jw[j] == 1.0f;
    if (all_one) {
        /* masked with every weight 1.0 ≡ unmasked, bit for bit, on this ISA */
        c->how = "masked(1.0) vs unmasked";
        tpose_fill_sentinel(&got);
        call(k, c->which, a, b, c->t, NULL, n, &got.p);
        assert_pose_same(c, &want.p, &got.p, a, b);
    }
    c->how = base_how;
    tpose_free(&want);
    tpose_free(&got);
}

START_TEST(test_bitwise_random_counts)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    static const size_t OFFSETS[] = {1, 0, 3, 1, 2, 1, 1, 0, 1, 3, 1, 1};
    for (uint64_t s = 0; s < 12; ++s) {
        for (size_t n = 0; n <= MAX_COUNT; ++n) {
            const uint64_t seed = 0xB1E7D000u + 1000 * s + n;
            const size_t off = OFFSETS[s];
            test_rng r;
            rng_seed(&r, seed);
            tpose a = tpose_make(n, off), b = tpose_make(n, off);
            float *jw_block =
                tendon_aligned_alloc(64, ((n + 1 + GUARD) * sizeof(float) + 63) & ~(size_t)63);
            ck_assert_ptr_nonnull(jw_block);
            float *jw = jw_block + (off ? 1 : 0);
            gen_poses(&r, &a.p, &b.p);
            for (int which = 0; which < K_COUNT; ++which) {
                ctx c = {_i, which, seed, "out separate, unmasked", gen_weight(&r), NULL};
                check_against_scalar(&c, k, &a.p, &b.p, off);
                const int kind = (int)((s + n + (size_t)which) % 6);
                gen_mask(&r, kind, jw, n);
                c.jw = jw;
                c.how = MASK_KIND[kind];
                c.t = gen_weight(&r);
                check_against_scalar(&c, k, &a.p, &b.p, off);
                /* all ones, to compare masked and unmasked on this ISA */
                gen_mask(&r, 2, jw, n);
                c.how = "mask all 1.0";
                check_against_scalar(&c, k, &a.p, &b.p, off);
            }
            tpose_free(&a);
            tpose_free(&b);
            tendon_aligned_free(jw_block);
        }
    }
}
END_TEST

/* Every pair of adversarial rotations, with adversarial translation and scale, at every t. */
START_TEST(test_bitwise_adversarial_cross)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    const size_t n = N_ADV_Q * N_ADV_Q;
    const size_t NT = sizeof ADV_TRANSLATION / sizeof(float), NS = sizeof ADV_SCALE / sizeof(float);
    tpose a = tpose_make(n, 1), b = tpose_make(n, 1);
    float *jw = malloc(n * sizeof(float));
    ck_assert_ptr_nonnull(jw);
    for (size_t i = 0, j = 0; i < N_ADV_Q; ++i)
        for (size_t m = 0; m < N_ADV_Q; ++m, ++j) {
            memcpy(a.p.rotation + 4 * j, ADV_Q[i], 4 * sizeof(float));
            memcpy(b.p.rotation + 4 * j, ADV_Q[m], 4 * sizeof(float));
            for (size_t c = 0; c < 3; ++c) {
                a.p.translation[3 * j + c] = ADV_TRANSLATION[(j + c) % NT];
                b.p.translation[3 * j + c] = ADV_TRANSLATION[(j / NT + 2 * c) % NT];
                a.p.scale[3 * j + c] = ADV_SCALE[(j + 5 * c) % NS];
                b.p.scale[3 * j + c] = ADV_SCALE[(j / NS + c) % NS];
            }
            jw[j] = ADV_JOINT_WEIGHT[j % (sizeof ADV_JOINT_WEIGHT / sizeof(float))];
        }
    for (size_t i = 0; i < N_ADV_W; ++i)
        for (int which = 0; which < K_COUNT; ++which) {
            ctx c = {_i, which, 0, "adversarial cross, unmasked", ADV_W[i], NULL};
            check_against_scalar(&c, k, &a.p, &b.p, 1);
            c.how = "adversarial cross, masked";
            c.jw = jw;
            check_against_scalar(&c, k, &a.p, &b.p, 1);
        }
    tpose_free(&a);
    tpose_free(&b);
    free(jw);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * The formulas, on every ISA. Poses of REP joints so the SIMD blocks and the tail all run.
 * ------------------------------------------------------------------------------------------- */

#define REP 37 /* 2·16 + 5 joints: two unrolled AVX-512 blocks and a tail */

static double clamp01(double w) { return w < 0 ? 0 : w > 1 ? 1 : w; }

/* include/tendon/blend.h: m = clamp(mask, 0, 1); a joint with m = 0 is not in the layer (weight
   0 whatever t is), else t·m. */
static double mask_weight(double t, float mask)
{
    const double m = clamp01((double)mask);
    return m == 0.0 ? 0.0 : t * m;
}

/* Random pose pair of REP joints with finite, moderate values (the formula tests). */
static void gen_finite(test_rng *r, tendon_pose *a, tendon_pose *b)
{
    for (size_t j = 0; j < a->joint_count; ++j) {
        for (int c = 0; c < 3; ++c) {
            a->translation[3 * j + c] = (float)rng_range(r, -10, 10);
            b->translation[3 * j + c] = (float)rng_range(r, -10, 10);
            a->scale[3 * j + c] = (float)rng_range(r, -3, 3);
            b->scale[3 * j + c] = (float)rng_range(r, -3, 3);
        }
        rng_unit_quat(r, a->rotation + 4 * j);
        rng_unit_quat(r, b->rotation + 4 * j);
        if (j % 4 == 1) /* some pairs with dot < 0 */
            for (int c = 0; c < 4; ++c)
                b->rotation[4 * j + c] = -b->rotation[4 * j + c];
    }
}

static void assert_bits(const char *what, const tendon_kernels *k, size_t j, int comp, float got,
                        float want)
{
    EXPECT(same_float(got, want),
           "%s on %s, joint %zu component %d: got %a (0x%08" PRIx32 "), expected %a "
           "(0x%08" PRIx32 ")",
           what, tendon_isa_name(k->isa), j, comp, (double)got, float_bits(got), (double)want,
           float_bits(want));
}

/*
 * Blend: translation and scale are float(from + (to − from)·w) with w = clamp(t·m_j) (m_j the clamped mask, 0 where it is 0) computed
 * here in double (the seed's formula); the rotation is bit for bit the quat_slerp kernel of the
 * same ISA at w. Masked: joint j uses t·w_j.
 */
static void check_blend_formula(const tendon_kernels *k, const tendon_pose *a, const tendon_pose *b,
                                double t, const float *jw, const char *what)
{
    const size_t n = a->joint_count;
    tpose out = tpose_make(n, 1);
    k->pose_blend(a, b, t, jw, n, &out.p);
    float *q = malloc(4 * n * sizeof(float));
    double *w = malloc(n * sizeof(double));
    ck_assert(q && w);
    for (size_t j = 0; j < n; ++j)
        w[j] = clamp01(jw ? mask_weight(t, jw[j]) : t);
    k->quat_slerp(a->rotation, b->rotation, w, n, q);
    for (size_t j = 0; j < n; ++j) {
        for (int c = 0; c < 3; ++c) {
            const double ft = a->translation[3 * j + c], tt = b->translation[3 * j + c];
            const double fs = a->scale[3 * j + c], ts = b->scale[3 * j + c];
            assert_bits(what, k, j, c, out.p.translation[3 * j + c],
                        (float)(ft + (tt - ft) * w[j]));
            assert_bits(what, k, j, c, out.p.scale[3 * j + c], (float)(fs + (ts - fs) * w[j]));
        }
        for (int c = 0; c < 4; ++c)
            assert_bits(what, k, j, c, out.p.rotation[4 * j + c], q[4 * j + c]);
    }
    free(q);
    free(w);
    tpose_free(&out);
}

/*
 * Additive: translation float(bt + dt·w), scale float(bs·(1 + (ds − 1)·w)) with
 * w = max(weight·m_j, 0) (m_j as above) (the seed's formulas, here in double); rotation bit for bit
 * multiply(base, slerp(identity, delta, min(w, 1))) through the same ISA's quat kernels, whose
 * float store is the rounding of the scaled delta the seed's float32 scratch performs.
 */
static void check_add_formula(const tendon_kernels *k, const tendon_pose *base,
                              const tendon_pose *delta, double weight, const float *jw,
                              const char *what)
{
    const size_t n = base->joint_count;
    tpose out = tpose_make(n, 1);
    k->pose_add(base, delta, weight, jw, n, &out.p);
    float *ident = malloc(4 * n * sizeof(float)), *scaled = malloc(4 * n * sizeof(float)),
          *q = malloc(4 * n * sizeof(float));
    double *w = malloc(n * sizeof(double)), *wr = malloc(n * sizeof(double));
    ck_assert(ident && scaled && q && w && wr);
    for (size_t j = 0; j < n; ++j) {
        const double raw = jw ? mask_weight(weight, jw[j]) : weight;
        w[j] = raw < 0 ? 0 : raw;
        wr[j] = w[j] > 1 ? 1 : w[j];
        ident[4 * j] = ident[4 * j + 1] = ident[4 * j + 2] = 0;
        ident[4 * j + 3] = 1;
    }
    k->quat_slerp(ident, delta->rotation, wr, n, scaled);
    k->quat_multiply(base->rotation, scaled, n, q);
    for (size_t j = 0; j < n; ++j) {
        for (int c = 0; c < 3; ++c) {
            const double bt = base->translation[3 * j + c], dt = delta->translation[3 * j + c];
            const double bs = base->scale[3 * j + c], ds = delta->scale[3 * j + c];
            assert_bits(what, k, j, c, out.p.translation[3 * j + c], (float)(bt + dt * w[j]));
            assert_bits(what, k, j, c, out.p.scale[3 * j + c], (float)(bs * (1 + (ds - 1) * w[j])));
        }
        for (int c = 0; c < 4; ++c)
            assert_bits(what, k, j, c, out.p.rotation[4 * j + c], q[4 * j + c]);
    }
    free(ident);
    free(scaled);
    free(q);
    free(w);
    free(wr);
    tpose_free(&out);
}

START_TEST(test_blend_formula)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    test_rng r;
    rng_seed(&r, 0xF0E1u);
    tpose a = tpose_make(REP, 1), b = tpose_make(REP, 1);
    float jw[REP];
    for (int round = 0; round < 4; ++round) {
        gen_finite(&r, &a.p, &b.p);
        for (size_t i = 0; i < N_ADV_W; ++i) {
            check_blend_formula(k, &a.p, &b.p, ADV_W[i], NULL, "blend formula");
            check_add_formula(k, &a.p, &b.p, ADV_W[i], NULL, "additive formula");
        }
        for (int kind = 0; kind < 6; ++kind) {
            gen_mask(&r, kind, jw, REP);
            const double t = round == 0 ? 1.0 : rng_range(&r, -0.5, 1.5);
            check_blend_formula(k, &a.p, &b.p, t, jw, "masked blend formula");
            check_add_formula(k, &a.p, &b.p, t, jw, "masked additive formula");
        }
    }
    tpose_free(&a);
    tpose_free(&b);
}
END_TEST

/* Run one kernel on a pose pair of REP identical joints; return joint 0 after checking that
   every joint came out with the same bits. */
static void run_joint(const tendon_kernels *k, int which, const float at[3], const float ar[4],
                      const float as[3], const float bt[3], const float br[4], const float bs[3],
                      double t, float ot[3], float orr[4], float os[3])
{
    tpose a = tpose_make(REP, 1), b = tpose_make(REP, 1), out = tpose_make(REP, 1);
    for (size_t j = 0; j < REP; ++j) {
        memcpy(a.p.translation + 3 * j, at, 3 * sizeof(float));
        memcpy(a.p.rotation + 4 * j, ar, 4 * sizeof(float));
        memcpy(a.p.scale + 3 * j, as, 3 * sizeof(float));
        memcpy(b.p.translation + 3 * j, bt, 3 * sizeof(float));
        memcpy(b.p.rotation + 4 * j, br, 4 * sizeof(float));
        memcpy(b.p.scale + 3 * j, bs, 3 * sizeof(float));
    }
    call(k, which, &a.p, &b.p, t, NULL, REP, &out.p);
    for (int kk = 0; kk < 3; ++kk)
        for (size_t j = 1; j < REP; ++j)
            for (size_t c = 0; c < WIDTH[kk]; ++c)
                EXPECT(same_float(parr(&out.p, kk)[WIDTH[kk] * j + c], parr(&out.p, kk)[c]),
                       "%s on %s: joint %zu %s differs from joint 0", KNAME[which],
                       tendon_isa_name(k->isa), j, ARRAY[kk]);
    memcpy(ot, out.p.translation, 3 * sizeof(float));
    memcpy(orr, out.p.rotation, 4 * sizeof(float));
    memcpy(os, out.p.scale, 3 * sizeof(float));
    tpose_free(&a);
    tpose_free(&b);
    tpose_free(&out);
}

/*
 * Blend by hand: exact lerps of translation and scale; t = 0 gives a, t = 1 gives b; t clamped
 * (−1 ≡ 0, 2 ≡ 1, ±∞, 1e30 bitwise); NaN t gives NaN everywhere (even for a == b); the
 * hemisphere flip (rotation −a at t = 0 when dot < 0; dot == 0 does not flip).
 */
START_TEST(test_blend_values)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    const float at[3] = {1, 2, 3}, bt[3] = {3, -2, 7};
    const float as[3] = {1, 2, -1}, bs[3] = {3, 0.5f, 1};
    const float ar[4] = {0.5f, 0.5f, 0.5f, 0.5f};
    const float br_neg[4] = {0.5f, -0.5f, -0.5f, -0.5f}; /* dot −½ */
    const float br_orth[4] = {0.5f, -0.5f, 0.5f, -0.5f}; /* dot 0 */
    float ot[3], orr[4], os[3];

    run_joint(k, K_BLEND, at, ar, as, bt, br_neg, bs, 0.25, ot, orr, os);
    const float want_t[3] = {1.5f, 1.0f, 4.0f}, want_s[3] = {1.5f, 1.625f, -0.5f};
    for (int c = 0; c < 3; ++c) {
        assert_bits("blend translation at 0.25", k, 0, c, ot[c], want_t[c]);
        assert_bits("blend scale at 0.25", k, 0, c, os[c], want_s[c]);
    }

    /* t = 0: a's translation and scale; rotation −a (dot < 0 flips a) */
    run_joint(k, K_BLEND, at, ar, as, bt, br_neg, bs, 0.0, ot, orr, os);
    for (int c = 0; c < 3; ++c) {
        assert_bits("blend t=0 translation", k, 0, c, ot[c], at[c]);
        assert_bits("blend t=0 scale", k, 0, c, os[c], as[c]);
    }
    for (int c = 0; c < 4; ++c)
        EXPECT(orr[c] == -ar[c],
               "blend(a, b, 0) with dot < 0 on %s: rotation %d is %g, "
               "expected -a",
               tendon_isa_name(k->isa), c, (double)orr[c]);
    /* dot == 0 does not flip */
    run_joint(k, K_BLEND, at, ar, as, bt, br_orth, bs, 0.0, ot, orr, os);
    for (int c = 0; c < 4; ++c)
        EXPECT(orr[c] == ar[c],
               "blend(a, b, 0) with dot == 0 on %s: rotation %d is %g, "
               "expected a",
               tendon_isa_name(k->isa), c, (double)orr[c]);
    /* t = 1: b */
    run_joint(k, K_BLEND, at, ar, as, bt, br_neg, bs, 1.0, ot, orr, os);
    for (int c = 0; c < 3; ++c) {
        assert_bits("blend t=1 translation", k, 0, c, ot[c], bt[c]);
        assert_bits("blend t=1 scale", k, 0, c, os[c], bs[c]);
    }
    for (int c = 0; c < 4; ++c)
        ck_assert(orr[c] == br_neg[c]);

    /* clamping, bit for bit */
    float t0[3], r0[4], s0[3], t1[3], r1[4], s1[3];
    run_joint(k, K_BLEND, at, ar, as, bt, br_neg, bs, 0.0, t0, r0, s0);
    run_joint(k, K_BLEND, at, ar, as, bt, br_neg, bs, 1.0, t1, r1, s1);
    static const double LOW[] = {-1.0, -3.0, -1e30, -INFINITY};
    static const double HIGH[] = {2.0, 7.0, 1e30, INFINITY};
    for (int i = 0; i < 4; ++i) {
        run_joint(k, K_BLEND, at, ar, as, bt, br_neg, bs, LOW[i], ot, orr, os);
        for (int c = 0; c < 3; ++c) {
            assert_bits("t < 0 ≡ 0 (translation)", k, 0, c, ot[c], t0[c]);
            assert_bits("t < 0 ≡ 0 (scale)", k, 0, c, os[c], s0[c]);
        }
        for (int c = 0; c < 4; ++c)
            assert_bits("t < 0 ≡ 0 (rotation)", k, 0, c, orr[c], r0[c]);
        run_joint(k, K_BLEND, at, ar, as, bt, br_neg, bs, HIGH[i], ot, orr, os);
        for (int c = 0; c < 3; ++c) {
            assert_bits("t > 1 ≡ 1 (translation)", k, 0, c, ot[c], t1[c]);
            assert_bits("t > 1 ≡ 1 (scale)", k, 0, c, os[c], s1[c]);
        }
        for (int c = 0; c < 4; ++c)
            assert_bits("t > 1 ≡ 1 (rotation)", k, 0, c, orr[c], r1[c]);
    }
    /* NaN t: every output NaN, even blending a pose with itself */
    run_joint(k, K_BLEND, at, ar, as, at, ar, as, NAN, ot, orr, os);
    for (int c = 0; c < 3; ++c)
        EXPECT(ot[c] != ot[c] && os[c] != os[c],
               "NaN t on %s: translation/scale %d not "
               "NaN",
               tendon_isa_name(k->isa), c);
    for (int c = 0; c < 4; ++c)
        EXPECT(orr[c] != orr[c], "NaN t on %s: rotation %d not NaN", tendon_isa_name(k->isa), c);
}
END_TEST

/*
 * Additive by hand: translation adds delta·w; scale multiplies by 1 + (d − 1)·w; no upper clamp
 * for them; weight < 0 ≡ 0; weight 0 keeps the base (rotation −base when delta.w < 0); the
 * rotation weight is capped at 1 (2, 1e30, +∞ give weight 1's rotation bit for bit); weight +∞
 * and 1e30 give the seed's translation and scale (0·∞ = NaN where the delta is 0 or the
 * delta scale is 1); NaN weight gives NaN everywhere.
 */
START_TEST(test_add_values)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    const float bt[3] = {1, 2, 3}, dt[3] = {0.5f, -1, 0};
    const float bs[3] = {2, 2, -2}, ds[3] = {3, 0.5f, 1};
    const float br[4] = {0, 0, 0.70710677f, 0.70710677f}; /* 90° about z */
    const float dr[4] = {0, 0, 0.5f, 0.866025404f};       /* 60° about z */
    const float dr_neg[4] = {0, 0, -0.5f, -0.866025404f}; /* the same rotation, w < 0 */
    float ot[3], orr[4], os[3];

    run_joint(k, K_ADD, bt, br, bs, dt, dr, ds, 0.5, ot, orr, os);
    const float want_t[3] = {1.25f, 1.5f, 3}, want_s[3] = {4, 1.5f, -2};
    for (int c = 0; c < 3; ++c) {
        assert_bits("additive translation, w 0.5", k, 0, c, ot[c], want_t[c]);
        assert_bits("additive scale, w 0.5", k, 0, c, os[c], want_s[c]);
    }
    /* 90° + 30° about z = 120°: (0, 0, sin 60°, cos 60°); 1e-6 against the exact value (the
       inputs are float roundings of √½ and √3/2) */
    EXPECT(orr[0] == 0 && orr[1] == 0 && fabs(orr[2] - 0.86602540378443865) < 1e-6 &&
               fabs(orr[3] - 0.5) < 1e-6,
           "additive rotation at 0.5 on %s: (%g %g %g %g), expected 120 deg about z",
           tendon_isa_name(k->isa), (double)orr[0], (double)orr[1], (double)orr[2], (double)orr[3]);

    /* no upper clamp for translation and scale: weight 2 */
    run_joint(k, K_ADD, bt, br, bs, dt, dr, ds, 2.0, ot, orr, os);
    const float want_t2[3] = {2, 0, 3}, want_s2[3] = {10, 0, -2};
    for (int c = 0; c < 3; ++c) {
        assert_bits("additive translation, w 2", k, 0, c, ot[c], want_t2[c]);
        assert_bits("additive scale, w 2", k, 0, c, os[c], want_s2[c]);
    }

    /* rotation weight capped at 1 */
    float t1[3], r1[4], s1[3];
    run_joint(k, K_ADD, bt, br, bs, dt, dr, ds, 1.0, t1, r1, s1);
    static const double BIG[] = {2.0, 7.0, 1e30, INFINITY};
    for (int i = 0; i < 4; ++i) {
        run_joint(k, K_ADD, bt, br, bs, dt, dr, ds, BIG[i], ot, orr, os);
        for (int c = 0; c < 4; ++c)
            assert_bits("additive rotation weight capped at 1", k, 0, c, orr[c], r1[c]);
        for (int c = 0; c < 3; ++c) {
            /* the seed's formulas in double: at +∞, 0·∞ is NaN (dt[2] = 0, ds[2] = 1) */
            assert_bits("additive translation, big weight", k, 0, c, ot[c],
                        (float)((double)bt[c] + (double)dt[c] * BIG[i]));
            assert_bits("additive scale, big weight", k, 0, c, os[c],
                        (float)((double)bs[c] * (1 + ((double)ds[c] - 1) * BIG[i])));
        }
    }
    run_joint(k, K_ADD, bt, br, bs, dt, dr, ds, INFINITY, ot, orr, os);
    ck_assert(isinf(ot[0]) && ot[0] > 0 && isinf(ot[1]) && ot[1] < 0 && isnan(ot[2]));
    ck_assert(isinf(os[0]) && isinf(os[1]) && isnan(os[2]));

    /* weight < 0 ≡ 0, bit for bit; weight 0 leaves the base */
    float t0[3], r0[4], s0[3];
    run_joint(k, K_ADD, bt, br, bs, dt, dr, ds, 0.0, t0, r0, s0);
    for (int c = 0; c < 3; ++c) {
        assert_bits("additive weight 0 translation", k, 0, c, t0[c], bt[c]);
        assert_bits("additive weight 0 scale", k, 0, c, s0[c], bs[c]);
    }
    for (int c = 0; c < 4; ++c)
        EXPECT(r0[c] == br[c], "additive weight 0 on %s: rotation %d is %a, expected base",
               tendon_isa_name(k->isa), c, (double)r0[c]);
    static const double NEG[] = {-0.5, -1.0, -1e30, -INFINITY, -0.0};
    for (int i = 0; i < 5; ++i) {
        run_joint(k, K_ADD, bt, br, bs, dt, dr, ds, NEG[i], ot, orr, os);
        for (int c = 0; c < 3; ++c) {
            assert_bits("additive weight < 0 ≡ 0 (translation)", k, 0, c, ot[c], t0[c]);
            assert_bits("additive weight < 0 ≡ 0 (scale)", k, 0, c, os[c], s0[c]);
        }
        for (int c = 0; c < 4; ++c)
            assert_bits("additive weight < 0 ≡ 0 (rotation)", k, 0, c, orr[c], r0[c]);
    }

    /* weight 0 with delta.w < 0: −base (the flip of identity toward the delta) */
    run_joint(k, K_ADD, bt, br, bs, dt, dr_neg, ds, 0.0, ot, orr, os);
    for (int c = 0; c < 4; ++c)
        EXPECT(orr[c] == -br[c],
               "additive weight 0, delta.w < 0 on %s: rotation %d is %a, "
               "expected -base %a",
               tendon_isa_name(k->isa), c, (double)orr[c], -(double)br[c]);
    /* and at weight 1 the negated delta is the same rotation: ±(base ⊗ delta) */
    run_joint(k, K_ADD, bt, br, bs, dt, dr_neg, ds, 1.0, ot, orr, os);
    for (int c = 0; c < 4; ++c)
        EXPECT(fabs(fabs(orr[c]) - fabs(r1[c])) <= 1e-7, "delta vs -delta at weight 1");

    /* NaN weight: NaN everywhere */
    run_joint(k, K_ADD, bt, br, bs, dt, dr, ds, NAN, ot, orr, os);
    for (int c = 0; c < 3; ++c)
        ck_assert(isnan(ot[c]) && isnan(os[c]));
    for (int c = 0; c < 4; ++c)
        ck_assert(isnan(orr[c]));
}
END_TEST

/*
 * The seed's operation orders, where a different order gives a different float. Random data
 * cannot tell (double inside, one rounding on store); these inputs can, and the test proves it
 * in its own arithmetic first:
 *   lerp from + (to − from)·w, from = 2^60, to = 1, w = 1 − 2^-53: (1 − 2^60) rounds to −2^60,
 *     so the seed gives 128; (1 − w)·from + w·to gives 129 (the exact value is 129 − 2^-53).
 *   additive scale bs·(1 + (ds − 1)·w), bs = 3, ds = 0, w = 1 − 2^-53: 3·2^-53;
 *     bs + bs·(ds − 1)·w gives 2^-51.
 *   additive rotation base ⊗ scaled with scaled = (½, ½, ½, ½) (delta (½, ½, ½, ½) at weight 1)
 *     and base = (1, −2^55, −0.6, 2^55): x = ((2^54 + ½) − 2^54) + 0.3 = 0.3 in the seed's order,
 *     0 in (P1 + P2) + (P3 + P4).
 */
START_TEST(test_arithmetic_order)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    const double w = 1.0 - 0x1p-53;
    float ot[3], orr[4], os[3];

    /* blend lerp */
    const float from = 0x1p60f, to = 1.0f;
    const double seed_lerp = (double)from + ((double)to - (double)from) * w;
    const double other_lerp = (1.0 - w) * (double)from + w * (double)to;
    ck_assert(seed_lerp == 128.0 && (float)other_lerp == 129.0f);
    const float ft[3] = {from, from, from}, tt[3] = {to, to, to}, id[4] = {0, 0, 0, 1};
    run_joint(k, K_BLEND, ft, id, ft, tt, id, tt, w, ot, orr, os);
    for (int c = 0; c < 3; ++c) {
        assert_bits("blend translation in the seed's order (128, not 129)", k, 0, c, ot[c], 128.0f);
        assert_bits("blend scale in the seed's order (128, not 129)", k, 0, c, os[c], 128.0f);
    }

    /* additive scale */
    const double seed_scale = 3.0 * (1.0 + (0.0 - 1.0) * w);
    const double other_scale = 3.0 + 3.0 * (0.0 - 1.0) * w;
    ck_assert(seed_scale == 3 * 0x1p-53 && (float)other_scale == 0x1p-51f);
    const float bt[3] = {0, 0, 0}, bs[3] = {3, 3, 3}, dt[3] = {0, 0, 0}, ds[3] = {0, 0, 0};
    run_joint(k, K_ADD, bt, id, bs, dt, id, ds, w, ot, orr, os);
    for (int c = 0; c < 3; ++c)
        assert_bits("additive scale in the seed's order (3*2^-53, not 2^-51)", k, 0, c, os[c],
                    (float)(3 * 0x1p-53));

    /* additive rotation product */
    const float half[4] = {0.5f, 0.5f, 0.5f, 0.5f};
    const float base_r[4] = {1.0f, -0x1p55f, -0.6f, 0x1p55f};
    float scaled[4 * 3], identity[4 * 3] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}, halves[4 * 3];
    const double ones[3] = {1, 1, 1};
    for (int i = 0; i < 3; ++i)
        memcpy(halves + 4 * i, half, sizeof half);
    k->quat_slerp(identity, halves, ones, 3, scaled);
    for (int c = 0; c < 4; ++c)
        ck_assert_msg(scaled[c] == 0.5f, "slerp(identity, (1/2,1/2,1/2,1/2), 1) component %d = %a",
                      c, (double)scaled[c]);
    const double P[4] = {0x1p55 * 0.5, 1.0 * 0.5, -0x1p55 * 0.5, -(double)-0.6f * 0.5};
    ck_assert(((P[0] + P[1]) + P[2]) + P[3] == (double)0.3f &&
              (P[0] + P[1]) + (P[2] + P[3]) == 0.0);
    run_joint(k, K_ADD, bt, base_r, bs, dt, half, bs, 1.0, ot, orr, os);
    assert_bits("additive rotation x in the seed's product order (0.3, not 0)", k, 0, 0, orr[0],
                0.3f);
    const double bx = base_r[0], by = base_r[1], bz = base_r[2], bw = base_r[3], h = 0.5;
    const float want[4] = {(float)(((bw * h + bx * h) + by * h) - bz * h),
                           (float)(((bw * h - bx * h) + by * h) + bz * h),
                           (float)(((bw * h + bx * h) - by * h) + bz * h),
                           (float)(((bw * h - bx * h) - by * h) - bz * h)};
    for (int c = 0; c < 4; ++c)
        assert_bits("additive rotation, the seed's product formulas", k, 0, c, orr[c], want[c]);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Bug cases
 * ------------------------------------------------------------------------------------------- */


static json_t *jget(json_t *node, const char *key)
{
    json_t *v = json_object_get(node, key);
    EXPECT(v != NULL, "bugs.json: missing key %s", key);
    return v;
}

static void json_floats(json_t *node, float *out, size_t n)
{
    EXPECT(json_is_array(node) && json_array_size(node) == n, "expected %zu numbers", n);
    for (size_t i = 0; i < n; ++i)
        out[i] = (float)json_number_value(json_array_get(node, i));
}

/* Comment text as words: every run of spaces, newlines and the comment's leading '*' becomes one
   space, so a phrase is found wherever the doc wraps its lines. */
static void collapse_comment_whitespace(char *s)
{
    char *w = s;
    for (const char *r = s; *r;) {
        if (*r == '\n') {
            ++r;
            while (*r == ' ' || *r == '\t')
                ++r;
            if (*r == '*' && r[1] != '/')
                ++r;
            if (w > s && w[-1] != ' ')
                *w++ = ' ';
            continue;
        }
        if (*r == ' ' || *r == '\t') {
            if (w > s && w[-1] != ' ')
                *w++ = ' ';
            ++r;
            continue;
        }
        *w++ = *r++;
    }
    *w = '\0';
}

/* det of R(q)·diag(s), R from a unit quaternion (q normalised here in double first). */
static double det_rs(const float qf[4], const float s[3])
{
    double q[4] = {qf[0], qf[1], qf[2], qf[3]};
    const double len = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    for (int c = 0; c < 4; ++c)
        q[c] /= len;
    const double x = q[0], y = q[1], z = q[2], w = q[3];
    const double R[3][3] = {
        {1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)},
        {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)},
        {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)},
    };
    double M[3][3];
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
            M[i][j] = R[i][j] * s[j];
    return M[0][0] * (M[1][1] * M[2][2] - M[1][2] * M[2][1]) -
           M[0][1] * (M[1][0] * M[2][2] - M[1][2] * M[2][0]) +
           M[0][2] * (M[1][0] * M[2][1] - M[1][1] * M[2][0]);
}

/*
 * anim-bug-06 case_a: two poses with the same mirror axis s = (1, 1, −1) blend to s = (1, 1, −1)
 * (exact), t = 0, r = 45° about y (within 1e-6), det(R·S) = −1 within 1e-6, and the scale never
 * passes through 0 for any w. case_b: tendon has no matrix→TRS canonicalisation, so the
 * documented behaviour applies: two spellings of diag(1, 1, −1) blend componentwise into the
 * rank-deficient s = (0, 1, 0) at w = ½ (asserted exactly), and tendon_pose_blend's doc says
 * inputs need a consistent mirror axis (asserted by reading the header).
 */
START_TEST(test_bug06_pose_blend_mirrored_scale)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    const char *id = "anim-bug-06-pose-blend-mirrored-scale";
    json_t *c = test_bug_case(id), *in = jget(c, "input"), *ex = jget(c, "expected");
    const double tol = json_number_value(jget(c, "tolerance"));
    json_t *ca = jget(in, "case_a"), *ea = jget(ex, "case_a");
    float at[3], ar[4], as[3], bt[3], br[4], bs[3], wt[3], wr[4], ws[3];
    json_floats(jget(jget(ca, "A"), "t"), at, 3);
    json_floats(jget(jget(ca, "A"), "r_xyzw"), ar, 4);
    json_floats(jget(jget(ca, "A"), "s"), as, 3);
    json_floats(jget(jget(ca, "B"), "t"), bt, 3);
    json_floats(jget(jget(ca, "B"), "r_xyzw"), br, 4);
    json_floats(jget(jget(ca, "B"), "s"), bs, 3);
    json_floats(jget(ea, "t"), wt, 3);
    json_floats(jget(ea, "r_xyzw"), wr, 4);
    json_floats(jget(ea, "s"), ws, 3);
    const double w = json_number_value(jget(ca, "w"));
    const double want_det = json_number_value(jget(ea, "det3x3"));
    float ot[3], orr[4], os[3];
    run_joint(k, K_BLEND, at, ar, as, bt, br, bs, w, ot, orr, os);
    for (int cc = 0; cc < 3; ++cc) {
        EXPECT(ot[cc] == wt[cc], "%s case_a translation %d: %g", id, cc, (double)ot[cc]);
        EXPECT(os[cc] == ws[cc], "%s case_a scale %d on %s: %g, expected %g", id, cc,
               tendon_isa_name(k->isa), (double)os[cc], (double)ws[cc]);
    }
    for (int cc = 0; cc < 4; ++cc)
        EXPECT(fabs(orr[cc] - wr[cc]) <= tol, "%s case_a rotation %d on %s: %.9g vs %.9g", id, cc,
               tendon_isa_name(k->isa), (double)orr[cc], (double)wr[cc]);
    EXPECT(fabs(det_rs(orr, os) - want_det) <= tol, "%s case_a det %.9g on %s", id, det_rs(orr, os),
           tendon_isa_name(k->isa));
    /* the blended scale keeps the endpoints' sign for every w: no component passes through 0 */
    for (int i = 0; i <= 64; ++i) {
        run_joint(k, K_BLEND, at, ar, as, bt, br, bs, i / 64.0, ot, orr, os);
        for (int cc = 0; cc < 3; ++cc)
            EXPECT(os[cc] == as[cc], "%s case_a w = %g: scale %d is %g", id, i / 64.0, cc,
                   (double)os[cc]);
        EXPECT(fabs(det_rs(orr, os) + 1) <= tol, "%s case_a w = %g: det %.9g", id, i / 64.0,
               det_rs(orr, os));
    }

    /* case_b */
    json_t *cb = jget(in, "case_b");
    float r_a[4], s_a[3], r_b[4], s_b[3];
    const float zero3[3] = {0, 0, 0};
    json_floats(jget(jget(cb, "A"), "r_xyzw"), r_a, 4);
    json_floats(jget(jget(cb, "A"), "s"), s_a, 3);
    json_floats(jget(jget(cb, "B"), "r_xyzw"), r_b, 4);
    json_floats(jget(jget(cb, "B"), "s"), s_b, 3);
    /* both spellings are diag(1, 1, −1): det −1 each */
    ck_assert(fabs(det_rs(r_a, s_a) + 1) <= tol && fabs(det_rs(r_b, s_b) + 1) <= tol);
    run_joint(k, K_BLEND, zero3, r_a, s_a, zero3, r_b, s_b, json_number_value(jget(cb, "w")), ot,
              orr, os);
    const float collapsed[3] = {0, 1, 0};
    for (int cc = 0; cc < 3; ++cc)
        EXPECT(os[cc] == collapsed[cc],
               "%s case_b on %s: scale %d is %g; the documented componentwise blend gives "
               "(0, 1, 0)",
               id, tendon_isa_name(k->isa), cc, (double)os[cc]);
    ck_assert(fabs(det_rs(orr, os)) <= tol); /* rank-deficient, as documented */

    /* the doc of tendon_pose_blend says so */
    char *header = read_test_file("../../include/tendon/blend.h", NULL);
    collapse_comment_whitespace(header);
    const char *doc = strstr(header, "Blend `a` toward `b`");
    const char *decl = strstr(header, "tendon_pose_blend(");
    const char *say = strstr(header, "consistent mirror axis");
    EXPECT(doc && decl && say && doc < say && say < decl,
           "include/tendon/blend.h: the doc of tendon_pose_blend must say that blend "
           "inputs need a consistent mirror axis (bug-06 case_b)");
    free(header);
}
END_TEST

/*
 * anim-bug-07: the additive layer is a delta. Translation adds (1.25, 2, 3), rotation composes
 * (120° about z, not the 75° of slerp(base, delta)), scale multiplies (2, 2, 2, not 2.5);
 * 1e-6 against the case's decimals. An identity delta is a no-op bit for bit at any finite
 * weight (at +∞, 0·∞ = NaN, as in the seed).
 */
START_TEST(test_bug07_additive_applied_as_absolute)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    const char *id = "anim-bug-07-additive-applied-as-absolute";
    json_t *c = test_bug_case(id), *in = jget(c, "input"), *ex = jget(c, "expected");
    const double tol = json_number_value(jget(c, "tolerance"));
    float bt[3], br[4], bs[3], dt[3], dr[4], ds[3], wt[3], wr[4], ws[3];
    json_floats(jget(jget(in, "base"), "t"), bt, 3);
    json_floats(jget(jget(in, "base"), "r_xyzw"), br, 4);
    json_floats(jget(jget(in, "base"), "s"), bs, 3);
    json_floats(jget(jget(in, "additive"), "t"), dt, 3);
    json_floats(jget(jget(in, "additive"), "r_xyzw"), dr, 4);
    json_floats(jget(jget(in, "additive"), "s"), ds, 3);
    json_floats(jget(ex, "t"), wt, 3);
    json_floats(jget(ex, "r_xyzw"), wr, 4);
    json_floats(jget(ex, "s"), ws, 3);
    const double weight = json_number_value(jget(in, "weight"));
    float ot[3], orr[4], os[3];
    run_joint(k, K_ADD, bt, br, bs, dt, dr, ds, weight, ot, orr, os);
    for (int cc = 0; cc < 3; ++cc) {
        /* t = t_base + w·t_add */
        EXPECT(fabs(ot[cc] - wt[cc]) <= tol, "%s translation %d on %s: %.9g vs %.9g", id, cc,
               tendon_isa_name(k->isa), (double)ot[cc], (double)wt[cc]);
        /* s = s_base · lerp(1, s_add, w): (1, 1, 1) leaves the base scale */
        EXPECT(os[cc] == bs[cc] && fabs(os[cc] - ws[cc]) <= tol,
               "%s scale %d on %s: %.9g (the failure signature is 2.5)", id, cc,
               tendon_isa_name(k->isa), (double)os[cc]);
    }
    /* rotation: base ⊗ slerp(identity, delta, w) = 120° about z; not slerp(base, delta, w) */
    for (int cc = 0; cc < 4; ++cc)
        EXPECT(fabs(orr[cc] - wr[cc]) <= tol, "%s rotation %d on %s: %.9g vs %.9g", id, cc,
               tendon_isa_name(k->isa), (double)orr[cc], (double)wr[cc]);
    const double angle = 2 * acos(fabs((double)orr[3])) * 180 / 3.14159265358979323846;
    EXPECT(fabs(angle - 120) < 1e-4 && fabs(angle - 75) > 1, "%s: rotation is %.6g deg about z", id,
           angle);

    /* the identity additive is a no-op, bit for bit, at any finite weight */
    json_t *ia = jget(in, "identity_additive");
    float it[3], ir[4], is[3];
    json_floats(jget(ia, "t"), it, 3);
    json_floats(jget(ia, "r_xyzw"), ir, 4);
    json_floats(jget(ia, "s"), is, 3);
    const double weights[] = {json_number_value(jget(ia, "weight")), 0, 0.25, 0.5, 2, 1e30};
    for (size_t i = 0; i < sizeof weights / sizeof weights[0]; ++i) {
        run_joint(k, K_ADD, bt, br, bs, it, ir, is, weights[i], ot, orr, os);
        for (int cc = 0; cc < 3; ++cc) {
            assert_bits("bug-07 identity additive translation", k, 0, cc, ot[cc], bt[cc]);
            assert_bits("bug-07 identity additive scale", k, 0, cc, os[cc], bs[cc]);
        }
        for (int cc = 0; cc < 4; ++cc)
            assert_bits("bug-07 identity additive rotation", k, 0, cc, orr[cc], br[cc]);
    }
}
END_TEST

/*
 * A mask weight of 0 means the bone is not in the layer, whatever t or weight is: ±∞ and NaN
 * included (t·0 would be NaN). Such a joint gets exactly what the unmasked call gives at t = 0
 * (blend: a, or −a across the hemisphere flip) or weight = 0 (add: base, or −base for a delta
 * with w < 0); a mask of 1 gets the unmasked call at t. 19 joints: blocks and a tail, every ISA.
 */
START_TEST(test_mask_zero_is_untouched)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    enum { N = 19 };
    static const double T[] = {INFINITY, -INFINITY, NAN, 0.5, 7.0};
    test_rng r;
    rng_seed(&r, 0x3A5C0FFEEull);
    tpose a = tpose_make(N, 1), b = tpose_make(N, 1), out = tpose_make(N, 1), ref = tpose_make(N, 1);
    tpose ref0 = tpose_make(N, 1);
    float mask[N];
    for (size_t j = 0; j < N; ++j) {
        for (int c = 0; c < 3; ++c) {
            a.p.translation[3 * j + c] = (float)rng_range(&r, -5, 5);
            b.p.translation[3 * j + c] = (float)rng_range(&r, -5, 5);
            a.p.scale[3 * j + c] = (float)rng_range(&r, 0.5, 2);
            b.p.scale[3 * j + c] = (float)rng_range(&r, 0.5, 2);
        }
        rng_unit_quat(&r, a.p.rotation + 4 * j);
        rng_unit_quat(&r, b.p.rotation + 4 * j);
        mask[j] = j % 3 == 0 ? 0.0f : j % 3 == 1 ? 1.0f : -0.0f;
    }
    for (size_t i = 0; i < sizeof T / sizeof T[0]; ++i) {
        for (int op = 0; op < 2; ++op) {
            if (op == 0) {
                k->pose_blend(&a.p, &b.p, T[i], mask, N, &out.p);
                k->pose_blend(&a.p, &b.p, T[i], NULL, N, &ref.p);
                k->pose_blend(&a.p, &b.p, 0.0, NULL, N, &ref0.p);
            } else {
                k->pose_add(&a.p, &b.p, T[i], mask, N, &out.p);
                k->pose_add(&a.p, &b.p, T[i], NULL, N, &ref.p);
                k->pose_add(&a.p, &b.p, 0.0, NULL, N, &ref0.p);
            }
            for (size_t j = 0; j < N; ++j) {
                for (int arr = 0; arr < 3; ++arr) {
                    const int width = arr == 1 ? 4 : 3;
                    for (int c = 0; c < width; ++c) {
                        const float got = parr(&out.p, arr)[width * j + c];
                        const float want = mask[j] == 0.0f ? parr(&ref0.p, arr)[width * j + c]
                                                           : parr(&ref.p, arr)[width * j + c];
                        ck_assert_msg(same_float(got, want),
                                      "%s %s, t=%g, joint %zu (mask %g) array %d[%d]: got %a, "
                                      "want %a",
                                      tendon_isa_name((tendon_isa)_i), op ? "add" : "blend", T[i],
                                      j, (double)mask[j], arr, c, (double)got, (double)want);
                    }
                }
            }
        }
    }
    tpose_free(&a);
    tpose_free(&b);
    tpose_free(&out);
    tpose_free(&ref);
    tpose_free(&ref0);
}
END_TEST

static Suite *blend_suite(void)
{
    Suite *s = suite_create("blend");
    TCase *tc = tcase_create("bitwise");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_bitwise_random_counts, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(tc, test_bitwise_adversarial_cross, 0, TENDON_ISA_COUNT);
    suite_add_tcase(s, tc);

    tc = tcase_create("values");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_blend_formula, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(tc, test_blend_values, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(tc, test_add_values, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(tc, test_arithmetic_order, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(tc, test_mask_zero_is_untouched, 0, TENDON_ISA_COUNT);
    suite_add_tcase(s, tc);

    tc = tcase_create("bugs");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_bug06_pose_blend_mirrored_scale, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(tc, test_bug07_additive_applied_as_absolute, 0, TENDON_ISA_COUNT);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return run_suite(blend_suite()); }
