/*
 * Skeletons, local and model matrices, inverse bind matrices, the palette (tendon/skeleton.h).
 *
 * Oracles: hand-computed rigs (exact small-integer matrices: non-uniform and negative scale, a
 * root matrix, a non-unit quaternion, a binding in another order than the skeleton); cglm
 * (glm_quat_mat4, glm_mat4_mul, glm_mat4_inv) within a stated tolerance; and, for every ISA,
 * the scalar table bit for bit over counts 0..67 and 1031 with unaligned buffers.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "skin_support.h"
#include "common/kernels_internal.h" /* tendon_kernels_for_vendor: both vendors' tables */

/* cglm comparisons: float32 against float32 with another rounding order (cglm normalises the
 * quaternion, we do not; products in the same order but a chain of them). 2e-5 of the matrix's
 * magnitude covers a few ulps per product through the random skeletons' depths (< 12). */
#define CGLM_TOL 2e-5

static void assert_mat_exact(const float *got, const float *expected, const char *what)
{
    for (int e = 0; e < 16; ++e)
        ck_assert_msg(got[e] == expected[e], "%s element %d: got %.9g, expected %.9g", what, e,
                      (double)got[e], (double)expected[e]);
}

static tendon_skeleton *make_skeleton(const int32_t *parents, const char *const *names, size_t n,
                                      const tendon_pose *rest)
{
    tendon_skeleton_desc d = {.joint_count = n, .parents = parents, .names = names, .rest = rest};
    tendon_skeleton *s = NULL;
    tendon_status st = tendon_skeleton_create(&d, &s);
    ck_assert_msg(st == TENDON_OK, "skeleton_create: %s", tendon_error_message());
    return s;
}

/*
 * Random parents in DFS pre-order (what tendon_skeleton_create requires): −1 for joint 0 and ~8%
 * of the others; otherwise the joint just before (half the time: a chain link) or one of its
 * ancestors, uniformly on that path. (skin_support.h's random_parents picks any earlier joint:
 * fine for the kernels, which only need parents[j] < j, but not a valid skeleton.)
 */
static void random_dfs_parents(test_rng *r, size_t n, int32_t *parents)
{
    int32_t *path = malloc((n ? n : 1) * sizeof *path); /* the root → joint j − 1 path */
    ck_assert_ptr_nonnull(path);
    size_t depth = 0;
    for (size_t j = 0; j < n; ++j) {
        if (j == 0 || rng_unit(r) < 0.08) {
            parents[j] = -1;
            depth = 0;
        } else {
            const size_t d = rng_unit(r) < 0.5 ? depth - 1 : (size_t)(rng_u64(r) % depth);
            parents[j] = path[d];
            depth = d + 1;
        }
        path[depth++] = (int32_t)j;
    }
    free(path);
}

/* Whether joint b is in joint a's subtree (a itself included), walking b's parents up. */
static int in_subtree(const int32_t *parents, size_t b, size_t a)
{
    int64_t x = (int64_t)b;
    while (x > (int64_t)a)
        x = parents[x];
    return x == (int64_t)a;
}

/*
 * The property DFS pre-order exists for, checked by brute force (an oracle independent of the
 * library's rule): every joint's subtree is the contiguous range that starts at it.
 */
static int subtrees_contiguous(const int32_t *parents, size_t n)
{
    for (size_t a = 0; a < n; ++a) {
        size_t end = a + 1;
        while (end < n && in_subtree(parents, end, a))
            ++end;
        for (size_t b = end; b < n; ++b)
            if (in_subtree(parents, b, a))
                return 0;
    }
    return 1;
}

/*
 * Two orders in which every parent comes before its children, built here independently of the
 * library: the level order by repeated scans (depth 0, then 1, … — each depth in joint order),
 * and a random topological order (Kahn's algorithm picking a random ready joint).
 */
static void level_order_by_scans(const int32_t *parents, size_t n, uint32_t *order)
{
    size_t *depth = malloc((n ? n : 1) * sizeof *depth), k = 0;
    ck_assert_ptr_nonnull(depth);
    for (size_t j = 0; j < n; ++j) {
        depth[j] = 0;
        for (int64_t x = parents[j]; x >= 0; x = parents[x])
            ++depth[j];
    }
    for (size_t d = 0; k < n; ++d)
        for (size_t j = 0; j < n; ++j)
            if (depth[j] == d)
                order[k++] = (uint32_t)j;
    free(depth);
}

static void random_topological_order(test_rng *r, const int32_t *parents, size_t n,
                                     uint32_t *order)
{
    uint32_t *ready = malloc((n ? n : 1) * sizeof *ready);
    ck_assert_ptr_nonnull(ready);
    size_t nready = 0;
    for (size_t j = 0; j < n; ++j)
        if (parents[j] < 0)
            ready[nready++] = (uint32_t)j;
    for (size_t k = 0; k < n; ++k) {
        ck_assert_uint_gt(nready, 0);
        const size_t pick = (size_t)(rng_u64(r) % nready);
        const uint32_t j = ready[pick];
        ready[pick] = ready[--nready];
        order[k] = j;
        for (size_t c = j + 1; c < n; ++c) /* children come after their parent */
            if (parents[c] == (int32_t)j)
                ready[nready++] = (uint32_t)c;
    }
    free(ready);
}

/* ---- construction and its errors ----------------------------------------------------------- */

START_TEST(test_create_and_query)
{
    const int32_t parents[4] = {-1, 0, 1, 0};
    const char *names[4] = {"hips", "spine", "head", "leg"};
    tendon_pose rest;
    ck_assert_int_eq(tendon_pose_create(4, &rest), TENDON_OK);
    rest.translation[3] = 1.5f;
    rest.rotation[4 * 2 + 3] = 2.0f; /* non-unit: stored as given */
    tendon_skeleton *s = make_skeleton(parents, names, 4, &rest);
    ck_assert_uint_eq(tendon_skeleton_joint_count(s), 4);
    ck_assert_int_eq(tendon_skeleton_parents(s)[2], 1);
    ck_assert_str_eq(tendon_skeleton_joint_name(s, 3), "leg");
    ck_assert_ptr_null(tendon_skeleton_joint_name(s, 4));
    size_t j = 99;
    ck_assert_int_eq(tendon_skeleton_find_joint(s, "head", &j), TENDON_OK);
    ck_assert_uint_eq(j, 2);
    ck_assert_int_eq(tendon_skeleton_find_joint(s, "tail", &j), TENDON_ERR_NOT_FOUND);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "tail"));

    tendon_pose copy;
    ck_assert_int_eq(tendon_pose_create(4, &copy), TENDON_OK);
    ck_assert_int_eq(tendon_skeleton_rest_pose(s, &copy), TENDON_OK);
    ck_assert(copy.translation[3] == 1.5f && copy.rotation[11] == 2.0f);
    tendon_pose small;
    ck_assert_int_eq(tendon_pose_create(3, &small), TENDON_OK);
    ck_assert_int_eq(tendon_skeleton_rest_pose(s, &small), TENDON_ERR_COUNT);
    /* the description is copied: changing the caller's arrays changes nothing */
    rest.translation[3] = 7.0f;
    ck_assert_int_eq(tendon_skeleton_rest_pose(s, &copy), TENDON_OK);
    ck_assert(copy.translation[3] == 1.5f);
    tendon_pose_destroy(&small);
    tendon_pose_destroy(&copy);
    tendon_pose_destroy(&rest);
    tendon_skeleton_destroy(s);

    /* an unnamed and an empty skeleton */
    s = make_skeleton(parents, NULL, 4, NULL);
    ck_assert_ptr_null(tendon_skeleton_joint_name(s, 0));
    ck_assert_int_eq(tendon_skeleton_find_joint(s, "hips", &j), TENDON_ERR_NOT_FOUND);
    tendon_skeleton_destroy(s);
    s = make_skeleton(NULL, NULL, 0, NULL);
    ck_assert_uint_eq(tendon_skeleton_joint_count(s), 0);
    ck_assert_ptr_null(tendon_skeleton_level_order(s));
    /* its rest pose into a 0-joint pose with NULL arrays (as tendon_pose_destroy leaves one):
       nothing to copy, and memcpy is not handed the NULLs (UBSan stopped there; a review) */
    tendon_pose none = {NULL, NULL, NULL, 0};
    ck_assert_int_eq(tendon_skeleton_rest_pose(s, &none), TENDON_OK);
    ck_assert_int_eq(tendon_pose_copy(&none, &none), TENDON_OK);
    tendon_pose_destroy(&copy); /* zeroed: the NULL-array 0-joint pose */
    ck_assert_int_eq(tendon_pose_copy(&none, &copy), TENDON_OK);
    tendon_skeleton_destroy(s);
    tendon_skeleton_destroy(NULL);
    ck_assert_ptr_null(tendon_skeleton_level_order(NULL));
}
END_TEST

/* The level order, by hand: two trees; depths 0 1 2 3 1 2 0 1. */
START_TEST(test_level_order)
{
    const int32_t parents[8] = {-1, 0, 1, 2, 0, 4, -1, 6};
    const uint32_t expected[8] = {0, 6, 1, 4, 7, 2, 5, 3};
    tendon_skeleton *s = make_skeleton(parents, NULL, 8, NULL);
    const uint32_t *order = tendon_skeleton_level_order(s);
    ck_assert_ptr_nonnull(order);
    for (size_t i = 0; i < 8; ++i)
        ck_assert_msg(order[i] == expected[i], "level order [%zu] = %u, expected %u", i, order[i],
                      expected[i]);
    tendon_skeleton_destroy(s);
    /* random skeletons: the same as the scan-built order */
    test_rng r;
    rng_seed(&r, 0x1E7E1);
    for (size_t n = 1; n < 300; n += 7) {
        int32_t *p = malloc(n * sizeof *p);
        uint32_t *want = malloc(n * sizeof *want);
        ck_assert(p && want);
        random_dfs_parents(&r, n, p);
        level_order_by_scans(p, n, want);
        s = make_skeleton(p, NULL, n, NULL);
        ck_assert_int_eq(memcmp(tendon_skeleton_level_order(s), want, n * sizeof *want), 0);
        tendon_skeleton_destroy(s);
        free(p), free(want);
    }
}
END_TEST

static void expect_create_error(const int32_t *parents, const char *const *names, size_t n,
                                tendon_status expected, const char *needle)
{
    tendon_skeleton_desc d = {.joint_count = n, .parents = parents, .names = names};
    tendon_skeleton *s = (tendon_skeleton *)(uintptr_t)1;
    const tendon_status st = tendon_skeleton_create(&d, &s);
    ck_assert_msg(st == expected, "expected %s, got %s (%s)", tendon_status_name(expected),
                  tendon_status_name(st), tendon_error_message());
    ck_assert_ptr_null(s);
    ck_assert_msg(strstr(tendon_error_message(), needle) != NULL,
                  "message \"%s\" does not mention \"%s\"", tendon_error_message(), needle);
}

START_TEST(test_create_errors)
{
    const char *names[4] = {"hips", "spine", "head", "leg"};
    const int32_t after[4] = {-1, 2, 0, 0}; /* spine's parent (head) comes after it */
    expect_create_error(after, names, 4, TENDON_ERR_RANGE, "\"spine\"");
    expect_create_error(after, names, 4, TENDON_ERR_RANGE, "DFS pre-order");
    expect_create_error(after, NULL, 4, TENDON_ERR_RANGE, "joint 1");
    const int32_t self[3] = {-1, 1, 0};
    expect_create_error(self, NULL, 3, TENDON_ERR_RANGE, "its own parent");
    const int32_t outside[3] = {-1, 0, 9};
    expect_create_error(outside, NULL, 3, TENDON_ERR_RANGE, "parent 9");
    const int32_t negative[3] = {-1, -2, 0};
    expect_create_error(negative, NULL, 3, TENDON_ERR_RANGE, "parent -2");
    const int32_t ok[4] = {-1, 0, 1, 0};
    const char *dup[4] = {"hips", "arm", "head", "arm"};
    expect_create_error(ok, dup, 4, TENDON_ERR_VALUE, "joints 1 and 3");
    const char *empty[4] = {"hips", "", "head", "leg"};
    expect_create_error(ok, empty, 4, TENDON_ERR_VALUE, "joint 1");
    const char *null_name[4] = {"hips", "spine", NULL, "leg"};
    expect_create_error(ok, null_name, 4, TENDON_ERR_NULL, "names[2]");
    expect_create_error(NULL, NULL, 4, TENDON_ERR_NULL, "parents");
    expect_create_error(ok, NULL, (size_t)INT32_MAX + 1, TENDON_ERR_OVERFLOW, "INT32_MAX");
    expect_create_error(ok, NULL, SIZE_MAX, TENDON_ERR_OVERFLOW, "joint_count");

    tendon_skeleton *s;
    ck_assert_int_eq(tendon_skeleton_create(NULL, &s), TENDON_ERR_NULL);
    tendon_skeleton_desc d = {.joint_count = 4, .parents = ok};
    ck_assert_int_eq(tendon_skeleton_create(&d, NULL), TENDON_ERR_NULL);
    tendon_pose rest;
    ck_assert_int_eq(tendon_pose_create(3, &rest), TENDON_OK);
    d.rest = &rest;
    ck_assert_int_eq(tendon_skeleton_create(&d, &s), TENDON_ERR_COUNT);
    tendon_pose_destroy(&rest);
}
END_TEST

/*
 * DFS pre-order is enforced, not only parents[j] < j: a joint's parent must be the joint just
 * before it or one of that joint's ancestors, so every subtree is the contiguous range after its
 * root (what a partial model-matrix update relies on). The review's repro {-1, 0, 0, 1} put
 * joint 3 under joint 1 after joint 2 had closed joint 1's subtree: updating joints [1, 2) then
 * left joint 3 stale.
 */
START_TEST(test_create_requires_dfs_preorder)
{
    const int32_t split[4] = {-1, 0, 0, 1};
    const char *names[4] = {"hips", "spine", "leg", "chest"};
    expect_create_error(split, names, 4, TENDON_ERR_RANGE, "joint 3 (\"chest\")");
    expect_create_error(split, names, 4, TENDON_ERR_RANGE, "parent joint 1 (\"spine\")");
    expect_create_error(split, names, 4, TENDON_ERR_RANGE, "joint 2 (\"leg\")");
    expect_create_error(split, names, 4, TENDON_ERR_RANGE, "DFS pre-order");
    expect_create_error(split, NULL, 4, TENDON_ERR_RANGE, "parent joint 1");
    expect_create_error(split, NULL, 4, TENDON_ERR_RANGE, "contiguous");
    /* a second tree may not reach back into the first */
    const int32_t back[4] = {-1, 0, -1, 1};
    expect_create_error(back, NULL, 4, TENDON_ERR_RANGE, "joint 3");
    /* deep: joint 6 goes back under joint 1 after the subtree of 4 (a sibling of 1) began */
    const int32_t deep[7] = {-1, 0, 1, 2, 0, 4, 1};
    expect_create_error(deep, NULL, 7, TENDON_ERR_RANGE, "joint 6");
    /* accepted: chains, a sibling after a finished subtree, several roots, a lone root */
    const int32_t good[10] = {-1, 0, 1, 2, 1, 0, 5, -1, 7, -1};
    tendon_skeleton_destroy(make_skeleton(good, NULL, 10, NULL));

    /* the rule against the property, by brute force: random parents with parents[j] < j are
       accepted exactly when every subtree is contiguous */
    test_rng r;
    rng_seed(&r, 0xDF5);
    int accepted = 0, refused = 0;
    for (int trial = 0; trial < 4000; ++trial) {
        const size_t n = 1 + (size_t)(rng_u64(&r) % 9);
        int32_t parents[9];
        for (size_t j = 0; j < n; ++j)
            parents[j] = (j == 0 || rng_unit(&r) < 0.2) ? -1 : (int32_t)(rng_u64(&r) % j);
        tendon_skeleton_desc d = {.joint_count = n, .parents = parents};
        tendon_skeleton *s = NULL;
        const tendon_status st = tendon_skeleton_create(&d, &s);
        const int contiguous = subtrees_contiguous(parents, n);
        ck_assert_msg(st == (contiguous ? TENDON_OK : TENDON_ERR_RANGE),
                      "trial %d (%zu joints): subtrees %scontiguous but create returned %s (%s)",
                      trial, n, contiguous ? "" : "not ", tendon_status_name(st),
                      tendon_error_message());
        tendon_skeleton_destroy(s);
        if (contiguous)
            ++accepted;
        else
            ++refused;
    }
    ck_assert_msg(accepted > 400 && refused > 400, "accepted %d, refused %d", accepted, refused);
    /* the generator the other tests use gives valid skeletons */
    for (size_t n = 1; n < 300; n += 37) {
        int32_t parents[300];
        random_dfs_parents(&r, n, parents);
        ck_assert(subtrees_contiguous(parents, n));
        tendon_skeleton_destroy(make_skeleton(parents, NULL, n, NULL));
    }
}
END_TEST

/* ---- local matrices -------------------------------------------------------------------------- */

START_TEST(test_local_hand)
{
    /* joint 0: identity; joint 1: the non-unit quaternion (1,0,0,1) as given (x2 = 2, xx = 2,
     * wx = 2, exact), t = (1,2,3), s = (2,3,4); joint 2: 180° about z (0,0,1,0), s = (−1,1,1). */
    float t[9] = {0, 0, 0, 1, 2, 3, -1, 0.5f, 0};
    float q[12] = {0, 0, 0, 1, 1, 0, 0, 1, 0, 0, 1, 0};
    float s[9] = {1, 1, 1, 2, 3, 4, -1, 1, 1};
    tendon_pose pose = {t, q, s, 3};
    float m[48];
    ck_assert_int_eq(tendon_local_matrices(&pose, m), TENDON_OK);
    const float id[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    /* R(1,0,0,1) = [[1,0,0],[0,−1,−2],[0,2,−1]] (rows), columns scaled by 2, 3, 4 */
    const float m1[16] = {2, 0, 0, 0, 0, -3, 6, 0, 0, -8, -4, 0, 1, 2, 3, 1};
    /* R(0,0,1,0) = diag(−1,−1,1), column 0 scaled by −1 */
    const float m2[16] = {1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1, 0, -1, 0.5f, 0, 1};
    assert_mat_exact(m, id, "identity joint");
    assert_mat_exact(m + 16, m1, "non-unit quaternion joint");
    assert_mat_exact(m + 32, m2, "mirrored joint");
}
END_TEST

START_TEST(test_local_cglm)
{
    test_rng r;
    rng_seed(&r, 0x10CA1);
    tendon_pose pose;
    const size_t n = 500;
    ck_assert_int_eq(tendon_pose_create(n, &pose), TENDON_OK);
    random_pose(&r, &pose);
    float *m = malloc(n * 64);
    ck_assert_int_eq(tendon_local_matrices(&pose, m), TENDON_OK);
    for (size_t j = 0; j < n; ++j) {
        float want[16];
        cglm_trs(pose.translation + 3 * j, pose.rotation + 4 * j, pose.scale + 3 * j, want);
        assert_mat_near(m + 16 * j, want, CGLM_TOL, "local matrix vs cglm, joint", j);
    }
    free(m);
    tendon_pose_destroy(&pose);
}
END_TEST

/* ---- model matrices ------------------------------------------------------------------------- */

/* The hand rig: 4 joints (0 ← root; 1, 3 children of 0; 2 child of 1) and a root matrix. */
static const int32_t RIG_PARENTS[4] = {-1, 0, 1, 0};
static const char *const RIG_NAMES[4] = {"pelvis", "thigh", "shin", "spine"};
static const float RIG_T[12] = {0, 1, 0, 1, 0, 0, 0, 0, 3, 0, 2, 0};
static const float RIG_Q[16] = {0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2};
static const float RIG_S[12] = {2, 1, 1, -1, 1, 1, 1, 1, 0.5f, 1, 1, 1};
/* 90° about z, then 10 along x: exact */
static const float RIG_ROOT[16] = {0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 10, 0, 0, 1};

static tendon_pose rig_pose(float *t, float *q, float *s)
{
    memcpy(t, RIG_T, sizeof RIG_T);
    memcpy(q, RIG_Q, sizeof RIG_Q);
    memcpy(s, RIG_S, sizeof RIG_S);
    tendon_pose p = {t, q, s, 4};
    return p;
}

START_TEST(test_model_hand)
{
    float t[12], q[16], s[12];
    tendon_pose pose = rig_pose(t, q, s);
    tendon_skeleton *sk = make_skeleton(RIG_PARENTS, (const char *const *)RIG_NAMES, 4, &pose);
    float model[64];
    ck_assert_int_eq(tendon_pose_model_matrices(sk, &pose, RIG_ROOT, model), TENDON_OK);
    /* computed by hand (exact rationals): root × L0, M0 × L1, M1 × L2, M0 × L3 */
    const float m0[16] = {0, 2, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 9, 0, 0, 1};
    const float m1[16] = {0, -2, 0, 0, 1, 0, 0, 0, 0, 0, -1, 0, 9, 2, 0, 1};
    const float m2[16] = {0, -2, 0, 0, 1, 0, 0, 0, 0, 0, -0.5f, 0, 9, 2, -3, 1};
    const float m3[16] = {0, 2, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 7, 0, 0, 1};
    assert_mat_exact(model, m0, "pelvis");
    assert_mat_exact(model + 16, m1, "thigh (mirrored)");
    assert_mat_exact(model + 32, m2, "shin (non-uniform)");
    assert_mat_exact(model + 48, m3, "spine (non-unit w-only quaternion: identity rotation)");

    /* no root matrix: the roots' model matrices are their local ones, bit for bit */
    float local[64], model2[64];
    ck_assert_int_eq(tendon_local_matrices(&pose, local), TENDON_OK);
    ck_assert_int_eq(tendon_model_matrices(sk, local, NULL, 0, 4, model2), TENDON_OK);
    ck_assert_int_eq(memcmp(model2, local, 64), 0);
    tendon_skeleton_destroy(sk);
}
END_TEST

START_TEST(test_model_cglm)
{
    test_rng r;
    rng_seed(&r, 0x30DE1);
    const size_t n = 300;
    int32_t parents[300];
    random_dfs_parents(&r, n, parents);
    tendon_pose pose;
    ck_assert_int_eq(tendon_pose_create(n, &pose), TENDON_OK);
    random_pose(&r, &pose);
    tendon_skeleton *sk = make_skeleton(parents, NULL, n, NULL);
    float root[16];
    const float rt[3] = {0.5f, -3, 2}, rs[3] = {1.5f, 1.5f, 1.5f};
    float rq[4];
    rng_unit_quat(&r, rq);
    cglm_trs(rt, rq, rs, root);
    float *model = malloc(n * 64);
    ck_assert_int_eq(tendon_pose_model_matrices(sk, &pose, root, model), TENDON_OK);
    mat4 *want = malloc(n * sizeof(mat4));
    for (size_t j = 0; j < n; ++j) {
        float l[16];
        mat4 L, R;
        cglm_trs(pose.translation + 3 * j, pose.rotation + 4 * j, pose.scale + 3 * j, l);
        mat_to_cglm(l, L);
        if (parents[j] < 0)
            mat_to_cglm(root, R);
        else
            glm_mat4_copy(want[parents[j]], R);
        glm_mat4_mul(R, L, want[j]);
        float w[16];
        mat_from_cglm(want[j], w);
        assert_mat_near(model + 16 * j, w, CGLM_TOL, "model matrix vs cglm chain, joint", j);
    }
    free(want);
    free(model);
    tendon_skeleton_destroy(sk);
    tendon_pose_destroy(&pose);
}
END_TEST

/*
 * A partial update of a subtree equals recomputing everything (ozz's from/to), for the subtree
 * of every joint of a random DFS-ordered skeleton: its subtree is the contiguous range after it.
 */
START_TEST(test_model_partial)
{
    test_rng r;
    rng_seed(&r, 0x9A27);
    const size_t n = 64;
    int32_t parents[64];
    random_dfs_parents(&r, n, parents);
    tendon_pose pose;
    ck_assert_int_eq(tendon_pose_create(n, &pose), TENDON_OK);
    random_pose(&r, &pose);
    tendon_skeleton *sk = make_skeleton(parents, NULL, n, NULL);
    float full[64 * 16], part[64 * 16], local[64 * 16];
    size_t longest = 0;
    for (size_t a = 0; a < n; ++a) {
        /* a's subtree: the range after it whose parents stay inside it */
        size_t end = a + 1;
        while (end < n && parents[end] >= (int32_t)a)
            ++end;
        for (size_t b = a; b < n; ++b)
            ck_assert_msg(in_subtree(parents, b, a) == (b < end), "joint %zu, subtree of %zu", b,
                          a);
        longest = end - a > longest ? end - a : longest;
        ck_assert_int_eq(tendon_pose_model_matrices(sk, &pose, RIG_ROOT, part), TENDON_OK);
        for (size_t j = a; j < end; ++j)
            rng_unit_quat(&r, pose.rotation + 4 * j);
        ck_assert_int_eq(tendon_pose_model_matrices(sk, &pose, RIG_ROOT, full), TENDON_OK);
        ck_assert_int_eq(tendon_local_matrices(&pose, local), TENDON_OK);
        float before[64 * 16];
        memcpy(before, part, sizeof part);
        ck_assert_int_eq(tendon_model_matrices(sk, local, RIG_ROOT, a, end - a, part), TENDON_OK);
        ck_assert_msg(first_float_diff(part, full, n * 16) < 0,
                      "partial update of joint %zu's subtree [%zu, %zu) differs from full", a, a,
                      end);
        /* in place: the range holds local matrices on entry */
        memcpy(before + 16 * a, local + 16 * a, (end - a) * 64);
        ck_assert_int_eq(tendon_model_matrices(sk, before, RIG_ROOT, a, end - a, before),
                         TENDON_OK);
        ck_assert_msg(first_float_diff(before, full, n * 16) < 0,
                      "in-place partial update of joint %zu's subtree differs", a);
    }
    ck_assert_msg(longest >= 8, "the random skeleton has no deep subtree (longest %zu)", longest);
    /* an empty range does nothing */
    ck_assert_int_eq(tendon_model_matrices(sk, NULL, NULL, 64, 0, NULL), TENDON_OK);
    tendon_skeleton_destroy(sk);
    tendon_pose_destroy(&pose);
}
END_TEST

START_TEST(test_model_errors)
{
    tendon_skeleton *sk = make_skeleton(RIG_PARENTS, NULL, 4, NULL);
    float a[80] = {0}, b[64] = {0};
    ck_assert_int_eq(tendon_model_matrices(NULL, a, NULL, 0, 4, b), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_model_matrices(sk, a, NULL, 2, 3, b), TENDON_ERR_RANGE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "4 joints"));
    ck_assert_int_eq(tendon_model_matrices(sk, a, NULL, SIZE_MAX, 2, b), TENDON_ERR_RANGE);
    ck_assert_int_eq(tendon_model_matrices(sk, NULL, NULL, 0, 4, b), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_model_matrices(sk, a, NULL, 0, 4, NULL), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_model_matrices(sk, a, NULL, 0, 4, a + 4), TENDON_ERR_ALIAS);
    ck_assert_int_eq(tendon_model_matrices(sk, a, b + 8, 0, 4, b), TENDON_ERR_ALIAS);
    /* the root may sit in model outside the range being written */
    ck_assert_int_eq(tendon_model_matrices(sk, a, a + 64, 0, 4, a), TENDON_OK);

    float t[12], q[16], s[12];
    tendon_pose pose = rig_pose(t, q, s);
    float m[64];
    ck_assert_int_eq(tendon_pose_model_matrices(sk, &pose, NULL, NULL), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_pose_model_matrices(sk, NULL, NULL, m), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_pose_model_matrices(sk, &pose, m + 3, m), TENDON_ERR_ALIAS);
    tendon_pose three = {t, q, s, 3};
    ck_assert_int_eq(tendon_pose_model_matrices(sk, &three, NULL, m), TENDON_ERR_COUNT);
    float overlap[200];
    tendon_pose inside = {overlap, overlap + 12, overlap + 28, 4};
    ck_assert_int_eq(tendon_pose_model_matrices(sk, &inside, NULL, overlap + 30),
                     TENDON_ERR_ALIAS);
    ck_assert_int_eq(tendon_local_matrices(&inside, overlap + 30), TENDON_ERR_ALIAS);
    ck_assert_int_eq(tendon_local_matrices(&pose, NULL), TENDON_ERR_NULL);
    tendon_pose huge = {t, q, s, SIZE_MAX / 8};
    ck_assert_int_eq(tendon_local_matrices(&huge, m), TENDON_ERR_OVERFLOW);
    tendon_skeleton_destroy(sk);
}
END_TEST

/* ---- inverse bind matrices and the palette -------------------------------------------------- */

START_TEST(test_inverse_bind_cglm)
{
    test_rng r;
    rng_seed(&r, 0x1B1D);
    const size_t n = 120;
    int32_t parents[120];
    random_dfs_parents(&r, n, parents);
    tendon_pose rest;
    ck_assert_int_eq(tendon_pose_create(n, &rest), TENDON_OK);
    random_pose(&r, &rest);
    tendon_skeleton *sk = make_skeleton(parents, NULL, n, &rest);
    uint32_t joint_of[120];
    for (size_t k = 0; k < n; ++k)
        joint_of[k] = (uint32_t)(n - 1 - k); /* reversed: not the skeleton's order */
    float *ibm = malloc(n * 64), *world = malloc(n * 64);
    ck_assert_int_eq(tendon_inverse_bind_from_rest(sk, RIG_ROOT, joint_of, n, ibm), TENDON_OK);
    ck_assert_int_eq(tendon_pose_model_matrices(sk, &rest, RIG_ROOT, world), TENDON_OK);
    for (size_t k = 0; k < n; ++k) {
        mat4 W, Winv, P;
        mat_to_cglm(world + 16 * joint_of[k], W);
        glm_mat4_inv(W, Winv);
        float w[16], prod[16];
        mat_from_cglm(Winv, w);
        /* glm_mat4_inv is float throughout: its error grows with the matrix's condition */
        assert_mat_near(ibm + 16 * k, w, 1e-4, "inverse bind vs glm_mat4_inv, entry", k);
        /* and the defining property: world_rest × inverse_bind = I */
        mat4 B;
        mat_to_cglm(ibm + 16 * k, B);
        glm_mat4_mul(W, B, P);
        mat_from_cglm(P, prod);
        const float id[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
        assert_mat_near(prod, id, 1e-5 * fmax(1.0, (double)mat_max_abs(world + 16 * joint_of[k])),
                        "world × inverse bind, entry", k);
    }
    free(ibm);
    free(world);
    tendon_skeleton_destroy(sk);
    tendon_pose_destroy(&rest);
}
END_TEST

START_TEST(test_inverse_bind_errors)
{
    float t[12], q[16], s[12];
    tendon_pose rest = rig_pose(t, q, s);
    rest.scale[3 * 2 + 1] = 0.0f; /* shin flattened: singular */
    tendon_skeleton *sk = make_skeleton(RIG_PARENTS, (const char *const *)RIG_NAMES, 4, &rest);
    float ibm[64];
    const uint32_t ok[2] = {3, 0}, with_shin[3] = {3, 2, 0}, bad[2] = {0, 4};
    ck_assert_int_eq(tendon_inverse_bind_from_rest(sk, NULL, ok, 2, ibm), TENDON_OK);
    for (int e = 0; e < 48; ++e)
        ibm[e] = 12345.0f;
    ck_assert_int_eq(tendon_inverse_bind_from_rest(sk, NULL, with_shin, 3, ibm), TENDON_ERR_VALUE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "\"shin\""));
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "singular"));
    ck_assert(ibm[0] == 12345.0f && ibm[47] == 12345.0f); /* nothing written on error */
    ck_assert_int_eq(tendon_inverse_bind_from_rest(sk, NULL, bad, 2, ibm), TENDON_ERR_RANGE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "joint_of[1] = 4"));
    const float projective[16] = {1, 0, 0, 0.5f, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    ck_assert_int_eq(tendon_inverse_bind_from_rest(sk, projective, ok, 2, ibm), TENDON_ERR_VALUE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "not affine"));
    ck_assert_int_eq(tendon_inverse_bind_from_rest(NULL, NULL, ok, 2, ibm), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_inverse_bind_from_rest(sk, NULL, NULL, 2, ibm), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_inverse_bind_from_rest(sk, NULL, ok, 2, NULL), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_inverse_bind_from_rest(sk, NULL, ok, SIZE_MAX / 16, ibm),
                     TENDON_ERR_OVERFLOW);
    uint32_t shared[32] = {3, 0};
    ck_assert_int_eq(tendon_inverse_bind_from_rest(sk, NULL, shared, 2, (float *)(void *)shared),
                     TENDON_ERR_ALIAS);

    /* a binding: derived from rest refuses the singular joint too, naming it */
    tendon_skin_binding *b = (tendon_skin_binding *)(uintptr_t)1;
    ck_assert_int_eq(tendon_skin_binding_create(sk, with_shin, NULL, 3, &b), TENDON_ERR_VALUE);
    ck_assert_ptr_null(b);
    ck_assert_int_eq(tendon_skin_binding_create(sk, bad, NULL, 2, &b), TENDON_ERR_RANGE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "joint_of[1]"));
    ck_assert_int_eq(tendon_skin_binding_create(sk, NULL, NULL, 2, &b), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_skin_binding_create(NULL, ok, NULL, 2, &b), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_skin_binding_create(sk, ok, NULL, 2, NULL), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_skin_binding_create(sk, ok, NULL, 0, &b), TENDON_OK);
    ck_assert_uint_eq(tendon_skin_binding_palette_count(b), 0);
    tendon_skin_binding_destroy(b);
    tendon_skeleton_destroy(sk);
}
END_TEST

/*
 * The hand rig bound in another order than the skeleton's (shin, pelvis, spine), bind = rest.
 * Turning the pelvis 180° about z moves everything rigidly about the pelvis's rest position
 * c = (0, 1, 0): every palette entry is T(c)·Rz(180°)·T(−c) = [[−1,0,0,0],[0,−1,0,2],[0,0,1,0]]
 * (rows) — its non-uniform scale (2,1,1) cancels, as S comes before R in T·R·S. With a root
 * matrix (90° about z, 10 along x) on the pose but not on the bind, every entry is
 * root·T(c)·Rz(180°)·T(−c) = [[0,1,0,8],[−1,0,0,0],[0,0,1,0]].
 */
START_TEST(test_palette_hand)
{
    float t[12], q[16], s[12];
    tendon_pose pose = rig_pose(t, q, s);
    tendon_skeleton *sk = make_skeleton(RIG_PARENTS, (const char *const *)RIG_NAMES, 4, &pose);
    const uint32_t joint_of[3] = {2, 0, 3};
    tendon_skin_binding *b;
    ck_assert_int_eq(tendon_skin_binding_create(sk, joint_of, NULL, 3, &b), TENDON_OK);
    ck_assert_uint_eq(tendon_skin_binding_joint_count(b), 4);
    ck_assert_uint_eq(tendon_skin_binding_joints(b)[0], 2);
    float model[64], pal[48];
    /* at rest: the identity */
    ck_assert_int_eq(tendon_pose_palette(sk, b, &pose, NULL, model, pal), TENDON_OK);
    const float id[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    for (size_t k = 0; k < 3; ++k)
        assert_mat_near(pal + 16 * k, id, 1e-6, "rest palette entry", k);
    /* pelvis turned */
    q[0] = 0, q[1] = 0, q[2] = 1, q[3] = 0;
    ck_assert_int_eq(tendon_pose_palette(sk, b, &pose, NULL, model, pal), TENDON_OK);
    const float turned[16] = {-1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1, 0, 0, 2, 0, 1};
    for (size_t k = 0; k < 3; ++k)
        assert_mat_near(pal + 16 * k, turned, 1e-6, "turned palette entry", k);
    ck_assert_int_eq(tendon_pose_palette(sk, b, &pose, RIG_ROOT, model, pal), TENDON_OK);
    const float rooted[16] = {0, -1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 8, 0, 0, 1};
    for (size_t k = 0; k < 3; ++k)
        assert_mat_near(pal + 16 * k, rooted, 1e-6, "rooted palette entry", k);
    /* tendon_palette from the model matrices gives the same bits */
    float pal2[48];
    ck_assert_int_eq(tendon_palette(b, model, 4, pal2), TENDON_OK);
    ck_assert_int_eq(memcmp(pal, pal2, sizeof pal), 0);
    tendon_skin_binding_destroy(b);
    tendon_skeleton_destroy(sk);
}
END_TEST

/* One skeleton, two meshes bound with different inverse bind matrices (seed 002). */
START_TEST(test_palette_cglm_two_bindings)
{
    test_rng r;
    rng_seed(&r, 0xB1D5);
    const size_t n = 80, pc = 50;
    int32_t parents[80];
    random_dfs_parents(&r, n, parents);
    tendon_pose rest, pose;
    ck_assert_int_eq(tendon_pose_create(n, &rest), TENDON_OK);
    ck_assert_int_eq(tendon_pose_create(n, &pose), TENDON_OK);
    random_pose(&r, &rest);
    random_pose(&r, &pose);
    tendon_skeleton *sk = make_skeleton(parents, NULL, n, &rest);
    uint32_t joint_of[50];
    float *given = malloc(pc * 64);
    for (size_t k = 0; k < pc; ++k) {
        joint_of[k] = (uint32_t)(rng_u64(&r) % n);
        float t[3] = {(float)rng_range(&r, -1, 1), (float)rng_range(&r, -1, 1), 0.25f};
        float qq[4], sc[3] = {1.25f, -0.75f, 1.0f};
        rng_unit_quat(&r, qq);
        cglm_trs(t, qq, sc, given + 16 * k);
    }
    tendon_skin_binding *b1, *b2;
    ck_assert_int_eq(tendon_skin_binding_create(sk, joint_of, NULL, pc, &b1), TENDON_OK);
    ck_assert_int_eq(tendon_skin_binding_create(sk, joint_of, given, pc, &b2), TENDON_OK);
    float *model = malloc(n * 64), *p1 = malloc(pc * 64), *p2 = malloc(pc * 64);
    ck_assert_int_eq(tendon_pose_palette(sk, b1, &pose, RIG_ROOT, model, p1), TENDON_OK);
    ck_assert_int_eq(tendon_palette(b2, model, n, p2), TENDON_OK);
    const float *ibm1 = tendon_skin_binding_inverse_bind(b1);
    for (size_t k = 0; k < pc; ++k) {
        mat4 M, B, P;
        float w[16];
        mat_to_cglm(model + 16 * joint_of[k], M);
        mat_to_cglm(ibm1 + 16 * k, B);
        glm_mat4_mul(M, B, P);
        mat_from_cglm(P, w);
        assert_mat_near(p1 + 16 * k, w, CGLM_TOL, "palette (derived bind) vs cglm, entry", k);
        mat_to_cglm(given + 16 * k, B);
        glm_mat4_mul(M, B, P);
        mat_from_cglm(P, w);
        assert_mat_near(p2 + 16 * k, w, CGLM_TOL, "palette (given bind) vs cglm, entry", k);
    }
    free(model);
    free(p1);
    free(p2);
    free(given);
    tendon_skin_binding_destroy(b1);
    tendon_skin_binding_destroy(b2);
    tendon_skeleton_destroy(sk);
    tendon_pose_destroy(&rest);
    tendon_pose_destroy(&pose);
}
END_TEST

START_TEST(test_palette_errors)
{
    tendon_skeleton *sk = make_skeleton(RIG_PARENTS, NULL, 4, NULL);
    const uint32_t joint_of[3] = {2, 0, 3};
    tendon_skin_binding *b;
    ck_assert_int_eq(tendon_skin_binding_create(sk, joint_of, NULL, 3, &b), TENDON_OK);
    float model[64], pal[64];
    ck_assert_int_eq(tendon_palette(NULL, model, 4, pal), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_palette(b, model, 5, pal), TENDON_ERR_COUNT);
    ck_assert_int_eq(tendon_palette(b, NULL, 4, pal), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_palette(b, model, 4, NULL), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_palette(b, model, 4, model + 8), TENDON_ERR_ALIAS);
    float t[12], q[16], s[12];
    tendon_pose pose = rig_pose(t, q, s);
    ck_assert_int_eq(tendon_pose_palette(sk, b, &pose, NULL, model, model), TENDON_ERR_ALIAS);
    ck_assert_int_eq(tendon_pose_palette(sk, b, &pose, pal, model, pal), TENDON_ERR_ALIAS);
    ck_assert_int_eq(tendon_pose_palette(sk, NULL, &pose, NULL, model, pal), TENDON_ERR_NULL);
    tendon_skeleton *other = make_skeleton(RIG_PARENTS, NULL, 3, NULL);
    tendon_pose three = {t, q, s, 3};
    ck_assert_int_eq(tendon_pose_palette(other, b, &three, NULL, model, pal), TENDON_ERR_COUNT);
    tendon_skeleton_destroy(other);
    tendon_skin_binding_destroy(b);
    tendon_skeleton_destroy(sk);
}
END_TEST

/* ---- alignment and messages ------------------------------------------------------------------ */

/* p moved by `bytes` (1..3: misaligned for a float, int32 or uint32 element). */
#define BYTE_SHIFT(T, p, bytes) ((T *)(void *)((unsigned char *)(p) + (bytes)))

/*
 * Every float (and int32 / uint32) pointer must be aligned to its element type, as C requires
 * (a misaligned float read is undefined behaviour; UBSan stops on it): refused with
 * TENDON_ERR_VALUE naming the argument, before anything is read or written.
 */
START_TEST(test_misaligned_refused)
{
    float t[12], q[16], s[12];
    tendon_pose pose = rig_pose(t, q, s);
    tendon_skeleton *sk = make_skeleton(RIG_PARENTS, NULL, 4, &pose);
    const uint32_t joint_of[3] = {2, 0, 3};
    tendon_skin_binding *b;
    ck_assert_int_eq(tendon_skin_binding_create(sk, joint_of, NULL, 3, &b), TENDON_OK);
    _Alignas(64) float room[16 * 5], local[64], model[64], pal[48];
    _Alignas(64) uint32_t jroom[8];
    ck_assert_int_eq(tendon_local_matrices(&pose, local), TENDON_OK);
    ck_assert_int_eq(tendon_pose_model_matrices(sk, &pose, NULL, model), TENDON_OK);
    for (size_t sh = 1; sh < 4; ++sh) {
        float snap[16 * 5];
        for (int e = 0; e < 16 * 5; ++e)
            room[e] = 12345.0f;
        memcpy(snap, room, sizeof room);
        float *const out = BYTE_SHIFT(float, room, sh);
#define UNTOUCHED(call) ck_assert_msg(memcmp(room, snap, sizeof room) == 0, "%s wrote", call)
        /* local matrices: the output and each of the pose's arrays */
        expect_misaligned(tendon_local_matrices(&pose, out), "tendon_local_matrices", "out_local");
        UNTOUCHED("tendon_local_matrices");
        static const char *const ARR[3] = {"translation", "rotation", "scale"};
        for (int k = 0; k < 3; ++k) {
            tendon_pose bad = pose;
            float **arr = k == 0 ? &bad.translation : k == 1 ? &bad.rotation : &bad.scale;
            float in[20];
            memcpy(in, *arr, (k == 1 ? 16 : 12) * sizeof(float));
            *arr = BYTE_SHIFT(float, in, sh);
            expect_misaligned(tendon_local_matrices(&bad, pal), "tendon_local_matrices", ARR[k]);
            expect_misaligned(tendon_pose_model_matrices(sk, &bad, NULL, model),
                              "tendon_pose_model_matrices", ARR[k]);
            expect_misaligned(tendon_pose_palette(sk, b, &bad, NULL, model, pal),
                              "tendon_pose_palette", ARR[k]);
            float rt[12], rq[16], rs[12];
            tendon_pose rest_out = {rt, rq, rs, 4};
            float **rarr = k == 0 ? &rest_out.translation : k == 1 ? &rest_out.rotation
                                                                   : &rest_out.scale;
            *rarr = BYTE_SHIFT(float, room, sh);
            expect_misaligned(tendon_skeleton_rest_pose(sk, &rest_out), "tendon_skeleton_rest_pose",
                              ARR[k]);
            UNTOUCHED("tendon_skeleton_rest_pose");
            tendon_skeleton_desc d = {.joint_count = 4, .parents = RIG_PARENTS, .rest = &bad};
            tendon_skeleton *none = (tendon_skeleton *)(uintptr_t)1;
            expect_misaligned(tendon_skeleton_create(&d, &none), "tendon_skeleton_create",
                              ARR[k]);
            ck_assert_ptr_null(none);
        }
        /* model matrices: local, model (written), root */
        memcpy(room, local, sizeof local);
        memcpy(snap, room, sizeof room);
        expect_misaligned(tendon_model_matrices(sk, BYTE_SHIFT(const float, room, sh), NULL, 0, 4,
                                                model),
                          "tendon_model_matrices", "local");
        expect_misaligned(tendon_model_matrices(sk, local, NULL, 0, 4, out),
                          "tendon_model_matrices", "model");
        UNTOUCHED("tendon_model_matrices");
        expect_misaligned(tendon_model_matrices(sk, local, BYTE_SHIFT(const float, room, sh), 0,
                                                4, model),
                          "tendon_model_matrices", "root_matrix");
        expect_misaligned(tendon_pose_model_matrices(sk, &pose, NULL, out),
                          "tendon_pose_model_matrices", "model");
        UNTOUCHED("tendon_pose_model_matrices");
        expect_misaligned(tendon_pose_model_matrices(sk, &pose, BYTE_SHIFT(const float, room, sh),
                                                     model),
                          "tendon_pose_model_matrices", "root_matrix");
        /* palette */
        memcpy(room, model, sizeof model);
        memcpy(snap, room, sizeof room);
        expect_misaligned(tendon_palette(b, BYTE_SHIFT(const float, room, sh), 4, pal),
                          "tendon_palette", "model");
        expect_misaligned(tendon_palette(b, model, 4, out), "tendon_palette", "out_palette");
        UNTOUCHED("tendon_palette");
        expect_misaligned(tendon_pose_palette(sk, b, &pose, NULL, model, out),
                          "tendon_pose_palette", "out_palette");
        expect_misaligned(tendon_pose_palette(sk, b, &pose, NULL, out, pal),
                          "tendon_pose_palette", "model");
        UNTOUCHED("tendon_pose_palette");
        expect_misaligned(tendon_pose_palette(sk, b, &pose, BYTE_SHIFT(const float, room, sh),
                                              model, pal),
                          "tendon_pose_palette", "root_matrix");
        /* inverse bind matrices and bindings: the uint32 joint_of too */
        memcpy(BYTE_SHIFT(unsigned char, jroom, sh), joint_of, sizeof joint_of);
        const uint32_t *mis_joints = BYTE_SHIFT(const uint32_t, jroom, sh);
        expect_misaligned(tendon_inverse_bind_from_rest(sk, NULL, joint_of, 3, out),
                          "tendon_inverse_bind_from_rest", "out_inverse_bind");
        UNTOUCHED("tendon_inverse_bind_from_rest");
        expect_misaligned(tendon_inverse_bind_from_rest(sk, BYTE_SHIFT(const float, room, sh),
                                                        joint_of, 3, pal),
                          "tendon_inverse_bind_from_rest", "root_matrix");
        expect_misaligned(tendon_inverse_bind_from_rest(sk, NULL, mis_joints, 3, pal),
                          "tendon_inverse_bind_from_rest", "joint_of");
        tendon_skin_binding *nb = (tendon_skin_binding *)(uintptr_t)1;
        expect_misaligned(tendon_skin_binding_create(sk, mis_joints, NULL, 3, &nb),
                          "tendon_skin_binding_create", "joint_of");
        ck_assert_ptr_null(nb);
        expect_misaligned(tendon_skin_binding_create(sk, joint_of,
                                                     BYTE_SHIFT(const float, room, sh), 3, &nb),
                          "tendon_skin_binding_create", "inverse_bind");
        ck_assert_ptr_null(nb);
        /* the skeleton's int32 parents */
        _Alignas(64) int32_t proom[8];
        memcpy(BYTE_SHIFT(unsigned char, proom, sh), RIG_PARENTS, sizeof RIG_PARENTS);
        tendon_skeleton_desc d = {.joint_count = 4,
                                  .parents = BYTE_SHIFT(const int32_t, proom, sh)};
        tendon_skeleton *none = (tendon_skeleton *)(uintptr_t)1;
        expect_misaligned(tendon_skeleton_create(&d, &none), "tendon_skeleton_create", "parents");
        ck_assert_ptr_null(none);
#undef UNTOUCHED
    }
    /* an empty range reads nothing: a misaligned pointer with nothing to read is accepted */
    ck_assert_int_eq(tendon_model_matrices(sk, BYTE_SHIFT(const float, room, 1), NULL, 4, 0,
                                           BYTE_SHIFT(float, room, 1)),
                     TENDON_OK);
    tendon_skin_binding_destroy(b);
    tendon_skeleton_destroy(sk);
}
END_TEST

/*
 * The names array holds pointers: one not aligned to a pointer (4 bytes past an 8-byte boundary,
 * or 1 to 3 bytes off) is refused by name before a name is read (reading it is undefined
 * behaviour; it was read and the skeleton made). So are a misaligned description and
 * tendon_skeleton_find_joint's misaligned size_t out (it was written through). With no joints
 * no name is read: accepted.
 */
START_TEST(test_misaligned_names_refused)
{
    static const char *const NAMES[4] = {"Hips", "Spine", "Head", "LeftLeg"};
    _Alignas(64) unsigned char nroom[sizeof NAMES + 16];
    for (size_t sh = 1; sh < _Alignof(const char *); ++sh) {
        memcpy(nroom + sh, NAMES, sizeof NAMES);
        tendon_skeleton_desc d = {.joint_count = 4,
                                  .parents = RIG_PARENTS,
                                  .names = BYTE_SHIFT(const char *const, nroom, sh)};
        tendon_skeleton *none = (tendon_skeleton *)(uintptr_t)1;
        expect_misaligned(tendon_skeleton_create(&d, &none), "tendon_skeleton_create", "names");
        ck_assert_ptr_null(none);
    }
    /* the description itself, and tendon_skeleton_find_joint's size_t out (written) */
    const tendon_skeleton_desc good = {.joint_count = 4, .parents = RIG_PARENTS,
                                       .names = NAMES};
    _Alignas(64) unsigned char droom[sizeof good + 16];
    memcpy(droom + 4, &good, sizeof good);
    tendon_skeleton *none = (tendon_skeleton *)(uintptr_t)1;
    expect_misaligned(tendon_skeleton_create(BYTE_SHIFT(const tendon_skeleton_desc, droom, 4),
                                             &none),
                      "tendon_skeleton_create", "desc");
    ck_assert_ptr_null(none);
    tendon_skeleton *named = NULL;
    ck_assert_int_eq(tendon_skeleton_create(&good, &named), TENDON_OK);
    _Alignas(64) unsigned char oroom[2 * sizeof(size_t)];
    memset(oroom, 0xAB, sizeof oroom);
    expect_misaligned(tendon_skeleton_find_joint(named, "Spine", BYTE_SHIFT(size_t, oroom, 4)),
                      "tendon_skeleton_find_joint", "out");
    for (size_t i = 0; i < sizeof oroom; ++i)
        ck_assert_uint_eq(oroom[i], 0xAB); /* nothing written */
    size_t idx = 99;
    ck_assert_int_eq(tendon_skeleton_find_joint(named, "Spine", &idx), TENDON_OK);
    ck_assert_uint_eq(idx, 1);
    tendon_skeleton_destroy(named);
    tendon_skeleton_desc empty = {.joint_count = 0,
                                  .names = BYTE_SHIFT(const char *const, nroom, 4)};
    tendon_skeleton *sk = NULL;
    ck_assert_int_eq(tendon_skeleton_create(&empty, &sk), TENDON_OK);
    tendon_skeleton_destroy(sk);
}
END_TEST

/*
 * The inverse-bind refusals say what was found: a non-finite element (which one, its value), a
 * bottom row that is not 0 0 0 1 (its values), a zero determinant, an inverse beyond float —
 * and quote a determinant only where one was computed.
 */
START_TEST(test_inverse_bind_messages)
{
    float t[12], q[16], s[12];
    const uint32_t shin[1] = {2}, spine[1] = {3};
    float ibm[16];
    /* a NaN in the shin's rest translation: its world matrix has NaN elements */
    tendon_pose rest = rig_pose(t, q, s);
    rest.translation[3 * 2 + 1] = NAN;
    tendon_skeleton *sk = make_skeleton(RIG_PARENTS, (const char *const *)RIG_NAMES, 4, &rest);
    ck_assert_int_eq(tendon_inverse_bind_from_rest(sk, NULL, shin, 1, ibm), TENDON_ERR_VALUE);
    const char *m = tendon_error_message();
    ck_assert_msg(strstr(m, "\"shin\"") && strstr(m, "non-finite") && strstr(m, "nan") &&
                      !strstr(m, "determinant"),
                  "non-finite: \"%s\"", m);
    tendon_skeleton_destroy(sk);
    /* a projective root matrix: the bottom row is quoted, no determinant */
    rest = rig_pose(t, q, s);
    sk = make_skeleton(RIG_PARENTS, (const char *const *)RIG_NAMES, 4, &rest);
    const float projective[16] = {1, 0, 0, 0.5f, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
    ck_assert_int_eq(tendon_inverse_bind_from_rest(sk, projective, spine, 1, ibm),
                     TENDON_ERR_VALUE);
    m = tendon_error_message();
    ck_assert_msg(strstr(m, "not affine") && strstr(m, "bottom row is (1 0 0 1)") && !strstr(m, "determinant"),
                  "not affine: \"%s\"", m);
    tendon_skeleton_destroy(sk);
    /* singular: the determinant was computed, and is 0 */
    rest = rig_pose(t, q, s);
    rest.scale[3 * 2 + 1] = 0.0f;
    sk = make_skeleton(RIG_PARENTS, (const char *const *)RIG_NAMES, 4, &rest);
    ck_assert_int_eq(tendon_inverse_bind_from_rest(sk, NULL, shin, 1, ibm), TENDON_ERR_VALUE);
    m = tendon_error_message();
    ck_assert_msg(strstr(m, "singular") && strstr(m, "determinant is 0"), "singular: \"%s\"", m);
    tendon_skeleton_destroy(sk);
    /* an inverse beyond float: the spine scaled by 2^-130 in x (world x scale 2^-129, det
       2^-129 exactly), its inverse 2^129 > FLT_MAX */
    rest = rig_pose(t, q, s);
    rest.scale[3 * 3 + 0] = 0x1p-130f;
    sk = make_skeleton(RIG_PARENTS, (const char *const *)RIG_NAMES, 4, &rest);
    ck_assert_int_eq(tendon_inverse_bind_from_rest(sk, NULL, spine, 1, ibm), TENDON_ERR_VALUE);
    m = tendon_error_message();
    ck_assert_msg(strstr(m, "\"spine\"") && strstr(m, "overflows float") &&
                      strstr(m, "determinant is 1.46937e-39"),
                  "overflow: \"%s\"", m);
    tendon_skeleton_destroy(sk);
    /* a well-conditioned matrix (scale 1/4: determinant 1/64) whose inverse's translation alone
       overflows (t = 2e38 → −8e38): the translation is named, not a near singularity */
    const int32_t root_only[1] = {-1};
    float ft[3] = {2e38f, 0.0f, 0.0f}, fq[4] = {0, 0, 0, 1}, fs[3] = {0.25f, 0.25f, 0.25f};
    tendon_pose far = {ft, fq, fs, 1};
    sk = make_skeleton(root_only, NULL, 1, &far);
    const uint32_t first[1] = {0};
    ck_assert_int_eq(tendon_inverse_bind_from_rest(sk, NULL, first, 1, ibm), TENDON_ERR_VALUE);
    m = tendon_error_message();
    ck_assert_msg(strstr(m, "translation overflows float") && strstr(m, "(2e+38 0 0)") &&
                      strstr(m, "determinant is 0.015625") && !strstr(m, "singular"),
                  "translation overflow: \"%s\"", m);
    tendon_skeleton_destroy(sk);
}
END_TEST

/* ---- every ISA against the scalar table, bit for bit ------------------------------------------ */

/* Adversarial entries mixed into random data: zeros of both signs, denormals, huge, non-unit. */
static void spice(test_rng *r, float *v, size_t n)
{
    static const float special[] = {0.0f, -0.0f, 1e-40f, -3e-39f, 1e30f, -2.5e28f, 3.0f, 1e-20f};
    for (size_t i = 0; i < n; ++i)
        if (rng_unit(r) < 0.03)
            v[i] = special[rng_u64(r) % (sizeof special / sizeof special[0])];
}

START_TEST(test_isa_local_matrices)
{
    ISA_TABLE_OR_RETURN(k);
    const tendon_kernels *ref = tendon_kernels_for(TENDON_ISA_SCALAR);
    const char *isa = tendon_isa_name((tendon_isa)_i);
    test_rng r;
    rng_seed(&r, 0x10C + (uint64_t)_i);
    for (int c = 0; c < SWEEP_COUNT; ++c) {
        const size_t n = sweep_count(c);
        tbuf t = tbuf_make(12 * n, 4), q = tbuf_make(16 * n, 8), s = tbuf_make(12 * n, 12);
        tbuf o = tbuf_make(64 * n, 4), o2 = tbuf_make(64 * n, 0);
        tendon_pose p = {TBUF_F(t), TBUF_F(q), TBUF_F(s), n};
        random_pose(&r, &p);
        spice(&r, p.rotation, 4 * n);
        spice(&r, p.scale, 3 * n);
        ref->local_matrices(p.translation, p.rotation, p.scale, n, TBUF_F(o2));
        /* the table of this CPU's vendor, both vendors' tables (Intel's AVX2 one stores each
           matrix's 128-bit pieces on its own: local_matrices_pieces), and both forms */
        for (int v = -1; v < 4; ++v) {
            const tendon_kernels *kv =
                v < 0 ? k : v < 2 ? tendon_kernels_for_vendor((tendon_isa)_i, v) : NULL;
            const tendon_local_matrices_fn f =
                kv ? kv->local_matrices : tendon_local_matrices_form((tendon_isa)_i, v - 2);
            ck_assert_ptr_nonnull(f);
            static const char *const what[5] = {
                "local_matrices", "local_matrices (others' table)",
                "local_matrices (Intel's table)", "local_matrices (whole matrices)",
                "local_matrices_pieces"};
            memset(TBUF_F(o), 0xA5, 64 * n); /* nothing left from the last form */
            f(p.translation, p.rotation, p.scale, n, TBUF_F(o));
            assert_same_floats(TBUF_F(o), TBUF_F(o2), 16 * n, isa, what[v + 1], n);
        }
        tbuf_free(&t), tbuf_free(&q), tbuf_free(&s), tbuf_free(&o), tbuf_free(&o2);
    }
}
END_TEST

/*
 * local_model_lanes (the spring rig's matrices, a time per lane) against the test's own
 * composition: the scalar table's local matrices and the written pairwise product, lane by
 * lane — bit for bit on every ISA, at every count (tails), unaligned, for the three kinds of
 * parent; a parent's row 3 (poisoned with NaN) is never read, the outputs' row 3 never written.
 */
START_TEST(test_isa_local_model_lanes)
{
    ISA_TABLE_OR_RETURN(k);
    const tendon_kernels *ref = tendon_kernels_for(TENDON_ISA_SCALAR);
    const char *isa = tendon_isa_name((tendon_isa)_i);
    test_rng r;
    rng_seed(&r, 0x1A7E + (uint64_t)_i);
    for (int c = 0; c < SWEEP_COUNT; ++c) {
        const size_t n = sweep_count(c), stride = n + 3, ps = n + 5;
        tbuf t = tbuf_make(12 * n, 4), q = tbuf_make(16 * n, 8), sc = tbuf_make(12 * n, 12);
        tbuf lm = tbuf_make(64 * n, 0), par = tbuf_make(64 * ps, 4);
        tbuf mo = tbuf_make(64 * stride, 8), lo = tbuf_make(64 * stride, 12);
        tendon_pose p = {TBUF_F(t), TBUF_F(q), TBUF_F(sc), n};
        random_pose(&r, &p);
        spice(&r, p.rotation, 4 * n);
        spice(&r, p.scale, 3 * n);
        ref->local_matrices(p.translation, p.rotation, p.scale, n, TBUF_F(lm));
        float one_parent[16];
        for (int e = 0; e < 16; ++e) /* its row 3 is not read either */
            one_parent[e] = e % 4 == 3 ? NAN : (float)rng_range(&r, -2, 2);
        for (size_t e = 0; e < 16 * ps; ++e)
            TBUF_F(par)[e] = (e / ps) % 4 == 3 ? NAN : (float)rng_range(&r, -3, 3);
        spice(&r, TBUF_F(par), 16 * ps);
        for (size_t e = 0; e < 16 * ps; ++e) /* row 3 stays poison */
            if ((e / ps) % 4 == 3)
                TBUF_F(par)[e] = NAN;
        for (int kind = 0; kind < 3; ++kind) { /* no parent, one matrix, planes */
            memset(TBUF_F(mo), 0xA5, 64 * stride);
            memset(TBUF_F(lo), 0xA5, 64 * stride);
            const float *pp = kind == 0 ? NULL : kind == 1 ? one_parent : TBUF_F(par);
            k->local_model_lanes(p.translation, p.rotation, p.scale, n, pp, kind == 2 ? ps : 0,
                                 kind == 1 ? NULL : TBUF_F(lo), TBUF_F(mo), stride);
            for (size_t i = 0; i < n; ++i) {
                const float *l = TBUF_F(lm) + 16 * i;
                float a[16];
                for (int e = 0; e < 16; ++e)
                    a[e] = kind == 1 ? one_parent[e] : kind == 2 ? TBUF_F(par)[e * ps + i] : 0.0f;
                for (int e = 0; e < 16; ++e) {
                    const int row = e % 4, col = e / 4;
                    float want;
                    uint32_t got_bits, want_bits;
                    if (row == 3) { /* never written: the poison is still there */
                        memcpy(&got_bits, &TBUF_F(mo)[e * stride + i], 4);
                        ck_assert_msg(got_bits == 0xA5A5A5A5u,
                                      "%s local_model_lanes wrote row 3 (element %d, lane %zu)",
                                      isa, e, i);
                        memcpy(&got_bits, &TBUF_F(lo)[e * stride + i], 4);
                        ck_assert_msg(got_bits == 0xA5A5A5A5u,
                                      "%s local_model_lanes wrote the local row 3 (element %d, "
                                      "lane %zu)",
                                      isa, e, i);
                        continue;
                    }
                    want = kind == 0 ? l[e]
                                     : (a[row] * l[4 * col] + a[4 + row] * l[4 * col + 1]) +
                                           (a[8 + row] * l[4 * col + 2] +
                                            a[12 + row] * l[4 * col + 3]);
                    memcpy(&got_bits, &TBUF_F(mo)[e * stride + i], 4);
                    memcpy(&want_bits, &want, 4);
                    ck_assert_msg(got_bits == want_bits,
                                  "%s local_model_lanes, %zu lanes, parent kind %d: model "
                                  "element %d of lane %zu is %a, want %a",
                                  isa, n, kind, e, i, (double)TBUF_F(mo)[e * stride + i],
                                  (double)want);
                    if (kind != 1) {
                        memcpy(&got_bits, &TBUF_F(lo)[e * stride + i], 4);
                        memcpy(&want_bits, &l[e], 4);
                        ck_assert_msg(got_bits == want_bits,
                                      "%s local_model_lanes, %zu lanes: local element %d of "
                                      "lane %zu differs",
                                      isa, n, e, i);
                    }
                }
            }
        }
        tbuf_free(&t), tbuf_free(&q), tbuf_free(&sc), tbuf_free(&lm), tbuf_free(&par);
        tbuf_free(&mo), tbuf_free(&lo);
    }
}
END_TEST

/*
 * transform_points_lanes against the written formula, lane by lane: matrices as planes (row 3
 * poisoned: never read) or one matrix, points as planes or one point, out of place and in
 * place (out = p), every count, bit for bit on every ISA.
 */
START_TEST(test_isa_transform_points_lanes)
{
    ISA_TABLE_OR_RETURN(k);
    const char *isa = tendon_isa_name((tendon_isa)_i);
    test_rng r;
    rng_seed(&r, 0x7A9E + (uint64_t)_i);
    for (int c = 0; c < SWEEP_COUNT; ++c) {
        const size_t n = sweep_count(c), ms = n + 1, ps = n + 7, os = n + 2;
        tbuf m = tbuf_make(64 * ms, 4), pt = tbuf_make(12 * ps, 8), o = tbuf_make(12 * ps, 0);
        for (size_t e = 0; e < 16 * ms; ++e)
            TBUF_F(m)[e] = (float)rng_range(&r, -3, 3);
        spice(&r, TBUF_F(m), 16 * ms);
        for (size_t e = 0; e < 16 * ms; ++e)
            if ((e / ms) % 4 == 3)
                TBUF_F(m)[e] = NAN;
        float one_m[16], one_p[3];
        for (int e = 0; e < 16; ++e)
            one_m[e] = (float)rng_range(&r, -2, 2);
        for (int e = 0; e < 3; ++e)
            one_p[e] = (float)rng_range(&r, -2, 2);
        for (int form = 0; form < 5; ++form) { /* planes × planes, one × planes, planes × one,
                                                  one × one, planes × planes in place */
            const int mp = form != 1 && form != 3, pp = form != 2 && form != 3;
            float *pts = TBUF_F(pt), *out = form == 4 ? pts : TBUF_F(o);
            const size_t ostride = form == 4 ? ps : os;
            for (size_t e = 0; e < 3 * ps; ++e)
                pts[e] = (float)rng_range(&r, -4, 4);
            spice(&r, pts, 3 * ps);
            float want[3][SWEEP_LONG + 68];
            for (size_t i = 0; i < n; ++i)
                for (int kk = 0; kk < 3; ++kk) {
#define M_(e) (mp ? TBUF_F(m)[(size_t)(e) * ms + i] : one_m[e])
#define P_(e) (pp ? pts[(size_t)(e) * ps + i] : one_p[e])
                    want[kk][i] = ((M_(kk) * P_(0) + M_(4 + kk) * P_(1)) + M_(8 + kk) * P_(2)) +
                                  M_(12 + kk);
#undef M_
#undef P_
                }
            if (form != 4)
                memset(TBUF_F(o), 0xA5, 12 * ps);
            k->transform_points_lanes(mp ? TBUF_F(m) : one_m, mp ? ms : 0, pp ? pts : one_p,
                                      pp ? ps : 0, n, out, ostride);
            for (size_t i = 0; i < n; ++i)
                for (int kk = 0; kk < 3; ++kk) {
                    uint32_t g, w;
                    memcpy(&g, &out[(size_t)kk * ostride + i], 4);
                    memcpy(&w, &want[kk][i], 4);
                    ck_assert_msg(g == w,
                                  "%s transform_points_lanes form %d, %zu lanes: coordinate %d "
                                  "of lane %zu is %a, want %a",
                                  isa, form, n, kk, i, (double)out[(size_t)kk * ostride + i],
                                  (double)want[kk][i]);
                }
        }
        tbuf_free(&m), tbuf_free(&pt), tbuf_free(&o);
    }
}
END_TEST

START_TEST(test_isa_model_and_palette)
{
    ISA_TABLE_OR_RETURN(k);
    const tendon_kernels *ref = tendon_kernels_for(TENDON_ISA_SCALAR);
    const char *isa = tendon_isa_name((tendon_isa)_i);
    test_rng r;
    rng_seed(&r, 0x30D + (uint64_t)_i);
    for (int c = 0; c < SWEEP_COUNT; ++c) {
        const size_t n = sweep_count(c);
        int32_t *parents = malloc((n + 1) * sizeof *parents);
        uint32_t *joint_of = malloc((n + 1) * sizeof *joint_of);
        uint32_t *order = malloc((n + 1) * sizeof *order);
        ck_assert(parents && joint_of && order);
        random_parents(&r, n, parents);
        tbuf local = tbuf_make(64 * n, 4), m1 = tbuf_make(64 * n, 8), m2 = tbuf_make(64 * n, 0);
        tbuf ibm = tbuf_make(64 * n, 4), p1 = tbuf_make(64 * n, 12), p2 = tbuf_make(64 * n, 0);
        tbuf p3 = tbuf_make(64 * n, 0), p4 = tbuf_make(64 * n, 16);
        tendon_pose pose;
        ck_assert_int_eq(tendon_pose_create(n, &pose), TENDON_OK);
        random_pose(&r, &pose);
        ref->local_matrices(pose.translation, pose.rotation, pose.scale, n, TBUF_F(local));
        for (size_t e = 0; e < 16 * n; ++e)
            TBUF_F(ibm)[e] = (float)rng_range(&r, -2, 2);
        spice(&r, TBUF_F(ibm), 16 * n);
        for (size_t j = 0; j < n; ++j)
            joint_of[j] = (uint32_t)(rng_u64(&r) % n);
        for (int with_root = 0; with_root < 2; ++with_root) {
            const float *root = with_root ? RIG_ROOT : NULL;
            k->model_matrices(TBUF_F(local), parents, root, 0, n, TBUF_F(m1));
            ref->model_matrices(TBUF_F(local), parents, root, 0, n, TBUF_F(m2));
            assert_same_floats(TBUF_F(m1), TBUF_F(m2), 16 * n, isa, "model_matrices", n);
            /* in place */
            memcpy(TBUF_F(m1), TBUF_F(local), 64 * n);
            k->model_matrices(TBUF_F(m1), parents, root, 0, n, TBUF_F(m1));
            assert_same_floats(TBUF_F(m1), TBUF_F(m2), 16 * n, isa, "model_matrices in place", n);
            /* a partial update from the middle */
            k->model_matrices(TBUF_F(local), parents, root, n / 2, n, TBUF_F(m1));
            assert_same_floats(TBUF_F(m1), TBUF_F(m2), 16 * n, isa, "model_matrices partial", n);
            /* the ordered pass, by level and in a random topological order, out of place and
               in place: the joint-order matrices bit for bit */
            for (int o = 0; o < 2; ++o) {
                if (o == 0)
                    level_order_by_scans(parents, n, order);
                else
                    random_topological_order(&r, parents, n, order);
                memset(TBUF_F(m1), 0xA5, 64 * n);
                k->model_matrices_ordered(TBUF_F(local), parents, root, order, n, TBUF_F(m1));
                assert_same_floats(TBUF_F(m1), TBUF_F(m2), 16 * n, isa,
                                   o ? "model_matrices_ordered (random order)"
                                     : "model_matrices_ordered (level order)",
                                   n);
                memcpy(TBUF_F(m1), TBUF_F(local), 64 * n);
                k->model_matrices_ordered(TBUF_F(m1), parents, root, order, n, TBUF_F(m1));
                assert_same_floats(TBUF_F(m1), TBUF_F(m2), 16 * n, isa,
                                   "model_matrices_ordered in place", n);
            }
            ref->palette(TBUF_F(m2), joint_of, TBUF_F(ibm), n, TBUF_F(p2));
            /* the binding's form of the inverse bind matrices (kernels.h palette_splat) */
            float *splat = malloc(256 * n + 4);
            for (size_t j = 0; j < n; ++j)
                for (int e = 0; e < 4; ++e)
                    for (int c = 0; c < 4; ++c)
                        for (int l = 0; l < 4; ++l)
                            splat[64 * j + 16 * e + 4 * c + l] = TBUF_F(ibm)[16 * j + 4 * c + e];
            /* the output 12 bytes past a line, on a line and 16 bytes past one (the wide ISAs
               store an output not aligned to their vector in 128-bit pieces) */
            tbuf *outs[3] = {&p1, &p3, &p4};
            for (int oi = 0; oi < 3; ++oi) {
                float *po = TBUF_F(*outs[oi]);
                memset(po, 0xA5, 64 * n);
                k->palette(TBUF_F(m2), joint_of, TBUF_F(ibm), n, po);
                assert_same_floats(po, TBUF_F(p2), 16 * n, isa, "palette", n);
                memset(po, 0xA5, 64 * n);
                k->palette_splat(TBUF_F(m2), joint_of, splat, n, po);
                assert_same_floats(po, TBUF_F(p2), 16 * n, isa, "palette_splat", n);
            }
            free(splat);
        }
        tendon_pose_destroy(&pose);
        tbuf_free(&local), tbuf_free(&m1), tbuf_free(&m2);
        tbuf_free(&ibm), tbuf_free(&p1), tbuf_free(&p2), tbuf_free(&p3), tbuf_free(&p4);
        free(parents);
        free(joint_of);
        free(order);
    }
}
END_TEST

/*
 * tendon_model_matrices_on through each ISA's table (whichever order it walks a whole skeleton
 * in): the scalar table's joint-order matrices bit for bit, whole and partial, in place; NULL is
 * the active table; errors as tendon_model_matrices.
 */
START_TEST(test_isa_model_matrices_on)
{
    ISA_TABLE_OR_RETURN(k);
    const tendon_kernels *ref = tendon_kernels_for(TENDON_ISA_SCALAR);
    const char *isa = tendon_isa_name((tendon_isa)_i);
    test_rng r;
    rng_seed(&r, 0x0D0E + (uint64_t)_i);
    static const size_t sizes[] = {1, 2, 5, 16, 17, 67, 300};
    for (size_t c = 0; c < sizeof sizes / sizeof sizes[0]; ++c) {
        const size_t n = sizes[c];
        int32_t *parents = malloc(n * sizeof *parents);
        float *local = tendon_aligned_alloc(64, 64 * n), *m1 = tendon_aligned_alloc(64, 64 * n);
        float *m2 = tendon_aligned_alloc(64, 64 * n);
        ck_assert(parents && local && m1 && m2);
        random_dfs_parents(&r, n, parents);
        tendon_skeleton *sk = make_skeleton(parents, NULL, n, NULL);
        tendon_pose pose;
        ck_assert_int_eq(tendon_pose_create(n, &pose), TENDON_OK);
        random_pose(&r, &pose);
        ref->local_matrices(pose.translation, pose.rotation, pose.scale, n, local);
        for (int with_root = 0; with_root < 2; ++with_root) {
            const float *root = with_root ? RIG_ROOT : NULL;
            ref->model_matrices(local, parents, root, 0, n, m2);
            ck_assert_int_eq(tendon_model_matrices_on(k, sk, local, root, 0, n, m1), TENDON_OK);
            assert_same_floats(m1, m2, 16 * n, isa, "tendon_model_matrices_on", n);
            memcpy(m1, local, 64 * n);
            ck_assert_int_eq(tendon_model_matrices_on(k, sk, m1, root, 0, n, m1), TENDON_OK);
            assert_same_floats(m1, m2, 16 * n, isa, "tendon_model_matrices_on in place", n);
            ck_assert_int_eq(tendon_model_matrices_on(k, sk, local, root, n / 2, n - n / 2, m1),
                             TENDON_OK);
            assert_same_floats(m1, m2, 16 * n, isa, "tendon_model_matrices_on partial", n);
            memset(m1, 0, 64 * n);
            ck_assert_int_eq(tendon_model_matrices_on(NULL, sk, local, root, 0, n, m1), TENDON_OK);
            assert_same_floats(m1, m2, 16 * n, isa, "tendon_model_matrices_on(NULL)", n);
        }
        ck_assert_int_eq(tendon_model_matrices_on(k, NULL, local, NULL, 0, n, m1),
                         TENDON_ERR_NULL);
        ck_assert_int_eq(tendon_model_matrices_on(k, sk, local, NULL, 1, n, m1), TENDON_ERR_RANGE);
        tendon_pose_destroy(&pose);
        tendon_skeleton_destroy(sk);
        free(parents), tendon_aligned_free(local), tendon_aligned_free(m1),
            tendon_aligned_free(m2);
    }
}
END_TEST

/* NaN and ±∞ in a pose: every ISA gives NaN where scalar does (by class), the rest bit for bit. */
START_TEST(test_isa_non_finite)
{
    ISA_TABLE_OR_RETURN(k);
    const tendon_kernels *ref = tendon_kernels_for(TENDON_ISA_SCALAR);
    test_rng r;
    rng_seed(&r, 0xBAD + (uint64_t)_i);
    const size_t n = 37;
    tendon_pose pose;
    ck_assert_int_eq(tendon_pose_create(n, &pose), TENDON_OK);
    random_pose(&r, &pose);
    pose.rotation[5] = NAN;
    pose.scale[9] = INFINITY;
    pose.translation[40] = -INFINITY;
    pose.rotation[100] = INFINITY;
    float a[37 * 16], b[37 * 16], ma[37 * 16], mb[37 * 16];
    int32_t parents[37];
    random_parents(&r, n, parents);
    k->local_matrices(pose.translation, pose.rotation, pose.scale, n, a);
    ref->local_matrices(pose.translation, pose.rotation, pose.scale, n, b);
    assert_same_floats(a, b, 16 * n, tendon_isa_name((tendon_isa)_i), "local (non-finite)", n);
    k->model_matrices(b, parents, RIG_ROOT, 0, n, ma);
    ref->model_matrices(b, parents, RIG_ROOT, 0, n, mb);
    assert_same_floats(ma, mb, 16 * n, tendon_isa_name((tendon_isa)_i), "model (non-finite)", n);
    uint32_t order[37];
    level_order_by_scans(parents, n, order);
    k->model_matrices_ordered(b, parents, RIG_ROOT, order, n, ma);
    assert_same_floats(ma, mb, 16 * n, tendon_isa_name((tendon_isa)_i),
                       "model ordered (non-finite)", n);
    tendon_pose_destroy(&pose);
}
END_TEST

/* The public pipeline (active ISA) equals the scalar table's local → model → palette. */
START_TEST(test_public_pipeline_matches_scalar)
{
    test_rng r;
    rng_seed(&r, 0x9193);
    const size_t n = 67, pc = 41;
    int32_t parents[67];
    random_dfs_parents(&r, n, parents);
    tendon_pose pose;
    ck_assert_int_eq(tendon_pose_create(n, &pose), TENDON_OK);
    random_pose(&r, &pose);
    tendon_skeleton *sk = make_skeleton(parents, NULL, n, &pose);
    random_pose(&r, &pose);
    uint32_t joint_of[41];
    for (size_t j = 0; j < pc; ++j)
        joint_of[j] = (uint32_t)(rng_u64(&r) % n);
    tendon_skin_binding *b;
    ck_assert_int_eq(tendon_skin_binding_create(sk, joint_of, NULL, pc, &b), TENDON_OK);
    float model[67 * 16], pal[41 * 16], m2[67 * 16], p2[41 * 16];
    ck_assert_int_eq(tendon_pose_palette(sk, b, &pose, RIG_ROOT, model, pal), TENDON_OK);
    const tendon_kernels *ref = tendon_kernels_for(TENDON_ISA_SCALAR);
    ref->local_matrices(pose.translation, pose.rotation, pose.scale, n, m2);
    ref->model_matrices(m2, parents, RIG_ROOT, 0, n, m2);
    ref->palette(m2, joint_of, tendon_skin_binding_inverse_bind(b), pc, p2);
    ck_assert_msg(first_float_diff(model, m2, 16 * n) < 0, "model matrices differ from scalar");
    ck_assert_msg(first_float_diff(pal, p2, 16 * pc) < 0, "palette differs from scalar");
    tendon_skin_binding_destroy(b);
    tendon_skeleton_destroy(sk);
    tendon_pose_destroy(&pose);
}
END_TEST

/*
 * The palette entry points take the splat table only up to the table's palette_splat_max entries
 * (kernels.h; 128 on an Intel CPU's AVX2 and AVX-512 tables): either side of that limit, and far
 * past it, tendon_palette gives the scalar reference's bits on every ISA the CPU runs (each
 * forced in turn, the active one put back). Every table says a limit of at least one entry where
 * the splat table pays at all.
 */
START_TEST(test_palette_splat_limit)
{
    for (int i = 0; i < TENDON_ISA_COUNT; ++i) {
        const tendon_kernels *k = tendon_kernels_for((tendon_isa)i);
        if (k && k->palette_splat_pays)
            ck_assert_msg(k->palette_splat_max >= 1, "%s: the splat table pays for no palette",
                          tendon_isa_name((tendon_isa)i));
    }
    test_rng r;
    rng_seed(&r, 0x5B1A7);
    enum { N = 9 };
    int32_t parents[N];
    random_dfs_parents(&r, N, parents);
    tendon_pose pose;
    ck_assert_int_eq(tendon_pose_create(N, &pose), TENDON_OK);
    random_pose(&r, &pose);
    tendon_skeleton *sk = make_skeleton(parents, NULL, N, &pose);
    float model[16 * N];
    ck_assert_int_eq(tendon_pose_model_matrices(sk, &pose, NULL, model), TENDON_OK);
    tendon_isa was = TENDON_ISA_SCALAR;
    ck_assert_int_eq(tendon_isa_active(&was), TENDON_OK);
    const size_t counts[] = {1, 127, 128, 129, 300};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; ++c) {
        const size_t pc = counts[c];
        uint32_t *joint_of = malloc(pc * sizeof *joint_of);
        float *ibm = malloc(16 * pc * sizeof(float)), *got = malloc(16 * pc * sizeof(float));
        float *want = malloc(16 * pc * sizeof(float));
        ck_assert_ptr_nonnull(joint_of);
        ck_assert_ptr_nonnull(ibm);
        ck_assert_ptr_nonnull(got);
        ck_assert_ptr_nonnull(want);
        for (size_t e = 0; e < pc; ++e) {
            joint_of[e] = (uint32_t)(rng_u64(&r) % N);
            /* an affine matrix: a random 3×3 and translation, bottom row 0 0 0 1 */
            for (int x = 0; x < 16; ++x)
                ibm[16 * e + x] = (x % 4 == 3) ? (x == 15 ? 1.0f : 0.0f)
                                               : (float)rng_range(&r, -2.0, 2.0);
        }
        tendon_skin_binding *b;
        const tendon_status st = tendon_skin_binding_create(sk, joint_of, ibm, pc, &b);
        ck_assert_msg(st == TENDON_OK, "binding of %zu entries: %s", pc, tendon_error_message());
        tendon_kernels_for(TENDON_ISA_SCALAR)->palette(model, joint_of, ibm, pc, want);
        /* through the public call on every ISA this CPU runs (the dispatch's own tables) */
        for (int i = 0; i < TENDON_ISA_COUNT; ++i) {
            if (!tendon_isa_supported((tendon_isa)i))
                continue;
            ck_assert_int_eq(tendon_isa_force((tendon_isa)i), TENDON_OK);
            memset(got, 0xFF, 16 * pc * sizeof(float));
            ck_assert_int_eq(tendon_palette(b, model, N, got), TENDON_OK);
            const long d = first_float_diff(got, want, 16 * pc);
            ck_assert_msg(d < 0,
                          "%s, %zu palette entries: float %ld differs from the scalar palette",
                          tendon_isa_name((tendon_isa)i), pc, d);
        }
        ck_assert_int_eq(tendon_isa_force(was), TENDON_OK);
        tendon_skin_binding_destroy(b);
        free(joint_of), free(ibm), free(got), free(want);
    }
    tendon_skeleton_destroy(sk);
    tendon_pose_destroy(&pose);
}
END_TEST

static Suite *skeleton_suite(void)
{
    Suite *s = suite_create("skeleton");
    TCase *api = tcase_create("api");
    tcase_add_test(api, test_create_and_query);
    tcase_add_test(api, test_level_order);
    tcase_add_test(api, test_create_errors);
    tcase_add_test(api, test_create_requires_dfs_preorder);
    tcase_add_test(api, test_local_hand);
    tcase_add_test(api, test_local_cglm);
    tcase_add_test(api, test_model_hand);
    tcase_add_test(api, test_model_cglm);
    tcase_add_test(api, test_model_partial);
    tcase_add_test(api, test_model_errors);
    tcase_add_test(api, test_inverse_bind_cglm);
    tcase_add_test(api, test_inverse_bind_errors);
    tcase_add_test(api, test_palette_hand);
    tcase_add_test(api, test_palette_cglm_two_bindings);
    tcase_add_test(api, test_palette_errors);
    tcase_add_test(api, test_misaligned_refused);
    tcase_add_test(api, test_misaligned_names_refused);
    tcase_add_test(api, test_inverse_bind_messages);
    tcase_add_test(api, test_public_pipeline_matches_scalar);
    tcase_add_test(api, test_palette_splat_limit);
    suite_add_tcase(s, api);
    TCase *isa = tcase_create("every_isa");
    tcase_set_timeout(isa, 60);
    tcase_add_loop_test(isa, test_isa_local_matrices, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(isa, test_isa_local_model_lanes, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(isa, test_isa_transform_points_lanes, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(isa, test_isa_model_and_palette, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(isa, test_isa_non_finite, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(isa, test_isa_model_matrices_on, 0, TENDON_ISA_COUNT);
    suite_add_tcase(s, isa);
    return s;
}

int main(void)
{
    if (env_isa_unusable())
        return 77;
    return run_suite(skeleton_suite());
}
