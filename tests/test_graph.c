/*
 * The blend tree and the state machine (tendon/graph.h) against hand-computed blends, and every
 * refusal. The seed's own state-machine cases are replayed by test_graph_seed.c.
 *
 * Oracles: translations and scales of a blend are lerps in double rounded once
 * (from + (to − from)·w), written out here by hand; rotations are slerps of two rotations about
 * one axis, whose result is the rotation by the interpolated angle — computed with libm's
 * sin/cos in double and allowed one float32 ulp (tendon's slerp uses its own acos/sin).
 */
#include <float.h>
#include <math.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

/* A constant source: one joint, translation t, rotation about z by angle_rad, scale s; counts
 * its calls and remembers the last time it was handed. writes_rotation_only leaves t and s. */
typedef struct source {
    float t[3], r[4], s[3];
    int rotation_only;
    int calls;
    double last_time;
    int time_in_x; /* translation.x = time (so the clock shows in the pose) */
} source;

static void source_init(source *src, float x, float y, float z, double angle_rad)
{
    memset(src, 0, sizeof *src);
    src->t[0] = x;
    src->t[1] = y;
    src->t[2] = z;
    src->r[2] = (float)sin(angle_rad / 2);
    src->r[3] = (float)cos(angle_rad / 2);
    src->s[0] = src->s[1] = src->s[2] = 1.0f;
}

static void source_sample(void *user, double time, tendon_pose *out)
{
    source *src = user;
    src->calls++;
    src->last_time = time;
    memcpy(out->rotation, src->r, sizeof src->r);
    if (src->rotation_only)
        return;
    memcpy(out->translation, src->t, sizeof src->t);
    memcpy(out->scale, src->s, sizeof src->s);
    if (src->time_in_x)
        out->translation[0] = (float)time;
}

static tendon_blend_node leaf(source *src, const char *clock)
{
    return (tendon_blend_node){.kind = TENDON_BLEND_SOURCE, .sample = source_sample,
                               .user = src, .clock = clock};
}

static tendon_blend_tree *make_tree(const tendon_blend_node *nodes, size_t count, size_t root,
                                    const tendon_pose *bind)
{
    tendon_blend_tree_desc d = {.nodes = nodes, .node_count = count, .root = root,
                                .joint_count = 1, .bind = bind};
    tendon_blend_tree *tree = NULL;
    ck_assert_msg(tendon_blend_tree_create(&d, &tree) == TENDON_OK, "%s",
                  tendon_error_message());
    return tree;
}

static tendon_status try_tree(const tendon_blend_node *nodes, size_t count, size_t root)
{
    tendon_blend_tree_desc d = {.nodes = nodes, .node_count = count, .root = root,
                                .joint_count = 1};
    tendon_blend_tree *tree = (tendon_blend_tree *)&d;
    tendon_status s = tendon_blend_tree_create(&d, &tree);
    if (s != TENDON_OK)
        ck_assert_ptr_null(tree);
    tendon_blend_tree_destroy(s == TENDON_OK ? tree : NULL);
    return s;
}

static void expect_f(float got, double want, const char *what)
{
    ck_assert_msg(float_bits(got) == float_bits((float)want), "%s = %a, expected %a", what,
                  (double)got, (double)(float)want);
}

/* Rotation about z by angle: (0, 0, sin(a/2), cos(a/2)), each within one ulp. */
static void expect_rot_z(const float *q, double angle, const char *what)
{
    const float want[4] = {0.0f, 0.0f, (float)sin(angle / 2), (float)cos(angle / 2)};
    for (int c = 0; c < 4; ++c) {
        const int64_t d = float_ulp_distance(q[c], want[c]);
        ck_assert_msg(d == 0 || d == 1 || (want[c] == 0.0f && q[c] == 0.0f),
                      "%s[%d] = %a, expected %a (rotation by %.17g about z)", what, c,
                      (double)q[c], (double)want[c], angle);
    }
}

/* ---- nodes -------------------------------------------------------------------------------- */

START_TEST(test_source_root)
{
    source a;
    source_init(&a, 1, 2, 3, 0);
    a.time_in_x = 1;
    tendon_blend_node n = leaf(&a, NULL);
    tendon_blend_tree *tree = make_tree(&n, 1, 0, NULL);
    tendon_pose out;
    ck_assert_int_eq(tendon_pose_create(1, &out), TENDON_OK);
    ck_assert_int_eq(tendon_blend_tree_evaluate(tree, 0.75, &out), TENDON_OK);
    expect_f(out.translation[0], 0.75, "x (the frame clock)");
    expect_f(out.translation[1], 2, "y");
    ck_assert_double_eq(a.last_time, 0.75);
    /* A root source writes straight into out: what it leaves keeps the caller's values. */
    a.rotation_only = 1;
    out.translation[1] = 9.0f;
    ck_assert_int_eq(tendon_blend_tree_evaluate(tree, 0.5, &out), TENDON_OK);
    expect_f(out.translation[1], 9, "y left by a rotation-only root source");
    tendon_pose_destroy(&out);
    tendon_blend_tree_destroy(tree);
}
END_TEST

START_TEST(test_lerp)
{
    source a, b;
    source_init(&a, 0, 1, -2, 0);
    source_init(&b, 2, 5, -10, M_PI / 2);
    b.s[0] = 3.0f;
    tendon_blend_node nodes[3] = {
        {.kind = TENDON_BLEND_LERP, .parameter = "aim", .a = 1, .b = 2}, leaf(&a, NULL),
        leaf(&b, NULL)};
    tendon_blend_tree *tree = make_tree(nodes, 3, 0, NULL);
    tendon_pose out;
    ck_assert_int_eq(tendon_pose_create(1, &out), TENDON_OK);

    double v = -1;
    ck_assert_int_eq(tendon_blend_tree_get(tree, "aim", &v), TENDON_OK);
    ck_assert_double_eq(v, 0.0); /* 0 until set */

    ck_assert_int_eq(tendon_blend_tree_set(tree, "aim", 0.25), TENDON_OK);
    ck_assert_int_eq(tendon_blend_tree_evaluate(tree, 0, &out), TENDON_OK);
    /* 0 + (2 − 0)·0.25, 1 + (5 − 1)·0.25, −2 + (−10 + 2)·0.25, scale 1 + (3 − 1)·0.25 */
    expect_f(out.translation[0], 0.5, "x");
    expect_f(out.translation[1], 2.0, "y");
    expect_f(out.translation[2], -4.0, "z");
    expect_f(out.scale[0], 1.5, "sx");
    expect_f(out.scale[1], 1.0, "sy");
    expect_rot_z(out.rotation, M_PI / 8, "rotation at 0.25 of 90°");

    /* Outside [0, 1]: clamped by the blend, not extrapolated. */
    ck_assert_int_eq(tendon_blend_tree_set(tree, "aim", 4.0), TENDON_OK);
    ck_assert_int_eq(tendon_blend_tree_evaluate(tree, 0, &out), TENDON_OK);
    expect_f(out.translation[0], 2.0, "x at 4 (clamped to 1)");
    expect_f(out.translation[2], -10.0, "z at 4");
    ck_assert_int_eq(tendon_blend_tree_set(tree, "aim", -INFINITY), TENDON_OK);
    ck_assert_int_eq(tendon_blend_tree_evaluate(tree, 0, &out), TENDON_OK);
    expect_f(out.translation[1], 1.0, "y at −∞ (clamped to 0)");
    expect_rot_z(out.rotation, 0.0, "rotation at −∞");
    tendon_pose_destroy(&out);
    tendon_blend_tree_destroy(tree);
}
END_TEST

/* Children at 0, 1, 3 with x = 10, 20, 40 (and rotations 0°, 60°, 120° about z). */
typedef struct one_d {
    source src[3];
    tendon_blend_tree *tree;
    tendon_pose out;
} one_d;

static void one_d_setup(one_d *t)
{
    static const size_t children[3] = {1, 2, 3};
    static const double at[3] = {0.0, 1.0, 3.0};
    source_init(&t->src[0], 10, 0, 0, 0);
    source_init(&t->src[1], 20, 0, 0, M_PI / 3);
    source_init(&t->src[2], 40, 0, 0, 2 * M_PI / 3);
    tendon_blend_node nodes[4] = {{.kind = TENDON_BLEND_ONE_DIMENSIONAL, .parameter = "speed",
                                   .children = children, .at = at, .child_count = 3},
                                  leaf(&t->src[0], NULL), leaf(&t->src[1], NULL),
                                  leaf(&t->src[2], NULL)};
    t->tree = make_tree(nodes, 4, 0, NULL);
    ck_assert_int_eq(tendon_pose_create(1, &t->out), TENDON_OK);
}

static void one_d_at(one_d *t, double v, double want_x, double want_angle, int want_calls[3])
{
    for (int i = 0; i < 3; ++i)
        t->src[i].calls = 0;
    ck_assert_int_eq(tendon_blend_tree_set(t->tree, "speed", v), TENDON_OK);
    ck_assert_int_eq(tendon_blend_tree_evaluate(t->tree, 0, &t->out), TENDON_OK);
    char what[64];
    snprintf(what, sizeof what, "x at speed %g", v);
    expect_f(t->out.translation[0], want_x, what);
    snprintf(what, sizeof what, "rotation at speed %g", v);
    expect_rot_z(t->out.rotation, want_angle, what);
    for (int i = 0; i < 3; ++i)
        ck_assert_msg(t->src[i].calls == want_calls[i], "speed %g: child %d sampled %d times, "
                      "expected %d", v, i, t->src[i].calls, want_calls[i]);
}

START_TEST(test_one_dimensional)
{
    one_d t;
    one_d_setup(&t);
    /* Below the first position and on it: child 0 alone; above the last and on it: child 2. */
    one_d_at(&t, -5.0, 10, 0, (int[3]){1, 0, 0});
    one_d_at(&t, 0.0, 10, 0, (int[3]){1, 0, 0});
    one_d_at(&t, 3.0, 40, 2 * M_PI / 3, (int[3]){0, 0, 1});
    one_d_at(&t, 100.0, 40, 2 * M_PI / 3, (int[3]){0, 0, 1});
    one_d_at(&t, INFINITY, 40, 2 * M_PI / 3, (int[3]){0, 0, 1});
    /* Exactly on the middle child: that child alone, no blend with a neighbour. */
    one_d_at(&t, 1.0, 20, M_PI / 3, (int[3]){0, 1, 0});
    /* Between: (v − at[i]) / (at[i+1] − at[i]). 0.5 → halfway 10..20; 2 → halfway 20..40;
     * 2.5 → 0.75 of 20..40 = 35, angle 60° + 0.75·60° = 105°. */
    one_d_at(&t, 0.5, 15, M_PI / 6, (int[3]){1, 1, 0});
    one_d_at(&t, 2.0, 30, M_PI / 2, (int[3]){0, 1, 1});
    one_d_at(&t, 2.5, 35, 105.0 * M_PI / 180.0, (int[3]){0, 1, 1});
    tendon_pose_destroy(&t.out);
    tendon_blend_tree_destroy(t.tree);
}
END_TEST

START_TEST(test_one_dimensional_single_child)
{
    static const size_t children[1] = {1};
    static const double at[1] = {2.0};
    source a;
    source_init(&a, 7, 0, 0, 0);
    tendon_blend_node nodes[2] = {{.kind = TENDON_BLEND_ONE_DIMENSIONAL, .parameter = "p",
                                   .children = children, .at = at, .child_count = 1},
                                  leaf(&a, NULL)};
    tendon_blend_tree *tree = make_tree(nodes, 2, 0, NULL);
    tendon_pose out;
    ck_assert_int_eq(tendon_pose_create(1, &out), TENDON_OK);
    const double vs[3] = {-1, 2, 5};
    for (int i = 0; i < 3; ++i) {
        ck_assert_int_eq(tendon_blend_tree_set(tree, "p", vs[i]), TENDON_OK);
        ck_assert_int_eq(tendon_blend_tree_evaluate(tree, 0, &out), TENDON_OK);
        expect_f(out.translation[0], 7, "x of the only child");
    }
    tendon_pose_destroy(&out);
    tendon_blend_tree_destroy(tree);
}
END_TEST

/* The canonical blend space: an idle on the frame clock, a walk on its own stride clock. */
START_TEST(test_clocks)
{
    source idle, walk;
    source_init(&idle, 0, 0, 0, 0);
    source_init(&walk, 0, 0, 0, 0);
    idle.time_in_x = walk.time_in_x = 1;
    tendon_blend_node nodes[3] = {
        {.kind = TENDON_BLEND_LERP, .parameter = "speed", .a = 1, .b = 2}, leaf(&idle, NULL),
        leaf(&walk, "stride")};
    tendon_blend_tree *tree = make_tree(nodes, 3, 0, NULL);
    tendon_pose out;
    ck_assert_int_eq(tendon_pose_create(1, &out), TENDON_OK);
    ck_assert_int_eq(tendon_blend_tree_set(tree, "stride", 0.4), TENDON_OK);
    ck_assert_int_eq(tendon_blend_tree_set(tree, "speed", 0.5), TENDON_OK);
    ck_assert_int_eq(tendon_blend_tree_evaluate(tree, 2.0, &out), TENDON_OK);
    ck_assert_double_eq(idle.last_time, 2.0);
    ck_assert_double_eq(walk.last_time, 0.4);
    /* x = 2 + (0.4f − 2)·0.5 in double, rounded once */
    expect_f(out.translation[0], 2.0 + ((double)0.4f - 2.0) * 0.5, "x");
    /* An unset clock is 0, not the frame time. */
    tendon_blend_tree_destroy(tree);
    tree = make_tree(nodes, 3, 0, NULL);
    ck_assert_int_eq(tendon_blend_tree_evaluate(tree, 2.0, &out), TENDON_OK);
    ck_assert_double_eq(walk.last_time, 0.0);
    tendon_pose_destroy(&out);
    tendon_blend_tree_destroy(tree);
}
END_TEST

/* Rotation-only sources under a lerp keep the bind pose's translations; without one they
 * collapse onto the parent's origin (the seed's reason for the bind pose). */
START_TEST(test_bind_pose)
{
    source a, b;
    source_init(&a, 0, 0, 0, 0);
    source_init(&b, 0, 0, 0, M_PI / 2);
    a.rotation_only = b.rotation_only = 1;
    tendon_blend_node nodes[3] = {
        {.kind = TENDON_BLEND_LERP, .parameter = "w", .a = 1, .b = 2}, leaf(&a, NULL),
        leaf(&b, NULL)};
    float bt[3] = {0.0f, 1.5f, 0.25f}, br[4] = {0, 0, 0, 1}, bs[3] = {2, 2, 2};
    tendon_pose bind = {bt, br, bs, 1};
    tendon_blend_tree *with = make_tree(nodes, 3, 0, &bind);
    tendon_blend_tree *without = make_tree(nodes, 3, 0, NULL);
    tendon_pose out;
    ck_assert_int_eq(tendon_pose_create(1, &out), TENDON_OK);
    ck_assert_int_eq(tendon_blend_tree_set(with, "w", 0.5), TENDON_OK);
    ck_assert_int_eq(tendon_blend_tree_set(without, "w", 0.5), TENDON_OK);
    /* Evaluate twice: the scratch is reset to the bind pose each time (no state leaks). */
    for (int k = 0; k < 2; ++k) {
        ck_assert_int_eq(tendon_blend_tree_evaluate(with, 0, &out), TENDON_OK);
        expect_f(out.translation[1], 1.5, "y with a bind pose");
        expect_f(out.translation[2], 0.25, "z with a bind pose");
        expect_f(out.scale[0], 2, "sx with a bind pose");
        expect_rot_z(out.rotation, M_PI / 4, "rotation with a bind pose");
    }
    ck_assert_int_eq(tendon_blend_tree_evaluate(without, 0, &out), TENDON_OK);
    expect_f(out.translation[1], 0, "y without a bind pose (collapsed)");
    expect_f(out.scale[0], 1, "sx without a bind pose");
    tendon_pose_destroy(&out);
    tendon_blend_tree_destroy(with);
    tendon_blend_tree_destroy(without);
}
END_TEST

/* A lerp of two 1-D sets: nested interior nodes each use their own scratch. */
START_TEST(test_nested)
{
    static const size_t ch1[2] = {2, 3}, ch2[2] = {4, 5};
    static const double at[2] = {0.0, 1.0};
    source s[4];
    source_init(&s[0], 0, 0, 0, 0);
    source_init(&s[1], 8, 0, 0, 0);
    source_init(&s[2], 16, 0, 0, 0);
    source_init(&s[3], 32, 0, 0, 0);
    tendon_blend_node nodes[7] = {
        {.kind = TENDON_BLEND_ONE_DIMENSIONAL, .parameter = "u", .children = ch1, .at = at,
         .child_count = 2},
        {.kind = TENDON_BLEND_ONE_DIMENSIONAL, .parameter = "u", .children = ch2, .at = at,
         .child_count = 2},
        leaf(&s[0], NULL), leaf(&s[1], NULL), leaf(&s[2], NULL), leaf(&s[3], NULL),
        {.kind = TENDON_BLEND_LERP, .parameter = "v", .a = 0, .b = 1}};
    tendon_blend_tree *tree = make_tree(nodes, 7, 6, NULL);
    tendon_pose out;
    ck_assert_int_eq(tendon_pose_create(1, &out), TENDON_OK);
    ck_assert_int_eq(tendon_blend_tree_set(tree, "u", 0.25), TENDON_OK);
    ck_assert_int_eq(tendon_blend_tree_set(tree, "v", 0.5), TENDON_OK);
    ck_assert_int_eq(tendon_blend_tree_evaluate(tree, 0, &out), TENDON_OK);
    /* u: 0 + 8·0.25 = 2 and 16 + 16·0.25 = 20; v: 2 + 18·0.5 = 11 */
    expect_f(out.translation[0], 11, "x");
    tendon_pose_destroy(&out);
    tendon_blend_tree_destroy(tree);
}
END_TEST

/* The clip node: a lerp of two one-track clips, by hand. Clip A moves x from 0 to 2 over one
 * second (LINEAR); clip B holds (0.5, 4, 0) (one key) on its own clock; rotation and scale have
 * no track in either, so they stay at the bind pose's. */
START_TEST(test_clip_node)
{
    static const float ta[2] = {0.0f, 1.0f}, va[6] = {0, 0, 0, 2, 0, 0};
    static const float tb[1] = {0.0f}, vb[3] = {0.5f, 4, 0};
    tendon_track_desc tra = {0, TENDON_PATH_TRANSLATION, TENDON_INTERP_LINEAR, 3, 2, ta, va};
    tendon_track_desc trb = {0, TENDON_PATH_TRANSLATION, TENDON_INTERP_LINEAR, 3, 1, tb, vb};
    tendon_clip_desc ca = {1, 1, &tra}, cb = {1, 1, &trb};
    tendon_clip *a = NULL, *b = NULL;
    ck_assert_int_eq(tendon_clip_create(&ca, &a), TENDON_OK);
    ck_assert_int_eq(tendon_clip_create(&cb, &b), TENDON_OK);
    tendon_blend_node nodes[3] = {
        {.kind = TENDON_BLEND_LERP, .parameter = "w", .a = 1, .b = 2},
        {.kind = TENDON_BLEND_CLIP, .clip = a},
        {.kind = TENDON_BLEND_CLIP, .clip = b, .clock = "b_time"}};
    tendon_blend_tree *tree = make_tree(nodes, 3, 0, NULL);
    tendon_pose out;
    ck_assert_int_eq(tendon_pose_create(1, &out), TENDON_OK);
    ck_assert_int_eq(tendon_blend_tree_set(tree, "w", 0.25), TENDON_OK);
    ck_assert_int_eq(tendon_blend_tree_evaluate(tree, 0.5, &out), TENDON_OK);
    /* A at 0.5: x = 1; B: x = 0.5, y = 4. x = 1 + (0.5 − 1)·0.25 = 0.875, y = 0 + 4·0.25 = 1 */
    expect_f(out.translation[0], 0.875, "x");
    expect_f(out.translation[1], 1.0, "y");
    tendon_clip_desc c2 = {2, 1, &tra};
    tendon_clip *two = NULL;
    ck_assert_int_eq(tendon_clip_create(&c2, &two), TENDON_OK);
    nodes[2].clip = two;
    ck_assert_int_eq(try_tree(nodes, 3, 0), TENDON_ERR_COUNT);
    nodes[2].clip = NULL;
    ck_assert_int_eq(try_tree(nodes, 3, 0), TENDON_ERR_NULL);
    tendon_pose_destroy(&out);
    tendon_blend_tree_destroy(tree);
    tendon_clip_destroy(a);
    tendon_clip_destroy(b);
    tendon_clip_destroy(two);
}
END_TEST

/*
 * The tier: a lerp of two rotation clips evaluates, on TENDON_TIER_F32, to exactly
 * tendon_clip_sample_f32 of each clip blended by tendon_pose_blend_f32 (a slerp), and on the
 * default tier to the exact calls; a machine's crossfade follows its own tier; an unknown tier
 * is refused by name.
 */
START_TEST(test_tier)
{
    static const float times[3] = {0.0f, 0.5f, 1.0f};
    static const float qa[12] = {0, 0, 0, 1, 0, 0, 0.38268343f, 0.92387953f,
                                 0, 0, 0.70710677f, 0.70710677f};
    static const float qb[12] = {0.5f, 0.5f, 0.5f, 0.5f, 0.6f, 0, 0, 0.8f, 0, 0.8f, 0, 0.6f};
    tendon_track_desc ta = {0, TENDON_PATH_ROTATION, TENDON_INTERP_LINEAR, 4, 3, times, qa};
    tendon_track_desc tb = {0, TENDON_PATH_ROTATION, TENDON_INTERP_LINEAR, 4, 3, times, qb};
    tendon_clip_desc ca = {1, 1, &ta}, cb = {1, 1, &tb};
    tendon_clip *a = NULL, *b = NULL;
    ck_assert_int_eq(tendon_clip_create(&ca, &a), TENDON_OK);
    ck_assert_int_eq(tendon_clip_create(&cb, &b), TENDON_OK);
    tendon_blend_node nodes[3] = {{.kind = TENDON_BLEND_LERP, .parameter = "w", .a = 1, .b = 2},
                                  {.kind = TENDON_BLEND_CLIP, .clip = a},
                                  {.kind = TENDON_BLEND_CLIP, .clip = b}};
    tendon_pose out, pa, pb, want;
    ck_assert_int_eq(tendon_pose_create(1, &out), TENDON_OK);
    ck_assert_int_eq(tendon_pose_create(1, &pa), TENDON_OK);
    ck_assert_int_eq(tendon_pose_create(1, &pb), TENDON_OK);
    ck_assert_int_eq(tendon_pose_create(1, &want), TENDON_OK);
    for (int tier = 0; tier < 2; ++tier) {
        tendon_blend_tree_desc d = {.nodes = nodes, .node_count = 3, .root = 0, .joint_count = 1,
                                    .tier = (tendon_tier)tier};
        tendon_blend_tree *tree = NULL;
        ck_assert_int_eq(tendon_blend_tree_create(&d, &tree), TENDON_OK);
        ck_assert_int_eq(tendon_blend_tree_set(tree, "w", 0.3), TENDON_OK);
        ck_assert_int_eq(tendon_blend_tree_evaluate(tree, 0.37, &out), TENDON_OK);
        tendon_pose_set_identity(&pa);
        tendon_pose_set_identity(&pb);
        if (tier) {
            ck_assert_int_eq(tendon_clip_sample_f32(a, 0.37, &pa), TENDON_OK);
            ck_assert_int_eq(tendon_clip_sample_f32(b, 0.37, &pb), TENDON_OK);
            ck_assert_int_eq(tendon_pose_blend_f32(&pa, &pb, 0.3, &want), TENDON_OK);
        } else {
            ck_assert_int_eq(tendon_clip_sample(a, 0.37, &pa), TENDON_OK);
            ck_assert_int_eq(tendon_clip_sample(b, 0.37, &pb), TENDON_OK);
            ck_assert_int_eq(tendon_pose_blend(&pa, &pb, 0.3, &want), TENDON_OK);
        }
        for (int c = 0; c < 4; ++c)
            ck_assert_msg(float_bits(out.rotation[c]) == float_bits(want.rotation[c]),
                          "tier %d rotation %d: %a vs %a", tier, c, (double)out.rotation[c],
                          (double)want.rotation[c]);
        /* the crossfade of a machine on this tier between two states of this tree */
        tendon_state_desc states[2] = {{"one", tree}, {"two", tree}};
        tendon_transition_desc tr = {"one", "two", 1.0, NULL, NULL};
        tendon_state_machine_desc md = {.states = states, .state_count = 2, .transitions = &tr,
                                        .transition_count = 1, .joint_count = 1,
                                        .tier = (tendon_tier)tier};
        tendon_state_machine *m = NULL;
        ck_assert_int_eq(tendon_state_machine_create(&md, &m), TENDON_OK);
        ck_assert_int_eq(tendon_state_machine_advance(m, 0.25), TENDON_OK);
        ck_assert_int_eq(tendon_state_machine_evaluate(m, &out), TENDON_OK);
        double t_one, t_two;
        ck_assert_int_eq(tendon_state_machine_state_time(m, "one", &t_one), TENDON_OK);
        ck_assert_int_eq(tendon_state_machine_state_time(m, "two", &t_two), TENDON_OK);
        tendon_pose from, to;
        ck_assert_int_eq(tendon_pose_create(1, &from), TENDON_OK);
        ck_assert_int_eq(tendon_pose_create(1, &to), TENDON_OK);
        ck_assert_int_eq(tendon_blend_tree_evaluate(tree, t_one, &from), TENDON_OK);
        ck_assert_int_eq(tendon_blend_tree_evaluate(tree, t_two, &to), TENDON_OK);
        ck_assert_int_eq((tier ? tendon_pose_blend_f32 : tendon_pose_blend)(&from, &to, 0.25,
                                                                           &want),
                         TENDON_OK);
        for (int c = 0; c < 4; ++c)
            ck_assert(float_bits(out.rotation[c]) == float_bits(want.rotation[c]));
        tendon_pose_destroy(&from);
        tendon_pose_destroy(&to);
        tendon_state_machine_destroy(m);
        tendon_blend_tree_destroy(tree);
    }
    /* an unknown tier is refused by name, for a tree and for a machine */
    tendon_blend_tree_desc bad = {.nodes = nodes, .node_count = 3, .root = 0, .joint_count = 1,
                                  .tier = (tendon_tier)7};
    tendon_blend_tree *t = NULL;
    ck_assert_int_eq(tendon_blend_tree_create(&bad, &t), TENDON_ERR_VALUE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "desc->tier is 7"));
    ck_assert_ptr_null(t);
    bad.tier = TENDON_TIER_EXACT;
    ck_assert_int_eq(tendon_blend_tree_create(&bad, &t), TENDON_OK);
    tendon_state_desc st = {"one", t};
    tendon_state_machine_desc bm = {.states = &st, .state_count = 1, .joint_count = 1,
                                    .tier = (tendon_tier)-1};
    tendon_state_machine *m = NULL;
    ck_assert_int_eq(tendon_state_machine_create(&bm, &m), TENDON_ERR_VALUE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "desc->tier is -1"));
    tendon_blend_tree_destroy(t);
    tendon_pose_destroy(&out);
    tendon_pose_destroy(&pa);
    tendon_pose_destroy(&pb);
    tendon_pose_destroy(&want);
    tendon_clip_destroy(a);
    tendon_clip_destroy(b);
}
END_TEST

/* ---- refusals ----------------------------------------------------------------------------- */

START_TEST(test_tree_errors)
{
    source a, b;
    source_init(&a, 0, 0, 0, 0);
    source_init(&b, 0, 0, 0, 0);
    static const size_t ch[2] = {1, 2};
    static const double at_ok[2] = {0, 1}, at_equal[2] = {1, 1}, at_nan[2] = {0, NAN};

    /* A name as both a blend parameter and a clock. */
    tendon_blend_node both[3] = {{.kind = TENDON_BLEND_LERP, .parameter = "speed", .a = 1, .b = 2},
                                 leaf(&a, NULL), leaf(&b, "speed")};
    ck_assert_int_eq(try_tree(both, 3, 0), TENDON_ERR_VALUE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "\"speed\""));
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "never both"));

    tendon_blend_node bad_index[3] = {{.kind = TENDON_BLEND_LERP, .parameter = "w", .a = 1, .b = 7},
                                      leaf(&a, NULL), leaf(&b, NULL)};
    ck_assert_int_eq(try_tree(bad_index, 3, 0), TENDON_ERR_RANGE);
    ck_assert_int_eq(try_tree(bad_index, 3, 3), TENDON_ERR_RANGE); /* root out of range */
    ck_assert_int_eq(try_tree(bad_index, 0, 0), TENDON_ERR_RANGE); /* no nodes */

    tendon_blend_node two_parents[3] = {{.kind = TENDON_BLEND_LERP, .parameter = "w", .a = 1, .b = 1},
                                        leaf(&a, NULL), leaf(&b, NULL)};
    ck_assert_int_eq(try_tree(two_parents, 3, 0), TENDON_ERR_FORMAT);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "node 0 names node 1 as a child twice"));
    tendon_blend_node shared[4] = {{.kind = TENDON_BLEND_LERP, .parameter = "w", .a = 1, .b = 2},
                                   {.kind = TENDON_BLEND_LERP, .parameter = "w", .a = 3, .b = 2},
                                   leaf(&a, NULL), leaf(&b, NULL)};
    ck_assert_int_eq(try_tree(shared, 4, 0), TENDON_ERR_FORMAT);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "node 2 is a child of both node 0 and "
                                                         "node 1"));
    tendon_blend_node root_child[3] = {{.kind = TENDON_BLEND_LERP, .parameter = "w", .a = 0, .b = 1},
                                       leaf(&a, NULL), leaf(&b, NULL)};
    ck_assert_int_eq(try_tree(root_child, 3, 0), TENDON_ERR_FORMAT);
    tendon_blend_node unreachable[3] = {leaf(&a, NULL), leaf(&b, NULL), leaf(&b, NULL)};
    ck_assert_int_eq(try_tree(unreachable, 3, 0), TENDON_ERR_FORMAT);
    /* A cycle the root does not reach: 1 → 2 → 1. */
    tendon_blend_node cycle[3] = {leaf(&a, NULL),
                                  {.kind = TENDON_BLEND_LERP, .parameter = "w", .a = 2, .b = 2},
                                  {.kind = TENDON_BLEND_LERP, .parameter = "w", .a = 1, .b = 1}};
    ck_assert_int_eq(try_tree(cycle, 3, 0), TENDON_ERR_FORMAT);
    tendon_blend_node cycle2[4] = {leaf(&a, NULL),
                                   {.kind = TENDON_BLEND_LERP, .parameter = "w", .a = 2, .b = 3},
                                   {.kind = TENDON_BLEND_LERP, .parameter = "w", .a = 1, .b = 0},
                                   leaf(&b, NULL)};
    ck_assert_int_eq(try_tree(cycle2, 4, 0), TENDON_ERR_FORMAT);

    tendon_blend_node equal[3] = {{.kind = TENDON_BLEND_ONE_DIMENSIONAL, .parameter = "p",
                                   .children = ch, .at = at_equal, .child_count = 2},
                                  leaf(&a, NULL), leaf(&b, NULL)};
    ck_assert_int_eq(try_tree(equal, 3, 0), TENDON_ERR_VALUE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "strictly increasing"));
    equal[0].at = at_nan;
    ck_assert_int_eq(try_tree(equal, 3, 0), TENDON_ERR_VALUE);
    /* finite and increasing, but their gap overflows: a parameter between them made the weight
       ∞/∞ and every joint NaN, with TENDON_OK */
    static const double at_far[2] = {-1e308, 1e308};
    equal[0].at = at_far;
    ck_assert_int_eq(try_tree(equal, 3, 0), TENDON_ERR_VALUE);
    ck_assert_msg(strstr(tendon_error_message(),
                         "node 0: at[1] − at[0] = 1e+308 − -1e+308 overflows") != NULL,
                  "%s", tendon_error_message());
    static const double at_max[2] = {-DBL_MAX / 2, DBL_MAX / 2}; /* a gap of DBL_MAX: accepted */
    equal[0].at = at_max;
    ck_assert_int_eq(try_tree(equal, 3, 0), TENDON_OK);
    equal[0].at = at_ok;
    equal[0].child_count = 0;
    ck_assert_int_eq(try_tree(equal, 3, 0), TENDON_ERR_RANGE);
    equal[0].child_count = 2;
    equal[0].at = NULL;
    ck_assert_int_eq(try_tree(equal, 3, 0), TENDON_ERR_NULL);
    equal[0].at = at_ok;
    equal[0].parameter = NULL;
    ck_assert_int_eq(try_tree(equal, 3, 0), TENDON_ERR_NULL);
    equal[0].parameter = "";
    ck_assert_int_eq(try_tree(equal, 3, 0), TENDON_ERR_VALUE);
    equal[0].parameter = "p";
    ck_assert_int_eq(try_tree(equal, 3, 0), TENDON_OK);

    /* Depth: a chain of 1-D nodes, each with one child, TENDON_BLEND_TREE_MAX_DEPTH deep is
     * accepted (and evaluates); one level more is refused. */
    {
        enum { DEEP = TENDON_BLEND_TREE_MAX_DEPTH + 2 };
        static tendon_blend_node chain[DEEP];
        static size_t next[DEEP];
        static const double at0[1] = {0.0};
        for (size_t i = 0; i + 1 < DEEP; ++i) {
            next[i] = i + 1;
            chain[i] = (tendon_blend_node){.kind = TENDON_BLEND_ONE_DIMENSIONAL, .parameter = "p",
                                           .children = &next[i], .at = at0, .child_count = 1};
        }
        /* nodes 0..DEEP-2 interior, DEEP-1 the source: the source is DEEP-1 levels down */
        chain[DEEP - 1] = leaf(&a, NULL);
        ck_assert_int_eq(try_tree(chain, DEEP, 0), TENDON_ERR_RANGE);
        ck_assert_ptr_nonnull(strstr(tendon_error_message(), "at most 256 deep"));
        tendon_blend_node ok[DEEP - 1];
        size_t ok_next[DEEP - 1];
        for (size_t i = 0; i + 1 < DEEP - 1; ++i) {
            ok_next[i] = i + 1;
            ok[i] = chain[i];
            ok[i].children = &ok_next[i];
        }
        ok[DEEP - 2] = leaf(&a, NULL); /* 256 levels down */
        tendon_blend_tree_desc dd = {.nodes = ok, .node_count = DEEP - 1, .joint_count = 1};
        tendon_blend_tree *deep = NULL;
        ck_assert_int_eq(tendon_blend_tree_create(&dd, &deep), TENDON_OK);
        tendon_pose o;
        ck_assert_int_eq(tendon_pose_create(1, &o), TENDON_OK);
        ck_assert_int_eq(tendon_blend_tree_evaluate(deep, 0, &o), TENDON_OK);
        tendon_pose_destroy(&o);
        tendon_blend_tree_destroy(deep);
    }

    tendon_blend_node no_fn = {.kind = TENDON_BLEND_SOURCE};
    ck_assert_int_eq(try_tree(&no_fn, 1, 0), TENDON_ERR_NULL);
    tendon_blend_node bad_kind = {.kind = (tendon_blend_node_kind)9};
    ck_assert_int_eq(try_tree(&bad_kind, 1, 0), TENDON_ERR_VALUE);

    tendon_blend_tree *t = (tendon_blend_tree *)&a;
    ck_assert_int_eq(tendon_blend_tree_create(NULL, &t), TENDON_ERR_NULL);
    ck_assert_ptr_null(t);
    tendon_blend_tree_desc d = {.nodes = NULL, .node_count = 1};
    ck_assert_int_eq(tendon_blend_tree_create(&d, &t), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_blend_tree_create(&d, NULL), TENDON_ERR_NULL);

    /* A bind pose of the wrong joint count. */
    float bt[6] = {0}, br[8] = {0, 0, 0, 1, 0, 0, 0, 1}, bs[6] = {1, 1, 1, 1, 1, 1};
    tendon_pose bind2 = {bt, br, bs, 2};
    tendon_blend_node one = leaf(&a, NULL);
    tendon_blend_tree_desc db = {.nodes = &one, .node_count = 1, .joint_count = 1, .bind = &bind2};
    ck_assert_int_eq(tendon_blend_tree_create(&db, &t), TENDON_ERR_COUNT);
}
END_TEST

/*
 * Issue 14: a node with a parent whose own parent is missing. Nodes {0: source (the root),
 * 1: source, 2: lerp(a = 1, b = 3), 3: source}: node 2 is nobody's child, and the walk up from
 * node 1 used to reach it before node 2 itself was checked, then read parent_of[SIZE_MAX] (a
 * heap-buffer-overflow under ASan) and followed garbage. Every node's parent is checked before
 * any walk, so the refusal names node 2.
 */
START_TEST(test_tree_orphan_above_a_child)
{
    source a, b, c;
    source_init(&a, 0, 0, 0, 0);
    source_init(&b, 0, 0, 0, 0);
    source_init(&c, 0, 0, 0, 0);
    tendon_blend_node nodes[4] = {leaf(&a, NULL), leaf(&b, NULL),
                                  {.kind = TENDON_BLEND_LERP, .parameter = "w", .a = 1, .b = 3},
                                  leaf(&c, NULL)};
    ck_assert_int_eq(try_tree(nodes, 4, 0), TENDON_ERR_FORMAT);
    ck_assert_msg(strstr(tendon_error_message(), "node 2 is nobody's child and not the root "
                                                 "(node 0)") != NULL,
                  "%s", tendon_error_message());
    /* The same shape one level deeper (node 1's parent 2's parent 4 is the orphan), and with
       the orphan after its child in index order. */
    static const size_t ch[1] = {2};
    static const double at0[1] = {0.0};
    tendon_blend_node deeper[5] = {leaf(&a, NULL), leaf(&b, NULL),
                                   {.kind = TENDON_BLEND_LERP, .parameter = "w", .a = 1, .b = 3},
                                   leaf(&c, NULL),
                                   {.kind = TENDON_BLEND_ONE_DIMENSIONAL, .parameter = "p",
                                    .children = ch, .at = at0, .child_count = 1}};
    ck_assert_int_eq(try_tree(deeper, 5, 0), TENDON_ERR_FORMAT);
    ck_assert_msg(strstr(tendon_error_message(), "node 4 is nobody's child") != NULL, "%s",
                  tendon_error_message());
    /* Rooted at the lerp instead, the first tree is a tree — except node 0, now the orphan. */
    ck_assert_int_eq(try_tree(nodes, 4, 2), TENDON_ERR_FORMAT);
    ck_assert_msg(strstr(tendon_error_message(), "node 0 is nobody's child and not the root "
                                                 "(node 2)") != NULL,
                  "%s", tendon_error_message());
}
END_TEST

START_TEST(test_set_evaluate_errors)
{
    source a, b;
    source_init(&a, 0, 0, 0, 0);
    source_init(&b, 0, 0, 0, 0);
    tendon_blend_node nodes[3] = {
        {.kind = TENDON_BLEND_LERP, .parameter = "speed", .a = 1, .b = 2}, leaf(&a, NULL),
        leaf(&b, "stride")};
    tendon_blend_tree *tree = make_tree(nodes, 3, 0, NULL);
    ck_assert_int_eq(tendon_blend_tree_set(tree, "sped", 1.0), TENDON_ERR_NOT_FOUND);
    const char *msg = tendon_error_message();
    ck_assert_ptr_nonnull(strstr(msg, "\"sped\""));
    ck_assert_ptr_nonnull(strstr(msg, "\"speed\" (blend)"));
    ck_assert_ptr_nonnull(strstr(msg, "\"stride\" (clock)"));
    ck_assert_int_eq(tendon_blend_tree_set(tree, "speed", NAN), TENDON_ERR_VALUE);
    double v = 5;
    ck_assert_int_eq(tendon_blend_tree_get(tree, "speed", &v), TENDON_OK);
    ck_assert_double_eq(v, 0.0); /* the refused NaN changed nothing */
    ck_assert_int_eq(tendon_blend_tree_get(tree, "nope", &v), TENDON_ERR_NOT_FOUND);
    ck_assert_int_eq(tendon_blend_tree_set(NULL, "speed", 1), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_blend_tree_set(tree, NULL, 1), TENDON_ERR_NULL);

    tendon_pose out2;
    ck_assert_int_eq(tendon_pose_create(2, &out2), TENDON_OK);
    ck_assert_int_eq(tendon_blend_tree_evaluate(tree, 0, &out2), TENDON_ERR_COUNT);
    ck_assert_int_eq(tendon_blend_tree_evaluate(tree, 0, NULL), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_blend_tree_evaluate(NULL, 0, &out2), TENDON_ERR_NULL);
    /* a NaN time: refused before any node runs, out untouched */
    tendon_pose out1;
    ck_assert_int_eq(tendon_pose_create(1, &out1), TENDON_OK);
    out1.translation[0] = 42.0f;
    ck_assert_int_eq(tendon_blend_tree_evaluate(tree, NAN, &out1), TENDON_ERR_VALUE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(),
                                 "tendon_blend_tree_evaluate: time_sec is NaN"));
    ck_assert(out1.translation[0] == 42.0f);
    ck_assert_int_eq(tendon_blend_tree_evaluate(tree, INFINITY, &out1), TENDON_OK);
    tendon_pose_destroy(&out1);
    ck_assert_uint_eq(tendon_blend_tree_joint_count(tree), 1);
    int is_clock = -1;
    ck_assert_uint_eq(tendon_blend_tree_parameter_count(tree), 2);
    ck_assert_str_eq(tendon_blend_tree_parameter_name(tree, 0, &is_clock), "speed");
    ck_assert_int_eq(is_clock, 0);
    ck_assert_str_eq(tendon_blend_tree_parameter_name(tree, 1, &is_clock), "stride");
    ck_assert_int_eq(is_clock, 1);
    ck_assert_ptr_null(tendon_blend_tree_parameter_name(tree, 2, &is_clock));
    ck_assert_ptr_null(tendon_blend_tree_parameter_name(NULL, 0, NULL));
    ck_assert_uint_eq(tendon_blend_tree_parameter_count(NULL), 0);
    ck_assert_uint_eq(tendon_blend_tree_joint_count(NULL), 0);
    tendon_pose_destroy(&out2);
    tendon_blend_tree_destroy(tree);
    tendon_blend_tree_destroy(NULL);
}
END_TEST

/* ---- state machine beyond the seed's cases ------------------------------------------------ */

static int param_above(void *user, const tendon_parameters *p)
{
    double v;
    return tendon_parameters_get(p, (const char *)user, &v) && v > 0.5;
}

START_TEST(test_machine_crossfade_by_hand)
{
    source idle, walk;
    source_init(&idle, 0, 0, 0, 0);
    source_init(&walk, 4, 0, 0, M_PI / 2);
    tendon_blend_node ni = leaf(&idle, NULL), nw = leaf(&walk, NULL);
    tendon_blend_tree *ti = make_tree(&ni, 1, 0, NULL), *tw = make_tree(&nw, 1, 0, NULL);
    tendon_state_desc states[2] = {{"idle", ti}, {"walk", tw}};
    tendon_transition_desc tr[2] = {{"idle", "walk", 0.5, param_above, "speed"},
                                    {"idle", "walk", 0.1, NULL, NULL}};
    tendon_state_machine_desc d = {.states = states, .state_count = 2, .transitions = tr,
                                   .transition_count = 1, .joint_count = 1};
    tendon_state_machine *m = NULL;
    ck_assert_int_eq(tendon_state_machine_create(&d, &m), TENDON_OK);
    tendon_pose out;
    ck_assert_int_eq(tendon_pose_create(1, &out), TENDON_OK);
    tendon_state_machine_info info;

    ck_assert_int_eq(tendon_state_machine_advance(m, 0.25), TENDON_OK);
    ck_assert_int_eq(tendon_state_machine_get_info(m, &info), TENDON_OK);
    ck_assert_str_eq(info.current, "idle");
    ck_assert_int_eq(info.transitioning, 0);

    ck_assert_int_eq(tendon_state_machine_set(m, "speed", 1.0), TENDON_OK);
    /* The triggering frame advances the fade: 0.125 of 0.5 → weight 0.25. */
    ck_assert_int_eq(tendon_state_machine_advance(m, 0.125), TENDON_OK);
    ck_assert_int_eq(tendon_state_machine_get_info(m, &info), TENDON_OK);
    ck_assert_str_eq(info.current, "walk");
    ck_assert_str_eq(info.leaving, "idle");
    ck_assert_double_eq(info.fade_elapsed_sec, 0.125);
    double clock;
    ck_assert_int_eq(tendon_state_machine_state_time(m, "walk", &clock), TENDON_OK);
    ck_assert_double_eq(clock, 0.125); /* reset on entry, then advanced */
    ck_assert_int_eq(tendon_state_machine_state_time(m, "idle", &clock), TENDON_OK);
    ck_assert_double_eq(clock, 0.375);
    ck_assert_int_eq(tendon_state_machine_evaluate(m, &out), TENDON_OK);
    expect_f(out.translation[0], 1.0, "x at fade 0.25");
    expect_rot_z(out.rotation, M_PI / 8, "rotation at fade 0.25");
    /* The fade completes even though the trigger no longer holds. */
    ck_assert_int_eq(tendon_state_machine_set(m, "speed", 0.0), TENDON_OK);
    ck_assert_int_eq(tendon_state_machine_advance(m, 0.375), TENDON_OK);
    ck_assert_int_eq(tendon_state_machine_get_info(m, &info), TENDON_OK);
    ck_assert_int_eq(info.transitioning, 0);
    ck_assert_int_eq(tendon_state_machine_evaluate(m, &out), TENDON_OK);
    expect_f(out.translation[0], 4.0, "x after the fade");

    /* Parameters: set, read back, unset ones report 0. */
    double v = 7;
    ck_assert_int_eq(tendon_parameters_get(tendon_state_machine_parameters(m), "speed", &v), 1);
    ck_assert_double_eq(v, 0.0);
    ck_assert_int_eq(tendon_parameters_get(tendon_state_machine_parameters(m), "air", &v), 0);
    ck_assert_int_eq(tendon_parameters_get(NULL, "air", &v), 0);

    tendon_pose_destroy(&out);
    tendon_state_machine_destroy(m);
    tendon_blend_tree_destroy(ti);
    tendon_blend_tree_destroy(tw);
}
END_TEST

START_TEST(test_machine_errors)
{
    source a;
    source_init(&a, 0, 0, 0, 0);
    tendon_blend_node n = leaf(&a, NULL);
    tendon_blend_tree *t1 = make_tree(&n, 1, 0, NULL);
    tendon_blend_tree_desc d2 = {.nodes = &n, .node_count = 1, .joint_count = 2};
    tendon_blend_tree *t2 = NULL;
    ck_assert_int_eq(tendon_blend_tree_create(&d2, &t2), TENDON_OK);
    tendon_state_machine *m = NULL;

    tendon_state_desc st[2] = {{"idle", t1}, {"idle", t1}};
    tendon_transition_desc tr[1] = {{"idle", "idle", 0.2, NULL, NULL}};
    tendon_state_machine_desc d = {.states = st, .state_count = 0, .transitions = tr,
                                   .transition_count = 1, .joint_count = 1};
    ck_assert_int_eq(tendon_state_machine_create(&d, &m), TENDON_ERR_COUNT); /* no states */
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "at least one state"));
    d.state_count = 2;
    ck_assert_int_eq(tendon_state_machine_create(&d, &m), TENDON_ERR_VALUE); /* duplicate */
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "\"idle\""));
    st[1] = (tendon_state_desc){"walk", t2};
    ck_assert_int_eq(tendon_state_machine_create(&d, &m), TENDON_ERR_COUNT); /* joint count */
    st[1] = (tendon_state_desc){"walk", NULL};
    ck_assert_int_eq(tendon_state_machine_create(&d, &m), TENDON_ERR_NULL);
    st[1] = (tendon_state_desc){"walk", t1};
    tr[0].duration_sec = NAN;
    ck_assert_int_eq(tendon_state_machine_create(&d, &m), TENDON_ERR_VALUE);
    tr[0].duration_sec = INFINITY;
    ck_assert_int_eq(tendon_state_machine_create(&d, &m), TENDON_ERR_VALUE);
    tr[0].duration_sec = 0.2;
    tr[0].to = "run";
    ck_assert_int_eq(tendon_state_machine_create(&d, &m), TENDON_ERR_NOT_FOUND);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "\"run\", which was not given"));
    tr[0].to = NULL;
    ck_assert_int_eq(tendon_state_machine_create(&d, &m), TENDON_ERR_NULL);
    tr[0].to = "walk";
    d.transitions = NULL;
    ck_assert_int_eq(tendon_state_machine_create(&d, &m), TENDON_ERR_NULL);
    d.transitions = tr;
    ck_assert_ptr_null(m);
    d.parameter_capacity = 2;
    ck_assert_int_eq(tendon_state_machine_create(&d, &m), TENDON_OK);

    ck_assert_int_eq(tendon_state_machine_advance(m, NAN), TENDON_ERR_VALUE);
    ck_assert_int_eq(tendon_state_machine_advance(m, INFINITY), TENDON_ERR_VALUE);
    tendon_state_machine_info info;
    ck_assert_int_eq(tendon_state_machine_get_info(m, &info), TENDON_OK);
    ck_assert_str_eq(info.current, "idle"); /* the refused steps changed nothing */
    /* finite steps that could take a clock to ∞ (it would never come back): refused before
       anything changes — 1e308 twice is past the largest double, and so is 8e307 added twice
       to a clock already at 8e307 */
    ck_assert_int_eq(tendon_state_machine_advance(m, 1e308), TENDON_ERR_VALUE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "past the largest double"));
    ck_assert_int_eq(tendon_state_machine_get_info(m, &info), TENDON_OK);
    ck_assert_str_eq(info.current, "idle");
    ck_assert_int_eq(tendon_state_machine_advance(m, 8e307), TENDON_OK); /* idle → walk */
    double walk_sec = 0;
    ck_assert_int_eq(tendon_state_machine_state_time(m, "walk", &walk_sec), TENDON_OK);
    ck_assert_double_eq(walk_sec, 8e307);
    ck_assert_int_eq(tendon_state_machine_advance(m, 8e307), TENDON_ERR_VALUE);
    ck_assert_int_eq(tendon_state_machine_state_time(m, "walk", &walk_sec), TENDON_OK);
    ck_assert_double_eq(walk_sec, 8e307);
    ck_assert_int_eq(tendon_state_machine_advance(m, -8e307), TENDON_OK); /* and back */
    ck_assert_int_eq(tendon_state_machine_set(m, "a", 1), TENDON_OK);
    ck_assert_int_eq(tendon_state_machine_set(m, "b", 1), TENDON_OK);
    ck_assert_int_eq(tendon_state_machine_set(m, "a", 2), TENDON_OK); /* an existing slot */
    ck_assert_int_eq(tendon_state_machine_set(m, "c", 1), TENDON_ERR_RANGE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "\"c\""));
    ck_assert_int_eq(tendon_state_machine_set(m, "", 1), TENDON_ERR_VALUE);
    ck_assert_int_eq(tendon_state_machine_set(m, NULL, 1), TENDON_ERR_NULL);
    double sec;
    ck_assert_int_eq(tendon_state_machine_state_time(m, "jump", &sec), TENDON_ERR_NOT_FOUND);
    tendon_pose out2;
    ck_assert_int_eq(tendon_pose_create(2, &out2), TENDON_OK);
    ck_assert_int_eq(tendon_state_machine_evaluate(m, &out2), TENDON_ERR_COUNT);
    ck_assert_int_eq(tendon_state_machine_evaluate(NULL, &out2), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_state_machine_advance(NULL, 0.1), TENDON_ERR_NULL);
    tendon_pose_destroy(&out2);
    tendon_state_machine_destroy(m);
    tendon_state_machine_destroy(NULL);
    tendon_blend_tree_destroy(t1);
    tendon_blend_tree_destroy(t2);
}
END_TEST

/* Many names (the tables behind the lookups probe past collisions and fill to half): a tree
 * whose root is a one-dimensional node over 4000 sources, each with its own clock, and a
 * machine of 3000 states and 3000 parameters. Every name resolves to its own index, in the
 * order declared; repeats resolve to the first; a duplicate state names both places. */
START_TEST(test_many_names)
{
    enum { SOURCES = 4000, STATES = 3000 };
    source src;
    source_init(&src, 0, 0, 0, 0);
    tendon_blend_node *nodes = calloc(SOURCES + 1, sizeof *nodes);
    size_t *children = calloc(SOURCES, sizeof *children);
    double *at = calloc(SOURCES, sizeof *at);
    char(*names)[16] = calloc(SOURCES, sizeof *names);
    ck_assert(nodes && children && at && names);
    for (size_t i = 0; i < SOURCES; ++i) {
        snprintf(names[i], sizeof names[i], "clock-%zu", i);
        /* every fourth source shares its clock with the one before it (a repeat) */
        nodes[i + 1] = leaf(&src, names[i % 4 == 3 ? i - 1 : i]);
        children[i] = i + 1;
        at[i] = (double)i;
    }
    nodes[0] = (tendon_blend_node){.kind = TENDON_BLEND_ONE_DIMENSIONAL, .parameter = "mix",
                                   .children = children, .at = at, .child_count = SOURCES};
    tendon_blend_tree *tree = make_tree(nodes, SOURCES + 1, 0, NULL);
    const size_t clocks = SOURCES - SOURCES / 4;
    ck_assert_uint_eq(tendon_blend_tree_parameter_count(tree), 1 + clocks);
    ck_assert_str_eq(tendon_blend_tree_parameter_name(tree, 0, NULL), "mix");
    for (size_t i = 0, k = 1; i < SOURCES; ++i) {
        if (i % 4 == 3)
            continue;
        int is_clock = 0;
        ck_assert_str_eq(tendon_blend_tree_parameter_name(tree, k++, &is_clock), names[i]);
        ck_assert_int_eq(is_clock, 1);
        ck_assert_int_eq(tendon_blend_tree_set(tree, names[i], (double)i + 0.5), TENDON_OK);
    }
    for (size_t i = 0; i < SOURCES; ++i) {
        double v = -1;
        if (i % 4 == 3) {
            ck_assert_int_eq(tendon_blend_tree_get(tree, names[i], &v), TENDON_ERR_NOT_FOUND);
            continue;
        }
        ck_assert_int_eq(tendon_blend_tree_get(tree, names[i], &v), TENDON_OK);
        ck_assert_double_eq(v, (double)i + 0.5);
    }
    /* a clock name used as the blend parameter is refused, naming it */
    nodes[0].parameter = names[SOURCES - 2];
    ck_assert_int_eq(try_tree(nodes, SOURCES + 1, 0), TENDON_ERR_VALUE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), names[SOURCES - 2]));
    tendon_blend_tree_destroy(tree);

    /* the machine: STATES states (each on one tree), a transition from the last to the first */
    tendon_blend_node one = leaf(&src, NULL);
    tendon_blend_tree *t = make_tree(&one, 1, 0, NULL);
    tendon_state_desc *st = calloc(STATES, sizeof *st);
    ck_assert_ptr_nonnull(st);
    for (size_t i = 0; i < STATES; ++i)
        st[i] = (tendon_state_desc){names[i], t};
    tendon_transition_desc tr = {names[STATES - 1], names[0], 0.0, NULL, NULL};
    tendon_state_machine_desc d = {.states = st, .state_count = STATES, .transitions = &tr,
                                   .transition_count = 1, .joint_count = 1,
                                   .parameter_capacity = STATES};
    tendon_state_machine *m = NULL;
    ck_assert_int_eq(tendon_state_machine_create(&d, &m), TENDON_OK);
    for (size_t i = 0; i < STATES; ++i) {
        double sec = -1;
        ck_assert_int_eq(tendon_state_machine_state_time(m, names[i], &sec), TENDON_OK);
        ck_assert_double_eq(sec, 0.0);
        ck_assert_int_eq(tendon_state_machine_set(m, names[i], (double)i), TENDON_OK);
    }
    ck_assert_int_eq(tendon_state_machine_set(m, "one more", 1), TENDON_ERR_RANGE);
    ck_assert_int_eq(tendon_state_machine_set(m, names[7], 70), TENDON_OK); /* an existing one */
    const tendon_parameters *p = tendon_state_machine_parameters(m);
    for (size_t i = 0; i < STATES; ++i) {
        double v = -1;
        ck_assert_int_eq(tendon_parameters_get(p, names[i], &v), 1);
        ck_assert_double_eq(v, i == 7 ? 70.0 : (double)i);
    }
    double none;
    ck_assert_int_eq(tendon_parameters_get(p, names[STATES], &none), 0);
    ck_assert_int_eq(tendon_state_machine_state_time(m, names[STATES], &none),
                     TENDON_ERR_NOT_FOUND);
    tendon_state_machine_destroy(m);
    /* a duplicate far down the list names both states */
    st[2999] = (tendon_state_desc){names[1234], t};
    m = NULL;
    ck_assert_int_eq(tendon_state_machine_create(&d, &m), TENDON_ERR_VALUE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "states[1234] and states[2999]"));
    ck_assert_ptr_null(m);
    tendon_blend_tree_destroy(t);
    free(st);
    free(names);
    free(at);
    free(children);
    free(nodes);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("graph");
    TCase *tree = tcase_create("blend_tree");
    tcase_add_test(tree, test_source_root);
    tcase_add_test(tree, test_lerp);
    tcase_add_test(tree, test_one_dimensional);
    tcase_add_test(tree, test_one_dimensional_single_child);
    tcase_add_test(tree, test_clocks);
    tcase_add_test(tree, test_bind_pose);
    tcase_add_test(tree, test_nested);
    tcase_add_test(tree, test_clip_node);
    tcase_add_test(tree, test_tier);
    tcase_add_test(tree, test_tree_errors);
    tcase_add_test(tree, test_tree_orphan_above_a_child);
    tcase_add_test(tree, test_set_evaluate_errors);
    suite_add_tcase(s, tree);
    TCase *sm = tcase_create("state_machine");
    tcase_add_test(sm, test_machine_crossfade_by_hand);
    tcase_add_test(sm, test_machine_errors);
    tcase_add_test(sm, test_many_names);
    suite_add_tcase(s, sm);
    return run_suite(s);
}
