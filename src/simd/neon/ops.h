/*
 * NEON op layer (AArch64 Advanced SIMD): W = 2 doubles per vector, on SIMDe types (native on
 * AArch64, emulated on x86-64). Exact lane-wise IEEE arithmetic and data movement only; no
 * vrecpe/vrsqrte estimates, no vfma. AArch64 only: ARMv7 NEON flushes denormals.
 */
#ifndef TENDON_OPS_NEON_H
#define TENDON_OPS_NEON_H

#include <stdint.h>
#include <simde/arm/neon.h>

#include "../../common/detmath_coeffs.h"

#define TENDON_W 2
#define TENDON_SFX neon

typedef simde_float64x2_t vd;
typedef simde_uint64x2_t vmask;

static inline vd vset1(double x) { return simde_vdupq_n_f64(x); }
static inline vd vadd(vd a, vd b) { return simde_vaddq_f64(a, b); }
static inline vd vsub(vd a, vd b) { return simde_vsubq_f64(a, b); }
static inline vd vmul(vd a, vd b) { return simde_vmulq_f64(a, b); }
static inline vd vneg(vd a) { return simde_vnegq_f64(a); }
static inline vd vabs(vd a) { return simde_vabsq_f64(a); }

static inline vmask vlt(vd a, vd b) { return simde_vcltq_f64(a, b); }
static inline vmask vgt(vd a, vd b) { return simde_vcgtq_f64(a, b); }
static inline vmask vle(vd a, vd b) { return simde_vcleq_f64(a, b); }
static inline vmask veq(vd a, vd b) { return simde_vceqq_f64(a, b); }
static inline vmask vunord(vd a, vd b)
{
    return simde_veorq_u64(simde_vandq_u64(simde_vceqq_f64(a, a), simde_vceqq_f64(b, b)),
                           simde_vdupq_n_u64(~(uint64_t)0));
}
static inline vmask vmand(vmask a, vmask b) { return simde_vandq_u64(a, b); }
static inline vmask vmor(vmask a, vmask b) { return simde_vorrq_u64(a, b); }
static inline int vmask_any(vmask m)
{
    return (simde_vgetq_lane_u64(m, 0) | simde_vgetq_lane_u64(m, 1)) != 0;
}
static inline int vmask_all(vmask m)
{
    return (simde_vgetq_lane_u64(m, 0) & simde_vgetq_lane_u64(m, 1)) == ~(uint64_t)0;
}
static inline vd vsel(vmask m, vd yes, vd no) { return simde_vbslq_f64(m, yes, no); }

/*
 * Correctly rounded IEEE square root and quotient (identical bits on every ISA). SIMDe 0.7.4
 * has no vsqrtq_f64 / vdivq_f64: natively we call the AArch64 instruction, emulated we apply
 * the correctly rounded scalar operation per lane (the same bits by IEEE 754).
 */
static inline vd vsqrt(vd a)
{
#if defined(SIMDE_ARM_NEON_A64V8_NATIVE)
    return vsqrtq_f64(a);
#else
    double l[2];
    simde_vst1q_f64(l, a);
    l[0] = __builtin_sqrt(l[0]);
    l[1] = __builtin_sqrt(l[1]);
    return simde_vld1q_f64(l);
#endif
}
static inline vd vdiv(vd a, vd b)
{
#if defined(SIMDE_ARM_NEON_A64V8_NATIVE)
    return vdivq_f64(a, b);
#else
    double x[2], y[2];
    simde_vst1q_f64(x, a);
    simde_vst1q_f64(y, b);
    x[0] = x[0] / y[0];
    x[1] = x[1] / y[1];
    return simde_vld1q_f64(x);
#endif
}

static inline vd vrsqrt_seed(vd s)
{
    simde_uint64x2_t i = simde_vreinterpretq_u64_f64(s);
    i = simde_vsubq_u64(simde_vdupq_n_u64(TENDON_RSQRT_MAGIC), simde_vshrq_n_u64(i, 1));
    return simde_vreinterpretq_f64_u64(i);
}

static inline vd vload_f32(const float *p) { return simde_vcvt_f64_f32(simde_vld1_f32(p)); }
static inline void vstore_f32(float *p, vd v) { simde_vst1_f32(p, simde_vcvt_f32_f64(v)); }
static inline vd vround_f32(vd v) { return simde_vcvt_f64_f32(simde_vcvt_f32_f64(v)); }
static inline vd vload_f64(const double *p) { return simde_vld1q_f64(p); }
/** W doubles to memory, no alignment required (added for the spring march). */
static inline void vstore_f64(double *p, vd v) { simde_vst1q_f64(p, v); }

static inline void vload_f32x3(const float *p, vd *v0, vd *v1, vd *v2)
{
    simde_float32x4_t lo = simde_vld1q_f32(p);
    *v0 = simde_vcvt_f64_f32(simde_vget_low_f32(lo));
    *v1 = simde_vcvt_f64_f32(simde_vget_high_f32(lo));
    *v2 = vload_f32(p + 4);
}
static inline void vstore_f32x3(float *p, vd v0, vd v1, vd v2)
{
    simde_vst1q_f32(p, simde_vcombine_f32(simde_vcvt_f32_f64(v0), simde_vcvt_f32_f64(v1)));
    vstore_f32(p + 4, v2);
}
static inline void vexpand3(vd w, vd *e0, vd *e1, vd *e2)
{
    *e0 = simde_vzip1q_f64(w, w); /* w0 w0 */
    *e1 = w;                      /* w0 w1 */
    *e2 = simde_vzip2q_f64(w, w); /* w1 w1 */
}

static inline void vload_quat(const float *p, vd *x, vd *y, vd *z, vd *w)
{
    simde_float32x2x4_t q = simde_vld4_f32(p);
    *x = simde_vcvt_f64_f32(q.val[0]);
    *y = simde_vcvt_f64_f32(q.val[1]);
    *z = simde_vcvt_f64_f32(q.val[2]);
    *w = simde_vcvt_f64_f32(q.val[3]);
}
static inline void vstore_quat(float *p, vd x, vd y, vd z, vd w)
{
    simde_float32x2x4_t q;
    q.val[0] = simde_vcvt_f32_f64(x);
    q.val[1] = simde_vcvt_f32_f64(y);
    q.val[2] = simde_vcvt_f32_f64(z);
    q.val[3] = simde_vcvt_f32_f64(w);
    simde_vst4_f32(p, q);
}


/*
 * ---- float32 lanes: the matrix kernels (local/model matrices, palette, skinning, morph) ----
 * TENDON_WF = 4 floats per vector. Exact IEEE lane-wise arithmetic and pure data movement.
 */
#define TENDON_WF 4

typedef simde_float32x4_t vf;
typedef simde_uint32x4_t vfmask;

static inline vf vfset1(float x) { return simde_vdupq_n_f32(x); }
static inline vf vfadd(vf a, vf b) { return simde_vaddq_f32(a, b); }
static inline vf vfsub(vf a, vf b) { return simde_vsubq_f32(a, b); }
static inline vf vfmul(vf a, vf b) { return simde_vmulq_f32(a, b); }
/* SIMDe 0.7.4 has no vdivq_f32 / vsqrtq_f32: native AArch64 instruction, else the correctly
 * rounded scalar operation per lane (the same bits by IEEE 754). */
static inline vf vfdiv(vf a, vf b)
{
#if defined(SIMDE_ARM_NEON_A64V8_NATIVE)
    return vdivq_f32(a, b);
#else
    float x[4], y[4];
    simde_vst1q_f32(x, a);
    simde_vst1q_f32(y, b);
    for (int i = 0; i < 4; ++i)
        x[i] = x[i] / y[i];
    return simde_vld1q_f32(x);
#endif
}
static inline vf vfsqrt(vf a)
{
#if defined(SIMDE_ARM_NEON_A64V8_NATIVE)
    return vsqrtq_f32(a);
#else
    float x[4];
    simde_vst1q_f32(x, a);
    for (int i = 0; i < 4; ++i)
        x[i] = __builtin_sqrtf(x[i]);
    return simde_vld1q_f32(x);
#endif
}
static inline vf vfneg(vf a) { return simde_vnegq_f32(a); }
static inline vfmask vfgt(vf a, vf b) { return simde_vcgtq_f32(a, b); }
static inline vfmask vflt(vf a, vf b) { return simde_vcltq_f32(a, b); }
static inline vf vfsel(vfmask m, vf yes, vf no) { return simde_vbslq_f32(m, yes, no); }
static inline vf vfload(const float *p) { return simde_vld1q_f32(p); }
/* p aligned (a hint): the same load as vfload. */
static inline vf vfload_aligned(const float *p) { return simde_vld1q_f32(p); }
static inline void vfstore(float *p, vf v) { simde_vst1q_f32(p, v); }
/** vfstore: a four-lane vector is one 128-bit piece already. */
static inline void vfstore_pieces(float *p, vf v) { vfstore(p, v); }

/** p[0..3] in every group of four lanes (here: the one group). */
static inline vf vfload4_dup(const float *p) { return simde_vld1q_f32(p); }
/**
 * The four columns of a matrix held in registers (m[0 .. 16/WF), as vfload loads it), each
 * repeated in every group of four lanes: what vfload4_dup gives from memory, without the trip.
 */
static inline void vfmat_cols_dup(const vf *m, vf col[4])
{
    for (int k = 0; k < 4; ++k)
        col[k] = m[k];
}
/** In every group of four lanes, that group's lane k in all four. */
static inline vf vfsplat4_0(vf a) { return simde_vdupq_laneq_f32(a, 0); }
static inline vf vfsplat4_1(vf a) { return simde_vdupq_laneq_f32(a, 1); }
static inline vf vfsplat4_2(vf a) { return simde_vdupq_laneq_f32(a, 2); }
static inline vf vfsplat4_3(vf a) { return simde_vdupq_laneq_f32(a, 3); }

/** r[i] lane j ↔ r[j] lane i: the WF×WF transpose, in place. */
static inline void vftranspose(vf r[4])
{
    const simde_float32x4_t t0 = simde_vtrn1q_f32(r[0], r[1]); /* a0 b0 a2 b2 */
    const simde_float32x4_t t1 = simde_vtrn2q_f32(r[0], r[1]); /* a1 b1 a3 b3 */
    const simde_float32x4_t t2 = simde_vtrn1q_f32(r[2], r[3]); /* c0 d0 c2 d2 */
    const simde_float32x4_t t3 = simde_vtrn2q_f32(r[2], r[3]); /* c1 d1 c3 d3 */
    const simde_float64x2_t d0 = simde_vreinterpretq_f64_f32(t0), d1 = simde_vreinterpretq_f64_f32(t1);
    const simde_float64x2_t d2 = simde_vreinterpretq_f64_f32(t2), d3 = simde_vreinterpretq_f64_f32(t3);
    r[0] = simde_vreinterpretq_f32_f64(simde_vtrn1q_f64(d0, d2));
    r[1] = simde_vreinterpretq_f32_f64(simde_vtrn1q_f64(d1, d3));
    r[2] = simde_vreinterpretq_f32_f64(simde_vtrn2q_f64(d0, d2));
    r[3] = simde_vreinterpretq_f32_f64(simde_vtrn2q_f64(d1, d3));
}

/** 3·WF contiguous floats (x y z of WF points) → one vector per component. */
static inline void vfload3(const float *p, vf *x, vf *y, vf *z)
{
    const simde_float32x4x3_t v = simde_vld3q_f32(p);
    *x = v.val[0];
    *y = v.val[1];
    *z = v.val[2];
}
static inline void vfstore3(float *p, vf x, vf y, vf z)
{
    simde_float32x4x3_t v;
    v.val[0] = x;
    v.val[1] = y;
    v.val[2] = z;
    simde_vst3q_f32(p, v);
}
/** 4·WF contiguous floats (x y z w of WF quaternions) → one vector per component. */
static inline void vfload4(const float *p, vf *x, vf *y, vf *z, vf *w)
{
    const simde_float32x4x4_t v = simde_vld4q_f32(p);
    *x = v.val[0];
    *y = v.val[1];
    *z = v.val[2];
    *w = v.val[3];
}

/** One vector per component → 4·WF contiguous floats (x y z w of WF points): vfload4's inverse. */
static inline void vfstore4(float *p, vf x, vf y, vf z, vf w)
{
    simde_float32x4x4_t v;
    v.val[0] = x;
    v.val[1] = y;
    v.val[2] = z;
    v.val[3] = w;
    simde_vst4q_f32(p, v);
}

/** vftranspose, except that outputs i with i % 4 == 3 are left as they were (a 4×4 matrix's
 *  bottom row, which the matrix kernels never read). */
static inline void vftranspose_rows3(vf r[4])
{
    const simde_float32x4_t t0 = simde_vtrn1q_f32(r[0], r[1]);
    const simde_float32x4_t t1 = simde_vtrn2q_f32(r[0], r[1]);
    const simde_float32x4_t t2 = simde_vtrn1q_f32(r[2], r[3]);
    const simde_float32x4_t t3 = simde_vtrn2q_f32(r[2], r[3]);
    const simde_float64x2_t d0 = simde_vreinterpretq_f64_f32(t0), d1 = simde_vreinterpretq_f64_f32(t1);
    const simde_float64x2_t d2 = simde_vreinterpretq_f64_f32(t2);
    r[0] = simde_vreinterpretq_f32_f64(simde_vtrn1q_f64(d0, d2));
    r[1] = simde_vreinterpretq_f32_f64(simde_vtrn1q_f64(d1, simde_vreinterpretq_f64_f32(t3)));
    r[2] = simde_vreinterpretq_f32_f64(simde_vtrn2q_f64(d0, d2));
}


/** Components 0..7 of WF records: out[c] lane i = p[i][c] (each p[i] 8 floats, no alignment). */
static inline void vfgather8(const float *const p[4], vf out[8])
{
    for (int h = 0; h < 2; ++h) {
        vf r[4] = {simde_vld1q_f32(p[0] + 4 * h), simde_vld1q_f32(p[1] + 4 * h),
                   simde_vld1q_f32(p[2] + 4 * h), simde_vld1q_f32(p[3] + 4 * h)};
        vftranspose(r);
        for (int k = 0; k < 4; ++k)
            out[4 * h + k] = r[k];
    }
}


/*
 * ---- float32 lanes, continued: the float32 pose tier (docs/fast-tier.md) ----
 */
static inline vf vfabs(vf a) { return simde_vabsq_f32(a); }
static inline vfmask vfle(vf a, vf b) { return simde_vcleq_f32(a, b); }
static inline vfmask vfeq(vf a, vf b) { return simde_vceqq_f32(a, b); }
static inline vfmask vfunord(vf a, vf b)
{
    return simde_vmvnq_u32(simde_vandq_u32(simde_vceqq_f32(a, a), simde_vceqq_f32(b, b)));
}
static inline vfmask vfmand(vfmask a, vfmask b) { return simde_vandq_u32(a, b); }
static inline vfmask vfmor(vfmask a, vfmask b) { return simde_vorrq_u32(a, b); }
static inline int vfmask_any(vfmask m) { return simde_vmaxvq_u32(m) != 0; }
static inline int vfmask_all(vfmask m) { return simde_vminvq_u32(m) != 0; }
/*
 * WF quaternions ↔ x y z w vectors in the layer's *quaternion lane order* (a fixed permutation
 * of the quaternions over the lanes; vfqorder puts a natural-order vector into the same order).
 * Here the natural order: vld4q / vst4q de-interleave and interleave in one instruction.
 */
static inline void vfload4q(const float *p, vf *x, vf *y, vf *z, vf *w) { vfload4(p, x, y, z, w); }
static inline void vfstore4q(float *p, vf x, vf y, vf z, vf w)
{
    simde_float32x4x4_t v;
    v.val[0] = x;
    v.val[1] = y;
    v.val[2] = z;
    v.val[3] = w;
    simde_vst4q_f32(p, v);
}
static inline vf vfqorder(vf v) { return v; }
/** One value per joint (lane i: joint i) → one per component of 3-float joints, in memory
 *  order over three vectors: e0 = w0 w0 w0 w1, e1 = w1 w1 w2 w2, e2 = w2 w3 w3 w3. */
static inline void vfexpand3(vf w, vf *e0, vf *e1, vf *e2)
{
    const simde_float32x2_t lo = simde_vget_low_f32(w), hi = simde_vget_high_f32(w);
    *e0 = simde_vcombine_f32(simde_vdup_lane_f32(lo, 0), lo);
    *e1 = simde_vcombine_f32(simde_vdup_lane_f32(lo, 1), simde_vdup_lane_f32(hi, 0));
    *e2 = simde_vcombine_f32(hi, simde_vdup_lane_f32(hi, 1));
}
/** Two vectors of W doubles → one of WF = 2·W floats (lo's lanes first), each rounded once. */
static inline vf vfpack(vd lo, vd hi)
{
    return simde_vcombine_f32(simde_vcvt_f32_f64(lo), simde_vcvt_f32_f64(hi));
}

/** v with its sign flipped where m is set: vfsel(m, vfneg(v), v), bit for bit. */
static inline vf vfneg_where(vfmask m, vf v)
{
    return simde_vreinterpretq_f32_u32(simde_veorq_u32(
        simde_vreinterpretq_u32_f32(v), simde_vandq_u32(m, simde_vdupq_n_u32(0x80000000u))));
}

#endif
