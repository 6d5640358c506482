/*
 * THE SIMD body of the spring march (seed sampleSpring / sampleSpringChain's substep loops),
 * written once over the op layer and instantiated per ISA by src/simd/<isa>/spring_<isa>.c: the
 * lane-wise twin of src/scalar/spring_scalar.c and src/common/spring_ref.h.
 *
 * Springs: a single spring (3 lanes) is one vector (two at W = 2) marched in blocks of gathered
 * anchors (see vspring_march_one); batches run W lanes per vector. Chains: a skewed schedule
 * over the links (see spring_chain_march), the same operations on the same values as the
 * reference's plain order, so the same bits.
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
#include <string.h>

#include "../../common/kernels_internal.h"
#include "../../common/spring_anchor_table.h"

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
static inline void vspring_advance(const vspring_coeffs *c, vd step, vd anchor_start,
                                   vd anchor_end, vd *position, vd *velocity)
{
    const vd speed = vdiv(vsub(anchor_end, anchor_start), step);
    const vd rest = vmul(c->trail, speed);
    const vd offset = vsub(vsub(*position, anchor_start), rest);
    const vd relative = vsub(*velocity, speed);
    *position = vadd(vadd(vadd(vmul(c->c0, offset), vmul(c->c1, relative)), rest), anchor_end);
    *velocity = vadd(vadd(vmul(c->c2, offset), vmul(c->c3, relative)), speed);
}

/** One vector of lanes [j, j + W) of a spring plan over one substep. */
static inline void vspring_lanes(const vspring_coeffs *c, vd step, const float *prev,
                                 const float *cur, double *position, double *velocity, size_t j)
{
    vd p = vload_f64(position + j), v = vload_f64(velocity + j);
    vspring_advance(c, step, vload_f32(prev + j), vload_f32(cur + j), &p, &v);
    vstore_f64(position + j, p);
    vstore_f64(velocity + j, v);
}

/** Substeps whose anchors a single spring gathers before marching them. */
#define TENDON_SPRING_BLOCK 8
/** Vectors holding one spring's 3 lanes (padded with zero lanes). */
#define TENDON_SPRING_ONE ((3 + TENDON_W - 1) / TENDON_W)

/*
 * The anchors of substeps n0 .. n0 + m − 1 into block[1 .. m]. Not inlined: with no vector live
 * in it, the compiler saves the march's state once around this call rather than around each
 * anchor call.
 */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static void vspring_gather_anchors(const tendon_spring_march_plan *plan, size_t n0, size_t m,
                                   float (*block)[8])
{
    for (size_t i = 1; i <= m; ++i) {
        const float *row = tendon_spring_plan_row(plan, n0 + i - 1);
        if (row) {
            block[i][0] = row[0];
            block[i][1] = row[1];
            block[i][2] = row[2];
            continue;
        }
        memcpy(block[i], block[i - 1], 3 * sizeof(float));
        plan->anchor(plan->user, plan->start_sec + (double)(n0 + i - 1) * plan->step_sec,
                     block[i]);
    }
}

/*
 * One spring (3 lanes): a chain of dependent substeps, so latency is what counts. Two things
 * keep it off the chain:
 * - Blocks of TENDON_SPRING_BLOCK substeps: the anchor is called for the whole block, then the
 *   block is marched with no call in between. A call in every substep would push the state
 *   through the stack (x86-64 preserves no vector register across a call; AArch64 only the low
 *   halves of v8–v15) — a store → load round trip in every link of the chain — and the next
 *   block's calls, which do not depend on the state, run while the chain drains. The anchor is still called once per substep, at the same times
 *   and in the same order; it is a pure function of the time, so when its calls happen
 *   relative to the arithmetic is not observable. Each call's buffer starts as the last call's
 *   output, as when one buffer served every call.
 * - The three lanes in one vector (two at W = 2), read from anchors written a block earlier, so
 *   the loads no longer wait on store forwarding of three just-written floats (which made a
 *   vector march of one spring ~10 % slower than three scalar lanes when the call sat in every
 *   substep).
 * Same operations, same order, lane by lane: the scalar reference's bits.
 */
static void vspring_march_one(const tendon_spring_march_plan *plan)
{
    const vspring_coeffs c = vspring_load(&plan->links[0]);
    const vd step = vset1(plan->step_sec);
    vd p[TENDON_SPRING_ONE], v[TENDON_SPRING_ONE], a[TENDON_SPRING_ONE];
    /* 8 floats a slot (the widest vload_f32), lanes 3.. zero like the plan's padding */
    _Alignas(32) float block[TENDON_SPRING_BLOCK + 1][8];
    memset(block, 0, sizeof block);
    memcpy(block[0], plan->anchor_b, 3 * sizeof(float)); /* zeroed by the caller */
    for (int g = 0; g < TENDON_SPRING_ONE; ++g) {
        p[g] = vload_f64(plan->position + g * TENDON_W);
        v[g] = vload_f64(plan->velocity + g * TENDON_W);
        a[g] = vload_f32(plan->anchor_a + g * TENDON_W);
    }
    for (size_t n0 = 1; n0 <= plan->steps; n0 += TENDON_SPRING_BLOCK) {
        const size_t left = plan->steps - n0 + 1;
        const size_t m = left < TENDON_SPRING_BLOCK ? left : TENDON_SPRING_BLOCK;
        vspring_gather_anchors(plan, n0, m, block);
        for (size_t i = 1; i <= m; ++i)
            for (int g = 0; g < TENDON_SPRING_ONE; ++g) {
                const vd b = vload_f32(block[i] + g * TENDON_W);
                vspring_advance(&c, step, a[g], b, &p[g], &v[g]);
                a[g] = b;
            }
        memcpy(block[0], block[m], 3 * sizeof(float));
    }
    memcpy(plan->anchor_b, block[0], 3 * sizeof(float));
    for (int g = 0; g < TENDON_SPRING_ONE; ++g) {
        vstore_f64(plan->position + g * TENDON_W, p[g]);
        vstore_f64(plan->velocity + g * TENDON_W, v[g]);
    }
}

void TENDON_SPRING_FN(spring_march)(const tendon_spring_march_plan *plan)
{
    if (plan->lanes <= 3) {
        vspring_march_one(plan);
        return;
    }
    const vspring_coeffs c = vspring_load(&plan->links[0]);
    const vd step = vset1(plan->step_sec);
    const size_t lanes = (plan->lanes + TENDON_W - 1) / TENDON_W * TENDON_W;
    double *position = plan->position, *velocity = plan->velocity;
    float *prev = plan->anchor_a, *cur = plan->anchor_b;
    for (size_t n = 1; n <= plan->steps; ++n) {
        tendon_spring_plan_anchor(plan, n, cur);
        size_t j = 0;
        for (; j + 2 * TENDON_W <= lanes; j += 2 * TENDON_W) {
            vspring_lanes(&c, step, prev, cur, position, velocity, j);
            vspring_lanes(&c, step, prev, cur, position, velocity, j + TENDON_W);
        }
        for (; j < lanes; j += TENDON_W)
            vspring_lanes(&c, step, prev, cur, position, velocity, j);
        float *swap = prev;
        prev = cur;
        cur = swap;
    }
}

/** One vector of lanes [j, j + W) of chain link i over one substep, anchored to (ap → an). */
static inline void vspring_link(const tendon_spring_march_plan *plan, vd step, size_t i,
                                size_t j, const double *rest_row, vd above_previous,
                                vd above_now)
{
    const size_t at = i * plan->lane_stride + j;
    const vspring_coeffs c = vspring_load(&plan->links[i]);
    const vd rest = vload_f64(rest_row + 24 * i);
    const vd mine = vload_f64(plan->position + at);
    vd p = mine, v = vload_f64(plan->velocity + at);
    vspring_advance(&c, step, vadd(above_previous, rest), vadd(above_now, rest), &p, &v);
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
    const vd step = vset1(plan->step_sec);
    const size_t lanes = (plan->lanes + TENDON_W - 1) / TENDON_W * TENDON_W;
    float *prev = plan->anchor_a, *cur = plan->anchor_b;
    const size_t last = steps + links - 1;
    for (size_t m = 1; m <= last; ++m) {
        const int sampling = m <= steps;
        if (sampling)
            tendon_spring_plan_anchor(plan, m, cur);
        const size_t top = m - 1 < links - 1 ? m - 1 : links - 1; /* deepest active link */
        const size_t first = m > steps ? m - steps : 0;            /* shallowest active link */
        for (size_t j = 0; j < lanes; j += TENDON_W) {
            /* W divides 24, so the rest pattern of lanes [j, j + W) is one contiguous load. */
            const double *rest_row = plan->rest_lanes + j % 24;
            for (size_t i = top; i >= 1 && i >= first; --i) {
                const size_t above = (i - 1) * stride + j;
                vspring_link(plan, step, i, j, rest_row, vload_f64(plan->previous + above),
                             vload_f64(plan->position + above));
            }
            if (first == 0)
                vspring_link(plan, step, 0, j, rest_row, vload_f32(prev + j),
                             vload_f32(cur + j));
        }
        if (sampling) {
            float *swap = prev;
            prev = cur;
            cur = swap;
        }
    }
}
