/*
 * Internal: the fast path of the pose calls' argument checks, inline in each entry point of
 * tendon/blend.h (a call saved on every blend at small joint counts); the general layouts and
 * the detailed checks that name what is wrong stay in src/check.c.
 */
#ifndef TENDON_COMMON_POSE_FAST_CHECK_H
#define TENDON_COMMON_POSE_FAST_CHECK_H

#include <stdint.h>

#include "kernels_internal.h"

#define TENDON_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* The fast path's bounds, sized so that no end it computes can wrap: on 64-bit targets
   addresses below 2^62 and n ≤ 2^32; on 32-bit ones (wasm32) addresses below 2^30 and n ≤ 2^24
   (a pose's span, ~40 bytes a joint, then stays below 2^30 too). What is outside them takes the
   detailed checks, which decide exactly; only the speed of the decision differs. */
#if UINTPTR_MAX > 0xFFFFFFFFu
#define TENDON_FAST_ADDR_HIGH(a) ((a) >> 62)
#else
#define TENDON_FAST_ADDR_HIGH(a) ((a) >> 30)
#endif
#if SIZE_MAX > 0xFFFFFFFFu
#define TENDON_FAST_N_LIMIT ((size_t)1 << 32)
#else
#define TENDON_FAST_N_LIMIT ((size_t)1 << 24)
#endif

/* Any layout (src/check.c): the part of the test below that is not inline. */
TENDON_HIDDEN int tendon_pose_call_boxes_ok(const tendon_pose *out, const tendon_pose *a,
                                            const tendon_pose *b, const float *joint_weights,
                                            size_t n);
/*
 * The quickest path: a pose laid out as tendon_pose_create lays it out — translation, rotation
 * and scale one after the other, each padded to 64 bytes — has three disjoint arrays by
 * construction, and spans [translation, scale + 3n). Nonzero when p is such a pose (present,
 * aligned, bounded); *lo / *hi its span.
 */
static inline int tendon_packed_pose(const tendon_pose *p, uintptr_t t_pad, uintptr_t r_pad,
                              uintptr_t tail, uintptr_t *lo, uintptr_t *hi)
{
    const uintptr_t t = (uintptr_t)p->translation;
    *lo = t;
    *hi = t + t_pad + r_pad + tail;
    return t != 0 && (t & (_Alignof(float) - 1)) == 0 && TENDON_FAST_ADDR_HIGH(t) == 0 &&
           (uintptr_t)p->rotation == t + t_pad && (uintptr_t)p->scale == t + t_pad + r_pad;
}

static inline int tendon_packed_apart_or_same(uintptr_t olo, uintptr_t ohi, uintptr_t ilo,
                                              uintptr_t ihi)
{
    return olo == ilo || ohi <= ilo || ihi <= olo;
}

/*
 * The fast path of the pose calls' checks (blend.h and its float32 tier): nonzero when out, a
 * and b (b may be NULL) all have joint_count n (0 < n ≤ 2^32; 2^24 on 32-bit targets), every
 * array is present, aligned and below 2^62 (2^30) (so no end can wrap), each pose's three arrays are disjoint,
 * and out is either exactly an input (all three arrays the same) or lies apart from it; joint_weights (NULL: not
 * checked) aligned and apart from out. Zero means "decide slowly": the detailed checks then name
 * what is wrong, or accept what this test was too coarse to prove (say, two poses interleaved
 * in one allocation, or out sharing only its rotations with an input).
 */
static inline int tendon_pose_call_fast_ok(const tendon_pose *out, const tendon_pose *a,
                                           const tendon_pose *b, const float *joint_weights)
{
    /* the structs themselves present and aligned to their type before a member is read (a
       misaligned one is undefined behaviour: the detailed checks refuse it by name) */
    const uintptr_t misaligned = ((uintptr_t)out | (uintptr_t)a | (uintptr_t)b) &
                                 (_Alignof(tendon_pose) - 1);
    if (TENDON_UNLIKELY(!out || !a || misaligned))
        return 0;
    const size_t n = out->joint_count;
    if (TENDON_UNLIKELY(n - 1 >= TENDON_FAST_N_LIMIT || a->joint_count != n ||
                        (b && b->joint_count != n)))
        return 0;
    /* every pose as tendon_pose_create makes it: a few compares decide everything */
    const uintptr_t t_pad = ((3 * n + 15) & ~(uintptr_t)15) * sizeof(float);
    const uintptr_t r_pad = ((4 * n + 15) & ~(uintptr_t)15) * sizeof(float);
    const uintptr_t tail = 3 * n * sizeof(float);
    uintptr_t olo, ohi, alo, ahi, blo = 0, bhi = 0;
    if (tendon_packed_pose(out, t_pad, r_pad, tail, &olo, &ohi) &&
        tendon_packed_pose(a, t_pad, r_pad, tail, &alo, &ahi) &&
        tendon_packed_apart_or_same(olo, ohi, alo, ahi) &&
        (!b || (tendon_packed_pose(b, t_pad, r_pad, tail, &blo, &bhi) &&
                tendon_packed_apart_or_same(olo, ohi, blo, bhi)))) {
        if (!joint_weights)
            return 1;
        const uintptr_t w = (uintptr_t)joint_weights, we = w + n * sizeof(float);
        if (!(w & (_Alignof(float) - 1)) && !TENDON_FAST_ADDR_HIGH(w) && (we <= olo || ohi <= w))
            return 1;
    }
    return tendon_pose_call_boxes_ok(out, a, b, joint_weights, n);
}

#endif
