/* Public entry points of tendon/quat.h: validate, then one call through the active table. */
#include "common/fpenv.h"
#include "common/kernels_internal.h"

/* has_t: 0 none, 1 doubles (the exact tier), 2 floats (the float32 tier). */
static tendon_status check_quat_args(const char *fn, const float *a, const float *b,
                                     const void *t, int has_t, size_t count, const float *out)
{
    tendon_status s;
    if ((s = tendon_check_array(fn, "a", a, count, 4)) != TENDON_OK ||
        (s = tendon_check_array(fn, "b", b, count, 4)) != TENDON_OK ||
        (has_t == 1 && (s = tendon_check_array_f64(fn, "t", t, count)) != TENDON_OK) ||
        (has_t == 2 && (s = tendon_check_array(fn, "t", t, count, 1)) != TENDON_OK) ||
        (s = tendon_check_array(fn, "out", out, count, 4)) != TENDON_OK)
        return s;
    const size_t q_bytes = 4 * count * sizeof(float);
    if ((out != a && tendon_ranges_overlap(out, q_bytes, a, q_bytes)) ||
        (out != b && tendon_ranges_overlap(out, q_bytes, b, q_bytes)))
        return tendon_fail(TENDON_ERR_ALIAS,
                           "%s: out partly overlaps %s; it may be exactly a or b, or disjoint", fn,
                           out != a && tendon_ranges_overlap(out, q_bytes, a, q_bytes) ? "a" : "b");
    if (has_t && tendon_ranges_overlap(out, q_bytes, t,
                                       count * (has_t == 1 ? sizeof(double) : sizeof(float))))
        return tendon_fail(TENDON_ERR_ALIAS, "%s: out overlaps t", fn);
    return TENDON_OK;
}

tendon_status tendon_quat_slerp(const float *a, const float *b, const double *t, size_t count,
                                float *out)
{
    TENDON_FPENV_GUARD();
    const tendon_kernels *k;
    tendon_status s = check_quat_args("tendon_quat_slerp", a, b, t, 1, count, out);
    if (s == TENDON_OK && (s = tendon_active_kernels(&k)) == TENDON_OK && count > 0)
        k->quat_slerp(a, b, t, count, out);
    return s;
}

tendon_status tendon_quat_nlerp(const float *a, const float *b, const double *t, size_t count,
                                float *out)
{
    TENDON_FPENV_GUARD();
    const tendon_kernels *k;
    tendon_status s = check_quat_args("tendon_quat_nlerp", a, b, t, 1, count, out);
    if (s == TENDON_OK && (s = tendon_active_kernels(&k)) == TENDON_OK && count > 0)
        k->quat_nlerp(a, b, t, count, out);
    return s;
}

tendon_status tendon_quat_multiply(const float *a, const float *b, size_t count, float *out)
{
    TENDON_FPENV_GUARD();
    const tendon_kernels *k;
    tendon_status s = check_quat_args("tendon_quat_multiply", a, b, NULL, 0, count, out);
    if (s == TENDON_OK && (s = tendon_active_kernels(&k)) == TENDON_OK && count > 0)
        k->quat_multiply(a, b, count, out);
    return s;
}

/* ---- the float32 tier ---- */

tendon_status tendon_quat_slerp_f32(const float *a, const float *b, const float *t, size_t count,
                                    float *out)
{
    TENDON_FPENV_GUARD();
    const tendon_kernels *k;
    tendon_status s = check_quat_args("tendon_quat_slerp_f32", a, b, t, 2, count, out);
    if (s == TENDON_OK && (s = tendon_active_kernels(&k)) == TENDON_OK && count > 0)
        k->quat_slerp_f32(a, b, t, count, out);
    return s;
}

tendon_status tendon_quat_nlerp_f32(const float *a, const float *b, const float *t, size_t count,
                                    float *out)
{
    TENDON_FPENV_GUARD();
    const tendon_kernels *k;
    tendon_status s = check_quat_args("tendon_quat_nlerp_f32", a, b, t, 2, count, out);
    if (s == TENDON_OK && (s = tendon_active_kernels(&k)) == TENDON_OK && count > 0)
        k->quat_nlerp_f32(a, b, t, count, out);
    return s;
}

tendon_status tendon_quat_multiply_f32(const float *a, const float *b, size_t count, float *out)
{
    TENDON_FPENV_GUARD();
    const tendon_kernels *k;
    tendon_status s = check_quat_args("tendon_quat_multiply_f32", a, b, NULL, 0, count, out);
    if (s == TENDON_OK && (s = tendon_active_kernels(&k)) == TENDON_OK && count > 0)
        k->quat_multiply_f32(a, b, count, out);
    return s;
}
