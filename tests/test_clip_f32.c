/*
 * The float32 tier of clip sampling (tendon/clip.h, "The float32 tier"; docs/clips.md).
 *
 * Oracles:
 *   - the four kernels (clip_lerp_f32, clip_lerp_uniform_f32, clip_slerp_uniform_f32,
 *     clip_hermite_f32) and quat_slerp_f32 as the sampler uses it, every ISA against the scalar
 *     table bit for bit (NaN by class): counts 0..67, 115, 127 and 1024, unaligned buffers, exact
 *     aliasing, ±0, denormals, NaN, ±∞, huge values, adversarial quaternions; and the scalar
 *     reference against the formula written in the header, evaluated here in float;
 *   - the sampler on every ISA's table against the scalar table's, bit for bit, on random clips
 *     (STEP / LINEAR / CUBICSPLINE; shared, per-track and equal-but-separate timelines; weights
 *     tracks; rig clips whose runs stream) at −∞, +∞, before the first key, after the last, on
 *     keys, one double either side of keys and between; and the pose path (runs) against the
 *     packed path (one track at a time) of the same table, bit for bit;
 *   - against the exact tier: translations and scales within F32_LINEAR_ULPS ulps of the
 *     larger bracketing key, rotations within 2e-5° (the figures measured are printed);
 *   - the cursor: zeroed, stale, garbage, from another time — the same bits; forward play over
 *     a whole clip equals independent samples;
 *   - the clip cases of tests/data/bugs/bugs.json (anim-bug-11..14) with their tolerances;
 *   - the errors: the exact twins' statuses, and their messages under the f32 names.
 * ctest also runs this suite once per ISA (TENDON_ISA=<isa>): the public entry points then run
 * on that ISA, and the per-table loops check that ISA only.
 */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/kernels_internal.h"
#include "support.h"

/* Translation / scale against the exact tier: at most this many float ulps of the larger of
   the two bracketing keys (b − a, ×u and +a each round by at most one such ulp, and the exact
   tier's own rounding and the propagated error of b − a add one more). */
#define F32_LINEAR_ULPS 4.0
/*
 * Rotations against the exact tier, degrees. LINEAR: F32_ROT_DEG, except in the band where
 * the exact tier blends straight (|dot| > 0.9995: the seed's threshold) and the f32 tier still
 * slerps (|dot| ≤ 0.99988): there the exact tier's own straight blend is up to ~8.5e-5° from a
 * true slerp (the f32 tier is closer to it), hence F32_ROT_BAND_DEG. CUBICSPLINE:
 * F32_CUBIC_ROT_DEG times the conditioning of the Hermite sum when that is above 1 (its terms'
 * size over its length: a sum that nearly cancels magnifies every rounding).
 */
#define F32_ROT_DEG 2.5e-5
#define F32_ROT_BAND_DEG 1e-4
#define F32_CUBIC_ROT_DEG 3e-5

/* ---- which ISAs a loop test checks ------------------------------------------------------- */

/* Under TENDON_ISA=<isa> (the per-ISA registrations) only that ISA; otherwise every ISA. */
static const tendon_kernels *loop_table(int isa)
{
    const char *env = getenv("TENDON_ISA");
    tendon_isa want;
    if (env && *env && tendon_isa_from_name(env, &want) == TENDON_OK && want != (tendon_isa)isa)
        return NULL;
    return isa_table_or_skip(isa);
}

START_TEST(test_active_isa)
{
    tendon_isa active;
    ck_assert_int_eq(tendon_isa_active(&active), TENDON_OK);
    const char *env = getenv("TENDON_ISA");
    tendon_isa requested;
    if (env && *env && tendon_isa_from_name(env, &requested) == TENDON_OK)
        ck_assert_msg(active == requested, "TENDON_ISA=%s but the active ISA is %s", env,
                      tendon_isa_name(active));
    printf("clip f32: public entry points on %s\n", tendon_isa_name(active));
    fflush(stdout);
}
END_TEST

/* ---- inputs ------------------------------------------------------------------------------ */

static const float SPECIALS[] = {0.0f,     -0.0f,  1e-40f,  -1e-45f, 0x1p-126f, 1e-38f,
                                 3e38f,    -3e38f, 1e20f,   -1e-20f, 1.0f,      -1.0f,
                                 INFINITY, -INFINITY, NAN};
enum { N_SPECIALS = sizeof SPECIALS / sizeof SPECIALS[0] };

/* n values in [lo, hi], about one in seven a special one (when specials is nonzero). */
static void fill(test_rng *r, float *v, size_t n, double lo, double hi, int specials)
{
    for (size_t i = 0; i < n; ++i)
        v[i] = specials && rng_unit(r) < 0.14 ? SPECIALS[rng_u64(r) % N_SPECIALS]
                                               : (float)rng_range(r, lo, hi);
}

/* A factor u: mostly in [0, 1], with its ends, a denormal, 1 − ulp and (specials) NaN, ±∞ and
   values outside [0, 1]. */
static float pick_u(test_rng *r, int specials)
{
    static const float U[] = {0.0f, 1.0f, 0x1p-149f, 0x1.fffffep-1f, 0.5f, -0.0f};
    static const float BAD[] = {NAN, INFINITY, -INFINITY, -0.25f, 1.5f, 1e30f};
    const double x = rng_unit(r);
    if (specials && x < 0.06)
        return BAD[rng_u64(r) % 6];
    if (x < 0.15)
        return U[rng_u64(r) % 6];
    return (float)rng_unit(r);
}

/* n quaternion pairs: random unit pairs and adversarial ones (identical, antipodal, near the
   straight-blend threshold on both sides and hemispheres, non-unit, zero, special components). */
static void quat_pairs(test_rng *r, float *a, float *b, size_t n, int specials)
{
    for (size_t i = 0; i < n; ++i) {
        float *qa = a + 4 * i, *qb = b + 4 * i;
        rng_unit_quat(r, qa);
        rng_unit_quat(r, qb);
        const unsigned kind = (unsigned)(rng_u64(r) % 12);
        switch (kind) {
        case 0: memcpy(qb, qa, 16); break;                              /* identical */
        case 1: for (int c = 0; c < 4; ++c) qb[c] = -qa[c]; break;      /* antipodal */
        case 2:                                                         /* near-parallel */
        case 3: {
            const double eps = kind == 2 ? 1.2e-4 : rng_range(r, 0.0, 4e-4);
            for (int c = 0; c < 4; ++c)
                qb[c] = (float)(qa[c] + eps * rng_range(r, -1, 1));
            if (rng_unit(r) < 0.5)
                for (int c = 0; c < 4; ++c)
                    qb[c] = -qb[c];
            break;
        }
        case 4: qb[3] *= 1.7f; break;                                   /* non-unit */
        case 5:
            if (specials) {
                memset(qb, 0, 16);                                      /* zero */
                break;
            }
            /* fall through */
        case 6:
            if (specials) {
                qa[rng_u64(r) % 4] = SPECIALS[rng_u64(r) % N_SPECIALS];
                break;
            }
            /* fall through */
        default: break;
        }
    }
}

/* A buffer of n floats at an odd float offset from a malloc'd block (unaligned for vectors). */
typedef struct buf {
    float *base, *p;
} buf;
static buf buf_make(size_t n)
{
    buf b;
    b.base = malloc((n + 2) * sizeof(float));
    b.p = b.base + 1;
    return b;
}

static void expect_same(const float *want, const float *got, size_t n, const char *what,
                        int isa, size_t count)
{
    const long d = first_float_diff(want, got, n);
    ck_assert_msg(d < 0, "%s on %s, count %zu: float %ld is %08x, scalar %08x", what,
                  tendon_isa_name((tendon_isa)isa), count, d, float_bits(got[d]),
                  float_bits(want[d]));
}

static const size_t COUNTS_MAX = 1024;
/* i = 0 .. 70: every count to 67, then two past a first phase of four 16-lane blocks (three
   blocks left, then a tail), then COUNTS_MAX */
static size_t count_of(size_t i) { return i <= 67 ? i : i == 68 ? 115 : i == 69 ? 127 : COUNTS_MAX; }

/* ---- the kernels ------------------------------------------------------------------------- */

START_TEST(test_kernel_lerp)
{
    const tendon_kernels *kt = loop_table(_i);
    if (!kt)
        return;
    const tendon_kernels *ks = tendon_kernels_for(TENDON_ISA_SCALAR);
    test_rng r;
    rng_seed(&r, 0xf32e001u + (uint64_t)_i);
    buf a = buf_make(COUNTS_MAX), b = buf_make(COUNTS_MAX), u = buf_make(COUNTS_MAX);
    buf o1 = buf_make(COUNTS_MAX), o2 = buf_make(COUNTS_MAX);
    for (size_t ci = 0; ci <= 70; ++ci) {
        const size_t n = count_of(ci);
        for (int rep = 0; rep < 3; ++rep) {
            const int sp = rep > 0;
            fill(&r, a.p, n, -100, 100, sp);
            fill(&r, b.p, n, -100, 100, sp);
            for (size_t i = 0; i < n; ++i)
                u.p[i] = pick_u(&r, sp);
            ks->clip_lerp_f32(a.p, b.p, u.p, n, o1.p);
            kt->clip_lerp_f32(a.p, b.p, u.p, n, o2.p);
            expect_same(o1.p, o2.p, n, "clip_lerp_f32", _i, n);
            for (size_t i = 0; i < n; ++i) {
                const float want = a.p[i] + (b.p[i] - a.p[i]) * u.p[i];
                ck_assert_msg(same_float(o1.p[i], want), "scalar clip_lerp_f32 is not a+(b-a)u");
            }
            /* out == a, out == b */
            memcpy(o2.p, a.p, n * sizeof(float));
            kt->clip_lerp_f32(o2.p, b.p, u.p, n, o2.p);
            expect_same(o1.p, o2.p, n, "clip_lerp_f32 (out == a)", _i, n);
            memcpy(o2.p, b.p, n * sizeof(float));
            kt->clip_lerp_f32(a.p, o2.p, u.p, n, o2.p);
            expect_same(o1.p, o2.p, n, "clip_lerp_f32 (out == b)", _i, n);
        }
    }
    free(a.base), free(b.base), free(u.base), free(o1.base), free(o2.base);
}
END_TEST

START_TEST(test_kernel_lerp_uniform)
{
    const tendon_kernels *kt = loop_table(_i);
    if (!kt)
        return;
    const tendon_kernels *ks = tendon_kernels_for(TENDON_ISA_SCALAR);
    test_rng r;
    rng_seed(&r, 0xf32e002u + (uint64_t)_i);
    buf a = buf_make(COUNTS_MAX), b = buf_make(COUNTS_MAX);
    buf o1 = buf_make(COUNTS_MAX), o2 = buf_make(COUNTS_MAX);
    for (size_t ci = 0; ci <= 70; ++ci) {
        const size_t n = count_of(ci);
        for (int rep = 0; rep < 4; ++rep) {
            const int sp = rep > 0;
            fill(&r, a.p, n, -100, 100, sp);
            fill(&r, b.p, n, -100, 100, sp);
            const float u = pick_u(&r, rep == 3);
            ks->clip_lerp_uniform_f32(a.p, b.p, u, n, o1.p);
            kt->clip_lerp_uniform_f32(a.p, b.p, u, n, o2.p);
            expect_same(o1.p, o2.p, n, "clip_lerp_uniform_f32", _i, n);
            for (size_t i = 0; i < n; ++i)
                ck_assert(same_float(o1.p[i], a.p[i] + (b.p[i] - a.p[i]) * u));
            memcpy(o2.p, a.p, n * sizeof(float));
            kt->clip_lerp_uniform_f32(o2.p, b.p, u, n, o2.p);
            expect_same(o1.p, o2.p, n, "clip_lerp_uniform_f32 (out == a)", _i, n);
            memcpy(o2.p, b.p, n * sizeof(float));
            kt->clip_lerp_uniform_f32(a.p, o2.p, u, n, o2.p);
            expect_same(o1.p, o2.p, n, "clip_lerp_uniform_f32 (out == b)", _i, n);
        }
    }
    free(a.base), free(b.base), free(o1.base), free(o2.base);
}
END_TEST

/* clip_slerp_uniform_f32 against scalar, and against quat_slerp_f32 with every t[i] = u (its
   defined meaning); quat_slerp_f32 itself against scalar with a u per element in [0, 1]. */
START_TEST(test_kernel_slerp)
{
    const tendon_kernels *kt = loop_table(_i);
    if (!kt)
        return;
    const tendon_kernels *ks = tendon_kernels_for(TENDON_ISA_SCALAR);
    test_rng r;
    rng_seed(&r, 0xf32e003u + (uint64_t)_i);
    const size_t m = 4 * COUNTS_MAX;
    buf a = buf_make(m), b = buf_make(m), o1 = buf_make(m), o2 = buf_make(m), o3 = buf_make(m);
    buf t = buf_make(COUNTS_MAX);
    for (size_t ci = 0; ci <= 70; ++ci) {
        const size_t n = count_of(ci);
        for (int rep = 0; rep < 4; ++rep) {
            quat_pairs(&r, a.p, b.p, n, rep >= 2);
            const float u = pick_u(&r, rep == 3);
            ks->clip_slerp_uniform_f32(a.p, b.p, u, n, o1.p);
            kt->clip_slerp_uniform_f32(a.p, b.p, u, n, o2.p);
            expect_same(o1.p, o2.p, 4 * n, "clip_slerp_uniform_f32", _i, n);
            for (size_t i = 0; i < n; ++i)
                t.p[i] = u;
            ks->quat_slerp_f32(a.p, b.p, t.p, n, o3.p);
            expect_same(o3.p, o1.p, 4 * n, "clip_slerp_uniform_f32 vs quat_slerp_f32", _i, n);
            memcpy(o2.p, a.p, 4 * n * sizeof(float));
            kt->clip_slerp_uniform_f32(o2.p, b.p, u, n, o2.p);
            expect_same(o1.p, o2.p, 4 * n, "clip_slerp_uniform_f32 (out == a)", _i, n);
            memcpy(o2.p, b.p, 4 * n * sizeof(float));
            kt->clip_slerp_uniform_f32(a.p, o2.p, u, n, o2.p);
            expect_same(o1.p, o2.p, 4 * n, "clip_slerp_uniform_f32 (out == b)", _i, n);
            /* the pooled form: a u per quaternion */
            for (size_t i = 0; i < n; ++i)
                t.p[i] = pick_u(&r, 0);
            ks->quat_slerp_f32(a.p, b.p, t.p, n, o1.p);
            kt->quat_slerp_f32(a.p, b.p, t.p, n, o2.p);
            expect_same(o1.p, o2.p, 4 * n, "quat_slerp_f32", _i, n);
        }
    }
    free(a.base), free(b.base), free(o1.base), free(o2.base), free(o3.base), free(t.base);
}
END_TEST

START_TEST(test_kernel_hermite)
{
    const tendon_kernels *kt = loop_table(_i);
    if (!kt)
        return;
    const tendon_kernels *ks = tendon_kernels_for(TENDON_ISA_SCALAR);
    test_rng r;
    rng_seed(&r, 0xf32e004u + (uint64_t)_i);
    buf v0 = buf_make(COUNTS_MAX), b0 = buf_make(COUNTS_MAX), v1 = buf_make(COUNTS_MAX);
    buf a1 = buf_make(COUNTS_MAX), h = buf_make(4 * COUNTS_MAX);
    buf o1 = buf_make(COUNTS_MAX), o2 = buf_make(COUNTS_MAX);
    for (size_t ci = 0; ci <= 70; ++ci) {
        const size_t n = count_of(ci);
        for (int rep = 0; rep < 3; ++rep) {
            const int sp = rep > 0;
            fill(&r, v0.p, n, -10, 10, sp);
            fill(&r, b0.p, n, -10, 10, sp);
            fill(&r, v1.p, n, -10, 10, sp);
            fill(&r, a1.p, n, -10, 10, sp);
            fill(&r, h.p, 4 * n, -2, 2, rep == 2);
            ks->clip_hermite_f32(v0.p, b0.p, v1.p, a1.p, h.p, n, o1.p);
            kt->clip_hermite_f32(v0.p, b0.p, v1.p, a1.p, h.p, n, o2.p);
            expect_same(o1.p, o2.p, n, "clip_hermite_f32", _i, n);
            for (size_t i = 0; i < n; ++i) {
                const float *hh = h.p;
                const float want = ((hh[i] * v0.p[i] + hh[n + i] * b0.p[i]) +
                                    hh[2 * n + i] * v1.p[i]) +
                                   hh[3 * n + i] * a1.p[i];
                ck_assert_msg(same_float(o1.p[i], want), "scalar clip_hermite_f32 order");
            }
            memcpy(o2.p, v0.p, n * sizeof(float));
            kt->clip_hermite_f32(o2.p, b0.p, v1.p, a1.p, h.p, n, o2.p);
            expect_same(o1.p, o2.p, n, "clip_hermite_f32 (out == v0)", _i, n);
        }
    }
    free(v0.base), free(b0.base), free(v1.base), free(a1.base), free(h.base);
    free(o1.base), free(o2.base);
}
END_TEST

/* ---- clips ------------------------------------------------------------------------------- */

enum { MAX_TRACKS = 3 * 1024 + 8 };

/* A clip and the arrays it was made from (the test's own copies, to find bracketing keys). */
typedef struct test_clip {
    tendon_clip *clip;
    size_t joints, tracks;
    tendon_track_desc desc[MAX_TRACKS];
    float *owned[2 * MAX_TRACKS];
    size_t n_owned;
} test_clip;

static float *own(test_clip *tc, size_t n)
{
    float *p = malloc((n ? n : 1) * sizeof(float));
    ck_assert_ptr_nonnull(p);
    tc->owned[tc->n_owned++] = p;
    return p;
}

static void test_clip_free(test_clip *tc)
{
    for (size_t i = 0; i < tc->n_owned; ++i)
        free(tc->owned[i]);
    tendon_clip_destroy(tc->clip);
    free(tc);
}

static void make_times(test_rng *r, float *tm, size_t keys, int uniform)
{
    double at = rng_range(r, -0.5, 0.5);
    for (size_t k = 0; k < keys; ++k) {
        tm[k] = (float)at;
        at += uniform ? 1.0 / 30.0 : rng_range(r, 0.01, 0.2);
        if ((float)at <= tm[k])
            at = (double)nextafterf(tm[k], INFINITY);
    }
}

static void make_values(test_rng *r, const tendon_track_desc *t, float *v, int unit_quats)
{
    const size_t per = t->width * (t->interpolation == TENDON_INTERP_CUBICSPLINE ? 3 : 1);
    for (size_t k = 0; k < t->key_count * per; k += t->width) {
        if (t->path == TENDON_PATH_ROTATION && (unit_quats || rng_unit(r) < 0.9))
            rng_unit_quat(r, v + k);
        else
            for (size_t e = 0; e < t->width; ++e)
                v[k + e] = (float)rng_range(r, -3, 3);
    }
}

static void create(test_clip *tc)
{
    tendon_clip_desc d = {tc->joints, tc->tracks, tc->desc};
    ck_assert_int_eq(tendon_clip_create(&d, &tc->clip), TENDON_OK);
}

/*
 * A random clip of n tracks over n/3 + 1 joints (translation, rotation, scale in turn): mixed
 * interpolations; times shared by pointer, equal but separate (merged at creation), or a
 * track's own; for n odd a weights track 1 + n wide.
 */
static test_clip *rand_clip(test_rng *r, size_t n)
{
    test_clip *tc = calloc(1, sizeof *tc);
    tc->joints = n / 3 + 1;
    const float *shared = NULL;
    size_t shared_keys = 0;
    for (size_t i = 0; i < n; ++i) {
        tendon_track_desc *t = &tc->desc[i];
        const size_t path = i % 3;
        t->joint = (uint32_t)(i / 3);
        t->path = (tendon_track_path)path;
        const int pick = (int)(rng_unit(r) * 10);
        t->interpolation = pick < 6 ? TENDON_INTERP_LINEAR
                           : pick < 8 ? TENDON_INTERP_STEP
                                      : TENDON_INTERP_CUBICSPLINE;
        t->width = path == 1 ? 4 : 3;
        const double how = rng_unit(r);
        if (shared && how < 0.4) {
            t->key_count = shared_keys, t->times = shared;
        } else if (shared && how < 0.6) { /* equal values, another pointer */
            float *tm = own(tc, shared_keys);
            memcpy(tm, shared, shared_keys * sizeof(float));
            t->key_count = shared_keys, t->times = tm;
        } else {
            const size_t keys = 1 + (size_t)(rng_unit(r) * 40);
            float *tm = own(tc, keys);
            make_times(r, tm, keys, 0);
            t->key_count = keys, t->times = tm;
            if (!shared)
                shared = tm, shared_keys = keys;
        }
        const size_t per = t->width * (t->interpolation == TENDON_INTERP_CUBICSPLINE ? 3 : 1);
        float *v = own(tc, t->key_count * per);
        make_values(r, t, v, 0);
        t->values = v;
    }
    tc->tracks = n;
    if (n % 2 == 1) {
        tendon_track_desc *t = &tc->desc[n];
        const size_t keys = 2 + (size_t)(rng_unit(r) * 6);
        float *tm = own(tc, keys);
        for (size_t k = 0; k < keys; ++k)
            tm[k] = (float)(0.25 * (double)k);
        t->joint = 0;
        t->path = TENDON_PATH_WEIGHTS;
        t->interpolation = (tendon_interpolation)((n / 2) % 3);
        t->width = 1 + n;
        t->key_count = keys;
        t->times = tm;
        const size_t per = t->width * (t->interpolation == TENDON_INTERP_CUBICSPLINE ? 3 : 1);
        float *v = own(tc, keys * per);
        for (size_t k = 0; k < keys * per; ++k)
            v[k] = (float)rng_range(r, -1, 1);
        t->values = v;
        tc->tracks = n + 1;
    }
    create(tc);
    return tc;
}

/*
 * A rig clip: T, R, S of every joint, one interpolation, 61 keys. timeline 0: one shared times
 * array; 1: one array per track with the same values (merged into one timeline); 2: one array
 * per track, jittered (a timeline each). With `holes`, some joints have no rotation (the runs
 * break there).
 */
static test_clip *rig_clip_ex(test_rng *r, size_t joints, tendon_interpolation interp,
                              int timeline, int holes, int smooth)
{
    test_clip *tc = calloc(1, sizeof *tc);
    tc->joints = joints;
    enum { KEYS = 61 };
    float *base = own(tc, KEYS);
    for (size_t k = 0; k < KEYS; ++k)
        base[k] = (float)((double)k / 30.0);
    size_t n = 0;
    for (size_t j = 0; j < joints; ++j)
        for (int p = 0; p < 3; ++p) {
            if (holes && p == 1 && j % 7 == 3)
                continue;
            tendon_track_desc *t = &tc->desc[n++];
            t->joint = (uint32_t)j;
            t->path = (tendon_track_path)p;
            t->interpolation = interp;
            t->width = p == 1 ? 4 : 3;
            t->key_count = KEYS;
            if (timeline == 0) {
                t->times = base;
            } else {
                float *tm = own(tc, KEYS);
                for (size_t k = 0; k < KEYS; ++k)
                    tm[k] = timeline == 1 ? base[k]
                                          : (float)((double)k / 30.0 + rng_unit(r) * 0.01);
                t->times = tm;
            }
            const size_t per = t->width * (interp == TENDON_INTERP_CUBICSPLINE ? 3 : 1);
            float *v = own(tc, KEYS * per);
            make_values(r, t, v, 1);
            if (smooth && p == 1 && interp == TENDON_INTERP_LINEAR) {
                /* a random walk on the sphere: neighbouring keys 0.2° to 6° apart, across the
                   straight-blend thresholds of both tiers */
                for (size_t k = 1; k < KEYS; ++k) {
                    const double step = rng_range(r, 0.002, 0.05);
                    double q[4], l = 0;
                    for (int c = 0; c < 4; ++c)
                        q[c] = v[4 * (k - 1) + c] + step * rng_range(r, -1, 1), l += q[c] * q[c];
                    for (int c = 0; c < 4; ++c)
                        v[4 * k + c] = (float)(q[c] / sqrt(l));
                }
            }
            t->values = v;
        }
    tc->tracks = n;
    create(tc);
    return tc;
}

static test_clip *rig_clip(test_rng *r, size_t joints, tendon_interpolation interp, int timeline,
                           int holes)
{
    return rig_clip_ex(r, joints, interp, timeline, holes, 0);
}

/* Sample times: ±∞, before and after, on keys of random tracks, one double either side of a
   key, between keys. */
static double pick_time(test_rng *r, const test_clip *tc, int s)
{
    if (s == 0)
        return -INFINITY;
    if (s == 1)
        return INFINITY;
    if (tc->tracks > 0 && s % 4 == 2) {
        const tendon_track_desc *t = &tc->desc[rng_u64(r) % tc->tracks];
        const double key = (double)t->times[rng_u64(r) % t->key_count];
        const int side = (int)(rng_u64(r) % 3);
        return side == 0 ? key : side == 1 ? nextafter(key, -INFINITY) : nextafter(key, INFINITY);
    }
    return rng_range(r, -1.0, 9.0);
}

typedef struct pose_pair {
    tendon_pose a, b;
} pose_pair;

static void poses_create(pose_pair *pp, size_t joints)
{
    ck_assert_int_eq(tendon_pose_create(joints, &pp->a), TENDON_OK);
    ck_assert_int_eq(tendon_pose_create(joints, &pp->b), TENDON_OK);
}
static void poses_destroy(pose_pair *pp)
{
    tendon_pose_destroy(&pp->a);
    tendon_pose_destroy(&pp->b);
}
/* The same recognisable contents in both (so untouched channels compare equal). */
static void poses_poison(pose_pair *pp)
{
    const size_t n = pp->a.joint_count;
    for (size_t i = 0; i < 3 * n; ++i)
        pp->a.translation[i] = pp->b.translation[i] = pp->a.scale[i] = pp->b.scale[i] =
            -7.25f - (float)i;
    for (size_t i = 0; i < 4 * n; ++i)
        pp->a.rotation[i] = pp->b.rotation[i] = 9.5f + (float)i;
}

static void expect_poses_equal(const tendon_pose *a, const tendon_pose *b, const char *what,
                               double t)
{
    const size_t n = a->joint_count;
    long d;
    ck_assert_msg((d = first_float_diff(a->translation, b->translation, 3 * n)) < 0,
                  "%s, t=%.17g: translation float %ld differs (%08x vs %08x)", what, t, d,
                  d < 0 ? 0 : float_bits(a->translation[d]), d < 0 ? 0 : float_bits(b->translation[d]));
    ck_assert_msg((d = first_float_diff(a->rotation, b->rotation, 4 * n)) < 0,
                  "%s, t=%.17g: rotation float %ld differs (%08x vs %08x)", what, t, d,
                  d < 0 ? 0 : float_bits(a->rotation[d]), d < 0 ? 0 : float_bits(b->rotation[d]));
    ck_assert_msg((d = first_float_diff(a->scale, b->scale, 3 * n)) < 0,
                  "%s, t=%.17g: scale float %ld differs (%08x vs %08x)", what, t, d,
                  d < 0 ? 0 : float_bits(a->scale[d]), d < 0 ? 0 : float_bits(b->scale[d]));
}

/* The packed output's values of the TRS tracks, written into a pose as the pose path would. */
static void packed_to_pose(const test_clip *tc, const float *packed, tendon_pose *p)
{
    for (size_t i = 0; i < tc->tracks; ++i) {
        const tendon_track_desc *t = &tc->desc[i];
        const float *v = packed + tendon_clip_track_offset(tc->clip, i);
        float *dst = t->path == TENDON_PATH_TRANSLATION ? p->translation + 3 * (size_t)t->joint
                     : t->path == TENDON_PATH_ROTATION  ? p->rotation + 4 * (size_t)t->joint
                     : t->path == TENDON_PATH_SCALE     ? p->scale + 3 * (size_t)t->joint
                                                        : NULL;
        if (dst)
            memcpy(dst, v, t->width * sizeof(float));
    }
}

/* One clip at one time: the table's pose and packed outputs against the scalar table's, and
   the pose path against the packed path. */
static void check_clip_at(const tendon_kernels *kt, const test_clip *tc, double t, pose_pair *pp,
                          float *pa, float *pb, const char *what)
{
    const tendon_kernels *ks = tendon_kernels_for(TENDON_ISA_SCALAR);
    const size_t vc = tendon_clip_value_count(tc->clip);
    memset(pa, 0x55, vc * sizeof(float));
    memset(pb, 0x55, vc * sizeof(float));
    tendon_clip_sample_table_f32(ks, tc->clip, t, NULL, pa);
    tendon_clip_sample_table_f32(kt, tc->clip, t, NULL, pb);
    const long d = first_float_diff(pa, pb, vc);
    ck_assert_msg(d < 0, "%s on %s, %zu tracks, t=%.17g: packed value %ld differs (%08x vs %08x)",
                  what, tendon_isa_name(kt->isa), tc->tracks, t, d, float_bits(pa[d]),
                  float_bits(pb[d]));
    poses_poison(pp);
    tendon_clip_sample_table_f32(ks, tc->clip, t, &pp->a, NULL);
    tendon_clip_sample_table_f32(kt, tc->clip, t, &pp->b, NULL);
    expect_poses_equal(&pp->a, &pp->b, what, t);
    /* the pose path (runs, streams, pools) against the packed path (one track at a time) */
    poses_poison(pp);
    packed_to_pose(tc, pa, &pp->a);
    tendon_clip_sample_table_f32(kt, tc->clip, t, &pp->b, NULL);
    expect_poses_equal(&pp->a, &pp->b, "pose path vs packed path", t);
}

static void check_clip(const tendon_kernels *kt, test_rng *r, const test_clip *tc, int samples,
                       const char *what)
{
    const size_t vc = tendon_clip_value_count(tc->clip);
    float *pa = malloc((vc + 1) * sizeof(float)), *pb = malloc((vc + 1) * sizeof(float));
    pose_pair pp;
    poses_create(&pp, tc->joints);
    for (int s = 0; s < samples; ++s)
        check_clip_at(kt, tc, pick_time(r, tc, s), &pp, pa, pb, what);
    poses_destroy(&pp);
    free(pa);
    free(pb);
}

START_TEST(test_sampler_random_clips)
{
    const tendon_kernels *kt = loop_table(_i);
    if (!kt)
        return;
    test_rng r;
    rng_seed(&r, 0xf32c11bu + (uint64_t)_i);
    for (size_t n = 0; n <= 67; ++n) {
        test_clip *tc = rand_clip(&r, n);
        check_clip(kt, &r, tc, 24, "random clip");
        test_clip_free(tc);
    }
}
END_TEST

START_TEST(test_sampler_rig_clips)
{
    const tendon_kernels *kt = loop_table(_i);
    if (!kt)
        return;
    test_rng r;
    rng_seed(&r, 0xf32819u + (uint64_t)_i);
    static const size_t JOINTS[] = {0, 1, 5, 15, 16, 17, 31, 33, 47, 64, 67, 1024};
    for (size_t ji = 0; ji < sizeof JOINTS / sizeof JOINTS[0]; ++ji)
        for (int interp = 0; interp < 3; ++interp)
            for (int timeline = 0; timeline < 3; ++timeline) {
                const size_t j = JOINTS[ji];
                if (j == 1024 && (interp != TENDON_INTERP_LINEAR || timeline == 1))
                    continue; /* the big one: the streaming case and the per-track one */
                test_clip *tc =
                    rig_clip(&r, j, (tendon_interpolation)interp, timeline, (int)(ji % 2));
                if (timeline < 2)
                    ck_assert_uint_eq(tendon_clip_timeline_count(tc->clip), j ? 1 : 0);
                check_clip(kt, &r, tc, j == 1024 ? 8 : 16, "rig clip");
                test_clip_free(tc);
            }
}
END_TEST

/* ---- against the exact tier -------------------------------------------------------------- */

/* The angle in degrees between two rotations given as quaternions (normalised in double; q and
   −q are the same rotation). */
static double quat_angle_deg(const float *a, const float *b)
{
    double x[4], y[4], la = 0, lb = 0, dp = 0, dm = 0;
    for (int c = 0; c < 4; ++c)
        la += (double)a[c] * a[c], lb += (double)b[c] * b[c];
    la = sqrt(la), lb = sqrt(lb);
    for (int c = 0; c < 4; ++c) {
        x[c] = a[c] / la, y[c] = b[c] / lb;
        dp += (x[c] - y[c]) * (x[c] - y[c]);
        dm += (x[c] + y[c]) * (x[c] + y[c]);
    }
    const double chord = sqrt(dp < dm ? dp : dm); /* |x ∓ y| = 2·sin(angle / 4) */
    return 4.0 * asin(chord / 2.0) * (180.0 / 3.14159265358979323846);
}

static double ulp_of(double m)
{
    const float f = (float)m;
    return (double)nextafterf(f, INFINITY) - (double)f;
}

typedef struct accuracy {
    double lin_ulps, rot_deg, rot_band_deg, cubic_rel, cubic_rot_deg, cubic_rot_rel;
    size_t lin_n, rot_n, lin_exact;
} accuracy;

/* The f32 tier against the exact tier on one clip at one time (packed outputs; both tiers). */
static void compare_tiers(const test_clip *tc, double t, accuracy *acc)
{
    const size_t vc = tendon_clip_value_count(tc->clip);
    float *e = malloc((vc + 1) * sizeof(float)), *f = malloc((vc + 1) * sizeof(float));
    ck_assert_int_eq(tendon_clip_sample_tracks(tc->clip, t, e, vc), TENDON_OK);
    ck_assert_int_eq(tendon_clip_sample_tracks_f32(tc->clip, t, f, vc), TENDON_OK);
    for (size_t i = 0; i < tc->tracks; ++i) {
        const tendon_track_desc *d = &tc->desc[i];
        const size_t off = tendon_clip_track_offset(tc->clip, i), w = d->width;
        size_t k = 0;
        while (k + 1 < d->key_count && (double)d->times[k + 1] <= t)
            ++k;
        const int between = d->key_count > 1 && t > (double)d->times[0] &&
                            t < (double)d->times[d->key_count - 1] && t != (double)d->times[k];
        if (!between || d->interpolation == TENDON_INTERP_STEP) {
            ck_assert_msg(first_float_diff(e + off, f + off, w) < 0,
                          "track %zu t=%.17g: a key copy differs between the tiers", i, t);
            continue;
        }
        if (d->interpolation == TENDON_INTERP_CUBICSPLINE) {
            const double dt = (double)d->times[k + 1] - (double)d->times[k];
            if (d->path == TENDON_PATH_ROTATION) {
                /* relative to the sum's conditioning: the terms' size over the sum's length
                   (a sum that nearly cancels turns a tiny error into a large angle) */
                const float *v = d->values;
                const double s = (double)(float)((t - (double)d->times[k]) / dt);
                const double s2 = s * s, s3 = s2 * s;
                const double h[4] = {(2 * s3 - 3 * s2) + 1, ((s3 - 2 * s2) + s) * dt,
                                     3 * s2 - 2 * s3, (s3 - s2) * dt};
                double len2 = 0, m = 0;
                for (size_t c = 0; c < 4; ++c) {
                    const double x0 = v[(3 * k + 1) * 4 + c], y0 = v[(3 * k + 2) * 4 + c];
                    const double x1 = v[(3 * k + 4) * 4 + c], y1 = v[(3 * k + 3) * 4 + c];
                    const double sum = h[0] * x0 + h[1] * y0 + h[2] * x1 + h[3] * y1;
                    len2 += sum * sum;
                    m = fmax(m, fabs(h[0] * x0) + fabs(h[1] * y0) + fabs(h[2] * x1) + fabs(h[3] * y1));
                }
                const double kappa = m / sqrt(len2);
                const double a = quat_angle_deg(e + off, f + off);
                ck_assert_msg(a <= F32_CUBIC_ROT_DEG * fmax(1.0, kappa),
                              "track %zu t=%.17g: cubic rotation %.3g° from the exact tier's "
                              "(conditioning %.3g)", i, t, a, kappa);
                if (a > acc->cubic_rot_deg)
                    acc->cubic_rot_deg = a;
                if (a / fmax(1.0, kappa) > acc->cubic_rot_rel)
                    acc->cubic_rot_rel = a / fmax(1.0, kappa);
                continue;
            }
            for (size_t c = 0; c < w; ++c) {
                const float *v = d->values;
                /* the scale of the sum's terms: both values and both tangents × Δt */
                const double m = fabs(v[(3 * k + 1) * w + c]) + fabs(v[(3 * k + 4) * w + c]) +
                                 dt * (fabs(v[(3 * k + 2) * w + c]) + fabs(v[(3 * k + 3) * w + c]));
                const double rel = fabs((double)e[off + c] - (double)f[off + c]) / (m > 0 ? m : 1);
                if (rel > acc->cubic_rel)
                    acc->cubic_rel = rel;
            }
            continue;
        }
        const float *va = d->values + k * w, *vb = va + w;
        if (d->path == TENDON_PATH_ROTATION) {
            const double a = quat_angle_deg(e + off, f + off);
            const double dot = fabs((((double)va[0] * vb[0] + (double)va[1] * vb[1]) +
                                     (double)va[2] * vb[2]) + (double)va[3] * vb[3]);
            const int band = dot > 0.9995 && dot <= 0.99989;
            const double bound = band ? F32_ROT_BAND_DEG : F32_ROT_DEG;
            ck_assert_msg(a <= bound, "track %zu t=%.17g: f32 rotation %.3g° from the exact "
                          "tier's (bound %g°, |dot| %.9g)", i, t, a, bound, dot);
            double *m = band ? &acc->rot_band_deg : &acc->rot_deg;
            if (a > *m)
                *m = a;
            acc->rot_n++;
            continue;
        }
        for (size_t c = 0; c < w; ++c) {
            const double m = fmax(fabs(va[c]), fabs(vb[c]));
            const double ulps = fabs((double)e[off + c] - (double)f[off + c]) / ulp_of(m);
            ck_assert_msg(ulps <= F32_LINEAR_ULPS,
                          "track %zu c %zu t=%.17g: f32 %.9g, exact %.9g: %.2f ulps of %.9g", i,
                          c, t, (double)f[off + c], (double)e[off + c], ulps, m);
            if (ulps > acc->lin_ulps)
                acc->lin_ulps = ulps;
            acc->lin_n++;
            acc->lin_exact += same_float(e[off + c], f[off + c]);
        }
    }
    free(e);
    free(f);
}

START_TEST(test_against_exact_tier)
{
    test_rng r;
    rng_seed(&r, 0xf32acc);
    accuracy acc = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    for (int interp = 0; interp < 3; ++interp)
        for (size_t rep = 0; rep < 12; ++rep) {
            test_clip *tc =
                rig_clip_ex(&r, 64, (tendon_interpolation)interp, (int)(rep % 3), 0, rep >= 3);
            for (int s = 0; s < 200; ++s)
                compare_tiers(tc, rng_range(&r, -0.1, 2.1), &acc);
            test_clip_free(tc);
        }
    for (size_t n = 1; n <= 67; n += 3) {
        test_clip *tc = rand_clip(&r, n);
        for (int s = 0; s < 40; ++s)
            compare_tiers(tc, pick_time(&r, tc, s), &acc);
        test_clip_free(tc);
    }
    /* CUBICSPLINE: the float Hermite sum against the double one, relative to its terms */
    ck_assert_msg(acc.cubic_rel <= 4e-7, "cubic: %.3g of the terms' sum", acc.cubic_rel);
    printf("f32 vs exact tier: LINEAR translation/scale max %.2f ulps of the larger key "
           "(%zu of %zu components bit-identical); LINEAR rotation max %.3g deg (%.3g in the "
           "exact tier's straight-blend band) over %zu; "
           "CUBICSPLINE max %.3g of the terms' size, rotations max %.3g deg (%.3g deg per unit of "
           "conditioning above 1)\n",
           acc.lin_ulps, acc.lin_exact, acc.lin_n, acc.rot_deg, acc.rot_band_deg, acc.rot_n,
           acc.cubic_rel,
           acc.cubic_rot_deg, acc.cubic_rot_rel);
    fflush(stdout);
}
END_TEST

/* ---- semantics through the public entry points ------------------------------------------- */

/* On a key, outside the keys and for STEP: the key's floats, bit for bit; untouched channels. */
START_TEST(test_copies_and_untouched)
{
    const float times[3] = {0.0f, 0.5f, 2.0f};
    /* a non-unit rotation key (copied as it is), a −0 and a denormal */
    const float tv[9] = {-0.0f, 1e-40f, 3, 1, 2, -4, 4, 2, 0};
    const float rv[12] = {0, 0, 0, 2, 0.6f, 0, 0, 0.8f, -1, 0, 0, 0};
    const float sv[9] = {1, 1, 1, 2, 2, 2, 3, 3, 3};
    tendon_track_desc t[3] = {
        {1, TENDON_PATH_TRANSLATION, TENDON_INTERP_LINEAR, 3, 3, times, tv},
        {1, TENDON_PATH_ROTATION, TENDON_INTERP_LINEAR, 4, 3, times, rv},
        {2, TENDON_PATH_SCALE, TENDON_INTERP_STEP, 3, 3, times, sv},
    };
    tendon_clip_desc d = {4, 3, t};
    tendon_clip *clip;
    ck_assert_int_eq(tendon_clip_create(&d, &clip), TENDON_OK);
    tendon_pose pose;
    ck_assert_int_eq(tendon_pose_create(4, &pose), TENDON_OK);
    const double at[] = {-INFINITY, -1.0, 0.0, 0.5, 2.0, 3.0, INFINITY};
    const int key[] = {0, 0, 0, 1, 2, 2, 2};
    for (size_t i = 0; i < sizeof at / sizeof at[0]; ++i) {
        for (size_t c = 0; c < 12; ++c)
            pose.translation[c] = pose.scale[c] = 5.0f, pose.rotation[c] = 6.0f;
        for (size_t c = 12; c < 16; ++c)
            pose.rotation[c] = 6.0f;
        ck_assert_int_eq(tendon_clip_sample_f32(clip, at[i], &pose), TENDON_OK);
        ck_assert(first_float_diff(pose.translation + 3, tv + 3 * key[i], 3) < 0);
        ck_assert(first_float_diff(pose.rotation + 4, rv + 4 * key[i], 4) < 0);
        ck_assert(first_float_diff(pose.scale + 6, sv + 3 * key[i], 3) < 0);
        for (size_t c = 0; c < 3; ++c) /* joint 0 and 3: untouched */
            ck_assert(pose.translation[c] == 5.0f && pose.translation[9 + c] == 5.0f &&
                      pose.scale[c] == 5.0f && pose.scale[3 + c] == 5.0f);
        for (size_t c = 0; c < 4; ++c)
            ck_assert(pose.rotation[c] == 6.0f && pose.rotation[8 + c] == 6.0f);
    }
    /* STEP between keys: key k; LINEAR: a + (b − a)·uf in float */
    ck_assert_int_eq(tendon_clip_sample_f32(clip, 1.25, &pose), TENDON_OK);
    ck_assert(first_float_diff(pose.scale + 6, sv + 3, 3) < 0);
    const float uf = (float)((1.25 - 0.5) / 1.5);
    ck_assert(pose.translation[3] == 1.0f + (4.0f - 1.0f) * uf);
    ck_assert(pose.translation[5] == -4.0f + (0.0f - -4.0f) * uf);
    /* u computed in double, rounded once: t = 0.6 */
    ck_assert_int_eq(tendon_clip_sample_f32(clip, 0.6, &pose), TENDON_OK);
    const float u6 = (float)((0.6 - 0.5) / (2.0 - 0.5));
    ck_assert(pose.translation[4] == 2.0f + (2.0f - 2.0f) * u6);
    ck_assert(pose.translation[3] == 1.0f + (4.0f - 1.0f) * u6);
    tendon_pose_destroy(&pose);
    tendon_clip_destroy(clip);
}
END_TEST

/* LINEAR rotation is tendon_quat_slerp_f32 of the bracketing keys by (float)u. */
START_TEST(test_rotation_is_f32_slerp)
{
    test_rng r;
    rng_seed(&r, 0xf325e1);
    float times[6], q[24];
    for (int k = 0; k < 6; ++k) {
        times[k] = (float)(0.1 * k + 0.05);
        rng_unit_quat(&r, q + 4 * k);
    }
    tendon_track_desc t = {0, TENDON_PATH_ROTATION, TENDON_INTERP_LINEAR, 4, 6, times, q};
    tendon_clip_desc d = {1, 1, &t};
    tendon_clip *clip;
    ck_assert_int_eq(tendon_clip_create(&d, &clip), TENDON_OK);
    for (int i = 0; i < 300; ++i) {
        const double tt = rng_range(&r, 0.06, 0.54);
        int k = 0;
        while (k + 1 < 5 && (double)times[k + 1] <= tt)
            ++k;
        const float u = (float)((tt - (double)times[k]) / ((double)times[k + 1] - (double)times[k]));
        float want[4], got[4];
        ck_assert_int_eq(tendon_quat_slerp_f32(q + 4 * k, q + 4 * k + 4, &u, 1, want), TENDON_OK);
        ck_assert_int_eq(tendon_clip_sample_tracks_f32(clip, tt, got, 4), TENDON_OK);
        ck_assert_msg(first_float_diff(got, want, 4) < 0, "t=%.17g: not the f32 slerp", tt);
    }
    tendon_clip_destroy(clip);
}
END_TEST

/* The cursor changes nothing but speed; forward play equals independent samples. */
START_TEST(test_cursor)
{
    test_rng r;
    rng_seed(&r, 0xf32c0de);
    for (size_t n = 0; n <= 67; n += 3) {
        test_clip *tc = n % 2 ? rand_clip(&r, n) : rig_clip(&r, n, TENDON_INTERP_LINEAR, (int)(n % 3), 1);
        const size_t tl = tendon_clip_timeline_count(tc->clip);
        uint32_t *cur = calloc(tl + 1, sizeof *cur), *other = calloc(tl + 1, sizeof *other);
        pose_pair pp;
        poses_create(&pp, tc->joints);
        double t = -0.7, t2 = 3.0;
        for (int f = 0; f < 400; ++f) {
            if (f % 97 == 50)
                t -= rng_range(&r, 0.0, 3.0); /* a jump back: the cursor is stale */
            else if (f % 89 == 7)
                for (size_t i = 0; i < tl; ++i)
                    cur[i] = (uint32_t)rng_u64(&r); /* garbage */
            else if (f % 83 == 11)
                memcpy(cur, other, tl * sizeof *cur); /* another instance's, at another time */
            else if (f % 79 == 13)
                memset(cur, 0, tl * sizeof *cur); /* zeroed */
            else
                t += rng_range(&r, 0.0, 0.05);
            poses_poison(&pp);
            ck_assert_int_eq(tendon_clip_sample_f32(tc->clip, t, &pp.a), TENDON_OK);
            ck_assert_int_eq(tendon_clip_sample_cursor_f32(tc->clip, t, cur, tl, &pp.b), TENDON_OK);
            expect_poses_equal(&pp.a, &pp.b, "the cursor changed the result", t);
            t2 += 0.03;
            ck_assert_int_eq(tendon_clip_sample_cursor_f32(tc->clip, t2, other, tl, &pp.b),
                             TENDON_OK);
        }
        /* every cursor entry out of range */
        for (size_t i = 0; i < tl; ++i)
            cur[i] = UINT32_MAX - (uint32_t)i;
        poses_poison(&pp);
        ck_assert_int_eq(tendon_clip_sample_f32(tc->clip, 0.77, &pp.a), TENDON_OK);
        ck_assert_int_eq(tendon_clip_sample_cursor_f32(tc->clip, 0.77, cur, tl, &pp.b), TENDON_OK);
        expect_poses_equal(&pp.a, &pp.b, "an out-of-range cursor changed the result", 0.77);
        free(cur);
        free(other);
        poses_destroy(&pp);
        test_clip_free(tc);
    }
    /* forward play at 60 Hz over a whole 2 s rig clip (both timeline cases), wrapping once */
    for (int timeline = 0; timeline < 3; timeline += 2) {
        test_clip *tc = rig_clip(&r, 67, TENDON_INTERP_LINEAR, timeline, 0);
        const size_t tl = tendon_clip_timeline_count(tc->clip);
        uint32_t *cur = calloc(tl + 1, sizeof *cur);
        pose_pair pp;
        poses_create(&pp, tc->joints);
        double t = 0.0;
        for (int f = 0; f < 150; ++f, t += 1.0 / 60.0) {
            if (t >= 2.0)
                t -= 2.0;
            poses_poison(&pp);
            ck_assert_int_eq(tendon_clip_sample_cursor_f32(tc->clip, t, cur, tl, &pp.a), TENDON_OK);
            ck_assert_int_eq(tendon_clip_sample_f32(tc->clip, t, &pp.b), TENDON_OK);
            expect_poses_equal(&pp.a, &pp.b, "forward play", t);
        }
        free(cur);
        poses_destroy(&pp);
        test_clip_free(tc);
    }
}
END_TEST

/* ---- the clip cases of bugs.json ------------------------------------------------------------ */

static double num(const json_t *v)
{
    ck_assert_msg(json_is_number(v), "expected a number");
    return json_number_value(v);
}

static tendon_clip *one_track(tendon_track_path path, tendon_interpolation interp, size_t width,
                              size_t keys, const float *times, const float *values)
{
    tendon_track_desc t = {0, path, interp, width, keys, times, values};
    tendon_clip_desc d = {1, 1, &t};
    tendon_clip *clip = NULL;
    ck_assert_int_eq(tendon_clip_create(&d, &clip), TENDON_OK);
    return clip;
}

START_TEST(test_bug_cases)
{
    /* anim-bug-11: CUBICSPLINE tangent slots and Δt scaling */
    {
        json_t *c = test_bug_case("anim-bug-11-cubicspline-tangent-slots-and-scaling");
        json_t *in = json_object_get(c, "input");
        const double tol = num(json_object_get(c, "tolerance"));
        float times[2], values[18];
        for (int k = 0; k < 2; ++k) {
            times[k] = (float)num(json_array_get(json_object_get(in, "times"), (size_t)k));
            json_t *tk = json_array_get(json_object_get(in, "output_triplets"), (size_t)k);
            const char *slot[3] = {"in_tangent", "value", "out_tangent"};
            for (int s = 0; s < 3; ++s)
                for (int e = 0; e < 3; ++e)
                    values[9 * k + 3 * s + e] =
                        (float)num(json_array_get(json_object_get(tk, slot[s]), (size_t)e));
        }
        tendon_clip *clip =
            one_track(TENDON_PATH_TRANSLATION, TENDON_INTERP_CUBICSPLINE, 3, 2, times, values);
        const char *key[] = {"0.5", "1.0", "1.5", "1.999", "2.0"};
        json_t *want = json_object_get(json_object_get(c, "expected"), "values");
        size_t i;
        json_t *tv;
        json_array_foreach(json_object_get(in, "sample_times"), i, tv)
        {
            float got[3];
            ck_assert_int_eq(tendon_clip_sample_tracks_f32(clip, num(tv), got, 3), TENDON_OK);
            for (int e = 0; e < 3; ++e) {
                const double w = num(json_array_get(json_object_get(want, key[i]), (size_t)e));
                ck_assert_msg(fabs(got[e] - w) <= tol, "bug 11 t=%g: %.9g, expected %.9g",
                              num(tv), (double)got[e], w);
            }
        }
        tendon_clip_destroy(clip);
    }
    /* anim-bug-12: CUBICSPLINE rotations normalised */
    {
        json_t *c = test_bug_case("anim-bug-12-cubicspline-quaternion-normalise");
        json_t *in = json_object_get(c, "input");
        const double tol = num(json_object_get(c, "tolerance"));
        float times[2], values[24];
        for (int k = 0; k < 2; ++k) {
            times[k] = (float)num(json_array_get(json_object_get(in, "times"), (size_t)k));
            json_t *tk = json_array_get(json_object_get(in, "output_triplets"), (size_t)k);
            const char *slot[3] = {"in_tangent", "value_xyzw", "out_tangent"};
            for (int s = 0; s < 3; ++s)
                for (int e = 0; e < 4; ++e)
                    values[12 * k + 4 * s + e] =
                        (float)num(json_array_get(json_object_get(tk, slot[s]), (size_t)e));
        }
        tendon_clip *clip =
            one_track(TENDON_PATH_ROTATION, TENDON_INTERP_CUBICSPLINE, 4, 2, times, values);
        tendon_pose pose;
        ck_assert_int_eq(tendon_pose_create(1, &pose), TENDON_OK);
        ck_assert_int_eq(tendon_clip_sample_f32(clip, num(json_object_get(in, "sample_time")), &pose),
                         TENDON_OK);
        json_t *q = json_object_get(json_object_get(c, "expected"), "q_xyzw");
        double len2 = 0;
        for (int e = 0; e < 4; ++e) {
            ck_assert_msg(fabs(pose.rotation[e] - num(json_array_get(q, (size_t)e))) <= tol,
                          "bug 12 component %d: %.9g", e, (double)pose.rotation[e]);
            len2 += (double)pose.rotation[e] * pose.rotation[e];
        }
        ck_assert(fabs(sqrt(len2) - 1.0) <= tol);
        tendon_pose_destroy(&pose);
        tendon_clip_destroy(clip);
    }
    /* anim-bug-13: STEP at a key time gives that key, exactly */
    {
        json_t *c = test_bug_case("anim-bug-13-step-value-at-key-time");
        json_t *in = json_object_get(c, "input");
        float times[3], values[3];
        for (int k = 0; k < 3; ++k) {
            times[k] = (float)num(json_array_get(json_object_get(in, "times"), (size_t)k));
            values[k] = (float)num(json_array_get(json_object_get(in, "values"), (size_t)k));
        }
        tendon_clip *clip = one_track(TENDON_PATH_WEIGHTS, TENDON_INTERP_STEP, 1, 3, times, values);
        json_t *want = json_object_get(json_object_get(c, "expected"), "values");
        const char *keys[] = {"0.25", "0.5", "0.75", "1.0", "1.5", "0.5"};
        size_t i;
        json_t *tv;
        json_array_foreach(json_object_get(in, "sample_times"), i, tv)
        {
            float got;
            ck_assert_int_eq(tendon_clip_sample_tracks_f32(clip, num(tv), &got, 1), TENDON_OK);
            ck_assert((double)got == num(json_object_get(want, keys[i])));
        }
        tendon_clip_destroy(clip);
    }
    /* anim-bug-14: clamped before the first key (and after the last), exactly the key */
    {
        json_t *c = test_bug_case("anim-bug-14-clamp-before-first-key");
        json_t *in = json_object_get(c, "input");
        const double tol = num(json_object_get(c, "tolerance"));
        float times[2], values[6];
        for (int k = 0; k < 2; ++k) {
            times[k] = (float)num(json_array_get(json_object_get(in, "times"), (size_t)k));
            for (int e = 0; e < 3; ++e)
                values[3 * k + e] = (float)num(json_array_get(
                    json_array_get(json_object_get(in, "values"), (size_t)k), (size_t)e));
        }
        tendon_clip *clip = one_track(TENDON_PATH_SCALE, TENDON_INTERP_LINEAR, 3, 2, times, values);
        tendon_pose pose;
        ck_assert_int_eq(tendon_pose_create(1, &pose), TENDON_OK);
        json_t *want = json_object_get(json_object_get(c, "expected"), "values");
        const char *keys[] = {"0.0", "0.02", "0.03333333507180214", "0.5", "1.0", "2.0"};
        size_t i;
        json_t *tv;
        json_array_foreach(json_object_get(in, "sample_times"), i, tv)
        {
            const double t = num(tv);
            ck_assert_int_eq(tendon_clip_sample_f32(clip, t, &pose), TENDON_OK);
            for (int e = 0; e < 3; ++e) {
                const double we = num(json_array_get(json_object_get(want, keys[i]), (size_t)e));
                ck_assert_msg(fabs(pose.scale[e] - we) <= tol, "bug 14 t=%g: %.9g vs %.9g", t,
                              (double)pose.scale[e], we);
                if (t <= times[0])
                    ck_assert(pose.scale[e] == values[e]);
                if (t >= times[1])
                    ck_assert(pose.scale[e] == values[3 + e]);
            }
        }
        tendon_pose_destroy(&pose);
        tendon_clip_destroy(clip);
    }
}
END_TEST

/* ---- errors: the exact twins' statuses and messages, under the f32 names ------------------ */

static char g_msg[512];

/* The exact call's message with `name` replaced by `name_f32`. */
static void expect_twin_message(const char *exact_msg, const char *name)
{
    const char *got = tendon_error_message();
    char want[600];
    const char *at = strstr(exact_msg, name);
    ck_assert_ptr_nonnull(at);
    const size_t pre = (size_t)(at - exact_msg), len = strlen(name);
    snprintf(want, sizeof want, "%.*s%s_f32%s", (int)pre, exact_msg, name, at + len);
    ck_assert_msg(strcmp(got, want) == 0, "f32 message \"%s\", expected \"%s\"", got, want);
}

#define TWIN(status_exact, call_exact, status_f32_call, name)                                     \
    do {                                                                                           \
        const tendon_status se_ = (call_exact);                                                    \
        snprintf(g_msg, sizeof g_msg, "%s", tendon_error_message());                             \
        const tendon_status sf_ = (status_f32_call);                                               \
        ck_assert_int_eq(se_, status_exact);                                                       \
        ck_assert_int_eq(sf_, status_exact);                                                       \
        expect_twin_message(g_msg, name);                                                          \
    } while (0)

START_TEST(test_errors)
{
    const float times[2] = {0, 1};
    const float tv[6] = {0, 0, 0, 2, 2, 2};
    tendon_track_desc t = {1, TENDON_PATH_TRANSLATION, TENDON_INTERP_LINEAR, 3, 2, times, tv};
    tendon_clip_desc d = {3, 1, &t};
    tendon_clip *clip;
    ck_assert_int_eq(tendon_clip_create(&d, &clip), TENDON_OK);
    tendon_pose pose, small;
    ck_assert_int_eq(tendon_pose_create(3, &pose), TENDON_OK);
    ck_assert_int_eq(tendon_pose_create(2, &small), TENDON_OK);
    for (size_t i = 0; i < 9; ++i)
        pose.translation[i] = 7.0f;
    uint32_t cur[2] = {0, 0};
    float out[4] = {5, 5, 5, 5};

    TWIN(TENDON_ERR_NULL, tendon_clip_sample(NULL, 0.5, &pose),
         tendon_clip_sample_f32(NULL, 0.5, &pose), "tendon_clip_sample");
    TWIN(TENDON_ERR_NULL, tendon_clip_sample(clip, 0.5, NULL),
         tendon_clip_sample_f32(clip, 0.5, NULL), "tendon_clip_sample");
    TWIN(TENDON_ERR_COUNT, tendon_clip_sample(clip, 0.5, &small),
         tendon_clip_sample_f32(clip, 0.5, &small), "tendon_clip_sample");
    TWIN(TENDON_ERR_VALUE, tendon_clip_sample(clip, NAN, &pose),
         tendon_clip_sample_f32(clip, NAN, &pose), "tendon_clip_sample");
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "NaN"));
    TWIN(TENDON_ERR_VALUE, tendon_clip_sample(clip, -NAN, &pose),
         tendon_clip_sample_f32(clip, -NAN, &pose), "tendon_clip_sample");

    TWIN(TENDON_ERR_NULL, tendon_clip_sample_cursor(NULL, 0.5, cur, 1, &pose),
         tendon_clip_sample_cursor_f32(NULL, 0.5, cur, 1, &pose), "tendon_clip_sample_cursor");
    TWIN(TENDON_ERR_COUNT, tendon_clip_sample_cursor(clip, 0.5, cur, 0, &pose),
         tendon_clip_sample_cursor_f32(clip, 0.5, cur, 0, &pose), "tendon_clip_sample_cursor");
    TWIN(TENDON_ERR_NULL, tendon_clip_sample_cursor(clip, 0.5, NULL, 1, &pose),
         tendon_clip_sample_cursor_f32(clip, 0.5, NULL, 1, &pose), "tendon_clip_sample_cursor");
    TWIN(TENDON_ERR_VALUE, tendon_clip_sample_cursor(clip, NAN, cur, 1, &pose),
         tendon_clip_sample_cursor_f32(clip, NAN, cur, 1, &pose), "tendon_clip_sample_cursor");
    TWIN(TENDON_ERR_COUNT, tendon_clip_sample_cursor(clip, 0.5, cur, 1, &small),
         tendon_clip_sample_cursor_f32(clip, 0.5, cur, 1, &small), "tendon_clip_sample_cursor");

    TWIN(TENDON_ERR_NULL, tendon_clip_sample_tracks(NULL, 0.5, out, 3),
         tendon_clip_sample_tracks_f32(NULL, 0.5, out, 3), "tendon_clip_sample_tracks");
    TWIN(TENDON_ERR_COUNT, tendon_clip_sample_tracks(clip, 0.5, out, 2),
         tendon_clip_sample_tracks_f32(clip, 0.5, out, 2), "tendon_clip_sample_tracks");
    TWIN(TENDON_ERR_VALUE, tendon_clip_sample_tracks(clip, NAN, out, 3),
         tendon_clip_sample_tracks_f32(clip, NAN, out, 3), "tendon_clip_sample_tracks");
    TWIN(TENDON_ERR_NULL, tendon_clip_sample_tracks(clip, 0.5, NULL, 3),
         tendon_clip_sample_tracks_f32(clip, 0.5, NULL, 3), "tendon_clip_sample_tracks");
    /* a misaligned out */
    unsigned char raw[32];
    float *odd = (float *)(void *)(raw + 1 + (4 - (uintptr_t)raw % 4) % 4);
    TWIN(TENDON_ERR_VALUE, tendon_clip_sample_tracks(clip, 0.5, odd, 3),
         tendon_clip_sample_tracks_f32(clip, 0.5, odd, 3), "tendon_clip_sample_tracks");

    /* nothing was written by any refused call */
    for (size_t i = 0; i < 9; ++i)
        ck_assert(pose.translation[i] == 7.0f);
    ck_assert(out[0] == 5 && out[1] == 5 && out[2] == 5 && out[3] == 5);
    ck_assert(cur[0] == 0);
    /* an empty clip: nothing to do, OK; ±∞ clamp */
    ck_assert_int_eq(tendon_clip_sample_f32(clip, -INFINITY, &pose), TENDON_OK);
    ck_assert(pose.translation[3] == 0.0f && pose.translation[0] == 7.0f);
    ck_assert_int_eq(tendon_clip_sample_f32(clip, INFINITY, &pose), TENDON_OK);
    ck_assert(pose.translation[3] == 2.0f);
    tendon_clip_desc e = {2, 0, NULL};
    tendon_clip *empty;
    ck_assert_int_eq(tendon_clip_create(&e, &empty), TENDON_OK);
    ck_assert_int_eq(tendon_clip_sample_f32(empty, 1.0, &small), TENDON_OK);
    ck_assert_int_eq(tendon_clip_sample_cursor_f32(empty, 1.0, NULL, 0, &small), TENDON_OK);
    ck_assert_int_eq(tendon_clip_sample_tracks_f32(empty, 1.0, NULL, 0), TENDON_OK);
    tendon_clip_destroy(empty);
    tendon_pose_destroy(&pose);
    tendon_pose_destroy(&small);
    tendon_clip_destroy(clip);
}
END_TEST

int main(void)
{
    if (env_isa_unusable())
        return 77;
    Suite *s = suite_create("clip_f32");
    TCase *tc = tcase_create("api");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_active_isa);
    tcase_add_test(tc, test_copies_and_untouched);
    tcase_add_test(tc, test_rotation_is_f32_slerp);
    tcase_add_test(tc, test_cursor);
    tcase_add_test(tc, test_bug_cases);
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_against_exact_tier);
    suite_add_tcase(s, tc);
    tc = tcase_create("isa");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_kernel_lerp, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(tc, test_kernel_lerp_uniform, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(tc, test_kernel_slerp, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(tc, test_kernel_hermite, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(tc, test_sampler_random_clips, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(tc, test_sampler_rig_clips, 0, TENDON_ISA_COUNT);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
