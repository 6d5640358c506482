/*
 * WebAssembly SIMD128 op layer: W = 2 doubles (f64x2), WF = 4 floats (f32x4), written directly
 * on clang's <wasm_simd128.h> (not through SIMDe: every op below is one or a few instructions of
 * the finalised SIMD128 proposal, and nothing of relaxed SIMD). Compiled with -msimd128 only
 * (docs/wasm.md). The op contract is src/simd/README.md's, lane for lane the SSE2 layer's:
 *
 * - arithmetic is f64x2 / f32x4 add, sub, mul, div, sqrt: IEEE, round to nearest, never fused;
 *   WebAssembly has no FP environment, so there is nothing to guard either;
 * - neg and abs are the sign-bit operations (f64x2.neg / .abs are bitwise in the spec);
 * - comparisons are the ordered IEEE ones (false on NaN) and selects are v128.bitselect on the
 *   comparison's mask. There is no min or max here: f32x4.min / max propagate NaN and order -0
 *   below +0, where SSE's minps returns the second operand; the kernels write every min, max
 *   and clamp as a compare and a select (e.g. vfsel(vfgt(w, one), one, w)), which gives the
 *   scalar reference's answer for NaN and ±0 on every ISA;
 * - conversions are only float <-> double (f64x2.promote_low_f32x4 is exact;
 *   f32x4.demote_f64x2_zero rounds once, to nearest even, and gives ±inf / ±0 beyond the float
 *   range as cvtpd2ps does). No float -> int truncation is used by any kernel (the saturating
 *   i32x4.trunc_sat ops would disagree with x86's 0x80000000 for NaN and out-of-range values);
 *   the one integer op on float bits is vrsqrt_seed, an i64x2 subtract and shift.
 *
 * NaN payloads: WebAssembly leaves the sign and payload of a NaN produced by arithmetic
 * unspecified (canonical or arithmetic NaN); which NaN is not part of tendon's contract (the
 * digest hashes every NaN as one canonical NaN), only that it is a NaN.
 */
#ifndef TENDON_OPS_SIMD128_H
#define TENDON_OPS_SIMD128_H

#if !defined(__wasm_simd128__)
#error "src/simd/simd128 is compiled with -msimd128 (a wasm32 build: docs/wasm.md)"
#endif
#if defined(__wasm_relaxed_simd__)
#error "relaxed SIMD must not be enabled: its fused and estimated ops are not deterministic"
#endif

#include <stdint.h>
#include <string.h>
#include <wasm_simd128.h>

#include "../../common/detmath_coeffs.h"

#define TENDON_W 2
#ifndef TENDON_SFX
#define TENDON_SFX simd128
#endif

typedef v128_t vd;
typedef v128_t vmask;

static inline vd vset1(double x) { return wasm_f64x2_splat(x); }
static inline vd vadd(vd a, vd b) { return wasm_f64x2_add(a, b); }
static inline vd vsub(vd a, vd b) { return wasm_f64x2_sub(a, b); }
static inline vd vmul(vd a, vd b) { return wasm_f64x2_mul(a, b); }
static inline vd vneg(vd a) { return wasm_f64x2_neg(a); }
static inline vd vabs(vd a) { return wasm_f64x2_abs(a); }

static inline vmask vlt(vd a, vd b) { return wasm_f64x2_lt(a, b); }
static inline vmask vgt(vd a, vd b) { return wasm_f64x2_gt(a, b); }
static inline vmask vle(vd a, vd b) { return wasm_f64x2_le(a, b); }
static inline vmask veq(vd a, vd b) { return wasm_f64x2_eq(a, b); }
/** Either lane is NaN: x != x is true exactly for NaN. */
static inline vmask vunord(vd a, vd b)
{
    return wasm_v128_or(wasm_f64x2_ne(a, a), wasm_f64x2_ne(b, b));
}
static inline vmask vmand(vmask a, vmask b) { return wasm_v128_and(a, b); }
static inline vmask vmor(vmask a, vmask b) { return wasm_v128_or(a, b); }
static inline int vmask_any(vmask m) { return wasm_v128_any_true(m); }
static inline int vmask_all(vmask m) { return wasm_i64x2_all_true(m); }
/** m ? yes : no, lane-wise (m is all ones or all zeros per lane) */
static inline vd vsel(vmask m, vd yes, vd no) { return wasm_v128_bitselect(yes, no, m); }

/** Correctly rounded IEEE square root and quotient (identical bits on every ISA). */
static inline vd vsqrt(vd a) { return wasm_f64x2_sqrt(a); }
static inline vd vdiv(vd a, vd b) { return wasm_f64x2_div(a, b); }

/** bits(MAGIC − (bits(s) >> 1)) lane-wise: the 1/√s seed. */
static inline vd vrsqrt_seed(vd s)
{
    return wasm_i64x2_sub(wasm_i64x2_splat((int64_t)TENDON_RSQRT_MAGIC), wasm_u64x2_shr(s, 1));
}

/** W floats → W doubles; and back with one rounding (round-to-nearest-even). */
static inline vd vload_f32(const float *p)
{
    return wasm_f64x2_promote_low_f32x4(wasm_v128_load64_zero(p));
}
static inline void vstore_f32(float *p, vd v)
{
    wasm_v128_store64_lane(p, wasm_f32x4_demote_f64x2_zero(v), 0);
}
/** Round each lane to float and back (the seed's float32 scratch). */
static inline vd vround_f32(vd v)
{
    return wasm_f64x2_promote_low_f32x4(wasm_f32x4_demote_f64x2_zero(v));
}
static inline vd vload_f64(const double *p) { return wasm_v128_load(p); }
/** W doubles to memory, no alignment required. */
static inline void vstore_f64(double *p, vd v) { wasm_v128_store(p, v); }

/** 3·W contiguous floats (xyz of W joints) → three vectors in memory order. */
static inline void vload_f32x3(const float *p, vd *v0, vd *v1, vd *v2)
{
    const v128_t lo = wasm_v128_load(p);
    *v0 = wasm_f64x2_promote_low_f32x4(lo);
    *v1 = wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(lo, lo, 2, 3, 0, 1));
    *v2 = vload_f32(p + 4);
}
static inline void vstore_f32x3(float *p, vd v0, vd v1, vd v2)
{
    wasm_v128_store(p, wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(v0),
                                          wasm_f32x4_demote_f64x2_zero(v1), 0, 1, 4, 5));
    vstore_f32(p + 4, v2);
}
/** One value per joint → one per component, in the memory order of vload_f32x3. */
static inline void vexpand3(vd w, vd *e0, vd *e1, vd *e2)
{
    *e0 = wasm_i64x2_shuffle(w, w, 0, 0); /* w0 w0 */
    *e1 = w;                              /* w0 w1 */
    *e2 = wasm_i64x2_shuffle(w, w, 1, 1); /* w1 w1 */
}

/** 4·W floats (x y z w of W quaternions) → one vector per component. */
static inline void vload_quat(const float *p, vd *x, vd *y, vd *z, vd *w)
{
    const v128_t q0 = wasm_v128_load(p), q1 = wasm_v128_load(p + 4);
    const v128_t xy = wasm_i32x4_shuffle(q0, q1, 0, 4, 1, 5); /* x0 x1 y0 y1 */
    const v128_t zw = wasm_i32x4_shuffle(q0, q1, 2, 6, 3, 7); /* z0 z1 w0 w1 */
    *x = wasm_f64x2_promote_low_f32x4(xy);
    *y = wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(xy, xy, 2, 3, 0, 1));
    *z = wasm_f64x2_promote_low_f32x4(zw);
    *w = wasm_f64x2_promote_low_f32x4(wasm_i32x4_shuffle(zw, zw, 2, 3, 0, 1));
}
static inline void vstore_quat(float *p, vd x, vd y, vd z, vd w)
{
    const v128_t fx = wasm_f32x4_demote_f64x2_zero(x), fy = wasm_f32x4_demote_f64x2_zero(y);
    const v128_t fz = wasm_f32x4_demote_f64x2_zero(z), fw = wasm_f32x4_demote_f64x2_zero(w);
    const v128_t xy = wasm_i32x4_shuffle(fx, fy, 0, 4, 1, 5); /* x0 y0 x1 y1 */
    const v128_t zw = wasm_i32x4_shuffle(fz, fw, 0, 4, 1, 5); /* z0 w0 z1 w1 */
    wasm_v128_store(p, wasm_i32x4_shuffle(xy, zw, 0, 1, 4, 5));     /* x0 y0 z0 w0 */
    wasm_v128_store(p + 4, wasm_i32x4_shuffle(xy, zw, 2, 3, 6, 7)); /* x1 y1 z1 w1 */
}

/*
 * ---- float32 lanes: the matrix kernels (local/model matrices, palette, skinning, morph) ----
 * TENDON_WF = 4 floats per vector. Exact IEEE lane-wise arithmetic and pure data movement.
 */
#define TENDON_WF 4

typedef v128_t vf;
typedef v128_t vfmask;

static inline vf vfset1(float x) { return wasm_f32x4_splat(x); }
static inline vf vfadd(vf a, vf b) { return wasm_f32x4_add(a, b); }
static inline vf vfsub(vf a, vf b) { return wasm_f32x4_sub(a, b); }
static inline vf vfmul(vf a, vf b) { return wasm_f32x4_mul(a, b); }
static inline vf vfdiv(vf a, vf b) { return wasm_f32x4_div(a, b); }
static inline vf vfsqrt(vf a) { return wasm_f32x4_sqrt(a); }
static inline vf vfneg(vf a) { return wasm_f32x4_neg(a); }
static inline vfmask vfgt(vf a, vf b) { return wasm_f32x4_gt(a, b); }
static inline vfmask vflt(vf a, vf b) { return wasm_f32x4_lt(a, b); }
static inline vf vfsel(vfmask m, vf yes, vf no) { return wasm_v128_bitselect(yes, no, m); }
static inline vf vfload(const float *p) { return wasm_v128_load(p); }
/* p aligned (a hint): the same load as vfload. */
static inline vf vfload_aligned(const float *p) { return wasm_v128_load(p); }
static inline void vfstore(float *p, vf v) { wasm_v128_store(p, v); }
/** vfstore: a four-lane vector is one 128-bit piece already. */
static inline void vfstore_pieces(float *p, vf v) { vfstore(p, v); }

/** p[0..3] in every group of four lanes (here: the one group). */
static inline vf vfload4_dup(const float *p) { return wasm_v128_load(p); }
/** The four columns of a matrix held in registers, each repeated in every group of four lanes. */
static inline void vfmat_cols_dup(const vf *m, vf col[4])
{
    for (int k = 0; k < 4; ++k)
        col[k] = m[k];
}
/** In every group of four lanes, that group's lane k in all four. */
static inline vf vfsplat4_0(vf a) { return wasm_i32x4_shuffle(a, a, 0, 0, 0, 0); }
static inline vf vfsplat4_1(vf a) { return wasm_i32x4_shuffle(a, a, 1, 1, 1, 1); }
static inline vf vfsplat4_2(vf a) { return wasm_i32x4_shuffle(a, a, 2, 2, 2, 2); }
static inline vf vfsplat4_3(vf a) { return wasm_i32x4_shuffle(a, a, 3, 3, 3, 3); }

/** r[i] lane j ↔ r[j] lane i: the WF×WF transpose, in place. */
static inline void vftranspose(vf r[4])
{
    const v128_t t0 = wasm_i32x4_shuffle(r[0], r[1], 0, 4, 1, 5); /* a0 b0 a1 b1 */
    const v128_t t1 = wasm_i32x4_shuffle(r[2], r[3], 0, 4, 1, 5); /* c0 d0 c1 d1 */
    const v128_t t2 = wasm_i32x4_shuffle(r[0], r[1], 2, 6, 3, 7); /* a2 b2 a3 b3 */
    const v128_t t3 = wasm_i32x4_shuffle(r[2], r[3], 2, 6, 3, 7); /* c2 d2 c3 d3 */
    r[0] = wasm_i32x4_shuffle(t0, t1, 0, 1, 4, 5);
    r[1] = wasm_i32x4_shuffle(t0, t1, 2, 3, 6, 7);
    r[2] = wasm_i32x4_shuffle(t2, t3, 0, 1, 4, 5);
    r[3] = wasm_i32x4_shuffle(t2, t3, 2, 3, 6, 7);
}

/** 3·WF contiguous floats (x y z of WF points) → one vector per component. */
static inline void vfload3(const float *p, vf *x, vf *y, vf *z)
{
    const v128_t a = wasm_v128_load(p);     /* x0 y0 z0 x1 */
    const v128_t b = wasm_v128_load(p + 4); /* y1 z1 x2 y2 */
    const v128_t c = wasm_v128_load(p + 8); /* z2 x3 y3 z3 */
    *x = wasm_i32x4_shuffle(wasm_i32x4_shuffle(a, b, 0, 3, 6, 7), c, 0, 1, 2, 5);
    *y = wasm_i32x4_shuffle(wasm_i32x4_shuffle(a, b, 1, 4, 7, 0), c, 0, 1, 2, 6);
    *z = wasm_i32x4_shuffle(wasm_i32x4_shuffle(a, b, 2, 5, 0, 0), c, 0, 1, 4, 7);
}
static inline void vfstore3(float *p, vf x, vf y, vf z)
{
    /* x0 y0 z0 x1 | y1 z1 x2 y2 | z2 x3 y3 z3 */
    wasm_v128_store(p, wasm_i32x4_shuffle(wasm_i32x4_shuffle(x, y, 0, 4, 1, 1), z, 0, 1, 4, 2));
    wasm_v128_store(p + 4,
                    wasm_i32x4_shuffle(wasm_i32x4_shuffle(y, z, 1, 5, 2, 2), x, 0, 1, 6, 2));
    wasm_v128_store(p + 8,
                    wasm_i32x4_shuffle(wasm_i32x4_shuffle(z, x, 2, 7, 3, 3), y, 0, 1, 7, 2));
}
/** 4·WF contiguous floats (x y z w of WF quaternions) → one vector per component. */
static inline void vfload4(const float *p, vf *x, vf *y, vf *z, vf *w)
{
    vf r[4] = {wasm_v128_load(p), wasm_v128_load(p + 4), wasm_v128_load(p + 8),
               wasm_v128_load(p + 12)};
    vftranspose(r);
    *x = r[0];
    *y = r[1];
    *z = r[2];
    *w = r[3];
}

/** One vector per component → 4·WF contiguous floats: vfload4's inverse. */
static inline void vfstore4(float *p, vf x, vf y, vf z, vf w)
{
    vf r[4] = {x, y, z, w};
    vftranspose(r);
    wasm_v128_store(p, r[0]);
    wasm_v128_store(p + 4, r[1]);
    wasm_v128_store(p + 8, r[2]);
    wasm_v128_store(p + 12, r[3]);
}

/** vftranspose, except that outputs i with i % 4 == 3 are left as they were (a 4×4 matrix's
 *  bottom row, which the matrix kernels never read). */
static inline void vftranspose_rows3(vf r[4])
{
    const v128_t t0 = wasm_i32x4_shuffle(r[0], r[1], 0, 4, 1, 5);
    const v128_t t1 = wasm_i32x4_shuffle(r[2], r[3], 0, 4, 1, 5);
    const v128_t t2 = wasm_i32x4_shuffle(r[0], r[1], 2, 6, 3, 7);
    const v128_t t3 = wasm_i32x4_shuffle(r[2], r[3], 2, 6, 3, 7);
    r[0] = wasm_i32x4_shuffle(t0, t1, 0, 1, 4, 5);
    r[1] = wasm_i32x4_shuffle(t0, t1, 2, 3, 6, 7);
    r[2] = wasm_i32x4_shuffle(t2, t3, 0, 1, 4, 5);
}

/** Components 0..7 of WF records: out[c] lane i = p[i][c] (each p[i] 8 floats, no alignment). */
static inline void vfgather8(const float *const p[4], vf out[8])
{
    for (int h = 0; h < 2; ++h) {
        vf r[4] = {wasm_v128_load(p[0] + 4 * h), wasm_v128_load(p[1] + 4 * h),
                   wasm_v128_load(p[2] + 4 * h), wasm_v128_load(p[3] + 4 * h)};
        vftranspose(r);
        for (int k = 0; k < 4; ++k)
            out[4 * h + k] = r[k];
    }
}

/*
 * ---- float32 lanes, continued: the float32 pose tier (docs/fast-tier.md) ----
 */
static inline vf vfabs(vf a) { return wasm_f32x4_abs(a); }
static inline vfmask vfle(vf a, vf b) { return wasm_f32x4_le(a, b); }
static inline vfmask vfeq(vf a, vf b) { return wasm_f32x4_eq(a, b); }
static inline vfmask vfunord(vf a, vf b)
{
    return wasm_v128_or(wasm_f32x4_ne(a, a), wasm_f32x4_ne(b, b));
}
static inline vfmask vfmand(vfmask a, vfmask b) { return wasm_v128_and(a, b); }
static inline vfmask vfmor(vfmask a, vfmask b) { return wasm_v128_or(a, b); }
static inline int vfmask_any(vfmask m) { return wasm_v128_any_true(m); }
static inline int vfmask_all(vfmask m) { return wasm_i32x4_all_true(m); }
/* The quaternion lane order: the natural one (lane i holds quaternion i). */
static inline void vfload4q(const float *p, vf *x, vf *y, vf *z, vf *w) { vfload4(p, x, y, z, w); }
static inline void vfstore4q(float *p, vf x, vf y, vf z, vf w) { vfstore4(p, x, y, z, w); }
static inline vf vfqorder(vf v) { return v; }
/** One value per joint → one per component of 3-float joints, in memory order over three
 *  vectors: e0 = w0 w0 w0 w1, e1 = w1 w1 w2 w2, e2 = w2 w3 w3 w3. */
static inline void vfexpand3(vf w, vf *e0, vf *e1, vf *e2)
{
    *e0 = wasm_i32x4_shuffle(w, w, 0, 0, 0, 1);
    *e1 = wasm_i32x4_shuffle(w, w, 1, 1, 2, 2);
    *e2 = wasm_i32x4_shuffle(w, w, 2, 3, 3, 3);
}
/** Two vectors of W doubles → one of WF = 2·W floats (lo's lanes first), each rounded once. */
static inline vf vfpack(vd lo, vd hi)
{
    return wasm_i32x4_shuffle(wasm_f32x4_demote_f64x2_zero(lo), wasm_f32x4_demote_f64x2_zero(hi),
                              0, 1, 4, 5);
}

/** v with its sign flipped where m is set: vfsel(m, vfneg(v), v), bit for bit. */
static inline vf vfneg_where(vfmask m, vf v)
{
    return wasm_v128_xor(v, wasm_v128_and(m, wasm_f32x4_splat(-0.0f)));
}

#endif
