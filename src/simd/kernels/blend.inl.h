/*
 * THE SIMD body of pose blend and the additive layer (seed 000 blend.js), written once over the
 * wide layer and instantiated per ISA by src/simd/<isa>/blend_<isa>.c: the lane-wise twin of
 * src/scalar/blend_scalar.c. U·W joints per iteration: translation and scale as 3·W contiguous
 * floats per block with the per-joint weight expanded to components (no transpose needed),
 * rotation transposed to x y z w vectors. Every slot is read before any is written (out may be
 * exactly an input). Fewer than W joints left go to the scalar reference.
 */
#include "quat_core.inl.h"
#include "../../common/kernels_internal.h"

/** The per-joint weight of the slots: t, or t · joint_weights[j] in double. */
static inline vw wjoint_weight(double t, const float *joint_weights, const wblocks *blk)
{
    return joint_weights ? wmul(wset1(t), wload_f32(joint_weights, blk)) : wset1(t);
}

#define TENDON_JOINT_LOOP(joint_count, ...)                                                       \
    size_t j = 0;                                                                                  \
    for (size_t blocks = (joint_count) / TENDON_W; blocks > 0;) {                                  \
        const wblocks blk = wblocks_at(j, blocks);                                                 \
        __VA_ARGS__;                                                                                   \
        j += (size_t)blk.fresh * TENDON_W;                                                         \
        blocks -= (size_t)blk.fresh;                                                               \
    }

/** from + (to − from)·e, per component */
static inline wvec3 wlerp3(wvec3 from, wvec3 to, wvec3 e)
{
    wvec3 r;
    for (int k = 0; k < 3; ++k)
        r.c[k] = wadd(from.c[k], wmul(wsub(to.c[k], from.c[k]), e.c[k]));
    return r;
}

void TENDON_FN(pose_blend)(const tendon_pose *a, const tendon_pose *b, double t,
                           const float *joint_weights, size_t joint_count, tendon_pose *out)
{
    TENDON_JOINT_LOOP(joint_count, {
        const vw w = wclamp01(wjoint_weight(t, joint_weights, &blk));
        const wvec3 e = wexpand3(w);
        const wvec3 translation = wlerp3(wload_f32x3(a->translation, &blk),
                                         wload_f32x3(b->translation, &blk), e);
        const wvec3 scale = wlerp3(wload_f32x3(a->scale, &blk), wload_f32x3(b->scale, &blk), e);
        const wquat qa = wload_quat(a->rotation, &blk), qb = wload_quat(b->rotation, &blk);
        const wquat rotation = wslerp(qa, qb, w);
        wstore_f32x3(out->translation, &blk, translation);
        wstore_f32x3(out->scale, &blk, scale);
        wstore_quat(out->rotation, &blk, rotation);
    })
    tendon_pose_blend_scalar_from(a, b, t, joint_weights, j, joint_count, out);
}

void TENDON_FN(pose_add)(const tendon_pose *base, const tendon_pose *delta, double weight,
                         const float *joint_weights, size_t joint_count, tendon_pose *out)
{
    const vw zero = wset1(0.0), one = wset1(1.0);
    wquat identity;
    identity.x = zero;
    identity.y = zero;
    identity.z = zero;
    identity.w = one;
    TENDON_JOINT_LOOP(joint_count, {
        const vw raw = wjoint_weight(weight, joint_weights, &blk);
        const vw w = wsel(wlt(raw, zero), zero, raw);
        const wvec3 e = wexpand3(w);

        const wvec3 bt = wload_f32x3(base->translation, &blk);
        const wvec3 dt = wload_f32x3(delta->translation, &blk);
        const wvec3 bs = wload_f32x3(base->scale, &blk);
        const wvec3 ds = wload_f32x3(delta->scale, &blk);
        wvec3 translation, scale;
        for (int k = 0; k < 3; ++k) {
            translation.c[k] = wadd(bt.c[k], wmul(dt.c[k], e.c[k]));
            /* One at weight zero, the delta's own factor at weight one. */
            scale.c[k] = wmul(bs.c[k], wadd(one, wmul(wsub(ds.c[k], one), e.c[k])));
        }

        const wquat qd = wload_quat(delta->rotation, &blk);
        const wquat qb = wload_quat(base->rotation, &blk);
        wquat scaled = wslerp(identity, qd, wsel(wgt(w, one), one, w));
        /* The seed keeps the scaled delta in a float32 scratch: round it before the product. */
        scaled.x = wround_f32(scaled.x);
        scaled.y = wround_f32(scaled.y);
        scaled.z = wround_f32(scaled.z);
        scaled.w = wround_f32(scaled.w);
        const wquat rotation = wmultiply(qb, scaled);
        wstore_f32x3(out->translation, &blk, translation);
        wstore_f32x3(out->scale, &blk, scale);
        wstore_quat(out->rotation, &blk, rotation);
    })
    tendon_pose_add_scalar_from(base, delta, weight, joint_weights, j, joint_count, out);
}
