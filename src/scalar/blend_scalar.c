/*
 * Scalar reference: pose blend and additive layer (seed 000 blend.js blendPoses / addPose).
 * Read float, compute in double, round once on store; every joint read before it is written,
 * so `out` may be exactly `a`/`b` (`base`/`delta`).
 */
#include "../common/kernels_internal.h"
#include "../common/quat_ref.h"
#include "../common/max0_ref.h"

static const double IDENTITY[4] = {0.0, 0.0, 0.0, 1.0};

/*
 * The weight of joint j: t, or with a mask m = clamp(joint_weights[j], 0, 1): 0 where m is 0
 * (that bone is not in the layer, whatever t is: even an infinite t, where t·0 would be NaN),
 * else t·m. A NaN mask weight propagates.
 */
static inline double joint_weight(double t, const float *joint_weights, size_t j)
{
    if (!joint_weights)
        return t;
    const double m = tendon_ref_clamp01((double)joint_weights[j]);
    return m == 0.0 ? 0.0 : t * m;
}

double tendon_blend_joint_weight(double t, const float *joint_weights, size_t j)
{
    return joint_weight(t, joint_weights, j);
}

/* One joint of the blend at weight w (already clamped to [0, 1]). */
static inline void blend_joint(const tendon_pose *a, const tendon_pose *b, double w, size_t j,
                               tendon_pose *out)
{
    {
        for (size_t c = 0; c < 3; ++c) {
            const double from = (double)a->translation[3 * j + c];
            const double to = (double)b->translation[3 * j + c];
            const double scale_from = (double)a->scale[3 * j + c];
            const double scale_to = (double)b->scale[3 * j + c];
            out->translation[3 * j + c] = (float)(from + (to - from) * w);
            out->scale[3 * j + c] = (float)(scale_from + (scale_to - scale_from) * w);
        }
        double qa[4], qb[4], q[4];
        tendon_ref_load4(a->rotation + 4 * j, qa);
        tendon_ref_load4(b->rotation + 4 * j, qb);
        tendon_ref_slerp(qa, qb, w, q);
        tendon_ref_store4(q, out->rotation + 4 * j);
    }
}

void tendon_pose_blend_scalar_from(const tendon_pose *a, const tendon_pose *b, double t,
                                   const float *joint_weights, size_t first, size_t joint_count,
                                   tendon_pose *out)
{
    for (size_t j = first; j < joint_count; ++j)
        blend_joint(a, b, tendon_ref_clamp01(joint_weight(t, joint_weights, j)), j, out);
}

void tendon_pose_blend_weighted_scalar_from(const tendon_pose *a, const tendon_pose *b,
                                            const double *weights, size_t first,
                                            size_t joint_count, tendon_pose *out)
{
    for (size_t j = first; j < joint_count; ++j)
        blend_joint(a, b, tendon_ref_clamp01(weights[j]), j, out);
}

void tendon_pose_blend_weighted_scalar(const tendon_pose *a, const tendon_pose *b,
                                       const double *weights, size_t joint_count,
                                       tendon_pose *out)
{
    tendon_pose_blend_weighted_scalar_from(a, b, weights, 0, joint_count, out);
}

void tendon_pose_blend_scalar(const tendon_pose *a, const tendon_pose *b, double t,
                              const float *joint_weights, size_t joint_count, tendon_pose *out)
{
    tendon_pose_blend_scalar_from(a, b, t, joint_weights, 0, joint_count, out);
}

/* The rotation of one joint of the additive layer at weight w = max0(raw): base ⊗ the slerp
   from the identity toward delta at min(w, 1), rounded (quaternions of 4 floats; out may be
   base or delta). */
static inline void add_rotation(const float *base, const float *delta, double w, size_t j,
                                float *out)
{
    double qd[4], scaled[4], qb[4], q[4];
    tendon_ref_load4(delta + 4 * j, qd);
    tendon_ref_slerp(IDENTITY, qd, w > 1.0 ? 1.0 : w, scaled);
    /* The seed keeps the scaled delta in a float32 scratch: round it before the product. */
    for (int c = 0; c < 4; ++c)
        scaled[c] = (double)(float)scaled[c];
    tendon_ref_load4(base + 4 * j, qb);
    tendon_ref_multiply(qb, scaled, q);
    tendon_ref_store4(q, out + 4 * j);
}

/* One joint of the additive layer at raw weight `raw` (t·m, not yet clamped below at 0). */
static inline void add_joint(const tendon_pose *base, const tendon_pose *delta, double raw,
                             size_t j, tendon_pose *out)
{
    const double w = tendon_ref_max0(raw);
    for (size_t c = 0; c < 3; ++c) {
        const double bt = (double)base->translation[3 * j + c];
        const double dt = (double)delta->translation[3 * j + c];
        const double bs = (double)base->scale[3 * j + c];
        const double ds = (double)delta->scale[3 * j + c];
        out->translation[3 * j + c] = (float)(bt + dt * w);
        /* One at weight zero, the delta's own factor at weight one. */
        out->scale[3 * j + c] = (float)(bs * (1.0 + (ds - 1.0) * w));
    }
    add_rotation(base->rotation, delta->rotation, w, j, out->rotation);
}

void tendon_quat_add_weighted_scalar_from(const float *base, const float *delta,
                                          const double *weights, size_t first, size_t count,
                                          float *out)
{
    for (size_t i = first; i < count; ++i)
        add_rotation(base, delta, tendon_ref_max0(weights[i]), i, out);
}

void tendon_quat_add_weighted_scalar(const float *base, const float *delta,
                                     const double *weights, size_t count, float *out)
{
    tendon_quat_add_weighted_scalar_from(base, delta, weights, 0, count, out);
}

void tendon_pose_add_scalar_from(const tendon_pose *base, const tendon_pose *delta, double weight,
                                 const float *joint_weights, size_t first, size_t joint_count,
                                 tendon_pose *out)
{
    for (size_t j = first; j < joint_count; ++j)
        add_joint(base, delta, joint_weight(weight, joint_weights, j), j, out);
}

void tendon_pose_add_weighted_scalar_from(const tendon_pose *base, const tendon_pose *delta,
                                          const double *weights, size_t first,
                                          size_t joint_count, tendon_pose *out)
{
    for (size_t j = first; j < joint_count; ++j)
        add_joint(base, delta, weights[j], j, out);
}

void tendon_pose_add_weighted_scalar(const tendon_pose *base, const tendon_pose *delta,
                                     const double *weights, size_t joint_count, tendon_pose *out)
{
    tendon_pose_add_weighted_scalar_from(base, delta, weights, 0, joint_count, out);
}

void tendon_pose_add_scalar(const tendon_pose *base, const tendon_pose *delta, double weight,
                            const float *joint_weights, size_t joint_count, tendon_pose *out)
{
    tendon_pose_add_scalar_from(base, delta, weight, joint_weights, 0, joint_count, out);
}
