/*
 * The glTF importer when an allocation fails (tendon/gltf.h): every allocation of a load made to
 * fail in turn — the first, then the second, … until the load needs no more — must give
 * TENDON_ERR_NOMEM and no model, never a crash. tendon_gltf_destroy of a half-built model read
 * through a NULL pointer when one array of a pair was allocated and the other was not (the skins'
 * node lists, the animations' channel maps: found by a review helper).
 *
 * How: this suite is linked with -Wl,--wrap for malloc, calloc and realloc (tests/CMakeLists.txt),
 * so the statically linked library's calls reach the __wrap_ functions below; jansson, a shared
 * library, allocates as usual. A leak on any of these paths is the ASan build's to report.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <tendon/gltf.h>

#include "support.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);

/* The allocation to fail, counted from 0 since the count was reset; −1: none. */
static long fail_at = -1, counted = 0;

static int fails(void) { return fail_at >= 0 && counted++ == fail_at; }

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
    long points = -1;
    for (long n = 0; n < 100000 && points < 0; ++n) {
        tendon_gltf *g = (tendon_gltf *)1;
        counted = 0, fail_at = n;
        const tendon_status st = tendon_gltf_load(path, &g);
        fail_at = -1;
        if (st == TENDON_OK) { /* the load made n allocations: every one has failed once */
            ck_assert_ptr_nonnull(g);
            tendon_gltf_destroy(g);
            points = n;
            break;
        }
        ck_assert_msg(st == TENDON_ERR_NOMEM, "%s, allocation %ld failing: %s (%s)", rel, n,
                      tendon_status_name(st), tendon_error_message());
        ck_assert_ptr_null(g);
    }
    ck_assert_msg(points > 10, "%s: %ld allocations", rel, points);
    printf("%s: each of %ld allocations failed in turn: TENDON_ERR_NOMEM\n", rel, points);
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
