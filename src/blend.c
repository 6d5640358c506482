/* Public entry points of tendon/blend.h: validate, then one call through the active table. */
#include <float.h>
#include <stdio.h>
#include "common/fpenv.h"
#include "common/kernels_internal.h"
#include "common/pose_fast_check.h"

static tendon_status check_two_poses(const char *fn, const char *a_name, const tendon_pose *a,
                                     const char *b_name, const tendon_pose *b,
                                     const float *joint_weights, int masked, tendon_pose *out)
{
    if (b && (!masked || joint_weights) &&
        tendon_pose_call_fast_ok(out, a, b, masked ? joint_weights : NULL))
        return TENDON_OK;
    tendon_status s;
    if ((s = tendon_check_pose(fn, a_name, a)) != TENDON_OK ||
        (s = tendon_check_pose(fn, b_name, b)) != TENDON_OK ||
        (s = tendon_check_pose(fn, "out", out)) != TENDON_OK)
        return s;
    if (a->joint_count != out->joint_count || b->joint_count != out->joint_count)
        return tendon_fail(TENDON_ERR_COUNT,
                           "%s: joint counts differ: %s has %zu, %s has %zu, out has %zu; they "
                           "must be equal",
                           fn, a_name, a->joint_count, b_name, b->joint_count, out->joint_count);
    if ((s = tendon_check_pose_alias(fn, "out", out, a_name, a)) != TENDON_OK ||
        (s = tendon_check_pose_alias(fn, "out", out, b_name, b)) != TENDON_OK)
        return s;
    if (masked) {
        const size_t n = out->joint_count;
        if ((s = tendon_check_array(fn, "joint_weights", joint_weights, n, 1)) != TENDON_OK)
            return s;
        const size_t w_bytes = n * sizeof(float);
        if (tendon_ranges_overlap(joint_weights, w_bytes, out->translation, 3 * w_bytes) ||
            tendon_ranges_overlap(joint_weights, w_bytes, out->rotation, 4 * w_bytes) ||
            tendon_ranges_overlap(joint_weights, w_bytes, out->scale, 3 * w_bytes))
            return tendon_fail(TENDON_ERR_ALIAS, "%s: joint_weights overlaps out", fn);
    }
    return TENDON_OK;
}

/* Which kernel of the table a public entry point calls. */
typedef enum pose_kernel {
    K_BLEND,
    K_ADD,
    K_BLEND_F32,
    K_BLEND_NLERP_F32,
    K_ADD_F32
} pose_kernel;

typedef void (*pose_kernel_fn)(const tendon_pose *, const tendon_pose *, double, const float *,
                               size_t, tendon_pose *);

static pose_kernel_fn kernel_of(const tendon_kernels *k, pose_kernel which)
{
    switch (which) {
    case K_BLEND: return k->pose_blend;
    case K_ADD: return k->pose_add;
    case K_BLEND_F32: return k->pose_blend_f32;
    case K_BLEND_NLERP_F32: return k->pose_blend_nlerp_f32;
    default: return k->pose_add_f32;
    }
}

/* Validate, then one call through the active table. */
static tendon_status run(const char *fn, pose_kernel which, const tendon_pose *a,
                         const tendon_pose *b, double t, const float *joint_weights, int masked,
                         tendon_pose *out)
{
    const int additive = which == K_ADD || which == K_ADD_F32;
    const tendon_kernels *k;
    tendon_status s = check_two_poses(fn, additive ? "base" : "a", a, additive ? "delta" : "b", b,
                                      joint_weights, masked, out);
    if (s == TENDON_OK && (s = tendon_active_kernels(&k)) == TENDON_OK && out->joint_count > 0)
        kernel_of(k, which)(a, b, t, masked ? joint_weights : NULL, out->joint_count, out);
    return s;
}

tendon_status tendon_pose_blend(const tendon_pose *a, const tendon_pose *b, double t,
                                tendon_pose *out)
{
    TENDON_FPENV_GUARD();
    return run("tendon_pose_blend", K_BLEND, a, b, t, NULL, 0, out);
}

tendon_status tendon_pose_blend_masked(const tendon_pose *a, const tendon_pose *b, double t,
                                       const float *joint_weights, tendon_pose *out)
{
    TENDON_FPENV_GUARD();
    return run("tendon_pose_blend_masked", K_BLEND, a, b, t, joint_weights, 1, out);
}

tendon_status tendon_pose_add(const tendon_pose *base, const tendon_pose *delta, double weight,
                              tendon_pose *out)
{
    TENDON_FPENV_GUARD();
    return run("tendon_pose_add", K_ADD, base, delta, weight, NULL, 0, out);
}

tendon_status tendon_pose_add_masked(const tendon_pose *base, const tendon_pose *delta,
                                     double weight, const float *joint_weights, tendon_pose *out)
{
    TENDON_FPENV_GUARD();
    return run("tendon_pose_add_masked", K_ADD, base, delta, weight, joint_weights, 1, out);
}

/* ---- the float32 tier ---- */

tendon_status tendon_pose_blend_f32(const tendon_pose *a, const tendon_pose *b, double t,
                                    tendon_pose *out)
{
    TENDON_FPENV_GUARD();
    return run("tendon_pose_blend_f32", K_BLEND_F32, a, b, t, NULL, 0, out);
}

tendon_status tendon_pose_blend_masked_f32(const tendon_pose *a, const tendon_pose *b, double t,
                                           const float *joint_weights, tendon_pose *out)
{
    TENDON_FPENV_GUARD();
    return run("tendon_pose_blend_masked_f32", K_BLEND_F32, a, b, t, joint_weights, 1, out);
}

tendon_status tendon_pose_blend_nlerp_f32(const tendon_pose *a, const tendon_pose *b, double t,
                                          tendon_pose *out)
{
    TENDON_FPENV_GUARD();
    return run("tendon_pose_blend_nlerp_f32", K_BLEND_NLERP_F32, a, b, t, NULL, 0, out);
}

tendon_status tendon_pose_blend_nlerp_masked_f32(const tendon_pose *a, const tendon_pose *b,
                                                 double t, const float *joint_weights,
                                                 tendon_pose *out)
{
    TENDON_FPENV_GUARD();
    return run("tendon_pose_blend_nlerp_masked_f32", K_BLEND_NLERP_F32, a, b, t, joint_weights, 1,
               out);
}

tendon_status tendon_pose_add_f32(const tendon_pose *base, const tendon_pose *delta,
                                  double weight, tendon_pose *out)
{
    TENDON_FPENV_GUARD();
    return run("tendon_pose_add_f32", K_ADD_F32, base, delta, weight, NULL, 0, out);
}

tendon_status tendon_pose_add_masked_f32(const tendon_pose *base, const tendon_pose *delta,
                                         double weight, const float *joint_weights,
                                         tendon_pose *out)
{
    TENDON_FPENV_GUARD();
    return run("tendon_pose_add_masked_f32", K_ADD_F32, base, delta, weight, joint_weights, 1,
               out);
}

/* ---- N-layer blending ---- */

/* One input pose of a layers job (a layer's, or the rest pose), against out. */
static tendon_status check_layer_pose(const char *fn, const char *what, const tendon_pose *p,
                                      const float *joint_weights, const tendon_pose *out)
{
    if (p && tendon_pose_call_fast_ok(out, p, NULL, joint_weights))
        return TENDON_OK;
    tendon_status s;
    if ((s = tendon_check_pose(fn, what, p)) != TENDON_OK)
        return s;
    if (p->joint_count != out->joint_count)
        return tendon_fail(TENDON_ERR_COUNT,
                           "%s: %s has %zu joints and out %zu; every pose must have out's joint "
                           "count",
                           fn, what, p->joint_count, out->joint_count);
    if ((s = tendon_check_pose_alias(fn, "out", out, what, p)) != TENDON_OK)
        return s;
    if (joint_weights) {
        const size_t n = out->joint_count;
        char name[96];
        snprintf(name, sizeof name, "%s's joint_weights", what);
        if ((s = tendon_check_array(fn, name, joint_weights, n, 1)) != TENDON_OK)
            return s;
        const size_t w_bytes = n * sizeof(float);
        if (tendon_ranges_overlap(joint_weights, w_bytes, out->translation, 3 * w_bytes) ||
            tendon_ranges_overlap(joint_weights, w_bytes, out->rotation, 4 * w_bytes) ||
            tendon_ranges_overlap(joint_weights, w_bytes, out->scale, 3 * w_bytes))
            return tendon_fail(TENDON_ERR_ALIAS, "%s: %s overlaps out", fn, name);
    }
    return TENDON_OK;
}

static tendon_status check_layers(const char *fn, const char *list, const tendon_blend_layer *l,
                                  size_t count, const tendon_pose *out)
{
    if (count > 0 && !l)
        return tendon_fail(TENDON_ERR_NULL, "%s: job->%s is NULL with a count of %zu", fn, list,
                           count);
    for (size_t i = 0; i < count; ++i) {
        if (l[i].pose && tendon_pose_call_fast_ok(out, l[i].pose, NULL, l[i].joint_weights))
            continue; /* the common case: no name to format */
        char what[64];
        snprintf(what, sizeof what, "job->%s[%zu].pose", list, i);
        if (!l[i].pose)
            return tendon_fail(TENDON_ERR_NULL, "%s: %s is NULL", fn, what);
        tendon_status s = check_layer_pose(fn, what, l[i].pose, l[i].joint_weights, out);
        if (s != TENDON_OK)
            return s;
    }
    return TENDON_OK;
}

tendon_status tendon_pose_blend_layers_f32(const tendon_blend_layers_job *job, tendon_pose *out)
{
    TENDON_FPENV_GUARD();
    static const char fn[] = "tendon_pose_blend_layers_f32";
    if (!job)
        return tendon_fail(TENDON_ERR_NULL, "%s: job is NULL", fn);
    tendon_status s = tendon_check_pose(fn, "out", out);
    if (s != TENDON_OK)
        return s;
    const double th = job->threshold;
    if (th > (double)FLT_MAX) /* 1e39 is a finite double, but not a float32 */
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: job->threshold is %g: too large: it is used as a float32, so it "
                           "must be at most FLT_MAX (%.9g) (ozz's default is "
                           "TENDON_BLEND_LAYERS_DEFAULT_THRESHOLD, 0.1)",
                           fn, th, (double)FLT_MAX);
    if (!(th > 0.0))
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: job->threshold is %g; it must be a number > 0 (ozz's default "
                           "is TENDON_BLEND_LAYERS_DEFAULT_THRESHOLD, 0.1)",
                           fn, th);
    if (!job->rest_pose)
        return tendon_fail(TENDON_ERR_NULL, "%s: job->rest_pose is NULL", fn);
    if ((s = check_layer_pose(fn, "job->rest_pose", job->rest_pose, NULL, out)) != TENDON_OK ||
        (s = check_layers(fn, "layers", job->layers, job->layer_count, out)) != TENDON_OK ||
        (s = check_layers(fn, "additive_layers", job->additive_layers, job->additive_count,
                          out)) != TENDON_OK)
        return s;
    const tendon_kernels *k;
    if ((s = tendon_active_kernels(&k)) == TENDON_OK && out->joint_count > 0)
        k->pose_blend_layers_f32(job, out->joint_count, out);
    return s;
}
