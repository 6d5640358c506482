/*
 * THE SIMD body of the quaternion array kernels (slerp, nlerp, product), written once over the
 * op layer and instantiated per ISA by src/simd/<isa>/quat_<isa>.c. Stages of up to
 * TENDON_STAGE blocks of W elements; fewer than W left go to the scalar reference, equal by
 * construction. A stage loads every block before it stores any, so out may be exactly a or b.
 */
#include "quat_core.inl.h"
#include "../../common/kernels_internal.h"

typedef void (*tendon_coeffs_fn)(vquat, vquat, vd, vd *, vd *);

/* slerp and nlerp differ only in their first stage; always inlined so `coeffs` is a direct call. */
static inline __attribute__((always_inline)) void quat_interpolate(const float *a, const float *b, const double *t,
                                    size_t count, float *out, tendon_coeffs_fn coeffs,
                                    size_t *done_out)
{
    TENDON_FOR_STAGES(count, done, {
        vquat qa[TENDON_STAGE], qb[TENDON_STAGE];
        vd s0[TENDON_STAGE], s1[TENDON_STAGE];
        for (size_t c = 0; c < nb; ++c) {
            const size_t i = first + c * TENDON_W;
            qa[c] = vload_quat4(a + 4 * i);
            qb[c] = vload_quat4(b + 4 * i);
        }
        for (size_t c = 0; c < nb; ++c)
            coeffs(qa[c], qb[c], vclamp01(vload_f64(t + first + c * TENDON_W)), &s0[c], &s1[c]);
        for (size_t c = 0; c < nb; ++c)
            vstore_quat4(out + 4 * (first + c * TENDON_W), vslerp_finish(qa[c], qb[c], s0[c], s1[c]));
    })
    *done_out = done;
}

void TENDON_FN(quat_slerp)(const float *a, const float *b, const double *t, size_t count,
                           float *out)
{
    size_t i;
    quat_interpolate(a, b, t, count, out, vslerp_coeffs, &i);
    tendon_quat_slerp_scalar(a + 4 * i, b + 4 * i, t + i, count - i, out + 4 * i);
}

void TENDON_FN(quat_nlerp)(const float *a, const float *b, const double *t, size_t count,
                           float *out)
{
    size_t i;
    quat_interpolate(a, b, t, count, out, vnlerp_coeffs, &i);
    tendon_quat_nlerp_scalar(a + 4 * i, b + 4 * i, t + i, count - i, out + 4 * i);
}

void TENDON_FN(quat_multiply)(const float *a, const float *b, size_t count, float *out)
{
    size_t i = 0;
    for (; i + TENDON_W <= count; i += TENDON_W)
        vstore_quat4(out + 4 * i, vmultiply(vload_quat4(a + 4 * i), vload_quat4(b + 4 * i)));
    tendon_quat_multiply_scalar(a + 4 * i, b + 4 * i, count - i, out + 4 * i);
}
