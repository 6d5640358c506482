/*
 * The scalar reference of the spring march (seed sampleSpring / sampleSpringChain's substep
 * loops): lane by lane, in the order every SIMD body follows. The plan (coefficients, initial
 * state, substep grid) is built by src/spring.c; this file only marches.
 */
#include "common/kernels_internal.h"
#include "common/spring_anchor_table.h"
#include "common/spring_ref.h"

/*
 * One spring (3 lanes): the same loop with the state in locals, which the compiler may keep in
 * registers (or spill to its own stack) across the anchor call instead of re-reading the plan's
 * buffers, which the callback could in principle alias. Same operations, same order.
 */
static void march_one_spring(const tendon_spring_march_plan *p)
{
    const tendon_spring_coeffs c = p->links[0];
    const double step = p->step_sec;
    double x = p->position[0], y = p->position[1], z = p->position[2];
    double vx = p->velocity[0], vy = p->velocity[1], vz = p->velocity[2];
    double ax = p->anchor_a[0], ay = p->anchor_a[1], az = p->anchor_a[2];
    float *next = p->anchor_b; /* zeroed by the caller, as in the general path */
    for (size_t n = 1; n <= p->steps; ++n) {
        tendon_spring_plan_anchor(p, n, next);
        const double bx = next[0], by = next[1], bz = next[2];
        tendon_ref_spring_advance(&c, step, ax, bx, &x, &vx);
        tendon_ref_spring_advance(&c, step, ay, by, &y, &vy);
        tendon_ref_spring_advance(&c, step, az, bz, &z, &vz);
        ax = bx;
        ay = by;
        az = bz;
    }
    p->position[0] = x, p->position[1] = y, p->position[2] = z;
    p->velocity[0] = vx, p->velocity[1] = vy, p->velocity[2] = vz;
}

void tendon_spring_march_scalar(const tendon_spring_march_plan *p)
{
    if (p->lanes == 3) {
        march_one_spring(p);
        return;
    }
    const tendon_spring_coeffs c = p->links[0];
    float *prev = p->anchor_a, *cur = p->anchor_b;
    for (size_t n = 1; n <= p->steps; ++n) {
        tendon_spring_plan_anchor(p, n, cur);
        for (size_t j = 0; j < p->lanes; ++j)
            tendon_ref_spring_advance(&c, p->step_sec, (double)prev[j], (double)cur[j],
                                      &p->position[j], &p->velocity[j]);
        float *swap = prev;
        prev = cur;
        cur = swap;
    }
}

void tendon_spring_chain_march_scalar(const tendon_spring_march_plan *p)
{
    const size_t stride = p->lane_stride;
    float *prev = p->anchor_a, *cur = p->anchor_b;
    for (size_t n = 1; n <= p->steps; ++n) {
        tendon_spring_plan_anchor(p, n, cur);
        for (size_t j = 0; j < p->lanes; ++j) {
            /* Down the chain from the root, carrying the link above's two positions: where it
               was when the substep began and where it ended up (seed sampleSpringChain). */
            double above_previous = (double)prev[j];
            double above_now = (double)cur[j];
            for (size_t i = 0; i < p->link_count; ++i) {
                const double rest = tendon_ref_spring_rest(p, i, j);
                double *position = &p->position[i * stride + j];
                const double mine = *position;
                tendon_ref_spring_advance(&p->links[i], p->step_sec, above_previous + rest,
                                          above_now + rest, position,
                                          &p->velocity[i * stride + j]);
                above_previous = mine;
                above_now = *position;
            }
        }
        float *swap = prev;
        prev = cur;
        cur = swap;
    }
}
