/*
 * The project's transcendentals over the op layer: the same operations, in the same order, as
 * src/common/detmath.h, lane-wise. Branches there are selects here on the same comparison.
 * Included by a kernel body after an ISA's ops.h.
 */
#ifndef TENDON_DETMATH_VEC_INL_H
#define TENDON_DETMATH_VEC_INL_H

/** c0 + c1·y */
static inline vd vpair(double c0, double c1, vd y) { return vadd(vset1(c0), vmul(vset1(c1), y)); }

/** tendon_det_asin_core (Estrin order) */
static inline vd vdet_asin_core(vd u)
{
    const vd y = vmul(u, u);
    const vd y2 = vmul(y, y);
    const vd y4 = vmul(y2, y2);
    const vd y8 = vmul(y4, y4);
    const vd p0 = vpair(TENDON_ASIN_C0, TENDON_ASIN_C1, y);
    const vd p1 = vpair(TENDON_ASIN_C2, TENDON_ASIN_C3, y);
    const vd p2 = vpair(TENDON_ASIN_C4, TENDON_ASIN_C5, y);
    const vd p3 = vpair(TENDON_ASIN_C6, TENDON_ASIN_C7, y);
    const vd p4 = vpair(TENDON_ASIN_C8, TENDON_ASIN_C9, y);
    const vd q0 = vadd(p0, vmul(p1, y2));
    const vd q1 = vadd(p2, vmul(p3, y2));
    const vd q2 = vadd(p4, vmul(vset1(TENDON_ASIN_C10), y2));
    const vd p = vadd(vadd(q0, vmul(q1, y4)), vmul(q2, y8));
    return vadd(u, vmul(vmul(u, y), p));
}

/**
 * tendon_det_acos_pos: both sides computed, one asin polynomial on the selected argument.
 * (The scalar form evaluates asin_core on x or on √((1−x)/2); selecting the argument first and
 * then the result is the same sequence per lane.)
 */
static inline vd vdet_acos_pos(vd x)
{
    const vmask small = vle(x, vset1(0.5));
    const vd root = vsqrt(vmul(vsub(vset1(1.0), x), vset1(0.5)));
    const vd as = vdet_asin_core(vsel(small, x, root));
    return vsel(small, vsub(vset1(TENDON_PIO2), as), vmul(vset1(2.0), as));
}

/** tendon_det_sin_core (Estrin order) */
static inline vd vdet_sin_core(vd x)
{
    const vd y = vmul(x, x);
    const vd y2 = vmul(y, y);
    const vd y4 = vmul(y2, y2);
    const vd p0 = vpair(TENDON_SIN_C0, TENDON_SIN_C1, y);
    const vd p1 = vpair(TENDON_SIN_C2, TENDON_SIN_C3, y);
    const vd p2 = vpair(TENDON_SIN_C4, TENDON_SIN_C5, y);
    const vd q0 = vadd(p0, vmul(p1, y2));
    const vd q1 = vadd(p2, vmul(vset1(TENDON_SIN_C6), y2));
    const vd p = vadd(q0, vmul(q1, y4));
    /* a zero argument keeps its sign (x + (x·y)·p would turn −0 into +0) */
    return vsel(veq(x, vset1(0.0)), x, vadd(x, vmul(vmul(x, y), p)));
}

/** tendon_det_rsqrt: four Newton steps from the bit-pattern seed (for kernels that want it). */
static inline vd vdet_rsqrt(vd s)
{
    vd y = vrsqrt_seed(s);
    const vd h = vmul(vset1(0.5), s);
    const vd three_halves = vset1(1.5);
    y = vmul(y, vsub(three_halves, vmul(vmul(h, y), y)));
    y = vmul(y, vsub(three_halves, vmul(vmul(h, y), y)));
    y = vmul(y, vsub(three_halves, vmul(vmul(h, y), y)));
    y = vmul(y, vsub(three_halves, vmul(vmul(h, y), y)));
    return y;
}

#endif
