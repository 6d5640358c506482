/*
 * The glTF importer when an allocation fails (tendon/gltf.h): every allocation of a load made to
 * fail in turn — the first, then the second, … until the load needs no more — must give
 * TENDON_ERR_NOMEM and no model, never a crash. tendon_gltf_destroy of a half-built model read
 * through a NULL pointer when one array of a pair was allocated and the other was not (the skins'
 * node lists, the animations' channel maps: found by a review helper).
 *
 * How: this suite is linked with -Wl,--wrap for malloc, calloc and realloc (tests/CMakeLists.txt),
 * so the statically linked library's calls reach the __wrap_ functions below; jansson, a shared
 * library, allocates as usual. In the static aarch64 build it and the C library are linked in,
 * so their allocations fail in turn too: fopen's among them, which the importer reported as an
 * I/O error until it read errno, and jansson's, some of which it reports as a syntax error or
 * not at all (a string cut short). A leak on any of these paths is the ASan build's to report.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <tendon/gltf.h>

#include "support.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
char *__real_strdup(const char *s);

/* The allocation to fail, counted from 0 since the count was reset; −1: none. */
static long fail_at = -1, counted = 0;

/* A failing allocation sets errno as malloc does (ENOMEM): in a static build the C library's
   own allocations (fopen's FILE, stdio's buffers) come here too, and report through it. */
static int fails(void)
{
    if (counted++ == fail_at) { /* every allocation counted; fail_at −1 fails none */
        errno = ENOMEM;
        return 1;
    }
    return 0;
}

void *__wrap_malloc(size_t size) { return fails() ? NULL : __real_malloc(size); }
void *__wrap_calloc(size_t n, size_t size) { return fails() ? NULL : __real_calloc(n, size); }
void *__wrap_realloc(void *p, size_t size) { return fails() ? NULL : __real_realloc(p, size); }
char *__wrap_strdup(const char *s) { return fails() ? NULL : __real_strdup(s); }

/* Whether jansson and the C library allocate through the wrappers too (a static build): a JSON
   parse alone then counts dozens. */
static int libraries_linked_in(void)
{
    counted = 0, fail_at = -1;
    json_decref(json_loads("{\"a\": [1, \"x\"]}", 0, NULL));
    return counted > 0;
}

/* A failed load is out of memory — or, with a static jansson, a format error: jansson does not
   report every allocation that fails inside its lexer (some become a syntax error, some a
   string cut short, which then fails its own checks). The file is valid, so a format error
   there comes from that; the importer cannot tell it apart. */
static int refused_for_memory(tendon_status st, int static_libs)
{
    return st == TENDON_ERR_NOMEM || (st == TENDON_ERR_FORMAT && static_libs);
}

static const char *const MODELS[] = {
    "khronos-sample-assets/SimpleSkin/SimpleSkin.gltf",
    "asset-generator/Animation_Skin/Animation_Skin_00.gltf", /* skins, an external buffer */
    "khronos-sample-assets/Fox/Fox.glb",                     /* three animations */
    "khronos-sample-assets/SimpleMorph/SimpleMorph.gltf",    /* morph targets */
};

START_TEST(every_allocation_fails_in_turn)
{
    const char *rel = MODELS[_i];
    char *path = malloc(strlen(TENDON_TEST_DATA_DIR) + strlen("/gltf/") + strlen(rel) + 1);
    sprintf(path, "%s/gltf/%s", TENDON_TEST_DATA_DIR, rel);
    /* the allocations of a load that fails nowhere */
    tendon_gltf *g = NULL;
    counted = 0, fail_at = -1;
    ck_assert_msg(tendon_gltf_load(path, &g) == TENDON_OK, "%s", tendon_error_message());
    const long total = counted;
    tendon_gltf_destroy(g);
    /* (in a static build the library's own count stays in the hundreds) */
    const int static_libs = libraries_linked_in();
    /* each of them failing: out of memory and no model — or, where the C library copes with
       the failure itself (stdio falls back to an unbuffered file in a static build), the model */
    long refused = 0, tried = 0;
    /* every allocation where a load makes a few hundred (the library's own, in a build that
       links the C library and jansson dynamically); in a static build, whose count includes
       theirs (thousands for Fox, under an emulator), about 400 of them evenly spread */
    const long step = 1 + total / 400;
    for (long n = 0; n < total; n += step) {
        g = (tendon_gltf *)1;
        counted = 0, fail_at = n, ++tried;
        const tendon_status st = tendon_gltf_load(path, &g);
        fail_at = -1;
        if (st == TENDON_OK) {
            ck_assert_ptr_nonnull(g);
            tendon_gltf_destroy(g);
            continue;
        }
        ck_assert_msg(refused_for_memory(st, static_libs), "%s, allocation %ld of %ld failing: %s (%s)",
                      rel, n, total, tendon_status_name(st), tendon_error_message());
        ck_assert_ptr_null(g);
        ++refused;
    }
    ck_assert_msg(refused > 10, "%s: %ld of %ld allocations refused", rel, refused, total);
    printf("%s: %ld of its %ld allocations failed, one a load: TENDON_ERR_NOMEM %ld times\n", rel,
           tried, total, refused);
    free(path);
}
END_TEST

/* The names (nodes, skins, animations: strdup) and the notes (realloc) of a load: an allocation
   of theirs that fails gave TENDON_OK with the name or the note missing (review 34: the joint
   "tail" renamed node1, the animation "Walk" not found, a skipped channel not noted). Each
   allocation failing in turn must give TENDON_ERR_NOMEM — or, where the C library copes with
   its own failure (a static build), a model with every name and note. */
static const char NAMED[] =
    "{\"asset\":{\"version\":\"2.0\"},"
    "\"nodes\":[{\"name\":\"hips\",\"children\":[1]},{\"name\":\"tail\"}],"
    "\"skins\":[{\"name\":\"body\",\"joints\":[0,1]}],"
    "\"buffers\":[{\"uri\":\"data:application/octet-stream;base64,"
    "AAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/AACAPwAAgD8=\",\"byteLength\":32}],"
    "\"bufferViews\":[{\"buffer\":0,\"byteLength\":8},{\"buffer\":0,\"byteOffset\":8,"
    "\"byteLength\":24}],"
    "\"accessors\":[{\"bufferView\":0,\"componentType\":5126,\"count\":2,\"type\":\"SCALAR\"},"
    "{\"bufferView\":1,\"componentType\":5126,\"count\":2,\"type\":\"VEC3\"}],"
    "\"animations\":[{\"name\":\"Walk\",\"channels\":[{\"sampler\":0,\"target\":"
    "{\"path\":\"translation\"}},{\"sampler\":0,\"target\":{\"node\":1,\"path\":"
    "\"translation\"}}],\"samplers\":[{\"input\":0,\"output\":1}]}]}";

START_TEST(names_and_notes_or_nomem)
{
    const int static_libs = libraries_linked_in();
    tendon_gltf *g = NULL;
    counted = 0, fail_at = -1;
    ck_assert_msg(tendon_gltf_load_memory(NAMED, sizeof NAMED - 1, "named.gltf", NULL, &g) ==
                      TENDON_OK, "%s", tendon_error_message());
    const long total = counted;
    const char *got = tendon_gltf_notes(g);
    char *notes = malloc(strlen(got) + 1);
    memcpy(notes, got, strlen(got) + 1);
    ck_assert_ptr_nonnull(strstr(notes, "channels[0]: no target node: skipped"));
    tendon_gltf_destroy(g);
    for (long n = 0; n < total; ++n) {
        g = (tendon_gltf *)1;
        counted = 0, fail_at = n;
        const tendon_status st = tendon_gltf_load_memory(NAMED, sizeof NAMED - 1, "named.gltf",
                                                         NULL, &g);
        fail_at = -1;
        if (st != TENDON_OK) {
            ck_assert_msg(refused_for_memory(st, static_libs), "allocation %ld of %ld failing: "
                          "%s (%s)", n, total, tendon_status_name(st), tendon_error_message());
            ck_assert_ptr_null(g);
            continue;
        }
        size_t idx;
        const char *node0 = tendon_gltf_node_name(g, 0), *skin0 = tendon_gltf_skin_name(g, 0);
        ck_assert_msg(node0 && strcmp(node0, "hips") == 0, "allocation %ld failing: node 0 "
                      "named %s, TENDON_OK", n, node0 ? node0 : "(null)");
        ck_assert_msg(skin0 && strcmp(skin0, "body") == 0, "allocation %ld failing: skin 0 "
                      "named %s, TENDON_OK", n, skin0 ? skin0 : "(null)");
        ck_assert_msg(tendon_skeleton_find_joint(tendon_gltf_skeleton(g), "tail", &idx) ==
                          TENDON_OK, "allocation %ld failing: %s, TENDON_OK", n,
                      tendon_error_message());
        ck_assert_msg(tendon_gltf_find_animation(g, "Walk", &idx) == TENDON_OK,
                      "allocation %ld failing: %s, TENDON_OK", n, tendon_error_message());
        ck_assert_msg(strcmp(tendon_gltf_notes(g), notes) == 0, "allocation %ld failing: notes "
                      "\"%s\", TENDON_OK", n, tendon_gltf_notes(g));
        tendon_gltf_destroy(g);
    }
    free(notes);
}
END_TEST

static Suite *gltf_alloc_suite(void)
{
    Suite *s = suite_create("gltf_alloc");
    TCase *tc = tcase_create("nomem");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, every_allocation_fails_in_turn, 0,
                        (int)(sizeof MODELS / sizeof MODELS[0]));
    tcase_add_test(tc, names_and_notes_or_nomem);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return run_suite(gltf_alloc_suite()); }
