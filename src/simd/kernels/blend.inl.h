/*
 * THE SIMD body of pose blend and the additive layer (seed 000 blend.js), written once over the
 * op layer and instantiated per ISA by src/simd/<isa>/blend_<isa>.c: the lane-wise twin of
 * src/scalar/blend_scalar.c. Stages of up to TENDON_STAGE blocks of W joints (see
 * quat_core.inl.h): rotations loaded and transposed, then slerp coefficients, then finish and
 * store; translation and scale as 3·W contiguous floats per block with the per-joint weight
 * expanded to components (no transpose). Every block's inputs are read before its outputs are
 * written, so out may be exactly an input pose. Fewer than W joints left go to the scalar
 * reference.
 */
#include "quat_core.inl.h"
#include "../../common/kernels_internal.h"

/** The weight of W joints from j (joint_weight in src/scalar/blend_scalar.c). */
static inline vd vjoint_weight(double t, const float *joint_weights, size_t j)
{
    if (!joint_weights)
        return vset1(t);
    const vd m = vclamp01(vload_f32(joint_weights + j));
    return vsel(veq(m, vset1(0.0)), vset1(0.0), vmul(vset1(t), m));
}

/* pose_blend with the joints' weights from t and the mask, or given (`given` non-NULL). */
static inline __attribute__((always_inline)) void blend_body(
    const tendon_pose *a, const tendon_pose *b, double t, const float *joint_weights,
    const double *given, size_t joint_count, tendon_pose *out)
{
    TENDON_FOR_STAGES(joint_count, done, {
        vquat qa[TENDON_STAGE], qb[TENDON_STAGE];
        vd w[TENDON_STAGE], s0[TENDON_STAGE], s1[TENDON_STAGE];
        for (size_t c = 0; c < nb; ++c) {
            const size_t j = first + c * TENDON_W;
            qa[c] = vload_quat4(a->rotation + 4 * j);
            qb[c] = vload_quat4(b->rotation + 4 * j);
            w[c] = vclamp01(given ? vload_f64(given + j) : vjoint_weight(t, joint_weights, j));
        }
        for (size_t c = 0; c < nb; ++c)
            vslerp_coeffs(qa[c], qb[c], w[c], &s0[c], &s1[c]);
        for (size_t c = 0; c < nb; ++c) {
            const size_t j = first + c * TENDON_W;
            vstore_quat4(out->rotation + 4 * j, vslerp_finish(qa[c], qb[c], s0[c], s1[c]));
            vd e[3], from[3], to[3], r[3];
            vexpand3(w[c], &e[0], &e[1], &e[2]);
            /* translation, then scale: from + (to − from)·w */
            vload_f32x3(a->translation + 3 * j, &from[0], &from[1], &from[2]);
            vload_f32x3(b->translation + 3 * j, &to[0], &to[1], &to[2]);
            for (int k = 0; k < 3; ++k)
                r[k] = vadd(from[k], vmul(vsub(to[k], from[k]), e[k]));
            vstore_f32x3(out->translation + 3 * j, r[0], r[1], r[2]);
            vload_f32x3(a->scale + 3 * j, &from[0], &from[1], &from[2]);
            vload_f32x3(b->scale + 3 * j, &to[0], &to[1], &to[2]);
            for (int k = 0; k < 3; ++k)
                r[k] = vadd(from[k], vmul(vsub(to[k], from[k]), e[k]));
            vstore_f32x3(out->scale + 3 * j, r[0], r[1], r[2]);
        }
    })
    if (given)
        tendon_pose_blend_weighted_scalar_from(a, b, given, done, joint_count, out);
    else
        tendon_pose_blend_scalar_from(a, b, t, joint_weights, done, joint_count, out);
}

void TENDON_FN(pose_blend)(const tendon_pose *a, const tendon_pose *b, double t,
                           const float *joint_weights, size_t joint_count, tendon_pose *out)
{
    blend_body(a, b, t, joint_weights, NULL, joint_count, out);
}

void TENDON_FN(pose_blend_weighted)(const tendon_pose *a, const tendon_pose *b,
                                    const double *weights, size_t joint_count, tendon_pose *out)
{
    blend_body(a, b, 0.0, NULL, weights, joint_count, out);
}

/* pose_add with the joints' weights from weight and the mask, or given (`given` non-NULL);
   rotations_only (a constant once inlined): the rotations alone (quat_add_weighted: the poses'
   translations and scales are neither read nor written). */
static inline __attribute__((always_inline)) void add_body(
    const tendon_pose *base, const tendon_pose *delta, double weight, const float *joint_weights,
    const double *given, size_t joint_count, tendon_pose *out, int rotations_only)
{
    const vd zero = vset1(0.0), one = vset1(1.0);
    const vquat identity = {zero, zero, zero, one};
    TENDON_FOR_STAGES(joint_count, done, {
        vquat qd[TENDON_STAGE];
        vd w[TENDON_STAGE], s0[TENDON_STAGE], s1[TENDON_STAGE];
        for (size_t c = 0; c < nb; ++c) {
            const size_t j = first + c * TENDON_W;
            qd[c] = vload_quat4(delta->rotation + 4 * j);
            const vd raw = given ? vload_f64(given + j) : vjoint_weight(weight, joint_weights, j);
            w[c] = vsel(vlt(raw, zero), zero, raw);
        }
        for (size_t c = 0; c < nb; ++c)
            vslerp_coeffs(identity, qd[c], vsel(vgt(w[c], one), one, w[c]), &s0[c], &s1[c]);
        for (size_t c = 0; c < nb; ++c) {
            const size_t j = first + c * TENDON_W;
            vquat scaled = vslerp_finish(identity, qd[c], s0[c], s1[c]);
            /* The seed keeps the scaled delta in a float32 scratch: round it before the product. */
            scaled.x = vround_f32(scaled.x);
            scaled.y = vround_f32(scaled.y);
            scaled.z = vround_f32(scaled.z);
            scaled.w = vround_f32(scaled.w);
            const vquat qb = vload_quat4(base->rotation + 4 * j);
            vstore_quat4(out->rotation + 4 * j, vmultiply(qb, scaled));
            if (rotations_only)
                continue;
            vd e[3], bv[3], dv[3], r[3];
            vexpand3(w[c], &e[0], &e[1], &e[2]);
            /* translation adds delta·w */
            vload_f32x3(base->translation + 3 * j, &bv[0], &bv[1], &bv[2]);
            vload_f32x3(delta->translation + 3 * j, &dv[0], &dv[1], &dv[2]);
            for (int k = 0; k < 3; ++k)
                r[k] = vadd(bv[k], vmul(dv[k], e[k]));
            vstore_f32x3(out->translation + 3 * j, r[0], r[1], r[2]);
            /* scale multiplies by 1 + (delta − 1)·w: one at weight zero, the delta at one */
            vload_f32x3(base->scale + 3 * j, &bv[0], &bv[1], &bv[2]);
            vload_f32x3(delta->scale + 3 * j, &dv[0], &dv[1], &dv[2]);
            for (int k = 0; k < 3; ++k)
                r[k] = vmul(bv[k], vadd(one, vmul(vsub(dv[k], one), e[k])));
            vstore_f32x3(out->scale + 3 * j, r[0], r[1], r[2]);
        }
    })
    if (rotations_only)
        tendon_quat_add_weighted_scalar_from(base->rotation, delta->rotation, given, done,
                                             joint_count, out->rotation);
    else if (given)
        tendon_pose_add_weighted_scalar_from(base, delta, given, done, joint_count, out);
    else
        tendon_pose_add_scalar_from(base, delta, weight, joint_weights, done, joint_count, out);
}

void TENDON_FN(pose_add)(const tendon_pose *base, const tendon_pose *delta, double weight,
                         const float *joint_weights, size_t joint_count, tendon_pose *out)
{
    add_body(base, delta, weight, joint_weights, NULL, joint_count, out, 0);
}

void TENDON_FN(pose_add_weighted)(const tendon_pose *base, const tendon_pose *delta,
                                  const double *weights, size_t joint_count, tendon_pose *out)
{
    add_body(base, delta, 0.0, NULL, weights, joint_count, out, 0);
}

/* The poses' rotations only: their translations and scales are never touched. */
static inline tendon_pose rotations_view(const float *rotation, size_t count)
{
    const tendon_pose p = {NULL, (float *)(uintptr_t)rotation, NULL, count};
    return p;
}

void TENDON_FN(quat_add_weighted)(const float *base, const float *delta, const double *weights,
                                  size_t count, float *out)
{
    const tendon_pose b = rotations_view(base, count), d = rotations_view(delta, count);
    tendon_pose o = rotations_view(out, count);
    add_body(&b, &d, 0.0, NULL, weights, count, &o, 1);
}
