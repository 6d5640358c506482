/*
 * THE SIMD body of the float32 tier's clip interpolation kernels (tendon/clip.h, "The float32
 * tier"), instantiated per ISA by src/simd/<isa>/clip_f32_<isa>.c: the lane-wise twin of
 * src/scalar/clip_f32_scalar.c, on the op layer's float lanes (TENDON_WF at a time).
 *
 * - clip_lerp_f32 / clip_lerp_uniform_f32: a + (b − a)·u over contiguous floats. The sampler
 *   feeds the uniform form a whole run of a timeline's key-major block (the translations, or
 *   the scales, of consecutive joints of one key next to those of the next key): one stream,
 *   no gather.
 * - clip_slerp_uniform_f32: the float tier's slerp of count quaternion pairs by one weight,
 *   through quat_slerp_f32's staged loop (vfinterp_loop, quat_f32_core.inl.h: TENDON_F32_STAGE
 *   blocks of WF quaternions per phase so that their long independent chains — acos, sin, √,
 *   ÷ — overlap; every block of a step is loaded before any is stored, so out may be exactly a
 *   or b).
 * - clip_hermite_f32: the Hermite sum in its written order, four planes of weights.
 * Fewer than WF elements left go to the scalar reference.
 */
#include "quat_f32_core.inl.h"
#include "../../common/kernels_internal.h"

void TENDON_FN(clip_lerp_f32)(const float *a, const float *b, const float *u, size_t count,
                              float *out)
{
    size_t i = 0;
    for (; i + TENDON_WF <= count; i += TENDON_WF) {
        const vf va = vfload(a + i), vb = vfload(b + i), vu = vfload(u + i);
        vfstore(out + i, vfadd(va, vfmul(vfsub(vb, va), vu)));
    }
    tendon_clip_lerp_f32_scalar(a + i, b + i, u + i, count - i, out + i);
}

void TENDON_FN(clip_lerp_uniform_f32)(const float *a, const float *b, float u, size_t count,
                                      float *out)
{
    const vf vu = vfset1(u);
    size_t i = 0;
    for (; i + 2 * TENDON_WF <= count; i += 2 * TENDON_WF) {
        const vf a0 = vfload(a + i), b0 = vfload(b + i);
        const vf a1 = vfload(a + i + TENDON_WF), b1 = vfload(b + i + TENDON_WF);
        vfstore(out + i, vfadd(a0, vfmul(vfsub(b0, a0), vu)));
        vfstore(out + i + TENDON_WF, vfadd(a1, vfmul(vfsub(b1, a1), vu)));
    }
    for (; i + TENDON_WF <= count; i += TENDON_WF) {
        const vf va = vfload(a + i), vb = vfload(b + i);
        vfstore(out + i, vfadd(va, vfmul(vfsub(vb, va), vu)));
    }
    tendon_clip_lerp_uniform_f32_scalar(a + i, b + i, u, count - i, out + i);
}

void TENDON_FN(clip_slerp_uniform_f32)(const float *a, const float *b, float u, size_t count,
                                       float *out)
{
    /* tendon_reff_clamp01(u) in every lane */
    const size_t i = vfinterp_loop(a, b, NULL, vfclamp01(vfset1(u)), count, out, 0);
    tendon_clip_slerp_uniform_f32_scalar(a + 4 * i, b + 4 * i, u, count - i, out + 4 * i);
}

void TENDON_FN(clip_hermite_f32)(const float *v0, const float *b0, const float *v1,
                                 const float *a1, const float *h, size_t count, float *out)
{
    const float *h00 = h, *h10 = h + count, *h01 = h + 2 * count, *h11 = h + 3 * count;
    size_t i = 0;
    for (; i + TENDON_WF <= count; i += TENDON_WF) {
        const vf p0 = vfmul(vfload(h00 + i), vfload(v0 + i));
        const vf p1 = vfmul(vfload(h10 + i), vfload(b0 + i));
        const vf p2 = vfmul(vfload(h01 + i), vfload(v1 + i));
        const vf p3 = vfmul(vfload(h11 + i), vfload(a1 + i));
        vfstore(out + i, vfadd(vfadd(vfadd(p0, p1), p2), p3));
    }
    tendon_clip_hermite_f32_scalar_planes(v0 + i, b0 + i, v1 + i, a1 + i, h00 + i, h10 + i,
                                          h01 + i, h11 + i, count - i, out + i);
}
