/** @file
 * tendon — two-bone inverse kinematics (an arm: shoulder, elbow, wrist; a leg: hip, knee,
 * ankle), analytic, with a pole and a weight.
 *
 * Seed: 000 README ("two-bone IK"); bug case 16 of tests/data/bugs/bugs.json (NaN at full
 * reach). Interface: **world-space positions in, world-space positions and rotations out** — the
 * solver needs no skeleton, and a caller with one takes model-space positions from
 * tendon_pose_model_matrices and turns the two rotation deltas into local rotations (for a joint
 * whose world rotation is W and parent's world rotation P: local' = P⁻¹ ⊗ Δ ⊗ W).
 * Decisions: docs/layers.md.
 *
 * Arithmetic: float32, as the matrix kernels (the chain is world positions), with every sum in
 * one written order and no fused multiply-add, √ correctly rounded; the weighted rotations are
 * slerps from identity in the pose kernels' double arithmetic (tendon's own acos/sin). Pure,
 * allocates nothing, bitwise reproducible on every ISA and compiler of the project.
 */
#ifndef TENDON_IK_H
#define TENDON_IK_H

#include "skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The largest coordinate magnitude the solver takes (metres): squares of distances between
 *  such points stay finite in float32. */
#define TENDON_IK_MAX_COORD_M 1e18f

/** What tendon_ik_two_bone solves for. */
typedef struct tendon_ik_two_bone_result {
    /** The solved middle joint (elbow/knee) position, world space. */
    float mid[3];
    /** The solved end (wrist/ankle) position, world space. */
    float end[3];
    /**
     * World-space rotation (x y z w, unit) about the root that turns the upper bone
     * (root → mid) into its solved direction: the shortest arc, so the bone does not twist.
     * Pre-multiply it onto the root joint's world rotation.
     */
    float upper_delta[4];
    /**
     * World-space rotation about the solved middle joint that then turns the lower bone — as
     * upper_delta has already carried it — into its solved direction (shortest arc).
     * The middle joint's new world rotation is lower_delta ⊗ upper_delta ⊗ its old one.
     */
    float lower_delta[4];
    /** 1 when the target is within reach (|l1 − l2| ≤ distance ≤ l1 + l2), else 0: the chain
     *  then points straight at the target (too far) or folds as far as it can (too near). */
    int reachable;
} tendon_ik_two_bone_result;

/**
 * Solve a two-bone chain root → mid → end (bone lengths l1 = |mid − root|, l2 = |end − mid|,
 * kept) so that the end reaches `target`, bending toward `pole`. With d = |target − root| and
 * u its direction (d = 0: the current root → end direction, or the upper bone's):
 *
 *   d ≥ l1 + l2   straight:  mid' = root + u·l1,  end' = root + u·(l1 + l2)
 *                 (compared in metres, so a target at full reach as the caller computed it is
 *                 straight — never the √ of a rounding error, the NaN of bug case 16)
 *   d ≤ |l1 − l2| folded:    mid' = root ± u·l1 (+ when l1 ≥ l2), end' = root + u·|l1 − l2|
 *   otherwise     in units of s = l1 + l2 (a = l1/s, b = l2/s, δ = d/s — no square can
 *                 underflow or overflow whatever the chain's size):
 *                   x = (a² − b² + δ²) / (2δ), clamped to [−a, a];  h = √max(0, (a − x)(a + x))
 *                   mid' = root + (u·x + n·h)·s,  end' = target
 *
 * n: the part of (pole − root) perpendicular to u, normalised — or of (mid − root) when the
 * pole lies on the line root → target (or pole is NULL), or any perpendicular when both do.
 * Lengths are computed with the squares summed in double and rounded once.
 *
 * Then upper_delta, lower_delta as documented on the result. weight w in [0, 1] (clamped)
 * blends the solution in: the deltas become slerp(identity, delta, w) and, for w < 1, mid and
 * end are the bones rotated by them (for w = 1 they are mid' and end' above; for w = 0 the
 * deltas are the identity (0, 0, 0, 1) and the positions the input's, bit for bit).
 *
 * root, mid, end, target: [3] world positions (metres), finite and within
 * ±TENDON_IK_MAX_COORD_M (1e18 m). pole: [3] world position (a
 * point the middle joint bends toward — in front of the knee, behind the elbow), or NULL to keep
 * the chain's current bend plane. out: may not be NULL; written only on success.
 * Errors: TENDON_ERR_NULL (an input or out), TENDON_ERR_VALUE (a zero-length bone — the message
 * gives both lengths —, a coordinate that is not finite or beyond ±1e18 m, a NaN weight).
 */
TENDON_API tendon_status tendon_ik_two_bone(const float root[3], const float mid[3],
                                            const float end[3], const float target[3],
                                            const float pole[3], double weight,
                                            tendon_ik_two_bone_result *out);

/**
 * Two-bone IK on a pose: the chain upper → mid → end of `skeleton` (mid a descendant of upper,
 * end a descendant of mid — usually child and grandchild; twist joints in between are carried
 * rigidly), solved by tendon_ik_two_bone on the chain's model-space positions, and the result
 * written back as the new **local** rotations of `upper` and `mid` in `pose` (nothing else is
 * written). With W the upper joint's model rotation and P that of mid's parent (W itself when
 * mid is upper's child), each from its matrix with the columns normalised, and Δu, Δl the
 * solution's deltas:
 *
 *   upper:  L_u' = L_u ⊗ (W⁻¹ ⊗ Δu ⊗ W)
 *   mid:    L_m' = (P⁻¹ ⊗ Δu⁻¹ ⊗ Δl ⊗ Δu ⊗ P) ⊗ L_m
 *
 * in double (the seed's product order), normalised, rounded once. The joints' translations and
 * scales are untouched, so the bone lengths are the skeleton's own.
 *
 * model: [16*joint_count] model matrices of `pose` as it is on entry (tendon_pose_model_matrices,
 * any root_matrix); read for upper, mid's parent, mid and end only, and not updated (recompute the range from
 * `upper`, a contiguous DFS subtree, with tendon_model_matrices). target, pole: in the same space
 * as `model`. The chain's model rotation is taken from the upper joint's matrix with its columns
 * normalised, which is exact for uniform or axis-aligned scale, not for a skew inherited from
 * non-uniform scale above a rotation. Mirrors (negative scales, on the chain's joints or above
 * them) are handled: W and P are only used to conjugate, and conjugating by a reflection W is
 * conjugating by the rotation −W; the sign of the upper joint's own scale (read from `pose`) is
 * taken out of W first. result: NULL, or the world-space solution.
 * Errors: TENDON_ERR_NULL, TENDON_ERR_COUNT (pose and skeleton joint counts differ),
 * TENDON_ERR_RANGE (an index ≥ joint_count, or mid is not a descendant of upper / end not of
 * mid: the message names them), TENDON_ERR_VALUE (as tendon_ik_two_bone; the model matrix of
 * upper or of mid's parent with a column of length 0, ∞ or NaN: a zero or non-finite scale, or
 * a non-finite element). Nothing is written on error.
 */
TENDON_API tendon_status tendon_ik_two_bone_pose(const tendon_skeleton *skeleton,
                                                 const float *model, size_t upper, size_t mid,
                                                 size_t end, const float target[3],
                                                 const float pole[3], double weight,
                                                 tendon_pose *pose,
                                                 tendon_ik_two_bone_result *result);

#ifdef __cplusplus
}
#endif
#endif
