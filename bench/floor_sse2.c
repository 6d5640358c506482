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
