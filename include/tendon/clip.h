/** @file
 * tendon — animation clips: keyframed tracks sampled as a pure function of time, and root motion.
 *
 * Seeds: 000 README (`sampleClip(clip, seconds, out)`: a pure function of a time you supply,
 * clamped at a track's ends, channels no track mentions left as found; root motion is two
 * calls, `extractRootMotion` and `stripRootMotion`; loops accumulate), the `blend.js` comment
 * (clip sampling slerps between keys with the same arithmetic as `blendPoses`) and 002 (which
 * side names the other: see docs/clips.md — in tendon **tracks name their joints**).
 *
 * Interpolation follows glTF 2.0 (docs/clips.md):
 *   key intervals are half-open, t_k ≤ t < t_k+1 (STEP at exactly t_k gives key k);
 *   t ≤ t_0 gives key 0's value and t ≥ t_last the last key's value, copied bit for bit
 *   (each track clamps at its own ends; a one-key track is constant);
 *   LINEAR, translation / scale / weights:  a + (b − a)·u  in double, rounded once to float,
 *   with u = (t − t_k) / (t_k+1 − t_k) in double;
 *   LINEAR rotation: tendon_quat_slerp(a, b, u) — the blend kernels' slerp (seed arithmetic:
 *   shortest arc, straight blend above dot 0.9995, result renormalised);
 *   CUBICSPLINE: Hermite with the out-tangent of key k and the in-tangent of key k+1, both
 *   multiplied by Δt = t_k+1 − t_k, in double; rotations normalised (4-component length).
 * Every ISA gives the scalar reference's bits (the interpolation kernels are in the table:
 * clip_lerp, clip_hermite, and quat_slerp for LINEAR rotations). The _f32 calls below are the
 * float32 tier of the same sampling.
 *
 * A clip is immutable after creation: any number of threads may sample one at once. Sampling
 * allocates nothing and keeps no state.
 */
#ifndef TENDON_CLIP_H
#define TENDON_CLIP_H

#include <stdint.h>

#include "pose.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What a track drives. */
typedef enum tendon_track_path {
    TENDON_PATH_TRANSLATION = 0, /**< 3 floats: the joint's translation (metres) */
    TENDON_PATH_ROTATION = 1,    /**< 4 floats: the joint's rotation, x y z w */
    TENDON_PATH_SCALE = 2,       /**< 3 floats: the joint's scale */
    TENDON_PATH_WEIGHTS = 3      /**< `width` floats: morph target weights of a mesh */
} tendon_track_path;

/** How a track interpolates between keys (glTF 2.0 animation sampler interpolation). */
typedef enum tendon_interpolation {
    TENDON_INTERP_STEP = 0,
    TENDON_INTERP_LINEAR = 1,
    TENDON_INTERP_CUBICSPLINE = 2
} tendon_interpolation;

/** One track, as tendon_clip_create copies it. */
typedef struct tendon_track_desc {
    /** The joint it drives (< the clip's joint_count); for WEIGHTS, any caller-chosen id. */
    uint32_t joint;
    tendon_track_path path;             /**< what it drives: translation, rotation, scale, weights */
    tendon_interpolation interpolation; /**< how values between keys are found */
    /** Floats per value: 3 (translation, scale), 4 (rotation), 1 to 65536 for weights. */
    size_t width;
    /** ≥ 1 keys. */
    size_t key_count;
    /** [key_count] seconds, finite and strictly increasing. */
    const float *times;
    /**
     * [key_count·width] values; CUBICSPLINE: [3·key_count·width], per key the in-tangent, the
     * value and the out-tangent (the glTF layout).
     */
    const float *values;
} tendon_track_desc;

/** A clip: a set of tracks over one joint count. Opaque, immutable. */
typedef struct tendon_clip tendon_clip;

/** What tendon_clip_create copies: the tracks of one clip. */
typedef struct tendon_clip_desc {
    /** The joint count of the poses it is sampled into. */
    size_t joint_count;
    size_t track_count; /**< entries of `tracks` */
    /** [track_count] tracks; may be NULL when track_count is 0. */
    const tendon_track_desc *tracks;
} tendon_clip_desc;

/**
 * Create a clip (everything is copied; desc and its arrays may be freed afterwards). Tracks
 * whose times are equal — the same key count and the same float bits, whether through one
 * `times` pointer or several — share one timeline: one copy of the times and one key search
 * when sampled. The values of a timeline's LINEAR and STEP tracks are stored key-major (key k
 * of every such track next to each other, then key k+1: docs/clips.md, "Layout").
 * Allocates: call at set-up.
 * Errors (the message names the track index and the rule):
 *   TENDON_ERR_NULL      desc, out, tracks (track_count > 0), a track's times or values
 *   TENDON_ERR_VALUE     an unknown path or interpolation; a width that does not fit the path;
 *                        key_count 0; a time that is not finite; times not strictly increasing;
 *                        two tracks driving the same path of the same joint; a track's times
 *                        or values not aligned to float; desc or desc->tracks not aligned to
 *                        its type
 *   TENDON_ERR_RANGE     a TRS track's joint ≥ joint_count
 *   TENDON_ERR_OVERFLOW, TENDON_ERR_NOMEM
 * On error *out is NULL.
 */
TENDON_API tendon_status tendon_clip_create(const tendon_clip_desc *desc, tendon_clip **out);

/** Free a clip. NULL is a no-op. */
TENDON_API void tendon_clip_destroy(tendon_clip *clip);

/** The duration: the latest key time of any track, and at least 0 (a clip starts at 0). 0 for NULL. */
TENDON_API double tendon_clip_duration(const tendon_clip *clip);
/** Number of tracks; 0 for NULL. */
TENDON_API size_t tendon_clip_track_count(const tendon_clip *clip);
/** The joint count the clip was made for; 0 for NULL. */
TENDON_API size_t tendon_clip_joint_count(const tendon_clip *clip);
/**@{*/
/**
 * Floats of track `track`'s sampled value (its width), and its offset into the output of
 * tendon_clip_sample_tracks; 0 when out of range.
 */
TENDON_API size_t tendon_clip_track_width(const tendon_clip *clip, size_t track);
TENDON_API size_t tendon_clip_track_offset(const tendon_clip *clip, size_t track);
/**@}*/
/** Total floats written by tendon_clip_sample_tracks (Σ widths); 0 for NULL. */
TENDON_API size_t tendon_clip_value_count(const tendon_clip *clip);
/**
 * Distinct timelines (tracks created with equal times share one: tendon_clip_create): the
 * number of entries of a cursor (tendon_clip_sample_cursor). 0 for NULL.
 */
TENDON_API size_t tendon_clip_timeline_count(const tendon_clip *clip);

/**
 * Sample every translation, rotation and scale track at `time_sec` into `pose` (seed
 * `sampleClip`): a pure function of the time. The channels (joint, path) no track drives are
 * left untouched; WEIGHTS tracks are not written here (tendon_clip_sample_tracks).
 *
 * time_sec: seconds on the clip's own axis, any finite value (each track clamps at its own
 * first and last key; nothing loops here — wrap the time yourself). −∞ and +∞ clamp like any
 * time before the first / after the last key. NaN is refused (TENDON_ERR_VALUE): there is no
 * key it selects.
 * pose: joint_count equal to the clip's.
 * Errors: TENDON_ERR_NULL, TENDON_ERR_COUNT (pose joint count differs), TENDON_ERR_VALUE (NaN
 * time), TENDON_ERR_ISA. Nothing is written on error.
 */
TENDON_API tendon_status tendon_clip_sample(const tendon_clip *clip, double time_sec,
                                            tendon_pose *pose);

/**
 * tendon_clip_sample with an optional caller-owned cursor that only speeds up forward play:
 * cursor[cursor_count] holds, per timeline, the key interval found last; each search first
 * tries that interval and the next one. **The result is tendon_clip_sample's, bit for bit,
 * whatever the cursor holds** (zeroed, stale, from another time, garbage): the interval that
 * contains a time is unique, so a wrong hint only costs the search it would have skipped. The
 * cursor is the only thing written besides the pose; one cursor per playing instance (two
 * threads must not share one).
 * cursor_count: at least tendon_clip_timeline_count(clip); cursor may be NULL when that is 0.
 * Errors: as tendon_clip_sample, plus TENDON_ERR_NULL (cursor), TENDON_ERR_COUNT
 * (cursor_count too small), TENDON_ERR_VALUE (cursor not aligned to uint32_t) and
 * TENDON_ERR_ALIAS (cursor sharing memory with the pose's arrays, which are written between
 * the cursor's writes).
 */
TENDON_API tendon_status tendon_clip_sample_cursor(const tendon_clip *clip, double time_sec,
                                                   uint32_t *cursor, size_t cursor_count,
                                                   tendon_pose *pose);

/**
 * Sample every track (weights included) at `time_sec` into out[value_count]: track i's value at
 * out + tendon_clip_track_offset(clip, i), in track order. Same rules and bits as
 * tendon_clip_sample. out must not overlap the clip (it cannot: the clip's data is private).
 * Errors: TENDON_ERR_NULL (clip; out when value_count > 0), TENDON_ERR_COUNT (out_count
 * smaller than tendon_clip_value_count), TENDON_ERR_VALUE (NaN time), TENDON_ERR_ISA.
 */
TENDON_API tendon_status tendon_clip_sample_tracks(const tendon_clip *clip, double time_sec,
                                                   float *out, size_t out_count);

/*
 * ---- The float32 tier (docs/clips.md, "The float32 tier") ---------------------------------
 *
 * The same sampling as the three calls above — the same key search, the same clamping at each
 * track's own ends, key values copied bit for bit on a key, outside the keys and for STEP,
 * channels no track drives untouched, the same errors — with float32 arithmetic between keys:
 *   u = (t − t_k) / (t_k+1 − t_k) computed in double exactly as the exact tier does, then
 *   rounded once to float: uf = (float)u ∈ [0, 1];
 *   LINEAR translation / scale / weights:  a + (b − a)·uf  in float;
 *   LINEAR rotation:  the float tier's slerp of the two keys by uf (tendon_quat_slerp_f32's
 *   arithmetic: shortest arc, straight blend above the float tier's threshold, normalised);
 *   CUBICSPLINE:  the exact tier's four Hermite weights h00, h10·Δt, h01, h11·Δt, computed
 *   in double from the double u and Δt, each rounded once to float (saturated at ±FLT_MAX);
 *   then p = ((h00·v_k + h10·b_k) + h01·v_k+1) + h11·a_k+1 in float, b_k the out-tangent of
 *   key k and a_k+1 the in-tangent of key k+1; rotations then normalised in float (1/√ of
 *   the 4-component length).
 * Being float arithmetic, b − a and the Hermite products overflow to ±∞ where the double tier
 * stays finite (keys beyond about ±1.7e38).
 * Every ISA gives the scalar reference's bits (finite input; NaN by class). Against the exact
 * tier (tests/test_clip_f32.c; docs/clips.md has the measured figures): LINEAR translations
 * and scales within 4 float ulps of the larger bracketing key; LINEAR rotations within 2.5e-5°,
 * and within 1e-4° where 0.9995 < |dot of the keys| ≤ 0.99988 (there the exact tier blends
 * straight, the seed's rule, and is itself up to 8e-5° from a true slerp; the float tier still
 * slerps).
 * The sampling uses the key-major layout tendon_clip_create builds (no extra memory: it is the
 * clip's one copy of the values). Allocates nothing, keeps no state.
 */

/** tendon_clip_sample in the float32 tier. Errors as tendon_clip_sample. */
TENDON_API tendon_status tendon_clip_sample_f32(const tendon_clip *clip, double time_sec,
                                                tendon_pose *pose);

/**
 * tendon_clip_sample_cursor in the float32 tier: the same cursor (one key interval per
 * timeline; it only speeds up forward play, and the result is tendon_clip_sample_f32's bit for
 * bit whatever it holds). Errors as tendon_clip_sample_cursor.
 */
TENDON_API tendon_status tendon_clip_sample_cursor_f32(const tendon_clip *clip, double time_sec,
                                                       uint32_t *cursor, size_t cursor_count,
                                                       tendon_pose *pose);

/** tendon_clip_sample_tracks in the float32 tier. Errors as tendon_clip_sample_tracks. */
TENDON_API tendon_status tendon_clip_sample_tracks_f32(const tendon_clip *clip, double time_sec,
                                                       float *out, size_t out_count);

/*
 * ---- Many times at once, a few joints (what the spring rig's anchors need) ----------------
 */

/**
 * Sample the tracks of `joints` at every one of `times` in one call — tendon_clip_sample at each
 * time, restricted to those joints' translation, rotation and scale tracks: out is a pose of
 * time_count × joint_count joints, time-major: joints[s] at times[i] is out's joint
 * i·joint_count + s. **Bit for bit tendon_clip_sample's values at each time**, on every ISA: the
 * same key search and factor per time, gathered across the joints *and the times* into the same
 * element-wise kernels (vectorised across times). Channels no track drives are left untouched
 * (fill `out` with the rest pose first, as a pose handed to tendon_clip_sample would hold it);
 * tracks of other joints are not read. Allocates nothing.
 *
 * times: [time_count] seconds, any order (each is clamped at each track's ends as
 * tendon_clip_sample clamps it); NaN refused. joints: [joint_count] strictly increasing, each
 * below the clip's joint count. time_count or joint_count 0: nothing to do (out must then have
 * 0 joints).
 * Errors: TENDON_ERR_NULL (clip; times, joints with a nonzero count; out or its arrays),
 * TENDON_ERR_COUNT (out->joint_count ≠ time_count·joint_count), TENDON_ERR_RANGE (a joint ≥ the
 * clip's joint count), TENDON_ERR_VALUE (joints not strictly increasing; a NaN time; misaligned
 * arrays), TENDON_ERR_ALIAS (times or joints sharing memory with out's arrays, which are written
 * while both are still read), TENDON_ERR_OVERFLOW, TENDON_ERR_ISA. Nothing is written on error.
 */
TENDON_API tendon_status tendon_clip_sample_times(const tendon_clip *clip, const double *times,
                                                  size_t time_count, const uint32_t *joints,
                                                  size_t joint_count, tendon_pose *out);

/** tendon_clip_sample_times in the float32 tier: tendon_clip_sample_f32's values at each time. */
TENDON_API tendon_status tendon_clip_sample_times_f32(const tendon_clip *clip, const double *times,
                                                      size_t time_count, const uint32_t *joints,
                                                      size_t joint_count, tendon_pose *out);

struct tendon_kernels;
/**@{*/
/** The two above through kernel table `k` (tendon_kernels_for(); NULL: the active table). */
TENDON_API tendon_status tendon_clip_sample_times_on(const struct tendon_kernels *k,
                                                     const tendon_clip *clip, const double *times,
                                                     size_t time_count, const uint32_t *joints,
                                                     size_t joint_count, tendon_pose *out);
TENDON_API tendon_status tendon_clip_sample_times_f32_on(const struct tendon_kernels *k,
                                                         const tendon_clip *clip,
                                                         const double *times, size_t time_count,
                                                         const uint32_t *joints,
                                                         size_t joint_count, tendon_pose *out);
/**@}*/

/** Root motion over an interval: apply it as position += R·translation, R = R·rotation. */
typedef struct tendon_root_motion {
    float translation[3]; /**< metres, in the root's own frame at from_sec */
    float rotation[4];    /**< x y z w, relative to the root's rotation at from_sec */
} tendon_root_motion;

/**
 * The most loops a root-motion time may be from 0: |time_sec| / duration must stay below 2^53.
 * At 2^53 loops the spacing of doubles near the time exceeds the clip's duration, so the time
 * has no phase left (every double there is a whole number of loops, or none is).
 */
#define TENDON_ROOT_MOTION_MAX_LOOPS 9007199254740992.0 /* 2^53 */

/**
 * How far the root joint travelled from `from_sec` to `to_sec` of the clip played as a **loop**
 * (seed `extractRootMotion`), in the root's own frame at from_sec:
 *
 *   with R(t) = (T(t), Q(t)) the root's sampled translation and rotation on [0, D] (D the
 *   duration) and Δ(a, b) = R(a)⁻¹ ∘ R(b) = (Q(a)⁻¹·(T(b) − T(a)), Q(a)⁻¹·Q(b)):
 *   same loop:           Δ(pf, pt)
 *   n loops later:       Δ(pf, D) ∘ Δ(0, D)^(n−1) ∘ Δ(0, pt)
 *   where pf, pt are the phases (t − D·⌊t/D⌋) and n the number of wraps between them. Whole
 *   loops are accumulated, never subtracted: a forward wrap answers a forward stride.
 *   to < from: the inverse of the motion from to_sec to from_sec, expressed in from_sec's frame.
 *   A clip of duration 0, or a root no track drives: identity. A root with a translation track
 *   but no rotation track is taken to keep the identity rotation.
 * Computed in double (composition by the seed's quaternion product), rounded once to float.
 * n is computed by exponentiation by squaring, so any accepted times take O(log n): at most
 * about 54 squarings, since each time is within TENDON_ROOT_MOTION_MAX_LOOPS loops of 0. Each
 * squaring rounds, so the error grows about linearly with n: a clip moving 2 m and turning 90°
 * a loop, whose exact answer after any multiple of 4 loops is no travel, is off by ~1e-3 m at
 * 4·10^12 loops, ~0.1 m at 4·10^14 and metres near 2^53 (measured) — far beyond any play
 * session, but not exact.
 *
 * **Extract without strip and the character moves twice**: the pose still carries the root's
 * travel. Call tendon_root_motion_strip on every sampled pose you apply this motion to.
 * Errors: TENDON_ERR_NULL, TENDON_ERR_RANGE (root_joint ≥ joint_count), TENDON_ERR_VALUE
 * (out not aligned to float; a time that is NaN or infinite; for a clip of positive duration, a time with
 * |time| / duration ≥ TENDON_ROOT_MOTION_MAX_LOOPS, including a quotient that overflows — e.g.
 * to_sec = DBL_MAX on a 0.5 s clip —, refused at once: such a time has no phase). On error
 * nothing is written.
 */
TENDON_API tendon_status tendon_root_motion_extract(const tendon_clip *clip, size_t root_joint,
                                                    double from_sec, double to_sec,
                                                    tendon_root_motion *out);

/**
 * Pin the root joint's translation and rotation in `pose` to the clip's values at time 0
 * (seed `stripRootMotion`): the travel then comes only from tendon_root_motion_extract. A
 * channel no track drives is left as it is. Scale is untouched.
 * Errors: TENDON_ERR_NULL, TENDON_ERR_COUNT (pose joint count differs), TENDON_ERR_RANGE.
 */
TENDON_API tendon_status tendon_root_motion_strip(const tendon_clip *clip, size_t root_joint,
                                                  tendon_pose *pose);

#ifdef __cplusplus
}
#endif
#endif
