// TypeScript declarations of wasm/tendon.mjs (.d.mts: the declarations of an .mjs) (docs/wasm.md, "The binding").

/** The seed's Pose: translation [3n], rotation [4n] (x y z w), scale [3n]. */
export interface Pose {
  translation: Float32Array;
  rotation: Float32Array;
  scale: Float32Array;
}

/** The seed's SpringSettings. maxOffsetM absent (or negative, or NaN): no limit. */
export interface SpringSettings {
  readonly frequencyHz: number;
  readonly damping: number;
  readonly maxOffsetM?: number;
}

/** The seed's SpringLink. */
export interface SpringLink extends SpringSettings {
  readonly restOffsetM: readonly [number, number, number];
}

/** The seed's SpringAnchor: writes the anchor's three floats at timeSec into out. */
export type SpringAnchor = (timeSec: number, out: Float32Array) => void;

/**
 * A batched anchor: called once per sample with every time the sample asks about (the seed's
 * grid), it writes out[3i .. 3i+2] for times[i]. Both arrays are views of module memory, valid
 * only during the call.
 */
export interface BatchedSpringAnchor {
  batch(times: Float64Array, out: Float32Array): void;
}

/** The seed cases' declarative anchors, evaluated inside the module. */
export type AnchorDescription =
  | { kind: 'constant'; value: readonly number[] }
  | { kind: 'linear'; origin: readonly number[]; velocity: readonly number[] }
  | { kind: 'sine'; amplitude: readonly number[]; frequencyHz: number; phase: number; center?: readonly number[] }
  | { kind: 'step'; at: number; from: readonly number[]; to: readonly number[] }
  | { kind: 'keys'; times: readonly number[]; values: readonly (readonly number[])[] };

export type AnyAnchor = SpringAnchor | BatchedSpringAnchor | ModuleAnchor | AnchorDescription;

/**
 * A tendon error: tendon's message, its tendon_status and that status's name. The binding throws
 * it itself, before calling the module, for: a count or index that is not a whole number in
 * [0, 2^32 − 1] (TENDON_ERR_COUNT / TENDON_ERR_RANGE); a buffer whose length does not match the
 * counts the call reads (TENDON_ERR_COUNT); a weight, time or setting that is not a number, or a
 * chain that is not an array (TENDON_ERR_VALUE). docs/wasm.md, "Argument checks in the binding".
 */
export class TendonError extends Error {
  /** message: tendon's; status: its tendon_status (e.g. 6); statusName: its name
   *  ('TENDON_ERR_VALUE'). */
  constructor(message: string, status: number, statusName: string);
  readonly status: number;
  readonly statusName: string;
}

/** Whether this engine validates WebAssembly SIMD128 (which module loadTendon picks). */
export function simd128Supported(): boolean;

export interface LoadOptions {
  /** 'auto' (default): simd128 when simd128Supported(), else scalar. */
  flavour?: 'auto' | 'simd128' | 'scalar';
  /** The module's bytes or URL, instead of dist/tendon-<flavour>.wasm beside tendon.mjs. */
  module?: ArrayBuffer | ArrayBufferView | URL | string;
}

export function loadTendon(options?: LoadOptions): Promise<Tendon>;

/** A pose in module memory; its arrays are views, re-made after the memory grows. */
export class ModulePose implements Pose {
  /** Made by the Tendon instance's create… / load… calls (or loadTendon), not with `new`. */
  private constructor();
  readonly jointCount: number;
  readonly translation: Float32Array;
  readonly rotation: Float32Array;
  readonly scale: Float32Array;
  /**
   * Copy a Pose's arrays in. translation, rotation and scale must hold exactly 3n, 4n and 3n
   * numbers (n = jointCount): anything else throws a TendonError (TENDON_ERR_COUNT) naming the
   * array, its length and the expected length, and nothing is copied.
   */
  set(pose: Pose): void;
  /** Copy the arrays out into a Pose, whose arrays must hold exactly 3n, 4n and 3n (as set). */
  copyTo(pose: Pose): void;
  dispose(): void;
}

/** Floats in module memory (a joint mask: a weight per joint, clamped to [0, 1]). */
export class ModuleFloats {
  /** Made by the Tendon instance's create… / load… calls (or loadTendon), not with `new`. */
  private constructor();
  readonly length: number;
  readonly array: Float32Array;
  dispose(): void;
}

/** A declarative anchor in module memory (Tendon.createAnchor). */
export class ModuleAnchor {
  /** Made by the Tendon instance's create… / load… calls (or loadTendon), not with `new`. */
  private constructor();
  dispose(): void;
}

/** An immutable clip in module memory (Tendon.createClip). */
export class ModuleClip {
  /** Made by the Tendon instance's create… / load… calls (or loadTendon), not with `new`. */
  private constructor();
  readonly jointCount: number;
  readonly duration: number;
  /** Seed sampleClip, exact tier: every TRS track at timeSec (NaN refused; ends clamp). */
  sample(timeSec: number, pose: ModulePose): void;
  /** The same in the float32 tier. */
  sampleF32(timeSec: number, pose: ModulePose): void;
  dispose(): void;
}

export interface TrackDescription {
  joint: number;
  path: 'translation' | 'rotation' | 'scale' | 'weights';
  /** Default 'LINEAR'. */
  interpolation?: 'STEP' | 'LINEAR' | 'CUBICSPLINE';
  times: ArrayLike<number>;
  /** Key-major; CUBICSPLINE: in-tangent, value, out-tangent per key (glTF). */
  values: ArrayLike<number>;
  /** Floats per value: 3 (translation, scale), 4 (rotation), any for weights. */
  width?: number;
}

/** An immutable skeleton in module memory (Tendon.createSkeleton). */
export class ModuleSkeleton {
  /** Made by the Tendon instance's create… / load… calls (or loadTendon), not with `new`. */
  private constructor();
  readonly jointCount: number;
  restPose(pose: ModulePose): void;
  dispose(): void;
}

export class ModuleSkinBinding {
  /** Made by the Tendon instance's create… / load… calls (or loadTendon), not with `new`. */
  private constructor();
  readonly paletteCount: number;
  dispose(): void;
}

/** uint16 in module memory (skinning joint indices). */
export class ModuleU16 {
  /** Made by the Tendon instance's create… / load… calls (or loadTendon), not with `new`. */
  private constructor();
  readonly length: number;
  readonly array: Uint16Array;
  dispose(): void;
}

export interface SkinJob {
  palette: ModuleFloats;
  paletteCount: number;
  vertexCount: number;
  /** 1..4, default 4. */
  influenceCount?: number;
  joints: ModuleU16;
  weights: ModuleFloats;
  positions: ModuleFloats;
  outPositions: ModuleFloats;
  normals?: ModuleFloats;
  outNormals?: ModuleFloats;
}

/** What a prepared mesh is made from (Tendon.createSkinMesh): copied in, checked once. */
export interface SkinMeshDescription {
  /** The palette size every joint index is checked against; apply's palette holds that many. */
  paletteCount: number;
  /** influenceCount palette indices a vertex, tightly packed: Uint8Array or Uint16Array (glTF
   *  JOINTS_0's two types), or a ModuleU16 (a glTF primitive's joints). */
  joints: Uint8Array | Uint16Array | ModuleU16;
  /** influenceCount weights a vertex, each finite (a NaN or ±∞ is refused naming the vertex
   *  and the influence); used as given (not normalised). */
  weights: Float32Array | ArrayLike<number> | ModuleFloats;
  /** x y z a vertex: vertexCount is positions.length / 3. */
  positions: Float32Array | ArrayLike<number> | ModuleFloats;
  /** x y z a vertex (exactly 3·vertexCount), or absent: the mesh skins positions only. */
  normals?: Float32Array | ArrayLike<number> | ModuleFloats;
  /** x y z w a vertex (exactly 4·vertexCount; glTF TANGENT), or absent. Needs normals. */
  tangents?: Float32Array | ArrayLike<number> | ModuleFloats;
  /** 1..4, default 4 (the per-vertex width of joints and weights). */
  influenceCount?: number;
}

/**
 * A prepared skin mesh (tendon_skin_mesh; docs/skinning.md, "The prepared mesh"): its own copy
 * of the inputs, repacked; the same bits as Tendon.skin on them. Outputs are ModuleFloats,
 * tightly packed (3, 3 and 4 floats a vertex); null or omitted: not written.
 */
export class ModuleSkinMesh {
  /** Made by the Tendon instance's create… / load… calls (or loadTendon), not with `new`. */
  private constructor();
  readonly vertexCount: number;
  readonly influenceCount: number;
  readonly paletteCount: number;
  /** What apply can write: positions always, normals / tangents if the mesh was made with them. */
  readonly outputs: { readonly positions: true; readonly normals: boolean; readonly tangents: boolean };
  /** Bytes the mesh owns in module memory. */
  readonly memoryBytes: number;
  /** Linear-blend skinning by palette (at least 16·paletteCount floats: Tendon.palette's output). */
  apply(palette: ModuleFloats, outPositions: ModuleFloats | null, outNormals?: ModuleFloats | null,
        outTangents?: ModuleFloats | null): void;
  /** apply for vertices [first, first + count) only (outputs are the whole arrays: vertex v at 3v, 4v); a
   *  range outside the mesh is a TendonError TENDON_ERR_RANGE. Any split gives apply's bits. */
  applyRange(first: number, count: number, palette: ModuleFloats, outPositions: ModuleFloats | null,
             outNormals?: ModuleFloats | null, outTangents?: ModuleFloats | null): void;
  /** Dual-quaternion skinning by dq (Tendon.paletteToDualQuat's output, 16·paletteCount floats). */
  applyDualQuat(dq: ModuleFloats, outPositions: ModuleFloats | null, outNormals?: ModuleFloats | null,
                outTangents?: ModuleFloats | null): void;
  applyDualQuatRange(first: number, count: number, dq: ModuleFloats, outPositions: ModuleFloats | null,
                     outNormals?: ModuleFloats | null, outTangents?: ModuleFloats | null): void;
  /** Idempotent; every method throws afterwards. */
  dispose(): void;
}

/**
 * A glTF animation (ModuleGltf.animations): a ModuleClip over the model's skeleton, owned by the
 * model (its dispose() does nothing; ModuleGltf.dispose() frees it).
 */
export interface GltfClip extends ModuleClip {
  /** The animation's name, or null. */
  readonly name: string | null;
  /** Its index in the file's animations. */
  readonly index: number;
  /** Tracks: one per imported channel (ModuleGltf.channel says which). */
  readonly trackCount: number;
  /**
   * The animation's channels in the file, imported and skipped (ModuleGltf.notes says which
   * were skipped and why): every ModuleGltf.channel(index, track).channel is below it.
   * tendon_gltf_animation_channel_count.
   */
  readonly channelCount: number;
}

/** A glTF skin: a binding to the model's skeleton (palette entry k = joint joints[k]). */
export interface GltfSkin {
  readonly name: string | null;
  /** Owned by the model, as its clips are. */
  readonly binding: ModuleSkinBinding;
  readonly paletteCount: number;
  /** The skeleton joint of each palette entry. */
  readonly joints: Uint32Array;
  /** The glTF node of each palette entry (skin.joints). */
  readonly nodes: Uint32Array;
  /** 16 floats a palette entry, column-major (identity where the file has none); the model's. */
  readonly inverseBind: ModuleFloats | null;
}

/**
 * One mesh primitive's vertex data, as views of the model's memory (read-only by contract:
 * the model is immutable; owned by the model). Absent attributes are null.
 */
export interface GltfPrimitive {
  readonly vertexCount: number;
  /** [3·vertexCount] POSITION (quantized ones converted to float as stored). */
  readonly positions: ModuleFloats;
  /** [3·vertexCount] NORMAL. */
  readonly normals: ModuleFloats | null;
  /** [4·vertexCount] JOINTS_0 as uint16 palette indices. */
  readonly joints: ModuleU16 | null;
  /** [4·vertexCount] WEIGHTS_0, as stored (not renormalised). */
  readonly weights: ModuleFloats | null;
  /** [4·vertexCount] TANGENT x y z w. */
  readonly tangents: ModuleFloats | null;
  /** Morph target POSITION deltas, [3·vertexCount] each (null where a target has none). */
  readonly targets: readonly (ModuleFloats | null)[];
  /** mesh.weights, or zeros: one per target. */
  readonly defaultWeights: Float32Array;
}

/** A primitive of a node that has a mesh and a skin: what Tendon.skin takes, and its binding. */
export interface GltfSkinnedPrimitive extends GltfPrimitive {
  readonly node: number;
  readonly mesh: number;
  readonly primitive: number;
  readonly skin: number;
  readonly binding: ModuleSkinBinding;
  readonly paletteCount: number;
  readonly joints: ModuleU16;
  readonly weights: ModuleFloats;
}

/**
 * A glTF 2.0 model loaded from memory (Tendon.loadGltf; tendon/gltf.h, docs/gltf.md). Every
 * object it hands out is the model's: usable with the binding's calls until dispose(), after
 * which each of them throws as a disposed object does.
 */
export class ModuleGltf {
  /** Made by the Tendon instance's create… / load… calls (or loadTendon), not with `new`. */
  private constructor();
  /** One skeleton of every node of the file (scene roots first, DFS pre-order). */
  readonly skeleton: ModuleSkeleton;
  /** The skeleton's parents (−1: a root) and joint names (unique: docs/gltf.md). */
  readonly parents: Int32Array;
  readonly jointNames: readonly string[];
  /** glTF node i: its name (or null), skeleton joint, mesh and skin (−1: none). */
  readonly nodes: readonly { name: string | null; joint: number; mesh: number; skin: number }[];
  readonly skins: readonly GltfSkin[];
  readonly animations: readonly GltfClip[];
  readonly animationNames: readonly (string | null)[];
  readonly meshes: readonly { primitives: readonly GltfPrimitive[] }[];
  /** Every primitive with JOINTS_0 and WEIGHTS_0 of every node with a mesh and a skin. */
  readonly skinnedPrimitives: readonly GltfSkinnedPrimitive[];
  /** What the importer skipped ("" if nothing). */
  readonly notes: string;
  /**
   * An animation by index (TendonError TENDON_ERR_RANGE outside) or by name (the first of that
   * name; TENDON_ERR_NOT_FOUND naming it).
   */
  animation(which: number | string): GltfClip;
  /** Which glTF channel, node and path track `track` of animation `anim` came from. */
  channel(anim: number, track: number): { channel: number; node: number;
                                         path: 'translation' | 'rotation' | 'scale' | 'weights' };
  /** Frees the model and everything it handed out. Idempotent. */
  dispose(): void;
}

/** A spring rig (Tendon.createSpringRig). */
export class ModuleSpringRig {
  /** Made by the Tendon instance's create… / load… calls (or loadTendon), not with `new`. */
  private constructor();
  readonly chainCount: number;
  readonly linkCount: number;
  /**
   * Rotations of the chains' joints into pose (null: not written); link positions returned
   * (out: at least 3·linkCount floats). Throws when the skeleton, a clip or the layer mask was
   * disposed.
   */
  sample(timeSec: number, pose: ModulePose | null, out?: Float32Array): Float32Array;
  chainFirstLink(chain: number): number;
  chainLinks(chain: number): SpringLink[];
  dispose(): void;
}

/**
 * A rig weight: a constant, or a pure function of the rig's time in seconds, called by the
 * library at every substep time of every sample (its value used as the blend's / the layer's
 * weight there, unchanged). Returning a non-number throws a TendonError (TENDON_ERR_VALUE) out
 * of the sample; an exception it throws propagates out of the sample.
 */
export type RigWeight = number | ((timeSec: number) => number);

export interface SpringRigDescription {
  skeleton: ModuleSkeleton;
  chains: readonly { joints: readonly number[]; settings: SpringSettings; anchorOffset?: readonly number[] }[];
  base?: { clip: ModuleClip; offsetSec?: number; loop?: boolean };
  blend?: { clip: ModuleClip; weight: RigWeight; loop?: boolean };
  layer?: { clip: ModuleClip; weight: RigWeight; mode?: 'additive' | 'override'; mask?: ModuleFloats; loop?: boolean };
  tier?: 'exact' | 'f32';
}

export class Tendon {
  /** Made by the Tendon instance's create… / load… calls (or loadTendon), not with `new`. */
  private constructor();
  /** 'simd128' or 'scalar': the module loaded. */
  readonly flavour: 'simd128' | 'scalar';
  /** The ISA dispatch uses inside the module ('simd128' or 'scalar'). */
  readonly isa: string;
  /** tendon_version(). */
  readonly version: string;
  readonly memory: WebAssembly.Memory;

  /** jointCount: a whole number in [0, 2^32 − 1]. Every method throws after dispose(). */
  createPose(jointCount: number): ModulePose;
  /** count: a whole number whose 4·count bytes fit in 2^32 − 1. */
  createFloats(count: number): ModuleFloats;
  createAnchor(description: AnchorDescription): ModuleAnchor;

  // Exact tier (the seed's bits), on module poses: zero-copy. t / weight: a number (NaN passes);
  // mask: exactly one weight per joint.
  blend(a: ModulePose, b: ModulePose, t: number, out: ModulePose): void;
  blendMasked(a: ModulePose, b: ModulePose, t: number, mask: ModuleFloats, out: ModulePose): void;
  add(base: ModulePose, delta: ModulePose, weight: number, out: ModulePose): void;
  addMasked(base: ModulePose, delta: ModulePose, weight: number, mask: ModuleFloats, out: ModulePose): void;
  // Float32 tier (docs/fast-tier.md).
  blendF32(a: ModulePose, b: ModulePose, t: number, out: ModulePose): void;
  blendMaskedF32(a: ModulePose, b: ModulePose, t: number, mask: ModuleFloats, out: ModulePose): void;
  blendNlerpF32(a: ModulePose, b: ModulePose, t: number, out: ModulePose): void;
  blendNlerpMaskedF32(a: ModulePose, b: ModulePose, t: number, mask: ModuleFloats, out: ModulePose): void;
  addF32(base: ModulePose, delta: ModulePose, weight: number, out: ModulePose): void;
  addMaskedF32(base: ModulePose, delta: ModulePose, weight: number, mask: ModuleFloats, out: ModulePose): void;
  setJoint(pose: ModulePose, joint: number, translation: ArrayLike<number>, rotation: ArrayLike<number>,
           scale: ArrayLike<number>): void;

  // The seed's functions on any Poses (plain ones are copied in and out).
  blendPoses(a: Pose, b: Pose, t: number, out: Pose): void;
  addPose(base: Pose, delta: Pose, weight: number, out: Pose): void;
  springSettleSec(settings: SpringSettings): number;
  springChainSettleSec(links: readonly SpringLink[]): number;
  sampleSpring(settings: SpringSettings, anchorAt: AnyAnchor, timeSec: number, out?: Float32Array): Float32Array;
  sampleSpringChain(links: readonly SpringLink[], rootAt: AnyAnchor, timeSec: number,
                    out?: Float32Array): Float32Array;

  /** Each track's values: exactly times.length · width floats (× 3 for CUBICSPLINE). */
  createClip(description: { jointCount: number; tracks: readonly TrackDescription[] }): ModuleClip;
  /** parents in DFS pre-order (−1: a root); names unique; rest: the rest pose (default: identity). */
  createSkeleton(description: { parents: ArrayLike<number>; names?: readonly string[]; rest?: Pose }): ModuleSkeleton;
  /** inverseBind: 16 floats a matrix (exactly 16·jointOf.length), column-major; omitted: derived from the rest pose. */
  createSkinBinding(skeleton: ModuleSkeleton, jointOf: ArrayLike<number>, inverseBind?: ArrayLike<number>): ModuleSkinBinding;
  /** count: a whole number whose 2·count bytes fit in 2^32 − 1. */
  createU16(count: number): ModuleU16;
  /** Pose → palette: model (at least 16·joints) is workspace, palette (at least 16·entries) the result. */
  palette(skeleton: ModuleSkeleton, binding: ModuleSkinBinding, pose: ModulePose, model: ModuleFloats,
          palette: ModuleFloats): void;
  /** Linear-blend skinning, tightly packed arrays, each at least as long as the counts read or written. */
  skin(job: SkinJob): void;
  /**
   * A prepared skin mesh: the inputs copied into the module (module objects and views of module
   * memory by address, anything else copied), every joint index and weight checked once — a
   * joint index ≥ paletteCount is a TendonError TENDON_ERR_RANGE naming the vertex, the
   * influence, the index and the palette size; a non-finite weight TENDON_ERR_VALUE naming the
   * vertex and the influence. dispose() it.
   */
  createSkinMesh(description: SkinMeshDescription): ModuleSkinMesh;
  /**
   * The palette's count matrices as dual quaternions, 16 floats an entry (real x y z w, dual
   * x y z w, the uniform scale, 7 zeros) into outDq (may be palette: in place), or into a new
   * ModuleFloats when omitted (returned; dispose() it). A mirror, non-uniform scale, shear or
   * non-finite element is a TendonError TENDON_ERR_VALUE naming the first such entry; nothing
   * is written then.
   */
  paletteToDualQuat(palette: ModuleFloats, count: number, outDq?: ModuleFloats): ModuleFloats;

  /**
   * A glTF 2.0 model from memory: the .glb bytes or the .gltf JSON (buffers in the BIN chunk or
   * data: URIs; a file URI is refused: there is no directory to read it from). options.name
   * names it in messages (default "(memory)"). A malformed model throws a TendonError carrying
   * the importer's message (TENDON_ERR_FORMAT, naming the object and the rule); not bytes: a
   * TypeError.
   */
  loadGltf(data: ArrayBuffer | ArrayBufferView, options?: { name?: string }): ModuleGltf;

  /** A spring rig: the clips, the skeleton and the layer mask must outlive it (sample throws otherwise). */
  createSpringRig(description: SpringRigDescription): ModuleSpringRig;

  /** Free the instance's scratch. */
  dispose(): void;
}
