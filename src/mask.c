/* Bone masks, masked layers and delta poses (tendon/mask.h, seed 003). */
#include <stdio.h>
#include <string.h>

#include "common/detmath.h"
#include "common/fpenv.h"
#include "common/kernels_internal.h"
#include "common/quat_ref.h"
#include "common/quat_ref_f32.h"

static tendon_status check_falloff(const char *fn, double falloff)
{
    if (!(falloff >= 1.0 && falloff <= TENDON_BONE_MASK_MAX_FALLOFF))
        return tendon_fail(TENDON_ERR_VALUE, "%s: falloff is %g; it is the number of bones to "
                           "full authority and must be from 1 to %.0f", fn, falloff,
                           (double)TENDON_BONE_MASK_MAX_FALLOFF);
    return TENDON_OK;
}

static tendon_status build(const char *fn, const tendon_skeleton *sk, size_t root,
                           double falloff, float *w)
{
    const size_t n = tendon_skeleton_joint_count(sk);
    const int32_t *parents = tendon_skeleton_parents(sk);
    if (root >= n)
        return n == 0 ? tendon_fail(TENDON_ERR_RANGE, "%s: root %zu is out of range: the "
                                    "skeleton has 0 joints", fn, root)
                      : tendon_fail(TENDON_ERR_RANGE, "%s: root %zu is out of range: the "
                                    "skeleton has %zu joints (0..%zu)", fn, root, n, n - 1);
    tendon_status s = check_falloff(fn, falloff);
    if (s != TENDON_OK)
        return s;
    if ((s = tendon_check_array(fn, "out_weights", w, n, 1)) != TENDON_OK)
        return s;
    /* First pass: w[j] = depth below the root + 1 inside the subtree (exact in float up to
     * 2^24), 0 outside. Parents come before children (DFS pre-order). */
    for (size_t j = 0; j < root; ++j)
        w[j] = 0.0f;
    w[root] = 1.0f;
    for (size_t j = root + 1; j < n; ++j) {
        const int32_t p = parents[j];
        w[j] = (p >= 0 && (size_t)p >= root && w[p] > 0.0f) ? w[p] + 1.0f : 0.0f;
    }
    for (size_t j = root; j < n; ++j) {
        if (w[j] == 0.0f)
            continue;
        const double v = (double)w[j] / falloff;
        w[j] = (float)(v < 1.0 ? v : 1.0);
    }
    return TENDON_OK;
}

tendon_status tendon_bone_mask_by_index(const tendon_skeleton *skeleton, size_t root,
                                        double falloff, float *out_weights)
{
    TENDON_FPENV_GUARD();
    static const char fn[] = "tendon_bone_mask_by_index";
    if (!skeleton)
        return tendon_fail(TENDON_ERR_NULL, "%s: skeleton is NULL", fn);
    return build(fn, skeleton, root, falloff, out_weights);
}

static char lower(char c) { return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c; }

static int equal_nocase(const char *a, const char *b)
{
    while (*a && *b && lower(*a) == lower(*b))
        ++a, ++b;
    return *a == *b;
}

static int contains_nocase(const char *hay, const char *needle)
{
    const size_t hn = strlen(hay), nn = strlen(needle);
    for (size_t i = 0; nn && i + nn <= hn; ++i) {
        size_t k = 0;
        while (k < nn && lower(hay[i + k]) == lower(needle[k]))
            ++k;
        if (k == nn)
            return 1;
    }
    return 0;
}

enum { EDIT_MAX = 64 };

/* Case-insensitive Levenshtein distance; -1 when a name is longer than EDIT_MAX (no
 * allocation: two rows on the stack). */
static int edit_distance(const char *a, const char *b)
{
    const size_t an = strlen(a), bn = strlen(b);
    if (an > EDIT_MAX || bn > EDIT_MAX)
        return -1;
    int prev[EDIT_MAX + 1], cur[EDIT_MAX + 1];
    for (size_t j = 0; j <= bn; ++j)
        prev[j] = (int)j;
    for (size_t i = 1; i <= an; ++i) {
        cur[0] = (int)i;
        for (size_t j = 1; j <= bn; ++j) {
            const int sub = prev[j - 1] + (lower(a[i - 1]) != lower(b[j - 1]));
            const int del = prev[j] + 1, ins = cur[j - 1] + 1;
            cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
        memcpy(prev, cur, (bn + 1) * sizeof(int));
    }
    return prev[bn];
}

/* How close a joint name is to the name asked for: lower is closer, -1 is not near. */
static int nearness(const char *asked, const char *name)
{
    if (equal_nocase(asked, name))
        return 0;
    if (contains_nocase(name, asked) || contains_nocase(asked, name))
        return 1;
    const int d = edit_distance(asked, name);
    const int len = (int)strlen(asked), limit = len / 3 > 2 ? len / 3 : 2;
    return d >= 0 && d <= limit ? 2 + d : -1;
}

tendon_status tendon_bone_mask_by_name(const tendon_skeleton *skeleton, const char *root_name,
                                       double falloff, float *out_weights)
{
    TENDON_FPENV_GUARD();
    static const char fn[] = "tendon_bone_mask_by_name";
    if (!skeleton || !root_name)
        return tendon_fail(TENDON_ERR_NULL, "%s: %s is NULL", fn,
                           !skeleton ? "skeleton" : "root_name");
    const size_t n = tendon_skeleton_joint_count(skeleton);
    for (size_t j = 0; j < n; ++j) {
        const char *name = tendon_skeleton_joint_name(skeleton, j);
        if (name && strcmp(name, root_name) == 0)
            return build(fn, skeleton, j, falloff, out_weights);
    }
    if (n > 0 && !tendon_skeleton_joint_name(skeleton, 0))
        return tendon_fail(TENDON_ERR_NOT_FOUND, "%s: split root \"%.64s\" not found: the "
                           "skeleton has no joint names; give the root by index "
                           "(tendon_bone_mask_by_index)", fn, root_name);
    /* The five nearest names, by nearness then joint order. */
    size_t best[5];
    int score[5], count = 0;
    for (size_t j = 0; j < n; ++j) {
        const int s = nearness(root_name, tendon_skeleton_joint_name(skeleton, j));
        if (s < 0)
            continue;
        int at = count < 5 ? count : 5;
        while (at > 0 && score[at - 1] > s)
            --at;
        if (at >= 5)
            continue;
        for (int k = (count < 5 ? count : 4); k > at; --k) {
            best[k] = best[k - 1];
            score[k] = score[k - 1];
        }
        best[at] = j;
        score[at] = s;
        if (count < 5)
            ++count;
    }
    char list[320] = "";
    size_t used = 0;
    for (int k = 0; k < count && used < sizeof list; ++k) {
        int wrote = snprintf(list + used, sizeof list - used, "%s\"%.48s\"", k ? ", " : "",
                             tendon_skeleton_joint_name(skeleton, best[k]));
        if (wrote < 0)
            break;
        used += (size_t)wrote;
    }
    if (count)
        return tendon_fail(TENDON_ERR_NOT_FOUND, "%s: split root \"%.64s\" not found among the "
                           "skeleton's %zu joints; near matches: %s", fn, root_name, n, list);
    return tendon_fail(TENDON_ERR_NOT_FOUND, "%s: split root \"%.64s\" not found among the "
                       "skeleton's %zu joints, and no joint name is near it (a mask with no "
                       "root would be all zero and animate nothing)", fn, root_name, n);
}

tendon_status tendon_layer_apply(const tendon_pose *base, const tendon_pose *layer,
                                 double weight, const float *mask_weights,
                                 tendon_mask_mode mode, tendon_pose *out)
{
    TENDON_FPENV_GUARD();
    switch (mode) {
    case TENDON_MASK_ADDITIVE:
        return tendon_pose_add_masked(base, layer, weight, mask_weights, out);
    case TENDON_MASK_OVERRIDE:
        return tendon_pose_blend_masked(base, layer, weight, mask_weights, out);
    }
    return tendon_fail(TENDON_ERR_VALUE, "tendon_layer_apply: mode is %d; expected "
                       "TENDON_MASK_ADDITIVE (0) or TENDON_MASK_OVERRIDE (1)", (int)mode);
}

tendon_status tendon_layer_apply_f32(const tendon_pose *base, const tendon_pose *layer,
                                     double weight, const float *mask_weights,
                                     tendon_mask_mode mode, tendon_pose *out)
{
    TENDON_FPENV_GUARD();
    switch (mode) {
    case TENDON_MASK_ADDITIVE:
        return tendon_pose_add_masked_f32(base, layer, weight, mask_weights, out);
    case TENDON_MASK_OVERRIDE:
        return tendon_pose_blend_masked_f32(base, layer, weight, mask_weights, out);
    }
    return tendon_fail(TENDON_ERR_VALUE, "tendon_layer_apply_f32: mode is %d; expected "
                       "TENDON_MASK_ADDITIVE (0) or TENDON_MASK_OVERRIDE (1)", (int)mode);
}

/* The checks of tendon_pose_delta and its float32 twin (fn names the caller). */
static tendon_status delta_check(const char *fn, const tendon_pose *reference,
                                 const tendon_pose *pose, const tendon_pose *out)
{
    tendon_status s;
    if ((s = tendon_check_pose(fn, "reference", reference)) != TENDON_OK ||
        (s = tendon_check_pose(fn, "pose", pose)) != TENDON_OK ||
        (s = tendon_check_pose(fn, "out_delta", out)) != TENDON_OK)
        return s;
    if (reference->joint_count != out->joint_count || pose->joint_count != out->joint_count)
        return tendon_fail(TENDON_ERR_COUNT, "%s: joint counts differ: reference has %zu, pose "
                           "%zu, out_delta %zu; they must be equal", fn,
                           reference->joint_count, pose->joint_count, out->joint_count);
    if ((s = tendon_check_pose_alias(fn, "out_delta", out, "reference", reference)) !=
            TENDON_OK ||
        (s = tendon_check_pose_alias(fn, "out_delta", out, "pose", pose)) != TENDON_OK)
        return s;
    const size_t n = out->joint_count;
    for (size_t j = 0; j < n; ++j) {
        const float *rs = reference->scale + 3 * j, *rq = reference->rotation + 4 * j;
        for (int c = 0; c < 3; ++c)
            if (rs[c] == 0.0f)
                return tendon_fail(TENDON_ERR_VALUE, "%s: joint %zu's reference scale[%d] is "
                                   "0; a delta scale is pose / reference and has no value "
                                   "there", fn, j, c);
        if (rq[0] == 0.0f && rq[1] == 0.0f && rq[2] == 0.0f && rq[3] == 0.0f)
            return tendon_fail(TENDON_ERR_VALUE, "%s: joint %zu's reference rotation is "
                               "(0, 0, 0, 0), which is not a rotation", fn, j);
    }
    return TENDON_OK;
}

/*
 * A finite rotation equal to the reference's, component by component (== : ±0 alike), has the
 * identity as its delta: conj(r/|r|)·r/|conj(r/|r|)·r| is (0, 0, 0, 1) exactly, which the
 * rounded products miss by ~1e-17 in double or a float ulp in float32 — and a channel no track
 * drives (tendon_clip_delta_pose) must add nothing, bit for bit. (x − x == 0: x finite.)
 */
static int same_rotation(const double ref[4], const double q[4])
{
    int same = 1;
    for (int c = 0; c < 4; ++c)
        same &= ref[c] == q[c] && ref[c] - ref[c] == 0.0;
    return same;
}
static int same_rotation_f32(const float ref[4], const float q[4])
{
    int same = 1;
    for (int c = 0; c < 4; ++c)
        same &= ref[c] == q[c] && ref[c] - ref[c] == 0.0f;
    return same;
}

tendon_status tendon_pose_delta(const tendon_pose *reference, const tendon_pose *pose,
                                tendon_pose *out)
{
    TENDON_FPENV_GUARD();
    tendon_status s = delta_check("tendon_pose_delta", reference, pose, out);
    if (s != TENDON_OK)
        return s;
    const size_t n = out->joint_count;
    for (size_t j = 0; j < n; ++j) {
        double ref[4], q[4], d[4] = {0.0, 0.0, 0.0, 1.0};
        tendon_ref_load4(reference->rotation + 4 * j, ref);
        tendon_ref_load4(pose->rotation + 4 * j, q);
        if (!same_rotation(ref, q)) { /* equal: the identity, exactly (below) */
            tendon_ref_normalize(ref);
            ref[0] = -ref[0];
            ref[1] = -ref[1];
            ref[2] = -ref[2];
            tendon_ref_multiply(ref, q, d);
            tendon_ref_normalize(d);
        }
        double t[3], sc[3];
        for (int c = 0; c < 3; ++c) {
            t[c] = (double)pose->translation[3 * j + c] - (double)reference->translation[3 * j + c];
            sc[c] = (double)pose->scale[3 * j + c] / (double)reference->scale[3 * j + c];
        }
        for (int c = 0; c < 3; ++c) {
            out->translation[3 * j + c] = (float)t[c];
            out->scale[3 * j + c] = (float)sc[c];
        }
        tendon_ref_store4(d, out->rotation + 4 * j);
    }
    return TENDON_OK;
}

tendon_status tendon_pose_delta_f32(const tendon_pose *reference, const tendon_pose *pose,
                                    tendon_pose *out)
{
    TENDON_FPENV_GUARD();
    tendon_status s = delta_check("tendon_pose_delta_f32", reference, pose, out);
    if (s != TENDON_OK)
        return s;
    const size_t n = out->joint_count;
    for (size_t j = 0; j < n; ++j) {
        float ref[4], q[4], d[4] = {0.0f, 0.0f, 0.0f, 1.0f};
        for (int c = 0; c < 4; ++c) {
            ref[c] = reference->rotation[4 * j + c];
            q[c] = pose->rotation[4 * j + c];
        }
        if (!same_rotation_f32(ref, q)) { /* equal: the identity, exactly (same_rotation) */
            tendon_reff_normalize(ref);
            ref[0] = -ref[0];
            ref[1] = -ref[1];
            ref[2] = -ref[2];
            tendon_reff_multiply(ref, q, d);
            tendon_reff_normalize(d);
        }
        float t[3], sc[3];
        for (int c = 0; c < 3; ++c) {
            t[c] = pose->translation[3 * j + c] - reference->translation[3 * j + c];
            sc[c] = pose->scale[3 * j + c] / reference->scale[3 * j + c];
        }
        for (int c = 0; c < 3; ++c) {
            out->translation[3 * j + c] = t[c];
            out->scale[3 * j + c] = sc[c];
        }
        for (int c = 0; c < 4; ++c)
            out->rotation[4 * j + c] = d[c];
    }
    return TENDON_OK;
}

/* tendon_clip_delta_pose and its float32 twin: copy, sample over the copy, take the delta. */
static tendon_status clip_delta(const char *fn, int f32, const tendon_clip *clip,
                                double time_sec, const tendon_pose *reference,
                                tendon_pose *out_delta)
{
    if (!clip)
        return tendon_fail(TENDON_ERR_NULL, "%s: clip is NULL", fn);
    tendon_status s;
    if ((s = tendon_check_pose(fn, "reference", reference)) != TENDON_OK ||
        (s = tendon_check_pose(fn, "out_delta", out_delta)) != TENDON_OK)
        return s;
    /* (two 0-joint poses may both hold NULL arrays: they share nothing) */
    if (reference->joint_count > 0 && out_delta->translation == reference->translation)
        return tendon_fail(TENDON_ERR_ALIAS, "%s: out_delta is reference; it must be another "
                           "pose (the clip is sampled over a copy of the reference)", fn);
    /* no array of one may share a byte with any of the other: sampling into a shared rotation
       array wrote into the const reference and took the delta against the result */
    if ((s = tendon_check_poses_apart(fn, "out_delta", out_delta, "reference", reference)) !=
        TENDON_OK)
        return s;
    if ((s = tendon_pose_copy(reference, out_delta)) != TENDON_OK ||
        (s = (f32 ? tendon_clip_sample_f32 : tendon_clip_sample)(clip, time_sec, out_delta)) !=
            TENDON_OK)
        return s;
    return (f32 ? tendon_pose_delta_f32 : tendon_pose_delta)(reference, out_delta, out_delta);
}

tendon_status tendon_clip_delta_pose(const tendon_clip *clip, double time_sec,
                                     const tendon_pose *reference, tendon_pose *out_delta)
{
    TENDON_FPENV_GUARD();
    return clip_delta("tendon_clip_delta_pose", 0, clip, time_sec, reference, out_delta);
}

tendon_status tendon_clip_delta_pose_f32(const tendon_clip *clip, double time_sec,
                                         const tendon_pose *reference, tendon_pose *out_delta)
{
    TENDON_FPENV_GUARD();
    return clip_delta("tendon_clip_delta_pose_f32", 1, clip, time_sec, reference, out_delta);
}
