/* Pose storage: create, destroy, identity, copy, set joint (seed 000 README, blend.js setJoint). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/aligned.h"
#include "common/kernels_internal.h"

/* Round n up to a multiple of 16 floats (64 bytes), so each array starts 64-byte aligned. */
static size_t pad64(size_t floats) { return (floats + 15) & ~(size_t)15; }

tendon_status tendon_pose_create(size_t joint_count, tendon_pose *out)
{
    if (!out)
        return tendon_fail(TENDON_ERR_NULL, "tendon_pose_create: out is NULL");
    memset(out, 0, sizeof *out);
    if (joint_count > (SIZE_MAX / sizeof(float) - 64) / 12)
        return tendon_fail(TENDON_ERR_OVERFLOW,
                           "tendon_pose_create: joint_count %zu overflows size_t in bytes",
                           joint_count);
    const size_t t = pad64(3 * joint_count), r = pad64(4 * joint_count);
    const size_t total = 2 * t + r + 16; /* at least one block, so the arrays are non-NULL */
    float *block = tendon_aligned_alloc(64, total * sizeof(float));
    if (!block)
        return tendon_fail(TENDON_ERR_NOMEM,
                           "tendon_pose_create: could not allocate %zu bytes for %zu joints",
                           total * sizeof(float), joint_count);
    out->translation = block;
    out->rotation = block + t;
    out->scale = block + t + r;
    out->joint_count = joint_count;
    return tendon_pose_set_identity(out);
}

void tendon_pose_destroy(tendon_pose *pose)
{
    if (!pose)
        return;
    tendon_aligned_free(pose->translation); /* the block's start */
    memset(pose, 0, sizeof *pose);
}

tendon_status tendon_pose_set_identity(tendon_pose *pose)
{
    tendon_status s = tendon_check_pose("tendon_pose_set_identity", "pose", pose);
    if (s != TENDON_OK)
        return s;
    for (size_t j = 0; j < pose->joint_count; ++j) {
        for (int c = 0; c < 3; ++c) {
            pose->translation[3 * j + c] = 0.0f;
            pose->scale[3 * j + c] = 1.0f;
        }
        pose->rotation[4 * j + 0] = 0.0f;
        pose->rotation[4 * j + 1] = 0.0f;
        pose->rotation[4 * j + 2] = 0.0f;
        pose->rotation[4 * j + 3] = 1.0f;
    }
    return TENDON_OK;
}

tendon_status tendon_pose_copy(const tendon_pose *src, tendon_pose *dst)
{
    static const char fn[] = "tendon_pose_copy";
    tendon_status s;
    if ((s = tendon_check_pose(fn, "src", src)) != TENDON_OK ||
        (s = tendon_check_pose(fn, "dst", dst)) != TENDON_OK)
        return s;
    if (src->joint_count != dst->joint_count)
        return tendon_fail(TENDON_ERR_COUNT,
                           "%s: src has %zu joints and dst %zu; they must be equal", fn,
                           src->joint_count, dst->joint_count);
    if ((s = tendon_check_pose_alias(fn, "dst", dst, "src", src)) != TENDON_OK)
        return s;
    const size_t n = src->joint_count;
    if (n == 0) /* a 0-joint pose may hold NULL arrays: memcpy must not see them, even for 0 */
        return TENDON_OK;
    if (dst->translation != src->translation)
        memcpy(dst->translation, src->translation, 3 * n * sizeof(float));
    if (dst->rotation != src->rotation)
        memcpy(dst->rotation, src->rotation, 4 * n * sizeof(float));
    if (dst->scale != src->scale)
        memcpy(dst->scale, src->scale, 3 * n * sizeof(float));
    return TENDON_OK;
}

tendon_status tendon_pose_set_joint(tendon_pose *pose, size_t joint, const float translation[3],
                                    const float rotation[4], const float scale[3])
{
    static const char fn[] = "tendon_pose_set_joint";
    tendon_status s = tendon_check_pose(fn, "pose", pose);
    if (s != TENDON_OK)
        return s;
    if ((s = tendon_check_array(fn, "translation", translation, 1, 3)) != TENDON_OK ||
        (s = tendon_check_array(fn, "rotation", rotation, 1, 4)) != TENDON_OK ||
        (s = tendon_check_array(fn, "scale", scale, 1, 3)) != TENDON_OK)
        return s;
    if (joint >= pose->joint_count && pose->joint_count == 0)
        return tendon_fail(TENDON_ERR_RANGE, "%s: joint %zu is out of range: the pose has 0 joints, so no index is valid",
                           fn, joint);
    if (joint >= pose->joint_count)
        return tendon_fail(TENDON_ERR_RANGE,
                           "%s: joint %zu is out of range: the pose has %zu joints (0..%zu)", fn,
                           joint, pose->joint_count, pose->joint_count - 1);
    /* The inputs may point into the pose itself, even into another of its arrays (swapping a
       joint's translation and scale): all ten values are read before any is written. */
    float v[10];
    memcpy(v, translation, 3 * sizeof(float));
    memcpy(v + 3, rotation, 4 * sizeof(float));
    memcpy(v + 7, scale, 3 * sizeof(float));
    memcpy(pose->translation + 3 * joint, v, 3 * sizeof(float));
    memcpy(pose->rotation + 4 * joint, v + 3, 4 * sizeof(float));
    memcpy(pose->scale + 3 * joint, v + 7, 3 * sizeof(float));
    return TENDON_OK;
}
