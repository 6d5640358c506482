/*
 * Scalar reference: the clip interpolation kernel (tendon/clip.h). Read float, compute in
 * double, round once on store: a + (b − a)·u, the seed's lerp order (blend.js blendPoses).
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
