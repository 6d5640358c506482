/*
 * The scalar reference of one spring substep (seed `advance`), in double: the meaning of the
 * march. Every SIMD body (src/simd/kernels/spring.inl.h) performs these operations in this order,
 * lane-wise, so its bits equal these.
 *
 *   speed    = (anchor_end − anchor_start) · inv_step      (the seed divides by step: see below)
 *   rest     = trail · speed
 *   offset   = (position − anchor_start) − rest
 *   relative = velocity − speed
 *   position ← ((c0·offset + c1·relative) + rest) + anchor_end
 *   velocity ← (c2·offset + c3·relative) + speed
 *
 * The one reformulation of the seed: `(anchorEnd − anchorStart) / step` becomes a product with
 * 1/step, computed once per call (correctly rounded). It moves `speed` by at most one double ulp,
 * which after a march is far below a float32 ulp of the output (docs/springs.md has the measured
 * effect on every seed case); it takes a ~13-cycle division out of every substep of every lane.
 */
#ifndef TENDON_SPRING_REF_H
#define TENDON_SPRING_REF_H

#include "tendon/spring.h"

static inline void tendon_ref_spring_advance(const tendon_spring_coeffs *c, double inv_step,
                                             double anchor_start, double anchor_end,
                                             double *position, double *velocity)
{
    const double speed = (anchor_end - anchor_start) * inv_step;
    const double rest = c->trail * speed;
    const double offset = (*position - anchor_start) - rest;
    const double relative = *velocity - speed;
    *position = ((c->c0 * offset + c->c1 * relative) + rest) + anchor_end;
    *velocity = (c->c2 * offset + c->c3 * relative) + speed;
}

/** The rest offset of lane j of a chain plan's link i: rest_lanes[24·i + j mod 24]. */
static inline double tendon_ref_spring_rest(const tendon_spring_march_plan *p, size_t link,
                                            size_t lane)
{
    return p->rest_lanes[24 * link + lane % 24];
}

#endif
