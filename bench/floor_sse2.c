/* The division / sqrt floor at 128 bits (divpd / sqrtpd xmm). Compiled with -msse2 only. */
#include <simde/x86/sse2.h>

#include "cases.h"

void tendon_bench_floor_div_sse2(const double *a, const double *b, size_t n, double *out)
{
    for (size_t i = 0; i < n; i += 2)
        simde_mm_storeu_pd(&out[i], simde_mm_div_pd(simde_mm_loadu_pd(&a[i]),
                                                    simde_mm_loadu_pd(&b[i])));
}

void tendon_bench_floor_sqrt_sse2(const double *a, size_t n, double *out)
{
    for (size_t i = 0; i < n; i += 2)
        simde_mm_storeu_pd(&out[i], simde_mm_sqrt_pd(simde_mm_loadu_pd(&a[i])));
}

/* The memory floor of a pose blend: out = a + (b − a)·t over n floats, 4 at a time (n % 4 == 0). */
void tendon_bench_floor_lerp_sse2(const float *a, const float *b, float t, size_t n, float *out)
{
    const simde__m128 w = simde_mm_set1_ps(t);
    for (size_t i = 0; i < n; i += 4) {
        const simde__m128 x = simde_mm_loadu_ps(&a[i]);
        simde_mm_storeu_ps(&out[i], simde_mm_add_ps(x, simde_mm_mul_ps(simde_mm_sub_ps(simde_mm_loadu_ps(&b[i]), x), w)));
    }
}
