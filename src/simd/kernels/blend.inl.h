/*
 * THE SIMD body of pose blend and the additive layer (seed 000 blend.js), written once over the
 * op layer and instantiated per ISA by src/simd/<isa>/blend_<isa>.c: the lane-wise twin of
 * src/scalar/blend_scalar.c. W joints per block: translation and scale as 3·W contiguous floats
 * with the per-joint weight expanded to components (no transpose needed), rotation transposed
 * to x y z w vectors. Each block is read whole before it is written (out may be exactly an
 * input). The tail goes to the scalar reference.
 */
#include "quat_core.inl.h"
#include "../../common/kernels_internal.h"

/** The per-joint weight of a block: t, or t · joint_weights[j] in double. */
static inline vd vjoint_weight(double t, const float *joint_weights, size_t j)
{
    return joint_weights ? vmul(vset1(t), vload_f32(joint_weights + j)) : vset1(t);
}

void TENDON_FN(pose_blend)(const tendon_pose *a, const tendon_pose *b, double t,
                           const float *joint_weights, size_t joint_count, tendon_pose *out)
{
    size_t j = 0;
    for (; j + TENDON_W <= joint_count; j += TENDON_W) {
        const vd w = vclamp01(vjoint_weight(t, joint_weights, j));
        vd e[3];
        vexpand3(w, &e[0], &e[1], &e[2]);

        vd from[3], to[3], r[3];
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

        const vquat qa = vload_quat4(a->rotation + 4 * j), qb = vload_quat4(b->rotation + 4 * j);
        vstore_quat4(out->rotation + 4 * j, vslerp(qa, qb, w));
    }
    tendon_pose_blend_scalar_from(a, b, t, joint_weights, j, joint_count, out);
}

void TENDON_FN(pose_add)(const tendon_pose *base, const tendon_pose *delta, double weight,
                         const float *joint_weights, size_t joint_count, tendon_pose *out)
{
    const vd zero = vset1(0.0), one = vset1(1.0);
    vquat identity;
    identity.x = zero;
    identity.y = zero;
    identity.z = zero;
    identity.w = one;
    size_t j = 0;
    for (; j + TENDON_W <= joint_count; j += TENDON_W) {
        const vd raw = vjoint_weight(weight, joint_weights, j);
        const vd w = vsel(vlt(raw, zero), zero, raw);
        vd e[3];
        vexpand3(w, &e[0], &e[1], &e[2]);

        vd bv[3], dv[3], r[3];
        vload_f32x3(base->translation + 3 * j, &bv[0], &bv[1], &bv[2]);
        vload_f32x3(delta->translation + 3 * j, &dv[0], &dv[1], &dv[2]);
        for (int k = 0; k < 3; ++k)
            r[k] = vadd(bv[k], vmul(dv[k], e[k]));
        vstore_f32x3(out->translation + 3 * j, r[0], r[1], r[2]);

        vload_f32x3(base->scale + 3 * j, &bv[0], &bv[1], &bv[2]);
        vload_f32x3(delta->scale + 3 * j, &dv[0], &dv[1], &dv[2]);
        for (int k = 0; k < 3; ++k)
            r[k] = vmul(bv[k], vadd(one, vmul(vsub(dv[k], one), e[k])));
        vstore_f32x3(out->scale + 3 * j, r[0], r[1], r[2]);

        const vquat qd = vload_quat4(delta->rotation + 4 * j);
        vquat scaled = vslerp(identity, qd, vsel(vgt(w, one), one, w));
        scaled.x = vround_f32(scaled.x);
        scaled.y = vround_f32(scaled.y);
        scaled.z = vround_f32(scaled.z);
        scaled.w = vround_f32(scaled.w);
        const vquat qb = vload_quat4(base->rotation + 4 * j);
        vstore_quat4(out->rotation + 4 * j, vmultiply(qb, scaled));
    }
    tendon_pose_add_scalar_from(base, delta, weight, joint_weights, j, joint_count, out);
}
