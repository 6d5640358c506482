/* Retargeting by joint name (tendon/retarget.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/detmath.h"
#include "common/fpenv.h"
#include "common/kernels_internal.h"
#include "common/quat_ref.h"

struct tendon_retarget_map {
    size_t source_count, target_count;
    size_t *source_of;   /* [target_count]; SIZE_MAX: unmatched */
    double *ratio;       /* [target_count] */
    double *inv_source;  /* [4*target_count]: conj(normalised source rest rotation) */
    double *target_rest_q; /* [4*target_count]: normalised target rest rotation */
    tendon_pose source_rest, target_rest;
    size_t *unmatched;   /* [unmatched_count] */
    size_t unmatched_count, source_unused;
    char *names_owner;   /* target names, for messages: one block */
    const char **target_names;
};

void tendon_retarget_map_destroy(tendon_retarget_map *m)
{
    if (!m)
        return;
    free(m->source_of);
    free(m->ratio);
    free(m->inv_source);
    free(m->target_rest_q);
    free(m->unmatched);
    free(m->names_owner);
    free(m->target_names);
    tendon_pose_destroy(&m->source_rest);
    tendon_pose_destroy(&m->target_rest);
    free(m);
}

static double length3(const float *t)
{
    const double x = t[0], y = t[1], z = t[2];
    return tendon_det_sqrt((x * x + y * y) + z * z);
}

static tendon_status load_rest_rotation(const char *fn, const char *which, const tendon_pose *p,
                                        size_t j, double q[4])
{
    tendon_ref_load4(p->rotation + 4 * j, q);
    if (q[0] == 0.0 && q[1] == 0.0 && q[2] == 0.0 && q[3] == 0.0)
        return tendon_fail(TENDON_ERR_VALUE, "%s: the %s skeleton's joint %zu has a rest "
                           "rotation of length 0", fn, which, j);
    tendon_ref_normalize(q);
    return TENDON_OK;
}

/* A paired joint's rest transform must be finite: a NaN or infinite component would make that
 * joint NaN (or ∞) in every retargeted frame, with TENDON_OK. */
static tendon_status check_rest_finite(const char *fn, const char *which,
                                       const tendon_skeleton *skeleton, const tendon_pose *rest,
                                       size_t j)
{
    static const char *const channel[3] = {"translation", "rotation", "scale"};
    const float *arrays[3] = {rest->translation + 3 * j, rest->rotation + 4 * j,
                              rest->scale + 3 * j};
    for (int a = 0; a < 3; ++a)
        for (int c = 0; c < (a == 1 ? 4 : 3); ++c) {
            const float v = arrays[a][c];
            if (!(v - v == 0.0f))
                return tendon_fail(TENDON_ERR_VALUE, "%s: the %s skeleton's joint %zu (\"%s\") "
                                   "has rest %s[%d] = %g; a paired joint's rest transform must "
                                   "be finite", fn, which, j,
                                   tendon_skeleton_joint_name(skeleton, j), channel[a], c,
                                   (double)v);
        }
    return TENDON_OK;
}

static tendon_status map_build(const tendon_skeleton *src, const tendon_skeleton *dst,
                               tendon_retarget_map *m)
{
    static const char fn[] = "tendon_retarget_map_create";
    const size_t ns = m->source_count, nt = m->target_count;
    tendon_status s;
    if ((s = tendon_pose_create(ns, &m->source_rest)) != TENDON_OK ||
        (s = tendon_pose_create(nt, &m->target_rest)) != TENDON_OK ||
        (s = tendon_skeleton_rest_pose(src, &m->source_rest)) != TENDON_OK ||
        (s = tendon_skeleton_rest_pose(dst, &m->target_rest)) != TENDON_OK)
        return s;
    unsigned char *used = calloc(ns ? ns : 1, 1);
    if (!used)
        return tendon_fail(TENDON_ERR_NOMEM, "%s: out of memory", fn);
    size_t name_bytes = 0;
    for (size_t j = 0; j < nt; ++j)
        name_bytes += strlen(tendon_skeleton_joint_name(dst, j)) + 1;
    m->names_owner = malloc(name_bytes ? name_bytes : 1);
    m->target_names = malloc((nt ? nt : 1) * sizeof *m->target_names);
    if (!m->names_owner || !m->target_names) {
        free(used);
        return tendon_fail(TENDON_ERR_NOMEM, "%s: out of memory", fn);
    }
    char *at = m->names_owner;
    for (size_t j = 0; j < nt; ++j) {
        const char *name = tendon_skeleton_joint_name(dst, j);
        const size_t len = strlen(name) + 1;
        memcpy(at, name, len);
        m->target_names[j] = at;
        at += len;
        size_t i;
        m->source_of[j] = SIZE_MAX;
        if (tendon_skeleton_find_joint(src, name, &i) == TENDON_OK) {
            m->source_of[j] = i;
            used[i] = 1;
        } else {
            m->unmatched[m->unmatched_count++] = j;
        }
    }
    for (size_t i = 0; i < ns; ++i)
        m->source_unused += !used[i];
    free(used);
    for (size_t j = 0; j < nt; ++j) {
        double tq[4];
        if ((s = load_rest_rotation(fn, "target", &m->target_rest, j, tq)) != TENDON_OK)
            return s;
        memcpy(m->target_rest_q + 4 * j, tq, sizeof tq);
        const size_t i = m->source_of[j];
        if (i == SIZE_MAX) {
            m->ratio[j] = 1.0;
            continue;
        }
        double sq[4];
        if ((s = check_rest_finite(fn, "source", src, &m->source_rest, i)) != TENDON_OK ||
            (s = check_rest_finite(fn, "target", dst, &m->target_rest, j)) != TENDON_OK ||
            (s = load_rest_rotation(fn, "source", &m->source_rest, i, sq)) != TENDON_OK)
            return s;
        m->inv_source[4 * j + 0] = -sq[0];
        m->inv_source[4 * j + 1] = -sq[1];
        m->inv_source[4 * j + 2] = -sq[2];
        m->inv_source[4 * j + 3] = sq[3];
        const double ls = length3(m->source_rest.translation + 3 * i);
        const double lt = length3(m->target_rest.translation + 3 * j);
        m->ratio[j] = ls > 0.0 && lt > 0.0 ? lt / ls : 1.0;
    }
    return TENDON_OK;
}

tendon_status tendon_retarget_map_create(const tendon_skeleton *source,
                                         const tendon_skeleton *target, tendon_retarget_map **out)
{
    TENDON_FPENV_GUARD_OUT(out); /* a refusal sets *out to NULL too */
    static const char fn[] = "tendon_retarget_map_create";
    if (!out)
        return tendon_fail(TENDON_ERR_NULL, "%s: out is NULL", fn);
    *out = NULL;
    if (!source || !target)
        return tendon_fail(TENDON_ERR_NULL, "%s: %s is NULL", fn, !source ? "source" : "target");
    const size_t ns = tendon_skeleton_joint_count(source), nt = tendon_skeleton_joint_count(target);
    if ((ns && !tendon_skeleton_joint_name(source, 0)) ||
        (nt && !tendon_skeleton_joint_name(target, 0)))
        return tendon_fail(TENDON_ERR_VALUE, "%s: the %s skeleton has no joint names; "
                           "retargeting pairs joints by name", fn,
                           ns && !tendon_skeleton_joint_name(source, 0) ? "source" : "target");
    if (nt > SIZE_MAX / (4 * sizeof(double)))
        return tendon_fail(TENDON_ERR_OVERFLOW, "%s: %zu joints overflow size_t in bytes", fn, nt);
    tendon_retarget_map *m = calloc(1, sizeof *m);
    const size_t k = nt ? nt : 1;
    if (m) {
        m->source_count = ns;
        m->target_count = nt;
        m->source_of = malloc(k * sizeof(size_t));
        m->ratio = malloc(k * sizeof(double));
        m->inv_source = calloc(4 * k, sizeof(double));
        m->target_rest_q = malloc(4 * k * sizeof(double));
        m->unmatched = malloc(k * sizeof(size_t));
    }
    if (!m || !m->source_of || !m->ratio || !m->inv_source || !m->target_rest_q ||
        !m->unmatched) {
        tendon_retarget_map_destroy(m);
        return tendon_fail(TENDON_ERR_NOMEM, "%s: out of memory for %zu joints", fn, nt);
    }
    tendon_status s = map_build(source, target, m);
    if (s != TENDON_OK) {
        tendon_retarget_map_destroy(m);
        return s;
    }
    *out = m;
    return TENDON_OK;
}

tendon_status tendon_retarget_map_unmatched(const tendon_retarget_map *m,
                                            const size_t **out_joints, size_t *out_count,
                                            size_t *out_source_unused)
{
    if (!m || !out_joints || !out_count)
        return tendon_fail(TENDON_ERR_NULL, "tendon_retarget_map_unmatched: %s is NULL",
                           !m ? "map" : !out_joints ? "out_joints" : "out_count");
    *out_joints = m->unmatched;
    *out_count = m->unmatched_count;
    if (out_source_unused)
        *out_source_unused = m->source_unused;
    return TENDON_OK;
}

tendon_status tendon_retarget_map_source_joint(const tendon_retarget_map *m, size_t target_joint,
                                               size_t *out)
{
    static const char fn[] = "tendon_retarget_map_source_joint";
    if (!m || !out)
        return tendon_fail(TENDON_ERR_NULL, "%s: %s is NULL", fn, !m ? "map" : "out");
    if (target_joint >= m->target_count)
        return tendon_fail(TENDON_ERR_RANGE, "%s: target joint %zu is out of range: the target "
                           "skeleton has %zu joints", fn, target_joint, m->target_count);
    if (m->source_of[target_joint] == SIZE_MAX)
        return tendon_fail(TENDON_ERR_NOT_FOUND, "%s: target joint %zu (\"%s\") has no source "
                           "joint of that name; it stays at rest", fn, target_joint,
                           m->target_names[target_joint]);
    *out = m->source_of[target_joint];
    return TENDON_OK;
}

tendon_status tendon_retarget_pose(const tendon_retarget_map *m, const tendon_pose *src,
                                   tendon_pose *out)
{
    TENDON_FPENV_GUARD();
    static const char fn[] = "tendon_retarget_pose";
    if (!m)
        return tendon_fail(TENDON_ERR_NULL, "%s: map is NULL", fn);
    tendon_status s;
    if ((s = tendon_check_pose(fn, "source_pose", src)) != TENDON_OK ||
        (s = tendon_check_pose(fn, "out", out)) != TENDON_OK)
        return s;
    if (src->joint_count != m->source_count || out->joint_count != m->target_count)
        return tendon_fail(TENDON_ERR_COUNT, "%s: source_pose has %zu joints (the source "
                           "skeleton %zu) and out %zu (the target skeleton %zu); each must match "
                           "its skeleton", fn, src->joint_count, m->source_count,
                           out->joint_count, m->target_count);
    const size_t ns = src->joint_count, nt = out->joint_count;
    const float *outs[3] = {out->translation, out->rotation, out->scale};
    const size_t out_bytes[3] = {3 * nt * sizeof(float), 4 * nt * sizeof(float),
                                 3 * nt * sizeof(float)};
    const float *ins[3] = {src->translation, src->rotation, src->scale};
    const size_t in_bytes[3] = {3 * ns * sizeof(float), 4 * ns * sizeof(float),
                                3 * ns * sizeof(float)};
    for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b)
            if (tendon_ranges_overlap(outs[a], out_bytes[a], ins[b], in_bytes[b]))
                return tendon_fail(TENDON_ERR_ALIAS, "%s: out overlaps source_pose", fn);
    const tendon_pose *sr = &m->source_rest, *tr = &m->target_rest;
    for (size_t j = 0; j < nt; ++j) {
        const size_t i = m->source_of[j];
        if (i == SIZE_MAX) {
            memcpy(out->translation + 3 * j, tr->translation + 3 * j, 3 * sizeof(float));
            memcpy(out->rotation + 4 * j, tr->rotation + 4 * j, 4 * sizeof(float));
            memcpy(out->scale + 3 * j, tr->scale + 3 * j, 3 * sizeof(float));
            continue;
        }
        double q[4], d[4], r[4];
        tendon_ref_load4(src->rotation + 4 * i, q);
        tendon_ref_multiply(m->inv_source + 4 * j, q, d);
        tendon_ref_multiply(m->target_rest_q + 4 * j, d, r);
        tendon_ref_normalize(r);
        tendon_ref_store4(r, out->rotation + 4 * j);
        for (int c = 0; c < 3; ++c) {
            const double off = (double)src->translation[3 * i + c] -
                               (double)sr->translation[3 * i + c];
            out->translation[3 * j + c] =
                (float)((double)tr->translation[3 * j + c] + off * m->ratio[j]);
            const double rs = sr->scale[3 * i + c];
            out->scale[3 * j + c] =
                rs != 0.0 ? (float)((double)tr->scale[3 * j + c] * ((double)src->scale[3 * i + c] / rs))
                          : tr->scale[3 * j + c];
        }
    }
    return TENDON_OK;
}
