/*
 * Quaternion arithmetic over the op layer, W elements at a time in structure-of-arrays form:
 * the lane-wise twin of src/common/quat_ref.h. Same operations, same order, branches as selects.
 */
#ifndef TENDON_QUAT_CORE_INL_H
#define TENDON_QUAT_CORE_INL_H

#include <math.h> /* INFINITY only: no libm call */

#include "detmath_vec.inl.h"

#define TENDON_CAT_(a, b) a##_##b
#define TENDON_CAT(a, b) TENDON_CAT_(a, b)
/** The per-ISA name of a kernel: TENDON_FN(quat_slerp) → tendon_quat_slerp_<isa>. */
#define TENDON_FN(name) TENDON_CAT(tendon_##name, TENDON_SFX)

typedef struct vquat {
    vd x, y, z, w;
} vquat;

/** tendon_ref_clamp01 */
static inline vd vclamp01(vd w)
{
    const vd zero = vset1(0.0), one = vset1(1.0);
    return vsel(vlt(w, zero), zero, vsel(vgt(w, one), one, w));
}

static inline vd vdot4(vquat a, vquat b)
{
    return vadd(vadd(vadd(vmul(a.x, b.x), vmul(a.y, b.y)), vmul(a.z, b.z)), vmul(a.w, b.w));
}

/** tendon_ref_is_inf, lane-wise: finite-or-NaN test without libm. */
static inline vmask vis_inf(vd v)
{
    const vd inf = vset1((double)INFINITY);
    return veq(vabs(v), inf);
}

/** tendon_ref_normalize */
static inline vquat vnormalize(vquat q)
{
    const vd s = vadd(vadd(vadd(vmul(q.x, q.x), vmul(q.y, q.y)), vmul(q.z, q.z)), vmul(q.w, q.w));
    const vd inf = vset1((double)INFINITY);
    const vmask finite_pos = vmand(vgt(s, vset1(0.0)), vlt(s, inf));
    vmask to_zero = veq(s, inf);
    const vmask nan = vunord(s, s);
    if (vmask_any(nan)) {
        /* hypot's rule: any ±∞ component makes the length ∞, even beside a NaN. */
        const vmask any_inf =
            vmor(vmor(vis_inf(q.x), vis_inf(q.y)), vmor(vis_inf(q.z), vis_inf(q.w)));
        to_zero = vmor(to_zero, vmand(nan, any_inf));
    }
    vd inv = vsel(to_zero, vset1(0.0), vset1(1.0));
    if (vmask_any(finite_pos))
        inv = vsel(finite_pos, vdet_rsqrt(s), inv);
    q.x = vmul(q.x, inv);
    q.y = vmul(q.y, inv);
    q.z = vmul(q.z, inv);
    q.w = vmul(q.w, inv);
    return q;
}

/** tendon_ref_slerp: w already clamped (or NaN). */
static inline vquat vslerp(vquat a, vquat b, vd w)
{
    vd dot = vdot4(a, b);
    const vmask flip = vlt(dot, vset1(0.0));
    a.x = vsel(flip, vneg(a.x), a.x);
    a.y = vsel(flip, vneg(a.y), a.y);
    a.z = vsel(flip, vneg(a.z), a.z);
    a.w = vsel(flip, vneg(a.w), a.w);
    dot = vsel(flip, vneg(dot), dot);

    const vmask straight = vgt(dot, vset1(TENDON_SLERP_STRAIGHT_DOT));
    const vd one_minus_w = vsub(vset1(1.0), w);
    vd s0 = one_minus_w, s1 = w;
    if (!vmask_all(straight)) {
        const vd theta = vdet_acos_pos(dot);
        s0 = vsel(straight, s0, vdet_sin_core(vmul(one_minus_w, theta)));
        s1 = vsel(straight, s1, vdet_sin_core(vmul(w, theta)));
    }
    vquat r;
    r.x = vadd(vmul(s0, a.x), vmul(s1, b.x));
    r.y = vadd(vmul(s0, a.y), vmul(s1, b.y));
    r.z = vadd(vmul(s0, a.z), vmul(s1, b.z));
    r.w = vadd(vmul(s0, a.w), vmul(s1, b.w));
    return vnormalize(r);
}

/** tendon_ref_nlerp */
static inline vquat vnlerp(vquat a, vquat b, vd w)
{
    const vmask flip = vlt(vdot4(a, b), vset1(0.0));
    a.x = vsel(flip, vneg(a.x), a.x);
    a.y = vsel(flip, vneg(a.y), a.y);
    a.z = vsel(flip, vneg(a.z), a.z);
    a.w = vsel(flip, vneg(a.w), a.w);
    const vd s0 = vsub(vset1(1.0), w);
    vquat r;
    r.x = vadd(vmul(s0, a.x), vmul(w, b.x));
    r.y = vadd(vmul(s0, a.y), vmul(w, b.y));
    r.z = vadd(vmul(s0, a.z), vmul(w, b.z));
    r.w = vadd(vmul(s0, a.w), vmul(w, b.w));
    return vnormalize(r);
}

/** tendon_ref_multiply: a ⊗ b in the seed's order. */
static inline vquat vmultiply(vquat a, vquat b)
{
    vquat r;
    r.x = vsub(vadd(vadd(vmul(a.w, b.x), vmul(a.x, b.w)), vmul(a.y, b.z)), vmul(a.z, b.y));
    r.y = vadd(vadd(vsub(vmul(a.w, b.y), vmul(a.x, b.z)), vmul(a.y, b.w)), vmul(a.z, b.x));
    r.z = vadd(vsub(vadd(vmul(a.w, b.z), vmul(a.x, b.y)), vmul(a.y, b.x)), vmul(a.z, b.w));
    r.w = vsub(vsub(vsub(vmul(a.w, b.w), vmul(a.x, b.x)), vmul(a.y, b.y)), vmul(a.z, b.z));
    return r;
}

static inline vquat vload_quat4(const float *p)
{
    vquat q;
    vload_quat(p, &q.x, &q.y, &q.z, &q.w);
    return q;
}

static inline void vstore_quat4(float *p, vquat q) { vstore_quat(p, q.x, q.y, q.z, q.w); }

#endif
