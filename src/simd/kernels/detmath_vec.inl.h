/*
 * The project's transcendentals over the op layer: the same operations, in the same order, as
 * src/common/detmath.h, lane-wise. Branches there are selects here on the same comparison.
 * Included by a kernel body after an ISA's ops.h.
 */
#ifndef TENDON_DETMATH_VEC_INL_H
#define TENDON_DETMATH_VEC_INL_H

/** tendon_det_rsqrt: four Newton steps from the bit-pattern seed. */
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

/** tendon_det_asin_core */
static inline vd vdet_asin_core(vd u)
{
    const vd y = vmul(u, u);
    vd p = vset1(TENDON_ASIN_C10);
    p = vadd(vmul(p, y), vset1(TENDON_ASIN_C9));
    p = vadd(vmul(p, y), vset1(TENDON_ASIN_C8));
    p = vadd(vmul(p, y), vset1(TENDON_ASIN_C7));
    p = vadd(vmul(p, y), vset1(TENDON_ASIN_C6));
    p = vadd(vmul(p, y), vset1(TENDON_ASIN_C5));
    p = vadd(vmul(p, y), vset1(TENDON_ASIN_C4));
    p = vadd(vmul(p, y), vset1(TENDON_ASIN_C3));
    p = vadd(vmul(p, y), vset1(TENDON_ASIN_C2));
    p = vadd(vmul(p, y), vset1(TENDON_ASIN_C1));
    p = vadd(vmul(p, y), vset1(TENDON_ASIN_C0));
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
    const vd z = vmul(vsub(vset1(1.0), x), vset1(0.5));
    const vd root = vmul(z, vdet_rsqrt(z));
    const vd as = vdet_asin_core(vsel(small, x, root));
    return vsel(small, vsub(vset1(TENDON_PIO2), as), vmul(vset1(2.0), as));
}

/** tendon_det_sin_core */
static inline vd vdet_sin_core(vd x)
{
    const vd y = vmul(x, x);
    vd p = vset1(TENDON_SIN_C6);
    p = vadd(vmul(p, y), vset1(TENDON_SIN_C5));
    p = vadd(vmul(p, y), vset1(TENDON_SIN_C4));
    p = vadd(vmul(p, y), vset1(TENDON_SIN_C3));
    p = vadd(vmul(p, y), vset1(TENDON_SIN_C2));
    p = vadd(vmul(p, y), vset1(TENDON_SIN_C1));
    p = vadd(vmul(p, y), vset1(TENDON_SIN_C0));
    return vadd(x, vmul(vmul(x, y), p));
}

#endif
