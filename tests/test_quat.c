/*
 * test_quat — the quaternion array kernels (tendon/quat.h): slerp, nlerp, product.
 *
 * 1. Every ISA's table equals the scalar table bit for bit (NaNs by class), on random and
 *    adversarial inputs, every count 0..67, unaligned buffers, aliased outputs, and nothing
 *    written past 4·count floats.
 * 2. Hand-computed values and properties: 45° half-way slerp, the hemisphere flip of a, the
 *    straight blend above dot 0.9995 (both sides of the threshold), zero-length results, t
 *    clamping, nlerp, product order (i⊗j = k, the seed's component formulas).
 * 3. A double-precision libm slerp oracle (the seed's formula with acos, sin and division),
 *    1 float ulp per component over 10k random pairs; the number of bit-exact components is
 *    printed.
 * 4. The bug cases of tests/data/bugs/bugs.json that concern these kernels (01, 02, 04, 20).
 *
 * Hand-computed tests run every ISA too, through tendon_kernels_for(), on 19 copies of each input
 * so that the SIMD blocks (2, 4, 8 lanes) and the scalar tail all see it; the copies must agree.
 * Tolerances appear only against external oracles (libm, the bug file's decimal values) and say
 * why; ISA-vs-scalar is always bitwise.
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

#define MAX_COUNT 67 /* every count 0..67: W−1, W, W+1, 2W+3… for W = 2, 4, 8, 16 */
/* copies of a hand-computed input: 2·16 + 3 (two unrolled AVX-512 blocks and a tail) */
#define REP 35
#define GUARD 32 /* floats of guard after an output, checked untouched */
#define SENTINEL 0xDEADBEEFu

/* ck_assert_msg marks a point (a write to Check's pipe) on every pass; in loops that run
   millions of times that dominates the run time, so the hot checks fail through this instead. */
#define EXPECT(expr, ...)                                                                          \
    do {                                                                                           \
        if (!(expr))                                                                               \
            ck_abort_msg(__VA_ARGS__);                                                             \
    } while (0)
#define PI 3.14159265358979323846

/* The seed-exact kernels and their float32 tier (the f32 ones take t as floats: (float)t[i]). */
enum { K_SLERP, K_NLERP, K_MULTIPLY, K_SLERP_F32, K_NLERP_F32, K_MULTIPLY_F32, K_COUNT };
static const char *const KNAME[K_COUNT] = {"quat_slerp",     "quat_nlerp",     "quat_multiply",
                                           "quat_slerp_f32", "quat_nlerp_f32", "quat_multiply_f32"};

/* ---------------------------------------------------------------------------------------------
 * Buffers: 64-byte-aligned blocks, used at an offset of `off` floats (1 = unaligned for every
 * vector width), with a guard of sentinels after the used part.
 * ------------------------------------------------------------------------------------------- */

typedef struct fbuf {
    float *base;
    float *p;
    size_t n;
} fbuf;

static fbuf fbuf_make(size_t n, size_t off)
{
    fbuf b;
    const size_t total = ((n + off + GUARD) * sizeof(float) + 63) & ~(size_t)63;
    b.base = tendon_aligned_alloc(64, total);
    ck_assert_ptr_nonnull(b.base);
    memset(b.base, 0, total);
    b.p = b.base + off;
    b.n = n;
    return b;
}

static void fbuf_fill_sentinel(fbuf *b)
{
    const uint32_t s = SENTINEL;
    for (size_t i = 0; i < b->n + GUARD; ++i)
        memcpy(&b->p[i], &s, sizeof s);
}

/* Index of the first guard float that is not the sentinel any more, or -1. */
static long fbuf_guard_damage(const fbuf *b, size_t used)
{
    for (size_t i = used; i < b->n + GUARD; ++i)
        if (float_bits(b->p[i]) != SENTINEL)
            return (long)i;
    return -1;
}

typedef struct dbuf {
    double *base;
    double *p;
} dbuf;

static dbuf dbuf_make(size_t n, size_t off)
{
    dbuf b;
    const size_t total = ((n + off + 1) * sizeof(double) + 63) & ~(size_t)63;
    b.base = tendon_aligned_alloc(64, total);
    ck_assert_ptr_nonnull(b.base);
    memset(b.base, 0, total);
    b.p = b.base + off;
    return b;
}

static void call_kernel(const tendon_kernels *k, int which, const float *a, const float *b,
                        const double *t, size_t n, float *out)
{
    float *tf = NULL;
    if (which == K_SLERP_F32 || which == K_NLERP_F32) {
        /* at an odd offset: the float tier reads its t unaligned too */
        tf = malloc((n + 1) * sizeof(float));
        ck_assert_ptr_nonnull(tf);
        for (size_t i = 0; i < n; ++i)
            tf[i + 1] = (float)t[i];
    }
    switch (which) {
    case K_SLERP: k->quat_slerp(a, b, t, n, out); break;
    case K_NLERP: k->quat_nlerp(a, b, t, n, out); break;
    case K_MULTIPLY: k->quat_multiply(a, b, n, out); break;
    case K_SLERP_F32: k->quat_slerp_f32(a, b, tf + 1, n, out); break;
    case K_NLERP_F32: k->quat_nlerp_f32(a, b, tf + 1, n, out); break;
    default: k->quat_multiply_f32(a, b, n, out); break;
    }
    free(tf);
}

/* ---------------------------------------------------------------------------------------------
 * Adversarial inputs
 * ------------------------------------------------------------------------------------------- */

#define INF_F ((float)INFINITY)
#define NAN_F ((float)NAN)

/* A fixed list, used as a cross product (every pair, every t) and drawn from at random. */
static const float ADV_Q[][4] = {
    {0, 0, 0, 1},
    {0, 0, 0, -1},
    {1, 0, 0, 0},
    {0, 1, 0, 0},
    {0, 0, 1, 0},
    {0.5f, 0.5f, 0.5f, 0.5f},
    {0.5f, -0.5f, 0.5f, -0.5f},
    {-0.5f, -0.5f, -0.5f, -0.5f},
    {0, 0, 0.70710677f, 0.70710677f},
    {0, 0, 0.984807753f, -0.173648178f},
    {0, 0, 0, 0},
    {-0.0f, -0.0f, -0.0f, -0.0f},
    {-0.0f, 0.0f, -0.0f, 1},
    {0.0f, -0.0f, 0.0f, -1},
    {0, 0, 0.0316f, 0.9995f},
    {0, 0, 0.0316f, 0.99955f},
    {0, 0, 0, 2},
    {1, 1, 1, 1},
    {1e-20f, 0, 0, 1e-20f},
    {3e38f, 3e38f, 0, 0},
    {FLT_MAX, FLT_MAX, FLT_MAX, FLT_MAX},
    {1e19f, -2e19f, 3e19f, 0.5f},
    {1e-40f, 0, 0, 1},
    {1.4e-45f, -1.4e-45f, 1e-39f, -1e-38f},
    {1.4e-45f, 0, 0, 0},
    {0, 0, -1e-40f, 1},
    {NAN_F, 0, 0, 1},
    {0, 0, 0, NAN_F},
    {NAN_F, NAN_F, NAN_F, NAN_F},
    {-NAN_F, 0.5f, 0.5f, 0.5f},
    {INF_F, 0, 0, 1},
    {0, 0, 0, -INF_F},
    {INF_F, -INF_F, 0, 0},
    {INF_F, NAN_F, 0, 1},
    {-0.011218898f, -0.0367633253f, -0.0036149535f, -0.999254525f},
    {-0.0114078531f, -0.0367971063f, -0.0034292364f, -0.999251783f},
    {0.707106829f, 0.0f, 0.0f, 0.707106829f},
    /* the reduction-order pairs of test_reduction_order (cancellation: 2^54 − 2^54) */
    {0x1p27f, 1.0f, 0x1p27f, 1.0f},
    {0x1p27f, 0.5f, -0x1p27f, -0.3f},
    {0x1p27f, 0.5f, -0x1p27f, 0.9996f},
    {0x1p27f, 1.0f, 0x1p30f, 162565.0f},
    {0x1p27f, 1.5f, -16777215.0f, -6605.0f},
    {0.5f, 0x1p27f, 0.3f, 0x1p27f},
    {0x1p27f, 1.0f, -0x1p27f, 1.0f},
};
#define N_ADV_Q (sizeof ADV_Q / sizeof ADV_Q[0])

/* 17 values of t (a prime, so no t sticks to one lane of a block in the cross product). */
static const double ADV_T[] = {0.0,      1.0,       -0.0,          -3.0,    7.0,  NAN,
                               INFINITY, -INFINITY, 1e30,          -1e30,   0.5,  0.25,
                               4.9e-324, 1e-310,    1.0 - 0x1p-53, 0x1p-30, 0.999};
#define N_ADV_T (sizeof ADV_T / sizeof ADV_T[0])

/* The dot product in tendon's (and the seed's) order, in double: the threshold test's input. */
static double dot_seed(const float a[4], const float b[4])
{
    return (((double)a[0] * b[0] + (double)a[1] * b[1]) + (double)a[2] * b[2]) +
           (double)a[3] * b[3];
}

/* r ⊗ q in double (for building test inputs, not an oracle of tendon). */
static void mul_d(const double a[4], const double b[4], double o[4])
{
    o[0] = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    o[1] = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    o[2] = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    o[3] = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
}

/*
 * b near a, with the double dot (as tendon computes it from the floats) in
 * (0.9995, 0.9995 + 1e-7] when side > 0, in [0.9995 − 1e-7, 0.9995] when side < 0.
 */
static void near_parallel(test_rng *r, int side, float a[4], float b[4])
{
    for (int tries = 0; tries < 100000; ++tries) {
        rng_unit_quat(r, a);
        const double target = 0.9995 + side * rng_range(r, 0.0, 1e-7);
        const double half = acos(target);
        double axis[3], len = 0;
        for (int c = 0; c < 3; ++c) {
            axis[c] = rng_range(r, -1, 1);
            len += axis[c] * axis[c];
        }
        if (len < 1e-3)
            continue;
        len = sqrt(len);
        const double rq[4] = {sin(half) * axis[0] / len, sin(half) * axis[1] / len,
                              sin(half) * axis[2] / len, cos(half)};
        const double ad[4] = {a[0], a[1], a[2], a[3]};
        double bd[4];
        mul_d(ad, rq, bd);
        for (int c = 0; c < 4; ++c)
            b[c] = (float)bd[c];
        const double d = dot_seed(a, b) - 0.9995;
        if (side > 0 ? (d > 0 && d <= 1e-7) : (d <= 0 && d >= -1e-7))
            return;
    }
    ck_abort_msg("could not build a near-parallel pair");
}

/* One element of a random adversarial mix: a, b, t. */
static void gen_element(test_rng *r, float a[4], float b[4], double *t)
{
    static const float SCALES[] = {1e-30f, 1e-3f, 2.0f, 1e10f, 1e30f, FLT_MAX / 2, 1e-39f};
    const unsigned kind = (unsigned)(rng_u64(r) % 16);
    switch (kind) {
    default: /* 0..4: random unit pairs */
        rng_unit_quat(r, a);
        rng_unit_quat(r, b);
        break;
    case 5: /* identical */
        rng_unit_quat(r, a);
        memcpy(b, a, 4 * sizeof(float));
        break;
    case 6: /* antipodal */
        rng_unit_quat(r, a);
        for (int c = 0; c < 4; ++c)
            b[c] = -a[c];
        break;
    case 7: near_parallel(r, +1, a, b); break;
    case 8: near_parallel(r, -1, a, b); break;
    case 9: /* near-parallel through the flip: dot ≈ −(0.9995 ± 1e-7) */
        near_parallel(r, (rng_u64(r) & 1) ? 1 : -1, a, b);
        for (int c = 0; c < 4; ++c)
            b[c] = -b[c];
        break;
    case 10: /* orthogonal, dot exactly +0 */
        rng_unit_quat(r, a);
        b[0] = -a[1];
        b[1] = a[0];
        b[2] = -a[3];
        b[3] = a[2];
        break;
    case 11:
        memcpy(a, ADV_Q[rng_u64(r) % N_ADV_Q], 4 * sizeof(float));
        memcpy(b, ADV_Q[rng_u64(r) % N_ADV_Q], 4 * sizeof(float));
        break;
    case 12:
        rng_unit_quat(r, a);
        memcpy(b, ADV_Q[rng_u64(r) % N_ADV_Q], 4 * sizeof(float));
        if (rng_u64(r) & 1) {
            float tmp[4];
            memcpy(tmp, a, sizeof tmp);
            memcpy(a, b, sizeof tmp);
            memcpy(b, tmp, sizeof tmp);
        }
        break;
    case 13: { /* non-unit, both sides scaled */
        rng_unit_quat(r, a);
        rng_unit_quat(r, b);
        const float sa = SCALES[rng_u64(r) % 7], sb = SCALES[rng_u64(r) % 7];
        for (int c = 0; c < 4; ++c) {
            a[c] *= sa;
            b[c] *= sb;
        }
        break;
    }
    case 14: /* b = a nudged by an ulp or two per component */
        rng_unit_quat(r, a);
        for (int c = 0; c < 4; ++c) {
            b[c] = a[c];
            const int steps = (int)(rng_u64(r) % 5) - 2;
            for (int s = 0; s < (steps < 0 ? -steps : steps); ++s)
                b[c] = nextafterf(b[c], steps < 0 ? -INF_F : INF_F);
        }
        break;
    case 15: /* denormal components */
        rng_unit_quat(r, a);
        rng_unit_quat(r, b);
        for (int c = 0; c < 4; ++c) {
            a[c] *= 1e-39f;
            if (rng_u64(r) & 1)
                b[c] *= 1e-40f;
        }
        break;
    }
    const unsigned tk = (unsigned)(rng_u64(r) % 4);
    *t = tk < 2 ? rng_unit(r) : tk == 2 ? ADV_T[rng_u64(r) % N_ADV_T] : rng_range(r, -3.0, 7.0);
}

/* ---------------------------------------------------------------------------------------------
 * Bitwise comparison against the scalar table, with a full report on failure.
 * ------------------------------------------------------------------------------------------- */

static void report_diff(const char *how, int isa, int which, uint64_t seed, size_t n, long idx,
                        const float *a, const float *b, const double *t, const float *got,
                        const float *want)
{
    const size_t i = (size_t)idx / 4, c = (size_t)idx % 4;
    char ts[64] = "-";
    if (which != K_MULTIPLY && which != K_MULTIPLY_F32)
        snprintf(ts, sizeof ts, "%a", t[i]);
    ck_abort_msg("%s %s (%s) differs from scalar: seed %" PRIu64 ", count %zu, element %zu "
                 "component %zu: got 0x%08" PRIx32 " (%a), scalar 0x%08" PRIx32 " (%a); "
                 "a = (%a %a %a %a) b = (%a %a %a %a) t = %s",
                 tendon_isa_name((tendon_isa)isa), KNAME[which], how, seed, n, i, c,
                 float_bits(got[idx]), (double)got[idx], float_bits(want[idx]), (double)want[idx],
                 (double)a[4 * i], (double)a[4 * i + 1], (double)a[4 * i + 2], (double)a[4 * i + 3],
                 (double)b[4 * i], (double)b[4 * i + 1], (double)b[4 * i + 2], (double)b[4 * i + 3],
                 ts);
}

/*
 * Run kernel `which` of ISA `isa` on (a, b, t, n) and compare with the scalar table:
 * a fresh output, out == a, out == b, and out == a == b (against scalar(a, a)).
 * a, b, t may be at any alignment; the outputs are placed at offset `off` floats.
 */
static void check_against_scalar(int isa, const tendon_kernels *k, int which, uint64_t seed,
                                 const float *a, const float *b, const double *t, size_t n,
                                 size_t off)
{
    const tendon_kernels *ref = tendon_kernels_for(TENDON_ISA_SCALAR);
    fbuf want = fbuf_make(4 * n, 0), got = fbuf_make(4 * n, off), want_aa = fbuf_make(4 * n, 0);
    long bad;

    call_kernel(ref, which, a, b, t, n, want.p);
    call_kernel(ref, which, a, a, t, n, want_aa.p);

    fbuf_fill_sentinel(&got);
    call_kernel(k, which, a, b, t, n, got.p);
    if ((bad = first_float_diff(got.p, want.p, 4 * n)) >= 0)
        report_diff("out separate", isa, which, seed, n, bad, a, b, t, got.p, want.p);
    if ((bad = fbuf_guard_damage(&got, 4 * n)) >= 0)
        ck_abort_msg("%s %s wrote past 4*count floats: count %zu, float %ld (seed %" PRIu64 ")",
                     tendon_isa_name((tendon_isa)isa), KNAME[which], n, bad, seed);

    /* out == a */
    fbuf_fill_sentinel(&got);
    if (n)
        memcpy(got.p, a, 4 * n * sizeof(float));
    call_kernel(k, which, got.p, b, t, n, got.p);
    if ((bad = first_float_diff(got.p, want.p, 4 * n)) >= 0)
        report_diff("out == a", isa, which, seed, n, bad, a, b, t, got.p, want.p);
    ck_assert_int_eq(fbuf_guard_damage(&got, 4 * n), -1);

    /* out == b */
    fbuf_fill_sentinel(&got);
    if (n)
        memcpy(got.p, b, 4 * n * sizeof(float));
    call_kernel(k, which, a, got.p, t, n, got.p);
    if ((bad = first_float_diff(got.p, want.p, 4 * n)) >= 0)
        report_diff("out == b", isa, which, seed, n, bad, a, b, t, got.p, want.p);
    ck_assert_int_eq(fbuf_guard_damage(&got, 4 * n), -1);

    /* out == a == b */
    fbuf_fill_sentinel(&got);
    if (n)
        memcpy(got.p, a, 4 * n * sizeof(float));
    call_kernel(k, which, got.p, got.p, t, n, got.p);
    if ((bad = first_float_diff(got.p, want_aa.p, 4 * n)) >= 0)
        report_diff("out == a == b", isa, which, seed, n, bad, a, a, t, got.p, want_aa.p);
    ck_assert_int_eq(fbuf_guard_damage(&got, 4 * n), -1);

    free(want.base);
    free(got.base);
    free(want_aa.base);
}

/* Every count 0..67 and four past 64, several seeds, unaligned (and sometimes aligned) inputs and
   outputs. */
START_TEST(test_bitwise_random_counts)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    static const size_t OFFSETS[] = {1, 0, 3, 1, 2, 1, 1, 0, 1, 3, 1, 1};
    /* and past a first phase of four 16-lane blocks: two or three blocks left, then a tail */
    static const size_t MORE[] = {100, 115, 127, 131};
    for (uint64_t s = 0; s < 12; ++s) {
        for (size_t ci = 0; ci <= MAX_COUNT + 4; ++ci) {
            const size_t n = ci <= MAX_COUNT ? ci : MORE[ci - MAX_COUNT - 1];
            const uint64_t seed = 0x5EED0000u + 1000 * s + n;
            const size_t off = OFFSETS[s];
            test_rng r;
            rng_seed(&r, seed);
            fbuf a = fbuf_make(4 * n, off), b = fbuf_make(4 * n, off);
            dbuf t = dbuf_make(n, off ? 1 : 0);
            for (size_t i = 0; i < n; ++i)
                gen_element(&r, a.p + 4 * i, b.p + 4 * i, t.p + i);
            for (int which = 0; which < K_COUNT; ++which)
                check_against_scalar(_i, k, which, seed, a.p, b.p, t.p, n, off);
            free(a.base);
            tendon_aligned_free(b.base);
            free(t.base);
        }
    }
}
END_TEST

/* A long array (1024 elements: many whole blocks of every width) of random adversarial input. */
START_TEST(test_bitwise_long)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    const size_t n = 1024;
    test_rng r;
    rng_seed(&r, 0x10240u);
    fbuf a = fbuf_make(4 * n, 1), b = fbuf_make(4 * n, 1);
    dbuf t = dbuf_make(n, 1);
    for (size_t i = 0; i < n; ++i)
        gen_element(&r, a.p + 4 * i, b.p + 4 * i, t.p + i);
    for (int which = 0; which < K_COUNT; ++which)
        check_against_scalar(_i, k, which, 0x10240u, a.p, b.p, t.p, n, 1);
    free(a.base);
    tendon_aligned_free(b.base);
    free(t.base);
}
END_TEST

/* Every pair of the adversarial list with every adversarial t, in one long call per kernel. */
START_TEST(test_bitwise_adversarial_cross)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    const size_t n = N_ADV_Q * N_ADV_Q * N_ADV_T;
    fbuf a = fbuf_make(4 * n, 1), b = fbuf_make(4 * n, 1);
    dbuf t = dbuf_make(n, 1);
    size_t e = 0;
    for (size_t i = 0; i < N_ADV_Q; ++i)
        for (size_t j = 0; j < N_ADV_Q; ++j)
            for (size_t m = 0; m < N_ADV_T; ++m, ++e) {
                memcpy(a.p + 4 * e, ADV_Q[i], 4 * sizeof(float));
                memcpy(b.p + 4 * e, ADV_Q[j], 4 * sizeof(float));
                t.p[e] = ADV_T[m];
            }
    for (int which = 0; which < K_COUNT; ++which)
        check_against_scalar(_i, k, which, 0, a.p, b.p, t.p, n, 1);
    free(a.base);
    tendon_aligned_free(b.base);
    free(t.base);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Hand-computed values, on every ISA (REP copies of each input; every copy must agree).
 * ------------------------------------------------------------------------------------------- */

/* out[4] = kernel(a, b, t) on ISA k, checking that all REP copies give the same bits. */
static void run_rep(const tendon_kernels *k, int which, const float a[4], const float b[4],
                    double t, float out[4])
{
    float A[4 * REP], B[4 * REP], O[4 * REP];
    double T[REP];
    for (int i = 0; i < REP; ++i) {
        memcpy(A + 4 * i, a, 4 * sizeof(float));
        memcpy(B + 4 * i, b, 4 * sizeof(float));
        T[i] = t;
    }
    call_kernel(k, which, A, B, T, REP, O);
    for (int i = 1; i < REP; ++i)
        for (int c = 0; c < 4; ++c)
            EXPECT(same_float(O[4 * i + c], O[c]),
                   "%s %s: copy %d component %d is 0x%08" PRIx32 ", copy 0 is 0x%08" PRIx32,
                   tendon_isa_name(k->isa), KNAME[which], i, c, float_bits(O[4 * i + c]),
                   float_bits(O[c]));
    memcpy(out, O, 4 * sizeof(float));
}

/* Distance in float ulps (±0 are the same point; NaN is far from everything). */
static int64_t ulp_dist(float x, float y)
{
    if (x != x || y != y)
        return INT64_MAX;
    const uint32_t bx = float_bits(x), by = float_bits(y);
    const int64_t ox = (bx & 0x80000000u) ? -(int64_t)(bx & 0x7FFFFFFFu) : (int64_t)bx;
    const int64_t oy = (by & 0x80000000u) ? -(int64_t)(by & 0x7FFFFFFFu) : (int64_t)by;
    return ox > oy ? ox - oy : oy - ox;
}

static void assert_quat_ulps(const char *what, const tendon_kernels *k, const float got[4],
                             const double want[4], int64_t max_ulps)
{
    for (int c = 0; c < 4; ++c) {
        const float w = (float)want[c];
        EXPECT(ulp_dist(got[c], w) <= max_ulps,
               "%s on %s: component %d is %.9g (0x%08" PRIx32 "), expected %.17g (float "
               "0x%08" PRIx32 ") within %" PRId64 " ulp",
               what, tendon_isa_name(k->isa), c, (double)got[c], float_bits(got[c]), want[c],
               float_bits(w), max_ulps);
    }
}

static void assert_quat_eq(const char *what, const tendon_kernels *k, const float got[4],
                           const float want[4])
{
    for (int c = 0; c < 4; ++c)
        EXPECT(same_float(got[c], want[c]),
               "%s on %s: component %d is %a (0x%08" PRIx32 "), expected %a (0x%08" PRIx32 ")",
               what, tendon_isa_name(k->isa), c, (double)got[c], float_bits(got[c]),
               (double)want[c], float_bits(want[c]));
}

/*
 * slerp(identity, 90° about z, 1/2) is 45° about z: (0, 0, sin π/8, cos π/8).
 * Tolerance 1 ulp: b is the float rounding of (0, 0, √½, √½), which moves the exact answer by
 * less than half an ulp, plus the final rounding.
 */
START_TEST(test_slerp_half_of_quarter_turn)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    const float a[4] = {0, 0, 0, 1}, b[4] = {0, 0, 0.70710677f, 0.70710677f};
    const double want[4] = {0, 0, 0.38268343236508977, 0.92387953251128676};
    float q[4];
    run_rep(k, K_SLERP, a, b, 0.5, q);
    assert_quat_ulps("slerp(identity, 90deg z, 0.5)", k, q, want, 1);
    ck_assert(q[0] == 0.0f && q[1] == 0.0f);
    /* And t = 1/4 of a quarter turn: 22.5° about z, (0, 0, sin π/16, cos π/16). */
    const double want4[4] = {0, 0, 0.19509032201612825, 0.98078528040323043};
    run_rep(k, K_SLERP, a, b, 0.25, q);
    assert_quat_ulps("slerp(identity, 90deg z, 0.25)", k, q, want4, 1);
}
END_TEST

/*
 * The hemisphere flip negates a: with dot(a, b) < 0, slerp and nlerp at t = 0 return −a;
 * dot == 0 does not flip. Values exact: ±½ components and a normalisation of a unit vector.
 */
START_TEST(test_hemisphere_flip)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    const float a[4] = {0.5f, 0.5f, 0.5f, 0.5f};
    const float neg[4] = {0.5f, -0.5f, -0.5f, -0.5f};  /* dot −0.5 */
    const float ortho[4] = {0.5f, -0.5f, 0.5f, -0.5f}; /* dot exactly 0 */
    const float minus_a[4] = {-0.5f, -0.5f, -0.5f, -0.5f};
    ck_assert(dot_seed(a, neg) == -0.5 && dot_seed(a, ortho) == 0.0);
    for (int which = K_SLERP; which <= K_NLERP; ++which) {
        float q[4];
        run_rep(k, which, a, neg, 0.0, q);
        assert_quat_eq(which == K_SLERP ? "slerp(a, b, 0), dot < 0" : "nlerp(a, b, 0), dot < 0", k,
                       q, minus_a);
        run_rep(k, which, a, neg, 1.0, q);
        assert_quat_eq("t = 1, dot < 0 (gives b)", k, q, neg);
        run_rep(k, which, a, ortho, 0.0, q);
        assert_quat_eq("t = 0, dot == 0 (no flip: gives a)", k, q, a);
        run_rep(k, which, a, ortho, 1.0, q);
        assert_quat_eq("t = 1, dot == 0 (gives b)", k, q, ortho);
        /* The flip is of a, so half-way between a and b (dot < 0) lies between −a and b:
           normalise(−a + b) = (0, −1, −1, −1)/√3 for nlerp, and slerp at ½ is the same point. */
        run_rep(k, which, a, neg, 0.5, q);
        const double s3 = 1.0 / sqrt(3.0);
        const double want[4] = {0, -s3, -s3, -s3};
        assert_quat_ulps("t = 0.5, dot < 0", k, q, want, 1);
    }
}
END_TEST

/* The double-precision nlerp of the seed (flip of a, lerp, divide by the 4-length). */
static void oracle_nlerp(const float af[4], const float bf[4], double t, double out[4])
{
    double a[4] = {af[0], af[1], af[2], af[3]};
    const double b[4] = {bf[0], bf[1], bf[2], bf[3]};
    if (dot_seed(af, bf) < 0)
        for (int c = 0; c < 4; ++c)
            a[c] = -a[c];
    double len2 = 0;
    for (int c = 0; c < 4; ++c) {
        out[c] = (1 - t) * a[c] + t * b[c];
        len2 += out[c] * out[c];
    }
    const double len = sqrt(len2);
    if (len > 0)
        for (int c = 0; c < 4; ++c)
            out[c] /= len;
}

/*
 * The seed's slerpInto in double with libm: acos, sin, the division by sin θ, Math.hypot's
 * length (sqrt of the sum of squares), the division by it.
 */
static void oracle_slerp(const float af[4], const float bf[4], double t, double out[4])
{
    double a[4] = {af[0], af[1], af[2], af[3]};
    const double b[4] = {bf[0], bf[1], bf[2], bf[3]};
    double dot = dot_seed(af, bf);
    if (dot < 0) {
        for (int c = 0; c < 4; ++c)
            a[c] = -a[c];
        dot = -dot;
    }
    double s0, s1;
    if (dot > 0.9995) {
        s0 = 1 - t;
        s1 = t;
    } else {
        const double theta = acos(dot), st = sin(theta);
        s0 = sin((1 - t) * theta) / st;
        s1 = sin(t * theta) / st;
    }
    double len2 = 0;
    for (int c = 0; c < 4; ++c) {
        out[c] = s0 * a[c] + s1 * b[c];
        len2 += out[c] * out[c];
    }
    const double len = sqrt(len2);
    if (len > 0)
        for (int c = 0; c < 4; ++c)
            out[c] /= len;
}

/*
 * Straight blend iff the dot after the flip is > 0.9995, tested on the two floats next to the
 * threshold. With a = identity the dot is exactly b.w, so b.w decides the branch:
 *   above: the result is the straight blend, bit for bit nlerp's (same operations), and within
 *          1 ulp of the double nlerp oracle;
 *   below: the acos/sin path, within 1 ulp of the libm slerp oracle and hundreds of ulps away
 *          from nlerp at t = 1/4 (the two curves differ by ~5e-7 there).
 * Also a non-unit pair whose dot (1) is far above: straight gives (1, 0, 0, 2)/√5, where the
 * acos path would give θ = 0 and a zero-length result.
 */
START_TEST(test_straight_blend_threshold)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    float w_below = (float)0.9995;
    while ((double)w_below > 0.9995)
        w_below = nextafterf(w_below, 0.0f);
    const float w_above = nextafterf(w_below, 1.0f);
    ck_assert((double)w_above > 0.9995 && (double)w_above - 0.9995 < 1e-7);
    ck_assert((double)w_below <= 0.9995 && 0.9995 - (double)w_below < 1e-7);

    const float id[4] = {0, 0, 0, 1};
    for (int side = 0; side < 2; ++side) {
        const float w = side ? w_above : w_below;
        const float b[4] = {0.6f * (float)sqrt(1.0 - (double)w * w), 0,
                            0.8f * (float)sqrt(1.0 - (double)w * w), w};
        ck_assert(dot_seed(id, b) == (double)w);
        float qs[4], qn[4];
        double ws[4], wn[4];
        run_rep(k, K_SLERP, id, b, 0.25, qs);
        run_rep(k, K_NLERP, id, b, 0.25, qn);
        oracle_slerp(id, b, 0.25, ws);
        oracle_nlerp(id, b, 0.25, wn);
        if (side) {
            assert_quat_eq("slerp just above 0.9995 is the straight blend (== nlerp)", k, qs, qn);
            assert_quat_ulps("slerp just above 0.9995 vs double nlerp", k, qs, wn, 1);
        } else {
            /* oracle_slerp takes the acos branch here too: the double dot is the same value. */
            assert_quat_ulps("slerp just below 0.9995 vs libm slerp", k, qs, ws, 1);
            EXPECT(ulp_dist(qs[2], qn[2]) > 100,
                   "slerp at dot %.17g (<= 0.9995) looks like the straight blend on %s: "
                   "z %a, nlerp z %a",
                   (double)w, tendon_isa_name(k->isa), (double)qs[2], (double)qn[2]);
        }
    }

    const float b2[4] = {1, 0, 0, 1};
    float q[4];
    const double want[4] = {1 / sqrt(5.0), 0, 0, 2 / sqrt(5.0)};
    run_rep(k, K_SLERP, id, b2, 0.5, q);
    assert_quat_ulps("slerp(identity, (1,0,0,1), 0.5): dot 1, straight", k, q, want, 1);
}
END_TEST

/* A zero-length result is left as it is (no NaN from 0/0). */
START_TEST(test_zero_length_result)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    const float zero[4] = {0, 0, 0, 0}, x[4] = {1, 0, 0, 0};
    const struct {
        int which;
        const float *a, *b;
        double t;
    } cases[] = {
        {K_SLERP, zero, zero, 0.5}, {K_SLERP, x, zero, 1.0},    {K_SLERP, zero, x, 0.0},
        {K_NLERP, zero, zero, 0.5}, {K_NLERP, x, zero, 1.0},    {K_NLERP, zero, x, 0.0},
        {K_MULTIPLY, zero, x, 0.0}, {K_MULTIPLY, x, zero, 0.0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        float q[4];
        run_rep(k, cases[i].which, cases[i].a, cases[i].b, cases[i].t, q);
        for (int c = 0; c < 4; ++c)
            EXPECT(q[c] == 0.0f, "%s case %zu on %s: component %d is %a, expected 0",
                   KNAME[cases[i].which], i, tendon_isa_name(k->isa), c, (double)q[c]);
    }
}
END_TEST

/* t is clamped to [0, 1] (±∞ too); NaN gives four NaNs. Bitwise: t=−1 ≡ t=0, t=2 ≡ t=1. */
START_TEST(test_t_clamping)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    test_rng r;
    rng_seed(&r, 0xC1A3Bu);
    for (int pair = 0; pair < 24; ++pair) {
        float a[4], b[4];
        if (pair < 12) {
            rng_unit_quat(&r, a);
            rng_unit_quat(&r, b);
        } else {
            memcpy(a, ADV_Q[(size_t)pair % 16], sizeof a);
            memcpy(b, ADV_Q[(size_t)(pair * 7 + 3) % 16], sizeof b);
        }
        for (int which = K_SLERP; which <= K_NLERP; ++which) {
            float q0[4], q1[4], q[4];
            run_rep(k, which, a, b, 0.0, q0);
            run_rep(k, which, a, b, 1.0, q1);
            static const double LOW[] = {-1.0, -3.0, -1e30, -INFINITY, -0x1p-1074};
            static const double HIGH[] = {2.0, 7.0, 1e30, INFINITY, 1.0 + 0x1p-52};
            for (size_t i = 0; i < 5; ++i) {
                run_rep(k, which, a, b, LOW[i], q);
                assert_quat_eq("t below 0 equals t = 0", k, q, q0);
                run_rep(k, which, a, b, HIGH[i], q);
                assert_quat_eq("t above 1 equals t = 1", k, q, q1);
            }
            run_rep(k, which, a, b, NAN, q);
            for (int c = 0; c < 4; ++c)
                EXPECT(q[c] != q[c], "%s t = NaN on %s: component %d is %a, not NaN", KNAME[which],
                       tendon_isa_name(k->isa), c, (double)q[c]);
        }
    }
}
END_TEST

/*
 * nlerp by hand: identity toward 90° about z at t = 1/4 is (0, 0, s/4, 3/4 + s/4) / L with
 * s = √½ and L its length. Tolerance 1 ulp, as in the slerp case (b is the float √½).
 */
START_TEST(test_nlerp_values)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    const float a[4] = {0, 0, 0, 1}, b[4] = {0, 0, 0.70710677f, 0.70710677f};
    const double s = sqrt(0.5), z = 0.25 * s, w = 0.75 + 0.25 * s, len = sqrt(z * z + w * w);
    const double want[4] = {0, 0, z / len, w / len};
    float q[4];
    run_rep(k, K_NLERP, a, b, 0.25, q);
    assert_quat_ulps("nlerp(identity, 90deg z, 0.25)", k, q, want, 1);
    /* It is not slerp: slerp at 1/4 is 22.5° (sin π/16 = 0.1951), nlerp's angle is smaller. */
    EXPECT(q[2] > 0.1870f && q[2] < 0.1875f, "nlerp z = %.9g", (double)q[2]);
    /* A non-unit input comes out unit: nlerp((0,0,0,2), (0,0,0,2), t) = identity. */
    const float two[4] = {0, 0, 0, 2}, id[4] = {0, 0, 0, 1};
    run_rep(k, K_NLERP, two, two, 0.3, q);
    assert_quat_eq("nlerp of (0,0,0,2) with itself", k, q, id);
}
END_TEST

/*
 * The product a ⊗ b (apply b, then a): i⊗j = k, j⊗k = i, k⊗i = j, j⊗i = −k, i⊗i = −1, and the
 * seed's component formulas, evaluated here in double and rounded once, equal bit for bit on
 * random and adversarial pairs (the formulas are the contract, so this one is exact).
 */
START_TEST(test_product_order)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    const float I[4] = {1, 0, 0, 0}, J[4] = {0, 1, 0, 0}, K[4] = {0, 0, 1, 0},
                one[4] = {0, 0, 0, 1};
    const float mK[4] = {0, 0, -1, 0}, m1[4] = {0, 0, 0, -1};
    const struct {
        const float *a, *b, *want;
        const char *what;
    } table[] = {
        {I, J, K, "i*j = k"},   {J, K, I, "j*k = i"},   {K, I, J, "k*i = j"},
        {J, I, mK, "j*i = -k"}, {I, I, m1, "i*i = -1"}, {one, K, K, "1*k = k"},
        {K, one, K, "k*1 = k"}, {K, K, m1, "k*k = -1"},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; ++i) {
        float q[4];
        run_rep(k, K_MULTIPLY, table[i].a, table[i].b, 0, q);
        for (int c = 0; c < 4; ++c)
            EXPECT(q[c] == table[i].want[c], "%s on %s: component %d is %g", table[i].what,
                   tendon_isa_name(k->isa), c, (double)q[c]);
    }

    test_rng r;
    rng_seed(&r, 0x9A0D);
    enum { N = 257 };
    float A[4 * N], B[4 * N], O[4 * N];
    for (int e = 0; e < N; ++e) {
        if (e % 3 == 2) {
            memcpy(A + 4 * e, ADV_Q[(size_t)e % N_ADV_Q], 4 * sizeof(float));
            memcpy(B + 4 * e, ADV_Q[(size_t)(e / 3) % N_ADV_Q], 4 * sizeof(float));
        } else {
            float t;
            rng_unit_quat(&r, A + 4 * e);
            rng_unit_quat(&r, B + 4 * e);
            t = (float)rng_range(&r, 0.01, 100);
            for (int c = 0; c < 4; ++c)
                A[4 * e + c] *= t;
        }
    }
    k->quat_multiply(A, B, N, O);
    for (int e = 0; e < N; ++e) {
        const double ax = A[4 * e], ay = A[4 * e + 1], az = A[4 * e + 2], aw = A[4 * e + 3];
        const double bx = B[4 * e], by = B[4 * e + 1], bz = B[4 * e + 2], bw = B[4 * e + 3];
        const float want[4] = {
            (float)(((aw * bx + ax * bw) + ay * bz) - az * by),
            (float)(((aw * by - ax * bz) + ay * bw) + az * bx),
            (float)(((aw * bz + ax * by) - ay * bx) + az * bw),
            (float)(((aw * bw - ax * bx) - ay * by) - az * bz),
        };
        for (int c = 0; c < 4; ++c)
            EXPECT(same_float(O[4 * e + c], want[c]),
                   "product element %d component %d on %s: 0x%08" PRIx32
                   ", seed formula 0x%08" PRIx32,
                   e, c, tendon_isa_name(k->isa), float_bits(O[4 * e + c]), float_bits(want[c]));
    }
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Reduction order. Every 4-term sum of the pose tier has one order, the seed's
 * ((P1 ± P2) ± P3) ± P4, in double. Random data cannot see a different order: each float×float
 * product is exact in double and a reordered sum moves the result by about one double ulp,
 * which the float store hides except within ~2^-29 of a rounding midpoint. Cancellation can see
 * it: with P1 = 2^54 and P3 = −2^54, P2 is absorbed or not depending on what it is added to.
 *   V1: P = (2^54, ½, −2^54, u)              seed: u;  (P1+P2)+(P3+P4): 0;  P1+((P2+P3)+P4): 0;
 *       reversed: 0;  (P1+P3)+(P2+P4): ½+u;  ((P1+P3)+P2)+P4: ½+u;  ((P1+P2)+P4)+P3: 0
 *   V2: P = (2^54, 3/2, −(2^54 − 2^30), P4)  seed: 2^30 + P4;  (P1+(P2+P3))+P4: 2^30 + 2 + P4
 * (2^54 + 3/2 rounds down to 2^54, spacing 4; 3/2 − (2^54 − 2^30) rounds to −(2^54 − 2^30 − 2),
 * spacing 2.) Each vector is built from float factors whose products are exactly these terms,
 * for the dot ((x·x + y·y) + z·z) + w·w and for each component of the product; the test first
 * proves in its own arithmetic that the seed's order and each alternative give different
 * answers, then asserts the seed's answer on every ISA.
 * ------------------------------------------------------------------------------------------- */

typedef struct term {
    int ai, bj;  /* a[ai]·b[bj] */
    double sign; /* + or − in the formula */
} term;

static const term DOT_TERMS[4] = {{0, 0, 1}, {1, 1, 1}, {2, 2, 1}, {3, 3, 1}};
static const term PRODUCT_TERMS[4][4] = {
    {{3, 0, 1}, {0, 3, 1}, {1, 2, 1}, {2, 1, -1}}, /* x = ((aw·bx + ax·bw) + ay·bz) − az·by */
    {{3, 1, 1}, {0, 2, -1}, {1, 3, 1}, {2, 0, 1}}, /* y = ((aw·by − ax·bz) + ay·bw) + az·bx */
    {{3, 2, 1}, {0, 1, 1}, {1, 0, -1}, {2, 3, 1}}, /* z = ((aw·bz + ax·by) − ay·bx) + az·bw */
    {{3, 3, 1}, {0, 0, -1}, {1, 1, -1}, {2, 2, -1}}, /* w = ((aw·bw − ax·bx) − ay·by) − az·bz */
};

/* A term's value and the a factor that carries it (b = value / (sign·a), exact). */
typedef struct tval {
    double value;
    float a;
} tval;

static void build_vector(const term t[4], const tval v[4], float a[4], float b[4], double P[4])
{
    for (int k = 0; k < 4; ++k) {
        a[t[k].ai] = v[k].a;
        b[t[k].bj] = (float)(v[k].value / (t[k].sign * (double)v[k].a));
    }
    for (int k = 0; k < 4; ++k) {
        P[k] = t[k].sign * ((double)a[t[k].ai] * (double)b[t[k].bj]);
        ck_assert_msg(P[k] == v[k].value, "term %d is %a, wanted %a", k, P[k], v[k].value);
    }
}

static double seq4(const double P[4]) { return ((P[0] + P[1]) + P[2]) + P[3]; }

/* The alternative orders a SIMD rewrite might use. */
enum { N_ALT = 7 };
static double alt4(int which, const double P[4])
{
    switch (which) {
    case 0: return (P[0] + P[1]) + (P[2] + P[3]);
    case 1: return P[0] + ((P[1] + P[2]) + P[3]);
    case 2: return ((P[3] + P[2]) + P[1]) + P[0];
    case 3: return (P[0] + P[2]) + (P[1] + P[3]);
    case 4: return ((P[0] + P[2]) + P[1]) + P[3];
    case 5: return ((P[0] + P[1]) + P[3]) + P[2];
    default: return (P[0] + (P[1] + P[2])) + P[3];
    }
}
static const char *const ALT_NAME[N_ALT] = {"(P1+P2)+(P3+P4)", "P1+((P2+P3)+P4)", "((P4+P3)+P2)+P1",
                                            "(P1+P3)+(P2+P4)", "((P1+P3)+P2)+P4", "((P1+P2)+P4)+P3",
                                            "(P1+(P2+P3))+P4"};

#define V1(u)                                                                                      \
    {                                                                                              \
        {0x1p54, 0x1p27f}, {0.5, 1.0f}, {-0x1p54, 0x1p27f}, { (double)(u), 1.0f }                  \
    }
#define V2(p4, p4a)                                                                                \
    {                                                                                              \
        {0x1p54, 0x1p27f}, {1.5, 1.0f}, {-(0x1p54 - 0x1p30), 0x1p30f}, { (p4), (p4a) }             \
    }

START_TEST(test_reduction_order)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    const tendon_kernels *ref = tendon_kernels_for(TENDON_ISA_SCALAR);
    float a[4], b[4], q[4], qs[4], qn[4];
    double P[4];

    /* The product: for each component, V1 (seed ±0.3, the exact value 0.5 ± 0.3) and V2. */
    for (int comp = 0; comp < 4; ++comp) {
        const tval vectors[2][4] = {V1(0.3f), V2(-0x1p30, 0x1p15f)};
        for (int v = 0; v < 2; ++v) {
            build_vector(PRODUCT_TERMS[comp], vectors[v], a, b, P);
            const float want = (float)seq4(P);
            for (int alt = (v == 0 ? 0 : N_ALT - 1); alt < (v == 0 ? N_ALT - 1 : N_ALT); ++alt)
                ck_assert_msg((float)alt4(alt, P) != want,
                              "vector V%d does not separate the seed's order from %s", v + 1,
                              ALT_NAME[alt]);
            run_rep(k, K_MULTIPLY, a, b, 0, q);
            EXPECT(same_float(q[comp], want),
                   "product component %d on %s, vector V%d: %a, the seed's order gives %a "
                   "(a = %a %a %a %a, b = %a %a %a %a)",
                   comp, tendon_isa_name(k->isa), v + 1, (double)q[comp], (double)want,
                   (double)a[0], (double)a[1], (double)a[2], (double)a[3], (double)b[0],
                   (double)b[1], (double)b[2], (double)b[3]);
            float r[4];
            run_rep(ref, K_MULTIPLY, a, b, 0, r);
            assert_quat_eq("reduction-order product vs scalar", k, q, r);
        }
    }

    /* The dot, through the flip: the seed's order gives a dot < 0 (flip a), every alternative a
       dot ≥ 0 (no flip); nlerp and slerp at t = 0 return −a/|a| or a/|a|. */
    const tval flips[2][4] = {V1(-0.3f), V2(-(0x1p30 + 1), 162565.0f)};
    for (int v = 0; v < 2; ++v) {
        build_vector(DOT_TERMS, flips[v], a, b, P);
        ck_assert(seq4(P) < 0);
        for (int alt = (v == 0 ? 0 : N_ALT - 1); alt < (v == 0 ? N_ALT - 1 : N_ALT); ++alt)
            ck_assert_msg(alt4(alt, P) >= 0, "flip vector V%d does not separate %s", v + 1,
                          ALT_NAME[alt]);
        for (int which = K_SLERP; which <= K_NLERP; ++which) {
            float r[4];
            run_rep(k, which, a, b, 0.0, q);
            run_rep(ref, which, a, b, 0.0, r);
            assert_quat_eq("reduction-order flip vs scalar", k, q, r);
            for (int c = 0; c < 4; ++c)
                EXPECT(q[c] * a[c] < 0,
                       "%s(a, b, 0) on %s, vector V%d: component %d is %a for a = %a: the "
                       "seed's order sums the dot to %g < 0, so a must be flipped",
                       KNAME[which], tendon_isa_name(k->isa), v + 1, c, (double)q[c], (double)a[c],
                       seq4(P));
        }
    }

    /* The dot, through the straight-blend threshold: the seed's order gives 0.9996 (straight:
       slerp ≡ nlerp bit for bit), (P1+P2)+(P3+P4), P1+((P2+P3)+P4) and the reversed order give
       0 (the acos path, θ = π/2, a different curve). */
    const tval straight[4] = V1(0.9996f);
    build_vector(DOT_TERMS, straight, a, b, P);
    ck_assert(seq4(P) > 0.9995);
    for (int alt = 0; alt < 3; ++alt)
        ck_assert(alt4(alt, P) <= 0.9995);
    run_rep(k, K_SLERP, a, b, 0.3, qs);
    run_rep(k, K_NLERP, a, b, 0.3, qn);
    assert_quat_eq("reduction-order straight blend: slerp == nlerp", k, qs, qn);
}
END_TEST

/*
 * 10k random unit pairs and t ∈ [0, 1] against the seed's slerp in double with libm (acos, sin,
 * ÷ sin θ, ÷ length): every component within 1 float ulp. Tolerance, and why: tendon's own acos
 * and sin differ from libm's in the last double bits, and it drops the common 1/sin θ (it cancels
 * in the normalisation), so a double result one rounding boundary apart may round to the
 * neighbouring float. Prints how many components are bit-exact. Every ISA is checked (each is
 * bitwise equal to scalar, so the counts agree).
 */
START_TEST(test_slerp_libm_oracle)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    enum { N = 10000 };
    float *A = malloc(4 * N * sizeof(float)), *B = malloc(4 * N * sizeof(float)),
          *O = malloc(4 * N * sizeof(float));
    double *T = malloc(N * sizeof(double));
    ck_assert(A && B && O && T);
    test_rng r;
    const uint64_t seed = 0x0AC1E5u;
    rng_seed(&r, seed);
    for (int e = 0; e < N; ++e) {
        rng_unit_quat(&r, A + 4 * e);
        rng_unit_quat(&r, B + 4 * e);
        T[e] = rng_unit(&r);
    }
    k->quat_slerp(A, B, T, N, O);
    long exact = 0, one_ulp = 0, straight = 0;
    for (int e = 0; e < N; ++e) {
        double want[4];
        oracle_slerp(A + 4 * e, B + 4 * e, T[e], want);
        const double d = dot_seed(A + 4 * e, B + 4 * e);
        straight += (d < 0 ? -d : d) > 0.9995;
        for (int c = 0; c < 4; ++c) {
            const int64_t u = ulp_dist(O[4 * e + c], (float)want[c]);
            EXPECT(u <= 1,
                   "slerp vs libm oracle on %s: seed %" PRIu64 " element %d component %d: "
                   "%a vs %.17g (%" PRId64 " ulp); a = (%a %a %a %a) b = (%a %a %a %a) t "
                   "= %a",
                   tendon_isa_name(k->isa), seed, e, c, (double)O[4 * e + c], want[c], u,
                   (double)A[4 * e], (double)A[4 * e + 1], (double)A[4 * e + 2],
                   (double)A[4 * e + 3], (double)B[4 * e], (double)B[4 * e + 1],
                   (double)B[4 * e + 2], (double)B[4 * e + 3], T[e]);
            exact += u == 0;
            one_ulp += u == 1;
        }
    }
    if (k->isa == TENDON_ISA_SCALAR)
        printf("slerp vs double libm oracle (seed 0x%" PRIx64 ", %d pairs, %ld straight): %ld of "
               "%d components bit-exact, %ld at 1 ulp\n",
               seed, N, straight, exact, 4 * N, one_ulp);
    free(A);
    free(B);
    free(O);
    free(T);
}
END_TEST

/* ---------------------------------------------------------------------------------------------
 * Bug cases (tests/data/bugs/bugs.json). Each property listed in the case, on every ISA.
 * ------------------------------------------------------------------------------------------- */


/* n numbers at a path of object keys ("input", "a_xyzw", NULL), as floats. */
static void json_floats(json_t *node, float *out, size_t n)
{
    EXPECT(json_is_array(node) && json_array_size(node) == n, "expected %zu numbers", n);
    for (size_t i = 0; i < n; ++i)
        out[i] = (float)json_number_value(json_array_get(node, i));
}

static json_t *jget(json_t *node, const char *key)
{
    json_t *v = json_object_get(node, key);
    EXPECT(v != NULL, "bugs.json: missing key %s", key);
    return v;
}

static double quat_len(const float q[4])
{
    return sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] +
                (double)q[3] * q[3]);
}

static void assert_finite_unit(const char *id, const tendon_kernels *k, const float q[4],
                               double tol)
{
    for (int c = 0; c < 4; ++c)
        EXPECT(isfinite(q[c]), "%s on %s: component %d is %g", id, tendon_isa_name(k->isa), c,
               (double)q[c]);
    EXPECT(fabs(quat_len(q) - 1.0) <= tol, "%s on %s: |q| = %.9g", id, tendon_isa_name(k->isa),
           quat_len(q));
}

/* max |q − w| over the components, for the bug file's decimal expectations (tolerance 1e-6). */
static double max_abs_diff(const float q[4], const float w[4], double sign)
{
    double m = 0;
    for (int c = 0; c < 4; ++c) {
        const double d = fabs((double)q[c] - sign * (double)w[c]);
        m = d > m ? d : m;
    }
    return m;
}

START_TEST(test_bug01_slerp_near_parallel_nan)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    const char *id = "anim-bug-01-slerp-near-parallel-nan";
    json_t *c = test_bug_case(id), *in = jget(c, "input");
    float a[4], b[4], want[4], q[4], qn[4];
    json_floats(jget(in, "a_xyzw"), a, 4);
    json_floats(jget(in, "b_xyzw"), b, 4);
    json_floats(jget(jget(c, "expected"), "q_xyzw"), want, 4);
    const double t = json_number_value(jget(in, "t")),
                 tol = json_number_value(jget(c, "tolerance"));
    run_rep(k, K_SLERP, a, b, t, q);
    /* no NaN/Inf; |q| = 1 within 1e-6 */
    assert_finite_unit(id, k, q, tol);
    /* equals the reference within 1e-6, same sign as a (dot > 0) */
    ck_assert(dot_seed(a, b) > 0);
    EXPECT(max_abs_diff(q, want, 1.0) <= tol, "%s on %s: off by %g", id, tendon_isa_name(k->isa),
           max_abs_diff(q, want, 1.0));
    /* the near-parallel fallback is taken: dot > 0.9995, so slerp is the straight blend, bit for
       bit the nlerp of the same inputs; acos never sees the dot */
    ck_assert(dot_seed(a, b) > 0.9995);
    run_rep(k, K_NLERP, a, b, t, qn);
    assert_quat_eq("bug-01 slerp == nlerp (straight blend)", k, q, qn);
    /* no NaN anywhere along t */
    for (size_t i = 0; i < N_ADV_T; ++i) {
        if (ADV_T[i] != ADV_T[i])
            continue;
        run_rep(k, K_SLERP, a, b, ADV_T[i], q);
        assert_finite_unit(id, k, q, tol);
    }
}
END_TEST

START_TEST(test_bug02_slerp_antipodal_nan)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    const char *id = "anim-bug-02-slerp-antipodal-nan";
    json_t *c = test_bug_case(id), *in = jget(c, "input");
    float a[4], b[4], want[4], first[4];
    json_floats(jget(in, "a_xyzw"), a, 4);
    json_floats(jget(in, "b_xyzw"), b, 4);
    json_floats(jget(jget(c, "expected"), "q_xyzw"), want, 4);
    const double tol = json_number_value(jget(c, "tolerance"));
    const double ts[] = {0, 0.01, 0.5, 1, json_number_value(jget(in, "t"))};
    for (size_t i = 0; i < 5; ++i) {
        float q[4];
        run_rep(k, K_SLERP, a, b, ts[i], q);
        assert_finite_unit(id, k, q, tol);
        /* the rotation of a: q == a or q == −a within 1e-6 */
        const double d = fmin(max_abs_diff(q, want, 1.0), max_abs_diff(q, want, -1.0));
        EXPECT(d <= tol, "%s on %s, t = %g: off by %g", id, tendon_isa_name(k->isa), ts[i], d);
        /* same result for every t (within the case's tolerance: it is a straight blend of −a
           and b = −a, so only the rounding of (1−t)·b + t·b can differ) */
        if (i == 0)
            memcpy(first, q, sizeof first);
        EXPECT(max_abs_diff(q, first, 1.0) <= tol, "%s on %s: t = %g differs from t = 0", id,
               tendon_isa_name(k->isa), ts[i]);
    }
}
END_TEST

START_TEST(test_bug04_slerp_shortest_arc)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    const char *id = "anim-bug-04-slerp-shortest-arc";
    json_t *c = test_bug_case(id), *in = jget(c, "input");
    float a[4], b[4], want[4], q[4];
    json_floats(jget(in, "a_xyzw"), a, 4);
    json_floats(jget(in, "b_xyzw"), b, 4);
    json_floats(jget(jget(c, "expected"), "q_xyzw"), want, 4);
    const double t = json_number_value(jget(in, "t")),
                 tol = json_number_value(jget(c, "tolerance"));
    run_rep(k, K_SLERP, a, b, t, q);
    assert_finite_unit(id, k, q, tol);
    /* q == expected or −expected within 1e-6 */
    const double d = fmin(max_abs_diff(q, want, 1.0), max_abs_diff(q, want, -1.0));
    EXPECT(d <= tol, "%s on %s: off by %g", id, tendon_isa_name(k->isa), d);
    /* the shorter arc: the rotation angle between a (identity) and q is 2·acos|dot| = 80°, not
       100° — within 1e-6 rad (libm acos on the float result) */
    const double dq = fabs(dot_seed(a, q) / quat_len(q));
    const double angle = 2 * acos(dq > 1 ? 1 : dq);
    EXPECT(fabs(angle - 80.0 * PI / 180.0) <= tol, "%s on %s: angle %.9g deg", id,
           tendon_isa_name(k->isa), angle * 180 / PI);
    /* slerp(a, b, t) and slerp(a, −b, t) are the same rotation: exactly q and −q, since the flip
       of a and the negation of b perform the same operations with opposite signs */
    const float mb[4] = {-b[0], -b[1], -b[2], -b[3]};
    const double ts[] = {0.25, 0.5, 0.75};
    for (int i = 0; i < 3; ++i) {
        float q1[4], q2[4];
        run_rep(k, K_SLERP, a, b, ts[i], q1);
        run_rep(k, K_SLERP, a, mb, ts[i], q2);
        for (int cc = 0; cc < 4; ++cc)
            EXPECT(q1[cc] == -q2[cc], "%s on %s, t = %g: component %d %a vs %a", id,
                   tendon_isa_name(k->isa), ts[i], cc, (double)q1[cc], (double)q2[cc]);
    }
}
END_TEST

/*
 * anim-bug-20: every variant bit-identical on its inputs. The case's expected bits are for a
 * float32 normalisation in four reduction orders; tendon's pose tier computes in double, so the
 * property is checked in tendon's own arithmetic: q1 and q2 normalised through nlerp(q, q, 0)
 * and slerp(q, q, t) on every ISA give the scalar bits.
 *
 * The reduction order tendon uses, in every variant (src/common/quat_ref.h tendon_ref_normalize,
 * src/simd/kernels/quat_core.inl.h vnormalize/vdot4): sequential ((x·x + y·y) + z·z) + w·w, in
 * double, vertical (one lane per quaternion, no horizontal adds), no FMA (-ffp-contract=off,
 * -mno-fma), then q·(1/√s) (at the time of writing √ and ÷ correctly rounded; earlier a
 * Newton reciprocal square root within 4e-16). The same order is what test_reduction_order
 * pins down with cancelling inputs, where a different order gives a different float.
 *
 * Against the double libm oracle q/√(Σq²): tendon's normalised double is within a few double
 * ulps of it (≤ 1e-15 relative, whichever of those two normalisations is in use), so where the
 * oracle's exact double lies further than 1e-14 (relative) from a float rounding boundary,
 * tendon must round to the same float. All 8 components of q1 and q2 have that margin (asserted
 * too, so the comparison cannot be skipped silently), and all 8 are asserted bit-exact.
 */
START_TEST(test_bug20_reduction_order_determinism)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    const tendon_kernels *ref = tendon_kernels_for(TENDON_ISA_SCALAR);
    const char *id = "anim-bug-20-simd-reduction-order-determinism";
    json_t *c = test_bug_case(id), *in = jget(c, "input");
    const char *keys[2] = {"q1_xyzw", "q2_xyzw"};
    for (int qi = 0; qi < 2; ++qi) {
        float q[4];
        json_floats(jget(in, keys[qi]), q, 4);
        const double ts[] = {0.0, 0.5, 1.0};
        for (int which = K_SLERP; which <= K_NLERP; ++which) {
            for (int ti = 0; ti < 3; ++ti) {
                float got[4], want[4];
                run_rep(k, which, q, q, ts[ti], got);
                run_rep(ref, which, q, q, ts[ti], want);
                assert_quat_eq("bug-20 normalise, variant vs scalar", k, got, want);
            }
        }
        float n[4];
        run_rep(k, K_NLERP, q, q, 0.0, n);
        const double s = sqrt((((double)q[0] * q[0] + (double)q[1] * q[1]) + (double)q[2] * q[2]) +
                              (double)q[3] * q[3]);
        for (int cc = 0; cc < 4; ++cc) {
            const double v = (double)q[cc] / s;
            const float f = (float)v;
            /* the rounding boundary nearest to v */
            const float other = v > (double)f ? nextafterf(f, INF_F) : nextafterf(f, -INF_F);
            const double mid = ((double)f + (double)other) / 2;
            EXPECT(fabs(v - mid) > 1e-14 * fabs(v),
                   "%s %s component %d: the oracle is too close to a rounding boundary for the "
                   "margin argument",
                   id, keys[qi], cc);
            EXPECT(float_bits(n[cc]) == float_bits(f),
                   "%s %s on %s: component %d 0x%08" PRIx32 ", double oracle 0x%08" PRIx32, id,
                   keys[qi], tendon_isa_name(k->isa), cc, float_bits(n[cc]), float_bits(f));
        }
        if (k->isa == TENDON_ISA_SCALAR)
            printf("%s %s normalised in tendon's double tier: 0x%08" PRIx32 " 0x%08" PRIx32
                   " 0x%08" PRIx32 " 0x%08" PRIx32 "\n",
                   id, keys[qi], float_bits(n[0]), float_bits(n[1]), float_bits(n[2]),
                   float_bits(n[3]));
    }
}
END_TEST

static Suite *quat_suite(void)
{
    Suite *s = suite_create("quat");
    TCase *tc = tcase_create("bitwise");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_bitwise_random_counts, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(tc, test_bitwise_long, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(tc, test_bitwise_adversarial_cross, 0, TENDON_ISA_COUNT);
    suite_add_tcase(s, tc);

    tc = tcase_create("values");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_slerp_half_of_quarter_turn, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(tc, test_hemisphere_flip, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(tc, test_straight_blend_threshold, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(tc, test_zero_length_result, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(tc, test_t_clamping, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(tc, test_nlerp_values, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(tc, test_product_order, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(tc, test_reduction_order, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(tc, test_slerp_libm_oracle, 0, TENDON_ISA_COUNT);
    suite_add_tcase(s, tc);

    tc = tcase_create("bugs");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_bug01_slerp_near_parallel_nan, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(tc, test_bug02_slerp_antipodal_nan, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(tc, test_bug04_slerp_shortest_arc, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(tc, test_bug20_reduction_order_determinism, 0, TENDON_ISA_COUNT);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return run_suite(quat_suite()); }
