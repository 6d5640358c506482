// tendon for JavaScript: the WebAssembly build (docs/wasm.md, "The binding").
//
//   import { loadTendon } from '@tendon/wasm';        // or './wasm/tendon.mjs'
//   const tendon = await loadTendon();                  // the SIMD128 module where the engine has it
//   const a = tendon.createPose(64), b = tendon.createPose(64), out = tendon.createPose(64);
//   a.rotation.set(...); tendon.blend(a, b, 0.25, out); // zero-copy: views over module memory
//   out.dispose();
//
// Poses are the seed's layout (`Pose`: translation [3n], rotation [4n] x y z w, scale [3n], three
// Float32Arrays). A `ModulePose` (createPose) lives in the module's memory and its three arrays are
// views of it — no copy per call; the views are re-made whenever the memory has grown (growing
// detaches the old ones), so read `pose.translation` each time rather than keeping the array.
// The seed-named functions (blendPoses, addPose, sampleSpring, sampleSpringChain) also accept plain
// JavaScript Poses and copy them in and out.
//
// Every tendon error is thrown as a TendonError (an Error) carrying tendon's message and status.
// Objects made here are freed explicitly with dispose(); `tendon.dispose()` frees the instance's
// scratch (the module itself is garbage-collected with the Tendon object).

const HERE = new URL('.', import.meta.url);

/** A 27-byte module whose one function returns a v128: valid only where SIMD128 is. */
const SIMD128_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // \0asm, version 1
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b,       // type: () -> v128
  0x03, 0x02, 0x01, 0x00,                         // one function of type 0
  0x0a, 0x08, 0x01, 0x06, 0x00,                   // code: one body of 6 bytes, no locals
  0x41, 0x00, 0xfd, 0x0f,                         // i32.const 0; i8x16.splat
  0x0b,                                           // end
]);

/** Whether this engine validates WebAssembly SIMD128 (the loader's choice of module). */
export function simd128Supported() {
  try {
    return WebAssembly.validate(SIMD128_PROBE);
  } catch {
    return false;
  }
}

/** A tendon error: `message` is tendon's, `status` its tendon_status, `statusName` its name. */
export class TendonError extends Error {
  constructor(message, status, statusName) {
    super(message);
    this.name = 'TendonError';
    this.status = status;
    this.statusName = statusName;
  }
}

async function readModuleBytes(source) {
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return source;
  const url = source instanceof URL ? source : new URL(source, HERE);
  if (url.protocol === 'file:') {
    const { readFile } = await import('node:fs/promises');
    return readFile(url);
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`tendon: cannot fetch ${url}: ${response.status}`);
  return response.arrayBuffer();
}

/**
 * Load tendon. options.flavour: 'auto' (default: simd128 when simd128Supported(), else scalar),
 * 'simd128' or 'scalar'; options.module: the module's bytes or URL instead of
 * dist/tendon-<flavour>.wasm beside this file.
 */
export async function loadTendon(options) {
  options ??= {};
  let flavour = options.flavour ?? 'auto';
  if (flavour === 'auto') flavour = simd128Supported() ? 'simd128' : 'scalar';
  if (flavour !== 'simd128' && flavour !== 'scalar')
    throw new Error(`tendon: flavour "${flavour}" is not auto, simd128 or scalar`);
  if (flavour === 'simd128' && !simd128Supported())
    throw new Error('tendon: the simd128 module was asked for, and this engine has no SIMD128');
  const bytes = await readModuleBytes(options.module ?? new URL(`dist/tendon-${flavour}.wasm`, HERE));
  const module = await WebAssembly.compile(bytes);
  const t = new Tendon(flavour);
  t._moduleImports = WebAssembly.Module.imports(module);
  const instance = await WebAssembly.instantiate(module, t._imports());
  t._attach(instance);
  return t;
}

const EXACT = 0, F32 = 1, NLERP_F32 = 2;
const U32_MAX = 0xffffffff;

// ---- argument checks: everything crossing into wasm32 (whose size_t and uint32_t are 32 bits)
// is checked here, since a count of 2^32 + 1 would arrive as 1 ----------------------------------
/** A spring chain: an array of links. */
function checkChain(links, name) {
  if (!Array.isArray(links))
    throw new TendonError(`${name} is ${links === null ? 'null' : typeof links}; expected an array of SpringLink`,
                          6, 'TENDON_ERR_VALUE');
}
/** A count or an index: a whole number in [0, limit] (limit 2^32 − 1 unless smaller), else throws. */
function checkUint(value, name, { status = 'count', limit = U32_MAX, what = 'a whole number' } = {}) {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > limit) {
    const shown = typeof value === 'number' ? String(value)
      : value === undefined ? 'missing (undefined)' : `${typeof value} ${String(value)}`;
    throw new TendonError(`${name} is ${shown}; expected ${what} in [0, ${limit}]` +
                          (limit === U32_MAX ? ' (2^32 - 1, wasm32\'s uint32_t)' : ''),
                          status === 'count' ? 2 : 3,
                          status === 'count' ? 'TENDON_ERR_COUNT' : 'TENDON_ERR_RANGE');
  }
  return value;
}
/** A number (NaN and the infinities pass: the library has its answers for them), else throws. */
function checkNumber(value, name) {
  if (typeof value !== 'number')
    throw new TendonError(`${name} is ${value === undefined ? 'missing (undefined)'
                                          : `${typeof value} ${String(value)}`}; expected a number`,
                          6, 'TENDON_ERR_VALUE');
  return value;
}
/**
 * An array-like of numbers of exactly `length` (setJoint's vectors), else throws. Returns a copy
 * read once, element by element: the caller writes from the copy, so a getter that changes the
 * values (or disposes an object) between the check and the write has nothing left to change.
 */
function checkVector(v, length, name) {
  if (!v || typeof v.length !== 'number' || v.length !== length)
    throw new TendonError(`${name} has ${v && typeof v.length === 'number' ? v.length : 'no'} ` +
                          `elements; expected ${length} numbers`, 2, 'TENDON_ERR_COUNT');
  const copy = new Array(length);
  for (let i = 0; i < length; i++) copy[i] = checkNumber(v[i], `${name}[${i}]`);
  return copy;
}
/**
 * Throws when `out` is a typed array whose buffer was detached during the call — a view of module
 * memory (ModuleFloats.array) that an anchor's allocation grew: writes to it would vanish.
 */
function detachedOut(out, name) {
  if (ArrayBuffer.isView(out) && out.buffer.byteLength === 0)
    throw new TendonError(`${name}: out was a view of module memory that the anchor's ` +
                          'allocations grew, which detached it: the result could not be written ' +
                          'there; pass a plain Float32Array, or take ModuleFloats.array again ' +
                          'after the call', 6, 'TENDON_ERR_VALUE');
}
/** A name crossing into C: a string without a NUL (C would end it there), else throws. */
function checkName(name, what) {
  if (typeof name !== 'string')
    throw new TypeError(`tendon: ${what} is ${name === null ? 'null' : typeof name}; expected a ` +
                        'string');
  const at = name.indexOf('\0');
  if (at >= 0)
    throw new TendonError(`${what} holds a NUL character at index ${at}; a name crossing into ` +
                          'C ends at its first NUL, so it would name something else', 6,
                          'TENDON_ERR_VALUE');
  return name;
}
/** obj's fields `names` made read-only (the binding's bounds checks are built from them). */
function readOnly(obj, names) {
  for (const name of names)
    Object.defineProperty(obj, name, { value: obj[name], writable: false, enumerable: true,
                                       configurable: false });
  return obj;
}
/** A caller's buffer's length against what the call reads / writes, else throws. */
function checkLength(actual, expected, name, exact) {
  if (exact ? actual !== expected : actual < expected)
    throw new TendonError(`${name} holds ${actual} elements; expected ${exact ? '' : 'at least '}` +
                          `${expected}`, 2, 'TENDON_ERR_COUNT');
}
/**
 * A plain Pose's three arrays against n joints: translation 3n, rotation 4n, scale 3n, exactly
 * (a copy in or out of a module pose moves exactly that many floats), else throws.
 */
function checkPoseArrays(pose, n, name) {
  if (!pose || typeof pose !== 'object')
    throw new TypeError(`tendon: ${name}: ${pose === null ? 'null' : typeof pose} is not a Pose ` +
                        '(translation, rotation, scale)');
  const arrays = {}; // each read once: the caller uses these, not pose's (maybe getter) fields
  for (const [key, width] of [['translation', 3], ['rotation', 4], ['scale', 3]]) {
    const a = pose[key];
    if (!a || typeof a.length !== 'number')
      throw new TypeError(`tendon: ${name}: ${key} is not an array (a Pose has translation, ` +
                          'rotation and scale)');
    checkLength(a.length, width * n, `${name}: ${key} (${width} floats × ${n} joints)`, true);
    arrays[key] = a;
  }
  return arrays;
}
/** table[key] for a table's own keys only (not 'toString', 'constructor', ...), else undefined. */
function own(table, key) {
  return typeof key === 'string' && Object.hasOwn(table, key) ? table[key] : undefined;
}
const ANCHOR_KIND = { constant: 0, linear: 1, sine: 2, step: 3, keys: 4 };
const MODE_BATCH = 1, MODE_DECL = 2; // the glue's anchor modes (wasm/src/glue.c)
const MAX_NESTING = 32; // samples inside anchors inside samples: the deepest the binding allows
const SETTINGS_BYTES = 24, LINK_BYTES = 48;

class Tendon {
  constructor(flavour) {
    this.flavour = flavour;
    this._anchors = [];      // id -> the JavaScript anchor of a sample in progress
    this._tempAnchors = [];  // module anchors made for declarative descriptions, innermost last
    this._anchorEach = [];   // id -> true when _anchors[id] is a function (timeSec, out)
    this._anchorOuts = [];   // nesting depth -> the Float32Array(3) a function writes
    this._anchorDepth = 0;
    this._rigWeights = new Map(); // id -> {fn, name}: the spring rigs' weight functions
    this._rigWeightNext = 1;      // 0 is "the constant"
    this._buffer = null;
    this._U32 = undefined;
    this._disposed = false;
    this._failure = null;    // {error}: what a callback of the call in progress threw (_callOut)
    this._calls = 0;         // calls in progress that may call back into JavaScript
    this._deferred = [];     // frees asked for during such calls, done when the last returns
  }

  _imports() {
    const self = this;
    const wasi = {
      environ_sizes_get(countPtr, sizePtr) {
        self._u32()[countPtr >>> 2] = 0;
        self._u32()[sizePtr >>> 2] = 0;
        return 0;
      },
      environ_get() { return 0; },
      fd_write(fd, iovs, iovsLen, writtenPtr) {
        const u32 = self._u32(), u8 = new Uint8Array(self.memory.buffer);
        let text = '', n = 0;
        for (let i = 0; i < iovsLen; i++) {
          const p = u32[(iovs >>> 2) + 2 * i], len = u32[(iovs >>> 2) + 2 * i + 1];
          text += new TextDecoder().decode(u8.subarray(p, p + len));
          n += len;
        }
        (fd === 1 ? console.log : console.error)(text.replace(/\n$/, ''));
        self._u32()[writtenPtr >>> 2] = n;
        return 0;
      },
      fd_close() { return 0; },
      fd_seek() { return 70; /* ESPIPE */ },
      proc_exit(code) { throw new Error(`tendon: the module exited (${code})`); },
      // No preopened directories: wasi-libc's scan of them ends at the first EBADF, and opening
      // any path then fails inside the module (tendon_gltf_load's files; jansson's /dev/urandom,
      // whose hash seed then comes from the clock below). The binding loads from memory only.
      fd_prestat_get() { return 8; /* EBADF */ },
      sched_yield() { return 0; },
      // A clock that reads 0: jansson's hash seed is its only reader (the seed changes no
      // result: objects keep their order), so the module reads no clock of the machine.
      clock_time_get(id, precision, outPtr) {
        new DataView(self.memory.buffer).setBigUint64(outPtr >>> 0, 0n, true);
        return 0;
      },
    };
    // Any other WASI import (file calls linked with tendon_gltf_load, never reached without a
    // preopened directory): ENOSYS.
    for (const imp of this._moduleImports ?? [])
      if (imp.module === 'wasi_snapshot_preview1' && !(imp.name in wasi))
        wasi[imp.name] = () => 52; /* ENOSYS */
    // A callback (an anchor, a rig's weight function) that throws must not unwind through the
    // module: its stack pointer and the glue's nesting state would be left behind, and after a
    // few hundred such throws the instance traps for good. So every call out is caught here:
    // the first exception of the call in progress is kept (_fail), that call's remaining
    // answers are NaN without calling JavaScript again, and _callOut throws the exception once
    // the module has returned.
    const fillAnchors = (t, o, count, f, id) => {
      if (self._anchorEach[id]) {
        // a function (timeSec, out): called here once per time, in order, so a sample leaves
        // the module once instead of once per time (a call out costs 10-18 ns); out is a
        // Float32Array(3) of this nesting depth's (an unwritten float keeps an earlier value;
        // a spring sampled inside the function has its own), its floats copied into the
        // table. The views are re-made when a call has detached them: the function may call
        // the binding, which may grow memory.
        const depth = self._anchorDepth++;
        const out = self._anchorOuts[depth] ?? (self._anchorOuts[depth] = new Float32Array(3));
        try {
          let f64 = self._f64(), f32 = self._F32;
          for (let i = 0; i < count; i++) {
            f(f64[t + i], out);
            if (f32.length === 0) { f64 = self._f64(); f32 = self._F32; } // memory grew
            const k = o + 3 * i;
            f32[k] = out[0];
            f32[k + 1] = out[1];
            f32[k + 2] = out[2];
          }
        } finally {
          self._anchorDepth--;
        }
        return;
      }
      // The views are of module memory: a function that allocates from this tendon may grow
      // it, which detaches them and loses its answers. Then it is asked once more, on fresh
      // views (what it allocated is usually there to reuse by then); twice is refused.
      for (let attempt = 0; attempt < 2; attempt++) {
        const times = self._f64().subarray(t, t + count), out = self._F32.subarray(o, o + 3 * count);
        f.batch(times, out);
        if (out.length === count * 3) return;
      }
      throw new TendonError(
        `spring anchor: the batched anchor grew module memory during its call twice (it ` +
        'allocates from this tendon: createPose, createFloats, ...), which detaches its times ' +
        `and out, so its ${count} answers were lost; allocate before sampling`, 6,
        'TENDON_ERR_VALUE');
    };
    const js = {
      anchor_batch(id, timesPtr, count, outPtr) {
        const t = timesPtr >>> 3, o = outPtr >>> 2, f = self._anchors[id];
        if (self._failure) { self._f32().fill(NaN, o, o + 3 * count); return; }
        try {
          fillAnchors(t, o, count, f, id);
        } catch (e) {
          self._fail(e);
          self._f32().fill(NaN, o, o + 3 * count);
        }
      },
      // a spring rig's weight function (createSpringRig: blend.weight / layer.weight), called
      // with every substep time of a sample; its value at each written as the rig's weight there.
      // The views are re-fetched around each call: the function may call the binding (which may
      // grow the memory).
      rig_weight(id, timesPtr, count, outPtr) {
        const w = self._rigWeights.get(id), t = timesPtr >>> 3, o = outPtr >>> 3;
        for (let i = 0; i < count; i++) {
          let v = NaN;
          if (!self._failure) {
            const time = self._f64()[t + i];
            try {
              v = w.fn(time);
              if (typeof v !== 'number')
                throw new TendonError(`spring rig: ${w.name}(${time}) returned ` +
                                      `${v === null ? 'null' : typeof v} ${String(v)}; expected a number`,
                                      6, 'TENDON_ERR_VALUE');
            } catch (e) {
              self._fail(e);
              v = NaN;
            }
          }
          self._f64()[o + i] = v;
        }
      },
    };
    return { wasi_snapshot_preview1: wasi, tendon_js: js };
  }

  _attach(instance) {
    this._x = instance.exports;
    this._sp = this._x.__stack_pointer instanceof WebAssembly.Global ? this._x.__stack_pointer : null;
    if (typeof this._x._initialize !== 'function' || !(this._x.memory instanceof WebAssembly.Memory))
      throw new Error('tendon: options.module is not a tendon module (it exports no _initialize ' +
                      'or no memory)');
    this.memory = this._x.memory;
    this._x._initialize();
    this.version = this._string(this._x.tendon_version());
    const isa = this._scratch(4);
    this._check(this._x.tendon_isa_active(isa));
    this.isa = this._string(this._x.tendon_isa_name(this._u32()[isa >>> 2]));
    this._x.free(isa);
    this._settings = this._alloc(SETTINGS_BYTES);
    this._out3 = this._alloc(16);
    this._f64box = this._alloc(8);
    this._links = 0; this._linkCap = 0;
    this._chainOut = 0; this._chainOutCap = 0;
    this._chainDepth = 0;   // chain samples in progress (nested in anchor functions past 1)
    this._scratchPoses = new Map();
  }

  // ---- memory ---------------------------------------------------------------------------------
  // memory.grow detaches the old buffer, and a detached buffer's views have length 0: that is
  // the test (reading memory.buffer on every call costs more than the calls it serves).
  _views() {
    if (this._U32 === undefined || this._U32.length === 0) {
      this._buffer = this.memory.buffer;
      this._F32 = new Float32Array(this._buffer);
      this._F64 = new Float64Array(this._buffer);
      this._U32 = new Uint32Array(this._buffer);
    }
  }
  _f32() { this._views(); return this._F32; }
  _f64() { this._views(); return this._F64; }
  _u32() { this._views(); return this._U32; }
  _string(ptr) {
    ptr >>>= 0;
    const u8 = new Uint8Array(this.memory.buffer);
    let end = ptr;
    while (u8[end] !== 0) end++;
    return new TextDecoder().decode(u8.subarray(ptr, end));
  }
  _alloc(bytes) {
    // malloc's size_t is 32 bits: 2^32 bytes would arrive as 0, and a buffer sized from a
    // caller's length must never be smaller than what is then copied into it
    if (!Number.isInteger(bytes) || bytes < 0 || bytes > U32_MAX)
      throw new TendonError(`tendon: a buffer of ${bytes} bytes does not fit in wasm32's ` +
                            `memory (at most ${U32_MAX} bytes)`, 2, 'TENDON_ERR_COUNT');
    // >>> 0: wasm32 pointers are unsigned (above 2 GiB an i32 comes back negative)
    const p = this._x.malloc(bytes) >>> 0;
    if (!p) throw new TendonError(`tendon: out of module memory for ${bytes} bytes`, 8,
                                  'TENDON_ERR_NOMEM');
    return p;
  }
  _scratch(bytes) { return this._alloc(bytes); }
  _check(status) {
    if (status !== 0) {
      throw new TendonError(this._string(this._x.tendon_error_message()), status,
                            this._string(this._x.tendon_status_name(status)));
    }
  }
  _live() {
    if (this._disposed) throw new Error('tendon: this instance was disposed');
  }
  /**
   * obj's module address, when obj is a live `cls` made by this tendon; else throws (an object of
   * another loadTendon instance lives in another module's memory: its address means nothing here).
   */
  _own(obj, cls, name) {
    if (!(obj instanceof cls))
      throw new TypeError(`tendon: ${name} is not a ${cls.name}`);
    if (obj._tendon !== this)
      throw new TypeError(`tendon: ${name} is a ${cls.name} of another tendon instance (another ` +
                          'loadTendon); objects work only with the instance that made them');
    return obj._live();
  }
  /** Keep the first exception a callback threw during the call in progress (the imports). */
  _fail(error) {
    if (!this._failure) this._failure = { error };
  }
  /**
   * run() — a call into the module that may call back into JavaScript — with the imports'
   * catching around it: throws what a callback threw (before any status of the module's: its
   * answers after that were NaN), else returns after(status) (status without `after`). Objects
   * a callback disposed are freed when the outermost such call has returned and read its
   * results in `after` (the module, and `after`, may still be reading them).
   */
  _callOut(run, after) {
    const outer = this._callBegin();
    try {
      const status = run();
      outer.returned = true;
      if (this._failure) throw this._failure.error;
      return after ? after(status) : status;
    } finally {
      this._callEnd(outer);
    }
  }
  /**
   * _callOut's two halves, for the per-sample calls: before the call... (the module's stack
   * pointer and the glue's nesting depth are saved: see _callEnd)
   */
  _callBegin() {
    // each nested sample takes up to ~8 KiB of the module's 1 MiB stack (a 16-link chain's
    // copies); past ~130 the stack would run into the module's data
    if (this._calls >= MAX_NESTING)
      throw new TendonError(`tendon: samples nested ${MAX_NESTING} deep (an anchor or weight ` +
                            'function that samples again, without end?); the module\'s stack ' +
                            `allows ${MAX_NESTING}`, 3, 'TENDON_ERR_RANGE');
    const outer = { failure: this._failure, returned: false, sp: this._sp?.value,
                    depth: this._x.tendon_wasm_nesting() };
    this._failure = null;
    this._calls++;
    return outer;
  }
  /**
   * ...and after it, in a finally: the state back, the deferred frees of the outermost call,
   * then what a callback threw. When the module did not return (`outer.returned` unset: an
   * exception raised inside it — a JavaScript stack overflow in a nested sample — unwound its
   * frames without their cleanup), its stack pointer and the glue's nesting depth are put back
   * as they were when it was called, and that exception goes on.
   */
  _callEnd(outer) {
    const failure = this._failure;
    this._failure = outer.failure;
    if (!outer.returned) {
      if (this._sp) this._sp.value = outer.sp;
      this._x.tendon_wasm_set_nesting(outer.depth);
    }
    if (--this._calls === 0 && this._deferred.length) {
      const frees = this._deferred;
      this._deferred = [];
      for (const f of frees) f();
    }
    if (failure && outer.returned) throw failure.error;
  }

  // ---- poses ----------------------------------------------------------------------------------
  /** A pose of `jointCount` joints at rest, in module memory (dispose() it). */
  createPose(jointCount) {
    this._live();
    checkUint(jointCount, 'createPose: jointCount');
    return new ModulePose(this, jointCount);
  }

  /** Float32Array of `count` floats in module memory (a joint mask: one weight per joint). */
  createFloats(count) {
    this._live();
    return new ModuleFloats(this, count);
  }

  _posePtr(pose, name) {
    this._live();
    if (pose instanceof ModulePose && pose._tendon === this) return pose._live();
    throw new TypeError(`tendon: ${name} is not a pose made by this tendon's createPose ` +
                        '(use blendPoses / addPose to pass plain Float32Array poses)');
  }
  _maskPtr(mask, name = 'a mask / matrix / vertex array', length = -1, exact = false) {
    if (mask instanceof ModuleFloats && mask._tendon === this) {
      const p = mask._live();
      if (length >= 0) checkLength(mask.length, length, name, exact);
      return p;
    }
    throw new TypeError(`tendon: ${name} is not ModuleFloats of this tendon (createFloats)`);
  }
  /** A joint mask for a blend: one weight per joint of `pose` (its joint count, exactly). */
  _jointMask(mask, pose) {
    const n = pose instanceof ModulePose ? pose.jointCount : -1;
    return this._maskPtr(mask, `mask (one weight per joint, ${n} joints)`, n, true);
  }

  /** Exact tier (the seed's bits): out = slerp(a, b, clamp(t)) per joint. */
  blend(a, b, t, out) {
    this._live();
    checkNumber(t, 'blend: t');
    this._check(this._x.tendon_pose_blend(this._posePtr(a, 'a'), this._posePtr(b, 'b'), t,
                                          this._posePtr(out, 'out')));
  }
  blendMasked(a, b, t, mask, out) {
    this._live();
    checkNumber(t, 'blendMasked: t');
    this._check(this._x.tendon_pose_blend_masked(this._posePtr(a, 'a'), this._posePtr(b, 'b'), t,
                                                 this._jointMask(mask, out), this._posePtr(out, 'out')));
  }
  add(base, delta, weight, out) {
    this._live();
    checkNumber(weight, 'add: weight');
    this._check(this._x.tendon_pose_add(this._posePtr(base, 'base'),
                                        this._posePtr(delta, 'delta'), weight,
                                        this._posePtr(out, 'out')));
  }
  addMasked(base, delta, weight, mask, out) {
    this._live();
    checkNumber(weight, 'addMasked: weight');
    this._check(this._x.tendon_pose_add_masked(this._posePtr(base, 'base'),
                                               this._posePtr(delta, 'delta'), weight,
                                               this._jointMask(mask, out), this._posePtr(out, 'out')));
  }
  /** Float32 tier (docs/fast-tier.md): the same on every ISA, not the seed's bits. */
  blendF32(a, b, t, out) {
    this._live();
    checkNumber(t, 'blendF32: t');
    this._check(this._x.tendon_pose_blend_f32(this._posePtr(a, 'a'), this._posePtr(b, 'b'), t,
                                              this._posePtr(out, 'out')));
  }
  blendMaskedF32(a, b, t, mask, out) {
    this._live();
    checkNumber(t, 'blendMaskedF32: t');
    this._check(this._x.tendon_pose_blend_masked_f32(this._posePtr(a, 'a'), this._posePtr(b, 'b'),
                                                     t, this._jointMask(mask, out),
                                                     this._posePtr(out, 'out')));
  }
  blendNlerpF32(a, b, t, out) {
    this._live();
    checkNumber(t, 'blendNlerpF32: t');
    this._check(this._x.tendon_pose_blend_nlerp_f32(this._posePtr(a, 'a'), this._posePtr(b, 'b'),
                                                    t, this._posePtr(out, 'out')));
  }
  blendNlerpMaskedF32(a, b, t, mask, out) {
    this._live();
    checkNumber(t, 'blendNlerpMaskedF32: t');
    this._check(this._x.tendon_pose_blend_nlerp_masked_f32(
      this._posePtr(a, 'a'), this._posePtr(b, 'b'), t, this._jointMask(mask, out),
      this._posePtr(out, 'out')));
  }
  addF32(base, delta, weight, out) {
    this._live();
    checkNumber(weight, 'addF32: weight');
    this._check(this._x.tendon_pose_add_f32(this._posePtr(base, 'base'),
                                            this._posePtr(delta, 'delta'), weight,
                                            this._posePtr(out, 'out')));
  }
  addMaskedF32(base, delta, weight, mask, out) {
    this._live();
    checkNumber(weight, 'addMaskedF32: weight');
    this._check(this._x.tendon_pose_add_masked_f32(this._posePtr(base, 'base'),
                                                   this._posePtr(delta, 'delta'), weight,
                                                   this._jointMask(mask, out),
                                                   this._posePtr(out, 'out')));
  }
  /** setJoint (seed): one joint's transform written into a module pose. */
  setJoint(pose, joint, translation, rotation, scale) {
    this._live();
    this._posePtr(pose, 'pose'); // refused first, as before
    checkUint(joint, 'setJoint: joint', { status: 'range' });
    // read once (a getter runs here, never after): the pose's pointer is taken after them
    translation = checkVector(translation, 3, 'setJoint: translation');
    rotation = checkVector(rotation, 4, 'setJoint: rotation');
    scale = checkVector(scale, 3, 'setJoint: scale');
    const p = this._posePtr(pose, 'pose');
    const tmp = this._alloc(40), f32 = this._f32(), o = tmp >>> 2;
    try {
      for (let c = 0; c < 3; c++) { f32[o + c] = translation[c]; f32[o + 7 + c] = scale[c]; }
      for (let c = 0; c < 4; c++) f32[o + 3 + c] = rotation[c];
      this._check(this._x.tendon_pose_set_joint(p, joint, tmp, tmp + 12, tmp + 28));
    } finally {
      this._x.free(tmp);
    }
  }

  // ---- the seed's functions on plain JavaScript poses (copy in, call, copy out) ----------------
  _jointsOf(pose, name) {
    if (!pose || !pose.rotation || !pose.translation || !pose.scale)
      throw new TypeError(`tendon: ${name} is not a Pose (translation, rotation, scale)`);
    const n = pose.rotation.length / 4;
    if (!Number.isInteger(n) || pose.translation.length !== 3 * n || pose.scale.length !== 3 * n)
      throw new TendonError(`${name}: rotation holds ${pose.rotation.length} floats and ` +
                            `translation ${pose.translation.length}, scale ${pose.scale.length}; ` +
                            'expected 4n, 3n and 3n for n joints', 2, 'TENDON_ERR_COUNT');
    return n;
  }
  _scratchPose(slot, n) {
    let p = this._scratchPoses.get(slot);
    if (!p || p.jointCount !== n) {
      if (p) p.dispose();
      p = this.createPose(n);
      this._scratchPoses.set(slot, p);
    }
    return p;
  }
  _poseIn(slot, pose, n) {
    if (pose instanceof ModulePose) return pose;
    const p = this._scratchPose(slot, n);
    p.set(pose);
    return p;
  }
  _poseCall(fn, a, b, t, out, names) {
    const n = this._jointsOf(out, names[2]);
    if (this._jointsOf(a, names[0]) !== n || this._jointsOf(b, names[1]) !== n)
      throw new TendonError(`${names[0]}, ${names[1]} and ${names[2]} have different joint counts`,
                            2, 'TENDON_ERR_COUNT');
    const ma = this._poseIn('a', a, n), mb = this._poseIn('b', b, n);
    const mo = out instanceof ModulePose ? out : this._scratchPose('out', n);
    fn.call(this, ma, mb, t, mo);
    if (mo !== out) mo.copyTo(out);
  }
  /** Seed blendPoses(a, b, t, out), exact tier: any Poses (copied in and out when not module poses). */
  blendPoses(a, b, t, out) { this._poseCall(this.blend, a, b, t, out, ['a', 'b', 'out']); }
  /** Seed addPose(base, delta, weight, out), exact tier. */
  addPose(base, delta, weight, out) {
    this._poseCall(this.add, base, delta, weight, out, ['base', 'delta', 'out']);
  }

  // ---- springs --------------------------------------------------------------------------------
  _writeSettings(s, at, name = 'settings') {
    if (!s || typeof s !== 'object') throw new TypeError(`tendon: ${name} is not SpringSettings`);
    const f = s.frequencyHz, d = s.damping, m = s.maxOffsetM;
    // the messages are made only on a failure (every sample passes here)
    if (typeof f !== 'number') checkNumber(f, `${name}.frequencyHz`);
    if (typeof d !== 'number') checkNumber(d, `${name}.damping`);
    if (m !== undefined && typeof m !== 'number') checkNumber(m, `${name}.maxOffsetM`);
    const f64 = this._f64(), o = at >>> 3;
    f64[o] = f;
    f64[o + 1] = d;
    f64[o + 2] = m === undefined ? -1 : m;
  }
  _writeLinks(links_in) {
    // every link read once into a plain copy, settings checked, before anything is written (a
    // getter runs here and never while the buffer is filled)
    const links = [];
    for (let i = 0, n = links_in.length; i < n; i++) {
      const l = links_in[i];
      if (!l || typeof l !== 'object') throw new TypeError(`tendon: links[${i}] is not a SpringLink`);
      const restOffsetM = checkVector(l.restOffsetM, 3, `links[${i}].restOffsetM`);
      const frequencyHz = checkNumber(l.frequencyHz, `links[${i}].frequencyHz`);
      const damping = checkNumber(l.damping, `links[${i}].damping`);
      const maxOffsetM = l.maxOffsetM;
      if (maxOffsetM !== undefined) checkNumber(maxOffsetM, `links[${i}].maxOffsetM`);
      links.push({ restOffsetM, frequencyHz, damping, maxOffsetM });
    }
    const need = links.length * LINK_BYTES;
    if (need > this._linkCap) {
      if (this._links) this._x.free(this._links);
      this._links = this._alloc(need);
      this._linkCap = need;
    }
    for (let i = 0; i < links.length; i++) {
      const l = links[i], at = this._links + i * LINK_BYTES;
      this._writeSettings(l, at);
      const f64 = this._f64(), o = (at >>> 3) + 3;
      f64[o] = l.restOffsetM[0]; f64[o + 1] = l.restOffsetM[1]; f64[o + 2] = l.restOffsetM[2];
    }
    this._linksWritten = links.length;
    return this._links;
  }
  /** springSettleSec (seed). */
  springSettleSec(settings) {
    this._live();
    this._writeSettings(settings, this._settings);
    this._check(this._x.tendon_spring_settle_sec(this._settings, this._f64box));
    return this._f64()[this._f64box >>> 3];
  }
  /** springChainSettleSec (seed). */
  springChainSettleSec(links) {
    this._live();
    checkChain(links, 'springChainSettleSec: links');
    const p = links.length ? this._writeLinks(links) : this._links || this._f64box;
    const count = links.length ? this._linksWritten : 0; // what _writeLinks read, not re-read
    this._check(this._x.tendon_spring_chain_settle_sec(p, count, this._f64box));
    return this._f64()[this._f64box >>> 3];
  }

  /**
   * An anchor evaluated inside the module, from its description (the seed cases' kinds):
   * {kind:'constant', value}, {kind:'linear', origin, velocity}, {kind:'sine', amplitude,
   * frequencyHz, phase, center}, {kind:'step', at, from, to}, {kind:'keys', times, values}.
   * Returns a ModuleAnchor to pass wherever an anchor goes (dispose() it).
   */
  createAnchor(description) {
    this._live();
    return new ModuleAnchor(this, description);
  }

  // The glue's (mode, handle) for an anchor, without a closure per sample (the springs' hot
  // path): _anchorOpen returns the handle and leaves the mode in this._anchorMode and what to
  // undo in this._anchorKind (0 nothing, 1 a JavaScript anchor's entry, 2 a declarative
  // description's temporary module anchor), which the caller reads at once (a nested sample sets
  // them again); once the call is made, _anchorClose(kind) undoes it — by the kind reported, not
  // by what the anchor object looks like by then. Re-entrant: an anchor function that samples a
  // spring itself opens and closes its own above this one's.
  _anchorOpen(anchor) {
    if (anchor instanceof ModuleAnchor) {
      this._anchorMode = MODE_DECL;
      this._anchorKind = 0;
      return this._own(anchor, ModuleAnchor, 'the anchor');
    }
    // A function (timeSec, out) goes through the batched mode too, one time at a time on this
    // side (anchor_batch): the glue asks for every time of the sample's grid in one call out of
    // the module, and the library reads the answers from its table; the function sees the same
    // times in the same order as when the library called out per time (what the binding did
    // before); a time off the grid is asked one by one.
    // (a {batch} object is kept whole and its batch called as a method: `this` is the object)
    let each = false;
    if (typeof anchor === 'function') { this._anchorMode = MODE_BATCH; each = true; }
    else if (anchor && typeof anchor.batch === 'function') { this._anchorMode = MODE_BATCH; }
    else if (anchor && typeof anchor.kind === 'string') {
      const m = this.createAnchor(anchor);
      this._tempAnchors.push(m);
      this._anchorMode = MODE_DECL;
      this._anchorKind = 2;
      return m._live();
    } else {
      throw new TypeError('tendon: an anchor is a function (timeSec, out), {batch(times, out)}, ' +
                          'a ModuleAnchor or a declarative {kind, ...}');
    }
    this._anchors.push(anchor);
    this._anchorEach.push(each);
    this._anchorKind = 1;
    return this._anchors.length - 1;
  }
  /** Undo _anchorOpen, by the kind it reported (not by what the anchor looks like now). */
  _anchorClose(kind) {
    if (kind === 1) {
      this._anchors.pop();
      this._anchorEach.pop();
    } else if (kind === 2) {
      this._tempAnchors.pop().dispose();
    }
  }

  /**
   * Seed sampleSpring(settings, anchorAt, timeSec, out): out (3 floats; a new Float32Array when
   * omitted) is where the mass sits at timeSec. anchorAt: a function (timeSec, out) called per
   * anchor time; {batch(times, out)} called once with every time (Float64Array) to fill
   * out[3·i..] (Float32Array, a view of module memory valid during the call); or a module anchor.
   */
  sampleSpring(settings, anchorAt, timeSec, out = new Float32Array(3)) {
    this._live();
    checkNumber(timeSec, 'sampleSpring: timeSec');
    if (!(out instanceof Float32Array || out instanceof Float64Array || Array.isArray(out)))
      throw new TypeError('tendon: sampleSpring: out is not a Float32Array, a Float64Array or an ' +
                          'array');
    if (out.length < 3)
      throw new TendonError(`sampleSpring: out holds ${out.length} elements; expected at least 3`,
                            2, 'TENDON_ERR_COUNT');
    this._writeSettings(settings, this._settings);
    let st, kind = 0;
    const outer = this._callBegin();
    try {
      const handle = this._anchorOpen(anchorAt), mode = this._anchorMode;
      kind = this._anchorKind;
      st = this._x.tendon_wasm_spring_sample(this._settings, mode, handle, timeSec, this._out3);
      outer.returned = true;
      if (st === 0 && !this._failure) { // read before _callEnd's deferred frees
        detachedOut(out, 'sampleSpring');
        const f32 = this._f32(), o = this._out3 >>> 2;
        out[0] = f32[o]; out[1] = f32[o + 1]; out[2] = f32[o + 2];
      }
    } finally {
      try { this._anchorClose(kind); } finally { this._callEnd(outer); } // throws what an anchor threw
    }
    this._check(st);
    return out;
  }

  /** Seed sampleSpringChain(links, rootAt, timeSec, out): 3 floats per link. */
  sampleSpringChain(links, rootAt, timeSec, out) {
    this._live();
    checkChain(links, 'sampleSpringChain: links');
    checkNumber(timeSec, 'sampleSpringChain: timeSec');
    if (out === undefined) out = new Float32Array(3 * links.length);
    if (!(out instanceof Float32Array || out instanceof Float64Array))
      throw new TypeError('tendon: sampleSpringChain: out is not a Float32Array (or a ' +
                          'Float64Array)');
    if (links.length === 0) return out;
    const p = this._writeLinks(links), count = this._linksWritten;
    // out's length goes to the library, which refuses one too short with its own message and
    // writes 3·count floats: the buffer holds those (an out longer than 2^30 floats sized it
    // to 4·out.length bytes, which wrapped to 0 in malloc's 32 bits)
    const floats = 3 * count, outLength = Math.min(out.length, U32_MAX);
    // A chain sampled inside another's root function (the binding is re-entrant) writes to a
    // buffer of its own: the outer chain's output buffer must not be freed under it.
    const nested = this._chainDepth > 0;
    let outPtr;
    if (nested) {
      outPtr = this._alloc(4 * floats);
    } else {
      if (4 * floats > this._chainOutCap) {
        if (this._chainOut) this._x.free(this._chainOut);
        this._chainOut = this._alloc(4 * floats);
        this._chainOutCap = 4 * floats;
      }
      outPtr = this._chainOut;
    }
    let work = 0, workBytes = 0;
    if (count > 16) {
      const box = this._alloc(4);
      try {
        this._check(this._x.tendon_spring_chain_workspace_size(count, 1, box));
        workBytes = this._u32()[box >>> 2];
      } finally { this._x.free(box); }
      // tendon/spring.h: any alignment is fine, so the pointer malloc returned is the one passed
      // and the one freed (rounding it up and freeing the rounded one corrupted the heap)
      work = this._alloc(workBytes);
    }
    let st;
    this._chainDepth++;
    try {
      let kind = 0;
      const outer = this._callBegin();
      try {
        const handle = this._anchorOpen(rootAt), mode = this._anchorMode;
        kind = this._anchorKind;
        st = this._x.tendon_wasm_spring_chain_sample(p, count, mode, handle, timeSec, work,
                                                     workBytes, outPtr, outLength);
        outer.returned = true;
        if (st === 0 && !this._failure) { // read before _callEnd's deferred frees
          detachedOut(out, 'sampleSpringChain');
          out.set(this._f32().subarray(outPtr >>> 2, (outPtr >>> 2) + 3 * count));
        }
      } finally {
        try { this._anchorClose(kind); } finally { this._callEnd(outer); } // throws what an anchor threw
      }
      this._check(st);
    } finally {
      this._chainDepth--;
      if (work) this._x.free(work);
      if (nested) this._x.free(outPtr);
    }
    return out;
  }

  // ---- clips, skeletons, palette, skinning -------------------------------------------------
  /**
   * A clip from JavaScript arrays: {jointCount, tracks: [{joint, path: 'translation' |
   * 'rotation' | 'scale' | 'weights', interpolation: 'STEP' | 'LINEAR' | 'CUBICSPLINE', times,
   * values, width?}]} (times in seconds; values key-major, glTF's layout; copied).
   */
  createClip(description) {
    this._live();
    return new ModuleClip(this, description);
  }

  /**
   * A skeleton from JavaScript arrays: {parents (DFS pre-order, −1 for a root), names?, rest?
   * (a Pose)} (seed 002; copied).
   */
  createSkeleton(description) {
    this._live();
    return new ModuleSkeleton(this, description);
  }

  /**
   * A skin binding: palette entry k is skeleton joint jointOf[k], with inverseBind (16 floats a
   * matrix, column-major) or, when omitted, the inverse of the rest pose's model matrices.
   */
  createSkinBinding(skeleton, jointOf, inverseBind) {
    this._live();
    return new ModuleSkinBinding(this, skeleton, jointOf, inverseBind);
  }

  /**
   * Pose → skinning palette (tendon_pose_palette): `model` (16·joints floats) and `palette`
   * (16·entries) are ModuleFloats the caller keeps (createFloats); model holds the model
   * matrices afterwards.
   */
  palette(skeleton, binding, pose, model, palette) {
    this._live();
    const sp = this._own(skeleton, ModuleSkeleton, 'palette: skeleton');
    const bp = this._own(binding, ModuleSkinBinding, 'palette: binding');
    const pp = this._posePtr(pose, 'pose');
    this._check(this._x.tendon_pose_palette(
      sp, bp, pp, 0,
      this._maskPtr(model, `palette: model (16 floats × ${skeleton.jointCount} joints)`,
                    16 * skeleton.jointCount),
      this._maskPtr(palette, `palette: palette (16 floats × ${binding.paletteCount} entries)`,
                    16 * binding.paletteCount)));
  }

  /**
   * Linear-blend skinning (tendon_skin) on ModuleFloats: palette (16·entries), weights
   * (influences·vertices), positions and outPositions (3·vertices), normals and outNormals
   * optional; joints a ModuleU16 (createU16) of influences·vertices palette indices.
   */
  skin(job) {
    this._live();
    if (!job || typeof job !== 'object')
      throw new TypeError('tendon: skin takes a job {palette, paletteCount, vertexCount, ' +
                          'influenceCount?, joints, weights, positions, outPositions, normals?, ' +
                          'outNormals?}');
    const { palette, paletteCount, vertexCount, influenceCount = 4, joints, weights, positions,
            outPositions, normals, outNormals } = job;
    if (!(joints instanceof ModuleU16) || joints._tendon !== this)
      throw new TypeError('tendon: skin: joints is not a ModuleU16 of this tendon (createU16)');
    checkUint(paletteCount, 'skin: paletteCount');
    checkUint(vertexCount, 'skin: vertexCount');
    checkUint(influenceCount, 'skin: influenceCount');
    // the buffers hold at least what the call reads and writes (counts as doubles: no wrap)
    const iv = influenceCount * vertexCount, v3 = 3 * vertexCount;
    const jp = joints._live();
    checkLength(joints.length, iv, `skin: joints (${influenceCount} influences × ${vertexCount} vertices)`);
    const buf = (b, name, n) => this._maskPtr(b, `skin: ${name}`, n);
    this._check(this._x.tendon_wasm_skin(
      buf(palette, `palette (16 floats × ${paletteCount} entries)`, 16 * paletteCount),
      paletteCount, vertexCount, influenceCount, jp,
      buf(weights, `weights (${influenceCount} influences × ${vertexCount} vertices)`, iv),
      buf(positions, `positions (3 floats × ${vertexCount} vertices)`, v3),
      buf(outPositions, `outPositions (3 floats × ${vertexCount} vertices)`, v3),
      normals ? buf(normals, `normals (3 floats × ${vertexCount} vertices)`, v3) : 0,
      outNormals ? buf(outNormals, `outNormals (3 floats × ${vertexCount} vertices)`, v3) : 0));
  }

  /**
   * A mesh prepared for skinning (tendon_skin_mesh_create; docs/skinning.md, "The prepared
   * mesh"): the vertex inputs copied into the module once, every joint index and weight checked
   * once, and repacked; then `apply` per frame. description: {paletteCount, joints (Uint8Array
   * or Uint16Array of influenceCount indices a vertex, or a ModuleU16), weights, positions,
   * normals?, tangents? (Float32Array, an array of numbers, or ModuleFloats: influenceCount, 3,
   * 3 and 4 floats a vertex, tightly packed), influenceCount? (1..4, default 4)}; vertexCount is
   * positions.length / 3. Nothing the caller passed is kept: change or dispose it afterwards.
   * Returns a ModuleSkinMesh (dispose() it).
   */
  createSkinMesh(description) {
    this._live();
    return new ModuleSkinMesh(this, description);
  }

  /**
   * The rigid part of `count` palette matrices as unit dual quaternions, 16 floats an entry
   * (tendon_palette_to_dual_quat: real x y z w, dual x y z w, the uniform scale, 7 zeros), for
   * ModuleSkinMesh.applyDualQuat. palette: ModuleFloats of at least 16·count; outDq:
   * ModuleFloats of at least 16·count (may be `palette` itself: converted in place), or omitted:
   * a new ModuleFloats of 16·count is made and returned (dispose() it). A matrix dual
   * quaternions cannot carry (a mirror, a non-uniform scale, a shear, a non-finite element) is a
   * TendonError TENDON_ERR_VALUE naming the entry; nothing is written then.
   */
  paletteToDualQuat(palette, count, outDq) {
    this._live();
    checkUint(count, 'paletteToDualQuat: count');
    const pp = this._maskPtr(palette, `paletteToDualQuat: palette (16 floats × ${count} entries)`,
                             16 * count);
    const out = outDq === undefined ? this.createFloats(16 * count) : outDq;
    let st;
    try {
      st = this._x.tendon_palette_to_dual_quat(
        pp, count, this._maskPtr(out, `paletteToDualQuat: outDq (16 floats × ${count} entries)`,
                                 16 * count));
    } catch (e) {
      if (outDq === undefined) out.dispose();
      throw e;
    }
    if (st !== 0 && outDq === undefined) out.dispose();
    this._check(st);
    return out;
  }

  /**
   * A spring rig (tendon/spring_rig.h): chains hung from joints of `skeleton`, anchored by the
   * library from a clips source evaluated at every substep time. description: {skeleton,
   * chains: [{joints: [J0, J1, …, Jn], settings: SpringSettings, anchorOffset?: [x, y, z]}],
   * base?: {clip, offsetSec?, loop?}, blend?: {clip, weight, loop?}, layer?: {clip, weight,
   * mode: 'additive' | 'override', mask?: ModuleFloats, loop?}, tier?: 'exact' | 'f32'}.
   * A weight is a number or a function of the rig's time, (timeSec) => number, which the
   * library calls at every substep time of every sample (it must be a pure function of the
   * time; what it returns is the blend's / the layer's weight there, unchanged: a non-number
   * is a TendonError, and an exception propagates out of the sample).
   * The clips and the skeleton must outlive the rig.
   */
  createSpringRig(description) {
    this._live();
    return new ModuleSpringRig(this, description);
  }

  /**
   * A glTF 2.0 model from memory (tendon_gltf_load_memory): `data` the .glb bytes or the .gltf
   * JSON (an ArrayBuffer, a typed array or a DataView; copied into the module for the load and
   * freed after it), options.name naming it in messages (default "(memory)"). Buffers must be
   * in the .glb's BIN chunk or data: URIs (no files are read). Returns a ModuleGltf (dispose()
   * it); a malformed model throws a TendonError carrying the importer's message.
   */
  loadGltf(data, options) {
    this._live();
    return new ModuleGltf(this, data, options ?? {});
  }

  /** `count` uint16 in module memory (skinning joint indices); `array` is a view. */
  createU16(count) {
    this._live();
    return new ModuleU16(this, count);
  }

  /** Free the instance's scratch and every pose the seed-named functions made. */
  dispose() {
    if (this._disposed) return;
    this._disposed = true;
    const free = () => {
      for (const p of this._scratchPoses.values()) p.dispose();
      this._scratchPoses.clear();
      for (const p of [this._settings, this._out3, this._f64box, this._links, this._chainOut])
        if (p) this._x.free(p);
    };
    // from a callback, while a call uses the scratch: freed when that call returns
    if (this._calls > 0) this._deferred.push(free);
    else free();
  }
}

/** A pose in module memory: translation, rotation, scale are views re-made after memory.grow. */
class ModulePose {
  constructor(tendon, jointCount) {
    this._tendon = tendon;
    this.jointCount = jointCount;
    this._ptr = tendon._alloc(16);
    const st = tendon._x.tendon_pose_create(jointCount, this._ptr);
    if (st !== 0) {
      tendon._x.free(this._ptr);
      tendon._check(st);
    }
    const u32 = tendon._u32(), o = this._ptr >>> 2;
    this._t = u32[o]; this._r = u32[o + 1]; this._s = u32[o + 2];
    this._rv = undefined;
    readOnly(this, ['jointCount']);
  }
  _live() {
    if (!this._ptr) throw new Error('tendon: this pose was disposed');
    return this._ptr;
  }
  _views() {
    this._live();
    // re-made when the memory grew (the old views are detached: length 0)
    if (this._rv === undefined || this._rv.length !== 4 * this.jointCount) {
      const n = this.jointCount, f32 = this._tendon._f32();
      this._tv = f32.subarray(this._t >>> 2, (this._t >>> 2) + 3 * n);
      this._rv = f32.subarray(this._r >>> 2, (this._r >>> 2) + 4 * n);
      this._sv = f32.subarray(this._s >>> 2, (this._s >>> 2) + 3 * n);
    }
  }
  get translation() { this._views(); return this._tv; }
  get rotation() { this._views(); return this._rv; }
  get scale() { this._views(); return this._sv; }
  /**
   * Copy a Pose's three arrays in: translation, rotation and scale must hold exactly 3n, 4n and
   * 3n numbers for this pose's n joints (anything else is a TendonError TENDON_ERR_COUNT naming
   * the array, its length and the expected one — never a prefix copied, never a RangeError).
   */
  set(pose) {
    this._live();
    const a = checkPoseArrays(pose, this.jointCount, 'pose.set');
    // a plain array's elements are checked (a typed array's are numbers by construction: a
    // string would otherwise become NaN silently) and copied, read once each; after this no
    // caller code runs, so the pose cannot be disposed between the checks and the writes
    const src = {};
    for (const key of ['translation', 'rotation', 'scale']) {
      if (ArrayBuffer.isView(a[key])) { src[key] = a[key]; continue; }
      const copy = new Float64Array(a[key].length);
      for (let i = 0; i < copy.length; i++) copy[i] = checkNumber(a[key][i], `pose.set: ${key}[${i}]`);
      src[key] = copy;
    }
    this._views();
    this._tv.set(src.translation);
    this._rv.set(src.rotation);
    this._sv.set(src.scale);
  }
  /** Copy the three arrays out into a Pose, whose arrays must hold exactly 3n, 4n and 3n. */
  copyTo(pose) {
    this._live();
    const a = checkPoseArrays(pose, this.jointCount, 'pose.copyTo');
    this._views();
    const put = (dst, src) => {
      if (typeof dst.set === 'function') dst.set(src);
      else for (let i = 0; i < src.length; i++) dst[i] = src[i]; // a plain array
    };
    put(a.translation, this._tv);
    put(a.rotation, this._rv);
    put(a.scale, this._sv);
  }
  dispose() {
    if (!this._ptr) return;
    this._tendon._x.tendon_pose_destroy(this._ptr);
    this._tendon._x.free(this._ptr);
    this._ptr = 0;
    this._tv = this._rv = this._sv = undefined;
  }
}

/** `count` floats in module memory; `array` is a view re-made after memory.grow. */
class ModuleFloats {
  constructor(tendon, count) {
    checkUint(count, 'createFloats: count', { limit: Math.floor(U32_MAX / 4),
                                              what: 'a whole number of floats whose bytes fit' });
    this._tendon = tendon;
    this.length = count;
    this._ptr = tendon._alloc(Math.max(4, 4 * count));
    this._buffer = null;
    readOnly(this, ['length']);
  }
  _live() {
    if (!this._ptr) throw new Error('tendon: these floats were disposed');
    return this._ptr;
  }
  get array() {
    this._live();
    if (this._view === undefined || this._view.length !== this.length) {
      const o = this._ptr >>> 2;
      this._view = this._tendon._f32().subarray(o, o + this.length);
    }
    return this._view;
  }
  dispose() {
    if (this._ptr) this._tendon._x.free(this._ptr);
    this._ptr = 0;
  }
}

/** A declarative anchor, evaluated in the module (createAnchor). */
class ModuleAnchor {
  constructor(tendon, d) {
    const kind = own(ANCHOR_KIND, d && d.kind);
    if (kind === undefined)
      throw new TendonError(`anchor kind "${d && d.kind}" is not constant, linear, sine, step ` +
                            'or keys', 6, 'TENDON_ERR_VALUE');
    const vec = (v, name) => {
      if (!v || v.length !== 3 || ![0, 1, 2].every((k) => typeof v[k] === 'number'))
        throw new TendonError(`anchor ${d.kind}: "${name}" must be 3 numbers`, 6,
                              'TENDON_ERR_VALUE');
      return v;
    };
    const num = (v, name) => checkNumber(v, `anchor ${d.kind}: ${name}`);
    if (kind === 2) { num(d.frequencyHz, 'frequencyHz'); num(d.phase, 'phase'); }
    if (kind === 3) num(d.at, 'at');
    if (kind === 4 && (!d.times || typeof d.times.length !== 'number'))
      throw new TendonError('anchor keys: "times" must be an array of numbers', 6, 'TENDON_ERR_VALUE');
    if (kind === 4) for (let i = 0; i < d.times.length; i++) num(d.times[i], `times[${i}]`);
    const keys = kind === 4 ? d.times.length : 0;
    if (kind === 4 && (keys < 1 || !d.values || d.values.length !== keys))
      throw new TendonError('anchor keys: "times" and "values" must be as long, and not empty', 6,
                            'TENDON_ERR_VALUE');
    // every vector checked before anything is allocated (a refusal leaves nothing behind)
    if (kind === 0) vec(d.value, 'value');
    if (kind === 1) { vec(d.origin, 'origin'); vec(d.velocity, 'velocity'); }
    if (kind === 2) { vec(d.amplitude, 'amplitude'); if (d.center !== undefined) vec(d.center, 'center'); }
    if (kind === 3) { vec(d.from, 'from'); vec(d.to, 'to'); }
    if (kind === 4) for (let i = 0; i < keys; i++) vec(d.values[i], `values[${i}]`);
    this._tendon = tendon;
    this._ptr = tendon._alloc(8 * (11 + 4 * keys));
    const f = tendon._f64(), o = this._ptr >>> 3;
    f.fill(0, o, o + 11 + 4 * keys);
    f[o] = kind;
    const put = (at, v) => { f[o + at] = v[0]; f[o + at + 1] = v[1]; f[o + at + 2] = v[2]; };
    if (kind === 0) put(1, d.value);
    if (kind === 1) { put(1, d.origin); put(4, d.velocity); }
    if (kind === 2) {
      put(1, d.amplitude);
      put(4, d.center === undefined ? [0, 0, 0] : d.center);
      f[o + 7] = d.frequencyHz; f[o + 8] = d.phase;
    }
    if (kind === 3) { put(1, d.from); put(4, d.to); f[o + 9] = d.at; }
    if (kind === 4) {
      f[o + 10] = keys;
      for (let i = 0; i < keys; i++) {
        f[o + 11 + i] = d.times[i];
        put(11 + keys + 3 * i, d.values[i]);
      }
    }
  }
  _live() {
    if (!this._ptr) throw new Error('tendon: this anchor was disposed');
    return this._ptr;
  }
  dispose() {
    if (this._ptr) this._tendon._x.free(this._ptr);
    this._ptr = 0;
  }
}

const PATHS = { translation: 0, rotation: 1, scale: 2, weights: 3 };
const INTERPOLATIONS = { STEP: 0, LINEAR: 1, CUBICSPLINE: 2 };

/**
 * Floats copied into module memory (a set-up helper; returns the pointer, freed by the caller):
 * `n` of them (default values.length), the count the caller checked.
 */
function copyFloats(tendon, values, what, n = values.length) {
  const p = tendon._alloc(Math.max(4, 4 * n));
  const f = tendon._f32();
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (typeof v !== 'number') {
      tendon._x.free(p);
      throw new TendonError(`${what}[${i}] is ${typeof v}; expected a number`, 6, 'TENDON_ERR_VALUE');
    }
    f[(p >>> 2) + i] = v;
  }
  return p;
}

/** An immutable clip in module memory (createClip). */
class ModuleClip {
  constructor(tendon, d) {
    this._tendon = tendon;
    if (!d || typeof d !== 'object')
      throw new TypeError('tendon: createClip takes {jointCount, tracks}');
    const jointCount = checkUint(d.jointCount, 'clip: jointCount'); // read once, as passed
    const tracks = d.tracks ?? [];
    if (!Array.isArray(tracks)) throw new TypeError('tendon: clip: tracks is not an array');
    const size = tendon._x.tendon_wasm_track_desc_size();
    const desc = tendon._alloc(Math.max(4, size * tracks.length));
    const owned = [desc];
    try {
      tracks.forEach((tr, i) => {
        if (!tr || typeof tr !== 'object')
          throw new TypeError(`tendon: clip: tracks[${i}] is ${tr === null ? 'null' : typeof tr}, ` +
                              'not a track {joint, path, interpolation?, times, values}');
        const path = own(PATHS, tr.path), interp = own(INTERPOLATIONS, tr.interpolation ?? 'LINEAR');
        if (path === undefined)
          throw new TendonError(`clip: tracks[${i}].path "${tr.path}" is not translation, ` +
                                'rotation, scale or weights', 6, 'TENDON_ERR_VALUE');
        if (interp === undefined)
          throw new TendonError(`clip: tracks[${i}].interpolation "${tr.interpolation}" is not ` +
                                'STEP, LINEAR or CUBICSPLINE', 6, 'TENDON_ERR_VALUE');
        const joint = checkUint(tr.joint, `clip: tracks[${i}].joint`, { status: 'range' });
        const width = checkUint(tr.width ?? (path === 1 ? 4 : 3), `clip: tracks[${i}].width`);
        // each array and its length read once: a getter returning another array (or a longer
        // one) after the length check would have the library read past the copies
        const trTimes = tr.times, trValues = tr.values;
        if (!trTimes || typeof trTimes.length !== 'number')
          throw new TypeError(`tendon: clip: tracks[${i}].times is not an array`);
        if (!trValues || typeof trValues.length !== 'number')
          throw new TypeError(`tendon: clip: tracks[${i}].values is not an array`);
        const keys = trTimes.length, valueCount = trValues.length;
        // glTF's layout: width floats a key, three such (in-tangent, value, out-tangent) a key
        // for CUBICSPLINE; the library reads exactly that many
        checkLength(valueCount, keys * width * (interp === 2 ? 3 : 1),
                    `clip: tracks[${i}].values (${keys} keys × width ${width}` +
                    `${interp === 2 ? ' × 3, CUBICSPLINE' : ''})`, true);
        const times = copyFloats(tendon, trTimes, `tracks[${i}].times`, keys);
        owned.push(times);
        const values = copyFloats(tendon, trValues, `tracks[${i}].values`, valueCount);
        owned.push(values);
        tendon._x.tendon_wasm_track_set(desc, i, joint, path, interp, width, keys, times, values);
      });
      const box = tendon._alloc(4);
      owned.push(box);
      tendon._check(tendon._x.tendon_wasm_clip_create(jointCount, tracks.length, desc, box));
      this._ptr = tendon._u32()[box >>> 2];
    } finally {
      for (const p of owned) tendon._x.free(p);
    }
    this.jointCount = jointCount;
    this.duration = tendon._x.tendon_clip_duration(this._ptr);
    readOnly(this, ['jointCount', 'duration']);
  }
  _live() {
    if (!this._ptr) throw new Error('tendon: this clip was disposed');
    return this._ptr;
  }
  /** Seed sampleClip: every TRS track at timeSec into `pose` (a ModulePose), exact tier. */
  sample(timeSec, pose) {
    checkNumber(timeSec, 'clip.sample: timeSec');
    this._tendon._check(this._tendon._x.tendon_clip_sample(this._live(), timeSec,
                                                            this._tendon._posePtr(pose, 'pose')));
  }
  /** The same in the float32 tier. */
  sampleF32(timeSec, pose) {
    checkNumber(timeSec, 'clip.sampleF32: timeSec');
    this._tendon._check(this._tendon._x.tendon_clip_sample_f32(this._live(), timeSec,
                                                                this._tendon._posePtr(pose, 'pose')));
  }
  dispose() {
    if (this._ptr) this._tendon._x.tendon_clip_destroy(this._ptr);
    this._ptr = 0;
  }
}

/** An immutable skeleton in module memory (createSkeleton). */
class ModuleSkeleton {
  constructor(tendon, d) {
    this._tendon = tendon;
    // each field, and each element, read once: a getter answering differently on a second read
    // (names checked as 3 and written from an empty array) left the library uninitialised words
    // for pointers
    const dParents = d && d.parents, dNames = d && d.names;
    if (!d || !dParents || typeof dParents.length !== 'number')
      throw new TypeError('tendon: createSkeleton takes {parents, names?, rest?}');
    const n = dParents.length;
    const parentsIn = new Int32Array(n);
    for (let j = 0; j < n; j++) {
      const v = dParents[j];
      if (!Number.isInteger(v) || v < -1 || v > 0x7fffffff)
        throw new TendonError(`skeleton: parents[${j}] is ${typeof v === 'number' ? v : typeof v + ' ' + String(v)}; ` +
                              'expected -1 (a root) or a joint index', 3, 'TENDON_ERR_RANGE');
      parentsIn[j] = v;
    }
    const owned = [];
    try {
      const parents = tendon._alloc(Math.max(4, 4 * n));
      owned.push(parents);
      new Int32Array(tendon.memory.buffer, parents, n).set(parentsIn);
      let names = 0;
      if (dNames) {
        const count = dNames.length;
        if (count !== n)
          throw new TendonError(`skeleton: ${count} names for ${n} joints`, 2,
                                'TENDON_ERR_COUNT');
        names = tendon._alloc(Math.max(4, 4 * n));
        owned.push(names);
        const enc = new TextEncoder();
        for (let j = 0; j < n; j++) {
          const name = dNames[j];
          checkName(name, `skeleton: names[${j}]`);
          const bytes = enc.encode(name);
          const p = tendon._alloc(bytes.length + 1);
          owned.push(p);
          const u8 = new Uint8Array(tendon.memory.buffer);
          u8.set(bytes, p);
          u8[p + bytes.length] = 0;
          tendon._u32()[(names >>> 2) + j] = p;
        }
      }
      let rest = 0;
      if (d.rest) {
        if (tendon._jointsOf(d.rest, 'skeleton: rest') !== n)
          throw new TendonError(`skeleton: rest has ${d.rest.rotation.length / 4} joints; ` +
                                `expected ${n} (one per parent)`, 2, 'TENDON_ERR_COUNT');
        const r = tendon.createPose(n);
        owned.push(r);
        r.set(d.rest);
        rest = r._live();
      }
      const box = tendon._alloc(4);
      owned.push(box);
      tendon._check(tendon._x.tendon_wasm_skeleton_create(n, parents, names, rest, box));
      this._ptr = tendon._u32()[box >>> 2];
    } finally {
      for (const p of owned) (p instanceof ModulePose ? p.dispose() : tendon._x.free(p));
    }
    this.jointCount = n;
    readOnly(this, ['jointCount']);
  }
  _live() {
    if (!this._ptr) throw new Error('tendon: this skeleton was disposed');
    return this._ptr;
  }
  /** The rest pose into a ModulePose. */
  restPose(pose) {
    this._tendon._check(this._tendon._x.tendon_skeleton_rest_pose(this._live(),
                                                                   this._tendon._posePtr(pose, 'pose')));
  }
  dispose() {
    if (this._ptr) this._tendon._x.tendon_skeleton_destroy(this._ptr);
    this._ptr = 0;
  }
}

/** A skin binding (createSkinBinding). */
class ModuleSkinBinding {
  constructor(tendon, skeleton, jointOf, inverseBind) {
    tendon._own(skeleton, ModuleSkeleton, 'createSkinBinding: skeleton');
    this._tendon = tendon;
    if (!jointOf || typeof jointOf.length !== 'number')
      throw new TypeError('tendon: createSkinBinding: jointOf is not an array');
    // each element and length read once (a second read could answer differently: an index
    // checked as 0 and written as 2^32 + 3, or inverseBind's length 16·n checked and 0 copied)
    const n = jointOf.length;
    const jointsIn = new Uint32Array(n);
    for (let k = 0; k < n; k++) jointsIn[k] = checkUint(jointOf[k], `createSkinBinding: jointOf[${k}]`, { status: 'range' });
    if (inverseBind) checkLength(inverseBind.length, 16 * n, `createSkinBinding: inverseBind (16 floats × ${n} entries)`, true);
    const joints = tendon._alloc(Math.max(4, 4 * n));
    let ib = 0;
    try {
      new Uint32Array(tendon.memory.buffer, joints, n).set(jointsIn);
      if (inverseBind) ib = copyFloats(tendon, inverseBind, 'inverseBind', 16 * n);
      const box = tendon._alloc(4);
      try {
        const sp = tendon._own(skeleton, ModuleSkeleton, 'createSkinBinding: skeleton');
        tendon._check(tendon._x.tendon_skin_binding_create(sp, joints, ib, n, box));
        this._ptr = tendon._u32()[box >>> 2];
      } finally { tendon._x.free(box); }
    } finally {
      tendon._x.free(joints);
      if (ib) tendon._x.free(ib);
    }
    this.paletteCount = n;
    readOnly(this, ['paletteCount']);
  }
  _live() {
    if (!this._ptr) throw new Error('tendon: this skin binding was disposed');
    return this._ptr;
  }
  dispose() {
    if (this._ptr) this._tendon._x.tendon_skin_binding_destroy(this._ptr);
    this._ptr = 0;
  }
}


/** A spring rig (createSpringRig). */
class ModuleSpringRig {
  constructor(tendon, d) {
    this._tendon = tendon;
    const x = tendon._x;
    if (!d || typeof d !== 'object')
      throw new TypeError('tendon: createSpringRig takes {skeleton, chains, base?, blend?, ' +
                          'layer?, tier?}');
    // every field read once: a getter answering differently on a later read had the library
    // take another skeleton than the one the layer mask was checked against (600 joints read
    // from a mask of 2, at every sample) or another clip or mask than the ones the rig keeps live
    const skeleton = d.skeleton, base = d.base, blend = d.blend, layer = d.layer;
    const baseClip = base && base.clip, blendClip = blend && blend.clip;
    const layerClip = layer && layer.clip, layerMask = layer && layer.mask;
    tendon._own(skeleton, ModuleSkeleton, 'createSpringRig: skeleton');
    const chains = d.chains ?? [];
    if (!Array.isArray(chains)) throw new TypeError('tendon: createSpringRig: chains is not an array');
    // each chain's joints read once, checked into a copy that sizes the joints block and fills
    // it (read again, a getter's longer answer was written past the block, over the heap)
    const chainJoints = chains.map((c, i) => {
      const js = c && c.joints;
      if (!Array.isArray(js))
        throw new TypeError(`tendon: createSpringRig: chains[${i}].joints is not an array`);
      const n = js.length, copy = new Array(n);
      for (let k = 0; k < n; k++)
        copy[k] = checkUint(js[k], `spring rig: chains[${i}].joints[${k}]`, { status: 'range' });
      return copy;
    });
    const baseOffsetSec = base?.offsetSec, blendWeight = blend?.weight, layerWeight = layer?.weight;
    if (baseOffsetSec !== undefined) checkNumber(baseOffsetSec, 'spring rig: base.offsetSec');
    // a weight: a number, or a function of the rig's time (seconds) returning one, called by
    // the library at every substep time of every sample (through tendon_js.rig_weight)
    for (const [v, name] of [[blendWeight, 'blend.weight'], [layerWeight, 'layer.weight']])
      if (v !== undefined && typeof v !== 'function') {
        if (typeof v !== 'number')
          throw new TendonError(`spring rig: ${name} is ${v === null ? 'null' : typeof v} ${String(v)}; ` +
                                'expected a number or a function (timeSec) => number', 6, 'TENDON_ERR_VALUE');
      }
    this._weightIds = [];
    const weightId = (v, name) => {
      if (typeof v !== 'function') return 0;
      const id = tendon._rigWeightNext++;
      tendon._rigWeights.set(id, { fn: v, name });
      this._weightIds.push(id);
      return id;
    };
    const constant = (v) => (typeof v === 'number' ? v : 0);
    // what the rig reads at every sample: kept, and checked live there (a disposed clip would
    // be freed memory the library reads)
    this._uses = [['skeleton', skeleton]];
    for (const [k, c] of [['base', baseClip], ['blend', blendClip], ['layer', layerClip]])
      if (c) this._uses.push([`${k}.clip`, c]);
    if (layerMask) this._uses.push(['layer.mask', layerMask]);
    const total = chainJoints.reduce((n, js) => n + js.length, 0);
    const owned = [];
    const alloc = (bytes) => { const p = tendon._alloc(Math.max(8, bytes)); owned.push(p); return p; };
    const clipPtr = (part, clip, what) => {
      if (!part) return 0;
      return tendon._own(clip, ModuleClip, `createSpringRig: ${what}.clip`);
    };
    try {
      const counts = alloc(4 * chains.length), joints = alloc(4 * total);
      const offsets = alloc(12 * chains.length), settings = alloc(24 * chains.length);
      let at = 0;
      chains.forEach((c, i) => {
        tendon._u32()[(counts >>> 2) + i] = chainJoints[i].length;
        for (const j of chainJoints[i]) tendon._u32()[(joints >>> 2) + at++] = j;
        const off = c.anchorOffset === undefined ? [0, 0, 0]
          : checkVector(c.anchorOffset, 3, `spring rig: chains[${i}].anchorOffset`);
        for (let k = 0; k < 3; k++) tendon._f32()[(offsets >>> 2) + 3 * i + k] = off[k];
        tendon._writeSettings(c.settings, settings + 24 * i);
      });
      const layerModeName = layer ? layer.mode ?? 'additive' : 'additive';
      const layerMode = layer ? own({ additive: 0, override: 1 }, layerModeName) : 0;
      if (layerMode === undefined)
        throw new TendonError(`spring rig: layer mode "${layerModeName}" is not additive or override`,
                              6, 'TENDON_ERR_VALUE');
      const tier = own({ exact: 0, f32: 1 }, d.tier ?? 'exact');
      if (tier === undefined)
        throw new TendonError(`spring rig: tier "${d.tier}" is not exact or f32`, 6, 'TENDON_ERR_VALUE');
      const mask = layerMask
        ? tendon._maskPtr(layerMask, `spring rig: layer.mask (one weight per joint, ${skeleton.jointCount} joints)`,
                          skeleton.jointCount, true)
        : 0;
      const box = alloc(4);
      const basePtr = clipPtr(base, baseClip, 'base'), blendPtr = clipPtr(blend, blendClip, 'blend');
      const layerPtr = clipPtr(layer, layerClip, 'layer');
      tendon._check(x.tendon_wasm_spring_rig_create(
        skeleton._live(), chains.length, counts, joints, offsets, settings,
        basePtr, baseOffsetSec ?? 0, base?.loop ? 1 : 0,
        blendPtr, blend?.loop ? 1 : 0, constant(blendWeight),
        weightId(blendWeight, 'blend.weight'),
        layerPtr, layer?.loop ? 1 : 0, layerMode, constant(layerWeight),
        weightId(layerWeight, 'layer.weight'), mask, tier, box));
      this._ptr = tendon._u32()[box >>> 2];
      tendon._check(x.tendon_spring_rig_workspace_size(this._ptr, box));
      this._workBytes = tendon._u32()[box >>> 2];
    } catch (e) {
      this._forgetWeights();
      throw e;
    } finally {
      for (const p of owned) x.free(p);
    }
    this._work = tendon._alloc(Math.max(8, this._workBytes));
    this.chainCount = x.tendon_spring_rig_chain_count(this._ptr);
    this.linkCount = x.tendon_spring_rig_link_count(this._ptr);
    this._positions = tendon._alloc(Math.max(8, 12 * this.linkCount));
    readOnly(this, ['chainCount', 'linkCount']);
  }
  _live() {
    if (!this._ptr) throw new Error('tendon: this spring rig was disposed');
    return this._ptr;
  }
  _forgetWeights() {
    for (const id of this._weightIds) this._tendon._rigWeights.delete(id);
    this._weightIds = [];
  }
  /**
   * One sample at timeSec: the chains' joints' rotations written into `pose` (a ModulePose of
   * the skeleton; null: not written), and the link positions returned (3 floats a link, chain
   * by chain; into `out` when given).
   */
  sample(timeSec, pose, out = new Float32Array(3 * this.linkCount)) {
    const t = this._tendon, p = this._live();
    checkNumber(timeSec, 'spring rig sample: timeSec');
    for (const [name, o] of this._uses)
      if (!o._ptr) throw new Error(`tendon: this spring rig's ${name} was disposed (it must outlive the rig)`);
    if (!(out instanceof Float32Array || out instanceof Float64Array))
      throw new TypeError('tendon: spring rig sample: out is not a Float32Array (or a ' +
                          'Float64Array)');
    checkLength(out.length, 3 * this.linkCount, `spring rig sample: out (3 floats × ${this.linkCount} links)`);
    const pp = pose ? t._posePtr(pose, 'pose') : 0;
    // a weight function that samples this rig again would overwrite its workspace mid-sample
    if (this._sampling)
      throw new Error('tendon: spring rig sample: this rig is already sampling (a weight function ' +
                      'sampled it again); sample another rig, or this one after');
    this._sampling = true;
    try {
      t._callOut(() => t._x.tendon_spring_rig_sample(p, timeSec, this._work, this._workBytes,
                                                     this._positions, 3 * this.linkCount, pp),
                 (st) => {
                   t._check(st);
                   const o = this._positions >>> 2;
                   out.set(t._f32().subarray(o, o + 3 * this.linkCount));
                 });
    } finally { this._sampling = false; }
    return out;
  }
  /** Where chain c's links start among the positions, in links. */
  chainFirstLink(c) {
    const p = this._live();
    checkUint(c, 'chainFirstLink: c', { status: 'range', limit: this.chainCount - 1,
                                         what: `a chain index (the rig has ${this.chainCount})` });
    return this._tendon._x.tendon_spring_rig_chain_first_link(p, c);
  }
  /** Chain c's links as its march uses them (SpringLink objects: settings and rest offsets). */
  chainLinks(c) {
    const t = this._tendon, p0 = this._live();
    checkUint(c, 'chainLinks: c', { status: 'range', limit: this.chainCount - 1,
                                    what: `a chain index (the rig has ${this.chainCount})` });
    const n = t._x.tendon_spring_rig_chain_link_count(p0, c);
    const p = t._alloc(Math.max(8, 48 * n));
    try {
      t._check(t._x.tendon_spring_rig_chain_links(this._ptr, c, p, n));
      const f = t._f64(), o = p >>> 3, links = [];
      for (let i = 0; i < n; i++) {
        const b = o + 6 * i;
        links.push({ frequencyHz: f[b], damping: f[b + 1], maxOffsetM: f[b + 2],
                     restOffsetM: [f[b + 3], f[b + 4], f[b + 5]] });
      }
      return links;
    } finally { t._x.free(p); }
  }
  dispose() {
    if (!this._ptr) return;
    const x = this._tendon._x;
    x.tendon_spring_rig_destroy(this._ptr);
    x.free(this._work);
    x.free(this._positions);
    this._forgetWeights();
    this._ptr = 0;
  }
}

const JOINT_INDEX_U8 = 1, JOINT_INDEX_U16 = 2;
const SKIN_OUTPUT_NORMALS = 2, SKIN_OUTPUT_TANGENTS = 4;

/** A prepared skin mesh (createSkinMesh). */
class ModuleSkinMesh {
  constructor(tendon, d) {
    this._tendon = tendon;
    const x = tendon._x;
    if (!d || typeof d !== 'object')
      throw new TypeError('tendon: createSkinMesh takes {paletteCount, joints, weights, positions, ' +
                          'normals?, tangents?, influenceCount?}');
    const paletteCount = checkUint(d.paletteCount, 'createSkinMesh: paletteCount');
    const influences = checkUint(d.influenceCount ?? 4, 'createSkinMesh: influenceCount');
    // the library refuses an influence count outside 1..4 with its own message: the lengths
    // below are checked only for one it takes
    const per = influences >= 1 && influences <= 4 ? influences : -1;
    const buffer = tendon.memory.buffer;
    // Each input: a module object or a view of module memory is passed by address (the library
    // copies it); anything else is copied in. Every length is checked and every plain array
    // converted before anything is allocated (an allocation may grow the memory, which detaches
    // views of it: those were resolved to addresses first).
    const inputs = [];
    const input = (a, name, width, kind) => {
      const what = `createSkinMesh: ${name}`;
      let length, ptr = -1, copy = null;
      if ((a instanceof ModuleFloats || a instanceof ModuleU16) && a._tendon !== tendon)
        throw new TypeError(`tendon: ${what} belongs to another tendon instance`);
      if (kind === 'joints') {
        if (a instanceof ModuleU16 && a._tendon === tendon) { ptr = a._live(); length = a.length; }
        else if (a instanceof Uint8Array || a instanceof Uint16Array) {
          length = a.length;
          if (a.buffer === buffer) ptr = a.byteOffset; else copy = a;
        } else {
          throw new TypeError(`tendon: ${what} is not a Uint8Array, a Uint16Array or a ModuleU16 ` +
                              'of this tendon');
        }
      } else if (a instanceof ModuleFloats && a._tendon === tendon) {
        ptr = a._live(); length = a.length;
      } else if (a instanceof Float32Array) {
        length = a.length;
        if (a.buffer === buffer) ptr = a.byteOffset; else copy = a;
      } else if (a && typeof a === 'object' && typeof a.length === 'number') {
        // a plain array or another typed array (Float64Array, ...): its numbers copied in
        length = a.length;
        for (let i = 0; i < length; i++)
          if (typeof a[i] !== 'number')
            throw new TendonError(`${what}[${i}] is ${typeof a[i]}; expected a number`, 6,
                                  'TENDON_ERR_VALUE');
        copy = Float32Array.from(a);
      } else {
        throw new TypeError(`tendon: ${what} is not a Float32Array, an array of numbers or ` +
                            'ModuleFloats of this tendon');
      }
      inputs.push({ a, what, width, length, ptr, copy });
      return inputs[inputs.length - 1];
    };
    const positions = input(d.positions, 'positions', 3);
    const vertices = positions.length / 3;
    if (!Number.isInteger(vertices))
      throw new TendonError(`createSkinMesh: positions holds ${positions.length} floats; expected ` +
                            '3 a vertex (x y z)', 2, 'TENDON_ERR_COUNT');
    checkUint(vertices, 'createSkinMesh: vertex count (positions.length / 3)');
    const joints = input(d.joints, 'joints', per, 'joints');
    const weights = input(d.weights, 'weights', per);
    const normals = d.normals == null ? null : input(d.normals, 'normals', 3);
    const tangents = d.tangents == null ? null : input(d.tangents, 'tangents', 4);
    for (const i of inputs) {
      if (i.width < 0) continue;
      const unit = i === joints ? 'indices' : 'floats';
      checkLength(i.length, i.width * vertices, `${i.what} (${i.width} ${unit} × ${vertices} vertices)`, true);
    }
    // Reading a later input runs the caller's code (the description's getters, a proxy's or an
    // array's element getters), which may dispose a module object taken above or shrink a typed
    // array whose length was taken above (a resizable ArrayBuffer): the library would then copy
    // freed memory, or read past the shorter copy made below. So each is taken again, after the
    // last of them: a disposed one throws, a changed length is refused.
    for (const i of inputs) {
      if (i.a instanceof ModuleFloats || i.a instanceof ModuleU16) i.ptr = i.a._live();
      else if (i.copy && i.copy.length !== i.length)
        throw new TendonError(`${i.what} held ${i.length} elements when it was read and ` +
                              `${i.copy.length} after the description's later fields were read`,
                              2, 'TENDON_ERR_COUNT');
    }
    const indexType = joints.a instanceof Uint8Array ? JOINT_INDEX_U8 : JOINT_INDEX_U16;
    const owned = [];
    try {
      for (const i of inputs) {
        if (!i.copy) continue;
        const bytes = i.copy.BYTES_PER_ELEMENT * i.copy.length;
        i.ptr = tendon._alloc(Math.max(4, bytes));
        owned.push(i.ptr);
        new i.copy.constructor(tendon.memory.buffer, i.ptr, i.copy.length).set(i.copy);
      }
      const box = tendon._alloc(4);
      owned.push(box);
      tendon._check(x.tendon_wasm_skin_mesh_create(
        paletteCount, vertices, influences, indexType, joints.ptr, weights.ptr, positions.ptr,
        normals ? normals.ptr : 0, tangents ? tangents.ptr : 0, box));
      this._ptr = tendon._u32()[box >>> 2];
    } finally {
      for (const p of owned) x.free(p);
    }
    this.vertexCount = x.tendon_skin_mesh_vertex_count(this._ptr);
    this.influenceCount = x.tendon_skin_mesh_influence_count(this._ptr);
    this.paletteCount = x.tendon_skin_mesh_palette_count(this._ptr);
    const bits = x.tendon_skin_mesh_outputs(this._ptr);
    this.outputs = Object.freeze({ positions: true, normals: (bits & SKIN_OUTPUT_NORMALS) !== 0,
                                   tangents: (bits & SKIN_OUTPUT_TANGENTS) !== 0 });
    this.memoryBytes = x.tendon_skin_mesh_memory_bytes(this._ptr);
    readOnly(this, ['vertexCount', 'influenceCount', 'paletteCount', 'outputs', 'memoryBytes']);
  }
  _live() {
    if (!this._ptr) throw new Error('tendon: this skin mesh was disposed');
    return this._ptr;
  }
  // One apply: `table` the palette or the dual quaternions (16 floats an entry, the mesh's
  // paletteCount entries: the library cannot check its length, the binding does); the outputs
  // ModuleFloats or null / undefined (not written), each holding at least the vertices the
  // range ends at (3, 3, 4 floats a vertex). whole: the whole mesh (first and count unused; a
  // caller's negative first used to mean that, unchecked).
  _apply(name, dq, whole, first, count, table, outPositions, outNormals, outTangents) {
    const t = this._tendon, x = t._x;
    t._live();
    const m = this._live();
    const v = this.vertexCount;
    if (!whole) {
      checkUint(first, `${name}: first`, { status: 'range' });
      checkUint(count, `${name}: count`);
    }
    // the range's end, for the outputs' lengths (a range past the mesh is the library's to
    // refuse, naming both)
    const end = whole ? v : Math.min(first + count, v);
    const tp = t._maskPtr(table, `${name}: ${dq ? 'dq' : 'palette'} (16 floats × ${this.paletteCount} entries)`,
                          16 * this.paletteCount);
    const out = (o, key, width) => (o == null ? 0
      : t._maskPtr(o, `${name}: ${key} (${width} floats × ${end} vertices)`, width * end));
    const op = out(outPositions, 'outPositions', 3), on = out(outNormals, 'outNormals', 3);
    const ot = out(outTangents, 'outTangents', 4);
    if (whole)
      t._check((dq ? x.tendon_skin_mesh_apply_dq : x.tendon_skin_mesh_apply)(m, tp, op, on, ot));
    else
      t._check((dq ? x.tendon_skin_mesh_apply_dq_range : x.tendon_skin_mesh_apply_range)(
        m, tp, first, count, op, on, ot));
  }
  /**
   * Linear-blend skinning of every vertex by `palette` (ModuleFloats, 16·paletteCount floats:
   * Tendon.palette's output) into the outputs (ModuleFloats of 3·, 3·, 4·vertexCount floats;
   * null or omitted: not written; normals and tangents only if the mesh has them): the same bits
   * as Tendon.skin on the mesh's inputs.
   */
  apply(palette, outPositions, outNormals, outTangents) {
    this._apply('skinMesh.apply', false, true, 0, 0, palette, outPositions, outNormals, outTangents);
  }
  /** apply for vertices [first, first + count) only: the outputs are the whole arrays (vertex v at 3v / 4v). */
  applyRange(first, count, palette, outPositions, outNormals, outTangents) {
    this._apply('skinMesh.applyRange', false, false, first, count, palette, outPositions, outNormals,
                outTangents);
  }
  /** Dual-quaternion skinning by `dq` (Tendon.paletteToDualQuat's output), outputs as apply's. */
  applyDualQuat(dq, outPositions, outNormals, outTangents) {
    this._apply('skinMesh.applyDualQuat', true, true, 0, 0, dq, outPositions, outNormals, outTangents);
  }
  /** applyDualQuat for vertices [first, first + count) only. */
  applyDualQuatRange(first, count, dq, outPositions, outNormals, outTangents) {
    this._apply('skinMesh.applyDualQuatRange', true, false, first, count, dq, outPositions, outNormals,
                outTangents);
  }
  dispose() {
    if (this._ptr) this._tendon._x.tendon_skin_mesh_destroy(this._ptr);
    this._ptr = 0;
  }
}

/** uint16 in module memory (createU16); `array` is a view re-made after memory.grow. */
class ModuleU16 {
  constructor(tendon, count) {
    checkUint(count, 'createU16: count', { limit: Math.floor(U32_MAX / 2),
                                           what: 'a whole number of uint16 whose bytes fit' });
    this._tendon = tendon;
    this.length = count;
    this._ptr = tendon._alloc(Math.max(4, 2 * count));
    this._buffer = null;
    readOnly(this, ['length']);
  }
  _live() {
    if (!this._ptr) throw new Error('tendon: these indices were disposed');
    return this._ptr;
  }
  get array() {
    this._live();
    if (this._view === undefined || this._view.length !== this.length) {
      this._tendon._views();
      this._view = new Uint16Array(this._tendon._buffer, this._ptr, this.length);
    }
    return this._view;
  }
  dispose() {
    if (this._ptr) this._tendon._x.free(this._ptr);
    this._ptr = 0;
  }
}

// ---- glTF ---------------------------------------------------------------------------------------
// A model's skeleton, skins, clips and vertex arrays live inside the model (tendon_gltf owns
// them): the binding's objects for them are views ("borrowed"), made with the model and usable
// with every call that takes a ModuleSkeleton, ModuleSkinBinding, ModuleClip, ModuleFloats or
// ModuleU16. Their dispose() does nothing (the model owns them); model.dispose() frees it all,
// after which any of them throws as a disposed object does.

/** An object of `cls` over a pointer the model owns (no constructor run: nothing allocated). */
function borrowed(cls, tendon, ptr, fields) {
  const o = Object.create(cls.prototype);
  Object.assign(o, { _tendon: tendon, _ptr: ptr >>> 0, _borrowed: true }, fields);
  return readOnly(o, Object.keys(fields)); // counts and lengths: the bounds checks use them
}
for (const cls of [ModuleSkeleton, ModuleSkinBinding, ModuleClip, ModuleFloats, ModuleU16]) {
  const own = cls.prototype.dispose;
  cls.prototype.dispose = function dispose() {
    if (this._borrowed) return; // the model's: freed by model.dispose()
    own.call(this);
  };
}

const TRACK_PATHS = ['translation', 'rotation', 'scale', 'weights'];

/** A glTF model loaded from memory (tendon.loadGltf). */
class ModuleGltf {
  constructor(tendon, data, options) {
    this._tendon = tendon;
    const x = tendon._x;
    let bytes;
    if (data instanceof ArrayBuffer) bytes = new Uint8Array(data);
    else if (ArrayBuffer.isView(data)) bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    else
      throw new TypeError('tendon: loadGltf takes the .glb / .gltf bytes as an ArrayBuffer, a typed ' +
                          `array or a DataView, not ${data === null ? 'null' : typeof data}`);
    const name = options.name === undefined ? '(memory)' : String(options.name);
    const nameBytes = new TextEncoder().encode(name);
    const owned = [];
    try {
      const p = tendon._alloc(Math.max(1, bytes.length));
      owned.push(p);
      new Uint8Array(tendon.memory.buffer, p, bytes.length).set(bytes);
      const np = tendon._alloc(nameBytes.length + 1);
      owned.push(np);
      const u8 = new Uint8Array(tendon.memory.buffer);
      u8.set(nameBytes, np);
      u8[np + nameBytes.length] = 0;
      const box = tendon._alloc(4);
      owned.push(box);
      tendon._check(x.tendon_gltf_load_memory(p, bytes.length, np, 0, box));
      this._ptr = tendon._u32()[box >>> 2];
    } finally {
      for (const q of owned) x.free(q);
    }
    this._views = [];
    try {
      this._build();
    } catch (e) {
      this.dispose();
      throw e;
    }
  }

  _build() {
    const t = this._tendon, x = t._x, g = this._ptr;
    const str = (p) => (p ? t._string(p) : null);
    const keep = (o) => { this._views.push(o); return o; };
    this.notes = t._string(x.tendon_gltf_notes(g));
    // the skeleton: every node of the file
    const sk = x.tendon_gltf_skeleton(g);
    const n = x.tendon_skeleton_joint_count(sk);
    this.skeleton = keep(borrowed(ModuleSkeleton, t, sk, { jointCount: n }));
    const parents = x.tendon_skeleton_parents(sk) >>> 0;
    this.parents = Int32Array.from(new Int32Array(t.memory.buffer, parents, n));
    this.jointNames = Array.from({ length: n }, (_, j) => t._string(x.tendon_skeleton_joint_name(sk, j)));
    // nodes: glTF node i as joint, mesh, skin
    this.nodes = Array.from({ length: x.tendon_gltf_node_count(g) }, (_, i) => ({
      name: str(x.tendon_gltf_node_name(g, i)), joint: x.tendon_gltf_node_joint(g, i),
      mesh: x.tendon_gltf_node_mesh(g, i), skin: x.tendon_gltf_node_skin(g, i),
    }));
    // skins: bindings to the skeleton (palette entry k = joint joints[k], node nodes[k])
    this.skins = Array.from({ length: x.tendon_gltf_skin_count(g) }, (_, k) => {
      const b = x.tendon_gltf_skin(g, k), pc = x.tendon_skin_binding_palette_count(b);
      const joints = x.tendon_skin_binding_joints(b) >>> 0;
      const nodes = x.tendon_gltf_skin_nodes(g, k) >>> 0;
      const ib = x.tendon_skin_binding_inverse_bind(b) >>> 0;
      return {
        name: str(x.tendon_gltf_skin_name(g, k)),
        binding: keep(borrowed(ModuleSkinBinding, t, b, { paletteCount: pc })),
        paletteCount: pc,
        joints: pc ? Uint32Array.from(new Uint32Array(t.memory.buffer, joints, pc)) : new Uint32Array(0),
        nodes: pc && nodes ? Uint32Array.from(new Uint32Array(t.memory.buffer, nodes, pc)) : new Uint32Array(0),
        inverseBind: ib ? keep(borrowed(ModuleFloats, t, ib, { length: 16 * pc })) : null,
      };
    });
    // animations: clips over the skeleton's joints
    this.animations = Array.from({ length: x.tendon_gltf_animation_count(g) }, (_, a) => {
      const c = x.tendon_gltf_animation(g, a);
      return keep(borrowed(ModuleClip, t, c, {
        jointCount: x.tendon_clip_joint_count(c), duration: x.tendon_clip_duration(c),
        name: str(x.tendon_gltf_animation_name(g, a)), index: a,
        trackCount: x.tendon_clip_track_count(c),
        channelCount: x.tendon_gltf_animation_channel_count(g, a),
      }));
    });
    this.animationNames = this.animations.map((c) => c.name);
    // meshes: each primitive's arrays, as views of the model's memory (read-only by contract)
    const slots = t._alloc(36);
    try {
      this.meshes = Array.from({ length: x.tendon_gltf_mesh_count(g) }, (_, m) => ({
        primitives: Array.from({ length: x.tendon_gltf_primitive_count(g, m) }, (_, p) => {
          t._check(x.tendon_wasm_gltf_primitive(g, m, p, slots));
          const u = t._u32(), o = slots >>> 2, v = u[o];
          const floats = (ptr, per) => (ptr ? keep(borrowed(ModuleFloats, t, ptr, { length: per * v })) : null);
          const targets = [];
          for (let k = 0; k < u[o + 6]; k++) targets.push(floats(t._u32()[(u[o + 7] >>> 2) + k], 3));
          const dw = u[o + 8];
          return {
            vertexCount: v,
            positions: floats(u[o + 1], 3), normals: floats(u[o + 2], 3),
            joints: u[o + 3] ? keep(borrowed(ModuleU16, t, u[o + 3], { length: 4 * v })) : null,
            weights: floats(u[o + 4], 4), tangents: floats(u[o + 5], 4),
            targets, defaultWeights: dw ? Float32Array.from(new Float32Array(t.memory.buffer, dw, targets.length)) : new Float32Array(0),
          };
        }),
      }));
    } finally { x.free(slots); }
    // the skinned primitives: every node with a mesh and a skin, with what skin() takes
    this.skinnedPrimitives = [];
    this.nodes.forEach((nd, node) => {
      if (nd.mesh < 0 || nd.skin < 0) return;
      this.meshes[nd.mesh].primitives.forEach((pr, primitive) => {
        if (!pr.joints || !pr.weights) return;
        this.skinnedPrimitives.push({ node, mesh: nd.mesh, primitive, skin: nd.skin,
                                      binding: this.skins[nd.skin].binding,
                                      paletteCount: this.skins[nd.skin].paletteCount, ...pr });
      });
    });
  }

  _live() {
    if (!this._ptr) throw new Error('tendon: this glTF model was disposed');
    return this._ptr;
  }

  /** Animation `which`: its index, or its name (the first of that name); a ModuleClip. */
  animation(which) {
    const t = this._tendon, g = this._live();
    if (typeof which === 'number') {
      checkUint(which, 'gltf.animation: index', { status: 'range' });
      if (which >= this.animations.length)
        throw new TendonError(`gltf.animation: index ${which} is out of range (the model has ` +
                              `${this.animations.length} animations)`, 3, 'TENDON_ERR_RANGE');
      return this.animations[which];
    }
    if (typeof which !== 'string')
      throw new TypeError('tendon: gltf.animation takes an index or a name');
    checkName(which, 'gltf.animation: name');
    const bytes = new TextEncoder().encode(which);
    const p = t._alloc(bytes.length + 8); // the name, its NUL, an aligned size_t after them
    try {
      const u8 = new Uint8Array(t.memory.buffer);
      u8.set(bytes, p);
      u8[p + bytes.length] = 0;
      const box = p + bytes.length + 4 - ((p + bytes.length + 4) % 4);
      t._check(t._x.tendon_gltf_find_animation(g, p, box));
      return this.animations[t._u32()[box >>> 2]];
    } finally { t._x.free(p); }
  }

  /** Track `track` of animation `anim` came from glTF channel `channel` on node `node`. */
  channel(anim, track) {
    const t = this._tendon, g = this._live();
    checkUint(anim, 'gltf.channel: anim', { status: 'range' });
    checkUint(track, 'gltf.channel: track', { status: 'range' });
    const out = t._alloc(12);
    try {
      t._check(t._x.tendon_wasm_gltf_channel(g, anim, track, out));
      const u = t._u32(), o = out >>> 2;
      return { channel: u[o], node: u[o + 1], path: TRACK_PATHS[u[o + 2]] };
    } finally { t._x.free(out); }
  }

  /** Free the model and everything of it (its skeleton, skins, clips, vertex arrays). */
  dispose() {
    if (!this._ptr) return;
    this._tendon._x.tendon_gltf_destroy(this._ptr);
    this._ptr = 0;
    for (const v of this._views) v._ptr = 0;
    this._views = [];
  }
}

export { Tendon, ModulePose, ModuleFloats, ModuleAnchor, ModuleClip, ModuleSkeleton,
         ModuleSkinBinding, ModuleU16, ModuleSkinMesh, ModuleSpringRig, ModuleGltf };

// dispose() from inside a callback (an anchor, a rig's weight function) while a call that may
// be reading the object runs: the object reads as disposed at once (its methods throw), and
// its memory is freed when that call returns (Tendon._callOut), not under the module's feet.
for (const cls of [ModulePose, ModuleFloats, ModuleAnchor, ModuleClip, ModuleSkeleton,
                   ModuleSkinBinding, ModuleSpringRig, ModuleSkinMesh, ModuleU16, ModuleGltf]) {
  const own = cls.prototype.dispose;
  cls.prototype.dispose = function dispose() {
    const t = this._tendon;
    if (!this._ptr || this._borrowed || !t || t._calls === 0) return own.call(this);
    const ptr = this._ptr;
    this._ptr = 0;
    t._deferred.push(() => { this._ptr = ptr; own.call(this); });
  };
}
