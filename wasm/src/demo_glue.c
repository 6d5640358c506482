/*
 * The page's module (wasm/page/, docs/wasm.md "The page"): `tendon demo`'s built-in character
 * (tools/tendon/demo_core.c, the same code as the native command) played through this
 * module's kernel table, with each stage's hash and time, and the last frame's skinned mesh for
 * the canvas. The crowd (threads), the JSON report (jansson) and glTF scenes are not part of the
 * page: pthread_create fails here, and the JSON and glTF calls are imports the page stubs out.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pthread.h>
#include <tendon/tendon.h>

#include "demo.h"

#define GLUE_API __attribute__((visibility("default")))

int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *),
                   void *arg)
{
    (void)thread, (void)attr, (void)start, (void)arg;
    return EAGAIN;
}
int pthread_join(pthread_t thread, void **result) { (void)thread, (void)result; return ESRCH; }
int pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a) { (void)m, (void)a; return 0; }
int pthread_mutex_destroy(pthread_mutex_t *m) { (void)m; return 0; }
int pthread_mutex_lock(pthread_mutex_t *m) { (void)m; return 0; }
int pthread_mutex_unlock(pthread_mutex_t *m) { (void)m; return 0; }

static char g_why[512];
static float *g_skinned;
static size_t g_skinned_count;

/** The reason of the last failure (a NUL-terminated string in module memory). */
GLUE_API const char *tendon_wasm_demo_why(void) { return g_why; }
/** The last run's skinned positions: [3·count] floats, and their vertex count. */
GLUE_API const float *tendon_wasm_demo_skinned(void) { return g_skinned; }
GLUE_API uint32_t tendon_wasm_demo_skinned_count(void) { return (uint32_t)g_skinned_count; }

/**
 * Play the built-in character of about `vertices` vertices for `frames` frames at `fps` (as
 * `tendon demo --vertices V --seconds frames/fps --fps F`) through `isa`'s kernel table.
 * out_hash: [DEMO_STAGE_COUNT·32] bytes, out_ns: [2·DEMO_STAGE_COUNT] ns per frame, the
 * medians then the means (stages in DEMO_STAGE_NAME order: sample layer anchors springs palette
 * morph skin; a browser's clock is coarse — 5 µs when cross-origin isolated, 100 µs otherwise —
 * so the page shows the means). Then skins
 * the last frame's model matrices (without its morph targets) for the picture. 0, or -1 with
 * tendon_wasm_demo_why().
 */
GLUE_API int tendon_wasm_demo_run(uint32_t vertices, uint32_t frames, double fps, uint32_t isa,
                                  uint8_t *out_hash, double *out_ns)
{
    demo_scene scene;
    g_why[0] = '\0';
    if (demo_scene_builtin(vertices, &scene, g_why, sizeof g_why) != 0)
        return -1;
    const tendon_kernels *k = tendon_kernels_for((tendon_isa)isa);
    if (!k) {
        strcpy(g_why, "that ISA is not in this module");
        demo_scene_destroy(&scene);
        return -1;
    }
    float *model = malloc(16 * scene.joint_count * sizeof *model);
    float *links = malloc((3 * DEMO_MAX_CHAINS * DEMO_MAX_LINKS + 3) * sizeof *links);
    demo_capture cap = {1, {frames - 1}, {model}, {links}};
    const demo_run_options opt = {0.0, &cap};
    demo_result res;
    int rc = model && links ? demo_run_ex(&scene, k, frames, fps, &opt, NULL, NULL, &res, g_why,
                                          sizeof g_why)
                            : (strcpy(g_why, "out of memory"), -1);
    if (rc == 0) {
        for (int s = 0; s < DEMO_STAGE_COUNT; ++s) {
            memcpy(out_hash + 32 * s, res.hash[s], 32);
            out_ns[s] = res.ns_per_frame[s];
            out_ns[DEMO_STAGE_COUNT + s] = res.mean_ns_per_frame[s];
        }
        const demo_mesh *m = &scene.meshes[0];
        tendon_skin_binding *binding = NULL;
        float *palette = malloc(16 * (m->palette_count ? m->palette_count : 1) * sizeof *palette);
        free(g_skinned);
        g_skinned = malloc(3 * m->vertex_count * sizeof *g_skinned);
        g_skinned_count = 0;
        tendon_skin_job job;
        memset(&job, 0, sizeof job);
        if (palette && g_skinned &&
            tendon_skin_binding_create(scene.skeleton, m->joint_of, m->inverse_bind,
                                       m->palette_count, &binding) == TENDON_OK &&
            tendon_palette(binding, model, scene.joint_count, palette) == TENDON_OK) {
            job.palette = palette;
            job.palette_count = m->palette_count;
            job.vertex_count = m->vertex_count;
            job.influence_count = 4;
            job.joint_index_type = TENDON_JOINT_INDEX_U16;
            job.joints = m->joints;
            job.weights = m->weights;
            job.positions = m->positions;
            job.out_positions = g_skinned;
            if (tendon_skin(&job) == TENDON_OK)
                g_skinned_count = m->vertex_count;
        }
        tendon_skin_binding_destroy(binding);
        free(palette);
    }
    free(model);
    free(links);
    demo_scene_destroy(&scene);
    return rc;
}
