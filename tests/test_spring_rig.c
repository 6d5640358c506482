/*
 * The spring rig (tendon/spring_rig.h):
 *   - the batched evaluation equals the single-time one bit for bit at every substep time, on
 *     every ISA, for every kind of source (a clip; a blend toward a second clip with an additive
 *     masked layer, an override layer, an additive layer of full poses from a reference; a blend
 *     tree), on both tiers, with and without a root transform, under both lookback settings;
 *   - the rig's link positions equal tendon_spring_chain_sample's (and the _status form's) with
 *     a root callback computing the same anchors, bit for bit, every ISA;
 *   - positions → rotations against hand-computed chains: straight (rest rotations kept), bent
 *     90° (a quarter turn about the axis, the child on the bent direction at its own distance),
 *     a link on its parent's position (no NaN: the rest rotation), under a scaled and rotated
 *     parent, with a root matrix;
 *   - grids and batches are shared where the plans are equal; the pose is written where the
 *     chains are and nowhere else;
 *   - bad chains are refused by name (not a parent → child path, a missing joint, a joint out of
 *     range, a link of two chains, an anchor below a link, wrong settings counts), and sources
 *     (unknown kinds: a state machine is not one);
 *   - a failing root transform returns its status with nothing written; a march without an
 *     evaluation of that time is refused;
 *   - a workspace that outlives its rig is not taken for the next rig's, even at the same
 *     address: no march of the old evaluation, and the new rig's evaluation in it equals one in
 *     a fresh workspace bit for bit; so does an evaluation in a workspace moved within one
 *     buffer from frame to frame;
 *   - the single-time calls refuse by their own names and arguments (a scratch pose sharing
 *     memory with its pose among them), and tendon_spring_chain_pose refuses misaligned,
 *     overlapping or over-long arguments.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/kernels_internal.h" /* tendon_fail for the test's root transform */
#include "common/spring_internal.h" /* tendon_rig_clip_time(s_grid) */
#include "support.h"

/* ---- a small character: root, hips, spine, chest, head, an arm, hair and a coat ------------ */

enum {
    ROOT, HIPS, SPINE, CHEST, HEAD, HAIR_ROOT, HAIR1, HAIR2, HAIR3, /* hair: 0 … 8 */
    ARM, FOREARM,                                                   /* 9, 10 */
    TAIL_ROOT, TAIL1, TAIL2,                                        /* 11 … 13 under the hips */
    COAT_ROOT, COAT1, COAT2,                                        /* 14 … 16 under the hips */
    JOINTS
};
static const char *const NAMES[JOINTS] = {"root",  "hips",      "spine",     "chest", "head",
                                          "hair_root", "hair1", "hair2",     "hair3", "arm",
                                          "forearm",   "tail_root", "tail1", "tail2", "coat_root",
                                          "coat1",     "coat2"};
static const int32_t PARENTS[JOINTS] = {-1,    ROOT,  HIPS,      SPINE, CHEST, HEAD,
                                        HAIR_ROOT, HAIR1, HAIR2, CHEST, ARM,   HIPS,
                                        TAIL_ROOT, TAIL1, HIPS,  COAT_ROOT, COAT1};

typedef struct character {
    tendon_skeleton *skeleton;
    tendon_pose rest;
    tendon_clip *walk, *wave, *aim, *full;
    float mask[JOINTS];
    float *values;
} character;

static void make_character(character *ch)
{
    memset(ch, 0, sizeof *ch);
    ck_assert(tendon_pose_create(JOINTS, &ch->rest) == TENDON_OK);
    static const float T[JOINTS][3] = {
        {0, 0, 0},      {0, 1, 0},       {0, 0.12f, 0},  {0, 0.15f, 0},   {0, 0.2f, 0},
        {0.05f, 0.1f, -0.07f}, {0, -0.06f, 0}, {0, -0.06f, 0}, {0, -0.05f, 0.01f},
        {0.18f, 0.1f, 0}, {0.25f, 0, 0}, {0, -0.05f, -0.12f}, {0, 0, -0.1f}, {0, 0, -0.1f},
        {0.15f, -0.03f, 0.1f}, {0, -0.1f, 0}, {0, -0.1f, 0}};
    for (int j = 0; j < JOINTS; ++j)
        memcpy(ch->rest.translation + 3 * j, T[j], sizeof T[j]);
    /* a rotated and a scaled joint above the chains */
    const float s = 0.38268343f, c = 0.92387953f; /* 45° about y */
    ch->rest.rotation[4 * CHEST + 1] = s, ch->rest.rotation[4 * CHEST + 3] = c;
    ch->rest.scale[3 * HEAD] = 1.1f, ch->rest.scale[3 * HEAD + 1] = 0.9f;
    ch->rest.rotation[4 * HAIR_ROOT + 2] = 0.19509032f; /* 22.5° about z */
    ch->rest.rotation[4 * HAIR_ROOT + 3] = 0.98078528f;
    const tendon_skeleton_desc sd = {JOINTS, PARENTS, NAMES, &ch->rest};
    ck_assert_msg(tendon_skeleton_create(&sd, &ch->skeleton) == TENDON_OK, "%s",
                  tendon_error_message());

    /* walk: LINEAR rotations on the body (and the hair root: a spring anchor that animates),
       the hips' translation, a STEP scale and a CUBICSPLINE rotation; 1 s */
    enum { K = 21 };
    static float times[K], times2[9];
    for (int k = 0; k < K; ++k)
        times[k] = (float)k / 20.0f;
    for (int k = 0; k < 9; ++k)
        times2[k] = (float)k * 0.27f - 0.3f;
    ch->values = malloc(64 * K * 12 * sizeof(float));
    float *v = ch->values;
    tendon_track_desc tr[16];
    size_t n = 0;
    static const int ROT[6] = {HIPS, SPINE, CHEST, HEAD, HAIR_ROOT, ARM};
    for (int i = 0; i < 6; ++i) {
        for (int k = 0; k < K; ++k) {
            const double a = 0.3 * sin(2.0 * 3.14159265358979 * (k / 20.0) + i);
            const double ax[3] = {i % 3 == 0, i % 3 == 1, i % 3 == 2};
            for (int c2 = 0; c2 < 3; ++c2)
                v[4 * k + c2] = (float)(ax[c2] * sin(a / 2));
            v[4 * k + 3] = (float)cos(a / 2);
        }
        tr[n++] = (tendon_track_desc){(uint32_t)ROT[i], TENDON_PATH_ROTATION, TENDON_INTERP_LINEAR,
                                      4, K, times, v};
        v += 4 * K;
    }
    for (int k = 0; k < K; ++k)
        v[3 * k] = 0, v[3 * k + 1] = (float)(1.0 + 0.03 * sin(k * 0.6)), v[3 * k + 2] = k * 0.01f;
    tr[n++] = (tendon_track_desc){HIPS, TENDON_PATH_TRANSLATION, TENDON_INTERP_LINEAR, 3, K, times, v};
    v += 3 * K;
    for (int k = 0; k < 9; ++k)
        v[3 * k] = v[3 * k + 1] = v[3 * k + 2] = 1.0f + 0.05f * (float)(k % 3);
    tr[n++] = (tendon_track_desc){SPINE, TENDON_PATH_SCALE, TENDON_INTERP_STEP, 3, 9, times2, v};
    v += 27;
    for (int k = 0; k < 9; ++k) { /* in-tangent, value, out-tangent */
        const double a = 0.2 * k;
        const float q[12] = {0.01f, 0, 0, 0, (float)sin(a / 2), 0, 0, (float)cos(a / 2),
                             0, 0.02f, 0, 0};
        memcpy(v + 12 * k, q, sizeof q);
    }
    tr[n++] = (tendon_track_desc){FOREARM, TENDON_PATH_ROTATION, TENDON_INTERP_CUBICSPLINE, 4, 9,
                                  times2, v};
    v += 108;
    tendon_clip_desc cd = {JOINTS, n, tr};
    ck_assert(tendon_clip_create(&cd, &ch->walk) == TENDON_OK);

    /* wave: a second locomotion the base blends toward (rotations on the chest and head) */
    n = 0;
    static const int WAVE[2] = {CHEST, HEAD};
    for (int i = 0; i < 2; ++i) {
        for (int k = 0; k < 9; ++k) {
            const double a = 0.5 * cos(k * 0.7 + i);
            v[4 * k] = (float)sin(a / 2), v[4 * k + 1] = 0, v[4 * k + 2] = 0;
            v[4 * k + 3] = (float)cos(a / 2);
        }
        tr[n++] = (tendon_track_desc){(uint32_t)WAVE[i], TENDON_PATH_ROTATION, TENDON_INTERP_LINEAR,
                                      4, 9, times2, v};
        v += 36;
    }
    cd = (tendon_clip_desc){JOINTS, n, tr};
    ck_assert(tendon_clip_create(&cd, &ch->wave) == TENDON_OK);

    /* aim: a delta clip on the spine, chest and head */
    n = 0;
    static const int AIM[3] = {SPINE, CHEST, HEAD};
    for (int i = 0; i < 3; ++i) {
        for (int k = 0; k < K; ++k) {
            const double a = 0.25 * sin(k * 0.3 + 2 * i);
            v[4 * k] = 0, v[4 * k + 1] = (float)sin(a / 2), v[4 * k + 2] = 0;
            v[4 * k + 3] = (float)cos(a / 2);
        }
        tr[n++] = (tendon_track_desc){(uint32_t)AIM[i], TENDON_PATH_ROTATION, TENDON_INTERP_LINEAR,
                                      4, K, times, v};
        v += 4 * K;
    }
    cd = (tendon_clip_desc){JOINTS, n, tr};
    ck_assert(tendon_clip_create(&cd, &ch->aim) == TENDON_OK);

    /* full: full poses on the chest and head, for the additive layer with a reference */
    n = 0;
    for (int i = 0; i < 2; ++i) {
        for (int k = 0; k < K; ++k) {
            const double a = 0.4 * sin(k * 0.2 + i);
            v[4 * k] = 0, v[4 * k + 1] = 0, v[4 * k + 2] = (float)sin(a / 2);
            v[4 * k + 3] = (float)cos(a / 2);
        }
        tr[n++] = (tendon_track_desc){(uint32_t)WAVE[i], TENDON_PATH_ROTATION, TENDON_INTERP_LINEAR,
                                      4, K, times, v};
        v += 4 * K;
    }
    cd = (tendon_clip_desc){JOINTS, n, tr};
    ck_assert(tendon_clip_create(&cd, &ch->full) == TENDON_OK);
    for (int j = 0; j < JOINTS; ++j)
        ch->mask[j] = j == SPINE ? 0.33333334f : j == CHEST ? 0.6666667f : j >= HEAD ? 1.0f : 0.0f;
}

static void free_character(character *ch)
{
    tendon_clip_destroy(ch->walk), tendon_clip_destroy(ch->wave);
    tendon_clip_destroy(ch->aim), tendon_clip_destroy(ch->full);
    tendon_skeleton_destroy(ch->skeleton);
    tendon_pose_destroy(&ch->rest);
    free(ch->values);
}

static void speed(void *user, const double *t, size_t n, double *out)
{
    (void)user;
    for (size_t i = 0; i < n; ++i) /* leaves [0, 1] now and then: the blend clamps it */
        out[i] = 0.6 + 0.5 * sin(1.3 * t[i]);
}
static void aim_weight(void *user, const double *t, size_t n, double *out)
{
    (void)user;
    for (size_t i = 0; i < n; ++i) /* leaves [0, 1] on both sides now and then, and is 0 at
                                      some times: every branch of the layer's weights */
        out[i] = fmod(t[i], 0.7) < 0.05 ? 0.0 : 0.55 + 0.6 * sin(0.9 * t[i] + 1.0);
}

static tendon_status root_transform(void *user, double t, float m[16])
{
    const int *fail = user;
    if (fail && *fail && t > 0.4)
        return tendon_fail(TENDON_ERR_NOT_FOUND, "test root: no placement after 0.4 s");
    memset(m, 0, 16 * sizeof(float));
    const double a = 0.7 * t;
    m[0] = (float)cos(a), m[2] = (float)-sin(a), m[5] = 1.0f, m[8] = (float)sin(a);
    m[10] = (float)cos(a), m[15] = 1.0f;
    m[12] = (float)(1.5 * t), m[13] = 0.1f, m[14] = (float)(-0.5 * t);
    return TENDON_OK;
}

static const tendon_spring_settings HAIR = {2.2, 0.45, 0.12};
static const tendon_spring_settings COAT[2] = {{1.6, 0.6, 0.1}, {1.8, 0.5, TENDON_SPRING_NO_LIMIT}};
static const tendon_spring_settings TAIL = {1.2, 1.5, TENDON_SPRING_NO_LIMIT}; /* overdamped */

static const char *const HAIR_CHAIN[4] = {"hair_root", "hair1", "hair2", "hair3"};
static const uint32_t COAT_CHAIN[3] = {COAT_ROOT, COAT1, COAT2};
static const uint32_t TAIL_CHAIN[3] = {TAIL_ROOT, TAIL1, TAIL2};

/* The rig's chains: hair by name (offset 0), coat by index (an offset, two settings), tail. */
static void chains_of(tendon_spring_rig_chain chains[3])
{
    memset(chains, 0, 3 * sizeof *chains);
    chains[0] = (tendon_spring_rig_chain){"hair", HAIR_CHAIN, NULL, 4, {0, 0, 0}, &HAIR, 1, NULL};
    chains[1] = (tendon_spring_rig_chain){"coat", NULL, COAT_CHAIN, 3, {0.01f, 0.02f, 0},
                                          COAT, 2, NULL};
    chains[2] = (tendon_spring_rig_chain){"tail", NULL, TAIL_CHAIN, 3, {0, 0, 0}, &TAIL, 1, NULL};
}

enum { SRC_CLIP, SRC_LAYERED, SRC_OVERRIDE, SRC_REFERENCE, SRC_REF_MASKED, SRC_TREE, SRC_COUNT };

typedef struct scene {
    character ch;
    tendon_blend_tree *tree;
} scene;

static void make_desc(scene *sc, int kind, int tier, int lookback, int rooted, int *fail,
                      tendon_spring_rig_chain chains[3], tendon_spring_rig_desc *d)
{
    chains_of(chains);
    memset(d, 0, sizeof *d);
    d->skeleton = sc->ch.skeleton;
    d->chains = chains;
    d->chain_count = 3;
    d->tier = (tendon_tier)tier;
    d->lookback = (tendon_spring_lookback)lookback;
    if (rooted) {
        d->root = root_transform;
        d->root_user = fail;
    }
    tendon_spring_rig_source *s = &d->source;
    s->kind = kind == SRC_TREE ? TENDON_RIG_SOURCE_TREE : TENDON_RIG_SOURCE_CLIPS;
    s->base = (tendon_rig_clip){sc->ch.walk, 0.1, 1};
    switch (kind) {
    case SRC_LAYERED:
        s->base.clip = NULL; /* the rest pose, blended toward the walk by a speed of time */
        s->blend = (tendon_rig_clip){sc->ch.walk, 0.0, 1};
        s->blend_weight = (tendon_rig_weight){speed, NULL, 0};
        s->layer = (tendon_rig_clip){sc->ch.aim, 0.5, 1};
        s->layer_mode = TENDON_RIG_LAYER_ADDITIVE;
        s->layer_weight = (tendon_rig_weight){aim_weight, NULL, 0};
        s->layer_mask = sc->ch.mask;
        break;
    case SRC_OVERRIDE:
        s->blend = (tendon_rig_clip){sc->ch.wave, -0.2, 0}; /* not looped: clamps at the ends */
        s->blend_weight = (tendon_rig_weight){NULL, NULL, 0.35};
        s->layer = (tendon_rig_clip){sc->ch.full, 0.0, 1};
        s->layer_mode = TENDON_RIG_LAYER_OVERRIDE;
        s->layer_weight = (tendon_rig_weight){aim_weight, NULL, 0};
        s->layer_mask = sc->ch.mask;
        break;
    case SRC_REFERENCE:
        s->layer = (tendon_rig_clip){sc->ch.full, 0.25, 1};
        s->layer_mode = TENDON_RIG_LAYER_ADDITIVE;
        s->layer_reference = &sc->ch.rest;
        s->layer_weight = (tendon_rig_weight){NULL, NULL, 0.8};
        break;
    case SRC_REF_MASKED: /* a delta from a reference under the mask: the hips' mask is 0 and
                            the full clip does not drive them (an idle layer slot, the rig's
                            product path), the spine's is not 0 and it does not drive it either */
        s->blend = (tendon_rig_clip){sc->ch.wave, 0.3, 1};
        s->blend_weight = (tendon_rig_weight){speed, NULL, 0};
        s->layer = (tendon_rig_clip){sc->ch.full, 0.1, 1};
        s->layer_mode = TENDON_RIG_LAYER_ADDITIVE;
        s->layer_reference = &sc->ch.rest;
        s->layer_weight = (tendon_rig_weight){aim_weight, NULL, 0};
        s->layer_mask = sc->ch.mask;
        break;
    case SRC_TREE:
        s->tree = sc->tree;
        break;
    default:
        break;
    }
}

static void make_scene(scene *sc)
{
    make_character(&sc->ch);
    tendon_blend_node nodes[3] = {{.kind = TENDON_BLEND_LERP, .parameter = "w", .a = 1, .b = 2},
                                  {.kind = TENDON_BLEND_CLIP, .clip = sc->ch.walk},
                                  {.kind = TENDON_BLEND_CLIP, .clip = sc->ch.wave, .clock = "c"}};
    tendon_blend_tree_desc td = {.nodes = nodes, .node_count = 3, .joint_count = JOINTS,
                                 .bind = &sc->ch.rest};
    ck_assert(tendon_blend_tree_create(&td, &sc->tree) == TENDON_OK);
    ck_assert(tendon_blend_tree_set(sc->tree, "w", 0.4) == TENDON_OK);
    ck_assert(tendon_blend_tree_set(sc->tree, "c", 0.7) == TENDON_OK);
}

static void free_scene(scene *sc)
{
    tendon_blend_tree_destroy(sc->tree);
    free_character(&sc->ch);
}

/* ---- the single-time path, as a root callback for tendon_spring_chain_sample --------------- */

typedef struct reference_anchor {
    const tendon_spring_rig *rig;
    size_t chain;
    tendon_pose pose, scratch;
    float model[16 * JOINTS];
    size_t calls;
    int failed;
} reference_anchor;

static void reference_cb(void *user, double t, float *out)
{
    reference_anchor *r = user;
    ++r->calls;
    if (tendon_spring_rig_anchor(r->rig, r->chain, t, &r->pose, &r->scratch, r->model, out) !=
        TENDON_OK)
        r->failed = 1;
}

static tendon_status reference_status_cb(void *user, double t, float *out)
{
    reference_anchor *r = user;
    return tendon_spring_rig_anchor(r->rig, r->chain, t, &r->pose, &r->scratch, r->model, out);
}

START_TEST(rig_equals_single_time_every_isa)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    scene sc;
    make_scene(&sc);
    reference_anchor ref;
    memset(&ref, 0, sizeof ref);
    ck_assert(tendon_pose_create(JOINTS, &ref.pose) == TENDON_OK);
    ck_assert(tendon_pose_create(JOINTS, &ref.scratch) == TENDON_OK);
    for (int kind = 0; kind < SRC_COUNT; ++kind) {
        for (int variant = 0; variant < 4; ++variant) {
            const int tier = variant & 1, rooted = kind == SRC_LAYERED ? variant >> 1 : 0;
            const int lookback = kind == SRC_CLIP ? variant >> 1 : 0;
            tendon_spring_rig_chain chains[3];
            tendon_spring_rig_desc d;
            make_desc(&sc, kind, tier, lookback, rooted, NULL, chains, &d);
            tendon_spring_rig *rig = NULL;
            ck_assert_msg(tendon_spring_rig_create(&d, &rig) == TENDON_OK, "%s",
                          tendon_error_message());
            size_t bytes;
            ck_assert(tendon_spring_rig_workspace_size(rig, &bytes) == TENDON_OK);
            void *ws = malloc(bytes + 3);
            void *wsu = (char *)ws + 3; /* any alignment */
            ref.rig = rig;
            const size_t links = tendon_spring_rig_link_count(rig);
            ck_assert_uint_eq(links, 7);
            float *got = malloc(3 * links * sizeof(float));
            static const double times[3] = {0.0, 0.731, 12.25};
            for (int ti = 0; ti < 3; ++ti) {
                const double t = times[ti];
                ck_assert_msg(tendon_spring_rig_evaluate_on(k, rig, t, wsu, bytes) == TENDON_OK,
                              "%s", tendon_error_message());
                ck_assert_msg(tendon_spring_rig_march_on(k, rig, t, wsu, bytes, got, 3 * links,
                                                         NULL) == TENDON_OK,
                              "%s", tendon_error_message());
                for (size_t c = 0; c < 3; ++c) {
                    /* the anchors, time by time, against the single-time path */
                    float anchors[3 * 400], one[3];
                    double at[400];
                    ck_assert(tendon_spring_rig_evaluated_anchors(rig, wsu, bytes, c, anchors,
                                                                  3 * 400, at, 400) == TENDON_OK);
                    const size_t nt = tendon_spring_rig_grid_times(
                        rig, c == 0 ? 0 : c); /* grid index = chain index here */
                    ck_assert(nt > 3 && nt <= 400);
                    ref.chain = c;
                    for (size_t i = 0; i < nt; ++i) {
                        ck_assert(tendon_spring_rig_anchor(rig, c, at[i], &ref.pose, &ref.scratch,
                                                           ref.model, one) == TENDON_OK);
                        ck_assert_msg(first_float_diff(one, anchors + 3 * i, 3) < 0,
                                      "%s source %d variant %d chain %zu time %zu (%.17g): "
                                      "batched %08x %08x %08x, single %08x %08x %08x",
                                      tendon_isa_name(k->isa), kind, variant, c, i, at[i],
                                      float_bits(anchors[3 * i]), float_bits(anchors[3 * i + 1]),
                                      float_bits(anchors[3 * i + 2]), float_bits(one[0]),
                                      float_bits(one[1]), float_bits(one[2]));
                    }
                    /* the positions, against tendon_spring_chain_sample with that anchor */
                    tendon_spring_link lk[3];
                    const size_t n = tendon_spring_rig_chain_link_count(rig, c);
                    ck_assert(tendon_spring_rig_chain_links(rig, c, lk, 3) == TENDON_OK);
                    float want[9], want2[9];
                    ref.calls = 0;
                    ref.failed = 0;
                    if (lookback == 0)
                        ck_assert(tendon_spring_chain_sample_on(k, lk, n, reference_cb, &ref, t,
                                                                NULL, 0, want, 9) == TENDON_OK);
                    ck_assert(tendon_spring_chain_sample_status_on(
                                  k, lk, n, (tendon_spring_lookback)lookback, reference_status_cb,
                                  &ref, t, TENDON_SPRING_MAX_WORK, NULL, 0, want2, 9) == TENDON_OK);
                    if (lookback == 0) {
                        ck_assert(!ref.failed);
                        ck_assert_uint_eq(ref.calls, nt);
                        ck_assert_int_eq(first_float_diff(want, want2, 3 * n), -1);
                    }
                    const float *mine = got + 3 * tendon_spring_rig_chain_first_link(rig, c);
                    const long diff = first_float_diff(mine, want2, 3 * n);
                    ck_assert_msg(diff < 0, "%s source %d variant %d chain %zu t %g: link float %ld "
                                  "%.9g against %.9g",
                                  tendon_isa_name(k->isa), kind, variant, c, t, diff,
                                  (double)mine[diff], (double)want2[diff]);
                }
            }
            free(got);
            free(ws);
            tendon_spring_rig_destroy(rig);
        }
    }
    tendon_pose_destroy(&ref.pose);
    tendon_pose_destroy(&ref.scratch);
    free_scene(&sc);
}
END_TEST

/*
 * A deep skeleton: 40 joints in a line, every one animated, a chain hanging from joint 36 — 37
 * dynamic joints on the grid, more than a 512-joint chunk holds at 16 times (32 would fit), so a
 * chunk is 16 times of every slot (592 joints) and the last one is partial; and with heavily damped links
 * (ζ = 6: 12 times), a grid of fewer than 16 times, one chunk whose runs are padded past them.
 * The anchors and the links against the single-time path on every ISA, both tiers, with and
 * without a root transform.
 */
static const tendon_spring_settings STIFF = {2.0, 6.0, TENDON_SPRING_NO_LIMIT};
enum { DEEP = 40, DEEP_J0 = 36 };

typedef struct deep_reference {
    const tendon_spring_rig *rig;
    tendon_pose pose, scratch;
    float model[16 * DEEP];
} deep_reference;

static tendon_status deep_reference_cb(void *user, double t, float *out)
{
    deep_reference *r = user;
    return tendon_spring_rig_anchor(r->rig, 0, t, &r->pose, &r->scratch, r->model, out);
}

START_TEST(deep_rig_small_chunks_every_isa)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    int32_t parents[DEEP];
    tendon_pose rest;
    ck_assert(tendon_pose_create(DEEP, &rest) == TENDON_OK);
    for (int j = 0; j < DEEP; ++j) {
        parents[j] = j - 1;
        rest.translation[3 * j + 1] = j ? 0.05f : 0.0f;
        rest.translation[3 * j] = j ? 0.01f * (float)(j % 3) : 0.0f;
    }
    const tendon_skeleton_desc sd = {DEEP, parents, NULL, &rest};
    tendon_skeleton *sk = NULL;
    ck_assert_msg(tendon_skeleton_create(&sd, &sk) == TENDON_OK, "%s", tendon_error_message());
    enum { K = 13 };
    static float times[K];
    for (int k2 = 0; k2 < K; ++k2)
        times[k2] = (float)k2 / 12.0f;
    float *values = malloc((size_t)DEEP * 4 * K * sizeof(float) + 3 * K * sizeof(float));
    tendon_track_desc tr[DEEP + 1];
    for (int j = 0; j < DEEP; ++j) {
        float *v = values + (size_t)j * 4 * K;
        for (int k2 = 0; k2 < K; ++k2) {
            const double a = 0.08 * sin(2.0 * 3.14159265358979 * k2 / 12.0 + 0.3 * j);
            const int ax = j % 3;
            v[4 * k2] = ax == 0 ? (float)sin(a / 2) : 0.0f;
            v[4 * k2 + 1] = ax == 1 ? (float)sin(a / 2) : 0.0f;
            v[4 * k2 + 2] = ax == 2 ? (float)sin(a / 2) : 0.0f;
            v[4 * k2 + 3] = (float)cos(a / 2);
        }
        tr[j] = (tendon_track_desc){(uint32_t)j, TENDON_PATH_ROTATION, TENDON_INTERP_LINEAR, 4, K,
                                    times, v};
    }
    float *tv = values + (size_t)DEEP * 4 * K;
    for (int k2 = 0; k2 < K; ++k2)
        tv[3 * k2] = 0.02f * (float)k2, tv[3 * k2 + 1] = 1.0f, tv[3 * k2 + 2] = 0.0f;
    tr[DEEP] = (tendon_track_desc){1, TENDON_PATH_TRANSLATION, TENDON_INTERP_LINEAR, 3, K, times,
                                   tv};
    const tendon_clip_desc cd = {DEEP, DEEP + 1, tr};
    tendon_clip *clip = NULL;
    ck_assert(tendon_clip_create(&cd, &clip) == TENDON_OK);
    static const uint32_t CHAIN[4] = {DEEP_J0, DEEP_J0 + 1, DEEP_J0 + 2, DEEP_J0 + 3};
    deep_reference ref;
    memset(&ref, 0, sizeof ref);
    ck_assert(tendon_pose_create(DEEP, &ref.pose) == TENDON_OK);
    ck_assert(tendon_pose_create(DEEP, &ref.scratch) == TENDON_OK);
    for (int variant = 0; variant < 8; ++variant) {
        const int tier = variant & 1, rooted = (variant >> 1) & 1, stiff = variant >> 2;
        tendon_spring_rig_chain chain = {"deep", NULL, CHAIN, 4, {0.01f, -0.02f, 0.0f},
                                         stiff ? &STIFF : &HAIR, 1, NULL};
        tendon_spring_rig_desc d;
        memset(&d, 0, sizeof d);
        d.skeleton = sk;
        d.chains = &chain;
        d.chain_count = 1;
        d.tier = (tendon_tier)tier;
        if (rooted)
            d.root = root_transform;
        d.source.kind = TENDON_RIG_SOURCE_CLIPS;
        d.source.blend = (tendon_rig_clip){clip, 0.05, 1};
        d.source.blend_weight = (tendon_rig_weight){speed, NULL, 0};
        tendon_spring_rig *rig = NULL;
        ck_assert_msg(tendon_spring_rig_create(&d, &rig) == TENDON_OK, "%s",
                      tendon_error_message());
        ref.rig = rig;
        size_t bytes;
        ck_assert(tendon_spring_rig_workspace_size(rig, &bytes) == TENDON_OK);
        void *ws = malloc(bytes);
        float got[9], want[9], anchors[3 * 400], one[3];
        double at[400];
        static const double ts[2] = {0.4, 7.9};
        for (int ti = 0; ti < 2; ++ti) {
            ck_assert_msg(tendon_spring_rig_evaluate_on(k, rig, ts[ti], ws, bytes) == TENDON_OK,
                          "%s", tendon_error_message());
            ck_assert(tendon_spring_rig_march_on(k, rig, ts[ti], ws, bytes, got, 9, NULL) ==
                      TENDON_OK);
            const size_t nt = tendon_spring_rig_grid_times(rig, 0);
            ck_assert_msg(stiff ? nt < 16 : nt > 40 && nt <= 400, "%zu times", nt);
            ck_assert(tendon_spring_rig_evaluated_anchors(rig, ws, bytes, 0, anchors, 3 * 400, at,
                                                          400) == TENDON_OK);
            for (size_t i = 0; i < nt; ++i) {
                ck_assert(deep_reference_cb(&ref, at[i], one) == TENDON_OK);
                ck_assert_msg(first_float_diff(one, anchors + 3 * i, 3) < 0,
                              "%s variant %d time %zu of %zu: batched %08x %08x %08x, single "
                              "%08x %08x %08x",
                              tendon_isa_name(k->isa), variant, i, nt,
                              float_bits(anchors[3 * i]), float_bits(anchors[3 * i + 1]),
                              float_bits(anchors[3 * i + 2]), float_bits(one[0]),
                              float_bits(one[1]), float_bits(one[2]));
            }
            tendon_spring_link lk[3];
            ck_assert(tendon_spring_rig_chain_links(rig, 0, lk, 3) == TENDON_OK);
            ck_assert(tendon_spring_chain_sample_status_on(
                          k, lk, 3, TENDON_SPRING_LOOKBACK_SEED, deep_reference_cb, &ref, ts[ti],
                          TENDON_SPRING_MAX_WORK, NULL, 0, want, 9) == TENDON_OK);
            ck_assert_msg(first_float_diff(got, want, 9) < 0, "%s variant %d: links differ",
                          tendon_isa_name(k->isa), variant);
        }
        free(ws);
        tendon_spring_rig_destroy(rig);
    }
    tendon_pose_destroy(&ref.pose), tendon_pose_destroy(&ref.scratch);
    tendon_clip_destroy(clip);
    free(values);
    tendon_skeleton_destroy(sk);
    tendon_pose_destroy(&rest);
}
END_TEST

/*
 * The rig's idle layer slots (an additive layer whose mask is 0 at a joint the layer's clip does
 * not drive) skip the add kernel: tendon_add_zero_weight_make/_apply give the kernel's bits at
 * weight +0 with a constant delta from a sum, a product and one quaternion product. Against the
 * kernel itself on this ISA, both tiers, counts 0-20, 43 and 66, over bases and deltas chosen
 * to make the two differ if any operation were left out: signed zeros (+0 + −0, the
 * product's zero terms turning −0 into +0), a negative w (the slerp's flip of the identity), a
 * delta at dot 0 (the acos path), NaN and ±∞ in the delta's translation, rotation and scale
 * (∞·0), huge, tiny and denormal bases.
 */
START_TEST(add_at_zero_weight_every_isa)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    enum { N = 67 };
    const float nan = NAN, inf = INFINITY;
    static const float D[][10] = { /* t x y z, r x y z w, s x y z */
        {0, 0, 0, 0, 0, 0, 1, 1, 1, 1},
        {-0.0f, -0.0f, -0.0f, -0.0f, -0.0f, -0.0f, 1, 1, 1, 1},
        {-0.0f, 0, 2.5f, -0.0f, -0.0f, -0.0f, -1, 1, -0.0f, 3},
        {0.25f, -1, 0, 0.6f, 0, 0, 0.8f, 0.5f, 1, 2},
        {0, 0, 0, 0.1f, 0.2f, 0.3f, -0.9f, 1, 1, 1},
        {0, 0, 0, 2, 0, 0, 0, 1, 1, 1},             /* dot 0: acos */
        {1e30f, -3, 0, 0, 0, 0.70710677f, 0.70710677f, 1e-30f, 1, 1},
        {INFINITY, 0, -INFINITY, 0, 0, 0, 1, INFINITY, 1, -INFINITY},
        {NAN, 0, 0, 0, 0, 0, 1, 1, NAN, 1},
        {0, 0, 0, NAN, 0, 0, 1, 1, 1, 1},
        {0, 0, 0, 0, 0, 0, INFINITY, 1, 1, 1},
    };
    tendon_pose base, want, got, delta;
    ck_assert(tendon_pose_create(N, &base) == TENDON_OK);
    ck_assert(tendon_pose_create(N, &want) == TENDON_OK);
    ck_assert(tendon_pose_create(N, &got) == TENDON_OK);
    ck_assert(tendon_pose_create(N, &delta) == TENDON_OK);
    test_rng rng;
    rng_seed(&rng, 0x1d1e5107ull);
    static const float odd[] = {0.0f, -0.0f, 1e-40f, -1e-40f, 3e38f, -3e38f, 1.0f, -1.0f};
    for (size_t j = 0; j < N; ++j) {
        for (int e = 0; e < 3; ++e) {
            base.translation[3 * j + e] = j % 3 ? (float)rng_range(&rng, -2, 2) : odd[(j + e) % 8];
            base.scale[3 * j + e] = j % 4 ? (float)rng_range(&rng, 0.5, 2) : odd[(j + 2 * e) % 8];
        }
        rng_unit_quat(&rng, base.rotation + 4 * j);
        if (j % 5 == 0) /* zero components of either sign, w of either sign */
            for (int e = 0; e < 4; ++e)
                base.rotation[4 * j + e] =
                    e == (int)(j / 5) % 4 ? (j % 2 ? -1.0f : 1.0f) : (j % 3 ? -0.0f : 0.0f);
    }
    base.translation[3 * 7] = nan, base.rotation[4 * 11 + 2] = nan, base.scale[3 * 13 + 1] = inf;
    base.rotation[4 * 17] = inf, base.rotation[4 * 19 + 1] = 1e-40f; /* a denormal */
    base.rotation[4 * 23] = -3e38f, base.rotation[4 * 23 + 3] = 3e38f; /* huge components */
    for (int tier = 0; tier < 2; ++tier)
        for (size_t di = 0; di < sizeof D / sizeof D[0]; ++di) {
            for (size_t j = 0; j < N; ++j) {
                memcpy(delta.translation + 3 * j, D[di], 3 * sizeof(float));
                memcpy(delta.rotation + 4 * j, D[di] + 3, 4 * sizeof(float));
                memcpy(delta.scale + 3 * j, D[di] + 7, 3 * sizeof(float));
            }
            float c[TENDON_ADD_ZERO_FLOATS], q0[4], q0s[4 * N];
            tendon_add_zero_weight_make(tier, D[di], D[di] + 3, D[di] + 7, c, q0);
            for (size_t j = 0; j < N; ++j)
                memcpy(q0s + 4 * j, q0, sizeof q0);
            for (size_t count = 0; count <= N; count += count < 20 ? 1 : 23) {
                ck_assert(tendon_pose_copy(&base, &want) == TENDON_OK);
                ck_assert(tendon_pose_copy(&base, &got) == TENDON_OK);
                want.joint_count = got.joint_count = delta.joint_count = count;
                if (tier) {
                    float w[N];
                    for (size_t j = 0; j < N; ++j)
                        w[j] = 0.0f;
                    k->pose_add_weighted_f32(&want, &delta, w, count, &want);
                } else {
                    double w[N];
                    for (size_t j = 0; j < N; ++j)
                        w[j] = 0.0;
                    k->pose_add_weighted(&want, &delta, w, count, &want);
                }
                tendon_add_zero_weight_apply(k, tier, c, q0s, count, &got);
                const long dt = first_float_diff(want.translation, got.translation, 3 * count);
                const long dr = first_float_diff(want.rotation, got.rotation, 4 * count);
                const long ds = first_float_diff(want.scale, got.scale, 3 * count);
                ck_assert_msg(dt < 0 && dr < 0 && ds < 0,
                              "%s tier %d delta %zu count %zu: translation %ld, rotation %ld "
                              "(%08x vs %08x), scale %ld differ from the add kernel",
                              tendon_isa_name(k->isa), tier, di, count, dt, dr,
                              dr >= 0 ? float_bits(want.rotation[dr]) : 0u,
                              dr >= 0 ? float_bits(got.rotation[dr]) : 0u, ds);
                want.joint_count = got.joint_count = delta.joint_count = N;
            }
        }
    tendon_pose_destroy(&base), tendon_pose_destroy(&want);
    tendon_pose_destroy(&got), tendon_pose_destroy(&delta);
}
END_TEST

/* The a → b → c skeleton of the tests below, its chain hung from b, and two-key clips' keys. */
enum { ABC = 3 };
static const int32_t ABC_PARENTS[ABC] = {-1, 0, 1};
static const char *const ABC_NAMES[ABC] = {"a", "b", "c"};
static const uint32_t ABC_CHAIN[2] = {1, 2};
static const tendon_spring_settings ABC_SETTINGS = {2.0, 0.5, TENDON_SPRING_NO_LIMIT};
static const float KEY_TIMES[2] = {0.0f, 1.0f};
static const float IDENTITY_KEYS[8] = {0, 0, 0, 1, 0, 0, 0, 1};

/* A one-chain rig's description over the a → b → c skeleton sk: the chain hung from b with a
   −0 offset, a clip source on the given tier; the caller sets the clips and weights. */
static void abc_desc(const tendon_skeleton *sk, int tier, tendon_spring_rig_chain *chain,
                     tendon_spring_rig_desc *d)
{
    *chain = (tendon_spring_rig_chain){"c", NULL, ABC_CHAIN, 2, {-0.0f, -0.0f, -0.0f},
                                       &ABC_SETTINGS, 1, NULL};
    memset(d, 0, sizeof *d);
    d->skeleton = sk, d->chains = chain, d->chain_count = 1, d->tier = (tendon_tier)tier;
    d->source.kind = TENDON_RIG_SOURCE_CLIPS;
}

/*
 * A one-chain rig of a J ≤ 4-joint skeleton from d, evaluated at 0.5 s on k: its anchors at
 * every time of the grid against the single-time path, bit for bit (NaN by class); the case
 * named by `what` and two numbers in a failure. Returns the times compared.
 */
static size_t one_chain_anchors_match(const tendon_kernels *k, const tendon_spring_rig_desc *d,
                                      size_t J, const char *what, int x, int y)
{
    tendon_spring_rig *rig;
    ck_assert_msg(tendon_spring_rig_create(d, &rig) == TENDON_OK, "%s", tendon_error_message());
    size_t bytes;
    ck_assert(tendon_spring_rig_workspace_size(rig, &bytes) == TENDON_OK);
    void *ws = malloc(bytes);
    ck_assert(tendon_spring_rig_evaluate_on(k, rig, 0.5, ws, bytes) == TENDON_OK);
    float anchors[3 * 512], one[3], model[16 * 4];
    double at[512];
    ck_assert(J <= 4);
    ck_assert(tendon_spring_rig_evaluated_anchors(rig, ws, bytes, 0, anchors, 3 * 512, at, 512) ==
              TENDON_OK);
    const size_t nt = tendon_spring_rig_grid_times(rig, 0);
    ck_assert(nt > 3 && nt <= 512);
    tendon_pose p, scratch;
    ck_assert(tendon_pose_create(J, &p) == TENDON_OK);
    ck_assert(tendon_pose_create(J, &scratch) == TENDON_OK);
    for (size_t i = 0; i < nt; ++i) {
        ck_assert(tendon_spring_rig_anchor(rig, 0, at[i], &p, &scratch, model, one) == TENDON_OK);
        ck_assert_msg(first_float_diff(one, anchors + 3 * i, 3) < 0,
                      "%s %s %d %d time %zu (%.17g): batched %08x %08x %08x, single %08x %08x "
                      "%08x",
                      tendon_isa_name(k->isa), what, x, y, i, at[i], float_bits(anchors[3 * i]),
                      float_bits(anchors[3 * i + 1]), float_bits(anchors[3 * i + 2]),
                      float_bits(one[0]), float_bits(one[1]), float_bits(one[2]));
    }
    free(ws);
    tendon_pose_destroy(&p), tendon_pose_destroy(&scratch);
    tendon_spring_rig_destroy(rig);
    return nt;
}

/*
 * A layer mask of −0 at a joint the layer's clip drives: the masked kernels weigh it +0 (0
 * where the clamped mask is 0), so the rig must too — its weights once took w·(−0) = −0 there,
 * and a −0 weight leaves −0 where +0 should be (the review's case: a → b → c, zero rest
 * translations of either sign, a constant layer weight, one chain hung from b). Anchors at every
 * time of the grid against the single-time path, on every ISA, both tiers.
 */
START_TEST(negative_zero_mask_every_isa)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    enum { J = ABC };
    static const float layer_keys[8] = {0.1f, 0.1f, 0.1f, 0.98488578f,
                                        0.1f, 0.1f, 0.1f, 0.98488578f};
    const float mask[J] = {-0.0f, 1.0f, 1.0f};
    for (int pattern = 0; pattern < 8; ++pattern)
        for (int tier = 0; tier < 2; ++tier) {
            tendon_pose rest;
            ck_assert(tendon_pose_create(J, &rest) == TENDON_OK);
            for (int e = 0; e < 3; ++e) {
                rest.translation[e] = pattern >> e & 1 ? -0.0f : 0.0f;
                rest.translation[3 + e] = -0.0f;
            }
            rest.translation[7] = -0.1f;
            tendon_skeleton *sk;
            const tendon_skeleton_desc sd = {J, ABC_PARENTS, ABC_NAMES, &rest};
            ck_assert(tendon_skeleton_create(&sd, &sk) == TENDON_OK);
            const tendon_track_desc tb = {0, TENDON_PATH_ROTATION, TENDON_INTERP_STEP, 4, 2,
                                          KEY_TIMES, IDENTITY_KEYS};
            const tendon_track_desc tl = {0, TENDON_PATH_ROTATION, TENDON_INTERP_STEP, 4, 2,
                                          KEY_TIMES, layer_keys};
            const tendon_clip_desc cb = {J, 1, &tb}, cl = {J, 1, &tl};
            tendon_clip *base, *layer;
            ck_assert(tendon_clip_create(&cb, &base) == TENDON_OK);
            ck_assert(tendon_clip_create(&cl, &layer) == TENDON_OK);
            tendon_spring_rig_chain chain;
            tendon_spring_rig_desc d;
            abc_desc(sk, tier, &chain, &d);
            d.source.base = (tendon_rig_clip){base, 0.0, 1};
            d.source.layer = (tendon_rig_clip){layer, 0.0, 1};
            d.source.layer_mode = TENDON_RIG_LAYER_ADDITIVE;
            d.source.layer_weight = (tendon_rig_weight){NULL, NULL, 0.5};
            d.source.layer_mask = mask;
            one_chain_anchors_match(k, &d, J, "tier, pattern", tier, pattern);
            tendon_pose_destroy(&rest);
            tendon_clip_destroy(base), tendon_clip_destroy(layer);
            tendon_skeleton_destroy(sk);
        }
}
END_TEST

/*
 * Translations and scales the stages leave at rest (docs/springs.md, "Translations and scales
 * left at rest"): where neither the blend's clips nor the layer's drive a joint's translation
 * or scale, the rig computes its rotation alone and reads the rest's — which is the full
 * kernels' value only when the rest holds no −0 (r + (r − r)·w is +0 for r = −0) and the layer's
 * weight is finite (d·w with d = 0 is NaN at w = ∞). a → b → c, the chain hung from b with a −0
 * offset, the blend clip turning a and b by the identity, so a −0 the kernels would make +0
 * reaches the anchors; a's and b's rest translations and b's scale with −0 in every pattern; no
 * base clip or one; no layer, an additive one, an override one, or an additive one from a
 * reference, on a (b: no track; its mask 1, or 0: an idle slot); constant weights, or weights
 * of time that are NaN, ±0, ∞, negative and above 1 at some times. Anchors at every time of the
 * grid against the single-time path, every ISA, both tiers.
 */
/* user non-NULL: a NaN among them (t > −64 s here) */
static void edge_blend_weight(void *user, const double *t, size_t n, double *out)
{
    static const double W[8] = {0.5, -0.0, 1.5, 0.75, INFINITY, -0.5, 0.0, 1.0};
    for (size_t i = 0; i < n; ++i) {
        const size_t x = (size_t)((t[i] + 64.0) * 40.0) % 8;
        out[i] = user && x == 3 ? NAN : W[x];
    }
}
static void edge_layer_weight(void *user, const double *t, size_t n, double *out)
{
    (void)user;
    static const double W[9] = {0.5, INFINITY, 0.75, -0.0, 1.5, 0.0, -0.25, NAN, 1.0};
    for (size_t i = 0; i < n; ++i)
        out[i] = W[(size_t)((t[i] + 64.0) * 30.0) % 9];
}

START_TEST(rest_channels_kept_every_isa)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    enum { J = ABC };
    static const float turn_keys[8] = {0.1f, 0.1f, 0.1f, 0.98488578f,
                                       -0.1f, 0.05f, 0.1f, 0.98868614f};
    size_t checked = 0;
    /* −0 in b's translation (bits 0-2: x y z), b's scale (3), a's translation (4): none, each
       alone, some together (whether a −0 reaches the anchors depends on the products' other
       terms: not every lone one does), all */
    static const int PATTERNS[10] = {0, 1, 2, 3, 4, 7, 8, 16, 19, 31};
    for (int pi = 0; pi < 10; ++pi)
        for (int variant = 0, pattern = PATTERNS[pi]; variant < 192; ++variant) {
            /* weights: the blend's constant, of time, of time with NaN; the layer's constant
               or of time; the layer: none, additive, override, additive from a reference;
               b's mask 1 or 0 (an idle slot) */
            const int tier = variant & 1, ledge = variant >> 1 & 1, based = variant >> 2 & 1;
            const int bedge = variant / 8 % 3, layer = variant / 24 % 4, idle = variant / 96;
            static int nan_flag = 1;
            tendon_pose rest;
            ck_assert(tendon_pose_create(J, &rest) == TENDON_OK);
            for (int e = 0; e < 3; ++e) {
                rest.translation[e] = pattern & 16 ? -0.0f : 0.0f;
                rest.translation[3 + e] = pattern >> e & 1 ? -0.0f : 0.0f;
            }
            rest.translation[7] = -0.1f;
            if (pattern & 8)
                rest.scale[3 + 1] = -0.0f;
            tendon_skeleton *sk;
            const tendon_skeleton_desc sd = {J, ABC_PARENTS, ABC_NAMES, &rest};
            ck_assert(tendon_skeleton_create(&sd, &sk) == TENDON_OK);
            const float mask[J] = {1.0f, idle ? 0.0f : 1.0f, 1.0f};
            tendon_pose reference;
            ck_assert(tendon_pose_create(J, &reference) == TENDON_OK);
            tendon_pose_copy(&rest, &reference);
            reference.translation[3 + 1] = 0.25f, reference.scale[3 + 1] = 1.0f; /* not rest */
            reference.rotation[3] = 0.8f, reference.rotation[2] = 0.6f;
            const tendon_track_desc tb[2] = {
                {0, TENDON_PATH_ROTATION, TENDON_INTERP_LINEAR, 4, 2, KEY_TIMES, IDENTITY_KEYS},
                {1, TENDON_PATH_ROTATION, TENDON_INTERP_LINEAR, 4, 2, KEY_TIMES, IDENTITY_KEYS}};
            const tendon_track_desc tbase = {0, TENDON_PATH_ROTATION, TENDON_INTERP_STEP, 4, 2,
                                             KEY_TIMES, IDENTITY_KEYS};
            const tendon_track_desc tl = {0, TENDON_PATH_ROTATION, TENDON_INTERP_LINEAR, 4, 2,
                                          KEY_TIMES, turn_keys};
            const tendon_clip_desc cb = {J, 2, tb}, cbase = {J, 1, &tbase}, cl = {J, 1, &tl};
            tendon_clip *blend, *base, *lc;
            ck_assert(tendon_clip_create(&cb, &blend) == TENDON_OK);
            ck_assert(tendon_clip_create(&cbase, &base) == TENDON_OK);
            ck_assert(tendon_clip_create(&cl, &lc) == TENDON_OK);
            tendon_spring_rig_chain chain;
            tendon_spring_rig_desc d;
            abc_desc(sk, tier, &chain, &d);
            if (based)
                d.source.base = (tendon_rig_clip){base, 0.0, 1};
            d.source.blend = (tendon_rig_clip){blend, 0.1, 1};
            d.source.blend_weight =
                bedge ? (tendon_rig_weight){edge_blend_weight, bedge == 2 ? &nan_flag : NULL, 0}
                      : (tendon_rig_weight){NULL, NULL, 0.5};
            if (layer) {
                d.source.layer = (tendon_rig_clip){lc, 0.0, 1};
                d.source.layer_mode =
                    layer == 2 ? TENDON_RIG_LAYER_OVERRIDE : TENDON_RIG_LAYER_ADDITIVE;
                d.source.layer_reference = layer == 3 ? &reference : NULL;
                d.source.layer_weight = ledge ? (tendon_rig_weight){edge_layer_weight, NULL, 0}
                                              : (tendon_rig_weight){NULL, NULL, 0.5};
                d.source.layer_mask = mask;
            }
            checked += one_chain_anchors_match(k, &d, J, "pattern, variant", pattern, variant);
            tendon_pose_destroy(&rest), tendon_pose_destroy(&reference);
            tendon_clip_destroy(blend), tendon_clip_destroy(base), tendon_clip_destroy(lc);
            tendon_skeleton_destroy(sk);
        }
    ck_assert_uint_gt(checked, 10 * 192 * 3);
}
END_TEST

/*
 * A clip's morph-weight tracks (TENDON_PATH_WEIGHTS) name a target, not a joint: any id. The
 * rig's creation once marked channels at that id as if it were a joint — past the end of a
 * joint-sized array (the review's crash: id 0x40000000; ASan at id 5). Base, blend and layer
 * clips with such tracks: the rig is created and its anchors are the single-time path's.
 */
START_TEST(weights_tracks_name_no_joint)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    enum { J = ABC };
    static const float wv[2] = {0.0f, 1.0f};
    static const uint32_t IDS[3] = {5u, 0x40000000u, 0xffffffffu};
    tendon_skeleton *sk;
    const tendon_skeleton_desc sd = {J, ABC_PARENTS, ABC_NAMES, NULL};
    ck_assert(tendon_skeleton_create(&sd, &sk) == TENDON_OK);
    for (int id = 0; id < 3; ++id)
        for (int tier = 0; tier < 2; ++tier) {
            const tendon_track_desc tr[2] = {
                {0, TENDON_PATH_ROTATION, TENDON_INTERP_LINEAR, 4, 2, KEY_TIMES, IDENTITY_KEYS},
                {IDS[id], TENDON_PATH_WEIGHTS, TENDON_INTERP_LINEAR, 1, 2, KEY_TIMES, wv}};
            const tendon_clip_desc cd = {J, 2, tr};
            tendon_clip *c;
            ck_assert_msg(tendon_clip_create(&cd, &c) == TENDON_OK, "%s", tendon_error_message());
            tendon_spring_rig_chain chain;
            tendon_spring_rig_desc d;
            abc_desc(sk, tier, &chain, &d);
            d.source.base = (tendon_rig_clip){c, 0.0, 1};
            d.source.blend = (tendon_rig_clip){c, 0.25, 1};
            d.source.blend_weight = (tendon_rig_weight){NULL, NULL, 0.5};
            d.source.layer = (tendon_rig_clip){c, 0.5, 1};
            d.source.layer_mode = TENDON_RIG_LAYER_ADDITIVE;
            d.source.layer_weight = (tendon_rig_weight){NULL, NULL, 0.5};
            ck_assert_uint_gt(one_chain_anchors_match(k, &d, J, "id, tier", id, tier), 3);
            tendon_clip_destroy(c);
        }
    tendon_skeleton_destroy(sk);
}
END_TEST

/* Grids and batches: chains with equal plans share an evaluation; equal links share a march. */
START_TEST(grids_and_batches)
{
    scene sc;
    make_scene(&sc);
    static const char *const a[3] = {"coat_root", "coat1", "coat2"};
    static const char *const b[3] = {"tail_root", "tail1", "tail2"};
    static const char *const h[2] = {"hair2", "hair3"};
    tendon_spring_rig_chain chains[3] = {
        {"a", a, NULL, 3, {0, 0, 0}, COAT, 1, NULL},
        {"b", b, NULL, 3, {0, 0, 0}, COAT, 1, (const double[6]){0, -0.1, 0, 0, -0.1, 0}},
        {"h", h, NULL, 2, {0, 0, 0}, COAT, 1, NULL}};
    tendon_spring_rig_desc d = {0};
    d.skeleton = sc.ch.skeleton;
    d.chains = chains;
    d.chain_count = 2;
    d.source.base = (tendon_rig_clip){sc.ch.walk, 0, 1};
    tendon_spring_rig *rig = NULL;
    ck_assert_msg(tendon_spring_rig_create(&d, &rig) == TENDON_OK, "%s", tendon_error_message());
    ck_assert_uint_eq(tendon_spring_rig_grid_count(rig), 1); /* same links: one grid */
    /* evaluated at every time: the hips only (the anchors hang from it; the root, the coat's
       and the tail's roots are not animated: their matrices are constant) */
    ck_assert_uint_eq(tendon_spring_rig_grid_joints(rig, 0), 1);
    tendon_spring_link la[2], lb[2];
    ck_assert(tendon_spring_rig_chain_links(rig, 0, la, 2) == TENDON_OK);
    ck_assert(tendon_spring_rig_chain_links(rig, 1, lb, 2) == TENDON_OK);
    /* rest offsets from the rest pose: coat1 − coat_root = (0, −0.1, 0) */
    ck_assert(fabs(la[0].rest_offset_m[1] + 0.1) < 1e-7 && la[0].rest_offset_m[0] == 0.0);
    ck_assert(lb[0].rest_offset_m[1] == -0.1 && lb[1].rest_offset_m[2] == 0.0);
    tendon_spring_rig_destroy(rig);
    /* a 1-link chain has another lookback: its own grid */
    chains[1] = chains[2];
    ck_assert(tendon_spring_rig_create(&d, &rig) == TENDON_OK);
    ck_assert_uint_eq(tendon_spring_rig_grid_count(rig), 2);
    ck_assert_uint_eq(tendon_spring_rig_link_count(rig), 3);
    tendon_spring_rig_destroy(rig);
    free_scene(&sc);
}
END_TEST

/* ---- positions → rotations ------------------------------------------------------------------ */

/* A bare chain: base (rotated 90° about z, scaled 2 in x) → a → b → c along −y. */
/*
 * Each link joint of every chain lies on the ray from its parent joint toward its sprung
 * position (the pose step's promise: bone lengths kept, directions turned), within sin 2e-6,
 * in the model matrices recomputed from the posed `pose`.
 */
static void expect_links_on_rays(const tendon_spring_rig *rig, const tendon_skeleton *sk,
                                 const tendon_pose *pose, const float *positions,
                                 const char *what)
{
    float m[16 * JOINTS];
    ck_assert(tendon_pose_model_matrices(sk, pose, NULL, m) == TENDON_OK);
    for (size_t c = 0; c < tendon_spring_rig_chain_count(rig); ++c) {
        const size_t n = tendon_spring_rig_chain_link_count(rig, c);
        const float *pos = positions + 3 * tendon_spring_rig_chain_first_link(rig, c);
        for (size_t k = 1; k <= n; ++k) {
            const float *a = m + 16 * tendon_spring_rig_chain_joint(rig, c, k - 1) + 12;
            const float *b = m + 16 * tendon_spring_rig_chain_joint(rig, c, k) + 12;
            const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
            const double v[3] = {pos[3 * (k - 1)] - a[0], pos[3 * (k - 1) + 1] - a[1],
                                 pos[3 * (k - 1) + 2] - a[2]};
            const double cr[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2],
                                  u[0] * v[1] - u[1] * v[0]};
            const double nu = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
            const double nv = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
            const double sine = sqrt(cr[0] * cr[0] + cr[1] * cr[1] + cr[2] * cr[2]) / (nu * nv);
            ck_assert_msg(sine < 2e-6 && u[0] * v[0] + u[1] * v[1] + u[2] * v[2] > 0,
                          "%s: chain %zu link %zu: off the ray by sin %g", what, c, k, sine);
        }
    }
}

static void bare_chain(tendon_skeleton **sk, tendon_pose *rest)
{
    static const int32_t parents[5] = {-1, 0, 1, 2, 3};
    ck_assert(tendon_pose_create(5, rest) == TENDON_OK);
    static const float t[5][3] = {{1, 2, 3}, {0, 0.5f, 0}, {0, -1, 0}, {0, -1, 0}, {0, -1, 0}};
    for (int j = 0; j < 5; ++j)
        memcpy(rest->translation + 3 * j, t[j], sizeof t[j]);
    const tendon_skeleton_desc d = {5, parents, NULL, rest};
    ck_assert(tendon_skeleton_create(&d, sk) == TENDON_OK);
}

static void model_positions(const tendon_skeleton *sk, const tendon_pose *p, const float *root,
                            float out[5][3])
{
    float m[16 * 5];
    ck_assert(tendon_pose_model_matrices(sk, p, root, m) == TENDON_OK);
    for (int j = 0; j < 5; ++j)
        memcpy(out[j], m + 16 * j + 12, 3 * sizeof(float));
}

START_TEST(positions_to_rotations_by_hand)
{
    tendon_skeleton *sk;
    tendon_pose rest, pose;
    bare_chain(&sk, &rest);
    ck_assert(tendon_pose_create(5, &pose) == TENDON_OK);
    static const uint32_t J[4] = {1, 2, 3, 4};
    float at_rest[5][3], p[5][3];
    model_positions(sk, &rest, NULL, at_rest);

    /* straight: the sprung positions are the rest positions — every rotation stays the rest's */
    tendon_pose_copy(&rest, &pose);
    const float straight[9] = {at_rest[2][0], at_rest[2][1], at_rest[2][2], at_rest[3][0],
                               at_rest[3][1], at_rest[3][2], at_rest[4][0], at_rest[4][1],
                               at_rest[4][2]};
    ck_assert(tendon_spring_chain_pose(sk, J, 4, straight, NULL, &pose) == TENDON_OK);
    for (int j = 0; j < 5; ++j)
        ck_assert_msg(pose.rotation[4 * j + 3] == 1.0f && pose.rotation[4 * j] == 0.0f &&
                          pose.rotation[4 * j + 1] == 0.0f && pose.rotation[4 * j + 2] == 0.0f,
                      "joint %d", j);

    /* bent 90°: link 2 (joint 3) swung from −y to +x of joint 2, 1 m away (its bone length),
       link 3 1 m below it — joint 2 turns a quarter turn about +z, joint 3 a quarter turn back */
    tendon_pose_copy(&rest, &pose);
    const float bent[9] = {at_rest[2][0], at_rest[2][1], at_rest[2][2],
                           at_rest[2][0] + 1.0f, at_rest[2][1], at_rest[2][2],
                           at_rest[2][0] + 1.0f, at_rest[2][1] - 1.0f, at_rest[2][2]};
    ck_assert(tendon_spring_chain_pose(sk, J, 4, bent, NULL, &pose) == TENDON_OK);
    const float s45 = 0.70710677f;
    ck_assert(pose.rotation[4 * 1 + 3] == 1.0f); /* joint 1: already pointing at joint 2 */
    ck_assert_msg(fabsf(pose.rotation[4 * 2 + 2] - s45) < 1e-7f &&
                      fabsf(pose.rotation[4 * 2 + 3] - s45) < 1e-7f && pose.rotation[4 * 2] == 0.0f &&
                      pose.rotation[4 * 2 + 1] == 0.0f,
                  "joint 2: %g %g %g %g", pose.rotation[8], pose.rotation[9], pose.rotation[10],
                  pose.rotation[11]);
    ck_assert_msg(fabsf(pose.rotation[4 * 3 + 2] + s45) < 1e-7f &&
                      fabsf(pose.rotation[4 * 3 + 3] - s45) < 1e-7f,
                  "joint 3: %g %g", pose.rotation[14], pose.rotation[15]);
    ck_assert(pose.rotation[4 * 4 + 3] == 1.0f); /* the last keeps its rest rotation */
    model_positions(sk, &pose, NULL, p);
    for (int j = 2; j < 5; ++j)
        for (int c = 0; c < 3; ++c)
            ck_assert_msg(fabsf(p[j][c] - (j == 2 ? at_rest[2][c] : bent[3 * (j - 2) + c])) < 1e-6f,
                          "joint %d axis %d: %g", j, c, p[j][c]);
    for (int j = 0; j < 5; ++j) /* translations and scales untouched */
        ck_assert(memcmp(pose.translation + 3 * j, rest.translation + 3 * j, 12) == 0 &&
                  memcmp(pose.scale + 3 * j, rest.scale + 3 * j, 12) == 0);
    /* the target 3 m away: the same quarter turn, joint 3 at its own 1 m along the ray */
    tendon_pose_copy(&rest, &pose);
    const float far[9] = {at_rest[2][0], at_rest[2][1], at_rest[2][2],
                          at_rest[2][0] + 3.0f, at_rest[2][1], at_rest[2][2],
                          at_rest[2][0] + 3.0f, at_rest[2][1] - 1.0f, at_rest[2][2]};
    ck_assert(tendon_spring_chain_pose(sk, J, 4, far, NULL, &pose) == TENDON_OK);
    ck_assert(fabsf(pose.rotation[4 * 2 + 2] - s45) < 1e-7f);
    model_positions(sk, &pose, NULL, p);
    ck_assert(fabsf(p[3][0] - (at_rest[2][0] + 1.0f)) < 1e-6f && fabsf(p[3][1] - at_rest[2][1]) < 1e-6f);

    /* a link on its parent's position: no direction — the rest rotation, no NaN */
    tendon_pose_copy(&rest, &pose);
    const float onto[9] = {at_rest[2][0], at_rest[2][1], at_rest[2][2],
                           at_rest[2][0], at_rest[2][1], at_rest[2][2], /* on joint 2 */
                           at_rest[2][0], at_rest[2][1], at_rest[2][2]};
    ck_assert(tendon_spring_chain_pose(sk, J, 4, onto, NULL, &pose) == TENDON_OK);
    for (int j = 0; j < 20; ++j)
        ck_assert(!isnan(pose.rotation[j]));
    ck_assert(pose.rotation[4 * 2 + 3] == 1.0f && pose.rotation[4 * 2 + 2] == 0.0f);
    /* straight back up (opposite the rest direction): a half turn, a unit quaternion */
    tendon_pose_copy(&rest, &pose);
    const float back[9] = {at_rest[2][0], at_rest[2][1], at_rest[2][2],
                           at_rest[2][0], at_rest[2][1] + 1.0f, at_rest[2][2],
                           at_rest[2][0], at_rest[2][1] + 2.0f, at_rest[2][2]};
    ck_assert(tendon_spring_chain_pose(sk, J, 4, back, NULL, &pose) == TENDON_OK);
    ck_assert(fabsf(pose.rotation[4 * 2 + 3]) < 1e-7f);
    model_positions(sk, &pose, NULL, p);
    ck_assert(fabsf(p[3][1] - (at_rest[2][1] + 1.0f)) < 1e-6f);

    /* under a rotated, non-uniformly scaled parent and a root matrix: the same geometry */
    tendon_pose_copy(&rest, &pose);
    pose.rotation[2] = s45, pose.rotation[3] = s45; /* joint 0: 90° about z */
    pose.scale[0] = 2.0f;                          /* and 2× along its x */
    const float root[16] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 0, 0, 1};
    float r[5][3];
    model_positions(sk, &pose, root, r);
    const float world_bent[9] = {r[2][0], r[2][1], r[2][2], r[2][0], r[2][1] + 1.0f, r[2][2],
                                 r[2][0] + 1.0f, r[2][1] + 1.0f, r[2][2]};
    ck_assert(tendon_spring_chain_pose(sk, J, 4, world_bent, root, &pose) == TENDON_OK);
    model_positions(sk, &pose, root, p);
    /* joint 3 lands on the ray toward (+y in the world) from joint 2 */
    const double dx = p[3][0] - r[2][0], dy = p[3][1] - r[2][1], dz = p[3][2] - r[2][2];
    ck_assert_msg(fabs(dx) < 1e-5 && dy > 0.1 && fabs(dz) < 1e-5, "%g %g %g", dx, dy, dz);
    /* joint 4 on the ray from where joint 3 landed toward its target (the non-uniform scale
       above makes the bones' world lengths depend on their direction: 2 m along world y) */
    ck_assert_msg(fabs(dy - 2.0) < 1e-5, "joint 3 is %g m up", dy);
    const double ex = p[4][0] - p[3][0], ey = p[4][1] - p[3][1];
    const double tx = world_bent[6] - p[3][0], ty = world_bent[7] - p[3][1];
    ck_assert_msg(fabs(ex * ty - ey * tx) < 1e-5 && ex * tx + ey * ty > 0, "%g %g toward %g %g",
                  ex, ey, tx, ty);

    /* refusals */
    static const uint32_t gap[3] = {1, 3, 4};
    ck_assert_int_eq(tendon_spring_chain_pose(sk, gap, 3, straight, NULL, &pose), TENDON_ERR_VALUE);
    ck_assert(strstr(tendon_error_message(), "not a parent → child path"));
    ck_assert_int_eq(tendon_spring_chain_pose(sk, J, 1, straight, NULL, &pose), TENDON_ERR_VALUE);
    tendon_pose_destroy(&pose);
    tendon_pose_destroy(&rest);
    tendon_skeleton_destroy(sk);
}
END_TEST

/* The rig writes rotations where its chains are, and only there; the pose skins. */
START_TEST(rig_writes_the_chains_rotations)
{
    scene sc;
    make_scene(&sc);
    tendon_spring_rig_chain chains[3];
    tendon_spring_rig_desc d;
    make_desc(&sc, SRC_LAYERED, 0, 0, 0, NULL, chains, &d);
    tendon_spring_rig *rig = NULL;
    ck_assert(tendon_spring_rig_create(&d, &rig) == TENDON_OK);
    size_t bytes;
    ck_assert(tendon_spring_rig_workspace_size(rig, &bytes) == TENDON_OK);
    void *ws = malloc(bytes);
    tendon_pose pose, scratch, before;
    ck_assert(tendon_pose_create(JOINTS, &pose) == TENDON_OK);
    ck_assert(tendon_pose_create(JOINTS, &scratch) == TENDON_OK);
    ck_assert(tendon_pose_create(JOINTS, &before) == TENDON_OK);
    ck_assert(tendon_spring_rig_source_pose(rig, 0.9, &scratch, &pose) == TENDON_OK);
    tendon_pose_copy(&pose, &before);
    float positions[21];
    ck_assert(tendon_spring_rig_sample(rig, 0.9, ws, bytes, positions, 21, &pose) == TENDON_OK);
    int chain_joint[JOINTS] = {0};
    for (size_t c = 0; c < 3; ++c)
        for (size_t k = 0; k <= tendon_spring_rig_chain_link_count(rig, c); ++k)
            chain_joint[tendon_spring_rig_chain_joint(rig, c, k)] = 1;
    int moved = 0;
    for (int j = 0; j < JOINTS; ++j) {
        ck_assert(memcmp(pose.translation + 3 * j, before.translation + 3 * j, 12) == 0);
        ck_assert(memcmp(pose.scale + 3 * j, before.scale + 3 * j, 12) == 0);
        if (!chain_joint[j])
            ck_assert_msg(memcmp(pose.rotation + 4 * j, before.rotation + 4 * j, 16) == 0,
                          "joint %d (%s) is on no chain and changed", j, NAMES[j]);
        else
            moved |= memcmp(pose.rotation + 4 * j, before.rotation + 4 * j, 16) != 0;
        const float *q = pose.rotation + 4 * j;
        const double len = sqrt((double)q[0] * q[0] + (double)q[1] * q[1] + (double)q[2] * q[2] +
                                (double)q[3] * q[3]);
        ck_assert_msg(fabs(len - 1.0) < 1e-6, "joint %d: |q| = %.9g", j, len);
    }
    ck_assert(moved);
    /* each link joint lies on the ray from its parent joint toward its sprung position */
    expect_links_on_rays(rig, sc.ch.skeleton, &pose, positions, "the character's chains");
    free(ws);
    tendon_pose_destroy(&pose), tendon_pose_destroy(&scratch), tendon_pose_destroy(&before);
    tendon_spring_rig_destroy(rig);
    free_scene(&sc);
}
END_TEST

/*
 * A chain hung below another chain's anchor joint (the hair from the head, the arm's chain from
 * the chest above it): the pose step turns the chest, so the hair's frame is the turned one
 * whichever order the chains are given in. Listed hair first, the hair's rotations were written
 * from the chest before the arm's chain turned it, which left the hair's links off their rays
 * by up to sin 0.9 and made the pose depend on the chains' order.
 */
START_TEST(chain_below_another_anchor_joint)
{
    scene sc;
    make_scene(&sc);
    static const uint32_t arm[3] = {CHEST, ARM, FOREARM},
                          hair[5] = {HEAD, HAIR_ROOT, HAIR1, HAIR2, HAIR3};
    const tendon_spring_rig_chain a = {"arm", NULL, arm, 3, {0, 0, 0}, &HAIR, 1, NULL},
                                  h = {"hair", NULL, hair, 5, {0, 0, 0}, &HAIR, 1, NULL};
    tendon_pose pose[2], scratch;
    ck_assert(tendon_pose_create(JOINTS, &scratch) == TENDON_OK);
    float positions[2][18];
    for (int order = 0; order < 2; ++order) {
        const tendon_spring_rig_chain chains[2] = {order ? h : a, order ? a : h};
        tendon_spring_rig_desc d = {0};
        d.skeleton = sc.ch.skeleton;
        d.chains = chains;
        d.chain_count = 2;
        d.source.base = (tendon_rig_clip){sc.ch.walk, 0.1, 1};
        tendon_spring_rig *rig = NULL;
        ck_assert_msg(tendon_spring_rig_create(&d, &rig) == TENDON_OK, "%s",
                      tendon_error_message());
        size_t bytes;
        ck_assert(tendon_spring_rig_workspace_size(rig, &bytes) == TENDON_OK);
        void *ws = malloc(bytes);
        ck_assert(tendon_pose_create(JOINTS, &pose[order]) == TENDON_OK);
        ck_assert(tendon_spring_rig_source_pose(rig, 0.9, &scratch, &pose[order]) == TENDON_OK);
        ck_assert(tendon_spring_rig_sample(rig, 0.9, ws, bytes, positions[order], 18,
                                           &pose[order]) == TENDON_OK);
        /* each link joint on the ray from its parent joint toward its sprung position */
        expect_links_on_rays(rig, sc.ch.skeleton, &pose[order], positions[order],
                             order ? "listed lower chain last" : "listed lower chain first");
        free(ws);
        tendon_spring_rig_destroy(rig);
    }
    /* the same pose either way, bit for bit (the positions too: the chains swap places) */
    ck_assert(memcmp(pose[0].rotation, pose[1].rotation, 4 * JOINTS * sizeof(float)) == 0);
    ck_assert(memcmp(positions[0], positions[1] + 12, 6 * sizeof(float)) == 0);
    ck_assert(memcmp(positions[0] + 6, positions[1], 12 * sizeof(float)) == 0);
    tendon_pose_destroy(&pose[0]), tendon_pose_destroy(&pose[1]), tendon_pose_destroy(&scratch);
    free_scene(&sc);
}
END_TEST

/* ---- refusals ------------------------------------------------------------------------------- */

static tendon_status create_with(scene *sc, tendon_spring_rig_chain *chains, size_t count,
                                 tendon_spring_rig_source *src)
{
    tendon_spring_rig_desc d = {0};
    d.skeleton = sc->ch.skeleton;
    d.chains = chains;
    d.chain_count = count;
    if (src)
        d.source = *src;
    tendon_spring_rig *rig = NULL;
    const tendon_status st = tendon_spring_rig_create(&d, &rig);
    ck_assert(st == TENDON_OK ? rig != NULL : rig == NULL);
    tendon_spring_rig_destroy(rig);
    return st;
}

START_TEST(bad_chains_refused_by_name)
{
    scene sc;
    make_scene(&sc);
    const char *msg;
    /* not a parent → child path: a skipped joint */
    static const char *const skip[3] = {"hair_root", "hair2", "hair3"};
    tendon_spring_rig_chain c = {"braid", skip, NULL, 3, {0, 0, 0}, &HAIR, 1, NULL};
    ck_assert_int_eq(create_with(&sc, &c, 1, NULL), TENDON_ERR_VALUE);
    msg = tendon_error_message();
    ck_assert_msg(strstr(msg, "chain \"braid\" is not a parent → child path") &&
                      strstr(msg, "\"hair2\"") && strstr(msg, "\"hair_root\"") &&
                      strstr(msg, "its parent is \"hair1\""),
                  "%s", msg);
    /* siblings, not a path */
    static const uint32_t sib[2] = {COAT_ROOT, TAIL_ROOT};
    c = (tendon_spring_rig_chain){NULL, NULL, sib, 2, {0, 0, 0}, &HAIR, 1, NULL};
    ck_assert_int_eq(create_with(&sc, &c, 1, NULL), TENDON_ERR_VALUE);
    ck_assert_msg(strstr(tendon_error_message(), "chain 0 is not a parent → child path"), "%s",
                  tendon_error_message());
    /* a missing joint */
    static const char *const missing[3] = {"hair_root", "hair1", "ponytail"};
    c = (tendon_spring_rig_chain){"hair", missing, NULL, 3, {0, 0, 0}, &HAIR, 1, NULL};
    ck_assert_int_eq(create_with(&sc, &c, 1, NULL), TENDON_ERR_NOT_FOUND);
    ck_assert_msg(strstr(tendon_error_message(), "\"ponytail\" is not a joint of the skeleton"),
                  "%s", tendon_error_message());
    /* out of range */
    static const uint32_t far[2] = {COAT1, 99};
    c = (tendon_spring_rig_chain){"coat", NULL, far, 2, {0, 0, 0}, &HAIR, 1, NULL};
    ck_assert_int_eq(create_with(&sc, &c, 1, NULL), TENDON_ERR_RANGE);
    ck_assert(strstr(tendon_error_message(), "joints[1] is 99"));
    /* longer than the skeleton (no path passes a joint twice): refused before anything is sized
       by it — 2^62 + 1 joints once wrapped the allocations and wrote past them */
    c = (tendon_spring_rig_chain){"coat", NULL, COAT_CHAIN, ((size_t)1 << 62) + 1, {0, 0, 0},
                                  &HAIR, 1, NULL};
    ck_assert_int_eq(create_with(&sc, &c, 1, NULL), TENDON_ERR_VALUE);
    ck_assert_msg(strstr(tendon_error_message(), "chain \"coat\" has 4611686018427387905 joints "
                                                 "and the skeleton 17"),
                  "%s", tendon_error_message());
    c.joint_count = JOINTS + 1;
    ck_assert_int_eq(create_with(&sc, &c, 1, NULL), TENDON_ERR_VALUE);
    /* too short, a wrong settings count, NULLs */
    c = (tendon_spring_rig_chain){"one", NULL, far, 1, {0, 0, 0}, &HAIR, 1, NULL};
    ck_assert_int_eq(create_with(&sc, &c, 1, NULL), TENDON_ERR_VALUE);
    ck_assert(strstr(tendon_error_message(), "chain \"one\" has 1 joints"));
    c = (tendon_spring_rig_chain){"coat", NULL, COAT_CHAIN, 3, {0, 0, 0}, COAT, 3, NULL};
    ck_assert_int_eq(create_with(&sc, &c, 1, NULL), TENDON_ERR_VALUE);
    ck_assert(strstr(tendon_error_message(), "settings_count is 3"));
    c = (tendon_spring_rig_chain){"coat", NULL, NULL, 3, {0, 0, 0}, COAT, 1, NULL};
    ck_assert_int_eq(create_with(&sc, &c, 1, NULL), TENDON_ERR_NULL);
    /* a chain's arrays not aligned to their types: refused by name (they were read misaligned,
       undefined behaviour, with TENDON_OK) */
    {
        _Alignas(16) unsigned char raw[64];
        memcpy(raw + 2, COAT_CHAIN, 3 * sizeof(uint32_t));
        c = (tendon_spring_rig_chain){"coat", NULL, (const uint32_t *)(const void *)(raw + 2), 3,
                                      {0, 0, 0}, COAT, 1, NULL};
        ck_assert_int_eq(create_with(&sc, &c, 1, NULL), TENDON_ERR_VALUE);
        msg = tendon_error_message();
        ck_assert_msg(strstr(msg, "chain \"coat\": joints at ") && strstr(msg, "not aligned"),
                      "%s", msg);
        static const double offsets[6] = {0, -0.1, 0, 0, -0.1, 0};
        _Alignas(16) unsigned char rawd[sizeof offsets + 8];
        memcpy(rawd + 4, offsets, sizeof offsets);
        c = (tendon_spring_rig_chain){"coat", NULL, COAT_CHAIN, 3, {0, 0, 0}, COAT, 1,
                                      (const double *)(const void *)(rawd + 4)};
        ck_assert_int_eq(create_with(&sc, &c, 1, NULL), TENDON_ERR_VALUE);
        msg = tendon_error_message();
        ck_assert_msg(strstr(msg, "chain \"coat\": rest_offsets_m at "), "%s", msg);
        _Alignas(16) unsigned char raws[sizeof(tendon_spring_settings) + 8];
        memcpy(raws + 4, COAT, sizeof(tendon_spring_settings));
        c = (tendon_spring_rig_chain){"coat", NULL, COAT_CHAIN, 3, {0, 0, 0},
                                      (const tendon_spring_settings *)(const void *)(raws + 4), 1,
                                      NULL};
        ck_assert_int_eq(create_with(&sc, &c, 1, NULL), TENDON_ERR_VALUE);
        ck_assert_msg(strstr(tendon_error_message(), "chain \"coat\": settings at "), "%s",
                      tendon_error_message());
        /* aligned, the same values: created */
        c = (tendon_spring_rig_chain){"coat", NULL, COAT_CHAIN, 3, {0, 0, 0}, COAT, 1, offsets};
        ck_assert_msg(create_with(&sc, &c, 1, NULL) == TENDON_OK, "%s", tendon_error_message());
    }
    /* a spring the spring rules refuse, named with its chain */
    const tendon_spring_settings undamped = {2.0, 0.0, -1};
    c = (tendon_spring_rig_chain){"coat", NULL, COAT_CHAIN, 3, {0, 0, 0}, &undamped, 1, NULL};
    ck_assert_int_eq(create_with(&sc, &c, 1, NULL), TENDON_ERR_VALUE);
    ck_assert_msg(strstr(tendon_error_message(), "damping is 0") &&
                      strstr(tendon_error_message(), "chain \"coat\""),
                  "%s", tendon_error_message());
    /* a joint driven by two chains; an anchor below another chain's link */
    static const uint32_t h1[2] = {HAIR_ROOT, HAIR1}, h2[3] = {HAIR1, HAIR2, HAIR3},
                          h0[2] = {HEAD, HAIR_ROOT};
    tendon_spring_rig_chain two[2] = {{"a", NULL, h1, 2, {0, 0, 0}, &HAIR, 1, NULL},
                                      {"b", NULL, h1, 2, {0, 0, 0}, &HAIR, 1, NULL}};
    ck_assert_int_eq(create_with(&sc, two, 2, NULL), TENDON_ERR_VALUE);
    ck_assert_msg(strstr(tendon_error_message(), "chain \"a\" and chain \"b\" both drive \"hair1\""),
                  "%s", tendon_error_message());
    two[1].joints = h2;
    two[1].joint_count = 3;
    ck_assert_int_eq(create_with(&sc, two, 2, NULL), TENDON_ERR_VALUE);
    ck_assert_msg(strstr(tendon_error_message(), "chain \"b\" hangs from \"hair1\"") &&
                      strstr(tendon_error_message(), "which is a link of a chain"),
                  "%s", tendon_error_message());
    two[0].joints = h0;
    ck_assert_int_eq(create_with(&sc, two, 2, NULL), TENDON_ERR_VALUE);
    ck_assert_msg(strstr(tendon_error_message(), "which hangs below \"hair_root\""), "%s",
                  tendon_error_message());
    /* two chains from one anchor joint: the pose step turns an anchor joint toward its first
       link, so the second chain from the chest rewrote the chest's rotation and left the
       first chain's links off their rays (by sin 0.23) — created */
    static const uint32_t arm[3] = {CHEST, ARM, FOREARM}, neck[2] = {CHEST, HEAD};
    tendon_spring_rig_chain shared[2] = {{"arm", NULL, arm, 3, {0, 0, 0}, &HAIR, 1, NULL},
                                         {"neck", NULL, neck, 2, {0, 0, 0}, &HAIR, 1, NULL}};
    ck_assert_int_eq(create_with(&sc, shared, 2, NULL), TENDON_ERR_VALUE);
    ck_assert_msg(strstr(tendon_error_message(), "chain \"arm\" and chain \"neck\" both hang "
                                                 "from \"chest\" (joint 3)"),
                  "%s", tendon_error_message());
    /* sources: an unknown kind (a state machine is not one), a clip of another joint count */
    c = (tendon_spring_rig_chain){"coat", NULL, COAT_CHAIN, 3, {0, 0, 0}, COAT, 1, NULL};
    tendon_spring_rig_source src = {0};
    src.kind = (tendon_rig_source_kind)2;
    ck_assert_int_eq(create_with(&sc, &c, 1, &src), TENDON_ERR_VALUE);
    ck_assert(strstr(tendon_error_message(), "a state machine is not a source"));
    src.kind = TENDON_RIG_SOURCE_TREE;
    ck_assert_int_eq(create_with(&sc, &c, 1, &src), TENDON_ERR_NULL);
    tendon_clip *small;
    const tendon_clip_desc cd = {3, 0, NULL};
    ck_assert(tendon_clip_create(&cd, &small) == TENDON_OK);
    src = (tendon_spring_rig_source){0};
    src.layer.clip = small;
    ck_assert_int_eq(create_with(&sc, &c, 1, &src), TENDON_ERR_COUNT);
    ck_assert(strstr(tendon_error_message(), "source.layer.clip has 3 joints"));
    src.layer.clip = sc.ch.full;
    src.layer_mode = TENDON_RIG_LAYER_OVERRIDE;
    src.layer_reference = &sc.ch.rest;
    ck_assert_int_eq(create_with(&sc, &c, 1, &src), TENDON_ERR_VALUE);
    tendon_clip_destroy(small);
    free_scene(&sc);
}
END_TEST

/* The layered source's rig on `tier`, placed by the test's root transform (failing after 0.4 s
   while *fail is set). */
static tendon_spring_rig *layered_rig(scene *sc, int tier, int *fail)
{
    tendon_spring_rig_chain chains[3];
    tendon_spring_rig_desc d;
    make_desc(sc, SRC_LAYERED, tier, 0, 1, fail, chains, &d);
    tendon_spring_rig *rig = NULL; /* the rig keeps copies of d and its chains */
    ck_assert(tendon_spring_rig_create(&d, &rig) == TENDON_OK);
    return rig;
}

START_TEST(failing_root_and_stale_workspace)
{
    scene sc;
    make_scene(&sc);
    int fail = 0;
    tendon_spring_rig *rig = layered_rig(&sc, 1, &fail);
    size_t bytes;
    ck_assert(tendon_spring_rig_workspace_size(rig, &bytes) == TENDON_OK);
    void *ws = calloc(1, bytes);
    tendon_pose pose, copy;
    ck_assert(tendon_pose_create(JOINTS, &pose) == TENDON_OK);
    ck_assert(tendon_pose_create(JOINTS, &copy) == TENDON_OK);
    float positions[21], snapshot[21];
    for (int i = 0; i < 21; ++i)
        positions[i] = snapshot[i] = -3.5f;
    /* a march before any evaluation */
    ck_assert_int_eq(tendon_spring_rig_march(rig, 0.2, ws, bytes, positions, 21, &pose),
                     TENDON_ERR_VALUE);
    ck_assert(strstr(tendon_error_message(), "call tendon_spring_rig_evaluate"));
    /* the anchors of a workspace never evaluated: refused, quoting no time (the workspace holds
       none: it once quoted whatever its time field held) */
    float anchors[3 * 512];
    ck_assert_int_eq(tendon_spring_rig_evaluated_anchors(rig, ws, bytes, 0, anchors, 3 * 512,
                                                         NULL, 0),
                     TENDON_ERR_VALUE);
    ck_assert_msg(strstr(tendon_error_message(), "holds no evaluation of this rig: call "
                                                 "tendon_spring_rig_evaluate") &&
                      !strstr(tendon_error_message(), "time_sec"),
                  "%s", tendon_error_message());
    ck_assert(tendon_spring_rig_sample(rig, 0.2, ws, bytes, positions, 21, &pose) == TENDON_OK);
    ck_assert_int_eq(tendon_spring_rig_evaluated_anchors(rig, ws, bytes, 0, anchors, 3 * 512,
                                                         NULL, 0),
                     TENDON_OK);
    /* another time than the evaluation's */
    ck_assert_int_eq(tendon_spring_rig_march(rig, 0.25, ws, bytes, positions, 21, &pose),
                     TENDON_ERR_VALUE);
    /* the root transform fails: its status, nothing written, the evaluation dropped */
    fail = 1;
    memcpy(snapshot, positions, sizeof snapshot);
    tendon_pose_copy(&pose, &copy);
    ck_assert_int_eq(tendon_spring_rig_sample(rig, 1.0, ws, bytes, positions, 21, &pose),
                     TENDON_ERR_NOT_FOUND);
    ck_assert_msg(strstr(tendon_error_message(), "the root transform returned TENDON_ERR_NOT_FOUND") &&
                      strstr(tendon_error_message(), "no placement after 0.4 s"),
                  "%s", tendon_error_message());
    ck_assert(memcmp(snapshot, positions, sizeof snapshot) == 0);
    ck_assert(memcmp(pose.rotation, copy.rotation, 4 * JOINTS * sizeof(float)) == 0);
    ck_assert_int_eq(tendon_spring_rig_march(rig, 0.2, ws, bytes, positions, 21, &pose),
                     TENDON_ERR_VALUE);
    /* arguments */
    ck_assert_int_eq(tendon_spring_rig_evaluate(rig, NAN, ws, bytes), TENDON_ERR_VALUE);
    ck_assert_int_eq(tendon_spring_rig_evaluate(rig, INFINITY, ws, bytes), TENDON_ERR_VALUE);
    ck_assert_int_eq(tendon_spring_rig_evaluate(rig, 0.0, ws, bytes - 1), TENDON_ERR_COUNT);
    ck_assert_int_eq(tendon_spring_rig_evaluate(rig, 0.0, NULL, bytes), TENDON_ERR_NULL);
    fail = 0;
    ck_assert(tendon_spring_rig_evaluate(rig, 0.0, ws, bytes) == TENDON_OK);
    ck_assert_int_eq(tendon_spring_rig_march(rig, 0.0, ws, bytes, NULL, 0, NULL), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_spring_rig_march(rig, 0.0, ws, bytes, positions, 20, NULL),
                     TENDON_ERR_COUNT);
    ck_assert_int_eq(tendon_spring_rig_march(rig, 0.0, ws, bytes, (float *)ws, 21, NULL),
                     TENDON_ERR_ALIAS);
    /* the evaluated anchors into a misaligned out, or into the workspace itself: refused (a
       misaligned store, and a copy over what it reads) */
    {
        const size_t nt = tendon_spring_rig_chain_times(rig, 0);
        float *a = malloc((3 * nt + 1) * sizeof(float));
        ck_assert_ptr_nonnull(a);
        ck_assert(tendon_spring_rig_evaluated_anchors(rig, ws, bytes, 0, a, 3 * nt, NULL, 0) ==
                  TENDON_OK);
        float *odd = (float *)(void *)((unsigned char *)a + 2);
        ck_assert_int_eq(tendon_spring_rig_evaluated_anchors(rig, ws, bytes, 0, odd, 3 * nt, NULL, 0),
                         TENDON_ERR_VALUE);
        ck_assert_msg(strstr(tendon_error_message(), "out at ") &&
                          strstr(tendon_error_message(), "not aligned"),
                      "%s", tendon_error_message());
        ck_assert_int_eq(tendon_spring_rig_evaluated_anchors(rig, ws, bytes, 0, (float *)ws, 3 * nt,
                                                             NULL, 0),
                         TENDON_ERR_ALIAS);
        ck_assert_msg(strstr(tendon_error_message(), "out overlaps the workspace"), "%s",
                      tendon_error_message());
        double *t = (double *)ws;
        ck_assert_int_eq(tendon_spring_rig_evaluated_anchors(rig, ws, bytes, 0, a, 3 * nt, t, nt),
                         TENDON_ERR_ALIAS);
        free(a);
    }
    free(ws);
    tendon_pose_destroy(&pose), tendon_pose_destroy(&copy);
    tendon_spring_rig_destroy(rig);
    free_scene(&sc);
}
END_TEST

/*
 * A workspace outliving its rig. Its header names the rig by address and by a serial: a rig
 * created where a destroyed one was (glibc's allocator hands the same block back) once passed
 * for it, and its march took the old rig's evaluation. Pairs of sources with the same grids,
 * both tiers: the new rig marches nothing before its own evaluation, and its anchors in the old
 * workspace equal those in a fresh one, bit for bit.
 */
START_TEST(workspace_outlives_its_rig)
{
    scene sc;
    make_scene(&sc);
    static const int pairs[][2] = {{SRC_LAYERED, SRC_OVERRIDE}, {SRC_OVERRIDE, SRC_LAYERED},
                                   {SRC_REF_MASKED, SRC_OVERRIDE}, {SRC_OVERRIDE, SRC_REF_MASKED}};
    size_t reused = 0, cases = 0;
    for (int tier = 0; tier < 2; ++tier)
        for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; ++p) {
            tendon_spring_rig_chain chains[3];
            tendon_spring_rig_desc d;
            /* the workspace sized for both (a rig's layout only reads its own size); B's size
               from a rig made first, so that A is the last block freed before B is made */
            size_t bytes_a, bytes_b;
            make_desc(&sc, pairs[p][1], tier, 0, 0, NULL, chains, &d);
            tendon_spring_rig *probe = NULL;
            ck_assert(tendon_spring_rig_create(&d, &probe) == TENDON_OK);
            ck_assert(tendon_spring_rig_workspace_size(probe, &bytes_b) == TENDON_OK);
            tendon_spring_rig_destroy(probe);
            make_desc(&sc, pairs[p][0], tier, 0, 0, NULL, chains, &d);
            tendon_spring_rig *a = NULL, *b = NULL;
            ck_assert(tendon_spring_rig_create(&d, &a) == TENDON_OK);
            ck_assert(tendon_spring_rig_workspace_size(a, &bytes_a) == TENDON_OK);
            const double t = 0.731;
            make_desc(&sc, pairs[p][1], tier, 0, 0, NULL, chains, &d);
            const size_t bytes = bytes_a > bytes_b ? bytes_a : bytes_b;
            void *ws = calloc(1, bytes), *fresh = calloc(1, bytes);
            ck_assert(ws && fresh);
            ck_assert(tendon_spring_rig_evaluate(a, t, ws, bytes) == TENDON_OK);
            const void *was = a;
            tendon_spring_rig_destroy(a);
            ck_assert(tendon_spring_rig_create(&d, &b) == TENDON_OK);
            reused += (const void *)b == was;
            ++cases;
            float pos[21];
            ck_assert_int_eq(tendon_spring_rig_march(b, t, ws, bytes, pos, 21, NULL),
                             TENDON_ERR_VALUE);
            ck_assert(strstr(tendon_error_message(), "call tendon_spring_rig_evaluate"));
            ck_assert(tendon_spring_rig_evaluate(b, t, ws, bytes) == TENDON_OK);
            ck_assert(tendon_spring_rig_evaluate(b, t, fresh, bytes) == TENDON_OK);
            for (size_t c = 0; c < 3; ++c) {
                float x[3 * 400], y[3 * 400];
                ck_assert(tendon_spring_rig_evaluated_anchors(b, ws, bytes, c, x, 3 * 400, NULL,
                                                              0) == TENDON_OK);
                ck_assert(tendon_spring_rig_evaluated_anchors(b, fresh, bytes, c, y, 3 * 400,
                                                              NULL, 0) == TENDON_OK);
                const size_t nt = tendon_spring_rig_grid_times(b, c);
                const long diff = first_float_diff(x, y, 3 * nt);
                ck_assert_msg(diff < 0, "tier %d sources %d → %d chain %zu: anchor float %ld %a "
                              "in the old workspace, %a in a fresh one",
                              tier, pairs[p][0], pairs[p][1], c, diff, (double)x[diff],
                              (double)y[diff]);
            }
            free(ws), free(fresh);
            tendon_spring_rig_destroy(b);
        }
    /* the pairs above test the same-address case only where the allocator reused the block:
       glibc's calloc does once its thread cache is off, which tests/CMakeLists.txt asks for
       (GLIBC_TUNABLES), and there sets TENDON_TEST_EXPECT_REUSE: then one must have */
    printf("workspace_outlives_its_rig: %zu of %zu new rigs at the old one's address\n", reused,
           cases);
    if (getenv("TENDON_TEST_EXPECT_REUSE"))
        ck_assert_msg(reused > 0, "no new rig was made at the old one's address: the case the "
                                  "serial guards went untested");
    free_scene(&sc);
}
END_TEST

/*
 * One buffer handed out at different offsets from frame to frame (an arena; any alignment is
 * allowed): a workspace at one offset overwrites another's contents but not its header. Every
 * evaluation must still equal one in a fresh workspace, bit for bit — nothing the evaluation
 * reads may be left from an earlier one. (For a day the blend and layer poses kept their rest
 * values from a workspace's first evaluation; a shifted workspace overwrote them unseen.)
 */
START_TEST(workspace_moved_within_a_buffer)
{
    scene sc;
    make_scene(&sc);
    static const int kinds[] = {SRC_LAYERED, SRC_OVERRIDE, SRC_REF_MASKED, SRC_CLIP};
    static const size_t shifts[] = {0, 8, 64, 0, 200, 24, 0};
    for (int tier = 0; tier < 2; ++tier)
        for (size_t kk = 0; kk < sizeof kinds / sizeof kinds[0]; ++kk) {
            tendon_spring_rig_chain chains[3];
            tendon_spring_rig_desc d;
            make_desc(&sc, kinds[kk], tier, 0, 0, NULL, chains, &d);
            tendon_spring_rig *rig = NULL;
            ck_assert(tendon_spring_rig_create(&d, &rig) == TENDON_OK);
            size_t bytes;
            ck_assert(tendon_spring_rig_workspace_size(rig, &bytes) == TENDON_OK);
            unsigned char *buf = calloc(1, bytes + 256), *fresh = malloc(bytes);
            ck_assert(buf && fresh);
            for (size_t f = 0; f < sizeof shifts / sizeof shifts[0]; ++f) {
                const double t = 0.3 + 0.05 * (double)f;
                void *ws = buf + shifts[f];
                ck_assert(tendon_spring_rig_evaluate(rig, t, ws, bytes) == TENDON_OK);
                memset(fresh, 0, bytes);
                ck_assert(tendon_spring_rig_evaluate(rig, t, fresh, bytes) == TENDON_OK);
                for (size_t c = 0; c < 3; ++c) {
                    float x[3 * 400], y[3 * 400];
                    ck_assert(tendon_spring_rig_evaluated_anchors(rig, ws, bytes, c, x, 3 * 400,
                                                                  NULL, 0) == TENDON_OK);
                    ck_assert(tendon_spring_rig_evaluated_anchors(rig, fresh, bytes, c, y,
                                                                  3 * 400, NULL, 0) == TENDON_OK);
                    const size_t nt = tendon_spring_rig_grid_times(rig, c);
                    const long diff = first_float_diff(x, y, 3 * nt);
                    ck_assert_msg(diff < 0, "tier %d source %d frame %zu (offset %zu) chain %zu: "
                                  "anchor float %ld %a, in a fresh workspace %a",
                                  tier, kinds[kk], f, shifts[f], c, diff, (double)x[diff],
                                  (double)y[diff]);
                }
            }
            free(buf), free(fresh);
            tendon_spring_rig_destroy(rig);
        }
    free_scene(&sc);
}
END_TEST

/*
 * An evaluation overwritten in place by another workspace's, overlapping it, before the march
 * (a caller's error the march cannot always see: it checks the header and the substep times,
 * not every anchor): refused, where the times show it, with a message that says what happened
 * (it said "internal" before); never a crash. Shifts in floats, both directions.
 */
START_TEST(evaluation_overwritten_before_the_march)
{
    scene sc;
    make_scene(&sc);
    tendon_spring_rig_chain chains[3];
    tendon_spring_rig_desc d;
    make_desc(&sc, SRC_LAYERED, 0, 0, 0, NULL, chains, &d);
    tendon_spring_rig *rig = NULL;
    ck_assert(tendon_spring_rig_create(&d, &rig) == TENDON_OK);
    size_t bytes;
    ck_assert(tendon_spring_rig_workspace_size(rig, &bytes) == TENDON_OK);
    const size_t links = tendon_spring_rig_link_count(rig), span = 4096;
    unsigned char *buf = calloc(1, bytes + 2 * span);
    float *out = malloc(3 * links * sizeof(float));
    ck_assert(buf && out);
    int refused = 0;
    for (size_t sh = 4; sh < span; sh += 20) {
        for (int dir = 0; dir < 2; ++dir) {
            unsigned char *a = buf + span, *b = dir ? a + sh : a - sh; /* sh < span */
            memset(buf, 0, bytes + 2 * span);
            ck_assert(tendon_spring_rig_evaluate(rig, 0.5, a, bytes) == TENDON_OK);
            ck_assert(tendon_spring_rig_evaluate(rig, 0.5, b, bytes) == TENDON_OK);
            const tendon_status st =
                tendon_spring_rig_march(rig, 0.5, a, bytes, out, 3 * links, NULL);
            if (st == TENDON_OK)
                continue;
            ck_assert_int_eq(st, TENDON_ERR_VALUE);
            const char *m = tendon_error_message();
            ck_assert_msg(strstr(m, "no evaluation of this rig") ||
                              strstr(m, "evaluation was overwritten since it was made"),
                          "%s", m);
            refused += strstr(m, "overwritten") != NULL;
        }
    }
    ck_assert_int_gt(refused, 0);
    free(buf), free(out);
    tendon_spring_rig_destroy(rig);
    free_scene(&sc);
}
END_TEST

/*
 * The single-time calls name themselves and their own arguments in their refusals (the anchor
 * once reported its scratch poses as tendon_spring_rig_source_pose's `pose` and `scratch`); a
 * scratch pose sharing memory with the pose it helps is refused; a failing root transform's
 * status comes back with the time, as from the batched evaluation.
 */
START_TEST(single_time_calls_refuse_by_their_names)
{
    scene sc;
    make_scene(&sc);
    int fail = 0;
    tendon_spring_rig *rig = layered_rig(&sc, 0, &fail);
    tendon_pose pose, scratch;
    ck_assert(tendon_pose_create(JOINTS, &pose) == TENDON_OK);
    ck_assert(tendon_pose_create(JOINTS, &scratch) == TENDON_OK);
    float model[16 * JOINTS], out[3] = {7, 7, 7};
    const char *msg;
    ck_assert_int_eq(tendon_spring_rig_anchor(rig, 0, 0.3, NULL, &scratch, model, out),
                     TENDON_ERR_NULL);
    msg = tendon_error_message();
    ck_assert_msg(strstr(msg, "tendon_spring_rig_anchor: argument `scratch_pose` is NULL"), "%s",
                  msg);
    ck_assert_int_eq(tendon_spring_rig_anchor(rig, 0, 0.3, &pose, NULL, model, out),
                     TENDON_ERR_NULL);
    msg = tendon_error_message();
    ck_assert_msg(strstr(msg, "tendon_spring_rig_anchor: scratch_pose2 is NULL"), "%s", msg);
    ck_assert_int_eq(tendon_spring_rig_anchor(rig, 0, NAN, &pose, &scratch, model, out),
                     TENDON_ERR_VALUE);
    msg = tendon_error_message();
    ck_assert_msg(strstr(msg, "tendon_spring_rig_anchor: time_sec is nan"), "%s", msg);
    /* the same pose twice: the second clip would be sampled over the first */
    ck_assert_int_eq(tendon_spring_rig_anchor(rig, 0, 0.3, &pose, &pose, model, out),
                     TENDON_ERR_ALIAS);
    msg = tendon_error_message();
    ck_assert_msg(strstr(msg, "tendon_spring_rig_anchor: scratch_pose2.translation overlaps "
                              "scratch_pose.translation; the two poses must not share memory"),
                  "%s", msg);
    ck_assert_int_eq(tendon_spring_rig_source_pose(rig, 0.3, &pose, &pose), TENDON_ERR_ALIAS);
    msg = tendon_error_message();
    ck_assert_msg(strstr(msg, "tendon_spring_rig_source_pose: scratch.translation overlaps "
                              "pose.translation"),
                  "%s", msg);
    /* a scratch overlapping only the pose's scale */
    tendon_pose part = scratch;
    part.translation = pose.scale;
    ck_assert_int_eq(tendon_spring_rig_source_pose(rig, 0.3, &part, &pose), TENDON_ERR_ALIAS);
    ck_assert_msg(strstr(tendon_error_message(), "scratch.translation overlaps pose.scale"), "%s",
                  tendon_error_message());
    ck_assert(out[0] == 7 && out[1] == 7 && out[2] == 7);
    /* the root transform fails after 0.4 s: its status, and the time with its message */
    fail = 1;
    ck_assert_int_eq(tendon_spring_rig_anchor(rig, 0, 0.5, &pose, &scratch, model, out),
                     TENDON_ERR_NOT_FOUND);
    msg = tendon_error_message();
    ck_assert_msg(strstr(msg, "tendon_spring_rig_anchor: the root transform returned "
                              "TENDON_ERR_NOT_FOUND at time_sec 0.5") &&
                      strstr(msg, "no placement after 0.4 s"),
                  "%s", msg);
    ck_assert(out[0] == 7 && out[1] == 7 && out[2] == 7);
    fail = 0;
    ck_assert(tendon_spring_rig_anchor(rig, 0, 0.5, &pose, &scratch, model, out) == TENDON_OK);
    tendon_pose_destroy(&pose), tendon_pose_destroy(&scratch);
    tendon_spring_rig_destroy(rig);
    free_scene(&sc);
}
END_TEST

/*
 * A looped clip at a time whose sum with the clip's offset overflows (both finite): its clip
 * time x − ⌊x/d⌋·d is NaN. The evaluation sampled it as key 0 with TENDON_OK, while the
 * single-time calls refused it as "time_sec is NaN"; now every call refuses it by name, and a
 * time whose sum is finite still samples.
 */
START_TEST(looped_clip_time_overflow_refused)
{
    scene sc;
    make_scene(&sc);
    tendon_spring_rig_chain chains[3];
    tendon_spring_rig_desc d;
    make_desc(&sc, SRC_LAYERED, 0, 0, 0, NULL, chains, &d);
    d.source.blend.offset_sec = 1e308; /* looped */
    tendon_spring_rig *rig = NULL;
    ck_assert(tendon_spring_rig_create(&d, &rig) == TENDON_OK);
    size_t bytes;
    ck_assert(tendon_spring_rig_workspace_size(rig, &bytes) == TENDON_OK);
    void *ws = calloc(1, bytes);
    tendon_pose pose, scratch;
    ck_assert(tendon_pose_create(JOINTS, &pose) == TENDON_OK);
    ck_assert(tendon_pose_create(JOINTS, &scratch) == TENDON_OK);
    float model[16 * JOINTS], out[3] = {7, 7, 7};
    const char *msg;
    ck_assert_int_eq(tendon_spring_rig_evaluate(rig, 1e308, ws, bytes), TENDON_ERR_VALUE);
    msg = tendon_error_message();
    ck_assert_msg(strstr(msg, "tendon_spring_rig_evaluate: time ") &&
                      strstr(msg, "the blend clip's offset_sec 1e+308 is inf"),
                  "%s", msg);
    ck_assert_int_eq(tendon_spring_rig_source_pose(rig, 1e308, &scratch, &pose), TENDON_ERR_VALUE);
    ck_assert_msg(strstr(tendon_error_message(), "tendon_spring_rig_source_pose: time 1e+308 + "
                                                 "the blend clip's offset_sec"),
                  "%s", tendon_error_message());
    ck_assert_int_eq(tendon_spring_rig_anchor(rig, 0, 1e308, &pose, &scratch, model, out),
                     TENDON_ERR_VALUE);
    ck_assert_msg(strstr(tendon_error_message(), "tendon_spring_rig_anchor: time 1e+308"), "%s",
                  tendon_error_message());
    ck_assert(out[0] == 7 && out[1] == 7 && out[2] == 7);
    /* −1e308: the sum is 0, finite; the evaluation and the single-time call agree */
    ck_assert(tendon_spring_rig_evaluate(rig, -1e308, ws, bytes) == TENDON_OK);
    ck_assert(tendon_spring_rig_anchor(rig, 0, -1e308, &pose, &scratch, model, out) == TENDON_OK);
    const size_t nt = tendon_spring_rig_chain_times(rig, 0);
    float *a = malloc(3 * nt * sizeof(float));
    ck_assert(tendon_spring_rig_evaluated_anchors(rig, ws, bytes, 0, a, 3 * nt, NULL, 0) ==
              TENDON_OK);
    ck_assert(memcmp(a + 3 * (nt - 1), out, sizeof out) == 0);
    free(a);
    free(ws);
    tendon_pose_destroy(&pose), tendon_pose_destroy(&scratch);
    tendon_spring_rig_destroy(rig);
    free_scene(&sc);
}
END_TEST

/* tendon_spring_chain_pose refuses what it cannot read or would read while writing it. */
START_TEST(chain_pose_refusals)
{
    tendon_skeleton *sk;
    tendon_pose rest, pose;
    bare_chain(&sk, &rest);
    ck_assert(tendon_pose_create(5, &pose) == TENDON_OK);
    tendon_pose_copy(&rest, &pose);
    static const uint32_t J[4] = {1, 2, 3, 4};
    _Alignas(16) unsigned char buf[4 * 20];
    memset(buf, 0, sizeof buf);
    const float *odd = (const float *)(const void *)(buf + 1); /* never read: refused first */
    float positions[9] = {0, -1, 0, 0, -2, 0, 0, -3, 0};
    const char *msg;
    ck_assert_int_eq(tendon_spring_chain_pose(sk, J, 4, odd, NULL, &pose), TENDON_ERR_VALUE);
    msg = tendon_error_message();
    ck_assert_msg(strstr(msg, "tendon_spring_chain_pose: positions at ") &&
                      strstr(msg, "is not aligned"),
                  "%s", msg);
    ck_assert_int_eq(tendon_spring_chain_pose(sk, J, 4, positions, odd, &pose), TENDON_ERR_VALUE);
    ck_assert_msg(strstr(tendon_error_message(), "root_matrix at "), "%s",
                  tendon_error_message());
    const uint32_t *odd_joints = (const uint32_t *)(const void *)(buf + 2);
    ck_assert_int_eq(tendon_spring_chain_pose(sk, odd_joints, 4, positions, NULL, &pose),
                     TENDON_ERR_VALUE);
    ck_assert_msg(strstr(tendon_error_message(), "joints at "), "%s", tendon_error_message());
    /* positions in the pose's own rotations, which the call writes */
    ck_assert_int_eq(tendon_spring_chain_pose(sk, J, 4, pose.rotation + 4, NULL, &pose),
                     TENDON_ERR_ALIAS);
    ck_assert_msg(strstr(tendon_error_message(), "positions overlaps the pose's rotations"), "%s",
                  tendon_error_message());
    /* the joints in the pose's own rotations: read again after each rotation is written, they
       became indices far out of range (a segfault) */
    {
        tendon_pose held;
        ck_assert(tendon_pose_create(5, &held) == TENDON_OK);
        tendon_pose_copy(&rest, &held);
        uint32_t *in_rotations = (uint32_t *)(void *)held.rotation;
        memcpy(in_rotations, J, sizeof J);
        ck_assert_int_eq(tendon_spring_chain_pose(sk, in_rotations, 4, positions, NULL, &held),
                         TENDON_ERR_ALIAS);
        ck_assert_msg(strstr(tendon_error_message(), "joints overlaps the pose's rotations"),
                      "%s", tendon_error_message());
        ck_assert(memcmp(in_rotations, J, sizeof J) == 0); /* nothing written */
        tendon_pose_destroy(&held);
    }
    /* more joints than the skeleton has */
    ck_assert_int_eq(tendon_spring_chain_pose(sk, J, 6, positions, NULL, &pose),
                     TENDON_ERR_VALUE);
    ck_assert_msg(strstr(tendon_error_message(), "joint_count is 6 and the skeleton has 5"), "%s",
                  tendon_error_message());
    /* nothing was written */
    ck_assert(memcmp(pose.rotation, rest.rotation, 4 * 5 * sizeof(float)) == 0);
    ck_assert(tendon_spring_chain_pose(sk, J, 4, positions, NULL, &pose) == TENDON_OK);
    tendon_pose_destroy(&pose), tendon_pose_destroy(&rest);
    tendon_skeleton_destroy(sk);
}
END_TEST

/*
 * The rig's clip times at a grid's times (a few divisions per run of times between loop
 * boundaries) against the clip time at each time, bit for bit: durations that are and are not
 * exact, tiny and huge (loop counts past 2^52, and x/d overflowing), offsets, negative, huge
 * and non-finite starts (and times that overflow), steps of zero, one ulp, seconds and of
 * either sign, one to 130 times, unlooped clips and durations ≤ 0, NaN or infinite; and grids
 * that walk across k·d one ulp at a time (and stop rising at their last time). The clip time's
 * guard — 0 where x − ⌊x/d⌋·d rounds to d or below 0 — must fire in both sets (counted): in
 * the first at huge loop counts and steps, in the walks at ordinary ones (just below 0, x/d
 * rounds to a tiny negative, ⌊⌋ is −1 and x + d rounds to d; just below 5·0.7 and 10·0.7, x/d
 * rounds up onto the integer).
 */
static double test_floor(double q) /* det_floor's values: +0 for ±0, q itself from 2^52 */
{
    if (!(fabs(q) < 0x1p52))
        return q;
    const double i = (double)(int64_t)q;
    return i > q ? i - 1.0 : i;
}

static void check_grid(const tendon_rig_clip *c, double d, double start, double step, size_t n,
                       double last, long *guards)
{
    double t[130], got[130];
    ck_assert(n >= 1 && n <= 130);
    t[0] = start;
    for (size_t i = 1; i + 1 < n; ++i)
        t[i] = start + (double)i * step; /* as the rig makes its times */
    if (n > 1)
        t[n - 1] = last;
    tendon_rig_clip_times_grid(c, d, t, n, got);
    for (size_t i = 0; i < n; ++i) {
        const double want = tendon_rig_clip_time(c, d, t[i]);
        ck_assert_msg(memcmp(&want, &got[i], sizeof want) == 0,
                      "d %.17g offset %.17g loop %d start %.17g step %.17g n %zu: time %zu "
                      "(%.17g) gives %.17g, alone %.17g",
                      d, c->offset_sec, c->loop, start, step, n, i, t[i], got[i], want);
        const double x = t[i] + c->offset_sec;
        if (c->loop && d > 0.0 && x - x == 0.0) {
            const double w = x - test_floor(x / d) * d;
            *guards += w >= d || w < 0.0;
        }
    }
}

START_TEST(clip_times_grid_equals_single_time)
{
    static const double D[] = {1.0, 0.7, 1.0 / 3.0, 1.0 / 24.0, 2.5, 1e-3, 1e-300, 1e300,
                               0.0, -1.0, NAN, INFINITY};
    static const double OFF[] = {0.0, 0.1, -0.35, 1e6, -1e17, 1e308};
    static const double START[] = {-3.7, -0.0, 0.0, 0.25, 12.25, 1e15, -1e15, 0x1p53 + 2.0,
                                   1.7e308, -INFINITY, NAN};
    static const double STEP[] = {0.0, 1.0 / 60.0 / 7.0, -0.3, 10.0, 1e-300, 1e307};
    static const size_t N[] = {1, 2, 3, 17, 130};
    long guards = 0;
    size_t grids = 0;
    for (size_t a = 0; a < sizeof D / sizeof *D; ++a)
        for (int loop = 0; loop < 2; ++loop)
            for (size_t b = 0; b < sizeof OFF / sizeof *OFF; ++b) {
                const tendon_rig_clip c = {NULL, OFF[b], loop};
                for (size_t e = 0; e < sizeof START / sizeof *START; ++e)
                    for (size_t f = 0; f < sizeof STEP / sizeof *STEP; ++f)
                        for (size_t g = 0; g < sizeof N / sizeof *N; ++g, ++grids) {
                            const double end = START[e] + (double)(N[g] - 1) * STEP[f];
                            /* the last time at, just below and just above the grid's end */
                            const double last = g % 3 == 0   ? end
                                                : g % 3 == 1 ? nextafter(end, -INFINITY)
                                                             : nextafter(end, INFINITY);
                            check_grid(&c, D[a], START[e], STEP[f], N[g], last, &guards);
                        }
            }
    /* across k·d one ulp at a time (offset 0: x is the time itself) */
    static const double K[] = {-1000.0, -2.0, -1.0, 0.0, 1.0, 2.0, 5.0, 7.0, 10.0, 1000.0, 0x1p40};
    long walk_guards = 0;
    const tendon_rig_clip c0 = {NULL, 0.0, 1};
    for (size_t a = 0; a < 8; ++a)
        for (size_t k = 0; k < sizeof K / sizeof *K; ++k) {
            const double X = K[k] * D[a];
            double start = X;
            for (int u = 0; u < 40; ++u)
                start = nextafter(start, -INFINITY);
            const double ulp = nextafter(X, INFINITY) - X;
            check_grid(&c0, D[a], start, ulp, 81, X, &walk_guards);
            check_grid(&c0, D[a], start, 0.0, 5, start, &walk_guards);
            /* the grid's last but one time on X, the sample time just below it (where the
               times stop rising): with d = 1 and an integral K, on each side of a boundary */
            double start8 = X;
            for (int u = 0; u < 8; ++u)
                start8 = nextafter(start8, -INFINITY);
            check_grid(&c0, D[a], start8, ulp, 10, nextafter(X, -INFINITY), &walk_guards);
            grids += 3;
        }
    ck_assert_uint_eq(grids, 2 * 12 * 6 * 11 * 6 * 5 + 8 * 11 * 3);
    ck_assert_msg(guards > 0 && walk_guards > 0,
                  "the clip time's guard (x − ⌊x/d⌋·d rounding to d or below 0) fired %ld times "
                  "in the broad grids and %ld in the ulp walks: both must meet it",
                  guards, walk_guards);
}
END_TEST

int main(void)
{
    if (env_isa_unusable())
        return 77;
    Suite *s = suite_create("spring_rig");
    TCase *tc = tcase_create("rig");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, rig_equals_single_time_every_isa, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(tc, deep_rig_small_chunks_every_isa, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(tc, add_at_zero_weight_every_isa, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(tc, negative_zero_mask_every_isa, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(tc, rest_channels_kept_every_isa, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(tc, weights_tracks_name_no_joint, 0, TENDON_ISA_COUNT);
    tcase_add_test(tc, clip_times_grid_equals_single_time);
    tcase_add_test(tc, grids_and_batches);
    tcase_add_test(tc, positions_to_rotations_by_hand);
    tcase_add_test(tc, rig_writes_the_chains_rotations);
    tcase_add_test(tc, chain_below_another_anchor_joint);
    tcase_add_test(tc, bad_chains_refused_by_name);
    tcase_add_test(tc, failing_root_and_stale_workspace);
    tcase_add_test(tc, workspace_outlives_its_rig);
    tcase_add_test(tc, workspace_moved_within_a_buffer);
    tcase_add_test(tc, evaluation_overwritten_before_the_march);
    tcase_add_test(tc, single_time_calls_refuse_by_their_names);
    tcase_add_test(tc, chain_pose_refusals);
    tcase_add_test(tc, looped_clip_time_overflow_refused);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
