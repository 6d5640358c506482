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

#endif
