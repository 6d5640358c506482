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

/** Correctly rounded IEEE square root and quotient (identical bits on every ISA). */
static inline vd vsqrt(vd a) { return simde_mm512_sqrt_pd(a); }
static inline vd vdiv(vd a, vd b) { return simde_mm512_div_pd(a, b); }

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
    /* (Index tables are loaded: SIMDe's set_epi64 does not fold into a constant.) */
    static const int64_t E0[8] = {0, 0, 0, 1, 1, 1, 2, 2};
    static const int64_t E1[8] = {2, 3, 3, 3, 4, 4, 4, 5};
    static const int64_t E2[8] = {5, 5, 6, 6, 6, 7, 7, 7};
    *e0 = simde_mm512_permutexvar_pd(simde_mm512_loadu_si512(E0), w);
    *e1 = simde_mm512_permutexvar_pd(simde_mm512_loadu_si512(E1), w);
    *e2 = simde_mm512_permutexvar_pd(simde_mm512_loadu_si512(E2), w);
}

/*
 * 8 quaternions (two 512-bit loads of x y z w × 4) → x y z w vectors: one two-source permute
 * gathers all x into the low half and all y into the high half, another z and w.
 */
static inline void vload_quat(const float *p, vd *x, vd *y, vd *z, vd *w)
{
    const simde__m512 q03 = simde_mm512_loadu_ps(p), q47 = simde_mm512_loadu_ps(p + 16);
    static const int32_t XY[16] = {0, 4, 8, 12, 16, 20, 24, 28, 1, 5, 9, 13, 17, 21, 25, 29};
    static const int32_t ZW[16] = {2, 6, 10, 14, 18, 22, 26, 30, 3, 7, 11, 15, 19, 23, 27, 31};
    const simde__m512i idx_xy = simde_mm512_loadu_si512(XY);
    const simde__m512i idx_zw = simde_mm512_loadu_si512(ZW);
    const simde__m512 xy = simde_mm512_permutex2var_ps(q03, idx_xy, q47);
    const simde__m512 zw = simde_mm512_permutex2var_ps(q03, idx_zw, q47);
    *x = vcvt_f32x8(simde_mm512_castps512_ps256(xy));
    *y = vcvt_f32x8(simde_mm256_castpd_ps(simde_mm512_extractf64x4_pd(simde_mm512_castps_pd(xy), 1)));
    *z = vcvt_f32x8(simde_mm512_castps512_ps256(zw));
    *w = vcvt_f32x8(simde_mm256_castpd_ps(simde_mm512_extractf64x4_pd(simde_mm512_castps_pd(zw), 1)));
}

/* The inverse: x y (and z w) joined into one register each, then interleaved by two permutes. */
static inline void vstore_quat(float *p, vd x, vd y, vd z, vd w)
{
    const simde__m512 xy = simde_mm512_castpd_ps(simde_mm512_insertf64x4(
        simde_mm512_castpd256_pd512(simde_mm256_castps_pd(vcvt_f64x8(x))),
        simde_mm256_castps_pd(vcvt_f64x8(y)), 1));
    const simde__m512 zw = simde_mm512_castpd_ps(simde_mm512_insertf64x4(
        simde_mm512_castpd256_pd512(simde_mm256_castps_pd(vcvt_f64x8(z))),
        simde_mm256_castps_pd(vcvt_f64x8(w)), 1));
    /* element 4q + c of the output takes component c of quaternion q: x y from xy, z w from zw */
    static const int32_t LO[16] = {0, 8, 16, 24, 1, 9, 17, 25, 2, 10, 18, 26, 3, 11, 19, 27};
    static const int32_t HI[16] = {4, 12, 20, 28, 5, 13, 21, 29, 6, 14, 22, 30, 7, 15, 23, 31};
    const simde__m512i idx_lo = simde_mm512_loadu_si512(LO);
    const simde__m512i idx_hi = simde_mm512_loadu_si512(HI);
    simde_mm512_storeu_ps(p, simde_mm512_permutex2var_ps(xy, idx_lo, zw));
    simde_mm512_storeu_ps(p + 16, simde_mm512_permutex2var_ps(xy, idx_hi, zw));
}

#endif
