/*
 * tendon benchmarks — clip sampling at random times (docs/clips.md).
 *
 * A clip of `count` LINEAR tracks over count/3 + 1 joints: translation, rotation and scale in
 * turn (a third of them slerps), 61 keys each (2 s at 30 keys per second; rotations random unit
 * quaternions, so the slerp path is what gets measured). Each call samples at the next of 4096
 * seeded random times in [−0.1, 2.1] s (a seek, not forward play: no cursor helps). The item is
 * a track: ns per item is ns per track. The `_forward` cases play forward at 60 Hz instead, with
 * a cursor (tendon_clip_sample_cursor). The `_f32` cases are the same through the float32 tier
 * (tendon_clip_sample_f32, tendon_clip_sample_cursor_f32). "Distinct" clips give every track its
 * own, jittered times (a timeline per track); the others share one times array.
 */
#include "clip_cases.h"

#include <stdlib.h>
#include <string.h>

#include <tendon/clip.h>
#include <tendon/pose.h>

/* The samplers on a given table (src/clip.c; internal, linked from the static library). */
void tendon_clip_sample_table(const tendon_kernels *kt, const tendon_clip *clip, double time_sec,
                              tendon_pose *pose, float *packed);

void tendon_clip_sample_table_cursor(const tendon_kernels *kt, const tendon_clip *clip,
                                     double time_sec, uint32_t *cursor, tendon_pose *pose);

void tendon_clip_sample_table_f32(const tendon_kernels *kt, const tendon_clip *clip,
                                  double time_sec, tendon_pose *pose, float *packed);

void tendon_clip_sample_table_cursor_f32(const tendon_kernels *kt, const tendon_clip *clip,
                                         double time_sec, uint32_t *cursor, tendon_pose *pose);

enum { KEYS = 61, TIMES = 4096 };

typedef struct clip_fx {
    tendon_clip *clip;
    tendon_pose pose;
    double times[TIMES];
    size_t next;
    uint32_t *cursor; /* forward play: one hint per timeline */
    double now;
} clip_fx;

static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static double unit(uint64_t *s) { return (double)(mix(s) >> 11) * 0x1.0p-53; }

static int setup(tendon_bench_fixture *fx, uint64_t seed, int distinct)
{
    clip_fx *c = calloc(1, sizeof *c);
    fx->data = c;
    if (!c)
        return 1;
    const size_t n = fx->count, joints = n / 3 + 1;
    tendon_track_desc *tracks = calloc(n, sizeof *tracks);
    float *times = malloc(n * KEYS * sizeof(float));
    float *values = malloc(n * KEYS * 4 * sizeof(float));
    int rc = 1;
    if (!tracks || !times || !values)
        goto out;
    for (size_t i = 0; i < n; ++i) {
        float *tm = times + (distinct ? i * KEYS : 0);
        if (distinct || i == 0)
            for (size_t k = 0; k < KEYS; ++k)
                tm[k] = (float)((double)k / 30.0 + (distinct ? unit(&seed) * 0.01 : 0.0));
        float *v = values + i * KEYS * 4;
        const size_t w = i % 3 == 1 ? 4 : 3;
        for (size_t k = 0; k < KEYS; ++k) {
            if (w == 4) {
                double q[4], l = 0;
                for (int e = 0; e < 4; ++e)
                    q[e] = unit(&seed) * 2 - 1, l += q[e] * q[e];
                for (int e = 0; e < 4; ++e)
                    v[4 * k + (size_t)e] = (float)(q[e] / __builtin_sqrt(l));
            } else {
                for (size_t e = 0; e < 3; ++e)
                    v[3 * k + e] = (float)(unit(&seed) * 4 - 2);
            }
        }
        tracks[i].joint = (uint32_t)(i / 3);
        tracks[i].path = (tendon_track_path)(i % 3);
        tracks[i].interpolation = TENDON_INTERP_LINEAR;
        tracks[i].width = w;
        tracks[i].key_count = KEYS;
        tracks[i].times = tm;
        tracks[i].values = v;
    }
    tendon_clip_desc d = {joints, n, tracks};
    if (tendon_clip_create(&d, &c->clip) != TENDON_OK ||
        tendon_pose_create(joints, &c->pose) != TENDON_OK)
        goto out;
    for (size_t i = 0; i < TIMES; ++i)
        c->times[i] = -0.1 + 2.2 * unit(&seed);
    c->cursor = calloc(tendon_clip_timeline_count(c->clip) + 1, sizeof *c->cursor);
    if (!c->cursor)
        goto out;
    fx->out = c->pose.rotation;
    rc = 0;
out:
    free(tracks);
    free(times);
    free(values);
    return rc;
}

int tendon_bench_clip_setup(tendon_bench_fixture *fx, uint64_t seed) { return setup(fx, seed, 0); }
int tendon_bench_clip_setup_distinct(tendon_bench_fixture *fx, uint64_t seed)
{
    return setup(fx, seed, 1);
}

void tendon_bench_clip_teardown(tendon_bench_fixture *fx)
{
    clip_fx *c = fx->data;
    if (!c)
        return;
    tendon_clip_destroy(c->clip);
    tendon_pose_destroy(&c->pose);
    free(c->cursor);
    free(c);
    fx->data = NULL;
}

void tendon_bench_run_clip_sample(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    clip_fx *c = fx->data;
    tendon_clip_sample_table(k, c->clip, c->times[c->next], &c->pose, NULL);
    c->next = (c->next + 1) % TIMES;
}

/* Forward play at 60 Hz through the 2 s clip (wrapping), with a cursor. */
void tendon_bench_run_clip_forward(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    clip_fx *c = fx->data;
    c->now += 1.0 / 60.0;
    if (c->now >= 2.0)
        c->now -= 2.0;
    tendon_clip_sample_table_cursor(k, c->clip, c->now, c->cursor, &c->pose);
}

void tendon_bench_run_clip_sample_f32(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    clip_fx *c = fx->data;
    tendon_clip_sample_table_f32(k, c->clip, c->times[c->next], &c->pose, NULL);
    c->next = (c->next + 1) % TIMES;
}

void tendon_bench_run_clip_forward_f32(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    clip_fx *c = fx->data;
    c->now += 1.0 / 60.0;
    if (c->now >= 2.0)
        c->now -= 2.0;
    tendon_clip_sample_table_cursor_f32(k, c->clip, c->now, c->cursor, &c->pose);
}
