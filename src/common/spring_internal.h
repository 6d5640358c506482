/*
 * Internal: the spring entry points with an explicit kernel table (src/spring.c). Not installed.
 *
 * Each is its public namesake (tendon/spring.h) — same validation, same plan, same clamp — with
 * the march run through `k` instead of the active table (k = NULL: the active table). Tests and
 * benchmarks use them to run every ISA's march, emulated ones included, in one process without
 * flipping the global choice.
 */
#ifndef TENDON_SPRING_INTERNAL_H
#define TENDON_SPRING_INTERNAL_H

#include "kernels_internal.h"

TENDON_HIDDEN tendon_status tendon_spring_sample_on(const tendon_kernels *k,
                                                    const tendon_spring_settings *settings,
                                                    tendon_spring_anchor_fn anchor, void *user,
                                                    double time_sec, float out[3]);
TENDON_HIDDEN tendon_status tendon_spring_sample_f64_on(const tendon_kernels *k,
                                                        const tendon_spring_settings *settings,
                                                        tendon_spring_anchor_fn anchor, void *user,
                                                        double time_sec, double out64[3]);
TENDON_HIDDEN tendon_status tendon_spring_sample_batch_on(
    const tendon_kernels *k, const tendon_spring_settings *settings,
    tendon_spring_anchor_fn anchor, void *user, double time_sec, size_t spring_count,
    void *workspace, size_t workspace_bytes, float *out);
TENDON_HIDDEN tendon_status tendon_spring_chain_sample_on(
    const tendon_kernels *k, const tendon_spring_link *links, size_t link_count,
    tendon_spring_anchor_fn root, void *user, double time_sec, void *workspace,
    size_t workspace_bytes, float *out, size_t out_count);
TENDON_HIDDEN tendon_status tendon_spring_chain_sample_batch_on(
    const tendon_kernels *k, const tendon_spring_link *links, size_t link_count,
    tendon_spring_anchor_fn root, void *user, double time_sec, size_t chain_count,
    void *workspace, size_t workspace_bytes, float *out, size_t out_count);

/*
 * The per-link substep coefficients (seed transitionOver + trailPerUnitSpeed) and the cascade
 * root (the chain lookback times the slowest σ), exposed for tests against MPFR.
 */
TENDON_HIDDEN void tendon_spring_transition(double frequency_hz, double damping, double step,
                                            tendon_spring_coeffs *out);
TENDON_HIDDEN double tendon_spring_cascade_root(size_t link_count);

#endif
