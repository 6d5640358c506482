// glTF from an ArrayBuffer (tendon.loadGltf: tendon_gltf_load_memory inside the module, over
// jansson built for wasm32-wasi), on both modules, against the native `tendon sample`
// ($TENDON_NATIVE, else build/tools/tendon) on the same files: the importer's skeleton, skins and
// clips, each animation sampled at a few times over the rest pose, pose → model matrices →
// palette through the binding's palette(), every vertex of every skinned primitive through the
// binding's skin() — every float bit for bit against what the native library prints (shortest
// decimals that read back as the same float32: Math.fround of them is the native float). Then
// truncated and corrupted buffers: a TendonError whose message is the native importer's own for
// the same bytes read from a file of the same name, and no module memory kept by a load that
// failed or by a model disposed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync, spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadTendon, TendonError, ModuleClip, ModuleSkeleton, ModuleSkinBinding } from '../tendon.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const native = process.env.TENDON_NATIVE || join(root, 'build', 'tools', 'tendon');
const FLAVOURS = ['simd128', 'scalar'];
const KHR = join(root, 'tests', 'data', 'gltf', 'khronos-sample-assets');

// the skinned models the native glTF suites use: .glb with a BIN chunk, a quantized .glb
// (KHR_mesh_quantization: int16 positions), a .gltf with a base64 data: buffer
const MODELS = [
  { file: join(KHR, 'Fox', 'Fox.glb'), animations: ['Survey', 'Walk', 'Run'] },
  { file: join(KHR, 'CesiumMan', 'CesiumMan.glb'), animations: [0] },
  { file: join(KHR, 'RiggedFigure', 'RiggedFigure.glb'), animations: [0] },
  { file: join(KHR, 'RiggedSimple', 'RiggedSimple.glb'), animations: [0] },
  { file: join(KHR, 'SimpleSkin', 'SimpleSkin.gltf'), animations: [0] },
  { file: join(root, 'tests', 'data', 'gltf-quantized', 'Fox-quantized.glb'), animations: ['Walk'] },
];
// times on the clips' axis: the start, between keys, past the end (clamped)
const TIMES = [0, 0.3125, 1.1, 7.5];

const f32 = (v) => Math.fround(v);
function sameFloats(actual, expected, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  for (let i = 0; i < expected.length; i++) {
    const e = f32(expected[i]), g = actual[i];
    if (!Object.is(e, g)) assert.fail(`${what}[${i}]: binding ${g}, native ${e}`);
  }
}

const normalsSeen = new Map(); // "flavour model time node" -> the skinned normals

test('native tendon sample (the oracle) is built', () => {
  assert.ok(existsSync(native), `the native tendon (${native}) is built`);
});

/** The native `tendon sample` of one model: the rest pose, then each animation at TIMES. */
const nativeRuns = new Map();
function nativeSample(file, animation, probes) {
  const key = `${file} ${animation}`;
  if (nativeRuns.has(key)) return nativeRuns.get(key);
  const args = ['sample', file];
  if (animation !== null) {
    args.push('--animation', String(animation));
    for (const t of TIMES) args.push('--time', String(t));
  }
  for (const p of probes) args.push('--vertex', p);
  const out = JSON.parse(execFileSync(native, args, { maxBuffer: 1 << 28, encoding: 'utf8' }));
  const result = animation === null ? [out] : out;
  nativeRuns.set(key, result);
  return result;
}

for (const flavour of FLAVOURS) {
  for (const model of MODELS) {
    const name = model.file.slice(root.length + 1);
    test(`${flavour}: ${name} from an ArrayBuffer, sampled, palette, skinned: native's bits`, async () => {
      const t = await loadTendon({ flavour });
      const bytes = readFileSync(model.file);
      // a fresh ArrayBuffer holding exactly the file (not node's pooled Buffer)
      const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
      const g = t.loadGltf(ab, { name: model.file });
      assert.ok(g.skeleton instanceof ModuleSkeleton);
      assert.ok(g.skins.length >= 1, 'a skin');
      assert.ok(g.skinnedPrimitives.length >= 1, 'a skinned primitive');
      const n = g.skeleton.jointCount;
      assert.equal(g.nodes.length, n, 'one joint per node');
      // every vertex of every skinned primitive, as the native --vertex probes
      const probes = [];
      for (const sp of g.skinnedPrimitives)
        for (let v = 0; v < sp.vertexCount; v++) probes.push(`${sp.node}:${sp.primitive}:${v}`);
      const pose = t.createPose(n), modelM = t.createFloats(16 * n);
      const work = g.skinnedPrimitives.map((sp) => ({
        sp, palette: t.createFloats(16 * sp.paletteCount), out: t.createFloats(3 * sp.vertexCount),
        outNormals: sp.normals ? t.createFloats(3 * sp.vertexCount) : null,
      }));
      const skinPalettes = g.skins.map((s) => t.createFloats(16 * s.paletteCount));
      let compared = 0;
      for (const anim of [null, ...model.animations]) {
        const clip = anim === null ? null : g.animation(anim);
        if (clip) {
          assert.ok(clip instanceof ModuleClip);
          if (typeof anim === 'string') assert.equal(clip.name, anim);
          assert.equal(clip.jointCount, n);
        }
        const expected = nativeSample(model.file, anim, probes);
        const times = anim === null ? [null] : TIMES;
        assert.equal(expected.length, times.length);
        times.forEach((time, r) => {
          const want = expected[r], at = `${name} ${anim === null ? 'rest pose' : `${anim} at ${time} s`}`;
          if (time !== null) assert.equal(want.t, time);
          g.skeleton.restPose(pose);
          if (clip) clip.sample(time, pose);
          assert.equal(want.skins.length, g.skins.length);
          g.skins.forEach((s, k) => {
            t.palette(g.skeleton, s.binding, pose, modelM, skinPalettes[k]);
            const w = want.skins[k];
            assert.deepEqual(w.joints, [...s.nodes].map((node) => g.nodes[node].name), `${at}: skin ${k}'s joints`);
            assert.equal(w.local.length, s.paletteCount);
            for (let e = 0; e < s.paletteCount; e++) {
              const j = s.joints[e];
              assert.equal(g.nodes[s.nodes[e]].joint, j, `${at}: palette entry ${e}'s joint`);
              const local = [...pose.translation.subarray(3 * j, 3 * j + 3), ...pose.rotation.subarray(4 * j, 4 * j + 4),
                             ...pose.scale.subarray(3 * j, 3 * j + 3)];
              sameFloats(local, w.local[e], `${at}: skin ${k} entry ${e} local`);
              sameFloats(modelM.array.subarray(16 * j, 16 * j + 16), w.world[e], `${at}: skin ${k} entry ${e} world`);
              sameFloats(skinPalettes[k].array.subarray(16 * e, 16 * e + 16), w.palette[e], `${at}: skin ${k} entry ${e} palette`);
              compared += 42;
            }
          });
          let probe = 0;
          for (const { sp, palette, out, outNormals } of work) {
            t.palette(g.skeleton, sp.binding, pose, modelM, palette);
            t.skin({ palette, paletteCount: sp.paletteCount, vertexCount: sp.vertexCount, joints: sp.joints,
                     weights: sp.weights, positions: sp.positions, outPositions: out });
            const o = out.array;
            for (let v = 0; v < sp.vertexCount; v++, probe++)
              sameFloats(o.subarray(3 * v, 3 * v + 3), want.skinned[probe], `${at}: node ${sp.node} vertex ${v}`);
            compared += 3 * sp.vertexCount;
            if (outNormals) {
              // with normals: the positions are the same bits, the normals are skinned too
              const positions = Float32Array.from(o);
              t.skin({ palette, paletteCount: sp.paletteCount, vertexCount: sp.vertexCount, joints: sp.joints,
                       weights: sp.weights, positions: sp.positions, outPositions: out,
                       normals: sp.normals, outNormals });
              assert.deepEqual(new Uint32Array(Float32Array.from(out.array).buffer), new Uint32Array(positions.buffer));
              // (the native tool prints no normals: the two modules' are compared below)
              normalsSeen.set(`${flavour} ${at} node ${sp.node}`, Float32Array.from(outNormals.array));
            }
          }
          assert.equal(probe, want.skinned.length);
        });
      }
      assert.ok(compared >= 500, `${compared} floats compared`);
      // the borrowed objects' dispose() leaves them to the model; the model's frees them all
      g.skeleton.dispose();
      g.skeleton.restPose(pose);
      g.dispose();
      g.dispose();
      assert.throws(() => g.skeleton.restPose(pose), /this skeleton was disposed/);
      assert.throws(() => g.animations[0].sample(0, pose), /this clip was disposed/);
      assert.throws(() => g.skinnedPrimitives[0].positions.array, /these floats were disposed/);
      assert.throws(() => t.palette(g.skeleton, g.skins[0].binding, pose, modelM, skinPalettes[0]), /disposed/);
      assert.throws(() => g.animation(0), /this glTF model was disposed/);
      for (const w of work) { w.palette.dispose(); w.out.dispose(); w.outNormals?.dispose(); }
      for (const p of skinPalettes) p.dispose();
      pose.dispose(); modelM.dispose();
      t.dispose();
    });
  }
}

test('skinned normals: the same bits from both modules', () => {
  const keys = [...normalsSeen.keys()].filter((k) => k.startsWith('simd128 '));
  assert.ok(keys.length >= 3, `${keys.length} skinned normal sets`);
  let moved = 0;
  for (const k of keys) {
    const a = normalsSeen.get(k), b = normalsSeen.get(k.replace(/^simd128 /, 'scalar '));
    assert.ok(b, `scalar ran ${k}`);
    assert.deepEqual(new Uint32Array(a.buffer), new Uint32Array(b.buffer), k);
    if (a.some((x) => !Number.isFinite(x))) assert.fail(`${k}: a normal is not finite`);
    moved++;
  }
  assert.equal(moved, keys.length);
});

/** The native importer's message for these bytes read from a file `path` (tendon sample --list). */
function nativeMessage(path) {
  const r = spawnSync(native, ['sample', path, '--list'], { encoding: 'utf8' });
  assert.notEqual(r.status, 0, `native loads ${path}`);
  const m = /^tendon sample: (.*)\n$/.exec(r.stderr);
  assert.ok(m, `native stderr: ${r.stderr}`);
  return m[1];
}

// Corruptions of Fox.glb and SimpleSkin.gltf: what each breaks is the importer's to say.
function corruptions() {
  const fox = readFileSync(join(KHR, 'Fox', 'Fox.glb'));
  const skin = readFileSync(join(KHR, 'SimpleSkin', 'SimpleSkin.gltf'));
  const jsonLen = fox.readUInt32LE(12);
  const out = [];
  for (const len of [0, 3, 12, 19, 20, 100, 20 + jsonLen, fox.length >> 1, fox.length - 1])
    out.push([`Fox.glb cut at ${len} bytes`, 'Fox-cut.glb', fox.subarray(0, len)]);
  // cut, with the header's length patched to match: the chunks themselves run short
  for (const len of [20 + (jsonLen >> 1), 20 + jsonLen + 4, 20 + jsonLen + 108, fox.length - 1]) {
    const b = Buffer.from(fox.subarray(0, len));
    b.writeUInt32LE(len, 8);
    out.push([`Fox.glb cut at ${len} bytes, header patched`, 'Fox-cut2.glb', b]);
  }
  const edit = (label, f) => { const b = Buffer.from(fox); f(b); out.push([label, 'Fox-bad.glb', b]); };
  edit('Fox.glb, version 3', (b) => b.writeUInt32LE(3, 4));
  edit('Fox.glb, chunk 0 not JSON', (b) => b.writeUInt32LE(0x12345678, 16));
  edit('Fox.glb, JSON chunk longer than the file', (b) => b.writeUInt32LE(fox.length, 12));
  edit('Fox.glb, a brace of the JSON replaced', (b) => { b[20] = 0x5b; });
  edit('Fox.glb, BIN chunk shorter than its buffer', (b) => {
    const at = 20 + jsonLen;
    b.writeUInt32LE(b.readUInt32LE(at) - 64, at);
  });
  const text = skin.toString('utf8');
  out.push(['SimpleSkin.gltf cut in half', 'SimpleSkin-cut.gltf', skin.subarray(0, skin.length >> 1)]);
  out.push(['SimpleSkin.gltf, an accessor index out of range', 'SimpleSkin-bad.gltf',
            Buffer.from(text.replace('"POSITION" : 1', '"POSITION" : 99').replace('"POSITION": 1', '"POSITION": 99'))]);
  out.push(['SimpleSkin.gltf, base64 damaged', 'SimpleSkin-b64.gltf', Buffer.from(text.replace('base64,', 'base64,!!'))]);
  return out;
}

for (const flavour of FLAVOURS) {
  test(`${flavour}: truncated and corrupted buffers throw the native importer's message`, async () => {
    const t = await loadTendon({ flavour });
    const dir = mkdtempSync(join(tmpdir(), 'tendon-gltf-'));
    try {
      for (const [label, file, bytes] of corruptions()) {
        const path = join(dir, file);
        writeFileSync(path, bytes);
        const want = nativeMessage(path);
        assert.throws(() => t.loadGltf(new Uint8Array(bytes), { name: path }), (e) => {
          assert.ok(e instanceof TendonError && e instanceof Error, `${label}: a TendonError, not ${e}`);
          assert.equal(e.message, want, label);
          assert.ok(['TENDON_ERR_FORMAT', 'TENDON_ERR_IO'].includes(e.statusName), `${label}: ${e.statusName}`);
          return true;
        }, label);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // a buffer in a file: loaded from memory there is no directory to read it from (gltf.h,
    // tendon_gltf_load_memory with base_dir NULL), where the native load reads the .bin beside
    const external = readFileSync(join(root, 'tests', 'data', 'gltf', 'asset-generator', 'Animation_Skin', 'Animation_Skin_00.gltf'));
    assert.throws(() => t.loadGltf(external, { name: 'Animation_Skin_00.gltf' }),
                  (e) => e instanceof TendonError && e.statusName === 'TENDON_ERR_FORMAT' &&
                         e.message === 'Animation_Skin_00.gltf: buffers[0]: refers to the file "Animation_Skin_00.bin", ' +
                                       'and this model was loaded from memory with no base directory');
    // the name defaults to "(memory)"; what is not bytes is a TypeError
    assert.throws(() => t.loadGltf(new ArrayBuffer(5)), (e) => e instanceof TendonError && /^\(memory\)/.test(e.message));
    for (const bad of [null, undefined, 'Fox.glb', [1, 2, 3], {}])
      assert.throws(() => t.loadGltf(bad), TypeError, String(bad));
    t.dispose();
  });

  test(`${flavour}: channelCount counts the channels the importer skipped`, async () => {
    // Fox.glb with two channels appended to its first animation: a path the importer does not
    // animate, and no target node. The GLB is repacked: the JSON chunk padded with spaces to 4.
    const fox = readFileSync(join(KHR, 'Fox', 'Fox.glb'));
    const jsonLength = fox.readUInt32LE(12);
    const json = JSON.parse(fox.subarray(20, 20 + jsonLength).toString('utf8'));
    const n0 = json.animations[0].channels.length;
    json.animations[0].channels.push({ sampler: 0, target: { node: 0, path: 'pointer' } },
                                     { sampler: 0, target: { path: 'rotation' } });
    let text = Buffer.from(JSON.stringify(json), 'utf8');
    text = Buffer.concat([text, Buffer.alloc((4 - (text.length % 4)) % 4, 0x20)]);
    const rest = fox.subarray(20 + jsonLength); // the BIN chunk, header and all
    const head = Buffer.alloc(20);
    head.writeUInt32LE(0x46546c67, 0); // "glTF"
    head.writeUInt32LE(2, 4);
    head.writeUInt32LE(20 + text.length + rest.length, 8);
    head.writeUInt32LE(text.length, 12);
    head.writeUInt32LE(0x4e4f534a, 16); // "JSON"
    const t = await loadTendon({ flavour });
    const g = t.loadGltf(Buffer.concat([head, text, rest]), { name: 'Fox-skipped.glb' });
    assert.equal(g.animations[0].channelCount, n0 + 2);
    assert.equal(g.animations[0].trackCount, n0);
    assert.equal(g.animations[1].channelCount, json.animations[1].channels.length);
    assert.match(g.notes, new RegExp(`channels\\[${n0 + 1}\\]`));
    g.dispose();
    t.dispose();
  });

  test(`${flavour}: animations by name and index, channels, and their errors`, async () => {
    const t = await loadTendon({ flavour });
    const g = t.loadGltf(readFileSync(join(KHR, 'Fox', 'Fox.glb')), { name: 'Fox.glb' });
    assert.deepEqual(g.animationNames, ['Survey', 'Walk', 'Run']);
    g.animationNames.forEach((nm, i) => {
      assert.equal(g.animation(nm), g.animations[i]);
      assert.equal(g.animation(i), g.animations[i]);
      assert.equal(g.animations[i].index, i);
    });
    assert.throws(() => g.animation('Trot'), (e) => e instanceof TendonError && e.statusName === 'TENDON_ERR_NOT_FOUND' && /"Trot"/.test(e.message));
    assert.throws(() => g.animation(3), (e) => e instanceof TendonError && e.statusName === 'TENDON_ERR_RANGE' && /index 3 is out of range \(the model has 3 animations\)/.test(e.message));
    assert.throws(() => g.animation(2 ** 32 + 1), (e) => e.statusName === 'TENDON_ERR_RANGE');
    // the native --list says what each clip holds: its duration (%.4g s) and track count
    const list = execFileSync(native, ['sample', join(KHR, 'Fox', 'Fox.glb'), '--list'], { encoding: 'utf8' });
    for (const c of g.animations) {
      const m = new RegExp(`^ +${c.index} +"${c.name}" +(\\S+) s +(\\d+) tracks$`, 'm').exec(list);
      assert.ok(m, `--list has animation ${c.index}`);
      assert.equal(Number(c.duration.toPrecision(4)), Number(m[1]));
      assert.equal(c.trackCount, Number(m[2]));
      // every track came from a channel of a node, on a TRS path
      for (let tr = 0; tr < c.trackCount; tr++) {
        const ch = g.channel(c.index, tr);
        assert.ok(ch.node < g.nodes.length && ['translation', 'rotation', 'scale'].includes(ch.path));
      }
    }
    assert.throws(() => g.channel(0, g.animations[0].trackCount), (e) => e instanceof TendonError && e.statusName === 'TENDON_ERR_RANGE');
    // channelCount: the file's channels (read from the GLB's JSON chunk), every one imported here
    const foxBytes = readFileSync(join(KHR, 'Fox', 'Fox.glb'));
    const foxJson = JSON.parse(foxBytes.subarray(20, 20 + foxBytes.readUInt32LE(12)).toString('utf8'));
    for (const c of g.animations) {
      assert.equal(c.channelCount, foxJson.animations[c.index].channels.length);
      assert.equal(c.channelCount, c.trackCount);
    }
    // the skin's palette entries against --list's (entry: joint name)
    const entries = [...list.matchAll(/^ +(\d+): (.*)$/gm)].map((m) => m[2]);
    assert.deepEqual(entries, [...g.skins[0].joints].map((j) => g.jointNames[j]));
    assert.ok(g.skins[0].binding instanceof ModuleSkinBinding);
    g.dispose();
    t.dispose();
  });

  test(`${flavour}: wasm32's bounds: byte lengths below 2^31, accessor counts below 2^24`, async () => {
    // gltf.c bounds them by 2^40 and 2^32 where size_t has 64 bits, 2^31 and 2^24 on wasm32's
    // 32-bit size_t (so that its sums and products stay below 2^32): just below, the module
    // agrees with native; at the bound, the module refuses in get_index's words, native not
    const t = await loadTendon({ flavour });
    const data = (bytes) => `data:application/octet-stream;base64,${Buffer.alloc(bytes).toString('base64')}`;
    const withBuffer = (byteLength) => ({ asset: { version: '2.0' }, buffers: [{ byteLength, uri: data(3) }] });
    const withCount = (count) => ({
      asset: { version: '2.0' }, buffers: [{ byteLength: 8, uri: data(8) }], bufferViews: [{ buffer: 0, byteLength: 8 }],
      accessors: [{ componentType: 5126, type: 'SCALAR', count,
                    sparse: { count: 1, indices: { bufferView: 0, componentType: 5125 }, values: { bufferView: 0 } } }],
    });
    const dir = mkdtempSync(join(tmpdir(), 'tendon-gltf-'));
    try {
      const load = (doc, file) => {
        const path = join(dir, file), text = JSON.stringify(doc);
        writeFileSync(path, text);
        const native = spawnSync(process.env.TENDON_NATIVE || join(root, 'build', 'tools', 'tendon'),
                                 ['sample', path, '--list'], { encoding: 'utf8' });
        let wasm = null;
        try { t.loadGltf(new TextEncoder().encode(text), { name: path }).dispose(); } catch (e) { wasm = e; }
        return { path, native, wasm };
      };
      // just below: the same answer as native (a data: URI too short; a model that loads)
      let r = load(withBuffer(2 ** 31 - 1), 'below.gltf');
      assert.ok(r.wasm instanceof TendonError);
      assert.equal(`tendon sample: ${r.wasm.message}\n`, r.native.stderr);
      assert.match(r.wasm.message, /byteLength says 2147483647: truncated$/);
      r = load(withCount(2 ** 24 - 1), 'count-below.gltf');
      assert.equal(r.native.status, 0, r.native.stderr);
      assert.equal(r.wasm, null, String(r.wasm));
      // at the bound
      r = load(withBuffer(2 ** 31), 'at.gltf');
      assert.equal(r.wasm.message, `${r.path}: buffers[0]: \`byteLength\` is 2147483648: out of range (must be below 2147483648)`);
      assert.equal(r.wasm.statusName, 'TENDON_ERR_FORMAT');
      assert.doesNotMatch(r.native.stderr, /out of range/);
      r = load(withCount(2 ** 24), 'count-at.gltf');
      assert.equal(r.wasm.message, `${r.path}: accessors[0]: \`count\` is 16777216: out of range (must be below 16777216)`);
      assert.equal(r.native.status, 0, 'native: 2^24 elements are below its 2^32');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    t.dispose();
  });

  test(`${flavour}: loading and disposing keeps no module memory`, async () => {
    const t = await loadTendon({ flavour });
    const fox = readFileSync(join(KHR, 'Fox', 'Fox.glb'));
    const cut = fox.subarray(0, fox.length - 1);
    const round = () => {
      const g = t.loadGltf(fox);
      const pose = t.createPose(g.skeleton.jointCount);
      g.skeleton.restPose(pose);
      g.animations[1].sample(0.5, pose);
      pose.dispose();
      g.dispose();
      assert.throws(() => t.loadGltf(cut), TendonError);
    };
    for (let i = 0; i < 3; i++) round();
    // a model is ~0.3 MB of module memory: kept, 60 rounds would grow the memory by ~18 MB
    const before = t.memory.buffer.byteLength;
    for (let i = 0; i < 60; i++) round();
    assert.equal(t.memory.buffer.byteLength, before, 'the module memory did not grow');
    t.dispose();
  });
}
