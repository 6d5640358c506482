/*
 * The division / sqrt floor at 128 bits on AArch64 (fdiv / fsqrt v.2d). Built only for an
 * AArch64 target: SIMDe 0.7.4 lacks vdivq_f64 / vsqrtq_f64, and an emulated floor on x86-64
 * would measure the emulation, not the divider.
 */
#include <arm_neon.h>

#include "cases.h"

void tendon_bench_floor_div_neon(const double *a, const double *b, size_t n, double *out)
{
    for (size_t i = 0; i < n; i += 2)
        vst1q_f64(&out[i], vdivq_f64(vld1q_f64(&a[i]), vld1q_f64(&b[i])));
}

void tendon_bench_floor_sqrt_neon(const double *a, size_t n, double *out)
{
    for (size_t i = 0; i < n; i += 2)
        vst1q_f64(&out[i], vsqrtq_f64(vld1q_f64(&a[i])));
}
