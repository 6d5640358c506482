/*
 * SSE2 op layer (and, with TENDON_SSE41_SELECTS, the SSE4.1 one: the same ops with blendv
 * selects): W = 2 doubles per vector, on SIMDe types (native with -msse2 on x86-64,
 * emulated elsewhere). Every op is exact lane-wise IEEE arithmetic or a pure data movement;
 * nothing here estimates, fuses or reorders. The kernel bodies in src/simd/kernels/ use only
 * these names (see src/simd/README.md for the op contract every ISA implements).
 */
#ifndef TENDON_OPS_SSE2_H
#define TENDON_OPS_SSE2_H

#include <stdint.h>
#include <string.h>
#if defined(TENDON_SSE41_SELECTS)
#include <simde/x86/sse4.1.h>
#else
#include <simde/x86/sse2.h>
#endif

#include "../../common/detmath_coeffs.h"

#define TENDON_W 2
#ifndef TENDON_SFX
#define TENDON_SFX sse2
#endif

typedef simde__m128d vd;
typedef simde__m128d vmask;

static inline vd vset1(double x) { return simde_mm_set1_pd(x); }
static inline vd vadd(vd a, vd b) { return simde_mm_add_pd(a, b); }
static inline vd vsub(vd a, vd b) { return simde_mm_sub_pd(a, b); }
static inline vd vmul(vd a, vd b) { return simde_mm_mul_pd(a, b); }
static inline vd vneg(vd a) { return simde_mm_xor_pd(a, simde_mm_set1_pd(-0.0)); }
static inline vd vabs(vd a) { return simde_mm_andnot_pd(simde_mm_set1_pd(-0.0), a); }

static inline vmask vlt(vd a, vd b) { return simde_mm_cmplt_pd(a, b); }
static inline vmask vgt(vd a, vd b) { return simde_mm_cmpgt_pd(a, b); }
static inline vmask vle(vd a, vd b) { return simde_mm_cmple_pd(a, b); }
static inline vmask veq(vd a, vd b) { return simde_mm_cmpeq_pd(a, b); }
static inline vmask vunord(vd a, vd b) { return simde_mm_cmpunord_pd(a, b); }
static inline vmask vmand(vmask a, vmask b) { return simde_mm_and_pd(a, b); }
static inline vmask vmor(vmask a, vmask b) { return simde_mm_or_pd(a, b); }
static inline int vmask_any(vmask m) { return simde_mm_movemask_pd(m) != 0; }
static inline int vmask_all(vmask m) { return simde_mm_movemask_pd(m) == 3; }
/** m ? yes : no, lane-wise */
static inline vd vsel(vmask m, vd yes, vd no)
{
#if defined(TENDON_SSE41_SELECTS)
    return simde_mm_blendv_pd(no, yes, m);
#else
    return simde_mm_or_pd(simde_mm_and_pd(m, yes), simde_mm_andnot_pd(m, no));
#endif
}

/** Correctly rounded IEEE square root and quotient (identical bits on every ISA). */
static inline vd vsqrt(vd a) { return simde_mm_sqrt_pd(a); }
static inline vd vdiv(vd a, vd b) { return simde_mm_div_pd(a, b); }

/** bits(MAGIC − (bits(s) >> 1)) lane-wise: the 1/√s seed. */
static inline vd vrsqrt_seed(vd s)
{
    simde__m128i i = simde_mm_castpd_si128(s);
    i = simde_mm_sub_epi64(simde_mm_set1_epi64x((int64_t)TENDON_RSQRT_MAGIC),
                           simde_mm_srli_epi64(i, 1));
    return simde_mm_castsi128_pd(i);
}

/** W floats → W doubles; and back with one rounding (round-to-nearest-even). */
/* Two floats move as 8 bytes through memcpy (a float array is only 4-byte aligned). */
static inline vd vload_f32(const float *p)
{
    double two;
    memcpy(&two, p, sizeof two);
    return simde_mm_cvtps_pd(simde_mm_castpd_ps(simde_mm_set_sd(two)));
}
static inline void vstore_f32(float *p, vd v)
{
    const double two = simde_mm_cvtsd_f64(simde_mm_castps_pd(simde_mm_cvtpd_ps(v)));
    memcpy(p, &two, sizeof two);
}
/** Round each lane to float and back (the seed's float32 scratch). */
static inline vd vround_f32(vd v) { return simde_mm_cvtps_pd(simde_mm_cvtpd_ps(v)); }
static inline vd vload_f64(const double *p) { return simde_mm_loadu_pd(p); }
/** W doubles to memory, no alignment required (added for the spring march). */
static inline void vstore_f64(double *p, vd v) { simde_mm_storeu_pd(p, v); }

/** 3·W contiguous floats (xyz of W joints) → three vectors in memory order. */
static inline void vload_f32x3(const float *p, vd *v0, vd *v1, vd *v2)
{
    simde__m128 lo = simde_mm_loadu_ps(p);
    *v0 = simde_mm_cvtps_pd(lo);
    *v1 = simde_mm_cvtps_pd(simde_mm_movehl_ps(lo, lo));
    *v2 = vload_f32(p + 4);
}
static inline void vstore_f32x3(float *p, vd v0, vd v1, vd v2)
{
    simde_mm_storeu_ps(p, simde_mm_movelh_ps(simde_mm_cvtpd_ps(v0), simde_mm_cvtpd_ps(v1)));
    vstore_f32(p + 4, v2);
}
/** One value per joint → one per component, in the memory order of vload_f32x3. */
static inline void vexpand3(vd w, vd *e0, vd *e1, vd *e2)
{
    *e0 = simde_mm_unpacklo_pd(w, w);            /* w0 w0 */
    *e1 = w;                                     /* w0 w1 */
    *e2 = simde_mm_unpackhi_pd(w, w);            /* w1 w1 */
}

/** 4·W floats (x y z w of W quaternions) → one vector per component. */
static inline void vload_quat(const float *p, vd *x, vd *y, vd *z, vd *w)
{
    simde__m128 q0 = simde_mm_loadu_ps(p), q1 = simde_mm_loadu_ps(p + 4);
    simde__m128 xy = simde_mm_unpacklo_ps(q0, q1); /* x0 x1 y0 y1 */
    simde__m128 zw = simde_mm_unpackhi_ps(q0, q1); /* z0 z1 w0 w1 */
    *x = simde_mm_cvtps_pd(xy);
    *y = simde_mm_cvtps_pd(simde_mm_movehl_ps(xy, xy));
    *z = simde_mm_cvtps_pd(zw);
    *w = simde_mm_cvtps_pd(simde_mm_movehl_ps(zw, zw));
}
static inline void vstore_quat(float *p, vd x, vd y, vd z, vd w)
{
    simde__m128 xy = simde_mm_movelh_ps(simde_mm_cvtpd_ps(x), simde_mm_cvtpd_ps(y)); /* x0 x1 y0 y1 */
    simde__m128 zw = simde_mm_movelh_ps(simde_mm_cvtpd_ps(z), simde_mm_cvtpd_ps(w)); /* z0 z1 w0 w1 */
    simde__m128 lo = simde_mm_unpacklo_ps(xy, zw); /* x0 z0 x1 z1 */
    simde__m128 hi = simde_mm_unpackhi_ps(xy, zw); /* y0 w0 y1 w1 */
    simde_mm_storeu_ps(p, simde_mm_unpacklo_ps(lo, hi));     /* x0 y0 z0 w0 */
    simde_mm_storeu_ps(p + 4, simde_mm_unpackhi_ps(lo, hi)); /* x1 y1 z1 w1 */
}


/*
 * ---- float32 lanes: the matrix kernels (local/model matrices, palette, skinning, morph) ----
 * TENDON_WF = 4 floats per vector. Exact IEEE lane-wise arithmetic and pure data movement.
 */
#define TENDON_WF 4

typedef simde__m128 vf;
typedef simde__m128 vfmask;

static inline vf vfset1(float x) { return simde_mm_set1_ps(x); }
static inline vf vfadd(vf a, vf b) { return simde_mm_add_ps(a, b); }
static inline vf vfsub(vf a, vf b) { return simde_mm_sub_ps(a, b); }
static inline vf vfmul(vf a, vf b) { return simde_mm_mul_ps(a, b); }
static inline vf vfdiv(vf a, vf b) { return simde_mm_div_ps(a, b); }
static inline vf vfsqrt(vf a) { return simde_mm_sqrt_ps(a); }
static inline vf vfneg(vf a) { return simde_mm_xor_ps(a, simde_mm_set1_ps(-0.0f)); }
static inline vfmask vfgt(vf a, vf b) { return simde_mm_cmpgt_ps(a, b); }
static inline vfmask vflt(vf a, vf b) { return simde_mm_cmplt_ps(a, b); }
static inline vf vfsel(vfmask m, vf yes, vf no)
{
#if defined(TENDON_SSE41_SELECTS)
    return simde_mm_blendv_ps(no, yes, m);
#else
    return simde_mm_or_ps(simde_mm_and_ps(m, yes), simde_mm_andnot_ps(m, no));
#endif
}
static inline vf vfload(const float *p) { return simde_mm_loadu_ps(p); }
/* p 16-byte aligned: the aligned encoding, which SSE (not VEX) can fold into the arithmetic
   instruction that uses it (one instruction instead of a load and the operation). */
static inline vf vfload_aligned(const float *p) { return simde_mm_load_ps(p); }
static inline void vfstore(float *p, vf v) { simde_mm_storeu_ps(p, v); }
/** vfstore: a four-lane vector is one 128-bit piece already. */
static inline void vfstore_pieces(float *p, vf v) { vfstore(p, v); }

/** p[0..3] in every group of four lanes (here: the one group). */
static inline vf vfload4_dup(const float *p) { return simde_mm_loadu_ps(p); }
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
static inline vf vfsplat4_0(vf a) { return simde_mm_shuffle_ps(a, a, 0x00); }
static inline vf vfsplat4_1(vf a) { return simde_mm_shuffle_ps(a, a, 0x55); }
static inline vf vfsplat4_2(vf a) { return simde_mm_shuffle_ps(a, a, 0xAA); }
static inline vf vfsplat4_3(vf a) { return simde_mm_shuffle_ps(a, a, 0xFF); }

/** r[i] lane j ↔ r[j] lane i: the WF×WF transpose, in place. */
static inline void vftranspose(vf r[4])
{
    const simde__m128 t0 = simde_mm_unpacklo_ps(r[0], r[1]); /* a0 b0 a1 b1 */
    const simde__m128 t1 = simde_mm_unpacklo_ps(r[2], r[3]); /* c0 d0 c1 d1 */
    const simde__m128 t2 = simde_mm_unpackhi_ps(r[0], r[1]); /* a2 b2 a3 b3 */
    const simde__m128 t3 = simde_mm_unpackhi_ps(r[2], r[3]); /* c2 d2 c3 d3 */
    r[0] = simde_mm_movelh_ps(t0, t1);
    r[1] = simde_mm_movehl_ps(t1, t0);
    r[2] = simde_mm_movelh_ps(t2, t3);
    r[3] = simde_mm_movehl_ps(t3, t2);
}

/** 3·WF contiguous floats (x y z of WF points) → one vector per component. */
static inline void vfload3(const float *p, vf *x, vf *y, vf *z)
{
    const simde__m128 a = simde_mm_loadu_ps(p);     /* x0 y0 z0 x1 */
    const simde__m128 b = simde_mm_loadu_ps(p + 4); /* y1 z1 x2 y2 */
    const simde__m128 c = simde_mm_loadu_ps(p + 8); /* z2 x3 y3 z3 */
    *x = simde_mm_shuffle_ps(simde_mm_shuffle_ps(a, a, SIMDE_MM_SHUFFLE(3, 3, 0, 0)),
                             simde_mm_shuffle_ps(b, c, SIMDE_MM_SHUFFLE(1, 1, 2, 2)),
                             SIMDE_MM_SHUFFLE(2, 0, 2, 0));
    *y = simde_mm_shuffle_ps(simde_mm_shuffle_ps(a, b, SIMDE_MM_SHUFFLE(0, 0, 1, 1)),
                             simde_mm_shuffle_ps(b, c, SIMDE_MM_SHUFFLE(2, 2, 3, 3)),
                             SIMDE_MM_SHUFFLE(2, 0, 2, 0));
    *z = simde_mm_shuffle_ps(simde_mm_shuffle_ps(a, b, SIMDE_MM_SHUFFLE(1, 1, 2, 2)),
                             simde_mm_shuffle_ps(c, c, SIMDE_MM_SHUFFLE(3, 3, 0, 0)),
                             SIMDE_MM_SHUFFLE(2, 0, 2, 0));
}
static inline void vfstore3(float *p, vf x, vf y, vf z)
{
    simde_mm_storeu_ps(p, simde_mm_shuffle_ps(simde_mm_shuffle_ps(x, y, SIMDE_MM_SHUFFLE(0, 0, 0, 0)),
                                              simde_mm_shuffle_ps(z, x, SIMDE_MM_SHUFFLE(1, 1, 0, 0)),
                                              SIMDE_MM_SHUFFLE(2, 0, 2, 0)));
    simde_mm_storeu_ps(p + 4,
                       simde_mm_shuffle_ps(simde_mm_shuffle_ps(y, z, SIMDE_MM_SHUFFLE(1, 1, 1, 1)),
                                           simde_mm_shuffle_ps(x, y, SIMDE_MM_SHUFFLE(2, 2, 2, 2)),
                                           SIMDE_MM_SHUFFLE(2, 0, 2, 0)));
    simde_mm_storeu_ps(p + 8,
                       simde_mm_shuffle_ps(simde_mm_shuffle_ps(z, x, SIMDE_MM_SHUFFLE(3, 3, 2, 2)),
                                           simde_mm_shuffle_ps(y, z, SIMDE_MM_SHUFFLE(3, 3, 3, 3)),
                                           SIMDE_MM_SHUFFLE(2, 0, 2, 0)));
}
/** 4·WF contiguous floats (x y z w of WF quaternions) → one vector per component. */
static inline void vfload4(const float *p, vf *x, vf *y, vf *z, vf *w)
{
    vf r[4] = {simde_mm_loadu_ps(p), simde_mm_loadu_ps(p + 4), simde_mm_loadu_ps(p + 8),
               simde_mm_loadu_ps(p + 12)};
    vftranspose(r);
    *x = r[0];
    *y = r[1];
    *z = r[2];
    *w = r[3];
}

/** One vector per component → 4·WF contiguous floats (x y z w of WF points): vfload4's inverse. */
static inline void vfstore4(float *p, vf x, vf y, vf z, vf w)
{
    vf r[4] = {x, y, z, w};
    vftranspose(r);
    simde_mm_storeu_ps(p, r[0]);
    simde_mm_storeu_ps(p + 4, r[1]);
    simde_mm_storeu_ps(p + 8, r[2]);
    simde_mm_storeu_ps(p + 12, r[3]);
}

/** vftranspose, except that outputs i with i % 4 == 3 are left as they were (a 4×4 matrix's
 *  bottom row, which the matrix kernels never read): fewer shuffles. */
static inline void vftranspose_rows3(vf r[4])
{
    const simde__m128 t0 = simde_mm_unpacklo_ps(r[0], r[1]);
    const simde__m128 t1 = simde_mm_unpacklo_ps(r[2], r[3]);
    const simde__m128 t2 = simde_mm_unpackhi_ps(r[0], r[1]);
    const simde__m128 t3 = simde_mm_unpackhi_ps(r[2], r[3]);
    r[0] = simde_mm_movelh_ps(t0, t1);
    r[1] = simde_mm_movehl_ps(t1, t0);
    r[2] = simde_mm_movelh_ps(t2, t3);
}


/** Components 0..7 of WF records: out[c] lane i = p[i][c] (each p[i] 8 floats, no alignment). */
static inline void vfgather8(const float *const p[4], vf out[8])
{
    for (int h = 0; h < 2; ++h) {
        vf r[4] = {simde_mm_loadu_ps(p[0] + 4 * h), simde_mm_loadu_ps(p[1] + 4 * h),
                   simde_mm_loadu_ps(p[2] + 4 * h), simde_mm_loadu_ps(p[3] + 4 * h)};
        vftranspose(r);
        for (int k = 0; k < 4; ++k)
            out[4 * h + k] = r[k];
    }
}


/*
 * ---- float32 lanes, continued: the float32 pose tier (docs/fast-tier.md) ----
 */
static inline vf vfabs(vf a) { return simde_mm_andnot_ps(simde_mm_set1_ps(-0.0f), a); }
static inline vfmask vfle(vf a, vf b) { return simde_mm_cmple_ps(a, b); }
static inline vfmask vfeq(vf a, vf b) { return simde_mm_cmpeq_ps(a, b); }
static inline vfmask vfunord(vf a, vf b) { return simde_mm_cmpunord_ps(a, b); }
static inline vfmask vfmand(vfmask a, vfmask b) { return simde_mm_and_ps(a, b); }
static inline vfmask vfmor(vfmask a, vfmask b) { return simde_mm_or_ps(a, b); }
static inline int vfmask_any(vfmask m) { return simde_mm_movemask_ps(m) != 0; }
static inline int vfmask_all(vfmask m) { return simde_mm_movemask_ps(m) == 0xF; }
/*
 * WF quaternions ↔ x y z w vectors in the layer's *quaternion lane order*: a fixed permutation
 * of the quaternions over the lanes, whatever transposes cheapest (lane-wise arithmetic does not
 * care; vfqorder puts a natural-order vector — a weight per element — into the same order).
 * Here the natural order: lane i holds quaternion i.
 */
static inline void vfload4q(const float *p, vf *x, vf *y, vf *z, vf *w) { vfload4(p, x, y, z, w); }
static inline void vfstore4q(float *p, vf x, vf y, vf z, vf w)
{
    vf r[4] = {x, y, z, w};
    vftranspose(r);
    simde_mm_storeu_ps(p, r[0]);
    simde_mm_storeu_ps(p + 4, r[1]);
    simde_mm_storeu_ps(p + 8, r[2]);
    simde_mm_storeu_ps(p + 12, r[3]);
}
static inline vf vfqorder(vf v) { return v; }
/** One value per joint (lane i: joint i) → one per component of 3-float joints, in memory
 *  order over three vectors: e0 = w0 w0 w0 w1, e1 = w1 w1 w2 w2, e2 = w2 w3 w3 w3. */
static inline void vfexpand3(vf w, vf *e0, vf *e1, vf *e2)
{
    *e0 = simde_mm_shuffle_ps(w, w, SIMDE_MM_SHUFFLE(1, 0, 0, 0));
    *e1 = simde_mm_shuffle_ps(w, w, SIMDE_MM_SHUFFLE(2, 2, 1, 1));
    *e2 = simde_mm_shuffle_ps(w, w, SIMDE_MM_SHUFFLE(3, 3, 3, 2));
}
/** Two vectors of W doubles → one of WF = 2·W floats (lo's lanes first), each rounded once. */
static inline vf vfpack(vd lo, vd hi)
{
    return simde_mm_movelh_ps(simde_mm_cvtpd_ps(lo), simde_mm_cvtpd_ps(hi));
}

/** v with its sign flipped where m is set: vfsel(m, vfneg(v), v), bit for bit. */
static inline vf vfneg_where(vfmask m, vf v)
{
    return simde_mm_xor_ps(v, simde_mm_and_ps(m, simde_mm_set1_ps(-0.0f)));
}

#endif
