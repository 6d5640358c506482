/*
 * Clip sampling and root motion (tendon/clip.h).
 *
 * Oracles: the bug cases anim-bug-11..14 of tests/data/bugs/bugs.json (hand-computed in double,
 * with their tolerances); hand-computed values (lerp in double, STEP keys, Hermite at the ends);
 * the slerp of tendon_quat_slerp on the same keys (the seed's arithmetic, which clip sampling
 * is defined to use); every ISA bit for bit against the scalar table over random clips of 0..67
 * tracks at random times, times on keys, before the first, after the last and ±∞; root motion
 * against a hand-built walking loop.
 */
#define _POSIX_C_SOURCE 200809L
#include <float.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/kernels_internal.h"
#include "support.h"

/* ---- bug cases from bugs.json --------------------------------------------------------------- */

static json_t *bug_case(const char *id)
{
    size_t size;
    char *text = read_test_file("bugs/bugs.json", &size);
    json_error_t err;
    json_t *all = json_loadb(text, size, JSON_DECODE_INT_AS_REAL, &err);
    free(text);
    ck_assert_msg(all != NULL, "bugs.json: %s", err.text);
    json_t *found = NULL;
    size_t i;
    json_t *c;
    json_array_foreach(all, i, c)
    {
        if (strcmp(json_string_value(json_object_get(c, "id")), id) == 0)
            found = json_incref(c);
    }
    json_decref(all);
    ck_assert_msg(found != NULL, "bugs.json has no case %s", id);
    return found;
}

static double num(const json_t *v)
{
    ck_assert_msg(json_is_number(v), "expected a number");
    return json_number_value(v);
}

/* A one-track clip over one joint. */
static tendon_clip *one_track_clip(tendon_track_path path, tendon_interpolation interp,
                                   size_t width, size_t keys, const float *times,
                                   const float *values)
{
    tendon_track_desc t = {0, path, interp, width, keys, times, values};
    tendon_clip_desc d = {1, 1, &t};
    tendon_clip *clip = NULL;
    ck_assert_int_eq(tendon_clip_create(&d, &clip), TENDON_OK);
    return clip;
}

static void sample_value(const tendon_clip *clip, double t, float *out)
{
    ck_assert_int_eq(tendon_clip_sample_tracks(clip, t, out, tendon_clip_value_count(clip)),
                     TENDON_OK);
}

START_TEST(anim_bug_11_cubicspline_tangent_slots_and_scaling)
{
    json_t *c = bug_case("anim-bug-11-cubicspline-tangent-slots-and-scaling");
    json_t *in = json_object_get(c, "input");
    const double tol = num(json_object_get(c, "tolerance"));
    float times[2], values[18];
    json_t *trip = json_object_get(in, "output_triplets");
    for (int k = 0; k < 2; ++k) {
        times[k] = (float)num(json_array_get(json_object_get(in, "times"), (size_t)k));
        json_t *tk = json_array_get(trip, (size_t)k);
        const char *slot[3] = {"in_tangent", "value", "out_tangent"};
        for (int s = 0; s < 3; ++s)
            for (int e = 0; e < 3; ++e)
                values[9 * k + 3 * s + e] =
                    (float)num(json_array_get(json_object_get(tk, slot[s]), (size_t)e));
    }
    tendon_clip *clip = one_track_clip(TENDON_PATH_TRANSLATION, TENDON_INTERP_CUBICSPLINE, 3, 2,
                                       times, values);
    /* the same track with different junk in k0.in_tangent and k1.out_tangent */
    float junk[18];
    memcpy(junk, values, sizeof junk);
    junk[0] = -77, junk[1] = 1e6f, junk[15] = 3, junk[17] = -1e3f;
    tendon_clip *clip2 = one_track_clip(TENDON_PATH_TRANSLATION, TENDON_INTERP_CUBICSPLINE, 3, 2,
                                        times, junk);
    json_t *st = json_object_get(in, "sample_times");
    json_t *want = json_object_get(json_object_get(c, "expected"), "values");
    size_t i;
    json_t *tv;
    json_array_foreach(st, i, tv)
    {
        const double t = num(tv);
        const char *key[] = {"0.5", "1.0", "1.5", "1.999", "2.0"};
        json_t *w = json_object_get(want, key[i]);
        float got[3], got2[3];
        sample_value(clip, t, got);
        sample_value(clip2, t, got2);
        for (int e = 0; e < 3; ++e) {
            ck_assert_msg(fabs(got[e] - num(json_array_get(w, (size_t)e))) <= tol,
                          "t=%g component %d: got %.9g, expected %.9g", t, e, (double)got[e],
                          num(json_array_get(w, (size_t)e)));
            ck_assert_msg(same_float(got[e], got2[e]), "t=%g: junk tangents changed the value", t);
        }
        if (t == 2.0)
            for (int e = 0; e < 3; ++e)
                ck_assert_msg(got[e] == values[12 + e], "at t_k1 the value is v_k1 exactly");
    }
    tendon_clip_destroy(clip);
    tendon_clip_destroy(clip2);
    json_decref(c);
}
END_TEST

START_TEST(anim_bug_12_cubicspline_quaternion_normalise)
{
    json_t *c = bug_case("anim-bug-12-cubicspline-quaternion-normalise");
    json_t *in = json_object_get(c, "input");
    const double tol = num(json_object_get(c, "tolerance"));
    float times[2], values[24];
    json_t *trip = json_object_get(in, "output_triplets");
    for (int k = 0; k < 2; ++k) {
        times[k] = (float)num(json_array_get(json_object_get(in, "times"), (size_t)k));
        json_t *tk = json_array_get(trip, (size_t)k);
        const char *slot[3] = {"in_tangent", "value_xyzw", "out_tangent"};
        for (int s = 0; s < 3; ++s)
            for (int e = 0; e < 4; ++e)
                values[12 * k + 4 * s + e] =
                    (float)num(json_array_get(json_object_get(tk, slot[s]), (size_t)e));
    }
    tendon_clip *clip = one_track_clip(TENDON_PATH_ROTATION, TENDON_INTERP_CUBICSPLINE, 4, 2,
                                       times, values);
    tendon_pose pose;
    ck_assert_int_eq(tendon_pose_create(1, &pose), TENDON_OK);
    ck_assert_int_eq(tendon_clip_sample(clip, num(json_object_get(in, "sample_time")), &pose),
                     TENDON_OK);
    json_t *q = json_object_get(json_object_get(c, "expected"), "q_xyzw");
    double len2 = 0;
    for (int e = 0; e < 4; ++e) {
        ck_assert_msg(fabs(pose.rotation[e] - num(json_array_get(q, (size_t)e))) <= tol,
                      "component %d: got %.9g, expected %.9g", e, (double)pose.rotation[e],
                      num(json_array_get(q, (size_t)e)));
        len2 += (double)pose.rotation[e] * pose.rotation[e];
    }
    ck_assert_msg(fabs(sqrt(len2) - 1.0) <= tol, "|q| = %.9g, not 1", sqrt(len2));
    tendon_pose_destroy(&pose);
    tendon_clip_destroy(clip);
    json_decref(c);
}
END_TEST

START_TEST(anim_bug_13_step_value_at_key_time)
{
    json_t *c = bug_case("anim-bug-13-step-value-at-key-time");
    json_t *in = json_object_get(c, "input");
    float times[3], values[3];
    for (int k = 0; k < 3; ++k) {
        times[k] = (float)num(json_array_get(json_object_get(in, "times"), (size_t)k));
        values[k] = (float)num(json_array_get(json_object_get(in, "values"), (size_t)k));
    }
    /* as a weights track (width 1) and as translation.x */
    tendon_clip *clip = one_track_clip(TENDON_PATH_WEIGHTS, TENDON_INTERP_STEP, 1, 3, times, values);
    json_t *want = json_object_get(json_object_get(c, "expected"), "values");
    const char *keys[] = {"0.25", "0.5", "0.75", "1.0", "1.5", "0.5"};
    size_t i;
    json_t *tv;
    json_array_foreach(json_object_get(in, "sample_times"), i, tv)
    {
        float got;
        sample_value(clip, num(tv), &got);
        const double w = num(json_object_get(want, keys[i]));
        ck_assert_msg((double)got == w, "t=%g: got %.9g, expected exactly %.9g", num(tv),
                      (double)got, w);
    }
    /* 30/60 computed as a frame time is exactly 0.5 */
    float got;
    sample_value(clip, 30.0 / 60.0, &got);
    ck_assert(got == 0.5f);
    tendon_clip_destroy(clip);
    json_decref(c);
}
END_TEST

START_TEST(anim_bug_14_clamp_before_first_key)
{
    json_t *c = bug_case("anim-bug-14-clamp-before-first-key");
    json_t *in = json_object_get(c, "input");
    const double tol = num(json_object_get(c, "tolerance"));
    float times[2], values[6];
    for (int k = 0; k < 2; ++k) {
        times[k] = (float)num(json_array_get(json_object_get(in, "times"), (size_t)k));
        for (int e = 0; e < 3; ++e)
            values[3 * k + e] = (float)num(
                json_array_get(json_array_get(json_object_get(in, "values"), (size_t)k), (size_t)e));
    }
    tendon_clip *clip = one_track_clip(TENDON_PATH_SCALE, TENDON_INTERP_LINEAR, 3, 2, times, values);
    tendon_pose pose;
    ck_assert_int_eq(tendon_pose_create(1, &pose), TENDON_OK);
    json_t *want = json_object_get(json_object_get(c, "expected"), "values");
    const char *keys[] = {"0.0", "0.02", "0.03333333507180214", "0.5", "1.0", "2.0"};
    size_t i;
    json_t *tv;
    json_array_foreach(json_object_get(in, "sample_times"), i, tv)
    {
        const double t = num(tv);
        ck_assert_int_eq(tendon_clip_sample(clip, t, &pose), TENDON_OK);
        json_t *w = json_object_get(want, keys[i]);
        for (int e = 0; e < 3; ++e) {
            const double we = num(json_array_get(w, (size_t)e));
            ck_assert_msg(fabs(pose.scale[e] - we) <= tol, "t=%g: got %.9g, expected %.9g", t,
                          (double)pose.scale[e], we);
            if (t <= times[0])
                ck_assert_msg(pose.scale[e] == values[e], "before the first key: exactly key 0");
            if (t >= times[1])
                ck_assert_msg(pose.scale[e] == values[3 + e], "after the last key: exactly it");
        }
    }
    /* continuous across t_0: just after it the value is within a float ulp of 2 */
    ck_assert_int_eq(tendon_clip_sample(clip, (double)times[0] + 1e-12, &pose), TENDON_OK);
    ck_assert(fabs(pose.scale[0] - 2.0) < 1e-6);
    tendon_pose_destroy(&pose);
    tendon_clip_destroy(clip);
    json_decref(c);
}
END_TEST

/* ---- hand-computed values --------------------------------------------------------------------- */

START_TEST(test_linear_hand)
{
    const float times[3] = {0.0f, 0.5f, 2.0f};
    const float tv[9] = {0, 0, 0, 1, 2, -4, 4, 2, 0};
    tendon_clip *clip = one_track_clip(TENDON_PATH_TRANSLATION, TENDON_INTERP_LINEAR, 3, 3, times, tv);
    float v[3];
    sample_value(clip, 0.25, v);
    ck_assert(v[0] == 0.5f && v[1] == 1.0f && v[2] == -2.0f);
    sample_value(clip, 1.25, v); /* u = 0.5 on [0.5, 2] */
    ck_assert(v[0] == 2.5f && v[1] == 2.0f && v[2] == -2.0f);
    sample_value(clip, 0.5, v); /* on a key: that key */
    ck_assert(v[0] == 1.0f && v[1] == 2.0f && v[2] == -4.0f);
    /* u = 0.1/1.5 in double, lerp in double, rounded once */
    sample_value(clip, 0.6, v);
    const double u = (0.6 - 0.5) / 1.5;
    ck_assert(v[0] == (float)(1.0 + (4.0 - 1.0) * u));
    ck_assert(v[2] == (float)(-4.0 + (0.0 - -4.0) * u));
    ck_assert_double_eq(tendon_clip_duration(clip), 2.0);
    tendon_clip_destroy(clip);
}
END_TEST

/* The search compares float keys with a double time: a double just below a key is before it. */
START_TEST(test_step_boundaries)
{
    const float times[5] = {-1.0f, -0.5f, 0.0f, 0.5f, 3.0f};
    const float v[5] = {10, 11, 12, 13, 14};
    tendon_clip *clip = one_track_clip(TENDON_PATH_WEIGHTS, TENDON_INTERP_STEP, 1, 5, times, v);
    const struct {
        double t;
        float want;
    } cases[] = {
        {nextafter(0.5, 0.0), 12},  {0.5, 13},   {nextafter(0.5, 1.0), 13},
        {nextafter(-0.5, -1.0), 10}, {-0.5, 11},  {nextafter(-0.5, 0.0), 11},
        {-1e-300, 11},              {-0.0, 12},  {0.0, 12},
        {1e-300, 12},               {nextafter(3.0, 0.0), 13}, {3.0, 14},
        {(double)nextafterf(0.5f, 1.0f) - 1e-17, 13}, {nextafter(-1.0, 0.0), 10},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        float got;
        sample_value(clip, cases[i].t, &got);
        ck_assert_msg(got == cases[i].want, "t=%.17g: got key value %g, expected %g", cases[i].t,
                      (double)got, (double)cases[i].want);
    }
    tendon_clip_destroy(clip);
}
END_TEST

/*
 * The key found, against a linear scan (the largest k with t_k ≤ t, clamped), through a STEP
 * track whose key values are their indices: uniform keys (where the sampler's first guess hits),
 * jittered, random and clustered spacings (where it misses and searches), 1 to 100 keys, at
 * random times, on every key and one double either side of it.
 */
START_TEST(test_key_search_oracle)
{
    test_rng r;
    rng_seed(&r, 0x5ea4c4);
    float times[100], vals[100];
    for (int trial = 0; trial < 400; ++trial) {
        const size_t n = 1 + (size_t)(rng_unit(&r) * 100);
        const int kind = trial % 4;
        double at = rng_range(&r, -2, 2);
        for (size_t k = 0; k < n; ++k) {
            times[k] = (float)at;
            vals[k] = (float)k;
            const double step = kind == 0 ? 1.0 / 30.0
                                : kind == 1 ? (1.0 + rng_range(&r, -0.4, 0.4)) / 30.0
                                : kind == 2 ? rng_range(&r, 1e-3, 0.5)
                                            : (k % 10 == 0 ? 1.0 : 1e-3);
            at = (double)times[k] + step;
            if ((float)at <= times[k])
                at = (double)nextafterf(times[k], INFINITY);
        }
        tendon_clip *clip =
            one_track_clip(TENDON_PATH_WEIGHTS, TENDON_INTERP_STEP, 1, n, times, vals);
        for (size_t q = 0; q < 3 * n + 20; ++q) {
            double t;
            if (q < 3 * n) {
                const double key = (double)times[q / 3];
                t = q % 3 == 0 ? key : q % 3 == 1 ? nextafter(key, -INFINITY) : nextafter(key, INFINITY);
            } else {
                t = rng_range(&r, (double)times[0] - 0.5, (double)times[n - 1] + 0.5);
            }
            size_t want = 0;
            for (size_t k = 0; k < n; ++k)
                if ((double)times[k] <= t)
                    want = k;
            float got;
            sample_value(clip, t, &got);
            ck_assert_msg(got == (float)want, "%zu keys (kind %d), t=%.17g: key %g, expected %zu", n,
                          kind, t, (double)got, want);
        }
        tendon_clip_destroy(clip);
    }
}
END_TEST

START_TEST(test_linear_rotation_is_blend_slerp)
{
    /* LINEAR rotation is tendon_quat_slerp of the bracketing keys, with u in double */
    test_rng r;
    rng_seed(&r, 0x5eed11);
    float times[6], q[24];
    for (int k = 0; k < 6; ++k) {
        times[k] = (float)(0.1 * k + 0.05);
        rng_unit_quat(&r, q + 4 * k);
    }
    tendon_clip *clip = one_track_clip(TENDON_PATH_ROTATION, TENDON_INTERP_LINEAR, 4, 6, times, q);
    for (int i = 0; i < 200; ++i) {
        const double t = rng_range(&r, 0.06, 0.54);
        int k = 0;
        while (k + 1 < 5 && (double)times[k + 1] <= t)
            ++k;
        const double u = (t - (double)times[k]) / ((double)times[k + 1] - (double)times[k]);
        float want[4], got[4];
        ck_assert_int_eq(tendon_quat_slerp(q + 4 * k, q + 4 * k + 4, &u, 1, want), TENDON_OK);
        sample_value(clip, t, got);
        ck_assert_msg(first_float_diff(got, want, 4) < 0, "t=%.17g: not the blend slerp", t);
    }
    tendon_clip_destroy(clip);
}
END_TEST

START_TEST(test_untouched_channels_and_nan)
{
    const float times[2] = {0, 1};
    const float tv[6] = {0, 0, 0, 2, 2, 2};
    tendon_track_desc t = {1, TENDON_PATH_TRANSLATION, TENDON_INTERP_LINEAR, 3, 2, times, tv};
    tendon_clip_desc d = {3, 1, &t};
    tendon_clip *clip;
    ck_assert_int_eq(tendon_clip_create(&d, &clip), TENDON_OK);
    tendon_pose pose;
    ck_assert_int_eq(tendon_pose_create(3, &pose), TENDON_OK);
    for (size_t i = 0; i < 9; ++i)
        pose.translation[i] = pose.scale[i] = 7.0f + (float)i;
    for (size_t i = 0; i < 12; ++i)
        pose.rotation[i] = -3.0f;
    ck_assert_int_eq(tendon_clip_sample(clip, 0.5, &pose), TENDON_OK);
    for (size_t i = 0; i < 9; ++i) {
        if (i >= 3 && i < 6)
            ck_assert(pose.translation[i] == 1.0f);
        else
            ck_assert(pose.translation[i] == 7.0f + (float)i);
        ck_assert(pose.scale[i] == 7.0f + (float)i);
    }
    for (size_t i = 0; i < 12; ++i)
        ck_assert(pose.rotation[i] == -3.0f);
    /* NaN refused, nothing written; ±∞ clamp */
    ck_assert_int_eq(tendon_clip_sample(clip, NAN, &pose), TENDON_ERR_VALUE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "NaN"));
    ck_assert(pose.translation[3] == 1.0f);
    ck_assert_int_eq(tendon_clip_sample(clip, -INFINITY, &pose), TENDON_OK);
    ck_assert(pose.translation[3] == 0.0f);
    ck_assert_int_eq(tendon_clip_sample(clip, INFINITY, &pose), TENDON_OK);
    ck_assert(pose.translation[3] == 2.0f);
    tendon_pose_destroy(&pose);
    /* wrong pose size */
    ck_assert_int_eq(tendon_pose_create(2, &pose), TENDON_OK);
    ck_assert_int_eq(tendon_clip_sample(clip, 0.5, &pose), TENDON_ERR_COUNT);
    tendon_pose_destroy(&pose);
    tendon_clip_destroy(clip);
}
END_TEST

START_TEST(test_create_errors)
{
    tendon_clip *clip = (tendon_clip *)1;
    const float times[3] = {0, 1, 1};
    const float v[12] = {0};
    tendon_track_desc t = {0, TENDON_PATH_TRANSLATION, TENDON_INTERP_LINEAR, 3, 3, times, v};
    tendon_clip_desc d = {1, 1, &t};
    ck_assert_int_eq(tendon_clip_create(&d, &clip), TENDON_ERR_VALUE);
    ck_assert_ptr_null(clip);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "strictly increasing"));
    t.key_count = 2;
    t.joint = 1;
    ck_assert_int_eq(tendon_clip_create(&d, &clip), TENDON_ERR_RANGE);
    t.joint = 0;
    t.width = 4;
    ck_assert_int_eq(tendon_clip_create(&d, &clip), TENDON_ERR_VALUE);
    t.width = 3;
    t.key_count = 0;
    ck_assert_int_eq(tendon_clip_create(&d, &clip), TENDON_ERR_VALUE);
    t.key_count = 2;
    const float bad[2] = {0, INFINITY};
    t.times = bad;
    ck_assert_int_eq(tendon_clip_create(&d, &clip), TENDON_ERR_VALUE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "finite"));
    t.times = times;
    /* a track's times or values not aligned to float: refused, naming the track */
    _Alignas(16) unsigned char raw[64];
    memcpy(raw + 2, times, 2 * sizeof(float));
    t.times = (const float *)(const void *)(raw + 2);
    ck_assert_int_eq(tendon_clip_create(&d, &clip), TENDON_ERR_VALUE);
    ck_assert_ptr_null(clip);
    ck_assert_msg(strstr(tendon_error_message(), "track 0 (translation): times at ") &&
                      strstr(tendon_error_message(), "not aligned"),
                  "%s", tendon_error_message());
    t.times = times;
    memcpy(raw + 17, v, 6 * sizeof(float));
    t.values = (const float *)(const void *)(raw + 17);
    ck_assert_int_eq(tendon_clip_create(&d, &clip), TENDON_ERR_VALUE);
    ck_assert_msg(strstr(tendon_error_message(), "track 0 (translation): values at "), "%s",
                  tendon_error_message());
    t.values = v;
    /* a path or interpolation outside its enum, above or (as a signed value) below: refused by
       name — never an index into the per-path or per-kind arrays (compared as unsigned, so a
       compiler with signed enums refuses −1 too) */
    const int bad_enum[3] = {-1, 5, 1000};
    for (int b = 0; b < 3; ++b) {
        t.path = (tendon_track_path)bad_enum[b];
        ck_assert_int_eq(tendon_clip_create(&d, &clip), TENDON_ERR_VALUE);
        ck_assert_ptr_nonnull(strstr(tendon_error_message(), "is not a tendon_track_path"));
        t.path = TENDON_PATH_TRANSLATION;
        t.interpolation = (tendon_interpolation)bad_enum[b];
        ck_assert_int_eq(tendon_clip_create(&d, &clip), TENDON_ERR_VALUE);
        ck_assert_ptr_nonnull(strstr(tendon_error_message(), "is not a tendon_interpolation"));
        t.interpolation = TENDON_INTERP_LINEAR;
    }
    tendon_track_desc two[2] = {t, t};
    tendon_clip_desc d2 = {1, 2, two};
    ck_assert_int_eq(tendon_clip_create(&d2, &clip), TENDON_ERR_VALUE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "both drive"));
    ck_assert_int_eq(tendon_clip_create(NULL, &clip), TENDON_ERR_NULL);
    /* an empty clip samples to nothing */
    tendon_clip_desc e = {2, 0, NULL};
    ck_assert_int_eq(tendon_clip_create(&e, &clip), TENDON_OK);
    ck_assert_double_eq(tendon_clip_duration(clip), 0.0);
    tendon_pose pose;
    ck_assert_int_eq(tendon_pose_create(2, &pose), TENDON_OK);
    ck_assert_int_eq(tendon_clip_sample(clip, 1.0, &pose), TENDON_OK);
    tendon_pose_destroy(&pose);
    tendon_clip_destroy(clip);
}
END_TEST

/* ---- every ISA against the scalar table -------------------------------------------------------- */

typedef struct rand_clip {
    tendon_clip *clip;
    size_t joints;
    float *times[81];       /* owned (NULL where the track shares another's) */
    const float *tptr[81];  /* the times each track uses */
    float *values[81];
    size_t keys[81];
} rand_clip;

/* A clip of n tracks: mixed paths and interpolations; some tracks share a timeline. */
static void make_rand_clip(test_rng *r, size_t n, rand_clip *rc)
{
    tendon_track_desc tracks[81];
    rc->joints = n / 3 + 1;
    float *shared = NULL;
    size_t shared_keys = 0;
    for (size_t i = 0; i < n; ++i) {
        tendon_track_desc *t = &tracks[i];
        const size_t path = i % 3;
        t->joint = (uint32_t)(i / 3);
        t->path = (tendon_track_path)path;
        const int pick = (int)(rng_unit(r) * 10);
        t->interpolation = pick < 6 ? TENDON_INTERP_LINEAR
                           : pick < 8 ? TENDON_INTERP_STEP
                                      : TENDON_INTERP_CUBICSPLINE;
        t->width = path == 1 ? 4 : 3;
        if (shared && rng_unit(r) < 0.5) {
            t->key_count = shared_keys;
            t->times = shared;
            rc->times[i] = NULL;
        } else {
            const size_t keys = 1 + (size_t)(rng_unit(r) * 40);
            float *tm = malloc(keys * sizeof(float));
            double at = rng_range(r, -0.5, 0.5);
            for (size_t k = 0; k < keys; ++k) {
                tm[k] = (float)at;
                at += rng_range(r, 0.01, 0.2);
            }
            t->key_count = keys;
            t->times = tm;
            rc->times[i] = tm;
            if (!shared) {
                shared = tm;
                shared_keys = keys;
            }
        }
        const size_t per = t->width * (t->interpolation == TENDON_INTERP_CUBICSPLINE ? 3 : 1);
        float *v = malloc(t->key_count * per * sizeof(float));
        for (size_t k = 0; k < t->key_count * per; k += t->width) {
            if (path == 1 && rng_unit(r) < 0.9)
                rng_unit_quat(r, v + k);
            else
                for (size_t e = 0; e < t->width; ++e)
                    v[k + e] = (float)rng_range(r, -3, 3);
        }
        t->values = v;
        rc->tptr[i] = t->times;
        rc->values[i] = v;
        rc->keys[i] = t->key_count;
    }
    /* and, for n odd, a morph-weights track 1..68 wide (past the gathers' chunk sizes), with
       its own times: LINEAR, STEP or CUBICSPLINE in turn */
    size_t total = n;
    rc->times[n] = NULL;
    rc->values[n] = NULL;
    if (n % 2 == 1) {
        tendon_track_desc *t = &tracks[n];
        const size_t keys = 2 + (size_t)(rng_unit(r) * 6);
        float *tm = malloc(keys * sizeof(float));
        for (size_t k = 0; k < keys; ++k)
            tm[k] = (float)(0.25 * (double)k);
        t->joint = 0;
        t->path = TENDON_PATH_WEIGHTS;
        t->interpolation = (tendon_interpolation)((n / 2) % 3);
        t->width = 1 + n;
        t->key_count = keys;
        t->times = tm;
        const size_t per = t->width * (t->interpolation == TENDON_INTERP_CUBICSPLINE ? 3 : 1);
        float *v = malloc(keys * per * sizeof(float));
        for (size_t k = 0; k < keys * per; ++k)
            v[k] = (float)rng_range(r, -1, 1);
        t->values = v;
        rc->times[n] = tm;
        rc->tptr[n] = tm;
        rc->values[n] = v;
        rc->keys[n] = keys;
        total = n + 1;
    }
    tendon_clip_desc d = {rc->joints, total, tracks};
    ck_assert_int_eq(tendon_clip_create(&d, &rc->clip), TENDON_OK);
}

static void free_rand_clip(rand_clip *rc, size_t n)
{
    for (size_t i = 0; i <= n; ++i) {
        free(rc->times[i]);
        free(rc->values[i]);
    }
    tendon_clip_destroy(rc->clip);
}

START_TEST(test_isa_bitwise)
{
    const tendon_kernels *kt = isa_table_or_skip(_i);
    if (!kt)
        return;
    const tendon_kernels *ks = tendon_kernels_for(TENDON_ISA_SCALAR);
    test_rng r;
    rng_seed(&r, 0xc11b + (uint64_t)_i);
    for (size_t n = 0; n <= 67; ++n) {
        rand_clip rc;
        make_rand_clip(&r, n, &rc);
        const size_t vc = tendon_clip_value_count(rc.clip);
        float *a = malloc((vc + 1) * sizeof(float)), *b = malloc((vc + 1) * sizeof(float));
        tendon_pose pa, pb;
        ck_assert_int_eq(tendon_pose_create(rc.joints, &pa), TENDON_OK);
        ck_assert_int_eq(tendon_pose_create(rc.joints, &pb), TENDON_OK);
        for (int s = 0; s < 24; ++s) {
            double t;
            if (s == 0)
                t = -INFINITY;
            else if (s == 1)
                t = INFINITY;
            else
                t = rng_range(&r, -1.0, 9.0);
            if (s >= 2 && s < 6 && n > 0) {
                const size_t i = (size_t)(rng_unit(&r) * (double)n);
                size_t k = (size_t)(rng_unit(&r) * (double)rc.keys[i]);
                t = (double)rc.tptr[i][k];
            }
            memset(a, 0x55, vc * sizeof(float));
            memset(b, 0x55, vc * sizeof(float));
            tendon_clip_sample_table(ks, rc.clip, t, NULL, a);
            tendon_clip_sample_table(kt, rc.clip, t, NULL, b);
            const long d = first_float_diff(a, b, vc);
            ck_assert_msg(d < 0, "%s: %zu tracks, t=%.17g: value %ld differs (%08x vs %08x)",
                          tendon_isa_name((tendon_isa)_i), n, t, d, float_bits(a[d]),
                          float_bits(b[d]));
            tendon_pose_set_identity(&pa);
            tendon_pose_set_identity(&pb);
            tendon_clip_sample_table(ks, rc.clip, t, &pa, NULL);
            tendon_clip_sample_table(kt, rc.clip, t, &pb, NULL);
            ck_assert(first_float_diff(pa.translation, pb.translation, 3 * rc.joints) < 0);
            ck_assert(first_float_diff(pa.rotation, pb.rotation, 4 * rc.joints) < 0);
            ck_assert(first_float_diff(pa.scale, pb.scale, 3 * rc.joints) < 0);
        }
        tendon_pose_destroy(&pa);
        tendon_pose_destroy(&pb);
        free(a);
        free(b);
        free_rand_clip(&rc, n);
    }
}
END_TEST

START_TEST(test_lerp_kernel_bitwise)
{
    const tendon_kernels *kt = isa_table_or_skip(_i);
    if (!kt)
        return;
    const tendon_kernels *ks = tendon_kernels_for(TENDON_ISA_SCALAR);
    test_rng r;
    rng_seed(&r, 0x1e4b + (uint64_t)_i);
    float a[70], b[70], o1[70], o2[70];
    double u[70];
    for (size_t n = 0; n <= 67; ++n) {
        for (size_t i = 0; i < n; ++i) {
            a[i] = (float)rng_range(&r, -100, 100);
            b[i] = (float)rng_range(&r, -100, 100);
            u[i] = rng_unit(&r);
        }
        ks->clip_lerp(a, b, u, n, o1);
        kt->clip_lerp(a, b, u, n, o2);
        ck_assert(first_float_diff(o1, o2, n) < 0);
        for (size_t i = 0; i < n; ++i)
            ck_assert(o1[i] == (float)((double)a[i] + ((double)b[i] - (double)a[i]) * u[i]));
    }
}
END_TEST

/* The cursor changes nothing but speed: any cursor contents give tendon_clip_sample's bits. */
START_TEST(test_cursor_same_bits)
{
    test_rng r;
    rng_seed(&r, 0xc0de);
    for (size_t n = 0; n <= 67; n += 3) {
        rand_clip rc;
        make_rand_clip(&r, n, &rc);
        const size_t tl = tendon_clip_timeline_count(rc.clip);
        ck_assert(tl <= n);
        uint32_t *cur = calloc(tl + 1, sizeof *cur);
        tendon_pose pa, pb;
        ck_assert_int_eq(tendon_pose_create(rc.joints, &pa), TENDON_OK);
        ck_assert_int_eq(tendon_pose_create(rc.joints, &pb), TENDON_OK);
        double t = -0.7;
        for (int f = 0; f < 400; ++f) {
            if (f % 97 == 50)
                t -= rng_range(&r, 0.0, 3.0); /* a jump back */
            else if (f % 89 == 7)
                for (size_t i = 0; i < tl; ++i)
                    cur[i] = (uint32_t)rng_u64(&r); /* garbage */
            else
                t += rng_range(&r, 0.0, 0.05);
            ck_assert_int_eq(tendon_clip_sample(rc.clip, t, &pa), TENDON_OK);
            ck_assert_int_eq(tendon_clip_sample_cursor(rc.clip, t, cur, tl, &pb), TENDON_OK);
            ck_assert_msg(first_float_diff(pa.translation, pb.translation, 3 * rc.joints) < 0 &&
                              first_float_diff(pa.rotation, pb.rotation, 4 * rc.joints) < 0 &&
                              first_float_diff(pa.scale, pb.scale, 3 * rc.joints) < 0,
                          "%zu tracks, frame %d, t=%.17g: the cursor changed the result", n, f, t);
        }
        if (tl > 0) {
            ck_assert_int_eq(tendon_clip_sample_cursor(rc.clip, 0.5, cur, tl - 1, &pb),
                             TENDON_ERR_COUNT);
            ck_assert_int_eq(tendon_clip_sample_cursor(rc.clip, 0.5, NULL, tl, &pb), TENDON_ERR_NULL);
            /* a cursor not aligned to uint32_t: refused, not read */
            unsigned char *raw = malloc(4 * tl + 8);
            ck_assert_ptr_nonnull(raw);
            ck_assert_int_eq(tendon_clip_sample_cursor(rc.clip, 0.5,
                                                       (uint32_t *)(void *)(raw + 1), tl, &pb),
                             TENDON_ERR_VALUE);
            ck_assert_msg(strstr(tendon_error_message(), "cursor at "), "%s",
                          tendon_error_message());
            free(raw);
        }
        free(cur);
        tendon_pose_destroy(&pa);
        tendon_pose_destroy(&pb);
        free_rand_clip(&rc, n);
    }
}
END_TEST

START_TEST(test_hermite_kernel_bitwise)
{
    const tendon_kernels *kt = isa_table_or_skip(_i);
    if (!kt)
        return;
    const tendon_kernels *ks = tendon_kernels_for(TENDON_ISA_SCALAR);
    test_rng r;
    rng_seed(&r, 0x4e41 + (uint64_t)_i);
    float v0[70], b0[70], v1[70], a1[70];
    double h[4 * 70], o1[70], o2[70];
    for (size_t n = 0; n <= 67; ++n) {
        for (size_t i = 0; i < n; ++i) {
            v0[i] = (float)rng_range(&r, -10, 10), b0[i] = (float)rng_range(&r, -10, 10);
            v1[i] = (float)rng_range(&r, -10, 10), a1[i] = (float)rng_range(&r, -10, 10);
            for (size_t j = 0; j < 4; ++j)
                h[j * n + i] = rng_range(&r, -2, 2);
        }
        ks->clip_hermite(v0, b0, v1, a1, h, n, o1);
        kt->clip_hermite(v0, b0, v1, a1, h, n, o2);
        for (size_t i = 0; i < n; ++i) {
            ck_assert_msg(memcmp(&o1[i], &o2[i], sizeof(double)) == 0, "%s n=%zu i=%zu",
                          tendon_isa_name((tendon_isa)_i), n, i);
            /* the written order, in double */
            const double want = ((h[i] * v0[i] + h[n + i] * b0[i]) + h[2 * n + i] * v1[i]) +
                                h[3 * n + i] * a1[i];
            ck_assert(o1[i] == want);
        }
    }
}
END_TEST

/* ---- root motion -------------------------------------------------------------------------------- */

/* A 1-second walking loop: the root goes from z = 0 to z = 2 (with a bob in y) and turns 90°
   about y over the loop; a second joint is unanimated. */
static tendon_clip *walk_clip(int turn)
{
    static const float times[3] = {0.0f, 0.5f, 1.0f};
    static const float tv[9] = {0, 0, 0, 0, 0.1f, 1, 0, 0, 2};
    static float rv[12];
    const double h = 0.38268343236508978, c = 0.92387953251128674; /* 45° half-angle: sin, cos */
    const double h2 = 0.70710678118654757;
    const float q0[4] = {0, 0, 0, 1}, q1[4] = {0, (float)h, 0, (float)c},
                q2[4] = {0, (float)h2, 0, (float)h2};
    memcpy(rv, q0, 16);
    memcpy(rv + 4, turn ? q1 : q0, 16);
    memcpy(rv + 8, turn ? q2 : q0, 16);
    tendon_track_desc t[2] = {
        {0, TENDON_PATH_TRANSLATION, TENDON_INTERP_LINEAR, 3, 3, times, tv},
        {0, TENDON_PATH_ROTATION, TENDON_INTERP_LINEAR, 4, 3, times, rv},
    };
    tendon_clip_desc d = {2, 2, t};
    tendon_clip *clip;
    ck_assert_int_eq(tendon_clip_create(&d, &clip), TENDON_OK);
    return clip;
}

START_TEST(test_root_motion_forward_across_wrap)
{
    tendon_clip *clip = walk_clip(0);
    tendon_root_motion m;
    /* 0.9 → 1.1 crosses the wrap: 0.1 s of walking at 2 m/s each side = 0.4 m forward */
    ck_assert_int_eq(tendon_root_motion_extract(clip, 0, 0.9, 1.1, &m), TENDON_OK);
    ck_assert_msg(fabs(m.translation[2] - 0.4) < 1e-6, "stride across a wrap: z = %.9g, expected 0.4",
                  (double)m.translation[2]);
    ck_assert(m.translation[2] > 0);
    /* sampling and subtracting would say T(0.1) − T(0.9) = 0.2 − 1.8 = −1.6: backwards */
    /* 3.5 whole loops: 7 m */
    ck_assert_int_eq(tendon_root_motion_extract(clip, 0, 0.25, 3.75, &m), TENDON_OK);
    ck_assert(fabs(m.translation[2] - 7.0) < 1e-5);
    ck_assert(fabs(m.translation[1]) < 1e-6); /* the bob returns: 0.25 and 0.75 are at equal height */
    /* a huge number of loops is O(log n) and still forward */
    ck_assert_int_eq(tendon_root_motion_extract(clip, 0, 0.0, 1e6, &m), TENDON_OK);
    ck_assert(fabs(m.translation[2] - 2e6) < 1.0);
    /* backwards: the inverse */
    ck_assert_int_eq(tendon_root_motion_extract(clip, 0, 1.1, 0.9, &m), TENDON_OK);
    ck_assert(fabs(m.translation[2] + 0.4) < 1e-6);
    /* the root turns 90° per loop: two loops from 0 = 180° about y; the second stride is
       along x after the first turn: (2, 0, 2) rotated… from frame 0: z 2, then 2 m along +x */
    tendon_clip *turn = walk_clip(1);
    ck_assert_int_eq(tendon_root_motion_extract(turn, 0, 0.0, 2.0, &m), TENDON_OK);
    ck_assert_msg(fabs(m.translation[0] - 2.0) < 1e-5 && fabs(m.translation[2] - 2.0) < 1e-5,
                  "got (%g, %g, %g)", (double)m.translation[0], (double)m.translation[1],
                  (double)m.translation[2]);
    ck_assert(fabs(fabs(m.rotation[1]) - 1.0) < 1e-6); /* 180° about y */
    ck_assert_int_eq(tendon_root_motion_extract(clip, 0, NAN, 1, &m), TENDON_ERR_VALUE);
    ck_assert_int_eq(tendon_root_motion_extract(clip, 5, 0, 1, &m), TENDON_ERR_RANGE);
    tendon_clip_destroy(turn);
    tendon_clip_destroy(clip);
}
END_TEST

/* A 0.5 s loop whose root walks 1 m along z. */
static tendon_clip *half_second_clip(void)
{
    static const float times[2] = {0.0f, 0.5f};
    static const float tv[6] = {0, 0, 0, 0, 0, 1};
    return one_track_clip(TENDON_PATH_TRANSLATION, TENDON_INTERP_LINEAR, 3, 2, times, tv);
}

/* The out of a refused call is untouched. */
static void expect_far_time_refused(const tendon_clip *clip, double from, double to,
                                    const char *names)
{
    tendon_root_motion m;
    memset(&m, 0x5A, sizeof m);
    const tendon_root_motion before = m;
    ck_assert_int_eq(tendon_root_motion_extract(clip, 0, from, to, &m), TENDON_ERR_VALUE);
    const char *msg = tendon_error_message();
    ck_assert_msg(strstr(msg, names) && strstr(msg, "TENDON_ROOT_MOTION_MAX_LOOPS"), "%s", msg);
    ck_assert(memcmp(&m, &before, sizeof m) == 0);
}

/*
 * Issue 14: t / duration overflowed to +∞ (to_sec = DBL_MAX on a 0.5 s clip; −1e308 → 1e308 on
 * any clip shorter than 2 s), and halving an infinite loop count never ends. Times 2^53 loops
 * or more from 0 have no phase and are refused at once; just inside, the answer is finite (and
 * O(log n): ~53 squarings — a hang would end the test at the suite's timeout; speed is the
 * benchmarks' business, not a test's).
 */
START_TEST(test_root_motion_far_times)
{
    tendon_clip *half = half_second_clip(), *walk = walk_clip(0);
    ck_assert(tendon_clip_duration(half) == 0.5 && tendon_clip_duration(walk) == 1.0);
    expect_far_time_refused(half, 0.0, DBL_MAX, "to_sec");
    expect_far_time_refused(half, -1e308, 1e308, "from_sec");
    expect_far_time_refused(walk, -1e308, 1e308, "from_sec");
    expect_far_time_refused(walk, DBL_MAX, 0.0, "from_sec"); /* backwards: the same limit */
    expect_far_time_refused(walk, 0.0, -DBL_MAX, "to_sec");
    /* the boundary: exactly 2^53 loops is refused, 2^53 − 1 accepted */
    const double limit = TENDON_ROOT_MOTION_MAX_LOOPS;
    ck_assert(limit == 0x1p53);
    expect_far_time_refused(half, 0.0, 0.5 * limit, "to_sec");
    expect_far_time_refused(half, -0.5 * limit, 0.0, "from_sec");
    const double inside = 0.5 * (limit - 1.0); /* exactly 2^53 − 1 loops */
    tendon_root_motion m;
    ck_assert_int_eq(tendon_root_motion_extract(half, 0, 0.0, inside, &m), TENDON_OK);
    ck_assert_msg(isfinite(m.translation[2]) &&
                      fabs((double)m.translation[2] - (limit - 1.0)) <= 1e-6 * limit,
                  "2^53 − 1 loops of 1 m: z = %.9g", (double)m.translation[2]);
    ck_assert(m.translation[0] == 0.0f && m.translation[1] == 0.0f);
    ck_assert_int_eq(tendon_root_motion_extract(half, 0, -inside, inside, &m), TENDON_OK);
    ck_assert(isfinite(m.translation[2]) &&
              fabs((double)m.translation[2] - 2.0 * (limit - 1.0)) <= 2e-6 * limit);
    ck_assert_int_eq(tendon_root_motion_extract(walk, 0, inside, -inside, &m), TENDON_OK);
    ck_assert(isfinite(m.translation[2]) && m.translation[2] < 0.0f);
    tendon_clip_destroy(half);
    tendon_clip_destroy(walk);
}
END_TEST

START_TEST(test_root_motion_moves_once)
{
    /* A character advanced by extracted motion each frame, posed by a stripped sample, has its
       root where the clip puts it (relative to the start) — once, not twice. */
    tendon_clip *clip = walk_clip(0);
    tendon_pose pose;
    ck_assert_int_eq(tendon_pose_create(2, &pose), TENDON_OK);
    double pos[3] = {0, 0, 0};
    const double dt = 1.0 / 60.0;
    double t = 0.0;
    for (int f = 0; f < 150; ++f) { /* 2.5 s: two wraps */
        tendon_root_motion m;
        ck_assert_int_eq(tendon_root_motion_extract(clip, 0, t, t + dt, &m), TENDON_OK);
        for (int c = 0; c < 3; ++c)
            pos[c] += m.translation[c]; /* no rotation in this clip */
        t += dt;
    }
    const double phase = t - floor(t);
    ck_assert_int_eq(tendon_clip_sample(clip, phase, &pose), TENDON_OK);
    const double sampled_z = pose.translation[2];
    ck_assert_int_eq(tendon_root_motion_strip(clip, 0, &pose), TENDON_OK);
    ck_assert(pose.translation[0] == 0 && pose.translation[1] == 0 && pose.translation[2] == 0);
    const double world_z = pos[2] + pose.translation[2];
    ck_assert_msg(fabs(world_z - 2.0 * t) < 1e-4, "world z %.9g after %.4g s, expected %.9g",
                  world_z, t, 2.0 * t);
    /* without strip it would be counted twice (the pose's own travel on top) */
    ck_assert(fabs((pos[2] + sampled_z) - 2.0 * t) > 0.5);
    tendon_pose_destroy(&pose);
    tendon_clip_destroy(clip);
}
END_TEST

/*
 * Tracks whose times are equal share one timeline whatever their pointers (one search, one
 * cursor entry); equal means the same key count and the same float bits (−0 and +0 differ).
 * The samples are the same bits either way.
 */
START_TEST(test_equal_times_share_a_timeline)
{
    enum { J = 9, K = 13 };
    float times[3 * J][K], vals[3 * J][4 * K];
    test_rng r;
    rng_seed(&r, 0x7e1e);
    for (size_t i = 0; i < 3 * J; ++i) {
        for (size_t k = 0; k < K; ++k)
            times[i][k] = (float)k / 12.0f;
        for (size_t k = 0; k < K; ++k) {
            if (i % 3 == 1)
                rng_unit_quat(&r, vals[i] + 4 * k);
            else
                for (int e = 0; e < 3; ++e)
                    vals[i][3 * k + (size_t)e] = (float)rng_range(&r, -2, 2);
        }
    }
    /* a: one times array; b: a copy per track, track 5's first key −0; c: the copies, all +0 */
    tendon_track_desc shared[3 * J], copies[3 * J], signed_zero[3 * J];
    for (size_t i = 0; i < 3 * J; ++i) {
        const tendon_track_desc t = {(uint32_t)(i / 3), (tendon_track_path)(i % 3),
                                     i % 4 == 3 ? TENDON_INTERP_STEP : TENDON_INTERP_LINEAR,
                                     i % 3 == 1 ? 4u : 3u, K, times[0], vals[i]};
        shared[i] = copies[i] = signed_zero[i] = t;
        copies[i].times = times[i];
        signed_zero[i].times = times[i];
    }
    times[5][0] = -0.0f; /* track 5: −0 where the others have +0 */
    tendon_clip_desc d = {J, 3 * J, shared};
    tendon_clip *a, *b, *c;
    ck_assert_int_eq(tendon_clip_create(&d, &a), TENDON_OK);
    d.tracks = copies;
    ck_assert_int_eq(tendon_clip_create(&d, &b), TENDON_OK);
    times[5][0] = 0.0f;
    d.tracks = signed_zero;
    ck_assert_int_eq(tendon_clip_create(&d, &c), TENDON_OK);
    ck_assert_uint_eq(tendon_clip_timeline_count(a), 1);
    ck_assert_uint_eq(tendon_clip_timeline_count(b), 2); /* −0 is not +0: a timeline of its own */
    ck_assert_uint_eq(tendon_clip_timeline_count(c), 1);
    tendon_pose pa, pb;
    ck_assert_int_eq(tendon_pose_create(J, &pa), TENDON_OK);
    ck_assert_int_eq(tendon_pose_create(J, &pb), TENDON_OK);
    uint32_t cur[2] = {0, 0};
    for (int s = 0; s < 100; ++s) {
        const double t = s == 0 ? -0.0 : rng_range(&r, -0.2, 1.2);
        for (int which = 0; which < 2; ++which) {
            tendon_clip *other = which ? c : b;
            ck_assert_int_eq(tendon_clip_sample(a, t, &pa), TENDON_OK);
            ck_assert_int_eq(tendon_clip_sample_cursor(other, t, cur, 2, &pb), TENDON_OK);
            ck_assert(first_float_diff(pa.translation, pb.translation, 3 * J) < 0);
            ck_assert(first_float_diff(pa.rotation, pb.rotation, 4 * J) < 0);
            ck_assert(first_float_diff(pa.scale, pb.scale, 3 * J) < 0);
        }
    }
    tendon_pose_destroy(&pa);
    tendon_pose_destroy(&pb);
    tendon_clip_destroy(a);
    tendon_clip_destroy(b);
    tendon_clip_destroy(c);
}
END_TEST

/*
 * Thousands of tracks: the one-track-per-channel rule and the timeline merge look earlier
 * tracks up in a table that grows as it fills (they scanned every earlier one: 4 s for 80 000
 * tracks). 3000 channels over 7 distinct times (each track its own copy), then 3000 distinct
 * times; each track's samples equal those of a clip holding it alone; a duplicate channel after
 * them names the first track that drove it.
 */
START_TEST(test_many_tracks_merge)
{
    enum { N = 3000 };
    float(*times)[2] = malloc(N * sizeof *times);
    float(*vals)[6] = malloc(N * sizeof *vals);
    tendon_track_desc *tracks = malloc((N + 1) * sizeof *tracks);
    ck_assert(times && vals && tracks);
    for (int distinct = 0; distinct < 2; ++distinct) {
        for (size_t i = 0; i < N; ++i) {
            times[i][0] = 0.0f;
            times[i][1] = distinct ? 1.0f + (float)i / 1024.0f : (float)(1 + i % 7);
            for (int e = 0; e < 6; ++e)
                vals[i][e] = (float)((double)(i * 6 + (size_t)e) / 7.0);
            tracks[i] = (tendon_track_desc){(uint32_t)i, TENDON_PATH_TRANSLATION,
                                            TENDON_INTERP_LINEAR, 3, 2, times[i], vals[i]};
        }
        tendon_clip_desc d = {N, N, tracks};
        tendon_clip *clip;
        ck_assert_int_eq(tendon_clip_create(&d, &clip), TENDON_OK);
        ck_assert_uint_eq(tendon_clip_timeline_count(clip), distinct ? N : 7);
        tendon_pose all, one;
        ck_assert(tendon_pose_create(N, &all) == TENDON_OK);
        ck_assert(tendon_pose_create(N, &one) == TENDON_OK);
        ck_assert(tendon_clip_sample(clip, 0.625, &all) == TENDON_OK);
        for (size_t i = 0; i < N; i += 97) {
            tendon_clip_desc d1 = {N, 1, &tracks[i]};
            tendon_clip *alone;
            ck_assert_int_eq(tendon_clip_create(&d1, &alone), TENDON_OK);
            ck_assert(tendon_clip_sample(alone, 0.625, &one) == TENDON_OK);
            ck_assert_msg(memcmp(all.translation + 3 * i, one.translation + 3 * i,
                                 3 * sizeof(float)) == 0,
                          "track %zu", i);
            tendon_clip_destroy(alone);
        }
        tendon_pose_destroy(&all), tendon_pose_destroy(&one);
        tendon_clip_destroy(clip);
        /* one more track on joint 1234's translation: named with the first */
        tracks[N] = tracks[1234];
        d.track_count = N + 1;
        ck_assert_int_eq(tendon_clip_create(&d, &clip), TENDON_ERR_VALUE);
        ck_assert_msg(strstr(tendon_error_message(),
                             "tracks 1234 and 3000 both drive the translation of joint 1234"),
                      "%s", tendon_error_message());
    }
    free(times), free(vals), free(tracks);
}
END_TEST

/*
 * A cursor inside the pose's arrays: refused. Accepted, joint 0's STEP copy (timeline 0) landed
 * on the cursor and the search of timeline 1 then wrote its entry, 1, over joint 0's y, which
 * the call returned as 1.4e-45 (both tiers).
 */
START_TEST(test_cursor_sharing_the_pose_refused)
{
    static const float ta[2] = {0.0f, 1.0f}, tb[3] = {0.0f, 0.5f, 1.0f};
    static const float va[6] = {0, 0, 0, 1, 1, 1}, vb[9] = {0, 0, 0, 2, 2, 2, 4, 4, 4};
    const tendon_track_desc tracks[2] = {
        {0, TENDON_PATH_TRANSLATION, TENDON_INTERP_STEP, 3, 2, ta, va},
        {1, TENDON_PATH_TRANSLATION, TENDON_INTERP_LINEAR, 3, 3, tb, vb},
    };
    const tendon_clip_desc d = {2, 2, tracks};
    tendon_clip *clip;
    ck_assert_int_eq(tendon_clip_create(&d, &clip), TENDON_OK);
    ck_assert_uint_eq(tendon_clip_timeline_count(clip), 2);
    tendon_pose pose;
    ck_assert_int_eq(tendon_pose_create(2, &pose), TENDON_OK);
    for (int f32 = 0; f32 < 2; ++f32) {
        tendon_status (*const sample)(const tendon_clip *, double, uint32_t *, size_t,
                                      tendon_pose *) =
            f32 ? tendon_clip_sample_cursor_f32 : tendon_clip_sample_cursor;
        float *const arrays[3] = {pose.translation, pose.rotation, pose.scale};
        for (int a = 0; a < 3; ++a) {
            ck_assert_int_eq(tendon_pose_set_identity(&pose), TENDON_OK);
            uint32_t *cursor = (uint32_t *)(void *)arrays[a];
            ck_assert_int_eq(sample(clip, 0.75, cursor, 2, &pose), TENDON_ERR_ALIAS);
            ck_assert_msg(strstr(tendon_error_message(), "cursor overlaps pose."), "%s",
                          tendon_error_message());
            ck_assert_float_eq(pose.translation[1], 0.0f); /* nothing written */
        }
        /* a cursor beside the pose: the clip's values */
        uint32_t cursor[2] = {0, 0};
        ck_assert_int_eq(sample(clip, 0.75, cursor, 2, &pose), TENDON_OK);
        for (int c = 0; c < 3; ++c) {
            ck_assert_float_eq(pose.translation[c], 0.0f);
            ck_assert_float_eq(pose.translation[3 + c], 3.0f);
        }
    }
    tendon_pose_destroy(&pose);
    tendon_clip_destroy(clip);
}
END_TEST

/*
 * The pointers tendon_clip_create and tendon_root_motion_extract read or write as structs must
 * be aligned to their type, as every pointer in tendon (docs/skinning.md, "One alignment rule"):
 * a description or its tracks 4 bytes off, and a root-motion out 1 byte off, are refused with
 * TENDON_ERR_VALUE naming them, nothing written (they were read and written: UBSan "member
 * access within misaligned address" at each).
 */
START_TEST(test_misaligned_structs_refused)
{
    static const float times[2] = {0, 1}, v[6] = {0, 0, 0, 2, 0, 0};
    const tendon_track_desc track = {0, TENDON_PATH_TRANSLATION, TENDON_INTERP_LINEAR, 3, 2,
                                     times, v};
    const tendon_clip_desc good = {1, 1, &track};
    _Alignas(64) unsigned char room[256];
    tendon_clip *clip = (tendon_clip *)(uintptr_t)1;
    memcpy(room + 4, &good, sizeof good);
    expect_misaligned(tendon_clip_create((const tendon_clip_desc *)(void *)(room + 4), &clip),
                           "tendon_clip_create", "desc");
    ck_assert_ptr_null(clip);
    memcpy(room + 4, &track, sizeof track);
    const tendon_clip_desc shifted = {1, 1, (const tendon_track_desc *)(void *)(room + 4)};
    clip = (tendon_clip *)(uintptr_t)1;
    expect_misaligned(tendon_clip_create(&shifted, &clip), "tendon_clip_create",
                           "desc->tracks");
    ck_assert_ptr_null(clip);
    /* no tracks: nothing is read through tracks, whatever it holds */
    const tendon_clip_desc none = {1, 0, (const tendon_track_desc *)(void *)(room + 4)};
    ck_assert_int_eq(tendon_clip_create(&none, &clip), TENDON_OK);
    tendon_clip_destroy(clip);
    ck_assert_int_eq(tendon_clip_create(&good, &clip), TENDON_OK);
    memset(room, 0xAB, sizeof room);
    expect_misaligned(tendon_root_motion_extract(clip, 0, 0.25, 0.75,
                                                      (tendon_root_motion *)(void *)(room + 1)),
                           "tendon_root_motion_extract", "out");
    for (size_t i = 0; i < sizeof room; ++i)
        ck_assert_uint_eq(room[i], 0xAB); /* nothing written */
    tendon_root_motion m;
    ck_assert_int_eq(tendon_root_motion_extract(clip, 0, 0.25, 0.75, &m), TENDON_OK);
    ck_assert_float_eq(m.translation[0], 1.0f);
    tendon_clip_destroy(clip);
}
END_TEST

/*
 * Cursor entries at the top of uint32_t (UINT32_MAX, UINT32_MAX − 1) are garbage like any other:
 * the same bits as tendon_clip_sample in both tiers. Where size_t is 32-bit (wasm32) the hint's
 * k + 1 and k + 2 wrapped to 0 and 1 and times[k] was read before the array (pointer overflow:
 * a wasm32 build of clip.c with -fsanitize=pointer-overflow trapped); natively this checks the
 * answer only.
 */
START_TEST(test_cursor_top_entries)
{
    static const float times[3] = {0, 1, 2}, v[9] = {0, 0, 0, 1, 1, 1, 2, 2, 2};
    const tendon_track_desc tr = {0, TENDON_PATH_TRANSLATION, TENDON_INTERP_LINEAR, 3, 3, times,
                                  v};
    const tendon_clip_desc d = {1, 1, &tr};
    tendon_clip *clip = NULL;
    ck_assert_int_eq(tendon_clip_create(&d, &clip), TENDON_OK);
    static const double at[5] = {-1.0, 0.25, 1.0, 1.5, 3.0};
    for (int f32 = 0; f32 < 2; ++f32)
        for (int e = 0; e < 2; ++e)
            for (int i = 0; i < 5; ++i) {
                float T[3] = {9, 9, 9}, R[4] = {0, 0, 0, 1}, S[3] = {1, 1, 1};
                float T2[3] = {9, 9, 9}, R2[4] = {0, 0, 0, 1}, S2[3] = {1, 1, 1};
                tendon_pose p = {T, R, S, 1}, q = {T2, R2, S2, 1};
                uint32_t cursor[1] = {UINT32_MAX - (uint32_t)e};
                ck_assert_int_eq(f32 ? tendon_clip_sample_f32(clip, at[i], &p)
                                     : tendon_clip_sample(clip, at[i], &p),
                                 TENDON_OK);
                ck_assert_int_eq(f32 ? tendon_clip_sample_cursor_f32(clip, at[i], cursor, 1, &q)
                                     : tendon_clip_sample_cursor(clip, at[i], cursor, 1, &q),
                                 TENDON_OK);
                ck_assert_mem_eq(T, T2, sizeof T);
                ck_assert_uint_lt(cursor[0], 2);
            }
    tendon_clip_destroy(clip);
}
END_TEST

static Suite *clip_suite(void)
{
    Suite *s = suite_create("clip");
    TCase *tc = tcase_create("bugs");
    tcase_add_test(tc, anim_bug_11_cubicspline_tangent_slots_and_scaling);
    tcase_add_test(tc, anim_bug_12_cubicspline_quaternion_normalise);
    tcase_add_test(tc, anim_bug_13_step_value_at_key_time);
    tcase_add_test(tc, anim_bug_14_clamp_before_first_key);
    suite_add_tcase(s, tc);
    tc = tcase_create("sampling");
    tcase_add_test(tc, test_linear_hand);
    tcase_add_test(tc, test_step_boundaries);
    tcase_add_test(tc, test_key_search_oracle);
    tcase_add_test(tc, test_linear_rotation_is_blend_slerp);
    tcase_add_test(tc, test_untouched_channels_and_nan);
    tcase_add_test(tc, test_create_errors);
    tcase_add_test(tc, test_cursor_same_bits);
    tcase_add_test(tc, test_cursor_sharing_the_pose_refused);
    tcase_add_test(tc, test_equal_times_share_a_timeline);
    tcase_add_test(tc, test_many_tracks_merge);
    tcase_add_test(tc, test_misaligned_structs_refused);
    tcase_add_test(tc, test_cursor_top_entries);
    suite_add_tcase(s, tc);
    tc = tcase_create("isa");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_isa_bitwise, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(tc, test_lerp_kernel_bitwise, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(tc, test_hermite_kernel_bitwise, 0, TENDON_ISA_COUNT);
    suite_add_tcase(s, tc);
    tc = tcase_create("root_motion");
    tcase_add_test(tc, test_root_motion_forward_across_wrap);
    tcase_add_test(tc, test_root_motion_moves_once);
    tcase_add_test(tc, test_root_motion_far_times);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return run_suite(clip_suite()); }
