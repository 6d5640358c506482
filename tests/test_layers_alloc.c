/*
 * The per-frame calls of the layer modules allocate nothing (docs/layers.md): blend-tree set and
 * evaluate, state-machine set (a known name and a new one), advance and evaluate (with and
 * without a running fade), bone-mask building, masked layers, delta poses, two-bone IK and
 * retargeting; the spring rig's evaluate / march / sample (clip and tree sources, both tiers),
 * tendon_spring_chain_pose, the springs' _status entry points and tendon_clip_sample_times.
 * Only construction allocates.
 *
 * How: this suite is linked with -Wl,--wrap for malloc, calloc, realloc and aligned_alloc
 * (tests/CMakeLists.txt), so every allocation made by the statically linked library goes through
 * the counters below; each check reads the counters around the calls alone (no Check macro in
 * between, since Check may allocate).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void *__real_aligned_alloc(size_t alignment, size_t size);

static size_t g_allocations;
/* The allocation numbered g_fail_at (g_allocations before it) returns NULL; SIZE_MAX: none. */
static size_t g_fail_at = SIZE_MAX;

static int counted_fails(void) { return g_allocations++ == g_fail_at; }

void *__wrap_malloc(size_t size)
{
    return counted_fails() ? NULL : __real_malloc(size);
}
void *__wrap_calloc(size_t n, size_t size)
{
    return counted_fails() ? NULL : __real_calloc(n, size);
}
void *__wrap_realloc(void *p, size_t size)
{
    return counted_fails() ? NULL : __real_realloc(p, size);
}
void *__wrap_aligned_alloc(size_t alignment, size_t size)
{
    return counted_fails() ? NULL : __real_aligned_alloc(alignment, size);
}

static void constant_source(void *user, double time, tendon_pose *out)
{
    const float *x = user;
    out->translation[0] = (float)(x[0] + time);
    out->rotation[2] = x[1];
    out->rotation[3] = x[2];
}

static int always(void *user, const tendon_parameters *p)
{
    double v;
    (void)user;
    return tendon_parameters_get(p, "go", &v) && v > 0;
}

/* The wrapper really counts: construction allocates. */
START_TEST(test_wrap_counts)
{
    const size_t before = g_allocations;
    tendon_pose p;
    ck_assert_int_eq(tendon_pose_create(3, &p), TENDON_OK);
    const size_t after = g_allocations;
    tendon_pose_destroy(&p);
    ck_assert_msg(after > before, "tendon_pose_create allocated nothing the wrapper saw: the "
                  "--wrap link options are missing, and this suite would prove nothing");
}
END_TEST

START_TEST(test_graph_per_frame)
{
    float a[3] = {0.0f, 0.0f, 1.0f}, b[3] = {2.0f, 0.70710677f, 0.70710677f};
    static const size_t ch[2] = {1, 2};
    static const double at[2] = {0.0, 1.0};
    tendon_blend_node nodes[4] = {
        {.kind = TENDON_BLEND_LERP, .parameter = "w", .a = 3, .b = 1},
        {.kind = TENDON_BLEND_SOURCE, .sample = constant_source, .user = b, .clock = "stride"},
        {.kind = TENDON_BLEND_SOURCE, .sample = constant_source, .user = a},
        {.kind = TENDON_BLEND_ONE_DIMENSIONAL, .parameter = "speed", .children = (size_t[1]){2},
         .at = at, .child_count = 1}};
    (void)ch;
    tendon_blend_tree_desc d = {.nodes = nodes, .node_count = 4, .joint_count = 5};
    tendon_blend_tree *tree = NULL;
    ck_assert_int_eq(tendon_blend_tree_create(&d, &tree), TENDON_OK);
    tendon_state_desc states[2] = {{"idle", tree}, {"walk", tree}};
    tendon_transition_desc tr[2] = {{"idle", "walk", 0.5, always, NULL},
                                    {"walk", "idle", 0.25, always, NULL}};
    tendon_state_machine_desc md = {.states = states, .state_count = 2, .transitions = tr,
                                    .transition_count = 2, .joint_count = 5};
    tendon_state_machine *m = NULL;
    ck_assert_int_eq(tendon_state_machine_create(&md, &m), TENDON_OK);
    tendon_pose out;
    ck_assert_int_eq(tendon_pose_create(5, &out), TENDON_OK);

    int bad = 0;
    const size_t before = g_allocations;
    for (int frame = 0; frame < 50; ++frame) {
        bad |= tendon_blend_tree_set(tree, "w", frame / 50.0) != TENDON_OK;
        bad |= tendon_blend_tree_set(tree, "stride", frame * 0.1) != TENDON_OK;
        bad |= tendon_blend_tree_evaluate(tree, frame / 60.0, &out) != TENDON_OK;
        bad |= tendon_state_machine_set(m, frame < 25 ? "speed" : "go", frame % 2) != TENDON_OK;
        bad |= tendon_state_machine_advance(m, 1.0 / 60.0) != TENDON_OK;
        bad |= tendon_state_machine_evaluate(m, &out) != TENDON_OK;
        bad |= tendon_blend_tree_set(tree, "nope", 1.0) != TENDON_ERR_NOT_FOUND; /* refusals too */
    }
    const size_t allocated = g_allocations - before;
    ck_assert_msg(!bad, "a per-frame call failed: %s", tendon_error_message());
    ck_assert_msg(allocated == 0, "50 frames of tree and machine calls allocated %zu times",
                  allocated);
    tendon_pose_destroy(&out);
    tendon_state_machine_destroy(m);
    tendon_blend_tree_destroy(tree);
}
END_TEST

/* Clip nodes and clip deltas: tendon_clip_sample inside a tree, and tendon_clip_delta_pose. */
START_TEST(test_clip_per_frame)
{
    static const float times[2] = {0.0f, 1.0f}, values[6] = {0, 0, 0, 2, 0, 0};
    tendon_track_desc track = {1, TENDON_PATH_TRANSLATION, TENDON_INTERP_LINEAR, 3, 2, times,
                               values};
    tendon_clip_desc cd = {3, 1, &track};
    tendon_clip *clip = NULL;
    ck_assert_int_eq(tendon_clip_create(&cd, &clip), TENDON_OK);
    tendon_blend_node nodes[3] = {{.kind = TENDON_BLEND_LERP, .parameter = "w", .a = 1, .b = 2},
                                  {.kind = TENDON_BLEND_CLIP, .clip = clip},
                                  {.kind = TENDON_BLEND_CLIP, .clip = clip, .clock = "c"}};
    tendon_blend_tree_desc d = {.nodes = nodes, .node_count = 3, .joint_count = 3};
    tendon_blend_tree *tree = NULL;
    ck_assert_int_eq(tendon_blend_tree_create(&d, &tree), TENDON_OK);
    tendon_pose out, ref;
    ck_assert_int_eq(tendon_pose_create(3, &out), TENDON_OK);
    ck_assert_int_eq(tendon_pose_create(3, &ref), TENDON_OK);
    int bad = 0;
    const size_t before = g_allocations;
    for (int frame = 0; frame < 20; ++frame) {
        bad |= tendon_blend_tree_set(tree, "w", 0.5) != TENDON_OK;
        bad |= tendon_blend_tree_set(tree, "c", frame * 0.05) != TENDON_OK;
        bad |= tendon_blend_tree_evaluate(tree, frame / 30.0, &out) != TENDON_OK;
        bad |= tendon_clip_delta_pose(clip, frame / 30.0, &ref, &out) != TENDON_OK;
    }
    const size_t allocated = g_allocations - before;
    ck_assert_msg(!bad, "a per-frame call failed: %s", tendon_error_message());
    ck_assert_msg(allocated == 0, "clip nodes and clip deltas allocated %zu times", allocated);
    tendon_pose_destroy(&out);
    tendon_pose_destroy(&ref);
    tendon_blend_tree_destroy(tree);
    tendon_clip_destroy(clip);
}
END_TEST

START_TEST(test_mask_ik_retarget_per_frame)
{
    static const int32_t parents[4] = {-1, 0, 1, 1};
    static const char *const names[4] = {"hips", "spine", "head", "arm"};
    tendon_pose rest;
    ck_assert_int_eq(tendon_pose_create(4, &rest), TENDON_OK);
    rest.translation[4] = 1.0f;
    rest.translation[7] = 0.5f;
    rest.translation[9] = 0.3f;
    tendon_skeleton_desc sd = {4, parents, names, &rest};
    tendon_skeleton *sk = NULL;
    ck_assert_int_eq(tendon_skeleton_create(&sd, &sk), TENDON_OK);
    tendon_retarget_map *map = NULL;
    ck_assert_int_eq(tendon_retarget_map_create(sk, sk, &map), TENDON_OK);
    tendon_pose base, delta, out;
    ck_assert_int_eq(tendon_pose_create(4, &base), TENDON_OK);
    ck_assert_int_eq(tendon_pose_create(4, &delta), TENDON_OK);
    ck_assert_int_eq(tendon_pose_create(4, &out), TENDON_OK);
    float mask[4];
    const float root[3] = {0, 0, 0}, mid[3] = {0, 3, 0}, end[3] = {0, 7, 0},
                target[3] = {5, 0, 0}, pole[3] = {0, 1, 0};
    tendon_ik_two_bone_result r;
    float model[64];
    ck_assert_int_eq(tendon_pose_model_matrices(sk, &rest, NULL, model), TENDON_OK);
    ck_assert_int_eq(tendon_pose_copy(&rest, &out), TENDON_OK);

    int bad = 0;
    const size_t before = g_allocations;
    bad |= tendon_bone_mask_by_name(sk, "spine", 2.0, mask) != TENDON_OK;
    bad |= tendon_bone_mask_by_name(sk, "Spine", 2.0, mask) != TENDON_ERR_NOT_FOUND;
    bad |= tendon_bone_mask_by_index(sk, 1, 3.0, mask) != TENDON_OK;
    bad |= tendon_pose_delta(&rest, &base, &delta) != TENDON_OK;
    bad |= tendon_layer_apply(&base, &delta, 1.0, mask, TENDON_MASK_ADDITIVE, &out) != TENDON_OK;
    bad |= tendon_layer_apply(&base, &rest, 0.5, mask, TENDON_MASK_OVERRIDE, &out) != TENDON_OK;
    bad |= tendon_ik_two_bone(root, mid, end, target, pole, 1.0, &r) != TENDON_OK;
    bad |= tendon_ik_two_bone(root, mid, end, target, pole, 0.5, &r) != TENDON_OK;
    bad |= tendon_ik_two_bone(root, root, end, target, pole, 0.5, &r) != TENDON_ERR_VALUE;
    bad |= tendon_retarget_pose(map, &base, &out) != TENDON_OK;
    bad |= tendon_ik_two_bone_pose(sk, model, 0, 1, 2, target, pole, 1.0, &out, NULL) != TENDON_OK;
    const size_t allocated = g_allocations - before;
    ck_assert_msg(!bad, "a per-frame call failed: %s", tendon_error_message());
    ck_assert_msg(allocated == 0, "mask, layer, delta, IK and retarget calls allocated %zu times",
                  allocated);
    tendon_pose_destroy(&base);
    tendon_pose_destroy(&delta);
    tendon_pose_destroy(&out);
    tendon_pose_destroy(&rest);
    tendon_retarget_map_destroy(map);
    tendon_skeleton_destroy(sk);
}
END_TEST

/* ---- construction out of memory ---- */

typedef tendon_status (*create_fn)(const void *desc, void **out);
typedef void (*destroy_fn)(void *obj);

static tendon_status tree_create(const void *d, void **out)
{
    return tendon_blend_tree_create(d, (tendon_blend_tree **)out);
}
static void tree_destroy(void *t) { tendon_blend_tree_destroy(t); }
static tendon_status machine_create(const void *d, void **out)
{
    return tendon_state_machine_create(d, (tendon_state_machine **)out);
}
static void machine_destroy(void *m) { tendon_state_machine_destroy(m); }
typedef struct skeleton_pair {
    const tendon_skeleton *source, *target;
} skeleton_pair;
static tendon_status map_create(const void *d, void **out)
{
    const skeleton_pair *p = d;
    return tendon_retarget_map_create(p->source, p->target, (tendon_retarget_map **)out);
}
static void map_destroy(void *m) { tendon_retarget_map_destroy(m); }

/* Counts a clean creation's allocations (after one creation first: a statically linked C
   library may allocate once, lazily), then fails each in turn: TENDON_ERR_NOMEM and *out NULL
   (no crash, and no leak under ASan) — or, where the failed allocation was the C library's own
   and it coped (the static aarch64 build wraps its allocations too), a whole object. Returns how
   many creations failed as out of memory. */
static size_t fail_each_allocation(const char *what, create_fn create, destroy_fn destroy,
                                   const void *desc)
{
    void *obj = NULL;
    ck_assert_msg(create(desc, &obj) == TENDON_OK, "%s: %s", what, tendon_error_message());
    destroy(obj);
    size_t before = g_allocations;
    const tendon_status clean = create(desc, &obj);
    const size_t count = g_allocations - before;
    ck_assert_msg(clean == TENDON_OK, "%s: %s", what, tendon_error_message());
    destroy(obj);
    size_t nomem = 0;
    for (size_t k = 0; k < count; ++k) {
        void *const sentinel = (void *)&obj;
        obj = sentinel;
        g_fail_at = g_allocations + k;
        const tendon_status st = create(desc, &obj);
        g_fail_at = SIZE_MAX;
        if (st == TENDON_OK) {
            ck_assert_msg(obj != NULL && obj != sentinel, "%s: OK without an object", what);
            destroy(obj);
            continue;
        }
        ck_assert_msg(st == TENDON_ERR_NOMEM && obj == NULL,
                      "%s with allocation %zu of %zu failing: %s, out %p: %s", what, k, count,
                      tendon_status_name(st), obj, tendon_error_message());
        ++nomem;
    }
    return nomem;
}

/* tendon_blend_tree_create's scratch poses were counted before their array was allocated: with
   that allocation failing, the clean-up destroyed poses of a NULL array (a read at 0x20). */
START_TEST(test_create_out_of_memory)
{
    float a[3] = {0.0f, 0.0f, 1.0f};
    static const double at[2] = {0.0, 1.0};
    tendon_blend_node nodes[5] = {
        {.kind = TENDON_BLEND_LERP, .parameter = "w", .a = 1, .b = 4},
        {.kind = TENDON_BLEND_ONE_DIMENSIONAL, .parameter = "speed",
         .children = (size_t[2]){2, 3}, .at = at, .child_count = 2},
        {.kind = TENDON_BLEND_SOURCE, .sample = constant_source, .user = a, .clock = "stride"},
        {.kind = TENDON_BLEND_SOURCE, .sample = constant_source, .user = a},
        {.kind = TENDON_BLEND_SOURCE, .sample = constant_source, .user = a}};
    tendon_pose bind;
    ck_assert_int_eq(tendon_pose_create(3, &bind), TENDON_OK);
    tendon_blend_tree_desc d = {.nodes = nodes, .node_count = 5, .joint_count = 3, .bind = &bind};
    ck_assert_uint_ge(fail_each_allocation("tendon_blend_tree_create", tree_create, tree_destroy,
                                           &d),
                      5);
    tendon_blend_tree *tree = NULL;
    ck_assert_int_eq(tendon_blend_tree_create(&d, &tree), TENDON_OK);
    tendon_state_desc states[2] = {{"idle", tree}, {"walk", tree}};
    tendon_transition_desc tr[1] = {{"idle", "walk", 0.5, always, NULL}};
    tendon_state_machine_desc md = {.states = states, .state_count = 2, .transitions = tr,
                                    .transition_count = 1, .joint_count = 3, .bind = &bind};
    ck_assert_uint_ge(fail_each_allocation("tendon_state_machine_create", machine_create,
                                           machine_destroy, &md),
                      2);
    tendon_state_machine_destroy(NULL);
    tendon_blend_tree_destroy(tree);

    static const int32_t parents[3] = {-1, 0, 1};
    static const char *const names[3] = {"hips", "spine", "head"};
    tendon_skeleton_desc sd = {3, parents, names, &bind};
    tendon_skeleton *sk = NULL;
    ck_assert_int_eq(tendon_skeleton_create(&sd, &sk), TENDON_OK);
    const skeleton_pair pair = {sk, sk};
    ck_assert_uint_ge(fail_each_allocation("tendon_retarget_map_create", map_create, map_destroy,
                                           &pair),
                      1);
    tendon_skeleton_destroy(sk);
    tendon_pose_destroy(&bind);
}
END_TEST

/* ---- the spring rig ---- */

static tendon_status still_root(void *user, double t, float *out)
{
    (void)user;
    out[0] = (float)t, out[1] = 1.0f, out[2] = 0.0f;
    return TENDON_OK;
}

static void half(void *user, const double *t, size_t n, double *out)
{
    (void)user;
    for (size_t i = 0; i < n; ++i)
        out[i] = 0.5 + 0.25 * (t[i] > 0.5);
}

START_TEST(test_spring_rig_per_frame)
{
    /* root → body → head → strand0 → strand1 → strand2, body → tail0 → tail1 */
    static const int32_t parents[8] = {-1, 0, 1, 2, 3, 4, 1, 6};
    static const char *const names[8] = {"root", "body", "head", "s0", "s1", "s2", "t0", "t1"};
    tendon_pose rest;
    ck_assert(tendon_pose_create(8, &rest) == TENDON_OK);
    for (int j = 1; j < 8; ++j)
        rest.translation[3 * j + 1] = j < 3 ? 0.5f : -0.1f;
    const tendon_skeleton_desc sd = {8, parents, names, &rest};
    tendon_skeleton *sk = NULL;
    ck_assert(tendon_skeleton_create(&sd, &sk) == TENDON_OK);
    static const float times[3] = {0.0f, 0.5f, 1.0f};
    static const float rot[12] = {0, 0, 0, 1, 0, 0.3826834f, 0, 0.9238795f, 0, 0, 0, 1};
    tendon_track_desc tracks[2] = {
        {1, TENDON_PATH_ROTATION, TENDON_INTERP_LINEAR, 4, 3, times, rot},
        {2, TENDON_PATH_ROTATION, TENDON_INTERP_LINEAR, 4, 3, times, rot}};
    const tendon_clip_desc cd = {8, 2, tracks};
    tendon_clip *clip = NULL;
    ck_assert(tendon_clip_create(&cd, &clip) == TENDON_OK);
    tendon_blend_node nodes[1] = {{.kind = TENDON_BLEND_CLIP, .clip = clip}};
    tendon_blend_tree_desc td = {.nodes = nodes, .node_count = 1, .joint_count = 8, .bind = &rest};
    tendon_blend_tree *tree = NULL;
    ck_assert(tendon_blend_tree_create(&td, &tree) == TENDON_OK);
    static const char *const strand[4] = {"head", "s0", "s1", "s2"};
    static const uint32_t tail[3] = {1, 6, 7};
    const tendon_spring_settings hair = {2.2, 0.45, 0.1}, heavy = {1.0, 1.5, -1};
    const tendon_spring_rig_chain chains[2] = {
        {"strand", strand, NULL, 4, {0, 0.05f, 0}, &hair, 1, NULL},
        {"tail", NULL, tail, 3, {0, 0, 0}, &heavy, 1, NULL}};
    float mask[8] = {0, 0, 1, 1, 1, 1, 0, 0};
    tendon_pose pose, scratch;
    ck_assert(tendon_pose_create(8, &pose) == TENDON_OK);
    ck_assert(tendon_pose_create(8, &scratch) == TENDON_OK);
    float positions[15], model[16 * 8], anchor[3];
    int bad = 0;
    for (int variant = 0; variant < 4; ++variant) {
        tendon_spring_rig_desc d = {0};
        d.skeleton = sk;
        d.chains = chains;
        d.chain_count = 2;
        d.tier = (tendon_tier)(variant & 1);
        d.lookback = (tendon_spring_lookback)(variant >> 1);
        if (variant == 3) {
            d.source.kind = TENDON_RIG_SOURCE_TREE;
            d.source.tree = tree;
        } else {
            d.source.base = (tendon_rig_clip){clip, 0.0, 1};
            d.source.blend = (tendon_rig_clip){clip, 0.3, 1};
            d.source.blend_weight = (tendon_rig_weight){half, NULL, 0};
            d.source.layer = (tendon_rig_clip){clip, 0.1, 0};
            d.source.layer_mode = TENDON_RIG_LAYER_ADDITIVE;
            d.source.layer_reference = &rest;
            d.source.layer_weight = (tendon_rig_weight){NULL, NULL, 0.7};
            d.source.layer_mask = mask;
        }
        tendon_spring_rig *rig = NULL;
        ck_assert_msg(tendon_spring_rig_create(&d, &rig) == TENDON_OK, "%s",
                      tendon_error_message());
        size_t bytes;
        ck_assert(tendon_spring_rig_workspace_size(rig, &bytes) == TENDON_OK);
        void *ws = malloc(bytes);
        const size_t before = g_allocations;
        for (int frame = 0; frame < 30; ++frame) {
            const double t = frame / 60.0;
            bad |= tendon_spring_rig_source_pose(rig, t, &scratch, &pose) != TENDON_OK;
            bad |= tendon_spring_rig_sample(rig, t, ws, bytes, positions, 15, &pose) != TENDON_OK;
            bad |= tendon_spring_rig_evaluate(rig, t + 1.0, ws, bytes) != TENDON_OK;
            bad |= tendon_spring_rig_march(rig, t + 1.0, ws, bytes, NULL, 0, &pose) != TENDON_OK;
            bad |= tendon_spring_rig_anchor(rig, 1, t, &pose, &scratch, model, anchor) != TENDON_OK;
            bad |= tendon_spring_chain_pose(sk, tail, 3, positions + 9, NULL, &pose) != TENDON_OK;
            bad |= tendon_spring_rig_march(rig, t, ws, bytes, positions, 15, &pose) !=
                   TENDON_ERR_VALUE; /* a refusal allocates nothing either */
        }
        const size_t allocated = g_allocations - before;
        ck_assert_msg(!bad, "a per-frame call failed: %s", tendon_error_message());
        ck_assert_msg(allocated == 0, "rig variant %d: 30 frames allocated %zu times", variant,
                      allocated);
        free(ws);
        tendon_spring_rig_destroy(rig);
    }
    /* the springs' _status entry points and the many-times clip sampler */
    static const uint32_t joints[2] = {1, 2};
    const double at[4] = {0.0, 0.2, 0.4, 0.9};
    tendon_pose many;
    ck_assert(tendon_pose_create(8, &many) == TENDON_OK);
    const tendon_spring_link links[2] = {{2.0, 0.4, -1, {0, -0.1, 0}}, {2.0, 0.4, -1, {0, -0.1, 0}}};
    float out[6];
    const size_t before = g_allocations;
    for (int frame = 0; frame < 10; ++frame) {
        bad |= tendon_spring_sample_status(&hair, TENDON_SPRING_LOOKBACK_SLOW_POLE, still_root,
                                           NULL, frame * 0.1, out) != TENDON_OK;
        bad |= tendon_spring_chain_sample_status(links, 2, TENDON_SPRING_LOOKBACK_SEED, still_root,
                                                 NULL, frame * 0.1, TENDON_SPRING_MAX_WORK, NULL,
                                                 0, out, 6) != TENDON_OK;
        bad |= tendon_clip_sample_times(clip, at, 4, joints, 2, &many) != TENDON_OK;
        bad |= tendon_clip_sample_times_f32(clip, at, 4, joints, 2, &many) != TENDON_OK;
    }
    const size_t allocated = g_allocations - before;
    ck_assert_msg(!bad, "a per-frame call failed: %s", tendon_error_message());
    ck_assert_msg(allocated == 0, "springs and many-times sampling allocated %zu times", allocated);
    tendon_pose_destroy(&many);
    tendon_pose_destroy(&pose), tendon_pose_destroy(&scratch), tendon_pose_destroy(&rest);
    tendon_blend_tree_destroy(tree);
    tendon_clip_destroy(clip);
    tendon_skeleton_destroy(sk);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("layers_alloc");
    TCase *tc = tcase_create("no_allocation_per_frame");
    tcase_add_test(tc, test_wrap_counts);
    tcase_add_test(tc, test_graph_per_frame);
    tcase_add_test(tc, test_clip_per_frame);
    tcase_add_test(tc, test_mask_ik_retarget_per_frame);
    tcase_add_test(tc, test_create_out_of_memory);
    tcase_add_test(tc, test_spring_rig_per_frame);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
