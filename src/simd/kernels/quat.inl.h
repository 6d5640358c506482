/*
 * THE SIMD body of the quaternion array kernels (slerp, nlerp, product), written once over the
 * op layer and instantiated per ISA by src/simd/<isa>/quat_<isa>.c. W elements per block; the
 * tail goes to the scalar reference, equal by construction.
 * Aliasing: each block is loaded whole before it is stored, so out may be exactly a or b.
 */
#include "quat_core.inl.h"
#include "../../common/kernels_internal.h"

void TENDON_FN(quat_slerp)(const float *a, const float *b, const double *t, size_t count,
                           float *out)
{
    size_t i = 0;
    for (; i + TENDON_W <= count; i += TENDON_W) {
        const vquat qa = vload_quat4(a + 4 * i), qb = vload_quat4(b + 4 * i);
        vstore_quat4(out + 4 * i, vslerp(qa, qb, vclamp01(vload_f64(t + i))));
    }
    tendon_quat_slerp_scalar(a + 4 * i, b + 4 * i, t + i, count - i, out + 4 * i);
}

void TENDON_FN(quat_nlerp)(const float *a, const float *b, const double *t, size_t count,
                           float *out)
{
    size_t i = 0;
    for (; i + TENDON_W <= count; i += TENDON_W) {
        const vquat qa = vload_quat4(a + 4 * i), qb = vload_quat4(b + 4 * i);
        vstore_quat4(out + 4 * i, vnlerp(qa, qb, vclamp01(vload_f64(t + i))));
    }
    tendon_quat_nlerp_scalar(a + 4 * i, b + 4 * i, t + i, count - i, out + 4 * i);
}

void TENDON_FN(quat_multiply)(const float *a, const float *b, size_t count, float *out)
{
    size_t i = 0;
    for (; i + TENDON_W <= count; i += TENDON_W) {
        const vquat qa = vload_quat4(a + 4 * i), qb = vload_quat4(b + 4 * i);
        vstore_quat4(out + 4 * i, vmultiply(qa, qb));
    }
    tendon_quat_multiply_scalar(a + 4 * i, b + 4 * i, count - i, out + 4 * i);
}
