/*
 * The division / sqrt floor at 512 bits (vdivpd / vsqrtpd zmm).
 * Compiled with -mavx512f -mavx512dq -mavx512vl, as src/simd/avx512/ is.
 */
#include <simde/x86/avx512.h>

#include "cases.h"

void tendon_bench_floor_div_avx512(const double *a, const double *b, size_t n, double *out)
{
    for (size_t i = 0; i < n; i += 8)
        simde_mm512_storeu_pd(&out[i], simde_mm512_div_pd(simde_mm512_loadu_pd(&a[i]),
                                                          simde_mm512_loadu_pd(&b[i])));
}

void tendon_bench_floor_sqrt_avx512(const double *a, size_t n, double *out)
{
    for (size_t i = 0; i < n; i += 8)
        simde_mm512_storeu_pd(&out[i], simde_mm512_sqrt_pd(simde_mm512_loadu_pd(&a[i])));
}

/* The memory floor of a pose blend: out = a + (b − a)·t over n floats, 16 at a time (n % 16 == 0). */
void tendon_bench_floor_lerp_avx512(const float *a, const float *b, float t, size_t n, float *out)
{
    const simde__m512 w = simde_mm512_set1_ps(t);
    for (size_t i = 0; i < n; i += 16) {
        const simde__m512 x = simde_mm512_loadu_ps(&a[i]);
        simde_mm512_storeu_ps(&out[i], simde_mm512_add_ps(x, simde_mm512_mul_ps(simde_mm512_sub_ps(simde_mm512_loadu_ps(&b[i]), x), w)));
    }
}
