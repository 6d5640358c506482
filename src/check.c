/* Argument checks shared by the public entry points. */
#include <stdint.h>

#include "common/kernels_internal.h"

int tendon_ranges_overlap(const void *a, size_t a_bytes, const void *b, size_t b_bytes)
{
    if (a_bytes == 0 || b_bytes == 0)
        return 0;
    const uintptr_t a0 = (uintptr_t)a, b0 = (uintptr_t)b;
    /* differences, not sums: a + bytes may wrap for a count near the overflow limit */
    return a0 <= b0 ? b0 - a0 < a_bytes : a0 - b0 < b_bytes;
}

/* An array whose last byte would lie past the end of the address space cannot exist. */
static tendon_status check_address_range(const char *fn, const char *what, const void *p,
                                         size_t bytes)
{
    if (bytes > 0 && (uintptr_t)p > UINTPTR_MAX - (bytes - 1))
        return tendon_fail(TENDON_ERR_OVERFLOW,
                           "%s: %s at %p with %zu bytes would run past the end of the address "
                           "space; the count is wrong",
                           fn, what, p, bytes);
    return TENDON_OK;
}

/*
 * Every typed pointer must be aligned to its element type, as C requires (a misaligned float
 * read is undefined behaviour, and UBSan stops on it). The arrays checked here hold 4-byte
 * elements (float, int32_t, uint32_t) or are read as such; 64-byte alignment is a speed hint.
 */
static tendon_status check_aligned(const char *fn, const char *what, const void *p, size_t align)
{
    if ((uintptr_t)p % align != 0)
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: %s at %p is not aligned to its element type: its address must "
                           "be a multiple of %zu bytes (C requires it; 64-byte alignment is only "
                           "a speed hint)",
                           fn, what, p, align);
    return TENDON_OK;
}

/* count items of item_bytes each, at p aligned to align */
static tendon_status check_array_of(const char *fn, const char *what, const void *p, size_t count,
                                    size_t item_bytes, size_t align)
{
    if (count > SIZE_MAX / item_bytes)
        return tendon_fail(TENDON_ERR_OVERFLOW,
                           "%s: %s holds %zu elements of %zu bytes, more bytes than size_t "
                           "can count",
                           fn, what, count, item_bytes);
    if (count == 0)
        return TENDON_OK; /* nothing is read or written: any pointer, NULL included */
    if (!p)
        return tendon_fail(TENDON_ERR_NULL, "%s: %s is NULL with a count of %zu", fn, what,
                           count);
    tendon_status s = check_aligned(fn, what, p, align);
    if (s != TENDON_OK)
        return s;
    return check_address_range(fn, what, p, count * item_bytes);
}

tendon_status tendon_check_array(const char *fn, const char *what, const void *p, size_t count,
                                 size_t elem_floats)
{
    return check_array_of(fn, what, p, count, elem_floats * sizeof(float), _Alignof(float));
}

tendon_status tendon_check_array_f64(const char *fn, const char *what, const double *p,
                                     size_t count)
{
    return check_array_of(fn, what, p, count, sizeof(double), _Alignof(double));
}

tendon_status tendon_check_pose(const char *fn, const char *what, const tendon_pose *pose)
{
    if (!pose)
        return tendon_fail(TENDON_ERR_NULL, "%s: argument `%s` is NULL", fn, what);
    const size_t n = pose->joint_count;
    if (n > SIZE_MAX / sizeof(float) / 4)
        return tendon_fail(TENDON_ERR_OVERFLOW,
                           "%s: `%s` has joint_count %zu, whose byte size overflows size_t", fn,
                           what, n);
    if (n > 0 && (!pose->translation || !pose->rotation || !pose->scale))
        return tendon_fail(TENDON_ERR_NULL, "%s: `%s` has a NULL %s array (joint_count %zu)",
                           fn, what,
                           !pose->translation ? "translation"
                           : !pose->rotation  ? "rotation"
                                              : "scale",
                           n);
    const size_t t_bytes = 3 * n * sizeof(float), r_bytes = 4 * n * sizeof(float);
    tendon_status s;
    if (n > 0) {
        static const char *const names[3] = {"translation", "rotation", "scale"};
        const void *arrays[3] = {pose->translation, pose->rotation, pose->scale};
        for (int i = 0; i < 3; ++i)
            if ((uintptr_t)arrays[i] % _Alignof(float) != 0)
                return tendon_fail(TENDON_ERR_VALUE,
                                   "%s: `%s` has its %s array at %p, which is not aligned to "
                                   "its element type: a float array's address must be a "
                                   "multiple of %zu bytes (C requires it; 64-byte alignment is "
                                   "only a speed hint)",
                                   fn, what, names[i], arrays[i], _Alignof(float));
    }
    if ((s = check_address_range(fn, "its translation array", pose->translation, t_bytes)) ||
        (s = check_address_range(fn, "its rotation array", pose->rotation, r_bytes)) ||
        (s = check_address_range(fn, "its scale array", pose->scale, t_bytes)))
        return s;
    if (tendon_ranges_overlap(pose->translation, t_bytes, pose->rotation, r_bytes) ||
        tendon_ranges_overlap(pose->translation, t_bytes, pose->scale, t_bytes) ||
        tendon_ranges_overlap(pose->rotation, r_bytes, pose->scale, t_bytes))
        return tendon_fail(TENDON_ERR_ALIAS,
                           "%s: `%s` has overlapping translation / rotation / scale arrays", fn,
                           what);
    return TENDON_OK;
}

tendon_status tendon_check_pose_alias(const char *fn, const char *out_name, const tendon_pose *out,
                                      const char *in_name, const tendon_pose *in)
{
    const size_t n = out->joint_count;
    const void *outs[3] = {out->translation, out->rotation, out->scale};
    const void *ins[3] = {in->translation, in->rotation, in->scale};
    const size_t bytes[3] = {3 * n * sizeof(float), 4 * n * sizeof(float), 3 * n * sizeof(float)};
    static const char *const names[3] = {"translation", "rotation", "scale"};
    for (int i = 0; i < 3; ++i) {
        for (int k = 0; k < 3; ++k) {
            if (i == k && outs[i] == ins[k])
                continue; /* exact aliasing: allowed, every joint is read before it is written */
            if (tendon_ranges_overlap(outs[i], bytes[i], ins[k], bytes[k]))
                return tendon_fail(TENDON_ERR_ALIAS,
                                   "%s: %s.%s overlaps %s.%s; an output array may be exactly the "
                                   "input's but must not partly overlap one",
                                   fn, out_name, names[i], in_name, names[k]);
        }
    }
    return TENDON_OK;
}
