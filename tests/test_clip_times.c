/*
 * tendon_clip_sample_times / _f32 (tendon/clip.h): many times and a subset of the joints in one
 * call equal the single-time sampler at every time, bit for bit, on every ISA (emulated ones
 * included), in both tiers — on clips mixing STEP, LINEAR and CUBICSPLINE tracks of every TRS
 * path, shared and distinct timelines, one-key tracks, times before, between, on and after the
 * keys, in any order (and back onto a key after a time past it); untouched channels stay
 * untouched; the errors.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/kernels_internal.h"
#include "support.h"

enum { JOINTS = 23, MAX_KEYS = 40 };

typedef struct test_clip {
    tendon_clip *clip;
    float times[4][MAX_KEYS];
    float *values;
} test_clip;

/* A clip over JOINTS joints: most joints have a rotation track, some translation and scale;
   four timelines (one uniform, one irregular, one with a single key, one short). `runs`: every
   joint a LINEAR rotation and translation on the uniform timeline, so the float32 tier's
   single-time sampler streams them as long runs through its uniform kernels. */
static void make_clip(test_rng *r, test_clip *tc, int runs)
{
    static const size_t keys[4] = {33, 17, 1, 5};
    for (int tl = 0; tl < 4; ++tl) {
        double t = rng_range(r, -0.5, 0.5);
        for (size_t k = 0; k < keys[tl]; ++k) {
            tc->times[tl][k] = (float)(tl == 0 ? (double)k / 32.0 : t);
            t += rng_range(r, 0.02, 0.3);
        }
    }
    tendon_track_desc tracks[3 * JOINTS];
    size_t n = 0, floats = 0;
    tc->values = malloc(3 * JOINTS * 3 * MAX_KEYS * 4 * sizeof(float));
    for (uint32_t j = 0; j < JOINTS; ++j) {
        for (int path = 0; path < 3; ++path) {
            if (runs ? path == 2 : rng_unit(r) < (path == 1 ? 0.15 : 0.55))
                continue;
            const int tl = runs ? 0 : (int)(rng_u64(r) % 4);
            const double pick = runs ? 0.0 : rng_unit(r);
            const tendon_interpolation in = pick < 0.6   ? TENDON_INTERP_LINEAR
                                            : pick < 0.8 ? TENDON_INTERP_STEP
                                                         : TENDON_INTERP_CUBICSPLINE;
            const size_t w = path == 1 ? 4 : 3;
            const size_t per = in == TENDON_INTERP_CUBICSPLINE ? 3 : 1;
            float *v = tc->values + floats;
            for (size_t k = 0; k < keys[tl] * per; ++k) {
                if (path == 1) {
                    rng_unit_quat(r, v + 4 * k);
                    if (k > 0 && rng_unit(r) < 0.2) /* near-parallel neighbours */
                        for (int c = 0; c < 4; ++c)
                            v[4 * k + c] = v[4 * (k - 1) + c] + (float)rng_range(r, -1e-4, 1e-4);
                } else {
                    for (int c = 0; c < 3; ++c)
                        v[3 * k + c] = (float)rng_range(r, path == 2 ? 0.5 : -2.0, 2.0);
                }
            }
            floats += keys[tl] * per * w;
            tracks[n++] = (tendon_track_desc){j, (tendon_track_path)path, in, w, keys[tl],
                                              tc->times[tl], v};
        }
    }
    const tendon_clip_desc d = {JOINTS, n, tracks};
    ck_assert_msg(tendon_clip_create(&d, &tc->clip) == TENDON_OK, "%s", tendon_error_message());
}

static void fill_rest(tendon_pose *p)
{
    for (size_t j = 0; j < p->joint_count; ++j) {
        for (int c = 0; c < 3; ++c) {
            p->translation[3 * j + c] = 0.25f * (float)c - 0.1f;
            p->scale[3 * j + c] = 1.0f + 0.125f * (float)c;
        }
        p->rotation[4 * j] = p->rotation[4 * j + 1] = p->rotation[4 * j + 2] = 0.0f;
        p->rotation[4 * j + 3] = 1.0f;
    }
}

START_TEST(times_equal_single_time_every_isa)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    test_rng r;
    for (uint64_t seed = 1; seed <= 12; ++seed) {
        rng_seed(&r, 0x5eed0000u + seed);
        test_clip tc;
        make_clip(&r, &tc, seed == 1 || seed == 3);
        /* a subset of the joints (strictly increasing), sometimes all, sometimes one */
        uint32_t joints[JOINTS];
        size_t nj = 0;
        const double keep = seed == 1 ? 1.0 : seed == 2 ? 0.0 : rng_range(&r, 0.2, 0.8);
        for (uint32_t j = 0; j < JOINTS; ++j)
            if (rng_unit(&r) < keep)
                joints[nj++] = j;
        if (nj == 0)
            joints[nj++] = (uint32_t)(rng_u64(&r) % JOINTS);
        /* times: a forward grid like a spring's substeps, plus keys exactly, ends, far outside,
           a shuffled tail */
        enum { T = 150 };
        double times[T];
        const double start = rng_range(&r, -1.0, 1.0), step = rng_range(&r, 0.003, 0.03);
        for (int i = 0; i < T; ++i)
            times[i] = start + (double)i * step;
        times[3] = (double)tc.times[0][5];
        times[7] = (double)tc.times[1][16];
        times[11] = (double)tc.times[3][0];
        times[13] = -1e30;
        times[17] = 1e30;
        times[19] = -INFINITY;
        times[23] = INFINITY;
        /* within one key interval, then its first key exactly, its last key, just below that,
           and the first key again, on the uniform and an irregular timeline (a sampler that
           kept the last interval it found would have to copy the key when a time comes back
           onto it) */
        for (int tl = 0; tl < 2; ++tl) {
            const double k0 = (double)tc.times[tl][7], k1 = (double)tc.times[tl][8];
            double *at = times + 27 + 6 * tl;
            at[0] = k0 + 0.25 * (k1 - k0);
            at[1] = k0;
            at[2] = k1;
            at[3] = nextafter(k1, -INFINITY);
            at[4] = k0;
            at[5] = nextafter(k0, INFINITY);
        }
        for (int i = T - 20; i < T; ++i)
            times[i] = rng_range(&r, -1.0, 6.0);
        for (int f32 = 0; f32 < 2; ++f32) {
            tendon_pose batch, one;
            ck_assert(tendon_pose_create(T * nj, &batch) == TENDON_OK);
            ck_assert(tendon_pose_create(JOINTS, &one) == TENDON_OK);
            fill_rest(&batch);
            const tendon_status st =
                f32 ? tendon_clip_sample_times_f32_on(k, tc.clip, times, T, joints, nj, &batch)
                    : tendon_clip_sample_times_on(k, tc.clip, times, T, joints, nj, &batch);
            ck_assert_msg(st == TENDON_OK, "%s", tendon_error_message());
            for (int i = 0; i < T; ++i) {
                fill_rest(&one);
                if (f32)
                    tendon_clip_sample_table_f32(k, tc.clip, times[i], &one, NULL);
                else
                    tendon_clip_sample_table(k, tc.clip, times[i], &one, NULL);
                for (size_t s = 0; s < nj; ++s) {
                    const size_t b = (size_t)i * nj + s, j = joints[s];
                    const long dt = first_float_diff(batch.translation + 3 * b,
                                                     one.translation + 3 * j, 3);
                    const long dr = first_float_diff(batch.rotation + 4 * b, one.rotation + 4 * j, 4);
                    const long ds = first_float_diff(batch.scale + 3 * b, one.scale + 3 * j, 3);
                    ck_assert_msg(dt < 0 && dr < 0 && ds < 0,
                                  "%s %s seed %llu: time %d (%.17g), joint %zu: translation %ld "
                                  "rotation %ld scale %ld differ (rotation %08x against %08x)",
                                  tendon_isa_name(k->isa), f32 ? "f32" : "exact",
                                  (unsigned long long)seed, i, times[i], j, dt, dr, ds,
                                  dr >= 0 ? float_bits(batch.rotation[4 * b + dr]) : 0,
                                  dr >= 0 ? float_bits(one.rotation[4 * j + dr]) : 0);
                }
            }
            tendon_pose_destroy(&batch);
            tendon_pose_destroy(&one);
        }
        tendon_clip_destroy(tc.clip);
        free(tc.values);
    }
}
END_TEST

START_TEST(times_errors)
{
    test_rng r;
    rng_seed(&r, 77);
    test_clip tc;
    make_clip(&r, &tc, 0);
    tendon_pose out;
    ck_assert(tendon_pose_create(6, &out) == TENDON_OK);
    fill_rest(&out);
    const uint32_t joints[3] = {1, 4, 9}, unordered[3] = {1, 9, 4}, far[3] = {1, 4, JOINTS};
    const double times[2] = {0.1, 0.2}, nan_times[2] = {0.1, NAN};
    ck_assert_int_eq(tendon_clip_sample_times(NULL, times, 2, joints, 3, &out), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_clip_sample_times(tc.clip, NULL, 2, joints, 3, &out), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_clip_sample_times(tc.clip, times, 2, NULL, 3, &out), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_clip_sample_times(tc.clip, times, 2, joints, 2, &out), TENDON_ERR_COUNT);
    ck_assert(strstr(tendon_error_message(), "out has 6 joints"));
    ck_assert_int_eq(tendon_clip_sample_times(tc.clip, times, 2, unordered, 3, &out),
                     TENDON_ERR_VALUE);
    ck_assert(strstr(tendon_error_message(), "strictly increasing"));
    ck_assert_int_eq(tendon_clip_sample_times_f32(tc.clip, times, 2, far, 3, &out),
                     TENDON_ERR_RANGE);
    ck_assert(strstr(tendon_error_message(), "joints[2] is 23"));
    const tendon_pose before = out;
    float snapshot[10 * 6];
    memcpy(snapshot, out.translation, 18 * sizeof(float));
    ck_assert_int_eq(tendon_clip_sample_times(tc.clip, nan_times, 2, joints, 3, &out),
                     TENDON_ERR_VALUE);
    ck_assert(strstr(tendon_error_message(), "times[1] is NaN"));
    ck_assert(memcmp(snapshot, before.translation, 18 * sizeof(float)) == 0);
    /* misaligned times or joints: refused by name, nothing read or written (UBSan reported the
       reads before) */
    _Alignas(16) unsigned char raw[64];
    memcpy(raw + 4, times, sizeof times);
    memcpy(raw + 33, joints, sizeof joints);
    const double *odd_times = (const double *)(const void *)(raw + 4);
    const uint32_t *odd_joints = (const uint32_t *)(const void *)(raw + 33);
    ck_assert_int_eq(tendon_clip_sample_times(tc.clip, odd_times, 2, joints, 3, &out),
                     TENDON_ERR_VALUE);
    ck_assert_msg(strstr(tendon_error_message(), "tendon_clip_sample_times: times at ") &&
                      strstr(tendon_error_message(), "multiple of 8 bytes"),
                  "%s", tendon_error_message());
    ck_assert_int_eq(tendon_clip_sample_times_f32(tc.clip, times, 2, odd_joints, 3, &out),
                     TENDON_ERR_VALUE);
    ck_assert_msg(strstr(tendon_error_message(), "tendon_clip_sample_times_f32: joints at "),
                  "%s", tendon_error_message());
    ck_assert(memcmp(snapshot, before.translation, 18 * sizeof(float)) == 0);
    /* times or joints inside out's arrays: read again after out is partly written, refused */
    {
        tendon_pose held;
        ck_assert(tendon_pose_create(6, &held) == TENDON_OK);
        fill_rest(&held);
        double *t_in = (double *)(void *)held.rotation; /* 24 floats: room for 2 doubles */
        memcpy(t_in, times, sizeof times);
        ck_assert_int_eq(tendon_clip_sample_times(tc.clip, t_in, 2, joints, 3, &held),
                         TENDON_ERR_ALIAS);
        ck_assert_msg(strstr(tendon_error_message(), "times overlaps out.rotation"), "%s",
                      tendon_error_message());
        uint32_t *j_in = (uint32_t *)(void *)held.scale;
        memcpy(j_in, joints, sizeof joints);
        ck_assert_int_eq(tendon_clip_sample_times_f32(tc.clip, times, 2, j_in, 3, &held),
                         TENDON_ERR_ALIAS);
        ck_assert_msg(strstr(tendon_error_message(), "joints overlaps out.scale"), "%s",
                      tendon_error_message());
        ck_assert(memcmp(j_in, joints, sizeof joints) == 0); /* nothing written */
        tendon_pose_destroy(&held);
    }
    tendon_pose empty;
    ck_assert(tendon_pose_create(0, &empty) == TENDON_OK);
    ck_assert_int_eq(tendon_clip_sample_times(tc.clip, times, 0, joints, 3, &empty), TENDON_OK);
    tendon_pose_destroy(&empty);
    tendon_pose_destroy(&out);
    tendon_clip_destroy(tc.clip);
    free(tc.values);
}
END_TEST

int main(void)
{
    if (env_isa_unusable())
        return 77;
    Suite *s = suite_create("clip_times");
    TCase *tc = tcase_create("times");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, times_equal_single_time_every_isa, 0, TENDON_ISA_COUNT);
    tcase_add_test(tc, times_errors);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
