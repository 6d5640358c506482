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
    /* the C library and jansson allocate through the wrappers too (a static build): a JSON
       parse alone then counts dozens (the library's own count stays in the hundreds) */
    counted = 0;
    json_decref(json_loads("{\"a\": [1, \"x\"]}", 0, NULL));
    const int static_libs = counted > 0;
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
        /* jansson, linked in statically, does not report every allocation that fails inside
           its lexer: some become a syntax error, some a string cut short (a data: URI then
           fails its own checks). The file is valid, so a format error there comes from that;
           the importer cannot tell it apart. Without a static jansson: out of memory only. */
        const int json_oom = st == TENDON_ERR_FORMAT && static_libs;
        ck_assert_msg(st == TENDON_ERR_NOMEM || json_oom, "%s, allocation %ld of %ld failing: %s (%s)",
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

static Suite *gltf_alloc_suite(void)
{
    Suite *s = suite_create("gltf_alloc");
    TCase *tc = tcase_create("nomem");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, every_allocation_fails_in_turn, 0,
                        (int)(sizeof MODELS / sizeof MODELS[0]));
    suite_add_tcase(s, tc);
    return s;
}

int main(void) { return run_suite(gltf_alloc_suite()); }
