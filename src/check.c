/* Argument checks shared by the public entry points. */
#include <stdint.h>
#include <stdio.h>

#include "common/kernels_internal.h"
#include "common/pose_fast_check.h"

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

tendon_status tendon_check_aligned(const char *fn, const char *what, const void *p, size_t align)
{
    return check_aligned(fn, what, p, align);
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

/* The detailed checks of a pose, each with its own message (tendon_check_pose's slow path). */
static tendon_status check_pose_detail(const char *fn, const char *what, const tendon_pose *pose)
{
    if (!pose)
        return tendon_fail(TENDON_ERR_NULL, "%s: argument `%s` is NULL", fn, what);
    if ((uintptr_t)pose % _Alignof(tendon_pose) != 0)
        return tendon_fail(TENDON_ERR_VALUE,
                           "%s: argument `%s` at %p is not aligned to tendon_pose: its address "
                           "must be a multiple of %zu bytes (C requires it)",
                           fn, what, (const void *)pose, _Alignof(tendon_pose));
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
        /* which pose: the message names it, as every other refusal of a pose does */
        const size_t bytes[3] = {t_bytes, r_bytes, t_bytes};
        for (int i = 0; i < 3; ++i) {
            char name[96];
            snprintf(name, sizeof name, "`%s`'s %s array", what, names[i]);
            if ((s = check_address_range(fn, name, arrays[i], bytes[i])) != TENDON_OK)
                return s;
        }
    }
    if (tendon_ranges_overlap(pose->translation, t_bytes, pose->rotation, r_bytes) ||
        tendon_ranges_overlap(pose->translation, t_bytes, pose->scale, t_bytes) ||
        tendon_ranges_overlap(pose->rotation, r_bytes, pose->scale, t_bytes))
        return tendon_fail(TENDON_ERR_ALIAS,
                           "%s: `%s` has overlapping translation / rotation / scale arrays", fn,
                           what);
    return TENDON_OK;
}

/*
 * Every public pose call checks its poses, so the common case — a valid pose — is decided by a
 * few combined tests (every array present, aligned, inside the address space, and the three
 * disjoint); anything else takes the detailed path, which names what is wrong.
 */
tendon_status tendon_check_pose(const char *fn, const char *what, const tendon_pose *pose)
{
    if (pose && (uintptr_t)pose % _Alignof(tendon_pose) == 0 && pose->joint_count > 0 &&
        pose->joint_count <= SIZE_MAX / sizeof(float) / 4) {
        const size_t n = pose->joint_count;
        const uintptr_t t = (uintptr_t)pose->translation, r = (uintptr_t)pose->rotation;
        const uintptr_t sc = (uintptr_t)pose->scale;
        const size_t t_bytes = 3 * n * sizeof(float), r_bytes = 4 * n * sizeof(float);
        const uintptr_t limit = UINTPTR_MAX - r_bytes; /* the largest array's room */
        if (t && r && sc && ((t | r | sc) % _Alignof(float)) == 0 && t <= limit && r <= limit &&
            sc <= limit && !tendon_ranges_overlap(pose->translation, t_bytes, pose->rotation, r_bytes) &&
            !tendon_ranges_overlap(pose->translation, t_bytes, pose->scale, t_bytes) &&
            !tendon_ranges_overlap(pose->rotation, r_bytes, pose->scale, t_bytes))
            return TENDON_OK;
    }
    return check_pose_detail(fn, what, pose);
}

/* The lowest address and one past the highest byte of a pose's three arrays (n > 0). */
static void pose_span(const tendon_pose *p, uintptr_t *lo, uintptr_t *hi)
{
    const size_t n = p->joint_count;
    const uintptr_t t = (uintptr_t)p->translation, r = (uintptr_t)p->rotation;
    const uintptr_t s = (uintptr_t)p->scale;
    const uintptr_t te = t + 3 * n * sizeof(float), re = r + 4 * n * sizeof(float);
    const uintptr_t se = s + 3 * n * sizeof(float);
    *lo = t < r ? (t < s ? t : s) : (r < s ? r : s);
    *hi = te > re ? (te > se ? te : se) : (re > se ? re : se);
}

/* out's arrays against in's: none may share a byte with another, but (allow_exact) an array
   may be exactly its twin. */
static tendon_status check_poses_share(const char *fn, const char *out_name,
                                       const tendon_pose *out, const char *in_name,
                                       const tendon_pose *in, int allow_exact)
{
    if (out->joint_count == 0 || in->joint_count == 0)
        return TENDON_OK;
    /* Poses whose spans are apart cannot overlap at all (checked poses: no end wraps). */
    uintptr_t out_lo, out_hi, in_lo, in_hi;
    pose_span(out, &out_lo, &out_hi);
    pose_span(in, &in_lo, &in_hi);
    if (out_hi <= in_lo || in_hi <= out_lo)
        return TENDON_OK;
    const size_t n = out->joint_count, m = in->joint_count;
    const void *outs[3] = {out->translation, out->rotation, out->scale};
    const void *ins[3] = {in->translation, in->rotation, in->scale};
    const size_t bytes[3] = {3 * n * sizeof(float), 4 * n * sizeof(float), 3 * n * sizeof(float)};
    const size_t in_bytes[3] = {3 * m * sizeof(float), 4 * m * sizeof(float),
                                3 * m * sizeof(float)};
    static const char *const names[3] = {"translation", "rotation", "scale"};
    for (int i = 0; i < 3; ++i) {
        for (int k = 0; k < 3; ++k) {
            if (allow_exact && i == k && outs[i] == ins[k])
                continue; /* exact aliasing: allowed, every joint is read before it is written */
            if (tendon_ranges_overlap(outs[i], bytes[i], ins[k], in_bytes[k]))
                return tendon_fail(TENDON_ERR_ALIAS,
                                   allow_exact ? "%s: %s.%s overlaps %s.%s; an output array may be "
                                                 "exactly the input's but must not partly overlap one"
                                               : "%s: %s.%s overlaps %s.%s; the two poses must not "
                                                 "share memory",
                                   fn, out_name, names[i], in_name, names[k]);
        }
    }
    return TENDON_OK;
}

tendon_status tendon_check_pose_alias(const char *fn, const char *out_name, const tendon_pose *out,
                                      const char *in_name, const tendon_pose *in)
{
    return check_poses_share(fn, out_name, out, in_name, in, 1);
}

tendon_status tendon_check_poses_apart(const char *fn, const char *a_name, const tendon_pose *a,
                                       const char *b_name, const tendon_pose *b)
{
    return check_poses_share(fn, a_name, a, b_name, b, 0);
}

/* The general fast path's view of a pose (tendon_pose_call_boxes_ok, below). */
typedef struct pose_box {
    uintptr_t t, r, s, lo, hi;
} pose_box;

/* The pose's arrays as addresses, and whether they are present, aligned, bounded, disjoint.
   (Early exits: in the common case every branch goes the same way and is predicted.) */
static inline int pose_box_of(const tendon_pose *p, uintptr_t tb, uintptr_t rb, pose_box *b)
{
    const uintptr_t t = (uintptr_t)p->translation, r = (uintptr_t)p->rotation;
    const uintptr_t s = (uintptr_t)p->scale;
    const uintptr_t any = t | r | s;
    if (TENDON_UNLIKELY(!t || !r || !s || (any & (_Alignof(float) - 1)) ||
                        TENDON_FAST_ADDR_HIGH(any)))
        return 0;
    const uintptr_t te = t + tb, re = r + rb, se = s + tb;
    if (TENDON_UNLIKELY(!(te <= r || re <= t) || !(te <= s || se <= t) || !(re <= s || se <= r)))
        return 0;
    b->t = t;
    b->r = r;
    b->s = s;
    b->lo = t < r ? (t < s ? t : s) : (r < s ? r : s);
    b->hi = te > re ? (te > se ? te : se) : (re > se ? re : se);
    return 1;
}

static inline int box_apart_or_same(const pose_box *o, const pose_box *i)
{
    return o->hi <= i->lo || i->hi <= o->lo || (o->t == i->t && o->r == i->r && o->s == i->s);
}

/* The general fast path (any layout; the caller checked the counts). Out of line: only poses
   not laid out as tendon_pose_create lays them out come here. */
__attribute__((noinline)) int tendon_pose_call_boxes_ok(const tendon_pose *out,
                                                        const tendon_pose *a,
                                                        const tendon_pose *b,
                                                        const float *joint_weights, size_t n)
{
    const uintptr_t tb = 3 * n * sizeof(float), rb = 4 * n * sizeof(float);
    pose_box bo, ba, bb;
    if (TENDON_UNLIKELY(!pose_box_of(out, tb, rb, &bo) || !pose_box_of(a, tb, rb, &ba) ||
                        !box_apart_or_same(&bo, &ba)))
        return 0;
    if (b && TENDON_UNLIKELY(!pose_box_of(b, tb, rb, &bb) || !box_apart_or_same(&bo, &bb)))
        return 0;
    if (joint_weights) {
        const uintptr_t w = (uintptr_t)joint_weights, we = w + n * sizeof(float);
        if (TENDON_UNLIKELY((w & (_Alignof(float) - 1)) || TENDON_FAST_ADDR_HIGH(w) ||
                            !(we <= bo.lo || bo.hi <= w)))
            return 0;
    }
    return 1;
}

