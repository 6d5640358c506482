/*
 * Example: springs on a tail, with the spring rig (tendon/spring_rig.h).
 *
 * The rig hangs one chain from Fox.glb's tail — anchor joint b_Tail01_012, links b_Tail02_013
 * and b_Tail03_014 — and evaluates its anchor itself from a pose source: here the "Walk" clip,
 * looped, on the float32 tier. A sample at time t marches each spring over the recent past of
 * its anchor and writes the tail's rotations into the pose, so the palette and the skin follow.
 *
 * A sample is a **pure function of the time**: there is no simulation state to step, keep in
 * sync or reset — seek, scrub, replay and run on any thread (one workspace each).
 *
 *   at load time:  tendon_spring_rig_create, tendon_spring_rig_workspace_size (+ malloc)
 *   every frame:   tendon_spring_rig_source_pose  the walk at t (or the engine's own pose: it
 *                                                 must be the source's, where the anchor is)
 *                  tendon_spring_rig_sample       the tail's sprung positions and rotations
 *                  tendon_pose_model_matrices     (here, for the checks; an engine would go on
 *                                                 to tendon_pose_palette and skinning)
 *
 * Usage: tail_springs MODEL.glb                     (tests/data/…/Fox.glb)
 *
 * What it checks (exit status 1 if any check fails):
 *   - the rig keeps bone lengths: every tail bone is as long as at rest;
 *   - each sprung joint points its bone at where the spring put its child: the child lies on
 *     the ray toward the sprung position;
 *   - the springs move the tail away from the clip's (the secondary motion is there);
 *   - a sample at 1 s in a fresh workspace equals, bit for bit, the one made while playing.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tendon/gltf.h>
#include <tendon/tendon.h>

static int failures;

static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "tail_springs: FAILED: %s\n", what);
        ++failures;
    }
}

#define TRY(call)                                                                              \
    do {                                                                                       \
        tendon_status try_status_ = (call);                                                    \
        if (try_status_ != TENDON_OK) {                                                        \
            fprintf(stderr, "tail_springs: %s: %s\n", #call, tendon_error_message());           \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

/* The position (translation column) of joint j's model matrix. */
static void joint_position(const float *model, size_t j, double out[3])
{
    for (size_t c = 0; c < 3; ++c)
        out[c] = model[16 * j + 12 + c];
}

static double distance(const double a[3], const double b[3])
{
    return sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                (a[2] - b[2]) * (a[2] - b[2]));
}

/* The angle in degrees between a − o and b − o. */
static double angle_deg(const double o[3], const double a[3], const double b[3])
{
    double u[3], v[3], uv = 0, uu = 0, vv = 0;
    for (size_t c = 0; c < 3; ++c) {
        u[c] = a[c] - o[c];
        v[c] = b[c] - o[c];
        uv += u[c] * v[c];
        uu += u[c] * u[c];
        vv += v[c] * v[c];
    }
    return acos(fmax(-1.0, fmin(1.0, uv / sqrt(uu * vv)))) * 180.0 / 3.14159265358979;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: tail_springs MODEL.glb\n");
        return 2;
    }
    tendon_gltf *model = NULL;
    TRY(tendon_gltf_load(argv[1], &model));
    const tendon_skeleton *skeleton = tendon_gltf_skeleton(model);
    const size_t n = tendon_skeleton_joint_count(skeleton);
    size_t walk_index;
    TRY(tendon_gltf_find_animation(model, "Walk", &walk_index));

    /* ---- the rig ------------------------------------------------------------------------ */
    /* One spring for every link: 3 Hz, damping ratio 0.5 (it rings a little), no length cap. */
    const tendon_spring_settings spring = {3.0, 0.5, -1.0};
    const char *const tail[3] = {"b_Tail01_012", "b_Tail02_013", "b_Tail03_014"};
    tendon_spring_rig_chain chain;
    memset(&chain, 0, sizeof chain);
    chain.name = "tail";
    chain.joint_names = tail;
    chain.joint_count = 3;    /* the anchor joint and two links */
    chain.settings = &spring; /* settings_count 1: every link */
    chain.settings_count = 1;
    /* anchor_offset {0,0,0}: the anchor is b_Tail01_012's origin; rest_offsets_m NULL: the
     * links rest where the skeleton's rest pose puts them */

    tendon_spring_rig_desc desc;
    memset(&desc, 0, sizeof desc);
    desc.skeleton = skeleton;
    desc.chains = &chain;
    desc.chain_count = 1;
    desc.source.kind = TENDON_RIG_SOURCE_CLIPS;
    desc.source.base.clip = tendon_gltf_animation(model, walk_index);
    desc.source.base.loop = 1;
    desc.tier = TENDON_TIER_F32;
    /* desc.root: NULL, the tail marches in model space; a root transform (the character's
     * placement in the world as a function of time) makes it march in the world instead. */
    tendon_spring_rig *rig = NULL;
    TRY(tendon_spring_rig_create(&desc, &rig));

    size_t workspace_bytes;
    TRY(tendon_spring_rig_workspace_size(rig, &workspace_bytes));
    void *workspace = malloc(workspace_bytes), *fresh = malloc(workspace_bytes);
    const size_t links = tendon_spring_rig_link_count(rig);
    float *sprung = malloc(3 * links * sizeof *sprung);
    float *model_matrices = malloc(16 * n * sizeof(float));
    float *clip_matrices = malloc(16 * n * sizeof(float));
    tendon_pose pose, scratch, again;
    TRY(tendon_pose_create(n, &pose));
    TRY(tendon_pose_create(n, &scratch));
    TRY(tendon_pose_create(n, &again));
    if (!workspace || !fresh || !sprung || !model_matrices || !clip_matrices)
        return 1;

    uint32_t joints[3];
    for (size_t k = 0; k < 3; ++k)
        joints[k] = tendon_spring_rig_chain_joint(rig, 0, k);

    /* rest bone lengths */
    double rest_length[2];
    TRY(tendon_skeleton_rest_pose(skeleton, &pose));
    TRY(tendon_pose_model_matrices(skeleton, &pose, NULL, model_matrices));
    for (size_t k = 0; k < 2; ++k) {
        double a[3], b[3];
        joint_position(model_matrices, joints[k], a);
        joint_position(model_matrices, joints[k + 1], b);
        rest_length[k] = distance(a, b);
    }

    /* ---- play 2 seconds at 60 frames a second ------------------------------------------- */
    double worst_length = 0, worst_aim = 0, swing = 0;
    float at_one_sec[6];
    for (int frame = 0; frame <= 120; ++frame) {
        const double t = frame / 60.0;
        TRY(tendon_spring_rig_source_pose(rig, t, &scratch, &pose));
        TRY(tendon_pose_model_matrices(skeleton, &pose, NULL, clip_matrices));
        TRY(tendon_spring_rig_sample(rig, t, workspace, workspace_bytes, sprung, 3 * links,
                                     &pose));
        TRY(tendon_pose_model_matrices(skeleton, &pose, NULL, model_matrices));
        if (frame == 60)
            memcpy(at_one_sec, sprung, sizeof at_one_sec);

        for (size_t k = 0; k < 2; ++k) {
            double a[3], b[3], target[3], unsprung[3];
            joint_position(model_matrices, joints[k], a);
            joint_position(model_matrices, joints[k + 1], b);
            joint_position(clip_matrices, joints[k + 1], unsprung);
            for (size_t c = 0; c < 3; ++c)
                target[c] = sprung[3 * k + c];
            worst_length = fmax(worst_length, fabs(distance(a, b) - rest_length[k]) /
                                                  rest_length[k]);
            worst_aim = fmax(worst_aim, angle_deg(a, b, target));
            if (k == 0)
                swing = fmax(swing, angle_deg(a, b, unsprung));
        }
    }
    check(worst_length <= 1e-5, "the tail's bones keep their rest lengths");
    check(worst_aim <= 1e-3, "each sprung bone points at its child's sprung position");
    check(swing >= 1.0, "the springs swing the tail away from the clip's");

    /* seek: t = 1 s in a workspace that never saw another time */
    float seek[6];
    TRY(tendon_spring_rig_source_pose(rig, 1.0, &scratch, &again));
    TRY(tendon_spring_rig_sample(rig, 1.0, fresh, workspace_bytes, seek, 6, &again));
    check(links == 2 && memcmp(seek, at_one_sec, sizeof seek) == 0,
          "a sample depends on its time only (seek equals play)");

    printf("tail_springs: chain \"%s\": %zu links, %zu substep grid(s), %zu anchor times per "
           "sample, workspace %zu bytes\n", chain.name, links, tendon_spring_rig_grid_count(rig),
           tendon_spring_rig_chain_times(rig, 0), workspace_bytes);
    printf("tail_springs: tail swung up to %.2f degrees from the clip; bone length error %.3g; "
           "aim error %.3g degrees\n", swing, worst_length, worst_aim);
    printf("tail_springs: t = 1 s: tip at (%.9g, %.9g, %.9g)\n", at_one_sec[3], at_one_sec[4],
           at_one_sec[5]);
    printf("tail_springs: %s\n", failures ? "FAILED" : "ok");

    tendon_pose_destroy(&again);
    tendon_pose_destroy(&scratch);
    tendon_pose_destroy(&pose);
    free(clip_matrices);
    free(model_matrices);
    free(sprung);
    free(fresh);
    free(workspace);
    tendon_spring_rig_destroy(rig);
    tendon_gltf_destroy(model);
    return failures ? 1 : 0;
}
