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


/*
 * ---- float32 lanes: the matrix kernels (local/model matrices, palette, skinning, morph) ----
 * TENDON_WF = 16 floats per vector, masks in k-registers. Exact IEEE lane-wise arithmetic and
 * pure data movement; no rcp14/rsqrt14, no fmadd.
 */
#define TENDON_WF 16


/* Permutation indices as constant tables: SIMDe's _mm512_setr_epi32 is not constant-folded by
 * GCC 12 and would rebuild each index vector lane by lane inside the loops. */
static const int32_t TENDON_F16_LOAD3_X[16] = {
    0, 3, 6, 9, 12, 15, 2, 5, 8, 11, 14, 1, 4, 7, 10, 13};
static const int32_t TENDON_F16_LOAD3_Y[16] = {
    1, 4, 7, 10, 13, 0, 3, 6, 9, 12, 15, 2, 5, 8, 11, 14};
static const int32_t TENDON_F16_LOAD3_Z[16] = {
    2, 5, 8, 11, 14, 1, 4, 7, 10, 13, 0, 3, 6, 9, 12, 15};
static const int32_t TENDON_F16_STORE3_X[16] = {
    0, 11, 6, 1, 12, 7, 2, 13, 8, 3, 14, 9, 4, 15, 10, 5};
static const int32_t TENDON_F16_STORE3_Y[16] = {
    5, 0, 11, 6, 1, 12, 7, 2, 13, 8, 3, 14, 9, 4, 15, 10};
static const int32_t TENDON_F16_STORE3_Z[16] = {
    10, 5, 0, 11, 6, 1, 12, 7, 2, 13, 8, 3, 14, 9, 4, 15};
static const int32_t TENDON_F16_QUAT_XY[16] = {
    0, 4, 8, 12, 16, 20, 24, 28, 1, 5, 9, 13, 17, 21, 25, 29};
static const int32_t TENDON_F16_QUAT_ZW[16] = {
    2, 6, 10, 14, 18, 22, 26, 30, 3, 7, 11, 15, 19, 23, 27, 31};
static const int32_t TENDON_F16_QUAT_LO[16] = {
    0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23};
static const int32_t TENDON_F16_QUAT_HI[16] = {
    8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31};
static inline simde__m512i vfidx16(const int32_t *p) { return simde_mm512_loadu_si512(p); }

typedef simde__m512 vf;
typedef simde__mmask16 vfmask;

static inline vf vfset1(float x) { return simde_mm512_set1_ps(x); }
static inline vf vfadd(vf a, vf b) { return simde_mm512_add_ps(a, b); }
static inline vf vfsub(vf a, vf b) { return simde_mm512_sub_ps(a, b); }
static inline vf vfmul(vf a, vf b) { return simde_mm512_mul_ps(a, b); }
static inline vf vfdiv(vf a, vf b) { return simde_mm512_div_ps(a, b); }
static inline vf vfsqrt(vf a) { return simde_mm512_sqrt_ps(a); }
static inline vf vfneg(vf a) { return simde_mm512_xor_ps(a, simde_mm512_set1_ps(-0.0f)); }
static inline vfmask vfgt(vf a, vf b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_GT_OQ); }
static inline vfmask vflt(vf a, vf b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_LT_OQ); }
static inline vf vfsel(vfmask m, vf yes, vf no) { return simde_mm512_mask_blend_ps(m, no, yes); }
static inline vf vfload(const float *p) { return simde_mm512_loadu_ps(p); }
/* p aligned (a hint): EVEX folds any load into its instruction, so the same as vfload. */
static inline vf vfload_aligned(const float *p) { return simde_mm512_loadu_ps(p); }
static inline void vfstore(float *p, vf v) { simde_mm512_storeu_ps(p, v); }
/** v stored as its four 128-bit pieces, each on its own: no store crosses a 16-byte boundary
    (a caller's array aligned to 16 bytes but not to the vector). */
static inline void vfstore_pieces(float *p, vf v)
{
    simde_mm_storeu_ps(p, simde_mm512_castps512_ps128(v));
    simde_mm_storeu_ps(p + 4, simde_mm512_extractf32x4_ps(v, 1));
    simde_mm_storeu_ps(p + 8, simde_mm512_extractf32x4_ps(v, 2));
    simde_mm_storeu_ps(p + 12, simde_mm512_extractf32x4_ps(v, 3));
}

/** p[0..3] in every group of four lanes. */
static inline vf vfload4_dup(const float *p)
{
    return simde_mm512_broadcast_f32x4(simde_mm_loadu_ps(p));
}
/**
 * The four columns of a matrix held in registers (m[0 .. 16/WF), as vfload loads it), each
 * repeated in every group of four lanes: what vfload4_dup gives from memory, without the trip.
 */
static inline void vfmat_cols_dup(const vf *m, vf col[4])
{
    col[0] = simde_mm512_shuffle_f32x4(m[0], m[0], 0x00);
    col[1] = simde_mm512_shuffle_f32x4(m[0], m[0], 0x55);
    col[2] = simde_mm512_shuffle_f32x4(m[0], m[0], 0xAA);
    col[3] = simde_mm512_shuffle_f32x4(m[0], m[0], 0xFF);
}
/** In every group of four lanes, that group's lane k in all four. */
static inline vf vfsplat4_0(vf a) { return simde_mm512_shuffle_ps(a, a, 0x00); }
static inline vf vfsplat4_1(vf a) { return simde_mm512_shuffle_ps(a, a, 0x55); }
static inline vf vfsplat4_2(vf a) { return simde_mm512_shuffle_ps(a, a, 0xAA); }
static inline vf vfsplat4_3(vf a) { return simde_mm512_shuffle_ps(a, a, 0xFF); }

/* vftranspose's in-lane stages: u[4i+k], 128-bit lane L: elements 4i..4i+3 of vector 4L+k
   (of r's lanes). The cross-lane stages or the stores follow (vftranspose,
   vftranspose_rows3, vfstore_mats_pieces); outputs a caller does not read are dropped by
   the compiler. */
static inline void vftranspose_in_lanes(const vf r[16], simde__m512 u[16])
{
    simde__m512 t[16];
    for (int i = 0; i < 8; ++i) {
        t[2 * i] = simde_mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = simde_mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
    }
    for (int i = 0; i < 4; ++i) {
        u[4 * i + 0] = simde_mm512_shuffle_ps(t[4 * i], t[4 * i + 2], 0x44);
        u[4 * i + 1] = simde_mm512_shuffle_ps(t[4 * i], t[4 * i + 2], 0xEE);
        u[4 * i + 2] = simde_mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0x44);
        u[4 * i + 3] = simde_mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0xEE);
    }
}

/** r[i] lane j ↔ r[j] lane i: the WF×WF (16×16) transpose, in place. */
static inline void vftranspose(vf r[16])
{
    simde__m512 u[16];
    vftranspose_in_lanes(r, u);
    for (int k = 0; k < 4; ++k) {
        const simde__m512 v0 = simde_mm512_shuffle_f32x4(u[k], u[4 + k], 0x88);
        const simde__m512 v1 = simde_mm512_shuffle_f32x4(u[k], u[4 + k], 0xDD);
        const simde__m512 w0 = simde_mm512_shuffle_f32x4(u[8 + k], u[12 + k], 0x88);
        const simde__m512 w1 = simde_mm512_shuffle_f32x4(u[8 + k], u[12 + k], 0xDD);
        r[k] = simde_mm512_shuffle_f32x4(v0, w0, 0x88);
        r[8 + k] = simde_mm512_shuffle_f32x4(v0, w0, 0xDD);
        r[4 + k] = simde_mm512_shuffle_f32x4(v1, w1, 0x88);
        r[12 + k] = simde_mm512_shuffle_f32x4(v1, w1, 0xDD);
    }
}

/*
 * 3·WF contiguous floats (x y z of WF points) ↔ one vector per component. Component c of point
 * i is float 3i + c; in the three loaded vectors the lanes holding one component are disjoint,
 * so two blends gather them and one permutation orders them.
 */
static inline void vfload3(const float *p, vf *x, vf *y, vf *z)
{
    const simde__m512 a = simde_mm512_loadu_ps(p), b = simde_mm512_loadu_ps(p + 16);
    const simde__m512 c = simde_mm512_loadu_ps(p + 32);
    const simde__m512 xb =
        simde_mm512_mask_blend_ps(0x2492, simde_mm512_mask_blend_ps(0x4924, a, b), c);
    const simde__m512 yb =
        simde_mm512_mask_blend_ps(0x4924, simde_mm512_mask_blend_ps(0x9249, a, b), c);
    const simde__m512 zb =
        simde_mm512_mask_blend_ps(0x9249, simde_mm512_mask_blend_ps(0x2492, a, b), c);
    *x = simde_mm512_permutexvar_ps(vfidx16(TENDON_F16_LOAD3_X), xb);
    *y = simde_mm512_permutexvar_ps(vfidx16(TENDON_F16_LOAD3_Y), yb);
    *z = simde_mm512_permutexvar_ps(vfidx16(TENDON_F16_LOAD3_Z), zb);
}
static inline void vfstore3(float *p, vf x, vf y, vf z)
{
    const simde__m512 xb = simde_mm512_permutexvar_ps(vfidx16(TENDON_F16_STORE3_X), x);
    const simde__m512 yb = simde_mm512_permutexvar_ps(vfidx16(TENDON_F16_STORE3_Y), y);
    const simde__m512 zb = simde_mm512_permutexvar_ps(vfidx16(TENDON_F16_STORE3_Z), z);
    simde_mm512_storeu_ps(
        p, simde_mm512_mask_blend_ps(0x4924, simde_mm512_mask_blend_ps(0x2492, xb, yb), zb));
    simde_mm512_storeu_ps(
        p + 16, simde_mm512_mask_blend_ps(0x2492, simde_mm512_mask_blend_ps(0x9249, xb, yb), zb));
    simde_mm512_storeu_ps(
        p + 32, simde_mm512_mask_blend_ps(0x9249, simde_mm512_mask_blend_ps(0x4924, xb, yb), zb));
}
/** 4·WF contiguous floats (x y z w of WF quaternions) → one vector per component. */
static inline void vfload4(const float *p, vf *x, vf *y, vf *z, vf *w)
{
    const simde__m512 r0 = simde_mm512_loadu_ps(p), r1 = simde_mm512_loadu_ps(p + 16);
    const simde__m512 r2 = simde_mm512_loadu_ps(p + 32), r3 = simde_mm512_loadu_ps(p + 48);
    const simde__m512i ixy = vfidx16(TENDON_F16_QUAT_XY);
    const simde__m512i izw = vfidx16(TENDON_F16_QUAT_ZW);
    const simde__m512i ilo = vfidx16(TENDON_F16_QUAT_LO);
    const simde__m512i ihi = vfidx16(TENDON_F16_QUAT_HI);
    const simde__m512 xy01 = simde_mm512_permutex2var_ps(r0, ixy, r1); /* x0..x7  | y0..y7  */
    const simde__m512 xy23 = simde_mm512_permutex2var_ps(r2, ixy, r3); /* x8..x15 | y8..y15 */
    const simde__m512 zw01 = simde_mm512_permutex2var_ps(r0, izw, r1);
    const simde__m512 zw23 = simde_mm512_permutex2var_ps(r2, izw, r3);
    *x = simde_mm512_permutex2var_ps(xy01, ilo, xy23);
    *y = simde_mm512_permutex2var_ps(xy01, ihi, xy23);
    *z = simde_mm512_permutex2var_ps(zw01, ilo, zw23);
    *w = simde_mm512_permutex2var_ps(zw01, ihi, zw23);
}

/** One vector per component → 4·WF contiguous floats (x y z w of WF points): vfload4's inverse. */
static const int32_t TENDON_F16_STORE4_A[16] = {0, 8, 16, 24, 1, 9, 17, 25,
                                               2, 10, 18, 26, 3, 11, 19, 27};
static const int32_t TENDON_F16_STORE4_B[16] = {4, 12, 20, 28, 5, 13, 21, 29,
                                               6, 14, 22, 30, 7, 15, 23, 31};
static inline void vfstore4(float *p, vf x, vf y, vf z, vf w)
{
    const simde__m512i ilo = vfidx16(TENDON_F16_QUAT_LO), ihi = vfidx16(TENDON_F16_QUAT_HI);
    const simde__m512i ia = vfidx16(TENDON_F16_STORE4_A), ib = vfidx16(TENDON_F16_STORE4_B);
    const simde__m512 xy_lo = simde_mm512_permutex2var_ps(x, ilo, y); /* x0..x7  | y0..y7  */
    const simde__m512 xy_hi = simde_mm512_permutex2var_ps(x, ihi, y); /* x8..x15 | y8..y15 */
    const simde__m512 zw_lo = simde_mm512_permutex2var_ps(z, ilo, w);
    const simde__m512 zw_hi = simde_mm512_permutex2var_ps(z, ihi, w);
    simde_mm512_storeu_ps(p, simde_mm512_permutex2var_ps(xy_lo, ia, zw_lo));      /* q0..q3   */
    simde_mm512_storeu_ps(p + 16, simde_mm512_permutex2var_ps(xy_lo, ib, zw_lo)); /* q4..q7   */
    simde_mm512_storeu_ps(p + 32, simde_mm512_permutex2var_ps(xy_hi, ia, zw_hi)); /* q8..q11  */
    simde_mm512_storeu_ps(p + 48, simde_mm512_permutex2var_ps(xy_hi, ib, zw_hi)); /* q12..q15 */
}

/** vftranspose, except that outputs i with i % 4 == 3 are left as they were (a 4×4 matrix's
 *  bottom row, which the matrix kernels never read): 52 shuffles instead of 64. */
static inline void vftranspose_rows3(vf r[16])
{
    simde__m512 u[16];
    vftranspose_in_lanes(r, u);
    for (int k = 0; k < 3; ++k) {
        const simde__m512 v0 = simde_mm512_shuffle_f32x4(u[k], u[4 + k], 0x88);
        const simde__m512 v1 = simde_mm512_shuffle_f32x4(u[k], u[4 + k], 0xDD);
        const simde__m512 w0 = simde_mm512_shuffle_f32x4(u[8 + k], u[12 + k], 0x88);
        const simde__m512 w1 = simde_mm512_shuffle_f32x4(u[8 + k], u[12 + k], 0xDD);
        r[k] = simde_mm512_shuffle_f32x4(v0, w0, 0x88);
        r[8 + k] = simde_mm512_shuffle_f32x4(v0, w0, 0xDD);
        r[4 + k] = simde_mm512_shuffle_f32x4(v1, w1, 0x88);
        r[12 + k] = simde_mm512_shuffle_f32x4(v1, w1, 0xDD);
    }
}


/*
 * Components 0..7 of WF records: out[c] lane i = p[i][c] (each p[i] 8 floats, no alignment).
 * Records i and i + 8 share a vector (one per 256-bit half); the 8×8 transpose runs in each half,
 * its last stage as one two-source permutation.
 */
static const int32_t TENDON_F16_G8_LO[16] = {0, 1, 2, 3, 16, 17, 18, 19,
                                            8, 9, 10, 11, 24, 25, 26, 27};
static const int32_t TENDON_F16_G8_HI[16] = {4, 5, 6, 7, 20, 21, 22, 23,
                                            12, 13, 14, 15, 28, 29, 30, 31};
static inline void vfgather8(const float *const p[16], vf out[8])
{
    simde__m512 r[8], t[8], u[8];
    for (int i = 0; i < 8; ++i)
        r[i] = simde_mm512_insertf32x8(simde_mm512_castps256_ps512(simde_mm256_loadu_ps(p[i])),
                                       simde_mm256_loadu_ps(p[i + 8]), 1);
    for (int i = 0; i < 4; ++i) {
        t[2 * i] = simde_mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = simde_mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
    }
    for (int i = 0; i < 2; ++i) {
        u[4 * i + 0] = simde_mm512_shuffle_ps(t[4 * i], t[4 * i + 2], 0x44);
        u[4 * i + 1] = simde_mm512_shuffle_ps(t[4 * i], t[4 * i + 2], 0xEE);
        u[4 * i + 2] = simde_mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0x44);
        u[4 * i + 3] = simde_mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0xEE);
    }
    const simde__m512i lo = vfidx16(TENDON_F16_G8_LO), hi = vfidx16(TENDON_F16_G8_HI);
    for (int k = 0; k < 4; ++k) {
        out[k] = simde_mm512_permutex2var_ps(u[k], lo, u[4 + k]);
        out[4 + k] = simde_mm512_permutex2var_ps(u[k], hi, u[4 + k]);
    }
}


/*
 * ---- float32 lanes, continued: the float32 pose tier (docs/fast-tier.md) ----
 */
static const int32_t TENDON_F16_EXPAND3_0[16] = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5};
static const int32_t TENDON_F16_EXPAND3_1[16] = {5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9, 9, 10, 10};
static const int32_t TENDON_F16_EXPAND3_2[16] = {10, 11, 11, 11, 12, 12, 12, 13,
                                                 13, 13, 14, 14, 14, 15, 15, 15};

static inline vf vfabs(vf a) { return simde_mm512_abs_ps(a); }
static inline vfmask vfle(vf a, vf b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_LE_OQ); }
static inline vfmask vfeq(vf a, vf b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_EQ_OQ); }
static inline vfmask vfunord(vf a, vf b) { return simde_mm512_cmp_ps_mask(a, b, SIMDE_CMP_UNORD_Q); }
static inline vfmask vfmand(vfmask a, vfmask b) { return (vfmask)(a & b); }
static inline vfmask vfmor(vfmask a, vfmask b) { return (vfmask)(a | b); }
static inline int vfmask_any(vfmask m) { return m != 0; }
static inline int vfmask_all(vfmask m) { return m == 0xFFFF; }
/*
 * WF quaternions ↔ x y z w vectors in the layer's *quaternion lane order*: a fixed permutation
 * of the quaternions over the lanes, chosen so the transposes stay inside 128-bit lanes (8
 * unpacks each way, no cross-lane permutation). Lane-wise arithmetic does not care; vfqorder
 * puts a natural-order vector (a weight per element) into the same order. Lane 4L + k holds
 * quaternion L, 8 + L, 4 + L, 12 + L for k = 0, 1, 2, 3.
 */
static inline void vfload4q(const float *p, vf *x, vf *y, vf *z, vf *w)
{
    const simde__m512 r0 = simde_mm512_loadu_ps(p), r1 = simde_mm512_loadu_ps(p + 16);
    const simde__m512 r2 = simde_mm512_loadu_ps(p + 32), r3 = simde_mm512_loadu_ps(p + 48);
    const simde__m512 t0 = simde_mm512_unpacklo_ps(r0, r1); /* per lane L: xL xL+4 yL yL+4 */
    const simde__m512 t1 = simde_mm512_unpackhi_ps(r0, r1); /*             zL zL+4 wL wL+4 */
    const simde__m512 t2 = simde_mm512_unpacklo_ps(r2, r3); /*  xL+8 xL+12 yL+8 yL+12      */
    const simde__m512 t3 = simde_mm512_unpackhi_ps(r2, r3);
    *x = simde_mm512_unpacklo_ps(t0, t2); /* xL xL+8 xL+4 xL+12 */
    *y = simde_mm512_unpackhi_ps(t0, t2);
    *z = simde_mm512_unpacklo_ps(t1, t3);
    *w = simde_mm512_unpackhi_ps(t1, t3);
}
static inline void vfstore4q(float *p, vf x, vf y, vf z, vf w)
{
    const simde__m512 u0 = simde_mm512_unpacklo_ps(x, z); /* xL zL xL+8 zL+8 */
    const simde__m512 u1 = simde_mm512_unpacklo_ps(y, w);
    const simde__m512 u2 = simde_mm512_unpackhi_ps(x, z); /* xL+4 zL+4 xL+12 zL+12 */
    const simde__m512 u3 = simde_mm512_unpackhi_ps(y, w);
    simde_mm512_storeu_ps(p, simde_mm512_unpacklo_ps(u0, u1));      /* q0..q3   */
    simde_mm512_storeu_ps(p + 16, simde_mm512_unpacklo_ps(u2, u3)); /* q4..q7   */
    simde_mm512_storeu_ps(p + 32, simde_mm512_unpackhi_ps(u0, u1)); /* q8..q11  */
    simde_mm512_storeu_ps(p + 48, simde_mm512_unpackhi_ps(u2, u3)); /* q12..q15 */
}
static const int32_t TENDON_F16_QORDER[16] = {0, 8, 4, 12, 1, 9, 5, 13, 2, 10, 6, 14, 3, 11, 7, 15};
static inline vf vfqorder(vf v) { return simde_mm512_permutexvar_ps(vfidx16(TENDON_F16_QORDER), v); }
/** One value per joint (lane i: joint i) → one per component of 3-float joints, in memory
 *  order over three vectors (e0 = w0 w0 w0 w1 w1 w1 …). */
static inline void vfexpand3(vf w, vf *e0, vf *e1, vf *e2)
{
    *e0 = simde_mm512_permutexvar_ps(vfidx16(TENDON_F16_EXPAND3_0), w);
    *e1 = simde_mm512_permutexvar_ps(vfidx16(TENDON_F16_EXPAND3_1), w);
    *e2 = simde_mm512_permutexvar_ps(vfidx16(TENDON_F16_EXPAND3_2), w);
}
/** Two vectors of W doubles → one of WF = 2·W floats (lo's lanes first), each rounded once. */
static inline vf vfpack(vd lo, vd hi)
{
    return simde_mm512_insertf32x8(simde_mm512_castps256_ps512(vcvt_f64x8(lo)), vcvt_f64x8(hi), 1);
}

/** v with its sign flipped where m is set: vfsel(m, vfneg(v), v), bit for bit. */
static inline vf vfneg_where(vfmask m, vf v)
{
    return simde_mm512_mask_xor_ps(v, m, v, simde_mm512_set1_ps(-0.0f));
}

/*
 * WF 4×4 matrices from their 16 element vectors (e[k] lane i: matrix i's element k) to out, 16
 * floats a matrix, each 128-bit piece (four consecutive elements of one matrix) stored on its
 * own (kernel local_matrices_pieces; docs/dispatch.md, "Per-vendor choices"): vftranspose's two
 * in-lane stages, then each 128-bit lane stored where it goes (lane 0 as it is, lanes 1-3 by
 * vextractf32x4 to memory, a store) instead of vftranspose's two cross-lane stages (32
 * vshuff32x4, which an Intel core runs on one port).
 */
static inline void vfstore_mats_pieces(const vf e[16], float *out)
{
    simde__m512 u[16];
    vftranspose_in_lanes(e, u); /* u[4i+k], lane L: elements 4i … 4i + 3 of matrix 4L + k */
    for (int i = 0; i < 4; ++i)
        for (int k = 0; k < 4; ++k) {
            float *o = out + 16 * k + 4 * i;
            simde_mm_storeu_ps(o, simde_mm512_castps512_ps128(u[4 * i + k]));
            simde_mm_storeu_ps(o + 64, simde_mm512_extractf32x4_ps(u[4 * i + k], 1));
            simde_mm_storeu_ps(o + 128, simde_mm512_extractf32x4_ps(u[4 * i + k], 2));
            simde_mm_storeu_ps(o + 192, simde_mm512_extractf32x4_ps(u[4 * i + k], 3));
        }
}

#endif
