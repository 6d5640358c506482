/*
 * Internal: the spring numerics the tests check against MPFR (src/spring.c). Not installed.
 * (The entry points with an explicit kernel table, tendon_spring_*_on, are public: spring.h.)
 */
#ifndef TENDON_SPRING_INTERNAL_H
#define TENDON_SPRING_INTERNAL_H

#include "kernels_internal.h"

/*
 * The per-link substep coefficients (seed transitionOver + trailPerUnitSpeed) and the cascade
 * root (the chain lookback times the slowest σ), exposed for tests against MPFR.
 */
TENDON_HIDDEN void tendon_spring_transition(double frequency_hz, double damping, double step,
                                            tendon_spring_coeffs *out);
TENDON_HIDDEN double tendon_spring_cascade_root(size_t link_count);
/* The seed's 64 bisections for a chain of `count` ≥ 1 links (TENDON_SPRING_LOOKBACK_SEED's root),
   computed: what src/common/spring_seed_roots.h holds for the short chains (tools/gen_seed_roots.c
   prints it from this; test_spring_lookback checks every entry against it). */
TENDON_HIDDEN double tendon_spring_seed_cascade_root_bisect(size_t count);

/* A chain's substep grid: the lookback, the substep count and length tendon_spring_chain_sample
   plans (substep n samples the root at (time − lookback_sec) + n·step_sec). */
typedef struct tendon_spring_grid {
    double lookback_sec;
    size_t steps;
    double step_sec;
} tendon_spring_grid;

/*
 * The grid chain_count chains of these links would march (every check chain_sample makes before
 * it calls the root: the lookback setting, each link, the work budget max_work — named as the
 * caller's —, the substep bound). `fn` names the caller in messages.
 */
TENDON_HIDDEN tendon_status tendon_spring_chain_grid(const char *fn,
                                                     const tendon_spring_link *links,
                                                     size_t link_count,
                                                     tendon_spring_lookback lookback,
                                                     size_t chain_count, uint64_t max_work,
                                                     tendon_spring_grid *out);

/* tendon_spring_chain_sample_batch_status with a plain (void) root and the given table. */
TENDON_HIDDEN tendon_status tendon_spring_chain_sample_plain(
    const char *fn, const struct tendon_kernels *k, const tendon_spring_link *links,
    size_t link_count, tendon_spring_lookback lookback, tendon_spring_anchor_fn root, void *user,
    double time_sec, uint64_t max_work, size_t chain_count, void *workspace,
    size_t workspace_bytes, float *out, size_t out_count);

/*
 * The spring rig's clip time (src/spring_rig.c): clip c, of duration d, at rig time t —
 * x = t + c->offset_sec; looped (d > 0): x − ⌊x/d⌋·d in double, 0 where that rounds to d or
 * below 0; looped with d ≤ 0 or NaN: 0; not looped: x. tendon_rig_clip_times_grid gives the
 * same bits at each of a grid's n times, which must be t[i] = t[0] + i·step in double for
 * i < n − 1 (any step; t[n − 1] any time), with a division per run of times between loop
 * boundaries instead of one a time (exposed for tests/test_spring_rig.c, which checks the two
 * against each other).
 */
TENDON_HIDDEN double tendon_rig_clip_time(const tendon_rig_clip *c, double d, double t);
TENDON_HIDDEN void tendon_rig_clip_times_grid(const tendon_rig_clip *c, double d, const double *t,
                                              size_t n, double *out);

#endif
