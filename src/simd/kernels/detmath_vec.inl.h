/*
 * The project's transcendentals over the wide layer: the same operations, in the same order, as
 * src/common/detmath.h, lane-wise. Branches there are selects here on the same comparison.
 * Included by a kernel body after an ISA's ops.h and wide.inl.h.
 */
#ifndef TENDON_DETMATH_VEC_INL_H
#define TENDON_DETMATH_VEC_INL_H

#include "wide.inl.h"

/** tendon_det_rsqrt: four Newton steps from the bit-pattern seed. */
static inline vw wdet_rsqrt(vw s)
{
    vw y = wrsqrt_seed(s);
    const vw h = wmul(wset1(0.5), s);
    const vw three_halves = wset1(1.5);
    y = wmul(y, wsub(three_halves, wmul(wmul(h, y), y)));
    y = wmul(y, wsub(three_halves, wmul(wmul(h, y), y)));
    y = wmul(y, wsub(three_halves, wmul(wmul(h, y), y)));
    y = wmul(y, wsub(three_halves, wmul(wmul(h, y), y)));
    return y;
}

/** c0 + c1·y */
static inline vw wpair(double c0, double c1, vw y) { return wadd(wset1(c0), wmul(wset1(c1), y)); }

/** tendon_det_asin_core (Estrin order) */
static inline vw wdet_asin_core(vw u)
{
    const vw y = wmul(u, u);
    const vw y2 = wmul(y, y);
    const vw y4 = wmul(y2, y2);
    const vw y8 = wmul(y4, y4);
    const vw p0 = wpair(TENDON_ASIN_C0, TENDON_ASIN_C1, y);
    const vw p1 = wpair(TENDON_ASIN_C2, TENDON_ASIN_C3, y);
    const vw p2 = wpair(TENDON_ASIN_C4, TENDON_ASIN_C5, y);
    const vw p3 = wpair(TENDON_ASIN_C6, TENDON_ASIN_C7, y);
    const vw p4 = wpair(TENDON_ASIN_C8, TENDON_ASIN_C9, y);
    const vw q0 = wadd(p0, wmul(p1, y2));
    const vw q1 = wadd(p2, wmul(p3, y2));
    const vw q2 = wadd(p4, wmul(wset1(TENDON_ASIN_C10), y2));
    const vw p = wadd(wadd(q0, wmul(q1, y4)), wmul(q2, y8));
    return wadd(u, wmul(wmul(u, y), p));
}

/**
 * tendon_det_acos_pos: both sides computed, one asin polynomial on the selected argument.
 * (The scalar form evaluates asin_core on x or on √((1−x)/2); selecting the argument first and
 * then the result is the same sequence per lane.)
 */
static inline vw wdet_acos_pos(vw x)
{
    const vwm small = wle(x, wset1(0.5));
    const vw z = wmul(wsub(wset1(1.0), x), wset1(0.5));
    const vw root = wsqrt(z);
    const vw as = wdet_asin_core(wsel(small, x, root));
    return wsel(small, wsub(wset1(TENDON_PIO2), as), wmul(wset1(2.0), as));
}

/** tendon_det_sin_core (Estrin order) */
static inline vw wdet_sin_core(vw x)
{
    const vw y = wmul(x, x);
    const vw y2 = wmul(y, y);
    const vw y4 = wmul(y2, y2);
    const vw p0 = wpair(TENDON_SIN_C0, TENDON_SIN_C1, y);
    const vw p1 = wpair(TENDON_SIN_C2, TENDON_SIN_C3, y);
    const vw p2 = wpair(TENDON_SIN_C4, TENDON_SIN_C5, y);
    const vw q0 = wadd(p0, wmul(p1, y2));
    const vw q1 = wadd(p2, wmul(wset1(TENDON_SIN_C6), y2));
    const vw p = wadd(q0, wmul(q1, y4));
    return wadd(x, wmul(wmul(x, y), p));
}

#endif
