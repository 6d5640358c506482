/*
 * Helpers shared by test_skeleton.c and test_skin.c (header-only, static): buffers placed at a
 * chosen misalignment, random skeletons and poses, cglm's T·R·S as the independent oracle, and
 * comparisons that print both values in hex on failure.
 */
#ifndef TENDON_TEST_SKIN_SUPPORT_H
#define TENDON_TEST_SKIN_SUPPORT_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cglm/cglm.h>

#include "support.h"

/* The ISA loop's table, or skip (the caller returns). */
#define ISA_TABLE_OR_RETURN(k)                                                                     \
    const tendon_kernels *k = isa_table_or_skip(_i);                                               \
    if (!k)                                                                                        \
        return

/** A heap buffer whose data starts `offset` bytes past a 64-byte boundary. */
typedef struct tbuf {
    void *raw;
    unsigned char *p;
} tbuf;

static inline tbuf tbuf_make(size_t bytes, size_t offset)
{
    tbuf b;
    const size_t total = ((bytes + offset + 64) + 63) & ~(size_t)63;
    b.raw = tendon_aligned_alloc(64, total);
    ck_assert_ptr_nonnull(b.raw);
    memset(b.raw, 0xA5, total); /* poison: a kernel that skips an element shows */
    b.p = (unsigned char *)b.raw + offset;
    return b;
}
static inline void tbuf_free(tbuf *b)
{
    tendon_aligned_free(b->raw);
    b->raw = NULL;
    b->p = NULL;
}
#define TBUF_F(b) ((float *)(void *)(b).p)

/** Random parents: −1 for joint 0 and ~8% of the others, else a uniform earlier joint. */
static inline void random_parents(test_rng *r, size_t n, int32_t *parents)
{
    for (size_t j = 0; j < n; ++j)
        parents[j] = (j == 0 || rng_unit(r) < 0.08) ? -1 : (int32_t)(rng_u64(r) % j);
}

/**
 * A random pose: translations in ±2 m, unit quaternions, scales of magnitude [0.5, 2] with a
 * negative component on ~15% of joints (mirrors).
 */
static inline void random_pose(test_rng *r, const tendon_pose *p)
{
    for (size_t j = 0; j < p->joint_count; ++j) {
        for (int c = 0; c < 3; ++c) {
            p->translation[3 * j + c] = (float)rng_range(r, -2.0, 2.0);
            p->scale[3 * j + c] = (float)rng_range(r, 0.5, 2.0);
        }
        if (rng_unit(r) < 0.15)
            p->scale[3 * j + (rng_u64(r) % 3)] *= -1.0f;
        rng_unit_quat(r, p->rotation + 4 * j);
    }
}

/** cglm's T·R·S of one joint (glm_translate_make, glm_quat_mat4, glm_scale_make, glm_mat4_mul). */
static inline void cglm_trs(const float t[3], const float q[4], const float s[3], float out[16])
{
    mat4 T, R, S, TR, M;
    vec3 tv = {t[0], t[1], t[2]}, sv = {s[0], s[1], s[2]};
    versor qv = {q[0], q[1], q[2], q[3]};
    glm_translate_make(T, tv);
    glm_quat_mat4(qv, R);
    glm_scale_make(S, sv);
    glm_mat4_mul(T, R, TR);
    glm_mat4_mul(TR, S, M);
    memcpy(out, M, sizeof M);
}

static inline void mat_from_cglm(mat4 m, float out[16]) { memcpy(out, m, 16 * sizeof(float)); }
static inline void mat_to_cglm(const float in[16], mat4 m) { memcpy(m, in, 16 * sizeof(float)); }

static inline float mat_max_abs(const float *m)
{
    float mx = 0.0f;
    for (int e = 0; e < 16; ++e)
        mx = fabsf(m[e]) > mx ? fabsf(m[e]) : mx;
    return mx;
}

/** Every element within tol·max(1, max|expected|); the message names what and where. */
static inline void assert_mat_near(const float *got, const float *expected, double tol,
                                   const char *what, size_t index)
{
    const double scale = fmax(1.0, (double)mat_max_abs(expected));
    for (int e = 0; e < 16; ++e)
        ck_assert_msg(fabs((double)got[e] - (double)expected[e]) <= tol * scale,
                      "%s %zu element %d: got %.9g, expected %.9g (tolerance %g × %g)", what,
                      index, e, (double)got[e], (double)expected[e], tol, scale);
}

/** Bitwise equal (NaNs by class), else fail naming the ISA, the case and both values in hex. */
static inline void assert_same_floats(const float *got, const float *want, size_t n,
                                      const char *isa, const char *what, size_t count)
{
    const long d = first_float_diff(got, want, n);
    ck_assert_msg(d < 0,
                  "%s %s (count %zu): float %ld differs: %s 0x%08x (%.9g), scalar 0x%08x (%.9g)", isa, what, count, d, isa, d < 0 ? 0u : float_bits(got[d]),
                  d < 0 ? 0.0 : (double)got[d], d < 0 ? 0u : float_bits(want[d]),
                  d < 0 ? 0.0 : (double)want[d]);
}

/**
 * The counts every ISA test sweeps: 0..67 (every tail of every vector width, and the first few
 * full blocks) and one long run, SWEEP_LONG: a prime, so it is no multiple of any width or
 * stage, and long enough for every loop's steady state. (It was 10,000 until the suites' time
 * mattered: four fifths of the skinning suites' work, under ASan and qemu minutes, for no path
 * that 1031 does not take.)
 */
#define SWEEP_COUNT 69
#define SWEEP_LONG 1031
static inline size_t sweep_count(int i) { return i < 68 ? (size_t)i : SWEEP_LONG; }

#endif
