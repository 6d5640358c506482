/*
 * Scalar reference: the clip interpolation kernels (tendon/clip.h). Read float, compute in
 * double: LINEAR a + (b − a)·u, the seed's lerp order (blend.js blendPoses), rounded once on
 * store; CUBICSPLINE the Hermite sum in double, left unrounded (rotations are normalised by the
 * sampler before the one rounding).
 */
#include "../common/kernels_internal.h"

void tendon_clip_lerp_scalar(const float *a, const float *b, const double *u, size_t count,
                             float *out)
{
    for (size_t i = 0; i < count; ++i) {
        const double from = (double)a[i];
        out[i] = (float)(from + ((double)b[i] - from) * u[i]);
    }
}

void tendon_clip_hermite_scalar(const float *v0, const float *b0, const float *v1, const float *a1,
                                const double *h, size_t count, double *out)
{
    const double *h00 = h, *h10 = h + count, *h01 = h + 2 * count, *h11 = h + 3 * count;
    for (size_t i = 0; i < count; ++i)
        out[i] = ((h00[i] * (double)v0[i] + h10[i] * (double)b0[i]) + h01[i] * (double)v1[i]) +
                 h11[i] * (double)a1[i];
}
