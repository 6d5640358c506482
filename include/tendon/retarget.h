/** @file
 * tendon — retargeting a pose between two skeletons by joint name.
 *
 * Seed: 000 README ("retargeting by joint name"; blendTree.d.ts notes that a figure that went
 * through `retargetPose` kept its proportions). The joints of the two skeletons are paired by
 * name (exact, case-sensitive: the name is the joint's identity, seed 002) once, in a map; the
 * per-frame call then carries each source joint's motion **relative to its rest pose** onto the
 * paired target joint relative to the target's rest pose:
 *
 *   rotation     target_rest ⊗ (source_rest⁻¹ ⊗ source_pose)      (the delta in the joint's own
 *                frame, tendon_pose_delta's convention; rests normalised; result normalised)
 *   translation  target_rest + (source_pose − source_rest) · ratio,  ratio = |target_rest.t| /
 *                |source_rest.t| — the ratio of the two bone lengths (a joint's rest offset from
 *                its parent); 1 when either length is 0 (a root at the origin: its motion is
 *                carried unscaled)
 *   scale        target_rest · (source_pose / source_rest)   (source_rest 0: target_rest)
 *
 * in double, rounded once (products in the seed's order, docs/determinism.md): plain C with no
 * per-ISA variant, so the bits are the same on every ISA and machine. A target joint with no source joint of its name stays at its rest
 * pose; the map reports those (and the source joints that drive nothing). The rigs are assumed
 * to share joint-frame conventions (the same axes per joint, as rigs built to one naming and
 * orientation standard do) and differ in proportions and rest angles. Decisions: docs/layers.md.
 */
#ifndef TENDON_RETARGET_H
#define TENDON_RETARGET_H

#include "skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The pairing of two skeletons' joints and what the per-frame call needs. Opaque, immutable
 *  once made: any number of threads may retarget through one map at once. */
typedef struct tendon_retarget_map tendon_retarget_map;

/**
 * Pair the joints of `source` and `target` by name and precompute the ratios and rest
 * rotations (both skeletons are copied from; they may be destroyed afterwards). Allocates.
 * Errors: TENDON_ERR_NULL (source, target, out), TENDON_ERR_VALUE (a skeleton without joint
 * names: there is nothing to match by; a rest rotation of length 0; a paired joint whose rest
 * translation, rotation or scale has a NaN or infinite component — the message names the joint
 * and the component), TENDON_ERR_NOMEM,
 * TENDON_ERR_OVERFLOW. On error *out is NULL. A pairing that matches nothing is not an error
 * (every target joint stays at rest), but tendon_retarget_map_unmatched says so.
 */
TENDON_API tendon_status tendon_retarget_map_create(const tendon_skeleton *source,
                                                    const tendon_skeleton *target,
                                                    tendon_retarget_map **out);

/** Free a map. NULL is a no-op. */
TENDON_API void tendon_retarget_map_destroy(tendon_retarget_map *map);

/**
 * The target joints no source joint drives (left at their rest pose), in increasing order:
 * *out_joints = [*out_count] indices into the target skeleton (valid as long as the map), and
 * the count of source joints with no target joint of their name (their motion is dropped) into
 * *out_source_unused (may be NULL).
 * Errors: TENDON_ERR_NULL (map, out_joints, out_count).
 */
TENDON_API tendon_status tendon_retarget_map_unmatched(const tendon_retarget_map *map,
                                                       const size_t **out_joints,
                                                       size_t *out_count,
                                                       size_t *out_source_unused);

/**
 * The source joint paired with target joint `target_joint` into *out_source_joint.
 * Errors: TENDON_ERR_NULL, TENDON_ERR_RANGE (target_joint ≥ the target's joint count),
 * TENDON_ERR_NOT_FOUND (the joint is unmatched; the message names it).
 */
TENDON_API tendon_status tendon_retarget_map_source_joint(const tendon_retarget_map *map,
                                                          size_t target_joint,
                                                          size_t *out_source_joint);

/**
 * Retarget `source_pose` (the source skeleton's joint count) into `out` (the target's), by the
 * formulas above. Allocates nothing; pure.
 * out must not overlap source_pose.
 * Errors: TENDON_ERR_NULL, TENDON_ERR_COUNT (a pose's joint count is not its skeleton's; the
 * message gives both), TENDON_ERR_ALIAS, and the poses' own checks (pose.h:
 * TENDON_ERR_OVERFLOW for a joint count whose byte size overflows, before the counts are
 * compared). Nothing is written on error.
 */
TENDON_API tendon_status tendon_retarget_pose(const tendon_retarget_map *map,
                                              const tendon_pose *source_pose, tendon_pose *out);

#ifdef __cplusplus
}
#endif
#endif
