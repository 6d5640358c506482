/*
 * The scalar reference of the spring march (seed sampleSpring / sampleSpringChain's substep
 * loops): lane by lane, in the order every SIMD body follows. The plan (coefficients, initial
 * state, substep grid) is built by src/spring.c; this file only marches.
 */
#include "common/kernels_internal.h"
#include "common/spring_ref.h"

void tendon_spring_march_scalar(const tendon_spring_march_plan *p)
{
    const tendon_spring_coeffs c = p->links[0];
    float *prev = p->anchor_a, *cur = p->anchor_b;
    for (size_t n = 1; n <= p->steps; ++n) {
        p->anchor(p->user, p->start_sec + (double)n * p->step_sec, cur);
        for (size_t j = 0; j < p->lanes; ++j)
            tendon_ref_spring_advance(&c, p->inv_step, (double)prev[j], (double)cur[j],
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
        p->anchor(p->user, p->start_sec + (double)n * p->step_sec, cur);
        for (size_t j = 0; j < p->lanes; ++j) {
            /* Down the chain from the root, carrying the link above's two positions: where it
               was when the substep began and where it ended up (seed sampleSpringChain). */
            double above_previous = (double)prev[j];
            double above_now = (double)cur[j];
            for (size_t i = 0; i < p->link_count; ++i) {
                const double rest = tendon_ref_spring_rest(p, i, j);
                double *position = &p->position[i * stride + j];
                const double mine = *position;
                tendon_ref_spring_advance(&p->links[i], p->inv_step, above_previous + rest,
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
