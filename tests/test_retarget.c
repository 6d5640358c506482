/*
 * Retargeting by joint name (tendon/retarget.h) between two differently proportioned rigs,
 * against values worked by hand; unmatched joints; every refusal.
 *
 *   source ("tall"):  0 hips (0, 1, 0)   1 spine (0, 0.5, 0)   2 head (0, 0.3, 0)
 *                     3 arm (0.4, 0.2, 0), child of spine       4 tail (0, 0, −0.5), of hips
 *   target ("short"): 0 hips (0, 0.8, 0) 1 spine (0, 0.25, 0), rest 10° about x
 *                     2 arm (0.2, 0.1, 0), of spine  3 hand (0.1, 0, 0), of arm   4 head (0, 0.3, 0)
 *
 * Bone-length ratios: hips 0.8, spine 0.5, arm |(0.2, 0.1)| / |(0.4, 0.2)| = 0.5, head 1.
 * hand has no source (stays at rest, reported); tail has no target (reported as unused).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "support.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static const int32_t SRC_PARENTS[5] = {-1, 0, 1, 1, 0};
static const char *const SRC_NAMES[5] = {"hips", "spine", "head", "arm", "tail"};
static const int32_t DST_PARENTS[5] = {-1, 0, 1, 2, 1};
static const char *const DST_NAMES[5] = {"hips", "spine", "arm", "hand", "head"};

typedef struct rigs {
    tendon_skeleton *src, *dst;
    tendon_pose src_rest, dst_rest;
} rigs;

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

static void set_t(tendon_pose *p, size_t j, float x, float y, float z)
{
    p->translation[3 * j] = x;
    p->translation[3 * j + 1] = y;
    p->translation[3 * j + 2] = z;
}

static void rigs_make(rigs *r, int named_src)
{
    ck_assert_int_eq(tendon_pose_create(5, &r->src_rest), TENDON_OK);
    ck_assert_int_eq(tendon_pose_create(5, &r->dst_rest), TENDON_OK);
    set_t(&r->src_rest, 0, 0, 1, 0);
    set_t(&r->src_rest, 1, 0, 0.5f, 0);
    set_t(&r->src_rest, 2, 0, 0.3f, 0);
    set_t(&r->src_rest, 3, 0.4f, 0.2f, 0);
    set_t(&r->src_rest, 4, 0, 0, -0.5f);
    set_t(&r->dst_rest, 0, 0, 0.8f, 0);
    set_t(&r->dst_rest, 1, 0, 0.25f, 0);
    set_t(&r->dst_rest, 2, 0.2f, 0.1f, 0);
    set_t(&r->dst_rest, 3, 0.1f, 0, 0);
    set_t(&r->dst_rest, 4, 0, 0.3f, 0);
    double q[4];
    axis_quat(1, 0, 0, M_PI / 18, q);
    for (int c = 0; c < 4; ++c)
        r->dst_rest.rotation[4 + c] = (float)q[c];
    tendon_skeleton_desc ds = {5, SRC_PARENTS, named_src ? SRC_NAMES : NULL, &r->src_rest};
    tendon_skeleton_desc dd = {5, DST_PARENTS, DST_NAMES, &r->dst_rest};
    ck_assert_int_eq(tendon_skeleton_create(&ds, &r->src), TENDON_OK);
    ck_assert_int_eq(tendon_skeleton_create(&dd, &r->dst), TENDON_OK);
}

static void rigs_free(rigs *r)
{
    tendon_skeleton_destroy(r->src);
    tendon_skeleton_destroy(r->dst);
    tendon_pose_destroy(&r->src_rest);
    tendon_pose_destroy(&r->dst_rest);
}

static void expect_t(const tendon_pose *p, size_t j, double x, double y, double z,
                     const char *what)
{
    const double want[3] = {x, y, z};
    for (int c = 0; c < 3; ++c)
        ck_assert_msg(float_bits(p->translation[3 * j + c]) == float_bits((float)want[c]) ||
                          float_ulp_distance(p->translation[3 * j + c], (float)want[c]) == 1,
                      "%s translation[%d] = %.9g, expected %.9g", what, c,
                      (double)p->translation[3 * j + c], want[c]);
}

static void expect_q(const tendon_pose *p, size_t j, const double q[4], const char *what)
{
    for (int c = 0; c < 4; ++c)
        ck_assert_msg(fabs((double)p->rotation[4 * j + c] - q[c]) <= 1.2e-7,
                      "%s rotation[%d] = %.9g, expected %.9g", what, c,
                      (double)p->rotation[4 * j + c], q[c]);
}

START_TEST(test_by_hand)
{
    rigs r;
    rigs_make(&r, 1);
    tendon_retarget_map *map = NULL;
    ck_assert_int_eq(tendon_retarget_map_create(r.src, r.dst, &map), TENDON_OK);

    tendon_pose pose, out;
    ck_assert_int_eq(tendon_pose_create(5, &pose), TENDON_OK);
    ck_assert_int_eq(tendon_pose_create(5, &out), TENDON_OK);
    ck_assert_int_eq(tendon_pose_copy(&r.src_rest, &pose), TENDON_OK);
    /* hips moved by (0.2, 0.1, 0.3) from rest; spine stretched 0.1 and turned 30° about z;
     * arm moved (−0.1, 0, 0.2) and turned 90° about y; head scaled 2 in y. */
    set_t(&pose, 0, 0.2f, 1.1f, 0.3f);
    set_t(&pose, 1, 0, 0.6f, 0);
    set_t(&pose, 3, 0.3f, 0.2f, 0.2f);
    double q30z[4], q90y[4], q10x[4], want[4];
    axis_quat(0, 0, 1, M_PI / 6, q30z);
    axis_quat(0, 1, 0, M_PI / 2, q90y);
    axis_quat(1, 0, 0, M_PI / 18, q10x);
    for (int c = 0; c < 4; ++c) {
        pose.rotation[4 + c] = (float)q30z[c];
        pose.rotation[12 + c] = (float)q90y[c];
    }
    pose.scale[3 * 2 + 1] = 2.0f;
    ck_assert_int_eq(tendon_retarget_pose(map, &pose, &out), TENDON_OK);

    /* hips: (0, 0.8, 0) + (0.2, 0.1f − 0, 0.3)·0.8 (ratio 0.8 / 1) */
    expect_t(&out, 0, 0.2f * 0.8, 0.8f + ((double)1.1f - 1.0) * 0.8, 0.3f * 0.8, "hips");
    /* spine: (0, 0.25, 0) + (0, 0.6f − 0.5f, 0)·0.5; rotation rest_t ⊗ 30° about z */
    expect_t(&out, 1, 0, 0.25 + ((double)0.6f - 0.5) * 0.5, 0, "spine");
    mul(q10x, q30z, want);
    expect_q(&out, 1, want, "spine");
    /* arm (target joint 2): (0.2, 0.1, 0) + (0.3f − 0.4f, 0, 0.2f)·0.5, rotation 90° about y */
    const double arm_ratio = sqrt((double)0.2f * 0.2f + (double)0.1f * 0.1f) /
                             sqrt((double)0.4f * 0.4f + (double)0.2f * 0.2f);
    ck_assert_double_le(fabs(arm_ratio - 0.5), 1e-7);
    expect_t(&out, 2, 0.2f + ((double)0.3f - 0.4f) * arm_ratio, 0.1f, 0.2f * arm_ratio, "arm");
    expect_q(&out, 2, q90y, "arm");
    /* hand: no source joint — the target's rest, bit for bit. */
    for (int c = 0; c < 3; ++c)
        ck_assert(float_bits(out.translation[9 + c]) == float_bits(r.dst_rest.translation[9 + c]));
    for (int c = 0; c < 4; ++c)
        ck_assert(float_bits(out.rotation[12 + c]) == float_bits(r.dst_rest.rotation[12 + c]));
    /* head (target joint 4): scale 1 · 2 / 1 = 2 in y; translation unchanged (ratio 1). */
    ck_assert(out.scale[3 * 4 + 1] == 2.0f && out.scale[3 * 4] == 1.0f);
    expect_t(&out, 4, 0, 0.3f, 0, "head");

    const size_t *unmatched;
    size_t count, unused;
    ck_assert_int_eq(tendon_retarget_map_unmatched(map, &unmatched, &count, &unused), TENDON_OK);
    ck_assert_uint_eq(count, 1);
    ck_assert_uint_eq(unmatched[0], 3); /* hand */
    ck_assert_uint_eq(unused, 1);       /* tail */
    size_t src_joint;
    ck_assert_int_eq(tendon_retarget_map_source_joint(map, 2, &src_joint), TENDON_OK);
    ck_assert_uint_eq(src_joint, 3);
    ck_assert_int_eq(tendon_retarget_map_source_joint(map, 3, &src_joint), TENDON_ERR_NOT_FOUND);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "\"hand\""));
    ck_assert_int_eq(tendon_retarget_map_source_joint(map, 5, &src_joint), TENDON_ERR_RANGE);

    tendon_pose_destroy(&pose);
    tendon_pose_destroy(&out);
    tendon_retarget_map_destroy(map);
    rigs_free(&r);
}
END_TEST

/* The source at rest gives the target at rest: translations and scales exactly, rotations
 * within a float32 ulp (rest ⊗ (rest⁻¹ ⊗ rest) renormalised). */
START_TEST(test_rest_to_rest)
{
    rigs r;
    rigs_make(&r, 1);
    tendon_retarget_map *map = NULL;
    ck_assert_int_eq(tendon_retarget_map_create(r.src, r.dst, &map), TENDON_OK);
    tendon_pose out;
    ck_assert_int_eq(tendon_pose_create(5, &out), TENDON_OK);
    ck_assert_int_eq(tendon_retarget_pose(map, &r.src_rest, &out), TENDON_OK);
    for (size_t i = 0; i < 15; ++i) {
        ck_assert(float_bits(out.translation[i]) == float_bits(r.dst_rest.translation[i]));
        ck_assert(float_bits(out.scale[i]) == float_bits(r.dst_rest.scale[i]));
    }
    for (size_t i = 0; i < 20; ++i)
        ck_assert_msg(float_ulp_distance(out.rotation[i], r.dst_rest.rotation[i]) <= 1 ||
                          (out.rotation[i] == 0.0f && r.dst_rest.rotation[i] == 0.0f),
                      "rotation[%zu] %a vs rest %a", i, (double)out.rotation[i],
                      (double)r.dst_rest.rotation[i]);
    tendon_pose_destroy(&out);
    tendon_retarget_map_destroy(map);
    rigs_free(&r);
}
END_TEST

START_TEST(test_errors)
{
    rigs r;
    rigs_make(&r, 0);
    tendon_retarget_map *map = (tendon_retarget_map *)&r;
    ck_assert_int_eq(tendon_retarget_map_create(r.src, r.dst, &map), TENDON_ERR_VALUE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "source skeleton has no joint names"));
    ck_assert_ptr_null(map);
    ck_assert_int_eq(tendon_retarget_map_create(NULL, r.dst, &map), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_retarget_map_create(r.src, r.dst, NULL), TENDON_ERR_NULL);
    rigs_free(&r);

    rigs_make(&r, 1);
    ck_assert_int_eq(tendon_retarget_map_create(r.src, r.dst, &map), TENDON_OK);
    tendon_pose four, five, out;
    ck_assert_int_eq(tendon_pose_create(4, &four), TENDON_OK);
    ck_assert_int_eq(tendon_pose_create(5, &five), TENDON_OK);
    ck_assert_int_eq(tendon_pose_create(5, &out), TENDON_OK);
    ck_assert_int_eq(tendon_retarget_pose(map, &four, &out), TENDON_ERR_COUNT);
    ck_assert_int_eq(tendon_retarget_pose(map, &five, &four), TENDON_ERR_COUNT);
    ck_assert_int_eq(tendon_retarget_pose(map, &five, &five), TENDON_ERR_ALIAS);
    ck_assert_int_eq(tendon_retarget_pose(NULL, &five, &out), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_retarget_pose(map, NULL, &out), TENDON_ERR_NULL);
    const size_t *u;
    size_t n;
    ck_assert_int_eq(tendon_retarget_map_unmatched(map, NULL, &n, NULL), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_retarget_map_unmatched(map, &u, &n, NULL), TENDON_OK);
    tendon_pose_destroy(&four);
    tendon_pose_destroy(&five);
    tendon_pose_destroy(&out);
    tendon_retarget_map_destroy(map);
    tendon_retarget_map_destroy(NULL);
    rigs_free(&r);

    /* A paired joint's rest transform with a NaN or infinite component is refused by name: it
       made that joint NaN in every frame, with TENDON_OK (found by review h33). An unpaired
       joint's rest is not read by the map (the source's tail) and stays accepted. */
    static const struct {
        int target;
        size_t joint;
        int array, component;
        float value;
        const char *message;
    } bad[] = {
        {0, 1, 1, 0, NAN, "source skeleton's joint 1 (\"spine\") has rest rotation[0] = nan"},
        {1, 2, 0, 2, INFINITY, "target skeleton's joint 2 (\"arm\") has rest translation[2] = inf"},
        {0, 0, 2, 1, -INFINITY, "source skeleton's joint 0 (\"hips\") has rest scale[1] = -inf"},
        {0, 4, 1, 3, NAN, NULL},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; ++k) {
        rigs_make(&r, 1);
        tendon_pose *rest = bad[k].target ? &r.dst_rest : &r.src_rest;
        float *arrays[3] = {rest->translation + 3 * bad[k].joint,
                            rest->rotation + 4 * bad[k].joint, rest->scale + 3 * bad[k].joint};
        arrays[bad[k].array][bad[k].component] = bad[k].value;
        tendon_skeleton *with_bad = NULL;
        tendon_skeleton_desc d = {5, bad[k].target ? DST_PARENTS : SRC_PARENTS,
                                  bad[k].target ? DST_NAMES : SRC_NAMES, rest};
        ck_assert_int_eq(tendon_skeleton_create(&d, &with_bad), TENDON_OK);
        map = (tendon_retarget_map *)&r;
        const tendon_status st = bad[k].target ? tendon_retarget_map_create(r.src, with_bad, &map)
                                               : tendon_retarget_map_create(with_bad, r.dst, &map);
        if (bad[k].message) {
            ck_assert_int_eq(st, TENDON_ERR_VALUE);
            ck_assert_msg(strstr(tendon_error_message(), bad[k].message), "%s",
                          tendon_error_message());
            ck_assert_ptr_null(map);
        } else {
            ck_assert_int_eq(st, TENDON_OK);
            tendon_retarget_map_destroy(map);
        }
        tendon_skeleton_destroy(with_bad);
        rigs_free(&r);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("retarget");
    TCase *tc = tcase_create("retarget");
    tcase_add_test(tc, test_by_hand);
    tcase_add_test(tc, test_rest_to_rest);
    tcase_add_test(tc, test_errors);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
