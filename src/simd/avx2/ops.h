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


/*
 * ---- float32 lanes: the matrix kernels (local/model matrices, palette, skinning, morph) ----
 * TENDON_WF = 8 floats per vector. Exact IEEE lane-wise arithmetic and pure data movement.
 */
#define TENDON_WF 8

typedef simde__m256 vf;
typedef simde__m256 vfmask;

static inline vf vfset1(float x) { return simde_mm256_set1_ps(x); }
static inline vf vfadd(vf a, vf b) { return simde_mm256_add_ps(a, b); }
static inline vf vfsub(vf a, vf b) { return simde_mm256_sub_ps(a, b); }
static inline vf vfmul(vf a, vf b) { return simde_mm256_mul_ps(a, b); }
static inline vf vfdiv(vf a, vf b) { return simde_mm256_div_ps(a, b); }
static inline vf vfsqrt(vf a) { return simde_mm256_sqrt_ps(a); }
static inline vf vfneg(vf a) { return simde_mm256_xor_ps(a, simde_mm256_set1_ps(-0.0f)); }
static inline vfmask vfgt(vf a, vf b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_GT_OQ); }
static inline vfmask vflt(vf a, vf b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_LT_OQ); }
static inline vf vfsel(vfmask m, vf yes, vf no) { return simde_mm256_blendv_ps(no, yes, m); }
static inline vf vfload(const float *p) { return simde_mm256_loadu_ps(p); }
/* p aligned (a hint): VEX folds any load into its instruction, so the same as vfload. */
static inline vf vfload_aligned(const float *p) { return simde_mm256_loadu_ps(p); }
static inline void vfstore(float *p, vf v) { simde_mm256_storeu_ps(p, v); }
/** v stored as its two 128-bit halves, each on its own: no store crosses a 16-byte boundary
    (a caller's array aligned to 16 bytes but not to the vector). */
static inline void vfstore_pieces(float *p, vf v)
{
    simde_mm_storeu_ps(p, simde_mm256_castps256_ps128(v));
    simde_mm_storeu_ps(p + 4, simde_mm256_extractf128_ps(v, 1));
}

/** p[0..3] in every group of four lanes. */
static inline vf vfload4_dup(const float *p)
{
    const simde__m128 q = simde_mm_loadu_ps(p);
    return simde_mm256_insertf128_ps(simde_mm256_castps128_ps256(q), q, 1);
}
/**
 * The four columns of a matrix held in registers (m[0 .. 16/WF), as vfload loads it), each
 * repeated in every group of four lanes: what vfload4_dup gives from memory, without the trip.
 */
static inline void vfmat_cols_dup(const vf *m, vf col[4])
{
    col[0] = simde_mm256_permute2f128_ps(m[0], m[0], 0x00);
    col[1] = simde_mm256_permute2f128_ps(m[0], m[0], 0x11);
    col[2] = simde_mm256_permute2f128_ps(m[1], m[1], 0x00);
    col[3] = simde_mm256_permute2f128_ps(m[1], m[1], 0x11);
}
/** In every group of four lanes, that group's lane k in all four. */
static inline vf vfsplat4_0(vf a) { return simde_mm256_shuffle_ps(a, a, 0x00); }
static inline vf vfsplat4_1(vf a) { return simde_mm256_shuffle_ps(a, a, 0x55); }
static inline vf vfsplat4_2(vf a) { return simde_mm256_shuffle_ps(a, a, 0xAA); }
static inline vf vfsplat4_3(vf a) { return simde_mm256_shuffle_ps(a, a, 0xFF); }

/* vftranspose's in-lane stages: u[4i+k], 128-bit lane L: elements 4i..4i+3 of vector 4L+k
   (of r's lanes). The cross-lane stages or the stores follow (vftranspose,
   vftranspose_rows3, vfstore_mats_pieces); outputs a caller does not read are dropped by
   the compiler. */
static inline void vftranspose_in_lanes(const vf r[8], simde__m256 u[8])
{
    simde__m256 t[8];
    for (int i = 0; i < 4; ++i) {
        t[2 * i] = simde_mm256_unpacklo_ps(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = simde_mm256_unpackhi_ps(r[2 * i], r[2 * i + 1]);
    }
    for (int i = 0; i < 2; ++i) {
        u[4 * i + 0] = simde_mm256_shuffle_ps(t[4 * i], t[4 * i + 2], 0x44);
        u[4 * i + 1] = simde_mm256_shuffle_ps(t[4 * i], t[4 * i + 2], 0xEE);
        u[4 * i + 2] = simde_mm256_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0x44);
        u[4 * i + 3] = simde_mm256_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0xEE);
    }
}

/** r[i] lane j ↔ r[j] lane i: the WF×WF transpose, in place. */
static inline void vftranspose(vf r[8])
{
    simde__m256 u[8];
    vftranspose_in_lanes(r, u);
    for (int k = 0; k < 4; ++k) {
        r[k] = simde_mm256_permute2f128_ps(u[k], u[4 + k], 0x20);
        r[4 + k] = simde_mm256_permute2f128_ps(u[k], u[4 + k], 0x31);
    }
}

/*
 * 3·WF contiguous floats (x y z of WF points) ↔ one vector per component. Component c of point
 * i is float 3i + c; in the three loaded vectors a, b, c the lanes holding one component are
 * disjoint, so two blends gather them and one permutation orders them.
 */
static inline void vfload3(const float *p, vf *x, vf *y, vf *z)
{
    const simde__m256 a = simde_mm256_loadu_ps(p), b = simde_mm256_loadu_ps(p + 8);
    const simde__m256 c = simde_mm256_loadu_ps(p + 16);
    const simde__m256 xb = simde_mm256_blend_ps(simde_mm256_blend_ps(a, b, 0x92), c, 0x24);
    const simde__m256 yb = simde_mm256_blend_ps(simde_mm256_blend_ps(a, b, 0x24), c, 0x49);
    const simde__m256 zb = simde_mm256_blend_ps(simde_mm256_blend_ps(a, b, 0x49), c, 0x92);
    *x = simde_mm256_permutevar8x32_ps(xb, simde_mm256_setr_epi32(0, 3, 6, 1, 4, 7, 2, 5));
    *y = simde_mm256_permutevar8x32_ps(yb, simde_mm256_setr_epi32(1, 4, 7, 2, 5, 0, 3, 6));
    *z = simde_mm256_permutevar8x32_ps(zb, simde_mm256_setr_epi32(2, 5, 0, 3, 6, 1, 4, 7));
}
static inline void vfstore3(float *p, vf x, vf y, vf z)
{
    const simde__m256 xb =
        simde_mm256_permutevar8x32_ps(x, simde_mm256_setr_epi32(0, 3, 6, 1, 4, 7, 2, 5));
    const simde__m256 yb =
        simde_mm256_permutevar8x32_ps(y, simde_mm256_setr_epi32(5, 0, 3, 6, 1, 4, 7, 2));
    const simde__m256 zb =
        simde_mm256_permutevar8x32_ps(z, simde_mm256_setr_epi32(2, 5, 0, 3, 6, 1, 4, 7));
    simde_mm256_storeu_ps(p, simde_mm256_blend_ps(simde_mm256_blend_ps(xb, yb, 0x92), zb, 0x24));
    simde_mm256_storeu_ps(p + 8,
                          simde_mm256_blend_ps(simde_mm256_blend_ps(zb, xb, 0x92), yb, 0x24));
    simde_mm256_storeu_ps(p + 16,
                          simde_mm256_blend_ps(simde_mm256_blend_ps(yb, zb, 0x92), xb, 0x24));
}
/** 4·WF contiguous floats (x y z w of WF quaternions) → one vector per component. */
static inline void vfload4(const float *p, vf *x, vf *y, vf *z, vf *w)
{
    simde__m256 r[4];
    for (int i = 0; i < 4; ++i)
        r[i] = simde_mm256_insertf128_ps(simde_mm256_castps128_ps256(simde_mm_loadu_ps(p + 4 * i)),
                                         simde_mm_loadu_ps(p + 4 * (i + 4)), 1);
    const simde__m256 t0 = simde_mm256_unpacklo_ps(r[0], r[1]); /* x0 x1 y0 y1 | x4 x5 y4 y5 */
    const simde__m256 t1 = simde_mm256_unpacklo_ps(r[2], r[3]); /* x2 x3 y2 y3 | x6 x7 y6 y7 */
    const simde__m256 t2 = simde_mm256_unpackhi_ps(r[0], r[1]); /* z0 z1 w0 w1 | z4 z5 w4 w5 */
    const simde__m256 t3 = simde_mm256_unpackhi_ps(r[2], r[3]); /* z2 z3 w2 w3 | z6 z7 w6 w7 */
    *x = simde_mm256_shuffle_ps(t0, t1, 0x44);
    *y = simde_mm256_shuffle_ps(t0, t1, 0xEE);
    *z = simde_mm256_shuffle_ps(t2, t3, 0x44);
    *w = simde_mm256_shuffle_ps(t2, t3, 0xEE);
}

/** One vector per component → 4·WF contiguous floats (x y z w of WF points): vfload4's inverse. */
static inline void vfstore4(float *p, vf x, vf y, vf z, vf w)
{
    const simde__m256 t0 = simde_mm256_unpacklo_ps(x, y); /* x0 y0 x1 y1 | x4 y4 x5 y5 */
    const simde__m256 t1 = simde_mm256_unpacklo_ps(z, w); /* z0 w0 z1 w1 | z4 w4 z5 w5 */
    const simde__m256 t2 = simde_mm256_unpackhi_ps(x, y); /* x2 y2 x3 y3 | x6 y6 x7 y7 */
    const simde__m256 t3 = simde_mm256_unpackhi_ps(z, w);
    const simde__m256 r0 = simde_mm256_shuffle_ps(t0, t1, 0x44); /* q0 | q4 */
    const simde__m256 r1 = simde_mm256_shuffle_ps(t0, t1, 0xEE); /* q1 | q5 */
    const simde__m256 r2 = simde_mm256_shuffle_ps(t2, t3, 0x44); /* q2 | q6 */
    const simde__m256 r3 = simde_mm256_shuffle_ps(t2, t3, 0xEE); /* q3 | q7 */
    simde_mm256_storeu_ps(p, simde_mm256_permute2f128_ps(r0, r1, 0x20));
    simde_mm256_storeu_ps(p + 8, simde_mm256_permute2f128_ps(r2, r3, 0x20));
    simde_mm256_storeu_ps(p + 16, simde_mm256_permute2f128_ps(r0, r1, 0x31));
    simde_mm256_storeu_ps(p + 24, simde_mm256_permute2f128_ps(r2, r3, 0x31));
}

/** vftranspose, except that outputs i with i % 4 == 3 are left as they were (a 4×4 matrix's
 *  bottom row, which the matrix kernels never read): 20 shuffles instead of 24. */
static inline void vftranspose_rows3(vf r[8])
{
    simde__m256 u[8];
    vftranspose_in_lanes(r, u);
    for (int k = 0; k < 3; ++k) {
        r[k] = simde_mm256_permute2f128_ps(u[k], u[4 + k], 0x20);
        r[4 + k] = simde_mm256_permute2f128_ps(u[k], u[4 + k], 0x31);
    }
}


/** Components 0..7 of WF records: out[c] lane i = p[i][c] (each p[i] 8 floats, no alignment). */
static inline void vfgather8(const float *const p[8], vf out[8])
{
    /* rows i and i + 4 side by side, one per 128-bit half (the halves joined by the load's
       vinsertf128 rather than by cross-lane shuffles), then one in-lane 4×4 transpose per half */
    simde__m256 a[4], b[4];
    for (int i = 0; i < 4; ++i) {
        a[i] = simde_mm256_insertf128_ps(simde_mm256_castps128_ps256(simde_mm_loadu_ps(p[i])),
                                         simde_mm_loadu_ps(p[i + 4]), 1);
        b[i] = simde_mm256_insertf128_ps(simde_mm256_castps128_ps256(simde_mm_loadu_ps(p[i] + 4)),
                                         simde_mm_loadu_ps(p[i + 4] + 4), 1);
    }
    for (int h = 0; h < 2; ++h) {
        const simde__m256 *r = h ? b : a;
        const simde__m256 t0 = simde_mm256_unpacklo_ps(r[0], r[1]);
        const simde__m256 t1 = simde_mm256_unpackhi_ps(r[0], r[1]);
        const simde__m256 t2 = simde_mm256_unpacklo_ps(r[2], r[3]);
        const simde__m256 t3 = simde_mm256_unpackhi_ps(r[2], r[3]);
        out[4 * h + 0] = simde_mm256_shuffle_ps(t0, t2, 0x44);
        out[4 * h + 1] = simde_mm256_shuffle_ps(t0, t2, 0xEE);
        out[4 * h + 2] = simde_mm256_shuffle_ps(t1, t3, 0x44);
        out[4 * h + 3] = simde_mm256_shuffle_ps(t1, t3, 0xEE);
    }
}


/*
 * ---- float32 lanes, continued: the float32 pose tier (docs/fast-tier.md) ----
 */
static inline vf vfabs(vf a) { return simde_mm256_andnot_ps(simde_mm256_set1_ps(-0.0f), a); }
static inline vfmask vfle(vf a, vf b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_LE_OQ); }
static inline vfmask vfeq(vf a, vf b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_EQ_OQ); }
static inline vfmask vfunord(vf a, vf b) { return simde_mm256_cmp_ps(a, b, SIMDE_CMP_UNORD_Q); }
static inline vfmask vfmand(vfmask a, vfmask b) { return simde_mm256_and_ps(a, b); }
static inline vfmask vfmor(vfmask a, vfmask b) { return simde_mm256_or_ps(a, b); }
static inline int vfmask_any(vfmask m) { return simde_mm256_movemask_ps(m) != 0; }
static inline int vfmask_all(vfmask m) { return simde_mm256_movemask_ps(m) == 0xFF; }
/*
 * WF quaternions ↔ x y z w vectors in the layer's *quaternion lane order*: a fixed permutation
 * of the quaternions over the lanes, chosen so the transposes stay inside 128-bit lanes (8
 * unpacks each way, no cross-lane shuffle). Lane-wise arithmetic does not care; vfqorder puts a
 * natural-order vector (a weight per element) into the same order. Here lanes 0..7 hold
 * quaternions 0 4 2 6 1 5 3 7.
 */
static inline void vfload4q(const float *p, vf *x, vf *y, vf *z, vf *w)
{
    const simde__m256 r0 = simde_mm256_loadu_ps(p), r1 = simde_mm256_loadu_ps(p + 8);
    const simde__m256 r2 = simde_mm256_loadu_ps(p + 16), r3 = simde_mm256_loadu_ps(p + 24);
    const simde__m256 t0 = simde_mm256_unpacklo_ps(r0, r1); /* x0 x2 y0 y2 | x1 x3 y1 y3 */
    const simde__m256 t1 = simde_mm256_unpackhi_ps(r0, r1); /* z0 z2 w0 w2 | z1 z3 w1 w3 */
    const simde__m256 t2 = simde_mm256_unpacklo_ps(r2, r3); /* x4 x6 y4 y6 | x5 x7 y5 y7 */
    const simde__m256 t3 = simde_mm256_unpackhi_ps(r2, r3);
    *x = simde_mm256_unpacklo_ps(t0, t2); /* x0 x4 x2 x6 | x1 x5 x3 x7 */
    *y = simde_mm256_unpackhi_ps(t0, t2);
    *z = simde_mm256_unpacklo_ps(t1, t3);
    *w = simde_mm256_unpackhi_ps(t1, t3);
}
static inline void vfstore4q(float *p, vf x, vf y, vf z, vf w)
{
    const simde__m256 u0 = simde_mm256_unpacklo_ps(x, z); /* x0 z0 x4 z4 | x1 z1 x5 z5 */
    const simde__m256 u1 = simde_mm256_unpacklo_ps(y, w); /* y0 w0 y4 w4 | y1 w1 y5 w5 */
    const simde__m256 u2 = simde_mm256_unpackhi_ps(x, z); /* x2 z2 x6 z6 | x3 z3 x7 z7 */
    const simde__m256 u3 = simde_mm256_unpackhi_ps(y, w);
    simde_mm256_storeu_ps(p, simde_mm256_unpacklo_ps(u0, u1));      /* q0 | q1 */
    simde_mm256_storeu_ps(p + 8, simde_mm256_unpacklo_ps(u2, u3));  /* q2 | q3 */
    simde_mm256_storeu_ps(p + 16, simde_mm256_unpackhi_ps(u0, u1)); /* q4 | q5 */
    simde_mm256_storeu_ps(p + 24, simde_mm256_unpackhi_ps(u2, u3)); /* q6 | q7 */
}
static inline vf vfqorder(vf v)
{
    return simde_mm256_permutevar8x32_ps(v, simde_mm256_setr_epi32(0, 4, 2, 6, 1, 5, 3, 7));
}
/** One value per joint (lane i: joint i) → one per component of 3-float joints, in memory
 *  order over three vectors (e0 = w0 w0 w0 w1 w1 w1 w2 w2, …). */
static inline void vfexpand3(vf w, vf *e0, vf *e1, vf *e2)
{
    *e0 = simde_mm256_permutevar8x32_ps(w, simde_mm256_setr_epi32(0, 0, 0, 1, 1, 1, 2, 2));
    *e1 = simde_mm256_permutevar8x32_ps(w, simde_mm256_setr_epi32(2, 3, 3, 3, 4, 4, 4, 5));
    *e2 = simde_mm256_permutevar8x32_ps(w, simde_mm256_setr_epi32(5, 5, 6, 6, 6, 7, 7, 7));
}
/** Two vectors of W doubles → one of WF = 2·W floats (lo's lanes first), each rounded once. */
static inline vf vfpack(vd lo, vd hi)
{
    return simde_mm256_insertf128_ps(simde_mm256_castps128_ps256(simde_mm256_cvtpd_ps(lo)),
                                     simde_mm256_cvtpd_ps(hi), 1);
}

/** v with its sign flipped where m is set: vfsel(m, vfneg(v), v), bit for bit. */
static inline vf vfneg_where(vfmask m, vf v)
{
    return simde_mm256_xor_ps(v, simde_mm256_and_ps(m, simde_mm256_set1_ps(-0.0f)));
}

/*
 * WF 4×4 matrices from their 16 element vectors (e[k] lane i: matrix i's element k) to out, 16
 * floats a matrix, each 128-bit piece (four consecutive elements of one matrix) stored on its
 * own (kernel local_matrices_pieces; docs/dispatch.md, "Per-vendor choices"): vftranspose's two
 * in-lane stages per eight elements, then each 128-bit half stored where it goes (the low half
 * as it is, the high one by vextractf128 to memory, a store) instead of vftranspose's last,
 * cross-lane stage (eight vperm2f128, which an Intel core runs on one port).
 */
static inline void vfstore_mats_pieces(const vf e[16], float *out)
{
    for (int g = 0; g < 2; ++g) {
        simde__m256 u[8];
        vftranspose_in_lanes(e + 8 * g, u); /* u[4i+k], half h: elements 8g + 4i … of matrix 4h + k */
        for (int i = 0; i < 2; ++i)
            for (int k = 0; k < 4; ++k) {
                float *o = out + 16 * k + 8 * g + 4 * i;
                simde_mm_storeu_ps(o, simde_mm256_castps256_ps128(u[4 * i + k]));
                simde_mm_storeu_ps(o + 64, simde_mm256_extractf128_ps(u[4 * i + k], 1));
            }
    }
}

#endif
