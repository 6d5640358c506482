/*
 * tendon — the raw kernel table (low level).
 *
 * One table per ISA, returned by tendon_kernels_for(). These are the unchecked kernels behind
 * the public entry points: they validate nothing (no NULL checks, no count checks, no overlap
 * checks) and report nothing. Call them only with arguments the public function's contract
 * accepts; the public functions (tendon/quat.h, tendon/blend.h, …) are the supported API.
 * Every entry of every table computes the same bits as the scalar table's entry for the same
 * input (finite inputs; NaNs by class). None allocates, reads a clock or keeps state.
 *
 * Fields are appended as modules land; compare `isa` rather than relying on the size.
 */
#ifndef TENDON_KERNELS_H
#define TENDON_KERNELS_H

#include "dispatch.h"
#include "pose.h"
#include "spring.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tendon_kernels {
    tendon_isa isa;

    /* quat.h: count quaternions x y z w; t[count] per element. out may equal a or b. */
    void (*quat_slerp)(const float *a, const float *b, const double *t, size_t count, float *out);
    void (*quat_nlerp)(const float *a, const float *b, const double *t, size_t count, float *out);
    void (*quat_multiply)(const float *a, const float *b, size_t count, float *out);

    /* blend.h: joint_count joints; joint_weights NULL or [joint_count]. out may equal a or b. */
    void (*pose_blend)(const tendon_pose *a, const tendon_pose *b, double t,
                       const float *joint_weights, size_t joint_count, tendon_pose *out);
    void (*pose_add)(const tendon_pose *base, const tendon_pose *delta, double weight,
                     const float *joint_weights, size_t joint_count, tendon_pose *out);

    /* spring.h: march plan->steps substeps over plan->lanes lanes (tendon_spring_march_plan).
       spring_march: one link per lane (springs, batches); spring_chain_march: link_count links
       per lane, each anchored to the one above. Both call plan->anchor once per substep. */
    void (*spring_march)(const tendon_spring_march_plan *plan);
    void (*spring_chain_march)(const tendon_spring_march_plan *plan);
} tendon_kernels;

#ifdef __cplusplus
}
#endif
#endif
