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

#endif
