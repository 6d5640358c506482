/*
 * Two-bone IK (tendon/ik.h) against hand-computed chains — reachable (a 3-4-5 triangle, whose
 * elbow sits at (1.8, 2.4)), unreachable (straight), too near (folded), pole flipped and
 * sideways — bug case 16 of tests/data/bugs/bugs.json (both sub-cases, float32), weights, and
 * every refusal.
 *
 * The solver computes in float32; the oracles are exact real numbers, so positions are compared
 * with the tolerance the values' float32 rounding allows (a few ulps of the chain's size:
 * 2e-6 for bug case 16 as it states, 4e-6 on the 7-metre chain).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "support.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static void expect3(const float got[3], double x, double y, double z, double tol,
                    const char *what)
{
    const double want[3] = {x, y, z};
    for (int c = 0; c < 3; ++c)
        ck_assert_msg(fabs((double)got[c] - want[c]) <= tol,
                      "%s[%d] = %.9g, expected %.9g (tolerance %g)", what, c, (double)got[c],
                      want[c], tol);
}

static double dist(const float a[3], const float b[3])
{
    const double dx = (double)a[0] - b[0], dy = (double)a[1] - b[1], dz = (double)a[2] - b[2];
    return sqrt(dx * dx + dy * dy + dz * dz);
}

/* v rotated by q, in double (the oracle's own rotation). */
static void rot(const float q[4], const double v[3], double o[3])
{
    const double x = q[0], y = q[1], z = q[2], w = q[3];
    const double t[3] = {2 * (y * v[2] - z * v[1]), 2 * (z * v[0] - x * v[2]),
                         2 * (x * v[1] - y * v[0])};
    o[0] = v[0] + w * t[0] + (y * t[2] - z * t[1]);
    o[1] = v[1] + w * t[1] + (z * t[0] - x * t[2]);
    o[2] = v[2] + w * t[2] + (x * t[1] - y * t[0]);
}

/* The deltas carry the input bones onto the output: upper_delta·(mid − root) = mid' − root and
 * lower_delta·upper_delta·(end − mid) = end' − mid'. */
static void expect_deltas_consistent(const float root[3], const float mid[3], const float end[3],
                                     const tendon_ik_two_bone_result *r, double tol)
{
    const double up[3] = {mid[0] - root[0], mid[1] - root[1], mid[2] - root[2]};
    const double lo[3] = {end[0] - mid[0], end[1] - mid[1], end[2] - mid[2]};
    double a[3], b[3];
    rot(r->upper_delta, up, a);
    rot(r->upper_delta, lo, b);
    double c[3];
    rot(r->lower_delta, b, c);
    for (int k = 0; k < 3; ++k) {
        ck_assert_msg(fabs(a[k] - (r->mid[k] - root[k])) <= tol, "upper_delta moves the upper "
                      "bone to %.9g, the solution has %.9g", a[k], (double)(r->mid[k] - root[k]));
        ck_assert_msg(fabs(c[k] - (r->end[k] - r->mid[k])) <= tol, "lower_delta moves the lower "
                      "bone to %.9g, the solution has %.9g", c[k],
                      (double)(r->end[k] - r->mid[k]));
    }
    const double n1 = sqrt(r->upper_delta[0] * (double)r->upper_delta[0] +
                           r->upper_delta[1] * (double)r->upper_delta[1] +
                           r->upper_delta[2] * (double)r->upper_delta[2] +
                           r->upper_delta[3] * (double)r->upper_delta[3]);
    ck_assert_msg(fabs(n1 - 1.0) < 3e-7, "upper_delta is not unit (%.9g)", n1);
}

/* Root at 0, elbow 3 up, wrist 4 further up: l1 = 3, l2 = 4, reach 1..7. */
static const float ROOT[3] = {0, 0, 0}, MID[3] = {0, 3, 0}, END[3] = {0, 7, 0};

START_TEST(test_reachable_345)
{
    tendon_ik_two_bone_result r;
    const float target[3] = {5, 0, 0};
    /* x = (9 − 16 + 25) / 10 = 1.8, h = √(9 − 3.24) = 2.4, toward the pole (+y). */
    const float pole_up[3] = {0, 10, 0};
    ck_assert_int_eq(tendon_ik_two_bone(ROOT, MID, END, target, pole_up, 1.0, &r), TENDON_OK);
    expect3(r.mid, 1.8, 2.4, 0, 4e-6, "mid, pole +y");
    expect3(r.end, 5, 0, 0, 4e-6, "end, pole +y");
    ck_assert_int_eq(r.reachable, 1);
    /* upper bone (0,3,0) → (1.8,2.4,0): about −z by θ with cos θ = 0.8, sin θ = 0.6:
     * q = (0, 0, −sin(θ/2), cos(θ/2)), sin(θ/2) = √0.1, cos(θ/2) = √0.9. */
    ck_assert_msg(fabs(r.upper_delta[2] + sqrt(0.1)) < 3e-7 &&
                      fabs(r.upper_delta[3] - sqrt(0.9)) < 3e-7 &&
                      fabs(r.upper_delta[0]) < 1e-7 && fabs(r.upper_delta[1]) < 1e-7,
                  "upper_delta (%.9g, %.9g, %.9g, %.9g)", (double)r.upper_delta[0],
                  (double)r.upper_delta[1], (double)r.upper_delta[2], (double)r.upper_delta[3]);
    expect_deltas_consistent(ROOT, MID, END, &r, 4e-6);

    /* The pole flipped: the elbow mirrors to the other side of the line root → target. */
    const float pole_down[3] = {0, -10, 0};
    ck_assert_int_eq(tendon_ik_two_bone(ROOT, MID, END, target, pole_down, 1.0, &r), TENDON_OK);
    expect3(r.mid, 1.8, -2.4, 0, 4e-6, "mid, pole −y");
    expect3(r.end, 5, 0, 0, 4e-6, "end, pole −y");
    expect_deltas_consistent(ROOT, MID, END, &r, 4e-6);

    /* A pole out of the plane: the elbow goes where it points (its component off the line). */
    const float pole_side[3] = {2, 0, 7};
    ck_assert_int_eq(tendon_ik_two_bone(ROOT, MID, END, target, pole_side, 1.0, &r), TENDON_OK);
    expect3(r.mid, 1.8, 0, 2.4, 4e-6, "mid, pole +z");
    expect_deltas_consistent(ROOT, MID, END, &r, 4e-6);

    /* No pole: the current bend plane (the elbow's side of the line, +y here). */
    ck_assert_int_eq(tendon_ik_two_bone(ROOT, MID, END, target, NULL, 1.0, &r), TENDON_OK);
    expect3(r.mid, 1.8, 2.4, 0, 4e-6, "mid, no pole");
    /* A pole on the line root → target says nothing: the current plane again. */
    const float pole_on_line[3] = {9, 0, 0};
    ck_assert_int_eq(tendon_ik_two_bone(ROOT, MID, END, target, pole_on_line, 1.0, &r),
                     TENDON_OK);
    expect3(r.mid, 1.8, 2.4, 0, 4e-6, "mid, pole on the line");
}
END_TEST

START_TEST(test_unreachable_and_folded)
{
    tendon_ik_two_bone_result r;
    const float pole[3] = {0, 10, 0};
    /* Too far: straight at the target, end at l1 + l2 = 7. */
    const float far[3] = {0, 0, -20};
    ck_assert_int_eq(tendon_ik_two_bone(ROOT, MID, END, far, pole, 1.0, &r), TENDON_OK);
    ck_assert_int_eq(r.reachable, 0);
    expect3(r.mid, 0, 0, -3, 2e-6, "mid, target too far");
    expect3(r.end, 0, 0, -7, 4e-6, "end, target too far");
    expect_deltas_consistent(ROOT, MID, END, &r, 4e-6);
    /* Too near: |l1 − l2| = 1, so the end stops 1 from the root, the elbow folded back. */
    const float near[3] = {0.5f, 0, 0};
    ck_assert_int_eq(tendon_ik_two_bone(ROOT, MID, END, near, pole, 1.0, &r), TENDON_OK);
    ck_assert_int_eq(r.reachable, 0);
    expect3(r.mid, -3, 0, 0, 2e-6, "mid, target too near");
    expect3(r.end, 1, 0, 0, 2e-6, "end, target too near");
    /* At the root itself: the direction is the chain's own (root → end, +y). */
    ck_assert_int_eq(tendon_ik_two_bone(ROOT, MID, END, ROOT, pole, 1.0, &r), TENDON_OK);
    for (int c = 0; c < 3; ++c)
        ck_assert(r.mid[c] == r.mid[c] && r.end[c] == r.end[c]);
    expect3(r.end, 0, 1, 0, 2e-6, "end, target at the root");
    ck_assert_double_le(fabs(dist(r.mid, ROOT) - 3), 2e-6);
}
END_TEST

START_TEST(test_weight)
{
    tendon_ik_two_bone_result r;
    const float target[3] = {5, 0, 0}, pole[3] = {0, 10, 0};
    /* Weight 0: the chain as it was, bit for bit (rotation by the identity). */
    ck_assert_int_eq(tendon_ik_two_bone(ROOT, MID, END, target, pole, 0.0, &r), TENDON_OK);
    for (int c = 0; c < 3; ++c) {
        ck_assert(r.mid[c] == MID[c]);
        ck_assert(r.end[c] == END[c]);
    }
    ck_assert_int_eq(tendon_ik_two_bone(ROOT, MID, END, target, pole, -3.0, &r), TENDON_OK);
    ck_assert(r.mid[0] == MID[0] && r.mid[1] == MID[1]); /* clamped to 0 */
    /* Weight 0.5: the upper bone turned half of θ (cos θ = 0.8) about −z, lengths kept:
     * mid = 3·(sin(θ/2), cos(θ/2), 0) = 3·(√0.1, √0.9, 0). */
    ck_assert_int_eq(tendon_ik_two_bone(ROOT, MID, END, target, pole, 0.5, &r), TENDON_OK);
    expect3(r.mid, 3 * sqrt(0.1), 3 * sqrt(0.9), 0, 4e-6, "mid at weight 0.5");
    ck_assert_double_le(fabs(dist(r.end, r.mid) - 4), 4e-6);
    expect_deltas_consistent(ROOT, MID, END, &r, 4e-6);
    /* Weight above 1 is 1. */
    ck_assert_int_eq(tendon_ik_two_bone(ROOT, MID, END, target, pole, 7.0, &r), TENDON_OK);
    expect3(r.mid, 1.8, 2.4, 0, 4e-6, "mid at weight 7 (clamped to 1)");
}
END_TEST

static void read3(const json_t *o, const char *name, float v[3])
{
    const json_t *a = json_object_get(o, name);
    ck_assert_msg(json_array_size(a) == 3, "%s is not [3]", name);
    for (int c = 0; c < 3; ++c)
        v[c] = (float)json_real_value(json_array_get(a, c));
}

/* Bug case 16: the target at (a) and just past (b) full reach, in float32. */
START_TEST(test_bug_case_16)
{
    size_t size;
    char *text = read_test_file("bugs/bugs.json", &size);
    json_error_t err;
    json_t *root = json_loadb(text, size, JSON_DECODE_INT_AS_REAL, &err);
    free(text);
    ck_assert_ptr_nonnull(root);
    const json_t *bug = NULL;
    for (size_t i = 0; i < json_array_size(root); ++i)
        if (!strcmp(json_string_value(json_object_get(json_array_get(root, i), "id")),
                    "anim-bug-16-two-bone-ik-full-reach-nan"))
            bug = json_array_get(root, i);
    ck_assert_ptr_nonnull(bug);
    const double tol = json_real_value(json_object_get(bug, "tolerance"));
    ck_assert_double_eq(tol, 2e-6);
    static const char *const names[2] = {"case_a", "case_b"};
    for (int k = 0; k < 2; ++k) {
        const json_t *in = json_object_get(json_object_get(bug, "input"), names[k]);
        const json_t *want = json_object_get(json_object_get(bug, "expected"), names[k]);
        const json_t *naive = json_object_get(
            json_object_get(json_object_get(bug, "expected"), "naive_float32_trace"), names[k]);
        float r0[3], m0[3], e0[3], t[3], p[3], wm[3], we[3];
        read3(in, "root", r0);
        read3(in, "mid", m0);
        read3(in, "end", e0);
        read3(in, "target", t);
        read3(in, "pole", p);
        read3(want, "mid", wm);
        read3(want, "end", we);
        /* The case really is out of the naive domain in float32: |target| and l1 + l2 as the
         * trace gives them, and the law-of-cosines argument below −1. */
        const float l1 = (float)json_real_value(json_array_get(json_object_get(in, "bone_lengths"), 0));
        const float l2 = (float)json_real_value(json_array_get(json_object_get(in, "bone_lengths"), 1));
        const float d = sqrtf(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
        const float cos_elbow = (l1 * l1 + l2 * l2 - d * d) / (2.0f * l1 * l2);
        printf("bug 16 %s: float32 |target| %.17g (trace %.17g), l1+l2 %.17g (trace %.17g), "
               "naive cos %.17g (trace %.17g)\n", names[k], (double)d,
               json_real_value(json_object_get(naive, "dist")), (double)(l1 + l2),
               json_real_value(json_object_get(naive, "l1_plus_l2")), (double)cos_elbow,
               json_real_value(json_object_get(naive, "cos_elbow")));
        ck_assert(d == (float)json_real_value(json_object_get(naive, "dist")));
        ck_assert(l1 + l2 == (float)json_real_value(json_object_get(naive, "l1_plus_l2")));
        ck_assert_msg(cos_elbow < -1.0f, "the naive argument %.9g is inside [-1, 1]: the case "
                      "would not exercise the clamp", (double)cos_elbow);

        tendon_ik_two_bone_result r;
        ck_assert_int_eq(tendon_ik_two_bone(r0, m0, e0, t, p, 1.0, &r), TENDON_OK);
        for (int c = 0; c < 3; ++c)
            ck_assert_msg(r.mid[c] == r.mid[c] && r.end[c] == r.end[c] &&
                              r.upper_delta[c] == r.upper_delta[c] &&
                              r.lower_delta[c] == r.lower_delta[c],
                          "%s: NaN in the solution", names[k]);
        ck_assert(r.upper_delta[3] == r.upper_delta[3] && r.lower_delta[3] == r.lower_delta[3]);
        printf("bug 16 %s: mid (%.9g, %.9g, %.9g) end (%.9g, %.9g, %.9g)\n", names[k],
               (double)r.mid[0], (double)r.mid[1], (double)r.mid[2], (double)r.end[0],
               (double)r.end[1], (double)r.end[2]);
        expect3(r.mid, wm[0], wm[1], wm[2], tol, names[k]);
        expect3(r.end, we[0], we[1], we[2], tol, names[k]);
        ck_assert_double_le(fabs(dist(r.mid, r0) - l1), tol);
        ck_assert_double_le(fabs(dist(r.end, r.mid) - l2), tol);
        ck_assert_double_le(dist(r.end, t), tol);
        expect_deltas_consistent(r0, m0, e0, &r, tol);
    }
    json_decref(root);
}
END_TEST

#define IK_RANDOM_CHAINS_HASH 0xefb77838548f9dceull

/* Random chains, targets (inside, outside, exactly at full reach, at the root) and poles: never a
 * NaN; at weight 1 the bone lengths are kept, the end is at the target when it is reachable (and
 * on the ray toward it, at the clamped distance, when not), and the elbow is on the pole's side
 * of the line root → target. Tolerances are relative to the chain's size (float32 geometry). */
START_TEST(test_random_chains)
{
    test_rng rng;
    rng_seed(&rng, 0x1b1b1b1bu);
    size_t reachable = 0, at_full_reach = 0;
    uint64_t hash = 0xcbf29ce484222325u; /* FNV-1a over every output's bits */
    for (int i = 0; i < 20000; ++i) {
        float r0[3], m0[3], e0[3], t[3], p[3];
        for (int c = 0; c < 3; ++c) {
            r0[c] = (float)rng_range(&rng, -2, 2);
            m0[c] = r0[c] + (float)rng_range(&rng, -1, 1);
            e0[c] = m0[c] + (float)rng_range(&rng, -1, 1);
            p[c] = (float)rng_range(&rng, -3, 3);
        }
        const double l1 = dist(m0, r0), l2 = dist(e0, m0);
        if (l1 < 0.05 || l2 < 0.05)
            continue;
        const int kind = i % 4;
        double dir[3] = {rng_range(&rng, -1, 1), rng_range(&rng, -1, 1), rng_range(&rng, -1, 1)};
        const double dl = sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
        const double reach = kind == 0 ? l1 + l2 : kind == 1 ? rng_range(&rng, 0, 3 * (l1 + l2))
                                       : kind == 2 ? 0.0 : rng_range(&rng, fabs(l1 - l2), l1 + l2);
        for (int c = 0; c < 3; ++c)
            t[c] = (float)(r0[c] + dir[c] / dl * reach);
        tendon_ik_two_bone_result r;
        const double w = (i % 3 == 0) ? 0.3 : 1.0;
        ck_assert_int_eq(tendon_ik_two_bone(r0, m0, e0, t, p, w, &r), TENDON_OK);
        for (int c = 0; c < 3; ++c)
            ck_assert_msg(r.mid[c] == r.mid[c] && r.end[c] == r.end[c], "chain %d: NaN", i);
        for (int c = 0; c < 4; ++c)
            ck_assert(r.upper_delta[c] == r.upper_delta[c] && r.lower_delta[c] == r.lower_delta[c]);
        {
            uint32_t words[15];
            for (int c = 0; c < 3; ++c) {
                words[c] = float_bits(r.mid[c]);
                words[3 + c] = float_bits(r.end[c]);
            }
            for (int c = 0; c < 4; ++c) {
                words[6 + c] = float_bits(r.upper_delta[c]);
                words[10 + c] = float_bits(r.lower_delta[c]);
            }
            words[14] = (uint32_t)r.reachable;
            for (int k = 0; k < 15; ++k)
                for (int b = 0; b < 4; ++b) {
                    hash ^= (words[k] >> (8 * b)) & 0xffu;
                    hash *= 0x100000001b3u;
                }
        }
        const double size = l1 + l2 + 4.0, tol = 2e-6 * size;
        ck_assert_msg(fabs(dist(r.mid, r0) - l1) <= tol && fabs(dist(r.end, r.mid) - l2) <= tol,
                      "chain %d: bone lengths %.9g %.9g, expected %.9g %.9g", i, dist(r.mid, r0),
                      dist(r.end, r.mid), l1, l2);
        if (w != 1.0)
            continue;
        const double d = dist(t, r0);
        if (kind == 0)
            ++at_full_reach;
        /* The end is at the distance clamped to the reach, toward the target (on it when the
         * target is within reach); the solver's own float32 classification only counts. */
        reachable += (size_t)r.reachable;
        if (d > 0) {
            const double lo = fabs(l1 - l2), hi = l1 + l2;
            const double want = d > hi ? hi : d < lo ? lo : d;
            ck_assert_msg(fabs(dist(r.end, r0) - want) <= tol, "chain %d: end at %.9g, expected "
                          "%.9g (d %.9g, l1 %.9g, l2 %.9g, kind %d)", i, dist(r.end, r0), want, d,
                          l1, l2, kind);
            double along = 0;
            for (int c = 0; c < 3; ++c)
                along += ((double)r.end[c] - r0[c]) * (((double)t[c] - r0[c]) / d);
            ck_assert_msg(fabs(along - want) <= tol, "chain %d: the end is not toward the "
                          "target (%.9g along it, %.9g away)", i, along, dist(r.end, r0));
            if (d >= lo && d <= hi)
                ck_assert_msg(dist(r.end, t) <= tol, "chain %d: end %.9g from a reachable "
                              "target", i, dist(r.end, t));
        }
        /* The elbow's side: its offset from the line has a non-negative component along the
         * pole's offset from the line (when both are clearly off the line). */
        if (d > 1e-3) {
            double u[3], pm[3], pp[3], km = 0, kp = 0;
            for (int c = 0; c < 3; ++c) {
                u[c] = ((double)t[c] - r0[c]) / d;
                km += ((double)r.mid[c] - r0[c]) * u[c];
                kp += ((double)p[c] - r0[c]) * u[c];
            }
            double nm = 0, np = 0, dot = 0;
            for (int c = 0; c < 3; ++c) {
                pm[c] = (double)r.mid[c] - r0[c] - km * u[c];
                pp[c] = (double)p[c] - r0[c] - kp * u[c];
                nm += pm[c] * pm[c];
                np += pp[c] * pp[c];
                dot += pm[c] * pp[c];
            }
            if (sqrt(nm) > 1e-3 && sqrt(np) > 1e-3)
                ck_assert_msg(dot > 0, "chain %d: the elbow bends away from the pole", i);
        }
    }
    printf("random chains: %zu reachable at weight 1, %zu aimed at exactly full reach; outputs "
           "hash to %016llx\n", reachable, at_full_reach, (unsigned long long)hash);
    /* Determinism: the float32 solver gives the same bits on every compiler and machine of the
     * project (-ffp-contract=off, correctly rounded √ and ÷, the double slerp of the pose
     * kernels). The golden hash was recorded on x86-64 (gcc 12) and holds under qemu-aarch64. */
    ck_assert_msg(hash == IK_RANDOM_CHAINS_HASH, "the random chains hash to %016llx, not the "
                  "recorded %016llx: the solver's bits changed", (unsigned long long)hash,
                  (unsigned long long)IK_RANDOM_CHAINS_HASH);
    ck_assert_uint_gt(reachable, 5000);
}
END_TEST

/* Set a joint's rotation to angle_rad about a unit axis. */
static void set_rot(tendon_pose *p, size_t j, double ax, double ay, double az, double angle_rad)
{
    p->rotation[4 * j] = (float)(ax * sin(angle_rad / 2));
    p->rotation[4 * j + 1] = (float)(ay * sin(angle_rad / 2));
    p->rotation[4 * j + 2] = (float)(az * sin(angle_rad / 2));
    p->rotation[4 * j + 3] = (float)cos(angle_rad / 2);
}

/*
 * The pose form, end to end: a leg (hips → thigh → calf → foot) with rest rotations on every
 * joint and the character placed by a root matrix (turned 30° about y, moved). After
 * tendon_ik_two_bone_pose, the model matrices recomputed from the pose — an independent path
 * (tendon_pose_model_matrices, float32 matrices) — put the foot on the target and the knee where
 * the world-space solution says; the hips do not move; translations and scales are untouched.
 */
START_TEST(test_pose_chain)
{
    static const int32_t parents[4] = {-1, 0, 1, 2};
    tendon_pose pose, placement;
    ck_assert_int_eq(tendon_pose_create(4, &pose), TENDON_OK);
    ck_assert_int_eq(tendon_pose_create(1, &placement), TENDON_OK);
    pose.translation[1] = 1.0f;
    set_rot(&pose, 0, 0, 1, 0, M_PI / 2);
    pose.translation[3] = 0.1f;
    set_rot(&pose, 1, 0, 0, 1, M_PI);
    pose.translation[7] = 0.45f;
    set_rot(&pose, 2, 1, 0, 0, M_PI / 18);
    pose.translation[10] = 0.4f;
    tendon_skeleton_desc sd = {4, parents, NULL, NULL};
    tendon_skeleton *sk = NULL;
    ck_assert_int_eq(tendon_skeleton_create(&sd, &sk), TENDON_OK);
    placement.translation[0] = 5.0f;
    placement.translation[2] = -2.0f;
    set_rot(&placement, 0, 0, 1, 0, M_PI / 6);
    float root_matrix[16], model[64], after[64];
    ck_assert_int_eq(tendon_local_matrices(&placement, root_matrix), TENDON_OK);
    ck_assert_int_eq(tendon_pose_model_matrices(sk, &pose, root_matrix, model), TENDON_OK);
    const float *thigh = model + 16 + 12;
    const float target[3] = {thigh[0] + 0.3f, thigh[1] - 0.6f, thigh[2] + 0.2f};
    const float pole[3] = {thigh[0] + 1.0f, thigh[1] - 0.3f, thigh[2]};
    tendon_pose before;
    ck_assert_int_eq(tendon_pose_create(4, &before), TENDON_OK);
    ck_assert_int_eq(tendon_pose_copy(&pose, &before), TENDON_OK);

    tendon_ik_two_bone_result r;
    ck_assert_int_eq(tendon_ik_two_bone_pose(sk, model, 1, 2, 3, target, pole, 1.0, &pose, &r),
                     TENDON_OK);
    ck_assert_int_eq(r.reachable, 1);
    ck_assert_int_eq(tendon_pose_model_matrices(sk, &pose, root_matrix, after), TENDON_OK);
    expect3(after + 48 + 12, target[0], target[1], target[2], 2e-5, "foot after IK");
    expect3(after + 32 + 12, r.mid[0], r.mid[1], r.mid[2], 2e-5, "knee after IK");
    for (int i = 0; i < 16; ++i)
        ck_assert(float_bits(after[i]) == float_bits(model[i])); /* the hips */
    for (size_t i = 0; i < 12; ++i) {
        ck_assert(float_bits(pose.translation[i]) == float_bits(before.translation[i]));
        ck_assert(float_bits(pose.scale[i]) == float_bits(before.scale[i]));
    }
    for (int c = 0; c < 4; ++c) {
        ck_assert(float_bits(pose.rotation[c]) == float_bits(before.rotation[c]));
        ck_assert(float_bits(pose.rotation[12 + c]) == float_bits(before.rotation[12 + c]));
    }
    /* The knee bends toward the pole: its offset from the hip → foot line points the pole's way. */
    double u[3], d = 0, k = 0, kp = 0, dot = 0;
    for (int c = 0; c < 3; ++c) {
        u[c] = (double)target[c] - thigh[c];
        d += u[c] * u[c];
    }
    d = sqrt(d);
    for (int c = 0; c < 3; ++c) {
        u[c] /= d;
        k += ((double)after[44 + c] - thigh[c]) * u[c];
        kp += ((double)pole[c] - thigh[c]) * u[c];
    }
    for (int c = 0; c < 3; ++c)
        dot += ((double)after[44 + c] - thigh[c] - k * u[c]) * ((double)pole[c] - thigh[c] - kp * u[c]);
    ck_assert_msg(dot > 0, "the knee bends away from the pole");

    /* Weight 0 leaves the rotations (to a rounding of the conjugation by W). */
    tendon_pose_copy(&before, &pose);
    ck_assert_int_eq(tendon_ik_two_bone_pose(sk, model, 1, 2, 3, target, pole, 0.0, &pose, NULL),
                     TENDON_OK);
    for (size_t i = 0; i < 16; ++i)
        ck_assert_msg(fabs((double)pose.rotation[i] - before.rotation[i]) <= 1.2e-7,
                      "rotation[%zu] moved at weight 0: %.9g vs %.9g", i,
                      (double)pose.rotation[i], (double)before.rotation[i]);

    /* Refusals, and nothing written. */
    tendon_pose_copy(&before, &pose);
    ck_assert_int_eq(tendon_ik_two_bone_pose(sk, model, 1, 3, 2, target, pole, 1.0, &pose, NULL),
                     TENDON_ERR_RANGE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "not a chain"));
    ck_assert_int_eq(tendon_ik_two_bone_pose(sk, model, 1, 2, 4, target, pole, 1.0, &pose, NULL),
                     TENDON_ERR_RANGE);
    ck_assert_int_eq(tendon_ik_two_bone_pose(sk, NULL, 1, 2, 3, target, pole, 1.0, &pose, NULL),
                     TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_ik_two_bone_pose(sk, model, 1, 2, 3, target, pole, 1.0, &placement,
                                             NULL), TENDON_ERR_COUNT);
    float zero_scale[64];
    memcpy(zero_scale, model, sizeof zero_scale);
    zero_scale[16] = zero_scale[17] = zero_scale[18] = 0.0f;
    ck_assert_int_eq(tendon_ik_two_bone_pose(sk, zero_scale, 1, 2, 3, target, pole, 1.0, &pose,
                                             NULL), TENDON_ERR_VALUE);
    /* an infinite or NaN element: a column of length ∞ or NaN (∞ was accepted, and ∞/∞ wrote
       NaN rotations into the pose with TENDON_OK; found by a review) */
    static const float bad[2] = {INFINITY, NAN};
    for (int b = 0; b < 2; ++b) {
        memcpy(zero_scale, model, sizeof zero_scale);
        zero_scale[16] = bad[b];
        ck_assert_int_eq(tendon_ik_two_bone_pose(sk, zero_scale, 1, 2, 3, target, pole, 1.0,
                                                 &pose, NULL), TENDON_ERR_VALUE);
        ck_assert_ptr_nonnull(strstr(tendon_error_message(), "matrix of joint 1 has a column of "
                                                             "length 0, infinity or NaN"));
    }
    const float nan_target[3] = {NAN, 0, 0};
    ck_assert_int_eq(tendon_ik_two_bone_pose(sk, model, 1, 2, 3, nan_target, pole, 1.0, &pose,
                                             NULL), TENDON_ERR_VALUE);
    for (size_t i = 0; i < 16; ++i)
        ck_assert(float_bits(pose.rotation[i]) == float_bits(before.rotation[i]));
    tendon_pose_destroy(&pose);
    tendon_pose_destroy(&before);
    tendon_pose_destroy(&placement);
    tendon_skeleton_destroy(sk);
}
END_TEST

/*
 * Mirrored rigs (found by review h33): a negative scale on a joint or above it makes the model
 * matrix's normalised columns a reflection (determinant −1), which Shepperd's method turned into
 * a wrong rotation, so the foot missed the target with TENDON_OK — by 0.4 m with the whole
 * character mirrored in x, 0.37 m under a uniform scale of −1 (which the header calls exact).
 * The leg with a twist joint of test_pose_chain_with_twist_joint, each mirror in turn: on the
 * placement, on the hips, on the thigh (the upper joint's own scale), on the twist joint (mid's
 * parent) and on the calf; the foot and the knee land where the solver says — on the target
 * whenever it is within reach (a mirror below the thigh can fold a bone back out of reach).
 */
START_TEST(test_pose_chain_mirrored)
{
    static const int32_t parents[5] = {-1, 0, 1, 2, 3};
    static const float mirrors[][3] = {{-1, 1, 1}, {1, 1, -1}, {-1, -1, -1}, {-2, 2, 2}};
    int reached = 0;
    for (int where = 0; where < 5; ++where)
        for (size_t k = 0; k < sizeof mirrors / sizeof mirrors[0]; ++k) {
            tendon_pose pose, placement;
            ck_assert_int_eq(tendon_pose_create(5, &pose), TENDON_OK);
            ck_assert_int_eq(tendon_pose_create(1, &placement), TENDON_OK);
            pose.translation[1] = 1.0f;
            set_rot(&pose, 0, 0, 0, 1, M_PI / 12);
            pose.translation[3] = 0.1f;
            set_rot(&pose, 1, 0, 0, 1, M_PI);
            pose.translation[7] = 0.2f;
            set_rot(&pose, 2, 0, 1, 0, M_PI / 9);
            pose.translation[10] = 0.25f;
            set_rot(&pose, 3, 1, 0, 0, M_PI / 12);
            pose.translation[13] = 0.4f;
            placement.translation[0] = -1.0f;
            set_rot(&placement, 0, 1, 0, 0, M_PI / 7);
            float *scale = where == 4 ? placement.scale : pose.scale + 3 * where;
            memcpy(scale, mirrors[k], sizeof mirrors[k]);
            tendon_skeleton_desc sd = {5, parents, NULL, NULL};
            tendon_skeleton *sk = NULL;
            ck_assert_int_eq(tendon_skeleton_create(&sd, &sk), TENDON_OK);
            float root_matrix[16], model[80], after[80];
            ck_assert_int_eq(tendon_local_matrices(&placement, root_matrix), TENDON_OK);
            ck_assert_int_eq(tendon_pose_model_matrices(sk, &pose, root_matrix, model), TENDON_OK);
            const float *thigh = model + 16 + 12;
            const float target[3] = {thigh[0] - 0.2f, thigh[1] - 0.55f, thigh[2] + 0.3f};
            const float pole[3] = {thigh[0], thigh[1] - 0.3f, thigh[2] + 1.0f};
            tendon_ik_two_bone_result r;
            ck_assert_int_eq(tendon_ik_two_bone_pose(sk, model, 1, 3, 4, target, pole, 1.0, &pose,
                                                     &r),
                             TENDON_OK);
            ck_assert_int_eq(tendon_pose_model_matrices(sk, &pose, root_matrix, after), TENDON_OK);
            char what[64];
            snprintf(what, sizeof what, "foot, mirror %zu on %s", k,
                     where == 4 ? "the placement" : (const char *[]){"hips", "thigh", "twist",
                                                                     "calf"}[where]);
            /* a mirror on the twist joint or the calf can put the target out of reach: the
               foot then goes where the solver put it, as the knee always does */
            if (r.reachable)
                expect3(after + 64 + 12, target[0], target[1], target[2], 4e-5, what);
            expect3(after + 64 + 12, r.end[0], r.end[1], r.end[2], 4e-5, what);
            expect3(after + 48 + 12, r.mid[0], r.mid[1], r.mid[2], 4e-5, what);
            reached += r.reachable;
            tendon_pose_destroy(&pose);
            tendon_pose_destroy(&placement);
            tendon_skeleton_destroy(sk);
        }
    ck_assert_int_ge(reached, 16);
}
END_TEST

/*
 * A solved bone shorter than half an ulp of the coordinates it is added to rounds to the zero
 * vector (found by review h33): the root at (1e6, 1e7, 0), where the ulps are 1/16 m and 1 m, a
 * chain of two 1/16 m bones along +x and a target 100 m up +y. mid' = root + u·l1 rounds to the
 * root itself, and upper_delta used to be the arc from +x to the default +z — 90° about −y,
 * turning the bone away from the target. It is the arc from +x to +y.
 */
START_TEST(test_solved_bone_below_an_ulp)
{
    const float root[3] = {1e6f, 1e7f, 0}, mid[3] = {1e6f + 0.0625f, 1e7f, 0},
                end[3] = {1e6f + 0.125f, 1e7f, 0}, target[3] = {1e6f, 1e7f + 100, 0};
    tendon_ik_two_bone_result r;
    ck_assert_int_eq(tendon_ik_two_bone(root, mid, end, target, NULL, 1.0, &r), TENDON_OK);
    const float h = (float)sqrt(0.5);
    ck_assert_msg(fabs((double)r.upper_delta[0]) <= 1e-7 && fabs((double)r.upper_delta[1]) <= 1e-7 &&
                      fabs((double)r.upper_delta[2] - h) <= 1e-7 &&
                      fabs((double)r.upper_delta[3] - h) <= 1e-7,
                  "upper_delta (%g, %g, %g, %g) is not the arc from +x to +y",
                  (double)r.upper_delta[0], (double)r.upper_delta[1], (double)r.upper_delta[2],
                  (double)r.upper_delta[3]);
    for (int c = 0; c < 4; ++c) /* the straight chain needs no bend */
        ck_assert(fabs((double)r.lower_delta[c] - (c == 3)) <= 1e-7);
}
END_TEST

/* Chains at the extremes of scale — bones of 1e-30 m (squares underflow to 0) and of 1e17 m
 * (squares near 1e34) — and targets at the ±1e18 m limit: never a NaN. */
/* A twist joint between the thigh and the calf (rotated 20° about its bone, and offset along
 * it): the chain thigh → calf → foot still lands the foot on the target, the twist joint is
 * carried rigidly (its local transform untouched). */
START_TEST(test_pose_chain_with_twist_joint)
{
    static const int32_t parents[5] = {-1, 0, 1, 2, 3};
    tendon_pose pose, placement, before;
    ck_assert_int_eq(tendon_pose_create(5, &pose), TENDON_OK);
    ck_assert_int_eq(tendon_pose_create(5, &before), TENDON_OK);
    ck_assert_int_eq(tendon_pose_create(1, &placement), TENDON_OK);
    pose.translation[1] = 1.0f;
    set_rot(&pose, 0, 0, 0, 1, M_PI / 12);
    pose.translation[3] = 0.1f;
    set_rot(&pose, 1, 0, 0, 1, M_PI);
    pose.translation[7] = 0.2f;             /* twist, halfway down the thigh */
    set_rot(&pose, 2, 0, 1, 0, M_PI / 9);   /* 20° about the bone */
    pose.translation[10] = 0.25f;           /* calf, from the twist joint */
    set_rot(&pose, 3, 1, 0, 0, M_PI / 12);
    pose.translation[13] = 0.4f;            /* foot */
    tendon_skeleton_desc sd = {5, parents, NULL, NULL};
    tendon_skeleton *sk = NULL;
    ck_assert_int_eq(tendon_skeleton_create(&sd, &sk), TENDON_OK);
    placement.translation[0] = -1.0f;
    set_rot(&placement, 0, 1, 0, 0, M_PI / 7);
    float root_matrix[16], model[80], after[80];
    ck_assert_int_eq(tendon_local_matrices(&placement, root_matrix), TENDON_OK);
    ck_assert_int_eq(tendon_pose_model_matrices(sk, &pose, root_matrix, model), TENDON_OK);
    const float *thigh = model + 16 + 12;
    const float target[3] = {thigh[0] - 0.2f, thigh[1] - 0.55f, thigh[2] + 0.3f};
    const float pole[3] = {thigh[0], thigh[1] - 0.3f, thigh[2] + 1.0f};
    ck_assert_int_eq(tendon_pose_copy(&pose, &before), TENDON_OK);
    tendon_ik_two_bone_result r;
    ck_assert_int_eq(tendon_ik_two_bone_pose(sk, model, 1, 3, 4, target, pole, 1.0, &pose, &r),
                     TENDON_OK);
    ck_assert_int_eq(r.reachable, 1);
    ck_assert_int_eq(tendon_pose_model_matrices(sk, &pose, root_matrix, after), TENDON_OK);
    expect3(after + 64 + 12, target[0], target[1], target[2], 2e-5, "foot after IK (twist)");
    expect3(after + 48 + 12, r.mid[0], r.mid[1], r.mid[2], 2e-5, "knee after IK (twist)");
    for (int c = 0; c < 4; ++c) /* hips, twist and foot keep their local rotations */
        ck_assert(float_bits(pose.rotation[c]) == float_bits(before.rotation[c]) &&
                  float_bits(pose.rotation[8 + c]) == float_bits(before.rotation[8 + c]) &&
                  float_bits(pose.rotation[16 + c]) == float_bits(before.rotation[16 + c]));
    /* end not below mid: refused */
    ck_assert_int_eq(tendon_ik_two_bone_pose(sk, model, 1, 3, 2, target, pole, 1.0, &pose, NULL),
                     TENDON_ERR_RANGE);
    ck_assert_int_eq(tendon_ik_two_bone_pose(sk, model, 3, 1, 4, target, pole, 1.0, &pose, NULL),
                     TENDON_ERR_RANGE);
    tendon_pose_destroy(&pose);
    tendon_pose_destroy(&before);
    tendon_pose_destroy(&placement);
    tendon_skeleton_destroy(sk);
}
END_TEST

START_TEST(test_extreme_scales)
{
    static const float scales[4] = {1e-30f, 1e-20f, 1e12f, 1e17f};
    test_rng rng;
    rng_seed(&rng, 0x5ca1e5u);
    for (int k = 0; k < 4; ++k)
        for (int i = 0; i < 500; ++i) {
            float r0[3], m0[3], e0[3], t[3], p[3];
            for (int c = 0; c < 3; ++c) {
                r0[c] = (float)rng_range(&rng, -1, 1) * scales[k];
                m0[c] = r0[c] + (float)rng_range(&rng, -1, 1) * scales[k];
                e0[c] = m0[c] + (float)rng_range(&rng, -1, 1) * scales[k];
                t[c] = i % 5 == 0 ? (c == 0 ? TENDON_IK_MAX_COORD_M : -TENDON_IK_MAX_COORD_M)
                                  : (float)rng_range(&rng, -3, 3) * scales[k];
                p[c] = (float)rng_range(&rng, -3, 3) * scales[k];
            }
            tendon_ik_two_bone_result r;
            tendon_status s = tendon_ik_two_bone(r0, m0, e0, t, p, i % 2 ? 0.5 : 1.0, &r);
            if (s == TENDON_ERR_VALUE)
                continue; /* a bone of length 0 after float rounding */
            ck_assert_int_eq(s, TENDON_OK);
            for (int c = 0; c < 3; ++c)
                ck_assert_msg(r.mid[c] == r.mid[c] && r.end[c] == r.end[c] &&
                                  r.mid[c] - r.mid[c] == 0.0f && r.end[c] - r.end[c] == 0.0f,
                              "scale %g chain %d: mid (%g, %g, %g) end (%g, %g, %g)",
                              (double)scales[k], i, (double)r.mid[0], (double)r.mid[1],
                              (double)r.mid[2], (double)r.end[0], (double)r.end[1],
                              (double)r.end[2]);
            for (int c = 0; c < 4; ++c)
                ck_assert(r.upper_delta[c] == r.upper_delta[c] &&
                          r.lower_delta[c] == r.lower_delta[c]);
        }
}
END_TEST

/* Found by a review: weight 0 gave root + (mid − root), rounded (here mid.x came back 0 instead
 * of 1e-8); a chain at subnormal scale with the pole on the target line lost its upper bone (the
 * "unit" vectors of subnormal lengths were 1e-5 off length 1, so the pole passed for a bend
 * plane); the same chain at 2^100 times the size solves to (0.5, 0.5, √½)·K. */
START_TEST(test_review_cases)
{
    tendon_ik_two_bone_result r;
    const float root[3] = {1, 0, 0}, mid[3] = {1e-8f, 1, 0}, end[3] = {0.3f, 2, 0},
                target[3] = {1, 1, 1};
    ck_assert_int_eq(tendon_ik_two_bone(root, mid, end, target, NULL, 0.0, &r), TENDON_OK);
    for (int c = 0; c < 3; ++c) {
        ck_assert(float_bits(r.mid[c]) == float_bits(mid[c]));
        ck_assert(float_bits(r.end[c]) == float_bits(end[c]));
    }
    for (int c = 0; c < 4; ++c)
        ck_assert(r.upper_delta[c] == (c == 3 ? 1.0f : 0.0f) &&
                  r.lower_delta[c] == (c == 3 ? 1.0f : 0.0f));

    const float k = 0x1.0fp-133f; /* ≈ 9.7e-41, subnormal */
    const float sr[3] = {0, 0, 0}, sm[3] = {0, 0, k}, se[3] = {0, 0, 2 * k}, st[3] = {k, k, 0};
    ck_assert_int_eq(tendon_ik_two_bone(sr, sm, se, st, st, 1.0, &r), TENDON_OK);
    ck_assert(r.reachable);
    /* the elbow in the bend plane of (mid − root), as at any other scale: (0.5, 0.5, √½)·k, to
       the subnormal grid's resolution (k has 9 significant bits) */
    const double want[3] = {0.5 * k, 0.5 * k, sqrt(0.5) * k};
    for (int c = 0; c < 3; ++c)
        ck_assert_msg(fabs((double)r.mid[c] - want[c]) <= 0.01 * k, "mid[%d] = %a, want %a", c,
                      (double)r.mid[c], want[c]);
    ck_assert_double_le(fabs(dist(r.mid, sr) - k), 0.01 * k);
    ck_assert(r.end[0] == st[0] && r.end[1] == st[1] && r.end[2] == st[2]);
}
END_TEST

START_TEST(test_errors)
{
    tendon_ik_two_bone_result r;
    memset(&r, 0x55, sizeof r);
    const float target[3] = {5, 0, 0}, pole[3] = {0, 10, 0};
    /* Zero-length bones, either one. */
    ck_assert_int_eq(tendon_ik_two_bone(ROOT, ROOT, END, target, pole, 1.0, &r), TENDON_ERR_VALUE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "zero length"));
    ck_assert_int_eq(tendon_ik_two_bone(ROOT, MID, MID, target, pole, 1.0, &r), TENDON_ERR_VALUE);
    ck_assert(r.reachable == 0x55555555); /* nothing written */
    const float nan3[3] = {0, NAN, 0}, inf3[3] = {INFINITY, 0, 0};
    ck_assert_int_eq(tendon_ik_two_bone(ROOT, MID, END, nan3, pole, 1.0, &r), TENDON_ERR_VALUE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "target"));
    ck_assert_int_eq(tendon_ik_two_bone(ROOT, MID, END, target, inf3, 1.0, &r), TENDON_ERR_VALUE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "pole"));
    ck_assert_int_eq(tendon_ik_two_bone(inf3, MID, END, target, pole, 1.0, &r), TENDON_ERR_VALUE);
    ck_assert_int_eq(tendon_ik_two_bone(ROOT, MID, END, target, pole, NAN, &r), TENDON_ERR_VALUE);
    const float huge[3] = {0, 2e18f, 0};
    ck_assert_int_eq(tendon_ik_two_bone(ROOT, MID, END, huge, pole, 1.0, &r), TENDON_ERR_VALUE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "1e18"));
    ck_assert_int_eq(tendon_ik_two_bone(NULL, MID, END, target, pole, 1.0, &r), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_ik_two_bone(ROOT, MID, END, NULL, pole, 1.0, &r), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_ik_two_bone(ROOT, MID, END, target, pole, 1.0, NULL), TENDON_ERR_NULL);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("ik");
    TCase *tc = tcase_create("two_bone");
    tcase_add_test(tc, test_reachable_345);
    tcase_add_test(tc, test_unreachable_and_folded);
    tcase_add_test(tc, test_weight);
    tcase_add_test(tc, test_bug_case_16);
    tcase_add_test(tc, test_random_chains);
    tcase_add_test(tc, test_pose_chain);
    tcase_add_test(tc, test_pose_chain_with_twist_joint);
    tcase_add_test(tc, test_extreme_scales);
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_review_cases);
    tcase_add_test(tc, test_pose_chain_mirrored);
    tcase_add_test(tc, test_solved_bone_below_an_ulp);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
