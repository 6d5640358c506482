/*
 * libFuzzer target: the glTF importer on arbitrary bytes (docs/gltf.md, "Fuzzing").
 * tendon_gltf_load_memory with no base directory never opens a file; every input must give
 * TENDON_OK or an error with a message, never a crash, a leak or an out-of-bounds read (the
 * preset builds with AddressSanitizer and UndefinedBehaviorSanitizer). A loaded model is walked
 * (skeleton, skins, clips sampled at a few times, primitives) so what the importer built is
 * exercised too.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <tendon/gltf.h>
#include <tendon/tendon.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tendon_gltf *g = NULL;
    if (tendon_gltf_load_memory(data, size, "fuzz.glb", NULL, &g) != TENDON_OK) {
        if (tendon_error_message()[0] == '\0')
            abort(); /* an error must say why */
        return 0;
    }
    const tendon_skeleton *sk = tendon_gltf_skeleton(g);
    const size_t n = tendon_skeleton_joint_count(sk);
    tendon_pose pose;
    if (n < 100000 && tendon_pose_create(n, &pose) == TENDON_OK) {
        float *model = malloc((16 * n + 1) * sizeof(float));
        for (size_t a = 0; model && a < tendon_gltf_animation_count(g); ++a) {
            const tendon_clip *clip = tendon_gltf_animation(g, a);
            const double d = tendon_clip_duration(clip);
            const double times[] = {-1.0, 0.0, d * 0.37, d, d + 1.0};
            for (size_t t = 0; t < sizeof times / sizeof times[0]; ++t) {
                tendon_skeleton_rest_pose(sk, &pose);
                tendon_clip_sample(clip, times[t], &pose);
                tendon_pose_model_matrices(sk, &pose, NULL, model);
            }
            tendon_root_motion root;
            tendon_root_motion_extract(clip, 0, 0.25, 3.5, &root);
        }
        for (size_t s = 0; model && s < tendon_gltf_skin_count(g); ++s) {
            const tendon_skin_binding *b = tendon_gltf_skin(g, s);
            float *pal = malloc((16 * tendon_skin_binding_palette_count(b) + 1) * sizeof(float));
            if (pal)
                tendon_palette(b, model, n, pal);
            free(pal);
        }
        free(model);
        tendon_pose_destroy(&pose);
    }
    for (size_t m = 0; m < tendon_gltf_mesh_count(g); ++m)
        for (size_t p = 0; p < tendon_gltf_primitive_count(g, m); ++p) {
            tendon_gltf_primitive pr;
            volatile float sink = 0;
            if (tendon_gltf_get_primitive(g, m, p, &pr) == TENDON_OK && pr.vertex_count > 0)
                sink = pr.positions[3 * pr.vertex_count - 1];
            (void)sink;
        }
    tendon_gltf_destroy(g);
    return 0;
}
