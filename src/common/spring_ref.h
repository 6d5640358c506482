/*
 * The scalar reference of one spring substep (seed `advance`), in double: the meaning of the
 * march. Every SIMD body (src/simd/kernels/spring.inl.h) performs these operations in this order,
 * lane-wise, so its bits equal these.
 *
 *   speed    = (anchor_end − anchor_start) / step
 *   rest     = trail · speed
 *   offset   = (position − anchor_start) − rest
 *   relative = velocity − speed
 *   position ← ((c0·offset + c1·relative) + rest) + anchor_end
 *   velocity ← (c2·offset + c3·relative) + speed
 *
 * The seed's own arithmetic, division included: an earlier version multiplied by 1/step
 * (computed once per call), which took a division out of every substep but moved `speed` by up
 * to an ulp — 19 of the seed corpus's 30 differing doubles (docs/springs.md, "Arithmetic").
 */
#ifndef TENDON_SPRING_REF_H
#define TENDON_SPRING_REF_H

#include "tendon/spring.h"

static inline void tendon_ref_spring_advance(const tendon_spring_coeffs *c, double step,
                                             double anchor_start, double anchor_end,
                                             double *position, double *velocity)
{
    const double speed = (anchor_end - anchor_start) / step;
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
