/*
 * Bone masks, masked layers and delta poses (tendon/mask.h, seed 003), against hand-computed
 * weights and rotations; every refusal.
 *
 * The rig (DFS pre-order):
 *   0 hips ─┬─ 1 spine_01 ── 2 spine_02 ── 3 spine_03 ─┬─ 4 neck ── 5 head
 *           │                                           └─ 6 clavicle_l ── 7 upperarm_l
 *           └─ 8 thigh_l ── 9 calf_l
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

enum { N = 10 };
static const int32_t PARENTS[N] = {-1, 0, 1, 2, 3, 4, 3, 6, 0, 8};
static const char *const NAMES[N] = {"hips", "spine_01", "spine_02", "spine_03", "neck",
                                     "head", "clavicle_l", "upperarm_l", "thigh_l", "calf_l"};

static tendon_skeleton *rig(int named)
{
    tendon_skeleton_desc d = {.joint_count = N, .parents = PARENTS, .names = named ? NAMES : NULL};
    tendon_skeleton *sk = NULL;
    ck_assert_int_eq(tendon_skeleton_create(&d, &sk), TENDON_OK);
    return sk;
}

static void expect_weights(const float *got, const double *want, const char *what)
{
    for (int j = 0; j < N; ++j)
        ck_assert_msg(float_bits(got[j]) == float_bits((float)want[j]),
                      "%s: joint %d (%s) weight %a, expected %a", what, j, NAMES[j],
                      (double)got[j], (double)(float)want[j]);
}

START_TEST(test_ramp_by_hand)
{
    tendon_skeleton *sk = rig(1);
    float w[N];
    /* falloff 4 at spine_01: depths 0,1,2 on the spine, 3 at neck and clavicle, 4 beyond. */
    ck_assert_int_eq(tendon_bone_mask_by_name(sk, "spine_01", 4.0, w), TENDON_OK);
    expect_weights(w, (double[N]){0, 0.25, 0.5, 0.75, 1, 1, 1, 1, 0, 0}, "falloff 4");
    /* falloff 3: 1/3, 2/3 rounded once from double, then full. */
    ck_assert_int_eq(tendon_bone_mask_by_name(sk, "spine_01", 3.0, w), TENDON_OK);
    expect_weights(w, (double[N]){0, 1.0 / 3, 2.0 / 3, 1, 1, 1, 1, 1, 0, 0}, "falloff 3");
    /* falloff 2.5: 0.4, 0.8, then 1.2 → 1. */
    ck_assert_int_eq(tendon_bone_mask_by_name(sk, "spine_01", 2.5, w), TENDON_OK);
    expect_weights(w, (double[N]){0, 0.4, 0.8, 1, 1, 1, 1, 1, 0, 0}, "falloff 2.5");
    /* falloff 1: the hard mask, the whole subtree at once. */
    ck_assert_int_eq(tendon_bone_mask_by_name(sk, "spine_03", 1.0, w), TENDON_OK);
    expect_weights(w, (double[N]){0, 0, 0, 1, 1, 1, 1, 1, 0, 0}, "falloff 1 at spine_03");
    /* By index, and a leaf root; the legs only. */
    ck_assert_int_eq(tendon_bone_mask_by_index(sk, 8, 2.0, w), TENDON_OK);
    expect_weights(w, (double[N]){0, 0, 0, 0, 0, 0, 0, 0, 0.5, 1}, "thigh_l by index");
    ck_assert_int_eq(tendon_bone_mask_by_index(sk, 0, 10.0, w), TENDON_OK);
    expect_weights(w, (double[N]){0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.5, 0.6, 0.2, 0.3}, "hips");
    tendon_skeleton_destroy(sk);
}
END_TEST

/* No joint kinks: a joint and its parent differ by at most 1/falloff (float rounding of two
 * weights each within half an ulp of the double: at most one ulp of 1 over). */
START_TEST(test_ramp_property)
{
    tendon_skeleton *sk = rig(1);
    float w[N];
    const double falloffs[] = {1, 1.5, 2, 3, 7, 9.75, 1e6};
    for (size_t f = 0; f < sizeof falloffs / sizeof falloffs[0]; ++f)
        for (size_t root = 0; root < N; ++root) {
            ck_assert_int_eq(tendon_bone_mask_by_index(sk, root, falloffs[f], w), TENDON_OK);
            for (int j = 0; j < N; ++j) {
                ck_assert(w[j] >= 0.0f && w[j] <= 1.0f);
                ck_assert_msg((w[j] > 0.0f) == (j == (int)root || (j > (int)root && (PARENTS[j] >= (int)root) && w[PARENTS[j]] > 0.0f)),
                              "joint %d in/out of the subtree of %zu", j, root);
                const double parent = PARENTS[j] >= 0 ? w[PARENTS[j]] : 0.0;
                ck_assert_msg(fabs((double)w[j] - parent) <= 1.0 / falloffs[f] + 0x1p-24,
                              "falloff %g root %zu: joint %d %a vs parent %a", falloffs[f], root,
                              j, (double)w[j], parent);
            }
            ck_assert_msg(w[root] > 0.0f, "the split root itself has weight");
        }
    tendon_skeleton_destroy(sk);
}
END_TEST

START_TEST(test_unknown_root)
{
    tendon_skeleton *sk = rig(1);
    float w[N];
    for (int j = 0; j < N; ++j)
        w[j] = 7.0f;
    /* Another case: the near match is named. */
    ck_assert_int_eq(tendon_bone_mask_by_name(sk, "Spine_01", 3.0, w), TENDON_ERR_NOT_FOUND);
    const char *m = tendon_error_message();
    ck_assert_ptr_nonnull(strstr(m, "\"Spine_01\""));
    ck_assert_ptr_nonnull(strstr(m, "near matches: \"spine_01\""));
    /* A substring: every spine joint listed. */
    ck_assert_int_eq(tendon_bone_mask_by_name(sk, "spine", 3.0, w), TENDON_ERR_NOT_FOUND);
    m = tendon_error_message();
    ck_assert_ptr_nonnull(strstr(m, "\"spine_01\", \"spine_02\", \"spine_03\""));
    /* An edit distance of one. */
    ck_assert_int_eq(tendon_bone_mask_by_name(sk, "haed", 3.0, w), TENDON_ERR_NOT_FOUND);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "\"head\""));
    /* Nothing near: said so, never an all-zero mask. */
    ck_assert_int_eq(tendon_bone_mask_by_name(sk, "tail_tip", 3.0, w), TENDON_ERR_NOT_FOUND);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "no joint name is near"));
    for (int j = 0; j < N; ++j)
        ck_assert(w[j] == 7.0f); /* untouched */
    tendon_skeleton_destroy(sk);

    sk = rig(0);
    ck_assert_int_eq(tendon_bone_mask_by_name(sk, "spine_01", 3.0, w), TENDON_ERR_NOT_FOUND);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "no joint names"));
    tendon_skeleton_destroy(sk);
}
END_TEST

START_TEST(test_mask_errors)
{
    tendon_skeleton *sk = rig(1);
    float w[N];
    ck_assert_int_eq(tendon_bone_mask_by_index(sk, N, 3.0, w), TENDON_ERR_RANGE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "root 10"));
    ck_assert_int_eq(tendon_bone_mask_by_index(sk, 1, 0.5, w), TENDON_ERR_VALUE);
    ck_assert_int_eq(tendon_bone_mask_by_index(sk, 1, NAN, w), TENDON_ERR_VALUE);
    ck_assert_int_eq(tendon_bone_mask_by_index(sk, 1, INFINITY, w), TENDON_ERR_VALUE);
    ck_assert_int_eq(tendon_bone_mask_by_index(sk, 1, 0.0, w), TENDON_ERR_VALUE);
    ck_assert_int_eq(tendon_bone_mask_by_index(sk, 1, 1e300, w), TENDON_ERR_VALUE);
    ck_assert_int_eq(tendon_bone_mask_by_index(sk, 1, TENDON_BONE_MASK_MAX_FALLOFF * 2, w),
                     TENDON_ERR_VALUE);
    /* At the limit the root's weight is 2^-24, not 0. */
    ck_assert_int_eq(tendon_bone_mask_by_index(sk, 1, TENDON_BONE_MASK_MAX_FALLOFF, w), TENDON_OK);
    ck_assert(w[1] == 0x1p-24f && w[2] == 0x1p-23f && w[0] == 0.0f);
    ck_assert_int_eq(tendon_bone_mask_by_index(sk, 1, 2.0, NULL), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_bone_mask_by_index(NULL, 1, 2.0, w), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_bone_mask_by_name(sk, NULL, 2.0, w), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_bone_mask_by_name(NULL, "hips", 2.0, w), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_bone_mask_by_name(sk, "hips", -1.0, w), TENDON_ERR_VALUE);
    tendon_skeleton_destroy(sk);
}
END_TEST

/* ---- layers ------------------------------------------------------------------------------- */

static void axis_quat(double ax, double ay, double az, double angle, double q[4])
{
    q[0] = ax * sin(angle / 2);
    q[1] = ay * sin(angle / 2);
    q[2] = az * sin(angle / 2);
    q[3] = cos(angle / 2);
}

static void mul(const double a[4], const double b[4], double o[4])
{
    o[0] = a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1];
    o[1] = a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0];
    o[2] = a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3];
    o[3] = a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2];
}

static void expect_quat(const float *got, const double want[4], double tol, const char *what)
{
    for (int c = 0; c < 4; ++c)
        ck_assert_msg(fabs((double)got[c] - want[c]) <= tol, "%s[%d] = %.9g, expected %.9g", what,
                      c, (double)got[c], want[c]);
}

/* The two tiers of the layer calls (the loop tests' _i: 0 the seed-exact tier, 1 float32). */
typedef tendon_status (*apply_fn)(const tendon_pose *, const tendon_pose *, double, const float *,
                                  tendon_mask_mode, tendon_pose *);
typedef tendon_status (*delta_fn)(const tendon_pose *, const tendon_pose *, tendon_pose *);
typedef tendon_status (*add_fn)(const tendon_pose *, const tendon_pose *, double, tendon_pose *);
static const apply_fn LAYER_APPLY[2] = {tendon_layer_apply, tendon_layer_apply_f32};
static const delta_fn POSE_DELTA[2] = {tendon_pose_delta, tendon_pose_delta_f32};
static const add_fn POSE_ADD[2] = {tendon_pose_add, tendon_pose_add_f32};
static const char *const TIER[2] = {"exact", "f32"};

/*
 * The walk swings the torso 30° about y (the counter-rotation); the aim layer is 20° about x
 * from its reference. Additive at mask m: base ⊗ (20·m° about x) — the 30° survives. Override
 * at mask 1: the aim pose replaces the torso (the 30° is gone); at mask 0 the base is untouched.
 */
START_TEST(test_layer_additive_vs_override)
{
    const apply_fn layer_apply = LAYER_APPLY[_i];
    const delta_fn pose_delta = POSE_DELTA[_i];
    tendon_skeleton *sk = rig(1);
    float mask[N];
    ck_assert_int_eq(tendon_bone_mask_by_name(sk, "spine_01", 2.0, mask), TENDON_OK);
    /* spine_01 0.5, spine_02 and below 1, hips and legs 0 */
    tendon_pose base, aim_ref, aim, delta, out;
    ck_assert_int_eq(tendon_pose_create(N, &base), TENDON_OK);
    ck_assert_int_eq(tendon_pose_create(N, &aim_ref), TENDON_OK);
    ck_assert_int_eq(tendon_pose_create(N, &aim), TENDON_OK);
    ck_assert_int_eq(tendon_pose_create(N, &delta), TENDON_OK);
    ck_assert_int_eq(tendon_pose_create(N, &out), TENDON_OK);
    double qb[4], qa[4], qx[4];
    axis_quat(0, 1, 0, M_PI / 6, qb);
    axis_quat(0, 0, 1, M_PI / 9, qa); /* the aim's reference pose: 20° about z */
    for (int j = 0; j < N; ++j) {
        for (int c = 0; c < 4; ++c) {
            base.rotation[4 * j + c] = (float)qb[c];
            aim_ref.rotation[4 * j + c] = (float)qa[c];
        }
        base.translation[3 * j + 1] = 0.5f;
        aim_ref.translation[3 * j + 1] = 0.25f;
    }
    /* The aim pose: its reference then 20° about x in the joint's frame, translated up 0.1. */
    axis_quat(1, 0, 0, M_PI / 9, qx);
    double aimq[4];
    mul(qa, qx, aimq);
    for (int j = 0; j < N; ++j) {
        for (int c = 0; c < 4; ++c)
            aim.rotation[4 * j + c] = (float)aimq[c];
        aim.translation[3 * j + 1] = 0.35f;
    }
    ck_assert_int_eq(pose_delta(&aim_ref, &aim, &delta), TENDON_OK);
    expect_quat(delta.rotation + 4 * 2, qx, 2e-7, "delta rotation");

    ck_assert_int_eq(layer_apply(&base, &delta, 1.0, mask, TENDON_MASK_ADDITIVE, &out),
                     TENDON_OK);
    double want[4], half[4];
    mul(qb, qx, want);
    expect_quat(out.rotation + 4 * 3, want, 3e-7, "additive spine_03: base ⊗ 20° about x");
    axis_quat(1, 0, 0, M_PI / 18, half);
    mul(qb, half, want);
    expect_quat(out.rotation + 4 * 1, want, 3e-7, "additive spine_01 at mask 0.5");
    /* translation: base + delta·m = 0.5 + (0.35f − 0.25f)·m */
    ck_assert_msg(fabs(out.translation[3 * 3 + 1] - (0.5 + ((double)0.35f - 0.25))) < 1e-7,
                  "additive translation %.9g", (double)out.translation[10]);
    for (int c = 0; c < 4; ++c) {
        ck_assert(float_bits(out.rotation[c]) == float_bits(base.rotation[c]));        /* hips */
        ck_assert(float_bits(out.rotation[32 + c]) == float_bits(base.rotation[32 + c])); /* thigh */
    }

    ck_assert_int_eq(layer_apply(&base, &aim, 1.0, mask, TENDON_MASK_OVERRIDE, &out),
                     TENDON_OK);
    expect_quat(out.rotation + 4 * 3, aimq, 2e-7, "override spine_03: the aim pose itself");
    /* outside the mask the base rotation, normalised: bit for bit on the exact tier (the double
       normalisation rounds back to the unit float quaternion), within its rounding (2 ulps of
       a unit component) on float32's */
    for (int c = 0; c < 4; ++c)
        ck_assert(_i ? fabsf(out.rotation[c] - base.rotation[c]) <= 1.2e-7f
                     : float_bits(out.rotation[c]) == float_bits(base.rotation[c]));
    ck_assert_int_eq(layer_apply(&base, &aim, 1.0, mask, (tendon_mask_mode)7, &out),
                     TENDON_ERR_VALUE);
    ck_assert_int_eq(layer_apply(&base, &aim, 1.0, NULL, TENDON_MASK_OVERRIDE, &out),
                     TENDON_ERR_NULL);
    tendon_pose_destroy(&base);
    tendon_pose_destroy(&aim_ref);
    tendon_pose_destroy(&aim);
    tendon_pose_destroy(&delta);
    tendon_pose_destroy(&out);
    tendon_skeleton_destroy(sk);
}
END_TEST

/* ---- delta poses -------------------------------------------------------------------------- */

START_TEST(test_delta_by_hand)
{
    const delta_fn pose_delta = POSE_DELTA[_i];
    float rt[3] = {1, 2, 3}, pt[3] = {1.5f, 2, 2}, rs[3] = {2, 4, 1}, ps[3] = {1, 4, 3};
    float rr[4], pr[4], dt[3], dr[4], ds[3];
    double q30[4], q75[4], q45[4];
    axis_quat(0, 0, 1, M_PI / 6, q30);
    axis_quat(0, 0, 1, 5 * M_PI / 12, q75);
    axis_quat(0, 0, 1, M_PI / 4, q45);
    for (int c = 0; c < 4; ++c) {
        rr[c] = (float)q30[c];
        pr[c] = (float)q75[c];
    }
    const tendon_pose ref = {rt, rr, rs, 1}, pose = {pt, pr, ps, 1};
    tendon_pose d = {dt, dr, ds, 1};
    ck_assert_int_eq(pose_delta(&ref, &pose, &d), TENDON_OK);
    ck_assert(dt[0] == 0.5f && dt[1] == 0.0f && dt[2] == -1.0f);
    ck_assert(ds[0] == 0.5f && ds[1] == 1.0f && ds[2] == 3.0f);
    expect_quat(dr, q45, 2e-7, "75° − 30° about z");
    /* pose == reference: the identity delta, exactly zero vector parts. */
    ck_assert_int_eq(pose_delta(&ref, &ref, &d), TENDON_OK);
    ck_assert(dt[0] == 0.0f && dt[1] == 0.0f && dt[2] == 0.0f);
    ck_assert(ds[0] == 1.0f && ds[1] == 1.0f && ds[2] == 1.0f);
    ck_assert(dr[0] == 0.0f && dr[1] == 0.0f && dr[2] == 0.0f);
    ck_assert(float_ulp_distance(dr[3], 1.0f) <= 1);
}
END_TEST

/* add(reference, delta(reference, pose), 1) reproduces pose, on random poses. */
START_TEST(test_delta_round_trip)
{
    const delta_fn pose_delta = POSE_DELTA[_i];
    const add_fn pose_add = POSE_ADD[_i];
    /* float32 tier: every step rounds to float (the scale's 1 + (d − 1) can lose two ulps) */
    const double tol_t = 2.4e-7, tol_r = _i ? 6e-7 : 5e-7, tol_s = _i ? 4.8e-7 : 2.4e-7;
    enum { J = 37 };
    test_rng rng;
    rng_seed(&rng, 0x6d61736bu);
    tendon_pose ref, pose, delta, back;
    ck_assert_int_eq(tendon_pose_create(J, &ref), TENDON_OK);
    ck_assert_int_eq(tendon_pose_create(J, &pose), TENDON_OK);
    ck_assert_int_eq(tendon_pose_create(J, &delta), TENDON_OK);
    ck_assert_int_eq(tendon_pose_create(J, &back), TENDON_OK);
    double worst_t = 0, worst_r = 0, worst_s = 0;
    for (int round = 0; round < 20; ++round) {
        for (int j = 0; j < J; ++j) {
            rng_unit_quat(&rng, ref.rotation + 4 * j);
            rng_unit_quat(&rng, pose.rotation + 4 * j);
            for (int c = 0; c < 3; ++c) {
                ref.translation[3 * j + c] = (float)rng_range(&rng, -1, 1);
                pose.translation[3 * j + c] = (float)rng_range(&rng, -1, 1);
                ref.scale[3 * j + c] = (float)rng_range(&rng, 0.5, 2);
                pose.scale[3 * j + c] = (float)rng_range(&rng, 0.5, 2);
            }
        }
        ck_assert_int_eq(pose_delta(&ref, &pose, &delta), TENDON_OK);
        ck_assert_int_eq(pose_add(&ref, &delta, 1.0, &back), TENDON_OK);
        for (int j = 0; j < J; ++j) {
            const float *a = back.rotation + 4 * j, *b = pose.rotation + 4 * j;
            const double sign = ((double)a[0] * b[0] + (double)a[1] * b[1] +
                                 (double)a[2] * b[2] + (double)a[3] * b[3]) < 0 ? -1 : 1;
            for (int c = 0; c < 4; ++c)
                worst_r = fmax(worst_r, fabs(a[c] - sign * b[c]));
            for (int c = 0; c < 3; ++c) {
                worst_t = fmax(worst_t, fabs((double)back.translation[3 * j + c] -
                                             pose.translation[3 * j + c]));
                worst_s = fmax(worst_s, fabs((double)back.scale[3 * j + c] /
                                             pose.scale[3 * j + c] - 1.0));
            }
        }
    }
    printf("delta round trip (%s) over 740 joints: worst |Δt| %.3g, |Δq| %.3g, relative Δs %.3g\n",
           TIER[_i], worst_t, worst_r, worst_s);
    ck_assert_msg(worst_t <= tol_t, "%s translation off by %g", TIER[_i], worst_t);
    ck_assert_msg(worst_r <= tol_r, "%s rotation off by %g", TIER[_i], worst_r);
    ck_assert_msg(worst_s <= tol_s, "%s scale off by %g (relative)", TIER[_i], worst_s);
    /* In place: out_delta is the pose itself. */
    ck_assert_int_eq(pose_delta(&ref, &pose, &pose), TENDON_OK);
    for (size_t i = 0; i < 4 * J; ++i)
        ck_assert(same_float(pose.rotation[i], delta.rotation[i]));
    tendon_pose_destroy(&ref);
    tendon_pose_destroy(&pose);
    tendon_pose_destroy(&delta);
    tendon_pose_destroy(&back);
}
END_TEST

/* The delta of a clip: joint 0 has a rotation track (30° → 90° about z over 1 s, LINEAR), joint
 * 1 none. Against a reference of 30° on joint 0: at t = 0.5 (60°) the delta is 30° about z; at
 * t = 0 it is the identity; joint 1 (no track) is the identity delta at every time. */
typedef tendon_status (*clip_delta_fn)(const tendon_clip *, double, const tendon_pose *,
                                       tendon_pose *);
static const clip_delta_fn CLIP_DELTA[2] = {tendon_clip_delta_pose, tendon_clip_delta_pose_f32};

START_TEST(test_clip_delta)
{
    const clip_delta_fn clip_delta_pose = CLIP_DELTA[_i];
    const add_fn pose_add = POSE_ADD[_i];
    double q30[4], q90[4], q60[4], want[4];
    axis_quat(0, 0, 1, M_PI / 6, q30);
    axis_quat(0, 0, 1, M_PI / 2, q90);
    axis_quat(0, 0, 1, M_PI / 3, q60);
    float times[2] = {0.0f, 1.0f}, values[8];
    for (int c = 0; c < 4; ++c) {
        values[c] = (float)q30[c];
        values[4 + c] = (float)q90[c];
    }
    tendon_track_desc track = {0, TENDON_PATH_ROTATION, TENDON_INTERP_LINEAR, 4, 2, times, values};
    tendon_clip_desc cd = {2, 1, &track};
    tendon_clip *clip = NULL;
    ck_assert_int_eq(tendon_clip_create(&cd, &clip), TENDON_OK);
    tendon_pose ref, delta, back;
    ck_assert_int_eq(tendon_pose_create(2, &ref), TENDON_OK);
    ck_assert_int_eq(tendon_pose_create(2, &delta), TENDON_OK);
    ck_assert_int_eq(tendon_pose_create(2, &back), TENDON_OK);
    for (int c = 0; c < 4; ++c)
        ref.rotation[c] = (float)q30[c];
    ref.translation[3] = 1.5f; /* joint 1: a rest offset and scale the clip does not touch */
    ref.scale[4] = 2.0f;
    ck_assert_int_eq(clip_delta_pose(clip, 0.5, &ref, &delta), TENDON_OK);
    axis_quat(0, 0, 1, M_PI / 6, want); /* 60° − 30° */
    expect_quat(delta.rotation, want, 3e-7, "clip delta at 0.5");
    ck_assert(delta.translation[3] == 0.0f && delta.scale[4] == 1.0f);
    ck_assert(delta.rotation[4] == 0.0f && delta.rotation[5] == 0.0f && delta.rotation[6] == 0.0f);
    ck_assert(float_ulp_distance(delta.rotation[7], 1.0f) <= 1);
    /* Added back onto the reference: the clip's pose (60°), joint 1 untouched. */
    ck_assert_int_eq(pose_add(&ref, &delta, 1.0, &back), TENDON_OK);
    expect_quat(back.rotation, q60, 3e-7, "reference + delta");
    ck_assert(back.translation[3] == 1.5f && back.scale[4] == 2.0f);
    ck_assert_int_eq(clip_delta_pose(clip, 0.0, &ref, &delta), TENDON_OK);
    ck_assert(delta.rotation[0] == 0.0f && delta.rotation[1] == 0.0f && delta.rotation[2] == 0.0f);
    /* Refusals. */
    ck_assert_int_eq(clip_delta_pose(NULL, 0.5, &ref, &delta), TENDON_ERR_NULL);
    ck_assert_int_eq(clip_delta_pose(clip, 0.5, &ref, &ref), TENDON_ERR_ALIAS);
    /* an out_delta with the reference's rotation array and its own others: sampling wrote into
       the const reference, and the delta came out the identity, with TENDON_OK (a review) */
    float ref_rot[8];
    memcpy(ref_rot, ref.rotation, sizeof ref_rot);
    tendon_pose shares = {delta.translation, ref.rotation, delta.scale, 2};
    ck_assert_int_eq(clip_delta_pose(clip, 0.5, &ref, &shares), TENDON_ERR_ALIAS);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "out_delta.rotation overlaps "
                                                         "reference.rotation"));
    ck_assert(memcmp(ref_rot, ref.rotation, sizeof ref_rot) == 0);
    shares = (tendon_pose){delta.translation, delta.rotation, ref.scale, 2};
    ck_assert_int_eq(clip_delta_pose(clip, 0.5, &ref, &shares), TENDON_ERR_ALIAS);
    shares = (tendon_pose){delta.translation, ref.rotation + 1, delta.scale, 2}; /* partly */
    ck_assert_int_eq(clip_delta_pose(clip, 0.5, &ref, &shares), TENDON_ERR_ALIAS);
    tendon_pose one;
    ck_assert_int_eq(tendon_pose_create(1, &one), TENDON_OK);
    ck_assert_int_eq(clip_delta_pose(clip, 0.5, &ref, &one), TENDON_ERR_COUNT);
    tendon_pose_destroy(&one);
    tendon_pose_destroy(&ref);
    tendon_pose_destroy(&delta);
    tendon_pose_destroy(&back);
    tendon_clip_destroy(clip);
}
END_TEST

/*
 * A channel no track drives adds nothing, bit for bit: over a reference of random rotations
 * (and a −0 beside a +0), the delta of each undriven joint is (0, 0, 0, 1) exactly, and adding
 * it back at weight 1 returns the reference's rotation unchanged. Before, the rounded product
 * conj(r/|r|)·r left 918 of 999 such deltas off the identity in double (e.g. (−2⁻⁵⁵, 0, 0, 1))
 * and 644 in float32, where adding them back moved 375 rotations (a review).
 */
START_TEST(test_clip_delta_undriven_exact)
{
    const clip_delta_fn clip_delta_pose = CLIP_DELTA[_i];
    const add_fn pose_add = POSE_ADD[_i];
    const delta_fn pose_delta = POSE_DELTA[_i];
    enum { N = 1000 };
    float times[2] = {0.0f, 1.0f}, values[8] = {0, 0, 0, 1, 0, 0, 0.6f, 0.8f};
    tendon_track_desc track = {0, TENDON_PATH_ROTATION, TENDON_INTERP_LINEAR, 4, 2, times, values};
    tendon_clip_desc cd = {N, 1, &track}; /* joint 0 driven, the rest not */
    tendon_clip *clip = NULL;
    ck_assert_int_eq(tendon_clip_create(&cd, &clip), TENDON_OK);
    tendon_pose ref, delta, back;
    ck_assert_int_eq(tendon_pose_create(N, &ref), TENDON_OK);
    ck_assert_int_eq(tendon_pose_create(N, &delta), TENDON_OK);
    ck_assert_int_eq(tendon_pose_create(N, &back), TENDON_OK);
    test_rng rng;
    rng_seed(&rng, 0x5eed0d17u);
    for (size_t j = 0; j < N; ++j) {
        rng_unit_quat(&rng, ref.rotation + 4 * j);
        for (int c = 0; c < 3; ++c) {
            ref.translation[3 * j + c] = (float)rng_range(&rng, -2.0, 2.0);
            ref.scale[3 * j + c] = (float)rng_range(&rng, 0.5, 2.0);
        }
    }
    ck_assert_int_eq(clip_delta_pose(clip, 0.25, &ref, &delta), TENDON_OK);
    ck_assert_int_eq(pose_add(&ref, &delta, 1.0, &back), TENDON_OK);
    for (size_t j = 1; j < N; ++j) {
        const float *d = delta.rotation + 4 * j;
        ck_assert_msg(d[0] == 0.0f && d[1] == 0.0f && d[2] == 0.0f && d[3] == 1.0f,
                      "joint %zu: delta rotation (%a, %a, %a, %a), not the identity", j, d[0],
                      d[1], d[2], d[3]);
        for (int c = 0; c < 3; ++c)
            ck_assert(delta.translation[3 * j + c] == 0.0f && delta.scale[3 * j + c] == 1.0f);
        ck_assert_msg(memcmp(back.rotation + 4 * j, ref.rotation + 4 * j, 4 * sizeof(float)) == 0,
                      "joint %zu: reference + its delta moved the rotation", j);
    }
    /* equal component by component, ±0 alike: the identity; one ulp apart: the formula */
    float rt[3] = {0}, rr[8] = {0.0f, 0.6f, 0.0f, 0.8f, 0.6f, 0.0f, 0.0f, 0.8f}, rs[3] = {1, 1, 1};
    float pr[8] = {-0.0f, 0.6f, 0.0f, 0.8f, 0.6f, 0.0f, 0.0f, 0.8f};
    pr[7] = nextafterf(0.8f, 1.0f);
    float ot[6], orr[8], os[6];
    const tendon_pose r2 = {rt, rr, rs, 1}, p2 = {rt, pr, rs, 1};
    tendon_pose o2 = {ot, orr, os, 1};
    ck_assert_int_eq(pose_delta(&r2, &p2, &o2), TENDON_OK);
    ck_assert(orr[0] == 0.0f && !signbit(orr[0]) && orr[1] == 0.0f && orr[2] == 0.0f &&
              orr[3] == 1.0f);
    const tendon_pose r3 = {rt, rr + 4, rs, 1}, p3 = {rt, pr + 4, rs, 1};
    ck_assert_int_eq(pose_delta(&r3, &p3, &o2), TENDON_OK);
    ck_assert(orr[0] != 0.0f); /* not equal: the product (x ≈ −2e-8), not the identity */
    /* equal but not finite: the formula as before (NaN from ∞/∞), not a made-up identity */
    float ri[4] = {INFINITY, 0.0f, 0.0f, 1.0f};
    const tendon_pose r4 = {rt, ri, rs, 1}, p4 = {rt, ri, rs, 1};
    ck_assert_int_eq(pose_delta(&r4, &p4, &o2), TENDON_OK);
    ck_assert(!(orr[0] == 0.0f && orr[1] == 0.0f && orr[2] == 0.0f && orr[3] == 1.0f));
    tendon_pose_destroy(&ref);
    tendon_pose_destroy(&delta);
    tendon_pose_destroy(&back);
    tendon_clip_destroy(clip);
}
END_TEST

/*
 * A clip of 0 joints against two distinct 0-joint poses that hold NULL arrays (pose.h allows
 * them, as tendon_pose_destroy leaves a pose): nothing can overlap, so the delta is taken
 * (TENDON_OK, on both tiers) — it was refused as "out_delta is reference" (TENDON_ERR_ALIAS)
 * because the two NULL translation arrays compared equal.
 */
START_TEST(test_clip_delta_empty_poses)
{
    const clip_delta_fn clip_delta_pose = CLIP_DELTA[_i];
    tendon_clip_desc cd = {0, 0, NULL};
    tendon_clip *clip = NULL;
    ck_assert_int_eq(tendon_clip_create(&cd, &clip), TENDON_OK);
    tendon_pose ref = {NULL, NULL, NULL, 0}, out = {NULL, NULL, NULL, 0};
    const tendon_status st = clip_delta_pose(clip, 0.0, &ref, &out);
    ck_assert_msg(st == TENDON_OK, "0-joint poses with NULL arrays: %s (%s)",
                  tendon_status_name(st), tendon_error_message());
    tendon_clip_destroy(clip);
}
END_TEST

START_TEST(test_delta_errors)
{
    const delta_fn pose_delta = POSE_DELTA[_i];
    float t[6] = {0}, r[8] = {0, 0, 0, 1, 0, 0, 0, 1}, s[6] = {1, 1, 1, 1, 0, 1};
    float ot[6], orr[8], os[6];
    const tendon_pose ref = {t, r, s, 2}, pose = {t, r, s, 2};
    tendon_pose out = {ot, orr, os, 2};
    for (int i = 0; i < 6; ++i)
        ot[i] = 9.0f;
    ck_assert_int_eq(pose_delta(&ref, &pose, &out), TENDON_ERR_VALUE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "joint 1's reference scale[1]"));
    ck_assert(ot[0] == 9.0f); /* nothing written */
    s[4] = 1;
    r[7] = 0;
    ck_assert_int_eq(pose_delta(&ref, &pose, &out), TENDON_ERR_VALUE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "joint 1's reference rotation"));
    r[7] = 1;
    ck_assert_int_eq(pose_delta(&ref, &pose, &out), TENDON_OK);
    tendon_pose one = {ot, orr, os, 1};
    ck_assert_int_eq(pose_delta(&ref, &pose, &one), TENDON_ERR_COUNT);
    ck_assert_int_eq(pose_delta(NULL, &pose, &out), TENDON_ERR_NULL);
    tendon_pose shifted = {t + 1, orr, os, 2}; /* out's translation overlaps the reference's */
    ck_assert_int_eq(pose_delta(&ref, &pose, &shifted), TENDON_ERR_ALIAS);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("mask");
    TCase *tc = tcase_create("mask");
    tcase_add_test(tc, test_ramp_by_hand);
    tcase_add_test(tc, test_ramp_property);
    tcase_add_test(tc, test_unknown_root);
    tcase_add_test(tc, test_mask_errors);
    tcase_add_loop_test(tc, test_layer_additive_vs_override, 0, 2); /* both tiers */
    tcase_add_loop_test(tc, test_delta_by_hand, 0, 2); /* both tiers */
    tcase_add_loop_test(tc, test_delta_round_trip, 0, 2); /* both tiers */
    tcase_add_loop_test(tc, test_delta_errors, 0, 2); /* both tiers */
    tcase_add_loop_test(tc, test_clip_delta, 0, 2); /* both tiers */
    tcase_add_loop_test(tc, test_clip_delta_undriven_exact, 0, 2);
    tcase_add_loop_test(tc, test_clip_delta_empty_poses, 0, 2); /* both tiers */
    suite_add_tcase(s, tc);
    return run_suite(s);
}
