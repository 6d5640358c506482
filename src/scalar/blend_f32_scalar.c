/*
 * Scalar reference of the float32 tier's pose and quaternion kernels (docs/fast-tier.md):
 * the meaning of tendon_pose_blend_f32, tendon_pose_blend_nlerp_f32, tendon_pose_add_f32 (and
 * their masked forms), tendon_quat_{slerp,nlerp,multiply}_f32 and tendon_pose_blend_layers_f32.
 *
 * Weights are computed in double as the seed-exact tier computes them (a per-joint weight is
 * clamp(t·m_j) in double) and rounded to float32 once (tendon_weight_to_f32); every later
 * operation is float32, in the orders of src/common/quat_ref_f32.h. Every joint is read before
 * it is written, so `out` may be exactly an input pose.
 */
#include "../common/kernels_internal.h"
#include "../common/quat_ref.h"
#include "../common/quat_ref_f32.h"
#include "../common/max0_ref.h"

/* The exact tier's per-joint weight in double (blend_scalar.c joint_weight): 0 where the mask
   is 0 whatever t is, else t·m with m = clamp(mask, 0, 1); NaN propagates. */
static inline double joint_weight(double t, const float *joint_weights, size_t j)
{
    if (!joint_weights)
        return t;
    const double m = tendon_ref_clamp01((double)joint_weights[j]);
    return m == 0.0 ? 0.0 : t * m;
}

float tendon_blend_weight_f32(double t, const float *joint_weights, size_t j)
{
    return tendon_weight_to_f32(tendon_ref_clamp01(joint_weight(t, joint_weights, j)));
}

float tendon_add_weight_f32(double weight, const float *joint_weights, size_t j)
{
    const double raw = joint_weight(weight, joint_weights, j);
    return tendon_weight_to_f32(tendon_ref_max0(raw));
}

/* `given`: the joints' float weights as they are (the _weighted kernels), else t and the mask. */
static void blend_from(const tendon_pose *a, const tendon_pose *b, double t,
                       const float *joint_weights, const float *given, size_t first,
                       size_t joint_count, tendon_pose *out, int nlerp)
{
    for (size_t j = first; j < joint_count; ++j) {
        const float w = given ? given[j] : tendon_blend_weight_f32(t, joint_weights, j);
        for (size_t c = 0; c < 3; ++c) {
            const float from = a->translation[3 * j + c], to = b->translation[3 * j + c];
            const float sfrom = a->scale[3 * j + c], sto = b->scale[3 * j + c];
            out->translation[3 * j + c] = from + (to - from) * w;
            out->scale[3 * j + c] = sfrom + (sto - sfrom) * w;
        }
        float qa[4], qb[4], q[4];
        for (int c = 0; c < 4; ++c) {
            qa[c] = a->rotation[4 * j + c];
            qb[c] = b->rotation[4 * j + c];
        }
        if (nlerp)
            tendon_reff_nlerp(qa, qb, w, q);
        else
            tendon_reff_slerp(qa, qb, w, q);
        for (int c = 0; c < 4; ++c)
            out->rotation[4 * j + c] = q[c];
    }
}

void tendon_pose_blend_f32_scalar_from(const tendon_pose *a, const tendon_pose *b, double t,
                                       const float *joint_weights, size_t first,
                                       size_t joint_count, tendon_pose *out)
{
    blend_from(a, b, t, joint_weights, NULL, first, joint_count, out, 0);
}

void tendon_pose_blend_nlerp_f32_scalar_from(const tendon_pose *a, const tendon_pose *b,
                                             double t, const float *joint_weights, size_t first,
                                             size_t joint_count, tendon_pose *out)
{
    blend_from(a, b, t, joint_weights, NULL, first, joint_count, out, 1);
}

void tendon_pose_blend_f32_scalar(const tendon_pose *a, const tendon_pose *b, double t,
                                  const float *joint_weights, size_t joint_count,
                                  tendon_pose *out)
{
    blend_from(a, b, t, joint_weights, NULL, 0, joint_count, out, 0);
}

void tendon_pose_blend_nlerp_f32_scalar(const tendon_pose *a, const tendon_pose *b, double t,
                                        const float *joint_weights, size_t joint_count,
                                        tendon_pose *out)
{
    blend_from(a, b, t, joint_weights, NULL, 0, joint_count, out, 1);
}

/* The rotation of one joint of the additive layer at float weight w: base ⊗ the slerp from the
   identity toward delta at min(w, 1) (quaternions of 4 floats; out may be base or delta). */
static inline void add_rotation(const float *base, const float *delta, float w, size_t j,
                                float *out)
{
    float qd[4], qb[4], scaled[4], q[4];
    for (int c = 0; c < 4; ++c) {
        qd[c] = delta[4 * j + c];
        qb[c] = base[4 * j + c];
    }
    tendon_reff_slerp_from_identity(qd, w > 1.0f ? 1.0f : w, scaled);
    tendon_reff_multiply(qb, scaled, q);
    for (int c = 0; c < 4; ++c)
        out[4 * j + c] = q[c];
}

/* One joint of the additive layer at float weight w (≥ 0 or NaN; +∞ allowed). */
static inline void add_joint(const tendon_pose *base, const tendon_pose *delta, float w, size_t j,
                             tendon_pose *out)
{
    for (size_t c = 0; c < 3; ++c) {
        const float bt = base->translation[3 * j + c], dt = delta->translation[3 * j + c];
        const float bs = base->scale[3 * j + c], ds = delta->scale[3 * j + c];
        out->translation[3 * j + c] = bt + dt * w;
        out->scale[3 * j + c] = bs * (1.0f + (ds - 1.0f) * w);
    }
    add_rotation(base->rotation, delta->rotation, w, j, out->rotation);
}

void tendon_quat_add_weighted_f32_scalar_from(const float *base, const float *delta,
                                              const float *weights, size_t first, size_t count,
                                              float *out)
{
    for (size_t i = first; i < count; ++i)
        add_rotation(base, delta, weights[i], i, out);
}

void tendon_quat_add_weighted_f32_scalar(const float *base, const float *delta,
                                         const float *weights, size_t count, float *out)
{
    tendon_quat_add_weighted_f32_scalar_from(base, delta, weights, 0, count, out);
}

void tendon_pose_add_f32_scalar_from(const tendon_pose *base, const tendon_pose *delta,
                                     double weight, const float *joint_weights, size_t first,
                                     size_t joint_count, tendon_pose *out)
{
    for (size_t j = first; j < joint_count; ++j)
        add_joint(base, delta, tendon_add_weight_f32(weight, joint_weights, j), j, out);
}

void tendon_pose_add_f32_scalar(const tendon_pose *base, const tendon_pose *delta, double weight,
                                const float *joint_weights, size_t joint_count, tendon_pose *out)
{
    tendon_pose_add_f32_scalar_from(base, delta, weight, joint_weights, 0, joint_count, out);
}

void tendon_pose_blend_weighted_f32_scalar_from(const tendon_pose *a, const tendon_pose *b,
                                                const float *weights, size_t first,
                                                size_t joint_count, tendon_pose *out)
{
    blend_from(a, b, 0.0, NULL, weights, first, joint_count, out, 0);
}

void tendon_pose_blend_weighted_f32_scalar(const tendon_pose *a, const tendon_pose *b,
                                           const float *weights, size_t joint_count,
                                           tendon_pose *out)
{
    blend_from(a, b, 0.0, NULL, weights, 0, joint_count, out, 0);
}

void tendon_pose_add_weighted_f32_scalar_from(const tendon_pose *base, const tendon_pose *delta,
                                              const float *weights, size_t first,
                                              size_t joint_count, tendon_pose *out)
{
    for (size_t j = first; j < joint_count; ++j)
        add_joint(base, delta, weights[j], j, out);
}

void tendon_pose_add_weighted_f32_scalar(const tendon_pose *base, const tendon_pose *delta,
                                         const float *weights, size_t joint_count,
                                         tendon_pose *out)
{
    tendon_pose_add_weighted_f32_scalar_from(base, delta, weights, 0, joint_count, out);
}

void tendon_quat_slerp_f32_scalar_from(const float *a, const float *b, const float *t,
                                       size_t first, size_t count, float *out)
{
    for (size_t i = first; i < count; ++i) {
        float q[4];
        tendon_reff_slerp(a + 4 * i, b + 4 * i, tendon_reff_clamp01(t[i]), q);
        for (int c = 0; c < 4; ++c)
            out[4 * i + c] = q[c];
    }
}

void tendon_quat_nlerp_f32_scalar_from(const float *a, const float *b, const float *t,
                                       size_t first, size_t count, float *out)
{
    for (size_t i = first; i < count; ++i) {
        float q[4];
        tendon_reff_nlerp(a + 4 * i, b + 4 * i, tendon_reff_clamp01(t[i]), q);
        for (int c = 0; c < 4; ++c)
            out[4 * i + c] = q[c];
    }
}

void tendon_quat_multiply_f32_scalar_from(const float *a, const float *b, size_t first,
                                          size_t count, float *out)
{
    for (size_t i = first; i < count; ++i) {
        float q[4];
        tendon_reff_multiply(a + 4 * i, b + 4 * i, q);
        for (int c = 0; c < 4; ++c)
            out[4 * i + c] = q[c];
    }
}

void tendon_quat_slerp_f32_scalar(const float *a, const float *b, const float *t, size_t count,
                                  float *out)
{
    tendon_quat_slerp_f32_scalar_from(a, b, t, 0, count, out);
}

void tendon_quat_nlerp_f32_scalar(const float *a, const float *b, const float *t, size_t count,
                                  float *out)
{
    tendon_quat_nlerp_f32_scalar_from(a, b, t, 0, count, out);
}

void tendon_quat_multiply_f32_scalar(const float *a, const float *b, size_t count, float *out)
{
    tendon_quat_multiply_f32_scalar_from(a, b, 0, count, out);
}

/* ---- N-layer blending (tendon_pose_blend_layers_f32: the formula in tendon/blend.h) ---- */

/* One blended layer's contribution at joint j with float weight w (≥ 0, or NaN). */
static inline void layer_accumulate(const tendon_pose *p, size_t j, float w, float *W, float T[3],
                                    float S[3], float Q[4])
{
    *W = *W + w;
    for (int c = 0; c < 3; ++c) {
        T[c] = T[c] + w * p->translation[3 * j + c];
        S[c] = S[c] + w * p->scale[3 * j + c];
    }
    const float *q = p->rotation + 4 * j;
    const float sw = tendon_reff_dot(Q, q) < 0.0f ? -w : w;
    for (int c = 0; c < 4; ++c)
        Q[c] = Q[c] + sw * q[c];
}

/* Is this layer skipped (weight ≤ 0 or −∞; NaN is not skipped: it propagates)? */
static inline int layer_skipped(const tendon_blend_layer *l) { return l->weight <= 0.0; }

/* A layer's weight at joint j: w_f · clamp(joint_weights[j], 0, 1) in float, with w_f the
   layer weight rounded to float once (saturated at FLT_MAX; > 0 or NaN: the layer is not
   skipped). */
static inline float layer_weight(const tendon_blend_layer *l, float w_f, size_t j)
{
    return l->joint_weights ? w_f * tendon_reff_clamp01(l->joint_weights[j]) : w_f;
}

void tendon_pose_blend_layers_f32_scalar_from(const tendon_blend_layers_job *job, size_t first,
                                              size_t joint_count, tendon_pose *out)
{
    const float theta = (float)job->threshold;
    const tendon_pose *rest = job->rest_pose;
    for (size_t j = first; j < joint_count; ++j) {
        float W = 0.0f, T[3] = {0.0f, 0.0f, 0.0f}, S[3] = {0.0f, 0.0f, 0.0f};
        float Q[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        for (size_t i = 0; i < job->layer_count; ++i) {
            const tendon_blend_layer *l = &job->layers[i];
            if (!layer_skipped(l))
                layer_accumulate(l->pose, j,
                                 layer_weight(l, tendon_add_weight_f32(l->weight, NULL, 0), j), &W,
                                 T, S, Q);
        }
        if (W == 0.0f) {
            for (int c = 0; c < 3; ++c) {
                T[c] = rest->translation[3 * j + c];
                S[c] = rest->scale[3 * j + c];
            }
            for (int c = 0; c < 4; ++c)
                Q[c] = rest->rotation[4 * j + c];
        } else {
            const float r = theta - W;
            if (r > 0.0f) {
                float W2 = W;
                layer_accumulate(rest, j, r, &W2, T, S, Q);
                W = W2;
            }
            const float inv = 1.0f / W;
            for (int c = 0; c < 3; ++c) {
                T[c] = T[c] * inv;
                S[c] = S[c] * inv;
            }
            tendon_reff_normalize(Q);
        }
        for (size_t k = 0; k < job->additive_count; ++k) {
            const tendon_blend_layer *l = &job->additive_layers[k];
            if (layer_skipped(l))
                continue;
            const tendon_pose *d = l->pose;
            const float w = layer_weight(l, tendon_add_weight_f32(l->weight, NULL, 0), j);
            for (int c = 0; c < 3; ++c) {
                T[c] = T[c] + d->translation[3 * j + c] * w;
                S[c] = S[c] * (1.0f + (d->scale[3 * j + c] - 1.0f) * w);
            }
            float scaled[4], q[4];
            tendon_reff_slerp_from_identity(d->rotation + 4 * j, w > 1.0f ? 1.0f : w, scaled);
            tendon_reff_multiply(Q, scaled, q);
            for (int c = 0; c < 4; ++c)
                Q[c] = q[c];
        }
        for (int c = 0; c < 3; ++c) {
            out->translation[3 * j + c] = T[c];
            out->scale[3 * j + c] = S[c];
        }
        for (int c = 0; c < 4; ++c)
            out->rotation[4 * j + c] = Q[c];
    }
}

void tendon_pose_blend_layers_f32_scalar(const tendon_blend_layers_job *job, size_t joint_count,
                                         tendon_pose *out)
{
    tendon_pose_blend_layers_f32_scalar_from(job, 0, joint_count, out);
}
