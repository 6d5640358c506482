/*
 * The wide layer: TENDON_U independent vectors per value, so each operation of a kernel body
 * issues U independent instructions back to back. The transcendentals are long dependent
 * chains (four Newton steps, a degree-10 polynomial); one W-lane block at a time leaves the
 * multipliers idle waiting on latency, U blocks side by side keep them busy. Every wide op is
 * the op-layer op applied to each of the U vectors: lane-wise, the arithmetic is unchanged.
 */
#ifndef TENDON_WIDE_INL_H
#define TENDON_WIDE_INL_H

#ifndef TENDON_U
#define TENDON_U 2
#endif

typedef struct vw {
    vd v[TENDON_U];
} vw;
typedef struct vwm {
    vmask m[TENDON_U];
} vwm;

#define TENDON_WIDE_BINARY(name, op)                                                               \
    static inline vw name(vw a, vw b)                                                              \
    {                                                                                              \
        vw r;                                                                                      \
        for (int u = 0; u < TENDON_U; ++u)                                                         \
            r.v[u] = op(a.v[u], b.v[u]);                                                           \
        return r;                                                                                  \
    }
#define TENDON_WIDE_COMPARE(name, op)                                                              \
    static inline vwm name(vw a, vw b)                                                             \
    {                                                                                              \
        vwm r;                                                                                     \
        for (int u = 0; u < TENDON_U; ++u)                                                         \
            r.m[u] = op(a.v[u], b.v[u]);                                                           \
        return r;                                                                                  \
    }

TENDON_WIDE_BINARY(wadd, vadd)
TENDON_WIDE_BINARY(wsub, vsub)
TENDON_WIDE_BINARY(wmul, vmul)
TENDON_WIDE_BINARY(wdiv, vdiv)
TENDON_WIDE_COMPARE(wlt, vlt)
TENDON_WIDE_COMPARE(wgt, vgt)
TENDON_WIDE_COMPARE(wle, vle)
TENDON_WIDE_COMPARE(weq, veq)
TENDON_WIDE_COMPARE(wunord, vunord)

static inline vw wset1(double x)
{
    vw r;
    for (int u = 0; u < TENDON_U; ++u)
        r.v[u] = vset1(x);
    return r;
}
static inline vw wneg(vw a)
{
    for (int u = 0; u < TENDON_U; ++u)
        a.v[u] = vneg(a.v[u]);
    return a;
}
static inline vw wabs(vw a)
{
    for (int u = 0; u < TENDON_U; ++u)
        a.v[u] = vabs(a.v[u]);
    return a;
}
static inline vw wsqrt(vw a)
{
    for (int u = 0; u < TENDON_U; ++u)
        a.v[u] = vsqrt(a.v[u]);
    return a;
}
static inline vw wrsqrt_seed(vw a)
{
    for (int u = 0; u < TENDON_U; ++u)
        a.v[u] = vrsqrt_seed(a.v[u]);
    return a;
}
static inline vw wround_f32(vw a)
{
    for (int u = 0; u < TENDON_U; ++u)
        a.v[u] = vround_f32(a.v[u]);
    return a;
}
static inline vw wsel(vwm m, vw yes, vw no)
{
    vw r;
    for (int u = 0; u < TENDON_U; ++u)
        r.v[u] = vsel(m.m[u], yes.v[u], no.v[u]);
    return r;
}
static inline vwm wmand(vwm a, vwm b)
{
    for (int u = 0; u < TENDON_U; ++u)
        a.m[u] = vmand(a.m[u], b.m[u]);
    return a;
}
static inline vwm wmor(vwm a, vwm b)
{
    for (int u = 0; u < TENDON_U; ++u)
        a.m[u] = vmor(a.m[u], b.m[u]);
    return a;
}
static inline int wmask_any(vwm m)
{
    int any = 0;
    for (int u = 0; u < TENDON_U; ++u)
        any |= vmask_any(m.m[u]);
    return any;
}
static inline int wmask_all(vwm m)
{
    int all = 1;
    for (int u = 0; u < TENDON_U; ++u)
        all &= vmask_all(m.m[u]);
    return all;
}

/*
 * Blocks of one wide iteration. A full iteration covers U consecutive W-lane blocks from
 * `first`. The last, partial iteration (fewer than U whole blocks left, at least one) repeats
 * its last whole block in the unused slots: every slot is loaded before any is stored and the
 * repeats are never stored, so exact aliasing of out with an input stays safe and nothing is
 * read past the end. Blocks that do not fill W lanes go to the scalar reference.
 */
typedef struct wblocks {
    size_t at[TENDON_U]; /* the first element of each slot's block */
    int fresh;           /* slots to store: 1..U */
} wblocks;

static inline wblocks wblocks_at(size_t first, size_t whole_blocks_left)
{
    wblocks b;
    b.fresh = whole_blocks_left < (size_t)TENDON_U ? (int)whole_blocks_left : TENDON_U;
    for (int u = 0; u < TENDON_U; ++u)
        b.at[u] = first + (size_t)(u < b.fresh ? u : b.fresh - 1) * TENDON_W;
    return b;
}

#endif
