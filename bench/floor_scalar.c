/*
 * The division / sqrt floor, one element at a time (divsd / sqrtsd on x86-64, fdiv / fsqrt on
 * AArch64). bench/CMakeLists.txt compiles this file with auto-vectorisation off, so "scalar"
 * really is one element per instruction.
 */
#include <math.h>

#include "cases.h"

void tendon_bench_floor_div_scalar(const double *a, const double *b, size_t n, double *out)
{
    for (size_t i = 0; i < n; ++i)
        out[i] = a[i] / b[i];
}

void tendon_bench_floor_sqrt_scalar(const double *a, size_t n, double *out)
{
    for (size_t i = 0; i < n; ++i)
        out[i] = sqrt(a[i]); /* inputs are in [1, 2): the errno path is never taken */
}

/* The memory floor of a pose blend: out = a + (b − a)·t over n floats, one at a time. */
void tendon_bench_floor_lerp_scalar(const float *a, const float *b, float t, size_t n, float *out)
{
    for (size_t i = 0; i < n; ++i)
        out[i] = a[i] + (b[i] - a[i]) * t;
}
