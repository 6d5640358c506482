/*
 * Scalar reference of the float32 tier's clip interpolation kernels (tendon/clip.h, "The
 * float32 tier"; docs/clips.md). Every operation is float32, one element at a time, in the
 * order the SIMD body (src/simd/kernels/clip_f32.inl.h) follows lane-wise:
 *
 *   clip_lerp_f32            out[i] = a[i] + (b[i] − a[i])·u[i]
 *   clip_lerp_uniform_f32    out[i] = a[i] + (b[i] − a[i])·u        (one u for the whole array)
 *   clip_slerp_uniform_f32   out quaternion i = tendon_reff_slerp(a_i, b_i, clamp01(u)): the
 *                            float tier's slerp, bit for bit quat_slerp_f32 with every t[i] = u
 *   clip_hermite_f32         out[i] = ((h00[i]·v0[i] + h10[i]·b0[i]) + h01[i]·v1[i]) + h11[i]·a1[i]
 *
 * Each element is read before its output is written, so out may be exactly an input array.
 */
#include "../common/kernels_internal.h"
#include "../common/quat_ref_f32.h"

void tendon_clip_lerp_f32_scalar(const float *a, const float *b, const float *u, size_t count,
                                 float *out)
{
    for (size_t i = 0; i < count; ++i) {
        const float from = a[i];
        out[i] = from + (b[i] - from) * u[i];
    }
}

void tendon_clip_lerp_uniform_f32_scalar(const float *a, const float *b, float u, size_t count,
                                         float *out)
{
    for (size_t i = 0; i < count; ++i) {
        const float from = a[i];
        out[i] = from + (b[i] - from) * u;
    }
}

void tendon_clip_slerp_uniform_f32_scalar(const float *a, const float *b, float u, size_t count,
                                          float *out)
{
    const float w = tendon_reff_clamp01(u);
    for (size_t i = 0; i < count; ++i) {
        float q[4];
        tendon_reff_slerp(a + 4 * i, b + 4 * i, w, q);
        for (int c = 0; c < 4; ++c)
            out[4 * i + c] = q[c];
    }
}

void tendon_clip_hermite_f32_scalar(const float *v0, const float *b0, const float *v1,
                                    const float *a1, const float *h, size_t count, float *out)
{
    tendon_clip_hermite_f32_scalar_planes(v0, b0, v1, a1, h, h + count, h + 2 * count,
                                          h + 3 * count, count, out);
}

void tendon_clip_hermite_f32_scalar_planes(const float *v0, const float *b0, const float *v1,
                                           const float *a1, const float *h00, const float *h10,
                                           const float *h01, const float *h11, size_t count,
                                           float *out)
{
    for (size_t i = 0; i < count; ++i)
        out[i] = ((h00[i] * v0[i] + h10[i] * b0[i]) + h01[i] * v1[i]) + h11[i] * a1[i];
}
