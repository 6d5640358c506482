// `tendon demo`'s built-in character in WebAssembly (dist/tendon-demo-simd128.wasm: the native
// command's own demo_core.c built for wasm32), for the page and its tests, in node or a browser.
//   const r = await runDemo({ bytes, vertices: 2000, frames: 30, fps: 60 });
//   r.hashes.skin, r.usPerFrame.skin (median), r.meanUsPerFrame.skin, r.skinned (3 floats a vertex)

export const STAGES = ['sample', 'layer', 'anchors', 'springs', 'palette', 'morph', 'skin'];
const SIMD128 = 6; // TENDON_ISA_SIMD128

export async function runDemo({ bytes, vertices = 2000, frames = 30, fps = 60 }) {
  let memory = null;
  const u32 = () => new Uint32Array(memory.buffer);
  const wasi = {
    environ_sizes_get(c, s) { u32()[c >> 2] = 0; u32()[s >> 2] = 0; return 0; },
    environ_get() { return 0; },
    clock_time_get(id, precision, out) {
      const ns = BigInt(Math.round(performance.now() * 1e6));
      new BigUint64Array(memory.buffer, out, 1)[0] = ns;
      return 0;
    },
    fd_write(fd, iovs, n, written) {
      let total = 0;
      for (let i = 0; i < n; i++) total += u32()[(iovs >> 2) + 2 * i + 1];
      u32()[written >> 2] = total;
      return 0;
    },
    fd_close() { return 0; },
    fd_seek() { return 70; },
    proc_exit(code) { throw new Error(`the demo module exited (${code})`); },
  };
  const module = await WebAssembly.compile(bytes);
  const env = {};
  for (const imp of WebAssembly.Module.imports(module))
    if (imp.module === 'env')
      env[imp.name] = () => { throw new Error(`${imp.name} is not available in the page's module`); };
  const instance = await WebAssembly.instantiate(module, { wasi_snapshot_preview1: wasi, env });
  const x = instance.exports;
  memory = x.memory;
  x._initialize();
  const hash = x.malloc(32 * STAGES.length), ns = x.malloc(16 * STAGES.length);
  const t0 = performance.now();
  const rc = x.tendon_wasm_demo_run(vertices, frames, fps, SIMD128, hash, ns);
  const wallMs = performance.now() - t0;
  if (rc !== 0) {
    const u8 = new Uint8Array(memory.buffer);
    let p = x.tendon_wasm_demo_why(), why = '';
    while (u8[p]) why += String.fromCharCode(u8[p++]);
    throw new Error(`tendon demo in WebAssembly: ${why}`);
  }
  const hashes = {}, usPerFrame = {}, meanUsPerFrame = {};
  const h = new Uint8Array(memory.buffer, hash, 32 * STAGES.length);
  const t = new Float64Array(memory.buffer, ns, 2 * STAGES.length);
  STAGES.forEach((s, i) => {
    hashes[s] = [...h.subarray(32 * i, 32 * i + 32)].map((b) => b.toString(16).padStart(2, '0')).join('');
    usPerFrame[s] = t[i] / 1000;
    meanUsPerFrame[s] = t[STAGES.length + i] / 1000;
  });
  const count = x.tendon_wasm_demo_skinned_count();
  const skinned = new Float32Array(memory.buffer, x.tendon_wasm_demo_skinned(), 3 * count).slice();
  return { hashes, usPerFrame, meanUsPerFrame, skinned, frames, vertices, wallMs };
}
