/*
 * AVX-512 op layer: W = 8 doubles per vector, masks in k-registers, on SIMDe types (native with
 * -mavx512f -mavx512dq -mavx512vl on x86-64, emulated elsewhere). Exact lane-wise IEEE
 * arithmetic and data movement only; no rcp14/rsqrt14, no fmadd.
 */
#ifndef TENDON_OPS_AVX512_H
#define TENDON_OPS_AVX512_H

#include <stdint.h>
#include <simde/x86/avx512.h>

#include "../../common/detmath_coeffs.h"

#define TENDON_W 8
#define TENDON_SFX avx512

typedef simde__m512d vd;
typedef simde__mmask8 vmask;

static inline vd vset1(double x) { return simde_mm512_set1_pd(x); }
static inline vd vadd(vd a, vd b) { return simde_mm512_add_pd(a, b); }
static inline vd vsub(vd a, vd b) { return simde_mm512_sub_pd(a, b); }
static inline vd vmul(vd a, vd b) { return simde_mm512_mul_pd(a, b); }
static inline vd vneg(vd a) { return simde_mm512_xor_pd(a, simde_mm512_set1_pd(-0.0)); }
static inline vd vabs(vd a) { return simde_mm512_abs_pd(a); }

static inline vmask vlt(vd a, vd b) { return simde_mm512_cmp_pd_mask(a, b, SIMDE_CMP_LT_OQ); }
static inline vmask vgt(vd a, vd b) { return simde_mm512_cmp_pd_mask(a, b, SIMDE_CMP_GT_OQ); }
static inline vmask vle(vd a, vd b) { return simde_mm512_cmp_pd_mask(a, b, SIMDE_CMP_LE_OQ); }
static inline vmask veq(vd a, vd b) { return simde_mm512_cmp_pd_mask(a, b, SIMDE_CMP_EQ_OQ); }
static inline vmask vunord(vd a, vd b) { return simde_mm512_cmp_pd_mask(a, b, SIMDE_CMP_UNORD_Q); }
static inline vmask vmand(vmask a, vmask b) { return (vmask)(a & b); }
static inline vmask vmor(vmask a, vmask b) { return (vmask)(a | b); }
static inline int vmask_any(vmask m) { return m != 0; }
static inline int vmask_all(vmask m) { return m == 0xFF; }
static inline vd vsel(vmask m, vd yes, vd no) { return simde_mm512_mask_blend_pd(m, no, yes); }

static inline vd vrsqrt_seed(vd s)
{
    simde__m512i i = simde_mm512_castpd_si512(s);
    i = simde_mm512_sub_epi64(simde_mm512_set1_epi64((int64_t)TENDON_RSQRT_MAGIC),
                              simde_mm512_srli_epi64(i, 1));
    return simde_mm512_castsi512_pd(i);
}

/*
 * float ↔ double conversions of 8 lanes. SIMDe 0.7.4 has no _mm512_cvtps_pd / _mm512_cvtpd_ps:
 * natively we call the real instruction, emulated we convert the two halves (exact either way:
 * widening is exact, narrowing rounds once, to nearest-even, per lane).
 */
static inline vd vcvt_f32x8(simde__m256 f)
{
#if defined(SIMDE_X86_AVX512F_NATIVE)
    return _mm512_cvtps_pd(f);
#else
    simde__m256d lo = simde_mm256_cvtps_pd(simde_mm256_castps256_ps128(f));
    simde__m256d hi = simde_mm256_cvtps_pd(simde_mm256_extractf128_ps(f, 1));
    return simde_mm512_insertf64x4(simde_mm512_castpd256_pd512(lo), hi, 1);
#endif
}
static inline simde__m256 vcvt_f64x8(vd v)
{
#if defined(SIMDE_X86_AVX512F_NATIVE)
    return _mm512_cvtpd_ps(v);
#else
    simde__m128 lo = simde_mm256_cvtpd_ps(simde_mm512_castpd512_pd256(v));
    simde__m128 hi = simde_mm256_cvtpd_ps(simde_mm512_extractf64x4_pd(v, 1));
    return simde_mm256_insertf128_ps(simde_mm256_castps128_ps256(lo), hi, 1);
#endif
}

static inline vd vload_f32(const float *p) { return vcvt_f32x8(simde_mm256_loadu_ps(p)); }
static inline void vstore_f32(float *p, vd v) { simde_mm256_storeu_ps(p, vcvt_f64x8(v)); }
static inline vd vround_f32(vd v) { return vcvt_f32x8(vcvt_f64x8(v)); }
static inline vd vload_f64(const double *p) { return simde_mm512_loadu_pd(p); }
/** W doubles to memory, no alignment required (added for the spring march). */
static inline void vstore_f64(double *p, vd v) { simde_mm512_storeu_pd(p, v); }

static inline void vload_f32x3(const float *p, vd *v0, vd *v1, vd *v2)
{
    *v0 = vload_f32(p);
    *v1 = vload_f32(p + 8);
    *v2 = vload_f32(p + 16);
}
static inline void vstore_f32x3(float *p, vd v0, vd v1, vd v2)
{
    vstore_f32(p, v0);
    vstore_f32(p + 8, v1);
    vstore_f32(p + 16, v2);
}
static inline void vexpand3(vd w, vd *e0, vd *e1, vd *e2)
{
    *e0 = simde_mm512_permutexvar_pd(simde_mm512_set_epi64(2, 2, 1, 1, 1, 0, 0, 0), w);
    *e1 = simde_mm512_permutexvar_pd(simde_mm512_set_epi64(5, 4, 4, 4, 3, 3, 3, 2), w);
    *e2 = simde_mm512_permutexvar_pd(simde_mm512_set_epi64(7, 7, 7, 6, 6, 6, 5, 5), w);
}

/* Two quaternions i and i+4 in the two 128-bit halves of a 256-bit register. */
static inline simde__m256 vload_quat_pair(const float *p, int i)
{
    return simde_mm256_insertf128_ps(simde_mm256_castps128_ps256(simde_mm_loadu_ps(p + 4 * i)),
                                     simde_mm_loadu_ps(p + 4 * (i + 4)), 1);
}

static inline void vload_quat(const float *p, vd *x, vd *y, vd *z, vd *w)
{
    simde__m256 r0 = vload_quat_pair(p, 0), r1 = vload_quat_pair(p, 1);
    simde__m256 r2 = vload_quat_pair(p, 2), r3 = vload_quat_pair(p, 3);
    simde__m256d t0 = simde_mm256_castps_pd(simde_mm256_unpacklo_ps(r0, r1)); /* x0 x1 y0 y1 | x4 x5 y4 y5 */
    simde__m256d t1 = simde_mm256_castps_pd(simde_mm256_unpacklo_ps(r2, r3)); /* x2 x3 y2 y3 | x6 x7 y6 y7 */
    simde__m256d t2 = simde_mm256_castps_pd(simde_mm256_unpackhi_ps(r0, r1)); /* z0 z1 w0 w1 | z4 z5 w4 w5 */
    simde__m256d t3 = simde_mm256_castps_pd(simde_mm256_unpackhi_ps(r2, r3)); /* z2 z3 w2 w3 | z6 z7 w6 w7 */
    *x = vcvt_f32x8(simde_mm256_castpd_ps(simde_mm256_unpacklo_pd(t0, t1)));
    *y = vcvt_f32x8(simde_mm256_castpd_ps(simde_mm256_unpackhi_pd(t0, t1)));
    *z = vcvt_f32x8(simde_mm256_castpd_ps(simde_mm256_unpacklo_pd(t2, t3)));
    *w = vcvt_f32x8(simde_mm256_castpd_ps(simde_mm256_unpackhi_pd(t2, t3)));
}

static inline void vstore_quat_pair(float *p, int i, simde__m256d v)
{
    simde__m256 f = simde_mm256_castpd_ps(v);
    simde_mm_storeu_ps(p + 4 * i, simde_mm256_castps256_ps128(f));
    simde_mm_storeu_ps(p + 4 * (i + 4), simde_mm256_extractf128_ps(f, 1));
}

static inline void vstore_quat(float *p, vd x, vd y, vd z, vd w)
{
    simde__m256 fx = vcvt_f64x8(x), fy = vcvt_f64x8(y);
    simde__m256 fz = vcvt_f64x8(z), fw = vcvt_f64x8(w);
    simde__m256d t0 = simde_mm256_castps_pd(simde_mm256_unpacklo_ps(fx, fy)); /* x0 y0 x1 y1 | x4 y4 x5 y5 */
    simde__m256d t1 = simde_mm256_castps_pd(simde_mm256_unpacklo_ps(fz, fw)); /* z0 w0 z1 w1 | z4 w4 z5 w5 */
    simde__m256d t2 = simde_mm256_castps_pd(simde_mm256_unpackhi_ps(fx, fy)); /* x2 y2 x3 y3 | x6 y6 x7 y7 */
    simde__m256d t3 = simde_mm256_castps_pd(simde_mm256_unpackhi_ps(fz, fw)); /* z2 w2 z3 w3 | z6 w6 z7 w7 */
    vstore_quat_pair(p, 0, simde_mm256_unpacklo_pd(t0, t1));
    vstore_quat_pair(p, 1, simde_mm256_unpackhi_pd(t0, t1));
    vstore_quat_pair(p, 2, simde_mm256_unpacklo_pd(t2, t3));
    vstore_quat_pair(p, 3, simde_mm256_unpackhi_pd(t2, t3));
}

#endif
