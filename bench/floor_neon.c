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

/* The memory floor of a pose blend: out = a + (b − a)·t over n floats, 4 at a time (n % 4 == 0). */
void tendon_bench_floor_lerp_neon(const float *a, const float *b, float t, size_t n, float *out)
{
    const float32x4_t w = vdupq_n_f32(t);
    for (size_t i = 0; i < n; i += 4) {
        const float32x4_t x = vld1q_f32(&a[i]);
        vst1q_f32(&out[i], vaddq_f32(x, vmulq_f32(vsubq_f32(vld1q_f32(&b[i]), x), w)));
    }
}
