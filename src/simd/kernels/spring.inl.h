/*
 * THE SIMD body of the spring march (seed sampleSpring / sampleSpringChain's substep loops),
 * written once over the op layer and instantiated per ISA by src/simd/<isa>/spring_<isa>.c: the
 * lane-wise twin of src/scalar/spring_scalar.c and src/common/spring_ref.h.
 *
 * Springs: a single spring (3 lanes) runs the scalar reference (see spring_march); batches run
 * W lanes per vector. Chains: a skewed schedule over the links (see spring_chain_march), the
 * same operations on the same values as the reference's plain order, so the same bits.
 *
 * Lanes are independent scalar tracks (x, y, z of each spring or chain, in the anchor's memory
 * order) sharing one set of coefficients, so no transpose is needed: W lanes per vector. A
 * single spring is 3 lanes (one vector, or two at W = 2); a batch of N springs is 3N lanes, the
 * width that pays. Every buffer of the plan holds lane_stride (a multiple of 8) lanes whose
 * padding is zero, so the body runs whole vectors up to the lanes rounded up to W and has no
 * tail: padding lanes compute on zeros (or on a chain's rest pattern) and never reach an output.
 *
 * The substeps of one lane are a dependent chain (latency-bound); the batch loop keeps two
 * vectors in flight per iteration and the out-of-order core overlaps the rest.
 */
#include "../../common/kernels_internal.h"

#define TENDON_SPRING_CAT_(a, b) a##_##b
#define TENDON_SPRING_CAT(a, b) TENDON_SPRING_CAT_(a, b)
#define TENDON_SPRING_FN(name) TENDON_SPRING_CAT(tendon_##name, TENDON_SFX)

typedef struct vspring_coeffs {
    vd c0, c1, c2, c3, trail;
} vspring_coeffs;

static inline vspring_coeffs vspring_load(const tendon_spring_coeffs *c)
{
    vspring_coeffs v;
    v.c0 = vset1(c->c0);
    v.c1 = vset1(c->c1);
    v.c2 = vset1(c->c2);
    v.c3 = vset1(c->c3);
    v.trail = vset1(c->trail);
    return v;
}

/** tendon_ref_spring_advance, lane-wise: same operations, same order. */
static inline void vspring_advance(const vspring_coeffs *c, vd inv_step, vd anchor_start,
                                   vd anchor_end, vd *position, vd *velocity)
{
    const vd speed = vmul(vsub(anchor_end, anchor_start), inv_step);
    const vd rest = vmul(c->trail, speed);
    const vd offset = vsub(vsub(*position, anchor_start), rest);
    const vd relative = vsub(*velocity, speed);
    *position = vadd(vadd(vadd(vmul(c->c0, offset), vmul(c->c1, relative)), rest), anchor_end);
    *velocity = vadd(vadd(vmul(c->c2, offset), vmul(c->c3, relative)), speed);
}

/** One vector of lanes [j, j + W) of a spring plan over one substep. */
static inline void vspring_lanes(const vspring_coeffs *c, vd inv_step, const float *prev,
                                 const float *cur, double *position, double *velocity, size_t j)
{
    vd p = vload_f64(position + j), v = vload_f64(velocity + j);
    vspring_advance(c, inv_step, vload_f32(prev + j), vload_f32(cur + j), &p, &v);
    vstore_f64(position + j, p);
    vstore_f64(velocity + j, v);
}

void TENDON_SPRING_FN(spring_march)(const tendon_spring_march_plan *plan)
{
    /*
     * One spring (3 lanes) goes to the scalar reference, like any tail: the anchor has just
     * written its three floats one by one, and a vector load spanning those stores misses
     * store-to-load forwarding on every substep (measured: ~10% slower than three scalar lanes,
     * whose dependent chains the core overlaps anyway). Width pays from two springs up.
     */
    if (plan->lanes <= 3) {
        tendon_spring_march_scalar(plan);
        return;
    }
    const vspring_coeffs c = vspring_load(&plan->links[0]);
    const vd inv_step = vset1(plan->inv_step);
    const size_t lanes = (plan->lanes + TENDON_W - 1) / TENDON_W * TENDON_W;
    double *position = plan->position, *velocity = plan->velocity;
    float *prev = plan->anchor_a, *cur = plan->anchor_b;
    for (size_t n = 1; n <= plan->steps; ++n) {
        plan->anchor(plan->user, plan->start_sec + (double)n * plan->step_sec, cur);
        size_t j = 0;
        for (; j + 2 * TENDON_W <= lanes; j += 2 * TENDON_W) {
            vspring_lanes(&c, inv_step, prev, cur, position, velocity, j);
            vspring_lanes(&c, inv_step, prev, cur, position, velocity, j + TENDON_W);
        }
        for (; j < lanes; j += TENDON_W)
            vspring_lanes(&c, inv_step, prev, cur, position, velocity, j);
        float *swap = prev;
        prev = cur;
        cur = swap;
    }
}

/** One vector of lanes [j, j + W) of chain link i over one substep, anchored to (ap → an). */
static inline void vspring_link(const tendon_spring_march_plan *plan, vd inv_step, size_t i,
                                size_t j, const double *rest_row, vd above_previous,
                                vd above_now)
{
    const size_t at = i * plan->lane_stride + j;
    const vspring_coeffs c = vspring_load(&plan->links[i]);
    const vd rest = vload_f64(rest_row + 24 * i);
    const vd mine = vload_f64(plan->position + at);
    vd p = mine, v = vload_f64(plan->velocity + at);
    vspring_advance(&c, inv_step, vadd(above_previous, rest), vadd(above_now, rest), &p, &v);
    vstore_f64(plan->previous + at, mine);
    vstore_f64(plan->position + at, p);
    vstore_f64(plan->velocity + at, v);
}

/*
 * The chain march on a skewed schedule, with the same bits as the reference's order: in
 * iteration m link i advances from substep m−i−1 to m−i. Link i's anchor is link i−1's position
 * at those two substeps, which link i−1 reached in iteration m−1 (its `position`, and the value
 * before that, kept in `previous`); links are visited from the bottom up so each reads its
 * parent before the parent moves on. Within one iteration the links are then independent, so a
 * chain's per-substep latency is one link's rather than link_count links' in a row. The root is
 * sampled once per substep, in order, exactly as in the reference.
 */
void TENDON_SPRING_FN(spring_chain_march)(const tendon_spring_march_plan *plan)
{
    const size_t steps = plan->steps, links = plan->link_count, stride = plan->lane_stride;
    if (steps == 0 || links == 0)
        return;
    const vd inv_step = vset1(plan->inv_step);
    const size_t lanes = (plan->lanes + TENDON_W - 1) / TENDON_W * TENDON_W;
    float *prev = plan->anchor_a, *cur = plan->anchor_b;
    const size_t last = steps + links - 1;
    for (size_t m = 1; m <= last; ++m) {
        const int sampling = m <= steps;
        if (sampling)
            plan->anchor(plan->user, plan->start_sec + (double)m * plan->step_sec, cur);
        const size_t top = m - 1 < links - 1 ? m - 1 : links - 1; /* deepest active link */
        const size_t first = m > steps ? m - steps : 0;            /* shallowest active link */
        for (size_t j = 0; j < lanes; j += TENDON_W) {
            /* W divides 24, so the rest pattern of lanes [j, j + W) is one contiguous load. */
            const double *rest_row = plan->rest_lanes + j % 24;
            for (size_t i = top; i >= 1 && i >= first; --i) {
                const size_t above = (i - 1) * stride + j;
                vspring_link(plan, inv_step, i, j, rest_row, vload_f64(plan->previous + above),
                             vload_f64(plan->position + above));
            }
            if (first == 0)
                vspring_link(plan, inv_step, 0, j, rest_row, vload_f32(prev + j),
                             vload_f32(cur + j));
        }
        if (sampling) {
            float *swap = prev;
            prev = cur;
            cur = swap;
        }
    }
}
