/*
 * The float32 tier's quaternion arithmetic over the op layer's float lanes (vf, TENDON_WF
 * elements at a time, structure of arrays): the lane-wise twin of src/common/quat_ref_f32.h and
 * src/common/detmath_f32.h. Same operations, same order; branches there are selects here on
 * the same comparison of the same values (a side no lane takes may be skipped).
 */
#ifndef TENDON_QUAT_F32_CORE_INL_H
#define TENDON_QUAT_F32_CORE_INL_H

#include <float.h>
#include <math.h> /* INFINITY only: no libm call */

#include "../../common/detmath_f32_coeffs.h"

#define TENDON_CAT_(a, b) a##_##b
#define TENDON_CAT(a, b) TENDON_CAT_(a, b)
/** The per-ISA name of a kernel: TENDON_FN(quat_slerp_f32) → tendon_quat_slerp_f32_<isa>. */
#define TENDON_FN(name) TENDON_CAT(tendon_##name, TENDON_SFX)

typedef struct vfquat {
    vf x, y, z, w;
} vfquat;

/* WF quaternions in the op layer's quaternion lane order (vfload4q): a per-element weight
   loaded in memory order goes through vfqorder to meet them. */
static inline vfquat vfload_quat(const float *p)
{
    vfquat q;
    vfload4q(p, &q.x, &q.y, &q.z, &q.w);
    return q;
}

static inline void vfstore_quat(float *p, vfquat q) { vfstore4q(p, q.x, q.y, q.z, q.w); }

/** c0 + c1·y */
static inline vf vfpair(float c0, float c1, vf y) { return vfadd(vfset1(c0), vfmul(vfset1(c1), y)); }

/** tendon_detf_acos_pos */
static inline vf vfdet_acos_pos(vf x)
{
    const vf y = vfmul(x, x);
    const vf p0 = vfpair(TENDON_F32_ACOS_C0, TENDON_F32_ACOS_C1, x);
    const vf p1 = vfpair(TENDON_F32_ACOS_C2, TENDON_F32_ACOS_C3, x);
    const vf p2 = vfpair(TENDON_F32_ACOS_C4, TENDON_F32_ACOS_C5, x);
    const vf q0 = vfadd(p0, vfmul(p1, y));
    const vf q1 = vfadd(p2, vfmul(vfset1(TENDON_F32_ACOS_C6), y));
    const vf p = vfadd(q0, vfmul(q1, vfmul(y, y)));
    return vfmul(vfsqrt(vfsub(vfset1(1.0f), x)), p);
}

/** tendon_detf_sin_core */
static inline vf vfdet_sin_core(vf x)
{
    const vf y = vfmul(x, x);
    const vf p0 = vfpair(TENDON_F32_SIN_C0, TENDON_F32_SIN_C1, y);
    const vf p1 = vfpair(TENDON_F32_SIN_C2, TENDON_F32_SIN_C3, y);
    const vf p = vfadd(p0, vfmul(p1, vfmul(y, y)));
    return vfadd(x, vfmul(vfmul(x, y), p));
}

/** tendon_reff_clamp01 */
static inline vf vfclamp01(vf w)
{
    const vf zero = vfset1(0.0f), one = vfset1(1.0f);
    return vfsel(vflt(w, zero), zero, vfsel(vfgt(w, one), one, w));
}

/** tendon_reff_dot */
static inline vf vfdot4(vfquat a, vfquat b)
{
    return vfadd(vfadd(vfadd(vfmul(a.x, b.x), vfmul(a.y, b.y)), vfmul(a.z, b.z)), vfmul(a.w, b.w));
}

/** tendon_reff_normalize */
static inline vfquat vfnormalize(vfquat q)
{
    const vf s = vfadd(vfadd(vfadd(vfmul(q.x, q.x), vfmul(q.y, q.y)), vfmul(q.z, q.z)),
                       vfmul(q.w, q.w));
    const vf one = vfset1(1.0f);
    const vf inv = vfsel(vfgt(s, vfset1(0.0f)), vfdiv(one, vfsqrt(s)), one);
    q.x = vfmul(q.x, inv);
    q.y = vfmul(q.y, inv);
    q.z = vfmul(q.z, inv);
    q.w = vfmul(q.w, inv);
    return q;
}

/** tendon_reff_is_end, lane-wise: w = 0 or w = 1 (where the weights are the straight ones). */
static inline vfmask vfis_end(vf w) { return vfmor(vfeq(w, vfset1(0.0f)), vfeq(w, vfset1(1.0f))); }

/**
 * tendon_reff_slerp_weights (dot: the raw dot; w clamped or NaN), with the ends' mask given:
 * vfis_end(w), which a caller whose w is the same for every block computes once.
 */
static inline void vfslerp_weights_ends(vf dot, vf w, vfmask end, vf *s0_out, vf *s1_out)
{
    const vf d = vfabs(dot); /* |dot|, and +0 for −0 */
    const vfmask straight = vfmor(vfgt(d, vfset1(TENDON_F32_SLERP_STRAIGHT_DOT)), end);
    const vf one_minus_w = vfsub(vfset1(1.0f), w);
    vf s0 = one_minus_w, s1 = w;
    if (!vfmask_all(straight)) {
        const vf theta = vfdet_acos_pos(d);
        s0 = vfsel(straight, s0, vfdet_sin_core(vfmul(one_minus_w, theta)));
        s1 = vfsel(straight, s1, vfdet_sin_core(vfmul(w, theta)));
    }
    *s0_out = vfneg_where(vflt(dot, vfset1(0.0f)), s0);
    *s1_out = s1;
}

/** tendon_reff_slerp_weights (dot: the raw dot; w clamped or NaN). */
static inline void vfslerp_weights(vf dot, vf w, vf *s0_out, vf *s1_out)
{
    vfslerp_weights_ends(dot, w, vfis_end(w), s0_out, s1_out);
}

/** tendon_reff_combine: s0·a + s1·b, normalised. */
static inline vfquat vfcombine(vfquat a, vfquat b, vf s0, vf s1)
{
    vfquat r;
    r.x = vfadd(vfmul(s0, a.x), vfmul(s1, b.x));
    r.y = vfadd(vfmul(s0, a.y), vfmul(s1, b.y));
    r.z = vfadd(vfmul(s0, a.z), vfmul(s1, b.z));
    r.w = vfadd(vfmul(s0, a.w), vfmul(s1, b.w));
    return vfnormalize(r);
}

/** tendon_reff_slerp */
static inline vfquat vfslerp(vfquat a, vfquat b, vf w)
{
    vf s0, s1;
    vfslerp_weights(vfdot4(a, b), w, &s0, &s1);
    return vfcombine(a, b, s0, s1);
}

/** tendon_reff_nlerp's weights: s0 = ±(1 − w), negated when dot < 0; s1 = w. one_minus_w
    is 1 − w, passed in (constant when w is). */
static inline void vfnlerp_weights(vf dot, vf w, vf one_minus_w, vf *s0, vf *s1)
{
    *s0 = vfneg_where(vflt(dot, vfset1(0.0f)), one_minus_w);
    *s1 = w;
}

/** tendon_reff_nlerp */
static inline vfquat vfnlerp(vfquat a, vfquat b, vf w, vf one_minus_w)
{
    vf s0, s1;
    vfnlerp_weights(vfdot4(a, b), w, one_minus_w, &s0, &s1);
    return vfcombine(a, b, s0, s1);
}

/*
 * The loops over a step's blocks (nb ≤ TENDON_F32_STAGE, constant once inlined) unrolled in
 * full, so each block's values stay in registers: gcc does it unasked; clang's WebAssembly
 * backend otherwise keeps the loop and the arrays in linear memory (2-4 % slower in V8).
 */
#define TENDON_UNROLL_BLOCKS _Pragma("GCC unroll 8")

#ifndef TENDON_F32_STAGE
/* Blocks per phase of the staged kernels below and in blend_f32.inl.h: each phase runs over all
   of them before the next begins, so their long independent chains (acos, sin, √, ÷) overlap
   instead of waiting on latency. */
#define TENDON_F32_STAGE 4
#endif
#ifndef TENDON_F32_NLERP_STAGE
#define TENDON_F32_NLERP_STAGE 2
#endif
/* the phases' arrays hold TENDON_F32_STAGE blocks */
_Static_assert(TENDON_F32_STAGE >= 1 && TENDON_F32_NLERP_STAGE >= 1 &&
                   TENDON_F32_NLERP_STAGE <= TENDON_F32_STAGE,
               "TENDON_F32_NLERP_STAGE must lie in [1, TENDON_F32_STAGE]");

/**
 * vfslerp (nlerp = 0) or vfnlerp (1) of nb ≤ TENDON_F32_STAGE blocks of WF quaternions from
 * element i, in three phases — loads and dots; weights; combine, normalise, store — each over
 * every block before the next begins: one block's chain is longer than the core's scheduler
 * looks ahead, so a block at a time leaves the units waiting on its latency. The weight is
 * clamp01(t[e]) per element (t in memory order), or w_all (already clamped) for every element
 * where t is NULL. Every block is read before any is written: out may be exactly a or b.
 */
static inline __attribute__((always_inline)) void vfinterp_blocks(const float *a, const float *b,
                                                                  const float *t, vf w_all,
                                                                  size_t i, int nb, float *out,
                                                                  int nlerp)
{
    vfquat qa[TENDON_F32_STAGE], qb[TENDON_F32_STAGE];
    vf w[TENDON_F32_STAGE], dot[TENDON_F32_STAGE], s0[TENDON_F32_STAGE], s1[TENDON_F32_STAGE];
    TENDON_UNROLL_BLOCKS
    for (int c = 0; c < nb; ++c) {
        const size_t e = i + (size_t)c * TENDON_WF;
        w[c] = t ? vfclamp01(vfqorder(vfload(t + e))) : w_all;
        qa[c] = vfload_quat(a + 4 * e);
        qb[c] = vfload_quat(b + 4 * e);
        dot[c] = vfdot4(qa[c], qb[c]);
    }
    TENDON_UNROLL_BLOCKS
    for (int c = 0; c < nb; ++c) {
        if (nlerp)
            vfnlerp_weights(dot[c], w[c], vfsub(vfset1(1.0f), w[c]), &s0[c], &s1[c]);
        else
            vfslerp_weights(dot[c], w[c], &s0[c], &s1[c]);
    }
    TENDON_UNROLL_BLOCKS
    for (int c = 0; c < nb; ++c)
        vfstore_quat(out + 4 * (i + (size_t)c * TENDON_WF), vfcombine(qa[c], qb[c], s0[c], s1[c]));
}

/** vfinterp_blocks over whole blocks of [0, count), a phase of stage blocks at a time while
    they last, then two or three blocks left as one phase (the spring rig's and the clip
    samplers' calls are often two or three blocks long), then block by block; returns the
    elements done (a multiple of WF; the caller takes the rest). */
static inline __attribute__((always_inline)) size_t vfinterp_loop(const float *a, const float *b,
                                                                  const float *t, vf w_all,
                                                                  size_t count, float *out,
                                                                  int nlerp)
{
    const int nb = nlerp ? TENDON_F32_NLERP_STAGE : TENDON_F32_STAGE;
    size_t i = 0;
    for (; i + (size_t)nb * TENDON_WF <= count; i += (size_t)nb * TENDON_WF)
        vfinterp_blocks(a, b, t, w_all, i, nb, out, nlerp);
    const size_t left = (count - i) / TENDON_WF; /* < nb: a k-block phase only where nb > k (nb a
                                                     constant here, so nlerp's stage of two
                                                     compiles no two- or three-block copy) */
    if (nb > 3 && left == 3) {
        vfinterp_blocks(a, b, t, w_all, i, 3, out, nlerp);
        i += 3 * TENDON_WF;
    } else if (nb > 2 && left == 2) {
        vfinterp_blocks(a, b, t, w_all, i, 2, out, nlerp);
        i += 2 * TENDON_WF;
    }
    for (; i + TENDON_WF <= count; i += TENDON_WF) /* what is left of a larger stage */
        vfinterp_blocks(a, b, t, w_all, i, 1, out, nlerp);
    return i;
}

/** tendon_reff_slerp_from_identity */
static inline vfquat vfslerp_from_identity(vfquat d, vf w)
{
    vf s0, s1;
    vfslerp_weights(d.w, w, &s0, &s1);
    vfquat r;
    r.x = vfmul(s1, d.x);
    r.y = vfmul(s1, d.y);
    r.z = vfmul(s1, d.z);
    r.w = vfadd(s0, vfmul(s1, d.w));
    return vfnormalize(r);
}

/** tendon_reff_multiply: a ⊗ b in the seed's order. */
static inline vfquat vfmultiply(vfquat a, vfquat b)
{
    vfquat r;
    r.x = vfsub(vfadd(vfadd(vfmul(a.w, b.x), vfmul(a.x, b.w)), vfmul(a.y, b.z)), vfmul(a.z, b.y));
    r.y = vfadd(vfadd(vfsub(vfmul(a.w, b.y), vfmul(a.x, b.z)), vfmul(a.y, b.w)), vfmul(a.z, b.x));
    r.z = vfadd(vfsub(vfadd(vfmul(a.w, b.z), vfmul(a.x, b.y)), vfmul(a.y, b.x)), vfmul(a.z, b.w));
    r.w = vfsub(vfsub(vfsub(vfmul(a.w, b.w), vfmul(a.x, b.x)), vfmul(a.y, b.y)), vfmul(a.z, b.z));
    return r;
}

#endif
