/*
 * Quaternion arithmetic over the op layer, W elements at a time in structure-of-arrays form:
 * the lane-wise twin of src/common/quat_ref.h. Same operations, same order; branches there are
 * selects here on the same comparison (a side no lane takes may be skipped).
 *
 * Slerp is split in two stages, coefficients (vslerp_coeffs: dot, hemisphere flip, acos, two
 * sines) and finish (vslerp_finish: combine, normalise), so a kernel body can run each stage
 * over several blocks in a row (TENDON_STAGE): every stage is then a short loop of independent
 * iterations the CPU overlaps, instead of one long dependent chain per block that leaves the
 * multipliers waiting on latency.
 */
#ifndef TENDON_QUAT_CORE_INL_H
#define TENDON_QUAT_CORE_INL_H

#include <math.h> /* INFINITY only: no libm call */

#include "detmath_vec.inl.h"

#define TENDON_CAT_(a, b) a##_##b
#define TENDON_CAT(a, b) TENDON_CAT_(a, b)
/** The per-ISA name of a kernel: TENDON_FN(quat_slerp) → tendon_quat_slerp_<isa>. */
#define TENDON_FN(name) TENDON_CAT(tendon_##name, TENDON_SFX)

/** Blocks of W elements per stage: enough independent work to cover the stages' latency. */
#ifndef TENDON_STAGE
#define TENDON_STAGE 8
#endif

typedef struct vquat {
    vd x, y, z, w;
} vquat;

static inline vquat vload_quat4(const float *p)
{
    vquat q;
    vload_quat(p, &q.x, &q.y, &q.z, &q.w);
    return q;
}

static inline void vstore_quat4(float *p, vquat q) { vstore_quat(p, q.x, q.y, q.z, q.w); }

/** tendon_ref_clamp01 */
static inline vd vclamp01(vd w)
{
    const vd zero = vset1(0.0), one = vset1(1.0);
    return vsel(vlt(w, zero), zero, vsel(vgt(w, one), one, w));
}

/** ((ax·bx + ay·by) + az·bz) + aw·bw */
static inline vd vdot4(vquat a, vquat b)
{
    return vadd(vadd(vadd(vmul(a.x, b.x), vmul(a.y, b.y)), vmul(a.z, b.z)), vmul(a.w, b.w));
}

/** tendon_ref_is_inf, lane-wise. */
static inline vmask vis_inf(vd v) { return veq(vabs(v), vset1((double)INFINITY)); }

/** tendon_ref_normalize */
static inline vquat vnormalize(vquat q)
{
    const vd s = vadd(vadd(vadd(vmul(q.x, q.x), vmul(q.y, q.y)), vmul(q.z, q.z)), vmul(q.w, q.w));
    const vd one = vset1(1.0);
    vd inv = vsel(vgt(s, vset1(0.0)), vdiv(one, vsqrt(s)), one);
    const vmask nan = vunord(s, s);
    if (vmask_any(nan)) {
        /* hypot's rule: any ±∞ component makes the length ∞, even beside a NaN. */
        const vmask any_inf =
            vmor(vmor(vis_inf(q.x), vis_inf(q.y)), vmor(vis_inf(q.z), vis_inf(q.w)));
        inv = vsel(vmand(nan, any_inf), vset1(0.0), inv);
    }
    q.x = vmul(q.x, inv);
    q.y = vmul(q.y, inv);
    q.z = vmul(q.z, inv);
    q.w = vmul(q.w, inv);
    return q;
}

/**
 * Slerp's first stage (tendon_ref_slerp up to the weights), w already clamped or NaN.
 * The hemisphere flip of a is folded into the sign of s0: (−s0)·a ≡ s0·(−a) bit for bit
 * (negation is exact and rounding is symmetric), so the finish stage needs no flip.
 */
static inline void vslerp_coeffs(vquat a, vquat b, vd w, vd *s0_out, vd *s1_out)
{
    const vd raw_dot = vdot4(a, b);
    const vmask flip = vlt(raw_dot, vset1(0.0));
    const vd dot = vabs(raw_dot); /* the flipped dot (see tendon_ref_slerp on −0) */
    const vmask straight = vgt(dot, vset1(TENDON_SLERP_STRAIGHT_DOT));
    const vd one_minus_w = vsub(vset1(1.0), w);
    vd s0 = one_minus_w, s1 = w;
    if (!vmask_all(straight)) {
        const vd theta = vdet_acos_pos(dot);
        s0 = vsel(straight, s0, vdet_sin_core(vmul(one_minus_w, theta)));
        s1 = vsel(straight, s1, vdet_sin_core(vmul(w, theta)));
    }
    *s0_out = vsel(flip, vneg(s0), s0);
    *s1_out = s1;
}

/** Nlerp's first stage (tendon_ref_nlerp up to the weights): the flip folded into s0. */
static inline void vnlerp_coeffs(vquat a, vquat b, vd w, vd *s0_out, vd *s1_out)
{
    const vmask flip = vlt(vdot4(a, b), vset1(0.0));
    const vd s0 = vsub(vset1(1.0), w);
    *s0_out = vsel(flip, vneg(s0), s0);
    *s1_out = w;
}

/** The second stage of slerp and nlerp: s0·a + s1·b, normalised. */
static inline vquat vslerp_finish(vquat a, vquat b, vd s0, vd s1)
{
    vquat r;
    r.x = vadd(vmul(s0, a.x), vmul(s1, b.x));
    r.y = vadd(vmul(s0, a.y), vmul(s1, b.y));
    r.z = vadd(vmul(s0, a.z), vmul(s1, b.z));
    r.w = vadd(vmul(s0, a.w), vmul(s1, b.w));
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

/**
 * for (each stage of up to TENDON_STAGE whole blocks of W elements from 0 to count) body:
 * inside, `first` is the stage's first element and `nb` its block count; the variable named by
 * `done` holds the elements covered afterwards (the scalar reference takes the rest).
 */
#define TENDON_FOR_STAGES(count, done, ...)                                                        \
    size_t done = 0;                                                                               \
    for (size_t blocks_left_ = (count) / TENDON_W; blocks_left_ > 0;) {                            \
        const size_t first = done;                                                                 \
        const size_t nb = blocks_left_ < TENDON_STAGE ? blocks_left_ : TENDON_STAGE;              \
        (void)first;                                                                               \
        __VA_ARGS__;                                                                               \
        done += nb * TENDON_W;                                                                     \
        blocks_left_ -= nb;                                                                        \
    }

#endif
