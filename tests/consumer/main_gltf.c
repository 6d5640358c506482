/*
 * The installed glTF component's consumer: loads Fox.glb (argv[1]) through libtendon_gltf,
 * samples its walk over the named skeleton and builds the skin's palette, all through the
 * installed headers and libraries; checks that the importer's refusal reaches
 * tendon_error_message() across the library boundary, and that the version macros match the
 * library it runs against.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <tendon/gltf.h>
#include <tendon/tendon.h>

#if TENDON_VERSION_NUMBER < TENDON_MAKE_VERSION(0, 2, 0)
#error "the version macros of tendon 0.2 are missing"
#endif

static int fails;

static void expect(int ok, const char *what)
{
    if (!ok) {
        fprintf(stderr, "consumer_gltf: WRONG: %s (%s)\n", what, tendon_error_message());
        ++fails;
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: consumer_gltf Fox.glb\n");
        return 2;
    }
    expect(strcmp(tendon_version(), TENDON_VERSION_STRING_LITERAL) == 0,
           "tendon_version() is the version the headers name");

    /* a refusal: the importer's message, set in libtendon_gltf, read from libtendon */
    tendon_gltf *none = NULL;
    expect(tendon_gltf_load("no-such-model.glb", &none) == TENDON_ERR_IO && none == NULL,
           "a missing file is TENDON_ERR_IO");
    expect(strstr(tendon_error_message(), "no-such-model.glb") != NULL,
           "the message names the missing file");

    tendon_gltf *fox = NULL;
    if (tendon_gltf_load(argv[1], &fox) != TENDON_OK) {
        fprintf(stderr, "consumer_gltf: cannot load %s: %s\n", argv[1], tendon_error_message());
        return 1;
    }
    const tendon_skeleton *sk = tendon_gltf_skeleton(fox);
    const size_t n = tendon_skeleton_joint_count(sk);
    expect(n == 26 && tendon_gltf_skin_count(fox) == 1, "Fox: 26 nodes, one skin");
    size_t walk = 99, tail = 0;
    expect(tendon_gltf_find_animation(fox, "Walk", &walk) == TENDON_OK && walk == 1,
           "animation 1 is Walk");
    expect(tendon_skeleton_find_joint(sk, "b_Tail01_012", &tail) == TENDON_OK &&
               strcmp(tendon_skeleton_joint_name(sk, tail), "b_Tail01_012") == 0,
           "joints are named from their nodes");

    tendon_pose pose;
    float model[16 * 26], palette[16 * 24], rest[16 * 24];
    const tendon_skin_binding *skin = tendon_gltf_skin(fox, 0);
    expect(tendon_skin_binding_palette_count(skin) == 24, "the skin has 24 joints");
    if (n != 26 || tendon_skin_binding_palette_count(skin) != 24 ||
        tendon_pose_create(n, &pose) != TENDON_OK) {
        tendon_gltf_destroy(fox);
        return 1;
    }
    expect(tendon_skeleton_rest_pose(sk, &pose) == TENDON_OK, "rest pose");
    expect(tendon_pose_palette(sk, skin, &pose, NULL, model, rest) == TENDON_OK,
           "the rest palette");
    expect(tendon_clip_sample(tendon_gltf_animation(fox, walk), 0.25, &pose) == TENDON_OK,
           "sampling Walk at 0.25 s");
    expect(tendon_pose_model_matrices(sk, &pose, NULL, model) == TENDON_OK, "model matrices");
    expect(tendon_palette(skin, model, n, palette) == TENDON_OK, "palette");
    int finite = 1;
    for (size_t i = 0; i < 16 * 24; ++i)
        finite = finite && isfinite(palette[i]);
    /* a palette matrix is affine: its bottom row is (0, 0, 0, 1) */
    expect(finite && palette[3] == 0.0f && palette[15] == 1.0f, "a finite, affine palette");
    /* the walk moves the tail (palette entry 13, b_Tail01_012) away from its rest */
    expect(memcmp(palette + 16 * 13, rest + 16 * 13, 16 * sizeof(float)) != 0,
           "Walk at 0.25 s moves the tail");
    printf("tendon %s gltf consumer: %zu joints, Walk at 0.25 s, tail palette translation "
           "(%g, %g, %g): %s\n", tendon_version(), n, palette[16 * 13 + 12],
           palette[16 * 13 + 13], palette[16 * 13 + 14], fails ? "WRONG" : "ok");
    tendon_pose_destroy(&pose);
    tendon_gltf_destroy(fox);
    return fails ? 1 : 0;
}
