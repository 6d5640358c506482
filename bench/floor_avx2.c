/* The division / sqrt floor at 256 bits (vdivpd / vsqrtpd ymm). Compiled with -mavx2 -mno-fma. */
#include <simde/x86/avx2.h>

#include "cases.h"

void tendon_bench_floor_div_avx2(const double *a, const double *b, size_t n, double *out)
{
    for (size_t i = 0; i < n; i += 4)
        simde_mm256_storeu_pd(&out[i], simde_mm256_div_pd(simde_mm256_loadu_pd(&a[i]),
                                                          simde_mm256_loadu_pd(&b[i])));
}

void tendon_bench_floor_sqrt_avx2(const double *a, size_t n, double *out)
{
    for (size_t i = 0; i < n; i += 4)
        simde_mm256_storeu_pd(&out[i], simde_mm256_sqrt_pd(simde_mm256_loadu_pd(&a[i])));
}

/* The memory floor of a pose blend: out = a + (b − a)·t over n floats, 8 at a time (n % 8 == 0). */
void tendon_bench_floor_lerp_avx2(const float *a, const float *b, float t, size_t n, float *out)
{
    const simde__m256 w = simde_mm256_set1_ps(t);
    for (size_t i = 0; i < n; i += 8) {
        const simde__m256 x = simde_mm256_loadu_ps(&a[i]);
        simde_mm256_storeu_ps(&out[i], simde_mm256_add_ps(x, simde_mm256_mul_ps(simde_mm256_sub_ps(simde_mm256_loadu_ps(&b[i]), x), w)));
    }
}
