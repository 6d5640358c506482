/*
 * Public entry points of tendon/skeleton.h: skeleton and binding objects, inverse bind from
 * rest, and the matrix kernels (validate everything, then call through the active table).
 */
#include <math.h> /* isfinite: a macro, no libm call */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/aligned.h"
#include "common/fpenv.h"
#include "common/kernels_internal.h"
#include "tendon/skeleton.h"

struct tendon_skeleton {
    size_t joint_count;
    int32_t *parents; /* [joint_count] */
    uint32_t *level_order; /* [joint_count]: joints by depth, DFS order within a depth */
    char **names;     /* NULL or [joint_count] */
    tendon_pose rest; /* owned (tendon_pose_create) */
};

struct tendon_skin_binding {
    size_t palette_count;
    size_t joint_count; /* of the skeleton it was made for */
    uint32_t *joint_of; /* [palette_count] */
    float *inverse_bind; /* [16*palette_count], 64-byte aligned */
    /* [64*palette_count], 64-byte aligned: the inverse bind matrices as the palette kernel
     * multiplies by them (tendon_kernels.palette_splat): per entry, for k = 0..3, sixteen
     * floats with element k of column c in lanes 4c..4c+3 — made once here so the per-frame
     * product needs no shuffle (ISA-independent: every vector width reads its slice). */
    float *inverse_bind_splat;
};

/* The splat table of n inverse bind matrices (struct tendon_skin_binding). */
static void make_inverse_bind_splat(const float *ibm, size_t n, float *out)
{
    for (size_t j = 0; j < n; ++j)
        for (int k = 0; k < 4; ++k)
            for (int c = 0; c < 4; ++c)
                for (int r = 0; r < 4; ++r)
                    out[64 * j + 16 * k + 4 * c + r] = ibm[16 * j + 4 * c + k];
}

/* Bytes of a matrix. */
#define MAT_BYTES (16 * sizeof(float))

/* "joint 3 (\"LeftArm\")" or "joint 3" into buf. */
static const char *joint_label(char *buf, size_t size, const char *const *names, size_t j)
{
    if (names && names[j])
        snprintf(buf, size, "joint %zu (\"%.64s\")", j, names[j]);
    else
        snprintf(buf, size, "joint %zu", j);
    return buf;
}

static tendon_status check_matrices(const char *fn, const char *what, const void *p, size_t count)
{
    return tendon_check_array(fn, what, p, count, 16);
}

/* An optional root matrix: NULL, or 16 floats, aligned to float and inside the address space. */
static tendon_status check_root(const char *fn, const float *root_matrix)
{
    return check_matrices(fn, "root_matrix", root_matrix, root_matrix ? 1 : 0);
}

/* ---- skeleton ------------------------------------------------------------------------------- */

typedef struct name_ref {
    const char *name;
    size_t index;
} name_ref;

static int name_ref_cmp(const void *a, const void *b)
{
    const name_ref *x = a, *y = b;
    const int c = strcmp(x->name, y->name);
    if (c != 0)
        return c;
    return (x->index > y->index) - (x->index < y->index);
}

static tendon_status check_skeleton_desc(const char *fn, const tendon_skeleton_desc *desc)
{
    const size_t n = desc->joint_count;
    char a[96], b[96], c[96];
    tendon_status s;
    if (n > INT32_MAX || n > SIZE_MAX / MAT_BYTES)
        return tendon_fail(TENDON_ERR_OVERFLOW,
                           "%s: joint_count %zu is too large (at most INT32_MAX, as parents are "
                           "int32_t, and 64·joint_count bytes must fit size_t)",
                           fn, n);
    if (n > 0 && !desc->parents)
        return tendon_fail(TENDON_ERR_NULL, "%s: desc->parents is NULL with %zu joints", fn, n);
    /* int32_t elements: 4 bytes, aligned as a float is */
    if ((s = tendon_check_array(fn, "desc->parents", desc->parents, n, 1)) != TENDON_OK)
        return s;
    /* const char * elements, aligned as a pointer is (a misaligned read is undefined behaviour) */
    if (desc->names && n > 0 &&
        (s = tendon_check_aligned(fn, "desc->names", desc->names, _Alignof(const char *))) !=
            TENDON_OK)
        return s;
    if (desc->names) {
        for (size_t j = 0; j < n; ++j) {
            if (!desc->names[j])
                return tendon_fail(TENDON_ERR_NULL,
                                   "%s: names[%zu] is NULL: name every joint, or pass names = "
                                   "NULL for an unnamed skeleton",
                                   fn, j);
            if (!desc->names[j][0])
                return tendon_fail(TENDON_ERR_VALUE,
                                   "%s: joint %zu has an empty name: a name is a joint's "
                                   "identity and must not be empty",
                                   fn, j);
        }
    }
    for (size_t j = 0; j < n; ++j) {
        const int32_t p = desc->parents[j];
        if (p < -1)
            return tendon_fail(TENDON_ERR_RANGE,
                               "%s: %s has parent %d: expected -1 (a root) or the index of an "
                               "earlier joint",
                               fn, joint_label(a, sizeof a, desc->names, j), (int)p);
        if (p >= 0 && (size_t)p >= j) {
            if ((size_t)p == j)
                return tendon_fail(TENDON_ERR_RANGE, "%s: %s is its own parent", fn,
                                   joint_label(a, sizeof a, desc->names, j));
            if ((size_t)p >= n)
                return tendon_fail(TENDON_ERR_RANGE,
                                   "%s: %s has parent %d, outside the %zu joints", fn,
                                   joint_label(a, sizeof a, desc->names, j), (int)p, n);
            return tendon_fail(TENDON_ERR_RANGE,
                               "%s: %s has parent %s, which comes after it: joints must be in "
                               "DFS pre-order, every parent before its children (parents[j] < j)",
                               fn, joint_label(a, sizeof a, desc->names, j),
                               joint_label(b, sizeof b, desc->names, (size_t)p));
        }
        /*
         * DFS pre-order, not only parents[j] < j: the parent of j must be j − 1 or an ancestor
         * of j − 1 (a root, p = −1, is always fine), so that every subtree is the contiguous
         * range after its root — what a partial model-matrix update relies on. The walk up
         * from j − 1 passes only joints whose subtrees close at j, which no later walk visits
         * again: O(joint_count) in all.
         */
        if (p >= 0 && j > 0) {
            int32_t x = (int32_t)(j - 1);
            while (x > p)
                x = desc->parents[x];
            if (x != p)
                return tendon_fail(
                    TENDON_ERR_RANGE,
                    "%s: %s has parent %s, which is neither the joint before it (%s) nor one of "
                    "that joint's ancestors: joints must be in DFS pre-order (each joint's "
                    "parent is the joint just before it or an ancestor of that joint), so that "
                    "every subtree is the contiguous range after its root",
                    fn, joint_label(a, sizeof a, desc->names, j),
                    joint_label(b, sizeof b, desc->names, (size_t)p),
                    joint_label(c, sizeof c, desc->names, j - 1));
        }
    }
    if (desc->rest) {
        s = tendon_check_pose(fn, "desc->rest", desc->rest);
        if (s != TENDON_OK)
            return s;
        if (desc->rest->joint_count != n)
            return tendon_fail(TENDON_ERR_COUNT,
                               "%s: the rest pose has %zu joints and the skeleton %zu; they must "
                               "be equal",
                               fn, desc->rest->joint_count, n);
    }
    return TENDON_OK;
}

/* Duplicate names: sorted copies, then neighbours. Allocates (n name refs). */
static tendon_status check_unique_names(const char *fn, const char *const *names, size_t n)
{
    if (!names || n < 2)
        return TENDON_OK;
    name_ref *refs = malloc(n * sizeof *refs);
    if (!refs)
        return tendon_fail(TENDON_ERR_NOMEM, "%s: could not allocate %zu bytes to check names",
                           fn, n * sizeof *refs);
    for (size_t j = 0; j < n; ++j) {
        refs[j].name = names[j];
        refs[j].index = j;
    }
    qsort(refs, n, sizeof *refs, name_ref_cmp);
    tendon_status s = TENDON_OK;
    for (size_t i = 1; i < n; ++i) {
        if (strcmp(refs[i - 1].name, refs[i].name) == 0) {
            s = tendon_fail(TENDON_ERR_VALUE,
                            "%s: joints %zu and %zu are both named \"%.64s\": names must be "
                            "unique",
                            fn, refs[i - 1].index, refs[i].index, refs[i].name);
            break;
        }
    }
    free(refs);
    return s;
}

void tendon_skeleton_destroy(tendon_skeleton *skeleton)
{
    if (!skeleton)
        return;
    if (skeleton->names) {
        for (size_t j = 0; j < skeleton->joint_count; ++j)
            free(skeleton->names[j]);
        free(skeleton->names);
    }
    free(skeleton->parents);
    free(skeleton->level_order);
    tendon_pose_destroy(&skeleton->rest);
    free(skeleton);
}

/*
 * The level order of a validated parents array (parents[j] < j): every joint of depth 0 (the
 * roots), then depth 1, …, each depth in joint order — a counting sort by depth. Parents come
 * before their children, and consecutive joints of one depth do not depend on one another.
 * Returns 0 when out of memory.
 */
static int level_order(const int32_t *parents, size_t n, uint32_t *order)
{
    uint32_t *depth = malloc((n ? n : 1) * sizeof *depth);
    size_t *start = calloc(n + 1, sizeof *start); /* depth < n */
    if (!depth || !start) {
        free(depth), free(start);
        return 0;
    }
    for (size_t j = 0; j < n; ++j) {
        depth[j] = parents[j] < 0 ? 0 : depth[parents[j]] + 1;
        ++start[depth[j] + 1];
    }
    for (size_t d = 1; d <= n; ++d)
        start[d] += start[d - 1];
    for (size_t j = 0; j < n; ++j)
        order[start[depth[j]]++] = (uint32_t)j;
    free(depth), free(start);
    return 1;
}

tendon_status tendon_skeleton_create(const tendon_skeleton_desc *desc, tendon_skeleton **out)
{
    TENDON_FPENV_GUARD_OUT(out); /* a refusal sets *out to NULL too */
    static const char fn[] = "tendon_skeleton_create";
    if (!out)
        return tendon_fail(TENDON_ERR_NULL, "%s: out is NULL", fn);
    *out = NULL;
    if (!desc)
        return tendon_fail(TENDON_ERR_NULL, "%s: desc is NULL", fn);
    tendon_status s = tendon_check_aligned(fn, "desc", desc, _Alignof(tendon_skeleton_desc));
    if (s == TENDON_OK)
        s = check_skeleton_desc(fn, desc);
    if (s == TENDON_OK)
        s = check_unique_names(fn, desc->names, desc->joint_count);
    if (s != TENDON_OK)
        return s;

    const size_t n = desc->joint_count;
    tendon_skeleton *sk = calloc(1, sizeof *sk);
    if (!sk)
        return tendon_fail(TENDON_ERR_NOMEM, "%s: out of memory", fn);
    sk->joint_count = n;
    sk->parents = malloc((n ? n : 1) * sizeof *sk->parents);
    if (!sk->parents)
        goto nomem;
    if (n)
        memcpy(sk->parents, desc->parents, n * sizeof *sk->parents);
    sk->level_order = malloc((n ? n : 1) * sizeof *sk->level_order);
    if (!sk->level_order || !level_order(sk->parents, n, sk->level_order))
        goto nomem;
    if (desc->names) {
        sk->names = calloc(n ? n : 1, sizeof *sk->names);
        if (!sk->names)
            goto nomem;
        for (size_t j = 0; j < n; ++j) {
            const size_t len = strlen(desc->names[j]) + 1;
            sk->names[j] = malloc(len);
            if (!sk->names[j])
                goto nomem;
            memcpy(sk->names[j], desc->names[j], len);
        }
    }
    if ((s = tendon_pose_create(n, &sk->rest)) != TENDON_OK) {
        tendon_skeleton_destroy(sk);
        return s;
    }
    if (desc->rest && n) {
        memcpy(sk->rest.translation, desc->rest->translation, 3 * n * sizeof(float));
        memcpy(sk->rest.rotation, desc->rest->rotation, 4 * n * sizeof(float));
        memcpy(sk->rest.scale, desc->rest->scale, 3 * n * sizeof(float));
    }
    *out = sk;
    return TENDON_OK;
nomem:
    tendon_skeleton_destroy(sk);
    return tendon_fail(TENDON_ERR_NOMEM, "%s: out of memory for %zu joints", fn, n);
}

size_t tendon_skeleton_joint_count(const tendon_skeleton *skeleton)
{
    return skeleton ? skeleton->joint_count : 0;
}

const int32_t *tendon_skeleton_parents(const tendon_skeleton *skeleton)
{
    return skeleton && skeleton->joint_count ? skeleton->parents : NULL;
}

const uint32_t *tendon_skeleton_level_order(const tendon_skeleton *skeleton)
{
    return skeleton && skeleton->joint_count ? skeleton->level_order : NULL;
}

const char *tendon_skeleton_joint_name(const tendon_skeleton *skeleton, size_t joint)
{
    if (!skeleton || !skeleton->names || joint >= skeleton->joint_count)
        return NULL;
    return skeleton->names[joint];
}

tendon_status tendon_skeleton_find_joint(const tendon_skeleton *skeleton, const char *name,
                                         size_t *out)
{
    static const char fn[] = "tendon_skeleton_find_joint";
    if (!skeleton || !name || !out)
        return tendon_fail(TENDON_ERR_NULL, "%s: %s is NULL", fn,
                           !skeleton ? "skeleton" : !name ? "name" : "out");
    tendon_status s = tendon_check_aligned(fn, "out", out, _Alignof(size_t));
    if (s != TENDON_OK)
        return s;
    if (skeleton->names) {
        for (size_t j = 0; j < skeleton->joint_count; ++j) {
            if (strcmp(skeleton->names[j], name) == 0) {
                *out = j;
                return TENDON_OK;
            }
        }
    }
    return tendon_fail(TENDON_ERR_NOT_FOUND, "%s: no joint is named \"%.64s\"%s", fn, name,
                       skeleton->names ? "" : " (the skeleton has no names)");
}

const tendon_pose *tendon_skeleton_rest_view(const tendon_skeleton *skeleton)
{
    return &skeleton->rest;
}

tendon_status tendon_skeleton_rest_pose(const tendon_skeleton *skeleton, tendon_pose *out)
{
    if (!skeleton)
        return tendon_fail(TENDON_ERR_NULL, "tendon_skeleton_rest_pose: skeleton is NULL");
    tendon_status s = tendon_check_pose("tendon_skeleton_rest_pose", "out", out);
    if (s != TENDON_OK)
        return s;
    if (out->joint_count != skeleton->joint_count)
        return tendon_fail(TENDON_ERR_COUNT,
                           "tendon_skeleton_rest_pose: out has %zu joints and the skeleton %zu; "
                           "they must be equal",
                           out->joint_count, skeleton->joint_count);
    return tendon_pose_copy(&skeleton->rest, out);
}

/* ---- local and model matrices ----------------------------------------------------------------- */

/* out (matrices of n joints) against the pose's three arrays. */
static tendon_status check_out_vs_pose(const char *fn, const char *out_name, const float *out,
                                       size_t n, const tendon_pose *pose)
{
    const size_t bytes = n * MAT_BYTES, t = 3 * n * sizeof(float), r = 4 * n * sizeof(float);
    if (tendon_ranges_overlap(out, bytes, pose->translation, t) ||
        tendon_ranges_overlap(out, bytes, pose->rotation, r) ||
        tendon_ranges_overlap(out, bytes, pose->scale, t))
        return tendon_fail(TENDON_ERR_ALIAS, "%s: %s overlaps the pose's arrays", fn, out_name);
    return TENDON_OK;
}

tendon_status tendon_local_matrices(const tendon_pose *pose, float *out_local)
{
    TENDON_FPENV_GUARD();
    static const char fn[] = "tendon_local_matrices";
    const tendon_kernels *k;
    tendon_status s;
    if ((s = tendon_check_pose(fn, "pose", pose)) != TENDON_OK)
        return s;
    const size_t n = pose->joint_count;
    if ((s = check_matrices(fn, "out_local", out_local, n)) != TENDON_OK ||
        (s = check_out_vs_pose(fn, "out_local", out_local, n, pose)) != TENDON_OK ||
        (s = tendon_active_kernels(&k)) != TENDON_OK)
        return s;
    if (n)
        k->local_matrices(pose->translation, pose->rotation, pose->scale, n, out_local);
    return TENDON_OK;
}

/* The model pass over every joint, in the order that pays on k (k->model_pass_level_order). */
static void model_pass_all(const tendon_kernels *k, const tendon_skeleton *skeleton,
                           const float *local, const float *root_matrix, float *model)
{
    const size_t n = skeleton->joint_count;
    if (k->model_pass_level_order)
        k->model_matrices_ordered(local, skeleton->parents, root_matrix, skeleton->level_order,
                                  n, model);
    else
        k->model_matrices(local, skeleton->parents, root_matrix, 0, n, model);
}

tendon_status tendon_model_matrices(const tendon_skeleton *skeleton, const float *local,
                                    const float *root_matrix, size_t first, size_t count,
                                    float *model)
{
    return tendon_model_matrices_on(NULL, skeleton, local, root_matrix, first, count, model);
}

tendon_status tendon_model_matrices_on(const tendon_kernels *kernels,
                                       const tendon_skeleton *skeleton, const float *local,
                                       const float *root_matrix, size_t first, size_t count,
                                       float *model)
{
    TENDON_FPENV_GUARD();
    static const char fn[] = "tendon_model_matrices";
    const tendon_kernels *k = kernels;
    tendon_status s;
    if (!skeleton)
        return tendon_fail(TENDON_ERR_NULL, "%s: skeleton is NULL", fn);
    const size_t n = skeleton->joint_count;
    if (first > n || count > n - first)
        return tendon_fail(TENDON_ERR_RANGE,
                           "%s: joints [%zu, %zu + %zu) are not all within the skeleton's %zu "
                           "joints",
                           fn, first, first, count, n);
    const size_t end = first + count;
    if (count > 0) {
        if ((s = check_matrices(fn, "local", local, n)) != TENDON_OK ||
            (s = check_matrices(fn, "model", model, n)) != TENDON_OK)
            return s;
        if (local != model && tendon_ranges_overlap(local, n * MAT_BYTES, model, n * MAT_BYTES))
            return tendon_fail(TENDON_ERR_ALIAS,
                               "%s: local and model partly overlap; they may be the same array "
                               "(in place) but not overlap otherwise",
                               fn);
        if ((s = check_root(fn, root_matrix)) != TENDON_OK)
            return s;
        if (root_matrix && tendon_ranges_overlap(root_matrix, MAT_BYTES, model + 16 * first,
                                                 count * MAT_BYTES))
            return tendon_fail(TENDON_ERR_ALIAS, "%s: root_matrix overlaps the model matrices "
                                                 "being written", fn);
    }
    if (!k && (s = tendon_active_kernels(&k)) != TENDON_OK)
        return s;
    if (count == n && n) /* the whole skeleton: maybe by level, the same bits */
        model_pass_all(k, skeleton, local, root_matrix, model);
    else if (count)
        k->model_matrices(local, skeleton->parents, root_matrix, first, end, model);
    return TENDON_OK;
}

/* Checks shared by tendon_pose_model_matrices and tendon_pose_palette. */
static tendon_status check_pose_model(const char *fn, const tendon_skeleton *skeleton,
                                      const tendon_pose *pose, const float *root_matrix,
                                      float *model)
{
    tendon_status s;
    if (!skeleton)
        return tendon_fail(TENDON_ERR_NULL, "%s: skeleton is NULL", fn);
    if ((s = tendon_check_pose(fn, "pose", pose)) != TENDON_OK)
        return s;
    const size_t n = skeleton->joint_count;
    if (pose->joint_count != n)
        return tendon_fail(TENDON_ERR_COUNT,
                           "%s: the pose has %zu joints and the skeleton %zu; they must be equal",
                           fn, pose->joint_count, n);
    if ((s = check_matrices(fn, "model", model, n)) != TENDON_OK ||
        (s = check_out_vs_pose(fn, "model", model, n, pose)) != TENDON_OK ||
        (s = check_root(fn, root_matrix)) != TENDON_OK)
        return s;
    if (root_matrix && tendon_ranges_overlap(root_matrix, MAT_BYTES, model, n * MAT_BYTES))
        return tendon_fail(TENDON_ERR_ALIAS, "%s: root_matrix overlaps model", fn);
    return TENDON_OK;
}

tendon_status tendon_pose_model_matrices(const tendon_skeleton *skeleton, const tendon_pose *pose,
                                         const float *root_matrix, float *out_model)
{
    TENDON_FPENV_GUARD();
    static const char fn[] = "tendon_pose_model_matrices";
    const tendon_kernels *k;
    tendon_status s;
    if ((s = check_pose_model(fn, skeleton, pose, root_matrix, out_model)) != TENDON_OK ||
        (s = tendon_active_kernels(&k)) != TENDON_OK)
        return s;
    const size_t n = skeleton->joint_count;
    if (n) {
        k->local_matrices(pose->translation, pose->rotation, pose->scale, n, out_model);
        model_pass_all(k, skeleton, out_model, root_matrix, out_model);
    }
    return TENDON_OK;
}

/* ---- inverse bind matrices ------------------------------------------------------------------ */

/*
 * The general affine inverse of m (column-major, bottom row (0,0,0,1)) into out, in double:
 * A⁻¹ = adj(A)/det(A), t' = −A⁻¹·t. Returns 0, with what was found written into why, if m has a
 * non-finite element, is not affine, is singular, or its inverse overflows float.
 */
static int affine_inverse(const float *m, float *out, char *why, size_t why_size)
{
    for (int e = 0; e < 16; ++e) {
        if (!isfinite(m[e])) {
            snprintf(why, why_size, "has a non-finite element (m[%d] = %g)", e, (double)m[e]);
            return 0;
        }
    }
    if (m[3] != 0.0f || m[7] != 0.0f || m[11] != 0.0f || m[15] != 1.0f) {
        snprintf(why, why_size, "is not affine: its bottom row is (%g %g %g %g), not (0 0 0 1)",
                 (double)m[3], (double)m[7], (double)m[11], (double)m[15]);
        return 0;
    }
    const double a = m[0], b = m[4], c = m[8];
    const double d = m[1], e = m[5], f = m[9];
    const double g = m[2], h = m[6], i = m[10];
    const double c00 = e * i - f * h, c01 = f * g - d * i, c02 = d * h - e * g;
    const double c10 = c * h - b * i, c11 = a * i - c * g, c12 = b * g - a * h;
    const double c20 = b * f - c * e, c21 = c * d - a * f, c22 = a * e - b * d;
    const double det = (a * c00 + b * c01) + c * c02;
    if (det == 0.0) {
        snprintf(why, why_size, "is singular: its 3×3 determinant is 0");
        return 0;
    }
    /* float elements, so |det| < 6·FLT_MAX³ fits double: det is finite here */
    /* inv[r][col] = C[col][r] / det */
    const double inv[3][3] = {{c00 / det, c10 / det, c20 / det},
                              {c01 / det, c11 / det, c21 / det},
                              {c02 / det, c12 / det, c22 / det}};
    const double t[3] = {m[12], m[13], m[14]};
    float r[16];
    for (int row = 0; row < 3; ++row) {
        for (int col = 0; col < 3; ++col)
            r[4 * col + row] = (float)inv[row][col];
        r[12 + row] = (float)(-((inv[row][0] * t[0] + inv[row][1] * t[1]) + inv[row][2] * t[2]));
    }
    r[3] = r[7] = r[11] = 0.0f;
    r[15] = 1.0f;
    for (int k = 0; k < 12; ++k) {
        if (!isfinite(r[k])) {
            snprintf(why, why_size,
                     "has an inverse that overflows float (nearly singular: its 3×3 determinant "
                     "is %g)",
                     det);
            return 0;
        }
    }
    /* A⁻¹ fits float: the translation −A⁻¹·t alone overflows (a far translation, however well
       conditioned the matrix) */
    for (int k = 12; k < 15; ++k) {
        if (!isfinite(r[k])) {
            snprintf(why, why_size,
                     "has an inverse whose translation overflows float (its translation is "
                     "(%g %g %g); its 3×3 determinant is %g)",
                     t[0], t[1], t[2], det);
            return 0;
        }
    }
    if (out)
        memcpy(out, r, sizeof r);
    return 1;
}

static tendon_status check_joint_of(const char *fn, const uint32_t *joint_of, size_t count,
                                    size_t joint_count)
{
    if (count > 0 && !joint_of)
        return tendon_fail(TENDON_ERR_NULL, "%s: joint_of is NULL with %zu palette entries", fn,
                           count);
    if (count > SIZE_MAX / MAT_BYTES)
        return tendon_fail(TENDON_ERR_OVERFLOW,
                           "%s: palette_count %zu: 64·palette_count bytes overflow size_t", fn,
                           count);
    /* uint32_t elements: 4 bytes, aligned as a float is */
    tendon_status s = tendon_check_array(fn, "joint_of", joint_of, count, 1);
    if (s != TENDON_OK)
        return s;
    for (size_t k = 0; k < count; ++k)
        if (joint_of[k] >= joint_count)
            return tendon_fail(TENDON_ERR_RANGE,
                               "%s: joint_of[%zu] = %u is not a joint of the skeleton (it has "
                               "%zu joints)",
                               fn, k, (unsigned)joint_of[k], joint_count);
    return TENDON_OK;
}

static tendon_status inverse_bind_from_rest(const char *fn, const tendon_skeleton *skeleton,
                                            const float *root_matrix, const uint32_t *joint_of,
                                            size_t count, float *out)
{
    const size_t n = skeleton->joint_count;
    if (count == 0)
        return TENDON_OK;
    float *world = tendon_aligned_alloc(64, (n * MAT_BYTES + 63) & ~(size_t)63);
    if (!world)
        return tendon_fail(TENDON_ERR_NOMEM, "%s: could not allocate %zu bytes of scratch", fn,
                           n * MAT_BYTES);
    /* The scalar reference: every ISA computes these same bits. */
    tendon_local_matrices_scalar(skeleton->rest.translation, skeleton->rest.rotation,
                                 skeleton->rest.scale, n, world);
    tendon_model_matrices_scalar(world, skeleton->parents, root_matrix, 0, n, world);
    /* Check every entry before writing any. */
    for (size_t k = 0; k < count; ++k) {
        char why[160], label[96];
        if (!affine_inverse(world + 16 * (size_t)joint_of[k], NULL, why, sizeof why)) {
            tendon_aligned_free(world);
            return tendon_fail(TENDON_ERR_VALUE,
                               "%s: the world rest matrix of %s (palette entry %zu) %s: no "
                               "inverse bind matrix",
                               fn, joint_label(label, sizeof label,
                                               (const char *const *)skeleton->names, joint_of[k]),
                               k, why);
        }
    }
    for (size_t k = 0; k < count; ++k) {
        char why[160];
        affine_inverse(world + 16 * (size_t)joint_of[k], out + 16 * k, why, sizeof why);
    }
    tendon_aligned_free(world);
    return TENDON_OK;
}

tendon_status tendon_inverse_bind_from_rest(const tendon_skeleton *skeleton,
                                            const float *root_matrix, const uint32_t *joint_of,
                                            size_t palette_count, float *out_inverse_bind)
{
    TENDON_FPENV_GUARD();
    static const char fn[] = "tendon_inverse_bind_from_rest";
    tendon_status s;
    if (!skeleton)
        return tendon_fail(TENDON_ERR_NULL, "%s: skeleton is NULL", fn);
    if ((s = check_joint_of(fn, joint_of, palette_count, skeleton->joint_count)) != TENDON_OK ||
        (s = check_matrices(fn, "out_inverse_bind", out_inverse_bind, palette_count)) !=
            TENDON_OK ||
        (s = check_root(fn, root_matrix)) != TENDON_OK)
        return s;
    const size_t bytes = palette_count * MAT_BYTES;
    if (tendon_ranges_overlap(out_inverse_bind, bytes, joint_of, palette_count * sizeof *joint_of) ||
        (root_matrix && tendon_ranges_overlap(out_inverse_bind, bytes, root_matrix, MAT_BYTES)))
        return tendon_fail(TENDON_ERR_ALIAS, "%s: out_inverse_bind overlaps joint_of or "
                                             "root_matrix", fn);
    return inverse_bind_from_rest(fn, skeleton, root_matrix, joint_of, palette_count,
                                  out_inverse_bind);
}

/* ---- skin bindings -------------------------------------------------------------------------- */

void tendon_skin_binding_destroy(tendon_skin_binding *binding)
{
    if (!binding)
        return;
    free(binding->joint_of);
    tendon_aligned_free(binding->inverse_bind);
    tendon_aligned_free(binding->inverse_bind_splat);
    free(binding);
}

tendon_status tendon_skin_binding_create(const tendon_skeleton *skeleton, const uint32_t *joint_of,
                                         const float *inverse_bind, size_t palette_count,
                                         tendon_skin_binding **out)
{
    TENDON_FPENV_GUARD_OUT(out); /* a refusal sets *out to NULL too */
    static const char fn[] = "tendon_skin_binding_create";
    tendon_status s;
    if (!out)
        return tendon_fail(TENDON_ERR_NULL, "%s: out is NULL", fn);
    *out = NULL;
    if (!skeleton)
        return tendon_fail(TENDON_ERR_NULL, "%s: skeleton is NULL", fn);
    /* the splat table is the largest allocation, 4 matrices an entry: its size overflows only
       where size_t is 32-bit (2^24 entries and more); refused before joint_of is read */
    if (palette_count > SIZE_MAX / (4 * MAT_BYTES))
        return tendon_fail(TENDON_ERR_OVERFLOW, "%s: palette_count %zu: its table of %zu-byte "
                           "entries overflows size_t", fn, palette_count, 4 * MAT_BYTES);
    if ((s = check_joint_of(fn, joint_of, palette_count, skeleton->joint_count)) != TENDON_OK ||
        (inverse_bind &&
         (s = check_matrices(fn, "inverse_bind", inverse_bind, palette_count)) != TENDON_OK))
        return s;
    tendon_skin_binding *b = calloc(1, sizeof *b);
    if (!b)
        return tendon_fail(TENDON_ERR_NOMEM, "%s: out of memory", fn);
    const size_t n = palette_count;
    b->palette_count = n;
    b->joint_count = skeleton->joint_count;
    b->joint_of = malloc((n ? n : 1) * sizeof *b->joint_of);
    b->inverse_bind = tendon_aligned_alloc(64, n ? (n * MAT_BYTES + 63) & ~(size_t)63 : 64);
    b->inverse_bind_splat = tendon_aligned_alloc(64, n ? 4 * n * MAT_BYTES : 64);
    if (!b->joint_of || !b->inverse_bind || !b->inverse_bind_splat) {
        tendon_skin_binding_destroy(b);
        return tendon_fail(TENDON_ERR_NOMEM, "%s: out of memory for %zu palette entries", fn, n);
    }
    if (n)
        memcpy(b->joint_of, joint_of, n * sizeof *b->joint_of);
    if (inverse_bind) {
        if (n)
            memcpy(b->inverse_bind, inverse_bind, n * MAT_BYTES);
    } else if ((s = inverse_bind_from_rest(fn, skeleton, NULL, joint_of, n, b->inverse_bind)) !=
               TENDON_OK) {
        tendon_skin_binding_destroy(b);
        return s;
    }
    make_inverse_bind_splat(b->inverse_bind, n, b->inverse_bind_splat);
    *out = b;
    return TENDON_OK;
}

size_t tendon_skin_binding_palette_count(const tendon_skin_binding *binding)
{
    return binding ? binding->palette_count : 0;
}

size_t tendon_skin_binding_joint_count(const tendon_skin_binding *binding)
{
    return binding ? binding->joint_count : 0;
}

const uint32_t *tendon_skin_binding_joints(const tendon_skin_binding *binding)
{
    return binding && binding->palette_count ? binding->joint_of : NULL;
}

const float *tendon_skin_binding_inverse_bind(const tendon_skin_binding *binding)
{
    return binding && binding->palette_count ? binding->inverse_bind : NULL;
}

/* ---- palette -------------------------------------------------------------------------------- */

/* The palette products on k, through the binding's splat table where that pays on k (for a
   palette of this length). */
static void palette_on(const tendon_kernels *k, const tendon_skin_binding *b, const float *model,
                       float *out)
{
    if (k->palette_splat_pays && b->palette_count <= k->palette_splat_max)
        k->palette_splat(model, b->joint_of, b->inverse_bind_splat, b->palette_count, out);
    else
        k->palette(model, b->joint_of, b->inverse_bind, b->palette_count, out);
}

static tendon_status check_palette_out(const char *fn, const tendon_skin_binding *binding,
                                       const float *model, size_t joint_count, float *out_palette)
{
    tendon_status s;
    if (!binding)
        return tendon_fail(TENDON_ERR_NULL, "%s: binding is NULL", fn);
    if (joint_count != binding->joint_count)
        return tendon_fail(TENDON_ERR_COUNT,
                           "%s: %zu model matrices given, but the binding was made for a "
                           "skeleton of %zu joints",
                           fn, joint_count, binding->joint_count);
    if ((s = check_matrices(fn, "model", model, joint_count)) != TENDON_OK ||
        (s = check_matrices(fn, "out_palette", out_palette, binding->palette_count)) != TENDON_OK)
        return s;
    if (tendon_ranges_overlap(out_palette, binding->palette_count * MAT_BYTES, model,
                              joint_count * MAT_BYTES))
        return tendon_fail(TENDON_ERR_ALIAS, "%s: out_palette overlaps model", fn);
    return TENDON_OK;
}

tendon_status tendon_palette(const tendon_skin_binding *binding, const float *model,
                             size_t joint_count, float *out_palette)
{
    TENDON_FPENV_GUARD();
    static const char fn[] = "tendon_palette";
    const tendon_kernels *k;
    tendon_status s;
    if ((s = check_palette_out(fn, binding, model, joint_count, out_palette)) != TENDON_OK ||
        (s = tendon_active_kernels(&k)) != TENDON_OK)
        return s;
    if (binding->palette_count)
        palette_on(k, binding, model, out_palette);
    return TENDON_OK;
}

tendon_status tendon_pose_palette(const tendon_skeleton *skeleton,
                                  const tendon_skin_binding *binding, const tendon_pose *pose,
                                  const float *root_matrix, float *model, float *out_palette)
{
    TENDON_FPENV_GUARD();
    static const char fn[] = "tendon_pose_palette";
    const tendon_kernels *k;
    tendon_status s;
    if ((s = check_pose_model(fn, skeleton, pose, root_matrix, model)) != TENDON_OK ||
        (s = check_palette_out(fn, binding, model, skeleton->joint_count, out_palette)) !=
            TENDON_OK)
        return s;
    const size_t pb = binding->palette_count * MAT_BYTES;
    if (tendon_ranges_overlap(out_palette, pb, pose->translation,
                              3 * pose->joint_count * sizeof(float)) ||
        tendon_ranges_overlap(out_palette, pb, pose->rotation,
                              4 * pose->joint_count * sizeof(float)) ||
        tendon_ranges_overlap(out_palette, pb, pose->scale, 3 * pose->joint_count * sizeof(float)) ||
        (root_matrix && tendon_ranges_overlap(out_palette, pb, root_matrix, MAT_BYTES)))
        return tendon_fail(TENDON_ERR_ALIAS, "%s: out_palette overlaps the pose or root_matrix",
                           fn);
    if ((s = tendon_active_kernels(&k)) != TENDON_OK)
        return s;
    const size_t n = skeleton->joint_count;
    if (n) {
        k->local_matrices(pose->translation, pose->rotation, pose->scale, n, model);
        model_pass_all(k, skeleton, model, root_matrix, model);
    }
    if (binding->palette_count)
        palette_on(k, binding, model, out_palette);
    return TENDON_OK;
}
