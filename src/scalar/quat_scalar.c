/*
 * Scalar reference: quaternion arrays (seed 000 blend.js slerpInto / multiplyInto).
 * Read float, compute in double (src/common/quat_ref.h), round once on store.
 */
#include "../common/kernels_internal.h"
#include "../common/quat_ref.h"

void tendon_quat_slerp_scalar(const float *a, const float *b, const double *t, size_t count,
                              float *out)
{
    for (size_t i = 0; i < count; ++i) {
        double qa[4], qb[4], q[4];
        tendon_ref_load4(a + 4 * i, qa);
        tendon_ref_load4(b + 4 * i, qb);
        tendon_ref_slerp(qa, qb, tendon_ref_clamp01(t[i]), q);
        tendon_ref_store4(q, out + 4 * i);
    }
}

void tendon_quat_nlerp_scalar(const float *a, const float *b, const double *t, size_t count,
                              float *out)
{
    for (size_t i = 0; i < count; ++i) {
        double qa[4], qb[4], q[4];
        tendon_ref_load4(a + 4 * i, qa);
        tendon_ref_load4(b + 4 * i, qb);
        tendon_ref_nlerp(qa, qb, tendon_ref_clamp01(t[i]), q);
        tendon_ref_store4(q, out + 4 * i);
    }
}

void tendon_quat_multiply_scalar(const float *a, const float *b, size_t count, float *out)
{
    for (size_t i = 0; i < count; ++i) {
        double qa[4], qb[4], q[4];
        tendon_ref_load4(a + 4 * i, qa);
        tendon_ref_load4(b + 4 * i, qb);
        tendon_ref_multiply(qa, qb, q);
        tendon_ref_store4(q, out + 4 * i);
    }
}
