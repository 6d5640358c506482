/*
 * Quaternion arithmetic over the wide layer, U·W elements at a time in structure-of-arrays
 * form: the lane-wise twin of src/common/quat_ref.h. Same operations, same order, branches as
 * selects (a branch taken by every lane of every block may skip the other side's work).
 */
#ifndef TENDON_QUAT_CORE_INL_H
#define TENDON_QUAT_CORE_INL_H

#include <math.h> /* INFINITY only: no libm call */

#include "detmath_vec.inl.h"

#define TENDON_CAT_(a, b) a##_##b
#define TENDON_CAT(a, b) TENDON_CAT_(a, b)
/** The per-ISA name of a kernel: TENDON_FN(quat_slerp) → tendon_quat_slerp_<isa>. */
#define TENDON_FN(name) TENDON_CAT(tendon_##name, TENDON_SFX)

typedef struct wquat {
    vw x, y, z, w;
} wquat;

/** tendon_ref_clamp01 */
static inline vw wclamp01(vw w)
{
    const vw zero = wset1(0.0), one = wset1(1.0);
    return wsel(wlt(w, zero), zero, wsel(wgt(w, one), one, w));
}

static inline vw wdot4(wquat a, wquat b)
{
    return wadd(wadd(wadd(wmul(a.x, b.x), wmul(a.y, b.y)), wmul(a.z, b.z)), wmul(a.w, b.w));
}

/** tendon_ref_is_inf, lane-wise. */
static inline vwm wis_inf(vw v) { return weq(wabs(v), wset1((double)INFINITY)); }

/** tendon_ref_normalize */
static inline wquat wnormalize(wquat q)
{
    const vw s = wadd(wadd(wadd(wmul(q.x, q.x), wmul(q.y, q.y)), wmul(q.z, q.z)), wmul(q.w, q.w));
    const vw inf = wset1((double)INFINITY);
    const vwm finite_pos = wmand(wgt(s, wset1(0.0)), wlt(s, inf));
    vwm to_zero = weq(s, inf);
    const vwm nan = wunord(s, s);
    if (wmask_any(nan)) {
        /* hypot's rule: any ±∞ component makes the length ∞, even beside a NaN. */
        const vwm any_inf =
            wmor(wmor(wis_inf(q.x), wis_inf(q.y)), wmor(wis_inf(q.z), wis_inf(q.w)));
        to_zero = wmor(to_zero, wmand(nan, any_inf));
    }
    vw inv = wsel(to_zero, wset1(0.0), wset1(1.0));
    if (wmask_any(finite_pos))
        inv = wsel(finite_pos, wdiv(wset1(1.0), wsqrt(s)), inv);
    q.x = wmul(q.x, inv);
    q.y = wmul(q.y, inv);
    q.z = wmul(q.z, inv);
    q.w = wmul(q.w, inv);
    return q;
}

static inline wquat wflip_if(vwm flip, wquat a)
{
    a.x = wsel(flip, wneg(a.x), a.x);
    a.y = wsel(flip, wneg(a.y), a.y);
    a.z = wsel(flip, wneg(a.z), a.z);
    a.w = wsel(flip, wneg(a.w), a.w);
    return a;
}

/** s0·a + s1·b, component-wise */
static inline wquat wcombine(vw s0, wquat a, vw s1, wquat b)
{
    wquat r;
    r.x = wadd(wmul(s0, a.x), wmul(s1, b.x));
    r.y = wadd(wmul(s0, a.y), wmul(s1, b.y));
    r.z = wadd(wmul(s0, a.z), wmul(s1, b.z));
    r.w = wadd(wmul(s0, a.w), wmul(s1, b.w));
    return r;
}

/** tendon_ref_slerp: w already clamped (or NaN). */
static inline wquat wslerp(wquat a, wquat b, vw w)
{
    vw dot = wdot4(a, b);
    const vwm flip = wlt(dot, wset1(0.0));
    a = wflip_if(flip, a);
    dot = wsel(flip, wneg(dot), dot);

    const vwm straight = wgt(dot, wset1(TENDON_SLERP_STRAIGHT_DOT));
    const vw one_minus_w = wsub(wset1(1.0), w);
    vw s0 = one_minus_w, s1 = w;
    if (!wmask_all(straight)) {
        const vw theta = wdet_acos_pos(dot);
        s0 = wsel(straight, s0, wdet_sin_core(wmul(one_minus_w, theta)));
        s1 = wsel(straight, s1, wdet_sin_core(wmul(w, theta)));
    }
    return wnormalize(wcombine(s0, a, s1, b));
}

/** tendon_ref_nlerp */
static inline wquat wnlerp(wquat a, wquat b, vw w)
{
    a = wflip_if(wlt(wdot4(a, b), wset1(0.0)), a);
    return wnormalize(wcombine(wsub(wset1(1.0), w), a, w, b));
}

/** tendon_ref_multiply: a ⊗ b in the seed's order. */
static inline wquat wmultiply(wquat a, wquat b)
{
    wquat r;
    r.x = wsub(wadd(wadd(wmul(a.w, b.x), wmul(a.x, b.w)), wmul(a.y, b.z)), wmul(a.z, b.y));
    r.y = wadd(wadd(wsub(wmul(a.w, b.y), wmul(a.x, b.z)), wmul(a.y, b.w)), wmul(a.z, b.x));
    r.z = wadd(wsub(wadd(wmul(a.w, b.z), wmul(a.x, b.y)), wmul(a.y, b.x)), wmul(a.z, b.w));
    r.w = wsub(wsub(wsub(wmul(a.w, b.w), wmul(a.x, b.x)), wmul(a.y, b.y)), wmul(a.z, b.z));
    return r;
}

/* ---- memory: one W-lane block per slot of a wblocks ---------------------------------------- */

static inline wquat wload_quat(const float *base, const wblocks *blk)
{
    wquat q;
    for (int u = 0; u < TENDON_U; ++u)
        vload_quat(base + 4 * blk->at[u], &q.x.v[u], &q.y.v[u], &q.z.v[u], &q.w.v[u]);
    return q;
}

static inline void wstore_quat(float *base, const wblocks *blk, wquat q)
{
    for (int u = 0; u < blk->fresh; ++u)
        vstore_quat(base + 4 * blk->at[u], q.x.v[u], q.y.v[u], q.z.v[u], q.w.v[u]);
}

static inline vw wload_f64(const double *base, const wblocks *blk)
{
    vw r;
    for (int u = 0; u < TENDON_U; ++u)
        r.v[u] = vload_f64(base + blk->at[u]);
    return r;
}

static inline vw wload_f32(const float *base, const wblocks *blk)
{
    vw r;
    for (int u = 0; u < TENDON_U; ++u)
        r.v[u] = vload_f32(base + blk->at[u]);
    return r;
}

/** Three components per element: three wide values in memory order (see vload_f32x3). */
typedef struct wvec3 {
    vw c[3];
} wvec3;

static inline wvec3 wload_f32x3(const float *base, const wblocks *blk)
{
    wvec3 r;
    for (int u = 0; u < TENDON_U; ++u)
        vload_f32x3(base + 3 * blk->at[u], &r.c[0].v[u], &r.c[1].v[u], &r.c[2].v[u]);
    return r;
}

static inline void wstore_f32x3(float *base, const wblocks *blk, wvec3 r)
{
    for (int u = 0; u < blk->fresh; ++u)
        vstore_f32x3(base + 3 * blk->at[u], r.c[0].v[u], r.c[1].v[u], r.c[2].v[u]);
}

/** One value per element → one per component, in the memory order of wload_f32x3. */
static inline wvec3 wexpand3(vw w)
{
    wvec3 e;
    for (int u = 0; u < TENDON_U; ++u)
        vexpand3(w.v[u], &e.c[0].v[u], &e.c[1].v[u], &e.c[2].v[u]);
    return e;
}

#endif
