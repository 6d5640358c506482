/*
 * Example: a crowd split across threads (C11 <threads.h>).
 *
 * 48 foxes share one loaded model and one prepared skinning mesh — both immutable, so any
 * number of threads read them at once — and each owns what changes per frame: its pose, its
 * clip cursor, its palette and its skinned vertices. A frame is one job per character, handed
 * out to worker threads in contiguous slices; the library starts no thread and takes no lock.
 * Every character runs the float32 per-frame path:
 *
 *   tendon_clip_sample_cursor_f32   its clip (walk or run) at its own time
 *   tendon_pose_palette             pose → palette
 *   tendon_skin_mesh_apply          skinned positions
 *
 * Usage: crowd MODEL.glb [THREADS]                   (tests/data/…/Fox.glb, 4 threads)
 *
 * What it checks (exit status 1 if it fails): the crowd skinned by THREADS threads is bit for
 * bit the crowd skinned by one — every vertex of every character at every frame (compared
 * through a 64-bit FNV-1a hash per character and frame, and the last frame vertex by vertex).
 * tendon's results depend on the inputs only: not on the thread, the split, or the ISA.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <time.h>

#include <tendon/gltf.h>
#include <tendon/tendon.h>

#define CHARACTERS 48
#define FRAMES 30
#define MAX_THREADS 16

/* What every character shares: read only while the threads run. */
typedef struct shared {
    const tendon_skeleton *skeleton;
    const tendon_skin_binding *binding;
    const tendon_skin_mesh *mesh;
    const tendon_clip *clips[2]; /* walk, run */
} shared;

/* What one character owns. */
typedef struct character {
    const tendon_clip *clip;
    double offset_sec; /* where in its clip it starts */
    double rate;       /* playback speed */
    tendon_pose pose;
    uint32_t *cursor;
    float *model;    /* [16·joint_count] */
    float *palette;  /* [16·palette_count] */
    float *vertices; /* [3·vertex_count] skinned positions */
    uint64_t hash[FRAMES];
    tendon_status status;
    char message[256]; /* tendon_error_message() is per thread: keep the worker's */
} character;

/* A worker's slice of the crowd, for one frame. */
typedef struct slice {
    const shared *shared;
    character *first;
    size_t count;
    int frame;
} slice;

static uint64_t fnv1a(const void *data, size_t bytes)
{
    const unsigned char *p = data;
    uint64_t h = 1469598103934665603u;
    for (size_t i = 0; i < bytes; ++i)
        h = (h ^ p[i]) * 1099511628211u;
    return h;
}

/* One character's frame: the per-frame path, allocation-free. */
static tendon_status animate(const shared *s, character *c, int frame)
{
    const double t = fmod(c->offset_sec + c->rate * frame / 60.0, tendon_clip_duration(c->clip));
    tendon_status st = tendon_skeleton_rest_pose(s->skeleton, &c->pose);
    if (st == TENDON_OK)
        st = tendon_clip_sample_cursor_f32(c->clip, t, c->cursor,
                                           tendon_clip_timeline_count(c->clip), &c->pose);
    if (st == TENDON_OK)
        st = tendon_pose_palette(s->skeleton, s->binding, &c->pose, NULL, c->model, c->palette);
    if (st == TENDON_OK)
        st = tendon_skin_mesh_apply(s->mesh, c->palette, c->vertices, NULL, NULL);
    return st;
}

static int worker(void *arg)
{
    slice *w = arg;
    for (size_t i = 0; i < w->count; ++i) {
        character *c = w->first + i;
        c->status = animate(w->shared, c, w->frame);
        if (c->status != TENDON_OK)
            snprintf(c->message, sizeof c->message, "%s", tendon_error_message());
        c->hash[w->frame] = fnv1a(c->vertices,
                                  3 * tendon_skin_mesh_vertex_count(w->shared->mesh) *
                                      sizeof(float));
    }
    return 0;
}

/* Run every frame for the whole crowd on `threads` threads; 0 on success. */
static int run_crowd(const shared *s, character *crowd, int threads)
{
    for (int frame = 0; frame < FRAMES; ++frame) {
        thrd_t ids[MAX_THREADS];
        slice slices[MAX_THREADS];
        for (int i = 0; i < threads; ++i) {
            const size_t begin = (size_t)i * CHARACTERS / (size_t)threads;
            const size_t end = (size_t)(i + 1) * CHARACTERS / (size_t)threads;
            slices[i] = (slice){s, crowd + begin, end - begin, frame};
            if (thrd_create(&ids[i], worker, &slices[i]) != thrd_success) {
                fprintf(stderr, "crowd: cannot start thread %d of %d\n", i + 1, threads);
                for (int k = 0; k < i; ++k) /* the ones started still touch the crowd */
                    thrd_join(ids[k], NULL);
                return 1;
            }
        }
        for (int i = 0; i < threads; ++i)
            thrd_join(ids[i], NULL);
        for (size_t i = 0; i < CHARACTERS; ++i) {
            if (crowd[i].status != TENDON_OK) {
                fprintf(stderr, "crowd: character %zu: %s: %s\n", i,
                        tendon_status_name(crowd[i].status), crowd[i].message);
                return 1;
            }
        }
    }
    return 0;
}

static int make_crowd(const shared *s, character *crowd)
{
    const size_t joints = tendon_skeleton_joint_count(s->skeleton);
    const size_t palette = tendon_skin_binding_palette_count(s->binding);
    const size_t vertices = tendon_skin_mesh_vertex_count(s->mesh);
    for (size_t i = 0; i < CHARACTERS; ++i) {
        character *c = crowd + i;
        memset(c, 0, sizeof *c);
        c->clip = s->clips[i % 2];
        c->offset_sec = 0.037 * (double)i;
        c->rate = 0.9 + 0.01 * (double)(i % 20);
        if (tendon_pose_create(joints, &c->pose) != TENDON_OK)
            return 1;
        c->cursor = calloc(tendon_clip_timeline_count(c->clip) + 1, sizeof *c->cursor);
        c->model = malloc(16 * joints * sizeof(float));
        c->palette = malloc(16 * palette * sizeof(float));
        c->vertices = malloc(3 * vertices * sizeof(float));
        if (!c->cursor || !c->model || !c->palette || !c->vertices)
            return 1;
    }
    return 0;
}

static void free_crowd(character *crowd)
{
    for (size_t i = 0; i < CHARACTERS; ++i) {
        tendon_pose_destroy(&crowd[i].pose);
        free(crowd[i].cursor);
        free(crowd[i].model);
        free(crowd[i].palette);
        free(crowd[i].vertices);
    }
}

static double now_sec(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#define TRY(call)                                                                              \
    do {                                                                                       \
        tendon_status try_status_ = (call);                                                    \
        if (try_status_ != TENDON_OK) {                                                        \
            fprintf(stderr, "crowd: %s: %s\n", #call, tendon_error_message());                  \
            return 1;                                                                          \
        }                                                                                      \
    } while (0)

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: crowd MODEL.glb [THREADS]\n");
        return 2;
    }
    int threads = 4;
    if (argc == 3) { /* digits only: "4abc", "-1" or "" is refused, not read as a number */
        char *end = NULL;
        const long v = strtol(argv[2], &end, 10);
        threads = (end == argv[2] || *end != '\0' || v < 1 || v > MAX_THREADS) ? 0 : (int)v;
    }
    if (threads < 1 || threads > MAX_THREADS) {
        fprintf(stderr, "crowd: THREADS is %s; expected 1 to %d\n", argv[2], MAX_THREADS);
        return 2;
    }

    /* ---- load time: everything shared ---------------------------------------------------- */
    tendon_gltf *model = NULL;
    TRY(tendon_gltf_load(argv[1], &model));
    shared s;
    s.skeleton = tendon_gltf_skeleton(model);
    size_t walk, run;
    TRY(tendon_gltf_find_animation(model, "Walk", &walk));
    TRY(tendon_gltf_find_animation(model, "Run", &run));
    s.clips[0] = tendon_gltf_animation(model, walk);
    s.clips[1] = tendon_gltf_animation(model, run);
    /* Fox.glb: one skin, used by mesh 0 (play_and_skin.c finds the pair in general) */
    s.binding = tendon_gltf_skin(model, 0);
    tendon_gltf_primitive prim;
    TRY(tendon_gltf_get_primitive(model, 0, 0, &prim));
    if (!s.binding || !prim.joints || !prim.weights) {
        fprintf(stderr, "crowd: %s: mesh 0 is not skinned by skin 0\n", argv[1]);
        return 1;
    }
    float *weights = malloc(4 * prim.vertex_count * sizeof *weights);
    if (!weights)
        return 1;
    memcpy(weights, prim.weights, 4 * prim.vertex_count * sizeof *weights);
    TRY(tendon_skin_weights_normalize(weights, 0, 4, prim.vertex_count));
    tendon_skin_job job;
    memset(&job, 0, sizeof job);
    job.palette_count = tendon_skin_binding_palette_count(s.binding);
    job.vertex_count = prim.vertex_count;
    job.influence_count = 4;
    job.joint_index_type = TENDON_JOINT_INDEX_U16;
    job.joints = prim.joints;
    job.weights = weights;
    job.positions = prim.positions;
    tendon_skin_mesh *mesh = NULL;
    TRY(tendon_skin_mesh_create(&job, &mesh));
    s.mesh = mesh;

    /* ---- the crowd, twice: on one thread, then on `threads` ------------------------------ */
    static character one[CHARACTERS], many[CHARACTERS];
    if (make_crowd(&s, one) || make_crowd(&s, many))
        return 1;
    double start = now_sec();
    if (run_crowd(&s, one, 1))
        return 1;
    const double one_sec = now_sec() - start;
    start = now_sec();
    if (run_crowd(&s, many, threads))
        return 1;
    const double many_sec = now_sec() - start;

    int same = 1;
    uint64_t all = 1469598103934665603u;
    for (size_t i = 0; i < CHARACTERS; ++i) {
        same = same && memcmp(one[i].hash, many[i].hash, sizeof one[i].hash) == 0 &&
               memcmp(one[i].vertices, many[i].vertices,
                      3 * prim.vertex_count * sizeof(float)) == 0;
        all = (all ^ fnv1a(many[i].hash, sizeof many[i].hash)) * 1099511628211u;
    }
    /* the characters differ from each other (they are not all one pose) */
    const int varied = one[0].hash[FRAMES - 1] != one[1].hash[FRAMES - 1] &&
                       one[0].hash[FRAMES - 1] != one[2].hash[FRAMES - 1];

    printf("crowd: %d characters x %zu vertices x %d frames on %d threads\n", CHARACTERS,
           prim.vertex_count, FRAMES, threads);
    printf("crowd: per frame: %.3f ms on 1 thread, %.3f ms on %d (wall clock, this run)\n",
           1e3 * one_sec / FRAMES, 1e3 * many_sec / FRAMES, threads);
    printf("crowd: hash of every vertex of every frame: %016llx\n", (unsigned long long)all);
    if (!same)
        fprintf(stderr, "crowd: FAILED: the threaded crowd differs from the single-threaded one\n");
    if (!varied)
        fprintf(stderr, "crowd: FAILED: the characters did not get different poses\n");
    printf("crowd: %s\n", same && varied ? "ok" : "FAILED");

    free_crowd(many);
    free_crowd(one);
    tendon_skin_mesh_destroy(mesh);
    free(weights);
    tendon_gltf_destroy(model);
    return same && varied ? 0 : 1;
}
