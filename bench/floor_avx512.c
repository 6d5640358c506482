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
