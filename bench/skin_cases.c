/*
 * tendon benchmarks — the matrix kernels (local/model matrices, palette, skinning, morph targets).
 * Registered in tendon_bench_cases[] (cases.c) through the functions declared in skin_cases.h.
 *
 * Inputs (seeded, 64-byte aligned):
 *   skeleton   humanoid-like: chains of four joints, each chain hanging off a random earlier
 *              joint (so the parent chain is as deep as a real rig's spine-arm-hand-finger
 *              runs, not one long line and not flat), one root, and a root matrix;
 *   pose       translations in ±0.5 m, unit quaternions uniform on the 3-sphere, scales in
 *              [0.8, 1.25];
 *   binding    every joint, in reverse skeleton order, inverse bind matrices = world rest⁻¹;
 *   vertices   4 influences (uint8 indices uniform over a 64-entry palette, weights normalised
 *              to sum 1), positions in ±1 m, unit normals, unit tangents ⟂ them with w = ±1,
 *              packed arrays; the prepared mesh made from them;
 *   morph      8 targets, weights in [0.1, 0.9] (none skipped), deltas in ±0.1 m.
 */
#include "skin_cases.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <tendon/pose.h>
#include <tendon/skeleton.h>
#include <tendon/skin.h>

typedef struct srng {
    uint64_t s;
} srng;

static uint64_t srng_next(srng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static double srng_unit(srng *r) { return (double)(srng_next(r) >> 11) * 0x1.0p-53; }
static double srng_range(srng *r, double lo, double hi) { return lo + (hi - lo) * srng_unit(r); }
static void srng_quat(srng *r, float *q)
{
    double v[4], s;
    do {
        s = 0.0;
        for (int c = 0; c < 4; ++c) {
            v[c] = srng_range(r, -1.0, 1.0);
            s += v[c] * v[c];
        }
    } while (s > 1.0 || s < 1e-4);
    const double inv = 1.0 / sqrt(s);
    for (int c = 0; c < 4; ++c)
        q[c] = (float)(v[c] * inv);
}

/** 64-byte-aligned block of n elements of `size` bytes (n > 0), or NULL. */
static void *alloc64(size_t n, size_t size)
{
    if (n == 0 || n > (SIZE_MAX - 63) / size)
        return NULL;
    const size_t bytes = (n * size + 63) & ~(size_t)63;
    return aligned_alloc(64, bytes);
}

/* ---- skeleton → palette ------------------------------------------------------------------- */

typedef struct rig_data {
    int32_t *parents;
    uint32_t *joint_of, *order; /* order: the skeleton's level order */
    float *ibm, *model, *palette, *local;
    float *ibm_splat; /* the binding's form (tendon_kernels.palette_splat) */
    float root[16];
    tendon_pose pose;
} rig_data;

static void random_pose(srng *r, tendon_pose *p)
{
    for (size_t j = 0; j < p->joint_count; ++j) {
        for (int c = 0; c < 3; ++c) {
            p->translation[3 * j + c] = (float)srng_range(r, -0.5, 0.5);
            p->scale[3 * j + c] = (float)srng_range(r, 0.8, 1.25);
        }
        srng_quat(r, p->rotation + 4 * j);
    }
}

/*
 * Every rig case of one joint count gets the same skeleton, pose and inverse bind matrices (the
 * seed is the count's, not the kernel's), so local + model + palette add up to pose_palette and
 * model_matrices_level / _dfs compare orders on one tree.
 */
int tendon_bench_rig_setup(tendon_bench_fixture *fx, uint64_t seed)
{
    (void)seed;
    rig_data *d = calloc(1, sizeof *d);
    fx->data = d;
    if (!d)
        return 1;
    const size_t n = fx->count;
    srng r = {tendon_bench_seed("rig", n)};
    d->parents = alloc64(n, sizeof *d->parents);
    d->joint_of = alloc64(n, sizeof *d->joint_of);
    d->order = alloc64(n, sizeof *d->order);
    d->ibm = alloc64(16 * n, sizeof(float));
    d->model = alloc64(16 * n, sizeof(float));
    d->local = alloc64(16 * n, sizeof(float));
    d->palette = alloc64(16 * n, sizeof(float));
    d->ibm_splat = alloc64(64 * n, sizeof(float));
    if (!d->parents || !d->joint_of || !d->order || !d->ibm || !d->model || !d->local || !d->palette ||
        !d->ibm_splat ||
        tendon_pose_create(n, &d->pose) != TENDON_OK)
        return 1;
    /* DFS pre-order (tendon_skeleton_create requires it): a chain of four hangs off joint j − 1
     * or one of its ancestors, picked at random on that path */
    for (size_t j = 0; j < n; ++j) {
        if (j == 0) {
            d->parents[j] = -1;
        } else if (j % 4 == 1) {
            size_t depth = 0;
            for (int32_t x = (int32_t)(j - 1); x >= 0; x = d->parents[x])
                ++depth;
            int32_t x = (int32_t)(j - 1);
            for (uint64_t up = srng_next(&r) % depth; up > 0; --up)
                x = d->parents[x];
            d->parents[j] = x;
        } else {
            d->parents[j] = (int32_t)(j - 1);
        }
        d->joint_of[j] = (uint32_t)(n - 1 - j);
    }
    tendon_skeleton_desc desc = {.joint_count = n, .parents = d->parents, .rest = &d->pose};
    random_pose(&r, &d->pose);
    tendon_skeleton *sk = NULL;
    if (tendon_skeleton_create(&desc, &sk) != TENDON_OK ||
        tendon_inverse_bind_from_rest(sk, NULL, d->joint_of, n, d->ibm) != TENDON_OK) {
        tendon_skeleton_destroy(sk);
        return 1;
    }
    memcpy(d->order, tendon_skeleton_level_order(sk), n * sizeof *d->order);
    for (size_t j = 0; j < n; ++j)
        for (int e = 0; e < 4; ++e)
            for (int c = 0; c < 4; ++c)
                for (int l = 0; l < 4; ++l)
                    d->ibm_splat[64 * j + 16 * e + 4 * c + l] = d->ibm[16 * j + 4 * c + e];
    tendon_skeleton_destroy(sk);
    random_pose(&r, &d->pose);
    static const float root[16] = {0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 3, 0, 1, 1};
    memcpy(d->root, root, sizeof root);
    /* the local and model matrices the single-stage cases start from */
    const tendon_kernels *s = tendon_kernels_for(TENDON_ISA_SCALAR);
    s->local_matrices(d->pose.translation, d->pose.rotation, d->pose.scale, n, d->local);
    s->model_matrices(d->local, d->parents, d->root, 0, n, d->model);
    fx->out = d->palette;
    return 0;
}

void tendon_bench_rig_teardown(tendon_bench_fixture *fx)
{
    rig_data *d = fx->data;
    if (d) {
        free(d->parents), free(d->joint_of), free(d->order), free(d->ibm), free(d->model), free(d->local);
        free(d->palette), free(d->ibm_splat);
        tendon_pose_destroy(&d->pose);
        free(d);
    }
    fx->data = fx->out = NULL;
}

void tendon_bench_run_local_matrices(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    rig_data *d = fx->data;
    k->local_matrices(d->pose.translation, d->pose.rotation, d->pose.scale, fx->count,
                      d->palette);
}

/* One joint's local and model matrices at `count` times, a time per lane, the parent's matrices
 * as planes (the spring rig's chunks: docs/springs.md); the fixture's local matrices stand in
 * for the parent planes. */
void tendon_bench_run_local_model_lanes(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    rig_data *d = fx->data;
    k->local_model_lanes(d->pose.translation, d->pose.rotation, d->pose.scale, fx->count,
                         d->local, fx->count, NULL, d->palette, fx->count);
}

/* `count` points through as many matrices, both as planes (the rig's anchors). */
void tendon_bench_run_transform_points_lanes(const tendon_bench_fixture *fx,
                                             const tendon_kernels *k)
{
    rig_data *d = fx->data;
    k->transform_points_lanes(d->model, fx->count, d->local, fx->count, fx->count, d->palette,
                              fx->count);
}

/* The model pass over a whole skeleton in the order the library walks on k (level order where
 * k->model_pass_level_order says it pays, else joint order). */
static void model_pass(const rig_data *d, const tendon_kernels *k, size_t n, const float *local,
                       float *model)
{
    if (k->model_pass_level_order)
        k->model_matrices_ordered(local, d->parents, d->root, d->order, n, model);
    else
        k->model_matrices(local, d->parents, d->root, 0, n, model);
}

/* The whole skeleton, as tendon_model_matrices runs it on k. */
void tendon_bench_run_model_matrices(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    rig_data *d = fx->data;
    model_pass(d, k, fx->count, d->local, d->palette);
}

/* The same in level order on every ISA (what model_pass_level_order is chosen from). */
void tendon_bench_run_model_matrices_level(const tendon_bench_fixture *fx,
                                           const tendon_kernels *k)
{
    rig_data *d = fx->data;
    k->model_matrices_ordered(d->local, d->parents, d->root, d->order, fx->count, d->palette);
}

/* The same in joint order, as a partial update (a subtree range) runs it. */
void tendon_bench_run_model_matrices_dfs(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    rig_data *d = fx->data;
    k->model_matrices(d->local, d->parents, d->root, 0, fx->count, d->palette);
}

void tendon_bench_run_palette(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    rig_data *d = fx->data;
    k->palette(d->model, d->joint_of, d->ibm, fx->count, d->palette);
}

/* The palette as tendon_palette runs it: the binding's splat table of the inverse binds. */
void tendon_bench_run_palette_splat(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    rig_data *d = fx->data;
    k->palette_splat(d->model, d->joint_of, d->ibm_splat, fx->count, d->palette);
}

/* The whole pipeline, as tendon_pose_palette runs it: pose → local → model (in place, with the
 * root matrix) → palette (through the splat table where k->palette_splat_pays, for palettes of
 * up to k->palette_splat_max entries). */
void tendon_bench_run_pose_palette(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    rig_data *d = fx->data;
    const size_t n = fx->count;
    k->local_matrices(d->pose.translation, d->pose.rotation, d->pose.scale, n, d->model);
    model_pass(d, k, n, d->model, d->model);
    if (k->palette_splat_pays && n <= k->palette_splat_max)
        k->palette_splat(d->model, d->joint_of, d->ibm_splat, n, d->palette);
    else
        k->palette(d->model, d->joint_of, d->ibm, n, d->palette);
}

/* ---- skinning ----------------------------------------------------------------------------- */

#define SKIN_PALETTE 64

typedef struct skin_data {
    float *palette, *weights, *pos, *nrm, *tan, *out_pos, *out_nrm, *out_tan;
    uint8_t *joints;
    tendon_skin_job job;
    tendon_skin_mesh *mesh; /* made from the job with normals and tangents */
    float *rigid, *dq; /* a rigid 64-entry palette and its dual quaternions */
} skin_data;

int tendon_bench_skin_setup(tendon_bench_fixture *fx, uint64_t seed)
{
    skin_data *d = calloc(1, sizeof *d);
    fx->data = d;
    if (!d)
        return 1;
    const size_t n = fx->count;
    srng r = {seed};
    d->palette = alloc64(16 * SKIN_PALETTE, sizeof(float));
    d->joints = alloc64(4 * n, 1);
    d->weights = alloc64(4 * n, sizeof(float));
    d->pos = alloc64(3 * n, sizeof(float));
    d->nrm = alloc64(3 * n, sizeof(float));
    d->out_pos = alloc64(3 * n, sizeof(float));
    d->out_nrm = alloc64(3 * n, sizeof(float));
    d->tan = alloc64(4 * n, sizeof(float));
    d->out_tan = alloc64(4 * n, sizeof(float));
    if (!d->palette || !d->joints || !d->weights || !d->pos || !d->nrm || !d->out_pos ||
        !d->out_nrm || !d->tan || !d->out_tan)
        return 1;
    for (size_t k = 0; k < SKIN_PALETTE; ++k) {
        float t[3], q[4], s[3];
        for (int c = 0; c < 3; ++c) {
            t[c] = (float)srng_range(&r, -1, 1);
            s[c] = (float)srng_range(&r, 0.8, 1.25);
        }
        srng_quat(&r, q);
        float tr[3] = {t[0], t[1], t[2]};
        tendon_pose p = {tr, q, s, 1};
        tendon_local_matrices(&p, d->palette + 16 * k);
    }
    for (size_t v = 0; v < n; ++v) {
        for (int i = 0; i < 4; ++i) {
            d->joints[4 * v + i] = (uint8_t)(srng_next(&r) % SKIN_PALETTE);
            d->weights[4 * v + i] = (float)srng_range(&r, 0.05, 1.0);
        }
        double len = 0.0;
        for (int c = 0; c < 3; ++c) {
            d->pos[3 * v + c] = (float)srng_range(&r, -1, 1);
            d->nrm[3 * v + c] = (float)srng_range(&r, -1, 1);
            len += (double)d->nrm[3 * v + c] * d->nrm[3 * v + c];
        }
        for (int c = 0; c < 3; ++c)
            d->nrm[3 * v + c] = (float)(d->nrm[3 * v + c] / sqrt(len));
        /* a unit tangent ⟂ the normal: (n × e) normalised, e the axis least along n */
        const float *nv = d->nrm + 3 * v;
        const int ax = fabsf(nv[0]) < fabsf(nv[1]) ? (fabsf(nv[0]) < fabsf(nv[2]) ? 0 : 2)
                                                   : (fabsf(nv[1]) < fabsf(nv[2]) ? 1 : 2);
        double e[3] = {0, 0, 0}, t[3];
        e[ax] = 1;
        t[0] = nv[1] * e[2] - nv[2] * e[1], t[1] = nv[2] * e[0] - nv[0] * e[2];
        t[2] = nv[0] * e[1] - nv[1] * e[0];
        const double tl = sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]);
        for (int c = 0; c < 3; ++c)
            d->tan[4 * v + c] = (float)(t[c] / tl);
        d->tan[4 * v + 3] = (srng_next(&r) & 1) ? 1.0f : -1.0f;
    }
    if (tendon_skin_weights_normalize(d->weights, 0, 4, n) != TENDON_OK)
        return 1;
    tendon_skin_job *j = &d->job;
    j->palette = d->palette, j->palette_count = SKIN_PALETTE, j->vertex_count = n;
    j->influence_count = 4, j->joint_index_type = TENDON_JOINT_INDEX_U8;
    j->joints = d->joints, j->joints_stride = 4;
    j->weights = d->weights, j->weights_stride = 16;
    j->positions = d->pos, j->positions_stride = 12;
    j->out_positions = d->out_pos, j->out_positions_stride = 12;
    j->normals_stride = j->out_normals_stride = 12;
    j->tangents_stride = j->out_tangents_stride = 16;
    tendon_skin_job mj = *j;
    mj.normals = d->nrm, mj.tangents = d->tan;
    if (tendon_skin_mesh_create(&mj, &d->mesh) != TENDON_OK)
        return 1;
    /* dual quaternions need rigid joints: the palette's rotations and translations, unit scale */
    d->rigid = alloc64(16 * SKIN_PALETTE, sizeof(float));
    d->dq = alloc64(16 * SKIN_PALETTE, sizeof(float));
    if (!d->rigid || !d->dq)
        return 1;
    for (size_t k = 0; k < SKIN_PALETTE; ++k) {
        float t[3], q[4], s[3] = {1, 1, 1};
        for (int c = 0; c < 3; ++c)
            t[c] = (float)srng_range(&r, -1, 1);
        srng_quat(&r, q);
        tendon_pose p = {t, q, s, 1};
        tendon_local_matrices(&p, d->rigid + 16 * k);
    }
    if (tendon_palette_to_dual_quat(d->rigid, SKIN_PALETTE, d->dq) != TENDON_OK)
        return 1;
    fx->out = d->out_pos;
    return 0;
}

void tendon_bench_skin_teardown(tendon_bench_fixture *fx)
{
    skin_data *d = fx->data;
    if (d) {
        free(d->palette), free(d->joints), free(d->weights), free(d->pos), free(d->nrm);
        free(d->out_pos), free(d->out_nrm), free(d->tan), free(d->out_tan);
        tendon_skin_mesh_destroy(d->mesh);
        free(d->rigid), free(d->dq);
        free(d);
    }
    fx->data = fx->out = NULL;
}

void tendon_bench_run_skin_positions(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    const skin_data *d = fx->data;
    tendon_skin_job j = d->job;
    j.normals = NULL, j.out_normals = NULL;
    k->skin(&j);
}

void tendon_bench_run_skin_normals(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    const skin_data *d = fx->data;
    tendon_skin_job j = d->job;
    j.normals = d->nrm, j.out_normals = d->out_nrm;
    k->skin(&j);
}

void tendon_bench_run_skin_tangents(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    const skin_data *d = fx->data;
    tendon_skin_job j = d->job;
    j.normals = d->nrm, j.out_normals = d->out_nrm;
    j.tangents = d->tan, j.out_tangents = d->out_tan;
    k->skin(&j);
}

/* The prepared mesh (the same vertices), through the kernel table: positions; + normals;
 * + tangents. */
void tendon_bench_run_skin_mesh_positions(const tendon_bench_fixture *fx,
                                          const tendon_kernels *k)
{
    const skin_data *d = fx->data;
    k->skin_mesh(d->mesh, d->palette, 0, fx->count, d->out_pos, NULL, NULL);
}

void tendon_bench_run_skin_mesh_normals(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    const skin_data *d = fx->data;
    k->skin_mesh(d->mesh, d->palette, 0, fx->count, d->out_pos, d->out_nrm, NULL);
}

void tendon_bench_run_skin_mesh_tangents(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    const skin_data *d = fx->data;
    k->skin_mesh(d->mesh, d->palette, 0, fx->count, d->out_pos, d->out_nrm, d->out_tan);
}

/* Dual-quaternion skinning of the same mesh (positions + normals), and linear-blend skinning of
 * it by the same rigid palette, for the ratio; item = vertex. */
void tendon_bench_run_skin_mesh_dq(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    const skin_data *d = fx->data;
    k->skin_mesh_dq(d->mesh, d->dq, 0, fx->count, d->out_pos, d->out_nrm, NULL);
}

/* The conversion of the 64-entry palette, per frame: item = joint (fx->count ignored). */
void tendon_bench_run_palette_to_dual_quat(const tendon_bench_fixture *fx,
                                           const tendon_kernels *k)
{
    skin_data *d = fx->data;
    k->palette_to_dual_quat(d->rigid, SKIN_PALETTE, d->dq);
}

/* ---- morph targets ------------------------------------------------------------------------ */

#define MORPH_TARGETS 8

typedef struct morph_data {
    float *base, *out, *d[MORPH_TARGETS];
    float w[MORPH_TARGETS];
} morph_data;

int tendon_bench_morph_setup(tendon_bench_fixture *fx, uint64_t seed)
{
    morph_data *d = calloc(1, sizeof *d);
    fx->data = d;
    if (!d)
        return 1;
    const size_t n = 3 * fx->count;
    srng r = {seed};
    d->base = alloc64(n, sizeof(float));
    d->out = alloc64(n, sizeof(float));
    if (!d->base || !d->out)
        return 1;
    for (size_t e = 0; e < n; ++e)
        d->base[e] = (float)srng_range(&r, -1, 1);
    for (int t = 0; t < MORPH_TARGETS; ++t) {
        d->d[t] = alloc64(n, sizeof(float));
        if (!d->d[t])
            return 1;
        for (size_t e = 0; e < n; ++e)
            d->d[t][e] = (float)srng_range(&r, -0.1, 0.1);
        d->w[t] = (float)srng_range(&r, 0.1, 0.9);
    }
    fx->out = d->out;
    return 0;
}

void tendon_bench_morph_teardown(tendon_bench_fixture *fx)
{
    morph_data *d = fx->data;
    if (d) {
        free(d->base), free(d->out);
        for (int t = 0; t < MORPH_TARGETS; ++t)
            free(d->d[t]);
        free(d);
    }
    fx->data = fx->out = NULL;
}

void tendon_bench_run_morph(const tendon_bench_fixture *fx, const tendon_kernels *k)
{
    const morph_data *d = fx->data;
    k->morph(d->base, (const float *const *)d->d, d->w, MORPH_TARGETS, 3 * fx->count, d->out);
}
