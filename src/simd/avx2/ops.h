/*
 * AVX2 op layer: W = 4 doubles per vector, on SIMDe types (native with -mavx2 and no -mfma on
 * x86-64, emulated elsewhere). Exact lane-wise IEEE arithmetic and data movement only.
 */
#ifndef TENDON_OPS_AVX2_H
#define TENDON_OPS_AVX2_H

#include <stdint.h>
#include <simde/x86/avx2.h>

#include "../../common/detmath_coeffs.h"

#define TENDON_W 4
#define TENDON_SFX avx2

typedef simde__m256d vd;
typedef simde__m256d vmask;

static inline vd vset1(double x) { return simde_mm256_set1_pd(x); }
static inline vd vadd(vd a, vd b) { return simde_mm256_add_pd(a, b); }
static inline vd vsub(vd a, vd b) { return simde_mm256_sub_pd(a, b); }
static inline vd vmul(vd a, vd b) { return simde_mm256_mul_pd(a, b); }
static inline vd vneg(vd a) { return simde_mm256_xor_pd(a, simde_mm256_set1_pd(-0.0)); }
static inline vd vabs(vd a) { return simde_mm256_andnot_pd(simde_mm256_set1_pd(-0.0), a); }

static inline vmask vlt(vd a, vd b) { return simde_mm256_cmp_pd(a, b, SIMDE_CMP_LT_OQ); }
static inline vmask vgt(vd a, vd b) { return simde_mm256_cmp_pd(a, b, SIMDE_CMP_GT_OQ); }
static inline vmask vle(vd a, vd b) { return simde_mm256_cmp_pd(a, b, SIMDE_CMP_LE_OQ); }
static inline vmask veq(vd a, vd b) { return simde_mm256_cmp_pd(a, b, SIMDE_CMP_EQ_OQ); }
static inline vmask vunord(vd a, vd b) { return simde_mm256_cmp_pd(a, b, SIMDE_CMP_UNORD_Q); }
static inline vmask vmand(vmask a, vmask b) { return simde_mm256_and_pd(a, b); }
static inline vmask vmor(vmask a, vmask b) { return simde_mm256_or_pd(a, b); }
static inline int vmask_any(vmask m) { return simde_mm256_movemask_pd(m) != 0; }
static inline int vmask_all(vmask m) { return simde_mm256_movemask_pd(m) == 15; }
static inline vd vsel(vmask m, vd yes, vd no) { return simde_mm256_blendv_pd(no, yes, m); }

/** Correctly rounded IEEE square root and quotient (identical bits on every ISA). */
static inline vd vsqrt(vd a) { return simde_mm256_sqrt_pd(a); }
static inline vd vdiv(vd a, vd b) { return simde_mm256_div_pd(a, b); }

static inline vd vrsqrt_seed(vd s)
{
    simde__m256i i = simde_mm256_castpd_si256(s);
    i = simde_mm256_sub_epi64(simde_mm256_set1_epi64x((int64_t)TENDON_RSQRT_MAGIC),
                              simde_mm256_srli_epi64(i, 1));
    return simde_mm256_castsi256_pd(i);
}

static inline vd vload_f32(const float *p) { return simde_mm256_cvtps_pd(simde_mm_loadu_ps(p)); }
static inline void vstore_f32(float *p, vd v) { simde_mm_storeu_ps(p, simde_mm256_cvtpd_ps(v)); }
static inline vd vround_f32(vd v) { return simde_mm256_cvtps_pd(simde_mm256_cvtpd_ps(v)); }
static inline vd vload_f64(const double *p) { return simde_mm256_loadu_pd(p); }
/** W doubles to memory, no alignment required (added for the spring march). */
static inline void vstore_f64(double *p, vd v) { simde_mm256_storeu_pd(p, v); }

static inline void vload_f32x3(const float *p, vd *v0, vd *v1, vd *v2)
{
    *v0 = vload_f32(p);
    *v1 = vload_f32(p + 4);
    *v2 = vload_f32(p + 8);
}
static inline void vstore_f32x3(float *p, vd v0, vd v1, vd v2)
{
    vstore_f32(p, v0);
    vstore_f32(p + 4, v1);
    vstore_f32(p + 8, v2);
}
static inline void vexpand3(vd w, vd *e0, vd *e1, vd *e2)
{
    *e0 = simde_mm256_permute4x64_pd(w, SIMDE_MM_SHUFFLE(1, 0, 0, 0)); /* w0 w0 w0 w1 */
    *e1 = simde_mm256_permute4x64_pd(w, SIMDE_MM_SHUFFLE(2, 2, 1, 1)); /* w1 w1 w2 w2 */
    *e2 = simde_mm256_permute4x64_pd(w, SIMDE_MM_SHUFFLE(3, 3, 3, 2)); /* w2 w3 w3 w3 */
}

static inline void vload_quat(const float *p, vd *x, vd *y, vd *z, vd *w)
{
    simde__m128 q0 = simde_mm_loadu_ps(p), q1 = simde_mm_loadu_ps(p + 4);
    simde__m128 q2 = simde_mm_loadu_ps(p + 8), q3 = simde_mm_loadu_ps(p + 12);
    simde__m128 t0 = simde_mm_unpacklo_ps(q0, q1); /* x0 x1 y0 y1 */
    simde__m128 t1 = simde_mm_unpacklo_ps(q2, q3); /* x2 x3 y2 y3 */
    simde__m128 t2 = simde_mm_unpackhi_ps(q0, q1); /* z0 z1 w0 w1 */
    simde__m128 t3 = simde_mm_unpackhi_ps(q2, q3); /* z2 z3 w2 w3 */
    *x = simde_mm256_cvtps_pd(simde_mm_movelh_ps(t0, t1));
    *y = simde_mm256_cvtps_pd(simde_mm_movehl_ps(t1, t0));
    *z = simde_mm256_cvtps_pd(simde_mm_movelh_ps(t2, t3));
    *w = simde_mm256_cvtps_pd(simde_mm_movehl_ps(t3, t2));
}
static inline void vstore_quat(float *p, vd x, vd y, vd z, vd w)
{
    simde__m128 fx = simde_mm256_cvtpd_ps(x), fy = simde_mm256_cvtpd_ps(y);
    simde__m128 fz = simde_mm256_cvtpd_ps(z), fw = simde_mm256_cvtpd_ps(w);
    simde__m128 t0 = simde_mm_unpacklo_ps(fx, fy); /* x0 y0 x1 y1 */
    simde__m128 t1 = simde_mm_unpacklo_ps(fz, fw); /* z0 w0 z1 w1 */
    simde__m128 t2 = simde_mm_unpackhi_ps(fx, fy); /* x2 y2 x3 y3 */
    simde__m128 t3 = simde_mm_unpackhi_ps(fz, fw); /* z2 w2 z3 w3 */
    simde_mm_storeu_ps(p, simde_mm_movelh_ps(t0, t1));
    simde_mm_storeu_ps(p + 4, simde_mm_movehl_ps(t1, t0));
    simde_mm_storeu_ps(p + 8, simde_mm_movelh_ps(t2, t3));
    simde_mm_storeu_ps(p + 12, simde_mm_movehl_ps(t3, t2));
}

#endif
