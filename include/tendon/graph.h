/** @file
 * tendon — the animation graph: a blend tree over named parameters, and a crossfading state
 * machine over blend trees, both advanced by times the caller supplies (no clock is read).
 *
 * Seeds: 000 `blendTree.d.ts` (BlendTree: clip / lerp / oneDimensional nodes, parameters the
 * consumer names, per-node clocks, a bind pose, scratch claimed at construction) and 001
 * `stateMachine.ts` (AnimationStateMachine). Decisions and their reasons: docs/layers.md.
 *
 * The tree's leaves are **clips** (sampled with tendon_clip_sample) and **pose sources** (a
 * caller's function sampled at a time: procedural poses, another system's output, test
 * stand-ins); docs/layers.md. Every blend goes through tendon_pose_blend, so the arithmetic (and
 * its bitwise equality on every ISA) is that of blend.h, and clip sampling's is clip.h's.
 *
 * Objects allocate when created; evaluate / advance / set allocate nothing. An object is not
 * safe to use from two threads at once (it owns scratch poses and state); distinct objects are
 * independent.
 */
#ifndef TENDON_GRAPH_H
#define TENDON_GRAPH_H

#include "blend.h"
#include "clip.h"
#include "pose.h"

#ifdef __cplusplus
extern "C" {
#endif

/** The longest parameter or state name, in bytes without the terminating NUL. */
#define TENDON_GRAPH_NAME_MAX 63

/** The deepest a blend tree may be (levels below the root): evaluation recurses once per level,
 *  so the bound keeps the stack bounded whatever a description holds. */
#define TENDON_BLEND_TREE_MAX_DEPTH 256

/**
 * A pose source: write the pose at `time_sec` into `out` (out->joint_count is the tree's joint
 * count). It **must be a pure function of the time** (and of what `user` points at, unchanged
 * while the tree is used): the tree may evaluate it at any time, in any order, any number of
 * times. Channels it does not write keep what `out` held: the bind pose when the source is under
 * a lerp or 1-D node, the caller's pose when the source is the tree's root (as a clip sampler
 * leaves channels no track names untouched). It must not call back into the tree.
 * It runs in the caller's own floating-point environment (tendon/fpenv.h) and must return
 * with the environment it was called in.
 */
typedef void (*tendon_pose_sample_fn)(void *user, double time_sec, tendon_pose *out);

/** What a node of a blend tree is. */
typedef enum tendon_blend_node_kind {
    /** A leaf: `sample(user, clock, out)`, the clock being `clock`'s value or the frame time. */
    TENDON_BLEND_SOURCE = 0,
    /** blend(child a, child b, parameter) — the parameter clamped to [0, 1] by the blend. */
    TENDON_BLEND_LERP = 1,
    /** A 1-D blend space: children at increasing positions `at`, bracketed by the parameter. */
    TENDON_BLEND_ONE_DIMENSIONAL = 2,
    /** A leaf sampling a clip: tendon_clip_sample(clip, clock, target) (seed `clip` node). */
    TENDON_BLEND_CLIP = 3
} tendon_blend_node_kind;

/** One node of a tree description. Members a kind does not use are ignored. */
typedef struct tendon_blend_node {
    tendon_blend_node_kind kind; /**< which kind of node; it says which members below are read */
    /* TENDON_BLEND_SOURCE */
    tendon_pose_sample_fn sample; /**< required for a source */
    void *user;                   /**< handed to sample, never dereferenced by tendon */
    /** The clock: the parameter whose value is this source's own time in seconds, or NULL for
     *  the time evaluate is given (the frame clock). */
    const char *clock;
    /** TENDON_BLEND_CLIP (uses `clock` as a source does): the clip, borrowed (it must outlive the
     *  tree), of the tree's joint count. */
    const tendon_clip *clip;
    /* TENDON_BLEND_LERP and TENDON_BLEND_ONE_DIMENSIONAL */
    /** The blend parameter (required): lerp's weight, or the 1-D node's position. */
    const char *parameter;
    /** @{ TENDON_BLEND_LERP: node indices of the two children (a at weight 0, b at weight 1). */
    size_t a, b;
    /** @} */
    /** @{ TENDON_BLEND_ONE_DIMENSIONAL: child_count ≥ 1 children; children[i] is a node index
     *  and at[i] its position: finite, strictly increasing, neighbours at most DBL_MAX apart. */
    const size_t *children;
    const double *at;
    size_t child_count;
    /** @} */
} tendon_blend_node;

/** What tendon_blend_tree_create copies. */
typedef struct tendon_blend_tree_desc {
    /** [node_count] nodes referring to each other by index. Every node but the root is the
     *  child of exactly one node, the root of none, and every node is reachable from the root. */
    const tendon_blend_node *nodes;
    size_t node_count; /**< ≥ 1 */
    size_t root;       /**< index of the root node */
    size_t joint_count; /**< joints of every pose the tree blends (its clips', bind's, out's) */
    /** The bind pose (joint_count joints; copied), or NULL for one whose channels start at rest
     *  (translation 0, rotation (0,0,0,1), scale 1). Supply it whenever sources write only some
     *  channels (rotation-only clips), or the scratch poses blend zero translations in. */
    const tendon_pose *bind;
    /** The tier its clip nodes sample and its lerp / 1-D nodes blend on: TENDON_TIER_EXACT (0,
     *  the default of a zeroed description: every blend tendon_pose_blend, every clip
     *  tendon_clip_sample) or TENDON_TIER_F32 (tendon_pose_blend_f32, a slerp, and
     *  tendon_clip_sample_f32). Sources are the caller's and follow no tier. (Appended: fields
     *  are only appended.) */
    tendon_tier tier;
} tendon_blend_tree_desc;

/** A blend tree. Opaque; owns its scratch poses and its parameter values. */
typedef struct tendon_blend_tree tendon_blend_tree;

/**
 * Build a tree from `desc` (names, positions and the bind pose are copied; `user` pointers are
 * kept as they are). One pair of scratch poses per interior node is claimed here, so that
 * evaluation allocates nothing. Every parameter starts at 0.
 *
 * Errors (the message names the node and the rule):
 *   TENDON_ERR_NULL    desc, out, desc->nodes, a source's sample, a clip node's clip, a
 *                      lerp/1-D node's parameter, a 1-D node's children or at
 *   TENDON_ERR_RANGE   root or a child index ≥ node_count; node_count 0; child_count 0; a
 *                      node deeper than TENDON_BLEND_TREE_MAX_DEPTH
 *   TENDON_ERR_FORMAT  not a tree (a node with two parents, the root as a child, a cycle, a
 *                      node the root does not reach)
 *   TENDON_ERR_VALUE   an unknown kind; an empty name or one longer than TENDON_GRAPH_NAME_MAX;
 *                      a name used as both a blend parameter and a clock (the seed's rule: one
 *                      number doing both jobs is a rig that responds to the wrong dial); at[]
 *                      not finite, not strictly increasing, or two neighbours more than DBL_MAX
 *                      apart (their gap divides the weight: ∞ would make a NaN pose)
 *   TENDON_ERR_COUNT   bind->joint_count or a clip's tendon_clip_joint_count differs from
 *                      joint_count (checked here, so that sampling cannot fail per frame)
 *   TENDON_ERR_ALIAS   bind's arrays overlap each other (the pose checks of pose.h)
 *   TENDON_ERR_OVERFLOW, TENDON_ERR_NOMEM
 * On error *out is NULL.
 */
TENDON_API tendon_status tendon_blend_tree_create(const tendon_blend_tree_desc *desc,
                                                  tendon_blend_tree **out);

/** Free a tree. NULL is a no-op. */
TENDON_API void tendon_blend_tree_destroy(tendon_blend_tree *tree);

/** The tree's joint count; 0 for NULL. */
TENDON_API size_t tendon_blend_tree_joint_count(const tendon_blend_tree *tree);

/**
 * Set a parameter (a blend parameter or a clock) that some node declares. Allocates nothing.
 * A blend parameter is used as given: a lerp clamps it to [0, 1] (tendon_pose_blend), a 1-D
 * node takes its first child below the first position and its last above the last. ±∞ is
 * allowed (it clamps); NaN is refused (it would turn every joint NaN).
 * Errors: TENDON_ERR_NULL (tree, name), TENDON_ERR_NOT_FOUND (no node declares `name` — loud,
 * as the seed is, because a typo that silently does nothing looks like a broken animation; the
 * message lists the names the tree declares), TENDON_ERR_VALUE (value is NaN). On error nothing
 * changes.
 */
TENDON_API tendon_status tendon_blend_tree_set(tendon_blend_tree *tree, const char *name,
                                               double value);

/**
 * Read a parameter's current value into *out (0 until set).
 * Errors: TENDON_ERR_NULL, TENDON_ERR_NOT_FOUND (no node declares it).
 */
TENDON_API tendon_status tendon_blend_tree_get(const tendon_blend_tree *tree, const char *name,
                                               double *out);

/** How many parameter names the tree declares (blend parameters and clocks); 0 for NULL. */
TENDON_API size_t tendon_blend_tree_parameter_count(const tendon_blend_tree *tree);

/**
 * The name of declared parameter `index` (0 ≤ index < tendon_blend_tree_parameter_count, in the
 * order the nodes first name them), for tools and editors; *is_clock (may be NULL) says whether
 * it is a clock. NULL for a NULL tree or an index out of range. The string lives as the tree.
 */
TENDON_API const char *tendon_blend_tree_parameter_name(const tendon_blend_tree *tree,
                                                        size_t index, int *is_clock);

/**
 * Evaluate the whole tree at `time_sec` into `out`. Allocates nothing; a pure function of
 * time_sec, the parameters and the sources (and of `out` itself only for the channels a root
 * source leaves untouched).
 *
 *   source  sample(user, clock ? value of clock : time_sec, target)
 *   clip    tendon_clip_sample(clip, clock ? value of clock : time_sec, target): tracks clamp at
 *           their ends; channels no track drives keep what target holds
 *   lerp    A, B ← bind pose; evaluate a into A, b into B; target = blend(A, B, value)
 *   1-D     v = value; if v ≤ at[0]: child 0; if v ≥ at[n−1]: child n−1; if v == at[i]:
 *           child i alone; else the i with at[i] < v < at[i+1]:
 *           blend(child i, child i+1, (v − at[i]) / (at[i+1] − at[i]))   (in double)
 *           a single child is evaluated into A (from the bind pose) and copied to target, so
 *           an interior node always writes every channel.
 * where target is `out` for the root and a scratch pose of the parent otherwise.
 *
 * time_sec: seconds, any value but NaN (±∞ is handed to the sources as it is, and clips clamp
 * it at their ends).
 * out: tree's joint_count joints; must not be one of the tree's own poses.
 * Errors: TENDON_ERR_NULL (tree, out or its arrays), TENDON_ERR_COUNT (out's joint count
 * differs), TENDON_ERR_ALIAS (out is one of the tree's scratch poses), TENDON_ERR_VALUE
 * (time_sec NaN, refused before any node runs; nothing is written), and out's own checks
 * (pose.h: TENDON_ERR_OVERFLOW for a joint count whose byte size overflows, before the count is
 * compared). A refusal from the blend (impossible with the tree's own poses) is passed on.
 */
TENDON_API tendon_status tendon_blend_tree_evaluate(tendon_blend_tree *tree, double time_sec,
                                                    tendon_pose *out);

/* ---- state machine (seed 001 stateMachine.ts) --------------------------------------------- */

/** The parameters a state machine's transitions read (a read-only view for predicates). */
typedef struct tendon_parameters tendon_parameters;

/**
 * Look a parameter up: 1 and *out = its value when it has been set, 0 (and *out unchanged)
 * when it never was — so a predicate can tell "unset" from any number. Allocates nothing.
 * NULL parameters or name: 0.
 */
TENDON_API int tendon_parameters_get(const tendon_parameters *parameters, const char *name,
                                     double *out);

/**
 * A transition's condition: nonzero to take it. The consumer's own function over the
 * consumer's own parameters; it must not call back into the machine.
 * It runs in the caller's own floating-point environment (tendon/fpenv.h) and must return
 * with the environment it was called in.
 */
typedef int (*tendon_transition_predicate)(void *user, const tendon_parameters *parameters);

/** A state: a name and the tree that plays while it is active (borrowed, not owned). */
typedef struct tendon_state_desc {
    const char *name;        /**< unique among the machine's states; copied */
    tendon_blend_tree *tree; /**< borrowed: it must outlive the machine */
} tendon_state_desc;

/** A transition from `from` to `to`, crossfading over duration_sec, taken when `when` holds. */
typedef struct tendon_transition_desc {
    const char *from; /**< the name of the state it leaves */
    const char *to;   /**< the name of the state it enters */
    /** Seconds; finite. ≤ 0 switches at once (no fade, so no division by zero). */
    double duration_sec;
    /** NULL: always. */
    tendon_transition_predicate when;
    void *user; /**< handed to `when` */
} tendon_transition_desc;

/** What tendon_state_machine_create copies. */
typedef struct tendon_state_machine_desc {
    const tendon_state_desc *states; /**< ≥ 1; the first is the initial state */
    size_t state_count;              /**< entries of `states` */
    const tendon_transition_desc *transitions; /**< in priority order; may be NULL when 0 */
    size_t transition_count;                   /**< entries of `transitions` */
    size_t joint_count; /**< joints of every state's tree and of the poses evaluated */
    /** Bind pose for the two crossfade poses (copied), or NULL for rest. */
    const tendon_pose *bind;
    /** How many distinct parameter names `set` may hold; 0 means 32. */
    size_t parameter_capacity;
    /** The tier of its crossfade blend (TENDON_TIER_EXACT, 0, the default, or TENDON_TIER_F32);
     *  each state's tree evaluates on its own tree's tier. (Appended.) */
    tendon_tier tier;
} tendon_state_machine_desc;

/** A state machine. Opaque. */
typedef struct tendon_state_machine tendon_state_machine;

/**
 * Build a machine. States and trees are checked here, not when a transition fires: a
 * transition naming a state that was not given is refused (the message names it, in the seed's
 * words). Trees are borrowed: they must outlive the machine, and a tree may serve several
 * states. Allocates (the fade poses, the parameter table, the names); nothing later does.
 *
 * Errors:
 *   TENDON_ERR_NULL       desc, out, states, a state's name or tree, transitions (count > 0),
 *                         a transition's from or to
 *   TENDON_ERR_COUNT      state_count 0; a tree whose joint count differs from joint_count; a
 *                         bind pose whose joint count differs
 *   TENDON_ERR_NOT_FOUND  a transition names a state that was not given
 *   TENDON_ERR_VALUE      two states with one name (the seed's Map would silently keep the
 *                         last); an empty or too long name; a duration that is NaN or ±∞
 *   TENDON_ERR_ALIAS      bind's arrays overlap each other (the pose checks of pose.h)
 *   TENDON_ERR_OVERFLOW, TENDON_ERR_NOMEM
 * On error *out is NULL.
 */
TENDON_API tendon_status tendon_state_machine_create(const tendon_state_machine_desc *desc,
                                                     tendon_state_machine **out);

/** Free a machine (not its trees). NULL is a no-op. */
TENDON_API void tendon_state_machine_destroy(tendon_state_machine *machine);

/**
 * Set a parameter the predicates read. Any name is accepted (the machine cannot know which the
 * predicates read; the trees below still refuse names they do not declare). Allocates nothing:
 * a new name takes a slot of parameter_capacity.
 * Errors: TENDON_ERR_NULL, TENDON_ERR_VALUE (empty or longer than TENDON_GRAPH_NAME_MAX),
 * TENDON_ERR_RANGE (a new name when all parameter_capacity slots are taken; the message names
 * it and the capacity). NaN values are stored (a predicate decides what they mean).
 */
TENDON_API tendon_status tendon_state_machine_set(tendon_state_machine *machine, const char *name,
                                                  double value);

/** The parameters, for reading (never NULL for a machine; NULL for NULL). */
TENDON_API const tendon_parameters *
tendon_state_machine_parameters(const tendon_state_machine *machine);

/**
 * Advance by a step of dt_sec seconds (seed `advance`), in this order:
 *  1. when no fade runs, take the first transition (declaration order) out of the active state
 *     whose predicate holds: the state left becomes `leaving`, the target becomes active and
 *     **its clock is reset to 0** (the seed's code and cases; its comment says "resumes" —
 *     docs/layers.md), the fade starts at 0; a duration ≤ 0 switches at once;
 *  2. the active state's clock += dt;
 *  3. during a fade: the leaving state's clock += dt (a self-transition therefore advances its
 *     one clock by 2·dt), fade elapsed += dt — the frame that triggers a transition advances
 *     its fade too — and the fade ends when elapsed ≥ duration. A running fade is never
 *     interrupted or re-evaluated.
 * Allocates nothing. dt_sec: seconds, finite. 0 is allowed (a transition may still fire). A
 * negative step is accepted as the seed accepts it: it moves the clocks and the fade back (the
 * crossfade weight is clamped to [0, 1] by the blend); a fade ends only when its elapsed time
 * reaches its duration.
 * Errors: TENDON_ERR_NULL, TENDON_ERR_VALUE (dt_sec NaN or ±∞, or a finite step that could
 * take a clock past the largest double — twice the step added to the active or leaving state's
 * clock, or the step to the fade's, not finite; nothing changes).
 */
TENDON_API tendon_status tendon_state_machine_advance(tendon_state_machine *machine,
                                                      double dt_sec);

/**
 * The current pose into `out`: the active state's tree at the active clock, or, during a fade,
 * blend(leaving tree at its clock, active tree at its clock, fade_elapsed / fade_duration)
 * (tendon_pose_blend, so the weight is clamped to [0, 1]). The leaving and active trees are
 * evaluated into the machine's two fade poses, which start at the bind pose and keep what
 * sources leave untouched from one evaluation to the next, as the seed's do. Allocates nothing.
 * Errors: TENDON_ERR_NULL, TENDON_ERR_COUNT (out's joint count differs), TENDON_ERR_ALIAS (out
 * is one of the machine's fade poses), out's own checks (pose.h: TENDON_ERR_OVERFLOW, before the
 * count is compared), and whatever a tree's evaluation refuses.
 */
TENDON_API tendon_status tendon_state_machine_evaluate(tendon_state_machine *machine,
                                                       tendon_pose *out);

/** A snapshot of the machine's state (the seed's `current`, `transitioning` and its private
 *  fade state). Names point into the machine and live as long as it. */
typedef struct tendon_state_machine_info {
    const char *current; /**< the active state */
    const char *leaving; /**< the state being faded out, or NULL when no fade runs */
    int transitioning;   /**< leaving != NULL */
    /** Seconds the fade has run; meaningful while transitioning (after a fade: the last one's
     *  final value; 0 before any). */
    double fade_elapsed_sec;
    /** The fade's duration in seconds; meaningful while transitioning (as fade_elapsed_sec). */
    double fade_duration_sec;
} tendon_state_machine_info;

/** Fill *out. Errors: TENDON_ERR_NULL. */
TENDON_API tendon_status tendon_state_machine_get_info(const tendon_state_machine *machine,
                                                       tendon_state_machine_info *out);

/**
 * A state's own clock (seconds since it was last entered, 0 for one never entered) into *out.
 * Errors: TENDON_ERR_NULL, TENDON_ERR_NOT_FOUND (no such state).
 */
TENDON_API tendon_status tendon_state_machine_state_time(const tendon_state_machine *machine,
                                                         const char *state, double *out);

#ifdef __cplusplus
}
#endif
#endif
