/*
 * `tendon demo`'s pipeline (tools/tendon/demo_core.c) at a small size: every ISA that runs here
 * gives the scalar hash at every stage; the spring rig evaluates its source as often as
 * tendon/spring.h says a sample calls its anchor, and its chains turn their joints; the hashes
 * follow the input; a crowd's hashes are the same on 1, 2 and 8 threads and combine the
 * characters' own runs in order; the JSON report parses and every number in it is positive and
 * finite; a disagreement is reported as one; the chart and the picture of the chains are whole.
 * Built and linked from tools/CMakeLists.txt (it needs the tool's sources and nettle); in a
 * build without the tendon command (TENDON_BUILD_TOOLS=OFF) it only says so and is skipped.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>

#if !__has_include("demo.h")
int main(void)
{
    fputs("test_demo: the tendon command is not built (TENDON_BUILD_TOOLS=OFF): skipped\n", stderr);
    return 77;
}
#else
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nettle/sha2.h>

#include "demo.h"
#include "support.h"

enum { VERTICES = 3000, FRAMES = 9 };
static const double FPS = 30.0;

static demo_scene scene;
static demo_result scalar;

static void setup(void)
{
    char why[512];
    ck_assert_msg(demo_scene_builtin(VERTICES, &scene, why, sizeof why) == 0, "%s", why);
    ck_assert_msg(demo_run(&scene, tendon_kernels_for(TENDON_ISA_SCALAR), FRAMES, FPS, NULL, NULL,
                           &scalar, why, sizeof why) == 0,
                  "%s", why);
}

static void teardown(void) { demo_scene_destroy(&scene); }

START_TEST(character_shape)
{
    /* the character: 65 body joints, about the vertex count asked, springs, morphs */
    ck_assert_uint_eq(scene.body_joint_count, 65);
    /* hair: 2 chains of a root and 6 links; coat: 12 chains of a root and 5 links */
    ck_assert_uint_eq(scene.joint_count, 65 + 2 * 7 + 12 * 6);
    ck_assert_ptr_nonnull(scene.rig);
    ck_assert_uint_eq(scene.chain_count, 14);
    ck_assert_uint_eq(tendon_spring_rig_link_count(scene.rig), 2 * 6 + 12 * 5);
    /* two substep grids (hair, coat): every chain of one shares its evaluation */
    ck_assert_uint_eq(tendon_spring_rig_grid_count(scene.rig), 2);
    ck_assert_uint_ge(scene.vertex_count, VERTICES * 8 / 10);
    ck_assert_uint_le(scene.vertex_count, VERTICES * 14 / 10); /* every limb has 2 rings at least */
    ck_assert_uint_eq(scene.target_count, 4);
    ck_assert_uint_gt(scene.morph_count, 0);
    ck_assert_ptr_nonnull(scene.mask);
    /* the mask: 0 on the legs and hips, ramping up from spine1 (1/3, 2/3, 1 three bones down) */
    size_t spine1, thigh, chest;
    ck_assert_int_eq(tendon_skeleton_find_joint(scene.skeleton, "spine1", &spine1), TENDON_OK);
    ck_assert_int_eq(tendon_skeleton_find_joint(scene.skeleton, "thigh_l", &thigh), TENDON_OK);
    ck_assert_int_eq(tendon_skeleton_find_joint(scene.skeleton, "chest", &chest), TENDON_OK);
    ck_assert(scene.mask[thigh] == 0.0f && scene.mask[1] == 0.0f);
    ck_assert(scene.mask[spine1] == (float)(1.0 / 3.0));
    ck_assert(scene.mask[chest] == 1.0f);
    /* one mesh; skin weights: each vertex's four sum to one within a few float ulp */
    ck_assert_uint_eq(scene.mesh_count, 1);
    const demo_mesh *m = &scene.meshes[0];
    ck_assert_uint_eq(m->vertex_count, scene.vertex_count);
    for (size_t v = 0; v < m->vertex_count; ++v) {
        const float *w = m->weights + 4 * v;
        ck_assert(fabs(((double)w[0] + w[1] + w[2] + w[3]) - 1.0) < 1e-6);
        for (int i = 0; i < 4; ++i)
            ck_assert_uint_lt(m->joints[4 * v + i], m->palette_count);
    }
}
END_TEST

START_TEST(every_isa_agrees)
{
    const tendon_kernels *k = isa_table_or_skip(_i);
    if (!k)
        return;
    demo_result r;
    char why[512];
    ck_assert_msg(demo_run(&scene, k, FRAMES, FPS, NULL, NULL, &r, why, sizeof why) == 0, "%s",
                  why);
    for (int st = 0; st < DEMO_STAGE_COUNT; ++st) {
        char a[65], b[65];
        demo_hex(scalar.hash[st], a);
        demo_hex(r.hash[st], b);
        ck_assert_msg(memcmp(scalar.hash[st], r.hash[st], 32) == 0, "%s, stage %s: %s, scalar %s",
                      tendon_isa_name((tendon_isa)_i), DEMO_STAGE_NAME[st], b, a);
    }
    /* the rig evaluates its source at each grid's substeps + 2 times, as a spring sample calls
       its anchor (tendon/spring.h's formula, counted by the scene from the settings) */
    ck_assert_uint_eq(r.anchor_evaluations, scene.anchor_evaluations * FRAMES);
    ck_assert_uint_eq(scene.anchor_evaluations, 189 + 128);
}
END_TEST

START_TEST(hashes_follow_the_input)
{
    /* one more frame changes every stage's hash; the same run again gives the same ones */
    demo_result more, again;
    char why[512];
    const tendon_kernels *k = tendon_kernels_for(TENDON_ISA_SCALAR);
    ck_assert(demo_run(&scene, k, FRAMES + 1, FPS, NULL, NULL, &more, why, sizeof why) == 0);
    ck_assert(demo_run(&scene, k, FRAMES, FPS, NULL, NULL, &again, why, sizeof why) == 0);
    for (int st = 0; st < DEMO_STAGE_COUNT; ++st) {
        ck_assert_msg(memcmp(scalar.hash[st], more.hash[st], 32) != 0, "stage %s",
                      DEMO_STAGE_NAME[st]);
        ck_assert_mem_eq(scalar.hash[st], again.hash[st], 32);
    }
}
END_TEST

/* Every number inside v is finite and > 0; counts them into *n. */
static void all_positive(const json_t *v, const char *where, size_t *n)
{
    if (json_is_number(v)) {
        const double d = json_number_value(v);
        ck_assert_msg(isfinite(d) && d > 0, "%s is %g", where, d);
        ++*n;
    } else if (json_is_object(v)) {
        const char *key;
        json_t *m;
        json_object_foreach((json_t *)v, key, m) all_positive(m, key, n);
    } else if (json_is_array(v)) {
        for (size_t i = 0; i < json_array_size(v); ++i)
            all_positive(json_array_get(v, i), where, n);
    } else {
        /* strings ("NaN", "Infinity" are how the report would spell a non-finite number) */
        if (json_is_string(v)) {
            const char *s = json_string_value(v);
            ck_assert_msg(strcmp(s, "NaN") && strcmp(s, "Infinity") && strcmp(s, "-Infinity"),
                          "%s is %s", where, s);
        }
    }
}

START_TEST(json_report_parses)
{
    demo_result r[2] = {scalar, scalar};
    const tendon_kernels *best = NULL;
    for (int i = TENDON_ISA_COUNT - 1; i > 0 && !best; --i)
        best = tendon_kernels_for((tendon_isa)i);
    char why[512];
    ck_assert(demo_run(&scene, best ? best : tendon_kernels_for(TENDON_ISA_SCALAR), FRAMES, FPS,
                       NULL, NULL, &r[1], why, sizeof why) == 0);
    json_t *report = demo_report_json(&scene, r, 2, FPS, "chart.svg");
    char *text = json_dumps(report, JSON_COMPACT);
    json_decref(report);
    ck_assert_ptr_nonnull(text);
    json_error_t err;
    json_t *back = json_loads(text, JSON_DECODE_INT_AS_REAL, &err);
    free(text);
    ck_assert_msg(back != NULL, "%s", err.text);
    size_t numbers = 0;
    all_positive(back, "report", &numbers);
    ck_assert_uint_gt(numbers, 50);
    ck_assert(json_is_true(json_object_get(back, "agree")));
    const json_t *isas = json_object_get(back, "isas");
    ck_assert_uint_eq(json_array_size(isas), 2);
    const json_t *stages = json_object_get(json_array_get(isas, 1), "stages");
    ck_assert_uint_eq(json_object_size(stages), DEMO_STAGE_COUNT);
    for (int st = 0; st < DEMO_STAGE_COUNT; ++st) {
        const json_t *s = json_object_get(stages, DEMO_STAGE_NAME[st]);
        ck_assert_ptr_nonnull(s);
        ck_assert_uint_eq(strlen(json_string_value(json_object_get(s, "sha256"))), 64);
        ck_assert_ptr_nonnull(json_object_get(s, "ns_per_frame"));
        ck_assert_ptr_nonnull(json_object_get(s, "ns_per_item"));
    }
    ck_assert(json_number_value(json_object_get(json_object_get(back, "character"), "vertices")) ==
              (double)scene.vertex_count);
    json_decref(back);
}
END_TEST

/* A crowd's hashes: the same on 1, 2 and 8 threads, and SHA-256 over the characters' own runs
   (character c from c·DEMO_CROWD_PHASE_SEC) in character order. */
START_TEST(crowd_hashes_any_thread_count)
{
    enum { N = 3, F = 4 };
    const tendon_kernels *k = tendon_kernels_for(TENDON_ISA_SCALAR);
    for (int i = TENDON_ISA_COUNT - 1; i > 0; --i)
        if (tendon_kernels_for((tendon_isa)i) &&
            tendon_isa_compiled((tendon_isa)i) == TENDON_ISA_NATIVE) {
            k = tendon_kernels_for((tendon_isa)i);
            break;
        }
    char why[512];
    demo_crowd_result r[3];
    static const size_t threads[3] = {1, 2, 8};
    for (int i = 0; i < 3; ++i) {
        ck_assert_msg(demo_run_crowd(&scene, k, N, threads[i], F, FPS, &r[i], why, sizeof why) ==
                          0,
                      "%s", why);
        ck_assert(r[i].wall_ns > 0);
    }
    ck_assert_mem_eq(r[0].hash, r[1].hash, sizeof r[0].hash);
    ck_assert_mem_eq(r[0].hash, r[2].hash, sizeof r[0].hash);
    uint8_t each[N][DEMO_STAGE_COUNT][32];
    for (size_t c = 0; c < N; ++c) {
        demo_result one;
        const demo_run_options opt = {(double)c * DEMO_CROWD_PHASE_SEC, NULL};
        ck_assert(demo_run_ex(&scene, k, F, FPS, &opt, NULL, NULL, &one, why, sizeof why) == 0);
        memcpy(each[c], one.hash, sizeof one.hash);
    }
    /* the characters differ (their phases do), and combine in order */
    ck_assert(memcmp(each[0][DEMO_SKIN], each[1][DEMO_SKIN], 32) != 0);
    for (int st = 0; st < DEMO_STAGE_COUNT; ++st) {
        struct sha256_ctx sha;
        uint8_t want[32];
        sha256_init(&sha);
        for (size_t c = 0; c < N; ++c)
            sha256_update(&sha, 32, each[c][st]);
        sha256_digest(&sha, 32, want);
        ck_assert_msg(memcmp(want, r[0].hash[st], 32) == 0, "stage %s", DEMO_STAGE_NAME[st]);
    }
}
END_TEST

/* The rig turns the chains' joints: the skinned hair follows; the picture is written whole. */
START_TEST(springs_turn_joints_and_picture)
{
    demo_capture cap;
    memset(&cap, 0, sizeof cap);
    cap.count = 2;
    cap.frame[0] = 0, cap.frame[1] = FRAMES - 1;
    const size_t links = tendon_spring_rig_link_count(scene.rig);
    for (int i = 0; i < 2; ++i) {
        cap.model[i] = malloc(16 * scene.joint_count * sizeof(float));
        cap.links[i] = malloc(3 * links * sizeof(float));
    }
    demo_result r;
    char why[512];
    const demo_run_options opt = {0.0, &cap};
    ck_assert(demo_run_ex(&scene, tendon_kernels_for(TENDON_ISA_SCALAR), FRAMES, FPS, &opt, NULL,
                          NULL, &r, why, sizeof why) == 0);
    ck_assert_mem_eq(r.hash, scalar.hash, sizeof r.hash); /* capturing changes nothing */
    /* each hair joint lies on the ray from its parent toward its sprung position */
    for (int i = 0; i < 2; ++i) {
        for (size_t c = 0; c < 2; ++c) {
            const demo_chain *ch = &scene.chains[c];
            const size_t first = tendon_spring_rig_chain_first_link(scene.rig, c);
            for (size_t k = 1; k < ch->joint_count; ++k) {
                const float *a = cap.model[i] + 16 * ch->joints[k - 1] + 12;
                const float *b = cap.model[i] + 16 * ch->joints[k] + 12;
                const float *p = cap.links[i] + 3 * (first + k - 1);
                double u[3], v[3], cr[3];
                for (int e = 0; e < 3; ++e)
                    u[e] = b[e] - a[e], v[e] = p[e] - a[e];
                cr[0] = u[1] * v[2] - u[2] * v[1], cr[1] = u[2] * v[0] - u[0] * v[2];
                cr[2] = u[0] * v[1] - u[1] * v[0];
                const double nu = sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
                const double nv = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
                ck_assert(nv > 1e-4);
                ck_assert_msg(sqrt(cr[0] * cr[0] + cr[1] * cr[1] + cr[2] * cr[2]) / (nu * nv) < 1e-4,
                              "frame %zu chain %zu joint %zu off its ray", cap.frame[i], c, k);
            }
        }
    }
    char path[] = "/tmp/tendon-test-springs-XXXXXX";
    const int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(demo_write_springs_svg(path, &scene, &cap, FPS), 0);
    FILE *f = fopen(path, "r");
    static char buf[1 << 20];
    const size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    remove(path);
    buf[n] = '\0';
    ck_assert(strncmp(buf, "<svg ", 5) == 0 && n > 7 && strcmp(buf + n - 7, "</svg>\n") == 0);
    ck_assert_ptr_nonnull(strstr(buf, "frame 0)"));
    ck_assert_ptr_nonnull(strstr(buf, "<circle"));
    for (int i = 0; i < 2; ++i)
        free(cap.model[i]), free(cap.links[i]);
}
END_TEST

START_TEST(disagreement_is_reported)
{
    demo_result r[2] = {scalar, scalar};
    r[1].hash[DEMO_SKIN][31] ^= 1;
    ck_assert(demo_stage_agrees(r, 2, DEMO_SAMPLE));
    ck_assert(!demo_stage_agrees(r, 2, DEMO_SKIN));
    json_t *report = demo_report_json(&scene, r, 2, FPS, NULL);
    ck_assert(json_is_false(json_object_get(report, "agree")));
    json_decref(report);
}
END_TEST

START_TEST(svg_chart)
{
    char path[] = "/tmp/tendon-test-demo-XXXXXX";
    const int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    /* scalar, then an ISA built through emulation here (NEON on x86-64, SSE2 on AArch64) with
       half scalar's time: it must not be shown as a 2x speed-up */
    demo_result r[2] = {scalar, scalar};
    size_t count = 1;
    for (int isa = 0; isa < TENDON_ISA_COUNT; ++isa) {
        if (tendon_isa_compiled((tendon_isa)isa) == TENDON_ISA_EMULATED) {
            r[1].isa = isa;
            for (int st = 0; st < DEMO_STAGE_COUNT; ++st)
                r[1].ns_per_frame[st] = r[0].ns_per_frame[st] / 2;
            count = 2;
            break;
        }
    }
    ck_assert_int_eq(demo_write_svg(path, &scene, r, count), 0);
    FILE *f = fopen(path, "r");
    static char buf[1 << 17];
    const size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    remove(path);
    buf[n] = '\0';
    ck_assert(strncmp(buf, "<svg ", 5) == 0);
    ck_assert(n > 7 && strcmp(buf + n - 7, "</svg>\n") == 0);
    for (int st = 0; st < DEMO_STAGE_COUNT; ++st)
        ck_assert_ptr_nonnull(strstr(buf, DEMO_STAGE_NAME[st]));
    /* microseconds as µs, never "us"; an x axis with a 0 tick and µs ticks */
    ck_assert_ptr_nonnull(strstr(buf, " &#181;s</text>"));
    ck_assert_ptr_null(strstr(buf, " us"));
    ck_assert_ptr_nonnull(strstr(buf, "text-anchor=\"middle\">0</text>"));
    if (count == 2) {
        ck_assert_ptr_nonnull(strstr(buf, "(emulated: not a speed-up)"));
        ck_assert_ptr_null(strstr(buf, "2.00&#215;"));
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("demo");
    TCase *tc = tcase_create("demo");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, character_shape);
    tcase_add_loop_test(tc, every_isa_agrees, 0, TENDON_ISA_COUNT);
    tcase_add_test(tc, hashes_follow_the_input);
    tcase_add_test(tc, json_report_parses);
    tcase_add_test(tc, disagreement_is_reported);
    tcase_add_test(tc, crowd_hashes_any_thread_count);
    tcase_add_test(tc, springs_turn_joints_and_picture);
    tcase_add_test(tc, svg_chart);
    suite_add_tcase(s, tc);
    return run_suite(s);
}
#endif
