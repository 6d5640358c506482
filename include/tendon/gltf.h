/** @file
 * tendon — glTF 2.0 import (an optional component: library tendon_gltf, CMake option
 * TENDON_BUILD_GLTF; it depends on jansson, the core library does not). docs/gltf.md.
 *
 * What a model becomes:
 *   - one tendon_skeleton holding **every node** of the file, scene roots first (the `scene`
 *     property's, else scene 0's, in order), then any other parentless nodes in index order,
 *     each followed by its subtree in DFS pre-order (parents[j] < j). Its rest pose is each
 *     node's TRS (a `matrix` node decomposed: translation, column lengths as scale with a
 *     negative x scale when the determinant is negative, the rotation of the normalised columns).
 *     Model matrices with no root matrix are therefore relative to the scene root and include
 *     non-joint ancestors; the skinned mesh node's own transform does not apply to skinning.
 *     Its joints are named from the nodes (docs/gltf.md, "Joint names"): the node's name, or
 *     node<index> without one; a repeat, in joint order, gets #2, #3, … (tendon's names are
 *     unique; the file's own stay tendon_gltf_node_name's).
 *   - each skin a tendon_skin_binding: palette entry k = the joint of node skin.joints[k], with
 *     skin.inverseBindMatrices (identity where absent). `skin.skeleton` changes nothing.
 *   - each animation a tendon_clip over the skeleton's joints: one track per channel, in channel
 *     order; a channel without a target node is skipped (tendon_gltf_notes says so). Outputs of
 *     float, or normalised byte / short (value / 127 or / 32767 clamped at −1; unsigned / 255,
 *     / 65535). WEIGHTS tracks carry the target node's index as their `joint`.
 *   - each mesh primitive's POSITION, NORMAL, TANGENT (VEC4 float), JOINTS_0 (u8/u16 →
 *     uint16), WEIGHTS_0 (float,
 *     unorm8, unorm16 → float, as stored: not renormalised) and morph target POSITION deltas,
 *     with the mesh's default weights.
 * Files: `.gltf` (buffers as data: URIs with base64, or files relative to the .gltf) and `.glb`.
 * Images are not read. One extension is implemented, KHR_mesh_quantization: POSITION and morph
 * target POSITION as 8- or 16-bit integers (normalised or not), NORMAL and TANGENT as normalised
 * ones, converted to float as stored (the dequantising transform is the file's: node or
 * inverse bind matrices). A file whose `extensionsRequired` names any other extension is
 * refused (TENDON_ERR_FORMAT naming it), as the glTF specification asks; extensions only used
 * are ignored.
 *
 * Malformed input (truncated, bad offsets, wrong types, out-of-range indices, missing buffers,
 * a cycle in the node graph, a node with two parents, …) gives TENDON_ERR_FORMAT with a message
 * naming the file, the object (e.g. `accessors[3]`) and the rule; never a crash or a read out
 * of bounds. Unreadable files give TENDON_ERR_IO.
 *
 * A loaded model is immutable: any number of threads may read it at once.
 */
#ifndef TENDON_GLTF_H
#define TENDON_GLTF_H

#include <stdint.h>

#include "clip.h"
#include "skeleton.h"

#ifdef __cplusplus
extern "C" {
#endif

/** A loaded model (tendon_gltf_load): opaque, immutable. */
typedef struct tendon_gltf tendon_gltf;

/**
 * Load a .gltf or .glb file (the format is told by the GLB magic, not the name). External
 * buffers are read relative to the file's directory, each only as far as its byteLength; the
 * file itself to at most 4 GiB − 1 bytes (a GLB's largest length), so a file that never ends
 * (a FIFO, /dev/zero) is refused rather than read until memory runs out; a regular file past
 * that length is refused by its size, without reading it.
 * Errors: TENDON_ERR_NULL, TENDON_ERR_IO (cannot read the file or a buffer), TENDON_ERR_FORMAT
 * (also: the file is longer than 4 GiB − 1 bytes; where size_t is 32-bit, TENDON_ERR_NOMEM past
 * 2 GiB),
 * the errors of tendon_skeleton_create / tendon_skin_binding_create / tendon_clip_create
 * (prefixed with the file and the object), TENDON_ERR_NOMEM. On error *out is NULL.
 */
TENDON_API tendon_status tendon_gltf_load(const char *path, tendon_gltf **out);

/**
 * Load from memory: `data[size]` is the .gltf JSON or the .glb bytes; `name` names it in
 * messages (NULL: "(memory)"); `base_dir` is where external buffers are looked up (NULL: none
 * allowed — a buffer with a file URI is then an error). data is not kept.
 */
TENDON_API tendon_status tendon_gltf_load_memory(const void *data, size_t size, const char *name,
                                                 const char *base_dir, tendon_gltf **out);

/** Free a model. NULL is a no-op. */
TENDON_API void tendon_gltf_destroy(tendon_gltf *gltf);

/** Notes about what was skipped ("animations[0].channels[2]: no target node: skipped\n"…); "" if none. */
TENDON_API const char *tendon_gltf_notes(const tendon_gltf *gltf);

/** The skeleton of every node (above). */
TENDON_API const tendon_skeleton *tendon_gltf_skeleton(const tendon_gltf *gltf);
/** Number of nodes in the file (= the skeleton's joint count). */
TENDON_API size_t tendon_gltf_node_count(const tendon_gltf *gltf);
/** The skeleton joint of glTF node `node`; −1 when out of range. */
TENDON_API int32_t tendon_gltf_node_joint(const tendon_gltf *gltf, size_t node);
/** The glTF node of skeleton joint `joint`; −1 when out of range. */
TENDON_API int32_t tendon_gltf_joint_node(const tendon_gltf *gltf, size_t joint);
/** The node's name, or NULL (unnamed, or out of range). */
TENDON_API const char *tendon_gltf_node_name(const tendon_gltf *gltf, size_t node);
/** The node's mesh index, or −1 (no mesh, or the node out of range). */
TENDON_API int32_t tendon_gltf_node_mesh(const tendon_gltf *gltf, size_t node);
/** The node's skin index, or −1 (no skin, or the node out of range). */
TENDON_API int32_t tendon_gltf_node_skin(const tendon_gltf *gltf, size_t node);

/** Number of skins in the file; 0 for NULL. */
TENDON_API size_t tendon_gltf_skin_count(const tendon_gltf *gltf);
/** Skin `skin` as a binding to the skeleton; NULL when out of range. */
TENDON_API const tendon_skin_binding *tendon_gltf_skin(const tendon_gltf *gltf, size_t skin);
/** The glTF nodes of skin.joints, [palette_count]; NULL when out of range or empty. */
TENDON_API const uint32_t *tendon_gltf_skin_nodes(const tendon_gltf *gltf, size_t skin);
/** The skin's name, or NULL (unnamed, or out of range). */
TENDON_API const char *tendon_gltf_skin_name(const tendon_gltf *gltf, size_t skin);

/** Number of animations in the file; 0 for NULL. */
TENDON_API size_t tendon_gltf_animation_count(const tendon_gltf *gltf);
/** Animation `index` as a clip; NULL when out of range. */
TENDON_API const tendon_clip *tendon_gltf_animation(const tendon_gltf *gltf, size_t index);
/** The animation's name, or NULL (unnamed, or out of range). */
TENDON_API const char *tendon_gltf_animation_name(const tendon_gltf *gltf, size_t index);
/**
 * The index of the first animation named `name`.
 * Errors: TENDON_ERR_NULL, TENDON_ERR_NOT_FOUND (the message names it).
 */
TENDON_API tendon_status tendon_gltf_find_animation(const tendon_gltf *gltf, const char *name,
                                                    size_t *out);

/** What one imported track (clip track i of an animation) came from. */
typedef struct tendon_gltf_channel {
    size_t channel;      /**< index in the animation's `channels` */
    size_t node;         /**< target node */
    tendon_track_path path; /**< the channel's target path */
} tendon_gltf_channel;

/** Track `track` of animation `anim`. Errors: TENDON_ERR_NULL, TENDON_ERR_RANGE. */
TENDON_API tendon_status tendon_gltf_animation_channel(const tendon_gltf *gltf, size_t anim,
                                                       size_t track, tendon_gltf_channel *out);
/**
 * How many channels animation `anim` has in the file: those imported as its clip's tracks and
 * those skipped (tendon_gltf_notes says which and why), so every tendon_gltf_channel.channel is
 * below it, and a channel index at or above the last imported one's may still name a skipped
 * channel. 0 when `gltf` is NULL or `anim` is out of range (no error is set). Pure: reads the
 * loaded file's counts.
 */
TENDON_API size_t tendon_gltf_animation_channel_count(const tendon_gltf *gltf, size_t anim);

/** One mesh primitive's vertex data, owned by the model. */
typedef struct tendon_gltf_primitive {
    size_t vertex_count;       /**< vertices (the POSITION accessor's count) */
    const float *positions;    /**< [3·vertex_count] */
    const float *normals;      /**< [3·vertex_count] or NULL */
    const uint16_t *joints;    /**< [4·vertex_count] JOINTS_0, or NULL */
    const float *weights;      /**< [4·vertex_count] WEIGHTS_0, or NULL */
    size_t target_count;       /**< morph targets */
    const float *const *target_positions; /**< [target_count], each [3·vertex_count] or NULL */
    const float *default_weights;         /**< [target_count]: mesh.weights, or zeros */
    /* appended (issue 12): fields are only ever appended */
    const float *tangents; /**< [4·vertex_count] TANGENT (x y z w, float, as stored), or NULL */
} tendon_gltf_primitive;

/** Number of meshes in the file; 0 for NULL. */
TENDON_API size_t tendon_gltf_mesh_count(const tendon_gltf *gltf);
/** Number of primitives of mesh `mesh`; 0 when out of range. */
TENDON_API size_t tendon_gltf_primitive_count(const tendon_gltf *gltf, size_t mesh);
/** Errors: TENDON_ERR_NULL, TENDON_ERR_RANGE (mesh or primitive out of range; names both). */
TENDON_API tendon_status tendon_gltf_get_primitive(const tendon_gltf *gltf, size_t mesh,
                                                   size_t primitive, tendon_gltf_primitive *out);

#ifdef __cplusplus
}
#endif
#endif
