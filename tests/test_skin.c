/*
 * Linear-blend skinning, skin weight normalisation and morph targets (tendon/skin.h).
 *
 * Oracles: hand-computed vertices (non-uniform and negative scale, a rotation, unnormalised and
 * all-zero weights); bug case anim-bug-18 from tests/data/bugs/bugs.json; cglm (glm_mat4_mulv3
 * per influence, glm_mat3_inv of the blended 3×3) within a stated tolerance; and for every ISA
 * the scalar table bit for bit over vertex counts 0..67 and 1031, 1–4 influences, uint8 and
 * uint16 indices, with and without normals, packed / interleaved / unaligned / in place.
 */
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "skin_bufs.h"

static void set_translate_scale(float *m, float tx, float ty, float tz, float sx, float sy,
                                float sz)
{
    memset(m, 0, 16 * sizeof(float));
    m[0] = sx, m[5] = sy, m[10] = sz, m[15] = 1.0f;
    m[12] = tx, m[13] = ty, m[14] = tz;
}

/* A packed job over caller arrays (strides 0: the public function resolves them). */
static tendon_skin_job packed_job(const float *palette, size_t palette_count, size_t n_vert,
                                  size_t n_inf, tendon_joint_index_type type, const void *joints,
                                  const float *weights, const float *pos, float *out_pos,
                                  const float *nrm, float *out_nrm)
{
    tendon_skin_job j;
    memset(&j, 0, sizeof j);
    j.palette = palette, j.palette_count = palette_count;
    j.vertex_count = n_vert, j.influence_count = n_inf;
    j.joint_index_type = type, j.joints = joints, j.weights = weights;
    j.positions = pos, j.out_positions = out_pos, j.normals = nrm, j.out_normals = out_nrm;
    return j;
}

static void assert_vec3_near(const float *got, const double *want, double tol, const char *what)
{
    for (int c = 0; c < 3; ++c)
        ck_assert_msg(fabs((double)got[c] - want[c]) <= tol,
                      "%s component %d: got %.9g, expected %.9g (tolerance %g)", what, c,
                      (double)got[c], want[c], tol);
}

/* ---- hand-computed vertices ----------------------------------------------------------------- */

START_TEST(test_skin_hand)
{
    float pal[4 * 16];
    set_translate_scale(pal, 1, 2, 3, 1, 1, 1);       /* 0: translate (1,2,3) */
    set_translate_scale(pal + 16, 0, 0, 0, 2, 1, 1);  /* 1: scale (2,1,1) */
    set_translate_scale(pal + 32, 0, 0, 0, -1, 1, 1); /* 2: mirror in x */
    set_translate_scale(pal + 48, 0, 0, 0, 1, 1, 1);  /* 3: 90° about z (exact) */
    pal[48 + 0] = 0, pal[48 + 1] = 1, pal[48 + 4] = -1, pal[48 + 5] = 0;

    /* 0.25·P0 + 0.75·P1 = diag(1.75, 1, 1) + (0.25, 0.5, 0.75): position exact;
     * normal (1,1,0) by the inverse transpose diag(1/1.75, 1, 1), normalised */
    const uint8_t j2[2] = {0, 1};
    const float w2[2] = {0.25f, 0.75f}, p[3] = {1, 1, 1}, n[3] = {1, 1, 0};
    float op[3], on[3];
    tendon_skin_job job = packed_job(pal, 4, 1, 2, TENDON_JOINT_INDEX_U8, j2, w2, p, op, n, on);
    ck_assert_int_eq(tendon_skin(&job), TENDON_OK);
    const double want_p[3] = {2.0, 1.5, 1.75};
    const double want_n[3] = {0.4961389383568338, 0.8682431421244592, 0.0};
    assert_vec3_near(op, want_p, 0.0, "blended position");
    assert_vec3_near(on, want_n, 1e-6, "normal by the blended inverse transpose");

    /* mirror: det < 0, the normal stays outside: A⁻ᵀ(1,0,0) = (−1,0,0), (0,1,0) unchanged */
    const float pm[6] = {1, 2, 3, 0, 0, 0}, nm[6] = {1, 0, 0, 0, 1, 0};
    const uint8_t jmm[2] = {2, 2};
    const float wmm[2] = {1, 1};
    float opm[6], onm[6];
    job = packed_job(pal, 4, 2, 1, TENDON_JOINT_INDEX_U8, jmm, wmm, pm, opm, nm, onm);
    ck_assert_int_eq(tendon_skin(&job), TENDON_OK);
    const double mp0[3] = {-1, 2, 3}, mn0[3] = {-1, 0, 0}, mn1[3] = {0, 1, 0};
    assert_vec3_near(opm, mp0, 0.0, "mirrored position");
    assert_vec3_near(onm, mn0, 0.0, "mirrored normal x");
    assert_vec3_near(onm + 3, mn1, 0.0, "mirrored normal y");

    /* rotation, uint16 indices into a larger palette */
    float *big = calloc(300 * 16, sizeof(float));
    memcpy(big + 299 * 16, pal + 48, 64);
    const uint16_t j16 = 299;
    const float w1 = 1.0f, pr[3] = {1, 0, 5}, nr[3] = {1, 0, 0};
    float opr[3], onr[3];
    job = packed_job(big, 300, 1, 1, TENDON_JOINT_INDEX_U16, &j16, &w1, pr, opr, nr, onr);
    ck_assert_int_eq(tendon_skin(&job), TENDON_OK);
    const double rp[3] = {0, 1, 5}, rn[3] = {0, 1, 0};
    assert_vec3_near(opr, rp, 0.0, "rotated position");
    assert_vec3_near(onr, rn, 0.0, "rotated normal");
    free(big);

    /* weights as given: (0.5, 0.25) on one translate scales the vertex about the origin */
    const uint8_t ju[2] = {0, 0};
    const float wu[2] = {0.5f, 0.25f};
    job = packed_job(pal, 4, 1, 2, TENDON_JOINT_INDEX_U8, ju, wu, p, op, NULL, NULL);
    ck_assert_int_eq(tendon_skin(&job), TENDON_OK);
    const double up[3] = {0.75 * 2, 0.75 * 3, 0.75 * 4};
    assert_vec3_near(op, up, 0.0, "unnormalised weights");
}
END_TEST

/* Tangents: by the blended 3×3, renormalised; w flips exactly where det A < 0 (skin.h). */
START_TEST(test_skin_tangent_hand)
{
    float pal[4 * 16];
    set_translate_scale(pal, 1, 2, 3, 2, 1, 1);       /* 0: scale (2,1,1), translate */
    set_translate_scale(pal + 16, 0, 0, 0, -1, 1, 1); /* 1: mirror in x */
    set_translate_scale(pal + 32, 0, 0, 0, 1, 1, 1);  /* 2: 90° about z (exact) */
    pal[32 + 0] = 0, pal[32 + 1] = 1, pal[32 + 4] = -1, pal[32 + 5] = 0;
    set_translate_scale(pal + 48, 0, 0, 0, 1, 1, 1); /* 3: identity */
    enum { V = 6 };
    /* vertex: joints, weights */
    const uint8_t j[2 * V] = {0, 0, 1, 1, 1, 1, 2, 2, 1, 3, 1, 3};
    const float w[2 * V] = {1, 0, 1, 0, 1, 0, 1, 0, 0.75f, 0.25f, 0.25f, 0.75f};
    const float p[3 * V] = {0};
    const float n[3 * V] = {1, -1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 1, 0};
    const float t[4 * V] = {1, 1, 0, 1,  1, 0, 0, 1,  1, 0, 0, -1,
                            1, 0, 0, -1, 1, 0, 0, 1,  1, 0, 0, 1};
    float op[3 * V], on[3 * V], ot[4 * V];
    tendon_skin_job job = packed_job(pal, 4, V, 2, TENDON_JOINT_INDEX_U8, j, w, p, op, n, on);
    job.tangents = t, job.out_tangents = ot;
    ck_assert_int_eq(tendon_skin(&job), TENDON_OK);
    const double r5 = 1.0 / sqrt(5.0);
    const double want[4 * V] = {
        2 * r5, r5, 0, 1,  /* scaled (2,1,1): (2,1,0)/√5, w kept */
        -1, 0, 0, -1,      /* mirrored: (−1,0,0), w flips */
        -1, 0, 0, 1,       /* mirrored, w = −1 flips to +1 */
        0, 1, 0, -1,       /* rotated 90° about z: w kept */
        -1, 0, 0, -1,      /* 0.75 mirror + 0.25 identity = diag(−0.5, 1, 1): det < 0 */
        1, 0, 0, 1,        /* 0.25 mirror + 0.75 identity = diag(0.5, 1, 1): det > 0 */
    };
    for (int v = 0; v < V; ++v) {
        for (int c = 0; c < 4; ++c)
            ck_assert_msg(fabs((double)ot[4 * v + c] - want[4 * v + c]) <= 1e-7,
                          "vertex %d tangent[%d] = %.9g, expected %.9g", v, c,
                          (double)ot[4 * v + c], want[4 * v + c]);
        const double dot = (double)on[3 * v] * ot[4 * v] + (double)on[3 * v + 1] * ot[4 * v + 1] +
                           (double)on[3 * v + 2] * ot[4 * v + 2];
        ck_assert_msg(fabs(dot) <= 1e-7, "vertex %d: normal·tangent = %g", v, dot);
    }
    /* a zero blended 3×3 (all-zero weights): a zero tangent, w kept (det = 0 is not < 0) */
    const float wz[2] = {0, 0}, tz[4] = {1, 0, 0, -1};
    float otz[4];
    job = packed_job(pal, 4, 1, 2, TENDON_JOINT_INDEX_U8, j, wz, p, op, n, on);
    job.tangents = tz, job.out_tangents = otz;
    ck_assert_int_eq(tendon_skin(&job), TENDON_OK);
    ck_assert(otz[0] == 0.0f && otz[1] == 0.0f && otz[2] == 0.0f && otz[3] == -1.0f);
}
END_TEST

/*
 * Tangent ⟂ normal: for any invertible A, (A⁻ᵀn)·(A t) = n·t, so a tangent perpendicular to its
 * normal stays so; what is left is rounding. On a rigid palette (rotations within 90° of the
 * identity, translations in ±3 m) with 1–4 influences, unit n and unit t ⟂ n:
 * |n'·t'| ≤ 2e-6 (the bound docs/skinning.md states), on every ISA.
 */
START_TEST(test_skin_tangent_perpendicular)
{
    ISA_TABLE_OR_RETURN(k);
    test_rng r;
    rng_seed(&r, 0x7A9 + (uint64_t)_i);
    enum { PC = 24, NV = 4000 };
    float pal[16 * PC];
    for (size_t q = 0; q < PC; ++q) {
        double axis[3], len = 0;
        for (int c = 0; c < 3; ++c) {
            axis[c] = rng_range(&r, -1, 1);
            len += axis[c] * axis[c];
        }
        len = sqrt(len);
        const double half = rng_range(&r, -0.785398163, 0.785398163); /* angle up to 90° */
        const float quat[4] = {(float)(axis[0] / len * sin(half)), (float)(axis[1] / len * sin(half)),
                               (float)(axis[2] / len * sin(half)), (float)cos(half)};
        const float tr[3] = {(float)rng_range(&r, -3, 3), (float)rng_range(&r, -3, 3),
                             (float)rng_range(&r, -3, 3)};
        const float one[3] = {1, 1, 1};
        cglm_trs(tr, quat, one, pal + 16 * q);
    }
    uint8_t *jn = malloc(4 * NV);
    float *w = malloc(16 * NV), *p = malloc(12 * NV), *n = malloc(12 * NV), *t = malloc(16 * NV);
    float *op = malloc(12 * NV), *on = malloc(12 * NV), *ot = malloc(16 * NV);
    double worst = 0;
    for (size_t ni = 1; ni <= 4; ++ni) {
        for (size_t v = 0; v < NV; ++v) {
            double sum = 0;
            for (size_t i = 0; i < ni; ++i) {
                jn[ni * v + i] = (uint8_t)(rng_u64(&r) % PC);
                w[ni * v + i] = (float)rng_range(&r, 0.05, 1);
                sum += w[ni * v + i];
            }
            for (size_t i = 0; i < ni; ++i)
                w[ni * v + i] = (float)(w[ni * v + i] / sum);
            double a[3], b[3], c3[3], la = 0, lc = 0;
            for (int c = 0; c < 3; ++c) {
                p[3 * v + c] = (float)rng_range(&r, -1, 1);
                a[c] = rng_range(&r, -1, 1);
                b[c] = rng_range(&r, -1, 1);
            }
            c3[0] = a[1] * b[2] - a[2] * b[1], c3[1] = a[2] * b[0] - a[0] * b[2];
            c3[2] = a[0] * b[1] - a[1] * b[0];
            for (int c = 0; c < 3; ++c)
                la += a[c] * a[c], lc += c3[c] * c3[c];
            for (int c = 0; c < 3; ++c) {
                n[3 * v + c] = (float)(a[c] / sqrt(la));
                t[4 * v + c] = (float)(c3[c] / sqrt(lc));
            }
            t[4 * v + 3] = 1.0f;
        }
        tendon_skin_job job = {.palette = pal, .palette_count = PC, .vertex_count = NV,
                               .influence_count = ni, .joint_index_type = TENDON_JOINT_INDEX_U8,
                               .joints = jn, .joints_stride = ni, .weights = w,
                               .weights_stride = 4 * ni, .positions = p, .positions_stride = 12,
                               .out_positions = op, .out_positions_stride = 12, .normals = n,
                               .normals_stride = 12, .out_normals = on, .out_normals_stride = 12,
                               .tangents = t, .tangents_stride = 16, .out_tangents = ot,
                               .out_tangents_stride = 16};
        k->skin(&job);
        for (size_t v = 0; v < NV; ++v) {
            const double in_dot = (double)n[3 * v] * t[4 * v] + (double)n[3 * v + 1] * t[4 * v + 1] +
                                  (double)n[3 * v + 2] * t[4 * v + 2];
            const double dot = (double)on[3 * v] * ot[4 * v] + (double)on[3 * v + 1] * ot[4 * v + 1] +
                               (double)on[3 * v + 2] * ot[4 * v + 2];
            const double e = fabs(dot) - fabs(in_dot);
            worst = e > worst ? e : worst;
            ck_assert_msg(fabs(dot) <= 2e-6 + fabs(in_dot),
                          "%s influences=%zu vertex %zu: n'·t' = %g (n·t = %g)",
                          tendon_isa_name((tendon_isa)_i), ni, v, dot, in_dot);
            ck_assert(ot[4 * v + 3] == 1.0f);
        }
    }
    printf("test_skin_tangent_perpendicular %s: max |n'·t'| − |n·t| = %.3g\n",
           tendon_isa_name((tendon_isa)_i), worst);
    free(jn), free(w), free(p), free(n), free(t), free(op), free(on), free(ot);
}
END_TEST

/* All-zero weights: the documented policy — vertex at the origin, zero normal, never NaN. */
START_TEST(test_skin_all_zero_weights)
{
    float pal[16];
    set_translate_scale(pal, 4, 5, 6, 2, 2, 2);
    const uint8_t j[4] = {0, 0, 0, 0};
    const float w[4] = {0, 0, 0, 0}, p[3] = {1, 2, 3}, n[3] = {0, 0, 1};
    float op[3] = {NAN, NAN, NAN}, on[3] = {NAN, NAN, NAN};
    tendon_skin_job job = packed_job(pal, 1, 1, 4, TENDON_JOINT_INDEX_U8, j, w, p, op, n, on);
    ck_assert_int_eq(tendon_skin(&job), TENDON_OK);
    for (int c = 0; c < 3; ++c) {
        ck_assert_msg(op[c] == 0.0f && on[c] == 0.0f, "component %d: position %g, normal %g", c,
                      (double)op[c], (double)on[c]);
    }
}
END_TEST

/* ---- bug case anim-bug-18 --------------------------------------------------------------------- */

static json_t *load_bug(const char *id)
{
    char *text = read_test_file("bugs/bugs.json", NULL);
    json_error_t err;
    json_t *root = json_loads(text, JSON_DECODE_INT_AS_REAL, &err);
    free(text);
    ck_assert_msg(root != NULL, "bugs.json: %s", err.text);
    size_t i;
    json_t *c;
    json_array_foreach(root, i, c)
    {
        if (strcmp(json_string_value(json_object_get(c, "id")), id) == 0) {
            json_incref(c);
            json_decref(root);
            return c;
        }
    }
    json_decref(root);
    ck_abort_msg("bug case %s not found", id);
    return NULL;
}

static void json_floats(json_t *a, float *out, size_t n)
{
    ck_assert_uint_eq(json_array_size(a), n);
    for (size_t i = 0; i < n; ++i)
        out[i] = (float)json_number_value(json_array_get(a, i));
}

/* The case gives each palette matrix as rows; ours are column-major. */
static void json_rows_to_matrix(json_t *rows, float *m)
{
    for (size_t r = 0; r < 4; ++r)
        for (size_t c = 0; c < 4; ++c)
            m[4 * c + r] = (float)json_number_value(json_array_get(json_array_get(rows, r), c));
}

START_TEST(anim_bug_18_skin_weight_normalisation)
{
    json_t *c = load_bug("anim-bug-18-skin-weight-normalisation");
    json_t *in = json_object_get(c, "input"), *ex = json_object_get(c, "expected");
    const double tol = json_number_value(json_object_get(c, "tolerance"));
    float w[4], zero[4], want_w[4], p[3], want_p[3];
    json_floats(json_object_get(in, "raw_weights"), w, 4);
    json_floats(json_object_get(in, "zero_weights_edge"), zero, 4);
    json_floats(json_object_get(ex, "normalised_weights"), want_w, 4);
    json_floats(json_object_get(in, "vertex_position"), p, 3);
    json_floats(json_object_get(ex, "skinned_position"), want_p, 3);
    uint8_t joints[4];
    json_t *ja = json_object_get(in, "joints");
    for (size_t i = 0; i < 4; ++i)
        joints[i] = (uint8_t)json_number_value(json_array_get(ja, i));
    /* joints 2 and 3 carry weight 0 but are still read: give them entries (identity) */
    float pal[4 * 16];
    set_translate_scale(pal + 32, 0, 0, 0, 1, 1, 1);
    set_translate_scale(pal + 48, 0, 0, 0, 1, 1, 1);
    json_rows_to_matrix(json_object_get(in, "palette_joint0"), pal);
    json_rows_to_matrix(json_object_get(in, "palette_joint1"), pal + 16);

    /* normalise to unit sum (not unit length), then skin */
    ck_assert_int_eq(tendon_skin_weights_normalize(w, 0, 4, 1), TENDON_OK);
    double sum = 0.0;
    for (int i = 0; i < 4; ++i) {
        ck_assert_msg(fabs((double)w[i] - (double)want_w[i]) <= tol, "weight %d: %g, expected %g",
                      i, (double)w[i], (double)want_w[i]);
        sum += w[i];
    }
    ck_assert_msg(fabs(sum - 1.0) <= tol, "normalised weights sum to %.9g, not 1", sum);
    float out[3];
    tendon_skin_job job = packed_job(pal, 4, 1, 4, TENDON_JOINT_INDEX_U8, joints, w, p, out,
                                     NULL, NULL);
    ck_assert_int_eq(tendon_skin(&job), TENDON_OK);
    for (int i = 0; i < 3; ++i)
        ck_assert_msg(fabs((double)out[i] - (double)want_p[i]) <= tol,
                      "skinned position %d: %.9g, expected %.9g", i, (double)out[i],
                      (double)want_p[i]);
    /* the failure signature (unit L2 length: 0.707107 each, vertex at 14.142136) is absent */
    ck_assert_msg(fabs((double)out[0] - 14.142136) > 1.0, "unit-length normalisation signature");

    /* the zero-weights edge: normalise gives the whole vertex to its first influence; skinning
     * the raw zeros gives the origin. Either way finite, never NaN. */
    float z2[4];
    memcpy(z2, zero, sizeof z2);
    ck_assert_int_eq(tendon_skin_weights_normalize(z2, 0, 4, 1), TENDON_OK);
    ck_assert(z2[0] == 1.0f && z2[1] == 0.0f && z2[2] == 0.0f && z2[3] == 0.0f);
    job.weights = z2;
    ck_assert_int_eq(tendon_skin(&job), TENDON_OK);
    ck_assert_msg(out[0] == 10.0f && out[1] == 0.0f && out[2] == 0.0f,
                  "all-zero weights normalised: vertex follows joint 0 to (10,0,0), got (%g,%g,%g)",
                  (double)out[0], (double)out[1], (double)out[2]);
    job.weights = zero;
    ck_assert_int_eq(tendon_skin(&job), TENDON_OK);
    for (int i = 0; i < 3; ++i)
        ck_assert_msg(isfinite(out[i]) && out[i] == 0.0f, "raw zero weights: component %d is %g",
                      i, (double)out[i]);
    json_decref(c);
}
END_TEST

/* ---- weight normalisation ----------------------------------------------------------------- */

START_TEST(test_normalize)
{
    float w[12] = {1, 1, 1, 1, 0.2f, 0.3f, 0, 0.5f, 0, -0.0f, 0, 0};
    ck_assert_int_eq(tendon_skin_weights_normalize(w, 0, 4, 3), TENDON_OK);
    for (int i = 0; i < 4; ++i)
        ck_assert(w[i] == 0.25f);
    /* 0.2f + 0.3f + 0 + 0.5f, each divided by that float sum */
    const float s = ((0.2f + 0.3f) + 0.0f) + 0.5f;
    ck_assert(w[4] == 0.2f / s && w[5] == 0.3f / s && w[6] == 0.0f && w[7] == 0.5f / s);
    ck_assert(w[8] == 1.0f && w[9] == 0.0f && w[10] == 0.0f && w[11] == 0.0f); /* ±0: all zero */

    /* interleaved: 2 influences inside a 20-byte vertex; the other bytes are untouched */
    float v[10] = {9, 3, 1, 9, 9, 9, 0, 0, 9, 9};
    ck_assert_int_eq(tendon_skin_weights_normalize(v + 1, 20, 2, 2), TENDON_OK);
    ck_assert(v[0] == 9 && v[1] == 0.75f && v[2] == 0.25f && v[3] == 9 && v[4] == 9);
    ck_assert(v[5] == 9 && v[6] == 1.0f && v[7] == 0.0f && v[8] == 9 && v[9] == 9);

    /* bad weights: refused, naming the vertex and influence, nothing written */
    float bad[8] = {0.5f, 0.5f, 0, 0, 0.25f, -0.25f, 1, 0};
    ck_assert_int_eq(tendon_skin_weights_normalize(bad, 0, 4, 2), TENDON_ERR_VALUE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "vertex 1, influence 1"));
    ck_assert(bad[0] == 0.5f); /* vertex 0 was valid but is not written either */
    bad[5] = NAN;
    ck_assert_int_eq(tendon_skin_weights_normalize(bad, 0, 4, 2), TENDON_ERR_VALUE);
    bad[5] = INFINITY;
    ck_assert_int_eq(tendon_skin_weights_normalize(bad, 0, 4, 2), TENDON_ERR_VALUE);
    float huge[2] = {3e38f, 3e38f};
    ck_assert_int_eq(tendon_skin_weights_normalize(huge, 0, 2, 1), TENDON_ERR_VALUE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "overflows"));
    ck_assert_int_eq(tendon_skin_weights_normalize(w, 0, 0, 1), TENDON_ERR_VALUE);
    ck_assert_int_eq(tendon_skin_weights_normalize(w, 0, 5, 1), TENDON_ERR_VALUE);
    ck_assert_int_eq(tendon_skin_weights_normalize(w, 8, 4, 1), TENDON_ERR_VALUE);  /* < 16 */
    ck_assert_int_eq(tendon_skin_weights_normalize(w, 18, 4, 2), TENDON_ERR_VALUE); /* not ×4 */
    ck_assert_int_eq(tendon_skin_weights_normalize((float *)(void *)((char *)w + 2), 0, 1, 1),
                     TENDON_ERR_VALUE);
    ck_assert_int_eq(tendon_skin_weights_normalize(NULL, 0, 4, 1), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_skin_weights_normalize(NULL, 0, 4, 0), TENDON_OK);
    ck_assert_int_eq(tendon_skin_weights_normalize(w, 0, 4, SIZE_MAX / 8), TENDON_ERR_OVERFLOW);
}
END_TEST

/* ---- cglm as the oracle ---------------------------------------------------------------------- */

START_TEST(test_skin_cglm)
{
    test_rng r;
    rng_seed(&r, 0xC61);
    const size_t pc = 40, nv = 2000;
    float *pal = malloc(pc * 64);
    for (size_t k = 0; k < pc; ++k) {
        /* rotations within ~40° of identity, positive scales: blends stay well conditioned */
        float q[4] = {(float)rng_range(&r, -0.35, 0.35), (float)rng_range(&r, -0.35, 0.35),
                      (float)rng_range(&r, -0.35, 0.35), 1.0f};
        const float l = sqrtf(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + 1.0f);
        for (int c = 0; c < 4; ++c)
            q[c] /= l;
        const float t[3] = {(float)rng_range(&r, -3, 3), (float)rng_range(&r, -3, 3),
                            (float)rng_range(&r, -3, 3)};
        const float s[3] = {(float)rng_range(&r, 0.6, 1.8), (float)rng_range(&r, 0.6, 1.8),
                            (float)rng_range(&r, 0.6, 1.8)};
        cglm_trs(t, q, s, pal + 16 * k);
    }
    uint8_t *joints = malloc(nv * 4);
    float *w = malloc(nv * 16), *p = malloc(nv * 12), *n = malloc(nv * 12);
    float *op = malloc(nv * 12), *on = malloc(nv * 12);
    for (size_t v = 0; v < nv; ++v) {
        for (int i = 0; i < 4; ++i) {
            joints[4 * v + i] = (uint8_t)(rng_u64(&r) % pc);
            w[4 * v + i] = (float)rng_unit(&r);
        }
        for (int c = 0; c < 3; ++c) {
            p[3 * v + c] = (float)rng_range(&r, -1, 1);
            n[3 * v + c] = (float)rng_range(&r, -1, 1);
        }
    }
    ck_assert_int_eq(tendon_skin_weights_normalize(w, 0, 4, nv), TENDON_OK);
    tendon_skin_job job = packed_job(pal, pc, nv, 4, TENDON_JOINT_INDEX_U8, joints, w, p, op, n, on);
    ck_assert_int_eq(tendon_skin(&job), TENDON_OK);
    for (size_t v = 0; v < nv; ++v) {
        /* position: Σ wᵢ·(Pᵢ·p) by glm_mat4_mulv3, summed in double */
        double want_p[3] = {0, 0, 0}, blend[9] = {0};
        for (int i = 0; i < 4; ++i) {
            mat4 P;
            vec3 pv = {p[3 * v], p[3 * v + 1], p[3 * v + 2]}, o;
            const float *pm = pal + 16 * joints[4 * v + i];
            mat_to_cglm(pm, P);
            glm_mat4_mulv3(P, pv, 1.0f, o);
            for (int c = 0; c < 3; ++c)
                want_p[c] += (double)w[4 * v + i] * o[c];
            for (int col = 0; col < 3; ++col)
                for (int row = 0; row < 3; ++row)
                    blend[3 * col + row] += (double)w[4 * v + i] * pm[4 * col + row];
        }
        char what[64];
        snprintf(what, sizeof what, "vertex %zu position vs cglm", v);
        assert_vec3_near(op + 3 * v, want_p, 2e-5 * 8, what);
        /* normal: (blended 3×3)⁻ᵀ·n by glm_mat3_inv, normalised */
        mat3 B, Binv;
        for (int col = 0; col < 3; ++col)
            for (int row = 0; row < 3; ++row)
                B[col][row] = (float)blend[3 * col + row];
        glm_mat3_inv(B, Binv);
        double want_n[3], len = 0.0;
        for (int row = 0; row < 3; ++row) {
            /* (A⁻ᵀ)[row][c] = (A⁻¹)[c][row] = Binv[row][c] in cglm's [column][row] */
            want_n[row] = (double)Binv[row][0] * n[3 * v] + (double)Binv[row][1] * n[3 * v + 1] +
                          (double)Binv[row][2] * n[3 * v + 2];
            len += want_n[row] * want_n[row];
        }
        len = sqrt(len);
        for (int c = 0; c < 3; ++c)
            want_n[c] /= len;
        snprintf(what, sizeof what, "vertex %zu normal vs cglm", v);
        assert_vec3_near(on + 3 * v, want_n, 1e-4, what);
    }
    free(pal), free(joints), free(w), free(p), free(n), free(op), free(on);
}
END_TEST

/* ---- errors ----------------------------------------------------------------------------------- */

START_TEST(test_skin_errors)
{
    float pal[3 * 16] = {0};
    uint8_t j[8] = {0, 1, 2, 0, 1, 2, 0, 1};
    uint16_t j16[8] = {0, 1, 2, 0, 1, 2, 0, 1};
    float w[8] = {0}, p[64] = {0}, n[6] = {0}, op[64] = {0}, on[6] = {0};
    tendon_skin_job ok = packed_job(pal, 3, 2, 4, TENDON_JOINT_INDEX_U8, j, w, p, op, n, on);
    tendon_skin_job job = ok;
    ck_assert_int_eq(tendon_skin(&job), TENDON_OK);
    ck_assert_int_eq(tendon_skin(NULL), TENDON_ERR_NULL);

    /* a joint index ≥ palette size: named, nothing read through it */
    j[6] = 3;
    ck_assert_int_eq(tendon_skin(&job), TENDON_ERR_RANGE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "vertex 1, influence 2 has joint index 3"));
    j[6] = 200; /* a huge uint8 */
    ck_assert_int_eq(tendon_skin(&job), TENDON_ERR_RANGE);
    j[6] = 0;
    job.joint_index_type = TENDON_JOINT_INDEX_U16, job.joints = j16;
    j16[7] = 40000;
    ck_assert_int_eq(tendon_skin(&job), TENDON_ERR_RANGE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "40000"));
    j16[7] = 1;
    ck_assert_int_eq(tendon_skin(&job), TENDON_OK);
    job = ok;
    job.palette_count = 0; /* every index out of range */
    ck_assert_int_eq(tendon_skin(&job), TENDON_ERR_RANGE);
    /* strided: the bad index sits in the second vertex of a 12-byte stride */
    uint8_t js[24] = {0};
    js[12 + 1] = 9;
    job = ok;
    job.joints = js, job.joints_stride = 12;
    ck_assert_int_eq(tendon_skin(&job), TENDON_ERR_RANGE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "vertex 1, influence 1"));

    /* NULL buffers */
    for (int f = 0; f < 5; ++f) {
        job = ok;
        if (f == 0) job.palette = NULL;
        if (f == 1) job.joints = NULL;
        if (f == 2) job.weights = NULL;
        if (f == 3) job.positions = NULL;
        if (f == 4) job.out_positions = NULL;
        ck_assert_int_eq(tendon_skin(&job), TENDON_ERR_NULL);
    }
    job = ok, job.out_normals = NULL;
    ck_assert_int_eq(tendon_skin(&job), TENDON_ERR_NULL);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "out_normals"));
    job = ok, job.normals = NULL;
    ck_assert_int_eq(tendon_skin(&job), TENDON_ERR_NULL);
    job = ok, job.vertex_count = 0, job.palette = NULL, job.joints = NULL, job.weights = NULL;
    job.positions = NULL, job.out_positions = NULL, job.normals = NULL, job.out_normals = NULL;
    ck_assert_int_eq(tendon_skin(&job), TENDON_OK); /* nothing to do */

    /* values */
    job = ok, job.influence_count = 0;
    ck_assert_int_eq(tendon_skin(&job), TENDON_ERR_VALUE);
    job.influence_count = 5;
    ck_assert_int_eq(tendon_skin(&job), TENDON_ERR_VALUE);
    job = ok, job.joint_index_type = (tendon_joint_index_type)4;
    ck_assert_int_eq(tendon_skin(&job), TENDON_ERR_VALUE);
    job = ok, job.positions_stride = 8;
    ck_assert_int_eq(tendon_skin(&job), TENDON_ERR_VALUE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "positions stride"));
    job = ok, job.weights_stride = 18;
    ck_assert_int_eq(tendon_skin(&job), TENDON_ERR_VALUE);
    job = ok, job.joint_index_type = TENDON_JOINT_INDEX_U16, job.joints = (char *)j16 + 1;
    ck_assert_int_eq(tendon_skin(&job), TENDON_ERR_VALUE);
    job = ok, job.positions = (const float *)(const void *)((const char *)p + 1);
    ck_assert_int_eq(tendon_skin(&job), TENDON_ERR_VALUE);

    /* byte sizes that overflow size_t (nothing is read: checked first) */
    job = ok, job.vertex_count = SIZE_MAX / 4;
    ck_assert_int_eq(tendon_skin(&job), TENDON_ERR_OVERFLOW);
    job = ok, job.vertex_count = 3, job.positions_stride = (SIZE_MAX / 2) & ~(size_t)3;
    ck_assert_int_eq(tendon_skin(&job), TENDON_ERR_OVERFLOW);
    job = ok, job.palette_count = SIZE_MAX / 32;
    ck_assert_int_eq(tendon_skin(&job), TENDON_ERR_OVERFLOW);

    /* overlaps */
    job = ok, job.out_positions = (float *)w + 1;
    ck_assert_int_eq(tendon_skin(&job), TENDON_ERR_ALIAS);
    job = ok, job.out_positions = pal + 4;
    ck_assert_int_eq(tendon_skin(&job), TENDON_ERR_ALIAS);
    job = ok, job.out_normals = op + 3;
    ck_assert_int_eq(tendon_skin(&job), TENDON_ERR_ALIAS);
    job = ok, job.out_positions = p + 1; /* shifted: partial, not in place */
    ck_assert_int_eq(tendon_skin(&job), TENDON_ERR_ALIAS);
    job = ok, job.out_positions = p, job.out_positions_stride = 24;
    ck_assert_int_eq(tendon_skin(&job), TENDON_ERR_ALIAS); /* same pointer, other stride */
    job = ok, job.out_positions = (float *)n;
    ck_assert_int_eq(tendon_skin(&job), TENDON_ERR_ALIAS); /* writes over the normals input */
    /* allowed: in place, and interleaved attributes of one buffer */
    job = ok, job.out_positions = p, job.out_normals = n;
    ck_assert_int_eq(tendon_skin(&job), TENDON_OK);
    job = ok, job.positions = p, job.positions_stride = 24, job.normals = p + 3;
    job.normals_stride = 24, job.out_positions = p, job.out_positions_stride = 24;
    job.out_normals = p + 3, job.out_normals_stride = 24;
    ck_assert_int_eq(tendon_skin(&job), TENDON_OK);
    job.out_normals = p + 2; /* straddles the position slot */
    ck_assert_int_eq(tendon_skin(&job), TENDON_ERR_ALIAS);

    /* tangents: both or neither, and only with normals; 16-byte elements; no overlaps */
    float t[8] = {0}, ot[12] = {0};
    job = ok, job.tangents = t;
    ck_assert_int_eq(tendon_skin(&job), TENDON_ERR_NULL);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "out_tangents"));
    job = ok, job.out_tangents = ot;
    ck_assert_int_eq(tendon_skin(&job), TENDON_ERR_NULL);
    job = ok, job.tangents = t, job.out_tangents = ot, job.normals = NULL, job.out_normals = NULL;
    ck_assert_int_eq(tendon_skin(&job), TENDON_ERR_NULL);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "normals is NULL"));
    job = ok, job.tangents = t, job.out_tangents = ot;
    ck_assert_int_eq(tendon_skin(&job), TENDON_OK);
    job.tangents_stride = 12;
    ck_assert_int_eq(tendon_skin(&job), TENDON_ERR_VALUE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "tangents stride"));
    job = ok, job.tangents = t, job.out_tangents = ot + 1;
    ck_assert_int_eq(tendon_skin(&job), TENDON_OK);
    job.out_tangents = (float *)n; /* writes over the normals input */
    ck_assert_int_eq(tendon_skin(&job), TENDON_ERR_ALIAS);
    job.out_tangents = on; /* over the normals output */
    ck_assert_int_eq(tendon_skin(&job), TENDON_ERR_ALIAS);
    job.out_tangents = t + 1; /* shifted from its own input */
    ck_assert_int_eq(tendon_skin(&job), TENDON_ERR_ALIAS);
    job.out_tangents = t; /* in place */
    ck_assert_int_eq(tendon_skin(&job), TENDON_OK);
}
END_TEST

/*
 * Review fixes (issue 3): an empty palette is called empty; the palette's byte extent is
 * checked against the end of the address space like every other buffer (a huge palette_count
 * with a real pointer is an overflow, not an alias or a read).
 */
START_TEST(test_skin_palette_messages_and_extent)
{
    float pal[3 * 16] = {0};
    uint8_t j[8] = {0, 1, 2, 0, 1, 2, 0, 1};
    float w[8] = {0}, p[6] = {0}, n[6] = {0}, op[6] = {0}, on[6] = {0};
    tendon_skin_job job = packed_job(pal, 0, 2, 4, TENDON_JOINT_INDEX_U8, j, w, p, op, n, on);
    ck_assert_int_eq(tendon_skin(&job), TENDON_ERR_RANGE);
    const char *m = tendon_error_message();
    ck_assert_msg(strstr(m, "vertex 0, influence 0 has joint index 0") &&
                      strstr(m, "the palette has no entries") && !strstr(m, "0..0"),
                  "empty palette: \"%s\"", m);
    job.palette_count = 1;
    ck_assert_int_eq(tendon_skin(&job), TENDON_ERR_RANGE);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "1 entries (indices 0..0)"));
    /* 64·palette_count fits size_t, but not after a stack address */
    const size_t huge[] = {SIZE_MAX / 64, SIZE_MAX / 64 - 1, SIZE_MAX / 64 - ((size_t)1 << 20)};
    for (int i = 0; i < 3; ++i) {
        /* Only where the extent really passes the end of the address space: on Linux x86-64 and
           AArch64 the stack sits near the top and all three do; Windows puts a thread's stack
           below 64 MiB, where the last one (2^26 bytes short of SIZE_MAX) still fits. */
        if (64 * huge[i] <= UINTPTR_MAX - (uintptr_t)pal)
            continue;
        job.palette_count = huge[i];
        ck_assert_int_eq(tendon_skin(&job), TENDON_ERR_OVERFLOW);
        m = tendon_error_message();
        ck_assert_msg(strstr(m, "palette") && strstr(m, "address space"), "huge palette: \"%s\"",
                      m);
    }
}
END_TEST

/* Morph targets: every float pointer aligned to float, the deltas array to a pointer. */
START_TEST(test_morph_misaligned)
{
    _Alignas(64) float base[12] = {1, 2, 3, 4, 5, 6, 7, 8}, d[12] = {0}, out[12], w[4] = {1, 0.5f};
    _Alignas(64) unsigned char room[64];
    const float *deltas[2] = {d, d};
    for (size_t sh = 1; sh < 4; ++sh) {
        const float *mb = (const float *)(const void *)((unsigned char *)base + sh);
        const float *mw = (const float *)(const void *)((unsigned char *)w + sh);
        float *mo = (float *)(void *)((unsigned char *)out + sh);
        const float *md[2] = {d, (const float *)(const void *)((unsigned char *)d + sh)};
        memcpy(room + sh, deltas, sizeof deltas);
        const float *const *mdarr = (const float *const *)(const void *)(room + sh);
        struct {
            tendon_status st;
            const char *name;
        } cases[] = {
            {tendon_morph(mb, deltas, w, 2, 8, out), "base"},
            {tendon_morph(base, deltas, w, 2, 8, mo), "out"},
            {tendon_morph(base, deltas, mw, 2, 8, out), "weights"},
            {tendon_morph(base, md, w, 2, 8, out), "deltas[1]"},
            {tendon_morph(base, mdarr, w, 2, 8, out), "deltas"},
        };
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
            ck_assert_msg(cases[c].st == TENDON_ERR_VALUE, "misaligned %s (shift %zu): %s (%s)",
                          cases[c].name, sh, tendon_status_name(cases[c].st),
                          tendon_error_message());
        }
        /* the messages name the argument */
        ck_assert_int_eq(tendon_morph(base, md, w, 2, 8, out), TENDON_ERR_VALUE);
        ck_assert_msg(strstr(tendon_error_message(), "deltas[1]") &&
                          strstr(tendon_error_message(), "aligned"),
                      "%s", tendon_error_message());
        ck_assert_int_eq(tendon_morph(base, deltas, mw, 2, 8, out), TENDON_ERR_VALUE);
        ck_assert_msg(strstr(tendon_error_message(), "weights") &&
                          strstr(tendon_error_message(), "aligned"),
                      "%s", tendon_error_message());
        /* a delta whose weight is zero is never read: it may be anything, as NULL may */
        const float wz[2] = {1, 0};
        ck_assert_int_eq(tendon_morph(base, md, wz, 2, 8, out), TENDON_OK);
    }
}
END_TEST

/*
 * Normals at extreme palette scales, as skin.h and docs/skinning.md state them. One vertex,
 * one influence of weight 1, palette k·I (exact), input normal n = (0.6, 0.8, 0); then
 * v = k²·n, s = |v|² and normal' = v · (s > 0 ? 1/√s : 0):
 *   s a normal float (2⁻¹²⁶ ≤ s ≤ FLT_MAX, k in [2^-31.5, 2^32)):  n/|n| to a few ulp
 *   s subnormal: the right direction, length √(s_exact / s), s off by ≤ 3·2⁻¹⁵⁰ absolute
 *   s = 0 (every |vᵢ| < 2⁻⁷⁵) or s = +∞ with v finite (k in [2^32, 2^64)): exactly zero
 *   a cofactor k² that overflows (k ≥ 2^64): ∞ in v, every component NaN here
 * Every ISA, each against these statements (and so against each other).
 */
START_TEST(test_skin_normal_scale_range)
{
    ISA_TABLE_OR_RETURN(k);
    const char *isa = tendon_isa_name((tendon_isa)_i);
    enum { UNIT, SUBNORMAL, ZERO, NANS };
    static const struct {
        float k;
        int expect;
    } cases[] = {
        {0x1p-31f, UNIT},       {3.6e-10f, UNIT},       {1e-9f, UNIT},
        {1.0f, UNIT},           {1e9f, UNIT},           {4.2e9f, UNIT},
        {0x1.fffffep31f, UNIT}, {1e-10f, SUBNORMAL},    {3e-11f, SUBNORMAL},
        {1e-11f, SUBNORMAL},    {6e-12f, SUBNORMAL},    {5e-12f, ZERO},
        {1e-13f, ZERO},         {0x1p-60f, ZERO},       {0x1p32f, ZERO},
        {4.4e9f, ZERO},         {1e10f, ZERO},          {1e18f, ZERO},
        {1.8e19f, ZERO},        {0x1p64f, NANS},        {1.9e19f, NANS},
        {1e20f, NANS},          {1e30f, NANS},          {3e38f, NANS},
    };
    const double nx = 0.6f, ny = 0.8f, nlen = sqrt(nx * nx + ny * ny);
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        const float kk = cases[c].k;
        float pal[16];
        set_translate_scale(pal, 0, 0, 0, kk, kk, kk);
        const uint8_t j[1] = {0};
        const float w[1] = {1.0f}, pos[3] = {1, 2, 3}, nrm[3] = {0.6f, 0.8f, 0.0f};
        float op[3], on[3] = {12345.0f, 12345.0f, 12345.0f};
        tendon_skin_job job = packed_job(pal, 1, 1, 1, TENDON_JOINT_INDEX_U8, j, w, pos, op, nrm,
                                         on);
        job.joints_stride = 1, job.weights_stride = 4, job.positions_stride = 12;
        job.out_positions_stride = 12, job.normals_stride = 12, job.out_normals_stride = 12;
        k->skin(&job);
        const double len = sqrt((double)on[0] * on[0] + (double)on[1] * on[1] +
                                (double)on[2] * on[2]);
        switch (cases[c].expect) {
        case UNIT:
            for (int e = 0; e < 2; ++e)
                ck_assert_msg(fabs((double)on[e] - (e ? ny : nx) / nlen) <= 4e-7,
                              "%s k=%g: component %d is %.9g, expected %.9g", isa, (double)kk, e,
                              (double)on[e], (e ? ny : nx) / nlen);
            ck_assert_msg(on[2] == 0.0f, "%s k=%g: z %g", isa, (double)kk, (double)on[2]);
            break;
        case SUBNORMAL: {
            /* s_exact from the exact float v (k² and k²·n rounded as the kernel's products) */
            const double k2 = (double)(kk * kk);
            const double vx = (double)(float)(k2 * nx), vy = (double)(float)(k2 * ny);
            const double s_exact = vx * vx + vy * vy;
            ck_assert_msg(s_exact < 0x1p-126 && s_exact > 0x1p-151, "%s k=%g: case not subnormal",
                          isa, (double)kk);
            const double e = 3 * 0x1p-150 / s_exact;
            const double lo = sqrt(1 / (1 + e)) - 1e-6, hi = e < 1 ? sqrt(1 / (1 - e)) + 1e-6 : 1e9;
            ck_assert_msg(len >= lo && len <= hi, "%s k=%g: |n'| = %.9g outside [%.9g, %.9g]", isa,
                          (double)kk, len, lo, hi);
            ck_assert_msg(fabs((double)on[1] / (double)on[0] - ny / nx) <= 1e-6 && on[2] == 0.0f,
                          "%s k=%g: direction (%g %g %g)", isa, (double)kk, (double)on[0],
                          (double)on[1], (double)on[2]);
            if (kk == 1e-11f) /* the documented example */
                ck_assert_msg(len > 0.9444 && len < 0.9445, "%s k=1e-11: |n'| = %.9g", isa, len);
            break;
        }
        case ZERO:
            for (int e = 0; e < 3; ++e)
                ck_assert_msg(on[e] == 0.0f, "%s k=%g: component %d is %g, expected ±0", isa,
                              (double)kk, e, (double)on[e]);
            break;
        default:
            for (int e = 0; e < 3; ++e)
                ck_assert_msg(isnan(on[e]), "%s k=%g: component %d is %g, expected NaN", isa,
                              (double)kk, e, (double)on[e]);
        }
        /* positions are unaffected by the normal's range: k·p, exact or overflowing to ±∞ */
        for (int e = 0; e < 3; ++e)
            ck_assert_msg(op[e] == kk * pos[e], "%s k=%g: position %d", isa, (double)kk, e);
    }
}
END_TEST

/* ---- every ISA against the scalar table, bit for bit ------------------------------------------ */

START_TEST(test_isa_skin)
{
    ISA_TABLE_OR_RETURN(k);
    const tendon_kernels *ref = tendon_kernels_for(TENDON_ISA_SCALAR);
    const char *isa = tendon_isa_name((tendon_isa)_i);
    test_rng r;
    rng_seed(&r, 0x5C1 + (uint64_t)_i);
    float *pal = random_palette(&r, 70);
    for (int ci = 0; ci < SWEEP_COUNT; ++ci) {
        for (size_t ni = 1; ni <= 4; ++ni) {
            for (size_t isz = 1; isz <= 2; ++isz) {
                for (int mode = 0; mode < 3; ++mode) {
                    for (int layout = 0; layout < 4; ++layout) {
                        const skin_case c = {sweep_count(ci), ni, isz, mode, layout};
                        const uint64_t seed = rng_u64(&r);
                        skin_bufs a, b;
                        skin_bufs_make(&a, &c, pal, 70, seed);
                        skin_bufs_make(&b, &c, pal, 70, seed);
                        k->skin(&a.job);
                        ref->skin(&b.job);
                        compare_outputs(&a, &b, isa, &c);
                        skin_bufs_free(&a);
                        skin_bufs_free(&b);
                    }
                }
            }
        }
    }
    free(pal);
}
END_TEST

/* The public entry (strides 0, active ISA) equals the scalar table with resolved strides. */
START_TEST(test_public_skin_matches_scalar)
{
    test_rng r;
    rng_seed(&r, 0x9B1C);
    float *pal = random_palette(&r, 70);
    const skin_case c = {1001, 4, 1, 2, 0};
    skin_bufs a, b;
    skin_bufs_make(&a, &c, pal, 70, 77);
    skin_bufs_make(&b, &c, pal, 70, 77);
    tendon_skin_job pub = a.job;
    pub.joints_stride = pub.weights_stride = pub.positions_stride = pub.normals_stride = 0;
    pub.out_positions_stride = pub.out_normals_stride = 0;
    pub.tangents_stride = pub.out_tangents_stride = 0;
    ck_assert_int_eq(tendon_skin(&pub), TENDON_OK);
    tendon_kernels_for(TENDON_ISA_SCALAR)->skin(&b.job);
    compare_outputs(&a, &b, "active", &c);
    skin_bufs_free(&a);
    skin_bufs_free(&b);
    free(pal);
}
END_TEST

/* ---- morph targets ---------------------------------------------------------------------------- */

START_TEST(test_morph_hand)
{
    const float base[3] = {1, 2, 3}, d0[3] = {1, 0, 0}, d1[3] = {0, 2, 0};
    const float dinf[3] = {INFINITY, NAN, -INFINITY};
    const float *deltas[4] = {d0, dinf, d1, NULL};
    const float w[4] = {0.5f, 0.0f, 0.25f, -0.0f}; /* the zero weights are skipped */
    float out[3];
    ck_assert_int_eq(tendon_morph(base, deltas, w, 4, 3, out), TENDON_OK);
    ck_assert(out[0] == 1.5f && out[1] == 2.5f && out[2] == 3.0f);
    /* in place, and a negative weight applied as given */
    float inplace[3] = {1, 2, 3};
    const float wn[2] = {-1.0f, 0.0f};
    ck_assert_int_eq(tendon_morph(inplace, deltas, wn, 2, 3, inplace), TENDON_OK);
    ck_assert(inplace[0] == 0.0f && inplace[1] == 2.0f && inplace[2] == 3.0f);
    /* no targets: a copy */
    ck_assert_int_eq(tendon_morph(base, NULL, NULL, 0, 3, out), TENDON_OK);
    ck_assert(out[0] == 1.0f && out[1] == 2.0f && out[2] == 3.0f);
    /* -0 base with a skipped target keeps its sign: the skip is exact, not "+ 0·d" */
    const float mz[1] = {-0.0f};
    const float wz[1] = {0.0f};
    const float *dz[1] = {d0};
    float oz[1];
    ck_assert_int_eq(tendon_morph(mz, dz, wz, 1, 1, oz), TENDON_OK);
    ck_assert(float_bits(oz[0]) == 0x80000000u);
}
END_TEST

START_TEST(test_morph_errors)
{
    float base[8] = {0}, d[8] = {0}, out[8];
    const float *deltas[2] = {d, NULL};
    const float w[2] = {1.0f, 0.5f};
    ck_assert_int_eq(tendon_morph(base, deltas, w, 2, 8, out), TENDON_ERR_NULL);
    ck_assert_ptr_nonnull(strstr(tendon_error_message(), "deltas[1]"));
    deltas[1] = d;
    ck_assert_int_eq(tendon_morph(base, deltas, w, 2, 8, out), TENDON_OK);
    ck_assert_int_eq(tendon_morph(NULL, deltas, w, 2, 8, out), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_morph(base, NULL, w, 2, 8, out), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_morph(base, deltas, NULL, 2, 8, out), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_morph(base, deltas, w, 2, 8, NULL), TENDON_ERR_NULL);
    ck_assert_int_eq(tendon_morph(base, deltas, w, 2, 8, base + 1), TENDON_ERR_ALIAS);
    ck_assert_int_eq(tendon_morph(base, deltas, w, 2, 8, d), TENDON_ERR_ALIAS);
    ck_assert_int_eq(tendon_morph(base, deltas, w, 2, SIZE_MAX / 2, out), TENDON_ERR_OVERFLOW);
    ck_assert_int_eq(tendon_morph(base, deltas, w, SIZE_MAX / 2, 8, out), TENDON_ERR_OVERFLOW);
}
END_TEST

START_TEST(test_isa_morph)
{
    ISA_TABLE_OR_RETURN(k);
    const tendon_kernels *ref = tendon_kernels_for(TENDON_ISA_SCALAR);
    const char *isa = tendon_isa_name((tendon_isa)_i);
    test_rng r;
    rng_seed(&r, 0x3F + (uint64_t)_i);
    for (int ci = 0; ci < SWEEP_COUNT; ++ci) {
        const size_t n = 3 * sweep_count(ci);
        for (size_t nt = 0; nt <= 5; ++nt) {
            tbuf base = tbuf_make(4 * n, 4), o1 = tbuf_make(4 * n, 0), o2 = tbuf_make(4 * n, 8);
            tbuf d[5];
            const float *deltas[5];
            float w[5];
            for (size_t e = 0; e < n; ++e)
                TBUF_F(base)[e] = (float)rng_range(&r, -3, 3);
            for (size_t t = 0; t < nt; ++t) {
                d[t] = tbuf_make(4 * n, 4 * t);
                for (size_t e = 0; e < n; ++e)
                    TBUF_F(d[t])[e] = (float)rng_range(&r, -1, 1);
                if (n > 2)
                    TBUF_F(d[t])[n / 2] = INFINITY; /* harmless when its weight is 0 */
                deltas[t] = TBUF_F(d[t]);
                const double u = rng_unit(&r);
                w[t] = u < 0.3 ? 0.0f : u < 0.35 ? -0.0f : (float)rng_range(&r, -0.5, 1.5);
            }
            k->morph(TBUF_F(base), deltas, w, nt, n, TBUF_F(o1));
            ref->morph(TBUF_F(base), deltas, w, nt, n, TBUF_F(o2));
            assert_same_floats(TBUF_F(o1), TBUF_F(o2), n, isa, "morph", n);
            /* in place */
            k->morph(TBUF_F(base), deltas, w, nt, n, TBUF_F(base));
            assert_same_floats(TBUF_F(base), TBUF_F(o2), n, isa, "morph in place", n);
            for (size_t t = 0; t < nt; ++t)
                tbuf_free(&d[t]);
            tbuf_free(&base), tbuf_free(&o1), tbuf_free(&o2);
        }
    }
}
END_TEST

static Suite *skin_suite(void)
{
    Suite *s = suite_create("skin");
    TCase *api = tcase_create("api");
    tcase_add_test(api, test_skin_hand);
    tcase_add_test(api, test_skin_all_zero_weights);
    tcase_add_test(api, test_skin_tangent_hand);
    tcase_add_test(api, anim_bug_18_skin_weight_normalisation);
    tcase_add_test(api, test_normalize);
    tcase_add_test(api, test_skin_cglm);
    tcase_add_test(api, test_skin_errors);
    tcase_add_test(api, test_public_skin_matches_scalar);
    tcase_add_test(api, test_morph_hand);
    tcase_add_test(api, test_morph_errors);
    tcase_add_test(api, test_skin_palette_messages_and_extent);
    tcase_add_test(api, test_morph_misaligned);
    suite_add_tcase(s, api);
    TCase *isa = tcase_create("every_isa");
    tcase_set_timeout(isa, 120);
    tcase_add_loop_test(isa, test_isa_skin, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(isa, test_isa_morph, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(isa, test_skin_normal_scale_range, 0, TENDON_ISA_COUNT);
    tcase_add_loop_test(isa, test_skin_tangent_perpendicular, 0, TENDON_ISA_COUNT);
    suite_add_tcase(s, isa);
    return s;
}

int main(void)
{
    if (env_isa_unusable())
        return 77;
    return run_suite(skin_suite());
}
