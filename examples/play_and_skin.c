/*
 * Example: play a glTF clip and skin its mesh — the per-frame path an engine copies first.
 *
 *   at load time (allocates, checks everything once):
 *     tendon_gltf_load             the skeleton, the skin binding, the clips, the mesh
 *     tendon_skin_weights_normalize  WEIGHTS_0 made to sum to one (on our own copy)
 *     tendon_skin_mesh_create      the prepared mesh: indices checked, vertices repacked
 *   every frame (allocates nothing, float32 tier):
 *     tendon_clip_sample_cursor_f32  the clip at the frame's time (the cursor speeds up
 *                                    forward play; it never changes the result)
 *     tendon_pose_palette            pose → model matrices → skinning palette
 *     tendon_skin_mesh_apply         skinned positions (and normals when the mesh has them)
 *
 * Usage: play_and_skin MODEL.glb [ANIMATION]     (tests/data/…/Fox.glb, "Walk" by default)
 *
 * What it checks (exit status 1 if any check fails):
 *   - every frame, the prepared mesh's output is bit for bit tendon_skin's on the same job and
 *     palette (the promise of tendon/skin.h);
 *   - every frame, a few vertices recomputed here in double by the linear-blend formula agree
 *     with the library to float rounding;
 *   - in the rest pose the skinned mesh is the bind mesh (Fox.glb binds at its rest pose; a
 *     model whose inverse bind matrices are not its rest pose's, or that is quantized with the
 *     dequantisation in its matrices — Fox-quantized.glb —, fails this one by design).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tendon/gltf.h>
#include <tendon/tendon.h>

static int failures;

/* Report a failed check; the program goes on so that one run shows every failure. */
static void check(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "play_and_skin: FAILED: %s\n", what);
        ++failures;
    }
}

/* Every tendon call returns a status; on failure tendon_error_message() says why. */
#define TRY(call)                                                                              \
    do {                                                                                       \
        tendon_status try_status_ = (call);                                                    \
        if (try_status_ != TENDON_OK) {                                                        \
            fprintf(stderr, "play_and_skin: %s: %s\n", #call, tendon_error_message());          \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

/* The first node that has both a mesh and a skin: the character's skinned mesh. */
static int find_skinned_node(const tendon_gltf *model, int32_t *mesh, int32_t *skin)
{
    for (size_t node = 0; node < tendon_gltf_node_count(model); ++node) {
        if (tendon_gltf_node_mesh(model, node) >= 0 && tendon_gltf_node_skin(model, node) >= 0) {
            *mesh = tendon_gltf_node_mesh(model, node);
            *skin = tendon_gltf_node_skin(model, node);
            return 1;
        }
    }
    return 0;
}

/* Vertex v skinned in double, straight from the formula of tendon_skin (an independent
 * reference: M = Σ wᵢ·P[jᵢ], position' = M·(p, 1)). */
static void skin_vertex_double(const float *palette, const uint16_t *joints,
                               const float *weights, const float *positions, size_t v,
                               double out[3])
{
    double m[12] = {0};
    for (size_t i = 0; i < 4; ++i) {
        const float *p = palette + 16 * (size_t)joints[4 * v + i];
        for (size_t c = 0; c < 4; ++c)
            for (size_t r = 0; r < 3; ++r)
                m[3 * c + r] += (double)weights[4 * v + i] * p[4 * c + r];
    }
    const float *x = positions + 3 * v;
    for (size_t r = 0; r < 3; ++r)
        out[r] = m[r] * x[0] + m[3 + r] * x[1] + m[6 + r] * x[2] + m[9 + r];
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: play_and_skin MODEL.glb [ANIMATION]\n");
        return 2;
    }
    const char *animation_name = argc == 3 ? argv[2] : "Walk";

    /* ---- load time ---------------------------------------------------------------------- */
    tendon_gltf *model = NULL;
    TRY(tendon_gltf_load(argv[1], &model));
    const tendon_skeleton *skeleton = tendon_gltf_skeleton(model);
    const size_t joint_count = tendon_skeleton_joint_count(skeleton);

    int32_t mesh_index, skin_index;
    if (!find_skinned_node(model, &mesh_index, &skin_index)) {
        fprintf(stderr, "play_and_skin: %s has no skinned mesh\n", argv[1]);
        return 1;
    }
    const tendon_skin_binding *binding = tendon_gltf_skin(model, (size_t)skin_index);
    const size_t palette_count = tendon_skin_binding_palette_count(binding);

    size_t animation;
    TRY(tendon_gltf_find_animation(model, animation_name, &animation));
    const tendon_clip *clip = tendon_gltf_animation(model, animation);
    const double duration_sec = tendon_clip_duration(clip);

    tendon_gltf_primitive prim;
    TRY(tendon_gltf_get_primitive(model, (size_t)mesh_index, 0, &prim));
    if (!prim.joints || !prim.weights) {
        fprintf(stderr, "play_and_skin: the primitive lacks JOINTS_0 or WEIGHTS_0\n");
        return 1;
    }
    const size_t n = prim.vertex_count;

    /* glTF asks for weights that sum to one; exporters round. Normalise a copy once. */
    float *weights = malloc(4 * n * sizeof *weights);
    if (!weights)
        return 1;
    memcpy(weights, prim.weights, 4 * n * sizeof *weights);
    TRY(tendon_skin_weights_normalize(weights, 0, 4, n));

    /* The job describes the mesh; the prepared mesh copies and repacks it (inputs only:
     * palette and output pointers are given to apply, every frame). */
    tendon_skin_job job;
    memset(&job, 0, sizeof job); /* zero strides: tightly packed */
    job.palette_count = palette_count;
    job.vertex_count = n;
    job.influence_count = 4;
    job.joint_index_type = TENDON_JOINT_INDEX_U16;
    job.joints = prim.joints;
    job.weights = weights;
    job.positions = prim.positions;
    job.normals = prim.normals; /* NULL when the file has none (Fox.glb): positions only */
    tendon_skin_mesh *skin_mesh = NULL;
    TRY(tendon_skin_mesh_create(&job, &skin_mesh));

    /* Per-frame buffers, allocated once. */
    tendon_pose pose;
    TRY(tendon_pose_create(joint_count, &pose));
    float *model_matrices = malloc(16 * joint_count * sizeof(float));
    float *palette = malloc(16 * palette_count * sizeof(float));
    float *positions = malloc(3 * n * sizeof(float)), *normals = malloc(3 * n * sizeof(float));
    float *ref_positions = malloc(3 * n * sizeof(float));
    float *ref_normals = malloc(3 * n * sizeof(float));
    float *out_normals = prim.normals ? normals : NULL; /* ask only for what the mesh has */
    uint32_t *cursor = calloc(tendon_clip_timeline_count(clip) + 1, sizeof *cursor);
    if (!model_matrices || !palette || !positions || !normals || !ref_positions ||
        !ref_normals || !cursor)
        return 1;

    /* ---- the rest pose skins to the bind mesh ------------------------------------------- */
    TRY(tendon_skeleton_rest_pose(skeleton, &pose));
    TRY(tendon_pose_palette(skeleton, binding, &pose, NULL, model_matrices, palette));
    TRY(tendon_skin_mesh_apply(skin_mesh, palette, positions, out_normals, NULL));
    double rest_error = 0, extent = 0;
    for (size_t i = 0; i < 3 * n; ++i) {
        rest_error = fmax(rest_error, fabs((double)positions[i] - prim.positions[i]));
        extent = fmax(extent, fabs((double)positions[i])); /* the mesh's size, model space */
    }
    check(rest_error <= 1e-6 * extent, "the rest pose skins to the bind positions");

    /* ---- play: 2 seconds at 60 frames a second, looping the clip ------------------------ */
    const int frames = 120;
    double worst = 0;
    for (int frame = 0; frame < frames; ++frame) {
        const double time_sec = fmod(frame / 60.0, duration_sec); /* the engine loops */

        /* pose: the rest pose first, so joints the clip does not drive stay at rest */
        TRY(tendon_skeleton_rest_pose(skeleton, &pose));
        TRY(tendon_clip_sample_cursor_f32(clip, time_sec, cursor,
                                          tendon_clip_timeline_count(clip), &pose));
        TRY(tendon_pose_palette(skeleton, binding, &pose, NULL, model_matrices, palette));
        TRY(tendon_skin_mesh_apply(skin_mesh, palette, positions, out_normals, NULL));

        /* check: the unprepared path gives the same bits */
        job.palette = palette;
        job.out_positions = ref_positions;
        job.out_normals = prim.normals ? ref_normals : NULL;
        TRY(tendon_skin(&job));
        check(memcmp(positions, ref_positions, 3 * n * sizeof(float)) == 0 &&
                  (!prim.normals || memcmp(normals, ref_normals, 3 * n * sizeof(float)) == 0),
              "tendon_skin_mesh_apply equals tendon_skin bit for bit");

        /* check: a few vertices against the formula in double */
        for (size_t v = 0; v < n; v += n / 7 + 1) {
            double expect[3];
            skin_vertex_double(palette, prim.joints, weights, prim.positions, v, expect);
            for (size_t c = 0; c < 3; ++c)
                worst = fmax(worst, fabs(expect[c] - positions[3 * v + c]));
        }
    }
    check(worst <= 1e-6 * extent, "skinned vertices agree with the formula in double");

    /* the last frame's time and a vertex to compare across machines: the bits are the same
     * on every ISA and machine */
    const double last_sec = fmod((frames - 1) / 60.0, duration_sec);
    printf("play_and_skin: %s \"%s\" (%.4g s), %zu joints, %zu palette entries, %zu vertices "
           "(prepared mesh %zu bytes)\n", argv[1], animation_name, duration_sec, joint_count,
           palette_count, n, tendon_skin_mesh_memory_bytes(skin_mesh));
    printf("play_and_skin: rest pose vs bind: max |Δ| %.3g; vs double: max |Δ| %.3g "
           "(extent %.4g)\n", rest_error, worst, extent);
    printf("play_and_skin: frame %d (t = %.6f s): vertex 0 at (%.9g, %.9g, %.9g)\n", frames - 1,
           last_sec, positions[0], positions[1], positions[2]);
    printf("play_and_skin: %s\n", failures ? "FAILED" : "ok");

    free(cursor);
    free(ref_normals);
    free(ref_positions);
    free(normals);
    free(positions);
    free(palette);
    free(model_matrices);
    tendon_pose_destroy(&pose);
    tendon_skin_mesh_destroy(skin_mesh);
    free(weights);
    tendon_gltf_destroy(model);
    return failures ? 1 : 0;
}
