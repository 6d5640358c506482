/** @file
 * tendon — the spring rig: secondary motion attached to a skeleton (hair, a coat, a tail), with
 * the anchors evaluated by the library and the result written into the pose.
 *
 * docs/springs.md, "The spring rig". A rig holds chains hung from joints of a tendon_skeleton
 * and a **pose source** that the library can evaluate at any time (a clip; a base blended toward
 * a second clip with an additive or override layer under a mask, with weights as functions of
 * time; a blend tree). Sampling at time t:
 *   1. **evaluate** (tendon_spring_rig_evaluate): every substep time of the chains' marches
 *      (time − lookback + n·step, n = 0 … substeps, and t itself: the times
 *      tendon_spring_chain_sample calls its root at) is evaluated in **one batched pass per
 *      substep grid**: only the tracks of the joints the anchors depend on (the anchor joints'
 *      parents and their ancestors, and an anchor joint a track drives) are sampled, at many
 *      times per kernel call (vectorised across times), layered with a weight per joint per
 *      time (tendon_kernels.pose_blend_weighted / pose_add_weighted), then only those joints'
 *      local and model matrices (one kernel call over many times); joints no track drives have
 *      the rest pose's matrices, computed once. Work goes in chunks of times of ~512 joints, so
 *      each chunk's stages run in the first cache levels (16 times at least: with more than 32
 *      such joints on a grid, a chunk and the workspace grow with them). Each chain's anchor is
 *         anchor = M(parent of J0) · (L(J0) · (offset, 1))
 *      (float32, each product in the written order ((m0·x + m4·y) + m8·z) + m12: L(J0) the
 *      anchor joint's local matrix, M its parent's model matrix; a root J0: L(J0)·offset),
 *      placed in the world by the root transform when there is one. Chains whose marches share
 *      a grid (equal lookback and substeps) share one evaluation;
 *   2. **march** (tendon_spring_rig_march): the existing chain march (tendon_spring_chain_sample
 *      on the batch path for chains with equal links), fed the evaluated anchors;
 *   3. **positions → rotations** (tendon_spring_chain_pose): each joint J_{k−1} of a chain is
 *      turned by the smallest rotation taking its rest direction toward J_k to the direction of
 *      J_k's sprung position; translations and scales are kept (bone lengths preserved); the last
 *      joint keeps its rest rotation. Written into the pose's local rotations, so
 *      tendon_pose_palette and skinning follow.
 *
 * **Bits.** The evaluation is bit for bit the single-time one (tendon_spring_rig_anchor, which
 * evaluates with the public calls: tendon_clip_sample, tendon_pose_blend, …, and
 * tendon_pose_model_matrices); the link positions are bit for bit tendon_spring_chain_sample's
 * with a root callback returning those anchors and the rig's links
 * (tendon_spring_rig_chain_links); on every ISA (tests/test_spring_rig.c). The tier
 * (TENDON_TIER_EXACT or TENDON_TIER_F32) chooses the clip sampling and blending calls, and the
 * bits follow it; matrices are float32 either way, and positions → rotations is computed in
 * double and rounded once (no kernel: the same code on every ISA).
 *
 * **Threads.** A rig is immutable after creation: any number of threads may sample one at once,
 * each with its own workspace — except with a blend-tree source, whose evaluation uses the
 * tree's own scratch (one thread at a time per tree, as tendon_blend_tree_evaluate). The
 * library starts no thread.
 *
 * Allocates only in tendon_spring_rig_create. Sampling allocates nothing and keeps no state
 * outside the caller's workspace.
 */
#ifndef TENDON_SPRING_RIG_H
#define TENDON_SPRING_RIG_H

#include <stdint.h>

#include "blend.h"
#include "clip.h"
#include "graph.h"
#include "skeleton.h"
#include "spring.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * A weight as a function of time, evaluated for many times in one call: write the weight at
 * times_sec[i] into out[i], i < count. It must be a pure function of each time (out[i] depends
 * on times_sec[i] alone; the times are a sample's substep times, before the time asked for, in
 * increasing order, in calls of any size). Each value is used as the blend's and the layer's own
 * `t` / `weight` argument, unchanged (the blend clamps it to [0, 1], the additive layer below
 * at 0). Batched so that a weight costs a loop, not a call, per substep time.
 * It runs in the caller's own floating-point environment (tendon/fpenv.h) and must return
 * with the environment it was called in.
 */
typedef void (*tendon_rig_weight_fn)(void *user, const double *times_sec, size_t count,
                                     double *out);

/** fn(user, …) when fn is non-NULL, else the constant `value` at every time. */
typedef struct tendon_rig_weight {
    tendon_rig_weight_fn fn; /**< NULL: the constant `value` */
    void *user;              /**< handed to `fn` */
    double value;            /**< the weight at every time when `fn` is NULL */
} tendon_rig_weight;

/** A clip played on the rig's clock: clip time = loop ? wrap(t + offset_sec) : t + offset_sec. */
typedef struct tendon_rig_clip {
    /** Borrowed (must outlive the rig), of the skeleton's joint count; NULL: not used. */
    const tendon_clip *clip;
    double offset_sec; /**< seconds added to the rig's time to give the clip's */
    /** Nonzero: wrapped into [0, duration): x − ⌊x/d⌋·d (0 when that rounds to d; a clip of
     *  duration 0 is sampled at 0). 0: as it is (the clip clamps at its ends). */
    int loop;
} tendon_rig_clip;

/** What the rig evaluates its anchors from. */
typedef enum tendon_rig_source_kind {
    /** Clips, layered (tendon_spring_rig_source): a function of time. */
    TENDON_RIG_SOURCE_CLIPS = 0,
    /**
     * A blend tree, evaluated at each substep time with its parameters (blend weights and
     * clocks) **held at their current values** over the whole lookback: the pose the tree
     * would give at each past time had the parameters always been what they are now. A
     * documented approximation (a parameter that moved during the last lookback — a second or
     * two — is seen as if it had not); exact when they did not move. The tree evaluates on its
     * own tier and whole (every joint: a tree has no per-joint evaluation).
     */
    TENDON_RIG_SOURCE_TREE = 1
    /*
     * A state machine is **not** a source: its pose at a past time depends on when transitions
     * fired and on the steps it was advanced by — its history, not the time — so it cannot be
     * evaluated at a time in the past. Drive the rig from the active state's tree (or the
     * clips), or anchor the chains with the callback form (tendon/spring.h), fed from poses the
     * engine recorded.
     */
} tendon_rig_source_kind;

/** How the layer combines with the base. */
typedef enum tendon_rig_layer_mode {
    /** tendon_pose_add (tendon_pose_add_masked with a mask): the layer is a delta. */
    TENDON_RIG_LAYER_ADDITIVE = 0,
    /** tendon_pose_blend (tendon_pose_blend_masked with a mask) toward the layer. */
    TENDON_RIG_LAYER_OVERRIDE = 1
} tendon_rig_layer_mode;

/**
 * The pose source. For TENDON_RIG_SOURCE_CLIPS, the pose at time t is, with the skeleton's rest
 * pose R and the tier's calls (tendon_clip_sample / tendon_pose_blend / tendon_pose_add /
 * tendon_pose_delta, or their _f32 twins):
 *   P ← R; base.clip:   sample base.clip at its clip time into P
 *   blend.clip:         Q ← R; sample blend.clip into Q; P ← blend(P, Q, blend_weight(t))
 *   layer.clip, ADDITIVE: D ← layer_reference or, without one, the identity pose (translation
 *                       0, rotation (0,0,0,1), scale 1); sample layer.clip into D; with a
 *                       reference D ← delta(layer_reference, D); P ← add(P, D, layer_weight(t),
 *                       layer_mask)
 *   layer.clip, OVERRIDE: L ← R; sample layer.clip into L; P ← blend(P, L, layer_weight(t),
 *                       layer_mask)
 * and finally **a joint no track of these clips drives keeps its rest transform bit for bit**
 * (the blends of a rest value with itself would return it within an ulp; the rig defines it as
 * exact, which is what lets it skip those joints: their matrices are the rest pose's).
 * tendon_spring_rig_source_pose evaluates exactly this for one time.
 */
typedef struct tendon_spring_rig_source {
    tendon_rig_source_kind kind; /**< clips (the members below it) or a tree (`tree`) */
    /* ---- TENDON_RIG_SOURCE_CLIPS ---- */
    tendon_rig_clip base;  /**< NULL clip: the rest pose */
    tendon_rig_clip blend; /**< NULL clip: no blend */
    tendon_rig_weight blend_weight; /**< the blend toward blend.clip, as a function of time */
    tendon_rig_clip layer; /**< NULL clip: no layer */
    tendon_rig_layer_mode layer_mode; /**< how the layer meets the base */
    tendon_rig_weight layer_weight;   /**< the layer's weight, as a function of time */
    /** NULL, or [joint_count] per-joint weights (tendon_bone_mask_*), copied. */
    const float *layer_mask;
    /** ADDITIVE only: NULL (layer.clip samples deltas), or the pose its full poses are deltas
     *  from (joint_count joints, copied). */
    const tendon_pose *layer_reference;
    /* ---- TENDON_RIG_SOURCE_TREE ---- */
    /** Borrowed; its joint count is the skeleton's. Evaluated (so used) by every sample. */
    tendon_blend_tree *tree;
} tendon_spring_rig_source;

/**
 * Where the skeleton is in the world at time t, as a pure function of t: write a 4×4
 * column-major affine matrix (bottom row 0 0 0 1) into out[16]. The chains then march in the
 * world: each anchor point p (model space) becomes ((m0·x + m4·y) + m8·z) + m12 … (float32),
 * and the link positions are world positions. A status other than TENDON_OK stops the sample
 * (returned, nothing written). The rest offsets stay as they are (model-space directions, not
 * turned with the root: the chains hang in the world as they hang in the rest pose).
 * It runs in the caller's own floating-point environment (tendon/fpenv.h) and must return
 * with the environment it was called in.
 */
typedef tendon_status (*tendon_rig_root_fn)(void *user, double time_sec, float out[16]);

/** One chain: anchor joint J0 and link joints J1 … Jn, a parent → child path. */
typedef struct tendon_spring_rig_chain {
    /** For messages; NULL: "chain <index>". Copied. */
    const char *name;
    /** [joint_count] joint names J0 … Jn (the skeleton must have names), or NULL to use
     *  `joints`. */
    const char *const *joint_names;
    /** [joint_count] joint indices J0 … Jn, when joint_names is NULL. */
    const uint32_t *joints;
    /** n + 1: at least 2 (one link). J_k's parent must be J_{k−1}, k = 1 … n. */
    size_t joint_count;
    /** The anchor, in J0's frame: J0's model matrix × (x, y, z, 1). {0,0,0}: J0's origin. */
    float anchor_offset[3];
    /** [settings_count] springs: 1 (every link), or n (link k drives J_k). Copied. */
    const tendon_spring_settings *settings;
    size_t settings_count; /**< 1 or n: entries of `settings` */
    /**
     * NULL: each link's rest offset from the skeleton's rest pose — J1's rest position minus the
     * rest anchor point, then J_k's minus J_{k−1}'s (model space, computed in double) — so the
     * chain hangs at rest exactly on its joints. Or [3·n] metres: link k's rest offset below link
     * k−1 (below the anchor for k = 1), as tendon_spring_link.rest_offset_m. Fixed in the march's
     * space either way (model space, or the world with a root transform).
     */
    const double *rest_offsets_m;
} tendon_spring_rig_chain;

/** What tendon_spring_rig_create copies. */
typedef struct tendon_spring_rig_desc {
    /** Borrowed: it must outlive the rig. */
    const tendon_skeleton *skeleton;
    const tendon_spring_rig_chain *chains; /**< [chain_count], ≥ 1 */
    size_t chain_count;                    /**< entries of `chains` */
    tendon_spring_rig_source source;       /**< what the anchors are evaluated from */
    /** The tier the clip sources are sampled and layered on (TENDON_TIER_EXACT = 0, the
     *  default, or TENDON_TIER_F32); a tree evaluates on its own. */
    tendon_tier tier;
    /**
     * The marches' lookback (tendon/spring.h): TENDON_SPRING_LOOKBACK_SEED = 0, the default (the
     * seed's, its chain root by the seed's 64 bisections — wrong past ~650 links);
     * TENDON_SPRING_LOOKBACK_CORRECTED_ROOT for the corrected root solver; SLOW_POLE for
     * damping ≥ 1 (with the corrected root).
     */
    tendon_spring_lookback lookback;
    /** Each march call's work budget in link-substeps; 0: TENDON_SPRING_MAX_WORK. */
    uint64_t max_work;
    /** NULL: the chains march in model space. */
    tendon_rig_root_fn root;
    void *root_user; /**< handed to `root` */
} tendon_spring_rig_desc;

/** A spring rig. Opaque, immutable (see "Threads" above). */
typedef struct tendon_spring_rig tendon_spring_rig;

/**
 * Build a rig: resolve and check every chain, compute the rest offsets, plan every chain's march
 * (its lookback and substeps), group chains onto shared substep grids and batches, and list the
 * tracks each grid's anchors depend on. Allocates.
 *
 * Errors (the message names the chain, the joint and the rule):
 *   TENDON_ERR_NULL       desc, out, skeleton, chains, a chain's joints / joint_names / settings,
 *                         a tree source's tree
 *   TENDON_ERR_NOT_FOUND  a joint name the skeleton does not have (or a skeleton without names)
 *   TENDON_ERR_RANGE      a joint index ≥ the joint count
 *   TENDON_ERR_VALUE      a chain of fewer than 2 joints, or of more joints than the skeleton
 *                         has; J_k whose parent is not J_{k−1} ("not
 *                         a parent → child path"); a joint that is a link of two chains; an
 *                         anchor joint that is, or hangs below, a link of a chain (its frame
 *                         would move with the springs); two chains from one anchor joint (the
 *                         pose step turns J0: each would overwrite the other's rotation; a
 *                         chain may hang below another chain's anchor joint, whose rotation
 *                         the pose step writes first); settings_count not 1 or n; a spring's
 *                         settings (tendon/spring.h's rules); an unknown tier, lookback, source
 *                         kind or layer mode; a layer reference with an override layer; a
 *                         non-finite anchor offset or rest offset; a march over the work budget
 *                         or the substep bound; desc, chains, or a chain's settings, joints,
 *                         joint_names or rest_offsets_m not aligned to its type
 *   TENDON_ERR_COUNT      a clip, tree, mask holder or reference of another joint count
 *   TENDON_ERR_OVERFLOW, TENDON_ERR_NOMEM
 * On error *out is NULL.
 */
TENDON_API tendon_status tendon_spring_rig_create(const tendon_spring_rig_desc *desc,
                                                  tendon_spring_rig **out);

/** Free a rig. NULL is a no-op. */
TENDON_API void tendon_spring_rig_destroy(tendon_spring_rig *rig);

/** Chains; 0 for NULL. */
TENDON_API size_t tendon_spring_rig_chain_count(const tendon_spring_rig *rig);
/** Links of every chain together (the floats of out_positions / 3); 0 for NULL. */
TENDON_API size_t tendon_spring_rig_link_count(const tendon_spring_rig *rig);
/** Chain `chain`'s links n (its joints are n + 1); 0 when out of range. */
TENDON_API size_t tendon_spring_rig_chain_link_count(const tendon_spring_rig *rig, size_t chain);
/** Joint k (0: the anchor joint) of chain `chain`; UINT32_MAX when out of range. */
TENDON_API uint32_t tendon_spring_rig_chain_joint(const tendon_spring_rig *rig, size_t chain,
                                                  size_t k);
/** Where chain `chain`'s links start in out_positions, in links; 0 when out of range. */
TENDON_API size_t tendon_spring_rig_chain_first_link(const tendon_spring_rig *rig, size_t chain);

/**
 * Chain `chain`'s links as the march uses them (settings and rest offsets) into
 * out[link_count]: tendon_spring_chain_sample with these links and a root returning the rig's
 * anchors gives the rig's link positions bit for bit.
 * Errors: TENDON_ERR_NULL, TENDON_ERR_RANGE (chain), TENDON_ERR_COUNT (out_count too small).
 */
TENDON_API tendon_status tendon_spring_rig_chain_links(const tendon_spring_rig *rig, size_t chain,
                                                       tendon_spring_link *out,
                                                       size_t out_count);

/**@{*/
/**
 * The number of substep grids (evaluations per sample) and grid g's time count (substeps + 2:
 * the pose evaluations each sample makes for it) and chain count; for reports. 0 when out of
 * range.
 */
TENDON_API size_t tendon_spring_rig_grid_count(const tendon_spring_rig *rig);
TENDON_API size_t tendon_spring_rig_grid_times(const tendon_spring_rig *rig, size_t grid);
/**@}*/
/** Chain `chain`'s anchor times per sample (its grid's: substeps + 2); 0 when out of range. */
TENDON_API size_t tendon_spring_rig_chain_times(const tendon_spring_rig *rig, size_t chain);
/** The joints grid g evaluates at every time: of the anchor joints' parents and their ancestors
 *  (and the anchor joints a track animates), those a track of the source drives or hangs them
 *  below one; the others are constant (the rest pose's matrices). */
TENDON_API size_t tendon_spring_rig_grid_joints(const tendon_spring_rig *rig, size_t grid);

/**
 * The workspace one sample needs, in bytes (any alignment: the slack is included). One per
 * thread sampling the rig at once; it also carries what tendon_spring_rig_evaluate hands to
 * tendon_spring_rig_march, and key-search hints that speed up forward play (they never change
 * the bits). Its contents belong to the rig that wrote them: handed to another rig (even one
 * created at a destroyed rig's address), a workspace is reset as a fresh one and holds no
 * evaluation. Between evaluations it may move (a buffer handed out at another offset): nothing
 * an evaluation reads is kept from an earlier one. tendon_spring_rig_march needs the workspace
 * its evaluation wrote, where it wrote it, and unwritten since: the march checks the header
 * (rig, time) and the substep times, not every anchor, so an evaluation into another workspace
 * that overlaps this one in between can go unnoticed (the march then returns TENDON_OK on the
 * overwritten anchors) or is refused as an evaluation overwritten.
 * Errors: TENDON_ERR_NULL.
 */
TENDON_API tendon_status tendon_spring_rig_workspace_size(const tendon_spring_rig *rig,
                                                          size_t *out_bytes);

/**
 * Step 1 of a sample: evaluate the source at every substep time of `time_sec` for every chain,
 * into the workspace (the anchors). time_sec: finite seconds (±∞ and NaN refused:
 * TENDON_ERR_VALUE). Calls the weight functions at every time of each grid whose anchors
 * depend on an animated joint (a grid whose anchors hang only from joints no track moves
 * evaluates no pose, and asks them nothing) and, with a root transform, the root once per time
 * of each grid.
 * Errors: TENDON_ERR_NULL (rig, workspace), TENDON_ERR_COUNT (workspace_bytes too small),
 * TENDON_ERR_VALUE (time NaN or ±∞; a looped clip whose offset_sec plus a grid time overflows),
 * the root transform's status, a tree evaluation's refusal, TENDON_ERR_ISA. On error the
 * workspace holds no evaluation (tendon_spring_rig_march refuses it).
 */
TENDON_API tendon_status tendon_spring_rig_evaluate(const tendon_spring_rig *rig, double time_sec,
                                                    void *workspace, size_t workspace_bytes);

/**
 * Steps 2 and 3: march every chain on the anchors tendon_spring_rig_evaluate left in the
 * workspace for the same time_sec (the same bits: −0 is not +0), then (pose non-NULL) positions
 * → rotations into `pose`.
 *
 * out_positions: NULL, or out_count ≥ 3·tendon_spring_rig_link_count floats: chain by chain
 * (tendon_spring_rig_chain_first_link), link by link, x y z — in model space, or in the world
 * with a root transform. pose: NULL, or the skeleton's joint count: the rotations of every
 * chain's J0 … Jn are written (tendon_spring_chain_pose), everything else is read (J0's
 * ancestors' local transforms give J0's frame; the links' translations and scales are kept;
 * the chains are taken by anchor joint, parents first, so a chain below another's anchor joint
 * reads it turned).
 * The pose should be the source's pose at time_sec (what the anchors came from); one it
 * differs from moves the chains' roots with it, not the anchors. At least one of the two.
 * Errors: TENDON_ERR_NULL (rig, workspace, both outputs NULL), TENDON_ERR_VALUE (the workspace
 * holds no evaluation of this rig at this time_sec: call tendon_spring_rig_evaluate first),
 * TENDON_ERR_COUNT (out_count, pose joint count), TENDON_ERR_ALIAS (an output overlaps the
 * workspace), TENDON_ERR_ISA. Nothing is written on error.
 */
TENDON_API tendon_status tendon_spring_rig_march(const tendon_spring_rig *rig, double time_sec,
                                                 void *workspace, size_t workspace_bytes,
                                                 float *out_positions, size_t out_count,
                                                 tendon_pose *pose);

/** tendon_spring_rig_evaluate then tendon_spring_rig_march: a whole sample. Errors: theirs. */
TENDON_API tendon_status tendon_spring_rig_sample(const tendon_spring_rig *rig, double time_sec,
                                                  void *workspace, size_t workspace_bytes,
                                                  float *out_positions, size_t out_count,
                                                  tendon_pose *pose);

/**
 * Chain `chain`'s anchors as the last tendon_spring_rig_evaluate of this workspace computed
 * them: out[3·i .. 3·i+2] at the chain's i-th substep time, i = 0 … substeps + 1 (the times
 * tendon_spring_chain_sample calls its root at, in that order); *out_times (may be NULL) gets
 * the times. For tests and tools.
 * Errors: TENDON_ERR_NULL, TENDON_ERR_RANGE (chain), TENDON_ERR_VALUE (no evaluation in the
 * workspace; out or out_times not aligned to its type), TENDON_ERR_COUNT (out_count <
 * 3·(substeps + 2), or time_count < substeps + 2), TENDON_ERR_ALIAS (out or out_times
 * overlapping the workspace).
 */
TENDON_API tendon_status tendon_spring_rig_evaluated_anchors(const tendon_spring_rig *rig,
                                                             const void *workspace,
                                                             size_t workspace_bytes, size_t chain,
                                                             float *out, size_t out_count,
                                                             double *out_times,
                                                             size_t time_count);

/**
 * The source's pose at one time, through the public calls (the definition above): the
 * reference the batched evaluation equals. pose: the skeleton's joint count. scratch: a second
 * pose of that joint count for the blend and the layer (NULL allowed when the source has
 * neither), overwritten; it must not share memory with pose. With a tree source this
 * evaluates the tree (its scratch). Allocates nothing. Errors: TENDON_ERR_NULL,
 * TENDON_ERR_COUNT, TENDON_ERR_VALUE (time NaN or ±∞; a looped clip whose offset_sec plus the
 * time overflows), TENDON_ERR_ALIAS (scratch sharing memory with pose, when the source needs
 * it), the calls' own.
 */
TENDON_API tendon_status tendon_spring_rig_source_pose(const tendon_spring_rig *rig,
                                                       double time_sec, tendon_pose *scratch,
                                                       tendon_pose *pose);

/**
 * Chain `chain`'s anchor at one time, by the single-time path: tendon_spring_rig_source_pose
 * into `scratch_pose` (with `scratch_pose2` as its scratch), tendon_pose_model_matrices into
 * `scratch_model` ([16·joint_count]), J0's local matrix from its transform in that pose, then
 * M(parent of J0) · (L(J0) · (offset, 1)) and the root transform, in float32 as the batched
 * evaluation computes them. Bit for bit the rig's anchor
 * at that time. Errors (named after this call and its arguments): TENDON_ERR_NULL,
 * TENDON_ERR_RANGE (chain), TENDON_ERR_COUNT, TENDON_ERR_VALUE, TENDON_ERR_ALIAS (scratch_pose2
 * sharing memory with scratch_pose), the root transform's status (its message wrapped with the
 * time, as tendon_spring_rig_evaluate does).
 */
TENDON_API tendon_status tendon_spring_rig_anchor(const tendon_spring_rig *rig, size_t chain,
                                                  double time_sec, tendon_pose *scratch_pose,
                                                  tendon_pose *scratch_pose2,
                                                  float *scratch_model, float out[3]);

/**
 * Positions → rotations for one chain (step 3 of a rig sample; usable on its own with the
 * callback form's link positions). joints: [joint_count] J0 … Jn, a parent → child path of the
 * skeleton (checked). positions: [3·n] where J1 … Jn should be — in model space, or in the world
 * when root_matrix (the skeleton's placement, [16] column-major affine) is given.
 *
 * Walking down the chain, in double (rounded once per written quaternion):
 *   F ← J0's parent frame: the product of the pose's local T·R·S down to it (identity for a
 *       root), preceded by root_matrix when given
 *   for k = 0 … n−1 (J_k, its child J_{k+1}):
 *     x  = F·t_k (J_k's position: its translation t_k in the parent frame)
 *     u  = R(r_k)·(s_k ⊙ t_{k+1})           the rest direction toward J_{k+1}, in F's frame
 *                                          (r_k: J_k's rest rotation, s_k: its scale in the pose)
 *     d  = A⁻¹·(p_{k+1} − x)                the sprung direction in F's frame (A: F's 3×3)
 *     S  = the smallest rotation taking u to d: (u×d, |u||d| + u·d) normalised; the identity
 *          when u or d is zero or not finite, or A is singular (**a link on its parent's
 *          position keeps its rest rotation: no NaN**); a half turn about the axis u × e (e
 *          the basis vector least aligned with u) when d is opposite u
 *     q_k = S·r_k, normalised, rounded to float and written as J_k's local rotation
 *     F  ← F·(t_k, q_k as written, s_k)
 *   J_n's local rotation ← its rest rotation.
 * Translations and scales are not written (bone lengths preserved), so J_{k+1} lands on the
 * ray toward p_{k+1}, at its own distance. No twist is added about the bone.
 * Errors: TENDON_ERR_NULL, TENDON_ERR_COUNT (pose joint count), TENDON_ERR_VALUE (fewer than 2
 * joints or more than the skeleton has, not a parent → child path, a misaligned joints,
 * positions or root_matrix), TENDON_ERR_RANGE, TENDON_ERR_ALIAS (positions or joints
 * overlapping the pose's rotations, which are written while both are still read). Nothing is
 * written on error.
 */
TENDON_API tendon_status tendon_spring_chain_pose(const tendon_skeleton *skeleton,
                                                  const uint32_t *joints, size_t joint_count,
                                                  const float *positions,
                                                  const float *root_matrix, tendon_pose *pose);

struct tendon_kernels;
/** With an explicit kernel table (tests, tools; NULL: the active table): the same bits. @{ */
TENDON_API tendon_status tendon_spring_rig_evaluate_on(const struct tendon_kernels *k,
                                                       const tendon_spring_rig *rig,
                                                       double time_sec, void *workspace,
                                                       size_t workspace_bytes);
TENDON_API tendon_status tendon_spring_rig_march_on(const struct tendon_kernels *k,
                                                    const tendon_spring_rig *rig, double time_sec,
                                                    void *workspace, size_t workspace_bytes,
                                                    float *out_positions, size_t out_count,
                                                    tendon_pose *pose);
/** @} */

#ifdef __cplusplus
}
#endif
#endif
