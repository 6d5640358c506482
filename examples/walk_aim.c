/*
 * Example: walk, and aim the upper body with an additive layer under a bone mask.
 *
 * The base is a locomotion clip (Fox.glb's "Walk"); the layer is another clip ("Survey": the
 * fox looks around) applied **as a delta from its own first frame**, so that only how it moves
 * away from that frame is added, and only to the spine, neck, head and front legs — the bones
 * below the split root "b_Spine01_02", ramped in over two bones so the torso does not kink.
 *
 *   at load time:
 *     tendon_bone_mask_by_name     the mask: a weight per joint (0 outside the chain)
 *     the layer's reference pose   the aim clip at its first key, over the rest pose
 *   every frame (float32 tier, allocates nothing):
 *     tendon_clip_sample_f32       the walk
 *     tendon_clip_delta_pose_f32   the aim clip's delta from its reference at the aim time
 *     tendon_layer_apply_f32       base + delta · weight · mask (TENDON_MASK_ADDITIVE)
 *
 * Usage: walk_aim MODEL.glb                        (tests/data/…/Fox.glb)
 *
 * What it checks (exit status 1 if any check fails):
 *   - the mask: 0 outside the split root's subtree, 1/2 at the split root, 1 below it;
 *   - every frame, every joint the mask leaves out (hips, legs, tail) keeps the walk's
 *     transform bit for bit;
 *   - every frame, every fully masked joint at layer weight 1 has the rotation walk ⊗ delta
 *     (the quaternion product recomputed here in double) to float rounding;
 *   - the layer changes the head (the aim is visible).
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
        fprintf(stderr, "walk_aim: FAILED: %s\n", what);
        ++failures;
    }
}

#define TRY(call)                                                                              \
    do {                                                                                       \
        tendon_status try_status_ = (call);                                                    \
        if (try_status_ != TENDON_OK) {                                                        \
            fprintf(stderr, "walk_aim: %s: %s\n", #call, tendon_error_message());               \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

static const tendon_clip *clip_named(const tendon_gltf *model, const char *name)
{
    size_t index;
    TRY(tendon_gltf_find_animation(model, name, &index));
    return tendon_gltf_animation(model, index);
}

/* a ⊗ b (Hamilton product, x y z w), in double: the reference for the additive rotation. */
static void quat_mul_double(const float *a, const float *b, double out[4])
{
    out[0] = (double)a[3] * b[0] + (double)a[0] * b[3] + (double)a[1] * b[2] - (double)a[2] * b[1];
    out[1] = (double)a[3] * b[1] - (double)a[0] * b[2] + (double)a[1] * b[3] + (double)a[2] * b[0];
    out[2] = (double)a[3] * b[2] + (double)a[0] * b[1] - (double)a[1] * b[0] + (double)a[2] * b[3];
    out[3] = (double)a[3] * b[3] - (double)a[0] * b[0] - (double)a[1] * b[1] - (double)a[2] * b[2];
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: walk_aim MODEL.glb\n");
        return 2;
    }
    tendon_gltf *model = NULL;
    TRY(tendon_gltf_load(argv[1], &model));
    const tendon_skeleton *skeleton = tendon_gltf_skeleton(model);
    const size_t n = tendon_skeleton_joint_count(skeleton);
    const tendon_clip *walk = clip_named(model, "Walk");
    const tendon_clip *aim = clip_named(model, "Survey");

    /* ---- load time ---------------------------------------------------------------------- */
    /* The mask: the split root gets 1/falloff, full weight `falloff` bones down. A name the
     * skeleton lacks is an error that lists near matches, never a silent all-zero mask. */
    const char *split_root = "b_Spine01_02";
    const double falloff = 2.0;
    float *mask = malloc(n * sizeof *mask);
    if (!mask)
        return 1;
    TRY(tendon_bone_mask_by_name(skeleton, split_root, falloff, mask));

    size_t root_joint, head;
    TRY(tendon_skeleton_find_joint(skeleton, split_root, &root_joint));
    TRY(tendon_skeleton_find_joint(skeleton, "b_Head_05", &head));
    const int32_t *parents = tendon_skeleton_parents(skeleton);
    for (size_t j = 0; j < n; ++j) {
        /* depth below the split root, or −1 outside its subtree (parents[j] < j: DFS order) */
        int depth = -1;
        for (size_t k = j, d = 0; ; k = (size_t)parents[k], ++d) {
            if (k == root_joint) {
                depth = (int)d;
                break;
            }
            if (parents[k] < 0)
                break;
        }
        const float want = depth < 0 ? 0.0f : depth == 0 ? 0.5f : 1.0f;
        check(mask[j] == want, "the mask is 0 outside, 1/2 at the split root, 1 below");
    }

    /* The layer's reference: the aim clip's first key over the rest pose. The delta of the
     * clip from it is the identity at t = 0 and grows as the fox turns its head. */
    tendon_pose reference, base, delta, out;
    TRY(tendon_pose_create(n, &reference));
    TRY(tendon_pose_create(n, &base));
    TRY(tendon_pose_create(n, &delta));
    TRY(tendon_pose_create(n, &out));
    TRY(tendon_skeleton_rest_pose(skeleton, &reference));
    TRY(tendon_clip_sample_f32(aim, 0.0, &reference));

    /* ---- play 3 seconds at 30 frames a second ------------------------------------------- */
    const double weight = 1.0;
    double worst = 0, head_turn = 0;
    for (int frame = 0; frame < 90; ++frame) {
        const double t = frame / 30.0;
        TRY(tendon_skeleton_rest_pose(skeleton, &base));
        TRY(tendon_clip_sample_f32(walk, fmod(t, tendon_clip_duration(walk)), &base));
        TRY(tendon_clip_delta_pose_f32(aim, fmod(t, tendon_clip_duration(aim)), &reference,
                                       &delta));
        TRY(tendon_layer_apply_f32(&base, &delta, weight, mask, TENDON_MASK_ADDITIVE, &out));

        for (size_t j = 0; j < n; ++j) {
            const float *q = out.rotation + 4 * j;
            if (mask[j] == 0.0f) {
                check(memcmp(q, base.rotation + 4 * j, 16) == 0 &&
                          memcmp(out.translation + 3 * j, base.translation + 3 * j, 12) == 0 &&
                          memcmp(out.scale + 3 * j, base.scale + 3 * j, 12) == 0,
                      "a joint outside the mask keeps the walk bit for bit");
            } else if (mask[j] == 1.0f) {
                double want[4];
                quat_mul_double(base.rotation + 4 * j, delta.rotation + 4 * j, want);
                for (size_t c = 0; c < 4; ++c)
                    worst = fmax(worst, fabs(want[c] - q[c]));
            }
        }
        /* how far the layer turns the head away from the walk: the angle between the two */
        const float *a = out.rotation + 4 * head, *b = base.rotation + 4 * head;
        const double dot = fabs((double)a[0] * b[0] + (double)a[1] * b[1] +
                                (double)a[2] * b[2] + (double)a[3] * b[3]);
        head_turn = fmax(head_turn, 2.0 * acos(fmin(1.0, dot)) * 180.0 / 3.14159265358979);
    }
    check(worst <= 1e-6, "a fully masked joint's rotation is walk ⊗ delta");
    check(head_turn > 5.0, "the aim layer turns the head");

    printf("walk_aim: %zu joints; mask from %s over %.0f bones: ", n, split_root, falloff);
    for (size_t j = 0; j < n; ++j)
        printf("%s%g", j ? " " : "", mask[j]);
    printf("\nwalk_aim: head turned up to %.2f degrees from the walk; masked rotations vs "
           "walk ⊗ delta in double: max |Δ| %.3g\n", head_turn, worst);
    printf("walk_aim: last frame head rotation (%.9g, %.9g, %.9g, %.9g)\n",
           out.rotation[4 * head], out.rotation[4 * head + 1], out.rotation[4 * head + 2],
           out.rotation[4 * head + 3]);
    printf("walk_aim: %s\n", failures ? "FAILED" : "ok");

    tendon_pose_destroy(&out);
    tendon_pose_destroy(&delta);
    tendon_pose_destroy(&base);
    tendon_pose_destroy(&reference);
    free(mask);
    tendon_gltf_destroy(model);
    return failures ? 1 : 0;
}
