/** @file
 * tendon — poses: per-joint local transforms, stored exactly as the engine holds them.
 *
 * Seed: 000 (README, `Pose`): three flat float arrays per pose,
 *   translation[3*j + c]   metres, c = x y z
 *   rotation[4*j + c]      unit quaternion, x y z w
 *   scale[3*j + c]         unitless factors, x y z
 * composed T·R·S (glTF order). Alignment: the element's own (4 bytes for floats); 64-byte
 * alignment is a speed hint only. Every function that takes a pose checks the pose itself first,
 * whatever its own list of errors says: the tendon_pose struct itself not aligned to its type is
 * TENDON_ERR_VALUE, naming the argument, before any member is read; a NULL array with
 * joint_count > 0 is TENDON_ERR_NULL
 * (a 0-joint pose may hold NULL arrays, as tendon_pose_destroy leaves it); arrays not on a
 * 4-byte boundary (joint_count > 0) are TENDON_ERR_VALUE, naming the array; a joint_count whose
 * byte size overflows size_t, or arrays that would run past the end of the address space,
 * TENDON_ERR_OVERFLOW (so a wildly wrong count is reported as that before it is compared with
 * another count); arrays of the one pose that overlap each other, TENDON_ERR_ALIAS.
 */
#ifndef TENDON_POSE_H
#define TENDON_POSE_H

#include "status.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * A pose: three caller-owned (or tendon_pose_create-owned) float arrays and a joint count.
 * translation [3*joint_count], rotation [4*joint_count] (x y z w), scale [3*joint_count].
 * The three arrays of one pose must not overlap each other.
 */
typedef struct tendon_pose {
    float *translation; /**< [3*joint_count] x y z per joint, metres */
    float *rotation;    /**< [4*joint_count] x y z w per joint, unit quaternions */
    float *scale;       /**< [3*joint_count] x y z per joint, unitless factors */
    size_t joint_count; /**< joints in each array */
} tendon_pose;

/**
 * Allocate a pose of joint_count joints at rest (translation 0, rotation identity (0,0,0,1),
 * scale 1), in one 64-byte-aligned block. joint_count may be 0 (the arrays are then non-NULL
 * but empty). Free with tendon_pose_destroy. Allocates: call at set-up, not per frame.
 * Errors: TENDON_ERR_NULL (out), TENDON_ERR_OVERFLOW (byte size overflows size_t),
 * TENDON_ERR_NOMEM. On error *out is left zeroed.
 */
TENDON_API tendon_status tendon_pose_create(size_t joint_count, tendon_pose *out);

/** Free a pose made by tendon_pose_create and zero it. NULL or an already-zeroed pose is a no-op. */
TENDON_API void tendon_pose_destroy(tendon_pose *pose);

/**
 * Write the rest pose (translation 0, rotation (0,0,0,1), scale 1) into every joint of `pose`.
 * Errors: TENDON_ERR_NULL (pose or one of its arrays, when joint_count > 0), TENDON_ERR_VALUE
 * (an array not aligned to float), TENDON_ERR_OVERFLOW, TENDON_ERR_ALIAS (its arrays overlap).
 */
TENDON_API tendon_status tendon_pose_set_identity(tendon_pose *pose);

/**
 * Copy every joint of `src` into `dst` (bit for bit, NaNs included). src == dst is allowed;
 * arrays that partly overlap are refused.
 * Errors: TENDON_ERR_NULL, TENDON_ERR_COUNT (joint counts differ), TENDON_ERR_VALUE (an array
 * not aligned to float), TENDON_ERR_ALIAS.
 */
TENDON_API tendon_status tendon_pose_copy(const tendon_pose *src, tendon_pose *dst);

/**
 * Write one joint's transform straight into a pose (seed 000 `setJoint`): what a solver drives.
 * translation[3] (metres), rotation[4] (x y z w, stored as given: not normalised), scale[3].
 * The values are copied bit for bit; nothing is validated beyond the index. The inputs may point
 * anywhere, the pose itself included (all ten values are read before any is written, so
 * passing a joint's scale as its translation and its translation as its scale swaps them).
 * Errors: TENDON_ERR_NULL (pose, one of its arrays, or an input), TENDON_ERR_VALUE (an input
 * not aligned to float; the message names it), TENDON_ERR_RANGE (joint >= pose->joint_count;
 * the message names both). On error the pose is unchanged.
 */
TENDON_API tendon_status tendon_pose_set_joint(tendon_pose *pose, size_t joint,
                                               const float translation[3],
                                               const float rotation[4], const float scale[3]);

#ifdef __cplusplus
}
#endif
#endif
