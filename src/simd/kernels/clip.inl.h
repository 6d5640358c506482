/*
 * THE SIMD body of the clip interpolation kernel (tendon/clip.h), instantiated per ISA by
 * src/simd/<isa>/clip_<isa>.c. The sampler (src/clip.c) gathers each track's bracketing keys
 * into contiguous arrays, component by component, so that W components of W tracks (or of one
 * track) go through one vector: a + (b − a)·u in double, rounded once to float — the lane-wise
 * twin of tendon_clip_lerp_scalar. Rotations go through the table's quat_slerp (the staged
 * slerp of quat.inl.h) on the same gathered layout. CUBICSPLINE components go through
 * clip_hermite (the twin of tendon_clip_hermite_scalar). Fewer than W left go to the scalar
 * arithmetic, equal by construction.
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

void TENDON_FN(clip_hermite)(const float *v0, const float *b0, const float *v1, const float *a1,
                             const double *h, size_t count, double *out)
{
    const double *h00 = h, *h10 = h + count, *h01 = h + 2 * count, *h11 = h + 3 * count;
    size_t i = 0;
    for (; i + TENDON_W <= count; i += TENDON_W) {
        const vd p0 = vmul(vload_f64(h00 + i), vload_f32(v0 + i));
        const vd p1 = vmul(vload_f64(h10 + i), vload_f32(b0 + i));
        const vd p2 = vmul(vload_f64(h01 + i), vload_f32(v1 + i));
        const vd p3 = vmul(vload_f64(h11 + i), vload_f32(a1 + i));
        vstore_f64(out + i, vadd(vadd(vadd(p0, p1), p2), p3));
    }
    /* the tail: the scalar reference on the same planes (it indexes them by `count`) */
    for (; i < count; ++i)
        out[i] = ((h00[i] * (double)v0[i] + h10[i] * (double)b0[i]) + h01[i] * (double)v1[i]) +
                 h11[i] * (double)a1[i];
}
