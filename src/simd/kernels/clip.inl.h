/*
 * THE SIMD body of the clip interpolation kernel (tendon/clip.h), instantiated per ISA by
 * src/simd/<isa>/clip_<isa>.c. The sampler (src/clip.c) gathers each track's bracketing keys
 * into contiguous arrays, component by component, so that W components of W tracks (or of one
 * track) go through one vector: a + (b − a)·u in double, rounded once to float — the lane-wise
 * twin of tendon_clip_lerp_scalar. Rotations go through the table's quat_slerp (the staged
 * slerp of quat.inl.h) on the same gathered layout. Fewer than W left go to the scalar
 * reference, equal by construction.
 */
#include "quat_core.inl.h"
#include "../../common/kernels_internal.h"

void TENDON_FN(clip_lerp)(const float *a, const float *b, const double *u, size_t count,
                          float *out)
{
    size_t i = 0;
    for (; i + TENDON_W <= count; i += TENDON_W) {
        const vd va = vload_f32(a + i), vb = vload_f32(b + i), vu = vload_f64(u + i);
        vstore_f32(out + i, vadd(va, vmul(vsub(vb, va), vu)));
    }
    tendon_clip_lerp_scalar(a + i, b + i, u + i, count - i, out + i);
}
